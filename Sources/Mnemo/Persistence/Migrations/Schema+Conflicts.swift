import GRDB

extension Schema {
    /// Pairs of facts that are close but differ (see ``NearDuplicateRule/Verdict/conflict(_:)``).
    ///
    /// A conflict lasts while both facts are stored and active: deleting either removes it (the
    /// foreign keys cascade) and so does deactivating either (the trigger), which is how a user
    /// settles one by retiring the stale fact.
    static func createConflicts(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE fact_conflict (
                    id INTEGER PRIMARY KEY,
                    namespace TEXT NOT NULL,
                    older_fact_id INTEGER NOT NULL REFERENCES fact(id) ON DELETE CASCADE,
                    newer_fact_id INTEGER NOT NULL REFERENCES fact(id) ON DELETE CASCADE,
                    reason TEXT NOT NULL,
                    similarity REAL NOT NULL,
                    created_at DATETIME NOT NULL,
                    UNIQUE (older_fact_id, newer_fact_id)
                );
                CREATE INDEX fact_conflict_on_namespace ON fact_conflict(namespace, created_at);
                CREATE INDEX fact_conflict_on_newer ON fact_conflict(newer_fact_id);

                CREATE TRIGGER fact_conflict_after_deactivate AFTER UPDATE OF is_active ON fact
                WHEN new.is_active = 0 AND old.is_active = 1 BEGIN
                    DELETE FROM fact_conflict WHERE older_fact_id = new.id OR newer_fact_id = new.id;
                END;
                """)
    }
}
