/*
 * store_sqlite.c - the store in one SQLite file.
 *
 * The file runs in WAL mode with synchronous=NORMAL.  In that mode a
 * transaction is committed once its frames are written to the WAL, without
 * waiting for an fsync: a commit survives the server process being killed
 * (the operating system still holds the write), and only an operating
 * system crash or a power loss can lose the last few commits.  That is the
 * trade we want: an append costs microseconds instead of a disk flush.
 *
 * The fsyncs are all in checkpoints, which copy the WAL back into the
 * database file.  SQLite runs them inside whichever commit passes 1000 WAL
 * pages, which on a disk stalled the server's loop for up to a second, so
 * the loop's connection runs none: a thread with its own connection
 * checkpoints once a second, or sooner when the WAL grows past 1000 pages.
 * An operating system crash can therefore lose about the last second of
 * commits, never more, and never leaves a database that does not open.
 *
 * The database file is created 0600 (SQLite gives its -wal and -shm files
 * the same mode) and held with flock(2) for as long as the store is open,
 * so that a second server on the same file is refused.
 *
 * Schema version 2 (PRAGMA user_version):
 *
 *   sessions(token TEXT PRIMARY KEY, name TEXT UNIQUE, created INTEGER)
 *   accounts(key TEXT PRIMARY KEY, name, hash, created INTEGER,
 *            admin INTEGER, banned INTEGER)
 *   tokens(hash TEXT PRIMARY KEY, key, created INTEGER, expires INTEGER)
 *   tables(id INTEGER PRIMARY KEY, preset, house, seed TEXT, options,
 *          state INTEGER, created INTEGER, key TEXT)
 *   seats(table_id REFERENCES tables, seat 0-3, name, player, token,
 *         bot INTEGER, level, PRIMARY KEY(table_id, seat))
 *   actions(table_id REFERENCES tables, n INTEGER, action TEXT,
 *           PRIMARY KEY(table_id, n))
 *
 * Every token column holds a token's BLAKE2b-256 hash (store_token_hash),
 * never the token.  Version 1 kept the tokens themselves: opening such a
 * database adds the account tables and hashes its tokens in place, in one
 * transaction.
 *
 * Version 2 also keeps who played which deals and moderation (issue 23;
 * a version 1 file gains the tables when opened, MIGRATE_MODERATION):
 *
 *   deal_players(table_id REFERENCES tables, deal, at, seat, name,
 *                registered INTEGER, level), in the order written (rowid)
 *   admins(key TEXT PRIMARY KEY, name, added INTEGER)
 *   bans(key TEXT PRIMARY KEY, name, at INTEGER, by, text)
 *   moderation(id INTEGER PRIMARY KEY, at INTEGER, by, act, tbl, name, text)
 *   reports(id INTEGER PRIMARY KEY, at INTEGER, by, tbl, name, text)
 *
 * Version 2 added tables.key: a keyed table's key, 64 hex digits (NULL for
 * a seeded table), kept so that a restart deals the same cards; a version 1
 * database is migrated when opened (its tables are all seeded).
 *
 * Version 3 adds the club (issue 24): games, game_players, ladder,
 * ratings, rating_history and prefs, described in store_sqlite_club.c and
 * made there (SQLITE_CLUB_SCHEMA); a version 1 or 2 file gains them when
 * opened, in the transaction of its other changes.
 *
 * Version 4 adds the kept analyses (issue 26): analyses, described in
 * store_sqlite_club.c (SQLITE_ANALYSES_SCHEMA); a file of version 1 to 3
 * gains the table when opened, in the same transaction.
 *
 * The seed is kept as decimal text: a uint64_t does not fit SQLite's signed
 * integers, and text reads the same in the sqlite3 shell as in the game.
 * Each statement is prepared once at open and reset after every use.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store.h"
#include "store_check.h"
#include "store_sqlite_club.h"

#define SCHEMA_VERSION 4

/* How long a statement waits for another connection's lock before giving up. */
#define BUSY_TIMEOUT_MS 5000

/* The checkpointer's pace: it wakes once a second, or sooner when a commit
 * leaves this many pages in the WAL (SQLite's own automatic threshold). */
#define CHECKPOINT_PAGES          1000
#define CHECKPOINT_PERIOD_S       1
/* A passive checkpoint cannot finish while commits keep coming, and a WAL
 * is only started again from its beginning once all of it is copied back.
 * Past this size the checkpointer takes the write lock for a moment (after
 * passive rounds that leave little to copy) so that the WAL stops growing. */
#define CHECKPOINT_RESTART_PAGES  16384
#define CHECKPOINT_RESTART_LEFT   64
#define CHECKPOINT_PASSIVE_ROUNDS 8

static const char SCHEMA[] = "CREATE TABLE sessions("
                             "  token TEXT PRIMARY KEY NOT NULL,"
                             "  name TEXT NOT NULL UNIQUE,"
                             "  created INTEGER NOT NULL);"
                             "CREATE TABLE tables("
                             "  id INTEGER PRIMARY KEY,"
                             "  preset TEXT NOT NULL,"
                             "  house TEXT NOT NULL,"
                             "  seed TEXT NOT NULL,"
                             "  options TEXT NOT NULL,"
                             "  state INTEGER NOT NULL,"
                             "  created INTEGER NOT NULL,"
                             "  key TEXT);"
                             "CREATE TABLE seats("
                             "  table_id INTEGER NOT NULL REFERENCES tables(id),"
                             "  seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),"
                             "  name TEXT,"
                             "  player TEXT,"
                             "  token TEXT,"
                             "  bot INTEGER NOT NULL,"
                             "  level TEXT,"
                             "  PRIMARY KEY (table_id, seat)) WITHOUT ROWID;"
                             "CREATE TABLE actions("
                             "  table_id INTEGER NOT NULL REFERENCES tables(id),"
                             "  n INTEGER NOT NULL,"
                             "  action TEXT NOT NULL,"
                             "  PRIMARY KEY (table_id, n)) WITHOUT ROWID;";

/* What version 2 adds to version 1 (the token columns are hashed by the
 * migration, in C). */
static const char SCHEMA_2[] = "CREATE TABLE accounts("
                               "  key TEXT PRIMARY KEY NOT NULL,"
                               "  name TEXT NOT NULL,"
                               "  hash TEXT NOT NULL,"
                               "  created INTEGER NOT NULL,"
                               "  admin INTEGER NOT NULL DEFAULT 0,"
                               "  banned INTEGER NOT NULL DEFAULT 0);"
                               "CREATE TABLE tokens("
                               "  hash TEXT PRIMARY KEY NOT NULL,"
                               "  key TEXT NOT NULL,"
                               "  created INTEGER NOT NULL,"
                               "  expires INTEGER NOT NULL);"
                               "CREATE INDEX tokens_key ON tokens(key);";

/* Version 2's tables of who played which deals and moderation (made in a
 * new file and added to a version 1 one): every statement may run again
 * (IF NOT EXISTS), so that the steps of several changes to the schema can
 * be chained in any order. */
static const char MIGRATE_MODERATION[] =
    "CREATE TABLE IF NOT EXISTS deal_players("
    "  table_id INTEGER NOT NULL REFERENCES tables(id),"
    "  deal INTEGER NOT NULL,"
    "  at INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),"
    "  name TEXT NOT NULL,"
    "  registered INTEGER NOT NULL,"
    "  level TEXT);"
    "CREATE INDEX IF NOT EXISTS deal_players_of ON deal_players(table_id, deal);"
    "CREATE TABLE IF NOT EXISTS admins("
    "  key TEXT PRIMARY KEY NOT NULL,"
    "  name TEXT NOT NULL,"
    "  added INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS bans("
    "  key TEXT PRIMARY KEY NOT NULL,"
    "  name TEXT NOT NULL,"
    "  at INTEGER NOT NULL,"
    "  by TEXT NOT NULL,"
    "  text TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS moderation("
    "  id INTEGER PRIMARY KEY,"
    "  at INTEGER NOT NULL,"
    "  by TEXT NOT NULL,"
    "  act TEXT NOT NULL,"
    "  tbl INTEGER,"
    "  name TEXT,"
    "  text TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS reports("
    "  id INTEGER PRIMARY KEY,"
    "  at INTEGER NOT NULL,"
    "  by TEXT NOT NULL,"
    "  tbl INTEGER,"
    "  name TEXT,"
    "  text TEXT NOT NULL);";

