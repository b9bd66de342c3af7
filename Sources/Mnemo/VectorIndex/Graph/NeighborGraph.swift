import Foundation
internal import MnemoKernels

/// A hierarchical navigable small-world graph (HNSW, Malkov and Yashunin 2016) over the int8
/// codes of one namespace's vectors: the approximate index behind ``VectorScan/approximate``.
///
/// Every node sits on layer 0, where it keeps up to `2 × M` neighbours; a node drawn to level
/// `l` (with probability `M^-l`) also keeps up to `M` neighbours on each layer up to `l`. A
/// search descends from the top layer's entry point with a beam of ``descentWidth`` and then
/// widens to a beam of `ef` candidates on layer 0 (see `NeighborGraph+Search.swift`).
///
/// The graph stores what its traversal reads, one column per attribute in memory it manages
/// itself (so the hot loops read raw pointers, without bounds or exclusivity checks), or, once
/// reopened and until it is copied out (``detachFromFile()``), in its saved file, mapped: the
/// nodes' int8 codes and scales, and the filter attributes (``VectorSnapshot/Attributes`` as
/// flags, topic and statement time), so that a filter is tested during the traversal without
/// a lookup in the snapshot. Float vectors stay in the ``VectorSnapshot``, which rescoring reads.
///
/// Nodes are never moved or removed: a deleted, deactivated-and-changed or erased fact's node is
/// a tombstone (``isLive`` false), still traversed, never returned. An update whose vector is
/// unchanged rewrites the node's attributes in place; a new vector tombstones the old node and
/// inserts a new one. Not thread-safe: ``ApproximateIndex`` serialises writers against searches;
/// only a build (``insert(rows:of:threads:progress:)``) links nodes on several threads at once,
/// under locks of its own.
final class NeighborGraph: @unchecked Sendable {
    struct Parameters: Sendable, Equatable {
        /// `M`: neighbours per node on the upper layers; twice as many on layer 0.
        ///
        /// 24, not the 16 of HNSW's usual setting: on `mnemo bench`'s clustered vectors (thousands
        /// of nearly equidistant facts per cluster) 48 links per node on layer 0 found the same
        /// share of the top 10 with a beam of 64 as 32 links with a beam of 128 at 300,000 facts,
        /// and 0.958 of it at a million with a beam of 160 where 32 links found 0.947 with 256,
        /// for 61 more bytes per fact and a slower build (see ApproximateSearch.md).
        var neighbors = 24
        /// The beam width of an insertion's search.
        var constructionWidth = 100
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    }

    let dimension: Int
    let parameters: Parameters
    /// Neighbours per node on layer 0.
    let baseDegree: Int
    private(set) var count = 0
    private(set) var liveCount = 0
    /// The nodes the columns have room for.
    private(set) var capacity = 0
    /// The node at the top of the graph, where every search starts; -1 while empty.
    private(set) var entry: Int32 = -1
    private(set) var topLevel = 0
    /// The state of the generator that draws the levels of new nodes.
    private(set) var random: UInt64
    private(set) var nodeOfID: [Int64: Int32] = [:]

    private(set) var ids = UnsafeMutablePointer<Int64>.allocate(capacity: 0)
    private(set) var codes = UnsafeMutablePointer<Int8>.allocate(capacity: 0)
    private(set) var scales = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    /// ``VectorSnapshot/flag(_:)`` of each node's attributes.
    private(set) var flags = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private(set) var topicIDs = UnsafeMutablePointer<Int64>.allocate(capacity: 0)
    private(set) var createdTimes = UnsafeMutablePointer<Double>.allocate(capacity: 0)
    private(set) var isLive = UnsafeMutablePointer<Bool>.allocate(capacity: 0)
    /// Layer-0 neighbours: ``baseDegree`` slots per node, the first `baseCounts[node]` used.
    private(set) var base = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    private(set) var baseCounts = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    /// The saved file the columns lie in, mapped read-only, while the graph is as it was read;
    /// `nil` once they are in memory of the graph's own.
    private(set) var savedFile: MappedFile?
    /// The neighbours on layers 1… of the few nodes drawn above layer 0:
    /// `upper[node].lists[layer - 1]`.
    private(set) var upper: [Int32: UpperLayers] = [:]
    /// The locks of the neighbour lists while a build links nodes on several threads; `nil`
    /// otherwise, when the caller's lock makes the graph one thread's at a time.
    var listLocks: NeighborListLocks?
    /// The visited sets of searches, reused from one search to the next.
    let visitedSets = VisitedPool()
    /// The kernels of ``pairSimilarity(_:_:)``, read once: a build compares nodes millions of
    /// times, and each read of the static ``KernelInstructionSet/preferred`` is a call.
    private let pairKernels = KernelInstructionSet.preferred

