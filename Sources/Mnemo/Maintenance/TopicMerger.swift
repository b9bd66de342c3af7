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
        for child in try TopicTable.children(db, namespace: namespace, of: source.id) {
            let childKey = TopicPath.key(ofSegment: child.name)
            if let twin = try TopicTable.children(db, namespace: namespace, of: target.id)
                .first(where: { TopicPath.key(ofSegment: $0.name) == childKey })
            {
                try merge(child, into: twin)
            } else {
                // The child's whole subtree moves with it: its facts are moved facts too.
                for topic in try TopicTable.subtree(db, namespace: namespace, root: child) {
                    movedFacts += try TopicTable.factCount(db, topicID: topic.id)
                }
                try TopicTable.relocate(db, topic: child, newName: child.name, newParent: target)
            }
        }
        movedFacts += try TopicTable.factCount(db, topicID: source.id)
        try TopicTable.moveFacts(db, from: source.id, to: target.id)
        try TopicTable.delete(db, id: source.id)
        try HistoryTable.record(
            db, namespace: namespace, topicID: target.id, kind: .topicMerged,
            details: ["merged_from": source.path], at: now)
        try HistoryTable.record(
            db, namespace: namespace, topicID: source.id, kind: .topicMerged,
            details: ["into": target.path, "from": source.path], at: now)
        mergedTopics.append(source.path)
    }
}
