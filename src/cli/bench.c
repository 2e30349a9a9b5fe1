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

#include "../ai/solver.h"
#include "barbu/ai.h"
#include "cli.h"

#define BENCH_DEALS 16

/* The solver's benchmark: positions per contract, cards in each hand. */
#define SOLVER_POSITIONS 200
#define SOLVER_CARDS     7
#define SOLVER_TT_BITS   16

/* Games for timing the computer players' decisions. */
#define BOTS_GAMES 2

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: barbu bench [--json] [--seconds T] [--rules R]\n"
        "       barbu bench --solver [--maxn] [--json] [--rules R] [--cards N] [--positions P]\n"
        "       barbu bench --bots KIND [--json] [--rules R] [--games G] [--threads N]\n\n"
        "Measures the engine on this machine, on one thread, per CPU-second of it:\n"
        "  - random playouts per second for each contract, from %d fixed deals\n"
        "    (the contract declared and doubled, then random legal cards to the end;\n"
        "    for Chinese Poker, hands whose valid settings of rows are all listed);\n"
        "  - complete random games per second (every action drawn from the legal\n"
        "    list), and games of the heuristic players;\n"
        "  - deals per second, dealt and played out: the deals of random games, each\n"
        "    dealt from its game's seed as the game deals it, the declaration and the\n"
        "    bids drawn from the legal list, the cards played by the random playout\n"
        "    to the deal's end (the time of starting each game included);\n"
        "  - deals per second, dealing alone (each game's shuffles and hands): from a\n"
        "    seed (SplitMix64, for seeded games) and from a key (ChaCha20, for served\n"
        "    games);\n"
        "  - a signature of fixed seeded games, which changes only when behaviour does.\n"
        "With --solver, the exact solver of the bots' last tricks instead: for each\n"
        "trick contract, P fixed positions (the contract declared, random bids, random\n"
        "cards until N are left in each hand, at a trick's start), and the time of\n"
        "solving each position's value, and each move's (median, 90th percentile and\n"
        "worst), with the search nodes; the checksum of the values changes only when\n"
        "they do.  With --maxn, the max^n search (each seat for itself) the bots may\n"
        "finish their play-outs with: the value of each move to the seat to move, then\n"
        "the card it plays (ties drawn), on the table the first search filled.\n"
        "With --bots, the time of each decision of a computer player (easy, medium,\n"
        "hard, ...): G whole games of four of them from fixed seeds, by phase (mean,\n"
        "median, 90th and 99th percentiles, worst).\n"
        "Pin it to one core for a per-core figure: taskset -c 0 barbu bench\n\n"
        "  --json         the figures as one JSON object\n"
        "  --seconds T    time per measurement (default 1)\n"
        "  --rules R      a preset or rules file (default uk)\n"
        "  --solver       measure the solver\n"
        "  --maxn         with --solver, the max^n search\n"
        "  --cards N      the solver's positions: cards in each hand (default %d)\n"
        "  --positions P  the solver's positions per contract (default %d)\n"
        "  --bots KIND    time the decisions of this computer player\n"
        "  --games G      the games --bots plays (default %d)\n"
        "  --threads N    the threads each of --bots' players thinks on (default 1)\n",
        BENCH_DEALS, SOLVER_CARDS, SOLVER_POSITIONS, BOTS_GAMES);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The CPU time of this thread: the rates are counted per CPU-second, so a
 * busy machine that takes the core away now and then does not lower them
 * (it still slows them a little, through the caches it shares).  Reading it
 * is a system call of about a microsecond and a half here, as long as a
 * random deal takes, so the loops of whole games read it once every
 * CLOCK_EVERY games, not after each. */
