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

    /// The fusion hybrid search uses unless told otherwise, chosen on measurements over the
    /// fixture queries (keyword and paraphrase) and BEIR SciFact: see the README's Performance section.
    public static let standard = HybridFusion.weightedScore(textWeight: 0.2, saturation: 16)

    /// Fuses candidates given by id with their text rank/score and similarity.
    func fuse(_ candidates: [Int64: HybridCandidate]) -> [(id: Int64, score: Double)] {
        candidates.map { id, candidate in
            switch self {
            case let .reciprocalRank(k):
                let text = candidate.textRank.map { 1 / (k + Double($0)) } ?? 0
                let semantic = candidate.semanticRank.map { 1 / (k + Double($0)) } ?? 0
                return (id, text + semantic)
            case let .weightedScore(textWeight, saturation):
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
}
