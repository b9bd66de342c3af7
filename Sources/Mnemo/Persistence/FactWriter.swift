import Foundation
import GRDB

/// The one path by which new facts enter the database: exact-duplicate detection, near-duplicate
/// merging, topic creation, quotas, insertion and history, inside the caller's transaction.
enum FactWriter {
    typealias Outcome = AddFactOutcome

    /// What a batch did: each fact's outcome, or `nil` for a fact refused because its namespace
    /// holds its fact limit, and the facts evicted to make room.
    struct Written: Sendable {
        var outcomes: [Outcome?]
        var evicted: [Fact] = []
        /// The limit that refused facts, when there is one.
        var limit: Int?

        /// The positions in the batch of the refused facts.
        var refused: [Int] { outcomes.indices.filter { outcomes[$0] == nil } }
    }

    /// Thrown inside a write transaction, so that it rolls back, when an all-or-nothing batch
    /// has facts its namespace's quota refuses; `indices` are their positions in the batch.
    struct QuotaRefusal: Error, Sendable {
        var limit: Int
        var indices: [Int]

        var mnemoError: MnemoError { .quotaExceeded(limit: limit) }
    }

    /// Stores facts as if one after the other, inside the caller's transaction, and returns each
    /// one's outcome in order.
    ///
    /// A fact whose normalized content is already stored in its namespace, or was added earlier
    /// in the batch, is not stored again: that fact's mention count goes up and its sources grow.
    /// Otherwise a near duplicate found by `matcher` absorbs it. Otherwise it is added, if its
    /// namespace's `quota` admits it (see ``QuotaKeeper``): new facts are queued and inserted
    /// many at a time (see ``FactTable/InsertQueue``), as soon as a later fact needs to read them
    /// and at the end of the batch.
    /// - Parameters:
    ///   - matcher: finds near duplicates; `nil` when the knowledge base has no embedder.
    ///   - quota: the fact limit of every namespace of the batch, if any.
    ///   - protected: facts that an eviction must spare (added earlier by the same call).
    ///   - repeats: whether an exact or near duplicate of a stored fact counts as a mention
    ///     (or merges), or leaves the stored fact as it is.
    static func store(
        _ db: Database, batch: [PendingFact], now: Date, matcher: inout NearDuplicateMatcher?,
        quota: FactQuota? = nil, protecting protected: Set<Int64> = [], repeats: RepeatPolicy = .countMention
    ) throws -> Written {
        var topics = TopicCache()
        var queue = FactTable.InsertQueue()
        var keeper = quota.map { QuotaKeeper(quota: $0, protecting: protected) }
        let storedIDs = try storedIDs(db, batch)
        var addedIDs: [ContentKey: Int64] = [:]
        var outcomes: [Outcome?] = []
        outcomes.reserveCapacity(batch.count)
        var conflicts = PendingConflicts()
        for (namespace, fact) in batch {
            let key = ContentKey(namespace: namespace, key: fact.contentKey)
            // A stored fact evicted earlier in this batch is no longer there to repeat.
            if let id = addedIDs[key] ?? storedIDs[key].flatMap({ keeper?.evictedIDs.contains($0) == true ? nil : $0 })
            {
                if queue.contains(id) { try queue.flush(db, now: now) }
                let existing = try FactTable.require(db, namespace: namespace, id: id)
                if repeats == .leaveUnchanged {
                    outcomes.append(.unchanged(existing))
                    continue
                }
                try FactTable.recordMention(db, of: existing, sources: fact.sources, now: now)
                outcomes.append(.unchanged(try FactTable.require(db, namespace: namespace, id: id)))
                continue
            }
            let judgement = try matcher?.judge(db, namespace: namespace, fact: fact)
            if let (match, similarity) = judgement?.duplicate {
                // A fact added in this batch may be queued, or have changed since it was added.
                if queue.contains(match.id) { try queue.flush(db, now: now) }
                let survivor = try FactTable.require(db, namespace: namespace, id: match.id)
                if repeats == .leaveUnchanged {
                    outcomes.append(.unchanged(survivor))
                    continue
                }
                let summary = "merged \"\(fact.content)\" into fact #\(survivor.id)"
                outcomes.append(
                    .merged(
                        into: try OperationLog.record(db, namespace: namespace, kind: .ingestMerge, summary: summary) {
                            try FactMerger.absorb(db, fact, into: survivor, similarity: similarity, now: now)
                        }))
                continue
            }
            if try keeper?.admit(db, namespace: namespace, fact: fact, now: now) == false {
                outcomes.append(nil)
                continue
            }
            let topic = try topics.topic(db, namespace: namespace, path: fact.topicPath, now: now)
            let added = try queue.enqueue(db, namespace: namespace, fact: fact, topic: topic, now: now)
            addedIDs[key] = added.id
            keeper?.didAdd(added)
            matcher?.didAdd(added, vector: fact.embedding)
            conflicts.note(added, judgement)
            outcomes.append(.added(added))
        }
        try queue.flush(db, now: now)
        try conflicts.write(db, now: now, skipping: keeper?.evictedIDs ?? [])
        return Written(outcomes: outcomes, evicted: keeper?.evicted ?? [], limit: quota?.limit)
    }

