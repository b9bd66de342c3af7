import Mnemo

/// A filter written inside a REPL query as `name:value`, such as `type:goal` or `limit:20`.
enum InlineFilter: String, CaseIterable {
    case type
    case importance
    case topic
    case active
    case limit
    case mode
    case min

    /// What the value may be, for `:help` and for error messages.
    var valueHelp: String {
        switch self {
        case .type: "fact, preference, goal or experience; several with commas"
        case .importance: "none, low, medium or high; several with commas, or one after >=, >, <= or <"
        case .topic: "a topic path (its subtopics included); quote it when it has spaces"
        case .active: "all, active (the default) or inactive"
        case .limit: "the number of results, 1 to \(Self.maximumLimit)"
        case .mode: "text, semantic or hybrid"
        case .min: "the lowest cosine similarity of a semantic hit, -1 to 1"
        }
    }

    /// An example for `:help`.
    var example: String {
        switch self {
        case .type: "type:goal,fact"
        case .importance: "importance:>=medium"
        case .topic: "topic:\"Work/Projects\""
        case .active: "active:all"
        case .limit: "limit:20"
        case .mode: "mode:semantic"
        case .min: "min:0.5"
        }
    }

    /// The words a value may be, for completion and spelling hints; empty for free values.
    var valueWords: [String] {
        switch self {
        case .type: FactType.allCases.map(\.rawValue)
        case .importance: Importance.allCases.map(\.rawValue)
        case .active: ActivityWord.allCases.map(\.rawValue)
        case .mode: SearchMode.allCases.map(\.rawValue)
        case .topic, .limit, .min: []
        }
    }

    static let maximumLimit = 1_000

    /// The values of `active:`.
    enum ActivityWord: String, CaseIterable {
        case all
        case active
        case inactive

        var activity: FactFilter.Activity {
            switch self {
            case .all: .all
            case .active: .activeOnly
            case .inactive: .inactiveOnly
            }
        }
    }
}
