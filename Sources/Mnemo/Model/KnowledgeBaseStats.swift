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
    /// Facts per type; every type is present, possibly with 0. (JSON: an object keyed by the
    /// type's name.)
    public var byType: [FactType: Int]
    /// Facts per importance; every importance is present, possibly with 0. (JSON: an object
    /// keyed by the importance's name, `none` included.)
    public var byImportance: [Importance: Int]
    /// The topics with the most facts, largest first (at most 5).
    public var largestTopics: [TopicSize]
}
