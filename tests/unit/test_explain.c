/*
 * test_explain.c - why the engine refuses an action, in words: barbu_explain
 * and barbu_view_explain (the exact code and sentence for each kind of
 * refusal, built on real states), barbu_waiting_for (every phase) and
 * barbu_hands_check (every fault of a deal).
 */
#include <stdio.h>

#include "helpers.h"

#define BIT(seat) (1u << (seat))
#define CALL(c)   (1u << BARBU_CALL_##c)

/* ------------------------------------------------------------- helpers */

/* The action is refused with exactly this code and sentence, by the state,
 * by the view of the seat to move and by a kibitzer's view; barbu_check
 * agrees on the code. */
static void expect(const barbu_state *s, barbu_action a, int code, const char *text)
{
    char buf[512];
    memset(buf, 'x', sizeof buf);
    buf[sizeof buf - 1] = '\0';
    assert_int_equal(barbu_check(s, &a), code);
    assert_int_equal(barbu_explain(s, &a, buf, sizeof buf), code);
    assert_string_equal(buf, text);
    if (s->t.to_move < 0)
        return;
    const int seats[2] = {s->t.to_move, BARBU_ALL_SEATS};
    for (int i = 0; i < 2; i++) {
        barbu_view v;
        barbu_view_of(s, seats[i], &v);
        char vbuf[512];
        memset(vbuf, 'x', sizeof vbuf);
        vbuf[sizeof vbuf - 1] = '\0';
        assert_int_equal(barbu_view_explain(&v, &a, vbuf, sizeof vbuf), code);
        assert_string_equal(vbuf, text);
    }
}

static barbu_action play_of(int seat, const char *cards)
{
    barbu_action a = barbu_act(BARBU_ACT_PLAY, seat);
    a.cards = cards_of(cards);
    return a;
}

static barbu_action pass_on_of(int seat, const char *cards)
{
    barbu_action a = barbu_act(BARBU_ACT_PASS_ON, seat);
    a.cards = cards_of(cards);
    return a;
}

static barbu_action calls_of(int seat, unsigned calls)
{
    barbu_action a = barbu_act(BARBU_ACT_DECLARE, seat);
    a.contracts = (uint16_t)calls;
    return a;
}

/* What the game waits for, and that the length returned is the text's. */
static void expect_waiting(const barbu_state *s, const char *text)
{
    char buf[160];
    int n = barbu_waiting_for(s->rules, &s->t, buf, sizeof buf);
    assert_string_equal(buf, text);
    assert_int_equal(n, (int)strlen(text));
}

/* Every legal action of the seat to move explains as 0 with an empty
 * text (the buffer is filled first, so the empty text is written). */
static void expect_legal_clean(const barbu_state *s)
{
    static barbu_action acts[BARBU_MAX_ACTIONS];
    int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
    assert_true(n > 0);
    if (n > BARBU_MAX_ACTIONS)
        n = BARBU_MAX_ACTIONS;
    for (int i = 0; i < n; i++) {
        char buf[256];
        memset(buf, 'x', sizeof buf);
        assert_int_equal(barbu_explain(s, &acts[i], buf, sizeof buf), 0);
        assert_string_equal(buf, "");
        barbu_view v;
        barbu_view_of(s, s->t.to_move, &v);
        memset(buf, 'x', sizeof buf);
        assert_int_equal(barbu_view_explain(&v, &acts[i], buf, sizeof buf), 0);
        assert_string_equal(buf, "");
    }
}

static void apply_ok(barbu_state *s, barbu_action a)
{
    assert_int_equal(barbu_apply(s, &a), 0);
}

/* The deal of tests/golden/bid-words.txt (seed 003's example). */
static void words_deal(barbu_cards h[4])
{
    hands_of(h, "53.QJ75.QJ864.76", "AJ72.AT62.53.QT9", "KQ96.K98.7.AKJ43", "T84.43.AKT92.852");
}

/* Each seat holds one whole suit: N spades, E hearts, S diamonds, W clubs. */
static void suits_deal(barbu_cards h[4])
{
    hands_of(h, "AKQJT98765432.-.-.-", "-.AKQJT98765432.-.-", "-.-.AKQJT98765432.-",
             "-.-.-.AKQJT98765432");
}

/* ------------------------------------------------------------ doubling */

/* A negative contract: whom each seat may double and redouble, each
 * refusal in words; each seat bids once; the declarer only answers. */
