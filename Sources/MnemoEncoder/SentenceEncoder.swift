import Foundation
import Mnemo

/// A pure-Swift sentence encoder for BERT-family sentence-transformers models in the Hugging Face
/// layout, such as `sentence-transformers/all-MiniLM-L6-v2`.
///
/// It reads `config.json`, `vocab.txt` (or `tokenizer.json`), `model.safetensors`,
/// `sentence_bert_config.json` and the pooling configuration, and reproduces what
/// `SentenceTransformer.encode(texts, normalize_embeddings=True)` returns: the same token ids, and
/// vectors whose cosine with the reference is above 0.9999.
///
/// ```swift
/// let encoder = try SentenceEncoder(modelDirectory: ModelFolder.modelDirectory)
/// let vectors = encoder.encode(["my aunt lives in Braga", "my uncle lives in Braga"])
/// ```
///
/// The weights are immutable once loaded, so one encoder can serve any number of threads or
/// tasks at once; each call allocates its own scratch memory. Each call also spreads its work over
/// ``threadCount`` threads: the encoder keeps ``threadCount`` − 1 helper threads of its own, which
/// stay awake (polling) for 0.1 ms after each step of a pass, so that the many short steps of
/// one text do not each wait for a sleeping thread to wake; a call that finds them busy with
/// another call runs on Dispatch's threads instead.
///
/// Performance notes:
/// - Build in release mode: a debug build is around a hundred times slower.
/// - On x86-64 CPUs with AVX-512, or with AVX2 and FMA, the matrix products and attention run
///   on C kernels compiled for them (the `MnemoKernels` target, chosen at run time), whatever
///   `-target-cpu` the build used; elsewhere they run on the portable Swift SIMD path. The
///   environment variable `MNEMO_KERNELS` (`portable`, `avx2`, `avx512`) forces a path. The paths
///   agree within rounding (cosine above 0.99999 with each other).
/// - Texts of a batch are not padded to the longest: their tokens are packed end to end and
///   attention runs per text (see `BertForwardPass`), so mixing short and long texts costs nothing
///   and a text's vector does not depend on its batch.
public final class SentenceEncoder: Embedder, Sendable {
    /// The model name and vector dimension stored with every vector.
    public let identity: EmbeddingModelIdentity
    /// The network's configuration as read from the model folder.
    public let configuration: BertConfiguration
    /// The tokenizer that turns texts into the model's token ids.
    public let tokenizer: WordPieceTokenizer
    /// The number of texts encoded per forward pass by ``encode(_:)->[[Float]]``.
    public let batchSize: Int
    /// The number of threads each forward pass uses.
    public let threadCount: Int
    /// The kernels of the matrix products.
    package var instructionSet: KernelInstructionSet { kernel.instructionSet }

    /// The most tokens one forward pass takes (unless one text alone is longer).
    static let tokensPerPass = 4096

    private let weights: BertWeights
    private let kernel: LinearLayerKernel
    /// Helper threads kept for this encoder's passes (nil on one thread); a pass that finds them
    /// taken by another call runs its loops on Dispatch.
    private let team: WorkerTeam?
    /// The scratch memory of the last call, kept for the next when it is small (see
    /// ``workspace(rows:)``).
    private let spareWorkspace = Locked<BertWorkspace?>(nil)
    /// How many workspaces calls have allocated: a test's window on ``spareWorkspace``.
    package var workspacesMade: Int { workspaceCount.withLock { $0 } }
    private let workspaceCount = Locked(0)

    /// The most token rows a kept workspace holds (about 15 KB a row for MiniLM, so 2 MB): what
    /// one query or a small batch needs, while a large batch's scratch is given back.
    static let keptWorkspaceRows = 128

    /// Loads a model folder.
    ///
    /// - Parameters:
    ///   - modelDirectory: A Hugging Face sentence-transformers folder.
    ///   - name: The model name recorded in ``identity``. When nil it is derived from the folder:
    ///     the `owner/model` id that the folder's `README.md` model card loads itself with (as in
    ///     `SentenceTransformer('sentence-transformers/all-MiniLM-L6-v2')`), else the folder's name.
    ///     Pass a name explicitly when the folder has no model card and an arbitrary name.
    ///   - batchSize: Texts per forward pass (at least 1); larger batches amortise thread start-up.
    ///   - threadCount: Threads per forward pass; by default the number of active processors.
    /// - Throws: ``EmbeddingError`` naming the missing file, the malformed configuration, or every
    ///   missing or mis-shaped tensor.
    public convenience init(modelDirectory: URL, name: String? = nil, batchSize: Int = 32, threadCount: Int? = nil)
        throws
    {
        try self.init(
            modelDirectory: modelDirectory, name: name, batchSize: batchSize, threadCount: threadCount,
            instructionSet: .preferred)
    }

    /// Loads a model folder, with the matrix products on the given kernel path (tests and
    /// benchmarks compare the paths; everyone else gets ``KernelInstructionSet/preferred``).
    package init(
        modelDirectory: URL, name: String? = nil, batchSize: Int = 32, threadCount: Int? = nil,
        instructionSet: KernelInstructionSet
    ) throws {
        let configuration = try BertConfiguration(directory: modelDirectory)
        let tokenizer = try WordPieceTokenizer(modelDirectory: modelDirectory)
        guard tokenizer.vocabularySize <= configuration.vocabularySize else {
            throw EmbeddingError.invalidModelFolder(
                modelDirectory,
                problems: [
                    "the vocabulary has \(tokenizer.vocabularySize) tokens but the model only \(configuration.vocabularySize) embeddings"
                ])
        }
        let file = try SafetensorsFile(url: modelDirectory.appendingPathComponent("model.safetensors"))
        let weights = try BertWeights(configuration: configuration, file: file)
        let threads = max(1, threadCount ?? ProcessInfo.processInfo.activeProcessorCount)

        self.configuration = configuration
        self.tokenizer = tokenizer
        self.weights = weights
        self.batchSize = max(1, batchSize)
        self.threadCount = threads
        self.kernel = LinearLayerKernel(
            microKernel: instructionSet == .portable ? LinearLayerKernel.preferred : .wide,
            workers: threads, instructionSet: instructionSet)
        self.team = WorkerTeam(threadCount: threads)
        self.identity = EmbeddingModelIdentity(
            name: name ?? Self.modelName(of: modelDirectory),
            dimension: configuration.hiddenSize)
    }

