import ArgumentParser
import Foundation
import Mnemo

struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract:
            "Revert a topic merge, a dedupe run, a near-duplicate merge, or a fact update, deactivation or deletion.",
        discussion: """
            Undo restores exactly the state before the operation: the facts with their ids, topics, \
            history, the full-text index and the vectors. Without an id it reverts the newest \
            operation not yet undone. An undo is itself logged: undoing it redoes the operation. \
            An operation whose rows changed again later cannot be undone until the later ones are.
              mnemo undo --list
              mnemo undo 12
            """
    )

    @Argument(help: "The operation to revert (see --list); the newest one when omitted.")
    var id: Int64?

    @Flag(help: "List the operation log, newest first, instead of undoing.")
    var list = false

    @Option(help: "With --list, the most operations to show.")
    var limit = 20

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if list, id != nil { throw ValidationError("--list takes no operation id") }
    }

    func run() async throws {
        let kb = try await global.openExistingKnowledgeBase()
        if list {
            let operations = try await kb.operations(limit: limit)
            if global.json {
                try Output.json(operations)
                return
            }
            if operations.isEmpty { print("No operations.") }
            for operation in operations {
                let state = operation.undoneBy.map { "  (undone by #\($0))" } ?? ""
                print(
                    "#\(operation.id)  \(Timestamp.format(operation.date))  \(operation.kind.rawValue)  \(operation.summary)  [\(operation.changedRows) rows]\(state)"
                )
            }
            return
        }
        let undo = try await kb.undo(id)
        if global.json {
            try Output.json(undo)
            return
        }
        print("#\(undo.id): \(undo.summary) (\(undo.changedRows) rows restored). `mnemo undo \(undo.id)` redoes it.")
    }
}
