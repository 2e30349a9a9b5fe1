/*
 * test_ravage.c - Ravage City (seed 004): whoever took the most cards of any
 * one suit scores -24, shared by the players tied for the most (-12, -8, -6);
 * played as a no-trump trick contract; a negative contract, so anyone may
 * double anyone and an undoubled one is shared out (-8 each, declarer 0).
 */
#include "helpers.h"

#define BIT(seat) (1u << (seat))

/* The most cards of one suit in a set of taken cards. */
static int most_of_a_suit(barbu_cards taken)
{
    int most = 0;
    for (int suit = 0; suit < 4; suit++) {
        int n = barbu_count(taken & BARBU_SUIT_CARDS(suit));
        if (n > most)
            most = n;
    }
    return most;
}

/* Checks how many cards of each suit (spades, hearts, diamonds, clubs) each
 * seat took, so that the reader can see where the tie comes from. */
static void expect_taken(const barbu_result *res, const int by_suit[4][4])
{
    static const int suits[4] = {BARBU_SPADES, BARBU_HEARTS, BARBU_DIAMONDS, BARBU_CLUBS};
    for (int seat = 0; seat < 4; seat++)
        for (int i = 0; i < 4; i++)
            assert_int_equal(barbu_count(res->taken[seat] & BARBU_SUIT_CARDS(suits[i])),
                             by_suit[seat][i]);
}

/* N declares Ravage City on a composed deal; E, S and W double N so that it
 * is played; the 52 cards are played in the order of seq. */
static void play_ravage(barbu_state *s, const barbu_rules *r, const barbu_cards hands[4],
                        const barbu_card *seq)
{
    start_game(s, r, N, hands);
    declare(s, "ravage", -1, 0);
    /* Played as No Tricks: no trumps, no card scores, nothing ends early, and
     * hearts may be led at once. */
    assert_int_equal(s->t.kind, BARBU_KIND_TRICKS);
    assert_int_equal(s->t.trump, -1);
    assert_true(s->t.penalty == 0);
    assert_int_equal(s->t.rule_flags, 0);
    bid_double_declarer(s);
    assert_int_equal(s->t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(barbu_to_move(s), N);
    play_cards_seq(s, seq, 52);
    assert_int_equal(s->t.deal, 1);
}

/* Raw and settled scores: N doubled by each of the three others. */
static void expect_ravage(const barbu_state *s, const barbu_rules *r, const int raw[4])
{
    const barbu_result *res = &s->t.last;
    int c = contract_of(r, "ravage");
    int sum = 0;
    assert_int_equal(res->played, 1);
    assert_int_equal(res->tricks_left, 0);
    assert_int_equal(res->contracts, 1u << c);
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(res->raw[seat], raw[seat]);
        assert_int_equal(res->part[c][seat], raw[seat]);
        sum += raw[seat];
    }
    assert_int_equal(sum, barbu_contract_total(r, c));
    /* Each doubler against N: the difference of their raw scores. */
    int settled_n = raw[N];
    for (int seat = E; seat <= W; seat++) {
        assert_int_equal(res->score[seat], raw[seat] + (raw[seat] - raw[N]));
        settled_n += raw[N] - raw[seat];
    }
    assert_int_equal(res->score[N], settled_n);
    assert_int_equal(s->t.total[N] + s->t.total[E] + s->t.total[S] + s->t.total[W], sum);
}

/* The winners of a compose_tricks deal (tricks 1-3 spades, 4-6 hearts, 7-9
 * diamonds, 10-12 clubs, then the four twos to the leader). */
static void composed(const int winner[13], barbu_cards hands[4], barbu_card seq[52])
{
    compose_tricks(N, winner, hands, seq);
}

/* One player alone: N, E and S each take twelve cards of a suit, but W takes
 * the twelve clubs and then the last trick's 2C as well: 13 clubs. */
static void test_one_player(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "ravage");
    const int winner[13] = {N, N, N, E, E, E, S, S, S, W, W, W, W};
    barbu_cards h[4];
    barbu_card seq[52];
    composed(winner, h, seq);
    barbu_state s;
    play_ravage(&s, &r, h, seq);
    const int taken[4][4] = {{12, 0, 0, 0}, {0, 12, 0, 0}, {0, 0, 12, 0}, {1, 1, 1, 13}};
    expect_taken(&s.t.last, taken);
    const int raw[4] = {0, 0, 0, -24};
    expect_ravage(&s, &r, raw);
    /* W: -24 and -24 more against N; N gains 24 from W. */
    assert_int_equal(s.t.last.score[W], -48);
    assert_int_equal(s.t.last.score[N], 24);
}

