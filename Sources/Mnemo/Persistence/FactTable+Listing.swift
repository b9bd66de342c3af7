import GRDB

extension FactTable {
    /// Calls `body` with every fact of `namespace` (of every namespace when `nil`), by id, one row
    /// in memory at a time.
    static func forEach(_ db: Database, namespace: String?, _ body: (Fact) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(Fact.selection) FROM \(Fact.source)
                WHERE ? IS NULL OR fact.namespace = ? ORDER BY fact.id
                """, arguments: [namespace, namespace])
        while let row = try rows.next() { try body(Fact(row: row)) }
    }

    /// Up to `limit` facts of `namespace` (of every namespace when `nil`) with ids above `id`, by id.
    static func page(_ db: Database, namespace: String?, after id: Int64, limit: Int) throws -> [Fact] {
        try Fact.fetchAll(
            db.makeStatement(
                sql: """
                    SELECT \(Fact.selection) FROM \(Fact.source)
                    WHERE (? IS NULL OR fact.namespace = ?) AND fact.id > ? ORDER BY fact.id LIMIT ?
                    """), arguments: [namespace, namespace, id, limit])
    }

    /// The id and content of every fact in every namespace, by id: what re-embedding reads.
    static func contents(_ db: Database) throws -> [(id: Int64, content: String)] {
        try Row.fetchAll(db, sql: "SELECT id, content FROM fact ORDER BY id").map {
            (id: $0["id"], content: $0["content"])
        }
    }

    /// The facts in the topics with these ids.
    static func facts(_ db: Database, inTopics topicIDs: [Int64]) throws -> [Fact] {
        guard !topicIDs.isEmpty else { return [] }
        return try Fact.fetchAll(
            db.makeStatement(
                sql: """
                    SELECT \(Fact.selection) FROM \(Fact.source) WHERE fact.topic_id IN (SELECT value FROM json_each(?))
                    """), arguments: [idList(topicIDs)])
    }
}
