import Foundation

/// One entry of the operation log: a change to the knowledge base that ``KnowledgeBase/undo(_:)``
/// can revert, or an undo.
public struct OperationRecord: Identifiable, Hashable, Sendable, Codable {
    /// What kind of change an operation made.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// ``KnowledgeBase/mergeTopics(_:into:dryRun:)``.
        case mergeTopics = "merge_topics"
        /// ``KnowledgeBase/dedupe(rule:dryRun:)``.
        case dedupe
        /// A near duplicate merged into a stored fact when it was added or ingested.
        case ingestMerge = "ingest_merge"
        /// ``KnowledgeBase/updateFact(id:_:)``.
        case updateFact = "update_fact"
        case deactivateFact = "deactivate_fact"
        case reactivateFact = "reactivate_fact"
        case deleteFact = "delete_fact"
        /// ``KnowledgeBase/deleteTopic(_:cascade:)``: the topic, its subtopics and their facts.
        case deleteTopic = "delete_topic"
        /// ``KnowledgeBase/dismissConflict(id:)``: both facts kept, their conflict settled.
        case dismissConflict = "dismiss_conflict"
        /// An undo of another operation (itself undoable, which redoes it).
        case undo
    }

    public var id: Int64
    public var kind: Kind
    /// A one-line description: "merged Fitness into Health & Fitness", "deleted fact #12".
    public var summary: String
    public var date: Date
    /// How many rows (facts, topics, vectors, history events, conflicts) the operation changed.
    public var changedRows: Int
    /// For an undo, the operation it reverted.
    public var revertedOperationID: Int64?
    /// The undo that reverted this operation, if any.
    public var undoneBy: Int64?
}
