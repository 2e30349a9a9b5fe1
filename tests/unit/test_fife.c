/*
 * test_fife.c - the Fife game of seed 000: the rule of Doubles and Trebles,
 * combined Calls, Patience with several cards at once, the draws, the
 * Silly Round's cuts and Pass-ons (the booklet's worked example, deals 1-5)
 * and the Piranha.
 */
#include <math.h>
#include <stdio.h>

#include "helpers.h"

#define CALL(c) (1u << BARBU_CALL_##c)

static barbu_rules fife;

static int setup(void **unused)
{
    (void)unused;
    return barbu_rules_preset(&fife, "fife");
}

/* Takes the first legal action (a card, a chap, a Pass-on) until the deal
 * ends. */
static void finish_deal(barbu_state *s)
{
    int deal = s->t.deal;
    barbu_action acts[BARBU_MAX_ACTIONS];
    while (!barbu_over(s) && s->t.deal == deal) {
        int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
        assert_true(n > 0);
        assert_int_equal(barbu_apply(s, &acts[0]), 0);
    }
}

static int call(barbu_state *s, unsigned calls)
{
    barbu_action a = barbu_act(BARBU_ACT_DECLARE, s->t.to_move);
    a.contracts = (uint16_t)calls;
    return barbu_apply(s, &a);
}

/* Calls and plays a whole deal of a Player Round. */
static void play_call(barbu_state *s, unsigned calls)
{
    assert_int_equal(call(s, calls), 0);
    finish_deal(s);
}

/* Plays the four Player Rounds of a Set with the first legal Calls. */
static void play_player_rounds(barbu_state *s)
{
    while (s->t.round < BARBU_SILLY_ROUND) {
        barbu_action acts[BARBU_MAX_ACTIONS];
        assert_true(barbu_legal(s, acts, BARBU_MAX_ACTIONS) > 0);
        assert_int_equal(barbu_apply(s, &acts[0]), 0);
        finish_deal(s);
    }
}

static void cut(barbu_state *s)
{
    assert_int_equal(s->t.phase, BARBU_PHASE_CUT);
    barbu_action a = barbu_act(BARBU_ACT_CUT, s->t.to_move);
    assert_int_equal(s->t.to_move, s->t.cutter);
    assert_int_equal(barbu_apply(s, &a), 0);
}

/* A Pass-on: each seat passes its three lowest cards; checks the direction
 * and that the cards arrive. */
static void pass_on(barbu_state *s, int dir)
{
    assert_int_equal(s->t.phase, BARBU_PHASE_PASS_ON);
    assert_int_equal(s->t.pass_dir, dir);
    assert_int_equal(s->t.to_move, (s->t.dealer + 1) & 3);
    barbu_cards given[4];
    for (int i = 0; i < 4; i++) {
        int seat = s->t.to_move;
        barbu_cards h = s->hand[seat];
        given[seat] = 0;
        for (int k = 0; k < 3; k++) {
            barbu_cards low = h & -h;
            given[seat] |= low;
            h &= ~low;
        }
        barbu_action a = barbu_act(BARBU_ACT_PASS_ON, seat);
        a.cards = given[seat];
        assert_int_equal(barbu_apply(s, &a), 0);
    }
    for (int seat = 0; seat < 4; seat++) {
        assert_true((s->hand[(seat + dir) & 3] & given[seat]) == given[seat]);
        barbu_view v;
        barbu_view_of(s, seat, &v);
        assert_int_equal(v.passed[s->t.n_pass_ons - 1], given[seat]);
        assert_int_equal(v.received[s->t.n_pass_ons - 1], given[(seat + 4 - dir) & 3]);
    }
}

/* What cut k of the deal meant, as barbu_cut_note says it. */
static void assert_note(const barbu_state *s, int k, const char *want)
{
    char note[256];
    assert_int_equal(barbu_cut_note(s->rules, &s->t, k, NULL, note, sizeof note),
                     (int)strlen(want));
    assert_string_equal(note, want);
}

/* ---------------------------------------------------------------- rules */

static void test_preset(void **unused)
{
    (void)unused;
    assert_int_equal(barbu_rules_check(&fife, NULL), 0);
    assert_int_equal(barbu_rules_hand_size(&fife), 8);
    int total = 0;
    for (int c = 0; c < BARBU_CALLS; c++)
        total += barbu_contract_total(&fife, c);
    assert_int_equal(total, 0);
    /* The booklet's totals: 80, 100, 60, 100 and 80 negative points, and
     * 210 for each Patience. */
    const int expect[BARBU_CALLS] = {-80, -100, -60, -100, -80, 210, 210};
    for (int c = 0; c < BARBU_CALLS; c++)
        assert_int_equal(barbu_contract_total(&fife, c), expect[c]);

    barbu_rules r;
    barbu_diag d;
    const char *two = "preset = fife\nsets = 2\n";
    assert_int_equal(barbu_rules_parse(&r, two, strlen(two), &d), 0);
    assert_int_equal(r.sets, 2);
    const char *deck = "preset = fife\ndeck = 52\n";
    assert_int_equal(barbu_rules_parse(&r, deck, strlen(deck), &d), BARBU_ERULES);
    const char *uk = "preset = uk\nsets = 2\n";
    assert_int_equal(barbu_rules_parse(&r, uk, strlen(uk), &d), BARBU_ERULES);
    assert_non_null(strstr(d.msg, "Fife"));
    const char *unbalanced = "preset = fife\naces.card.A = -25\n";
    assert_int_equal(barbu_rules_parse(&r, unbalanced, strlen(unbalanced), &d), BARBU_ERULES);
}

