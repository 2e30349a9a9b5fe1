/*
 * test_domino.c - the Domino (Fan Tan) of seeds 002, 003 and 004: the start
 * rank, who plays first, what fits the layout, the ace high or low, passing
 * only when unable, the order out, the early end once three are out, and
 * the scores by place.
 */
#include "helpers.h"

/* Each seat holds one whole suit: N spades, E hearts, S diamonds, W clubs. */
static void suits_deal(barbu_cards h[4])
{
    hands_of(h, "AKQJT98765432.-.-.-", "-.AKQJT98765432.-.-", "-.-.AKQJT98765432.-",
             "-.-.-.AKQJT98765432");
}

static void ready(barbu_state *s, const barbu_rules *r, int first, const barbu_cards h[4], int rank)
{
    start_game(s, r, first, h);
    declare(s, "domino", -1, rank);
    assert_int_equal(s->t.kind, BARBU_KIND_DOMINO);
    assert_int_equal(s->t.rank, rank);
    bid_double_declarer(s);
    assert_int_equal(s->t.phase, BARBU_PHASE_PLAY);
}

/* The declarer plays first; only cards of the start rank fit an empty
 * layout; then the cards next to those down. */
static void test_start_and_layout(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    suits_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, 7);
    assert_int_equal(barbu_to_move(&s), N);
    assert_true(legal_cards(&s) == cards_of("7S"));
    assert_true(barbu_playable(&s) == cards_of("7S"));
    play_expect(&s, "8S", BARBU_ELAYOUT);
    play_expect(&s, "6S", BARBU_ELAYOUT);
    play_expect(&s, "AS", BARBU_ELAYOUT);
    play_expect(&s, "7H", BARBU_ENOTHELD);
    pass_layout(&s, BARBU_EMUSTPLAY);
    barbu_action two = barbu_act_play(N, card_of("7S"));
    two.cards |= BARBU_BIT(card_of("8S"));
    assert_int_equal(barbu_apply(&s, &two), BARBU_EONECARD);
    play(&s, "7S");
    assert_int_equal(s.t.lo[BARBU_SPADES], 7);
    assert_int_equal(s.t.hi[BARBU_SPADES], 7);

    assert_int_equal(barbu_to_move(&s), E);
    assert_true(legal_cards(&s) == cards_of("7H"));
    play(&s, "7H");
    play(&s, "7D");
    play(&s, "7C");
    assert_int_equal(barbu_to_move(&s), N);
    assert_true(legal_cards(&s) == cards_of("6S 8S"));
    play_expect(&s, "9S", BARBU_ELAYOUT);
    play(&s, "8S");
    assert_int_equal(s.t.hi[BARBU_SPADES], 8);
    play_seq(&s, "6H 6D 6C");
    assert_true(legal_cards(&s) == cards_of("6S 9S"));
    play(&s, "6S");
    assert_int_equal(s.t.lo[BARBU_SPADES], 6);
    play_seq(&s, "5H 5D 5C");
    assert_true(legal_cards(&s) == cards_of("5S 9S"));
}

/* Cards fit next to any card of their suit already down, whoever put it
 * there; a player with nothing that fits must pass (seed 004). */
static void test_layout_across_hands(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hands_of(h, "AKQJ.AKQ.AKQ.AKQ", "T987.JT9.JT9.JT9", "654.8765.876.876", "32.432.5432.5432");
    barbu_state s;
    ready(&s, &r, N, h, 9);
    /* N holds no nine: it passes, and may not play (seed 002 rule 6). */
    assert_true(only_pass(&s));
    assert_true(barbu_playable(&s) == 0);
    play_expect(&s, "AS", BARBU_ELAYOUT);
    pass_layout(&s, 0);
    assert_true(legal_cards(&s) == cards_of("9S 9H 9D 9C"));
    play(&s, "9H");
    assert_true(legal_cards(&s) == cards_of("8H"));
    pass_layout(&s, BARBU_EMUSTPLAY);
    play(&s, "8H");
    assert_true(only_pass(&s)); /* W */
    pass_layout(&s, 0);
    assert_true(only_pass(&s)); /* N: the JH it would need is E's */
    pass_layout(&s, 0);
    assert_true(legal_cards(&s) == cards_of("9S 9D 9C TH"));
    play(&s, "TH");
    assert_true(legal_cards(&s) == cards_of("7H"));
    play(&s, "7H");
    assert_true(only_pass(&s)); /* W: 6H is S's */
    pass_layout(&s, 0);
    assert_true(only_pass(&s)); /* N: JH is E's */
    pass_layout(&s, 0);
    play(&s, "JH");
    assert_true(legal_cards(&s) == cards_of("6H"));
    play(&s, "6H");
    /* W: its 4H must wait for the 5H, which S holds. */
    assert_true(only_pass(&s));
    play_expect(&s, "4H", BARBU_ELAYOUT);
    pass_layout(&s, 0);
}

