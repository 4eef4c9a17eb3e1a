#ifndef PEERSHARE_CSQLITE_SHIM_H
#define PEERSHARE_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro Swift cannot import: SQLite copies the bound bytes.
static inline sqlite3_destructor_type peershare_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
