/*
 * test_record.c - game records of the Fife game (seed 000): Calls and
 * combinations, the Silly Round's [Cuts] and [PassOn] sections, its
 * [Dealer], groups of cards at Patience; and the canonical writer: every
 * golden record read and written again gives its own text.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"

/* tests/golden, from this file's own path (CMake compiles it by its full
 * path). */
static void golden_path(const char *name, char *buf, size_t cap)
{
    const char *here = __FILE__;
    const char *cut = strstr(here, "tests/unit/");
    assert_non_null(cut);
    snprintf(buf, cap, "%.*stests/golden/%s", (int)(cut - here), here, name);
}

/* The whole file in a malloc'd string. */
static char *slurp(const char *name, size_t *len)
{
    char path[1024];
    golden_path(name, path, sizeof path);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return text;
}

/* Reads text, checks that it replays, and writes it again into *out. */
static void rewrite(const char *text, size_t len, char **out, size_t *out_len)
{
    barbu_record *rec;
    barbu_diag diag = {0};
    int err = barbu_record_read(text, len, &rec, &diag);
    if (err != 0)
        print_error("line %d: %s\n", diag.line, diag.msg);
    assert_int_equal(err, 0);
    barbu_state s;
    err = barbu_record_replay(rec, &s, NULL, NULL, &diag);
    if (err != 0)
        print_error("line %d: %s\n", diag.line, diag.msg);
    assert_int_equal(err, 0);
    assert_int_equal(barbu_record_write(rec, out, out_len, &diag), 0);
    barbu_record_free(rec);
}

/* The records written by barbu (every full game, the Fife records) read
 * and written again are the same bytes, but for the format: these were
 * written in format 1, and barbu writes format 2. */
static void test_golden_round_trip(void **state)
{
    (void)state;
    static const char *const NAMES[] = {
        "full-uk-random-seed1.txt",    "full-classic-mixed-seed2.txt",
        "full-ravage-mixed-seed3.txt", "full-chinese-mixed-seed4.txt",
        "full-king-mixed-seed5.txt",   "full-uk32-mixed-seed6.txt",
        "full-fife-random-seed88.txt", "fife-worked-silly-round.txt",
    };
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
        size_t len, len2;
        char *text = slurp(NAMES[i], &len), *again;
        rewrite(text, len, &again, &len2);
        char *version = strstr(text, "[Barbu \"1\"]");
        assert_non_null(version);
        version[8] = '2';
        if (len != len2 || memcmp(text, again, len) != 0)
            fail_msg("%s does not write back as itself", NAMES[i]);
        free(text);
        free(again);
    }
}

/* Random Fife games, each action recorded as played: the record replays to
 * the same totals and writes canonically (written, read, written again). */
static void test_fife_random_games(void **state)
{
    (void)state;
    barbu_rules r;
    assert_int_equal(barbu_rules_preset(&r, "fife"), 0);
    static barbu_action acts[BARBU_MAX_ACTIONS];
    int cuts = 0, pass_ons = 0, groups = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &r, seed), 0);
        barbu_record *rec = barbu_record_new(&r, seed);
        assert_non_null(rec);
        barbu_rng rng;
        barbu_rng_seed(&rng, seed);
        while (!barbu_over(&s)) {
            /* Half the Silly Rounds start from a dealer of the record's. */
            if (s.t.round == BARBU_SILLY_ROUND && s.t.round_deal == 0 && s.t.acted == 0 &&
                seed % 2 == 0)
                assert_int_equal(barbu_set_first(&s, (int)(seed / 2) & 3), 0);
            int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
            assert_true(n > 0 && n <= BARBU_MAX_ACTIONS);
            barbu_action a = acts[barbu_rng_below(&rng, (uint32_t)n)];
            cuts += a.type == BARBU_ACT_CUT;
            pass_ons += a.type == BARBU_ACT_PASS_ON;
            groups += a.type == BARBU_ACT_PLAY && barbu_count(a.cards) > 1;
            barbu_state before = s;
            assert_int_equal(barbu_apply(&s, &a), 0);
            assert_int_equal(barbu_record_add(rec, &before, &a), 0);
        }
        char *text, *again;
        size_t len, len2;
        barbu_diag diag = {0};
        assert_int_equal(barbu_record_write(rec, &text, &len, &diag), 0);
        barbu_record *back;
        assert_int_equal(barbu_record_read(text, len, &back, &diag), 0);
        barbu_state t;
        assert_int_equal(barbu_record_replay(back, &t, NULL, NULL, &diag), 0);
        assert_true(barbu_over(&t));
        assert_memory_equal(t.t.total, s.t.total, sizeof s.t.total);
        assert_int_equal(barbu_record_write(back, &again, &len2, &diag), 0);
        assert_int_equal(len, len2);
        assert_memory_equal(text, again, len);
        free(text);
        free(again);
        barbu_record_free(back);
        barbu_record_free(rec);
    }
    /* The games went through every new section. */
    assert_true(cuts > 40 && pass_ons > 40 && groups > 40);
}

