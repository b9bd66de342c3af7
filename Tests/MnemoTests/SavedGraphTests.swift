import Foundation
import MnemoEvaluation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The graph index saved beside the database: reopened without a rebuild, repaired when the
/// database moved on, rebuilt when the file cannot be trusted, and rid of erased facts.
@Suite("Saved graph index")
struct SavedGraphTests {
    static let corpus = ApproximateIndexTests.corpus

    /// Opens the knowledge base at `path` with the graph used from 500 facts on.
    static func open(_ path: String) throws -> KnowledgeBase {
        let kb = try KnowledgeBase(path: path, embedder: corpus.embedder())
        kb.vectorIndex!.approximate.settings.minimumRows = 500
        kb.vectorIndex!.approximate.settings.exactScanMaximum = 0
        return kb
    }

    /// A database holding the first `count` facts of the corpus, its graph built and saved.
    static func savedGraph(facts count: Int = 1_500) async throws -> (path: String, ids: [Int64]) {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try open(path)
        let ids = try await kb.addFacts(Array(corpus.facts.prefix(count)), nearDuplicates: nil).map(\.id)
        try await kb.buildVectorGraph()
        let statistics = kb.vectorIndex!.approximate.statistics
        #expect(statistics.builds == 1 && statistics.saves == 1, "\(statistics)")
        #expect(FileManager.default.fileExists(atPath: file(of: kb).path))
        return (path, ids)
    }

    static func file(of kb: KnowledgeBase) -> URL {
        kb.vectorIndex!.approximate.storage!.url(of: kb.namespace)
    }

    /// Every query's approximate top 10 has the exact one's length and recall ≥ 0.95 on
    /// average, and the graph answered each.
    static func expectGraphAnswers(_ kb: KnowledgeBase) async throws {
        let before = kb.vectorIndex!.approximate.pathCounts[.graph, default: 0]
        var total = 0.0
        for query in corpus.queries.prefix(20) {
            let exact = try await ApproximateIndexTests.ids(kb, query.text, .exact)
            let approximate = try await ApproximateIndexTests.ids(kb, query.text, .approximate)
            #expect(approximate.count == exact.count)
            total += ApproximateIndexTests.recall(approximate, exact)
        }
        #expect(total / 20 >= 0.95, "recall@10 \(total / 20)")
        #expect(kb.vectorIndex!.approximate.pathCounts[.graph, default: 0] - before == 20)
    }

    @Test func aSavedGraphIsReopenedWithoutARebuild() async throws {
        let (path, _) = try await Self.savedGraph()
        let reopened = try Self.open(path)
        try await reopened.buildVectorGraph()
        let statistics = reopened.vectorIndex!.approximate.statistics
        #expect(statistics == .init(builds: 0, loads: 1, repairs: 0, rejected: [], saves: 0), "\(statistics)")
        try await Self.expectGraphAnswers(reopened)
    }

    /// Writes after the save (another process's, here) are repaired on reopening, not rebuilt,
    /// and every one of them is in the results.
    @Test func aStaleGraphIsRepaired() async throws {
        let (path, ids) = try await Self.savedGraph()
        let writer = try Self.open(path)
        let added = try await writer.addFacts(Array(Self.corpus.facts[1_500..<1_540]), nearDuplicates: nil).map(\.id)
        for id in ids.prefix(10) { try await writer.deleteFact(id: id) }
        let text = Self.corpus.queries[0].text
        try await writer.updateFact(id: ids[20], FactUpdate(content: text))
        _ = try await writer.deactivateFact(id: ids[21])

        let reopened = try Self.open(path)
        try await reopened.buildVectorGraph()
        let statistics = reopened.vectorIndex!.approximate.statistics
        #expect(statistics.builds == 0 && statistics.loads == 1 && statistics.rejected.isEmpty, "\(statistics)")
        #expect(statistics.repairs == 40 + 10 + 2, "\(statistics)")
        #expect(statistics.saves == 1, "a repaired graph is saved again")
        let hits = try await ApproximateIndexTests.ids(reopened, text, .approximate, limit: 50)
        #expect(hits.first == ids[20])
        #expect(Set(hits).isDisjoint(with: ids.prefix(10) + [ids[21]]))
        try await Self.expectGraphAnswers(reopened)
        let graph = reopened.vectorIndex!.approximate.withGraph(reopened.namespace) { $0 }!
        #expect(graph.liveCount == 1_500 + 40 - 10 - 0)
        #expect(added.allSatisfy { graph.nodeOfID[$0] != nil })
    }

