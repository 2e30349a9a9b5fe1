/*
 * test_store_club.c - the club in a store: a game begun and ended comes
 * back whole, a game ends once, the ladder sums over months and a year
 * only over ladder games that are over, ties in the ladder, the places and
 * the ratings, ratings and their history, the archive's filters and pages,
 * preferences, kept analyses.  Run against SQLite (schema version 4; also
 * files of versions 2 and 3 migrated, and the read-only opener), and with --pg against
 * PostgreSQL (tests/pg/cluster.sh's, BARBU_TEST_PG: a fresh database each
 * case; also the fencing of game_begin and game_end by a table's lease):
 * the same assertions hold on both.
 */
#include <dirent.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "helpers.h"
#include "pg_test.h"
#include "store.h"
#include "store_pg_internal.h"

/* --pg: every case on PostgreSQL. */
static bool use_pg;
static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/barbu-club-XXXXXX");
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

/* A new store named name: a file in dir, or a fresh PostgreSQL database
 * "club_NAME"; path gets what store_open takes to open it again. */
static store *open_at(const char *name, char *path, size_t cap)
{
    if (use_pg) {
        char db[48];
        snprintf(db, sizeof db, "club_%s", name);
        char *url = pg_test_db(db);
        if (!url)
            fail_msg("no PostgreSQL database %s (is BARBU_TEST_PG set?)", db);
        snprintf(path, cap, "%s", url);
        free(url);
    } else {
        snprintf(path, cap, "%s/%s.db", dir, name);
    }
    char err[256] = "";
    store *s = store_open(path, err, sizeof err);
    if (!s)
        fail_msg("open %s: %s", path, err);
    return s;
}

/* 2026-11-15 12:00 UTC, 2026-10-15 12:00 UTC, 2025-12-31 23:59:59 UTC. */
#define NOV_2026 1794744000
#define OCT_2026 1792065600
#define DEC_2025 1767225599

/* Four players: alice and bob registered, carol a guest, a computer
 * player at W. */
static store_game_player four[4] = {
    {.seat = 0, .name = "Alice", .key = "alice", .kind = STORE_PERSON_REGISTERED},
    {.seat = 1, .name = "Bob", .key = "bob", .kind = STORE_PERSON_REGISTERED},
    {.seat = 2, .name = "carol", .kind = STORE_PERSON_GUEST},
    {.seat = 3, .name = "medium bot W", .kind = STORE_PERSON_COMPUTER, .level = "medium"},
};

static store_game running_game(int64_t id, int64_t started, bool ladder)
{
    store_game g = {
        .id = id,
        .preset = "uk",
        .ladder = ladder,
        .rated = ladder,
        .credit = STORE_CREDIT_RECORD,
        .status = STORE_GAME_RUNNING,
        .started = started,
        .deals = "[]",
        .n_players = 4,
        .players = four,
    };
    return g;
}

/* The same game over with totals 30, 10, -10, -30 (places 1 to 4), or with
 * the given totals. */
static store_game_player ended[4];
static store_game over_game(int64_t id, int64_t finished, bool ladder, const int32_t totals[4])
{
    store_game g = running_game(id, finished - 600, ladder);
    g.status = STORE_GAME_OVER;
    g.finished = finished;
    g.n_deals = 2;
    g.deals = "[{\"deal\":1},{\"deal\":2}]";
    memcpy(ended, four, sizeof ended);
    for (int k = 0; k < 4; k++) {
        g.totals[k] = totals[k];
        ended[k].credited = true;
        ended[k].points = totals[k];
        ended[k].deals = 2;
        int place = 1;
        for (int j = 0; j < 4; j++)
            place += totals[j] > totals[k];
        ended[k].place = place;
    }
    g.players = ended;
    return g;
}

static const int32_t SPREAD[4] = {30, 10, -10, -30};

/* --------------------------------------------------------- a game's rows */

typedef struct seen_game {
    int n;
    store_game g;
    char preset[16], deals[128];
    store_game_player p[8];
    char names[8][32], keys[8][32], levels[8][16];
    int64_t ids[64];
} seen_game;

static void on_game(void *ctx, const store_game *g)
{
    seen_game *v = ctx;
    if (v->n < 64)
        v->ids[v->n] = g->id;
    v->n++;
    v->g = *g;
    snprintf(v->preset, sizeof v->preset, "%s", g->preset);
    snprintf(v->deals, sizeof v->deals, "%s", g->deals);
    v->g.preset = v->preset;
    v->g.deals = v->deals;
    v->g.n_players = g->n_players < 8 ? g->n_players : 8;
    for (int k = 0; k < v->g.n_players; k++) {
        v->p[k] = g->players[k];
        snprintf(v->names[k], 32, "%s", g->players[k].name);
        snprintf(v->keys[k], 32, "%s", g->players[k].key ? g->players[k].key : "-");
        snprintf(v->levels[k], 16, "%s", g->players[k].level ? g->players[k].level : "-");
    }
    v->g.players = v->p;
}

static void test_game_begin_end(void **state)
{
    (void)state;
    char path[256];
    store *s = open_at("game", path, sizeof path);
    assert_int_equal(s->ops->game_status(s, 7), -2);
    store_game g = running_game(7, NOV_2026, false);
    assert_int_equal(s->ops->game_begin(s, &g), 0);
    assert_int_equal(s->ops->game_status(s, 7), STORE_GAME_RUNNING);

    seen_game v = {0};
    assert_int_equal(s->ops->game_get(s, 7, on_game, &v), 1);
    assert_int_equal(v.g.status, STORE_GAME_RUNNING);
    assert_string_equal(v.deals, "[]");
    assert_int_equal(v.g.n_players, 4);
    assert_string_equal(v.names[0], "Alice");
    assert_string_equal(v.keys[0], "alice");
    assert_string_equal(v.keys[2], "-");
    assert_int_equal(v.p[3].kind, STORE_PERSON_COMPUTER);
    assert_string_equal(v.levels[3], "medium");
    assert_int_equal(v.g.finished, 0);
    assert_int_equal(s->ops->game_get(s, 8, on_game, &v), 0);

    /* A game cannot end as running, nor begin as over. */
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), -1);
    assert_non_null(strstr(store_error(s), "not over or abandoned"));

    store_game o = over_game(7, NOV_2026 + 600, false, SPREAD);
    o.started = NOV_2026;
    assert_int_equal(s->ops->game_begin(s, &o), -1);
    assert_int_equal(s->ops->game_end(s, &o, NULL, 0), 0);
    assert_int_equal(s->ops->game_status(s, 7), STORE_GAME_OVER);
    memset(&v, 0, sizeof v);
    assert_int_equal(s->ops->game_get(s, 7, on_game, &v), 1);
    assert_int_equal(v.g.status, STORE_GAME_OVER);
    assert_int_equal(v.g.finished, NOV_2026 + 600);
    assert_int_equal(v.g.started, NOV_2026);
    assert_int_equal(v.g.n_deals, 2);
    assert_string_equal(v.deals, "[{\"deal\":1},{\"deal\":2}]");
    for (int k = 0; k < 4; k++) {
        assert_int_equal(v.g.totals[k], SPREAD[k]);
        assert_int_equal(v.p[k].points, SPREAD[k]);
        assert_int_equal(v.p[k].place, k + 1);
        assert_true(v.p[k].credited);
        assert_int_equal(v.p[k].deals, 2);
    }

    /* A game ends once, and cannot begin again. */
    o.totals[0] = 999;
    assert_int_equal(s->ops->game_end(s, &o, NULL, 0), -1);
    assert_non_null(strstr(store_error(s), "ended already"));
    assert_int_equal(s->ops->game_begin(s, &g), -1);
    memset(&v, 0, sizeof v);
    assert_int_equal(s->ops->game_get(s, 7, on_game, &v), 1);
    assert_int_equal(v.g.totals[0], 30);

    /* Kept across a reopen. */
    store_close(s);
    char err[256];
    s = store_open(path, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(s->ops->game_status(s, 7), STORE_GAME_OVER);
    store_close(s);
}

