/*
 * store_open.c - the store a --db value names: a PostgreSQL URL or a
 * SQLite file.
 */
#include <string.h>

#include "store.h"

bool store_is_pg(const char *db)
{
    return db && (strncmp(db, "postgresql://", 13) == 0 || strncmp(db, "postgres://", 11) == 0);
}

store *store_open(const char *db, char *err, size_t cap)
{
    return store_is_pg(db) ? store_pg_open(db, err, cap) : store_sqlite_open(db, err, cap);
}

store *store_open_reader(const char *db, char *err, size_t cap)
{
    return store_is_pg(db) ? store_pg_open_reader(db, err, cap)
                           : store_sqlite_open_reader(db, err, cap);
}
