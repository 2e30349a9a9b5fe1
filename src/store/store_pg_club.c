/*
 * store_pg_club.c - the club in the PostgreSQL store (schema version 2):
 * the same tables, rows and answers as the SQLite store's club
 * (store_sqlite_club.c is the reference, store.h's club section the
 * contract), on the connection of store_pg.c.
 *
 *   games(id (the table's id), preset, house, ladder, rated, credit, status,
 *         started, finished, n_deals, total_n, total_e, total_s, total_w)
 *   game_deals(game, deals): the score message's deals, apart so that the
 *         games' rows stay small for the archive's walks
 *   game_players(game, n (the order written), seat, name, key, kind, level,
 *                credited, points, deals, place, started (the game's, for
 *                the index walk)), primary key (game, n)
 *   ladder(period ("2026-11" or "2026"), key, name, games, total)
 *   ratings(id ("p:" key or "c:" level), name, mu, sigma, games, updated)
 *   rating_history(id, game, at, mu, sigma, seq), unique (id, game)
 *   prefs(key, json, updated)
 *
 * Schema version 3 adds the kept analyses (issue 26, PG_ANALYSES_SCHEMA):
 *
 *   analyses(key ("game:ID" or "record:SHA256HEX"), seat, level, body (the
 *            analysis's JSON), created), primary key (key, seat, level)
 *
 * Where SQLite orders by its rowid (a rating's history, oldest first, the
 * order of writing among points of the same second), rating_history has a
 * column seq from an identity: an upsert keeps it, as SQLite keeps the
 * rowid.  Text that is sorted (the ladder's periods, names and keys, the
 * ratings' ids) is of collation "C", so that the order is SQLite's (bytes)
 * whatever the database's locale.
 *
 * The ladder is kept up to date by game_end, in the transaction that ends
 * the game, never summed on a read.  A game ends once.  game_begin and
 * game_end are fenced writes (store.h, "nodes"): once the store has joined
 * as a node, each transaction locks the game's tables row FOR SHARE and
 * checks its epoch before writing, so that a lease taken by another node
 * meanwhile either waits for the transaction or fences it.
 *
 * Reads hand rows to their callbacks straight from libpq's results (a
 * result stays whole on the client until PQclear), so a callback may use
 * the store, a nested load of the same kind included.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_check.h"
#include "store_pg_internal.h"

/* Run as one simple query (several statements) by the schema's step to
 * version 2, inside its transaction: no CONCURRENTLY. */