/* Two players tied, with most of different suits: N eight spades, E eight
 * hearts; S four of each of three suits; W five clubs (with the last trick). */
static void test_two_players(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "ravage");
    const int winner[13] = {N, N, S, E, E, W, S, N, E, S, N, W, W};
    barbu_cards h[4];
    barbu_card seq[52];
    composed(winner, h, seq);
    barbu_state s;
    play_ravage(&s, &r, h, seq);
    const int taken[4][4] = {{8, 0, 4, 4}, {0, 8, 4, 0}, {4, 0, 4, 4}, {1, 5, 1, 5}};
    expect_taken(&s.t.last, taken);
    const int raw[4] = {-12, -12, 0, 0};
    expect_ravage(&s, &r, raw);
    assert_int_equal(s.t.last.score[N], -12 + 0 - 12 - 12);
}

/* Three tied at eight: N spades, E hearts, S diamonds; W five. */
static void test_three_players(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "ravage");
    const int winner[13] = {N, N, W, E, E, N, S, S, E, S, N, W, W};
    barbu_cards h[4];
    barbu_card seq[52];
    composed(winner, h, seq);
    barbu_state s;
    play_ravage(&s, &r, h, seq);
    const int taken[4][4] = {{8, 4, 0, 4}, {0, 8, 4, 0}, {0, 0, 8, 4}, {5, 1, 1, 5}};
    expect_taken(&s.t.last, taken);
    const int raw[4] = {-8, -8, -8, 0};
    expect_ravage(&s, &r, raw);
    assert_int_equal(s.t.last.score[W], 8);
}

/* All four tied at seven: a random deal found by search, with every trick
 * written out (leader first). */
static const char FOUR_HANDS[4][24] = {"3.AQ653.AT76.KJ6", "QT86.J94.KQ93.82", "J542.K87.82.AQ53",
                                       "AK97.T2.J54.T974"};
static const char FOUR_PLAY[] = "6H 9H 8H 2H  9D 8D 4D 7D  TS JS AS 3S  4C JC 2C 5C  "
                                "QH JH KH TH  AC TC 6C 8C  2D 5D 6D 3D  KC QS QC 9C  "
                                "TD KD 4S JD  QD 5S 9S AD  5H 4H 7H 7C  2S KS AH 6S  "
                                "7S 3H 8S 3C";

static void four_tied_deal(barbu_cards h[4], barbu_card seq[52])
{
    hands_of(h, FOUR_HANDS[0], FOUR_HANDS[1], FOUR_HANDS[2], FOUR_HANDS[3]);
    int n = 0;
    for (const char *p = FOUR_PLAY; *p;) {
        if (*p == ' ') {
            p++;
            continue;
        }
        const char *end;
        int card = barbu_card_parse(p, &end);
        assert_true(card >= 0);
        assert_true(n < 52);
        seq[n++] = (barbu_card)card;
        p = end;
    }
    assert_int_equal(n, 52);
}

static void test_four_players(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "ravage");
    barbu_cards h[4];
    barbu_card seq[52];
    four_tied_deal(h, seq);
    barbu_state s;
    play_ravage(&s, &r, h, seq);
    /* The tricks go to E E W N S S N N E N S W E: N takes 4 clubs, then
     * KC QC 9C, so 7 clubs; E 4 diamonds, then TD KD JD, so 7; S 4 hearts,
     * then 7H 4H 5H, so 7; W AS JS TS 3S and KS 6S 2S, so 7 spades. */
    const int tricks[4] = {4, 4, 3, 2};
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(s.t.last.tricks[seat], tricks[seat]);
    const int taken[4][4] = {{3, 0, 6, 7}, {3, 5, 7, 1}, {0, 7, 0, 5}, {7, 1, 0, 0}};
    expect_taken(&s.t.last, taken);
    const int raw[4] = {-6, -6, -6, -6};
    expect_ravage(&s, &r, raw);
    /* Equal raw scores: the doubles change nothing. */
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(s.t.last.score[seat], -6);
}

/* A house table: Ravage City -36 (seed 004's "some players"), balanced by
 * the Domino, splits -18, -12 and -9. */