static void test_describe(void **unused)
{
    (void)unused;
    char buf[96];
    barbu_calls_describe(CALL(ACES), buf, sizeof buf);
    assert_string_equal(buf, "Aces");
    barbu_calls_describe(CALL(KHEARTS) | CALL(QUEENS), buf, sizeof buf);
    assert_string_equal(buf, "Double: King of Hearts + Queens");
    barbu_calls_describe(BARBU_CALLS_NEGATIVE, buf, sizeof buf);
    assert_string_equal(buf, "The Lot");
    barbu_calls_describe(BARBU_CALLS_PATIENCE, buf, sizeof buf);
    assert_string_equal(buf, "Double Patience");
    barbu_calls_describe(CALL(PAT2), buf, sizeof buf);
    assert_string_equal(buf, "Single Patience");
    barbu_cut_describe(BARBU_CARD(BARBU_SPADES, 4), buf, sizeof buf);
    assert_string_equal(buf, "the 4 of spades");
    barbu_cut_describe(BARBU_BRIDGE, buf, sizeof buf);
    assert_string_equal(buf, "the Bridge card");
}

/* The first Caller: the highest card of the Unused Pack (Bridge, Joker, 6
 * down to 2), ties drawn again. */
static void test_draw(void **unused)
{
    (void)unused;
    int firsts[4] = {0}, clear = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &fife, seed), 0);
        int f = s.t.first;
        firsts[f]++;
        /* The highest card is the first Caller; players tied for it drew
         * again. */
        int best = -1, tied = 0, at = -1;
        for (int seat = 0; seat < 4; seat++) {
            int v = barbu_cut_value(s.t.draw[seat]);
            assert_true(v >= 2 && v <= 8);
            if (v > best) {
                best = v;
                tied = 1;
                at = seat;
            } else if (v == best) {
                tied++;
            }
        }
        assert_int_equal(barbu_cut_value(s.t.draw[f]), best);
        if (tied == 1) {
            assert_int_equal(at, f);
            clear++;
        }
        assert_int_equal(s.t.declarer, f);
        assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);
        /* The same seed draws the same. */
        barbu_state again;
        barbu_init(&again, &fife, seed);
        assert_int_equal(again.t.first, f);
    }
    for (int seat = 0; seat < 4; seat++)
        assert_true(firsts[seat] > 60);
    assert_true(clear > 200 && clear < 400);
}

/* ---------------------------------------------------------------- Calls */

static void test_calls_rule(void **unused)
{
    (void)unused;
    barbu_state s;
    start_game(&s, &fife, W, NULL);
    assert_int_equal(s.t.declarer, W);
    /* Not a combination of a negative Call and a Patience; a Single
     * Patience goes in the first column. */
    assert_int_equal(call(&s, CALL(ACES) | CALL(PAT1)), BARBU_ECOMBO);
    assert_int_equal(call(&s, CALL(PAT2)), BARBU_ECOMBO);
    assert_int_equal(call(&s, 1u << 7), BARBU_ECONTRACT);
    /* A view answers for its own seat as the state does. */
    barbu_view v;
    barbu_view_of(&s, W, &v);
    barbu_action a = barbu_act(BARBU_ACT_DECLARE, W);
    a.contracts = CALL(ACES) | CALL(PAT1);
    assert_int_equal(barbu_view_check(&v, &a), BARBU_ECOMBO);
    a.contracts = CALL(ACES) | CALL(QUEENS);
    assert_int_equal(barbu_view_check(&v, &a), 0);
    barbu_view_of(&s, N, &v);
    assert_int_equal(barbu_view_check(&v, &a), BARBU_ETURN);
    play_call(&s, CALL(ACES));
    assert_int_equal(call(&s, CALL(ACES)), BARBU_EUSED);
    assert_int_equal(call(&s, CALL(ACES) | CALL(QUEENS)), BARBU_EUSED);
    play_call(&s, CALL(KHEARTS));
    play_call(&s, CALL(QUEENS));
    /* Three deals gone and four Calls left: Hearts alone would leave
     * Tricks and the two Patiences needing two more deals, six in all. */
    assert_int_equal(call(&s, CALL(HEARTS)), BARBU_ECALLS);
    assert_int_equal(call(&s, CALL(PAT1)), BARBU_ECALLS);
    barbu_action acts[BARBU_MAX_ACTIONS];
    int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
    /* Hearts + Tricks, or Double Patience. */
    assert_int_equal(n, 2);
    assert_int_equal(acts[0].contracts, CALL(HEARTS) | CALL(TRICKS));
    assert_int_equal(acts[1].contracts, BARBU_CALLS_PATIENCE);
    play_call(&s, BARBU_CALLS_PATIENCE);
    assert_int_equal(s.t.round, 0);
    /* The same rule for a planner, without a state. */
    unsigned done = CALL(ACES) | CALL(KHEARTS) | CALL(QUEENS);
    assert_int_equal(barbu_calls_check(done, 3, CALL(HEARTS)), BARBU_ECALLS);
    assert_int_equal(barbu_calls_check(done, 3, CALL(HEARTS) | CALL(TRICKS)), 0);
    assert_int_equal(barbu_calls_check(done, 3, CALL(ACES) | CALL(TRICKS)), BARBU_EUSED);
    assert_int_equal(barbu_calls_check(0, 0, CALL(TRICKS) | CALL(PAT1)), BARBU_ECOMBO);
    assert_int_equal(barbu_calls_check(0, 0, 0), BARBU_ECONTRACT);
    /* The last Call of the Round: a forced combination. */
    n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
    assert_int_equal(n, 1);
    play_call(&s, CALL(HEARTS) | CALL(TRICKS));
    assert_int_equal(s.t.round, 1);
    assert_int_equal(s.t.round_deal, 0);
    assert_int_equal(s.t.calls_done, 0);
    assert_int_equal(s.t.declarer, N); /* the next Caller */
    assert_int_equal(s.t.deal, 5);
}

