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

    /// How many columns ``selection`` holds: a query may select more after them.
    static let columnCount = selection.split(separator: ",").count

    /// The join every fact query reads from.
    static let source = "fact JOIN topic ON topic.id = fact.topic_id"

    /// The facts of `statement`, which selects ``selection`` first, each read from the statement's
    /// row as it is stepped: `Row.fetchAll` copies every row first, and a copy's values go
    /// through GRDB's generic decoding, a tenth of a server's time to list a page of facts.
    static func fetchAll(_ statement: Statement, arguments: StatementArguments) throws -> [Fact] {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var facts: [Fact] = []
        while let row = try rows.next() { facts.append(Fact(row: row)) }
        return facts
    }

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
            createdAt: Self.date(row, 11),
            updatedAt: Self.date(row, 12),
            expiresAt: Self.optionalDate(row, 13),
            status: isGoal ? (row[14] as String?).flatMap(GoalStatus.init(rawValue:)) ?? .active : nil,
            progress: isGoal ? (row[15] as Double?) ?? 0 : nil,
            targetDate: isGoal ? Self.optionalDate(row, 16) : nil,
            completedAt: isGoal ? Self.optionalDate(row, 17) : nil
        )
    }

    /// The date in column `index`: Mnemo's own text by ``Timestamp/parseDatabaseText(_:)``,
    /// anything else as GRDB decodes it.
    private static func date(_ row: Row, _ index: Int) -> Date {
        if case .string(let text) = (row[index] as DatabaseValue).storage, let date = Timestamp.parseDatabaseText(text)
        {
            return date
        }
        return row[index]
    }

    private static func optionalDate(_ row: Row, _ index: Int) -> Date? {
        let value: DatabaseValue = row[index]
        if case .string(let text) = value.storage, let date = Timestamp.parseDatabaseText(text) { return date }
        return value.isNull ? nil : row[index]
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
