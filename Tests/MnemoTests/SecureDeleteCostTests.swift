import Foundation
import GRDB
import MnemoEvaluation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Measures what `PRAGMA secure_delete` (on since erasure, see `DatabaseFactory.prepare`) costs
/// ingest: the same JSONL ingested into a fresh file with it on, as Mnemo opens files, and off.
/// A measurement, not a test: it runs only with MNEMO_BENCH=1
/// (`MNEMO_BENCH=1 swift test -c release --filter SecureDeleteCost`); MNEMO_BENCH_FACTS sets the
/// number of facts (20,000 by default).
@Suite("secure_delete cost (MNEMO_BENCH=1)")
struct SecureDeleteCostTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MNEMO_BENCH"] == "1"))
    func ingestWithAndWithoutSecureDelete() async throws {
        let count = Int(ProcessInfo.processInfo.environment["MNEMO_BENCH_FACTS"] ?? "") ?? 20_000
        let corpus = SyntheticCorpus(SyntheticCorpus.Configuration(facts: count, queries: 1))
        let lines = corpus.facts.enumerated().map { index, fact in
            #"{"topic": "Topic \#(index % 50)", "content": "\#(fact.content)", "importance": "medium"}"#
        }
        let data = Data(lines.joined(separator: "\n").utf8)
        for embedded in [false, true] {
            var seconds: [Bool: [Double]] = [true: [], false: []]
            // Alternating runs, three each, so that a busy machine weighs on both alike.
            for _ in 0..<3 {
                for secure in [true, false] {
                    let kb = try Self.knowledgeBase(secureDelete: secure, embedder: embedded ? corpus.embedder() : nil)
                    let start = ContinuousClock.now
                    let report = try await kb.ingest(data: data, options: IngestOptions(format: .jsonl))
                    let elapsed = ContinuousClock.now - start
                    #expect(report.added == corpus.facts.count)
                    seconds[secure]!.append(
                        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                }
            }
            func line(_ secure: Bool) -> String {
                let best = seconds[secure]!.min()!
                return "secure_delete \(secure ? "on " : "off"): best \(String(format: "%.2f", best)) s, "
                    + "\(Int(Double(count) / best)) facts/s (runs: \(seconds[secure]!.map { String(format: "%.2f", $0) }))"
            }
            print("ingest of \(count) synthetic facts, \(embedded ? "precomputed vectors" : "no embedder"):")
            print("  " + line(true))
            print("  " + line(false))
        }
    }

    /// A fresh file opened as Mnemo opens one, with `secure_delete` turned off after Mnemo's own
    /// setup when asked (a later `prepareDatabase` step wins).
    static func knowledgeBase(secureDelete: Bool, embedder: (any Embedder)?) throws -> KnowledgeBase {
        var configuration = GRDB.Configuration()
        KnowledgeBase.prepare(&configuration)
        if !secureDelete {
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = OFF") }
        }
        let pool = try DatabasePool(path: try TestKnowledgeBase.temporaryPath(), configuration: configuration)
        let flag = try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA secure_delete") }
        precondition(flag == (secureDelete ? 1 : 0))
        return try KnowledgeBase(
            writer: pool, configuration: KnowledgeBase.Configuration(embedder: embedder))
    }
}
