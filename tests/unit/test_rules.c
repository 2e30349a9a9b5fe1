/*
 * test_rules.c - the presets and their score tables (seeds 002, 003, 004),
 * and the rules file: every option line, the errors and their lines, and
 * the round trip through barbu_rules_write.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const UK_KEYS[7] = {"no-tricks",   "no-hearts", "no-queens", "no-king",
                                       "no-last-two", "trumps",    "domino"};

static const char *const PRESETS[] = {"uk",         "classic",  "quick",     "ravage",
                                      "chinese",    "king",     "king-7th",  "uk-32",
                                      "classic-32", "quick-32", "ravage-32", "fife"};
#define N_PRESETS (int)(sizeof PRESETS / sizeof PRESETS[0])

/* The deals of each preset (the Fife game: at most 27 a Set). */
static const int PRESET_DEALS[N_PRESETS] = {28, 28, 28, 32, 36, 20, 20, 28, 28, 28, 32, 27};

static void round_trip(const barbu_rules *r);

static void test_presets(void **state)
{
    (void)state;
    for (int i = 0; i < N_PRESETS; i++) {
        assert_non_null(barbu_preset_name(i));
        assert_string_equal(barbu_preset_name(i), PRESETS[i]);
        assert_non_null(barbu_preset_about(i));
        assert_true(strlen(barbu_preset_about(i)) > 10);
    }
    assert_null(barbu_preset_name(N_PRESETS));
    assert_null(barbu_preset_about(N_PRESETS));
    assert_null(barbu_preset_name(-1));
    assert_null(barbu_preset_about(-1));

    barbu_rules r;
    assert_int_equal(barbu_rules_preset(&r, "nonesuch"), BARBU_EINVAL);
    assert_int_equal(barbu_rules_preset(&r, ""), BARBU_EINVAL);
    assert_int_equal(barbu_rules_preset(&r, "UK"), BARBU_EINVAL);
    for (int i = 0; barbu_preset_name(i) != NULL; i++) {
        preset(&r, barbu_preset_name(i));
        assert_string_equal(r.preset, barbu_preset_name(i));
        barbu_diag diag = {0};
        int err = barbu_rules_check(&r, &diag);
        if (err != 0)
            print_error("%s: %s\n", barbu_preset_name(i), diag.msg);
        assert_int_equal(err, 0);
        assert_int_equal(barbu_rules_deals(&r), PRESET_DEALS[i]);
        /* Each game sums to zero by its tables. */
        long game = 0;
        for (int c = 0; c < r.n_contracts; c++)
            game += (long)barbu_contract_total(&r, c) * barbu_contract_times(&r, c);
        assert_int_equal(game, 0);
        /* A preset written as a list of changes is its preset line. */
        char buf[256], want[64];
        barbu_rules_write(&r, true, buf, sizeof buf);
        snprintf(want, sizeof want, "preset = %s\n", barbu_preset_name(i));
        assert_string_equal(buf, want);
        /* A rules file naming it gives it. */
        barbu_rules parsed;
        rules_text(&parsed, want);
        assert_memory_equal(&parsed, &r, sizeof r);
        round_trip(&r);
    }
}

/* Ravage City and Chinese Poker: seed 004's table and the pairwise scores. */
static void test_variant_presets(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "ravage");
    assert_int_equal(r.n_contracts, 8);
    assert_int_equal(r.rotation, BARBU_ROTATE_BLOCK);
    static const struct {
        const char *key;
        int total;
    } ravage[8] = {{"no-tricks", -39},   {"no-hearts", -30}, {"no-queens", -32}, {"no-king", -21},
                   {"no-last-two", -30}, {"trumps", 91},     {"domino", 85},     {"ravage", -24}};
    for (int i = 0; i < 8; i++) {
        assert_string_equal(r.contract[i].key, ravage[i].key);
        assert_int_equal(barbu_contract_total(&r, i), ravage[i].total);
        assert_int_equal(barbu_contract_times(&r, i), 4);
    }
    assert_int_equal(r.contract[0].per_trick, -3);
    assert_int_equal(r.contract[2].card[BARBU_CARD(BARBU_CLUBS, BARBU_QUEEN)], -8);
    assert_int_equal(r.contract[3].card[BARBU_CARD(BARBU_HEARTS, BARBU_KING)], -21);
    assert_int_equal(r.contract[5].per_trick, 7);
    const int places[4] = {50, 25, 10, 0};
    for (int i = 0; i < 4; i++)
        assert_int_equal(r.contract[6].place[i], places[i]);
    assert_int_equal(r.contract[7].kind, BARBU_KIND_RAVAGE);
    assert_int_equal(r.contract[7].shared, -24);
    assert_int_equal(r.contract[7].flags, 0);

    barbu_rules c;
    preset(&c, "chinese");
    assert_int_equal(c.n_contracts, 9);
    /* The first eight are Ravage City's. */
    assert_memory_equal(c.contract, r.contract, 8 * sizeof r.contract[0]);
    assert_string_equal(c.contract[8].key, "chinese");
    assert_int_equal(c.contract[8].kind, BARBU_KIND_CHINESE);
    assert_int_equal(c.contract[8].per_row, 4);
    assert_int_equal(c.contract[8].scoop, 3);
    assert_int_equal(barbu_contract_total(&c, 8), 0);
    assert_false(c.fouls_lose);
    assert_true(c.doubling);
    assert_true(c.undoubled_shared);

    /* quick is uk's game by seed 001's name. */
    barbu_rules uk, quick;
    preset(&uk, "uk");
    preset(&quick, "quick");
    memcpy(quick.preset, uk.preset, sizeof uk.preset);
    assert_memory_equal(&quick, &uk, sizeof uk);
}

