import Foundation

/// One recorded change to a fact or topic: the answer to "why does this fact look like this?".
public struct HistoryEvent: Identifiable, Hashable, Sendable, Codable {
    /// What happened.
    public enum Kind: String, CaseIterable, Codable, Sendable {
        case added
        /// The same fact was seen again (exact duplicate); the mention count went up.
        case mentioned
        /// Another fact was merged into this one (see ``Change/merged(content:mergedFactID:similarity:source:)``).
        case merged
        /// This fact was merged into another one and removed (see ``Change/mergedInto(survivorID:content:)``).
        case mergedInto = "merged_into"
        case updated
        case deactivated
        case reactivated
        case deleted
        case topicCreated = "topic_created"
        case topicRenamed = "topic_renamed"
        case topicMoved = "topic_moved"
        case topicMerged = "topic_merged"
        case topicDeleted = "topic_deleted"
    }

    public var id: Int64
    /// The fact concerned, if any.
    public var factID: Int64?
    /// The topic concerned, if any.
    public var topicID: Int64?
    public var kind: Kind
    /// What changed, as stored and as `mnemo history --json` prints it, such as
    /// `"importance": "medium → high"` or `"merged_from": "42"`; ``change`` reads it typed.
    package var details: [String: String]
    public var date: Date
}
