/*
 * test_view.c - information hiding: a seat's view holds its own hand and
 * the public table, never another seat's unplayed cards; a kibitzer of
 * every seat sees all hands; the legal actions from a view are those of
 * the state.
 */
#include "helpers.h"

static bool same_actions(const barbu_action *a, int na, const barbu_action *b, int nb)
{
    if (na != nb)
        return false;
    for (int i = 0; i < na; i++)
        if (!barbu_action_equal(&a[i], &b[i]))
            return false;
    return true;
}

/* Checks every view of the state: hands, table, legal actions. */
static void check_views(const barbu_state *s)
{
    barbu_action want[BARBU_MAX_ACTIONS], got[BARBU_MAX_ACTIONS];
    int nwant = barbu_legal(s, want, BARBU_MAX_ACTIONS);
    assert_true(nwant <= BARBU_MAX_ACTIONS);
    int mover = barbu_to_move(s);
    for (int seat = 0; seat <= BARBU_ALL_SEATS; seat++) {
        barbu_view v;
        memset(&v, 0xa5, sizeof v);
        barbu_view_of(s, seat, &v);
        assert_int_equal(v.seat, seat);
        assert_ptr_equal(v.rules, s->rules);
        assert_memory_equal(&v.t, &s->t, sizeof v.t);
        for (int k = 0; k < 4; k++) {
            if (seat == BARBU_ALL_SEATS || k == seat)
                assert_true(v.hand[k] == s->hand[k]);
            else
                assert_true(v.hand[k] == 0);
            /* No other seat's unplayed card anywhere in the hands. */
            for (int o = 0; o < 4; o++)
                if (seat != BARBU_ALL_SEATS && o != seat)
                    assert_true((v.hand[k] & s->hand[o]) == 0);
        }
        if (seat != BARBU_ALL_SEATS) {
            assert_true((v.advice & ~s->hand[seat]) == 0);
            /* Nothing was passed on in these rule sets. */
            const barbu_cards *passed = (const barbu_cards *)&v.passed;
            const barbu_cards *received = (const barbu_cards *)&v.received;
            for (size_t i = 0; i < sizeof v.passed / sizeof *passed; i++)
                assert_true(passed[i] == 0);
            for (size_t i = 0; i < sizeof v.received / sizeof *received; i++)
                assert_true(received[i] == 0);
        }
        int ngot = barbu_view_legal(&v, got, BARBU_MAX_ACTIONS);
        if (seat == mover || (seat == BARBU_ALL_SEATS && mover >= 0))
            assert_true(same_actions(want, nwant, got, ngot));
        else
            assert_int_equal(ngot, 0);
    }
}

static void test_view_hands(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    assert_int_equal(barbu_init(&s, &r, 7), 0);
    for (int seat = 0; seat < 4; seat++) {
        barbu_view v;
        barbu_view_of(&s, seat, &v);
        assert_int_equal(v.seat, seat);
        assert_true(v.hand[seat] == s.hand[seat]);
        assert_int_equal(barbu_count(v.hand[seat]), 13);
        for (int o = 0; o < 4; o++)
            if (o != seat)
                assert_true(v.hand[o] == 0);
        assert_false(v.compulsory);
        assert_true(v.advice == 0);
    }
    barbu_view all;
    barbu_view_of(&s, BARBU_ALL_SEATS, &all);
    assert_int_equal(all.seat, BARBU_ALL_SEATS);
    for (int seat = 0; seat < 4; seat++)
        assert_true(all.hand[seat] == s.hand[seat]);
    check_views(&s);

    /* A seat that does not exist sees no hand and may do nothing. */
    barbu_view none;
    barbu_view_of(&s, 5, &none);
    barbu_action acts[BARBU_MAX_ACTIONS];
    for (int k = 0; k < 4; k++)
        assert_true(none.hand[k] == 0);
    assert_int_equal(barbu_view_legal(&none, acts, BARBU_MAX_ACTIONS), 0);
    barbu_view_of(&s, -1, &none);
    for (int k = 0; k < 4; k++)
        assert_true(none.hand[k] == 0);
    assert_int_equal(barbu_view_legal(&none, acts, BARBU_MAX_ACTIONS), 0);
}

