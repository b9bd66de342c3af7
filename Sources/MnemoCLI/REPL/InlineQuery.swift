import Mnemo

/// A REPL search line taken apart: the words to search for, and the filters written inline
/// (`type:goal`, `importance:>=medium`, `topic:"Work/Projects"`, `active:all`, `limit:20`,
/// `mode:semantic`, `min:0.5`), which are removed from the searched text.
///
/// A filter's value may be quoted; a token that starts with a quote (`"type:goal"`) is searched
/// as text. A `word:` that is not a filter stays in the text (`10:30`, `https://…`), unless it is
/// a near miss of a filter's name, which is an error with a hint rather than a silent search for
/// the misspelt word.
struct InlineQuery: Equatable {
    var text = ""
    var types: Set<FactType>?
    var importances: Set<Importance>?
    var minimumImportance: Importance?
    var topicPath: TopicPath?
    var activity: FactFilter.Activity?
    var limit: Int?
    var mode: SearchMode?
    var minSimilarity: Double?

    /// Parses one line; throws an error that says what is wrong and, where it can, what was meant.
    init(parsing line: String) throws(InlineQueryError) {
        var words: [String] = []
        for token in Self.tokens(in: line) {
            guard token.first != "\"", let colon = token.firstIndex(of: ":") else {
                words.append(token)
                continue
            }
            let name = String(token[..<colon])
            guard !name.isEmpty, name.allSatisfy(\.isLetter) else {
                words.append(token)
                continue
            }
            guard let filter = InlineFilter(rawValue: name.lowercased()) else {
                if let guess = SpellingHint.suggestion(for: name, among: InlineFilter.allCases.map(\.rawValue)) {
                    throw InlineQueryError(
                        "unknown filter \(name): — did you mean \(guess):? (put a word in quotes to search for it as written)")
                }
                words.append(token)
                continue
            }
            try set(filter, Self.unquoted(token[token.index(after: colon)...]))
        }
        text = words.joined(separator: " ")
    }

    init() {}

    /// Whether any filter was given.
    var hasFilters: Bool { self != InlineQuery(text: text) }

    private init(text: String) { self.text = text }

    /// The search `text` asks for, with these filters over the session's mode and limit.
    func searchQuery(mode defaultMode: SearchMode, limit defaultLimit: Int) -> SearchQuery {
        SearchQuery(text, mode: mode ?? defaultMode, filter: filter, limit: limit ?? defaultLimit, minSimilarity: minSimilarity)
    }

    /// The filters as a ``FactFilter`` (active facts unless `active:` says otherwise).
    var filter: FactFilter {
        FactFilter(types: types, importances: importances, minimumImportance: minimumImportance,
                   topicPath: topicPath, activity: activity ?? .activeOnly)
    }

    /// The filters in words, for the results' footer: `["type goal, fact", "importance ≥ medium"]`.
    var filterSummary: [String] {
        var parts: [String] = []
        if let types { parts.append("type " + types.sorted().map(\.rawValue).joined(separator: ", ")) }
        if let importances { parts.append("importance " + importances.sorted().map(\.rawValue).joined(separator: ", ")) }
        if let minimumImportance { parts.append("importance ≥ \(minimumImportance.rawValue)") }
        if let topicPath { parts.append("topic \(topicPath)") }
        switch activity {
        case .all: parts.append("active and inactive")
        case .inactiveOnly: parts.append("inactive only")
        case .activeOnly, nil: break
        }
        if let minSimilarity { parts.append("similarity ≥ \(minSimilarity)") }
        return parts
    }

    // MARK: - Filters

