import Foundation
import Mnemo

/// A fact as `mnemo --json` prints it.
struct FactBody: Encodable {
    var id: Int64
    var content: String
    var topic: String
    var topicId: Int64
    var type: String
    var importance: String
    var confidence: Double
    var isActive: Bool
    var sources: [String]
    var mentionCount: Int
    var createdAt: Date
    var updatedAt: Date
    /// When the fact expires; absent when it does not.
    var expiresAt: Date?

    init(_ fact: Fact) {
        id = fact.id
        expiresAt = fact.expiresAt
        content = fact.content
        topic = fact.topicPath
        topicId = fact.topicID
        type = fact.type.rawValue
        importance = fact.importance.rawValue
        confidence = fact.confidence
        isActive = fact.isActive
        sources = fact.sources
        mentionCount = fact.mentionCount
        createdAt = fact.createdAt
        updatedAt = fact.updatedAt
    }
}

/// A node of the topic tree, as `mnemo topics --json` prints it.
struct TopicTreeBody: Encodable {
    var id: Int64
    var name: String
    var path: String
    var factCount: Int
    var subtreeFactCount: Int
    var children: [TopicTreeBody]

    init(_ node: TopicNode) {
        id = node.topic.id
        name = node.topic.name
        path = node.topic.path
        factCount = node.factCount
        subtreeFactCount = node.subtreeFactCount
        children = node.children.map(TopicTreeBody.init)
    }
}

/// One topic with its subtopics (one level) and its facts, as `mnemo topic --json` prints it,
/// with the subtopics as objects so a client can follow their ids.
struct TopicDetailBody: Encodable {
    struct Child: Encodable {
        var id: Int64
        var name: String
        var path: String
        var factCount: Int
        var subtreeFactCount: Int
    }

    var id: Int64
    var name: String
    var path: String
    var parentId: Int64?
    var factCount: Int
    var subtreeFactCount: Int
    var children: [Child]
    /// Facts of the topic and its subtopics, most important and newest first.
    var facts: [FactBody]
}

/// A search hit, as `mnemo search --json` prints it.
struct SearchResultBody: Encodable {
    var id: Int64
    var content: String
    var topic: String
    var topicId: Int64
    var type: String
    var importance: String
    var confidence: Double
    var isActive: Bool
    var score: Double
    var textScore: Double?
    var similarity: Double?
    var snippet: String?

    init(_ hit: SearchHit) {
        id = hit.fact.id
        content = hit.fact.content
        topic = hit.fact.topicPath
        topicId = hit.fact.topicID
        type = hit.fact.type.rawValue
        importance = hit.fact.importance.rawValue
        confidence = hit.fact.confidence
        isActive = hit.fact.isActive
        score = hit.score
        textScore = hit.textScore
        similarity = hit.similarity
        snippet = hit.snippet
    }
}

struct SearchBody: Encodable {
    var query: String
    var mode: String
    var results: [SearchResultBody]
}
