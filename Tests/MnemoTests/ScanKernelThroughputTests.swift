import Foundation
import MnemoEvaluation
import Testing

@testable import Mnemo

/// The vector scan of 100,000 rows of 384 dimensions on each kernel path, in interleaved rounds
/// within one process (so the paths share the machine's conditions).
///
/// A measurement, not a check: it only runs when `MNEMO_BENCH=1`, in a release build:
/// `MNEMO_BENCH=1 swift test -c release --filter ScanKernelThroughput`.
@Suite("Scan kernel throughput", .enabled(if: ProcessInfo.processInfo.environment["MNEMO_BENCH"] == "1"))
struct ScanKernelThroughputTests {
    @Test("int8 and float scans of 100k vectors, every kernel path, 1 and all threads")
    func scans() {
        let corpus = SyntheticCorpus(.init(facts: 100_000, queries: 50, dimension: 384, seed: 42))
        var store = VectorSnapshot(dimension: 384)
        for (index, fact) in corpus.facts.enumerated() {
            store.upsert(
                id: Int64(index + 1), vector: Array(corpus.vector(ofFact: index)),
                attributes: .init(
                    namespace: "default", topicID: 1, type: fact.type, importance: fact.importance, isActive: true))
        }
        let filter = VectorFilter(FactFilter(), namespaceCode: store.namespaceCode("default")!, topicIDs: nil)
        let precisions: [(String, VectorSnapshot.Precision)] = [
            ("int8", .quantized(rescoreFactor: 10)), ("float", .exact),
        ]
        for threads in [1, VectorSnapshot.defaultThreads] {
            var samples: [String: [Duration]] = [:]
            let clock = ContinuousClock()
            for round in 0..<5 {
                for path in KernelInstructionSet.available {
                    for (name, precision) in precisions {
                        for query in corpus.queries.prefix(round == 0 ? 5 : 50) {
                            let start = clock.now
                            _ = store.nearest(
                                to: query.vector, k: 10, filter: filter, precision: precision,
                                threads: threads, instructionSet: path)
                            if round > 0 { samples["\(name) \(path.rawValue)", default: []].append(clock.now - start) }
                        }
                    }
                }
            }
            for key in samples.keys.sorted() {
                let stats = LatencyStats(samples: samples[key]!)
                print(
                    String(
                        format:
                            "scan 100k×384 %@ threads=%d: p50 %.2f ms, mean %.2f ms (%d queries, 4 interleaved rounds)",
                        key, threads, stats.p50.milliseconds, stats.mean.milliseconds, stats.count))
            }
        }
    }
}
