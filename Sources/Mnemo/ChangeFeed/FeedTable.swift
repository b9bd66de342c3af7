import Foundation
import GRDB

/// The `feed_event` table: each namespace's ordered change feed, written in the transaction of
/// the change it reports.
///
/// A row says what happened to which fact or topic, never what it holds: the state a client
/// sees is read when the event is read (see ``KnowledgeBase/changes(after:limit:)``), and the
/// details of an update are read from the history event it points at. Erasing a fact deletes
/// its state and its history, so no event can bring its content back, and the feed needs no
/// scrubbing.
///
/// Most events are derived at the end of a write from the rows it added to `history` and
/// `fact_conflict` (``recordDerivedEvents(since:_:)``); the writes that add no history say what
/// they did themselves: undo (``record(_:namespace:kind:factID:topicID:now:)`` with `restored`),
/// erasure (`erased`) and the erasure of a namespace.
///
/// `seq` is `AUTOINCREMENT`, so a number is never given twice in a file, even after pruning; all
/// events of one transaction share `tx`, the number of the first of them. A node of a shared
/// store (PostgreSQL) ships these rows like the others, so every node's copy of a namespace
/// numbers its events alike and a cursor is good on any node.
enum FeedTable {
    /// Where a write transaction started: the largest history, conflict and event numbers.
    struct Mark: Sendable {
        var history: Int64
        var conflict: Int64
        /// The number `AUTOINCREMENT` gives next, less one: the first event of the transaction
        /// gets `sequence + 1`.
        var sequence: Int64
    }