static void test_bid_refusals(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    words_deal(h);
    barbu_state s;
    start_game(&s, &r, N, h);
    expect_waiting(&s, "N's contract");
    declare(&s, "no-tricks", -1, 0);
    assert_int_equal(s.t.phase, BARBU_PHASE_BID);
    expect_waiting(&s, "E's bid (doubles or a pass)");
    expect_legal_clean(&s);

    /* A card, a contract, a pass at the layout: not a bid. */
    expect(&s, barbu_act_play(E, card_of("AS")), BARBU_EPHASE,
           "the game waits for E's bid (doubles or a pass), not for a card");
    expect(&s, barbu_act_declare(E, contract_of(&r, "no-hearts"), -1, 0), BARBU_EPHASE,
           "the game waits for E's bid (doubles or a pass), not for a contract");
    /* Out of turn: a later seat, and the declarer. */
    expect(&s, barbu_act_bid(S, BIT(N), 0), BARBU_ETURN,
           "it is not S's turn: the game waits for E's bid (doubles or a pass)");
    expect(&s, barbu_act_bid(N, 0, 0), BARBU_ETURN,
           "it is not N's turn: the game waits for E's bid (doubles or a pass)");
    /* Doubling oneself; redoubling a seat that did not double, or oneself. */
    expect(&s, barbu_act_bid(E, BIT(E) | BIT(N), 0), BARBU_EDOUBLE,
           "a player cannot double themselves");
    expect(&s, barbu_act_bid(E, 0, BIT(S)), BARBU_EREDOUBLE,
           "S did not double E: only a player who doubled E can be redoubled");
    expect(&s, barbu_act_bid(E, 0, BIT(E)), BARBU_EREDOUBLE, "a player cannot redouble themselves");
    apply_ok(&s, barbu_act_bid(E, BIT(N) | BIT(S) | BIT(W), 0));

    /* S was doubled by E: it answers E with a redouble. */
    expect_waiting(&s, "S's bid (doubles or a pass)");
    expect(&s, barbu_act_bid(S, BIT(E), 0), BARBU_EDOUBLE,
           "E doubled S: S answers with a redouble, not a double");
    expect(&s, barbu_act_bid(S, BIT(W), BIT(N)), BARBU_EREDOUBLE,
           "N did not double S: only a player who doubled S can be redoubled");
    /* E has bid: the wording says so rather than "not E's turn". */
    expect(&s, barbu_act_bid(E, 0, 0), BARBU_ETURN,
           "E has already bid on this deal, and each player bids once: the game waits for "
           "S's bid (doubles or a pass)");
    expect_legal_clean(&s);
    apply_ok(&s, barbu_act_bid(S, BIT(W), BIT(E)));
    apply_ok(&s, barbu_act_bid(W, 0, 0));

    /* N, doubled by E, answers as the declarer. */
    assert_int_equal(s.t.to_move, N);
    expect_waiting(&s, "N's answer to the doubles, as the declarer (a redouble or a pass)");
    expect(&s, barbu_act_bid(N, BIT(E), 0), BARBU_EDOUBLE,
           "N is the declarer, and a declarer does not double, only redoubles a player who "
           "doubled them");
    expect(&s, barbu_act_bid(N, BIT(S), 0), BARBU_EDOUBLE,
           "N is the declarer, and a declarer does not double, only redoubles a player who "
           "doubled them");
    expect(&s, barbu_act_bid(N, 0, BIT(S)), BARBU_EREDOUBLE,
           "S did not double N: only a player who doubled N can be redoubled");
    expect(&s, barbu_act_bid(W, BIT(N), 0), BARBU_ETURN,
           "W has already bid on this deal, and each player bids once: the game waits for "
           "N's answer to the doubles, as the declarer (a redouble or a pass)");
    expect(&s, barbu_act_bid(S, 0, 0), BARBU_ETURN,
           "S has already bid on this deal, and each player bids once: the game waits for "
           "N's answer to the doubles, as the declarer (a redouble or a pass)");
    expect(&s, barbu_act_play(N, card_of("QH")), BARBU_EPHASE,
           "the game waits for N's answer to the doubles, as the declarer (a redouble or a "
           "pass), not for a card");
    expect_legal_clean(&s);
    apply_ok(&s, barbu_act_bid(N, 0, BIT(E)));
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);

    /* Once the play starts a bid is the wrong kind of action. */
    expect_waiting(&s, "N's card");
    expect(&s, barbu_act_bid(N, 0, 0), BARBU_EPHASE, "the game waits for N's card, not for a bid");
    expect(&s, barbu_act_bid(E, 0, 0), BARBU_ETURN,
           "it is not E's turn: the game waits for N's card");
}

/* At a positive contract only the declarer may be doubled. */
static void test_positive_contract(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    words_deal(h);
    barbu_state s;
    start_game(&s, &r, N, h);
    declare(&s, "trumps", BARBU_SPADES, 0);
    expect(&s, barbu_act_bid(E, BIT(S), 0), BARBU_EDOUBLE,
           "at a positive contract only the declarer, N, may be doubled");
    expect(&s, barbu_act_bid(E, BIT(N) | BIT(W), 0), BARBU_EDOUBLE,
           "at a positive contract only the declarer, N, may be doubled");
    expect(&s, barbu_act_bid(E, BIT(E), 0), BARBU_EDOUBLE, "a player cannot double themselves");
    expect_legal_clean(&s);
    apply_ok(&s, barbu_act_bid(E, BIT(N), 0));
    /* S may not double E either. */
    expect(&s, barbu_act_bid(S, BIT(E) | BIT(N), 0), BARBU_EDOUBLE,
           "at a positive contract only the declarer, N, may be doubled");

    /* Domino, declared by E in a game whose first declarer is E. */
    start_game(&s, &r, E, h);
    declare(&s, "domino", -1, 8);
    assert_int_equal(s.t.to_move, S);
    expect(&s, barbu_act_bid(S, BIT(W), 0), BARBU_EDOUBLE,
           "at a positive contract only the declarer, E, may be doubled");
    expect(&s, barbu_act_bid(S, BIT(N), 0), BARBU_EDOUBLE,
           "at a positive contract only the declarer, E, may be doubled");
    expect_legal_clean(&s);
}