/* The Lot and Double Patience: a Round of two deals; each category of a
 * combined deal is scored. */
static void test_the_lot(void **unused)
{
    (void)unused;
    barbu_state s;
    start_game(&s, &fife, N, NULL);
    barbu_action acts[BARBU_MAX_ACTIONS];
    int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
    assert_int_equal(n, 31 + 2); /* every negative combination, 1 or 2 Patiences */
    play_call(&s, BARBU_CALLS_NEGATIVE);
    const barbu_result *r = &s.t.last;
    const int expect[5] = {-80, -100, -60, -100, -80};
    for (int c = 0; c < 5; c++) {
        int sum = 0;
        for (int seat = 0; seat < 4; seat++)
            sum += r->part[c][seat];
        assert_int_equal(sum, expect[c]);
    }
    assert_int_equal(r->raw[0] + r->raw[1] + r->raw[2] + r->raw[3], -420);
    assert_int_equal(r->round, 0);
    assert_int_equal(r->calls_before, 0);
    play_call(&s, BARBU_CALLS_PATIENCE);
    r = &s.t.last;
    assert_int_equal(r->raw[r->order[0]], 240);
    assert_int_equal(r->raw[r->order[1]], 120);
    assert_int_equal(r->raw[r->order[2]], 60);
    assert_int_equal(r->raw[r->order[3]], 0);
    assert_int_equal(s.t.round, 1);
    assert_int_equal(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3], 0);
}

/* ------------------------------------------------------------- Patience */

static barbu_cards group(const char *text)
{
    return cards_of(text);
}

static int play_group(barbu_state *s, const char *text)
{
    barbu_action a = barbu_act(BARBU_ACT_PLAY, s->t.to_move);
    a.cards = group(text);
    return barbu_apply(s, &a);
}

static bool listed(const barbu_state *s, barbu_cards cards)
{
    barbu_action acts[BARBU_MAX_ACTIONS];
    int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
    for (int i = 0; i < n && i < BARBU_MAX_ACTIONS; i++)
        if (acts[i].type == BARBU_ACT_PLAY && acts[i].cards == cards)
            return true;
    return false;
}

/* In a Player Round several cards go down at once only to go out. */
static void test_patience_player_round(void **unused)
{
    (void)unused;
    barbu_state s;
    barbu_cards h[4];
    /* N holds every spade: its whole hand is one run through the Jack. */
    hands_of(h, "AKQJT987.-.-.-", "-.AKQJT987.-.-", "-.-.AKQJT987.-", "-.-.-.AKQJT987");
    start_game(&s, &fife, W, h);
    assert_int_equal(call(&s, CALL(PAT1)), 0);
    assert_int_equal(s.t.to_move, N); /* the Caller's left plays first */
    assert_int_equal(play_group(&s, "JS QS"), BARBU_EONECARD);
    assert_false(listed(&s, group("JS QS")));
    assert_true(listed(&s, h[N]));
    assert_int_equal(play_group(&s, "AS KS QS JS TS 9S 8S 7S"), 0);
    assert_int_equal(s.t.n_out, 1);
    assert_int_equal(s.t.out[0], N);
    assert_int_equal(s.t.lo[BARBU_SPADES], 7);
    assert_int_equal(s.t.hi[BARBU_SPADES], BARBU_ACE);
    /* E has no card of a suit started... but the Jack of hearts. */
    assert_int_equal(s.t.to_move, E);
    assert_true(listed(&s, h[E]));
}