const char PG_CLUB_SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS games("
    "  id bigint PRIMARY KEY,"
    "  preset text NOT NULL,"
    "  house boolean NOT NULL,"
    "  ladder boolean NOT NULL,"
    "  rated boolean NOT NULL,"
    "  credit integer NOT NULL,"
    "  status integer NOT NULL,"
    "  started bigint NOT NULL,"
    "  finished bigint NOT NULL,"
    "  n_deals integer NOT NULL,"
    "  total_n integer NOT NULL,"
    "  total_e integer NOT NULL,"
    "  total_s integer NOT NULL,"
    "  total_w integer NOT NULL);"
    "CREATE TABLE IF NOT EXISTS game_deals("
    "  game bigint PRIMARY KEY REFERENCES games(id),"
    "  deals text NOT NULL);"
    /* The archive newest first, whole or by one condition; id breaks the
     * ties of a second. */
    "CREATE INDEX IF NOT EXISTS games_started ON games(started, id);"
    "CREATE INDEX IF NOT EXISTS games_preset ON games(preset, started, id);"
    "CREATE INDEX IF NOT EXISTS games_ladder ON games(ladder, started, id);"
    "CREATE INDEX IF NOT EXISTS games_status ON games(status, started, id);"
    "CREATE TABLE IF NOT EXISTS game_players("
    "  game bigint NOT NULL REFERENCES games(id),"
    "  n integer NOT NULL,"
    "  seat integer NOT NULL CHECK (seat BETWEEN 0 AND 3),"
    "  name text NOT NULL,"
    "  key text,"
    "  kind integer NOT NULL,"
    "  level text,"
    "  credited boolean NOT NULL,"
    "  points integer NOT NULL,"
    "  deals integer NOT NULL,"
    "  place integer NOT NULL,"
    "  started bigint NOT NULL,"
    "  PRIMARY KEY (game, n));"
    /* A player's (or a computer level's) games newest first. */
    "CREATE INDEX IF NOT EXISTS game_players_key ON game_players(key, started, game);"
    "CREATE INDEX IF NOT EXISTS game_players_name ON game_players(name, started, game);"
    "CREATE INDEX IF NOT EXISTS game_players_level ON game_players(level, started, game);"
    "CREATE TABLE IF NOT EXISTS ladder("
    "  period text COLLATE \"C\" NOT NULL,"
    "  key text COLLATE \"C\" NOT NULL,"
    "  name text COLLATE \"C\" NOT NULL,"
    "  games integer NOT NULL,"
    "  total bigint NOT NULL,"
    "  PRIMARY KEY (period, key));"
    "CREATE INDEX IF NOT EXISTS ladder_rank ON ladder(period, total);"
    "CREATE TABLE IF NOT EXISTS ratings("
    "  id text COLLATE \"C\" PRIMARY KEY,"
    "  name text NOT NULL,"
    "  mu double precision NOT NULL,"
    "  sigma double precision NOT NULL,"
    "  games integer NOT NULL,"
    "  updated bigint NOT NULL);"
    "CREATE INDEX IF NOT EXISTS ratings_shown ON ratings((mu - 3 * sigma) DESC, id);"
    "CREATE TABLE IF NOT EXISTS rating_history("
    "  id text COLLATE \"C\" NOT NULL,"
    "  game bigint NOT NULL,"
    "  at bigint NOT NULL,"
    "  mu double precision NOT NULL,"
    "  sigma double precision NOT NULL,"
    "  seq bigint GENERATED ALWAYS AS IDENTITY,"
    "  UNIQUE (id, game));"
    /* A rating's history in order, and the point before a game's. */
    "CREATE INDEX IF NOT EXISTS rating_history_at ON rating_history(id, at, seq);"
    "CREATE TABLE IF NOT EXISTS prefs("
    "  key text PRIMARY KEY,"
    "  json text NOT NULL,"
    "  updated bigint NOT NULL);";

const char PG_ANALYSES_SCHEMA[] = "CREATE TABLE IF NOT EXISTS analyses("
                                  "  key text COLLATE \"C\" NOT NULL,"
                                  "  seat integer NOT NULL CHECK (seat BETWEEN 0 AND 3),"
                                  "  level text COLLATE \"C\" NOT NULL,"
                                  "  body text NOT NULL,"
                                  "  created bigint NOT NULL,"
                                  "  PRIMARY KEY (key, seat, level));";

/* Preferences are a few fields: a bound on the text kept. */
#define PREFS_CAP 1024

/* ------------------------------------------------------------- helpers */

/* A write through a reader store is refused before it reaches the server. */
static bool refuse_reader(pg_store *p, const char *what)
{
    if (!p->reader)
        return false;
    pg_failf(p, "could not %s: this connection only reads", what);
    return true;
}

/* The text parameters of one statement: values, and room for the text of
 * the numbers among them.  The capacity is set once (the caller counts),
 * so the pointers handed out never move. */
typedef struct plist {
    int n, cap;
    const char **v;
    char (*num)[24];
} plist;

static bool pl_init(pg_store *p, plist *l, int cap)
{
    l->n = 0;
    l->cap = cap;
    l->v = calloc((size_t)cap, sizeof *l->v);
    l->num = calloc((size_t)cap, sizeof *l->num);
    if (l->v && l->num)
        return true;
    free(l->v);
    free(l->num);
    l->v = NULL;
    l->num = NULL;
    pg_failf(p, "out of memory building a statement's parameters");
    return false;
}

static void pl_free(plist *l)
{
    free(l->v);
    free(l->num);
}

/* Each adds a parameter and returns its number ($k).  Going past the
 * capacity is a bug of the caller's count: the parameter is dropped, and
 * the statement then fails on the server with a missing parameter. */
static int pl_text(plist *l, const char *s)
{
    if (l->n >= l->cap)
        return l->cap + 1;
    l->v[l->n] = s;
    return ++l->n;
}

static int pl_i64(plist *l, int64_t x)
{
    if (l->n >= l->cap)
        return l->cap + 1;
    l->v[l->n] = pg_i64(x, l->num[l->n]);
    return ++l->n;
}

static int pl_bool(plist *l, bool b)
{
    return pl_text(l, b ? "t" : "f");
}

/* Seventeen digits: the double comes back as it went. */
static int pl_double(plist *l, double x)
{
    if (l->n >= l->cap)
        return l->cap + 1;
    snprintf(l->num[l->n], sizeof l->num[l->n], "%.17g", x);
    l->v[l->n] = l->num[l->n];
    return ++l->n;
}

/* A growing text for SQL built from pieces; out of memory shows as a NULL
 * text at the end. */
typedef struct sqlbuf {
    char *s;
    size_t len, cap;
    bool oom;
} sqlbuf;

static void sb_add(sqlbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_add(sqlbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = true;
            return;
        }
        if (b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap : 256;
        while (cap <= b->len + (size_t)n)
            cap *= 2;
        char *more = realloc(b->s, cap);
        if (!more) {
            b->oom = true;
            return;
        }
        b->s = more;
        b->cap = cap;
    }
}

/* The SQL text, or NULL (and the error set) when it could not be built. */
static const char *sb_sql(pg_store *p, sqlbuf *b)
{
    if (b->oom || !b->s) {
        pg_failf(p, "out of memory building a statement");
        return NULL;
    }
    return b->s;
}

/* Inside a transaction: locks the tables row of a fenced write FOR SHARE
 * and checks that its epoch is still this store's (fence as pg_fence gave
 * it; "" writes unfenced and locks nothing).  1 may write, 0 fenced, -1
 * failure. */
static int fence_hold(pg_store *p, int64_t table, const char *fence)
{
    if (!fence[0])
        return 1;
    char id[24];
    const char *params[2] = {pg_i64(table, id), fence};
    PGresult *r =
        pg_run(p, "could not check a table's lease",
               "SELECT 1 FROM tables WHERE id = $1 AND epoch = $2::bigint FOR SHARE", 2, params);
    if (!r)
        return -1;
    int rows = PQntuples(r);
    PQclear(r);
    return rows > 0;
}

/* --------------------------------------------------------- games: write */

static int check_game(pg_store *p, const store_game *g, bool ending)
{
    char why[160];
    if (store_game_check(g, ending, why, sizeof why) != 0) {
        pg_failf(p, "%s", why);
        return -1;
    }
    return 0;
}

/* The game's current status: STORE_GAME_*, -2 none, -1 failure.  Inside a
 * write's transaction the row is locked, so that two ends of one game
 * cannot both see it running. */
static int status_of(pg_store *p, int64_t id, bool lock)
{
    char buf[24];
    const char *params[1] = {pg_i64(id, buf)};
    PGresult *r = pg_run(p, "could not read a game's status",
                         lock ? "SELECT status FROM games WHERE id = $1 FOR UPDATE"
                              : "SELECT status FROM games WHERE id = $1",
                         1, params);
    if (!r)
        return -1;
    int status = PQntuples(r) > 0 ? (int)pg_get_i64(r, 0, 0) : -2;
    PQclear(r);
    return status;
}

/* The game's row, its deals and its players, replacing what was there. */
static int put_game(pg_store *p, const store_game *g)
{
    plist l;
    if (!pl_init(p, &l, 15))
        return -1;
    pl_i64(&l, g->id);
    pl_text(&l, g->preset);
    pl_bool(&l, g->house);
    pl_bool(&l, g->ladder);
    pl_bool(&l, g->rated);
    pl_i64(&l, g->credit);
    pl_i64(&l, g->status);
    pl_i64(&l, g->started);
    pl_i64(&l, g->finished);
    pl_i64(&l, g->n_deals);
    for (int k = 0; k < 4; k++)
        pl_i64(&l, g->totals[k]);
    pl_text(&l, g->deals ? g->deals : "[]");
    /* The row and its deals in one statement: the deals' foreign key is
     * checked at the statement's end, when the row is there. */
    int rc = pg_do(p, "could not save a game",
                   "WITH g AS (INSERT INTO games(id, preset, house, ladder, rated, credit, status, "
                   "started, finished, n_deals, total_n, total_e, total_s, total_w) "
                   "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) "
                   "ON CONFLICT (id) DO UPDATE SET preset = excluded.preset, "
                   "house = excluded.house, ladder = excluded.ladder, rated = excluded.rated, "
                   "credit = excluded.credit, status = excluded.status, "
                   "started = excluded.started, finished = excluded.finished, "
                   "n_deals = excluded.n_deals, total_n = excluded.total_n, "
                   "total_e = excluded.total_e, total_s = excluded.total_s, "
                   "total_w = excluded.total_w RETURNING id) "
                   "INSERT INTO game_deals(game, deals) SELECT id, $15 FROM g "
                   "ON CONFLICT (game) DO UPDATE SET deals = excluded.deals",
                   l.n, l.v);
    if (rc == 0)
        rc = pg_do(p, "could not replace a game's players",
                   "DELETE FROM game_players WHERE game = $1", 1, l.v);
    pl_free(&l);
    if (rc || g->n_players == 0)
        return rc;

    /* Every player in one statement: $1 the game, $2 its start, then ten
     * a player. */
    if (!pl_init(p, &l, 2 + 10 * g->n_players))
        return -1;
    sqlbuf b = {0};
    pl_i64(&l, g->id);
    pl_i64(&l, g->started);
    sb_add(&b, "INSERT INTO game_players(game, n, seat, name, key, kind, level, credited, "
               "points, deals, place, started) VALUES ");
    for (int k = 0; k < g->n_players; k++) {
        const store_game_player *q = &g->players[k];
        int at = pl_i64(&l, k);
        pl_i64(&l, q->seat);
        pl_text(&l, q->name);
        /* Only a registered player has a key. */
        pl_text(&l, q->kind == STORE_PERSON_REGISTERED ? q->key : NULL);
        pl_i64(&l, q->kind);
        pl_text(&l, q->level);
        pl_bool(&l, q->credited);
        pl_i64(&l, q->points);
        pl_i64(&l, q->deals);
        pl_i64(&l, q->place);
        sb_add(&b,
               "%s($1, $%d::integer, $%d::integer, $%d, $%d, $%d::integer, $%d, $%d::boolean, "
               "$%d::integer, $%d::integer, $%d::integer, $2)",
               k ? ", " : "", at, at + 1, at + 2, at + 3, at + 4, at + 5, at + 6, at + 7, at + 8,
               at + 9);
    }
    const char *sql = sb_sql(p, &b);
    rc = sql ? pg_do(p, "could not save a game's players", sql, l.n, l.v) : -1;
    free(b.s);
    pl_free(&l);
    return rc;
}

int pg_game_begin(store *s, const store_game *g)
{
    pg_store *p = pg_of(s);
    if (check_game(p, g, false) || refuse_reader(p, "begin a game"))
        return -1;
    char fence[24];
    if (!pg_fence(p, g->id, fence))
        return STORE_FENCED;
    if (pg_begin(p))
        return -1;
    int held = fence_hold(p, g->id, fence);
    if (held <= 0) {
        pg_rollback(p);
        return held < 0 ? -1 : pg_fenced(p, g->id);
    }
    int status = status_of(p, g->id, true);
    if (status == -1) {
        pg_rollback(p);
        return -1;
    }
    if (status != -2 && status != STORE_GAME_RUNNING) {
        pg_failf(p, "game %" PRId64 " has ended already and cannot begin again", g->id);
        pg_rollback(p);
        return -1;
    }
    if (put_game(p, g)) {
        pg_rollback(p);
        return -1;
    }
    return pg_commit(p);
}

/* "2026-11" and "2026" of a time (UTC). */
static void periods_of(int64_t at, char month[16], char year[8])
{
    time_t t = (time_t)at;
    struct tm tm;
    if (!gmtime_r(&t, &tm))
        memset(&tm, 0, sizeof tm);
    unsigned y = (unsigned)(tm.tm_year + 1900) % 10000u, m = (unsigned)(tm.tm_mon % 12 + 1);
    snprintf(month, 16, "%04u-%02u", y, m);
    snprintf(year, 8, "%04u", y);
}

static bool ladder_counts(const store_game_player *q)
{
    return q->credited && q->kind == STORE_PERSON_REGISTERED && q->key;
}

/* Each credited registered player once in the month's and the year's
 * ladder, with the sum of their points in the game (a player who held two
 * seats counts once, under the name of their first row).  One statement
 * for all: the keys are distinct, so no row is touched twice. */
typedef struct ladder_key {
    const char *key;
    int at; /* the first player (row) with that key */
} ladder_key;

static int cmp_ladder_key(const void *a, const void *b)
{
    return strcmp(((const ladder_key *)a)->key, ((const ladder_key *)b)->key);
}

static int ladder_add(pg_store *p, const store_game *g)
{
    char month[16], year[8];
    periods_of(g->finished, month, year);
    plist l;
    if (!pl_init(p, &l, 2 + 3 * g->n_players))
        return -1;
    pl_text(&l, month);
    pl_text(&l, year);
    /* The players' distinct keys, sorted: the rows are written (and
     * locked) in the order of (period, key), the same on every node, so
     * that two nodes ending games of the same players at once wait for
     * each other rather than deadlock. */
    ladder_key *keys = malloc((g->n_players > 0 ? (size_t)g->n_players : 1) * sizeof *keys);
    if (!keys) {
        pl_free(&l);
        pg_failf(p, "out of memory adding a game to the ladder");
        return -1;
    }
    int n_keys = 0;
    for (int k = 0; k < g->n_players; k++) {
        const store_game_player *q = &g->players[k];
        if (!ladder_counts(q))
            continue;
        bool seen = false;
        for (int j = 0; j < n_keys && !seen; j++)
            seen = strcmp(keys[j].key, q->key) == 0;
        if (!seen)
            keys[n_keys++] = (ladder_key){.key = q->key, .at = k};
    }
    qsort(keys, (size_t)n_keys, sizeof *keys, cmp_ladder_key);
    int first = l.n + 1; /* the parameter of the first key */
    for (int k = 0; k < n_keys; k++) {
        const store_game_player *q = &g->players[keys[k].at];
        int64_t points = 0;
        for (int j = keys[k].at; j < g->n_players; j++) {
            const store_game_player *o = &g->players[j];
            if (ladder_counts(o) && strcmp(o->key, q->key) == 0)
                points += o->points;
        }
        pl_text(&l, q->key);
        pl_text(&l, q->name);
        pl_i64(&l, points);
    }
    sqlbuf b = {0};
    sb_add(&b, "INSERT INTO ladder(period, key, name, games, total) VALUES ");
    int rows = 0;
    /* The year ("2026") sorts before its months ("2026-11"): $2 first. */
    for (int m = 2; m >= 1; m--)
        for (int k = 0; k < n_keys; k++) {
            int at = first + 3 * k;
            sb_add(&b, "%s($%d, $%d, $%d, 1, $%d::bigint)", rows++ ? ", " : "", m, at, at + 1,
                   at + 2);
        }
    free(keys);
    sb_add(&b, " ON CONFLICT (period, key) DO UPDATE SET name = excluded.name, "
               "games = ladder.games + excluded.games, total = ladder.total + excluded.total");
    int rc = 0;
    if (rows > 0) {
        const char *sql = sb_sql(p, &b);
        rc = sql ? pg_do(p, "could not add a game to the ladder", sql, l.n, l.v) : -1;
    }
    free(b.s);
    pl_free(&l);
    return rc;
}

/* The ratings given and their points of history for this game, one by one
 * in their order (a rating given twice ends as its last, as in SQLite). */
typedef struct rating_order {
    const store_rating *r;
    int k;
} rating_order;

/* By id, then in the order given: a rating given twice still ends as its
 * last. */
static int cmp_rating_order(const void *a, const void *b)
{
    const rating_order *x = a, *y = b;
    int c = strcmp(x->r->id, y->r->id);
    return c ? c : (x->k > y->k) - (x->k < y->k);
}

static int ratings_put(pg_store *p, const store_game *g, const store_rating *given, int n)
{
    for (int k = 0; k < n; k++) {
        if (!given[k].id || !given[k].name || !(given[k].sigma > 0) || given[k].games < 0) {
            pg_failf(p, "a rating needs an id, a name, a positive sigma and a count of games");
            return -1;
        }
    }
    /* Written in the order of their ids, the same on every node, so that
     * two nodes ending games with the same computer levels (or players) at
     * once wait for each other's rows rather than deadlock. */
    rating_order *order = malloc((n > 0 ? (size_t)n : 1) * sizeof *order);
    if (!order) {
        pg_failf(p, "out of memory saving the ratings");
        return -1;
    }
    for (int k = 0; k < n; k++)
        order[k] = (rating_order){.r = &given[k], .k = k};
    qsort(order, (size_t)n, sizeof *order, cmp_rating_order);
    int result = 0;
    for (int k = 0; k < n && result == 0; k++) {
        const store_rating *r = order[k].r;
        plist l;
        if (!pl_init(p, &l, 8)) {
            result = -1;
            break;
        }
        pl_text(&l, r->id);
        pl_text(&l, r->name);
        pl_double(&l, r->mu);
        pl_double(&l, r->sigma);
        pl_i64(&l, r->games);
        pl_i64(&l, r->updated);
        pl_i64(&l, g->id);
        pl_i64(&l, g->finished);
        /* The rating and its point in one statement. */
        int rc = pg_do(
            p, "could not save a rating",
            "WITH r AS (INSERT INTO ratings(id, name, mu, sigma, games, updated) "
            "VALUES ($1, $2, $3::double precision, $4::double precision, $5::integer, "
            "$6::bigint) ON CONFLICT (id) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
            "sigma = excluded.sigma, games = excluded.games, updated = excluded.updated) "
            "INSERT INTO rating_history(id, game, at, mu, sigma) "
            "VALUES ($1, $7::bigint, $8::bigint, $3::double precision, $4::double precision) "
            "ON CONFLICT (id, game) DO UPDATE SET at = excluded.at, mu = excluded.mu, "
            "sigma = excluded.sigma",
            l.n, l.v);
        pl_free(&l);
        if (rc)
            result = -1;
    }
    free(order);
    return result;
}

static int game_end_once(pg_store *p, const store_game *g, const store_rating *ratings,
                         int n_ratings);

int pg_game_end(store *s, const store_game *g, const store_rating *ratings, int n_ratings)
{
    pg_store *p = pg_of(s);
    if (check_game(p, g, true))
        return -1;
    if (n_ratings < 0 || (n_ratings > 0 && !ratings)) {
        pg_failf(p, "game %" PRId64 " was given a count of ratings without them", g->id);
        return -1;
    }
    if (refuse_reader(p, "end a game"))
        return -1;
    p->sqlstate[0] = '\0';
    int rc = game_end_once(p, g, ratings, n_ratings);
    /* A deadlock the sorted writes did not prevent (with a transaction of
     * another kind): the database rolled this one back; once more. */
    if (rc == -1 && strcmp(p->sqlstate, "40P01") == 0)
        rc = game_end_once(p, g, ratings, n_ratings);
    return rc;
}

static int game_end_once(pg_store *p, const store_game *g, const store_rating *ratings,
                         int n_ratings)
{
    char fence[24];
    if (!pg_fence(p, g->id, fence))
        return STORE_FENCED;
    if (pg_begin(p))
        return -1;
    int held = fence_hold(p, g->id, fence);
    if (held <= 0) {
        pg_rollback(p);
        return held < 0 ? -1 : pg_fenced(p, g->id);
    }
    int status = status_of(p, g->id, true);
    if (status == -1) {
        pg_rollback(p);
        return -1;
    }
    if (status == STORE_GAME_OVER || status == STORE_GAME_ABANDONED) {
        pg_failf(p, "game %" PRId64 " has ended already: its results are kept as they were", g->id);
        pg_rollback(p);
        return -1;
    }
    if (put_game(p, g) || (g->ladder && g->status == STORE_GAME_OVER && ladder_add(p, g)) ||
        ratings_put(p, g, ratings, n_ratings)) {
        pg_rollback(p);
        return -1;
    }
    return pg_commit(p);
}

int pg_game_status(store *s, int64_t id)
{
    return status_of(pg_of(s), id, false);
}

/* ---------------------------------------------------------- games: read */

#define GAME_COLUMNS_G                                                                             \
    "g.id, g.preset, g.house, g.ladder, g.rated, g.credit, g.status, g.started, g.finished, "      \
    "g.n_deals, g.total_n, g.total_e, g.total_s, g.total_w"

/* The text of an array of the games' ids in column 0 of rows, for
 * "= ANY($1::bigint[])": "{7,12}".  malloc'd; NULL when out of memory. */
static char *ids_array(const PGresult *rows)
{
    int n = PQntuples(rows);
    size_t cap = 3 + (size_t)n * 21;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t used = 0;
    s[used++] = '{';
    for (int k = 0; k < n; k++)
        used += (size_t)snprintf(s + used, cap - used, "%s%" PRId64, k ? "," : "",
                                 pg_get_i64(rows, k, 0));
    snprintf(s + used, cap - used, "}");
    return s;
}

/* The first of ids (sorted, a result's games) that is id, or -1 when
 * there is none. */
static int first_row_of(const int64_t *ids, int n, int64_t id)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && ids[lo] == id ? lo : -1;
}

