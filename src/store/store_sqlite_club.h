/*
 * store_sqlite_club.h - the club's part of the SQLite store (schema version
 * 3: games, their players, the ladder, the ratings and their history,
 * preferences), inside store_sqlite.c's connection.  Internal to the store.
 */
#ifndef BARBU_STORE_SQLITE_CLUB_H
#define BARBU_STORE_SQLITE_CLUB_H

#include <stddef.h>

#include <sqlite3.h>

#include "store.h"

/* The tables and indexes of version 3; every statement may run again (IF
 * NOT EXISTS). */
extern const char SQLITE_CLUB_SCHEMA[];
/* Version 4's kept analyses (IF NOT EXISTS too). */
extern const char SQLITE_ANALYSES_SCHEMA[];

typedef struct sqlite_club sqlite_club;

/* Prepares the club's statements on db, whose errors go to base's error
 * buffer.  NULL on failure, with the reason in err. */
sqlite_club *sqlite_club_open(store *base, sqlite3 *db, char *err, size_t cap);
void sqlite_club_close(sqlite_club *c);

/* The store's club half (store_sqlite.c). */
sqlite_club *sqlite_club_of(store *s);

int sqlite_game_begin(store *s, const store_game *g);
int sqlite_game_end(store *s, const store_game *g, const store_rating *ratings, int n_ratings);
int sqlite_game_status(store *s, int64_t id);
int sqlite_game_get(store *s, int64_t id, void (*fn)(void *ctx, const store_game *g), void *ctx);
int sqlite_games_find(store *s, const store_game_filter *f, int offset, int limit, int64_t *total,
                      void (*fn)(void *ctx, const store_game *g), void *ctx);
int sqlite_ladder_load(store *s, const char *period,
                       void (*fn)(void *ctx, const store_ladder_row *row), void *ctx);
int sqlite_ladder_periods(store *s, void (*fn)(void *ctx, const char *period), void *ctx);
int sqlite_rating_get(store *s, const char *id, void (*fn)(void *ctx, const store_rating *r),
                      void *ctx);
int sqlite_ratings_load(store *s, void (*fn)(void *ctx, const store_rating *r), void *ctx);
int sqlite_rating_history_load(store *s, const char *id,
                               void (*fn)(void *ctx, const store_rating_point *p), void *ctx);
int sqlite_prefs_get(store *s, const char *key, char *out, size_t cap);
int sqlite_prefs_put(store *s, const char *key, const char *json);
int sqlite_player_results(store *s, const store_game_filter *f, store_player_results *out);
int sqlite_rating_point_get(store *s, const char *id, int64_t game, store_rating_point *out,
                            store_rating_point *prev);
int sqlite_analysis_put(store *s, const char *key, int seat, const char *level, const char *body);
int sqlite_analysis_get(store *s, const char *key, int seat, const char *level, char **body);

#endif
