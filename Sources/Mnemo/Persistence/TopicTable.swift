import Foundation
import GRDB

/// The `topic` table: the topic tree's reads and writes inside a database transaction.
enum TopicTable {
    /// The one SQL test for "the topic whose path key is bound, or one of its descendants", on
    /// the `path_key` column named `column`. It takes ``subtreeArguments(_:)``. Keys are
    /// compared as text, segment by segment: `a/b` is in the subtree of `a` but `ab` is not.
    static func subtreeCondition(pathKey column: String) -> String {
        "(\(column) = ? OR substr(\(column), 1, length(?) + 1) = ? || '/')"
    }

    /// The arguments of ``subtreeCondition(pathKey:)`` for the subtree rooted at `key`.
    static func subtreeArguments(_ key: String) -> StatementArguments {
        [key, key, key]
    }

    /// The ids of the topic with path key `key` and its descendants.
    static func subtreeIDs(_ db: Database, namespace: String, pathKey key: String) throws -> Set<Int64> {
        Set(
            try Int64.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id FROM topic WHERE namespace = ? AND \(subtreeCondition(pathKey: "path_key"))
                        """), arguments: [namespace] + subtreeArguments(key)))
    }

    /// The namespaces that hold at least one topic, sorted.
    static func namespaces(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT DISTINCT namespace FROM topic ORDER BY namespace")
    }

    static func find(_ db: Database, namespace: String, path: TopicPath) throws -> Topic? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT \(Topic.selection) FROM topic WHERE namespace = ? AND path_key = ?
                    """), arguments: [namespace, path.key]
        ).map(Topic.init(row:))
    }

    static func require(_ db: Database, namespace: String, path: TopicPath) throws -> Topic {
        guard let topic = try find(db, namespace: namespace, path: path) else {
            throw MnemoError.notFound(.topic(path.description))
        }
        return topic
    }

    static func find(_ db: Database, id: Int64) throws -> Topic? {
        try Row.fetchOne(db, sql: "SELECT \(Topic.selection) FROM topic WHERE id = ?", arguments: [id])
            .map(Topic.init(row:))
    }

    /// Returns the topic at `path`, creating it and any missing ancestors.
    static func ensure(_ db: Database, namespace: String, path: TopicPath, at date: Date = Date()) throws -> Topic {
        if let existing = try find(db, namespace: namespace, path: path) { return existing }
        let parent = try path.parent.map { try ensure(db, namespace: namespace, path: $0, at: date) }
        let name = path.segments.last!
        // The display path reuses the parent's first-seen spelling.
        let displayPath = parent.map { "\($0.path)/\(name)" } ?? name
        // The path's own id, so that replicas creating the same path offline agree, unless a
        // topic renamed or moved away from this path took it.
        var uid = StableID.topic(namespace: namespace, pathKey: path.key)
        if try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM topic WHERE namespace = ? AND uid = ?)"),
            arguments: [namespace, uid]) == true
        {
            uid = StableID.random()
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO topic (id, namespace, parent_id, name, name_key, path, path_key, depth, created_at, uid)
                VALUES ((SELECT \(RowIDs.nextSQL("topic"))), ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            namespace, parent?.id, name, TopicPath.key(ofSegment: name),
            displayPath, path.key, path.depth, Timestamp.databaseText(date), uid,
        ])
        let topic = Topic(
            id: db.lastInsertedRowID, uid: uid, namespace: namespace, parentID: parent?.id, name: name,
            path: displayPath, depth: path.depth, createdAt: date)
        try HistoryTable.record(
            db, namespace: namespace, topicID: topic.id, kind: .topicCreated,
            details: ["path": displayPath], at: date)
        return topic
    }

    static func children(_ db: Database, namespace: String, of parentID: Int64?) throws -> [Topic] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT \(Topic.selection) FROM topic
                WHERE namespace = ? AND parent_id IS ? ORDER BY name_key
                """, arguments: [namespace, parentID]
        ).map(Topic.init(row:))
    }

    /// The topic and all its descendants, parents before children.
    static func subtree(_ db: Database, namespace: String, root: Topic) throws -> [Topic] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT \(Topic.selection) FROM topic
                WHERE namespace = ? AND \(subtreeCondition(pathKey: "path_key"))
                ORDER BY depth, name_key
                """, arguments: [namespace] + subtreeArguments(pathKey(db, root))
        ).map(Topic.init(row:))
    }

    static func pathKey(_ db: Database, _ topic: Topic) throws -> String {
        try String.fetchOne(db, sql: "SELECT path_key FROM topic WHERE id = ?", arguments: [topic.id]) ?? ""
    }

    static func factCount(_ db: Database, topicID: Int64) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fact WHERE topic_id = ?", arguments: [topicID]) ?? 0
    }

    /// Moves every fact of topic `sourceID` to topic `targetID`.
    static func moveFacts(_ db: Database, from sourceID: Int64, to targetID: Int64) throws {
        try db.execute(sql: "UPDATE fact SET topic_id = ? WHERE topic_id = ?", arguments: [targetID, sourceID])
    }

    /// Deletes the topic row `id`; its facts and children must be gone or moved first.
    static func delete(_ db: Database, id: Int64) throws {
        try db.execute(sql: "DELETE FROM topic WHERE id = ?", arguments: [id])
    }

    /// Rewrites the name, path and depth of `topic` and every descendant after a rename or move.
    static func relocate(_ db: Database, topic: Topic, newName: String, newParent: Topic?) throws {
        let oldPathKey = try pathKey(db, topic)
        let oldPath = topic.path
        let newPath = newParent.map { "\($0.path)/\(newName)" } ?? newName
        let newPathKey =
            try newParent.map { "\(try pathKey(db, $0))/\(TopicPath.key(ofSegment: newName))" }
            ?? TopicPath.key(ofSegment: newName)
        let depthChange = (newParent.map { $0.depth + 1 } ?? 1) - topic.depth
        try db.execute(
            sql: """
                UPDATE topic SET
                    path = ? || substr(path, length(?) + 1),
                    path_key = ? || substr(path_key, length(?) + 1),
                    depth = depth + ?
                WHERE namespace = ? AND id != ? AND \(subtreeCondition(pathKey: "path_key"))
                """,
            arguments: [newPath, oldPath, newPathKey, oldPathKey, depthChange, topic.namespace, topic.id]
                + subtreeArguments(oldPathKey))
        try db.execute(
            sql: """
                UPDATE topic SET name = ?, name_key = ?, path = ?, path_key = ?, depth = ?, parent_id = ?
                WHERE id = ?
                """,
            arguments: [
                newName, TopicPath.key(ofSegment: newName), newPath, newPathKey,
                topic.depth + depthChange, newParent?.id, topic.id,
            ])
    }

    /// The namespace's topic tree with fact counts, children sorted by name.
    static func tree(_ db: Database, namespace: String) throws -> [TopicNode] {
        let topics = try Row.fetchAll(
            db,
            sql: """
                SELECT \(Topic.selection) FROM topic WHERE namespace = ? ORDER BY depth, name_key
                """, arguments: [namespace]
        ).map(Topic.init(row:))
        let counts = try Dictionary(
            uniqueKeysWithValues: Row.fetchAll(
                db,
                sql: """
                    SELECT topic_id, COUNT(*) AS n FROM fact WHERE namespace = ? GROUP BY topic_id
                    """, arguments: [namespace]
            ).map { row -> (Int64, Int) in (row["topic_id"], row["n"]) })
        return TopicTreeBuilder(topics: topics, factCounts: counts).roots()
    }
}
