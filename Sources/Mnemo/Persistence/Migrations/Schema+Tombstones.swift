import GRDB

extension Schema {
    /// The tombstones of erased facts (see ``KnowledgeBase/eraseFacts(ids:)``).
    ///
    /// A tombstone says that a fact existed and was erased, when and why, and nothing else: no
    /// content, no hash of it, no topic (v16 adds keyed hashes of wordings apart, `ErasedContent`). It keeps the id from being given to a new fact (a client
    /// holding the id must never reach someone else's statement through it), makes a rerun of an
    /// erase a no-op instead of a "not found", and lets ``KnowledgeBase/check(repair:)`` verify
    /// that nothing of an erased fact is left.
    static func createTombstones(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE fact_tombstone (
                    fact_id INTEGER PRIMARY KEY,
                    namespace TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    erased_at DATETIME NOT NULL
                );
                CREATE INDEX fact_tombstone_on_namespace ON fact_tombstone(namespace);
                """)
    }
}
