/// A position in a namespace's change feed: everything up to it has been seen.
///
/// A cursor is opaque to an app: keep it (it is `Codable` and prints as a short string such as
/// `1042-9f1c2a7e`), and hand it back to ``KnowledgeBase/changes(after:limit:)`` or
/// ``KnowledgeBase/changeStream(after:)`` to resume where you stopped. It belongs to one
/// namespace: another namespace refuses it. Parse one received as text with
/// ``KnowledgeBase/cursor(_:)``, which says what is wrong with a bad one.
public struct ChangeCursor: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The number of the last event seen (0 before the first).
    package let sequence: Int64
    /// A hash of the namespace, so that a cursor of another namespace is refused.
    package let namespaceTag: UInt32

    package init(sequence: Int64, namespace: String) {
        self.sequence = sequence
        self.namespaceTag = Self.tag(of: namespace)
    }

    private init(sequence: Int64, namespaceTag: UInt32) {
        self.sequence = sequence
        self.namespaceTag = namespaceTag
    }

    /// `1042-9f1c2a7e`: the event number and the namespace's tag in hex.
    public var description: String {
        let hex = String(namespaceTag, radix: 16)
        return "\(sequence)-" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Reads a cursor written by ``description``; `nil` when the text is not one.
    package init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 8, let sequence = Int64(parts[0]), sequence >= 0,
            parts[0].allSatisfy(\.isASCIIDigit), let tag = UInt32(parts[1], radix: 16)
        else { return nil }
        self.init(sequence: sequence, namespaceTag: tag)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let cursor = ChangeCursor(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not a change cursor"))
        }
        self = cursor
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Whether the cursor was made for `namespace`.
    package func belongs(to namespace: String) -> Bool { namespaceTag == Self.tag(of: namespace) }

    private static func tag(of namespace: String) -> UInt32 {
        let hash = FNV1a.hash(namespace.utf8)
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
