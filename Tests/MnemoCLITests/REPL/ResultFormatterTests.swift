import Foundation
import Mnemo
import Testing

@testable import MnemoCLI

@Suite("REPL output for people")
struct ResultFormatterTests {
    func mark(_ word: String) -> String { "[\(word)]" }

    @Test func theQueryWordsAreHighlighted() {
        let highlighter = QueryHighlighter(query: "what do I like about climbing?")
        #expect(
            highlighter.highlight("Led my first 6b at the climbing gym.", mark: mark)
                == "Led my first 6b at the [climbing] gym.")
        // Case, accents and endings: "run" marks "Running", "cafe" marks "Café", "climbing" marks "climb".
        #expect(
            QueryHighlighter(query: "run").highlight("Running and a runner", mark: mark) == "[Running] and a [runner]")
        #expect(QueryHighlighter(query: "cafe").highlight("Café in Porto", mark: mark) == "[Café] in Porto")
        #expect(QueryHighlighter(query: "climbing").highlight("I climb", mark: mark) == "I [climb]")
        // Stop words are not highlighted; short words only as whole words.
        #expect(
            QueryHighlighter(query: "what is my tea").highlight("My tea is team green", mark: mark)
                == "My [tea] is team green")
        #expect(QueryHighlighter(query: "???").highlight("Anything", mark: mark) == "Anything")
        #expect(
            QueryHighlighter(query: #""porto marathon" 2025"#).matchedWords(in: "Porto Marathon 2025, porto again")
                == ["Porto", "Marathon", "2025"])
    }

    @Test func styleFollowsNoColorAndTheTerminal() {
        #expect(TerminalStyle.detect(environment: [:], isTerminal: true).level == .color)
        #expect(TerminalStyle.detect(environment: [:], isTerminal: false).level == .plain)
        #expect(TerminalStyle.detect(environment: ["NO_COLOR": "1"], isTerminal: true).level == .bold)
        #expect(
            TerminalStyle.detect(environment: ["NO_COLOR": "1", "CLICOLOR_FORCE": "1"], isTerminal: false).level
                == .plain)
        #expect(TerminalStyle.detect(environment: ["NO_COLOR": ""], isTerminal: true).level == .color)
        #expect(TerminalStyle.detect(environment: ["CLICOLOR_FORCE": "1"], isTerminal: false).level == .color)
        #expect(TerminalStyle.detect(environment: ["CLICOLOR_FORCE": "0"], isTerminal: false).level == .plain)
        #expect(TerminalStyle.detect(environment: ["TERM": "dumb"], isTerminal: true).level == .plain)
        let bold = TerminalStyle(level: .bold)
        #expect(bold.badge(.goal) == "goal" && bold.dim("x") == "x")
        #expect(bold.highlight("x") == "\u{1B}[1;4mx\u{1B}[22;24m")
        let colour = TerminalStyle(level: .color)
        #expect(colour.badge(.goal) == "\u{1B}[35mgoal\u{1B}[39m")
        #expect(colour.badge(Importance.high) == "\u{1B}[1;31mhigh\u{1B}[22;39m")
        for type in FactType.allCases { #expect(TerminalStyle.plain.badge(type) == type.rawValue) }
        for importance in Importance.allCases { #expect(TerminalStyle.plain.badge(importance) == importance.rawValue) }
    }

    @Test func footerCountsAndTimes() {
        let elapsed = Duration.milliseconds(2) + .microseconds(100)
        #expect(
            ResultFormatter.footer(count: 5, elapsed: elapsed, details: ["hybrid"]) == "5 results in 2.1 ms (hybrid)")
        #expect(
            ResultFormatter.footer(count: 1, elapsed: .microseconds(420), details: ["text", "type goal"])
                == "1 result in 0.42 ms (text; type goal)")
        #expect(
            ResultFormatter.footer(count: 0, elapsed: .milliseconds(12), details: ["semantic"])
                == "No results in 12.0 ms (semantic)")
        #expect(
            ResultFormatter.footer(count: 3, noun: "fact", elapsed: .milliseconds(1), details: [])
                == "3 facts in 1.0 ms")
    }

    @Test func explanationArithmeticUsesShortNumbers() {
        #expect(HitExplanation.number(0.6) == "0.6")
        #expect(HitExplanation.number(32) == "32")
        #expect(HitExplanation.number(7.30249) == "7.302")
        #expect(HitExplanation.number(-0.0001) == "0")
    }

    @Test func mergeArgumentsSplitAtTheLastInto() throws {
        #expect(
            try ReplSession.mergeArguments("Health and Fitness into Health & Fitness") == (
                ["Health and Fitness"], "Health & Fitness"
            ))
        let quoted = try ReplSession.mergeArguments(#""Into the Wild", Films into "Films & TV""#)
        #expect(quoted.sources == ["Into the Wild", "Films"] && quoted.target == "Films & TV")
        #expect(throws: CLIError.self) { try ReplSession.mergeArguments("Pets") }
        #expect(throws: CLIError.self) { try ReplSession.mergeArguments("into Pets") }
        #expect(throws: CLIError.self) { try ReplSession.mergeArguments("Pets into") }
        #expect(throws: CLIError.self) { try ReplSession.mergeArguments("A, into B") }
    }

    @Test func factIDsTakeAHash() throws {
        #expect(try ReplSession.factID("25", command: "fact") == 25)
        #expect(try ReplSession.factID("#25", command: "fact") == 25)
        #expect(throws: CLIError.self) { try ReplSession.factID("abc", command: "fact") }
        #expect(throws: CLIError.self) { try ReplSession.factID("0", command: "fact") }
    }
}
