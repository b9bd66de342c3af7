import Foundation
import GRDB

/// The writes of an erase, inside one transaction: every row that holds something of the erased
/// facts goes, a tombstone per fact and a keyed hash per wording (``ErasedContent``) are left,
/// and the full-text index is rewritten without them.
///
/// What holds a fact: its row (and through the triggers its full-text entries and its change-log
/// entry, which carries only the id), its vector, its conflict links, its history events (which
/// carry old contents: `updated`, `deleted`, `merged`), and the operation log, whose snapshots
/// carry whole rows. A fact that absorbed near-duplicates carries them too: their contents sit in
/// its `merged` events and in their own history, under their ids. Nothing is recorded as an
/// operation: an erase cannot be undone.
///
/// The connection runs with `secure_delete` (see `DatabaseFactory.prepare`), so the pages and
/// cells freed here are zeroed in the file.
package enum FactEraser {
    /// Erases the namespace's facts `ids`, stored or deleted (a deleted fact's history is what
    /// is left of it). Ids already erased in the namespace are skipped.
    /// - Throws: ``MnemoError/notFound(_:)`` for an id the namespace never had (nothing is erased).
    static func erase(
        _ db: Database, namespace: String, ids: [Int64], reason: ErasureReceipt.Reason,
        now: Date
    ) throws -> ErasureReceipt {
        var receipt = ErasureReceipt(namespace: namespace, reason: reason, erasedAt: now)
        var requested: [Int64] = []
        for id in Set(ids).sorted() {
            if try isTombstoned(db, namespace: namespace, id: id) { continue }
            guard try isKnown(db, namespace: namespace, id: id) else { throw MnemoError.notFound(.fact(id)) }
            requested.append(id)
        }
        guard !requested.isEmpty else { return receipt }
        let erased = try withAbsorbed(db, namespace: namespace, requested)
        try db.execute(sql: "CREATE TEMP TABLE erasing (id INTEGER PRIMARY KEY)")
        defer { try? db.execute(sql: "DROP TABLE temp.erasing") }
        for chunk in erased.chunked(into: 500) {
            try db.execute(sql: "INSERT INTO erasing (id) VALUES \(chunk.map { "(\($0))" }.joined(separator: ", "))")
        }
        try ErasedContent.rememberErasing(db, namespace: namespace)
        receipt.undoRecords = try deleteOperations(db, ids: try operationsHolding(db, namespace: namespace))
        try db.execute(
            sql: """
                DELETE FROM fact_conflict WHERE older_fact_id IN (SELECT id FROM erasing) OR newer_fact_id IN (SELECT id FROM erasing)
                """)
        receipt.conflictLinks = db.changesCount
        try db.execute(
            sql: "DELETE FROM history WHERE namespace = ? AND fact_id IN (SELECT id FROM erasing)",
            arguments: [namespace])
        receipt.historyRows = db.changesCount
        try FeedTable.historyRowsDeleted(db)
        try db.execute(
            sql:
                "DELETE FROM fact_embedding WHERE fact_id IN (SELECT id FROM fact WHERE namespace = ? AND id IN (SELECT id FROM erasing))",
            arguments: [namespace])
        receipt.vectors = db.changesCount
        try db.execute(
            sql: "DELETE FROM fact WHERE namespace = ? AND id IN (SELECT id FROM erasing)", arguments: [namespace])
        receipt.facts = db.changesCount
        try tombstone(db, namespace: namespace, ids: erased, reason: reason, now: now)
        for id in erased {
            try FeedTable.record(db, namespace: namespace, kind: .factErased, factID: id, now: now)
        }
        try rewriteFullTextIndex(db)
        receipt.factIDs = erased
        return receipt
    }

    /// Erases everything the namespace holds: facts, topics, history, conflicts, undo records.
    static func eraseNamespace(_ db: Database, namespace: String, now: Date) throws -> ErasureReceipt {
        var receipt = ErasureReceipt(namespace: namespace, reason: .namespaceErased, erasedAt: now)
        let ids = try Int64.fetchAll(
            db,
            sql: """
                SELECT id FROM fact WHERE namespace = ?1
                UNION SELECT fact_id FROM history WHERE namespace = ?1 AND fact_id IS NOT NULL
                EXCEPT SELECT fact_id FROM fact_tombstone
                ORDER BY 1
                """, arguments: [namespace])
        try db.execute(sql: "DELETE FROM operation WHERE namespace = ?", arguments: [namespace])
        receipt.undoRecords = db.changesCount
        try db.execute(sql: "DELETE FROM fact_conflict WHERE namespace = ?", arguments: [namespace])
        receipt.conflictLinks = db.changesCount
        try db.execute(sql: "DELETE FROM history WHERE namespace = ?", arguments: [namespace])
        receipt.historyRows = db.changesCount
        try FeedTable.historyRowsDeleted(db)
        try db.execute(
            sql: "DELETE FROM fact_embedding WHERE fact_id IN (SELECT id FROM fact WHERE namespace = ?)",
            arguments: [namespace])
        receipt.vectors = db.changesCount
        // Facts before topics: the full-text trigger reads a deleted fact's topic path.
        try db.execute(sql: "DELETE FROM fact WHERE namespace = ?", arguments: [namespace])
        receipt.facts = db.changesCount
        // A parent may not go before its children (the key restricts it): cut the links first.
        try db.execute(
            sql: "UPDATE topic SET parent_id = NULL WHERE namespace = ? AND parent_id IS NOT NULL",
            arguments: [namespace])
        try db.execute(sql: "DELETE FROM topic WHERE namespace = ?", arguments: [namespace])
        receipt.topics = db.changesCount
        try tombstone(db, namespace: namespace, ids: ids, reason: .namespaceErased, now: now)
        try ErasedContent.forget(db, namespace: namespace)
        try FeedTable.eraseNamespace(db, namespace: namespace, now: now)
        if receipt.facts + receipt.topics + receipt.historyRows + receipt.undoRecords > 0 {
            try rewriteFullTextIndex(db)
        }
        receipt.factIDs = ids
        return receipt
    }

    /// Whether the namespace erased fact `id` before.
    static func isTombstoned(_ db: Database, namespace: String, id: Int64) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM fact_tombstone WHERE fact_id = ? AND namespace = ?)",
            arguments: [id, namespace]) ?? false
    }

    /// Whether the namespace has the fact, or had it and kept its history.
    private static func isKnown(_ db: Database, namespace: String, id: Int64) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM fact WHERE id = ?1 AND namespace = ?2)
                    OR EXISTS (SELECT 1 FROM history WHERE fact_id = ?1 AND namespace = ?2)
                """, arguments: [id, namespace]) ?? false
    }

    /// `ids`, every fact merged into them (directly or through another merged fact), and the
    /// earlier rows of the same synced facts (by uid).
    private static func withAbsorbed(_ db: Database, namespace: String, _ ids: [Int64]) throws -> [Int64] {
        var all = Set(ids)
        var frontier = ids
        while !frontier.isEmpty {
            var next: [Int64] = []
            for chunk in frontier.chunked(into: 500) {
                let absorbed = try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT CAST(json_extract(details, '$.merged_from') AS INTEGER) FROM history
                        WHERE namespace = ? AND event = ? AND json_extract(details, '$.merged_from') IS NOT NULL
                          AND fact_id IN (\(chunk.map(String.init).joined(separator: ",")))
                        """, arguments: [namespace, HistoryEvent.Kind.merged.rawValue])
                next += absorbed.filter { all.insert($0).inserted }
                // A synced fact deleted and brought back by its server took a new row under its
                // uid: the rows it had before are the same fact, and their history holds it too.
                let list = chunk.map(String.init).joined(separator: ",")
                let incarnations = try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT fact_id FROM fact_departed
                        WHERE namespace = ?1 AND fact_id NOT IN (SELECT fact_id FROM fact_tombstone)
                          AND uid IN (SELECT uid FROM fact WHERE namespace = ?1 AND id IN (\(list))
                                      UNION SELECT uid FROM fact_departed WHERE fact_id IN (\(list)))
                        """, arguments: [namespace])
                next += incarnations.filter { all.insert($0).inserted }
            }
            frontier = next
        }
        return all.sorted()
    }

    /// The namespace's operations whose snapshots hold a row of a fact in `temp.erasing`: the
    /// fact itself, its vector, one of its history events, one of its conflict links.
    private static func operationsHolding(_ db: Database, namespace: String) throws -> [Int64] {
        let image = { (side: String, key: String) in
            "CAST(json_extract(json_extract(change.value, '$.\(side)'), '$.\(key)') AS INTEGER) IN (SELECT id FROM erasing)"
        }
        return try Int64.fetchAll(
            db,
            sql: """
                SELECT DISTINCT operation.id FROM operation, json_each(operation.changes) AS change
                WHERE operation.namespace = ? AND CASE json_extract(change.value, '$.table')
                    WHEN 'fact' THEN json_extract(change.value, '$.row') IN (SELECT id FROM erasing)
                    WHEN 'fact_embedding' THEN json_extract(change.value, '$.row') IN (SELECT id FROM erasing)
                    WHEN 'history' THEN \(image("before", "fact_id")) OR \(image("after", "fact_id"))
                    WHEN 'fact_conflict' THEN \(image("before", "older_fact_id")) OR \(image("before", "newer_fact_id"))
                                           OR \(image("after", "older_fact_id")) OR \(image("after", "newer_fact_id"))
                    ELSE 0 END
                """, arguments: [namespace])
    }

    /// Deletes operations and, with them, the undos that revert them and the operations they
    /// revert: an undo's snapshot is its operation's, reversed.
    static func deleteOperations(_ db: Database, ids: [Int64]) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        var all = Set(ids)
        var frontier = ids
        while !frontier.isEmpty {
            var next: [Int64] = []
            for chunk in frontier.chunked(into: 500) {
                let list = chunk.map(String.init).joined(separator: ",")
                let linked = try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM operation WHERE reverts IN (\(list))
                        UNION SELECT reverts FROM operation WHERE id IN (\(list)) AND reverts IS NOT NULL
                        """)
                next += linked.filter { all.insert($0).inserted }
            }
            frontier = next
        }
        var deleted = 0
        for chunk in all.sorted().chunked(into: 500) {
            // One statement per chunk: an undo and the operation it reverts go in the same one
            // when they share a chunk, and the self-reference is checked at the statement's end.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            try db.execute(sql: "DELETE FROM operation WHERE id IN (\(chunk.map(String.init).joined(separator: ",")))")
            deleted += db.changesCount
        }
        return deleted
    }

    /// When and why fact `id` of `namespace` was erased, if it was.
    static func tombstone(_ db: Database, namespace: String, id: Int64) throws
        -> (erasedAt: Date, reason: ErasureReceipt.Reason)?
    {
        try Row.fetchOne(
            db, sql: "SELECT reason, erased_at FROM fact_tombstone WHERE fact_id = ? AND namespace = ?",
            arguments: [id, namespace]
        ).map { row in
            (erasedAt: row["erased_at"], reason: ErasureReceipt.Reason(rawValue: row["reason"]) ?? .requested)
        }
    }

    /// Whether fact `id` of `namespace` was erased (its tombstone is there).
    static func isErased(_ db: Database, namespace: String, id: Int64) throws -> Bool {
        try tombstone(db, namespace: namespace, id: id) != nil
    }

    private static func tombstone(
        _ db: Database, namespace: String, ids: [Int64], reason: ErasureReceipt.Reason, now: Date
    ) throws {
        let date = Timestamp.databaseText(now)
        for chunk in ids.chunked(into: 200) {
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO fact_tombstone (fact_id, namespace, reason, erased_at)
                    VALUES \(Array(repeating: "(?, ?, ?, ?)", count: chunk.count).joined(separator: ", "))
                    """,
                arguments: StatementArguments(
                    chunk.flatMap { [$0, namespace, reason.rawValue, date] as [any DatabaseValueConvertible] }))
        }
    }

    /// Rewrites the full-text index as one segment built from what is left.
    ///
    /// Removing a row from an FTS5 index appends a delete marker, which holds the terms, to a new
    /// segment; the old segments keep the terms until a merge. `optimize` merges every segment
    /// into one, leaving out deleted entries and terms no row has any more, and frees the old
    /// segments' pages, which `secure_delete` zeroes. (`rebuild` has the same effect at the cost
    /// of tokenizing every fact again; `ErasureTests` scans the file for the erased words.)
    package static func rewriteFullTextIndex(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO fact_fts(fact_fts) VALUES ('optimize')")
    }

    /// Checkpoints the write-ahead log into the database file and truncates it to zero bytes, so
    /// that erased rows' old pages are nowhere but in the (zeroed) file.
    /// - Returns: whether it was done; a reader holding an older snapshot makes it fail.
    package static func truncateLog(of writer: any DatabaseWriter) async -> Bool {
        do {
            try await writer.writeWithoutTransaction { db in
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" else { return }
                _ = try LogCheckpointer.pausing(db) { try db.checkpoint(.truncate) }
            }
            return true
        } catch {
            return false
        }
    }
}
