import Foundation
import GRDB

/// The server's half of sync: what `mnemo serve`'s sync routes and ``InProcessSyncTransport``
/// call on the caller's namespace.
extension KnowledgeBase {
    /// Applies a device's operations in one transaction, in order, and answers each.
    ///
    /// The server decides: an add goes through its own duplicate rules (an exact duplicate counts
    /// a mention of the stored fact, a near duplicate is merged into it, a contradiction is kept
    /// as a conflict); an update changes only the fields the device changed, over whatever the
    /// server holds (the later write wins, the earlier value stays in the fact's history); a
    /// delete wins over an update or an add of the deleted fact; an operation on an erased fact
    /// is answered ``SyncAnswer/Outcome/gone``. Each answer is remembered by the operation's id
    /// in the same transaction, so a push replayed after a lost answer changes nothing and gets
    /// the same answers.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` naming the first bad field (another
    ///   namespace, a malformed operation): nothing is applied.
    /// - Throws: ``SyncError`` (``SyncError/Kind/otherServer``) when the device is linked to
    ///   another server's namespace.
    package func acceptSyncPush(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try SyncValidation.check(request, namespace: namespace)
        if let linked = request.server {
            let origin = try await syncOrigin()
            guard linked == origin else {
                throw SyncError(
                    .otherServer,
                    reason:
                        "the file is linked to the server \(linked.prefix(64)), not this one (\(origin)): sync with that one, or re-link (--relink)"
                )
            }
        }
        // A vector is needed by an add, a restore and a new wording; the device's is taken when
        // it was made by this server's model, and the rest are embedded here in one batch.
        let shipped = request.model != nil && request.model == embedder?.identity ? request.model?.dimension : nil
        var embeddings: [Int: [Float]] = [:]
        var needing: [Int] = []
        for (index, operation) in request.operations.enumerated() {
            guard let fact = operation.fact,
                operation.kind == .add || operation.kind == .restore
                    || (operation.kind == .update && operation.fields?.contains("content") == true)
            else { continue }
            if let shipped, let vector = fact.decodedVector(dimension: shipped) {
                embeddings[index] = vector
            } else {
                needing.append(index)
            }
        }
        let vectors = try await embed(needing.map { request.operations[$0].fact!.content }) ?? []
        for (position, index) in needing.enumerated() where position < vectors.count {
            embeddings[index] = vectors[position]
        }
        let namespace = namespace
        let vectorIndex = vectorIndex
        let now = now
        let embeddingsByOperation = embeddings
        let response = try await writer.write { db in
            var server = SyncServerWrite(
                db: db, namespace: namespace, now: now,
                matcher: try vectorIndex.map { NearDuplicateMatcher(store: try $0.snapshot(in: db), rule: .init()) })
            var answers: [SyncAnswer] = []
            let held = try SyncStore.receiptCount(db, namespace: namespace, device: request.device)
            var replayed = 0
            for (index, operation) in request.operations.enumerated() {
                if let answer = try SyncStore.receipt(
                    db, namespace: namespace, device: request.device, operation: operation.id)
                {
                    answers.append(answer)
                    replayed += 1
                    continue
                }
                let answer = try server.apply(operation, embedding: embeddingsByOperation[index])
                try SyncStore.saveReceipt(db, namespace: namespace, device: request.device, answer: answer, now: now)
                answers.append(answer)
            }
            // The device accounts for what it heard acknowledged and for what this push sends
            // again; answers beyond both were given to a later state of its file than it has.
            let rewound = request.acknowledged.map { $0 + replayed < held } ?? false
            return SyncPushResponse(
                answers: answers, acknowledged: held + request.operations.count - replayed,
                rewound: rewound ? true : nil)
        }
        if response.answers.contains(where: { $0.outcome == .erased }) {
            // The erased rows' pages are zeroed in the file; the log and the saved graph still hold them.
            _ = await scrubFilesAfterErasure()
        }
        return response
    }

