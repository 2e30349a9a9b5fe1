/*
 * test_tricks.c - the trick contracts: following suit, the errors of the
 * play phase, the hearts-lead rule of No Hearts and No King (seeds 002,
 * 003, 004), who wins a trick, early ends (seed 004), and the fast path
 * (barbu_playable, barbu_play) against barbu_legal and barbu_apply.
 */
#include "helpers.h"

/* Every hand holds every suit: N the tops, W the bottoms. */
static void sample_deal(barbu_cards h[4])
{
    hands_of(h, "AKQJ.AKQ.AKQ.AKQ", "T987.JT9.JT9.JT9", "654.8765.876.876", "32.432.5432.5432");
}

/*
 * A deal that obeys the hearts-lead rule throughout: hearts are only
 * discarded until the last trick, when every hand holds one heart.  The
 * tricks go N E S N W E W N S W S N W.
 */
static void hearts_deal(barbu_cards h[4])
{
    hands_of(h, "AT65.2.AT72.AT72", "K983.8763.K983.3", "QJ74.JT94.4.QJ65", "2.AKQ5.QJ65.K984");
}

static const char *const HEARTS_PLAY[13] = {
    "5S 3S 4S 2S", "6S 8S 7S AH", "9S JS KH TS", "QS QH AS KS", "2D 3D 4D 5D",
    "6D 7D 8D JH", "9D TH JD TD", "QD AD KD 9H", "2C 3C 5C 4C", "6C 8C 7C 8H",
    "9C TC 7H JC", "QC KC AC 6H", "2H 3H 4H 5H",
};
static const int HEARTS_WINNERS[13] = {N, E, S, N, W, E, W, N, S, W, S, N, W};

/* A game whose first deal is composed, declared by `first` and doubled by
 * everybody, ready for the first card. */
static void ready(barbu_state *s, const barbu_rules *r, int first, const barbu_cards h[4],
                  const char *key, int trump)
{
    start_game(s, r, first, h);
    declare(s, key, trump, 0);
    bid_double_declarer(s);
    assert_int_equal(s->t.phase, BARBU_PHASE_PLAY);
}

static void test_follow_suit(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    sample_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, "no-tricks", -1);
    assert_int_equal(barbu_to_move(&s), N);
    /* The leader may lead anything at No Tricks. */
    assert_true(legal_cards(&s) == h[N]);
    play(&s, "AS");

    assert_int_equal(barbu_to_move(&s), E);
    assert_true(legal_cards(&s) == cards_of("TS 9S 8S 7S"));
    play_expect(&s, "JH", BARBU_EFOLLOW);
    play_expect(&s, "2C", BARBU_ENOTHELD);
    play_expect(&s, "AS", BARBU_ENOTHELD);
    /* Another seat may not play out of turn. */
    barbu_action a = barbu_act_play(S, card_of("4S"));
    assert_int_equal(barbu_apply(&s, &a), BARBU_ETURN);
    assert_int_equal(barbu_check(&s, &a), BARBU_ETURN);
    play(&s, "7S");
    play_expect(&s, "8H", BARBU_EFOLLOW);
    play(&s, "4S");
    play_expect(&s, "2H", BARBU_EFOLLOW);
    play(&s, "2S");
    assert_int_equal(s.t.ntricks, 1);
    assert_int_equal(s.t.winner[0], N);
    assert_int_equal(s.t.tricks[N], 1);
    assert_true(s.t.taken[N] == cards_of("AS 7S 4S 2S"));
    assert_int_equal(s.t.last_trick.leader, N);
    assert_int_equal(s.t.last_trick.card[1], card_of("7S"));
    assert_int_equal(s.t.trick.n, 0);
    assert_int_equal(barbu_to_move(&s), N);

    /* W holds one spade left, then none: void, it may play anything. */
    play_seq(&s, "KS 8S 5S 3S");
    play_seq(&s, "QS 9S 6S");
    assert_int_equal(barbu_to_move(&s), W);
    assert_true(legal_cards(&s) == s.hand[W]);
    assert_int_equal(barbu_count(s.hand[W]), 11);
    play(&s, "5D");
    assert_int_equal(s.t.winner[2], N);
}