/* From version 1: the keys of keyed tables. */
static const char MIGRATE_KEYS[] = "ALTER TABLE tables ADD COLUMN key TEXT;";

/* The background checkpointer: a thread with its own connection. */
typedef struct checkpointer {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool running, stop, due;
    sqlite3 *db;
} checkpointer;

typedef struct bb_sqlite {
    store base; /* first, so that a store * is a bb_sqlite * */
    sqlite3 *db;
    int lock_fd; /* the database file, flock'ed; -1 for none */
    checkpointer ckpt;
    sqlite_club *club; /* the club's statements (store_sqlite_club.c) */
    sqlite3_stmt *session_put;
    sqlite3_stmt *session_forget;
    sqlite3_stmt *sessions_load;
    sqlite3_stmt *table_create;
    sqlite3_stmt *table_set_state;
    sqlite3_stmt *tables_load;
    sqlite3_stmt *table_get;
    sqlite3_stmt *seats_of;
    sqlite3_stmt *seat_put;
    sqlite3_stmt *action_append;
    sqlite3_stmt *action_next;
    sqlite3_stmt *actions_load;
    sqlite3_stmt *account_create;
    sqlite3_stmt *account_get;
    sqlite3_stmt *account_set_hash;
    sqlite3_stmt *account_set_flags;
    sqlite3_stmt *token_put;
    sqlite3_stmt *token_get;
    sqlite3_stmt *token_forget;
    sqlite3_stmt *tokens_forget;
    sqlite3_stmt *deal_player_put;
    sqlite3_stmt *deal_players_load;
    sqlite3_stmt *admin_put;
    sqlite3_stmt *admins_load;
    sqlite3_stmt *ban_put;
    sqlite3_stmt *ban_delete;
    sqlite3_stmt *bans_load;
    sqlite3_stmt *mod_act_add;
    sqlite3_stmt *report_add;
    sqlite3_stmt *mod_acts_load;
    sqlite3_stmt *reports_load;
    sqlite3_stmt *removals_load;
    sqlite3_stmt *tokens_expire;
} bb_sqlite;

static const struct {
    size_t offset;
    const char *sql;
} STATEMENTS[] = {
    {offsetof(bb_sqlite, session_put),
     "INSERT INTO sessions(token, name, created) VALUES (?1, ?2, ?3) "
     "ON CONFLICT(token) DO UPDATE SET name = excluded.name"},
    {offsetof(bb_sqlite, session_forget), "DELETE FROM sessions WHERE token = ?1"},
    {offsetof(bb_sqlite, sessions_load),
     "SELECT token, name FROM sessions ORDER BY created, token"},
    {offsetof(bb_sqlite, table_create),
     "INSERT INTO tables(preset, house, seed, options, state, created, key) "
     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"},
    {offsetof(bb_sqlite, table_set_state), "UPDATE tables SET state = ?2 WHERE id = ?1"},
    {offsetof(bb_sqlite, tables_load),
     "SELECT id, preset, house, seed, options, state, created, key FROM tables ORDER BY id"},
    {offsetof(bb_sqlite, table_get),
     "SELECT id, preset, house, seed, options, state, created, key FROM tables WHERE id = ?1"},
    {offsetof(bb_sqlite, seats_of),
     "SELECT seat, name, player, token, bot, level FROM seats WHERE table_id = ?1 ORDER BY seat"},
    {offsetof(bb_sqlite, seat_put),
     "INSERT INTO seats(table_id, seat, name, player, token, bot, level) "
     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
     "ON CONFLICT(table_id, seat) DO UPDATE SET name = excluded.name, "
     "player = excluded.player, token = excluded.token, bot = excluded.bot, "
     "level = excluded.level"},
    /* One statement, so one implicit transaction: the check that n is the
     * next one and the insert happen under the same write lock. */
    {offsetof(bb_sqlite, action_append),
     "INSERT INTO actions(table_id, n, action) SELECT ?1, ?2, ?3 "
     "WHERE ?2 = (SELECT coalesce(max(n) + 1, 0) FROM actions WHERE table_id = ?1)"},
    {offsetof(bb_sqlite, action_next),
     "SELECT coalesce(max(n) + 1, 0) FROM actions WHERE table_id = ?1"},
    {offsetof(bb_sqlite, actions_load),
     "SELECT n, action FROM actions WHERE table_id = ?1 ORDER BY n"},
    {offsetof(bb_sqlite, account_create),
     "INSERT INTO accounts(key, name, hash, created) VALUES (?1, ?2, ?3, ?4) "
     "ON CONFLICT(key) DO NOTHING"},
    {offsetof(bb_sqlite, account_get),
     "SELECT key, name, hash, created, admin, banned FROM accounts WHERE key = ?1"},
    {offsetof(bb_sqlite, account_set_hash), "UPDATE accounts SET hash = ?2 WHERE key = ?1"},
    {offsetof(bb_sqlite, account_set_flags),
     "UPDATE accounts SET admin = CASE WHEN ?2 < 0 THEN admin ELSE ?2 END, "
     "banned = CASE WHEN ?3 < 0 THEN banned ELSE ?3 END WHERE key = ?1"},
    {offsetof(bb_sqlite, token_put),
     "INSERT INTO tokens(hash, key, created, expires) VALUES (?1, ?2, ?3, ?4)"},
    {offsetof(bb_sqlite, token_get), "SELECT key, expires FROM tokens WHERE hash = ?1"},
    {offsetof(bb_sqlite, token_forget), "DELETE FROM tokens WHERE hash = ?1"},
    {offsetof(bb_sqlite, tokens_forget),
     "DELETE FROM tokens WHERE key = ?1 AND (?2 IS NULL OR hash <> ?2)"},
    {offsetof(bb_sqlite, deal_player_put),
     "INSERT INTO deal_players(table_id, deal, at, seat, name, registered, level) "
     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"},
    {offsetof(bb_sqlite, deal_players_load),
     "SELECT deal, at, seat, name, registered, level FROM deal_players WHERE table_id = ?1 "
     "ORDER BY deal, rowid"},
    {offsetof(bb_sqlite, admin_put), "INSERT INTO admins(key, name, added) VALUES (?1, ?2, ?3) "
                                     "ON CONFLICT(key) DO UPDATE SET name = excluded.name"},
    {offsetof(bb_sqlite, admins_load), "SELECT key, name FROM admins ORDER BY added, key"},
    {offsetof(bb_sqlite, ban_put),
     "INSERT INTO bans(key, name, at, by, text) VALUES (?1, ?2, ?3, ?4, ?5) "
     "ON CONFLICT(key) DO UPDATE SET name = excluded.name, at = excluded.at, by = excluded.by, "
     "text = excluded.text"},
    {offsetof(bb_sqlite, ban_delete), "DELETE FROM bans WHERE key = ?1"},
    {offsetof(bb_sqlite, bans_load), "SELECT key, name, at, by, text FROM bans ORDER BY at, key"},
    {offsetof(bb_sqlite, mod_act_add),
     "INSERT INTO moderation(at, by, act, tbl, name, text) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"},
    {offsetof(bb_sqlite, report_add),
     "INSERT INTO reports(at, by, tbl, name, text) VALUES (?1, ?2, ?3, ?4, ?5)"},
    {offsetof(bb_sqlite, mod_acts_load),
     "SELECT id, at, by, act, tbl, name, text FROM moderation ORDER BY id DESC LIMIT ?1"},
    {offsetof(bb_sqlite, reports_load),
     "SELECT id, at, by, NULL, tbl, name, text FROM reports ORDER BY id DESC LIMIT ?1"},
    {offsetof(bb_sqlite, removals_load),
     "SELECT m.tbl, m.name FROM moderation m JOIN tables t ON t.id = m.tbl "
     "WHERE m.act = 'remove' AND m.name IS NOT NULL AND t.state <> 2 ORDER BY m.id"},
    {offsetof(bb_sqlite, tokens_expire), "DELETE FROM tokens WHERE expires <= ?1"},
};

#define N_STATEMENTS (sizeof STATEMENTS / sizeof STATEMENTS[0])

static sqlite3_stmt **statement(bb_sqlite *q, size_t k)
{
    return (sqlite3_stmt **)((char *)q + STATEMENTS[k].offset);
}

static void fail(store *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(store *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
}

/* Fills the error with what failed and SQLite's reason, resets the statement
 * and returns -1. */
static int fail_sql(bb_sqlite *q, sqlite3_stmt *stmt, const char *what)
{
    fail(&q->base, "could not %s: %s", what, sqlite3_errmsg(q->db));
    if (stmt) {
        sqlite3_reset(stmt);
        sqlite3_clear_bindings(stmt);
    }
    return -1;
}

static void finish(sqlite3_stmt *stmt)
{
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
}

/* A callback that calls back into the same load would reset the statement
 * under its caller's feet; refuse it plainly instead. */
static int busy(bb_sqlite *q, sqlite3_stmt *stmt, const char *what)
{
    if (!sqlite3_stmt_busy(stmt))
        return 0;
    fail(&q->base, "%s was called from inside its own callback", what);
    return -1;
}

static int bind_text(sqlite3_stmt *stmt, int k, const char *text)
{
    if (!text)
        return sqlite3_bind_null(stmt, k);
    return sqlite3_bind_text(stmt, k, text, -1, SQLITE_TRANSIENT);
}

/* Runs a statement that returns no rows; 0 or -1 with the error filled. */
static int run(bb_sqlite *q, sqlite3_stmt *stmt, const char *what)
{
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return fail_sql(q, stmt, what);
    finish(stmt);
    return 0;
}

/* ---------------------------------------------------------------- sessions */

static int session_put(store *s, const char *token, const char *name)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->session_put;
    if (!token || !name) {
        fail(s, "a session needs a token and a name");
        return -1;
    }
    if (bind_text(st, 1, token) || bind_text(st, 2, name) ||
        sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL)))
        return fail_sql(q, st, "save a session");
    if (sqlite3_step(st) != SQLITE_DONE) {
        if (sqlite3_extended_errcode(q->db) == SQLITE_CONSTRAINT_UNIQUE) {
            fail(s, "the name \"%.80s\" is taken by another session (%s)", name,
                 sqlite3_errmsg(q->db));
            finish(st);
            return -1;
        }
        return fail_sql(q, st, "save a session");
    }
    finish(st);
    return 0;
}

