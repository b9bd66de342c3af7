import Foundation
import GRDB

extension FactFilter {
    /// SQL conditions on `fact` and `topic` (as joined by ``Fact/source``) for this filter.
    /// Facts that expired by `now` never pass (see ``Fact/expiresAt``).
    func sqlConditions(_ db: Database, namespace: String, now: Date = Date()) throws -> (
        sql: String, arguments: StatementArguments
    ) {
        var clauses = ["fact.namespace = ?", "(fact.expires_at IS NULL OR fact.expires_at > ?)"]
        var arguments: StatementArguments = [namespace, Timestamp.databaseText(now)]
        if types?.isEmpty == true || importances?.isEmpty == true {
            clauses.append("0") // An empty set lets nothing through.
        }
        if let types, !types.isEmpty {
            clauses.append("fact.type IN (\(Self.placeholders(types.count)))")
            arguments += StatementArguments(types.sorted().map(\.rawValue))
        }
        if let importances, !importances.isEmpty {
            clauses.append("fact.importance IN (\(Self.placeholders(importances.count)))")
            arguments += StatementArguments(importances.map(\.rank).sorted())
        }
        if let statuses {
            // A goal stored before goals had a status is active (``Fact/init(row:)``).
            clauses.append(
                "fact.type = 'goal' AND COALESCE(fact.goal_status, 'active') IN (\(Self.placeholders(statuses.count)))")
            arguments += StatementArguments(statuses.map(\.rawValue).sorted())
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
        // Dates are stored as fixed-width UTC text (``Timestamp/databaseText(_:)``): text order is time order.
        if let since {
            clauses.append("fact.created_at >= ?")
            arguments += [Timestamp.databaseText(since)]
        }
        if let until {
            clauses.append("fact.created_at < ?")
            arguments += [Timestamp.databaseText(until)]
        }
        if let topicPath {
            let key = topicPath.key
            clauses.append(TopicTable.subtreeCondition(pathKey: "topic.path_key"))
            arguments += TopicTable.subtreeArguments(key)
        }
        return (clauses.joined(separator: " AND "), arguments)
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: max(count, 1)).joined(separator: ", ")
    }
}
