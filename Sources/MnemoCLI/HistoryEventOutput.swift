import Foundation
import Mnemo

/// One history event in CLI output (`mnemo history`, `:history` in the REPL).
struct HistoryEventOutput: Encodable {
    var id: Int64
    var event: String
    var details: [String: String]
    var date: Date

    init(_ event: HistoryEvent) {
        id = event.id
        self.event = event.kind.rawValue
        details = event.details
        date = event.date
    }

    /// `2025-01-06T20:52:00.000Z  merged  merged_id: 41`
    static func line(_ event: HistoryEvent, style: TerminalStyle = .plain) -> String {
        let details = event.details.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
        return "\(style.dim(Timestamp.format(event.date)))  \(style.bold(event.kind.rawValue))\(details.isEmpty ? "" : "  \(details)")"
    }
}
