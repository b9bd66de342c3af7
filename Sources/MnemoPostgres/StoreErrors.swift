import GRDB
import Mnemo
import PostgresNIO

enum StoreErrors {
    /// `error` of a PostgreSQL access as a one-line ``MnemoError``: what the server refused
    /// (a wrong password, a missing database) is `databaseUnusable`; a server that cannot be
    /// reached, closed the connection or did not answer in time is `storageUnavailable`, which
    /// the HTTP server answers with 503.
    static func mapped(_ error: any Error, location: PostgresLocation) -> any Error {
        switch error {
        case is MnemoError, is CancellationError:
            return error
        case let error as DatabaseError: // the node's copy, not the server
            return MnemoError.storageFailure(
                StorageFailure(
                    resultCode: error.resultCode.rawValue, extendedResultCode: error.extendedResultCode.rawValue,
                    message: error.message ?? "\(error.resultCode)"))
        case let error as PSQLError:
            if let info = error.serverInfo, let state = info[.sqlState] {
                let message = info[.message] ?? "error \(state)"
                switch state {
                case "28P01", "28000": // invalid_password, invalid_authorization_specification
                    return MnemoError.databaseUnusable(
                        path: location.description, reason: "the server refused the login: \(message)")
                case "3D000": // invalid_catalog_name
                    return MnemoError.databaseUnusable(path: location.description, reason: message)
                case "57P01", "57P02", "57P03", "08000", "08003", "08006": // shutting down, connection failures
                    return MnemoError.storageUnavailable(reason: "\(location.host):\(location.port): \(message)")
                default:
                    return MnemoError.storageFailure(
                        StorageFailure(
                            resultCode: -1, extendedResultCode: -1, message: "PostgreSQL \(state): \(message)"))
                }
            }
            let cause = error.underlying.map { "\($0)" } ?? "\(error.code)"
            return MnemoError.storageUnavailable(reason: "\(location.host):\(location.port): \(cause)")
        default:
            return MnemoError.storageUnavailable(reason: "\(location.host):\(location.port): \(error)")
        }
    }
}

/// Runs `body`, giving up with ``MnemoError/storageUnavailable(reason:)`` after `limit` of
/// waiting for PostgreSQL: a request never waits on a server that stopped answering longer than
/// that. Work on the node's copy (``Deadline/excluding(_:)``) does not count: loading or catching
/// up a large namespace, or a large write, takes what it takes. The body is cancelled, so a write
/// that was not committed is rolled back by the server.
func withDeadline<T: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let deadline = Deadline(limit)
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

/// The time left for the PostgreSQL part of an access, which stops while the node works on its
/// own copy.
final class Deadline: Sendable {
    @TaskLocal static var current: Deadline?

    private struct State {
        var end: ContinuousClock.Instant
        var pausedAt: ContinuousClock.Instant?
    }

    private let state: Locked<State>

    init(_ limit: Duration) {
        state = Locked(State(end: .now + limit))
    }

    /// Returns when the time is up (throws when cancelled first).
    func expire() async throws {
        while true {
            let (end, paused) = state.withLock { ($0.end, $0.pausedAt != nil) }
            if paused {
                try await Task.sleep(for: .milliseconds(50))
            } else if ContinuousClock.now >= end {
                return
            } else {
                try await Task.sleep(until: end, clock: .continuous)
            }
        }
    }

    /// Runs `work` (on the node's copy) with the current deadline's clock stopped.
    static func excluding<T>(_ work: () async throws -> T) async rethrows -> T {
        guard let deadline = current else { return try await work() }
        deadline.state.withLock { $0.pausedAt = .now }
        defer {
            deadline.state.withLock {
                if let pausedAt = $0.pausedAt { $0.end += ContinuousClock.now - pausedAt }
                $0.pausedAt = nil
            }
        }
        return try await work()
    }
}