static void test_phase_errors(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    sample_deal(h);
    barbu_state s;
    start_game(&s, &r, N, h);

    /* The declare phase: no cards, no bids. */
    assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);
    play_expect(&s, "AS", BARBU_EPHASE);
    barbu_action bid = barbu_act_bid(N, 0, 0);
    assert_int_equal(barbu_apply(&s, &bid), BARBU_EPHASE);
    assert_int_equal(barbu_play(&s, card_of("AS")), BARBU_EPHASE);
    assert_true(barbu_playable(&s) == 0);
    barbu_rng rng;
    barbu_rng_seed(&rng, 3);
    assert_int_equal(barbu_play_random(&s, &rng), BARBU_EPHASE);
    declare(&s, "no-tricks", -1, 0);

    /* The bidding: no declaring, no cards. */
    assert_int_equal(s.t.phase, BARBU_PHASE_BID);
    barbu_action dec = barbu_act_declare(E, 0, -1, 0);
    assert_int_equal(barbu_apply(&s, &dec), BARBU_EPHASE);
    play_expect(&s, "TS", BARBU_EPHASE);
    bid_double_declarer(&s);

    /* The play: no bids, no passes at a trick contract, one card at a time. */
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    bid = barbu_act_bid(N, 0, 0);
    assert_int_equal(barbu_apply(&s, &bid), BARBU_EPHASE);
    dec = barbu_act_declare(N, 1, -1, 0);
    assert_int_equal(barbu_apply(&s, &dec), BARBU_EPHASE);
    pass_layout(&s, BARBU_EPHASE);
    barbu_action two = barbu_act_play(N, card_of("AS"));
    two.cards |= BARBU_BIT(card_of("KS"));
    assert_int_equal(barbu_apply(&s, &two), BARBU_EONECARD);
    barbu_action none = barbu_act_play(N, card_of("AS"));
    none.cards = 0;
    assert_int_equal(barbu_apply(&s, &none), BARBU_EINVAL);
    barbu_action odd = barbu_act_play(N, card_of("AS"));
    odd.type = 99;
    assert_int_equal(barbu_apply(&s, &odd), BARBU_EINVAL);
    assert_int_equal(barbu_play(&s, 0), BARBU_EINVAL);
    assert_int_equal(barbu_play(&s, 200), BARBU_EINVAL);
    /* Nothing of that changed the state. */
    assert_int_equal(s.t.trick.n, 0);
    assert_true(s.hand[N] == h[N]);
    play(&s, "AS");
}

static void test_game_over(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    sample_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, "no-tricks", -1);
    barbu_truncate(&s);
    barbu_rng rng;
    barbu_rng_seed(&rng, 9);
    while (!barbu_over(&s))
        assert_int_equal(barbu_play_random(&s, &rng), 0);
    assert_int_equal(s.t.phase, BARBU_PHASE_OVER);
    assert_int_equal(barbu_to_move(&s), -1);
    assert_int_equal(s.t.deal, 1);
    assert_int_equal(
        s.t.last.tricks[N] + s.t.last.tricks[E] + s.t.last.tricks[S] + s.t.last.tricks[W], 13);

    barbu_action a = barbu_act_play(N, card_of("AS"));
    assert_int_equal(barbu_apply(&s, &a), BARBU_EOVER);
    assert_int_equal(barbu_check(&s, &a), BARBU_EOVER);
    barbu_action d = barbu_act_declare(E, 1, -1, 0);
    assert_int_equal(barbu_apply(&s, &d), BARBU_EOVER);
    assert_int_equal(barbu_play(&s, card_of("AS")), BARBU_EOVER);
    assert_int_equal(barbu_play_random(&s, &rng), BARBU_EOVER);
    assert_true(barbu_playable(&s) == 0);
    barbu_action acts[4];
    assert_int_equal(barbu_legal(&s, acts, 4), 0);
    assert_int_equal(barbu_set_hands(&s, h), BARBU_EOVER);
}

