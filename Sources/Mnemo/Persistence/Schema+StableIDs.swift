import GRDB

extension Schema {
    /// A `uid` on every fact and topic: its identity on every replica of the namespace (see
    /// ``Fact/uid``), unique in the namespace, and the operation log's triggers on `fact` and
    /// `topic` recreated so that their row images hold it.
    ///
    /// Rows stored before get an id derived from what identifies them in this file (a topic's
    /// path key, as new topics do; a fact's id, content key and creation time), so the backfill
    /// gives the same ids wherever it runs on the same rows. The column lists of the recreated
    /// triggers are written out here, frozen with this migration.
    static func addStableIDs(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE fact ADD COLUMN uid TEXT;
                ALTER TABLE topic ADD COLUMN uid TEXT;
                DROP TRIGGER fact_log_update;
                DROP TRIGGER fact_log_delete;
                DROP TRIGGER fact_log_replace;
                DROP TRIGGER fact_log_insert;
                DROP TRIGGER topic_log_update;
                DROP TRIGGER topic_log_delete;
                DROP TRIGGER topic_log_replace;
                DROP TRIGGER topic_log_insert;
                """)
        try StableIDBackfill.fill(db)
        try db.execute(
            sql: """
                CREATE UNIQUE INDEX fact_on_namespace_uid ON fact(namespace, uid);
                CREATE UNIQUE INDEX topic_on_namespace_uid ON topic(namespace, uid);
                """)
        let fact = TrackedTable(
            name: "fact", key: "id",
            columns: [
                ("id", .plain), ("namespace", .plain), ("topic_id", .plain), ("content", .plain),
                ("content_key", .plain),
                ("type", .plain), ("importance", .plain), ("confidence", .real), ("is_active", .plain),
                ("sources", .plain),
                ("mention_count", .plain), ("created_at", .plain), ("updated_at", .plain), ("expires_at", .plain),
                ("goal_status", .plain), ("goal_progress", .real), ("target_date", .plain), ("completed_at", .plain),
                ("uid", .plain),
            ])
        let topic = TrackedTable(
            name: "topic", key: "id",
            columns: [
                ("id", .plain), ("namespace", .plain), ("parent_id", .plain), ("name", .plain), ("name_key", .plain),
                ("path", .plain), ("path_key", .plain), ("depth", .plain), ("created_at", .plain), ("uid", .plain),
            ])
        try db.execute(sql: operationLogTriggers(fact) + operationLogTriggers(topic))
    }
}

/// Gives a uid to the facts and topics that have none: every row when the migration adds the
/// column, and the rows a node of a shared store loads from a store written before uids existed
/// (the same rows get the same ids on every node, since the ids derive from the rows).
package enum StableIDBackfill {
    package static func fill(_ db: Database) throws {
        let topics = try Row.fetchAll(db, sql: "SELECT id, namespace, path_key FROM topic WHERE uid IS NULL")
        let setTopic = try db.makeStatement(sql: "UPDATE topic SET uid = ? WHERE id = ?")
        for row in topics {
            let (id, namespace, pathKey): (Int64, String, String) = (row[0], row[1], row[2])
            try setTopic.execute(arguments: [StableID.topic(namespace: namespace, pathKey: pathKey), id])
        }
        let facts = try Row.fetchAll(
            db, sql: "SELECT id, namespace, content_key, created_at FROM fact WHERE uid IS NULL")
        let setFact = try db.makeStatement(sql: "UPDATE fact SET uid = ? WHERE id = ?")
        for row in facts {
            let (id, namespace, key, created): (Int64, String, String, String) = (row[0], row[1], row[2], row[3])
            let uid = StableID.derived(from: "fact\u{1F}\(namespace)\u{1F}\(id)\u{1F}\(key)\u{1F}\(created)")
            try setFact.execute(arguments: [uid, id])
        }
    }
}
