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

    /// Settles a conflict by keeping both facts: they stay as they are and stop being listed as
    /// a conflict (the user says both hold, say "Sister lives in Lisbon" was true then and
    /// "Sister lives in Porto" is true now, or they are about different things). Undoable; to
    /// keep one instead, deactivate or delete the other.
    /// - Throws: ``MnemoError/notFound(_:)`` when the namespace has no conflict with this id.
    public func dismissConflict(id: Int64) async throws {
        let (namespace, now) = (namespace, now)
        try await writer.write { db in
            guard let conflict = try ConflictTable.find(db, namespace: namespace, id: id) else {
                throw MnemoError.notFound(.conflict(id))
            }
            try OperationLog.record(
                db, namespace: namespace, kind: .dismissConflict,
                summary: "kept both facts #\(conflict.older) and #\(conflict.newer) of conflict #\(id)"
            ) {
                try ConflictTable.remove(db, id: id)
            }
            // Its own event: the facts did not change, but every view of the conflict did.
            try FeedTable.record(
                db, namespace: namespace, kind: .conflictDismissed, factID: conflict.newer, relatedID: conflict.older,
                now: now)
        }
    }
}