/* The legal actions of a view are the state's, in each phase. */
static void test_view_legal(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    start_game(&s, &r, E, NULL);
    barbu_view v;
    barbu_action acts[BARBU_MAX_ACTIONS];
    barbu_view_of(&s, E, &v);
    assert_int_equal(barbu_view_legal(&v, acts, BARBU_MAX_ACTIONS), 5 + 4 + 13);
    barbu_view_of(&s, N, &v);
    assert_int_equal(barbu_view_legal(&v, acts, BARBU_MAX_ACTIONS), 0);
    check_views(&s);
    declare(&s, "no-queens", -1, 0);
    check_views(&s);
    barbu_view_of(&s, S, &v);
    assert_int_equal(barbu_view_legal(&v, acts, BARBU_MAX_ACTIONS), 8);
    bid_double_declarer(&s);
    check_views(&s);
    barbu_view_of(&s, E, &v);
    int n = barbu_view_legal(&v, acts, BARBU_MAX_ACTIONS);
    assert_int_equal(n, 13);
    for (int i = 0; i < n; i++) {
        assert_int_equal(acts[i].type, BARBU_ACT_PLAY);
        assert_int_equal(acts[i].seat, E);
    }
}

/* Many random positions of many games: no view leaks a hidden card, and a
 * view's legal actions are always the state's. */
static void test_views_random_games(void **state)
{
    (void)state;
    static const char *const texts[] = {"",
                                        "preset = classic\n",
                                        "israeli = enforce\n",
                                        "israeli = advise\n",
                                        "first-lead = left\ndomino-first = left\n",
                                        "doubling = no\n"};
    barbu_rng rng;
    barbu_rng_seed(&rng, 99);
    long positions = 0;
    for (int g = 0; g < 12; g++) {
        barbu_rules r;
        rules_text(&r, texts[g % 6]);
        barbu_state s;
        assert_int_equal(barbu_init(&s, &r, 7000 + (uint64_t)g), 0);
        while (!barbu_over(&s)) {
            check_views(&s);
            positions++;
            barbu_action acts[BARBU_MAX_ACTIONS];
            int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
            assert_true(n > 0);
            barbu_action a = acts[barbu_rng_below(&rng, (uint32_t)n)];
            if (s.t.phase == BARBU_PHASE_BID) {
                /* Mostly double the declarer, so that deals are played. */
                int d = s.t.declarer, seat = barbu_to_move(&s);
                if (seat != d && barbu_rng_below(&rng, 4) != 0)
                    a.doubles |= (uint8_t)(1u << d);
                if (barbu_check(&s, &a) != 0)
                    a = acts[0];
            }
            assert_int_equal(barbu_apply(&s, &a), 0);
        }
        check_views(&s);
    }
    assert_true(positions > 10000);
}

static void test_view_owed(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    declare(&s, "no-tricks", -1, 0);
    barbu_view v;
    barbu_view_of(&s, E, &v);
    assert_int_equal(barbu_view_owed(&v, E), 2);
    assert_int_equal(barbu_view_owed(&v, S), 2);
    assert_int_equal(barbu_view_owed(&v, N), 0);
    assert_int_equal(barbu_view_owed(&v, 4), 0);
    assert_int_equal(barbu_view_owed(&v, -1), 0);
    barbu_action a = barbu_act_bid(E, 1u << N, 0);
    assert_int_equal(barbu_apply(&s, &a), 0);
    barbu_view_of(&s, W, &v);
    assert_int_equal(barbu_view_owed(&v, E), 1);
    assert_int_equal(barbu_view_owed(&v, W), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_hands),
        cmocka_unit_test(test_view_legal),
        cmocka_unit_test(test_views_random_games),
        cmocka_unit_test(test_view_owed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
