import Foundation
import GRDB

extension KnowledgeBase {
    /// The namespace's operation log, newest first: topic merges, dedupe runs, near-duplicate
    /// merges at ingest, fact updates, deactivations, reactivations, deletions of facts and of
    /// topics, and undos.
    public func operations(limit: Int = 50) async throws -> [OperationRecord] {
        let namespace = namespace
        return try await writer.read { db in try OperationLog.list(db, namespace: namespace, limit: limit) }
    }

    /// Reverts an operation, restoring exactly the state before it: facts with their ids and
    /// every field, topics, history, the full-text index and the vectors.
    ///
    /// The undo is itself an operation, so undoing it redoes the original.
    /// - Parameter id: the operation to revert; `nil` reverts the newest operation that is not
    ///   an undo and has not been undone.
    /// - Returns: the undo's own log entry.
    /// - Throws: ``MnemoError/notFound(_:)`` when there is nothing to undo or no such operation,
    ///   ``MnemoError/conflict(_:)`` when it was already undone or a row it changed has changed
    ///   again since (undo the later operations first), and
    ///   ``MnemoError/Conflict/duplicateFact(existingID:)`` when a fact it would bring back has
    ///   the content of a fact stored since.
    @discardableResult
    public func undo(_ id: Int64? = nil) async throws -> OperationRecord {
        let namespace = namespace
        return try await writer.write { db in
            guard let target = try id ?? OperationLog.latestUndoable(db, namespace: namespace) else {
                throw MnemoError.notFound(.undoableOperation)
            }
            return try OperationLog.undo(db, namespace: namespace, id: target)
        }
    }
}
