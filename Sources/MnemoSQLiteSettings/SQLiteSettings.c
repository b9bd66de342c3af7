#include "MnemoSQLiteSettings.h"

#include <sqlite3.h>

int mnemo_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
