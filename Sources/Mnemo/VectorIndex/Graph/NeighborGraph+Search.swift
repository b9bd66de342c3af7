import Foundation
internal import MnemoKernels

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
        /// The most nodes one step found through failing neighbours (their second hop): at most
        /// the layer-0 degree.
        var mostSecondHopNodesInOneStep = 0
    }

    /// Under this share of passing nodes, a walk expands through failing nodes (ACORN-1) rather
    /// than scoring them, and its beam is ``ApproximateIndex/Settings/filteredSearchWidth`` wide.
    static let expansionShare = 0.5

    /// How many failing neighbours' lists the second hop asks memory for ahead of reading them.
    static let listsAhead = 4

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
        let dimension = dimension
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: baseDegree) { pending in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: baseDegree) { scores in
                while let candidate = candidates.pop() {
                    if candidate.score < results.threshold { break }
                    var fresh = 0
                    withLockedNeighbors(of: candidate.node, layer: layer) { neighbors in
                        for neighbor in neighbors where visited.insert(neighbor) {
                            // Asked for now, scored after the list: the rows arrive together.
                            prefetchNode(neighbor, dimension: dimension)
                            pending[fresh] = neighbor
                            fresh += 1
                        }
                    }
                    if layer == 0, let next = candidates.best { prefetchList(of: next) }
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

    /// Asks memory for `node`'s codes and scale, which the walk scores next.
    @inline(__always)
    func prefetchNode(_ node: Int32, dimension: Int) {
        mnemo_prefetch(codes + Int(node) &* dimension, dimension)
        mnemo_prefetch(scales + Int(node), 4)
    }

    /// Asks memory for `node`'s layer-0 list and its count, which the walk reads when it takes
    /// `node` from its candidates, likely next.
    @inline(__always)
    func prefetchList(of node: Int32) {
        mnemo_prefetch(base + Int(node) &* baseDegree, baseDegree &* 4)
        mnemo_prefetch(baseCounts + Int(node), 1)
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
        var visited = visitedSets.take(count: count)
        defer { visitedSets.give(visited) }
        let entries = descend(kernel, from: entry, top: topLevel, to: 0, visited: &visited)
        let dimension = dimension
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
        // A step scores the candidate's own neighbours that are scored, then at most `baseDegree`
        // nodes found through its failing ones.
        let capacity = 2 * baseDegree
        var exhausted = false
        var mostSecondHop = 0
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity + baseDegree) { buffer in
            let pending = buffer.baseAddress!
            // The candidate's failing neighbours, whose lists the second hop reads.
            let failing = buffer.baseAddress! + capacity
            withUnsafeTemporaryAllocation(of: Float.self, capacity: capacity) { scores in
                while let candidate = candidates.pop() {
                    if candidate.score < results.threshold { break }
                    // Once every node is visited the walk is exact: the budget no longer matters.
                    if visits >= budget && visits < count {
                        exhausted = true
                        break
                    }
                    var fresh = 0
                    var failingCount = 0
                    withNeighbors(of: candidate.node, layer: 0) { neighbors in
                        for neighbor in neighbors where !visited.contains(neighbor) {
                            // When most nodes pass, nearly every neighbour is scored: its codes
                            // are asked for before its columns are read, so that the rows of
                            // a whole list arrive together (see ApproximateSearch.md).
                            if !expandThroughFailing { prefetchNode(neighbor, dimension: dimension) }
                            if isScored(neighbor) {
                                visited.insert(neighbor)
                                visits += 1
                                if expandThroughFailing { prefetchNode(neighbor, dimension: dimension) }
                                pending[fresh] = neighbor
                                fresh += 1
                            } else {
                                // Its list is read below: the first few are asked for now.
                                if failingCount < Self.listsAhead { prefetchList(of: neighbor) }
                                failing[failingCount] = neighbor
                                failingCount += 1
                            }
                        }
                    }
                    // The second hop adds at most `baseDegree` nodes: at 10 % passing, a list of
                    // 48 failing neighbours leads to about 200 passing nodes, more than a step
                    // needs to move the beam (see ApproximateSearch.md). A failing neighbour is
                    // marked visited only once its list is read: the ones the limit left out, and
                    // the nodes they lead to, stay for later steps to reach.
                    let secondHopLimit = fresh + baseDegree
                    let firstHop = fresh
                    for index in 0..<failingCount where fresh < secondHopLimit {
                        // The list a few ahead, so that it has arrived when it is read; not all:
                        // the limit usually stops the hop before the last.
                        if index + Self.listsAhead < failingCount { prefetchList(of: failing[index + Self.listsAhead]) }
                        // A list may name a node twice over two failing neighbours' lists.
                        guard visited.insert(failing[index]) else { continue }
                        visits += 1
                        withNeighbors(of: failing[index], layer: 0) { second in
                            for node in second where fresh < secondHopLimit && !visited.contains(node) && isScored(node)
                            {
                                visited.insert(node)
                                visits += 1
                                prefetchNode(node, dimension: dimension)
                                pending[fresh] = node
                                fresh += 1
                            }
                        }
                    }
                    mostSecondHop = max(mostSecondHop, fresh - firstHop)
                    if let next = candidates.best { prefetchList(of: next) }
                    scoreNodes(kernel, pending, count: fresh, into: scores.baseAddress!)
                    for index in 0..<fresh where scores[index] > results.threshold {
                        let node = pending[index]
                        candidates.push(score: scores[index], node: node)
                        if !expandThroughFailing && !passes(node) { continue }
                        results.insert(score: scores[index], row: Int(node))
                    }
                }
            }
        }
        var traversal = Traversal(found: results.sorted(), exhaustedBudget: exhausted, visits: visits)
        traversal.mostSecondHopNodesInOneStep = mostSecondHop
        return traversal
    }

    /// The ids of the best live nodes for the unit vector `query` that pass `accepts`, at most
    /// `width` (the first `limit` of them when given), best first: the walk of
    /// ``searchFiltered(_:width:budget:expandThroughFailing:accepts:)`` with the budget and the
    /// expansion chosen by `passingShare`, the estimated share of nodes that pass. `found` is
    /// how many the walk found, `limit` or not.
    func nearestIDs(
        to query: [Float], width: Int, limit: Int? = nil, passingShare share: Double, accepts: (Int32) -> Bool
    ) -> (ids: [Int64], found: Int, exhaustedBudget: Bool, visits: Int) {
        QuantizedQuery(query).withKernel { kernel in
            // Twice the visits of an unfiltered walk (each beam step looks at a full neighbour
            // list), for the share of them that passes.
            let budget = Int(min(Double(count), Double(2 * width * baseDegree) / max(share, 1e-3)))
            let traversal = searchFiltered(
                kernel, width: width, budget: budget, expandThroughFailing: share < Self.expansionShare,
                accepts: accepts)
            let ids = traversal.found.prefix(limit ?? traversal.found.count).map { self.ids[$0.row] }
            return (ids, traversal.found.count, traversal.exhaustedBudget, traversal.visits)
        }
    }

    /// Scores `count` nodes listed at `nodes` with one kernel call (which prefetches the rows ahead).
    @inline(__always)
    private func scoreNodes(
        _ kernel: QuantizedQuery.Kernel, _ nodes: UnsafePointer<Int32>, count: Int,
        into scores: UnsafeMutablePointer<Float>
    ) {
        guard count > 0 else { return }
        kernel.scoresOfListed(nodes, count: count, codes: codes, scales: scales, into: scores)
    }
}

