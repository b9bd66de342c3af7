import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// `KnowledgeBase.check(repair:)` and `mnemo check`: damage is found, derived data rebuilt.
@Suite("Check and repair")
struct CheckTests {
    static func populated(_ path: String) async throws -> KnowledgeBase {
        let kb = try KnowledgeBase(path: path, embedder: SeededEmbedder())
        try await kb.addFacts([
            NewFact(content: "Climbs at the Arco crag", topicPath: "Hobbies/Climbing"),
            NewFact(content: "Sails a small dinghy", topicPath: "Hobbies/Sailing"),
            NewFact(content: "Works as a nurse", topicPath: "Work"),
            NewFact(content: "Lives in Porto", topicPath: "Home/City"),
        ])
        try await kb.inNamespace("bob").addFact(NewFact(content: "Bob likes chess", topicPath: "Games"))
        return kb
    }

    /// Damages the file the way a foreign tool, a crash with foreign keys off or a bug could.
    static func damage(_ path: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let raw = try DatabaseQueue(path: path, configuration: configuration)
        try raw.write { db in
            // Drop fact 1 from the full-text index.
            try db.execute(
                sql: """
                    INSERT INTO fact_fts(fact_fts, rowid, content, topic) SELECT 'delete', id, content, topic FROM fact_document WHERE id = 1
                    """)
            // Lose fact 2's vector; add a vector for no fact and one of the wrong size.
            try db.execute(sql: "DELETE FROM fact_embedding WHERE fact_id = 2")
            try db.execute(sql: "INSERT INTO fact_embedding (fact_id, vector) VALUES (999, x'00000000')")
            try db.execute(sql: "UPDATE fact_embedding SET vector = x'0000' WHERE fact_id = 3")
            // Topic damage: an orphan, a cycle, a wrong path.
            let ids = Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db, sql: "SELECT path, id FROM topic WHERE namespace = 'default'"
                )
                .map { ($0["path"] as String, $0["id"] as Int64) })
            try db.execute(sql: "UPDATE topic SET parent_id = 4242 WHERE id = ?", arguments: [ids["Work"]])
            if let home = ids["Home"], let city = ids["Home/City"] {
                try db.execute(sql: "UPDATE topic SET parent_id = ? WHERE id = ?", arguments: [city, home])
            }
            try db.execute(
                sql: "UPDATE topic SET path_key = 'hobbies/wrong', depth = 7 WHERE id = ?",
                arguments: [ids["Hobbies/Sailing"] ?? ids["Hobbies/Climbing"]])
        }
    }

    @Test func aHealthyDatabaseIsClean() async throws {
        let kb = try await Self.populated(TestKnowledgeBase.temporaryPath())
        let report = try await kb.check()
        #expect(report.isClean, "\(report.problems)")
        #expect(Set(report.checked) == Set(CheckReport.Problem.Code.allCases))
    }

    @Test func damageIsFoundAndRepaired() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try await Self.populated(path)
        try Self.damage(path)

        let found = try await kb.check()
        let codes = Set(found.problems.map(\.code))
        #expect(
            codes == [.fullTextIndex, .factsWithoutVectors, .strayVectors, .orphanTopic, .topicCycle, .topicPath],
            "\(found.problems)")
        #expect(found.repairs.isEmpty)

        let repaired = try await kb.check(repair: true)
        #expect(repaired.isClean, "\(repaired.problems)")
        #expect(repaired.found.count == found.problems.count)
        #expect(repaired.repairs.contains { $0.contains("full-text") })
        #expect(repaired.repairs.contains { $0.contains("embedded 2") })
        #expect(try await kb.check().isClean)

        // Search works again in every mode; bob's memory is untouched.
        #expect(try await kb.search(SearchQuery("Arco crag", mode: .text)).first?.fact.id == 1)
        #expect(try await kb.search(SearchQuery("Sails a small dinghy", mode: .semantic)).first?.fact.id == 2)
        #expect(try await kb.search(SearchQuery("Works as a nurse", mode: .semantic)).first?.fact.id == 3)
        let topics = try await kb.topicTree().map(\.topic.path).sorted()
        #expect(topics.contains("Work") && topics.contains("Hobbies"))
        #expect(try await kb.inNamespace("bob").facts().map(\.content) == ["Bob likes chess"])
    }

    /// Stores `content` again as a fact of `namespace` with the key, vector and topic of the
    /// stored fact `original`, as a writer other than Mnemo's could (the database does not refuse
    /// a second fact of one key, see `ContentKeyIndex`). Returns the new fact's id.
    static func storeAgain(
        _ kb: KnowledgeBase, original: String, as content: String, namespace: String = "default", sources: String
    ) async throws -> Int64 {
        try await kb.writer.write { db in
            let originalID = try Int64.fetchOne(
                db, sql: "SELECT id FROM fact WHERE namespace = 'default' AND content = ?", arguments: [original])
            try db.execute(
                sql: """
                    INSERT INTO fact (namespace, topic_id, content, content_key, type, importance, confidence,
                                      is_active, sources, mention_count, created_at, updated_at, uid)
                    SELECT ?, (SELECT id FROM topic WHERE namespace = ? LIMIT 1), ?, content_key, type, importance,
                           confidence, is_active, ?, 2, created_at, updated_at, ?
                    FROM fact WHERE id = ?
                    """,
                arguments: [namespace, namespace, content, sources, UUID().uuidString.lowercased(), originalID])
            let id = db.lastInsertedRowID
            try db.execute(
                sql:
                    "INSERT INTO fact_embedding (fact_id, vector) SELECT ?, vector FROM fact_embedding WHERE fact_id = ?",
                arguments: [id, originalID])
            return id
        }
    }

    @Test func factsOfTheSameContentAreFoundAndMergedIntoTheOldest() async throws {
        let kb = try await Self.populated(TestKnowledgeBase.temporaryPath())
        let original = try #require(try await kb.facts().first { $0.content == "Lives in Porto" })
        let repeated = try await Self.storeAgain(
            kb, original: "Lives in Porto", as: "lives in PORTO", sources: #"["import"]"#)
        // The same words in another namespace are not a duplicate.
        _ = try await Self.storeAgain(
            kb, original: "Lives in Porto", as: "Lives in Porto", namespace: "bob", sources: "[]")

        let found = try await kb.check()
        #expect(found.problems.map(\.code) == [.duplicateContent], "\(found.problems)")
        #expect(found.problems.first?.count == 1)
        #expect(found.problems.first?.message.contains("ids \(repeated)") == true)
        #expect(try await kb.stats().facts == 5)

        let repaired = try await kb.check(repair: true)
        #expect(repaired.isClean, "\(repaired.problems)")
        #expect(repaired.repairs == ["merged 1 facts into the oldest fact of the same content"])
        #expect(try await kb.fact(id: repeated) == nil)
        let survivor = try #require(try await kb.fact(id: original.id))
        #expect(survivor.content == "Lives in Porto")
        #expect(survivor.mentionCount == 3)
        #expect(survivor.sources.contains("import"))
        #expect(try await kb.history(ofFact: original.id).contains { $0.kind == .merged })
        #expect(try await kb.stats().facts == 4)
        #expect(try await kb.inNamespace("bob").stats().facts == 2)
        #expect(try await kb.search(SearchQuery("Porto", mode: .text)).map(\.fact.id) == [original.id])
    }

    @Test func theCommandExitsNonZeroUntilRepaired() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let input = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("in.jsonl")
        try Data(
            """
            {"content": "Climbs at the Arco crag", "topic": "Hobbies/Climbing"}
            {"content": "Works as a nurse", "topic": "Work"}
            """.utf8
        ).write(to: input)
        #expect(try CLIRunner.run(["ingest", input.path, "--db", path]).status == 0)
        let clean = try CLIRunner.run(["check", "--db", path, "--json"])
        #expect(clean.status == 0, "\(clean.stdout) \(clean.stderr)")
        #expect((try clean.json() as? [String: Any])?["clean"] as? Bool == true)

        try Self.damage(path)
        let dirty = try CLIRunner.run(["check", "--db", path])
        #expect(dirty.status == 1)
        #expect(dirty.stdout.contains("full_text_index") && dirty.stdout.contains("orphan_topic"))

        let repair = try CLIRunner.run(["check", "--repair", "--db", path, "--json"])
        #expect(repair.status == 0, "\(repair.stdout) \(repair.stderr)")
        let report = try #require(try repair.json() as? [String: Any])
        #expect((report["repairs"] as? [String])?.isEmpty == false)
        #expect(try CLIRunner.run(["check", "--db", path]).status == 0)
        #expect(try CLIRunner.run(["check", "--db", path + ".missing"]).status != 0)
    }
}
