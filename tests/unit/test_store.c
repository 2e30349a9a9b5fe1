/*
 * test_store.c - the store: everything written comes back exactly after a
 * reopen, actions are appended strictly in order, a newer schema is
 * refused, an append survives the process being killed, and actions survive
 * their trip through text.
 *
 * The same program tests the SQLite store (test_store) and, given --pg,
 * the PostgreSQL store (test_store_pg: a fresh database per test in the
 * cluster of the CTest fixture "pg").  What only a SQLite file has stays
 * SQLite's: the WAL, the file's lock, a writer killed on a file, and its
 * own migrations (version 1 files as barbu wrote them before issue 23); the
 * PostgreSQL run skips those (see main), and tests the newer schema, the
 * damaged rows and the keyed tables through libpq instead.  The text of
 * actions is the same code whatever the store: tested in the SQLite run.
 */
#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "helpers.h"
#include "pg_test.h"
#include "store.h"

/* --pg: the PostgreSQL store; "paths" are then databases' URLs. */
static bool use_pg;
#define PATH_CAP 512

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/barbu-store-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    return rmdir(dir);
}

/* A fresh database file name under the test directory; with --pg, a
 * fresh database's URL. */
static void db_path(char *path, size_t cap, const char *name)
{
    if (!use_pg) {
        snprintf(path, cap, "%s/%s.db", dir, name);
        return;
    }
    char db[48];
    snprintf(db, sizeof db, "store_%s", name);
    for (char *c = db; *c; c++)
        if (*c == '-')
            *c = '_';
    char *url = pg_test_db(db);
    if (!url)
        fail_msg("no PostgreSQL database %s", db);
    snprintf(path, cap, "%s", url);
    free(url);
}

static store *open_ok(const char *path)
{
    char err[256] = "";
    store *s =
        use_pg ? store_pg_open(path, err, sizeof err) : store_sqlite_open(path, err, sizeof err);
    if (!s)
        fail_msg("open %s: %s", path, err);
    return s;
}

/* Whether needle is in hay, whatever the case. */
static bool has_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t k = 0;
        while (k < n && hay[k] &&
               tolower((unsigned char)hay[k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == n)
            return true;
    }
    return false;
}

/* Runs sql on the database at url (the PostgreSQL run's way round the
 * store, as sqlite3_exec is the SQLite run's). */
static void pg_exec(const char *url, const char *sql)
{
    PGconn *conn = PQconnectdb(url);
    if (PQstatus(conn) != CONNECTION_OK)
        fail_msg("connect: %s", PQerrorMessage(conn));
    PGresult *r = PQexec(conn, sql);
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQerrorMessage(conn));
    PQclear(r);
    PQfinish(conn);
}

/* The first column of the first row of sql's result, as text. */
static void pg_value(const char *url, const char *sql, char *out, size_t cap)
{
    PGconn *conn = PQconnectdb(url);
    if (PQstatus(conn) != CONNECTION_OK)
        fail_msg("connect: %s", PQerrorMessage(conn));
    PGresult *r = PQexec(conn, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) < 1)
        fail_msg("%s: %s", sql, PQerrorMessage(conn));
    snprintf(out, cap, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    PQfinish(conn);
}

/* ------------------------------------------------------- what comes back */

typedef struct seen_seat {
    bool present[5]; /* name, player, token, level, and whether any is set */
    char name[32], player[32], token[32], level[32];
    bool bot;
} seen_seat;

typedef struct seen_table {
    int64_t id;
    char preset[16], house[64], options[64];
    uint64_t seed;
    int state;
    int64_t created;
    seen_seat seats[4];
} seen_table;

typedef struct seen {
    seen_table tables[8];
    int n_tables;
    char tokens[8][32], names[8][32];
    int n_sessions;
    char actions[600][STORE_ACTION_TEXT];
    uint32_t numbers[600];
    int n_actions;
} seen;

static void copy_or_null(char *dst, size_t cap, const char *src, bool *present)
{
    *present = src != NULL;
    snprintf(dst, cap, "%s", src ? src : "");
}

static void on_table(void *ctx, const store_table *t, const store_seat seats[4])
{
    seen *v = ctx;
    assert_true(v->n_tables < 8);
    seen_table *st = &v->tables[v->n_tables++];
    memset(st, 0, sizeof *st);
    st->id = t->id;
    assert_non_null(t->preset);
    assert_non_null(t->house);
    assert_non_null(t->options);
    snprintf(st->preset, sizeof st->preset, "%s", t->preset);
    snprintf(st->house, sizeof st->house, "%s", t->house);
    snprintf(st->options, sizeof st->options, "%s", t->options);
    st->seed = t->seed;
    st->state = t->state;
    st->created = t->created;
    for (int k = 0; k < 4; k++) {
        assert_int_equal(seats[k].seat, k);
        seen_seat *ss = &st->seats[k];
        copy_or_null(ss->name, sizeof ss->name, seats[k].name, &ss->present[0]);
        copy_or_null(ss->player, sizeof ss->player, seats[k].player, &ss->present[1]);
        copy_or_null(ss->token, sizeof ss->token, seats[k].token, &ss->present[2]);
        copy_or_null(ss->level, sizeof ss->level, seats[k].level, &ss->present[3]);
        ss->bot = seats[k].bot;
    }
}

static void on_session(void *ctx, const char *token, const char *name)
{
    seen *v = ctx;
    assert_true(v->n_sessions < 8);
    snprintf(v->tokens[v->n_sessions], 32, "%s", token);
    snprintf(v->names[v->n_sessions], 32, "%s", name);
    v->n_sessions++;
}

static void on_action(void *ctx, uint32_t n, const char *text)
{
    seen *v = ctx;
    assert_true(v->n_actions < 600);
    v->numbers[v->n_actions] = n;
    snprintf(v->actions[v->n_actions], STORE_ACTION_TEXT, "%s", text);
    v->n_actions++;
}

static seen *seen_new(void)
{
    seen *v = calloc(1, sizeof *v);
    assert_non_null(v);
    return v;
}

static int count_actions(store *s, int64_t table)
{
    seen *v = seen_new();
    assert_int_equal(s->ops->actions_load(s, table, on_action, v), 0);
    int n = v->n_actions;
    for (int k = 0; k < n; k++)
        assert_int_equal(v->numbers[k], k);
    free(v);
    return n;
}

/* ------------------------------------------------------------- round trip */

static const uint64_t SEEDS[3] = {0, UINT64_C(1) << 63, UINT64_MAX};

static void action_line(int table, int n, char *buf)
{
    barbu_action a = barbu_act_play(n & 3, BARBU_CARD(n % 4, 2 + n % 13));
    a.middle = (uint64_t)table << 40 | (uint64_t)n;
    store_action_text(&a, buf);
}

static void check_seat(const seen_seat *ss, const char *name, const char *player, const char *token,
                       bool bot, const char *level)
{
    const char *want[4] = {name, player, token, level};
    const char *got[4] = {ss->name, ss->player, ss->token, ss->level};
    for (int k = 0; k < 4; k++) {
        assert_int_equal(ss->present[k], want[k] != NULL);
        if (want[k])
            assert_string_equal(got[k], want[k]);
    }
    assert_int_equal(ss->bot, bot);
}

