import GRDB

extension Schema {
    /// The change log of the vector index (see `ChangeLog`): `fact_change` and the triggers that
    /// write it in the writing transaction. A change deletes the fact's earlier row and inserts a
    /// new one: `INSERT OR REPLACE` would do it in one statement, but inside a trigger the
    /// conflict policy of the statement that fired it wins, and an outer `INSERT OR IGNORE` would
    /// then keep the stale row.
    static func createChangeLog(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE fact_change (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    fact_id INTEGER NOT NULL UNIQUE
                );
                CREATE TRIGGER fact_change_after_insert AFTER INSERT ON fact BEGIN DELETE FROM fact_change WHERE fact_id = new.id; INSERT INTO fact_change (fact_id) VALUES (new.id); END;
                CREATE TRIGGER fact_change_after_update
                    AFTER UPDATE OF id, namespace, topic_id, type, importance, is_active ON fact
                BEGIN DELETE FROM fact_change WHERE fact_id = old.id; INSERT INTO fact_change (fact_id) VALUES (old.id); DELETE FROM fact_change WHERE fact_id = new.id; INSERT INTO fact_change (fact_id) VALUES (new.id); END;
                CREATE TRIGGER fact_change_after_delete AFTER DELETE ON fact BEGIN DELETE FROM fact_change WHERE fact_id = old.id; INSERT INTO fact_change (fact_id) VALUES (old.id); END;
                CREATE TRIGGER fact_embedding_change_after_insert AFTER INSERT ON fact_embedding BEGIN DELETE FROM fact_change WHERE fact_id = new.fact_id; INSERT INTO fact_change (fact_id) VALUES (new.fact_id); END;
                CREATE TRIGGER fact_embedding_change_after_update AFTER UPDATE ON fact_embedding
                BEGIN DELETE FROM fact_change WHERE fact_id = old.fact_id; INSERT INTO fact_change (fact_id) VALUES (old.fact_id); DELETE FROM fact_change WHERE fact_id = new.fact_id; INSERT INTO fact_change (fact_id) VALUES (new.fact_id); END;
                CREATE TRIGGER fact_embedding_change_after_delete AFTER DELETE ON fact_embedding BEGIN DELETE FROM fact_change WHERE fact_id = old.fact_id; INSERT INTO fact_change (fact_id) VALUES (old.fact_id); END;
                """)
    }

    /// v13: a new fact is logged only when its vector is already stored. The index holds facts
    /// with a vector, and a fact gets one after its row (the vector's key refers to it), which
    /// logs the fact again: the first row was replaced within the same transaction, and a load of
    /// a million facts wrote two rows per fact.
    ///
    /// A fact inserted after its vector (foreign keys deferred or off, as an undo or a row load
    /// may insert them) is logged by its own row, as before.
    static func logNewFactsWithTheirVectors(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP TRIGGER fact_change_after_insert;
                CREATE TRIGGER fact_change_after_insert AFTER INSERT ON fact
                WHEN EXISTS (SELECT 1 FROM fact_embedding WHERE fact_id = new.id)
                BEGIN DELETE FROM fact_change WHERE fact_id = new.id; INSERT INTO fact_change (fact_id) VALUES (new.id); END;
                """)
    }
}