/* ------------------------------------------------------------------ ladder */

typedef struct seen_ladder {
    int n;
    char text[512];
} seen_ladder;

static void on_ladder(void *ctx, const store_ladder_row *r)
{
    seen_ladder *v = ctx;
    size_t used = strlen(v->text);
    snprintf(v->text + used, sizeof v->text - used, "%s%s=%s:%d:%" PRId64, v->n ? "|" : "", r->key,
             r->name, r->games, r->total);
    v->n++;
}

static void on_period(void *ctx, const char *p)
{
    seen_ladder *v = ctx;
    size_t used = strlen(v->text);
    snprintf(v->text + used, sizeof v->text - used, "%s%s", v->n ? "|" : "", p);
    v->n++;
}

static void ladder_of(store *s, const char *period, char *out, size_t cap)
{
    seen_ladder v = {0};
    assert_int_equal(s->ops->ladder_load(s, period, on_ladder, &v), 0);
    snprintf(out, cap, "%s", v.text);
}

/* Ladder games over in November and October 2026 and December 2025; a
 * ladder game abandoned and a game that is no ladder game count nowhere.
 * Only registered players are in the ladder. */
static void test_ladder(void **state)
{
    (void)state;
    char path[256], got[512];
    store *s = open_at("ladder", path, sizeof path);
    const int32_t other[4] = {-5, 25, 0, -20};
    store_game g = over_game(1, NOV_2026, true, SPREAD);
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    g = over_game(2, NOV_2026 + 3600, true, other);
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    g = over_game(3, OCT_2026, true, other);
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    g = over_game(4, DEC_2025, true, SPREAD);
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    g = over_game(5, NOV_2026, false, SPREAD); /* not a ladder game */
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    g = over_game(6, NOV_2026, true, SPREAD);
    g.status = STORE_GAME_ABANDONED;
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);

    /* November: alice 30 - 5 = 25, bob 10 + 25 = 35, two games each. */
    ladder_of(s, "2026-11", got, sizeof got);
    assert_string_equal(got, "bob=Bob:2:35|alice=Alice:2:25");
    /* October: one game. */
    ladder_of(s, "2026-10", got, sizeof got);
    assert_string_equal(got, "bob=Bob:1:25|alice=Alice:1:-5");
    /* 2026: three games, alice 30 - 5 - 5 = 20, bob 10 + 25 + 25 = 60. */
    ladder_of(s, "2026", got, sizeof got);
    assert_string_equal(got, "bob=Bob:3:60|alice=Alice:3:20");
    ladder_of(s, "2025", got, sizeof got);
    assert_string_equal(got, "alice=Alice:1:30|bob=Bob:1:10");
    ladder_of(s, "2024", got, sizeof got);
    assert_string_equal(got, "");

    seen_ladder v = {0};
    assert_int_equal(s->ops->ladder_periods(s, on_period, &v), 0);
    assert_string_equal(v.text, "2026-11|2026-10|2026|2025-12|2025");

    /* With credit by deals a player who held two seats counts once, with
     * the sum (a substitute credited too). */
    store_game_player subs[5] = {
        {.seat = 0,
         .name = "Alice",
         .key = "alice",
         .kind = STORE_PERSON_REGISTERED,
         .credited = true,
         .points = 12,
         .deals = 1,
         .place = 1},
        {.seat = 0,
         .name = "Dan",
         .key = "dan",
         .kind = STORE_PERSON_REGISTERED,
         .credited = true,
         .points = 3,
         .deals = 1,
         .place = 1},
        {.seat = 1,
         .name = "Bob",
         .key = "bob",
         .kind = STORE_PERSON_REGISTERED,
         .credited = true,
         .points = -4,
         .deals = 1,
         .place = 2},
        {.seat = 1,
         .name = "Alice",
         .key = "alice",
         .kind = STORE_PERSON_REGISTERED,
         .credited = true,
         .points = 6,
         .deals = 1,
         .place = 2},
        {.seat = 2,
         .name = "Erin",
         .key = "erin",
         .kind = STORE_PERSON_REGISTERED,
         .credited = false,
         .points = 0,
         .deals = 0,
         .place = 3},
    };
    g = over_game(9, DEC_2025 - 86400, true, SPREAD);
    g.credit = STORE_CREDIT_DEALS;
    g.players = subs;
    g.n_players = 5;
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    ladder_of(s, "2025-12", got, sizeof got);
    /* alice 30 + 18, bob 10 - 4, dan 3; erin not credited. */
    assert_string_equal(got, "alice=Alice:2:48|bob=Bob:2:6|dan=Dan:1:3");
    store_close(s);
}

/* ----------------------------------------------------------------- ratings */

typedef struct seen_rating {
    int n;
    char text[512];
} seen_rating;

static void on_rating(void *ctx, const store_rating *r)
{
    seen_rating *v = ctx;
    size_t used = strlen(v->text);
    snprintf(v->text + used, sizeof v->text - used, "%s%s=%s:%.2f:%.2f:%d:%" PRId64,
             v->n ? "|" : "", r->id, r->name, r->mu, r->sigma, r->games, r->updated);
    v->n++;
}

static void on_point(void *ctx, const store_rating_point *p)
{
    seen_rating *v = ctx;
    size_t used = strlen(v->text);
    snprintf(v->text + used, sizeof v->text - used, "%s%" PRId64 "@%" PRId64 ":%.2f:%.2f",
             v->n ? "|" : "", p->game, p->at, p->mu, p->sigma);
    v->n++;
}

