import Foundation
import GRDB

extension KnowledgeBase {
    /// Pairs of active facts that are close in meaning but differ in something that carries
    /// identity, newest first.
    ///
    /// With an ``embedder``, adding a fact that the ``NearDuplicateRule`` finds close to a stored
    /// one but different from it (another value, a reversed preference, a negation…) keeps both
    /// and links them here instead of merging one away. Deactivating or deleting either fact
    /// clears the conflict.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` for a negative `limit` or `offset`.
    public func conflicts(limit: Int = 100, offset: Int = 0) async throws -> [FactConflict] {
        try Self.validatePage(limit: limit, offset: offset)
        let namespace = namespace
        return try await writer.read { db in
            try ConflictTable.list(db, namespace: namespace, limit: limit, offset: offset)
        }
    }

    /// Fills each hit's ``SearchHit/conflictsWith``.
    func withConflicts(_ hits: [SearchHit]) throws -> [SearchHit] {
        guard !hits.isEmpty else { return hits }
        let partners = try readNow { db in try ConflictTable.partners(db, of: hits.map(\.fact.id)) }
        guard !partners.isEmpty else { return hits }
        return hits.map { hit in
            var hit = hit
            hit.conflictsWith = partners[hit.fact.id] ?? []
            return hit
        }
    }
}
