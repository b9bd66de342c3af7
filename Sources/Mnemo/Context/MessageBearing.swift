import Foundation

/// How much a fact bears on a message: the evidence a context picks its standing facts by, and
/// by which it tells whether the memory knows anything about the message at all.
///
/// A fact's bearing is the larger of two cosines: its cosine to the message, and its cosine to
/// the message's *neighbourhood*, the normalized mean vector of the first
/// ``ContextOptions/neighbourhood`` search hits that themselves bear on the message. The
/// neighbourhood says what the message is about in this memory's own terms: "Recommend a book for
/// my next flight" lands among the facts about reading, and a fact about the e-reader the user
/// reads on is close to them though its cosine to the message is low. A hit bears on the message
/// when its ``SearchHit/relevance`` reaches ``ContextOptions/minimumRelevance`` or its cosine
/// reaches ``ContextOptions/minimumBearing``; a message no hit bears on has no neighbourhood,
/// so nothing is brought in by its (unrelated) hits. The memory knows something about the
/// message when a hit reaches ``ContextOptions/minimumRelevance`` or the lower cosine
/// ``ContextOptions/minimumEvidence``.
///
/// Without vectors (no embedder, or a fact not yet embedded) a fact's bearing is its relevance
/// as a hit, 0 when it is not one.
struct MessageBearing {
    private let query: [Float]?
    private let neighbourhood: [Float]?
    private let store: VectorSnapshot?
    private let relevanceOfHit: [Int64: Double]
    /// Whether some hit shows that the memory knows something about the message.
    let findsAnything: Bool
    /// Whether the message is about the user's aims: a goal is among the hits that make its
    /// neighbourhood (what the facts near a message are tells what kind of message it is).
    let isAboutAims: Bool

    init(query: [Float]?, hits: [SearchHit], store: VectorSnapshot?, options: ContextOptions) {
        self.query = query
        self.store = store
        relevanceOfHit = Dictionary(hits.map { ($0.fact.id, $0.relevance ?? 0) }, uniquingKeysWith: max)
        let bearing = hits.filter {
            ($0.relevance ?? 0) >= options.minimumRelevance || ($0.similarity ?? 0) >= options.minimumBearing
        }
        findsAnything = hits.contains {
            ($0.relevance ?? 0) >= options.minimumRelevance || ($0.similarity ?? 0) >= options.minimumEvidence
        }
        isAboutAims = bearing.prefix(options.neighbourhood).contains { $0.fact.type == .goal }
        neighbourhood = store.flatMap { store in
            Self.centroid(of: bearing.prefix(options.neighbourhood).compactMap { store.vector(of: $0.fact.id) })
        }
    }

    /// The fact's bearing on the message (see the type's description), from −1 to 1.
    func bearing(of fact: Fact) -> Double {
        guard let store, store.contains(fact.id) else { return relevanceOfHit[fact.id] ?? 0 }
        let direct = query.map { store.similarity(of: fact.id, to: $0) } ?? 0
        let around = neighbourhood.map { store.similarity(of: fact.id, to: $0) } ?? -1
        return max(direct, around)
    }

    /// The unit vector of the mean of `vectors`; `nil` for none.
    private static func centroid(of vectors: [[Float]]) -> [Float]? {
        guard let first = vectors.first else { return nil }
        var sum = [Float](repeating: 0, count: first.count)
        for vector in vectors where vector.count == sum.count {
            for (offset, value) in vector.enumerated() { sum[offset] += value }
        }
        let norm = sum.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard norm > 0 else { return nil }
        return sum.map { $0 / norm }
    }
}