/* The record's text up to the line that starts with `until` (not
 * included), then `tail`: a composed variation of a golden record. */
static char *variation(const char *name, const char *until, const char *tail, size_t *len)
{
    size_t n;
    char *text = slurp(name, &n);
    char *at = strstr(text, until);
    assert_non_null(at);
    size_t keep = (size_t)(at - text), extra = strlen(tail);
    char *out = malloc(keep + extra + 1);
    assert_non_null(out);
    memcpy(out, text, keep);
    memcpy(out + keep, tail, extra + 1);
    free(text);
    *len = keep + extra;
    return out;
}

/* Reads (and, if that succeeds, replays) text; returns the first error
 * with its message in diag. */
static int read_and_replay(const char *text, size_t len, barbu_diag *diag)
{
    barbu_record *rec;
    int err = barbu_record_read(text, len, &rec, diag);
    if (err != 0)
        return err;
    barbu_state s;
    err = barbu_record_replay(rec, &s, NULL, NULL, diag);
    barbu_record_free(rec);
    return err;
}

static void expect_refused(const char *name, const char *until, const char *tail, int err,
                           const char *msg)
{
    size_t len;
    char *text = variation(name, until, tail, &len);
    barbu_diag diag = {0};
    assert_int_equal(read_and_replay(text, len, &diag), err);
    assert_string_equal(diag.msg, msg);
    free(text);
}

#define SILLY "fife-worked-silly-round.txt"
#define DEAL19                                                                                     \
    "[Deal \"19\"]\n[Dealer \"N\"]\n"                                                              \
    "[Hands \"N:J9.QJ7.7.Q9 KT8.-.JT8.A7 A.AKT9.-.KT8 Q7.8.AKQ9.J\"]\n"

/* Malformed lines and tags of the new sections, each with its reason. */
static void test_fife_syntax_errors(void **state)
{
    (void)state;
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[Cuts]\nW: 3H 4H\n", BARBU_EPARSE,
                   "a cuts line holds one cut, as 'W: 3H'");
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[Cuts]\nW:\n", BARBU_EPARSE,
                   "a cuts line names the card cut, as 'W: 3H'");
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[Cuts]\nW 3H\n", BARBU_EPARSE,
                   "a cuts line starts with the cutter, as 'W:'");
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[Cuts]\nW: joker\n", BARBU_EPARSE,
                   "'joker' is not a cut of the Unused Pack (2-6 of a suit, Joker or Bridge)");
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[Cuts]\nW: AH\n", BARBU_EPARSE,
                   "'AH' is not a cut of the Unused Pack (2-6 of a suit, Joker or Bridge)");
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[PassOn]\nE: TD AC 7C 8S\n", BARBU_EPARSE,
                   "a Pass-on is three cards, not 4");
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[PassOn]\nE: TD AC TD\n", BARBU_EPARSE,
                   "TD is passed on twice");
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[PassOn]\nE: TD AC 1C\n", BARBU_EPARSE,
                   "'1C' is not a card (as QS, TH, 7D)");
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[Cuts]\n[Cuts]\n", BARBU_EPARSE,
                   "a second [Cuts] section");
    expect_refused(SILLY, "[Deal \"19\"]", "[Deal \"19\"]\n[Dealer \"X\"]\n", BARBU_EPARSE,
                   "Dealer must be N, E, S or W");
    expect_refused(SILLY, "[Deal \"1\"]",
                   "[Deal \"1\"]\n[Declarer \"E\"]\n[Contract \"queens+queens\"]\n", BARBU_EPARSE,
                   "'queens' is named twice");
}

