import Foundation
import Mnemo

/// The text form of a history event (`mnemo history`, `:history` in the REPL); its JSON form
/// is the library's `HistoryEventJSON`.
enum HistoryEventOutput {
    /// `2025-01-06T20:52:00.000Z  merged  merged_id: 41`
    static func line(_ event: HistoryEvent, style: TerminalStyle = .plain) -> String {
        let details = event.details.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
        return
            "\(style.dim(Timestamp.format(event.date)))  \(style.bold(event.kind.rawValue))\(details.isEmpty ? "" : "  \(details)")"
    }
}
