import Foundation

/// The text foldings that decide when two strings name the same thing.
///
/// Ingest runs these on every record, so each has a fast path for the common case (ASCII text
/// that needs no change) that gives exactly what the general path gives.
enum TextNormalization {
    /// Trims the text and collapses every inner run of whitespace into one space.
    static func collapsingWhitespace(_ text: String) -> String {
        if isCollapsedASCII(text) { return text }
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Case- and diacritic-insensitive form with collapsed whitespace.
    static func folded(_ text: String) -> String {
        let collapsed = collapsingWhitespace(text)
        // ASCII has no diacritics and nothing to compose: folding it is lowercasing it.
        if collapsed.utf8.allSatisfy({ $0 < 0x80 }) { return collapsed.lowercased() }
        return collapsed
            .precomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The form under which two fact contents count as exact duplicates: folded, with trailing
    /// punctuation removed ("Lives in Porto." and "lives in  porto" are the same fact).
    static func factKey(_ content: String) -> String {
        if let key = asciiFactKey(content) { return key }
        var key = folded(content)
        while let last = key.unicodeScalars.last,
              CharacterSet.punctuationCharacters.contains(last) || CharacterSet.whitespaces.contains(last) {
            key.unicodeScalars.removeLast()
        }
        return key
    }

    /// ``factKey(_:)`` of ASCII text in one pass: lowercased, trailing punctuation and spaces
    /// dropped. `nil` when the text is not ASCII or not already collapsed.
    private static func asciiFactKey(_ content: String) -> String? {
        guard isCollapsedASCII(content) else { return nil }
        var bytes = Array(content.utf8)
        for index in bytes.indices where (0x41...0x5A).contains(bytes[index]) { bytes[index] += 0x20 }
        while let last = bytes.last, trailingASCII[Int(last)] { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The ASCII bytes that ``factKey(_:)`` strips from the end: what `CharacterSet` calls
    /// punctuation (`.`, `!`, `?`, `"`, `)`, … but not symbols such as `$` or `+`) and spaces.
    private static let trailingASCII: [Bool] = (0..<128).map { value in
        let scalar = Unicode.Scalar(UInt8(value))
        return CharacterSet.punctuationCharacters.contains(scalar) || CharacterSet.whitespaces.contains(scalar)
    }

    /// The text without leading and trailing whitespace and newlines: what
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` returns, without its detour through
    /// `NSString`, which costs more than the rest of a record's checks.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return text }
        return String(scalars[first...last])
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (0x09...0x0D).contains(scalar.value) }
        return CharacterSet.whitespacesAndNewlines.contains(scalar)
    }

    /// Whether the text is ASCII without tabs or newlines, without leading or trailing spaces,
    /// and without two spaces in a row: collapsing it would change nothing.
    private static func isCollapsedASCII(_ text: String) -> Bool {
        var afterSpace = true  // a leading space is not collapsed
        for byte in text.utf8 {
            if byte >= 0x80 || (0x09...0x0D).contains(byte) { return false }
            let isSpace = byte == 0x20
            if isSpace, afterSpace { return false }
            afterSpace = isSpace
        }
        return !afterSpace
    }
}
