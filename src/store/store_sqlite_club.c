/*
 * store_sqlite_club.c - the club in the SQLite store (schema version 3,
 * docs/club.md, docs/internals.md):
 *
 *   games(id INTEGER PRIMARY KEY (the table's id), preset, house INTEGER,
 *         ladder INTEGER, rated INTEGER, credit INTEGER, status INTEGER,
 *         started INTEGER, finished INTEGER, n_deals INTEGER,
 *         total_n, total_e, total_s, total_w INTEGER)
 *   game_deals(game PRIMARY KEY REFERENCES games, deals TEXT): the score
 *         message's deals, apart so that the games' rows stay small for the
 *         archive's walks
 *   game_players(game REFERENCES games, n (the order written), seat, name,
 *                key, kind, level, credited, points, deals, place,
 *                started (the game's, for the index walk), PRIMARY KEY(game, n))
 *   ladder(period ("2026-11" or "2026"), key, name, games, total,
 *          PRIMARY KEY(period, key))
 *   ratings(id PRIMARY KEY ("p:" key or "c:" level), name, mu, sigma, games,
 *           updated)
 *   rating_history(id, game, at, mu, sigma), UNIQUE(id, game)
 *   prefs(key PRIMARY KEY, json, updated)
 *
 * Schema version 4 adds the kept analyses (issue 26, SQLITE_ANALYSES_SCHEMA):
 *
 *   analyses(key ("game:ID" or "record:SHA256HEX"), seat, level, body (the
 *            analysis's JSON), created, PRIMARY KEY(key, seat, level))
 *
 * Indexes make each of the club's reads an index walk: a player's games
 * (game_players(key, started, game) and (name, started, game)), the archive
 * newest first (games(started), games(preset, started)), a period's ladder
 * by total (ladder(period, total)), the ratings by mu - 3 sigma, a
 * rating's history (rating_history(id, game)).
 *
 * The ladder is kept up to date by game_end, in the transaction that ends
 * the game, never summed on a read.  A game ends once: game_end on a game
 * that is over or abandoned already changes nothing and fails.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_check.h"
#include "store_sqlite_club.h"

const char SQLITE_CLUB_SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS games("
    "  id INTEGER PRIMARY KEY,"
    "  preset TEXT NOT NULL,"
    "  house INTEGER NOT NULL,"
    "  ladder INTEGER NOT NULL,"
    "  rated INTEGER NOT NULL,"
    "  credit INTEGER NOT NULL,"
    "  status INTEGER NOT NULL,"
    "  started INTEGER NOT NULL,"
    "  finished INTEGER NOT NULL,"
    "  n_deals INTEGER NOT NULL,"
    "  total_n INTEGER NOT NULL,"
    "  total_e INTEGER NOT NULL,"
    "  total_s INTEGER NOT NULL,"
    "  total_w INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS game_deals("
    "  game INTEGER PRIMARY KEY REFERENCES games(id),"
    "  deals TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS games_started ON games(started);"
    "CREATE INDEX IF NOT EXISTS games_preset ON games(preset, started);"
    "CREATE INDEX IF NOT EXISTS games_ladder ON games(ladder, started);"
    "CREATE INDEX IF NOT EXISTS games_status ON games(status, started);"
    "CREATE TABLE IF NOT EXISTS game_players("
    "  game INTEGER NOT NULL REFERENCES games(id),"
    "  n INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),"
    "  name TEXT NOT NULL,"
    "  key TEXT,"
    "  kind INTEGER NOT NULL,"
    "  level TEXT,"
    "  credited INTEGER NOT NULL,"
    "  points INTEGER NOT NULL,"
    "  deals INTEGER NOT NULL,"
    "  place INTEGER NOT NULL,"
    "  started INTEGER NOT NULL,"
    "  PRIMARY KEY (game, n)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS game_players_key ON game_players(key, started, game);"
    "CREATE INDEX IF NOT EXISTS game_players_name ON game_players(name, started, game);"
    "CREATE INDEX IF NOT EXISTS game_players_level ON game_players(level, started, game);"
    "CREATE TABLE IF NOT EXISTS ladder("
    "  period TEXT NOT NULL,"
    "  key TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  total INTEGER NOT NULL,"
    "  PRIMARY KEY (period, key)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS ladder_rank ON ladder(period, total);"
    "CREATE TABLE IF NOT EXISTS ratings("
    "  id TEXT PRIMARY KEY NOT NULL,"
    "  name TEXT NOT NULL,"
    "  mu REAL NOT NULL,"
    "  sigma REAL NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  updated INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS ratings_shown ON ratings(mu - 3 * sigma);"
    "CREATE TABLE IF NOT EXISTS rating_history("
    "  id TEXT NOT NULL,"
    "  game INTEGER NOT NULL,"
    "  at INTEGER NOT NULL,"
    "  mu REAL NOT NULL,"
    "  sigma REAL NOT NULL);"
    "CREATE UNIQUE INDEX IF NOT EXISTS rating_history_of ON rating_history(id, game);"
    /* rating_point_get: the point before a game's, in order. */
    "CREATE INDEX IF NOT EXISTS rating_history_at ON rating_history(id, at);"
    "CREATE TABLE IF NOT EXISTS prefs("
    "  key TEXT PRIMARY KEY NOT NULL,"
    "  json TEXT NOT NULL,"
    "  updated INTEGER NOT NULL);";

const char SQLITE_ANALYSES_SCHEMA[] = "CREATE TABLE IF NOT EXISTS analyses("
                                      "  key TEXT NOT NULL,"
                                      "  seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),"
                                      "  level TEXT NOT NULL,"
                                      "  body TEXT NOT NULL,"
                                      "  created INTEGER NOT NULL,"
                                      "  PRIMARY KEY (key, seat, level)) WITHOUT ROWID;";

/* Preferences are a few fields: a bound on the text kept. */
#define PREFS_CAP 1024

