import Foundation
import Mnemo

/// A fact as the tools report it; `score` and `similarity` only in search results.
struct FactAnswer: Encodable {
    var id: Int64
    var content: String
    var topic: String
    var type: String
    var importance: String
    var confidence: Double
    var isActive: Bool
    var sources: [String]
    var updatedAt: Date
    var score: Double?
    var similarity: Double?

    init(_ fact: Fact) {
        id = fact.id
        content = fact.content
        topic = fact.topicPath
        type = fact.type.rawValue
        importance = fact.importance.rawValue
        confidence = fact.confidence
        isActive = fact.isActive
        sources = fact.sources
        updatedAt = fact.updatedAt
    }

    init(_ hit: SearchHit) {
        self.init(hit.fact)
        score = hit.score
        similarity = hit.similarity
    }
}

struct SearchAnswer: Encodable {
    var query: String
    var mode: String
    var results: [FactAnswer]
}

struct RememberAnswer: Encodable {
    /// `added`, `merged` or `unchanged`.
    var outcome: String
    var message: String
    var fact: FactAnswer
}

struct TopicAnswer: Encodable {
    var path: String
    var subtopics: [String]
    var facts: [FactAnswer]
}

/// The topic tree as the tools and the resource show it.
struct TopicOutline: Encodable {
    var id: Int64
    var path: String
    var factCount: Int
    var subtreeFactCount: Int
    var children: [TopicOutline]

    init(_ node: TopicNode) {
        id = node.topic.id
        path = node.topic.path
        factCount = node.factCount
        subtreeFactCount = node.subtreeFactCount
        children = node.children.map(TopicOutline.init)
    }
}

/// What the forget tool would erase, before the user confirms.
struct ErasePreview: Encodable {
    var query: String
    var wouldErase: [FactAnswer]
    var message: String
}
