import GRDB

/// The database schema, as a list of frozen migrations.
///
/// A shipped migration never changes: later versions only append migrations, so a database
/// written by any version opens in every later one.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: topics, facts, history, full-text index", migrate: createV1)
        migrator.registerMigration("v2: fact conflicts", migrate: createConflicts)
        migrator.registerMigration("v3: operation log for undo", migrate: createOperationLog)
        migrator.registerMigration("v4: change log of the vector index", migrate: createChangeLog)
        migrator.registerMigration("v5: portable folded keys", migrate: recomputeFoldedKeys)
        migrator.registerMigration("v6: tombstones of erased facts", migrate: createTombstones)
        migrator.registerMigration("v7: fact expiry", migrate: addFactExpiry)
        migrator.registerMigration("goals: status, progress, target date", migrate: addGoalFields)
        migrator.registerMigration("v8: change feed", migrate: createChangeFeed)
        migrator.registerMigration("v9: stable ids of facts and topics", migrate: addStableIDs)
        migrator.registerMigration("v10: sync", migrate: SyncSchema.create)
        migrator.registerMigration("v11: sync of topic moves", migrate: SyncSchema.queueTopicMoves)
        migrator.registerMigration("v12: the listing's order", migrate: addListingOrderIndex)
        migrator.registerMigration(
            "v13: new facts enter the change log with their vectors", migrate: logNewFactsWithTheirVectors)
        migrator.registerMigration(
            "v14: content keys indexed by their hash", migrate: indexContentKeysByHash)
        migrator.registerMigration("v15: sync operation ids that never repeat", migrate: SyncSchema.uniqueOperationIDs)
        migrator.registerMigration("v16: keyed hashes of erased wordings", migrate: createErasedContent)
        return migrator
    }

    private static func createV1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );

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
                );
                CREATE UNIQUE INDEX topic_on_namespace_path_key ON topic(namespace, path_key);
                CREATE INDEX topic_on_parent ON topic(parent_id);

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
                );
                CREATE UNIQUE INDEX fact_on_namespace_content_key ON fact(namespace, content_key);
                CREATE INDEX fact_on_topic ON fact(topic_id);
                CREATE INDEX fact_on_namespace_active ON fact(namespace, is_active);

                CREATE TABLE fact_embedding (
                    fact_id INTEGER PRIMARY KEY REFERENCES fact(id) ON DELETE CASCADE,
                    vector BLOB NOT NULL
                );

                CREATE TABLE history (
                    id INTEGER PRIMARY KEY,
                    namespace TEXT NOT NULL,
                    fact_id INTEGER,
                    topic_id INTEGER,
                    event TEXT NOT NULL,
                    details TEXT NOT NULL DEFAULT '{}',
                    created_at DATETIME NOT NULL
                );
                CREATE INDEX history_on_fact ON history(fact_id);
                CREATE INDEX history_on_topic ON history(topic_id);

                -- The full-text index reads fact content and the topic path through this view.
                CREATE VIEW fact_document AS
                    SELECT fact.id AS id, fact.content AS content, topic.path AS topic
                    FROM fact JOIN topic ON topic.id = fact.topic_id;

                CREATE VIRTUAL TABLE fact_fts USING fts5(
                    content, topic,
                    content = 'fact_document', content_rowid = 'id',
                    tokenize = 'porter unicode61 remove_diacritics 2'
                );

                -- Triggers keep the index in step inside the writing transaction. An external-content
                -- index must be told the exact values it indexed when a row leaves it, so facts are
                -- always deleted before their topic.
                CREATE TRIGGER fact_fts_after_insert AFTER INSERT ON fact BEGIN
                    INSERT INTO fact_fts(rowid, content, topic)
                    VALUES (new.id, new.content, (SELECT path FROM topic WHERE id = new.topic_id));
                END;
                CREATE TRIGGER fact_fts_after_delete AFTER DELETE ON fact BEGIN
                    INSERT INTO fact_fts(fact_fts, rowid, content, topic)
                    VALUES ('delete', old.id, old.content, (SELECT path FROM topic WHERE id = old.topic_id));
                END;
                CREATE TRIGGER fact_fts_after_update AFTER UPDATE OF content, topic_id ON fact BEGIN
                    INSERT INTO fact_fts(fact_fts, rowid, content, topic)
                    VALUES ('delete', old.id, old.content, (SELECT path FROM topic WHERE id = old.topic_id));
                    INSERT INTO fact_fts(rowid, content, topic)
                    VALUES (new.id, new.content, (SELECT path FROM topic WHERE id = new.topic_id));
                END;
                CREATE TRIGGER topic_fts_after_path_update AFTER UPDATE OF path ON topic BEGIN
                    INSERT INTO fact_fts(fact_fts, rowid, content, topic)
                    SELECT 'delete', id, content, old.path FROM fact WHERE topic_id = old.id;
                    INSERT INTO fact_fts(rowid, content, topic)
                    SELECT id, content, new.path FROM fact WHERE topic_id = new.id;
                END;
                """)
    }
}
