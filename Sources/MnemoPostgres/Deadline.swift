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
    return try await withThrowingTaskGroup(of: DeadlineRace<T>.self) { group in
        group.addTask { .finished(try await Deadline.$current.withValue(deadline) { try await body() }) }
        group.addTask {
            do {
                try await deadline.expire()
                return .expired
            } catch {
                return .timerStopped
            }
        }
        defer { group.cancelAll() }
        while let outcome = try await group.next() {
            switch outcome {
            case .finished(let value): return value
            case .expired: throw MnemoError.storageUnavailable(reason: "\(what) did not finish within \(limit)")
            // The task was cancelled: the body decides how it ends, since a write it committed
            // must be reported as such.
            case .timerStopped: continue
            }
        }
        throw CancellationError()
    }
}

/// How the two tasks of ``withDeadline(_:_:sharing:_:)`` end.
private enum DeadlineRace<T: Sendable>: Sendable {
    case finished(T)
    case expired
    case timerStopped
}

/// The time accesses spend working on a namespace's copy with their deadline stopped: the
/// accesses waiting for that namespace stop theirs too, since they wait for the node, not the
/// server. An access that serialises on no namespace has one of its own.
final class CopyWork: Sendable {
    private struct State {
        var workers = 0
        var busySince: ContinuousClock.Instant?
        var total = Duration.zero
    }

    private let state = Locked(State())

    /// The time spent working so far, the work under way included.
    func busyTime(at now: ContinuousClock.Instant) -> Duration {
        state.withLock { state in state.total + (state.busySince.map { now - $0 } ?? .zero) }
    }

    fileprivate func begin() {
        state.withLock { state in
            if state.workers == 0 { state.busySince = .now }
            state.workers += 1
        }
    }

    fileprivate func end() {
        state.withLock { state in
            state.workers -= 1
            if state.workers == 0, let since = state.busySince {
                state.total += .now - since
                state.busySince = nil
            }
        }
    }
}

/// The time left for the PostgreSQL part of an access: its limit, from its start or from the
/// last rows that arrived, plus all the time spent on the copy meanwhile (counted exactly, however
/// late the task that watches the deadline runs).
final class Deadline: Sendable {
    @TaskLocal static var current: Deadline?

    private let limit: Duration
    private let work: CopyWork
    private let workAtStart: Duration
    private let end: Locked<ContinuousClock.Instant>

    init(_ limit: Duration, sharing work: CopyWork? = nil) {
        let now = ContinuousClock.now
        self.limit = limit
        self.work = work ?? CopyWork()
        workAtStart = self.work.busyTime(at: now)
        end = Locked(now + limit)
    }

    /// When the time is up, as of `now`.
    func expiry(at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        end.withLock { $0 } + (work.busyTime(at: now) - workAtStart)
    }

    /// Returns when the time is up (throws when cancelled first). The expiry only ever moves
    /// later (rows arrive, work on the copy goes on), so sleeping until it and looking again is
    /// never late.
    func expire() async throws {
        while true {
            let expiry = expiry(at: .now)
            if ContinuousClock.now >= expiry { return }
            try await Task.sleep(until: expiry, clock: .continuous)
        }
    }

    /// Starts the current deadline's time again: PostgreSQL is sending rows, so it answers. A
    /// large namespace takes longer than the limit to arrive; only a wait without rows counts.
    static func progressed() {
        guard let deadline = current else { return }
        let now = ContinuousClock.now
        let worked = deadline.work.busyTime(at: now) - deadline.workAtStart
        deadline.end.withLock { $0 = max($0, now + deadline.limit - worked) }
    }

    /// Runs `work` (on the node's copy) with the current deadline's clock stopped.
    static func excluding<T>(_ work: () async throws -> T) async rethrows -> T {
        guard let deadline = current else { return try await work() }
        deadline.work.begin()
        defer { deadline.work.end() }
        return try await work()
    }
}
