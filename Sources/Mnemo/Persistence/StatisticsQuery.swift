import GRDB

/// The counts of ``KnowledgeBaseStats``, read from the `fact` and `topic` tables in one
/// transaction.
enum StatisticsQuery {
    static func stats(_ db: Database, namespace: String) throws -> KnowledgeBaseStats {
        let totals = try Row.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) AS facts, COALESCE(SUM(is_active), 0) AS active FROM fact WHERE namespace = ?
                """, arguments: [namespace])!
        let topics = try Row.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) AS n, COALESCE(MAX(depth), 0) AS depth FROM topic WHERE namespace = ?
                """, arguments: [namespace])!
        var byType = Dictionary(uniqueKeysWithValues: FactType.allCases.map { ($0, 0) })
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT type, COUNT(*) AS n FROM fact WHERE namespace = ? GROUP BY type
                """, arguments: [namespace])
        {
            if let type = FactType(rawValue: row["type"]) { byType[type] = row["n"] }
        }
        var byImportance = Dictionary(uniqueKeysWithValues: Importance.allCases.map { ($0, 0) })
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT importance, COUNT(*) AS n FROM fact WHERE namespace = ? GROUP BY importance
                """, arguments: [namespace])
        {
            if let importance = Importance(rank: row["importance"]) { byImportance[importance] = row["n"] }
        }
        let largest = try Row.fetchAll(
            db,
            sql: """
                SELECT topic.path AS path, COUNT(*) AS n FROM fact JOIN topic ON topic.id = fact.topic_id
                WHERE fact.namespace = ? GROUP BY fact.topic_id ORDER BY n DESC, topic.path_key LIMIT 5
                """, arguments: [namespace]
        ).map { KnowledgeBaseStats.TopicSize(path: $0["path"], facts: $0["n"]) }
        let facts: Int = totals["facts"]
        let active: Int = totals["active"]
        return KnowledgeBaseStats(
            facts: facts, activeFacts: active, inactiveFacts: facts - active,
            topics: topics["n"], maxTopicDepth: topics["depth"],
            byType: byType, byImportance: byImportance, largestTopics: largest)
    }
}
