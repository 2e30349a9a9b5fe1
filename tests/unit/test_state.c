/*
 * test_state.c - a game as a value: starting it, composing its deals, the
 * invariant checker, truncation, copies, and a game on the 32-card pack.
 */
#include "helpers.h"

static void test_init_errors(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    assert_int_equal(barbu_init(NULL, &r, 1), BARBU_EINVAL);
    assert_int_equal(barbu_init(&s, NULL, 1), BARBU_EINVAL);
    r.domino_first = 7;
    assert_int_equal(barbu_init(&s, &r, 1), BARBU_ERULES);
    preset(&r, "uk");
    assert_int_equal(barbu_init(&s, &r, 1), 0);
    assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);
    assert_int_equal(s.t.deal, 0);
    assert_int_equal(s.t.n_deals, 28);
    assert_int_equal(s.t.acted, 0);
    assert_int_equal(barbu_state_ok(&s, NULL), 0);
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(s.t.total[seat], 0);
        assert_true(s.dealt[seat] == s.hand[seat]);
        assert_int_equal(s.t.in_hand[seat], 13);
    }
}

/* Seeds: decimal digits from 0 to 2^64 - 1, nothing else (the CLI, the
 * protocol, records and barbu connect all read them here). */
static void test_seed_parse(void **state)
{
    (void)state;
    uint64_t seed = 1;
    assert_int_equal(barbu_seed_parse("0", &seed), 0);
    assert_true(seed == 0);
    assert_int_equal(barbu_seed_parse("18446744073709551615", &seed), 0);
    assert_true(seed == UINT64_MAX);
    assert_int_equal(barbu_seed_parse("007", &seed), 0);
    assert_true(seed == 7);
    static const char *const BAD[] = {"",   "18446744073709551616",   "-1", "+1", " 1", "1 ",
                                      "1x", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        seed = 42;
        assert_int_equal(barbu_seed_parse(BAD[i], &seed), BARBU_EINVAL);
        assert_true(seed == 42);
    }
}

static void test_set_hands(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    assert_int_equal(barbu_init(&s, &r, 1), 0);
    barbu_cards h[4], bad[4];
    hands_of(h, "AKQJ.AKQ.AKQ.AKQ", "T987.JT9.JT9.JT9", "654.8765.876.876", "32.432.5432.5432");
    assert_int_equal(barbu_set_hands(&s, h), 0);
    assert_memory_equal(s.hand, h, sizeof h);
    assert_memory_equal(s.dealt, h, sizeof h);

    /* A card twice (and one missing). */
    memcpy(bad, h, sizeof bad);
    bad[E] = (bad[E] & ~BARBU_BIT(card_of("TS"))) | BARBU_BIT(card_of("AS"));
    assert_int_equal(barbu_set_hands(&s, bad), BARBU_EHANDS);
    /* Twelve and fourteen cards. */
    memcpy(bad, h, sizeof bad);
    bad[E] &= ~BARBU_BIT(card_of("TS"));
    bad[S] |= BARBU_BIT(card_of("TS"));
    assert_int_equal(barbu_set_hands(&s, bad), BARBU_EHANDS);
    /* A card that is not in the pack. */
    memcpy(bad, h, sizeof bad);
    bad[W] = (bad[W] & ~BARBU_BIT(card_of("2S"))) | BARBU_BIT(BARBU_CARD(BARBU_SPADES, 1));
    assert_int_equal(barbu_set_hands(&s, bad), BARBU_EHANDS);
    /* Nothing of that changed the hands. */
    assert_memory_equal(s.hand, h, sizeof h);

    /* Once the deal has begun its hands are fixed. */
    declare(&s, "no-tricks", -1, 0);
    assert_int_equal(barbu_set_hands(&s, h), BARBU_EPHASE);
}

/* The checker finds what a broken state breaks. */
static void test_state_ok(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s, bad;
    assert_int_equal(barbu_init(&s, &r, 3), 0);
    const char *why = NULL;
    assert_int_equal(barbu_state_ok(&s, &why), 0);

    bad = s;
    bad.hand[N] |= bad.hand[E] & -bad.hand[E];
    why = NULL;
    assert_int_equal(barbu_state_ok(&bad, &why), BARBU_EINVAL);
    assert_non_null(why);

    bad = s;
    bad.t.in_hand[S] = 12;
    why = NULL;
    assert_int_equal(barbu_state_ok(&bad, &why), BARBU_EINVAL);
    assert_non_null(why);

    bad = s;
    bad.t.total[W] = 5;
    assert_int_equal(barbu_state_ok(&bad, NULL), BARBU_EINVAL);

    bad = s;
    bad.t.to_move = -1;
    assert_int_equal(barbu_state_ok(&bad, NULL), BARBU_EINVAL);

    bad = s;
    bad.t.owed[N][E] = 3;
    assert_int_equal(barbu_state_ok(&bad, NULL), BARBU_EINVAL);
}

/* barbu_truncate ends the game with the current deal. */
static void test_truncate(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    assert_int_equal(barbu_init(&s, &r, 5), 0);
    barbu_rng rng;
    barbu_rng_seed(&rng, 5);
    finish_deal_random(&s, &rng);
    finish_deal_random(&s, &rng);
    assert_int_equal(s.t.deal, 2);
    barbu_truncate(&s);
    assert_int_equal(s.t.n_deals, 3);
    assert_false(barbu_over(&s));
    declare(&s, "trumps", BARBU_SPADES, 0);
    bid_nothing(&s);
    while (!barbu_over(&s))
        assert_int_equal(barbu_play_random(&s, &rng), 0);
    assert_int_equal(s.t.deal, 3);
    assert_int_equal(s.t.last.deal, 2);
    assert_int_equal(s.t.last.raw[0] + s.t.last.raw[1] + s.t.last.raw[2] + s.t.last.raw[3], 65);
    /* Truncating a finished game changes nothing. */
    barbu_truncate(&s);
    assert_int_equal(s.t.n_deals, 3);
}

