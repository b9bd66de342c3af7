import Foundation
import MnemoEvaluation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Tombstone compaction of the graph index: past ``ApproximateIndex/Settings/compactionShare``
/// tombstones the graph is rebuilt in the background from the vectors, searches go on against
/// the old one meanwhile, the commits made during the build reach the new one, and a saved graph
/// with that many tombstones (saved without codes: dead ends) is rebuilt rather than used.
@Suite("Graph compaction")
struct GraphCompactionTests {
    static let corpus = ApproximateIndexTests.corpus

    /// The corpus's knowledge base with its graph built, compacting at a fifth of tombstones.
    static func knowledgeBase() async throws -> (kb: KnowledgeBase, ids: [Int64], path: String) {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try KnowledgeBase(path: path, embedder: corpus.embedder())
        kb.vectorIndex!.approximate.settings.minimumRows = 1_000
        kb.vectorIndex!.approximate.settings.exactScanMaximum = 0
        kb.vectorIndex!.approximate.settings.compactionShare = 0.2
        let ids = try await kb.addFacts(corpus.facts, nearDuplicates: nil).map(\.id)
        try await kb.buildVectorGraph()
        return (kb, ids, path)
    }

    /// Deletes every third fact of `ids` from the first on, `count` of them; returns their ids.
    static func deleteEveryThird(_ ids: [Int64], count: Int, in kb: KnowledgeBase) async throws -> Set<Int64> {
        let doomed = stride(from: 0, to: ids.count, by: 3).prefix(count).map { ids[$0] }
        for id in doomed { try await kb.deleteFact(id: id) }
        return Set(doomed)
    }

    /// Over `queries` queries: as many results as the exact scan, none of `absent`, recall@10 ≥ `recall`.
    static func expectSearches(
        _ kb: KnowledgeBase, queries: Int = 40, absent: Set<Int64> = [], recall: Double = 0.95
    ) async throws {
        var total = 0.0
        for query in corpus.queries.prefix(queries) {
            let exact = try await ApproximateIndexTests.ids(kb, query.text, .exact)
            let approximate = try await ApproximateIndexTests.ids(kb, query.text, .approximate)
            #expect(approximate.count == exact.count)
            #expect(absent.isDisjoint(with: approximate))
            total += ApproximateIndexTests.recall(approximate, exact)
        }
        #expect(total / Double(queries) >= recall, "recall@10 \(total / Double(queries))")
    }

