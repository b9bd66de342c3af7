import Foundation
import GRDB

extension KnowledgeBase {
    /// The position of the namespace's change feed now: follow from it to see only what comes.
    public func currentCursor() async throws -> ChangeCursor {
        try Task.checkCancellation()
        // One index probe, on the calling thread as searches read (see `readNow(_:)`), in one
        // statement. (A server's answers note theirs in their own reads: see `AnswerCursor`.)
        return try writer.readOneStatement { db in
            ChangeCursor(sequence: try FeedTable.lastNumber(db), namespace: namespace)
        }
    }

    /// Reads a cursor that an app kept as text (``ChangeCursor/description``).
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` (field `cursor`) when the text is not
    ///   a cursor or is one of another namespace.
    public func cursor(_ text: String) throws -> ChangeCursor {
        guard let cursor = ChangeCursor(parsing: text) else {
            throw MnemoError.invalidInput(
                field: "cursor", reason: "\"\(text.prefix(64))\" is not a change cursor (such as 1042-9f1c2a7e)")
        }
        try check(cursor)
        return cursor
    }

    /// The namespace's changes after `cursor`, oldest first: at most `limit` events, plus the rest
    /// of the last one's transaction (the events of one transaction always come together).
    ///
    /// Start from a ``snapshot()``'s cursor, or from `nil` (the beginning of the feed) to rebuild
    /// the memory from events alone while the feed still holds them all.
    /// - Throws: ``MnemoError/cursorExpired(namespace:)`` when events after `cursor` were
    ///   pruned (read the snapshot again); ``MnemoError/invalidInput(field:reason:)`` (field
    ///   `cursor`) for a cursor of another namespace or another store, and (field `limit`) for a
    ///   limit below 1.
    public func changes(after cursor: ChangeCursor? = nil, limit: Int = 500) async throws -> ChangePage {
        guard limit >= 1 else {
            throw MnemoError.invalidInput(field: "limit", reason: "\(limit) is below 1")
        }
        let namespace = namespace
        let cursor = cursor ?? ChangeCursor(sequence: 0, namespace: namespace)
        try check(cursor)
        return try await writer.read { db in
            try Self.validateInStore(cursor, namespace: namespace, db)
            let stored = try FeedTable.events(db, namespace: namespace, after: cursor.sequence, limit: limit)
            let events = try Self.resolve(stored, namespace: namespace, db)
            let next = stored.last.map { ChangeCursor(sequence: $0.sequence, namespace: namespace) } ?? cursor
            let hasMore = try FeedTable.latestSequence(db, namespace: namespace) > next.sequence
            return ChangePage(events: events, next: next, hasMore: hasMore)
        }
    }

    /// The namespace's changes as they are committed, from this process, another process on
    /// the same file, or another node of a shared store: one page per transaction or more.
    ///
    /// The stream starts after `cursor` (catching up first), or with the next commit when
    /// `cursor` is `nil`. It is pulled: a consumer that stops reading holds nothing back and
    /// grows no buffer. It ends when its task is cancelled, and throws what
    /// ``changes(after:limit:)`` throws, such as ``MnemoError/cursorExpired(namespace:)`` for a
    /// consumer that fell behind the feed's window.
    ///
    /// ```swift
    /// let snapshot = try await kb.snapshot() // every fact and the tree, with their cursor
    /// var facts = Dictionary(uniqueKeysWithValues: snapshot.facts.map { ($0.id, $0) })
    /// for try await page in kb.changeStream(after: snapshot.cursor) {
    ///     for event in page.events {
    ///         guard let id = event.factID else { continue }
    ///         facts[id] = event.fact // nil when the fact no longer exists
    ///     }
    ///     saved = page.next // resume from here next time
    ///     if facts.count >= wanted { break }
    /// }
    /// ```
    public func changeStream(after cursor: ChangeCursor? = nil) -> AsyncThrowingStream<ChangePage, any Error> {
        let follower = ChangeFollower(knowledgeBase: self, cursor: cursor)
        return AsyncThrowingStream(unfolding: { try await follower.nextPage() })
    }

    /// Every fact and the topic tree of the namespace with the feed cursor they reflect, read in
    /// one transaction: following the feed from ``MemorySnapshot/cursor`` misses nothing.
    public func snapshot() async throws -> MemorySnapshot {
        let namespace = namespace
        return try await writer.read { db in
            var facts: [Fact] = []
            try FactTable.forEach(db, namespace: namespace) { facts.append($0) }
            return MemorySnapshot(
                facts: facts, topics: try TopicTable.tree(db, namespace: namespace),
                cursor: ChangeCursor(sequence: try FeedTable.lastNumber(db), namespace: namespace))
        }
    }

    /// ``changes(after:limit:)`` for a follower, which the check after each change has woken:
    /// the followers at the same place share one read of the page.
    func sharedChanges(after cursor: ChangeCursor, limit: Int) async throws -> ChangePage {
        let key = FeedSignal.PageKey(namespace: namespace, after: cursor.sequence, limit: limit)
        return try await writer.feed.sharedPage(key) { try await self.changes(after: cursor, limit: limit) }
    }

