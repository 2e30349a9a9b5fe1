/*
 * fife_deals.c - data for the heuristic player's Call estimates (seed 000):
 * random deals, each played at every single Call by four heuristic players
 * with seat 0 as the Caller, one line per deal: the Caller's hand (hex), its
 * score at each Call (Aces, King of Hearts, Queens, Hearts, Tricks,
 * Patience) and the estimate of play-outs with the simple policy of the
 * heuristic player's simulations (bb_h_playout) for the same hand; then its score at The Lot (the
 * five negative Calls in one deal), to see how far a combination scores the sum of its parts.
 *
 * Not part of the CMake build.  From the repository root, after building
 * into /tmp/build-ai:
 *
 *   cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude bench/fife_deals.c \
 *      /tmp/build-ai/libbarbu_ai.a /tmp/build-ai/libbarbu_engine.a -o /tmp/fife_deals
 *   /tmp/fife_deals --deals 10000 --seed 1 > /tmp/fife-deals.txt
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/ai/internal.h"

/*
 * Play-outs of whole Fife deals for a hand, at the Calls: a Player Round's
 * first deal before its Call, with a Caller (play starts on the Caller's
 * left), whose hands are set for each play-out.
 */
typedef struct fife_sim {
    barbu_state proto;
    int silly; /* Patience groups go down at any time, as in the Silly Round */
} fife_sim;

static int sim_init(fife_sim *fs, const barbu_rules *rules, int caller, int silly)
{
    int err = barbu_init(&fs->proto, rules, 1);
    if (err == 0)
        err = barbu_set_first(&fs->proto, caller);
    fs->silly = silly;
    return err;
}

static int sim_play(const fife_sim *fs, const barbu_cards hands[4], unsigned calls,
                    const bb_policy *x, barbu_rng *rng, barbu_state *out)
{
    *out = fs->proto;
    int err = barbu_set_hands(out, hands);
    if (err != 0)
        return err;
    /* A Single Patience is the first one in a Round's first deal. */
    if (calls == (1u << BARBU_CALL_PAT2))
        calls = 1u << BARBU_CALL_PAT1;
    barbu_action a = barbu_act(BARBU_ACT_DECLARE, out->t.declarer);
    a.contracts = (uint16_t)calls;
    err = barbu_apply(out, &a);
    if (err != 0)
        return err;
    /* The Silly Round's Patience lets groups go down at any time; nothing
     * else in play depends on the Round. */
    if (fs->silly)
        out->t.round = BARBU_SILLY_ROUND;
    barbu_truncate(out);
    bb_h_playout(x, out, rng);
    return 0;
}

static void deal_rest(const barbu_rules *rules, barbu_cards mine, int me, barbu_rng *rng,
                      barbu_cards hands[4])
{
    int cards[52], n = 0;
    for (barbu_cards o = bb_h_deck(rules) & ~mine; o; o &= o - 1)
        cards[n++] = bb_h_lowest(o);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)barbu_rng_below(rng, (uint32_t)i + 1);
        int c = cards[j];
        cards[j] = cards[i];
        cards[i] = c;
    }
    int per = n / 3, next = 0;
    for (int s = 0; s < 4; s++) {
        hands[s] = s == me ? mine : 0;
        if (s == me)
            continue;
        for (int i = 0; i < per; i++)
            hands[s] |= BARBU_BIT(cards[next++]);
    }
}

