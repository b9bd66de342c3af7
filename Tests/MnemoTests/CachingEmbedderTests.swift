import Foundation
import Testing

@testable import Mnemo

/// An embedder that counts the texts it encodes.
private final class CountingEmbedder: Embedder, @unchecked Sendable {
    let base = HashingEmbedder()
    private let lock = NSLock()
    private var encoded: [String] = []

    var identity: EmbeddingModelIdentity { base.identity }
    var texts: [String] { lock.withLock { encoded } }

    func embed(_ texts: [String]) async throws -> [[Float]] {
        lock.withLock { encoded += texts }
        return try await base.embed(texts)
    }
}

@Suite struct CachingEmbedderTests {
    @Test func aRepeatedQueryIsNotEncodedAgain() async throws {
        let counting = CountingEmbedder()
        let cache = CachingEmbedder(counting, capacity: 8)
        let first = try await cache.embed(["where do I live?"])
        let second = try await cache.embed(["where do I live?"])
        #expect(first == second)
        #expect(counting.texts == ["where do I live?"])
        #expect(cache.statistics.hits == 1 && cache.statistics.misses == 1)
        #expect(cache.identity == counting.identity)
    }

    @Test func batchesPassThroughUncached() async throws {
        let counting = CountingEmbedder()
        let cache = CachingEmbedder(counting, capacity: 8)
        _ = try await cache.embed(["a", "b"])
        _ = try await cache.embed(["a", "b"])
        _ = try await cache.embed(["a"])
        #expect(counting.texts == ["a", "b", "a", "b", "a"])
    }

    @Test func theLeastRecentlyUsedQueryIsEvicted() async throws {
        let counting = CountingEmbedder()
        let cache = CachingEmbedder(counting, capacity: 2)
        for text in ["a", "b", "a", "c", "a", "b"] { _ = try await cache.embed([text]) }
        // "b" was evicted by "c" (a was used more recently), so it is encoded again.
        #expect(counting.texts == ["a", "b", "c", "b"])
    }

    @Test func capacityZeroCachesNothing() async throws {
        let counting = CountingEmbedder()
        let cache = CachingEmbedder(counting, capacity: 0)
        for _ in 0..<3 { _ = try await cache.embed(["q"]) }
        #expect(counting.texts.count == 3)
    }

    @Test func leastRecentlyUsedKeepsCapacityAndOrder() {
        var lru = LeastRecentlyUsed<Int, Int>(capacity: 3)
        for key in 0..<10 { lru.insert(key * 10, for: key) }
        #expect(lru.count == 3)
        #expect(lru.value(for: 6) == nil)
        #expect(lru.value(for: 7) == 70)
        lru.insert(100, for: 10) // evicts 8: 7 was just used
        #expect(lru.value(for: 8) == nil)
        #expect(lru.value(for: 9) == 90)
        #expect(lru.value(for: 7) == 70)
        lru.insert(700, for: 7)
        #expect(lru.value(for: 7) == 700)
        #expect(lru.count == 3)
    }

    @Test func searchesThroughTheCacheEncodeEachQueryOnce() async throws {
        let counting = CountingEmbedder()
        let kb = try KnowledgeBase.inMemory(embedder: CachingEmbedder(counting, capacity: 16))
        try await kb.addFacts([
            NewFact(content: "Lives in Porto", topicPath: "Home"), NewFact(content: "Likes tea", topicPath: "Food"),
        ])
        let before = counting.texts.count
        for _ in 0..<5 { _ = try await kb.search(SearchQuery("where do I live", mode: .semantic)) }
        #expect(counting.texts.count == before + 1)
    }
}
