/*
 * bench.c - how fast the engine is, and a signature of how it behaves.
 *
 * The figures are for one thread; pin it (taskset -c 0) for a per-core
 * figure.  The signature hashes every action and score of fixed seeded
 * games, so it changes only when the behaviour of the engine or the bots
 * does.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#define BENCH_DEALS 16

static void usage(FILE *out)
{
    fprintf(out,
            "usage: barbu bench [--json] [--seconds T] [--rules R]\n\n"
            "Measures the engine on this machine, on one thread:\n"
            "  - random playouts per second for each contract, from %d fixed deals\n"
            "    (the contract declared and doubled, then random legal cards to the end;\n"
            "    for Chinese Poker, hands whose valid settings of rows are all listed);\n"
            "  - complete random games per second, and games of the heuristic players;\n"
            "  - a signature of fixed seeded games, which changes only when behaviour does.\n"
            "Pin it to one core for a per-core figure: taskset -c 0 barbu bench\n\n"
            "  --json       the figures as one JSON object\n"
            "  --seconds T  time per measurement (default 1)\n"
            "  --rules R    a preset or rules file (default uk)\n",
            BENCH_DEALS);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A deal of the contract, declared and doubled so it is played, ready for
 * its first card. */
static int setup_deal(const barbu_rules *rules, int contract, int i, barbu_state *s)
{
    if (barbu_init(s, rules, UINT64_C(20261121) + (uint64_t)i) != 0)
        return -1;
    const barbu_contract *c = &rules->contract[contract];
    /* The Fife game plays its second Patience as the first (a Single
     * Patience fills the first column). */
    if (rules->game == BARBU_GAME_FIFE && contract == BARBU_CALL_PAT2)
        contract = BARBU_CALL_PAT1;
    barbu_action a =
        barbu_act_declare(s->t.to_move, contract, c->kind == BARBU_KIND_TRUMPS ? i % 4 : -1,
                          c->kind == BARBU_KIND_DOMINO ? rules->deck_low + i % 8 : 0);
    if (barbu_apply(s, &a) != 0)
        return -1;
    while (s->t.phase == BARBU_PHASE_BID) {
        int seat = s->t.to_move;
        a = barbu_act_bid(seat, seat == s->t.declarer ? 0 : 1u << s->t.declarer, 0);
        if (barbu_apply(s, &a) != 0)
            return -1;
    }
    barbu_truncate(s);
    return s->t.phase == BARBU_PHASE_PLAY || s->t.phase == BARBU_PHASE_ARRANGE ? 0 : -1;
}

/* Chinese Poker has no cards to play out: what costs time there is listing
 * the valid settings of a hand (some 70,000 splits checked), so that is what
 * it measures, in hands a second. */
static double settings_per_second(barbu_state *start, double seconds, int64_t *checksum)
{
    long n = 0;
    double t0 = now(), t;
    do {
        *checksum += barbu_legal(&start[n % BENCH_DEALS], NULL, 0);
        n++;
        t = now() - t0;
    } while (t < seconds);
    return n / t;
}

static double playouts_per_second(const barbu_rules *rules, int contract, double seconds,
                                  int64_t *checksum)
{
    barbu_state start[BENCH_DEALS];
    for (int i = 0; i < BENCH_DEALS; i++)
        if (setup_deal(rules, contract, i, &start[i]) != 0)
            return -1;
    if (start[0].t.phase == BARBU_PHASE_ARRANGE)
        return settings_per_second(start, seconds, checksum);
    barbu_rng rng;
    barbu_rng_seed(&rng, 7);
    long n = 0;
    double t0 = now(), t;
    do {
        for (int k = 0; k < 1024; k++) {
            barbu_state s = start[n % BENCH_DEALS];
            barbu_playout_random(&s, &rng);
            *checksum += s.t.last.raw[0];
            n++;
        }
        t = now() - t0;
    } while (t < seconds);
    return n / t;
}

