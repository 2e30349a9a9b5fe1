/*
 * store_pg_internal.h - what store_pg.c (sessions, tables, seats, actions,
 * accounts, moderation, nodes and leases) and store_pg_club.c (the club's
 * tables) share: one libpq connection and its helpers.  Internal to the
 * store.
 *
 * The connection is used by one thread at a time (the server's loop, or
 * the club's reader thread with a connection of its own).  Every statement
 * is sent with PQexecParams and text parameters, never with values pasted
 * into SQL.  Integers go in and out as decimal text.
 */
#ifndef BARBU_STORE_PG_INTERNAL_H
#define BARBU_STORE_PG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "store.h"

/* A lease this store holds: the table and the epoch it took. */
typedef struct pg_lease {
    int64_t table, epoch;
} pg_lease;

typedef struct pg_store {
    store base;
    PGconn *conn;
    bool in_tx;  /* between pg_begin and pg_commit or pg_rollback */
    bool reader; /* store_pg_open_reader's: every write refused */
    /* PG_LOAD_*: the loads whose callbacks are running (store.h: no load
     * starts again from inside its own callback). */
    unsigned loads;
    char sqlstate[6]; /* the SQLSTATE of pg_run's last failure, "" for none */
    /* When the connection was last made again (CLOCK_MONOTONIC seconds),
     * 0 never: at most one attempt a second while the database is down. */
    double reconnected;
    /* Whether lock_timeout and idle_in_transaction_session_timeout are
     * ours to set (the URL's "options" did not give its own). */
    bool own_timeouts;
    /* Set by node_join: writes for a table are fenced by its lease. */
    bool joined;
    /* Which hold of the servers' advisory lock (PG_SERVER_LOCK) this store
     * has: PG_CLAIM_ALONE (exclusive, store.h's claim_alone) or
     * PG_CLAIM_NODE (shared, node_join), 0 none.  It lives as long as the
     * connection: taken again after a reconnect, and when that fails
     * (another server took the database in between) claim_lost is set and
     * every write fails from then on, so that two servers never write the
     * same tables. */
    int claim;
    bool claim_lost;
    int claim_pid; /* the backend that took it (PQbackendPID) */
    char node[64];
    int lease_ms;
    pg_lease *leases; /* sorted by table */
    size_t n_leases, cap_leases;
} pg_store;

static inline pg_store *pg_of(store *s)
{
    return (pg_store *)s;
}

/* Runs sql with n text parameters (NULL for SQL NULL).  Returns the result
 * when its status is PGRES_COMMAND_OK or PGRES_TUPLES_OK (the caller
 * PQclears it), NULL otherwise with "what: the server's message" in the
 * store's error buffer.  A reader store refuses anything but a SELECT. */
PGresult *pg_run(pg_store *p, const char *what, const char *sql, int n, const char *const *params);
/* pg_run for a statement whose rows are not wanted: 0 or -1. */
int pg_do(pg_store *p, const char *what, const char *sql, int n, const char *const *params);
/* BEGIN, COMMIT and ROLLBACK (ROLLBACK keeps the error already set). */
int pg_begin(pg_store *p);
int pg_commit(pg_store *p);
void pg_rollback(pg_store *p);

/* The epoch of this store's lease on table, 0 when it holds none. */
int64_t pg_epoch(const pg_store *p, int64_t table);
/* The fence of a write for table, as the text of its epoch parameter, and
 * whether the write may be tried at all: false when this store has joined
 * as a node and holds no lease on the table (the error is then set and the
 * caller returns STORE_FENCED).  A store that has not joined gets "" in
 * buf and writes unfenced: each fenced statement is written as
 *   ... WHERE ($N = '' OR epoch = $N::bigint) ...
 * over the tables row (locked FOR SHARE or updated in the same statement),
 * so that a write and a lease taken by another node are serialised on that
 * row. */