struct sqlite_club {
    store *base;
    sqlite3 *db;
    sqlite3_stmt *game_put;
    sqlite3_stmt *deals_put;
    sqlite3_stmt *deals_of;
    sqlite3_stmt *game_status;
    sqlite3_stmt *game_row;
    sqlite3_stmt *players_delete;
    sqlite3_stmt *player_put;
    sqlite3_stmt *players_of;
    sqlite3_stmt *ladder_add;
    sqlite3_stmt *ladder_load;
    sqlite3_stmt *ladder_periods;
    sqlite3_stmt *rating_put;
    sqlite3_stmt *history_put;
    sqlite3_stmt *rating_get;
    sqlite3_stmt *ratings_load;
    sqlite3_stmt *history_load;
    sqlite3_stmt *prefs_get;
    sqlite3_stmt *prefs_put;
    sqlite3_stmt *point_get;
    sqlite3_stmt *analysis_put;
    sqlite3_stmt *analysis_get;
    sqlite3_stmt *analysis_trim;
};

#define GAME_COLUMNS                                                                               \
    "id, preset, house, ladder, rated, credit, status, started, finished, n_deals, total_n, "      \
    "total_e, total_s, total_w"

static const struct {
    size_t offset;
    const char *sql;
} CLUB_STATEMENTS[] = {
    {offsetof(sqlite_club, game_put),
     "INSERT INTO games(" GAME_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
     "?12, ?13, ?14) ON CONFLICT(id) DO UPDATE SET preset = excluded.preset, "
     "house = excluded.house, ladder = excluded.ladder, rated = excluded.rated, "
     "credit = excluded.credit, status = excluded.status, started = excluded.started, "
     "finished = excluded.finished, n_deals = excluded.n_deals, total_n = excluded.total_n, "
     "total_e = excluded.total_e, total_s = excluded.total_s, total_w = excluded.total_w"},
    {offsetof(sqlite_club, deals_put), "INSERT INTO game_deals(game, deals) VALUES (?1, ?2) "
                                       "ON CONFLICT(game) DO UPDATE SET deals = excluded.deals"},
    {offsetof(sqlite_club, deals_of), "SELECT deals FROM game_deals WHERE game = ?1"},
    {offsetof(sqlite_club, game_status), "SELECT status FROM games WHERE id = ?1"},
    {offsetof(sqlite_club, game_row), "SELECT " GAME_COLUMNS " FROM games WHERE id = ?1"},
    {offsetof(sqlite_club, players_delete), "DELETE FROM game_players WHERE game = ?1"},
    {offsetof(sqlite_club, player_put),
     "INSERT INTO game_players(game, n, seat, name, key, kind, level, credited, points, deals, "
     "place, started) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"},
    {offsetof(sqlite_club, players_of),
     "SELECT seat, name, key, kind, level, credited, points, deals, place FROM game_players "
     "WHERE game = ?1 ORDER BY n"},
    {offsetof(sqlite_club, ladder_add),
     "INSERT INTO ladder(period, key, name, games, total) VALUES (?1, ?2, ?3, ?4, ?5) "
     "ON CONFLICT(period, key) DO UPDATE SET name = excluded.name, "
     "games = games + excluded.games, total = total + excluded.total"},
    {offsetof(sqlite_club, ladder_load),
     "SELECT key, name, games, total FROM ladder WHERE period = ?1 "
     "ORDER BY total DESC, games, name, key"},
    {offsetof(sqlite_club, ladder_periods),
     /* A skip through the primary key, one step a period, rather than
      * DISTINCT's walk of every row (bench/club.sh: 2 ms of 7 a ladder). */
     "WITH RECURSIVE p(x) AS (SELECT max(period) FROM ladder UNION ALL "
     "SELECT (SELECT max(period) FROM ladder WHERE period < p.x) FROM p WHERE p.x IS NOT NULL) "
     "SELECT x FROM p WHERE x IS NOT NULL"},
    {offsetof(sqlite_club, rating_put),
     "INSERT INTO ratings(id, name, mu, sigma, games, updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
     "ON CONFLICT(id) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
     "sigma = excluded.sigma, games = excluded.games, updated = excluded.updated"},
    {offsetof(sqlite_club, history_put),
     "INSERT INTO rating_history(id, game, at, mu, sigma) VALUES (?1, ?2, ?3, ?4, ?5) "
     "ON CONFLICT(id, game) DO UPDATE SET at = excluded.at, mu = excluded.mu, "
     "sigma = excluded.sigma"},
    {offsetof(sqlite_club, rating_get),
     "SELECT id, name, mu, sigma, games, updated FROM ratings WHERE id = ?1"},
    {offsetof(sqlite_club, ratings_load),
     "SELECT id, name, mu, sigma, games, updated FROM ratings ORDER BY mu - 3 * sigma DESC, id"},
    {offsetof(sqlite_club, history_load),
     "SELECT game, at, mu, sigma FROM rating_history WHERE id = ?1 ORDER BY at, rowid"},
    {offsetof(sqlite_club, prefs_get), "SELECT json FROM prefs WHERE key = ?1"},
    {offsetof(sqlite_club, prefs_put),
     "INSERT INTO prefs(key, json, updated) VALUES (?1, ?2, ?3) "
     "ON CONFLICT(key) DO UPDATE SET json = excluded.json, updated = excluded.updated"},
    {offsetof(sqlite_club, point_get),
     "SELECT h.at, h.mu, h.sigma, b.game, b.at, b.mu, b.sigma FROM rating_history h "
     "LEFT JOIN rating_history b ON b.rowid = (SELECT x.rowid FROM rating_history x "
     "WHERE x.id = h.id AND (x.at, x.rowid) < (h.at, h.rowid) "
     "ORDER BY x.at DESC, x.rowid DESC LIMIT 1) WHERE h.id = ?1 AND h.game = ?2"},
    {offsetof(sqlite_club, analysis_put),
     "INSERT INTO analyses(key, seat, level, body, created) VALUES (?1, ?2, ?3, ?4, ?5) "
     "ON CONFLICT(key, seat, level) DO UPDATE SET body = excluded.body, "
     "created = excluded.created"},
    {offsetof(sqlite_club, analysis_get),
     "SELECT body FROM analyses WHERE key = ?1 AND seat = ?2 AND level = ?3"},
    {offsetof(sqlite_club, analysis_trim),
     /* The uploaded records' analyses beyond the newest ?4 others than
      * the one just put (store.h, STORE_ANALYSIS_RECORDS): "record:" keys
      * are the range ['record:', 'record;'), walked in the primary key. */
     "DELETE FROM analyses WHERE (key, seat, level) IN (SELECT key, seat, level FROM analyses "
     "WHERE key >= 'record:' AND key < 'record;' AND NOT (key = ?1 AND seat = ?2 AND level = ?3) "
     "ORDER BY created DESC, key DESC, seat DESC, level DESC LIMIT -1 OFFSET ?4)"},
};

