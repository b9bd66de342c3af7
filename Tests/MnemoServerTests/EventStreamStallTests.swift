import Foundation
import Mnemo
import MnemoTestSupport
import Testing

@testable import MnemoServer

/// `GET /api/events` against a client that stops reading: the stream is closed once a write has
/// waited longer than the stall limit, over a real socket.
@Suite struct EventStreamStallTests {
    @Test func aClientThatReadsNothingIsDisconnected() async throws {
        let fixture = try await ServerFixture(eventStreamStallLimit: .milliseconds(500))
        try await fixture.test(.live) { client in
            let port = try #require(client.port)
            // The client reads the stream's start, then nothing until the writes are done and
            // the stall limit has passed three times.
            let state = Locked((ready: false, stalling: true))
            let stalled = EventStreamClient(
                port: port, path: "/api/events", headers: ["Authorization": "Bearer \(ServerFixture.aliceToken)"],
                stallsWhile: {
                    state.withLock {
                        $0.ready = true
                        return $0.stalling
                    }
                })
            let reading = ThreadJob { try stalled.read(count: .max, timeout: 20) }
            while !state.withLock({ $0.ready }) { try await Task.sleep(for: .milliseconds(20)) }
            // More than the socket's and the server's buffers hold: each event carries its fact.
            let padding = String(repeating: "and a long description of it ", count: 120)
            let facts = (0..<2_000).map {
                NewFact(content: "Stalled stream fact number \($0) \(padding)", topicPath: "Stall")
            }
            let kb = try fixture.knowledgeBase.inNamespace("alice")
            for batch in stride(from: 0, to: facts.count, by: 500) {
                _ = try await kb.addFacts(Array(facts[batch..<batch + 500]), nearDuplicates: nil)
            }
            try await Task.sleep(for: .milliseconds(1_500))
            state.withLock { $0.stalling = false }
            let read = try await reading.value
            #expect(read.status == 200)
            let closed = read.closedByServer
            let factEvents = read.messages.filter { $0.event == "factsUpdated" }.count
            #expect(closed, "the server kept the stream open; the client read \(factEvents) events")
            #expect(
                factEvents > 0 && factEvents < facts.count, "\(factEvents) of \(facts.count) events before the close")
        }
    }
}
