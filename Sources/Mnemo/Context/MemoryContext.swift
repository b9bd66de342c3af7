import Foundation

/// The memory an assistant should see before it answers a message, within a token budget: see
/// ``KnowledgeBase/context(for:budget:options:)``.
///
/// ``text`` is what goes into the prompt; ``items`` say what it holds and why. Every front door
/// (`mnemo context --json`, `POST /v1/context`, the MCP tool) writes it as `{"context": "…",
/// "tokens": n, "budget": n, "nothing_relevant": false, "items": [{"id", "content", "topic",
/// "type", "importance", "created_at", "why", "score", "tokens", "conflicts_with"}]}`.
public struct MemoryContext: Hashable, Sendable {
    /// Markdown: one `## Topic` heading per top-level topic, then one line per fact, with the
    /// date an experience was stated and where a goal stands. Empty when nothing fits or
    /// nothing is known.
    public var text: String
    /// ``text``'s cost by the estimator; never more than ``budget``.
    public var tokens: Int
    /// The budget asked for.
    public var budget: Int
    /// The facts in the order of ``text``.
    public var items: [ContextItem]
    /// True when no search hit for the message reached ``ContextOptions/minimumRelevance`` or a
    /// cosine of ``ContextOptions/minimumEvidence``: the memory knows nothing about it
    /// (always-surfaced and recent facts may still be there).
    public var nothingRelevant: Bool
}

/// One fact of a ``MemoryContext``.
public struct ContextItem: Hashable, Sendable {
    /// Why a fact is in a context.
    public enum Reason: String, Hashable, Sendable, Codable {
        /// Its importance is at least ``ContextOptions/alwaysImportance``.
        case always
        /// It answers the message (``ContextItem/score`` says how well).
        case relevant
        /// It was stated recently and there was room.
        case recent
        /// It conflicts with another item and is shown next to it.
        case conflict
    }

    public var fact: Fact
    public var reason: Reason
    /// The fact's ``SearchHit/relevance`` to the message, when it was computed.
    public var score: Double?
    /// The cost of the fact's line by the estimator.
    public var tokens: Int
    /// The items of this context that this fact conflicts with.
    public var conflictsWith: [Int64]
}
