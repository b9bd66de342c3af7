/// A deterministic, dependency-free embedder: hashed word and character n-grams.
///
/// It is the fallback when no sentence-transformers model is installed. It captures spelling
/// overlap, not meaning ("car" and "automobile" are unrelated to it), so semantic search with it
/// behaves like a fuzzy keyword search. Callers should say so when they fall back to it.
///
/// A text is lower-cased and stripped of accents, then split into words (runs of letters and
/// digits). Its features are:
/// - each word (weight 1),
/// - each pair of adjacent words (weight 0.5), so that word order counts a little,
/// - the character 3-, 4- and 5-grams of each word framed as `<word>` (weights sharing 1 per word),
///   so that inflections and typos still overlap.
///
/// Each feature is hashed with 64-bit FNV-1a (stable across runs, processes and platforms, unlike
/// Swift's randomly seeded `Hasher`), followed by the MurmurHash3 finaliser (FNV's low bits depend
/// only on the low bits of the input bytes), into one of ``dimension`` buckets, with a sign taken
/// from another bit of the hash so that collisions cancel out on average instead of piling up. The
/// vector is then scaled to unit length. A text without any word (empty, only punctuation) maps to
/// the vector of a fixed marker feature, so every vector has unit length.
public struct HashingEmbedder: Embedder {
    /// `mnemo/hashed-ngrams-v1` and the dimension. Changing the features would change the name.
    public let identity: EmbeddingModelIdentity
    /// The number of buckets, which is the vector dimension.
    public var dimension: Int { identity.dimension }

    private let normalizer = BertTextNormalizer(
        cleanText: true, handleChineseCharacters: false,
        stripAccents: true, lowercase: true)

    /// Creates a hashing embedder with `dimension` buckets (384 by default, like all-MiniLM-L6-v2,
    /// so that storage sized for one fits the other; the identities still differ). A dimension
    /// below 1 is a programming error and stops the program, printing why.
    public init(dimension: Int = 384) {
        // `fatalError`, not `precondition`: an optimised build drops a precondition's message.
        guard dimension > 0 else {
            fatalError("HashingEmbedder(dimension: \(dimension)): the dimension must be at least 1")
        }
        identity = EmbeddingModelIdentity(name: "mnemo/hashed-ngrams-v1", dimension: dimension)
    }

    /// Embeds texts, one unit-length vector per text, in order.
    public func embed(_ texts: [String]) async throws -> [[Float]] {
        texts.map(vector)
    }

    /// The vector of one text.
    package func vector(for text: String) -> [Float] {
        var vector = [Float](repeating: 0, count: dimension)
        let words = self.words(of: text)
        if words.isEmpty {
            add(feature: [0xFF], weight: 1, to: &vector)
        }
        for (index, word) in words.enumerated() {
            add(feature: [0x01] + Array(String(String.UnicodeScalarView(word)).utf8), weight: 1, to: &vector)
            if index + 1 < words.count {
                let pair =
                    String(String.UnicodeScalarView(word)) + " " + String(String.UnicodeScalarView(words[index + 1]))
                add(feature: [0x02] + Array(pair.utf8), weight: 0.5, to: &vector)
            }
            let framed: [Unicode.Scalar] = ["<"] + word + [">"]
            var grams: [[Unicode.Scalar]] = []
            for n in 3...5 where framed.count >= n {
                for start in 0...(framed.count - n) { grams.append(Array(framed[start..<(start + n)])) }
            }
            let weight = grams.isEmpty ? 0 : 1 / Float(grams.count)
            for gram in grams {
                add(feature: [0x03] + Array(String(String.UnicodeScalarView(gram)).utf8), weight: weight, to: &vector)
            }
        }
        VectorMath.normalize(&vector)
        return vector
    }

    /// Lower-cased, accent-free words: maximal runs of letters and digits.
    func words(of text: String) -> [[Unicode.Scalar]] {
        var words: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        for scalar in normalizer.normalize(text).unicodeScalars {
            let properties = scalar.properties
            if properties.isAlphabetic || properties.numericType != nil {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current.removeAll(keepingCapacity: true)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private func add(feature bytes: [UInt8], weight: Float, to vector: inout [Float]) {
        let hash = Self.mix(FNV1a.hash(bytes))
        let bucket = Int(hash % UInt64(dimension))
        // The bucket uses the low bits (through the modulo); the sign uses the top bit.
        let sign: Float = (hash >> 63) == 0 ? 1 : -1
        vector[bucket] += sign * weight
    }

    /// The MurmurHash3 64-bit finaliser: every output bit depends on every input bit.
    static func mix(_ value: UInt64) -> UInt64 {
        var h = value
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }
}
