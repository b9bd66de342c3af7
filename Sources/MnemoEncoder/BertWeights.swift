import Mnemo

/// The weights of a BERT encoder, checked against the configuration and packed for inference.
///
/// Loading copies each tensor once out of the memory-mapped safetensors file into cache-line
/// aligned buffers, linear layers already in the panel layout of ``PackedLinear``; nothing is
/// rearranged while encoding. The value is immutable afterwards, which is what makes
/// ``SentenceEncoder`` safe to share between threads.
struct BertWeights: Sendable {
    /// One transformer layer.
    struct Layer: Sendable {
        /// Query, key and value projections stacked: `3 × hidden` outputs.
        let attentionInput: PackedLinear
        /// The projection of the attention heads' concatenated outputs.
        let attentionOutput: PackedLinear
        let attentionNormWeight: FloatBuffer
        let attentionNormBias: FloatBuffer
        /// The feed-forward expansion (`hidden → intermediate`, followed by GELU).
        let intermediate: PackedLinear
        /// The feed-forward contraction (`intermediate → hidden`).
        let output: PackedLinear
        let outputNormWeight: FloatBuffer
        let outputNormBias: FloatBuffer
    }

    let configuration: BertConfiguration
    /// `vocabularySize × hidden` word embeddings.
    let wordEmbeddings: FloatBuffer
    /// `maxPositionEmbeddings × hidden` position embeddings.
    let positionEmbeddings: FloatBuffer
    /// The embedding of token type 0, the only type a single sentence uses.
    let tokenTypeEmbedding: FloatBuffer
    let embeddingNormWeight: FloatBuffer
    let embeddingNormBias: FloatBuffer
    let layers: [Layer]

    /// Every tensor the encoder reads, with the shape the configuration implies, without the
    /// optional `bert.` prefix. The pooler (`pooler.dense`) is not listed: sentence-transformers does
    /// not use it.
    static func requiredTensors(for config: BertConfiguration) -> [(name: String, shape: [Int])] {
        let hidden = config.hiddenSize
        let inner = config.intermediateSize
        var tensors: [(String, [Int])] = [
            ("embeddings.word_embeddings.weight", [config.vocabularySize, hidden]),
            ("embeddings.position_embeddings.weight", [config.maxPositionEmbeddings, hidden]),
            ("embeddings.token_type_embeddings.weight", [config.typeVocabularySize, hidden]),
            ("embeddings.LayerNorm.weight", [hidden]),
            ("embeddings.LayerNorm.bias", [hidden]),
        ]
        for index in 0..<config.layerCount {
            let prefix = "encoder.layer.\(index)."
            for projection in ["query", "key", "value"] {
                tensors.append((prefix + "attention.self.\(projection).weight", [hidden, hidden]))
                tensors.append((prefix + "attention.self.\(projection).bias", [hidden]))
            }
            tensors += [
                (prefix + "attention.output.dense.weight", [hidden, hidden]),
                (prefix + "attention.output.dense.bias", [hidden]),
                (prefix + "attention.output.LayerNorm.weight", [hidden]),
                (prefix + "attention.output.LayerNorm.bias", [hidden]),
                (prefix + "intermediate.dense.weight", [inner, hidden]),
                (prefix + "intermediate.dense.bias", [inner]),
                (prefix + "output.dense.weight", [hidden, inner]),
                (prefix + "output.dense.bias", [hidden]),
                (prefix + "output.LayerNorm.weight", [hidden]),
                (prefix + "output.LayerNorm.bias", [hidden]),
            ]
        }
        return tensors
    }

    /// The prefix of the tensor names in `file`: empty for a plain `BertModel`, `bert.` for weights
    /// saved from a task model such as `BertForMaskedLM`.
    static func namePrefix(in file: SafetensorsFile) -> String {
        if file.tensors["embeddings.word_embeddings.weight"] == nil,
            file.tensors["bert.embeddings.word_embeddings.weight"] != nil
        {
            return "bert."
        }
        return ""
    }

    /// Every problem with the tensors of `file` at once (missing tensor, wrong dtype, wrong shape),
    /// so that a user sees the whole list rather than one error per attempt.
    static func problems(in file: SafetensorsFile, configuration: BertConfiguration) -> [String] {
        let prefix = namePrefix(in: file)
        var problems: [String] = []
        for (name, shape) in requiredTensors(for: configuration) {
            do {
                try file.checkFloatTensor(prefix + name, shape: shape)
            } catch {
                problems.append("\(error)")
            }
        }
        return problems
    }

    /// Loads and packs the weights.
    ///
    /// - Throws: ``EmbeddingError/invalidModelFolder(_:problems:)`` listing every missing or
    ///   mis-shaped tensor.
    init(configuration config: BertConfiguration, file: SafetensorsFile) throws {
        let problems = Self.problems(in: file, configuration: config)
        guard problems.isEmpty else {
            throw EmbeddingError.invalidModelFolder(file.url.deletingLastPathComponent(), problems: problems)
        }
        let prefix = Self.namePrefix(in: file)
        func tensor(_ name: String) throws -> [Float] { try file.floats(prefix + name) }
        func buffer(_ name: String) throws -> FloatBuffer { FloatBuffer(try tensor(name)) }
        let hidden = config.hiddenSize

        configuration = config
        wordEmbeddings = try buffer("embeddings.word_embeddings.weight")
        positionEmbeddings = try buffer("embeddings.position_embeddings.weight")
        tokenTypeEmbedding = FloatBuffer(Array(try tensor("embeddings.token_type_embeddings.weight").prefix(hidden)))
        embeddingNormWeight = try buffer("embeddings.LayerNorm.weight")
        embeddingNormBias = try buffer("embeddings.LayerNorm.bias")

        var layers: [Layer] = []
        for index in 0..<config.layerCount {
            let p = "encoder.layer.\(index)."
            let projections = try ["query", "key", "value"].map { name in
                (
                    weight: try tensor(p + "attention.self.\(name).weight"),
                    bias: try tensor(p + "attention.self.\(name).bias"),
                    outputSize: hidden
                )
            }
            layers.append(
                Layer(
                    attentionInput: PackedLinear(stacking: projections, inputSize: hidden),
                    attentionOutput: PackedLinear(
                        weight: try tensor(p + "attention.output.dense.weight"),
                        bias: try tensor(p + "attention.output.dense.bias"),
                        outputSize: hidden, inputSize: hidden),
                    attentionNormWeight: try buffer(p + "attention.output.LayerNorm.weight"),
                    attentionNormBias: try buffer(p + "attention.output.LayerNorm.bias"),
                    intermediate: PackedLinear(
                        weight: try tensor(p + "intermediate.dense.weight"),
                        bias: try tensor(p + "intermediate.dense.bias"),
                        outputSize: config.intermediateSize, inputSize: hidden),
                    output: PackedLinear(
                        weight: try tensor(p + "output.dense.weight"), bias: try tensor(p + "output.dense.bias"),
                        outputSize: hidden, inputSize: config.intermediateSize),
                    outputNormWeight: try buffer(p + "output.LayerNorm.weight"),
                    outputNormBias: try buffer(p + "output.LayerNorm.bias")))
        }
        self.layers = layers
    }
}
