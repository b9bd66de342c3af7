import Foundation

/// Blocking work (a child process, a lock held on purpose) run on a thread of its own.
///
/// Swift concurrency runs the tests on as many threads as the machine has cores, two here. Work
/// that blocks one of them while a test loops until that work ends can starve the loop's
/// partner (the blocked work's task may never be scheduled behind the loop's continuations), and
/// the run hangs. A `ThreadJob` starts at once, outside that pool, and is awaited without
/// blocking.
package final class ThreadJob<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Result<Value, any Error>?
    private var waiters: [CheckedContinuation<Value, any Error>] = []

    package init(_ work: @escaping @Sendable () throws -> Value) {
        Thread { [self] in finish(Result { try work() }) }.start()
    }

    /// Whether the work has ended, successfully or not.
    package var isFinished: Bool { lock.withLock { outcome != nil } }

    /// The work's result, once it has ended.
    package var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<Value, any Error>? = lock.withLock {
                    if outcome == nil { waiters.append(continuation) }
                    return outcome
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }

    private func finish(_ result: Result<Value, any Error>) {
        let waiting = lock.withLock {
            outcome = result
            defer { waiters = [] }
            return waiters
        }
        for continuation in waiting { continuation.resume(with: result) }
    }
}

extension Task where Failure == any Error {
    /// The task's value, cancelling the task after `limit`: a test that waits for an event fails
    /// (with what the cancelled task returns) instead of hanging the run.
    package func value(cancellingAfter limit: Duration) async throws -> Success {
        let watchdog = Task<Void, Never> {
            try? await Task<Never, Never>.sleep(for: limit)
            self.cancel()
        }
        defer { watchdog.cancel() }
        return try await value
    }
}
