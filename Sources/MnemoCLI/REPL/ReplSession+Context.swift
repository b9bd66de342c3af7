import Foundation
import Mnemo

extension ReplSession {
    /// `:context MESSAGE [budget:N] [since:… until:… topic:…]`: the memory context for a message.
    func showContext(_ argument: String) async throws {
        var budget = ContextBudget.default
        var words: [String] = []
        for token in InlineQuery.tokens(in: argument) {
            if token.lowercased().hasPrefix("budget:") {
                do {
                    budget = try ContextBudget.parse(String(token.dropFirst("budget:".count)))
                } catch {
                    throw CLIError(error.message)
                }
            } else {
                words.append(token)
            }
        }
        let inline = try InlineQuery(parsing: words.joined(separator: " "))
        guard !inline.text.isEmpty else {
            throw CLIError("usage: :context MESSAGE [budget:N], e.g. :context where does my sister live?")
        }
        let context = try await kb.context(
            for: inline.text, budget: budget,
            options: ContextOptions(filter: inline.parameters.filter(now: kb.now)))
        if json { return try Output.json(MemoryContextJSON(context)) }
        if !context.text.isEmpty { print(context.text, terminator: "") }
        var footer = "\(context.items.count) facts, \(context.tokens) of \(budget) tokens"
        if context.nothingRelevant { footer += "; nothing known answers the message" }
        print(style.dim(footer))
    }

    /// `:conflicts`: pairs of facts that say different things, newest first.
    func showConflicts() async throws {
        let conflicts = try await kb.conflicts(limit: 50)
        if json { return try Output.json(conflicts.map(ConflictJSON.init)) }
        guard !conflicts.isEmpty else { return print("No conflicts.") }
        for conflict in conflicts {
            print("\(conflict.reason):")
            print(
                "  newer #\(conflict.newer.id)  \(Timestamp.format(conflict.newer.createdAt).prefix(10))  \(conflict.newer.content)"
            )
            print(
                style.dim(
                    "  older #\(conflict.older.id)  \(Timestamp.format(conflict.older.createdAt).prefix(10))  \(conflict.older.content)"
                ))
        }
        print(style.dim("Settle one by retiring the stale fact: mnemo fact deactivate ID"))
    }

    /// `:undo [ID]`: reverts the newest operation not yet undone, or operation ID.
    func undo(_ argument: String) async throws {
        let text = argument.trimmingCharacters(in: .whitespaces)
        var id: Int64?
        if !text.isEmpty {
            guard let number = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text) else {
                throw CLIError("usage: :undo [ID], e.g. :undo or :undo 12 (mnemo undo --list shows the ids)")
            }
            id = number
        }
        let undo = try await kb.undo(id)
        try await refreshTopicPaths()
        if json { return try Output.json(undo) }
        print("#\(undo.id): \(undo.summary) (\(undo.changedRows) rows restored). `:undo \(undo.id)` redoes it.")
    }
}
