import GRDB

/// The transaction of a read on the calling thread, with its `BEGIN` and `COMMIT` prepared once
/// per connection. GRDB's `read` prepares both anew for every read: 4 % of a text search's CPU
/// under a server's load.
enum ReadTransaction {
    /// `value(db)` in a deferred transaction, after noting `cursor`'s position in it (see
    /// ``AnswerCursor``). Rolls back when `value` throws.
    static func run<T>(_ db: Database, noting cursor: AnswerCursor?, _ value: (Database) throws -> T) throws -> T {
        try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
        let result: T
        do {
            try cursor?.note(db)
            result = try value(db)
        } catch {
            try? db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
            throw error
        }
        try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
        return result
    }
}
