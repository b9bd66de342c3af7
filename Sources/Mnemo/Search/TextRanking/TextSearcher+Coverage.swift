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
        var idfs: [Double] = []
        var present: [Bool] = []
        for phrase in query.phrases {
            let matches = Double(try Int.fetchOne(count, arguments: ["\"" + phrase.joined(separator: " ") + "\""]) ?? 0)
            idfs.append(max(1e-6, log((rows - matches + 0.5) / (matches + 0.5))))
            present.append(matches > 0)
        }
        let total = idfs.reduce(0, +)
        guard total > 0 else { return WordCoverage(query: 0, facts: [:]) }
        let found = zip(idfs, present).reduce(0) { $1.1 ? $0 + $1.0 : $0 }
        return WordCoverage(
            query: found / total,
            facts: try phraseWeights(db, query: query, facts: facts, idfs: idfs, present: present)
                .mapValues { $0 / total })
    }

    /// The summed IDF of the query's phrases each of `facts` holds, in its content or topic path.
    ///
    /// The facts' own text is split by the index's tokenizer (``SnippetMaker``), so a phrase is
    /// held exactly when the index would match it there. Asking the index instead, phrase by
    /// phrase with `rowid IN (…)`, walks every fact holding a common word, which doubled the p95
    /// of a hybrid search at 100k facts; a hundred facts read by id cost less.
    private static func phraseWeights(
        _ db: Database, query: TextQuery, facts: [Int64], idfs: [Double],
        present: [Bool]
    ) throws -> [Int64: Double] {
        guard !facts.isEmpty, present.contains(true) else { return [:] }
        let matcher = try SnippetMaker(db, query: query)
        var weights: [Int64: Double] = [:]
        // The facts asked about are integers of our own, written into the statement.
        let sql =
            "SELECT id, content, topic FROM fact_document WHERE id IN (\(facts.map(String.init).joined(separator: ",")))"
        for row in try Row.fetchAll(db, sql: sql) {
            let held = zip(matcher.heldPhrases(in: row["content"]), matcher.heldPhrases(in: row["topic"])).map {
                $0 || $1
            }
            let weight = idfs.indices.reduce(0.0) { held[$1] && present[$1] ? $0 + idfs[$1] : $0 }
            if weight > 0 { weights[row["id"]] = weight }
        }
        return weights
    }
}
