import Foundation

/// User text turned into a safe FTS5 query.
///
/// User text is never passed to FTS5 as syntax. It is split into terms (runs of letters and
/// digits) and `"quoted phrases"`; each becomes a quoted FTS5 string, so operators such as
/// `AND`, `NEAR`, `*`, `-`, `^` or `:` typed by a user are searched as plain words or ignored.
/// Terms are combined with `OR` (BM25 ranks facts matching more and rarer terms first) or,
/// on request, with `AND`.
///
/// English stop words ("what", "do", "I", "my"…) are left out of the query unless it has nothing
/// else, as reference BM25 setups do: in a memory of short facts they match almost everything,
/// and a question such as "what do I like to code with?" would otherwise rank every fact that
/// says "I" or "like" above the one that answers it. Quoted phrases keep all their words.
public struct TextQuery: Hashable, Sendable {
    /// How the terms of a query combine.
    public enum Matching: String, Hashable, Sendable, CaseIterable {
        /// A fact matches when it has any term; more and rarer terms rank higher.
        case anyTerm
        /// A fact matches only when it has every term.
        case allTerms
    }

    /// The words and phrases found in the user text, each a list of words.
    public let phrases: [[String]]

    /// The FTS5 MATCH expression; every term is a quoted string, so it is always valid.
    public let pattern: String

    /// How the phrases combine in ``pattern``.
    let matching: Matching

    /// Parses user text; returns `nil` when it holds nothing searchable (empty, punctuation, emoji).
    public init?(_ text: String, matching: Matching = .anyTerm) {
        let all = Self.phrases(in: text)
        guard !all.isEmpty else { return nil }
        let meaningful = all.filter { $0.count > 1 || !Self.stopWords.contains($0[0].lowercased()) }
        let phrases = meaningful.isEmpty ? all : meaningful
        self.phrases = phrases
        self.matching = matching
        self.pattern = Self.quoted(phrases).joined(separator: matching == .anyTerm ? " OR " : " AND ")
    }

    private static func quoted(_ phrases: [[String]]) -> [String] {
        phrases.map { "\"" + $0.joined(separator: " ") + "\"" }
    }

    /// Up to this many phrases, ``narrowed(keeping:)`` names every pair of them.
    static let mostPhrasesPaired = 6

    /// A MATCH expression narrower than ``pattern``, and for each phrase of it, in order, the index
    /// of the query's phrase it is.
    struct NarrowedPattern: Equatable {
        var pattern: String
        var phraseMap: [Int]
    }

    /// For a query of any of 2 to ``mostPhrasesPaired`` phrases: the MATCH expression of the rows
    /// that hold two of its phrases or more, or one of the phrases `kept`:
    /// `("a" AND "b") OR ("a" AND "c") OR ("b" AND "c") OR "c"` for `kept` [2].
    ///
    /// Its matches are the rows of ``pattern`` less those that hold only one phrase, not kept: for
    /// a query of common words, a few hundred rows where ``pattern`` has tens of thousands. Every
    /// phrase is named in a pair, so FTS5 gives its instances in any row the expression matches.
    func narrowed(keeping kept: [Int] = []) -> NarrowedPattern? {
        guard matching == .anyTerm, (2...Self.mostPhrasesPaired).contains(phrases.count) else { return nil }
        let quoted = Self.quoted(phrases)
        var parts: [String] = []
        var phraseMap: [Int] = []
        for first in quoted.indices {
            for second in quoted.indices where second > first {
                parts.append("(\(quoted[first]) AND \(quoted[second]))")
                phraseMap += [first, second]
            }
        }
        for phrase in kept where quoted.indices.contains(phrase) {
            parts.append(quoted[phrase])
            phraseMap.append(phrase)
        }
        return NarrowedPattern(pattern: parts.joined(separator: " OR "), phraseMap: phraseMap)
    }

    /// Splits text into phrases: a quoted span is one phrase, every other word is its own.
    static func phrases(in text: String) -> [[String]] {
        var phrases: [[String]] = []
        for (index, span) in text.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            let words = words(in: span)
            guard !words.isEmpty else { continue }
            // Odd spans sit between quotes. An unbalanced last quote leaves plain words.
            if index % 2 == 1 { phrases.append(words) } else { phrases += words.map { [$0] } }
        }
        return phrases
    }

    /// Runs of letters, digits and combining marks: what SQLite's unicode61 tokenizer indexes.
    static func words(in text: Substring) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// Query words that carry no topic of their own (lower-cased).
    static let stopWords: Set<String> = [
        "a", "about", "above", "after", "again", "all", "am", "an", "and", "any", "are", "as", "at", "be",
        "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do",
        "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has", "have",
        "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if", "in",
        "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor",
        "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out",
        "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their",
        "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to",
        "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which",
        "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "yourself",
        "yourselves", "s", "t", "d", "ll", "m", "re", "ve",
    ]
}
