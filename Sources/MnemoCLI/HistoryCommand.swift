import ArgumentParser
import Foundation
import Mnemo

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show every change to a fact: added, mentioned, merged, updated, deactivated, deleted.",
        discussion: "History outlives the fact: `mnemo history 42` still answers after `mnemo fact delete 42`."
    )

    @Argument(help: "The fact id.")
    var id: Int64

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let events = try await global.openExistingKnowledgeBase().history(ofFact: id)
        guard !events.isEmpty else { throw MnemoError.notFound(.fact(id)) }
        if global.json {
            try Output.json(events.map { Event(id: $0.id, event: $0.kind.rawValue, details: $0.details, date: $0.date) })
            return
        }
        for event in events {
            let details = event.details.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
            print("\(Timestamp.format(event.date))  \(event.kind.rawValue)\(details.isEmpty ? "" : "  \(details)")")
        }
    }

    private struct Event: Encodable {
        var id: Int64
        var event: String
        var details: [String: String]
        var date: Date
    }
}
