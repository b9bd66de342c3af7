import Foundation
import GRDB

extension Fact {
    /// The columns every fact query selects, in the order ``init(row:)`` reads them.
    static let selection = """
        fact.id, fact.namespace, fact.topic_id, topic.path AS topic_path, fact.content, fact.type,
        fact.importance, fact.confidence, fact.is_active, fact.sources, fact.mention_count,
        fact.created_at, fact.updated_at, fact.expires_at, fact.goal_status, fact.goal_progress, fact.target_date,
        fact.completed_at, fact.uid
        """

    /// The join every fact query reads from.
    static let source = "fact JOIN topic ON topic.id = fact.topic_id"

    /// Reads a row whose first columns are ``selection``, by position: GRDB matches a column
    /// name by lower-casing and comparing it with every column's, and those 13 lookups per fact
    /// were a tenth of the time of a whole semantic search. A goal stored without a status (one
    /// written before goals had one) reads as active, with progress 0.
    init(row: Row) {
        let type = FactType(rawValue: row[5]) ?? .fact
        let isGoal = type == .goal
        self.init(
            id: row[0],
            uid: row[18] ?? "",
            namespace: row[1],
            topicID: row[2],
            topicPath: row[3],
            content: row[4],
            type: type,
            importance: Importance(rank: row[6]) ?? .negligible,
            confidence: row[7],
            isActive: row[8],
            sources: SourceList.decode(row[9]),
            mentionCount: row[10],
            createdAt: row[11],
            updatedAt: row[12],
            expiresAt: row[13],
            status: isGoal ? (row[14] as String?).flatMap(GoalStatus.init(rawValue:)) ?? .active : nil,
            progress: isGoal ? (row[15] as Double?) ?? 0 : nil,
            targetDate: isGoal ? row[16] : nil,
            completedAt: isGoal ? row[17] : nil
        )
    }
}

extension Topic {
    static let selection = "id, namespace, parent_id, name, path, depth, created_at, uid"

    init(row: Row) {
        self.init(
            id: row["id"],
            uid: row["uid"] ?? "",
            namespace: row["namespace"],
            parentID: row["parent_id"],
            name: row["name"],
            path: row["path"],
            depth: row["depth"],
            createdAt: row["created_at"]
        )
    }
}
