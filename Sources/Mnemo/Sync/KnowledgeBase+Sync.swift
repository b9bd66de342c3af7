import Foundation
import GRDB

extension KnowledgeBase {
    /// Keeps this namespace in step with a server's: pushes the operations made here since the
    /// last sync, then pulls what changed on the server (see <doc:Sync>).
    ///
    /// The first sync links the namespace to the server: every fact already here is pushed as
    /// added, and the server's whole namespace is read. From then on every local write records
    /// its operation in the same transaction (an outbox), so an app killed before it synced
    /// loses nothing. The server decides what a pushed operation does (its duplicate rules
    /// merge what two devices added, a delete wins over an edit, an erasure over everything);
    /// a pull stores the server's state of each fact it names, page by page, each page in one
    /// transaction with the cursor it reaches. A device whose cursor is older than the server's
    /// feed window reads the whole namespace again and replaces its copy (after pushing its own
    /// operations). A sync interrupted at any point is safe to run again: pushes are idempotent
    /// by operation id and a page is applied entirely or not at all.
    /// - Parameters:
    ///   - transport: how to reach the server (``URLSessionSyncTransport``, ``InProcessSyncTransport``).
    ///   - options: whether pulled facts are embedded here rather than given the server's vectors.
    ///   - progress: called as operations are pushed and changes pulled.
    /// - Returns: what was pushed, pulled, merged, refused and erased.
    /// - Throws: what the transport throws (such as ``MnemoError/storageUnavailable(reason:)``
    ///   when the server cannot be reached); what was done before stays done.
    @discardableResult
    public func sync(
        with transport: some SyncTransport, options: SyncOptions = SyncOptions(),
        progress: (@Sendable (SyncProgress) -> Void)? = nil
    ) async throws -> SyncReport {
        let namespace = namespace
        // Without a model named, the server ships no vectors and the pulled facts are embedded here.
        let model = options.embedsLocally ? nil : embedder?.identity
        let now = now
        let relinks = options.relinks
        var link = try await writer.write { db in
            guard let link = try SyncStore.link(db, namespace: namespace) else {
                return try SyncStore.createLink(db, namespace: namespace, now: now)
            }
            return relinks && !link.server.isEmpty ? try SyncStore.relink(db, namespace: namespace, now: now) : link
        }
        var report = SyncReport()
        try await pushOutbox(transport, link: link, report: &report, progress: progress)
        if link.server.isEmpty {
            // The first sync: the facts this file held were offered; the server's namespace is read.
            let snapshot = try await transport.snapshot(model: model)
            link.cursor = try await replaceFromSnapshot(snapshot, model: model, report: &report, progress: progress)
            try await verify(against: snapshot.digest, transport: transport, model: model, report: &report)
        } else if report.deviceWentBack {
            try await reconcile(transport, model: model, report: &report, progress: progress)
        } else if let cursor = link.cursor {
            do {
                let pulled = try await pullChanges(
                    transport, after: cursor, server: link.server, model: model, report: &report, progress: progress)
                if pulled.rewound {
                    report.serverWentBack = true
                    try await reconcile(transport, model: model, report: &report, progress: progress)
                } else {
                    try await verify(against: pulled.digest, transport: transport, model: model, report: &report)
                }
            } catch MnemoError.cursorExpired {
                try await reconcile(transport, model: model, repairing: false, report: &report, progress: progress)
            }
        } else {
            try await reconcile(transport, model: model, repairing: false, report: &report, progress: progress)
        }
        report.cursor = try await writer.read { db in try SyncStore.link(db, namespace: namespace)?.cursor } ?? ""
        if report.erased > 0 {
            // The erased rows' pages are zeroed in the file; the log and the saved graph still hold them.
            _ = await scrubFilesAfterErasure()
        }
        return report
    }

    /// What waits to be pushed, and when the namespace last synced.
    public func syncStatus() async throws -> SyncStatus {
        let namespace = namespace
        return try await writer.read { db in
            let link = try SyncStore.link(db, namespace: namespace)
            return SyncStatus(
                isLinked: link != nil, device: link?.device,
                waiting: link == nil ? 0 : try SyncStore.outboxCount(db, namespace: namespace),
                waitingFacts: link == nil ? 0 : try SyncStore.outboxSubjects(db, namespace: namespace),
                lastSync: link?.lastSync, cursor: link?.cursor)
        }
    }

