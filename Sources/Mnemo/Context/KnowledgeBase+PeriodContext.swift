import Foundation

/// What a period held for the user, in three parts each within its share of a budget: see
/// ``KnowledgeBase/context(window:budget:)``. It is Lume's `UserContext` (active goals, goals
/// completed, recent entries) in one call.
public struct PeriodContext: Hashable, Sendable {
    /// The start of the window (inclusive).
    public var since: Date
    /// The end of the window: the knowledge base's ``KnowledgeBase/now``.
    public var until: Date
    /// The goals being pursued, those due soonest first, then the most important.
    public var activeGoals: MemoryContext
    /// The goals completed within the window, the latest first.
    public var completedGoals: MemoryContext
    /// The experiences stated within the window, the most important first, then the latest.
    public var experiences: MemoryContext
}

extension KnowledgeBase {
    /// The active goals, the goals completed in the last `window` seconds before ``now`` and the
    /// experiences stated in it, each part within a third of `budget` tokens (by
    /// ``TokenEstimator``), laid out as a context is (``context(for:budget:options:)``).
    ///
    /// An active goal's line says how far along it is and when it is due; a completed goal's when
    /// it was completed. Only active facts appear; no two near duplicates in one part.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` for a budget outside 0…200,000 or a
    ///   window that is negative or not finite.
    public func context(window: TimeInterval, budget: Int) async throws -> PeriodContext {
        do {
            _ = try ContextBudget.checked(budget)
        } catch {
            throw MnemoError.invalidInput(field: "budget", reason: error.message)
        }
        guard window.isFinite, window >= 0 else {
            throw MnemoError.invalidInput(field: "window", reason: "\(window) is not a duration")
        }
        let until = now
        // A window longer than the calendar (100,000 months) reaches back to its start.
        let since = max(until.addingTimeInterval(-window), .distantPast)
        let share = budget / 3
        let store = embedder == nil ? nil : try await vectorSnapshot()
        let keys = FactKeys()
        let rule = NearDuplicateRule()
        func pack(_ facts: [Fact]) -> MemoryContext {
            var packer = ContextPacker(budget: share, estimator: TokenEstimator()) { a, b in
                Self.isNearDuplicate(a, b, rule: rule, store: store, keys: keys)
            }
            for fact in facts { packer.add(fact, reason: .recent, score: nil, partners: [], limit: share) }
            let text = packer.render()
            return MemoryContext(
                text: text, tokens: TokenEstimator().count(text), budget: share, items: packer.items,
                nothingRelevant: packer.items.isEmpty)
        }
        let newestFirst = { (a: Fact, b: Fact) in a.createdAt != b.createdAt ? a.createdAt > b.createdAt : a.id > b.id }
        let active = try await facts(matching: FactFilter(types: [.goal], statuses: [.active]), limit: 1_000).sorted {
            a, b in
            if a.targetDate != b.targetDate {
                return (a.targetDate ?? .distantFuture) < (b.targetDate ?? .distantFuture)
            }
            return a.importance != b.importance ? a.importance > b.importance : newestFirst(a, b)
        }
        let completed = try await facts(matching: FactFilter(types: [.goal], statuses: [.completed]), limit: 1_000)
            .filter { ($0.completedAt ?? $0.updatedAt) >= since }
            .sorted { ($0.completedAt ?? $0.updatedAt, $0.id) > ($1.completedAt ?? $1.updatedAt, $1.id) }
        let experiences = try await facts(
            matching: FactFilter(types: [.experience], since: since, until: until.addingTimeInterval(1)), limit: 1_000
        ).sorted { a, b in a.importance != b.importance ? a.importance > b.importance : newestFirst(a, b) }
        return PeriodContext(
            since: since, until: until, activeGoals: pack(active), completedGoals: pack(completed),
            experiences: pack(experiences))
    }
}
