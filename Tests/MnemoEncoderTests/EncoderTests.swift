import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoEncoder

/// One encoder for the whole suite: loading packs 90 MB of weights.
private let sharedEncoder: Result<SentenceEncoder, any Error> = Result {
    try SentenceEncoder(modelDirectory: ModelFixture.requireModel())
}

/// The sentence encoder must reproduce sentence-transformers' vectors for all-MiniLM-L6-v2.
@Suite("Sentence encoder", .enabled(if: ModelFixture.shouldRunModelTests, ModelFixture.skipReason))
struct EncoderTests {
    let encoder: SentenceEncoder

    init() throws {
        _ = try ModelFixture.requireModel()
        encoder = try sharedEncoder.get()
    }

    @Test("identity names the model and its dimension")
    func identity() {
        #expect(
            encoder.identity == EmbeddingModelIdentity(name: "sentence-transformers/all-MiniLM-L6-v2", dimension: 384))
        #expect(encoder.configuration.maxSequenceLength == 256)
        #expect(encoder.configuration.pooling == .mean)
    }

    @Test("every reference item has cosine ≥ 0.9999 with the reference vector")
    func referenceVectors() throws {
        let reference = try ReferenceFile.load()
        // Encoded one by one, as the reference was.
        var worst: Float = 1
        for (index, item) in reference.items.enumerated() {
            let vector = encoder.encode(item.text)
            #expect(vector.count == 384)
            let similarity = cosine(vector, item.embedding)
            worst = min(worst, similarity)
            #expect(
                similarity >= 0.9999, "item \(index): cosine \(similarity) for \(item.text.debugDescription.prefix(60))"
            )
        }
        #expect(worst >= 0.9999)
    }

    @Test("a batch gives the same vectors as one-by-one encoding")
    func batchEqualsSingle() throws {
        let texts = try ReferenceFile.load().items.map(\.text)
        let batched = encoder.encode(texts)
        #expect(batched.count == texts.count)
        for (index, text) in texts.enumerated() {
            let single = encoder.encode(text)
            #expect(cosine(single, batched[index]) >= 0.99999, "item \(index)")
        }
        // Other batch sizes and thread counts change nothing either.
        let other = try SentenceEncoder(modelDirectory: ModelFixture.requireModel(), batchSize: 5, threadCount: 1)
        let rebatched = other.encode(texts)
        for index in texts.indices {
            #expect(cosine(rebatched[index], batched[index]) >= 0.99999, "item \(index)")
        }
    }

    @Test("calls reuse the last call's scratch memory when it is small, with the same vectors")
    func scratchMemoryIsReused() throws {
        let encoder = try SentenceEncoder(modelDirectory: ModelFixture.requireModel(), threadCount: 1)
        let short = "my aunt lives in Braga"
        let fresh = encoder.encode(short)
        // About 60 tokens: a larger workspace, kept in place of the first.
        _ = encoder.encode(String(repeating: "she keeps bees in the garden. ", count: 8))
        #expect(encoder.workspacesMade == 2)
        // The larger one, used before, gives the short text the same floats.
        #expect(encoder.encode(short) == fresh)
        #expect(encoder.workspacesMade == 2)
        // A batch past the kept size makes its own and does not keep it.
        _ = encoder.encode([String](repeating: "the quick brown fox jumps over the lazy dog", count: 20))
        #expect(encoder.workspacesMade == 3)
        #expect(encoder.encode(short) == fresh)
        #expect(encoder.workspacesMade == 3)
    }

    @Test("vectors have unit length, and the empty batch gives no vectors")
    func unitLength() async throws {
        let vectors = try await encoder.embed(["hello", "", "a much longer sentence about rock climbing in Portugal"])
        for vector in vectors {
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            #expect(abs(norm - 1) < 1e-5)
        }
        #expect(encoder.encode([String]()).isEmpty)
    }

    /// The project's design brief quoted rounded figures (0.997, 0.918, 0.915); sentence-transformers 6.2 / torch 2.13
    /// on CPU gives 0.99598, 0.91019 and 0.90641 for these pairs (measured with
    /// `SentenceTransformer(...).encode([a, b], normalize_embeddings=True)`), which the encoder must
    /// match closely; the design figures are only approached within 0.012.
    @Test(
        "look-alike pairs score as sentence-transformers does",
        arguments: [
            ("I drink tea instead of coffee", "I drink coffee instead of tea", Float(0.99598), Float(0.997)),
            ("my aunt lives in Braga", "my uncle lives in Braga", Float(0.91019), Float(0.918)),
            ("I ran 10 km on Sunday", "I ran 21 km on Sunday", Float(0.90641), Float(0.915)),
            ("I drink tea instead of coffee", "I prefer tea to coffee", Float(0.85748), Float(0.86)),
            ("I ran 10 km on Sunday", "On Sunday I did a 10 km run", Float(0.95702), Float(0.96)),
        ])
    func designPairs(first: String, second: String, pytorch: Float, design: Float) {
        let vectors = encoder.encode([first, second])
        let similarity = cosine(vectors[0], vectors[1])
        #expect(abs(similarity - pytorch) < 0.0005, "\(first) / \(second): \(similarity)")
        #expect(abs(similarity - design) < 0.012, "\(first) / \(second): \(similarity)")
    }

    @Test("paraphrases score high and unrelated facts low")
    func paraphrases() {
        let vectors = encoder.encode([
            "I ran 10 km on Sunday", "On Sunday I did a 10 km run",
            "I drink tea instead of coffee", "I prefer tea to coffee",
            "The invoice is due next Tuesday",
        ])
        let run = cosine(vectors[0], vectors[1])
        let tea = cosine(vectors[2], vectors[3])
        let unrelated = cosine(vectors[0], vectors[4])
        #expect(run > 0.9 && run < 0.99, "run paraphrase \(run)")
        #expect(tea > 0.8 && tea < 0.93, "tea paraphrase \(tea)")
        #expect(unrelated < 0.3, "unrelated \(unrelated)")
    }

    @Test("concurrent calls from many tasks agree")
    func concurrentCalls() async throws {
        let texts = ["alpha beta", "gamma delta epsilon", "the user prefers SwiftUI"]
        let expected = encoder.encode(texts)
        let encoder = self.encoder
        try await withThrowingTaskGroup(of: [[Float]].self) { group in
            for _ in 0..<4 { group.addTask { try await encoder.embed(texts) } }
            for try await result in group {
                for index in texts.indices { #expect(result[index] == expected[index]) }
            }
        }
    }
}
