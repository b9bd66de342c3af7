import Foundation
import Mnemo

/// A REPL search line taken apart: the words to search for, and the filters written inline
/// (`type:goal`, `importance:>=medium`, `topic:"Work/Projects"`, `active:all`, `limit:20`,
/// `mode:semantic`, `min:0.5`, `since:7d`, `until:2025-06`), which are removed from the searched text.
///
/// A filter's value may be quoted; a token that starts with a quote (`"type:goal"`) is searched
/// as text. A `word:` that is not a filter stays in the text (`10:30`, `https://…`), unless it is
/// a near miss of a filter's name, which is an error with a hint rather than a silent search for
/// the misspelt word.
@dynamicMemberLookup
struct InlineQuery: Equatable {
    var text = ""
    /// The filters, in the vocabulary every front door shares.
    var parameters = SearchParameters(maximumLimit: InlineFilter.maximumLimit)

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
                        "unknown filter \(name): — did you mean \(guess):? (put a word in quotes to search for it as written)"
                    )
                }
                words.append(token)
                continue
            }
            let value = Self.unquoted(token[token.index(after: colon)...])
            guard !value.isEmpty else {
                throw InlineQueryError("\(filter.rawValue): needs a value: \(filter.valueHelp)")
            }
            do {
                try parameters.set(filter.field, to: value)
            } catch {
                throw InlineQueryError(error.message)
            }
        }
        text = words.joined(separator: " ")
    }

    init() {}

    subscript<Value>(dynamicMember keyPath: KeyPath<SearchParameters, Value>) -> Value {
        parameters[keyPath: keyPath]
    }

    /// Whether any filter was given.
    var hasFilters: Bool { !parameters.isEmpty }

    /// The search `text` asks for, with these filters over the session's mode and limit.
    func searchQuery(mode defaultMode: SearchMode, limit defaultLimit: Int, now: Date = Date()) -> SearchQuery {
        parameters.searchQuery(text, defaultMode: defaultMode, defaultLimit: defaultLimit, now: now)
    }

    /// The filters as a ``FactFilter`` (active facts unless `active:` says otherwise).
    var filter: FactFilter { parameters.filter }

    /// The filters in words, for the results' footer: `["type goal, fact", "importance ≥ medium"]`.
    var filterSummary: [String] { parameters.summary }

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
