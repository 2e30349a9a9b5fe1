/*
 * test_fife_ai.c - the heuristic player at the Fife game (seed 000): whole
 * games of legal actions, the odds of the Silly Round's cuts, the Caller's
 * choice on plain hands, a Patience gone out on a run, and the Pass-on of a
 * bare King of Hearts.
 */
#include "helpers.h"

#include "../../src/ai/internal.h"

#define CALL(c) (1u << BARBU_CALL_##c)

static barbu_rules fife;

static int setup(void **unused)
{
    (void)unused;
    return barbu_rules_preset(&fife, "fife");
}

/* The bot's choice for the seat to move, which must be legal. */
static barbu_action bot_move(barbu_bot *bot, const barbu_state *s)
{
    barbu_view v;
    barbu_view_of(s, s->t.to_move, &v);
    barbu_action a;
    assert_int_equal(barbu_bot_choose(bot, &v, &a), 0);
    assert_int_equal(barbu_check(s, &a), 0);
    return a;
}

/* The 32-card pack: 7 to A of each suit. */
#define PACK_32 (UINT64_C(0x7f80) * UINT64_C(0x0001000100010001))

static bool near(double a, double b)
{
    return a - b < 1e-9 && b - a < 1e-9;
}

/* Hands: seat 0's cards, the rest of the pack dealt round the others. */
static void deal_around(barbu_cards hands[4], barbu_cards mine)
{
    barbu_cards rest = PACK_32 & ~mine;
    hands[0] = mine;
    hands[1] = hands[2] = hands[3] = 0;
    int seat = 1;
    for (; rest; rest &= rest - 1) {
        hands[seat] |= rest & (~rest + 1);
        seat = seat == 3 ? 1 : seat + 1;
    }
}

static void test_whole_games(void **unused)
{
    (void)unused;
    static const char *const LINEUPS[2][4] = {
        {"heuristic", "heuristic", "heuristic", "heuristic"},
        {"heuristic", "random", "random", "random"},
    };
    for (int g = 0; g < 4; g++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &fife, 100 + (uint64_t)g), 0);
        barbu_bot *bots[4];
        for (int i = 0; i < 4; i++)
            bots[i] = barbu_bot_new(LINEUPS[g & 1][(i + g) & 3], (uint64_t)(g * 4 + i));
        while (!barbu_over(&s)) {
            barbu_action a = bot_move(bots[s.t.to_move], &s);
            assert_int_equal(barbu_apply(&s, &a), 0);
        }
        assert_int_equal(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3], 0);
        for (int i = 0; i < 4; i++)
            barbu_bot_free(bots[i]);
    }
}

static void test_call_odds(void **unused)
{
    (void)unused;
    barbu_table t;
    memset(&t, 0, sizeof t);
    t.round = BARBU_SILLY_ROUND;
    double odds[BARBU_CALLS];
    /* The First Call: the Bridge first is a Double Patience; a number
     * repeated a Single one. */
    barbu_call_odds(&fife, &t, odds);
    assert_true(near(odds[BARBU_CALL_PAT2], 1.0 / 23));
    assert_true(near(odds[BARBU_CALL_PAT1], 1.0 / 23 + 80.0 / 529));
    for (int c = 1; c < 5; c++)
        assert_true(near(odds[c], odds[0]));
    /* Only the Patiences left: a Joker is cut again, a number is a Single
     * Patience, the Bridge the Double. */
    t.round_deal = 3;
    t.calls_done = BARBU_CALLS_NEGATIVE;
    barbu_call_odds(&fife, &t, odds);
    assert_true(near(odds[BARBU_CALL_PAT1], 1.0));
    assert_true(near(odds[BARBU_CALL_PAT2], 1.0 / 21));
    for (int c = 0; c < 5; c++)
        assert_true(odds[c] == 0.0);
    /* Aces and Queens the only negative Calls left: a 4 or a Joker first
     * gives Queens; a 2 first is cut again, and a Joker after it brings
     * Queens in (seed 000); without later-call-joker the 2 is Aces alone. */
    t.round_deal = 2;
    t.calls_done = CALL(KHEARTS) | CALL(HEARTS) | CALL(TRICKS);
    barbu_call_odds(&fife, &t, odds);
    assert_true(near(odds[BARBU_CALL_QUEENS], 146.0 / 529));
    barbu_rules legacy = fife;
    legacy.later_joker = false;
    barbu_call_odds(&legacy, &t, odds);
    assert_true(near(odds[BARBU_CALL_QUEENS], 6.0 / 23));
    /* Cut already: certain. */
    t.contracts = CALL(QUEENS) | CALL(TRICKS);
    barbu_call_odds(&fife, &t, odds);
    for (int c = 0; c < BARBU_CALLS; c++)
        assert_true(odds[c] == ((t.contracts >> c) & 1 ? 1.0 : 0.0));
}