/* A declarer without the start rank passes on the first round (seed 002). */
static void test_declarer_without_start_rank(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    hands_of(h, "AKQJT9865432.2.-.-", "7.AKQJT9876543.-.-", "-.-.AKQJT98765432.-",
             "-.-.-.AKQJT98765432");
    barbu_state s;
    ready(&s, &r, N, h, 7);
    assert_int_equal(barbu_to_move(&s), N);
    assert_true(only_pass(&s));
    play_expect(&s, "8S", BARBU_ELAYOUT);
    play_expect(&s, "2H", BARBU_ELAYOUT);
    pass_layout(&s, 0);
    assert_int_equal(barbu_to_move(&s), E);
    assert_true(legal_cards(&s) == cards_of("7S 7H"));
    play(&s, "7H");
    play(&s, "7D");
    play(&s, "7C");
    /* N still has nothing: the 7S is E's. */
    assert_true(only_pass(&s));
    pass_layout(&s, 0);
    assert_true(legal_cards(&s) == cards_of("7S 6H 8H"));
    play(&s, "7S");
    play_seq(&s, "6D 6C");
    /* Now N may build on the 7S. */
    assert_true(legal_cards(&s) == cards_of("6S 8S"));
    pass_layout(&s, BARBU_EMUSTPLAY);
    play(&s, "6S");
}

/* Plays the deal to its end, each seat playing the lowest card it may (or
 * passing), and checks the order out against t.last.order. */
static void play_out_lowest(barbu_state *s, int expect_order[4])
{
    int order[4], n_out = 0;
    bool out[4] = {false, false, false, false};
    int deal = s->t.deal;
    while (s->t.deal == deal) {
        int seat = barbu_to_move(s);
        assert_false(out[seat]);
        barbu_cards c = barbu_playable(s);
        if (c == 0) {
            pass_layout(s, 0);
            continue;
        }
        assert_int_equal(barbu_play(s, (barbu_card)__builtin_ctzll(c)), 0);
        if (s->t.deal == deal && s->t.in_hand[seat] == 0) {
            out[seat] = true;
            order[n_out++] = seat;
            assert_int_equal(s->t.n_out, n_out);
            assert_int_equal(s->t.out[n_out - 1], seat);
        } else if (s->t.deal != deal) {
            /* The third out ends the deal. */
            assert_int_equal(n_out, 2);
            out[seat] = true;
            order[n_out++] = seat;
        }
    }
    for (int seat = 0; seat < 4; seat++)
        if (!out[seat])
            order[n_out++] = seat;
    assert_int_equal(n_out, 4);
    assert_true(s->t.last.played);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(s->t.last.order[i], order[i]);
        if (expect_order)
            assert_int_equal(order[i], expect_order[i]);
    }
}

/* The order out and the scores: 45, 20, 5, -5 (seeds 002, 003, 004). */
static void test_order_and_scores(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_cards h[4];
    suits_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, 7);
    /* Twelve rounds: everyone still holds a card. */
    for (int i = 0; i < 48; i++) {
        barbu_cards c = barbu_playable(&s);
        /* The start rank, then both ways until the two is down. */
        assert_int_equal(barbu_count(c), i < 4 || i >= 24 ? 1 : 2);
        assert_int_equal(barbu_play(&s, (barbu_card)__builtin_ctzll(c)), 0);
    }
    assert_int_equal(s.t.n_out, 0);
    play(&s, "AS");
    assert_int_equal(s.t.n_out, 1);
    assert_int_equal(s.t.out[0], N);
    assert_int_equal(barbu_to_move(&s), E);
    play(&s, "AH");
    assert_int_equal(s.t.n_out, 2);
    assert_int_equal(s.t.deal, 0);
    /* The third out ends the deal: W, the fourth, is last with a card left. */
    play(&s, "AD");
    assert_int_equal(s.t.deal, 1);
    const barbu_result *res = &s.t.last;
    assert_int_equal(res->order[0], N);
    assert_int_equal(res->order[1], E);
    assert_int_equal(res->order[2], S);
    assert_int_equal(res->order[3], W);
    assert_int_equal(res->raw[N], 45);
    assert_int_equal(res->raw[E], 20);
    assert_int_equal(res->raw[S], 5);
    assert_int_equal(res->raw[W], -5);
    /* E, S and W each doubled N. */
    assert_int_equal(res->score[N], 45 + 25 + 40 + 50);
    assert_int_equal(res->score[E], 20 - 25);
    assert_int_equal(res->score[S], 5 - 40);
    assert_int_equal(res->score[W], -5 - 50);
    assert_int_equal(res->tricks_left, 0);
    assert_int_equal(res->rank, 7);
    assert_int_equal(s.t.total[N], 160);
    assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);
    assert_int_equal(s.t.declarer, E);
}

