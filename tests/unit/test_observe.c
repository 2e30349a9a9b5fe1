/*
 * test_observe.c - barbu_bot_observe and barbu_bot_reseed (issue 26, point
 * 5): a bot shown a deal's views at its seat's turns (as barbu serve shows a
 * computer player rebuilt after a restart) chooses as the bot that played
 * the deal through, and the trick record it keeps so changes the choice of a
 * player that reads it (a tuned `history` player) against a fresh bot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "barbu/ai.h"

/* A player that weighs its sampled deals by every trick of the deal it saw
 * (history), on a small budget to keep the test short. */
static const char KIND[] = "medium:history=500,budget=150000,min_deals=8,max_deals=120";

/* The seed of each decision, as barbu serve derives one from the table's
 * seed, the action's index and the seat. */
static uint64_t decision_seed(uint32_t at, int seat)
{
    return UINT64_C(0x5eed) ^ ((uint64_t)at << 2 | (uint64_t)seat) * UINT64_C(0x9e3779b97f4a7c15);
}

/* Whether the seat to move has a choice of cards in the play of a trick
 * contract, with tricks of the deal behind it. */
static bool card_choice(const barbu_state *s, int min_tricks)
{
    const barbu_table *t = &s->t;
    if (t->phase != BARBU_PHASE_PLAY || t->ntricks < min_tricks ||
        (t->kind != BARBU_KIND_TRICKS && t->kind != BARBU_KIND_TRUMPS) || t->n_pass_ons != 0)
        return false;
    return barbu_count(barbu_playable(s)) > 1;
}

/*
 * Plays uk's first deals with four players of KIND that each keep their
 * record; at every choice of cards from the third trick on, a fresh bot
 * shown the deal's views at that seat's turns (barbu_bot_observe) must
 * choose as the bot that played through, given the same seed; and at some
 * of them a fresh bot shown nothing must choose otherwise, since only the
 * record differs.
 */
static void test_observe_is_playing_through(void **unused)
{
    (void)unused;
    barbu_rules rules;
    assert_int_equal(barbu_rules_preset(&rules, "uk"), 0);
    barbu_state s, deal_start;
    assert_int_equal(barbu_init(&s, &rules, 2026), 0);
    barbu_bot *bots[4];
    for (int k = 0; k < 4; k++) {
        bots[k] = barbu_bot_new_tuned(KIND, 100 + (uint64_t)k);
        assert_non_null(bots[k]);
    }
    deal_start = s;
    int compared = 0, differ = 0;
    /* The actions of the deal under way, to show them again. */
    barbu_action acts[512];
    int n_acts = 0;
    for (uint32_t at = 0; !barbu_over(&s) && s.t.deal < 3 && compared < 24; at++) {
        int seat = s.t.to_move;
        assert_true(seat >= 0);
        barbu_view v;
        barbu_view_of(&s, seat, &v);
        if (card_choice(&s, 3)) {
            barbu_bot *seen = barbu_bot_new_tuned(KIND, 7);
            barbu_bot *fresh = barbu_bot_new_tuned(KIND, 7);
            assert_non_null(seen);
            assert_non_null(fresh);
            barbu_state r = deal_start;
            for (int i = 0; i < n_acts; i++) {
                if (r.t.to_move == seat) {
                    barbu_view rv;
                    barbu_view_of(&r, seat, &rv);
                    barbu_bot_observe(seen, &rv);
                }
                assert_int_equal(barbu_apply(&r, &acts[i]), 0);
            }
            barbu_action a_seen, a_fresh;
            barbu_bot_reseed(seen, decision_seed(at, seat));
            barbu_bot_reseed(fresh, decision_seed(at, seat));
            assert_int_equal(barbu_bot_choose(seen, &v, &a_seen), 0);
            assert_int_equal(barbu_bot_choose(fresh, &v, &a_fresh), 0);
            barbu_bot_free(seen);
            barbu_bot_free(fresh);
            /* The one that played through, seeded alike, last: its record
             * is the one `seen` was shown, and choose adds this view. */
            barbu_action a;
            barbu_bot_reseed(bots[seat], decision_seed(at, seat));
            assert_int_equal(barbu_bot_choose(bots[seat], &v, &a), 0);
            assert_int_equal(a_seen.type, a.type);
            assert_true(a_seen.cards == a.cards);
            differ += a_fresh.cards != a.cards;
            compared++;
            assert_int_equal(barbu_apply(&s, &a), 0);
            acts[n_acts++] = a;
        } else {
            barbu_action a;
            barbu_bot_reseed(bots[seat], decision_seed(at, seat));
            assert_int_equal(barbu_bot_choose(bots[seat], &v, &a), 0);
            uint16_t deal = s.t.deal;
            assert_int_equal(barbu_apply(&s, &a), 0);
            if (s.t.deal != deal) {
                deal_start = s;
                n_acts = 0;
            } else {
                assert_true(n_acts < 512);
                acts[n_acts++] = a;
            }
        }
    }
    for (int k = 0; k < 4; k++)
        barbu_bot_free(bots[k]);
    print_message("%d choices compared, %d where a fresh bot chose otherwise\n", compared, differ);
    assert_true(compared >= 6);
    assert_true(differ >= 1);
}

/* Observing changes nothing that a player without a record reads, and a
 * view of no seat or of the bidding is ignored. */
static void test_observe_harmless(void **unused)
{
    (void)unused;
    barbu_rules rules;
    assert_int_equal(barbu_rules_preset(&rules, "uk"), 0);
    barbu_state s;
    assert_int_equal(barbu_init(&s, &rules, 9), 0);
    barbu_bot *a = barbu_bot_new("easy", 3), *b = barbu_bot_new("easy", 3);
    barbu_view v, all;
    barbu_view_of(&s, s.t.to_move, &v);
    barbu_view_of(&s, BARBU_ALL_SEATS, &all);
    barbu_bot_observe(a, &v);
    barbu_bot_observe(a, &all);
    barbu_action x, y;
    assert_int_equal(barbu_bot_choose(a, &v, &x), 0);
    assert_int_equal(barbu_bot_choose(b, &v, &y), 0);
    assert_int_equal(x.type, y.type);
    assert_true(x.contracts == y.contracts && x.cards == y.cards && x.doubles == y.doubles);
    barbu_bot_free(a);
    barbu_bot_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_observe_is_playing_through),
        cmocka_unit_test(test_observe_harmless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