static void test_ratings(void **state)
{
    (void)state;
    char path[256];
    store *s = open_at("ratings", path, sizeof path);
    seen_rating v = {0};
    assert_int_equal(s->ops->rating_get(s, "p:alice", on_rating, &v), 0);
    assert_int_equal(v.n, 0);

    store_rating r1[2] = {
        {.id = "p:alice", .name = "Alice", .mu = 27.5, .sigma = 8, .games = 1, .updated = 100},
        {.id = "c:medium", .name = "medium", .mu = 22.5, .sigma = 8, .games = 1, .updated = 100},
    };
    store_game g = over_game(1, NOV_2026, false, SPREAD);
    g.rated = true;
    assert_int_equal(s->ops->game_end(s, &g, r1, 2), 0);
    store_rating r2[2] = {
        {.id = "p:alice", .name = "Alice", .mu = 26, .sigma = 7, .games = 2, .updated = 200},
        {.id = "c:medium", .name = "medium", .mu = 24, .sigma = 7, .games = 2, .updated = 200},
    };
    g = over_game(2, NOV_2026 + 60, false, SPREAD);
    assert_int_equal(s->ops->game_end(s, &g, r2, 2), 0);

    assert_int_equal(s->ops->rating_get(s, "p:alice", on_rating, &v), 1);
    assert_string_equal(v.text, "p:alice=Alice:26.00:7.00:2:200");
    /* Highest mu - 3 sigma first: medium 3, alice 5. */
    memset(&v, 0, sizeof v);
    assert_int_equal(s->ops->ratings_load(s, on_rating, &v), 0);
    assert_string_equal(v.text, "p:alice=Alice:26.00:7.00:2:200|c:medium=medium:24.00:7.00:2:200");
    memset(&v, 0, sizeof v);
    assert_int_equal(s->ops->rating_history_load(s, "p:alice", on_point, &v), 0);
    char want[128];
    snprintf(want, sizeof want, "1@%d:27.50:8.00|2@%d:26.00:7.00", NOV_2026, NOV_2026 + 60);
    assert_string_equal(v.text, want);
    /* One point by its game, with the one before it (none before the
     * first); a game that gave none. */
    store_rating_point pt, prev;
    assert_int_equal(s->ops->rating_point_get(s, "p:alice", 2, &pt, &prev), 1);
    assert_true(pt.game == 2 && pt.at == NOV_2026 + 60 && pt.mu == 26 && pt.sigma == 7);
    assert_true(prev.game == 1 && prev.mu == 27.5 && prev.sigma == 8);
    assert_int_equal(s->ops->rating_point_get(s, "c:medium", 1, &pt, &prev), 1);
    assert_true(pt.mu == 22.5 && prev.game == 0);
    assert_int_equal(s->ops->rating_point_get(s, "p:alice", 3, &pt, &prev), 0);
    assert_int_equal(s->ops->rating_point_get(s, "p:nobody", 1, &pt, &prev), 0);

    /* A refused game end changes no rating: the transaction is whole. */
    store_rating bad[2] = {
        {.id = "p:alice", .name = "Alice", .mu = 1, .sigma = 1, .games = 3, .updated = 300},
        {.id = "c:medium", .name = "medium", .mu = 1, .sigma = 0, .games = 3, .updated = 300},
    };
    g = over_game(3, NOV_2026 + 120, false, SPREAD);
    assert_int_equal(s->ops->game_end(s, &g, bad, 2), -1);
    assert_int_equal(s->ops->game_status(s, 3), -2);
    memset(&v, 0, sizeof v);
    assert_int_equal(s->ops->rating_get(s, "p:alice", on_rating, &v), 1);
    assert_string_equal(v.text, "p:alice=Alice:26.00:7.00:2:200");
    store_close(s);
}

/* ------------------------------------------------------------ the archive */

static int64_t find(store *s, const store_game_filter *f, int offset, int limit, seen_game *v)
{
    int64_t total = -1;
    memset(v, 0, sizeof *v);
    assert_int_equal(s->ops->games_find(s, f, offset, limit, &total, on_game, v), 0);
    return total;
}

static void test_games_find(void **state)
{
    (void)state;
    char path[256];
    store *s = open_at("find", path, sizeof path);
    /* Games 1..30 started an hour apart from OCT_2026; the odd ones fife,
     * every third a ladder game, 28..30 still running, 27 abandoned. */
    for (int k = 1; k <= 30; k++) {
        int64_t started = OCT_2026 + (int64_t)k * 3600;
        store_game g = running_game(k, started, k % 3 == 0);
        g.preset = k % 2 ? "fife" : "uk";
        if (k == 5)
            four[2].name = "dave";
        assert_int_equal(s->ops->game_begin(s, &g), 0);
        four[2].name = "carol";
        if (k >= 28)
            continue;
        g = over_game(k, started + 600, k % 3 == 0, SPREAD);
        g.started = started;
        g.preset = k % 2 ? "fife" : "uk";
        if (k == 5)
            ended[2].name = "dave";
        if (k == 27)
            g.status = STORE_GAME_ABANDONED;
        assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    }
    seen_game v;
    store_game_filter any = {.status = -1, .ladder = -1};
    assert_int_equal(find(s, &any, 0, 25, &v), 30);
    assert_int_equal(v.n, 25);
    assert_int_equal(v.ids[0], 30); /* newest first */
    assert_int_equal(v.ids[24], 6);
    assert_int_equal(find(s, &any, 25, 25, &v), 30);
    assert_int_equal(v.n, 5);
    assert_int_equal(v.ids[0], 5);
    assert_int_equal(v.ids[4], 1);
    assert_int_equal(find(s, NULL, 50, 25, &v), 30);
    assert_int_equal(v.n, 0);

    store_game_filter f = any;
    f.preset = "fife";
    assert_int_equal(find(s, &f, 0, 25, &v), 15);
    assert_int_equal(v.ids[0], 29);
    f = any;
    f.status = STORE_GAME_RUNNING;
    assert_int_equal(find(s, &f, 0, 25, &v), 3);
    assert_string_equal(v.deals, "[]");
    /* A game's deals are read only when asked for. */
    f.status = STORE_GAME_OVER;
    assert_int_equal(find(s, &f, 0, 1, &v), 26);
    assert_string_equal(v.deals, "[]");
    f.with_deals = true;
    assert_int_equal(find(s, &f, 0, 1, &v), 26);
    assert_string_equal(v.deals, "[{\"deal\":1},{\"deal\":2}]");
    f.status = STORE_GAME_ABANDONED;
    assert_int_equal(find(s, &f, 0, 25, &v), 1);
    assert_int_equal(v.ids[0], 27);
    f = any;
    f.ladder = 1;
    assert_int_equal(find(s, &f, 0, 25, &v), 10);
    f.ladder = 0;
    assert_int_equal(find(s, &f, 0, 25, &v), 20);
    /* Started in [game 10's start, game 20's start). */
    f = any;
    f.from = OCT_2026 + 10 * 3600;
    f.to = OCT_2026 + 20 * 3600;
    assert_int_equal(find(s, &f, 0, 25, &v), 10);
    assert_int_equal(v.ids[0], 19);
    assert_int_equal(v.ids[9], 10);
    /* By a registered player's key, by a guest's name, combined. */
    f = any;
    f.key = "alice";
    assert_int_equal(find(s, &f, 0, 25, &v), 30);
    f.key = "nobody";
    assert_int_equal(find(s, &f, 0, 25, &v), 0);
    f = any;
    f.name = "dave";
    assert_int_equal(find(s, &f, 0, 25, &v), 1);
    assert_int_equal(v.ids[0], 5);
    assert_string_equal(v.names[2], "dave");
    f = any;
    f.key = "bob";
    f.preset = "uk";
    f.ladder = 1;
    f.status = STORE_GAME_OVER;
    assert_int_equal(find(s, &f, 0, 2, &v), 4); /* 6, 12, 18, 24 */
    assert_int_equal(v.n, 2);
    assert_int_equal(v.ids[0], 24);
    assert_int_equal(v.ids[1], 18);
    /* A player who held two seats of a game finds it once. */
    store_game_player twice[5] = {four[0], four[1], four[2], four[3], four[0]};
    twice[4].seat = 3;
    store_game g2 = running_game(31, OCT_2026 + 31 * 3600, false);
    g2.players = twice;
    g2.n_players = 5;
    assert_int_equal(s->ops->game_begin(s, &g2), 0);
    f = any;
    f.key = "alice";
    assert_int_equal(find(s, &f, 0, 2, &v), 31);
    assert_int_equal(v.ids[0], 31);
    assert_int_equal(v.ids[1], 30);
    assert_int_equal(v.g.n_players, 4); /* the last row handed: game 30's */
    f.from = OCT_2026 + 30 * 3600;
    assert_int_equal(find(s, &f, 0, 25, &v), 2);
    f.from = 0;
    f.name = "dave"; /* alice's games where dave sat too */
    assert_int_equal(find(s, &f, 0, 25, &v), 1);
    assert_int_equal(v.ids[0], 5);
    /* Results counted in the database: games 1..26 over (alice first,
     * bob second, the computer player last), 27 abandoned, 28..31 running. */
    store_player_results res;
    f = any;
    f.key = "alice";
    assert_int_equal(s->ops->player_results(s, &f, &res), 0);
    assert_true(res.games == 31 && res.over == 26 && res.abandoned == 1 && res.total == 26 * 30 &&
                res.places[1] == 26 && res.places[2] == 0);
    f.key = "bob";
    f.preset = "uk"; /* the filter applies: 2, 4, ..., 30 and 31; over to 26 */
    assert_int_equal(s->ops->player_results(s, &f, &res), 0);
    assert_true(res.games == 16 && res.over == 13 && res.total == 13 * 10 && res.places[2] == 13);
    f = any;
    f.level = "medium";
    assert_int_equal(s->ops->player_results(s, &f, &res), 0);
    assert_true(res.games == 31 && res.over == 26 && res.total == -26 * 30 && res.places[4] == 26);
    /* Two seats of one game over: both seats' points, the better place. */
    store_game_player twice_over[5];
    store_game g3 = over_game(31, OCT_2026 + 31 * 3600 + 600, false, SPREAD);
    memcpy(twice_over, ended, 4 * sizeof ended[0]);
    twice_over[4] = ended[3];
    twice_over[4].name = "Alice";
    twice_over[4].key = "alice";
    twice_over[4].kind = STORE_PERSON_REGISTERED;
    twice_over[4].level = NULL;
    g3.started = OCT_2026 + 31 * 3600;
    g3.players = twice_over;
    g3.n_players = 5;
    assert_int_equal(s->ops->game_end(s, &g3, NULL, 0), 0);
    f = any;
    f.key = "alice";
    assert_int_equal(s->ops->player_results(s, &f, &res), 0);
    assert_true(res.games == 31 && res.over == 27 && res.total == 26 * 30 + 30 - 30 &&
                res.places[1] == 27 && res.places[4] == 0);
    f.key = "nobody";
    assert_int_equal(s->ops->player_results(s, &f, &res), 0);
    assert_int_equal(res.games, 0);
    assert_int_equal(s->ops->player_results(s, &any, &res), -1); /* names no player */
    /* No total asked, a bad page refused. */
    assert_int_equal(s->ops->games_find(s, &any, 0, 1, NULL, on_game, &v), 0);
    assert_int_equal(s->ops->games_find(s, &any, -1, 1, NULL, on_game, &v), -1);
    store_close(s);
}

