import Foundation
import GRDB

extension FactTable {
    /// New facts of one transaction, inserted many rows per statement.
    ///
    /// SQLite wraps every statement that fires the full-text trigger in a statement savepoint,
    /// and FTS5 writes its pending index to disk at each savepoint: one row per statement meant
    /// one tiny index segment per fact, and merging those cost more than the rest of ingest
    /// together. Queued facts are therefore inserted together, by ``flush(_:now:)``, which the
    /// writer calls before anything reads them back and at the end of its batch.
    ///
    /// Ids are chosen when a fact is queued, not by SQLite: a fact gets its
    /// ``ValidatedFact/preferredID`` when no fact, present or deleted, ever had it (so a restored
    /// export keeps its ids), else one more than the largest id any fact or history event ever
    /// used, so a new fact never inherits a deleted fact's history (or an erased fact's id: see its
    /// tombstone), and above the floor of a shared store's copy (see ``RowIDs``).
    struct InsertQueue {
        private var queued: [(fact: Fact, contentKey: String, embedding: [Float]?)] = []
        private var queuedIDs = Set<Int64>()
        private var assignedIDs = Set<Int64>()
        private var assignedUIDs = Set<String>()
        private var largestID: Int64?

        /// Whether the fact with this id is queued, not yet in the database.
        func contains(_ id: Int64) -> Bool {
            queuedIDs.contains(id)
        }

        /// Queues a validated fact under `topic`, and returns it as it will be stored.
        mutating func enqueue(_ db: Database, namespace: String, fact new: ValidatedFact, topic: Topic, now: Date)
            throws -> Fact
        {
            var largest = try largestID ?? RowIDs.next(db, table: "fact") - 1
            let id: Int64
            if let preferred = new.preferredID, !assignedIDs.contains(preferred), try isUnused(db, id: preferred) {
                id = preferred
            } else {
                id = largest + 1
            }
            largest = max(largest, id)
            largestID = largest
            assignedIDs.insert(id)
            queuedIDs.insert(id)
            // An export's or a synced device's identity is kept unless the namespace holds it.
            var uid = StableID.random()
            if let given = new.uid, !assignedUIDs.contains(given),
                try !FactTable.holds(db, namespace: namespace, uid: given)
            {
                uid = given
            }
            assignedUIDs.insert(uid)
            let createdAt = new.createdAt ?? now
            let fact = Fact(
                id: id, uid: uid, namespace: namespace, topicID: topic.id, topicPath: topic.path,
                content: new.content, type: new.type, importance: new.importance, confidence: new.confidence,
                isActive: new.isActive, sources: new.sources, mentionCount: new.mentionCount,
                createdAt: createdAt, updatedAt: new.updatedAt ?? createdAt, expiresAt: new.expiresAt,
                status: new.status, progress: new.progress, targetDate: new.targetDate,
                completedAt: new.status == .completed ? new.completedAt ?? now : nil)
            queued.append((fact, new.contentKey, new.embedding))
            return fact
        }

