import Foundation
import GRDB

extension FactTable {
    /// The namespace's facts with these ids, by id.
    static func facts(_ db: Database, namespace: String, ids: [Int64]) throws -> [Int64: Fact] {
        guard !ids.isEmpty else { return [:] }
        // The unary `+` keeps SQLite from reading the whole namespace through the
        // (namespace, …) indexes: without statistics it guesses that `namespace = ?` is as
        // selective as a handful of primary-key lookups, and at 100k facts that guess cost
        // 20 ms per search.
        // The ids travel as one JSON array so that the statement is prepared once and cached.
        let facts = try Fact.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(Fact.selection) FROM \(Fact.source)
                    WHERE +fact.namespace = ? AND fact.id IN (SELECT value FROM json_each(?))
                    """), arguments: [namespace, idList(ids)])
        return Dictionary(facts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Ids as a JSON array, for `IN (SELECT value FROM json_each(?))`.
    static func idList(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }
}
