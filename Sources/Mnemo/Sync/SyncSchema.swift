import GRDB

/// The tables of sync (see <doc:Sync>), made by the migration "v10: sync".
///
/// On a device, a namespace linked to a server has a `sync_link` row: the device's id, the
/// server it syncs with, the server cursor it pulled through, when it last synced. Each of its
/// own writes adds, by a trigger in the writing transaction, one `sync_outbox` row per change
/// feed event about a fact (kind, the fact's ``Fact/uid``, the history row that says which
/// fields an update changed): the operations waiting to be pushed, which a killed app keeps.
/// The changes a pull applies are not the device's own: the pull's transaction names its feed
/// transaction in `sync_link.pulled_tx`, and the trigger passes its events by.
///
/// `fact_departed` keeps the uid of every fact whose row went (deleted, merged away, erased):
/// an event about such a fact still names it by uid. It holds ids only, never content.
///
/// On a server, `sync_receipt` remembers each device operation's answer (so a replayed push
/// changes nothing and gets the same answer) and `sync_alias` the fact a device's fact was merged
/// into (so a later operation of that device on its own uid reaches the survivor);
/// `sync_origin` names the server's copy of a namespace, so that a device's cursor of another
/// server (or of a namespace erased and started again) is refused.
enum SyncSchema {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE fact_departed (
                    fact_id INTEGER PRIMARY KEY,
                    namespace TEXT NOT NULL,
                    uid TEXT NOT NULL
                );
                CREATE INDEX fact_departed_on_uid ON fact_departed(namespace, uid);
                CREATE TRIGGER fact_departed_after_delete AFTER DELETE ON fact WHEN old.uid IS NOT NULL BEGIN
                    INSERT OR REPLACE INTO fact_departed (fact_id, namespace, uid) VALUES (old.id, old.namespace, old.uid);
                END;

                CREATE TABLE sync_link (
                    namespace TEXT PRIMARY KEY NOT NULL,
                    device TEXT NOT NULL,
                    server TEXT NOT NULL,
                    cursor TEXT,
                    pulled_tx INTEGER,
                    last_sync DATETIME
                );
                CREATE TABLE sync_outbox (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    namespace TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    fact_uid TEXT,
                    history_id INTEGER,
                    created_at DATETIME NOT NULL
                );
                CREATE INDEX sync_outbox_on_namespace ON sync_outbox(namespace, seq);
                CREATE TRIGGER sync_outbox_after_feed_event AFTER INSERT ON feed_event
                WHEN new.fact_id IS NOT NULL
                    AND EXISTS (SELECT 1 FROM sync_link WHERE namespace = new.namespace AND pulled_tx IS NOT new.tx)
                BEGIN
                    INSERT INTO sync_outbox (namespace, kind, fact_uid, history_id, created_at)
                    VALUES (new.namespace, new.kind,
                            COALESCE((SELECT uid FROM fact WHERE id = new.fact_id),
                                     (SELECT uid FROM fact_departed WHERE fact_id = new.fact_id)),
                            new.history_id, new.created_at);
                END;

                CREATE TABLE sync_receipt (
                    id INTEGER PRIMARY KEY,
                    namespace TEXT NOT NULL,
                    device TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    answer TEXT NOT NULL,
                    created_at DATETIME NOT NULL
                );
                CREATE UNIQUE INDEX sync_receipt_on_operation ON sync_receipt(namespace, device, operation);
                CREATE TABLE sync_alias (
                    id INTEGER PRIMARY KEY,
                    namespace TEXT NOT NULL,
                    uid TEXT NOT NULL,
                    into_uid TEXT NOT NULL
                );
                CREATE UNIQUE INDEX sync_alias_on_uid ON sync_alias(namespace, uid);
                CREATE TABLE sync_origin (
                    id INTEGER PRIMARY KEY,
                    namespace TEXT NOT NULL UNIQUE,
                    identity TEXT NOT NULL
                );
                """)
    }

    /// Puts a topic's renames, moves and merges in the outbox too (their history row says from
    /// where to where, see ``SyncTopicMove``): they change no fact's row, but every fact of the
    /// topic's subtree changes its path. So does an undo that puts a topic back (the row names
    /// the topic by uid): its facts are pushed where they are now.
    static func queueTopicMoves(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP TRIGGER sync_outbox_after_feed_event;
                CREATE TRIGGER sync_outbox_after_feed_event AFTER INSERT ON feed_event
                WHEN (new.fact_id IS NOT NULL
                      OR new.kind IN ('topic_renamed', 'topic_moved', 'topic_merged', 'topic_restored'))
                    AND EXISTS (SELECT 1 FROM sync_link WHERE namespace = new.namespace AND pulled_tx IS NOT new.tx)
                BEGIN
                    INSERT INTO sync_outbox (namespace, kind, fact_uid, history_id, created_at)
                    VALUES (new.namespace, new.kind,
                            COALESCE((SELECT uid FROM fact WHERE id = new.fact_id),
                                     (SELECT uid FROM fact_departed WHERE fact_id = new.fact_id),
                                     (SELECT uid FROM topic WHERE id = new.topic_id)),
                            new.history_id, new.created_at);
                END;
                """)
    }

    /// Gives every outbox row an operation id of its own, random (`sync_outbox.op`), instead of
    /// the row's number: a file restored from a backup numbers its new rows again from where
    /// the backup stood, and the server would answer them from the receipts of the operations
    /// that first had those numbers. `sync_link.acknowledged` holds how many of this device's
    /// operations the server said it holds: a push names it, and a server holding more than the
    /// device can account for knows the file went back (``SyncPushResponse/rewound``).
    static func uniqueOperationIDs(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE sync_outbox ADD COLUMN op TEXT;
                ALTER TABLE sync_link ADD COLUMN acknowledged INTEGER;
                DROP TRIGGER sync_outbox_after_feed_event;
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
                """)
    }
}