/*
 * uk: each player owes each declarer two doubles; with nobody doubling at
 * all, they fall due at the declarer's sixth contract.  Drives a game where
 * nobody doubles until a double is compulsory.
 */
static void test_compulsory_double(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    barbu_rng rng;
    barbu_rng_seed(&rng, 5);
    static barbu_action acts[BARBU_MAX_ACTIONS];
    for (;;) {
        assert_false(barbu_over(&s));
        if (s.t.phase == BARBU_PHASE_DECLARE) {
            int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
            assert_true(n > 0 && n <= BARBU_MAX_ACTIONS);
            apply_ok(&s, acts[barbu_rng_below(&rng, (uint32_t)n)]);
        } else if (s.t.phase == BARBU_PHASE_BID) {
            barbu_view v;
            barbu_view_of(&s, s.t.to_move, &v);
            if (v.compulsory)
                break;
            apply_ok(&s, barbu_act_bid(s.t.to_move, 0, 0));
        } else {
            assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
            assert_int_equal(barbu_play_random(&s, &rng), 0);
        }
    }
    /* N's sixth contract (deals 0, 4, ..., 20), E the first to bid. */
    assert_int_equal(s.t.deal, 20);
    assert_int_equal(s.t.declarer, N);
    assert_int_equal(s.t.to_move, E);
    expect(&s, barbu_act_bid(E, 0, 0), BARBU_ECOMPULSORY,
           "E must double the declarer N now: E still owes N as many doubles (2) as N has "
           "contracts left");
    /* Doubling somebody else does not pay what is owed to N (at a
     * negative contract, where E may double S at all). */
    if (barbu_contract_total(&r, __builtin_ctz(s.t.contracts)) < 0)
        expect(&s, barbu_act_bid(E, BIT(S), 0), BARBU_ECOMPULSORY,
               "E must double the declarer N now: E still owes N as many doubles (2) as N has "
               "contracts left");
    expect_legal_clean(&s);
    apply_ok(&s, barbu_act_bid(E, BIT(N), 0));
    assert_int_equal(s.t.owed[E][N], 1);
}

/* -------------------------------------------------------- trick play */

/* No Tricks on the deal of bid-words.txt: cards not held, following suit,
 * one card at a time, a pass, actions of other kinds. */