/* The uk game of seeds 002 and 003: seven contracts, 28 deals of 13 tricks. */
static void test_uk_options(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    assert_int_equal(r.n_contracts, 7);
    for (int i = 0; i < 7; i++) {
        assert_string_equal(r.contract[i].key, UK_KEYS[i]);
        assert_int_equal(barbu_contract_find(&r, UK_KEYS[i]), i);
        assert_int_equal(r.contract[i].per_player, 1);
    }
    assert_int_equal(barbu_contract_find(&r, "ravage"), -1);
    assert_int_equal(r.deck_low, 2);
    assert_int_equal(barbu_rules_hand_size(&r), 13);
    assert_int_equal(barbu_rules_deals(&r), 28);
    assert_int_equal(r.rotation, BARBU_ROTATE_EVERY_DEAL);
    assert_int_equal(r.first_lead, BARBU_FIRST_DECLARER);
    assert_int_equal(r.domino_first, BARBU_FIRST_DECLARER);
    assert_false(r.domino_ace_low);
    assert_true(r.must_trump);
    assert_true(r.hearts_lead);
    assert_true(r.early_end);
    assert_true(r.doubling);
    assert_true(r.undoubled_shared);
    assert_int_equal(r.mandatory_doubles, 2);

    /* The contract rules: hearts may not be led at No Hearts and No King
     * (seed 002), No Queens and No King end early (seed 004). */
    assert_int_equal(r.contract[0].flags & (BARBU_CF_HEARTS_LEAD | BARBU_CF_EARLY_END), 0);
    assert_true(r.contract[1].flags & BARBU_CF_HEARTS_LEAD);
    assert_false(r.contract[1].flags & BARBU_CF_EARLY_END);
    assert_false(r.contract[2].flags & BARBU_CF_HEARTS_LEAD);
    assert_true(r.contract[2].flags & BARBU_CF_EARLY_END);
    assert_true(r.contract[3].flags & BARBU_CF_HEARTS_LEAD);
    assert_true(r.contract[3].flags & BARBU_CF_EARLY_END);
    assert_int_equal(r.contract[4].flags & (BARBU_CF_HEARTS_LEAD | BARBU_CF_EARLY_END), 0);
    assert_int_equal(r.contract[5].kind, BARBU_KIND_TRUMPS);
    assert_int_equal(r.contract[6].kind, BARBU_KIND_DOMINO);

    barbu_rules c;
    preset(&c, "classic");
    assert_int_equal(c.rotation, BARBU_ROTATE_BLOCK);
    assert_int_equal(barbu_rules_deals(&c), 28);
    /* Apart from the rotation and its name, classic is uk. */
    c.rotation = r.rotation;
    memcpy(c.preset, r.preset, sizeof c.preset);
    assert_memory_equal(&c, &r, sizeof r);
}

/* The score tables of seeds 002, 003 and 004, card by card. */
static void test_uk_scores(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    static const int totals[7] = {-26, -30, -24, -20, -30, 65, 65};
    int sum = 0;
    for (int i = 0; i < 7; i++) {
        assert_int_equal(barbu_contract_total(&r, i), totals[i]);
        sum += totals[i];
    }
    assert_int_equal(sum, 0);

    const barbu_contract *nt = &r.contract[0], *nh = &r.contract[1], *nq = &r.contract[2],
                         *nk = &r.contract[3], *nl = &r.contract[4], *tr = &r.contract[5],
                         *dom = &r.contract[6];
    assert_int_equal(nt->per_trick, -2);
    for (int suit = 0; suit < 4; suit++) {
        for (int rank = 2; rank <= BARBU_ACE; rank++) {
            int card = BARBU_CARD(suit, rank);
            assert_int_equal(nt->card[card], 0);
            int heart = suit == BARBU_HEARTS ? (rank == BARBU_ACE ? -6 : -2) : 0;
            assert_int_equal(nh->card[card], heart);
            assert_int_equal(nq->card[card], rank == BARBU_QUEEN ? -6 : 0);
            assert_int_equal(nk->card[card],
                             card == BARBU_CARD(BARBU_HEARTS, BARBU_KING) ? -20 : 0);
            assert_int_equal(nl->card[card], 0);
            assert_int_equal(tr->card[card], 0);
        }
    }
    assert_int_equal(nh->per_trick, 0);
    assert_int_equal(nq->per_trick, 0);
    assert_int_equal(nk->per_trick, 0);
    assert_int_equal(nl->per_trick, 0);
    assert_int_equal(nl->trick_from_end[0], -20);
    assert_int_equal(nl->trick_from_end[1], -10);
    for (int k = 2; k < BARBU_MAX_TRICKS; k++)
        assert_int_equal(nl->trick_from_end[k], 0);
    assert_int_equal(tr->per_trick, 5);
    assert_int_equal(dom->place[0], 45);
    assert_int_equal(dom->place[1], 20);
    assert_int_equal(dom->place[2], 5);
    assert_int_equal(dom->place[3], -5);
}

