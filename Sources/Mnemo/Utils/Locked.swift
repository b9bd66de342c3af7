import Foundation

/// A value that several threads read and write, each access under a lock: how a task that runs
/// on a worker thread (such as a hybrid search's text ranking, run beside the vector scan)
/// hands its result back. `@unchecked Sendable` because the lock, not the type system,
/// serialises the accesses.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