static void test_trick_refusals(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    words_deal(h);
    barbu_state s;
    start_game(&s, &r, N, h);
    declare(&s, "no-tricks", -1, 0);
    bid_double_declarer(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(s.t.to_move, N);
    expect_waiting(&s, "N's card");
    expect_legal_clean(&s);

    barbu_action pass = barbu_act(BARBU_ACT_PASS, N);
    expect(&s, pass, BARBU_EPHASE, "a pass is only for Domino and Patience: a card must be played");
    expect(&s, play_of(N, "AS"), BARBU_ENOTHELD, "N does not hold AS");
    expect(&s, play_of(N, "AS KS"), BARBU_ENOTHELD, "N does not hold AS and KS");
    expect(&s, play_of(N, "AS KS 2C"), BARBU_ENOTHELD, "N does not hold AS, KS and 2C");
    /* Only the cards not held are named. */
    expect(&s, play_of(N, "QH KS"), BARBU_ENOTHELD, "N does not hold KS");
    expect(&s, play_of(N, "QH JH"), BARBU_EONECARD, "cards are played one at a time here");
    expect(&s, pass_on_of(N, "QH JH 7H"), BARBU_EPHASE,
           "the game waits for N's card, not for Pass-on cards");
    expect(&s, barbu_act(BARBU_ACT_CUT, N), BARBU_EPHASE,
           "the game waits for N's card, not for a cut");
    expect(&s, barbu_act(BARBU_ACT_ARRANGE, N), BARBU_EPHASE,
           "the game waits for N's card, not for rows");
    expect(&s, barbu_act_declare(N, contract_of(&r, "no-hearts"), -1, 0), BARBU_EPHASE,
           "the game waits for N's card, not for a contract");
    expect(&s, play_of(E, "AH"), BARBU_ETURN, "it is not E's turn: the game waits for N's card");
    play(&s, "QH");

    /* E holds hearts. */
    expect(&s, play_of(E, "5D"), BARBU_EFOLLOW,
           "hearts were led: a player who holds hearts must follow suit");
    expect(&s, play_of(E, "AS"), BARBU_EFOLLOW,
           "hearts were led: a player who holds hearts must follow suit");
    expect(&s, play_of(E, "KH"), BARBU_ENOTHELD, "E does not hold KH");
    expect_legal_clean(&s);
    play(&s, "TH");
    expect(&s, play_of(S, "AC"), BARBU_EFOLLOW,
           "hearts were led: a player who holds hearts must follow suit");
}

/*
 * Trumps (uk, where a player void in the suit led must trump): N holds
 * every heart and declares spades.
 *   trick 1: N AH, E must trump (5S), S must over-trump (9S), W (AS);
 *   trick 2: W 7S, N 2H, E 6S, S must play a higher trump (KS).
 */
static void test_trumps_refusals(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    assert_true(r.must_trump);
    barbu_cards h[4];
    hands_of(h, "-.AKQJT98765432.-.-", "65.-.-.AKQJT987654", "K932.-.AKQJT9876.-",
             "AQJT874.-.5432.32");
    barbu_state s;
    start_game(&s, &r, N, h);
    declare(&s, "trumps", BARBU_SPADES, 0);
    bid_double_declarer(&s);
    assert_int_equal(s.t.to_move, N);
    play(&s, "AH");

    expect(&s, play_of(E, "AC"), BARBU_ETRUMP,
           "a player void in hearts, which were led, must trump (spades are trumps)");
    expect_legal_clean(&s);
    play(&s, "5S");
    expect(&s, play_of(S, "2S"), BARBU_EOVERTRUMP,
           "the trick has been trumped: a player who can must over-trump it");
    expect(&s, play_of(S, "AD"), BARBU_EOVERTRUMP,
           "the trick has been trumped: a player who can must over-trump it");
    expect_legal_clean(&s);
    play(&s, "9S");
    expect(&s, play_of(W, "4S"), BARBU_EOVERTRUMP,
           "the trick has been trumped: a player who can must over-trump it");
    play(&s, "AS");

    assert_int_equal(s.t.to_move, W);
    play(&s, "7S");
    play(&s, "2H");
    play(&s, "6S"); /* E's only trump, lower: it follows */
    expect(&s, play_of(S, "3S"), BARBU_EHIGHER,
           "trumps were led: a player who can must play a higher trump");
    expect(&s, play_of(S, "AD"), BARBU_EFOLLOW,
           "spades were led: a player who holds spades must follow suit");
    expect_legal_clean(&s);
    play(&s, "KS");

    /* A view of another seat cannot act: E's own card, and the card of N,
     * the seat to move, composed in E's view. */
    assert_int_equal(s.t.to_move, S);
    barbu_view v;
    barbu_view_of(&s, E, &v);
    char buf[256];
    barbu_action a = play_of(E, "AC");
    assert_int_equal(barbu_view_explain(&v, &a, buf, sizeof buf), BARBU_ETURN);
    assert_string_equal(buf, "it is not E's turn: the game waits for S's card");
    a = play_of(S, "AD");
    assert_int_equal(barbu_view_explain(&v, &a, buf, sizeof buf), BARBU_ETURN);
    assert_string_equal(buf, "only S acts for S: the game waits for S's card");
}

/* ------------------------------------------------------------- Domino */

static void test_domino_refusals(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    suits_deal(h);
    barbu_state s;
    start_game(&s, &r, N, h);
    declare(&s, "domino", -1, 8);
    bid_double_declarer(&s);
    assert_int_equal(s.t.to_move, N);
    expect_waiting(&s, "N's card, or a pass when none fits");
    expect_legal_clean(&s);

    expect(&s, play_of(N, "9S"), BARBU_ELAYOUT,
           "the layout opens from the 8s: the first card must be an 8, not the 9 of spades");
    expect(&s, play_of(N, "AS"), BARBU_ELAYOUT,
           "the layout opens from the 8s: the first card must be an 8, not the Ace of spades");
    barbu_action pass = barbu_act(BARBU_ACT_PASS, N);
    expect(&s, pass, BARBU_EMUSTPLAY,
           "8S fits the layout: a player who can play must, and only one who cannot passes");
    expect(&s, play_of(N, "8S 9S"), BARBU_EONECARD, "cards are played one at a time here");
    expect(&s, play_of(N, "8H"), BARBU_ENOTHELD, "N does not hold 8H");
    play(&s, "8S");

    expect(&s, play_of(E, "9H"), BARBU_ELAYOUT,
           "hearts are not started yet, and a suit opens with its 8: the 9 of hearts does not "
           "fit");
    play_seq(&s, "8H 8D 8C");
    expect(&s, play_of(N, "JS"), BARBU_ELAYOUT,
           "spades hold only the 8 so far: the Jack of spades does not fit, only the 7 of spades "
           "or the 9 of spades");
    /* Two cards fit: the verb does not agree with them (reported). */
    expect(&s, pass, BARBU_EMUSTPLAY,
           "9S and 7S fit the layout: a player who can play must, and only one who cannot "
           "passes");
    expect_legal_clean(&s);
    play_seq(&s, "9S 9H 9D 9C");
    expect(&s, play_of(N, "2S"), BARBU_ELAYOUT,
           "spades run from the 8 to the 9: the 2 of spades does not fit, only the 7 of spades "
           "or the 10 of spades");
    expect(&s, play_of(N, "6S"), BARBU_ELAYOUT,
           "spades run from the 8 to the 9: the 6 of spades does not fit, only the 7 of spades "
           "or the 10 of spades");

    /* An Ace start: "an Ace". */
    start_game(&s, &r, N, h);
    declare(&s, "domino", -1, BARBU_ACE);
    bid_double_declarer(&s);
    expect(&s, play_of(N, "KS"), BARBU_ELAYOUT,
           "the layout opens from the Aces: the first card must be an Ace, not the King of "
           "spades");
}

/* --------------------------------------------------------- contracts */

static void test_declare_refusals(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "classic"); /* N declares the first seven deals */
    barbu_state s;
    start_game(&s, &r, N, NULL);
    int trumps = contract_of(&r, "trumps"), domino = contract_of(&r, "domino");
    int no_hearts = contract_of(&r, "no-hearts"), no_tricks = contract_of(&r, "no-tricks");
    expect_waiting(&s, "N's contract");
    expect_legal_clean(&s);
    expect(&s, barbu_act_declare(N, trumps, -1, 0), BARBU_ESUIT,
           "Trumps needs a trump suit (clubs, diamonds, hearts or spades)");
    expect(&s, barbu_act_declare(N, no_hearts, BARBU_HEARTS, 0), BARBU_ESUIT,
           "only Trumps takes a trump suit, not No Hearts");
    expect(&s, barbu_act_declare(N, domino, -1, 0), BARBU_ERANK,
           "Domino needs a start rank from the 2 to the Ace");
    expect(&s, barbu_act_declare(N, no_hearts, -1, 8), BARBU_ERANK,
           "only Domino takes a start rank, not No Hearts");
    barbu_action two = barbu_act_declare(N, no_hearts, -1, 0);
    two.contracts |= (uint16_t)(1u << no_tricks);
    expect(&s, two, BARBU_ECONTRACT, "no such contract or combination in this rule set");
    expect(&s, barbu_act_declare(E, no_hearts, -1, 0), BARBU_ETURN,
           "it is not E's turn: the game waits for N's contract");
    expect(&s, barbu_act_bid(N, 0, 0), BARBU_EPHASE,
           "the game waits for N's contract, not for a bid");
    expect(&s, barbu_act_play(N, (barbu_card)__builtin_ctzll(s.hand[N])), BARBU_EPHASE,
           "the game waits for N's contract, not for a card");

    /* No Tricks, not doubled: not played, and N declares again. */
    declare(&s, "no-tricks", -1, 0);
    bid_nothing(&s);
    assert_int_equal(s.t.deal, 1);
    assert_int_equal(s.t.to_move, N);
    expect(&s, barbu_act_declare(N, no_tricks, -1, 0), BARBU_EUSED,
           "N has already declared No Tricks, which each player declares once");
}