static int parse(barbu_rules *r, const char *text, barbu_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    return barbu_rules_parse(r, text, strlen(text), diag);
}

/* Every option line, each value it takes. */
static void test_parse_options(void **state)
{
    (void)state;
    barbu_rules r;

    rules_text(&r, "");
    barbu_rules uk;
    preset(&uk, "uk");
    assert_memory_equal(&r, &uk, sizeof r);

    rules_text(&r, "# only a comment\n\n   \n");
    assert_memory_equal(&r, &uk, sizeof r);

    rules_text(&r, "preset = classic\n");
    assert_string_equal(r.preset, "classic");
    assert_int_equal(r.rotation, BARBU_ROTATE_BLOCK);

    rules_text(&r, "rotation = in-a-row\n");
    assert_int_equal(r.rotation, BARBU_ROTATE_BLOCK);
    rules_text(&r, "preset = classic\nrotation = every-deal\n");
    assert_int_equal(r.rotation, BARBU_ROTATE_EVERY_DEAL);

    rules_text(&r, "first-lead = left\n");
    assert_int_equal(r.first_lead, BARBU_FIRST_LEFT);
    rules_text(&r, "first-lead = declarer\n");
    assert_int_equal(r.first_lead, BARBU_FIRST_DECLARER);

    rules_text(&r, "domino-first = left\n");
    assert_int_equal(r.domino_first, BARBU_FIRST_LEFT);
    rules_text(&r, "domino-first = declarer\n");
    assert_int_equal(r.domino_first, BARBU_FIRST_DECLARER);

    rules_text(&r, "domino-ace = low\n");
    assert_true(r.domino_ace_low);
    rules_text(&r, "domino-ace = high\n");
    assert_false(r.domino_ace_low);

    rules_text(&r, "must-trump = no\n");
    assert_false(r.must_trump);
    rules_text(&r, "must-trump = yes\n");
    assert_true(r.must_trump);
    rules_text(&r, "must-trump = off\n");
    assert_false(r.must_trump);
    rules_text(&r, "must-trump = false\nmust-trump = on\n");
    assert_true(r.must_trump);
    rules_text(&r, "must-trump = true\n");
    assert_true(r.must_trump);

    rules_text(&r, "hearts-lead = no\n");
    assert_false(r.hearts_lead);
    rules_text(&r, "early-end = no\n");
    assert_false(r.early_end);
    rules_text(&r, "doubling = no\n");
    assert_false(r.doubling);
    rules_text(&r, "undoubled-not-played = no\n");
    assert_false(r.undoubled_shared);

    rules_text(&r, "mandatory-doubles = 0\n");
    assert_int_equal(r.mandatory_doubles, 0);
    rules_text(&r, "mandatory-doubles = 7\n");
    assert_int_equal(r.mandatory_doubles, 7);

    rules_text(&r, "israeli = advise\n");
    assert_int_equal(r.israeli, BARBU_ISRAELI_ADVISE);
    rules_text(&r, "israeli = enforce\n");
    assert_int_equal(r.israeli, BARBU_ISRAELI_ENFORCE);
    rules_text(&r, "israeli = off\n");
    assert_int_equal(r.israeli, BARBU_ISRAELI_OFF);

    /* A 32-card pack: eight tricks; the scores must then be rebalanced
     * (here the Domino gains 5 to make up for the shorter No Tricks, No
     * Hearts and Trumps). */
    rules_text(&r, "deck = 32\ndomino.places = 50 20 5 -5\n");
    assert_int_equal(r.deck_low, 7);
    assert_int_equal(barbu_rules_hand_size(&r), 8);
    assert_int_equal(barbu_rules_deals(&r), 28);
    assert_int_equal(barbu_contract_total(&r, 0), -16);
    assert_int_equal(barbu_contract_total(&r, 1), -20);
    assert_int_equal(barbu_contract_total(&r, 5), 40);
    rules_text(&r, "deck = 52\n");
    assert_int_equal(r.deck_low, 2);

    /* Spaces, tabs and trailing comments around a line. */
    rules_text(&r, "  \tmust-trump\t=\tno   # house rule\r\n");
    assert_false(r.must_trump);
}

