import Foundation
import GRDB

/// Keeps each namespace of a write transaction within its fact limit (see ``QuotaPolicy``).
///
/// It counts a namespace's stored facts once, when the transaction first adds to it, then
/// follows its own additions and evictions: the count is read inside the write transaction, so
/// two writers, in one process or several, cannot both pass the limit (SQLite lets one write
/// transaction at a time commit, and one that read an older state cannot write).
struct QuotaKeeper {
    let quota: FactQuota
    /// Facts that are never evicted: those added earlier by the same call (an ingest's earlier
    /// batches) and those this transaction adds.
    private var protected: Set<Int64>
    private var counts: [String: Int] = [:]
    private(set) var evicted: [Fact] = []
    private(set) var evictedIDs = Set<Int64>()

    init(quota: FactQuota, protecting protected: Set<Int64>) {
        self.quota = quota
        self.protected = protected
    }

    /// Makes room for `fact`, a new fact about to be stored in `namespace`: true when it may be
    /// added (evicting a stored fact first if the policy allows), false when it is refused.
    mutating func admit(_ db: Database, namespace: String, fact: ValidatedFact, now: Date) throws -> Bool {
        let count = try counts[namespace] ?? Self.count(db, namespace: namespace)
        counts[namespace] = count
        guard count >= quota.limit else { return true }
        guard quota.policy == .evictLeastValuable, count == quota.limit,
            let victim = try leastValuable(db, namespace: namespace, comparedWith: fact)
        else { return false }
        try OperationLog.record(
            db, namespace: namespace, kind: .deleteFact,
            summary: "evicted fact #\(victim.id) to keep within the limit of \(quota.limit) facts: \(victim.content)"
        ) {
            try FactTable.delete(db, victim, now: now, details: ["reason": "quota"])
        }
        evicted.append(victim)
        evictedIDs.insert(victim.id)
        counts[namespace] = count - 1
        return true
    }

    /// Counts a fact the transaction added, which is never evicted by a later one.
    mutating func didAdd(_ fact: Fact) {
        counts[fact.namespace, default: 0] += 1
        protected.insert(fact.id)
    }

    private static func count(_ db: Database, namespace: String) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT COUNT(*) FROM fact WHERE namespace = ?"), arguments: [namespace]) ?? 0
    }

    /// The fact to evict for `fact`: inactive first, then lowest importance, fewest mentions,
    /// oldest, smallest id; never a protected one, nor an active one more important than `fact`.
    private func leastValuable(_ db: Database, namespace: String, comparedWith fact: ValidatedFact) throws -> Fact? {
        // The protected ids go in as one JSON array: an `IN (?, ?, …)` list could pass SQLite's
        // limit on bound variables for a large ingest.
        let protectedJSON = "[" + protected.map(String.init).joined(separator: ",") + "]"
        return try Row.fetchOne(
            db,
            sql: """
                SELECT \(Fact.selection) FROM \(Fact.source)
                WHERE fact.namespace = ? AND (fact.is_active = 0 OR fact.importance <= ?)
                  AND fact.id NOT IN (SELECT value FROM json_each(?))
                ORDER BY fact.is_active, fact.importance, fact.mention_count, fact.created_at, fact.id
                LIMIT 1
                """, arguments: [namespace, fact.importance.rank, protectedJSON]
        ).map(Fact.init(row:))
    }
}
