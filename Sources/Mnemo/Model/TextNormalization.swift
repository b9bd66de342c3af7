/// The text foldings that decide when two strings name the same thing.
///
/// The keys stored in the database (`content_key`, `path_key`) come from ``folded(_:)`` and
/// ``factKey(_:)``, which use only Mnemo's own Unicode tables (``FoldTables``, Unicode 14.0),
/// not Foundation's or the standard library's, which differ from
/// platform to platform: the same text has the same key on every platform. The definition is
/// `Scripts/unicode/fold.py`; `Fixtures/folded-keys.json` pins it.
///
/// Ingest runs these on every record, so each has a fast path for the common case (ASCII text
/// that needs no change) that gives exactly what the general path gives.
enum TextNormalization {
    /// Trims the text and collapses every inner run of whitespace (White_Space scalars, with any
    /// combining marks or joiners attached to them) into one space.
    static func collapsingWhitespace(_ text: String) -> String {
        if isCollapsedASCII(text) { return text }
        var collapsed: [UInt32] = []
        collapsed.reserveCapacity(text.utf8.count)
        var inSpace = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if FoldTables.isWhiteSpace(value) {
                inSpace = true
                continue
            }
            // A mark or joiner after a space forms one character with it: it goes with the space.
            if inSpace && (value == 0x200C || value == 0x200D || FoldTables.isMark(value)) { continue }
            if inSpace && !collapsed.isEmpty { collapsed.append(0x20) }
            inSpace = false
            collapsed.append(value)
        }
        return KeyFolding.string(collapsed)
    }

    /// Case- and diacritic-insensitive form with collapsed whitespace (see ``KeyFolding``).
    static func folded(_ text: String) -> String {
        let collapsed = collapsingWhitespace(text)
        // ASCII has no diacritics and nothing to compose: folding it is lowercasing it.
        if collapsed.utf8.allSatisfy({ $0 < 0x80 }) { return collapsed.lowercased() }
        return KeyFolding.fold(collapsed)
    }

    /// The form under which two fact contents count as exact duplicates: folded, with trailing
    /// punctuation removed ("Lives in Porto." and "lives in  porto" are the same fact).
    static func factKey(_ content: String) -> String {
        if let key = asciiFactKey(content) { return key }
        var key = folded(content)
        while let last = key.unicodeScalars.last, isTrailingJunk(last.value) {
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

    /// What ``factKey(_:)`` strips from the end: punctuation (general category P*: `.`, `!`, `?`,
    /// `"`, `)`, … but not symbols such as `$` or `+`), whitespace, and ZERO WIDTH SPACE (which
    /// Foundation's `whitespaces`, used for the keys before, counts as a space).
    private static func isTrailingJunk(_ scalar: UInt32) -> Bool {
        FoldTables.isPunctuation(scalar) || isSpace(scalar)
    }

    private static let trailingASCII: [Bool] = (0..<128).map { isTrailingJunk(UInt32($0)) }

    /// The text without leading and trailing whitespace and newlines: what
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` returns, from Mnemo's own tables and
    /// without its detour through `NSString`, which costs more than the rest of a record's checks.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0.value) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0.value) })!
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return text }
        return String(scalars[first...last])
    }

    /// White_Space, and ZERO WIDTH SPACE, as Foundation's `whitespacesAndNewlines` has it.
    private static func isSpace(_ scalar: UInt32) -> Bool {
        FoldTables.isWhiteSpace(scalar) || scalar == 0x200B
    }

    /// Whether the text is ASCII without tabs or newlines, without leading or trailing spaces,
    /// and without two spaces in a row: collapsing it would change nothing.
    private static func isCollapsedASCII(_ text: String) -> Bool {
        var afterSpace = true // a leading space is not collapsed
        for byte in text.utf8 {
            if byte >= 0x80 || (0x09...0x0D).contains(byte) { return false }
            let isSpace = byte == 0x20
            if isSpace, afterSpace { return false }
            afterSpace = isSpace
        }
        return !afterSpace
    }
}
