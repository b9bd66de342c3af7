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
            let values = Array(repeating: "(?, ?, ?, NULL, ?, ?, ?)", count: rows.count).joined(separator: ", ")
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO history (id, namespace, fact_id, topic_id, event, details, created_at) VALUES \(values)
                    """)
            var bindings = BulkBindings(statement)
            for event in rows {
                bindings.bind(id)
                bindings.bind(event.namespace)
                bindings.bind(event.factID)
                bindings.bind(event.kind.rawValue)
                bindings.bind(event.detailsJSON)
                bindings.bind(dateText)
                id += 1
            }
            try bindings.execute()
        }
    }
}
