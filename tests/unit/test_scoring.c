/*
 * test_scoring.c - the scores of played deals for each contract, the
 * sharing of an undoubled negative contract (seed 002 rule 5.4, seed 004),
 * the settlement of doubles (seeds 003, 004) and seed 003's worked example.
 */
#include "helpers.h"

#define BIT(seat) (1u << (seat))

/* The deal of test_tricks.c that obeys the hearts-lead rule throughout. */
static void hearts_deal(barbu_cards h[4])
{
    hands_of(h, "AT65.2.AT72.AT72", "K983.8763.K983.3", "QJ74.JT94.4.QJ65", "2.AKQ5.QJ65.K984");
}

static const char HEARTS_PLAY[] =
    "5S 3S 4S 2S 6S 8S 7S AH 9S JS KH TS QS QH AS KS 2D 3D 4D 5D 6D 7D 8D JH 9D TH JD TD "
    "QD AD KD 9H 2C 3C 5C 4C 6C 8C 7C 8H 9C TC 7H JC QC KC AC 6H 2H 3H 4H 5H";

/* Plays the hearts deal at a contract, N declaring and E, S, W doubling N,
 * as far as the deal goes (No Queens and No King end early). */
static void play_hearts_deal(barbu_state *s, const barbu_rules *r, const char *key)
{
    barbu_cards h[4];
    hearts_deal(h);
    start_game(s, r, N, h);
    declare(s, key, -1, 0);
    bid_double_declarer(s);
    const char *p = HEARTS_PLAY;
    char buf[4];
    while (s->t.deal == 0) {
        while (*p == ' ')
            p++;
        assert_true(*p != '\0');
        memcpy(buf, p, 2);
        buf[2] = '\0';
        play(s, buf);
        p += 2;
    }
}

static void expect_scores(const barbu_state *s, const int raw[4], const int score[4])
{
    const barbu_result *res = &s->t.last;
    int sum_raw = 0, sum_score = 0;
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(res->raw[seat], raw[seat]);
        assert_int_equal(res->score[seat], score[seat]);
        assert_int_equal(s->t.total[seat], score[seat]);
        sum_raw += raw[seat];
        sum_score += score[seat];
    }
    assert_int_equal(sum_raw, sum_score);
}

/* Seeds 002-004: No Tricks -2 a trick.  Tricks 4, 2, 3, 4. */
static void test_played_no_tricks(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-tricks");
    const int raw[4] = {-8, -4, -6, -8};
    /* N doubled by the three: N's score moves by the difference with each. */
    const int score[4] = {-8 - 4 - 2 + 0, -4 + 4, -6 + 2, -8 + 0};
    expect_scores(&s, raw, score);
    assert_int_equal(s.t.last.played, 1);
    assert_int_equal(s.t.last.declarer, N);
    int c = contract_of(&r, "no-tricks");
    assert_int_equal(s.t.last.contracts, 1u << c);
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(s.t.last.part[c][seat], raw[seat]);
}

/* No Hearts: -2 a heart, -6 the ace.  N QH 9H 6H; E AH JH; S KH 7H; W TH 8H
 * and the last trick's four hearts. */
static void test_played_no_hearts(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-hearts");
    const int raw[4] = {-6, -8, -4, -12};
    const int score[4] = {-6 + 2 - 2 + 6, -8 - 2, -4 + 2, -12 - 6};
    expect_scores(&s, raw, score);
    assert_true(s.t.last.taken[E] & BARBU_BIT(card_of("AH")));
}

/* No Queens: -6 a queen; N takes all four and the deal stops a trick early. */
static void test_played_no_queens(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-queens");
    const int raw[4] = {-24, 0, 0, 0};
    const int score[4] = {-24 * 4, 24, 24, 24};
    expect_scores(&s, raw, score);
    assert_int_equal(s.t.last.tricks_left, 1);
}

/* No King: -20 for the king of hearts, which S takes in the third trick. */
static void test_played_no_king(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-king");
    const int raw[4] = {0, 0, -20, 0};
    const int score[4] = {20, 0, -40, 0};
    expect_scores(&s, raw, score);
    assert_int_equal(s.t.last.tricks_left, 10);
}

/* No Last Two: -10 the penultimate trick (N), -20 the last (W). */
static void test_played_no_last_two(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-last-two");
    const int raw[4] = {-10, 0, 0, -20};
    const int score[4] = {-10 - 10 - 10 + 10, 10, 10, -30};
    expect_scores(&s, raw, score);
}