/* Runs and cards of one rank at any time in the Silly Round. */
static void test_patience_silly(void **unused)
{
    (void)unused;
    barbu_state s;
    start_game(&s, &fife, N, NULL);
    play_player_rounds(&s);
    assert_int_equal(barbu_set_first(&s, W), 0); /* W deals, S cuts, N plays first */
    assert_int_equal(s.t.dealer, W);
    assert_int_equal(s.t.cutter, S);
    barbu_cards h[4];
    hands_of(h, "JT987.J.J.J", "AKQ.AKQ.KQ.-", "-.-.AT987.AKQ", "-.T987.-.T987");
    assert_int_equal(barbu_set_hands(&s, h), 0);
    give_cuts(&s, "Bridge 2H"); /* Double Patience; red: no Pass-on */
    cut(&s);
    assert_int_equal(s.t.contracts, BARBU_CALLS_PATIENCE);
    cut(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(s.t.to_move, N);
    assert_int_equal(play_group(&s, "QS KS"), BARBU_ENOTHELD);
    assert_int_equal(play_group(&s, "TS 9S"), BARBU_ELAYOUT); /* no Jack of spades down */
    assert_int_equal(play_group(&s, "JS 9S"), BARBU_EGROUP);  /* not a run */
    assert_int_equal(play_group(&s, "JS JH"), 0);
    /* E: the Queens go on the Jacks as a group of one rank, or a run up. */
    assert_int_equal(s.t.to_move, E);
    assert_true(listed(&s, group("QS QH")));
    assert_true(listed(&s, group("QS KS AS")));
    assert_false(listed(&s, group("QS QH QD"))); /* no Jack of diamonds yet */
    assert_int_equal(play_group(&s, "QS KS AS"), 0);
    assert_int_equal(s.t.hi[BARBU_SPADES], BARBU_ACE);
    assert_int_equal(s.t.lo[BARBU_SPADES], BARBU_JACK);
    /* S has no card that fits: a chap. */
    assert_int_equal(s.t.to_move, S);
    barbu_action chap = barbu_act(BARBU_ACT_PASS, S);
    assert_int_equal(barbu_apply(&s, &chap), 0);
    /* W: the run below the Jack of hearts. */
    assert_int_equal(play_group(&s, "TH 9H 8H 7H"), 0);
    assert_int_equal(s.t.lo[BARBU_HEARTS], 7);
    /* N goes down the spades and goes on. */
    assert_int_equal(play_group(&s, "TS 9S 8S 7S JD JC"), BARBU_EGROUP);
    assert_int_equal(play_group(&s, "TS 9S 8S 7S"), 0);
    assert_int_equal(s.t.lo[BARBU_SPADES], 7);
    assert_int_equal(s.t.to_move, E);
}

/* ------------------------------------------------------- the Silly Round */

/*
 * The booklet's example (seed 000, "The Silly Round - An Example"), its
 * Players 1-4 as N, E, S, W.  Every Call, Pass-on direction and leader.
 */
static void test_booklet_silly_round(void **unused)
{
    (void)unused;
    barbu_state s;
    start_game(&s, &fife, N, NULL);
    play_player_rounds(&s);
    assert_int_equal(s.t.round, BARBU_SILLY_ROUND);
    assert_int_equal(barbu_set_first(&s, N), 0);

    /* Deal 1: Player 1 deals, Player 4 cuts 3, 4 and 6: King of Hearts and
     * Queens; black, black, red: two Pass-ons to the left; Player 2 leads. */
    assert_int_equal(s.t.dealer, N);
    assert_int_equal(s.t.cutter, W);
    assert_int_equal(s.t.cut_for, BARBU_CUT_CALL);
    give_cuts(&s, "3H 4D 6C 2S 5C 2H");
    cut(&s);
    cut(&s);
    assert_int_equal(s.t.contracts, 0); /* 3-4 may still go on */
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(KHEARTS) | CALL(QUEENS));
    assert_int_equal(s.t.cut_for, BARBU_CUT_PASS_ON);
    cut(&s);
    pass_on(&s, 1);
    cut(&s);
    pass_on(&s, 1);
    cut(&s);
    assert_int_equal(s.t.n_pass_ons, 2);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(s.t.to_move, E);
    /* What each cut meant, as the table shows it. */
    assert_note(&s, 0, "King of Hearts: cut again for a 2, a 4 or a Joker");
    assert_note(&s, 1, "+ Queens: cut again for a 2, a 5 or a Joker");
    assert_note(&s, 2,
                "Tricks, not next to it, stops the sequence: Double: King of Hearts + Queens");
    assert_note(&s, 3, "black: Pass-on 1, to the left");
    assert_note(&s, 4, "black: Pass-on 2, to the left");
    assert_note(&s, 5, "red: no further Pass-on");
    finish_deal(&s);
    assert_int_equal(s.t.last.contracts, CALL(KHEARTS) | CALL(QUEENS));

    /* Deal 2: Player 2 deals, Player 1 cuts a 3, already played: a Single
     * Patience; black: pass right; red; Player 3 plays first. */
    assert_int_equal(s.t.dealer, E);
    assert_int_equal(s.t.cutter, N);
    give_cuts(&s, "3S 4S 5H");
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(PAT1));
    cut(&s);
    pass_on(&s, 3);
    cut(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(s.t.to_move, S);
    finish_deal(&s);

    /* Deal 3: Player 3 deals, Player 2 cuts the Bridge: Double Patience
     * cannot be played, so the remaining Single Patience; black: across;
     * black: left; red; Player 4 plays first. */
    assert_int_equal(s.t.dealer, S);
    assert_int_equal(s.t.cutter, E);
    give_cuts(&s, "Bridge 6C 2C 3D");
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(PAT2));
    cut(&s);
    pass_on(&s, 2);
    cut(&s);
    pass_on(&s, 1);
    cut(&s);
    assert_int_equal(s.t.to_move, W);
    finish_deal(&s);

    /* Deal 4: Player 4 deals, Player 3 cuts for the Pass-on first: red,
     * none; then 6 and 3 (played): Tricks; Player 1 leads. */
    assert_int_equal(s.t.dealer, W);
    assert_int_equal(s.t.cutter, S);
    assert_int_equal(s.t.cut_for, BARBU_CUT_PASS_ON);
    give_cuts(&s, "4H 6S 3C");
    cut(&s);
    assert_int_equal(s.t.cut_for, BARBU_CUT_CALL);
    cut(&s);
    assert_int_equal(s.t.contracts, 0); /* 5 or 2 could still follow the 6 */
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(TRICKS));
    assert_int_equal(s.t.n_pass_ons, 0);
    assert_int_equal(s.t.to_move, N);
    finish_deal(&s);

    /* Deal 5: Player 1 deals, Player 4 cuts black: pass right; red; then a
     * Joker: all the remaining negative Calls, Aces and Hearts; Player 2
     * leads. */
    assert_int_equal(s.t.dealer, N);
    assert_int_equal(s.t.cutter, W);
    give_cuts(&s, "5S 6D Joker");
    cut(&s);
    pass_on(&s, 3);
    cut(&s);
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(ACES) | CALL(HEARTS));
    assert_int_equal(s.t.to_move, E);
    finish_deal(&s);
    assert_int_equal(s.t.last.round_deal, 4);
    /* Silly Round complete: the Set and (of one Set) the game. */
    assert_true(barbu_over(&s));
    assert_int_equal(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3], 0);
}

