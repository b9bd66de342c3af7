import Foundation
import Mnemo

/// Search results and facts as the REPL shows them to a person: the content with the query's
/// words highlighted, then badges for type and importance, the topic path, the id and score.
///
/// ```
///  1. Training for the Porto marathon in November
///     goal · high · Health & Fitness/Running · #25 · 0.722
/// ```
struct ResultFormatter {
    var style: TerminalStyle
    var highlighter: QueryHighlighter?

    func hits(_ hits: [SearchHit]) -> String {
        let width = String(hits.count).count
        return hits.enumerated().map { index, hit in
            fact(hit.fact, number: index + 1, numberWidth: width, score: hit.score)
        }.joined(separator: "\n")
    }

    func facts(_ facts: [Fact]) -> String {
        let width = String(facts.count).count
        return facts.enumerated().map { fact($1, number: $0 + 1, numberWidth: width, score: nil) }.joined(
            separator: "\n")
    }

    func fact(_ fact: Fact, number: Int, numberWidth: Int, score: Double?) -> String {
        let label = String(repeating: " ", count: numberWidth - String(number).count) + "\(number). "
        let content = highlighter.map { $0.highlight(fact.content, mark: style.highlight) } ?? fact.content
        var details = [
            style.badge(fact.type), style.badge(fact.importance), style.dim(fact.topicPath), style.dim("#\(fact.id)"),
        ]
        if !fact.isActive { details.insert(style.error("inactive"), at: 0) }
        if let score { details.append(style.dim(String(format: "%.3f", score))) }
        let indent = String(repeating: " ", count: label.count)
        return style.bold(label) + content + "\n" + indent + details.joined(separator: style.dim(" · "))
    }

    /// `5 results in 2.1 ms (hybrid; type goal)`.
    static func footer(count: Int, noun: String = "result", elapsed: Duration, details: [String]) -> String {
        let counted = count == 0 ? "No \(noun)s" : count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
        let suffix = details.isEmpty ? "" : " (\(details.joined(separator: "; ")))"
        return "\(counted) in \(milliseconds(elapsed)) ms\(suffix)"
    }

    /// A duration in milliseconds with one decimal (two below 1 ms).
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return String(format: value < 1 ? "%.2f" : "%.1f", value)
    }
}