static void call_values(const barbu_rules *rules, barbu_cards hand, int samples, barbu_rng *rng,
                        double value[BARBU_CALLS])
{
    fife_sim fs;
    for (int c = 0; c < BARBU_CALLS; c++)
        value[c] = 0.0;
    if (sim_init(&fs, rules, 0, 0) != 0 || samples <= 0)
        return;
    bb_policy x[BARBU_CALLS];
    for (int c = 0; c <= BARBU_CALL_PAT1; c++)
        bb_h_policy_init(&x[c], rules, 1u << c);
    int done = 0;
    for (int i = 0; i < samples; i++) {
        barbu_cards hands[4];
        deal_rest(rules, hand, 0, rng, hands);
        barbu_state s;
        for (int c = 0; c <= BARBU_CALL_PAT1; c++) {
            if (sim_play(&fs, hands, 1u << c, &x[c], rng, &s) != 0)
                return;
            value[c] += s.t.last.score[0];
        }
        done++;
    }
    for (int c = 0; c <= BARBU_CALL_PAT1; c++)
        value[c] /= done;
    value[BARBU_CALL_PAT2] = value[BARBU_CALL_PAT1];
}

/* The deal played at the Call by heuristic players; the Caller's score. */
static int play_call(const barbu_rules *rules, const barbu_cards hands[4], unsigned call,
                     uint64_t seed, int *score)
{
    barbu_state s;
    if (barbu_init(&s, rules, seed) != 0 || barbu_set_first(&s, 0) != 0 ||
        barbu_set_hands(&s, hands) != 0)
        return -1;
    barbu_action a = barbu_act(BARBU_ACT_DECLARE, 0);
    a.contracts = (uint16_t)call;
    if (barbu_apply(&s, &a) != 0)
        return -1;
    barbu_truncate(&s);
    barbu_bot *bots[4];
    for (int i = 0; i < 4; i++)
        bots[i] = barbu_bot_new("heuristic", seed * 4 + (uint64_t)i);
    int err = 0;
    while (err == 0 && !barbu_over(&s)) {
        barbu_view v;
        barbu_view_of(&s, s.t.to_move, &v);
        err = barbu_bot_choose(bots[s.t.to_move], &v, &a);
        if (err == 0)
            err = barbu_apply(&s, &a);
    }
    for (int i = 0; i < 4; i++)
        barbu_bot_free(bots[i]);
    *score = s.t.last.score[0];
    return err;
}

int main(int argc, char **argv)
{
    long deals = 1000;
    uint64_t seed = 1;
    int samples = 64;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--deals") == 0)
            deals = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--seed") == 0)
            seed = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--samples") == 0)
            samples = atoi(argv[i + 1]);
    }
    barbu_rules rules;
    barbu_rules_preset(&rules, "fife");
    for (long d = 0; d < deals; d++) {
        barbu_rng rng;
        barbu_rng_seed(&rng, seed * 1000003 + (uint64_t)d);
        barbu_cards hands[4];
        barbu_cards deck = bb_h_deck(&rules);
        int cards[32], n = 0;
        for (barbu_cards x = deck; x; x &= x - 1)
            cards[n++] = bb_h_lowest(x);
        for (int i = n - 1; i > 0; i--) {
            int j = (int)barbu_rng_below(&rng, (uint32_t)i + 1), c = cards[j];
            cards[j] = cards[i];
            cards[i] = c;
        }
        for (int s = 0; s < 4; s++) {
            hands[s] = 0;
            for (int i = 0; i < 8; i++)
                hands[s] |= BARBU_BIT(cards[s * 8 + i]);
        }
        int score[6];
        for (int c = 0; c < 6; c++)
            if (play_call(&rules, hands, 1u << c, seed * 7919 + (uint64_t)d, &score[c]) != 0)
                return 1;
        int lot;
        if (play_call(&rules, hands, BARBU_CALLS_NEGATIVE, seed * 7919 + (uint64_t)d, &lot) != 0)
            return 1;
        double est[BARBU_CALLS];
        call_values(&rules, hands[0], samples, &rng, est);
        printf("%016" PRIx64, hands[0]);
        for (int c = 0; c < 6; c++)
            printf(" %d", score[c]);
        for (int c = 0; c < 6; c++)
            printf(" %.2f", est[c]);
        printf(" %d\n", lot);
        fflush(stdout);
    }
    return 0;
}
