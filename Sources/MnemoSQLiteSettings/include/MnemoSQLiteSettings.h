#ifndef MNEMO_SQLITE_SETTINGS_H
#define MNEMO_SQLITE_SETTINGS_H

/// Turns off SQLite's memory statistics for the whole process (`SQLITE_CONFIG_MEMSTATUS`).
///
/// With them on, every allocation and free inside SQLite takes one process-wide mutex to count
/// bytes; two threads searching at once wait on each other there. SQLite accepts the setting only
/// before it initializes, that is before the process's first connection.
///
/// Swift cannot call `sqlite3_config`, a variadic function, hence this C function.
///
/// - Returns: SQLite's result code: 0 (`SQLITE_OK`) when the statistics are now off,
///   21 (`SQLITE_MISUSE`) when SQLite had already initialized and keeps them.
int mnemo_sqlite_disable_memory_statistics(void);

#endif
