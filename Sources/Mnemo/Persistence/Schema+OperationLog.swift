import GRDB

extension Schema {
    /// The operation log that ``KnowledgeBase/undo(_:)`` reads.
    ///
    /// `operation` is append-only: each undoable operation adds one row with a JSON snapshot of
    /// every row it changed, before and after; an undo adds a row that `reverts` it. While an
    /// operation runs (a `meta` row `operation.recording` exists, inside its transaction only),
    /// triggers on the tracked tables append each row's image before its change to
    /// `operation_change`; the operation turns those into its snapshot and empties it.
    static func createOperationLog(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE operation (
                    id INTEGER PRIMARY KEY,
                    namespace TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    summary TEXT NOT NULL,
                    reverts INTEGER REFERENCES operation(id),
                    changes TEXT NOT NULL,
                    created_at DATETIME NOT NULL
                );
                CREATE INDEX operation_on_namespace ON operation(namespace, id);
                CREATE UNIQUE INDEX operation_on_reverts ON operation(reverts);

                CREATE TABLE operation_change (
                    id INTEGER PRIMARY KEY,
                    table_name TEXT NOT NULL,
                    row_id INTEGER NOT NULL,
                    before TEXT
                );
                """)
        // The column lists as they were when this migration shipped: `fact` gained `expires_at`
        // later, and v7 recreates its triggers; both gained `uid` in v9.
        for table in [
            TrackedTable.topicBeforeStableIDs, TrackedTable.factBeforeExpiry, TrackedTable.factEmbedding,
            TrackedTable.history, TrackedTable.factConflict,
        ] {
            try db.execute(sql: operationLogTriggers(table))
        }
    }

    /// The four triggers that record `table`'s row images while an operation records.
    static func operationLogTriggers(_ table: TrackedTable) -> String {
        let recording = "EXISTS (SELECT 1 FROM meta WHERE key = '\(OperationLog.recordingKey)')"
        return """
            CREATE TRIGGER \(table.name)_log_update BEFORE UPDATE ON \(table.name) WHEN \(recording) BEGIN
                INSERT INTO operation_change (table_name, row_id, before) VALUES ('\(table.name)', old.\(table.key), \(table.image(of: "old")));
            END;
            CREATE TRIGGER \(table.name)_log_delete BEFORE DELETE ON \(table.name) WHEN \(recording) BEGIN
                INSERT INTO operation_change (table_name, row_id, before) VALUES ('\(table.name)', old.\(table.key), \(table.image(of: "old")));
            END;
            CREATE TRIGGER \(table.name)_log_replace BEFORE INSERT ON \(table.name)
            WHEN \(recording) AND EXISTS (SELECT 1 FROM \(table.name) WHERE \(table.key) = new.\(table.key)) BEGIN
                INSERT INTO operation_change (table_name, row_id, before)
                SELECT '\(table.name)', \(table.key), \(table.image(of: table.name)) FROM \(table.name) WHERE \(table.key) = new.\(table.key);
            END;
            CREATE TRIGGER \(table.name)_log_insert AFTER INSERT ON \(table.name) WHEN \(recording) BEGIN
                INSERT INTO operation_change (table_name, row_id, before) VALUES ('\(table.name)', new.\(table.key), NULL);
            END;
            """
    }
}
