import Foundation
import GRDB

extension KnowledgeBase {
    /// Compares this file's facts with the server's, changing nothing on either side
    /// (`mnemo sync --verify`).
    ///
    /// It reads the server's whole namespace and compares fact by fact what a sync's digest
    /// covers (uid, content, topic, type, importance, whether active, goal status). Facts the
    /// server changed since this file's last sync, and this file's operations still waiting to
    /// be pushed, count as differences too: a sync then a verify of an idle namespace says
    /// whether the replicas agree.
    /// - Throws: ``SyncError`` when the server cannot be read.
    public func verifySync(with transport: some SyncTransport) async throws -> SyncVerification {
        let snapshot = try await transport.snapshot(model: nil)
        let namespace = namespace
        return try await writer.read { db in
            let comparison = try SyncComparison(db, namespace: namespace, server: snapshot)
            var verification = SyncVerification(
                isLinked: try SyncStore.link(db, namespace: namespace) != nil,
                digest: comparison.digest.description, serverDigest: snapshot.digest ?? "",
                onlyHere: comparison.onlyHere.count + comparison.erasedThere.count,
                onlyOnServer: comparison.onlyThere, differing: comparison.differing,
                waiting: try SyncStore.outboxCount(db, namespace: namespace))
            verification.isInStep =
                verification.digest == verification.serverDigest && verification.onlyHere == 0
                && verification.onlyOnServer == 0 && verification.differing == 0
            return verification
        }
    }

    /// Compares the file's digest with the server's at the end of a sync (the server's at the
    /// cursor the device pulled through); a difference is repaired by ``reconcile(_:model:repairing:report:progress:)``.
    func verify(
        against digest: String?, transport: some SyncTransport, model: EmbeddingModelIdentity?,
        report: inout SyncReport
    ) async throws {
        guard let digest, let local = try await localDigestIfSettled() else { return }
        if local == digest {
            report.verified = true
            return
        }
        try await reconcile(transport, model: model, repairing: true, report: &report, progress: nil)
    }

    /// Brings this copy and the server's together without trusting the cursor: reads the
    /// server's whole namespace, offers it the facts it lacks (through its duplicate rules: what
    /// it deleted or erased is refused), pushes the erasure of facts erased here that it still
    /// holds, then replaces this copy with the server's and checks the digests.
    ///
    /// `repairing` counts the facts that differed in the report (a restore, a lost push); a
    /// device catching up after its cursor expired only reads what it missed.
    /// - Throws: ``SyncError/Kind/diverged`` when the copies still differ.
    func reconcile(
        _ transport: some SyncTransport, model: EmbeddingModelIdentity?, repairing: Bool = true,
        report: inout SyncReport, progress: (@Sendable (SyncProgress) -> Void)?
    ) async throws {
        var snapshot = try await transport.snapshot(model: model)
        let namespace = namespace
        let now = now
        let server = snapshot
        let (queued, differing) = try await writer.write { db in
            let comparison = try SyncComparison(db, namespace: namespace, server: server)
            try SyncStore.queue(
                db, namespace: namespace, kind: SyncStore.offeredKind, uids: comparison.onlyHere, now: now)
            try SyncStore.queue(
                db, namespace: namespace, kind: ChangeEvent.Kind.factErased.rawValue, uids: comparison.erasedThere,
                now: now)
            return (
                comparison.onlyHere.count + comparison.erasedThere.count,
                comparison.onlyHere.count + comparison.erasedThere.count + comparison.onlyThere + comparison.differing
            )
        }
        if queued > 0, let link = try await writer.read({ db in try SyncStore.link(db, namespace: namespace) }) {
            try await pushOutbox(transport, link: link, report: &report, progress: progress)
            snapshot = try await transport.snapshot(model: model)
        }
        _ = try await replaceFromSnapshot(snapshot, model: model, report: &report, progress: progress)
        if repairing { report.repaired += differing }
        guard let digest = snapshot.digest, let local = try await localDigestIfSettled() else { return }
        guard local == digest else {
            throw SyncError(
                .diverged,
                reason: "after a repair this file's facts (digest \(local)) still differ from the server's (\(digest))")
        }
        report.verified = true
    }

    /// The digest of this file's facts, when no operation waits to be pushed (a write made
    /// during the sync is not the server's yet: the next sync compares).
    private func localDigestIfSettled() async throws -> String? {
        let namespace = namespace
        return try await writer.read { db in
            try SyncStore.outboxCount(db, namespace: namespace) == 0
                ? try SyncDigest.of(db, namespace: namespace).description : nil
        }
    }
}

/// A device's facts against a server's snapshot, by uid.
struct SyncComparison {
    /// The device's digest.
    var digest = SyncDigest()
    /// Facts here that the server neither holds nor erased.
    var onlyHere: [String] = []
    /// Facts erased here that the server still holds.
    var erasedThere: [String] = []
    /// Facts the server holds that are not here (or were erased here: those are in `erasedThere`).
    var onlyThere = 0
    /// Facts held by both with different fields.
    var differing = 0

    init(_ db: Database, namespace: String, server: SyncSnapshotResponse) throws {
        var there: [String: UInt64] = [:]
        for fact in server.facts { there[fact.uid] = SyncDigest.hash(of: fact) }
        let erasedByServer = Set(server.erased)
        var here = Set<String>()
        var digest = SyncDigest()
        var onlyHere: [String] = []
        var differing = 0
        try FactTable.forEach(db, namespace: namespace) { fact in
            let hash = SyncDigest.hash(of: fact)
            digest.add(hash)
            here.insert(fact.uid)
            if let theirs = there[fact.uid] {
                if theirs != hash { differing += 1 }
            } else if !erasedByServer.contains(fact.uid) {
                onlyHere.append(fact.uid)
            }
        }
        self.digest = digest
        self.onlyHere = onlyHere
        self.differing = differing
        erasedThere = try SyncStore.erasedUIDs(db, namespace: namespace).filter {
            there[$0] != nil && !here.contains($0)
        }
        onlyThere = there.keys.filter { !here.contains($0) }.count - erasedThere.count
    }
}

/// What ``KnowledgeBase/verifySync(with:)`` found: whether this file and the server hold the
/// same facts.
public struct SyncVerification: Hashable, Sendable, Codable {
    /// Whether the namespace was ever synced from this file.
    public var isLinked: Bool
    /// Whether both hold the same facts with the same compared fields.
    public var isInStep = false
    /// This file's digest of its facts.
    public var digest: String
    /// The server's.
    public var serverDigest: String
    /// Facts here that the server does not hold, or erased here that it still holds.
    public var onlyHere: Int
    /// Facts the server holds that are not here.
    public var onlyOnServer: Int
    /// Facts both hold, with different fields.
    public var differing: Int
    /// This file's operations waiting to be pushed (their facts differ until the next sync).
    public var waiting: Int
}
