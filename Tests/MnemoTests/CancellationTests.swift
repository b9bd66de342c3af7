import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// A cancelled task stops searching, writing, ingesting and re-embedding within one batch, with
/// the errors `MnemoError`'s documentation names: `CancellationError` when nothing of the call
/// was stored, `MnemoError.interrupted(stored:cause: .cancelled)` when batches were committed.
@Suite("Cancellation", .serialized)
struct CancellationTests {
    /// How many embedder calls may start after `cancel()`: the library stops within one batch.
    /// (Counted rather than timed, so that the check holds on a loaded machine. Run alone, the
    /// calls below stop 0.3–1.2 ms after `cancel()` with an embedder that checks for cancellation
    /// and within the call in flight, 20–40 ms, with one that does not; `cancelDuringWork`
    /// records the delay as an attachment.)
    static let allowedCallsAfterCancel = 1

    /// Runs `work` in a task that is cancelled before it starts.
    static func inCancelledTask<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async -> Result<
        T, any Error
    > {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await work()
        }
        return await task.result
    }

    /// Starts `work`, waits until `ready` holds, cancels, and returns how the task ended, how
    /// long it took to end after `cancel()`, and how many calls of `embedder` started after it.
    static func cancelDuringWork<T: Sendable>(
        _ work: @escaping @Sendable () async throws -> T, embedder: DelayedEmbedder, when ready: () async throws -> Bool
    ) async throws -> (result: Result<T, any Error>, delay: Duration, callsAfterCancel: Int) {
        let task = Task { try await work() }
        while try await !ready() { try await Task.sleep(for: .milliseconds(2)) }
        let clock = ContinuousClock()
        let start = clock.now
        let callsBefore = embedder.calls.withLock { $0 }
        task.cancel()
        let result = await task.result
        let delay = clock.now - start
        Attachment.record("\(delay)", named: "delay after cancel()")
        return (result, delay, embedder.calls.withLock { $0 } - callsBefore)
    }

    static func facts(_ count: Int) -> [NewFact] {
        (0..<count).map { NewFact(content: "Remembered item \($0) of the list", topicPath: "Load") }
    }

    static func isCancellation<T>(_ result: Result<T, any Error>) -> Bool {
        if case .failure(let error) = result { return error is CancellationError }
        return false
    }

    // MARK: search

    @Test func aTextSearchInACancelledTaskReturnsNoHits() async throws {
        let kb = try await TestKnowledgeBase.with([NewFact(content: "Likes green tea", topicPath: "Food")])
        #expect(try await kb.search("tea").count == 1)
        let result = await Self.inCancelledTask { try await kb.search("tea") }
        #expect(Self.isCancellation(result), "\(result)")
    }

    @Test func aHybridSearchInACancelledTaskReturnsNoHits() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: SeededEmbedder())
        try await kb.addFact(NewFact(content: "Likes green tea", topicPath: "Food"))
        let result = await Self.inCancelledTask { try await kb.search("tea", mode: .hybrid) }
        #expect(Self.isCancellation(result), "\(result)")
    }

    @Test func aSearchCancelledWhileItsQueryIsEmbeddedStops() async throws {
        let embedder = DelayedEmbedder(delay: .milliseconds(200), checksCancellation: false)
        let kb = try KnowledgeBase.inMemory(embedder: embedder)
        try await kb.addFacts([NewFact(content: "Likes green tea", topicPath: "Food")])
        let before = embedder.calls.withLock { $0 }
        // The embedder ignores cancellation and returns its vector: the search must not go on
        // to return hits.
        let (result, delay, calls) = try await Self.cancelDuringWork(
            { try await kb.search("tea", mode: .semantic) },
            embedder: embedder,
            when: {
                embedder.calls.withLock { $0 } > before
            })
        #expect(Self.isCancellation(result), "\(result) after \(delay)")
        #expect(calls == 0)
    }

    // MARK: writes

    @Test func addFactInACancelledTaskStoresNothing() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: SeededEmbedder())
        let result = await Self.inCancelledTask {
            try await kb.addFact(NewFact(content: "Likes tea", topicPath: "Food"))
        }
        #expect(Self.isCancellation(result), "\(result)")
        #expect(try await kb.stats().facts == 0)
    }

    @Test func addFactWithoutAnEmbedderInACancelledTaskStoresNothing() async throws {
        let kb = try TestKnowledgeBase.empty()
        let result = await Self.inCancelledTask {
            try await kb.addFact(NewFact(content: "Likes tea", topicPath: "Food"))
        }
        #expect(Self.isCancellation(result), "\(result)")
        #expect(try await kb.stats().facts == 0)
    }

    @Test(arguments: [true, false])
    func addFactsStopsWithinOneEmbedderCall(embedderChecksCancellation: Bool) async throws {
        let embedder = DelayedEmbedder(delay: .milliseconds(40), checksCancellation: embedderChecksCancellation)
        let kb = try KnowledgeBase.inMemory(embedder: embedder)
        let clock = ContinuousClock()
        let start = clock.now
        let (result, delay, calls) = try await Self.cancelDuringWork(
            { try await kb.addFacts(Self.facts(3_000)) },
            embedder: embedder,
            when: {
                clock.now - start > .milliseconds(100)
            })
        #expect(Self.isCancellation(result), "\(result)")
        #expect(
            calls <= Self.allowedCallsAfterCancel,
            "addFacts made \(calls) embedder calls in the \(delay) after cancel()")
        #expect(try await kb.stats().facts == 0)
    }

    // MARK: ingest

    static func jsonl(_ count: Int) -> Data {
        Data(
            (0..<count).map { #"{"topic": "Load", "content": "Remembered item \#($0) of the list"}"# }.joined(
                separator: "\n"
            ).utf8)
    }

    @Test(arguments: [true, false])
    func ingestStopsWithinOneEmbedderCallAndKeepsCommittedBatches(embedderChecksCancellation: Bool) async throws {
        // Batches of 1,000 records take 8 embedder calls of 128 texts (about 320 ms): waiting for
        // the batch in flight to finish, as an ingest did before, takes far longer than one call.
        let embedder = DelayedEmbedder(delay: .milliseconds(40), checksCancellation: embedderChecksCancellation)
        let kb = try KnowledgeBase.inMemory(embedder: embedder)
        let data = Self.jsonl(5_000)
        let clock = ContinuousClock()
        var committedAt: ContinuousClock.Instant?
        let (result, delay, calls) = try await Self.cancelDuringWork(
            {
                try await kb.ingest(data: data, options: IngestOptions(format: .jsonl, batchSize: 1_000))
            },
            embedder: embedder,
            when: {
                // Cancel 60 ms into the batch after the first commit.
                if committedAt == nil, try await kb.stats().facts >= 1_000 { committedAt = clock.now }
                return committedAt.map { clock.now - $0 > .milliseconds(60) } ?? false
            })
        #expect(
            calls <= Self.allowedCallsAfterCancel, "ingest made \(calls) embedder calls in the \(delay) after cancel()")
        guard case .failure(MnemoError.interrupted(let stored, let cause)) = result else {
            Issue.record("expected interrupted(stored:cause:), got \(result)")
            return
        }
        #expect(cause == .cancelled)
        #expect(stored % 1_000 == 0 && stored >= 1_000 && stored < 5_000)
        #expect(try await kb.stats().facts == stored)
    }

    @Test func anIngestCancelledBeforeItStoredAnythingThrowsCancellationError() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: SeededEmbedder())
        let data = Self.jsonl(10)
        let result = await Self.inCancelledTask { try await kb.ingest(data: data) }
        #expect(Self.isCancellation(result), "\(result)")
        #expect(try await kb.stats().facts == 0)
    }

    // MARK: re-embedding

    @Test(arguments: [true, false])
    func reembedStopsWithinOneBatch(embedderChecksCancellation: Bool) async throws {
        let embedder = DelayedEmbedder(delay: .milliseconds(40), checksCancellation: embedderChecksCancellation)
        let kb = try KnowledgeBase.inMemory(embedder: embedder)
        try await kb.addFacts(Self.facts(1_280), nearDuplicates: nil)
        let progress = Locked(0)
        let (result, delay, calls) = try await Self.cancelDuringWork(
            {
                try await kb.reembed(batchSize: 128) { report in progress.withLock { $0 = report.done } }
            },
            embedder: embedder,
            when: {
                progress.withLock { $0 } >= 256
            })
        #expect(
            calls <= Self.allowedCallsAfterCancel, "reembed made \(calls) embedder calls in the \(delay) after cancel()"
        )
        guard case .failure(MnemoError.interrupted(let stored, let cause)) = result else {
            Issue.record("expected interrupted(stored:cause:), got \(result)")
            return
        }
        #expect(cause == .cancelled)
        #expect(stored >= 256 && stored < 1_280)
    }

    @Test func aReembedCancelledBeforeItsFirstBatchThrowsCancellationError() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: SeededEmbedder())
        try await kb.addFact(NewFact(content: "Likes tea", topicPath: "Food"))
        let result = await Self.inCancelledTask { try await kb.reembed() }
        #expect(Self.isCancellation(result), "\(result)")
    }
}