/* Hands fn the games of rows (GAME_COLUMNS_G, in the order to hand them),
 * each with its players, and its deals when with_deals (else "[]"): one
 * query for all the players, one for all the deals.  0 or -1. */
static int emit_games(pg_store *p, PGresult *rows, bool with_deals,
                      void (*fn)(void *ctx, const store_game *g), void *ctx)
{
    int n_games = PQntuples(rows);
    if (n_games == 0)
        return 0;
    char *ids = ids_array(rows);
    if (!ids) {
        pg_failf(p, "out of memory loading games");
        return -1;
    }
    const char *params[1] = {ids};
    PGresult *pr = pg_run(p, "could not load a game's players",
                          "SELECT game, seat, name, key, kind, level, credited, points, deals, "
                          "place FROM game_players WHERE game = ANY($1::bigint[]) ORDER BY game, n",
                          1, params);
    PGresult *dr = NULL;
    if (pr && with_deals)
        dr = pg_run(p, "could not load a game's deals",
                    "SELECT game, deals FROM game_deals WHERE game = ANY($1::bigint[]) "
                    "ORDER BY game",
                    1, params);
    free(ids);
    if (!pr || (with_deals && !dr)) {
        PQclear(pr);
        return -1;
    }
    int n_players = PQntuples(pr), n_deals = dr ? PQntuples(dr) : 0;
    store_game_player *players = calloc((size_t)n_players + 1, sizeof *players);
    int64_t *pgame = calloc((size_t)n_players + 1, sizeof *pgame);
    int64_t *dgame = calloc((size_t)n_deals + 1, sizeof *dgame);
    if (!players || !pgame || !dgame) {
        free(players);
        free(pgame);
        free(dgame);
        PQclear(pr);
        PQclear(dr);
        pg_failf(p, "out of memory loading a game's players");
        return -1;
    }
    for (int k = 0; k < n_players; k++) {
        store_game_player *q = &players[k];
        pgame[k] = pg_get_i64(pr, k, 0);
        q->seat = (int)pg_get_i64(pr, k, 1);
        q->name = pg_get_text(pr, k, 2);
        q->key = pg_get_text(pr, k, 3);
        q->kind = (int)pg_get_i64(pr, k, 4);
        q->level = pg_get_text(pr, k, 5);
        q->credited = pg_get_bool(pr, k, 6);
        q->points = (int32_t)pg_get_i64(pr, k, 7);
        q->deals = (int)pg_get_i64(pr, k, 8);
        q->place = (int)pg_get_i64(pr, k, 9);
    }
    for (int k = 0; k < n_deals; k++)
        dgame[k] = pg_get_i64(dr, k, 0);
    for (int k = 0; k < n_games; k++) {
        store_game g = {
            .id = pg_get_i64(rows, k, 0),
            .preset = pg_get_text(rows, k, 1),
            .house = pg_get_bool(rows, k, 2),
            .ladder = pg_get_bool(rows, k, 3),
            .rated = pg_get_bool(rows, k, 4),
            .credit = (int)pg_get_i64(rows, k, 5),
            .status = (int)pg_get_i64(rows, k, 6),
            .started = pg_get_i64(rows, k, 7),
            .finished = pg_get_i64(rows, k, 8),
            .n_deals = (int)pg_get_i64(rows, k, 9),
            .deals = "[]",
        };
        if (!g.preset)
            g.preset = "";
        for (int t = 0; t < 4; t++)
            g.totals[t] = (int32_t)pg_get_i64(rows, k, 10 + t);
        int d = first_row_of(dgame, n_deals, g.id);
        if (d >= 0 && pg_get_text(dr, d, 1))
            g.deals = pg_get_text(dr, d, 1);
        int first = first_row_of(pgame, n_players, g.id);
        if (first >= 0) {
            int last = first;
            while (last < n_players && pgame[last] == g.id)
                last++;
            g.players = &players[first];
            g.n_players = last - first;
        }
        if (fn)
            fn(ctx, &g);
    }
    free(players);
    free(pgame);
    free(dgame);
    PQclear(pr);
    PQclear(dr);
    return 0;
}

