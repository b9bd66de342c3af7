import Dispatch
import Foundation

extension NeighborGraph {
    /// Adds the facts at `rows` of `store`, which the graph must not hold yet, linking them on
    /// `threads` threads at once; `progress` is told how many were taken up, every thousand.
    /// Returns whether every one was linked: each thread asks `isCancelled` before it takes the
    /// next node and stops when it answers true, so a cancelled build ends within one node's
    /// insertion per thread (about a millisecond), leaving a graph that must not be used: its
    /// nodes are all appended, but not all linked.
    ///
    /// The nodes are appended first, in order, on this thread: their columns (the snapshot's
    /// int8 codes, scale and attributes, which a graph built one fact at a time quantizes to
    /// the same values) and their levels, drawn in the same order as one at a time, so that
    /// one thread builds exactly the graph ``upsert(id:vector:attributes:)`` builds. Then the
    /// threads take the nodes in order and link each one as hnswlib's parallel build does:
    /// each neighbour list is read and changed under its lock (``NeighborListLocks``), never two
    /// at once, and the entry point under a lock of its own. Nothing else changes meanwhile: the
    /// codes, scales and upper layers' table are only read. A node can be found by another
    /// thread's insertion as soon as a list names it, before its own lower layers are linked, as
    /// in hnswlib; its lists then start empty, and what others add to them is kept.
    @discardableResult
    func insert(
        rows: [Int32], of store: VectorSnapshot, threads: Int, isCancelled: @Sendable () -> Bool = { false },
        progress: @Sendable (Int) -> Void
    ) -> Bool {
        precondition(store.dimension == dimension, "the snapshot's dimension is not the graph's")
        reserveCapacity(count + rows.count)
        let first = count
        let dimension = dimension
        store.codes.withUnsafeBufferPointer { codes in
            for row in rows.lazy.map(Int.init) {
                precondition(nodeOfID[store.ids[row]] == nil, "fact \(store.ids[row]) is in the graph already")
                _ = append(id: store.ids[row], codes: codes.baseAddress! + row * dimension, scale: store.scales[row]) {
                    flags[$0] = store.flags[row]
                    topicIDs[$0] = store.topicIDs[row]
                    createdTimes[$0] = store.createdTimes[row]
                }
            }
        }
        @Sendable func vector(_ index: Int) -> [Float] {
            let row = Int(rows[index])
            return Array(store.vectors[row * dimension..<(row + 1) * dimension])
        }
        guard threads > 1, rows.count > 1 else {
            var visited = VisitedNodes(count: count)
            for index in rows.indices {
                if isCancelled() { return false }
                link(Int32(first + index), vector: vector(index), visited: &visited)
                if index % 1_000 == 0 { progress(index) }
            }
            return true
        }
        // The first node of an empty graph becomes its entry point, where the others start.
        let linked = entry < 0 ? 1 : 0
        if linked == 1 {
            var visited = VisitedNodes(count: count)
            link(Int32(first), vector: vector(0), visited: &visited)
        }
        let locks = NeighborListLocks()
        listLocks = locks
        defer {
            listLocks = nil
            locks.deallocate()
        }
        let queue = ChunkQueue(count: rows.count - linked)
        let entryLock = NSLock()
        let nodes = count
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var visited = VisitedNodes(count: nodes)
            while !isCancelled(), let next = queue.next() {
                let index = linked + next
                link(Int32(first + index), vector: vector(index), visited: &visited, entryLock: entryLock)
                if index % 1_000 == 0 { progress(index) }
            }
        }
        // Every node taken was linked: the build is whole when none is left.
        return queue.next() == nil
    }
}

/// The locks of the neighbour lists while a build links nodes on several threads: one mutex per
/// stripe of nodes (node number modulo ``stripes``). A thread holds at most one of them at a time
/// (it reads a list, or changes one), so stripes shared by several nodes cannot deadlock, and
/// with two or a few threads they collide rarely. Per-node mutexes, as hnswlib keeps, would take
/// 40 bytes a node on Linux for as long as the graph lives.
struct NeighborListLocks: @unchecked Sendable {
    static let stripes = 16_384
    private let mutexes: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutexes = .allocate(capacity: Self.stripes)
        for stripe in 0..<Self.stripes {
            (mutexes + stripe).initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutexes + stripe, nil)
        }
    }

    /// Destroys the mutexes; none may be held.
    func deallocate() {
        for stripe in 0..<Self.stripes { pthread_mutex_destroy(mutexes + stripe) }
        mutexes.deallocate()
    }

    /// Runs `body` holding the lock of `node`'s lists.
    @inline(__always)
    func withLock<Result>(of node: Int32, _ body: () -> Result) -> Result {
        let mutex = mutexes + Int(node) & (Self.stripes - 1)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
