import Foundation
import Mnemo

/// The architecture and sentence-level settings of a BERT sentence-transformers model.
///
/// Read from a Hugging Face folder: `config.json` gives the network's sizes,
/// `sentence_bert_config.json` the maximum sequence length, and the pooling module's
/// `config.json` (found through `modules.json`, usually `1_Pooling/`) how token vectors become one
/// sentence vector. Nothing here is specific to all-MiniLM-L6-v2: every size comes from the files.
public struct BertConfiguration: Sendable, Equatable {
    /// How token vectors are combined into the sentence vector.
    public enum Pooling: String, Sendable, Equatable {
        /// The average of the token vectors under the attention mask (all-MiniLM-L6-v2).
        case mean
        /// The vector of the first token, `[CLS]`.
        case cls
        /// The component-wise maximum over the tokens.
        case max
        /// The sum of the token vectors divided by the square root of the token count.
        case meanSquareRootLength
    }

    /// The number of entries of the word-embedding table.
    public var vocabularySize: Int
    /// The width of every hidden state (384 for MiniLM-L6).
    public var hiddenSize: Int
    /// The number of transformer layers.
    public var layerCount: Int
    /// The number of self-attention heads per layer; must divide ``hiddenSize``.
    public var attentionHeadCount: Int
    /// The width of the feed-forward layer.
    public var intermediateSize: Int
    /// The number of learned positions; no input can be longer.
    public var maxPositionEmbeddings: Int
    /// The number of token types (segments) of the token-type embedding table.
    public var typeVocabularySize: Int
    /// The epsilon added to the variance in every layer normalisation.
    public var layerNormEpsilon: Float
    /// The number of tokens, `[CLS]` and `[SEP]` included, beyond which input is truncated.
    public var maxSequenceLength: Int
    /// The pooling of the sentence-transformers pipeline.
    public var pooling: Pooling
    /// Whether sentence-transformers lower-cases the text before tokenizing (`do_lower_case` in
    /// `sentence_bert_config.json`; false for all-MiniLM-L6-v2, whose tokenizer lower-cases anyway).
    public var lowercasesInput: Bool = false

    /// The width of one attention head.
    public var headDimension: Int { hiddenSize / attentionHeadCount }

    /// Creates a configuration from explicit values (used for synthetic models and tests).
    public init(
        vocabularySize: Int, hiddenSize: Int, layerCount: Int, attentionHeadCount: Int,
        intermediateSize: Int, maxPositionEmbeddings: Int, typeVocabularySize: Int = 2,
        layerNormEpsilon: Float = 1e-12, maxSequenceLength: Int? = nil, pooling: Pooling = .mean
    ) {
        self.vocabularySize = vocabularySize
        self.hiddenSize = hiddenSize
        self.layerCount = layerCount
        self.attentionHeadCount = attentionHeadCount
        self.intermediateSize = intermediateSize
        self.maxPositionEmbeddings = maxPositionEmbeddings
        self.typeVocabularySize = typeVocabularySize
        self.layerNormEpsilon = layerNormEpsilon
        self.maxSequenceLength = min(maxSequenceLength ?? maxPositionEmbeddings, maxPositionEmbeddings)
        self.pooling = pooling
    }

