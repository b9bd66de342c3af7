import Foundation
import GRDB

/// The in-memory vector index of a database: loaded on first use, then kept in step with every
/// committed write by ``VectorIndexObserver``.
///
/// Searches take a snapshot (a copy-on-write value) under a short lock and scan it without
/// holding the lock, so they run in parallel with each other and with writers.
final class VectorIndex: @unchecked Sendable {
    let dimension: Int
    private let lock = NSLock()
    private var store: VectorSnapshot?

    init(dimension: Int) {
        self.dimension = dimension
    }

    var isLoaded: Bool { lock.withLock { store != nil } }

    /// The current rows, loading them from the database the first time.
    func snapshot(_ writer: any DatabaseWriter) async throws -> VectorSnapshot {
        if let store = lock.withLock({ store }) { return store }
        // Load on the writer's queue so no commit can slip between the read and the install.
        return try await writer.writeWithoutTransaction { db in
            if let store = self.lock.withLock({ self.store }) { return store }
            var loaded = VectorSnapshot(dimension: self.dimension)
            try EmbeddingTable.forEachIndexRow(db, dimension: self.dimension) { id, vector, attributes in
                loaded.upsert(id: id, vector: vector, attributes: attributes)
            }
            self.lock.withLock { self.store = loaded }
            return loaded
        }
    }

    /// Applies committed changes: facts with a row are upserted, the others removed.
    func apply(changedIDs: Set<Int64>, rows: [Int64: (vector: [Float], attributes: VectorSnapshot.Attributes)]) {
        lock.withLock {
            guard store != nil else { return }
            for id in changedIDs {
                if let row = rows[id] {
                    store!.upsert(id: id, vector: row.vector, attributes: row.attributes)
                } else {
                    store!.remove(id: id)
                }
            }
        }
    }

    /// Forgets every row; the next search reloads from the database.
    func invalidate() {
        lock.withLock { store = nil }
    }
}

/// Watches the `fact` and `fact_embedding` tables and, after each commit, hands the changed
/// facts' new state to the vector index. Every write path is covered, including ones added later.
final class VectorIndexObserver: TransactionObserver, @unchecked Sendable {
    private let index: VectorIndex
    private var changedIDs = Set<Int64>()

    init(index: VectorIndex) {
        self.index = index
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "fact" || eventKind.tableName == "fact_embedding"
    }

    func databaseDidChange(with event: DatabaseEvent) {
        // Both tables use the fact id as their rowid.
        changedIDs.insert(event.rowID)
    }

    func databaseDidCommit(_ db: Database) {
        defer { changedIDs.removeAll() }
        guard !changedIDs.isEmpty, index.isLoaded else { return }
        do {
            let rows = try EmbeddingTable.indexRows(db, ids: changedIDs, dimension: index.dimension)
            index.apply(changedIDs: changedIDs, rows: rows)
        } catch {
            // The index cannot be brought up to date: drop it so the next search reloads it.
            index.invalidate()
        }
    }

    func databaseDidRollback(_ db: Database) {
        changedIDs.removeAll()
    }
}
