import Foundation
import Mnemo

/// The BERT tokenizer: text normalisation, word splitting and greedy WordPiece, producing the same
/// token ids as the Hugging Face `BertTokenizer` (and its fast `tokenizers` counterpart).
///
/// The steps, in order:
/// 1. clean-up — NUL, U+FFFD and control or format characters (such as a zero-width space or a
///    soft hyphen) are removed, every whitespace character becomes a space;
/// 2. CJK ideographs are surrounded by spaces so each is a word of its own;
/// 3. when lower-casing (uncased models), NFD decomposition and removal of combining marks
///    (`Café` → `cafe`), then lower-casing;
/// 4. splitting on whitespace, with every punctuation character a word of its own;
/// 5. WordPiece: the longest vocabulary entry that prefixes the word, then the longest `##` entry
///    for the rest, and so on; a word that cannot be fully covered, or has more than
///    ``Options/maxInputCharactersPerWord`` scalars, becomes one `[UNK]`.
///
/// ``encode(_:maxLength:)`` adds `[CLS]` and `[SEP]` and truncates to `maxLength` ids.
public struct WordPieceTokenizer: Sendable {
    /// Settings read from `tokenizer_config.json` or `tokenizer.json`.
    public struct Options: Sendable, Equatable {
        /// Lower-case the text (uncased models).
        public var lowercase: Bool = true
        /// Strip accents; `nil` follows ``lowercase``, as in the reference.
        public var stripAccents: Bool? = nil
        /// Split CJK ideographs into single-character words.
        public var handleChineseCharacters: Bool = true
        /// Remove control characters and map whitespace to spaces.
        public var cleanText: Bool = true
        /// Words with more scalars than this become one unknown token.
        public var maxInputCharactersPerWord: Int = 100
        /// The prefix that marks a piece continuing a word.
        public var continuingSubwordPrefix: String = "##"
        /// The token for words the vocabulary cannot spell.
        public var unknownToken: String = "[UNK]"
        /// The token that starts every sequence.
        public var classifierToken: String = "[CLS]"
        /// The token that ends every sequence.
        public var separatorToken: String = "[SEP]"
        /// The token used for padding.
        public var paddingToken: String = "[PAD]"
        /// Tokens recognised verbatim in the raw text before any normalisation, as Hugging Face
        /// does with its special "added tokens": `hello [SEP] world` keeps `[SEP]` as one id.
        /// Tokens missing from the vocabulary are ignored.
        public var specialTokens: [String] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

        /// Creates the default options of an uncased BERT tokenizer.
        public init() {}
    }

    /// The options in effect.
    public let options: Options
    /// The id of ``Options/unknownToken``.
    public let unknownTokenID: Int32
    /// The id of ``Options/classifierToken``.
    public let classifierTokenID: Int32
    /// The id of ``Options/separatorToken``.
    public let separatorTokenID: Int32
    /// The id of ``Options/paddingToken``, or 0 when the vocabulary has no such token.
    public let paddingTokenID: Int32

    private let normalizer: BertTextNormalizer
    private let ids: [String: Int32]
    private let tokens: [String]
    /// The UTF-8 bytes and id of each special token, longest first so the longest match wins.
    private let specials: [(bytes: [UInt8], id: Int32)]

    /// Creates a tokenizer from a vocabulary in id order (line `n` of `vocab.txt` has id `n`).
    ///
    /// - Throws: ``EmbeddingError/invalidVocabulary(_:reason:)`` when a special token is missing;
    ///   `source` only names the vocabulary in that message.
    public init(vocabulary: [String], options: Options = Options(), source: URL? = nil) throws {
        let source = source ?? URL(fileURLWithPath: "vocabulary")
        guard !vocabulary.isEmpty else { throw EmbeddingError.invalidVocabulary(source, reason: "it is empty") }
        var ids: [String: Int32] = [:]
        ids.reserveCapacity(vocabulary.count)
        for (index, token) in vocabulary.enumerated() where ids[token] == nil {
            // The first occurrence wins, as when Hugging Face reads a vocab.txt with duplicates.
            ids[token] = Int32(index)
        }
        func special(_ token: String) throws -> Int32 {
            guard let id = ids[token] else {
                throw EmbeddingError.invalidVocabulary(
                    source, reason: "special token \(token) is not in the vocabulary")
            }
            return id
        }
        self.ids = ids
        self.tokens = vocabulary
        self.options = options
        self.unknownTokenID = try special(options.unknownToken)
        self.classifierTokenID = try special(options.classifierToken)
        self.separatorTokenID = try special(options.separatorToken)
        self.paddingTokenID = ids[options.paddingToken] ?? 0
        self.specials = options.specialTokens
            .compactMap { token in ids[token].map { (bytes: Array(token.utf8), id: $0) } }
            .filter { !$0.bytes.isEmpty }
            .sorted { $0.bytes.count > $1.bytes.count }
        self.normalizer = BertTextNormalizer(
            cleanText: options.cleanText,
            handleChineseCharacters: options.handleChineseCharacters,
            stripAccents: options.stripAccents ?? options.lowercase,
            lowercase: options.lowercase)
    }

