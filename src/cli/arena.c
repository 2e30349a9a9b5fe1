/*
 * arena.c - duplicate matches between computer players.
 *
 * Card luck hides skill, so the players are compared on the same cards.  A
 * deal set is one deal at some point of a game, played once for each
 * distinct rotation of the lineup round the table; a player is measured by
 * its score against the table mean of each play, averaged per deal set, so
 * that whoever holds the good cards in one rotation holds the bad ones in
 * another.  Deal sets run on a pool of threads, but each is a pure function
 * of the seed and its number and the results are added up in order, so the
 * figures do not depend on --jobs (the timings of course do).
 *
 * The JSON object (--json) has this shape; a mean or interval that cannot
 * be had (no sample, or one) is null:
 *
 *   {"rules": "uk", "seed": 1, "first": 0, "deal_sets": 100, "plays": 200,
 *    "lineup": ["heuristic", "random", "heuristic", "random"],   (N E S W)
 *    "declare": "fixed",       ("free" with --free or --regret)
 *    "contract": null,         (the key given with --contract)
 *    "regret": false,
 *    "players": [{
 *       "player": "heuristic", "seats": 2,     (seats in the lineup)
 *       "points": {"mean": 9.1, "ci95": 1.2, "deal_sets": 100},
 *       "contracts": [{"contract": "no-tricks", "plays": 30, "deal_sets": 15,
 *                      "mean": 4.0, "ci95": 2.5}, ...],
 *       "doubling_gain": {"mean": 1.5, "ci95": 0.6, "deal_sets": 100},
 *       "regret": {"declarations": 50, "deal_sets": 50,       (--regret)
 *                  "mean": 3.2, "ci95": 1.1},
 *       "versus": [{"player": "random", "mean": 18.2, "ci95": 2.4,
 *                   "deal_sets": 100}, ...],  (my points less each other's)
 *       "decisions": 5200, "ms_mean": 0.02, "ms_median": 0.01,
 *       "ms_max": 0.3}, ...],
 *    "wall_seconds": 1.9}
 *
 * "ci95" is the half-width of the 95% confidence interval of the mean.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "barbu/ai.h"
#include "cli.h"

#define DEFAULT_DEAL_SETS 100
#define DEFAULT_SEED      1
#define MAX_DEAL_SETS     10000000L
#define MAX_JOBS          1024

/* Declarations remembered per play for --regret: a deal has one, but
 * nothing is lost by not assuming it. */
#define MAX_DECLS 4

/* A deal that takes more decisions than this is a bot or engine fault. */
#define MAX_DECISIONS 100000

/* The decision times go into a histogram with eight buckets per doubling
 * of nanoseconds, which puts the median within 6% without keeping every
 * time. */
#define TIME_BUCKETS 320

#define N_MASKS (1u << BARBU_MAX_CONTRACTS)

static void usage(FILE *out)
{
    fprintf(out,
            "usage: barbu arena [options] PLAYER PLAYER [PLAYER PLAYER]\n\n"
            "Duplicate matches between computer players: each deal set is one deal, played\n"
            "once per distinct rotation of the lineup round the table, so every player gets\n"
            "the same cards.  Two players A B sit A B A B (N E S W); four sit by seat.\n"
            "A player is a bot kind (random, heuristic, easy, medium, hard) or omniscient,\n"
            "the reference player that sees every card; medium0 and hard0 are medium and\n"
            "hard as they were before issue 26, kept to measure changes against; and\n"
            "KIND:key=value,... a level with some settings changed (for tuning).\n\n"
            "  --rules R      a preset or a rules file (default uk)\n"
            "  --deal-sets N  how many deal sets (default %d)\n"
            "  --seed S       the seed the deal sets are drawn from (default %d)\n"
            "  --first K      start at deal set K (default 0): deal sets K to K+N-1 are\n"
            "                 played, so that a long match can be run in parts, each part\n"
            "                 the same deal sets as in the whole\n"
            "  --jobs J       threads, each playing whole deal sets (default: the online\n"
            "                 CPUs, at most N); the figures do not depend on it\n"
            "  --free         the declarer of each rotation chooses the contract, so the\n"
            "                 overall figure includes the choice; the figures by contract\n"
            "                 then compare different deals and are not duplicate\n"
            "  --contract C   every deal set at contract C (a key of the rules: no-tricks,\n"
            "                 trumps, ...): the heuristic declarer chooses among its\n"
            "                 declarations, at an earlier deal of the game if need be\n"
            "  --regret       also measure the declarations (implies --free): replay each\n"
            "                 deal with every other legal declaration and report what the\n"
            "                 best would have gained the declarer (one replay per\n"
            "                 alternative: slow)\n"
            "  --json         one JSON object on stdout (its shape is described at the top\n"
            "                 of src/cli/arena.c)\n\n"
            "Deal set k starts a game from a seed drawn from S and k, plays k mod (deals in\n"
            "a game) deals with heuristic players so that the contracts still to choose\n"
            "vary, then plays the next deal once per rotation.  Unless --free, that deal's\n"
            "contract is the one a heuristic declarer chooses, the same in every rotation,\n"
            "and each player then doubles and plays for itself.  Reported per player, with\n"
            "95%% confidence intervals over deal sets: points per deal against the table\n"
            "mean, overall and by contract; the doubling gain (settled score less raw\n"
            "score); with --regret the declaration regret; with three or four players,\n"
            "each player's points less each other's on the same deal sets; and the time\n"
            "per decision (measured on the wall clock: use --jobs 1 and taskset for\n"
            "per-core times).\n",
            DEFAULT_DEAL_SETS, DEFAULT_SEED);
}