int pg_game_get(store *s, int64_t id, void (*fn)(void *ctx, const store_game *g), void *ctx)
{
    pg_store *p = pg_of(s);
    char buf[24];
    const char *params[1] = {pg_i64(id, buf)};
    PGresult *r = pg_run(p, "could not load a game",
                         "SELECT " GAME_COLUMNS_G " FROM games g WHERE g.id = $1", 1, params);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    int rc = emit_games(p, r, true, fn, ctx);
    PQclear(r);
    return rc ? -1 : found;
}

/* The FROM and WHERE of a filter (to count the games, or to list them), its
 * parameters added to l as they appear, and the order of its rows.  A
 * player's (or a level's) games are a walk of game_players' index (key,
 * name or level, started, game), newest first, each game once (a player
 * who held two seats of a game is met at its first row); the others a walk
 * of games(started, id) or of the index of their condition. */
static void filter_sql(const store_game_filter *f, bool counting, bool join, sqlbuf *b, plist *l,
                       const char **order)
{
    const char *by = f && f->key ? "key" : f && f->name ? "name" : f && f->level ? "level" : NULL;
    /* Whether a condition reads the games' rows (results do: the status). */
    bool rows = f && (f->preset || f->status >= 0 || f->ladder >= 0 || join);
    if (by) {
        int at = pl_text(l, f->key ? f->key : f->name ? f->name : f->level);
        if (counting) {
            /* Counted from the index alone when nothing else is asked. */
            sb_add(b, " FROM game_players p%s WHERE p.%s = $%d",
                   rows ? " JOIN games g ON g.id = p.game" : "", by, at);
            *order = NULL;
        } else {
            /* The game's first row of the player as "no row before it"
             * rather than SQLite's "p.n = (SELECT min(q.n) ...)": the
             * planner estimates an anti-join well and walks the index
             * backward to the page, where it takes the equality with a
             * subquery for a rare row and sorts every row of the player
             * (36 ms rather than 4 for a computer level's first page in
             * 10,000 games). */
            sb_add(b,
                   " FROM game_players p JOIN games g ON g.id = p.game WHERE p.%s = $%d"
                   " AND NOT EXISTS (SELECT 1 FROM game_players q WHERE q.game = p.game AND "
                   "q.%s = p.%s AND q.n < p.n)",
                   by, at, by, by);
            *order = "p.started DESC, p.game DESC";
        }
    } else {
        sb_add(b, " FROM games g WHERE true");
        *order = "g.started DESC, g.id DESC";
    }
    if (!f)
        return;
    /* A name beside a key: that person's games among the key's. */
    if (f->key && f->name)
        sb_add(b,
               " AND EXISTS (SELECT 1 FROM game_players r WHERE r.game = p.game AND r.name = $%d)",
               pl_text(l, f->name));
    /* A computer level beside a key or a name: games where one sat too. */
    if ((f->key || f->name) && f->level)
        sb_add(b,
               " AND EXISTS (SELECT 1 FROM game_players r WHERE r.game = p.game AND r.level = $%d)",
               pl_text(l, f->level));
    if (f->preset)
        sb_add(b, " AND g.preset = $%d", pl_text(l, f->preset));
    if (f->from > 0)
        sb_add(b, " AND %s >= $%d::bigint", by ? "p.started" : "g.started", pl_i64(l, f->from));
    if (f->to > 0)
        sb_add(b, " AND %s < $%d::bigint", by ? "p.started" : "g.started", pl_i64(l, f->to));
    if (f->status >= 0)
        sb_add(b, " AND g.status = $%d::integer", pl_i64(l, f->status));
    if (f->ladder >= 0)
        sb_add(b, " AND g.ladder = $%d::boolean", pl_bool(l, f->ladder != 0));
}

