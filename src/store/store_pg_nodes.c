/*
 * store_pg_nodes.c - several nodes on one PostgreSQL database: the nodes'
 * rows, the tables' leases, the fence of every write for a table, the
 * shared lobby, and what a node asks of the others' sessions.
 *
 * A lease is three columns of the tables row: owner (a node's name), epoch
 * (one more every time the lease is taken) and lease_until.  Its time is
 * the database's, clock_timestamp(): the nodes' own clocks never enter
 * into it, so a node whose clock is wrong still sees leases run out when
 * the others do.  (clock_timestamp() rather than now(): now() is the start
 * of the transaction, the same for every statement of it.)
 *
 * The store keeps the epochs of the leases it took (p->leases, sorted by
 * table), and every write for a table carries its epoch: the statement
 * writes only when the tables row still has it, with that row locked (FOR
 * SHARE, or the UPDATE itself), so that a write and another node's
 * lease_take are serialised on the row.  A write that finds the epoch moved
 * on writes nothing and returns STORE_FENCED, and the store forgets that
 * lease for good.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_pg_internal.h"

/* ------------------------------------------------------- the leases held */

/* The index of table in p->leases, or where it would go (*found false). */
static size_t lease_find(const pg_store *p, int64_t table, bool *found)
{
    size_t lo = 0, hi = p->n_leases;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->leases[mid].table < table)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < p->n_leases && p->leases[lo].table == table;
    return lo;
}

int pg_lease_keep(pg_store *p, int64_t table, int64_t epoch)
{
    bool found;
    size_t at = lease_find(p, table, &found);
    if (found) {
        p->leases[at].epoch = epoch;
        return 0;
    }
    if (p->n_leases == p->cap_leases) {
        size_t cap = p->cap_leases ? 2 * p->cap_leases : 16;
        pg_lease *grown = realloc(p->leases, cap * sizeof *grown);
        if (!grown) {
            pg_failf(p, "out of memory keeping the lease of table %" PRId64, table);
            return -1;
        }
        p->leases = grown;
        p->cap_leases = cap;
    }
    memmove(&p->leases[at + 1], &p->leases[at], (p->n_leases - at) * sizeof p->leases[0]);
    p->leases[at] = (pg_lease){.table = table, .epoch = epoch};
    p->n_leases++;
    return 0;
}

void pg_lease_forget(pg_store *p, int64_t table)
{
    bool found;
    size_t at = lease_find(p, table, &found);
    if (!found)
        return;
    memmove(&p->leases[at], &p->leases[at + 1], (p->n_leases - at - 1) * sizeof p->leases[0]);
    p->n_leases--;
}

int64_t pg_epoch(const pg_store *p, int64_t table)
{
    bool found;
    size_t at = lease_find(p, table, &found);
    return found ? p->leases[at].epoch : 0;
}

bool pg_fence(pg_store *p, int64_t table, char buf[24])
{
    buf[0] = '\0';
    if (!p->joined)
        return true;
    int64_t epoch = pg_epoch(p, table);
    if (epoch == 0) {
        pg_failf(p, "table %" PRId64 " is not node %s's: it holds no lease on it", table, p->node);
        return false;
    }
    pg_i64(epoch, buf);
    return true;
}

int pg_fenced(pg_store *p, int64_t table)
{
    pg_failf(p,
             "table %" PRId64 " is no longer node %s's: its lease was taken by another node, "
             "and nothing was written",
             table, p->node);
    pg_lease_forget(p, table);
    return STORE_FENCED;
}

/* The lease's length as a parameter, in milliseconds. */
#define LEASE_FOR "clock_timestamp() + $%d::bigint * interval '1 millisecond'"

static bool need_joined(pg_store *p, const char *what)
{
    if (p->joined)
        return true;
    pg_failf(p, "%s: this store has not joined as a node (node_join)", what);
    return false;
}

/* ------------------------------------------------------------- the nodes */

