import Foundation
import Hummingbird
import Mnemo

/// A fact as the Lucid client decodes it (`id` a string, `user_id`, `category`, ISO 8601
/// dates), with Mnemo's other fields after it.
struct LucidFact: ResponseEncodable {
    var id: String
    /// The fact's identity on every replica (``Fact/uid``); `id` stays the number the routes take.
    var uid: String
    var userId: String
    var content: String
    /// The fact's topic path; an extracted fact's category becomes its topic (`profession` →
    /// `Profession`).
    var category: String?
    var confidence: Double
    var isActive: Bool
    var createdAt: Date
    var updatedAt: Date
    var topic: String
    var type: String
    var importance: String
    var sources: [String]
    var mentionCount: Int
    /// When the fact expires; absent when it does not.
    var expiresAt: Date?
    /// A goal's fields; absent for other types.
    var status: String?
    var progress: Double?
    var targetDate: Date?
    var completedAt: Date?

    init(_ fact: Fact) {
        id = String(fact.id)
        uid = fact.uid
        expiresAt = fact.expiresAt
        status = fact.status?.rawValue
        progress = fact.progress
        targetDate = fact.targetDate
        completedAt = fact.completedAt
        userId = fact.namespace
        content = fact.content
        category = fact.topicPath
        confidence = fact.confidence
        isActive = fact.isActive
        createdAt = fact.createdAt
        updatedAt = fact.updatedAt
        topic = fact.topicPath
        type = fact.type.rawValue
        importance = fact.importance.rawValue
        sources = fact.sources
        mentionCount = fact.mentionCount
    }
}

struct LucidFactList: ResponseEncodable {
    var facts: [LucidFact]
    var count: Int
    var limit: Int
    var offset: Int
}

struct LucidSearchResponse: ResponseEncodable {
    struct Result: Encodable {
        var fact: LucidFact
        /// The cosine similarity to the query; 0 for a text-mode hit, whose similarity is not computed.
        var similarity: Double
        /// The score the results are ordered by (the similarity in semantic mode).
        var score: Double
    }

    var results: [Result]
    var count: Int
    var query: String
    var mode: String
}

struct LucidExtractResponse: ResponseEncodable {
    /// The records as the request sent them.
    var extracted: JSONValue
    /// Facts stored as new.
    var created: [LucidFact]
    /// Stored facts that records repeated or were merged into (their mention count went up).
    var updated: [LucidFact]
    /// The number of facts created.
    var count: Int
    var message: String
    /// The ids of the stored facts deleted to make room for the created ones, when the server
    /// evicts at its fact limit (`mnemo serve --fact-limit-policy evict`); left out when none.
    var evicted: [String]?
}
