/// Checks the stored topic tree and computes the repaired one: orphans and cycles cut loose as
/// top-level topics, every path, key and depth recomputed from the parents.
struct TopicTreeAudit {
    struct Row: Hashable {
        var id: Int64
        var namespace: String
        var parentID: Int64?
        var name: String
        var nameKey: String
        var path: String
        var pathKey: String
        var depth: Int
    }

    /// Topics whose parent is missing or in another namespace.
    private(set) var orphans: [Int64] = []
    /// Each cycle's topics, smallest id first.
    private(set) var cycles: [[Int64]] = []
    /// The rows whose stored values differ from the repaired tree's, as they should be.
    private(set) var corrected: [Row] = []

    init(_ rows: [Row]) {
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
        orphans = rows.filter { row in
            guard let parent = row.parentID else { return false }
            return byID[parent]?.namespace != row.namespace
        }.map(\.id)
        var cut = Set(orphans)
        // Walk up from each topic; a walk that meets its own trail has found a cycle.
        var settled = Set<Int64>()
        for row in rows where !settled.contains(row.id) {
            var trail: [Int64] = []
            var onTrail = Set<Int64>()
            var current: Int64? = row.id
            while let id = current, !settled.contains(id) {
                if onTrail.contains(id) {
                    let cycle = Array(trail[trail.firstIndex(of: id)!...]).sorted()
                    cycles.append(cycle)
                    cut.insert(cycle[0])
                    break
                }
                trail.append(id)
                onTrail.insert(id)
                // An orphan's walk ends with it.
                current = cut.contains(id) ? nil : byID[id]?.parentID
            }
            settled.formUnion(trail)
        }

        // Recompute top-down, roots first, siblings by id; a path key already taken in the
        // namespace (two topics that a cut or a rename made equal) gets the topic's id appended.
        let root = Int64.min
        var children: [Int64: [Row]] = [:]
        for row in rows { children[cut.contains(row.id) ? root : row.parentID ?? root, default: []].append(row) }
        var taken = Set<String>()
        var queue: [(row: Row, parent: Row?)] = (children[root] ?? []).map { ($0, nil) }
        var next = 0
        while next < queue.count {
            let (stored, parent) = queue[next]
            next += 1
            var row = stored
            row.parentID = parent?.id
            row.nameKey = TopicPath.key(ofSegment: row.name)
            func place() {
                row.path = parent.map { "\($0.path)/\(row.name)" } ?? row.name
                row.pathKey = parent.map { "\($0.pathKey)/\(row.nameKey)" } ?? row.nameKey
            }
            place()
            if taken.contains(row.namespace + "\u{1F}" + row.pathKey) {
                row.name += " (\(row.id))"
                row.nameKey = TopicPath.key(ofSegment: row.name)
                place()
            }
            row.depth = (parent?.depth ?? 0) + 1
            taken.insert(row.namespace + "\u{1F}" + row.pathKey)
            if row != stored { corrected.append(row) }
            queue += (children[row.id] ?? []).sorted { $0.id < $1.id }.map { ($0, row) }
        }
    }
}
