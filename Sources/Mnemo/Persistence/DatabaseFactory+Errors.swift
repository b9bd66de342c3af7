import GRDB

extension DatabaseFactory {
    /// How long a writer waits for another connection's write lock before failing.
    static let busyTimeout: Double = 10

    /// A failure as one line a user can act on: a lock held by another process for longer than
    /// the busy timeout, or a full disk, rather than SQLite's bare codes.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return
                "the database is locked: another process held its write lock for more than \(Int(busyTimeout)) s; nothing was written, try again"
        case .SQLITE_FULL:
            return
                "the disk is full (or the file reached its size limit); nothing of the failing transaction was written"
        case .SQLITE_IOERR:
            return
                "writing to the disk failed (a full disk, a file size limit or a failing device: \(error.message ?? "I/O error")); nothing of the failing transaction was written"
        case .SQLITE_READONLY:
            return "the database is read-only here; nothing was written"
        default:
            return "\(error)"
        }
    }
}

extension MnemoError {
    /// `error`, or a ``MnemoError/storageFailure(_:)`` (whose description explains a lock held
    /// too long, a full disk or a read-only file) when it is a database failure.
    public static func explaining(_ error: any Error) -> any Error {
        guard error is DatabaseError else { return error }
        return MnemoError(error)
    }
}
