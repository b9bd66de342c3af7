import Foundation
import Mnemo

/// How REPL output is decorated: ANSI colours on a terminal, bold only when `NO_COLOR` is set
/// (highlighting still shows, without colour), nothing at all into a pipe or file.
///
/// `CLICOLOR_FORCE=1` asks for colours into a pipe (as for `ls` and `git`); `NO_COLOR` wins
/// over it (https://no-color.org).
struct TerminalStyle: Equatable {
    enum Level: Equatable {
        case plain
        case bold
        case color
    }

    var level: Level

    static func detect(environment: [String: String], isTerminal: Bool) -> TerminalStyle {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            return TerminalStyle(level: isTerminal ? .bold : .plain)
        }
        if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" {
            return TerminalStyle(level: .color)
        }
        if environment["TERM"] == "dumb" { return TerminalStyle(level: .plain) }
        return TerminalStyle(level: isTerminal ? .color : .plain)
    }

    static let plain = TerminalStyle(level: .plain)

    /// The query's words inside a result.
    func highlight(_ text: String) -> String {
        switch level {
        case .plain: text
        case .bold: "\u{1B}[1;4m\(text)\u{1B}[22;24m"
        case .color: "\u{1B}[1;33m\(text)\u{1B}[22;39m"
        }
    }

    /// Secondary text: topic paths, ids, scores.
    func dim(_ text: String) -> String { level == .color ? "\u{1B}[2m\(text)\u{1B}[22m" : text }

    /// Headings and the numbers of results.
    func bold(_ text: String) -> String { level == .plain ? text : "\u{1B}[1m\(text)\u{1B}[22m" }

    /// Errors.
    func error(_ text: String) -> String { level == .color ? "\u{1B}[31m\(text)\u{1B}[39m" : text }

    /// A fact type as a coloured badge.
    func badge(_ type: FactType) -> String {
        let color =
            switch type {
            case .fact: 36 // cyan
            case .preference: 34 // blue
            case .goal: 35 // magenta
            case .experience: 32 // green
            }
        return colored(type.rawValue, color)
    }

    /// An importance as a badge: the more important, the louder.
    func badge(_ importance: Importance) -> String {
        guard level == .color else { return importance.rawValue }
        switch importance.rank {
        case 3...: return "\u{1B}[1;31m\(importance.rawValue)\u{1B}[22;39m"
        case 2: return colored(importance.rawValue, 33)
        default: return dim(importance.rawValue)
        }
    }

    private func colored(_ text: String, _ code: Int) -> String {
        level == .color ? "\u{1B}[\(code)m\(text)\u{1B}[39m" : text
    }
}
