/*
 * test_store_nodes.c - several nodes on one PostgreSQL database, through
 * the store (store.h, "nodes"): leases taken, renewed, run out and
 * adopted by another store on its own connection; every write of a store
 * that lost its lease fenced (STORE_FENCED, nothing written), also when it
 * races the lease_take; the shared lobby's versions; the sessions and
 * seats another node asks for; the schema's migration from version 1, a
 * newer version refused, and the reader that writes nothing.
 *
 * PostgreSQL only: the CTest fixture "pg" gives the cluster, each test
 * makes its own database.  Timing: leases of 300 ms where a lease must run
 * out, and every wait is a poll against a generous deadline, never a
 * sleep whose length is the assertion.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/socket.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "helpers.h"
#include "pg_test.h"
#include "store.h"
#include "store_pg_internal.h"

#define URL_CAP 512

static void fresh_db(char *url, size_t cap, const char *name)
{
    char db[48];
    snprintf(db, sizeof db, "nodes_%s", name);
    char *made = pg_test_db(db);
    if (!made)
        fail_msg("no PostgreSQL database %s", db);
    snprintf(url, cap, "%s", made);
    free(made);
}

static store *open_ok(const char *url)
{
    char err[256] = "";
    store *s = store_pg_open(url, err, sizeof err);
    if (!s)
        fail_msg("open: %s", err);
    return s;
}

/* A store joined as node `name`, its clients at ws://name/ws. */
static store *open_node(const char *url, const char *name, int lease_ms)
{
    store *s = open_ok(url);
    char public_url[64];
    snprintf(public_url, sizeof public_url, "ws://%s.example/ws", name);
    if (s->ops->node_join(s, name, public_url, lease_ms) != 0)
        fail_msg("node_join %s: %s", name, store_error(s));
    return s;
}

static int64_t new_table(store *s, int state)
{
    store_table t = {.preset = "uk", .house = "", .seed = 5, .options = "{}", .state = state};
    int64_t id = 0;
    if (s->ops->table_create(s, &t, &id) != 0)
        fail_msg("table_create: %s", store_error(s));
    return id;
}

/* Runs sql on its own connection; the first column of the first row as
 * text into out (when given). */
static void sql_value(const char *url, const char *sql, char *out, size_t cap)
{
    PGconn *conn = PQconnectdb(url);
    if (PQstatus(conn) != CONNECTION_OK)
        fail_msg("connect: %s", PQerrorMessage(conn));
    PGresult *r = PQexec(conn, sql);
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQerrorMessage(conn));
    if (out)
        snprintf(out, cap, "%s", st == PGRES_TUPLES_OK && PQntuples(r) ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    PQfinish(conn);
}

static int64_t sql_int(const char *url, const char *sql)
{
    char v[64];
    sql_value(url, sql, v, sizeof v);
    return strtoll(v, NULL, 10);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void pause_ms(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Polls lease_take until it is taken, for up to 20 s (a lease of 300 ms
 * runs out long before, on the busiest machine). */
static int64_t take_when_free(store *s, int64_t table)
{
    double until = now_s() + 20;
    int64_t epoch = 0;
    int got;
    while ((got = s->ops->lease_take(s, table, &epoch)) == 0 && now_s() < until)
        pause_ms(20);
    if (got != 1)
        fail_msg("lease_take of table %" PRId64 " never succeeded: %d %s", table, got,
                 store_error(s));
    return epoch;
}

typedef struct ids {
    int64_t ids[16];
    int n;
} ids;

static void on_id(void *ctx, int64_t table)
{
    ids *v = ctx;
    assert_true(v->n < 16);
    v->ids[v->n++] = table;
}

static bool has_id(const ids *v, int64_t id)
{
    for (int k = 0; k < v->n; k++)
        if (v->ids[k] == id)
            return true;
    return false;
}

/* ------------------------------------------------------------- leases */

static void test_leases(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "leases");
    store *a = open_node(url, "a", 60000), *b = open_node(url, "b", 60000);
    /* A new table is its creator's at once, epoch 1. */
    int64_t t = new_table(a, STORE_WAITING);
    char node[64] = "", purl[128] = "";
    assert_int_equal(b->ops->table_owner(b, t, node, sizeof node, purl, sizeof purl), 1);
    assert_string_equal(node, "a");
    assert_string_equal(purl, "ws://a.example/ws");
    assert_int_equal(b->ops->node_url(b, "b", purl, sizeof purl), 1);
    assert_string_equal(purl, "ws://b.example/ws");
    assert_int_equal(b->ops->node_url(b, "nobody", purl, sizeof purl), 0);
    assert_int_equal(sql_int(url, "SELECT epoch FROM tables"), 1);
    /* b may not take a live lease; a may take its own again. */
    int64_t epoch = 0;
    assert_int_equal(b->ops->lease_take(b, t, &epoch), 0);
    assert_int_equal(a->ops->lease_take(a, t, &epoch), 1);
    assert_int_equal(epoch, 2);
    ids orphans = {0};
    assert_int_equal(b->ops->leases_orphaned(b, 10, on_id, &orphans), 0);
    assert_false(has_id(&orphans, t));
    /* Released: nobody holds it, b may adopt it. */
    assert_int_equal(a->ops->lease_release(a, t), 0);
    assert_int_equal(b->ops->table_owner(b, t, node, sizeof node, purl, sizeof purl), 0);
    assert_int_equal(b->ops->leases_orphaned(b, 10, on_id, &orphans), 0);
    assert_true(has_id(&orphans, t));
    assert_int_equal(b->ops->lease_take(b, t, &epoch), 1);
    assert_int_equal(epoch, 3); /* the epoch stayed through the release */
    assert_int_equal(a->ops->table_owner(a, t, node, sizeof node, purl, sizeof purl), 1);
    assert_string_equal(node, "b");
    /* A store that has not joined takes no lease. */
    store *alone = open_ok(url);
    assert_int_equal(alone->ops->lease_take(alone, t, &epoch), -1);
    assert_non_null(strstr(store_error(alone), "node_join"));
    store_close(alone);
    store_close(a);
    store_close(b);
}

static void test_renewal_and_expiry(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "expiry");
    store *a = open_node(url, "a", 300), *b = open_node(url, "b", 300);
    int64_t t1 = new_table(a, STORE_WAITING), t2 = new_table(a, STORE_PLAYING);
    /* Renewal moves every lease's end on, and the node's last sight, in
     * the database's time. */
    char before[64], after[64];
    sql_value(url, "SELECT max(lease_until)::text FROM tables", before, sizeof before);
    sql_value(url, "SELECT seen::text FROM nodes WHERE name = 'a'", after, sizeof after);
    char seen_before[64];
    snprintf(seen_before, sizeof seen_before, "%s", after);
    pause_ms(5);
    ids lost = {0};
    assert_int_equal(a->ops->leases_renew(a, on_id, &lost), 0);
    assert_int_equal(lost.n, 0);
    /* Compared as timestamps by the database, not as text. */
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT (SELECT min(lease_until) FROM tables) > '%s'::timestamptz "
             "AND (SELECT seen FROM nodes WHERE name = 'a') > '%s'::timestamptz",
             before, seen_before);
    sql_value(url, sql, after, sizeof after);
    assert_string_equal(after, "t");

    /* a stops renewing: its 300 ms run out and b takes t2. */
    int64_t epoch = take_when_free(b, t2);
    assert_int_equal(epoch, 2);
    /* a learns it at its next renewal, for t2 only, and is fenced there. */
    assert_int_equal(a->ops->leases_renew(a, on_id, &lost), 0);
    assert_int_equal(lost.n, 1);
    assert_int_equal(lost.ids[0], t2);
    char line[] = "x";
    assert_int_equal(a->ops->action_append(a, t2, 0, line), STORE_FENCED);
    /* t1 it still holds (nobody took it), though its lease ran out:
     * renewed, and written. */
    assert_int_equal(a->ops->action_append(a, t1, 0, line), 0);
    char owner[64];
    snprintf(sql, sizeof sql, "SELECT owner || ' ' || epoch FROM tables WHERE id = %" PRId64, t1);
    sql_value(url, sql, owner, sizeof owner);
    assert_string_equal(owner, "a 1");
    store_close(a);
    store_close(b);
}