/* ------------------------------------------------------------- preferences */

static void test_prefs(void **state)
{
    (void)state;
    char path[256], out[1100];
    store *s = open_at("prefs", path, sizeof path);
    assert_int_equal(s->ops->prefs_get(s, "alice", out, sizeof out), 0);
    assert_int_equal(s->ops->prefs_put(s, "alice", "{\"sound\":true}"), 0);
    assert_int_equal(s->ops->prefs_put(s, "alice", "{\"sound\":false}"), 0);
    assert_int_equal(s->ops->prefs_get(s, "alice", out, sizeof out), 1);
    assert_string_equal(out, "{\"sound\":false}");
    assert_int_equal(s->ops->prefs_get(s, "bob", out, sizeof out), 0);
    char small[4];
    assert_int_equal(s->ops->prefs_get(s, "alice", small, sizeof small), -1);
    char big[1100];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(s->ops->prefs_put(s, "alice", big), -1);
    assert_int_equal(s->ops->prefs_get(s, "alice", out, sizeof out), 1);
    assert_string_equal(out, "{\"sound\":false}");
    store_close(s);
}

/* ------------------------------------------------------------- analyses */

/* An analysis kept comes back as written, by key, seat and level (each a
 * row of its own); a second put replaces it; none kept is 0; bad arguments
 * are refused; it is there after the store is opened again, and a reader
 * reads it but writes none. */
static void test_analyses(void **state)
{
    (void)state;
    char path[256], err[256];
    store *s = open_at("analyses", path, sizeof path);
    char *body = (char *)"x";
    assert_int_equal(s->ops->analysis_get(s, "game:7", 2, "medium", &body), 0);
    assert_null(body);
    assert_int_equal(s->ops->analysis_put(s, "game:7", 2, "medium", "{\"seat\":\"S\"}"), 0);
    assert_int_equal(s->ops->analysis_put(s, "game:7", 0, "medium", "{\"seat\":\"N\"}"), 0);
    assert_int_equal(s->ops->analysis_put(s, "game:7", 2, "hard", "{\"level\":\"hard\"}"), 0);
    assert_int_equal(s->ops->analysis_get(s, "game:7", 2, "medium", &body), 1);
    assert_string_equal(body, "{\"seat\":\"S\"}");
    free(body);
    assert_int_equal(s->ops->analysis_get(s, "game:7", 0, "medium", &body), 1);
    assert_string_equal(body, "{\"seat\":\"N\"}");
    free(body);
    assert_int_equal(s->ops->analysis_get(s, "game:7", 2, "hard", &body), 1);
    assert_string_equal(body, "{\"level\":\"hard\"}");
    free(body);
    assert_int_equal(s->ops->analysis_get(s, "game:8", 2, "medium", &body), 0);
    assert_int_equal(s->ops->analysis_get(s, "game:7", 1, "medium", &body), 0);
    /* Put again: replaced, not doubled. */
    assert_int_equal(s->ops->analysis_put(s, "game:7", 2, "medium", "{\"again\":true}"), 0);
    assert_int_equal(s->ops->analysis_get(s, "game:7", 2, "medium", &body), 1);
    assert_string_equal(body, "{\"again\":true}");
    free(body);
    /* A big body (a long game's) is kept whole. */
    size_t big_len = 300000;
    char *big = malloc(big_len + 1);
    assert_non_null(big);
    for (size_t i = 0; i < big_len; i++)
        big[i] = (char)('a' + i % 26);
    big[big_len] = '\0';
    char key[80];
    snprintf(key, sizeof key, "record:%064d", 0);
    assert_int_equal(s->ops->analysis_put(s, key, 3, "easy", big), 0);
    assert_int_equal(s->ops->analysis_get(s, key, 3, "easy", &body), 1);
    assert_int_equal(strlen(body), big_len);
    assert_memory_equal(body, big, big_len);
    free(body);
    free(big);
    /* Refusals, each with a sentence. */
    assert_int_equal(s->ops->analysis_put(s, "game:7", 4, "medium", "{}"), -1);
    assert_non_null(strstr(store_error(s), "seat"));
    assert_int_equal(s->ops->analysis_put(s, "", 1, "medium", "{}"), -1);
    assert_int_equal(s->ops->analysis_put(s, "game:7", 1, NULL, "{}"), -1);
    assert_int_equal(s->ops->analysis_put(s, "game:7", 1, "medium", NULL), -1);
    assert_int_equal(s->ops->analysis_get(s, "game:7", -1, "medium", &body), -1);
    assert_null(body);
    store_close(s);

    /* Opened again: still there. */
    s = store_open(path, err, sizeof err);
    if (!s)
        fail_msg("open %s again: %s", path, err);
    assert_int_equal(s->ops->analysis_get(s, "game:7", 0, "medium", &body), 1);
    assert_string_equal(body, "{\"seat\":\"N\"}");
    free(body);
    store *r = store_open_reader(path, err, sizeof err);
    if (!r)
        fail_msg("open a reader of %s: %s", path, err);
    assert_int_equal(r->ops->analysis_get(r, "game:7", 2, "medium", &body), 1);
    assert_string_equal(body, "{\"again\":true}");
    free(body);
    assert_int_equal(r->ops->analysis_put(r, "game:9", 0, "medium", "{}"), -1);
    assert_int_equal(s->ops->analysis_get(s, "game:9", 0, "medium", &body), 0);
    store_close(r);
    store_close(s);
}

