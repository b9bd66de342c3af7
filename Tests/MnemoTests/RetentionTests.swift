import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Facts that expire, the purge that erases them, and the undo window.
@Suite(.storesClosed) struct RetentionTests {
    static let hour: TimeInterval = 3_600

    @Test(arguments: Backend.available) func expiredFactsLeaveSearchAndListings(on backend: Backend) async throws {
        let kb = try await backend.empty(
            embedder: SeededEmbedder(
                dimension: 4,
                pinned: [
                    "Staying at the Hotel Quintessa this week": [1, 0, 0, 0],
                    "Staying at the Hotel Quintessa next month": [0.8, 0.6, 0, 0],
                ]))
        let past = try await kb.addFact(
            NewFact(
                content: "Staying at the Hotel Quintessa this week", topicPath: "Travel",
                expiresAt: Date().addingTimeInterval(-Self.hour)))
        let future = try await kb.addFact(
            NewFact(
                content: "Staying at the Hotel Quintessa next month", topicPath: "Travel",
                expiresAt: Date().addingTimeInterval(Self.hour)))
        #expect(try await kb.fact(id: past.id)?.expiresAt != nil)
        #expect(try await kb.search("Quintessa", mode: .text).map(\.fact.id) == [future.id])
        let semantic = try await kb.search(
            SearchQuery("Staying at the Hotel Quintessa this week", mode: .semantic, limit: 1))
        #expect(
            semantic.map(\.fact.id) == [future.id],
            "the expired fact, however close, is left out and another takes its place")
        #expect(
            try await kb.search(SearchQuery("Quintessa", mode: .hybrid, relativeScoreFloor: nil)).map(\.fact.id) == [
                future.id
            ])
        #expect(try await kb.facts().map(\.id) == [future.id])
    }

    @Test func purgeErasesExpiredFactsAndOldUndoRecords() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try KnowledgeBase(path: path)
        let now = Date()
        let expired = try await kb.addFact(
            NewFact(
                content: "Boarding pass code XQ7-Lomblen", topicPath: "Travel",
                expiresAt: now.addingTimeInterval(-Self.hour)))
        let kept = try await kb.addFact(NewFact(content: "Likes window seats", topicPath: "Travel"))
        try await kb.updateFact(id: kept.id, FactUpdate(importance: .high))
        let receipt = try await kb.purge(now: now)
        #expect(receipt.factIDs == [expired.id] && receipt.reason == .expired)
        #expect(receipt.undoRecords == 0, "the update is inside the 30-day window")
        #expect(try await kb.tombstone(ofFact: expired.id)?.reason == .expired)
        #expect(try FileTraces(databaseAt: path).found(["Lomblen"]) == [])
        #expect(try await kb.operations().count == 1)

        let later = try await kb.purge(now: now.addingTimeInterval(31 * 86_400))
        #expect(later.factIDs.isEmpty && later.undoRecords == 1)
        #expect(try await kb.operations().isEmpty)
        #expect(try await kb.fact(id: kept.id)?.importance == .high)
        #expect(try await kb.check().isClean)
    }

    @Test func theUndoWindowIsASettingAndAnUndoGoesWithItsOperation() async throws {
        var configuration = KnowledgeBase.Configuration()
        configuration.undoRetention = 60
        #expect(KnowledgeBase.Configuration().undoRetention == 30 * 86_400)
        let kb = try KnowledgeBase(
            url: URL(fileURLWithPath: try TestKnowledgeBase.temporaryPath()), configuration: configuration)
        let start = Date()
        let fact = try await kb.addFact(NewFact(content: "Plays go on Tuesdays", topicPath: "Games"))
        try await kb.deactivateFact(id: fact.id)
        try await kb.undo()
        // Measured from before the operations, so a slow machine cannot age them past the window.
        #expect(try await kb.purge(now: start.addingTimeInterval(30)).undoRecords == 0)
        // Both the deactivation and its undo are older than a minute: both go, as one history.
        #expect(try await kb.purge(now: Date().addingTimeInterval(120)).undoRecords == 2)
        await #expect(throws: MnemoError.self) { try await kb.purge(undoOlderThan: -1) }
    }

    @Test(arguments: Backend.available) func expiryIsIngestedExportedUpdatedAndUndone(on backend: Backend) async throws
    {
        let kb = try await backend.empty()
        let jsonl = #"{"topic": "Work", "content": "On call until Friday", "expires_at": "2030-01-04T18:00:00Z"}"#
        let report = try await kb.ingest(data: Data(jsonl.utf8), options: IngestOptions(format: .jsonl))
        #expect(report.added == 1)
        let fact = try #require(try await kb.facts().first)
        #expect(fact.expiresAt == Timestamp.parse("2030-01-04T18:00:00Z"))
        var lines: [String] = []
        for try await line in kb.exportedLines() { lines.append(line) }
        #expect(lines.first?.hasSuffix(#","expires_at":"2030-01-04T18:00:00Z"}"#) == true, "\(lines)")
        let copy = try await backend.empty()
        try await copy.ingest(data: Data(lines.joined(separator: "\n").utf8), options: IngestOptions(format: .jsonl))
        #expect(try await copy.facts().first?.expiresAt == fact.expiresAt)

        let cleared = try await kb.updateFact(id: fact.id, FactUpdate(expiresAt: .some(nil)))
        #expect(cleared.expiresAt == nil)
        #expect(
            try await kb.history(ofFact: fact.id).last?.change
                == .updated([HistoryEvent.FieldChange(field: "expires_at", old: "2030-01-04T18:00:00Z", new: "never")]))
        try await kb.undo()
        #expect(try await kb.fact(id: fact.id)?.expiresAt == fact.expiresAt)
    }

    @Test func anOperationRecordedBeforeExpiryExistedStillUndoes() async throws {
        let kb = try KnowledgeBase.inMemory()
        let fact = try await kb.addFact(NewFact(content: "Reads before sleep", topicPath: "Habits"))
        try await kb.updateFact(id: fact.id, FactUpdate(importance: .low))
        // What version 6 recorded: row images without the expires_at column.
        try await kb.writer.write { db in
            let changes = try String.fetchOne(db, sql: "SELECT changes FROM operation") ?? ""
            let old = changes.replacingOccurrences(of: #",\"expires_at\":null"#, with: "")
            #expect(old != changes)
            try db.execute(sql: "UPDATE operation SET changes = ?", arguments: [old])
        }
        try await kb.undo()
        #expect(try await kb.fact(id: fact.id)?.importance == .medium)
    }

    @Test func aReadOnlyFileFromBeforeExpiryIsSearchable() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        try await KnowledgeBase(path: path).addFact(NewFact(content: "Keeps bees on the roof", topicPath: "Hobbies"))
        // Take the file back to schema v6.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    DROP INDEX fact_on_namespace_expiry;
                    DROP TRIGGER fact_log_update; DROP TRIGGER fact_log_delete; DROP TRIGGER fact_log_replace; DROP TRIGGER fact_log_insert;
                    ALTER TABLE fact DROP COLUMN expires_at;
                    DELETE FROM grdb_migrations WHERE identifier = 'v7: fact expiry';
                    """)
            try db.execute(sql: Schema.factLogTriggersBeforeExpiry)
        }
        try queue.close()
        let kb = try KnowledgeBase(readingOnly: path)
        let fact = try #require(try await kb.search("bees", mode: .text).first?.fact)
        #expect(fact.content == "Keeps bees on the roof" && fact.expiresAt == nil)
        // Opened for writing, it is migrated and keeps working.
        let writable = try KnowledgeBase(path: path)
        try await writable.updateFact(id: fact.id, FactUpdate(expiresAt: Date().addingTimeInterval(-1)))
        #expect(try await writable.search("bees", mode: .text).isEmpty)
    }
}
