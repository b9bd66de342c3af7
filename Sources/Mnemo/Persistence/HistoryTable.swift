import Foundation
import GRDB

/// The `history` table: events appended inside the transaction that makes the change.
enum HistoryTable {
    static func record(
        _ db: Database,
        namespace: String,
        factID: Int64? = nil,
        topicID: Int64? = nil,
        kind: HistoryEvent.Kind,
        details: [String: String] = [:],
        at date: Date = Date()
    ) throws {
        let detailsJSON = JSONText.object(details)
        try db.cachedStatement(
            sql: """
                INSERT INTO history (id, namespace, fact_id, topic_id, event, details, created_at)
                VALUES ((SELECT \(RowIDs.nextSQL("history"))), ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [namespace, factID, topicID, kind.rawValue, detailsJSON, Timestamp.databaseText(date)])
    }

    static func events(_ db: Database, namespace: String, factID: Int64) throws -> [HistoryEvent] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT * FROM history WHERE namespace = ? AND fact_id = ? ORDER BY id
                """, arguments: [namespace, factID]
        ).map(HistoryEvent.init(row:))
    }

    static func events(_ db: Database, namespace: String, topicID: Int64) throws -> [HistoryEvent] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT * FROM history WHERE namespace = ? AND topic_id = ? AND fact_id IS NULL ORDER BY id
                """, arguments: [namespace, topicID]
        ).map(HistoryEvent.init(row:))
    }

    /// The namespace's topic-merge events, newest first: each merge records one on the target
    /// (`merged_from`) and one on the source (`into`).
    static func topicMerges(_ db: Database, namespace: String) throws -> [HistoryEvent] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT * FROM history WHERE namespace = ? AND event = ? AND fact_id IS NULL ORDER BY id DESC
                """, arguments: [namespace, HistoryEvent.Kind.topicMerged.rawValue]
        ).map(HistoryEvent.init(row:))
    }
}

extension HistoryEvent {
    init(row: Row) {
        let detailsText: String = row["details"]
        self.init(
            id: row["id"],
            factID: row["fact_id"],
            topicID: row["topic_id"],
            kind: Kind(rawValue: row["event"]) ?? .updated,
            details: (try? JSONDecoder().decode([String: String].self, from: Data(detailsText.utf8))) ?? [:],
            date: row["created_at"]
        )
    }
}

extension JSONEncoder {
    static var sortedKeys: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