    init(dimension: Int, parameters: Parameters = Parameters()) {
        precondition(parameters.neighbors >= 2 && parameters.neighbors <= 127, "M must be in 2…127")
        self.dimension = dimension
        self.parameters = parameters
        self.baseDegree = 2 * parameters.neighbors
        self.random = parameters.seed
    }

    /// A graph of `count` nodes as it was saved (see ``GraphFile``), its columns read where they
    /// lie in `file`: nothing is copied, so a graph of a million nodes is ready in the time its
    /// file takes to check. The ids of the live nodes are indexed. The graph copies its columns
    /// into memory of its own before its first change (``detachFromFile()``), or earlier
    /// (``copiedColumns(capacity:)`` and ``adoptColumns(_:capacity:)``).
    /// - Throws: ``GraphFile/Defect`` when two live nodes share an id.
    convenience init(
        dimension: Int, parameters: Parameters, restoringCount count: Int, entry: Int32, topLevel: Int,
        random: UInt64, upper: [Int32: [[Int32]]], columns: Columns, in file: MappedFile
    ) throws {
        self.init(dimension: dimension, parameters: parameters)
        releaseColumns()
        savedFile = file
        install(columns)
        self.count = count
        self.capacity = count
        self.entry = entry
        self.topLevel = topLevel
        self.random = random
        self.upper = upper.mapValues(UpperLayers.init)
        nodeOfID.reserveCapacity(count)
        for node in 0..<count where isLive[node] {
            guard nodeOfID.updateValue(Int32(node), forKey: ids[node]) == nil else {
                throw GraphFile.Defect.malformed("two live nodes hold fact \(ids[node])")
            }
        }
        liveCount = nodeOfID.count
    }

    deinit {
        releaseColumns()
    }

    /// The share of nodes that are tombstones.
    var tombstoneShare: Double { count == 0 ? 0 : Double(count - liveCount) / Double(count) }

    /// Adds fact `id`, or brings its node up to date: attributes are rewritten in place when the
    /// vector's codes are unchanged; otherwise the old node becomes a tombstone and a new one is
    /// inserted. Applying the same state twice changes nothing.
    func upsert(id: Int64, vector: [Float], attributes: VectorSnapshot.Attributes) {
        precondition(vector.count == dimension, "vector has \(vector.count) components, graph has \(dimension)")
        detachFromFile()
        var quantized = [Int8](repeating: 0, count: dimension)
        let scale = vector.withUnsafeBufferPointer { source in
            quantized.withUnsafeMutableBufferPointer { VectorMath.quantize(source, into: $0) }
        }
        if let node = nodeOfID[id] {
            let row = codes + Int(node) * dimension
            if scales[Int(node)] == scale,
                quantized.withUnsafeBufferPointer({ memcmp($0.baseAddress!, row, dimension) == 0 })
            {
                setAttributes(Int(node), attributes)
                return
            }
            remove(id: id)
        }
        insert(id: id, codes: quantized, scale: scale, vector: vector, attributes: attributes)
    }

    /// Makes fact `id`'s node a tombstone; nothing when it has none.
    func remove(id: Int64) {
        guard let node = nodeOfID[id] else { return }
        detachFromFile()
        nodeOfID[id] = nil
        isLive[Int(node)] = false
        liveCount -= 1
    }

    /// Whether `node` holds `row` of `store`: the same codes, scale and filter attributes.
    func matches(_ node: Int32, row: Int, of store: VectorSnapshot) -> Bool {
        let node = Int(node)
        guard scales[node] == store.scales[row], flags[node] == store.flags[row],
            topicIDs[node] == store.topicIDs[row], createdTimes[node] == store.createdTimes[row]
        else { return false }
        return store.codes.withUnsafeBufferPointer {
            memcmp($0.baseAddress! + row * dimension, codes + node * dimension, dimension) == 0
        }
    }

