/// One row change of a database, as a shared store keeps it and another copy applies it: the
/// table, the kind of change, the row's id before it and, for an insert or update, the row after
/// it.
///
/// The row is written in the change format of version ``format``: a tuple of SQL literals made by
/// SQLite's own `quote()` (exact for every integer, real, text and blob), in the order of the
/// table's columns in the schema named by ``KnowledgeBase/schemaIdentity``. Migrations only add
/// columns at the end of a table, so a row written by an earlier schema is a prefix of the row a
/// later one writes, and the columns it lacks stay `NULL` when it is applied. A change to the
/// format (column names in the tuple, another encoding) is a new version, which a store records
/// and an older node refuses rather than misreads.
package struct RowChange: Sendable, Hashable {
    /// The version of the change format this Mnemo writes and reads.
    package static let format = 1

    package enum Kind: String, Sendable {
        case insert = "I"
        case update = "U"
        case delete = "D"
    }

    package var table: String
    package var kind: Kind
    /// The row's id before the change (for an insert, its new id).
    package var rowID: Int64
    /// The row's id after the change (equal to ``rowID`` but for an update of the id itself).
    package var newRowID: Int64
    /// `quote(col1) || ',' || quote(col2) …` in the table's column order; empty for a delete.
    package var values: String

    package init(table: String, kind: Kind, rowID: Int64, newRowID: Int64, values: String) {
        self.table = table
        self.kind = kind
        self.rowID = rowID
        self.newRowID = newRowID
        self.values = values
    }

    /// Whether the change records an erasure (a fact's tombstone is written in its transaction).
    package var isErasure: Bool { table == "fact_tombstone" && kind == .insert }

    /// The number of values of a tuple made by `quote()`: its commas outside quoted text, plus one.
    package static func width(of values: String) -> Int {
        var count = 1
        var quoted = false
        for byte in values.utf8 {
            if byte == UInt8(ascii: "'") {
                quoted.toggle()
            } else if byte == UInt8(ascii: ","), !quoted {
                count += 1
            }
        }
        return count
    }
}

extension RowChange {
    /// Each touched row's state after the changes: its values, or removed.
    package static func finalRows(_ changes: [RowChange]) -> (
        current: [(table: String, row: Int64, values: String)], removed: [(table: String, row: Int64)]
    ) {
        struct Key: Hashable {
            var table: String
            var row: Int64
        }
        var state: [Key: String?] = [:]
        var order: [Key] = []
        func set(_ key: Key, _ values: String?) {
            if state[key] == nil { order.append(key) }
            state[key] = .some(values)
        }
        for change in changes {
            switch change.kind {
            case .insert:
                set(Key(table: change.table, row: change.newRowID), change.values)
            case .update:
                if change.rowID != change.newRowID { set(Key(table: change.table, row: change.rowID), nil) }
                set(Key(table: change.table, row: change.newRowID), change.values)
            case .delete:
                set(Key(table: change.table, row: change.rowID), nil)
            }
        }
        var current: [(String, Int64, String)] = []
        var removed: [(String, Int64)] = []
        for key in order {
            if let values = state[key] ?? nil {
                current.append((key.table, key.row, values))
            } else {
                removed.append((key.table, key.row))
            }
        }
        return (current.map { (table: $0.0, row: $0.1, values: $0.2) }, removed.map { (table: $0.0, row: $0.1) })
    }
}
