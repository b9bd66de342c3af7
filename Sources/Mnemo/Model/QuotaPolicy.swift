/// What a write does when its namespace already holds ``KnowledgeBase/Configuration/factLimit``
/// facts and it would add a new one.
///
/// Only a write that adds a fact is ever refused or makes room: an exact repeat of a stored fact
/// (``AddFactOutcome/unchanged(_:)``) and a near duplicate merged into one
/// (``AddFactOutcome/merged(into:)``) add nothing and always pass.
///
/// ### What counts
///
/// A namespace's count is its stored facts, active and inactive: a deactivated fact is hidden
/// but kept, and can be reactivated at any time, so it keeps its place. Deleting
/// (``KnowledgeBase/deleteFact(id:)``), erasing or expiring a fact frees one. Undoing a delete
/// restores the fact even when the namespace has filled up since (undo puts back what was
/// there), so a namespace can then be over its limit: until deletes bring it back under, every
/// write that would add a fact is refused, with either policy (eviction makes room for one fact
/// at a time, it does not trim a namespace).
public enum QuotaPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// The write fails with ``MnemoError/quotaExceeded(limit:)`` (an ingest rejects the record
    /// with ``IngestRejection/Code/quotaExceeded``), and nothing is deleted.
    case reject
    /// The least valuable stored facts are deleted to make room, one for each new fact.
    ///
    /// The least valuable fact is chosen in this order: an inactive fact before any active one,
    /// then the lowest importance, then the fewest mentions, then the oldest (by the date it was
    /// stated), then the smallest id. Two limits keep the choice from losing what the write
    /// meant to keep:
    /// - an active fact is never evicted for a new fact of lower importance (a `low` fact does
    ///   not push out a `high` one): the new fact is refused instead;
    /// - a fact added by the same call (the same ``KnowledgeBase/addFacts(_:nearDuplicates:repeats:)``
    ///   or ingest, across all its batches) is never evicted for a later one of that call: when a
    ///   call brings more new facts than the limit holds, the excess is refused, visibly, rather
    ///   than silently replacing the call's earlier facts.
    ///
    /// An eviction is a delete (``KnowledgeBase/deleteFact(id:)``), not an erase: the fact's
    /// history records it with the reason `quota`, and ``KnowledgeBase/undo(_:)`` brings it back.
    /// ``KnowledgeBase/addFactsReportingEvictions(_:nearDuplicates:repeats:)`` and
    /// ``IngestReport/evicted`` name the evicted facts.
    case evictLeastValuable = "evict"
}

/// A namespace's fact limit and what happens at it (see ``QuotaPolicy``).
struct FactQuota: Sendable, Hashable {
    var limit: Int
    var policy: QuotaPolicy

    /// The quota of a configuration, `nil` when it sets no limit.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` for a negative limit.
    init?(limit: Int?, policy: QuotaPolicy) throws {
        guard let limit else { return nil }
        guard limit >= 0 else {
            throw MnemoError.invalidInput(
                field: "factLimit", reason: "\(limit) is not a number of facts (0 or more, or nil for no limit)")
        }
        self.limit = limit
        self.policy = policy
    }
}

/// What ``KnowledgeBase/addFactsReportingEvictions(_:nearDuplicates:repeats:)`` did.
public struct AddFactsResult: Hashable, Sendable {
    /// The outcome of each input, in order.
    public var outcomes: [AddFactOutcome]
    /// The facts deleted to make room, as they were before the delete, in the order they were
    /// evicted; empty unless the policy is ``QuotaPolicy/evictLeastValuable``.
    public var evicted: [Fact]
}
