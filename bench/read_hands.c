/*
 * read_hands.c - what the expert's models of the others' choices tell about
 * the hands it cannot see (docs/internals.md, "The expert").
 *
 *   build/bench_read_hands bids GAMES PLAYER BID_TEMP...
 *   build/bench_read_hands plays GAMES PLAYER MODEL:HISTORY...
 *   build/bench_read_hands trick GAMES PLAYER MODEL:MODEL_NOISE...
 *
 * Plays GAMES uk games (seeds 900000 on), PLAYER (a kind
 * barbu_bot_new_tuned takes, such as medium) bidding and playing the cards,
 * easy declaring.  At some positions it weighs, for each seat, the true
 * deal and 300 deals the seat could sample (bb_h_deal_sample: every void
 * shown is already in them) with a model, and prints the mean over the
 * positions of log(w(truth) / mean of w(samples)): how many nats more
 * likely the truth is once the deals are weighted; 0 for a model that
 * tells nothing, below 0 for one that misleads.
 *
 *   bids:  at the first card of each deal but Domino's; first the
 *          declaration's model (medium's decl_temp), then for each
 *          BID_TEMP the bids' soft model added to it, and alone.
 *   plays: at the start of the 4th, 7th and 10th tricks of the trick
 *          contracts, each seat having kept every trick (bb_record); the
 *          plays of the deal so far under each model (1 the fast policy,
 *          2 the rules of thumb) followed with probability 1 - HISTORY per
 *          mille, alone.
 *   trick: the same tricks when three cards of them are down: the plays to
 *          the trick under way alone (as medium and hard weigh them),
 *          followed with probability 1 - MODEL_NOISE per mille.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barbu/ai.h"
#include "internal.h"

#define SAMPLES  300
#define MAX_ARGS 16

/* log(w(truth) / mean w(samples)) under `level`. */
static double read_score(const bb_level *level, const barbu_view *v, const bb_record *rec,
                         const barbu_cards truth[4], barbu_cards (*samples)[4], int n)
{
    double mean = 0.0;
    for (int i = 0; i < n; i++)
        mean += bb_expert_deal_weight(level, v, rec, samples[i]);
    return log(bb_expert_deal_weight(level, v, rec, truth) / (mean / n));
}

static int usage(void)
{
    fprintf(stderr,
            "usage: bench_read_hands bids GAMES PLAYER BID_TEMP...\n"
            "       bench_read_hands plays GAMES PLAYER MODEL:HISTORY...\n"
            "(at most %d settings)\n",
            MAX_ARGS);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 5 || argc - 4 > MAX_ARGS)
        return usage();
    bool bids = strcmp(argv[1], "bids") == 0, trick = strcmp(argv[1], "trick") == 0;
    if (!bids && !trick && strcmp(argv[1], "plays") != 0)
        return usage();
    int games = atoi(argv[2]);
    const char *player = argv[3];
    int nset = argc - 4;
    bb_level set[MAX_ARGS];
    bb_level plain = BB_MEDIUM; /* weighs nothing */
    plain.model = 0;
    plain.decl_temp = plain.bid_temp = plain.bid_noise = plain.history = 0;
    bb_level decl = plain;
    decl.decl_temp = BB_MEDIUM.decl_temp;
    for (int j = 0; j < nset; j++) {
        set[j] = plain;
        if (bids) {
            set[j].bid_temp = atoi(argv[4 + j]);
        } else {
            int *noise = trick ? &set[j].model_noise : &set[j].history;
            if (sscanf(argv[4 + j], "%d:%d", &set[j].model, noise) != 2 || set[j].model < 1 ||
                set[j].model > 2 || *noise <= 0 || *noise >= 1000)
                return usage();
        }
    }
    if (games <= 0)
        return usage();
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    static barbu_cards samples[SAMPLES][4];
    double sum_decl = 0.0, sum_with[MAX_ARGS] = {0}, sum_alone[MAX_ARGS] = {0};
    int positions = 0, doubled = 0;
    for (int g = 0; g < games; g++) {
        uint64_t seed = 900000 + (uint64_t)g;
        barbu_state s;
        barbu_init(&s, &rules, seed);
        barbu_bot *easy = barbu_bot_new("easy", seed);
        barbu_bot *bot = barbu_bot_new_tuned(player, seed);
        if (easy == NULL || bot == NULL) {
            fprintf(stderr, "bench_read_hands: unknown player %s\n", player);
            return 2;
        }
        bb_record rec[4];
        memset(rec, 0, sizeof rec);
        while (!barbu_over(&s)) {
            barbu_view v;
            for (int me = 0; me < 4; me++) {
                barbu_view_of(&s, me, &v);
                bb_record_see(&rec[me], &v);
            }
            bool trick_kind = s.t.kind == BARBU_KIND_TRICKS || s.t.kind == BARBU_KIND_TRUMPS;
            bool at =
                s.t.phase == BARBU_PHASE_PLAY && s.t.trick.n == (trick ? 3 : 0) &&
                (bids ? s.t.ntricks == 0 && s.t.kind != BARBU_KIND_DOMINO
                      : trick_kind && (s.t.ntricks == 3 || s.t.ntricks == 6 || s.t.ntricks == 9));
            if (at) {
                doubled += (s.t.dbl[0] | s.t.dbl[1] | s.t.dbl[2] | s.t.dbl[3]) != 0;
                for (int me = 0; me < 4; me++) {
                    barbu_view_of(&s, me, &v);
                    bb_know k;
                    bb_h_know(&v, &k);
                    barbu_rng rng;
                    barbu_rng_seed(&rng,
                                   seed * 131 + (uint64_t)(me + 7 * (s.t.deal * 16 + s.t.ntricks)));
                    int n = 0;
                    for (int i = 0; i < SAMPLES; i++)
                        n += bb_h_deal_sample(&k, &rng, samples[n]) ? 1 : 0;
                    if (n == 0)
                        continue;
                    double base = 0.0;
                    if (bids) {
                        base = read_score(&decl, &v, NULL, s.hand, samples, n);
                        sum_decl += base;
                    }
                    for (int j = 0; j < nset; j++) {
                        sum_alone[j] += read_score(&set[j], &v, &rec[me], s.hand, samples, n);
                        if (bids) {
                            bb_level with = set[j];
                            with.decl_temp = decl.decl_temp;
                            sum_with[j] +=
                                read_score(&with, &v, &rec[me], s.hand, samples, n) - base;
                        }
                    }
                    positions++;
                }
            }
            barbu_action a;
            barbu_bot *b = s.t.phase == BARBU_PHASE_DECLARE ? easy : bot;
            barbu_view_of(&s, s.t.to_move, &v);
            if (barbu_bot_choose(b, &v, &a) != 0 || barbu_apply(&s, &a) != 0) {
                fprintf(stderr, "bench_read_hands: game %llu went wrong\n",
                        (unsigned long long)seed);
                return 1;
            }
        }
        barbu_bot_free(easy);
        barbu_bot_free(bot);
    }
    if (positions == 0)
        return 1;
    printf("%d positions (%d deals with a double), %s bidding and playing\n", positions, doubled,
           player);
    if (bids)
        printf("the declaration's model: %+.3f nats a position\n", sum_decl / positions);
    for (int j = 0; j < nset; j++) {
        if (bids)
            printf("bid_temp=%s: the bids add %+.3f nats (alone %+.3f)\n", argv[4 + j],
                   sum_with[j] / positions, sum_alone[j] / positions);
        else
            printf("model:%s %s: %+.3f nats a position\n", trick ? "model_noise" : "history",
                   argv[4 + j], sum_alone[j] / positions);
    }
    return 0;
}
