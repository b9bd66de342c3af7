import Foundation

/// A node of a namespace's topic tree.
public struct Topic: Identifiable, Hashable, Sendable, Codable {
    public var id: Int64
    /// The topic's identity on every replica of its namespace (see ``Fact/uid``).
    public var uid: String
    public var namespace: String
    /// The parent topic, or `nil` for a top-level topic.
    public var parentID: Int64?
    /// The display name: the first-seen spelling of the segment.
    public var name: String
    /// The display path from the root, such as `Technology/iOS Development`.
    public var path: String
    /// 1 for a top-level topic.
    public var depth: Int
    public var createdAt: Date
}

/// A topic with its direct fact count and its children: one level of ``KnowledgeBase/topicTree()``.
public struct TopicNode: Hashable, Sendable, Codable {
    public var topic: Topic
    /// Facts directly in this topic (active and inactive).
    public var factCount: Int
    /// Facts in this topic and all its descendants.
    public var subtreeFactCount: Int
    public var children: [TopicNode]
}