    /// A fact's normalized content in its namespace: what makes two facts the same.
    private struct ContentKey: Hashable {
        var namespace: String
        var key: String
    }

    /// The ids of facts stored before the batch with the same normalized content as one of its
    /// facts: one query per few hundred facts.
    private static func storedIDs(_ db: Database, _ batch: [PendingFact]) throws -> [ContentKey: Int64] {
        var keysByNamespace: [String: [String]] = [:]
        for (namespace, fact) in batch { keysByNamespace[namespace, default: []].append(fact.contentKey) }
        var ids: [ContentKey: Int64] = [:]
        for (namespace, keys) in keysByNamespace {
            for (key, id) in try FactTable.ids(db, namespace: namespace, contentKeys: keys) {
                ids[ContentKey(namespace: namespace, key: key)] = id
            }
        }
        return ids
    }
}

extension KnowledgeBase {
    /// Writes a batch of validated facts in one transaction: the single write path of `addFact`
    /// and ingestion. Facts must already carry their embeddings (see ``embedBatch(_:)``).
    /// - Parameter rule: how near duplicates are recognised; `nil` merges exact duplicates only.
    ///   - allOrNothing: when the quota refuses any fact, roll the whole batch back and throw
    ///     ``FactWriter/QuotaRefusal`` naming them; otherwise store the others and report the
    ///     refused ones as `nil` outcomes.
    ///   - protected: facts an eviction must spare: those the same call added in earlier batches.
    ///   - repeats: what a fact already stored does (see ``RepeatPolicy``).
    func storeBatch(
        _ facts: [(namespace: String, fact: ValidatedFact)], rule: NearDuplicateRule? = NearDuplicateRule(),
        allOrNothing: Bool = true, protecting protected: Set<Int64> = [], repeats: RepeatPolicy = .countMention
    ) async throws -> FactWriter.Written {
        try Task.checkCancellation()
        if writer.replication != nil, facts.contains(where: { $0.namespace != namespace }) {
            return try await storeBatchByNamespace(
                facts, rule: rule, allOrNothing: allOrNothing, protecting: protected, repeats: repeats)
        }
        let vectorIndex = rule == nil ? nil : vectorIndex
        let now = now
        let quota = quota
        return try await writer.write { db in
            // The near-duplicate check reads the index as of this transaction, so that a fact
            // committed by another task or process just before is found as a sequential add would.
            var matcher = try vectorIndex.map { NearDuplicateMatcher(store: try $0.snapshot(in: db), rule: rule!) }
            let written = try FactWriter.store(
                db, batch: facts, now: now, matcher: &matcher, quota: quota, protecting: protected, repeats: repeats)
            if allOrNothing, let limit = written.limit, !written.refused.isEmpty {
                throw FactWriter.QuotaRefusal(limit: limit, indices: written.refused)
            }
            if zip(facts, written.outcomes).contains(where: { $0.fact.embedding == nil && $1?.isAdded == true }) {
                try self.refuseFactWithoutVector(db)
            }
            return written
        }
    }

    /// A batch of several namespaces on a shared store, whose node holds each namespace in a copy
    /// of its own: one write per namespace, in the order the namespaces first appear, with each
    /// outcome back at its fact's position. (All or nothing holds per namespace.)
    private func storeBatchByNamespace(
        _ facts: [(namespace: String, fact: ValidatedFact)], rule: NearDuplicateRule?, allOrNothing: Bool,
        protecting protected: Set<Int64>, repeats: RepeatPolicy
    ) async throws -> FactWriter.Written {
        var positions: [String: [Int]] = [:]
        var order: [String] = []
        for (index, fact) in facts.enumerated() {
            if positions[fact.namespace] == nil { order.append(fact.namespace) }
            positions[fact.namespace, default: []].append(index)
        }
        var written = FactWriter.Written(outcomes: Array(repeating: nil, count: facts.count))
        for namespace in order {
            let indices = positions[namespace] ?? []
            let part = try await knowledgeBase(forNamespace: namespace).storeBatch(
                indices.map { facts[$0] }, rule: rule, allOrNothing: allOrNothing, protecting: protected,
                repeats: repeats)
            for (offset, index) in indices.enumerated() { written.outcomes[index] = part.outcomes[offset] }
            written.evicted += part.evicted
            written.limit = written.limit ?? part.limit
        }
        return written
    }

    /// Adds embeddings to facts that lack one, ``embeddingChunkSize`` texts per call to the
    /// embedder, checking between calls whether the task was cancelled (then it throws
    /// `CancellationError` rather than encode texts nobody will store).
    ///
    /// The batch is taken, not copied: a copy of thousands of facts retained every text of each.
    func embedBatch(_ facts: consuming [(namespace: String, fact: ValidatedFact)]) async throws -> [(
        namespace: String, fact: ValidatedFact
    )] {
        guard embedder != nil else { return facts }
        let missing = facts.indices.filter { facts[$0].fact.embedding == nil }
        for chunk in missing.chunked(into: Self.embeddingChunkSize) {
            try Task.checkCancellation()
            guard let vectors = try await embed(chunk.map { facts[$0].fact.content }) else { break }
            for (index, vector) in zip(chunk, vectors) { facts[index].fact.embedding = vector }
        }
        return facts
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