    /// The namespace's changes after a device's cursor, by uid.
    /// - Parameters:
    ///   - cursor: the text of the cursor the device pulled through.
    ///   - server: the server identity the device got with that cursor.
    ///   - model: the device's embedding model: pulled facts carry the server's vectors when it
    ///     is the server's.
    /// - Throws: ``MnemoError/cursorExpired(namespace:)`` when the feed no longer holds what
    ///   follows the cursor (read ``syncSnapshot(model:)``); ``MnemoError/invalidInput(field:reason:)``
    ///   (field `cursor`) for a malformed cursor, one of another namespace, or one of another server.
    package func syncChanges(
        after cursor: String, server: String, limit: Int = 500, model: EmbeddingModelIdentity? = nil
    ) async throws -> SyncPullResponse {
        let origin = try await syncOrigin()
        guard server == origin else {
            throw SyncError(
                .otherServer,
                reason: "the cursor was made by another server (\(server.prefix(64))), not this one (\(origin))")
        }
        let start = try self.cursor(cursor)
        let namespace = namespace
        let head = try await writer.read { db in try FeedTable.lastNumber(db) }
        if start.sequence > head {
            // The device pulled through changes this server no longer has: it went back.
            return SyncPullResponse(server: origin, changes: [], next: cursor, hasMore: false, rewound: true)
        }
        let page = try await changes(after: start, limit: limit)
        let dimension = shippedDimension(for: model)
        return try await writer.read { db in
            var changes: [SyncChange] = []
            for event in page.events {
                var change = SyncChange(event: event.kind, transaction: event.transaction)
                if event.kind.concernsTopics {
                    guard let move = try Self.topicMove(db, event: event) else { continue }
                    (change.from, change.to) = (move.from, move.to)
                    changes.append(change)
                    // The facts the move carried are where its target is now, or a later
                    // change carries them on: their states go with it, and the device stores
                    // them as it stores any other (it does not replay the move on its own copy,
                    // which may hold other facts at that path).
                    for fact in try Self.facts(db, namespace: namespace, under: move.to) {
                        var carried = SyncChange(event: event.kind, transaction: event.transaction)
                        carried.uid = fact.uid
                        carried.fact = SyncFact(fact)
                        changes.append(carried)
                    }
                    continue
                }
                if let factID = event.factID { change.uid = try SyncStore.uid(db, factID: factID) }
                if let fact = event.fact {
                    change.fact = SyncFact(
                        fact,
                        vector: Self.mayBringNewWording(event)
                            ? try dimension.flatMap { try SyncStore.vector(db, factID: fact.id, dimension: $0) } : nil)
                }
                if event.kind == .conflictFound, let older = event.relatedFactID, let newer = event.factID {
                    change.relatedUid = try SyncStore.uid(db, factID: older)
                    change.reason = try String.fetchOne(
                        db,
                        sql:
                            "SELECT reason FROM fact_conflict WHERE older_fact_id = ? AND newer_fact_id = ? AND namespace = ?",
                        arguments: [older, newer, namespace])
                }
                changes.append(change)
            }
            // The last page carries the digest at its cursor; a change committed since the page
            // was read makes it not the last.
            let hasMore = try page.hasMore || FeedTable.latestSequence(db, namespace: namespace) > page.next.sequence
            return SyncPullResponse(
                server: origin, changes: changes, next: page.next.description, hasMore: hasMore,
                digest: hasMore ? nil : try SyncDigest.of(db, namespace: namespace).description)
        }
    }

