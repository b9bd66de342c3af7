import Foundation
import GRDB

/// Merges one topic into another inside the caller's transaction: facts and children move into
/// the target, and children with the same name are merged recursively. ``movedFacts`` counts
/// every fact that ends up under another topic path: the source's own, those of merged
/// children, and those in the subtrees of children that move whole.
struct TopicMerger {
    let db: Database
    let namespace: String
    let now: Date
    private(set) var movedFacts = 0
    private(set) var mergedTopics: [String] = []

    init(db: Database, namespace: String, now: Date) {
        self.db = db
        self.namespace = namespace
        self.now = now
    }

    mutating func merge(_ source: Topic, into target: Topic) throws {
        for child in try TopicStore.children(db, namespace: namespace, of: source.id) {
            let childKey = TopicPath.key(ofSegment: child.name)
            if let twin = try TopicStore.children(db, namespace: namespace, of: target.id)
                .first(where: { TopicPath.key(ofSegment: $0.name) == childKey }) {
                try merge(child, into: twin)
            } else {
                // The child's whole subtree moves with it: its facts are moved facts too.
                for topic in try TopicStore.subtree(db, namespace: namespace, root: child) {
                    movedFacts += try TopicStore.factCount(db, topicID: topic.id)
                }
                try TopicStore.relocate(db, topic: child, newName: child.name, newParent: target)
            }
        }
        movedFacts += try TopicStore.factCount(db, topicID: source.id)
        try db.execute(sql: "UPDATE fact SET topic_id = ? WHERE topic_id = ?", arguments: [target.id, source.id])
        try db.execute(sql: "DELETE FROM topic WHERE id = ?", arguments: [source.id])
        try HistoryStore.record(db, namespace: namespace, topicID: target.id, kind: .topicMerged,
                                details: ["merged_from": source.path], at: now)
        try HistoryStore.record(db, namespace: namespace, topicID: source.id, kind: .topicMerged,
                                details: ["into": target.path], at: now)
        mergedTopics.append(source.path)
    }
}
