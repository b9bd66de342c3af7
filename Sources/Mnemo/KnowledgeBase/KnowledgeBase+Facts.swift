import Foundation
import GRDB

extension KnowledgeBase {
    /// Adds a fact, creating its topic path as needed.
    ///
    /// When a fact with the same normalized content (case, diacritics, whitespace and trailing
    /// punctuation ignored) is already stored in the namespace, nothing new is stored: the existing
    /// fact's mention count goes up, the new sources are added, and the outcome is
    /// ``AddFactOutcome/unchanged(_:)``. With an ``embedder``, a near duplicate (see
    /// ``NearDuplicateRule``) is merged into the stored fact in the same way, which also takes the
    /// higher importance and confidence: ``AddFactOutcome/merged(into:)``.
    ///
    /// When the namespace holds its ``factLimit`` and the fact is new, the ``quotaPolicy`` either
    /// refuses it or deletes the least valuable stored fact to make room (see ``QuotaPolicy``;
    /// ``addFactsReportingEvictions(_:nearDuplicates:repeats:)`` says which).
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` for an empty or over-long content or
    ///   a confidence outside 0…1; ``MnemoError/quotaExceeded(limit:)``;
    ///   ``MnemoError/Conflict/embedderMissing(stored:)`` when the knowledge base has no
    ///   embedder and the database's facts have vectors (see
    ///   ``Configuration/acceptsFactsWithoutVectors``): nothing is stored;
    ///   ``MnemoError/embedderFailure(model:reason:)``; ``MnemoError/storageFailure(_:)``;
    ///   `CancellationError` when the task is cancelled (nothing is stored).
    @discardableResult
    public func addFact(_ fact: NewFact) async throws -> AddFactOutcome {
        let batch = try await embedBatch([(namespace, ValidatedFact(fact))])
        return try await storeOrRefuse(batch, rule: NearDuplicateRule()).outcomes[0]
    }

    /// Adds many facts at once: one call to the embedder and one transaction for the whole batch,
    /// so either every fact is stored (or merged) or none is.
    /// - Parameters:
    ///   - facts: the facts to add, in order.
    ///   - nearDuplicates: the rule for merging near duplicates, or `nil` to merge exact
    ///     duplicates only (as an evaluation corpus needs).
    ///   - repeats: what a fact already stored does: counts as a mention (the default), or,
    ///     with ``RepeatPolicy/leaveUnchanged``, nothing, so that an app can make sure the same
    ///     facts exist each time it starts without its memory changing.
    ///
    /// ```swift
    /// let outcomes = try await kb.addFacts(onboardingFacts, repeats: .leaveUnchanged)
    /// print(outcomes.filter(\.isAdded).count, "facts were missing")
    /// ```
    ///
    /// The facts are embedded in batches, and a cancelled task stops between two of them
    /// (throwing `CancellationError`) with nothing stored.
    /// - Returns: the outcome for each input, in order.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` naming the first invalid fact's field
    ///   (nothing is stored); ``MnemoError/quotaExceeded(limit:)`` when the namespace's
    ///   ``factLimit`` cannot hold every new fact of the batch (nothing is stored); and what
    ///   ``addFact(_:)`` throws.
    @discardableResult
    public func addFacts(
        _ facts: [NewFact], nearDuplicates: NearDuplicateRule? = NearDuplicateRule(),
        repeats: RepeatPolicy = .countMention
    ) async throws -> [AddFactOutcome] {
        try await addFactsReportingEvictions(facts, nearDuplicates: nearDuplicates, repeats: repeats).outcomes
    }

    /// Adds many facts at once, as ``addFacts(_:nearDuplicates:repeats:)`` does, and names the facts
    /// deleted to make room for them when the ``quotaPolicy`` is
    /// ``QuotaPolicy/evictLeastValuable``.
    ///
    /// A fact of the batch is never evicted for a later one of the same batch: when the batch
    /// brings more new facts than the limit holds, it throws ``MnemoError/quotaExceeded(limit:)``
    /// and nothing (no fact, no eviction) is stored.
    public func addFactsReportingEvictions(
        _ facts: [NewFact], nearDuplicates: NearDuplicateRule? = NearDuplicateRule(),
        repeats: RepeatPolicy = .countMention
    ) async throws -> AddFactsResult {
        let validated = try facts.enumerated().map { index, fact in
            do {
                return (namespace, try ValidatedFact(fact))
            } catch let MnemoError.invalidInput(field, reason) where facts.count > 1 {
                throw MnemoError.invalidInput(field: "facts[\(index)].\(field)", reason: reason)
            }
        }
        return try await storeOrRefuse(embedBatch(validated), rule: nearDuplicates, repeats: repeats)
    }