/* No Hearts and No King: hearts may not be led while the leader holds
 * another suit (seed 002 rule 2, seed 003, seed 004). */
static void test_hearts_lead(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    sample_deal(h);
    static const char *const keys[] = {"no-hearts", "no-king"};
    for (int i = 0; i < 2; i++) {
        barbu_state s;
        ready(&s, &r, N, h, keys[i], -1);
        assert_int_equal(s.t.rule_flags & BARBU_CF_HEARTS_LEAD, BARBU_CF_HEARTS_LEAD);
        assert_true(legal_cards(&s) == cards_of("AS KS QS JS AD KD QD AC KC QC"));
        assert_true(barbu_playable(&s) == cards_of("AS KS QS JS AD KD QD AC KC QC"));
        play_expect(&s, "AH", BARBU_EHEARTS);
        play_expect(&s, "QH", BARBU_EHEARTS);
        assert_int_equal(barbu_play(&s, card_of("KH")), BARBU_EHEARTS);
        play(&s, "AD");
        play_seq(&s, "JD 8D 5D");
        assert_int_equal(s.t.winner[0], N);
    }
}

/* A leader holding nothing but hearts may lead them. */
static void test_hearts_lead_only_hearts(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hands_of(h, "-.AKQJT98765432.-.-", "AKQJT98765432.-.-.-", "-.-.AKQJT98765432.-",
             "-.-.-.AKQJT98765432");
    static const char *const keys[] = {"no-hearts", "no-king"};
    for (int i = 0; i < 2; i++) {
        barbu_state s;
        ready(&s, &r, N, h, keys[i], -1);
        assert_true(legal_cards(&s) == BARBU_SUIT_CARDS(BARBU_HEARTS));
        play(&s, "2H");
        assert_true(legal_cards(&s) == s.hand[E]);
    }
}

/* Hearts stay barred after one has been discarded: there is no "breaking"
 * in seed 002's rule, only the leader's hand counts. */
static void test_hearts_lead_no_breaking(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hands_of(h, "AKQJT9876.AKQJ.-.-", "5432.-.AKQJT9876.-", "-.T98765.-.AKQJT98",
             "-.432.5432.765432");
    barbu_state s;
    ready(&s, &r, N, h, "no-hearts", -1);
    play_seq(&s, "AS 2S 5H 2C");
    assert_int_equal(barbu_to_move(&s), N);
    assert_true(s.t.taken[N] & BARBU_BIT(card_of("5H")));
    play_expect(&s, "AH", BARBU_EHEARTS);
    assert_true(legal_cards(&s) == cards_of("KS QS JS TS 9S 8S 7S 6S"));
}

/* The rule belongs to No Hearts and No King only. */
static void test_hearts_lead_other_contracts(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    sample_deal(h);
    static const char *const keys[] = {"no-tricks", "no-queens", "no-last-two", "trumps"};
    for (int i = 0; i < 4; i++) {
        barbu_state s;
        ready(&s, &r, N, h, keys[i], i == 3 ? BARBU_CLUBS : -1);
        assert_int_equal(s.t.rule_flags & BARBU_CF_HEARTS_LEAD, 0);
        assert_true(legal_cards(&s) == h[N]);
        play(&s, "AH");
        assert_true(legal_cards(&s) == cards_of("JH TH 9H"));
    }
}

/* The option hearts-lead = no turns the rule off. */
static void test_hearts_lead_option_off(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "hearts-lead = no\n");
    barbu_cards h[4];
    sample_deal(h);
    static const char *const keys[] = {"no-hearts", "no-king"};
    for (int i = 0; i < 2; i++) {
        barbu_state s;
        ready(&s, &r, N, h, keys[i], -1);
        assert_int_equal(s.t.rule_flags & BARBU_CF_HEARTS_LEAD, 0);
        assert_true(legal_cards(&s) == h[N]);
        play(&s, "AH");
    }
}

