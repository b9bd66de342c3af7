/// The case- and accent-insensitive fold behind `content_key` and `path_key`, computed from
/// Mnemo's own Unicode tables (``FoldTables``) so that a database written on one platform is
/// read with the same keys on every other.
///
/// The definition (and a Python implementation the tests are checked against) is
/// `Scripts/unicode/fold.py`: canonical decomposition; combining marks after a Latin, Greek or
/// Cyrillic letter dropped (other scripts keep theirs: a dakuten or a nukta changes the letter);
/// full case folding; canonical composition.
enum KeyFolding {
    /// Below this scalar, letters are Latin, Greek or Cyrillic, whose marks are accents.
    private static let latinGreekCyrillicEnd: UInt32 = 0x0510

    /// The fold of text whose whitespace is already collapsed.
    static func fold(_ text: String) -> String {
        var decomposed: [UInt32] = []
        decomposed.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars { appendDecomposition(of: scalar.value, to: &decomposed) }
        reorderCanonically(&decomposed)

        var folded: [UInt32] = []
        folded.reserveCapacity(decomposed.count)
        var dropsMarks = false
        func append(_ scalar: UInt32) {
            if FoldTables.isMark(scalar) {
                if dropsMarks { return }
            } else {
                dropsMarks = scalar < latinGreekCyrillicEnd
            }
            folded.append(scalar)
        }
        for scalar in decomposed {
            if scalar < 0x80 { // ASCII: no marks, and case folding is lower-casing
                folded.append(scalar &- 0x41 < 26 ? scalar + 0x20 : scalar)
                dropsMarks = true
                continue
            }
            if dropsMarks && FoldTables.isMark(scalar) { continue }
            if let mapped = FoldTables.caseFolding[scalar] {
                mapped.forEach(append)
            } else {
                append(scalar)
            }
        }
        reorderCanonically(&folded)
        compose(&folded)

        return string(folded)
    }

    /// The text of valid scalar values, encoded once (appending scalars to a `String` one by one
    /// costs more than the fold itself).
    static func string(_ scalars: [UInt32]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count * 2)
        for value in scalars {
            UTF8.encode(Unicode.Scalar(value)!) { bytes.append($0) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Normalization

    private static let hangulSyllableBase: UInt32 = 0xAC00, hangulSyllableCount: UInt32 = 11_172
    private static let leadingBase: UInt32 = 0x1100, leadingCount: UInt32 = 19
    private static let vowelBase: UInt32 = 0x1161, vowelCount: UInt32 = 21
    private static let trailingBase: UInt32 = 0x11A7, trailingCount: UInt32 = 28

    private static func appendDecomposition(of scalar: UInt32, to output: inout [UInt32]) {
        if scalar < 0xC0 {
            output.append(scalar)
        } else if scalar &- hangulSyllableBase < hangulSyllableCount {
            let index = scalar - hangulSyllableBase
            output.append(leadingBase + index / (vowelCount * trailingCount))
            output.append(vowelBase + (index % (vowelCount * trailingCount)) / trailingCount)
            if index % trailingCount != 0 { output.append(trailingBase + index % trailingCount) }
        } else if let mapped = FoldTables.decomposition[scalar] {
            output.append(contentsOf: mapped)
        } else {
            output.append(scalar)
        }
    }

    /// Sorts every run of non-starters by combining class, keeping the order of equal classes.
    private static func reorderCanonically(_ scalars: inout [UInt32]) {
        var index = 0
        while index < scalars.count {
            guard FoldTables.combiningClass(scalars[index]) != 0 else {
                index += 1
                continue
            }
            var end = index + 1
            while end < scalars.count, FoldTables.combiningClass(scalars[end]) != 0 { end += 1 }
            if end - index > 1 {
                let sorted = scalars[index..<end].enumerated()
                    .sorted {
                        (FoldTables.combiningClass($0.element), $0.offset) < (
                            FoldTables.combiningClass($1.element), $1.offset
                        )
                    }
                    .map(\.element)
                scalars.replaceSubrange(index..<end, with: sorted)
            }
            index = end
        }
    }

    /// Canonical composition of decomposed, canonically ordered scalars (UAX #15).
    private static func compose(_ scalars: inout [UInt32]) {
        var output: [UInt32] = []
        output.reserveCapacity(scalars.count)
        var starter: Int?
        var lastClass: UInt32 = 0
        for scalar in scalars {
            let combiningClass = FoldTables.combiningClass(scalar)
            if let starter {
                let isBlocked = output.count - 1 != starter && (lastClass == 0 || lastClass >= combiningClass)
                if !isBlocked, let composite = composite(of: output[starter], and: scalar) {
                    output[starter] = composite
                    continue
                }
            }
            if combiningClass == 0 { starter = output.count }
            lastClass = combiningClass
            output.append(scalar)
        }
        scalars = output
    }

    private static func composite(of first: UInt32, and second: UInt32) -> UInt32? {
        // Every second scalar of a composition (a mark, a Hangul vowel or trailing consonant, a
        // few vowel signs) is above U+0300: the common case needs no lookup.
        if second < 0x300 { return nil }
        if first &- leadingBase < leadingCount, second &- vowelBase < vowelCount {
            return hangulSyllableBase + ((first - leadingBase) * vowelCount + (second - vowelBase)) * trailingCount
        }
        if first &- hangulSyllableBase < hangulSyllableCount, (first - hangulSyllableBase) % trailingCount == 0,
            second > trailingBase, second < trailingBase + trailingCount
        {
            return first + (second - trailingBase)
        }
        return FoldTables.composition[UInt64(first) << 32 | UInt64(second)]
    }
}
