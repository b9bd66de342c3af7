import Foundation

/// A failure of a knowledge-base operation, in cases an app can act on.
///
/// Every error a ``KnowledgeBase`` throws is a `MnemoError` (or Swift's `CancellationError`
/// from a cancelled task that had stored nothing yet), so an app never needs to import GRDB to
/// handle one.
///
/// Cancellation: every search, write, ingest and re-embedding checks its task between batches
/// (with the sentence encoder, within a forward pass of 32 texts by default) and stops. When
/// nothing of the call was stored it throws `CancellationError`, as `Task.checkCancellation()`
/// does, so one `catch is CancellationError` handles every cancelled call; an ingest or
/// re-embedding that had already committed batches throws ``interrupted(stored:cause:)`` with
/// cause ``cancelled`` instead, saying how much is stored.
///
///
/// ```swift
/// do {
///     try await kb.deleteFact(id: id)
/// } catch MnemoError.notFound(.fact) {
///     // already gone: refresh the list
/// } catch MnemoError.invalidInput(let field, let reason) {
///     form.show(reason, on: field)
/// } catch MnemoError.storageFailure(let failure) where failure.isBusy {
///     // another process holds the write lock: retry later
/// }
/// ```
///
/// Every case prints as one line that says what went wrong and, where there is one, the fix.
public enum MnemoError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What an operation looked for and did not find in the namespace.
    public enum Missing: Sendable, Hashable {
        /// No fact with this id (in this namespace: another namespace's facts do not exist here).
        case fact(Int64)
        /// No topic at this path.
        case topic(String)
        /// No topic at this path: an earlier merge folded the topic that was there into the
        /// topic at `into` (its path now).
        case mergedTopic(String, into: String)
        /// No operation with this id in the operation log (see ``KnowledgeBase/undo(_:)``).
        case operation(Int64)
        /// No operation left to undo.
        case undoableOperation
        /// No conflict with this id (see ``KnowledgeBase/conflicts(limit:offset:)``).
        case conflict(Int64)
    }

    /// How an operation contradicts what is stored.
    public enum Conflict: Sendable, Hashable {
        /// Another fact already has this content (same folded form); its id is given.
        case duplicateFact(existingID: Int64)
        /// A topic already exists at this path (merge instead of renaming or moving onto it).
        case topicExists(String)
        /// The topic has facts or subtopics; delete with `cascade` to remove them too.
        case topicNotEmpty(String, facts: Int, children: Int)
        /// The database's vectors were made by another model: open it with
        /// ``KnowledgeBase/Configuration/acceptsOtherEmbedder`` and run
        /// ``KnowledgeBase/reembed(batchSize:progress:)``, or open it with the stored model.
        case embedderMismatch(stored: EmbeddingModelIdentity, given: EmbeddingModelIdentity)
        /// The knowledge base has no embedder, and the write would leave a fact without a vector
        /// in a database whose facts have vectors of the `stored` model: open it with that
        /// model, or with ``KnowledgeBase/Configuration/acceptsFactsWithoutVectors`` (and later
        /// ``KnowledgeBase/embedFactsWithoutVectors(batchSize:progress:)`` with the model).
        case embedderMissing(stored: EmbeddingModelIdentity)
        /// The operation was already undone, by the operation given.
        case alreadyUndone(operation: Int64, by: Int64)
        /// A row the operation changed has changed again since: undo the later operations first.
        case changedSince(operation: Int64, table: String, row: Int64)
    }

    /// The thing named does not exist.
    case notFound(Missing)
    /// An argument, or a field of a value passed in, is invalid; `field` names it (`content`,
    /// `confidence`, `topicPath`, `namespace`, `limit`, `offset`, `minSimilarity`, `mode`…).
    case invalidInput(field: String, reason: String)
    /// The operation contradicts what is stored.
    case conflict(Conflict)
    /// The database failed: I/O error, full disk, corrupt or foreign file, lock held too long.
    case storageFailure(StorageFailure)
    /// The embedder threw, or returned the wrong number or size of vectors.
    case embedderFailure(model: EmbeddingModelIdentity, reason: String)
    /// An ingest input that cannot be read at all: unreadable, not JSON, or not shaped like its
    /// format. Nothing of it was stored. (Bad records in a readable input are rejected one by one.)
    case unreadableInput(String)
    /// An ingest or re-embedding stopped before the end: the batches committed before the
    /// failure stay (`stored` records or facts), the batch in progress was rolled back, and
    /// `cause` says why (a ``storageFailure(_:)``, an ``embedderFailure(model:reason:)``, or
    /// ``cancelled`` when the task was cancelled).
    indirect case interrupted(stored: Int, cause: MnemoError)
    /// The task was cancelled. Appears only as the cause of ``interrupted(stored:cause:)``: a
    /// cancelled call that stored nothing throws `CancellationError`.
    case cancelled
    /// The database file cannot be used: it is not a Mnemo database, was written by a newer
    /// version, or cannot be opened (for writing). Nothing was written to it.
    case databaseUnusable(path: String, reason: String)
    /// The namespace already holds its limit of facts (``KnowledgeBase/Configuration/factLimit``)
    /// and the write would have added a new one: nothing of the write was stored. A repeat or
    /// a merge into a stored fact is never refused (see ``QuotaPolicy``).
    case quotaExceeded(limit: Int)
    /// The database server (PostgreSQL, through `MnemoPostgres`) cannot be reached or did not
    /// answer in time. A write that throws it was not stored; the call can be retried.
    case storageUnavailable(reason: String)
    /// A change cursor of this namespace is older than the change feed's window: the events
    /// after it were pruned. Read the memory again (``KnowledgeBase/snapshot()``) and follow the
    /// feed from the snapshot's cursor.
    case cursorExpired(namespace: String)

    public var description: String {
        switch self {
        case .notFound(.fact(let id)):
            "no fact with id \(id)"
        case .notFound(.topic(let path)):
            "no topic at \(Self.quoted(path))"
        case .notFound(.mergedTopic(let path, let destination)):
            "no topic at \(Self.quoted(path)): it was merged into \(Self.quoted(destination))"
        case .notFound(.operation(let id)):
            "no operation #\(id)"
        case .notFound(.undoableOperation):
            "nothing to undo"
        case .notFound(.conflict(let id)):
            "no conflict #\(id)"
        case .invalidInput(let field, let reason):
            "invalid \(field): \(reason)"
        case .conflict(.duplicateFact(let existingID)):
            "the same fact is already stored (id \(existingID))"
        case .conflict(.topicExists(let path)):
            "a topic already exists at \(Self.quoted(path))"
        case .conflict(.topicNotEmpty(let path, let facts, let children)):
            "topic \(Self.quoted(path)) is not empty (\(facts) facts, \(children) subtopics); delete with cascade to remove them too"
        case .conflict(.embedderMismatch(let stored, let given)):
            "the database's vectors were made with \(stored), not \(given); open it with that model, or with "
                + "`acceptsOtherEmbedder` and call `reembed()` to rebuild them with this one"
        case .conflict(.embedderMissing(let stored)):
            "the database's facts have vectors made with \(stored), but this knowledge base has no embedder: "
                + "the fact written would have none (semantic search and near-duplicate merging would miss it); "
                + "open it with that model, or with `acceptsFactsWithoutVectors` and later call "
                + "`embedFactsWithoutVectors()` with the model"
        case .conflict(.alreadyUndone(let operation, let undo)):
            "operation #\(operation) was already undone by #\(undo); `mnemo undo \(undo)` redoes it"
        case .conflict(.changedSince(let operation, let table, let row)):
            "cannot undo #\(operation): \(table) row \(row) has changed since; undo the later operations first"
        case .storageFailure(let failure):
            failure.explanation.map { "database error: \($0)" } ?? "database error: \(failure)"
        case .embedderFailure(let model, let reason):
            "embedder \(model) failed: \(reason)"
        case .unreadableInput(let reason):
            "cannot read the input: \(reason)"
        case .interrupted(let stored, .cancelled):
            "cancelled after \(stored) records were stored; the batch in progress was rolled back"
        case .interrupted(let stored, let cause):
            "stopped after \(stored) records were stored; the failing batch was rolled back: \(cause)"
        case .cancelled:
            "cancelled"
        case .databaseUnusable(let path, let reason):
            "cannot use the database \(Self.quoted(path)): \(reason)"
        case .quotaExceeded(let limit):
            "the namespace holds its limit of \(limit) facts; delete or erase some, or raise the limit, before adding new ones"
        case .storageUnavailable(let reason):
            "the storage server is unavailable: \(reason)"
        case .cursorExpired:
            "the change cursor is older than the change feed's window; read the memory again and follow the feed from the snapshot's cursor"
        }
    }

    public var errorDescription: String? { description }

    private static func quoted(_ text: String) -> String { "\"\(text)\"" }
}

