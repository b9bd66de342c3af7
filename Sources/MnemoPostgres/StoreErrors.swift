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
        case let error as CopyFailure:
            return error.underlying
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

/// What the engine's own work on a copy threw (a quota refusal, a rule of the engine): it passes
/// through unchanged, as it would on a single file, instead of reading as a PostgreSQL failure.
struct CopyFailure: Error {
    var underlying: any Error
}
