/*
 * test_israeli.c - the Israeli rule (seed 002 rule 7) and its options.
 * With "enforce", the holder of the last penalty card still in play who
 * cannot follow suit, and is doubled equally with the other three, must
 * discard it; doubled unequally, they may keep it.  With "advise" the view
 * flags the penalty cards but play is free; with "off" nothing happens.
 */
#include "helpers.h"

#define BIT(seat) (1u << (seat))

/* No King: N holds every spade, E the king of hearts and no spade. */
static void king_deal(barbu_cards h[4])
{
    hands_of(h, "AKQJT98765432.-.-.-", "-.KQJT98765432.A.-", "-.A.KQJT98765432.-",
             "-.-.-.AKQJT98765432");
}

/* Each seat holds one whole suit. */
static void suits_deal(barbu_cards h[4])
{
    hands_of(h, "AKQJT98765432.-.-.-", "-.AKQJT98765432.-.-", "-.-.AKQJT98765432.-",
             "-.-.-.AKQJT98765432");
}

/* No Hearts: N leads spades; E, S and W discard hearts until W holds the
 * last one. */
static void hearts_deal(barbu_cards h[4])
{
    hands_of(h, "AKQJT98765432.-.-.-", "-.AKQJ.AKQJT9876.-", "-.T987.5432.AKQJT",
             "-.65432.-.98765432");
}

enum { EQUAL, EQUAL_NONE, UNEQUAL };

/* N declares; the doubling leaves everyone doubled once with everyone
 * (EQUAL), E with no business at all (EQUAL_NONE), or each of E, S, W
 * doubled with N only (UNEQUAL). */
static void ready(barbu_state *s, const barbu_rules *r, const barbu_cards h[4], const char *key,
                  int business)
{
    start_game(s, r, N, h);
    declare(s, key, -1, 0);
    const unsigned none[4] = {0, 0, 0, 0};
    if (business == EQUAL) {
        bid_everyone_once(s);
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++)
                if (a != b)
                    assert_int_equal(barbu_business(s->t.dbl, s->t.rdbl, a, b), 1);
    } else if (business == EQUAL_NONE) {
        const unsigned dbl[4] = {0, 0, BIT(W), 0};
        bid_all(s, dbl, none);
    } else {
        bid_double_declarer(s);
    }
    assert_int_equal(s->t.phase, BARBU_PHASE_PLAY);
}

static barbu_cards advice(const barbu_state *s, int seat)
{
    barbu_view v;
    barbu_view_of(s, seat, &v);
    return v.advice;
}

static barbu_cards view_legal_cards(const barbu_state *s, int seat)
{
    barbu_view v;
    barbu_view_of(s, seat, &v);
    barbu_action acts[BARBU_MAX_ACTIONS];
    int n = barbu_view_legal(&v, acts, BARBU_MAX_ACTIONS);
    barbu_cards set = 0;
    for (int i = 0; i < n; i++)
        set |= acts[i].cards;
    return set;
}

/* No King, enforced: E must discard the king of hearts at once. */
static void test_enforce_no_king(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "israeli = enforce\n");
    barbu_cards h[4];
    king_deal(h);
    for (int b = EQUAL; b <= EQUAL_NONE; b++) {
        barbu_state s;
        ready(&s, &r, h, "no-king", b);
        assert_true(s.t.rule_flags & BARBU_CF_ISRAELI);
        play(&s, "AS");
        assert_true(legal_cards(&s) == cards_of("KH"));
        assert_true(barbu_playable(&s) == cards_of("KH"));
        assert_true(view_legal_cards(&s, E) == cards_of("KH"));
        assert_true(advice(&s, E) == cards_of("KH"));
        play_expect(&s, "QH", BARBU_EISRAELI);
        play_expect(&s, "AD", BARBU_EISRAELI);
        assert_int_equal(barbu_play(&s, card_of("2H")), BARBU_EISRAELI);
        play(&s, "KH");
        /* S holds no penalty card: free. */
        assert_true(legal_cards(&s) == s.hand[S]);
        play_seq(&s, "AH 2C");
        /* N took the king: the deal is over. */
        assert_int_equal(s.t.deal, 1);
        assert_int_equal(s.t.last.raw[N], -20);
        assert_int_equal(s.t.last.tricks_left, 12);
    }
}

/* Doubled unequally, E may keep the king (seed 002 rule 7a). */
static void test_enforce_unequal(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "israeli = enforce\n");
    barbu_cards h[4];
    king_deal(h);
    barbu_state s;
    ready(&s, &r, h, "no-king", UNEQUAL);
    assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, E, N), 1);
    assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, E, S), 0);
    play(&s, "AS");
    assert_true(legal_cards(&s) == s.hand[E]);
    assert_true(advice(&s, E) == 0);
    play(&s, "QH");
    assert_int_equal(s.t.trick.n, 2);
}

/* A player who can follow suit follows, penalty card or not. */
static void test_enforce_follow_first(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "israeli = enforce\n");
    barbu_cards h[4];
    hands_of(h, "AKQJT987654.-.-.32", "32.KQJT9876543.-.-", "-.A2.AKQJT987654.-",
             "-.-.32.AKQJT987654");
    barbu_state s;
    ready(&s, &r, h, "no-king", EQUAL);
    play(&s, "AS");
    assert_true(legal_cards(&s) == cards_of("3S 2S"));
    assert_true(advice(&s, E) == 0);
    play_expect(&s, "KH", BARBU_EFOLLOW);
    play(&s, "2S");
}

