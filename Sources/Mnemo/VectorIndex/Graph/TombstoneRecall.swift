import Foundation

extension KnowledgeBase {
    /// The recall of a graph index at one share of tombstones: see
    /// ``graphRecallWithTombstones(queries:shares:k:progress:)``.
    package struct TombstoneRecall: Sendable {
        /// The share of the graph's nodes that are tombstones.
        package var share: Double
        /// Recall@k against the exact scan of the facts left, of the graph holding the
        /// tombstones, which keep their codes and stay waypoints (as in memory).
        package var recall: Double
        /// The same graph saved and read back: its tombstones lost their codes (see ``GraphFile``).
        package var reopenedRecall: Double
        /// A graph built afresh from the facts left.
        package var rebuiltRecall: Double
        /// For each of the three graphs, the queries whose walk did not fill its beam with live
        /// nodes or ran out of its budget: a search would scan instead (and its answer, exact,
        /// is what the recalls above count for them).
        package var fallbacks: [Int]
        /// For each of the three graphs, the mean number of nodes a walk visited: the work of a
        /// search, which does not move with the machine's load as its time does.
        package var meanVisits: [Double]
        /// For each of the three graphs, the mean time of a walk (without rescoring), in milliseconds.
        package var meanWalkMilliseconds: [Double]
    }

    /// How a graph index's recall falls as its nodes become tombstones, the measurement behind
    /// ``ApproximateIndex/Settings/compactionShare``: builds a graph of this namespace's vectors,
    /// makes tombstones of an evenly spread pseudo-random `share` of its nodes (cumulatively,
    /// in increasing order of `shares`) and measures, at each, recall@`k` over `queries` against
    /// the exact scan of the facts left, beside the same graph saved and read back and a graph
    /// built afresh. Nothing in the database or the knowledge base's own graph changes.
    package func graphRecallWithTombstones(
        queries: [[Float]], shares: [Double], k: Int = 10, progress: (@Sendable (String) -> Void)? = nil
    ) async throws -> [TombstoneRecall] {
        let store = try await vectorSnapshot()
        guard let vectorIndex else { return [] }
        let settings = vectorIndex.approximate.settings
        let width = max(settings.searchWidth, k)
        // Removed in the order of a multiplicative hash of their ids: spread over the corpus.
        let order = store.namespaceRows(namespace).map(Int.init)
            .sorted {
                UInt64(bitPattern: store.ids[$0]) &* 0x9E37_79B9_7F4A_7C15 < UInt64(bitPattern: store.ids[$1])
                    &* 0x9E37_79B9_7F4A_7C15
            }
        func build(_ rows: some Collection<Int>) -> NeighborGraph {
            let graph = NeighborGraph(dimension: store.dimension, parameters: settings.parameters)
            graph.insert(rows: rows.map(Int32.init), of: store, threads: settings.buildThreads) { _ in }
            return graph
        }
        progress?("building a graph of \(order.count.formatted()) facts")
        let graph = build(order.sorted())
        let identity = GraphFile.Identity(
            model: "", dimension: store.dimension, namespace: namespace, parameters: settings.parameters)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mnemo-tombstones-\(UUID().uuidString).hnsw")
        var removed = 0
        var points: [TombstoneRecall] = []
        for share in shares.sorted() {
            let target = min(order.count, Int((share * Double(order.count)).rounded()))
            while removed < target {
                graph.remove(id: store.ids[order[removed]])
                removed += 1
            }
            let left = order[removed...].sorted().map { TopK.Entry(score: 0, row: $0) }
            let exact = queries.map { query in
                Set(store.rescore(left, query: query, k: k, floor: -.infinity).map(\.id))
            }
            let file = try GraphFile.writeTemporary(graph, identity: identity, beside: scratch)
            defer { try? FileManager.default.removeItem(at: file) }
            let reopened = try GraphFile.read(from: file, identity: identity)
            progress?("rebuilding without \(Int(share * 100)) % of the facts")
            let rebuilt = build(left.lazy.map(\.row))
            let measured = [graph, reopened, rebuilt].map { walked in
                var total = 0.0
                var fallbacks = 0
                var visits = 0
                var walkTime = Duration.zero
                let clock = ContinuousClock()
                for (query, exact) in zip(queries, exact) {
                    let start = clock.now
                    let walk = walked.nearestIDs(to: query, width: width, passingShare: 1) { _ in true }
                    walkTime += clock.now - start
                    visits += walk.visits
                    let rows = walk.ids.compactMap { store.row(of: $0) }
                    guard rows.count >= width, !walk.exhaustedBudget else {
                        fallbacks += 1
                        total += 1
                        continue
                    }
                    let found = store.rescore(
                        rows.map { TopK.Entry(score: 0, row: $0) }, query: query, k: k, floor: -.infinity)
                    total += exact.isEmpty ? 1 : Double(exact.intersection(found.map(\.id)).count) / Double(exact.count)
                }
                let count = Double(max(1, queries.count))
                return (
                    recall: total / count, fallbacks: fallbacks, visits: Double(visits) / count,
                    milliseconds: Double(walkTime.components.attoseconds) / 1e15 / count
                        + Double(walkTime.components.seconds) * 1e3 / count
                )
            }
            points.append(
                TombstoneRecall(
                    share: graph.tombstoneShare, recall: measured[0].recall, reopenedRecall: measured[1].recall,
                    rebuiltRecall: measured[2].recall, fallbacks: measured.map(\.fallbacks),
                    meanVisits: measured.map(\.visits), meanWalkMilliseconds: measured.map(\.milliseconds)))
        }
        return points
    }
}
