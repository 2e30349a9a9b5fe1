/*
 * test_doubling.c - doubles and redoubles (seeds 002, 003, 004): the order
 * from the declarer's left, whom each seat may double, redoubles, the
 * declarer's last word, the Max and Family shortcuts, compulsory doubles
 * (seed 002 rule 5.3) and the options that turn them off.
 */
#include "helpers.h"

#define BIT(seat) (1u << (seat))

static void bid(barbu_state *s, unsigned dbl, unsigned rdbl, int err)
{
    barbu_action a = barbu_act_bid(barbu_to_move(s), dbl, rdbl);
    assert_int_equal(barbu_check(s, &a), err);
    assert_int_equal(barbu_apply(s, &a), err);
}

static void new_game(barbu_state *s, const barbu_rules *r, const char *key, int trump, int rank)
{
    start_game(s, r, N, NULL);
    declare(s, key, trump, rank);
    assert_int_equal(s->t.phase, BARBU_PHASE_BID);
}

static bool has_bid(const barbu_state *s, unsigned dbl, unsigned rdbl)
{
    barbu_action acts[BARBU_MAX_ACTIONS];
    int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
    barbu_action want = barbu_act_bid(barbu_to_move(s), dbl, rdbl);
    for (int i = 0; i < n; i++)
        if (barbu_action_equal(&acts[i], &want))
            return true;
    return false;
}

/* The doubling goes round from the declarer's left; the declarer, doubled,
 * has the last word (seed 004). */
static void test_order(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    new_game(&s, &r, "no-tricks", -1, 0);
    assert_int_equal(barbu_to_move(&s), E);
    barbu_action wrong = barbu_act_bid(S, 0, 0);
    assert_int_equal(barbu_apply(&s, &wrong), BARBU_ETURN);
    bid(&s, 0, 0, 0);
    assert_int_equal(barbu_to_move(&s), S);
    bid(&s, BIT(N), 0, 0);
    assert_int_equal(barbu_to_move(&s), W);
    bid(&s, 0, 0, 0);
    assert_int_equal(barbu_to_move(&s), N);
    assert_int_equal(s.t.phase, BARBU_PHASE_BID);
    bid(&s, 0, BIT(S), 0);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(barbu_to_move(&s), N);
    assert_int_equal(s.t.bids, 0xf);
    assert_int_equal(s.t.dbl[S], BIT(N));
    assert_int_equal(s.t.rdbl[N], BIT(S));
    assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, N, S), 2);
    assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, S, N), 2);
    assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, N, E), 0);

    /* Another declarer: the order starts from their left. */
    start_game(&s, &r, W, NULL);
    declare(&s, "no-queens", -1, 0);
    assert_int_equal(barbu_to_move(&s), N);
    bid(&s, BIT(W), 0, 0);
    assert_int_equal(barbu_to_move(&s), E);
    bid(&s, 0, 0, 0);
    bid(&s, 0, 0, 0);
    assert_int_equal(barbu_to_move(&s), W);
}

/* Nobody doubled the declarer: it has nothing to say and is skipped. */
static void test_declarer_skipped(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    new_game(&s, &r, "no-tricks", -1, 0);
    bid(&s, BIT(S), 0, 0);
    bid(&s, 0, BIT(E), 0);
    bid(&s, 0, 0, 0);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(barbu_to_move(&s), N);
    assert_int_equal(s.t.bids, BIT(E) | BIT(S) | BIT(W));
    assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, E, S), 2);
}

/* At a negative contract a non-declarer may double any other player, and
 * redouble only those who doubled it (seeds 003, 004). */
