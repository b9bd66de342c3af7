import Foundation
import Mnemo

/// One judged query–fact pair as a search returned it, with the features ``SearchHit/relevance``
/// is computed from: the data `Scripts/relevance-fit` fits ``Relevance``'s coefficients on and
/// studies context packing with (`mnemo eval --relevance-pairs FILE`).
///
/// Written as one JSON object per line: `{"set", "query", "mode", "rank", "score", "cosine",
/// "share", "relevance", "tokens", "label", "evidence", "judged"}`; `cosine` or `share` is
/// `null` where the mode does not compute it.
public struct RelevancePair: Sendable, Hashable, Codable {
    /// The dataset's name.
    public var set: String
    public var query: String
    /// `text`, `semantic` or `hybrid`: the search that returned the fact.
    public var mode: String
    /// 1-based rank of the fact in that search.
    public var rank: Int
    /// ``SearchHit/score``.
    public var score: Double
    public var cosine: Double?
    public var share: Double?
    /// ``SearchHit/relevance`` with the coefficients of the build that wrote the file.
    public var relevance: Double?
    /// The cost of the fact's line in a context (``TokenEstimator``).
    public var tokens: Int
    /// 1 when one of the fact's sources is judged relevant to the query, else 0.
    public var label: Int
    /// How many of the query's relevant documents the fact stands for.
    public var evidence: Int
    /// How many relevant documents the query has.
    public var judged: Int

    /// How many hits of each search are kept: hybrid hits for packing studies, the first ones of
    /// the single-mode searches for their own coefficients.
    static let hybridDepth = 101
    static let singleModeDepth = 30

    /// The pairs of one query's hits in `mode`.
    static func pairs(
        _ hits: [SearchHit], set: String, query: String, mode: SearchMode, evidence: Set<String>
    ) -> [RelevancePair] {
        hits.enumerated().map { index, hit in
            let matched = evidence.intersection(hit.fact.sources).count
            return RelevancePair(
                set: set, query: query, mode: mode.rawValue, rank: index + 1, score: hit.score,
                cosine: hit.similarity, share: hit.wordShare, relevance: hit.relevance,
                tokens: MemoryContext.lineCost(of: hit.fact), label: matched > 0 ? 1 : 0, evidence: matched,
                judged: evidence.count)
        }
    }

    /// JSON Lines, keys sorted.
    public static func jsonLines(_ pairs: [RelevancePair]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try pairs.map { String(decoding: try encoder.encode($0), as: UTF8.self) + "\n" }.joined()
    }
}