/* Contract lines: every field of a score table. */
static void test_parse_contract_fields(void **state)
{
    (void)state;
    barbu_rules r;

    rules_text(&r, "domino-scores = 40 20 5 0\n");
    assert_int_equal(r.contract[6].place[0], 40);
    assert_int_equal(r.contract[6].place[1], 20);
    assert_int_equal(r.contract[6].place[2], 5);
    assert_int_equal(r.contract[6].place[3], 0);
    assert_int_equal(barbu_contract_total(&r, 6), 65);

    rules_text(&r, "domino.places = 40, 20, 5, 0\n");
    assert_int_equal(r.contract[6].place[3], 0);

    /* Ace of hearts -4 and king of hearts -4 keep No Hearts at -30. */
    rules_text(&r, "no-hearts.card.AH = -4\nno-hearts.card.KH = -4\n");
    assert_int_equal(r.contract[1].card[BARBU_CARD(BARBU_HEARTS, BARBU_ACE)], -4);
    assert_int_equal(r.contract[1].card[BARBU_CARD(BARBU_HEARTS, BARBU_KING)], -4);
    assert_int_equal(barbu_contract_total(&r, 1), -30);

    /* Ranks, suits and all. */
    rules_text(&r, "no-queens.card.Q = -5\nno-queens.card.J = -1\n");
    for (int suit = 0; suit < 4; suit++) {
        assert_int_equal(r.contract[2].card[BARBU_CARD(suit, BARBU_QUEEN)], -5);
        assert_int_equal(r.contract[2].card[BARBU_CARD(suit, BARBU_JACK)], -1);
    }
    rules_text(&r, "no-hearts.card.all = 0\nno-hearts.card.H = -2\nno-hearts.card.AH = -6\n");
    barbu_rules uk;
    preset(&uk, "uk");
    assert_memory_equal(&r, &uk, sizeof r);
    rules_text(&r, "no-king.card.10 = 0\n");
    assert_memory_equal(&r, &uk, sizeof r);

    /* Per trick, tricks from the end, per player. */
    rules_text(&r, "no-tricks.per-trick = -3\ntrumps.per-trick = 6\n");
    assert_int_equal(r.contract[0].per_trick, -3);
    assert_int_equal(r.contract[5].per_trick, 6);
    assert_int_equal(barbu_contract_total(&r, 0), -39);
    assert_int_equal(barbu_contract_total(&r, 5), 78);
    rules_text(&r, "no-last-two.trick-from-end = -20 -10 -5\ndomino.places = 50 20 5 -5\n");
    assert_int_equal(r.contract[4].trick_from_end[0], -20);
    assert_int_equal(r.contract[4].trick_from_end[1], -10);
    assert_int_equal(r.contract[4].trick_from_end[2], -5);
    assert_int_equal(barbu_contract_total(&r, 4), -35);
    rules_text(&r, "no-tricks.per-player = 2\ndomino.places = 71 20 5 -5\n");
    assert_int_equal(r.contract[0].per_player, 2);
    assert_int_equal(barbu_rules_deals(&r), 32);

    /* Contract rules. */
    rules_text(&r, "no-king.rules = hearts-lead\n");
    assert_int_equal(r.contract[3].flags, BARBU_CF_HEARTS_LEAD);
    rules_text(&r, "no-queens.rules = none\n");
    assert_int_equal(r.contract[2].flags, 0);
    rules_text(&r, "no-tricks.rules = hearts-lead israeli\n");
    assert_int_equal(r.contract[0].flags, BARBU_CF_HEARTS_LEAD | BARBU_CF_ISRAELI);
    rules_text(&r, "no-hearts.rules = hearts-lead, early-end, israeli\n");
    assert_int_equal(r.contract[1].flags,
                     BARBU_CF_HEARTS_LEAD | BARBU_CF_EARLY_END | BARBU_CF_ISRAELI);
}

typedef struct bad_case {
    const char *text;
    int err;
    int line;
} bad_case;