static void test_negative_doubles(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    new_game(&s, &r, "no-hearts", -1, 0);

    /* E: every subset of N, S and W; no redoubles. */
    barbu_action acts[BARBU_MAX_ACTIONS];
    assert_int_equal(barbu_legal(&s, acts, BARBU_MAX_ACTIONS), 8);
    assert_true(barbu_action_equal(&acts[0], &(barbu_action){.type = BARBU_ACT_BID, .seat = E}));
    assert_true(has_bid(&s, BIT(N) | BIT(S) | BIT(W), 0));
    assert_true(has_bid(&s, BIT(S), 0));
    /* The count of all the legal actions even when fewer fit. */
    assert_int_equal(barbu_legal(&s, acts, 2), 8);
    bid(&s, BIT(E), 0, BARBU_EDOUBLE);
    bid(&s, 0x10, 0, BARBU_EDOUBLE);
    bid(&s, 0, BIT(S), BARBU_EREDOUBLE);
    bid(&s, BIT(S) | BIT(W), 0, 0);

    /* S was doubled by E: it may redouble E but not double E back. */
    assert_int_equal(barbu_legal(&s, acts, BARBU_MAX_ACTIONS), 8);
    bid(&s, BIT(E), 0, BARBU_EDOUBLE);
    bid(&s, 0, BIT(W), BARBU_EREDOUBLE);
    bid(&s, BIT(S), 0, BARBU_EDOUBLE);
    bid(&s, BIT(N) | BIT(W), BIT(E), 0);

    /* W was doubled by E and S. */
    assert_int_equal(barbu_legal(&s, acts, BARBU_MAX_ACTIONS), 8);
    bid(&s, BIT(E), 0, BARBU_EDOUBLE);
    bid(&s, BIT(S), 0, BARBU_EDOUBLE);
    bid(&s, 0, BIT(N), BARBU_EREDOUBLE);
    bid(&s, BIT(N), BIT(E), 0);

    /* N, the declarer, may only redouble those who doubled it: S and W. */
    assert_int_equal(barbu_to_move(&s), N);
    assert_int_equal(barbu_legal(&s, acts, BARBU_MAX_ACTIONS), 4);
    bid(&s, BIT(E), 0, BARBU_EDOUBLE);
    bid(&s, BIT(S), 0, BARBU_EDOUBLE);
    bid(&s, 0, BIT(E), BARBU_EREDOUBLE);
    bid(&s, 0, BIT(S), 0);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);

    const uint8_t *d = s.t.dbl, *rd = s.t.rdbl;
    assert_int_equal(barbu_business(d, rd, E, S), 2);
    assert_int_equal(barbu_business(d, rd, E, W), 2);
    assert_int_equal(barbu_business(d, rd, E, N), 0);
    assert_int_equal(barbu_business(d, rd, S, W), 1);
    assert_int_equal(barbu_business(d, rd, S, N), 2);
    assert_int_equal(barbu_business(d, rd, W, N), 1);
}

/* At a positive contract only the declarer may be doubled (seed 002 rule
 * 5.1); the declarer may redouble (5.2). */
static void test_positive_doubles(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    for (int k = 0; k < 2; k++) {
        barbu_state s;
        if (k == 0)
            new_game(&s, &r, "trumps", BARBU_HEARTS, 0);
        else
            new_game(&s, &r, "domino", -1, 8);
        barbu_action acts[BARBU_MAX_ACTIONS];
        assert_int_equal(barbu_legal(&s, acts, BARBU_MAX_ACTIONS), 2);
        assert_true(has_bid(&s, 0, 0));
        assert_true(has_bid(&s, BIT(N), 0));
        bid(&s, BIT(S), 0, BARBU_EDOUBLE);
        bid(&s, BIT(N) | BIT(W), 0, BARBU_EDOUBLE);
        bid(&s, BIT(N), 0, 0);
        bid(&s, BIT(W), 0, BARBU_EDOUBLE);
        bid(&s, BIT(E), 0, BARBU_EDOUBLE);
        bid(&s, 0, 0, 0);
        bid(&s, BIT(N), 0, 0);
        assert_int_equal(barbu_to_move(&s), N);
        bid(&s, BIT(E), 0, BARBU_EDOUBLE);
        bid(&s, 0, BIT(S), BARBU_EREDOUBLE);
        bid(&s, 0, BIT(E) | BIT(W), 0);
        assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
        assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, N, E), 2);
        assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, N, S), 0);
        assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, N, W), 2);
        assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, E, W), 0);
    }
}