    /// The whole namespace for a device that starts (or starts again): every fact, every
    /// conflict, the uids of the erased facts, and the cursor to follow from, read in one
    /// transaction.
    package func syncSnapshot(model: EmbeddingModelIdentity? = nil) async throws -> SyncSnapshotResponse {
        let origin = try await syncOrigin()
        let namespace = namespace
        let dimension = shippedDimension(for: model)
        return try await writer.read { db in
            var facts: [SyncFact] = []
            var digest = SyncDigest()
            var vectors: [Int64: [Float]] = [:]
            if let dimension {
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT e.fact_id, e.vector FROM fact_embedding e JOIN fact f ON f.id = e.fact_id
                        WHERE f.namespace = ?
                        """, arguments: [namespace])
                while let row = try rows.next() {
                    vectors[row[0]] = EmbeddingTable.decode(row[1], dimension: dimension)
                }
            }
            try FactTable.forEach(db, namespace: namespace) { fact in
                facts.append(SyncFact(fact, vector: vectors[fact.id]))
                digest.add(fact)
            }
            let conflicts = try Row.fetchAll(
                db,
                sql: """
                    SELECT o.uid, n.uid, c.reason, c.similarity FROM fact_conflict c
                    JOIN fact o ON o.id = c.older_fact_id JOIN fact n ON n.id = c.newer_fact_id
                    WHERE c.namespace = ? ORDER BY c.id
                    """, arguments: [namespace]
            ).map { SyncConflict(olderUid: $0[0], newerUid: $0[1], reason: $0[2], similarity: $0[3]) }
            return SyncSnapshotResponse(
                server: origin, facts: facts, conflicts: conflicts,
                erased: try SyncStore.erasedUIDs(db, namespace: namespace),
                cursor: ChangeCursor(sequence: try FeedTable.lastNumber(db), namespace: namespace).description,
                digest: digest.description)
        }
    }

    /// The server's identity for this namespace, made by the first sync that asks.
    package func syncOrigin() async throws -> String {
        let namespace = namespace
        if let origin = try await writer.read({ db in try SyncStore.existingOrigin(db, namespace: namespace) }) {
            return origin
        }
        return try await writer.write { db in try SyncStore.origin(db, namespace: namespace) }
    }

    /// The dimension of the vectors to ship: the server's, when the device embeds with its model.
    private func shippedDimension(for model: EmbeddingModelIdentity?) -> Int? {
        guard let model, let identity = embedder?.identity, identity == model else { return nil }
        return identity.dimension
    }

    /// The facts in the subtree of the topic at `path`, if there is one.
    private static func facts(_ db: Database, namespace: String, under path: String) throws -> [Fact] {
        guard let path = try? TopicPath(validating: path),
            let root = try TopicTable.find(db, namespace: namespace, path: path)
        else { return [] }
        return try FactTable.facts(db, inTopics: try TopicTable.subtree(db, namespace: namespace, root: root).map(\.id))
    }

    /// The topic move an event of the feed records, if it is one (see ``SyncTopicMove``).
    private static func topicMove(_ db: Database, event: ChangeEvent) throws -> SyncTopicMove? {
        guard
            let details = try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT h.details FROM feed_event e JOIN history h ON h.id = e.history_id AND h.namespace = e.namespace
                        WHERE e.seq = ? AND h.topic_id IS e.topic_id
                        """), arguments: [event.cursor.sequence])
        else { return nil }
        return SyncTopicMove(
            kind: event.kind,
            details: (try? JSONDecoder().decode([String: String].self, from: Data(details.utf8))) ?? [:])
    }

    /// Whether a change may give a device a wording it has no vector for: only these carry the
    /// server's vector (a device embeds what comes without one). The other changes of a fact
    /// (a mention, an edit of its importance or topic, a move) come after one of these, so the
    /// device has the vector already: shipping it again cost about 2 KB per change for nothing.
    private static func mayBringNewWording(_ event: ChangeEvent) -> Bool {
        switch event.kind {
        case .factAdded, .factRestored, .factMerged: true
        case .factUpdated: event.fields.contains("content")
        default: false
        }
    }

}

/// One push's writes on the server, inside its transaction.
struct SyncServerWrite {
    let db: Database
    let namespace: String
    let now: Date
    var matcher: NearDuplicateMatcher?
    /// The namespace's topic moves, oldest first, read from its history when an operation
    /// first names a path that is not there.
    private var moves: [SyncTopicMove]?
    /// The content keys of the namespace's deleted facts, read from their history when an
    /// offered fact is first checked against them.
    private var deletedKeys: Set<String>?

    init(db: Database, namespace: String, now: Date, matcher: NearDuplicateMatcher?) {
        self.db = db
        self.namespace = namespace
        self.now = now
        self.matcher = matcher
    }

