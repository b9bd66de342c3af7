import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoEncoder

/// The WordPiece tokenizer must give exactly the ids of the Hugging Face tokenizer; the reference
/// file covers accents, CJK, many scripts, emoji, invisible and control characters and truncation.
@Suite("WordPiece tokenizer", .enabled(if: ModelFixture.shouldRunModelTests, ModelFixture.skipReason))
struct TokenizerTests {
    static func tokenizer() throws -> WordPieceTokenizer {
        try WordPieceTokenizer(modelDirectory: ModelFixture.requireModel())
    }

    @Test("all reference items give the reference token ids")
    func referenceIDs() throws {
        let tokenizer = try Self.tokenizer()
        let reference = try ReferenceFile.load()
        #expect(reference.items.count == 46)
        for (index, item) in reference.items.enumerated() {
            let ids = tokenizer.encode(item.text, maxLength: reference.maxSeqLength)
            #expect(ids == item.tokenIDs, "item \(index): \(item.text.debugDescription.prefix(80))")
            if ids.count < reference.maxSeqLength {
                // Untruncated items: the string pieces must match too.
                #expect(["[CLS]"] + tokenizer.tokenize(item.text) + ["[SEP]"] == item.tokens, "item \(index)")
            }
        }
    }

    @Test("600 random mixed-script strings give the Hugging Face ids")
    func fuzzedStrings() throws {
        struct Fuzz: Decodable {
            struct Item: Decodable {
                var text: String
                var ids: [Int32]
            }
            var items: [Item]
        }
        let url = ModelFixture.fixtures.appendingPathComponent("reference/wordpiece_fuzz.json")
        let fuzz = try JSONDecoder().decode(Fuzz.self, from: Data(contentsOf: url))
        let tokenizer = try Self.tokenizer()
        var mismatches = 0
        for (index, item) in fuzz.items.enumerated() where tokenizer.pieceIDs(item.text) != item.ids {
            mismatches += 1
            Issue.record("item \(index): \(item.text.unicodeScalars.map { String($0.value, radix: 16) })")
            if mismatches > 5 { break }
        }
        #expect(fuzz.items.count == 600)
    }