#define CLOCK_EVERY 16
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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
    double t0 = cpu_now(), t;
    do {
        *checksum += barbu_legal(&start[n % BENCH_DEALS], NULL, 0);
        n++;
        t = cpu_now() - t0;
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
    double t0 = cpu_now(), t;
    do {
        for (int k = 0; k < 1024; k++) {
            barbu_state s = start[n % BENCH_DEALS];
            barbu_playout_random(&s, &rng);
            *checksum += s.t.last.raw[0];
            n++;
        }
        t = cpu_now() - t0;
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
    double t0 = cpu_now(), t = 0;
    do {
        if (play_game(rules, (uint64_t)n + 1, kind, NULL) != 0)
            return -1;
        n++;
        if (n % CLOCK_EVERY == 0)
            t = cpu_now() - t0;
    } while (n % CLOCK_EVERY != 0 || t < seconds);
    return n / t;
}

/*
 * Deals a second, including dealing: random games from seeds 1, 2, 3, ...,
 * each deal as a game has it.  The engine sets the state up for the deal and
 * deals its hands from the game's seed (barbu_init for the first deal, the
 * end of the one before for the others); the declaration and each bid (and
 * the Fife game's cuts and Pass-ons, and Chinese Poker's rows) are drawn
 * uniformly from barbu_legal's list, as the random games above draw them;
 * then barbu_playout_random plays the cards at random to the deal's end,
 * which deals the next.  Every deal of every game counts, the deals shared
 * out undoubled (never played) too, and the time of barbu_init with them.
 */
static double dealt_deals_per_second(const barbu_rules *rules, double seconds, int64_t *checksum)
{
    barbu_action legal[BARBU_MAX_ACTIONS];
    barbu_rng rng;
    barbu_rng_seed(&rng, 7);
    long deals = 0;
    uint64_t seed = 1;
    double t0 = cpu_now(), t = 0;
    do {
        barbu_state s;
        if (barbu_init(&s, rules, seed++) != 0)
            return -1;
        while (!barbu_over(&s)) {
            if (s.t.phase == BARBU_PHASE_PLAY) {
                int deal = s.t.deal;
                barbu_playout_random(&s, &rng);
                deals += s.t.deal != deal;
                continue;
            }
            int n = barbu_legal(&s, legal, BARBU_MAX_ACTIONS);
            int deal = s.t.deal;
            if (n <= 0 ||
                barbu_apply(
                    &s, &legal[barbu_rng_below(
                            &rng, (uint32_t)(n < BARBU_MAX_ACTIONS ? n : BARBU_MAX_ACTIONS))]) != 0)
                return -1;
            /* A negative contract nobody doubled ends at the last bid. */
            deals += s.t.deal != deal;
        }
        *checksum += s.t.total[0];
        if (seed % CLOCK_EVERY == 0)
            t = cpu_now() - t0;
    } while (seed % CLOCK_EVERY != 0 || t < seconds);
    return deals / t;
}

/* Deals a second, dealing alone (the shuffle and the hands of every deal
 * of a game, over and over): from 16 seeded games' seeds (SplitMix64), or
 * from 16 keys (ChaCha20, as served games are dealt).  The keys are made
 * here from SplitMix64; how they are made does not change the speed. */
static double deals_per_second(const barbu_rules *rules, bool keyed, double seconds,
                               uint64_t *checksum)
{
    barbu_state games[16];
    for (int g = 0; g < 16; g++) {
        if (!keyed) {
            barbu_init(&games[g], rules, (uint64_t)g + 1);
            continue;
        }
        uint8_t key[BARBU_KEY_BYTES];
        barbu_rng rng;
        barbu_rng_seed(&rng, (uint64_t)g + 1);
        for (int i = 0; i < BARBU_KEY_BYTES; i += 8) {
            uint64_t v = barbu_rng_next(&rng);
            memcpy(key + i, &v, 8);
        }
        barbu_init_keyed(&games[g], rules, key);
    }
    int per_game = barbu_rules_deals(rules);
    long n = 0;
    double t0 = cpu_now(), t = 0;
    do {
        const barbu_state *s = &games[n % 16];
        for (int d = 0; d < per_game; d++) {
            barbu_cards hands[4];
            barbu_dealt_hands(s, d, d & 3, hands);
            *checksum ^= hands[0] ^ hands[3];
        }
        n++;
        if (n % CLOCK_EVERY == 0)
            t = cpu_now() - t0;
    } while (n % CLOCK_EVERY != 0 || t < seconds);
    return (double)n * per_game / t;
}

/* ------------------------------------------------------------ the solver */

/* A position for the solver: a deal of the contract with random bids,
 * played at random until `cards` are left in each hand; -1 when the deal
 * is not played to there (shared out undoubled, or ended early). */
static int solver_position(const barbu_rules *rules, int contract, uint64_t seed, int cards,
                           barbu_state *s)
{
    barbu_rng rng;
    barbu_rng_seed(&rng, seed);
    if (barbu_init(s, rules, seed) != 0)
        return -1;
    const barbu_contract *c = &rules->contract[contract];
    barbu_action a = barbu_act_declare(s->t.to_move, contract,
                                       c->kind == BARBU_KIND_TRUMPS ? (int)(seed % 4) : -1, 0);
    if (barbu_apply(s, &a) != 0)
        return -1;
    barbu_action legal[BARBU_MAX_ACTIONS];
    while (s->t.phase == BARBU_PHASE_BID) {
        int n = barbu_legal(s, legal, BARBU_MAX_ACTIONS);
        n = n < BARBU_MAX_ACTIONS ? n : BARBU_MAX_ACTIONS;
        if (barbu_apply(s, &legal[barbu_rng_below(&rng, (uint32_t)n)]) != 0)
            return -1;
    }
    barbu_truncate(s);
    while (s->t.phase == BARBU_PHASE_PLAY && s->t.in_hand[s->t.to_move] > cards)
        barbu_play_random(s, &rng);
    return s->t.phase == BARBU_PHASE_PLAY && bb_solver_fits(s) ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile of n sorted values (the value at rank ceil(q n)). */
static double quantile(const double *sorted, int n, double q)
{
    int i = (int)(q * n + 0.999999) - 1;
    return sorted[i < 0 ? 0 : i >= n ? n - 1 : i];
}

typedef struct solver_figures {
    int positions;
    double value_median, value_p90, value_max; /* microseconds */
    double moves_median;
    double nodes_median;
} solver_figures;

static void figures_of(double *value_us, double *moves_us, double *nodes, int n, solver_figures *f)
{
    qsort(value_us, (size_t)n, sizeof *value_us, cmp_double);
    qsort(moves_us, (size_t)n, sizeof *moves_us, cmp_double);
    qsort(nodes, (size_t)n, sizeof *nodes, cmp_double);
    f->positions = n;
    f->value_median = quantile(value_us, n, 0.5);
    f->value_p90 = quantile(value_us, n, 0.9);
    f->value_max = value_us[n - 1];
    f->moves_median = quantile(moves_us, n, 0.5);
    f->nodes_median = quantile(nodes, n, 0.5);
}

static int bench_solver(const barbu_rules *rules, bool json, bool maxn, int cards, int per_contract)
{
    bb_solver *sv = bb_solver_new(SOLVER_TT_BITS);
    int nc = rules->n_contracts;
    size_t cap = (size_t)per_contract * (size_t)nc;
    double *value_us = malloc(cap * sizeof *value_us), *moves_us = malloc(cap * sizeof *moves_us);
    double *nodes = malloc(cap * sizeof *nodes);
    double *all[3] = {malloc(cap * sizeof(double)), malloc(cap * sizeof(double)),
                      malloc(cap * sizeof(double))};
    int status = 0, total = 0;
    if (!sv || !value_us || !moves_us || !nodes || !all[0] || !all[1] || !all[2]) {
        fprintf(stderr, "barbu bench: out of memory\n");
        status = 1;
        goto done;
    }
    if (cards < 1 || cards > barbu_rules_hand_size(rules)) {
        fprintf(stderr, "barbu bench: --cards must be 1 to %d for these rules\n",
                barbu_rules_hand_size(rules));
        status = 2;
        goto done;
    }
    int64_t checksum = 0;
    if (json)
        printf("{\"rules\":\"%s\",\"search\":\"%s\",\"cards\":%d,\"contracts\":{", rules->preset,
               maxn ? "maxn" : "paranoid", cards);
    else
        printf("barbu bench --solver%s: one thread, rules %s, %d cards in each hand, %d "
               "positions\n"
               "a contract; microseconds a position%s\n\n"
               "%-16s %9s %9s %9s %9s %9s %9s\n",
               maxn ? " --maxn" : "", rules->preset, cards, per_contract,
               maxn ? " (value: every move's; moves: the card played)" : "", "contract",
               "positions", "value p50", "p90", "max", "moves p50", "nodes p50");
    int shown = 0;
    for (int c = 0; c < nc; c++) {
        int kind = rules->contract[c].kind;
        if (kind != BARBU_KIND_TRICKS && kind != BARBU_KIND_TRUMPS)
            continue;
        int n = 0;
        for (uint64_t seed = 1; n < per_contract && seed < 100 * (uint64_t)per_contract; seed++) {
            barbu_state s;
            if (solver_position(rules, c, UINT64_C(20261121) + (uint64_t)c * 1000003 + seed, cards,
                                &s) != 0)
                continue;
            int me = n % 4;
            unsigned long long before = bb_solver_nodes(sv);
            double t0 = now(), t1, t2;
            if (maxn) {
                barbu_cards moves;
                double values[BARBU_MAX_TRICKS];
                int k = bb_maxn_moves(sv, &s, s.t.to_move, &moves, values);
                t1 = now();
                nodes[n] = (double)(bb_solver_nodes(sv) - before);
                barbu_rng rng;
                barbu_rng_seed(&rng, seed);
                int card = bb_maxn_card(sv, &s, &rng);
                t2 = now();
                checksum = checksum * 31 + card;
                for (int i = 0; i < k; i++)
                    checksum = checksum * 31 + (int64_t)(values[i] * 100.0 + 0.5);
            } else {
                int v = bb_solve_value(sv, &s, me);
                t1 = now();
                nodes[n] = (double)(bb_solver_nodes(sv) - before);
                barbu_cards moves;
                int values[BARBU_MAX_TRICKS];
                int k = bb_solve_moves(sv, &s, s.t.to_move, &moves, values);
                t2 = now();
                checksum = checksum * 31 + v;
                for (int i = 0; i < k; i++)
                    checksum = checksum * 31 + values[i];
            }
            value_us[n] = (t1 - t0) * 1e6;
            moves_us[n] = (t2 - t1) * 1e6;
            all[0][total] = value_us[n];
            all[1][total] = moves_us[n];
            all[2][total] = nodes[n];
            total++;
            n++;
        }
        if (n == 0)
            continue;
        solver_figures f;
        figures_of(value_us, moves_us, nodes, n, &f);
        if (json)
            printf("%s\"%s\":{\"positions\":%d,\"value_us\":{\"median\":%.1f,\"p90\":%.1f,"
                   "\"max\":%.1f},\"moves_us_median\":%.1f,\"nodes_median\":%.0f}",
                   shown ? "," : "", rules->contract[c].key, f.positions, f.value_median,
                   f.value_p90, f.value_max, f.moves_median, f.nodes_median);
        else
            printf("%-16s %9d %9.1f %9.1f %9.1f %9.1f %9.0f\n", rules->contract[c].name,
                   f.positions, f.value_median, f.value_p90, f.value_max, f.moves_median,
                   f.nodes_median);
        shown++;
    }
    if (total == 0) {
        fprintf(stderr, "barbu bench: no position of a trick contract\n");
        status = 1;
        goto done;
    }
    solver_figures f;
    figures_of(all[0], all[1], all[2], total, &f);
    if (json)
        printf("},\"all\":{\"positions\":%d,\"value_us\":{\"median\":%.1f,\"p90\":%.1f,"
               "\"max\":%.1f},\"moves_us_median\":%.1f,\"nodes_median\":%.0f},"
               "\"checksum\":\"%016" PRIx64 "\"}\n",
               f.positions, f.value_median, f.value_p90, f.value_max, f.moves_median,
               f.nodes_median, (uint64_t)checksum);
    else
        printf("%-16s %9d %9.1f %9.1f %9.1f %9.1f %9.0f\n\nchecksum %016" PRIx64 "\n", "all",
               f.positions, f.value_median, f.value_p90, f.value_max, f.moves_median,
               f.nodes_median, (uint64_t)checksum);
done:
    bb_solver_free(sv);
    free(value_us);
    free(moves_us);
    free(nodes);
    for (int i = 0; i < 3; i++)
        free(all[i]);
    return status;
}

/* ------------------------------------------------------------ the bots */

/* The phases a decision is timed in, as reported. */
enum { TIMED_DECLARE, TIMED_BID, TIMED_PLAY, TIMED_OTHER, N_TIMED };
static const char *const TIMED_NAME[N_TIMED] = {"declare", "bid", "play", "other"};

static int timed_phase(int phase)
{
    return phase == BARBU_PHASE_DECLARE ? TIMED_DECLARE
           : phase == BARBU_PHASE_BID   ? TIMED_BID
           : phase == BARBU_PHASE_PLAY  ? TIMED_PLAY
                                        : TIMED_OTHER;
}

/*
 * The time each decision of a computer player takes on this thread: whole
 * games of four players of the kind, from fixed seeds, every decision
 * timed, reported by phase (median, 90th and 99th percentiles, worst).  The
 * decisions are the bots' own, so the games are the same on any machine;
 * only the times differ.
 */
static int bench_bots(const barbu_rules *rules, const char *kind, int games, int threads, bool json)
{
    size_t cap = 4096;
    int status = 0;
    double *ms[N_TIMED];
    size_t n[N_TIMED] = {0}, caps[N_TIMED];
    for (int p = 0; p < N_TIMED; p++) {
        ms[p] = malloc(cap * sizeof(double));
        caps[p] = cap;
        if (ms[p] == NULL)
            status = 1;
    }
    barbu_bot *bots[4] = {0};
    for (int g = 1; g <= games && status == 0; g++) {
        barbu_state s;
        if (barbu_init(&s, rules, (uint64_t)g) != 0) {
            status = 1;
            break;
        }
        for (int seat = 0; seat < 4; seat++) {
            barbu_bot_free(bots[seat]);
            bots[seat] = barbu_bot_new_tuned(kind, (uint64_t)g * 4 + (uint64_t)seat);
            if (bots[seat] == NULL)
                status = 1;
            else
                barbu_bot_set_threads(bots[seat], threads);
        }
        while (status == 0 && !barbu_over(&s)) {
            barbu_view view;
            barbu_action a;
            int p = timed_phase(s.t.phase);
            barbu_view_of(&s, s.t.to_move, &view);
            double t0 = now();
            if (barbu_bot_choose(bots[s.t.to_move], &view, &a) != 0 || barbu_apply(&s, &a) != 0) {
                fprintf(stderr, "barbu bench: the %s player failed in game %d\n", kind, g);
                status = 1;
                break;
            }
            double t = (now() - t0) * 1e3;
            if (n[p] == caps[p]) {
                double *grown = realloc(ms[p], 2 * caps[p] * sizeof(double));
                if (grown == NULL) {
                    status = 1;
                    break;
                }
                ms[p] = grown;
                caps[p] *= 2;
            }
            ms[p][n[p]++] = t;
        }
    }
    for (int seat = 0; seat < 4; seat++)
        barbu_bot_free(bots[seat]);
    if (status == 0) {
        if (json)
            printf("{\"rules\":\"%s\",\"bots\":\"%s\",\"games\":%d,\"threads\":%d,\"phases\":{",
                   rules->preset, kind, games, threads);
        else
            printf("barbu bench --bots %s: %d thread%s a player, rules %s, %d game%s of four\n"
                   "milliseconds a decision\n\n%-10s %9s %9s %9s %9s %9s %9s\n",
                   kind, threads, threads == 1 ? "" : "s", rules->preset, games,
                   games == 1 ? "" : "s", "phase", "decisions", "mean", "p50", "p90", "p99", "max");
        int shown = 0;
        for (int p = 0; p < N_TIMED; p++) {
            if (n[p] == 0)
                continue;
            double sum = 0;
            for (size_t i = 0; i < n[p]; i++)
                sum += ms[p][i];
            qsort(ms[p], n[p], sizeof(double), cmp_double);
            double mean = sum / (double)n[p], p50 = quantile(ms[p], (int)n[p], 0.5);
            double p90 = quantile(ms[p], (int)n[p], 0.9), p99 = quantile(ms[p], (int)n[p], 0.99);
            double max = ms[p][n[p] - 1];
            if (json)
                printf("%s\"%s\":{\"decisions\":%zu,\"ms_mean\":%.4f,\"ms_p50\":%.4f,"
                       "\"ms_p90\":%.4f,\"ms_p99\":%.4f,\"ms_max\":%.4f}",
                       shown++ ? "," : "", TIMED_NAME[p], n[p], mean, p50, p90, p99, max);
            else
                printf("%-10s %9zu %9.3f %9.3f %9.3f %9.3f %9.3f\n", TIMED_NAME[p], n[p], mean, p50,
                       p90, p99, max);
        }
        if (json)
            printf("}}\n");
    }
    for (int p = 0; p < N_TIMED; p++)
        free(ms[p]);
    return status;
}

int cmd_bench(int argc, char **argv)
{
    bool json = false, solver = false, maxn = false;
    const char *bots = NULL;
    int cards = SOLVER_CARDS, positions = SOLVER_POSITIONS, timed_games = BOTS_GAMES, threads = 1;
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
        } else if (strcmp(argv[i], "--solver") == 0) {
            solver = true;
        } else if (strcmp(argv[i], "--maxn") == 0) {
            maxn = true;
        } else if (strcmp(argv[i], "--bots") == 0 && i + 1 < argc) {
            bots = argv[++i];
            barbu_bot *probe = barbu_bot_new_tuned(bots, 0);
            barbu_bot_free(probe);
            if (probe == NULL) {
                fprintf(stderr, "barbu bench: unknown computer player '%s'\n", bots);
                return 2;
            }
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[i + 1], &end, 10);
            if (*end || v < 1 || v > 64) {
                fprintf(stderr, "barbu bench: --threads takes 1 to 64, not '%s'\n", argv[i + 1]);
                return 2;
            }
            threads = (int)v;
            i++;
        } else if (strcmp(argv[i], "--games") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[i + 1], &end, 10);
            if (*end || v < 1 || v > 10000) {
                fprintf(stderr, "barbu bench: --games takes a number, not '%s'\n", argv[i + 1]);
                return 2;
            }
            timed_games = (int)v;
            i++;
        } else if ((strcmp(argv[i], "--cards") == 0 || strcmp(argv[i], "--positions") == 0) &&
                   i + 1 < argc) {
            char *end;
            long v = strtol(argv[i + 1], &end, 10);
            if (*end || v < 1 || v > 100000) {
                fprintf(stderr, "barbu bench: %s takes a number, not '%s'\n", argv[i], argv[i + 1]);
                return 2;
            }
            *(argv[i][2] == 'c' ? &cards : &positions) = (int)v;
            i++;
        } else {
            fprintf(stderr, "barbu bench: unknown option '%s'\n\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    barbu_rules rules;
    if (cli_load_rules(rules_arg, &rules) != 0)
        return 1;
    if (maxn && !solver) {
        fprintf(stderr, "barbu bench: --maxn goes with --solver\n");
        return 2;
    }
    if (solver)
        return bench_solver(&rules, json, maxn, cards, positions);
    if (bots != NULL)
        return bench_bots(&rules, bots, timed_games, threads, json);

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
    uint64_t dealt = 0;
    double played_deals = dealt_deals_per_second(&rules, seconds, &checksum);
    if (played_deals < 0) {
        fprintf(stderr, "barbu bench: a random game failed\n");
        return 1;
    }
    double seeded_deals = deals_per_second(&rules, false, seconds, &dealt);
    double keyed_deals = deals_per_second(&rules, true, seconds, &dealt);
    int deals = barbu_rules_deals(&rules);
    if (json) {
        printf("{\"rules\":\"%s\",\"seconds\":%g,\"playouts_per_second\":{", rules.preset, seconds);
        for (int c = 0; c < rules.n_contracts; c++)
            printf("%s\"%s\":%.0f", c ? "," : "", rules.contract[c].key, pps[c]);
        printf("},\"random_games_per_second\":%.1f,\"heuristic_games_per_second\":%.1f,"
               "\"deals_per_game\":%d,\"played_deals_per_second\":%.0f,"
               "\"seeded_deals_per_second\":%.0f,\"keyed_deals_per_second\":%.0f,"
               "\"signature\":\"%016" PRIx64 "\"}\n",
               random_games, bot_games, deals, played_deals, seeded_deals, keyed_deals, signature);
    } else {
        /* A Fife game's length depends on its Calls: name its Sets. */
        char games[32];
        if (rules.game == BARBU_GAME_FIFE)
            snprintf(games, sizeof games, "%d-Set", rules.sets);
        else
            snprintf(games, sizeof games, "%d-deal", deals);
        printf("\nrandom %s games per second:     %10.1f\n", games, random_games);
        printf("heuristic %s games per second:  %10.1f\n", games, bot_games);
        printf("\ndeals per second:\n");
        printf("  dealt and played out   %10.0f  (random games, cards by playout)\n", played_deals);
        printf("  dealing alone, seeded  %10.0f  (SplitMix64)\n", seeded_deals);
        printf("  dealing alone, keyed   %10.0f  (ChaCha20)\n", keyed_deals);
        printf("\nsignature %016" PRIx64 "\n", signature);
    }
    (void)checksum;
    (void)dealt;
    return 0;
}
