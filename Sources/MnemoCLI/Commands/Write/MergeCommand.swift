import ArgumentParser
import Mnemo

struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge topics into one: facts and subtopics move, same-named subtopics merge.",
        discussion: """
            The merge is atomic. Facts that meet in the target and say the same thing are merged too.
            Example: mnemo merge "Health and Fitness" "Fitness" --into "Health & Fitness" --dry-run
            """
    )

    @Argument(help: "The topics to fold into the target.")
    var sources: [String]

    @Option(help: ArgumentHelp("The topic that receives everything.", valueName: "path"))
    var into: String

    @Flag(help: "Report what would change without changing anything.")
    var dryRun = false

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let kb = try await global.openExistingKnowledgeBase(embedding: true)
        let report = try await kb.mergeTopics(sources.map { try TopicPath($0) }, into: TopicPath(into), dryRun: dryRun)
        if global.json {
            try Output.json(report)
            return
        }
        let verb = dryRun ? "Would merge" : "Merged"
        print(
            "\(verb) \(report.mergedTopics.joined(separator: ", ")) into \(report.target): \(report.movedFacts) facts moved, \(report.mergedFacts) duplicate facts merged."
        )
    }
}
