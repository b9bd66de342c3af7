import Dispatch
import Foundation

extension VectorIndex {
    /// How an approximate search found its matches.
    enum ApproximatePath: String, Sendable, CaseIterable {
        /// The namespace is below ``ApproximateIndex/Settings/minimumRows``: the exact float scan.
        case exactScan
        /// Few rows pass the filter: they were listed and scored exactly (int8 + rescoring).
        case passingRows
        /// The graph's traversal found k passing facts.
        case graph
        /// The traversal's beam did not fill with passing facts (it ran out of them, or of its
        /// budget); the passing rows, listed and scored (or, when most rows pass, the int8 scan),
        /// gave the answer.
        case graphThenScan
        /// The graph is being built: the int8 scan meanwhile.
        case buildingScan
    }

    /// The `k` best rows of `store` (the namespace's, which `filter` names) passing `filter`, by
    /// cosine similarity to the unit vector `query`, through the namespace's graph when it is
    /// large enough: ``VectorScan/approximate``.
    ///
    /// k results come back whenever k rows pass: a filter estimated to let few rows through is
    /// answered by scoring those rows exactly (when the cost model of
    /// ``ApproximateIndex/Settings/listsPassingRows(passing:of:vectorized:)`` finds it cheaper
    /// than the walk), and a traversal whose beam does not fill with passing nodes is replaced by
    /// scoring every passing row. Every node the graph returns is checked against
    /// `store` (its row and attributes there) and rescored with its float vector there, so a
    /// graph that is ahead of the snapshot never returns what the snapshot does not hold.
    func approximateNearest(
        in store: VectorSnapshot, namespace: String, query: [Float], k: Int, filter: VectorFilter,
        minSimilarity: Float?, alongside work: (@Sendable () -> Void)? = nil
    ) -> [VectorSnapshot.Match] {
        let settings = approximate.settings
        let floor = minSimilarity ?? -.infinity
        let total = store.rows(ofNamespace: filter.namespaceCode)?.count ?? store.count
        guard k > 0, total >= settings.minimumRows else {
            approximate.count(.exactScan)
            return store.nearest(to: query, k: k, filter: filter, minSimilarity: minSimilarity, alongside: work)
        }
        let passing = store.estimatedPassingRows(filter)
        let share = Double(passing) / Double(total)
        if share < NeighborGraph.expansionShare,
            settings.listsPassingRows(passing: passing, of: total, vectorized: store.listsVectorized(filter))
        {
            approximate.count(.passingRows)
            let rows = store.passingRows(filter, expected: passing)
            return store.nearest(to: query, k: k, among: rows, floor: floor, alongside: work)
        }
        guard approximate.hasGraph(namespace) else {
            buildGraphInBackground(of: namespace)
            approximate.count(.buildingScan)
            return scan(store, query: query, k: k, filter: filter, minSimilarity: minSimilarity, alongside: work)
        }
        let width = settings.width(k: k, passingShare: share)
        approximate.countWalk(width: width)
        // The beam's best by their int8 scores are rescored in `Float`, not the whole beam.
        let rescored = max(k, min(width, settings.rescoredCandidates))
        let candidates = Self.alongside(work) {
            approximate.withGraph(namespace) { graph in
                graph.nearestIDs(to: query, width: width, limit: rescored, passingShare: share) { node in
                    filter.accepts(
                        flag: graph.flags[Int(node)], topicID: graph.topicIDs[Int(node)],
                        createdTime: graph.createdTimes[Int(node)])
                }
            }
        }
        // Tombstones the graph took in (deletes, new vectors, erasures) past the measured share:
        // rebuild it; this one answers until the new one replaces it.
        if approximate.needsCompaction(namespace) { buildGraphInBackground(of: namespace) }
        let rows = (candidates?.ids ?? []).compactMap { id in
            store.row(of: id).flatMap { store.passes($0, filter) ? $0 : nil }
        }
        // A beam that did not fill ran out of passing nodes it could reach: fewer than its width
        // pass, or they lie apart in the graph. Either way the best may be among those it missed;
        // so may they when the walk ran out of its budget of visits. And a node the snapshot
        // does not hold (or holds failing the filter) among the best leaves fewer to rescore.
        guard let candidates, candidates.found >= width, rows.count >= rescored, !candidates.exhaustedBudget
        else {
            approximate.count(.graphThenScan)
            // Under a selective filter, only the passing rows are scored (listed by the kernel),
            // not every row of the namespace with the filter tested on each.
            guard share < NeighborGraph.expansionShare else {
                return scan(store, query: query, k: k, filter: filter, minSimilarity: minSimilarity, alongside: nil)
            }
            return store.nearest(to: query, k: k, among: store.passingRows(filter, expected: passing), floor: floor)
        }
        approximate.count(.graph)
        return store.rescore(rows.map { TopK.Entry(score: 0, row: $0) }, query: query, k: k, floor: floor)
    }

    /// The int8 scan of every row passing `filter`, with float rescoring.
    private func scan(
        _ store: VectorSnapshot, query: [Float], k: Int, filter: VectorFilter, minSimilarity: Float?,
        alongside work: (@Sendable () -> Void)?
    ) -> [VectorSnapshot.Match] {
        store.nearest(
            to: query, k: k, filter: filter, minSimilarity: minSimilarity, precision: .quantized(rescoreFactor: 10),
            alongside: work)
    }

    /// Runs `work`, when given, on another core while `body` runs on this one.
    private static func alongside<Result>(_ work: (@Sendable () -> Void)?, _ body: () -> Result) -> Result {
        guard let work else { return body() }
        return onBothCores(work, body).1
    }

    /// Builds `namespace`'s graph on a background thread, unless it is being built or exists and
    /// needs no compaction.
    func buildGraphInBackground(of namespace: String) {
        guard let (store, sequence) = claimGraphBuild(of: namespace) else { return }
        let approximate = approximate
        Thread.detachNewThread {
            approximate.build(namespace: namespace, from: store, sequence: sequence)
        }
    }

    /// Builds `namespace`'s graph from the index as loaded, unless a build is under way, and
    /// returns once it is built and saved; `progress` is told the facts inserted so far and their number
    /// meanwhile (a search may have started the build already).
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the build ends: the build
    ///   (this call's, or the one a search started) is stopped (``ApproximateIndex/cancelBuild(of:)``)
    ///   and this returns once it has ended, with no graph installed or saved by it.
    func buildGraph(of namespace: String, progress: ((_ done: Int, _ total: Int) -> Void)? = nil) async throws {
        buildGraphInBackground(of: namespace)
        let approximate = approximate
        // The handler stops the build the moment the task is cancelled, on the cancelling thread,
        // however long this task waits for a thread to resume on.
        try await withTaskCancellationHandler {
            while approximate.isBuilding(namespace) {
                if Task.isCancelled {
                    // Also here: the task may have been cancelled before this build was claimed.
                    approximate.cancelBuild(of: namespace)
                    // Within one node's insertion per thread, or the end of a saved graph's reading.
                    while approximate.isBuilding(namespace) { usleep(2_000) }
                    throw CancellationError()
                }
                if let state = approximate.progressOfBuild(of: namespace) { progress?(state.done, state.total) }
                // Ends early when the task is cancelled; the loop then waits for the build's end.
                try? await Task.sleep(for: .milliseconds(50))
            }
            // The handler may have stopped the build before the loop looked.
            try Task.checkCancellation()
        } onCancel: {
            approximate.cancelBuild(of: namespace)
        }
    }
}