/* t.acted counts the actions of the current deal. */
static void test_acted(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    assert_int_equal(s.t.acted, 0);
    declare(&s, "no-hearts", -1, 0);
    assert_int_equal(s.t.acted, 1);
    barbu_action a = barbu_act_bid(E, 0x10, 0);
    assert_int_equal(barbu_apply(&s, &a), BARBU_EDOUBLE);
    assert_int_equal(s.t.acted, 1);
    bid_double_declarer(&s);
    assert_int_equal(s.t.acted, 5);
    barbu_rng rng;
    barbu_rng_seed(&rng, 3);
    assert_int_equal(barbu_play_random(&s, &rng), 0);
    assert_int_equal(s.t.acted, 6);
    assert_int_equal(barbu_play(&s, (barbu_card)__builtin_ctzll(barbu_playable(&s))), 0);
    assert_int_equal(s.t.acted, 7);
    while (s.t.deal == 0)
        assert_int_equal(barbu_play_random(&s, &rng), 0);
    /* A new deal: nothing done in it yet, so it can still be composed. */
    assert_int_equal(s.t.acted, 0);
    barbu_cards h[4];
    hands_of(h, "AKQJ.AKQ.AKQ.AKQ", "T987.JT9.JT9.JT9", "654.8765.876.876", "32.432.5432.5432");
    assert_int_equal(barbu_set_hands(&s, h), 0);
    /* An undoubled negative contract: declared, three passes, shared. */
    declare(&s, "no-tricks", -1, 0);
    bid_nothing(&s);
    assert_int_equal(s.t.deal, 2);
    assert_int_equal(s.t.acted, 0);
    assert_int_equal(barbu_set_hands(&s, h), 0);
}

/* A state is a plain value: a copy plays on by itself. */
static void test_copy(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state a;
    assert_int_equal(barbu_init(&a, &r, 8), 0);
    barbu_rng rng;
    barbu_rng_seed(&rng, 8);
    finish_deal_random(&a, &rng);
    barbu_state b = a;
    barbu_rng rb = rng;
    finish_deal_random(&a, &rng);
    barbu_state a2 = a;
    finish_deal_random(&b, &rb);
    assert_memory_equal(&a2.t, &b.t, sizeof b.t);
    assert_memory_equal(a2.hand, b.hand, sizeof b.hand);
}

/* The 32-card pack (seed 004's French game): eight tricks, 7 to A. */
static void test_deck_32(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "deck = 32\ndomino.places = 50 20 5 -5\n");
    barbu_state s;
    assert_int_equal(barbu_init(&s, &r, 32), 0);
    barbu_cards deck = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 7; rank <= BARBU_ACE; rank++)
            deck |= BARBU_BIT(BARBU_CARD(suit, rank));
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(barbu_count(s.hand[seat]), 8);
    assert_true((s.hand[0] | s.hand[1] | s.hand[2] | s.hand[3]) == deck);
    barbu_action acts[BARBU_MAX_ACTIONS];
    /* Domino start ranks run from 7 to A. */
    assert_int_equal(barbu_legal(&s, acts, BARBU_MAX_ACTIONS), 5 + 4 + 8);
    barbu_action a = barbu_act_declare(s.t.to_move, contract_of(&r, "domino"), -1, 6);
    assert_int_equal(barbu_apply(&s, &a), BARBU_ERANK);
    /* A 52-card hand is not a deal of this pack. */
    barbu_cards h[4];
    hands_of(h, "AKQJ.AKQ.AKQ.AKQ", "T987.JT9.JT9.JT9", "654.8765.876.876", "32.432.5432.5432");
    assert_int_equal(barbu_set_hands(&s, h), BARBU_EHANDS);

    barbu_rng rng;
    barbu_rng_seed(&rng, 32);
    while (!barbu_over(&s)) {
        finish_deal_random(&s, &rng);
        const barbu_result *res = &s.t.last;
        if (res->played && (res->contracts & (1u << contract_of(&r, "no-tricks"))))
            assert_int_equal(res->tricks[0] + res->tricks[1] + res->tricks[2] + res->tricks[3], 8);
    }
    assert_int_equal(s.t.deal, 28);
    assert_int_equal(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3], 0);
}

/* The 32-card Domino: nothing below the seven. */
static void test_deck_32_domino(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "deck = 32\ndomino.places = 50 20 5 -5\n");
    barbu_state s;
    barbu_cards h[4];
    hands_of(h, "AKQJT987.-.-.-", "-.AKQJT987.-.-", "-.-.AKQJT987.-", "-.-.-.AKQJT987");
    start_game(&s, &r, N, h);
    declare(&s, "domino", -1, 7);
    bid_double_declarer(&s);
    play_seq(&s, "7S 7H 7D 7C");
    assert_true(legal_cards(&s) == cards_of("8S"));

    rules_text(&r, "deck = 32\ndomino.places = 50 20 5 -5\ndomino-ace = low\n");
    start_game(&s, &r, N, h);
    declare(&s, "domino", -1, 7);
    bid_double_declarer(&s);
    play_seq(&s, "7S 7H 7D 7C");
    assert_true(legal_cards(&s) == cards_of("AS 8S"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_errors),    cmocka_unit_test(test_seed_parse),
        cmocka_unit_test(test_set_hands),      cmocka_unit_test(test_state_ok),
        cmocka_unit_test(test_truncate),       cmocka_unit_test(test_acted),
        cmocka_unit_test(test_copy),           cmocka_unit_test(test_deck_32),
        cmocka_unit_test(test_deck_32_domino),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
