import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Undo")
struct UndoTests {
    static func embedder() -> SeededEmbedder {
        SeededEmbedder(
            dimension: 4,
            pinned: [
                "I prefer tea to coffee": [1, 0, 0, 0],
                "Prefers tea over coffee": [0.9, 0.43589, 0, 0], // cosine 0.90: a near duplicate
                "Would pick tea over coffee": [0.9, 0, 0.43589, 0], // cosine 0.90 with the first
                "Ran 10 km on Sunday": [0, 0, 1, 0],
                "On Sunday I did a 10 km run": [0, 0, 0.95, 0.3122], // cosine 0.95: a near duplicate
            ])
    }

    /// A file-backed knowledge base with facts in three topics (two of them name variants),
    /// one near-duplicate pair in different topics and one inside a topic.
    static func knowledgeBase() async throws -> KnowledgeBase {
        let kb = try KnowledgeBase(path: TestKnowledgeBase.temporaryPath(), embedder: embedder())
        try await kb.addFacts(
            [
                NewFact(
                    content: "I prefer tea to coffee", topicPath: "Food & Cooking", type: .preference, confidence: 0.7,
                    sources: ["c1"]),
                NewFact(content: "Ran 10 km on Sunday", topicPath: "Health/Running", type: .experience),
                NewFact(
                    content: "Bakes sourdough on Saturdays", topicPath: "Cooking and Food/Baking", importance: .high),
                NewFact(
                    content: "Prefers tea over coffee", topicPath: "Cooking and Food", type: .preference,
                    confidence: 0.9, sources: ["c2"]),
                NewFact(content: "On Sunday I did a 10 km run", topicPath: "Health/Running", type: .experience),
            ], nearDuplicates: nil)
        try await kb.inNamespace("other").addFact(NewFact(content: "Another user's fact", topicPath: "Misc"))
        return kb
    }

    /// `export --all-namespaces`, byte for byte.
    static func exportBytes(_ kb: KnowledgeBase) async throws -> Data {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-undo-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try await kb.export(to: url, allNamespaces: true)
        return try Data(contentsOf: url)
    }

    /// Everything else undo restores: every row of the tracked tables, the vector index as
    /// search sees it, and a full-text index that agrees with the facts.
    static func state(_ kb: KnowledgeBase) async throws -> String {
        let rows = try await kb.writer.write { db -> String in
            try db.execute(sql: "INSERT INTO fact_fts(fact_fts) VALUES ('integrity-check')")
            var lines: [String] = []
            for table in TrackedTable.all {
                let ids = try Int64.fetchAll(db, sql: "SELECT \(table.key) FROM \(table.name) ORDER BY \(table.key)")
                for id in ids { lines.append(try OperationLog.image(db, table: table.name, row: id) ?? "") }
            }
            for word in ["tea", "sunday", "sourdough", "baking", "cooking"] {
                let hits = try Int64.fetchAll(
                    db, sql: "SELECT rowid FROM fact_fts WHERE fact_fts MATCH ? ORDER BY rowid", arguments: [word])
                lines.append("fts \(word): \(hits)")
            }
            return lines.joined(separator: "\n")
        }
        let store = try await kb.vectorSnapshot()
        let facts = try await kb.facts(matching: FactFilter(activity: .all), limit: 1000)
        let vectors = facts.map(\.id).sorted().map { id in "\(id): \(store.vector(of: id).map(Array.init) ?? [])" }
        return rows + "\n" + vectors.joined(separator: "\n")
    }