/* "Max" doubles everyone allowed and redoubles everyone who doubled;
 * "family" doubles the other two non-declarers (seeds 002, 004). */
static void test_shortcuts(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    barbu_action a;
    new_game(&s, &r, "no-tricks", -1, 0);

    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_FAMILY, &a), 0);
    assert_int_equal(a.type, BARBU_ACT_BID);
    assert_int_equal(a.seat, E);
    assert_int_equal(a.doubles, BIT(S) | BIT(W));
    assert_int_equal(a.redoubles, 0);
    assert_int_equal(barbu_check(&s, &a), 0);
    assert_int_equal(barbu_bid_shortcut(&r, &s.t, 99, &a), BARBU_EINVAL);

    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_MAX, &a), 0);
    assert_int_equal(a.seat, E);
    assert_int_equal(a.doubles, BIT(N) | BIT(S) | BIT(W));
    assert_int_equal(a.redoubles, 0);
    assert_int_equal(barbu_apply(&s, &a), 0);

    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_MAX, &a), 0);
    assert_int_equal(a.seat, S);
    assert_int_equal(a.doubles, BIT(N) | BIT(W));
    assert_int_equal(a.redoubles, BIT(E));
    assert_int_equal(barbu_apply(&s, &a), 0);

    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_MAX, &a), 0);
    assert_int_equal(a.seat, W);
    assert_int_equal(a.doubles, BIT(N));
    assert_int_equal(a.redoubles, BIT(E) | BIT(S));
    assert_int_equal(barbu_apply(&s, &a), 0);

    /* The declarer's Max only redoubles; it has no Family. */
    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_FAMILY, &a), BARBU_EDOUBLE);
    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_MAX, &a), 0);
    assert_int_equal(a.seat, N);
    assert_int_equal(a.doubles, 0);
    assert_int_equal(a.redoubles, BIT(E) | BIT(S) | BIT(W));
    assert_int_equal(barbu_apply(&s, &a), 0);
    /* Max all round: every pair redoubled. */
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 4; y++)
            if (x != y)
                assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, x, y), 2);

    /* Outside the bidding there is no shortcut. */
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_MAX, &a), BARBU_EPHASE);

    /* At a positive contract Max doubles only the declarer; Family is
     * impossible. */
    new_game(&s, &r, "trumps", BARBU_CLUBS, 0);
    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_FAMILY, &a), BARBU_EDOUBLE);
    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_MAX, &a), 0);
    assert_int_equal(a.doubles, BIT(N));
    assert_int_equal(a.redoubles, 0);
    assert_int_equal(barbu_apply(&s, &a), 0);
    bid(&s, 0, 0, 0);
    bid(&s, 0, 0, 0);
    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_MAX, &a), 0);
    assert_int_equal(a.seat, N);
    assert_int_equal(a.doubles, 0);
    assert_int_equal(a.redoubles, BIT(E));
}

/*
 * "Family" after a flank has doubled you.  E (first to bid) doubles S; S
 * then says "family".  The header says the shortcut "fills *out for the
 * seat to move; barbu_check says whether the result is legal", and seed 004
 * says a player receiving a double may redouble it (as "maximum" does).  S
 * cannot double E back, but still names both flanks: the shortcut should
 * give S business with E and W, not fail.
 */
static void test_family_after_flank_doubled(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    new_game(&s, &r, "no-queens", -1, 0);
    bid(&s, BIT(S), 0, 0);
    barbu_action a;
    memset(&a, 0, sizeof a);
    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_FAMILY, &a), 0);
    assert_int_equal(a.type, BARBU_ACT_BID);
    assert_int_equal(a.seat, S);
    /* W is doubled; E, who doubled S, is redoubled; the declarer is left alone. */
    assert_int_equal(a.doubles, BIT(W));
    assert_int_equal(a.redoubles, BIT(E));
    assert_int_equal(barbu_check(&s, &a), 0);
}