    /// The number of entries of the vocabulary.
    public var vocabularySize: Int { tokens.count }

    /// The id of a vocabulary entry, or nil when it is not in the vocabulary.
    public func id(for token: String) -> Int32? { ids[token] }

    /// The vocabulary entry of an id, or nil when the id is out of range.
    public func token(for id: Int32) -> String? {
        tokens.indices.contains(Int(id)) ? tokens[Int(id)] : nil
    }

    /// Splits text into word pieces, without `[CLS]`/`[SEP]` and without truncation.
    public func tokenize(_ text: String) -> [String] {
        pieceIDs(text).map { tokens[Int($0)] }
    }

    /// The ids of a text as the model reads it: `[CLS]`, the word pieces, `[SEP]`.
    ///
    /// - Parameters:
    ///   - text: Any string; it never fails (unknown words become `[UNK]`).
    ///   - maxLength: The most ids to return, `[CLS]` and `[SEP]` included (at least 2). Longer
    ///     texts lose their last pieces, and `[SEP]` stays last, as with Hugging Face truncation.
    public func encode(_ text: String, maxLength: Int = 256) -> [Int32] {
        let limit = max(maxLength, 2) - 2
        var result: [Int32] = [classifierTokenID]
        let pieces = pieceIDs(text, limit: limit)
        result.reserveCapacity(pieces.count + 2)
        result.append(contentsOf: pieces)
        result.append(separatorTokenID)
        return result
    }

    /// The word-piece ids of a text, stopping once `limit` pieces are produced.
    func pieceIDs(_ text: String, limit: Int = .max) -> [Int32] {
        var result: [Int32] = []
        guard limit > 0 else { return result }
        for segment in splitOnSpecialTokens(text) {
            switch segment {
            case .special(let id):
                result.append(id)
            case .text(let part):
                for word in normalizer.preTokenize(normalizer.normalize(part)) {
                    appendPieces(of: word, to: &result)
                    if result.count >= limit { break }
                }
            }
            if result.count >= limit {
                result.removeLast(result.count - limit)
                break
            }
        }
        return result
    }

    private enum Segment {
        case text(String)
        case special(Int32)
    }

    /// Cuts the raw text around verbatim occurrences of special tokens (leftmost, then longest match).
    private func splitOnSpecialTokens(_ text: String) -> [Segment] {
        guard !specials.isEmpty else { return [.text(text)] }
        let firstBytes = Set(specials.map { $0.bytes[0] })
        // Most texts contain no special token at all; avoid copying their bytes.
        guard text.utf8.contains(where: { firstBytes.contains($0) }) else { return [.text(text)] }
        let bytes = Array(text.utf8)
        var segments: [Segment] = []
        var segmentStart = 0
        var position = 0
        while position < bytes.count {
            if firstBytes.contains(bytes[position]),
                let match = specials.first(where: { special in
                    position + special.bytes.count <= bytes.count
                        && bytes[position..<(position + special.bytes.count)].elementsEqual(special.bytes)
                })
            {
                if segmentStart < position {
                    segments.append(.text(String(decoding: bytes[segmentStart..<position], as: UTF8.self)))
                }
                segments.append(.special(match.id))
                position += match.bytes.count
                segmentStart = position
            } else {
                position += 1
            }
        }
        if segmentStart < bytes.count {
            segments.append(.text(String(decoding: bytes[segmentStart...], as: UTF8.self)))
        }
        return segments
    }

    /// Greedy longest-match-first WordPiece for one word.
    private func appendPieces(of word: [Unicode.Scalar], to result: inout [Int32]) {
        if word.count > options.maxInputCharactersPerWord {
            result.append(unknownTokenID)
            return
        }
        // Fast path: most words are whole vocabulary entries.
        var candidate = String(String.UnicodeScalarView(word))
        if let id = ids[candidate] {
            result.append(id)
            return
        }
        let firstPiece = result.count
        var start = 0
        while start < word.count {
            var end = word.count
            var found: Int32?
            while start < end {
                var scalars = String.UnicodeScalarView()
                if start > 0 { scalars.append(contentsOf: options.continuingSubwordPrefix.unicodeScalars) }
                scalars.append(contentsOf: word[start..<end])
                candidate = String(scalars)
                if let id = ids[candidate] {
                    found = id
                    break
                }
                end -= 1
            }
            guard let id = found else {
                // One unknown piece makes the whole word unknown, as in the reference.
                result.removeLast(result.count - firstPiece)
                result.append(unknownTokenID)
                return
            }
            result.append(id)
            start = end
        }
    }
}
