import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// A commit made by any connection, instance or process is seen by the next search of every
/// other, in every mode, by catching up from the change log (see the Architecture article).
@Suite("Consistency across instances and processes")
struct ConsistencyTests {
    static let modes: [SearchMode] = [.semantic, .hybrid]

    /// Two instances on one file, each with its own connections and vector index.
    static func twoInstances(embedder: some Embedder = SeededEmbedder()) throws -> (KnowledgeBase, KnowledgeBase) {
        let path = try TestKnowledgeBase.temporaryPath()
        return (try KnowledgeBase(path: path, embedder: embedder), try KnowledgeBase(path: path, embedder: embedder))
    }

    static func ids(_ kb: KnowledgeBase, _ text: String, _ mode: SearchMode, inactive: Bool = false) async throws
        -> [Int64]
    {
        var query = SearchQuery(text, mode: mode, limit: 50)
        if inactive { query.filter.activity = .all }
        return try await kb.search(query).map(\.fact.id)
    }

    @Test func anotherInstanceSeesEveryKindOfChangeAtItsNextSearch() async throws {
        let (reader, writer) = try Self.twoInstances()
        let kept = try await writer.addFact(NewFact(content: "Kept fact about sailing", topicPath: "Hobbies"))
        for mode in Self.modes { #expect(try await Self.ids(reader, "Kept fact about sailing", mode).first == kept.id) }

        // Insert.
        let iguana = try await writer.addFact(NewFact(content: "My pet iguana is called Ziggy", topicPath: "Pets"))
        for mode in Self.modes {
            #expect(try await Self.ids(reader, "My pet iguana is called Ziggy", mode).first == iguana.id)
        }

        // Attribute update: a new topic and importance are what filters test during the scan.
        try await writer.updateFact(id: iguana.id, FactUpdate(importance: .high, topicPath: "Animals"))
        var filtered = SearchQuery("My pet iguana is called Ziggy", mode: .semantic, limit: 5)
        filtered.filter = FactFilter(minimumImportance: .high, topicPath: "Animals")
        #expect(try await reader.search(filtered).map(\.fact.id) == [iguana.id])

        // Content update: a new vector.
        try await writer.updateFact(id: iguana.id, FactUpdate(content: "My pet iguana is called Zorro"))
        #expect(try await Self.ids(reader, "My pet iguana is called Zorro", .semantic).first == iguana.id)
        #expect(
            try await reader.search(SearchQuery("My pet iguana is called Zorro", mode: .semantic, limit: 1))
                .first?.similarity ?? 0 > 0.999)

        // Deactivation hides it; reactivation shows it again.
        try await writer.deactivateFact(id: iguana.id)
        for mode in Self.modes {
            #expect(try await !Self.ids(reader, "My pet iguana is called Zorro", mode).contains(iguana.id))
        }
        #expect(
            try await Self.ids(reader, "My pet iguana is called Zorro", .semantic, inactive: true).first == iguana.id)
        try await writer.reactivateFact(id: iguana.id)
        #expect(try await Self.ids(reader, "My pet iguana is called Zorro", .semantic).first == iguana.id)

