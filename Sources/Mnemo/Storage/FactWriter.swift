import Foundation
import GRDB

/// The one path by which new facts enter the database: exact-duplicate detection, near-duplicate
/// merging, topic creation, insertion and history, inside the caller's transaction.
enum FactWriter {
    enum Outcome: Sendable {
        /// A new fact was stored.
        case added(Fact)
        /// An exact duplicate of a stored fact: its mention count went up.
        case unchanged(Fact)
        /// A near duplicate of a stored fact, merged into it.
        case merged(Fact)

        var fact: Fact {
            switch self {
            case let .added(fact), let .unchanged(fact), let .merged(fact): fact
            }
        }
    }

    /// Stores `fact`, or folds it into the stored fact it duplicates.
    /// - Parameter matcher: finds near duplicates; `nil` when the knowledge base has no embedder.
    static func store(
        _ db: Database, namespace: String, fact: ValidatedFact, now: Date, matcher: inout NearDuplicateMatcher?
    ) throws -> Outcome {
        if let existing = try FactStore.find(db, namespace: namespace, contentKey: fact.contentKey) {
            try FactStore.recordMention(db, of: existing, sources: fact.sources, now: now)
            return .unchanged(try FactStore.require(db, namespace: namespace, id: existing.id))
        }
        if let (survivor, similarity) = try matcher?.match(db, namespace: namespace, fact: fact) {
            return .merged(try FactMerger.absorb(db, fact, into: survivor, similarity: similarity, now: now))
        }
        let topic = try TopicStore.ensure(db, namespace: namespace, path: fact.topicPath, at: now)
        let added = try FactStore.insert(db, namespace: namespace, fact: fact, topic: topic, now: now)
        matcher?.didAdd(added, vector: fact.embedding)
        return .added(added)
    }
}

extension KnowledgeBase {
    /// Writes a batch of validated facts in one transaction: the single write path of `addFact`
    /// and ingestion. Facts must already carry their embeddings (see ``embedBatch(_:)``).
    /// - Parameter rule: how near duplicates are recognised; `nil` merges exact duplicates only.
    func storeBatch(_ facts: [(namespace: String, fact: ValidatedFact)], rule: NearDuplicateRule? = NearDuplicateRule()) async throws -> [FactWriter.Outcome] {
        let snapshot = try await vectorIndex == nil || rule == nil ? nil : vectorStore()
        return try await writer.write { db in
            var matcher = snapshot.map { NearDuplicateMatcher(store: $0, rule: rule!) }
            let now = Date()
            return try facts.map { entry in
                try FactWriter.store(db, namespace: entry.namespace, fact: entry.fact, now: now, matcher: &matcher)
            }
        }
    }

    /// Adds embeddings to facts that lack one, in one call to the embedder.
    func embedBatch(_ facts: [(namespace: String, fact: ValidatedFact)]) async throws -> [(namespace: String, fact: ValidatedFact)] {
        let missing = facts.indices.filter { facts[$0].fact.embedding == nil }
        guard let vectors = try await embed(missing.map { facts[$0].fact.content }) else { return facts }
        var embedded = facts
        for (index, vector) in zip(missing, vectors) { embedded[index].fact.embedding = vector }
        return embedded
    }
}
