extension NeighborGraph {
    /// What a filtered traversal of layer 0 found.
    struct Traversal {
        /// The best passing nodes, best first (`row` is the node), at most the beam width.
        var found: [TopK.Entry]
        /// Whether the traversal stopped at its budget of visited nodes, so that passing nodes
        /// it did not reach may be better than what it found.
        var exhaustedBudget: Bool
        /// The nodes it visited (scored, or looked through to their neighbours).
        var visits: Int
    }

    /// The beam search of one layer without a filter, as insertions use it: the `width` nodes
    /// nearest the query that the search reaches from `entries`, best first. `visited` is
    /// cleared first: scratch space the caller reuses from one layer, or insertion, to the next.
    func searchLayer(
        _ kernel: QuantizedQuery.Kernel, from entries: [TopK.Entry], width: Int, layer: Int,
        visited: inout VisitedNodes
    ) -> [TopK.Entry] {
        visited.clear()
        var candidates = CandidateQueue()
        var results = TopK(capacity: width)
        for entry in entries {
            visited.insert(Int32(entry.row))
            candidates.push(score: entry.score, node: Int32(entry.row))
            results.insert(score: entry.score, row: entry.row)
        }
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: baseDegree) { pending in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: baseDegree) { scores in
                while let candidate = candidates.pop() {
                    if candidate.score < results.threshold { break }
                    var fresh = 0
                    withLockedNeighbors(of: candidate.node, layer: layer) { neighbors in
                        for neighbor in neighbors where visited.insert(neighbor) {
                            pending[fresh] = neighbor
                            fresh += 1
                        }
                    }
                    scoreNodes(kernel, pending.baseAddress!, count: fresh, into: scores.baseAddress!)
                    for index in 0..<fresh where scores[index] > results.threshold {
                        candidates.push(score: scores[index], node: pending[index])
                        results.insert(score: scores[index], row: Int(pending[index]))
                    }
                }
            }
        }
        return results.sorted()
    }

    /// The best nodes for the query that are live and pass `accepts`, searched with a beam of
    /// `width` on layer 0 after the descent of the upper layers (``descend(_:from:top:to:visited:)``).
    ///
    /// A node that fails the filter is not a result, but the walk must go on through it or a
    /// selective filter strands the search in a region where nothing passes. With
    /// `expandThroughFailing` (for filters that most nodes fail), a failing neighbour is not
    /// scored at all: its own neighbours are looked at instead, and only passing nodes are scored
    /// and followed: ACORN-1's two-hop expansion (Patel et al. 2024), as Lucene and Weaviate
    /// filter their graphs. Otherwise (most nodes pass) failing nodes are scored and followed
    /// like the others, as hnswlib does; a tombstone read back from a saved file has no codes to
    /// score (``GraphFile`` blanks them), so it is expanded through in either case rather than
    /// be a dead end. The walk stops after visiting `budget` nodes.
    func searchFiltered(
        _ kernel: QuantizedQuery.Kernel, width: Int, budget: Int, expandThroughFailing: Bool,
        accepts: (Int32) -> Bool
    ) -> Traversal {
        guard entry >= 0 else { return Traversal(found: [], exhaustedBudget: false, visits: 0) }
        var visited = VisitedNodes(count: count)
        let entries = descend(kernel, from: entry, top: topLevel, to: 0, visited: &visited)
        visited.clear()
        var candidates = CandidateQueue()
        var results = TopK(capacity: width)
        var visits = entries.count
        @inline(__always) func passes(_ node: Int32) -> Bool { isLive[Int(node)] && accepts(node) }
        /// Whether `node` is scored and followed, rather than looked through to its neighbours.
        @inline(__always) func isScored(_ node: Int32) -> Bool {
            expandThroughFailing ? passes(node) : isLive[Int(node)] || scales[Int(node)] != 0
        }
        for entry in entries {
            let node = Int32(entry.row)
            visited.insert(node)
            candidates.push(score: entry.score, node: node)
            if passes(node) { results.insert(score: entry.score, row: entry.row) }
        }
        let capacity = baseDegree * baseDegree
        var exhausted = false
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity) { pending in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: capacity) { scores in
                while let candidate = candidates.pop() {
                    if candidate.score < results.threshold { break }
                    // Once every node is visited the walk is exact: the budget no longer matters.
                    if visits >= budget && visits < count {
                        exhausted = true
                        break
                    }
                    var fresh = 0
                    withNeighbors(of: candidate.node, layer: 0) { neighbors in
                        for neighbor in neighbors where visited.insert(neighbor) {
                            visits += 1
                            if isScored(neighbor) {
                                pending[fresh] = neighbor
                                fresh += 1
                                continue
                            }
                            withNeighbors(of: neighbor, layer: 0) { second in
                                for node in second where !visited.contains(node) && isScored(node) {
                                    visited.insert(node)
                                    visits += 1
                                    pending[fresh] = node
                                    fresh += 1
                                }
                            }
                        }
                    }
                    scoreNodes(kernel, pending.baseAddress!, count: fresh, into: scores.baseAddress!)
                    for index in 0..<fresh where scores[index] > results.threshold {
                        let node = pending[index]
                        candidates.push(score: scores[index], node: node)
                        if !expandThroughFailing && !passes(node) { continue }
                        results.insert(score: scores[index], row: Int(node))
                    }
                }
            }
        }
        return Traversal(found: results.sorted(), exhaustedBudget: exhausted, visits: visits)
    }

    /// The ids of the best live nodes for the unit vector `query` that pass `accepts`, at most
    /// `width`: the walk of ``searchFiltered(_:width:budget:expandThroughFailing:accepts:)``
    /// with the budget and the expansion chosen by `passingShare`, the estimated share of nodes
    /// that pass.
    func nearestIDs(to query: [Float], width: Int, passingShare share: Double, accepts: (Int32) -> Bool)
        -> (ids: [Int64], exhaustedBudget: Bool, visits: Int)
    {
        QuantizedQuery(query).withKernel { kernel in
            // Twice the visits of an unfiltered walk (each beam step looks at a full neighbour
            // list), for the share of them that passes.
            let budget = Int(min(Double(count), Double(2 * width * baseDegree) / max(share, 1e-3)))
            let traversal = searchFiltered(
                kernel, width: width, budget: budget, expandThroughFailing: share < 0.5, accepts: accepts)
            return (traversal.found.map { ids[$0.row] }, traversal.exhaustedBudget, traversal.visits)
        }
    }

    /// Scores `count` nodes listed at `nodes` with one kernel call (which prefetches the rows ahead).
    @inline(__always)
    private func scoreNodes(
        _ kernel: QuantizedQuery.Kernel, _ nodes: UnsafePointer<Int32>, count: Int,
        into scores: UnsafeMutablePointer<Float>
    ) {
        guard count > 0 else { return }
        kernel.scores(ScanBlock(rows: nodes, first: 0, count: count), codes: codes, scales: scales, into: scores)
    }
}

