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
    /// With `strict`, the embedded batches waiting for the end of the input.
    private var held: [PendingFact] = []
    private var topics = TopicPathCache()
    /// The batch being written while the next is read.
    private var inFlight: Task<[FactWriter.Outcome], any Error>?
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
        defer { batch = [] }
        guard report.rejectedCount == 0 else {
            held = []
            return
        }
        if !batch.isEmpty { held += try await knowledgeBase.embedBatch(batch) }
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
        let outcomes: [FactWriter.Outcome]
        do {
            outcomes = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch is CancellationError {
            throw Self.cancelled(stored: report.accepted)
        } catch {
            throw MnemoError.interrupted(stored: report.accepted, cause: MnemoError(error))
        }
        for outcome in outcomes { report.count(outcome) }
        sendProgress(isFinished: false)
    }

    private mutating func startWriting() async throws {
        let facts = batch
        batch = []
        batch.reserveCapacity(batchSize)
        // One batch at a time: a record may duplicate one of the batch before it, which must
        // be stored first.
        try await settle()
        let knowledgeBase = knowledgeBase
        inFlight = Task { try await knowledgeBase.storeBatch(knowledgeBase.embedBatch(facts)) }
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
