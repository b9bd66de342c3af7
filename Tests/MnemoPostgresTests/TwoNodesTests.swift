import Foundation
import Mnemo
import MnemoPostgres
import MnemoTestSupport
import Testing

/// Two `PostgresMemory` instances on one database stand for two servers.
@Suite("Two nodes, one memory", .enabled(if: TestStore.isAvailable, TestStore.skipNote))
struct TwoNodesTests {
    static let embedder = SeededEmbedder(dimension: 32)

    static func fact(_ content: String, topic: TopicPath = "Travel") -> NewFact {
        NewFact(content: content, topicPath: topic, type: .preference)
    }

    @Test func aWriteOnOneNodeIsSeenByTheNextRequestToTheOther() async throws {
        let (a, b) = (
            try await TestStore.node(embedder: Self.embedder), try await TestStore.node(embedder: Self.embedder)
        )
        let namespace = TestStore.namespace()
        // B holds the namespace (and its vector index) before A writes.
        #expect(try await b.knowledgeBase(namespace: namespace).search("window").isEmpty)
        try await a.knowledgeBase(namespace: namespace).addFact(Self.fact("Prefers window seats on long flights"))
        let onB = try await b.knowledgeBase(namespace: namespace)
        for mode in [SearchMode.text, .semantic, .hybrid] {
            let hits = try await onB.search(SearchQuery("Prefers window seats on long flights", mode: mode))
            #expect(hits.first?.fact.content == "Prefers window seats on long flights", "mode \(mode)")
        }
        await a.close()
        await b.close()
    }

    @Test func concurrentNearDuplicatesFromTwoNodesMerge() async throws {
        let embedder = ConcurrentPairs.embedder()
        let (a, b) = (try await TestStore.node(embedder: embedder), try await TestStore.node(embedder: embedder))
        let namespace = TestStore.namespace()
        let (first, second) = (
            try await a.knowledgeBase(namespace: namespace), try await b.knowledgeBase(namespace: namespace)
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<ConcurrentPairs.count {
                let (x, y) = ConcurrentPairs.pair(i)
                group.addTask { try await first.addFact(ConcurrentPairs.fact(x)) }
                group.addTask { try await second.addFact(ConcurrentPairs.fact(y)) }
            }
            try await group.waitForAll()
        }
        for node in [a, b] {
            let kb = try await node.knowledgeBase(namespace: namespace)
            #expect(try await kb.stats().facts == ConcurrentPairs.count)
            let merged = try await kb.facts(limit: 100).filter { $0.mentionCount == 2 }
            #expect(merged.count == ConcurrentPairs.count)
        }
        await a.close()
        await b.close()
    }

    @Test func undoOnTheOtherNode() async throws {
        let (a, b) = (
            try await TestStore.node(embedder: Self.embedder), try await TestStore.node(embedder: Self.embedder)
        )
        let namespace = TestStore.namespace()
        try await a.knowledgeBase(namespace: namespace).addFact(Self.fact("Lives in Lisbon", topic: "Home"))
        let outcome = try await a.knowledgeBase(namespace: namespace).addFact(Self.fact("Learns Rust", topic: "Goals"))
        try await b.knowledgeBase(namespace: namespace).deleteFact(id: outcome.fact.id)
        #expect(try await a.knowledgeBase(namespace: namespace).facts().map(\.content) == ["Lives in Lisbon"])
        let undone = try await a.knowledgeBase(namespace: namespace).undo()
        #expect(undone.kind == .undo)
        let onB = try await b.knowledgeBase(namespace: namespace)
        #expect(Set(try await onB.facts().map(\.content)) == ["Lives in Lisbon", "Learns Rust"])
        let history = try await onB.history(ofFact: outcome.fact.id)
        #expect(!history.isEmpty)
        #expect(try await a.knowledgeBase(namespace: namespace).history(ofFact: outcome.fact.id) == history)
        await a.close()
        await b.close()
    }

    @Test func erasedTextLeavesNoTraceInTheStore() async throws {
        let node = try await TestStore.node(embedder: Self.embedder)
        let namespace = TestStore.namespace()
        let kb = try await node.knowledgeBase(namespace: namespace)
        let secret = "Diagnosed with condition \(UUID().uuidString)"
        let outcome = try await kb.addFact(Self.fact(secret, topic: "Health"))
        try await kb.addFact(Self.fact("Walks the dog daily", topic: "Health"))
        try await kb.eraseFacts(ids: [outcome.fact.id])
        let traces = try await TestStore.withConnection { connection in
            var count = 0
            let rows = try await connection.query(
                """
                SELECT (SELECT count(*) FROM mnemo_row WHERE position(\(secret) in row_values) > 0)
                     + (SELECT count(*) FROM mnemo_change WHERE position(\(secret) in row_values) > 0)
                """, logger: TestStore.logger)
            for try await value in rows.decode(Int.self) { count = value }
            return count
        }
        #expect(traces == 0)
        // Another node still loads the namespace (from its rows: the log before the erasure is gone).
        let other = try await TestStore.node(embedder: Self.embedder)
        #expect(try await other.knowledgeBase(namespace: namespace).facts().map(\.content) == ["Walks the dog daily"])
        await node.close()
        await other.close()
    }

    @Test func theVectorCacheKeepsTheMostRecentlyUsedNamespaces() async throws {
        var options = TestStore.options
        options.vectorCacheBytes = 32 * 4 * 12 // twelve 32-dimensional vectors
        let node = try await TestStore.node(embedder: Self.embedder, options: options)
        let namespaces = (0..<3).map { _ in TestStore.namespace("cache") }
        for namespace in namespaces {
            let kb = try await node.knowledgeBase(namespace: namespace)
            for i in 0..<8 { try await kb.addFact(Self.fact("Trip number \(i) to \(namespace)")) }
        }
        _ = try await node.knowledgeBase(namespace: namespaces[2])
        let health = await node.health()
        #expect(health.namespacesHeld == 1)
        #expect(health.vectorBytes == 8 * 32 * 4)
        // An evicted namespace comes back on its next request, whole.
        #expect(try await node.knowledgeBase(namespace: namespaces[0]).stats().facts == 8)
        await node.close()
    }

    @Test func aCopyFarBehindTheLogLoadsAfresh() async throws {
        let (a, b) = (
            try await TestStore.node(embedder: Self.embedder), try await TestStore.node(embedder: Self.embedder)
        )
        let namespace = TestStore.namespace()
        _ = try await b.knowledgeBase(namespace: namespace)
        let writer = try await a.knowledgeBase(namespace: namespace)
        // More versions than the log keeps (it keeps 1,000, trimmed every 100).
        for i in 0..<1_101 { try await writer.addFact(Self.fact("Visited city number \(i)")) }
        let onB = try await b.knowledgeBase(namespace: namespace)
        #expect(try await onB.stats().facts == 1_101)
        #expect(
            try await onB.search(SearchQuery("city number 1100", mode: .text)).first?.fact.content
                == "Visited city number 1100")
        await a.close()
        await b.close()
    }
}
