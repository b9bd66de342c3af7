import Foundation
import GRDB

/// The checks that keep `DatabaseFactory` from writing to a file it must not change, and that
/// turn SQLite's failures to open a file into one line saying why and what to do.
extension DatabaseFactory {
    /// Refuses an SQLite database that is another application's, or one whose schema a newer
    /// version of Mnemo wrote (migrations only add, so an older version cannot know what the
    /// newer one relies on).
    static func checkSchema(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        guard !tables.isEmpty else { return } // A new, empty database.
        let known = Set(Schema.migrator.migrations)
        let applied = tables.contains("grdb_migrations") ? try Schema.migrator.appliedIdentifiers(db) : []
        guard !applied.isDisjoint(with: known) else {
            throw MnemoError.databaseUnusable(
                path: path, reason: "it is an SQLite database of another application, not a Mnemo knowledge base")
        }
        let unknown = applied.subtracting(known)
        guard unknown.isEmpty else {
            throw MnemoError.databaseUnusable(
                path: path,
                reason:
                    "it was written by a newer version of Mnemo (schema \"\(unknown.sorted().joined(separator: "\", \""))\"); upgrade mnemo to open it"
            )
        }
    }

    /// Explains a failure to open `path` for writing in terms of the file system.
    static func openingError(_ error: any Error, path: String) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let files = FileManager.default
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return MnemoError.databaseUnusable(path: path, reason: "it is not an SQLite database")
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            if files.fileExists(atPath: path), !files.isWritableFile(atPath: path) {
                return MnemoError.databaseUnusable(
                    path: path,
                    reason:
                        "the file is read-only; open it with KnowledgeBase(readingOnly:) (mnemo: --read-only) to search it"
                )
            }
            if !files.fileExists(atPath: folder) {
                return MnemoError.databaseUnusable(path: path, reason: "the folder \(folder) does not exist")
            }
            if !files.isWritableFile(atPath: folder) {
                return MnemoError.databaseUnusable(
                    path: path,
                    reason:
                        "the folder \(folder) is read-only, and SQLite must create its journal files (-wal, -shm) there; open it with KnowledgeBase(readingOnly:) (mnemo: --read-only) to search it"
                )
            }
            return MnemoError.databaseUnusable(
                path: path, reason: "SQLite cannot open it for writing (\(error.message ?? "\(error.resultCode)"))")
        case .SQLITE_FULL:
            return MnemoError.databaseUnusable(path: path, reason: "the disk is full")
        default:
            return error
        }
    }
}
