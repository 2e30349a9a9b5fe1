/*
 * test_expert.c - the expert player (medium, hard) and the omniscient
 * reference player: legal choices in every rule set, choices that depend
 * only on the view, the same choice on any number of threads, an
 * omniscient player that no view-taking caller can use, the weights the
 * expert gives sampled deals (the declaration, the bids), tuned players for
 * measurement, a choice among some of the legal actions, and the layout's
 * rule of thumb in a state as the heuristic plays it from its view.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/ai/internal.h"
#include "barbu/ai.h"

/* Plays the first deal of a preset: `kind` at seat 0, heuristic players at
 * the others; every action the expert takes must be legal. */
static void play_first_deal(const char *preset, const char *kind, uint64_t seed)
{
    barbu_rules rules;
    assert_int_equal(barbu_rules_preset(&rules, preset), 0);
    barbu_state s;
    assert_int_equal(barbu_init(&s, &rules, seed), 0);
    barbu_bot *bots[4];
    for (int i = 0; i < 4; i++) {
        bots[i] = barbu_bot_new(i == 0 ? kind : "easy", seed * 4 + (uint64_t)i);
        assert_non_null(bots[i]);
    }
    int decisions = 0;
    while (s.t.deal == 0 && !barbu_over(&s)) {
        int seat = s.t.to_move;
        barbu_view v;
        barbu_action a;
        barbu_view_of(&s, seat, &v);
        assert_int_equal(barbu_bot_choose(bots[seat], &v, &a), 0);
        assert_int_equal(barbu_check(&s, &a), 0);
        assert_int_equal(barbu_apply(&s, &a), 0);
        decisions += seat == 0;
    }
    assert_true(decisions > 0);
    for (int i = 0; i < 4; i++)
        barbu_bot_free(bots[i]);
}

static void test_medium_every_preset(void **state)
{
    (void)state;
    for (int i = 0; barbu_preset_name(i) != NULL; i++)
        play_first_deal(barbu_preset_name(i), "medium", 11 + (uint64_t)i);
}

static void test_hard_plays(void **state)
{
    (void)state;
    play_first_deal("classic", "hard", 5);
    play_first_deal("uk-32", "hard", 6);
}

/* A state where seat 0 is to lead its first card of a declared, doubled
 * deal of the uk preset. */
static void first_lead(barbu_state *s, const barbu_rules *rules, uint64_t seed)
{
    assert_int_equal(barbu_init(s, rules, seed), 0);
    barbu_bot *easy = barbu_bot_new("easy", seed);
    while (s->t.phase != BARBU_PHASE_PLAY) {
        barbu_view v;
        barbu_action a;
        barbu_view_of(s, s->t.to_move, &v);
        assert_int_equal(barbu_bot_choose(easy, &v, &a), 0);
        assert_int_equal(barbu_apply(s, &a), 0);
    }
    barbu_bot_free(easy);
}

/* The expert reads only its view: two deals that differ only in the cards
 * the seat cannot see give the same choice. */
static void test_view_only(void **state)
{
    (void)state;
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    for (uint64_t seed = 1; seed <= 6; seed++) {
        barbu_state s;
        first_lead(&s, &rules, seed);
        int me = s.t.to_move;
        int a = (me + 1) & 3, b = (me + 2) & 3;
        /* Swap one card between two other hands. */
        barbu_state t = s;
        barbu_cards ca = t.hand[a] & (~t.hand[a] + 1), cb = t.hand[b] & (~t.hand[b] + 1);
        t.hand[a] = (t.hand[a] & ~ca) | cb;
        t.hand[b] = (t.hand[b] & ~cb) | ca;
        t.dealt[a] = (t.dealt[a] & ~ca) | cb;
        t.dealt[b] = (t.dealt[b] & ~cb) | ca;
        barbu_view vs, vt;
        barbu_view_of(&s, me, &vs);
        barbu_view_of(&t, me, &vt);
        barbu_action x, y;
        barbu_bot *bx = barbu_bot_new("medium", seed), *by = barbu_bot_new("medium", seed);
        assert_int_equal(barbu_bot_choose(bx, &vs, &x), 0);
        assert_int_equal(barbu_bot_choose(by, &vt, &y), 0);
        assert_true(barbu_action_equal(&x, &y));
        barbu_bot_free(bx);
        barbu_bot_free(by);
    }
}

