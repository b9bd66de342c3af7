import Mnemo

/// A lock that suspends instead of blocking, first come first served: one task at a time
/// catches a copy up or writes it, so a copy's version always says what it holds.
actor AsyncMutex {
    /// Whether the holder works on the copy with its deadline stopped (so do the waiters').
    nonisolated let copyWork = CopyWork()
    private var isLocked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await lock()
        do {
            try Task.checkCancellation() // gave up (a deadline) while waiting
            let value = try await body()
            unlock()
            return value
        } catch {
            unlock()
            throw error
        }
    }

    private func lock() async {
        guard isLocked else {
            isLocked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func unlock() {
        if waiters.isEmpty { isLocked = false } else { waiters.removeFirst().resume() }
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
