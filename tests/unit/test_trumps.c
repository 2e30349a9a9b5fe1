/*
 * test_trumps.c - every obligation of the Trumps contract (seeds 002, 003,
 * 004): a higher trump when trumps are led, following suit, trumping when
 * void (the must-trump option), over-trumping a trumped trick, free play
 * when unable to over-trump, and who wins the trick.  Spades are trumps.
 */
#include "helpers.h"

static void ready(barbu_state *s, const barbu_rules *r, const barbu_cards h[4])
{
    start_game(s, r, N, h);
    declare(s, "trumps", BARBU_SPADES, 0);
    assert_int_equal(s->t.kind, BARBU_KIND_TRUMPS);
    assert_int_equal(s->t.trump, BARBU_SPADES);
    bid_double_declarer(s);
    assert_int_equal(s->t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(barbu_to_move(s), N);
}

/* Trumps led: N 5S, E holds 9S and 3S, S only 7S, W most of the trumps. */
static void trump_lead_deal(barbu_cards h[4])
{
    hands_of(h, "5.AKQJ.AKQJ.AKQJ", "93.T98.T98.T9876", "7.765.76543.5432", "AKQJT8642.432.2.-");
}

/* A heart led: E follows, S and W are void in hearts, N and E void in clubs. */
static void plain_lead_deal(barbu_cards h[4])
{
    hands_of(h, "4.AKQJT2.AKQJT9.-", "2.9876543.65432.-", "5.-.87.QJT9876543",
             "AKQJT98763.-.-.AK2");
}

/* A trump led: each player must beat the highest trump on the table if
 * able, else play any trump. */
static void test_trump_led_must_beat(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    trump_lead_deal(h);
    barbu_state s;
    ready(&s, &r, h);
    play(&s, "5S");

    /* E: 9S beats 5S, 3S does not. */
    assert_true(legal_cards(&s) == cards_of("9S"));
    play_expect(&s, "3S", BARBU_EHIGHER);
    play_expect(&s, "TH", BARBU_EFOLLOW);
    play(&s, "9S");

    /* S: 7S cannot beat 9S, so any trump will do. */
    assert_true(legal_cards(&s) == cards_of("7S"));
    play_expect(&s, "7D", BARBU_EFOLLOW);
    play(&s, "7S");

    /* W: must beat the highest trump on the table (9S), not just the one led. */
    assert_true(legal_cards(&s) == cards_of("AS KS QS JS TS"));
    play_expect(&s, "8S", BARBU_EHIGHER);
    play_expect(&s, "6S", BARBU_EHIGHER);
    play_expect(&s, "2D", BARBU_EFOLLOW);
    play(&s, "TS");
    assert_int_equal(s.t.winner[0], W);
    assert_int_equal(barbu_to_move(&s), W);
}

/* A trump led to players void in trumps: they may play anything, and a
 * trump still wins over a higher card of another suit. */
static void test_trump_led_void(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    trump_lead_deal(h);
    barbu_state s;
    ready(&s, &r, h);
    play_seq(&s, "5S 9S 7S TS");
    play(&s, "2S");
    /* N has no trump left. */
    assert_true(legal_cards(&s) == s.hand[N]);
    assert_int_equal(barbu_count(s.hand[N]), 12);
    play(&s, "AH");
    /* E's 3S beats the 2S led. */
    assert_true(legal_cards(&s) == cards_of("3S"));
    play_expect(&s, "TH", BARBU_EFOLLOW);
    play(&s, "3S");
    assert_true(legal_cards(&s) == s.hand[S]);
    play(&s, "2C");
    assert_int_equal(s.t.winner[1], E);
    assert_int_equal(s.t.tricks[E], 1);
    assert_int_equal(s.t.tricks[W], 1);
}

/* A plain suit led: follow it; void, trump; trumped, over-trump. */
static void test_plain_led_obligations(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    assert_true(r.must_trump);
    barbu_cards h[4];
    plain_lead_deal(h);
    barbu_state s;
    ready(&s, &r, h);
    play(&s, "AH");

    /* E holds hearts: must follow, not trump. */
    assert_true(legal_cards(&s) == cards_of("9H 8H 7H 6H 5H 4H 3H"));
    play_expect(&s, "2S", BARBU_EFOLLOW);
    play_expect(&s, "6D", BARBU_EFOLLOW);
    play(&s, "3H");

    /* S is void in hearts and holds a trump: must trump. */
    assert_true(legal_cards(&s) == cards_of("5S"));
    play_expect(&s, "8D", BARBU_ETRUMP);
    play_expect(&s, "3C", BARBU_ETRUMP);
    play(&s, "5S");

    /* W is void and the trick is trumped: must over-trump. */
    assert_true(legal_cards(&s) == cards_of("AS KS QS JS TS 9S 8S 7S 6S"));
    play_expect(&s, "3S", BARBU_EOVERTRUMP);
    play_expect(&s, "AC", BARBU_EOVERTRUMP);
    play(&s, "6S");
    assert_int_equal(s.t.winner[0], W);

    /* W leads a club: N, void, must trump with its only trump. */
    play(&s, "KC");
    assert_true(legal_cards(&s) == cards_of("4S"));
    play_expect(&s, "AD", BARBU_ETRUMP);
    play(&s, "4S");

    /* E, void in clubs, cannot over-trump 4S with its 2S: anything goes,
     * an under-trump or a discard. */
    assert_true(legal_cards(&s) == s.hand[E]);
    assert_int_equal(barbu_count(s.hand[E]), 12);
    barbu_state under = s;
    play(&under, "2S");
    play(&under, "3C");
    assert_int_equal(under.t.winner[1], N);
    play(&s, "9H");

    /* S holds clubs and follows. */
    assert_true(legal_cards(&s) == cards_of("QC JC TC 9C 8C 7C 6C 5C 4C 3C"));
    play_expect(&s, "8D", BARBU_EFOLLOW);
    play(&s, "3C");
    /* The only trump wins over the king led. */
    assert_int_equal(s.t.winner[1], N);
    assert_int_equal(barbu_to_move(&s), N);
}

/* must-trump = no: a void player may discard instead of trumping... */
static void test_must_trump_off(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "must-trump = no\n");
    assert_false(r.must_trump);
    barbu_cards h[4];
    plain_lead_deal(h);
    barbu_state s;
    ready(&s, &r, h);
    play_seq(&s, "AH 3H");
    /* Following suit is still required. */
    assert_true(legal_cards(&s) == s.hand[S]);
    play(&s, "8D");
    assert_true(legal_cards(&s) == s.hand[W]);
    play(&s, "2C");
    /* No trump: the highest heart wins. */
    assert_int_equal(s.t.winner[0], N);
    /* E still follows suit. */
    play(&s, "KH");
    play_expect(&s, "2S", BARBU_EFOLLOW);
}

