import Foundation
import GRDB

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
    public var topicPath: String?
    public var activity: Activity

    /// Creates a filter; every criterion left out lets all facts through.
    public init(
        types: Set<FactType>? = nil,
        importances: Set<Importance>? = nil,
        minimumImportance: Importance? = nil,
        topicPath: String? = nil,
        activity: Activity = .activeOnly
    ) {
        self.types = types
        self.importances = importances
        self.minimumImportance = minimumImportance
        self.topicPath = topicPath
        self.activity = activity
    }

    /// Whether the fact passes every criterion except the topic subtree.
    func matchesAttributes(type: FactType, importance: Importance, isActive: Bool) -> Bool {
        if let types, !types.contains(type) { return false }
        if let importances, !importances.contains(importance) { return false }
        if let minimumImportance, importance < minimumImportance { return false }
        switch activity {
        case .activeOnly: return isActive
        case .inactiveOnly: return !isActive
        case .all: return true
        }
    }

    /// SQL conditions on `fact` and `topic` (as joined by ``Fact/source``) for this filter.
    func sqlConditions(_ db: Database, namespace: String) throws -> (sql: String, arguments: StatementArguments) {
        var clauses = ["fact.namespace = ?"]
        var arguments: StatementArguments = [namespace]
        if types?.isEmpty == true || importances?.isEmpty == true {
            clauses.append("0")  // An empty set lets nothing through.
        }
        if let types, !types.isEmpty {
            clauses.append("fact.type IN (\(Self.placeholders(types.count)))")
            arguments += StatementArguments(types.sorted().map(\.rawValue))
        }
        if let importances, !importances.isEmpty {
            clauses.append("fact.importance IN (\(Self.placeholders(importances.count)))")
            arguments += StatementArguments(importances.map(\.rank).sorted())
        }
        if let minimumImportance {
            clauses.append("fact.importance >= ?")
            arguments += [minimumImportance.rank]
        }
        switch activity {
        case .activeOnly: clauses.append("fact.is_active = 1")
        case .inactiveOnly: clauses.append("fact.is_active = 0")
        case .all: break
        }
        if let topicPath {
            let key = try TopicPath(topicPath).key
            clauses.append("(topic.path_key = ? OR substr(topic.path_key, 1, length(?) + 1) = ? || '/')")
            arguments += [key, key, key]
        }
        return (clauses.joined(separator: " AND "), arguments)
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: max(count, 1)).joined(separator: ", ")
    }
}
