import Foundation

/// Decides whether two facts say the same thing, so that one can be merged into the other.
///
/// Cosine similarity alone cannot decide: with all-MiniLM-L6-v2, "I drink tea instead of coffee"
/// and "I drink coffee instead of tea" score 0.997 and "my aunt lives in Braga" / "my uncle
/// lives in Braga" 0.918, while true paraphrases score from 0.86 to 0.96. A wrong merge loses a
/// fact and a missed one only leaves a duplicate, so the rule puts precision first. Two facts
/// are near duplicates only when all of these hold:
///
/// 1. They have the same ``FactType``.
/// 2. Their cosine similarity is at least ``threshold``.
/// 3. They agree on what carries identity: the same numbers (digits in amounts, dates, times,
///    distances), the same capitalised names, and the same polarity (both negated or neither).
/// 4. One is not the other with two content words swapped ("tea instead of coffee" vs "coffee
///    instead of tea", "from Porto to Lisbon" vs "from Lisbon to Porto"): a word-level edit script
///    of at most four edits that replaces `x` by `y` and `y` by `x`.
/// 5. One is not a small in-place substitution of the other: an edit script of at most three
///    edits that replaces a content word by another ("aunt" → "uncle", "peanuts" → "walnuts")
///    without adding or removing any other content word. (Rewordings that add or drop content
///    words, such as "Led my first 6b" / "Climbed my first 6b on lead", are paraphrases.)
public struct NearDuplicateRule: Hashable, Sendable {
    /// The minimum cosine similarity, calibrated on the fixtures' planted pairs (see the README).
    public var threshold: Double

    /// The threshold calibrated for all-MiniLM-L6-v2 on the fixture knowledge base.
    public static let defaultThreshold = 0.85

    public init(threshold: Double = NearDuplicateRule.defaultThreshold) {
        self.threshold = threshold
    }

    /// Whether a fact of type `typeA` with content `a` and one of `typeB` with `b`, at cosine
    /// `similarity`, are the same fact.
    public func isDuplicate(_ a: String, _ b: String, typeA: FactType, typeB: FactType, similarity: Double) -> Bool {
        guard typeA == typeB, similarity >= threshold else { return false }
        return agreeOnIdentity(a, b)
    }

    /// Checks 3–5 of the rule: identity, swaps, and small substitutions.
    public func agreeOnIdentity(_ a: String, _ b: String) -> Bool {
        let left = FactWords(a), right = FactWords(b)
        guard left.numbers == right.numbers,
              left.names.isSubset(of: right.wordSet), right.names.isSubset(of: left.wordSet),
              left.isNegated == right.isNegated else { return false }
        let contentWords = left.contentStemSet.union(right.contentStemSet)
        let edits = WordAlignment.edits(from: left.stems, to: right.stems)
        return !Self.isSwap(edits, contentWords: contentWords) && !Self.isInPlaceSubstitution(edits, contentWords: contentWords)
    }

    /// Content-word substitutions in the script, as (old, new) pairs.
    private static func contentSubstitutions(_ edits: [WordAlignment.Edit], _ contentWords: Set<String>) -> [(String, String)] {
        edits.compactMap { edit in
            guard case let .substitute(old, new) = edit, contentWords.contains(old), contentWords.contains(new) else { return nil }
            return (old, new)
        }
    }

    static func isSwap(_ edits: [WordAlignment.Edit], contentWords: Set<String>) -> Bool {
        guard edits.count <= 4 else { return false }
        let substitutions = contentSubstitutions(edits, contentWords)
        return substitutions.contains { pair in substitutions.contains { $0 == (pair.1, pair.0) } }
    }

    static func isInPlaceSubstitution(_ edits: [WordAlignment.Edit], contentWords: Set<String>) -> Bool {
        guard edits.count <= 3, !contentSubstitutions(edits, contentWords).isEmpty else { return false }
        return !edits.contains { edit in
            switch edit {
            case let .insert(word), let .delete(word): contentWords.contains(word)
            case .substitute: false
            }
        }
    }
}

