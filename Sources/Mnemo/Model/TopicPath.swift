import Foundation

/// A validated topic path such as `Technology/iOS Development`.
///
/// Segments are separated by `/`. Each segment is trimmed and its inner whitespace collapsed;
/// an empty segment (`a//b`, `/`, or an empty path) is invalid. Two paths that differ only in
/// case or diacritics name the same topic: `key` is the folded form used for lookups, while
/// ``segments`` keep the spelling given for display.
///
/// Every API that takes a topic takes a `TopicPath`. A string literal is one
/// (`kb.topic(at: "Technology/iOS Development")`); text from a user goes through the throwing
/// ``init(validating:)`` (or ``init(_:)``, the same), so a bad path is an
/// ``MnemoError/invalidInput(field:reason:)``, never a crash.
///
/// ### Literals and run-time text
///
/// Because `TopicPath` is `ExpressibleByStringLiteral`, Swift reads `TopicPath("Health")`, a call
/// with a literal argument, as the literal `"Health" as TopicPath`: it calls
/// ``init(stringLiteral:)``, not the throwing ``init(_:)`` (the compiler then warns that no call
/// in a `try` expression throws). A literal is part of the program, so an invalid one is a
/// programming error: it stops the program with the reason printed, in debug and release builds
/// alike:
///
/// ```
/// Fatal error: invalid topic path literal "Health & Fitness/Running/": it has an empty segment
/// ```
///
/// To validate text at run time, pass a variable to ``init(_:)`` or spell it
/// ``init(validating:)``, which takes a literal too and always throws instead of stopping:
///
/// ```swift
/// let path = try TopicPath(validating: userText) // MnemoError.invalidInput on bad text
/// let same = try TopicPath(userText) // the same initialiser
/// ```
public struct TopicPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral, Codable {
    /// The display segments, trimmed and whitespace-collapsed.
    public let segments: [String]

    /// A path written in the source code. An invalid literal (empty, or with an empty segment)
    /// is a programming error and stops the program, printing why in every build configuration.
    ///
    /// `TopicPath("…")` with a literal argument calls this initialiser; use
    /// ``init(validating:)`` to check a path at run time instead.
    public init(stringLiteral text: String) {
        switch Self.parse(text) {
        case .success(let segments):
            self.segments = segments
        case .failure(let problem):
            // `fatalError`, not `precondition`: an optimised build drops a precondition's message
            // and would stop with no reason.
            fatalError(Self.invalidLiteralMessage(text, problem))
        }
    }

    /// What the program prints when it stops on an invalid literal.
    static func invalidLiteralMessage(_ text: String, _ problem: Problem) -> String {
        "invalid topic path literal \"\(text)\": \(problem.reason)"
    }

    /// Decodes a path from its text, validating it.
    public init(from decoder: any Decoder) throws {
        try self.init(decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the path as its display text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Parses and validates a path given at run time: the same as ``init(validating:)``.
    ///
    /// Called with a literal argument (`TopicPath("a/b")`), Swift picks ``init(stringLiteral:)``
    /// instead; pass text from a variable, or call ``init(validating:)``.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` when the path or a segment is empty.
    public init(_ text: String) throws(MnemoError) {
        try self.init(validating: text)
    }

    /// Parses and validates a path, throwing for bad text, whether it is a literal or not.
    ///
    /// ```swift
    /// do {
    ///     _ = try TopicPath(validating: "Health & Fitness/Running/")
    /// } catch MnemoError.invalidInput(let field, let reason) {
    ///     print(field, reason) // topicPath "Health & Fitness/Running/": it has an empty segment
    /// }
    /// ```
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` with field `topicPath` when the path
    ///   is empty or has an empty segment (`a//b`, a leading or trailing `/`).
    public init(validating text: String) throws(MnemoError) {
        switch Self.parse(text) {
        case .success(let segments): self.segments = segments
        case .failure(let problem):
            throw MnemoError.invalidInput(field: "topicPath", reason: "\"\(text)\": \(problem.reason)")
        }
    }

    /// Why a text is not a topic path.
    struct Problem: Error {
        var reason: String
    }

    /// The display segments of `text`, or why it is not a path.
    static func parse(_ text: String) -> Result<[String], Problem> {
        // SQLite's text binding ends a string at NUL: the stored key would name another topic.
        if text.utf8.contains(0) { return .failure(Problem(reason: "it has a NUL character (U+0000)")) }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
            .map { TextNormalization.collapsingWhitespace(String($0)) }
        // Blank means White_Space only, as segments collapse it (the OpenAPI pattern's class).
        if segments.allSatisfy(\.isEmpty) { return .failure(Problem(reason: "the path is empty")) }
        if segments.contains(where: \.isEmpty) { return .failure(Problem(reason: "it has an empty segment")) }
        return .success(segments)
    }

    init(validSegments: [String]) {
        precondition(!validSegments.isEmpty, "A topic path has at least one segment")
        self.segments = validSegments
    }

    /// The path as displayed: segments joined by `/`.
    public var description: String { segments.joined(separator: "/") }

    /// The folded path used to match topics case- and diacritic-insensitively.
    package var key: String { segments.map(Self.key(ofSegment:)).joined(separator: "/") }

    /// The number of segments; 1 for a top-level topic.
    public var depth: Int { segments.count }

    /// The path without its last segment, or `nil` for a top-level path.
    public var parent: TopicPath? {
        segments.count > 1 ? TopicPath(validSegments: Array(segments.dropLast())) : nil
    }

    /// The path of a child named `segment`.
    public func appending(_ segment: String) throws -> TopicPath {
        try TopicPath(description + "/" + segment)
    }

    /// Two paths are equal when they name the same topic.
    public static func == (lhs: TopicPath, rhs: TopicPath) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    static func key(ofSegment segment: String) -> String {
        TextNormalization.folded(segment)
    }
}
