import Foundation

/// A fact as every front door writes it: `mnemo … --json`, the MindChat routes and the MCP tools.
///
/// Keys (snake_case through ``Foundation/JSONEncoder/mnemoOutput(pretty:wholeSeconds:)``): `id`,
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
}
