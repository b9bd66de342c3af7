import Foundation

extension KnowledgeBase {
    /// Writes the namespace's facts (or every namespace's) as JSONL, ordered by id.
    ///
    /// Every field is written, inactive facts included: ids, namespace, topic path, content, type,
    /// importance, confidence, active state, sources, mention count and both dates (see
    /// ``exportedLines(allNamespaces:)`` for a line's shape). Ingesting the file into an empty
    /// database and exporting again gives the same bytes. The export reads one consistent
    /// snapshot and holds one page of facts in memory at a time (on a node of a shared store,
    /// one page of each namespace, each namespace read in a snapshot of its own). Topics without
    /// facts and the history are not exported.
    /// - Returns: the number of facts written.
    @discardableResult
    public func export(to handle: FileHandle, allNamespaces: Bool = false) async throws -> Int {
        if allNamespaces, writer.replication != nil {
            var facts = StoreWideFacts(knowledgeBase: self)
            var writer = BufferedWriter(handle: handle)
            var count = 0
            while let fact = try await facts.next() {
                try writer.write(ExportLine.encode(fact) + "\n")
                count += 1
            }
            try writer.flush()
            return count
        }
        let namespace = allNamespaces ? nil : namespace
        return try await writer.read { db in
            var writer = BufferedWriter(handle: handle)
            var count = 0
            try FactTable.forEach(db, namespace: namespace) { fact in
                try writer.write(ExportLine.encode(fact) + "\n")
                count += 1
            }
            try writer.flush()
            return count
        }
    }

    /// Writes the export to a file, replacing it only once the export is complete.
    /// - Returns: the number of facts written.
    @discardableResult
    public func export(to url: URL, allNamespaces: Bool = false) async throws -> Int {
        let partial = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw MnemoError.invalidInput(field: "url", reason: "cannot write \(partial.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: partial)
            let count = try await export(to: handle, allNamespaces: allNamespaces)
            try handle.close()
            // rename(2) replaces the target atomically: readers see the old file or the new one.
            guard rename(partial.path, url.path) == 0 else {
                throw MnemoError.invalidInput(
                    field: "url", reason: "cannot write \(url.path): \(String(cString: strerror(errno)))")
            }
            return count
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// The export's lines, without their newline, read a page of facts at a time.
    ///
    /// A line looks like
    /// `{"id":7,"namespace":"default","topic":"Health & Fitness/Running","content":"Ran a half marathon","type":"experience","importance":"medium","confidence":0.9,"is_active":true,"sources":["conv-1"],"mention_count":1,"created_at":"2025-01-15T10:30:00Z","updated_at":"2025-01-15T10:30:00Z"}`.
    /// Unlike the `export(to:)` methods, which read one snapshot, pages are separate reads:
    /// facts written during the iteration may or may not appear.
    public func exportedLines(allNamespaces: Bool = false) -> ExportedLines {
        ExportedLines(knowledgeBase: self, namespace: allNamespaces ? nil : namespace)
    }
}

/// The lines of a knowledge base's JSONL export, as an async sequence; see
/// ``KnowledgeBase/exportedLines(allNamespaces:)``.
public struct ExportedLines: AsyncSequence, Sendable {
    public typealias Element = String

    let knowledgeBase: KnowledgeBase
    let namespace: String?

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(knowledgeBase: knowledgeBase, namespace: namespace)
    }

    /// Reads the facts a page at a time, by ascending id.
    public struct AsyncIterator: AsyncIteratorProtocol {
        static let pageSize = 1_000
        let knowledgeBase: KnowledgeBase
        let namespace: String?
        private var page: [String] = []
        private var pageIndex = 0
        private var lastID: Int64 = 0
        private var isExhausted = false
        private var storeWide: StoreWideFacts?

        init(knowledgeBase: KnowledgeBase, namespace: String?) {
            self.knowledgeBase = knowledgeBase
            self.namespace = namespace
        }

        public mutating func next() async throws -> String? {
            if namespace == nil, knowledgeBase.writer.replication != nil {
                if storeWide == nil { storeWide = StoreWideFacts(knowledgeBase: knowledgeBase) }
                return try await storeWide?.next().map(ExportLine.encode)
            }
            if pageIndex == page.count {
                guard !isExhausted else { return nil }
                let (namespace, lastID) = (namespace, lastID)
                let facts = try await knowledgeBase.writer.read { db in
                    try FactTable.page(db, namespace: namespace, after: lastID, limit: Self.pageSize)
                }
                isExhausted = facts.count < Self.pageSize
                self.lastID = facts.last?.id ?? lastID
                page = facts.map(ExportLine.encode)
                pageIndex = 0
                if page.isEmpty { return nil }
            }
            defer { pageIndex += 1 }
            return page[pageIndex]
        }
    }
}

/// Collects small writes into large ones, so a million lines are not a million system calls.
struct BufferedWriter {
    let handle: FileHandle
    private var buffer = Data()
    private static let capacity = 1 << 16

    init(handle: FileHandle) {
        self.handle = handle
        buffer.reserveCapacity(Self.capacity)
    }

    mutating func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.capacity { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
