import Mnemo

/// A test embedder: each text maps to a pseudo-random unit vector seeded by its bytes, unless a
/// vector was pinned for it. Equal texts get equal vectors; different texts are nearly orthogonal.
package struct SeededEmbedder: Embedder {
    package var identity: EmbeddingModelIdentity
    package var pinned: [String: [Float]] = [:]

    package init(name: String = "test/seeded", dimension: Int = 32, pinned: [String: [Float]] = [:]) {
        identity = EmbeddingModelIdentity(name: name, dimension: dimension)
        self.pinned = pinned.mapValues(Self.normalized)
    }

    package func embed(_ texts: [String]) async throws -> [[Float]] {
        texts.map { pinned[$0] ?? vector(for: $0) }
    }

    package func vector(for text: String) -> [Float] {
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let raw = (0..<identity.dimension).map { _ -> Float in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 2_000_001 - 1_000_000) / 1_000_000
        }
        return Self.normalized(raw)
    }

    package static func normalized(_ vector: [Float]) -> [Float] {
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? vector.map { $0 / norm } : vector
    }
}
