import Mnemo

/// An embedder that looks texts up in a table of vectors computed beforehand.
///
/// Benchmarks use it to load and query a knowledge base without waiting on a model: what they
/// measure is the knowledge base, not the encoder. A text missing from the table is an error,
/// because a benchmark that silently embedded something else would measure the wrong thing.
public struct PrecomputedEmbedder: Embedder {
    public let identity: EmbeddingModelIdentity
    private let rowOfText: [String: Int]
    private let vectors: [Float]

    /// A table of `texts` and their unit `vectors` (`identity.dimension` floats per text, in
    /// the same order). When a text occurs twice, its first vector is used.
    public init(identity: EmbeddingModelIdentity, texts: [String], vectors: [Float]) {
        precondition(vectors.count == texts.count * identity.dimension, "one vector per text")
        self.identity = identity
        self.vectors = vectors
        var rowOfText: [String: Int] = [:]
        rowOfText.reserveCapacity(texts.count)
        for (row, text) in texts.enumerated() where rowOfText[text] == nil {
            rowOfText[text] = row
        }
        self.rowOfText = rowOfText
    }

    public func embed(_ texts: [String]) async throws -> [[Float]] {
        let dimension = identity.dimension
        return try texts.map { text in
            // The knowledge base trims content before embedding it.
            guard let row = rowOfText[text] ?? rowOfText[text.trimmingWhitespace] else {
                throw MnemoError.embedderFailure(
                    model: identity, reason: "no precomputed vector for \"\(text.prefix(80))\"")
            }
            return Array(vectors[row * dimension..<(row + 1) * dimension])
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
