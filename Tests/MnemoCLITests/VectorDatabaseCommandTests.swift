import Foundation
import MnemoTestSupport
import Testing

/// Commands that write to a database whose facts have vectors leave no fact without one unless
/// the user asked for it (`--no-embeddings`), and a new content gets its own vector.
@Suite("Writing to a database of vectors")
struct VectorDatabaseCommandTests {
    static func jsonl(_ line: String) throws -> String {
        let path = try TestKnowledgeBase.temporaryPath() + ".jsonl"
        try Data(line.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The problems `mnemo check --json` reports, by code, with their counts.
    static func problems(_ database: String) throws -> [String: Int] {
        let check = try CLIRunner.run(["check", "--db", database, "--json"])
        let json = try #require(try check.json() as? [String: Any])
        let problems = try #require(json["problems"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: problems.map { ($0["code"] as! String, $0["count"] as? Int ?? 0) })
    }

    @Test func noEmbeddingsIsConsentAndANewContentGetsItsVector() throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let books = try Self.jsonl(#"{"topic": "Books", "content": "Reads one science fiction novel a month"}"#)
        let first = try CLIRunner.run(["ingest", books, "--db", database])
        #expect(first.status == 0, "\(first.stderr)")

        let music = try Self.jsonl(#"{"topic": "Music", "content": "Collects vinyl records"}"#)
        let bulk = try CLIRunner.run(["ingest", music, "--db", database, "--no-embeddings"])
        #expect(bulk.status == 0, "\(bulk.stderr)")
        #expect(try Self.problems(database) == ["facts_without_vectors": 1])

        let update = try CLIRunner.run([
            "fact", "update", "1", "--content", "Reads two novels a month", "--db", database,
        ])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try Self.problems(database) == ["facts_without_vectors": 1]) // still only the bulk one
        let search = try CLIRunner.run([
            "search", "Reads two novels a month", "--mode", "semantic", "--limit", "1", "--json", "--db", database,
        ])
        let hit = try #require((try search.json() as? [String: Any])?["results"] as? [[String: Any]]).first
        #expect(hit?["id"] as? Int == 1)
        #expect((hit?["similarity"] as? Double ?? 0) > 0.999) // the new content's vector, not the old one's

        #expect(try CLIRunner.run(["reembed", "--db", database]).status == 0)
        #expect(try Self.problems(database) == [:])
    }
}