static int session_forget(store *s, const char *token)
{
    bb_sqlite *q = (bb_sqlite *)s;
    if (bind_text(q->session_forget, 1, token))
        return fail_sql(q, q->session_forget, "forget a session");
    return run(q, q->session_forget, "forget a session");
}

/* Runs a statement of one text parameter or two made for the call (rare
 * statements, not worth a prepared one each): SQLITE_ROW's first column into
 * out when asked.  1 a row, 0 none, -1 failure. */
static int once(bb_sqlite *q, const char *what, const char *sql, const char *a, const char *b,
                char *out, size_t cap)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(q->db, sql, -1, &st, NULL) != SQLITE_OK)
        return fail_sql(q, NULL, what);
    int rc = bind_text(st, 1, a);
    if (rc == SQLITE_OK && b)
        rc = bind_text(st, 2, b);
    int step = rc == SQLITE_OK ? sqlite3_step(st) : SQLITE_ERROR;
    int got = -1;
    if (step == SQLITE_ROW) {
        const unsigned char *text = sqlite3_column_text(st, 0);
        if (out && cap)
            snprintf(out, cap, "%s", text ? (const char *)text : "");
        got = 1;
    } else if (step == SQLITE_DONE)
        got = 0;
    else
        fail(&q->base, "could not %s: %s", what, sqlite3_errmsg(q->db));
    sqlite3_finalize(st);
    return got;
}

static int session_by_name(store *s, const char *name, char *token, size_t cap)
{
    return once((bb_sqlite *)s, "read a session by its name",
                "SELECT token FROM sessions WHERE name = ?1", name, NULL, token, cap);
}