    /// Waits (at most a minute) until `kb`'s graph was compacted `count` times.
    static func waitForCompactions(_ count: Int, of kb: KnowledgeBase) async throws {
        let deadline = Date().addingTimeInterval(60)
        while kb.vectorIndex!.approximate.statistics.compactions < count && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aGraphPastTheShareOfTombstonesIsRebuiltAndKeepsItsRecall() async throws {
        let (kb, ids, path) = try await Self.knowledgeBase()
        let deleted = try await Self.deleteEveryThird(ids, count: 900, in: kb)
        // The first search after the deletes walks the old graph and starts the rebuild.
        try await Self.expectSearches(kb, queries: 1, absent: deleted, recall: 0)
        try await Self.waitForCompactions(1, of: kb)
        let statistics = kb.vectorIndex!.approximate.statistics
        #expect(statistics.compactions == 1 && statistics.builds == 2, "\(statistics)")
        let (nodes, live) = kb.vectorIndex!.approximate.withGraph(kb.namespace) { ($0.count, $0.liveCount) }!
        #expect(nodes == 2_100 && live == 2_100)
        try await Self.expectSearches(kb, absent: deleted)
        #expect(kb.vectorIndex!.approximate.pathCounts[.graphThenScan] == nil)

        // The rebuilt graph was saved: another process opens it without tombstones.
        #expect(statistics.saves == 2, "\(statistics)")
        let reopened = try KnowledgeBase(path: path, embedder: Self.corpus.embedder())
        reopened.vectorIndex!.approximate.settings.minimumRows = 1_000
        try await reopened.buildVectorGraph()
        #expect(reopened.vectorGraphOrigins == (builds: 0, loads: 1))
    }

    /// Claims the rebuild by hand, so that searches and writes happen between its snapshot and
    /// its installation, as they do while a background rebuild runs.
    @Test func searchesDuringARebuildAreAnsweredAndItsWritesReachTheNewGraph() async throws {
        let (kb, ids, path) = try await Self.knowledgeBase()
        kb.vectorIndex!.approximate.settings.compactionShare = 1
        let deleted = try await Self.deleteEveryThird(ids, count: 900, in: kb)
        try await Self.expectSearches(kb, queries: 1, absent: deleted, recall: 0)
        #expect(kb.vectorIndex!.claimGraphBuild(of: kb.namespace)?.sequence == nil, "no rebuild below the share")
        kb.vectorIndex!.approximate.settings.compactionShare = 0.2
        let (store, sequence) = try #require(kb.vectorIndex!.claimGraphBuild(of: kb.namespace))
        #expect(kb.vectorIndex!.claimGraphBuild(of: kb.namespace)?.sequence == nil, "one rebuild at a time")

        // During the rebuild: the old graph answers, and takes in these writes.
        try await Self.expectSearches(kb, absent: deleted)
        let text = Self.corpus.queries[0].text
        let best = try await ApproximateIndexTests.ids(kb, text, .approximate)
        try await kb.deleteFact(id: best[0])
        _ = try await kb.updateFact(id: best[3], FactUpdate(content: text))
        let otherText = Self.corpus.queries[1].text
        let added = try await kb.addFacts(
            [NewFact(content: otherText, topicPath: Self.corpus.facts[0].topicPath)], nearDuplicates: nil)[0].fact.id
        func expectTheWrites() async throws {
            let hits = try await ApproximateIndexTests.ids(kb, text, .approximate)
            #expect(hits.first == best[3] && !hits.contains(best[0]), "\(hits)")
            #expect(try await ApproximateIndexTests.ids(kb, otherText, .approximate).first == added)
        }
        try await expectTheWrites()

        kb.vectorIndex!.approximate.build(namespace: kb.namespace, from: store, sequence: sequence)
        #expect(kb.vectorIndex!.approximate.statistics.compactions == 1)
        let (nodes, live) = kb.vectorIndex!.approximate.withGraph(kb.namespace) { ($0.count, $0.liveCount) }!
        // Built from the snapshot (2,100 facts), then the three writes: a tombstone each for the
        // delete and the new vector, a node each for the new vector and the new fact.
        #expect(nodes == 2_102 && live == 2_100)
        try await expectTheWrites()
        try await Self.expectSearches(kb, absent: deleted.union([best[0]]))
    }

    /// Tombstones are saved without codes: a saved graph holding the share of them is rebuilt.
    @Test func aSavedGraphWithTooManyTombstonesIsRebuilt() async throws {
        let (kb, ids, path) = try await Self.knowledgeBase()
        kb.vectorIndex!.approximate.settings.compactionShare = 1
        kb.vectorIndex!.approximate.settings.saveInterval = 100
        _ = try await Self.deleteEveryThird(ids, count: 750, in: kb)
        try await Self.expectSearches(kb, queries: 1, recall: 0)
        // Saved after the catch-up on a background thread.
        let deadline = Date().addingTimeInterval(60)
        while kb.vectorIndex!.approximate.statistics.saves < 2 && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(kb.vectorIndex!.approximate.statistics.saves == 2)

        let reopened = try KnowledgeBase(path: path, embedder: Self.corpus.embedder())
        reopened.vectorIndex!.approximate.settings.minimumRows = 1_000
        reopened.vectorIndex!.approximate.settings.exactScanMaximum = 0
        reopened.vectorIndex!.approximate.settings.compactionShare = 0.2
        try await reopened.buildVectorGraph()
        let statistics = reopened.vectorIndex!.approximate.statistics
        #expect(statistics.rejected == ["750 of 3000 nodes are tombstones"], "\(statistics)")
        #expect(statistics.builds == 1 && statistics.loads == 0, "\(statistics)")
        try await Self.expectSearches(reopened)
    }
}