/* A trick score table from the end: the option trick-from-end. */
static void test_played_trick_from_end_option(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "no-last-two.trick-from-end = -20 -10 -5\ndomino.places = 50 20 5 -5\n");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-last-two");
    /* Trick 11 went to S. */
    const int raw[4] = {-10, 0, -5, -20};
    assert_int_equal(s.t.last.raw[N], raw[N]);
    assert_int_equal(s.t.last.raw[S], raw[S]);
    assert_int_equal(s.t.last.raw[W], raw[W]);
}

/* A negative contract nobody doubles is not played: the three others share
 * its points and the declarer takes the rest, 0 or +1 (seed 004). */
static void test_undoubled_shared(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    static const struct {
        const char *key;
        int share, declarer;
    } cases[] = {
        {"no-tricks", -9, 1}, {"no-hearts", -10, 0},   {"no-queens", -8, 0},
        {"no-king", -7, 1},   {"no-last-two", -10, 0},
    };
    for (int i = 0; i < 5; i++) {
        for (int decl = 0; decl < 4; decl++) {
            barbu_state s;
            start_game(&s, &r, decl, NULL);
            declare(&s, cases[i].key, -1, 0);
            bid_nothing(&s);
            /* The declarer was not doubled: three passes end it. */
            assert_int_equal(s.t.deal, 1);
            const barbu_result *res = &s.t.last;
            assert_int_equal(res->played, 0);
            assert_int_equal(res->declarer, decl);
            assert_int_equal(res->tricks_left, 0);
            int c = contract_of(&r, cases[i].key);
            int sum = 0;
            for (int seat = 0; seat < 4; seat++) {
                int want = seat == decl ? cases[i].declarer : cases[i].share;
                assert_int_equal(res->raw[seat], want);
                assert_int_equal(res->score[seat], want);
                assert_int_equal(res->part[c][seat], want);
                assert_int_equal(res->tricks[seat], 0);
                assert_true(res->taken[seat] == 0);
                assert_int_equal(s.t.total[seat], want);
                sum += want;
            }
            assert_int_equal(sum, barbu_contract_total(&r, c));
            /* The next deal has started. */
            assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);
            assert_int_equal(s.t.declarer, (decl + 1) & 3);
            assert_int_equal(s.t.acted, 0);
        }
    }
}

/* A double between two other players is enough for the deal to be played. */
static void test_doubled_elsewhere_is_played(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    declare(&s, "no-hearts", -1, 0);
    const unsigned dbl[4] = {0, BIT(W), 0, 0}, none[4] = {0, 0, 0, 0};
    bid_all(&s, dbl, none);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(s.t.deal, 0);
}

/* undoubled-not-played = no: every deal is played. */
static void test_undoubled_played_option(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "undoubled-not-played = no\n");
    for (int i = 0; i < 5; i++) {
        barbu_state s;
        start_game(&s, &r, N, NULL);
        assert_int_equal(barbu_apply(&s, &(barbu_action){.type = BARBU_ACT_DECLARE,
                                                         .seat = N,
                                                         .contracts = (uint16_t)(1u << i),
                                                         .trump = -1}),
                         0);
        bid_nothing(&s);
        assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
        assert_int_equal(s.t.deal, 0);
        barbu_rng rng;
        barbu_rng_seed(&rng, (uint64_t)i);
        while (s.t.deal == 0)
            assert_int_equal(barbu_play_random(&s, &rng), 0);
        assert_int_equal(s.t.last.played, 1);
        assert_int_equal(s.t.last.raw[0] + s.t.last.raw[1] + s.t.last.raw[2] + s.t.last.raw[3],
                         barbu_contract_total(&r, i));
    }
}

