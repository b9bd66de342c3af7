/// The checks of one namespace's version in the store, shared by the requests that arrive
/// together. A request waits for a check that is sent after it arrived, so it sees every write
/// acknowledged before it; every request that arrives while one check is on the wire shares the
/// next one. Under load a node sends one query per round trip instead of one per request.
actor VersionCheck {
    private let query: @Sendable () async throws -> PostgresMemory.Head
    /// The check created but not sent yet: a request that arrives now may share it.
    private var unsent: (id: Int, task: Task<PostgresMemory.Head, any Error>)?
    /// The latest check, which the next one waits for (one on the wire at a time).
    private var latest: Task<PostgresMemory.Head, any Error>?
    private var count = 0

    init(_ query: @escaping @Sendable () async throws -> PostgresMemory.Head) {
        self.query = query
    }

    /// The namespace's version as of a check sent after this call began.
    func current() async throws -> PostgresMemory.Head {
        if let unsent { return try await unsent.task.value }
        count += 1
        let id = count
        let previous = latest
        let task = Task {
            _ = try? await previous?.value
            sending(id)
            return try await query()
        }
        unsent = (id, task)
        latest = task
        return try await task.value
    }

    private func sending(_ id: Int) {
        if unsent?.id == id { unsent = nil }
    }
}
