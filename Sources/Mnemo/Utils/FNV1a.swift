/// 64-bit FNV-1a: a simple hash whose value is fixed by its definition, so it is the same in
/// every run, process and platform (unlike Swift's randomly seeded `Hasher`). The hashing
/// embedder's features, the BM25 function's per-query key and the evaluation's embedding cache
/// all hash with it.
package enum FNV1a {
    /// The hash of an empty input (the FNV-1a offset basis).
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of `bytes`, continuing from `state` (so a hash can be fed in pieces).
    @inlinable
    package static func hash(_ bytes: some Sequence<UInt8>, continuing state: UInt64 = offsetBasis) -> UInt64 {
        var hash = state
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}
