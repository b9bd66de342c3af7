/// What a comparative preference prefers to what: "I prefer hiking to cycling", "I'd rather
/// drink tea than coffee", "Likes cats more than dogs", "SwiftUI over UIKit", "tea instead of
/// coffee".
///
/// Two facts whose preferences point opposite ways say opposite things, however close their
/// embeddings: "I prefer hiking to cycling" and "These days I'd pick cycling over hiking".
struct PreferenceDirection: Hashable {
    /// Content stems of the preferred side.
    let preferred: Set<String>
    /// Content stems of the other side.
    let other: Set<String>

    /// The first comparative preference of `text`, if it states one.
    init?(_ text: String) {
        for clause in Self.clauses(text) {
            if let direction = Self.direction(in: clause) {
                self = direction
                return
            }
        }
        return nil
    }

    private init(preferred: Set<String>, other: Set<String>) {
        self.preferred = preferred
        self.other = other
    }

    /// Whether `other` prefers what this one rejects and rejects what this one prefers.
    func isReversed(by other: PreferenceDirection) -> Bool {
        let (mine, theirs) = (distinctive, other.distinctive)
        return !mine.preferred.isDisjoint(with: theirs.other) && !mine.other.isDisjoint(with: theirs.preferred)
    }

    /// Whether both prefer the same thing to the same other thing (and are not reversed).
    func agrees(with other: PreferenceDirection) -> Bool {
        let (mine, theirs) = (distinctive, other.distinctive)
        return !mine.preferred.isDisjoint(with: theirs.preferred) && !mine.other.isDisjoint(with: theirs.other)
            && !isReversed(by: other)
    }

    /// Each side without the words on both sides ("morning runs to evening runs"), which tell nothing.
    private var distinctive: (preferred: Set<String>, other: Set<String>) {
        (preferred.subtracting(other), other.subtracting(preferred))
    }

    /// Clauses as lists of canonical words: "," ";" ":" "." and "—" end a clause.
    private static func clauses(_ text: String) -> [[String]] {
        text.split { ",;:.!?—()".contains($0) }.map { FactValues(String($0)).words }.filter { !$0.isEmpty }
    }

    /// Verbs that make "to" and "over" comparative: "prefer X to Y", "pick X over Y".
    private static let preferenceVerbs: Set<String> = [
        "prefer", "prefers", "preferred", "preferring", "choose", "chooses", "chose", "chosen", "choosing",
        "pick", "picks", "picked", "picking", "favour", "favours", "favoured", "favor", "favors", "favored",
        "like", "likes", "liked", "love", "loves", "loved", "enjoy", "enjoys", "enjoyed",
    ]

    /// The stems of the preference verbs, as the near-duplicate rule's word alignment sees them.
    static let verbStems = Set(preferenceVerbs.map(FactWords.stem))

    private static func direction(in words: [String]) -> PreferenceDirection? {
        let stems = words.map(FactWords.stem)
        // Where the preferred side starts: after the preference verb, or after "rather".
        var verbEnd: Int?
        var ratherEnd: Int?
        for index in words.indices {
            let word = words[index]
            let next = index + 1 < words.count ? words[index + 1] : nil
            if preferenceVerbs.contains(word), verbEnd == nil { verbEnd = index + 1 }
            if word == "rather", next != "than", ratherEnd == nil { ratherEnd = index + 1 }
            let start: Int
            let markerLength: Int
            switch word {
            case "rather" where next == "than", "instead" where next == "of", "more" where next == "than",
                "better" where next == "than", "sooner" where next == "than":
                (start, markerLength) = (verbEnd ?? 0, 2)
            case "than" where ratherEnd != nil:
                (start, markerLength) = (ratherEnd!, 1)
            case "over":
                (start, markerLength) = (verbEnd ?? 0, 1)
            // "to" compares only after a preference verb, and not right after it ("like to run").
            case "to" where verbEnd != nil && verbEnd! < index:
                (start, markerLength) = (verbEnd!, 1)
            default:
                continue
            }
            let preferred = content(words[start..<index], stems[start..<index])
            let otherRange = (index + markerLength)..<words.count
            let other = content(words[otherRange], stems[otherRange])
            guard !preferred.isEmpty, !other.isEmpty else { continue }
            return PreferenceDirection(preferred: Set(preferred), other: Set(other.prefix(4)))
        }
        return nil
    }

    private static func content(_ words: ArraySlice<String>, _ stems: ArraySlice<String>) -> [String] {
        zip(words, stems).filter {
            !FactWords.stopWords.contains($0.0) && !preferenceVerbs.contains($0.0) && $0.0 != "rather"
        }.map(\.1)
    }
}