/* Each error names its line. */
static void test_parse_errors(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        /* Unknown keys. */
        {"must-trump = yes\n# comment\nfoo = 1\n", BARBU_ERULES, 3},
        {"no-jacks.per-trick = -2\n", BARBU_ERULES, 1},
        {"\n\nno-tricks.per-card = -2\n", BARBU_ERULES, 3},
        {"early-end = no\nno-hearts.card.XX = -2\n", BARBU_ERULES, 2},
        {"no-hearts.rules = hearts-lead sometimes\n", BARBU_ERULES, 1},
        /* Values out of range or not among the choices. */
        {"must-trump = yes\nmandatory-doubles = 8\n", BARBU_ERULES, 2},
        {"mandatory-doubles = -1\n", BARBU_ERULES, 1},
        {"mandatory-doubles = two\n", BARBU_ERULES, 1},
        {"israeli = maybe\n", BARBU_ERULES, 1},
        {"#\n#\n#\ndeck = 40\n", BARBU_ERULES, 4},
        {"rotation = sometimes\n", BARBU_ERULES, 1},
        {"must-trump = perhaps\n", BARBU_ERULES, 1},
        {"domino-ace = middle\n", BARBU_ERULES, 1},
        {"no-tricks.per-trick = 20000\n", BARBU_ERULES, 1},
        {"no-tricks.per-player = 8\n", BARBU_ERULES, 1},
        {"domino-scores = 40 20 5\n", BARBU_ERULES, 1},
        {"domino-scores = 40 20 5 0 0\n", BARBU_ERULES, 1},
        {"no-last-two.trick-from-end = 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n", BARBU_ERULES, 1},
        {"preset = nonesuch\n", BARBU_ERULES, 1},
        /* The preset must come first. */
        {"must-trump = yes\npreset = classic\n", BARBU_ERULES, 2},
        /* Malformed lines. */
        {"must-trump = yes\nmust-trump yes\n", BARBU_EPARSE, 2},
        {"doubling =\n", BARBU_EPARSE, 1},
        /* The tables no longer sum to zero: the line that last changed a
         * score is blamed. */
        {"must-trump = yes\nno-tricks.per-trick = -3\nearly-end = yes\n", BARBU_ERULES, 2},
        {"domino-scores = 40 20 5 0\ntrumps.per-trick = 6\n# end\n", BARBU_ERULES, 2},
        {"no-queens.card.QS = -7\n", BARBU_ERULES, 1},
        /* ... or the deck line, which changes every table's total. */
        {"deck = 32\n", BARBU_ERULES, 1},
        {"# a 32-card game\ndeck = 32\n# no rebalancing\n", BARBU_ERULES, 2},
        /* More doubles owed than contracts to owe them in. */
        {"no-tricks.per-player = 0\ndomino.places = 45 20 5 -31\nmandatory-doubles = 7\n",
         BARBU_ERULES, 2},
        /* An early end with scores per trick. */
        {"no-queens.per-trick = -1\nno-tricks.per-trick = -1\n", BARBU_ERULES, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        barbu_rules r, before;
        preset(&r, "classic");
        before = r;
        barbu_diag diag;
        int err = parse(&r, cases[i].text, &diag);
        if (err != cases[i].err || diag.line != cases[i].line)
            print_error("case %zu: \"%s\" gave %d at line %d (%s)\n", i, cases[i].text, err,
                        diag.line, diag.msg);
        assert_int_equal(err, cases[i].err);
        assert_int_equal(diag.line, cases[i].line);
        assert_true(diag.msg[0] != '\0');
        /* A failed parse leaves the rules alone. */
        assert_memory_equal(&r, &before, sizeof r);
    }
}

static void test_check(void **state)
{
    (void)state;
    barbu_rules r;
    barbu_diag diag;
    preset(&r, "uk");
    r.contract[0].per_trick = -3;
    assert_int_equal(barbu_rules_check(&r, &diag), BARBU_ERULES);
    assert_true(diag.msg[0] != '\0');
    preset(&r, "uk");
    r.israeli = 3;
    assert_int_equal(barbu_rules_check(&r, NULL), BARBU_ERULES);
    preset(&r, "uk");
    r.deck_low = 5;
    assert_int_equal(barbu_rules_check(&r, NULL), BARBU_ERULES);
    preset(&r, "uk");
    r.n_contracts = 0;
    assert_int_equal(barbu_rules_check(&r, NULL), BARBU_ERULES);
    /* A game cannot start on rules that do not check. */
    preset(&r, "uk");
    r.contract[5].per_trick = 6;
    barbu_state s;
    assert_int_equal(barbu_init(&s, &r, 1), BARBU_ERULES);
}

/* Writes the rules both ways and reads them back. */
static void round_trip(const barbu_rules *r)
{
    for (int only = 0; only < 2; only++) {
        char buf[16384];
        int n = barbu_rules_write(r, only != 0, buf, sizeof buf);
        assert_true(n > 0 && (size_t)n < sizeof buf);
        assert_int_equal(n, (int)strlen(buf));
        barbu_rules back;
        memset(&back, 0, sizeof back);
        barbu_diag diag;
        memset(&diag, 0, sizeof diag);
        int err = barbu_rules_parse(&back, buf, (size_t)n, &diag);
        if (err != 0)
            print_error("line %d: %s\n%s", diag.line, diag.msg, buf);
        assert_int_equal(err, 0);
        if (memcmp(&back, r, sizeof back) != 0)
            print_error("differs after a round trip (only_changes=%d):\n%s", only, buf);
        assert_memory_equal(&back, r, sizeof back);
    }
}