/* The number a query of one integer answers, asked of the database at
 * path by a connection of its own (SQLite or PostgreSQL, as the store). */
static long long sql_count(const char *path, const char *sql)
{
    long long n = -1;
    if (use_pg) {
        PGconn *c = PQconnectdb(path);
        PGresult *r = PQexec(c, sql);
        if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
            n = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        else
            fail_msg("%s: %s", sql, PQerrorMessage(c));
        PQclear(r);
        PQfinish(c);
        return n;
    }
    sqlite3 *db;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* The uploaded records' analyses held to STORE_ANALYSIS_RECORDS: a put of
 * one past the cap removes the oldest (in the same transaction), the one
 * just put stays even when its key sorts first, and a game's analyses,
 * however old, are never removed.  The table is filled to just below
 * the cap by one statement (a put each would take seconds). */
static void test_analyses_capped(void **state)
{
    (void)state;
    char path[256];
    store *s = open_at("analyses_capped", path, sizeof path);
    char *body = NULL;
    for (int g = 0; g < 3; g++) {
        char key[32];
        snprintf(key, sizeof key, "game:%d", g + 1);
        assert_int_equal(s->ops->analysis_put(s, key, g, "medium", "{\"game\":true}"), 0);
    }
    /* Rows 1 to cap + 9, kept at seconds 1001, 1002, ...: older than
     * anything put now, the games' too, and in the order of their keys. */
    char fill[512];
    snprintf(fill, sizeof fill,
             use_pg ? "WITH n(i) AS (SELECT generate_series(1, %d)) "
                      "INSERT INTO analyses(key, seat, level, body, created) "
                      "SELECT 'record:' || lpad(i::text, 64, '0'), i %% 4, 'easy', '{}', 1000 + i "
                      "FROM n"
                    : "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < "
                      "%d) INSERT INTO analyses(key, seat, level, body, created) "
                      "SELECT 'record:' || printf('%%064d', i), i %% 4, 'easy', '{}', 1000 + i "
                      "FROM n",
             STORE_ANALYSIS_RECORDS + 9);
    if (use_pg) {
        PGconn *c = PQconnectdb(path);
        PGresult *r = PQexec(c, fill);
        if (PQresultStatus(r) != PGRES_COMMAND_OK)
            fail_msg("%s: %s", fill, PQerrorMessage(c));
        PQclear(r);
        PQfinish(c);
    } else {
        sqlite3 *db;
        assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
        if (sqlite3_exec(db, fill, NULL, NULL, NULL) != SQLITE_OK)
            fail_msg("%s: %s", fill, sqlite3_errmsg(db));
        sqlite3_close(db);
    }
    const char *records = "SELECT count(*) FROM analyses WHERE key LIKE 'record:%'";
    assert_int_equal(sql_count(path, records), STORE_ANALYSIS_RECORDS + 9);
    /* One put, its key before all the others: down to the cap, the oldest
     * gone, the new one there. */
    char key[80];
    snprintf(key, sizeof key, "record:%064d", 0);
    assert_int_equal(s->ops->analysis_put(s, key, 1, "hard", "{\"last\":true}"), 0);
    assert_int_equal(sql_count(path, records), STORE_ANALYSIS_RECORDS);
    assert_int_equal(s->ops->analysis_get(s, key, 1, "hard", &body), 1);
    assert_string_equal(body, "{\"last\":true}");
    free(body);
    for (int i = 1; i <= 11; i++) {
        snprintf(key, sizeof key, "record:%064d", i);
        int got = s->ops->analysis_get(s, key, i % 4, "easy", &body);
        free(body);
        body = NULL;
        /* The first ten (1 to 10) went: 9 over, and the new one's room. */
        if (got != (i <= 10 ? 0 : 1))
            fail_msg("record %d: %s", i, got == 1 ? "still kept" : "gone");
    }
    /* Another: the oldest left (11) goes, the cap holds. */
    snprintf(key, sizeof key, "record:%064d", STORE_ANALYSIS_RECORDS + 100);
    assert_int_equal(s->ops->analysis_put(s, key, 0, "easy", "{}"), 0);
    assert_int_equal(sql_count(path, records), STORE_ANALYSIS_RECORDS);
    snprintf(key, sizeof key, "record:%064d", 11);
    assert_int_equal(s->ops->analysis_get(s, key, 11 % 4, "easy", &body), 0);
    /* The games' analyses are all there. */
    assert_int_equal(sql_count(path, "SELECT count(*) FROM analyses WHERE key LIKE 'game:%'"), 3);
    for (int g = 0; g < 3; g++) {
        snprintf(key, sizeof key, "game:%d", g + 1);
        assert_int_equal(s->ops->analysis_get(s, key, g, "medium", &body), 1);
        assert_string_equal(body, "{\"game\":true}");
        free(body);
    }
    store_close(s);
}

/* ------------------------------------------------------ migration, reader */

static int version_of(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* A version 2 file (made here by a version 3 store with the club's tables
 * dropped) gains the club's tables and keeps its rows. */
static void test_migrate_2(void **state)
{
    (void)state;
    char path[128];
    store *s = open_at("v2", path, sizeof path);
    store_table t = {.preset = "uk", .house = "", .seed = 5, .options = "{}"};
    int64_t id;
    assert_int_equal(s->ops->table_create(s, &t, &id), 0);
    store_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db,
                     "DROP TABLE game_players; DROP TABLE game_deals; DROP TABLE games;"
                     "DROP TABLE ladder;"
                     "DROP TABLE rating_history; DROP TABLE ratings; DROP TABLE "
                     "prefs; DROP TABLE analyses; PRAGMA user_version = 2;",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(version_of(path), 2);

    char err[256];
    /* The reader refuses a file of another version and changes nothing. */
    assert_null(store_sqlite_open_reader(path, err, sizeof err));
    assert_non_null(strstr(err, "schema version 2"));
    assert_int_equal(version_of(path), 2);

    s = store_sqlite_open(path, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(version_of(path), 4);
    store_game g = over_game(id, NOV_2026, true, SPREAD);
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);

    /* A reader beside the open store: it reads, and every write fails. */
    store *r = store_sqlite_open_reader(path, err, sizeof err);
    assert_non_null(r);
    assert_int_equal(r->ops->game_status(r, id), STORE_GAME_OVER);
    char got[512];
    ladder_of(r, "2026", got, sizeof got);
    assert_string_equal(got, "alice=Alice:1:30|bob=Bob:1:10");
    assert_int_equal(r->ops->prefs_put(r, "alice", "{}"), -1);
    store_game g2 = running_game(id + 1, NOV_2026, false);
    assert_int_equal(r->ops->game_begin(r, &g2), -1);
    /* The store still writes while the reader is open, and the reader sees it. */
    assert_int_equal(s->ops->game_begin(s, &g2), 0);
    assert_int_equal(r->ops->game_status(r, id + 1), STORE_GAME_RUNNING);
    store_close(r);
    store_close(s);
}

/* A version 3 file (made here by a version 4 store with analyses dropped)
 * gains the table and keeps its rows. */
static void test_migrate_3(void **state)
{
    (void)state;
    char path[128], err[256];
    store *s = open_at("v3", path, sizeof path);
    assert_int_equal(s->ops->prefs_put(s, "alice", "{\"sound\":true}"), 0);
    store_game g = over_game(1, NOV_2026, true, SPREAD);
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    store_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db, "DROP TABLE analyses; PRAGMA user_version = 3;", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(version_of(path), 3);
    /* The reader refuses it and changes nothing. */
    assert_null(store_sqlite_open_reader(path, err, sizeof err));
    assert_non_null(strstr(err, "schema version 3"));
    assert_int_equal(version_of(path), 3);

    s = store_sqlite_open(path, err, sizeof err);
    if (!s)
        fail_msg("open the version 3 file: %s", err);
    assert_int_equal(version_of(path), 4);
    char out[64];
    assert_int_equal(s->ops->prefs_get(s, "alice", out, sizeof out), 1);
    assert_string_equal(out, "{\"sound\":true}");
    assert_int_equal(s->ops->game_status(s, 1), STORE_GAME_OVER);
    char *body = NULL;
    assert_int_equal(s->ops->analysis_get(s, "game:1", 2, "medium", &body), 0);
    assert_int_equal(s->ops->analysis_put(s, "game:1", 2, "medium", "{\"n\":1}"), 0);
    assert_int_equal(s->ops->analysis_get(s, "game:1", 2, "medium", &body), 1);
    assert_string_equal(body, "{\"n\":1}");
    free(body);
    store_close(s);
}

/* A game's player with a bad seat, or players missing, are refused and
 * write nothing. */
static void test_refusals(void **state)
{
    (void)state;
    char path[256];
    store *s = open_at("refusals", path, sizeof path);
    store_game_player bad = four[0];
    bad.seat = 4;
    store_game g = running_game(1, NOV_2026, false);
    g.players = &bad;
    g.n_players = 1;
    assert_int_equal(s->ops->game_begin(s, &g), -1);
    assert_non_null(strstr(store_error(s), "seat from 0 to 3"));
    assert_int_equal(s->ops->game_status(s, 1), -2);
    g.players = NULL;
    assert_int_equal(s->ops->game_begin(s, &g), -1);
    store_close(s);
}

/* ------------------------------------------------------------------- ties */

/* Equal totals in the ladder: fewer games first, then the name, then the
 * key, names compared as bytes ("Bob" before "alice"); places shared by
 * equal totals; ratings of equal mu - 3 sigma by id; points of a rating's
 * history in the same second in the order they were written, and a point
 * written later for an earlier time before them. */
static void test_ties(void **state)
{
    (void)state;
    char path[256], got[512];
    store *s = open_at("ties", path, sizeof path);
    store_game_player tied[4] = {
        {.seat = 0, .name = "Bob", .key = "bob2", .kind = STORE_PERSON_REGISTERED},
        {.seat = 1, .name = "Bob", .key = "bob", .kind = STORE_PERSON_REGISTERED},
        {.seat = 2, .name = "alice", .key = "alice", .kind = STORE_PERSON_REGISTERED},
        {.seat = 3, .name = "Zed", .key = "zed", .kind = STORE_PERSON_REGISTERED},
    };
    const int32_t totals[4] = {10, 10, 10, -30};
    store_game g = over_game(1, NOV_2026, true, totals);
    for (int k = 0; k < 4; k++) {
        tied[k].credited = true;
        tied[k].points = totals[k];
        tied[k].deals = 2;
        tied[k].place = ended[k].place;
    }
    assert_int_equal(tied[0].place, 1);
    assert_int_equal(tied[2].place, 1);
    assert_int_equal(tied[3].place, 4);
    g.players = tied;
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    /* Zed reaches 10 too, but in three games (the others not credited in
     * the two games after the first). */
    const int32_t zed[4] = {0, 0, 0, 20};
    for (int k = 0; k < 2; k++) {
        g = over_game(2 + k, NOV_2026 + 60 * (k + 1), true, zed);
        for (int j = 0; j < 4; j++) {
            tied[j].credited = j == 3;
            tied[j].points = zed[j];
            tied[j].place = ended[j].place;
        }
        g.players = tied;
        assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    }
    ladder_of(s, "2026-11", got, sizeof got);
    assert_string_equal(got, "bob=Bob:1:10|bob2=Bob:1:10|alice=alice:1:10|zed=Zed:3:10");

    /* A place shared: bob first in game 1 beside bob2 and alice; not
     * credited in games 2 and 3, which give him no place and no points. */
    store_player_results res;
    store_game_filter f = {.key = "bob", .status = -1, .ladder = -1};
    assert_int_equal(s->ops->player_results(s, &f, &res), 0);
    assert_true(res.games == 3 && res.over == 3 && res.total == 10 && res.places[1] == 1 &&
                res.places[2] == 0);

    /* Games 4 and 5 end in the same second; game 6 is written last but
     * ended a second before them. */
    store_rating r[2] = {
        {.id = "p:alice", .name = "alice", .mu = 28, .sigma = 6, .games = 1, .updated = 10},
        {.id = "c:medium", .name = "medium", .mu = 28, .sigma = 6, .games = 1, .updated = 10},
    };
    const int64_t at[3] = {NOV_2026 + 600, NOV_2026 + 600, NOV_2026 + 599};
    for (int k = 0; k < 3; k++) {
        g = over_game(4 + k, at[k], false, SPREAD);
        r[0].mu = r[1].mu = 28 - k;
        assert_int_equal(s->ops->game_end(s, &g, r, 2), 0);
    }
    seen_rating v = {0};
    assert_int_equal(s->ops->ratings_load(s, on_rating, &v), 0);
    assert_string_equal(v.text, "c:medium=medium:26.00:6.00:1:10|p:alice=alice:26.00:6.00:1:10");
    memset(&v, 0, sizeof v);
    assert_int_equal(s->ops->rating_history_load(s, "p:alice", on_point, &v), 0);
    char want[128];
    snprintf(want, sizeof want, "6@%d:26.00:6.00|4@%d:28.00:6.00|5@%d:27.00:6.00", NOV_2026 + 599,
             NOV_2026 + 600, NOV_2026 + 600);
    assert_string_equal(v.text, want);
    store_rating_point pt, prev;
    assert_int_equal(s->ops->rating_point_get(s, "p:alice", 5, &pt, &prev), 1);
    assert_true(pt.mu == 27 && prev.game == 4 && prev.mu == 28);
    assert_int_equal(s->ops->rating_point_get(s, "p:alice", 4, &pt, &prev), 1);
    assert_true(prev.game == 6 && prev.at == NOV_2026 + 599);
    assert_int_equal(s->ops->rating_point_get(s, "p:alice", 6, &pt, &prev), 1);
    assert_int_equal(prev.game, 0);
    /* The archive breaks a tie of starts (games 4 and 5) by the newest id,
     * for a player's games too. */
    seen_game sv;
    store_game_filter any = {.status = -1, .ladder = -1};
    assert_int_equal(find(s, &any, 0, 3, &sv), 6);
    assert_true(sv.ids[0] == 5 && sv.ids[1] == 4 && sv.ids[2] == 6);
    any.key = "alice";
    assert_int_equal(find(s, &any, 1, 2, &sv), 6);
    assert_true(sv.n == 2 && sv.ids[0] == 4 && sv.ids[1] == 6);
    store_close(s);
}

/* ------------------------------------------------------------------ reader */

/* A reader beside the open store: it reads, every write through it fails,
 * and it sees what the store writes meanwhile. */
static void test_reader(void **state)
{
    (void)state;
    char path[256], err[256], got[512];
    store *s = open_at("reader", path, sizeof path);
    store_game g = over_game(1, NOV_2026, true, SPREAD);
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    assert_int_equal(s->ops->prefs_put(s, "alice", "{\"a\":1}"), 0);
    store *r = store_open_reader(path, err, sizeof err);
    if (!r)
        fail_msg("open a reader of %s: %s", path, err);
    assert_int_equal(r->ops->game_status(r, 1), STORE_GAME_OVER);
    ladder_of(r, "2026", got, sizeof got);
    assert_string_equal(got, "alice=Alice:1:30|bob=Bob:1:10");
    /* Every read of the club through the reader. */
    seen_ladder lv = {0};
    assert_int_equal(r->ops->ladder_periods(r, on_period, &lv), 0);
    assert_string_equal(lv.text, "2026-11|2026");
    seen_game gv;
    store_game_filter f = {.key = "alice", .status = -1, .ladder = -1, .with_deals = true};
    assert_int_equal(find(r, &f, 0, 10, &gv), 1);
    assert_string_equal(gv.deals, "[{\"deal\":1},{\"deal\":2}]");
    memset(&gv, 0, sizeof gv);
    assert_int_equal(r->ops->game_get(r, 1, on_game, &gv), 1);
    assert_int_equal(gv.g.n_players, 4);
    store_player_results res;
    assert_int_equal(r->ops->player_results(r, &f, &res), 0);
    assert_true(res.games == 1 && res.total == 30);
    seen_rating rv = {0};
    assert_int_equal(r->ops->ratings_load(r, on_rating, &rv), 0);
    assert_int_equal(r->ops->rating_get(r, "p:alice", on_rating, &rv), 0);
    assert_int_equal(r->ops->rating_history_load(r, "p:alice", on_point, &rv), 0);
    store_rating_point pt, prev;
    assert_int_equal(r->ops->rating_point_get(r, "p:alice", 1, &pt, &prev), 0);
    char out[64];
    assert_int_equal(r->ops->prefs_get(r, "alice", out, sizeof out), 1);
    assert_string_equal(out, "{\"a\":1}");
    assert_int_equal(r->ops->prefs_put(r, "alice", "{}"), -1);
    store_game g2 = running_game(2, NOV_2026, false);
    assert_int_equal(r->ops->game_begin(r, &g2), -1);
    store_game o2 = over_game(2, NOV_2026 + 600, true, SPREAD);
    assert_int_equal(r->ops->game_end(r, &o2, NULL, 0), -1);
    assert_int_equal(s->ops->game_status(s, 2), -2);
    assert_int_equal(s->ops->prefs_get(s, "alice", out, sizeof out), 1);
    assert_string_equal(out, "{\"a\":1}");
    assert_int_equal(s->ops->game_begin(s, &g2), 0);
    assert_int_equal(r->ops->game_status(r, 2), STORE_GAME_RUNNING);
    store_close(r);
    store_close(s);
}

/* ---------------------------------------------------- fencing (PostgreSQL) */

static void nap_ms(long ms)
{
    struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Node a holds table 1's lease (300 ms, never renewed) and begins its
 * game; once node b has taken the lease, a's game_end and game_begin are
 * fenced and write nothing (no row, no ladder, no rating), and b's go
 * through. */
static void test_fence(void **state)
{
    (void)state;
    char path[256], err[256], got[512];
    store *a = open_at("fence", path, sizeof path);
    store *b = store_open(path, err, sizeof err);
    if (!b)
        fail_msg("open %s again: %s", path, err);
    assert_int_equal(a->ops->node_join(a, "a", "ws://127.0.0.1:1/ws", 300), 0);
    assert_int_equal(b->ops->node_join(b, "b", "ws://127.0.0.1:2/ws", 60000), 0);
    store_table t = {.preset = "uk", .house = "", .seed = 5, .options = "{}"};
    int64_t id;
    assert_int_equal(a->ops->table_create(a, &t, &id), 0);
    store_game g = running_game(id, NOV_2026, true);
    assert_int_equal(a->ops->game_begin(a, &g), 0);
    /* b holds no lease yet: its writes of the game are fenced. */
    assert_int_equal(b->ops->game_begin(b, &g), STORE_FENCED);

    /* Wait (up to 20 s on a busy machine) for a's lease to run out. */
    int64_t epoch = 0;
    int taken = 0;
    for (int k = 0; k < 400 && taken != 1; k++) {
        taken = b->ops->lease_take(b, id, &epoch);
        assert_int_not_equal(taken, -1);
        if (taken != 1)
            nap_ms(50);
    }
    assert_int_equal(taken, 1);

    store_game o = over_game(id, NOV_2026 + 600, true, SPREAD);
    o.started = NOV_2026;
    store_rating r[1] = {
        {.id = "p:alice", .name = "Alice", .mu = 27, .sigma = 8, .games = 1, .updated = 1},
    };
    assert_int_equal(a->ops->game_end(a, &o, r, 1), STORE_FENCED);
    assert_int_equal(a->ops->game_begin(a, &g), STORE_FENCED);
    assert_int_equal(b->ops->game_status(b, id), STORE_GAME_RUNNING);
    ladder_of(b, "2026", got, sizeof got);
    assert_string_equal(got, "");
    assert_int_equal(b->ops->rating_get(b, "p:alice", NULL, NULL), 0);

    assert_int_equal(b->ops->game_end(b, &o, r, 1), 0);
    assert_int_equal(a->ops->game_status(a, id), STORE_GAME_OVER);
    ladder_of(a, "2026", got, sizeof got);
    assert_string_equal(got, "alice=Alice:1:30|bob=Bob:1:10");
    assert_int_equal(a->ops->rating_get(a, "p:alice", NULL, NULL), 1);
    store_close(a);
    store_close(b);
}

/* A game_end racing a lease taken by another node: the take (an UPDATE of
 * the tables row, as lease_take's, held open in a transaction of a
 * connection of the test's own) is under way when game_end starts, so
 * game_end's FOR SHARE waits for it, then finds the new epoch and writes
 * nothing.  Without the lock the read would see the old epoch (the take
 * not yet committed) and the game would end under a lease already gone. */
typedef struct ending {
    store *s;
    const store_game *g;
    int rc;
} ending;

static void *end_game(void *arg)
{
    ending *e = arg;
    e->rc = e->s->ops->game_end(e->s, e->g, NULL, 0);
    return NULL;
}

static PGresult *must(PGconn *c, const char *sql, ExecStatusType want)
{
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != want)
        fail_msg("%s: %s", sql, PQerrorMessage(c));
    return r;
}

static void test_fence_race(void **state)
{
    (void)state;
    char path[256], got[512];
    store *a = open_at("race", path, sizeof path);
    assert_int_equal(a->ops->node_join(a, "a", "ws://127.0.0.1:1/ws", 60000), 0);
    store_table t = {.preset = "uk", .house = "", .seed = 5, .options = "{}"};
    int64_t id;
    assert_int_equal(a->ops->table_create(a, &t, &id), 0);
    store_game g = running_game(id, NOV_2026, true);
    assert_int_equal(a->ops->game_begin(a, &g), 0);

    PGconn *take = PQconnectdb(path), *watch = PQconnectdb(path);
    assert_int_equal(PQstatus(take), CONNECTION_OK);
    assert_int_equal(PQstatus(watch), CONNECTION_OK);
    PQclear(must(take, "BEGIN", PGRES_COMMAND_OK));
    char sql[160];
    snprintf(sql, sizeof sql,
             "UPDATE tables SET epoch = epoch + 1, owner = 'b' WHERE id = %" PRId64, id);
    PQclear(must(take, sql, PGRES_COMMAND_OK));

    store_game o = over_game(id, NOV_2026 + 600, true, SPREAD);
    o.started = NOV_2026;
    ending e = {.s = a, .g = &o, .rc = 99};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, end_game, &e), 0);
    /* Wait (up to 20 s) until game_end waits for the take's row lock. */
    int waiting = 0;
    for (int k = 0; k < 400 && !waiting; k++) {
        PGresult *r = must(watch,
                           "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                           "current_database() AND wait_event_type = 'Lock'",
                           PGRES_TUPLES_OK);
        waiting = atoi(PQgetvalue(r, 0, 0)) > 0;
        PQclear(r);
        if (!waiting)
            nap_ms(50);
    }
    PQclear(must(take, "COMMIT", PGRES_COMMAND_OK));
    assert_int_equal(pthread_join(thread, NULL), 0);
    assert_true(waiting);
    assert_int_equal(e.rc, STORE_FENCED);
    assert_non_null(strstr(store_error(a), "no longer node a's"));
    assert_int_equal(a->ops->game_status(a, id), STORE_GAME_RUNNING);
    ladder_of(a, "2026", got, sizeof got);
    assert_string_equal(got, "");
    PQfinish(take);
    PQfinish(watch);
    store_close(a);
}