static void check_everything(store *s, const int64_t ids[3])
{
    seen *v = seen_new();
    assert_int_equal(s->ops->tables_load(s, on_table, v), 0);
    assert_int_equal(v->n_tables, 3);
    for (int k = 0; k < 3; k++) {
        const seen_table *t = &v->tables[k];
        assert_int_equal(t->id, ids[k]);
        assert_true(t->seed == SEEDS[k]);
        assert_int_equal(t->created, 1700000000 + k);
    }
    assert_true(v->tables[0].id < v->tables[1].id && v->tables[1].id < v->tables[2].id);
    assert_string_equal(v->tables[0].preset, "uk");
    assert_string_equal(v->tables[0].house, "");
    assert_string_equal(v->tables[0].options, "{\"kibitz\":true}");
    assert_int_equal(v->tables[0].state, STORE_OVER);
    assert_string_equal(v->tables[1].preset, "fife");
    assert_string_equal(v->tables[1].house, "preset = fife\nsets = 2\n");
    assert_string_equal(v->tables[1].options, "{}");
    assert_int_equal(v->tables[1].state, STORE_PLAYING);
    assert_string_equal(v->tables[2].preset, "chinese");
    assert_int_equal(v->tables[2].state, STORE_WAITING);

    /* Table 0: a person, a bot, a seat left by its player, one never used. */
    const seen_seat *seats = v->tables[0].seats;
    check_seat(&seats[0], "alice", "alice", "tok-a", false, NULL);
    check_seat(&seats[1], "Bot East", "Bot East", NULL, true, "expert");
    check_seat(&seats[2], NULL, "carol", NULL, false, NULL);
    check_seat(&seats[3], NULL, NULL, NULL, false, NULL);
    /* Table 1: a seat written twice keeps the second; a bot before the start. */
    seats = v->tables[1].seats;
    check_seat(&seats[0], "bob", NULL, "tok-b", false, NULL);
    check_seat(&seats[1], NULL, NULL, NULL, false, NULL);
    check_seat(&seats[2], NULL, NULL, NULL, false, NULL);
    check_seat(&seats[3], "Bot West", NULL, NULL, true, "random");
    for (int k = 0; k < 4; k++)
        check_seat(&v->tables[2].seats[k], NULL, NULL, NULL, false, NULL);

    /* table_get agrees with tables_load. */
    seen *one = seen_new();
    assert_int_equal(s->ops->table_get(s, ids[1], on_table, one), 1);
    assert_int_equal(one->n_tables, 1);
    assert_memory_equal(&one->tables[0], &v->tables[1], sizeof one->tables[0]);
    free(one);

    /* Sessions: bob renamed himself, dave was forgotten. */
    memset(v, 0, sizeof *v);
    assert_int_equal(s->ops->sessions_load(s, on_session, v), 0);
    assert_int_equal(v->n_sessions, 3);
    bool found[3] = {false, false, false};
    for (int k = 0; k < 3; k++) {
        if (strcmp(v->tokens[k], "tok-a") == 0) {
            assert_string_equal(v->names[k], "alice");
            found[0] = true;
        } else if (strcmp(v->tokens[k], "tok-b") == 0) {
            assert_string_equal(v->names[k], "bobby");
            found[1] = true;
        } else if (strcmp(v->tokens[k], "tok-c") == 0) {
            assert_string_equal(v->names[k], "carol");
            found[2] = true;
        }
    }
    assert_true(found[0] && found[1] && found[2]);

    /* Actions: each table its own, in order, exactly as written. */
    const int counts[3] = {7, 3, 0};
    for (int k = 0; k < 3; k++) {
        memset(v, 0, sizeof *v);
        assert_int_equal(s->ops->actions_load(s, ids[k], on_action, v), 0);
        assert_int_equal(v->n_actions, counts[k]);
        for (int n = 0; n < counts[k]; n++) {
            char want[STORE_ACTION_TEXT];
            action_line(k, n, want);
            assert_int_equal(v->numbers[n], n);
            assert_string_equal(v->actions[n], want);
        }
    }
    free(v);
}

static void test_round_trip(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "round-trip");
    store *s = open_ok(path);

    const char *presets[3] = {"uk", "fife", "chinese"};
    const char *houses[3] = {"", "preset = fife\nsets = 2\n", NULL};
    const char *options[3] = {"{\"kibitz\":true}", "{}", NULL};
    int64_t ids[3];
    for (int k = 0; k < 3; k++) {
        store_table t = {.preset = presets[k],
                         .house = houses[k],
                         .seed = SEEDS[k],
                         .options = options[k],
                         .state = STORE_WAITING,
                         .created = 1700000000 + k};
        assert_int_equal(s->ops->table_create(s, &t, &ids[k]), 0);
    }
    assert_int_equal(s->ops->table_set_state(s, ids[0], STORE_PLAYING), 0);
    assert_int_equal(s->ops->table_set_state(s, ids[0], STORE_OVER), 0);
    assert_int_equal(s->ops->table_set_state(s, ids[1], STORE_PLAYING), 0);
    assert_int_equal(s->ops->table_set_state(s, 9999, STORE_PLAYING), -1);
    assert_non_null(strstr(store_error(s), "9999"));

    store_seat seat0 = {.seat = 0, .name = "alice", .player = "alice", .token = "tok-a"};
    store_seat seat1 = {
        .seat = 1, .name = "Bot East", .player = "Bot East", .bot = true, .level = "expert"};
    store_seat seat2 = {.seat = 2, .name = "carol", .player = "carol", .token = "tok-c"};
    assert_int_equal(s->ops->seat_put(s, ids[0], &seat0), 0);
    assert_int_equal(s->ops->seat_put(s, ids[0], &seat1), 0);
    assert_int_equal(s->ops->seat_put(s, ids[0], &seat2), 0);
    /* Carol leaves: the seat is free, her score stays hers. */
    seat2.name = NULL;
    seat2.token = NULL;
    assert_int_equal(s->ops->seat_put(s, ids[0], &seat2), 0);
    store_seat t1s0 = {.seat = 0, .name = "someone", .token = "tok-x"};
    store_seat t1s3 = {.seat = 3, .name = "Bot West", .bot = true, .level = "random"};
    assert_int_equal(s->ops->seat_put(s, ids[1], &t1s0), 0);
    t1s0.name = "bob";
    t1s0.token = "tok-b";
    assert_int_equal(s->ops->seat_put(s, ids[1], &t1s0), 0);
    assert_int_equal(s->ops->seat_put(s, ids[1], &t1s3), 0);
    /* A seat out of range, and a seat of a table that does not exist. */
    store_seat bad = {.seat = 4, .name = "x"};
    assert_int_equal(s->ops->seat_put(s, ids[1], &bad), -1);
    bad.seat = 0;
    assert_int_equal(s->ops->seat_put(s, 9999, &bad), -1);
    /* SQLite says "FOREIGN KEY constraint failed", PostgreSQL "violates
     * foreign key constraint". */
    assert_true(has_nocase(store_error(s), "foreign key"));

    assert_int_equal(s->ops->session_put(s, "tok-a", "alice"), 0);
    assert_int_equal(s->ops->session_put(s, "tok-b", "bob"), 0);
    assert_int_equal(s->ops->session_put(s, "tok-c", "carol"), 0);
    assert_int_equal(s->ops->session_put(s, "tok-d", "dave"), 0);
    /* A name is one session's: another token may not take it. */
    assert_int_equal(s->ops->session_put(s, "tok-e", "alice"), -1);
    assert_non_null(strstr(store_error(s), "alice"));
    assert_true(has_nocase(store_error(s), "unique"));
    assert_int_equal(s->ops->session_put(s, "tok-b", "bobby"), 0);
    assert_int_equal(s->ops->session_forget(s, "tok-d"), 0);

    const int counts[3] = {7, 3, 0};
    for (int k = 0; k < 3; k++) {
        for (int n = 0; n < counts[k]; n++) {
            char line[STORE_ACTION_TEXT];
            action_line(k, n, line);
            assert_int_equal(s->ops->action_append(s, ids[k], (uint32_t)n, line), 0);
        }
    }

    check_everything(s, ids);
    store_close(s);
    s = open_ok(path);
    check_everything(s, ids);
    store_close(s);
    store_close(NULL);
}

