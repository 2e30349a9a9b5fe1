/*
 * test_deck32.c - the 32-card presets (seed 004's French pack, 7 to A):
 * uk-32, classic-32, quick-32 and ravage-32.  Eight cards a hand and eight
 * tricks, the pack 7 to A, Domino from any rank 7 to A, and score tables
 * that still sum to zero (the totals of the comments in rules.c).
 */
#include "helpers.h"

static const char *const PRESETS_32[4] = {"uk-32", "classic-32", "quick-32", "ravage-32"};

/* The pack: 7 to A of each suit. */
static barbu_cards pack_32(void)
{
    barbu_cards deck = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 7; rank <= BARBU_ACE; rank++)
            deck |= BARBU_BIT(BARBU_CARD(suit, rank));
    return deck;
}

/*
 * A composed 32-card deal of eight tricks that everybody follows: tricks 1-2
 * spades, 3-4 diamonds, 5-6 clubs, 7-8 hearts (last, so that the hearts-lead
 * rule never bites); the first trick of a suit holds its 7 8 9 T, the second
 * its J Q K A, and the winner holds the top card.
 */
static void compose_32(int leader, const int winner[8], barbu_cards hands[4], barbu_card seq[32])
{
    static const int suits[4] = {BARBU_SPADES, BARBU_DIAMONDS, BARBU_CLUBS, BARBU_HEARTS};
    memset(hands, 0, 4 * sizeof hands[0]);
    int n = 0;
    for (int k = 0; k < 8; k++) {
        int suit = suits[k / 2], j = k % 2, w = winner[k];
        barbu_card c[4];
        c[w] = BARBU_CARD(suit, 10 + 4 * j);
        for (int i = 1; i < 4; i++)
            c[(w + i) & 3] = BARBU_CARD(suit, 6 + i + 4 * j);
        for (int i = 0; i < 4; i++) {
            int seat = (leader + i) & 3;
            hands[seat] |= BARBU_BIT(c[seat]);
            seq[n++] = c[seat];
        }
        leader = w;
    }
}

/* The totals of rules.c: -16 -20 -24 -20 -30 = -110 = -(40 + 70); and with
 * Ravage City -24 -20 -32 -21 -30 -24 = -151 = -(56 + 95). */
static void test_totals(void **state)
{
    (void)state;
    static const struct {
        const char *key;
        int standard, ravage;
    } want[] = {
        {"no-tricks", -16, -24}, {"no-hearts", -20, -20},   {"no-queens", -24, -32},
        {"no-king", -20, -21},   {"no-last-two", -30, -30}, {"trumps", 40, 56},
        {"domino", 70, 95},      {"ravage", 0, -24},
    };
    for (int p = 0; p < 4; p++) {
        barbu_rules r;
        preset(&r, PRESETS_32[p]);
        bool ravage = p == 3;
        assert_int_equal(r.deck_low, 7);
        assert_int_equal(barbu_rules_hand_size(&r), 8);
        assert_int_equal(r.n_contracts, ravage ? 8 : 7);
        assert_int_equal(barbu_rules_deals(&r), ravage ? 32 : 28);
        assert_int_equal(barbu_rules_check(&r, NULL), 0);
        long game = 0;
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            int c = barbu_contract_find(&r, want[i].key);
            if (!ravage && strcmp(want[i].key, "ravage") == 0) {
                assert_int_equal(c, -1);
                continue;
            }
            assert_true(c >= 0);
            int total = barbu_contract_total(&r, c);
            assert_int_equal(total, ravage ? want[i].ravage : want[i].standard);
            game += (long)total * barbu_contract_times(&r, c);
        }
        assert_int_equal(game, 0);
        /* Nothing below the seven scores. */
        for (int c = 0; c < r.n_contracts; c++)
            for (int card = 0; card < 64; card++)
                if (!(pack_32() & BARBU_BIT(card)))
                    assert_int_equal(r.contract[c].card[card], 0);
        const barbu_contract *dom = &r.contract[contract_of(&r, "domino")];
        static const int places[2][4] = {{45, 20, 5, 0}, {55, 30, 10, 0}};
        for (int i = 0; i < 4; i++)
            assert_int_equal(dom->place[i], places[ravage][i]);
    }

    /* Rotation: quick-32 is uk-32 by another name; classic-32 and ravage-32
     * keep each declarer's contracts in a row. */
    barbu_rules uk, quick, classic;
    preset(&uk, "uk-32");
    preset(&quick, "quick-32");
    preset(&classic, "classic-32");
    assert_int_equal(uk.rotation, BARBU_ROTATE_EVERY_DEAL);
    assert_int_equal(classic.rotation, BARBU_ROTATE_BLOCK);
    memcpy(quick.preset, uk.preset, sizeof quick.preset);
    assert_memory_equal(&quick, &uk, sizeof uk);
    classic.rotation = uk.rotation;
    memcpy(classic.preset, uk.preset, sizeof classic.preset);
    assert_memory_equal(&classic, &uk, sizeof uk);
}