/* ------------------------------------------------------------ the match */

/* One play of a deal set: who sat where and what the deal gave them. */
typedef struct play_result {
    int8_t player[4]; /* player index by seat */
    uint8_t declarer;
    uint16_t contracts;
    int16_t raw[4], score[4];
    int n_regrets;
    int8_t regret_seat[MAX_DECLS];
    int16_t regret[MAX_DECLS];
} play_result;

typedef struct set_result {
    int n_plays;
    play_result play[4];
    int err; /* 0, or the BARBU_E* code of a failure */
    char why[160];
} set_result;

/* Decision times of one thread, by player; merged when the threads end. */
typedef struct timing {
    long n[4];
    double sum_ms[4], max_ms[4];
    uint32_t hist[4][TIME_BUCKETS];
} timing;

typedef struct arena {
    const barbu_rules *rules;
    uint64_t seed;
    long first; /* the number of the first deal set */
    long deal_sets;
    bool regret;
    bool free_declare;     /* each declarer chooses (else the heuristic's choice
                              is made for every rotation) */
    int contract;          /* --contract: the only contract declared, or -1 */
    const char *lineup[4]; /* the kinds by lineup position (N E S W) */
    int n_players;
    const char *player[4]; /* the distinct kinds, in the lineup's order */
    int lineup_player[4];  /* the player of each lineup position */
    int n_rotations;       /* rotations whose seating differs from the earlier */
    int rotation[4];       /* ones, which are the only ones played */
    atomic_long next;      /* the next deal set to play */
    atomic_bool stop;      /* a deal set failed: the others need not run */
    set_result *results;   /* by deal set */
} arena;

/* A SplitMix hash of two numbers, for the seeds of deal sets and bots: seeds
 * derived this way do not overlap the way S + k would. */
