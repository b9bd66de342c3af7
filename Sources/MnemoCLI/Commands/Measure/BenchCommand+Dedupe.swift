import Foundation
import MnemoEvaluation

extension BenchCommand {
    /// `mnemo bench --dedupe N`: times a dedupe dry run and counts the planted pairs it finds.
    func runDedupe(plantedPairs: Int) async throws {
        let status = StatusLine.forTerminal()
        status?.show(
            "loading \(facts.formatted()) facts and \(plantedPairs) planted pairs, then deduplicating…", force: true)
        let report = try await DedupeBenchmark.run(
            facts: facts, plantedPairs: plantedPairs, seed: seed, dimension: dimension)
        status?.finish()
        if global.json {
            try Output.json(report)
            return
        }
        print(
            """
            dedupe dry run over \(report.facts.formatted()) facts: \(String(format: "%.2f", report.dedupeSeconds)) s \
            (load \(String(format: "%.1f", report.loadSeconds)) s)
            planted near-duplicate pairs found: \(report.foundPairs) of \(report.plantedPairs); facts it would merge: \(report.mergedFacts)
            """)
    }
}
