import Foundation
import GRDB

/// Conflicts found while a batch is written, kept until its new facts are all inserted.
struct PendingConflicts {
    private var links: [(namespace: String, newID: Int64, storedID: Int64, reason: String, similarity: Double)] = []

    mutating func note(_ added: Fact, _ judgement: NearDuplicateMatcher.Judgement?) {
        for conflict in judgement?.conflicts ?? [] {
            links.append((added.namespace, added.id, conflict.id, conflict.reason, conflict.similarity))
        }
    }

    func write(_ db: Database, now: Date) throws {
        for link in links {
            try ConflictTable.link(db, namespace: link.namespace, link.storedID, link.newID, reason: link.reason,
                                   similarity: link.similarity, now: now)
        }
    }
}
