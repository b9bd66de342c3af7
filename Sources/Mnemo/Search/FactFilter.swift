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

    /// Creates a filter; every criterion left out lets all facts through.
    public init(
        types: Set<FactType>? = nil,
        importances: Set<Importance>? = nil,
        minimumImportance: Importance? = nil,
        topicPath: TopicPath? = nil,
        activity: Activity = .activeOnly
    ) {
        self.types = types
        self.importances = importances
        self.minimumImportance = minimumImportance
        self.topicPath = topicPath
        self.activity = activity
    }
}