/* The most parameters a filter has, with a page's limit and offset. */
#define FILTER_PARAMS 10

int pg_games_find(store *s, const store_game_filter *f, int offset, int limit, int64_t *total,
                  void (*fn)(void *ctx, const store_game *g), void *ctx)
{
    pg_store *p = pg_of(s);
    if (offset < 0 || limit < 0) {
        pg_failf(p, "a search of games needs an offset and a limit of 0 or more");
        return -1;
    }
    const char *order;
    plist l;
    if (total) {
        if (!pl_init(p, &l, FILTER_PARAMS))
            return -1;
        sqlbuf b = {0};
        sb_add(&b, "SELECT count(%s)",
               f && (f->key || f->name || f->level) ? "DISTINCT p.game" : "*");
        filter_sql(f, true, false, &b, &l, &order);
        const char *sql = sb_sql(p, &b);
        PGresult *r = sql ? pg_run(p, "could not count games", sql, l.n, l.v) : NULL;
        free(b.s);
        pl_free(&l);
        if (!r)
            return -1;
        *total = pg_get_i64(r, 0, 0);
        PQclear(r);
    }
    if (limit == 0)
        return 0;
    if (!pl_init(p, &l, FILTER_PARAMS))
        return -1;
    sqlbuf b = {0};
    sb_add(&b, "SELECT " GAME_COLUMNS_G);
    filter_sql(f, false, false, &b, &l, &order);
    int lim = pl_i64(&l, limit), off = pl_i64(&l, offset);
    sb_add(&b, " ORDER BY %s LIMIT $%d::bigint OFFSET $%d::bigint", order, lim, off);
    const char *sql = sb_sql(p, &b);
    PGresult *r = sql ? pg_run(p, "could not find games", sql, l.n, l.v) : NULL;
    free(b.s);
    pl_free(&l);
    if (!r)
        return -1;
    int rc = emit_games(p, r, f && f->with_deals, fn, ctx);
    PQclear(r);
    return rc;
}