/* A node killed while it held leases: another adopts its tables once the
 * leases run out, and the same node started again adopts its own at once. */
static void test_adoption(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "adoption");
    store *a = open_node(url, "a", 300);
    int64_t waiting = new_table(a, STORE_WAITING), playing = new_table(a, STORE_PLAYING);
    int64_t over = new_table(a, STORE_OVER);
    store_close(a); /* as if killed: nothing released */

    /* The same node again, a second later or at once: its own tables, even
     * under a live lease, for the store holds none of them. */
    store *a2 = open_node(url, "a", 60000);
    ids orphans = {0};
    assert_int_equal(a2->ops->leases_orphaned(a2, 10, on_id, &orphans), 0);
    assert_true(has_id(&orphans, waiting));
    assert_true(has_id(&orphans, playing));
    assert_false(has_id(&orphans, over)); /* a game over is nobody's to adopt */
    int64_t epoch = 0;
    assert_int_equal(a2->ops->lease_take(a2, waiting, &epoch), 1);
    assert_int_equal(epoch, 2);
    /* Once held, no longer orphaned; the limit counts. */
    memset(&orphans, 0, sizeof orphans);
    assert_int_equal(a2->ops->leases_orphaned(a2, 10, on_id, &orphans), 0);
    assert_false(has_id(&orphans, waiting));
    assert_true(has_id(&orphans, playing));
    memset(&orphans, 0, sizeof orphans);
    assert_int_equal(a2->ops->leases_orphaned(a2, 0, on_id, &orphans), 0);
    assert_int_equal(orphans.n, 0);

    /* Another node: playing's lease (300 ms, a's first run) runs out. */
    store *b = open_node(url, "b", 60000);
    double until = now_s() + 20;
    do {
        memset(&orphans, 0, sizeof orphans);
        assert_int_equal(b->ops->leases_orphaned(b, 10, on_id, &orphans), 0);
    } while (!has_id(&orphans, playing) && now_s() < until && (pause_ms(20), true));
    assert_true(has_id(&orphans, playing));
    assert_false(has_id(&orphans, waiting)); /* a2's live lease */
    assert_int_equal(b->ops->lease_take(b, playing, &epoch), 1);
    assert_int_equal(b->ops->lease_take(b, waiting, &epoch), 0);
    store_close(a2);
    store_close(b);
}

/* ------------------------------------------------------------ fencing */

typedef struct counted {
    int n;
} counted;

static void count_action(void *ctx, uint32_t n, const char *text)
{
    (void)n;
    (void)text;
    ((counted *)ctx)->n++;
}

static void count_deal_player(void *ctx, const store_deal_player *p)
{
    (void)p;
    ((counted *)ctx)->n++;
}

static void count_listed(void *ctx, const store_listed *l)
{
    (void)l;
    ((counted *)ctx)->n++;
}

typedef struct seat_seen {
    char name[4][32];
    int state;
} seat_seen;

static void on_table_seats(void *ctx, const store_table *t, const store_seat seats[4])
{
    seat_seen *v = ctx;
    v->state = t->state;
    for (int k = 0; k < 4; k++)
        snprintf(v->name[k], sizeof v->name[k], "%s", seats[k].name ? seats[k].name : "");
}

typedef struct listed_seen {
    int n;
    int64_t table[8], version[8];
    char node[8][16], summary[8][64];
} listed_seen;

static void on_listed(void *ctx, const store_listed *l)
{
    listed_seen *v = ctx;
    assert_true(v->n < 8);
    v->table[v->n] = l->table;
    v->version[v->n] = l->version;
    snprintf(v->node[v->n], sizeof v->node[0], "%s", l->node);
    snprintf(v->summary[v->n], sizeof v->summary[0], "%s", l->summary);
    v->n++;
}

/* Every fenced write of store s for table t returns STORE_FENCED and
 * leaves what `check` reads as it was. */
