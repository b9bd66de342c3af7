import GRDB

extension Schema {
    /// A goal's status, progress, target date and completion date (see ``Fact/status``), and the
    /// operation log's triggers on `fact` recreated so that its row images hold them.
    ///
    /// Goals stored before keep NULL status and progress, read as active at 0 (``Fact/init(row:)``):
    /// no row is rewritten. The column list of the recreated triggers is written out here, frozen
    /// with this migration (``TrackedTable/fact`` is the same list today).
    static func addGoalFields(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE fact ADD COLUMN goal_status TEXT;
                ALTER TABLE fact ADD COLUMN goal_progress REAL;
                ALTER TABLE fact ADD COLUMN target_date DATETIME;
                ALTER TABLE fact ADD COLUMN completed_at DATETIME;
                CREATE INDEX fact_on_namespace_goal_status ON fact(namespace, goal_status) WHERE type = 'goal';
                DROP TRIGGER fact_log_update;
                DROP TRIGGER fact_log_delete;
                DROP TRIGGER fact_log_replace;
                DROP TRIGGER fact_log_insert;
                """)
        let fact = TrackedTable(
            name: "fact", key: "id",
            columns: [
                ("id", .plain), ("namespace", .plain), ("topic_id", .plain), ("content", .plain),
                ("content_key", .plain),
                ("type", .plain), ("importance", .plain), ("confidence", .real), ("is_active", .plain),
                ("sources", .plain),
                ("mention_count", .plain), ("created_at", .plain), ("updated_at", .plain), ("expires_at", .plain),
                ("goal_status", .plain), ("goal_progress", .real), ("target_date", .plain), ("completed_at", .plain),
            ])
        try db.execute(sql: operationLogTriggers(fact))
    }
}