/* A player's results (store.h): their rows of game_players grouped by game,
 * each game's points summed and its best place kept, then counted.  The
 * walk is of the index that names the player; no deals are read. */
int pg_player_results(store *s, const store_game_filter *f, store_player_results *out)
{
    pg_store *p = pg_of(s);
    memset(out, 0, sizeof *out);
    if (!f || !(f->key || f->name || f->level)) {
        pg_failf(p, "a player's results need a player: a key, a name or a level");
        return -1;
    }
    plist l;
    if (!pl_init(p, &l, FILTER_PARAMS))
        return -1;
    const char *order;
    sqlbuf b = {0};
    sb_add(&b,
           "SELECT count(*), count(*) FILTER (WHERE status = %d), "
           "count(*) FILTER (WHERE status = %d), coalesce(sum(points), 0)::bigint, "
           "count(*) FILTER (WHERE best = 1), count(*) FILTER (WHERE best = 2), "
           "count(*) FILTER (WHERE best = 3), count(*) FILTER (WHERE best = 4) FROM ("
           "SELECT g.status AS status, "
           "sum(CASE WHEN p.credited AND g.status = %d THEN p.points ELSE 0 END) AS points, "
           "min(CASE WHEN p.credited AND g.status = %d AND p.place BETWEEN 1 AND 4 "
           "THEN p.place END) AS best",
           STORE_GAME_OVER, STORE_GAME_ABANDONED, STORE_GAME_OVER, STORE_GAME_OVER);
    filter_sql(f, true, true, &b, &l, &order);
    /* A game has one status: grouping by it too changes no group. */
    sb_add(&b, " GROUP BY p.game, g.status) AS r");
    const char *sql = sb_sql(p, &b);
    PGresult *r = sql ? pg_run(p, "could not count a player's results", sql, l.n, l.v) : NULL;
    free(b.s);
    pl_free(&l);
    if (!r)
        return -1;
    out->games = (int)pg_get_i64(r, 0, 0);
    out->over = (int)pg_get_i64(r, 0, 1);
    out->abandoned = (int)pg_get_i64(r, 0, 2);
    out->total = pg_get_i64(r, 0, 3);
    for (int k = 1; k <= 4; k++)
        out->places[k] = (int)pg_get_i64(r, 0, 3 + k);
    PQclear(r);
    return 0;
}

