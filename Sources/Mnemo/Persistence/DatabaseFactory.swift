import Foundation
import GRDB

/// Opens the database behind a ``KnowledgeBase`` and brings its schema up to date.
enum DatabaseFactory {
    static func openPool(atPath path: String) throws -> DatabasePool {
        let pool = try DatabasePool(path: path, configuration: configuration)
        try Schema.migrator.migrate(pool)
        return pool
    }

    static func openInMemory() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(configuration: configuration)
        try Schema.migrator.migrate(queue)
        return queue
    }

    /// The largest part of the file mapped into memory.
    static let mmapSize = 1 << 30

    private static var configuration: Configuration {
        var configuration = Configuration()
        // Another process (a second CLI, an app extension) may hold the write lock briefly.
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // Statement journals (an INSERT whose full-text trigger merges index segments writes
            // hundreds of pages) stay in memory instead of spilling to a file in /var/tmp, which
            // doubled the cost of ingest.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // Read pages through a memory map instead of one read() call each: full-text search
            // touches a few pages per match (index, column sizes, fact row), and at 100k facts
            // the system calls doubled its time. SQLite caps the value at its compile-time limit
            // and ignores it for in-memory databases.
            try db.execute(sql: "PRAGMA mmap_size = \(mmapSize)")
            try BM25Function.register(db)
        }
        return configuration
    }
}
