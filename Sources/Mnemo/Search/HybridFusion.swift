import Foundation

/// How hybrid search combines its text and semantic candidate lists.
///
/// Both lists are computed with the same filter; the union of their candidates is then scored.
/// Every candidate gets its exact cosine similarity (read from the vector index), and its BM25
/// relevance when it matched the text query.
public enum HybridFusion: Hashable, Sendable {
    /// Reciprocal-rank fusion: `Σ 1 / (k + rank)` over the two lists. It ignores how good a
    /// match is, so a text list of weak matches on words such as "my" or "I" counts as much as
    /// a strong semantic list.
    case reciprocalRank(k: Double)
    /// `cosine + textWeight × bm25 / (bm25 + saturation)`: the semantic similarity, raised by a
    /// bounded bonus that grows with the strength of the word match. Weak word matches (common
    /// words, low BM25) add almost nothing; strong ones (rare names, exact terms) add up to
    /// `textWeight`.
    case weightedScore(textWeight: Double, saturation: Double)
    /// `(1 − w·c²) × cosine / best cosine + w·c² × bm25 / best bm25 × s / best s`, with `w` the
    /// text weight, `c` the query's word coverage (the IDF-weighted share of its words and quoted
    /// phrases that occur in the index at all) and `s` a text hit's own share of the query's words.
    ///
    /// Each list is scaled by its own best score for this query, so the fusion needs no
    /// constant tied to one collection's BM25 scale (short chat turns and facts score a third
    /// of what abstracts do). A query whose words mostly never occur in the memory, such as a
    /// paraphrase ("what computer do I code on?" against "Works on a 14-inch MacBook Pro"), has
    /// a text list made of incidental matches; the coverage gives that list the weight its
    /// words deserve, and none when no word occurs. (Squared: with the share itself, the
    /// paraphrase queries whose words all occur somewhere lost one answer from their top 10.)
    /// Within the list, a hit's BM25 is weighed by how much of the question it holds, relative to
    /// the hit holding most: a short fact sharing one rare word of the question can have the best
    /// BM25, yet answer less of it than a fact holding all its words (LoCoMo +0.026 nDCG@10, see
    /// <doc:ChoosingTheFusion>). A candidate whose share is not known counts as holding the most.
    case normalizedSum(textWeight: Double)

    /// The fusion hybrid search uses unless told otherwise, chosen on BEIR SciFact, LoCoMo
    /// (conversation memories) and the fixture keyword and paraphrase queries together
    /// (see <doc:ChoosingTheFusion>).
    public static let standard = HybridFusion.normalizedSum(textWeight: 0.35)

    /// Fuses candidates given by id with their text rank/score and similarity, best first (ties
    /// by id). `wordCoverage` is the share of the query's words found in the index (0…1).
    func fuse(_ candidates: [Int64: HybridCandidate], wordCoverage: Double = 1) -> [(id: Int64, score: Double)] {
        // Scales for normalizedSum: the best similarity and BM25 among the candidates. A best
        // similarity at or below 0 leaves similarities as they are (dividing would flip them).
        var bestSimilarity = -Double.infinity
        var bestBM25 = 0.0
        var bestShare = 0.0
        for candidate in candidates.values {
            bestSimilarity = max(bestSimilarity, candidate.similarity)
            bestBM25 = max(bestBM25, candidate.textScore ?? 0)
            if candidate.textScore != nil { bestShare = max(bestShare, candidate.wordShare ?? 0) }
        }
        let similarityScale = bestSimilarity > 0 ? bestSimilarity : 1
        let coverage = min(1, max(0, wordCoverage))
        return candidates.map { id, candidate in
            switch self {
            case .normalizedSum(let textWeight):
                let weight = textWeight * coverage * coverage
                let share = bestShare > 0 ? candidate.wordShare.map { max(0, $0) / bestShare } ?? 1 : 1
                let bm25 = bestBM25 > 0 ? max(0, candidate.textScore ?? 0) / bestBM25 * share : 0
                return (id, (1 - weight) * candidate.similarity / similarityScale + weight * bm25)
            case .reciprocalRank(let k):
                let text = candidate.textRank.map { 1 / (k + Double($0)) } ?? 0
                let semantic = candidate.semanticRank.map { 1 / (k + Double($0)) } ?? 0
                return (id, text + semantic)
            case .weightedScore(let textWeight, let saturation):
                let bm25 = max(0, candidate.textScore ?? 0)
                return (id, candidate.similarity + textWeight * bm25 / (bm25 + saturation))
            }
        }
        .sorted { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
    }
}

/// What hybrid search knows of one candidate before fusing.
struct HybridCandidate {
    var similarity: Double
    /// 1-based rank in the semantic list, if the fact made it.
    var semanticRank: Int?
    /// 1-based rank in the text list and BM25 relevance, if the fact matched the words.
    var textRank: Int?
    var textScore: Double?
    /// For a text hit: the IDF-weighted share of the query's words it holds (see
    /// ``TextSearcher/wordCoverage(_:query:facts:)``); `nil` when not known.
    var wordShare: Double?
}
