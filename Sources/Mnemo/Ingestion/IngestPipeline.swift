import Foundation

/// Turns read records into stored facts, batch by batch: the one pipeline behind every
/// `ingest` entry point.
///
/// Without `strict`, checked records collect into batches of ``IngestOptions/batchSize``; each
/// batch is embedded (when the knowledge base has an embedder) and written by
/// `KnowledgeBase.storeBatch`, the write path of every new fact, in one transaction, while the
/// next batch is read. Reading and writing thus use both cores, and a failure never leaves part
/// of a batch visible. With `strict`, checked records are embedded as batches fill and held
/// until the input ends, then written in one transaction, or not at all when any record was
/// rejected.
///
/// Quotas: a record that would add a fact to a namespace at its limit is rejected as
/// ``IngestRejection/Code/quotaExceeded`` and the rest of its batch is stored (with `strict`,
/// nothing is). With ``QuotaPolicy/evictLeastValuable``, the facts this ingest added, in any of
/// its batches, are never evicted for its later records: the input's excess is rejected instead,
/// whatever the batch size.
struct IngestPipeline {
    private let knowledgeBase: KnowledgeBase
    private let options: IngestOptions
    private let defaultNamespace: String
    /// The one namespace records may go to, unless the options let them choose.
    private let pinnedNamespace: String?
    private let totalBytes: Int?
    private let batchSize: Int
    private(set) var report: IngestReport
    private var batch: [PendingFact] = []
    /// Where each record of ``batch`` is in the input, for a quota rejection.
    private var positions: [RecordPosition] = []
    /// With `strict`, the embedded batches waiting for the end of the input, and their positions.
    private var held: [PendingFact] = []
    private var heldPositions: [RecordPosition] = []
    /// The facts this ingest added, which an eviction spares; kept only under an evicting quota.
    private var addedIDs = Set<Int64>()
    private var topics = TopicPathCache()
    /// The batch being written while the next is read.
    private var inFlight: Task<FactWriter.Written, any Error>?
    private var inFlightPositions: [RecordPosition] = []
    private var bytesRead = 0

    init(knowledgeBase: KnowledgeBase, options: IngestOptions, format: IngestFormat?, totalBytes: Int?) throws {
        if let batchSize = options.batchSize, batchSize < 1 {
            throw MnemoError.invalidInput(
                field: "batchSize", reason: "\(batchSize) is not a number of records (at least 1)")
        }
        if options.namespacePolicy == .pinned, let other = options.defaultNamespace, other != knowledgeBase.namespace {
            throw MnemoError.invalidInput(
                field: "defaultNamespace",
                reason:
                    "this ingest is pinned to namespace \"\(knowledgeBase.namespace)\" and cannot default to \"\(other)\": ingest through inNamespace(\"\(other)\") instead, or let records choose with NamespacePolicy.fromRecords"
            )
        }
        self.knowledgeBase = knowledgeBase
        self.options = options
        self.defaultNamespace = options.defaultNamespace ?? knowledgeBase.namespace
        self.pinnedNamespace = options.namespacePolicy == .pinned ? knowledgeBase.namespace : nil
        self.totalBytes = totalBytes
        self.batchSize = options.resolvedBatchSize(embedding: knowledgeBase.embedder != nil)
        self.report = IngestReport(format: format)
        batch.reserveCapacity(options.strict ? 0 : batchSize)
    }

    /// Checks one read record and queues it, writing a batch when one is full.
    mutating func accept(_ item: ReadItem, bytesRead: Int) async throws {
        try await stopIfCancelled()
        self.bytesRead = bytesRead
        report.records += 1
        switch item {
        case .rejected(let rejection):
            report.reject(rejection, keepingAtMost: options.maximumReportedRejections)
        case .record(let record, let position, let nodeTopic):
            do {
                batch.append(
                    try record.pending(
                        defaultNamespace: defaultNamespace, pinned: pinnedNamespace, nodeTopic: nodeTopic,
                        topics: &topics))
                positions.append(position)
            } catch {
                report.reject(position.rejection(error), keepingAtMost: options.maximumReportedRejections)
            }
        }
        guard batch.count >= batchSize || (options.strict && report.records % batchSize == 0)
        else { return }
        if options.strict {
            try await hold()
            sendProgress(isFinished: false)
        } else {
            try await startWriting()
        }
    }