static int session_rekey(store *s, const char *from, const char *to)
{
    bb_sqlite *q = (bb_sqlite *)s;
    if (sqlite3_exec(q->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return fail_sql(q, NULL, "begin a session's new id");
    if (once(q, "give a session its new id", "UPDATE sessions SET token = ?2 WHERE token = ?1",
             from, to, NULL, 0) < 0 ||
        once(q, "give a session's seats its new id", "UPDATE seats SET token = ?2 WHERE token = ?1",
             from, to, NULL, 0) < 0) {
        sqlite3_exec(q->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    if (sqlite3_exec(q->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        fail_sql(q, NULL, "commit a session's new id");
        sqlite3_exec(q->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

static int sessions_load(store *s, void (*fn)(void *ctx, const char *token, const char *name),
                         void *ctx)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->sessions_load;
    if (busy(q, st, "sessions_load"))
        return -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        fn(ctx, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1));
    if (rc != SQLITE_DONE)
        return fail_sql(q, st, "load the sessions");
    finish(st);
    return 0;
}

/* ------------------------------------------------------------------ tables */

static int table_create(store *s, const store_table *t, int64_t *id)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->table_create;
    if (!t || !t->preset) {
        fail(s, "a table needs a preset");
        return -1;
    }
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, t->seed);
    /* A table with no house rules or options keeps "" rather than NULL, so
     * that a loaded table never hands out a NULL where text is promised. */
    if (bind_text(st, 1, t->preset) || bind_text(st, 2, t->house ? t->house : "") ||
        bind_text(st, 3, seed) || bind_text(st, 4, t->options ? t->options : "") ||
        sqlite3_bind_int(st, 5, t->state) || sqlite3_bind_int64(st, 6, t->created))
        return fail_sql(q, st, "create a table");
    char key[BARBU_KEY_HEX];
    if (t->keyed)
        barbu_key_format(t->key, key);
    if ((t->keyed ? bind_text(st, 7, key) : sqlite3_bind_null(st, 7)) != 0)
        return fail_sql(q, st, "create a table");
    if (run(q, st, "create a table") < 0)
        return -1;
    if (id)
        *id = sqlite3_last_insert_rowid(q->db);
    return 0;
}

static int table_set_state(store *s, int64_t id, int state)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->table_set_state;
    if (sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int(st, 2, state))
        return fail_sql(q, st, "set a table's state");
    if (run(q, st, "set a table's state") < 0)
        return -1;
    if (sqlite3_changes(q->db) == 0) {
        fail(s, "could not set the state of table %" PRId64 ": there is no such table", id);
        return -1;
    }
    return 0;
}

/* A table and its seats copied out of SQLite, so that the statements can be
 * reset before the callback runs: the callback may then use the store (to
 * load the table's actions, say) without disturbing the read in progress. */
typedef struct loaded_table {
    store_table t;
    store_seat seats[4];
    char *text[4 + 4 * 4]; /* every string above, to free */
    char damage[200];
} loaded_table;

/* Notes the first thing wrong with a table's rows. */
static void damaged(loaded_table *lt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void damaged(loaded_table *lt, const char *fmt, ...)
{
    if (lt->damage[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lt->damage, sizeof lt->damage, fmt, ap);
    va_end(ap);
}

/* The table as handed to a callback: damage points into lt, which may have
 * moved since it was read. */
static const store_table *handed(loaded_table *lt)
{
    lt->t.damage = lt->damage[0] ? lt->damage : NULL;
    return &lt->t;
}

/* Column k is text (or, when null_ok, NULL); notes the damage otherwise. */
static void want_text(loaded_table *lt, sqlite3_stmt *st, int k, bool null_ok, const char *what)
{
    int type = sqlite3_column_type(st, k);
    if (type == SQLITE_TEXT || (null_ok && type == SQLITE_NULL))
        return;
    damaged(lt, "its %s is %s, not text", what,
            type == SQLITE_NULL   ? "NULL"
            : type == SQLITE_BLOB ? "a blob"
                                  : "a number");
}

/* Column k is an integer from lo to hi; notes the damage otherwise. */
static int64_t want_int(loaded_table *lt, sqlite3_stmt *st, int k, int64_t lo, int64_t hi,
                        const char *what)
{
    /* The type first: after a conversion SQLite's answer is undefined. */
    int type = sqlite3_column_type(st, k);
    int64_t v = sqlite3_column_int64(st, k);
    if (type != SQLITE_INTEGER || v < lo || v > hi) {
        const unsigned char *text = sqlite3_column_text(st, k);
        damaged(lt, "its %s is '%.40s', not a whole number from %" PRId64 " to %" PRId64, what,
                text ? (const char *)text : "NULL", lo, hi);
        return lo;
    }
    return v;
}

static void loaded_free(loaded_table *lt)
{
    for (size_t k = 0; k < sizeof lt->text / sizeof lt->text[0]; k++)
        free(lt->text[k]);
    memset(lt, 0, sizeof *lt);
}

/* A copy of column k of the row (NULL for SQL NULL); *ok turns false when
 * memory runs out. */
static char *column_copy(sqlite3_stmt *st, int k, bool *ok)
{
    const unsigned char *text = sqlite3_column_text(st, k);
    if (!text)
        return NULL;
    char *copy = strdup((const char *)text);
    if (!copy)
        *ok = false;
    return copy;
}

/* Reads the table row under st (columns as in tables_load) and its seats.
 * Leaves st as it was; resets seats_of.  A malformed value is noted in
 * lt->t.damage, never a failure.  0, or -1 when SQLite fails or memory runs
 * out. */
static int read_table(bb_sqlite *q, sqlite3_stmt *st, loaded_table *lt)
{
    memset(lt, 0, sizeof *lt);
    bool ok = true;
    lt->t.id = sqlite3_column_int64(st, 0);
    want_text(lt, st, 1, false, "preset");
    want_text(lt, st, 2, false, "house rules text");
    want_text(lt, st, 4, false, "options text");
    lt->text[0] = column_copy(st, 1, &ok);
    lt->text[1] = column_copy(st, 2, &ok);
    lt->text[2] = column_copy(st, 4, &ok);
    lt->t.preset = lt->text[0] ? lt->text[0] : "";
    lt->t.house = lt->text[1] ? lt->text[1] : "";
    lt->t.options = lt->text[2] ? lt->text[2] : "";
    /* Decimal text as written, or an integer some other tool wrote. */
    const char *seed = (const char *)sqlite3_column_text(st, 3);
    if (!store_parse_u64(seed, &lt->t.seed)) {
        damaged(lt, "its seed '%.40s' is not a whole number from 0 to 2^64-1",
                seed ? seed : "NULL");
        lt->t.seed = 0;
        lt->t.seed_lost = true;
    }
    /* A keyed table's key: without it its deals cannot be dealt again. */
    if (sqlite3_column_type(st, 7) != SQLITE_NULL) {
        const char *key = (const char *)sqlite3_column_text(st, 7);
        lt->t.keyed = true;
        if (barbu_key_parse(key, lt->t.key) != 0) {
            damaged(lt, "its key is not 64 hex digits");
            lt->t.seed_lost = true;
        }
    }
    lt->t.state = (int)want_int(lt, st, 5, STORE_WAITING, STORE_OVER, "state");
    lt->t.created = want_int(lt, st, 6, 0, INT64_MAX, "creation time");
    for (int k = 0; k < 4; k++)
        lt->seats[k].seat = k;

    sqlite3_stmt *seats = q->seats_of;
    if (sqlite3_bind_int64(seats, 1, lt->t.id)) {
        loaded_free(lt);
        return fail_sql(q, seats, "load a table's seats");
    }
    int rc;
    bool seen[4] = {false};
    while ((rc = sqlite3_step(seats)) == SQLITE_ROW) {
        int type = sqlite3_column_type(seats, 0);
        int64_t number = sqlite3_column_int64(seats, 0);
        if (type != SQLITE_INTEGER || number < 0 || number > 3) {
            const unsigned char *text = sqlite3_column_text(seats, 0);
            damaged(lt, "a row of its seats is numbered '%.20s', not 0 to 3",
                    text ? (const char *)text : "NULL");
            continue;
        }
        int k = (int)number;
        if (seen[k]) {
            damaged(lt, "seat %d has two rows", k);
            continue;
        }
        seen[k] = true;
        char what[48];
        snprintf(what, sizeof what, "seat %d's computer player flag", k);
        want_int(lt, seats, 4, 0, 1, what);
        static const struct {
            int column;
            const char *name;
        } TEXTS[4] = {{1, "name"}, {2, "player"}, {3, "token"}, {5, "level"}};
        for (int c = 0; c < 4; c++) {
            snprintf(what, sizeof what, "seat %d's %s", k, TEXTS[c].name);
            want_text(lt, seats, TEXTS[c].column, true, what);
        }
        store_seat *seat = &lt->seats[k];
        char **text = &lt->text[4 + 4 * k];
        seat->name = text[0] = column_copy(seats, 1, &ok);
        seat->player = text[1] = column_copy(seats, 2, &ok);
        seat->token = text[2] = column_copy(seats, 3, &ok);
        seat->bot = sqlite3_column_int(seats, 4) != 0;
        seat->level = text[3] = column_copy(seats, 5, &ok);
    }
    if (rc != SQLITE_DONE) {
        loaded_free(lt);
        return fail_sql(q, seats, "load a table's seats");
    }
    finish(seats);
    if (!ok) {
        fail(&q->base, "out of memory loading table %" PRId64, lt->t.id);
        loaded_free(lt);
        return -1;
    }
    return 0;
}

static int tables_load(store *s,
                       void (*fn)(void *ctx, const store_table *t, const store_seat seats[4]),
                       void *ctx)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->tables_load;
    if (busy(q, st, "tables_load"))
        return -1;
    /* Everything is read first and the callbacks run afterwards, so that no
     * read transaction stays open while the caller works. */
    loaded_table *all = NULL;
    size_t n = 0, cap = 0;
    int rc, result = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            size_t more = cap ? 2 * cap : 16;
            loaded_table *grown = realloc(all, more * sizeof *all);
            if (!grown) {
                fail(s, "out of memory loading the tables");
                result = -1;
                break;
            }
            all = grown;
            cap = more;
        }
        if (read_table(q, st, &all[n]) < 0) {
            result = -1;
            break;
        }
        n++;
    }
    if (result == 0 && rc != SQLITE_DONE && rc != SQLITE_ROW)
        result = fail_sql(q, st, "load the tables");
    finish(st);
    for (size_t k = 0; k < n; k++) {
        if (result == 0)
            fn(ctx, handed(&all[k]), all[k].seats);
        loaded_free(&all[k]);
    }
    free(all);
    return result;
}

static int table_get(store *s, int64_t id,
                     void (*fn)(void *ctx, const store_table *t, const store_seat seats[4]),
                     void *ctx)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->table_get;
    if (busy(q, st, "table_get"))
        return -1;
    if (sqlite3_bind_int64(st, 1, id))
        return fail_sql(q, st, "load a table");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        finish(st);
        return 0;
    }
    if (rc != SQLITE_ROW)
        return fail_sql(q, st, "load a table");
    loaded_table lt;
    int got = read_table(q, st, &lt);
    finish(st);
    if (got < 0)
        return -1;
    fn(ctx, handed(&lt), lt.seats);
    loaded_free(&lt);
    return 1;
}

static int seat_put(store *s, int64_t table, const store_seat *seat)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->seat_put;
    if (!seat || seat->seat < 0 || seat->seat > 3) {
        fail(s, "a seat is numbered 0 to 3");
        return -1;
    }
    /* A NULL name frees the seat; the player column is written as given,
     * since whose score a seat carries outlives whoever sits there. */
    if (sqlite3_bind_int64(st, 1, table) || sqlite3_bind_int(st, 2, seat->seat) ||
        bind_text(st, 3, seat->name) || bind_text(st, 4, seat->player) ||
        bind_text(st, 5, seat->token) || sqlite3_bind_int(st, 6, seat->bot ? 1 : 0) ||
        bind_text(st, 7, seat->level))
        return fail_sql(q, st, "save a seat");
    if (sqlite3_step(st) != SQLITE_DONE) {
        fail(s, "could not save seat %d of table %" PRId64 ": %s", seat->seat, table,
             sqlite3_errmsg(q->db));
        finish(st);
        return -1;
    }
    finish(st);
    return 0;
}

