import Foundation

/// The graph indexes of one ``VectorIndex``: a ``NeighborGraph`` per namespace that has been
/// searched with more than ``Settings/minimumRows`` rows, kept in step with every commit.
///
/// The vector index hands each update it installs (``record(_:)``, under its own lock, so the
/// log is in commit order) to a log here. Before a search uses a graph, ``withGraph(_:_:)``
/// applies the log to every graph (under the write lock) and drops what all graphs hold: a
/// commit in the snapshot a search scans is in the graph it traverses, whichever process made
/// it. Searches hold the read lock, so they run together, and never see a half-made insert.
///
/// A graph is built from a snapshot outside every lock (``build(namespace:from:sequence:)``),
/// then the log's updates since that snapshot are applied to it and it is installed: the
/// updates are idempotent (``NeighborGraph/upsert(id:vector:attributes:)``), so one applied
/// twice changes nothing.
final class ApproximateIndex: @unchecked Sendable {
    /// When the graph is used and how it is searched.
    struct Settings: Sendable, Equatable {
        /// A namespace with fewer rows is always scanned exactly (int8 + rescoring, or float): at
        /// 20,000 rows the int8 scan takes about 0.3 ms on two cores, no slower than the graph,
        /// which would cost 10 s to build.
        var minimumRows = 20_000
        /// When fewer rows than this are estimated to pass a filter, they are listed and scored
        /// exactly instead of searching the graph: listing reads one byte per row and scoring
        /// 10,000 rows of int8 codes takes about 0.2 ms, while a graph walk through mostly
        /// failing nodes visits many nodes per passing one.
        var exactScanMaximum = 10_000
        /// The beam width of a search (HNSW's `ef`), at least k.
        var searchWidth = 96
        var parameters = NeighborGraph.Parameters()
    }

    private enum Update {
        case changes(VectorIndexUpdate.Changes)
        case full(VectorSnapshot)
    }

    private struct Installed {
        var graph: NeighborGraph
        /// The last change the graph holds.
        var sequence: Int64
    }

    let dimension: Int
    private let stateLock = NSLock()
    private let graphLock = ReadWriteLock()
    private var _settings = Settings()
    /// Graphs by namespace (guarded by `graphLock`).
    private var graphs: [String: Installed] = [:]
    /// The namespaces being built and the change each build starts from (guarded by `stateLock`).
    private var builds: [String: Int64] = [:]
    /// Updates not yet applied to every graph, in commit order (guarded by `stateLock`).
    private var log: [(sequence: Int64, update: Update)] = []
    /// Whether any graph exists or is being built, so that updates must be logged.
    private var isTracking = false
    private var _pathCounts: [VectorIndex.ApproximatePath: Int] = [:]

    init(dimension: Int) {
        self.dimension = dimension
    }

    var settings: Settings {
        get { stateLock.withLock { _settings } }
        set { stateLock.withLock { _settings = newValue } }
    }

    /// Logs an update the vector index just installed. Call it under the vector index's lock.
    func record(_ update: VectorIndexUpdate) {
        stateLock.withLock {
            guard isTracking else { return }
            switch update {
            case .full(let store, let sequence): log.append((sequence, .full(store)))
            case .delta(_, let sequence, let changes):
                if !changes.rows.isEmpty { log.append((sequence, .changes(changes))) }
            }
        }
    }

    /// Claims the build of `namespace`'s graph from the index's state at `sequence`; false when
    /// it exists or is being built. Call it under the vector index's lock, with that state.
    func claimBuild(of namespace: String, at sequence: Int64) -> Bool {
        let exists = graphLock.reading { graphs[namespace] != nil }
        return stateLock.withLock {
            guard !exists, builds[namespace] == nil else { return false }
            builds[namespace] = sequence
            isTracking = true
            return true
        }
    }

    /// How many searches took each path, for tests and benchmarks.
    var pathCounts: [VectorIndex.ApproximatePath: Int] { stateLock.withLock { _pathCounts } }

    func count(_ path: VectorIndex.ApproximatePath) {
        stateLock.withLock { _pathCounts[path, default: 0] += 1 }
    }

    /// Whether `namespace`'s graph is being built.
    func isBuilding(_ namespace: String) -> Bool {
        stateLock.withLock { builds[namespace] != nil }
    }

    /// Whether `namespace` has a graph.
    func hasGraph(_ namespace: String) -> Bool {
        graphLock.reading { graphs[namespace] != nil }
    }