static uint64_t hash2(uint64_t a, uint64_t b)
{
    barbu_rng rng;
    barbu_rng_seed(&rng, a);
    barbu_rng_seed(&rng, barbu_rng_next(&rng) ^ b);
    return barbu_rng_next(&rng);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A player is a kind, or a tuned spec "KIND:key=value,..." (ai.h). */
static bool is_omniscient(const char *kind)
{
    return strncmp(kind, "omniscient", 10) == 0 && (kind[10] == '\0' || kind[10] == ':');
}

static barbu_bot *make_bot(const char *kind, uint64_t seed)
{
    return barbu_bot_new_tuned(kind, seed);
}

/* The omniscient player is asked with the whole state; every other player
 * only ever sees its own seat's view. */
static int ask_bot(barbu_bot *bot, bool omniscient, const barbu_state *s, barbu_action *out)
{
    if (omniscient)
        return barbu_omniscient_choose(bot, s, out);
    barbu_view view;
    barbu_view_of(s, s->t.to_move, &view);
    return barbu_bot_choose(bot, &view, out);
}

static int time_bucket(double ms)
{
    uint64_t ns = ms <= 0 ? 0 : (uint64_t)(ms * 1e6);
    if (ns < 8)
        return (int)ns;
    int e = 63 - __builtin_clzll(ns);
    int b = 8 + (e - 3) * 8 + (int)((ns >> (e - 3)) & 7);
    return b < TIME_BUCKETS ? b : TIME_BUCKETS - 1;
}

/* The middle of a bucket, in milliseconds. */
static double bucket_ms(int b)
{
    if (b < 8)
        return b * 1e-6;
    int e = (b - 8) / 8 + 3, sub = (b - 8) % 8;
    return ((8 + sub) + 0.5) * (double)(UINT64_C(1) << (e - 3)) * 1e-6;
}

/* A declaration made during a play, for --regret. */
typedef struct decl_point {
    long index; /* the decision's number in the play */
    barbu_state before;
    barbu_action chosen;
} decl_point;

typedef struct decl_log {
    int n;
    decl_point point[MAX_DECLS];
} decl_log;

/*
 * Plays the deal under way in *s to its end, seat s taken by the lineup's
 * position (s + r) % 4, with bots seeded from the deal set's seed, r and the
 * seat.  At decision number force_at (none if negative) the bot is still
 * asked, so that its random stream moves on exactly as in the play being
 * compared with, but *force is applied instead: the two plays then differ
 * by that action alone.  With tm the decisions are timed; with decls the
 * declarations are noted.  The result is in s->t.last.
 */
static int play_deal(const arena *ar, barbu_state *s, uint64_t set_seed, int r, long force_at,
                     const barbu_action *force, timing *tm, decl_log *decls, char *why,
                     size_t why_cap)
{
    barbu_bot *bots[4] = {0};
    bool omni[4];
    int player[4], err = 0;
    for (int seat = 0; seat < 4; seat++) {
        const char *kind = ar->lineup[(seat + r) % 4];
        player[seat] = ar->lineup_player[(seat + r) % 4];
        omni[seat] = is_omniscient(kind);
        bots[seat] = make_bot(kind, hash2(set_seed, (uint64_t)(4 + 4 * r + seat)));
        if (bots[seat] == NULL) {
            err = BARBU_ENOMEM;
            snprintf(why, why_cap, "out of memory for the players");
        }
    }
    int deal = s->t.deal;
    for (long i = 0; err == 0 && s->t.deal == deal && !barbu_over(s); i++) {
        int seat = s->t.to_move;
        if (i == MAX_DECISIONS) {
            err = BARBU_ELIMIT;
            snprintf(why, why_cap, "the deal did not end in %d decisions", MAX_DECISIONS);
            break;
        }
        barbu_action a;
        double t0 = tm ? now() : 0;
        err = ask_bot(bots[seat], omni[seat], s, &a);
        if (tm && err == 0) {
            double ms = (now() - t0) * 1e3;
            int p = player[seat];
            tm->n[p]++;
            tm->sum_ms[p] += ms;
            if (ms > tm->max_ms[p])
                tm->max_ms[p] = ms;
            tm->hist[p][time_bucket(ms)]++;
        }
        if (err != 0) {
            snprintf(why, why_cap, "the %s player at %s failed: %s", ar->lineup[(seat + r) % 4],
                     barbu_seat_name(seat), barbu_strerror(err));
            break;
        }
        if (i == force_at)
            a = *force;
        if (decls && s->t.phase == BARBU_PHASE_DECLARE && decls->n < MAX_DECLS) {
            decl_point *d = &decls->point[decls->n++];
            d->index = i;
            d->before = *s;
            d->chosen = a;
        }
        if ((err = barbu_apply(s, &a)) != 0)
            snprintf(why, why_cap, "the %s player at %s chose an illegal action: %s",
                     ar->lineup[(seat + r) % 4], barbu_seat_name(seat), barbu_strerror(err));
    }
    for (int seat = 0; seat < 4; seat++)
        barbu_bot_free(bots[seat]);
    return err;
}

/* Plays up to `deals` deals of a new game with heuristic players; returns
 * the deals played (fewer when the game ends first) or a BARBU_E* code. */
static int play_prefix(const barbu_rules *rules, uint64_t set_seed, int deals, barbu_state *s)
{
    int err = barbu_init(s, rules, set_seed);
    if (err != 0)
        return err;
    barbu_bot *bots[4] = {0};
    for (int seat = 0; seat < 4; seat++)
        if ((bots[seat] = barbu_bot_new("heuristic", hash2(set_seed, (uint64_t)seat))) == NULL)
            err = BARBU_ENOMEM;
    long decisions = 0;
    while (err == 0 && s->t.deal < deals && !barbu_over(s)) {
        barbu_action a;
        if (++decisions > (long)MAX_DECISIONS * (deals + 1))
            err = BARBU_ELIMIT;
        else if ((err = ask_bot(bots[s->t.to_move], false, s, &a)) == 0)
            err = barbu_apply(s, &a);
    }
    for (int seat = 0; seat < 4; seat++)
        barbu_bot_free(bots[seat]);
    return err != 0 ? err : s->t.deal;
}

/*
 * The deal's declaration, made once for every rotation: what a heuristic
 * declarer chooses (and any cut before it), among the declarations of
 * `contract` alone if it is not negative.  Every player then plays the same
 * contract on the same cards, so that the figures of each contract compare
 * the players on the same deals.  Returns 0, 1 when the declarer may not
 * declare `contract` now, or a BARBU_E* code.
 */
static int fix_declaration(uint64_t set_seed, int contract, barbu_state *s)
{
    int deal = s->t.deal, err = 0;
    barbu_bot *bot = barbu_bot_new("heuristic", hash2(set_seed, 3));
    if (bot == NULL)
        return BARBU_ENOMEM;
    for (int i = 0; err == 0 && i < MAX_DECISIONS && s->t.deal == deal && !barbu_over(s) &&
                    (s->t.phase == BARBU_PHASE_DECLARE || s->t.phase == BARBU_PHASE_CUT);
         i++) {
        barbu_action a;
        if (contract >= 0 && s->t.phase == BARBU_PHASE_DECLARE) {
            barbu_action legal[BARBU_MAX_ACTIONS];
            int n = barbu_legal(s, legal, BARBU_MAX_ACTIONS), k = 0;
            for (int j = 0; j < n && j < BARBU_MAX_ACTIONS; j++)
                if (legal[j].type == BARBU_ACT_DECLARE && legal[j].contracts == 1u << contract)
                    legal[k++] = legal[j];
            if (k == 0) {
                err = 1;
                break;
            }
            barbu_view view;
            barbu_view_of(s, s->t.to_move, &view);
            err = barbu_bot_choose_from(bot, &view, legal, k, &a);
        } else {
            err = ask_bot(bot, false, s, &a);
        }
        if (err == 0)
            err = barbu_apply(s, &a);
    }
    barbu_bot_free(bot);
    return err;
}

/* What the best declaration would have gained the declarer over the one
 * chosen: the deal replayed from the start of the play (identical bots
 * make identical choices up to the declaration) with each other legal
 * declaration forced in turn. */
static int declaration_regret(const arena *ar, const barbu_state *start, uint64_t set_seed, int r,
                              const decl_point *d, int chosen_score, int *regret, bool *counted,
                              char *why, size_t why_cap)
{
    barbu_action legal[BARBU_MAX_ACTIONS];
    int n = barbu_legal(&d->before, legal, BARBU_MAX_ACTIONS);
    int seat = d->before.t.to_move;
    *counted = n > 1;
    *regret = 0;
    if (n > BARBU_MAX_ACTIONS)
        n = BARBU_MAX_ACTIONS;
    int best = chosen_score;
    for (int i = 0; i < n && *counted; i++) {
        if (barbu_action_equal(&legal[i], &d->chosen))
            continue;
        barbu_state s = *start;
        int err = play_deal(ar, &s, set_seed, r, d->index, &legal[i], NULL, NULL, why, why_cap);
        if (err != 0)
            return err;
        if (s.t.last.score[seat] > best)
            best = s.t.last.score[seat];
    }
    *regret = best - chosen_score;
    return 0;
}

static void play_set(arena *ar, long k, timing *tm, set_result *out)
{
    const barbu_rules *rules = ar->rules;
    uint64_t set_seed = hash2(ar->seed, (uint64_t)k);
    memset(out, 0, sizeof *out);

    /* The deal is put at a varied point of the game's schedule.  A Fife
     * game's length depends on its Calls and barbu_rules_deals gives only
     * its most, so a game that ends before the chosen point is played
     * again (identically) to the point k mod its real length: every deal
     * of a game is then as likely as in the others. */
    barbu_state start;
    int target = (int)(k % barbu_rules_deals(rules));
    int got = play_prefix(rules, set_seed, target, &start);
    if (got >= 0 && barbu_over(&start))
        got = play_prefix(rules, set_seed, target % got, &start);
    while (got >= 0 && !ar->free_declare) {
        int err = fix_declaration(set_seed, ar->contract, &start);
        if (err <= 0) {
            got = err != 0 ? err : got;
            break;
        }
        /* The declarer has had this contract: an earlier deal of the same
         * game is played instead. */
        if (got == 0) {
            out->err = BARBU_EINVAL;
            snprintf(out->why, sizeof out->why, "the first declarer may not declare %s",
                     rules->contract[ar->contract].key);
            return;
        }
        got = play_prefix(rules, set_seed, got - 1, &start);
    }
    if (got < 0) {
        out->err = got;
        snprintf(out->why, sizeof out->why, "the heuristic players failed before the deal: %s",
                 barbu_strerror(got));
        return;
    }

    for (int i = 0; i < ar->n_rotations; i++) {
        int r = ar->rotation[i];
        barbu_state s = start;
        decl_log decls = {0};
        int err = play_deal(ar, &s, set_seed, r, -1, NULL, tm, ar->regret ? &decls : NULL, out->why,
                            sizeof out->why);
        if (err != 0) {
            out->err = err;
            return;
        }
        play_result *p = &out->play[out->n_plays++];
        const barbu_result *res = &s.t.last;
        for (int seat = 0; seat < 4; seat++) {
            p->player[seat] = (int8_t)ar->lineup_player[(seat + r) % 4];
            p->raw[seat] = res->raw[seat];
            p->score[seat] = res->score[seat];
        }
        p->declarer = res->declarer;
        p->contracts = res->contracts;
        for (int j = 0; j < decls.n; j++) {
            const decl_point *d = &decls.point[j];
            int seat = d->before.t.to_move, regret;
            bool counted;
            err = declaration_regret(ar, &start, set_seed, r, d, res->score[seat], &regret,
                                     &counted, out->why, sizeof out->why);
            if (err != 0) {
                out->err = err;
                return;
            }
            if (counted) {
                p->regret_seat[p->n_regrets] = (int8_t)seat;
                p->regret[p->n_regrets++] = (int16_t)regret;
            }
        }
    }
}

typedef struct worker {
    pthread_t thread;
    arena *ar;
    timing tm;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    arena *ar = w->ar;
    /* A deal set once taken is always played, so that those before a
     * failure are all there when the results are read in order. */
    while (!atomic_load(&ar->stop)) {
        long k = atomic_fetch_add(&ar->next, 1);
        if (k >= ar->deal_sets)
            break;
        play_set(ar, ar->first + k, &w->tm, &ar->results[k]);
        if (ar->results[k].err != 0)
            atomic_store(&ar->stop, true);
    }
    return NULL;
}

/* ------------------------------------------------------------ statistics */

/* A running mean and variance (Welford), added to in deal-set order. */
typedef struct stat {
    long n;
    double mean, m2;
} stat;

static void stat_add(stat *st, double x)
{
    st->n++;
    double d = x - st->mean;
    st->mean += d / (double)st->n;
    st->m2 += d * (x - st->mean);
}

/* The half-width of the 95% confidence interval of the mean: Student's t
 * for few samples, where 1.96 would claim too much; NAN below two. */
static double stat_ci(const stat *st)
{
    static const double T975[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                  2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                  2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                  2.064, 2.060,  2.056, 2.052, 2.048, 2.045};
    if (st->n < 2)
        return NAN;
    double q = st->n < 30 ? T975[st->n - 1] : 1.96;
    return q * sqrt(st->m2 / (double)(st->n - 1) / (double)st->n);
}

static double stat_mean(const stat *st)
{
    return st->n > 0 ? st->mean : NAN;
}

typedef struct player_stats {
    stat points, doubling, regret;
    stat versus[4]; /* [q]: my points less player q's, on the deal sets we both played */
    long declarations;
    stat contract[N_MASKS];
    long contract_plays[N_MASKS];
    /* Times, from every thread. */
    long decisions;
    double sum_ms, max_ms;
    uint64_t hist[TIME_BUCKETS];
} player_stats;

/* Adds one deal set to the statistics of every player. */
static void add_set(const arena *ar, const set_result *sr, player_stats *ps)
{
    double mine[4];
    bool played[4] = {false};
    for (int p = 0; p < ar->n_players; p++) {
        double points = 0, doubling = 0, regret = 0;
        int seats = 0, regrets = 0;
        uint16_t masks[4];
        int n_masks = 0;
        for (int i = 0; i < sr->n_plays; i++) {
            const play_result *pl = &sr->play[i];
            double table = (pl->score[0] + pl->score[1] + pl->score[2] + pl->score[3]) / 4.0;
            bool sat = false;
            for (int seat = 0; seat < 4; seat++) {
                if (pl->player[seat] != p)
                    continue;
                sat = true;
                seats++;
                points += pl->score[seat] - table;
                doubling += pl->score[seat] - pl->raw[seat];
            }
            for (int j = 0; j < pl->n_regrets; j++) {
                if (pl->player[pl->regret_seat[j]] == p) {
                    regret += pl->regret[j];
                    regrets++;
                }
            }
            bool seen = false;
            for (int j = 0; j < n_masks; j++)
                seen |= masks[j] == pl->contracts;
            if (sat && !seen)
                masks[n_masks++] = pl->contracts;
        }
        if (seats == 0)
            continue;
        stat_add(&ps[p].points, points / seats);
        mine[p] = points / seats;
        played[p] = true;
        stat_add(&ps[p].doubling, doubling / seats);
        if (regrets > 0) {
            stat_add(&ps[p].regret, regret / regrets);
            ps[p].declarations += regrets;
        }
        /* By contract: the same mean, over the plays of that contract. */
        for (int j = 0; j < n_masks; j++) {
            double sum = 0;
            int n = 0;
            for (int i = 0; i < sr->n_plays; i++) {
                const play_result *pl = &sr->play[i];
                if (pl->contracts != masks[j])
                    continue;
                double table = (pl->score[0] + pl->score[1] + pl->score[2] + pl->score[3]) / 4.0;
                bool sat = false;
                for (int seat = 0; seat < 4; seat++) {
                    if (pl->player[seat] == p) {
                        sum += pl->score[seat] - table;
                        n++;
                        sat = true;
                    }
                }
                ps[p].contract_plays[masks[j]] += sat;
            }
            stat_add(&ps[p].contract[masks[j]], sum / n);
        }
    }
    /* Head to head: the difference of two players' points on one deal set,
     * whose interval is narrower than the two means' side by side, the
     * same cards' luck being in both. */
    for (int p = 0; p < ar->n_players; p++)
        for (int q = 0; q < ar->n_players; q++)
            if (p != q && played[p] && played[q])
                stat_add(&ps[p].versus[q], mine[p] - mine[q]);
}

static double median_ms(const player_stats *ps)
{
    uint64_t seen = 0, half = ((uint64_t)ps->decisions + 1) / 2;
    for (int b = 0; b < TIME_BUCKETS; b++) {
        seen += ps->hist[b];
        if (seen >= half && seen > 0)
            return bucket_ms(b);
    }
    return NAN;
}

/* The contract combinations that were played, single contracts first, each
 * group in the order of the rules. */
static int mask_order(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    int px = __builtin_popcount(x), py = __builtin_popcount(y);
    if (px != py)
        return px - py;
    for (unsigned m = 1; m < N_MASKS; m <<= 1)
        if ((x & m) != (y & m))
            return (x & m) ? -1 : 1;
    return 0;
}

static int played_masks(const arena *ar, const player_stats *ps, unsigned *masks)
{
    int n = 0;
    for (unsigned m = 0; m < N_MASKS; m++) {
        bool any = false;
        for (int p = 0; p < ar->n_players; p++)
            any |= ps[p].contract[m].n > 0;
        if (any)
            masks[n++] = m;
    }
    qsort(masks, (size_t)n, sizeof *masks, mask_order);
    return n;
}

/* "no-hearts", or "aces+queens" for a Fife combination. */
static void mask_key(const barbu_rules *rules, unsigned mask, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    if (mask == 0)
        snprintf(buf, cap, "none");
    for (unsigned m = mask; m && n < cap; m &= m - 1)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? "+" : "",
                              rules->contract[__builtin_ctz(m)].key);
}