    /// Writes what is left and returns the report.
    mutating func finish() async throws -> IngestReport {
        // A cancelled record sequence simply ends (AsyncStream returns nil): the input is not
        // complete, so what is left is not written and the caller learns what landed.
        try await stopIfCancelled()
        if options.strict {
            try await hold()
            if report.rejectedCount > 0 {
                // All or nothing: a rejected record means nothing of this input is stored.
                report.committed = false
            } else if !held.isEmpty {
                let facts = held
                held = []
                inFlightPositions = heldPositions
                let knowledgeBase = knowledgeBase
                inFlight = Task { try await knowledgeBase.storeBatch(facts) }
            }
        } else if !batch.isEmpty {
            try await startWriting()
        }
        try await settle()
        sendProgress(isFinished: true)
        return report
    }

    /// Strict mode: embeds the batch and keeps it for the end, unless a record was rejected
    /// already, which means nothing will be written.
    private mutating func hold() async throws {
        defer {
            batch = []
            positions = []
        }
        guard report.rejectedCount == 0 else {
            held = []
            heldPositions = []
            return
        }
        if !batch.isEmpty {
            held += try await knowledgeBase.embedBatch(batch)
            heldPositions += positions
        }
    }

    /// When the task is cancelled: stops the batch in flight (see ``settle()``), then throws
    /// ``MnemoError/interrupted(stored:cause:)`` with what is stored, or `CancellationError`
    /// when nothing is. Records read but not yet written are dropped; with `strict`, nothing was
    /// written.
    private mutating func stopIfCancelled() async throws {
        guard Task.isCancelled else { return }
        try await settle()
        throw Self.cancelled(stored: report.accepted)
    }

    /// The error of an ingest cancelled after `stored` records were stored.
    private static func cancelled(stored: Int) -> any Error {
        stored == 0 ? CancellationError() : MnemoError.interrupted(stored: stored, cause: .cancelled)
    }

    /// Waits for the batch in flight, if any, and counts its outcomes.
    ///
    /// The batch runs in a task of its own (so that the next batch is read meanwhile), which the
    /// ingesting task's cancellation does not reach by itself: it is passed on, so the batch
    /// stops at its next embedding pass or rolls back its transaction instead of running to
    /// its end. A batch that committed before it noticed is counted.
    mutating func settle() async throws {
        guard let task = inFlight else { return }
        inFlight = nil
        let written: FactWriter.Written
        do {
            written = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch is CancellationError {
            throw Self.cancelled(stored: report.accepted)
        } catch let refusal as FactWriter.QuotaRefusal {
            // Strict: the quota refused records of the held input, so none of it was stored.
            for index in refusal.indices {
                report.reject(
                    inFlightPositions[index].quotaRejection(limit: refusal.limit),
                    keepingAtMost: options.maximumReportedRejections)
            }
            report.committed = false
            sendProgress(isFinished: false)
            return
        } catch {
            throw MnemoError.interrupted(stored: report.accepted, cause: MnemoError(error))
        }
        report.count(written, positions: inFlightPositions, keepingAtMost: options.maximumReportedRejections)
        if knowledgeBase.quotaPolicy == .evictLeastValuable {
            for case .added(let fact)? in written.outcomes { addedIDs.insert(fact.id) }
        }
        sendProgress(isFinished: false)
    }

    private mutating func startWriting() async throws {
        let facts = batch
        let factPositions = positions
        batch = []
        positions = []
        batch.reserveCapacity(batchSize)
        // One batch at a time: a record may duplicate one of the batch before it, which must
        // be stored first (and an eviction must know every fact the batches before added).
        try await settle()
        let knowledgeBase = knowledgeBase
        let protected = addedIDs
        inFlightPositions = factPositions
        inFlight = Task {
            try await knowledgeBase.storeBatch(
                knowledgeBase.embedBatch(facts), allOrNothing: false, protecting: protected)
        }
    }

    private func sendProgress(isFinished: Bool) {
        guard let progress = options.progress else { return }
        progress(
            IngestProgress(
                bytesRead: bytesRead, totalBytes: totalBytes, recordsRead: report.records,
                added: report.added, merged: report.merged, unchanged: report.unchanged,
                rejected: report.rejectedCount, isFinished: isFinished))
    }
}
