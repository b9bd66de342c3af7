import Foundation
import Hummingbird
import Mnemo

/// A fact as the Lucid client decodes it (`id` a string, `user_id`, `category`, ISO 8601
/// dates), with Mnemo's other fields after it.
struct LucidFact: WrittenJSONResponse, Encodable {
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

    private enum CodingKeys: String, CodingKey {
        case id, uid, content, category, confidence, topic, type, importance, sources, status, progress
        case userId = "user_id"
        case isActive = "is_active"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case mentionCount = "mention_count"
        case expiresAt = "expires_at"
        case targetDate = "target_date"
        case completedAt = "completed_at"
    }
}

extension LucidFact {
    static let jsonFields = JSONOutput.Fields<LucidFact>([
        JSONOutput.Field(CodingKeys.id) { $0.id },
        JSONOutput.Field(CodingKeys.uid) { $0.uid },
        JSONOutput.Field(CodingKeys.userId) { $0.userId },
        JSONOutput.Field(CodingKeys.content) { $0.content },
        JSONOutput.Field(CodingKeys.category, ifPresent: { $0.category }),
        JSONOutput.Field(CodingKeys.confidence) { $0.confidence },
        JSONOutput.Field(CodingKeys.isActive) { $0.isActive },
        JSONOutput.Field(CodingKeys.createdAt) { $0.createdAt },
        JSONOutput.Field(CodingKeys.updatedAt) { $0.updatedAt },
        JSONOutput.Field(CodingKeys.topic) { $0.topic },
        JSONOutput.Field(CodingKeys.type) { $0.type },
        JSONOutput.Field(CodingKeys.importance) { $0.importance },
        JSONOutput.Field(CodingKeys.sources) { $0.sources },
        JSONOutput.Field(CodingKeys.mentionCount) { $0.mentionCount },
        JSONOutput.Field(CodingKeys.expiresAt, ifPresent: { $0.expiresAt }),
        JSONOutput.Field(CodingKeys.status, ifPresent: { $0.status }),
        JSONOutput.Field(CodingKeys.progress, ifPresent: { $0.progress }),
        JSONOutput.Field(CodingKeys.targetDate, ifPresent: { $0.targetDate }),
        JSONOutput.Field(CodingKeys.completedAt, ifPresent: { $0.completedAt }),
    ])
}

struct LucidFactList: WrittenJSONResponse, Encodable {
    var facts: [LucidFact]
    var count: Int
    var limit: Int
    var offset: Int

    private enum CodingKeys: String, CodingKey {
        case facts, count, limit, offset
    }

    static let jsonFields = JSONOutput.Fields<LucidFactList>([
        JSONOutput.Field(CodingKeys.facts) { $0.facts },
        JSONOutput.Field(CodingKeys.count) { $0.count },
        JSONOutput.Field(CodingKeys.limit) { $0.limit },
        JSONOutput.Field(CodingKeys.offset) { $0.offset },
    ])
}

struct LucidSearchResponse: WrittenJSONResponse, Encodable {
    struct Result: Encodable, JSONObjectWritable {
        var fact: LucidFact
        /// The cosine similarity to the query; 0 for a text-mode hit, whose similarity is not computed.
        var similarity: Double
        /// The score the results are ordered by (the similarity in semantic mode).
        var score: Double

        private enum CodingKeys: String, CodingKey {
            case fact, similarity, score
        }

        static let jsonFields = JSONOutput.Fields<Result>([
            JSONOutput.Field(CodingKeys.fact) { $0.fact },
            JSONOutput.Field(CodingKeys.similarity) { $0.similarity },
            JSONOutput.Field(CodingKeys.score) { $0.score },
        ])
    }

    var results: [Result]
    var count: Int
    var query: String
    var mode: String

    private enum CodingKeys: String, CodingKey {
        case results, count, query, mode
    }

    static let jsonFields = JSONOutput.Fields<LucidSearchResponse>([
        JSONOutput.Field(CodingKeys.results) { $0.results },
        JSONOutput.Field(CodingKeys.count) { $0.count },
        JSONOutput.Field(CodingKeys.query) { $0.query },
        JSONOutput.Field(CodingKeys.mode) { $0.mode },
    ])
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
