import Foundation
import Testing
@testable import Mnemo

/// A cancelled task stops searching, writing, ingesting and re-embedding within one batch, with
/// the errors `MnemoError`'s documentation names: `CancellationError` when nothing of the call
/// was stored, `MnemoError.interrupted(stored:cause: .cancelled)` when batches were committed.
@Suite("Cancellation", .serialized)
struct CancellationTests {
    /// How long after `cancel()` a call may take to stop. The library stops within one embedder
    /// call (20–40 ms here); the rest is slack for a debug build on shared, busy cores.
    static let allowedDelay = Duration.milliseconds(400)

    /// Runs `work` in a task that is cancelled before it starts.
    static func inCancelledTask<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async -> Result<T, any Error> {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await work()
        }
        return await task.result
    }

    /// Starts `work`, waits until `ready` holds, cancels, and returns how long the task took to
    /// end after `cancel()` and how it ended.
    static func cancelDuringWork<T: Sendable>(
        _ work: @escaping @Sendable () async throws -> T, when ready: () async throws -> Bool
    ) async throws -> (delay: Duration, result: Result<T, any Error>) {
        let task = Task { try await work() }
        while try await !ready() { try await Task.sleep(for: .milliseconds(2)) }
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        let result = await task.result
        return (clock.now - start, result)
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
        let (delay, result) = try await Self.cancelDuringWork({ try await kb.search("tea", mode: .semantic) }) {
            embedder.calls.withLock { $0 } > before
        }
        #expect(Self.isCancellation(result), "\(result)")
        #expect(delay < Self.allowedDelay, "search took \(delay) to stop")
    }

    // MARK: writes

    @Test func addFactInACancelledTaskStoresNothing() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: SeededEmbedder())
        let result = await Self.inCancelledTask { try await kb.addFact(NewFact(content: "Likes tea", topicPath: "Food")) }
        #expect(Self.isCancellation(result), "\(result)")
        #expect(try await kb.stats().facts == 0)
    }

    @Test func addFactWithoutAnEmbedderInACancelledTaskStoresNothing() async throws {
        let kb = try TestKnowledgeBase.empty()
        let result = await Self.inCancelledTask { try await kb.addFact(NewFact(content: "Likes tea", topicPath: "Food")) }
        #expect(Self.isCancellation(result), "\(result)")
        #expect(try await kb.stats().facts == 0)
    }

    @Test(arguments: [true, false])
    func addFactsStopsWithinOneEmbedderCall(embedderChecksCancellation: Bool) async throws {
        let embedder = DelayedEmbedder(delay: .milliseconds(40), checksCancellation: embedderChecksCancellation)
        let kb = try KnowledgeBase.inMemory(embedder: embedder)
        let clock = ContinuousClock()
        let start = clock.now
        let (delay, result) = try await Self.cancelDuringWork({ try await kb.addFacts(Self.facts(3_000)) }) {
            clock.now - start > .milliseconds(100)
        }
        #expect(Self.isCancellation(result), "\(result)")
        #expect(delay < Self.allowedDelay, "addFacts took \(delay) to stop")
        #expect(try await kb.stats().facts == 0)
    }

    // MARK: ingest

    static func jsonl(_ count: Int) -> Data {
        Data((0..<count).map { #"{"topic": "Load", "content": "Remembered item \#($0) of the list"}"# }.joined(separator: "\n").utf8)
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
        let (delay, result) = try await Self.cancelDuringWork({
            try await kb.ingest(data: data, options: IngestOptions(format: .jsonl, batchSize: 1_000))
        }) {
            // Cancel 60 ms into the batch after the first commit.
            if committedAt == nil, try await kb.stats().facts >= 1_000 { committedAt = clock.now }
            return committedAt.map { clock.now - $0 > .milliseconds(60) } ?? false
        }
        #expect(delay < Self.allowedDelay, "ingest took \(delay) to stop")
        guard case let .failure(MnemoError.interrupted(stored, cause)) = result else {
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
        let (delay, result) = try await Self.cancelDuringWork({
            try await kb.reembed(batchSize: 128) { report in progress.withLock { $0 = report.done } }
        }) {
            progress.withLock { $0 } >= 256
        }
        #expect(delay < Self.allowedDelay, "reembed took \(delay) to stop")
        guard case let .failure(MnemoError.interrupted(stored, cause)) = result else {
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