/// The nodes a search has reached: one bit per node.
struct VisitedNodes {
    private var words: [UInt64]
    /// The words ``insert(_:)`` set a bit in since the last ``clear()``: at a million nodes the
    /// set takes 125 kB, which a walk of a few thousand nodes would otherwise clear or allocate
    /// again for every layer of every search and insertion.
    private var touched: [Int32] = []

    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    /// Unmarks every node.
    mutating func clear() {
        for word in touched { words[Int(word)] = 0 }
        touched.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    func contains(_ node: Int32) -> Bool {
        words[Int(node) >> 6] & (1 << UInt64(node & 63)) != 0
    }

    /// Marks `node`; true when it was not marked before.
    @inline(__always)
    @discardableResult
    mutating func insert(_ node: Int32) -> Bool {
        let bit: UInt64 = 1 << UInt64(node & 63)
        let word = Int(node) >> 6
        let old = words[word]
        guard old & bit == 0 else { return false }
        if old == 0 { touched.append(Int32(word)) }
        words[word] = old | bit
        return true
    }
}

/// The frontier of a beam search: a max-heap of scored nodes.
struct CandidateQueue {
    private var entries: [(score: Float, node: Int32)] = []

    mutating func push(score: Float, node: Int32) {
        entries.append((score, node))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].score > entries[parent].score else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// The best entry, removed; `nil` when empty.
    mutating func pop() -> (score: Float, node: Int32)? {
        guard let top = entries.first else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return top }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var largest = parent
            if left < entries.count, entries[left].score > entries[largest].score { largest = left }
            if right < entries.count, entries[right].score > entries[largest].score { largest = right }
            guard largest != parent else { return top }
            entries.swapAt(parent, largest)
            parent = largest
        }
    }
}
