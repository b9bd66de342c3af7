import GRDB
import Mnemo

/// One row change of a node's copy, as the store keeps it: the table, the kind of change, the
/// row's id before it and, for an insert or update, the row after it as a tuple of SQL literals
/// made by SQLite's own `quote()` (exact for every integer, real, text and blob).
struct ReplicatedChange: Sendable, Hashable {
    enum Kind: String, Sendable {
        case insert = "I"
        case update = "U"
        case delete = "D"
    }

    var table: String
    var kind: Kind
    /// The row's id before the change (for an insert, its new id).
    var rowID: Int64
    /// The row's id after the change (equal to ``rowID`` but for an update of the id itself).
    var newRowID: Int64
    /// `quote(col1) || ',' || quote(col2) …` in the table's column order; empty for a delete.
    var values: String

    /// Whether the change records an erasure (a fact's tombstone is written in its transaction).
    var isErasure: Bool { table == "fact_tombstone" && kind == .insert }
}

/// The tables a node's copy shares with the store, parents first, with their key column: the
/// registry's replicated tables. The rest is derived or local: `fact_fts` and `fact_change` are
/// kept by the copy's own triggers, `meta` holds what every copy writes alike (the embedder's
/// identity, the undo log's in-transaction flag).
enum ReplicatedTables {
    static let all: [(name: String, key: String)] = TableRegistry.tables(with: .replicated).map { ($0.name, $0.key) }

    static func key(of table: String) -> String? { all.first { $0.name == table }?.key }

