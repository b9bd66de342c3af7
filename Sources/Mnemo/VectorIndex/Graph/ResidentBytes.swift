import Foundation

extension KnowledgeBase {
    /// The bytes the vector index holds for every namespace's rows (``VectorSnapshot``: in the
    /// process's memory, and in mapped files) and for this namespace's graph (0 without one),
    /// counted from their allocations: what a fact costs resident, for benchmarks.
    package func vectorIndexResidentBytes() async throws -> (rows: Int, mapped: Int, graph: Int) {
        let store = try await vectorSnapshot()
        let graph = vectorIndex?.approximate.withGraph(namespace) { $0.residentBytes } ?? 0
        return (store.residentBytes, store.mappedBytes, graph)
    }
}

/// The memory the vector index holds, counted from its columns' allocations.
extension NeighborGraph {
    /// The bytes of the node columns (allocated for `capacity` nodes), the upper layers' lists
    /// and the id table.
    var residentBytes: Int {
        let perNode =
            MemoryLayout<Int64>.size + dimension + MemoryLayout<Float>.size + MemoryLayout<UInt8>.size
            + MemoryLayout<Int64>.size + MemoryLayout<Double>.size + MemoryLayout<Bool>.size
            + baseDegree * MemoryLayout<Int32>.size + MemoryLayout<UInt8>.size
        // An array costs a 32-byte header besides its elements, and so does the object holding
        // a node's lists (a 16-byte header and the array's reference, allocated in 32 bytes).
        let upperBytes = upper.values.reduce(0) { total, layers in
            total + 32 + 32 + layers.lists.reduce(0) { $0 + 32 + $1.capacity * MemoryLayout<Int32>.size }
        }
        return capacity * perNode + upperBytes
            + dictionaryBytes(capacity: upper.capacity, entry: MemoryLayout<Int32>.size + 8)
            + dictionaryBytes(capacity: nodeOfID.capacity, entry: MemoryLayout<Int64>.size + MemoryLayout<Int32>.size)
    }
}

extension VectorSnapshot {
    /// The bytes of every column in the process's memory: `Float` vectors and int8 codes while
    /// they are small (``mappedBytes`` once they are in a file), scales, filter attributes, the
    /// namespace lists and the id table.
    var residentBytes: Int {
        func bytes<Element>(_ array: [Element]) -> Int { array.capacity * MemoryLayout<Element>.stride }
        return bytes(ids) + vectors.heapBytes + codes.heapBytes + bytes(scales) + bytes(namespaceCodes)
            + bytes(topicIDs)
            + bytes(flags) + bytes(createdTimes) + rowsOfNamespace.reduce(0) { $0 + bytes($1) }
            + count * MemoryLayout<Int32>.size
            + dictionaryBytes(capacity: rowOfID.capacity, entry: MemoryLayout<Int64>.size + MemoryLayout<Int>.size)
    }

    /// The bytes of the `Float` vectors and int8 codes kept in mapped files (``MappedColumn``):
    /// the system's page cache holds what searches read of them.
    var mappedBytes: Int { vectors.mappedBytes + codes.mappedBytes }
}

/// A Swift dictionary's storage: buckets filled to at most three quarters (its `capacity`), a
/// key and a value per bucket, and a bit per bucket for occupancy.
private func dictionaryBytes(capacity: Int, entry: Int) -> Int {
    let buckets = capacity * 4 / 3
    return buckets * entry + buckets / 8
}
