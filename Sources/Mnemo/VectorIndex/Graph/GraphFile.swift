import Foundation

/// The saved form of a ``NeighborGraph``, one file per namespace beside the database (see
/// ``ApproximateIndex/Storage``), so that a process opening a large namespace reads its graph
/// instead of rebuilding it.
///
/// Layout, in the machine's byte order (little-endian on every platform Mnemo builds for):
/// a header (magic, format version, dimension, `M`, construction width, level seed, the model's
/// name, the namespace, node count, entry point, top level, level generator state), the node
/// columns (ids, int8 codes, scales, filter flags, topics, statement times, live bits, layer-0
/// neighbour counts and slots), each starting at a multiple of ``columnAlignment`` bytes (zeros
/// between), the upper layers' lists, and a checksum of everything before it.
///
/// A graph read from its file keeps its columns where they lie in the file, mapped
/// (``MappedFile``): the alignment is that of the graph's own columns.
///
/// A tombstone is saved without its id, codes, scale or attributes (all zero): a deleted or
/// erased fact leaves nothing in the file that holds or names its vector, only its place in the
/// graph. After a reload it is a dead end (score 0) rather than a waypoint.
///
/// A file is trusted only when everything checks out: magic, version, identity (model,
/// dimension, namespace, graph parameters), length, checksum, and the structure a search relies
/// on (every neighbour a node of the graph and of the layer it is listed on, the entry point on
/// the top layer, live ids unique). Anything else is a ``Defect`` and the graph is rebuilt.
enum GraphFile {
    static let magic = Array("MNEMOHNS".utf8)
    static let version: UInt32 = 2
    /// The checksum covers the file in blocks of this size (the writer's buffer). Written in
    /// blocks of a huge page, the file can be kept by the kernel in huge pages, which mapping
    /// it then keeps (see ``MappedFile``).
    static let blockSize = 2 << 20
    /// Where a column may start: a row of codes then starts a cache line, as in the graph's own
    /// memory, and every column is aligned for its values.
    static let columnAlignment = 64

    /// Why a saved graph was not used.
    enum Defect: Error, Equatable, CustomStringConvertible {
        case truncated
        case notAGraph
        case version(UInt32)
        case checksum
        /// Made for another model, dimension, namespace or graph parameters.
        case mismatch(String)
        case malformed(String)
        /// The database moved on too far since the save: repairing costs more than rebuilding.
        case stale(differing: Int, of: Int)
        /// Too many of its nodes are tombstones (see ``ApproximateIndex/Settings/compactionShare``).
        case tombstones(Int, of: Int)

        var description: String {
            switch self {
            case .truncated: "truncated"
            case .notAGraph: "not a graph file"
            case .version(let version): "format version \(version), this build reads \(GraphFile.version)"
            case .checksum: "checksum mismatch"
            case .mismatch(let what): "made for another \(what)"
            case .malformed(let reason): "malformed: \(reason)"
            case .stale(let differing, let total): "stale: \(differing) of \(total) facts differ"
            case .tombstones(let tombstones, let total): "\(tombstones) of \(total) nodes are tombstones"
            }
        }
    }

    /// What a saved graph must have been made for.
    struct Identity: Equatable {
        var model: String
        var dimension: Int
        var namespace: String
        var parameters: NeighborGraph.Parameters
    }

    // MARK: Writing

    /// Writes `graph` to a new temporary file beside `url` and returns it, for ``install(_:at:)``.
    static func writeTemporary(_ graph: NeighborGraph, identity: Identity, beside url: URL) throws -> URL {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let output = Output(handle: try FileHandle(forWritingTo: temporary))
            try encode(graph, identity: identity, into: output)
            try output.finish()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        return temporary
    }

