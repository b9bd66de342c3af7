import Foundation
import GRDB

extension HistoryTable {
    /// One fact event to append with ``recordFactEvents(_:_:at:)``.
    struct FactEvent {
        var namespace: String
        var factID: Int64
        var kind: HistoryEvent.Kind
        /// The details as a JSON object, such as `{"source":"conv-1","topic":"Food"}`.
        var detailsJSON: String
    }

    /// Rows per INSERT statement: 7 columns × 128 rows stays under 999 bound values.
    static let rowsPerInsert = 128

    /// Appends many fact events at once, as a batch ingest does: one statement per 128 events,
    /// the date formatted once.
    static func recordFactEvents(_ db: Database, _ events: [FactEvent], at date: Date) throws {
        let dateText = Timestamp.databaseText(date)
        var id = try RowIDs.next(db, table: "history")
        for start in stride(from: 0, to: events.count, by: rowsPerInsert) {
            let rows = events[start..<min(start + rowsPerInsert, events.count)]
            var arguments: [(any DatabaseValueConvertible)?] = []
            arguments.reserveCapacity(rows.count * 7)
            for event in rows {
                arguments += [id, event.namespace, event.factID, nil, event.kind.rawValue, event.detailsJSON, dateText]
                id += 1
            }
            let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: rows.count).joined(separator: ", ")
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO history (id, namespace, fact_id, topic_id, event, details, created_at) VALUES \(values)
                    """)
            // The arguments match the placeholders by construction: skip GRDB's validation pass.
            statement.setUncheckedArguments(StatementArguments(arguments))
            try statement.execute()
        }
    }
}
