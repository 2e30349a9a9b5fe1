/*
 * test_shown_out.c - what each play and pass shows the table about the
 * rest of a hand (t.shown_out): not following, not trumping or
 * over-trumping when bound to, a heart led under the hearts-lead rule, a
 * pass at Domino, and the enforced Israeli rule.
 */
#include "helpers.h"

#define BIT(seat) (1u << (seat))

static void ready(barbu_state *s, const barbu_rules *r, const barbu_cards h[4], const char *key,
                  int trump, int rank)
{
    start_game(s, r, N, h);
    declare(s, key, trump, rank);
    bid_double_declarer(s);
    assert_int_equal(s->t.phase, BARBU_PHASE_PLAY);
    for (int seat = 0; seat < 4; seat++)
        assert_true(s->t.shown_out[seat] == 0);
}

/* The view of any seat carries the same conclusions. */
static void views_agree(const barbu_state *s)
{
    for (int seat = 0; seat < 4; seat++) {
        barbu_view v;
        barbu_view_of(s, seat, &v);
        assert_memory_equal(v.t.shown_out, s->t.shown_out, sizeof s->t.shown_out);
        for (int other = 0; other < 4; other++)
            assert_true((s->t.shown_out[other] & s->hand[other]) == 0);
    }
}

static void test_not_following(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    /* E holds two spades: it follows twice, then shows out. */
    hands_of(h, "AKQJ.AKQ.AKQ.AKQ", "T9.JT98.JT98.JT9", "765.765.765.8765", "8432.432.432.432");
    barbu_state s;
    ready(&s, &r, h, "no-tricks", -1, 0);
    play_seq(&s, "AS TS 7S 4S");
    /* Following suit shows nothing. */
    assert_true(s.t.shown_out[E] == 0);
    play_seq(&s, "KS 9S 6S 3S");
    play(&s, "QS");
    play(&s, "JH"); /* E cannot follow */
    assert_true(s.t.shown_out[E] == BARBU_SUIT_CARDS(BARBU_SPADES));
    assert_true(s.t.shown_out[N] == 0);
    views_agree(&s);
}

static void test_hearts_lead(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    /* N has only hearts, so N may lead one: and shows it has nothing else. */
    hands_of(h, "-.AKQJT98765432.-.-", "AKQJT98765432.-.-.-", "-.-.AKQJT98765432.-",
             "-.-.-.AKQJT98765432");
    barbu_state s;
    ready(&s, &r, h, "no-hearts", -1, 0);
    play(&s, "2H");
    assert_true(s.t.shown_out[N] == (BARBU_ALL_CARDS & ~BARBU_SUIT_CARDS(BARBU_HEARTS)));
    views_agree(&s);

    /* At No Tricks there is no hearts-lead rule: a heart lead shows nothing. */
    barbu_state t;
    ready(&t, &r, h, "no-tricks", -1, 0);
    play(&t, "2H");
    assert_true(t.t.shown_out[N] == 0);
}

static void test_trumps_led(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hands_of(h, "9.AKQJ.AKQJ.AKQJ", "83.T98.T98.T9876", "A7.765.76543.543", "KQJT6542.432.2.2");
    barbu_state s;
    ready(&s, &r, h, "trumps", BARBU_SPADES, 0);
    play(&s, "9S");
    /* E cannot beat the 9: a lower trump shows no trump above the 9. */
    play(&s, "3S");
    assert_true(s.t.shown_out[E] == cards_of("TS JS QS KS AS"));
    /* S beats it: nothing shown. */
    play(&s, "AS");
    assert_true(s.t.shown_out[S] == 0);
    play(&s, "2S");
    /* W could not beat the ace: no higher trump (there is none). */
    assert_true(s.t.shown_out[W] == 0);
    /* S won and leads a trump again; W beats it; N has none and discards:
     * N shows it has no trumps. */
    play(&s, "7S");
    play(&s, "TS");
    play(&s, "AH");
    assert_true(s.t.shown_out[N] == BARBU_SUIT_CARDS(BARBU_SPADES));
    views_agree(&s);
}

