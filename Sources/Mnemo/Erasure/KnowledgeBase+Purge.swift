import Foundation
import GRDB

extension KnowledgeBase {
    /// Applies the retention rules to the namespace: erases the facts whose ``Fact/expiresAt``
    /// has passed (as ``eraseFacts(ids:)`` does, with the reason ``ErasureReceipt/Reason/expired``)
    /// drops the undo records older than the undo window, and prunes the change feed's events
    /// older than ``Configuration/changeRetention`` (keeping the newest
    /// ``Configuration/minimumRetainedChanges``).
    ///
    /// Run it periodically (`mnemo serve --purge-interval`, or an app's background task); search
    /// and listings leave expired facts out in the meantime. Dropping an undo record also drops
    /// the undo that reverted it, or the operation it reverted, whatever its age: the two are
    /// one history.
    /// - Parameters:
    ///   - now: the time against which expiry and the window are measured.
    ///   - window: the undo window; ``Configuration/undoRetention`` when `nil`.
    /// - Returns: what was removed: ``ErasureReceipt/undoRecords`` counts the records dropped for
    ///   their age as well as those that held an expired fact.
    @discardableResult
    public func purge(now: Date = Date(), undoOlderThan window: TimeInterval? = nil) async throws -> ErasureReceipt {
        let namespace = namespace
        let cutoff = now.addingTimeInterval(-(window ?? undoRetention))
        if let window, !(window.isFinite && window >= 0) {
            throw MnemoError.invalidInput(field: "undoOlderThan", reason: "\(window) seconds is not a length of time")
        }
        let changeRetention = changeRetention
        let receipt = try await writer.write { db in
            let expired = try FactTable.expiredIDs(db, namespace: namespace, now: now)
            var receipt = try FactEraser.erase(
                db, namespace: namespace, ids: expired.sorted(), reason: .expired, now: now)
            let old = try OperationLog.ids(db, namespace: namespace, recordedBefore: cutoff)
            receipt.undoRecords += try FactEraser.deleteOperations(db, ids: old)
            _ = try FeedTable.prune(
                db, namespace: namespace, olderThan: now.addingTimeInterval(-changeRetention),
                keeping: Configuration.minimumRetainedChanges)
            return receipt
        }
        return await scrubbingFiles(after: receipt)
    }
}
