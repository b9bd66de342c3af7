import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The near-duplicate check reads the vector index inside the transaction whose write it
/// decides, so concurrent adds merge exactly as sequential ones.
@Suite("Concurrent near-duplicate merging")
struct ConcurrentMergeTests {
    @Test func sequentialPairsAllMerge() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: ConcurrentPairs.embedder())
        for i in 0..<ConcurrentPairs.count {
            let (a, b) = ConcurrentPairs.pair(i)
            try await kb.addFact(ConcurrentPairs.fact(a))
            try await kb.addFact(ConcurrentPairs.fact(b))
        }
        #expect(try await kb.stats().facts == ConcurrentPairs.count)
    }

    @Test func concurrentPairsMergeAsSequentialOnesDo() async throws {
        let kb = try KnowledgeBase(path: TestKnowledgeBase.temporaryPath(), embedder: ConcurrentPairs.embedder())
        // Load the index first, as a running app has: the race needs a loaded index to go stale.
        _ = try await kb.search(SearchQuery("tea", mode: .semantic))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<ConcurrentPairs.count {
                let (a, b) = ConcurrentPairs.pair(i)
                group.addTask { try await kb.addFact(ConcurrentPairs.fact(a)) }
                group.addTask { try await kb.addFact(ConcurrentPairs.fact(b)) }
            }
            try await group.waitForAll()
        }
        #expect(try await kb.stats().facts == ConcurrentPairs.count)
    }

    @Test func concurrentPairsFromTwoInstancesMerge() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let first = try KnowledgeBase(path: path, embedder: ConcurrentPairs.embedder())
        let second = try KnowledgeBase(path: path, embedder: ConcurrentPairs.embedder())
        _ = try await first.search(SearchQuery("tea", mode: .semantic))
        _ = try await second.search(SearchQuery("tea", mode: .semantic))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<ConcurrentPairs.count {
                let (a, b) = ConcurrentPairs.pair(i)
                group.addTask { try await first.addFact(ConcurrentPairs.fact(a)) }
                group.addTask { try await second.addFact(ConcurrentPairs.fact(b)) }
            }
            try await group.waitForAll()
        }
        #expect(try await first.stats().facts == ConcurrentPairs.count)
        let merged = try await first.facts(matching: FactFilter(), limit: 100).filter { $0.mentionCount == 2 }
        #expect(merged.count == ConcurrentPairs.count)
    }
}
