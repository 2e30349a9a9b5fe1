/*
 * test_schedule.c - who declares when: the first declarer drawn from the
 * seed (seed 004), the uk rotation (a new declarer every deal, seed 003)
 * and the classic one (seven in a row, seed 004), the dealer on the
 * declarer's right, each contract once per declarer, 28 deals in all, and
 * what a declaration must name.
 */
#include "helpers.h"

/* Plays a whole game, checking the schedule at the start of every deal. */
static void play_game(barbu_state *s, int first, bool block, uint64_t seed)
{
    barbu_rng rng;
    barbu_rng_seed(&rng, seed);
    for (int d = 0; d < 28; d++) {
        assert_int_equal(s->t.deal, d);
        assert_int_equal(s->t.phase, BARBU_PHASE_DECLARE);
        int decl = block ? (first + d / 7) & 3 : (first + d) & 3;
        assert_int_equal(s->t.declarer, decl);
        assert_int_equal(s->t.dealer, (decl + 3) & 3);
        assert_int_equal(barbu_to_move(s), decl);
        assert_int_equal(s->t.first, first);
        assert_int_equal(s->t.contracts, 0);
        for (int seat = 0; seat < 4; seat++)
            assert_int_equal(barbu_count(s->hand[seat]), 13);
        finish_deal_random(s, &rng);
        assert_int_equal(s->t.last.deal, d);
        assert_int_equal(s->t.last.declarer, decl);
    }
    assert_true(barbu_over(s));
    assert_int_equal(s->t.phase, BARBU_PHASE_OVER);
    assert_int_equal(barbu_to_move(s), -1);
    assert_int_equal(s->t.deal, 28);
    assert_int_equal(s->t.n_deals, 28);
    /* Each seat declared each of the seven contracts exactly once. */
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(s->t.declared[seat], 7);
        for (int c = 0; c < 7; c++)
            assert_int_equal(s->t.used[seat][c], 1);
    }
    /* With the standard tables the game adds up to zero (seed 002 rule 4). */
    assert_int_equal(s->t.total[0] + s->t.total[1] + s->t.total[2] + s->t.total[3], 0);
    barbu_action acts[4];
    assert_int_equal(barbu_legal(s, acts, 4), 0);
}

static void test_uk_rotation(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    for (int first = 0; first < 4; first++) {
        barbu_state s;
        start_game(&s, &r, first, NULL);
        play_game(&s, first, false, 100 + (uint64_t)first);
    }
}

static void test_classic_rotation(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "classic");
    for (int first = 0; first < 4; first++) {
        barbu_state s;
        start_game(&s, &r, first, NULL);
        play_game(&s, first, true, 200 + (uint64_t)first);
    }
}

/* A game from the seed alone, with its drawn first declarer. */
static void test_game_from_seed(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    assert_int_equal(barbu_init(&s, &r, 31337), 0);
    play_game(&s, s.t.first, false, 5);
}

/* The per-player option: No Tricks twice per declarer makes 32 deals, and
 * the compulsory doubles spread over eight contracts. */
static void test_per_player_option(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "no-tricks.per-player = 2\ndomino.places = 71 20 5 -5\n",
        "preset = classic\nno-tricks.per-player = 2\ndomino.places = 71 20 5 -5\n",
    };
    for (int k = 0; k < 2; k++) {
        barbu_rules r;
        rules_text(&r, texts[k]);
        assert_int_equal(barbu_rules_deals(&r), 32);
        barbu_state s;
        start_game(&s, &r, W, NULL);
        assert_int_equal(s.t.n_deals, 32);
        barbu_rng rng;
        barbu_rng_seed(&rng, 40 + (uint64_t)k);
        for (int d = 0; d < 32; d++) {
            int decl = k == 0 ? (W + d) & 3 : (W + d / 8) & 3;
            assert_int_equal(s.t.declarer, decl);
            finish_deal_random(&s, &rng);
        }
        assert_true(barbu_over(&s));
        for (int seat = 0; seat < 4; seat++) {
            assert_int_equal(s.t.declared[seat], 8);
            assert_int_equal(s.t.used[seat][0], 2);
            for (int c = 1; c < 7; c++)
                assert_int_equal(s.t.used[seat][c], 1);
            for (int d = 0; d < 4; d++)
                assert_int_equal(s.t.owed[seat][d], 0);
        }
        assert_int_equal(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3], 0);
    }
}

