/*
 * bot_match.c - measures computer players against each other: whole games
 * of a preset with a lineup of bot kinds, the lineup rotated round the
 * table so that each kind sits in every seat on the same seeds; the mean
 * game total of each kind (with its standard error), and the time each
 * kind takes per decision, by phase.
 *
 * Not part of the CMake build.  From the repository root, after building
 * into /tmp/build-ai:
 *
 *   cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude bench/bot_match.c \
 *      /tmp/build-ai/libbarbu_ai.a /tmp/build-ai/libbarbu_engine.a -lm -o /tmp/bot_match
 *   /tmp/bot_match --rules fife --bots heuristic,random,random,random --games 2000
 *
 * Each seed is played four times, the lineup turned one seat each time, so
 * --games should be a multiple of 4.  With --calls MASK (the Fife game) a
 * "game" is one deal of those Calls (a bit per contract) from the seed's
 * first deal, seat 0 the Caller, and with --silly played as in the Silly
 * Round (Patience groups at any time): a closer look at one part of play.
 * --part player counts the Player Rounds only (the game stops at the Silly
 * Round); --part silly counts the Silly Round only (the Player Rounds are
 * played with the first legal action).
 *
 * A kind named "base" is a second build of the bots (say, before a change),
 * its library's symbols renamed with a base_ prefix and the program
 * compiled with -DBARBU_BASELINE:
 *
 *   nm -g --defined-only OLD/libbarbu_ai.a | awk 'NF==3 {print $3" base_"$3}' \
 *      | sort -u > /tmp/base.syms
 *   objcopy --redefine-syms=/tmp/base.syms OLD/libbarbu_ai.a /tmp/libbase_ai.a
 *   cc ... -DBARBU_BASELINE bench/bot_match.c /tmp/build-ai/libbarbu_ai.a \
 *      /tmp/libbase_ai.a /tmp/build-ai/libbarbu_engine.a -lm -o /tmp/bot_match
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "barbu/ai.h"

#ifdef BARBU_BASELINE
barbu_bot *base_barbu_bot_new(const char *kind, uint64_t seed);
void base_barbu_bot_free(barbu_bot *bot);
int base_barbu_bot_choose(barbu_bot *bot, const barbu_view *view, barbu_action *out);
#endif

#define PHASES 7

typedef struct kind_stats {
    char name[16];
    int games;
    double sum, sum2;
    double phase_time[PHASES], phase_max[PHASES];
    long phase_n[PHASES];
    long phase_slow[PHASES]; /* decisions over 50 ms */
} kind_stats;

typedef struct player {
    barbu_bot *bot;
    int base; /* the baseline build */
} player;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int make_player(const char *kind, uint64_t seed, player *p)
{
    p->base = strcmp(kind, "base") == 0;
#ifdef BARBU_BASELINE
    if (p->base) {
        p->bot = base_barbu_bot_new("heuristic", seed);
        return p->bot ? 0 : -1;
    }
#else
    if (p->base)
        return -1;
#endif
    p->bot = barbu_bot_new(kind, seed);
    return p->bot ? 0 : -1;
}

static void free_player(player *p)
{
#ifdef BARBU_BASELINE
    if (p->base) {
        base_barbu_bot_free(p->bot);
        return;
    }
#endif
    barbu_bot_free(p->bot);
}

static int choose(player *p, const barbu_view *v, barbu_action *a)
{
#ifdef BARBU_BASELINE
    if (p->base)
        return base_barbu_bot_choose(p->bot, v, a);
#endif
    return barbu_bot_choose(p->bot, v, a);
}

static const char *const PHASE_NAMES[PHASES] = {"cut",     "declare", "pass-on", "bid",
                                                "arrange", "play",    "over"};

/* One game; each seat's kind index in kind_of[], its total into totals[]. */
static int play_game(const barbu_rules *rules, uint64_t seed, char names[4][16],
                     const int kind_of[4], kind_stats *stats, int32_t totals[4], unsigned calls,
                     int silly, int part)
{
    barbu_state s;
    if (barbu_init(&s, rules, seed) != 0)
        return -1;
    if (calls) {
        barbu_action a = barbu_act(BARBU_ACT_DECLARE, s.t.to_move);
        a.contracts = (uint16_t)calls;
        if (barbu_set_first(&s, 0) != 0 || (a.seat = 0, barbu_apply(&s, &a)) != 0)
            return -1;
        if (silly)
            s.t.round = BARBU_SILLY_ROUND;
        barbu_truncate(&s);
    }
    player players[4];
    for (int i = 0; i < 4; i++)
        if (make_player(names[i], seed * 4 + (uint64_t)i, &players[i]) != 0)
            return -1;
    int err = 0;
    int32_t before[4] = {0};
    if (part == 2) {
        /* The Player Rounds, quickly: they do not count. */
        while (err == 0 && s.t.round < BARBU_SILLY_ROUND) {
            barbu_action a;
            err = barbu_legal(&s, &a, 1) > 0 ? barbu_apply(&s, &a) : -1;
        }
        memcpy(before, s.t.total, sizeof before);
    }
    while (!barbu_over(&s) && err == 0) {
        if (part == 1 && s.t.round == BARBU_SILLY_ROUND)
            break;
        int seat = barbu_to_move(&s);
        barbu_view v;
        barbu_view_of(&s, seat, &v);
        barbu_action a;
        int phase = s.t.phase;
        double t0 = now();
        err = choose(&players[seat], &v, &a);
        double dt = now() - t0;
        kind_stats *k = &stats[kind_of[seat]];
        k->phase_time[phase] += dt;
        k->phase_n[phase]++;
        if (dt > k->phase_max[phase])
            k->phase_max[phase] = dt;
        k->phase_slow[phase] += dt > 0.05;
        if (err == 0)
            err = barbu_apply(&s, &a);
        if (err != 0) {
            fprintf(stderr, "seed %llu: %s: %s\n", (unsigned long long)seed, names[seat],
                    barbu_strerror(err));
            break;
        }
    }
    for (int i = 0; i < 4; i++) {
        totals[i] = s.t.total[i] - before[i];
        free_player(&players[i]);
    }
    return err;
}