#define N_CLUB_STATEMENTS (sizeof CLUB_STATEMENTS / sizeof CLUB_STATEMENTS[0])

static sqlite3_stmt **club_statement(sqlite_club *c, size_t k)
{
    return (sqlite3_stmt **)((char *)c + CLUB_STATEMENTS[k].offset);
}

sqlite_club *sqlite_club_open(store *base, sqlite3 *db, char *err, size_t cap)
{
    sqlite_club *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, cap, "out of memory preparing the club's statements");
        return NULL;
    }
    c->base = base;
    c->db = db;
    for (size_t k = 0; k < N_CLUB_STATEMENTS; k++) {
        if (sqlite3_prepare_v3(db, CLUB_STATEMENTS[k].sql, -1, SQLITE_PREPARE_PERSISTENT,
                               club_statement(c, k), NULL) != SQLITE_OK) {
            snprintf(err, cap, "could not prepare the club's statements: %s", sqlite3_errmsg(db));
            sqlite_club_close(c);
            return NULL;
        }
    }
    return c;
}

void sqlite_club_close(sqlite_club *c)
{
    if (!c)
        return;
    for (size_t k = 0; k < N_CLUB_STATEMENTS; k++)
        sqlite3_finalize(*club_statement(c, k));
    free(c);
}

/* ------------------------------------------------------------- helpers */

static void cfail(sqlite_club *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void cfail(sqlite_club *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->base->error, sizeof c->base->error, fmt, ap);
    va_end(ap);
}

static void done(sqlite3_stmt *st)
{
    if (st) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    }
}

static int sql_fail(sqlite_club *c, sqlite3_stmt *st, const char *what)
{
    cfail(c, "could not %s: %s", what, sqlite3_errmsg(c->db));
    done(st);
    return -1;
}

static int text(sqlite3_stmt *st, int k, const char *s)
{
    if (!s)
        return sqlite3_bind_null(st, k);
    return sqlite3_bind_text(st, k, s, -1, SQLITE_TRANSIENT);
}

static int step_done(sqlite_club *c, sqlite3_stmt *st, const char *what)
{
    if (sqlite3_step(st) != SQLITE_DONE)
        return sql_fail(c, st, what);
    done(st);
    return 0;
}

static int busy_load(sqlite_club *c, sqlite3_stmt *st, const char *what)
{
    if (!sqlite3_stmt_busy(st))
        return 0;
    cfail(c, "%s was called from inside its own callback", what);
    return -1;
}