    @Test("tokenizer.json alone gives the same ids as vocab.txt")
    func tokenizerJSONOnly() throws {
        let model = try ModelFixture.requireModel()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-tok-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: model.appendingPathComponent("tokenizer.json"),
            to: folder.appendingPathComponent("tokenizer.json"))
        let fromJSON = try WordPieceTokenizer(modelDirectory: folder)
        let fromVocab = try Self.tokenizer()
        #expect(fromJSON.vocabularySize == fromVocab.vocabularySize)
        for item in try ReferenceFile.load().items {
            #expect(fromJSON.encode(item.text) == item.tokenIDs)
        }
    }

    @Test("empty and whitespace-only text give only [CLS] [SEP]")
    func emptyText() throws {
        let tokenizer = try Self.tokenizer()
        for text in ["", " ", "   \t\n\r\n  ", "\u{00A0}\u{3000}", "\u{200B}\u{0000}\u{0007}"] {
            #expect(tokenizer.encode(text) == [101, 102], "\(text.debugDescription)")
            #expect(tokenizer.tokenize(text).isEmpty)
        }
    }

    @Test("composed and decomposed accents are stripped alike")
    func accents() throws {
        let tokenizer = try Self.tokenizer()
        let composed = "Caf\u{00E9} cr\u{00E8}me"
        let decomposed = "Cafe\u{0301} cre\u{0300}me"
        #expect(tokenizer.tokenize(composed) == ["cafe", "cr", "##eme"])
        #expect(tokenizer.encode(composed) == tokenizer.encode(decomposed))
        #expect(tokenizer.tokenize("NAÏVE") == ["naive"])
    }

    @Test("CJK ideographs become single tokens; kana stays in words")
    func cjk() throws {
        let tokenizer = try Self.tokenizer()
        #expect(tokenizer.tokenize("東京") == ["東", "京"])
        #expect(tokenizer.tokenize("ab東cd") == ["ab", "東", "cd"])
    }

    @Test("punctuation, ASCII symbols included, is split off")
    func punctuation() throws {
        let tokenizer = try Self.tokenizer()
        #expect(tokenizer.tokenize("Hello, world!") == ["hello", ",", "world", "!"])
        #expect(tokenizer.tokenize("a$b^c") == ["a", "$", "b", "^", "c"])
        #expect(tokenizer.tokenize("it’s") == ["it", "’", "s"])
        // A currency sign is a symbol, not punctuation: it stays inside the word.
        #expect(tokenizer.tokenize("a€b") == ["a", "##€", "##b"])
    }

    @Test("special tokens in the text are kept whole")
    func specialTokens() throws {
        let tokenizer = try Self.tokenizer()
        #expect(tokenizer.encode("hello [SEP] world [mask]") == [101, 7592, 102, 2088, 1031, 7308, 1033, 102])
        #expect(tokenizer.encode("a[MASK]b") == [101, 1037, 103, 1038, 102])
    }

    @Test("a word over 100 characters is one [UNK]; 100 characters are still split")
    func longWord() throws {
        let tokenizer = try Self.tokenizer()
        #expect(tokenizer.tokenize(String(repeating: "x", count: 101)) == ["[UNK]"])
        #expect(tokenizer.tokenize("see " + String(repeating: "ab", count: 60) + " here") == ["see", "[UNK]", "here"])
        let hundred = tokenizer.tokenize(String(repeating: "x", count: 100))
        #expect(hundred.count > 1 && !hundred.contains("[UNK]"))
    }

    @Test("long texts are truncated to 256 ids with [SEP] last")
    func truncation() throws {
        let tokenizer = try Self.tokenizer()
        let text = Array(repeating: "The quick brown fox jumps over the lazy dog.", count: 40).joined(separator: " ")
        let ids = tokenizer.encode(text, maxLength: 256)
        #expect(ids.count == 256)
        #expect(ids.first == 101)
        #expect(ids.last == 102)
        #expect(Array(ids.dropFirst().dropLast()) == Array(tokenizer.pieceIDs(text).prefix(254)))
        #expect(tokenizer.encode(text, maxLength: 10).count == 10)
        #expect(tokenizer.encode("hello world", maxLength: 0) == [101, 102])
    }

    @Test("a vocabulary without [UNK] is rejected with the token's name")
    func missingSpecialToken() {
        #expect {
            _ = try WordPieceTokenizer(vocabulary: ["[PAD]", "[CLS]", "[SEP]", "a"])
        } throws: { error in
            "\(error)".contains("[UNK]")
        }
    }
}

/// Tokenizer behaviour that needs no model files: a tiny in-memory vocabulary.
@Suite("WordPiece tokenizer (synthetic vocabulary)")
struct SyntheticTokenizerTests {
    let tokenizer: WordPieceTokenizer

    init() throws {
        tokenizer = try WordPieceTokenizer(vocabulary: [
            "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]",
            "un", "##aff", "##able", "a", "##b", ",", "cafe",
        ])
    }

    @Test("greedy longest match with ## continuation")
    func greedy() {
        #expect(tokenizer.tokenize("unaffable") == ["un", "##aff", "##able"])
        #expect(tokenizer.encode("unaffable") == [2, 5, 6, 7, 3])
        #expect(tokenizer.tokenize("abb") == ["a", "##b", "##b"])
    }

    @Test("a word with an unspellable part is one [UNK]")
    func unknown() {
        #expect(tokenizer.tokenize("unaffablez, a") == ["[UNK]", ",", "a"])
    }

    @Test("lower-casing and accent stripping come before lookup")
    func normalisation() {
        #expect(tokenizer.tokenize("CAFÉ") == ["cafe"])
    }
}
