import Foundation
import GRDB

extension KnowledgeBase {
    /// Returns the topic at `path`, creating it and any missing ancestors.
    @discardableResult
    public func createTopic(_ path: TopicPath) async throws -> Topic {
        let namespace = namespace
        return try await writer.write { db in try TopicTable.ensure(db, namespace: namespace, path: path) }
    }

    /// The topic at `path` (matched case- and diacritic-insensitively), or `nil`.
    public func topic(at path: TopicPath) async throws -> Topic? {
        let namespace = namespace
        return try await writer.read { db in try TopicTable.find(db, namespace: namespace, path: path) }
    }

    /// The direct children of the topic at `path`, or the top-level topics when `path` is `nil`.
    public func children(of path: TopicPath?) async throws -> [Topic] {
        let namespace = namespace
        return try await writer.read { db in
            let parent = try path.map { try TopicTable.require(db, namespace: namespace, path: $0) }
            return try TopicTable.children(db, namespace: namespace, of: parent?.id)
        }
    }

    /// The topic at `path` and all its descendants, parents first.
    public func subtree(of path: TopicPath) async throws -> [Topic] {
        let namespace = namespace
        return try await writer.read { db in
            let root = try TopicTable.require(db, namespace: namespace, path: path)
            return try TopicTable.subtree(db, namespace: namespace, root: root)
        }
    }

    /// Renames the last segment of the topic at `path`; descendants follow.
    /// - Throws: ``MnemoError/conflict(_:)`` with ``MnemoError/Conflict/topicExists(_:)`` when a
    ///   sibling already has that name (merge instead).
    @discardableResult
    public func renameTopic(_ path: TopicPath, to newName: String) async throws -> Topic {
        let renamed = try TopicPath(newName)
        guard renamed.depth == 1 else {
            throw MnemoError.invalidInput(field: "name", reason: "a topic name cannot contain \"/\" (\"\(newName)\")")
        }
        let namespace = namespace
        return try await writer.write { db in
            let topic = try TopicTable.require(db, namespace: namespace, path: path)
            let parent = try topic.parentID.flatMap { try TopicTable.find(db, id: $0) }
            let target = try path.parent.map { try $0.appending(renamed.description) } ?? renamed
            if target != path, let existing = try TopicTable.find(db, namespace: namespace, path: target) {
                throw MnemoError.conflict(.topicExists(existing.path))
            }
            try TopicTable.relocate(db, topic: topic, newName: renamed.description, newParent: parent)
            try HistoryTable.record(
                db, namespace: namespace, topicID: topic.id, kind: .topicRenamed,
                details: ["from": topic.path, "to": target.description])
            return try TopicTable.find(db, id: topic.id)!
        }
    }

    /// Moves the topic at `path` under `newParentPath` (created if missing), or to the top level
    /// when `newParentPath` is `nil`. Descendants and facts follow.
    @discardableResult
    public func moveTopic(_ path: TopicPath, under newParentPath: TopicPath?) async throws -> Topic {
        let namespace = namespace
        return try await writer.write { db in
            let topic = try TopicTable.require(db, namespace: namespace, path: path)
            if let newParentPath, newParentPath.key == path.key || newParentPath.key.hasPrefix(path.key + "/") {
                throw MnemoError.invalidInput(
                    field: "newParentPath", reason: "cannot move topic \"\(topic.path)\" into its own subtree")
            }
            let name = path.segments.last!
            let target = try newParentPath.map { try $0.appending(name) } ?? TopicPath(validSegments: [name])
            if target != path, let existing = try TopicTable.find(db, namespace: namespace, path: target) {
                throw MnemoError.conflict(.topicExists(existing.path))
            }
            let parent = try newParentPath.map { try TopicTable.ensure(db, namespace: namespace, path: $0) }
            try TopicTable.relocate(db, topic: topic, newName: topic.name, newParent: parent)
            try HistoryTable.record(
                db, namespace: namespace, topicID: topic.id, kind: .topicMoved,
                details: ["from": topic.path, "to": parent.map { "\($0.path)/\(topic.name)" } ?? topic.name])
            return try TopicTable.find(db, id: topic.id)!
        }
    }

    /// Deletes the topic at `path`.
    ///
    /// A topic with facts or subtopics is refused unless `cascade` is true, in which case its
    /// subtopics and all their facts are deleted too, in one transaction. Like
    /// ``deleteFact(id:)``, it is a delete, not an erase: every fact keeps a `deleted` history
    /// event, and the operation log keeps one undo record for the whole delete, so ``undo(_:)``
    /// brings the topics and their facts back with their ids.
    /// - Returns: the number of facts deleted.
    @discardableResult
    public func deleteTopic(_ path: TopicPath, cascade: Bool = false) async throws -> Int {
        let namespace = namespace
        return try await writer.write { db in
            let root = try TopicTable.require(db, namespace: namespace, path: path)
            let topics = try TopicTable.subtree(db, namespace: namespace, root: root)
            let topicIDs = topics.map(\.id)
            let facts = try FactTable.facts(db, inTopics: topicIDs)
            if !cascade, !facts.isEmpty || topics.count > 1 {
                throw MnemoError.conflict(.topicNotEmpty(root.path, facts: facts.count, children: topics.count - 1))
            }
            let summary =
                "deleted topic \(root.path)" + (facts.isEmpty ? "" : " and \(TopicNode.count(facts.count, "fact"))")
            return try OperationLog.record(db, namespace: namespace, kind: .deleteTopic, summary: summary) {
                let now = Date()
                for fact in facts { try FactTable.delete(db, fact, now: now) }
                for topic in topics.reversed() { // children before parents
                    try TopicTable.delete(db, id: topic.id)
                    try HistoryTable.record(
                        db, namespace: namespace, topicID: topic.id, kind: .topicDeleted,
                        details: ["path": topic.path], at: now)
                }
                return facts.count
            }
        }
    }

    /// The whole topic tree of the namespace with fact counts, children sorted by name.
    public func topicTree() async throws -> [TopicNode] {
        let namespace = namespace
        return try await writer.read { db in try TopicTable.tree(db, namespace: namespace) }
    }
}

/// Assembles flat topic rows into nested ``TopicNode`` values.
struct TopicTreeBuilder {
    let topics: [Topic]
    let factCounts: [Int64: Int]

    func roots() -> [TopicNode] {
        let byParent = Dictionary(grouping: topics, by: \.parentID)
        func node(_ topic: Topic) -> TopicNode {
            let children = (byParent[topic.id] ?? []).map(node)
            let own = factCounts[topic.id] ?? 0
            return TopicNode(
                topic: topic, factCount: own,
                subtreeFactCount: own + children.reduce(0) { $0 + $1.subtreeFactCount },
                children: children)
        }
        return (byParent[nil] ?? []).map(node)
    }
}