static void test_write_round_trip(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    round_trip(&r);
    preset(&r, "classic");
    round_trip(&r);

    static const char *const texts[] = {
        "israeli = enforce\nmust-trump = no\ndomino-ace = low\nfirst-lead = left\n"
        "domino-first = left\nmandatory-doubles = 1\nrotation = in-a-row\nearly-end = no\n"
        "hearts-lead = no\nundoubled-not-played = no\ndoubling = no\n",
        "no-hearts.card.AH = -4\nno-hearts.card.KH = -4\n",
        "deck = 32\ndomino.places = 50 20 5 -5\n",
        "no-last-two.trick-from-end = -20 -10 -5\ndomino.places = 50 20 5 -5\n",
        "no-king.rules = hearts-lead\nno-queens.rules = none\nno-tricks.rules = israeli\n",
        "preset = classic\ndomino-scores = 40 20 5 0\nisraeli = advise\n",
        "no-tricks.per-player = 2\ndomino.places = 71 20 5 -5\n",
        "no-queens.card.Q = -5\nno-queens.card.J = -1\n",
        "no-last-two.trick-from-end = 0\nno-last-two.per-trick = -2\n"
        "domino.places = 41 20 5 -5\n",
        "no-hearts.card.all = -1\nno-hearts.card.H = -2\nno-hearts.card.AH = -6\n"
        "trumps.per-trick = 8\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        rules_text(&r, texts[i]);
        round_trip(&r);
    }
}

/* Whatever the reader accepts, the writer must give back: fields that do
 * not score for a contract's kind, and card values outside a short pack. */
/* Lines that a contract's kind would never score are refused (rather than
 * accepted and lost when the rules are written back out), naming the line. */
static void test_fields_foreign_to_the_kind(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int line;
    } cases[] = {
        {"domino.per-trick = 3\n", 1},
        {"# a comment\ndomino.card.AS = 4\n", 2},
        {"no-tricks.places = 1 2 3 -6\n", 1},
        {"deck = 32\ndomino.places = 50 20 5 -5\nno-hearts.card.2H = -50\n", 3},
        {"deck = 32\nno-queens.card.3 = -1\n", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        barbu_rules r;
        barbu_diag diag = {0};
        assert_int_equal(parse(&r, cases[i].text, &diag), BARBU_ERULES);
        assert_int_equal(diag.line, cases[i].line);
    }
}

/* The fields and the option of the variants: Ravage City's shared score,
 * Chinese Poker's row and scoop units, the times a contract is played, and
 * chinese-fouls. */
static void test_variant_fields(void **state)
{
    (void)state;
    barbu_rules r;

    /* Ravage City at -36, the Domino raised to match (seed 004's "some
     * players"); and docs/rules.md's example. */
    rules_text(&r, "preset = ravage\nravage.shared = -36\ndomino.places = 62 25 10 0\n");
    assert_int_equal(r.contract[contract_of(&r, "ravage")].shared, -36);
    assert_int_equal(barbu_contract_total(&r, contract_of(&r, "ravage")), -36);
    round_trip(&r);
    rules_text(&r,
               "preset = ravage\nrotation = every-deal        # Ravage City with Quick Rotation\n"
               "ravage.shared = -36          # the -36 some play (seed 004) ...\n"
               "trumps.per-trick = 8         # ... balanced: -188 + 104 + 84\n"
               "domino-scores = 50 25 10 -1\n");
    assert_int_equal(r.rotation, BARBU_ROTATE_EVERY_DEAL);
    assert_int_equal(r.contract[contract_of(&r, "trumps")].per_trick, 8);
    round_trip(&r);
    rules_text(&r, "preset = ravage\nravage.shared = 0\nno-tricks.per-trick = -2\n"
                   "trumps.per-trick = 5\ndomino.places = 45 20 5 -5\nno-queens.card.Q = -6\n"
                   "no-king.card.KH = -20\n");
    assert_int_equal(barbu_contract_total(&r, contract_of(&r, "ravage")), 0);
    round_trip(&r);

    /* Chinese Poker: any units (it is zero-sum whatever they are). */
    rules_text(&r, "preset = chinese\nchinese.per-row = 1\nchinese.scoop = 0\n");
    assert_int_equal(r.contract[contract_of(&r, "chinese")].per_row, 1);
    assert_int_equal(r.contract[contract_of(&r, "chinese")].scoop, 0);
    round_trip(&r);
    rules_text(&r, "preset = chinese\nchinese.per-row = 20\nchinese.scoop = 4\n");
    round_trip(&r);

    /* chinese-fouls. */
    rules_text(&r, "preset = chinese\nchinese-fouls = lose\n");
    assert_true(r.fouls_lose);
    round_trip(&r);
    char buf[4096];
    barbu_rules_write(&r, true, buf, sizeof buf);
    assert_string_equal(buf, "preset = chinese\nchinese-fouls = lose\n");
    barbu_rules_write(&r, false, buf, sizeof buf);
    assert_non_null(strstr(buf, "\nchinese-fouls = lose\n"));
    rules_text(&r, "preset = chinese\nchinese-fouls = lose\nchinese-fouls = refuse\n");
    assert_false(r.fouls_lose);

    /* times: King with No Tricks four times and Trumps ten (three a
     * player): 24 deals, -650 x 2 more against +650 x 2 more. */
    rules_text(&r, "preset = king\nno-tricks.times = 4\ntrumps.per-player = 3\n"
                   "trumps.times = 10\n");
    assert_int_equal(barbu_contract_times(&r, contract_of(&r, "no-tricks")), 4);
    assert_int_equal(barbu_contract_times(&r, contract_of(&r, "trumps")), 10);
    assert_int_equal(barbu_rules_deals(&r), 24);
    round_trip(&r);
    barbu_rules_write(&r, true, buf, sizeof buf);
    assert_non_null(strstr(buf, "no-tricks.times = 4\n"));
    assert_non_null(strstr(buf, "trumps.times = 10\n"));
    /* times = 0 means per-player for each of the four. */
    rules_text(&r, "preset = king\ntrumps.times = 0\n");
    assert_int_equal(barbu_contract_times(&r, contract_of(&r, "trumps")), 8);
    /* On a standard contract it says what was implied. */
    rules_text(&r, "no-tricks.times = 4\n");
    assert_int_equal(r.contract[0].times, 4);
    assert_int_equal(barbu_rules_deals(&r), 28);
    round_trip(&r);
}

