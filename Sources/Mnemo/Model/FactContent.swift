/// The one rule for what a fact's content and confidence may be, shared by `addFact`,
/// `updateFact` and ingest (which report a problem as an ``MnemoError/invalidInput(field:reason:)``
/// and as an ``IngestRejection`` respectively).
enum FactContent {
    /// Why a content or confidence is refused.
    enum Problem: Error, Equatable {
        case empty
        case nulCharacter
        case tooLong(characters: Int)
        case confidenceOutOfRange(Double)

        var message: String {
            switch self {
            case .empty: #""content" is empty"#
            case .nulCharacter: "content has a NUL character (U+0000), which the database cannot store"
            case .tooLong(let characters):
                "content has \(characters) characters; the maximum is \(Fact.maximumContentLength)"
            case .confidenceOutOfRange(let value): "confidence \(value) is outside 0…1"
            }
        }

        /// The same problem as an error of the public API.
        var mnemoError: MnemoError {
            switch self {
            case .empty: .invalidInput(field: "content", reason: "the content is empty")
            case .nulCharacter: .invalidInput(field: "content", reason: message)
            case .tooLong: .invalidInput(field: "content", reason: message)
            case .confidenceOutOfRange: .invalidInput(field: "confidence", reason: message)
            }
        }
    }

    /// The content without leading and trailing whitespace, once checked to be neither empty
    /// nor longer than ``Fact/maximumContentLength`` characters, and free of NUL: SQLite's
    /// text binding would end the content there, and the stored fact would not be the one given.
    static func validated(_ content: String) throws(Problem) -> String {
        let trimmed = TextNormalization.trimmed(content)
        if trimmed.isEmpty { throw .empty }
        if trimmed.utf8.contains(0) { throw .nulCharacter }
        // Counting characters walks grapheme clusters; the byte count bounds it from above.
        if trimmed.utf8.count > Fact.maximumContentLength, trimmed.count > Fact.maximumContentLength {
            throw .tooLong(characters: trimmed.count)
        }
        return trimmed
    }

    /// Checks that a confidence is a number within 0…1.
    static func validate(confidence: Double) throws(Problem) {
        guard confidence.isFinite, (0...1).contains(confidence) else { throw .confidenceOutOfRange(confidence) }
    }
}