static void test_trumps_void(void **state)
{
    (void)state;
    barbu_cards h[4];
    /* N leads hearts; E has neither hearts nor trumps; S has no hearts but
     * trumps; W follows. */
    hands_of(h, "2.AKQJT98.AKQ.AK", "-.-.JT98765.QJT987", "QJ543.-.432.65432",
             "AKT9876.765432.-.-");
    for (int must = 0; must < 2; must++) {
        barbu_rules r;
        rules_text(&r, must ? "must-trump = yes\n" : "must-trump = no\n");
        barbu_state s;
        ready(&s, &r, h, "trumps", BARBU_SPADES, 0);
        play(&s, "AH");
        /* E discards a diamond: bound to trump, it shows it has no trumps;
         * free to discard, only that it has no hearts. */
        play(&s, "JD");
        barbu_cards expect = BARBU_SUIT_CARDS(BARBU_HEARTS);
        if (must)
            expect |= BARBU_SUIT_CARDS(BARBU_SPADES);
        assert_true(s.t.shown_out[E] == expect);
        /* S trumps with the 5: no hearts, nothing more. */
        play(&s, "5S");
        assert_true(s.t.shown_out[S] == BARBU_SUIT_CARDS(BARBU_HEARTS));
        /* W follows suit: nothing. */
        play(&s, "2H");
        assert_true(s.t.shown_out[W] == 0);
        views_agree(&s);
    }
}

static void test_not_overtrumping(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hands_of(h, "2.AKQJT98.AKQ.AK", "Q3.-.JT98765.QJT9", "654.-.432.8765432", "AKJT987.765432.-.-");
    barbu_state s;
    ready(&s, &r, h, "trumps", BARBU_SPADES, 0);
    play(&s, "AH");
    play(&s, "QS"); /* E trumps with the queen */
    /* S cannot over-trump (only 5 and 4): may discard; shows no trump above the queen. */
    play(&s, "2C");
    assert_true(s.t.shown_out[S] == (BARBU_SUIT_CARDS(BARBU_HEARTS) | cards_of("KS AS")));
    views_agree(&s);
}

static void test_domino_pass(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hands_of(h, "8.AKQJ.AKQJ.AKQJ", "9765.T98.T98.T98", "AKQJT.765.765.76", "432.432.432.5432");
    barbu_state s;
    ready(&s, &r, h, "domino", -1, 8);
    play(&s, "8S");
    play(&s, "9S");
    /* S has no 8 but the TS. */
    play(&s, "TS");
    /* W has no 8, no 7S and no JS: it passes, and shows it. */
    assert_true(only_pass(&s));
    pass_layout(&s, 0);
    assert_true(s.t.shown_out[W] == cards_of("7S JS 8H 8D 8C"));
    views_agree(&s);
}

static void test_israeli_enforced(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "israeli = enforce\n");
    barbu_cards h[4];
    /* No King, everyone doubled once with everyone (equal business): N leads
     * a spade and nobody else has one.  The K♥ is the last penalty card, so
     * whoever discards something else shows they do not hold it. */
    hands_of(h, "AKQJT98765432.-.-.-", "-.QJT98765432.A.A", "-.A.KQJT98765.KQ2",
             "-.K.432.JT9876543");
    barbu_state s;
    start_game(&s, &r, N, h);
    declare(&s, "no-king", -1, 0);
    bid_everyone_once(&s);
    play(&s, "2S");
    play(&s, "2H"); /* E is void, equally doubled, and shows no K♥ */
    assert_true(s.t.shown_out[E] == (BARBU_SUIT_CARDS(BARBU_SPADES) | cards_of("KH")));
    /* S, likewise, discards a heart: no K♥ either. */
    play(&s, "AH");
    assert_true(s.t.shown_out[S] == (BARBU_SUIT_CARDS(BARBU_SPADES) | cards_of("KH")));
    /* W holds it and must discard it. */
    assert_true(legal_cards(&s) == cards_of("KH"));
    play(&s, "KH");
    views_agree(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_following),    cmocka_unit_test(test_hearts_lead),
        cmocka_unit_test(test_trumps_led),       cmocka_unit_test(test_trumps_void),
        cmocka_unit_test(test_not_overtrumping), cmocka_unit_test(test_domino_pass),
        cmocka_unit_test(test_israeli_enforced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