/* FNV-1a over the bytes that describe behaviour. */
static uint64_t mix(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

static uint64_t mix_action(uint64_t h, const barbu_action *a)
{
    unsigned char b[8] = {a->type,
                          (unsigned char)a->seat,
                          (unsigned char)a->contracts,
                          (unsigned char)a->trump,
                          (unsigned char)a->rank,
                          a->doubles,
                          a->redoubles,
                          0};
    h = mix(h, b, sizeof b);
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(a->cards >> (8 * i));
    return mix(h, b, sizeof b);
}

/* Plays one game with four bots of a kind (NULL: uniformly random legal
 * actions straight from the engine); returns nonzero on failure. */
static int play_game(const barbu_rules *rules, uint64_t seed, const char *kind, uint64_t *hash)
{
    barbu_state s;
    if (barbu_init(&s, rules, seed) != 0)
        return 1;
    barbu_bot *bots[4] = {0};
    for (int i = 0; kind && i < 4; i++)
        if ((bots[i] = barbu_bot_new(kind, seed * 4 + (uint64_t)i)) == NULL)
            return 1;
    barbu_rng rng;
    barbu_rng_seed(&rng, seed);
    int status = 0;
    while (!barbu_over(&s)) {
        barbu_action a;
        if (kind) {
            barbu_view v;
            barbu_view_of(&s, s.t.to_move, &v);
            status = barbu_bot_choose(bots[s.t.to_move], &v, &a);
        } else {
            barbu_action legal[BARBU_MAX_ACTIONS];
            int n = barbu_legal(&s, legal, BARBU_MAX_ACTIONS);
            a = legal[barbu_rng_below(&rng,
                                      (uint32_t)(n < BARBU_MAX_ACTIONS ? n : BARBU_MAX_ACTIONS))];
        }
        int deal = s.t.deal;
        if (status != 0 || (status = barbu_apply(&s, &a)) != 0)
            break;
        if (hash) {
            *hash = mix_action(*hash, &a);
            if (s.t.deal != deal)
                *hash = mix(*hash, s.t.last.score, sizeof s.t.last.score);
        }
    }
    for (int i = 0; i < 4; i++)
        barbu_bot_free(bots[i]);
    return status != 0;
}

static double games_per_second(const barbu_rules *rules, const char *kind, double seconds)
{
    long n = 0;
    double t0 = now(), t;
    do {
        if (play_game(rules, (uint64_t)n + 1, kind, NULL) != 0)
            return -1;
        n++;
        t = now() - t0;
    } while (t < seconds);
    return n / t;
}

int cmd_bench(int argc, char **argv)
{
    bool json = false;
    double seconds = 1.0;
    const char *rules_arg = "uk";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            char *end;
            seconds = strtod(argv[++i], &end);
            if (*end || !(seconds > 0 && seconds <= 3600)) {
                fprintf(stderr, "barbu bench: --seconds takes a time in seconds, not '%s'\n",
                        argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--rules") == 0 && i + 1 < argc) {
            rules_arg = argv[++i];
        } else {
            fprintf(stderr, "barbu bench: unknown option '%s'\n\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    barbu_rules rules;
    if (cli_load_rules(rules_arg, &rules) != 0)
        return 1;

    /* The signature first: it does not depend on the clock. */
    uint64_t signature = UINT64_C(0xcbf29ce484222325);
    for (uint64_t g = 1; g <= 4; g++) {
        if (play_game(&rules, g, NULL, &signature) != 0 ||
            play_game(&rules, g, "heuristic", &signature) != 0) {
            fprintf(stderr, "barbu bench: a signature game failed\n");
            return 1;
        }
    }

    if (!json)
        printf("barbu bench: one thread, %.1f s a figure, rules %s\n\n"
               "random playouts per second, from %d fixed deals:\n",
               seconds, rules.preset, BENCH_DEALS);
    double pps[BARBU_MAX_CONTRACTS];
    int64_t checksum = 0;
    for (int c = 0; c < rules.n_contracts; c++) {
        pps[c] = playouts_per_second(&rules, c, seconds, &checksum);
        if (pps[c] < 0) {
            fprintf(stderr, "barbu bench: cannot set up %s\n", rules.contract[c].name);
            return 1;
        }
        if (!json)
            printf("  %-14s %10.0f%s\n", rules.contract[c].name, pps[c],
                   rules.contract[c].kind == BARBU_KIND_CHINESE
                       ? "  (hands whose valid rows are listed)"
                       : "");
    }
    double random_games = games_per_second(&rules, NULL, seconds);
    double bot_games = games_per_second(&rules, "heuristic", seconds);
    int deals = barbu_rules_deals(&rules);
    if (json) {
        printf("{\"rules\":\"%s\",\"seconds\":%g,\"playouts_per_second\":{", rules.preset, seconds);
        for (int c = 0; c < rules.n_contracts; c++)
            printf("%s\"%s\":%.0f", c ? "," : "", rules.contract[c].key, pps[c]);
        printf("},\"random_games_per_second\":%.1f,\"heuristic_games_per_second\":%.1f,"
               "\"deals_per_game\":%d,\"signature\":\"%016" PRIx64 "\"}\n",
               random_games, bot_games, deals, signature);
    } else {
        /* A Fife game's length depends on its Calls: name its Sets. */
        char games[32];
        if (rules.game == BARBU_GAME_FIFE)
            snprintf(games, sizeof games, "%d-Set", rules.sets);
        else
            snprintf(games, sizeof games, "%d-deal", deals);
        printf("\nrandom %s games per second:     %10.1f\n", games, random_games);
        printf("heuristic %s games per second:  %10.1f\n", games, bot_games);
        printf("\nsignature %016" PRIx64 "\n", signature);
    }
    (void)checksum;
    return 0;
}