/* ---------------------------------------------------------------- output */

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void json_number(FILE *out, double x)
{
    if (isnan(x))
        fprintf(out, "null");
    else
        fprintf(out, "%.4f", x);
}

static void json_stat(FILE *out, const stat *st)
{
    fprintf(out, "\"mean\":");
    json_number(out, stat_mean(st));
    fprintf(out, ",\"ci95\":");
    json_number(out, stat_ci(st));
}

static void print_json(const arena *ar, const char *rules_arg, const player_stats *ps, double wall)
{
    FILE *out = stdout;
    long plays = ar->deal_sets * ar->n_rotations;
    fprintf(out, "{\"rules\":");
    json_string(out, rules_arg);
    fprintf(out,
            ",\"seed\":%" PRIu64
            ",\"first\":%ld,\"deal_sets\":%ld,\"plays\":%ld,\"lineup\":[\"%s\",\"%s\",\"%s\","
            "\"%s\"],\"declare\":\"%s\",\"contract\":",
            ar->seed, ar->first, ar->deal_sets, plays, ar->lineup[0], ar->lineup[1], ar->lineup[2],
            ar->lineup[3], ar->free_declare ? "free" : "fixed");
    if (ar->contract >= 0)
        json_string(out, ar->rules->contract[ar->contract].key);
    else
        fprintf(out, "null");
    fprintf(out, ",\"regret\":%s,\"players\":[", ar->regret ? "true" : "false");
    unsigned masks[N_MASKS];
    int n_masks = played_masks(ar, ps, masks);
    for (int p = 0; p < ar->n_players; p++) {
        const player_stats *s = &ps[p];
        int seats = 0;
        for (int i = 0; i < 4; i++)
            seats += ar->lineup_player[i] == p;
        fprintf(out, "%s{\"player\":\"%s\",\"seats\":%d,\"points\":{", p ? "," : "", ar->player[p],
                seats);
        json_stat(out, &s->points);
        fprintf(out, ",\"deal_sets\":%ld},\"contracts\":[", s->points.n);
        bool first = true;
        for (int i = 0; i < n_masks; i++) {
            const stat *c = &s->contract[masks[i]];
            if (c->n == 0)
                continue;
            char key[128];
            mask_key(ar->rules, masks[i], key, sizeof key);
            fprintf(out, "%s{\"contract\":\"%s\",\"plays\":%ld,\"deal_sets\":%ld,",
                    first ? "" : ",", key, s->contract_plays[masks[i]], c->n);
            json_stat(out, c);
            fprintf(out, "}");
            first = false;
        }
        fprintf(out, "],\"doubling_gain\":{");
        json_stat(out, &s->doubling);
        fprintf(out, ",\"deal_sets\":%ld}", s->doubling.n);
        if (ar->regret) {
            fprintf(out, ",\"regret\":{\"declarations\":%ld,\"deal_sets\":%ld,", s->declarations,
                    s->regret.n);
            json_stat(out, &s->regret);
            fprintf(out, "}");
        }
        fprintf(out, ",\"versus\":[");
        first = true;
        for (int q = 0; q < ar->n_players; q++) {
            if (q == p)
                continue;
            fprintf(out, "%s{\"player\":\"%s\",", first ? "" : ",", ar->player[q]);
            json_stat(out, &s->versus[q]);
            fprintf(out, ",\"deal_sets\":%ld}", s->versus[q].n);
            first = false;
        }
        fprintf(out, "]");
        fprintf(out, ",\"decisions\":%ld,\"ms_mean\":", s->decisions);
        json_number(out, s->decisions ? s->sum_ms / (double)s->decisions : NAN);
        fprintf(out, ",\"ms_median\":");
        json_number(out, median_ms(s));
        fprintf(out, ",\"ms_max\":");
        json_number(out, s->decisions ? s->max_ms : NAN);
        fprintf(out, "}");
    }
    fprintf(out, "],\"wall_seconds\":%.3f}\n", wall);
}

