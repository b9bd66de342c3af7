import Foundation
import GRDB

/// The one path by which new facts enter the database: exact-duplicate detection, topic
/// creation, insertion and history, inside the caller's transaction.
enum FactWriter {
    enum Outcome: Sendable {
        /// A new fact was stored.
        case added(Fact)
        /// An exact duplicate of a stored fact: its mention count went up.
        case unchanged(Fact)

        var fact: Fact {
            switch self {
            case let .added(fact), let .unchanged(fact): fact
            }
        }
    }

    static func store(_ db: Database, namespace: String, fact: ValidatedFact, now: Date) throws -> Outcome {
        var topics = TopicCache()
        return try store(db, namespace: namespace, fact: fact, now: now, topics: &topics)
    }

    /// Stores a fact, resolving its topic through `topics`, the transaction's cache.
    static func store(_ db: Database, namespace: String, fact: ValidatedFact, now: Date, topics: inout TopicCache) throws -> Outcome {
        if let existing = try FactStore.find(db, namespace: namespace, contentKey: fact.contentKey) {
            try FactStore.recordMention(db, of: existing, sources: fact.sources, now: now)
            return .unchanged(try FactStore.require(db, namespace: namespace, id: existing.id))
        }
        let topic = try topics.topic(db, namespace: namespace, path: fact.topicPath, now: now)
        return .added(try FactStore.insert(db, namespace: namespace, fact: fact, topic: topic, now: now))
    }

    /// Stores facts in order, inside the caller's transaction; a fact may duplicate an earlier
    /// one of the same batch, which then counts as `unchanged`.
    static func store(_ db: Database, batch: [PendingFact], now: Date) throws -> [Outcome] {
        var topics = TopicCache()
        return try batch.map { try store(db, namespace: $0.namespace, fact: $0.fact, now: now, topics: &topics) }
    }
}

/// Topics already found or created in the current transaction, so that a batch of facts looks
/// each topic path up once. Valid for one transaction only: a rollback would leave it stale.
struct TopicCache {
    private var topics: [String: Topic] = [:]

    mutating func topic(_ db: Database, namespace: String, path: TopicPath, now: Date) throws -> Topic {
        // The display path is a cheap key; two spellings of one topic simply take two entries.
        let key = namespace + "\u{1F}" + path.description
        if let topic = topics[key] { return topic }
        let topic = try TopicStore.ensure(db, namespace: namespace, path: path, at: now)
        topics[key] = topic
        return topic
    }
}