/* Whole games: every deal eight cards a hand from the 32-card pack, eight
 * tricks when played out, the declarers in the preset's order, zero in all. */
static void test_games(void **state)
{
    (void)state;
    const barbu_cards deck = pack_32();
    for (int p = 0; p < 4; p++) {
        barbu_rules r;
        preset(&r, PRESETS_32[p]);
        int deals = barbu_rules_deals(&r), per = deals / 4;
        bool block = r.rotation == BARBU_ROTATE_BLOCK;
        for (uint64_t seed = 1; seed <= 4; seed++) {
            barbu_state s;
            assert_int_equal(barbu_init(&s, &r, seed * 32 + (uint64_t)p), 0);
            assert_int_equal(s.t.n_deals, deals);
            int first = s.t.first;
            barbu_rng rng;
            barbu_rng_seed(&rng, seed);
            for (int d = 0; d < deals; d++) {
                assert_int_equal(s.t.declarer, block ? (first + d / per) & 3 : (first + d) & 3);
                barbu_cards all = 0;
                for (int seat = 0; seat < 4; seat++) {
                    assert_int_equal(barbu_count(s.hand[seat]), 8);
                    assert_int_equal(s.t.in_hand[seat], 8);
                    assert_true((all & s.hand[seat]) == 0);
                    all |= s.hand[seat];
                }
                assert_true(all == deck);
                finish_deal_random(&s, &rng);
                const barbu_result *res = &s.t.last;
                int c = __builtin_ctz(res->contracts);
                int kind = r.contract[c].kind;
                if (res->played && kind != BARBU_KIND_DOMINO) {
                    int tricks = res->tricks[0] + res->tricks[1] + res->tricks[2] + res->tricks[3];
                    assert_int_equal(tricks + res->tricks_left, 8);
                }
                assert_int_equal(res->raw[0] + res->raw[1] + res->raw[2] + res->raw[3],
                                 barbu_contract_total(&r, c));
            }
            assert_true(barbu_over(&s));
            assert_int_equal(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3], 0);
            for (int seat = 0; seat < 4; seat++)
                for (int c = 0; c < r.n_contracts; c++)
                    assert_int_equal(s.t.used[seat][c], 1);
        }
    }
}

/* Domino starts from any rank of the pack, 7 to A, and no other. */
static void test_domino_ranks(void **state)
{
    (void)state;
    for (int p = 0; p < 4; p++) {
        barbu_rules r;
        preset(&r, PRESETS_32[p]);
        barbu_state s;
        start_game(&s, &r, N, NULL);
        int dom = contract_of(&r, "domino");
        barbu_action acts[BARBU_MAX_ACTIONS];
        int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
        unsigned ranks = 0;
        int plain = 0;
        for (int i = 0; i < n; i++) {
            if (acts[i].contracts == 1u << dom)
                ranks |= 1u << acts[i].rank;
            else if (acts[i].trump < 0)
                plain++;
        }
        assert_int_equal(ranks, 0xffu << 7);
        /* The other contracts: one each, Trumps four times. */
        assert_int_equal(n, plain + 4 + 8);
        assert_int_equal(plain, r.n_contracts - 2);
        for (int rank = 0; rank <= 15; rank++) {
            barbu_action a = barbu_act_declare(N, dom, -1, rank);
            assert_int_equal(barbu_check(&s, &a), rank >= 7 && rank <= BARBU_ACE ? 0 : BARBU_ERANK);
        }
    }
}

/* Each player holding one suit, Domino from the 7, the ace or the 10: N
 * goes out first, then E, S, W.  uk-32 pays 45 20 5 0, ravage-32 55 30 10 0. */