/* Each refused line of the variants, with the line that diag names. */
static void test_variant_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int line;
        const char *says; /* a part of the message */
    } cases[] = {
        /* A field foreign to the contract's kind. */
        {"no-tricks.shared = -24\n", 1, "no-tricks scores tricks and cards taken"},
        {"preset = ravage\nravage.per-trick = -2\n", 2, "ravage scores one shared penalty"},
        {"preset = ravage\n\nravage.card.QS = -5\n", 3, "'card.QS' is not one of its fields"},
        {"preset = ravage\nravage.places = 1 2 3 4\n", 2, "'places'"},
        {"preset = ravage\nravage.trick-from-end = -1\n", 2, "'trick-from-end'"},
        {"preset = ravage\nravage.per-row = 4\n", 2, "'per-row'"},
        {"preset = chinese\nchinese.shared = -24\n", 2, "chinese scores rows"},
        {"preset = chinese\nchinese.per-trick = 1\n", 2, "'per-trick'"},
        {"preset = chinese\nchinese.card.AS = 1\n", 2, "'card.AS'"},
        {"preset = chinese\nchinese.places = 1 1 -1 -1\n", 2, "'places'"},
        {"domino.scoop = 3\n", 1, "domino scores places in the layout"},
        {"trumps.per-row = 4\n", 1, "'per-row'"},
        {"preset = king\nno-boys.shared = -12\n", 2, "'shared'"},
        {"ravage.shared = -24\n", 1, "unknown contract 'ravage'"},
        {"preset = king\nno-last-two.trick-from-end = -180\nno-7th-last.per-trick = 1\n", 3,
         "unknown contract 'no-7th-last'"},
        /* Out of range or not a number. */
        {"preset = ravage\nravage.shared = 20000\n", 2, "ravage.shared must be a score"},
        {"preset = ravage\nravage.shared = -12x\n", 2, "ravage.shared must be a score"},
        {"preset = chinese\nchinese.per-row = 10001\n", 2, "chinese.per-row must be a score"},
        {"preset = chinese\nchinese.scoop = many\n", 2, "chinese.scoop must be a score"},
        {"preset = king\nno-king.times = 29\n", 2, "no-king.times must be from 0 to 28"},
        {"preset = king\nno-king.times = -1\n", 2, "no-king.times must be from 0 to 28"},
        {"chinese-fouls = maybe\n", 1, "chinese-fouls must be one of refuse, lose"},
        {"preset = chinese\nchinese-fouls = yes\n", 2, "chinese-fouls must be one of"},
        /* The checks, blamed on the last line that changed a score. */
        {"preset = ravage\ndomino.places = 56 25 10 0\nravage.shared = -30\n", 3, "multiple of 12"},
        {"preset = chinese\nchinese.scoop = -1\n", 2, "cannot be negative"},
        {"preset = chinese\nchinese.per-row = -4\n", 2, "cannot be negative"},
        /* Scores that would not fit a deal's 16-bit scores once redoubled. */
        {"preset = chinese\nchinese.per-row = 2000\n", 2,
         "chinese's scores are too large: a player could score 468000 in one deal with "
         "redoubles, beyond 32767"},
        {"preset = uk\nno-king.card.KH = -2600\ntrumps.per-trick = 1\n", 3, "too large"},
        {"preset = king\nno-king.times = 0\n", 2, "not a multiple of 4"},
        {"preset = chinese\n# the French pack\ndeck = 32\n", 3, "13 cards a hand"},
        {"preset = ravage\nravage.shared = -36\n", 2, "sum to zero"},
        {"preset = ravage\nravage.shared = -36\n# no balance\n", 2, "sum to zero"},
        {"preset = king\nno-boys.card.J = -50\n", 2, "sum to zero"},
        {"preset = king-7th\nno-7th-last.trick-from-end = -180 0 0 0 0 0 -170\n", 2, "sum to zero"},
        {"preset = king\nno-king.times = 5\n", 2, "more than four players"},
        {"preset = king\ntrumps.per-player = 1\n", 2, "more than four players"},
        {"preset = king\nno-king.times = 0\n", 2, "22 deals"},
        {"preset = king\nno-king.times = 3\nno-girls.times = 3\nno-boys.times = 3\n"
         "no-hearts.times = 3\n",
         5, "sum to zero"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        barbu_rules r, before;
        preset(&r, "classic");
        before = r;
        barbu_diag diag;
        int err = parse(&r, cases[i].text, &diag);
        if (err != BARBU_ERULES || diag.line != cases[i].line ||
            strstr(diag.msg, cases[i].says) == NULL)
            print_error("case %zu: \"%s\" gave %d at line %d (%s)\n", i, cases[i].text, err,
                        diag.line, diag.msg);
        assert_int_equal(err, BARBU_ERULES);
        assert_int_equal(diag.line, cases[i].line);
        assert_non_null(strstr(diag.msg, cases[i].says));
        assert_memory_equal(&r, &before, sizeof r);
    }
}