/* The Caller's first choice of a Round with this hand. */
static unsigned first_call(const char *hand)
{
    barbu_cards mine, hands[4];
    assert_int_equal(barbu_hand_parse(hand, NULL, &mine), 0);
    deal_around(hands, mine);
    barbu_state s;
    start_game(&s, &fife, N, hands);
    barbu_bot *bot = barbu_bot_new("heuristic", 1);
    barbu_action a = bot_move(bot, &s);
    barbu_bot_free(bot);
    return a.contracts;
}

static void test_caller(void **unused)
{
    (void)unused;
    /* Cards round the Jacks and no terminal: a Double Patience (Tactics 1). */
    assert_int_equal(first_call("QJT.QJT.J.J"), BARBU_CALLS_PATIENCE);
    /* Nothing above a 9 and no Jack: the negative Calls together. */
    unsigned calls = first_call("987.98.87.7");
    assert_true((calls & BARBU_CALLS_PATIENCE) == 0);
    assert_true(barbu_count(calls) >= 3);
    /* A bare King of Hearts and Aces: never King of Hearts or Aces now. */
    calls = first_call("A9.K.A7.A87");
    assert_true((calls & (CALL(KHEARTS) | CALL(ACES))) == 0);
}

static void test_patience_out(void **unused)
{
    (void)unused;
    /* N holds 10-9-8 of hearts below spades from the 10 to the Ace, which
     * it plays first: then the hearts are its last cards, and once the
     * Jack of hearts is down they go out together (seed 000). */
    barbu_cards mine, hands[4], run = cards_of("TH 9H 8H");
    assert_int_equal(barbu_hand_parse("AKQJT.T98.-.-", NULL, &mine), 0);
    deal_around(hands, mine);
    barbu_state s;
    start_game(&s, &fife, S, hands);
    barbu_action a = barbu_act(BARBU_ACT_DECLARE, S);
    a.contracts = CALL(PAT1);
    assert_int_equal(barbu_apply(&s, &a), 0);
    static const char *const SCRIPT[] = {"JS", "TS", "QS", "KS", "AS"};
    barbu_bot *bot = barbu_bot_new("heuristic", 7);
    int turn = 0, out = 0;
    while (!out) {
        assert_int_equal(s.t.deal, 0);
        if (s.t.to_move != N) {
            barbu_action acts[BARBU_MAX_ACTIONS];
            assert_true(barbu_legal(&s, acts, BARBU_MAX_ACTIONS) > 0);
            assert_int_equal(barbu_apply(&s, &acts[0]), 0);
            continue;
        }
        if (turn < 5) {
            play(&s, SCRIPT[turn++]);
            continue;
        }
        assert_int_equal(s.hand[N], run);
        barbu_action b = bot_move(bot, &s);
        if (s.t.lo[BARBU_HEARTS] == BARBU_JACK) {
            assert_int_equal(b.cards, run);
            out = 1;
        }
        assert_int_equal(barbu_apply(&s, &b), 0);
    }
    assert_int_equal(s.t.in_hand[N], 0);
    barbu_bot_free(bot);
}

