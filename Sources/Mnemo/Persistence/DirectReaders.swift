import Foundation
import GRDB

/// Read-only connections to a database file, lent one thread at a time, for the reads that
/// run on the calling thread (``StorageWriter/read(_:)``).
///
/// GRDB's `DatabasePool` lends a reader through a barrier queue, a semaphore and a dispatch
/// group, and asks SQLite for the schema's version in a statement of its own before each read:
/// 7 % of a text search's CPU on a server under load. These connections are lent under one
/// lock, and each checks the schema's version inside the read's own transaction.
///
/// They are opened as the pool's readers are (its configuration, read-only), when a read first
/// needs one, up to `maximumCount`. A read that finds every one busy goes to the pool instead,
/// so no read waits for another here. Each sees every commit made before its transaction
/// began, by this process or another, as the pool's readers do.
final class DirectReaders: Sendable {
    private final class Reader: @unchecked Sendable {
        let queue: DatabaseQueue
        /// The schema version this connection's GRDB schema cache was filled at; only the
        /// thread the reader is lent to reads or writes it.
        var schemaVersion: Int32?

        init(queue: DatabaseQueue) {
            self.queue = queue
        }

        /// Forgets GRDB's schema cache (column lists, primary keys) when another connection
        /// changed the schema since this one last read, as `DatabasePool` does before each read.
        func clearSchemaCacheIfChanged(_ db: Database) throws {
            let version = try Int32.fetchOne(db.cachedStatement(sql: "PRAGMA schema_version"))
            if version != schemaVersion {
                db.clearSchemaCache()
                schemaVersion = version
            }
        }
    }

    private let open: @Sendable () throws -> DatabaseQueue
    private let maximumCount: Int
    private let readers = Locked((idle: [Reader](), opened: 0))
    /// Held so that the pool closes after these connections: the last connection to a file
    /// checkpoints its write-ahead log into it and deletes the log, which a read-only one
    /// cannot do, and an app may copy the file alone once the knowledge base is gone.
    private let pool: DatabasePool

    /// Connections to `pool`'s file, at most `maximumCount` of them.
    init(pool: DatabasePool, maximumCount: Int) {
        var readOnly = pool.configuration
        readOnly.readonly = true
        let path = pool.path
        let configuration = readOnly
        open = { try DatabaseQueue(path: path, configuration: configuration) }
        self.maximumCount = maximumCount
        self.pool = pool
    }

    deinit {
        readers.withLock { readers in
            for reader in readers.idle { try? reader.queue.close() }
        }
    }

    /// `value(db)` in a deferred transaction on a connection of its own, after noting `cursor`
    /// (see ``ReadTransaction``); `nil` when every connection is lent and no other may be opened.
    func read<T>(noting cursor: AnswerCursor?, _ value: (Database) throws -> T) throws -> T? {
        guard let reader = take() else { return nil }
        defer { readers.withLock { $0.idle.append(reader) } }
        return try reader.queue.inDatabase { db in
            try ReadTransaction.run(db, noting: cursor) { db in
                try reader.clearSchemaCacheIfChanged(db)
                return try value(db)
            }
        }
    }

    /// An idle connection, or a new one while fewer than `maximumCount` were opened. A
    /// connection that cannot be opened counts as opened, so that reads go to the pool rather
    /// than try again each time.
    private func take() -> Reader? {
        let taken = readers.withLock { readers -> Reader?? in
            if let reader = readers.idle.popLast() { return .some(reader) }
            guard readers.opened < maximumCount else { return .some(nil) }
            readers.opened += 1
            return nil
        }
        if let taken { return taken }
        return (try? open()).map(Reader.init(queue:))
    }
}
