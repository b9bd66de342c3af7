/// The identity of an embedding model: what a stored vector was made with.
///
/// A knowledge base records the identity of the embedder that wrote its vectors. Opening it with
/// an embedder of another identity is an error until the vectors are rebuilt with `reembed`,
/// because vectors from two models are not comparable.
public struct EmbeddingModelIdentity: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A stable model name, such as `sentence-transformers/all-MiniLM-L6-v2`.
    public var name: String
    /// The number of components of every vector the model produces.
    public var dimension: Int

    /// Creates an identity from a model name and its vector dimension.
    public init(name: String, dimension: Int) {
        self.name = name
        self.dimension = dimension
    }

    public var description: String { "\(name) (\(dimension)d)" }
}

/// Turns texts into vectors whose cosine similarity reflects closeness of meaning.
///
/// Mnemo ships two embedders: `SentenceEncoder` (in the `MnemoEncoder` library), a pure-Swift
/// BERT sentence encoder that runs models such as all-MiniLM-L6-v2, and ``HashingEmbedder``, a
/// deterministic fallback used when no model is installed. Apps may plug in their own (a remote API, Core ML, `NLEmbedding`).
///
/// Implementations must return one L2-normalized vector of ``identity``'s dimension per input
/// text, in input order, and must be safe to call from many tasks at once.
///
/// An embedder that takes longer than about 100 ms per call should check `Task.isCancelled`
/// between its own batches and throw `CancellationError` (as `Task.checkCancellation()` does),
/// so that a cancelled search, ingest or re-embedding stops promptly; the knowledge base checks
/// before and after every call in any case.
public protocol Embedder: Sendable {
    /// The model that produces the vectors; stored with them in the database.
    var identity: EmbeddingModelIdentity { get }

    /// Embeds a batch of texts, returning one unit-length vector per text, in order.
    func embed(_ texts: [String]) async throws -> [[Float]]
}
