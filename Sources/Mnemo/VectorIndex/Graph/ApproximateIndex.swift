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
///
/// With ``Storage``, graphs are saved beside the database (``GraphFile``) after a build and
/// after every ``Settings/saveInterval`` changes, and a build first tries the saved graph: read,
/// checked, and brought to the snapshot's state by repairing the facts that differ (see
/// ``restore(_:matching:)``).
final class ApproximateIndex: @unchecked Sendable {
    /// When the graph is used and how it is searched.
    struct Settings: Sendable, Equatable {
        /// A namespace with fewer rows is always scanned exactly (int8 + rescoring, or float): at
        /// that size the int8 scan is no slower than a walk of the graph, which would first take
        /// seconds to build.
        var minimumRows = 20_000
        /// At most this many rows estimated to pass a filter are listed and scored exactly
        /// instead of walking the graph, and only when the cost model says listing is the
        /// cheaper path (``listsPassingRows(passing:of:vectorized:)``): a bound on the model's
        /// reach rather than a threshold of its own. By the model's own costs, scoring this many
        /// rows on two cores takes about as long as a walk at a million facts with a tenth of them
        /// passing. Tests set it to 0 to make every filtered search walk.
        var exactScanMaximum = 200_000
        /// The time, in nanoseconds, the listing kernel (`mnemo_list_passing`) takes per row of
        /// the namespace, passing or not, on the AVX-512 path (16 rows per step) with a time range
        /// (flags and times read, 9 bytes a row). This and the costs below were measured with
        /// `mnemo bench` on one machine (see ApproximateSearch.md, "Filtered search, measured"):
        /// what decides between listing and walking is their ratios, not their size.
        var listingNanosecondsPerRow = 0.45
        /// The same on the path that tests one row at a time (no AVX-512, or a namespace that
        /// shares the index with others, whose rows are listed).
        var listingNanosecondsPerListedRow = 2.5
        /// The time, in nanoseconds, scoring one listed row takes on one thread (int8 over its
        /// codes, the best rescored in `Float`), with the part of a search spent outside the
        /// vector index counted in, so that the estimate leans towards the walk.
        /// Listed rows are scored on ``scoringThreads`` threads once they are
        /// `VectorSnapshot.parallelThreshold` or more, as the exact scan's rows are.
        var scoringNanosecondsPerRow = 33.0
        var scoringThreads = VectorSnapshot.defaultThreads
        /// The mean time of a walk with the filtered width when a tenth of the nodes pass in a
        /// namespace of ``filteredWalkRows`` rows, in nanoseconds; how it grows as the share
        /// falls (times (0.1 / share) to ``filteredWalkGrowth``) and as the namespace grows
        /// (times (rows / ``filteredWalkRows``) to ``filteredWalkSizeGrowth``).
        /// Fitted to the mean walk alone (without the rest of the search) at a tenth and a
        /// hundredth passing at 300,000 facts, and at a tenth at a million (see
        /// ApproximateSearch.md, "Filtered search, measured"). The growth with size is the
        /// caches': a larger graph's rows miss them more often, from a size that depends on the
        /// machine's last-level cache. Two sizes make a line, not a law: past a million, the
        /// walk's estimate is an extrapolation.
        var filteredWalkNanoseconds = 1_360_000.0
        var filteredWalkGrowth = 0.26
        var filteredWalkRows = 300_000.0
        var filteredWalkSizeGrowth = 0.6
        /// The beam width of a search (HNSW's `ef`), at least k. Chosen for recall@10 of 0.95 at
        /// a million of `mnemo bench`'s clustered facts (see ApproximateSearch.md).
        var searchWidth = 160
        /// The beam width of a walk under a filter that most nodes fail (at least k), which
        /// expands through failing nodes (ACORN-1): only passing nodes enter its beam, which
        /// need not hold the failing ones a wide unfiltered beam keeps near the query. Measured
        /// with the bench's 1 % and 10 % filters (see ApproximateSearch.md).
        var filteredSearchWidth = 64
        /// Forces the path of every filtered search whose rows could be listed, for benchmarks
        /// that time both (`nil`: the cost model chooses).
        var forcedFilteredPath: FilteredPath? = nil

        /// The two ways to answer a filter that a minority of rows pass.
        enum FilteredPath: String, Sendable, Equatable, CaseIterable {
            /// List the passing rows and score them exactly.
            case listing
            /// Walk the graph.
            case walk
        }

