import Foundation
import MnemoEvaluation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Measures what following foreign commits costs: the check before each search, and catching
/// up after another connection adds 1,000 facts to a 100k knowledge base. A measurement, not a
/// test: it runs only with MNEMO_BENCH=1 (`MNEMO_BENCH=1 swift test -c release --filter CatchUp`).
@Suite("Catch-up cost (MNEMO_BENCH=1)")
struct CatchUpBenchmarkTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MNEMO_BENCH"] == "1"))
    func catchUpAfterAnotherConnectionAddsFacts() async throws {
        let base = Int(ProcessInfo.processInfo.environment["MNEMO_BENCH_FACTS"] ?? "") ?? 100_000
        let added = 1_000
        let rounds = 5
        let corpus = SyntheticCorpus(SyntheticCorpus.Configuration(facts: base + added * rounds, queries: 200))
        let path = try TestKnowledgeBase.temporaryPath()
        let reader = try KnowledgeBase(path: path, embedder: corpus.embedder())
        let writer = try KnowledgeBase(path: path, embedder: corpus.embedder())
        for start in stride(from: 0, to: base, by: 5_000) {
            try await writer.addFacts(Array(corpus.facts[start..<min(base, start + 5_000)]), nearDuplicates: nil)
        }
        let clock = ContinuousClock()
        let index = try #require(reader.vectorIndex)
        let load = try clock.measure { _ = try index.snapshot(reader.writer.base) }

        // The check a search makes when nothing changed: read the latest change number, compare.
        let checks = 20_000
        let check = try clock.measure { for _ in 0..<checks { _ = try index.snapshot(reader.writer.base) } } / checks

        func p50(_ mode: SearchMode) async throws -> Duration {
            var times: [Duration] = []
            for query in corpus.queries {
                let start = clock.now
                _ = try await reader.search(SearchQuery(query.text, mode: mode, limit: 10))
                times.append(clock.now - start)
            }
            return times.sorted()[times.count / 2]
        }
        let textP50 = try await p50(.text)
        let hybridP50 = try await p50(.hybrid)

        var firstSearches: [Duration] = []
        for round in 0..<rounds {
            let start = base + round * added
            try await writer.addFacts(Array(corpus.facts[start..<start + added]), nearDuplicates: nil)
            let loads = index.statistics.fullLoads
            let query = corpus.queries[round]
            let begin = clock.now
            _ = try await reader.search(SearchQuery(query.text, mode: .hybrid, limit: 10))
            firstSearches.append(clock.now - begin)
            #expect(index.statistics.fullLoads == loads, "caught up incrementally")
        }
        #expect(try index.snapshot(reader.writer.base).count == base + added * rounds)
        index.invalidate()
        let reload = try clock.measure { _ = try index.snapshot(reader.writer.base) }
        func ms(_ d: Duration) -> String {
            String(format: "%.2f ms", Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1e3)
        }
        print(
            """
            catch-up benchmark, \(base) facts + \(rounds) × \(added) added by another connection:
              first load of the index: \(ms(load)); full reload at the end: \(ms(reload))
              check per search when nothing changed: \(String(format: "%.1f µs", Double(check.components.attoseconds) / 1e12))
              steady p50: text \(ms(textP50)), hybrid \(ms(hybridP50))
              first hybrid search after each foreign batch of \(added): \(firstSearches.map(ms).joined(separator: ", "))
            """)
    }
}
