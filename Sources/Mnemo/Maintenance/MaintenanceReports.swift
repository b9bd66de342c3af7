/// What ``KnowledgeBase/mergeTopics(_:into:dryRun:)`` did or would do.
public struct TopicMergeReport: Hashable, Sendable, Codable {
    /// The target's display path.
    public var target: String
    /// Every topic folded into the target, including same-named descendants.
    public var mergedTopics: [String]
    /// Facts that moved to another topic.
    public var movedFacts: Int
    /// Near-duplicate facts merged after meeting in the target.
    public var mergedFacts: Int
    public var dryRun: Bool
}

/// A group of facts that say the same thing; the first (oldest) survives a merge.
public struct DuplicateCluster: Hashable, Sendable, Codable {
    public var survivor: Fact
    public var duplicates: [Fact]
}

/// A group of topics whose names are variants of one another ("Health & Fitness" and
/// "Health and Fitness"); the one listed as target survives a merge.
public struct TopicVariantGroup: Hashable, Sendable, Codable {
    public var target: String
    public var variants: [String]
}

/// What ``KnowledgeBase/dedupe(rule:dryRun:)`` found and, unless it was a dry run, merged.
public struct DedupeReport: Hashable, Sendable, Codable {
    /// Clusters of near duplicates found after the topic merges, each folded into its survivor.
    public var factClusters: [DuplicateCluster]
    public var topicGroups: [TopicVariantGroup]
    /// Facts merged into a near duplicate that they met in a merged topic.
    public var topicMergedFacts: Int
    public var dryRun: Bool

    /// Every fact removed (or that the run would remove) by folding it into another: those of
    /// the clusters and those merged by the topic merges. The history shows one `merged_into`
    /// event for each.
    public var mergedFacts: Int { factClusters.reduce(0) { $0 + $1.duplicates.count } + topicMergedFacts }

    public init(factClusters: [DuplicateCluster], topicGroups: [TopicVariantGroup], topicMergedFacts: Int = 0, dryRun: Bool) {
        self.factClusters = factClusters
        self.topicGroups = topicGroups
        self.topicMergedFacts = topicMergedFacts
        self.dryRun = dryRun
    }

    private enum CodingKeys: String, CodingKey {
        case factClusters, topicGroups, topicMergedFacts, mergedFacts, dryRun
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(factClusters: container.decode([DuplicateCluster].self, forKey: .factClusters),
                      topicGroups: container.decode([TopicVariantGroup].self, forKey: .topicGroups),
                      topicMergedFacts: container.decodeIfPresent(Int.self, forKey: .topicMergedFacts) ?? 0,
                      dryRun: container.decode(Bool.self, forKey: .dryRun))
    }

    /// Encodes the stored properties and ``mergedFacts``, the total a script wants.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(factClusters, forKey: .factClusters)
        try container.encode(topicGroups, forKey: .topicGroups)
        try container.encode(topicMergedFacts, forKey: .topicMergedFacts)
        try container.encode(mergedFacts, forKey: .mergedFacts)
        try container.encode(dryRun, forKey: .dryRun)
    }
}
