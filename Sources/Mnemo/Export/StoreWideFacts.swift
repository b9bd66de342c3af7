/// Every namespace's facts of a shared store by ascending id (then namespace), as a file lists
/// them: a node holds each namespace apart, so their pages are merged, one page of each in memory
/// at a time.
struct StoreWideFacts {
    private static let pageSize = 256

    /// A namespace's next facts.
    private struct Cursor {
        var namespace: String
        var knowledgeBase: KnowledgeBase
        var page: [Fact] = []
        var index = 0
        var isExhausted = false

        var head: Fact? { index < page.count ? page[index] : nil }

        /// Reads the next page once this one is used up; whether a fact is left.
        mutating func fill() async throws -> Bool {
            if index < page.count { return true }
            guard !isExhausted else { return false }
            let (namespace, lastID) = (namespace, page.last?.id ?? 0)
            page = try await knowledgeBase.writer.read { db in
                try FactTable.page(db, namespace: namespace, after: lastID, limit: StoreWideFacts.pageSize)
            }
            index = 0
            isExhausted = page.count < StoreWideFacts.pageSize
            return !page.isEmpty
        }
    }

    private let knowledgeBase: KnowledgeBase
    /// Cursors with a fact left, the one with the largest head first: the next fact is the last's.
    private var queue: [Cursor] = []
    private var isStarted = false

    init(knowledgeBase: KnowledgeBase) {
        self.knowledgeBase = knowledgeBase
    }

    mutating func next() async throws -> Fact? {
        if !isStarted {
            isStarted = true
            for namespace in try await knowledgeBase.namespaces() {
                let other = try await knowledgeBase.knowledgeBase(forNamespace: namespace)
                var cursor = Cursor(namespace: namespace, knowledgeBase: other)
                if try await cursor.fill() { enqueue(cursor) }
            }
        }
        guard var cursor = queue.popLast(), let fact = cursor.head else { return nil }
        cursor.index += 1
        if try await cursor.fill() { enqueue(cursor) }
        return fact
    }

    /// Puts a cursor in its place in the queue (a binary search).
    private mutating func enqueue(_ cursor: Cursor) {
        guard let head = cursor.head else { return }
        let key = (head.id, cursor.namespace)
        var low = 0
        var high = queue.count
        while low < high {
            let middle = (low + high) / 2
            let other = queue[middle]
            if let otherHead = other.head, (otherHead.id, other.namespace) > key {
                low = middle + 1
            } else {
                high = middle
            }
        }
        queue.insert(cursor, at: low)
    }
}
