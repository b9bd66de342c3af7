import Mnemo

/// Runs `body`, giving up with ``MnemoError/storageUnavailable(reason:)`` after `limit` of
/// waiting for PostgreSQL: a request never waits on a server that stopped answering longer than
/// that. Rows arriving count as an answer (``Deadline/progressed()``), and work on the node's
/// copy does not count (``Deadline/excluding(_:)``): loading or catching up a large namespace,
/// or a large write, takes what it takes — for this access and for the accesses of `namespace`
/// that wait for it (``CopyWork``). The body is cancelled, so a write that was not committed is
/// rolled back by the server.
func withDeadline<T: Sendable>(
    _ limit: Duration, _ what: String, sharing work: CopyWork? = nil, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let deadline = Deadline(limit, sharing: work)
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await Deadline.$current.withValue(deadline) { try await body() } }
        group.addTask {
            try await deadline.expire()
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw MnemoError.storageUnavailable(reason: "\(what) did not finish within \(limit)")
        }
        return value
    }
}

/// Whether some access is working on a namespace's copy with its clock stopped: the accesses
/// waiting for that namespace stop theirs too, since they wait for the node, not the server.
final class CopyWork: Sendable {
    private let workers = Locked(0)

    var isBusy: Bool { workers.withLock { $0 > 0 } }

    fileprivate func begin() { workers.withLock { $0 += 1 } }
    fileprivate func end() { workers.withLock { $0 -= 1 } }
}

/// The time left for the PostgreSQL part of an access, which stops while the node works on a
/// copy.
final class Deadline: Sendable {
    @TaskLocal static var current: Deadline?

    private struct State {
        var end: ContinuousClock.Instant
        var paused = 0
    }

    private let limit: Duration
    private let work: CopyWork?
    private let state: Locked<State>

    init(_ limit: Duration, sharing work: CopyWork? = nil) {
        self.limit = limit
        self.work = work
        state = Locked(State(end: .now + limit))
    }

    /// Returns when the time is up (throws when cancelled first). It looks every 50 ms, and
    /// moves the end by the time it spent stopped.
    func expire() async throws {
        var last = ContinuousClock.now
        while true {
            let now = ContinuousClock.now
            let isStopped = work?.isBusy == true
            let end = state.withLock { state in
                if state.paused > 0 || isStopped { state.end += now - last }
                return state.end
            }
            last = now
            if now >= end { return }
            try await Task.sleep(for: min(end - now, .milliseconds(50)))
        }
    }

    /// Starts the current deadline's time again: PostgreSQL is sending rows, so it answers. A
    /// large namespace takes longer than the limit to arrive; only a wait without rows counts.
    static func progressed() {
        guard let deadline = current else { return }
        deadline.state.withLock { $0.end = max($0.end, .now + deadline.limit) }
    }

    /// Runs `work` (on the node's copy) with the current deadline's clock stopped.
    static func excluding<T>(_ work: () async throws -> T) async rethrows -> T {
        guard let deadline = current else { return try await work() }
        deadline.state.withLock { $0.paused += 1 }
        deadline.work?.begin()
        defer {
            deadline.work?.end()
            deadline.state.withLock { $0.paused -= 1 }
        }
        return try await work()
    }
}
