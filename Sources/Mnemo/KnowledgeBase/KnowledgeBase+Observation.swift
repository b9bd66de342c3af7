import GRDB

extension KnowledgeBase {
    /// The facts that pass `filter` (most important and newest first), now and again after
    /// every commit that changes them, from this or any other connection to the database.
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
    /// The first value comes at once; later values come after commits that touch the `fact`
    /// or `topic` tables (GRDB may coalesce several commits into one value, and may repeat an
    /// unchanged value). Iteration ends when the task is cancelled; a database failure ends it
    /// with a ``MnemoError``.
    public func observeFacts(matching filter: FactFilter = FactFilter(), limit: Int = 100) -> AsyncThrowingStream<
        [Fact], any Error
    > {
        stream(factsObservation(matching: filter, limit: limit))
    }

    /// ``stats()``, now and after every commit that changes it.
    public func observeStats() -> AsyncThrowingStream<KnowledgeBaseStats, any Error> {
        let namespace = namespace
        return stream(ValueObservation.tracking { db in try StatisticsQuery.stats(db, namespace: namespace) })
    }

    /// ``topicTree()``, now and after every commit that changes it.
    public func observeTopicTree() -> AsyncThrowingStream<[TopicNode], any Error> {
        let namespace = namespace
        return stream(ValueObservation.tracking { db in try TopicTable.tree(db, namespace: namespace) })
    }

    /// The GRDB observation behind ``observeFacts(matching:limit:)``, for an app that already
    /// works with GRDB's observations (`ValueObservation.start(in:onError:onChange:)`, Combine
    /// publishers, GRDBQuery): start it in ``databaseWriter``.
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

    /// Bridges a GRDB observation to an `AsyncThrowingStream` whose errors are ``MnemoError``s.
    private func stream<Value: Sendable>(_ observation: ValueObservation<ValueReducers.Fetch<Value>>)
        -> AsyncThrowingStream<Value, any Error>
    {
        let values = observation.values(in: writer.base)
        return AsyncThrowingStream { continuation in
            // The stream's one producer; it ends with the stream (cancelled on termination).
            let producer = Task {
                do {
                    for try await value in values { continuation.yield(value) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: MnemoError(error))
                }
            }
            continuation.onTermination = { _ in producer.cancel() }
        }
    }
}
