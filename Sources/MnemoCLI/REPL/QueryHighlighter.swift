import Foundation
import Mnemo

/// Finds the query's words in a fact's content, to highlight them.
///
/// Words are compared ignoring case and accents, and a query word also marks the same word with
/// another ending ("run" marks "running", "climbing" marks "climb"), roughly as the index's
/// stemmer matches them. Stop words ("what", "I", "my") are
/// left out as the text search leaves them out.
struct QueryHighlighter {
    let terms: [String]

    init(query: String) {
        terms = (TextQuery(query)?.phrases.flatMap { $0 } ?? []).map(Self.fold)
    }

    /// `content` with each matching word passed through `mark`.
    func highlight(_ content: String, mark: (String) -> String) -> String {
        guard !terms.isEmpty else { return content }
        var result = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            result += matches(word) ? mark(word) : word
            word = ""
        }
        for character in content {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    /// The distinct words of `content` that match, in order.
    func matchedWords(in content: String) -> [String] {
        var seen: [String] = []
        _ = highlight(content) { word in
            if !seen.contains(where: { $0.caseInsensitiveCompare(word) == .orderedSame }) { seen.append(word) }
            return word
        }
        return seen
    }

    func matches(_ word: String) -> Bool {
        let folded = Self.fold(word)
        return terms.contains { term in
            folded == term || Self.extends(folded, term) || Self.extends(term, folded)
        }
    }

    /// Whether `longer` is `stem` with an ending: any ending after a stem of five letters or
    /// more ("marathon" → "marathons", "program" → "programming"), a common one after a shorter
    /// stem ("run" → "running", but "tea" is not "team").
    private static func extends(_ longer: String, _ stem: String) -> Bool {
        guard stem.count >= 3, longer.count > stem.count, longer.hasPrefix(stem) else { return false }
        return stem.count >= 5 || endings.contains(String(longer.dropFirst(stem.count)))
    }

    private static let endings: Set<String> = [
        "s", "es", "d", "ed", "ing", "er", "ers", "ning", "ner", "ners", "ly", "ies", "ied",
    ]

    private static func fold(_ word: String) -> String {
        word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
