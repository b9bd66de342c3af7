import Foundation

/// How much a fact matters, from ``negligible`` to ``high``. Ordered, so filters can ask for a
/// minimum.
///
/// The raw values are what JSON, the CLI and the database's history use: `"high"`, `"medium"`,
/// `"low"` and `"none"`.
public enum Importance: String, CaseIterable, Codable, Sendable, Hashable, Comparable {
    /// Worth keeping but not worth bringing up: the importance an extractor gives a statement it
    /// has little confidence in. Written `"none"` in JSON and on the command line. (Not named
    /// `none`, which `FactUpdate(importance: .none)` would read as "no change".)
    case negligible = "none"
    case low
    case medium
    case high

    /// The importance's rank, stored in the database so that "at least medium" is a comparison.
    public var rank: Int {
        switch self {
        case .negligible: 0
        case .low: 1
        case .medium: 2
        case .high: 3
        }
    }

    /// Creates an importance from its stored ``rank``.
    public init?(rank: Int) {
        guard let match = Self.allCases.first(where: { $0.rank == rank }) else { return nil }
        self = match
    }

    /// Parses an importance name, ignoring case and surrounding whitespace.
    public init?(parsing text: String) {
        self.init(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    public static func < (lhs: Importance, rhs: Importance) -> Bool { lhs.rank < rhs.rank }
}

/// Dictionaries keyed by importance encode as JSON objects keyed by its name (`none` included).
extension Importance: CodingKeyRepresentable {}
