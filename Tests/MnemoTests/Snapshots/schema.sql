-- The schema of a fresh Mnemo file (SchemaSnapshotTests).

-- migration: v1: topics, facts, history, full-text index
-- migration: v2: fact conflicts
-- migration: v3: operation log for undo
-- migration: v4: change log of the vector index
-- migration: v5: portable folded keys
-- migration: v6: tombstones of erased facts
-- migration: v7: fact expiry
-- migration: goals: status, progress, target date
-- migration: v8: change feed
-- migration: v9: stable ids of facts and topics
-- migration: v10: sync
-- migration: v11: sync of topic moves
-- migration: v12: the listing's order
-- migration: v13: new facts enter the change log with their vectors
-- migration: v14: content keys indexed by their hash
-- migration: v15: sync operation ids that never repeat
-- migration: v16: keyed hashes of erased wordings

-- index erased_content_on_namespace_hash
CREATE UNIQUE INDEX erased_content_on_namespace_hash ON erased_content(namespace, key_hash);

-- index fact_conflict_on_namespace
CREATE INDEX fact_conflict_on_namespace ON fact_conflict(namespace, created_at);

-- index fact_conflict_on_newer
CREATE INDEX fact_conflict_on_newer ON fact_conflict(newer_fact_id);

-- index fact_departed_on_uid
CREATE INDEX fact_departed_on_uid ON fact_departed(namespace, uid);

-- index fact_on_namespace_active_listing
CREATE INDEX fact_on_namespace_active_listing
    ON fact(namespace, is_active, importance DESC, created_at DESC, id);

-- index fact_on_namespace_content_hash
CREATE INDEX fact_on_namespace_content_hash ON fact(namespace, mnemo_content_hash(content_key));

-- index fact_on_namespace_expiry
CREATE INDEX fact_on_namespace_expiry ON fact(namespace, expires_at) WHERE expires_at IS NOT NULL;

-- index fact_on_namespace_goal_status
CREATE INDEX fact_on_namespace_goal_status ON fact(namespace, goal_status) WHERE type = 'goal';

-- index fact_on_namespace_uid
CREATE UNIQUE INDEX fact_on_namespace_uid ON fact(namespace, uid);

-- index fact_on_topic
CREATE INDEX fact_on_topic ON fact(topic_id);

-- index fact_tombstone_on_namespace
CREATE INDEX fact_tombstone_on_namespace ON fact_tombstone(namespace);

-- index feed_event_on_namespace
CREATE INDEX feed_event_on_namespace ON feed_event(namespace, seq);

-- index history_on_fact
CREATE INDEX history_on_fact ON history(fact_id);

-- index history_on_topic
CREATE INDEX history_on_topic ON history(topic_id);

-- index namespace_secret_on_namespace
CREATE UNIQUE INDEX namespace_secret_on_namespace ON namespace_secret(namespace);

-- index operation_on_namespace
CREATE INDEX operation_on_namespace ON operation(namespace, id);

-- index operation_on_reverts
CREATE UNIQUE INDEX operation_on_reverts ON operation(reverts);

-- index sync_alias_on_uid
CREATE UNIQUE INDEX sync_alias_on_uid ON sync_alias(namespace, uid);

-- index sync_outbox_on_namespace
CREATE INDEX sync_outbox_on_namespace ON sync_outbox(namespace, seq);

-- index sync_receipt_on_operation
CREATE UNIQUE INDEX sync_receipt_on_operation ON sync_receipt(namespace, device, operation);

-- index topic_on_namespace_path_key
CREATE UNIQUE INDEX topic_on_namespace_path_key ON topic(namespace, path_key);

-- index topic_on_namespace_uid
CREATE UNIQUE INDEX topic_on_namespace_uid ON topic(namespace, uid);

-- index topic_on_parent
CREATE INDEX topic_on_parent ON topic(parent_id);

-- table erased_content
CREATE TABLE erased_content (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    key_hash BLOB NOT NULL
);

-- table fact
CREATE TABLE fact (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    topic_id INTEGER NOT NULL REFERENCES topic(id) ON DELETE RESTRICT,
    content TEXT NOT NULL,
    content_key TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('fact', 'preference', 'goal', 'experience')),
    importance INTEGER NOT NULL CHECK (importance BETWEEN 0 AND 3),
    confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    is_active BOOLEAN NOT NULL DEFAULT 1,
    sources TEXT NOT NULL DEFAULT '[]',
    mention_count INTEGER NOT NULL DEFAULT 1,
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL
, expires_at DATETIME, goal_status TEXT, goal_progress REAL, target_date DATETIME, completed_at DATETIME, uid TEXT);