        /// Whether a filter estimated to let `passing` of the namespace's `rows` through is
        /// answered by listing and scoring those rows rather than by a walk. The listing tests
        /// every row of the namespace and scores the passing ones, so its cost grows with the
        /// namespace; the walk's grows as the share passing falls, not with the namespace.
        /// `vectorized`: the listing tests 16 rows a step (AVX-512, the namespace holds every row).
        func listsPassingRows(passing: Int, of rows: Int, vectorized: Bool) -> Bool {
            switch forcedFilteredPath {
            case .listing: return true
            case .walk: return false
            case nil: break
            }
            guard passing <= exactScanMaximum, rows > 0 else { return passing <= exactScanMaximum }
            let perRow = vectorized ? listingNanosecondsPerRow : listingNanosecondsPerListedRow
            let lanes = passing >= VectorSnapshot.parallelThreshold ? max(1, scoringThreads) : 1
            let listing = Double(rows) * perRow + Double(passing) * scoringNanosecondsPerRow / Double(lanes)
            let share = max(Double(passing) / Double(rows), 1e-4)
            let walk =
                filteredWalkNanoseconds * pow(0.1 / share, filteredWalkGrowth)
                * pow(Double(rows) / filteredWalkRows, filteredWalkSizeGrowth)
            return listing <= walk
        }

        /// The beam width of a walk for k results under a filter that `passingShare` of the
        /// nodes pass.
        func width(k: Int, passingShare: Double) -> Int {
            max(k, passingShare < NeighborGraph.expansionShare ? filteredSearchWidth : searchWidth)
        }

        /// How many of the beam's best (by their int8 scores) are rescored in `Float`, at least
        /// k: the int8 scores of the bench's vectors put the true top 10 within the beam's best
        /// few dozen, while each candidate rescored costs a look-up in the snapshot and a read
        /// of its 1.5 kB `Float` vector (see ApproximateSearch.md).
        var rescoredCandidates = 96
        var parameters = NeighborGraph.Parameters()
        /// A saved graph is saved again once this many changes (or 1 % of its nodes, if more)
        /// reached it since: a reopened graph repairs each fact changed since its save, an
        /// insertion each, so this bounds that work to a thousand insertions (`mnemo bench` times
        /// one: `build.ann_insert_p50_ms`).
        var saveInterval = 1_000
        /// Once this share of a graph's nodes are tombstones, it is rebuilt from the vectors in
        /// the background (see ``claimBuild(of:at:)``), and a saved graph read back with this
        /// share is rebuilt instead of used.
        /// Measured with `mnemo bench --ann-tombstones` at 100k (see ApproximateSearch.md):
        /// recall does not fall with tombstones (walks pass through them), but every tombstone
        /// holds a node's memory (about 620 bytes) and is visited by walks; at a fifth, the
        /// graph holds at most a quarter more nodes than facts, recall stayed within a point of
        /// a fresh build, and a rebuild's cost is spread over the deletes of a fifth of the graph.
        var compactionShare = 0.2
        /// The threads that build a graph: every core the process may use, up to 8. The build
        /// links nodes in parallel as hnswlib does (``NeighborGraph/insert(rows:of:threads:progress:)``);
        /// two threads build a graph nearly twice as fast as one, with the same recall (see
        /// ApproximateSearch.md, "Building on two threads"). Capped so that a compaction on a
        /// large server leaves cores to the searches it runs beside.
        var buildThreads = min(8, VectorSnapshot.defaultThreads)
    }

    /// Where the graphs of a database file are saved: a directory beside it, one file per
    /// namespace (named by a hash of the namespace, which the file also holds and is checked).
    struct Storage: Sendable {
        var directory: URL
        /// The embedder's model name, which a saved graph must have been made with.
        var model: String
        /// The number of the database's latest change. A graph is saved only when it holds that
        /// change, so that a save racing an erasure never puts an erased fact back on disk.
        var latestSequence: @Sendable () throws -> Int64

        /// The directory beside the database file at `path`.
        static func directory(besideDatabaseAt path: String) -> URL {
            URL(fileURLWithPath: path + "-graphs", isDirectory: true)
        }

        func url(of namespace: String) -> URL {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in namespace.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            let name = String(hash, radix: 16)
            return directory.appendingPathComponent(String(repeating: "0", count: 16 - name.count) + name + ".hnsw")
        }