/* ----------------------------------------------------------------- ladder */

int pg_ladder_load(store *s, const char *period, void (*fn)(void *ctx, const store_ladder_row *row),
                   void *ctx)
{
    pg_store *p = pg_of(s);
    if (!period) {
        pg_failf(p, "a ladder needs a period");
        return -1;
    }
    const char *params[1] = {period};
    PGresult *r = pg_run(p, "could not load a ladder",
                         "SELECT key, name, games, total FROM ladder WHERE period = $1 "
                         "ORDER BY total DESC, games, name, key",
                         1, params);
    if (!r)
        return -1;
    for (int k = 0; k < PQntuples(r); k++) {
        store_ladder_row row = {
            .key = pg_get_text(r, k, 0),
            .name = pg_get_text(r, k, 1),
            .games = (int)pg_get_i64(r, k, 2),
            .total = pg_get_i64(r, k, 3),
        };
        if (row.key && row.name && fn)
            fn(ctx, &row);
    }
    PQclear(r);
    return 0;
}

int pg_ladder_periods(store *s, void (*fn)(void *ctx, const char *period), void *ctx)
{
    pg_store *p = pg_of(s);
    /* A skip through the primary key, one step a period, rather than
     * DISTINCT's walk of every row.  Wrapped in a SELECT, which is what a
     * reader's connection lets through. */
    PGresult *r = pg_run(p, "could not list the ladder's periods",
                         "SELECT x FROM (WITH RECURSIVE q(x) AS (SELECT max(period) FROM ladder "
                         "UNION ALL SELECT (SELECT max(period) FROM ladder WHERE period < q.x) "
                         "FROM q WHERE q.x IS NOT NULL) SELECT x FROM q) AS periods "
                         "WHERE x IS NOT NULL",
                         0, NULL);
    if (!r)
        return -1;
    for (int k = 0; k < PQntuples(r); k++) {
        const char *period = pg_get_text(r, k, 0);
        if (period && fn)
            fn(ctx, period);
    }
    PQclear(r);
    return 0;
}

/* ---------------------------------------------------------------- ratings */

#define RATING_COLUMNS "id, name, mu, sigma, games, updated"

static bool rating_row(const PGresult *r, int k, store_rating *out)
{
    out->id = pg_get_text(r, k, 0);
    out->name = pg_get_text(r, k, 1);
    out->mu = pg_get_double(r, k, 2);
    out->sigma = pg_get_double(r, k, 3);
    out->games = (int)pg_get_i64(r, k, 4);
    out->updated = pg_get_i64(r, k, 5);
    return out->id && out->name;
}

int pg_rating_get(store *s, const char *id, void (*fn)(void *ctx, const store_rating *r), void *ctx)
{
    pg_store *p = pg_of(s);
    if (!id) {
        pg_failf(p, "a rating needs an id");
        return -1;
    }
    const char *params[1] = {id};
    PGresult *r = pg_run(p, "could not load a rating",
                         "SELECT " RATING_COLUMNS " FROM ratings WHERE id = $1", 1, params);
    if (!r)
        return -1;
    int found = 0;
    store_rating rating;
    if (PQntuples(r) > 0 && rating_row(r, 0, &rating)) {
        found = 1;
        if (fn)
            fn(ctx, &rating);
    }
    PQclear(r);
    return found;
}

int pg_ratings_load(store *s, void (*fn)(void *ctx, const store_rating *r), void *ctx)
{
    pg_store *p = pg_of(s);
    PGresult *r =
        pg_run(p, "could not load the ratings",
               "SELECT " RATING_COLUMNS " FROM ratings ORDER BY mu - 3 * sigma DESC, id", 0, NULL);
    if (!r)
        return -1;
    for (int k = 0; k < PQntuples(r); k++) {
        store_rating rating;
        if (rating_row(r, k, &rating) && fn)
            fn(ctx, &rating);
    }
    PQclear(r);
    return 0;
}

int pg_rating_history_load(store *s, const char *id,
                           void (*fn)(void *ctx, const store_rating_point *p), void *ctx)
{
    pg_store *p = pg_of(s);
    if (!id) {
        pg_failf(p, "a rating's history needs an id");
        return -1;
    }
    const char *params[1] = {id};
    PGresult *r = pg_run(p, "could not load a rating's history",
                         "SELECT game, at, mu, sigma FROM rating_history WHERE id = $1 "
                         "ORDER BY at, seq",
                         1, params);
    if (!r)
        return -1;
    for (int k = 0; k < PQntuples(r); k++) {
        store_rating_point pt = {
            .game = pg_get_i64(r, k, 0),
            .at = pg_get_i64(r, k, 1),
            .mu = pg_get_double(r, k, 2),
            .sigma = pg_get_double(r, k, 3),
        };
        if (fn)
            fn(ctx, &pt);
    }
    PQclear(r);
    return 0;
}

/* The point a game gave a rating, by the (id, game) index, and the one
 * before it in the history's order (at, then seq), by (id, at, seq). */