    /// Encodes texts into unit-length vectors, one per text, in order.
    ///
    /// Texts are truncated to the model's maximum sequence length (256 tokens for
    /// all-MiniLM-L6-v2), as sentence-transformers does. The empty string is a valid input.
    public func encode(_ texts: [String]) -> [[Float]] {
        encode(texts, stoppingWhen: { false })!
    }

    /// Encodes texts as ``encode(_:)`` does, asking `shouldStop` before each forward pass (at
    /// most ``batchSize`` texts); `nil` when it answered true.
    func encode(_ texts: [String], stoppingWhen shouldStop: () -> Bool) -> [[Float]]? {
        guard !texts.isEmpty else { return [] }
        let lowercase = configuration.lowercasesInput
        let sequences = texts.map { text in
            tokenizer.encode(lowercase ? text.lowercased() : text, maxLength: configuration.maxSequenceLength)
        }
        // A batch is at most `batchSize` texts and, so that scratch memory stays bounded (about
        // 15 KB per token for MiniLM), at most `tokenBudget` tokens; a single text always fits.
        let tokenBudget = max(configuration.maxSequenceLength, Self.tokensPerPass)
        var batches: [Range<Int>] = []
        var start = 0
        while start < sequences.count {
            var end = start
            var tokens = 0
            while end < sequences.count, end - start < batchSize,
                end == start || tokens + sequences[end].count <= tokenBudget
            {
                tokens += sequences[end].count
                end += 1
            }
            batches.append(start..<end)
            start = end
        }
        let largest = batches.map { range in sequences[range].reduce(0) { $0 + $1.count } }.max() ?? 0
        let workspace = workspace(rows: largest)
        defer { keep(workspace) }
        func run(on team: WorkerTeam?) -> [[Float]]? {
            var kernel = self.kernel
            kernel.team = team
            let pass = BertForwardPass(weights: weights, kernel: kernel, workers: threadCount)
            var vectors: [[Float]] = []
            vectors.reserveCapacity(texts.count)
            for range in batches {
                if shouldStop() { return nil }
                vectors += pass.encode(Array(sequences[range]), workspace: workspace)
            }
            return vectors
        }
        guard let team else { return run(on: nil) }
        return team.withClaim(run(on:))
    }

    /// Scratch memory for passes of up to `rows` token rows: the kept one when it is large
    /// enough, else a new one. A new workspace is fresh pages that the pass faults in one by one
    /// (about 300 KB for one short text), which showed in one text's profile.
    private func workspace(rows: Int) -> BertWorkspace {
        let kept = spareWorkspace.withLock { spare -> BertWorkspace? in
            guard let workspace = spare, workspace.rowCapacity >= rows else { return nil }
            spare = nil
            return workspace
        }
        if let kept { return kept }
        workspaceCount.withLock { $0 += 1 }
        return BertWorkspace(weights: weights, rows: rows, workers: threadCount, splats: kernel.readsSplats)
    }

    /// Keeps `workspace` for the next call, unless it is large or a larger one is kept already.
    private func keep(_ workspace: BertWorkspace) {
        guard workspace.rowCapacity <= Self.keptWorkspaceRows else { return }
        spareWorkspace.withLock { spare in
            if (spare?.rowCapacity ?? 0) < workspace.rowCapacity { spare = workspace }
        }
    }

    /// Encodes one text.
    public func encode(_ text: String) -> [Float] {
        encode([text])[0]
    }

    /// `Embedder` conformance: the same as ``encode(_:)-([String])``. The work runs on the
    /// calling task's thread plus ``threadCount`` − 1 helpers.
    ///
    /// A cancelled task stops before the next forward pass (at most ``batchSize`` texts) and
    /// throws `CancellationError`.
    public func embed(_ texts: [String]) async throws -> [[Float]] {
        guard let vectors = encode(texts, stoppingWhen: { Task.isCancelled }) else { throw CancellationError() }
        return vectors
    }

    /// The model name of a folder: the `owner/model` id its model card loads, else the folder's name.
    static func modelName(of directory: URL) -> String {
        let readme = directory.appendingPathComponent("README.md")
        if let text = try? String(contentsOf: readme, encoding: .utf8) {
            for marker in [
                "SentenceTransformer('", "SentenceTransformer(\"", "from_pretrained('", "from_pretrained(\"",
            ] {
                guard let range = text.range(of: marker) else { continue }
                let rest = text[range.upperBound...]
                guard let close = rest.firstIndex(where: { $0 == "'" || $0 == "\"" }) else { continue }
                let id = String(rest[..<close])
                let parts = id.split(separator: "/", omittingEmptySubsequences: false)
                let valid =
                    parts.count == 2
                    && parts.allSatisfy { part in
                        !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }
                    }
                if valid { return id }
            }
        }
        return directory.standardizedFileURL.lastPathComponent
    }
}