    private func setAttributes(_ node: Int, _ attributes: VectorSnapshot.Attributes) {
        flags[node] = VectorSnapshot.flag(attributes)
        topicIDs[node] = attributes.topicID
        createdTimes[node] = attributes.createdAt.timeIntervalSince1970
    }

    /// Appends a node and links it into every layer up to its level.
    private func insert(
        id: Int64, codes quantized: [Int8], scale: Float, vector: [Float], attributes: VectorSnapshot.Attributes
    ) {
        // A quarter more at a time, not twice: a node's columns take about 550 bytes, and
        // growing copies them all, which a quarter still keeps to about four copies per node.
        if count == capacity { grow(to: max(1_024, capacity + capacity / 4)) }
        let node = quantized.withUnsafeBufferPointer { codes in
            append(id: id, codes: codes.baseAddress!, scale: scale) { setAttributes($0, attributes) }
        }
        var visited = VisitedNodes(count: count)
        link(node, vector: vector, visited: &visited)
    }

    /// Adds a node holding fact `id` with `codes` and `scale` (its attributes written by
    /// `writeAttributes`) and draws its level, without linking it: no list names it yet. The
    /// columns must have room for it.
    func append(
        id: Int64, codes quantized: UnsafePointer<Int8>, scale: Float, writeAttributes: (Int) -> Void
    ) -> Int32 {
        precondition(count < capacity, "no room for another node")
        let node = Int32(count)
        let index = count
        ids[index] = id
        (codes + index * dimension).update(from: quantized, count: dimension)
        scales[index] = scale
        writeAttributes(index)
        isLive[index] = true
        baseCounts[index] = 0
        count += 1
        liveCount += 1
        nodeOfID[id] = node
        let level = drawLevel()
        if level > 0 { upper[node] = UpperLayers(Array(repeating: [], count: level)) }
        return node
    }

    /// The level `node` was drawn to.
    func level(of node: Int32) -> Int { upper[node]?.lists.count ?? 0 }

    /// Links the appended `node`, whose vector is `vector`, into every layer up to its level:
    /// searches each layer for its neighbours, lists them and adds it to their lists. The graph's
    /// first node becomes its entry point, and so does a node drawn above the top layer.
    ///
    /// With `entryLock` (a build on several threads, ``listLocks`` set), the entry point is read
    /// under it, and a node that will become the entry point holds it until it is linked, as
    /// hnswlib does: no other insertion starts from a node whose layers are not linked yet.
    /// `visited` is scratch space of this thread's, cleared before each use.
    func link(_ node: Int32, vector: [Float], visited: inout VisitedNodes, entryLock: NSLock? = nil) {
        let level = self.level(of: node)
        entryLock?.lock()
        guard entry >= 0 else {
            entry = node
            topLevel = level
            entryLock?.unlock()
            return
        }
        let start = (entry: entry, level: topLevel)
        let raisesTop = level > start.level
        if !raisesTop { entryLock?.unlock() }
        QuantizedQuery(vector).withKernel { kernel in
            var entries = descend(kernel, from: start.entry, top: start.level, to: level, visited: &visited)
            var layer = min(level, start.level)
            while layer >= 0 {
                let found = searchLayer(
                    kernel, from: entries, width: parameters.constructionWidth, layer: layer, visited: &visited)
                let limit = layer == 0 ? baseDegree : parameters.neighbors
                let chosen = selectNeighbors(
                    of: node,
                    among: found.lazy.map { entry in
                        (node: Int32(entry.row), similarity: self.pairSimilarity(node, Int32(entry.row)))
                    }, limit: limit)
                addNeighbors(chosen, to: node, layer: layer)
                for neighbor in chosen { addNeighbors([node], to: neighbor, layer: layer) }
                entries = found
                layer -= 1
            }
        }
        if raisesTop {
            entry = node
            topLevel = level
            entryLock?.unlock()
        }
    }

    /// A level drawn with probability `M^-level`, as HNSW's paper sets it (`mL = 1 / ln M`).
    private func drawLevel() -> Int {
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let uniform = (Double(z >> 11) + 1) / Double(1 << 53)
        return min(16, Int(-log(uniform) / log(Double(parameters.neighbors))))
    }

