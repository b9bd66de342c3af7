import Foundation

/// A fact whose fields were checked and normalized, ready to store.
struct ValidatedFact: Sendable {
    var content: String
    var contentKey: String
    var topicPath: TopicPath
    var type: FactType
    var importance: Importance
    var confidence: Double
    var sources: [String]
    var createdAt: Date?
    var updatedAt: Date?
    var isActive: Bool
    var mentionCount: Int = 1
    /// An id to reuse when restoring an export into a database where it is free.
    var preferredID: Int64?
    /// The content's unit vector, when the knowledge base has an embedder.
    var embedding: [Float]?

    init(_ fact: NewFact) throws {
        let content = fact.content.trimmingCharacters(in: .whitespacesAndNewlines)
        try Self.validate(content: content)
        try Self.validate(confidence: fact.confidence)
        self.content = content
        self.contentKey = TextNormalization.factKey(content)
        self.topicPath = try TopicPath(fact.topicPath)
        self.type = fact.type
        self.importance = fact.importance
        self.confidence = fact.confidence
        self.sources = fact.sources.filter { !$0.isEmpty }
        self.createdAt = fact.createdAt
        self.updatedAt = fact.updatedAt
        self.isActive = fact.isActive
    }

    static func validate(content: String) throws {
        if content.isEmpty { throw MnemoError.invalidFact("content is empty") }
        if content.count > Fact.maximumContentLength {
            throw MnemoError.invalidFact("content has \(content.count) characters; the maximum is \(Fact.maximumContentLength)")
        }
    }

    static func validate(confidence: Double) throws {
        guard confidence.isFinite, (0...1).contains(confidence) else {
            throw MnemoError.invalidFact("confidence \(confidence) is outside 0…1")
        }
    }
}

extension Fact {
    /// The longest content accepted, in characters. Facts are short statements; anything longer
    /// is almost always a whole document pasted by mistake.
    public static let maximumContentLength = 4_096
}
