import Foundation
import MnemoEvaluation

/// What `mnemo eval --messages` prints: per budget, the share of each message's must-have facts
/// in its context and in the packed hybrid ranking, in the shape of `mnemo eval --beir`'s
/// `context` figures.
struct ContextJudgementOutput: Encodable {
    var dataset: String
    var facts: Int
    var messages: Int
    var context: [Figures]
    var nothingRelevantCorrect: Int
    var nothingRelevantWrong: [String]
    var searchLatencyMs: EvalOutput.Latency
    var contextLatencyMs: EvalOutput.Latency
    /// With `--verbose`: per budget, the must-have facts each message's context left out.
    var missed: [String: [String: [String]]]?

    struct Figures: Encodable {
        var budget: Int
        var contextEvidenceRecall: Double
        var topkEvidenceRecall: Double
    }

    enum CodingKeys: String, CodingKey {
        case dataset, facts, messages, context, missed
        case nothingRelevantCorrect = "nothing_relevant_correct"
        case nothingRelevantWrong = "nothing_relevant_wrong"
        case searchLatencyMs = "search_latency_ms"
        case contextLatencyMs = "context_latency_ms"
    }

    init(_ report: ContextJudgements.Report, verbose: Bool) {
        dataset = report.name
        facts = report.facts
        messages = report.judged
        context = report.recall.map {
            Figures(
                budget: $0.budget, contextEvidenceRecall: $0.contextEvidenceRecall,
                topkEvidenceRecall: $0.topkEvidenceRecall)
        }
        nothingRelevantCorrect = report.nothingRelevantCorrect
        nothingRelevantWrong = report.nothingRelevantWrong
        searchLatencyMs = EvalOutput.Latency(report.searchLatency)
        contextLatencyMs = EvalOutput.Latency(report.contextLatency)
        if verbose {
            missed = Dictionary(uniqueKeysWithValues: report.missed.map { ("\($0.key)", $0.value) })
        }
    }

    var text: String {
        var lines = ["\(dataset) · \(messages) judged messages over \(facts) facts"]
        lines.append(
            Output.table(
                ["budget", "must-have facts in context", "in top-k packed"],
                context.map {
                    [
                        "\($0.budget)", String(format: "%.4f", $0.contextEvidenceRecall),
                        String(format: "%.4f", $0.topkEvidenceRecall),
                    ]
                }))
        lines.append(
            "nothing_relevant right for \(nothingRelevantCorrect) of \(nothingRelevantCorrect + nothingRelevantWrong.count) messages"
        )
        lines += nothingRelevantWrong.map { "  wrong: \($0)" }
        lines.append(
            String(
                format: "search p50 %.2f ms, p95 %.2f ms; context at %d tokens p50 %.2f ms, p95 %.2f ms",
                searchLatencyMs.p50, searchLatencyMs.p95, context.first?.budget ?? 0, contextLatencyMs.p50,
                contextLatencyMs.p95))
        for (budget, messages) in (missed ?? [:]).sorted(by: { Int($0.key)! < Int($1.key)! }) {
            lines.append("left out at \(budget) tokens:")
            for (message, facts) in messages.sorted(by: { $0.key < $1.key }) {
                lines.append("  \(message)")
                lines += facts.map { "    - \($0)" }
            }
        }
        return lines.joined(separator: "\n")
    }
}