int pg_node_join(store *s, const char *name, const char *url, int lease_ms)
{
    pg_store *p = pg_of(s);
    if (!name || !name[0] || strlen(name) >= sizeof p->node || lease_ms <= 0) {
        pg_failf(p, "a node needs a name of 1 to %zu bytes and a lease of some time",
                 sizeof p->node - 1);
        return -1;
    }
    const char *params[2] = {name, url};
    if (pg_do(p, "could not write the node's row",
              "INSERT INTO nodes(name, url, seen) VALUES ($1, $2, clock_timestamp()) "
              "ON CONFLICT (name) DO UPDATE SET url = excluded.url, seen = excluded.seen",
              2, params) < 0)
        return -1;
    snprintf(p->node, sizeof p->node, "%s", name);
    p->lease_ms = lease_ms;
    p->joined = true;
    /* The lock and idle timeouts from now on follow the lease. */
    return pg_timeouts(p);
}

int pg_node_url(store *s, const char *name, char *url, size_t cap)
{
    pg_store *p = pg_of(s);
    const char *params[1] = {name};
    PGresult *r = pg_run(p, "could not read a node's URL", "SELECT url FROM nodes WHERE name = $1",
                         1, params);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found && cap)
        snprintf(url, cap, "%s", pg_get_text(r, 0, 0) ? pg_get_text(r, 0, 0) : "");
    PQclear(r);
    return found;
}

/* ------------------------------------------------------------ the leases */

int pg_lease_take(store *s, int64_t table, int64_t *epoch)
{
    pg_store *p = pg_of(s);
    if (!need_joined(p, "could not take a lease"))
        return -1;
    char tid[24], ms[24];
    const char *params[3] = {pg_i64(table, tid), p->node, pg_i64(p->lease_ms, ms)};
    /* The UPDATE locks the row: a write of the former holder that is under
     * way finishes first (its FOR SHARE), one that comes after finds the
     * new epoch and is fenced. */
    PGresult *r = pg_run(p, "could not take a lease",
                         "UPDATE tables SET owner = $2, epoch = epoch + 1, "
                         "lease_until = clock_timestamp() + $3::bigint * interval '1 millisecond' "
                         "WHERE id = $1 AND (owner IS NULL OR owner = $2 OR lease_until IS NULL "
                         "OR lease_until < clock_timestamp()) RETURNING epoch",
                         3, params);
    if (!r) {
        /* The row stayed locked past lock_timeout: by a write of the
         * holder, or by a node cut off inside a transaction, until the
         * database ends its session.  Not taken now; the next tick tries
         * again, and the loop that called this carries on meanwhile. */
        if (strcmp(p->sqlstate, "55P03") == 0)
            return 0;
        return -1;
    }
    int taken = PQntuples(r) > 0;
    int64_t got = taken ? pg_get_i64(r, 0, 0) : 0;
    PQclear(r);
    if (!taken) {
        /* Another node holds it: whatever epoch this store had is stale. */
        pg_lease_forget(p, table);
        return 0;
    }
    if (pg_lease_keep(p, table, got) < 0)
        return -1;
    if (epoch)
        *epoch = got;
    return 1;
}