/* One line of the table: a label, a mean with its interval and a count. */
static void print_row(int width, const char *label, const stat *st, bool sign, const char *count)
{
    printf("  %-*s", width, label);
    if (st->n == 0)
        printf(" %8s", "-");
    else
        printf(sign ? " %+8.2f" : " %8.2f", st->mean);
    double ci = stat_ci(st);
    if (isnan(ci))
        printf(" %7s", "-");
    else
        printf(" %7.2f", ci);
    printf("  %s\n", count);
}

static void print_text(const arena *ar, const char *rules_arg, const player_stats *ps, double wall,
                       int jobs)
{
    long plays = ar->deal_sets * ar->n_rotations;
    printf("barbu arena: rules %s, %ld deal sets, %ld plays, seed %" PRIu64 ", %d job%s, %.1f s\n",
           rules_arg, ar->deal_sets, plays, ar->seed, jobs, jobs == 1 ? "" : "s", wall);
    if (ar->first > 0)
        printf("deal sets %ld to %ld of the seed (--first)\n", ar->first,
               ar->first + ar->deal_sets - 1);
    printf("lineup: N %s, E %s, S %s, W %s; %d distinct rotation%s a deal\n", ar->lineup[0],
           ar->lineup[1], ar->lineup[2], ar->lineup[3], ar->n_rotations,
           ar->n_rotations == 1 ? "" : "s");
    if (ar->free_declare)
        printf("declarations: each declarer's own (--free)\n\n");
    else if (ar->contract >= 0)
        printf("declarations: %s only, a heuristic declarer's, the same in every rotation\n\n",
               ar->rules->contract[ar->contract].key);
    else
        printf("declarations: a heuristic declarer's, the same in every rotation\n\n");
    printf("Points per deal against the table mean, with 95%% confidence intervals over\n"
           "deal sets (the count is of deal sets).\n");
    unsigned masks[N_MASKS];
    int n_masks = played_masks(ar, ps, masks);
    /* The Fife game's combinations of Calls make long labels. */
    int width = 22;
    for (int i = 0; i < n_masks; i++) {
        char key[128];
        mask_key(ar->rules, masks[i], key, sizeof key);
        if ((int)strlen(key) + 2 > width)
            width = (int)strlen(key) + 2;
    }
    for (int p = 0; p < ar->n_players; p++) {
        const player_stats *s = &ps[p];
        char count[64];
        /* "±" is two bytes in one column, so the header is padded by hand. */
        printf("\n%-*s %8s    ±95%%  %s\n", width + 2, ar->player[p], "mean", "n");
        snprintf(count, sizeof count, "%ld", s->points.n);
        print_row(width, "all deals", &s->points, true, count);
        for (int i = 0; i < n_masks; i++) {
            const stat *c = &s->contract[masks[i]];
            if (c->n == 0)
                continue;
            char key[128], label[132];
            mask_key(ar->rules, masks[i], key, sizeof key);
            snprintf(label, sizeof label, "  %s", key);
            snprintf(count, sizeof count, "%ld", c->n);
            print_row(width, label, c, true, count);
        }
        snprintf(count, sizeof count, "%ld", s->doubling.n);
        print_row(width, "doubling gain", &s->doubling, true, count);
        if (ar->regret) {
            snprintf(count, sizeof count, "%ld (%ld declaration%s)", s->regret.n, s->declarations,
                     s->declarations == 1 ? "" : "s");
            print_row(width, "declaration regret", &s->regret, false, count);
        }
        /* With two players one is the other's mirror; with more, each
         * pair's difference. */
        for (int q = 0; q < ar->n_players && ar->n_players > 2; q++) {
            if (q == p)
                continue;
            char label[80];
            snprintf(label, sizeof label, "less %s", ar->player[q]);
            snprintf(count, sizeof count, "%ld", s->versus[q].n);
            print_row(width, label, &s->versus[q], true, count);
        }
        if (s->decisions > 0)
            printf("  %ld decisions: %.3g ms mean, %.3g ms median, %.3g ms max\n", s->decisions,
                   s->sum_ms / (double)s->decisions, median_ms(s), s->max_ms);
    }
}

