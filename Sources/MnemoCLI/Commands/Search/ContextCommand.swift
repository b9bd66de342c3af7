import ArgumentParser
import Foundation
import Mnemo

struct ContextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "context",
        abstract: "Print the memory an assistant should see before it answers a message, within a token budget.",
        discussion: """
            High-importance facts that bear on the message first (up to a quarter of the budget), \
            then the facts that answer it, then recent ones while room is left; no two near \
            duplicates; conflicting facts together, newer first; an experience with the date it was \
            stated, a goal with where it stands. Tokens are counted with Mnemo's estimator, which \
            errs on the safe side for English, accented and CJK text.

            With --window instead of a message: the period's context (Lume's UserContext): the \
            active goals, the goals completed in the window and the experiences stated in it, \
            each within a third of the budget.

            Examples:
              mnemo context "where does my sister live?" --budget 800
              mnemo context "plan my week" --budget 1024 --since 30d --json
              mnemo context --window 30d --budget 900
            """
    )

    @Argument(help: "The user's message.")
    var message: String?

    @Option(help: ArgumentHelp("A period's context instead: this far back (30d, 2w, 3mo).", valueName: "age"))
    var window: String?

    @Option(help: "The most tokens the context may take (0 to 200000).")
    var budget = ContextBudget.default

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
        do {
            _ = try ContextBudget.checked(budget)
        } catch {
            throw ValidationError(error.message)
        }
        _ = try parameters()
        guard (message == nil) != (window == nil) else {
            throw ValidationError("give either a message or --window")
        }
        if let window {
            do {
                _ = try ContextWindow.parse(window)
            } catch {
                throw ValidationError(error.message)
            }
        }
    }

    func run() async throws {
        let kb = try await global.openExistingKnowledgeBase(embedding: true)
        guard let message else { return try await showPeriod(kb) }
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

    /// `--window`: the period's three parts, each under a heading.
    private func showPeriod(_ kb: KnowledgeBase) async throws {
        let period = try await kb.context(window: try ContextWindow.parse(window ?? ""), budget: budget)
        if global.json { return try Output.json(PeriodContextJSON(period)) }
        for (title, part) in [
            ("Active goals", period.activeGoals), ("Goals completed", period.completedGoals),
            ("Experiences", period.experiences),
        ] {
            print("# \(title) (\(part.tokens) of \(part.budget) tokens)\n")
            print(part.text.isEmpty ? "None.\n" : part.text)
        }
    }
}
