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
    ///
    /// `phraseHits`, when given, are the rows holding each phrase as a ranking of the same query in
    /// the same read counted them (``TextSearcher/Ranking``); else they are counted here.
    static func wordCoverage(_ db: Database, query: TextQuery, facts: [Int64] = [], phraseHits: [Int]? = nil) throws
        -> WordCoverage
    {
        try wordCoverage(db, query: query, phraseHits: phraseHits) {
            facts.isEmpty ? [] : try documents(db, ids: facts, matcher: SnippetMaker(db, query: query))
        }
    }

    /// ``wordCoverage(_:query:facts:phraseHits:)`` for hits already read and marked, with the
    /// query's `matcher` (for their topic paths, which many hits share).
    static func wordCoverage(
        _ db: Database, query: TextQuery, hits: [MarkedHit], matcher: SnippetMaker, phraseHits: [Int]? = nil,
        rows: Int64? = nil
    ) throws -> WordCoverage {
        try wordCoverage(db, query: query, phraseHits: phraseHits, rows: rows) {
            var topics: [String: [Bool]] = [:]
            return hits.map { marked in
                let topic = marked.hit.fact.topicPath
                if topics[topic] == nil { topics[topic] = matcher.heldPhrases(in: topic) }
                return Document(id: marked.hit.fact.id, held: zip(marked.heldPhrases, topics[topic]!).map { $0 || $1 })
            }
        }
    }

    /// `rows` is ``FactTable/highestID(_:)`` when the caller read it already.
    private static func wordCoverage(
        _ db: Database, query: TextQuery, phraseHits: [Int]?, rows: Int64? = nil, documents: () throws -> [Document]
    ) throws -> WordCoverage {
        guard !query.phrases.isEmpty else { return WordCoverage(query: 0, facts: [:]) }
        let rows = Double(try rows ?? FactTable.highestID(db))
        let hits = try phraseHits ?? phraseCounts(db, query: query)
        var idfs: [Double] = []
        var present: [Bool] = []
        for count in hits {
            let matches = Double(count)
            idfs.append(max(1e-6, log((rows - matches + 0.5) / (matches + 0.5))))
            present.append(matches > 0)
        }
        let total = idfs.reduce(0, +)
        guard total > 0 else { return WordCoverage(query: 0, facts: [:]) }
        let found = zip(idfs, present).reduce(0) { $1.1 ? $0 + $1.0 : $0 }
        var weights: [Int64: Double] = [:]
        if present.contains(true) {
            for document in try documents() {
                let weight = idfs.indices.reduce(0.0) { document.held[$1] && present[$1] ? $0 + idfs[$1] : $0 }
                if weight > 0 { weights[document.id] = weight / total }
            }
        }
        return WordCoverage(query: found / total, facts: weights)
    }

    /// How many rows of the index hold each of the query's phrases.
    private static func phraseCounts(_ db: Database, query: TextQuery) throws -> [Int] {
        let count = try db.cachedStatement(sql: "SELECT COUNT(*) FROM fact_fts WHERE fact_fts MATCH ?")
        return try query.phrases.map { phrase in
            try Int.fetchOne(count, arguments: ["\"" + phrase.joined(separator: " ") + "\""]) ?? 0
        }
    }

    /// A fact as the index sees it, with the query's phrases it holds in its content or topic path.
    ///
    /// The facts' own text is split by the index's tokenizer (``SnippetMaker``), so a phrase is
    /// held exactly when the index would match it there. Asking the index instead, phrase by
    /// phrase with `rowid IN (…)`, walks every fact holding a common word, which doubled the p95
    /// of a hybrid search at 100k facts; a hundred facts read by id cost less.
    private struct Document {
        var id: Int64
        var held: [Bool]
    }

    /// The facts with these ids, read from the index's own view of them (`fact_document`).
    private static func documents(_ db: Database, ids: [Int64], matcher: SnippetMaker) throws -> [Document] {
        guard !ids.isEmpty else { return [] }
        // One statement for any number of ids (a JSON array), prepared once per connection.
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT id, content, topic FROM fact_document WHERE id IN (SELECT value FROM json_each(?))"),
            arguments: [FactTable.idList(ids)])
        var documents: [Document] = []
        while let row = try rows.next() {
            let (content, topic): (String, String) = (row[1], row[2])
            let held = zip(matcher.heldPhrases(in: content), matcher.heldPhrases(in: topic)).map { $0 || $1 }
            documents.append(Document(id: row[0], held: held))
        }
        return documents
    }
}