/* ... but a trumped trick must still be over-trumped when possible. */
static void test_must_overtrump_with_must_trump_off(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "must-trump = no\n");
    barbu_cards h[4];
    plain_lead_deal(h);
    barbu_state s;
    ready(&s, &r, h);
    play_seq(&s, "AH 3H");
    play(&s, "5S"); /* S trumps by choice */
    assert_true(legal_cards(&s) == cards_of("AS KS QS JS TS 9S 8S 7S 6S"));
    play_expect(&s, "2C", BARBU_EOVERTRUMP);
    play_expect(&s, "3S", BARBU_EOVERTRUMP);
    play(&s, "AS");
    assert_int_equal(s.t.winner[0], W);
}

/* Over-trumping looks at the highest trump so far, and a card of the suit
 * led, however high, loses to a trump. */
static void test_overtrump_the_highest(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hands_of(h, "2.AKQJT987654.2.-", "KJ9.32.-.AKQJT987", "8.-.AKQJT9876543.-",
             "AQT76543.-.-.65432");
    barbu_state s;
    ready(&s, &r, h);
    play(&s, "2D");
    /* E, void in diamonds, must trump: any trump while none is down. */
    assert_true(legal_cards(&s) == cards_of("KS JS 9S"));
    play_expect(&s, "AC", BARBU_ETRUMP);
    play(&s, "9S");
    /* S follows diamonds. */
    assert_int_equal(barbu_count(legal_cards(&s)), 12);
    play_expect(&s, "8S", BARBU_EFOLLOW);
    play(&s, "AD");
    /* W must beat 9S, not merely trump. */
    assert_true(legal_cards(&s) == cards_of("AS QS TS"));
    play_expect(&s, "7S", BARBU_EOVERTRUMP);
    play_expect(&s, "3S", BARBU_EOVERTRUMP);
    play_expect(&s, "2C", BARBU_EOVERTRUMP);
    play(&s, "TS");
    assert_int_equal(s.t.winner[0], W);

    /* W leads a club; N, void, trumps with 2S; E follows; S, void in clubs,
     * must over-trump with 8S. */
    play(&s, "2C");
    assert_true(legal_cards(&s) == cards_of("2S"));
    play(&s, "2S");
    assert_true(legal_cards(&s) == cards_of("AC KC QC JC TC 9C 8C 7C"));
    play(&s, "AC");
    assert_true(legal_cards(&s) == cards_of("8S"));
    play_expect(&s, "3D", BARBU_EOVERTRUMP);
    play(&s, "8S");
    assert_int_equal(s.t.winner[1], S);
}

