import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Facts are found by their normalized content through an index of its hash (see
/// `ContentKeyIndex`), and a namespace still keeps one fact per content without a unique index.
@Suite("Content keys indexed by their hash")
struct ContentKeyIndexTests {
    static func indexes(_ kb: KnowledgeBase) async throws -> [String] {
        try await kb.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'fact'")
        }
    }

    @Test func lookupsByContentGoThroughTheHashIndex() async throws {
        let kb = try KnowledgeBase(path: try TestKnowledgeBase.temporaryPath(), embedder: SeededEmbedder())
        let tea = try await kb.addFact(NewFact(content: "Likes green tea", topicPath: "Food"))
        try await kb.addFact(NewFact(content: "Likes black coffee", topicPath: "Food"))
        let indexes = try await Self.indexes(kb)
        #expect(indexes.contains("fact_on_namespace_content_hash"))
        #expect(!indexes.contains("fact_on_namespace_content_key"))

        try await kb.writer.read { db in
            // SQLite's function and Swift's give the same hash.
            let stored = try Int64.fetchOne(
                db, sql: "SELECT mnemo_content_hash(content_key) FROM fact WHERE id = ?", arguments: [tea.id])
            #expect(stored == ContentKeyIndex.hash(TextNormalization.factKey("Likes green tea")))
            #expect(try FactTable.find(db, namespace: "default", contentKey: "likes green tea")?.id == tea.id)
            #expect(try FactTable.find(db, namespace: "default", contentKey: "likes green") == nil)
            #expect(
                try FactTable.ids(db, namespace: "default", contentKeys: ["likes green tea", "likes tea"]) == [
                    "likes green tea": tea.id
                ])
            #expect(try FactTable.ids(db, namespace: "other", contentKeys: ["likes green tea"]).isEmpty)
            let plan = try Row.fetchAll(
                db,
                sql:
                    "EXPLAIN QUERY PLAN SELECT id FROM fact WHERE namespace = ? AND \(ContentKeyIndex.matchingCondition)",
                arguments: ["default", 1, "x"]
            ).map { $0["detail"] as String }.joined(separator: "\n")
            #expect(plan.contains("fact_on_namespace_content_hash"))
        }
    }

    @Test func anExactDuplicateIsStillOneFact() async throws {
        let kb = try KnowledgeBase(path: try TestKnowledgeBase.temporaryPath(), embedder: SeededEmbedder())
        let first = try await kb.addFact(NewFact(content: "Lives in Lyon", topicPath: "Home"))
        let outcomes = try await kb.addFacts([
            NewFact(content: "lives in LYON", topicPath: "Home"), NewFact(content: "Works in Lyon", topicPath: "Work"),
            NewFact(content: "Works in Lyon", topicPath: "Work"),
        ])
        #expect(outcomes[0].id == first.id)
        #expect(outcomes[1].id == outcomes[2].id)
        #expect(try await kb.stats().facts == 2)
        #expect(try await kb.fact(id: first.id)?.mentionCount == 2)
    }

    @Test func undoingADeleteRefusesToBringBackAContentStoredSince() async throws {
        let kb = try KnowledgeBase(path: try TestKnowledgeBase.temporaryPath(), embedder: SeededEmbedder())
        let old = try await kb.addFact(NewFact(content: "Plays the cello", topicPath: "Music"))
        try await kb.deleteFact(id: old.id)
        let new = try await kb.addFact(NewFact(content: "plays the Cello", topicPath: "Music"))
        #expect(new.id != old.id)
        await #expect(throws: MnemoError.conflict(.duplicateFact(existingID: new.id))) { try await kb.undo() }
        #expect(try await kb.stats().facts == 1)
        #expect(try await kb.fact(id: old.id) == nil)
    }

    @Test func aDatabaseWithTheUniqueKeyIndexIsMigrated() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        do {
            let kb = try KnowledgeBase(path: path, embedder: SeededEmbedder())
            try await kb.addFact(NewFact(content: "Owns a red bicycle", topicPath: "Things"))
            // As a file of schema v13 had it.
            try await kb.writer.write { db in
                try db.execute(
                    sql: """
                        DROP INDEX fact_on_namespace_content_hash;
                        CREATE UNIQUE INDEX fact_on_namespace_content_key ON fact(namespace, content_key);
                        DELETE FROM grdb_migrations WHERE identifier LIKE 'v14:%';
                        """)
            }
        }
        let kb = try KnowledgeBase(path: path, embedder: SeededEmbedder())
        let indexes = try await Self.indexes(kb)
        #expect(indexes.contains("fact_on_namespace_content_hash"))
        #expect(!indexes.contains("fact_on_namespace_content_key"))
        try await kb.addFact(NewFact(content: "owns a RED bicycle", topicPath: "Things"))
        #expect(try await kb.stats().facts == 1)
        #expect(try await kb.check().isClean)
    }
}