static void test_out_of_order(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "order");
    store *s = open_ok(path);
    store_table t = {.preset = "uk", .house = "", .seed = 3, .options = "{}"};
    int64_t id;
    assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    char line[STORE_ACTION_TEXT];
    action_line(0, 0, line);
    assert_int_equal(s->ops->action_append(s, id, 1, line), -1);
    char want[128];
    snprintf(want, sizeof want, "action 1 of table %" PRId64 " is out of order: the next is 0", id);
    assert_string_equal(store_error(s), want);
    for (uint32_t n = 0; n < 10; n++)
        assert_int_equal(s->ops->action_append(s, id, n, line), 0);
    assert_int_equal(s->ops->action_append(s, id, 12, line), -1);
    snprintf(want, sizeof want, "action 12 of table %" PRId64 " is out of order: the next is 10",
             id);
    assert_string_equal(store_error(s), want);
    /* Again (with another action's text) and behind are refused the same
     * way.  (PostgreSQL takes the same action again: test_append_again_pg.) */
    char other[STORE_ACTION_TEXT];
    action_line(0, 1, other);
    assert_int_equal(s->ops->action_append(s, id, 9, other), -1);
    assert_int_equal(s->ops->action_append(s, id, 0, other), -1);
    assert_int_equal(count_actions(s, id), 10);
    /* The store still works after the refusals, and keeps nothing of them. */
    assert_int_equal(s->ops->action_append(s, id, 10, line), 0);
    store_close(s);
    s = open_ok(path);
    assert_int_equal(count_actions(s, id), 11);
    /* A table that does not exist has no actions to follow. */
    assert_int_equal(s->ops->action_append(s, id + 100, 0, line), -1);
    assert_int_equal(count_actions(s, id + 100), 0);
    store_close(s);
}

static void test_table_get_missing(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "missing");
    store *s = open_ok(path);
    seen *v = seen_new();
    assert_int_equal(s->ops->table_get(s, 42, on_table, v), 0);
    assert_int_equal(v->n_tables, 0);
    store_table t = {.preset = "uk", .house = "", .seed = 1, .options = "{}"};
    int64_t id;
    assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    assert_int_equal(s->ops->table_get(s, id + 1, on_table, v), 0);
    assert_int_equal(s->ops->table_get(s, id, on_table, v), 1);
    assert_int_equal(v->n_tables, 1);
    free(v);
    store_close(s);
}

typedef struct reentry {
    store *s;
    int tables, actions;
} reentry;

static void count_one(void *ctx, uint32_t n, const char *text)
{
    (void)n;
    (void)text;
    ((reentry *)ctx)->actions++;
}

/* What the server does at start: for each table, load and extend its actions. */
static void on_table_reenter(void *ctx, const store_table *t, const store_seat seats[4])
{
    (void)seats;
    reentry *r = ctx;
    r->tables++;
    int before = r->actions;
    assert_int_equal(r->s->ops->actions_load(r->s, t->id, count_one, r), 0);
    char line[STORE_ACTION_TEXT];
    action_line(0, 0, line);
    assert_int_equal(r->s->ops->action_append(r->s, t->id, (uint32_t)(r->actions - before), line),
                     0);
    seen *v = seen_new();
    assert_int_equal(r->s->ops->table_get(r->s, t->id, on_table, v), 1);
    assert_int_equal(v->tables[0].seed, t->seed);
    free(v);
}

/* actions_load streams its rows, so the same load from inside its callback
 * is refused rather than allowed to reset the read under it. */
static void on_action_reenter(void *ctx, uint32_t n, const char *text)
{
    (void)n;
    (void)text;
    reentry *r = ctx;
    r->actions++;
    assert_int_equal(r->s->ops->actions_load(r->s, 1, count_one, r), -1);
    assert_non_null(strstr(store_error(r->s), "actions_load"));
}

static void test_callbacks_use_the_store(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "reenter");
    store *s = open_ok(path);
    int64_t ids[2];
    for (int k = 0; k < 2; k++) {
        store_table t = {.preset = "uk", .house = "", .seed = (uint64_t)k, .options = "{}"};
        assert_int_equal(s->ops->table_create(s, &t, &ids[k]), 0);
    }
    char line[STORE_ACTION_TEXT];
    action_line(0, 0, line);
    assert_int_equal(s->ops->action_append(s, ids[1], 0, line), 0);
    reentry r = {.s = s};
    assert_int_equal(s->ops->tables_load(s, on_table_reenter, &r), 0);
    assert_int_equal(r.tables, 2);
    assert_int_equal(r.actions, 1);
    assert_int_equal(count_actions(s, ids[0]), 1);
    assert_int_equal(count_actions(s, ids[1]), 2);
    r.actions = 0;
    assert_int_equal(s->ops->actions_load(s, ids[1], on_action_reenter, &r), 0);
    assert_int_equal(r.actions, 2);
    store_close(s);
}

static void test_newer_schema_refused(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "newer");
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db, "CREATE TABLE future(x); PRAGMA user_version = 99", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    char err[256] = "";
    assert_null(store_sqlite_open(path, err, sizeof err));
    assert_non_null(strstr(err, "schema version 99"));
    assert_non_null(strstr(err, path));
    /* The refusal left the file as it was: no WAL, still version 99. */
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "delete");
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 99);
    sqlite3_finalize(st);
    sqlite3_close(db);
    /* A directory is not a database. */
    assert_null(store_sqlite_open(dir, err, sizeof err));
    assert_true(err[0] != '\0');
}

/* ---------------------------------------------------------- moderation */

typedef struct mod_seen {
    char text[1024];
    int n;
} mod_seen;

static void seen_add(mod_seen *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void seen_add(mod_seen *m, const char *fmt, ...)
{
    size_t used = strlen(m->text);
    if (used)
        snprintf(m->text + used, sizeof m->text - used, "|");
    used = strlen(m->text);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->text + used, sizeof m->text - used, fmt, ap);
    va_end(ap);
    m->n++;
}

static void on_session_seen(void *ctx, const char *token, const char *name)
{
    seen_add(ctx, "%s=%s", name, token);
}

static void on_deal_player(void *ctx, const store_deal_player *p)
{
    seen_add(ctx, "%d:%u:%d:%s:%d:%s", p->deal, p->at, p->seat, p->name, p->registered,
             p->level ? p->level : "-");
}

static void on_admin_seen(void *ctx, const char *key, const char *name)
{
    seen_add(ctx, "%s=%s", key, name);
}

static void on_mod_row(void *ctx, const store_mod_row *r)
{
    seen_add(ctx, "%s:%s:%lld:%s:%s", r->act ? r->act : "report", r->by, (long long)r->table,
             r->name ? r->name : "-", r->text);
}

static void on_removal_seen(void *ctx, int64_t table, const char *name)
{
    seen_add(ctx, "%lld:%s", (long long)table, name);
}

static void on_ban_seen(void *ctx, const store_mod_row *r)
{
    seen_add(ctx, "%s:%s:%s:%s", r->key, r->name, r->by, r->text);
}

/* Who played which deals and moderation, on a store whose table 5 is
 * playing. */