static void test_house_shared(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "preset = ravage\nravage.shared = -36\ndomino.places = 62 25 10 0\n");
    assert_int_equal(barbu_contract_total(&r, contract_of(&r, "ravage")), -36);
    static const struct {
        int winner[13];
        int raw[4];
    } cases[] = {
        {{N, N, N, E, E, E, S, S, S, W, W, W, W}, {0, 0, 0, -36}},
        {{N, N, S, E, E, W, S, N, E, S, N, W, W}, {-18, -18, 0, 0}},
        {{N, N, W, E, E, N, S, S, E, S, N, W, W}, {-12, -12, -12, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        barbu_cards h[4];
        barbu_card seq[52];
        composed(cases[i].winner, h, seq);
        barbu_state s;
        play_ravage(&s, &r, h, seq);
        expect_ravage(&s, &r, cases[i].raw);
    }
    barbu_cards h[4];
    barbu_card seq[52];
    four_tied_deal(h, seq);
    barbu_state s;
    play_ravage(&s, &r, h, seq);
    const int raw[4] = {-9, -9, -9, -9};
    expect_ravage(&s, &r, raw);

    /* Undoubled: -12 each for the three others, 0 for the declarer. */
    start_game(&s, &r, E, NULL);
    declare(&s, "ravage", -1, 0);
    bid_nothing(&s);
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(s.t.last.raw[seat], seat == E ? 0 : -12);
}

/* Random deals: the score always follows the rule, computed here from the
 * cards each seat took, and every tie size turns up. */
static void test_random_deals(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "ravage");
    int c = contract_of(&r, "ravage");
    int seen[5] = {0};
    for (uint64_t seed = 1; seed <= 400; seed++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &r, seed), 0);
        declare(&s, "ravage", -1, 0);
        bid_double_declarer(&s);
        barbu_rng rng;
        barbu_rng_seed(&rng, seed);
        assert_int_equal(barbu_playout_random(&s, &rng), 0);
        const barbu_result *res = &s.t.last;
        assert_int_equal(res->played, 1);
        assert_int_equal(res->tricks_left, 0);
        int most[4], top = 0, tied = 0;
        for (int seat = 0; seat < 4; seat++) {
            most[seat] = most_of_a_suit(res->taken[seat]);
            top = most[seat] > top ? most[seat] : top;
        }
        for (int seat = 0; seat < 4; seat++)
            tied += most[seat] == top;
        seen[tied]++;
        static const int share[5] = {0, -24, -12, -8, -6};
        for (int seat = 0; seat < 4; seat++) {
            assert_int_equal(res->part[c][seat], most[seat] == top ? share[tied] : 0);
            assert_int_equal(res->raw[seat], res->part[c][seat]);
        }
    }
    for (int tied = 1; tied <= 4; tied++)
        assert_true(seen[tied] > 0);
}

/* Nobody doubles: not played; the three others score -8, the declarer 0. */
static void test_undoubled_shared(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "ravage");
    int c = contract_of(&r, "ravage");
    for (int decl = 0; decl < 4; decl++) {
        barbu_state s;
        start_game(&s, &r, decl, NULL);
        declare(&s, "ravage", -1, 0);
        bid_nothing(&s);
        const barbu_result *res = &s.t.last;
        assert_int_equal(s.t.deal, 1);
        assert_int_equal(res->played, 0);
        assert_int_equal(res->declarer, decl);
        for (int seat = 0; seat < 4; seat++) {
            int want = seat == decl ? 0 : -8;
            assert_int_equal(res->raw[seat], want);
            assert_int_equal(res->part[c][seat], want);
            assert_int_equal(res->score[seat], want);
            assert_true(res->taken[seat] == 0);
            assert_int_equal(s.t.total[seat], want);
        }
        /* The declarer's next contract (in a row, as in classic). */
        assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);
        assert_int_equal(s.t.declarer, decl);
    }
    /* With undoubled-not-played = no it is played anyway. */
    rules_text(&r, "preset = ravage\nundoubled-not-played = no\n");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    declare(&s, "ravage", -1, 0);
    bid_nothing(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
}

/* A negative contract: each player may double any other, not only the
 * declarer; the declarer may redouble but not double. */
