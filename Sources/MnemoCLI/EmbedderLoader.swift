import Foundation
import Mnemo

// PLACEHOLDER — to be replaced on merge by the loader of the embedding work (installed MiniLM
// model, else the announced hashing fallback). It exists only so that `mnemo eval` builds and
// runs on this branch; nothing else depends on what it returns.

/// Finds the embedder the CLI uses.
enum EmbedderLoader {
    /// A stand-in: hashed word and character-trigram features. Good enough to exercise the
    /// semantic and hybrid code paths, not to judge their quality.
    static func load() throws -> any Embedder {
        Output.note("note: using the placeholder hashed-words embedder (no sentence encoder on this branch)")
        return PlaceholderEmbedder()
    }
}

/// Signed feature hashing of lower-cased words and their character trigrams into 384 dimensions.
private struct PlaceholderEmbedder: Embedder {
    let identity = EmbeddingModelIdentity(name: "mnemo/placeholder-hashed-words", dimension: 384)

    func embed(_ texts: [String]) async throws -> [[Float]] {
        texts.map(vector)
    }

    private func vector(_ text: String) -> [Float] {
        var vector = [Float](repeating: 0, count: identity.dimension)
        func add(_ feature: Substring, weight: Float) {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in feature.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            vector[Int(hash % UInt64(identity.dimension))] += (hash >> 63) == 0 ? weight : -weight
        }
        for word in text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            add(word, weight: 1)
            let padded = " \(word) "
            var index = padded.startIndex
            while let end = padded.index(index, offsetBy: 3, limitedBy: padded.endIndex) {
                add(padded[index..<end], weight: 0.3)
                index = padded.index(after: index)
            }
        }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? vector.map { $0 / norm } : vector
    }
}