static void all_fenced(store *s, store *check, int64_t t, int actions_before)
{
    store_seat seat = {.seat = 0, .name = "intruder", .token = "tok-i"};
    store_deal_player dp = {.deal = 0, .at = 0, .seat = 0, .name = "intruder"};
    assert_int_equal(s->ops->action_append(s, t, (uint32_t)actions_before, "late"), STORE_FENCED);
    assert_int_equal(s->ops->seat_put(s, t, &seat), STORE_FENCED);
    assert_int_equal(s->ops->table_set_state(s, t, STORE_OVER), STORE_FENCED);
    assert_int_equal(s->ops->deal_player_put(s, t, &dp), STORE_FENCED);
    assert_int_equal(s->ops->listed_put(s, t, "{\"stale\":true}"), STORE_FENCED);
    assert_true(strlen(store_error(s)) > 0);

    counted c = {0};
    assert_int_equal(check->ops->actions_load(check, t, count_action, &c), 0);
    assert_int_equal(c.n, actions_before);
    memset(&c, 0, sizeof c);
    assert_int_equal(check->ops->deal_players_load(check, t, count_deal_player, &c), 0);
    assert_int_equal(c.n, 0);
    listed_seen l = {0};
    assert_int_equal(check->ops->listed_load(check, 0, on_listed, &l), 0);
    for (int k = 0; k < l.n; k++)
        assert_string_not_equal(l.summary[k], "{\"stale\":true}");
    seat_seen v = {0};
    assert_int_equal(check->ops->table_get(check, t, on_table_seats, &v), 1);
    assert_string_not_equal(v.name[0], "intruder");
    assert_int_not_equal(v.state, STORE_OVER);
}

static void test_fencing(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "fencing");
    store *a = open_node(url, "a", 300), *b = open_node(url, "b", 60000);
    int64_t t = new_table(a, STORE_PLAYING);
    /* While a holds it, its writes go in, each with its epoch. */
    store_seat seat = {.seat = 1, .name = "alice", .token = "tok-a"};
    assert_int_equal(a->ops->seat_put(a, t, &seat), 0);
    assert_int_equal(a->ops->action_append(a, t, 0, "first"), 0);
    assert_int_equal(a->ops->action_append(a, t, 1, "second"), 0);
    assert_int_equal(a->ops->listed_put(a, t, "{\"t\":1}"), 0);
    assert_int_equal(sql_int(url, "SELECT count(*) FROM actions WHERE epoch = 1"), 2);
    /* b adopts the table once a's lease runs out (a does not renew). */
    assert_int_equal(take_when_free(b, t), 2);
    all_fenced(a, b, t, 2);
    /* Fenced once, fenced for good: a forgot the lease. */
    assert_int_equal(a->ops->action_append(a, t, 2, "again"), STORE_FENCED);
    counted c = {0};
    assert_int_equal(b->ops->listed_load(b, 0, count_listed, &c), 0);
    assert_int_equal(c.n, 1);
    /* b writes on under epoch 2. */
    assert_int_equal(b->ops->action_append(b, t, 2, "third"), 0);
    assert_int_equal(sql_int(url, "SELECT epoch FROM actions WHERE n = 2"), 2);
    /* A joined store that never held a table's lease may not write to it. */
    store *c2 = open_node(url, "c", 60000);
    all_fenced(c2, b, t, 3);
    store_close(c2);
    store_close(a);
    store_close(b);
}

typedef struct racer {
    store *s;
    int64_t table;
    int rc;
} racer;

static void *append_one(void *arg)
{
    racer *r = arg;
    r->rc = r->s->ops->action_append(r->s, r->table, 1, "racing");
    return NULL;
}

typedef struct taking {
    store *s;
    int64_t table, epoch;
    int rc;
} taking;

static void *take_one(void *arg)
{
    taking *t = arg;
    t->rc = t->s->ops->lease_take(t->s, t->table, &t->epoch);
    return NULL;
}

/* Whether a backend other than ours waits for a lock. */
static bool someone_waits(const char *url)
{
    char v[32];
    sql_value(url,
              "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
              "AND datname = current_database()",
              v, sizeof v);
    return atoi(v) > 0;
}

/* A write that comes while another node's lease_take holds the tables row
 * waits for it, then finds the new epoch: fenced, nothing written.  The
 * lease_take is held open in a transaction of a second connection, so
 * that the order is certain rather than a matter of luck. */
static void test_write_racing_take(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "race");
    store *a = open_node(url, "a", 60000);
    int64_t t = new_table(a, STORE_PLAYING);
    assert_int_equal(a->ops->action_append(a, t, 0, "zero"), 0);

    PGconn *taker = PQconnectdb(url);
    assert_int_equal(PQstatus(taker), CONNECTION_OK);
    PQclear(PQexec(taker, "BEGIN"));
    /* lease_take's statement, as node b would send it once a's lease ran
     * out (forced here). */
    PGresult *r = PQexec(taker, "UPDATE tables SET owner = 'b', epoch = epoch + 1, "
                                "lease_until = clock_timestamp() + interval '1 minute'");
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);

    racer w = {.s = a, .table = t, .rc = 99};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, append_one, &w), 0);
    double until = now_s() + 20;
    while (!someone_waits(url) && now_s() < until)
        pause_ms(10);
    assert_true(someone_waits(url));
    r = PQexec(taker, "COMMIT");
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    pthread_join(thread, NULL);
    assert_int_equal(w.rc, STORE_FENCED);
    assert_int_equal(sql_int(url, "SELECT count(*) FROM actions"), 1);

    /* The other way round: b's write under way (its share lock on the row
     * held in a transaction, as the write's own statement holds it) makes
     * a's lease_take wait, and lands before it under b's epoch. */
    store *b = open_node(url, "b", 60000);
    int64_t t2 = new_table(b, STORE_PLAYING);
    char sql[200];
    snprintf(sql, sizeof sql, "UPDATE tables SET lease_until = NULL WHERE id = %" PRId64, t2);
    sql_value(url, sql, NULL, 0); /* b's lease out, as if run out */
    PQclear(PQexec(taker, "BEGIN"));
    snprintf(sql, sizeof sql, "SELECT 1 FROM tables WHERE id = %" PRId64 " AND epoch = 1 FOR SHARE",
             t2);
    r = PQexec(taker, sql);
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_int_equal(PQntuples(r), 1);
    PQclear(r);
    taking tk = {.s = a, .table = t2, .rc = 99};
    assert_int_equal(pthread_create(&thread, NULL, take_one, &tk), 0);
    until = now_s() + 20;
    while (!someone_waits(url) && now_s() < until)
        pause_ms(10);
    assert_true(someone_waits(url));
    snprintf(sql, sizeof sql,
             "INSERT INTO actions(table_id, n, text, epoch) VALUES (%" PRId64 ", 0, 'b', 1)", t2);
    r = PQexec(taker, sql);
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    PQclear(PQexec(taker, "COMMIT"));
    pthread_join(thread, NULL);
    assert_int_equal(tk.rc, 1);
    assert_int_equal(tk.epoch, 2);
    PQfinish(taker);
    snprintf(sql, sizeof sql, "SELECT epoch FROM actions WHERE table_id = %" PRId64, t2);
    assert_int_equal(sql_int(url, sql), 1);
    /* From now on b is fenced, a writes. */
    assert_int_equal(b->ops->action_append(b, t2, 1, "late"), STORE_FENCED);
    assert_int_equal(a->ops->action_append(a, t2, 1, "a's"), 0);
    store_close(a);
    store_close(b);
}