    /// Pushes the outbox, batch by batch; each batch's rows leave it only with the server's
    /// answers, in the transaction that applies them.
    func pushOutbox(
        _ transport: some SyncTransport, link: SyncStore.Link, report: inout SyncReport,
        progress: (@Sendable (SyncProgress) -> Void)?
    ) async throws {
        let namespace = namespace
        let device = link.device
        var acknowledged = link.acknowledged
        let total = try await writer.read { db in try SyncStore.outboxCount(db, namespace: namespace) }
        let model = embedder?.identity
        // With vectors a batch stays about 600 KB, under a server's default 1 MiB body limit
        // (a 384-component vector is 2 KB in base64).
        let limit = model.map { max(50, min(500, 600_000 / ($0.dimension * 16 / 3 + 600))) } ?? 500
        var sent = 0
        while true {
            let batch = try await writer.read { db in
                try SyncOutbox.batch(
                    db, namespace: namespace, device: device, limit: limit, dimension: model?.dimension)
            }
            guard let through = batch.through else { return }
            var answers: [SyncAnswer] = []
            if !batch.operations.isEmpty {
                let response = try await transport.push(
                    SyncPushRequest(
                        device: device, namespace: namespace, operations: batch.operations,
                        server: link.server.isEmpty ? nil : link.server, acknowledged: acknowledged,
                        model: model))
                answers = response.answers
                guard answers.count == batch.operations.count,
                    zip(answers, batch.operations).allSatisfy({ $0.operation == $1.id })
                else {
                    throw SyncError(
                        .incompatibleServer,
                        reason: "the server answered \(answers.count) operations of \(batch.operations.count) pushed")
                }
                if response.rewound == true { report.deviceWentBack = true }
                acknowledged = response.acknowledged
            }
            let pushed = zip(batch.operations, answers).map { ($0, $1) }
            let now = now
            let heard = acknowledged
            let applied = try await writer.write { db in
                var report = SyncReport()
                let mark = try SyncStore.beginApplying(db, namespace: namespace)
                var verdicts: [(uid: String, verdict: SyncApplier.Verdict)] = []
                for (operation, answer) in pushed {
                    switch answer.outcome {
                    case .added, .updated, .restored, .deleted, .erased: report.pushed += 1
                    case .merged, .unchanged:
                        report.pushed += 1
                        if answer.uid != operation.uid, operation.kind == .add {
                            report.merged += 1
                            try Self.adopt(db, namespace: namespace, uid: operation.uid, as: answer.uid, now: now)
                        }
                    case .gone:
                        report.gone += 1
                        verdicts.append((operation.uid, .erased))
                    case .refused:
                        // The server deleted the fact: the delete wins here too.
                        report.refused += 1
                        verdicts.append((operation.uid, .deleted))
                    case .unknown:
                        report.refused += 1
                    }
                }
                var applier = SyncApplier(db: db, namespace: namespace, now: now, vectors: [:], report: report)
                try applier.apply(verdicts)
                try SyncStore.dropOutbox(through: through, namespace: namespace, db)
                try SyncStore.dropOutbox(after: mark, namespace: namespace, db)
                if let heard { try SyncStore.setAcknowledged(db, namespace: namespace, heard) }
                return applier.report
            }
            report.pushed += applied.pushed
            report.merged += applied.merged
            report.gone += applied.gone
            report.refused += applied.refused
            report.erased += applied.erased
            sent += batch.rows
            progress?(SyncProgress(phase: .pushing, done: min(sent, total), total: total))
        }
    }

    /// The device's fact `uid` is the server's `into`: when this file holds that one already,
    /// its own copy goes (the server merged the two); otherwise it takes the server's uid.
    private static func adopt(_ db: Database, namespace: String, uid: String, as into: String, now: Date) throws {
        guard let mine = try SyncStore.fact(db, namespace: namespace, uid: uid) else { return }
        if try SyncStore.fact(db, namespace: namespace, uid: into) != nil {
            try FactTable.delete(db, mine, now: now)
        } else {
            try db.execute(sql: "UPDATE fact SET uid = ? WHERE id = ?", arguments: [into, mine.id])
        }
    }

    /// Where a pull ended: the server's digest at its last page, or that the server went back.
    struct PullEnd {
        var digest: String?
        var rewound = false
    }