/* Rules are data: a rules file can give the rule to another contract. */
static void test_hearts_lead_by_rules_file(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "no-tricks.rules = hearts-lead\nno-hearts.rules = none\n");
    barbu_cards h[4];
    sample_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, "no-tricks", -1);
    play_expect(&s, "AH", BARBU_EHEARTS);
    ready(&s, &r, N, h, "no-hearts", -1);
    play(&s, "AH");
}

/* The option first-lead = left: the declarer's left leads. */
static void test_first_lead_left(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "first-lead = left\n");
    barbu_cards h[4];
    sample_deal(h);
    barbu_state s;
    ready(&s, &r, W, h, "no-tricks", -1);
    assert_int_equal(s.t.declarer, W);
    assert_int_equal(barbu_to_move(&s), N);
    assert_int_equal(s.t.trick.leader, N);
    barbu_action a = barbu_act_play(W, card_of("2S"));
    assert_int_equal(barbu_apply(&s, &a), BARBU_ETURN);
    play(&s, "AS");
    assert_int_equal(barbu_to_move(&s), E);

    /* By default the declarer leads (seed 002 rule 6). */
    preset(&r, "uk");
    ready(&s, &r, W, h, "no-tricks", -1);
    assert_int_equal(barbu_to_move(&s), W);
    assert_int_equal(s.t.trick.leader, W);
}

/* The highest card of the suit led wins, whatever else is played. */
static void test_trick_winners(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hearts_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, "no-tricks", -1);
    for (int k = 0; k < 13; k++) {
        assert_int_equal(barbu_to_move(&s), k == 0 ? N : HEARTS_WINNERS[k - 1]);
        play_seq(&s, HEARTS_PLAY[k]);
        if (k < 12) {
            assert_int_equal(s.t.winner[k], HEARTS_WINNERS[k]);
            assert_int_equal(s.t.ntricks, k + 1);
        }
    }
    /* The deal is over: its result stays in t.last. */
    assert_int_equal(s.t.deal, 1);
    assert_int_equal(s.t.last.tricks[N], 4);
    assert_int_equal(s.t.last.tricks[E], 2);
    assert_int_equal(s.t.last.tricks[S], 3);
    assert_int_equal(s.t.last.tricks[W], 4);
    assert_true(s.t.last.taken[W] & BARBU_BIT(card_of("2H")));
    assert_true(s.t.last.taken[E] & BARBU_BIT(card_of("AH")));
}

/* No Queens ends once the fourth queen is taken (seed 004). */
static void test_early_end_no_queens(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hearts_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, "no-queens", -1);
    for (int k = 0; k < 11; k++)
        play_seq(&s, HEARTS_PLAY[k]);
    assert_int_equal(s.t.deal, 0);
    assert_int_equal(s.t.ntricks, 11);
    /* Trick 12 takes the last queen, QC. */
    play_seq(&s, HEARTS_PLAY[11]);
    assert_int_equal(s.t.deal, 1);
    assert_int_equal(s.t.last.played, 1);
    assert_int_equal(s.t.last.tricks_left, 1);
    assert_int_equal(s.t.last.raw[N], -24);
    assert_int_equal(s.t.last.raw[E] + s.t.last.raw[S] + s.t.last.raw[W], 0);
    /* The next deal has started: E declares, with full hands. */
    assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);
    assert_int_equal(s.t.declarer, E);
    assert_int_equal(barbu_to_move(&s), E);
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(barbu_count(s.hand[seat]), 13);
        assert_int_equal(s.t.in_hand[seat], 13);
        assert_true(s.t.played[seat] == 0);
    }
    assert_int_equal(s.t.ntricks, 0);
    assert_int_equal(s.t.acted, 0);
    /* The new deal can be composed: nothing has happened in it yet. */
    assert_int_equal(barbu_set_hands(&s, h), 0);
}