    /// Makes room for `count` nodes at once, for a build that knows how many it will insert.
    func reserveCapacity(_ count: Int) {
        detachFromFile()
        if count > capacity { grow(to: count) }
        nodeOfID.reserveCapacity(count)
    }

    private func grow(to newCapacity: Int) {
        replaceColumns(with: copiedColumns(capacity: newCapacity), capacity: newCapacity)
    }

    /// Copies the columns out of the saved file into memory of the graph's own, with room for a
    /// quarter more nodes, and unmaps the file; nothing when they are in memory already. Every
    /// change calls it first: the file is mapped read-only, and a graph that has moved on from
    /// it must not keep it (an erased fact's codes, say) on disk after it is replaced.
    func detachFromFile() {
        guard savedFile != nil else { return }
        grow(to: Self.capacityAfterDetaching(count))
    }

    /// The capacity a graph of `count` nodes takes when it leaves its file.
    static func capacityAfterDetaching(_ count: Int) -> Int { max(1_024, count + count / 4) }

    /// Copies of the columns of the first `count` nodes, with room for `capacity` nodes, in
    /// memory of their own: what ``adoptColumns(_:capacity:)`` takes, or ``grow(to:)`` moves to.
    func copiedColumns(capacity: Int) -> Columns {
        func copy<T>(_ column: UnsafeMutablePointer<T>, _ width: Int) -> UnsafeMutablePointer<T> {
            let new = Self.allocateColumn(of: T.self, count: capacity * width)
            new.initialize(from: column, count: count * width)
            return new
        }
        return Columns(
            ids: copy(ids, 1), codes: copy(codes, dimension), scales: copy(scales, 1), flags: copy(flags, 1),
            topicIDs: copy(topicIDs, 1), createdTimes: copy(createdTimes, 1), isLive: copy(isLive, 1),
            baseCounts: copy(baseCounts, 1), base: copy(base, baseDegree))
    }

    /// Moves the graph's columns out of the saved file into `columns`, copied from them by
    /// ``copiedColumns(capacity:)`` with room for `capacity` nodes while the graph did not change;
    /// nothing (and `columns` are freed) when a change detached it meanwhile.
    func adoptColumns(_ columns: Columns, capacity newCapacity: Int) {
        guard savedFile != nil else { return columns.deallocate() }
        replaceColumns(with: columns, capacity: newCapacity)
    }

    /// Frees (or unmaps) the columns and takes `columns`, with room for `capacity` nodes.
    private func replaceColumns(with columns: Columns, capacity newCapacity: Int) {
        releaseColumns()
        install(columns)
        capacity = newCapacity
    }

    private func install(_ columns: Columns) {
        ids = columns.ids
        codes = columns.codes
        scales = columns.scales
        flags = columns.flags
        topicIDs = columns.topicIDs
        createdTimes = columns.createdTimes
        isLive = columns.isLive
        base = columns.base
        baseCounts = columns.baseCounts
    }

    /// Frees the columns, or unmaps the saved file they lie in.
    private func releaseColumns() {
        guard savedFile == nil else {
            savedFile = nil
            return
        }
        Columns(
            ids: ids, codes: codes, scales: scales, flags: flags, topicIDs: topicIDs, createdTimes: createdTimes,
            isLive: isLive, baseCounts: baseCounts, base: base
        ).deallocate()
    }

