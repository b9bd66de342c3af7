/// Counts that describe a namespace's memory.
public struct KnowledgeBaseStats: Hashable, Sendable, Codable {
    /// A topic and how many facts it holds directly.
    public struct TopicSize: Hashable, Sendable, Codable {
        public var path: String
        public var facts: Int
    }

    public var facts: Int
    public var activeFacts: Int
    public var inactiveFacts: Int
    public var topics: Int
    /// The depth of the deepest topic; 0 when there are none.
    public var maxTopicDepth: Int
    /// Facts per type name; every type is present, possibly with 0.
    public var byType: [String: Int]
    /// Facts per importance name; every importance is present, possibly with 0.
    public var byImportance: [String: Int]
    /// The topics with the most facts, largest first (at most 5).
    public var largestTopics: [TopicSize]
}
