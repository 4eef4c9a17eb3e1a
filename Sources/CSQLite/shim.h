#ifndef PEERSHARE_CSQLITE_SHIM_H
#define PEERSHARE_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro Swift cannot import: SQLite copies the bound bytes.
static inline sqlite3_destructor_type peershare_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
/// Turns off SQLite's memory statistics, before its first connection (sqlite3_config is
/// variadic, which Swift cannot call): keeping them took a global mutex around every
/// allocation and free, and nothing reads them.
static inline int peershare_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
