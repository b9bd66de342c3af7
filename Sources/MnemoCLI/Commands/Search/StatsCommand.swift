import ArgumentParser
import Mnemo

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count facts by type, importance and state, and topics."
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let stats = try await global.openExistingKnowledgeBase().stats()
        if global.json {
            try Output.json(stats)
            return
        }
        print(
            "\(stats.facts) facts (\(stats.activeFacts) active, \(stats.inactiveFacts) inactive) in \(stats.topics) topics, \(stats.maxTopicDepth) levels deep"
        )
        print(Output.table(["type", "facts"], FactType.allCases.map { [$0.rawValue, "\(stats.byType[$0] ?? 0)"] }))
        print()
        print(
            Output.table(
                ["importance", "facts"],
                Importance.allCases.reversed().map { [$0.rawValue, "\(stats.byImportance[$0] ?? 0)"] }))
        if !stats.largestTopics.isEmpty {
            print()
            print(Output.table(["largest topics", "facts"], stats.largestTopics.map { [$0.path, "\($0.facts)"] }))
        }
    }
}