static void check_moderation(store *s)
{
    mod_seen m = {0};
    /* Who played deal 0 of table 5: West changes hands twice at action 3. */
    store_deal_player p = {.deal = 0, .at = 0, .seat = 3, .name = "Zoë", .registered = true};
    assert_int_equal(s->ops->deal_player_put(s, 5, &p), 0);
    p = (store_deal_player){.deal = 0, .at = 3, .seat = 3, .name = "easy bot W", .level = "easy"};
    assert_int_equal(s->ops->deal_player_put(s, 5, &p), 0);
    p = (store_deal_player){.deal = 0, .at = 3, .seat = 3, .name = "eve", .registered = true};
    assert_int_equal(s->ops->deal_player_put(s, 5, &p), 0);
    p = (store_deal_player){.deal = 1, .at = 40, .seat = 3, .name = "eve", .registered = true};
    assert_int_equal(s->ops->deal_player_put(s, 5, &p), 0);
    p.seat = 4;
    assert_int_equal(s->ops->deal_player_put(s, 5, &p), -1);
    memset(&m, 0, sizeof m);
    assert_int_equal(s->ops->deal_players_load(s, 5, on_deal_player, &m), 0);
    assert_string_equal(m.text,
                        "0:0:3:Zoë:1:-|0:3:3:easy bot W:0:easy|0:3:3:eve:1:-|1:40:3:eve:1:-");

    assert_int_equal(s->ops->admin_put(s, "root", "Root"), 0);
    assert_int_equal(s->ops->admin_put(s, "root", "ROOT"), 0);
    memset(&m, 0, sizeof m);
    assert_int_equal(s->ops->admins_load(s, on_admin_seen, &m), 0);
    assert_string_equal(m.text, "root=ROOT");

    store_mod_row ban = {.at = 100, .by = "root", .key = "bob", .name = "Bob", .text = "Cheat"};
    assert_int_equal(s->ops->ban_put(s, &ban), 0);
    memset(&m, 0, sizeof m);
    assert_int_equal(s->ops->bans_load(s, on_ban_seen, &m), 0);
    assert_string_equal(m.text, "bob:Bob:root:Cheat");
    assert_int_equal(s->ops->ban_delete(s, "bob"), 0);
    memset(&m, 0, sizeof m);
    assert_int_equal(s->ops->bans_load(s, on_ban_seen, &m), 0);
    assert_int_equal(m.n, 0);

    int64_t id1 = 0, id2 = 0, id3 = 0;
    store_mod_row act = {.at = 100, .by = "root", .act = "close", .table = 5, .text = "Spam"};
    assert_int_equal(s->ops->mod_act_add(s, &act, &id1), 0);
    act = (store_mod_row){.at = 101, .by = "root", .act = "ban", .name = "Bob", .text = ""};
    assert_int_equal(s->ops->mod_act_add(s, &act, &id2), 0);
    assert_true(id2 > id1);
    store_mod_row rep = {.at = 102, .by = "alice", .table = 5, .name = "Bob", .text = "Rude"};
    assert_int_equal(s->ops->report_add(s, &rep, &id3), 0);
    assert_true(id3 > 0);
    /* An act needs its kind; a report has none. */
    rep.act = "close";
    assert_int_equal(s->ops->report_add(s, &rep, NULL), -1);
    act.act = NULL;
    assert_int_equal(s->ops->mod_act_add(s, &act, NULL), -1);
    memset(&m, 0, sizeof m);
    assert_int_equal(s->ops->mod_log_load(s, 100, on_mod_row, &m), 0);
    assert_string_equal(m.text, "ban:root:0:Bob:|close:root:5:-:Spam|report:alice:5:Bob:Rude");
    /* Table 5 plays on: its removal holds; none from a table over. */
    act = (store_mod_row){.at = 103, .by = "root", .act = "remove", .table = 5, .name = "Eve"};
    assert_int_equal(s->ops->mod_act_add(s, &act, NULL), 0);
    memset(&m, 0, sizeof m);
    assert_int_equal(s->ops->removals_load(s, on_removal_seen, &m), 0);
    assert_string_equal(m.text, "5:Eve");
    assert_int_equal(s->ops->table_set_state(s, 5, STORE_OVER), 0);
    memset(&m, 0, sizeof m);
    assert_int_equal(s->ops->removals_load(s, on_removal_seen, &m), 0);
    assert_int_equal(m.n, 0);
    memset(&m, 0, sizeof m);
    assert_int_equal(s->ops->mod_log_load(s, 1, on_mod_row, &m), 0);
    assert_string_equal(m.text, "remove:root:5:Eve:|report:alice:5:Bob:Rude");
}

/* A version 1 file (as barbu wrote it before issue 23) gains the tables of
 * version 2 when opened, and keeps its rows (its tokens hashed). */
static void test_moderation_migration(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "version1");
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db,
                     "CREATE TABLE sessions(token TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL "
                     "UNIQUE, created INTEGER NOT NULL);"
                     "CREATE TABLE tables(id INTEGER PRIMARY KEY, preset TEXT NOT NULL, house TEXT "
                     "NOT NULL, seed TEXT NOT NULL, options TEXT NOT NULL, state INTEGER NOT NULL, "
                     "created INTEGER NOT NULL);"
                     "CREATE TABLE seats(table_id INTEGER NOT NULL REFERENCES tables(id), seat "
                     "INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3), name TEXT, player TEXT, token "
                     "TEXT, bot INTEGER NOT NULL, level TEXT, PRIMARY KEY (table_id, seat)) "
                     "WITHOUT ROWID;"
                     "CREATE TABLE actions(table_id INTEGER NOT NULL REFERENCES tables(id), n "
                     "INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (table_id, n)) WITHOUT "
                     "ROWID;"
                     "INSERT INTO sessions VALUES ('ab12', 'old', 1);"
                     "INSERT INTO tables VALUES (5, 'uk', '', '7', '{}', 1, 1);"
                     "PRAGMA user_version = 1;",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);

    store *s = open_ok(path);
    mod_seen m = {0};
    assert_int_equal(s->ops->sessions_load(s, on_session_seen, &m), 0);
    char hashed[STORE_TOKEN_HASH_LEN + 1], want[128];
    store_token_hash("ab12", hashed);
    snprintf(want, sizeof want, "old=%s", hashed);
    assert_string_equal(m.text, want);

    check_moderation(s);
    store_close(s);

    /* Opened again: version 2, nothing lost. */
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 4);
    sqlite3_finalize(st);
    sqlite3_close(db);
    s = open_ok(path);
    memset(&m, 0, sizeof m);
    assert_int_equal(s->ops->mod_log_load(s, 100, on_mod_row, &m), 0);
    assert_int_equal(m.n, 4);
    store_close(s);
}

/* ------------------------------------------------------------ durability */

static void test_killed_writer(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "killed");
    store *s = open_ok(path);
    store_table t = {.preset = "uk", .house = "", .seed = 11, .options = "{}"};
    int64_t id;
    assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    store_close(s);

    fflush(NULL);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        /* The child must not return into cmocka: it dies one way or another. */
        char err[256];
        store *cs = store_sqlite_open(path, err, sizeof err);
        if (!cs)
            _exit(2);
        for (uint32_t n = 0; n < 500; n++) {
            char line[STORE_ACTION_TEXT];
            action_line(0, (int)n, line);
            if (cs->ops->action_append(cs, id, n, line) < 0)
                _exit(3);
        }
        raise(SIGKILL);
        _exit(4);
    }
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGKILL);

    s = open_ok(path);
    seen *v = seen_new();
    assert_int_equal(s->ops->actions_load(s, id, on_action, v), 0);
    assert_int_equal(v->n_actions, 500);
    for (int n = 0; n < 500; n++) {
        char want[STORE_ACTION_TEXT];
        action_line(0, n, want);
        assert_int_equal(v->numbers[n], n);
        assert_string_equal(v->actions[n], want);
    }
    free(v);
    /* And the next append follows on. */
    char line[STORE_ACTION_TEXT];
    action_line(0, 500, line);
    assert_int_equal(s->ops->action_append(s, id, 500, line), 0);
    store_close(s);
}