/* No King ends when the king of hearts is taken (seed 004). */
static void test_early_end_no_king(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hearts_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, "no-king", -1);
    play_seq(&s, HEARTS_PLAY[0]);
    play_seq(&s, HEARTS_PLAY[1]);
    assert_int_equal(s.t.deal, 0);
    play_seq(&s, HEARTS_PLAY[2]); /* S takes KH */
    assert_int_equal(s.t.deal, 1);
    assert_int_equal(s.t.last.tricks_left, 10);
    assert_int_equal(s.t.last.tricks[S], 1);
    assert_int_equal(s.t.last.raw[S], -20);
    assert_int_equal(s.t.last.raw[N], 0);
    assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);
    assert_int_equal(s.t.declarer, E);
}

/* With early-end = no both deals are played to the thirteenth trick. */
static void test_early_end_option_off(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "early-end = no\n");
    barbu_cards h[4];
    hearts_deal(h);
    static const char *const keys[] = {"no-queens", "no-king"};
    static const int loser[] = {N, S}, penalty[] = {-24, -20};
    for (int i = 0; i < 2; i++) {
        barbu_state s;
        ready(&s, &r, N, h, keys[i], -1);
        assert_int_equal(s.t.rule_flags & BARBU_CF_EARLY_END, 0);
        for (int k = 0; k < 12; k++) {
            play_seq(&s, HEARTS_PLAY[k]);
            assert_int_equal(s.t.deal, 0);
        }
        play_seq(&s, HEARTS_PLAY[12]);
        assert_int_equal(s.t.deal, 1);
        assert_int_equal(s.t.last.tricks_left, 0);
        assert_int_equal(s.t.last.raw[loser[i]], penalty[i]);
        assert_int_equal(
            s.t.last.tricks[N] + s.t.last.tricks[E] + s.t.last.tricks[S] + s.t.last.tricks[W], 13);
    }
}

/* No Hearts, No Tricks and No Last Two never end early. */
static void test_no_early_end_elsewhere(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hearts_deal(h);
    static const char *const keys[] = {"no-hearts", "no-tricks", "no-last-two"};
    for (int i = 0; i < 3; i++) {
        barbu_state s;
        ready(&s, &r, N, h, keys[i], -1);
        for (int k = 0; k < 12; k++)
            play_seq(&s, HEARTS_PLAY[k]);
        assert_int_equal(s.t.deal, 0);
        assert_int_equal(s.t.ntricks, 12);
        play_seq(&s, HEARTS_PLAY[12]);
        assert_int_equal(s.t.last.tricks_left, 0);
    }
}

/* t.penalty: the cards that score in the deal's contract. */
static void test_penalty_cards(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards queens = cards_of("QS QH QD QC");
    static const struct {
        const char *key;
        int trump, rank;
    } cases[] = {{"no-tricks", -1, 0}, {"no-hearts", -1, 0},   {"no-queens", -1, 0},
                 {"no-king", -1, 0},   {"no-last-two", -1, 0}, {"trumps", BARBU_HEARTS, 0},
                 {"domino", -1, 7}};
    const barbu_cards want[] = {0, BARBU_SUIT_CARDS(BARBU_HEARTS), queens, cards_of("KH"), 0, 0, 0};
    for (int i = 0; i < 7; i++) {
        barbu_state s;
        start_game(&s, &r, N, NULL);
        declare(&s, cases[i].key, cases[i].trump, cases[i].rank);
        assert_true(s.t.penalty == want[i]);
        assert_int_equal(s.t.contracts, 1u << i);
    }
}

/*
 * The fast path agrees with the general one: at every position of many
 * random games, barbu_playable is the set barbu_legal lists, every held card
 * is accepted by barbu_check exactly when playable (and refused with the
 * same reason by barbu_play), and barbu_play and barbu_apply make the same
 * state.
 */