-- table fact_change
CREATE TABLE fact_change (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    fact_id INTEGER NOT NULL UNIQUE
);

-- table fact_conflict
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

-- table fact_departed
CREATE TABLE fact_departed (
    fact_id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    uid TEXT NOT NULL
);

-- table fact_embedding
CREATE TABLE fact_embedding (
    fact_id INTEGER PRIMARY KEY REFERENCES fact(id) ON DELETE CASCADE,
    vector BLOB NOT NULL
);

-- table fact_fts
CREATE VIRTUAL TABLE fact_fts USING fts5(
    content, topic,
    content = 'fact_document', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- table fact_fts_config
CREATE TABLE 'fact_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;

-- table fact_fts_data
CREATE TABLE 'fact_fts_data'(id INTEGER PRIMARY KEY, block BLOB);

-- table fact_fts_docsize
CREATE TABLE 'fact_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);

-- table fact_fts_idx
CREATE TABLE 'fact_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;

-- table fact_tombstone
CREATE TABLE fact_tombstone (
    fact_id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    reason TEXT NOT NULL,
    erased_at DATETIME NOT NULL
);

-- table feed_event
CREATE TABLE feed_event (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace TEXT NOT NULL,
    tx INTEGER NOT NULL,
    kind TEXT NOT NULL,
    fact_id INTEGER,
    topic_id INTEGER,
    related_id INTEGER,
    history_id INTEGER,
    created_at DATETIME NOT NULL
);

-- table feed_horizon
CREATE TABLE feed_horizon (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL UNIQUE,
    pruned_through INTEGER NOT NULL
);

-- table grdb_migrations
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);

-- table history
CREATE TABLE history (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    fact_id INTEGER,
    topic_id INTEGER,
    event TEXT NOT NULL,
    details TEXT NOT NULL DEFAULT '{}',
    created_at DATETIME NOT NULL
);

-- table meta
CREATE TABLE meta (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

-- table namespace_secret
CREATE TABLE namespace_secret (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    secret BLOB NOT NULL
);

-- table operation
CREATE TABLE operation (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    kind TEXT NOT NULL,
    summary TEXT NOT NULL,
    reverts INTEGER REFERENCES operation(id),
    changes TEXT NOT NULL,
    created_at DATETIME NOT NULL
);

-- table operation_change
CREATE TABLE operation_change (
    id INTEGER PRIMARY KEY,
    table_name TEXT NOT NULL,
    row_id INTEGER NOT NULL,
    before TEXT
);

-- table sync_alias
CREATE TABLE sync_alias (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    uid TEXT NOT NULL,
    into_uid TEXT NOT NULL
);

-- table sync_link
CREATE TABLE sync_link (
    namespace TEXT PRIMARY KEY NOT NULL,
    device TEXT NOT NULL,
    server TEXT NOT NULL,
    cursor TEXT,
    pulled_tx INTEGER,
    last_sync DATETIME
, acknowledged INTEGER);

-- table sync_origin
CREATE TABLE sync_origin (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL UNIQUE,
    identity TEXT NOT NULL
);

-- table sync_outbox
CREATE TABLE sync_outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace TEXT NOT NULL,
    kind TEXT NOT NULL,
    fact_uid TEXT,
    history_id INTEGER,
    created_at DATETIME NOT NULL
, op TEXT);

-- table sync_receipt
CREATE TABLE sync_receipt (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    device TEXT NOT NULL,
    operation TEXT NOT NULL,
    answer TEXT NOT NULL,
    created_at DATETIME NOT NULL
);

-- table topic
CREATE TABLE topic (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    parent_id INTEGER REFERENCES topic(id) ON DELETE RESTRICT,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    path TEXT NOT NULL,
    path_key TEXT NOT NULL,
    depth INTEGER NOT NULL,
    created_at DATETIME NOT NULL
, uid TEXT);

-- trigger fact_change_after_delete
CREATE TRIGGER fact_change_after_delete AFTER DELETE ON fact BEGIN DELETE FROM fact_change WHERE fact_id = old.id; INSERT INTO fact_change (fact_id) VALUES (old.id); END;

-- trigger fact_change_after_insert
CREATE TRIGGER fact_change_after_insert AFTER INSERT ON fact
WHEN EXISTS (SELECT 1 FROM fact_embedding WHERE fact_id = new.id)
BEGIN DELETE FROM fact_change WHERE fact_id = new.id; INSERT INTO fact_change (fact_id) VALUES (new.id); END;