/* --------------------------------------------------------- the lobby */

static void test_listed_versions(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "listed");
    store *a = open_node(url, "a", 60000), *b = open_node(url, "b", 60000);
    int64_t t1 = new_table(a, STORE_WAITING), t2 = new_table(b, STORE_WAITING);
    assert_int_equal(a->ops->listed_put(a, t1, "{\"id\":1}"), 0);
    assert_int_equal(b->ops->listed_put(b, t2, "{\"id\":2}"), 0);
    listed_seen v = {0};
    assert_int_equal(a->ops->listed_load(a, 0, on_listed, &v), 0);
    assert_int_equal(v.n, 2);
    assert_int_equal(v.table[0], t1);
    assert_string_equal(v.node[0], "a");
    assert_int_equal(v.table[1], t2);
    assert_string_equal(v.node[1], "b");
    assert_true(v.version[1] > v.version[0]);
    int64_t seen = v.version[1];
    /* Nothing new: nothing handed.  Then t1 changes, t2 closes. */
    memset(&v, 0, sizeof v);
    assert_int_equal(b->ops->listed_load(b, seen, on_listed, &v), 0);
    assert_int_equal(v.n, 0);
    assert_int_equal(a->ops->listed_put(a, t1, "{\"id\":1,\"n\":2}"), 0);
    assert_int_equal(b->ops->listed_put(b, t2, ""), 0);
    assert_int_equal(b->ops->listed_load(b, seen, on_listed, &v), 0);
    assert_int_equal(v.n, 2);
    assert_int_equal(v.table[0], t1);
    assert_string_equal(v.summary[0], "{\"id\":1,\"n\":2}");
    assert_int_equal(v.table[1], t2);
    assert_string_equal(v.summary[1], ""); /* closed */
    assert_true(v.version[0] > seen && v.version[1] > v.version[0]);
    /* Only the latest row of each table is kept. */
    memset(&v, 0, sizeof v);
    assert_int_equal(a->ops->listed_load(a, 0, on_listed, &v), 0);
    assert_int_equal(v.n, 2);
    /* b may not write a's table's summary. */
    assert_int_equal(b->ops->listed_put(b, t1, "{}"), STORE_FENCED);
    store_close(a);
    store_close(b);
}

/* ----------------------------------------------- sessions and seats */

static void test_sessions_and_seats(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "sessions");
    store *a = open_node(url, "a", 60000), *b = open_node(url, "b", 60000);
    char name[64] = "";
    assert_int_equal(a->ops->session_put(a, "hash-alice", "alice"), 0);
    assert_int_equal(b->ops->session_get(b, "hash-alice", name, sizeof name), 1);
    assert_string_equal(name, "alice");
    assert_int_equal(b->ops->session_get(b, "hash-nobody", name, sizeof name), 0);

    int64_t t = new_table(a, STORE_PLAYING), table = 0;
    assert_int_equal(b->ops->seat_of(b, "hash-alice", &table), 0);
    store_seat seat = {.seat = 2, .name = "alice", .token = "hash-alice"};
    assert_int_equal(a->ops->seat_put(a, t, &seat), 0);
    assert_int_equal(b->ops->seat_of(b, "hash-alice", &table), 1);
    assert_int_equal(table, t);
    /* A game over seats nobody. */
    assert_int_equal(a->ops->table_set_state(a, t, STORE_OVER), 0);
    assert_int_equal(b->ops->seat_of(b, "hash-alice", &table), 0);
    store_close(a);
    store_close(b);
}

/* ------------------------------------------------------------ schema */

static void on_action_text(void *ctx, uint32_t n, const char *text)
{
    char *out = ctx;
    size_t used = strlen(out);
    snprintf(out + used, 256 - used, "%u=%s;", n, text);
}

static void test_migration_1_to_2(void **state)
{
    (void)state;
    char url[URL_CAP], err[256] = "";
    fresh_db(url, sizeof url, "migrate");
    store *old = store_pg_open_version(url, 1, err, sizeof err);
    if (!old)
        fail_msg("version 1: %s", err);
    /* Its rows as barbu wrote them then (the store of today writes the
     * columns of version 2). */
    store_close(old);
    sql_value(url,
              "INSERT INTO tables(preset, house, seed, options, state, created) "
              "VALUES ('uk', '', '5', '{}', 1, 1);"
              "INSERT INTO actions(table_id, n, text) VALUES (1, 0, 'zero'), (1, 1, 'one');"
              "INSERT INTO sessions VALUES ('hash-bob', 'bob', 1);"
              "INSERT INTO accounts(key, name, hash, created) VALUES ('bob', 'Bob', 'h', 1)",
              NULL, 0);
    int64_t t = 1;
    assert_int_equal(sql_int(url, "SELECT value::int FROM barbu_meta"), 1);
    assert_int_equal(sql_int(url, "SELECT count(*) FROM pg_tables WHERE tablename = 'nodes'"), 0);

    /* Nodes starting at once migrate it once between them. */
    store *s[3];
    for (int k = 0; k < 3; k++)
        s[k] = open_ok(url);
    assert_int_equal(sql_int(url, "SELECT value::int FROM barbu_meta"), 3);
    assert_int_equal(sql_int(url, "SELECT count(*) FROM pg_tables WHERE tablename = 'nodes'"), 1);
    char texts[256] = "";
    assert_int_equal(s[0]->ops->actions_load(s[0], t, on_action_text, texts), 0);
    assert_string_equal(texts, "0=zero;1=one;");
    assert_int_equal(sql_int(url, "SELECT sum(epoch) FROM actions"), 0);
    char name[32];
    assert_int_equal(s[1]->ops->session_get(s[1], "hash-bob", name, sizeof name), 1);
    store_account acc;
    assert_int_equal(s[1]->ops->account_get(s[1], "bob", &acc), 1);
    assert_string_equal(acc.name, "Bob");
    /* The old table is adoptable, and plays on under a lease. */
    assert_int_equal(s[2]->ops->node_join(s[2], "n", "ws://n/ws", 60000), 0);
    int64_t epoch = 0;
    assert_int_equal(s[2]->ops->lease_take(s[2], t, &epoch), 1);
    assert_int_equal(epoch, 1);
    assert_int_equal(s[2]->ops->action_append(s[2], t, 2, "two"), 0);
    for (int k = 0; k < 3; k++)
        store_close(s[k]);
}

