import Foundation

/// How a search finds facts.
public enum SearchMode: String, CaseIterable, Hashable, Sendable, Codable {
    /// Full-text search ranked by BM25.
    case text
    /// Cosine similarity between the query's embedding and each fact's.
    case semantic
    /// Both: the best text and semantic candidates fused by score (``HybridFusion/standard``:
    /// each list scaled by its best score for the query, the text list weighted by how many of
    /// the query's words occur in the memory at all). See <doc:ChoosingTheFusion>.
    case hybrid
}

/// How semantic search scans the stored vectors.
public enum VectorScan: String, CaseIterable, Hashable, Sendable, Codable {
    /// Float dot products against every vector that passes the filter.
    case exact
    /// Int8 dot products (a quarter of the memory traffic), then exact re-scoring of the best
    /// candidates; recall@10 against ``exact`` stays above 0.99 on 100k MiniLM vectors.
    case quantized
    /// The namespace's graph index (see ``KnowledgeBase`` and <doc:ApproximateSearch>) when it
    /// holds at least 20,000 facts and many of them pass the filter, else ``exact``. k results
    /// come back whenever k facts pass; recall@10 against ``exact`` is measured by `mnemo bench`.
    case approximate
}

/// A search request: the text, the mode, the filter and the page.
public struct SearchQuery: Hashable, Sendable {
    public var text: String
    /// The mode; `nil` (the default) means hybrid when the knowledge base has an embedder and
    /// text otherwise, so a query never fails for want of an embedder it did not ask for.
    public var mode: SearchMode?
    public var filter: FactFilter
    /// How text terms combine in ``SearchMode/text`` and the text half of hybrid.
    public var matching: TextQuery.Matching
    /// The most hits to return; 0 returns none. Must not be negative.
    public var limit: Int
    /// How many of the best hits to skip, for paging. Must not be negative.
    public var offset: Int
    /// Semantic hits below this cosine similarity are dropped.
    public var minSimilarity: Double?
    /// The graph index on large namespaces and the exact scan on the others (the default), the
    /// exact float scan always, or the int8 scan with float re-scoring.
    public var vectorScan: VectorScan
    /// How hybrid mode combines text and semantic candidates.
    public var fusion: HybridFusion
    /// Semantic and hybrid hits scoring below this fraction of the query's best hit are left
    /// out, so a query that matches little returns little instead of filling `limit` with
    /// unrelated facts. `nil` or 0 keeps every hit up to `limit`; the default is
    /// ``defaultRelativeScoreFloor``. Text mode returns only facts that match the words anyway.
    public var relativeScoreFloor: Double?

    /// The share of the best hit's score below which semantic and hybrid hits are too weak to
    /// show, chosen on LoCoMo and the fixture queries: the highest share that cuts no relevant
    /// hit from any of their top 10s (see <doc:ChoosingTheFusion>, "Weak hits").
    public static let defaultRelativeScoreFloor = 0.4

    /// Creates a query; by default the 10 best active facts, hybrid when the knowledge base
    /// has an embedder and text otherwise.
    public init(
        _ text: String,
        mode: SearchMode? = nil,
        filter: FactFilter = FactFilter(),
        matching: TextQuery.Matching = .anyTerm,
        limit: Int = 10,
        offset: Int = 0,
        minSimilarity: Double? = nil,
        vectorScan: VectorScan = .approximate,
        fusion: HybridFusion = .standard,
        relativeScoreFloor: Double? = SearchQuery.defaultRelativeScoreFloor
    ) {
        self.text = text
        self.mode = mode
        self.filter = filter
        self.matching = matching
        self.limit = limit
        self.offset = offset
        self.minSimilarity = minSimilarity
        self.vectorScan = vectorScan
        self.fusion = fusion
        self.relativeScoreFloor = relativeScoreFloor
    }
}

/// One search result: the fact with its topic path and its scores.
public struct SearchHit: Hashable, Sendable {
    public var fact: Fact
    /// The score results are ordered by, higher is better: BM25 (sign flipped) in text mode,
    /// cosine similarity in semantic mode, the fused score in hybrid mode.
    public var score: Double
    /// The BM25 relevance when the fact matched the text query (higher is better).
    public var textScore: Double?
    /// The cosine similarity to the query when it was computed.
    public var similarity: Double?
    /// The content with matched terms marked by `[` and `]`, for text matches.
    public var snippet: String?
    /// How likely the fact is to answer the query, from 0 to 1, on one scale for every query: an
    /// app can threshold it (``defaultRelevanceThreshold``) to tell "nothing relevant is known"
    /// from a weak best hit, which ``score`` cannot do (the best hybrid hit always scores 1).
    ///
    /// A logistic function of the evidence (see ``Relevance``): the cosine similarity in semantic
    /// mode; the IDF-weighted share of the query's words that the fact holds, times the share of
    /// them the memory knows at all, in text mode; both in hybrid mode. `nil` only for hits
    /// built by hand.
    public var relevance: Double?
    /// The ids of facts this one is in conflict with (see ``KnowledgeBase/conflicts(limit:offset:)``),
    /// so that an app can ask its user which one holds.
    public var conflictsWith: [Int64] = []
    /// The IDF-weighted share of the query's words the fact holds (``Relevance/words(share:)``),
    /// in text and hybrid mode: one of the features ``relevance`` is computed from, kept for the
    /// calibration data `mnemo eval --relevance-pairs` writes.
    package var wordShare: Double? = nil

    /// The ``relevance`` below which a hit is taken not to answer its query: the value that
    /// best separates relevant from irrelevant hits on the calibration sets (``Relevance``), the
    /// same on each. F1 of "relevance ≥ t" over the first 30 hybrid hits of every query
    /// (precision / recall):
    ///
    /// | t | LoCoMo | SciFact | fixtures |
    /// | --- | --- | --- | --- |
    /// | 0.1 | 0.27 (0.18 / 0.57) | 0.40 (0.29 / 0.66) | 0.62 (0.70 / 0.55) |
    /// | 0.2 | **0.32** (0.27 / 0.38) | **0.47** (0.48 / 0.47) | **0.64** (0.79 / 0.54) |
    /// | 0.3 | 0.29 (0.33 / 0.26) | 0.45 (0.67 / 0.34) | 0.63 (0.82 / 0.51) |
    /// | 0.5 | 0.14 (0.39 / 0.08) | 0.25 (0.84 / 0.15) | 0.52 (0.91 / 0.36) |
    public static let defaultRelevanceThreshold = 0.2
}
