import Foundation
import GRDB

extension TextSearcher {
    /// How much of the query the index can answer by its words: the IDF-weighted share of the
    /// query's words and quoted phrases that occur in at least one indexed fact (0…1; 0 for a
    /// query without any).
    ///
    /// Hybrid search weighs its text list by it (``HybridFusion/normalizedSum(textWeight:)``): a
    /// question whose words the memory never uses is asking by meaning, and the facts that
    /// happen to share its remaining words are incidental matches. A word's weight is its IDF,
    /// `ln((N − n + 0.5) / (n + 0.5))` with n the facts holding it (floored as FTS5's BM25
    /// floors it), so an absent word weighs as much as the rarest word can. N is the highest
    /// fact id, which equals the fact count until facts are deleted and moves an IDF by little
    /// after that; reading it costs one index probe where counting rows would read them all.
    /// The index spans every namespace, as FTS5's own BM25 statistics do; the figure only
    /// weighs the ranking and is never shown.
    static func wordCoverage(_ db: Database, query: TextQuery) throws -> Double {
        guard !query.phrases.isEmpty else { return 0 }
        let rows = Double(try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM fact")) ?? 0)
        let count = try db.cachedStatement(sql: "SELECT COUNT(*) FROM fact_fts WHERE fact_fts MATCH ?")
        var present = 0.0, total = 0.0
        for phrase in query.phrases {
            let matches = Double(try Int.fetchOne(count, arguments: ["\"" + phrase.joined(separator: " ") + "\""]) ?? 0)
            let idf = max(1e-6, log((rows - matches + 0.5) / (matches + 0.5)))
            total += idf
            if matches > 0 { present += idf }
        }
        return total > 0 ? present / total : 0
    }
}
