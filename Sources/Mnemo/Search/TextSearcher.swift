import Foundation
import GRDB

/// Full-text search over the FTS5 index, ranked by BM25.
///
/// FTS5 must compute BM25 for every matching row before it knows the best ones (about 1.5 µs a
/// row: the row's column sizes are read from the index). Everything else is kept off that path:
///
/// 1. The best `depth` matches are ranked inside the index alone, without touching `fact`.
/// 2. Only those candidates are joined with `fact` and `topic` and filtered; the page is cut.
/// 3. Snippets are made for the rows of the page only (a snippet re-reads and re-tokenizes the
///    content).
///
/// When fewer than a page of candidates pass the filter and the index has more matches, the
/// search runs again with a depth eight times larger, until the page is full or every match was
/// ranked: results are exactly those of filtering all matches, in BM25 order.
enum TextSearcher {
    /// Relative BM25 weights of the indexed columns: content, then topic path.
    static let columnWeights = (content: 1.0, topic: 0.3)

    static func search(
        _ db: Database, namespace: String, query: TextQuery, filter: FactFilter, limit: Int, offset: Int
    ) throws -> [SearchHit] {
        let conditions = try filter.sqlConditions(db, namespace: namespace)
        let wanted = offset + limit
        // Most matches pass the default filter (active facts of the namespace); a type,
        // importance or topic filter passes about one in five to ten.
        let isNarrow = filter.types != nil || filter.importances != nil || filter.minimumImportance != nil
            || filter.topicPath != nil || filter.activity == .inactiveOnly
        var depth = max(isNarrow ? 200 : 50, wanted * (isNarrow ? 10 : 2))
        var matchCount: Int?
        while true {
            let hits = try page(db, query: query, conditions: conditions, depth: depth, limit: limit, offset: offset)
            if hits.count == limit { return hits }
            let total = try matchCount ?? Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM fact_fts WHERE fact_fts MATCH ?"), arguments: [query.pattern]) ?? 0
            matchCount = total
            if depth >= total { return hits }
            depth = depth > total / 8 ? total : depth * 8
        }
    }

    /// The page among the best `depth` matches.
    private static func page(
        _ db: Database, query: TextQuery, conditions: (sql: String, arguments: StatementArguments),
        depth: Int, limit: Int, offset: Int
    ) throws -> [SearchHit] {
        // MATERIALIZED keeps SQLite from folding the ranking into the join, which would read
        // `fact` for every match again.
        let sql = """
            WITH candidate AS MATERIALIZED (
                SELECT rowid AS id, bm25(fact_fts, \(columnWeights.content), \(columnWeights.topic)) AS rank
                FROM fact_fts WHERE fact_fts MATCH ?
                ORDER BY rank, rowid LIMIT ?
            ), page AS MATERIALIZED (
                SELECT candidate.id, candidate.rank
                FROM candidate CROSS JOIN fact ON fact.id = candidate.id JOIN topic ON topic.id = fact.topic_id
                WHERE \(conditions.sql)
                ORDER BY candidate.rank, candidate.id LIMIT ? OFFSET ?
            )
            SELECT \(Fact.selection), page.rank AS rank,
                   (SELECT snippet(fact_fts, 0, '[', ']', '…', 16) FROM fact_fts
                    WHERE fact_fts MATCH ? AND fact_fts.rowid = page.id) AS snippet
            FROM page CROSS JOIN fact ON fact.id = page.id JOIN topic ON topic.id = fact.topic_id
            ORDER BY page.rank, page.id
            """
        let arguments: StatementArguments = [query.pattern, depth] + conditions.arguments + [limit, offset, query.pattern]
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
            let relevance = -(row["rank"] as Double)
            return SearchHit(fact: Fact(row: row), score: relevance, textScore: relevance,
                             similarity: nil, snippet: row["snippet"])
        }
    }
}
