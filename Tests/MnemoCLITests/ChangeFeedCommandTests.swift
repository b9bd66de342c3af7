import Foundation
import Mnemo
import MnemoTestSupport
import Testing

/// The change feed as people and programs follow it: `mnemo serve`'s event stream over a real
/// socket, resumed with `Last-Event-ID`; `mnemo watch`; and a library observation that sees
/// another process's write.
@Suite struct ChangeFeedCommandTests {
    /// A JSONL file of `count` distinct facts.
    static func factsFile(_ count: Int) throws -> String {
        let path = try TestKnowledgeBase.temporaryFolder().appendingPathComponent("facts.jsonl").path
        let lines = (0..<count).map { #"{"topic": "Log/Part \#($0 % 7)", "content": "Logged event number \#($0)"}"# }
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aCutEventStreamResumesWithEveryEventOnceInOrder() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let facts = try Self.factsFile(10_000)
        let ingest = try await ThreadJob { try CLIRunner.run(["ingest", facts, "--db", database, "--no-embeddings"]) }
            .value
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let expected = try await Self.allCursors(database)
        #expect(expected.count > 10_000)

        let server = try ServerProcess(["--db", database])
        try await server.waitUntilListening()
        defer { server.stop() }
        var received: [String] = []
        var lastID = ChangeCursor(sequence: 0, namespace: "default").description
        var random = SystemRandomNumberGenerator()
        while received.count < expected.count {
            let client = EventStreamClient(
                port: server.port, path: "/api/events", headers: ["Last-Event-ID": lastID])
            let take = Int.random(in: 1...2_500, using: &random)
            let reading = try await ThreadJob { try client.read(count: take, timeout: 60) }.value
            #expect(reading.status == 200)
            let ids = reading.messages.filter { $0.event != "ready" }.compactMap(\.id)
            guard let last = ids.last else { break }
            received += ids
            lastID = last
        }
        #expect(received == expected)
    }

    @Test func eventsReachAStreamAsTheyAreWritten() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let server = try ServerProcess(["--db", database])
        try await server.waitUntilListening()
        defer { server.stop() }
        let client = EventStreamClient(port: server.port, path: "/api/events")
        let reading = ThreadJob { try client.read(count: 2, timeout: 30) }
        try await Task.sleep(for: .milliseconds(500))
        let (status, _) = try await HTTPRequest.send(
            server.port, "/v1/facts/extract", method: "POST",
            body: #"{"conversation_id": "c1", "extracted": [{"content": "Lives in Porto", "category": "home"}]}"#)
        #expect(status == 201)
        let messages = try await reading.value.messages
        #expect(messages.first?.event == "ready")
        #expect(messages.dropFirst().map(\.event) == ["topicsUpdated", "factsUpdated"])
        let added = try #require(messages.last)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(added.data.utf8)) as? [String: Any])
        #expect(event["event"] as? String == "fact_added")
        #expect((event["fact"] as? [String: Any])?["content"] as? String == "Lives in Porto")
        #expect(event["cursor"] as? String == added.id)
    }

    @Test func watchPrintsEachChangeAsItIsCommitted() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let one = try Self.factsFile(1)
        #expect(try await Self.ingest(one, into: database) == 0)
        let watch = Process()
        watch.executableURL = CLIRunner.binary
        // From the cursor before the write, however late the process starts following.
        let start = try await KnowledgeBase(path: database).currentCursor()
        watch.arguments = ["watch", "--db", database, "--json", "--since", start.description]
        let output = Pipe()
        watch.standardOutput = output
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        defer { watch.terminate() }
        // Ends the read below if the lines never come.
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { watch.terminate() }
        try await Task.sleep(for: .milliseconds(800))
        #expect(try await Self.ingest(try Self.celloFile(), into: database) == 0)
        let lines = try await ThreadJob { () -> [String] in
            var text = ""
            let handle = output.fileHandleForReading
            while text.split(separator: "\n").count < 2 {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text.split(separator: "\n").map(String.init)
        }.value
        let events = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["event"] as? String
        }
        #expect(events == ["topic_created", "fact_added"])
    }

    @Test func anObservationSeesAnotherProcesssWrite() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let one = try Self.factsFile(1)
        #expect(try await Self.ingest(one, into: database) == 0)
        let kb = try KnowledgeBase(path: database)
        let (firstValue, firstValueCame) = AsyncStream<Void>.makeStream()
        let values = Task {
            var counts: [Int] = []
            for try await facts in kb.observeFacts() {
                counts.append(facts.count)
                firstValueCame.yield()
                if counts.count == 2 { break }
            }
            return counts
        }
        // Write once the observation holds its first value.
        for await _ in firstValue { break }
        #expect(try await Self.ingest(try Self.celloFile(), into: database) == 0)
        #expect(try await values.value(cancellingAfter: .seconds(30)) == [1, 2])
    }

    /// `mnemo ingest FILE --db DATABASE --no-embeddings` on a thread of its own; its status.
    static func ingest(_ file: String, into database: String) async throws -> Int32 {
        try await ThreadJob { try CLIRunner.run(["ingest", file, "--db", database, "--no-embeddings"]) }.value.status
    }

    /// A JSONL file of one fact, written by "another process" in the tests.
    static func celloFile() throws -> String {
        let path = try TestKnowledgeBase.temporaryFolder().appendingPathComponent("one.jsonl").path
        try #"{"topic": "Music", "content": "Plays the cello in a community orchestra"}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func allCursors(_ database: String) async throws -> [String] {
        let kb = try KnowledgeBase(path: database)
        var cursors: [String] = []
        var cursor: ChangeCursor? = nil
        while true {
            let page = try await kb.changes(after: cursor, limit: 1000)
            cursors += page.events.map(\.cursor.description)
            cursor = page.next
            if !page.hasMore { return cursors }
        }
    }
}
