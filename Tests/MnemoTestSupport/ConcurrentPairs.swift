import Mnemo

/// Thirty pairs of paraphrases at cosine 0.90, each orthogonal to the others: added at once,
/// from one instance, two instances or two nodes, every pair must merge as if added one after the other.
package enum ConcurrentPairs {
    package static let count = 30

    package static func pair(_ i: Int) -> (String, String) {
        ("I prefer tea to coffee at desk \(i)", "Prefers tea over coffee at desk \(i)")
    }

    package static func embedder() -> SeededEmbedder {
        var pinned: [String: [Float]] = [:]
        let dimension = 2 * count
        for i in 0..<count {
            var first = [Float](repeating: 0, count: dimension)
            var second = first
            first[2 * i] = 1
            second[2 * i] = 0.9
            second[2 * i + 1] = 0.43589
            let (a, b) = pair(i)
            pinned[a] = first
            pinned[b] = second
        }
        return SeededEmbedder(dimension: dimension, pinned: pinned)
    }

    package static func fact(_ content: String) -> NewFact {
        NewFact(content: content, topicPath: "Drinks", type: .preference)
    }
}