static void test_domino_scores(void **state)
{
    (void)state;
    barbu_cards h[4];
    hands_of(h, "AKQJT987.-.-.-", "-.AKQJT987.-.-", "-.-.AKQJT987.-", "-.-.-.AKQJT987");
    static const struct {
        const char *preset;
        int rank;
        int raw[4];
    } cases[] = {
        {"uk-32", 7, {45, 20, 5, 0}},
        {"uk-32", BARBU_ACE, {45, 20, 5, 0}},
        {"ravage-32", 7, {55, 30, 10, 0}},
        {"ravage-32", 10, {55, 30, 10, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        barbu_rules r;
        preset(&r, cases[i].preset);
        barbu_state s;
        start_game(&s, &r, N, h);
        declare(&s, "domino", -1, cases[i].rank);
        bid_nothing(&s);
        assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
        barbu_rng rng;
        barbu_rng_seed(&rng, i);
        /* Each always has a card of its own suit to play; from the 7 or the
         * ace, exactly one. */
        while (s.t.deal == 0) {
            int n = barbu_count(barbu_playable(&s));
            assert_true(n >= 1);
            if (cases[i].rank == 7 || cases[i].rank == BARBU_ACE)
                assert_int_equal(n, 1);
            assert_int_equal(barbu_play_random(&s, &rng), 0);
        }
        const barbu_result *res = &s.t.last;
        static const int order[4] = {N, E, S, W};
        for (int k = 0; k < 4; k++) {
            assert_int_equal(res->order[k], order[k]);
            assert_int_equal(res->raw[k], cases[i].raw[k]);
        }
    }
}

/* The trick contracts on a composed deal: the tricks go to N E S W N E S W.
 * Queens in tricks 2, 4, 6, 8 (E W E W); hearts 7 8 9 T in trick 7 (S) and
 * J Q K A in trick 8 (W). */
static void test_trick_scores(void **state)
{
    (void)state;
    const int winner[8] = {N, E, S, W, N, E, S, W};
    barbu_cards h[4];
    barbu_card seq[32];
    compose_32(N, winner, h, seq);
    static const struct {
        const char *preset, *key;
        int raw[4];
    } cases[] = {
        {"uk-32", "no-tricks", {-4, -4, -4, -4}},
        {"uk-32", "no-hearts", {0, 0, -8, -12}},
        {"uk-32", "no-queens", {0, -12, 0, -12}},
        {"uk-32", "no-king", {0, 0, 0, -20}},
        {"uk-32", "no-last-two", {0, 0, -10, -20}},
        {"ravage-32", "no-tricks", {-6, -6, -6, -6}},
        {"ravage-32", "no-hearts", {0, 0, -8, -12}},
        {"ravage-32", "no-queens", {0, -16, 0, -16}},
        {"ravage-32", "no-king", {0, 0, 0, -21}},
        /* Everybody took two tricks of one suit each: four tied at 4. */
        {"ravage-32", "ravage", {-6, -6, -6, -6}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        barbu_rules r;
        preset(&r, cases[i].preset);
        barbu_state s;
        start_game(&s, &r, N, h);
        declare(&s, cases[i].key, -1, 0);
        bid_double_declarer(&s);
        play_cards_seq(&s, seq, 32);
        const barbu_result *res = &s.t.last;
        assert_int_equal(s.t.deal, 1);
        assert_int_equal(res->tricks_left, 0);
        for (int seat = 0; seat < 4; seat++) {
            assert_int_equal(res->tricks[seat], 2);
            assert_int_equal(res->raw[seat], cases[i].raw[seat]);
        }
    }

    /* Trumps in spades, +5 a trick in uk-32 and +7 in ravage-32: the spade
     * tricks are played upwards (each must beat the trumps down) and go to
     * the fourth player, W and then S; N takes three tricks. */
    const int trumps_winner[8] = {W, S, N, N, N, E, S, W};
    compose_32(N, trumps_winner, h, seq);
    for (int k = 0; k < 2; k++) {
        barbu_rules r;
        preset(&r, k == 0 ? "uk-32" : "ravage-32");
        barbu_state s;
        start_game(&s, &r, N, h);
        declare(&s, "trumps", BARBU_SPADES, 0);
        bid_nothing(&s);
        play_cards_seq(&s, seq, 32);
        int per = k == 0 ? 5 : 7;
        const int tricks[4] = {3, 1, 2, 2};
        for (int seat = 0; seat < 4; seat++)
            assert_int_equal(s.t.last.raw[seat], per * tricks[seat]);
    }
}

/* Chinese Poker needs 13 cards: a chinese rule set with the short pack is
 * refused, naming the deck line. */
static void test_no_chinese(void **state)
{
    (void)state;
    barbu_rules r;
    barbu_diag diag = {0};
    const char *text = "preset = chinese\n# the French pack\ndeck = 32\n";
    assert_int_equal(barbu_rules_parse(&r, text, strlen(text), &diag), BARBU_ERULES);
    assert_int_equal(diag.line, 3);
    assert_non_null(strstr(diag.msg, "13 cards"));
    preset(&r, "chinese");
    r.deck_low = 7;
    assert_int_equal(barbu_rules_check(&r, NULL), BARBU_ERULES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_totals),       cmocka_unit_test(test_games),
        cmocka_unit_test(test_domino_ranks), cmocka_unit_test(test_domino_scores),
        cmocka_unit_test(test_trick_scores), cmocka_unit_test(test_no_chinese),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
