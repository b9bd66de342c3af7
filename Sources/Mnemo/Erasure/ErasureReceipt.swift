import Foundation

/// What an erase removed: the answer to "did you really forget it?".
///
/// Every erase returns one (``KnowledgeBase/eraseFacts(ids:)``,
/// ``KnowledgeBase/eraseNamespace()``, ``KnowledgeBase/purge(now:undoOlderThan:)``). The counts
/// are rows removed from the database; ``factIDs`` are the erased facts' ids, which their
/// tombstones keep (no content). Its `Codable` form has snake_case keys, as every
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

extension ErasureReceipt: CustomStringConvertible {
    /// What was erased and what that removed, one line each, as the other reports print:
    ///
    ///     erased 3 facts from user-42 (requested) at 2025-03-14T09:21:00Z: #26, #27, #28
    ///       removed 1 fact row, 0 topics, 1 vector, 7 history events, 2 undo records, 0 conflict links
    ///       2 of the facts had no row left (deleted or merged into another before): their history and undo records went
    ///
    /// ``facts`` counts rows, so it can be smaller than ``factIDs``: a deleted fact (or one merged
    /// into another) keeps only its history and undo records, which the erase removes. A last
    /// line says when the `-wal` file may still hold erased content (``walTruncated``).
    public var description: String {
        let shown = factIDs.prefix(20).map { "#\($0)" }.joined(separator: ", ") + (factIDs.count > 20 ? ", …" : "")
        let removed = [
            TopicNode.count(facts, "fact row"), TopicNode.count(topics, "topic"), TopicNode.count(vectors, "vector"),
            TopicNode.count(historyRows, "history event"), TopicNode.count(undoRecords, "undo record"),
            TopicNode.count(conflictLinks, "conflict link"),
        ]
        guard !factIDs.isEmpty || facts + topics + vectors + historyRows + undoRecords + conflictLinks > 0 else {
            return "nothing to erase in \(namespace) (\(reason.rawValue)) at \(Timestamp.format(erasedAt))"
        }
        var lines = [
            "erased \(TopicNode.count(factIDs.count, "fact")) from \(namespace) (\(reason.rawValue)) at "
                + Timestamp.format(erasedAt) + (shown.isEmpty ? "" : ": \(shown)"),
            "  removed " + removed.joined(separator: ", "),
        ]
        let withoutRows = factIDs.count - facts
        if withoutRows > 0 {
            lines.append(
                "  \(withoutRows) of the facts had no row left (deleted or merged into another before): "
                    + "their history and undo records went")
        }
        if !walTruncated {
            lines.append(
                "  the -wal file may hold erased content until the next checkpoint (another connection was reading)")
        }
        return lines.joined(separator: "\n")
    }
}
