import GRDB

/// The change feed's position that an answer reflects, noted by the reads that make the answer.
///
/// A server sends, with every listing and search, the cursor from which a client follows the
/// feed to miss nothing the answer lacks. Reading it before the answer took a connection of its
/// own, a tenth of a text search's CPU. Instead each read made while answering notes the feed's
/// last number in its own transaction, before the rest of the read, and the answer reflects the
/// smallest number noted: every read saw at least the changes up to it. The smallest, because
/// the reads of one answer can run at once (the two halves of a hybrid search) and see different
/// commits.
final class AnswerCursor: Sendable {
    /// The cursor the current task's reads note; `nil` outside ``KnowledgeBase/reflectingCursor(_:)``.
    @TaskLocal static var current: AnswerCursor?

    private let lowest = Locked<Int64?>(nil)

    /// Notes the feed's last number as `db` sees it.
    func note(_ db: Database) throws {
        let number = try FeedTable.lastNumber(db)
        lowest.withLock { $0 = min($0 ?? number, number) }
    }

    /// `value(db)`, after noting the feed's last number as `db` sees it.
    func noting<T>(_ db: Database, _ value: (Database) throws -> T) throws -> T {
        try note(db)
        return try value(db)
    }

    /// The smallest number noted; `nil` when nothing was read.
    var sequence: Int64? { lowest.withLock { $0 } }
}

extension KnowledgeBase {
    /// `answer`'s value with the change feed cursor it reflects: a client that follows the feed
    /// from the cursor misses nothing the answer lacks (it may see again a change the answer
    /// already shows, which applying an event twice allows).
    ///
    /// The cursor costs one statement in each of the answer's reads (see ``AnswerCursor``). An
    /// answer that read nothing gets the feed's current position.
    package func reflectingCursor<Answer>(_ answer: () async throws -> Answer) async throws -> (Answer, ChangeCursor) {
        let noted = AnswerCursor()
        let value = try await AnswerCursor.$current.withValue(noted) { try await answer() }
        guard let sequence = noted.sequence else { return (value, try await currentCursor()) }
        return (value, ChangeCursor(sequence: sequence, namespace: namespace))
    }
}