    /// Runs `operation`, checks it changed something, undoes it, and checks that the export
    /// and the whole state are back to what they were.
    static func expectUndoRestores(
        _ kind: OperationRecord.Kind, sourceLocation: SourceLocation = #_sourceLocation,
        _ operation: (KnowledgeBase) async throws -> Void
    ) async throws {
        let kb = try await knowledgeBase()
        let (exportBefore, stateBefore) = (try await exportBytes(kb), try await state(kb))
        try await operation(kb)
        #expect(
            try await exportBytes(kb) != exportBefore, "the operation changed nothing", sourceLocation: sourceLocation)
        let logged = try #require(try await kb.operations().first, sourceLocation: sourceLocation)
        #expect(logged.kind == kind, sourceLocation: sourceLocation)
        let undo = try await kb.undo()
        #expect(undo.kind == .undo && undo.revertedOperationID == logged.id, sourceLocation: sourceLocation)
        #expect(try await exportBytes(kb) == exportBefore, "export differs after undo", sourceLocation: sourceLocation)
        #expect(try await state(kb) == stateBefore, "state differs after undo", sourceLocation: sourceLocation)
        let operations = try await kb.operations()
        #expect(operations.first { $0.id == logged.id }?.undoneBy == undo.id, sourceLocation: sourceLocation)
    }

    /// An edit of the fields and the active state together (an HTTP PATCH) is one operation:
    /// one undo restores both.
    @Test func anEditWithTheActiveStateIsOneOperation() async throws {
        let kb = try await Self.knowledgeBase()
        let fact = try #require(try await kb.facts(limit: 10).first { $0.content == "Ran 10 km on Sunday" })
        let before = try await kb.operations().count
        let edited = try await kb.updateFact(id: fact.id, FactUpdate(importance: .high), isActive: false)
        #expect(edited.importance == .high && !edited.isActive)
        #expect(try await kb.operations().count == before + 1)
        try await kb.undo()
        let restored = try #require(try await kb.fact(id: fact.id))
        #expect(restored.importance == fact.importance && restored.isActive)
    }

    @Test func undoATopicMerge() async throws {
        try await Self.expectUndoRestores(.mergeTopics) { kb in
            let report = try await kb.mergeTopics(["Cooking and Food", "Health"], into: "Life/Everything")
            #expect(report.mergedFacts == 1)
        }
    }

    @Test func undoADedupeRun() async throws {
        try await Self.expectUndoRestores(.dedupe) { kb in
            let report = try await kb.dedupe()
            #expect(report.mergedFacts == 2)
        }
    }

    @Test func undoANearDuplicateMergeAtIngest() async throws {
        try await Self.expectUndoRestores(.ingestMerge) { kb in
            let merged = try await kb.addFact(
                NewFact(
                    content: "Would pick tea over coffee", topicPath: "Drinks", type: .preference,
                    importance: .high, sources: ["c9"]))
            #expect(merged.fact.content == "I prefer tea to coffee")
        }
    }

    @Test func undoAFactUpdate() async throws {
        try await Self.expectUndoRestores(.updateFact) { kb in
            let id = try #require(try await kb.search("sourdough", mode: .text).first?.fact.id)
            try await kb.updateFact(
                id: id, FactUpdate(content: "Bakes rye bread on Saturdays", importance: .low, topicPath: "Baking/Bread")
            )
        }
    }

    @Test func undoADeactivationAReactivationAndADeletion() async throws {
        try await Self.expectUndoRestores(.deactivateFact) { kb in try await kb.deactivateFact(id: 1) }
        try await Self.expectUndoRestores(.deleteFact) { kb in try await kb.deleteFact(id: 2) }
        let kb = try await Self.knowledgeBase()
        try await kb.deactivateFact(id: 3)
        let before = try await Self.exportBytes(kb)
        try await kb.reactivateFact(id: 3)
        #expect(try await kb.operations().first?.kind == .reactivateFact)
        try await kb.undo()
        #expect(try await Self.exportBytes(kb) == before)
    }

    @Test func undoATopicDeletedWithItsSubtopicsAndFacts() async throws {
        try await Self.expectUndoRestores(.deleteTopic) { (kb: KnowledgeBase) async throws in
            #expect(try await kb.deleteTopic("Cooking and Food", cascade: true) == 2)
            #expect(try await kb.operations().first?.summary == "deleted topic Cooking and Food and 2 facts")
        }
        let kb = try await Self.knowledgeBase()
        try await kb.createTopic("Empty")
        try await kb.deleteTopic("Empty")
        #expect(try await kb.operations().first?.kind == .deleteTopic)
        try await kb.undo()
        #expect(try await kb.topic(at: "Empty") != nil)
    }

    @Test func undoRefusesWhenALaterOperationChangedTheSameRowsAndRedoes() async throws {
        let kb = try await Self.knowledgeBase()
        let original = try await Self.exportBytes(kb)
        try await kb.updateFact(id: 3, FactUpdate(importance: .low))
        let update = try #require(try await kb.operations().first)
        try await kb.deleteFact(id: 3)
        await #expect(throws: MnemoError.self) { try await kb.undo(update.id) }
        try await kb.undo() // the deletion
        let undo = try await kb.undo() // now the update
        #expect(try await Self.exportBytes(kb) == original)
        await #expect(throws: MnemoError.self) { try await kb.undo(update.id) } // already undone
        try await kb.undo(undo.id) // redo the update
        #expect(try await kb.fact(id: 3)?.importance == .low)
        await #expect(throws: MnemoError.self) { try await kb.inNamespace("other").undo(update.id) }
    }

    @Test func theCommandLineListsAndUndoes() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        _ = try CLIRunner.run([
            "ingest", ModelFixture.fixtures.appendingPathComponent("samples/facts.jsonl").path, "--db", path,
            "--no-embeddings",
        ])
        let before = try CLIRunner.run(["export", "--all-namespaces", "--db", path]).stdout
        #expect(try CLIRunner.run(["fact", "delete", "1", "--db", path]).status == 0)
        #expect(try CLIRunner.run(["merge", "Work", "--into", "Archive/Old Work", "--db", path]).status == 0)
        let list = try CLIRunner.run(["undo", "--list", "--json", "--db", path])
        let entries = try #require(try list.json() as? [[String: Any]])
        #expect(entries.map { $0["kind"] as? String } == ["merge_topics", "delete_fact"])
        #expect(try CLIRunner.run(["undo", "--db", path]).status == 0)
        let undo = try CLIRunner.run(["undo", "--db", path])
        #expect(undo.status == 0)
        #expect(undo.stdout.contains("deleted fact #1"))
        #expect(try CLIRunner.run(["export", "--all-namespaces", "--db", path]).stdout == before)
        let nothing = try CLIRunner.run(["undo", "--db", path])
        #expect(nothing.status != 0)
        #expect(nothing.stderr.contains("nothing to undo"))
    }
}