/* ----------------------------------------------------------------- actions */

static int action_append(store *s, int64_t table, uint32_t n, const char *text)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->action_append;
    if (!text) {
        fail(s, "an action needs its text");
        return -1;
    }
    if (sqlite3_bind_int64(st, 1, table) || sqlite3_bind_int64(st, 2, n) || bind_text(st, 3, text))
        return fail_sql(q, st, "append an action");
    /* In autocommit mode the step returns once the insert is committed. */
    if (sqlite3_step(st) != SQLITE_DONE) {
        fail(s, "could not append action %" PRIu32 " of table %" PRId64 ": %s", n, table,
             sqlite3_errmsg(q->db));
        finish(st);
        return -1;
    }
    finish(st);
    if (sqlite3_changes(q->db) == 1)
        return 0;

    /* Nothing was written: n is not the next one.  Say which is. */
    sqlite3_stmt *next = q->action_next;
    if (sqlite3_bind_int64(next, 1, table) || sqlite3_step(next) != SQLITE_ROW)
        return fail_sql(q, next, "find the next action");
    int64_t expected = sqlite3_column_int64(next, 0);
    finish(next);
    fail(s, "action %" PRIu32 " of table %" PRId64 " is out of order: the next is %" PRId64, n,
         table, expected);
    return -1;
}

static int actions_load(store *s, int64_t table,
                        void (*fn)(void *ctx, uint32_t n, const char *text), void *ctx)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->actions_load;
    if (busy(q, st, "actions_load"))
        return -1;
    if (sqlite3_bind_int64(st, 1, table))
        return fail_sql(q, st, "load the actions");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        fn(ctx, (uint32_t)sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1));
    if (rc != SQLITE_DONE)
        return fail_sql(q, st, "load the actions");
    finish(st);
    return 0;
}

/* ---------------------------------------------------------------- accounts */

static int account_create(store *s, const char *key, const char *name, const char *hash)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->account_create;
    if (!key || !name || !hash || !key[0]) {
        fail(s, "an account needs a key, a name and a password's hash");
        return -1;
    }
    if (bind_text(st, 1, key) || bind_text(st, 2, name) || bind_text(st, 3, hash) ||
        sqlite3_bind_int64(st, 4, (sqlite3_int64)time(NULL)))
        return fail_sql(q, st, "save an account");
    if (run(q, st, "save an account") != 0)
        return -1;
    return sqlite3_changes(q->db) == 1 ? 1 : 0;
}

static void copy_column(sqlite3_stmt *st, int k, char *out, size_t cap)
{
    const unsigned char *text = sqlite3_column_text(st, k);
    snprintf(out, cap, "%s", text ? (const char *)text : "");
}

static int account_get(store *s, const char *key, store_account *out)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->account_get;
    if (!key || !out) {
        fail(s, "an account is read by its key");
        return -1;
    }
    if (bind_text(st, 1, key))
        return fail_sql(q, st, "read an account");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        finish(st);
        return 0;
    }
    if (rc != SQLITE_ROW)
        return fail_sql(q, st, "read an account");
    memset(out, 0, sizeof *out);
    copy_column(st, 0, out->key, sizeof out->key);
    copy_column(st, 1, out->name, sizeof out->name);
    copy_column(st, 2, out->hash, sizeof out->hash);
    out->created = sqlite3_column_int64(st, 3);
    out->admin = sqlite3_column_int(st, 4) != 0;
    out->banned = sqlite3_column_int(st, 5) != 0;
    finish(st);
    return 1;
}

static int account_set_hash(store *s, const char *key, const char *hash)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->account_set_hash;
    if (!key || !hash) {
        fail(s, "a password's hash needs its account's key");
        return -1;
    }
    if (bind_text(st, 1, key) || bind_text(st, 2, hash))
        return fail_sql(q, st, "change a password");
    return run(q, st, "change a password");
}

static int account_set_flags(store *s, const char *key, int admin, int banned)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->account_set_flags;
    if (!key) {
        fail(s, "an account's flags need its key");
        return -1;
    }
    if (bind_text(st, 1, key) || sqlite3_bind_int(st, 2, admin < 0 ? -1 : admin != 0) ||
        sqlite3_bind_int(st, 3, banned < 0 ? -1 : banned != 0))
        return fail_sql(q, st, "change an account");
    return run(q, st, "change an account");
}

static int token_put(store *s, const char *hash, const char *key, int64_t created, int64_t expires)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->token_put;
    if (!hash || !key) {
        fail(s, "a token needs its hash and its account's key");
        return -1;
    }
    if (bind_text(st, 1, hash) || bind_text(st, 2, key) ||
        sqlite3_bind_int64(st, 3, (sqlite3_int64)created) ||
        sqlite3_bind_int64(st, 4, (sqlite3_int64)expires))
        return fail_sql(q, st, "save a token");
    return run(q, st, "save a token");
}

static int token_get(store *s, const char *hash, char key[], int64_t *expires)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->token_get;
    if (!hash || !key || !expires) {
        fail(s, "a token is read by its hash");
        return -1;
    }
    if (bind_text(st, 1, hash))
        return fail_sql(q, st, "read a token");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        finish(st);
        return 0;
    }
    if (rc != SQLITE_ROW)
        return fail_sql(q, st, "read a token");
    copy_column(st, 0, key, STORE_KEY_CAP);
    *expires = sqlite3_column_int64(st, 1);
    finish(st);
    return 1;
}

static int token_forget(store *s, const char *hash)
{
    bb_sqlite *q = (bb_sqlite *)s;
    if (!hash) {
        fail(s, "a token is forgotten by its hash");
        return -1;
    }
    if (bind_text(q->token_forget, 1, hash))
        return fail_sql(q, q->token_forget, "forget a token");
    return run(q, q->token_forget, "forget a token");
}

static int tokens_forget(store *s, const char *key, const char *except)
{
    bb_sqlite *q = (bb_sqlite *)s;
    if (!key) {
        fail(s, "an account's tokens are forgotten by its key");
        return -1;
    }
    if (bind_text(q->tokens_forget, 1, key) || bind_text(q->tokens_forget, 2, except))
        return fail_sql(q, q->tokens_forget, "forget an account's tokens");
    return run(q, q->tokens_forget, "forget an account's tokens");
}

/* ------------------------------------------------------ deals' players */

static int deal_player_put(store *s, int64_t table, const store_deal_player *p)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->deal_player_put;
    if (!p || !p->name || p->seat < 0 || p->seat > 3 || p->deal < 0) {
        fail(s, "a deal's player needs a deal, a seat from 0 to 3 and a name");
        return -1;
    }
    if (sqlite3_bind_int64(st, 1, table) || sqlite3_bind_int(st, 2, p->deal) ||
        sqlite3_bind_int64(st, 3, p->at) || sqlite3_bind_int(st, 4, p->seat) ||
        bind_text(st, 5, p->name) || sqlite3_bind_int(st, 6, p->registered ? 1 : 0) ||
        bind_text(st, 7, p->level))
        return fail_sql(q, st, "save a deal's player");
    return run(q, st, "save a deal's player");
}

static int deal_players_load(store *s, int64_t table,
                             void (*fn)(void *ctx, const store_deal_player *p), void *ctx)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->deal_players_load;
    if (busy(q, st, "deal_players_load"))
        return -1;
    if (sqlite3_bind_int64(st, 1, table))
        return fail_sql(q, st, "load the deals' players");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 3);
        int seat = sqlite3_column_int(st, 2);
        if (name == NULL || seat < 0 || seat > 3)
            continue; /* a damaged row names nobody */
        store_deal_player p = {
            .deal = sqlite3_column_int(st, 0),
            .at = (uint32_t)sqlite3_column_int64(st, 1),
            .seat = seat,
            .name = name,
            .registered = sqlite3_column_int(st, 4) != 0,
            .level = (const char *)sqlite3_column_text(st, 5),
        };
        fn(ctx, &p);
    }
    if (rc != SQLITE_DONE)
        return fail_sql(q, st, "load the deals' players");
    finish(st);
    return 0;
}

