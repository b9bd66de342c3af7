import Foundation
import GRDB

extension DatabaseFactory {
    /// Opens a database that must not, or cannot, be written: a file shipped inside an app
    /// bundle, on a read-only volume, or owned by someone else.
    ///
    /// Mnemo databases are in WAL mode, and SQLite opens a WAL database only where it can find
    /// or create the `-wal` and `-shm` files next to it, which a bundle never has. So the file is
    /// opened as `immutable` (SQLite then takes no locks and keeps the WAL index in memory); an
    /// immutable file must not change while open. Where SQLite was built without URI file
    /// names, it falls back to a plain read-only open.
    /// - Returns: the connection, and whether the file is immutable (no change can appear).
    static func openReadOnly(atPath path: String, configuration: Configuration) throws -> (
        queue: DatabaseQueue, immutable: Bool
    ) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw MnemoError.databaseUnusable(path: path, reason: "no such file")
        }
        var configuration = configuration
        configuration.readonly = true
        // A file written before facts had an expiry (schema v7) or goal fields (v8) cannot be
        // migrated here: a temporary view, which a read-only connection may create, shows its
        // facts with the columns every fact query reads, as facts that never expire and goals
        // that are active.
        configuration.prepareDatabase { db in
            guard try db.tableExists("fact") else { return }
            let present = Set(try db.columns(in: "fact").map(\.name))
            let missing = ["expires_at", "goal_status", "goal_progress", "target_date", "completed_at"].filter {
                !present.contains($0)
            }
            guard !missing.isEmpty else { return }
            let nulls = missing.map { "NULL AS \($0)" }.joined(separator: ", ")
            try db.execute(sql: "CREATE TEMP VIEW fact AS SELECT *, \(nulls) FROM main.fact")
        }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let uri =
            "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: uriPathAllowed) ?? absolute)
            + "?immutable=1"
        let opened: (DatabaseQueue, Bool)
        do {
            let queue = try DatabaseQueue(path: uri, configuration: configuration)
            try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
            opened = (queue, true)
        } catch {
            do {
                opened = (try DatabaseQueue(path: path, configuration: configuration), false)
            } catch {
                throw openingError(error, path: path)
            }
        }
        try opened.0.read { db in
            try checkSchema(db, path: path)
            guard try db.tableExists("fact") else {
                throw MnemoError.databaseUnusable(path: path, reason: "it holds no knowledge base yet")
            }
        }
        return opened
    }

    /// What a URI path may hold unescaped: `?`, `#` and `%` would end or change it.
    private static let uriPathAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))
}
