import Foundation
import MnemoTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `mnemo serve` as a user runs it: a real process on a real socket, stopped with SIGTERM.
@Suite struct ServeCommandTests {
    @Test func servesUntilSIGTERMThenExitsCleanly() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let server = try ServerProcess(["--db", database])
        try await server.waitUntilListening()
        let (health, _) = try await server.request("/healthz")
        #expect(health == 200)
        let (created, body) = try await HTTPRequest.send(
            server.port, "/v1/facts/extract", method: "POST",
            body: """
                {"user_id": "u1", "conversation_id": "c1", "extracted": [{"content": "Lives in Porto", "category": "home"}]}
                """)
        #expect(created == 201, "\(String(decoding: body, as: UTF8.self))")
        let (listed, list) = try await server.request("/v1/users/u1/facts")
        #expect(listed == 200)
        #expect(String(decoding: list, as: UTF8.self).contains("Lives in Porto"))
        let (status, stderr) = server.stop()
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("stopped"))
        // The write is in the file for the next process.
        let export = try CLIRunner.run(["export", "--db", database, "--all-namespaces"])
        #expect(export.stdout.contains("Lives in Porto"))
    }

    @Test("SIGTERM with event streams open: each ends with a reconnect event, and the server exits at once")
    func sigtermEndsEventStreams() async throws {
        let server = try ServerProcess(["--db", try TestKnowledgeBase.temporaryPath()])
        try await server.waitUntilListening()
        let streams = (0..<3).map { _ in
            ThreadJob { [port = server.port] in
                // Two: the reconnect event is the only one, so the read ends when the server closes.
                try EventStreamClient(port: port, path: "/api/events").read(count: 2, timeout: 180)
            }
        }
        // Each stream is open once the server counts it: wait for the three `ready` events' writes.
        try await Task.sleep(for: .milliseconds(500))
        let started = ContinuousClock.now
        let (status, stderr) = server.stop()
        let took = ContinuousClock.now - started
        #expect(status == 0, "\(stderr)")
        // Before, the server waited for the streams' clients to hang up: about 28 s.
        #expect(took < .seconds(10), "SIGTERM took \(took)")
        for stream in streams {
            let reading = try await stream.value
            #expect(reading.messages.last?.event == "reconnect", "\(reading.messages)")
            #expect(reading.closedByServer)
        }
    }

    @Test func refusesToServeWithoutAuthenticationOffLoopback() throws {
        let result = try CLIRunner.run(["serve", "--db", TestKnowledgeBase.temporaryPath(), "--host", "0.0.0.0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("without authentication"))
        let missingFile = try CLIRunner.run(["serve", "--auth", "tokens"])
        #expect(missingFile.status != 0)
        #expect(missingFile.stderr.contains("--tokens-file"))
    }

    @Test func helpTeachesTheMemoryPage() throws {
        // Words as one line: the help wraps at the terminal's width.
        let help = try CLIRunner.run(["serve", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
        #expect(help.contains("--ui <ui>"))
        #expect(help.contains("on, off or read-only"))
        #expect(help.contains("--ui read-only shows the same views without any action"))
        let wrong = try CLIRunner.run(["serve", "--ui", "maybe"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("--ui"))
    }
}
