import ArgumentParser
import Foundation
import Mnemo

struct ConflictsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List pairs of facts that are close but differ, newest first.",
        discussion: """
            When a new fact is close to a stored one but differs in a value, a name, a negation, \
            the direction of a preference or who does what to whom, both are kept and listed \
            here instead of one being merged away. Settle one by retiring the stale fact:
              mnemo fact deactivate ID   (or: mnemo fact delete ID)
            """
    )

    @Option(help: "The most conflicts to list.")
    var limit = 100

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let conflicts = try await global.openExistingKnowledgeBase().conflicts(limit: limit)
        if global.json {
            try Output.json(conflicts.map(ConflictJSON.init))
            return
        }
        guard !conflicts.isEmpty else {
            print("No conflicts.")
            return
        }
        for conflict in conflicts {
            print(
                """
                \(Timestamp.format(conflict.detectedAt))  \(conflict.reason) (similarity \(String(format: "%.3f", conflict.similarity)))
                  older #\(conflict.older.id)  \(Timestamp.format(conflict.older.createdAt))  \(conflict.older.content)
                  newer #\(conflict.newer.id)  \(Timestamp.format(conflict.newer.createdAt))  \(conflict.newer.content)
                """)
        }
    }
}
