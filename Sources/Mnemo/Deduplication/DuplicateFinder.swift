import Dispatch
import Foundation

/// Finds clusters of near-duplicate facts among stored vectors.
struct DuplicateFinder {
    let rule: NearDuplicateRule
    /// How many neighbours of each fact are examined.
    var neighbours = 8

    /// Groups of fact ids that say the same thing, each sorted (the first, oldest id survives).
    func clusters(in store: VectorSnapshot, namespaceCode: Int32, facts: [Int64: Fact]) -> [[Int64]] {
        let active = facts.values.filter(\.isActive).sorted { $0.id < $1.id }
        let matches = neighbourLists(of: active, in: store, namespaceCode: namespaceCode)
        var parent: [Int64: Int64] = [:]
        func root(_ id: Int64) -> Int64 {
            var id = id
            while let next = parent[id], next != id { id = next }
            return id
        }
        let readings = FactKeys()
        for (fact, candidates) in zip(active, matches) {
            for match in candidates where match.id != fact.id {
                let similarity = Double(match.similarity)
                guard let other = facts[match.id], other.type == fact.type, similarity >= rule.minimumSimilarity,
                    rule.verdict(readings.parsed(fact), readings.parsed(other), type: fact.type, similarity: similarity)
                        == .duplicate
                else { continue }
                let (a, b) = (root(fact.id), root(other.id))
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        let groups = Dictionary(grouping: parent.keys, by: root)
        return groups.map { survivor, members in Array(Set(members + [survivor])).sorted() }
            .filter { $0.count > 1 }
            .sorted { $0[0] < $1[0] }
    }

    /// Each fact's nearest neighbours of its type above the rule's lowest threshold.
    ///
    /// From ``blockingThreshold`` facts on they come from k-means blocks (see
    /// ``blockedNeighbourLists(of:in:)``). Below, finding them is a scan of the whole store per
    /// fact, quadratic in the number of facts but exact, so
    /// the facts are shared among the cores (each scan on one thread) and scanned with int8
    /// codes, then re-scored exactly: near duplicates sit at cosine 0.85 and above, far above
    /// where int8 ranking errors occur. The result does not depend on how the work was split.
    private func neighbourLists(of facts: [Fact], in store: VectorSnapshot, namespaceCode: Int32) -> [[VectorSnapshot
        .Match]]
    {
        if facts.count >= Self.blockingThreshold { return blockedNeighbourLists(of: facts, in: store) }
        var lists = [[VectorSnapshot.Match]](repeating: [], count: facts.count)
        let parts = facts.count < 64 ? 1 : ProcessInfo.processInfo.activeProcessorCount * 4
        let size = (facts.count + parts - 1) / max(parts, 1)
        let threshold = Float(rule.minimumSimilarity)
        lists.withUnsafeMutableBufferPointer { lists in
            let output = UnsafeSendableBuffer(lists)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                for index in part * size..<min(facts.count, (part + 1) * size) {
                    let fact = facts[index]
                    guard let vector = store.vector(of: fact.id) else { continue }
                    let filter = VectorFilter(
                        FactFilter(types: [fact.type]), namespaceCode: namespaceCode, topicIDs: nil)
                    output.buffer[index] = store.nearest(
                        to: Array(vector), k: neighbours + 1, filter: filter,
                        minSimilarity: threshold, precision: .quantized(rescoreFactor: 4),
                        threads: 1)
                }
            }
        }
        return lists
    }
}

/// Hands a buffer to `concurrentPerform`, whose iterations each write distinct elements.
private struct UnsafeSendableBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