    /// Stores a batch all or nothing, a quota refusal becoming ``MnemoError/quotaExceeded(limit:)``.
    private func storeOrRefuse(
        _ batch: [PendingFact], rule: NearDuplicateRule?, repeats: RepeatPolicy = .countMention
    ) async throws -> AddFactsResult {
        do {
            let written = try await storeBatch(batch, rule: rule, repeats: repeats)
            return AddFactsResult(outcomes: written.outcomes.map { $0! }, evicted: written.evicted)
        } catch let refusal as FactWriter.QuotaRefusal {
            throw refusal.mnemoError
        }
    }

    /// The fact with this id in the namespace, or `nil`: a lookup, like ``topic(at:)``. Every
    /// other call that takes a fact id throws ``MnemoError/notFound(_:)`` for an unknown one.
    public func fact(id: Int64) async throws -> Fact? {
        let namespace = namespace
        return try await writer.read { db in try FactTable.find(db, namespace: namespace, id: id) }
    }

    /// Changes a fact's content, type, importance, confidence or topic, recording each change.
    ///
    /// A new content gets a new vector from the ``embedder``; without one, the fact is left
    /// without a vector (see ``Configuration/acceptsFactsWithoutVectors``).
    /// - Throws: ``MnemoError/notFound(_:)`` with ``MnemoError/Missing/fact(_:)`` when the
    ///   namespace has no fact with this id; ``MnemoError/invalidInput(field:reason:)`` for an
    ///   invalid field; ``MnemoError/conflict(_:)`` with
    ///   ``MnemoError/Conflict/duplicateFact(existingID:)`` when the new content is already
    ///   another fact, or with ``MnemoError/Conflict/embedderMissing(stored:)`` for a new
    ///   content without an embedder in a database whose facts have vectors.
    @discardableResult
    public func updateFact(id: Int64, _ update: FactUpdate) async throws -> Fact {
        let namespace = namespace
        let embedding = try await update.content.asyncMap { try await embed([$0])?.first } ?? nil
        return try await writer.write { db in
            let fact = try FactTable.require(db, namespace: namespace, id: id)
            return try OperationLog.record(db, namespace: namespace, kind: .updateFact, summary: "updated fact #\(id)")
            {
                let updated = try FactUpdater(db: db, fact: fact, now: Date(), embedding: embedding).apply(update)
                if updated.content != fact.content { try self.refuseFactWithoutVector(db) }
                return updated
            }
        }
    }

    /// Changes a fact's fields and its active state in one transaction and one undoable
    /// operation: both land or neither does (an HTTP `PATCH` may carry both).
    package func updateFact(id: Int64, _ update: FactUpdate, isActive: Bool?) async throws -> Fact {
        let namespace = namespace
        let embedding = try await update.content.asyncMap { try await embed([$0])?.first } ?? nil
        return try await writer.write { db in
            let stored = try FactTable.require(db, namespace: namespace, id: id)
            let (kind, verb): (OperationRecord.Kind, String) =
                switch (update.isEmpty, isActive) {
                case (true, true?): (.reactivateFact, "reactivated")
                case (true, false?): (.deactivateFact, "deactivated")
                default: (.updateFact, "updated")
                }
            return try OperationLog.record(db, namespace: namespace, kind: kind, summary: "\(verb) fact #\(id)") {
                var fact = stored
                if !update.isEmpty {
                    fact = try FactUpdater(db: db, fact: fact, now: Date(), embedding: embedding).apply(update)
                    if fact.content != stored.content { try self.refuseFactWithoutVector(db) }
                }
                if let isActive { fact = try FactTable.setActive(db, fact, isActive, now: Date()) }
                return fact
            }
        }
    }