/* Reaches the Silly Round of a fresh game, N dealing. */
static void to_silly_round_of(barbu_state *s, const barbu_rules *rules)
{
    start_game(s, rules, N, NULL);
    play_player_rounds(s);
    assert_int_equal(barbu_set_first(s, N), 0);
}

static void to_silly_round(barbu_state *s)
{
    start_game(s, &fife, N, NULL);
    play_player_rounds(s);
    assert_int_equal(barbu_set_first(s, N), 0);
}

/* Plays a Silly Round deal with the cuts given, passing on whatever the
 * cuts ask; returns its Calls. */
static unsigned silly_deal(barbu_state *s, const char *cuts)
{
    give_cuts(s, cuts);
    barbu_action acts[BARBU_MAX_ACTIONS];
    while (s->t.phase == BARBU_PHASE_CUT || s->t.phase == BARBU_PHASE_PASS_ON) {
        int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
        assert_true(n > 0);
        assert_int_equal(barbu_apply(s, &acts[0]), 0);
    }
    unsigned calls = s->t.contracts;
    finish_deal(s);
    return calls;
}

static void test_first_call_rules(void **unused)
{
    (void)unused;
    barbu_state s;
    /* A repeated first number: a Single Patience (First Call only). */
    to_silly_round(&s);
    give_cuts(&s, "2S 2H 2D");
    cut(&s);
    cut(&s);
    assert_note(&s, 1, "a second 2 on the First Call: Single Patience");
    cut(&s);
    assert_note(&s, 2, "red: no Pass-on");
    int what = -1;
    char note[64];
    assert_true(barbu_cut_note(&fife, &s.t, 1, &what, note, sizeof note) > 0);
    assert_int_equal(what, BARBU_CUT_CALL);
    assert_true(barbu_cut_note(&fife, &s.t, 2, &what, note, sizeof note) > 0);
    assert_int_equal(what, BARBU_CUT_PASS_ON);
    assert_int_equal(s.t.contracts, CALL(PAT1));
    finish_deal(&s);
    /* ...but on a later Call a repeat stops the sequence. */
    assert_int_equal(silly_deal(&s, "4S 4H 2D"), CALL(QUEENS));
    /* The sequence wraps from 6 to 2 and goes on to 3. */
    to_silly_round(&s);
    assert_int_equal(silly_deal(&s, "6S 2H 3D Bridge 2D"),
                     CALL(TRICKS) | CALL(ACES) | CALL(KHEARTS));
    /* A Joker at any stage: all the negative Calls (left). */
    to_silly_round(&s);
    assert_int_equal(silly_deal(&s, "5S 4H Joker 2D"), BARBU_CALLS_NEGATIVE);
    /* The Bridge first: Double Patience. */
    to_silly_round(&s);
    assert_int_equal(silly_deal(&s, "Bridge 2D"), BARBU_CALLS_PATIENCE);
    /* A whole ring: The Lot by numbers; no Pass-on on the known last deal. */
    to_silly_round(&s);
    assert_int_equal(silly_deal(&s, "2S 3H 4D 5C 6S 2D"), BARBU_CALLS_NEGATIVE);
    assert_int_equal(s.t.phase, BARBU_PHASE_CUT);
    assert_int_equal(silly_deal(&s, "3S 5C"), CALL(PAT1));
    /* One Call left: played without a cut, without a Pass-on. */
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(s.t.contracts, CALL(PAT2));
    assert_int_equal(s.t.n_cuts, 0);
    finish_deal(&s);
    assert_true(barbu_over(&s)); /* a Silly Round of three deals */
}

static void test_later_call_rules(void **unused)
{
    (void)unused;
    barbu_state s;
    to_silly_round(&s);
    assert_int_equal(silly_deal(&s, "3S Bridge 2D"), CALL(KHEARTS));
    assert_int_equal(silly_deal(&s, "5S Bridge 2D"), CALL(HEARTS));
    /* 4 has both neighbours played, but Aces and Tricks are left and a
     * Joker would bring them in: the Cutter cuts again, and this Joker is
     * for the Call (then red: no Pass-on). */
    assert_int_equal(silly_deal(&s, "4S Joker 2D"), CALL(ACES) | CALL(QUEENS) | CALL(TRICKS));
    /* Deal 4: the Pass-on first (red), then the Bridge: Double Patience,
     * the Round's last Call. */
    assert_int_equal(silly_deal(&s, "2D Bridge"), BARBU_CALLS_PATIENCE);
    assert_true(barbu_over(&s));

    to_silly_round(&s);
    assert_int_equal(silly_deal(&s, "Bridge 2D"), BARBU_CALLS_PATIENCE);
    assert_int_equal(silly_deal(&s, "3S Bridge 2D"), CALL(KHEARTS));
    assert_int_equal(silly_deal(&s, "5S Bridge 2D"), CALL(HEARTS));
    /* Deal 4: red; then, both Patiences played, a played number and the
     * Bridge are cut again; 2 and 6 join across the wrap; no number can
     * join them now, but Queens is left: cut again; the 4 is not next to
     * the sequence and stops it. */
    assert_int_equal(silly_deal(&s, "2D 5C Bridge 3H 2S 6C 4H"), CALL(ACES) | CALL(TRICKS));
    /* Queens, the last Call: no cut. */
    assert_int_equal(s.t.contracts, CALL(QUEENS));
    assert_int_equal(s.t.n_cuts, 0);
    finish_deal(&s);
    assert_true(barbu_over(&s));
}

/* Plays the Silly Round's first two deals so that Aces (2) and Queens (4)
 * are the only negative Calls left: 3 then 5 (King of Hearts), then 5, 6
 * and the Bridge (Hearts + Tricks); red each time. */