/* A game end that PostgreSQL itself refuses at its last statement (a
 * rating's name that is no UTF-8, which SQLite would keep) leaves nothing
 * of the rows written before it in the transaction: the game still
 * running, no ladder row, no rating. */
static void test_pg_whole(void **state)
{
    (void)state;
    char path[256], got[512];
    store *s = open_at("whole", path, sizeof path);
    store_game g = running_game(1, NOV_2026, true);
    assert_int_equal(s->ops->game_begin(s, &g), 0);
    store_game o = over_game(1, NOV_2026 + 600, true, SPREAD);
    o.started = NOV_2026;
    store_rating r[2] = {
        {.id = "p:alice", .name = "Alice", .mu = 27, .sigma = 8, .games = 1, .updated = 1},
        {.id = "p:bob", .name = "B\xff", .mu = 26, .sigma = 8, .games = 1, .updated = 1},
    };
    assert_int_equal(s->ops->game_end(s, &o, r, 2), -1);
    assert_non_null(strstr(store_error(s), "UTF8"));
    assert_int_equal(s->ops->game_status(s, 1), STORE_GAME_RUNNING);
    ladder_of(s, "2026", got, sizeof got);
    assert_string_equal(got, "");
    assert_int_equal(s->ops->rating_get(s, "p:alice", NULL, NULL), 0);
    seen_game v = {0};
    assert_int_equal(s->ops->game_get(s, 1, on_game, &v), 1);
    assert_string_equal(v.deals, "[]");
    assert_int_equal(v.p[0].points, 0);
    /* The connection is usable after the rollback, and the game ends. */
    r[1].name = "Bob";
    assert_int_equal(s->ops->game_end(s, &o, r, 2), 0);
    ladder_of(s, "2026", got, sizeof got);
    assert_string_equal(got, "alice=Alice:1:30|bob=Bob:1:10");
    store_close(s);
}

