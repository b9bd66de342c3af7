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
        // The triggers that record each tracked table's row images while an operation records
        // (the `meta` row `operation.recording`), with the column lists of this migration's time:
        // `fact` gained `expires_at` later (v7 recreates its triggers), both gained `uid` in v9.
        try db.execute(
            sql: topicLogTriggersBeforeStableIDs + factLogTriggersBeforeExpiry + factEmbeddingLogTriggers
                + historyLogTriggers + factConflictLogTriggers)
    }

    /// The triggers on `topic` as v3 made them, before `uid` (v9 recreates them).
    static let topicLogTriggersBeforeStableIDs = """
        CREATE TRIGGER topic_log_update BEFORE UPDATE ON topic WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('topic', old.id, json_object('id', old.id, 'namespace', old.namespace, 'parent_id', old.parent_id, 'name', old.name, 'name_key', old.name_key, 'path', old.path, 'path_key', old.path_key, 'depth', old.depth, 'created_at', old.created_at));
        END;
        CREATE TRIGGER topic_log_delete BEFORE DELETE ON topic WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('topic', old.id, json_object('id', old.id, 'namespace', old.namespace, 'parent_id', old.parent_id, 'name', old.name, 'name_key', old.name_key, 'path', old.path, 'path_key', old.path_key, 'depth', old.depth, 'created_at', old.created_at));
        END;
        CREATE TRIGGER topic_log_replace BEFORE INSERT ON topic
        WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM topic WHERE id = new.id) BEGIN
            INSERT INTO operation_change (table_name, row_id, before)
            SELECT 'topic', id, json_object('id', topic.id, 'namespace', topic.namespace, 'parent_id', topic.parent_id, 'name', topic.name, 'name_key', topic.name_key, 'path', topic.path, 'path_key', topic.path_key, 'depth', topic.depth, 'created_at', topic.created_at) FROM topic WHERE id = new.id;
        END;
        CREATE TRIGGER topic_log_insert AFTER INSERT ON topic WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('topic', new.id, NULL);
        END;
        """

    /// The triggers on `fact` as v3 made them, before `expires_at` (v7 recreates them).
    static let factLogTriggersBeforeExpiry = """
        CREATE TRIGGER fact_log_update BEFORE UPDATE ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', old.id, json_object('id', old.id, 'namespace', old.namespace, 'topic_id', old.topic_id, 'content', old.content, 'content_key', old.content_key, 'type', old.type, 'importance', old.importance, 'confidence', printf('%!.17g', old.confidence), 'is_active', old.is_active, 'sources', old.sources, 'mention_count', old.mention_count, 'created_at', old.created_at, 'updated_at', old.updated_at));
        END;
        CREATE TRIGGER fact_log_delete BEFORE DELETE ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', old.id, json_object('id', old.id, 'namespace', old.namespace, 'topic_id', old.topic_id, 'content', old.content, 'content_key', old.content_key, 'type', old.type, 'importance', old.importance, 'confidence', printf('%!.17g', old.confidence), 'is_active', old.is_active, 'sources', old.sources, 'mention_count', old.mention_count, 'created_at', old.created_at, 'updated_at', old.updated_at));
        END;
        CREATE TRIGGER fact_log_replace BEFORE INSERT ON fact
        WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM fact WHERE id = new.id) BEGIN
            INSERT INTO operation_change (table_name, row_id, before)
            SELECT 'fact', id, json_object('id', fact.id, 'namespace', fact.namespace, 'topic_id', fact.topic_id, 'content', fact.content, 'content_key', fact.content_key, 'type', fact.type, 'importance', fact.importance, 'confidence', printf('%!.17g', fact.confidence), 'is_active', fact.is_active, 'sources', fact.sources, 'mention_count', fact.mention_count, 'created_at', fact.created_at, 'updated_at', fact.updated_at) FROM fact WHERE id = new.id;
        END;
        CREATE TRIGGER fact_log_insert AFTER INSERT ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', new.id, NULL);
        END;
        """

    /// The triggers on `fact_embedding`.
    static let factEmbeddingLogTriggers = """
        CREATE TRIGGER fact_embedding_log_update BEFORE UPDATE ON fact_embedding WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_embedding', old.fact_id, json_object('fact_id', old.fact_id, 'vector', hex(old.vector)));
        END;
        CREATE TRIGGER fact_embedding_log_delete BEFORE DELETE ON fact_embedding WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_embedding', old.fact_id, json_object('fact_id', old.fact_id, 'vector', hex(old.vector)));
        END;
        CREATE TRIGGER fact_embedding_log_replace BEFORE INSERT ON fact_embedding
        WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM fact_embedding WHERE fact_id = new.fact_id) BEGIN
            INSERT INTO operation_change (table_name, row_id, before)
            SELECT 'fact_embedding', fact_id, json_object('fact_id', fact_embedding.fact_id, 'vector', hex(fact_embedding.vector)) FROM fact_embedding WHERE fact_id = new.fact_id;
        END;
        CREATE TRIGGER fact_embedding_log_insert AFTER INSERT ON fact_embedding WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_embedding', new.fact_id, NULL);
        END;
        """

    /// The triggers on `history`.
    static let historyLogTriggers = """
        CREATE TRIGGER history_log_update BEFORE UPDATE ON history WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('history', old.id, json_object('id', old.id, 'namespace', old.namespace, 'fact_id', old.fact_id, 'topic_id', old.topic_id, 'event', old.event, 'details', old.details, 'created_at', old.created_at));
        END;
        CREATE TRIGGER history_log_delete BEFORE DELETE ON history WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('history', old.id, json_object('id', old.id, 'namespace', old.namespace, 'fact_id', old.fact_id, 'topic_id', old.topic_id, 'event', old.event, 'details', old.details, 'created_at', old.created_at));
        END;
        CREATE TRIGGER history_log_replace BEFORE INSERT ON history
        WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM history WHERE id = new.id) BEGIN
            INSERT INTO operation_change (table_name, row_id, before)
            SELECT 'history', id, json_object('id', history.id, 'namespace', history.namespace, 'fact_id', history.fact_id, 'topic_id', history.topic_id, 'event', history.event, 'details', history.details, 'created_at', history.created_at) FROM history WHERE id = new.id;
        END;
        CREATE TRIGGER history_log_insert AFTER INSERT ON history WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('history', new.id, NULL);
        END;
        """

    /// The triggers on `fact_conflict`.
    static let factConflictLogTriggers = """
        CREATE TRIGGER fact_conflict_log_update BEFORE UPDATE ON fact_conflict WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_conflict', old.id, json_object('id', old.id, 'namespace', old.namespace, 'older_fact_id', old.older_fact_id, 'newer_fact_id', old.newer_fact_id, 'reason', old.reason, 'similarity', printf('%!.17g', old.similarity), 'created_at', old.created_at));
        END;
        CREATE TRIGGER fact_conflict_log_delete BEFORE DELETE ON fact_conflict WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_conflict', old.id, json_object('id', old.id, 'namespace', old.namespace, 'older_fact_id', old.older_fact_id, 'newer_fact_id', old.newer_fact_id, 'reason', old.reason, 'similarity', printf('%!.17g', old.similarity), 'created_at', old.created_at));
        END;
        CREATE TRIGGER fact_conflict_log_replace BEFORE INSERT ON fact_conflict
        WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM fact_conflict WHERE id = new.id) BEGIN
            INSERT INTO operation_change (table_name, row_id, before)
            SELECT 'fact_conflict', id, json_object('id', fact_conflict.id, 'namespace', fact_conflict.namespace, 'older_fact_id', fact_conflict.older_fact_id, 'newer_fact_id', fact_conflict.newer_fact_id, 'reason', fact_conflict.reason, 'similarity', printf('%!.17g', fact_conflict.similarity), 'created_at', fact_conflict.created_at) FROM fact_conflict WHERE id = new.id;
        END;
        CREATE TRIGGER fact_conflict_log_insert AFTER INSERT ON fact_conflict WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
            INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_conflict', new.id, NULL);
        END;
        """
}