    /// Wake-ups after each commit that adds events to this namespace's feed.
    func followFeed() async throws -> FeedSubscription {
        try await writer.feed.follow(namespace: namespace)
    }

    private func check(_ cursor: ChangeCursor) throws {
        guard cursor.belongs(to: namespace) else {
            throw MnemoError.invalidInput(
                field: "cursor", reason: "\(cursor) is a cursor of another namespace than \"\(namespace)\"")
        }
    }

    private static func validateInStore(_ cursor: ChangeCursor, namespace: String, _ db: Database) throws {
        let latest = try FeedTable.lastNumber(db)
        guard cursor.sequence <= latest else {
            throw MnemoError.invalidInput(
                field: "cursor",
                reason:
                    "\(cursor) is ahead of this store's feed (its latest event is \(latest)): it was made by another store"
            )
        }
        guard cursor.sequence >= (try FeedTable.horizon(db, namespace: namespace)) else {
            throw MnemoError.cursorExpired(namespace: namespace)
        }
    }

    /// The stored events with their facts' and topics' present states.
    private static func resolve(_ stored: [FeedTable.StoredEvent], namespace: String, _ db: Database) throws
        -> [ChangeEvent]
    {
        let facts = try FactTable.facts(db, namespace: namespace, ids: Array(Set(stored.compactMap(\.factID))))
        var topics: [Int64: Topic] = [:]
        for id in Set(stored.compactMap(\.topicID)) {
            if let topic = try TopicTable.find(db, id: id), topic.namespace == namespace { topics[id] = topic }
        }
        return stored.map { event in
            ChangeEvent(
                kind: event.kind, cursor: ChangeCursor(sequence: event.sequence, namespace: namespace),
                transaction: event.transaction, date: event.date, factID: event.factID, topicID: event.topicID,
                relatedFactID: event.relatedID,
                fields: event.kind == .factUpdated ? event.details.keys.sorted() : [],
                fact: event.kind == .factErased ? nil : event.factID.flatMap { facts[$0] },
                topic: event.topicID.flatMap { topics[$0] })
        }
    }
}

/// A follower of a namespace's change feed: where it is, and its wake-ups. What
/// ``KnowledgeBase/changeStream(after:)`` pulls from, and what a server's long poll and event
/// stream hold for as long as their client stays.
package final class ChangeFollower: @unchecked Sendable {
    // One task at a time reads the next page (a stream's consumer, a request's handler).
    private let knowledgeBase: KnowledgeBase
    private var cursor: ChangeCursor?
    private var subscription: FeedSubscription?
    /// Whether the feed may hold events past the cursor that no wake-up will announce: at the
    /// start, and after a page cut short by its limit. Otherwise the next read waits for a
    /// wake-up, so that commits landing while the follower was busy come together in one page
    /// (the feed's spacing of wake-ups) rather than one page each.
    private var readsBeforeWaiting = true

    /// Follows from `cursor`, or from the next commit when it is `nil`.
    package init(knowledgeBase: KnowledgeBase, cursor: ChangeCursor?) {
        self.knowledgeBase = knowledgeBase
        self.cursor = cursor
    }

    /// Where the follower is: the cursor of the last event it returned.
    package func position() async throws -> ChangeCursor {
        try await start()
    }

    /// The next page of at most `limit` events (whole transactions), waiting for one up to
    /// `timeout` (for ever when `nil`): an empty page when the time ran out; `nil` when the task
    /// was cancelled.
    package func nextPage(limit: Int = 500, waitingUpTo timeout: Duration? = nil) async throws -> ChangePage? {
        let start = try await start()
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var position = start
        while true {
            if readsBeforeWaiting {
                let page = try await knowledgeBase.sharedChanges(after: position, limit: limit)
                position = page.next
                cursor = position
                readsBeforeWaiting = page.hasMore
                if !page.events.isEmpty { return page }
            }
            switch await wake(before: deadline) {
            case .rung: readsBeforeWaiting = true
            case .timedOut: return ChangePage(events: [], next: position, hasMore: false)
            case .closed: return nil
            }
        }
    }

    private func start() async throws -> ChangeCursor {
        if subscription == nil {
            // Follow before the first read, so that no commit falls between the two.
            subscription = try await knowledgeBase.followFeed()
        }
        if let cursor { return cursor }
        let now = try await knowledgeBase.currentCursor()
        cursor = now
        return now
    }

    private func wake(before deadline: ContinuousClock.Instant?) async -> FeedAlarm.Outcome {
        guard let subscription else { return .closed }
        return await subscription.next(before: deadline)
    }
}

extension KnowledgeBase {
    /// The cursor before the namespace's first event.
    package var feedOrigin: ChangeCursor { ChangeCursor(sequence: 0, namespace: namespace) }
}

extension KnowledgeBase {
    /// Prunes the namespace's change feed as ``purge(now:undoOlderThan:)`` does, with another
    /// number of events kept whatever their age (tests prune a short feed).
    package func pruneChanges(olderThan cutoff: Date, keeping: Int) async throws -> Int {
        let namespace = namespace
        return try await writer.write { db in
            try FeedTable.prune(db, namespace: namespace, olderThan: cutoff, keeping: keeping)
        }
    }
}