/* The same seed and view give the same choice on one thread or three. */
static void test_threads_agree(void **state)
{
    (void)state;
    barbu_rules rules;
    barbu_rules_preset(&rules, "classic");
    for (uint64_t seed = 1; seed <= 4; seed++) {
        barbu_state s;
        first_lead(&s, &rules, seed);
        barbu_view v;
        barbu_view_of(&s, s.t.to_move, &v);
        barbu_bot *one = barbu_bot_new("medium", 77), *three = barbu_bot_new("medium", 77);
        barbu_bot_set_threads(three, 3);
        barbu_action x, y;
        assert_int_equal(barbu_bot_choose(one, &v, &x), 0);
        assert_int_equal(barbu_bot_choose(three, &v, &y), 0);
        assert_true(barbu_action_equal(&x, &y));
        barbu_bot_free(one);
        barbu_bot_free(three);
    }
}

/* A player that solves by max^n, at the end of its play-outs and from four
 * cards a hand on: every choice of the first deals of two presets is legal
 * and the same on one thread and three (each thread has its own solver and
 * table, and max^n's ties are drawn from the deal's own generator). */
static void test_maxn_player(void **state)
{
    (void)state;
    static const char *const presets[] = {"uk", "king"};
    const char *spec = "medium:maxn=1,solve_from=4,maxn_from=4,budget=200000";
    for (int p = 0; p < 2; p++) {
        barbu_rules rules;
        assert_int_equal(barbu_rules_preset(&rules, presets[p]), 0);
        barbu_state s;
        assert_int_equal(barbu_init(&s, &rules, 40 + (uint64_t)p), 0);
        barbu_bot *one = barbu_bot_new_tuned(spec, 9), *three = barbu_bot_new_tuned(spec, 9);
        barbu_bot *easy = barbu_bot_new("easy", 9);
        assert_non_null(one);
        assert_non_null(three);
        barbu_bot_set_threads(three, 3);
        int decisions = 0;
        while (s.t.deal == 0 && !barbu_over(&s)) {
            barbu_view v;
            barbu_action x, y;
            barbu_view_of(&s, s.t.to_move, &v);
            if (s.t.to_move == 0) {
                assert_int_equal(barbu_bot_choose(one, &v, &x), 0);
                assert_int_equal(barbu_bot_choose(three, &v, &y), 0);
                assert_true(barbu_action_equal(&x, &y));
                decisions++;
            } else {
                assert_int_equal(barbu_bot_choose(easy, &v, &x), 0);
            }
            assert_int_equal(barbu_check(&s, &x), 0);
            assert_int_equal(barbu_apply(&s, &x), 0);
        }
        assert_true(decisions >= 13);
        barbu_bot_free(one);
        barbu_bot_free(three);
        barbu_bot_free(easy);
    }
}

/* The omniscient player exists only for measurement: barbu_bot_new never
 * makes it (so no server table can seat it), a view is refused, and from
 * the whole state it plays legally. */
static void test_omniscient(void **state)
{
    (void)state;
    assert_null(barbu_bot_new("omniscient", 1));
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    barbu_state s;
    first_lead(&s, &rules, 3);
    barbu_bot *o = barbu_omniscient_new(1);
    assert_non_null(o);
    assert_string_equal(barbu_bot_kind(o), "omniscient");
    barbu_view v;
    barbu_action a;
    barbu_view_of(&s, s.t.to_move, &v);
    assert_int_equal(barbu_bot_choose(o, &v, &a), BARBU_EINVAL);
    int deal = s.t.deal;
    /* A deal of four at a small budget (the default searches as hard). */
    barbu_bot *quick = barbu_bot_new_tuned("omniscient:budget=20000,max_deals=16", 1);
    assert_non_null(quick);
    assert_int_equal(barbu_omniscient_choose(o, &s, &a), 0);
    while (s.t.deal == deal) {
        assert_int_equal(barbu_omniscient_choose(quick, &s, &a), 0);
        assert_int_equal(barbu_apply(&s, &a), 0);
    }
    barbu_bot_free(quick);
    barbu_bot_free(o);
    for (int i = 0; barbu_bot_kind_name(i) != NULL; i++)
        assert_string_not_equal(barbu_bot_kind_name(i), "omniscient");
}

/* A seat not to move is refused, as for every bot. */
static void test_not_to_move(void **state)
{
    (void)state;
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    barbu_state s;
    first_lead(&s, &rules, 2);
    barbu_view v;
    barbu_view_of(&s, (s.t.to_move + 1) & 3, &v);
    barbu_bot *m = barbu_bot_new("medium", 1);
    barbu_action a;
    assert_int_equal(barbu_bot_choose(m, &v, &a), BARBU_ETURN);
    barbu_bot_free(m);
}

