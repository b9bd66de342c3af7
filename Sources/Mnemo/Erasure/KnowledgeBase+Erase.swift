import Foundation
import GRDB

extension KnowledgeBase {
    /// Erases facts for good: unlike ``deleteFact(id:)``, nothing of them is kept and nothing
    /// can bring them back.
    ///
    /// Each fact's content, vector, full-text entries, history events, conflict links and the
    /// undo records that hold any of it go, and so do the facts merged into it earlier (their
    /// contents live on in its history). What is left of each is a tombstone with its id, the
    /// time and the reason, and a keyed hash of each wording it had, which stops a device that
    /// held the fact before it linked from bringing it back through sync (never the content,
    /// and useless without the namespace's key, which erasing the namespace removes). A fact
    /// that was deleted can be erased too (its history and undo record are what is left of it).
    ///
    /// Everything happens in one transaction: all the facts are erased or none is. Then, on a
    /// database file, nothing erased is left in the file, its `-wal` or its `-shm`: the
    /// connections zero freed pages (`PRAGMA secure_delete`), the full-text index is rewritten
    /// without the terms only the erased facts had, and the write-ahead log is checkpointed and
    /// truncated (see ``ErasureReceipt/walTruncated``). The namespace's saved graph index (see
    /// <doc:ApproximateSearch>) is rewritten without the erased facts' vectors, or removed. A
    /// file last written by a version of Mnemo before erasure existed may hold older traces in
    /// its free pages; `VACUUM` rewrites it.
    ///
    /// Erasing an id that this namespace already erased does nothing, so an erase interrupted
    /// by a crash (which leaves nothing done) can simply be run again.
    /// - Returns: what was removed.
    /// - Throws: ``MnemoError/notFound(_:)`` for an id the namespace never had, before anything
    ///   is erased.
    @discardableResult
    public func eraseFacts(ids: [Int64]) async throws -> ErasureReceipt {
        let namespace = namespace
        let receipt = try await writer.write { db in
            try FactEraser.erase(db, namespace: namespace, ids: ids, reason: .requested, now: Date())
        }
        return await scrubbingFiles(after: receipt)
    }

    /// Erases the whole namespace: every fact (as ``eraseFacts(ids:)`` does), every topic, all
    /// history and every undo record of this user. Other namespaces are untouched, even where
    /// their facts share words with the erased ones.
    ///
    /// The namespace is empty afterwards and can be written again; its erased ids stay taken by
    /// their tombstones.
    @discardableResult
    public func eraseNamespace() async throws -> ErasureReceipt {
        let namespace = namespace
        let receipt = try await writer.write { db in
            try FactEraser.eraseNamespace(db, namespace: namespace, now: Date())
        }
        return await scrubbingFiles(after: receipt)
    }

    /// Whether fact `id` of this namespace was erased, and when and why.
    public func tombstone(ofFact id: Int64) async throws -> (erasedAt: Date, reason: ErasureReceipt.Reason)? {
        let namespace = namespace
        return try await writer.read { db in try FactEraser.tombstone(db, namespace: namespace, id: id) }
    }

    /// Checkpoints the write-ahead log into the database file and truncates it to zero bytes,
    /// so that the erased rows' old pages are nowhere but in the (zeroed) file, and rewrites the
    /// namespace's saved graph index without the erased facts' codes. It runs even when
    /// nothing was left to erase: a rerun after a crash between the commit and the checkpoint
    /// finishes the job.
    func scrubbingFiles(after receipt: ErasureReceipt) async -> ErasureReceipt {
        var receipt = receipt
        receipt.walTruncated = await scrubFilesAfterErasure()
        return receipt
    }

    /// The files' part of an erasure, for every path that erases (an erase, a sync push or pull):
    /// the log truncated and the saved graph rewritten; whether the log was truncated.
    func scrubFilesAfterErasure() async -> Bool {
        let truncated = await FactEraser.truncateLog(of: writer.base)
        scrubSavedVectorGraph()
        return truncated
    }
}
