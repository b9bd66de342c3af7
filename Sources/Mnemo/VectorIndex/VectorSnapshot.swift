import Foundation

/// The rows of the vector index: unit vectors in one contiguous buffer, their int8 codes, and
/// the attributes that filters test during the scan. A value type, so a search works on a
/// consistent snapshot while writers prepare the next one.
///
/// The vectors and codes are ``MappedColumn``s: past a few thousand rows they live in a file the
/// process maps (``ColumnFiles``), so a large namespace searched through its graph, which reads
/// them only to rescore a few candidates, does not hold them in its own memory.
struct VectorSnapshot: Sendable {
    /// The attributes of one fact that filters test.
    struct Attributes: Sendable, Equatable {
        var namespace: String
        var topicID: Int64
        var type: FactType
        var importance: Importance
        var isActive: Bool
        /// When the fact was stated (``Fact/createdAt``), for `since`/`until` filters.
        var createdAt = Date(timeIntervalSince1970: 0)
    }

    let dimension: Int
    private(set) var ids: [Int64] = []
    private(set) var vectors: MappedColumn<Float>
    /// Int8 codes of every vector (`dimension` per row) and their per-row scale.
    private(set) var codes: MappedColumn<Int8>
    private(set) var scales: [Float] = []
    private(set) var namespaceCodes: [Int32] = []
    private(set) var topicIDs: [Int64] = []
    /// Type in the low nibble, importance rank in bits 4–5, active in bit 7.
    private(set) var flags: [UInt8] = []
    /// When each row's fact was stated, in seconds since 1970: read only by scans with a time range.
    private(set) var createdTimes: [Double] = []
    private(set) var rowOfID: [Int64: Int] = [:]
    private(set) var namespaceTable: [String: Int32] = [:]
    /// The rows of each namespace, by namespace code, so that a search scans its namespace's
    /// rows only: on a server holding many users, one user's search costs what that user's facts
    /// cost, not what the whole file's do.
    private(set) var rowsOfNamespace: [[Int32]] = []
    /// Each row's position in its namespace's entry of ``rowsOfNamespace``.
    private var positionInNamespace: [Int32] = []

    /// - Parameter files: where the vectors and codes go once they are large; `nil` keeps them in
    ///   memory.
    init(dimension: Int, files: ColumnFiles? = .temporary) {
        self.dimension = dimension
        vectors = MappedColumn(files: files)
        codes = MappedColumn(files: files)
    }

    var count: Int { ids.count }

    func contains(_ id: Int64) -> Bool { rowOfID[id] != nil }

    func namespaceCode(_ namespace: String) -> Int32? { namespaceTable[namespace] }

    /// Adds or replaces the row of fact `id`.
    mutating func upsert(id: Int64, vector: [Float], attributes: Attributes) {
        precondition(vector.count == dimension, "vector has \(vector.count) components, index has \(dimension)")
        let namespace =
            namespaceTable[attributes.namespace]
            ?? {
                let code = Int32(namespaceTable.count)
                namespaceTable[attributes.namespace] = code
                rowsOfNamespace.append([])
                return code
            }()
        let flag = Self.flag(attributes)
        var quantized = [Int8](repeating: 0, count: dimension)
        let scale = vector.withUnsafeBufferPointer { source in
            quantized.withUnsafeMutableBufferPointer { VectorMath.quantize(source, into: $0) }
        }
        if let row = rowOfID[id] {
            // An update of attributes only leaves the vector alone: rewriting it would copy the
            // columns whenever a search holds them.
            if !hasVector(vector, at: row) {
                vectors.replace(from: row * dimension, with: vector)
                codes.replace(from: row * dimension, with: quantized)
                scales[row] = scale
            }
            if namespaceCodes[row] != namespace {
                leaveNamespace(row: row)
                joinNamespace(namespace, row: row)
            }
            namespaceCodes[row] = namespace
            topicIDs[row] = attributes.topicID
            flags[row] = flag
            createdTimes[row] = attributes.createdAt.timeIntervalSince1970
        } else {
            rowOfID[id] = ids.count
            positionInNamespace.append(0)
            joinNamespace(namespace, row: ids.count)
            ids.append(id)
            vectors.append(contentsOf: vector)
            codes.append(contentsOf: quantized)
            scales.append(scale)
            namespaceCodes.append(namespace)
            topicIDs.append(attributes.topicID)
            flags.append(flag)
            createdTimes.append(attributes.createdAt.timeIntervalSince1970)
        }
    }

    /// Removes the row of fact `id`, moving the last row into its place.
    mutating func remove(id: Int64) {
        guard let row = rowOfID.removeValue(forKey: id) else { return }
        leaveNamespace(row: row)
        let last = ids.count - 1
        if row != last {
            ids[row] = ids[last]
            rowOfID[ids[row]] = row
            positionInNamespace[row] = positionInNamespace[last]
            rowsOfNamespace[Int(namespaceCodes[last])][Int(positionInNamespace[row])] = Int32(row)
            vectors.copy(from: last * dimension, to: row * dimension, length: dimension)
            codes.copy(from: last * dimension, to: row * dimension, length: dimension)
            scales[row] = scales[last]
            namespaceCodes[row] = namespaceCodes[last]
            topicIDs[row] = topicIDs[last]
            flags[row] = flags[last]
            createdTimes[row] = createdTimes[last]
        }
        ids.removeLast()
        vectors.removeLast(dimension)
        codes.removeLast(dimension)
        scales.removeLast()
        namespaceCodes.removeLast()
        positionInNamespace.removeLast()
        topicIDs.removeLast()
        flags.removeLast()
        createdTimes.removeLast()
    }

    /// The rows of the namespace with this code, or `nil` when it holds every row (scan them all,
    /// in order).
    func rows(ofNamespace code: Int32) -> [Int32]? {
        guard Int(code) < rowsOfNamespace.count else { return [] }
        let rows = rowsOfNamespace[Int(code)]
        return rows.count == count ? nil : rows
    }

    private mutating func joinNamespace(_ code: Int32, row: Int) {
        positionInNamespace[row] = Int32(rowsOfNamespace[Int(code)].count)
        rowsOfNamespace[Int(code)].append(Int32(row))
    }

    /// Takes `row` out of its namespace's rows, moving that list's last row into its place.
    private mutating func leaveNamespace(row: Int) {
        let code = Int(namespaceCodes[row])
        let position = Int(positionInNamespace[row])
        let moved = rowsOfNamespace[code].removeLast()
        if Int(moved) != row {
            rowsOfNamespace[code][position] = moved
            positionInNamespace[Int(moved)] = Int32(position)
        }
    }

    private func hasVector(_ vector: [Float], at row: Int) -> Bool {
        vectors.withUnsafeBufferPointer { stored in
            vector.withUnsafeBytes { memcmp(stored.baseAddress! + row * dimension, $0.baseAddress!, $0.count) == 0 }
        }
    }

    /// The stored vector of fact `id`.
    func vector(of id: Int64) -> [Float]? {
        rowOfID[id].map { vectors[$0 * dimension..<($0 + 1) * dimension] }
    }

    static func flag(_ attributes: Attributes) -> UInt8 {
        let type = UInt8(FactType.allCases.firstIndex(of: attributes.type)!)
        return type | UInt8(attributes.importance.rank) << 4 | (attributes.isActive ? 0x80 : 0)
    }
}
