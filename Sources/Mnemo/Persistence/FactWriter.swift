import Foundation
import GRDB

/// The one path by which new facts enter the database: exact-duplicate detection, near-duplicate
/// merging, topic creation, insertion and history, inside the caller's transaction.
enum FactWriter {
    typealias Outcome = AddFactOutcome

    /// Stores facts as if one after the other, inside the caller's transaction, and returns each
    /// one's outcome in order.
    ///
    /// A fact whose normalized content is already stored in its namespace, or was added earlier
    /// in the batch, is not stored again: that fact's mention count goes up and its sources grow.
    /// Otherwise a near duplicate found by `matcher` absorbs it. Otherwise it is added: new facts
    /// are queued and inserted many at a time (see ``FactTable/InsertQueue``), as soon as a later
    /// fact needs to read them and at the end of the batch.
    /// - Parameter matcher: finds near duplicates; `nil` when the knowledge base has no embedder.
    static func store(
        _ db: Database, batch: [PendingFact], now: Date, matcher: inout NearDuplicateMatcher?
    ) throws -> [Outcome] {
        var topics = TopicCache()
        var queue = FactTable.InsertQueue()
        let storedIDs = try storedIDs(db, batch)
        var addedIDs: [String: Int64] = [:]
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(batch.count)
        var conflicts = PendingConflicts()
        for (namespace, fact) in batch {
            let key = namespace + "\u{1F}" + fact.contentKey
            if let id = storedIDs[key] ?? addedIDs[key] {
                if queue.contains(id) { try queue.flush(db, now: now) }
                let existing = try FactTable.require(db, namespace: namespace, id: id)
                try FactTable.recordMention(db, of: existing, sources: fact.sources, now: now)
                outcomes.append(.unchanged(try FactTable.require(db, namespace: namespace, id: id)))
                continue
            }
            let judgement = try matcher?.judge(db, namespace: namespace, fact: fact)
            if let (match, similarity) = judgement?.duplicate {
                // A fact added in this batch may be queued, or have changed since it was added.
                if queue.contains(match.id) { try queue.flush(db, now: now) }
                let survivor = try FactTable.require(db, namespace: namespace, id: match.id)
                let summary = "merged \"\(fact.content)\" into fact #\(survivor.id)"
                outcomes.append(
                    .merged(
                        into: try OperationLog.record(db, namespace: namespace, kind: .ingestMerge, summary: summary) {
                            try FactMerger.absorb(db, fact, into: survivor, similarity: similarity, now: now)
                        }))
                continue
            }
            let topic = try topics.topic(db, namespace: namespace, path: fact.topicPath, now: now)
            let added = try queue.enqueue(db, namespace: namespace, fact: fact, topic: topic, now: now)
            addedIDs[key] = added.id
            matcher?.didAdd(added, vector: fact.embedding)
            conflicts.note(added, judgement)
            outcomes.append(.added(added))
        }
        try queue.flush(db, now: now)
        try conflicts.write(db, now: now)
        return outcomes
    }

    /// The ids of facts stored before the batch with the same normalized content as one of its
    /// facts, keyed by namespace and content key: one query per few hundred facts.
    private static func storedIDs(_ db: Database, _ batch: [PendingFact]) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for (namespace, facts) in Dictionary(grouping: batch, by: \.namespace) {
            for (key, id) in try FactTable.ids(db, namespace: namespace, contentKeys: facts.map(\.fact.contentKey)) {
                ids[namespace + "\u{1F}" + key] = id
            }
        }
        return ids
    }
}

extension KnowledgeBase {
    /// Writes a batch of validated facts in one transaction: the single write path of `addFact`
    /// and ingestion. Facts must already carry their embeddings (see ``embedBatch(_:)``).
    /// - Parameter rule: how near duplicates are recognised; `nil` merges exact duplicates only.
    func storeBatch(_ facts: [(namespace: String, fact: ValidatedFact)], rule: NearDuplicateRule? = NearDuplicateRule())
        async throws -> [FactWriter.Outcome]
    {
        try Task.checkCancellation()
        let vectorIndex = rule == nil ? nil : vectorIndex
        let now = now
        return try await writer.write { db in
            // The near-duplicate check reads the index as of this transaction, so that a fact
            // committed by another task or process just before is found as a sequential add would.
            var matcher = try vectorIndex.map { NearDuplicateMatcher(store: try $0.snapshot(in: db), rule: rule!) }
            return try FactWriter.store(db, batch: facts, now: now, matcher: &matcher)
        }
    }

    /// Adds embeddings to facts that lack one, ``embeddingChunkSize`` texts per call to the
    /// embedder, checking between calls whether the task was cancelled (then it throws
    /// `CancellationError` rather than encode texts nobody will store).
    func embedBatch(_ facts: [(namespace: String, fact: ValidatedFact)]) async throws -> [(
        namespace: String, fact: ValidatedFact
    )] {
        guard embedder != nil else { return facts }
        let missing = facts.indices.filter { facts[$0].fact.embedding == nil }
        var embedded = facts
        for chunk in missing.chunked(into: Self.embeddingChunkSize) {
            try Task.checkCancellation()
            guard let vectors = try await embed(chunk.map { facts[$0].fact.content }) else { break }
            for (index, vector) in zip(chunk, vectors) { embedded[index].fact.embedding = vector }
        }
        return embedded
    }

    /// Texts per call to the embedder: large enough for its own batching (the sentence
    /// encoder runs 32 at a time and checks for cancellation between its batches), small enough
    /// that an embedder which does not check is stopped within a second or two.
    static let embeddingChunkSize = 128
}

/// Topics already found or created in the current transaction, so that a batch of facts looks
/// each topic path up once. Valid for one transaction only: a rollback would leave it stale.
struct TopicCache {
    private var topics: [String: Topic] = [:]

    mutating func topic(_ db: Database, namespace: String, path: TopicPath, now: Date) throws -> Topic {
        // The display path is a cheap key; two spellings of one topic simply take two entries.
        let key = namespace + "\u{1F}" + path.description
        if let topic = topics[key] { return topic }
        let topic = try TopicTable.ensure(db, namespace: namespace, path: path, at: now)
        topics[key] = topic
        return topic
    }
}