    /// Renames `temporary` over `url`: one system call, so a reader sees the old file or the new
    /// one, never part of either.
    static func install(_ temporary: URL, at url: URL) throws {
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    private static func encode(_ graph: NeighborGraph, identity: Identity, into output: Output) throws {
        let count = graph.count
        let dimension = graph.dimension
        try output.append(bytes: magic)
        try output.append(version)
        try output.append(UInt32(dimension))
        try output.append(UInt32(identity.parameters.neighbors))
        try output.append(UInt32(identity.parameters.constructionWidth))
        try output.append(identity.parameters.seed)
        try output.append(string: identity.model)
        try output.append(string: identity.namespace)
        try output.append(UInt64(count))
        try output.append(graph.entry)
        try output.append(UInt32(graph.topLevel))
        try output.append(graph.random)
        let live = graph.isLive
        try output.align()
        for node in 0..<count { try output.append(live[node] ? graph.ids[node] : 0) }
        try output.align()
        for node in 0..<count {
            if live[node] {
                try output.append(UnsafeRawBufferPointer(start: graph.codes + node * dimension, count: dimension))
            } else {
                try output.appendZeros(dimension)
            }
        }
        try output.align()
        for node in 0..<count { try output.append(live[node] ? graph.scales[node] : 0) }
        try output.align()
        for node in 0..<count { try output.append(live[node] ? graph.flags[node] : 0) }
        try output.align()
        for node in 0..<count { try output.append(live[node] ? graph.topicIDs[node] : 0) }
        try output.align()
        for node in 0..<count { try output.append(live[node] ? graph.createdTimes[node] : 0) }
        try output.align()
        for node in 0..<count { try output.append(UInt8(live[node] ? 1 : 0)) }
        try output.align()
        for node in 0..<count { try output.append(graph.baseCounts[node]) }
        try output.align()
        for node in 0..<count {
            // Unused slots were never written: zeros, not whatever the memory held.
            let used = Int(graph.baseCounts[node])
            try output.append(
                UnsafeRawBufferPointer(start: graph.base + node * graph.baseDegree, count: used * 4))
            try output.appendZeros((graph.baseDegree - used) * 4)
        }
        try output.append(UInt32(graph.upper.count))
        for (node, layers) in graph.upper.sorted(by: { $0.key < $1.key }) {
            try output.append(node)
            try output.append(UInt8(layers.lists.count))
            for neighbors in layers.lists {
                try output.append(UInt8(neighbors.count))
                for neighbor in neighbors { try output.append(neighbor) }
            }
        }
    }

    /// Buffers writes in blocks of ``blockSize``, checksumming each block as it is written.
    private final class Output {
        let handle: FileHandle
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: GraphFile.blockSize, alignment: 8)
        var used = 0
        /// The bytes written so far, buffered or not.
        var position = 0
        var checksum = Checksum()

        init(handle: FileHandle) {
            self.handle = handle
        }

        deinit {
            buffer.deallocate()
            try? handle.close()
        }

        func append(_ bytes: UnsafeRawBufferPointer) throws {
            var offset = 0
            while offset < bytes.count {
                let chunk = min(bytes.count - offset, buffer.count - used)
                UnsafeMutableRawBufferPointer(rebasing: buffer[used..<used + chunk])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + chunk]))
                used += chunk
                position += chunk
                offset += chunk
                if used == buffer.count { try flush() }
            }
        }

        func append<Value>(_ value: Value) throws {
            try withUnsafeBytes(of: value) { try append($0) }
        }

        func append(bytes: [UInt8]) throws {
            try bytes.withUnsafeBytes { try append($0) }
        }

        func append(string: String) throws {
            let bytes = Array(string.utf8)
            try append(UInt32(bytes.count))
            try append(bytes: bytes)
        }

        func appendZeros(_ count: Int) throws {
            var left = count
            while left > 0 {
                let chunk = min(left, buffer.count - used)
                UnsafeMutableRawBufferPointer(rebasing: buffer[used..<used + chunk]).initializeMemory(
                    as: UInt8.self, repeating: 0)
                used += chunk
                position += chunk
                left -= chunk
                if used == buffer.count { try flush() }
            }
        }

        /// Writes zeros up to the next multiple of ``GraphFile/columnAlignment``.
        func align() throws {
            try appendZeros(position.alignedUp(to: GraphFile.columnAlignment) - position)
        }

        private func flush() throws {
            let block = UnsafeRawBufferPointer(rebasing: buffer[..<used])
            checksum.add(block)
            try handle.write(contentsOf: Data(block))
            used = 0
        }

        /// Writes what is buffered and the checksum after it.
        func finish() throws {
            if used > 0 { try flush() }
            try withUnsafeBytes(of: checksum.value) { try handle.write(contentsOf: Data($0)) }
            try handle.close()
        }
    }

    // MARK: Reading

    /// The graph saved at `url`, checked against `identity`, its columns left in the file, mapped.
    /// - Throws: ``Defect`` for a file that is not a sound graph made for `identity`, and the
    ///   file system's error when it cannot be read.
    static func read(from url: URL, identity: Identity) throws -> NeighborGraph {
        let mapped = try MappedFile(url)
        let file = mapped.bytes
        guard file.count >= magic.count + 12 else { throw Defect.truncated }
        guard file.starts(with: magic) else { throw Defect.notAGraph }
        let version = file.loadUnaligned(fromByteOffset: magic.count, as: UInt32.self)
        guard version == Self.version else { throw Defect.version(version) }
        let body = UnsafeRawBufferPointer(rebasing: file[..<(file.count - 8)])
        // The checksum is summed on another core while the structure is checked: a file that
        // fails either is rejected, for its checksum first, and a sound one is ready in the time
        // of the longer of the two. The checks must hold for any bytes, summed right or not.
        let (checksum, decoded) = onBothCores(
            { Checksum(blocksOf: body) },
            {
                Result {
                    var input = Input(bytes: body, offset: magic.count + 4)
                    return try decode(&input, identity: identity, in: mapped)
                }
            })
        guard checksum.value == file.loadUnaligned(fromByteOffset: body.count, as: UInt64.self) else {
            throw Defect.checksum
        }
        return try decoded.get()
    }

    private static func decode(_ input: inout Input, identity: Identity, in file: MappedFile) throws -> NeighborGraph {
        let dimension = Int(try input.read(UInt32.self))
        let parameters = NeighborGraph.Parameters(
            neighbors: Int(try input.read(UInt32.self)), constructionWidth: Int(try input.read(UInt32.self)),
            seed: try input.read(UInt64.self))
        let model = try input.readString()
        let namespace = try input.readString()
        guard dimension == identity.dimension else { throw Defect.mismatch("dimension (\(dimension))") }
        guard model == identity.model else { throw Defect.mismatch("model (\(model))") }
        guard namespace == identity.namespace else { throw Defect.mismatch("namespace") }
        guard parameters == identity.parameters else { throw Defect.mismatch("graph parameters") }
        let count = try input.read(UInt64.self)
        guard count < UInt64(Int32.max) else { throw Defect.malformed("\(count) nodes") }
        let nodes = Int(count)
        let entry = try input.read(Int32.self)
        let topLevel = Int(try input.read(UInt32.self))
        let random = try input.read(UInt64.self)
        guard nodes == 0 ? entry == -1 : (0..<Int32(nodes)).contains(entry), topLevel <= 16 else {
            throw Defect.malformed("entry point \(entry) at level \(topLevel) of \(nodes) nodes")
        }
        let degree = 2 * parameters.neighbors
        let columns = NeighborGraph.Columns(
            ids: try input.column(of: Int64.self, count: nodes),
            codes: try input.column(of: Int8.self, count: nodes * dimension),
            scales: try input.column(of: Float.self, count: nodes),
            flags: try input.column(of: UInt8.self, count: nodes),
            topicIDs: try input.column(of: Int64.self, count: nodes),
            createdTimes: try input.column(of: Double.self, count: nodes),
            isLive: try input.column(of: Bool.self, count: nodes) { live in
                guard live.allSatisfy({ $0 <= 1 }) else { throw Defect.malformed("a live bit is neither 0 nor 1") }
            },
            baseCounts: try input.column(of: UInt8.self, count: nodes),
            base: try input.column(of: Int32.self, count: nodes * degree))
        for node in 0..<nodes {
            let used = Int(columns.baseCounts[node])
            guard used <= degree else { throw Defect.malformed("node \(node) lists \(used) neighbours") }
            for neighbor in UnsafeBufferPointer(start: columns.base + node * degree, count: used) {
                guard (0..<Int32(nodes)).contains(neighbor) else {
                    throw Defect.malformed("node \(node) lists node \(neighbor)")
                }
            }
        }
        let upper = try decodeUpper(&input, nodes: nodes, neighbors: parameters.neighbors, topLevel: topLevel)
        guard input.isAtEnd else { throw Defect.malformed("bytes after the upper layers") }
        guard nodes == 0 || upper[entry]?.count ?? 0 == topLevel else {
            throw Defect.malformed("the entry point is not on the top layer")
        }
        return try NeighborGraph(
            dimension: dimension, parameters: parameters, restoringCount: nodes, entry: entry, topLevel: topLevel,
            random: random, upper: upper, columns: columns, in: file)
    }

    /// The lists of layers 1…, checked so that a search can follow every one: each neighbour is a
    /// node that is itself on that layer.
    private static func decodeUpper(_ input: inout Input, nodes: Int, neighbors: Int, topLevel: Int) throws
        -> [Int32: [[Int32]]]
    {
        var upper: [Int32: [[Int32]]] = [:]
        let listed = try input.read(UInt32.self)
        guard listed <= nodes else { throw Defect.malformed("\(listed) nodes above layer 0 of \(nodes)") }
        for _ in 0..<listed {
            let node = try input.read(Int32.self)
            let levels = Int(try input.read(UInt8.self))
            guard (0..<Int32(nodes)).contains(node), upper[node] == nil, levels >= 1, levels <= topLevel
            else { throw Defect.malformed("upper layers of node \(node)") }
            var layers: [[Int32]] = []
            for _ in 0..<levels {
                let count = Int(try input.read(UInt8.self))
                guard count <= neighbors else { throw Defect.malformed("node \(node) lists \(count) neighbours") }
                layers.append(try (0..<count).map { _ in try input.read(Int32.self) })
            }
            upper[node] = layers
        }
        for (node, layers) in upper {
            for (index, list) in layers.enumerated() {
                guard list.allSatisfy({ (upper[$0]?.count ?? 0) > index }) else {
                    throw Defect.malformed("node \(node) links to a node not on layer \(index + 1)")
                }
            }
        }
        return upper
    }

    /// A cursor over the file's bytes that throws ``Defect/truncated`` instead of reading past them.
    private struct Input {
        let bytes: UnsafeRawBufferPointer
        var offset: Int

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
            guard count >= 0, count <= bytes.count - offset else { throw Defect.truncated }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }

        /// The next column, `count` values from the next multiple of ``GraphFile/columnAlignment``,
        /// read in place; `check` sees its bytes before they are taken as values.
        mutating func column<Value>(
            of type: Value.Type, count: Int, check: (UnsafeRawBufferPointer) throws -> Void = { _ in }
        ) throws -> UnsafeMutablePointer<Value> {
            _ = try take(offset.alignedUp(to: GraphFile.columnAlignment) - offset)
            let bytes = try take(count * MemoryLayout<Value>.stride)
            try check(bytes)
            // Mapped read-only: the graph copies its columns before it writes to any
            // (``NeighborGraph/detachFromFile()``).
            return UnsafeMutableRawPointer(mutating: bytes.baseAddress!).bindMemory(to: Value.self, capacity: count)
        }

        mutating func read<Value>(_ type: Value.Type) throws -> Value {
            try take(MemoryLayout<Value>.size).loadUnaligned(as: type)
        }

        mutating func readString() throws -> String {
            let length = Int(try read(UInt32.self))
            guard let string = String(bytes: try take(length), encoding: .utf8) else {
                throw Defect.malformed("a name is not UTF-8")
            }
            return string
        }
    }
}

