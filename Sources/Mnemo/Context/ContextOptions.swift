import Foundation

/// How ``KnowledgeBase/context(for:budget:options:)`` chooses and lays out the memory of a prompt.
public struct ContextOptions: Hashable, Sendable {
    /// The importance at or above which a fact is always surfaced (MindChat's "High — critical
    /// information, always surfaced").
    public var alwaysImportance: Importance
    /// The largest share of the budget that always-surfaced facts may take (0…1), so that a user
    /// with many of them still gets the facts that answer the message. Default ``defaultAlwaysShare``.
    public var alwaysShare: Double
    /// The ``SearchHit/relevance`` a hit needs to count as answering the message (see
    /// ``MemoryContext/nothingRelevant``). Default ``SearchHit/defaultRelevanceThreshold``.
    public var minimumRelevance: Double
    /// The cosine to the message at which a hit bears on it though it does not answer it, and
    /// the bearing a high-importance fact needs to be a standing fact for the message (see
    /// ``KnowledgeBase/context(for:budget:options:)``). Default ``defaultMinimumBearing``.
    public var minimumBearing: Double
    /// The cosine to the message at which a hit shows that the memory knows something about it
    /// (see ``MemoryContext/nothingRelevant``). Default ``defaultMinimumEvidence``.
    public var minimumEvidence: Double
    /// How many of the first bearing hits make the message's neighbourhood. Default
    /// ``defaultNeighbourhood``.
    public var neighbourhood: Int
    /// How far back "recent" reaches from the knowledge base's ``KnowledgeBase/now``; `nil` for no
    /// limit. Recent facts fill whatever room the others leave.
    public var recentWindow: TimeInterval?
    /// Which facts may appear at all: types, topic subtree, `since`/`until`. Only active facts
    /// ever appear, whatever its ``FactFilter/activity``.
    public var filter: FactFilter
    /// The weight of relevance against novelty when the hits are picked (maximal marginal relevance, 0…1): 1 ranks by relevance
    /// alone, lower values prefer a fact unlike those already picked. Default ``defaultDiversity``.
    public var relevanceWeight: Double
    /// How soon an active goal's ``Fact/targetDate`` must be, from ``KnowledgeBase/now``, for the
    /// goal to weigh more when the message is about aims (see
    /// ``KnowledgeBase/context(for:budget:options:)``). Default ``defaultDueSoon``.
    public var dueSoon: TimeInterval
    /// How many search hits are considered for the answering part. Default
    /// ``defaultCandidates``.
    public var candidates: Int
    /// How tokens are counted.
    public var estimator: TokenEstimator

    /// A quarter of the budget at most for always-surfaced facts.
    public static let defaultAlwaysShare = 0.25
    /// A cosine of 0.35 with all-MiniLM-L6-v2: on the judgement sets (`Fixtures/context`), 6 %
    /// of the high-importance facts a message does not need reach it, and 40 % of those it needs.
    public static let defaultMinimumBearing = 0.35
    /// A cosine of 0.30 with all-MiniLM-L6-v2, below ``defaultMinimumBearing`` because the two
    /// mistakes differ in cost: a context said to hold nothing relevant may be left out by the
    /// app, allergy and all, while one wrongly said to hold something costs a few lines. On the
    /// judgement sets (`Fixtures/context`) the best hit of each of the 62 messages with
    /// must-have facts is at 0.303 or more, and those of the 4 the memories know nothing about
    /// at 0.20, 0.28, 0.31 and 0.35 (a mountain on the Moon finds the hiking facts).
    public static let defaultMinimumEvidence = 0.30
    /// Five hits: enough for the neighbourhood to be a subject rather than one fact.
    public static let defaultNeighbourhood = 5
    /// Maximal marginal relevance's weight of relevance: 1, the search's rank order alone. A
    /// near duplicate of a fact already in never comes in anyway (``NearDuplicateRule``).
    public static let defaultDiversity = 1.0
    /// Enough hits to fill a large budget with the weaker ones (at 2,048 tokens about 80 lines
    /// of 25 tokens; LoCoMo's chat turns cost 85).
    public static let defaultCandidates = 100
    /// Sixty days: a goal due within two months is one to plan for now.
    public static let defaultDueSoon: TimeInterval = 60 * 86_400
    /// Thirty days, the window Lume's insights look back over.
    public static let defaultRecentWindow: TimeInterval = 30 * 86_400

    /// Creates options; every argument has a default.
    public init(
        alwaysImportance: Importance = .high,
        alwaysShare: Double = ContextOptions.defaultAlwaysShare,
        minimumRelevance: Double = SearchHit.defaultRelevanceThreshold,
        minimumBearing: Double = ContextOptions.defaultMinimumBearing,
        minimumEvidence: Double = ContextOptions.defaultMinimumEvidence,
        neighbourhood: Int = ContextOptions.defaultNeighbourhood,
        recentWindow: TimeInterval? = ContextOptions.defaultRecentWindow,
        filter: FactFilter = FactFilter(),
        relevanceWeight: Double = ContextOptions.defaultDiversity,
        dueSoon: TimeInterval = ContextOptions.defaultDueSoon,
        candidates: Int = ContextOptions.defaultCandidates,
        estimator: TokenEstimator = TokenEstimator()
    ) {
        self.alwaysImportance = alwaysImportance
        self.alwaysShare = alwaysShare
        self.minimumRelevance = minimumRelevance
        self.minimumBearing = minimumBearing
        self.minimumEvidence = minimumEvidence
        self.neighbourhood = neighbourhood
        self.recentWindow = recentWindow
        self.filter = filter
        self.relevanceWeight = relevanceWeight
        self.dueSoon = dueSoon
        self.candidates = candidates
        self.estimator = estimator
    }
}
