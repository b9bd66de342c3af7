/// A table of the schema and what it is to the engine.
package struct StoredTable: Sendable, Hashable {
    /// What a table is: which of the engine's mechanisms see its rows.
    package struct Roles: OptionSet, Sendable, Hashable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// The undo log snapshots its rows before a change (``TrackedTable`` has its columns).
        package static let undoTracked = Roles(rawValue: 1 << 0)
        /// A node of a shared store ships its rows to the store and applies other nodes' rows.
        package static let replicated = Roles(rawValue: 1 << 1)
        /// Apps see its ids; a node numbers new rows above the store's largest (``RowIDs``).
        package static let numbered = Roles(rawValue: 1 << 2)
        /// Rebuilt from other tables by triggers, never shipped: each copy derives its own.
        package static let derived = Roles(rawValue: 1 << 3)
        /// What each file keeps for itself, written alike by every copy.
        package static let local = Roles(rawValue: 1 << 4)
    }

    package let name: String
    /// The column that identifies a row (its rowid).
    package let key: String
    package let roles: Roles
}

/// Every table of the schema, parents before children, and what each is: the one list that the
/// undo log, the row ids and the replication of a shared store read, checked
/// against the schema by a test (a table added by a migration and missing here fails it).
package enum TableRegistry {
    package static let all: [StoredTable] = [
        StoredTable(name: "meta", key: "key", roles: [.local]),
        StoredTable(name: "topic", key: "id", roles: [.undoTracked, .replicated, .numbered]),
        StoredTable(name: "fact", key: "id", roles: [.undoTracked, .replicated, .numbered]),
        StoredTable(name: "fact_embedding", key: "fact_id", roles: [.undoTracked, .replicated]),
        StoredTable(name: "history", key: "id", roles: [.undoTracked, .replicated, .numbered]),
        StoredTable(name: "fact_conflict", key: "id", roles: [.undoTracked, .replicated, .numbered]),
        StoredTable(name: "fact_tombstone", key: "fact_id", roles: [.replicated]),
        StoredTable(name: "namespace_secret", key: "id", roles: [.replicated]),
        StoredTable(name: "erased_content", key: "id", roles: [.replicated]),
        StoredTable(name: "operation", key: "id", roles: [.replicated, .numbered]),
        StoredTable(name: "operation_change", key: "id", roles: [.replicated]),
        StoredTable(name: "feed_event", key: "seq", roles: [.replicated]),
        StoredTable(name: "feed_horizon", key: "id", roles: [.replicated]),
        StoredTable(name: "fact_departed", key: "fact_id", roles: [.replicated]),
        StoredTable(name: "sync_receipt", key: "id", roles: [.replicated]),
        StoredTable(name: "sync_alias", key: "id", roles: [.replicated]),
        StoredTable(name: "sync_origin", key: "id", roles: [.replicated]),
        StoredTable(name: "sync_link", key: "namespace", roles: [.local]),
        StoredTable(name: "sync_outbox", key: "seq", roles: [.local]),
        StoredTable(name: "fact_change", key: "seq", roles: [.derived]),
        StoredTable(name: "fact_fts", key: "rowid", roles: [.derived]),
    ]

    /// The tables that have all of `roles`, in the registry's order.
    package static func tables(with roles: StoredTable.Roles) -> [StoredTable] {
        all.filter { $0.roles.isSuperset(of: roles) }
    }
}
