import Foundation

/// A history event as every front door writes it: `id`, `event` (its kind), `details` and `date`.
package struct HistoryEventJSON: Encodable, Sendable {
    var id: Int64
    var event: HistoryEvent.Kind
    var details: [String: String]
    var date: Date

    package init(_ event: HistoryEvent) {
        id = event.id
        self.event = event.kind
        details = event.details
        date = event.date
    }
}

/// A conflict as every front door writes it: `id`, `reason`, `similarity`, `detected_at`, and
/// the `older` and `newer` facts (`id`, `content`, `topic`, `created_at`, `updated_at`).
package struct ConflictJSON: Encodable, Sendable {
    package struct Side: Encodable, Sendable {
        var id: Int64
        var content: String
        var topic: String
        var createdAt: Date
        var updatedAt: Date

        init(_ fact: Fact) {
            id = fact.id
            content = fact.content
            topic = fact.topicPath
            createdAt = fact.createdAt
            updatedAt = fact.updatedAt
        }
    }

    var id: Int64
    var reason: String
    var similarity: Double
    var detectedAt: Date
    var older: Side
    var newer: Side

    package init(_ conflict: FactConflict) {
        id = conflict.id
        reason = conflict.reason
        similarity = conflict.similarity
        detectedAt = conflict.detectedAt
        older = Side(conflict.older)
        newer = Side(conflict.newer)
    }
}
