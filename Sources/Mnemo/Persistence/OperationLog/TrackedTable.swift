import Foundation

/// A table whose rows the operation log snapshots, so that an operation can be undone.
///
/// A row's image is a JSON object of all its columns, made by SQLite (`json_object`) in the
/// triggers that record a row before it changes and in the query that reads it after. Reals are
/// written with 17 significant digits and read back with `CAST(… AS REAL)`, so they round-trip
/// exactly (`json_object` keeps only 15); blobs are written in hex.
///
/// The triggers are created by migrations as literal SQL with the column lists of their time: a
/// later migration that adds a column to one of these tables must recreate that table's triggers
/// too (as v7 did for `fact`), and the images here must agree with them (`SchemaSnapshotTests`
/// checks). An image recorded before a column existed lacks it; undo compares and restores such
/// an image by the columns it has (the new column restores as NULL).
struct TrackedTable: Sendable {
    enum Kind: Sendable {
        case plain, real, blob
    }

    let name: String
    /// The column that is the rowid.
    let key: String
    let columns: [(name: String, kind: Kind)]

    static let all: [TrackedTable] = [topic, fact, factEmbedding, history, factConflict]

    static let topic = TrackedTable(
        name: "topic", key: "id",
        columns: [
            ("id", .plain), ("namespace", .plain), ("parent_id", .plain), ("name", .plain), ("name_key", .plain),
            ("path", .plain), ("path_key", .plain), ("depth", .plain), ("created_at", .plain), ("uid", .plain),
        ])
    static let fact = TrackedTable(
        name: "fact", key: "id",
        columns: [
            ("id", .plain), ("namespace", .plain), ("topic_id", .plain), ("content", .plain), ("content_key", .plain),
            ("type", .plain), ("importance", .plain), ("confidence", .real), ("is_active", .plain), ("sources", .plain),
            ("mention_count", .plain), ("created_at", .plain), ("updated_at", .plain), ("expires_at", .plain),
            ("goal_status", .plain), ("goal_progress", .real), ("target_date", .plain), ("completed_at", .plain),
            ("uid", .plain),
        ])
    static let factEmbedding = TrackedTable(
        name: "fact_embedding", key: "fact_id",
        columns: [
            ("fact_id", .plain), ("vector", .blob),
        ])
    static let history = TrackedTable(
        name: "history", key: "id",
        columns: [
            ("id", .plain), ("namespace", .plain), ("fact_id", .plain), ("topic_id", .plain), ("event", .plain),
            ("details", .plain), ("created_at", .plain),
        ])
    static let factConflict = TrackedTable(
        name: "fact_conflict", key: "id",
        columns: [
            ("id", .plain), ("namespace", .plain), ("older_fact_id", .plain), ("newer_fact_id", .plain),
            ("reason", .plain),
            ("similarity", .real), ("created_at", .plain),
        ])

    static func named(_ name: String) -> TrackedTable? {
        all.first { $0.name == name }
    }

    /// This table with only the columns an image recorded earlier holds, in the same order.
    func shaped(like image: String?) -> TrackedTable {
        guard let image, let object = try? JSONSerialization.jsonObject(with: Data(image.utf8)) as? [String: Any] else {
            return self
        }
        return TrackedTable(name: name, key: key, columns: columns.filter { object.keys.contains($0.name) })
    }

    /// The SQL expression of a row's image, the row being `alias` (`old`, `new` or the table).
    func image(of alias: String) -> String {
        let pairs = columns.map { column -> String in
            let value = "\(alias).\(column.name)"
            switch column.kind {
            case .plain: return "'\(column.name)', \(value)"
            case .real: return "'\(column.name)', printf('%!.17g', \(value))"
            case .blob: return "'\(column.name)', hex(\(value))"
            }
        }
        return "json_object(\(pairs.joined(separator: ", ")))"
    }

    /// The SQL expression that reads column `name` back from an image bound at `?1`.
    func restored(_ column: (name: String, kind: Kind)) -> String {
        switch column.kind {
        case .plain: "json_extract(?1, '$.\(column.name)')"
        case .real: "CAST(json_extract(?1, '$.\(column.name)') AS REAL)"
        case .blob: "?2"
        }
    }
}