/* What the replay refuses in the Silly Round, with the deal and reason. */
static void test_fife_replay_errors(void **state)
{
    (void)state;
    /* Nobody calls in the Silly Round. */
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[Contract \"aces\"]\n", BARBU_EMISMATCH,
                   "deal 19: the Silly Round's Calls come from the cuts, not from a Contract "
                   "tag");
    /* The cutter sits on the dealer's right. */
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[Cuts]\nE: 3D\n", BARBU_ETURN,
                   "deal 19, action 1 (E cuts 3D): it is not E's turn: the game waits for W's "
                   "cut of the Unused Pack for the Call");
    /* Cuts after the Calls and the Pass-ons are decided. */
    expect_refused(SILLY, "[Deal \"19\"]", DEAL19 "[Cuts]\nW: Joker\nW: 4H\nW: 5H\n",
                   BARBU_EMISMATCH,
                   "deal 19: 'W cuts 5H' is a cut too many: the cuts before it decided the Call "
                   "(The Lot) and no Pass-on");
    /* A Pass-on of cards the seat does not hold. */
    expect_refused(SILLY, "[Deal \"19\"]",
                   DEAL19 "[Cuts]\nW: Joker\nW: 2C\n[PassOn]\nE: AS KS QS\n", BARBU_ENOTHELD,
                   "deal 19, action 3 (E passes on AS KS QS): E does not hold AS and QS");
    /* The engine holds 32 cuts of a deal; the 33rd comes from the seed. */
    char many[1024] = DEAL19 "[Cuts]\nW: 2C\nW: Bridge\n";
    for (int i = 0; i < 31; i++)
        strcat(many, "W: Joker\n");
    strcat(many, "W: 4H\n");
    expect_refused(SILLY, "[Deal \"19\"]", many, BARBU_EMISMATCH,
                   "deal 19, action 33 (W cuts Joker): the engine cuts 2D (a deal takes at most "
                   "32 cuts from a record)");
}

/* A composed Silly Round deal: its own dealer, cuts and Pass-ons, read
 * from text; the Calls are those the cuts decide. */
static void test_fife_composed_cuts(void **state)
{
    (void)state;
    size_t len;
    /* W cuts a 2 then a Bridge: Aces alone; then a Joker (cut again) and
     * a red card: no Pass-on.  The first dealer is E, so N cuts and S
     * leads. */
    char *text = variation(SILLY, "[Deal \"19\"]",
                           "[Deal \"19\"]\n[Dealer \"E\"]\n[Cuts]\nN: 2C\nN: Bridge\nN: Joker\n"
                           "N: 4H\n",
                           &len);
    barbu_record *rec;
    barbu_diag diag = {0};
    assert_int_equal(barbu_record_read(text, len, &rec, &diag), 0);
    barbu_state s;
    int err = barbu_record_replay(rec, &s, NULL, NULL, &diag);
    if (err != 0)
        print_error("line %d: %s\n", diag.line, diag.msg);
    assert_int_equal(err, 0);
    assert_int_equal(s.t.dealer, E);
    assert_int_equal(s.t.contracts, 1u << BARBU_CALL_ACES);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(s.t.to_move, S);
    /* Written: the deal names its dealer, the Calls and the cuts. */
    char *out;
    size_t out_len;
    assert_int_equal(barbu_record_write(rec, &out, &out_len, &diag), 0);
    assert_non_null(strstr(out, "[Deal \"19\"]\n[Dealer \"E\"]\n"));
    assert_non_null(strstr(out, "\n% the cuts call Aces\n[Cuts]\nN: 2C\nN: Bridge\nN: Joker\n"
                                "N: 4H\n"));
    free(out);
    free(text);
    barbu_record_free(rec);
}

/* A running game's record for its players: the deal in progress is gone,
 * the seed is withheld, and what is left replays, without the seed, to the
 * scores the game had when its last complete deal ended.  Every preset,
 * stopped part-way through a deal some way into each game (the Fife games
 * inside Player and Silly Rounds). */