    /// Builds the graph of `namespace` from `store` (the index's state at `sequence`, claimed
    /// with ``claimBuild(of:at:)``), brings it up to date with the log and installs it.
    func build(namespace: String, from store: VectorSnapshot, sequence: Int64) {
        let graph = NeighborGraph(dimension: dimension, parameters: settings.parameters)
        if let code = store.namespaceCode(namespace) {
            let rows = store.rows(ofNamespace: code) ?? (0..<Int32(store.count)).map { $0 }
            for row in rows { store.insertRow(Int(row), into: graph) }
        }
        graphLock.writing {
            var installed = Installed(graph: graph, sequence: sequence)
            for (sequence, update) in pendingLog(after: sequence) {
                Self.apply(update, to: graph, namespace: namespace)
                installed.sequence = sequence
            }
            graphs[namespace] = installed
            stateLock.withLock { _ = builds.removeValue(forKey: namespace) }
        }
        trimLog()
    }

    /// Calls `body` with `namespace`'s graph once every logged update is in it; `nil` when the
    /// namespace has no graph (yet).
    func withGraph<Result>(_ namespace: String, _ body: (NeighborGraph) -> Result) -> Result? {
        catchUp()
        return graphLock.reading { graphs[namespace].map { body($0.graph) } }
    }

    /// Applies the logged updates each graph lacks.
    private func catchUp() {
        let latest = stateLock.withLock { log.last?.sequence }
        guard let latest, graphLock.reading({ graphs.values.contains { $0.sequence < latest } }) else { return }
        graphLock.writing {
            for (namespace, installed) in graphs where installed.sequence < latest {
                var sequence = installed.sequence
                for (entrySequence, update) in pendingLog(after: installed.sequence) {
                    Self.apply(update, to: installed.graph, namespace: namespace)
                    sequence = entrySequence
                }
                graphs[namespace]?.sequence = sequence
            }
        }
        trimLog()
    }

    private func pendingLog(after sequence: Int64) -> [(sequence: Int64, update: Update)] {
        stateLock.withLock { Array(log.drop { $0.sequence <= sequence }) }
    }

    /// Drops the updates every graph and every build holds.
    private func trimLog() {
        let held = graphLock.reading { graphs.values.map(\.sequence).min() }
        stateLock.withLock {
            let floor = [held, builds.values.min()].compactMap { $0 }.min() ?? .max
            log.removeAll { $0.sequence <= floor }
        }
    }

    private static func apply(_ update: Update, to graph: NeighborGraph, namespace: String) {
        switch update {
        case .changes(let changes):
            for (id, row) in changes.rows {
                if let row, row.attributes.namespace == namespace {
                    graph.upsert(id: id, vector: row.vector, attributes: row.attributes)
                } else {
                    graph.remove(id: id)
                }
            }
        case .full(let store):
            let code = store.namespaceCode(namespace)
            for id in Array(graph.nodeOfID.keys) {
                if let code, let row = store.row(of: id), store.namespaceCodes[row] == code { continue }
                graph.remove(id: id)
            }
            if let code {
                for row in store.rows(ofNamespace: code) ?? (0..<Int32(store.count)).map({ $0 }) {
                    store.insertRow(Int(row), into: graph)
                }
            }
        }
    }
}

extension VectorSnapshot {
    /// The row of fact `id`, if it has one.
    func row(of id: Int64) -> Int? { rowOfID[id] }

    /// The attributes of `row` that filters test, as ``upsert(id:vector:attributes:)`` was given
    /// them; the namespace is left empty (a graph holds one namespace).
    func attributes(ofRow row: Int) -> Attributes {
        let flag = flags[row]
        return Attributes(
            namespace: "", topicID: topicIDs[row], type: FactType.allCases[Int(flag & 0x0F)],
            importance: Importance(rank: Int((flag >> 4) & 0x03))!, isActive: flag & 0x80 != 0,
            createdAt: Date(timeIntervalSince1970: createdTimes[row]))
    }

    /// Upserts `row` into `graph`.
    func insertRow(_ row: Int, into graph: NeighborGraph) {
        graph.upsert(
            id: ids[row], vector: Array(vectors[row * dimension..<(row + 1) * dimension]),
            attributes: attributes(ofRow: row))
    }
}

/// A POSIX read-write lock: many readers or one writer.
final class ReadWriteLock: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() {
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func reading<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func writing<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