    /// Hides a fact from search without losing it.
    /// - Throws: ``MnemoError/notFound(_:)`` when the namespace has no fact with this id.
    @discardableResult
    public func deactivateFact(id: Int64) async throws -> Fact {
        try await setActive(id: id, false)
    }

    /// Makes a deactivated fact visible again.
    /// - Throws: ``MnemoError/notFound(_:)`` when the namespace has no fact with this id.
    @discardableResult
    public func reactivateFact(id: Int64) async throws -> Fact {
        try await setActive(id: id, true)
    }

    /// Deletes a fact: it leaves search, listings and exports, but it is not forgotten.
    ///
    /// Its history keeps a `deleted` event with its content, and the operation log keeps an undo
    /// record, so ``undo(_:)`` brings it back with its id and every field. To remove a fact so
    /// that nothing of it is left, in the database or its files, use ``eraseFacts(ids:)``.
    /// - Throws: ``MnemoError/notFound(_:)`` when the namespace has no fact with this id
    ///   (also when it was deleted already).
    public func deleteFact(id: Int64) async throws {
        let namespace = namespace
        try await writer.write { db in
            let fact = try FactTable.require(db, namespace: namespace, id: id)
            try OperationLog.record(
                db, namespace: namespace, kind: .deleteFact, summary: "deleted fact #\(id): \(fact.content)"
            ) {
                try FactTable.delete(db, fact, now: Date())
            }
        }
    }

    /// Lists facts that pass `filter`, most important and newest first.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` for a negative `limit` or `offset`.
    public func facts(matching filter: FactFilter = FactFilter(), limit: Int = 100, offset: Int = 0) async throws
        -> [Fact]
    {
        try Self.validatePage(limit: limit, offset: offset)
        try Task.checkCancellation()
        // A page is read in the listing index's order and stops at its end (a fraction of a
        // millisecond): on the calling thread, as searches read (see `readNow(_:)`).
        return try readNow { db in
            try FactTable.list(db, namespace: namespace, filter: filter, limit: limit, offset: offset)
        }
    }

    /// Every recorded change to the fact, oldest first; kept after the fact is deleted, empty
    /// after it is erased (see ``tombstone(ofFact:)``).
    /// - Throws: ``MnemoError/notFound(_:)`` with ``MnemoError/Missing/fact(_:)`` when the
    ///   namespace has neither a fact, a history nor a tombstone with this id (it never existed
    ///   here), as ``updateFact(id:_:)`` and the other calls that take a fact id do.
    public func history(ofFact id: Int64) async throws -> [HistoryEvent] {
        let namespace = namespace
        return try await writer.read { db in
            let events = try HistoryTable.events(db, namespace: namespace, factID: id)
            if events.isEmpty, try FactTable.find(db, namespace: namespace, id: id) == nil,
                try !FactEraser.isErased(db, namespace: namespace, id: id)
            {
                throw MnemoError.notFound(.fact(id))
            }
            return events
        }
    }

    /// Every recorded change to the topic itself (creation, renames, moves, merges), oldest first.
    /// - Throws: ``MnemoError/notFound(_:)`` when no topic is at `path`.
    public func history(ofTopic path: TopicPath) async throws -> [HistoryEvent] {
        let namespace = namespace
        return try await writer.read { db in
            let topic = try TopicTable.require(db, namespace: namespace, path: path)
            return try HistoryTable.events(db, namespace: namespace, topicID: topic.id)
        }
    }

    private func setActive(id: Int64, _ isActive: Bool) async throws -> Fact {
        let namespace = namespace
        return try await writer.write { db in
            let fact = try FactTable.require(db, namespace: namespace, id: id)
            let (kind, verb): (OperationRecord.Kind, String) =
                isActive ? (.reactivateFact, "reactivated") : (.deactivateFact, "deactivated")
            return try OperationLog.record(db, namespace: namespace, kind: kind, summary: "\(verb) fact #\(id)") {
                try FactTable.setActive(db, fact, isActive, now: Date())
            }
        }
    }
}