static void to_aces_and_queens_left(barbu_state *s, const barbu_rules *rules)
{
    to_silly_round_of(s, rules);
    assert_int_equal(silly_deal(s, "3S 5H 2D"), CALL(KHEARTS));
    assert_int_equal(silly_deal(s, "5S 6H Bridge 2D"), CALL(HEARTS) | CALL(TRICKS));
    assert_int_equal(s->t.calls_done & BARBU_CALLS_NEGATIVE,
                     CALL(KHEARTS) | CALL(HEARTS) | CALL(TRICKS));
}

/*
 * Seed 000, "Rules for second and subsequent Calls": "if a '2' and '4' were
 * the only numbered Calls left, only one of them could be played. However,
 * if, in this case, a '2' was cut, followed by a Joker, this would bring
 * the '4' into play, as the latter is the only remaining negative Call."
 */
static void test_joker_after_a_number(void **unused)
{
    (void)unused;
    barbu_state s;
    /* 2, a Joker, a red 3: Aces + Queens, no Pass-on. */
    to_aces_and_queens_left(&s, &fife);
    give_cuts(&s, "2S Joker 3D");
    cut(&s);
    assert_int_equal(s.t.cut_for, BARBU_CUT_CALL);
    assert_int_equal(s.t.sequence, CALL(ACES));
    assert_true(barbu_cut_joker_only(&fife, &s.t));
    assert_note(&s, 0, "Aces: cut again for a Joker (Queens left)");
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(ACES) | CALL(QUEENS));
    assert_false(barbu_cut_joker_only(&fife, &s.t));
    assert_int_equal(s.t.cut_for, BARBU_CUT_PASS_ON);
    assert_note(&s, 1, "all the negative Calls left: Double: Aces + Queens");
    cut(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_note(&s, 2, "red: no Pass-on");
    assert_note(&s, 0, "Aces: cut again for a Joker (Queens left)");
    assert_int_equal(barbu_cut_note(&fife, &s.t, 3, NULL, (char[8]){0}, 8), BARBU_EINVAL);

    /* 2, 4, a red 3: the 4 cannot join, so Aces alone; the 3 is red: no
     * Pass-on. */
    to_aces_and_queens_left(&s, &fife);
    give_cuts(&s, "2S 4C 3D");
    cut(&s);
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(ACES));
    assert_int_equal(s.t.cut_for, BARBU_CUT_PASS_ON);
    assert_note(&s, 1, "Queens, not next to it, stops the sequence: Aces");
    cut(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_note(&s, 2, "red: no Pass-on");

    /* The Bridge after the 2 stops the sequence, as on the First Call ("the
     * 'Bridge' card would stop the sequence"); a black card then starts a
     * Pass-on. */
    to_aces_and_queens_left(&s, &fife);
    give_cuts(&s, "2S Bridge 3C");
    cut(&s);
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(ACES));
    assert_note(&s, 1, "the Bridge card stops the sequence: Aces");
    cut(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_PASS_ON);
    assert_note(&s, 2, "black: Pass-on 1, across");

    /* A 2 again on a later Call stops the sequence (the Single Patience
     * of a repeated number is for the First Call only). */
    to_aces_and_queens_left(&s, &fife);
    give_cuts(&s, "2S 2H 3D");
    cut(&s);
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(ACES));
    assert_note(&s, 1, "a second 2 stops the sequence: Aces");

    /* With Queens the only negative Call left, nothing can join the 4:
     * decided at once. */
    to_aces_and_queens_left(&s, &fife);
    assert_int_equal(silly_deal(&s, "2S 4C 3D"), CALL(ACES));
    give_cuts(&s, "2D 4H");
    cut(&s);
    assert_note(&s, 0, "red: no Pass-on; now the cut for the Call");
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(QUEENS));
    assert_note(&s, 1, "Queens, the only negative Call left");

    /* The odds of the Calls before the cut follow the same reading: after
     * the 2, the Joker (2 cards of 23) is the only way to Queens. */
    to_aces_and_queens_left(&s, &fife);
    give_cuts(&s, "2S");
    cut(&s);
    double odds[BARBU_CALLS];
    barbu_call_odds(&fife, &s.t, odds);
    assert_true(odds[BARBU_CALL_ACES] > 0.999);
    assert_true(fabs(odds[BARBU_CALL_QUEENS] - 2.0 / 23.0) < 1e-9);

    /* later-call-joker = no, barbu's reading before record format 2: the 2
     * is decided at once, and the Joker is a cut for the Pass-on, cut
     * again. */
    barbu_rules legacy;
    barbu_diag d;
    const char *text = "preset = fife\nlater-call-joker = no\n";
    assert_int_equal(barbu_rules_parse(&legacy, text, strlen(text), &d), 0);
    assert_false(legacy.later_joker);
    to_aces_and_queens_left(&s, &legacy);
    give_cuts(&s, "2S Joker 3D");
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(ACES));
    assert_false(barbu_cut_joker_only(&legacy, &s.t));
    assert_note(&s, 0, "Aces: no unused number can join it");
    cut(&s);
    assert_int_equal(s.t.cut_for, BARBU_CUT_PASS_ON);
    cut(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
}

static void test_contiguity_wraps(void **unused)
{
    (void)unused;
    barbu_state s;
    to_silly_round(&s);
    /* Play 3, 4 and 5: 2 and 6 are left and contiguous across the wrap. */
    assert_int_equal(silly_deal(&s, "3S 4H 5H Bridge 2H"),
                     CALL(KHEARTS) | CALL(QUEENS) | CALL(HEARTS));
    assert_int_equal(silly_deal(&s, "6C 2D 2H"), CALL(TRICKS) | CALL(ACES));
    assert_int_equal(s.t.round_deal, 2);
}