/* Plays heuristic players from a new game of the preset until `stop` says
 * so (or the game ends). */
static void play_until(barbu_state *s, const barbu_rules *rules, uint64_t seed,
                       bool (*stop)(const barbu_state *s))
{
    assert_int_equal(barbu_init(s, rules, seed), 0);
    barbu_bot *easy = barbu_bot_new("easy", seed);
    while (!barbu_over(s) && !stop(s)) {
        barbu_view v;
        barbu_action a;
        barbu_view_of(s, s->t.to_move, &v);
        assert_int_equal(barbu_bot_choose(easy, &v, &a), 0);
        assert_int_equal(barbu_apply(s, &a), 0);
    }
    barbu_bot_free(easy);
}

static bool at_play(const barbu_state *s)
{
    return s->t.phase == BARBU_PHASE_PLAY;
}

static bool at_bid(const barbu_state *s)
{
    return s->t.phase == BARBU_PHASE_BID;
}

/*
 * What an analysis reads of a bid is the expected settled score of each
 * one: the margin a voluntary double must clear moves the choice, not the
 * values, so the same search with a margin ten times wider weighs every
 * bid the same.
 */
static void test_bid_means(void **state)
{
    (void)state;
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    bb_level level = BB_MEDIUM;
    level.budget /= 10;
    level.max_deals = 48;
    bb_level wide = level;
    wide.bid_margin = 50;
    int doubles = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        barbu_state s;
        play_until(&s, &rules, seed, at_bid);
        if (barbu_over(&s))
            continue;
        barbu_view v;
        barbu_view_of(&s, s.t.to_move, &v);
        bb_estimates x, y;
        memset(&x, 0, sizeof x);
        memset(&y, 0, sizeof y);
        barbu_rng r1, r2;
        barbu_rng_seed(&r1, seed);
        barbu_rng_seed(&r2, seed);
        assert_int_equal(bb_expert_estimate(&level, 1, &r1, &v, NULL, &x), 0);
        assert_int_equal(bb_expert_estimate(&wide, 1, &r2, &v, NULL, &y), 0);
        assert_int_equal(x.n, y.n);
        for (int c = 0; c < x.n; c++) {
            assert_true(barbu_action_equal(&x.cand[c], &y.cand[c]));
            assert_true(x.value[c] == y.value[c]);
            doubles += x.cand[c].doubles != 0;
        }
    }
    assert_true(doubles > 0);
}

/* The declarer's choice tells about its hand: after Trumps in hearts, a
 * deal that gives the declarer the long hearts weighs more than one that
 * gives them to another seat. */
static void test_declaration_weight(void **state)
{
    (void)state;
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    int trumps = -1;
    for (int c = 0; c < rules.n_contracts; c++)
        if (rules.contract[c].kind == BARBU_KIND_TRUMPS)
            trumps = c;
    assert_true(trumps >= 0);
    int checked = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &rules, seed), 0);
        int decl = s.t.to_move;
        barbu_cards hearts = BARBU_SUIT_CARDS(BARBU_HEARTS);
        /* The declarer is long in hearts, the seat across short. */
        int other = (decl + 2) & 3;
        if (barbu_count(s.hand[decl] & hearts) < 5 || barbu_count(s.hand[other] & hearts) > 2)
            continue;
        barbu_action a = barbu_act_declare(decl, trumps, BARBU_HEARTS, 0);
        assert_int_equal(barbu_apply(&s, &a), 0);
        int me = (decl + 1) & 3;
        barbu_view v;
        barbu_view_of(&s, me, &v);
        /* The true deal, and the declarer's and the other's hands
         * exchanged (both the same size). */
        barbu_cards swapped[4] = {s.hand[0], s.hand[1], s.hand[2], s.hand[3]};
        swapped[decl] = s.hand[other];
        swapped[other] = s.hand[decl];
        bb_level level = BB_MEDIUM;
        double truth = bb_expert_deal_weight(&level, &v, NULL, s.hand);
        double other_way = bb_expert_deal_weight(&level, &v, NULL, swapped);
        assert_true(truth > 0.0 && other_way >= 0.0);
        assert_true(truth > 3.0 * other_way);
        /* Without the model, the two weigh the same. */
        level.decl_temp = 0;
        assert_true(bb_expert_deal_weight(&level, &v, NULL, s.hand) ==
                    bb_expert_deal_weight(&level, &v, NULL, swapped));
        checked++;
    }
    assert_true(checked >= 3);
}

