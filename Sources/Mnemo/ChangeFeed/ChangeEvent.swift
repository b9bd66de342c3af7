import Foundation

/// One change in a namespace's memory, as its change feed reports it.
///
/// An event names what happened and to which fact or topic, and carries that fact's or topic's
/// state **as it is when the event is read**: a follower that applies every event in order (put
/// ``fact`` by ``factID`` when present, remove the fact when it is `nil`) ends with the memory as
/// it is. An erasure carries the fact's id and the time only; the erased content is in no event.
public struct ChangeEvent: Hashable, Sendable {
    /// What happened.
    public enum Kind: String, CaseIterable, Sendable, Codable {
        case factAdded = "fact_added"
        /// The same fact was stated again: its mention count and sources changed.
        case factMentioned = "fact_mentioned"
        /// Another fact was merged into this one (``ChangeEvent/relatedFactID`` is the other).
        case factMerged = "fact_merged"
        /// This fact was merged into another (``ChangeEvent/relatedFactID``) and is gone.
        case factMergedInto = "fact_merged_into"
        /// Fields of the fact changed (``ChangeEvent/fields`` names them).
        case factUpdated = "fact_updated"
        case factDeactivated = "fact_deactivated"
        case factReactivated = "fact_reactivated"
        case factDeleted = "fact_deleted"
        /// An undo brought the fact back, or back to its earlier state.
        case factRestored = "fact_restored"
        /// The fact was erased for good.
        case factErased = "fact_erased"
        case topicCreated = "topic_created"
        case topicRenamed = "topic_renamed"
        case topicMoved = "topic_moved"
        case topicMerged = "topic_merged"
        case topicDeleted = "topic_deleted"
        /// An undo brought the topic back, or back to its earlier place.
        case topicRestored = "topic_restored"
        /// Two facts disagree: ``ChangeEvent/factID`` is the newer, ``ChangeEvent/relatedFactID``
        /// the older.
        case conflictFound = "conflict_found"
        /// A conflict was settled keeping both facts: ``ChangeEvent/factID`` is the newer,
        /// ``ChangeEvent/relatedFactID`` the older, and neither changed.
        case conflictDismissed = "conflict_dismissed"
        /// The whole namespace was erased: a follower empties its copy.
        case namespaceErased = "namespace_erased"

        /// Whether the event is about a topic (the tree changed) rather than facts.
        public var concernsTopics: Bool { rawValue.hasPrefix("topic_") }
    }

    public var kind: Kind
    /// The feed's position just after this event.
    public var cursor: ChangeCursor
    /// The number shared by the events of one transaction: they come together, in one page.
    public var transaction: Int64
    /// When the change was made.
    public var date: Date
    /// The fact concerned, if any.
    public var factID: Int64?
    /// The topic concerned, if any.
    public var topicID: Int64?
    /// The other fact of a merge or a conflict.
    public var relatedFactID: Int64?
    /// The fields an update changed (`content`, `importance`, `topic`…); empty for other kinds.
    public var fields: [String]
    /// The fact as it is now, or `nil` when it no longer exists (deleted, merged away, erased).
    public var fact: Fact?
    /// The topic as it is now, or `nil` when it no longer exists.
    public var topic: Topic?
}

/// A page of a namespace's change feed (``KnowledgeBase/changes(after:limit:)``).
public struct ChangePage: Sendable {
    /// The events after the cursor asked for, oldest first; whole transactions only.
    public var events: [ChangeEvent]
    /// Where to continue: after the last event of the page, or the cursor asked for when the
    /// page is empty.
    public var next: ChangeCursor
    /// Whether more events were already waiting beyond this page.
    public var hasMore: Bool
    /// The number a page shared by several followers goes by in this process, so that what is
    /// made of it (a server's encoding) can be shared too; `nil` for a page of its own.
    package var sharedNumber: Int?
}

/// A namespace's memory and the feed position it reflects, read in one transaction
/// (``KnowledgeBase/snapshot()``): follow the feed from ``cursor`` and nothing falls between.
public struct MemorySnapshot: Sendable {
    /// Every fact of the namespace, active and inactive, by id.
    public var facts: [Fact]
    /// The topic tree.
    public var topics: [TopicNode]
    public var cursor: ChangeCursor
}
