import Foundation
import MnemoEvaluation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// A graph build that is cancelled (its task cancelled, or its knowledge base released while it
/// runs in the background) stops within a node per thread, installs and saves nothing, and the
/// next build succeeds. Cancellations come from progress reports, never from a clock.
@Suite("Graph build cancellation")
struct GraphBuildCancellationTests {
    static let corpus = SyntheticCorpus(.init(facts: 6_000, queries: 10, dimension: 64, seed: 43))

    /// Opens the knowledge base at `path`, its graph used from 1,000 facts on and built on one
    /// thread with a wide insertion beam: a build of the corpus takes a while.
    static func open(_ path: String) throws -> KnowledgeBase {
        let kb = try KnowledgeBase(path: path, embedder: corpus.embedder())
        kb.vectorIndex!.approximate.settings.minimumRows = 1_000
        kb.vectorIndex!.approximate.settings.exactScanMaximum = 0
        kb.vectorIndex!.approximate.settings.buildThreads = 1
        kb.vectorIndex!.approximate.settings.parameters.constructionWidth = 400
        return kb
    }

    static func file(of kb: KnowledgeBase) -> URL {
        kb.vectorIndex!.approximate.storage!.url(of: kb.namespace)
    }

    /// The highest progress a build reported, and whether it was told to stop.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var highest = -1
        private var stop = false
        let stopAt: Int

        init(stopAt: Int) { self.stopAt = stopAt }

        var maximum: Int { lock.withLock { highest } }
        var isCancelled: Bool { lock.withLock { stop } }

        func report(_ done: Int) {
            lock.withLock {
                highest = max(highest, done)
                if done >= stopAt { stop = true }
            }
        }
    }

    @Test(arguments: [1, 2])
    func aCancelledInsertionStopsWithinANodePerThread(threads: Int) {
        let store = ParallelGraphBuildTests.store
        let rows = store.namespaceRows("")
        let graph = NeighborGraph(dimension: store.dimension)
        let reports = Reports(stopAt: 2_000)
        let whole = graph.insert(
            rows: rows, of: store, threads: threads, isCancelled: { reports.isCancelled },
            progress: { reports.report($0) })
        #expect(!whole)
        // Progress comes every thousand nodes, taken in order: had any thread gone on linking
        // after the cancellation, the one that linked node 3,000 would have reported it.
        #expect(reports.maximum == 2_000, "\(rows.count) rows")
        // A whole build of the same rows says so.
        #expect(NeighborGraph(dimension: store.dimension).insert(rows: rows, of: store, threads: threads) { _ in })
    }

    @Test func cancellingTheTaskThatWaitsStopsTheBuild() async throws {
        let kb = try Self.open(try TestKnowledgeBase.temporaryPath())
        _ = try await kb.addFacts(Self.corpus.facts, nearDuplicates: nil)
        let approximate = kb.vectorIndex!.approximate
        let task = Task { try await kb.buildVectorGraph() }
        // Waits on this thread, not by suspending: under a full test run the cooperative
        // threads may all be taken for longer than the build lasts.
        Self.waitUntilBuilt(1_000, of: kb.namespace, in: approximate)
        #expect(approximate.isBuilding(kb.namespace), "the build ended before it was cancelled")
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!approximate.isBuilding(kb.namespace))
        #expect(!approximate.hasGraph(kb.namespace))
        // No build counted: the insertion stopped before the last node.
        #expect(approximate.statistics == .init(builds: 0, saves: 0, cancellations: 1), "\(approximate.statistics)")
        #expect(!FileManager.default.fileExists(atPath: Self.file(of: kb).path))

        // Searches still answer every query in full (the scan while a search starts a new build).
        for query in Self.corpus.queries {
            let exact = try await ApproximateIndexTests.ids(kb, query.text, .exact)
            let approximate = try await ApproximateIndexTests.ids(kb, query.text, .approximate)
            #expect(approximate.count == exact.count)
        }
        #expect(try await kb.buildVectorGraph())
        #expect(approximate.hasGraph(kb.namespace))
        #expect(approximate.statistics.builds == 1 && approximate.statistics.saves == 1, "\(approximate.statistics)")
        #expect(FileManager.default.fileExists(atPath: Self.file(of: kb).path))
        try await Self.expectGraphAnswers(kb)
    }

    @Test func releasingTheKnowledgeBaseStopsItsBackgroundBuild() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        var kb: KnowledgeBase? = try Self.open(path)
        _ = try await kb!.addFacts(Self.corpus.facts, nearDuplicates: nil)
        _ = try await kb!.vectorSnapshot()
        let namespace = kb!.namespace
        let file = Self.file(of: kb!)
        let approximate = kb!.vectorIndex!.approximate
        weak var lifetime = kb!.vectorIndexLifetime
        kb!.vectorIndex!.buildGraphInBackground(of: namespace)
        Self.waitUntilBuilt(1_000, of: namespace, in: approximate)
        let deadline = ContinuousClock.now + .seconds(120)
        #expect(approximate.isBuilding(namespace), "the build ended before it was cancelled")
        kb = nil
        #expect(lifetime == nil, "something else holds the knowledge base")
        while approximate.isBuilding(namespace), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(!approximate.isBuilding(namespace))
        #expect(!approximate.hasGraph(namespace))
        #expect(approximate.statistics == .init(builds: 0, saves: 0, cancellations: 1), "\(approximate.statistics)")
        #expect(!FileManager.default.fileExists(atPath: file.path))

        let reopened = try Self.open(path)
        #expect(try await reopened.buildVectorGraph())
        let statistics = reopened.vectorIndex!.approximate.statistics
        #expect(statistics.builds == 1 && statistics.loads == 0 && statistics.saves == 1, "\(statistics)")
        #expect(FileManager.default.fileExists(atPath: file.path))
        try await Self.expectGraphAnswers(reopened)
    }

    /// Blocks until the build of `namespace` has reported `count` facts or ended: polling on this
    /// thread, so that a starved cooperative pool cannot make it miss the build (two minutes at
    /// most, a safety net: 6,000 facts report 1,000 long before).
    static func waitUntilBuilt(_ count: Int, of namespace: String, in approximate: ApproximateIndex) {
        let deadline = ContinuousClock.now + .seconds(120)
        while (approximate.progressOfBuild(of: namespace)?.done ?? 0) < count, ContinuousClock.now < deadline {
            if !approximate.isBuilding(namespace), approximate.hasGraph(namespace) { return }
            usleep(1_000)
        }
    }

    /// The graph answers every query, as many results as the exact scan, recall@10 ≥ 0.9.
    static func expectGraphAnswers(_ kb: KnowledgeBase) async throws {
        let before = kb.vectorIndex!.approximate.pathCounts[.graph, default: 0]
        var total = 0.0
        for query in corpus.queries {
            let exact = try await ApproximateIndexTests.ids(kb, query.text, .exact)
            let approximate = try await ApproximateIndexTests.ids(kb, query.text, .approximate)
            #expect(approximate.count == exact.count)
            total += ApproximateIndexTests.recall(approximate, exact)
        }
        #expect(total / Double(corpus.queries.count) >= 0.9)
        #expect(kb.vectorIndex!.approximate.pathCounts[.graph, default: 0] - before == corpus.queries.count)
    }
}