static int begin(sqlite_club *c, const char *what)
{
    if (sqlite3_exec(c->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return sql_fail(c, NULL, what);
    return 0;
}

/* Rolls back and returns -1, keeping the error already written. */
static int rollback(sqlite_club *c)
{
    char keep[sizeof c->base->error];
    memcpy(keep, c->base->error, sizeof keep);
    sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
    memcpy(c->base->error, keep, sizeof keep);
    return -1;
}

static int commit(sqlite_club *c, const char *what)
{
    if (sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        sql_fail(c, NULL, what);
        return rollback(c);
    }
    return 0;
}

/* --------------------------------------------------------- games: write */

static int check_game(sqlite_club *c, const store_game *g, bool ending)
{
    char why[160];
    if (store_game_check(g, ending, why, sizeof why) != 0) {
        cfail(c, "%s", why);
        return -1;
    }
    return 0;
}

/* The game's current status inside the transaction: STORE_GAME_*, -2 none,
 * -1 failure. */
static int status_of(sqlite_club *c, int64_t id)
{
    sqlite3_stmt *st = c->game_status;
    if (sqlite3_bind_int64(st, 1, id))
        return sql_fail(c, st, "read a game's status");
    int rc = sqlite3_step(st);
    int status = -2;
    if (rc == SQLITE_ROW)
        status = sqlite3_column_int(st, 0);
    else if (rc != SQLITE_DONE)
        return sql_fail(c, st, "read a game's status");
    done(st);
    return status;
}

/* The game's row and its players, replacing what was there. */
static int put_game(sqlite_club *c, const store_game *g)
{
    sqlite3_stmt *st = c->game_put;
    if (sqlite3_bind_int64(st, 1, g->id) || text(st, 2, g->preset) ||
        sqlite3_bind_int(st, 3, g->house) || sqlite3_bind_int(st, 4, g->ladder) ||
        sqlite3_bind_int(st, 5, g->rated) || sqlite3_bind_int(st, 6, g->credit) ||
        sqlite3_bind_int(st, 7, g->status) || sqlite3_bind_int64(st, 8, g->started) ||
        sqlite3_bind_int64(st, 9, g->finished) || sqlite3_bind_int(st, 10, g->n_deals) ||
        sqlite3_bind_int(st, 11, g->totals[0]) || sqlite3_bind_int(st, 12, g->totals[1]) ||
        sqlite3_bind_int(st, 13, g->totals[2]) || sqlite3_bind_int(st, 14, g->totals[3]))
        return sql_fail(c, st, "save a game");
    if (step_done(c, st, "save a game"))
        return -1;
    st = c->deals_put;
    if (sqlite3_bind_int64(st, 1, g->id) || text(st, 2, g->deals ? g->deals : "[]"))
        return sql_fail(c, st, "save a game's deals");
    if (step_done(c, st, "save a game's deals"))
        return -1;
    st = c->players_delete;
    if (sqlite3_bind_int64(st, 1, g->id))
        return sql_fail(c, st, "replace a game's players");
    if (step_done(c, st, "replace a game's players"))
        return -1;
    st = c->player_put;
    for (int k = 0; k < g->n_players; k++) {
        const store_game_player *p = &g->players[k];
        if (sqlite3_bind_int64(st, 1, g->id) || sqlite3_bind_int(st, 2, k) ||
            sqlite3_bind_int(st, 3, p->seat) || text(st, 4, p->name) ||
            text(st, 5, p->kind == STORE_PERSON_REGISTERED ? p->key : NULL) ||
            sqlite3_bind_int(st, 6, p->kind) || text(st, 7, p->level) ||
            sqlite3_bind_int(st, 8, p->credited) || sqlite3_bind_int(st, 9, p->points) ||
            sqlite3_bind_int(st, 10, p->deals) || sqlite3_bind_int(st, 11, p->place) ||
            sqlite3_bind_int64(st, 12, g->started))
            return sql_fail(c, st, "save a game's player");
        if (step_done(c, st, "save a game's player"))
            return -1;
    }
    return 0;
}

int sqlite_game_begin(store *s, const store_game *g)
{
    sqlite_club *c = sqlite_club_of(s);
    if (check_game(c, g, false) || begin(c, "begin a game"))
        return -1;
    int status = status_of(c, g->id);
    if (status == -1)
        return rollback(c);
    if (status != -2 && status != STORE_GAME_RUNNING) {
        cfail(c, "game %" PRId64 " has ended already and cannot begin again", g->id);
        return rollback(c);
    }
    if (put_game(c, g))
        return rollback(c);
    return commit(c, "begin a game");
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

/* Each credited registered player once in the month's and the year's
 * ladder, with the sum of their points in the game. */
static int ladder_add(sqlite_club *c, const store_game *g)
{
    char month[16], year[8];
    periods_of(g->finished, month, year);
    for (int k = 0; k < g->n_players; k++) {
        const store_game_player *p = &g->players[k];
        if (!p->credited || p->kind != STORE_PERSON_REGISTERED || !p->key)
            continue;
        bool seen = false;
        int64_t points = 0;
        for (int j = 0; j < g->n_players; j++) {
            const store_game_player *o = &g->players[j];
            if (!o->credited || o->kind != STORE_PERSON_REGISTERED || !o->key ||
                strcmp(o->key, p->key) != 0)
                continue;
            if (j < k) {
                seen = true;
                break;
            }
            points += o->points;
        }
        if (seen)
            continue;
        const char *periods[2] = {month, year};
        for (int m = 0; m < 2; m++) {
            sqlite3_stmt *st = c->ladder_add;
            if (text(st, 1, periods[m]) || text(st, 2, p->key) || text(st, 3, p->name) ||
                sqlite3_bind_int(st, 4, 1) || sqlite3_bind_int64(st, 5, points))
                return sql_fail(c, st, "add a game to the ladder");
            if (step_done(c, st, "add a game to the ladder"))
                return -1;
        }
    }
    return 0;
}

static int ratings_put(sqlite_club *c, const store_game *g, const store_rating *r, int n)
{
    for (int k = 0; k < n; k++) {
        if (!r[k].id || !r[k].name || !(r[k].sigma > 0) || r[k].games < 0) {
            cfail(c, "a rating needs an id, a name, a positive sigma and a count of games");
            return -1;
        }
        sqlite3_stmt *st = c->rating_put;
        if (text(st, 1, r[k].id) || text(st, 2, r[k].name) || sqlite3_bind_double(st, 3, r[k].mu) ||
            sqlite3_bind_double(st, 4, r[k].sigma) || sqlite3_bind_int(st, 5, r[k].games) ||
            sqlite3_bind_int64(st, 6, r[k].updated))
            return sql_fail(c, st, "save a rating");
        if (step_done(c, st, "save a rating"))
            return -1;
        st = c->history_put;
        if (text(st, 1, r[k].id) || sqlite3_bind_int64(st, 2, g->id) ||
            sqlite3_bind_int64(st, 3, g->finished) || sqlite3_bind_double(st, 4, r[k].mu) ||
            sqlite3_bind_double(st, 5, r[k].sigma))
            return sql_fail(c, st, "save a rating's history");
        if (step_done(c, st, "save a rating's history"))
            return -1;
    }
    return 0;
}

int sqlite_game_end(store *s, const store_game *g, const store_rating *ratings, int n_ratings)
{
    sqlite_club *c = sqlite_club_of(s);
    if (check_game(c, g, true))
        return -1;
    if (n_ratings < 0 || (n_ratings > 0 && !ratings)) {
        cfail(c, "game %" PRId64 " was given a count of ratings without them", g->id);
        return -1;
    }
    if (begin(c, "end a game"))
        return -1;
    int status = status_of(c, g->id);
    if (status == -1)
        return rollback(c);
    if (status == STORE_GAME_OVER || status == STORE_GAME_ABANDONED) {
        cfail(c, "game %" PRId64 " has ended already: its results are kept as they were", g->id);
        return rollback(c);
    }
    if (put_game(c, g) || (g->ladder && g->status == STORE_GAME_OVER && ladder_add(c, g)) ||
        ratings_put(c, g, ratings, n_ratings))
        return rollback(c);
    return commit(c, "end a game");
}

int sqlite_game_status(store *s, int64_t id)
{
    return status_of(sqlite_club_of(s), id);
}

/* ---------------------------------------------------------- games: read */

typedef struct loaded_game {
    store_game g;
    char *preset, *deals;
    store_game_player *players;
    int n, cap;
} loaded_game;

static char *dup_column(sqlite3_stmt *st, int k)
{
    const char *t = (const char *)sqlite3_column_text(st, k);
    return t ? strdup(t) : NULL;
}

static void loaded_free(loaded_game *lg)
{
    for (int k = 0; k < lg->n; k++) {
        free((char *)lg->players[k].name);
        free((char *)lg->players[k].key);
        free((char *)lg->players[k].level);
    }
    free(lg->players);
    free(lg->preset);
    free(lg->deals);
    memset(lg, 0, sizeof *lg);
}

/* Reads the game row under st (GAME_COLUMNS) and its players.  0 or -1. */
static int load_game(sqlite_club *c, sqlite3_stmt *st, loaded_game *lg, bool with_deals)
{
    memset(lg, 0, sizeof *lg);
    lg->preset = dup_column(st, 1);
    store_game *g = &lg->g;
    g->id = sqlite3_column_int64(st, 0);
    g->preset = lg->preset ? lg->preset : "";
    g->house = sqlite3_column_int(st, 2) != 0;
    g->ladder = sqlite3_column_int(st, 3) != 0;
    g->rated = sqlite3_column_int(st, 4) != 0;
    g->credit = sqlite3_column_int(st, 5);
    g->status = sqlite3_column_int(st, 6);
    g->started = sqlite3_column_int64(st, 7);
    g->finished = sqlite3_column_int64(st, 8);
    g->n_deals = sqlite3_column_int(st, 9);
    for (int k = 0; k < 4; k++)
        g->totals[k] = sqlite3_column_int(st, 10 + k);
    sqlite3_stmt *ds = c->deals_of;
    int drc = SQLITE_DONE;
    if (with_deals) {
        if (sqlite3_bind_int64(ds, 1, g->id))
            return sql_fail(c, ds, "load a game's deals");
        drc = sqlite3_step(ds);
    }
    if (drc == SQLITE_ROW)
        lg->deals = dup_column(ds, 0);
    else if (drc == SQLITE_DONE)
        lg->deals = strdup("[]");
    else
        return sql_fail(c, ds, "load a game's deals");
    if (with_deals)
        done(ds);
    g->deals = lg->deals ? lg->deals : "[]";
    sqlite3_stmt *ps = c->players_of;
    if (sqlite3_bind_int64(ps, 1, g->id))
        return sql_fail(c, ps, "load a game's players");
    int rc;
    while ((rc = sqlite3_step(ps)) == SQLITE_ROW) {
        if (lg->n == lg->cap) {
            int cap = lg->cap ? 2 * lg->cap : 8;
            store_game_player *more = realloc(lg->players, (size_t)cap * sizeof *more);
            if (!more) {
                cfail(c, "out of memory loading a game's players");
                done(ps);
                return -1;
            }
            lg->players = more;
            lg->cap = cap;
        }
        store_game_player *p = &lg->players[lg->n];
        memset(p, 0, sizeof *p);
        p->seat = sqlite3_column_int(ps, 0);
        p->name = dup_column(ps, 1);
        p->key = dup_column(ps, 2);
        p->kind = sqlite3_column_int(ps, 3);
        p->level = dup_column(ps, 4);
        p->credited = sqlite3_column_int(ps, 5) != 0;
        p->points = sqlite3_column_int(ps, 6);
        p->deals = sqlite3_column_int(ps, 7);
        p->place = sqlite3_column_int(ps, 8);
        lg->n++;
        if (!p->name) {
            cfail(c, "out of memory loading a game's players");
            done(ps);
            return -1;
        }
    }
    if (rc != SQLITE_DONE)
        return sql_fail(c, ps, "load a game's players");
    done(ps);
    g->players = lg->players;
    g->n_players = lg->n;
    if (!lg->preset || !lg->deals) {
        cfail(c, "out of memory loading a game");
        return -1;
    }
    return 0;
}

int sqlite_game_get(store *s, int64_t id, void (*fn)(void *ctx, const store_game *g), void *ctx)
{
    sqlite_club *c = sqlite_club_of(s);
    sqlite3_stmt *st = c->game_row;
    if (busy_load(c, st, "game_get"))
        return -1;
    if (sqlite3_bind_int64(st, 1, id))
        return sql_fail(c, st, "load a game");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        done(st);
        return 0;
    }
    if (rc != SQLITE_ROW)
        return sql_fail(c, st, "load a game");
    loaded_game lg;
    int ok = load_game(c, st, &lg, true);
    done(st);
    if (ok == 0 && fn)
        fn(ctx, &lg.g);
    loaded_free(&lg);
    return ok == 0 ? 1 : -1;
}

/* The FROM and WHERE of a filter (to count the games, or to list them),
 * its parameters numbered from 1 in the order bind_filter binds them, and
 * the order of its rows.  A player's (or a level's)
 * games are a walk of game_players' index (key, name or level, started, game),
 * newest first, each game once (a player who held two seats of a game is
 * met at its first row); the others a walk of games(started) or
 * games(preset, started). */
static void filter_sql(const store_game_filter *f, bool counting, bool join, char *out, size_t cap,
                       const char **order)
{
    size_t used;
    const char *by = f && f->key ? "key" : f && f->name ? "name" : f && f->level ? "level" : NULL;
    /* Whether a condition reads the games' rows (results do: the status). */
    bool rows = f && (f->preset || f->status >= 0 || f->ladder >= 0 || join);
    if (by && counting) {
        /* Counted from the index alone when nothing else is asked. */
        used = (size_t)snprintf(out, cap, " FROM game_players p%s WHERE p.%s = ?",
                                rows ? " JOIN games g ON g.id = p.game" : "", by);
        *order = NULL;
    } else if (by) {
        used = (size_t)snprintf(out, cap,
                                " FROM game_players p JOIN games g ON g.id = p.game WHERE p.%s = ?"
                                " AND p.n = (SELECT min(q.n) FROM game_players q WHERE q.game = "
                                "p.game AND q.%s = p.%s)",
                                by, by, by);
        *order = "p.started DESC, p.game DESC";
    } else {
        used = (size_t)snprintf(out, cap, " FROM games g WHERE 1");
        *order = "g.started DESC, g.id DESC";
    }
#define ADD(cond)                                                                                  \
    do {                                                                                           \
        if (used < cap)                                                                            \
            used += (size_t)snprintf(out + used, cap - used, " AND %s", cond);                     \
    } while (0)
    /* A name beside a key: that person's games among the key's. */
    if (f && f->key && f->name)
        ADD("EXISTS (SELECT 1 FROM game_players r WHERE r.game = p.game AND r.name = ?)");
    /* A computer level beside a key or a name: games where one sat too. */
    if (f && (f->key || f->name) && f->level)
        ADD("EXISTS (SELECT 1 FROM game_players r WHERE r.game = p.game AND r.level = ?)");
    if (f && f->preset)
        ADD("g.preset = ?");
    if (f && f->from > 0)
        ADD(by ? "p.started >= ?" : "g.started >= ?");
    if (f && f->to > 0)
        ADD(by ? "p.started < ?" : "g.started < ?");
    if (f && f->status >= 0)
        ADD("g.status = ?");
    if (f && f->ladder >= 0)
        ADD("g.ladder = ?");
#undef ADD
}

static int bind_filter(sqlite3_stmt *st, const store_game_filter *f)
{
    int k = 1, rc = 0;
    if (!f)
        return 0;
    if (f->key)
        rc |= text(st, k++, f->key);
    if (f->name)
        rc |= text(st, k++, f->name);
    if (f->level)
        rc |= text(st, k++, f->level);
    if (f->preset)
        rc |= text(st, k++, f->preset);
    if (f->from > 0)
        rc |= sqlite3_bind_int64(st, k++, f->from);
    if (f->to > 0)
        rc |= sqlite3_bind_int64(st, k++, f->to);
    if (f->status >= 0)
        rc |= sqlite3_bind_int(st, k++, f->status);
    if (f->ladder >= 0)
        rc |= sqlite3_bind_int(st, k++, f->ladder ? 1 : 0);
    return rc ? k : 0;
}

static int filter_count(const store_game_filter *f)
{
    if (!f)
        return 0;
    return (f->key != NULL) + (f->name != NULL) + (f->level != NULL) + (f->preset != NULL) +
           (f->from > 0) + (f->to > 0) + (f->status >= 0) + (f->ladder >= 0);
}

#define GAME_COLUMNS_G                                                                             \
    "g.id, g.preset, g.house, g.ladder, g.rated, g.credit, g.status, g.started, g.finished, "      \
    "g.n_deals, g.total_n, g.total_e, g.total_s, g.total_w"

int sqlite_games_find(store *s, const store_game_filter *f, int offset, int limit, int64_t *total,
                      void (*fn)(void *ctx, const store_game *g), void *ctx)
{
    sqlite_club *c = sqlite_club_of(s);
    if (offset < 0 || limit < 0) {
        cfail(c, "a search of games needs an offset and a limit of 0 or more");
        return -1;
    }
    char where[768], sql[1280];
    const char *order;
    int n = filter_count(f);
    sqlite3_stmt *st = NULL;
    if (total) {
        filter_sql(f, true, false, where, sizeof where, &order);
        snprintf(sql, sizeof sql, "SELECT count(%s)%s",
                 f && (f->key || f->name || f->level) ? "DISTINCT p.game" : "*", where);
        if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
            return sql_fail(c, NULL, "count games");
        if (bind_filter(st, f) || sqlite3_step(st) != SQLITE_ROW) {
            sql_fail(c, NULL, "count games");
            sqlite3_finalize(st);
            return -1;
        }
        *total = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    if (limit == 0)
        return 0;
    filter_sql(f, false, false, where, sizeof where, &order);
    snprintf(sql, sizeof sql, "SELECT " GAME_COLUMNS_G "%s ORDER BY %s LIMIT ?%d OFFSET ?%d", where,
             order, n + 1, n + 2);
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return sql_fail(c, NULL, "find games");
    if (bind_filter(st, f) || sqlite3_bind_int(st, n + 1, limit) ||
        sqlite3_bind_int(st, n + 2, offset)) {
        sql_fail(c, NULL, "find games");
        sqlite3_finalize(st);
        return -1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        loaded_game lg;
        if (load_game(c, st, &lg, f && f->with_deals)) {
            loaded_free(&lg);
            sqlite3_finalize(st);
            return -1;
        }
        if (fn)
            fn(ctx, &lg.g);
        loaded_free(&lg);
    }
    if (rc != SQLITE_DONE) {
        sql_fail(c, NULL, "find games");
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return 0;
}

/* A player's results (store.h): their rows of game_players grouped by game,
 * each game's points summed and its best place kept, then counted.  The
 * walk is of the index that names the player; no deals are read. */
int sqlite_player_results(store *s, const store_game_filter *f, store_player_results *out)
{
    sqlite_club *c = sqlite_club_of(s);
    memset(out, 0, sizeof *out);
    if (!f || !(f->key || f->name || f->level)) {
        cfail(c, "a player's results need a player: a key, a name or a level");
        return -1;
    }
    char where[768], sql[1536];
    const char *order;
    filter_sql(f, true, true, where, sizeof where, &order);
    snprintf(sql, sizeof sql,
             "SELECT count(*), coalesce(sum(status = %d), 0), coalesce(sum(status = %d), 0), "
             "coalesce(sum(points), 0), coalesce(sum(best = 1), 0), coalesce(sum(best = 2), 0), "
             "coalesce(sum(best = 3), 0), coalesce(sum(best = 4), 0) FROM ("
             "SELECT g.status AS status, "
             "sum(CASE WHEN p.credited AND g.status = %d THEN p.points ELSE 0 END) AS points, "
             "min(CASE WHEN p.credited AND g.status = %d AND p.place BETWEEN 1 AND 4 "
             "THEN p.place END) AS best%s GROUP BY p.game)",
             STORE_GAME_OVER, STORE_GAME_ABANDONED, STORE_GAME_OVER, STORE_GAME_OVER, where);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return sql_fail(c, NULL, "count a player's results");
    if (bind_filter(st, f) || sqlite3_step(st) != SQLITE_ROW) {
        sql_fail(c, NULL, "count a player's results");
        sqlite3_finalize(st);
        return -1;
    }
    out->games = sqlite3_column_int(st, 0);
    out->over = sqlite3_column_int(st, 1);
    out->abandoned = sqlite3_column_int(st, 2);
    out->total = sqlite3_column_int64(st, 3);
    for (int k = 1; k <= 4; k++)
        out->places[k] = sqlite3_column_int(st, 3 + k);
    sqlite3_finalize(st);
    return 0;
}

/* ----------------------------------------------------------------- ladder */

int sqlite_ladder_load(store *s, const char *period,
                       void (*fn)(void *ctx, const store_ladder_row *row), void *ctx)
{
    sqlite_club *c = sqlite_club_of(s);
    sqlite3_stmt *st = c->ladder_load;
    if (busy_load(c, st, "ladder_load"))
        return -1;
    if (!period) {
        cfail(c, "a ladder needs a period");
        return -1;
    }
    if (text(st, 1, period))
        return sql_fail(c, st, "load a ladder");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        store_ladder_row row = {
            .key = (const char *)sqlite3_column_text(st, 0),
            .name = (const char *)sqlite3_column_text(st, 1),
            .games = sqlite3_column_int(st, 2),
            .total = sqlite3_column_int64(st, 3),
        };
        if (row.key && row.name && fn)
            fn(ctx, &row);
    }
    if (rc != SQLITE_DONE)
        return sql_fail(c, st, "load a ladder");
    done(st);
    return 0;
}

int sqlite_ladder_periods(store *s, void (*fn)(void *ctx, const char *period), void *ctx)
{
    sqlite_club *c = sqlite_club_of(s);
    sqlite3_stmt *st = c->ladder_periods;
    if (busy_load(c, st, "ladder_periods"))
        return -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *p = (const char *)sqlite3_column_text(st, 0);
        if (p && fn)
            fn(ctx, p);
    }
    if (rc != SQLITE_DONE)
        return sql_fail(c, st, "list the ladder's periods");
    done(st);
    return 0;
}

/* ---------------------------------------------------------------- ratings */

static bool rating_row(sqlite3_stmt *st, store_rating *r)
{
    r->id = (const char *)sqlite3_column_text(st, 0);
    r->name = (const char *)sqlite3_column_text(st, 1);
    r->mu = sqlite3_column_double(st, 2);
    r->sigma = sqlite3_column_double(st, 3);
    r->games = sqlite3_column_int(st, 4);
    r->updated = sqlite3_column_int64(st, 5);
    return r->id && r->name;
}

int sqlite_rating_get(store *s, const char *id, void (*fn)(void *ctx, const store_rating *r),
                      void *ctx)
{
    sqlite_club *c = sqlite_club_of(s);
    sqlite3_stmt *st = c->rating_get;
    if (busy_load(c, st, "rating_get"))
        return -1;
    if (!id) {
        cfail(c, "a rating needs an id");
        return -1;
    }
    if (text(st, 1, id))
        return sql_fail(c, st, "load a rating");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        done(st);
        return 0;
    }
    if (rc != SQLITE_ROW)
        return sql_fail(c, st, "load a rating");
    store_rating r;
    bool ok = rating_row(st, &r);
    if (ok && fn)
        fn(ctx, &r);
    done(st);
    return ok ? 1 : 0;
}

int sqlite_ratings_load(store *s, void (*fn)(void *ctx, const store_rating *r), void *ctx)
{
    sqlite_club *c = sqlite_club_of(s);
    sqlite3_stmt *st = c->ratings_load;
    if (busy_load(c, st, "ratings_load"))
        return -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        store_rating r;
        if (rating_row(st, &r) && fn)
            fn(ctx, &r);
    }
    if (rc != SQLITE_DONE)
        return sql_fail(c, st, "load the ratings");
    done(st);
    return 0;
}

