import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The near-duplicate check reads the vector index inside the transaction whose write it
/// decides, so concurrent adds merge exactly as sequential ones.
@Suite("Concurrent near-duplicate merging")
struct ConcurrentMergeTests {
    static let pairs = 30

    /// Pair `i`: two paraphrases at cosine 0.90, orthogonal to every other pair.
    static func pair(_ i: Int) -> (String, String) {
        ("I prefer tea to coffee at desk \(i)", "Prefers tea over coffee at desk \(i)")
    }

    static func embedder() -> SeededEmbedder {
        var pinned: [String: [Float]] = [:]
        let dimension = 2 * pairs
        for i in 0..<pairs {
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

    static func fact(_ content: String) -> NewFact {
        NewFact(content: content, topicPath: "Drinks", type: .preference)
    }

    @Test func sequentialPairsAllMerge() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: Self.embedder())
        for i in 0..<Self.pairs {
            let (a, b) = Self.pair(i)
            try await kb.addFact(Self.fact(a))
            try await kb.addFact(Self.fact(b))
        }
        #expect(try await kb.stats().facts == Self.pairs)
    }

    @Test func concurrentPairsMergeAsSequentialOnesDo() async throws {
        let kb = try KnowledgeBase(path: TestKnowledgeBase.temporaryPath(), embedder: Self.embedder())
        // Load the index first, as a running app has: the race needs a loaded index to go stale.
        _ = try await kb.search(SearchQuery("tea", mode: .semantic))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<Self.pairs {
                let (a, b) = Self.pair(i)
                group.addTask { try await kb.addFact(Self.fact(a)) }
                group.addTask { try await kb.addFact(Self.fact(b)) }
            }
            try await group.waitForAll()
        }
        #expect(try await kb.stats().facts == Self.pairs)
    }

    @Test func concurrentPairsFromTwoInstancesMerge() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let first = try KnowledgeBase(path: path, embedder: Self.embedder())
        let second = try KnowledgeBase(path: path, embedder: Self.embedder())
        _ = try await first.search(SearchQuery("tea", mode: .semantic))
        _ = try await second.search(SearchQuery("tea", mode: .semantic))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<Self.pairs {
                let (a, b) = Self.pair(i)
                group.addTask { try await first.addFact(Self.fact(a)) }
                group.addTask { try await second.addFact(Self.fact(b)) }
            }
            try await group.waitForAll()
        }
        #expect(try await first.stats().facts == Self.pairs)
        let merged = try await first.facts(matching: FactFilter(), limit: 100).filter { $0.mentionCount == 2 }
        #expect(merged.count == Self.pairs)
    }
}