        // Delete: gone from every mode.
        try await writer.deleteFact(id: iguana.id)
        for mode in Self.modes {
            #expect(
                try await !Self.ids(reader, "My pet iguana is called Zorro", mode, inactive: true).contains(iguana.id))
        }
        #expect(try await Self.ids(reader, "Kept fact about sailing", .semantic).first == kept.id)
    }

    /// A new fact enters the change log once, when its vector is stored; its own row is logged
    /// only when its vector came first (foreign keys deferred, as an undo may restore them).
    @Test func aNewFactIsLoggedOnceWithItsVector() async throws {
        let (reader, writer) = try Self.twoInstances()
        let first = try await writer.addFacts((0..<30).map { NewFact(content: "Logged fact \($0)", topicPath: "Log") })
        let changes = { @Sendable (db: Database) in
            try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'fact_change'") ?? 0
        }
        #expect(try await writer.writer.read(changes) == 30)
        #expect(try await Self.ids(reader, "Logged fact 7", .semantic).first == first[7].id)

        let vector = try #require(try await SeededEmbedder().embed(["A restored fact about kites"]).first)
        try await writer.writer.write { db in
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            try EmbeddingTable.write(db, factID: 1_000, vector: vector)
            try db.execute(
                sql: """
                    INSERT INTO fact (id, namespace, topic_id, content, content_key, type, importance, confidence,
                                      created_at, updated_at, uid)
                    SELECT 1000, namespace, topic_id, 'A restored fact about kites', 'a restored fact about kites',
                           'fact', 1, 1, created_at, updated_at, 'restored-kite' FROM fact WHERE id = ?
                    """, arguments: [first[0].id])
        }
        #expect(try await writer.writer.read(changes) == 32)
        #expect(try await Self.ids(reader, "A restored fact about kites", .semantic).first == 1_000)
    }

    @Test func catchingUpReadsOnlyTheChangedRows() async throws {
        let (reader, writer) = try Self.twoInstances()
        try await writer.addFacts((0..<50).map { NewFact(content: "Seed fact \($0)", topicPath: "Seeds") })
        _ = try await reader.search(SearchQuery("Seed fact 1", mode: .semantic))
        let index = try #require(reader.vectorIndex)
        let loadsBefore = index.statistics.fullLoads
        try await writer.addFacts((0..<20).map { NewFact(content: "New fact \($0)", topicPath: "News") })
        try await writer.deleteFact(id: 1)
        #expect(try await Self.ids(reader, "New fact 7", .semantic).first != nil)
        #expect(index.statistics.fullLoads == loadsBefore)
        #expect(index.statistics.changedRows >= 21)
        let store = try index.snapshot(reader.writer.base)
        #expect(store.count == 69)
        #expect(!store.contains(1))
    }

    @Test func aLargeGapReloadsEverything() async throws {
        let (reader, writer) = try Self.twoInstances(embedder: SeededEmbedder(dimension: 8))
        try await writer.addFact(NewFact(content: "First", topicPath: "A"))
        _ = try await reader.search(SearchQuery("First", mode: .semantic))
        let index = try #require(reader.vectorIndex)
        let count = VectorIndexUpdate.fullReloadThreshold(loadedRows: 1) + 1
        try await writer.addFacts(
            (0..<count).map { NewFact(content: "Bulk \($0)", topicPath: "A") }, nearDuplicates: nil)
        let loads = index.statistics.fullLoads
        #expect(try await Self.ids(reader, "Bulk 9", .semantic).first != nil)
        #expect(index.statistics.fullLoads == loads + 1)
        #expect(try index.snapshot(reader.writer.base).count == count + 1)
    }

    @Test func anotherProcessIngestingIsSeenByTheNextSearch() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        // The CLI without a model embeds with HashingEmbedder; so does this instance.
        let kb = try KnowledgeBase(path: path, embedder: HashingEmbedder())
        try await kb.addFact(NewFact(content: "Likes hiking in the Alps", topicPath: "Hobbies"))
        #expect(
            try await kb.search(SearchQuery("my pet iguana", mode: .semantic, limit: 1)).first?.fact.content
                != "My pet iguana is called Ziggy")

        let input = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("in.jsonl")
        try Data(#"{"content": "My pet iguana is called Ziggy", "topic": "Pets"}"#.utf8).write(to: input)
        let ingest = try CLIRunner.run(["ingest", input.path, "--db", path])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        for mode in Self.modes {
            #expect(
                try await kb.search(SearchQuery("my pet iguana", mode: mode, limit: 1)).first?.fact.content
                    == "My pet iguana is called Ziggy")
        }
        let delete = try CLIRunner.run(["fact", "delete", "2", "--db", path])
        #expect(delete.status == 0, "\(delete.stderr)")
        for mode in Self.modes {
            #expect(
                try await kb.search(SearchQuery("my pet iguana", mode: mode, limit: 5)).allSatisfy { $0.fact.id != 2 })
        }
    }

    @Test func ownCommitsAreAppliedWithoutCatchingUpAtSearchTime() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: SeededEmbedder())
        try await kb.addFact(NewFact(content: "One", topicPath: "A"))
        _ = try await kb.search(SearchQuery("One", mode: .semantic))
        let index = try #require(kb.vectorIndex)
        let before = index.statistics
        try await kb.addFact(NewFact(content: "Two", topicPath: "A"))
        #expect(index.statistics.changedRows == before.changedRows + 1)
        #expect(try await Self.ids(kb, "Two", .semantic).first == 2)
        #expect(index.statistics.fullLoads == before.fullLoads)
    }
}
