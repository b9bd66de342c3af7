import Foundation
import MnemoEvaluation
import Testing

@testable import Mnemo

/// The walk of the graph index's layer 0 (``NeighborGraph/searchFiltered(_:width:budget:expandThroughFailing:accepts:)``):
/// the visited sets it reuses, the best it hands to rescoring, and the same walk on every kernel path.
@Suite("Graph walk")
struct GraphWalkTests {
    static let graph: NeighborGraph = ParallelGraphBuildTests.built(threads: 1)
    static let queries = ParallelGraphBuildTests.corpus.queries.prefix(20).map(\.vector)

    @Test func visitedSetsAreReusedClearedAndGrowWithTheGraph() {
        let pool = VisitedPool()
        let first = pool.take(count: 1_000)
        #expect(first.insert(5) && first.insert(999) && !first.insert(5))
        pool.give(first)
        let again = pool.take(count: 1_000)
        #expect(again === first, "the set given back is taken again")
        #expect(!again.contains(5) && !again.contains(999), "and nothing is marked in it")
        pool.give(again)
        // A graph that grew past the set's room gets a new set.
        let larger = pool.take(count: again.capacity + 1)
        #expect(larger !== first && larger.capacity >= again.capacity + 1)
    }

    @Test func searchesOfAGraphLeaveNoNodeMarked() {
        let graph = Self.graph
        for query in Self.queries.prefix(3) {
            _ = graph.nearestIDs(to: query, width: 64, passingShare: 1) { _ in true }
        }
        let set = graph.visitedSets.take(count: graph.count)
        defer { graph.visitedSets.give(set) }
        #expect((0..<Int32(graph.count)).allSatisfy { !set.contains($0) })
    }

    @Test func aLimitedWalkReturnsTheBestOfTheWholeBeam() {
        for query in Self.queries {
            let whole = Self.graph.nearestIDs(to: query, width: 96, passingShare: 1) { _ in true }
            let best = Self.graph.nearestIDs(to: query, width: 96, limit: 20, passingShare: 1) { _ in true }
            #expect(whole.ids.count == 96 && whole.found == 96)
            #expect(best.ids == Array(whole.ids.prefix(20)) && best.found == 96 && best.visits == whole.visits)
        }
    }

    /// Under a filter most nodes fail, a step of the walk looks through each failing neighbour
    /// to its own neighbours (ACORN-1), and takes at most the layer-0 degree of nodes that way,
    /// not up to the degree squared; the walk still fills its beam with passing nodes.
    @Test func theExpansionThroughFailingNodesStopsAtTheDegree() {
        let graph = Self.graph
        for query in Self.queries {
            // A quarter of the nodes pass: a list of 48 neighbours, 36 failing, leads to about
            // 400 passing nodes two hops away.
            let traversal = QuantizedQuery(query).withKernel { kernel in
                graph.searchFiltered(kernel, width: 64, budget: graph.count, expandThroughFailing: true) { $0 % 4 == 0 }
            }
            #expect(traversal.mostSecondHopNodesInOneStep > 0)
            #expect(traversal.mostSecondHopNodesInOneStep <= graph.baseDegree)
            #expect(traversal.found.count == 64 && traversal.found.allSatisfy { $0.row % 4 == 0 })
        }
    }

    /// The integer dot products are exact on every path, so the walk takes the same steps and
    /// finds the same nodes whichever kernel scores its lists (AVX-512 VNNI where the CPU has it).
    @Test(arguments: KernelInstructionSet.available)
    func theWalkIsTheSameOnEveryKernelPath(path: KernelInstructionSet) {
        let graph = Self.graph
        for query in Self.queries {
            func walk(_ path: KernelInstructionSet) -> (nodes: [Int], visits: Int) {
                QuantizedQuery(query).withKernel(using: path) { kernel in
                    let traversal = graph.searchFiltered(
                        kernel, width: 48, budget: graph.count, expandThroughFailing: false
                    ) { _ in true }
                    return (traversal.found.map(\.row), traversal.visits)
                }
            }
            let reference = walk(.portable)
            let walked = walk(path)
            #expect(walked.nodes == reference.nodes && walked.visits == reference.visits, "\(path)")
        }
    }
}
