import Foundation
import GRDB

/// Writes the server's state into a device's copy, inside one transaction that
/// ``SyncStore/beginApplying(_:namespace:)`` marked: the server decided, so its facts are
/// stored as they are (no duplicate rules run here), every change is in the fact's history
/// and the change feed, and none goes back to the outbox.
struct SyncApplier {
    let db: Database
    let namespace: String
    let now: Date
    /// Vectors for the states whose content is new here, by uid.
    let vectors: [String: [Float]]
    var report: SyncReport

    /// What the server says about one fact.
    enum Verdict: Sendable {
        case present(SyncFact)
        case deleted
        case erased
    }

    /// Applies verdicts: erasures first (an erased fact's row must not be taken by a fact that
    /// now has its wording), then the others in order of their fact's last change.
    mutating func apply(_ verdicts: [(uid: String, verdict: Verdict)]) throws {
        var erasing: [Int64] = []
        for (uid, verdict) in verdicts {
            if case .erased = verdict, let id = try localID(uid: uid) { erasing.append(id) }
        }
        if !erasing.isEmpty {
            let receipt = try FactEraser.erase(db, namespace: namespace, ids: erasing, reason: .requested, now: now)
            report.erased += receipt.factIDs.count
        }
        var queue = FactTable.InsertQueue()
        var topics = TopicCache()
        for (uid, verdict) in verdicts {
            switch verdict {
            case .present(let state):
                try put(state, queue: &queue, topics: &topics)
            case .deleted:
                if let local = try SyncStore.fact(db, namespace: namespace, uid: uid) {
                    try FactTable.delete(db, local, now: now)
                }
            case .erased:
                continue
            }
        }
        try queue.flush(db, now: now)
    }

    /// Links two facts as the server did.
    func link(olderUID: String, newerUID: String, reason: String, similarity: Double) throws -> Bool {
        guard let older = try SyncStore.fact(db, namespace: namespace, uid: olderUID),
            let newer = try SyncStore.fact(db, namespace: namespace, uid: newerUID)
        else { return false }
        try ConflictTable.link(
            db, namespace: namespace, .init(id: older.id, createdAt: older.createdAt),
            .init(id: newer.id, createdAt: newer.createdAt), reason: reason, similarity: similarity, now: now)
        return true
    }

    /// The local id of the fact with this uid, stored or departed but not yet erased.
    private func localID(uid: String) throws -> Int64? {
        if let fact = try SyncStore.fact(db, namespace: namespace, uid: uid) { return fact.id }
        // A fact whose add was undone left no row and no history: nothing of it to erase.
        guard let id = try SyncStore.departedID(db, namespace: namespace, uid: uid),
            try !FactEraser.isTombstoned(db, namespace: namespace, id: id),
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM history WHERE fact_id = ? AND namespace = ?)",
                arguments: [id, namespace]) == true
        else { return nil }
        return id
    }

    /// Stores the server's state of a fact: a new row, or the fields that differ.
    private mutating func put(_ state: SyncFact, queue: inout FactTable.InsertQueue, topics: inout TopicCache) throws {
        let key = TextNormalization.factKey(state.content)
        var local = try SyncStore.fact(db, namespace: namespace, uid: state.uid)
        if let holder = try FactTable.find(db, namespace: namespace, contentKey: key), holder.uid != state.uid {
            if local == nil {
                // The same fact, known here under another uid (added here while the server
                // already had it): it takes the server's uid.
                try db.execute(sql: "UPDATE fact SET uid = ? WHERE id = ?", arguments: [state.uid, holder.id])
                local = try FactTable.find(db, namespace: namespace, id: holder.id)
            } else {
                // The server gave this wording to another fact: its state arrives with it.
                try FactTable.delete(db, holder, now: now)
            }
        }
        guard let local else {
            let fact = try state.validated(embedding: vectors[state.uid])
            let topic = try topics.topic(db, namespace: namespace, path: fact.topicPath, now: now)
            var counted = fact
            counted.mentionCount = state.mentionCount
            _ = try queue.enqueue(db, namespace: namespace, fact: counted, topic: topic, now: now)
            return
        }
        let fields = state.fields(differingFrom: local).map(\.rawValue)
        var fact = local
        if !fields.isEmpty {
            let (update, isActive) = try state.update(fields: fields)
            if !update.isEmpty {
                fact = try FactUpdater(db: db, fact: fact, now: now, embedding: vectors[state.uid]).apply(update)
            }
            if let isActive { fact = try FactTable.setActive(db, fact, isActive, now: now) }
        }
        if fact.sources != state.sources || fact.mentionCount != state.mentionCount
            || fact.createdAt != state.createdAt || fact.updatedAt != state.updatedAt
            || fact.completedAt != state.completedAt
        {
            // What the server counted and dated, which no local edit sets.
            try db.execute(
                sql: """
                    UPDATE fact SET sources = ?, mention_count = ?, created_at = ?, updated_at = ?, completed_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    SourceList.encode(state.sources), state.mentionCount, Timestamp.databaseText(state.createdAt),
                    Timestamp.databaseText(state.updatedAt), state.completedAt.map(Timestamp.databaseText), fact.id,
                ])
        }
    }
}
