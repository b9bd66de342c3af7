import Foundation
import Mnemo

extension WordPieceTokenizer {
    /// Loads the tokenizer of a Hugging Face model folder.
    ///
    /// The vocabulary comes from `vocab.txt`, or from `tokenizer.json` when there is no `vocab.txt`.
    /// The options come from `tokenizer.json` (what the fast tokenizer, and so sentence-transformers,
    /// runs) when present, else from `tokenizer_config.json`, else the uncased BERT defaults.
    ///
    /// - Throws: ``EmbeddingError/missingFile(_:)`` when neither vocabulary file exists, or
    ///   ``EmbeddingError/invalidVocabulary(_:reason:)`` for a malformed one.
    public init(modelDirectory: URL) throws {
        let vocabURL = modelDirectory.appendingPathComponent("vocab.txt")
        let jsonURL = modelDirectory.appendingPathComponent("tokenizer.json")
        let configURL = modelDirectory.appendingPathComponent("tokenizer_config.json")
        let fileManager = FileManager.default
        let tokenizerJSON = fileManager.fileExists(atPath: jsonURL.path) ? try Self.readTokenizerJSON(jsonURL) : nil

        var options = Options()
        if let tokenizerJSON {
            options = try Self.options(fromTokenizerJSON: tokenizerJSON, url: jsonURL)
        } else if let config = try BertConfiguration.jsonObject(at: configURL, required: false) {
            options = Self.options(fromTokenizerConfig: config)
        }

        if fileManager.fileExists(atPath: vocabURL.path) {
            try self.init(vocabulary: try Self.readVocabularyFile(vocabURL), options: options, source: vocabURL)
        } else if let tokenizerJSON {
            try self.init(
                vocabulary: try Self.vocabulary(fromTokenizerJSON: tokenizerJSON, url: jsonURL),
                options: options, source: jsonURL)
        } else {
            throw EmbeddingError.missingFile(vocabURL)
        }
    }

    /// Loads a tokenizer from a `vocab.txt` file (one token per line, line number = id).
    public init(vocabularyFile url: URL, options: Options = Options()) throws {
        try self.init(vocabulary: try Self.readVocabularyFile(url), options: options, source: url)
    }

    /// Loads a tokenizer from a `tokenizer.json` file, taking the vocabulary and options from it.
    public init(tokenizerJSON url: URL) throws {
        let json = try Self.readTokenizerJSON(url)
        try self.init(
            vocabulary: try Self.vocabulary(fromTokenizerJSON: json, url: url),
            options: try Self.options(fromTokenizerJSON: json, url: url), source: url)
    }

    static func readVocabularyFile(_ url: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: url.path) else { throw EmbeddingError.missingFile(url) }
        let data = try BertConfiguration.readData(url)
        guard let text = String(data: data, encoding: .utf8) else {
            throw EmbeddingError.invalidVocabulary(url, reason: "not UTF-8 text")
        }
        // Split on "\n" only and drop a trailing "\r": tokens themselves may be any other character.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        if lines.last == "" { lines.removeLast() }
        guard !lines.isEmpty else { throw EmbeddingError.invalidVocabulary(url, reason: "it is empty") }
        return lines
    }

    static func readTokenizerJSON(_ url: URL) throws -> [String: Any] {
        let data = try BertConfiguration.readData(url)
        guard let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw EmbeddingError.invalidVocabulary(url, reason: "not a JSON object")
        }
        return json
    }

    /// The vocabulary of a `tokenizer.json` WordPiece model, in id order.
    static func vocabulary(fromTokenizerJSON json: [String: Any], url: URL) throws -> [String] {
        guard let model = json["model"] as? [String: Any] else {
            throw EmbeddingError.invalidVocabulary(url, reason: "no 'model' object")
        }
        if let type = model["type"] as? String, type != "WordPiece" {
            throw EmbeddingError.invalidVocabulary(url, reason: "model type '\(type)' is not WordPiece")
        }
        guard let vocab = model["vocab"] as? [String: Any], !vocab.isEmpty else {
            throw EmbeddingError.invalidVocabulary(url, reason: "no 'model.vocab' object")
        }
        var tokens = [String?](repeating: nil, count: vocab.count)
        for (token, value) in vocab {
            guard let number = value as? NSNumber, let id = Int(exactly: number.doubleValue),
                tokens.indices.contains(id)
            else {
                throw EmbeddingError.invalidVocabulary(
                    url, reason: "token '\(token)' has an id outside 0..<\(vocab.count)")
            }
            guard tokens[id] == nil else {
                throw EmbeddingError.invalidVocabulary(url, reason: "id \(id) is used twice")
            }
            tokens[id] = token
        }
        // With ids unique and in range, every slot is filled.
        return tokens.map { $0 ?? "" }
    }

    static func options(fromTokenizerJSON json: [String: Any], url: URL) throws -> Options {
        var options = Options()
        if let normalizer = json["normalizer"] as? [String: Any] {
            if let type = normalizer["type"] as? String, type != "BertNormalizer" {
                throw EmbeddingError.invalidVocabulary(url, reason: "normalizer '\(type)' is not BertNormalizer")
            }
            options.lowercase = normalizer["lowercase"] as? Bool ?? true
            options.stripAccents = normalizer["strip_accents"] as? Bool
            options.handleChineseCharacters = normalizer["handle_chinese_chars"] as? Bool ?? true
            options.cleanText = normalizer["clean_text"] as? Bool ?? true
        }
        if let model = json["model"] as? [String: Any] {
            if let unknown = model["unk_token"] as? String { options.unknownToken = unknown }
            if let prefix = model["continuing_subword_prefix"] as? String { options.continuingSubwordPrefix = prefix }
            if let limit = model["max_input_chars_per_word"] as? Int { options.maxInputCharactersPerWord = limit }
        }
        // The post-processor template names the tokens that frame a single sequence.
        if let post = json["post_processor"] as? [String: Any], let single = post["single"] as? [[String: Any]] {
            let specials = single.compactMap { ($0["SpecialToken"] as? [String: Any])?["id"] as? String }
            if specials.count == 2 {
                options.classifierToken = specials[0]
                options.separatorToken = specials[1]
            }
        }
        if let padding = json["padding"] as? [String: Any], let token = padding["pad_token"] as? String {
            options.paddingToken = token
        }
        if let added = json["added_tokens"] as? [[String: Any]] {
            options.specialTokens = added.compactMap { $0["content"] as? String }
        }
        return options
    }

    static func options(fromTokenizerConfig config: [String: Any]) -> Options {
        var options = Options()
        options.lowercase = config["do_lower_case"] as? Bool ?? true
        options.stripAccents = config["strip_accents"] as? Bool
        options.handleChineseCharacters = config["tokenize_chinese_chars"] as? Bool ?? true
        func token(_ key: String) -> String? {
            // Special tokens are either plain strings or AddedToken objects with a "content" key.
            if let string = config[key] as? String { return string }
            return (config[key] as? [String: Any])?["content"] as? String
        }
        if let value = token("unk_token") { options.unknownToken = value }
        if let value = token("cls_token") { options.classifierToken = value }
        if let value = token("sep_token") { options.separatorToken = value }
        if let value = token("pad_token") { options.paddingToken = value }
        let mask = token("mask_token") ?? "[MASK]"
        options.specialTokens = [
            options.paddingToken, options.unknownToken, options.classifierToken,
            options.separatorToken, mask,
        ]
        return options
    }
}
