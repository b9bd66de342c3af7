import GRDB
import Mnemo

/// One write of a namespace waiting for its group's commit: the engine's updates, and then
/// their outcome.
final class GroupedWrite: @unchecked Sendable {
    // Guarded by `lock`; `updates` is set once, then read and dropped by the one task that leads
    // the group (the caller's closure must not outlive its call, see `PostgresMemory.write`).
    private let lock = Locked<State>(State())
    private var updates: ((Database) throws -> any Sendable)?

    private struct State {
        var outcome: Result<any Sendable, any Error>?
        var waiter: CheckedContinuation<any Sendable, any Error>?
    }

    init(_ updates: @escaping (Database) throws -> any Sendable) {
        self.updates = updates
    }

    /// Runs the updates on the copy (in the group's transaction, inside a savepoint of their
    /// own), once; the closure is dropped after.
    func run(_ db: Database) throws -> any Sendable {
        guard let updates else { throw CancellationError() }
        defer { self.updates = nil }
        return try updates(db)
    }

    func finish(_ outcome: Result<any Sendable, any Error>) {
        updates = nil
        let waiter = lock.withLock { state -> CheckedContinuation<any Sendable, any Error>? in
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: outcome)
    }

    /// The outcome, once the group that took this write committed or failed.
    var value: any Sendable {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = lock.withLock { state -> Result<any Sendable, any Error>? in
                    if state.outcome == nil { state.waiter = continuation }
                    return state.outcome
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        }
    }
}

/// The writes of each namespace queued on this node, committed in groups: the first write to
/// arrive while none is being committed leads; it takes every write queued behind it (up to
/// `maximumGroup`) and commits them in one PostgreSQL transaction and one transaction of the
/// copy, then hands the lead to the next queued write, if any.
final class WriteGroups: Sendable {
    /// The most writes committed together.
    let maximumGroup: Int

    init(maximumGroup: Int) {
        self.maximumGroup = max(1, maximumGroup)
    }

    private struct Queue {
        var waiting: [GroupedWrite] = []
        var leading = false
    }

    private let queues = Locked<[String: Queue]>([:])

    /// Queues `write`; whether the caller leads (no group of the namespace is being committed).
    func enqueue(_ write: GroupedWrite, namespace: String) -> Bool {
        queues.withLock { queues in
            queues[namespace, default: Queue()].waiting.append(write)
            guard !queues[namespace]!.leading else { return false }
            queues[namespace]!.leading = true
            return true
        }
    }

    /// The next group of `namespace`, or `nil` (and the lead given up) when none waits.
    func nextGroup(of namespace: String) -> [GroupedWrite]? {
        queues.withLock { queues in
            guard var queue = queues[namespace], !queue.waiting.isEmpty else {
                queues[namespace] = nil
                return nil
            }
            let group = Array(queue.waiting.prefix(maximumGroup))
            queue.waiting.removeFirst(group.count)
            queues[namespace] = queue
            return group
        }
    }
}
