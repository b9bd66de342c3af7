import Mnemo

/// A filter written inside a REPL query as `name:value`, such as `type:goal` or `limit:20`: the
/// REPL's short names for the ``FilterField``s every front door shares.
enum InlineFilter: String, CaseIterable {
    case type
    case importance
    case status
    case topic
    case active
    case limit
    case mode
    case min
    case since
    case until

    /// The field of the shared vocabulary this filter sets.
    var field: FilterField {
        switch self {
        case .type: .type
        case .importance: .importance
        case .status: .status
        case .topic: .topic
        case .active: .active
        case .limit: .limit
        case .mode: .mode
        case .min: .minSimilarity
        case .since: .since
        case .until: .until
        }
    }

    /// What the value may be, for `:help` and for error messages.
    var valueHelp: String {
        switch self {
        case .topic: field.valueHelp + "; quote it when it has spaces"
        case .limit: "the number of results, 1 to \(Self.maximumLimit)"
        default: field.valueHelp
        }
    }

    /// An example for `:help`.
    var example: String {
        switch self {
        case .type: "type:goal,fact"
        case .importance: "importance:>=medium"
        case .status: "status:active"
        case .topic: "topic:\"Work/Projects\""
        case .active: "active:all"
        case .limit: "limit:20"
        case .mode: "mode:semantic"
        case .min: "min:0.5"
        case .since: "since:7d"
        case .until: "until:2025-06"
        }
    }

    /// The words a value may be, for completion and spelling hints; empty for free values.
    var valueWords: [String] { field.valueWords }

    static let maximumLimit = 1_000
}