    mutating func apply(_ operation: SyncOperation, embedding: [Float]?) throws -> SyncAnswer {
        if operation.kind == .moveTopic {
            // Validated: both paths are there.
            let move = SyncTopicMove(from: operation.from ?? "", to: operation.to ?? "")
            let moved = try move.apply(db, namespace: namespace, now: now)
            moves = nil
            return SyncAnswer(operation: operation.id, outcome: moved ? .updated : .unknown, uid: operation.uid)
        }
        var operation = operation
        if let path = operation.fact?.topic, operation.kind != .update || operation.fields?.contains("topic") == true {
            operation.fact?.topic = try relocated(path)
        }
        // A uid merged away once may be a fact again (brought back by an undo): then it is itself.
        let uid =
            try SyncStore.fact(db, namespace: namespace, uid: operation.uid) != nil
            ? operation.uid : try SyncStore.resolvedUID(db, namespace: namespace, uid: operation.uid)
        func answer(_ outcome: SyncAnswer.Outcome, _ uid: String = uid) -> SyncAnswer {
            SyncAnswer(operation: operation.id, outcome: outcome, uid: uid)
        }
        if try SyncStore.isErased(db, namespace: namespace, uid: uid) { return answer(.gone) }
        let stored = try SyncStore.fact(db, namespace: namespace, uid: uid)
        let departed = stored == nil ? try SyncStore.departedID(db, namespace: namespace, uid: uid) : nil
        switch operation.kind {
        case .add:
            if let stored {
                // An offered fact is one the server may hold already: holding it is no new mention.
                if operation.offered != true {
                    try FactTable.recordMention(db, of: stored, sources: operation.fact?.sources ?? [], now: now)
                }
                return answer(.unchanged)
            }
            if departed != nil { return answer(.refused) }
            if operation.offered == true, let outcome = try departedWording(of: operation.fact!) {
                return answer(outcome)
            }
            return try add(operation, embedding: embedding)
        case .restore:
            if let stored {
                try update(stored, operation.fact!, fields: SyncFact.fieldNames, embedding: embedding)
                return answer(.updated)
            }
            let added = try add(operation, embedding: embedding)
            return added.outcome == .added ? answer(.restored, added.uid) : added
        case .update:
            guard let stored else { return answer(departed == nil ? .unknown : .refused) }
            try update(stored, operation.fact!, fields: operation.fields ?? [], embedding: embedding)
            return answer(.updated)
        case .delete:
            guard let stored else { return answer(departed == nil ? .unknown : .deleted) }
            try OperationLog.record(
                db, namespace: namespace, kind: .deleteFact, summary: "deleted fact #\(stored.id) (synced)"
            ) {
                try FactTable.delete(db, stored, now: now)
            }
            matcher?.didRemove(stored.id)
            return answer(.deleted)
        case .erase:
            guard let id = stored?.id ?? departed else { return answer(.unknown) }
            _ = try FactEraser.erase(db, namespace: namespace, ids: [id], reason: .requested, now: now)
            matcher?.didRemove(id)
            return answer(.erased)
        case .moveTopic:
            return answer(.unknown)
        }
    }

    /// Whether the wording of an offered fact is one the server erased (``SyncAnswer/Outcome/gone``)
    /// or deleted (``SyncAnswer/Outcome/refused``) and holds no more.
    ///
    /// An offered fact comes from a file that held it before it linked, or from a repair: a copy
    /// of a fact under a uid of its own, not a new saying of it. Without this check a file that
    /// held facts before its first link would bring back what the server's users erased or
    /// deleted. A fact written anew (a plain add) is the user's saying it again and is not checked.
    private mutating func departedWording(of fact: SyncFact) throws -> SyncAnswer.Outcome? {
        let key = TextNormalization.factKey(fact.content)
        guard try FactTable.find(db, namespace: namespace, contentKey: key) == nil else { return nil }
        if try ErasedContent.contains(db, namespace: namespace, contentKey: key) { return .gone }
        if deletedKeys == nil {
            let contents = try String.fetchAll(
                db,
                sql: """
                    SELECT json_extract(details, '$.content') FROM history
                    WHERE namespace = ? AND event = ? AND json_extract(details, '$.content') IS NOT NULL
                    """, arguments: [namespace, HistoryEvent.Kind.deleted.rawValue])
            deletedKeys = Set(contents.map(TextNormalization.factKey))
        }
        return deletedKeys?.contains(key) == true ? .refused : nil
    }

