import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Files that are not what `--db` should be, files that cannot be written, and a full disk:
/// each a one-line error, and nothing written or half-written.
@Suite("Hostile databases")
struct HostileDatabaseTests {
    static func folderContents(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
            .sorted()
    }

    static func expectUnusable(_ path: String, _ phrase: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        do {
            _ = try KnowledgeBase(path: path, embedder: SeededEmbedder())
            Issue.record("opened \(path)", sourceLocation: sourceLocation)
        } catch let MnemoError.databaseUnusable(_, reason) {
            #expect(reason.contains(phrase), "\(reason)", sourceLocation: sourceLocation)
        }
        let cli = try CLIRunner.run(["search", "anything", "--db", path])
        #expect(cli.status == 1, sourceLocation: sourceLocation)
        let lines = cli.stderr.split(separator: "\n").filter { !$0.hasPrefix("note:") }
        #expect(lines.count == 1 && lines[0].contains(phrase), "\(cli.stderr)", sourceLocation: sourceLocation)
    }

    @Test func aFileThatIsNotSQLiteIsRefusedUntouched() throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let text = Data(String(repeating: "my shopping list: eggs, milk\n", count: 200).utf8)
        try text.write(to: URL(fileURLWithPath: path))
        try Self.expectUnusable(path, "not an SQLite database")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
        #expect(try Self.folderContents(path) == ["kb.sqlite"])
    }

    @Test func anotherApplicationsDatabaseIsRefusedUntouched() throws {
        let path = try TestKnowledgeBase.temporaryPath()
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ann')")
        }
        try Self.expectUnusable(path, "another application")
        let tables = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["users"])
    }

    @Test func aDatabaseFromANewerVersionIsRefused() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        do {
            let kb = try KnowledgeBase(path: path)
            try await kb.addFact(NewFact(content: "Likes tea", topicPath: "Food"))
        }
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9: something new')")
        }
        try Self.expectUnusable(path, "newer version of Mnemo")
        #expect(throws: MnemoError.self) { try KnowledgeBase(readingOnly: path) }
        // Nothing of it changed: the fact is still there for the newer version.
        let count = try await DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fact")
        }
        #expect(count == 1)
    }

    /// A knowledge base copied alone into a folder, as an app bundle ships it.
    static func shippedCopy(embedder: SeededEmbedder) async throws -> String {
        let original = try TestKnowledgeBase.temporaryPath()
        do {
            let kb = try KnowledgeBase(path: original, embedder: embedder)
            try await kb.addFacts([
                NewFact(content: "Keeps bees on the roof", topicPath: "Hobbies/Bees"),
                NewFact(content: "Allergic to peanuts", topicPath: "Health", importance: .high),
                NewFact(content: "Plays the cello", topicPath: "Hobbies/Music"),
            ])
            _ = try await kb.writer.base.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        let shipped = try TestKnowledgeBase.temporaryPath()
        try FileManager.default.copyItem(atPath: original, toPath: shipped)
        return shipped
    }

    @Test func aShippedReadOnlyDatabaseIsSearchedInEveryModeWithoutSidecars() async throws {
        let embedder = SeededEmbedder()
        let path = try await Self.shippedCopy(embedder: embedder)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let kb = try KnowledgeBase(readingOnly: path, embedder: embedder)
        #expect(try await kb.search(SearchQuery("bees", mode: .text)).first?.fact.content == "Keeps bees on the roof")
        #expect(
            try await kb.search(SearchQuery("Plays the cello", mode: .semantic)).first?.fact.content
                == "Plays the cello")
        #expect(
            try await kb.search(SearchQuery("Allergic to peanuts", mode: .hybrid)).first?.fact.content
                == "Allergic to peanuts")
        var filtered = SearchQuery("Keeps bees on the roof", mode: .semantic)
        filtered.filter = FactFilter(topicPath: "Hobbies")
        filtered.relativeScoreFloor = nil // both facts under Hobbies, however weak (main's weak-hit floor)
        #expect(try await kb.search(filtered).count == 2)
        #expect(try await kb.topicTree().count == 2)
        await #expect(throws: (any Error).self) { try await kb.addFact(NewFact(content: "New", topicPath: "X")) }
        #expect(try Self.folderContents(path) == ["kb.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        // Another model's embedder is refused, as for a writable database.
        #expect(throws: MnemoError.self) {
            try KnowledgeBase(readingOnly: path, embedder: SeededEmbedder(name: "other"))
        }
        #expect(throws: MnemoError.self) { try KnowledgeBase(readingOnly: path + ".missing") }
    }

    @Test func theCommandLineSearchesAReadOnlyDatabase() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let input = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("in.jsonl")
        try Data(#"{"content": "Keeps bees on the roof", "topic": "Hobbies"}"#.utf8).write(to: input)
        #expect(try CLIRunner.run(["ingest", input.path, "--db", path]).status == 0)
        let shipped = try TestKnowledgeBase.temporaryPath()
        try FileManager.default.copyItem(atPath: path, toPath: shipped)
        for mode in ["text", "semantic", "hybrid"] {
            let result = try CLIRunner.run(["search", "bees", "--mode", mode, "--db", shipped, "--read-only", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Keeps bees on the roof"), "\(mode)")
        }
        let write = try CLIRunner.run(["ingest", input.path, "--db", shipped, "--read-only"])
        #expect(write.status == 1)
        #expect(try Self.folderContents(shipped) == ["kb.sqlite"])
    }

    /// `ulimit -f` makes the file system refuse to grow the database, as a full disk does.
    @Test func aFullDiskStopsIngestWithOneLineAndNoHalfBatch() throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let input = folder.appendingPathComponent("big.jsonl")
        let lines = (0..<30_000).map {
            #"{"content": "Fact number \#($0) about something rather long to fill pages", "topic": "T\#($0 % 50)"}"#
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: input)
        let result = try CLIRunner.run(
            [
                "/bin/sh", "-c",
                "ulimit -f 4096; exec \"$0\" ingest \"$1\" --db \"$2\" --no-embeddings --batch-size 1000",
                CLIRunner.binary.path, input.path, path,
            ], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.status == 1, "\(result.stdout)")
        let errors = result.stderr.split(separator: "\n")
        #expect(
            errors.count == 1 && errors[0].contains("full") && errors[0].contains("rolled back"), "\(result.stderr)")
        let check = try CLIRunner.run(["check", "--db", path])
        #expect(check.status == 0, "\(check.stdout)")
        let stats = try #require(try CLIRunner.run(["stats", "--db", path, "--json"]).json() as? [String: Any])
        let facts = try #require(stats["facts"] as? Int)
        #expect(facts > 0 && facts < 30_000 && facts % 1_000 == 0, "\(facts) facts: a batch was half-written")
    }
}
