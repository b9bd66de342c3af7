import Foundation
import GRDB

extension KnowledgeBase {
    /// Adds a fact, creating its topic path as needed.
    ///
    /// When a fact with the same normalized content (case, diacritics, whitespace and trailing
    /// punctuation ignored) is already stored in the namespace, nothing new is stored: the existing
    /// fact's mention count goes up, the new sources are added, and the existing fact is returned.
    /// With an ``embedder``, a near duplicate (see ``NearDuplicateRule``) is merged into the stored
    /// fact in the same way, which also takes the higher importance and confidence.
    @discardableResult
    public func addFact(_ fact: NewFact) async throws -> Fact {
        let batch = try await embedBatch([(namespace, ValidatedFact(fact))])
        return try await storeBatch(batch)[0].fact
    }

    /// Adds many facts at once: one call to the embedder and one transaction for the whole batch,
    /// so either every fact is stored (or merged) or none is.
    /// - Parameter nearDuplicates: the rule for merging near duplicates, or `nil` to merge exact
    ///   duplicates only (as an evaluation corpus needs).
    /// - Returns: the stored fact for each input, in order (the survivor for a merged one).
    @discardableResult
    public func addFacts(_ facts: [NewFact], nearDuplicates: NearDuplicateRule? = NearDuplicateRule()) async throws -> [Fact] {
        let validated = try facts.map { (namespace, try ValidatedFact($0)) }
        return try await storeBatch(embedBatch(validated), rule: nearDuplicates).map(\.fact)
    }

    /// The fact with this id in the namespace, or `nil`.
    public func fact(id: Int64) async throws -> Fact? {
        let namespace = namespace
        return try await writer.read { db in try FactTable.find(db, namespace: namespace, id: id) }
    }

    /// Changes a fact's content, type, importance, confidence or topic, recording each change.
    /// - Throws: ``MnemoError/factNotFound(_:)``, ``MnemoError/invalidFact(_:)``, or
    ///   ``MnemoError/duplicateFact(existingID:)`` when the new content is already another fact.
    @discardableResult
    public func updateFact(id: Int64, _ update: FactUpdate) async throws -> Fact {
        let namespace = namespace
        let embedding = try await update.content.asyncMap { try await embed([$0])?.first } ?? nil
        return try await writer.write { db in
            let fact = try FactTable.require(db, namespace: namespace, id: id)
            return try FactUpdater(db: db, fact: fact, now: Date(), embedding: embedding).apply(update)
        }
    }

    /// Hides a fact from search without losing it.
    @discardableResult
    public func deactivateFact(id: Int64) async throws -> Fact {
        try await setActive(id: id, false)
    }

    /// Makes a deactivated fact visible again.
    @discardableResult
    public func reactivateFact(id: Int64) async throws -> Fact {
        try await setActive(id: id, true)
    }

    /// Deletes a fact for good. Its history is kept.
    public func deleteFact(id: Int64) async throws {
        let namespace = namespace
        try await writer.write { db in
            let fact = try FactTable.require(db, namespace: namespace, id: id)
            try FactTable.delete(db, fact, now: Date())
        }
    }

    /// Lists facts that pass `filter`, most important and newest first.
    public func facts(matching filter: FactFilter = FactFilter(), limit: Int = 100, offset: Int = 0) async throws -> [Fact] {
        let namespace = namespace
        return try await writer.read { db in
            try FactTable.list(db, namespace: namespace, filter: filter, limit: limit, offset: offset)
        }
    }

    /// Every recorded change to the fact, oldest first; kept after the fact is deleted.
    public func history(ofFact id: Int64) async throws -> [HistoryEvent] {
        let namespace = namespace
        return try await writer.read { db in try HistoryTable.events(db, namespace: namespace, factID: id) }
    }

    /// Every recorded change to the topic itself (creation, renames, moves, merges), oldest first.
    public func history(ofTopic path: String) async throws -> [HistoryEvent] {
        let path = try TopicPath(path)
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
            return try FactTable.setActive(db, fact, isActive, now: Date())
        }
    }
}
