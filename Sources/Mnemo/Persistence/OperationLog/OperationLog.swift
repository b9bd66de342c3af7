import Foundation
import GRDB

/// Records undoable operations and reverts them, inside the caller's transaction.
///
/// An operation is recorded by running its writes inside
/// ``record(_:namespace:kind:summary:_:)``, which marks its start and its end: triggers on the tracked tables (see
/// ``TrackedTable``) keep the image of each row before its first change, and the end reads each
/// changed row's image after, so the log holds exactly what the operation did. Undo is sound: it
/// first checks that every row is still as the operation left it, and refuses otherwise (a later
/// write changed it; undo that first), then writes back the images from before.
enum OperationLog {
    static let recordingKey = "operation.recording"

    /// The error for an operation log that does not read as this code wrote it.
    static func corrupt(_ reason: String) -> MnemoError {
        .storageFailure(StorageFailure(resultCode: 11, extendedResultCode: 11, message: "operation log: \(reason)"))
    }

    struct Change: Codable {
        var table: String
        var row: Int64
        var before: String?
        var after: String?
    }

    /// Runs `body` as one recorded operation, unless an operation is already recording, in which
    /// case its writes simply belong to that one.
    static func record<T>(
        _ db: Database, namespace: String, kind: OperationRecord.Kind, summary: @autoclosure () -> String,
        reverts: Int64? = nil, _ body: () throws -> T
    ) throws -> T {
        guard try !isRecording(db) else { return try body() }
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, '1')", arguments: [recordingKey])
        let result = try body()
        try end(db, namespace: namespace, kind: kind, summary: summary(), reverts: reverts)
        return result
    }

    static func isRecording(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM meta WHERE key = ?)", arguments: [recordingKey])
            ?? false
    }

    /// Turns the recorded before-images into the operation's snapshot and stops recording.
    private static func end(
        _ db: Database, namespace: String, kind: OperationRecord.Kind, summary: String, reverts: Int64?
    ) throws {
        try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [recordingKey])
        var seen = Set<String>()
        var changes: [Change] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT table_name, row_id, before FROM operation_change ORDER BY id")
        while let row = try rows.next() {
            let (table, id): (String, Int64) = (row[0], row[1])
            // The first image of a row is the one from before the operation.
            guard seen.insert("\(table)#\(id)").inserted else { continue }
            changes.append(Change(table: table, row: id, before: row[2], after: nil))
        }
        try db.execute(sql: "DELETE FROM operation_change")
        for index in changes.indices {
            changes[index].after = try image(db, table: changes[index].table, row: changes[index].row)
        }
        changes.removeAll { $0.before == $0.after }
        // An operation that changed nothing leaves nothing to undo.
        guard !changes.isEmpty || reverts != nil else { return }
        let json = String(decoding: try JSONEncoder.sortedKeys.encode(changes), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO operation (id, namespace, kind, summary, reverts, changes, created_at)
                VALUES ((SELECT \(RowIDs.nextSQL("operation"))), ?, ?, ?, ?, ?, ?)
                """, arguments: [namespace, kind.rawValue, summary, reverts, json, Date()])
    }

    /// The current image of a row, or `nil` when it does not exist; with `recorded`, only with
    /// the columns that earlier image holds, so the two compare.
    static func image(_ db: Database, table name: String, row: Int64, shapedLike recorded: String? = nil) throws
        -> String?
    {
        guard let tracked = TrackedTable.named(name) else { throw corrupt("unknown table \(name)") }
        let table = tracked.shaped(like: recorded)
        return try String.fetchOne(
            db, sql: "SELECT \(table.image(of: table.name)) FROM \(table.name) WHERE \(table.key) = ?",
            arguments: [row])
    }

    // MARK: Reading

    static func list(_ db: Database, namespace: String, limit: Int) throws -> [OperationRecord] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT operation.id, operation.kind, operation.summary, operation.created_at, operation.changes,
                       operation.reverts, undo.id AS undone_by
                FROM operation LEFT JOIN operation AS undo ON undo.reverts = operation.id
                WHERE operation.namespace = ? ORDER BY operation.id DESC LIMIT ?
                """, arguments: [namespace, limit]
        ).map(record(row:))
    }

    /// The newest operation of the namespace that is not an undo and has not been undone.
    static func latestUndoable(_ db: Database, namespace: String) throws -> Int64? {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT operation.id FROM operation
                WHERE namespace = ? AND kind != ? AND NOT EXISTS (SELECT 1 FROM operation AS undo WHERE undo.reverts = operation.id)
                ORDER BY operation.id DESC LIMIT 1
                """, arguments: [namespace, OperationRecord.Kind.undo.rawValue])
    }

    /// The namespace's operations recorded before `cutoff`: the undo records a purge drops.
    static func ids(_ db: Database, namespace: String, recordedBefore cutoff: Date) throws -> [Int64] {
        try Int64.fetchAll(
            db, sql: "SELECT id FROM operation WHERE namespace = ? AND created_at < ?",
            arguments: [namespace, cutoff])
    }

    static func find(_ db: Database, namespace: String, id: Int64) throws -> OperationRecord? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT operation.id, operation.kind, operation.summary, operation.created_at, operation.changes,
                       operation.reverts, undo.id AS undone_by
                FROM operation LEFT JOIN operation AS undo ON undo.reverts = operation.id
                WHERE operation.namespace = ? AND operation.id = ?
                """, arguments: [namespace, id]
        ).map(record(row:))
    }

    private static func record(row: Row) -> OperationRecord {
        let changes = (try? JSONDecoder().decode([Change].self, from: Data((row["changes"] as String).utf8))) ?? []
        return OperationRecord(
            id: row["id"], kind: OperationRecord.Kind(rawValue: row["kind"]) ?? .undo, summary: row["summary"],
            date: row["created_at"], changedRows: changes.count, revertedOperationID: row["reverts"],
            undoneBy: row["undone_by"])
    }

    static func changes(_ db: Database, id: Int64) throws -> [Change] {
        guard let json = try String.fetchOne(db, sql: "SELECT changes FROM operation WHERE id = ?", arguments: [id])
        else { return [] }
        return try JSONDecoder().decode([Change].self, from: Data(json.utf8))
    }
}
