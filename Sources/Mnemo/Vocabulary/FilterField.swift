/// The names of what a search or a listing can be narrowed by, spelled the same at every front
/// door: CLI options (`--type`), REPL inline filters (`type:`), HTTP query and body fields
/// (`type=`), MCP tool arguments (`"types"` in `search_memory`, whose arguments name lists in
/// the plural).
///
/// Each field knows the values it takes, derived from the library's enums, so that a wrong value
/// gets the same message from every front door (see ``FilterValueError``).
package enum FilterField: String, CaseIterable, Sendable {
    /// One or more ``FactType`` names.
    case type
    /// One or more ``Importance`` names, or one after `>=`, `>`, `<=` or `<`.
    case importance
    /// One ``Importance`` name: only facts at least this important.
    case minImportance = "min_importance"
    /// One or more ``GoalStatus`` names: only goals with one of them.
    case status
    /// A ``TopicPath``: the topic and its subtopics.
    case topic
    /// `active` (the default), `inactive` or `all`.
    case active
    /// `true` or `false`: whether deactivated facts are included too.
    case includeInactive = "include_inactive"
    /// A ``SearchMode`` name.
    case mode
    /// How many results.
    case limit
    /// How many of the best results to skip.
    case offset
    /// The lowest cosine similarity of a semantic hit.
    case minSimilarity = "min_similarity"
    /// A ``TimeBound``: only facts stated at or after it.
    case since
    /// A ``TimeBound``: only facts stated before it (a day, month or year given is included whole).
    case until

    /// What a value may be, for help texts and error messages.
    package var valueHelp: String {
        switch self {
        case .type: Self.alternatives(FactType.allCases.map(\.rawValue)) + "; several with commas"
        case .importance:
            Self.alternatives(Importance.allCases.map(\.rawValue))
                + "; several with commas, or one after >=, >, <= or <"
        case .minImportance: Self.alternatives(Importance.allCases.map(\.rawValue))
        case .status: Self.alternatives(GoalStatus.allCases.map(\.rawValue)) + "; several with commas"
        case .topic: "a topic path such as Work/Projects (its subtopics included)"
        case .active:
            Self.alternatives(ActivityWord.allCases.map { $0 == .active ? "active (the default)" : $0.rawValue })
        case .includeInactive: "true or false"
        case .mode: Self.alternatives(SearchMode.allCases.map(\.rawValue))
        case .limit: "a whole number of results from 1"
        case .offset: "a whole number of results to skip, from 0 to \(SearchParameters.maximumOffset)"
        case .minSimilarity: "a cosine similarity from -1 to 1"
        case .since, .until:
            "a date (2025-05-01, 2025-05, 2025), a moment (2025-05-01T09:30:00Z) or an age (36h, 7d, 2w, 3mo, 1y)"
        }
    }

    /// The words a value may be, for completion and spelling hints; empty for free values.
    package var valueWords: [String] {
        switch self {
        case .type: FactType.allCases.map(\.rawValue)
        case .importance, .minImportance: Importance.allCases.map(\.rawValue)
        case .status: GoalStatus.allCases.map(\.rawValue)
        case .active: ActivityWord.allCases.map(\.rawValue)
        case .includeInactive: ["true", "false"]
        case .mode: SearchMode.allCases.map(\.rawValue)
        case .topic, .limit, .offset, .minSimilarity, .since, .until: []
        }
    }

    /// What a value of the field is called in a message: `unknown active state "al"`.
    var noun: String {
        switch self {
        case .type: "type"
        case .importance, .minImportance: "importance"
        case .active: "active state"
        case .status: "status"
        case .mode: "mode"
        default: rawValue
        }
    }

    /// The machine-readable code of an error in this field's value.
    var errorCode: String {
        switch self {
        case .type: "unknown_type"
        case .importance, .minImportance: "unknown_importance"
        case .mode: "unknown_mode"
        case .status: "unknown_status"
        case .topic: "bad_topic"
        case .active, .includeInactive, .limit, .offset, .minSimilarity, .since, .until: "invalid_parameter"
        }
    }

    /// `a, b, c or d`.
    static func alternatives(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// The values of ``active``.
    package enum ActivityWord: String, CaseIterable, Sendable {
        case all
        case active
        case inactive

        package var activity: FactFilter.Activity {
            switch self {
            case .active: .activeOnly
            case .inactive: .inactiveOnly
            case .all: .all
            }
        }
    }
}
