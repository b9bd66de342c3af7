import Foundation
import MnemoTestSupport
import Testing

/// `mnemo fact erase`, `mnemo forget` and what `mnemo fact delete` says it does.
@Suite("mnemo fact erase and forget", .serialized)
struct EraseCommandTests {
    /// A fresh database holding alice's and bob's facts.
    static func database() throws -> String {
        let folder = try TestKnowledgeBase.temporaryFolder()
        let input = folder.appendingPathComponent("facts.jsonl")
        try """
        {"topic": "Health", "content": "Diagnosed with Zanzibarite syndrome in 2024", "namespace": "alice"}
        {"topic": "Food", "content": "Bakes sourdough every Sunday", "namespace": "alice"}
        {"topic": "Food", "content": "Bakes rye bread on Fridays", "namespace": "bob"}
        """.write(to: input, atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("kb.sqlite").path
        let ingest = try CLIRunner.run(["ingest", input.path, "--db", path, "--namespaces-from-records"])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        return path
    }

    static func id(of text: String, namespace: String, in path: String) throws -> Int {
        let result = try CLIRunner.run([
            "search", text, "--mode", "text", "--namespace", namespace, "--db", path, "--json",
        ])
        let object = try #require(try result.json() as? [String: Any])
        return try #require((object["results"] as? [[String: Any]])?.first?["id"] as? Int)
    }

    @Test func factEraseErasesAndPrintsTheReceipt() throws {
        let path = try Self.database()
        let id = try Self.id(of: "Zanzibarite", namespace: "alice", in: path)
        let text = try CLIRunner.run(["fact", "erase", String(id), "--namespace", "alice", "--db", path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Erased 1 fact in alice: #\(id)."), "\(text.stdout)")
        #expect(text.stdout.contains("cannot be undone"))
        let again = try CLIRunner.run(["fact", "erase", String(id), "--namespace", "alice", "--db", path, "--json"])
        let receipt = try #require(try again.json() as? [String: Any])
        #expect(receipt["fact_ids"] as? [Int] == [], "a rerun erases nothing more")
        let history = try CLIRunner.run(["history", String(id), "--namespace", "alice", "--db", path, "--json"])
        #expect(!history.stdout.contains("Zanzibarite") && !history.stderr.contains("Zanzibarite"))
        #expect(try FileTraces(databaseAt: path).found(["Zanzibarite"]) == [])

        let missing = try CLIRunner.run(["fact", "erase", "9999", "--namespace", "alice", "--db", path])
        #expect(missing.status != 0)
        #expect(missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
    }

    @Test func forgetNeedsYesOutsideATerminal() throws {
        let path = try Self.database()
        let refused = try CLIRunner.run(["forget", "--namespace", "alice", "--db", path])
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains("--yes") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(try Self.id(of: "sourdough", namespace: "alice", in: path) > 0)

        let forgot = try CLIRunner.run(["forget", "--yes", "--namespace", "alice", "--db", path, "--json"])
        #expect(forgot.status == 0, "\(forgot.stderr)")
        let receipt = try #require(try forgot.json() as? [String: Any])
        #expect(receipt["facts"] as? Int == 2 && receipt["topics"] as? Int == 2)
        #expect(receipt["wal_truncated"] as? Bool == true)
        let stats = try #require(
            try CLIRunner.run(["stats", "--namespace", "alice", "--db", path, "--json"]).json() as? [String: Any])
        #expect(stats["facts"] as? Int == 0)
        #expect(try Self.id(of: "rye", namespace: "bob", in: path) > 0)
        #expect(try CLIRunner.run(["check", "--db", path]).status == 0)
    }

    @Test func forgetAsksOnATerminal() throws {
        let path = try Self.database()
        let declined = try PseudoTerminal(["forget", "--namespace", "alice", "--db", path], lineEditing: false)
        _ = try declined.waitFor("Type the namespace to confirm")
        declined.send("no\n")
        #expect(try declined.waitForExit() != 0)
        let confirmed = try PseudoTerminal(["forget", "--namespace", "alice", "--db", path], lineEditing: false)
        _ = try confirmed.waitFor("Type the namespace to confirm")
        confirmed.send("alice\n")
        _ = try confirmed.waitFor("Erased 2 facts in alice")
        #expect(try confirmed.waitForExit() == 0)
    }

    @Test func deleteSaysItIsUndoableAndPointsToErase() throws {
        let help = try CLIRunner.run(["fact", "delete", "--help"]).stdout
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("undoable") && words.contains("mnemo fact erase"), "\(help)")
        let erase = try CLIRunner.run(["fact", "erase", "--help"]).stdout
        #expect(
            erase.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("cannot be undone"), "\(erase)")
    }
}

/// `mnemo purge` and `mnemo fact update --expires-at`.
@Suite("mnemo purge", .serialized)
struct PurgeCommandTests {
    @Test func purgeErasesWhatExpiredInEveryNamespace() throws {
        let path = try EraseCommandTests.database()
        let id = try EraseCommandTests.id(of: "sourdough", namespace: "alice", in: path)
        let update = try CLIRunner.run([
            "fact", "update", String(id), "--expires-at", "2020-01-01T00:00:00Z",
            "--namespace", "alice", "--db", path, "--json",
        ])
        #expect(update.status == 0, "\(update.stderr)")
        #expect((try update.json() as? [String: Any])?["expires_at"] as? String == "2020-01-01T00:00:00Z")
        #expect(
            try CLIRunner.run([
                "fact", "update", String(id), "--expires-at", "soon", "--namespace", "alice", "--db", path,
            ]).status != 0)
        let purge = try CLIRunner.run(["purge", "--undo-older-than", "0s", "--db", path, "--json"])
        #expect(purge.status == 0, "\(purge.stderr)")
        let receipts = try #require(try purge.json() as? [[String: Any]])
        let alice = try #require(receipts.first { $0["namespace"] as? String == "alice" })
        #expect(alice["fact_ids"] as? [Int] == [id])
        #expect((alice["undo_records"] as? Int ?? 0) >= 1)
        #expect(try CLIRunner.run(["purge", "--undo-older-than", "forever", "--db", path]).status != 0)
    }
}
