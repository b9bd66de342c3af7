/// What adding a fact that is already stored does
/// (``KnowledgeBase/addFacts(_:nearDuplicates:repeats:)``).
///
/// A fact is already stored when one with the same normalized content is (an exact repeat), or,
/// with an embedder, a near duplicate of it (see ``NearDuplicateRule``).
public enum RepeatPolicy: Sendable, Hashable {
    /// The repeat is a mention, as when a user says it again (the default): an exact repeat
    /// raises the stored fact's mention count, adds its sources and records a `mentioned`
    /// history event; a near duplicate is merged into the stored fact.
    case countMention
    /// The stored fact is left exactly as it is, and nothing is written for the repeat: its
    /// outcome is ``AddFactOutcome/unchanged(_:)`` with the stored fact. For facts an app makes
    /// sure exist each time it starts: only the missing ones are added.
    case leaveUnchanged
}
