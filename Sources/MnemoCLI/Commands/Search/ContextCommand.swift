import ArgumentParser
import Foundation
import Mnemo

struct ContextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "context",
        abstract: "Print the memory an assistant should see before it answers a message, within a token budget.",
        discussion: """
            High-importance facts first (up to a quarter of the budget), then the facts that answer \
            the message, then recent ones while room is left; no two near duplicates; conflicting \
            facts together, newer first; each fact with its type and the date it was stated. Tokens \
            are counted with Mnemo's estimator, which errs on the safe side for English, accented \
            and CJK text.

            Examples:
              mnemo context "where does my sister live?" --budget 800
              mnemo context "plan my week" --budget 1024 --since 30d --json
            """
    )

    @Argument(help: "The user's message.")
    var message: String

    @Option(help: "The most tokens the context may take.")
    var budget = ContextOptions.defaultBudget

    @OptionGroup var statedTime: StatedTimeOptions

    @Option(help: ArgumentHelp("Only facts in this topic or below it.", valueName: "path"))
    var topic: String?

    @OptionGroup var global: GlobalOptions

    func parameters() throws -> SearchParameters {
        var parameters = SearchParameters()
        do {
            try statedTime.apply(to: &parameters)
            try parameters.set(.topic, to: topic.map { [$0] } ?? [])
        } catch {
            throw ValidationError(error.message)
        }
        return parameters
    }

    func validate() throws {
        guard budget >= 0 else { throw ValidationError("--budget must not be negative") }
        _ = try parameters()
    }

    func run() async throws {
        let kb = try await global.openExistingKnowledgeBase(embedding: true)
        let options = ContextOptions(filter: try parameters().filter(now: kb.now))
        let context = try await kb.context(for: message, budget: budget, options: options)
        if global.json {
            try Output.json(MemoryContextJSON(context))
        } else if context.text.isEmpty {
            print(
                context.items.isEmpty && budget > 0
                    ? "Nothing in memory fits this message." : "Nothing fits in \(budget) tokens.")
        } else {
            print(context.text, terminator: "")
            print(
                "\n(\(context.tokens) of \(budget) tokens\(context.nothingRelevant ? "; nothing known answers the message" : ""))"
            )
        }
    }
}