/* The leases held as two array literals, "{1,2}" and "{3,1}". */
static char *lease_array(const pg_store *p, bool epochs)
{
    size_t cap = 3 + p->n_leases * 21;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    size_t used = 0;
    text[used++] = '{';
    for (size_t k = 0; k < p->n_leases; k++)
        used += (size_t)snprintf(text + used, cap - used, "%s%" PRId64, k ? "," : "",
                                 epochs ? p->leases[k].epoch : p->leases[k].table);
    snprintf(text + used, cap - used, "}");
    return text;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int pg_leases_renew(store *s, void (*fn)(void *ctx, int64_t table), void *ctx)
{
    pg_store *p = pg_of(s);
    if (!need_joined(p, "could not renew the leases"))
        return -1;
    char *tables = lease_array(p, false), *epochs = lease_array(p, true);
    if (!tables || !epochs) {
        free(tables);
        free(epochs);
        pg_failf(p, "out of memory renewing the leases");
        return -1;
    }
    char ms[24];
    const char *params[4] = {p->node, tables, epochs, pg_i64(p->lease_ms, ms)};
    /* One statement: every lease still at the epoch this store took is
     * renewed (even one that ran out, if nobody took it since: no other
     * node can have written under it), and the node's row is seen. */
    PGresult *r = pg_run(p, "could not renew the leases",
                         "WITH held(id, epoch) AS (SELECT * FROM unnest($2::bigint[], "
                         "$3::bigint[])), "
                         "seen AS (UPDATE nodes SET seen = clock_timestamp() WHERE name = $1) "
                         "UPDATE tables t SET lease_until = clock_timestamp() + "
                         "$4::bigint * interval '1 millisecond' FROM held "
                         "WHERE t.id = held.id AND t.epoch = held.epoch AND t.owner = $1 "
                         "RETURNING t.id",
                         4, params);
    free(tables);
    free(epochs);
    if (!r)
        return -1;
    /* The leases not renewed are lost: forgotten before the callbacks, so
     * that a write a callback makes is fenced. */
    int n = PQntuples(r);
    int64_t *kept = malloc((size_t)(n ? n : 1) * sizeof *kept);
    int64_t *lost = malloc((p->n_leases ? p->n_leases : 1) * sizeof *lost);
    if (!kept || !lost) {
        free(kept);
        free(lost);
        PQclear(r);
        pg_failf(p, "out of memory renewing the leases");
        return -1;
    }
    for (int k = 0; k < n; k++)
        kept[k] = pg_get_i64(r, k, 0);
    PQclear(r);
    /* Both in table order, walked together: a node may hold thousands. */
    qsort(kept, (size_t)n, sizeof *kept, cmp_i64);
    size_t n_lost = 0;
    int j = 0;
    for (size_t k = 0; k < p->n_leases; k++) {
        while (j < n && kept[j] < p->leases[k].table)
            j++;
        if (j == n || kept[j] != p->leases[k].table)
            lost[n_lost++] = p->leases[k].table;
    }
    for (size_t k = 0; k < n_lost; k++)
        pg_lease_forget(p, lost[k]);
    for (size_t k = 0; k < n_lost; k++)
        if (fn)
            fn(ctx, lost[k]);
    free(kept);
    free(lost);
    return 0;
}

int pg_lease_release(store *s, int64_t table)
{
    pg_store *p = pg_of(s);
    if (!need_joined(p, "could not release a lease"))
        return -1;
    int64_t epoch = pg_epoch(p, table);
    if (epoch == 0)
        return 0; /* not held: nothing to give up */
    char tid[24], ep[24];
    const char *params[3] = {pg_i64(table, tid), p->node, pg_i64(epoch, ep)};
    pg_lease_forget(p, table);
    return pg_do(p, "could not release a lease",
                 "UPDATE tables SET lease_until = NULL WHERE id = $1 AND owner = $2 "
                 "AND epoch = $3::bigint",
                 3, params);
}

int pg_leases_orphaned(store *s, int limit, void (*fn)(void *ctx, int64_t table), void *ctx)
{
    pg_store *p = pg_of(s);
    if (!pg_load_enter(p, PG_LOAD_ORPHANED, "leases_orphaned"))
        return -1;
    char *held = lease_array(p, false);
    char lim[24];
    const char *params[3] = {p->joined ? p->node : "", held, pg_i64(limit, lim)};
    /* A lease that ran out or was never taken; and this node's own lease
     * that this store does not hold: a previous run of the node, stopped
     * before its lease ran out. */
    PGresult *r = held ? pg_run(p, "could not find the orphaned tables",
                                "SELECT id FROM tables WHERE state <> 2 AND (owner IS NULL "
                                "OR lease_until IS NULL OR lease_until < clock_timestamp() "
                                "OR (owner = $1 AND NOT id = ANY($2::bigint[]))) "
                                "ORDER BY id LIMIT $3",
                                3, params)
                       : NULL;
    if (!held)
        pg_failf(p, "out of memory finding the orphaned tables");
    free(held);
    if (r) {
        for (int k = 0; k < PQntuples(r); k++)
            fn(ctx, pg_get_i64(r, k, 0));
        PQclear(r);
    }
    pg_load_leave(p, PG_LOAD_ORPHANED);
    return r ? 0 : -1;
}

int pg_table_owner(store *s, int64_t table, char *node, size_t ncap, char *url, size_t ucap)
{
    pg_store *p = pg_of(s);
    char tid[24];
    const char *params[1] = {pg_i64(table, tid)};
    PGresult *r = pg_run(p, "could not read a table's owner",
                         "SELECT t.owner, n.url FROM tables t LEFT JOIN nodes n ON n.name = "
                         "t.owner WHERE t.id = $1 AND t.owner IS NOT NULL "
                         "AND t.lease_until >= clock_timestamp()",
                         1, params);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found) {
        if (ncap)
            snprintf(node, ncap, "%s", pg_get_text(r, 0, 0));
        if (ucap)
            snprintf(url, ucap, "%s", pg_get_text(r, 0, 1) ? pg_get_text(r, 0, 1) : "");
    }
    PQclear(r);
    return found;
}

