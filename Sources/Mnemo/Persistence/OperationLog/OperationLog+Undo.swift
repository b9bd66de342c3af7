import Foundation
import GRDB

extension OperationLog {
    /// Reverts operation `id`, recording the undo as an operation of its own.
    /// - Throws: ``MnemoError/notFound(_:)`` when there is no such operation,
    ///   ``MnemoError/conflict(_:)`` when it was already undone, a row it changed has changed
    ///   again since, or a fact it brings back has the content of a fact stored since.
    static func undo(_ db: Database, namespace: String, id: Int64) throws -> OperationRecord {
        guard let operation = try find(db, namespace: namespace, id: id) else {
            throw MnemoError.notFound(.operation(id))
        }
        if let undo = operation.undoneBy {
            throw MnemoError.conflict(.alreadyUndone(operation: id, by: undo))
        }
        let changes = try changes(db, id: id)
        for change in changes
        where try image(db, table: change.table, row: change.row, shapedLike: change.after) != change.after {
            throw MnemoError.conflict(.changedSince(operation: id, table: change.table, row: change.row))
        }
        // Rows come back in the reverse order of their first change; a row may briefly point
        // at one not restored yet, so foreign keys are checked at commit.
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        try record(db, namespace: namespace, kind: .undo, summary: "undid #\(id): \(operation.summary)", reverts: id) {
            for change in changes.reversed() {
                try restore(db, change)
            }
        }
        // A namespace keeps one fact per content (see `ContentKeyIndex`); the throw rolls back.
        for change in changes where change.table == "fact" && change.before != nil {
            guard
                let key = try String.fetchOne(
                    db.cachedStatement(sql: "SELECT content_key FROM fact WHERE id = ?"), arguments: [change.row])
            else { continue }
            if let other = try FactTable.find(db, namespace: namespace, contentKey: key, excluding: change.row) {
                throw MnemoError.conflict(.duplicateFact(existingID: other.id))
            }
        }
        try announceRestored(changes, db, namespace: namespace)
        guard let undo = try Int64.fetchOne(db, sql: "SELECT id FROM operation WHERE reverts = ?", arguments: [id]),
            let record = try find(db, namespace: namespace, id: undo)
        else {
            throw OperationLog.corrupt("operation #\(id) could not be undone")
        }
        return record
    }

    /// Tells the change feed which facts and topics the undo changed back; the history rows it
    /// restored or removed announce nothing themselves.
    private static func announceRestored(_ changes: [Change], _ db: Database, namespace: String) throws {
        var announced = Set<String>()
        let now = Date()
        for change in changes where announced.insert("\(change.table) \(change.row)").inserted {
            switch change.table {
            case "fact":
                try FeedTable.record(db, namespace: namespace, kind: .factRestored, factID: change.row, now: now)
            case "topic":
                try FeedTable.record(db, namespace: namespace, kind: .topicRestored, topicID: change.row, now: now)
            default: break
            }
        }
    }

    /// Writes a row back as it was before the operation: deleted if it did not exist.
    private static func restore(_ db: Database, _ change: Change) throws {
        guard let table = TrackedTable.named(change.table)?.shaped(like: change.before ?? change.after) else { return }
        guard let before = change.before else {
            try db.execute(sql: "DELETE FROM \(table.name) WHERE \(table.key) = ?", arguments: [change.row])
            return
        }
        var values: [(any DatabaseValueConvertible)?] = [before]
        if table.columns.contains(where: { $0.kind == .blob }) {
            values.append(try blob(in: before, table: table))
        }
        if change.after == nil {
            let names = table.columns.map(\.name).joined(separator: ", ")
            let expressions = table.columns.map(table.restored).joined(separator: ", ")
            try db.execute(
                sql: "INSERT INTO \(table.name) (\(names)) VALUES (\(expressions))",
                arguments: StatementArguments(values))
        } else {
            let assignments = table.columns.filter { $0.name != table.key }
                .map { "\($0.name) = \(table.restored($0))" }.joined(separator: ", ")
            values.append(change.row)
            let rowParameter = "?\(values.count)"
            try db.execute(
                sql: "UPDATE \(table.name) SET \(assignments) WHERE \(table.key) = \(rowParameter)",
                arguments: StatementArguments(values))
        }
    }

    /// The blob column of an image, decoded from hex.
    private static func blob(in image: String, table: TrackedTable) throws -> Data? {
        guard let column = table.columns.first(where: { $0.kind == .blob }),
            let object = try JSONSerialization.jsonObject(with: Data(image.utf8)) as? [String: Any],
            let hex = object[column.name] as? String
        else { return nil }
        var data = Data(capacity: hex.utf8.count / 2)
        var high: UInt8?
        for character in hex.utf8 {
            guard let nibble = character.hexNibble else { throw OperationLog.corrupt("bad hex in a row image") }
            if let first = high {
                data.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return data
    }
}

extension UInt8 {
    fileprivate var hexNibble: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