/* The bids: replayed on the true hands, every bid of a heuristic player is
 * the model's, so no other deal weighs more than the true one, and some
 * weigh less. */
static void test_bid_weight(void **state)
{
    (void)state;
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    bb_level level = BB_MEDIUM;
    level.bid_noise = 300;
    level.bid_temp = 0; /* the hard model of bid_noise, not the soft one */
    level.decl_temp = 0;
    level.model = 0;
    int less = 0, games = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        barbu_state s;
        play_until(&s, &rules, seed, at_play);
        if (barbu_over(&s))
            continue;
        games++;
        for (int me = 0; me < 4; me++) {
            barbu_view v;
            barbu_view_of(&s, me, &v);
            double truth = bb_expert_deal_weight(&level, &v, NULL, s.hand);
            bb_know k;
            bb_h_know(&v, &k);
            barbu_rng rng;
            barbu_rng_seed(&rng, seed * 4 + (uint64_t)me);
            for (int i = 0; i < 20; i++) {
                barbu_cards hands[4];
                assert_true(bb_h_deal_sample(&k, &rng, hands));
                double w = bb_expert_deal_weight(&level, &v, NULL, hands);
                assert_true(w <= truth * (1.0 + 1e-9));
                less += w < truth * (1.0 - 1e-9);
            }
        }
    }
    assert_true(games >= 8);
    assert_true(less > 0);
}

/*
 * The soft model of the bids (bid_temp): over the auctions of heuristic
 * players, the true deal weighs more than the deals the seat could sample,
 * as the log of its weight over their mean weight, at the first card of
 * each deal; off (bid_temp 0, no other model), every deal weighs the same.
 * bench/read_hands.c measures the same with medium's bids.
 */
static void test_bid_soft_weight(void **state)
{
    (void)state;
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    bb_level soft = BB_MEDIUM, off = BB_MEDIUM;
    soft.bid_temp = 150;
    soft.decl_temp = off.decl_temp = 0;
    soft.model = off.model = 0;
    off.bid_temp = 0;
    double score = 0.0;
    int positions = 0, doubled = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &rules, seed), 0);
        barbu_bot *easy = barbu_bot_new("easy", seed);
        while (!barbu_over(&s)) {
            barbu_view v;
            if (s.t.phase == BARBU_PHASE_PLAY && s.t.ntricks == 0 && s.t.trick.n == 0 &&
                s.t.kind != BARBU_KIND_DOMINO) {
                doubled += (s.t.dbl[0] | s.t.dbl[1] | s.t.dbl[2] | s.t.dbl[3]) != 0;
                for (int me = 0; me < 4; me++) {
                    barbu_view_of(&s, me, &v);
                    double truth = bb_expert_deal_weight(&soft, &v, NULL, s.hand);
                    assert_true(truth > 0.0 && truth <= 1.0);
                    bb_know k;
                    bb_h_know(&v, &k);
                    barbu_rng rng;
                    barbu_rng_seed(&rng, seed * 64 + (uint64_t)(s.t.deal * 4 + me));
                    double mean = 0.0;
                    int n = 0;
                    for (int i = 0; i < 60; i++) {
                        barbu_cards hands[4];
                        if (!bb_h_deal_sample(&k, &rng, hands))
                            continue;
                        mean += bb_expert_deal_weight(&soft, &v, NULL, hands);
                        assert_true(bb_expert_deal_weight(&off, &v, NULL, hands) == 1.0);
                        n++;
                    }
                    assert_true(n > 30);
                    score += log(truth / (mean / n));
                    positions++;
                }
            }
            barbu_action a;
            barbu_view_of(&s, s.t.to_move, &v);
            assert_int_equal(barbu_bot_choose(easy, &v, &a), 0);
            assert_int_equal(barbu_apply(&s, &a), 0);
        }
        barbu_bot_free(easy);
    }
    printf("bid_temp 150: %d positions (%d deals doubled), the truth %+.3f nats over the "
           "samples\n",
           positions, doubled, score / positions);
    assert_true(positions >= 200 && doubled >= 20);
    assert_true(score / positions > 0.2);
}

/*
 * The tricks before the one under way: with every seat playing the model
 * (the fast policy) and the seat keeping the tricks its views showed, the
 * deal replayed on the true hands follows the model at every card, so
 * nearly every other deal weighs less (one can weigh more where it leaves
 * a seat fewer cards to choose from); a record
 * that does not fit the table (a trick missed, or another deal's) is not
 * used.
 */
