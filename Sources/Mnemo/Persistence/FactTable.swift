import Foundation
import GRDB

/// The `fact` table: fact reads and writes inside a database transaction.
///
/// Dates are written with ``Timestamp/databaseText(_:)`` everywhere (rounded to the
/// millisecond), never by GRDB's own formatter, which truncates: a merge or update must store
/// the same text an ingest would, or an export after it would differ by a millisecond.
enum FactTable {
    static func find(_ db: Database, namespace: String, id: Int64) throws -> Fact? {
        try findOne(db, namespace: namespace, where: "fact.id = ?", id)
    }

    static func require(_ db: Database, namespace: String, id: Int64) throws -> Fact {
        guard let fact = try find(db, namespace: namespace, id: id) else { throw MnemoError.notFound(.fact(id)) }
        return fact
    }

    /// The stored fact with the same normalized content, if any, other than fact `excluded`: a
    /// writer giving a fact a key, or bringing one back, asks whether another fact holds it.
    static func find(_ db: Database, namespace: String, contentKey: String, excluding excluded: Int64? = nil)
        throws -> Fact?
    {
        try findOne(
            db, namespace: namespace, where: ContentKeyIndex.matchingCondition + " AND fact.id IS NOT ?",
            ContentKeyIndex.hash(contentKey), contentKey, excluded)
    }

    /// The namespace's fact meeting `condition` (a `?` for each value), through a cached statement.
    private static func findOne(
        _ db: Database, namespace: String, where condition: String, _ values: any DatabaseValueConvertible...
    ) throws -> Fact? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT \(Fact.selection) FROM \(Fact.source) WHERE fact.namespace = ? AND \(condition)"),
            arguments: [namespace] + StatementArguments(values)
        ).map(Fact.init(row:))
    }

    /// Counts another sighting of an exact duplicate: raises the mention count and adds sources.
    static func recordMention(_ db: Database, of fact: Fact, sources: [String], now: Date) throws {
        let merged = SourceList.merging(fact.sources, sources)
        try db.cachedStatement(
            sql: """
                UPDATE fact SET mention_count = mention_count + 1, sources = ? WHERE id = ?
                """
        ).execute(arguments: [SourceList.encode(merged), fact.id])
        var details: [String: String] = [:]
        if let source = sources.first { details["source"] = source }
        try HistoryTable.record(
            db, namespace: fact.namespace, factID: fact.id, kind: .mentioned, details: details, at: now)
    }

    static func setActive(_ db: Database, _ fact: Fact, _ isActive: Bool, now: Date) throws -> Fact {
        guard fact.isActive != isActive else { return fact }
        try db.execute(
            sql: "UPDATE fact SET is_active = ?, updated_at = ? WHERE id = ?",
            arguments: [isActive, Timestamp.databaseText(now), fact.id])
        try HistoryTable.record(
            db, namespace: fact.namespace, factID: fact.id,
            kind: isActive ? .reactivated : .deactivated, at: now)
        var updated = fact
        updated.isActive = isActive
        updated.updatedAt = now
        return updated
    }

    static func delete(
        _ db: Database, _ fact: Fact, now: Date, recording kind: HistoryEvent.Kind = .deleted,
        details: [String: String] = [:]
    ) throws {
        try db.execute(sql: "DELETE FROM fact WHERE id = ?", arguments: [fact.id])
        var details = details
        details["content"] = fact.content
        try HistoryTable.record(db, namespace: fact.namespace, factID: fact.id, kind: kind, details: details, at: now)
    }

    /// Writes the fields a merge changes (see `FactMerger`).
    static func saveMerged(_ db: Database, _ merged: Fact) throws {
        try db.execute(
            sql: """
                UPDATE fact SET importance = ?, confidence = ?, sources = ?, mention_count = ?, created_at = ?,
                                is_active = ?, updated_at = ?
                WHERE id = ?
                """,
            arguments: [
                merged.importance.rank, merged.confidence, SourceList.encode(merged.sources),
                merged.mentionCount, Timestamp.databaseText(merged.createdAt), merged.isActive,
                Timestamp.databaseText(merged.updatedAt), merged.id,
            ])
    }

    /// The namespace's facts whose expiry has passed by `now`.
    static func expiredIDs(_ db: Database, namespace: String, now: Date) throws -> Set<Int64> {
        Set(
            try Int64.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id FROM fact WHERE namespace = ? AND expires_at IS NOT NULL AND expires_at <= ?
                        """), arguments: [namespace, Timestamp.databaseText(now)]))
    }

    static func list(_ db: Database, namespace: String, filter: FactFilter, limit: Int, offset: Int) throws -> [Fact] {
        try fetch(
            db, namespace: namespace, filter: filter,
            orderedBy: "fact.importance DESC, fact.created_at DESC, fact.id", limit: limit, offset: offset)
    }

    /// Up to `limit` facts passing `filter`, most recently stated first.
    static func recent(_ db: Database, namespace: String, filter: FactFilter, limit: Int) throws -> [Fact] {
        try fetch(
            db, namespace: namespace, filter: filter, orderedBy: "fact.created_at DESC, fact.id DESC", limit: limit,
            offset: 0)
    }

    /// A page of the facts passing `filter` in the order `ordering` (SQL) gives.
    private static func fetch(
        _ db: Database, namespace: String, filter: FactFilter, orderedBy ordering: String, limit: Int, offset: Int
    ) throws -> [Fact] {
        let conditions = try filter.sqlConditions(db, namespace: namespace)
        // Cached: a filter gives one of a few statements, and parsing one took a fifth of a page's read.
        return try Fact.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(Fact.selection) FROM \(Fact.source)
                    WHERE \(conditions.sql)
                    ORDER BY \(ordering)
                    LIMIT ? OFFSET ?
                    """), arguments: conditions.arguments + [limit, offset])
    }
}
