import Foundation
import Mnemo
import MnemoPostgres
import MnemoTestSupport
import Testing

/// The change feed of a PostgreSQL store: a write on one node reaches a follower on another, and
/// the events any node serves rebuild the memory.
@Suite("Change feed across nodes", .enabled(if: TestStore.isAvailable, TestStore.skipNote))
struct ChangeFeedNodesTests {
    static let embedder = SeededEmbedder(dimension: 32)

    @Test func aWriteOnOneNodeReachesAFollowerOnTheOther() async throws {
        let (a, b) = (
            try await TestStore.node(embedder: Self.embedder), try await TestStore.node(embedder: Self.embedder)
        )
        let namespace = TestStore.namespace()
        let onB = try await b.knowledgeBase(namespace: namespace)
        let stream = onB.changeStream()
        let first = Task {
            for try await page in stream { return page.events.compactMap(\.fact?.content) }
            return []
        }
        try await Task.sleep(for: .milliseconds(300))
        try await a.knowledgeBase(namespace: namespace).addFact(
            NewFact(content: "Prefers aisle seats", topicPath: "Travel"))
        let arrived = try await first.value(cancellingAfter: .seconds(30))
        #expect(arrived == ["Prefers aisle seats"])
        await a.close()
        await b.close()
    }

    @Test func eventsFromEitherNodeRebuildTheMemory() async throws {
        let (a, b) = (
            try await TestStore.node(embedder: Self.embedder), try await TestStore.node(embedder: Self.embedder)
        )
        let namespace = TestStore.namespace()
        var ids: [Int64] = []
        for step in 0..<40 {
            let kb = try await (step.isMultiple(of: 2) ? a : b).knowledgeBase(namespace: namespace)
            switch step % 5 {
            case 0, 1: ids.append(try await kb.addFact(NewFact(content: "Node fact \(step)", topicPath: "N")).id)
            case 2: _ = try await kb.updateFact(id: ids[step % ids.count], FactUpdate(importance: .high))
            case 3: try await kb.deleteFact(id: ids.removeFirst())
            default: _ = try await kb.eraseFacts(ids: [ids.removeLast()])
            }
        }
        for node in [a, b] {
            let kb = try await node.knowledgeBase(namespace: namespace)
            var facts: [Int64: Fact] = [:]
            var cursor: ChangeCursor? = nil
            while true {
                let page = try await kb.changes(after: cursor, limit: 10)
                for event in page.events { if let id = event.factID { facts[id] = event.fact } }
                cursor = page.next
                if !page.hasMore { break }
            }
            let snapshot = try await kb.snapshot()
            #expect(facts == Dictionary(uniqueKeysWithValues: snapshot.facts.map { ($0.id, $0) }))
            #expect(facts.count == ids.count)
        }
        // Both nodes number the events alike: a cursor from one is good on the other.
        let cursorOnA = try await a.knowledgeBase(namespace: namespace).currentCursor()
        #expect(try await b.knowledgeBase(namespace: namespace).currentCursor() == cursorOnA)
        await a.close()
        await b.close()
    }
}