/* Each declarer chooses each contract once (seed 002 rule 4). */
static void test_contract_used(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    barbu_action acts[BARBU_MAX_ACTIONS];
    /* Five plain contracts, four trump suits, thirteen start ranks. */
    assert_int_equal(barbu_legal(&s, acts, BARBU_MAX_ACTIONS), 5 + 4 + 13);
    declare(&s, "no-tricks", -1, 0);
    bid_nothing(&s);
    /* Other seats may still choose it. */
    for (int seat = E; seat <= W; seat++) {
        assert_int_equal(barbu_to_move(&s), seat);
        declare(&s, "no-tricks", -1, 0);
        bid_nothing(&s);
    }
    assert_int_equal(barbu_to_move(&s), N);
    barbu_action a = barbu_act_declare(N, contract_of(&r, "no-tricks"), -1, 0);
    assert_int_equal(barbu_check(&s, &a), BARBU_EUSED);
    assert_int_equal(barbu_apply(&s, &a), BARBU_EUSED);
    int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
    assert_int_equal(n, 4 + 4 + 13);
    for (int i = 0; i < n; i++) {
        assert_int_equal(acts[i].type, BARBU_ACT_DECLARE);
        assert_int_equal(acts[i].seat, N);
        assert_int_not_equal(acts[i].contracts, 1u << contract_of(&r, "no-tricks"));
    }
    /* Trumps used once, by any suit. */
    declare(&s, "trumps", BARBU_HEARTS, 0);
    bid_nothing(&s);
    barbu_rng rng;
    barbu_rng_seed(&rng, 1);
    while (s.t.deal == 4)
        assert_int_equal(barbu_play_random(&s, &rng), 0);
    for (int k = 0; k < 3; k++) {
        declare(&s, "no-hearts", -1, 0);
        bid_nothing(&s);
    }
    assert_int_equal(barbu_to_move(&s), N);
    a = barbu_act_declare(N, contract_of(&r, "trumps"), BARBU_CLUBS, 0);
    assert_int_equal(barbu_apply(&s, &a), BARBU_EUSED);
    assert_int_equal(barbu_legal(&s, acts, BARBU_MAX_ACTIONS), 4 + 13);
}

/* A Trumps declaration names a suit, a Domino a rank, the others neither. */
static void test_declare_arguments(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    start_game(&s, &r, S, NULL);
    int tr = contract_of(&r, "trumps"), dom = contract_of(&r, "domino");
    int nt = contract_of(&r, "no-tricks");
    static const struct {
        int contract, trump, rank, err;
    } cases[] = {
        {5, -1, 0, BARBU_ESUIT},
        {5, 4, 0, BARBU_ESUIT},
        {5, BARBU_SPADES, 7, BARBU_ERANK},
        {6, -1, 0, BARBU_ERANK},
        {6, -1, 1, BARBU_ERANK},
        {6, -1, 15, BARBU_ERANK},
        {6, 2, 7, BARBU_ESUIT},
        {0, BARBU_HEARTS, 0, BARBU_ESUIT},
        {0, -1, 7, BARBU_ERANK},
        {3, -1, 13, BARBU_ERANK},
        {7, -1, 0, BARBU_ECONTRACT},
        {12, -1, 0, BARBU_ECONTRACT},
    };
    assert_int_equal(tr, 5);
    assert_int_equal(dom, 6);
    assert_int_equal(nt, 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        barbu_action a = barbu_act_declare(S, cases[i].contract, cases[i].trump, cases[i].rank);
        assert_int_equal(barbu_check(&s, &a), cases[i].err);
        assert_int_equal(barbu_apply(&s, &a), cases[i].err);
    }
    barbu_action a = barbu_act_declare(S, nt, -1, 0);
    a.contracts = 0;
    assert_int_equal(barbu_apply(&s, &a), BARBU_ECONTRACT);
    a.contracts = 3; /* two contracts at once: not in these rules */
    assert_int_equal(barbu_apply(&s, &a), BARBU_ECONTRACT);
    a = barbu_act_declare(E, nt, -1, 0);
    assert_int_equal(barbu_apply(&s, &a), BARBU_ETURN);
    assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);

    /* Every suit and every rank from the two to the ace is accepted. */
    for (int suit = 0; suit < 4; suit++) {
        a = barbu_act_declare(S, tr, suit, 0);
        assert_int_equal(barbu_check(&s, &a), 0);
    }
    for (int rank = 2; rank <= BARBU_ACE; rank++) {
        a = barbu_act_declare(S, dom, -1, rank);
        assert_int_equal(barbu_check(&s, &a), 0);
    }
    a = barbu_act_declare(S, tr, BARBU_DIAMONDS, 0);
    assert_int_equal(barbu_apply(&s, &a), 0);
    assert_int_equal(s.t.trump, BARBU_DIAMONDS);
    assert_int_equal(s.t.kind, BARBU_KIND_TRUMPS);
    assert_int_equal(s.t.contracts, 1u << tr);
    assert_int_equal(s.t.used[S][tr], 1);
    assert_int_equal(s.t.declared[S], 1);
}