    static func mark(_ db: Database) throws -> Mark {
        historyFloors.withLock { floors in
            if !floors.isEmpty { floors[ObjectIdentifier(db)] = nil }
        }
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT (SELECT COALESCE(MAX(id), 0) FROM history), (SELECT COALESCE(MAX(id), 0) FROM fact_conflict)
                    """))
        return Mark(history: row?[0] ?? 0, conflict: row?[1] ?? 0, sequence: try lastNumber(db))
    }

    /// The last number `AUTOINCREMENT` gave an event (0 before the first): every cursor's upper
    /// bound, and the position of a snapshot.
    static func lastNumber(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT MAX((SELECT COALESCE(MAX(seq), 0) FROM feed_event),
                               COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'feed_event'), 0))
                    """)) ?? 0
    }

    /// Gives every event of the transaction its transaction number, adding the events of what it
    /// recorded since `mark`: one per history event (`fact_added`, `fact_updated`,
    /// `topic_created`…) and one per conflict found.
    static func recordDerivedEvents(since mark: Mark, _ db: Database) throws {
        let tx = mark.sequence + 1
        let floor = historyFloors.withLock { $0.removeValue(forKey: ObjectIdentifier(db)) }
        let firstNew = min(mark.history, floor ?? mark.history)
        // The events a write recorded itself (``record``) are numbered now, while they are the
        // only events of the transaction: the range holds them alone, not the derived ones.
        try db.cachedStatement(sql: "UPDATE feed_event SET tx = ?1 WHERE seq >= ?1 AND tx = 0")
            .execute(arguments: [tx])
        try db.cachedStatement(
            sql: """
                INSERT INTO feed_event (namespace, tx, kind, fact_id, topic_id, related_id, history_id, created_at)
                SELECT namespace, ?1,
                       CASE WHEN substr(event, 1, 6) = 'topic_' THEN event ELSE 'fact_' || event END,
                       fact_id, topic_id,
                       CASE event
                           WHEN 'merged_into' THEN CAST(json_extract(details, '$.into') AS INTEGER)
                           WHEN 'merged' THEN CAST(json_extract(details, '$.merged_from') AS INTEGER)
                       END,
                       id, created_at
                FROM history WHERE id > ?2 ORDER BY id
                """
        ).execute(arguments: [tx, firstNew])
        try db.cachedStatement(
            sql: """
                INSERT INTO feed_event (namespace, tx, kind, fact_id, related_id, created_at)
                SELECT namespace, ?1, 'conflict_found', newer_fact_id, older_fact_id, created_at
                FROM fact_conflict WHERE id > ?2 ORDER BY id
                """
        ).execute(arguments: [tx, mark.conflict])
    }

    /// The largest history number left after the running transaction of a connection deleted
    /// history rows (an erasure), when it is below the transaction's ``Mark``: SQLite numbers
    /// the next row after the largest one left, so the rows the transaction adds after the
    /// deletion can have numbers at or below its mark, and are still its own.
    private static let historyFloors = Locked<[ObjectIdentifier: Int64]>([:])

    /// Notes that the running transaction deleted history rows (see ``historyFloors``).
    static func historyRowsDeleted(_ db: Database) throws {
        let largest = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM history") ?? 0
        historyFloors.withLock { floors in
            floors[ObjectIdentifier(db)] = min(floors[ObjectIdentifier(db)] ?? largest, largest)
        }
    }

    /// Records an event that no history row announces (an undo's restoration, an erasure, a
    /// conflict settled keeping both facts).
    static func record(
        _ db: Database, namespace: String, kind: ChangeEvent.Kind, factID: Int64? = nil, topicID: Int64? = nil,
        relatedID: Int64? = nil, now: Date
    ) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO feed_event (namespace, tx, kind, fact_id, topic_id, related_id, created_at)
                VALUES (?, 0, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [namespace, kind.rawValue, factID, topicID, relatedID, Timestamp.databaseText(now)])
    }

    /// Forgets a namespace's events when its memory is erased, leaving one `namespace_erased`
    /// event: a cursor from before it has expired, and its follower reads the (empty) snapshot.
    static func eraseNamespace(_ db: Database, namespace: String, now: Date) throws {
        try record(db, namespace: namespace, kind: .namespaceErased, now: now)
        let last = db.lastInsertedRowID
        try db.execute(
            sql: "DELETE FROM feed_event WHERE namespace = ? AND seq < ?", arguments: [namespace, last])
        try raiseHorizon(db, namespace: namespace, through: last - 1)
    }

    /// Deletes the namespace's events older than `cutoff`, keeping the newest `keeping` whatever
    /// their age. Returns how many went.
    static func prune(_ db: Database, namespace: String, olderThan cutoff: Date, keeping: Int) throws -> Int {
        // The oldest event that must stay because it is among the newest `keeping`.
        let kept =
            try Int64.fetchOne(
                db,
                sql: "SELECT seq FROM feed_event WHERE namespace = ? ORDER BY seq DESC LIMIT 1 OFFSET ?",
                arguments: [namespace, max(0, keeping - 1)]) ?? 0
        guard kept > 0 else { return 0 }
        guard
            let last = try Int64.fetchOne(
                db,
                sql: "SELECT MAX(seq) FROM feed_event WHERE namespace = ? AND seq < ? AND created_at < ?",
                arguments: [namespace, kept, Timestamp.databaseText(cutoff)])
        else { return 0 }
        try db.execute(
            sql: "DELETE FROM feed_event WHERE namespace = ? AND seq <= ?", arguments: [namespace, last])
        let pruned = db.changesCount
        try raiseHorizon(db, namespace: namespace, through: last)
        return pruned
    }

    private static func raiseHorizon(_ db: Database, namespace: String, through sequence: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO feed_horizon (namespace, pruned_through) VALUES (?1, ?2)
                ON CONFLICT (namespace) DO UPDATE SET pruned_through = MAX(pruned_through, ?2)
                """, arguments: [namespace, sequence])
    }

    /// The number below which the namespace's events were pruned (0 when none was).
    static func horizon(_ db: Database, namespace: String) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT pruned_through FROM feed_horizon WHERE namespace = ?"),
            arguments: [namespace]) ?? 0
    }

    /// The number of the file's latest event, any namespace's (0 when none).
    static func latestSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(seq) FROM feed_event")) ?? 0
    }

    /// The number of the namespace's latest event (0 when none).
    static func latestSequence(_ db: Database, namespace: String) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT MAX(seq) FROM feed_event WHERE namespace = ?"), arguments: [namespace])
            ?? 0
    }

    /// The namespaces with events after `sequence`, and the file's latest event number.
    static func namespacesChanged(_ db: Database, after sequence: Int64) throws -> (Set<String>, latest: Int64) {
        var namespaces = Set<String>()
        var latest = sequence
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT namespace, MAX(seq) FROM feed_event WHERE seq > ? GROUP BY namespace"),
            arguments: [sequence])
        while let row = try rows.next() {
            namespaces.insert(row[0])
            latest = max(latest, row[1])
        }
        return (namespaces, latest)
    }

    /// One stored event, before its fact's and topic's states are read.
    struct StoredEvent: Sendable {
        var sequence: Int64
        var transaction: Int64
        var kind: ChangeEvent.Kind
        var factID: Int64?
        var topicID: Int64?
        var relatedID: Int64?
        var details: [String: String]
        var date: Date
    }

    /// The namespace's events after `sequence`: `limit` of them, and then the rest of the last
    /// one's transaction, so that a page never ends inside a transaction.
    static func events(_ db: Database, namespace: String, after sequence: Int64, limit: Int) throws -> [StoredEvent] {
        var events = try fetch(db, condition: "seq > ?2 ORDER BY seq LIMIT ?3", [namespace, sequence, limit])
        if let last = events.last {
            events += try fetch(
                db, condition: "seq > ?2 AND tx = ?3 ORDER BY seq", [namespace, last.sequence, last.transaction])
        }
        return events
    }

    private static func fetch(_ db: Database, condition: String, _ arguments: StatementArguments) throws
        -> [StoredEvent]
    {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT e.seq, e.tx, e.kind, e.fact_id, e.topic_id, e.related_id, e.created_at, h.details
                    FROM feed_event e LEFT JOIN history h
                        ON h.id = e.history_id AND h.namespace = e.namespace AND h.fact_id IS e.fact_id
                    WHERE e.namespace = ?1 AND \(condition)
                    """), arguments: arguments
        ).compactMap { row in
            // A kind written by a later version is passed by rather than misread.
            guard let kind = ChangeEvent.Kind(rawValue: row[2]) else { return nil }
            let details: String? = row[7]
            return StoredEvent(
                sequence: row[0], transaction: row[1], kind: kind, factID: row[3], topicID: row[4], relatedID: row[5],
                details: details.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) }
                    ?? [:],
                date: row[6])
        }
    }
}
