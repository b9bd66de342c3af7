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
        try db.execute(sql: factLogTriggersWithExpiry)
    }

    /// The operation log's triggers on `fact` as this migration made them, with `expires_at`.
    static let factLogTriggersWithExpiry = """
        CREATE TRIGGER fact_log_update BEFORE UPDATE ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', old.id, json_object('id', old.id, 'namespace', old.namespace, 'topic_id', old.topic_id, 'content', old.content, 'content_key', old.content_key, 'type', old.type, 'importance', old.importance, 'confidence', printf('%!.17g', old.confidence), 'is_active', old.is_active, 'sources', old.sources, 'mention_count', old.mention_count, 'created_at', old.created_at, 'updated_at', old.updated_at, 'expires_at', old.expires_at));
        END;
        CREATE TRIGGER fact_log_delete BEFORE DELETE ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', old.id, json_object('id', old.id, 'namespace', old.namespace, 'topic_id', old.topic_id, 'content', old.content, 'content_key', old.content_key, 'type', old.type, 'importance', old.importance, 'confidence', printf('%!.17g', old.confidence), 'is_active', old.is_active, 'sources', old.sources, 'mention_count', old.mention_count, 'created_at', old.created_at, 'updated_at', old.updated_at, 'expires_at', old.expires_at));
        END;
        CREATE TRIGGER fact_log_replace BEFORE INSERT ON fact
        WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM fact WHERE id = new.id) BEGIN
            INSERT INTO operation_change (table_name, row_id, before)
            SELECT 'fact', id, json_object('id', fact.id, 'namespace', fact.namespace, 'topic_id', fact.topic_id, 'content', fact.content, 'content_key', fact.content_key, 'type', fact.type, 'importance', fact.importance, 'confidence', printf('%!.17g', fact.confidence), 'is_active', fact.is_active, 'sources', fact.sources, 'mention_count', fact.mention_count, 'created_at', fact.created_at, 'updated_at', fact.updated_at, 'expires_at', fact.expires_at) FROM fact WHERE id = new.id;
        END;
        CREATE TRIGGER fact_log_insert AFTER INSERT ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', new.id, NULL);
        END;
        """
}