typedef struct opener {
    const char *url;
    store *s;
    char err[256];
} opener;

static void *open_thread(void *arg)
{
    opener *o = arg;
    o->s = store_pg_open(o->url, o->err, sizeof o->err);
    return NULL;
}

/* Nodes started together on an empty database: one makes the schema
 * (under the advisory lock), none fails. */
static void test_open_together(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "together");
    opener o[4];
    pthread_t threads[4];
    for (int k = 0; k < 4; k++) {
        o[k] = (opener){.url = url};
        assert_int_equal(pthread_create(&threads[k], NULL, open_thread, &o[k]), 0);
    }
    for (int k = 0; k < 4; k++) {
        pthread_join(threads[k], NULL);
        if (!o[k].s)
            fail_msg("open %d: %s", k, o[k].err);
        store_close(o[k].s);
    }
    assert_int_equal(sql_int(url, "SELECT value::int FROM barbu_meta"), 3);
}

static void test_newer_refused(void **state)
{
    (void)state;
    char url[URL_CAP], err[256] = "";
    fresh_db(url, sizeof url, "newer");
    store_close(open_ok(url));
    sql_value(url, "UPDATE barbu_meta SET value = '4'", NULL, 0);
    assert_null(store_pg_open(url, err, sizeof err));
    assert_non_null(strstr(err, "has schema version 4, newer than the 3 this barbu understands: "
                                "use a newer barbu"));
    assert_null(store_pg_open_reader(url, err, sizeof err));
    assert_non_null(strstr(err, "schema version 4"));
    assert_int_equal(sql_int(url, "SELECT value::int FROM barbu_meta"), 4);
}

static void count_table(void *ctx, const store_table *t, const store_seat seats[4])
{
    (void)t;
    (void)seats;
    ((counted *)ctx)->n++;
}

static void test_reader(void **state)
{
    (void)state;
    char url[URL_CAP], err[256] = "";
    fresh_db(url, sizeof url, "reader");
    /* A reader opens no database that was never made. */
    assert_null(store_pg_open_reader(url, err, sizeof err));
    assert_non_null(strstr(err, "barbu serve"));
    store *s = open_ok(url);
    int64_t t = new_table(s, STORE_WAITING);
    store *r = store_pg_open_reader(url, err, sizeof err);
    if (!r)
        fail_msg("reader: %s", err);
    counted c = {0};
    assert_int_equal(r->ops->tables_load(r, count_table, &c), 0);
    assert_int_equal(c.n, 1);
    assert_int_equal(r->ops->session_put(r, "h", "x"), -1);
    assert_non_null(strstr(store_error(r), "only reads"));
    assert_int_equal(r->ops->action_append(r, t, 0, "x"), -1);
    assert_int_equal(r->ops->table_create(r, &(store_table){.preset = "uk"}, NULL), -1);
    /* A SELECT that would write is refused by the server itself. */
    assert_null(pg_run(pg_of(r), "draw a version", "SELECT nextval('listed_version')", 0, NULL));
    assert_non_null(strstr(store_error(r), "read-only"));
    assert_int_equal(sql_int(url, "SELECT count(*) FROM actions"), 0);
    store_close(r);
    store_close(s);
}

/* A connection the server drops (PostgreSQL restarted, a cut network):
 * the call under way fails, the next one connects again, and the node's
 * leases (in the database) hold across it. */
static void test_reconnect(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "reconnect");
    store *a = open_node(url, "a", 60000);
    int64_t t = new_table(a, STORE_PLAYING);
    assert_int_equal(a->ops->action_append(a, t, 0, "zero"), 0);
    assert_int_equal(sql_int(url, "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) "
                                  "FROM pg_stat_activity WHERE application_name = 'barbu' "
                                  "AND datname = current_database()"),
                     1);
    char name[32];
    double until = now_s() + 20;
    int rc;
    /* The first call after it may fail (libpq learns of the loss then). */
    while ((rc = a->ops->session_get(a, "nobody", name, sizeof name)) < 0 && now_s() < until)
        pause_ms(20);
    assert_int_equal(rc, 0);
    assert_int_equal(a->ops->action_append(a, t, 1, "one"), 0);
    ids lost = {0};
    assert_int_equal(a->ops->leases_renew(a, on_id, &lost), 0);
    assert_int_equal(lost.n, 0);
    store_close(a);
}

typedef struct take_job {
    store *s;
    int64_t table;
    int rc;
    volatile int done;
} take_job;