static void test_history_weight(void **state)
{
    (void)state;
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    bb_level level = BB_MEDIUM;
    level.history = 300;
    level.decl_temp = 0;
    level.bid_noise = 0;
    level.model = 1;
    int less = 0, more = 0, checked = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        barbu_state s;
        play_until(&s, &rules, seed, at_play);
        if (barbu_over(&s) || (s.t.kind != BARBU_KIND_TRICKS && s.t.kind != BARBU_KIND_TRUMPS))
            continue;
        int me = (int)(seed & 3);
        bb_record rec;
        memset(&rec, 0, sizeof rec);
        bb_policy pol;
        bb_h_policy_init(&pol, &rules, s.t.contracts);
        int deal = s.t.deal;
        /* Play to the sixth trick, the seat seeing its views on its turns. */
        while (s.t.deal == deal && s.t.ntricks < 6) {
            if (s.t.to_move == me) {
                barbu_view v;
                barbu_view_of(&s, me, &v);
                bb_record_see(&rec, &v);
            }
            barbu_cards legal = barbu_playable(&s);
            assert_int_equal(barbu_play(&s, (barbu_card)bb_h_policy_card(&pol, &s, legal)), 0);
        }
        if (s.t.deal != deal)
            continue;
        while (s.t.to_move != me) {
            barbu_cards legal = barbu_playable(&s);
            assert_int_equal(barbu_play(&s, (barbu_card)bb_h_policy_card(&pol, &s, legal)), 0);
        }
        barbu_view v;
        barbu_view_of(&s, me, &v);
        bb_record_see(&rec, &v);
        assert_int_equal(rec.n, s.t.ntricks);
        assert_false(rec.broken);
        double truth = bb_expert_deal_weight(&level, &v, &rec, s.hand);
        assert_true(truth > 0.0);
        bb_know k;
        bb_h_know(&v, &k);
        barbu_rng rng;
        barbu_rng_seed(&rng, seed);
        int differ = 0;
        for (int i = 0; i < 40; i++) {
            barbu_cards hands[4];
            if (!bb_h_deal_sample(&k, &rng, hands)) /* the sampler may give up */
                continue;
            double w = bb_expert_deal_weight(&level, &v, &rec, hands);
            less += w < truth * (1.0 - 1e-9);
            more += w > truth * (1.0 + 1e-9);
            /* The trick under way alone says less. */
            differ += w != bb_expert_deal_weight(&level, &v, NULL, hands);
        }
        assert_true(differ > 0);
        /* A trick missed, or a record of another deal: as without one. */
        bb_record bad = rec;
        bad.trick[0].card[1] = bad.trick[1].card[1];
        assert_true(bb_expert_deal_weight(&level, &v, &bad, s.hand) ==
                    bb_expert_deal_weight(&level, &v, NULL, s.hand));
        bad = rec;
        bad.deal++;
        assert_true(bb_expert_deal_weight(&level, &v, &bad, s.hand) ==
                    bb_expert_deal_weight(&level, &v, NULL, s.hand));
        bad = rec;
        bb_record_see(&bad, &v);
        assert_int_equal(bad.n, rec.n);
        bad.n = (uint8_t)(bad.n - 2); /* two tricks since the last look: one unseen */
        bb_record_see(&bad, &v);
        assert_true(bad.broken);
        assert_true(bb_expert_deal_weight(&level, &v, &bad, s.hand) ==
                    bb_expert_deal_weight(&level, &v, NULL, s.hand));
        checked++;
    }
    assert_true(checked >= 6);
    printf("history: %d deals weigh less than the truth, %d more\n", less, more);
    assert_true(less > 10 * more);
}

/* Tuned players, for measurement: a level's settings changed by name;
 * anything else refused. */
