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
        if let existing = try FactStore.find(db, namespace: namespace, contentKey: fact.contentKey) {
            try FactStore.recordMention(db, of: existing, sources: fact.sources, now: now)
            return .unchanged(try FactStore.require(db, namespace: namespace, id: existing.id))
        }
        let topic = try TopicStore.ensure(db, namespace: namespace, path: fact.topicPath, at: now)
        return .added(try FactStore.insert(db, namespace: namespace, fact: fact, topic: topic, now: now))
    }
}