-- trigger fact_change_after_update
CREATE TRIGGER fact_change_after_update
    AFTER UPDATE OF id, namespace, topic_id, type, importance, is_active ON fact
BEGIN DELETE FROM fact_change WHERE fact_id = old.id; INSERT INTO fact_change (fact_id) VALUES (old.id); DELETE FROM fact_change WHERE fact_id = new.id; INSERT INTO fact_change (fact_id) VALUES (new.id); END;

-- trigger fact_conflict_after_deactivate
CREATE TRIGGER fact_conflict_after_deactivate AFTER UPDATE OF is_active ON fact
WHEN new.is_active = 0 AND old.is_active = 1 BEGIN
    DELETE FROM fact_conflict WHERE older_fact_id = new.id OR newer_fact_id = new.id;
END;

-- trigger fact_conflict_log_delete
CREATE TRIGGER fact_conflict_log_delete BEFORE DELETE ON fact_conflict WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_conflict', old.id, json_object('id', old.id, 'namespace', old.namespace, 'older_fact_id', old.older_fact_id, 'newer_fact_id', old.newer_fact_id, 'reason', old.reason, 'similarity', printf('%!.17g', old.similarity), 'created_at', old.created_at));
END;

-- trigger fact_conflict_log_insert
CREATE TRIGGER fact_conflict_log_insert AFTER INSERT ON fact_conflict WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_conflict', new.id, NULL);
END;

-- trigger fact_conflict_log_replace
CREATE TRIGGER fact_conflict_log_replace BEFORE INSERT ON fact_conflict
WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM fact_conflict WHERE id = new.id) BEGIN
    INSERT INTO operation_change (table_name, row_id, before)
    SELECT 'fact_conflict', id, json_object('id', fact_conflict.id, 'namespace', fact_conflict.namespace, 'older_fact_id', fact_conflict.older_fact_id, 'newer_fact_id', fact_conflict.newer_fact_id, 'reason', fact_conflict.reason, 'similarity', printf('%!.17g', fact_conflict.similarity), 'created_at', fact_conflict.created_at) FROM fact_conflict WHERE id = new.id;
END;

-- trigger fact_conflict_log_update
CREATE TRIGGER fact_conflict_log_update BEFORE UPDATE ON fact_conflict WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_conflict', old.id, json_object('id', old.id, 'namespace', old.namespace, 'older_fact_id', old.older_fact_id, 'newer_fact_id', old.newer_fact_id, 'reason', old.reason, 'similarity', printf('%!.17g', old.similarity), 'created_at', old.created_at));
END;

-- trigger fact_departed_after_delete
CREATE TRIGGER fact_departed_after_delete AFTER DELETE ON fact WHEN old.uid IS NOT NULL BEGIN
    INSERT OR REPLACE INTO fact_departed (fact_id, namespace, uid) VALUES (old.id, old.namespace, old.uid);
END;

-- trigger fact_embedding_change_after_delete
CREATE TRIGGER fact_embedding_change_after_delete AFTER DELETE ON fact_embedding BEGIN DELETE FROM fact_change WHERE fact_id = old.fact_id; INSERT INTO fact_change (fact_id) VALUES (old.fact_id); END;

-- trigger fact_embedding_change_after_insert
CREATE TRIGGER fact_embedding_change_after_insert AFTER INSERT ON fact_embedding BEGIN DELETE FROM fact_change WHERE fact_id = new.fact_id; INSERT INTO fact_change (fact_id) VALUES (new.fact_id); END;

-- trigger fact_embedding_change_after_update
CREATE TRIGGER fact_embedding_change_after_update AFTER UPDATE ON fact_embedding
BEGIN DELETE FROM fact_change WHERE fact_id = old.fact_id; INSERT INTO fact_change (fact_id) VALUES (old.fact_id); DELETE FROM fact_change WHERE fact_id = new.fact_id; INSERT INTO fact_change (fact_id) VALUES (new.fact_id); END;

-- trigger fact_embedding_log_delete
CREATE TRIGGER fact_embedding_log_delete BEFORE DELETE ON fact_embedding WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_embedding', old.fact_id, json_object('fact_id', old.fact_id, 'vector', hex(old.vector)));
END;

-- trigger fact_embedding_log_insert
CREATE TRIGGER fact_embedding_log_insert AFTER INSERT ON fact_embedding WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_embedding', new.fact_id, NULL);
END;