/* -------------------------------------------------------------- moderation */

static int admin_put(store *s, const char *key, const char *name)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->admin_put;
    if (!key || !name) {
        fail(s, "an administrator needs a key and a name");
        return -1;
    }
    if (bind_text(st, 1, key) || bind_text(st, 2, name) ||
        sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL)))
        return fail_sql(q, st, "save an administrator");
    return run(q, st, "save an administrator");
}

static int admins_load(store *s, void (*fn)(void *ctx, const char *key, const char *name),
                       void *ctx)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->admins_load;
    if (busy(q, st, "admins_load"))
        return -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *name = (const char *)sqlite3_column_text(st, 1);
        if (key && name)
            fn(ctx, key, name);
    }
    if (rc != SQLITE_DONE)
        return fail_sql(q, st, "load the administrators");
    finish(st);
    return 0;
}

static int ban_put(store *s, const store_mod_row *ban)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->ban_put;
    if (!ban || !ban->key || !ban->name || !ban->by) {
        fail(s, "a ban needs a key, a name and who banned");
        return -1;
    }
    if (bind_text(st, 1, ban->key) || bind_text(st, 2, ban->name) ||
        sqlite3_bind_int64(st, 3, ban->at) || bind_text(st, 4, ban->by) ||
        bind_text(st, 5, ban->text ? ban->text : ""))
        return fail_sql(q, st, "save a ban");
    return run(q, st, "save a ban");
}

static int ban_delete(store *s, const char *key)
{
    bb_sqlite *q = (bb_sqlite *)s;
    if (bind_text(q->ban_delete, 1, key))
        return fail_sql(q, q->ban_delete, "lift a ban");
    return run(q, q->ban_delete, "lift a ban");
}

static int bans_load(store *s, void (*fn)(void *ctx, const store_mod_row *ban), void *ctx)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->bans_load;
    if (busy(q, st, "bans_load"))
        return -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        store_mod_row row = {
            .key = (const char *)sqlite3_column_text(st, 0),
            .name = (const char *)sqlite3_column_text(st, 1),
            .at = sqlite3_column_int64(st, 2),
            .by = (const char *)sqlite3_column_text(st, 3),
            .text = (const char *)sqlite3_column_text(st, 4),
        };
        if (row.key && row.name && row.by && row.text)
            fn(ctx, &row);
    }
    if (rc != SQLITE_DONE)
        return fail_sql(q, st, "load the bans");
    finish(st);
    return 0;
}

/* An act (act set) or a report: the row's id in *id. */
static int mod_row_add(bb_sqlite *q, sqlite3_stmt *st, const store_mod_row *row, int64_t *id,
                       const char *what)
{
    if (!row || !row->by) {
        fail(&q->base, "could not %s: who did it is missing", what);
        return -1;
    }
    int k = 1;
    if (sqlite3_bind_int64(st, k++, row->at) || bind_text(st, k++, row->by) ||
        (row->act && bind_text(st, k++, row->act)) ||
        (row->table ? sqlite3_bind_int64(st, k, row->table) : sqlite3_bind_null(st, k)) ||
        bind_text(st, k + 1, row->name) || bind_text(st, k + 2, row->text ? row->text : ""))
        return fail_sql(q, st, what);
    if (run(q, st, what) < 0)
        return -1;
    if (id)
        *id = sqlite3_last_insert_rowid(q->db);
    return 0;
}

static int mod_act_add(store *s, const store_mod_row *act, int64_t *id)
{
    bb_sqlite *q = (bb_sqlite *)s;
    if (!act || !act->act) {
        fail(s, "a moderation act needs its kind");
        return -1;
    }
    return mod_row_add(q, q->mod_act_add, act, id, "save a moderation act");
}

static int report_add(store *s, const store_mod_row *report, int64_t *id)
{
    bb_sqlite *q = (bb_sqlite *)s;
    if (!report || report->act) {
        fail(s, "a report has no act");
        return -1;
    }
    return mod_row_add(q, q->report_add, report, id, "save a report");
}

static int mod_log_load(store *s, int limit, void (*fn)(void *ctx, const store_mod_row *row),
                        void *ctx)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *both[2] = {q->mod_acts_load, q->reports_load};
    for (int i = 0; i < 2; i++) {
        sqlite3_stmt *st = both[i];
        if (busy(q, st, "mod_log_load"))
            return -1;
        if (sqlite3_bind_int(st, 1, limit))
            return fail_sql(q, st, "load the moderation log");
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            store_mod_row row = {
                .id = sqlite3_column_int64(st, 0),
                .at = sqlite3_column_int64(st, 1),
                .by = (const char *)sqlite3_column_text(st, 2),
                .act = (const char *)sqlite3_column_text(st, 3),
                .table = sqlite3_column_int64(st, 4),
                .name = (const char *)sqlite3_column_text(st, 5),
                .text = (const char *)sqlite3_column_text(st, 6),
            };
            if (row.by && row.text)
                fn(ctx, &row);
        }
        if (rc != SQLITE_DONE)
            return fail_sql(q, st, "load the moderation log");
        finish(st);
    }
    return 0;
}

static int tokens_expire(store *s, int64_t now)
{
    bb_sqlite *q = (bb_sqlite *)s;
    if (sqlite3_bind_int64(q->tokens_expire, 1, now) != SQLITE_OK)
        return fail_sql(q, q->tokens_expire, "forget the expired tokens");
    return run(q, q->tokens_expire, "forget the expired tokens");
}

static int removals_load(store *s, void (*fn)(void *ctx, int64_t table, const char *name),
                         void *ctx)
{
    bb_sqlite *q = (bb_sqlite *)s;
    sqlite3_stmt *st = q->removals_load;
    if (busy(q, st, "removals_load"))
        return -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 1);
        if (name)
            fn(ctx, sqlite3_column_int64(st, 0), name);
    }
    if (rc != SQLITE_DONE)
        return fail_sql(q, st, "load the removals");
    finish(st);
    return 0;
}

/* ------------------------------------------------------------ checkpoints */

/* One round: passive checkpoints, which copy the WAL back without stopping
 * the loop's commits, then, when the WAL has grown large and only a little
 * of it is left to copy, a restart checkpoint so that the next commit
 * starts the WAL again from its beginning. */
static void checkpoint_round(sqlite3 *db)
{
    int log = 0, done = 0;
    for (int k = 0; k < CHECKPOINT_PASSIVE_ROUNDS; k++) {
        if (sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done) !=
            SQLITE_OK)
            return;
        if (log - done <= CHECKPOINT_RESTART_LEFT)
            break;
    }
    if (log >= CHECKPOINT_RESTART_PAGES && log > done && log - done <= CHECKPOINT_RESTART_LEFT)
        sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_RESTART, &log, &done);
}

static void *checkpoint_main(void *arg)
{
    checkpointer *c = arg;
    pthread_mutex_lock(&c->lock);
    while (!c->stop) {
        if (!c->due) {
            struct timespec until;
            clock_gettime(CLOCK_MONOTONIC, &until);
            until.tv_sec += CHECKPOINT_PERIOD_S;
            pthread_cond_timedwait(&c->wake, &c->lock, &until);
        }
        if (c->stop)
            break;
        c->due = false;
        pthread_mutex_unlock(&c->lock);
        checkpoint_round(c->db);
        pthread_mutex_lock(&c->lock);
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* Called by SQLite after each commit on the loop's connection: a large WAL
 * wakes the checkpointer at once.  Installing it also turns off SQLite's
 * automatic checkpoint, which would run inside the commit. */
static int on_wal_commit(void *arg, sqlite3 *db, const char *name, int pages)
{
    (void)db;
    (void)name;
    checkpointer *c = arg;
    if (pages >= CHECKPOINT_PAGES && c->running) {
        pthread_mutex_lock(&c->lock);
        c->due = true;
        pthread_cond_signal(&c->wake);
        pthread_mutex_unlock(&c->lock);
    }
    return SQLITE_OK;
}

static int checkpointer_start(bb_sqlite *q, const char *path, char *err, size_t cap)
{
    checkpointer *c = &q->ckpt;
    int rc = sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, cap, "could not open %s for its checkpoints: %s", path,
                 c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc));
        return -1;
    }
    sqlite3_busy_timeout(c->db, BUSY_TIMEOUT_MS);
    if (sqlite3_exec(c->db, "PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0", NULL,
                     NULL, NULL) != SQLITE_OK) {
        snprintf(err, cap, "could not configure %s for its checkpoints: %s", path,
                 sqlite3_errmsg(c->db));
        return -1;
    }
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&c->wake, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&c->lock, NULL);
    if ((rc = pthread_create(&c->thread, NULL, checkpoint_main, c)) != 0) {
        pthread_cond_destroy(&c->wake);
        pthread_mutex_destroy(&c->lock);
        snprintf(err, cap, "could not start the checkpoint thread of %s: %s", path, strerror(rc));
        return -1;
    }
    c->running = true;
    /* The loop's connection checkpoints nothing itself (the pragma's hook
     * is replaced by ours). */
    if (sqlite3_exec(q->db, "PRAGMA wal_autocheckpoint = 0", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, cap, "could not configure %s: %s", path, sqlite3_errmsg(q->db));
        return -1;
    }
    sqlite3_wal_hook(q->db, on_wal_commit, c);
    return 0;
}

