import Foundation
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

/// Copies the write-ahead log into the database file on a queue of its own, not in the commit
/// that grew it.
///
/// SQLite checkpoints a log of 1,000 pages or more in the commit itself (its "automatic
/// checkpoint"), on the writer's thread: it reads back every page the transaction wrote and
/// writes it into the file. A bulk load spent 9 % of its time there, on one core while the other
/// was idle. The writer's connection gets a log hook instead (``attach(to:)``), which hands a
/// `PASSIVE` checkpoint to a queue with a connection of its own. Such a checkpoint never blocks
/// the writer or a reader, nor waits for them.
///
/// SQLite starts the log over at the first write after a checkpoint has copied all of it. A
/// write that begins while the queue is still copying appends instead, and the log grows. When
/// it reaches ``defaultLogLimit`` pages, the commit waits for the queue and checkpoints the rest
/// itself, as SQLite would have, so that the next write starts the log over.
///
/// Only the writer of a pool Mnemo opens has one (see `DatabaseFactory.openPool`): an app's own
/// writer keeps SQLite's checkpoints.
final class LogCheckpointer: Sendable {
    /// The log's size, in pages, from which a commit asks for a checkpoint: SQLite's own.
    static let checkpointPages: Int32 = 1_000
    /// The log's size, in pages, at which a commit checkpoints on the writer's thread: 256 MiB
    /// of 4 KiB pages.
    static let defaultLogLimit: Int32 = 65_536

    private let worker: Worker

    /// A checkpointer for the database at `path`, whose connection is opened with
    /// `configuration` (the writer's, so that an app's key or settings apply to it too).
    init(path: String, configuration: GRDB.Configuration, logLimit: Int32 = defaultLogLimit) {
        worker = Worker(path: path, configuration: configuration, logLimit: logLimit)
    }

    deinit {
        // The queue's connection is closed when its checkpoint ends; waiting for it makes the
        // last connection's close fold the log into the file before the pool's release returns.
        worker.waitUntilIdle()
        Self.attached.withLock { $0 = $0.filter { $0.value.worker !== worker } }
    }

    /// Gives the writer's connection the log hook, in place of SQLite's automatic checkpoint.
    func attach(to db: Database) {
        Self.attached.withLock { $0[ObjectIdentifier(db)] = Attachment(worker: worker) }
        sqlite3_wal_hook(
            db.sqliteConnection,
            { context, connection, schema, pages in
                guard let context, let connection, let schema else { return SQLITE_OK }
                Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue()
                    .committed(pages: pages, connection: connection, schema: schema)
                return SQLITE_OK
            }, Unmanaged.passUnretained(worker).toOpaque())
    }

    /// Runs `body` on the writer `db` while no checkpoint of its queue runs or starts (one
    /// waiting for it runs afterwards): a checkpoint that truncates the log fails while another
    /// is copying it.
    static func pausing<T>(_ db: Database, _ body: () throws -> T) rethrows -> T {
        guard let worker = attached.withLock({ $0[ObjectIdentifier(db)]?.worker }) else { return try body() }
        worker.pause()
        defer { worker.resume() }
        return try body()
    }

    /// The writers' connections that have a checkpointer, for ``pausing(_:_:)``.
    private static let attached = Locked<[ObjectIdentifier: Attachment]>([:])

    private struct Attachment {
        weak var worker: Worker?
    }

    /// The queue's side: the requests, the checkpoints and their connection.
    private final class Worker: @unchecked Sendable {
        private let path: String
        private let configuration: GRDB.Configuration
        private let logLimit: Int32
        private let queue = DispatchQueue(label: "Mnemo.LogCheckpointer")
        // Guards the flags below.
        private let condition = NSCondition()
        private var running = false
        private var requested = false
        private var paused = false

        init(path: String, configuration: GRDB.Configuration, logLimit: Int32) {
            self.path = path
            self.configuration = configuration
            self.logLimit = logLimit
        }

        /// Called on the writer's thread after each commit, with the log's size in pages.
        func committed(pages: Int32, connection: OpaquePointer, schema: UnsafePointer<CChar>) {
            guard pages >= LogCheckpointer.checkpointPages else { return }
            guard pages >= logLimit else { return request() }
            waitUntilIdle()
            sqlite3_wal_checkpoint_v2(connection, schema, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }

        func waitUntilIdle() {
            waitUntilIdle(thenPause: false)
        }

        func pause() {
            waitUntilIdle(thenPause: true)
        }

        private func waitUntilIdle(thenPause pause: Bool) {
            condition.lock()
            defer { condition.unlock() }
            while running { condition.wait() }
            if pause { paused = true }
        }

        func resume() {
            condition.lock()
            defer { condition.unlock() }
            paused = false
            startIfRequested()
        }

        private func request() {
            condition.lock()
            defer { condition.unlock() }
            requested = true
            startIfRequested()
        }

        /// Starts the queue when a checkpoint is asked for and none runs. Called with the lock.
        private func startIfRequested() {
            guard requested, !running, !paused else { return }
            requested = false
            running = true
            queue.async { self.run() }
        }

        /// Checkpoints until no commit asked for another meanwhile.
        private func run() {
            while true {
                checkpoint()
                condition.lock()
                defer { condition.unlock() }
                guard requested, !paused else {
                    running = false
                    condition.broadcast()
                    return
                }
                requested = false
            }
        }

        /// One checkpoint, on a connection opened for it: none stays open between checkpoints.
        /// A failure (the file gone, a full disk) is left to the writer, whose log then grows to
        /// its limit.
        private func checkpoint() {
            do {
                let connection = try DatabaseQueue(path: path, configuration: configuration)
                try connection.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
            } catch {}
        }
    }
}
