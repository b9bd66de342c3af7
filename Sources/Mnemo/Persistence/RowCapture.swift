import GRDB

/// The row changes of the registry's replicated tables (``TableRegistry``): captured as a write
/// makes them, applied to another copy in the same order, and loaded afresh into a copy.
///
/// The tables not replicated are derived or local: `fact_fts` and `fact_change` are kept by each
/// copy's own triggers, `meta` and the sync link hold what each file keeps for itself.
package enum RowCapture {
    /// The replicated tables, parents first, with their key column.
    package static let tables = TableRegistry.tables(with: .replicated)

    /// The key column of a replicated table; `nil` for a table that is not replicated.
    package static func key(of table: String) -> String? { tables.first { $0.name == table }?.key }

    /// Creates, once per connection, the temporary log and the temporary triggers that record
    /// every change of the replicated tables in order: a write's changes are read from it before
    /// its transaction commits. Temporary objects belong to the one writer connection.
    package static func prepare(_ db: Database) throws {
        let exists = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_temp_master WHERE name = 'replica_change')")
        guard exists != true else { return }
        var sql = """
            CREATE TEMP TABLE replica_change (
                position INTEGER PRIMARY KEY, table_name TEXT NOT NULL, kind TEXT NOT NULL,
                row_id INTEGER NOT NULL, new_row_id INTEGER NOT NULL, row_values TEXT NOT NULL);

            """
        for table in tables {
            sql += try triggers(of: table, db)
        }
        try db.execute(sql: sql)
    }

    private static func triggers(of table: StoredTable, _ db: Database) throws -> String {
        let columns = try db.columns(in: table.name, in: "main").map(\.name)
        let values = { (row: String) in columns.map { "quote(\(row).\($0))" }.joined(separator: " || ',' || ") }
        let record = { (kind: RowChange.Kind, row: String, newRow: String, tuple: String) in
            """
            INSERT INTO replica_change (table_name, kind, row_id, new_row_id, row_values)
            VALUES ('\(table.name)', '\(kind.rawValue)', \(row).\(table.key), \(newRow).\(table.key), \(tuple));
            """
        }
        return """
            CREATE TEMP TRIGGER replica_\(table.name)_insert AFTER INSERT ON main.\(table.name)
            BEGIN \(record(.insert, "new", "new", values("new"))) END;
            CREATE TEMP TRIGGER replica_\(table.name)_update AFTER UPDATE ON main.\(table.name)
            BEGIN \(record(.update, "old", "new", values("new"))) END;
            CREATE TEMP TRIGGER replica_\(table.name)_delete AFTER DELETE ON main.\(table.name)
            BEGIN \(record(.delete, "old", "old", "''")) END;

            """
    }

    /// Forgets what was recorded (before a write, and after changes from elsewhere were applied).
    package static func clear(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM temp.replica_change")
    }

    /// The changes recorded since the last clear, in the order they were made.
    package static func captured(_ db: Database) throws -> [RowChange] {
        try Row.fetchAll(
            db,
            sql: "SELECT table_name, kind, row_id, new_row_id, row_values FROM temp.replica_change ORDER BY position"
        ).map {
            RowChange(
                table: $0[0], kind: RowChange.Kind(rawValue: $0[1]) ?? .update, rowID: $0[2], newRowID: $0[3],
                values: $0[4])
        }
    }

    /// Applies changes made on another copy, in their order: each fires this copy's own triggers
    /// (full-text index, vector change log) exactly as it did where it was made, since the copy
    /// was in the same state before. A change of a table that is not replicated is skipped.
    package static func apply(_ changes: [RowChange], _ db: Database) throws {
        for change in changes {
            guard let key = key(of: change.table) else { continue }
            let columns = try db.columns(in: change.table, in: "main").map(\.name)
                .prefix(RowChange.width(of: change.values)).joined(separator: ", ")
            switch change.kind {
            case .insert:
                // As the write did: an `INSERT OR REPLACE` that replaced a row was recorded
                // as an insert (a replace deletes without firing delete triggers).
                try db.execute(
                    sql: "INSERT OR REPLACE INTO main.\(change.table) (\(columns)) VALUES (\(change.values))")
            case .update:
                try db.execute(
                    sql: "UPDATE main.\(change.table) SET (\(columns)) = (\(change.values)) WHERE \(key) = ?",
                    arguments: [change.rowID])
            case .delete:
                try db.execute(sql: "DELETE FROM main.\(change.table) WHERE \(key) = ?", arguments: [change.rowID])
            }
        }
    }

    /// Drops the temporary log and its triggers, so that loading a copy afresh does not record
    /// every row it inserts; the next write creates them again (``prepare(_:)``).
    package static func drop(_ db: Database) throws {
        var sql = "DROP TABLE IF EXISTS temp.replica_change;"
        for table in tables {
            for kind in ["insert", "update", "delete"] {
                sql += "DROP TRIGGER IF EXISTS temp.replica_\(table.name)_\(kind);"
            }
        }
        try db.execute(sql: sql)
    }
}
