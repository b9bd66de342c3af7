import Foundation
import Mnemo

/// The JSON shape of one fact in CLI output.
struct FactOutput: Encodable {
    var id: Int64
    var content: String
    var topic: String
    var type: String
    var importance: String
    var confidence: Double
    var isActive: Bool
    var sources: [String]
    var mentionCount: Int
    var createdAt: Date
    var updatedAt: Date
    var expiresAt: Date?

    init(_ fact: Fact) {
        id = fact.id
        content = fact.content
        topic = fact.topicPath
        type = fact.type.rawValue
        importance = fact.importance.rawValue
        confidence = fact.confidence
        isActive = fact.isActive
        sources = fact.sources
        mentionCount = fact.mentionCount
        createdAt = fact.createdAt
        updatedAt = fact.updatedAt
        expiresAt = fact.expiresAt
    }

    /// One line: id, content and the facets a reader scans for.
    static func line(_ fact: Fact) -> String {
        let state = fact.isActive ? "" : " · inactive"
        return "#\(fact.id)  \(fact.content)  [\(fact.type.rawValue), \(fact.importance.rawValue)\(state)]"
    }

    /// Every field, one per line.
    static func details(_ fact: Fact) -> String {
        """
        #\(fact.id)  \(fact.content)
          topic       \(fact.topicPath)
          type        \(fact.type.rawValue)
          importance  \(fact.importance.rawValue)
          confidence  \(fact.confidence)
          active      \(fact.isActive ? "yes" : "no")
          sources     \(fact.sources.isEmpty ? "–" : fact.sources.joined(separator: ", "))
          mentions    \(fact.mentionCount)
          created     \(Timestamp.format(fact.createdAt))
          updated     \(Timestamp.format(fact.updatedAt))
        """ + (fact.expiresAt.map { "\n  expires     \(Timestamp.format($0))" } ?? "")
    }
}
