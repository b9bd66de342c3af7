import GRDB

extension Schema {
    /// v14: an index of a 64-bit hash of the content key takes the place of the unique index of
    /// the keys (see `ContentKeyIndex`). The expression names the SQL function that every
    /// connection registers; its name and its hash are part of the schema and never change.
    static func indexContentKeysByHash(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX fact_on_namespace_content_hash ON fact(namespace, mnemo_content_hash(content_key));
                DROP INDEX fact_on_namespace_content_key;
                """)
    }
}