/* King: Trumps twice a player, each negative contract twice a game. */
static void test_king_refusals(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    barbu_rng rng;
    barbu_rng_seed(&rng, 3);
    int trumps = contract_of(&r, "trumps"), no_king = contract_of(&r, "no-king");
    static barbu_action acts[BARBU_MAX_ACTIONS];
    while (s.t.deal < 8) {
        assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);
        int d = s.t.deal;
        barbu_action a;
        if (d == 0 || d == 4)
            a = barbu_act_declare(N, trumps, BARBU_CLUBS, 0);
        else if (d == 1 || d == 2)
            a = barbu_act_declare(s.t.to_move, no_king, -1, 0);
        else {
            if (d == 3)
                expect(&s, barbu_act_declare(W, no_king, -1, 0), BARBU_EPLAYEDOUT,
                       "No King has been played twice, as often as the game allows");
            int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
            assert_true(n > 0 && n <= BARBU_MAX_ACTIONS);
            a = acts[0];
        }
        apply_ok(&s, a);
        assert_int_equal(s.t.phase, BARBU_PHASE_PLAY); /* no doubling in King */
        assert_int_equal(barbu_playout_random(&s, &rng), 0);
        assert_int_equal(s.t.deal, d + 1);
    }
    assert_int_equal(s.t.to_move, N);
    expect(&s, barbu_act_declare(N, trumps, BARBU_HEARTS, 0), BARBU_EUSED,
           "N has already chosen Trumps twice, as often as a player may: not a third time");
    expect(&s, barbu_act_declare(N, no_king, -1, 0), BARBU_EPLAYEDOUT,
           "No King has been played twice, as often as the game allows");
    expect_legal_clean(&s);
}

/* ----------------------------------------------------------- the Fife game */

/* Takes the first legal action until the deal ends. */
static void finish_deal(barbu_state *s)
{
    int deal = s->t.deal;
    static barbu_action acts[BARBU_MAX_ACTIONS];
    while (!barbu_over(s) && s->t.deal == deal) {
        int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
        assert_true(n > 0);
        apply_ok(s, acts[0]);
    }
}

/* Plays the four Player Rounds of a Set with the first legal Calls. */
static void play_player_rounds(barbu_state *s)
{
    static barbu_action acts[BARBU_MAX_ACTIONS];
    while (s->t.round < BARBU_SILLY_ROUND) {
        assert_true(barbu_legal(s, acts, BARBU_MAX_ACTIONS) > 0);
        apply_ok(s, acts[0]);
        finish_deal(s);
    }
}

static void cut(barbu_state *s)
{
    assert_int_equal(s->t.phase, BARBU_PHASE_CUT);
    apply_ok(s, barbu_act(BARBU_ACT_CUT, s->t.to_move));
}

/* The k lowest cards of a set. */
static barbu_cards lowest(barbu_cards set, int k)
{
    barbu_cards out = 0;
    for (int i = 0; i < k && set; i++) {
        out |= set & -set;
        set &= set - 1;
    }
    return out;
}

static void card_text(barbu_card c, char *buf, size_t cap)
{
    barbu_card_format(c, BARBU_FMT_ASCII, buf, cap);
}

/* A Player Round's Patience: the Jacks open, and cards go one at a time
 * except a player's last ones. */
