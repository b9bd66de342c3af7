import Foundation

/// A fact as every front door writes it: `mnemo … --json`, the MindChat routes and the MCP tools.
///
/// Keys (its `CodingKeys`, which ``JSONOutput.Fields`` share): `id`,
/// `uid` (its identity on every replica), `content`, `topic`, `topic_id`, `type`, `importance`, `confidence`, `is_active`, `sources`,
/// `mention_count`, `created_at`, `updated_at`, `expires_at` when the fact expires, and for a goal
/// `status`, `progress`, `target_date` when it has one and `completed_at` when it is completed. Lucid's `Fact` keeps a shape of its own (a
/// string `id`, `user_id`, `category`): that is the app's contract.
package struct FactJSON: Encodable, Sendable {
    var id: Int64
    var uid: String
    var content: String
    var topic: String
    var topicId: Int64
    var type: FactType
    var importance: Importance
    var confidence: Double
    var isActive: Bool
    var sources: [String]
    var mentionCount: Int
    var createdAt: Date
    var updatedAt: Date
    /// When the fact expires; absent when it does not.
    var expiresAt: Date?
    /// A goal's fields; absent for other types.
    var status: GoalStatus?
    var progress: Double?
    var targetDate: Date?
    var completedAt: Date?

    package init(_ fact: Fact) {
        id = fact.id
        uid = fact.uid
        content = fact.content
        topic = fact.topicPath
        topicId = fact.topicID
        type = fact.type
        importance = fact.importance
        confidence = fact.confidence
        isActive = fact.isActive
        sources = fact.sources
        mentionCount = fact.mentionCount
        createdAt = fact.createdAt
        updatedAt = fact.updatedAt
        expiresAt = fact.expiresAt
        status = fact.status
        progress = fact.progress
        targetDate = fact.targetDate
        completedAt = fact.completedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, uid, content, topic, type, importance, confidence, sources, status, progress
        case topicId = "topic_id"
        case isActive = "is_active"
        case mentionCount = "mention_count"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case expiresAt = "expires_at"
        case targetDate = "target_date"
        case completedAt = "completed_at"
    }
}

extension FactJSON: JSONObjectWritable {
    package static let jsonFields = JSONOutput.Fields<FactJSON>([
        JSONOutput.Field(CodingKeys.id) { $0.id },
        JSONOutput.Field(CodingKeys.uid) { $0.uid },
        JSONOutput.Field(CodingKeys.content) { $0.content },
        JSONOutput.Field(CodingKeys.topic) { $0.topic },
        JSONOutput.Field(CodingKeys.topicId) { $0.topicId },
        JSONOutput.Field(CodingKeys.type) { $0.type },
        JSONOutput.Field(CodingKeys.importance) { $0.importance },
        JSONOutput.Field(CodingKeys.confidence) { $0.confidence },
        JSONOutput.Field(CodingKeys.isActive) { $0.isActive },
        JSONOutput.Field(CodingKeys.sources) { $0.sources },
        JSONOutput.Field(CodingKeys.mentionCount) { $0.mentionCount },
        JSONOutput.Field(CodingKeys.createdAt) { $0.createdAt },
        JSONOutput.Field(CodingKeys.updatedAt) { $0.updatedAt },
        JSONOutput.Field(CodingKeys.expiresAt, ifPresent: { $0.expiresAt }),
        JSONOutput.Field(CodingKeys.status, ifPresent: { $0.status }),
        JSONOutput.Field(CodingKeys.progress, ifPresent: { $0.progress }),
        JSONOutput.Field(CodingKeys.targetDate, ifPresent: { $0.targetDate }),
        JSONOutput.Field(CodingKeys.completedAt, ifPresent: { $0.completedAt }),
    ])
}
