import Foundation
import GRDB

/// Conflicts found while a batch is written, kept until its new facts are all inserted.
struct PendingConflicts {
    private var links:
        [(
            namespace: String, added: ConflictTable.Member, stored: ConflictTable.Member, reason: String,
            similarity: Double
        )] = []

    mutating func note(_ added: Fact, _ judgement: NearDuplicateMatcher.Judgement?) {
        for conflict in judgement?.conflicts ?? [] {
            links.append(
                (
                    added.namespace, .init(id: added.id, createdAt: added.createdAt),
                    .init(id: conflict.id, createdAt: conflict.createdAt), conflict.reason, conflict.similarity
                ))
        }
    }

    /// Writes the links, except those to a fact in `evicted` (deleted by the same batch to make
    /// room: a conflict lasts while both facts are stored).
    func write(_ db: Database, now: Date, skipping evicted: Set<Int64> = []) throws {
        for link in links where !evicted.contains(link.stored.id) {
            try ConflictTable.link(
                db, namespace: link.namespace, link.stored, link.added, reason: link.reason,
                similarity: link.similarity, now: now)
        }
    }
}
