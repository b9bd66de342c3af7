import Foundation
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

/// How a namespace's facts are found by their normalized content (``ValidatedFact/contentKey``):
/// through an index of a 64-bit hash of the key, `mnemo_content_hash(content_key)`, instead of
/// the key itself.
///
/// A content key is a fact's own words, so a new fact's key lands anywhere in its index. In a
/// model of a million facts, a unique index of the keys themselves (about 95 bytes an entry)
/// wrote some 6,900 pages for a batch of 5,000 new facts, where a whole batch of Mnemo's wrote
/// 9,600; an index of 8-byte hashes is a fifth the size, and the same batch writes 3,800 of its
/// pages. A million-fact load gained 14 % ("Content keys indexed by their hash" in the
/// ApproximateSearch article).
///
/// Two keys may share a hash, so the index is not unique: every lookup compares the keys of the
/// rows it finds, and the writers (``FactWriter``, ``FactUpdater``, sync, undo) keep one fact per
/// key in a namespace, as they already did when a unique index also refused a second one.
///
/// The function is part of the schema: every connection Mnemo opens registers it
/// (`DatabaseFactory.prepare`), and a tool of its own that writes the `fact` table (the `sqlite3`
/// shell, say) fails with "unknown function: mnemo_content_hash()". Reading needs no function.
enum ContentKeyIndex {
    /// The SQL function's name, as the index's expression spells it (frozen in migration v14).
    static let functionName = "mnemo_content_hash"

    /// The hash of a content key: FNV-1a of its UTF-8 bytes, as a signed 64-bit integer. Stored
    /// in the index, so it must never change (a migration would have to rebuild the index).
    static func hash(_ key: String) -> Int64 {
        var key = key
        return key.withUTF8 { Int64(bitPattern: FNV1a.hash($0)) }
    }

    /// Registers `mnemo_content_hash(text)` on the connection: deterministic and innocuous, so
    /// that an index may use it whatever the connection's `trusted_schema`.
    static func register(_ db: Database) throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let code = sqlite3_create_function_v2(
            db.sqliteConnection, functionName, 1, flags, nil,
            { context, _, arguments in
                guard let context, let argument = arguments?[0], sqlite3_value_type(argument) != SQLITE_NULL,
                    let text = sqlite3_value_text(argument)
                else { return sqlite3_result_null(context) }
                let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(argument)))
                sqlite3_result_int64(context, Int64(bitPattern: FNV1a.hash(bytes)))
            }, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(functionName)")
        }
    }

    /// The condition that finds a namespace's facts whose key is the bound one: the hash, which
    /// the index answers, then the key itself, which rules out another key of the same hash.
    /// Takes two parameters: the key's ``hash(_:)``, then the key.
    static let matchingCondition = "\(functionName)(fact.content_key) = ? AND fact.content_key = ?"
}
