import Foundation

/// A memory context (``MemoryContext``) as every front door writes it:
/// `{"context", "tokens", "budget", "nothing_relevant", "items": [item, …]}`.
package struct MemoryContextJSON: Encodable, Sendable {
    var context: String
    var tokens: Int
    var budget: Int
    var nothingRelevant: Bool
    var items: [ContextItemJSON]

    package init(_ memory: MemoryContext) {
        context = memory.text
        tokens = memory.tokens
        budget = memory.budget
        nothingRelevant = memory.nothingRelevant
        items = memory.items.map(ContextItemJSON.init)
    }
}

/// One item of a context: `id`, `content`, `topic`, `type`, `importance`, `created_at` (the date
/// it was stated), `why` (`always`, `relevant`, `recent` or `conflict`), `score` (its relevance,
/// `null` when not computed), `tokens` (its line's cost) and `conflicts_with`; for a goal also
/// `status`, `progress`, and `target_date` and `completed_at` when it has them.
package struct ContextItemJSON: Encodable, Sendable {
    var id: Int64
    var content: String
    var topic: String
    var type: FactType
    var importance: Importance
    var createdAt: Date
    var why: ContextItem.Reason
    var score: Double?
    var tokens: Int
    var conflictsWith: [Int64]
    var status: GoalStatus?
    var progress: Double?
    var targetDate: Date?
    var completedAt: Date?

    package init(_ item: ContextItem) {
        id = item.fact.id
        content = item.fact.content
        topic = item.fact.topicPath
        type = item.fact.type
        status = item.fact.status
        progress = item.fact.progress
        targetDate = item.fact.targetDate
        completedAt = item.fact.completedAt
        importance = item.fact.importance
        createdAt = item.fact.createdAt
        why = item.reason
        score = item.score.map { ($0 * 1000).rounded() / 1000 }
        tokens = item.tokens
        conflictsWith = item.conflictsWith
    }

    private enum CodingKeys: String, CodingKey {
        case id, content, topic, type, importance, createdAt, why, score, tokens, conflictsWith
    }

    /// `score` is written as `null` rather than left out, so every item has the same keys.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(content, forKey: .content)
        try container.encode(topic, forKey: .topic)
        try container.encode(type, forKey: .type)
        try container.encode(importance, forKey: .importance)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(why, forKey: .why)
        try container.encode(score, forKey: .score)
        try container.encode(tokens, forKey: .tokens)
        try container.encode(conflictsWith, forKey: .conflictsWith)
    }
}

/// A period's context (``PeriodContext``) as every front door writes it: `{"since", "until",
/// "active_goals": context, "completed_goals": context, "experiences": context}`, each context
/// shaped as ``MemoryContextJSON``.
package struct PeriodContextJSON: Encodable, Sendable {
    var since: Date
    var until: Date
    var activeGoals: MemoryContextJSON
    var completedGoals: MemoryContextJSON
    var experiences: MemoryContextJSON

    package init(_ period: PeriodContext) {
        since = period.since
        until = period.until
        activeGoals = MemoryContextJSON(period.activeGoals)
        completedGoals = MemoryContextJSON(period.completedGoals)
        experiences = MemoryContextJSON(period.experiences)
    }
}