/* ------------------------------------------------------------- the command */

static void list_kinds(FILE *out)
{
    for (int i = 0; barbu_bot_kind_name(i) != NULL; i++)
        fprintf(out, "%s, ", barbu_bot_kind_name(i));
    fprintf(out, "omniscient");
}

static bool known_kind(const char *kind)
{
    barbu_bot *probe = barbu_bot_new_tuned(kind, 0);
    barbu_bot_free(probe);
    return probe != NULL;
}

static int parse_count(const char *opt, const char *text, long min, long max, long *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "barbu arena: %s takes a number from %ld to %ld, not '%s'\n", opt, min, max,
                text);
        return 2;
    }
    *out = v;
    return 0;
}

/* Fills in the players and the rotations to play from the lineup. */
static void setup_lineup(arena *ar)
{
    for (int i = 0; i < 4; i++) {
        int p = 0;
        while (p < ar->n_players && strcmp(ar->player[p], ar->lineup[i]) != 0)
            p++;
        if (p == ar->n_players)
            ar->player[ar->n_players++] = ar->lineup[i];
        ar->lineup_player[i] = p;
    }
    /* A rotation that seats the same players as an earlier one would only
     * repeat its play: A B A B has two distinct seatings, A A A A one. */
    for (int r = 0; r < 4; r++) {
        bool repeat = false;
        for (int j = 0; j < ar->n_rotations && !repeat; j++) {
            int q = ar->rotation[j];
            bool same = true;
            for (int s = 0; s < 4; s++)
                same &= ar->lineup_player[(s + r) % 4] == ar->lineup_player[(s + q) % 4];
            repeat = same;
        }
        if (!repeat)
            ar->rotation[ar->n_rotations++] = r;
    }
}

