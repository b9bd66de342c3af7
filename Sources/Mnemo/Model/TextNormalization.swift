import Foundation

/// The text foldings that decide when two strings name the same thing.
enum TextNormalization {
    /// Trims the text and collapses every inner run of whitespace into one space.
    static func collapsingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Case- and diacritic-insensitive form with collapsed whitespace.
    static func folded(_ text: String) -> String {
        collapsingWhitespace(text)
            .precomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The form under which two fact contents count as exact duplicates: folded, with trailing
    /// punctuation removed ("Lives in Porto." and "lives in  porto" are the same fact).
    static func factKey(_ content: String) -> String {
        var key = folded(content)
        while let last = key.unicodeScalars.last,
              CharacterSet.punctuationCharacters.contains(last) || CharacterSet.whitespaces.contains(last) {
            key.unicodeScalars.removeLast()
        }
        return key
    }
}
