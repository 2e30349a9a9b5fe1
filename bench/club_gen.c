/*
 * club_gen.c - a club's history made up, for bench/club.sh: GAMES games
 * (100,000) among PLAYERS registered players (1,000), about a third of
 * them ladder games, spread over two years up to now, written straight
 * through the store's API (account_create, game_begin, game_end) into a
 * database, with the ratings updated game by game as the server does
 * (src/club's Weng and Lin), the ladder kept by game_end.
 *
 * DB is a SQLite file or a PostgreSQL database's URL (postgresql://...,
 * through store_open): the same history either way.  A database that has
 * a history already (its game 1) is left as it is: game_end would refuse
 * to end its games again.
 *
 * Each game is one transaction of the store's (game_end's own); the store
 * offers no wider one, so the time is what 100,000 small commits take (WAL
 * commits in SQLite, a few round trips and a commit each in PostgreSQL).
 * The program says how long it took.
 *
 * usage: bench_club_gen DB [--games N] [--players N] [--seed S]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "club.h"
#include "store.h"

/* The key of a handle (src/server/handle.c), as the server looks it up. */
void srv_handle_key(const char *utf8, char key[512]);

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int below(int n)
{
    return (int)(rnd() % (uint64_t)n);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *const LEVELS[] = {"easy", "medium", "hard", "random"};
static const char *const PRESETS[] = {"uk", "uk", "uk", "classic", "quick", "fife", "chinese"};
static const char SEATS[] = "NESW";

typedef struct person {
    char name[32], key[512], id[520];
    club_rating r;
    int games;
} person;

int main(int argc, char **argv)
{
    const char *path = NULL;
    int n_games = 100000, n_players = 1000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--games") == 0 && i + 1 < argc)
            n_games = atoi(argv[++i]);
        else if (strcmp(argv[i], "--players") == 0 && i + 1 < argc)
            n_players = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            rng_state = strtoull(argv[++i], NULL, 10);
        else if (argv[i][0] != '-' && path == NULL)
            path = argv[i];
        else {
            fprintf(stderr, "usage: bench_club_gen DB [--games N] [--players N] [--seed S]\n");
            return 2;
        }
    }
    if (path == NULL || n_games < 1 || n_players < 4) {
        fprintf(stderr, "usage: bench_club_gen DB [--games N] [--players N] [--seed S]\n");
        return 2;
    }
    char err[300];
    store *db = store_open(path, err, sizeof err);
    if (db == NULL) {
        fprintf(stderr, "bench_club_gen: %s\n", err);
        return 1;
    }
    int there = db->ops->game_status(db, 1);
    if (there == -1) {
        fprintf(stderr, "bench_club_gen: %s\n", store_error(db));
        store_close(db);
        return 1;
    }
    if (there >= 0) {
        /* A URL may carry a password: it is not repeated. */
        printf("bench_club_gen: %s has a history already (game 1 is there): kept as it is\n",
               store_is_pg(path) ? "the database" : path);
        store_close(db);
        return 0;
    }
    double t0 = now_s();
    int64_t end = (int64_t)time(NULL) - 3600, span = 2 * 365 * 86400LL, start = end - span;

    person *people = calloc((size_t)n_players + 4, sizeof *people);
    if (people == NULL)
        return 1;
    for (int i = 0; i < n_players; i++) {
        person *p = &people[i];
        snprintf(p->name, sizeof p->name, "Player%04d", i + 1);
        srv_handle_key(p->name, p->key);
        snprintf(p->id, sizeof p->id, "p:%s", p->key);
        p->r = club_prior();
        /* A made-up hash: nobody signs in to this database. */
        if (db->ops->account_create(db, p->key, p->name, "$argon2id$bench") < 0) {
            fprintf(stderr, "bench_club_gen: %s\n", store_error(db));
            return 1;
        }
    }
    person levels[4];
    for (int l = 0; l < 4; l++) {
        memset(&levels[l], 0, sizeof levels[l]);
        snprintf(levels[l].name, sizeof levels[l].name, "%s", LEVELS[l]);
        snprintf(levels[l].id, sizeof levels[l].id, "c:%s", LEVELS[l]);
        levels[l].r = club_prior();
    }

    static char deals[4096];
    long ladder = 0, rated = 0, abandoned = 0;
    for (int gi = 0; gi < n_games; gi++) {
        int64_t started = start + (span * gi) / n_games + below(600);
        bool is_ladder = below(3) == 0;
        bool is_rated = is_ladder || below(4) == 0;
        bool is_abandoned = below(30) == 0;
        store_game_player players[4];
        person *who[4] = {NULL, NULL, NULL, NULL};
        char guest[4][32];
        int32_t totals[4] = {0, 0, 0, 0};
        int n_deals = is_abandoned ? below(6) : 6;
        /* Points: a few deals' worth, summing to 0 as most of barbu's do. */
        size_t used = (size_t)snprintf(deals, sizeof deals, "[");
        for (int d = 0; d < n_deals; d++) {
            int32_t s[4];
            int32_t rest = 0;
            for (int k = 0; k < 3; k++) {
                s[k] = (int32_t)(below(9) - 4) * 5;
                rest += s[k];
            }
            s[3] = -rest;
            for (int k = 0; k < 4; k++)
                totals[k] += s[k];
            used += (size_t)snprintf(deals + used, sizeof deals - used,
                                     "%s{\"deal\":%d,\"dealer\":\"%c\",\"contract\":\"barbu\","
                                     "\"score\":[%d,%d,%d,%d]}",
                                     d ? "," : "", d, SEATS[d & 3], s[0], s[1], s[2], s[3]);
        }
        snprintf(deals + used, sizeof deals - used, "]");
        int places[4];
        club_places(totals, places);
        for (int k = 0; k < 4; k++) {
            store_game_player *p = &players[k];
            memset(p, 0, sizeof *p);
            p->seat = k;
            p->credited = true;
            p->points = totals[k];
            p->deals = n_deals;
            p->place = is_abandoned ? 0 : places[k];
            int kind = is_ladder ? 0 : below(10);
            if (is_rated && kind >= 7)
                kind = 8; /* a computer player in a rated game */
            if (kind < 7) {
                /* A registered player not already at the table. */
                person *q;
                bool again;
                do {
                    q = &people[below(n_players)];
                    again = false;
                    for (int j = 0; j < k; j++)
                        again = again || who[j] == q;
                } while (again);
                who[k] = q;
                p->name = q->name;
                p->key = q->key;
                p->kind = STORE_PERSON_REGISTERED;
            } else if (kind < 9 || is_rated) {
                person *q = &levels[below(4)];
                who[k] = q;
                p->name = q->name;
                p->kind = STORE_PERSON_COMPUTER;
                p->level = q->name;
            } else {
                snprintf(guest[k], sizeof guest[k], "guest%d", below(5000));
                p->name = guest[k];
                p->kind = STORE_PERSON_GUEST;
            }
        }
        store_game g = {
            .id = gi + 1,
            .preset = is_ladder ? "uk" : PRESETS[below(7)],
            .ladder = is_ladder,
            .rated = is_rated,
            .credit = STORE_CREDIT_RECORD,
            .status = STORE_GAME_RUNNING,
            .started = started,
            .deals = "[]",
            .n_players = 4,
            .players = players,
        };
        /* game_end writes the row whole: no game_begin, one commit a game. */
        g.status = is_abandoned ? STORE_GAME_ABANDONED : STORE_GAME_OVER;
        g.finished = started + 1200 + below(2400);
        g.n_deals = n_deals;
        memcpy(g.totals, totals, sizeof totals);
        g.deals = deals;
        store_rating ratings[4];
        int n_ratings = 0;
        if (is_rated && !is_abandoned) {
            /* Every seat is one participant; a level at several seats is
             * rated once per seat, from its rating before the game. */
            club_rating r[4];
            for (int k = 0; k < 4; k++)
                r[k] = who[k]->r;
            if (club_rate(r, places, 4) == 0) {
                for (int k = 0; k < 4; k++) {
                    person *q = who[k];
                    bool twice = false;
                    for (int j = 0; j < k; j++)
                        twice = twice || who[j] == q;
                    q->r = r[k];
                    q->games++;
                    if (twice)
                        continue;
                    ratings[n_ratings++] =
                        (store_rating){q->id, q->name, q->r.mu, q->r.sigma, q->games, g.finished};
                }
            }
            rated++;
        }
        if (db->ops->game_end(db, &g, ratings, n_ratings) != 0) {
            fprintf(stderr, "bench_club_gen: game %d: %s\n", gi + 1, store_error(db));
            return 1;
        }
        ladder += is_ladder;
        abandoned += is_abandoned;
        if ((gi + 1) % 10000 == 0) {
            fprintf(stderr, "bench_club_gen: %d games, %.1f s\n", gi + 1, now_s() - t0);
        }
    }
    store_close(db);
    printf("bench_club_gen: %d games (%ld ladder, %ld rated, %ld abandoned) among %d players "
           "in %.1f s\n",
           n_games, ladder, rated, abandoned, n_players, now_s() - t0);
    free(people);
    return 0;
}