static void test_withheld_running_games(void **state)
{
    (void)state;
    static barbu_action acts[BARBU_MAX_ACTIONS];
    for (int p = 0; barbu_preset_name(p); p++) {
        barbu_rules r;
        assert_int_equal(barbu_rules_preset(&r, barbu_preset_name(p)), 0);
        for (uint64_t seed = 11; seed <= 16; seed++) {
            barbu_state s;
            assert_int_equal(barbu_init(&s, &r, seed), 0);
            barbu_record *rec = barbu_record_new(&r, seed);
            assert_non_null(rec);
            barbu_rng rng;
            barbu_rng_seed(&rng, seed);
            int stop_deal = (int)((seed * 7 + (uint64_t)p) % 23) + 1;
            int32_t totals[4] = {0};
            int completed = 0;
            while (!barbu_over(&s) && !(s.t.deal == stop_deal && s.t.acted == 3)) {
                int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
                assert_true(n > 0);
                if (n > BARBU_MAX_ACTIONS)
                    n = BARBU_MAX_ACTIONS;
                barbu_action a = acts[barbu_rng_below(&rng, (uint32_t)n)];
                barbu_state before = s;
                assert_int_equal(barbu_apply(&s, &a), 0);
                assert_int_equal(barbu_record_add(rec, &before, &a), 0);
                if (s.t.deal != before.t.deal) {
                    memcpy(totals, s.t.total, sizeof totals);
                    completed = s.t.deal;
                }
            }
            bool over = barbu_over(&s);
            assert_int_equal(barbu_record_withhold(rec), 0);
            assert_true(barbu_record_withheld(rec));
            char *text;
            size_t len;
            barbu_diag diag = {0};
            assert_int_equal(barbu_record_write(rec, &text, &len, &diag), 0);
            assert_non_null(strstr(text, "[Seed \"withheld\"]"));
            char seed_tag[64];
            snprintf(seed_tag, sizeof seed_tag, "[Seed \"%d\"]", (int)seed);
            assert_null(strstr(text, seed_tag));
            /* No deal past the last complete one. */
            char deal_tag[32];
            snprintf(deal_tag, sizeof deal_tag, "[Deal \"%d\"]", completed + 1);
            if (!over)
                assert_null(strstr(text, deal_tag));
            barbu_record *back;
            int err = barbu_record_read(text, len, &back, &diag);
            if (err)
                print_error("%s: line %d: %s\n", barbu_preset_name(p), diag.line, diag.msg);
            assert_int_equal(err, 0);
            barbu_state t;
            err = barbu_record_replay(back, &t, NULL, NULL, &diag);
            if (err)
                print_error("%s seed %d: line %d: %s\n", barbu_preset_name(p), (int)seed, diag.line,
                            diag.msg);
            assert_int_equal(err, 0);
            assert_int_equal(t.t.deal, completed);
            assert_memory_equal(t.t.total, totals, sizeof totals);
            /* Written again, the withheld record is the same text. */
            char *again;
            size_t len2;
            assert_int_equal(barbu_record_write(back, &again, &len2, &diag), 0);
            assert_int_equal(len, len2);
            assert_memory_equal(text, again, len);
            free(again);
            free(text);
            barbu_record_free(back);
            barbu_record_free(rec);
        }
    }
    /* Without the hands a withheld record cannot be replayed. */
    const char *bad = "[Barbu \"1\"]\n[Rules \"uk\"]\n[Seed \"withheld\"]\n[First \"N\"]\n"
                      "[Deal \"1\"]\n[Contract \"no-tricks\"]\n";
    barbu_record *rec;
    barbu_diag diag = {0};
    assert_int_equal(barbu_record_read(bad, strlen(bad), &rec, &diag), 0);
    barbu_state t;
    assert_int_not_equal(barbu_record_replay(rec, &t, NULL, NULL, &diag), 0);
    assert_non_null(strstr(diag.msg, "withheld"));
    barbu_record_free(rec);
    const char *no_first = "[Barbu \"1\"]\n[Rules \"uk\"]\n[Seed \"withheld\"]\n[Deal \"1\"]\n";
    assert_int_not_equal(barbu_record_read(no_first, strlen(no_first), &rec, &diag), 0);
    assert_non_null(strstr(diag.msg, "First"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_round_trip),  cmocka_unit_test(test_fife_random_games),
        cmocka_unit_test(test_fife_syntax_errors), cmocka_unit_test(test_fife_replay_errors),
        cmocka_unit_test(test_fife_composed_cuts), cmocka_unit_test(test_withheld_running_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
