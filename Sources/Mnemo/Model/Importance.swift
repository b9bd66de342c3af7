import Foundation

/// How much a fact matters, from ``none`` to ``high``. Ordered, so filters can ask for a minimum.
public enum Importance: String, CaseIterable, Codable, Sendable, Hashable, Comparable {
    case none
    case low
    case medium
    case high

    /// The importance's rank, stored in the database so that "at least medium" is a comparison.
    public var rank: Int {
        switch self {
        case .none: 0
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