    private mutating func set(_ filter: InlineFilter, _ value: String) throws(InlineQueryError) {
        guard !value.isEmpty else { throw InlineQueryError("\(filter.rawValue): needs a value: \(filter.valueHelp)") }
        switch filter {
        case .type:
            var types = self.types ?? []
            for name in value.split(separator: ",", omittingEmptySubsequences: false) {
                types.insert(FactType(rawValue: try Self.word(String(name), of: filter))!)
            }
            self.types = types
        case .importance:
            try setImportance(value)
        case .topic:
            do {
                topicPath = try TopicPath(value)
            } catch let .invalidInput(_, reason) {
                throw InlineQueryError("topic:\(value) is not a topic path: \(reason)")
            } catch {
                throw InlineQueryError("topic:\(value): \(error)")
            }
        case .active:
            activity = InlineFilter.ActivityWord(rawValue: try Self.word(value, of: filter))!.activity
        case .limit:
            guard let limit = Int(value), (1...InlineFilter.maximumLimit).contains(limit) else {
                throw InlineQueryError("limit:\(value) — limit takes \(filter.valueHelp)")
            }
            self.limit = limit
        case .mode:
            mode = SearchMode(rawValue: try Self.word(value, of: filter))!
        case .min:
            guard let minimum = Double(value), (-1...1).contains(minimum) else {
                throw InlineQueryError("min:\(value) — min takes \(filter.valueHelp)")
            }
            minSimilarity = minimum
        }
    }

    /// `importance:high`, `importance:high,medium`, `importance:>=medium`, `>`, `<=`, `<`.
    private mutating func setImportance(_ value: String) throws(InlineQueryError) {
        let operators = [">=", "<=", ">", "<", "="]
        let symbol = operators.first { value.hasPrefix($0) }
        let names = value.dropFirst(symbol?.count ?? 0).split(separator: ",", omittingEmptySubsequences: false)
        if let symbol, symbol != "=", names.count != 1 {
            throw InlineQueryError("importance:\(value) — \(symbol) takes one importance (none, low, medium or high)")
        }
        var levels: [Importance] = []
        for name in names {
            levels.append(Importance(rawValue: try Self.word(String(name), of: .importance))!)
        }
        let all = Importance.allCases
        switch symbol {
        case ">=":
            minimumImportance = max(minimumImportance ?? levels[0], levels[0])
        case ">":
            guard let next = Importance(rank: levels[0].rank + 1) else {
                throw InlineQueryError("importance:\(value) — nothing is more important than \(levels[0].rawValue)")
            }
            minimumImportance = max(minimumImportance ?? next, next)
        case "<=", "<":
            let allowed = all.filter { symbol == "<" ? $0 < levels[0] : $0 <= levels[0] }
            guard !allowed.isEmpty else {
                throw InlineQueryError("importance:\(value) — nothing is less important than \(levels[0].rawValue)")
            }
            importances = (importances ?? []).union(allowed)
        default:
            importances = (importances ?? []).union(levels)
        }
    }

    /// `value` when it is one of the filter's words (ignoring case), else an error with a hint.
    private static func word(_ value: String, of filter: InlineFilter) throws(InlineQueryError) -> String {
        let lowered = value.lowercased()
        if filter.valueWords.contains(lowered) { return lowered }
        let written = "\(filter.rawValue):\(value)"
        guard !value.isEmpty else { throw InlineQueryError("\(written) has an empty value; \(filter.rawValue) takes \(filter.valueHelp)") }
        if let guess = SpellingHint.suggestion(for: value, among: filter.valueWords) {
            throw InlineQueryError("unknown \(filter.rawValue) \"\(value)\" — did you mean \(filter.rawValue):\(guess)?")
        }
        throw InlineQueryError("unknown \(filter.rawValue) \"\(value)\"; \(filter.rawValue) takes \(filter.valueHelp)")
    }

    // MARK: - Tokens

    /// Splits a line at spaces outside double quotes; quotes stay in the tokens.
    static func tokens(in line: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var quoted = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
                current.append(character)
            } else if character.isWhitespace && !quoted {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// A filter value without its surrounding double quotes.
    static func unquoted(_ value: Substring) -> String {
        var value = value
        if value.first == "\"" { value = value.dropFirst() }
        if value.last == "\"" { value = value.dropLast() }
        return String(value)
    }
}

/// A REPL line that cannot be understood, with what is wrong and, where possible, a hint.
struct InlineQueryError: Error, Equatable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
