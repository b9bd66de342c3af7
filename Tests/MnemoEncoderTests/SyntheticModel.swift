import Foundation

@testable import Mnemo
@testable import MnemoEncoder

/// Writes a tiny BERT sentence-transformers folder (hidden size 8, 2 heads, 1 layer) into a
/// temporary directory, for tests of loading, validation and error messages that must not need
/// the real 90 MB model. Weights are deterministic pseudo-random values.
struct SyntheticModel {
    static let hidden = 8, heads = 2, layers = 1, intermediate = 16, positions = 32
    static let vocabulary = [
        "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "tea", "coffee", "##s", ",", ".",
    ]

    let directory: URL

    /// Creates the folder. `omit` names files not to write; `reshape` overrides tensor shapes
    /// (the value count follows the new shape, so the file stays well formed).
    init(
        omit: Set<String> = [], reshape: [String: [Int]] = [:],
        pooling: [String: Bool] = ["pooling_mode_mean_tokens": true]
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mnemo-synthetic-\(UUID().uuidString)", isDirectory: true)
        let fm = FileManager.default
        try fm.createDirectory(at: directory.appendingPathComponent("1_Pooling"), withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws {
            guard !omit.contains(name) else { return }
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        let h = Self.hidden
        try write(
            "config.json",
            """
            {"architectures": ["BertModel"], "hidden_act": "gelu", "hidden_size": \(h), "intermediate_size": \(Self.intermediate),
             "layer_norm_eps": 1e-12, "max_position_embeddings": \(Self.positions), "model_type": "bert",
             "num_attention_heads": \(Self.heads), "num_hidden_layers": \(Self.layers), "type_vocab_size": 2,
             "vocab_size": \(Self.vocabulary.count)}
            """)
        try write("vocab.txt", Self.vocabulary.joined(separator: "\n") + "\n")
        try write("sentence_bert_config.json", #"{"max_seq_length": 16, "do_lower_case": false}"#)
        try write(
            "modules.json",
            """
            [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
             {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
             {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}]
            """)
        let poolingJSON = (["\"word_embedding_dimension\": \(h)"] + pooling.map { "\"\($0.key)\": \($0.value)" })
            .joined(separator: ", ")
        try write("1_Pooling/config.json", "{\(poolingJSON)}")

        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func values(_ count: Int, scale: Float) -> [Float] {
            (0..<count).map { _ in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return (Float(seed >> 40) / Float(1 << 24) - 0.5) * 2 * scale
            }
        }
        let config = BertConfiguration(
            vocabularySize: Self.vocabulary.count, hiddenSize: h, layerCount: Self.layers,
            attentionHeadCount: Self.heads, intermediateSize: Self.intermediate,
            maxPositionEmbeddings: Self.positions)
        var tensors: [(name: String, shape: [Int], values: [Float])] = []
        for (name, original) in BertWeights.requiredTensors(for: config) {
            let shape = reshape[name] ?? original
            let count = shape.reduce(1, *)
            let isNormWeight = name.hasSuffix("LayerNorm.weight")
            tensors.append(
                (name, shape, isNormWeight ? values(count, scale: 0.1).map { $0 + 1 } : values(count, scale: 0.5)))
        }
        if !omit.contains("model.safetensors") {
            try SafetensorsFile.encode(tensors, metadata: ["format": "pt"])
                .write(to: directory.appendingPathComponent("model.safetensors"))
        }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
