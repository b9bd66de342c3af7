import Foundation
import GRDB

/// The reads and writes of ``KnowledgeBase/check(repair:)``: what SQLite, the full-text index,
/// the vectors and the topic tree say about the file, and the rebuilds of what is derived.
enum DatabaseCheck {
    /// SQLite's own check of the file; empty when it is sound.
    static func integrityProblems(_ db: Database) throws -> [String] {
        let rows = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        return rows == ["ok"] ? [] : rows
    }

    /// Why the full-text index disagrees with the facts and topic paths it indexes, or `nil`.
    static func fullTextProblem(_ db: Database) -> String? {
        do {
            // With rank 1, FTS5 also compares the index with the external content (the facts).
            try db.execute(sql: "INSERT INTO fact_fts(fact_fts, rank) VALUES ('integrity-check', 1)")
            return nil
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            return "FTS5 integrity-check failed"
        } catch {
            return "\(error)"
        }
    }

    static func rebuildFullTextIndex(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO fact_fts(fact_fts) VALUES ('rebuild')")
    }

    /// The facts that have no vector.
    static func factsWithoutVectors(_ db: Database) throws -> [Int64] {
        try Int64.fetchAll(
            db,
            sql: """
                SELECT fact.id FROM fact LEFT JOIN fact_embedding ON fact_embedding.fact_id = fact.id
                WHERE fact_embedding.fact_id IS NULL ORDER BY fact.id
                """)
    }

    /// Vectors whose fact is gone, and vectors whose size is not `dimension` floats.
    static func strayVectors(_ db: Database, dimension: Int?) throws -> (orphans: [Int64], wrongSize: [Int64]) {
        let orphans = try Int64.fetchAll(
            db,
            sql: """
                SELECT fact_id FROM fact_embedding WHERE fact_id NOT IN (SELECT id FROM fact) ORDER BY fact_id
                """)
        guard let dimension else { return (orphans, []) }
        let wrongSize = try Int64.fetchAll(
            db,
            sql: """
                SELECT fact_id FROM fact_embedding WHERE length(vector) != ? AND fact_id IN (SELECT id FROM fact) ORDER BY fact_id
                """, arguments: [dimension * MemoryLayout<Float>.size])
        return (orphans, wrongSize)
    }

    static func deleteVectors(_ db: Database, factIDs: [Int64]) throws {
        for chunk in factIDs.chunked(into: 500) {
            try db.execute(
                sql: "DELETE FROM fact_embedding WHERE fact_id IN (\(chunk.map(String.init).joined(separator: ",")))")
        }
    }

    static func contents(_ db: Database, factIDs: [Int64]) throws -> [(id: Int64, content: String)] {
        var result: [(id: Int64, content: String)] = []
        for chunk in factIDs.chunked(into: 500) {
            result += try Row.fetchAll(
                db, sql: "SELECT id, content FROM fact WHERE id IN (\(chunk.map(String.init).joined(separator: ",")))"
            )
            .map { ($0["id"], $0["content"]) }
        }
        return result
    }

