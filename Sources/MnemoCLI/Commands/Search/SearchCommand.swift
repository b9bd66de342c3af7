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
              mnemo search dentist --since 2025-05-01 --until 2025-06   # stated in May or June 2025
              mnemo search "what did I do" --since 7d                    # stated in the last 7 days
            """
    )

    @Argument(help: "What to look for.")
    var query: String

    @Option(help: ArgumentHelp("\(FilterField.mode.valueHelp); hybrid by default.", valueName: "mode"))
    var mode: String?

    @Option(
        name: .customLong("type"),
        help: ArgumentHelp(
            "Only this type (\(FilterField.type.valueHelp)); repeat for several.", valueName: "type"))
    var types: [String] = []

    @Option(
        name: .customLong("importance"),
        help: ArgumentHelp(
            "Only this importance (\(FilterField.importance.valueHelp)); repeat for several.", valueName: "importance"))
    var importances: [String] = []

    @Option(help: ArgumentHelp("Only facts at least this important.", valueName: "importance"))
    var minImportance: String?

    @Option(help: ArgumentHelp("Only goals with this status (\(FilterField.status.valueHelp)).", valueName: "status"))
    var status: [String] = []

    @Option(help: ArgumentHelp("Only facts in this topic or below it.", valueName: "path"))
    var topic: String?

    @OptionGroup var statedTime: StatedTimeOptions

    @Option(help: "The number of results.")
    var limit = 10

    @Option(help: "Results to skip, for paging.")
    var offset = 0

    @Option(help: ArgumentHelp("Drop semantic hits below this cosine similarity.", valueName: "x"))
    var minSimilarity: Double?

    @Option(
        help: ArgumentHelp(
            "Drop semantic and hybrid hits scoring below this share of the best hit's score; 0 keeps them all.",
            valueName: "share"))
    var minRelativeScore: Double = SearchQuery.defaultRelativeScoreFloor

    @Flag(help: "Match only facts that have every word.")
    var allTerms = false

    @Flag(help: "Include deactivated facts.")
    var includeInactive = false

    @OptionGroup var global: GlobalOptions

    /// The filters, through the vocabulary every front door shares.
    func parameters() throws -> SearchParameters {
        var parameters = SearchParameters(maximumLimit: Self.maximumLimit)
        do {
            try parameters.set(.mode, to: mode.map { [$0] } ?? [])
            try parameters.set(.type, to: types)
            try parameters.set(.importance, to: importances)
            try parameters.set(.minImportance, to: minImportance.map { [$0] } ?? [])
            try parameters.set(.status, to: status)
            try parameters.set(.topic, to: topic.map { [$0] } ?? [])
            try statedTime.apply(to: &parameters)
            try parameters.setLimit(limit)
            try parameters.setOffset(offset)
            if let minSimilarity { try parameters.setMinSimilarity(minSimilarity) }
            parameters.setIncludeInactive(includeInactive)
        } catch {
            throw ValidationError(error.message)
        }
        return parameters
    }

    static let maximumLimit = 100_000

    func validate() throws {
        _ = try parameters()
        guard (0...1).contains(minRelativeScore) else {
            throw ValidationError("--min-relative-score must be between 0 and 1")
        }
    }

    func run() async throws {
        let parameters = try parameters()
        let mode = parameters.mode ?? .hybrid
        let kb = try await global.openExistingKnowledgeBase(embedding: mode != .text)
        var searchQuery = parameters.searchQuery(query, defaultMode: mode, defaultLimit: limit, now: kb.now)
        searchQuery.matching = allTerms ? .allTerms : .anyTerm
        searchQuery.relativeScoreFloor = minRelativeScore
        let hits = try await kb.search(searchQuery)
        if global.json {
            try Output.json(SearchResultsJSON(query: query, mode: mode, hits: hits))
        } else {
            print(SearchOutput.text(hits))
        }
    }
}

extension SearchMode: ExpressibleByArgument {}