/* A 32-card game started from a 52-card preset keeps no values for cards
 * outside its pack, so it writes and reads back to the same rules. */
static void test_32_cards_round_trip(void **state)
{
    (void)state;
    barbu_rules r;
    barbu_diag diag;
    const char *text = "preset = classic\ndeck = 32\nno-tricks.per-trick = -3\n"
                       "trumps.per-trick = 6\nno-queens.card.Q = -5\ndomino-scores = 40 20 6 0\n";
    assert_int_equal(parse(&r, text, &diag), 0);
    assert_int_equal(
        r.contract[barbu_contract_find(&r, "no-hearts")].card[BARBU_CARD(BARBU_HEARTS, 2)], 0);
    for (int only = 0; only < 2; only++) {
        char buf[16384];
        int n = barbu_rules_write(&r, only != 0, buf, sizeof buf);
        barbu_rules back;
        assert_int_equal(barbu_rules_parse(&back, buf, (size_t)n, &diag), 0);
        assert_memory_equal(&back, &r, sizeof r);
    }
}

static void test_write_only_changes(void **state)
{
    (void)state;
    barbu_rules r;
    char buf[4096];
    preset(&r, "uk");
    barbu_rules_write(&r, true, buf, sizeof buf);
    assert_string_equal(buf, "preset = uk\n");
    preset(&r, "classic");
    barbu_rules_write(&r, true, buf, sizeof buf);
    assert_string_equal(buf, "preset = classic\n");

    rules_text(&r, "must-trump = no\n");
    barbu_rules_write(&r, true, buf, sizeof buf);
    assert_string_equal(buf, "preset = uk\nmust-trump = no\n");

    rules_text(&r, "domino-scores = 40 20 5 0\n");
    barbu_rules_write(&r, true, buf, sizeof buf);
    assert_non_null(strstr(buf, "domino.places = 40 20 5 0\n"));
    assert_null(strstr(buf, "no-tricks"));

    /* The full listing names every option. */
    preset(&r, "uk");
    barbu_rules_write(&r, false, buf, sizeof buf);
    static const char *const keys[] = {"deck = 52",
                                       "rotation = every-deal",
                                       "first-lead = declarer",
                                       "domino-first = declarer",
                                       "domino-ace = high",
                                       "must-trump = yes",
                                       "hearts-lead = yes",
                                       "early-end = yes",
                                       "doubling = yes",
                                       "undoubled-not-played = yes",
                                       "mandatory-doubles = 2",
                                       "israeli = off"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_non_null(strstr(buf, keys[i]));
}

static void test_write_truncates(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    char full[16384], small[20];
    int n = barbu_rules_write(&r, false, full, sizeof full);
    memset(small, 'x', sizeof small);
    assert_int_equal(barbu_rules_write(&r, false, small, sizeof small), n);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, full, sizeof small - 1);
    /* A size query with no buffer. */
    assert_int_equal(barbu_rules_write(&r, false, NULL, 0), n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_variant_presets),
        cmocka_unit_test(test_uk_options),
        cmocka_unit_test(test_uk_scores),
        cmocka_unit_test(test_parse_options),
        cmocka_unit_test(test_parse_contract_fields),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_write_round_trip),
        cmocka_unit_test(test_fields_foreign_to_the_kind),
        cmocka_unit_test(test_variant_fields),
        cmocka_unit_test(test_variant_errors),
        cmocka_unit_test(test_32_cards_round_trip),
        cmocka_unit_test(test_write_only_changes),
        cmocka_unit_test(test_write_truncates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