/* A PostgreSQL database of version 2 (made by this store at that version)
 * is brought to version 3: its rows kept, the analyses' table added. */
static void test_pg_migrate_2(void **state)
{
    (void)state;
    char *url = pg_test_db("club_v2");
    if (!url)
        fail_msg("no PostgreSQL database club_v2 (is BARBU_TEST_PG set?)");
    char err[256] = "";
    store *s = store_pg_open_version(url, 2, err, sizeof err);
    if (!s)
        fail_msg("version 2: %s", err);
    assert_int_equal(s->ops->prefs_put(s, "alice", "{\"sound\":true}"), 0);
    store_game g = over_game(1, NOV_2026, true, SPREAD);
    assert_int_equal(s->ops->game_end(s, &g, NULL, 0), 0);
    store_close(s);
    PGconn *c = PQconnectdb(url);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *r = must(c,
                       "SELECT (SELECT value FROM barbu_meta WHERE key = 'schema_version'), "
                       "(SELECT count(*) FROM pg_tables WHERE tablename = 'analyses')",
                       PGRES_TUPLES_OK);
    assert_string_equal(PQgetvalue(r, 0, 0), "2");
    assert_string_equal(PQgetvalue(r, 0, 1), "0");
    PQclear(r);
    /* A reader refuses a database of another version. */
    assert_null(store_pg_open_reader(url, err, sizeof err));
    assert_non_null(strstr(err, "schema version 2"));

    s = store_pg_open(url, err, sizeof err);
    if (!s)
        fail_msg("open the version 2 database: %s", err);
    r = must(c,
             "SELECT (SELECT value FROM barbu_meta WHERE key = 'schema_version'), "
             "(SELECT count(*) FROM pg_tables WHERE tablename = 'analyses')",
             PGRES_TUPLES_OK);
    assert_string_equal(PQgetvalue(r, 0, 0), "3");
    assert_string_equal(PQgetvalue(r, 0, 1), "1");
    PQclear(r);
    PQfinish(c);
    char out[64];
    assert_int_equal(s->ops->prefs_get(s, "alice", out, sizeof out), 1);
    assert_string_equal(out, "{\"sound\":true}");
    assert_int_equal(s->ops->game_status(s, 1), STORE_GAME_OVER);
    char *body = NULL;
    assert_int_equal(s->ops->analysis_put(s, "game:1", 2, "medium", "{\"n\":1}"), 0);
    assert_int_equal(s->ops->analysis_get(s, "game:1", 2, "medium", &body), 1);
    assert_string_equal(body, "{\"n\":1}");
    free(body);
    store_close(s);
    free(url);
}