/* No Queens: only the last queen in play must go. */
static void test_enforce_no_queens(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "israeli = enforce\n");
    barbu_cards h[4];
    suits_deal(h);
    barbu_state s;
    ready(&s, &r, h, "no-queens", EQUAL);
    play(&s, "AS");
    /* Four queens out: E may keep QH. */
    assert_true(legal_cards(&s) == s.hand[E]);
    assert_true(advice(&s, E) == cards_of("QH"));
    play(&s, "QH");
    /* Three queens left (QS, QD, QC): free. */
    assert_true(legal_cards(&s) == s.hand[S]);
    play(&s, "QD");
    /* Two left, QS with N and QC with W: free. */
    assert_true(legal_cards(&s) == s.hand[W]);
    play(&s, "2C");
    assert_int_equal(s.t.winner[0], N);

    play(&s, "QS");
    /* With QS on the table, QC is the last queen; E does not hold it. */
    assert_true(legal_cards(&s) == s.hand[E]);
    play(&s, "2H");
    play(&s, "2D");
    assert_true(legal_cards(&s) == cards_of("QC"));
    assert_true(view_legal_cards(&s, W) == cards_of("QC"));
    play_expect(&s, "3C", BARBU_EISRAELI);
    play(&s, "QC");
    assert_int_equal(s.t.deal, 1);
    assert_int_equal(s.t.last.raw[N], -24);
    assert_int_equal(s.t.last.tricks_left, 11);
}

/* No Hearts: the last heart must go. */
static void test_enforce_no_hearts(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "israeli = enforce\n");
    barbu_cards h[4];
    hearts_deal(h);
    barbu_state s;
    ready(&s, &r, h, "no-hearts", EQUAL);
    play_seq(&s, "AS AH TH 6H KS KH 9H 5H QS QH 8H 4H JS JH 7H");
    /* W holds the last two hearts: free. */
    assert_true(legal_cards(&s) == s.hand[W]);
    play(&s, "3H");
    play_seq(&s, "TS AD 5D");
    assert_true(legal_cards(&s) == cards_of("2H"));
    play_expect(&s, "2C", BARBU_EISRAELI);
    play(&s, "2H");
    assert_int_equal(s.t.winner[4], N);
    /* No Hearts does not end early: the deal goes on. */
    assert_int_equal(s.t.deal, 0);
    assert_true(s.t.taken[N] ==
                (cards_of("AS KS QS JS TS AD 5D") | BARBU_SUIT_CARDS(BARBU_HEARTS)));

    /* Doubled unequally, W may keep the last heart. */
    ready(&s, &r, h, "no-hearts", UNEQUAL);
    play_seq(&s, "AS AH TH 6H KS KH 9H 5H QS QH 8H 4H JS JH 7H 3H TS AD 5D");
    assert_true(legal_cards(&s) == s.hand[W]);
    play(&s, "2C");
}

/* Advise: the view flags the penalty cards; play is free. */
static void test_advise(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "israeli = advise\n");
    barbu_cards h[4];
    king_deal(h);
    barbu_state s;
    ready(&s, &r, h, "no-king", EQUAL);
    assert_true(s.t.rule_flags & BARBU_CF_ISRAELI);
    play(&s, "AS");
    assert_true(advice(&s, E) == cards_of("KH"));
    /* Only the seat to move is advised. */
    assert_true(advice(&s, S) == 0);
    assert_true(advice(&s, N) == 0);
    assert_true(legal_cards(&s) == s.hand[E]);
    play(&s, "QH");

    /* No Queens: every penalty card in hand is flagged. */
    suits_deal(h);
    ready(&s, &r, h, "no-queens", EQUAL);
    play(&s, "AS");
    assert_true(advice(&s, E) == cards_of("QH"));
    play(&s, "2H");
    assert_true(advice(&s, S) == cards_of("QD"));

    /* Doubled unequally: no advice. */
    king_deal(h);
    ready(&s, &r, h, "no-king", UNEQUAL);
    play(&s, "AS");
    assert_true(advice(&s, E) == 0);
}

/* Off (the uk default): no advice and free play. */
static void test_off(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    assert_int_equal(r.israeli, BARBU_ISRAELI_OFF);
    barbu_cards h[4];
    king_deal(h);
    barbu_state s;
    ready(&s, &r, h, "no-king", EQUAL);
    assert_int_equal(s.t.rule_flags & BARBU_CF_ISRAELI, 0);
    play(&s, "AS");
    assert_true(advice(&s, E) == 0);
    assert_true(legal_cards(&s) == s.hand[E]);
    play(&s, "QH");
}

/* The rule belongs to the contracts with penalty cards: not No Tricks, and
 * not a contract whose rules file removes it. */
static void test_contracts_without_the_rule(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "israeli = enforce\n");
    barbu_cards h[4];
    king_deal(h);
    barbu_state s;
    ready(&s, &r, h, "no-tricks", EQUAL);
    assert_int_equal(s.t.rule_flags & BARBU_CF_ISRAELI, 0);
    play(&s, "AS");
    assert_true(legal_cards(&s) == s.hand[E]);
    assert_true(advice(&s, E) == 0);

    rules_text(&r, "israeli = enforce\nno-king.rules = hearts-lead early-end\n");
    ready(&s, &r, h, "no-king", EQUAL);
    play(&s, "AS");
    assert_true(legal_cards(&s) == s.hand[E]);
    play(&s, "QH");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enforce_no_king),
        cmocka_unit_test(test_enforce_unequal),
        cmocka_unit_test(test_enforce_follow_first),
        cmocka_unit_test(test_enforce_no_queens),
        cmocka_unit_test(test_enforce_no_hearts),
        cmocka_unit_test(test_advise),
        cmocka_unit_test(test_off),
        cmocka_unit_test(test_contracts_without_the_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