int sqlite_rating_history_load(store *s, const char *id,
                               void (*fn)(void *ctx, const store_rating_point *p), void *ctx)
{
    sqlite_club *c = sqlite_club_of(s);
    sqlite3_stmt *st = c->history_load;
    if (busy_load(c, st, "rating_history_load"))
        return -1;
    if (!id) {
        cfail(c, "a rating's history needs an id");
        return -1;
    }
    if (text(st, 1, id))
        return sql_fail(c, st, "load a rating's history");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        store_rating_point p = {
            .game = sqlite3_column_int64(st, 0),
            .at = sqlite3_column_int64(st, 1),
            .mu = sqlite3_column_double(st, 2),
            .sigma = sqlite3_column_double(st, 3),
        };
        if (fn)
            fn(ctx, &p);
    }
    if (rc != SQLITE_DONE)
        return sql_fail(c, st, "load a rating's history");
    done(st);
    return 0;
}

/* ------------------------------------------------------------ preferences */

/* The point a game gave a rating, by the (id, game) index, and the one
 * before it in the history's order (at, then rowid), by (id, at). */
int sqlite_rating_point_get(store *s, const char *id, int64_t game, store_rating_point *out,
                            store_rating_point *prev)
{
    sqlite_club *c = sqlite_club_of(s);
    memset(out, 0, sizeof *out);
    memset(prev, 0, sizeof *prev);
    if (!id) {
        cfail(c, "a rating's point needs an id");
        return -1;
    }
    sqlite3_stmt *st = c->point_get;
    if (busy_load(c, st, "rating_point_get"))
        return -1;
    if (text(st, 1, id) || sqlite3_bind_int64(st, 2, game))
        return sql_fail(c, st, "load a rating's point");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        done(st);
        return 0;
    }
    if (rc != SQLITE_ROW)
        return sql_fail(c, st, "load a rating's point");
    out->game = game;
    out->at = sqlite3_column_int64(st, 0);
    out->mu = sqlite3_column_double(st, 1);
    out->sigma = sqlite3_column_double(st, 2);
    if (sqlite3_column_type(st, 3) != SQLITE_NULL) {
        prev->game = sqlite3_column_int64(st, 3);
        prev->at = sqlite3_column_int64(st, 4);
        prev->mu = sqlite3_column_double(st, 5);
        prev->sigma = sqlite3_column_double(st, 6);
    }
    done(st);
    return 1;
}

