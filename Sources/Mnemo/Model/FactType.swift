import Foundation

/// What kind of statement a fact is.
public enum FactType: String, CaseIterable, Codable, Sendable, Hashable, Comparable {
    /// A plain statement about the user or their world ("Lives in Porto").
    case fact
    /// A like, dislike or choice ("Prefers SwiftUI over UIKit").
    case preference
    /// Something the user wants to achieve ("Learn Rust this year").
    case goal
    /// Something that happened to the user ("Ran a half marathon in May").
    case experience

    /// Parses a type name, ignoring case and surrounding whitespace.
    public init?(parsing text: String) {
        self.init(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    public static func < (lhs: FactType, rhs: FactType) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Dictionaries keyed by type encode as JSON objects keyed by the type's name.
extension FactType: CodingKeyRepresentable {}