/// The nodes a search has reached: one bit per node, in memory of its own (no bounds or
/// uniqueness checks in the walk's inner loop), reused from one layer, insertion or search to
/// the next (see ``VisitedPool``).
final class VisitedNodes {
    /// The nodes the set has room for.
    let capacity: Int
    private let words: UnsafeMutablePointer<UInt64>
    /// The words ``insert(_:)`` set a bit in since the last ``clear()``: at a million nodes the
    /// set takes 125 kB, which a walk of a few thousand nodes would otherwise clear or allocate
    /// again for every layer of every search and insertion.
    private let touched: UnsafeMutablePointer<Int32>
    private var touchedCount = 0

    init(count: Int) {
        let wordCount = max(1, (count + 63) / 64)
        capacity = wordCount * 64
        words = .allocate(capacity: wordCount)
        words.initialize(repeating: 0, count: wordCount)
        touched = .allocate(capacity: wordCount)
    }

    deinit {
        words.deallocate()
        touched.deallocate()
    }

    /// Unmarks every node.
    func clear() {
        for index in 0..<touchedCount { words[Int(touched[index])] = 0 }
        touchedCount = 0
    }

    @inline(__always)
    func contains(_ node: Int32) -> Bool {
        words[Int(node) &>> 6] & (1 &<< UInt64(node & 63)) != 0
    }

    /// Marks `node`; true when it was not marked before.
    @inline(__always)
    @discardableResult
    func insert(_ node: Int32) -> Bool {
        precondition(Int(node) < capacity, "node \(node) is beyond the visited set")
        let bit: UInt64 = 1 &<< UInt64(node & 63)
        let word = Int(node) &>> 6
        let old = words[word]
        guard old & bit == 0 else { return false }
        if old == 0 {
            touched[touchedCount] = Int32(word)
            touchedCount &+= 1
        }
        words[word] = old | bit
        return true
    }
}

/// The visited sets of a graph's searches, kept between searches: a set for a million nodes is
/// 125 kB to allocate and zero, for a walk that marks a few thousand.
final class VisitedPool: Sendable {
    private let sets = Locked<[VisitedNodes]>([])

    /// A cleared set with room for `count` nodes.
    func take(count: Int) -> VisitedNodes {
        let pooled = sets.withLock { $0.popLast() }
        if let pooled, pooled.capacity >= count { return pooled }
        return VisitedNodes(count: count)
    }

    /// Takes `set` back (cleared) for another search; a few are kept, one per concurrent search.
    func give(_ set: VisitedNodes) {
        set.clear()
        sets.withLock { sets in if sets.count < 8 { sets.append(set) } }
    }
}

/// The frontier of a beam search: a max-heap of scored nodes.
struct CandidateQueue {
    private var entries: [(score: Float, node: Int32)] = []

    /// The best entry's node, left in place; `nil` when empty.
    var best: Int32? { entries.first?.node }

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
