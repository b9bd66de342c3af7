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

/// Runs `body`, giving up with ``MnemoError/storageUnavailable(reason:)`` after `limit`: a
/// request never waits on a server that stopped answering longer than that. The body is
/// cancelled, so a write that was not committed is rolled back by the server.
func withDeadline<T: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw MnemoError.storageUnavailable(reason: "\(what) did not finish within \(limit)")
        }
        return value
    }
}