        /// Runs `body` holding the directory's lock file, which orders saves against the erasure
        /// path's removal across processes.
        func locked<Result>(_ body: () throws -> Result) throws -> Result {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let descriptor = open(directory.appendingPathComponent("lock").path, O_CREAT | O_RDWR, 0o644)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX) == 0 else { throw CocoaError(.fileLocking) }
            return try body()
        }
    }

    /// How graphs came to be, for tests and benchmarks.
    struct Statistics: Sendable, Equatable {
        /// Graphs built from the vectors.
        var builds = 0
        /// Graphs read from a saved file.
        var loads = 0
        /// Facts a loaded graph was repaired for (changed since its save).
        var repairs = 0
        /// Saved files that were not used, and why.
        var rejected: [String] = []
        /// Files written.
        var saves = 0
        /// Graphs rebuilt to drop their tombstones (also counted in ``builds``).
        var compactions = 0
        /// Builds stopped by ``cancelBuild(of:)`` or ``cancelBuilds()`` before their graph was
        /// installed (not counted in ``builds``).
        var cancellations = 0
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
    let storage: Storage?
    private let stateLock = NSLock()
    private let graphLock = ReadWriteLock()
    private var _settings = Settings()
    /// Graphs by namespace (guarded by `graphLock`).
    private var graphs: [String: Installed] = [:]
    /// The namespaces being built and the change each build starts from (guarded by `stateLock`).
    private var builds: [String: Int64] = [:]
    /// What tells each build under way to stop (guarded by `stateLock`).
    private var cancellations: [String: BuildCancellation] = [:]
    /// The facts each build inserted so far and their number (guarded by `stateLock`).
    private var buildProgress: [String: (done: Int, total: Int)] = [:]
    /// Updates not yet applied to every graph, in commit order (guarded by `stateLock`).
    private var log: [(sequence: Int64, update: Update)] = []
    /// Whether any graph exists or is being built, so that updates must be logged.
    private var isTracking = false
    private var _pathCounts: [VectorIndex.ApproximatePath: Int] = [:]
    private var _walkWidths: [Int: Int] = [:]
    private var _statistics = Statistics()
    /// Changes applied to each namespace's graph since it was last saved (guarded by `stateLock`).
    private var changesSinceSave: [String: Int] = [:]
    /// The namespaces whose graph a background thread is saving (guarded by `stateLock`).
    private var saving: Set<String> = []

    init(dimension: Int, storage: Storage? = nil) {
        self.dimension = dimension
        self.storage = storage
    }

    var statistics: Statistics { stateLock.withLock { _statistics } }

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
    /// it is being built, or exists and needs no compaction (``needsCompaction(_:)``). Call it
    /// under the vector index's lock, with that state.
    ///
    /// A compaction builds a new graph from that state while the old one keeps answering
    /// searches and taking in commits; the log keeps every update from `sequence` on, which
    /// the new graph takes in before it replaces the old one.
    func claimBuild(of namespace: String, at sequence: Int64) -> Bool {
        let settings = settings
        let blocked = graphLock.reading { graphs[namespace].map { $0.graph.tombstoneShare < settings.compactionShare } }
        return stateLock.withLock {
            guard blocked != true, builds[namespace] == nil else { return false }
            builds[namespace] = sequence
            cancellations[namespace] = BuildCancellation()
            isTracking = true
            return true
        }
    }

    /// How many searches took each path, for tests and benchmarks.
    var pathCounts: [VectorIndex.ApproximatePath: Int] { stateLock.withLock { _pathCounts } }

    func count(_ path: VectorIndex.ApproximatePath) {
        stateLock.withLock { _pathCounts[path, default: 0] += 1 }
    }

    /// How many walks each beam width took, for tests and benchmarks.
    var walkWidths: [Int: Int] { stateLock.withLock { _walkWidths } }

    func countWalk(width: Int) {
        stateLock.withLock { _walkWidths[width, default: 0] += 1 }
    }

    /// Stops the build of `namespace`'s graph, if one is under way: it ends within one node's
    /// insertion per thread, installs nothing and saves nothing (a compaction's old graph goes on
    /// answering). The next search or ``VectorIndex/buildGraph(of:progress:)`` starts a new one.
    func cancelBuild(of namespace: String) {
        stateLock.withLock { cancellations[namespace]?.cancel() }
    }

    /// Stops every build under way, as ``cancelBuild(of:)`` does: the vector index that started
    /// them is going away (its knowledge base was released), and nothing would use their graphs.
    func cancelBuilds() {
        stateLock.withLock { for cancellation in cancellations.values { cancellation.cancel() } }
    }

    /// Whether `namespace`'s graph is being built.
    func isBuilding(_ namespace: String) -> Bool {
        stateLock.withLock { builds[namespace] != nil }
    }

    /// The facts inserted so far by the build of `namespace`'s graph and their number; `nil`
    /// when none is under way or it is still reading a saved graph.
    func progressOfBuild(of namespace: String) -> (done: Int, total: Int)? {
        stateLock.withLock { buildProgress[namespace] }
    }

    /// Whether `namespace` has a graph.
    func hasGraph(_ namespace: String) -> Bool {
        graphLock.reading { graphs[namespace] != nil }
    }

    /// Whether `namespace`'s graph holds ``Settings/compactionShare`` tombstones or more and no
    /// build of it is under way: it should be rebuilt.
    func needsCompaction(_ namespace: String) -> Bool {
        let share = settings.compactionShare
        return graphLock.reading { graphs[namespace].map { $0.graph.tombstoneShare >= share } ?? false }
            && !isBuilding(namespace)
    }

    /// Builds the graph of `namespace` from `store` (the index's state at `sequence`, claimed
    /// with ``claimBuild(of:at:)``), brings it up to date with the log and installs it, in place
    /// of the graph it compacts if there is one. The saved graph is used when sound and close
    /// enough to `store` (see ``restore(_:matching:)``), unless this is a compaction: the file
    /// holds the tombstones too. A graph is built on ``Settings/buildThreads`` threads; progress
    /// is posted every thousand facts (``progressOfBuild(of:)``).
    ///
    /// A build cancelled meanwhile (``cancelBuild(of:)``) stops within one node's insertion per
    /// thread and drops what it built: nothing is installed or saved, and it returns false.
    @discardableResult
    func build(namespace: String, from store: VectorSnapshot, sequence: Int64) -> Bool {
        let cancellation = stateLock.withLock { cancellations[namespace] } ?? BuildCancellation()
        let compacting = hasGraph(namespace)
        let restored = compacting ? nil : restore(namespace, matching: store)
        let graph = restored?.graph ?? NeighborGraph(dimension: dimension, parameters: settings.parameters)
        if restored == nil {
            let rows = store.namespaceRows(namespace)
            let whole = graph.insert(
                rows: rows, of: store, threads: settings.buildThreads, isCancelled: { cancellation.isCancelled },
                progress: { done in self.stateLock.withLock { self.buildProgress[namespace] = (done, rows.count) } })
            if whole { stateLock.withLock { _statistics.builds += 1 } }
        }
        guard !cancellation.isCancelled else {
            abandonBuild(of: namespace)
            return false
        }
        let mapped = graphLock.writing {
            var installed = Installed(graph: graph, sequence: sequence)
            for (sequence, update) in pendingLog(after: sequence) {
                _ = Self.apply(update, to: graph, namespace: namespace)
                installed.sequence = sequence
            }
            graphs[namespace] = installed
            stateLock.withLock { changesSinceSave[namespace] = 0 }
            return graph.savedFile != nil
        }
        if mapped { detachInBackground(graph) }
        if (restored?.repairs ?? 1) > 0 { _ = save(namespace) }
        // The build ends once saved, so that whoever waits for it (``VectorIndex/buildGraph``)
        // finds the file in place.
        stateLock.withLock {
            _ = builds.removeValue(forKey: namespace)
            _ = buildProgress.removeValue(forKey: namespace)
            _ = cancellations.removeValue(forKey: namespace)
            if compacting { _statistics.compactions += 1 }
        }
        trimLog()
        return true
    }

    /// Ends a cancelled build of `namespace`: its graph is dropped, and when no graph exists and
    /// no other build runs, updates are no longer logged (nothing would take them in; a new
    /// claim starts logging again from its own state).
    private func abandonBuild(of namespace: String) {
        // Graphs are read before the state, in the order ``build`` installs them.
        graphLock.reading {
            stateLock.withLock {
                _ = builds.removeValue(forKey: namespace)
                _ = buildProgress.removeValue(forKey: namespace)
                _ = cancellations.removeValue(forKey: namespace)
                _statistics.cancellations += 1
                if graphs.isEmpty, builds.isEmpty {
                    isTracking = false
                    log.removeAll()
                }
            }
        }
        trimLog()
    }

    /// The graph saved for `namespace`, brought to `store`'s state; `nil` when there is none or
    /// it cannot be trusted (the reason is counted in ``statistics``).
    ///
    /// The snapshot is what the graph is checked against, not a marker of when it was saved:
    /// every fact of the namespace must have a live node with its codes, scale and attributes,
    /// and every live node a fact. So whatever happened since the save (writes by any process,
    /// a restored backup, another database copied over this one) shows as facts that differ.
    /// Few differ: they are repaired (upserted or removed). More than a quarter: rebuilding is
    /// cheaper than repairing and leaves no tombstones, so the file is rejected as stale.
    /// A graph left with ``Settings/compactionShare`` tombstones or more is rejected too: its
    /// tombstones were saved without codes, so a search can only look through them to their
    /// neighbours, never score them; a build on this thread replaces it at once.
    private func restore(_ namespace: String, matching store: VectorSnapshot) -> (graph: NeighborGraph, repairs: Int)? {
        guard let storage else { return nil }
        let url = storage.url(of: namespace)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let graph = try GraphFile.read(from: url, identity: identity(of: namespace))
            let repairs = try Self.repair(graph, toMatch: store, namespace: namespace)
            guard graph.tombstoneShare < settings.compactionShare else {
                throw GraphFile.Defect.tombstones(graph.count - graph.liveCount, of: graph.count)
            }
            stateLock.withLock {
                _statistics.loads += 1
                _statistics.repairs += repairs
            }
            return (graph, repairs)
        } catch {
            stateLock.withLock { _statistics.rejected.append("\(error)") }
            return nil
        }
    }

    /// Moves `graph`, installed as read from its file, into memory of its own on a background
    /// thread, so that it neither holds the file (which an erasure may replace) for long nor
    /// makes its first change wait for the copy. The copy is made under the read lock: searches
    /// go on, and changes, which would detach the graph themselves, wait. The graph takes it under
    /// the write lock, unless a change detached it meanwhile.
    private func detachInBackground(_ graph: NeighborGraph) {
        Thread.detachNewThread { [self] in
            let copied = graphLock.reading { () -> (NeighborGraph.Columns, capacity: Int)? in
                guard graph.savedFile != nil else { return nil }
                let capacity = NeighborGraph.capacityAfterDetaching(graph.count)
                return (graph.copiedColumns(capacity: capacity), capacity)
            }
            guard let (columns, capacity) = copied else { return }
            graphLock.writing { graph.adoptColumns(columns, capacity: capacity) }
        }
    }

    /// Upserts the facts of `namespace` in `store` that `graph` lacks or holds otherwise, and
    /// removes its live nodes that `store` no longer holds there; returns how many.
    /// - Throws: ``GraphFile/Defect/stale(differing:of:)`` when more than a quarter differ.
    private static func repair(_ graph: NeighborGraph, toMatch store: VectorSnapshot, namespace: String) throws -> Int {
        let rows = store.namespaceRows(namespace)
        // Each row is looked up and compared: a million of them on two cores (read-only).
        func compare(_ rows: ArraySlice<Int32>) -> (differing: [Int], held: Int) {
            var differing: [Int] = []
            var held = 0
            for row in rows.lazy.map(Int.init) {
                guard let node = graph.nodeOfID[store.ids[row]] else {
                    differing.append(row)
                    continue
                }
                held += 1
                if !graph.matches(node, row: row, of: store) { differing.append(row) }
            }
            return (differing, held)
        }
        let middle = rows.count / 2
        let (lower, upper) = onBothCores({ compare(rows[..<middle]) }, { compare(rows[middle...]) })
        let differing = lower.differing + upper.differing
        let held = lower.held + upper.held
        let code = store.namespaceCode(namespace)
        let gone =
            held == graph.liveCount
            ? []
            : graph.nodeOfID.keys.filter { id in
                store.row(of: id).map { store.namespaceCodes[$0] != code } ?? true
            }
        guard differing.count + gone.count <= max(rows.count, graph.liveCount) / 4 else {
            throw GraphFile.Defect.stale(differing: differing.count + gone.count, of: rows.count)
        }
        for id in gone { graph.remove(id: id) }
        for row in differing { store.insertRow(row, into: graph) }
        return differing.count + gone.count
    }

    private func identity(of namespace: String) -> GraphFile.Identity {
        GraphFile.Identity(
            model: storage?.model ?? "", dimension: dimension, namespace: namespace, parameters: settings.parameters)
    }

    /// Writes `namespace`'s graph to its file, if it has one and it holds the database's latest
    /// change, checked under the directory's lock right before the file is renamed into place.
    /// Writers wait while the graph is written out (it is read under the read lock, so the file
    /// is one state); searches do not.
    /// - Returns: whether the file now holds the graph. When not, the next catch-up saves again.
    func save(_ namespace: String) -> Bool {
        guard let storage else { return false }
        let url = storage.url(of: namespace)
        let written = graphLock.reading { () -> (file: URL, sequence: Int64)? in
            guard let installed = graphs[namespace],
                let file = try? GraphFile.writeTemporary(
                    installed.graph, identity: identity(of: namespace), beside: url)
            else { return nil }
            return (file, installed.sequence)
        }
        let saved =
            written.map { written in
                (try? storage.locked {
                    guard try storage.latestSequence() == written.sequence else { return false }
                    try GraphFile.install(written.file, at: url)
                    return true
                }) == true
            } ?? false
        if !saved, let written { try? FileManager.default.removeItem(at: written.file) }
        stateLock.withLock {
            saving.remove(namespace)
            if saved {
                _statistics.saves += 1
                changesSinceSave[namespace] = 0
            } else {
                changesSinceSave[namespace] = .max / 2
            }
        }
        return saved
    }

    /// After an erasure committed here: the saved file of `namespace` may hold the erased facts'
    /// codes. It is rewritten from the graph once the erasure is in it (tombstones are saved
    /// without codes or ids) or, when this process holds no graph of the namespace or the
    /// database moved on meanwhile, removed; the next build then starts afresh.
    func scrubSavedGraph(of namespace: String) {
        // No directory: nothing was ever saved, and a save starting now creates it before it
        // checks (under the lock) that its graph holds the latest change, which this erasure is.
        guard let storage, FileManager.default.fileExists(atPath: storage.directory.path) else { return }
        catchUp()
        if save(namespace) { return }
        let url = storage.url(of: namespace)
        _ = try? storage.locked { try? FileManager.default.removeItem(at: url) }
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
        var due: [String] = []
        graphLock.writing {
            for (namespace, installed) in graphs where installed.sequence < latest {
                var sequence = installed.sequence
                var changes = 0
                for (entrySequence, update) in pendingLog(after: installed.sequence) {
                    changes += Self.apply(update, to: installed.graph, namespace: namespace)
                    sequence = entrySequence
                }
                graphs[namespace]?.sequence = sequence
                let interval = max(settings.saveInterval, installed.graph.count / 100)
                stateLock.withLock {
                    changesSinceSave[namespace, default: 0] += changes
                    if storage != nil, changesSinceSave[namespace]! >= interval,
                        saving.insert(namespace).inserted
                    {
                        due.append(namespace)
                    }
                }
            }
        }
        trimLog()
        for namespace in due {
            Thread.detachNewThread { [self] in _ = save(namespace) }
        }
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

    /// Applies `update` to `namespace`'s graph; returns how many facts it named.
    private static func apply(_ update: Update, to graph: NeighborGraph, namespace: String) -> Int {
        switch update {
        case .changes(let changes):
            for (id, row) in changes.rows {
                if let row, row.attributes.namespace == namespace {
                    graph.upsert(id: id, vector: row.vector, attributes: row.attributes)
                } else {
                    graph.remove(id: id)
                }
            }
            return changes.rows.count
        case .full(let store):
            let code = store.namespaceCode(namespace)
            for id in Array(graph.nodeOfID.keys) {
                if let code, let row = store.row(of: id), store.namespaceCodes[row] == code { continue }
                graph.remove(id: id)
            }
            let rows = store.namespaceRows(namespace)
            for row in rows { store.insertRow(Int(row), into: graph) }
            return rows.count
        }
    }
}

extension VectorSnapshot {
    /// The row of fact `id`, if it has one.
    func row(of id: Int64) -> Int? { rowOfID[id] }

    /// The rows of `namespace`.
    func namespaceRows(_ namespace: String) -> [Int32] {
        guard let code = namespaceCode(namespace) else { return [] }
        return rows(ofNamespace: code) ?? Array(0..<Int32(count))
    }

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

/// Tells a graph build to stop: its threads ask before they take each node.
final class BuildCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() { lock.withLock { cancelled = true } }
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
