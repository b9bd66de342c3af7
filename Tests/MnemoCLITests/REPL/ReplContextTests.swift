import Foundation
import MnemoTestSupport
import Testing

/// `:context`, `:conflicts` and `:undo` in the REPL, and `mnemo context --json` against its golden file.
@Suite("REPL context, conflicts and undo")
struct ReplContextTests {
    static let message = "where does my sister live?"

    /// `mnemo context --json` on the fixtures, byte for byte (`Fixtures/golden/context.json`).
    /// `MNEMO_WRITE_GOLDEN=1` rewrites the file after a deliberate change; review its diff.
    @Test func contextJSONMatchesItsGoldenFile() throws {
        let result = try CLIRunner.run([
            "context", Self.message, "--budget", "300", "--db", ReplFixture.database, "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let golden = ModelFixture.fixtures.appendingPathComponent("golden/context.json")
        if ProcessInfo.processInfo.environment["MNEMO_WRITE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(
                at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try result.stdout.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(result.stdout == expected)

        let object = try #require(try result.json() as? [String: Any])
        #expect(Set(object.keys).isSuperset(of: ["context", "tokens", "items"]))
        let tokens = try #require(object["tokens"] as? Int)
        #expect(tokens <= 300)
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(!items.isEmpty)
        for item in items {
            #expect(
                Set(item.keys).isSuperset(of: [
                    "id", "content", "topic", "type", "importance", "created_at", "why", "score", "tokens",
                ]))
            let content = try #require(item["content"] as? String)
            #expect((object["context"] as? String)?.contains(content) == true)
        }
    }

    @Test func contextPrintsTheMemoryAndItsCost() throws {
        let result = try ReplFixture.run([
            ":context \(Self.message) budget:300", ":json", ":context \(Self.message) budget:300",
            ":context budget:300",
        ])
        let out = result.stdout
        #expect(out.contains("## "), "\(out)")
        #expect(
            out.range(of: #"\d+ facts, \d+ of 300 tokens"#, options: .regularExpression) != nil, "\(out)")
        let documents = try ReplFixture.jsonDocuments(out)
        let json = try #require(documents.first as? [String: Any])
        let cli = try CLIRunner.run([
            "context", Self.message, "--budget", "300", "--db", ReplFixture.database, "--json",
        ])
        // The REPL and the command line give the same context.
        #expect(json["context"] as? String == (try cli.json() as? [String: Any])?["context"] as? String)
        #expect(result.stderr.contains("usage: :context MESSAGE [budget:N]"))
    }

    @Test func conflictsListWhatTheCommandLineLists() throws {
        let database = try ReplFixture.scratchDatabase()
        // Two values of one attribute, in one frame: a conflict, whatever the embedder.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("conflict-\(UUID().uuidString).jsonl")
        try """
        {"topic": "Family", "content": "Sister Ana lives in Lisbon", "created_at": "2025-01-10T00:00:00Z"}
        {"topic": "Family", "content": "Sister Ana lives in Porto", "created_at": "2025-06-01T00:00:00Z"}

        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let ingest = try CLIRunner.run(["ingest", file.path, "--db", database])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let cli = try #require(
            try CLIRunner.run(["conflicts", "--db", database, "--json"]).json() as? [[String: Any]])
        let result = try ReplFixture.run([":conflicts", ":json", ":conflicts"], database: database)
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        if cli.isEmpty {
            #expect(out.contains("No conflicts."))
        } else {
            #expect(out.components(separatedBy: "  newer #").count - 1 == cli.count, "\(out)")
            #expect(out.contains("Settle one by retiring the stale fact"))
        }
        let documents = try ReplFixture.jsonDocuments(out)
        #expect((documents.last as? [[String: Any]])?.count == cli.count)
        #expect(out.contains("Sister Ana lives in Porto") == !cli.isEmpty)
    }

    @Test func undoRevertsTheLastChangeAndRedoesIt() throws {
        let database = try ReplFixture.scratchDatabase()
        let result = try ReplFixture.run(
            [
                ":merge Health and Fitness into Health & Fitness", ":undo", ":topic Health and Fitness", ":undo 0",
                ":undo x",
            ], database: database)
        let out = result.stdout
        #expect(out.contains("Health and Fitness into Health & Fitness: 2 facts moved"), "\(out)\(result.stderr)")
        let undone = try #require(
            out.range(of: #"#(\d+): .* \(\d+ rows restored\)\. `:undo \d+` redoes it\."#, options: .regularExpression),
            "\(out)")
        #expect(out[undone].contains("rows restored"))
        // The topic is back with its facts.
        #expect(out.contains("Health and Fitness"))
        #expect(!result.stderr.contains(#"no topic "Health and Fitness""#), "\(result.stderr)")
        #expect(result.stderr.contains("usage: :undo [ID]"))
        let topics = try CLIRunner.run(["topics", "--db", database])
        #expect(topics.stdout.contains("Health and Fitness"))
    }
}
