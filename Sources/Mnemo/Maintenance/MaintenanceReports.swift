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
    public var factClusters: [DuplicateCluster]
    public var topicGroups: [TopicVariantGroup]
    public var dryRun: Bool

    /// Facts removed (or that a merge would remove) by folding them into their cluster's survivor.
    public var mergedFacts: Int { factClusters.reduce(0) { $0 + $1.duplicates.count } }
}
