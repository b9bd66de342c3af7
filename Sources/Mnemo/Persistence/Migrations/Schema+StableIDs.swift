import GRDB

extension Schema {
    /// A `uid` on every fact and topic: its identity on every replica of the namespace (see
    /// ``Fact/uid``), unique in the namespace, and the operation log's triggers on `fact` and
    /// `topic` recreated so that their row images hold it.
    ///
    /// Rows stored before get an id derived from what identifies them in this file (a topic's
    /// path key, as new topics do; a fact's id, content key and creation time), so the backfill
    /// gives the same ids wherever it runs on the same rows. The column lists of the recreated
    /// triggers are written out here, frozen with this migration.
    static func addStableIDs(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE fact ADD COLUMN uid TEXT;
                ALTER TABLE topic ADD COLUMN uid TEXT;
                DROP TRIGGER fact_log_update;
                DROP TRIGGER fact_log_delete;
                DROP TRIGGER fact_log_replace;
                DROP TRIGGER fact_log_insert;
                DROP TRIGGER topic_log_update;
                DROP TRIGGER topic_log_delete;
                DROP TRIGGER topic_log_replace;
                DROP TRIGGER topic_log_insert;
                """)
        try StableIDBackfill.fill(db)
        try db.execute(
            sql: """
                CREATE UNIQUE INDEX fact_on_namespace_uid ON fact(namespace, uid);
                CREATE UNIQUE INDEX topic_on_namespace_uid ON topic(namespace, uid);
                """)
        try db.execute(
            sql: """
                CREATE TRIGGER fact_log_update BEFORE UPDATE ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
                    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', old.id, json_object('id', old.id, 'namespace', old.namespace, 'topic_id', old.topic_id, 'content', old.content, 'content_key', old.content_key, 'type', old.type, 'importance', old.importance, 'confidence', printf('%!.17g', old.confidence), 'is_active', old.is_active, 'sources', old.sources, 'mention_count', old.mention_count, 'created_at', old.created_at, 'updated_at', old.updated_at, 'expires_at', old.expires_at, 'goal_status', old.goal_status, 'goal_progress', printf('%!.17g', old.goal_progress), 'target_date', old.target_date, 'completed_at', old.completed_at, 'uid', old.uid));
                END;
                CREATE TRIGGER fact_log_delete BEFORE DELETE ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
                    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', old.id, json_object('id', old.id, 'namespace', old.namespace, 'topic_id', old.topic_id, 'content', old.content, 'content_key', old.content_key, 'type', old.type, 'importance', old.importance, 'confidence', printf('%!.17g', old.confidence), 'is_active', old.is_active, 'sources', old.sources, 'mention_count', old.mention_count, 'created_at', old.created_at, 'updated_at', old.updated_at, 'expires_at', old.expires_at, 'goal_status', old.goal_status, 'goal_progress', printf('%!.17g', old.goal_progress), 'target_date', old.target_date, 'completed_at', old.completed_at, 'uid', old.uid));
                END;
                CREATE TRIGGER fact_log_replace BEFORE INSERT ON fact
                WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM fact WHERE id = new.id) BEGIN
                    INSERT INTO operation_change (table_name, row_id, before)
                    SELECT 'fact', id, json_object('id', fact.id, 'namespace', fact.namespace, 'topic_id', fact.topic_id, 'content', fact.content, 'content_key', fact.content_key, 'type', fact.type, 'importance', fact.importance, 'confidence', printf('%!.17g', fact.confidence), 'is_active', fact.is_active, 'sources', fact.sources, 'mention_count', fact.mention_count, 'created_at', fact.created_at, 'updated_at', fact.updated_at, 'expires_at', fact.expires_at, 'goal_status', fact.goal_status, 'goal_progress', printf('%!.17g', fact.goal_progress), 'target_date', fact.target_date, 'completed_at', fact.completed_at, 'uid', fact.uid) FROM fact WHERE id = new.id;
                END;
                CREATE TRIGGER fact_log_insert AFTER INSERT ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
                    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', new.id, NULL);
                END;
                CREATE TRIGGER topic_log_update BEFORE UPDATE ON topic WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
                    INSERT INTO operation_change (table_name, row_id, before) VALUES ('topic', old.id, json_object('id', old.id, 'namespace', old.namespace, 'parent_id', old.parent_id, 'name', old.name, 'name_key', old.name_key, 'path', old.path, 'path_key', old.path_key, 'depth', old.depth, 'created_at', old.created_at, 'uid', old.uid));
                END;
                CREATE TRIGGER topic_log_delete BEFORE DELETE ON topic WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
                    INSERT INTO operation_change (table_name, row_id, before) VALUES ('topic', old.id, json_object('id', old.id, 'namespace', old.namespace, 'parent_id', old.parent_id, 'name', old.name, 'name_key', old.name_key, 'path', old.path, 'path_key', old.path_key, 'depth', old.depth, 'created_at', old.created_at, 'uid', old.uid));
                END;
                CREATE TRIGGER topic_log_replace BEFORE INSERT ON topic
                WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM topic WHERE id = new.id) BEGIN
                    INSERT INTO operation_change (table_name, row_id, before)
                    SELECT 'topic', id, json_object('id', topic.id, 'namespace', topic.namespace, 'parent_id', topic.parent_id, 'name', topic.name, 'name_key', topic.name_key, 'path', topic.path, 'path_key', topic.path_key, 'depth', topic.depth, 'created_at', topic.created_at, 'uid', topic.uid) FROM topic WHERE id = new.id;
                END;
                CREATE TRIGGER topic_log_insert AFTER INSERT ON topic WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
                    INSERT INTO operation_change (table_name, row_id, before) VALUES ('topic', new.id, NULL);
                END;
                """)
    }
}

/// Gives a uid to the facts and topics that have none: every row when the migration adds the
/// column, and the rows a node of a shared store loads from a store written before uids existed
/// (the same rows get the same ids on every node, since the ids derive from the rows).
package enum StableIDBackfill {
    package static func fill(_ db: Database) throws {
        let topics = try Row.fetchAll(db, sql: "SELECT id, namespace, path_key FROM topic WHERE uid IS NULL")
        let setTopic = try db.makeStatement(sql: "UPDATE topic SET uid = ? WHERE id = ?")
        for row in topics {
            let (id, namespace, pathKey): (Int64, String, String) = (row[0], row[1], row[2])
            try setTopic.execute(arguments: [StableID.topic(namespace: namespace, pathKey: pathKey), id])
        }
        let facts = try Row.fetchAll(
            db, sql: "SELECT id, namespace, content_key, created_at FROM fact WHERE uid IS NULL")
        let setFact = try db.makeStatement(sql: "UPDATE fact SET uid = ? WHERE id = ?")
        for row in facts {
            let (id, namespace, key, created): (Int64, String, String, String) = (row[0], row[1], row[2], row[3])
            let uid = StableID.derived(from: "fact\u{1F}\(namespace)\u{1F}\(id)\u{1F}\(key)\u{1F}\(created)")
            try setFact.execute(arguments: [uid, id])
        }
    }
}
