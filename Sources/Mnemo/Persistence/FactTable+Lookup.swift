import Foundation
import GRDB

extension FactTable {
    /// The namespace's facts with these ids, by id.
    static func facts(_ db: Database, namespace: String, ids: [Int64]) throws -> [Int64: Fact] {
        guard !ids.isEmpty else { return [:] }
        let facts = try Fact.fetchAll(db.cachedStatement(sql: factsByID), arguments: [namespace, idList(ids)])
        return Dictionary(facts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The highest fact id: the number of facts ever stored, read in one index probe where
    /// counting would read every row.
    static func highestID(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM fact")) ?? 0
    }

    /// A fact of a page of search hits, with the ids of the facts it is in conflict with.
    struct FactWithPartners {
        var fact: Fact
        /// Ascending (see ``ConflictTable/partners(_:of:)``).
        var conflictPartners: [Int64]
    }

    /// ``facts(_:namespace:ids:)`` with each fact's conflict partners, read in the same statement:
    /// a search shows them on its hits, and asking in a second statement cost a text search 3 %
    /// of a server's CPU.
    static func factsWithPartners(_ db: Database, namespace: String, ids: [Int64]) throws -> [Int64: FactWithPartners] {
        guard !ids.isEmpty else { return [:] }
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: factsWithPartnersByID), arguments: [namespace, idList(ids)])
        var facts: [Int64: FactWithPartners] = [:]
        while let row = try rows.next() {
            let fact = Fact(row: row)
            let partners =
                (row[Fact.columnCount] as String?)?.split(separator: ",").compactMap { Int64($0) }.sorted() ?? []
            facts[fact.id] = FactWithPartners(fact: fact, conflictPartners: partners)
        }
        return facts
    }

    // The statements' text is made once: `cachedStatement` finds a statement by its text, and
    // building that text for every read showed in a search's profile.

    /// The unary `+` keeps SQLite from reading the whole namespace through the (namespace, …)
    /// indexes: without statistics it guesses that `namespace = ?` is as selective as a handful
    /// of primary-key lookups, and at 100k facts that guess cost 20 ms per search. The ids travel
    /// as one JSON array so that the statement is prepared once and cached.
    private static let factsByID = """
        SELECT \(Fact.selection) FROM \(Fact.source)
        WHERE +fact.namespace = ? AND fact.id IN (SELECT value FROM json_each(?))
        """

    /// ``factsByID`` with each fact's conflict partners as one text, `3,17`.
    private static let factsWithPartnersByID = """
        SELECT \(Fact.selection), (
            SELECT group_concat(partner) FROM (
                SELECT newer_fact_id AS partner FROM fact_conflict WHERE older_fact_id = fact.id
                UNION SELECT older_fact_id FROM fact_conflict WHERE newer_fact_id = fact.id)
        )
        FROM \(Fact.source)
        WHERE +fact.namespace = ? AND fact.id IN (SELECT value FROM json_each(?))
        """

    /// Ids as a JSON array, for `IN (SELECT value FROM json_each(?))`.
    static func idList(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }
}
