import MnemoSQLiteSettings

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

/// SQLite's settings for the whole process, applied once, before Mnemo opens its first
/// connection (see `DatabaseFactory.prepare(_:mmapSize:)`).
///
/// Only memory statistics, for now: SQLite counts the bytes it allocates under one mutex of the
/// process, which every search takes dozens of times. Under a server's load two threads
/// searching at once waited on each other there (7.9 `futex` calls per text search), for about
/// a tenth of a search's CPU. Without them `sqlite3_memory_used()` stays at zero and
/// `sqlite3_soft_heap_limit64()` has no effect, in the whole process; Mnemo uses neither.
package enum SQLiteProcessSettings {
    /// Whether SQLite still counts its memory: `true` only when SQLite had started before
    /// Mnemo's first connection (an app that opened a database of its own first).
    package static let keepsMemoryStatistics: Bool = mnemo_sqlite_disable_memory_statistics() != 0

    /// The version of the SQLite library the process runs, such as `3.40.1`.
    package static var version: String { String(cString: sqlite3_libversion()) }

    /// Applies the settings, once per process; later calls do nothing.
    static func apply() {
        _ = keepsMemoryStatistics
    }
}
