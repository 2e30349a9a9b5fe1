/*
 * store_pg.c - the PostgreSQL store (issue 25, under way: this placeholder
 * refuses to open until the store lands).
 */
#include <stdio.h>

#include "store.h"

store *store_pg_open(const char *url, char *err, size_t cap)
{
    (void)url;
    snprintf(err, cap, "the PostgreSQL store is not built yet");
    return NULL;
}

store *store_pg_open_reader(const char *url, char *err, size_t cap)
{
    return store_pg_open(url, err, cap);
}