int cmd_arena(int argc, char **argv)
{
    const char *rules_arg = "uk", *names[4];
    int n_names = 0;
    long deal_sets = DEFAULT_DEAL_SETS, jobs = 0, first = 0;
    uint64_t seed = DEFAULT_SEED;
    bool json = false, regret = false, free_declare = false;
    const char *contract_arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--regret") == 0) {
            regret = true;
        } else if (strcmp(a, "--free") == 0) {
            free_declare = true;
        } else if (strcmp(a, "--contract") == 0 && has_value) {
            contract_arg = argv[++i];
        } else if (strcmp(a, "--rules") == 0 && has_value) {
            rules_arg = argv[++i];
        } else if (strcmp(a, "--seed") == 0 && has_value) {
            if (cli_parse_seed(argv[++i], &seed) != 0) {
                fprintf(stderr, "barbu arena: --seed takes a whole number, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--deal-sets") == 0 && has_value) {
            if (parse_count(a, argv[++i], 1, MAX_DEAL_SETS, &deal_sets) != 0)
                return 2;
        } else if (strcmp(a, "--first") == 0 && has_value) {
            if (parse_count(a, argv[++i], 0, MAX_DEAL_SETS, &first) != 0)
                return 2;
        } else if (strcmp(a, "--jobs") == 0 && has_value) {
            if (parse_count(a, argv[++i], 1, MAX_JOBS, &jobs) != 0)
                return 2;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "barbu arena: unknown option '%s'%s\n\n", a,
                    has_value ? "" : " (or it needs a value)");
            usage(stderr);
            return 2;
        } else if (n_names == 4) {
            fprintf(stderr, "barbu arena: two players or four, not more\n");
            return 2;
        } else {
            names[n_names++] = a;
        }
    }
    if (n_names != 2 && n_names != 4) {
        fprintf(stderr, "barbu arena: give two players (A B sit A B A B) or four (N E S W)\n\n");
        usage(stderr);
        return 2;
    }
    for (int i = 0; i < n_names; i++) {
        if (!known_kind(names[i])) {
            fprintf(stderr, "barbu arena: unknown player '%s'; the players are ", names[i]);
            list_kinds(stderr);
            fprintf(stderr, "\n");
            return 2;
        }
    }
    barbu_rules rules;
    if (cli_load_rules(rules_arg, &rules) != 0)
        return 2;

    int contract = -1;
    if (contract_arg != NULL) {
        for (int c = 0; c < rules.n_contracts; c++)
            if (strcmp(rules.contract[c].key, contract_arg) == 0)
                contract = c;
        if (contract < 0) {
            fprintf(stderr, "barbu arena: no contract '%s' in rules %s; its contracts are",
                    contract_arg, rules_arg);
            for (int c = 0; c < rules.n_contracts; c++)
                fprintf(stderr, "%s %s", c ? "," : "", rules.contract[c].key);
            fprintf(stderr, "\n");
            return 2;
        }
        if (free_declare || regret) {
            fprintf(stderr, "barbu arena: --contract fixes the declaration, which --free and "
                            "--regret leave to the players\n");
            return 2;
        }
    }
    arena ar = {.rules = &rules,
                .contract = contract,
                .seed = seed,
                .first = first,
                .deal_sets = deal_sets,
                .regret = regret,
                .free_declare = free_declare || regret};
    for (int i = 0; i < 4; i++)
        ar.lineup[i] = names[n_names == 2 ? i % 2 : i];
    setup_lineup(&ar);
    atomic_init(&ar.next, 0);
    atomic_init(&ar.stop, false);
    if (jobs == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = cpus < 1 ? 1 : cpus > MAX_JOBS ? MAX_JOBS : cpus;
    }
    if (jobs > deal_sets)
        jobs = deal_sets;
    ar.results = calloc((size_t)deal_sets, sizeof *ar.results);
    worker *workers = calloc((size_t)jobs, sizeof *workers);
    player_stats *ps = calloc(4, sizeof *ps);
    if (ar.results == NULL || workers == NULL || ps == NULL) {
        fprintf(stderr, "barbu arena: out of memory\n");
        free(ar.results);
        free(workers);
        free(ps);
        return 1;
    }

    double t0 = now();
    int started = 0, status = 0;
    for (; started < jobs; started++) {
        workers[started].ar = &ar;
        if (pthread_create(&workers[started].thread, NULL, work, &workers[started]) != 0)
            break;
    }
    if (started == 0) {
        /* No thread could be made: the deal sets are played here. */
        workers[0].ar = &ar;
        work(&workers[0]);
        started = 1;
        jobs = 1;
    } else {
        for (int i = 0; i < started; i++)
            pthread_join(workers[i].thread, NULL);
        jobs = started;
    }
    double wall = now() - t0;

    for (long k = 0; k < deal_sets && status == 0; k++) {
        if (ar.results[k].err != 0) {
            fprintf(stderr, "barbu arena: deal set %ld: %s\n", first + k, ar.results[k].why);
            status = 1;
        } else {
            add_set(&ar, &ar.results[k], ps);
        }
    }
    for (int i = 0; i < started && status == 0; i++) {
        for (int p = 0; p < ar.n_players; p++) {
            const timing *tm = &workers[i].tm;
            ps[p].decisions += tm->n[p];
            ps[p].sum_ms += tm->sum_ms[p];
            if (tm->max_ms[p] > ps[p].max_ms)
                ps[p].max_ms = tm->max_ms[p];
            for (int b = 0; b < TIME_BUCKETS; b++)
                ps[p].hist[b] += tm->hist[p][b];
        }
    }
    if (status == 0) {
        if (json)
            print_json(&ar, rules_arg, ps, wall);
        else
            print_text(&ar, rules_arg, ps, wall, (int)jobs);
    }
    free(ar.results);
    free(workers);
    free(ps);
    return status;
}
