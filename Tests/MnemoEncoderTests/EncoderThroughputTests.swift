import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoEncoder

/// Encoder throughput on 320 short facts (Scripts/embedding-bench/facts.txt), batch 32, 2 threads.
///
/// A measurement, not a check: it only runs when `MNEMO_BENCH=1`, in a release build:
/// `MNEMO_BENCH=1 MNEMO_MODEL=… swift test -c release --filter EncoderThroughput`.
/// `Scripts/embedding-bench/bench_pytorch.py` measures sentence-transformers on the same facts.
@Suite("Encoder throughput", .enabled(if: ProcessInfo.processInfo.environment["MNEMO_BENCH"] == "1"))
struct EncoderThroughputTests {
    @Test("sentences per second, 320 facts, batch 32, 2 threads")
    func throughput() throws {
        let factsURL = ModelFixture.repositoryRoot.appendingPathComponent("Scripts/embedding-bench/facts.txt")
        let facts = try String(contentsOf: factsURL, encoding: .utf8).split(separator: "\n").map(String.init)
        let loadStart = Date()
        let encoder = try SentenceEncoder(modelDirectory: ModelFixture.requireModel(), batchSize: 32, threadCount: 2)
        let loadTime = Date().timeIntervalSince(loadStart)
        let tokens = facts.reduce(0) { $0 + encoder.tokenizer.encode($1).count }
        _ = encoder.encode(facts)
        var times: [Double] = []
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = encoder.encode(facts)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        times.sort()
        let single = DispatchTime.now().uptimeNanoseconds
        for fact in facts.prefix(32) { _ = encoder.encode(fact) }
        let singleTime = Double(DispatchTime.now().uptimeNanoseconds - single) / 1e9 / 32
        print(
            String(
                format:
                    "swift kernel=%@ threads=2 batch=32 facts=%d tokens=%d load=%.2f s best=%.1f ms median=%.1f ms -> %.1f sentences/s (median %.1f); one text alone: %.2f ms",
                KernelInstructionSet.preferred == .portable
                    ? LinearLayerKernel.preferred.rawValue : KernelInstructionSet.preferred.rawValue, facts.count,
                tokens, loadTime, times[0] * 1000, times[2] * 1000,
                Double(facts.count) / times[0], Double(facts.count) / times[2], singleTime * 1000))
    }
}