/// The words of a fact as the near-duplicate rule sees them.
struct FactWords {
    /// Lower-cased, diacritic-folded word stems in order.
    let stems: [String]
    /// The stems that are not stop words, in order.
    let contentStems: [String]
    let contentStemSet: Set<String>
    /// Every run of digits, as a multiset in order of appearance.
    let numbers: [String]
    /// Capitalised words that are not the first word: names of people, places, brands.
    let names: Set<String>
    /// Every folded word, to check that a name of one fact appears in the other.
    let wordSet: Set<String>
    let isNegated: Bool

    init(_ text: String) {
        let tokens = Self.tokens(text)
        var names = Set<String>()
        for (index, token) in tokens.enumerated() where index > 0 {
            if let first = token.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(first),
               token != "I", !token.hasPrefix("I'"), !token.allSatisfy(\.isNumber) {
                names.insert(TextNormalization.folded(token))
            }
        }
        let words = tokens.map(TextNormalization.folded)
        self.names = names
        self.wordSet = Set(words)
        self.numbers = Self.digitRuns(text)
        self.isNegated = words.contains { Self.negations.contains($0) || $0.hasSuffix("n't") }
        self.stems = words.map(Self.stem)
        self.contentStems = zip(words, stems).filter { !Self.stopWords.contains($0.0) }.map(\.1)
        self.contentStemSet = Set(contentStems)
    }

    static func tokens(_ text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’") }
            .map { String($0).replacingOccurrences(of: "’", with: "'") }
    }

    static func digitRuns(_ text: String) -> [String] {
        text.split { !$0.isNumber }.map(String.init)
    }

    /// A light English stemmer: enough to see "prefer" and "prefers", "run" and "running" as one.
    static func stem(_ word: String) -> String {
        for suffix in ["ing", "ed", "es", "s"] where word.count > suffix.count + 2 && word.hasSuffix(suffix) {
            return String(word.dropLast(suffix.count))
        }
        return word
    }

    static let negations: Set<String> = ["not", "no", "never", "nor", "none", "nobody", "nothing", "neither", "without", "cannot"]

    static let stopWords: Set<String> = [
        "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "by", "from", "over",
        "about", "as", "into", "than", "instead", "i", "me", "my", "mine", "we", "our", "you", "your", "he", "she",
        "his", "her", "they", "their", "it", "its", "is", "am", "are", "was", "were", "be", "been", "being", "has",
        "have", "had", "do", "does", "did", "user", "user's", "this", "that", "these", "those", "there", "very",
        "really", "also", "just", "so", "some", "any", "all", "more", "most", "s", "'s", "now", "still",
    ]
}

/// The cheapest word-level edit script between two word sequences (Levenshtein with traceback).
enum WordAlignment {
    enum Edit: Equatable {
        case insert(String)
        case delete(String)
        case substitute(String, String)
    }

    static func edits(from a: [String], to b: [String]) -> [Edit] {
        let n = a.count, m = b.count
        var cost = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in 0...n { cost[i][0] = i }
        for j in 0...m { cost[0][j] = j }
        if n > 0, m > 0 {
            for i in 1...n {
                for j in 1...m {
                    let same = a[i - 1] == b[j - 1]
                    cost[i][j] = min(cost[i - 1][j] + 1, cost[i][j - 1] + 1, cost[i - 1][j - 1] + (same ? 0 : 1))
                }
            }
        }
        var edits: [Edit] = []
        var i = n, j = m
        while i > 0 || j > 0 {
            if i > 0, j > 0, cost[i][j] == cost[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1) {
                if a[i - 1] != b[j - 1] { edits.append(.substitute(a[i - 1], b[j - 1])) }
                i -= 1
                j -= 1
            } else if i > 0, cost[i][j] == cost[i - 1][j] + 1 {
                edits.append(.delete(a[i - 1]))
                i -= 1
            } else {
                edits.append(.insert(b[j - 1]))
                j -= 1
            }
        }
        return edits.reversed()
    }
}
