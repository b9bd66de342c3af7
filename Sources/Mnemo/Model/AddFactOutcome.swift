/// What ``KnowledgeBase/addFact(_:)`` did with a fact.
///
/// ```swift
/// switch try await kb.addFact(NewFact(content: "Lives in Porto", topicPath: "Home")) {
/// case .added(let fact): print("new fact", fact.id)
/// case .merged(let survivor): print("merged into", survivor.id)
/// case .unchanged(let existing): print("already known as", existing.id)
/// }
/// ```
public enum AddFactOutcome: Hashable, Sendable {
    /// A new fact was stored.
    case added(Fact)
    /// A near duplicate of a stored fact (see ``NearDuplicateRule``): it was merged into that
    /// fact, which is given as it is now (highest importance and confidence, all sources).
    case merged(into: Fact)
    /// An exact duplicate (same content, ignoring case, accents, spacing and trailing
    /// punctuation) of a stored fact, given as it is now: its mention count went up and its
    /// sources grew. With ``RepeatPolicy/leaveUnchanged``, an exact or near duplicate of a
    /// stored fact, which was left as it was.
    case unchanged(Fact)

    /// The stored fact: the new one, or the one it was merged into or matched.
    public var fact: Fact {
        switch self {
        case .added(let fact), .merged(into: let fact), .unchanged(let fact): fact
        }
    }

    /// The stored fact's id.
    public var id: Int64 { fact.id }

    /// Whether a new fact was stored.
    public var isAdded: Bool {
        if case .added = self { return true }
        return false
    }
}
