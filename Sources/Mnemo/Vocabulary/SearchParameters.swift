import Foundation

/// A search or a listing as the front doors describe it: ``FilterField`` values parsed from the
/// strings (or JSON numbers and booleans) a person or a client wrote, with one message per
/// wrong value wherever it came from.
///
/// ```swift
/// var parameters = SearchParameters(maximumLimit: 50)
/// try parameters.set(.type, to: "goal,fact")
/// try parameters.set(.importance, to: ">=medium")
/// let query = parameters.searchQuery("rust", defaultMode: .hybrid, defaultLimit: 10)
/// ```
package struct SearchParameters: Hashable, Sendable {
    package var types: Set<FactType>?
    package var importances: Set<Importance>?
    package var minimumImportance: Importance?
    package var statuses: Set<GoalStatus>?
    package var topicPath: TopicPath?
    package var activity: FactFilter.Activity?
    package var mode: SearchMode?
    package var limit: Int?
    package var offset: Int?
    package var minSimilarity: Double?
    /// The start of the statement-date range (inclusive), resolved against "now" by ``filter(now:)``.
    package var since: TimeBound?
    /// The end of the statement-date range (exclusive; a day, month or year is included whole).
    package var until: TimeBound?
    /// The largest ``limit`` this front door accepts.
    package var maximumLimit: Int

    package init(maximumLimit: Int = 1_000) {
        self.maximumLimit = maximumLimit
    }

    /// Whether any field was set.
    package var isEmpty: Bool { self == SearchParameters(maximumLimit: maximumLimit) }

    /// The facts these fields let through (active ones unless ``activity`` says otherwise), with
    /// ages ("7d") counted back from the system clock.
    package var filter: FactFilter { filter(now: Date()) }

    /// The facts these fields let through, with ages counted back from `now` (pass the knowledge
    /// base's ``KnowledgeBase/now``).
    package func filter(now: Date) -> FactFilter {
        FactFilter(
            types: types, importances: importances, minimumImportance: minimumImportance,
            topicPath: topicPath, activity: activity ?? .activeOnly,
            since: since?.resolved(as: .since, now: now), until: until?.resolved(as: .until, now: now),
            statuses: statuses)
    }

    /// The search for `text` with these fields over the front door's defaults.
    package func searchQuery(_ text: String, defaultMode: SearchMode?, defaultLimit: Int, now: Date = Date())
        -> SearchQuery
    {
        SearchQuery(
            text, mode: mode ?? defaultMode, filter: filter(now: now), limit: limit ?? defaultLimit,
            offset: offset ?? 0, minSimilarity: minSimilarity)
    }

    // MARK: - Setting fields from text

    /// Sets a field from each of several values (a repeated option or query parameter).
    package mutating func set(_ field: FilterField, to values: [String]) throws(FilterValueError) {
        for value in values { try set(field, to: value) }
    }

    /// Sets a field from its text. Types and importances add to what is set already; the other
    /// fields replace it.
    package mutating func set(_ field: FilterField, to text: String) throws(FilterValueError) {
        let value = text.trimmingBlanks
        switch field {
        case .type:
            var types = self.types ?? []
            for name in Self.list(value) {
                guard let type = FactType(rawValue: name.lowercased()) else { throw .unknownWord(name, of: field) }
                types.insert(type)
            }
            self.types = types
        case .importance:
            try setImportance(value)
        case .status:
            var statuses = self.statuses ?? []
            for name in Self.list(value) {
                guard let status = GoalStatus(rawValue: name.lowercased()) else { throw .unknownWord(name, of: field) }
                statuses.insert(status)
            }
            self.statuses = statuses
        case .minImportance:
            try setMinimumImportance(Self.importance(value, of: field))
        case .topic:
            do {
                topicPath = try TopicPath(value)
            } catch let .invalidInput(_, reason) {
                throw .badTopic(reason)
            } catch {
                throw .invalid(value, of: field)
            }
        case .active:
            guard let word = FilterField.ActivityWord(rawValue: value.lowercased()) else {
                throw .unknownWord(value, of: field)
            }
            activity = word.activity
        case .includeInactive:
            try setIncludeInactive(Self.boolean(value, of: field))
        case .mode:
            guard let mode = SearchMode(rawValue: value.lowercased()) else { throw .unknownWord(value, of: field) }
            self.mode = mode
        case .limit:
            guard let limit = Self.wholeNumber(value), (1...maximumLimit).contains(limit) else {
                throw limitError(value)
            }
            self.limit = limit
        case .offset:
            guard let offset = Self.wholeNumber(value), (0...Self.maximumOffset).contains(offset) else {
                throw .invalid(value, of: field)
            }
            self.offset = offset
        case .minSimilarity:
            guard let minimum = Double(value), (-1...1).contains(minimum) else { throw .invalid(value, of: field) }
            minSimilarity = minimum
        case .since:
            guard let bound = TimeBound(value) else { throw .invalid(value, of: field) }
            since = bound
        case .until:
            guard let bound = TimeBound(value) else { throw .invalid(value, of: field) }
            until = bound
        }
    }

    // MARK: - Setting fields from typed values (JSON numbers and booleans)

    package mutating func setLimit(_ limit: Int) throws(FilterValueError) {
        guard (1...maximumLimit).contains(limit) else { throw limitError(String(limit)) }
        self.limit = limit
    }

    /// The largest ``offset``: pages beyond a billion results are not a search.
    package static let maximumOffset = 1_000_000_000

    package mutating func setOffset(_ offset: Int) throws(FilterValueError) {
        guard (0...Self.maximumOffset).contains(offset) else { throw .invalid(String(offset), of: .offset) }
        self.offset = offset
    }

    package mutating func setMinSimilarity(_ minimum: Double) throws(FilterValueError) {
        guard (-1...1).contains(minimum) else { throw .invalid(String(minimum), of: .minSimilarity) }
        minSimilarity = minimum
    }

    package mutating func setIncludeInactive(_ include: Bool) {
        activity = include ? .all : .activeOnly
    }

    package mutating func setMinimumImportance(_ importance: Importance) {
        minimumImportance = max(minimumImportance ?? importance, importance)
    }

    private func limitError(_ value: String) -> FilterValueError {
        FilterValueError(
            field: FilterField.limit.rawValue, code: FilterField.limit.errorCode,
            message: "limit takes a whole number from 1 to \(maximumLimit), not \"\(value)\"")
    }

    /// `high`, `high,medium`, or one importance after `>=`, `>`, `<=`, `<` or `=`.
    private mutating func setImportance(_ value: String) throws(FilterValueError) {
        let symbol = [">=", "<=", ">", "<", "="].first { value.hasPrefix($0) }
        let names = Self.list(String(value.dropFirst(symbol?.count ?? 0)))
        if let symbol, symbol != "=", names.count != 1 {
            throw .invalid(value, of: .importance, "\(symbol) takes one importance")
        }
        var levels: [Importance] = []
        for name in names { levels.append(try Self.importance(name, of: .importance)) }
        guard let first = levels.first else { throw .invalid(value, of: .importance) }
        switch symbol {
        case ">=":
            setMinimumImportance(first)
        case ">":
            guard let next = Importance(rank: first.rank + 1) else {
                throw .invalid(value, of: .importance, "nothing is more important than \(first.rawValue)")
            }
            setMinimumImportance(next)
        case "<=", "<":
            let allowed = Importance.allCases.filter { symbol == "<" ? $0 < first : $0 <= first }
            guard !allowed.isEmpty else {
                throw .invalid(value, of: .importance, "nothing is less important than \(first.rawValue)")
            }
            importances = (importances ?? []).union(allowed)
        default:
            importances = (importances ?? []).union(levels)
        }
    }

    // MARK: - Values

    /// `20`, and `20.0` as JSON writes a whole number.
    private static func wholeNumber(_ text: String) -> Int? {
        Int(text) ?? Double(text).flatMap { Int(exactly: $0) }
    }

    /// Comma-separated names, trimmed; an empty name stays, so that `type:goal,` is an error.
    private static func list(_ value: String) -> [String] {
        value.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingBlanks }
    }

    private static func importance(_ name: String, of field: FilterField) throws(FilterValueError) -> Importance {
        guard let importance = Importance(rawValue: name.trimmingBlanks.lowercased()) else {
            throw .unknownWord(name, of: field)
        }
        return importance
    }

    /// `true`/`false`, also `1`/`0` and `yes`/`no`, as query strings spell them.
    package static func boolean(_ value: String, of field: FilterField) throws(FilterValueError) -> Bool {
        switch value.lowercased() {
        case "true", "1", "yes": true
        case "false", "0", "no": false
        default: throw .invalid(value, of: field)
        }
    }

    // MARK: - Words

    /// The fields as a person reads them, for a results footer: `["type goal, fact", "importance ≥ medium"]`.
    package var summary: [String] {
        var parts: [String] = []
        if let types { parts.append("type " + types.sorted().map(\.rawValue).joined(separator: ", ")) }
        if let statuses { parts.append("status " + statuses.map(\.rawValue).sorted().joined(separator: ", ")) }
        if let importances {
            parts.append("importance " + importances.sorted().map(\.rawValue).joined(separator: ", "))
        }
        if let minimumImportance { parts.append("importance ≥ \(minimumImportance.rawValue)") }
        if let topicPath { parts.append("topic \(topicPath)") }
        switch activity {
        case .all: parts.append("active and inactive")
        case .inactiveOnly: parts.append("inactive only")
        case .activeOnly, nil: break
        }
        if let minSimilarity { parts.append("similarity ≥ \(minSimilarity)") }
        if let since { parts.append("since \(since.summary)") }
        if let until { parts.append("until \(until.summary)") }
        return parts
    }
}

extension String {
    /// Without the spaces and tabs around it: exactly what the OpenAPI document's patterns allow
    /// (`[ \t]*`), so that the server and its contract agree on every value.
    package var trimmingBlanks: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }

    /// Whether the text is empty or only white space and line breaks: what
    /// `trimmingCharacters(in: .whitespacesAndNewlines).isEmpty` says (Unicode's `White_Space`,
    /// and U+200B ZERO WIDTH SPACE, which Foundation counts too), without building a
    /// `CharacterSet` and a trimmed copy: checking a server request's namespace that way was
    /// 2 % of a text search's CPU.
    package var isBlank: Bool {
        unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0 == "\u{200B}" }
    }
}
