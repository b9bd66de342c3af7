import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The row changes one copy captures, applied to another copy in the same state, make it the
/// same: what a node of a shared store does with every other node's writes.
@Suite struct RowCaptureTests {
    static func copy() throws -> KnowledgeBase {
        try KnowledgeBase(path: TestKnowledgeBase.temporaryPath(), embedder: UndoTests.embedder())
    }

    /// Every row of every replicated table, in key order, as SQL literals.
    static func rows(_ kb: KnowledgeBase) async throws -> [String] {
        try await kb.writer.read { db in
            var lines: [String] = []
            for table in RowCapture.tables {
                let columns = try db.columns(in: table.name).map { "quote(\($0.name))" }.joined(
                    separator: " || ',' || ")
                let rows = try String.fetchAll(
                    db, sql: "SELECT \(columns) FROM \(table.name) ORDER BY \(table.key)")
                lines += rows.map { "\(table.name): \($0)" }
            }
            return lines
        }
    }

    @Test func changesCapturedOnOneCopyMakeAnotherTheSame() async throws {
        let source = try Self.copy()
        let replica = try Self.copy()
        try await source.writer.write { db in try RowCapture.prepare(db) }
        let added = try await source.addFacts(
            [
                NewFact(content: "I prefer tea to coffee", topicPath: "Food & Cooking", type: .preference),
                NewFact(content: "Prefers tea over coffee", topicPath: "Cooking and Food", type: .preference),
                NewFact(content: "Ran 10 km on Sunday", topicPath: "Health/Running", importance: .high),
                NewFact(content: "Bakes sourdough on Saturdays", topicPath: "Cooking and Food/Baking"),
            ], nearDuplicates: nil)
        let ids = added.map(\.fact.id)
        _ = try await source.updateFact(id: ids[2], FactUpdate(importance: .low))
        _ = try await source.mergeTopics(["Cooking and Food"], into: "Food & Cooking")
        try await source.deleteFact(id: ids[3])
        _ = try await source.eraseFacts(ids: [ids[1]])
        let changes = try await source.writer.write { db in try RowCapture.captured(db) }
        #expect(Set(changes.map(\.kind)) == [.insert, .update, .delete])
        #expect(changes.contains { $0.isErasure })

        // Through the copy's GRDB writer, as a node applies them: the feed's events come with the
        // changes, none is derived again.
        try await replica.replicaWriter.write { db in
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            try RowCapture.apply(changes, db)
        }
        #expect(try await Self.rows(replica) == Self.rows(source))
        // The copy's own triggers kept its derived tables: the words and the vectors find the fact.
        for mode in [SearchMode.text, .semantic] {
            let hits = try await replica.search("Ran 10 km on Sunday", mode: mode, limit: 1)
            #expect(hits.first?.fact.id == ids[2], "\(mode)")
        }
    }

    @Test func aRowOfAnEarlierSchemaLeavesTheColumnsAddedSinceEmpty() async throws {
        let source = try Self.copy()
        try await source.writer.write { db in try RowCapture.prepare(db) }
        _ = try await source.addFact(NewFact(content: "Ran 10 km on Sunday", topicPath: "Health/Running"))
        let changes = try await source.writer.write { db in try RowCapture.captured(db) }
        let columns = try await source.writer.read { db in try db.columns(in: "fact").map(\.name) }
        #expect(columns.last == "uid")
        // The fact's row as a store kept it before `uid` was added: one value fewer.
        let earlier = changes.map { change -> RowChange in
            guard change.table == "fact" else { return change }
            var change = change
            change.values = String(change.values[..<change.values.lastIndex(of: ",")!])
            return change
        }

        let replica = try Self.copy()
        try await replica.replicaWriter.write { db in
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            try RowCapture.apply(earlier, db)
        }
        let uid = try await replica.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT uid FROM fact WHERE content = 'Ran 10 km on Sunday'")
        }
        #expect(uid?["uid"] == DatabaseValue.null)
    }

    @Test func aTupleCountsItsValuesOutsideQuotedText() {
        #expect(RowChange.width(of: "1,'a, b',X'00FF',NULL,2.5") == 5)
        #expect(RowChange.width(of: "'it''s, quoted'") == 1)
    }
}