/* Random contracts and random cards until the bidding of the next deal. */
static void to_next_bid(barbu_state *s, barbu_rng *rng)
{
    while (!barbu_over(s) && s->t.phase != BARBU_PHASE_BID) {
        if (s->t.phase == BARBU_PHASE_DECLARE) {
            barbu_action acts[BARBU_MAX_ACTIONS];
            int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
            assert_int_equal(barbu_apply(s, &acts[barbu_rng_below(rng, (uint32_t)n)]), 0);
        } else {
            assert_int_equal(barbu_play_random(s, rng), 0);
        }
    }
}

/*
 * Each player must double each declarer at least twice in that declarer's
 * seven contracts (seed 002 rule 5.3, seed 004).  Players here double only
 * when they must: the double becomes compulsory when the declarer's
 * remaining contracts, this one included, equal the doubles still owed.
 */
static void test_compulsory_every_deal(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 4; y++)
            assert_int_equal(s.t.owed[x][y], x == y ? 0 : 2);
    barbu_rng rng;
    barbu_rng_seed(&rng, 11);
    int doubled[4][4] = {{0}};
    int compulsory_seen = 0;
    for (;;) {
        to_next_bid(&s, &rng);
        if (barbu_over(&s))
            break;
        int seat = barbu_to_move(&s), decl = s.t.declarer;
        int nth = s.t.declared[decl]; /* this is the declarer's nth contract */
        barbu_view v;
        barbu_view_of(&s, seat, &v);
        if (seat == decl) {
            assert_false(v.compulsory);
            bid(&s, 0, 0, 0);
            continue;
        }
        int owed = s.t.owed[seat][decl];
        assert_int_equal(barbu_view_owed(&v, seat), owed);
        assert_int_equal(owed, nth <= 6 ? 2 : 1);
        bool must = nth >= 6;
        assert_int_equal(v.compulsory, must);
        if (must) {
            compulsory_seen++;
            /* The other seats see the same count by this seat's name. */
            barbu_view other;
            barbu_view_of(&s, decl, &other);
            assert_int_equal(barbu_view_owed(&other, seat), owed);
            assert_false(has_bid(&s, 0, 0));
            assert_true(has_bid(&s, BIT(decl), 0));
            bid(&s, 0, 0, BARBU_ECOMPULSORY);
            bid(&s, BIT(decl), 0, 0);
            doubled[seat][decl]++;
            assert_int_equal(s.t.owed[seat][decl], owed - 1);
        } else {
            assert_true(has_bid(&s, 0, 0));
            bid(&s, 0, 0, 0);
            assert_int_equal(s.t.owed[seat][decl], owed);
        }
    }
    assert_int_equal(s.t.deal, 28);
    assert_int_equal(compulsory_seen, 4 * 3 * 2);
    for (int x = 0; x < 4; x++) {
        for (int y = 0; y < 4; y++) {
            assert_int_equal(s.t.owed[x][y], 0);
            assert_int_equal(doubled[x][y], x == y ? 0 : 2);
        }
    }
}

/* A double made freely counts towards the two owed (classic rotation: N
 * declares the first seven deals). */
