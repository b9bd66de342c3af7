import Foundation
import MnemoEvaluation
import Testing

@testable import Mnemo

/// The vector snapshot keeps each namespace's rows apart, so a search scans only its own.
@Suite struct VectorPartitionTests {
    private func unit(_ generator: inout SplitMix64, dimension: Int) -> [Float] {
        var vector = (0..<dimension).map { _ in Float(generator.gaussian()) }
        let norm = sqrt(vector.reduce(0) { $0 + $1 * $1 })
        for index in vector.indices { vector[index] /= norm }
        return vector
    }

    @Test func searchesMatchABruteForceScanAfterRandomUpsertsAndRemovals() {
        var generator = SplitMix64(seed: 7)
        let dimension = 16
        let namespaces = ["a", "b", "c", "d"]
        var snapshot = VectorSnapshot(dimension: dimension)
        var live: [Int64: (namespace: String, vector: [Float])] = [:]
        for step in 0..<4_000 {
            let id = Int64(generator.below(600))
            if generator.below(4) == 0 {
                snapshot.remove(id: id)
                live[id] = nil
            } else {
                // Now and then a row moves to another namespace, which the index must follow.
                let namespace = namespaces[generator.below(namespaces.count)]
                let vector = unit(&generator, dimension: dimension)
                snapshot.upsert(
                    id: id, vector: vector,
                    attributes: .init(
                        namespace: namespace, topicID: 1, type: .fact, importance: .medium, isActive: true))
                live[id] = (namespace, vector)
            }
            guard step % 500 == 499 else { continue }
            #expect(snapshot.count == live.count)
            let query = unit(&generator, dimension: dimension)
            for namespace in namespaces {
                guard let code = snapshot.namespaceCode(namespace) else { continue }
                let members = snapshot.rows(ofNamespace: code).map { Set($0.map { snapshot.ids[Int($0)] }) }
                let expected = Set(live.filter { $0.value.namespace == namespace }.keys)
                #expect((members ?? Set(snapshot.ids)) == expected)
                let found = snapshot.nearest(
                    to: query, k: 5, filter: VectorFilter(FactFilter(), namespaceCode: code, topicIDs: nil))
                let brute = live.filter { $0.value.namespace == namespace }
                    .map { (id: $0.key, score: zip($0.value.vector, query).reduce(Float(0)) { $0 + $1.0 * $1.1 }) }
                    .sorted { $0.score > $1.score }.prefix(5).map(\.id)
                #expect(found.map(\.id) == Array(brute), "namespace \(namespace) at step \(step)")
            }
        }
    }

    @Test func aNamespaceHoldingEveryRowIsScannedInOrder() {
        var snapshot = VectorSnapshot(dimension: 2)
        for id in 1...3 {
            snapshot.upsert(
                id: Int64(id), vector: [1, 0],
                attributes: .init(namespace: "only", topicID: 1, type: .fact, importance: .low, isActive: true))
        }
        #expect(snapshot.rows(ofNamespace: 0) == nil)
        #expect(snapshot.rows(ofNamespace: 5) == [])
    }
}
