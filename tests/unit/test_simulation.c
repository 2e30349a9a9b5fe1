/*
 * test_simulation.c - what bots and displays ask of the engine instead of
 * working out rules themselves: who is winning the trick and which cards
 * would beat it, and a state rebuilt from a view and sampled hands.
 */
#include "helpers.h"

static void test_trick_top_no_trumps(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hands_of(h, "AKQJ.AKQ.AKQ.AKQ", "T9.JT98.JT98.JT9", "765.765.765.8765", "8432.432.432.432");
    barbu_state s;
    start_game(&s, &r, N, h);
    declare(&s, "no-tricks", -1, 0);
    bid_double_declarer(&s);
    assert_int_equal(barbu_trick_top(&s.t), -1);
    assert_true(barbu_trick_beaters(&s.t) == BARBU_ALL_CARDS);
    play(&s, "JS");
    assert_int_equal(barbu_trick_top(&s.t), 0);
    assert_true(barbu_trick_beaters(&s.t) == cards_of("QS KS AS"));
    play(&s, "TS");
    assert_int_equal(barbu_trick_top(&s.t), 0);
    play(&s, "7S");
    play(&s, "8S");
    assert_int_equal(s.t.winner[0], N);
}

static void test_trick_top_trumps(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hands_of(h, "2.AKQJT98.AKQ.AK", "Q3.-.JT98765.QJT9", "654.-.432.8765432", "AKJT987.765432.-.-");
    barbu_state s;
    start_game(&s, &r, N, h);
    declare(&s, "trumps", BARBU_SPADES, 0);
    bid_double_declarer(&s);
    play(&s, "9H");
    /* A heart is winning: higher hearts or any trump beat it. */
    assert_int_equal(barbu_trick_top(&s.t), 0);
    assert_true(barbu_trick_beaters(&s.t) ==
                (cards_of("TH JH QH KH AH") | BARBU_SUIT_CARDS(BARBU_SPADES)));
    play(&s, "3S");
    /* Trumped: only a higher trump beats it. */
    assert_int_equal(barbu_trick_top(&s.t), 1);
    assert_true(barbu_trick_beaters(&s.t) == cards_of("4S 5S 6S 7S 8S 9S TS JS QS KS AS"));
    play(&s, "6S");
    assert_int_equal(barbu_trick_top(&s.t), 2);
    play(&s, "2H");
    /* The engine's winner is the seat barbu_trick_top named. */
    assert_int_equal(s.t.winner[0], S);
}

static void test_state_from_view(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_rng rng;
    barbu_rng_seed(&rng, 5);
    barbu_state s;
    start_game(&s, &r, N, NULL);
    declare(&s, "no-hearts", -1, 0);
    bid_double_declarer(&s);
    for (int i = 0; i < 21; i++)
        assert_int_equal(barbu_play_random(&s, &rng), 0);
    int me = barbu_to_move(&s);
    barbu_view v;
    barbu_view_of(&s, me, &v);

    /* The true hands fit the view, and make the same game. */
    barbu_state copy;
    assert_int_equal(barbu_state_from_view(&v, s.hand, &copy), 0);
    assert_memory_equal(&copy.t, &s.t, sizeof s.t);
    assert_memory_equal(copy.hand, s.hand, sizeof s.hand);
    assert_memory_equal(copy.dealt, s.dealt, sizeof s.dealt);
    assert_int_equal(barbu_state_ok(&copy, NULL), 0);
    barbu_truncate(&copy);
    assert_int_equal(barbu_playout_random(&copy, &rng), 0);
    assert_true(barbu_over(&copy));
    int sum = 0;
    for (int p = 0; p < 4; p++)
        sum += copy.t.last.raw[p];
    assert_int_equal(sum, -30);

    /* Hands that do not fit: my own card moved away, a wrong count, a card
     * already played, a card a seat has shown it lacks. */
    int other = (me + 1) & 3;
    barbu_cards bad[4];
    memcpy(bad, s.hand, sizeof bad);
    barbu_cards mine = s.hand[me] & -s.hand[me], theirs = s.hand[other] & -s.hand[other];
    bad[me] = (bad[me] & ~mine) | theirs;
    bad[other] = (bad[other] & ~theirs) | mine;
    assert_int_equal(barbu_state_from_view(&v, bad, &copy), BARBU_EHANDS);
    memcpy(bad, s.hand, sizeof bad);
    bad[other] &= bad[other] - 1;
    assert_int_equal(barbu_state_from_view(&v, bad, &copy), BARBU_EHANDS);
    memcpy(bad, s.hand, sizeof bad);
    barbu_cards gone = s.t.played[me] & -s.t.played[me];
    bad[other] = (bad[other] & (bad[other] - 1)) | gone;
    assert_int_equal(barbu_state_from_view(&v, bad, &copy), BARBU_EHANDS);

    /* Swap two cards between two other seats where one has shown out of a
     * suit: the swap is refused when it gives that seat such a card. */
    for (int a = 0; a < 4; a++) {
        for (int b = 0; b < 4; b++) {
            if (a == me || b == me || a == b)
                continue;
            barbu_cards want = s.hand[b] & s.t.shown_out[a];
            if (!want || !s.hand[a])
                continue;
            memcpy(bad, s.hand, sizeof bad);
            barbu_cards x = want & -want, y = s.hand[a] & -s.hand[a];
            bad[a] = (bad[a] & ~y) | x;
            bad[b] = (bad[b] & ~x) | y;
            assert_int_equal(barbu_state_from_view(&v, bad, &copy), BARBU_EHANDS);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trick_top_no_trumps),
        cmocka_unit_test(test_trick_top_trumps),
        cmocka_unit_test(test_state_from_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
