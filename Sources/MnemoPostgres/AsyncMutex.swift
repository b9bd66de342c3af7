import Mnemo

/// A lock that suspends instead of blocking, first come first served: one task at a time
/// catches a copy up or writes it, so a copy's version always says what it holds.
actor AsyncMutex {
    /// Whether the holder works on the copy with its deadline stopped (so do the waiters').
    nonisolated let copyWork = CopyWork()
    private var isLocked = false
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextWaiter: UInt64 = 0

    /// Runs `body` holding the lock.
    /// - Throws: `CancellationError` when the task is cancelled while it waits (its deadline
    ///   passed behind an access that waits for PostgreSQL): it gives up at once instead of when
    ///   the lock comes free.
    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await lock()
        do {
            try Task.checkCancellation() // cancelled as the lock was handed over
            let value = try await body()
            unlock()
            return value
        } catch {
            unlock()
            throw error
        }
    }

    private func lock() async throws {
        guard isLocked else {
            isLocked = true
            return
        }
        let id = nextWaiter
        nextWaiter += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.stopWaiting(id) }
        }
    }

    /// Lets waiter `id` go without the lock, unless the lock was handed to it already.
    private func stopWaiting(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    private func unlock() {
        if waiters.isEmpty { isLocked = false } else { waiters.removeFirst().continuation.resume() }
    }
}

/// One mutex per namespace, for the life of the node.
final class NamespaceMutexes: Sendable {
    private let mutexes = Locked<[String: AsyncMutex]>([:])

    func mutex(for namespace: String) -> AsyncMutex {
        mutexes.withLock { mutexes in
            if let mutex = mutexes[namespace] { return mutex }
            let mutex = AsyncMutex()
            mutexes[namespace] = mutex
            return mutex
        }
    }
}