/* Silly Round deals 4-6 cut for Pass-ons before the Call; deal 6 passes
 * across, right, across; at most three Pass-ons. */
static void test_pass_on_directions(void **unused)
{
    (void)unused;
    for (int d = 0; d < 7; d++)
        assert_int_equal(barbu_pass_direction(d, 0), d % 3 == 2 ? 2 : d % 3 == 0 ? 1 : 3);
    assert_int_equal(barbu_pass_direction(2, 1), 1);
    assert_int_equal(barbu_pass_direction(2, 2), 2);
    assert_int_equal(barbu_pass_direction(5, 1), 3);
    assert_int_equal(barbu_pass_direction(5, 2), 2);

    barbu_state s;
    to_silly_round(&s);
    silly_deal(&s, "2S 4H 2D"); /* Aces */
    silly_deal(&s, "3S 5H 2D"); /* King of Hearts */
    silly_deal(&s, "4S 6H 2D"); /* Queens */
    silly_deal(&s, "2H 5S 2D"); /* deal 4: red, then Hearts */
    silly_deal(&s, "2H 6S");    /* deal 5: red, then Tricks */
    assert_int_equal(s.t.round_deal, 5);
    give_cuts(&s, "Joker 2S 3C 4S 5S 3H");
    cut(&s); /* a Joker: cut again */
    assert_int_equal(s.t.phase, BARBU_PHASE_CUT);
    cut(&s);
    pass_on(&s, 2);
    cut(&s);
    pass_on(&s, 3);
    cut(&s);
    pass_on(&s, 2);
    /* Three Pass-ons: now the Call. */
    assert_int_equal(s.t.cut_for, BARBU_CUT_CALL);
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(PAT1));
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    finish_deal(&s);
    /* Deal 7: the last Call, no cut, no Pass-on. */
    assert_int_equal(s.t.contracts, CALL(PAT2));
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    finish_deal(&s);
    assert_true(barbu_over(&s));
}

static void test_pass_on_refused(void **unused)
{
    (void)unused;
    barbu_state s;
    to_silly_round(&s);
    give_cuts(&s, "2S 4H 2C");
    cut(&s);
    cut(&s);
    cut(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_PASS_ON);
    int seat = s.t.to_move;
    barbu_cards h = s.hand[seat];
    barbu_action a = barbu_act(BARBU_ACT_PASS_ON, seat);
    a.cards = (h & -h) | ((h & (h - 1)) & -(h & (h - 1)));
    assert_int_equal(barbu_apply(&s, &a), BARBU_ECOUNT);
    a.cards = s.hand[(seat + 1) & 3] & -s.hand[(seat + 1) & 3];
    a.cards |= (h & -h) | ((h & (h - 1)) & -(h & (h - 1)));
    assert_int_equal(barbu_apply(&s, &a), BARBU_ENOTHELD);
    barbu_action play = barbu_act_play(seat, (barbu_card)__builtin_ctzll(h));
    assert_int_equal(barbu_apply(&s, &play), BARBU_EPHASE);
    barbu_action wrong = barbu_act(BARBU_ACT_CUT, s.t.cutter);
    assert_int_equal(barbu_apply(&s, &wrong), s.t.cutter == seat ? BARBU_EPHASE : BARBU_ETURN);
    barbu_action acts[BARBU_MAX_ACTIONS];
    assert_int_equal(barbu_legal(&s, acts, BARBU_MAX_ACTIONS), 56);
    /* A seat's choice is not shown to the others before the exchange. */
    assert_int_equal(barbu_apply(&s, &acts[0]), 0);
    barbu_view v;
    barbu_view_of(&s, (seat + 1) & 3, &v);
    assert_int_equal(v.passed[0], 0);
    assert_int_equal(v.received[0], 0);
    barbu_view_of(&s, seat, &v);
    assert_int_equal(v.passed[0], acts[0].cards);
}

/* -------------------------------------------------------------- Piranha */

static void test_piranha(void **unused)
{
    (void)unused;
    barbu_state s;
    barbu_cards h[4];
    /* N leads the 8 of clubs; E, void, throws El Kingko; S follows low. */
    hands_of(h, "7.-.-.AKQJT98", "-.AKQJT987.-.-", "AKQJT98.-.-.7", "-.-.AKQJT987.-");
    start_game(&s, &fife, W, h);
    assert_int_equal(call(&s, CALL(KHEARTS)), 0);
    assert_int_equal(barbu_play(&s, card_of("8C")), 0);
    assert_int_equal(barbu_play(&s, card_of("KH")), 0);
    assert_int_equal(barbu_play(&s, card_of("7C")), 0);
    assert_int_equal(barbu_play(&s, card_of("7D")), 0);
    assert_int_equal(s.t.piranha, N);
    finish_deal(&s);
    assert_int_equal(s.t.last.piranha, N);
    assert_int_equal(s.t.last.part[BARBU_CALL_KHEARTS][N], -100);
    /* The score sheet draws the toothy fish on N's 100 points. */
    barbu_sheet sheet;
    barbu_sheet_init(&sheet, NULL);
    assert_int_equal(barbu_sheet_add(&sheet, &fife, &s.t.last), 0);
    assert_true(sheet.set[0].round[0].marks[N][BARBU_COL_KHEARTS] & BARBU_MARK_PIRANHA);
    assert_int_equal(sheet.set[0].round[0].points[N][BARBU_COL_KHEARTS], -100);
    assert_int_equal(sheet.set[0].round[0].caller, W);

    /* El Kingko on the Ace of clubs is no Piranha. */
    start_game(&s, &fife, W, h);
    assert_int_equal(call(&s, CALL(KHEARTS)), 0);
    assert_int_equal(barbu_play(&s, card_of("AC")), 0);
    assert_int_equal(barbu_play(&s, card_of("KH")), 0);
    finish_deal(&s);
    assert_int_equal(s.t.last.piranha, -1);
}

