/// Keeps the `capacity` best-scoring rows seen so far in a bounded min-heap.
struct TopK {
    struct Entry: Sendable {
        var score: Float
        var row: Int
    }

    let capacity: Int
    private(set) var entries: [Entry] = []
    private static let reservedCapacity = 4_096

    init(capacity: Int) {
        self.capacity = capacity
        // A page far down the results (offset 999,999,999) asks for a heap that large; it only
        // ever holds the rows scanned, so memory is reserved for a usual page, not for `capacity`.
        entries.reserveCapacity(Swift.min(capacity, Self.reservedCapacity))
    }

    /// The score a new row must beat to enter, once the heap is full.
    @inline(__always)
    var threshold: Float { entries.count < capacity ? -.infinity : entries[0].score }

    @inline(__always)
    mutating func insert(score: Float, row: Int) {
        guard capacity > 0 else { return }
        if entries.count < capacity {
            entries.append(Entry(score: score, row: row))
            siftUp(entries.count - 1)
        } else if score > entries[0].score {
            entries[0] = Entry(score: score, row: row)
            siftDown(0)
        }
    }

    /// The entries, best first.
    func sorted() -> [Entry] {
        entries.sorted { $0.score != $1.score ? $0.score > $1.score : $0.row < $1.row }
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].score < entries[parent].score else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count, entries[left].score < entries[smallest].score { smallest = left }
            if right < entries.count, entries[right].score < entries[smallest].score { smallest = right }
            guard smallest != parent else { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
