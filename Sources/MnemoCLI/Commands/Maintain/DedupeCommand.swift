import ArgumentParser
import Mnemo

struct DedupeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dedupe",
        abstract: "Find and merge duplicate facts and topic-name variants.",
        discussion: """
            Facts merge when they have the same type, a cosine similarity at or above the threshold \
            (or the lower value-match threshold when both state the same values), the same values \
            (numbers, times, amounts, dates, compared in canonical form), names, negation, modality, \
            preference direction and roles, and are not reorderings or one-word substitutions of \
            each other. Each cluster keeps its oldest fact. The run is one transaction; \
            `mnemo undo` reverts it. Topics whose names differ only in case, \
            accents, punctuation, "&"/"and" or word order merge into the larger one.
            """
    )

    @Option(
        help: ArgumentHelp(
            "The minimum cosine similarity (default \(NearDuplicateRule.defaultThreshold)).", valueName: "x"))
    var threshold: Double?

    @Flag(help: "Report the duplicates without merging them.")
    var dryRun = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let threshold, !(0...1).contains(threshold) { throw ValidationError("--threshold must be between 0 and 1") }
    }

    func run() async throws {
        let kb = try await global.openExistingKnowledgeBase(embedding: true)
        let report = try await kb.dedupe(
            rule: NearDuplicateRule(threshold: threshold ?? NearDuplicateRule.defaultThreshold),
            dryRun: dryRun)
        if global.json {
            try Output.json(report)
            return
        }
        let verb = dryRun ? "would merge" : "merged"
        for group in report.topicGroups {
            print("topics: \(group.variants.joined(separator: ", ")) → \(group.target)")
        }
        for cluster in report.factClusters {
            print("#\(cluster.survivor.id) \(cluster.survivor.content)")
            for duplicate in cluster.duplicates { print("   ← #\(duplicate.id) \(duplicate.content)") }
        }
        let byTopics =
            report.topicMergedFacts == 0 ? "" : " (\(report.topicMergedFacts) of them where merged topics met)"
        print("\(report.topicGroups.count) topic groups and \(report.mergedFacts) duplicate facts \(verb)\(byTopics).")
    }
}
