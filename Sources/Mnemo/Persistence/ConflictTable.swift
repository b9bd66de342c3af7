import Foundation
import GRDB

/// Conflict reads and writes inside a database transaction.
enum ConflictTable {
    /// A fact of a conflict: its id and when it was stated.
    struct Member {
        var id: Int64
        var createdAt: Date
    }

    /// Links two facts as a conflict, once. The older is the one stated first (``Fact/createdAt``,
    /// then the lower id): a fact ingested today may have been stated before one stored last week.
    static func link(
        _ db: Database, namespace: String, _ a: Member, _ b: Member, reason: String, similarity: Double, now: Date
    ) throws {
        guard a.id != b.id else { return }
        let (older, newer) = (a.createdAt, a.id) <= (b.createdAt, b.id) ? (a, b) : (b, a)
        // Either order was linked at most once (a pair is judged when its second fact arrives).
        let linked =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM fact_conflict WHERE older_fact_id = ? AND newer_fact_id = ?)
                    """, arguments: [newer.id, older.id]) ?? false
        guard !linked else { return }
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO fact_conflict (id, namespace, older_fact_id, newer_fact_id, reason, similarity, created_at)
                VALUES ((SELECT \(RowIDs.nextSQL("fact_conflict"))), ?, ?, ?, ?, ?, ?)
                """, arguments: [namespace, older.id, newer.id, reason, similarity, now])
    }

    /// The ids of the two facts of the namespace's conflict `id`, or `nil` when it has none.
    static func find(_ db: Database, namespace: String, id: Int64) throws -> (older: Int64, newer: Int64)? {
        try Row.fetchOne(
            db, sql: "SELECT older_fact_id, newer_fact_id FROM fact_conflict WHERE id = ? AND namespace = ?",
            arguments: [id, namespace]
        ).map { ($0["older_fact_id"], $0["newer_fact_id"]) }
    }

    static func remove(_ db: Database, id: Int64) throws {
        try db.execute(sql: "DELETE FROM fact_conflict WHERE id = ?", arguments: [id])
    }

    /// The namespace's conflicts, newest first.
    static func list(_ db: Database, namespace: String, limit: Int, offset: Int) throws -> [FactConflict] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, older_fact_id, newer_fact_id, reason, similarity, created_at FROM fact_conflict
                WHERE namespace = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?
                """, arguments: [namespace, limit, offset])
        let facts = try FactTable.facts(
            db, namespace: namespace, ids: rows.flatMap { [$0["older_fact_id"], $0["newer_fact_id"]] })
        return rows.compactMap { row in
            guard let older = facts[row["older_fact_id"]], let newer = facts[row["newer_fact_id"]] else { return nil }
            return FactConflict(
                id: row["id"], older: older, newer: newer, reason: row["reason"],
                similarity: row["similarity"], detectedAt: row["created_at"])
        }
    }

    /// For each of `ids`, the ids of the facts it is in conflict with, ascending.
    static func partners(_ db: Database, of ids: [Int64]) throws -> [Int64: [Int64]] {
        guard !ids.isEmpty else { return [:] }
        var partners: [Int64: [Int64]] = [:]
        let wanted = Set(ids)
        let list = FactTable.idList(ids)
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
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
