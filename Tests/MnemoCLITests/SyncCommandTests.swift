import Foundation
import Mnemo
import MnemoTestSupport
import Testing

/// Sync with a real `mnemo serve` process over a socket: `mnemo sync` for two device files, and
/// the library's `URLSessionSyncTransport`.
@Suite struct SyncCommandTests {
    @Test func twoDevicesSyncThroughAServerProcess() async throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        let server = folder.appendingPathComponent("server.sqlite").path
        let tokens = folder.appendingPathComponent("tokens.txt").path
        let token = folder.appendingPathComponent("token").path
        try "tok-42 user-42\n".write(toFile: tokens, atomically: true, encoding: .utf8)
        try "tok-42\n".write(toFile: token, atomically: true, encoding: .utf8)
        let process = try ServerProcess(["--db", server, "--auth", "tokens", "--tokens-file", tokens])
        try await process.waitUntilListening()
        defer { process.stop() }
        let url = "http://127.0.0.1:\(process.port)"

        let phone = folder.appendingPathComponent("phone.sqlite").path
        let tablet = folder.appendingPathComponent("tablet.sqlite").path
        let add = try CLIRunner.run(
            ["ingest", "--db", phone, "--namespace", "user-42", "--no-embeddings", "--format", "jsonl", "-"],
            input: #"{"topic": "Home", "content": "Lives in Porto"}"# + "\n")
        #expect(add.status == 0, "\(add.stderr)")
        let status = try CLIRunner.run(["sync", "--status", "--db", phone, "--namespace", "user-42", "--json"])
        #expect(status.stdout.contains(#""is_linked" : false"#), "\(status.stdout)")
        for device in [phone, tablet] {
            let sync = try CLIRunner.run(
                ["sync", "--server", url, "--token-file", token, "--db", device, "--namespace", "user-42", "--json"])
            #expect(sync.status == 0, "\(sync.stderr)")
        }
        let tabletKB = try KnowledgeBase(path: tablet, namespace: "user-42")
        let facts = try await tabletKB.snapshot().facts
        #expect(facts.map(\.content) == ["Lives in Porto"])
        let phoneKB = try KnowledgeBase(path: phone, namespace: "user-42")
        #expect(try await phoneKB.snapshot().facts.map(\.uid) == facts.map(\.uid), "one identity on every replica")

        // The library's own transport.
        try await tabletKB.updateFact(id: facts[0].id, FactUpdate(importance: .high))
        let transport = URLSessionSyncTransport(server: URL(string: url)!, user: "user-42", token: "tok-42")
        let report = try await tabletKB.sync(with: transport)
        #expect(report.pushed == 1)
        let again = try CLIRunner.run(
            ["sync", "--server", url, "--token-file", token, "--db", phone, "--namespace", "user-42"])
        #expect(again.stdout.contains("pulled 1"), "\(again.stdout)")
        #expect(try await phoneKB.snapshot().facts.first?.importance == .high)

        let foreign = try CLIRunner.run(
            ["sync", "--server", url, "--token-file", token, "--db", phone, "--namespace", "someone-else"])
        #expect(foreign.status != 0)
        #expect(foreign.stderr.contains("403"), "\(foreign.stderr)")
    }
}
