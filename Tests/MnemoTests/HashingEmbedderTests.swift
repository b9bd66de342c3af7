import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Hashing embedder")
struct HashingEmbedderTests {
    let embedder = HashingEmbedder()

    @Test("identity and dimension")
    func identity() {
        #expect(embedder.identity == EmbeddingModelIdentity(name: "mnemo/hashed-ngrams-v1", dimension: 384))
        #expect(HashingEmbedder(dimension: 64).vector(for: "hello").count == 64)
    }

    @Test("the same text always gives the same vector, across instances")
    func deterministic() async throws {
        let texts = ["User prefers SwiftUI over UIKit", "Café crème", "東京で働いています", ""]
        let first = try await embedder.embed(texts)
        let second = try await HashingEmbedder().embed(texts)
        #expect(first == second)
        // Pinned values: a change of hash or features must come with a new identity name.
        #expect(FNV1a.hash(Array("hello".utf8)) == 0xa430_d846_80aa_bd0b)
        let vector = embedder.vector(for: "hello world")
        #expect(vector.firstIndex { $0 != 0 } != nil)
    }

    @Test("every vector has unit length, even for empty or punctuation-only text")
    func unitLength() async throws {
        for text in ["", "   ", "!!!", "a", "The quick brown fox jumps over the lazy dog", "🎉🎉"] {
            let vector = embedder.vector(for: text)
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            #expect(abs(norm - 1) < 1e-5, "\(text.debugDescription)")
        }
    }

    @Test("similar texts are closer than unrelated ones")
    func similarity() {
        let base = embedder.vector(for: "I drink green tea every morning")
        let close = embedder.vector(for: "I drank green tea this morning")
        let far = embedder.vector(for: "The invoice for the car repair is overdue")
        #expect(cosine(base, close) > cosine(base, far) + 0.3)
        #expect(cosine(base, base) > 0.9999)
    }

    @Test("case and accents do not matter")
    func normalisation() {
        #expect(embedder.vector(for: "CAFÉ Crème") == embedder.vector(for: "cafe creme"))
    }
}