static void test_compulsory_after_free_double(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "classic");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    barbu_rng rng;
    barbu_rng_seed(&rng, 12);
    for (int deal = 0; deal < 7; deal++) {
        to_next_bid(&s, &rng);
        assert_int_equal(s.t.deal, deal);
        assert_int_equal(s.t.declarer, N);
        assert_int_equal(s.t.declared[N], deal + 1);
        barbu_view v;
        for (int seat = E; seat <= W; seat++) {
            assert_int_equal(barbu_to_move(&s), seat);
            barbu_view_of(&s, seat, &v);
            /* E doubled N freely in the first deal and owes one more, due at
             * the seventh; S and W owe two, due at the sixth and seventh. */
            bool must = seat == E ? deal == 6 : deal >= 5;
            assert_int_equal(v.compulsory, must);
            int owed = seat == E ? (deal == 0 ? 2 : 1) : (deal <= 5 ? 2 : 1);
            assert_int_equal(barbu_view_owed(&v, seat), owed);
            if (must)
                bid(&s, 0, 0, BARBU_ECOMPULSORY);
            bool dbl = must || (seat == E && deal == 0);
            bid(&s, dbl ? BIT(N) : 0, 0, 0);
            assert_int_equal(s.t.owed[seat][N], dbl ? owed - 1 : owed);
            if (s.t.phase != BARBU_PHASE_BID)
                break;
        }
        if (s.t.phase == BARBU_PHASE_BID) {
            /* N was doubled: it may answer, with nothing compulsory. */
            barbu_view_of(&s, N, &v);
            assert_false(v.compulsory);
            bid(&s, 0, 0, 0);
        }
    }
    for (int seat = E; seat <= W; seat++)
        assert_int_equal(s.t.owed[seat][N], 0);
    /* E's deals start with two owed to E. */
    to_next_bid(&s, &rng);
    assert_int_equal(s.t.declarer, E);
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(s.t.owed[seat][E], seat == E ? 0 : 2);
}

/* mandatory-doubles = 0: no double is ever compulsory. */
static void test_no_mandatory_doubles(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "mandatory-doubles = 0\n");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 4; y++)
            assert_int_equal(s.t.owed[x][y], 0);
    barbu_rng rng;
    barbu_rng_seed(&rng, 13);
    int bids = 0;
    for (;;) {
        to_next_bid(&s, &rng);
        if (barbu_over(&s))
            break;
        barbu_view v;
        barbu_view_of(&s, barbu_to_move(&s), &v);
        assert_false(v.compulsory);
        assert_int_equal(barbu_view_owed(&v, barbu_to_move(&s)), 0);
        bid(&s, 0, 0, 0);
        bids++;
    }
    assert_int_equal(s.t.deal, 28);
    assert_int_equal(bids, 28 * 3);
}

/* doubling = no: no bidding at all, and negative contracts are played. */
static void test_doubling_off(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "doubling = no\n");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 4; y++)
            assert_int_equal(s.t.owed[x][y], 0);
    declare(&s, "no-tricks", -1, 0);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(barbu_to_move(&s), N);
    barbu_action a = barbu_act_bid(N, 0, 0);
    assert_int_equal(barbu_apply(&s, &a), BARBU_EPHASE);
    assert_int_equal(barbu_bid_shortcut(&r, &s.t, BARBU_BID_MAX, &a), BARBU_EPHASE);
    barbu_rng rng;
    barbu_rng_seed(&rng, 14);
    while (s.t.deal == 0)
        assert_int_equal(barbu_play_random(&s, &rng), 0);
    assert_int_equal(s.t.last.played, 1);
    int sum = 0;
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(s.t.last.raw[seat], -2 * s.t.last.tricks[seat]);
        assert_int_equal(s.t.last.score[seat], s.t.last.raw[seat]);
        sum += s.t.last.score[seat];
    }
    assert_int_equal(sum, -26);
    /* A whole game goes by without a bid. */
    while (!barbu_over(&s)) {
        assert_int_not_equal(s.t.phase, BARBU_PHASE_BID);
        finish_deal_random(&s, &rng);
        assert_int_equal(s.t.last.played, 1);
    }
    assert_int_equal(s.t.deal, 28);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_declarer_skipped),
        cmocka_unit_test(test_negative_doubles),
        cmocka_unit_test(test_positive_doubles),
        cmocka_unit_test(test_shortcuts),
        cmocka_unit_test(test_family_after_flank_doubled),
        cmocka_unit_test(test_compulsory_every_deal),
        cmocka_unit_test(test_compulsory_after_free_double),
        cmocka_unit_test(test_no_mandatory_doubles),
        cmocka_unit_test(test_doubling_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