    private func pullChanges(
        _ transport: some SyncTransport, after start: String, server: String, model: EmbeddingModelIdentity?,
        report: inout SyncReport,
        progress: (@Sendable (SyncProgress) -> Void)?
    ) async throws -> PullEnd {
        var cursor = start
        while true {
            let page = try await transport.pull(after: cursor, server: server, limit: 500, model: model)
            if page.rewound == true { return PullEnd(rewound: true) }
            var verdicts: [String: SyncApplier.Verdict] = [:]
            var order: [String] = []
            var namespaceErased = false
            var moves: [SyncTopicMove] = []
            for change in page.changes {
                if change.event == .namespaceErased { namespaceErased = true }
                if let from = change.from, let to = change.to { moves.append(SyncTopicMove(from: from, to: to)) }
                guard let uid = change.uid, change.event != .conflictFound else { continue }
                if verdicts[uid] == nil { order.append(uid) }
                if case .erased = verdicts[uid] { continue }
                var state = change.fact
                if state?.vector == nil, case .present(let earlier) = verdicts[uid], earlier.content == state?.content {
                    // The server ships a vector with the change that brought the wording only.
                    state?.vector = earlier.vector
                }
                verdicts[uid] = change.event == .factErased ? .erased : state.map { .present($0) } ?? .deleted
            }
            let vectors = try await vectorsForNew(
                order.compactMap { uid in
                    if case .present(let state) = verdicts[uid] { return state }
                    return nil
                })
            let conflicts = page.changes.filter { $0.event == .conflictFound }
            let ordered = order.map { (uid: $0, verdict: verdicts[$0]!) }
            let erasesAll = namespaceErased
            let topicMoves = moves
            let namespace = namespace
            let now = now
            let next = page.next
            let applied = try await writer.write { db in
                let mark = try SyncStore.beginApplying(db, namespace: namespace)
                var applier = SyncApplier(
                    db: db, namespace: namespace, now: now, vectors: vectors, report: SyncReport())
                if erasesAll {
                    let all = try String.fetchAll(
                        db, sql: "SELECT uid FROM fact WHERE namespace = ?", arguments: [namespace])
                    try applier.apply(all.map { ($0, .erased) })
                }
                try applier.apply(ordered)
                for move in topicMoves { try move.dropIfEmpty(db, namespace: namespace) }
                for change in conflicts {
                    guard let newer = change.uid, let older = change.relatedUid else { continue }
                    if try applier.link(
                        olderUID: older, newerUID: newer, reason: change.reason ?? "contradiction", similarity: 0)
                    {
                        applier.report.conflicts += 1
                    }
                }
                try db.execute(
                    sql: "UPDATE sync_link SET cursor = ?, server = ?, last_sync = ? WHERE namespace = ?",
                    arguments: [next, page.server, Timestamp.databaseText(now), namespace])
                try SyncStore.dropOutbox(after: mark, namespace: namespace, db)
                return applier.report
            }
            report.pulled += page.changes.count
            report.conflicts += applied.conflicts
            report.erased += applied.erased
            progress?(SyncProgress(phase: .pulling, done: report.pulled))
            cursor = next
            if !page.hasMore { return PullEnd(digest: page.digest) }
        }
    }

    func replaceFromSnapshot(
        _ snapshot: SyncSnapshotResponse, model: EmbeddingModelIdentity?, report: inout SyncReport,
        progress: (@Sendable (SyncProgress) -> Void)?
    ) async throws -> String {
        progress?(SyncProgress(phase: .snapshot, done: snapshot.facts.count, total: snapshot.facts.count))
        let vectors = try await vectorsForNew(snapshot.facts)
        let namespace = namespace
        let now = now
        let applied = try await writer.write { db in
            let mark = try SyncStore.beginApplying(db, namespace: namespace)
            var applier = SyncApplier(db: db, namespace: namespace, now: now, vectors: vectors, report: SyncReport())
            let kept = Set(snapshot.facts.map(\.uid))
            // What waits in the outbox is this device's and was pushed first, or is newer.
            let pending = Set(
                try String.fetchAll(
                    db, sql: "SELECT fact_uid FROM sync_outbox WHERE namespace = ? AND fact_uid IS NOT NULL",
                    arguments: [namespace]))
            let local = try String.fetchAll(db, sql: "SELECT uid FROM fact WHERE namespace = ?", arguments: [namespace])
            var verdicts: [(uid: String, verdict: SyncApplier.Verdict)] = snapshot.erased.map { ($0, .erased) }
            let erased = Set(snapshot.erased)
            verdicts += local.filter { !kept.contains($0) && !pending.contains($0) && !erased.contains($0) }.map {
                ($0, .deleted)
            }
            verdicts += snapshot.facts.map { ($0.uid, .present($0)) }
            try applier.apply(verdicts)
            for conflict in snapshot.conflicts {
                if try applier.link(
                    olderUID: conflict.olderUid, newerUID: conflict.newerUid, reason: conflict.reason,
                    similarity: conflict.similarity)
                {
                    applier.report.conflicts += 1
                }
            }
            try db.execute(
                sql: "UPDATE sync_link SET cursor = ?, server = ?, last_sync = ? WHERE namespace = ?",
                arguments: [snapshot.cursor, snapshot.server, Timestamp.databaseText(now), namespace])
            try SyncStore.dropOutbox(after: mark, namespace: namespace, db)
            return applier.report
        }
        report.replacedFromSnapshot = true
        report.pulled += snapshot.facts.count
        report.conflicts += applied.conflicts
        report.erased += applied.erased
        return snapshot.cursor
    }

    /// Vectors for the states whose content this file does not hold yet: the server's when it
    /// shipped them (same model), else this knowledge base's embedder's, in one batch.
    private func vectorsForNew(_ states: [SyncFact]) async throws -> [String: [Float]] {
        guard let embedder, !states.isEmpty else { return [:] }
        let namespace = namespace
        let known = try await writer.read { db in
            var contents: [String: String] = [:]
            for state in states {
                if let fact = try SyncStore.fact(db, namespace: namespace, uid: state.uid) {
                    contents[state.uid] = fact.content
                }
            }
            return contents
        }
        var vectors: [String: [Float]] = [:]
        var missing: [SyncFact] = []
        for state in states where known[state.uid] != state.content {
            if let vector = state.decodedVector(dimension: embedder.identity.dimension) {
                vectors[state.uid] = vector
            } else {
                missing.append(state)
            }
        }
        let embedded = try await embed(missing.map(\.content)) ?? []
        for (state, vector) in zip(missing, embedded) { vectors[state.uid] = vector }
        return vectors
    }
}