-- trigger fact_embedding_log_replace
CREATE TRIGGER fact_embedding_log_replace BEFORE INSERT ON fact_embedding
WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM fact_embedding WHERE fact_id = new.fact_id) BEGIN
    INSERT INTO operation_change (table_name, row_id, before)
    SELECT 'fact_embedding', fact_id, json_object('fact_id', fact_embedding.fact_id, 'vector', hex(fact_embedding.vector)) FROM fact_embedding WHERE fact_id = new.fact_id;
END;

-- trigger fact_embedding_log_update
CREATE TRIGGER fact_embedding_log_update BEFORE UPDATE ON fact_embedding WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact_embedding', old.fact_id, json_object('fact_id', old.fact_id, 'vector', hex(old.vector)));
END;

-- trigger fact_fts_after_delete
CREATE TRIGGER fact_fts_after_delete AFTER DELETE ON fact BEGIN
    INSERT INTO fact_fts(fact_fts, rowid, content, topic)
    VALUES ('delete', old.id, old.content, (SELECT path FROM topic WHERE id = old.topic_id));
END;

-- trigger fact_fts_after_insert
CREATE TRIGGER fact_fts_after_insert AFTER INSERT ON fact BEGIN
    INSERT INTO fact_fts(rowid, content, topic)
    VALUES (new.id, new.content, (SELECT path FROM topic WHERE id = new.topic_id));
END;

-- trigger fact_fts_after_update
CREATE TRIGGER fact_fts_after_update AFTER UPDATE OF content, topic_id ON fact BEGIN
    INSERT INTO fact_fts(fact_fts, rowid, content, topic)
    VALUES ('delete', old.id, old.content, (SELECT path FROM topic WHERE id = old.topic_id));
    INSERT INTO fact_fts(rowid, content, topic)
    VALUES (new.id, new.content, (SELECT path FROM topic WHERE id = new.topic_id));
END;

-- trigger fact_log_delete
CREATE TRIGGER fact_log_delete BEFORE DELETE ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', old.id, json_object('id', old.id, 'namespace', old.namespace, 'topic_id', old.topic_id, 'content', old.content, 'content_key', old.content_key, 'type', old.type, 'importance', old.importance, 'confidence', printf('%!.17g', old.confidence), 'is_active', old.is_active, 'sources', old.sources, 'mention_count', old.mention_count, 'created_at', old.created_at, 'updated_at', old.updated_at, 'expires_at', old.expires_at, 'goal_status', old.goal_status, 'goal_progress', printf('%!.17g', old.goal_progress), 'target_date', old.target_date, 'completed_at', old.completed_at, 'uid', old.uid));
END;

-- trigger fact_log_insert
CREATE TRIGGER fact_log_insert AFTER INSERT ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', new.id, NULL);
END;

-- trigger fact_log_replace
CREATE TRIGGER fact_log_replace BEFORE INSERT ON fact
WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM fact WHERE id = new.id) BEGIN
    INSERT INTO operation_change (table_name, row_id, before)
    SELECT 'fact', id, json_object('id', fact.id, 'namespace', fact.namespace, 'topic_id', fact.topic_id, 'content', fact.content, 'content_key', fact.content_key, 'type', fact.type, 'importance', fact.importance, 'confidence', printf('%!.17g', fact.confidence), 'is_active', fact.is_active, 'sources', fact.sources, 'mention_count', fact.mention_count, 'created_at', fact.created_at, 'updated_at', fact.updated_at, 'expires_at', fact.expires_at, 'goal_status', fact.goal_status, 'goal_progress', printf('%!.17g', fact.goal_progress), 'target_date', fact.target_date, 'completed_at', fact.completed_at, 'uid', fact.uid) FROM fact WHERE id = new.id;
END;

-- trigger fact_log_update
CREATE TRIGGER fact_log_update BEFORE UPDATE ON fact WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('fact', old.id, json_object('id', old.id, 'namespace', old.namespace, 'topic_id', old.topic_id, 'content', old.content, 'content_key', old.content_key, 'type', old.type, 'importance', old.importance, 'confidence', printf('%!.17g', old.confidence), 'is_active', old.is_active, 'sources', old.sources, 'mention_count', old.mention_count, 'created_at', old.created_at, 'updated_at', old.updated_at, 'expires_at', old.expires_at, 'goal_status', old.goal_status, 'goal_progress', printf('%!.17g', old.goal_progress), 'target_date', old.target_date, 'completed_at', old.completed_at, 'uid', old.uid));
END;