/// A database failure, described without GRDB's types.
public struct StorageFailure: Sendable, Hashable, CustomStringConvertible {
    /// SQLite's primary result code (`SQLITE_BUSY` is 5, `SQLITE_IOERR` 10, `SQLITE_CORRUPT` 11,
    /// `SQLITE_FULL` 13, `SQLITE_NOTADB` 26…).
    public var resultCode: Int32
    /// SQLite's extended result code, which refines ``resultCode``.
    public var extendedResultCode: Int32
    /// SQLite's message.
    public var message: String

    public init(resultCode: Int32, extendedResultCode: Int32, message: String) {
        self.resultCode = resultCode
        self.extendedResultCode = extendedResultCode
        self.message = message
    }

    /// Another connection or process held a lock longer than the busy timeout: worth retrying.
    public var isBusy: Bool { resultCode == 5 || resultCode == 6 }
    /// The file is damaged or not a SQLite database.
    public var isCorrupt: Bool { resultCode == 11 || resultCode == 26 }
    /// The disk (or the database's size limit) is full.
    public var isFull: Bool { resultCode == 13 }
    /// The operating system failed to read or write the file.
    public var isIOError: Bool { resultCode == 10 }

    public var description: String { "\(message) (SQLite code \(extendedResultCode))" }

    /// One line a user can act on for the failures that have a fix (a lock held by another
    /// process past the busy timeout, a full disk, a failing write, a read-only file), else nil.
    public var explanation: String? {
        switch resultCode {
        case 5, 6:
            "the database is locked: another process held its write lock past the busy timeout; nothing was written, try again"
        case 13:
            "the disk is full (or the file reached its size limit); nothing of the failing transaction was written"
        case 10:
            "writing to the disk failed (a full disk, a file size limit or a failing device: \(message)); nothing of the failing transaction was written"
        case 8:
            "the database is read-only here; nothing was written"
        default:
            nil
        }
    }
}