int pg_rating_point_get(store *s, const char *id, int64_t game, store_rating_point *out,
                        store_rating_point *prev)
{
    pg_store *p = pg_of(s);
    memset(out, 0, sizeof *out);
    memset(prev, 0, sizeof *prev);
    if (!id) {
        pg_failf(p, "a rating's point needs an id");
        return -1;
    }
    char buf[24];
    const char *params[2] = {id, pg_i64(game, buf)};
    PGresult *r = pg_run(p, "could not load a rating's point",
                         "SELECT h.at, h.mu, h.sigma, b.game, b.at, b.mu, b.sigma "
                         "FROM rating_history h LEFT JOIN LATERAL (SELECT x.game, x.at, x.mu, "
                         "x.sigma FROM rating_history x WHERE x.id = h.id AND (x.at, x.seq) < "
                         "(h.at, h.seq) ORDER BY x.at DESC, x.seq DESC LIMIT 1) b ON true "
                         "WHERE h.id = $1 AND h.game = $2::bigint",
                         2, params);
    if (!r)
        return -1;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return 0;
    }
    out->game = game;
    out->at = pg_get_i64(r, 0, 0);
    out->mu = pg_get_double(r, 0, 1);
    out->sigma = pg_get_double(r, 0, 2);
    if (!PQgetisnull(r, 0, 3)) {
        prev->game = pg_get_i64(r, 0, 3);
        prev->at = pg_get_i64(r, 0, 4);
        prev->mu = pg_get_double(r, 0, 5);
        prev->sigma = pg_get_double(r, 0, 6);
    }
    PQclear(r);
    return 1;
}

/* ------------------------------------------------------------ preferences */

int pg_prefs_get(store *s, const char *key, char *out, size_t cap)
{
    pg_store *p = pg_of(s);
    if (!key || !out || cap == 0) {
        pg_failf(p, "preferences are read by a handle's key into a buffer");
        return -1;
    }
    const char *params[1] = {key};
    PGresult *r =
        pg_run(p, "could not load preferences", "SELECT json FROM prefs WHERE key = $1", 1, params);
    if (!r)
        return -1;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return 0;
    }
    const char *json = pg_get_text(r, 0, 0);
    size_t n = json ? strlen(json) : 0;
    if (!json || n >= cap) {
        pg_failf(p, "the preferences kept for this handle do not fit in %zu bytes", cap);
        PQclear(r);
        return -1;
    }
    memcpy(out, json, n + 1);
    PQclear(r);
    return 1;
}

int pg_prefs_put(store *s, const char *key, const char *json)
{
    pg_store *p = pg_of(s);
    if (!key || !json) {
        pg_failf(p, "preferences need a handle's key and their text");
        return -1;
    }
    if (strlen(json) > PREFS_CAP) {
        pg_failf(p, "preferences are at most %d bytes of text", PREFS_CAP);
        return -1;
    }
    if (refuse_reader(p, "save preferences"))
        return -1;
    char now[24];
    const char *params[3] = {key, json, pg_i64((int64_t)time(NULL), now)};
    return pg_do(p, "could not save preferences",
                 "INSERT INTO prefs(key, json, updated) VALUES ($1, $2, $3::bigint) "
                 "ON CONFLICT (key) DO UPDATE SET json = excluded.json, updated = excluded.updated",
                 3, params);
}

/* ------------------------------------------------------------- analyses */

/* What analysis_put and analysis_get check of their arguments. */
static bool analysis_args_ok(pg_store *p, const char *key, int seat, const char *level)
{
    if (!key || !key[0] || !level || !level[0] || seat < 0 || seat > 3) {
        pg_failf(p, "an analysis is kept by a key, a seat from 0 to 3 and a level");
        return false;
    }
    return true;
}

int pg_analysis_put(store *s, const char *key, int seat, const char *level, const char *body)
{
    pg_store *p = pg_of(s);
    if (!analysis_args_ok(p, key, seat, level))
        return -1;
    if (!body || strlen(body) > (size_t)STORE_ANALYSIS_MAX) {
        pg_failf(p, "an analysis is text of at most %ld bytes", (long)STORE_ANALYSIS_MAX);
        return -1;
    }
    if (refuse_reader(p, "keep the analysis"))
        return -1;
    char seat_text[24], now[24], keep[24];
    const char *params[5] = {key, pg_i64(seat, seat_text), level, body,
                             pg_i64((int64_t)time(NULL), now)};
    /* The put and the cap of the uploads' analyses together (store.h,
     * STORE_ANALYSIS_RECORDS): the table never holds more than the cap,
     * whatever fails.  Two nodes putting at once may each keep theirs:
     * the next put trims again. */
    bool upload = strncmp(key, "record:", 7) == 0;
    if (upload && pg_begin(p))
        return -1;
    if (pg_do(p, "could not keep the analysis",
              "INSERT INTO analyses(key, seat, level, body, created) "
              "VALUES ($1, $2::integer, $3, $4, $5::bigint) "
              "ON CONFLICT (key, seat, level) DO UPDATE SET body = excluded.body, "
              "created = excluded.created",
              5, params) < 0) {
        if (upload)
            pg_rollback(p);
        return -1;
    }
    if (!upload)
        return 0;
    const char *trim[4] = {key, seat_text, level, pg_i64(STORE_ANALYSIS_RECORDS - 1, keep)};
    /* "record:" keys are the range ['record:', 'record;') in the key's
     * C collation, walked in the primary key. */
    if (pg_do(p, "could not keep the uploads' analyses to their cap",
              "DELETE FROM analyses WHERE (key, seat, level) IN (SELECT key, seat, level "
              "FROM analyses WHERE key >= 'record:' AND key < 'record;' "
              "AND NOT (key = $1 AND seat = $2::integer AND level = $3) "
              "ORDER BY created DESC, key DESC, seat DESC, level DESC OFFSET $4::bigint)",
              4, trim) < 0) {
        pg_rollback(p);
        return -1;
    }
    return pg_commit(p);
}

int pg_analysis_get(store *s, const char *key, int seat, const char *level, char **body)
{
    pg_store *p = pg_of(s);
    if (!body) {
        pg_failf(p, "an analysis is read into a pointer");
        return -1;
    }
    *body = NULL;
    if (!analysis_args_ok(p, key, seat, level))
        return -1;
    char seat_text[24];
    const char *params[3] = {key, pg_i64(seat, seat_text), level};
    PGresult *r = pg_run(p, "could not read the analysis",
                         "SELECT body FROM analyses WHERE key = $1 AND seat = $2::integer "
                         "AND level = $3",
                         3, params);
    if (!r)
        return -1;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return 0;
    }
    const char *json = pg_get_text(r, 0, 0);
    *body = json ? strdup(json) : NULL;
    PQclear(r);
    if (*body == NULL) {
        pg_failf(p, json ? "out of memory reading the analysis" : "the analysis kept has no text");
        return -1;
    }
    return 1;
}