/* Trumps scores 5 a trick: N with every spade takes all 13 (+65). */
static void test_trumps_all_tricks(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hands_of(h, "AKQJT98765432.-.-.-", "-.AKQJT98765432.-.-", "-.-.AKQJT98765432.-",
             "-.-.-.AKQJT98765432");
    barbu_state s;
    ready(&s, &r, h);
    for (int k = 0; k < 13; k++) {
        assert_int_equal(barbu_to_move(&s), N);
        if (k > 0) {
            /* A trump led to players void in trumps: anything. */
            assert_true(legal_cards(&s) == s.hand[N]);
        }
        barbu_card lead = (barbu_card)(BARBU_CARD(BARBU_SPADES, BARBU_ACE) - k);
        assert_int_equal(barbu_play(&s, lead), 0);
        for (int i = 0; i < 3; i++) {
            assert_true(barbu_playable(&s) == s.hand[barbu_to_move(&s)]);
            assert_int_equal(barbu_play(&s, (barbu_card)__builtin_ctzll(barbu_playable(&s))), 0);
        }
    }
    assert_int_equal(s.t.deal, 1);
    assert_int_equal(s.t.last.tricks[N], 13);
    assert_int_equal(s.t.last.raw[N], 65);
    assert_int_equal(s.t.last.raw[E], 0);
    assert_int_equal(s.t.last.trump, BARBU_SPADES);
}

/* Random Trumps deals: each trick is worth 5 and no trick ends early. */
static void test_trumps_random_scores(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_rng rng;
    barbu_rng_seed(&rng, 77);
    for (int g = 0; g < 40; g++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &r, (uint64_t)g), 0);
        declare(&s, "trumps", g % 4, 0);
        bid_double_declarer(&s);
        while (s.t.deal == 0) {
            /* The winner of every trick holds the highest trump in it, or the
             * highest card of the suit led. */
            if (s.t.trick.n == 3) {
                barbu_trick k = s.t.trick;
                barbu_card c = (barbu_card)__builtin_ctzll(barbu_playable(&s));
                assert_int_equal(barbu_play(&s, c), 0);
                k.card[3] = c;
                int best = 0;
                for (int i = 1; i < 4; i++) {
                    int a = k.card[i], b = k.card[best];
                    bool at = BARBU_SUIT(a) == g % 4, bt = BARBU_SUIT(b) == g % 4;
                    if ((at && !bt) || (BARBU_SUIT(a) == BARBU_SUIT(b) && a > b))
                        best = i;
                }
                if (s.t.deal == 0)
                    assert_int_equal(s.t.winner[s.t.ntricks - 1], (k.leader + best) & 3);
                continue;
            }
            assert_int_equal(barbu_play_random(&s, &rng), 0);
        }
        int sum = 0;
        for (int seat = 0; seat < 4; seat++) {
            assert_int_equal(s.t.last.raw[seat], 5 * s.t.last.tricks[seat]);
            sum += s.t.last.raw[seat];
        }
        assert_int_equal(sum, 65);
        assert_int_equal(s.t.last.tricks_left, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trump_led_must_beat),
        cmocka_unit_test(test_trump_led_void),
        cmocka_unit_test(test_plain_led_obligations),
        cmocka_unit_test(test_must_trump_off),
        cmocka_unit_test(test_must_overtrump_with_must_trump_off),
        cmocka_unit_test(test_overtrump_the_highest),
        cmocka_unit_test(test_trumps_all_tricks),
        cmocka_unit_test(test_trumps_random_scores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