/// A 64-bit checksum, fast enough to cover a graph of a million nodes in well under a second:
/// each 8-byte word is folded in by xor, multiplication by an odd constant and a rotation, all
/// invertible, so changing any one word always changes the result.
struct Checksum {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    init() {}

    /// The checksum of `bytes` added in blocks of ``GraphFile/blockSize``, as the writer adds them.
    init(blocksOf bytes: UnsafeRawBufferPointer) {
        for start in stride(from: 0, to: bytes.count, by: GraphFile.blockSize) {
            add(UnsafeRawBufferPointer(rebasing: bytes[start..<min(bytes.count, start + GraphFile.blockSize)]))
        }
    }

    mutating func add(_ block: UnsafeRawBufferPointer) {
        var hash = value ^ UInt64(block.count)
        let words = block.count / 8
        for index in 0..<words {
            hash = fold(hash, block.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
        }
        for index in words * 8..<block.count { hash = fold(hash, UInt64(block[index])) }
        value = hash
    }

    @inline(__always)
    private func fold(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* 0x0000_0100_0000_01B3
        return mixed << 29 | mixed >> 35
    }
}

extension Int {
    /// The least multiple of `alignment` (a power of two) at or above this value.
    fileprivate func alignedUp(to alignment: Int) -> Int { (self + alignment - 1) & ~(alignment - 1) }
}
