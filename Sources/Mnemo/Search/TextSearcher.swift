import Foundation
import GRDB

/// Full-text search over the FTS5 index, ranked by BM25.
enum TextSearcher {
    /// Relative BM25 weights of the indexed columns: content, then topic path.
    static let columnWeights = (content: 1.0, topic: 0.3)

    static func search(
        _ db: Database, namespace: String, query: TextQuery, filter: FactFilter, limit: Int, offset: Int
    ) throws -> [SearchHit] {
        let conditions = try filter.sqlConditions(db, namespace: namespace)
        let sql = """
            SELECT \(Fact.selection),
                   bm25(fact_fts, \(columnWeights.content), \(columnWeights.topic)) AS rank,
                   snippet(fact_fts, 0, '[', ']', '…', 16) AS snippet
            FROM fact_fts
            JOIN fact ON fact.id = fact_fts.rowid
            JOIN topic ON topic.id = fact.topic_id
            WHERE fact_fts MATCH ? AND \(conditions.sql)
            ORDER BY rank, fact.id
            LIMIT ? OFFSET ?
            """
        let arguments: StatementArguments = [query.pattern] + conditions.arguments + [limit, offset]
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
            let relevance = -(row["rank"] as Double)
            return SearchHit(fact: Fact(row: row), score: relevance, textScore: relevance,
                             similarity: nil, snippet: row["snippet"])
        }
    }
}
