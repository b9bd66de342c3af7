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
    var expiresAt: Date?
    var status: GoalStatus?
    var progress: Double?
    var targetDate: Date?
    /// Set for a completed goal; when the fact gave none, its ``updatedAt`` or ``createdAt``,
    /// else the time it is stored.
    var completedAt: Date?
    var mentionCount: Int = 1
    /// An id to reuse when restoring an export into a database where it is free.
    var preferredID: Int64?
    /// The ``Fact/uid`` to keep (an export's, a synced device's) when the namespace holds no
    /// fact with it; a new one otherwise.
    var uid: String?
    /// The content's unit vector, when the knowledge base has an embedder.
    var embedding: [Float]?

    init(_ fact: NewFact) throws(MnemoError) {
        let content = try Self.validate(content: fact.content)
        try Self.validate(confidence: fact.confidence)
        try GoalFields.validate(
            type: fact.type, status: fact.status, progress: fact.progress, targetDate: fact.targetDate,
            completedAt: fact.completedAt)
        self.content = content
        self.contentKey = TextNormalization.factKey(content)
        self.topicPath = fact.topicPath
        self.type = fact.type
        self.importance = fact.importance
        self.confidence = fact.confidence
        self.sources = fact.sources.filter { !$0.isEmpty }
        self.createdAt = fact.createdAt
        self.updatedAt = fact.updatedAt
        self.isActive = fact.isActive
        self.expiresAt = fact.expiresAt
        if fact.type == .goal {
            let status = fact.status ?? .active
            self.status = status
            self.progress = fact.progress ?? (status == .completed ? 1 : 0)
            self.targetDate = fact.targetDate
            self.completedAt = status == .completed ? fact.completedAt ?? fact.updatedAt ?? fact.createdAt : nil
        }
    }

    /// The trimmed content, checked by ``FactContent``.
    static func validate(content: String) throws(MnemoError) -> String {
        do {
            return try FactContent.validated(content)
        } catch {
            throw error.mnemoError
        }
    }

    static func validate(confidence: Double) throws(MnemoError) {
        do {
            try FactContent.validate(confidence: confidence)
        } catch {
            throw error.mnemoError
        }
    }
}

extension Fact {
    /// The longest content accepted, in characters. Facts are short statements; anything longer
    /// is almost always a whole document pasted by mistake.
    public static let maximumContentLength = 4_096
}
