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
    bool reader;  /* store_pg_open_reader's: every write refused */
    bool loading; /* inside a load's callback (no nested load of the same kind) */
    /* Set by node_join: writes for a table are fenced by its lease. */
    bool joined;
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

/* Text of an integer for a parameter; buf needs 24 bytes. */
const char *pg_i64(int64_t v, char buf[24]);
/* A column of a row as an integer, a double or a bool ("t"); 0 when NULL. */
int64_t pg_get_i64(const PGresult *r, int row, int col);
double pg_get_double(const PGresult *r, int row, int col);
bool pg_get_bool(const PGresult *r, int row, int col);
/* A column as text, NULL when SQL NULL. */
const char *pg_get_text(const PGresult *r, int row, int col);

/* The club's tables (store_pg_club.c): created by the schema's steps in
 * store_pg.c (PG_CLUB_SCHEMA is version 2's), and its operations. */
extern const char PG_CLUB_SCHEMA[];
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
int pg_player_results(store *s, const store_game_filter *f, store_player_results *out);
int pg_rating_point_get(store *s, const char *id, int64_t game, store_rating_point *out,
                        store_rating_point *prev);

#endif
