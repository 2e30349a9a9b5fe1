/*
 * store_pg_nodes_load.c - the nodes that joined the database, for the
 * server's Origin check (a page from one node may follow `moved` to
 * another): kept apart from store_pg_nodes.c, which the store's own work
 * changes, as the server's one need of it.
 */
#include "store_pg_internal.h"

int pg_nodes_load(store *s, void (*fn)(void *ctx, const char *name, const char *url), void *ctx)
{
    pg_store *p = pg_of(s);
    PGresult *r =
        pg_run(p, "could not read the nodes", "SELECT name, url FROM nodes ORDER BY name", 0, NULL);
    if (!r)
        return -1;
    for (int k = 0; k < PQntuples(r); k++) {
        const char *url = pg_get_text(r, k, 1);
        fn(ctx, pg_get_text(r, k, 0), url ? url : "");
    }
    PQclear(r);
    return 0;
}
