import GRDB

/// The log of changes to what the in-memory vector index holds, written by triggers in the
/// writing transaction, so that every process and every connection sees every change.
///
/// `fact_change` keeps one row per fact whose vector or indexed attributes (namespace, topic,
/// type, importance, active) ever changed, numbered by a sequence that only grows
/// (`AUTOINCREMENT`): a change replaces the fact's earlier row with a new, higher number. SQLite
/// runs one writer at a time, so a reader that sees sequence number `n` sees every change up to
/// `n`, and the facts changed after `n` are exactly the rows numbered above it. Deleted facts
/// keep their row, which tells a reader to drop them.
enum ChangeLog {
    /// The number of the latest change, 0 when none was logged. One B-tree descent.
    static func latestSequence(_ db: Database) throws -> Int64 {
        do {
            return try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(seq) FROM fact_change")) ?? 0
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            // A database of the first schema opened read-only has no log (migrations cannot run).
            guard try !db.tableExists("fact_change") else { throw error }
            return 0
        }
    }

    /// The facts changed after change `sequence`, up to `limit` of them (oldest change first).
    static func factsChanged(_ db: Database, after sequence: Int64, limit: Int) throws -> [Int64] {
        try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT fact_id FROM fact_change WHERE seq > ? ORDER BY seq LIMIT ?"),
            arguments: [sequence, limit])
    }
}
