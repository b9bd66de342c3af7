import GRDB

/// The log of changes to what the in-memory vector index holds, written by triggers in the
/// writing transaction, so that every process and every connection sees every change.
///
/// `fact_change` keeps one row per fact whose vector or indexed attributes (namespace, topic,
/// type, importance, active) ever changed, numbered by a sequence that only grows
/// (`AUTOINCREMENT`): a change replaces the fact's earlier row with a new, higher number. SQLite
/// runs one writer at a time, so a reader that sees sequence number `n` sees every change up to
/// `n`, and the facts changed after `n` are exactly the rows numbered above it. Deleted facts
/// keep their row, which tells a reader to drop them.
enum ChangeLog {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE fact_change (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    fact_id INTEGER NOT NULL UNIQUE
                );
                CREATE TRIGGER fact_change_after_insert AFTER INSERT ON fact BEGIN \(record("new.id")) END;
                CREATE TRIGGER fact_change_after_update
                    AFTER UPDATE OF id, namespace, topic_id, type, importance, is_active ON fact
                BEGIN \(record("old.id")) \(record("new.id")) END;
                CREATE TRIGGER fact_change_after_delete AFTER DELETE ON fact BEGIN \(record("old.id")) END;
                CREATE TRIGGER fact_embedding_change_after_insert AFTER INSERT ON fact_embedding BEGIN \(record("new.fact_id")) END;
                CREATE TRIGGER fact_embedding_change_after_update AFTER UPDATE ON fact_embedding
                BEGIN \(record("old.fact_id")) \(record("new.fact_id")) END;
                CREATE TRIGGER fact_embedding_change_after_delete AFTER DELETE ON fact_embedding BEGIN \(record("old.fact_id")) END;
                """)
    }

    /// Logs a new fact only when its vector is already stored. The index holds facts with a
    /// vector, and a fact gets one after its row (the vector's key refers to it), which logs the
    /// fact again: the first row was replaced within the same transaction. A load of a million
    /// facts wrote two rows per fact, and 3 % of its time went to the first.
    ///
    /// A fact inserted after its vector (foreign keys deferred or off, as an undo or a row load
    /// may insert them) is logged by its own row, as before.
    static func logNewFactsWithTheirVectors(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP TRIGGER fact_change_after_insert;
                CREATE TRIGGER fact_change_after_insert AFTER INSERT ON fact
                WHEN EXISTS (SELECT 1 FROM fact_embedding WHERE fact_id = new.id)
                BEGIN \(record("new.id")) END;
                """)
    }

    /// Deletes the fact's earlier row and inserts a new one. `INSERT OR REPLACE` would do it in
    /// one statement, but inside a trigger the conflict policy of the statement that fired it
    /// wins, and an outer `INSERT OR IGNORE` would then keep the stale row.
    private static func record(_ id: String) -> String {
        "DELETE FROM fact_change WHERE fact_id = \(id); INSERT INTO fact_change (fact_id) VALUES (\(id));"
    }

    /// The number of the latest change, 0 when none was logged. One B-tree descent.
    static func latestSequence(_ db: Database) throws -> Int64 {
        do {
            return try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(seq) FROM fact_change")) ?? 0
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            // A database of the first schema opened read-only has no log (migrations cannot run).
            guard try !db.tableExists("fact_change") else { throw error }
            return 0
        }
    }

    /// The facts changed after change `sequence`, up to `limit` of them (oldest change first).
    static func factsChanged(_ db: Database, after sequence: Int64, limit: Int) throws -> [Int64] {
        try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT fact_id FROM fact_change WHERE seq > ? ORDER BY seq LIMIT ?"),
            arguments: [sequence, limit])
    }
}
