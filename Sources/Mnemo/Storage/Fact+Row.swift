import Foundation
import GRDB

extension Fact {
    /// The columns every fact query selects, in the order ``init(row:)`` reads them.
    static let selection = """
        fact.id, fact.namespace, fact.topic_id, topic.path AS topic_path, fact.content, fact.type,
        fact.importance, fact.confidence, fact.is_active, fact.sources, fact.mention_count,
        fact.created_at, fact.updated_at
        """

    /// The join every fact query reads from.
    static let source = "fact JOIN topic ON topic.id = fact.topic_id"

    init(row: Row) {
        self.init(
            id: row["id"],
            namespace: row["namespace"],
            topicID: row["topic_id"],
            topicPath: row["topic_path"],
            content: row["content"],
            type: FactType(rawValue: row["type"]) ?? .fact,
            importance: Importance(rank: row["importance"]) ?? .none,
            confidence: row["confidence"],
            isActive: row["is_active"],
            sources: SourceList.decode(row["sources"]),
            mentionCount: row["mention_count"],
            createdAt: row["created_at"],
            updatedAt: row["updated_at"]
        )
    }
}

/// Sources are stored as a JSON array of strings in one column.
enum SourceList {
    static func encode(_ sources: [String]) -> String {
        JSONText.array(sources)
    }

    static func decode(_ text: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }

    /// The union of two source lists, keeping first-seen order.
    static func merging(_ existing: [String], _ added: [String]) -> [String] {
        var seen = Set(existing)
        return existing + added.filter { seen.insert($0).inserted }
    }
}

extension Topic {
    static let selection = "id, namespace, parent_id, name, path, depth, created_at"

    init(row: Row) {
        self.init(
            id: row["id"],
            namespace: row["namespace"],
            parentID: row["parent_id"],
            name: row["name"],
            path: row["path"],
            depth: row["depth"],
            createdAt: row["created_at"]
        )
    }
}