static void checkpointer_stop(checkpointer *c)
{
    if (c->running) {
        pthread_mutex_lock(&c->lock);
        c->stop = true;
        pthread_cond_signal(&c->wake);
        pthread_mutex_unlock(&c->lock);
        pthread_join(c->thread, NULL);
        pthread_cond_destroy(&c->wake);
        pthread_mutex_destroy(&c->lock);
        c->running = false;
    }
    sqlite3_close(c->db);
    c->db = NULL;
}

/* --------------------------------------------------------------- the lock */

/* The process that holds a flock on fd's file, from /proc/locks; -1 when
 * it cannot be told. */
static long lock_holder(int fd)
{
    struct stat st;
    FILE *f = fstat(fd, &st) == 0 ? fopen("/proc/locks", "r") : NULL;
    if (f == NULL)
        return -1;
    char line[256], kind[16];
    long pid = -1, p;
    unsigned maj, min;
    unsigned long ino;
    while (pid < 0 && fgets(line, sizeof line, f))
        if (sscanf(line, "%*[^:]: %15s %*s %*s %ld %x:%x:%lu", kind, &p, &maj, &min, &ino) == 5 &&
            strcmp(kind, "FLOCK") == 0 && maj == major(st.st_dev) && min == minor(st.st_dev) &&
            ino == (unsigned long)st.st_ino)
            pid = p;
    fclose(f);
    return pid;
}

/* Opens the database file (creating it 0600 when missing: SQLite would make
 * it 0644 less the umask, readable by every local user) and takes an
 * exclusive flock on it.  SQLite's own locks are fcntl locks, which a
 * process loses when it closes any descriptor of the file, so this one
 * stays open until after sqlite3_close.  The fd, or -1 with err filled. */