static void test_append_time(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "timing");
    store *s = open_ok(path);
    store_table t = {.preset = "uk", .house = "", .seed = 5, .options = "{}"};
    int64_t id;
    assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    enum { APPENDS = 2000 };
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (uint32_t n = 0; n < APPENDS; n++) {
        char line[STORE_ACTION_TEXT];
        action_line(1, (int)n, line);
        assert_int_equal(s->ops->action_append(s, id, n, line), 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double us =
        ((double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec)) / 1e3 /
        APPENDS;
    printf("[ INFO     ] action_append: %.1f us per append over %d appends\n", us, APPENDS);
    store_close(s);
}

/* ------------------------------------------------------- actions as text */

static void assert_action_same(const barbu_action *a, const barbu_action *b)
{
    assert_int_equal(a->type, b->type);
    assert_int_equal(a->seat, b->seat);
    assert_int_equal(a->contracts, b->contracts);
    assert_int_equal(a->trump, b->trump);
    assert_int_equal(a->rank, b->rank);
    assert_int_equal(a->doubles, b->doubles);
    assert_int_equal(a->redoubles, b->redoubles);
    assert_true(a->cards == b->cards);
    assert_true(a->middle == b->middle);
}

static void round_trip(const barbu_action *a)
{
    char text[STORE_ACTION_TEXT];
    store_action_text(a, text);
    barbu_action back;
    memset(&back, 0x55, sizeof back);
    if (store_action_parse(text, &back) != 0)
        fail_msg("refused its own line \"%s\"", text);
    assert_action_same(a, &back);
    /* The text is canonical: written again it is the same line. */
    char again[STORE_ACTION_TEXT];
    store_action_text(&back, again);
    assert_string_equal(text, again);
}

static void test_action_random(void **state)
{
    (void)state;
    barbu_rng rng;
    barbu_rng_seed(&rng, 20240601);
    for (int k = 0; k < 100000; k++) {
        barbu_action a;
        memset(&a, 0, sizeof a);
        a.type = (uint8_t)barbu_rng_below(&rng, BARBU_ACT_ARRANGE + 1);
        a.seat = (int8_t)barbu_rng_below(&rng, 4);
        a.contracts = (uint16_t)barbu_rng_below(&rng, 1u << BARBU_MAX_CONTRACTS);
        a.trump = (int8_t)((int)barbu_rng_below(&rng, 5) - 1);
        a.rank = (int8_t)barbu_rng_below(&rng, 15);
        a.doubles = (uint8_t)barbu_rng_below(&rng, 16);
        a.redoubles = (uint8_t)barbu_rng_below(&rng, 16);
        a.cards = barbu_rng_next(&rng);
        a.middle = barbu_rng_next(&rng);
        if (k % 7 == 0)
            a.cards = k % 2 ? UINT64_MAX : 0;
        round_trip(&a);
    }
    /* The extremes of every field. */
    barbu_action lo = barbu_act(BARBU_ACT_DECLARE, 0);
    barbu_action hi = {.type = BARBU_ACT_ARRANGE,
                       .seat = 3,
                       .contracts = (1u << BARBU_MAX_CONTRACTS) - 1,
                       .trump = 3,
                       .rank = 14,
                       .doubles = 15,
                       .redoubles = 15,
                       .cards = UINT64_MAX,
                       .middle = UINT64_MAX};
    round_trip(&lo);
    round_trip(&hi);
    char text[STORE_ACTION_TEXT];
    store_action_text(&hi, text);
    assert_true(strlen(text) < STORE_ACTION_TEXT);
}

static void test_action_legal(void **state)
{
    (void)state;
    const char *presets[3] = {"uk", "fife", "chinese"};
    static barbu_action legal[BARBU_MAX_ACTIONS];
    long checked = 0;
    unsigned types = 0;
    for (int p = 0; p < 3; p++) {
        barbu_rules r;
        preset(&r, presets[p]);
        barbu_rng rng;
        barbu_rng_seed(&rng, 777 + (uint64_t)p);
        for (int game = 0; game < 2; game++) {
            barbu_state s;
            assert_int_equal(barbu_init(&s, &r, barbu_rng_next(&rng)), 0);
            for (int step = 0; step < 1500 && !barbu_over(&s); step++) {
                int n = barbu_legal(&s, legal, BARBU_MAX_ACTIONS);
                assert_true(n > 0);
                if (n > BARBU_MAX_ACTIONS)
                    n = BARBU_MAX_ACTIONS;
                for (int k = 0; k < n; k++) {
                    round_trip(&legal[k]);
                    types |= 1u << legal[k].type;
                }
                checked += n;
                /* Play on with the text's copy, as a replay from the store would. */
                char text[STORE_ACTION_TEXT];
                barbu_action chosen;
                store_action_text(&legal[barbu_rng_below(&rng, (uint32_t)n)], text);
                assert_int_equal(store_action_parse(text, &chosen), 0);
                assert_int_equal(barbu_apply(&s, &chosen), 0);
            }
        }
    }
    assert_true(checked > 1000);
    /* Every kind of action the engine has was among them. */
    assert_int_equal(types, (1u << (BARBU_ACT_ARRANGE + 1)) - 1);
}

static void test_action_garbage(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",
        " ",
        "2 1 0 -1 0 0 0 0000000000004000 0000000000000000 ",
        "2 1 0 -1 0 0 0 0000000000004000 0000000000000000\n",
        "2 1 0 -1 0 0 0 0000000000004000 0000000000000000 x",
        "2 1 0 -1 0 0 0 0000000000004000",
        "2 1 0 -1 0 0 0 0000000000004000 0000000000000000 0000000000000000",
        "2  1 0 -1 0 0 0 0000000000004000 0000000000000000",
        " 2 1 0 -1 0 0 0 0000000000004000 0000000000000000",
        "7 1 0 -1 0 0 0 0000000000004000 0000000000000000",  /* type */
        "-1 1 0 -1 0 0 0 0000000000004000 0000000000000000", /* type */
        "2 4 0 -1 0 0 0 0000000000004000 0000000000000000",  /* seat */
        "2 -1 0 -1 0 0 0 0000000000004000 0000000000000000",
        "2 1 4096 -1 0 0 0 0000000000004000 0000000000000000", /* contracts */
        "2 1 0 -2 0 0 0 0000000000004000 0000000000000000",    /* trump */
        "2 1 0 4 0 0 0 0000000000004000 0000000000000000",
        "2 1 0 -1 15 0 0 0000000000004000 0000000000000000", /* rank */
        "2 1 0 -1 -1 0 0 0000000000004000 0000000000000000",
        "2 1 0 -1 0 16 0 0000000000004000 0000000000000000", /* doubles */
        "2 1 0 -1 0 0 16 0000000000004000 0000000000000000", /* redoubles */
        "2 1 0 -1 0 0 0 000000000004000 0000000000000000",   /* 15 digits */
        "2 1 0 -1 0 0 0 00000000000004000 0000000000000000", /* 17 digits */
        "2 1 0 -1 0 0 0 000000000000400g 0000000000000000",
        "2 1 0 -1 0 0 0 000000000000400A 0000000000000000", /* upper case */
        "2 1 0 -1 0 0 0 0x00000000004000 0000000000000000",
        "+2 1 0 -1 0 0 0 0000000000004000 0000000000000000",
        "02 1 0 -1 0 0 0 0000000000004000 0000000000000000",
        "2 1 0 -0 0 0 0 0000000000004000 0000000000000000",
        "2 1 00 -1 0 0 0 0000000000004000 0000000000000000",
        "2 1 99999999999999999999 -1 0 0 0 0000000000004000 0000000000000000",
        "2\t1 0 -1 0 0 0 0000000000004000 0000000000000000",
        "play 1 0 -1 0 0 0 0000000000004000 0000000000000000",
    };
    barbu_action a = barbu_act_play(2, BARBU_CARD(0, 5));
    const barbu_action before = a;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        if (store_action_parse(bad[k], &a) != -1)
            fail_msg("accepted \"%s\"", bad[k]);
        assert_action_same(&a, &before);
    }
    assert_int_equal(store_action_parse(NULL, &a), -1);
    /* The line all of these were spoiled from is fine. */
    assert_int_equal(store_action_parse("2 1 0 -1 0 0 0 0000000000004000 0000000000000000", &a), 0);
    assert_int_equal(a.type, BARBU_ACT_PLAY);
    assert_int_equal(a.seat, 1);
    assert_true(a.cards == BARBU_BIT(14));
}

/* ------------------------------------------------------------ damage */

typedef struct damage_seen {
    int n;
    int64_t ids[4];
    char damage[4][200];
    bool seed_lost[4];
} damage_seen;

static void on_damaged_table(void *ctx, const store_table *t, const store_seat seats[4])
{
    (void)seats;
    damage_seen *d = ctx;
    assert_true(d->n < 4);
    d->ids[d->n] = t->id;
    snprintf(d->damage[d->n], sizeof d->damage[0], "%s", t->damage ? t->damage : "");
    d->seed_lost[d->n] = t->seed_lost;
    assert_non_null(t->preset);
    assert_non_null(t->house);
    assert_non_null(t->options);
    d->n++;
}