/* Positive contracts are played undoubled. */
static void test_positive_undoubled_played(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    declare(&s, "trumps", BARBU_DIAMONDS, 0);
    bid_nothing(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(barbu_to_move(&s), N);
    start_game(&s, &r, N, NULL);
    declare(&s, "domino", -1, 7);
    bid_nothing(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    barbu_rng rng;
    barbu_rng_seed(&rng, 8);
    while (s.t.deal == 0)
        assert_int_equal(barbu_play_random(&s, &rng), 0);
    assert_int_equal(s.t.last.played, 1);
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(s.t.last.score[seat], s.t.last.raw[seat]);
}

/* Business: 0 none, 1 doubled (either way), 2 redoubled (either way). */
static void test_business(void **state)
{
    (void)state;
    uint8_t dbl[4] = {0}, rdbl[4] = {0};
    dbl[E] = BIT(N) | BIT(S);
    rdbl[N] = BIT(E);
    dbl[W] = BIT(S);
    assert_int_equal(barbu_business(dbl, rdbl, N, E), 2);
    assert_int_equal(barbu_business(dbl, rdbl, E, N), 2);
    assert_int_equal(barbu_business(dbl, rdbl, E, S), 1);
    assert_int_equal(barbu_business(dbl, rdbl, S, E), 1);
    assert_int_equal(barbu_business(dbl, rdbl, S, W), 1);
    assert_int_equal(barbu_business(dbl, rdbl, N, S), 0);
    assert_int_equal(barbu_business(dbl, rdbl, N, W), 0);
    assert_int_equal(barbu_business(dbl, rdbl, E, W), 0);
}

/* The difference of scores changes hands once when doubled, twice when
 * redoubled (seeds 003, 004). */
static void test_settle(void **state)
{
    (void)state;
    uint8_t dbl[4] = {0}, rdbl[4] = {0};
    const int16_t raw[4] = {-10, 0, -6, -14};
    int16_t score[4];
    barbu_settle(dbl, rdbl, raw, score);
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(score[seat], raw[seat]);

    dbl[E] = BIT(N);
    barbu_settle(dbl, rdbl, raw, score);
    assert_int_equal(score[N], -20);
    assert_int_equal(score[E], 10);
    assert_int_equal(score[S], -6);
    assert_int_equal(score[W], -14);

    rdbl[N] = BIT(E);
    dbl[W] = BIT(S);
    barbu_settle(dbl, rdbl, raw, score);
    assert_int_equal(score[N], -30);
    assert_int_equal(score[E], 20);
    assert_int_equal(score[S], -6 + 8);
    assert_int_equal(score[W], -14 - 8);
    assert_int_equal(score[0] + score[1] + score[2] + score[3], -30);
}

/*
 * Seed 003: "at misere where N gets 2 tricks, E gets 6 tricks, S gets 4
 * tricks and W gets 1 trick, N if they are doubled with S and redoubled
 * with W gets -4 corrected by +4 for the action with S and corrected by -4
 * for the redoubled action with W.  Therefore North's final score is -4."
 */
static void test_worked_example_settle(void **state)
{
    (void)state;
    uint8_t dbl[4] = {0}, rdbl[4] = {0};
    dbl[S] = BIT(N);
    dbl[W] = BIT(N);
    rdbl[N] = BIT(W);
    const int16_t raw[4] = {-4, -12, -8, -2};
    int16_t score[4];
    barbu_settle(dbl, rdbl, raw, score);
    assert_int_equal(score[N], -4);
    assert_int_equal(score[E], -12);
    assert_int_equal(score[S], -12);
    assert_int_equal(score[W], 2);
    assert_int_equal(score[0] + score[1] + score[2] + score[3], -26);
}

/* The same example played: a composed deal whose tricks go 2, 6, 4, 1. */
static void test_worked_example_played(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    const int winners[13] = {N, N, S, S, S, S, W, E, E, E, E, E, E};
    barbu_cards h[4];
    barbu_card seq[52];
    compose_tricks(N, winners, h, seq);
    barbu_state s;
    start_game(&s, &r, N, h);
    declare(&s, "no-tricks", -1, 0);
    /* E passes, S doubles N, W doubles N, N redoubles W. */
    const unsigned dbl[4] = {0, 0, BIT(N), BIT(N)};
    const unsigned rdbl[4] = {BIT(W), 0, 0, 0};
    bid_all(&s, dbl, rdbl);
    assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, N, S), 1);
    assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, N, W), 2);
    assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, N, E), 0);
    assert_int_equal(barbu_business(s.t.dbl, s.t.rdbl, S, W), 0);
    play_cards_seq(&s, seq, 52);
    const barbu_result *res = &s.t.last;
    assert_int_equal(res->tricks[N], 2);
    assert_int_equal(res->tricks[E], 6);
    assert_int_equal(res->tricks[S], 4);
    assert_int_equal(res->tricks[W], 1);
    const int raw[4] = {-4, -12, -8, -2};
    const int score[4] = {-4, -12, -12, 2};
    expect_scores(&s, raw, score);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_played_no_tricks),
        cmocka_unit_test(test_played_no_hearts),
        cmocka_unit_test(test_played_no_queens),
        cmocka_unit_test(test_played_no_king),
        cmocka_unit_test(test_played_no_last_two),
        cmocka_unit_test(test_played_trick_from_end_option),
        cmocka_unit_test(test_undoubled_shared),
        cmocka_unit_test(test_doubled_elsewhere_is_played),
        cmocka_unit_test(test_undoubled_played_option),
        cmocka_unit_test(test_positive_undoubled_played),
        cmocka_unit_test(test_business),
        cmocka_unit_test(test_settle),
        cmocka_unit_test(test_worked_example_settle),
        cmocka_unit_test(test_worked_example_played),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
