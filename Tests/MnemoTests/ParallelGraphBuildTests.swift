import Foundation
import MnemoEvaluation
import Testing

@testable import Mnemo

/// The graph index built on several threads (``NeighborGraph/insert(rows:of:threads:progress:)``):
/// on one thread it is the graph that inserting one fact at a time builds; on several it keeps
/// that graph's recall and structure, and takes writes afterwards like any other.
@Suite("Parallel graph build")
struct ParallelGraphBuildTests {
    static let corpus = SyntheticCorpus(.init(facts: 8_000, queries: 100, dimension: 64, seed: 39))

    /// The corpus's vectors as a snapshot, fact `i` with id `i + 1`, in namespace "".
    static let store: VectorSnapshot = {
        let corpus = ParallelGraphBuildTests.corpus
        var store = VectorSnapshot(dimension: corpus.configuration.dimension)
        for (index, fact) in corpus.facts.enumerated() {
            store.upsert(
                id: Int64(index + 1), vector: Array(corpus.vector(ofFact: index)),
                attributes: .init(
                    namespace: "", topicID: Int64(index % 7), type: fact.type, importance: fact.importance,
                    isActive: true, createdAt: fact.createdAt ?? Date(timeIntervalSince1970: 0)))
        }
        return store
    }()

    static func built(threads: Int, rows: [Int32]? = nil) -> NeighborGraph {
        let graph = NeighborGraph(dimension: store.dimension)
        graph.insert(rows: rows ?? store.namespaceRows(""), of: store, threads: threads) { _ in }
        return graph
    }

    /// Recall@10 of the graph's walks of width `width` (rescored in `Float`, as searches do)
    /// against the exact `Float` ranking of the snapshot's rows, over the corpus's queries.
    static func recall(of graph: NeighborGraph, width: Int) -> Double {
        let all = store.namespaceRows("").map { TopK.Entry(score: 0, row: Int($0)) }
        var total = 0.0
        for query in corpus.queries {
            let exact = Set(store.rescore(all, query: query.vector, k: 10, floor: -.infinity).map(\.id))
            let walked = graph.nearestIDs(to: query.vector, width: width, passingShare: 1) { _ in true }.ids
            let found = store.rescore(
                walked.map { TopK.Entry(score: 0, row: store.row(of: $0)!) }, query: query.vector, k: 10,
                floor: -.infinity)
            total += Double(Set(found.map(\.id)).intersection(exact).count) / 10
        }
        return total / Double(corpus.queries.count)
    }