/* Whole games: each Round's Calls once, totals zero, the game ends after
 * its Sets. */
static void test_whole_games(void **unused)
{
    (void)unused;
    barbu_rules two = fife;
    two.sets = 2;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &two, seed), 0);
        barbu_rng rng;
        barbu_rng_seed(&rng, seed);
        barbu_action acts[BARBU_MAX_ACTIONS];
        int deals[2][5] = {{0}};
        unsigned calls[2][5] = {{0}};
        while (!barbu_over(&s)) {
            int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
            assert_true(n > 0);
            int deal = s.t.deal;
            uint32_t k = barbu_rng_below(&rng, (uint32_t)(n < BARBU_MAX_ACTIONS ? n : 512));
            assert_int_equal(barbu_apply(&s, &acts[k]), 0);
            if (s.t.deal == deal)
                continue;
            const barbu_result *r = &s.t.last;
            assert_int_equal(r->round_deal, deals[r->set][r->round]);
            assert_int_equal(calls[r->set][r->round] & r->contracts, 0);
            assert_int_equal(r->calls_before, calls[r->set][r->round]);
            deals[r->set][r->round]++;
            calls[r->set][r->round] |= r->contracts;
        }
        for (int set = 0; set < 2; set++) {
            for (int round = 0; round < 5; round++) {
                assert_int_equal(calls[set][round], BARBU_CALLS_ALL);
                assert_true(deals[set][round] >= 2);
                assert_true(deals[set][round] <= (round == BARBU_SILLY_ROUND ? 7 : 5));
            }
        }
        assert_int_equal(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3], 0);
    }
}

/* Information hiding: a seat never sees another's hand, and until the
 * exchange nobody sees what another seat chose to pass on: two different
 * choices leave every other seat's view byte for byte the same.  After it,
 * each seat knows exactly what it gave and what it got. */
static void test_fife_views(void **unused)
{
    (void)unused;
    barbu_rng rng;
    barbu_rng_seed(&rng, 5);
    int compared = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &fife, seed), 0);
        barbu_action acts[BARBU_MAX_ACTIONS];
        while (!barbu_over(&s)) {
            int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
            assert_true(n > 0);
            n = n < BARBU_MAX_ACTIONS ? n : BARBU_MAX_ACTIONS;
            for (int seat = 0; seat < 4; seat++) {
                barbu_view v;
                barbu_view_of(&s, seat, &v);
                for (int o = 0; o < 4; o++)
                    assert_true(o == seat ? v.hand[o] == s.hand[o] : v.hand[o] == 0);
                for (int k = 0; k < s.t.n_pass_ons; k++) {
                    int dir = barbu_pass_direction(s.t.round_deal, k);
                    assert_int_equal(v.passed[k], s.pass_ons[k][seat]);
                    assert_int_equal(v.received[k], s.pass_ons[k][(seat + 4 - dir) & 3]);
                }
            }
            if (s.t.phase == BARBU_PHASE_PASS_ON && n > 1) {
                barbu_state a = s, b = s;
                assert_int_equal(barbu_apply(&a, &acts[0]), 0);
                assert_int_equal(barbu_apply(&b, &acts[n - 1]), 0);
                if (a.t.phase == BARBU_PHASE_PASS_ON) {
                    for (int seat = 0; seat < 4; seat++) {
                        if (seat == s.t.to_move)
                            continue;
                        barbu_view va, vb;
                        barbu_view_of(&a, seat, &va);
                        barbu_view_of(&b, seat, &vb);
                        assert_memory_equal(&va, &vb, sizeof va);
                        compared++;
                    }
                }
            }
            assert_int_equal(barbu_apply(&s, &acts[barbu_rng_below(&rng, (uint32_t)n)]), 0);
        }
    }
    assert_true(compared > 100);
}

/* A simulation may end the game with the deal under way (barbu_truncate):
 * the Fife game's Round bookkeeping stays sound. */
static void test_truncate(void **unused)
{
    (void)unused;
    barbu_state s;
    start_game(&s, &fife, N, NULL);
    assert_int_equal(call(&s, CALL(ACES) | CALL(QUEENS)), 0);
    barbu_truncate(&s);
    barbu_rng rng;
    barbu_rng_seed(&rng, 1);
    assert_int_equal(barbu_playout_random(&s, &rng), 0);
    assert_true(barbu_over(&s));
    assert_int_equal(barbu_state_ok(&s, NULL), 0);
    assert_int_equal(s.t.last.contracts, CALL(ACES) | CALL(QUEENS));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_preset),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_draw),
        cmocka_unit_test(test_calls_rule),
        cmocka_unit_test(test_the_lot),
        cmocka_unit_test(test_patience_player_round),
        cmocka_unit_test(test_patience_silly),
        cmocka_unit_test(test_booklet_silly_round),
        cmocka_unit_test(test_first_call_rules),
        cmocka_unit_test(test_later_call_rules),
        cmocka_unit_test(test_joker_after_a_number),
        cmocka_unit_test(test_contiguity_wraps),
        cmocka_unit_test(test_pass_on_directions),
        cmocka_unit_test(test_pass_on_refused),
        cmocka_unit_test(test_piranha),
        cmocka_unit_test(test_whole_games),
        cmocka_unit_test(test_fife_views),
        cmocka_unit_test(test_truncate),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
