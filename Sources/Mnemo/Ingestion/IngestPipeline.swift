import Foundation

/// Turns read records into stored facts, batch by batch: the one pipeline behind every
/// `ingest` entry point.
///
/// Without `strict`, checked records collect into batches of ``IngestOptions/batchSize``; each
/// batch is written by ``KnowledgeBase/storeBatch(_:)`` in one transaction while the next one is
/// read, so reading and writing use both cores and a failure never leaves part of a batch
/// visible. With `strict`, every checked record is held until the input ends and then written
/// in one transaction, or not at all when any record was rejected.
struct IngestPipeline {
    private let knowledgeBase: KnowledgeBase
    private let options: IngestOptions
    private let defaultNamespace: String
    private let totalBytes: Int?
    private(set) var report: IngestReport
    private var batch: [PendingFact] = []
    private var topics = TopicPathCache()
    /// The batch being written while the next is read.
    private var inFlight: Task<[FactWriter.Outcome], any Error>?
    private var bytesRead = 0

    init(knowledgeBase: KnowledgeBase, options: IngestOptions, format: IngestFormat?, totalBytes: Int?) {
        self.knowledgeBase = knowledgeBase
        self.options = options
        self.defaultNamespace = options.defaultNamespace ?? knowledgeBase.namespace
        self.totalBytes = totalBytes
        self.report = IngestReport(format: format)
        batch.reserveCapacity(options.strict ? 0 : options.batchSize)
    }

    /// Checks one read record and queues it, writing a batch when one is full.
    mutating func accept(_ item: ReadItem, bytesRead: Int) async throws {
        self.bytesRead = bytesRead
        report.records += 1
        switch item {
        case let .rejected(rejection):
            report.reject(rejection, keepingAtMost: options.maximumReportedRejections)
        case let .record(record, position, nodeTopic):
            do {
                batch.append(try record.pending(defaultNamespace: defaultNamespace, nodeTopic: nodeTopic, topics: &topics))
            } catch {
                report.reject(position.rejection(error), keepingAtMost: options.maximumReportedRejections)
            }
        }
        if options.strict {
            if report.records % options.batchSize == 0 { sendProgress(isFinished: false) }
        } else if batch.count >= options.batchSize {
            try await startWriting()
        }
    }

    /// Writes what is left and returns the report.
    mutating func finish() async throws -> IngestReport {
        if options.strict, report.rejectedCount > 0 {
            // All or nothing: a rejected record means nothing of this input is stored.
            batch = []
            report.committed = false
        } else if !batch.isEmpty {
            try await startWriting()
        }
        try await settle()
        sendProgress(isFinished: true)
        return report
    }

    /// Waits for the batch in flight, if any, and counts its outcomes.
    mutating func settle() async throws {
        guard let task = inFlight else { return }
        inFlight = nil
        let outcomes: [FactWriter.Outcome]
        do {
            outcomes = try await task.value
        } catch {
            throw MnemoError.ingestInterrupted(stored: report.accepted, reason: "\(error)")
        }
        for outcome in outcomes { report.count(outcome) }
        sendProgress(isFinished: false)
    }

    private mutating func startWriting() async throws {
        let facts = batch
        batch = []
        batch.reserveCapacity(options.batchSize)
        // One batch at a time: a record may duplicate one of the batch before it, which must
        // be stored first.
        try await settle()
        let knowledgeBase = knowledgeBase
        inFlight = Task { try await knowledgeBase.storeBatch(facts) }
    }

    private func sendProgress(isFinished: Bool) {
        guard let progress = options.progress else { return }
        progress(IngestProgress(
            bytesRead: bytesRead, totalBytes: totalBytes, recordsRead: report.records,
            added: report.added, merged: report.merged, unchanged: report.unchanged,
            rejected: report.rejectedCount, isFinished: isFinished))
    }
}
