import GRDB

extension Schema {
    /// An optional expiry date on facts (see ``Fact/expiresAt``), and the operation log's
    /// triggers on `fact` recreated so that its row images hold the new column.
    ///
    /// The column list of the recreated triggers is written out here, frozen with this
    /// migration (``TrackedTable/fact`` is the same list today, and may grow later).
    static func addFactExpiry(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE fact ADD COLUMN expires_at DATETIME;
                CREATE INDEX fact_on_namespace_expiry ON fact(namespace, expires_at) WHERE expires_at IS NOT NULL;
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
            ])
        try db.execute(sql: operationLogTriggers(fact))
    }
}
