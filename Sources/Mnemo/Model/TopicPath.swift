import Foundation

/// A validated topic path such as `Technology/iOS Development`.
///
/// Segments are separated by `/`. Each segment is trimmed and its inner whitespace collapsed;
/// an empty segment (`a//b`, `/`, or an empty path) is invalid. Two paths that differ only in
/// case or diacritics name the same topic: ``key`` is the folded form used for lookups, while
/// ``segments`` keep the spelling given for display.
public struct TopicPath: Hashable, Sendable, CustomStringConvertible {
    /// The display segments, trimmed and whitespace-collapsed.
    public let segments: [String]

    /// Parses and validates a path.
    /// - Throws: ``MnemoError/invalidTopicPath(_:reason:)`` when the path or a segment is empty.
    public init(_ text: String) throws {
        let rawSegments = text.split(separator: "/", omittingEmptySubsequences: false)
        let segments = rawSegments.map { TextNormalization.collapsingWhitespace(String($0)) }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw MnemoError.invalidTopicPath(text, reason: "the path is empty")
        }
        if segments.contains(where: \.isEmpty) {
            throw MnemoError.invalidTopicPath(text, reason: "it has an empty segment")
        }
        self.segments = segments
    }

    init(validSegments: [String]) {
        precondition(!validSegments.isEmpty, "A topic path has at least one segment")
        self.segments = validSegments
    }

    /// The path as displayed: segments joined by `/`.
    public var description: String { segments.joined(separator: "/") }

    /// The folded path used to match topics case- and diacritic-insensitively.
    public var key: String { segments.map(Self.key(ofSegment:)).joined(separator: "/") }

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
