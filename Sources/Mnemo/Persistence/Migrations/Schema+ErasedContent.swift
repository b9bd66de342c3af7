import GRDB

extension Schema {
    /// v16: the keyed hashes of erased wordings, per namespace (see `ErasedContent`).
    static func createErasedContent(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE namespace_secret (
                    id INTEGER PRIMARY KEY,
                    namespace TEXT NOT NULL,
                    secret BLOB NOT NULL
                );
                CREATE UNIQUE INDEX namespace_secret_on_namespace ON namespace_secret(namespace);
                CREATE TABLE erased_content (
                    id INTEGER PRIMARY KEY,
                    namespace TEXT NOT NULL,
                    key_hash BLOB NOT NULL
                );
                CREATE UNIQUE INDEX erased_content_on_namespace_hash ON erased_content(namespace, key_hash);
                """)
    }
}
