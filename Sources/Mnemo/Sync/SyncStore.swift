import Foundation
import GRDB

/// Sync's reads and writes inside a database transaction: facts by uid, a server's receipts,
/// aliases and identity, a device's link and outbox.
enum SyncStore {
    /// The namespace's stored fact with this uid.
    static func fact(_ db: Database, namespace: String, uid: String) throws -> Fact? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT \(Fact.selection) FROM \(Fact.source) WHERE fact.namespace = ? AND fact.uid = ?"),
            arguments: [namespace, uid]
        ).map(Fact.init(row:))
    }

    /// The local id of the namespace's fact with this uid whose row went (deleted, merged away,
    /// erased), the newest when a uid came back and went again.
    static func departedID(_ db: Database, namespace: String, uid: String) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(
                sql: "SELECT MAX(fact_id) FROM fact_departed WHERE namespace = ? AND uid = ?"),
            arguments: [namespace, uid])
    }

    /// The uid of a fact by local id, stored or departed.
    static func uid(_ db: Database, factID: Int64) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT COALESCE((SELECT uid FROM fact WHERE id = ?1), (SELECT uid FROM fact_departed WHERE fact_id = ?1))
                    """), arguments: [factID])
    }

    /// The stored vector of a fact, when it has `dimension` components.
    static func vector(_ db: Database, factID: Int64, dimension: Int) throws -> [Float]? {
        try Data.fetchOne(
            db.cachedStatement(sql: "SELECT vector FROM fact_embedding WHERE fact_id = ?"), arguments: [factID]
        ).flatMap { EmbeddingTable.decode($0, dimension: dimension) }
    }

    /// Whether the namespace erased the fact with this uid.
    static func isErased(_ db: Database, namespace: String, uid: String) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM fact_departed d JOIN fact_tombstone t ON t.fact_id = d.fact_id
                                   WHERE d.namespace = ? AND d.uid = ?)
                    """), arguments: [namespace, uid]) ?? false
    }

    /// The uids of every fact the namespace erased.
    static func erasedUIDs(_ db: Database, namespace: String) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT DISTINCT d.uid FROM fact_departed d JOIN fact_tombstone t ON t.fact_id = d.fact_id
                WHERE d.namespace = ? ORDER BY d.uid
                """, arguments: [namespace])
    }

    // MARK: Server

    /// The server's identity for the namespace, made on first use.
    static func origin(_ db: Database, namespace: String) throws -> String {
        if let identity = try String.fetchOne(
            db.cachedStatement(sql: "SELECT identity FROM sync_origin WHERE namespace = ?"), arguments: [namespace])
        {
            return identity
        }
        let identity = StableID.random()
        try db.execute(
            sql: "INSERT INTO sync_origin (namespace, identity) VALUES (?, ?)", arguments: [namespace, identity])
        return identity
    }

    /// The server's identity for the namespace, if a device ever synced with it.
    static func existingOrigin(_ db: Database, namespace: String) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT identity FROM sync_origin WHERE namespace = ?"), arguments: [namespace])
    }

    static func receipt(_ db: Database, namespace: String, device: String, operation: String) throws -> SyncAnswer? {
        try String.fetchOne(
            db.cachedStatement(
                sql: "SELECT answer FROM sync_receipt WHERE namespace = ? AND device = ? AND operation = ?"),
            arguments: [namespace, device, operation]
        ).flatMap { try? JSONDecoder().decode(SyncAnswer.self, from: Data($0.utf8)) }
    }

    /// How many operations of the device the server answered.
    static func receiptCount(_ db: Database, namespace: String, device: String) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT COUNT(*) FROM sync_receipt WHERE namespace = ? AND device = ?"),
            arguments: [namespace, device]) ?? 0
    }

    static func saveReceipt(_ db: Database, namespace: String, device: String, answer: SyncAnswer, now: Date) throws {
        let text = String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
        try db.cachedStatement(
            sql: """
                INSERT INTO sync_receipt (namespace, device, operation, answer, created_at) VALUES (?, ?, ?, ?, ?)
                """
        ).execute(arguments: [namespace, device, answer.operation, text, Timestamp.databaseText(now)])
    }

    /// The uid a device's uid stands for on the server: the fact it was merged into, followed
    /// through later merges.
    static func resolvedUID(_ db: Database, namespace: String, uid: String) throws -> String {
        var current = uid
        for _ in 0..<16 {
            guard
                let next = try String.fetchOne(
                    db.cachedStatement(sql: "SELECT into_uid FROM sync_alias WHERE namespace = ? AND uid = ?"),
                    arguments: [namespace, current])
            else { break }
            current = next
        }
        return current
    }

    static func saveAlias(_ db: Database, namespace: String, uid: String, into: String) throws {
        guard uid != into else { return }
        try db.execute(
            sql: "INSERT OR REPLACE INTO sync_alias (namespace, uid, into_uid) VALUES (?, ?, ?)",
            arguments: [namespace, uid, into])
    }

    // MARK: Device

    /// A device's link to its server for one namespace.
    struct Link: Sendable {
        var device: String
        var server: String
        var cursor: String?
        var lastSync: Date?
        /// How many of the device's operations the server last said it holds.
        var acknowledged: Int?
    }

    static func link(_ db: Database, namespace: String) throws -> Link? {
        try Row.fetchOne(
            db, sql: "SELECT device, server, cursor, last_sync, acknowledged FROM sync_link WHERE namespace = ?",
            arguments: [namespace]
        ).map { Link(device: $0[0], server: $0[1], cursor: $0[2], lastSync: $0[3], acknowledged: $0[4]) }
    }

    /// The outbox kind of a fact offered to the server (a file linked while holding facts, or a
    /// repair): pushed as an add the server may know already (``SyncOperation/offered``).
    static let offeredKind = "fact_offered"

    /// Links the namespace to a server, and offers every fact it holds: what the device knew
    /// before its first sync goes through the server's duplicate rules like what it learns
    /// after, without counting a mention of what the server knows already.
    static func createLink(_ db: Database, namespace: String, now: Date) throws -> Link {
        let link = Link(device: StableID.random(), server: "", cursor: nil, lastSync: nil)
        try db.execute(
            sql: "INSERT INTO sync_link (namespace, device, server) VALUES (?, ?, '')",
            arguments: [namespace, link.device])
        try offerAll(db, namespace: namespace, now: now)
        return link
    }

    /// Links the namespace to another server on purpose: a new device id, no cursor, and every
    /// fact offered again in place of the operations that waited for the old server.
    static func relink(_ db: Database, namespace: String, now: Date) throws -> Link {
        let link = Link(device: StableID.random(), server: "", cursor: nil, lastSync: nil)
        try db.execute(
            sql: """
                UPDATE sync_link SET device = ?, server = '', cursor = NULL, last_sync = NULL, acknowledged = NULL
                WHERE namespace = ?
                """, arguments: [link.device, namespace])
        try db.execute(sql: "DELETE FROM sync_outbox WHERE namespace = ?", arguments: [namespace])
        try offerAll(db, namespace: namespace, now: now)
        return link
    }

    private static func offerAll(_ db: Database, namespace: String, now: Date) throws {
        try db.execute(
            sql: """
                INSERT INTO sync_outbox (namespace, kind, fact_uid, created_at, op)
                SELECT namespace, ?, uid, ?, lower(hex(randomblob(16))) FROM fact WHERE namespace = ? ORDER BY id
                """, arguments: [offeredKind, Timestamp.databaseText(now), namespace])
    }

    /// Queues operations of a repair, each with an id of its own: `kind` for each uid.
    static func queue(_ db: Database, namespace: String, kind: String, uids: [String], now: Date) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO sync_outbox (namespace, kind, fact_uid, created_at, op)
                VALUES (?, ?, ?, ?, lower(hex(randomblob(16))))
                """)
        for uid in uids {
            try statement.execute(arguments: [namespace, kind, uid, Timestamp.databaseText(now)])
        }
    }

    /// Records how many of the device's operations the server holds.
    static func setAcknowledged(_ db: Database, namespace: String, _ count: Int) throws {
        try db.execute(
            sql: "UPDATE sync_link SET acknowledged = ? WHERE namespace = ?", arguments: [count, namespace])
    }

    /// Marks the running transaction as one that applies the server's changes: its feed
    /// events are not the device's own operations (see ``SyncSchema``). Returns the outbox's
    /// last number, to drop what the transaction's own writes added (``dropOutbox(after:_:)``).
    static func beginApplying(_ db: Database, namespace: String) throws -> Int64 {
        let transaction = try FeedTable.lastNumber(db) + 1
        try db.execute(
            sql: "UPDATE sync_link SET pulled_tx = ? WHERE namespace = ?", arguments: [transaction, namespace])
        // The transaction takes its number even when it records no event (a pull that changed
        // nothing): the next transaction's events must not get the same one.
        try db.execute(
            sql:
                "INSERT INTO feed_event (seq, namespace, tx, kind, created_at) VALUES (?1, ?2, ?1, 'sync_applied', ?3)",
            arguments: [transaction, namespace, Timestamp.databaseText(Date())])
        try db.execute(sql: "DELETE FROM feed_event WHERE seq = ?", arguments: [transaction])
        return try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), 0) FROM sync_outbox") ?? 0
    }

    /// Drops the outbox rows the applying transaction's own events (an erasure's, which are
    /// recorded as they happen) added.
    static func dropOutbox(after mark: Int64, namespace: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_outbox WHERE namespace = ? AND seq > ?", arguments: [namespace, mark])
    }

    /// One row of the outbox.
    struct Pending: Sendable {
        var sequence: Int64
        var kind: String
        var uid: String?
        var historyID: Int64?
        /// The operation's random id (`nil` on a row queued before migration v15, which is
        /// named by its number).
        var operation: String?
    }

    static func outbox(_ db: Database, namespace: String, limit: Int) throws -> [Pending] {
        try Row.fetchAll(
            db,
            sql: "SELECT seq, kind, fact_uid, history_id, op FROM sync_outbox WHERE namespace = ? ORDER BY seq LIMIT ?",
            arguments: [namespace, limit]
        ).map { Pending(sequence: $0[0], kind: $0[1], uid: $0[2], historyID: $0[3], operation: $0[4]) }
    }

    static func outboxCount(_ db: Database, namespace: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_outbox WHERE namespace = ?", arguments: [namespace]) ?? 0
    }

    /// The distinct facts (and moved topics) the outbox's operations concern.
    static func outboxSubjects(_ db: Database, namespace: String) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(DISTINCT fact_uid) FROM sync_outbox WHERE namespace = ?", arguments: [namespace])
            ?? 0
    }

    static func dropOutbox(through sequence: Int64, namespace: String, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM sync_outbox WHERE namespace = ? AND seq <= ?", arguments: [namespace, sequence])
    }

    /// The field names an update's history row changed.
    static func updatedFields(_ db: Database, historyID: Int64) throws -> [String] {
        guard
            let details = try String.fetchOne(
                db.cachedStatement(sql: "SELECT details FROM history WHERE id = ?"), arguments: [historyID]),
            let object = try? JSONSerialization.jsonObject(with: Data(details.utf8)) as? [String: Any]
        else { return [] }
        return object.keys.sorted()
    }

    /// The facts in the subtree of the namespace's topic with this uid (none when it is gone).
    static func facts(_ db: Database, namespace: String, underTopic uid: String?) throws -> [Fact] {
        guard let uid,
            let root = try Row.fetchOne(
                db, sql: "SELECT \(Topic.selection) FROM topic WHERE namespace = ? AND uid = ?",
                arguments: [namespace, uid]
            ).map(Topic.init(row:))
        else { return [] }
        return try FactTable.facts(db, inTopics: try TopicTable.subtree(db, namespace: namespace, root: root).map(\.id))
    }

    /// The text details of a history row (a topic's `from` and `to`).
    static func details(_ db: Database, historyID: Int64) throws -> [String: String] {
        try String.fetchOne(db.cachedStatement(sql: "SELECT details FROM history WHERE id = ?"), arguments: [historyID])
            .flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
    }
}
