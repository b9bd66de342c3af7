import Foundation
import GRDB

/// What every connection to a Mnemo database needs.
enum DatabaseFactory {
    /// Opens the database file for reading and writing, creating it if needed, after checking
    /// that it is a Mnemo database this version can use (see `DatabaseFactory+Safety.swift`),
    /// and brings its schema up to date. `configuration` must have been prepared.
    ///
    /// A file that is not SQLite's is refused by SQLite itself (`SQLITE_NOTADB`), which reads
    /// the header before it writes anything. Mnemo never opens the file with a descriptor of its
    /// own: closing any descriptor of it drops every POSIX lock this process's connections hold
    /// on it, and another process closing the file then believes it is the last, checkpoints
    /// and deletes the `-wal` and `-shm` files these connections still write to.
    ///
    /// The writer's checkpoints run on a queue of their own (see ``LogCheckpointer``).
    static func openPool(atPath path: String, configuration: Configuration) throws -> DatabasePool {
        var configuration = configuration
        if !configuration.readonly {
            let checkpointer = LogCheckpointer(path: path, configuration: configuration)
            configuration.prepareDatabase { db in
                if !db.configuration.readonly { checkpointer.attach(to: db) }
            }
        }
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            try pool.read { db in try checkSchema(db, path: path) }
            try Schema.migrator.migrate(pool)
            return pool
        } catch let error as MnemoError {
            throw error
        } catch {
            throw openingError(error, path: path)
        }
    }

    /// The writer's page cache, in KiB: 32 MiB.
    static let writerCacheKiB = 32_768

    /// Adds Mnemo's connection setup to `configuration`, after any steps already there.
    static func prepare(_ configuration: inout Configuration, mmapSize: Int) {
        // Before any connection: SQLite takes process-wide settings only until it starts.
        SQLiteProcessSettings.apply()
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // Statement journals (an INSERT whose full-text trigger merges index segments writes
            // hundreds of pages) stay in memory instead of spilling to a file in /var/tmp, which
            // doubled the cost of ingest.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // Deleted rows and freed pages are overwritten with zeros, so that what an erase
            // removes (and what a delete, a merge or an index merge replaced) is not left
            // readable in the file (see `KnowledgeBase.eraseFacts(ids:)`).
            try db.execute(sql: "PRAGMA secure_delete = ON")
            // Read pages through a memory map instead of one read() call each: full-text search
            // touches a few pages per match (index, column sizes, fact row), and at 100k facts
            // the system calls doubled its time. SQLite caps the value at its compile-time limit
            // and ignores it for in-memory databases. (See `KnowledgeBase.Configuration.mmapSize`
            // for the price.)
            try db.execute(sql: "PRAGMA mmap_size = \(max(0, mmapSize))")
            if !db.configuration.readonly {
                // The writer keeps a bulk write's pages until the commit. With SQLite's 2 MB it
                // wrote most of them to the log before (and read them back), and a load of a
                // million facts ran 7 % slower. Pages are taken as needed, not at once.
                try db.execute(sql: "PRAGMA cache_size = -\(writerCacheKiB)")
            }
            try BM25Function.register(db)
            try ContentKeyIndex.register(db)
        }
    }
}
