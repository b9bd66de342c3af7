import Foundation
import Mnemo

/// Vectors of texts made by one model, kept in a file so that a second evaluation run of the
/// same corpus never calls the encoder.
///
/// Entries are keyed by a 64-bit FNV-1a hash of the text (for a corpus of a million texts the
/// chance of any collision is below 10⁻⁷). The file is
/// `"MNEMOEC1"`, the dimension (UInt32), 4 reserved bytes, the entry count (UInt64), then per
/// entry the hash (UInt64) and `dimension` float32 values, all little-endian.
public final class EmbeddingCache: @unchecked Sendable {
    public let identity: EmbeddingModelIdentity
    /// Where the cache is read from and saved to; `nil` keeps it in memory only.
    public let fileURL: URL?
    private let lock = NSLock()
    private var vectors: [UInt64: [Float]] = [:]
    private var isDirty = false

    private static let magic = Array("MNEMOEC1".utf8)

    /// A cache for `identity`'s vectors, loaded from `fileURL` when that file exists.
    /// - Throws: ``EvaluationError/invalidCache(_:)`` when the file is not a cache of this dimension.
    public init(identity: EmbeddingModelIdentity, fileURL: URL?) throws {
        self.identity = identity
        self.fileURL = fileURL
        if let fileURL, let data = FileManager.default.contents(atPath: fileURL.path) {
            vectors = try Self.decode(data, dimension: identity.dimension, path: fileURL.path)
        }
    }

    /// The number of cached vectors.
    public var count: Int { lock.withLock { vectors.count } }

    public func vector(for text: String) -> [Float]? {
        let key = Self.hash(text)
        return lock.withLock { vectors[key] }
    }

    public func store(_ vector: [Float], for text: String) {
        precondition(vector.count == identity.dimension, "a cached vector has the model's dimension")
        let key = Self.hash(text)
        lock.withLock {
            vectors[key] = vector
            isDirty = true
        }
    }

    /// Writes the cache to its file (atomically), if it has one and anything changed.
    public func save() throws {
        guard let fileURL else { return }
        let data: Data? = lock.withLock {
            guard isDirty else { return nil }
            isDirty = false
            return Self.encode(vectors, dimension: identity.dimension)
        }
        guard let data else { return }
        try FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: fileURL, options: .atomic)
    }

    /// FNV-1a, 64 bits, over the text's UTF-8 bytes.
    public static func hash(_ text: String, into state: UInt64 = 0xCBF2_9CE4_8422_2325) -> UInt64 {
        FNV1a.hash(text.utf8, continuing: state)
    }

    private static func encode(_ vectors: [UInt64: [Float]], dimension: Int) -> Data {
        var data = Data(magic)
        data.reserveCapacity(24 + vectors.count * (8 + 4 * dimension))
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        append(UInt32(dimension))
        append(UInt32(0))
        append(UInt64(vectors.count))
        // Sorted so the same cache always makes the same file.
        for (key, vector) in vectors.sorted(by: { $0.key < $1.key }) {
            append(key)
            for value in vector { append(value.bitPattern) }
        }
        return data
    }

    private static func decode(_ data: Data, dimension: Int, path: String) throws -> [UInt64: [Float]] {
        try data.withUnsafeBytes { raw -> [UInt64: [Float]] in
            func read<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
                T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            guard raw.count >= 24, Array(raw.prefix(8)) == magic else {
                throw EvaluationError.invalidCache("\(path) is not a Mnemo embedding cache")
            }
            let storedDimension = Int(read(UInt32.self, at: 8))
            let count = Int(read(UInt64.self, at: 16))
            let entrySize = 8 + 4 * dimension
            guard storedDimension == dimension, raw.count == 24 + count * entrySize else {
                throw EvaluationError.invalidCache(
                    "\(path) holds \(storedDimension)-dimensional vectors or is truncated; delete it")
            }
            var vectors: [UInt64: [Float]] = [:]
            vectors.reserveCapacity(count)
            for entry in 0..<count {
                let offset = 24 + entry * entrySize
                let key = read(UInt64.self, at: offset)
                vectors[key] = (0..<dimension).map { Float(bitPattern: read(UInt32.self, at: offset + 8 + 4 * $0)) }
            }
            return vectors
        }
    }
}

/// An embedder that answers from an ``EmbeddingCache`` and asks its base embedder only for the
/// texts the cache lacks, in one batch, storing what it gets back.
public struct CachingEmbedder: Embedder {
    public let base: any Embedder
    public let cache: EmbeddingCache
    private let counter = MissCounter()

    public init(base: any Embedder, cache: EmbeddingCache) {
        precondition(base.identity == cache.identity, "the cache belongs to another model")
        self.base = base
        self.cache = cache
    }

    public var identity: EmbeddingModelIdentity { base.identity }

    /// How many texts were sent to the base embedder so far.
    public var misses: Int { counter.value }

    public func embed(_ texts: [String]) async throws -> [[Float]] {
        var vectors = texts.map(cache.vector(for:))
        let missing = vectors.indices.filter { vectors[$0] == nil }
        if !missing.isEmpty {
            let computed = try await base.embed(missing.map { texts[$0] })
            guard computed.count == missing.count else {
                throw MnemoError.embedderFailure(
                    model: base.identity, reason: "returned \(computed.count) vectors for \(missing.count) texts")
            }
            for (index, vector) in zip(missing, computed) {
                vectors[index] = vector
                if vector.count == identity.dimension { cache.store(vector, for: texts[index]) }
            }
            counter.add(missing.count)
        }
        return vectors.map { $0! }
    }

    private final class MissCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add(_ amount: Int) { lock.withLock { count += amount } }
    }
}