int main(int argc, char **argv)
{
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--pg") == 0) {
            use_pg = true;
        } else {
            fprintf(stderr, "usage: test_store_club [--pg]\n");
            return 2;
        }
    }
    const struct CMUnitTest both[] = {
        cmocka_unit_test(test_game_begin_end), cmocka_unit_test(test_ladder),
        cmocka_unit_test(test_ratings),        cmocka_unit_test(test_games_find),
        cmocka_unit_test(test_prefs),          cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_ties),           cmocka_unit_test(test_reader),
        cmocka_unit_test(test_analyses),       cmocka_unit_test(test_analyses_capped),
    };
    const struct CMUnitTest sqlite_only[] = {
        cmocka_unit_test(test_migrate_2),
        cmocka_unit_test(test_migrate_3),
    };
    const struct CMUnitTest pg_only[] = {
        cmocka_unit_test(test_fence),
        cmocka_unit_test(test_fence_race),
        cmocka_unit_test(test_pg_whole),
        cmocka_unit_test(test_pg_migrate_2),
    };
    if (use_pg) {
        if (!pg_test_available()) {
            fprintf(stderr, "test_store_club --pg: BARBU_TEST_PG is not set "
                            "(tests/pg/cluster.sh start DIR prints it)\n");
            return 1;
        }
        return cmocka_run_group_tests_name("postgresql", both, NULL, NULL) |
               cmocka_run_group_tests_name("postgresql only", pg_only, NULL, NULL);
    }
    return cmocka_run_group_tests_name("sqlite", both, make_dir, remove_dir) |
           cmocka_run_group_tests_name("sqlite only", sqlite_only, make_dir, remove_dir);
}
