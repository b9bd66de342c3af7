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
        try db.execute(
            sql: """
                CREATE TRIGGER fact_log_update BEFORE UPDATE ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
                    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', old.id, json_object('id', old.id, 'namespace', old.namespace, 'topic_id', old.topic_id, 'content', old.content, 'content_key', old.content_key, 'type', old.type, 'importance', old.importance, 'confidence', printf('%!.17g', old.confidence), 'is_active', old.is_active, 'sources', old.sources, 'mention_count', old.mention_count, 'created_at', old.created_at, 'updated_at', old.updated_at, 'expires_at', old.expires_at, 'goal_status', old.goal_status, 'goal_progress', printf('%!.17g', old.goal_progress), 'target_date', old.target_date, 'completed_at', old.completed_at));
                END;
                CREATE TRIGGER fact_log_delete BEFORE DELETE ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
                    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', old.id, json_object('id', old.id, 'namespace', old.namespace, 'topic_id', old.topic_id, 'content', old.content, 'content_key', old.content_key, 'type', old.type, 'importance', old.importance, 'confidence', printf('%!.17g', old.confidence), 'is_active', old.is_active, 'sources', old.sources, 'mention_count', old.mention_count, 'created_at', old.created_at, 'updated_at', old.updated_at, 'expires_at', old.expires_at, 'goal_status', old.goal_status, 'goal_progress', printf('%!.17g', old.goal_progress), 'target_date', old.target_date, 'completed_at', old.completed_at));
                END;
                CREATE TRIGGER fact_log_replace BEFORE INSERT ON fact
                WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM fact WHERE id = new.id) BEGIN
                    INSERT INTO operation_change (table_name, row_id, before)
                    SELECT 'fact', id, json_object('id', fact.id, 'namespace', fact.namespace, 'topic_id', fact.topic_id, 'content', fact.content, 'content_key', fact.content_key, 'type', fact.type, 'importance', fact.importance, 'confidence', printf('%!.17g', fact.confidence), 'is_active', fact.is_active, 'sources', fact.sources, 'mention_count', fact.mention_count, 'created_at', fact.created_at, 'updated_at', fact.updated_at, 'expires_at', fact.expires_at, 'goal_status', fact.goal_status, 'goal_progress', printf('%!.17g', fact.goal_progress), 'target_date', fact.target_date, 'completed_at', fact.completed_at) FROM fact WHERE id = new.id;
                END;
                CREATE TRIGGER fact_log_insert AFTER INSERT ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
                    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', new.id, NULL);
                END;
                """)
    }
}