    /// Where a path the operation names is now: a path that is not here but that a rename, move
    /// or merge moved since (the device made the operation before it heard of the move) is
    /// followed through every later move, with the subtopics under it.
    private mutating func relocated(_ text: String) throws -> String {
        guard let path = try? TopicPath(validating: text),
            try TopicTable.find(db, namespace: namespace, path: path) == nil
        else { return text }
        if moves == nil {
            moves = try Row.fetchAll(
                db,
                sql: """
                    SELECT event, details FROM history
                    WHERE namespace = ? AND topic_id IS NOT NULL AND event IN ('topic_renamed', 'topic_moved', 'topic_merged')
                    ORDER BY id
                    """, arguments: [namespace]
            ).compactMap { row in
                let details =
                    (try? JSONDecoder().decode([String: String].self, from: Data((row[1] as String).utf8))) ?? [:]
                return ChangeEvent.Kind(rawValue: row[0]).flatMap { SyncTopicMove(kind: $0, details: details) }
            }
        }
        var segments = path.segments
        for move in moves ?? [] {
            guard let from = try? TopicPath(validating: move.from), let to = try? TopicPath(validating: move.to),
                from.depth <= segments.count,
                TopicPath(validSegments: Array(segments.prefix(from.depth))).key == from.key
            else { continue }
            segments = to.segments + segments.dropFirst(from.depth)
        }
        return TopicPath(validSegments: segments).description
    }

    /// Adds the operation's fact through the server's duplicate rules.
    private mutating func add(_ operation: SyncOperation, embedding: [Float]?) throws -> SyncAnswer {
        let fact = try operation.fact!.validated(embedding: embedding)
        // An offered fact the server holds with all its sources (the same import on both sides,
        // a device restored or repaired) is no new mention; with sources the server lacks, it
        // is another device's saying it, as a plain add is.
        var repeats = RepeatPolicy.countMention
        if operation.offered == true,
            let held = try FactTable.find(db, namespace: namespace, contentKey: fact.contentKey),
            Set(operation.fact!.sources).isSubset(of: Set(held.sources))
        {
            repeats = .leaveUnchanged
        }
        let written = try FactWriter.store(
            db, batch: [(namespace, fact)], now: now, matcher: &matcher, repeats: repeats)
        guard let outcome = written.outcomes.first ?? nil else {
            throw MnemoError.storageFailure(
                StorageFailure(resultCode: -1, extendedResultCode: -1, message: "sync add stored nothing"))
        }
        switch outcome {
        case .added(let added):
            return SyncAnswer(operation: operation.id, outcome: .added, uid: added.uid)
        case .merged(let survivor):
            try SyncStore.saveAlias(db, namespace: namespace, uid: operation.uid, into: survivor.uid)
            return SyncAnswer(operation: operation.id, outcome: .merged, uid: survivor.uid)
        case .unchanged(let existing):
            try SyncStore.saveAlias(db, namespace: namespace, uid: operation.uid, into: existing.uid)
            return SyncAnswer(operation: operation.id, outcome: .unchanged, uid: existing.uid)
        }
    }

    /// Gives `stored` the pushed state's values of `fields`, recording each change in its history.
    private mutating func update(_ stored: Fact, _ state: SyncFact, fields: some Sequence<String>, embedding: [Float]?)
        throws
    {
        var (update, isActive) = try state.update(fields: fields)
        var fact = stored
        if let content = update.content,
            let other = try FactTable.find(db, namespace: namespace, contentKey: TextNormalization.factKey(content)),
            other.id != stored.id
        {
            // The new wording is already another fact: the other fields still apply, the
            // content does not make two facts of one.
            update.content = nil
        }
        if !update.isEmpty {
            fact = try FactUpdater(db: db, fact: fact, now: now, embedding: embedding).apply(update)
            if update.content != nil { matcher?.didRemove(stored.id) }
        }
        if let isActive { _ = try FactTable.setActive(db, fact, isActive, now: now) }
    }
}