    /// Memory for a column of `count` values, freed with `deallocate()`. A column of 2 MiB or
    /// more is aligned to 2 MiB and, on Linux, asked to be backed by huge pages (`madvise`, for
    /// systems whose transparent huge pages are set to `madvise`, the default of many
    /// distributions): a walk reads a few thousand rows scattered over hundreds of megabytes of
    /// codes at a million facts, and with 4 kB pages nearly every one of them missed the TLB as
    /// well as the caches (see ApproximateSearch.md).
    static func allocateColumn<T>(of type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let bytes = count * MemoryLayout<T>.stride
        let hugePage = 2 << 20
        guard bytes >= hugePage else { return .allocate(capacity: count) }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: hugePage)
        #if os(Linux)
            _ = madvise(raw, bytes, MADV_HUGEPAGE)
        #endif
        return raw.bindMemory(to: T.self, capacity: count)
    }

    // MARK: Neighbour lists

    /// Calls `body` with the neighbours of `node` on `layer`.
    @inline(__always)
    func withNeighbors<Result>(of node: Int32, layer: Int, _ body: (UnsafeBufferPointer<Int32>) -> Result) -> Result {
        if layer == 0 {
            return body(UnsafeBufferPointer(start: base + Int(node) * baseDegree, count: Int(baseCounts[Int(node)])))
        }
        return upper[node]!.lists[layer - 1].withUnsafeBufferPointer(body)
    }

    /// ``withNeighbors(of:layer:_:)`` under the list's lock while a build links nodes on
    /// several threads.
    @inline(__always)
    func withLockedNeighbors<Result>(
        of node: Int32, layer: Int, _ body: (UnsafeBufferPointer<Int32>) -> Result
    ) -> Result {
        guard let listLocks else { return withNeighbors(of: node, layer: layer, body) }
        return listLocks.withLock(of: node) { withNeighbors(of: node, layer: layer, body) }
    }

    private func setNeighbors(of node: Int32, layer: Int, _ neighbors: [Int32]) {
        if layer == 0 {
            let slots = base + Int(node) * baseDegree
            for (index, neighbor) in neighbors.prefix(baseDegree).enumerated() { slots[index] = neighbor }
            baseCounts[Int(node)] = UInt8(min(neighbors.count, baseDegree))
        } else {
            let layers = upper[node]!
            layers.lists[layer - 1] = neighbors
        }
    }

    /// Adds `additions` to `node`'s list on `layer` (those it does not hold, never itself): a
    /// list that would outgrow its capacity is chosen again from all of them with the selection
    /// heuristic, so it keeps the neighbours that lead in different directions. Under the list's
    /// lock while a build links nodes on several threads: another thread may have added to a new
    /// node's list before the node's own links are listed, and those must not be lost.
    private func addNeighbors(_ additions: [Int32], to node: Int32, layer: Int) {
        let limit = layer == 0 ? baseDegree : parameters.neighbors
        func add() {
            var current = withNeighbors(of: node, layer: layer) { Array($0) }
            let held = current.count
            for addition in additions where addition != node && !current.contains(addition) {
                current.append(addition)
            }
            guard current.count > held else { return }
            guard current.count > limit else { return setNeighbors(of: node, layer: layer, current) }
            let ranked = current.map { (node: $0, similarity: pairSimilarity(node, $0)) }
                .sorted { $0.similarity > $1.similarity }
            setNeighbors(of: node, layer: layer, selectNeighbors(of: node, among: ranked, limit: limit))
        }
        guard let listLocks else { return add() }
        listLocks.withLock(of: node, add)
    }

    /// HNSW's neighbour heuristic: walking the candidates from the most similar to `node`, keep
    /// one only when it is more similar to `node` than to every neighbour kept so far, so the
    /// links spread out instead of all pointing into the nearest cluster. Places left are filled
    /// with the best of the pruned candidates (hnswlib's `keepPrunedConnections`), which keeps
    /// layer 0 well connected on clustered data. Tombstones are never chosen.
    ///
    /// - Parameter candidates: Nodes, best first, each with its ``pairSimilarity(_:_:)`` to `node`.
    private func selectNeighbors(
        of node: Int32, among candidates: some Sequence<(node: Int32, similarity: Float)>, limit: Int
    ) -> [Int32] {
        var kept: [Int32] = []
        var pruned: [Int32] = []
        kept.reserveCapacity(limit)
        for (candidate, similarity) in candidates where candidate != node && isLive[Int(candidate)] {
            guard kept.count < limit else { break }
            if kept.allSatisfy({ pairSimilarity($0, candidate) < similarity }) {
                kept.append(candidate)
            } else {
                pruned.append(candidate)
            }
        }
        for candidate in pruned where kept.count < limit { kept.append(candidate) }
        return kept
    }

    /// The cosine similarity of two nodes, from their codes.
    @inline(__always)
    func pairSimilarity(_ a: Int32, _ b: Int32) -> Float {
        let dot = Self.pairDot(
            codes + Int(a) * dimension, codes + Int(b) * dimension, count: dimension, using: pairKernels)
        return Float(dot) * scales[Int(a)] * scales[Int(b)]
    }

    /// The dot product of two nodes' codes (both in -127…127) on `path`'s kernel: the same
    /// integer on every path. A build spends most of its time here, comparing each new node's
    /// candidates with each other; AVX-512 VNNI reads 64 codes per instruction where AVX2 reads 16.
    @inline(__always)
    static func pairDot(
        _ x: UnsafePointer<Int8>, _ y: UnsafePointer<Int8>, count: Int, using path: KernelInstructionSet
    ) -> Int32 {
        #if arch(x86_64)
            if path.walksWithVNNI { return mnemo_avx512_vnni_dot_i8_pair(x, y, count) }
            if path.scansWithAVX2 { return mnemo_avx2_dot_i8_pair(x, y, count) }
        #endif
        var dot: Int32 = 0
        for index in 0..<count { dot &+= Int32(x[index]) &* Int32(y[index]) }
        return dot
    }

    /// The similarity of `node` to the query of `kernel`, in the query's code units (the same
    /// for every node of one search, so rankings are right; rescoring gives the cosine).
    @inline(__always)
    func score(_ kernel: QuantizedQuery.Kernel, _ node: Int32) -> Float {
        Float(kernel.dot(codes + Int(node) * dimension)) * scales[Int(node)]
    }

    /// The beam of the descent through the upper layers, where HNSW's paper walks greedily (a
    /// beam of one).
    ///
    /// Measured on `mnemo bench`'s clustered vectors (200 clusters of Gaussian noise around
    /// random centres in 384 dimensions, see ApproximateSearch.md): a cluster's members are
    /// about 0.5 apart in cosine and every other cluster about 0, so the graph holds almost no
    /// link between clusters and a greedy walk has no gradient to follow toward the query's
    /// cluster until it stands in it. A greedy descent stopped in another cluster for 11 of 200
    /// queries at 100,000 facts (faiss's HNSW, greedy too, for 38 of 200 at a million), and the
    /// beam of layer 0 then searched the wrong cluster whatever its width. A beam of 16 on each upper
    /// layer finds the query's cluster through the few links that cross over, for a few hundred
    /// more scores per search on the small upper layers.
    static let descentWidth = 16

    /// The nodes where a walk of the layers up to `level` starts: from the entry point `start`
    /// on layer `top` down through every layer above `level`, a beam of ``descentWidth`` on each,
    /// best first.
    func descend(
        _ kernel: QuantizedQuery.Kernel, from start: Int32, top: Int, to level: Int, visited: inout VisitedNodes
    ) -> [TopK.Entry] {
        var entries = [TopK.Entry(score: score(kernel, start), row: Int(start))]
        var layer = top
        while layer > level {
            entries = searchLayer(kernel, from: entries, width: Self.descentWidth, layer: layer, visited: &visited)
            layer -= 1
        }
        return entries
    }
}

/// The lists of one node on layers 1…, a class so that a build on several threads changes one
/// node's lists (under that node's lock) while the others look nodes up in ``NeighborGraph/upper``.
final class UpperLayers {
    var lists: [[Int32]]

    init(_ lists: [[Int32]]) { self.lists = lists }
}

extension NeighborGraph {
    /// The addresses of a graph's node columns (see the properties of the same names), in the
    /// order of the saved file.
    struct Columns {
        var ids: UnsafeMutablePointer<Int64>
        var codes: UnsafeMutablePointer<Int8>
        var scales: UnsafeMutablePointer<Float>
        var flags: UnsafeMutablePointer<UInt8>
        var topicIDs: UnsafeMutablePointer<Int64>
        var createdTimes: UnsafeMutablePointer<Double>
        var isLive: UnsafeMutablePointer<Bool>
        var baseCounts: UnsafeMutablePointer<UInt8>
        var base: UnsafeMutablePointer<Int32>

        func deallocate() {
            ids.deallocate()
            codes.deallocate()
            scales.deallocate()
            flags.deallocate()
            topicIDs.deallocate()
            createdTimes.deallocate()
            isLive.deallocate()
            base.deallocate()
            baseCounts.deallocate()
        }
    }
}
