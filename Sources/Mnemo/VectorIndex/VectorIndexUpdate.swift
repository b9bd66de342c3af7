import Foundation
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

/// What brings a vector index from one state of the database to a later one: the changed rows
/// since the index's last change, or every row when the index is not loaded or too far behind.
enum VectorIndexUpdate {
    /// Every row as of change `sequence`.
    case full(VectorSnapshot, sequence: Int64)
    /// The facts changed after change `base`, as of change `sequence`.
    case delta(base: Int64, sequence: Int64, changes: Changes)

    /// The new state of each changed fact: its row, or `nil` when it no longer has one.
    struct Changes {
        var rows: [Int64: (vector: [Float], attributes: VectorSnapshot.Attributes)?] = [:]

        func apply(to store: inout VectorSnapshot) {
            for (id, row) in rows {
                if let row {
                    store.upsert(id: id, vector: row.vector, attributes: row.attributes)
                } else {
                    store.remove(id: id)
                }
            }
        }
    }

    /// Where an index stands: the last change it holds and how many rows it has.
    struct Position {
        var sequence: Int64
        var rows: Int
    }

    /// Past this many changed facts, reading every row is cheaper than looking each one up.
    static func fullReloadThreshold(loadedRows: Int) -> Int {
        max(10_000, loadedRows / 4)
    }

    /// Reads the update from an index at `position` (`nil`: not loaded) to the state `db` sees,
    /// within one read, so that the rows and the sequence number agree.
    static func read(_ db: Database, from position: Position?, dimension: Int) throws -> VectorIndexUpdate {
        let latest = try ChangeLog.latestSequence(db)
        if let position {
            let sequence = position.sequence
            if latest <= sequence { return .delta(base: sequence, sequence: sequence, changes: Changes()) }
            let limit = fullReloadThreshold(loadedRows: position.rows)
            let ids = try ChangeLog.factsChanged(db, after: sequence, limit: limit + 1)
            if ids.count <= limit {
                let rows = try EmbeddingTable.indexRows(db, ids: ids, dimension: dimension)
                var changes = Changes()
                for id in ids { changes.rows.updateValue(rows[id], forKey: id) }
                return .delta(base: sequence, sequence: latest, changes: changes)
            }
        }
        var store = VectorSnapshot(dimension: dimension, files: columnFiles(of: db))
        try EmbeddingTable.forEachIndexRow(db, dimension: dimension) { id, vector, attributes in
            store.upsert(id: id, vector: vector, attributes: attributes)
        }
        return .full(store, sequence: latest)
    }

    /// Where the large columns of `db`'s index go: beside the database file, whose disk holds
    /// the vectors already; the temporary directory for a database in memory.
    private static func columnFiles(of db: Database) -> ColumnFiles {
        guard let name = sqlite3_db_filename(db.sqliteConnection, "main"), name[0] != 0 else { return .temporary }
        return ColumnFiles(directory: URL(fileURLWithPath: String(cString: name)).deletingLastPathComponent())
    }
}
