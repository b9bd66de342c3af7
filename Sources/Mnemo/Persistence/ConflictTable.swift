import Foundation
import GRDB

/// Conflict reads and writes inside a database transaction.
enum ConflictTable {
    /// Links two facts as a conflict, once; the lower id is the older fact.
    static func link(_ db: Database, namespace: String, _ a: Int64, _ b: Int64, reason: String, similarity: Double, now: Date) throws {
        guard a != b else { return }
        try db.execute(sql: """
            INSERT OR IGNORE INTO fact_conflict (namespace, older_fact_id, newer_fact_id, reason, similarity, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [namespace, min(a, b), max(a, b), reason, similarity, now])
    }

    /// The namespace's conflicts, newest first.
    static func list(_ db: Database, namespace: String, limit: Int, offset: Int) throws -> [FactConflict] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT id, older_fact_id, newer_fact_id, reason, similarity, created_at FROM fact_conflict
            WHERE namespace = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?
            """, arguments: [namespace, limit, offset])
        let facts = try FactTable.facts(db, namespace: namespace, ids: rows.flatMap { [$0["older_fact_id"], $0["newer_fact_id"]] })
        return rows.compactMap { row in
            guard let older = facts[row["older_fact_id"]], let newer = facts[row["newer_fact_id"]] else { return nil }
            return FactConflict(id: row["id"], older: older, newer: newer, reason: row["reason"],
                                similarity: row["similarity"], detectedAt: row["created_at"])
        }
    }

    /// For each of `ids`, the ids of the facts it is in conflict with, ascending.
    static func partners(_ db: Database, of ids: [Int64]) throws -> [Int64: [Int64]] {
        guard !ids.isEmpty else { return [:] }
        var partners: [Int64: [Int64]] = [:]
        let wanted = Set(ids)
        let list = FactTable.idList(ids)
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT older_fact_id, newer_fact_id FROM fact_conflict
            WHERE older_fact_id IN (SELECT value FROM json_each(?1)) OR newer_fact_id IN (SELECT value FROM json_each(?1))
            """), arguments: [list])
        for row in rows {
            let (older, newer): (Int64, Int64) = (row[0], row[1])
            if wanted.contains(older) { partners[older, default: []].append(newer) }
            if wanted.contains(newer) { partners[newer, default: []].append(older) }
        }
        return partners.mapValues { Array(Set($0)).sorted() }
    }
}