    /// What a search relies on: every list within its capacity, of distinct nodes of the graph
    /// other than its owner, each on the list's layer; the entry point on the top layer; every
    /// live fact's node indexed. Returns the nodes a walk of layer 0 from the entry point cannot
    /// reach.
    static func expectSound(_ graph: NeighborGraph, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let nodes = graph.count
        var defects: [String] = []
        func check(_ list: UnsafeBufferPointer<Int32>, of node: Int32, layer: Int, capacity: Int) {
            if list.count > capacity { defects.append("node \(node) lists \(list.count) on layer \(layer)") }
            if Set(list).count != list.count { defects.append("node \(node) lists a node twice on layer \(layer)") }
            for neighbor in list {
                if neighbor == node { defects.append("node \(node) lists itself on layer \(layer)") }
                if !(0..<Int32(nodes)).contains(neighbor) {
                    defects.append("node \(node) lists node \(neighbor) on layer \(layer)")
                } else if graph.level(of: neighbor) < layer {
                    defects.append("node \(node) lists node \(neighbor), not on layer \(layer)")
                }
            }
        }
        var highest = 0
        for node in Int32(0)..<Int32(nodes) {
            let level = graph.level(of: node)
            highest = max(highest, level)
            for layer in 0...level {
                graph.withNeighbors(of: node, layer: layer) { list in
                    check(
                        list, of: node, layer: layer,
                        capacity: layer == 0 ? graph.baseDegree : graph.parameters.neighbors)
                }
            }
            if graph.isLive[Int(node)], graph.nodeOfID[graph.ids[Int(node)]] != node {
                defects.append("fact \(graph.ids[Int(node)]) is not indexed to node \(node)")
            }
        }
        if nodes > 0, graph.level(of: graph.entry) != graph.topLevel || graph.topLevel != highest {
            defects.append("entry point \(graph.entry) at level \(graph.topLevel), highest level \(highest)")
        }
        #expect(
            defects.isEmpty, "\(defects.prefix(5)) and \(max(0, defects.count - 5)) more",
            sourceLocation: sourceLocation)
        guard nodes > 0 else { return 0 }
        var reached = VisitedNodes(count: nodes)
        var frontier = [graph.entry]
        reached.insert(graph.entry)
        var reachable = 1
        while let node = frontier.popLast() {
            graph.withNeighbors(of: node, layer: 0) { list in
                for neighbor in list where reached.insert(neighbor) {
                    reachable += 1
                    frontier.append(neighbor)
                }
            }
        }
        return nodes - reachable
    }

    @Test func oneThreadBuildsTheGraphOfInsertionsOneAtATime() {
        let bulk = Self.built(threads: 1)
        let single = NeighborGraph(dimension: Self.store.dimension)
        for row in Self.store.namespaceRows("") { Self.store.insertRow(Int(row), into: single) }
        #expect(bulk.count == single.count && bulk.entry == single.entry && bulk.topLevel == single.topLevel)
        var differing = 0
        for node in Int32(0)..<Int32(bulk.count) {
            if bulk.ids[Int(node)] != single.ids[Int(node)] || bulk.level(of: node) != single.level(of: node) {
                differing += 1
                continue
            }
            for layer in 0...bulk.level(of: node) {
                let lists = (
                    bulk.withNeighbors(of: node, layer: layer) { Array($0) },
                    single.withNeighbors(of: node, layer: layer) { Array($0) }
                )
                if lists.0 != lists.1 { differing += 1 }
            }
        }
        #expect(differing == 0)
    }

    /// Four threads (more than the development machine's cores, so that they interleave at any
    /// point): lists that lost or mixed up links would break the structure or the recall.
    @Test func severalThreadsKeepTheRecallAndTheStructureOfOne() {
        let serial = Self.built(threads: 1)
        let serialUnreachable = Self.expectSound(serial)
        let serialRecall = Self.recall(of: serial, width: 24)
        for _ in 0..<2 {
            let parallel = Self.built(threads: 4)
            #expect(parallel.count == serial.count && parallel.liveCount == serial.count)
            let unreachable = Self.expectSound(parallel)
            #expect(unreachable <= serialUnreachable + 2, "\(unreachable) unreachable, \(serialUnreachable) serially")
            let recall = Self.recall(of: parallel, width: 24)
            #expect(abs(recall - serialRecall) <= 0.02, "recall@10 \(recall), \(serialRecall) serially")
            let degrees = (
                (0..<parallel.count).reduce(0) { $0 + Int(parallel.baseCounts[$1]) },
                (0..<serial.count).reduce(0) { $0 + Int(serial.baseCounts[$1]) }
            )
            #expect(Double(degrees.0) >= 0.98 * Double(degrees.1), "layer-0 links \(degrees.0), \(degrees.1) serially")
        }
        #expect(serialRecall >= 0.8, "recall@10 \(serialRecall)")
    }

    /// A graph built on several threads from part of the facts takes the rest one at a time, and
    /// tombstones, as a built graph takes commits.
    @Test func aParallelBuildTakesInsertsAndRemovalsAfterwards() {
        let rows = Self.store.namespaceRows("")
        let graph = Self.built(threads: 2, rows: Array(rows.prefix(6_000)))
        for row in rows.dropFirst(6_000) { Self.store.insertRow(Int(row), into: graph) }
        for id in stride(from: Int64(1), through: 1_000, by: 2) { graph.remove(id: id) }
        #expect(graph.count == rows.count && graph.liveCount == rows.count - 500)
        _ = Self.expectSound(graph)
        let query = Self.corpus.queries[0].vector
        let found = graph.nearestIDs(to: query, width: 96, passingShare: 1) { _ in true }.ids
        #expect(found.count == 96 && found.allSatisfy { $0 > 1_000 || $0 % 2 == 0 })
    }
}
