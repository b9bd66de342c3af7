import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// A graph read from its saved file keeps its columns in the file, mapped, until it changes or
/// a background copy moves it out: it answers as the graph that was saved, and no change is
/// written to the file.
@Suite("Mapped graph")
struct MappedGraphTests {
    static let store = ParallelGraphBuildTests.store
    static let queries = ParallelGraphBuildTests.corpus.queries.prefix(10).map(\.vector)
    static let identity = GraphFile.Identity(
        model: "", dimension: store.dimension, namespace: "", parameters: .init())

    /// A graph of the first 3,000 rows saved to a new file, the file, and the graph read from it.
    static func savedAndRead() throws -> (saved: NeighborGraph, url: URL, read: NeighborGraph) {
        let saved = ParallelGraphBuildTests.built(threads: 1, rows: Array(0..<3_000))
        let url = URL(fileURLWithPath: try TestKnowledgeBase.temporaryPath() + ".hnsw")
        try GraphFile.install(try GraphFile.writeTemporary(saved, identity: identity, beside: url), at: url)
        return (saved, url, try GraphFile.read(from: url, identity: identity))
    }

    static func walks(of graph: NeighborGraph) -> [[Int64]] {
        queries.map { graph.nearestIDs(to: $0, width: 32, passingShare: 1) { _ in true }.ids }
    }

    @Test func aReadGraphLeavesItsColumnsInTheFileAndAnswersAsSaved() throws {
        let (saved, _, read) = try Self.savedAndRead()
        let file = try #require(read.savedFile)
        let bytes = file.bytes
        #expect(Int(bitPattern: bytes.baseAddress) % (2 << 20) == 0, "mapped on a huge page's boundary")
        for column in [UnsafeRawPointer(read.ids), UnsafeRawPointer(read.codes), UnsafeRawPointer(read.base)] {
            #expect(column >= bytes.baseAddress! && column < bytes.baseAddress! + bytes.count)
            #expect(Int(bitPattern: column) % GraphFile.columnAlignment == 0)
        }
        #expect(read.count == saved.count && read.liveCount == saved.liveCount && read.capacity == read.count)
        #expect(Self.walks(of: read) == Self.walks(of: saved))

        read.detachFromFile()
        #expect(read.savedFile == nil && read.capacity > read.count)
        #expect(Self.walks(of: read) == Self.walks(of: saved))
    }

    /// The file is mapped read-only: without the copy before a change, these writes would stop
    /// the process.
    @Test func changesCopyTheColumnsOutOfTheFileFirst() throws {
        let (_, url, read) = try Self.savedAndRead()
        let before = try Data(contentsOf: url)
        read.remove(id: 1)
        #expect(read.savedFile == nil && read.nodeOfID[1] == nil)

        let (_, _, again) = try Self.savedAndRead()
        again.upsert(
            id: 2, vector: Array(Self.store.vectors[0..<Self.store.dimension]),
            attributes: Self.store.attributes(ofRow: 0))
        let row = 3_000
        again.upsert(
            id: Self.store.ids[row],
            vector: Array(Self.store.vectors[row * Self.store.dimension..<(row + 1) * Self.store.dimension]),
            attributes: Self.store.attributes(ofRow: row))
        #expect(again.savedFile == nil && again.count == 3_002 && again.liveCount == 3_001)
        #expect(try Data(contentsOf: url) == before, "nothing was written to the file")
    }

    /// A knowledge base that reopens a saved graph searches it at once and moves it into its
    /// own memory in the background.
    @Test func aReopenedKnowledgeBaseMovesItsGraphOutOfTheFile() async throws {
        let (path, _) = try await SavedGraphTests.savedGraph(facts: 800)
        let reopened = try SavedGraphTests.open(path)
        try await reopened.buildVectorGraph()
        #expect(reopened.vectorIndex!.approximate.statistics.loads == 1)
        try await SavedGraphTests.expectGraphAnswers(reopened)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while reopened.vectorIndex!.approximate.withGraph(reopened.namespace, { $0.savedFile != nil })!,
            clock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(reopened.vectorIndex!.approximate.withGraph(reopened.namespace) { $0.savedFile == nil } == true)
        try await SavedGraphTests.expectGraphAnswers(reopened)
    }

    /// Searches and writes at once right after reopening, when the copy out of the file may still run:
    /// every search is answered by the graph, and every write is in it afterwards.
    @Test func searchesAndWritesDuringTheCopyOutOfTheFile() async throws {
        let (path, _) = try await SavedGraphTests.savedGraph(facts: 800)
        let reopened = try SavedGraphTests.open(path)
        try await reopened.buildVectorGraph()
        let facts = Array(SavedGraphTests.corpus.facts[800..<840])
        let queries = SavedGraphTests.corpus.queries.prefix(10).map(\.text)
        let added = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for batch in stride(from: 0, to: facts.count, by: 4) {
                group.addTask {
                    try await reopened.addFacts(Array(facts[batch..<batch + 4]), nearDuplicates: nil).map(\.id)
                }
            }
            for query in queries {
                group.addTask {
                    let found = try await ApproximateIndexTests.ids(reopened, query, .approximate)
                    #expect(found.count == 10)
                    return []
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(added.count == 40)
        let graph = reopened.vectorIndex!.approximate.withGraph(reopened.namespace) { $0 }!
        #expect(graph.savedFile == nil && graph.liveCount == 840)
        #expect(added.allSatisfy { graph.nodeOfID[$0] != nil })
        try await SavedGraphTests.expectGraphAnswers(reopened)
    }
}