/* Plays the first legal action until the deal ends. */
static void finish_deal(barbu_state *s)
{
    int deal = s->t.deal;
    barbu_action acts[BARBU_MAX_ACTIONS];
    while (!barbu_over(s) && s->t.deal == deal) {
        assert_true(barbu_legal(s, acts, BARBU_MAX_ACTIONS) > 0);
        assert_int_equal(barbu_apply(s, &acts[0]), 0);
    }
}

/* Reaches the Silly Round of a fresh game, N dealing. */
static void to_silly_round(barbu_state *s)
{
    start_game(s, &fife, N, NULL);
    while (s->t.round < BARBU_SILLY_ROUND) {
        barbu_action acts[BARBU_MAX_ACTIONS];
        assert_true(barbu_legal(s, acts, BARBU_MAX_ACTIONS) > 0);
        assert_int_equal(barbu_apply(s, &acts[0]), 0);
        finish_deal(s);
    }
    assert_int_equal(barbu_set_first(s, N), 0);
}

static void test_pass_on(void **unused)
{
    (void)unused;
    barbu_state s;
    to_silly_round(&s);
    /* N holds a bare King of Hearts at the King of Hearts Call. */
    barbu_cards mine, hands[4];
    assert_int_equal(barbu_hand_parse("987.K.87.87", NULL, &mine), 0);
    deal_around(hands, mine);
    assert_int_equal(barbu_set_hands(&s, hands), 0);
    /* A 3 then a 5 (not next to it): King of Hearts alone; a black card:
     * a Pass-on. */
    barbu_card cuts[] = {BARBU_CARD(BARBU_SPADES, 3), BARBU_CARD(BARBU_HEARTS, 5),
                         BARBU_CARD(BARBU_CLUBS, 2)};
    assert_int_equal(barbu_set_cuts(&s, cuts, 3), 0);
    barbu_bot *bot = barbu_bot_new("heuristic", 3);
    while (s.t.phase == BARBU_PHASE_CUT) {
        barbu_action a = bot_move(bot, &s);
        assert_int_equal(barbu_apply(&s, &a), 0);
    }
    assert_int_equal(s.t.contracts, CALL(KHEARTS));
    assert_int_equal(s.t.phase, BARBU_PHASE_PASS_ON);
    /* The candidates an analysis lists: up to max of them, none when none
     * is asked (nothing written around the room given; ASan watches the
     * heuristic's own arrays). */
    {
        barbu_view v;
        barbu_view_of(&s, s.t.to_move, &v);
        barbu_action legal[BARBU_MAX_ACTIONS];
        int n = bb_legal_actions(&v, legal);
        assert_true(n > 1);
        int room[4] = {-7, -7, -7, -7};
        assert_int_equal(bb_h_pass_candidates(&v, legal, n, &room[1], 0), 0);
        assert_int_equal(bb_h_pass_candidates(&v, legal, n, &room[1], -3), 0);
        assert_true(room[0] == -7 && room[1] == -7);
        assert_int_equal(bb_h_pass_candidates(&v, legal, n, &room[1], 2), 2);
        assert_true(room[0] == -7 && room[3] == -7);
        assert_true(room[1] >= 0 && room[1] < n && room[2] >= 0 && room[2] < n);
    }
    while (s.t.phase == BARBU_PHASE_PASS_ON) {
        int seat = s.t.to_move;
        barbu_action a = bot_move(bot, &s);
        assert_int_equal(barbu_count(a.cards), 3);
        if (seat == N)
            assert_true(a.cards & cards_of("KH"));
        assert_int_equal(barbu_apply(&s, &a), 0);
    }
    barbu_bot_free(bot);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_games), cmocka_unit_test(test_call_odds),
        cmocka_unit_test(test_caller),      cmocka_unit_test(test_patience_out),
        cmocka_unit_test(test_pass_on),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