static int lock_db(const char *path, char *err, size_t cap)
{
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
    if (fd < 0) {
        snprintf(err, cap, "could not open %s: %s", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return fd;
    int why = errno;
    if (why == EWOULDBLOCK) {
        long pid = lock_holder(fd);
        char holder[48] = "another process";
        if (pid > 0)
            snprintf(holder, sizeof holder, "process %ld", pid);
        snprintf(err, cap,
                 "%s is in use by %s, most likely another barbu serve: one database serves "
                 "one server at a time",
                 path, holder);
    } else {
        snprintf(err, cap, "could not lock %s: %s", path, strerror(why));
    }
    close(fd);
    return -1;
}

/* ------------------------------------------------------------ open, close */

static void sqlite_close(store *s)
{
    bb_sqlite *q = (bb_sqlite *)s;
    if (!q)
        return;
    checkpointer_stop(&q->ckpt);
    sqlite_club_close(q->club);
    for (size_t k = 0; k < N_STATEMENTS; k++)
        sqlite3_finalize(*statement(q, k));
    sqlite3_close(q->db);
    /* Only now: closing it earlier would drop SQLite's fcntl locks. */
    if (q->lock_fd >= 0)
        close(q->lock_fd);
    free(q);
}

static const struct store_ops SQLITE_OPS = {
    .close = sqlite_close,
    .session_put = session_put,
    .session_forget = session_forget,
    .session_by_name = session_by_name,
    .session_rekey = session_rekey,
    .sessions_load = sessions_load,
    .table_create = table_create,
    .table_set_state = table_set_state,
    .tables_load = tables_load,
    .table_get = table_get,
    .seat_put = seat_put,
    .action_append = action_append,
    .actions_load = actions_load,
    .account_create = account_create,
    .account_get = account_get,
    .account_set_hash = account_set_hash,
    .account_set_flags = account_set_flags,
    .token_put = token_put,
    .token_get = token_get,
    .token_forget = token_forget,
    .tokens_forget = tokens_forget,
    .deal_player_put = deal_player_put,
    .deal_players_load = deal_players_load,
    .admin_put = admin_put,
    .admins_load = admins_load,
    .ban_put = ban_put,
    .ban_delete = ban_delete,
    .bans_load = bans_load,
    .mod_act_add = mod_act_add,
    .report_add = report_add,
    .mod_log_load = mod_log_load,
    .removals_load = removals_load,
    .tokens_expire = tokens_expire,
    .game_begin = sqlite_game_begin,
    .game_end = sqlite_game_end,
    .game_status = sqlite_game_status,
    .game_get = sqlite_game_get,
    .games_find = sqlite_games_find,
    .ladder_load = sqlite_ladder_load,
    .ladder_periods = sqlite_ladder_periods,
    .rating_get = sqlite_rating_get,
    .ratings_load = sqlite_ratings_load,
    .rating_history_load = sqlite_rating_history_load,
    .prefs_get = sqlite_prefs_get,
    .prefs_put = sqlite_prefs_put,
    .analysis_put = sqlite_analysis_put,
    .analysis_get = sqlite_analysis_get,
    .player_results = sqlite_player_results,
    .rating_point_get = sqlite_rating_point_get,
};

sqlite_club *sqlite_club_of(store *s)
{
    return ((bb_sqlite *)s)->club;
}

/* Reads PRAGMA user_version; -1 on error. */
static int user_version(sqlite3 *db)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
        return -1;
    int version = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    return version;
}

/* token_hash(text): store_token_hash in SQL, for the migration. */
static void sql_token_hash(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const unsigned char *token = sqlite3_value_text(argv[0]);
    if (token == NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    char hash[STORE_TOKEN_HASH_LEN + 1];
    store_token_hash((const char *)token, hash);
    sqlite3_result_text(ctx, hash, -1, SQLITE_TRANSIENT);
}

/* Version 1 to 2, inside the caller's transaction: the account tables, and
 * every token replaced by its hash.  0 or -1. */
static int migrate_1(sqlite3 *db)
{
    if (sqlite3_create_function(db, "token_hash", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                sql_token_hash, NULL, NULL) != SQLITE_OK)
        return -1;
    return sqlite3_exec(db, SCHEMA_2, NULL, NULL, NULL) == SQLITE_OK &&
                   sqlite3_exec(
                       db,
                       "UPDATE sessions SET token = token_hash(token);"
                       "UPDATE seats SET token = token_hash(token) WHERE token IS NOT NULL;",
                       NULL, NULL, NULL) == SQLITE_OK
               ? 0
               : -1;
}

/* Sets the connection up and creates the schema of a new file.  0, or -1
 * with the reason in err. */
static int prepare_db(sqlite3 *db, const char *path, char *err, size_t cap)
{
    /* The version is checked before anything is written, so that a newer
     * barbu's database is left exactly as it was. */
    int version = user_version(db);
    if (version < 0) {
        snprintf(err, cap, "could not read the schema version of %s: %s", path, sqlite3_errmsg(db));
        return -1;
    }
    if (version > SCHEMA_VERSION) {
        snprintf(err, cap,
                 "%s has schema version %d, newer than the %d this barbu understands: "
                 "use a newer barbu",
                 path, version, SCHEMA_VERSION);
        return -1;
    }

    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, cap, "could not set WAL mode on %s: %s", path, sqlite3_errmsg(db));
        return -1;
    }
    char mode[16] = "";
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        snprintf(mode, sizeof mode, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    /* An in-memory database (for tests) has no WAL and needs none. */
    if (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0) {
        snprintf(err, cap, "could not set WAL mode on %s (the mode is \"%s\"): %s", path, mode,
                 sqlite3_errmsg(db));
        return -1;
    }
    if (sqlite3_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", NULL, NULL,
                     NULL) != SQLITE_OK) {
        snprintf(err, cap, "could not configure %s: %s", path, sqlite3_errmsg(db));
        return -1;
    }

    if (version == SCHEMA_VERSION)
        return 0;
    /* A new or older file.  The version is read again under the write lock, in case
     * another process created the schema in the meantime. */
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, cap, "could not create the schema of %s: %s", path, sqlite3_errmsg(db));
        return -1;
    }
    version = user_version(db);
    /* Version 2's tables of moderation and version 3's of the club are
     * made with IF NOT EXISTS: a file that has them already keeps them. */
    if (version == 0 &&
        (sqlite3_exec(db, SCHEMA, NULL, NULL, NULL) != SQLITE_OK ||
         sqlite3_exec(db, SCHEMA_2, NULL, NULL, NULL) != SQLITE_OK ||
         sqlite3_exec(db, MIGRATE_MODERATION, NULL, NULL, NULL) != SQLITE_OK ||
         sqlite3_exec(db, SQLITE_CLUB_SCHEMA, NULL, NULL, NULL) != SQLITE_OK ||
         sqlite3_exec(db, SQLITE_ANALYSES_SCHEMA, NULL, NULL, NULL) != SQLITE_OK ||
         sqlite3_exec(db, "PRAGMA user_version = 4", NULL, NULL, NULL) != SQLITE_OK)) {
        snprintf(err, cap, "could not create the schema of %s: %s", path, sqlite3_errmsg(db));
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    if (version == 1 && (migrate_1(db) != 0 ||
                         sqlite3_exec(db, MIGRATE_MODERATION, NULL, NULL, NULL) != SQLITE_OK ||
                         sqlite3_exec(db, MIGRATE_KEYS, NULL, NULL, NULL) != SQLITE_OK)) {
        snprintf(err, cap, "could not bring %s from schema version 1 to 2: %s", path,
                 sqlite3_errmsg(db));
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    /* From version 2 (or 1, just brought to 2): the club's tables. */
    if ((version == 1 || version == 2) &&
        (sqlite3_exec(db, SQLITE_CLUB_SCHEMA, NULL, NULL, NULL) != SQLITE_OK ||
         sqlite3_exec(db, "PRAGMA user_version = 3", NULL, NULL, NULL) != SQLITE_OK)) {
        snprintf(err, cap, "could not bring %s from schema version %d to 3: %s", path, version,
                 sqlite3_errmsg(db));
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    /* From version 3 (or older, just brought to 3): the kept analyses. */
    if (version >= 1 && version <= 3 &&
        (sqlite3_exec(db, SQLITE_ANALYSES_SCHEMA, NULL, NULL, NULL) != SQLITE_OK ||
         sqlite3_exec(db, "PRAGMA user_version = 4", NULL, NULL, NULL) != SQLITE_OK)) {
        snprintf(err, cap, "could not bring %s from schema version %d to 4: %s", path, version,
                 sqlite3_errmsg(db));
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    if (version >= 0 && version <= 3)
        version = SCHEMA_VERSION;
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, cap, "could not create the schema of %s: %s", path, sqlite3_errmsg(db));
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    if (version != 0 && version != SCHEMA_VERSION) {
        snprintf(err, cap, "%s has schema version %d, which this barbu does not understand", path,
                 version);
        return -1;
    }
    return 0;
}

store *store_sqlite_open(const char *path, char *err, size_t cap)
{
    char scratch[1];
    if (!err || cap == 0) {
        err = scratch;
        cap = sizeof scratch;
    }
    if (!path) {
        snprintf(err, cap, "no database path was given");
        return NULL;
    }
    bb_sqlite *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, cap, "out of memory opening %s", path);
        return NULL;
    }
    q->base.ops = &SQLITE_OPS;
    q->lock_fd = -1;
    /* ":memory:" and "" (a private temporary database) have no file. */
    bool file = path[0] != '\0' && strcmp(path, ":memory:") != 0;
    if (file && (q->lock_fd = lock_db(path, err, cap)) < 0) {
        free(q);
        return NULL;
    }
    int rc = sqlite3_open_v2(path, &q->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, cap, "could not open %s: %s", path,
                 q->db ? sqlite3_errmsg(q->db) : sqlite3_errstr(rc));
        sqlite_close(&q->base);
        return NULL;
    }
    sqlite3_extended_result_codes(q->db, 1);
    sqlite3_busy_timeout(q->db, BUSY_TIMEOUT_MS);
    if (prepare_db(q->db, path, err, cap) < 0) {
        sqlite_close(&q->base);
        return NULL;
    }
    for (size_t k = 0; k < N_STATEMENTS; k++) {
        if (sqlite3_prepare_v3(q->db, STATEMENTS[k].sql, -1, SQLITE_PREPARE_PERSISTENT,
                               statement(q, k), NULL) != SQLITE_OK) {
            snprintf(err, cap, "could not prepare a statement on %s: %s", path,
                     sqlite3_errmsg(q->db));
            sqlite_close(&q->base);
            return NULL;
        }
    }
    if (!(q->club = sqlite_club_open(&q->base, q->db, err, cap))) {
        sqlite_close(&q->base);
        return NULL;
    }
    if (file && checkpointer_start(q, path, err, cap) < 0) {
        sqlite_close(&q->base);
        return NULL;
    }
    return &q->base;
}

store *store_sqlite_open_reader(const char *path, char *err, size_t cap)
{
    char scratch[1];
    if (!err || cap == 0) {
        err = scratch;
        cap = sizeof scratch;
    }
    if (!path || path[0] == '\0' || strcmp(path, ":memory:") == 0) {
        snprintf(err, cap, "a reader needs the path of a database file");
        return NULL;
    }
    bb_sqlite *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, cap, "out of memory opening %s", path);
        return NULL;
    }
    q->base.ops = &SQLITE_OPS;
    q->lock_fd = -1;
    int rc = sqlite3_open_v2(path, &q->db, SQLITE_OPEN_READONLY, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, cap, "could not open %s to read: %s", path,
                 q->db ? sqlite3_errmsg(q->db) : sqlite3_errstr(rc));
        sqlite_close(&q->base);
        return NULL;
    }
    sqlite3_extended_result_codes(q->db, 1);
    sqlite3_busy_timeout(q->db, BUSY_TIMEOUT_MS);
    int version = user_version(q->db);
    if (version != SCHEMA_VERSION) {
        snprintf(err, cap,
                 "%s has schema version %d, not the %d this barbu reads: open it with barbu "
                 "serve first",
                 path, version, SCHEMA_VERSION);
        sqlite_close(&q->base);
        return NULL;
    }
    sqlite3_exec(q->db, "PRAGMA query_only = 1", NULL, NULL, NULL);
    /* The club's pages read the same pages of the file again and again: a
     * cache of 32 MiB and the file mapped (up to 256 MiB) rather than a
     * pread(2) a page, which was most of a request's time (bench/club.sh). */
    sqlite3_exec(q->db, "PRAGMA cache_size = -32768; PRAGMA mmap_size = 268435456", NULL, NULL,
                 NULL);
    for (size_t k = 0; k < N_STATEMENTS; k++) {
        if (sqlite3_prepare_v3(q->db, STATEMENTS[k].sql, -1, SQLITE_PREPARE_PERSISTENT,
                               statement(q, k), NULL) != SQLITE_OK) {
            snprintf(err, cap, "could not prepare a statement on %s: %s", path,
                     sqlite3_errmsg(q->db));
            sqlite_close(&q->base);
            return NULL;
        }
    }
    if (!(q->club = sqlite_club_open(&q->base, q->db, err, cap))) {
        sqlite_close(&q->base);
        return NULL;
    }
    return &q->base;
}