static void test_doubling(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "ravage");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    declare(&s, "ravage", -1, 0);
    assert_int_equal(s.t.phase, BARBU_PHASE_BID);
    assert_int_equal(barbu_to_move(&s), E);
    barbu_action acts[BARBU_MAX_ACTIONS];
    /* E: any subset of N, S and W. */
    int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
    assert_int_equal(n, 8);
    unsigned all = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(acts[i].redoubles, 0);
        all |= acts[i].doubles;
    }
    assert_int_equal(all, BIT(N) | BIT(S) | BIT(W));
    barbu_action a = barbu_act_bid(E, BIT(E), 0);
    assert_int_equal(barbu_check(&s, &a), BARBU_EDOUBLE);
    a = barbu_act_bid(E, BIT(S) | BIT(W), 0);
    assert_int_equal(barbu_apply(&s, &a), 0);
    /* S may redouble E and double anyone else. */
    n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
    assert_int_equal(n, 4 * 2);
    a = barbu_act_bid(S, BIT(W), BIT(E));
    assert_int_equal(barbu_apply(&s, &a), 0);
    a = barbu_act_bid(W, 0, BIT(S));
    assert_int_equal(barbu_check(&s, &a), 0);
    a = barbu_act_bid(W, BIT(N), BIT(E) | BIT(S));
    assert_int_equal(barbu_apply(&s, &a), 0);
    /* W doubled N, so N bids: only redoubles. */
    assert_int_equal(barbu_to_move(&s), N);
    a = barbu_act_bid(N, BIT(E), 0);
    assert_int_equal(barbu_check(&s, &a), BARBU_EDOUBLE);
    a = barbu_act_bid(N, 0, BIT(W));
    assert_int_equal(barbu_apply(&s, &a), 0);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);

    /* Compare Trumps, a positive contract: only the declarer. */
    start_game(&s, &r, N, NULL);
    declare(&s, "trumps", BARBU_SPADES, 0);
    assert_int_equal(barbu_legal(&s, acts, BARBU_MAX_ACTIONS), 2);
}

/* Doubles between the other players settle a played Ravage City: the three
 * tied players of test_three_players, E doubling S and W, S redoubling E. */
static void test_settlement_between_others(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "ravage");
    const int winner[13] = {N, N, W, E, E, N, S, S, E, S, N, W, W};
    barbu_cards h[4];
    barbu_card seq[52];
    composed(winner, h, seq);
    barbu_state s;
    start_game(&s, &r, N, h);
    declare(&s, "ravage", -1, 0);
    const unsigned dbl[4] = {0, BIT(S) | BIT(W), 0, 0};
    const unsigned rdbl[4] = {0, 0, BIT(E), 0};
    bid_all(&s, dbl, rdbl);
    play_cards_seq(&s, seq, 52);
    const barbu_result *res = &s.t.last;
    const int raw[4] = {-8, -8, -8, 0};
    /* E-S redoubled: equal raw scores, nothing moves.  E-W doubled: W gains
     * 8 from E. */
    const int score[4] = {-8, -16, -8, 8};
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(res->raw[seat], raw[seat]);
        assert_int_equal(res->score[seat], score[seat]);
    }
}

/* Ravage City is an eighth contract: 32 deals, each declarer eight in a
 * row, each of the eight once; the game sums to zero. */
static void test_whole_game(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "ravage");
    assert_int_equal(r.n_contracts, 8);
    assert_int_equal(barbu_rules_deals(&r), 32);
    assert_int_equal(r.rotation, BARBU_ROTATE_BLOCK);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &r, seed), 0);
        int first = s.t.first;
        barbu_rng rng;
        barbu_rng_seed(&rng, seed);
        for (int d = 0; d < 32; d++) {
            assert_int_equal(s.t.declarer, (first + d / 8) & 3);
            finish_deal_random(&s, &rng);
        }
        assert_true(barbu_over(&s));
        for (int seat = 0; seat < 4; seat++) {
            assert_int_equal(s.t.declared[seat], 8);
            for (int c = 0; c < 8; c++)
                assert_int_equal(s.t.used[seat][c], 1);
        }
        assert_int_equal(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3], 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_player),
        cmocka_unit_test(test_two_players),
        cmocka_unit_test(test_three_players),
        cmocka_unit_test(test_four_players),
        cmocka_unit_test(test_house_shared),
        cmocka_unit_test(test_random_deals),
        cmocka_unit_test(test_undoubled_shared),
        cmocka_unit_test(test_doubling),
        cmocka_unit_test(test_settlement_between_others),
        cmocka_unit_test(test_whole_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