static void *take_job_run(void *arg)
{
    take_job *j = arg;
    int64_t epoch = 0;
    j->rc = j->s->ops->lease_take(j->s, j->table, &epoch);
    __atomic_store_n(&j->done, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

/* A SHOW of the store's own connection. */
static void show(store *s, const char *name, char *out, size_t cap)
{
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT current_setting('%s')", name);
    PGresult *r = pg_run(pg_of(s), "show", sql, 0, NULL);
    if (!r)
        fail_msg("%s: %s", sql, store_error(s));
    snprintf(out, cap, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
}

/* A node cut off in the middle of a transaction keeps its row locks until
 * the database ends its session: another node's lease_take waits at most
 * lock_timeout (half the lease) and answers "not taken now", and a fenced
 * write gives up with a sentence, rather than stalling a server's loop. */
static void test_lock_timeout(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "locked");
    store *a = open_node(url, "a", 2000), *b = open_node(url, "b", 2000);
    char v[32];
    show(a, "lock_timeout", v, sizeof v);
    assert_string_equal(v, "1s");
    show(a, "idle_in_transaction_session_timeout", v, sizeof v);
    assert_string_equal(v, "5s");
    int64_t t = new_table(b, STORE_PLAYING);
    char sql[160];
    snprintf(sql, sizeof sql, "UPDATE tables SET lease_until = NULL WHERE id = %" PRId64, t);
    sql_value(url, sql, NULL, 0); /* b's lease out, as if run out */

    PGconn *cut = PQconnectdb(url);
    assert_int_equal(PQstatus(cut), CONNECTION_OK);
    PQclear(PQexec(cut, "BEGIN"));
    snprintf(sql, sizeof sql, "SELECT 1 FROM tables WHERE id = %" PRId64 " FOR UPDATE", t);
    PGresult *r = PQexec(cut, sql);
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    PQclear(r);

    take_job j = {.s = a, .table = t, .rc = 99};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, take_job_run, &j), 0);
    double until = now_s() + 30;
    while (!__atomic_load_n(&j.done, __ATOMIC_SEQ_CST) && now_s() < until)
        pause_ms(20);
    /* Never done: the thread is still stuck on the row; the test fails
     * here rather than hanging (the process exits with it). */
    assert_true(__atomic_load_n(&j.done, __ATOMIC_SEQ_CST));
    pthread_join(thread, NULL);
    assert_int_equal(j.rc, 0);

    /* b's write waits for the row as long, then fails and says why. */
    char before[32];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM actions WHERE table_id = %" PRId64, t);
    sql_value(url, sql, before, sizeof before);
    assert_int_equal(b->ops->action_append(b, t, 0, "zero"), -1);
    assert_non_null(strstr(store_error(b), "lock_timeout"));
    assert_non_null(strstr(store_error(b), "nothing was written"));
    PQclear(PQexec(cut, "ROLLBACK"));
    PQfinish(cut);
    assert_int_equal(sql_int(url, sql), 0);
    /* The row free again, a takes the lease. */
    assert_int_equal(take_when_free(a, t), 2);
    store_close(a);
    store_close(b);
}

/* The URL's own options replace the timeouts, node_join included. */
static void test_url_timeouts(void **state)
{
    (void)state;
    char url[URL_CAP], own[URL_CAP + 64];
    fresh_db(url, sizeof url, "url_timeouts");
    snprintf(own, sizeof own, "%s&options=-c%%20lock_timeout%%3D7000", url);
    store *s = open_ok(own);
    char v[32];
    show(s, "lock_timeout", v, sizeof v);
    assert_string_equal(v, "7s");
    assert_int_equal(s->ops->node_join(s, "a", "ws://a/ws", 2000), 0);
    show(s, "lock_timeout", v, sizeof v);
    assert_string_equal(v, "7s");
    store_close(s);
    s = open_ok(url);
    show(s, "lock_timeout", v, sizeof v);
    assert_string_equal(v, "2s");
    show(s, "idle_in_transaction_session_timeout", v, sizeof v);
    assert_string_equal(v, "5s");
    store_close(s);
}

/* While the database refuses connections, a store tries to connect again
 * at most once a second: the calls in between fail at once, saying so;
 * once it is back, the next attempt succeeds. */
static void test_reconnect_rate(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "down");
    store *a = open_ok(url);
    /* From the cluster's admin database: a database's own connection may
     * not shut the door on it. */
    const char *admin_url = getenv("BARBU_TEST_PG");
    assert_non_null(admin_url);
    PGconn *admin = PQconnectdb(admin_url);
    assert_int_equal(PQstatus(admin), CONNECTION_OK);
    PGresult *r = PQexec(admin, "ALTER DATABASE nodes_down ALLOW_CONNECTIONS false");
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    r = PQexec(admin, "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM "
                      "pg_stat_activity WHERE application_name = 'barbu' "
                      "AND datname = 'nodes_down'");
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_string_equal(PQgetvalue(r, 0, 0), "1");
    PQclear(r);
    char name[32];
    double until = now_s() + 20;
    /* The call that learns of the loss, then the one that tries again. */
    while (!strstr(store_error(a), "could not be made again") && now_s() < until)
        assert_int_equal(a->ops->session_get(a, "nobody", name, sizeof name), -1);
    assert_non_null(strstr(store_error(a), "could not be made again"));
    assert_int_equal(a->ops->session_get(a, "nobody", name, sizeof name), -1);
    assert_non_null(strstr(store_error(a), "the database connection is down"));
    assert_null(strstr(store_error(a), "could not be made again"));
    r = PQexec(admin, "ALTER DATABASE nodes_down ALLOW_CONNECTIONS true");
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    PQfinish(admin);
    int rc;
    until = now_s() + 20;
    while ((rc = a->ops->session_get(a, "nobody", name, sizeof name)) < 0 && now_s() < until)
        pause_ms(50);
    assert_int_equal(rc, 0);
    store_close(a);
}

typedef struct ending {
    store *s;
    const store_game *g;
    const store_rating *ratings;
    int n, rc;
} ending;

static void *end_one(void *arg)
{
    ending *e = arg;
    e->rc = e->s->ops->game_end(e->s, e->g, e->ratings, e->n);
    return NULL;
}

/* Two nodes ending games with the same computer levels at once must not
 * deadlock: game_end writes the ratings in the order of their ids, however
 * they were given.  The other node's transaction is played by a second
 * connection that locks c:x, then c:y (the order game_end uses): the store,
 * given [c:y, c:x], waits for c:x holding nothing of c:y, so the second
 * connection's c:y goes through, and both commit.  Written in the order
 * given, the store would hold c:y while waiting for c:x: a deadlock. */