int sqlite_prefs_get(store *s, const char *key, char *out, size_t cap)
{
    sqlite_club *c = sqlite_club_of(s);
    sqlite3_stmt *st = c->prefs_get;
    if (!key || !out || cap == 0) {
        cfail(c, "preferences are read by a handle's key into a buffer");
        return -1;
    }
    if (text(st, 1, key))
        return sql_fail(c, st, "load preferences");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        done(st);
        return 0;
    }
    if (rc != SQLITE_ROW)
        return sql_fail(c, st, "load preferences");
    const char *json = (const char *)sqlite3_column_text(st, 0);
    int n = sqlite3_column_bytes(st, 0);
    if (!json || (size_t)n >= cap) {
        cfail(c, "the preferences kept for this handle do not fit in %zu bytes", cap);
        done(st);
        return -1;
    }
    memcpy(out, json, (size_t)n + 1);
    done(st);
    return 1;
}

int sqlite_prefs_put(store *s, const char *key, const char *json)
{
    sqlite_club *c = sqlite_club_of(s);
    sqlite3_stmt *st = c->prefs_put;
    if (!key || !json) {
        cfail(c, "preferences need a handle's key and their text");
        return -1;
    }
    if (strlen(json) > PREFS_CAP) {
        cfail(c, "preferences are at most %d bytes of text", PREFS_CAP);
        return -1;
    }
    if (text(st, 1, key) || text(st, 2, json) ||
        sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL)))
        return sql_fail(c, st, "save preferences");
    return step_done(c, st, "save preferences");
}