static void test_fife_patience(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "fife");
    barbu_cards h[4];
    hands_of(h, "AKQJT987.-.-.-", "-.AKQJT987.-.-", "-.-.AKQJT987.-", "-.-.-.AKQJT987");
    barbu_state s;
    start_game(&s, &r, W, h);
    expect_waiting(&s, "W's Call");
    expect(&s, barbu_act_play(W, card_of("AC")), BARBU_EPHASE,
           "the game waits for W's Call, not for a card");
    expect(&s, calls_of(N, CALL(PAT1)), BARBU_ETURN,
           "it is not N's turn: the game waits for W's Call");
    apply_ok(&s, calls_of(W, CALL(PAT1)));
    assert_int_equal(s.t.to_move, N);
    expect_waiting(&s, "N's card, or a pass when none fits");
    expect(&s, play_of(N, "9S"), BARBU_ELAYOUT,
           "the layout opens from the Jacks: the first card must be a Jack, not the 9 of spades");
    expect(&s, play_of(N, "JS QS"), BARBU_EONECARD,
           "in a Player Round cards go down one at a time, except a player's last cards, to go "
           "out");
    expect(&s, play_of(N, "JS 9S"), BARBU_EONECARD,
           "in a Player Round cards go down one at a time, except a player's last cards, to go "
           "out");
    barbu_action pass = barbu_act(BARBU_ACT_PASS, N);
    expect(&s, pass, BARBU_EMUSTPLAY,
           "JS fits the layout: a player who can play must, and only one who cannot passes");
    expect_legal_clean(&s);
    play(&s, "JS");
    expect(&s, play_of(E, "TH"), BARBU_ELAYOUT,
           "hearts are not started yet, and a suit opens with its Jack: the 10 of hearts does "
           "not fit");
}

/* Calls already played in the Round, and Calls of two kinds. */
static void test_fife_calls(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "fife");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    expect_waiting(&s, "N's Call");
    expect_legal_clean(&s);
    apply_ok(&s, calls_of(N, CALL(ACES)));
    finish_deal(&s);
    assert_int_equal(s.t.round, 0);
    assert_int_equal(s.t.to_move, N); /* the Caller of the Round again */
    expect(&s, calls_of(N, CALL(ACES)), BARBU_EUSED, "Aces has already been played in this Round");
    expect(&s, calls_of(N, CALL(ACES) | CALL(QUEENS)), BARBU_EUSED,
           "Aces has already been played in this Round");
    expect(&s, calls_of(N, CALL(QUEENS) | CALL(PAT1)), BARBU_ECOMBO, barbu_strerror(BARBU_ECOMBO));
    expect_legal_clean(&s);
    apply_ok(&s, calls_of(N, CALL(QUEENS)));
    finish_deal(&s);
    /* Two Calls played in two deals, named together (reported: "Double:"
     * reads as if they had been played together). */
    expect(&s, calls_of(N, CALL(ACES) | CALL(QUEENS)), BARBU_EUSED,
           "Aces and Queens have already been played in this Round");
}

/* The Silly Round (the booklet's first deal): cuts for the Call and for a
 * Pass-on, and the Pass-on itself. */
static void test_fife_silly_round(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "fife");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    play_player_rounds(&s);
    assert_int_equal(s.t.round, BARBU_SILLY_ROUND);
    assert_int_equal(barbu_set_first(&s, N), 0);
    assert_int_equal(s.t.cutter, W);
    give_cuts(&s, "3H 4D 6C 2S 5C 2H");

    expect_waiting(&s, "W's cut of the Unused Pack for the Call");
    barbu_card low = (barbu_card)__builtin_ctzll(s.hand[W]);
    expect(&s, barbu_act_play(W, low), BARBU_EPHASE,
           "the game waits for W's cut of the Unused Pack for the Call, not for a card");
    expect(&s, calls_of(W, CALL(ACES)), BARBU_EPHASE,
           "the game waits for W's cut of the Unused Pack for the Call, not for a Call");
    expect(&s, barbu_act(BARBU_ACT_CUT, N), BARBU_ETURN,
           "it is not N's turn: the game waits for W's cut of the Unused Pack for the Call");
    expect_legal_clean(&s);
    cut(&s);
    cut(&s);
    cut(&s);
    assert_int_equal(s.t.contracts, CALL(KHEARTS) | CALL(QUEENS));
    expect_waiting(&s, "W's cut of the Unused Pack for a Pass-on");
    expect(&s, pass_on_of(W, ""), BARBU_EPHASE,
           "the game waits for W's cut of the Unused Pack for a Pass-on, not for Pass-on cards");
    cut(&s); /* black: a Pass-on to the left */

    assert_int_equal(s.t.phase, BARBU_PHASE_PASS_ON);
    assert_int_equal(s.t.to_move, E);
    expect_waiting(&s, "E's Pass-on cards");
    barbu_cards hand = s.hand[E];
    barbu_card mine = (barbu_card)__builtin_ctzll(hand);
    expect(&s, barbu_act_play(E, mine), BARBU_EPHASE,
           "the game waits for E's Pass-on cards, not for a card");
    barbu_action a = barbu_act(BARBU_ACT_PASS_ON, E);
    a.cards = lowest(hand, 2);
    expect(&s, a, BARBU_ECOUNT, "a Pass-on is three cards, not 2");
    a.cards = lowest(hand, 4);
    expect(&s, a, BARBU_ECOUNT, "a Pass-on is three cards, not 4");
    /* A card of S's among two of E's. */
    barbu_card theirs = (barbu_card)__builtin_ctzll(s.hand[S]);
    a.cards = lowest(hand, 2) | BARBU_BIT(theirs);
    char name[8], want[64];
    card_text(theirs, name, sizeof name);
    snprintf(want, sizeof want, "E does not hold %s", name);
    expect(&s, a, BARBU_ENOTHELD, want);
    a.cards = lowest(hand, 3);
    a.seat = S;
    expect(&s, a, BARBU_ETURN, "it is not S's turn: the game waits for E's Pass-on cards");
    expect_legal_clean(&s);
    a.seat = E;
    apply_ok(&s, a);
    /* E has chosen: the wording says so. */
    a.cards = lowest(s.hand[E] & ~a.cards, 3);
    expect(&s, a, BARBU_ETURN,
           "E has already chosen the cards of this Pass-on: the game waits for S's Pass-on "
           "cards");
    expect_waiting(&s, "S's Pass-on cards");
}