static void test_damaged_rows(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "damaged");
    store *s = open_ok(path);
    store_table t = {.preset = "uk", .house = "", .seed = 7, .options = "{}"};
    int64_t id;
    for (int k = 0; k < 4; k++)
        assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    store_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "UPDATE tables SET seed = 'x' WHERE id = 2;"
                                  "UPDATE tables SET state = 9 WHERE id = 3;"
                                  "PRAGMA ignore_check_constraints = ON;"
                                  "INSERT INTO seats(table_id, seat, bot) VALUES (4, 7, 0);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    /* A malformed row is reported with its table, not a failed load. */
    s = open_ok(path);
    damage_seen d = {0};
    assert_int_equal(s->ops->tables_load(s, on_damaged_table, &d), 0);
    assert_int_equal(d.n, 4);
    assert_string_equal(d.damage[0], "");
    assert_non_null(strstr(d.damage[1], "seed 'x'"));
    assert_true(d.seed_lost[1]);
    assert_non_null(strstr(d.damage[2], "state is '9'"));
    assert_false(d.seed_lost[2]);
    assert_non_null(strstr(d.damage[3], "numbered '7'"));
    store_close(s);
}

/* ------------------------------------------------------------- the lock */

static void test_second_open_refused(void **state)
{
    (void)state;
    char path[PATH_CAP], err[256] = "";
    db_path(path, sizeof path, "locked");
    store *s = open_ok(path);
    assert_null(store_sqlite_open(path, err, sizeof err));
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "in use"));
    /* The refusal closed its own descriptor without dropping the first
     * store's SQLite locks: the first store still writes. */
    store_table t = {.preset = "uk", .house = "", .seed = 1, .options = "{}"};
    int64_t id;
    assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    store_close(s);
    s = open_ok(path);
    store_close(s);
}

/* Accounts and tokens: made once per key, read back after a reopen, flags
 * and hashes changed, tokens kept by hash and forgotten one or all. */
static void test_accounts(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "accounts");
    store *s = open_ok(path);
    store_account a;
    assert_int_equal(s->ops->account_get(s, "zoe", &a), 0);
    assert_int_equal(s->ops->account_create(s, "zoe", "Zo\xc3\xab", "$argon2id$one"), 1);
    assert_int_equal(s->ops->account_create(s, "zoe", "ZOE", "$argon2id$two"), 0);
    assert_int_equal(s->ops->account_set_flags(s, "zoe", -1, 1), 0);
    assert_int_equal(s->ops->account_set_hash(s, "zoe", "$argon2id$three"), 0);
    char h1[STORE_TOKEN_HASH_LEN + 1], h2[STORE_TOKEN_HASH_LEN + 1], h3[STORE_TOKEN_HASH_LEN + 1];
    store_token_hash("token one", h1);
    store_token_hash("token two", h2);
    store_token_hash("token three", h3);
    assert_int_equal(strlen(h1), 64);
    assert_string_not_equal(h1, h2);
    assert_int_equal(s->ops->token_put(s, h1, "zoe", 100, 200), 0);
    assert_int_equal(s->ops->token_put(s, h2, "zoe", 100, 300), 0);
    assert_int_equal(s->ops->token_put(s, h3, "zoe", 100, 400), 0);
    assert_int_not_equal(s->ops->token_put(s, h3, "zoe", 100, 400), 0); /* one row a hash */
    store_close(s);

    s = open_ok(path);
    assert_int_equal(s->ops->account_get(s, "zoe", &a), 1);
    assert_string_equal(a.key, "zoe");
    assert_string_equal(a.name, "Zo\xc3\xab");
    assert_string_equal(a.hash, "$argon2id$three");
    assert_false(a.admin);
    assert_true(a.banned);
    assert_true(a.created > 0);
    assert_int_equal(s->ops->account_set_flags(s, "zoe", 1, 0), 0);
    assert_int_equal(s->ops->account_get(s, "zoe", &a), 1);
    assert_true(a.admin);
    assert_false(a.banned);
    char key[STORE_KEY_CAP];
    int64_t expires = 0;
    assert_int_equal(s->ops->token_get(s, h2, key, &expires), 1);
    assert_string_equal(key, "zoe");
    assert_int_equal(expires, 300);
    assert_int_equal(s->ops->token_get(s, "token two", key, &expires), 0); /* the token itself */
    assert_int_equal(s->ops->token_forget(s, h1), 0);
    assert_int_equal(s->ops->token_get(s, h1, key, &expires), 0);
    /* Every token but one, then all. */
    assert_int_equal(s->ops->tokens_forget(s, "zoe", h3), 0);
    assert_int_equal(s->ops->token_get(s, h2, key, &expires), 0);
    assert_int_equal(s->ops->token_get(s, h3, key, &expires), 1);
    assert_int_equal(s->ops->tokens_forget(s, "zoe", NULL), 0);
    assert_int_equal(s->ops->token_get(s, h3, key, &expires), 0);
    store_close(s);
}

/* A version 1 database (tokens in clear) is brought to version 2: its
 * session and seat tokens become their hashes, the rest is as it was. */
static void test_migrate_1(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "v1");
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    const char *v1 =
        "CREATE TABLE sessions(token TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL UNIQUE,"
        " created INTEGER NOT NULL);"
        "CREATE TABLE tables(id INTEGER PRIMARY KEY, preset TEXT NOT NULL, house TEXT NOT NULL,"
        " seed TEXT NOT NULL, options TEXT NOT NULL, state INTEGER NOT NULL,"
        " created INTEGER NOT NULL);"
        "CREATE TABLE seats(table_id INTEGER NOT NULL REFERENCES tables(id), seat INTEGER NOT "
        "NULL CHECK (seat BETWEEN 0 AND 3), name TEXT, player TEXT, token TEXT, bot INTEGER NOT "
        "NULL, level TEXT, PRIMARY KEY (table_id, seat)) WITHOUT ROWID;"
        "CREATE TABLE actions(table_id INTEGER NOT NULL REFERENCES tables(id), n INTEGER NOT "
        "NULL, action TEXT NOT NULL, PRIMARY KEY (table_id, n)) WITHOUT ROWID;"
        "INSERT INTO sessions VALUES ('aaaa', 'alice', 1);"
        "INSERT INTO tables VALUES (1, 'uk', '', '7', '{}', 0, 1);"
        "INSERT INTO seats VALUES (1, 0, 'alice', NULL, 'aaaa', 0, NULL);"
        "INSERT INTO seats VALUES (1, 1, 'easy bot E', NULL, NULL, 1, 'easy');"
        "PRAGMA user_version = 1;";
    assert_int_equal(sqlite3_exec(db, v1, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);

    store *s = open_ok(path);
    char hash[STORE_TOKEN_HASH_LEN + 1];
    store_token_hash("aaaa", hash);
    store_close(s);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT (SELECT token FROM sessions), (SELECT token FROM "
                                        "seats WHERE seat = 0), (SELECT token FROM seats WHERE "
                                        "seat = 1), (SELECT count(*) FROM accounts)",
                                        -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), hash);
    assert_string_equal((const char *)sqlite3_column_text(st, 1), hash);
    assert_int_equal(sqlite3_column_type(st, 2), SQLITE_NULL);
    assert_int_equal(sqlite3_column_int(st, 3), 0);
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 4);
    sqlite3_finalize(st);
    sqlite3_close(db);
    /* Opened again, nothing is hashed twice. */
    s = open_ok(path);
    store_close(s);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT token FROM sessions", -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), hash);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* ------------------------------------------------------------ keyed tables */

typedef struct key_seen {
    int n;
    bool keyed[4], lost[4];
    uint8_t key[4][BARBU_KEY_BYTES];
    uint64_t seed[4];
} key_seen;

static void on_key_table(void *ctx, const store_table *t, const store_seat seats[4])
{
    (void)seats;
    key_seen *k = ctx;
    if (k->n == 4)
        return;
    k->keyed[k->n] = t->keyed;
    k->lost[k->n] = t->seed_lost;
    memcpy(k->key[k->n], t->key, BARBU_KEY_BYTES);
    k->seed[k->n++] = t->seed;
}

/* A keyed table keeps its key (and its own seed for the computer
 * players); a schema version 1 database is migrated, its tables seeded;
 * a key that does not read is damage that leaves the game unbuildable. */
