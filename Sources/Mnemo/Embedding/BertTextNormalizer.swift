import Foundation

/// The text clean-up and word splitting of BERT, as the Hugging Face `BertNormalizer` followed by
/// `BertPreTokenizer` (the fast tokenizer that sentence-transformers runs) do them.
///
/// Everything works on Unicode scalars, the unit those implementations iterate over: a Swift
/// `Character` would glue an emoji and its modifiers, or a letter and its combining accent, into
/// one grapheme, and the results would differ from the reference.
package struct BertTextNormalizer: Sendable {
    /// Drop NUL, U+FFFD and control/format characters, and turn every whitespace into a space.
    package var cleanText = true
    /// Surround CJK ideographs with spaces, so that each becomes a word of its own.
    package var handleChineseCharacters = true
    /// Decompose (NFD) and drop non-spacing marks, so that `é` becomes `e`.
    package var stripAccents = true
    /// Lower-case every scalar (full, context-free mappings).
    package var lowercase = true

    package init(
        cleanText: Bool = true, handleChineseCharacters: Bool = true, stripAccents: Bool = true,
        lowercase: Bool = true
    ) {
        self.cleanText = cleanText
        self.handleChineseCharacters = handleChineseCharacters
        self.stripAccents = stripAccents
        self.lowercase = lowercase
    }

    /// Applies the normalisation steps in the reference order: clean, CJK, accents, lower case.
    package func normalize(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if cleanText {
                if scalar.value == 0 || scalar.value == 0xFFFD || Self.isControl(scalar) { continue }
                if Self.isWhitespace(scalar) {
                    scalars.append(" ")
                    continue
                }
            }
            if handleChineseCharacters && Self.isChineseCharacter(scalar) {
                scalars.append(" ")
                scalars.append(scalar)
                scalars.append(" ")
            } else {
                scalars.append(scalar)
            }
        }
        var result = String(scalars)
        if stripAccents {
            // Canonical decomposition puts accents into separate scalars, which are then dropped.
            let decomposed = result.decomposedStringWithCanonicalMapping
            var kept = String.UnicodeScalarView()
            for scalar in decomposed.unicodeScalars where !Self.isNonspacingMark(scalar) {
                kept.append(scalar)
            }
            result = String(kept)
        }
        if lowercase {
            var lowered = String.UnicodeScalarView()
            for scalar in result.unicodeScalars {
                // ASCII is by far the common case; skip the property lookup for it.
                if scalar.isASCII {
                    let value = scalar.value
                    lowered.append(value >= 65 && value <= 90 ? Unicode.Scalar(value + 32)! : scalar)
                } else {
                    lowered.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
                }
            }
            result = String(lowered)
        }
        return result
    }

    /// Splits normalised text into words: whitespace separates and disappears, and every punctuation
    /// character becomes a word of its own. Each word is returned as its scalars.
    package func preTokenize(_ text: String) -> [[Unicode.Scalar]] {
        var words: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            if Self.isWhitespace(scalar) {
                if !current.isEmpty {
                    words.append(current)
                    current.removeAll(keepingCapacity: true)
                }
            } else if Self.isPunctuation(scalar) {
                if !current.isEmpty {
                    words.append(current)
                    current.removeAll(keepingCapacity: true)
                }
                words.append([scalar])
            } else {
                current.append(scalar)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The Unicode version of the character-category tables of the reference implementation.
    ///
    /// The Hugging Face `tokenizers` library classifies control, format, punctuation and
    /// non-spacing-mark characters with tables from Unicode 8.0. A character assigned later (such as
    /// U+061D ARABIC END OF TEXT MARK, Unicode 14) is "unassigned" there: neither removed, nor split
    /// off, nor stripped. Checking a scalar's age against this version reproduces that exactly,
    /// whatever Unicode version the Swift runtime knows.
    package static let referenceUnicodeVersion = (major: 8, minor: 0)

    /// Whether the reference tables know this scalar at all (see ``referenceUnicodeVersion``).
    package static func isKnownToReference(_ scalar: Unicode.Scalar) -> Bool {
        guard let age = scalar.properties.age else { return false }
        return age.major < referenceUnicodeVersion.major
            || (age.major == referenceUnicodeVersion.major && age.minor <= referenceUnicodeVersion.minor)
    }

    /// Characters whose general category changed after Unicode 8.0, with the 8.0 verdict the reference
    /// applies (found by comparing every code point against the reference tokenizer).
    private static let nonspacingMarksInReference: Set<UInt32> = [0x1734, 0x1171E]
    private static let notNonspacingMarksInReference: Set<UInt32> = [0x1885, 0x1886, 0xA9BD, 0x111C9]
    private static let punctuationInReference: Set<UInt32> = [0x166D, 0x111C9]

    /// A combining mark that accent stripping removes (general category Mn).
    package static func isNonspacingMark(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x300 else { return false }
        if nonspacingMarksInReference.contains(value) { return true }
        if notNonspacingMarksInReference.contains(value) { return false }
        return scalar.properties.generalCategory == .nonspacingMark && isKnownToReference(scalar)
    }

    /// Whitespace as Rust's `char::is_whitespace` (the Unicode White_Space property), which the
    /// reference uses; tab, line feed and carriage return are included.
    package static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0x09, 0x0A, 0x0D: return true
        case 0..<0x80: return false
        default: return scalar.properties.isWhitespace
        }
    }

    /// Characters removed by the clean-up: general categories Cc, Cf, Co and Cs, except tab, line feed
    /// and carriage return, which count as whitespace. Unassigned code points (Cn) are kept, as the
    /// reference keeps them (they end up as `[UNK]`).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        case 0..<0x20, 0x7F: return true
        case 0x20..<0x7F: return false
        default:
            switch scalar.properties.generalCategory {
            case .control, .format, .privateUse, .surrogate: return isKnownToReference(scalar)
            default: return false
            }
        }
    }

    /// Punctuation as BERT sees it: every ASCII character that is neither a letter, a digit, a space
    /// nor a control (so `$`, `+`, `<`, `^`, `` ` ``, `|` and `~` count even though Unicode calls
    /// them symbols), plus every scalar of a Unicode punctuation category (P*).
    package static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if (33...47).contains(value) || (58...64).contains(value) || (91...96).contains(value)
            || (123...126).contains(value)
        {
            return true
        }
        if value < 0x80 { return false }
        if punctuationInReference.contains(value) { return true }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return isKnownToReference(scalar)
        default:
            return false
        }
    }

    /// The CJK Unified Ideographs blocks that BERT isolates. Hiragana, Katakana and Hangul are
    /// deliberately absent: the original BERT treats them as letters of ordinary words.
    ///
    /// Extension E starts at U+2B920 here, not U+2B820: that is what the fast Hugging Face tokenizer
    /// (the reference) checks, so U+2B820–U+2B91F stay inside words, as there.
    package static func isChineseCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F,
            0x2B740...0x2B81F, 0x2B920...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F:
            return true
        default:
            return false
        }
    }
}