/* Groups in the Silly Round's Patience (test_fife.c's composed deal). */
static void test_fife_silly_groups(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "fife");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    play_player_rounds(&s);
    assert_int_equal(barbu_set_first(&s, W), 0);
    barbu_cards h[4];
    hands_of(h, "JT987.J.J.J", "AKQ.AKQ.KQ.-", "-.-.AT987.AKQ", "-.T987.-.T987");
    assert_int_equal(barbu_set_hands(&s, h), 0);
    give_cuts(&s, "Bridge 2H"); /* Double Patience; red: no Pass-on */
    cut(&s);
    cut(&s);
    assert_int_equal(s.t.to_move, N);
    expect(&s, play_of(N, "JS 9S"), BARBU_EGROUP, barbu_strerror(BARBU_EGROUP));
    expect(&s, play_of(N, "TS 9S"), BARBU_ELAYOUT,
           "the layout opens from the Jacks: the first card must be a Jack, not the 9 of spades");
    expect(&s, play_of(N, "QS KS"), BARBU_ENOTHELD, "N does not hold KS and QS");
}

/* --------------------------------------------------- the other phases */

static void test_waiting_for_other_phases(void **state)
{
    (void)state;
    /* Chinese Poker's rows. */
    barbu_rules r;
    preset(&r, "chinese");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    declare(&s, "chinese", -1, 0);
    bid_nothing(&s);
    assert_int_equal(s.t.phase, BARBU_PHASE_ARRANGE);
    assert_int_equal(s.t.to_move, E);
    expect_waiting(&s, "E's rows");
    expect(&s, barbu_act_play(E, (barbu_card)__builtin_ctzll(s.hand[E])), BARBU_EPHASE,
           "the game waits for E's rows, not for a card");
    expect(&s, barbu_act(BARBU_ACT_ARRANGE, S), BARBU_ETURN,
           "it is not S's turn: the game waits for E's rows");

    /* Game over: the last deal not played. */
    preset(&r, "uk");
    start_game(&s, &r, N, NULL);
    barbu_truncate(&s);
    declare(&s, "no-hearts", -1, 0);
    bid_nothing(&s);
    assert_true(barbu_over(&s));
    expect_waiting(&s, "nothing: the game is over");
    expect(&s, barbu_act_bid(N, 0, 0), BARBU_EOVER, "the game is over");
    expect(&s, barbu_act_play(E, card_of("AS")), BARBU_EOVER, "the game is over");
    barbu_view v;
    barbu_view_of(&s, N, &v);
    char buf[64];
    barbu_action a = barbu_act_play(N, card_of("AS"));
    assert_int_equal(barbu_view_explain(&v, &a, buf, sizeof buf), BARBU_EOVER);
    assert_string_equal(buf, "the game is over");

    /* A short buffer: the text is cut, never overrun; cap 0 writes nothing. */
    preset(&r, "uk");
    start_game(&s, &r, N, NULL);
    declare(&s, "no-hearts", -1, 0);
    a = barbu_act_bid(S, 0, 0);
    char full[256], part[12];
    assert_int_equal(barbu_explain(&s, &a, full, sizeof full), BARBU_ETURN);
    assert_int_equal(barbu_explain(&s, &a, part, sizeof part), BARBU_ETURN);
    assert_int_equal(strlen(part), sizeof part - 1);
    assert_memory_equal(part, full, sizeof part - 1);
    char untouched = 'z';
    assert_int_equal(barbu_explain(&s, &a, &untouched, 0), BARBU_ETURN);
    assert_int_equal(untouched, 'z');
    assert_int_equal(barbu_waiting_for(&r, &s.t, part, sizeof part),
                     (int)strlen("E's bid (doubles or a pass)"));
    assert_string_equal(part, "E's bid (do");
}

/* ----------------------------------------------------------- the deal */

static void expect_hands(const barbu_rules *r, const barbu_cards h[4], int code, const char *text)
{
    char why[256];
    memset(why, 'x', sizeof why);
    assert_int_equal(barbu_hands_check(r, h, why, sizeof why), code);
    assert_string_equal(why, text);
    assert_int_equal(barbu_hands_check(r, h, NULL, 0), code);
    assert_int_equal(barbu_hands_check(r, h, NULL, sizeof why), code);
    /* barbu_set_hands takes exactly the valid deals. */
    barbu_state s;
    assert_int_equal(barbu_init(&s, r, 1), 0);
    assert_int_equal(barbu_set_hands(&s, h), code ? BARBU_EHANDS : 0);
}