static void test_ratings_sorted(void **state)
{
    (void)state;
    char url[URL_CAP], own[URL_CAP + 64];
    fresh_db(url, sizeof url, "deadlock");
    /* A lock waited for as long as the test needs, on a busy machine. */
    snprintf(own, sizeof own, "%s&options=-c%%20lock_timeout%%3D60000", url);
    store *a = open_ok(own);
    sql_value(url,
              "INSERT INTO ratings(id, name, mu, sigma, games, updated) VALUES "
              "('c:x', 'x', 25, 8, 0, 0), ('c:y', 'y', 25, 8, 0, 0)",
              NULL, 0);
    PGconn *other = PQconnectdb(url);
    assert_int_equal(PQstatus(other), CONNECTION_OK);
    PQclear(PQexec(other, "BEGIN"));
    PGresult *r = PQexec(other, "UPDATE ratings SET games = games + 1 WHERE id = 'c:x'");
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);

    store_game g = {.id = 1,
                    .preset = "uk",
                    .credit = STORE_CREDIT_RECORD,
                    .status = STORE_GAME_OVER,
                    .started = 1000,
                    .finished = 2000,
                    .deals = "[]"};
    store_rating given[2] = {
        {.id = "c:y", .name = "y", .mu = 26, .sigma = 7, .games = 1, .updated = 2000},
        {.id = "c:x", .name = "x", .mu = 24, .sigma = 7, .games = 1, .updated = 2000},
    };
    ending e = {.s = a, .g = &g, .ratings = given, .n = 2, .rc = 99};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, end_one, &e), 0);
    double until = now_s() + 20;
    while (!someone_waits(url) && now_s() < until)
        pause_ms(10);
    assert_true(someone_waits(url));
    r = PQexec(other, "UPDATE ratings SET games = games + 1 WHERE id = 'c:y'");
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    r = PQexec(other, "COMMIT");
    assert_string_equal(PQcmdStatus(r), "COMMIT");
    PQclear(r);
    PQfinish(other);
    pthread_join(thread, NULL);
    assert_int_equal(e.rc, 0);
    assert_int_equal(sql_int(url, "SELECT count(*) FROM rating_history WHERE game = 1"), 2);
    store_close(a);
}

typedef struct keys_seen {
    char keys[4][16];
    int n;
} keys_seen;

static void on_session_key(void *ctx, const char *token, const char *name)
{
    (void)name;
    keys_seen *k = ctx;
    if (k->n < 4)
        snprintf(k->keys[k->n++], sizeof k->keys[0], "%s", token);
}

static void on_admin_key(void *ctx, const char *key, const char *name)
{
    on_session_key(ctx, key, name);
}

/* The keys that break ties are sorted as bytes, as SQLite sorts them,
 * whatever the database's collation: "B1" before "a1" even in a database
 * made with ICU's English order (where "a1" comes first). */
static void test_keys_in_byte_order(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "collate");
    const char *admin_url = getenv("BARBU_TEST_PG");
    assert_non_null(admin_url);
    PGconn *admin = PQconnectdb(admin_url);
    assert_int_equal(PQstatus(admin), CONNECTION_OK);
    PQclear(PQexec(admin, "DROP DATABASE nodes_collate"));
    PGresult *r = PQexec(admin, "CREATE DATABASE nodes_collate TEMPLATE template0 "
                                "LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'");
    bool icu = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!icu)
        fprintf(stderr, "no ICU collation here (%s): the default database instead\n",
                PQerrorMessage(admin));
    PQclear(r);
    if (!icu)
        PQclear(PQexec(admin, "CREATE DATABASE nodes_collate"));
    PQfinish(admin);
    store *s = open_ok(url);
    assert_int_equal(s->ops->session_put(s, "a1", "Alice"), 0);
    assert_int_equal(s->ops->session_put(s, "B1", "Bob"), 0);
    assert_int_equal(s->ops->admin_put(s, "a1", "Alice"), 0);
    assert_int_equal(s->ops->admin_put(s, "B1", "Bob"), 0);
    sql_value(url, "UPDATE sessions SET created = 1", NULL, 0);
    sql_value(url, "UPDATE admins SET added = 1", NULL, 0);
    keys_seen k = {0};
    assert_int_equal(s->ops->sessions_load(s, on_session_key, &k), 0);
    assert_int_equal(k.n, 2);
    assert_string_equal(k.keys[0], "B1");
    assert_string_equal(k.keys[1], "a1");
    k = (keys_seen){0};
    assert_int_equal(s->ops->admins_load(s, on_admin_key, &k), 0);
    assert_int_equal(k.n, 2);
    assert_string_equal(k.keys[0], "B1");
    assert_string_equal(k.keys[1], "a1");
    store_close(s);
}

/* A node's append sent again after its reply was lost is its own action
 * (same text, its epoch) even once the lease has moved on: 0, written
 * once.  Another node's retry of it with its own epoch is not. */
static void test_append_again_node(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "again");
    store *a = open_node(url, "a", 60000), *b = open_node(url, "b", 60000);
    int64_t t = new_table(a, STORE_PLAYING);
    assert_int_equal(a->ops->action_append(a, t, 0, "zero"), 0);
    assert_int_equal(a->ops->action_append(a, t, 0, "zero"), 0);
    char sql[160];
    snprintf(sql, sizeof sql, "UPDATE tables SET lease_until = NULL WHERE id = %" PRId64, t);
    sql_value(url, sql, NULL, 0);
    assert_int_equal(take_when_free(b, t), 2);
    assert_int_equal(a->ops->action_append(a, t, 0, "zero"), 0);
    assert_int_equal(b->ops->action_append(b, t, 0, "zero"), -1);
    assert_non_null(strstr(store_error(b), "out of order"));
    assert_int_equal(a->ops->action_append(a, t, 1, "one"), STORE_FENCED);
    assert_int_equal(sql_int(url, "SELECT count(*) FROM actions"), 1);
    store_close(a);
    store_close(b);
}

/* A schema version that is not a number is refused, not read as 0. */
static void test_version_junk(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "junk");
    store_close(open_ok(url));
    sql_value(url, "UPDATE barbu_meta SET value = '2x' WHERE key = 'schema_version'", NULL, 0);
    char err[256] = "";
    assert_null(store_pg_open(url, err, sizeof err));
    assert_non_null(strstr(err, "'2x', not a whole number"));
}

/* A finished table whose lease ran out leaves the lobby through any node;
 * one whose owner still holds it, or one not over, stays. */
static void test_listed_clear_over(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "clear_over");
    store *a = open_node(url, "a", 60000);
    int64_t open = new_table(a, STORE_WAITING), over = new_table(a, STORE_OVER);
    assert_int_equal(a->ops->listed_put(a, open, "{\"id\":1}"), 0);
    assert_int_equal(a->ops->listed_put(a, over, "{\"id\":2}"), 0);
    assert_int_equal(a->ops->listed_clear_over(a), 0);
    listed_seen v = {0};
    assert_int_equal(a->ops->listed_load(a, 0, on_listed, &v), 0);
    assert_int_equal(v.n, 2);
    assert_string_equal(v.summary[1], "{\"id\":2}"); /* its lease is live */
    int64_t seen = v.version[1];
    assert_int_equal(a->ops->lease_release(a, over), 0);
    assert_int_equal(a->ops->lease_release(a, open), 0);
    store *b = open_node(url, "b", 60000);
    assert_int_equal(b->ops->listed_clear_over(b), 0);
    memset(&v, 0, sizeof v);
    assert_int_equal(b->ops->listed_load(b, seen, on_listed, &v), 0);
    assert_int_equal(v.n, 1);
    assert_int_equal(v.table[0], over);
    assert_string_equal(v.summary[0], "");
    /* Once cleared, not again. */
    assert_int_equal(b->ops->listed_clear_over(b), 0);
    memset(&v, 0, sizeof v);
    assert_int_equal(b->ops->listed_load(b, seen, on_listed, &v), 0);
    assert_int_equal(v.n, 1);
    store_close(a);
    store_close(b);
}