/* ------------------------------------------------------ the shared lobby */

/* The lock that orders the lobby's writes (any constant of ours): taken
 * before a row draws its version and held until its commit, so that the
 * versions commit in the order they were drawn and a reader that has seen
 * version v will never later find a row below v committed after it. */
#define LISTED_LOCK "452983468662"

int pg_listed_put(store *s, int64_t table, const char *summary)
{
    pg_store *p = pg_of(s);
    char fence[24], tid[24];
    if (!pg_fence(p, table, fence))
        return STORE_FENCED;
    const char *params[4] = {pg_i64(table, tid), summary ? summary : "", p->joined ? p->node : NULL,
                             fence};
    PGresult *r = pg_run(p, "could not write the table's lobby summary",
                         "WITH f AS (SELECT id, pg_advisory_xact_lock(" LISTED_LOCK ") FROM tables "
                         "WHERE id = $1 AND ($4 = '' OR epoch = $4::bigint) FOR SHARE) "
                         "INSERT INTO listed(table_id, node, summary, version) "
                         "SELECT $1, $3, $2, nextval('listed_version') FROM f "
                         "ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, "
                         "summary = excluded.summary, version = excluded.version",
                         4, params);
    if (!r)
        return -1;
    bool written = strcmp(PQcmdTuples(r), "0") != 0;
    PQclear(r);
    if (written)
        return 0;
    if (fence[0])
        return pg_fenced(p, table);
    pg_failf(p, "could not write the lobby summary of table %" PRId64 ": there is no such table",
             table);
    return -1;
}

int pg_listed_load(store *s, int64_t after, void (*fn)(void *ctx, const store_listed *l), void *ctx)
{
    pg_store *p = pg_of(s);
    if (!pg_load_enter(p, PG_LOAD_LISTED, "listed_load"))
        return -1;
    char v[24];
    const char *params[1] = {pg_i64(after, v)};
    PGresult *r = pg_run(p, "could not load the lobby",
                         "SELECT table_id, node, summary, version FROM listed "
                         "WHERE version > $1 ORDER BY version",
                         1, params);
    if (r) {
        for (int k = 0; k < PQntuples(r); k++) {
            store_listed l = {
                .table = pg_get_i64(r, k, 0),
                .node = pg_get_text(r, k, 1) ? pg_get_text(r, k, 1) : "",
                .summary = pg_get_text(r, k, 2) ? pg_get_text(r, k, 2) : "",
                .version = pg_get_i64(r, k, 3),
            };
            fn(ctx, &l);
        }
        PQclear(r);
    }
    pg_load_leave(p, PG_LOAD_LISTED);
    return r ? 0 : -1;
}

/* ------------------------------------------------ the others' sessions */

int pg_session_get(store *s, const char *token, char *name, size_t cap)
{
    pg_store *p = pg_of(s);
    if (!token) {
        pg_failf(p, "a session is read by its id");
        return -1;
    }
    const char *params[1] = {token};
    PGresult *r = pg_run(p, "could not read a session",
                         "SELECT name FROM sessions WHERE token = $1", 1, params);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found && cap)
        snprintf(name, cap, "%s", pg_get_text(r, 0, 0));
    PQclear(r);
    return found;
}

int pg_seat_of(store *s, const char *token, int64_t *table)
{
    pg_store *p = pg_of(s);
    if (!token) {
        pg_failf(p, "a seat is found by its session's id");
        return -1;
    }
    const char *params[1] = {token};
    /* A session sits at one table at a time; should a damaged database
     * have two, the newest is the one its player came back for. */
    PGresult *r = pg_run(p, "could not find a session's seat",
                         "SELECT s.table_id FROM seats s JOIN tables t ON t.id = s.table_id "
                         "WHERE s.token = $1 AND t.state <> 2 ORDER BY s.table_id DESC LIMIT 1",
                         1, params);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found && table)
        *table = pg_get_i64(r, 0, 0);
    PQclear(r);
    return found;
}