static void test_keyed_tables(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "v1keys");
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(
            db,
            "CREATE TABLE sessions(token TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL "
            "UNIQUE, created INTEGER NOT NULL);"
            "CREATE TABLE tables(id INTEGER PRIMARY KEY, preset TEXT NOT NULL, house TEXT "
            "NOT NULL, seed TEXT NOT NULL, options TEXT NOT NULL, state INTEGER NOT NULL, "
            "created INTEGER NOT NULL);"
            "CREATE TABLE seats(table_id INTEGER NOT NULL REFERENCES tables(id), seat "
            "INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3), name TEXT, player TEXT, token "
            "TEXT, bot INTEGER NOT NULL, level TEXT, PRIMARY KEY (table_id, seat)) WITHOUT "
            "ROWID;"
            "CREATE TABLE actions(table_id INTEGER NOT NULL REFERENCES tables(id), n "
            "INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (table_id, n)) WITHOUT "
            "ROWID;"
            "INSERT INTO tables VALUES (1, 'uk', '', '42', '{}', 1, 1000);"
            "PRAGMA user_version = 1;",
            NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);

    store *s = open_ok(path);
    store_table t = {.preset = "fife",
                     .house = "",
                     .seed = 77,
                     .options = "{}",
                     .state = STORE_PLAYING,
                     .created = 2000,
                     .keyed = true};
    for (int i = 0; i < BARBU_KEY_BYTES; i++)
        t.key[i] = (uint8_t)(255 - i);
    int64_t id = 0;
    assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    assert_int_equal(id, 2);
    key_seen k = {0};
    assert_int_equal(s->ops->tables_load(s, on_key_table, &k), 0);
    assert_int_equal(k.n, 2);
    assert_false(k.keyed[0]);
    assert_true(k.seed[0] == 42);
    assert_true(k.keyed[1]);
    assert_false(k.lost[1]);
    assert_memory_equal(k.key[1], t.key, BARBU_KEY_BYTES);
    assert_true(k.seed[1] == 77);
    store_close(s);

    /* The file is version 2 now, and opens again as it is. */
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 4);
    sqlite3_finalize(st);
    assert_int_equal(
        sqlite3_exec(db, "UPDATE tables SET key = 'zz' WHERE id = 2", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = open_ok(path);
    memset(&k, 0, sizeof k);
    assert_int_equal(s->ops->tables_load(s, on_key_table, &k), 0);
    assert_int_equal(k.n, 2);
    assert_true(k.keyed[1]);
    assert_true(k.lost[1]);
    store_close(s);
}

/* ------------------------------------------------- PostgreSQL's own */

/* Who played which deals and moderation, in a fresh database whose table 5
 * is playing; read again after a reopen. */
static void test_moderation_pg(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "moderation");
    store *s = open_ok(path);
    store_table t = {.preset = "uk", .house = "", .seed = 7, .options = "{}", .created = 1};
    int64_t id = 0;
    for (int k = 0; k < 5; k++)
        assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    assert_int_equal(id, 5);
    assert_int_equal(s->ops->table_set_state(s, 5, STORE_PLAYING), 0);
    check_moderation(s);
    store_close(s);
    s = open_ok(path);
    mod_seen m = {0};
    assert_int_equal(s->ops->mod_log_load(s, 100, on_mod_row, &m), 0);
    assert_int_equal(m.n, 4);
    store_close(s);
}

/* A database of a newer schema version is refused with a sentence, and
 * left as it was. */
static void test_newer_schema_refused_pg(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "newer");
    pg_exec(path, "CREATE TABLE barbu_meta(key text PRIMARY KEY, value text NOT NULL);"
                  "INSERT INTO barbu_meta VALUES ('schema_version', '99');"
                  "CREATE TABLE future(x integer)");
    char err[256] = "";
    assert_null(store_pg_open(path, err, sizeof err));
    assert_non_null(strstr(err, "schema version 99"));
    assert_non_null(strstr(err, "newer than the 3"));
    assert_null(strstr(err, "host=")); /* the URL is never told */
    assert_null(store_pg_open_reader(path, err, sizeof err));
    char value[64];
    pg_value(path, "SELECT value || ' ' || (to_regclass('tables') IS NULL) FROM barbu_meta", value,
             sizeof value);
    assert_string_equal(value, "99 true");
    /* A URL that names no database that answers. */
    assert_null(
        store_pg_open("postgresql://barbu@/nosuchdb?host=/nonexistent&port=5432", err, sizeof err));
    assert_non_null(strstr(err, "could not connect"));
}

/* Rows another tool spoiled: reported with their table, not a failed
 * load.  (PostgreSQL's types leave fewer ways to spoil them than SQLite's:
 * the seed's text, the state's range and a seat's number, once its check
 * is dropped.) */
static void test_damaged_rows_pg(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "damaged");
    store *s = open_ok(path);
    store_table t = {.preset = "uk", .house = "", .seed = 7, .options = "{}"};
    int64_t id;
    for (int k = 0; k < 4; k++)
        assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    store_close(s);
    pg_exec(path, "UPDATE tables SET seed = 'x' WHERE id = 2;"
                  "UPDATE tables SET state = 9 WHERE id = 3;"
                  "ALTER TABLE seats DROP CONSTRAINT seats_seat;"
                  "INSERT INTO seats(table_id, seat, bot) VALUES (4, 7, false);");
    s = open_ok(path);
    damage_seen d = {0};
    assert_int_equal(s->ops->tables_load(s, on_damaged_table, &d), 0);
    assert_int_equal(d.n, 4);
    assert_string_equal(d.damage[0], "");
    assert_non_null(strstr(d.damage[1], "seed 'x'"));
    assert_true(d.seed_lost[1]);
    assert_non_null(strstr(d.damage[2], "state is '9'"));
    assert_false(d.seed_lost[2]);
    assert_non_null(strstr(d.damage[3], "numbered '7'"));
    /* table_get says the same of one table. */
    memset(&d, 0, sizeof d);
    assert_int_equal(s->ops->table_get(s, 4, on_damaged_table, &d), 1);
    assert_non_null(strstr(d.damage[0], "numbered '7'"));
    store_close(s);
}

/* A keyed table keeps its key; a key that does not read is damage that
 * leaves the game unbuildable. */
static void test_keyed_tables_pg(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "keys");
    store *s = open_ok(path);
    store_table seeded = {.preset = "uk", .house = "", .seed = 42, .options = "{}", .state = 1};
    store_table t = {.preset = "fife",
                     .house = "",
                     .seed = 77,
                     .options = "{}",
                     .state = STORE_PLAYING,
                     .created = 2000,
                     .keyed = true};
    for (int i = 0; i < BARBU_KEY_BYTES; i++)
        t.key[i] = (uint8_t)(255 - i);
    int64_t id = 0;
    assert_int_equal(s->ops->table_create(s, &seeded, &id), 0);
    assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    assert_int_equal(id, 2);
    key_seen k = {0};
    assert_int_equal(s->ops->tables_load(s, on_key_table, &k), 0);
    assert_int_equal(k.n, 2);
    assert_false(k.keyed[0]);
    assert_true(k.seed[0] == 42);
    assert_true(k.keyed[1]);
    assert_false(k.lost[1]);
    assert_memory_equal(k.key[1], t.key, BARBU_KEY_BYTES);
    assert_true(k.seed[1] == 77);
    store_close(s);
    pg_exec(path, "UPDATE tables SET key = 'zz' WHERE id = 2");
    s = open_ok(path);
    memset(&k, 0, sizeof k);
    assert_int_equal(s->ops->tables_load(s, on_key_table, &k), 0);
    assert_int_equal(k.n, 2);
    assert_true(k.keyed[1]);
    assert_true(k.lost[1]);
    store_close(s);
}

/* An append whose reply was lost (the connection dropped after its
 * commit) is sent again by the server with the same n: the same text at n
 * is that action, already written; another text at n is out of order. */