int main(int argc, char **argv)
{
    const char *preset = "fife", *bots = "heuristic,random,random,random";
    long games = 400;
    uint64_t seed = 1;
    unsigned calls = 0;
    int silly = 0, part = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rules") == 0 && i + 1 < argc)
            preset = argv[++i];
        else if (strcmp(argv[i], "--bots") == 0 && i + 1 < argc)
            bots = argv[++i];
        else if (strcmp(argv[i], "--games") == 0 && i + 1 < argc)
            games = atol(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc)
            calls = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--silly") == 0)
            silly = 1;
        else if (strcmp(argv[i], "--part") == 0 && i + 1 < argc)
            part = strcmp(argv[++i], "player") == 0 ? 1 : strcmp(argv[i], "silly") == 0 ? 2 : 0;
        else {
            fprintf(stderr, "usage: bot_match [--rules PRESET] [--bots K,K,K,K] [--games N] "
                            "[--seed S] [--calls MASK [--silly]] [--part player|silly]\n");
            return 2;
        }
    }
    barbu_rules rules;
    if (barbu_rules_preset(&rules, preset) != 0) {
        fprintf(stderr, "bot_match: no preset %s\n", preset);
        return 2;
    }
    char lineup[4][16];
    char buf[128];
    snprintf(buf, sizeof buf, "%s", bots);
    int n = 0;
    for (char *tok = strtok(buf, ","); tok && n < 4; tok = strtok(NULL, ","))
        snprintf(lineup[n++], 16, "%.15s", tok);
    if (n != 4) {
        fprintf(stderr, "bot_match: --bots needs four kinds\n");
        return 2;
    }
    kind_stats stats[4];
    int n_kinds = 0, kind_idx[4];
    memset(stats, 0, sizeof stats);
    for (int i = 0; i < 4; i++) {
        int k = 0;
        while (k < n_kinds && strcmp(stats[k].name, lineup[i]) != 0)
            k++;
        if (k == n_kinds)
            memcpy(stats[n_kinds++].name, lineup[i], 16);
        kind_idx[i] = k;
    }
    double t0 = now();
    for (long g = 0; g < games; g++) {
        /* The lineup turned g % 4 seats, on seed + g / 4. */
        int rot = (int)(g % 4);
        char names[4][16];
        int kind_of[4];
        for (int seat = 0; seat < 4; seat++) {
            memcpy(names[seat], lineup[(seat + rot) & 3], 16);
            kind_of[seat] = kind_idx[(seat + rot) & 3];
        }
        int32_t totals[4];
        if (play_game(&rules, seed + (uint64_t)(g / 4), names, kind_of, stats, totals, calls, silly,
                      part) != 0)
            return 1;
        /* A kind's result in a game is the mean of its seats, so that
         * kinds with several seats count each game once. */
        double per_kind[4] = {0};
        int seats_of[4] = {0};
        for (int seat = 0; seat < 4; seat++) {
            per_kind[kind_of[seat]] += totals[seat];
            seats_of[kind_of[seat]]++;
        }
        for (int k = 0; k < n_kinds; k++) {
            double x = per_kind[k] / seats_of[k];
            stats[k].sum += x;
            stats[k].sum2 += x * x;
            stats[k].games++;
        }
    }
    printf("%s, %ld games (lineup %s, rotated), %.1f s\n", preset, games, bots, now() - t0);
    for (int k = 0; k < n_kinds; k++) {
        kind_stats *st = &stats[k];
        double mean = st->sum / st->games;
        double var = st->sum2 / st->games - mean * mean;
        double se = st->games > 1 ? sqrt(var / (st->games - 1)) : 0.0;
        printf("  %-10s mean points per game %8.1f  (+- %.1f)\n", st->name, mean, se);
        for (int p = 0; p < PHASES; p++)
            if (st->phase_n[p] > 0)
                printf("      %-8s %8ld decisions  mean %8.3f ms  max %8.3f ms  over 50 ms %ld\n",
                       PHASE_NAMES[p], st->phase_n[p], 1e3 * st->phase_time[p] / st->phase_n[p],
                       1e3 * st->phase_max[p], st->phase_slow[p]);
    }
    return 0;
}