static void test_tuned(void **state)
{
    (void)state;
    barbu_bot *b = barbu_bot_new_tuned("medium:budget=1000,solve_from=3", 1);
    assert_non_null(b);
    assert_string_equal(barbu_bot_kind(b), "medium:budget=1000,solve_from=3");
    barbu_bot_free(b);
    b = barbu_bot_new_tuned("hard", 1);
    assert_non_null(b);
    assert_string_equal(barbu_bot_kind(b), "hard");
    barbu_bot_free(b);
    static const char *const bad[] = {
        "medium:budget=0",  "medium:budgt=5",   "medium:budget=", "medium:budget=5x",
        "medium:",          "medium:budget",    "easy:budget=5",  "wizard",
        "medium:layouts=2", "medium:,budget=5", "mediu",          "mediumm",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        b = barbu_bot_new_tuned(bad[i], 1);
        if (b != NULL)
            fail_msg("'%s' was accepted", bad[i]);
    }
    /* The omniscient player, tuned or not, never takes a view. */
    b = barbu_bot_new_tuned("omniscient:budget=1000", 1);
    assert_non_null(b);
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    barbu_state s;
    first_lead(&s, &rules, 3);
    barbu_view v;
    barbu_action a;
    barbu_view_of(&s, s.t.to_move, &v);
    assert_int_equal(barbu_bot_choose(b, &v, &a), BARBU_EINVAL);
    assert_int_equal(barbu_omniscient_choose(b, &s, &a), 0);
    assert_int_equal(barbu_check(&s, &a), 0);
    barbu_bot_free(b);
}

/* A choice among some of the legal actions: one of them, and an action
 * that is not legal refused. */
static void test_choose_from(void **state)
{
    (void)state;
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    static const char *const kinds[] = {"random", "easy", "medium"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &rules, 9), 0);
        barbu_view v;
        barbu_view_of(&s, s.t.to_move, &v);
        barbu_action legal[BARBU_MAX_ACTIONS], some[BARBU_MAX_ACTIONS];
        int n = barbu_view_legal(&v, legal, BARBU_MAX_ACTIONS), m = 0;
        for (int i = 0; i < n && i < BARBU_MAX_ACTIONS; i++)
            if (rules.contract[__builtin_ctz(legal[i].contracts)].kind == BARBU_KIND_TRUMPS)
                some[m++] = legal[i];
        assert_int_equal(m, 4);
        barbu_bot *b = barbu_bot_new(kinds[k], 5);
        barbu_action a;
        assert_int_equal(barbu_bot_choose_from(b, &v, some, m, &a), 0);
        bool among = false;
        for (int i = 0; i < m; i++)
            among |= barbu_action_equal(&a, &some[i]);
        assert_true(among);
        barbu_action wrong = barbu_act_play(v.seat, 0);
        assert_true(barbu_bot_choose_from(b, &v, &wrong, 1, &a) < 0);
        assert_int_equal(barbu_bot_choose_from(b, &v, some, 0, &a), BARBU_EINVAL);
        barbu_bot_free(b);
    }
}

static bool at_domino_play(const barbu_state *s)
{
    return s->t.phase == BARBU_PHASE_PLAY && s->t.kind == BARBU_KIND_DOMINO;
}

/* The layout's rule of thumb in a state (the expert's play-outs) plays the
 * card the heuristic player plays from its view. */
static void test_layout_rule(void **state)
{
    (void)state;
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk");
    int compared = 0;
    for (uint64_t seed = 1; seed <= 30 && compared < 200; seed++) {
        barbu_state s;
        play_until(&s, &rules, seed, at_domino_play);
        barbu_bot *easy = barbu_bot_new("easy", seed);
        int deal = s.t.deal;
        while (!barbu_over(&s) && s.t.deal == deal && at_domino_play(&s)) {
            barbu_view v;
            barbu_action a;
            barbu_view_of(&s, s.t.to_move, &v);
            assert_int_equal(barbu_bot_choose(easy, &v, &a), 0);
            barbu_cards fits = barbu_playable(&s);
            if (barbu_count(fits) > 1) {
                assert_int_equal(a.type, BARBU_ACT_PLAY);
                assert_int_equal(BARBU_BIT(bb_h_layout_card(&s, fits)), a.cards);
                compared++;
            }
            assert_int_equal(barbu_apply(&s, &a), 0);
        }
        barbu_bot_free(easy);
    }
    assert_true(compared >= 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_medium_every_preset),
        cmocka_unit_test(test_hard_plays),
        cmocka_unit_test(test_view_only),
        cmocka_unit_test(test_threads_agree),
        cmocka_unit_test(test_maxn_player),
        cmocka_unit_test(test_omniscient),
        cmocka_unit_test(test_not_to_move),
        cmocka_unit_test(test_declaration_weight),
        cmocka_unit_test(test_bid_weight),
        cmocka_unit_test(test_bid_soft_weight),
        cmocka_unit_test(test_bid_means),
        cmocka_unit_test(test_history_weight),
        cmocka_unit_test(test_tuned),
        cmocka_unit_test(test_choose_from),
        cmocka_unit_test(test_layout_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