        /// Inserts the queued facts, their vectors and their `added` events.
        mutating func flush(_ db: Database, now: Date) throws {
            guard !queued.isEmpty else { return }
            let rowsPerInsert = try FactTable.rowsPerInsert(db)
            let nowText = Timestamp.databaseText(now)
            for start in stride(from: 0, to: queued.count, by: rowsPerInsert) {
                let rows = queued[start..<min(start + rowsPerInsert, queued.count)]
                // Full statements are cached; the one remainder of a batch is prepared once.
                let statement =
                    try rows.count == rowsPerInsert
                    ? db.cachedStatement(sql: FactTable.insertSQL(rows: rows.count))
                    : db.makeStatement(sql: FactTable.insertSQL(rows: rows.count))
                var values = BulkBindings(statement)
                for (fact, contentKey, _) in rows {
                    let createdText = fact.createdAt == now ? nowText : Timestamp.databaseText(fact.createdAt)
                    values.bind(fact.id)
                    values.bind(fact.namespace)
                    values.bind(fact.topicID)
                    values.bind(fact.content)
                    values.bind(contentKey)
                    values.bind(fact.type.rawValue)
                    values.bind(fact.importance.rank)
                    values.bind(fact.confidence)
                    values.bind(fact.isActive)
                    values.bind(SourceList.encode(fact.sources))
                    values.bind(fact.mentionCount)
                    values.bind(createdText)
                    values.bind(fact.updatedAt == fact.createdAt ? createdText : Timestamp.databaseText(fact.updatedAt))
                    values.bind(fact.expiresAt.map(Timestamp.databaseText))
                    values.bind(fact.status?.rawValue)
                    values.bind(fact.progress)
                    values.bind(fact.targetDate.map(Timestamp.databaseText))
                    values.bind(fact.completedAt.map(Timestamp.databaseText))
                    values.bind(fact.uid)
                }
                try values.execute()
            }
            try EmbeddingTable.write(
                db, vectors: queued.compactMap { fact, _, embedding in embedding.map { (fact.id, $0) } })
            try HistoryTable.recordFactEvents(
                db,
                queued.map { fact, _, _ in
                    // What `HistoryTable.record` would write for ["source": …, "topic": …], keys sorted.
                    let source = fact.sources.first.map { #""source":"# + JSONText.quoted($0) + "," } ?? ""
                    let details = "{" + source + #""topic":"# + JSONText.quoted(fact.topicPath) + "}"
                    return HistoryTable.FactEvent(
                        namespace: fact.namespace, factID: fact.id, kind: .added, detailsJSON: details)
                }, at: now)
            queued.removeAll(keepingCapacity: true)
            queuedIDs.removeAll(keepingCapacity: true)
            assignedUIDs.removeAll(keepingCapacity: true)
        }
    }

    /// Rows per INSERT statement: 19 columns × 1,000 rows is under the 32,766 bound values of
    /// SQLite 3.32 and later; older versions allow 999, so 52 rows.
    static func rowsPerInsert(_ db: Database) throws -> Int {
        let version = try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? ""
        return version.compare("3.32.0", options: .numeric) == .orderedAscending ? 52 : 1_000
    }

    /// The ids of the namespace's stored facts whose normalized content is among `keys`, by key:
    /// one query per few hundred keys instead of one per fact. Rows found by a key's hash whose
    /// key is another are left out (see ``ContentKeyIndex``).
    static func ids(_ db: Database, namespace: String, contentKeys keys: [String]) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        let wanted = Set(keys)
        let chunkSize = 500
        for start in stride(from: 0, to: keys.count, by: chunkSize) {
            let chunk = keys[start..<min(start + chunkSize, keys.count)]
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT content_key, id FROM fact
                        WHERE namespace = ? AND \(ContentKeyIndex.functionName)(content_key) IN (\(placeholders))
                        """), arguments: [namespace] + StatementArguments(chunk.map(ContentKeyIndex.hash)))
            while let row = try rows.next() {
                let key: String = row[0]
                if wanted.contains(key) { ids[key] = row[1] }
            }
        }
        return ids
    }

    /// Whether a stored fact of the namespace has this ``Fact/uid``.
    static func holds(_ db: Database, namespace: String, uid: String) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM fact WHERE namespace = ? AND uid = ?)"),
            arguments: [namespace, uid]) ?? false
    }

    /// Whether no fact has this id and none ever had (its history would say so).
    static func isUnused(_ db: Database, id: Int64) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT NOT EXISTS (SELECT 1 FROM fact WHERE id = ?) AND NOT EXISTS (SELECT 1 FROM history WHERE fact_id = ?)
                       AND NOT EXISTS (SELECT 1 FROM fact_tombstone WHERE fact_id = ?)
                    """), arguments: [id, id, id]) ?? false
    }

    fileprivate static func insertSQL(rows: Int) -> String {
        let row = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        return """
            INSERT INTO fact (id, namespace, topic_id, content, content_key, type, importance, confidence,
                              is_active, sources, mention_count, created_at, updated_at, expires_at,
                              goal_status, goal_progress, target_date, completed_at, uid)
            VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))
            """
    }
}
