import ArgumentParser
import Mnemo

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search facts by words and by meaning.",
        discussion: """
            Words are matched in any order, ranked by BM25; put a phrase in double quotes to \
            match it as a whole. Operators and punctuation are searched as plain text.

            Examples:
              mnemo search swiftui
              mnemo search "which programming language do I know best" --mode semantic
              mnemo search running --type experience --importance high --topic "Health & Fitness"
            """
    )

    @Argument(help: "What to look for.")
    var query: String

    @Option(help: "text (words, BM25), semantic (meaning) or hybrid (both; the default).")
    var mode: SearchMode?

    @Option(name: .customLong("type"), help: ArgumentHelp("Only this type; repeat for several.", valueName: "type"))
    var types: [FactType] = []

    @Option(name: .customLong("importance"), help: ArgumentHelp(
        "Only this importance; repeat for several.", valueName: "importance"))
    var importances: [Importance] = []

    @Option(help: ArgumentHelp("Only facts at least this important.", valueName: "importance"))
    var minImportance: Importance?

    @Option(help: ArgumentHelp("Only facts in this topic or below it.", valueName: "path"))
    var topic: String?

    @Option(help: "The number of results.")
    var limit = 10

    @Option(help: "Results to skip, for paging.")
    var offset = 0

    @Option(help: ArgumentHelp("Drop semantic hits below this cosine similarity.", valueName: "x"))
    var minSimilarity: Double?

    @Option(help: ArgumentHelp(
        "Drop semantic and hybrid hits scoring below this share of the best hit's score; 0 keeps them all.",
        valueName: "share"))
    var minRelativeScore: Double = SearchQuery.defaultRelativeScoreFloor

    @Flag(help: "Match only facts that have every word.")
    var allTerms = false

    @Flag(help: "Include deactivated facts.")
    var includeInactive = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        guard offset >= 0 else { throw ValidationError("--offset must not be negative") }
        guard (0...1).contains(minRelativeScore) else { throw ValidationError("--min-relative-score must be between 0 and 1") }
        if let minSimilarity, !(-1...1).contains(minSimilarity) {
            throw ValidationError("--min-similarity must be between -1 and 1")
        }
    }

    func run() async throws {
        let mode = mode ?? .hybrid
        let kb = try global.openExistingKnowledgeBase(embedding: mode != .text)
        let searchQuery = try SearchQuery(
            query,
            mode: mode,
            filter: FactFilter(
                types: types.isEmpty ? nil : Set(types),
                importances: importances.isEmpty ? nil : Set(importances),
                minimumImportance: minImportance,
                topicPath: topic.map { try TopicPath($0) },
                activity: includeInactive ? .all : .activeOnly),
            matching: allTerms ? .allTerms : .anyTerm,
            limit: limit, offset: offset, minSimilarity: minSimilarity, relativeScoreFloor: minRelativeScore)
        let hits = try await kb.search(searchQuery)
        if global.json {
            try Output.json(SearchOutput(query: query, mode: mode.rawValue, results: hits.map(SearchOutput.Result.init)))
        } else {
            print(SearchOutput.text(hits))
        }
    }
}

extension SearchMode: ExpressibleByArgument {}
extension FactType: ExpressibleByArgument {}
extension Importance: ExpressibleByArgument {}
