import Foundation

/// A change feed event as every front door writes it (`mnemo watch --json`, `GET /api/events`,
/// `GET /v1/users/{user_id}/changes`): `cursor`, `event` (its kind, such as `fact_added`),
/// `transaction`, `date`, and as they apply `fact_id`, `topic_id`, `related_fact_id`, `fields`
/// (an update's), `fact` (its state now, absent when it no longer exists) and `topic`.
package struct ChangeEventJSON: Encodable, Sendable {
    /// A topic's own fields: `id`, `uid`, `name`, `path`, `parent_id`.
    struct TopicFields: Encodable, Sendable {
        var id: Int64
        var uid: String
        var name: String
        var path: String
        var parentId: Int64?
    }

    var cursor: ChangeCursor
    var event: ChangeEvent.Kind
    var transaction: Int64
    var date: Date
    var factId: Int64?
    var topicId: Int64?
    var relatedFactId: Int64?
    var fields: [String]?
    var fact: FactJSON?
    var topic: TopicFields?

    package init(_ event: ChangeEvent) {
        cursor = event.cursor
        self.event = event.kind
        transaction = event.transaction
        date = event.date
        factId = event.factID
        topicId = event.topicID
        relatedFactId = event.relatedFactID
        fields = event.kind == .factUpdated ? event.fields : nil
        fact = event.fact.map(FactJSON.init)
        topic = event.topic.map {
            TopicFields(id: $0.id, uid: $0.uid, name: $0.name, path: $0.path, parentId: $0.parentID)
        }
    }
}

/// A page of the change feed: `changes`, `next_cursor` (where to continue) and `has_more`.
package struct ChangePageJSON: Encodable, Sendable {
    var changes: [ChangeEventJSON]
    var nextCursor: ChangeCursor
    var hasMore: Bool

    package init(_ page: ChangePage) {
        changes = page.events.map(ChangeEventJSON.init)
        nextCursor = page.next
        hasMore = page.hasMore
    }
}
