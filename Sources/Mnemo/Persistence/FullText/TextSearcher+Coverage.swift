import Foundation
import GRDB

extension TextSearcher {
    /// How much of a query the index can answer by its words, as a whole and fact by fact.
    struct WordCoverage: Equatable {
        /// The IDF-weighted share of the query's words and quoted phrases that occur in at least
        /// one indexed fact (0…1; 0 for a query without any).
        var query: Double
        /// For each fact asked about that matches any of the query's words: the IDF-weighted
        /// share of the query's words and phrases it holds (0…``query``).
        var facts: [Int64: Double]
    }

    /// The query's word coverage, and that of each of `facts` (the text hits being fused).
    ///
    /// Hybrid search weighs its text list by the first (``HybridFusion/normalizedSum(textWeight:)``):
    /// a question whose words the memory never uses is asking by meaning, and the facts that
    /// happen to share its remaining words are incidental matches. It scales each text hit's
    /// BM25 by the second: a hit holding one of the question's three words may still have the
    /// best BM25 (a short fact, a rare word), but it answers less of the question than one
    /// holding all three. A word's weight is its IDF, `ln((N − n + 0.5) / (n + 0.5))` with n the
    /// facts holding it (floored as FTS5's BM25 floors it), so an absent word weighs as much as
    /// the rarest word can. N is the highest fact id, which equals the fact count until facts
    /// are deleted and moves an IDF by little after that; reading it costs one index probe where
    /// counting rows would read them all. The index spans every namespace, as FTS5's own BM25
    /// statistics do; the figures only weigh the ranking and are never shown.
    static func wordCoverage(_ db: Database, query: TextQuery, facts: [Int64] = []) throws -> WordCoverage {
        guard !query.phrases.isEmpty else { return WordCoverage(query: 0, facts: [:]) }
        let rows = Double(try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM fact")) ?? 0)
        let count = try db.cachedStatement(sql: "SELECT COUNT(*) FROM fact_fts WHERE fact_fts MATCH ?")
        // The facts asked about are integers of our own, written into the statement.
        let holders = facts.isEmpty ? nil : try db.makeStatement(sql: """
            SELECT rowid FROM fact_fts WHERE fact_fts MATCH ? AND rowid IN (\(facts.map(String.init).joined(separator: ",")))
            """)
        var present = 0.0, total = 0.0
        var weights: [Int64: Double] = [:]
        for phrase in query.phrases {
            let pattern = "\"" + phrase.joined(separator: " ") + "\""
            let matches = Double(try Int.fetchOne(count, arguments: [pattern]) ?? 0)
            let idf = max(1e-6, log((rows - matches + 0.5) / (matches + 0.5)))
            total += idf
            guard matches > 0 else { continue }
            present += idf
            if let holders {
                for id in try Int64.fetchAll(holders, arguments: [pattern]) { weights[id, default: 0] += idf }
            }
        }
        guard total > 0 else { return WordCoverage(query: 0, facts: [:]) }
        return WordCoverage(query: present / total, facts: weights.mapValues { $0 / total })
    }
}
