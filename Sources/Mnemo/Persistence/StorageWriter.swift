import GRDB

/// The knowledge base's database writer, with every failure turned into a ``MnemoError``:
/// GRDB's `DatabaseError` becomes ``MnemoError/storageFailure(_:)``, so an app handles every
/// error of the library without importing GRDB. The methods mirror `DatabaseWriter`'s.
///
/// A cancelled task's access throws `CancellationError` unchanged (GRDB's async accesses stop
/// when their task is cancelled, and a write then rolls back): the error an app that cancels a
/// task expects, as ``MnemoError`` documents.
struct StorageWriter: Sendable {
    /// The GRDB writer: a `DatabasePool` on disk, a `DatabaseQueue` in memory, or the app's own.
    let base: any DatabaseWriter
    /// Where writes are also recorded when the database is one node's copy of a shared store
    /// (PostgreSQL); `nil` for a database of its own.
    let replication: (any StorageReplication)?
    /// Wakes the change feed's followers.
    let feed: FeedSignal
    /// Connections of its own for reads on the calling thread, when `base` is a pool.
    let directReaders: DirectReaders?

    init(base: any DatabaseWriter, replication: (any StorageReplication)? = nil) {
        self.base = base
        self.replication = replication
        self.feed = FeedSignal(reader: base)
        directReaders = (base as? DatabasePool).map {
            DirectReaders(pool: $0, maximumCount: max(2, VectorSnapshot.defaultThreads))
        }
    }

    /// Every read notes the change feed's position for the answer it serves, if any (see
    /// ``AnswerCursor``), first, in its own transaction.
    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let cursor = AnswerCursor.current
        do {
            guard let cursor else { return try await base.readReleasingFirst(value) }
            return try await base.readReleasingFirst { db in try cursor.noting(db, value) }
        } catch {
            throw Self.mapped(error)
        }
    }

    /// A read on the calling thread (see `KnowledgeBase.readNow(_:)`), in a transaction whose
    /// statements are cached (see ``ReadTransaction``), on a connection of ``directReaders``
    /// when one is free.
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        let cursor = AnswerCursor.current
        do {
            if let read = try directReaders?.read(noting: cursor, value) { return read }
            return try base.unsafeRead { db in try ReadTransaction.run(db, noting: cursor, value) }
        } catch {
            throw MnemoError(error)
        }
    }

    /// A read of one statement on the calling thread, outside a transaction: SQLite runs a
    /// statement in a read transaction of its own, so one statement needs no other. It spares the
    /// `BEGIN` and `COMMIT` that GRDB prepares anew for every read. An answer's cursor is noted
    /// in a statement of its own just before: `value`'s statement sees at least that commit.
    func readOneStatement<T>(_ value: (Database) throws -> T) throws -> T {
        do {
            guard let cursor = AnswerCursor.current else { return try base.unsafeRead(value) }
            return try base.unsafeRead { db in try cursor.noting(db, value) }
        } catch {
            throw MnemoError(error)
        }
    }

    /// A write transaction, with the change feed's events of what it did (see ``FeedTable``).
    func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        do {
            if let replication {
                return try await replication.write(on: base) { db in try Self.recordingChanges(db, updates) }
            }
            return try await base.write { db in try Self.recordingChanges(db, updates) }
        } catch {
            throw Self.mapped(error)
        }
    }

    private static func recordingChanges<T>(_ db: Database, _ updates: (Database) throws -> T) throws -> T {
        let mark = try FeedTable.mark(db)
        let result = try updates(db)
        try FeedTable.recordDerivedEvents(since: mark, db)
        return result
    }

    /// `error` as a ``MnemoError``, except a cancellation, which stays a `CancellationError`, and
    /// a quota refusal, which its caller turns into rejections or an error.
    static func mapped(_ error: any Error) -> any Error {
        error is CancellationError || error is FactWriter.QuotaRefusal ? error : MnemoError(error)
    }

    /// A write on the calling thread, never replicated: only for what every copy of a shared
    /// store writes alike when it opens (the embedder's identity).
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        do { return try base.write(updates) } catch { throw MnemoError(error) }
    }
}

extension MnemoError {
    /// `error` as a Mnemo error: itself when it is one, ``cancelled`` for a cancellation, a
    /// ``storageFailure(_:)`` for a database error (or anything else a database access threw).
    init(_ error: any Error) {
        switch error {
        case let error as MnemoError:
            self = error
        case is CancellationError:
            self = .cancelled
        case let error as DatabaseError:
            self = .storageFailure(
                StorageFailure(
                    resultCode: error.resultCode.rawValue, extendedResultCode: error.extendedResultCode.rawValue,
                    message: error.message ?? "\(error.resultCode)"))
        default:
            self = .storageFailure(StorageFailure(resultCode: -1, extendedResultCode: -1, message: "\(error)"))
        }
    }
}
