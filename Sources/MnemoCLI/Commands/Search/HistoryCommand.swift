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
            try Output.json(events.map(HistoryEventJSON.init))
            return
        }
        for event in events { print(HistoryEventOutput.line(event)) }
    }
}