/* ------------------------------------------------------------- analyses */

/* What analysis_put and analysis_get check of their arguments. */
static bool analysis_args_ok(sqlite_club *c, const char *key, int seat, const char *level)
{
    if (!key || !key[0] || !level || !level[0] || seat < 0 || seat > 3) {
        cfail(c, "an analysis is kept by a key, a seat from 0 to 3 and a level");
        return false;
    }
    return true;
}

int sqlite_analysis_put(store *s, const char *key, int seat, const char *level, const char *body)
{
    sqlite_club *c = sqlite_club_of(s);
    sqlite3_stmt *st = c->analysis_put;
    if (!analysis_args_ok(c, key, seat, level))
        return -1;
    if (!body || strlen(body) > (size_t)STORE_ANALYSIS_MAX) {
        cfail(c, "an analysis is text of at most %ld bytes", (long)STORE_ANALYSIS_MAX);
        return -1;
    }
    /* The put and the cap of the uploads' analyses together: the table
     * never holds more than the cap, whatever fails. */
    bool upload = strncmp(key, "record:", 7) == 0;
    if (upload && begin(c, "keep the analysis"))
        return -1;
    if (text(st, 1, key) || sqlite3_bind_int(st, 2, seat) || text(st, 3, level) ||
        text(st, 4, body) || sqlite3_bind_int64(st, 5, (sqlite3_int64)time(NULL))) {
        sql_fail(c, st, "keep the analysis");
        return upload ? rollback(c) : -1;
    }
    if (step_done(c, st, "keep the analysis"))
        return upload ? rollback(c) : -1;
    if (!upload)
        return 0;
    sqlite3_stmt *trim = c->analysis_trim;
    if (text(trim, 1, key) || sqlite3_bind_int(trim, 2, seat) || text(trim, 3, level) ||
        sqlite3_bind_int(trim, 4, STORE_ANALYSIS_RECORDS - 1)) {
        sql_fail(c, trim, "keep the uploads' analyses to their cap");
        return rollback(c);
    }
    if (step_done(c, trim, "keep the uploads' analyses to their cap"))
        return rollback(c);
    return commit(c, "keep the analysis");
}

int sqlite_analysis_get(store *s, const char *key, int seat, const char *level, char **body)
{
    sqlite_club *c = sqlite_club_of(s);
    sqlite3_stmt *st = c->analysis_get;
    if (!body) {
        cfail(c, "an analysis is read into a pointer");
        return -1;
    }
    *body = NULL;
    if (!analysis_args_ok(c, key, seat, level))
        return -1;
    if (text(st, 1, key) || sqlite3_bind_int(st, 2, seat) || text(st, 3, level))
        return sql_fail(c, st, "read the analysis");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        done(st);
        return 0;
    }
    if (rc != SQLITE_ROW)
        return sql_fail(c, st, "read the analysis");
    const char *json = (const char *)sqlite3_column_text(st, 0);
    int n = sqlite3_column_bytes(st, 0);
    *body = json ? malloc((size_t)n + 1) : NULL;
    if (*body == NULL) {
        cfail(c, json ? "out of memory reading the analysis" : "the analysis kept has no text");
        done(st);
        return -1;
    }
    memcpy(*body, json, (size_t)n + 1);
    done(st);
    return 1;
}
