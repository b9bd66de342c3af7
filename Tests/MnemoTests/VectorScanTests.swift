import Foundation
import MnemoEvaluation
import Testing

@testable import Mnemo

@Suite("Vector scan")
struct VectorScanTests {
    /// 20,000 rows: above the parallel threshold, so the scan is split between threads.
    @Test func theParallelExactScanMatchesBruteForce() {
        let corpus = SyntheticCorpus(.init(facts: 20_000, queries: 20, dimension: 48, seed: 9))
        var store = VectorSnapshot(dimension: 48)
        for (index, fact) in corpus.facts.enumerated() {
            store.upsert(
                id: Int64(index + 1), vector: Array(corpus.vector(ofFact: index)),
                attributes: .init(
                    namespace: "default", topicID: 1, type: fact.type, importance: fact.importance,
                    isActive: fact.isActive))
        }
        #expect(store.count > VectorSnapshot.parallelThreshold)
        let filter = VectorFilter(FactFilter(), namespaceCode: store.namespaceCode("default")!, topicIDs: nil)
        for query in corpus.queries {
            let scores = corpus.facts.indices.filter { corpus.facts[$0].isActive }.map { index in
                (
                    id: Int64(index + 1),
                    score: zip(corpus.vector(ofFact: index), query.vector).reduce(Float(0)) { $0 + $1.0 * $1.1 }
                )
            }.sorted { $0.score > $1.score }
            let exact = store.nearest(to: query.vector, k: 10, filter: filter)
            // Sums in another order differ in the last bits: compare ids where scores are apart.
            let expected = Set(scores.prefix(10).map(\.id))
            let found = Set(exact.map(\.id))
            let tenth = scores[9].score
            let eleventh = scores[10].score
            if tenth - eleventh > 1e-5 { #expect(found == expected) }
            for match in exact {
                #expect(abs(match.similarity - scores.first { $0.id == match.id }!.score) < 1e-4)
            }
            let quantized = store.nearest(
                to: query.vector, k: 10, filter: filter, precision: .quantized(rescoreFactor: 10))
            #expect(Set(quantized.map(\.id)).intersection(found).count >= 9)
        }
    }

    /// Hybrid search ranks its text matches as a task of the scan: it must run exactly once
    /// whether the scan is empty, on one thread or split, exact or quantized.
    @Test(arguments: [0, 100, 20_000])
    func workAlongsideTheScanRunsOnce(rows: Int) {
        var store = VectorSnapshot(dimension: 4)
        for row in 0..<rows {
            store.upsert(
                id: Int64(row + 1), vector: [1, Float(row % 7), 0, 1],
                attributes: .init(
                    namespace: "default", topicID: 1, type: .fact, importance: .medium, isActive: true))
        }
        let filter = VectorFilter(FactFilter(), namespaceCode: 0, topicIDs: nil)
        for precision in [VectorSnapshot.Precision.exact, .quantized(rescoreFactor: 10)] {
            let runs = Counter()
            let matches = store.nearest(
                to: [0.5, 0.5, 0.5, 0.5], k: 5, filter: filter, precision: precision, alongside: runs.increment)
            #expect(runs.value == 1)
            #expect(matches.count == min(5, rows))
        }
    }

    /// Below the parallel threshold the work and the scan both run on the calling thread: a
    /// second thread for a scan of a few thousand rows cost more than it saved.
    @Test func workBesideASmallScanRunsOnTheCallingThread() {
        var store = VectorSnapshot(dimension: 4)
        for row in 0..<500 {
            store.upsert(
                id: Int64(row + 1), vector: [1, Float(row % 7), 0, 1],
                attributes: .init(namespace: "default", topicID: 1, type: .fact, importance: .medium, isActive: true))
        }
        let filter = VectorFilter(FactFilter(), namespaceCode: 0, topicIDs: nil)
        let caller = pthread_self()
        let thread = Locked<pthread_t?>(nil)
        _ = store.nearest(
            to: [0.5, 0.5, 0.5, 0.5], k: 5, filter: filter, alongside: { thread.withLock { $0 = pthread_self() } })
        #expect(thread.withLock { $0 }.map { pthread_equal($0, caller) != 0 } == true)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