/* The first declarer is drawn from the seed: the same seed gives the same
 * draw and the same hands; over many seeds every seat is drawn. */
static void test_first_declarer_from_seed(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    int seen[4] = {0};
    int differ = 0;
    barbu_cards prev = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        barbu_state a, b;
        assert_int_equal(barbu_init(&a, &r, seed), 0);
        assert_int_equal(barbu_init(&b, &r, seed), 0);
        assert_int_equal(a.t.first, b.t.first);
        assert_int_equal(a.t.declarer, a.t.first);
        assert_int_equal(a.t.dealer, (a.t.first + 3) & 3);
        assert_int_equal(a.seed, seed);
        for (int seat = 0; seat < 4; seat++) {
            assert_true(a.hand[seat] == b.hand[seat]);
            assert_int_equal(barbu_count(a.hand[seat]), 13);
        }
        assert_true((a.hand[0] | a.hand[1] | a.hand[2] | a.hand[3]) == BARBU_ALL_CARDS);
        seen[a.t.first]++;
        differ += a.hand[N] != prev;
        prev = a.hand[N];
    }
    for (int seat = 0; seat < 4; seat++)
        assert_true(seen[seat] > 20);
    assert_int_equal(differ, 200);
}

/* The first deal's hands stay as dealt when the first declarer is set. */
static void test_set_first_keeps_hands(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    assert_int_equal(barbu_init(&s, &r, 99), 0);
    barbu_cards before[4];
    memcpy(before, s.hand, sizeof before);
    int other = (s.t.first + 2) & 3;
    assert_int_equal(barbu_set_first(&s, other), 0);
    assert_int_equal(s.t.first, other);
    assert_int_equal(s.t.declarer, other);
    assert_int_equal(s.t.dealer, (other + 3) & 3);
    assert_int_equal(barbu_to_move(&s), other);
    assert_memory_equal(s.hand, before, sizeof before);
    assert_memory_equal(s.dealt, before, sizeof before);
    assert_int_equal(barbu_set_first(&s, 4), BARBU_EINVAL);
    assert_int_equal(barbu_set_first(&s, -1), BARBU_EINVAL);
    declare(&s, "no-tricks", -1, 0);
    assert_int_equal(barbu_set_first(&s, N), BARBU_EPHASE);
}

/* Later deals are dealt from the seed too: the same seed and actions give
 * the same game. */
static void test_replay_is_exact(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state a, b;
    assert_int_equal(barbu_init(&a, &r, 4242), 0);
    assert_int_equal(barbu_init(&b, &r, 4242), 0);
    barbu_rng rng;
    barbu_rng_seed(&rng, 1);
    while (!barbu_over(&a)) {
        barbu_action acts[BARBU_MAX_ACTIONS];
        int n = barbu_legal(&a, acts, BARBU_MAX_ACTIONS);
        barbu_action act = acts[barbu_rng_below(&rng, (uint32_t)n)];
        assert_int_equal(barbu_apply(&a, &act), 0);
        assert_int_equal(barbu_apply(&b, &act), 0);
        assert_memory_equal(&a.t, &b.t, sizeof a.t);
        assert_memory_equal(a.hand, b.hand, sizeof a.hand);
    }
    assert_int_equal(a.t.deal, 28);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uk_rotation),
        cmocka_unit_test(test_classic_rotation),
        cmocka_unit_test(test_game_from_seed),
        cmocka_unit_test(test_per_player_option),
        cmocka_unit_test(test_contract_used),
        cmocka_unit_test(test_declare_arguments),
        cmocka_unit_test(test_first_declarer_from_seed),
        cmocka_unit_test(test_set_first_keeps_hands),
        cmocka_unit_test(test_replay_is_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
