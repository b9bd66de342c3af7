import GRDB

extension KnowledgeBase {
    /// The facts that pass `filter` (most important and newest first), now and again after
    /// every commit that changes the namespace's memory: this knowledge base's, another
    /// `KnowledgeBase`'s on the same file, another process's, or another node's of a shared store.
    ///
    /// A SwiftUI view model awaits it:
    ///
    /// ```swift
    /// @MainActor @Observable final class MemoryModel {
    ///     var facts: [Fact] = []
    ///     func watch(_ kb: KnowledgeBase) async throws {
    ///         for try await facts in kb.observeFacts() { self.facts = facts }
    ///     }
    /// }
    /// ```
    ///
    /// The first value comes at once; later values come after the commits that add events to
    /// the namespace's change feed (``changeStream(after:)``): at once for commits of this
    /// knowledge base's connections, within a fifth of a second for those of other connections
    /// and processes. Several commits may come as one value, and a value equal to the last one
    /// is not repeated. The stream is pulled: values that are not read are not computed.
    /// Iteration ends when the task is cancelled; a database failure ends it with a
    /// ``MnemoError``.
    public func observeFacts(matching filter: FactFilter = FactFilter(), limit: Int = 100) -> AsyncThrowingStream<
        [Fact], any Error
    > {
        let namespace = namespace
        return observe { db in
            try FactTable.list(db, namespace: namespace, filter: filter, limit: max(0, limit), offset: 0)
        }
    }

    /// ``stats()``, now and after every commit that changes it (as ``observeFacts(matching:limit:)``).
    public func observeStats() -> AsyncThrowingStream<KnowledgeBaseStats, any Error> {
        let namespace = namespace
        return observe { db in try StatisticsQuery.stats(db, namespace: namespace) }
    }

    /// ``topicTree()``, now and after every commit that changes it (as
    /// ``observeFacts(matching:limit:)``).
    public func observeTopicTree() -> AsyncThrowingStream<[TopicNode], any Error> {
        let namespace = namespace
        return observe { db in try TopicTable.tree(db, namespace: namespace) }
    }

    /// The GRDB observation behind ``observeFacts(matching:limit:)``, for an app that already
    /// works with GRDB's observations (`ValueObservation.start(in:onError:onChange:)`, Combine
    /// publishers, GRDBQuery): start it in ``databaseWriter``. A GRDB observation is told of the
    /// commits of the writer it runs in only: another process's or another `KnowledgeBase`'s
    /// commit reaches it with that writer's next commit. ``observeFacts(matching:limit:)`` sees
    /// them all.
    public func factsObservation(matching filter: FactFilter = FactFilter(), limit: Int = 100) -> ValueObservation<
        ValueReducers.Fetch<[Fact]>
    > {
        let namespace = namespace
        return ValueObservation.tracking { db in
            try FactTable.list(db, namespace: namespace, filter: filter, limit: max(0, limit), offset: 0)
        }
    }

    /// The GRDB database writer behind this knowledge base, for GRDB observations and for
    /// reading Mnemo's tables alongside the app's own. Write through the knowledge base's
    /// methods only: they keep the full-text index, the vectors and the history consistent.
    public var databaseWriter: any DatabaseWriter { writer.base }

    /// Values of `fetch`, now and after each commit that adds events to the namespace's feed.
    private func observe<Value: Sendable & Equatable>(_ fetch: @escaping @Sendable (Database) throws -> Value)
        -> AsyncThrowingStream<Value, any Error>
    {
        let observation = FeedObservation(knowledgeBase: self, fetch: fetch)
        return AsyncThrowingStream(unfolding: { try await observation.next() })
    }
}

/// The state of one observation stream: its last value and its wake-ups.
private final class FeedObservation<Value: Sendable & Equatable>: @unchecked Sendable {
    // The stream's consumer calls `next` from one task at a time.
    private let knowledgeBase: KnowledgeBase
    private let fetch: @Sendable (Database) throws -> Value
    private var subscription: FeedSubscription?
    private var last: Value?

    init(knowledgeBase: KnowledgeBase, fetch: @escaping @Sendable (Database) throws -> Value) {
        self.knowledgeBase = knowledgeBase
        self.fetch = fetch
    }

    func next() async throws -> Value? {
        if subscription == nil {
            // Follow before the first read, so that no commit falls between the two.
            subscription = try await knowledgeBase.followFeed()
        }
        guard let subscription else { return nil }
        while await subscription.next() {
            let value = try await knowledgeBase.writer.read(fetch)
            if value != last {
                last = value
                return value
            }
        }
        return nil
    }
}
