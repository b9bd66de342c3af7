import GRDB

/// Loads a copy afresh from a store's rows (each in the change format, see ``RowChange``): the
/// replicated tables emptied and filled in one transaction, which readers of the copy see only
/// once it commits.
package enum RowLoad {
    /// Opens the transaction that loads the rows, and empties the replicated tables in it.
    /// Foreign keys are off until the load commits or is abandoned (rows come table by table, and
    /// were consistent where they were written; SQLite reads the pragma only outside a
    /// transaction), and the capture log is dropped so that the load records nothing.
    package static func begin(_ db: Database) throws {
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        try db.execute(sql: "BEGIN IMMEDIATE")
        try RowCapture.drop(db)
        for table in RowCapture.tables.reversed() {
            try db.execute(sql: "DELETE FROM main.\(table.name)")
        }
    }

    /// Ends a load begun with ``begin(_:)``: the derived tables made again, `record` run (the
    /// caller notes what the copy now holds), the transaction committed.
    package static func commit(_ db: Database, recording record: (Database) throws -> Void) throws {
        // The deletes told the external-content index values it may not hold.
        try db.execute(sql: "INSERT INTO fact_fts (fact_fts) VALUES ('rebuild')")
        // Rows a store kept from before uids existed get theirs, alike on every copy.
        try StableIDBackfill.fill(db)
        try record(db)
        try db.execute(sql: "COMMIT")
        try db.execute(sql: "PRAGMA foreign_keys = ON")
    }

    /// Rolls back a load that did not finish; the copy keeps the rows it had.
    package static func abandon(_ db: Database) throws {
        if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
        try db.execute(sql: "PRAGMA foreign_keys = ON")
    }

    /// Rows of one table on their way into a copy, inserted in one statement: compiling one
    /// statement per row was most of the time a node took to load a namespace (1.9 s for 331
    /// facts with their history and undo log, 14,000 rows).
    package struct Batch: Sendable {
        package private(set) var table: String?
        private var tuples: [String] = []
        private var length = 0
        /// How many values each tuple of the batch holds: a row written by an earlier schema
        /// lacks the columns added since (they come last), which stay NULL.
        private var width = 0

        package init() {}

        /// Whether a row of `table` joins this batch: up to 500 rows or about a megabyte of SQL,
        /// of one table and one width.
        package func accepts(table: String, values: String) -> Bool {
            self.table == nil
                || (self.table == table && tuples.count < 500 && length + values.utf8.count < 1 << 20
                    && RowChange.width(of: values) == width)
        }

        package mutating func append(table: String, values: String) {
            if self.table == nil { width = RowChange.width(of: values) }
            self.table = table
            tuples.append("(\(values))")
            length += values.utf8.count
        }

        package func insert(_ db: Database) throws {
            guard let table, !tuples.isEmpty else { return }
            let columns = try db.columns(in: table, in: "main").map(\.name).prefix(width).joined(separator: ", ")
            try db.execute(sql: "INSERT INTO main.\(table) (\(columns)) VALUES \(tuples.joined(separator: ","))")
        }
    }
}
