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
        try store(db, batch: [(namespace, fact)], now: now)[0]
    }

    /// Stores facts as if one after the other, inside the caller's transaction, and returns each
    /// one's outcome in order.
    ///
    /// A fact whose normalized content is already stored in its namespace, or appears earlier in
    /// the batch, is not stored again: that fact's mention count goes up and its sources grow.
    /// The new facts are inserted together at the end (see ``FactStore/insert(_:_:now:)`` for
    /// why), then the mentions of new facts by later ones are counted.
    static func store(_ db: Database, batch: [PendingFact], now: Date) throws -> [Outcome] {
        var topics = TopicCache()
        var outcomes = [Outcome?](repeating: nil, count: batch.count)
        var insertions: [FactStore.Insertion] = []
        var insertionBatchIndex: [Int] = []
        var insertionByKey: [String: Int] = [:]
        var mentionsOfNew: [(batchIndex: Int, insertion: Int)] = []
        let storedIDs = try storedIDs(db, batch)

        for (index, (namespace, fact)) in batch.enumerated() {
            let key = namespace + "\u{1F}" + fact.contentKey
            if let earlier = insertionByKey[key] {
                mentionsOfNew.append((index, earlier))
            } else if let id = storedIDs[key] {
                let existing = try FactStore.require(db, namespace: namespace, id: id)
                try FactStore.recordMention(db, of: existing, sources: fact.sources, now: now)
                outcomes[index] = .unchanged(try FactStore.require(db, namespace: namespace, id: id))
            } else {
                let topic = try topics.topic(db, namespace: namespace, path: fact.topicPath, now: now)
                insertionByKey[key] = insertions.count
                insertions.append(FactStore.Insertion(namespace: namespace, fact: fact, topic: topic))
                insertionBatchIndex.append(index)
            }
        }

        let inserted = try FactStore.insert(db, insertions, now: now)
        for (fact, index) in zip(inserted, insertionBatchIndex) {
            outcomes[index] = .added(fact)
        }
        for (index, insertion) in mentionsOfNew {
            let fact = inserted[insertion]
            let current = try FactStore.require(db, namespace: fact.namespace, id: fact.id)
            try FactStore.recordMention(db, of: current, sources: batch[index].fact.sources, now: now)
            outcomes[index] = .unchanged(try FactStore.require(db, namespace: fact.namespace, id: fact.id))
        }
        return outcomes.map { $0! }
    }

    /// The ids of stored facts with the same normalized content as facts of the batch, keyed by
    /// namespace and content key.
    private static func storedIDs(_ db: Database, _ batch: [PendingFact]) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for (namespace, facts) in Dictionary(grouping: batch, by: \.namespace) {
            for (key, id) in try FactStore.ids(db, namespace: namespace, contentKeys: facts.map(\.fact.contentKey)) {
                ids[namespace + "\u{1F}" + key] = id
            }
        }
        return ids
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
