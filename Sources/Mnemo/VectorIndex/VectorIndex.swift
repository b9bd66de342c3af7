import Foundation
import GRDB

/// The in-memory vector index of a database: loaded on first use, then kept in step with every
/// commit, made by this process or any other, through the database's change log (``ChangeLog``).
///
/// Searches take a snapshot (a copy-on-write value) under a short lock and scan it without
/// holding the lock, so they run in parallel with each other and with writers. Before handing
/// out a snapshot, ``snapshot(_:)`` reads the number of the latest change (one B-tree descent)
/// and, when the index is behind, catches up from the rows changed since (see
/// ``VectorIndexUpdate``): a commit made anywhere before a search starts is in what it scans.
final class VectorIndex: @unchecked Sendable {
    let dimension: Int
    private let lock = NSLock()
    /// The rows and the number of the last change they include; `nil` until first loaded.
    private var state: (store: VectorSnapshot, sequence: Int64)?
    /// How the index kept up so far, for tests and benchmarks.
    struct Statistics: Sendable {
        /// Times every row was read: the first load, and catch-ups over too large a gap.
        var fullLoads = 0
        /// Changed facts applied one by one.
        var changedRows = 0
    }
    private var _statistics = Statistics()
    var statistics: Statistics { lock.withLock { _statistics } }
    /// Held while a search catches up, so that searches arriving together read the changes once.
    private let catchUpLock = NSLock()

    /// False for a database no one can change while it is open (an immutable file): the index
    /// is then loaded once and never checked again.
    let followsChanges: Bool

    /// The graph indexes of large namespaces, which every update installed here reaches.
    let approximate: ApproximateIndex

    /// - Parameter graphStorage: where the graph indexes are saved; `nil` keeps them in memory.
    init(dimension: Int, followsChanges: Bool = true, graphStorage: ApproximateIndex.Storage? = nil) {
        self.dimension = dimension
        self.followsChanges = followsChanges
        self.approximate = ApproximateIndex(dimension: dimension, storage: graphStorage)
    }

    /// Stops the graph builds of an index when the knowledge bases that share it are released:
    /// each of them holds this object, and nothing else does. (The index's own `deinit` is not
    /// relied on: in a test the index was seen to outlive its knowledge bases while a build ran.)
    /// A build running on a background thread then stops within a node per thread, and its graph
    /// is neither installed nor saved.
    final class Lifetime: Sendable {
        let approximate: ApproximateIndex

        init(_ index: VectorIndex) { approximate = index.approximate }

        deinit { approximate.cancelBuilds() }
    }

    /// Nothing can use the graphs of builds still running: stop them.
    deinit {
        approximate.cancelBuilds()
    }

    var isLoaded: Bool { lock.withLock { state != nil } }

    /// The number of the last change the index holds and its row count; `nil` before it is loaded.
    private var position: VectorIndexUpdate.Position? {
        lock.withLock { state.map { .init(sequence: $0.sequence, rows: $0.store.count) } }
    }

    /// The rows as of at least the latest commit, caught up from the change log (or loaded) on
    /// one of `reader`'s connections first if needed. The first read notes `cursor`'s position
    /// (see ``AnswerCursor``): an answer from the snapshot reflects at least that much.
    func snapshot(_ reader: any DatabaseReader, noting cursor: AnswerCursor? = nil) throws -> VectorSnapshot {
        if !followsChanges, let store = lock.withLock({ state?.store }) { return store }
        let latest = try reader.read { db in
            try cursor?.note(db)
            return try ChangeLog.latestSequence(db)
        }
        if let store = store(asOf: latest) { return store }
        return try catchUpLock.withLock {
            // Another search may have caught up while this one waited.
            if let store = store(asOf: latest) { return store }
            while true {
                let position = position
                let update = try reader.read { db in
                    try VectorIndexUpdate.read(db, from: position, dimension: self.dimension)
                }
                if let store = install(update) { return store }
            }
        }
    }

    /// The rows as of the state `db` sees, caught up within its transaction: a write transaction
    /// sees the latest commit, and no other can happen before it ends. Call it before the
    /// transaction writes anything: the index must only ever hold committed state.
    func snapshot(in db: Database) throws -> VectorSnapshot {
        if let store = store(asOf: try ChangeLog.latestSequence(db)) { return store }
        while true {
            if let store = install(try VectorIndexUpdate.read(db, from: position, dimension: dimension)) {
                return store
            }
        }
    }

    /// After a commit on this process's writer connection: applies the changes, if the index is
    /// loaded, so that the next search does not have to.
    func catchUpAfterCommit(_ db: Database) throws {
        guard let position else { return }
        _ = install(try VectorIndexUpdate.read(db, from: position, dimension: dimension))
    }

    /// Forgets every row; the next search reloads from the database.
    func invalidate() {
        lock.withLock { state = nil }
    }

    /// Claims the build of `namespace`'s graph and returns the rows to build it from and their
    /// change number; `nil` when the index is not loaded or the graph exists or is being built.
    func claimGraphBuild(of namespace: String) -> (store: VectorSnapshot, sequence: Int64)? {
        lock.withLock {
            guard let state, approximate.claimBuild(of: namespace, at: state.sequence) else { return nil }
            return state
        }
    }

    private func store(asOf sequence: Int64) -> VectorSnapshot? {
        lock.withLock { state.flatMap { $0.sequence >= sequence ? $0.store : nil } }
    }

    /// Installs an update read from the database and returns the rows it leaves, or `nil` when
    /// the index was dropped meanwhile and a delta no longer applies.
    ///
    /// Updates read on different connections may arrive out of order. One that is older than
    /// the index is dropped. A delta applies to any index at or after its base: it holds every
    /// fact changed since the base, each as of the update's own state.
    private func install(_ update: VectorIndexUpdate) -> VectorSnapshot? {
        lock.withLock {
            switch update {
            case .full(let store, let sequence):
                if let state, state.sequence >= sequence { return state.store }
                state = (store, sequence)
                _statistics.fullLoads += 1
                approximate.record(update)
                return store
            case .delta(let base, let sequence, let changes):
                guard var current = state, current.sequence >= base else { return nil }
                guard current.sequence < sequence else { return current.store }
                state = nil // Leave `current` the only owner, so the store is changed in place when no search holds it.
                changes.apply(to: &current.store)
                current.sequence = sequence
                state = current
                _statistics.changedRows += changes.rows.count
                approximate.record(update)
                return current.store
            }
        }
    }
}

/// Watches this connection's commits that change facts or vectors and brings the vector index up
/// to date right after each, so that a process's own writes cost its searches nothing.
final class VectorIndexObserver: TransactionObserver, @unchecked Sendable {
    private let index: VectorIndex
    private var changed = false

    init(index: VectorIndex) {
        self.index = index
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        ["fact", "fact_embedding", "fact_change"].contains(eventKind.tableName)
    }

    func databaseDidChange(with event: DatabaseEvent) {
        changed = true
        // One change is enough to know: a bulk write's thousands of rows call back no more.
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        defer { changed = false }
        guard changed else { return }
        do {
            try index.catchUpAfterCommit(db)
        } catch {
            // The index cannot be brought up to date: drop it so the next search reloads it.
            index.invalidate()
        }
    }

    func databaseDidRollback(_ db: Database) {
        changed = false
    }
}