    /// Facts whose topic is missing or belongs to another namespace, with the fact's namespace.
    static func factsWithBadTopic(_ db: Database) throws -> [(id: Int64, namespace: String)] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT fact.id, fact.namespace FROM fact LEFT JOIN topic ON topic.id = fact.topic_id
                WHERE topic.id IS NULL OR topic.namespace != fact.namespace ORDER BY fact.id
                """
        ).map { ($0["id"], $0["namespace"]) }
    }

    /// Facts of one namespace that share a normalized content, oldest (lowest id) first.
    struct DuplicateGroup: Sendable {
        var namespace: String
        var ids: [Int64]
    }

    /// Every group of two or more facts of a namespace with the same content key, in the order of
    /// their oldest fact. The database does not refuse them since keys are indexed by their hash
    /// (see ``ContentKeyIndex``); only a writer other than Mnemo's own makes one.
    ///
    /// The hashes are grouped first, from the index alone (a million facts in a fraction of a
    /// second), and only the rows of a hash shared by several facts are read and compared by key.
    static func duplicateContent(_ db: Database) throws -> [DuplicateGroup] {
        let hash = ContentKeyIndex.functionName
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT namespace, content_key, id FROM fact
                WHERE (namespace, \(hash)(content_key)) IN (
                    SELECT namespace, \(hash)(content_key) FROM fact GROUP BY 1, 2 HAVING COUNT(*) > 1)
                ORDER BY id
                """)
        var groups: [[String]: DuplicateGroup] = [:]
        while let row = try rows.next() {
            let namespace: String = row[0]
            let key: String = row[1]
            groups[[namespace, key], default: DuplicateGroup(namespace: namespace, ids: [])].ids.append(row[2])
        }
        return groups.values.filter { $0.ids.count > 1 }.sorted { $0.ids[0] < $1.ids[0] }
    }

    /// Merges each group into its oldest fact, as a repeat is counted when Mnemo stores it: the
    /// mentions add up, the sources join, and the later facts are deleted with a history event
    /// that names the survivor (see ``FactMerger``).
    static func mergeDuplicateContent(_ db: Database, _ groups: [DuplicateGroup], now: Date) throws -> Int {
        var merged = 0
        for group in groups {
            var survivor = try FactTable.require(db, namespace: group.namespace, id: group.ids[0])
            for id in group.ids.dropFirst() {
                let absorbed = try FactTable.require(db, namespace: group.namespace, id: id)
                survivor = try FactMerger.merge(db, absorbed: absorbed, into: survivor, now: now)
                merged += 1
            }
        }
        return merged
    }

    static func moveFact(_ db: Database, id: Int64, toTopic topicID: Int64) throws {
        try db.execute(sql: "UPDATE fact SET topic_id = ? WHERE id = ?", arguments: [topicID, id])
    }

    /// Rows of facts that have a tombstone: their fact rows, vectors and history events, which
    /// an erase removes in the transaction that writes the tombstone.
    static func erasedRemains(_ db: Database) throws -> Int {
        guard try db.tableExists("fact_tombstone") else { return 0 }
        return try Int.fetchOne(
            db,
            sql: """
                SELECT (SELECT COUNT(*) FROM fact WHERE id IN (SELECT fact_id FROM fact_tombstone))
                     + (SELECT COUNT(*) FROM fact_embedding WHERE fact_id IN (SELECT fact_id FROM fact_tombstone))
                     + (SELECT COUNT(*) FROM history WHERE fact_id IN (SELECT fact_id FROM fact_tombstone))
                """) ?? 0
    }

    static func deleteErasedRemains(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM history WHERE fact_id IN (SELECT fact_id FROM fact_tombstone);
                DELETE FROM fact_embedding WHERE fact_id IN (SELECT fact_id FROM fact_tombstone);
                DELETE FROM fact WHERE id IN (SELECT fact_id FROM fact_tombstone);
                """)
        try FactEraser.rewriteFullTextIndex(db)
    }

    /// Every topic row as stored.
    static func topicRows(_ db: Database) throws -> [TopicTreeAudit.Row] {
        try Row.fetchAll(
            db, sql: "SELECT id, namespace, parent_id, name, name_key, path, path_key, depth FROM topic ORDER BY id"
        )
        .map { row in
            TopicTreeAudit.Row(
                id: row["id"], namespace: row["namespace"], parentID: row["parent_id"], name: row["name"],
                nameKey: row["name_key"], path: row["path"], pathKey: row["path_key"], depth: row["depth"])
        }
    }

    /// Writes the repaired parent, name and path columns of topics. Keys are first moved out of
    /// the way, so that topics exchanging paths never collide on the unique path key.
    static func writeTopics(_ db: Database, _ rows: [TopicTreeAudit.Row]) throws {
        for row in rows {
            try db.execute(
                sql: "UPDATE topic SET path_key = ? WHERE id = ?", arguments: ["\u{1F}repair\u{1F}\(row.id)", row.id])
        }
        for row in rows {
            try db.execute(
                sql: """
                    UPDATE topic SET parent_id = ?, name = ?, name_key = ?, path = ?, path_key = ?, depth = ? WHERE id = ?
                    """, arguments: [row.parentID, row.name, row.nameKey, row.path, row.pathKey, row.depth, row.id])
        }
    }
}
