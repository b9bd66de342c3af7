import Foundation

/// Which facts a listing or search may return. The default returns every active fact.
public struct FactFilter: Hashable, Sendable {
    /// Which facts to include by their active state.
    public enum Activity: String, CaseIterable, Hashable, Sendable, Codable {
        case activeOnly = "active"
        case inactiveOnly = "inactive"
        case all
    }

    /// Only these types, or any type when `nil`.
    public var types: Set<FactType>?
    /// Only these importances, or any when `nil`.
    public var importances: Set<Importance>?
    /// Only facts at least this important.
    public var minimumImportance: Importance?
    /// Only facts in this topic or its descendants.
    public var topicPath: TopicPath?
    public var activity: Activity
    /// Only facts stated at or after this moment (inclusive), by ``Fact/createdAt``.
    public var since: Date?
    /// Only facts stated before this moment (exclusive), by ``Fact/createdAt``.
    ///
    /// The range is half-open, `since ≤ createdAt < until`, so that consecutive periods
    /// (`until: juneFirst` then `since: juneFirst`) neither overlap nor leave a gap. A front door
    /// that reads a day or a month (`until:2025-06`) passes the start of the next one, so the
    /// whole period it names is included (see ``TimeBound``).
    public var until: Date?
    /// Only goals with one of these statuses (``Fact/status``), or any fact when `nil`.
    public var statuses: Set<GoalStatus>?

    /// Creates a filter; every criterion left out lets all facts through.
    public init(
        types: Set<FactType>? = nil,
        importances: Set<Importance>? = nil,
        minimumImportance: Importance? = nil,
        topicPath: TopicPath? = nil,
        activity: Activity = .activeOnly,
        since: Date? = nil,
        until: Date? = nil,
        statuses: Set<GoalStatus>? = nil
    ) {
        self.types = types
        self.importances = importances
        self.minimumImportance = minimumImportance
        self.topicPath = topicPath
        self.activity = activity
        self.since = since
        self.until = until
        self.statuses = statuses
    }

    /// Whether the filter restricts the date a fact was stated.
    var hasTimeRange: Bool { since != nil || until != nil }

    /// Whether `fact` passes ``statuses``.
    func admits(status fact: Fact) -> Bool {
        guard let statuses else { return true }
        return fact.status.map(statuses.contains) ?? false
    }

    /// Whether a fact stated at `date` passes ``since`` and ``until``.
    func admits(statedAt date: Date) -> Bool {
        if let since, date < since { return false }
        if let until, date >= until { return false }
        return true
    }
}
