import GRDB

extension Schema {
    /// v8: the change feed's tables (see `FeedTable`): `feed_event`, each namespace's ordered
    /// events, and `feed_horizon`, how far each namespace's feed was pruned.
    static func createChangeFeed(_ db: Database) throws {
        try db.execute(
            sql: """
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
                CREATE INDEX feed_event_on_namespace ON feed_event(namespace, seq);
                CREATE TABLE feed_horizon (
                    id INTEGER PRIMARY KEY,
                    namespace TEXT NOT NULL UNIQUE,
                    pruned_through INTEGER NOT NULL
                );
                """)
    }
}
