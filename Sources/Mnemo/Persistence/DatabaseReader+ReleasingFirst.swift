import GRDB

extension DatabaseReader {
    /// A read in a transaction of its own whose connection goes back to the pool before the
    /// calling task resumes.
    ///
    /// GRDB's async `read` gives its connection back only when the task runs again, on a thread
    /// of the cooperative pool. Searches read on their task's thread (`KnowledgeBase.readNow`),
    /// so under load every such thread could wait for a connection that only a waiting task
    /// could give back: the process hung. `asyncRead` gives the connection back on its own queue.
    /// A cancelled task's read throws `CancellationError` before it starts.
    package func readReleasingFirst<T: Sendable>(
        _ value: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { continuation in
            asyncRead { database in
                continuation.resume(with: Result { try value(database.get()) })
            }
        }
    }
}