/* The option domino-first = left: the declarer's left plays first. */
static void test_domino_first_left(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "domino-first = left\n");
    barbu_cards h[4];
    suits_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, 7);
    assert_int_equal(barbu_to_move(&s), E);
    barbu_action a = barbu_act_play(N, card_of("7S"));
    assert_int_equal(barbu_apply(&s, &a), BARBU_ETURN);
    assert_true(legal_cards(&s) == cards_of("7H"));
    int order[4] = {E, S, W, N};
    play_out_lowest(&s, order);
    assert_int_equal(s.t.last.raw[E], 45);
    assert_int_equal(s.t.last.raw[S], 20);
    assert_int_equal(s.t.last.raw[W], 5);
    assert_int_equal(s.t.last.raw[N], -5);
}

/* The option: Domino scores 40, 20, 5, 0 from a rules file. */
static void test_domino_scores_option(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "domino-scores = 40 20 5 0\n");
    barbu_cards h[4];
    suits_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, 7);
    int order[4] = {N, E, S, W};
    play_out_lowest(&s, order);
    assert_int_equal(s.t.last.raw[N], 40);
    assert_int_equal(s.t.last.raw[E], 20);
    assert_int_equal(s.t.last.raw[S], 5);
    assert_int_equal(s.t.last.raw[W], 0);
}

/* After the four cards of the start rank, what N may play next. */
static barbu_cards after_four(const barbu_rules *r, int rank)
{
    barbu_cards h[4];
    suits_deal(h);
    barbu_state s;
    ready(&s, r, N, h, rank);
    for (int i = 0; i < 4; i++)
        assert_int_equal(barbu_play(&s, BARBU_CARD(3 - i, rank)), 0);
    return legal_cards(&s);
}

/* Aces are high (seed 003): the ace goes above the king only. */
static void test_ace_high(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    assert_true(after_four(&r, BARBU_KING) == cards_of("AS QS"));
    assert_true(after_four(&r, 2) == cards_of("3S"));
    assert_true(after_four(&r, BARBU_ACE) == cards_of("KS"));

    barbu_cards h[4];
    suits_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, BARBU_KING);
    play_seq(&s, "KS KH KD KC AS AH AD AC");
    assert_true(legal_cards(&s) == cards_of("QS"));
    ready(&s, &r, N, h, 3);
    play_seq(&s, "3S 3H 3D 3C 2S 2H 2D 2C");
    assert_true(legal_cards(&s) == cards_of("4S"));
}

/* The option domino-ace = low: the ace goes below the two only. */
static void test_ace_low(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "domino-ace = low\n");
    assert_true(after_four(&r, BARBU_KING) == cards_of("QS"));
    assert_true(after_four(&r, 2) == cards_of("AS 3S"));
    assert_true(after_four(&r, BARBU_ACE) == cards_of("2S"));

    barbu_cards h[4];
    suits_deal(h);
    barbu_state s;
    ready(&s, &r, N, h, 2);
    play_seq(&s, "2S 2H 2D 2C AS AH AD AC");
    assert_true(legal_cards(&s) == cards_of("3S"));
    ready(&s, &r, N, h, BARBU_QUEEN);
    play_seq(&s, "QS QH QD QC KS KH KD KC");
    assert_true(legal_cards(&s) == cards_of("JS"));
}

/* Random Domino deals: the order out, the scores by place, passes only
 * when nothing fits. */
static void test_random_domino(void **state)
{
    (void)state;
    static const char *const texts[] = {"", "domino-ace = low\n", "domino-first = left\n",
                                        "domino-scores = 40 20 5 0\n"};
    barbu_rng rng;
    barbu_rng_seed(&rng, 5);
    for (int g = 0; g < 80; g++) {
        barbu_rules r;
        rules_text(&r, texts[g % 4]);
        barbu_state s;
        assert_int_equal(barbu_init(&s, &r, 500 + (uint64_t)g), 0);
        int rank = 2 + (int)barbu_rng_below(&rng, 13);
        declare(&s, "domino", -1, rank);
        bid_double_declarer(&s);
        int first = r.domino_first == BARBU_FIRST_LEFT ? (s.t.declarer + 1) & 3 : s.t.declarer;
        assert_int_equal(barbu_to_move(&s), first);
        play_out_lowest(&s, NULL);
        const barbu_contract *c = &r.contract[contract_of(&r, "domino")];
        int sum = 0;
        for (int i = 0; i < 4; i++) {
            assert_int_equal(s.t.last.raw[s.t.last.order[i]], c->place[i]);
            sum += s.t.last.raw[i];
        }
        assert_int_equal(sum, 65);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_and_layout),
        cmocka_unit_test(test_layout_across_hands),
        cmocka_unit_test(test_declarer_without_start_rank),
        cmocka_unit_test(test_order_and_scores),
        cmocka_unit_test(test_domino_first_left),
        cmocka_unit_test(test_domino_scores_option),
        cmocka_unit_test(test_ace_high),
        cmocka_unit_test(test_ace_low),
        cmocka_unit_test(test_random_domino),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