    /// Creates, once per connection, the temporary log and the temporary triggers that record
    /// every change of the shared tables in order: the write's changes are read from it before
    /// the transaction commits. Temporary objects belong to the one writer connection.
    static func prepareCapture(_ db: Database) throws {
        let exists = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_temp_master WHERE name = 'replica_change')")
        guard exists != true else { return }
        var sql = """
            CREATE TEMP TABLE replica_change (
                position INTEGER PRIMARY KEY, table_name TEXT NOT NULL, kind TEXT NOT NULL,
                row_id INTEGER NOT NULL, new_row_id INTEGER NOT NULL, row_values TEXT NOT NULL);

            """
        for (table, key) in all {
            let columns = try db.columns(in: table, in: "main").map(\.name)
            let values = { (row: String) in columns.map { "quote(\(row).\($0))" }.joined(separator: " || ',' || ") }
            let record = { (kind: String, row: String, newRow: String, tuple: String) in
                """
                INSERT INTO replica_change (table_name, kind, row_id, new_row_id, row_values)
                VALUES ('\(table)', '\(kind)', \(row).\(key), \(newRow).\(key), \(tuple));
                """
            }
            sql += """
                CREATE TEMP TRIGGER replica_\(table)_insert AFTER INSERT ON main.\(table)
                BEGIN \(record("I", "new", "new", values("new"))) END;
                CREATE TEMP TRIGGER replica_\(table)_update AFTER UPDATE ON main.\(table)
                BEGIN \(record("U", "old", "new", values("new"))) END;
                CREATE TEMP TRIGGER replica_\(table)_delete AFTER DELETE ON main.\(table)
                BEGIN \(record("D", "old", "old", "''")) END;

                """
        }
        try db.execute(sql: sql)
    }

    /// Forgets what was recorded (before a write, and after changes from the store were applied).
    static func clearCapture(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM temp.replica_change")
    }

    /// The changes recorded since the last clear, in the order they were made.
    static func capturedChanges(_ db: Database) throws -> [ReplicatedChange] {
        try Row.fetchAll(
            db,
            sql: "SELECT table_name, kind, row_id, new_row_id, row_values FROM temp.replica_change ORDER BY position"
        ).map {
            ReplicatedChange(
                table: $0[0], kind: ReplicatedChange.Kind(rawValue: $0[1]) ?? .update, rowID: $0[2], newRowID: $0[3],
                values: $0[4])
        }
    }

    /// Applies changes made on another node, in their order: each fires the copy's own triggers
    /// (full-text index, vector change log) exactly as it did where it was made, since the copy
    /// was in the same state before.
    static func apply(_ changes: [ReplicatedChange], _ db: Database) throws {
        for change in changes {
            guard let key = key(of: change.table) else { continue }
            let columns = try db.columns(in: change.table, in: "main").map(\.name).joined(separator: ", ")
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
    /// every row it inserts; the next write creates them again (``prepareCapture(_:)``).
    static func dropCapture(_ db: Database) throws {
        var sql = "DROP TABLE IF EXISTS temp.replica_change;"
        for (table, _) in all {
            for kind in ["insert", "update", "delete"] {
                sql += "DROP TRIGGER IF EXISTS temp.replica_\(table)_\(kind);"
            }
        }
        try db.execute(sql: sql)
    }

    /// Opens the transaction that loads the store's rows into the copy, and empties the shared
    /// tables in it. Foreign keys are off until the load commits or is abandoned (rows come table
    /// by table, and were consistent where they were written; SQLite reads the pragma only
    /// outside a transaction), and the capture log is dropped so that the load records nothing.
    static func beginLoad(_ db: Database) throws {
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        try db.execute(sql: "BEGIN IMMEDIATE")
        try dropCapture(db)
        for (table, _) in all.reversed() {
            try db.execute(sql: "DELETE FROM main.\(table)")
        }
    }

    /// Ends a load begun with ``beginLoad(_:)``: the full-text index rebuilt, the copy's state
    /// set, the transaction committed.
    static func commitLoad(_ state: NamespaceCopy.State, _ db: Database) throws {
        // The deletes told the external-content index values it may not hold.
        try db.execute(sql: "INSERT INTO fact_fts (fact_fts) VALUES ('rebuild')")
        // Rows a store kept from before uids existed get theirs, alike on every node.
        try StableIDBackfill.fill(db)
        try NamespaceCopy.setState(state, db)
        try db.execute(sql: "COMMIT")
        try db.execute(sql: "PRAGMA foreign_keys = ON")
    }

    /// Rolls back a load that did not finish; the copy keeps the rows it had.
    static func abandonLoad(_ db: Database) throws {
        if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
        try db.execute(sql: "PRAGMA foreign_keys = ON")
    }

    /// Rows of one table on their way into a copy, inserted in one statement: compiling one
    /// statement per row was most of the time a node took to load a namespace (1.9 s for 331
    /// facts with their history and undo log, 14,000 rows).
    struct LoadBatch: Sendable {
        private(set) var table: String?
        private var tuples: [String] = []
        private var length = 0
        /// How many values each tuple of the batch holds: a row the store kept from an earlier
        /// schema lacks the columns added since (they come last), which stay NULL.
        private var width = 0

        /// Whether a row of `table` joins this batch: up to 500 rows or about a megabyte of SQL,
        /// of one table and one width.
        func accepts(table: String, values: String) -> Bool {
            self.table == nil
                || (self.table == table && tuples.count < 500 && length + values.utf8.count < 1 << 20
                    && Self.width(of: values) == width)
        }

        mutating func append(table: String, values: String) {
            if self.table == nil { width = Self.width(of: values) }
            self.table = table
            tuples.append("(\(values))")
            length += values.utf8.count
        }

        func insert(_ db: Database) throws {
            guard let table, !tuples.isEmpty else { return }
            let columns = try db.columns(in: table, in: "main").map(\.name).prefix(width).joined(separator: ", ")
            try db.execute(sql: "INSERT INTO main.\(table) (\(columns)) VALUES \(tuples.joined(separator: ","))")
        }

        /// The number of values of a tuple made by `quote()`: its commas outside quoted text, plus one.
        static func width(of values: String) -> Int {
            var count = 1
            var quoted = false
            for byte in values.utf8 {
                if byte == UInt8(ascii: "'") {
                    quoted.toggle()
                } else if byte == UInt8(ascii: ","), !quoted {
                    count += 1
                }
            }
            return count
        }
    }
}