/* A server alone holds the database against nodes and other servers
 * alone; when its connection is made again after another took the
 * database, it writes nothing more. */
static void test_claim(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "claim");
    store *x = open_ok(url), *y = open_ok(url);
    assert_int_equal(x->ops->claim_alone(x), 0);
    assert_int_equal(y->ops->claim_alone(y), -1);
    assert_non_null(strstr(store_error(y), "another barbu server"));
    assert_int_equal(y->ops->node_join(y, "n", "ws://n/ws", 60000), -1);
    assert_non_null(strstr(store_error(y), "server alone"));
    int64_t t = new_table(x, STORE_PLAYING);
    assert_int_equal(x->ops->action_append(x, t, 0, "zero"), 0);
    /* x is cut off; y takes the database meanwhile. */
    assert_int_equal(sql_int(url, "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) "
                                  "FROM pg_stat_activity WHERE application_name = 'barbu' "
                                  "AND datname = current_database() AND pid IN "
                                  "(SELECT pid FROM pg_locks WHERE locktype = 'advisory' "
                                  "AND granted)"),
                     1);
    double until = now_s() + 20;
    while (y->ops->claim_alone(y) != 0 && now_s() < until)
        pause_ms(50);
    assert_int_equal(y->ops->claim_alone(y), 0);
    until = now_s() + 20;
    int rc;
    while ((rc = x->ops->action_append(x, t, 1, "one")) < 0 &&
           strstr(store_error(x), "another server") == NULL && now_s() < until)
        pause_ms(50);
    assert_int_equal(rc, -1);
    pause_ms(1100);
    assert_int_equal(x->ops->action_append(x, t, 1, "one"), -1);
    assert_int_equal(sql_int(url, "SELECT count(*) FROM actions"), 1);
    store_close(x);
    store_close(y);
}

/* A node forgets a session's row only when no node used it for the idle
 * time: another node's hello keeps it. */
static void test_session_forget_idle(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "forget_idle");
    store *a = open_node(url, "a", 60000), *b = open_node(url, "b", 60000);
    assert_int_equal(a->ops->session_put(a, "tok", "bob"), 0);
    assert_int_equal(a->ops->session_forget_idle(a, "tok", 3600), 0);
    assert_int_equal(sql_int(url, "SELECT count(*) FROM sessions"), 1);
    sql_value(url, "UPDATE sessions SET seen = now() - interval '2 hours' RETURNING 1", NULL, 0);
    assert_int_equal(b->ops->session_touch(b, "tok"), 0); /* bob's hello at b */
    assert_int_equal(a->ops->session_forget_idle(a, "tok", 3600), 0);
    assert_int_equal(sql_int(url, "SELECT count(*) FROM sessions"), 1);
    sql_value(url, "UPDATE sessions SET seen = now() - interval '2 hours' RETURNING 1", NULL, 0);
    assert_int_equal(a->ops->session_forget_idle(a, "tok", 3600), 0);
    assert_int_equal(sql_int(url, "SELECT count(*) FROM sessions"), 0);
    store_close(a);
    store_close(b);
}

/* A server alone whose connection broke while its backend lives on (a
 * network cut PostgreSQL has not noticed yet) takes its lock back from
 * that backend, and writes again. */
static void test_claim_from_own_old_backend(void **state)
{
    (void)state;
    char url[URL_CAP];
    fresh_db(url, sizeof url, "claim_old");
    store *x = open_ok(url);
    assert_int_equal(x->ops->claim_alone(x), 0);
    int64_t t = new_table(x, STORE_PLAYING);
    assert_int_equal(x->ops->action_append(x, t, 0, "zero"), 0);
    /* The client's end of the socket is swapped for a closed stream: libpq
     * finds the connection gone, the backend (its socket kept open here)
     * lives on with the lock. */
    pg_store *p = pg_of(x);
    int fd = PQsocket(p->conn);
    int kept = dup(fd), pair[2];
    assert_true(kept >= 0);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
    assert_int_equal(dup2(pair[0], fd), fd);
    close(pair[0]);
    close(pair[1]); /* libpq reads the end of the stream */
    double until = now_s() + 20;
    int rc;
    while ((rc = x->ops->action_append(x, t, 1, "one")) != 0 && now_s() < until)
        pause_ms(100);
    if (rc != 0)
        fail_msg("append after the cut: %s", store_error(x));
    assert_int_equal(sql_int(url, "SELECT count(*) FROM actions"), 2);
    close(kept);
    store_close(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leases),
        cmocka_unit_test(test_renewal_and_expiry),
        cmocka_unit_test(test_adoption),
        cmocka_unit_test(test_fencing),
        cmocka_unit_test(test_write_racing_take),
        cmocka_unit_test(test_listed_versions),
        cmocka_unit_test(test_sessions_and_seats),
        cmocka_unit_test(test_migration_1_to_2),
        cmocka_unit_test(test_open_together),
        cmocka_unit_test(test_newer_refused),
        cmocka_unit_test(test_reader),
        cmocka_unit_test(test_reconnect),
        cmocka_unit_test(test_lock_timeout),
        cmocka_unit_test(test_url_timeouts),
        cmocka_unit_test(test_reconnect_rate),
        cmocka_unit_test(test_version_junk),
        cmocka_unit_test(test_ratings_sorted),
        cmocka_unit_test(test_keys_in_byte_order),
        cmocka_unit_test(test_append_again_node),
        cmocka_unit_test(test_listed_clear_over),
        cmocka_unit_test(test_claim),
        cmocka_unit_test(test_session_forget_idle),
        cmocka_unit_test(test_claim_from_own_old_backend),
    };
    return cmocka_run_group_tests_name("store_nodes", tests, NULL, NULL);
}