static void test_hands_check(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    words_deal(h);
    expect_hands(&r, h, 0, "");

    /* S's KS dealt to N: 14 and 12. */
    words_deal(h);
    h[S] &= ~cards_of("KS");
    h[N] |= cards_of("KS");
    expect_hands(&r, h, BARBU_EHANDS, "each hand holds 13 cards, but N holds 14 and S holds 12");

    /* E's AS in N's hand too, in place of N's 3S. */
    words_deal(h);
    h[N] = (h[N] & ~cards_of("3S")) | cards_of("AS");
    expect_hands(&r, h, BARBU_EHANDS, "AS is dealt twice: N and E hold it");
    /* ... and in S's too, in place of S's lowest card. */
    h[S] = (h[S] & (h[S] - 1)) | cards_of("AS");
    expect_hands(&r, h, BARBU_EHANDS, "AS is dealt more than once: N, E and S hold it");

    /* A card in no hand: the count and the card. */
    words_deal(h);
    h[N] &= ~cards_of("3S");
    expect_hands(&r, h, BARBU_EHANDS,
                 "each hand holds 13 cards, but N holds 12 (3S is in no hand)");

    /* The 32-card pack: a 6 is not in it. */
    preset(&r, "uk-32");
    hands_of(h, "AKQJT987.-.-.-", "-.AKQJT987.-.-", "-.-.AKQJT987.-", "-.-.-.AKQJT987");
    expect_hands(&r, h, 0, "");
    h[W] = (h[W] & ~cards_of("7C")) | cards_of("6C");
    expect_hands(&r, h, BARBU_EHANDS, "6C is not in the 32-card pack (7 to Ace in each suit)");
    h[W] = (h[W] & ~cards_of("8C")) | cards_of("2C");
    expect_hands(&r, h, BARBU_EHANDS,
                 "6C and 2C are not in the 32-card pack (7 to Ace in each suit)");

    /* The Fife game's hands of 8. */
    preset(&r, "fife");
    hands_of(h, "AKQJT987.-.-.-", "-.AKQJT987.-.-", "-.-.AKQJT987.-", "-.-.-.AKQJT98");
    expect_hands(&r, h, BARBU_EHANDS, "each hand holds 8 cards, but W holds 7 (7C is in no hand)");

    /* A short buffer is cut, never overrun. */
    char why[10];
    assert_int_equal(barbu_hands_check(&r, h, why, sizeof why), BARBU_EHANDS);
    assert_string_equal(why, "each hand");
}

/* ------------------------------------------------------------- a sweep */

/*
 * Random games of every preset: at each step every legal action (the first
 * 64) explains as 0 with an empty text, and in the play every card of the
 * pack the seat may not play is refused with a sentence, the same from the
 * mover's view.
 */
static void test_sweep(void **state)
{
    (void)state;
    static barbu_action acts[BARBU_MAX_ACTIONS];
    for (int p = 0; barbu_preset_name(p); p++) {
        barbu_rules r;
        preset(&r, barbu_preset_name(p));
        barbu_state s;
        assert_int_equal(barbu_init(&s, &r, 40 + (uint64_t)p), 0);
        barbu_rng rng;
        barbu_rng_seed(&rng, 7 + (uint64_t)p);
        int steps = 0;
        while (!barbu_over(&s) && steps < 400) {
            steps++;
            int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
            assert_true(n > 0);
            if (n > BARBU_MAX_ACTIONS)
                n = BARBU_MAX_ACTIONS;
            barbu_view v;
            barbu_view_of(&s, s.t.to_move, &v);
            char buf[400], vbuf[400];
            for (int i = 0; i < n && i < 64; i++) {
                memset(buf, 'x', sizeof buf);
                assert_int_equal(barbu_explain(&s, &acts[i], buf, sizeof buf), 0);
                assert_string_equal(buf, "");
            }
            if (s.t.phase == BARBU_PHASE_PLAY) {
                barbu_cards ok = barbu_playable(&s);
                for (barbu_cards c = BARBU_ALL_CARDS; c; c &= c - 1) {
                    barbu_action a = barbu_act_play(s.t.to_move, (barbu_card)__builtin_ctzll(c));
                    int err = barbu_explain(&s, &a, buf, sizeof buf);
                    bool bad = (a.cards & ~s.hand[s.t.to_move]) || !(a.cards & ok);
                    if (!bad) {
                        assert_int_equal(err, 0);
                        continue;
                    }
                    assert_true(err < 0);
                    assert_true(buf[0] != '\0');
                    assert_int_equal(barbu_view_explain(&v, &a, vbuf, sizeof vbuf), err);
                    assert_string_equal(vbuf, buf);
                }
            }
            barbu_action a = acts[barbu_rng_below(&rng, (uint32_t)n)];
            apply_ok(&s, a);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bid_refusals),
        cmocka_unit_test(test_positive_contract),
        cmocka_unit_test(test_compulsory_double),
        cmocka_unit_test(test_trick_refusals),
        cmocka_unit_test(test_trumps_refusals),
        cmocka_unit_test(test_domino_refusals),
        cmocka_unit_test(test_declare_refusals),
        cmocka_unit_test(test_king_refusals),
        cmocka_unit_test(test_fife_patience),
        cmocka_unit_test(test_fife_calls),
        cmocka_unit_test(test_fife_silly_round),
        cmocka_unit_test(test_fife_silly_groups),
        cmocka_unit_test(test_waiting_for_other_phases),
        cmocka_unit_test(test_hands_check),
        cmocka_unit_test(test_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