    /// A database that moved on by more than a quarter of its facts gets a new graph.
    @Test func aVeryStaleGraphIsRebuilt() async throws {
        let (path, ids) = try await Self.savedGraph(facts: 800)
        let writer = try Self.open(path)
        for id in ids.prefix(250) { try await writer.deleteFact(id: id) }
        let reopened = try Self.open(path)
        try await reopened.buildVectorGraph()
        let statistics = reopened.vectorIndex!.approximate.statistics
        #expect(statistics.builds == 1 && statistics.loads == 0, "\(statistics)")
        #expect(statistics.rejected == ["stale: 250 of 550 facts differ"])
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case flippedByte, truncated, newerVersion, notAGraph, emptied
        var testDescription: String { rawValue }

        func apply(to url: URL) throws {
            var bytes = try Data(contentsOf: url)
            switch self {
            case .flippedByte: bytes[bytes.count / 2] ^= 0x40
            case .truncated: bytes.removeLast(bytes.count / 3)
            case .newerVersion: bytes[8] = 3
            case .notAGraph: bytes.replaceSubrange(0..<8, with: Array("SQLite f".utf8))
            case .emptied: bytes = Data()
            }
            try bytes.write(to: url)
        }

        var reason: String {
            switch self {
            case .flippedByte: "checksum mismatch"
            case .truncated: "checksum mismatch"
            case .newerVersion: "format version 3, this build reads 2"
            case .notAGraph: "not a graph file"
            case .emptied: "truncated"
            }
        }
    }

    /// A damaged file is never trusted: the graph is rebuilt, answers, and is saved again whole.
    @Test(arguments: Damage.allCases)
    func aDamagedGraphIsRebuilt(_ damage: Damage) async throws {
        let (path, _) = try await Self.savedGraph(facts: 800)
        let url = Self.file(of: try Self.open(path))
        try damage.apply(to: url)
        let reopened = try Self.open(path)
        try await reopened.buildVectorGraph()
        let statistics = reopened.vectorIndex!.approximate.statistics
        #expect(statistics.builds == 1 && statistics.loads == 0 && statistics.saves == 1, "\(statistics)")
        #expect(statistics.rejected == [damage.reason])
        let again = try Self.open(path)
        try await again.buildVectorGraph()
        #expect(again.vectorIndex!.approximate.statistics.loads == 1)
    }

    /// A file whose checksum is right but whose structure would send a search out of the graph
    /// (a neighbour that is no node) is rejected, not followed.
    @Test func aWellSummedButMalformedGraphIsRejected() async throws {
        let (path, _) = try await Self.savedGraph(facts: 800)
        let kb = try Self.open(path)
        try await kb.buildVectorGraph()
        let graph = kb.vectorIndex!.approximate.withGraph(kb.namespace) { $0 }!
        graph.detachFromFile()
        graph.base[0] = Int32(graph.count + 5)
        let identity = GraphFile.Identity(
            model: Self.corpus.embedder().identity.name, dimension: 64, namespace: kb.namespace,
            parameters: .init())
        let url = Self.file(of: kb)
        try GraphFile.install(try GraphFile.writeTemporary(graph, identity: identity, beside: url), at: url)
        #expect(throws: GraphFile.Defect.malformed("node 0 lists node \(graph.count + 5)")) {
            try GraphFile.read(from: url, identity: identity)
        }
        var otherNamespace = identity
        otherNamespace.namespace = "bob"
        #expect(throws: GraphFile.Defect.mismatch("namespace")) {
            try GraphFile.read(from: url, identity: otherNamespace)
        }
    }

    /// An erasure in a namespace that never had a graph leaves no directory beside the database.
    @Test func erasingWhereNoGraphWasSavedCreatesNothing() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try Self.open(path)
        let ids = try await kb.addFacts(Array(Self.corpus.facts.prefix(20)), nearDuplicates: nil).map(\.id)
        _ = try await kb.eraseFacts(ids: [ids[0]])
        let directory = ApproximateIndex.Storage.directory(besideDatabaseAt: path)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    /// The bytes of fact `id`'s int8 codes in the graph of `kb`.
    static func codes(of id: Int64, in kb: KnowledgeBase) -> Data {
        kb.vectorIndex!.approximate.withGraph(kb.namespace) { graph in
            let node = Int(graph.nodeOfID[id]!)
            return Data(bytes: graph.codes + node * graph.dimension, count: graph.dimension)
        }!
    }

    /// An erased fact's codes are not in the saved graph: it is rewritten by the process that
    /// holds the graph, and removed by one that does not.
    @Test(arguments: [true, false])
    func erasureLeavesNoCodesInTheSavedGraph(erasedWhereTheGraphIs: Bool) async throws {
        let (path, ids) = try await Self.savedGraph(facts: 800)
        let kb = try Self.open(path)
        try await kb.buildVectorGraph()
        let erased = Array(ids[100..<103])
        let codes = erased.map { Self.codes(of: $0, in: kb) }
        let url = Self.file(of: kb)
        let before = try Data(contentsOf: url)
        #expect(codes.allSatisfy { before.range(of: $0) != nil }, "the scan must see the codes before the erase")

        let eraser = erasedWhereTheGraphIs ? kb : try Self.open(path)
        _ = try await eraser.eraseFacts(ids: erased)
        if erasedWhereTheGraphIs {
            let after = try Data(contentsOf: url)
            #expect(codes.allSatisfy { after.range(of: $0) == nil })
            #expect(after.count == before.count, "rewritten with the erased nodes as blank tombstones")
            let reopened = try Self.open(path)
            try await reopened.buildVectorGraph()
            #expect(reopened.vectorIndex!.approximate.statistics.loads == 1)
            try await Self.expectGraphAnswers(reopened)
        } else {
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }
}
