/*
 * store_pg_club_stub.c - TEMPORARY stand-ins for the club's PostgreSQL
 * functions until store_pg_club.c (branch i25-pgclub) is merged: every one
 * fails with a sentence.  CMakeLists.txt leaves this file out as soon as
 * store_pg_club.c exists, and the merge deletes it.
 */
#include "store_pg_internal.h"

const char PG_CLUB_SCHEMA[] = "";

static int not_yet(store *s)
{
    pg_failf(pg_of(s), "the club is not in the PostgreSQL store yet");
    return -1;
}

int pg_game_begin(store *s, const store_game *g)
{
    (void)g;
    return not_yet(s);
}

int pg_game_end(store *s, const store_game *g, const store_rating *ratings, int n_ratings)
{
    (void)g, (void)ratings, (void)n_ratings;
    return not_yet(s);
}

int pg_game_status(store *s, int64_t id)
{
    (void)id;
    return not_yet(s);
}

int pg_game_get(store *s, int64_t id, void (*fn)(void *ctx, const store_game *g), void *ctx)
{
    (void)id, (void)fn, (void)ctx;
    return not_yet(s);
}

int pg_games_find(store *s, const store_game_filter *f, int offset, int limit, int64_t *total,
                  void (*fn)(void *ctx, const store_game *g), void *ctx)
{
    (void)f, (void)offset, (void)limit, (void)total, (void)fn, (void)ctx;
    return not_yet(s);
}

int pg_ladder_load(store *s, const char *period, void (*fn)(void *ctx, const store_ladder_row *row),
                   void *ctx)
{
    (void)period, (void)fn, (void)ctx;
    return not_yet(s);
}

int pg_ladder_periods(store *s, void (*fn)(void *ctx, const char *period), void *ctx)
{
    (void)fn, (void)ctx;
    return not_yet(s);
}

int pg_rating_get(store *s, const char *id, void (*fn)(void *ctx, const store_rating *r), void *ctx)
{
    (void)id, (void)fn, (void)ctx;
    return not_yet(s);
}

int pg_ratings_load(store *s, void (*fn)(void *ctx, const store_rating *r), void *ctx)
{
    (void)fn, (void)ctx;
    return not_yet(s);
}

int pg_rating_history_load(store *s, const char *id,
                           void (*fn)(void *ctx, const store_rating_point *p), void *ctx)
{
    (void)id, (void)fn, (void)ctx;
    return not_yet(s);
}

int pg_prefs_get(store *s, const char *key, char *out, size_t cap)
{
    (void)key, (void)out, (void)cap;
    return not_yet(s);
}

int pg_prefs_put(store *s, const char *key, const char *json)
{
    (void)key, (void)json;
    return not_yet(s);
}

int pg_player_results(store *s, const store_game_filter *f, store_player_results *out)
{
    (void)f, (void)out;
    return not_yet(s);
}

int pg_rating_point_get(store *s, const char *id, int64_t game, store_rating_point *out,
                        store_rating_point *prev)
{
    (void)id, (void)game, (void)out, (void)prev;
    return not_yet(s);
}