static void test_playable_agrees_with_legal(void **state)
{
    (void)state;
    static const char *const presets[] = {"uk", "classic"};
    static const char *const texts[] = {"israeli = enforce\n", "must-trump = no\n",
                                        "domino-ace = low\ndomino-first = left\n",
                                        "hearts-lead = no\nearly-end = no\n"};
    barbu_rng rng;
    barbu_rng_seed(&rng, 2024);
    int positions = 0;
    for (int g = 0; g < 12; g++) {
        barbu_rules r;
        if (g < 2)
            preset(&r, presets[g]);
        else if (g < 6)
            rules_text(&r, texts[g - 2]);
        else
            preset(&r, "uk");
        barbu_state s;
        assert_int_equal(barbu_init(&s, &r, 1000 + (uint64_t)g), 0);
        while (!barbu_over(&s)) {
            int seat = barbu_to_move(&s);
            barbu_action acts[BARBU_MAX_ACTIONS];
            int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
            assert_true(n > 0 && n <= BARBU_MAX_ACTIONS);
            if (s.t.phase == BARBU_PHASE_DECLARE) {
                assert_int_equal(barbu_apply(&s, &acts[barbu_rng_below(&rng, (uint32_t)n)]), 0);
                continue;
            }
            if (s.t.phase == BARBU_PHASE_BID) {
                /* Everybody doubles the declarer, so that every deal is played. */
                int d = s.t.declarer;
                barbu_action a = barbu_act_bid(seat, seat == d ? 0 : 1u << d, 0);
                assert_int_equal(barbu_apply(&s, &a), 0);
                continue;
            }
            assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
            barbu_cards playable = barbu_playable(&s);
            assert_true((playable & ~s.hand[seat]) == 0);
            if (playable == 0) {
                assert_int_equal(n, 1);
                assert_int_equal(acts[0].type, BARBU_ACT_PASS);
                assert_int_equal(acts[0].seat, seat);
            } else {
                assert_int_equal(n, barbu_count(playable));
                assert_true(legal_cards(&s) == playable);
            }
            for (barbu_cards c = s.hand[seat]; c; c &= c - 1) {
                barbu_card card = (barbu_card)__builtin_ctzll(c);
                barbu_action a = barbu_act_play(seat, card);
                int err = barbu_check(&s, &a);
                assert_int_equal(err == 0, (playable & BARBU_BIT(card)) != 0);
                if (err != 0) {
                    barbu_state copy = s;
                    assert_int_equal(barbu_play(&copy, card), err);
                    assert_int_equal(barbu_apply(&copy, &a), err);
                    assert_memory_equal(&copy, &s, sizeof s);
                }
            }
            barbu_action a = acts[barbu_rng_below(&rng, (uint32_t)n)];
            barbu_state by_play = s;
            assert_int_equal(barbu_apply(&s, &a), 0);
            if (a.type == BARBU_ACT_PLAY) {
                assert_int_equal(barbu_play(&by_play, (barbu_card)__builtin_ctzll(a.cards)), 0);
                assert_memory_equal(&by_play, &s, sizeof s);
            }
            positions++;
        }
        assert_int_equal(s.t.deal, 28);
    }
    assert_true(positions > 10000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_follow_suit),
        cmocka_unit_test(test_phase_errors),
        cmocka_unit_test(test_game_over),
        cmocka_unit_test(test_hearts_lead),
        cmocka_unit_test(test_hearts_lead_only_hearts),
        cmocka_unit_test(test_hearts_lead_no_breaking),
        cmocka_unit_test(test_hearts_lead_other_contracts),
        cmocka_unit_test(test_hearts_lead_option_off),
        cmocka_unit_test(test_hearts_lead_by_rules_file),
        cmocka_unit_test(test_first_lead_left),
        cmocka_unit_test(test_trick_winners),
        cmocka_unit_test(test_early_end_no_queens),
        cmocka_unit_test(test_early_end_no_king),
        cmocka_unit_test(test_early_end_option_off),
        cmocka_unit_test(test_no_early_end_elsewhere),
        cmocka_unit_test(test_penalty_cards),
        cmocka_unit_test(test_playable_agrees_with_legal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
