import Foundation

/// Finds clusters of near-duplicate facts among stored vectors.
struct DuplicateFinder {
    let rule: NearDuplicateRule
    /// How many neighbours of each fact are examined.
    var neighbours = 8

    /// Groups of fact ids that say the same thing, each sorted (the first, oldest id survives).
    func clusters(in store: VectorStore, namespaceCode: Int32, facts: [Int64: Fact]) -> [[Int64]] {
        var parent: [Int64: Int64] = [:]
        func root(_ id: Int64) -> Int64 {
            var id = id
            while let next = parent[id], next != id { id = next }
            return id
        }
        for fact in facts.values.sorted(by: { $0.id < $1.id }) where fact.isActive {
            guard let vector = store.vector(of: fact.id) else { continue }
            let filter = VectorFilter(FactFilter(types: [fact.type]), namespaceCode: namespaceCode, topicIDs: nil)
            let matches = store.nearest(to: Array(vector), k: neighbours + 1, filter: filter,
                                        minSimilarity: Float(rule.threshold), threads: 1)
            for match in matches where match.id != fact.id {
                guard let other = facts[match.id],
                      rule.isDuplicate(fact.content, other.content, typeA: fact.type, typeB: other.type,
                                       similarity: Double(match.similarity)) else { continue }
                let (a, b) = (root(fact.id), root(other.id))
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        let groups = Dictionary(grouping: parent.keys, by: root)
        return groups.map { survivor, members in Array(Set(members + [survivor])).sorted() }
            .filter { $0.count > 1 }
            .sorted { $0[0] < $1[0] }
    }
}
