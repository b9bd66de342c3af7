import GRDB

/// The ids of new rows.
///
/// A file numbers a table's new rows one above the largest id the table holds, across all its
/// namespaces (SQLite's own rule; a fact also stays above the ids its history and tombstones
/// remember). A node of a shared store holds one namespace per copy, so before each write it
/// sets each table's *floor*: the largest id the store's namespaces hold. New ids then stay above
/// it, and the same writes give the same ids on a file and on a store.
package enum RowIDs {
    /// The tables whose ids an app sees: facts, topics, history events, conflicts and undoable
    /// operations.
    package static let tables = TableRegistry.tables(with: .numbered).map(\.name)

    /// An SQL expression: the largest id `table` holds or used (facts), or 0.
    static func largestSQL(_ table: String) -> String {
        switch table {
        case "fact":
            """
            MAX(COALESCE((SELECT MAX(id) FROM fact), 0), COALESCE((SELECT MAX(fact_id) FROM history), 0),
                COALESCE((SELECT MAX(fact_id) FROM fact_tombstone), 0))
            """
        default:
            "COALESCE((SELECT MAX(id) FROM \(table)), 0)"
        }
    }

    /// An SQL expression: the id of `table`'s next row.
    static func nextSQL(_ table: String) -> String {
        "MAX(\(largestSQL(table)), COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '\(floorKey(table))'), 0)) + 1"
    }

    /// The id of `table`'s next row.
    static func next(_ db: Database, table: String) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT \(nextSQL(table))")) ?? 1
    }

    /// The largest id each of ``tables`` holds (or, for facts, used), in their order.
    package static func largest(_ db: Database) throws -> [Int64] {
        try tables.map { try Int64.fetchOne(db.cachedStatement(sql: "SELECT \(largestSQL($0))")) ?? 0 }
    }

    /// Keeps the ids of each of ``tables``' new rows above `floors` (in their order) in this
    /// database, until set again.
    package static func setFloors(_ floors: [Int64], _ db: Database) throws {
        for (table, floor) in zip(tables, floors) {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
                .execute(arguments: [floorKey(table), String(floor)])
        }
    }

    private static func floorKey(_ table: String) -> String { "id_floor.\(table)" }
}