    /// Reads the configuration of the model in `directory`.
    ///
    /// - Throws: ``EmbeddingError/missingFile(_:)`` without `config.json`,
    ///   ``EmbeddingError/invalidConfiguration(_:reason:)`` for a malformed or inconsistent file, and
    ///   ``EmbeddingError/unsupportedModel(_:)`` for an architecture, activation, pooling mode or
    ///   extra module (such as a `Dense` projection) this encoder does not implement.
    public init(directory: URL) throws {
        let configURL = directory.appendingPathComponent("config.json")
        let config = try Self.jsonObject(at: configURL, required: true) ?? [:]
        func int(_ key: String) throws -> Int {
            guard let value = config[key] as? NSNumber, let int = Int(exactly: value.doubleValue), int > 0 else {
                throw EmbeddingError.invalidConfiguration(configURL, reason: "'\(key)' must be a positive integer")
            }
            return int
        }
        if let type = config["model_type"] as? String, type != "bert" {
            throw EmbeddingError.unsupportedModel(
                "model_type '\(type)' in \(configURL.path); only 'bert' is implemented")
        }
        // Only the exact erf GELU is implemented; the tanh approximations would give other vectors.
        let activation = config["hidden_act"] as? String ?? "gelu"
        guard activation == "gelu" else {
            throw EmbeddingError.unsupportedModel(
                "hidden_act '\(activation)' in \(configURL.path); only 'gelu' is implemented")
        }
        if let position = config["position_embedding_type"] as? String, position != "absolute" {
            throw EmbeddingError.unsupportedModel(
                "position_embedding_type '\(position)'; only 'absolute' is implemented")
        }
        let epsilon = (config["layer_norm_eps"] as? NSNumber)?.floatValue ?? 1e-12
        let hiddenSize = try int("hidden_size")
        let heads = try int("num_attention_heads")
        guard hiddenSize % heads == 0 else {
            throw EmbeddingError.invalidConfiguration(
                configURL, reason: "hidden_size \(hiddenSize) is not a multiple of num_attention_heads \(heads)")
        }
        let maxPositions = try int("max_position_embeddings")
        let typeVocabulary = config["type_vocab_size"] == nil ? 2 : try int("type_vocab_size")

        // sentence-transformers truncates at max_seq_length, not at the 512 positions the network knows.
        let sentenceURL = directory.appendingPathComponent("sentence_bert_config.json")
        let sentenceConfig = try Self.jsonObject(at: sentenceURL, required: false)
        var maxSequenceLength = maxPositions
        let lowercasesInput = sentenceConfig?["do_lower_case"] as? Bool ?? false
        if let value = sentenceConfig?["max_seq_length"] {
            guard let number = value as? NSNumber, let length = Int(exactly: number.doubleValue), length >= 2 else {
                throw EmbeddingError.invalidConfiguration(
                    sentenceURL, reason: "'max_seq_length' must be an integer of at least 2")
            }
            maxSequenceLength = min(length, maxPositions)
        }

        self.init(
            vocabularySize: try int("vocab_size"), hiddenSize: hiddenSize, layerCount: try int("num_hidden_layers"),
            attentionHeadCount: heads, intermediateSize: try int("intermediate_size"),
            maxPositionEmbeddings: maxPositions, typeVocabularySize: typeVocabulary,
            layerNormEpsilon: epsilon, maxSequenceLength: maxSequenceLength,
            pooling: try Self.readPooling(directory: directory, hiddenSize: hiddenSize))
        self.lowercasesInput = lowercasesInput
    }

    /// Finds the pooling module through `modules.json` and reads its mode; mean pooling when there is none,
    /// which is what sentence-transformers does for a plain Hugging Face model.
    private static func readPooling(directory: URL, hiddenSize: Int) throws -> Pooling {
        let modulesURL = directory.appendingPathComponent("modules.json")
        var poolingPath = "1_Pooling"
        if FileManager.default.fileExists(atPath: modulesURL.path) {
            let data = try readData(modulesURL)
            guard let modules = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else {
                throw EmbeddingError.invalidConfiguration(modulesURL, reason: "expected a JSON array of modules")
            }
            for module in modules {
                let type = module["type"] as? String ?? ""
                let name = type.split(separator: ".").last.map(String.init) ?? type
                switch name {
                case "Transformer", "Normalize":
                    continue
                case "Pooling":
                    poolingPath = module["path"] as? String ?? poolingPath
                default:
                    // A Dense projection or similar would change the vectors; refuse rather than drift.
                    throw EmbeddingError.unsupportedModel("module '\(type)' in \(modulesURL.path) is not implemented")
                }
            }
        }
        let poolingURL = directory.appendingPathComponent(poolingPath).appendingPathComponent("config.json")
        guard let pooling = try jsonObject(at: poolingURL, required: false) else { return .mean }
        if let dimension = pooling["word_embedding_dimension"] as? NSNumber, dimension.intValue != hiddenSize {
            throw EmbeddingError.invalidConfiguration(
                poolingURL, reason: "word_embedding_dimension \(dimension) differs from hidden_size \(hiddenSize)")
        }
        let flags: [(String, Pooling?)] = [
            ("pooling_mode_mean_tokens", .mean), ("pooling_mode_cls_token", .cls),
            ("pooling_mode_max_tokens", .max), ("pooling_mode_mean_sqrt_len_tokens", .meanSquareRootLength),
            ("pooling_mode_weightedmean_tokens", nil), ("pooling_mode_lasttoken", nil),
        ]
        let enabled = flags.filter { (pooling[$0.0] as? Bool) == true }
        guard enabled.count == 1 else {
            let names = enabled.map(\.0).joined(separator: ", ")
            throw EmbeddingError.unsupportedModel(
                "pooling in \(poolingURL.path) must enable exactly one mode, found [\(names)]")
        }
        guard let mode = enabled[0].1 else {
            throw EmbeddingError.unsupportedModel(
                "pooling mode '\(enabled[0].0)' in \(poolingURL.path) is not implemented (supported: mean, cls, max, mean_sqrt_len)"
            )
        }
        return mode
    }

    /// Reads a JSON object, returning nil for an optional file that does not exist.
    static func jsonObject(at url: URL, required: Bool) throws -> [String: Any]? {
        guard FileManager.default.fileExists(atPath: url.path) else {
            if required { throw EmbeddingError.missingFile(url) }
            return nil
        }
        let data = try readData(url)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw EmbeddingError.invalidConfiguration(url, reason: "not a JSON object")
        }
        return object
    }

    static func readData(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw EmbeddingError.unreadableFile(url, reason: error.localizedDescription)
        }
    }
}
