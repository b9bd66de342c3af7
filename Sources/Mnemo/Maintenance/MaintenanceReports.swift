/// What ``KnowledgeBase/mergeTopics(_:into:dryRun:)`` did or would do.
public struct TopicMergeReport: Hashable, Sendable, Codable {
    /// The target's display path.
    public var target: String
    /// Every topic folded into the target, including same-named descendants.
    public var mergedTopics: [String]
    /// Facts that moved to another topic.
    public var movedFacts: Int
    /// The near duplicates that met in the target and were merged, each cluster folded into its
    /// survivor (shown as it was before the merge).
    public var factClusters: [DuplicateCluster]
    /// Sources that an earlier merge already folded into the target: nothing was left to do.
    public var alreadyMerged: [String]
    public var dryRun: Bool

    /// Near-duplicate facts merged after meeting in the target: the duplicates of
    /// ``factClusters``.
    public var mergedFacts: Int { factClusters.reduce(0) { $0 + $1.duplicates.count } }

    package init(
        target: String, mergedTopics: [String], movedFacts: Int, factClusters: [DuplicateCluster],
        alreadyMerged: [String] = [], dryRun: Bool
    ) {
        self.target = target
        self.mergedTopics = mergedTopics
        self.movedFacts = movedFacts
        self.factClusters = factClusters
        self.alreadyMerged = alreadyMerged
        self.dryRun = dryRun
    }

    private enum CodingKeys: String, CodingKey {
        case target, mergedTopics, movedFacts, mergedFacts, factClusters, alreadyMerged, dryRun
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            target: container.decode(String.self, forKey: .target),
            mergedTopics: container.decode([String].self, forKey: .mergedTopics),
            movedFacts: container.decode(Int.self, forKey: .movedFacts),
            factClusters: container.decodeIfPresent([DuplicateCluster].self, forKey: .factClusters) ?? [],
            alreadyMerged: container.decodeIfPresent([String].self, forKey: .alreadyMerged) ?? [],
            dryRun: container.decode(Bool.self, forKey: .dryRun))
    }

    /// Encodes the stored properties and ``mergedFacts``, the total a script wants.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(target, forKey: .target)
        try container.encode(mergedTopics, forKey: .mergedTopics)
        try container.encode(movedFacts, forKey: .movedFacts)
        try container.encode(mergedFacts, forKey: .mergedFacts)
        try container.encode(factClusters, forKey: .factClusters)
        try container.encode(alreadyMerged, forKey: .alreadyMerged)
        try container.encode(dryRun, forKey: .dryRun)
    }
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
    /// Clusters of near duplicates that met in a merged topic, each folded into its survivor
    /// (shown as it was before the merge).
    public var topicMergeClusters: [DuplicateCluster]
    public var dryRun: Bool

    /// Facts merged into a near duplicate that they met in a merged topic: the duplicates of
    /// ``topicMergeClusters``.
    public var topicMergedFacts: Int { topicMergeClusters.reduce(0) { $0 + $1.duplicates.count } }

    /// Every fact removed (or that the run would remove) by folding it into another: the
    /// duplicates of ``factClusters`` and of ``topicMergeClusters``. The history shows one
    /// `merged_into` event for each.
    public var mergedFacts: Int { factClusters.reduce(0) { $0 + $1.duplicates.count } + topicMergedFacts }

    /// Every cluster merged, those of the topic merges first.
    public var allClusters: [DuplicateCluster] { topicMergeClusters + factClusters }

    package init(
        factClusters: [DuplicateCluster], topicGroups: [TopicVariantGroup], topicMergeClusters: [DuplicateCluster] = [],
        dryRun: Bool
    ) {
        self.factClusters = factClusters
        self.topicGroups = topicGroups
        self.topicMergeClusters = topicMergeClusters
        self.dryRun = dryRun
    }

    private enum CodingKeys: String, CodingKey {
        case factClusters, topicGroups, topicMergeClusters, topicMergedFacts, mergedFacts, dryRun
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            factClusters: container.decode([DuplicateCluster].self, forKey: .factClusters),
            topicGroups: container.decode([TopicVariantGroup].self, forKey: .topicGroups),
            topicMergeClusters: container.decodeIfPresent([DuplicateCluster].self, forKey: .topicMergeClusters) ?? [],
            dryRun: container.decode(Bool.self, forKey: .dryRun))
    }

    /// Encodes the stored properties, ``topicMergedFacts`` and ``mergedFacts``, the totals a
    /// script wants.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(factClusters, forKey: .factClusters)
        try container.encode(topicGroups, forKey: .topicGroups)
        try container.encode(topicMergeClusters, forKey: .topicMergeClusters)
        try container.encode(topicMergedFacts, forKey: .topicMergedFacts)
        try container.encode(mergedFacts, forKey: .mergedFacts)
        try container.encode(dryRun, forKey: .dryRun)
    }
}
