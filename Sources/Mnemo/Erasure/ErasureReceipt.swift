import Foundation

/// What an erase removed: the answer to "did you really forget it?".
///
/// Every erase returns one (``KnowledgeBase/eraseFacts(ids:)``,
/// ``KnowledgeBase/eraseNamespace()``, ``KnowledgeBase/purge(now:undoOlderThan:)``). The counts
/// are rows removed from the database; ``factIDs`` are the erased facts' ids, which their
/// tombstones keep (no content, no hash of it). Its `Codable` form has snake_case keys, as every
/// front door prints it: `{"facts": 1, "fact_ids": [12], "history_rows": 3, …}`.
public struct ErasureReceipt: Sendable, Hashable, Codable {
    /// Why facts were erased, as their tombstones record it.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// Erased by id on request (``KnowledgeBase/eraseFacts(ids:)``).
        case requested
        /// The whole namespace was erased (``KnowledgeBase/eraseNamespace()``).
        case namespaceErased = "namespace_erased"
        /// The fact's `expires_at` had passed (``KnowledgeBase/purge(now:undoOlderThan:)``).
        case expired
    }

    /// The namespace erased from.
    public var namespace: String
    /// Why.
    public var reason: Reason
    /// The ids of the erased facts, ascending: stored facts, deleted facts whose history was
    /// left, and facts merged into them earlier. Facts already erased are not listed again.
    public var factIDs: [Int64]
    /// Stored fact rows removed (a deleted fact has none left; its history goes).
    public var facts: Int
    /// Topics removed (only a namespace erase removes topics).
    public var topics: Int
    /// Vectors removed.
    public var vectors: Int
    /// History events removed: the erased facts' own, those of the duplicates merged into them,
    /// and, for a namespace, the topics'.
    public var historyRows: Int
    /// Undo records removed: every operation of the log that held a row of an erased fact, and
    /// the undos of those operations.
    public var undoRecords: Int
    /// Conflict links removed.
    public var conflictLinks: Int
    /// When the erase was committed.
    public var erasedAt: Date
    /// True when the database's write-ahead log was checkpointed and truncated after the commit,
    /// so that the `-wal` file holds nothing. False when another connection's read kept SQLite
    /// from truncating it: the erased content is unreadable through SQLite, but the `-wal` file
    /// may hold it until the next checkpoint (any later erase or `PRAGMA wal_checkpoint`).
    public var walTruncated: Bool

    enum CodingKeys: String, CodingKey {
        case namespace, reason, facts, topics, vectors
        case factIDs = "fact_ids"
        case historyRows = "history_rows"
        case undoRecords = "undo_records"
        case conflictLinks = "conflict_links"
        case erasedAt = "erased_at"
        case walTruncated = "wal_truncated"
    }

    /// A receipt for nothing erased.
    init(namespace: String, reason: Reason, erasedAt: Date) {
        self.namespace = namespace
        self.reason = reason
        self.factIDs = []
        self.facts = 0
        self.topics = 0
        self.vectors = 0
        self.historyRows = 0
        self.undoRecords = 0
        self.conflictLinks = 0
        self.erasedAt = erasedAt
        self.walTruncated = false
    }
}