static void test_append_again_pg(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "again");
    store *s = open_ok(path);
    store_table t = {.preset = "uk", .house = "", .seed = 3, .options = "{}"};
    int64_t id;
    assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    char line[STORE_ACTION_TEXT], other[STORE_ACTION_TEXT];
    action_line(0, 0, line);
    action_line(0, 1, other);
    assert_int_equal(s->ops->action_append(s, id, 0, line), 0);
    assert_int_equal(s->ops->action_append(s, id, 0, line), 0);
    assert_int_equal(count_actions(s, id), 1);
    assert_int_equal(s->ops->action_append(s, id, 0, other), -1);
    char want[128];
    snprintf(want, sizeof want, "action 0 of table %" PRId64 " is out of order: the next is 1", id);
    assert_string_equal(store_error(s), want);
    assert_int_equal(s->ops->action_append(s, id, 1, other), 0);
    assert_int_equal(s->ops->action_append(s, id, 0, line), 0);
    assert_int_equal(count_actions(s, id), 2);
    store_close(s);
}

typedef struct nesting {
    store *s;
    int outer, inner;
} nesting;

static void on_inner_table(void *ctx, const store_table *t, const store_seat seats[4])
{
    (void)t;
    (void)seats;
    ((nesting *)ctx)->inner++;
}

static void on_outer_tables_load(void *ctx, const store_table *t, const store_seat seats[4])
{
    (void)t;
    (void)seats;
    nesting *v = ctx;
    v->outer++;
    assert_int_equal(v->s->ops->tables_load(v->s, on_inner_table, v), 0);
}

static void on_outer_table_get(void *ctx, const store_table *t, const store_seat seats[4])
{
    (void)seats;
    nesting *v = ctx;
    v->outer++;
    assert_int_equal(v->s->ops->table_get(v->s, t->id, on_inner_table, v), 1);
}

/* tables_load and table_get hand rows the store no longer reads: the same
 * load from inside their callbacks works, in both stores. */
static void test_nested_table_loads(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "nested");
    store *s = open_ok(path);
    int64_t ids[2];
    for (int k = 0; k < 2; k++) {
        store_table t = {.preset = "uk", .house = "", .seed = (uint64_t)k, .options = "{}"};
        assert_int_equal(s->ops->table_create(s, &t, &ids[k]), 0);
    }
    nesting v = {.s = s};
    assert_int_equal(s->ops->tables_load(s, on_outer_tables_load, &v), 0);
    assert_int_equal(v.outer, 2);
    assert_int_equal(v.inner, 4);
    v = (nesting){.s = s};
    assert_int_equal(s->ops->table_get(s, ids[1], on_outer_table_get, &v), 1);
    assert_int_equal(v.outer, 1);
    assert_int_equal(v.inner, 1);
    store_close(s);
}

/* libpq's messages about a URL it cannot parse quote it: the store's
 * error says what is wrong without the URL or its password. */
static void test_url_secret_pg(void **state)
{
    (void)state;
    static const char *const BAD[] = {
        "postgresql://barbu:s3cret@[::1/db",
        "postgresql://barbu:s3%zzcret@localhost/db",
    };
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        char err[512] = "";
        assert_null(store_pg_open(BAD[k], err, sizeof err));
        assert_non_null(strstr(err, "the database URL does not parse"));
        assert_null(strstr(err, "s3cret"));
        assert_null(strstr(err, "s3%zzcret"));
        assert_null(strstr(err, "zz"));
        err[0] = '\0';
        assert_null(store_pg_open_reader(BAD[k], err, sizeof err));
        assert_null(strstr(err, "s3"));
    }
}

static void on_seat_token(void *ctx, const store_table *t, const store_seat seats[4])
{
    (void)t;
    snprintf(ctx, 64, "%s", seats[0].token ? seats[0].token : "");
}

/* A session found by its name, and given a new id with its seats. */
static void test_session_rekey(void **state)
{
    (void)state;
    char path[PATH_CAP];
    db_path(path, sizeof path, "rekey");
    store *s = open_ok(path);
    char token[64] = "";
    assert_int_equal(s->ops->session_by_name(s, "dora", token, sizeof token), 0);
    assert_int_equal(s->ops->session_put(s, "guest-id", "dora"), 0);
    assert_int_equal(s->ops->session_by_name(s, "dora", token, sizeof token), 1);
    assert_string_equal(token, "guest-id");
    store_table t = {.preset = "uk",
                     .house = "",
                     .seed = 3,
                     .options = "{}",
                     .state = STORE_PLAYING,
                     .created = 1700000000};
    int64_t id = 0;
    assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    store_seat seat = {.seat = 0, .name = "dora", .player = "dora", .token = "guest-id"};
    assert_int_equal(s->ops->seat_put(s, id, &seat), 0);
    assert_int_equal(s->ops->session_rekey(s, "guest-id", "account-id"), 0);
    assert_int_equal(s->ops->session_by_name(s, "dora", token, sizeof token), 1);
    assert_string_equal(token, "account-id");
    char seat_token[64] = "";
    assert_int_equal(s->ops->table_get(s, id, on_seat_token, seat_token), 1);
    assert_string_equal(seat_token, "account-id");
    /* Onto an id another session has: refused, nothing changed. */
    assert_int_equal(s->ops->session_put(s, "other-id", "erin"), 0);
    assert_int_equal(s->ops->session_rekey(s, "account-id", "other-id"), -1);
    assert_int_equal(s->ops->session_by_name(s, "dora", token, sizeof token), 1);
    assert_string_equal(token, "account-id");
    assert_int_equal(s->ops->table_get(s, id, on_seat_token, seat_token), 1);
    assert_string_equal(seat_token, "account-id");
    store_close(s);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest sqlite_tests[] = {
        cmocka_unit_test(test_round_trip),          cmocka_unit_test(test_out_of_order),
        cmocka_unit_test(test_table_get_missing),   cmocka_unit_test(test_callbacks_use_the_store),
        cmocka_unit_test(test_nested_table_loads),  cmocka_unit_test(test_newer_schema_refused),
        cmocka_unit_test(test_killed_writer),       cmocka_unit_test(test_append_time),
        cmocka_unit_test(test_action_random),       cmocka_unit_test(test_action_legal),
        cmocka_unit_test(test_action_garbage),      cmocka_unit_test(test_damaged_rows),
        cmocka_unit_test(test_second_open_refused), cmocka_unit_test(test_accounts),
        cmocka_unit_test(test_migrate_1),           cmocka_unit_test(test_moderation_migration),
        cmocka_unit_test(test_keyed_tables),        cmocka_unit_test(test_session_rekey),
    };
    /* Skipped with --pg: test_killed_writer (a SIGKILL'd writer on a SQLite
     * file; PostgreSQL's commit is its server's), test_second_open_refused
     * (the file's flock: many nodes share a PostgreSQL database on
     * purpose), test_migrate_1 and test_moderation_migration (SQLite files
     * of versions before PostgreSQL; its own migration is test_store_nodes'),
     * and the actions' text (no store in it).  test_newer_schema_refused,
     * test_damaged_rows and test_keyed_tables spoil a SQLite file: their
     * _pg twins do the same through libpq. */
    const struct CMUnitTest pg_tests[] = {
        cmocka_unit_test(test_round_trip),         cmocka_unit_test(test_out_of_order),
        cmocka_unit_test(test_table_get_missing),  cmocka_unit_test(test_callbacks_use_the_store),
        cmocka_unit_test(test_nested_table_loads), cmocka_unit_test(test_append_again_pg),
        cmocka_unit_test(test_url_secret_pg),      cmocka_unit_test(test_newer_schema_refused_pg),
        cmocka_unit_test(test_append_time),        cmocka_unit_test(test_damaged_rows_pg),
        cmocka_unit_test(test_accounts),           cmocka_unit_test(test_moderation_pg),
        cmocka_unit_test(test_keyed_tables_pg),    cmocka_unit_test(test_session_rekey),
    };
    use_pg = argc > 1 && strcmp(argv[1], "--pg") == 0;
    if (use_pg)
        return cmocka_run_group_tests_name("store_pg", pg_tests, make_dir, remove_dir);
    return cmocka_run_group_tests_name("store_sqlite", sqlite_tests, make_dir, remove_dir);
}