bool pg_fence(pg_store *p, int64_t table, char buf[24]);
/* Sets the error of a write refused by the fence (no row matched) and
 * returns STORE_FENCED: the store forgets its lease on the table. */
int pg_fenced(pg_store *p, int64_t table);

/* Fills the store's error with a sentence. */
void pg_failf(pg_store *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A load refuses to start again from inside its own callback (store.h):
 * pg_load_enter sets the error and returns false when the load of that
 * kind is running; pg_load_leave ends it. */
enum {
    PG_LOAD_SESSIONS = 1u << 0,
    PG_LOAD_TABLES = 1u << 1,
    PG_LOAD_TABLE = 1u << 2,
    PG_LOAD_ACTIONS = 1u << 3,
    PG_LOAD_DEAL_PLAYERS = 1u << 4,
    PG_LOAD_ADMINS = 1u << 5,
    PG_LOAD_BANS = 1u << 6,
    PG_LOAD_MOD_LOG = 1u << 7,
    PG_LOAD_REMOVALS = 1u << 8,
    PG_LOAD_LISTED = 1u << 9,
    PG_LOAD_ORPHANED = 1u << 10,
};
bool pg_load_enter(pg_store *p, unsigned kind, const char *what);
void pg_load_leave(pg_store *p, unsigned kind);

/* The advisory lock that keeps one server alone apart from nodes and
 * from another server alone: "barbu" in ASCII, plus nine (plus one is store_pg_nodes.c's
 * LISTED_LOCK). */
#define PG_SERVER_LOCK "452983468670"
enum { PG_CLAIM_ALONE = 1, PG_CLAIM_NODE = 2 };
/* Takes the hold of it that p->claim names, on the connection as it is:
 * 1 taken, 0 another server holds it the other way, -1 failure. */
int pg_claim(pg_store *p);

/* Sets lock_timeout and idle_in_transaction_session_timeout for the
 * store's lease (or the defaults before node_join), unless the URL gave
 * its own: 0 or -1. */
int pg_timeouts(pg_store *p);

/* Remembers the lease this store took on table (store_pg_nodes.c): 0, or
 * -1 when memory runs out. */
int pg_lease_keep(pg_store *p, int64_t table, int64_t epoch);
/* Forgets it. */
void pg_lease_forget(pg_store *p, int64_t table);

/* Opens the database with its schema made or brought up to `version` (1
 * or 2) rather than the current one: for the test of the migration. */
store *store_pg_open_version(const char *url, int version, char *err, size_t cap);

/* Text of an integer for a parameter; buf needs 24 bytes. */
const char *pg_i64(int64_t v, char buf[24]);
/* A column of a row as an integer, a double or a bool ("t"); 0 when NULL. */
int64_t pg_get_i64(const PGresult *r, int row, int col);
double pg_get_double(const PGresult *r, int row, int col);
bool pg_get_bool(const PGresult *r, int row, int col);
/* A column as text, NULL when SQL NULL. */
const char *pg_get_text(const PGresult *r, int row, int col);

/* Accounts, tokens, deals' players and moderation (store_pg_identity.c):
 * the store_ops of the same names. */
int pg_account_create(store *s, const char *key, const char *name, const char *hash);
int pg_account_get(store *s, const char *key, store_account *out);
int pg_account_set_hash(store *s, const char *key, const char *hash);
int pg_account_set_flags(store *s, const char *key, int admin, int banned);
int pg_token_put(store *s, const char *hash, const char *key, int64_t created, int64_t expires);
int pg_token_get(store *s, const char *hash, char key[], int64_t *expires);
int pg_token_forget(store *s, const char *hash);
int pg_tokens_forget(store *s, const char *key, const char *except);
int pg_deal_player_put(store *s, int64_t table, const store_deal_player *p);
int pg_deal_players_load(store *s, int64_t table, void (*fn)(void *ctx, const store_deal_player *p),
                         void *ctx);
int pg_admin_put(store *s, const char *key, const char *name);
int pg_admins_load(store *s, void (*fn)(void *ctx, const char *key, const char *name), void *ctx);
int pg_ban_put(store *s, const store_mod_row *ban);
int pg_ban_delete(store *s, const char *key);
int pg_bans_load(store *s, void (*fn)(void *ctx, const store_mod_row *ban), void *ctx);
int pg_mod_act_add(store *s, const store_mod_row *act, int64_t *id);
int pg_report_add(store *s, const store_mod_row *report, int64_t *id);
int pg_mod_log_load(store *s, int limit, void (*fn)(void *ctx, const store_mod_row *row),
                    void *ctx);
int pg_removals_load(store *s, void (*fn)(void *ctx, int64_t table, const char *name), void *ctx);
int pg_tokens_expire(store *s, int64_t now);

/* Nodes and leases (store_pg_nodes.c): the store_ops of the same names. */
int pg_node_join(store *s, const char *name, const char *url, int lease_ms);
/* store_pg_nodes_load.c: every node's name and url, in name order. */
int pg_nodes_load(store *s, void (*fn)(void *ctx, const char *name, const char *url), void *ctx);
int pg_node_url(store *s, const char *name, char *url, size_t cap);
int pg_lease_take(store *s, int64_t table, int64_t *epoch);
int pg_leases_renew(store *s, void (*fn)(void *ctx, int64_t table), void *ctx);
int pg_lease_release(store *s, int64_t table);
int pg_leases_orphaned(store *s, int limit, void (*fn)(void *ctx, int64_t table), void *ctx);
int pg_table_owner(store *s, int64_t table, char *node, size_t ncap, char *url, size_t ucap);
int pg_listed_put(store *s, int64_t table, const char *summary);
int pg_listed_clear_over(store *s);
int pg_listed_load(store *s, int64_t after, void (*fn)(void *ctx, const store_listed *l),
                   void *ctx);
int pg_session_get(store *s, const char *token, char *name, size_t cap);
int pg_seat_of(store *s, const char *token, int64_t *table);

/* The club's tables (store_pg_club.c): created by the schema's steps in
 * store_pg.c (PG_CLUB_SCHEMA is version 2's), and its operations. */
extern const char PG_CLUB_SCHEMA[];
/* Version 3's kept analyses (issue 26). */
extern const char PG_ANALYSES_SCHEMA[];
int pg_game_begin(store *s, const store_game *g);
int pg_game_end(store *s, const store_game *g, const store_rating *ratings, int n_ratings);
int pg_game_status(store *s, int64_t id);
int pg_game_get(store *s, int64_t id, void (*fn)(void *ctx, const store_game *g), void *ctx);
int pg_games_find(store *s, const store_game_filter *f, int offset, int limit, int64_t *total,
                  void (*fn)(void *ctx, const store_game *g), void *ctx);
int pg_ladder_load(store *s, const char *period, void (*fn)(void *ctx, const store_ladder_row *row),
                   void *ctx);
int pg_ladder_periods(store *s, void (*fn)(void *ctx, const char *period), void *ctx);
int pg_rating_get(store *s, const char *id, void (*fn)(void *ctx, const store_rating *r),
                  void *ctx);
int pg_ratings_load(store *s, void (*fn)(void *ctx, const store_rating *r), void *ctx);
int pg_rating_history_load(store *s, const char *id,
                           void (*fn)(void *ctx, const store_rating_point *p), void *ctx);
int pg_prefs_get(store *s, const char *key, char *out, size_t cap);
int pg_prefs_put(store *s, const char *key, const char *json);
int pg_analysis_put(store *s, const char *key, int seat, const char *level, const char *body);
int pg_analysis_get(store *s, const char *key, int seat, const char *level, char **body);
int pg_player_results(store *s, const store_game_filter *f, store_player_results *out);
int pg_rating_point_get(store *s, const char *id, int64_t game, store_rating_point *out,
                        store_rating_point *prev);

#endif