-- trigger history_log_delete
CREATE TRIGGER history_log_delete BEFORE DELETE ON history WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('history', old.id, json_object('id', old.id, 'namespace', old.namespace, 'fact_id', old.fact_id, 'topic_id', old.topic_id, 'event', old.event, 'details', old.details, 'created_at', old.created_at));
END;

-- trigger history_log_insert
CREATE TRIGGER history_log_insert AFTER INSERT ON history WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('history', new.id, NULL);
END;

-- trigger history_log_replace
CREATE TRIGGER history_log_replace BEFORE INSERT ON history
WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM history WHERE id = new.id) BEGIN
    INSERT INTO operation_change (table_name, row_id, before)
    SELECT 'history', id, json_object('id', history.id, 'namespace', history.namespace, 'fact_id', history.fact_id, 'topic_id', history.topic_id, 'event', history.event, 'details', history.details, 'created_at', history.created_at) FROM history WHERE id = new.id;
END;

-- trigger history_log_update
CREATE TRIGGER history_log_update BEFORE UPDATE ON history WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('history', old.id, json_object('id', old.id, 'namespace', old.namespace, 'fact_id', old.fact_id, 'topic_id', old.topic_id, 'event', old.event, 'details', old.details, 'created_at', old.created_at));
END;

-- trigger sync_outbox_after_feed_event
CREATE TRIGGER sync_outbox_after_feed_event AFTER INSERT ON feed_event
WHEN (new.fact_id IS NOT NULL
      OR new.kind IN ('topic_renamed', 'topic_moved', 'topic_merged', 'topic_restored'))
    AND EXISTS (SELECT 1 FROM sync_link WHERE namespace = new.namespace AND pulled_tx IS NOT new.tx)
BEGIN
    INSERT INTO sync_outbox (namespace, kind, fact_uid, history_id, created_at, op)
    VALUES (new.namespace, new.kind,
            COALESCE((SELECT uid FROM fact WHERE id = new.fact_id),
                     (SELECT uid FROM fact_departed WHERE fact_id = new.fact_id),
                     (SELECT uid FROM topic WHERE id = new.topic_id)),
            new.history_id, new.created_at, lower(hex(randomblob(16))));
END;

-- trigger topic_fts_after_path_update
CREATE TRIGGER topic_fts_after_path_update AFTER UPDATE OF path ON topic BEGIN
    INSERT INTO fact_fts(fact_fts, rowid, content, topic)
    SELECT 'delete', id, content, old.path FROM fact WHERE topic_id = old.id;
    INSERT INTO fact_fts(rowid, content, topic)
    SELECT id, content, new.path FROM fact WHERE topic_id = new.id;
END;

-- trigger topic_log_delete
CREATE TRIGGER topic_log_delete BEFORE DELETE ON topic WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('topic', old.id, json_object('id', old.id, 'namespace', old.namespace, 'parent_id', old.parent_id, 'name', old.name, 'name_key', old.name_key, 'path', old.path, 'path_key', old.path_key, 'depth', old.depth, 'created_at', old.created_at, 'uid', old.uid));
END;

-- trigger topic_log_insert
CREATE TRIGGER topic_log_insert AFTER INSERT ON topic WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('topic', new.id, NULL);
END;

-- trigger topic_log_replace
CREATE TRIGGER topic_log_replace BEFORE INSERT ON topic
WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') AND EXISTS (SELECT 1 FROM topic WHERE id = new.id) BEGIN
    INSERT INTO operation_change (table_name, row_id, before)
    SELECT 'topic', id, json_object('id', topic.id, 'namespace', topic.namespace, 'parent_id', topic.parent_id, 'name', topic.name, 'name_key', topic.name_key, 'path', topic.path, 'path_key', topic.path_key, 'depth', topic.depth, 'created_at', topic.created_at, 'uid', topic.uid) FROM topic WHERE id = new.id;
END;

-- trigger topic_log_update
CREATE TRIGGER topic_log_update BEFORE UPDATE ON topic WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'operation.recording') BEGIN
    INSERT INTO operation_change (table_name, row_id, before) VALUES ('topic', old.id, json_object('id', old.id, 'namespace', old.namespace, 'parent_id', old.parent_id, 'name', old.name, 'name_key', old.name_key, 'path', old.path, 'path_key', old.path_key, 'depth', old.depth, 'created_at', old.created_at, 'uid', old.uid));
END;

-- view fact_document
CREATE VIEW fact_document AS
    SELECT fact.id AS id, fact.content AS content, topic.path AS topic
    FROM fact JOIN topic ON topic.id = fact.topic_id;
