/*
 * test_record.c - game records of the Fife game (seed 000): Calls and
 * combinations, the Silly Round's [Cuts] and [PassOn] sections, its
 * [Dealer], groups of cards at Patience; and the canonical writer: every
 * golden record read and written again gives its own text.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"

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
        char *text = golden_text(NAMES[i], &len), *again;
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
    char *text = golden_text(name, &n);
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

/* ------------------------------------------------------------ format 2 */

/* The results of a replay, deal by deal. */
typedef struct results {
    int n;
    barbu_result r[64];
} results;

static void collect(const barbu_result *res, void *ctx)
{
    results *out = ctx;
    assert_true(out->n < (int)(sizeof out->r / sizeof out->r[0]));
    out->r[out->n++] = *res;
}

/* Reads and replays text, collecting each deal's result; returns the first
 * error, with its message in diag. */
static int replay_results(const char *text, results *out, barbu_diag *diag)
{
    memset(out, 0, sizeof *out);
    memset(diag, 0, sizeof *diag);
    barbu_record *rec;
    int err = barbu_record_read(text, strlen(text), &rec, diag);
    if (err != 0)
        return err;
    barbu_state s;
    err = barbu_record_replay(rec, &s, collect, out, diag);
    barbu_record_free(rec);
    return err;
}

static void replay_ok(const char *text, results *out)
{
    barbu_diag diag;
    int err = replay_results(text, out, &diag);
    if (err != 0)
        print_error("line %d: %s\n", diag.line, diag.msg);
    assert_int_equal(err, 0);
}

/* Two replays gave the same deals: contracts, bids, raw and final scores. */
static void assert_same_results(const results *a, const results *b)
{
    assert_int_equal(a->n, b->n);
    for (int i = 0; i < a->n; i++) {
        const barbu_result *x = &a->r[i], *y = &b->r[i];
        assert_int_equal(x->deal, y->deal);
        assert_int_equal(x->contracts, y->contracts);
        assert_int_equal(x->played, y->played);
        assert_memory_equal(x->dbl, y->dbl, sizeof x->dbl);
        assert_memory_equal(x->rdbl, y->rdbl, sizeof x->rdbl);
        assert_memory_equal(x->raw, y->raw, sizeof x->raw);
        assert_memory_equal(x->score, y->score, sizeof x->score);
        assert_memory_equal(x->order, y->order, sizeof x->order);
    }
}

/* text with the first `from` replaced by `to` (a malloc'd string). */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (at == NULL)
        fail_msg("'%s' is not in the text", from);
    size_t head = (size_t)(at - text), nf = strlen(from), nt = strlen(to);
    size_t tail = strlen(at + nf);
    char *out = malloc(head + nt + tail + 1);
    assert_non_null(out);
    memcpy(out, text, head);
    memcpy(out + head, to, nt);
    memcpy(out + head + nt, at + nf, tail + 1);
    return out;
}

/* text without the lines that start with prefix (a malloc'd string). */
static char *drop_lines(const char *text, const char *prefix)
{
    char *out = malloc(strlen(text) + 1);
    assert_non_null(out);
    size_t n = 0, np = strlen(prefix);
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        if (strncmp(line, prefix, np) != 0) {
            memcpy(out + n, line, len);
            n += len;
        }
        line += len;
    }
    out[n] = '\0';
    return out;
}

/* text up to (not including) the first `until` (a malloc'd string). */
static char *cut_at(const char *text, const char *until)
{
    const char *at = strstr(text, until);
    assert_non_null(at);
    char *out = malloc((size_t)(at - text) + 1);
    assert_non_null(out);
    memcpy(out, text, (size_t)(at - text));
    out[at - text] = '\0';
    return out;
}

/* The 1-based line of text where `what` starts. */
static int line_of(const char *text, const char *what)
{
    const char *at = strstr(text, what);
    assert_non_null(at);
    int line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

#define SEAT_BIDS                                                                                  \
    "E doubles N, S and W\nS redoubles E, doubles W\nW redoubles E S, doubles N\n"                 \
    "N redoubles E, W\n"

/* bid-seats.txt with other bids (and no Final tag, which the bids
 * change; the raw Score stays). */
static char *with_bids(const char *bids)
{
    char *base = golden_text("bid-seats.txt", NULL);
    char *a = replace(base, SEAT_BIDS, bids);
    char *b = drop_lines(a, "[Final ");
    free(base);
    free(a);
    return b;
}

/* Bids as words replay to exactly what the same bids with seats give. */
static void test_bid_words(void **state)
{
    (void)state;
    results words, seats;
    char *text = golden_text("bid-words.txt", NULL);
    replay_ok(text, &words);
    free(text);
    text = golden_text("bid-seats.txt", NULL);
    replay_ok(text, &seats);
    free(text);
    assert_same_results(&words, &seats);
    assert_int_equal(words.n, 1);
    const int16_t want[4] = {8, -56, -12, 34};
    assert_memory_equal(words.r[0].score, want, sizeof want);

    /* Each word, against the seats it means at that point. */
    static const char *const PAIRS[][2] = {
        /* E, first to bid at No Tricks: every other seat. */
        {"E max\nS passes\nW passes\nN passes\n",
         "E doubles N S W\nS passes\nW passes\nN passes\n"},
        {"E maximum\nS passes\nW passes\nN passes\n",
         "E doubles N S W\nS passes\nW passes\nN passes\n"},
        {"E table\nS passes\nW passes\nN passes\n",
         "E doubles N S W\nS passes\nW passes\nN passes\n"},
        {"E doubles max\nS passes\nW passes\nN passes\n",
         "E doubles N S W\nS passes\nW passes\nN passes\n"},
        /* S, not doubled: the two other non-declarers. */
        {"E doubles N\nS family\nW passes\nN passes\n",
         "E doubles N\nS doubles E W\nW passes\nN passes\n"},
        {"E doubles N\nS flanks\nW passes\nN passes\n",
         "E doubles N\nS doubles E W\nW passes\nN passes\n"},
        {"E doubles N\nS doubles family\nW passes\nN passes\n",
         "E doubles N\nS doubles E W\nW passes\nN passes\n"},
        /* S doubled by E: E redoubled, W doubled. */
        {"E doubles N S\nS family\nW passes\nN passes\n",
         "E doubles N S\nS redoubles E, doubles W\nW passes\nN passes\n"},
        /* S max after E's double: redoubles E, doubles N and W. */
        {"E doubles S\nS max\nW passes\nN passes\n",
         "E doubles S\nS redoubles E, doubles N W\nW passes\nN passes\n"},
        /* W family after E and S doubled it. */
        {"E doubles N W\nS doubles W\nW family\nN passes\n",
         "E doubles N W\nS doubles W\nW redoubles E S\nN passes\n"},
        /* The declarer's max: a redouble of each seat that doubled it. */
        {"E doubles N\nS doubles N\nW passes\nN max\n",
         "E doubles N\nS doubles N\nW passes\nN redoubles E S\n"},
        {"E doubles N\nS doubles N\nW passes\nN doubles max\n",
         "E doubles N\nS doubles N\nW passes\nN redoubles E S\n"},
        /* Lists with commas and "and". */
        {"E doubles N\nS doubles E, W\nW passes\nN passes\n",
         "E doubles N\nS doubles E W\nW passes\nN passes\n"},
        {"E doubles N\nS doubles E and W\nW passes\nN passes\n",
         "E doubles N\nS doubles E W\nW passes\nN passes\n"},
        {"E doubles N\nS doubles E,W\nW passes\nN passes\n",
         "E doubles N\nS doubles E W\nW passes\nN passes\n"},
        {"E doubles N, S and W\nS redoubles E and doubles W\nW passes\nN passes\n",
         "E doubles N S W\nS redoubles E, doubles W\nW passes\nN passes\n"},
    };
    for (size_t i = 0; i < sizeof PAIRS / sizeof PAIRS[0]; i++) {
        char *a = with_bids(PAIRS[i][0]), *b = with_bids(PAIRS[i][1]);
        results ra, rb;
        replay_ok(a, &ra);
        replay_ok(b, &rb);
        assert_int_equal(ra.n, 1);
        assert_same_results(&ra, &rb);
        free(a);
        free(b);
    }
    /* The lists are read as meant, not only alike. */
    char *a = with_bids("E doubles N\nS doubles E and W\nW passes\nN passes\n");
    results ra;
    replay_ok(a, &ra);
    assert_int_equal(ra.r[0].dbl[S], (1u << E) | (1u << W));
    assert_int_equal(ra.r[0].dbl[E], 1u << N);
    free(a);
    a = with_bids("E doubles N, S and W\nS redoubles E and doubles W\nW passes\nN passes\n");
    replay_ok(a, &ra);
    assert_int_equal(ra.r[0].dbl[E], (1u << N) | (1u << S) | (1u << W));
    assert_int_equal(ra.r[0].rdbl[S], 1u << E);
    assert_int_equal(ra.r[0].dbl[S], 1u << W);
    free(a);
}

/* Words misused: malformed ones when read, and one the seat cannot use
 * when replayed. */
static void test_bid_word_errors(void **state)
{
    (void)state;
    static const char *const BAD[][2] = {
        {"E passes\nS max E\n", "unexpected 'E' after 'max': the word is the whole bid"},
        {"E passes\nS doubles max E\n", "unexpected 'E' after 'max': the word is the whole bid"},
        {"E passes\nS family W\n", "unexpected 'W' after 'family': the word is the whole bid"},
        {"E passes\nS doubles\n", "a bid names the seats it doubles or redoubles"},
        {"E passes\nS doubles E max\n", "unexpected 'max' in a bid"},
        {"E passes\nS\n",
         "a bid needs 'passes', 'doubles ...', 'redoubles ...', 'max' or 'family'"},
        {"E passes\nS doubles E E\n", "E is named twice"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char *text = with_bids(BAD[i][0]);
        results out;
        barbu_diag diag;
        assert_int_equal(replay_results(text, &out, &diag), BARBU_EPARSE);
        assert_string_equal(diag.msg, BAD[i][1]);
        assert_int_equal(diag.line, 14); /* S's line of the [Bidding] section */
        free(text);
    }

    /* The declarer says family: a declarer does not double. */
    char *text = with_bids("E doubles N\nS passes\nW passes\nN family\n");
    results out;
    barbu_diag diag;
    assert_int_equal(replay_results(text, &out, &diag), BARBU_EDOUBLE);
    const char *want = "deal 1, action 5 (N family): N is the declarer, and a declarer does not "
                       "double";
    if (strncmp(diag.msg, want, strlen(want)) != 0)
        fail_msg("got: %s", diag.msg);
    assert_int_equal(diag.line, 16);
    free(text);

    /* At a positive contract a non-declarer's family would double the
     * other two; its max is a double of the declarer. */
    char *base = with_bids("E family\n");
    char *trumps = replace(base, "[Contract \"no-tricks\"]", "[Contract \"trumps S\"]");
    text = cut_at(trumps, "[Play]");
    free(trumps);
    assert_int_equal(replay_results(text, &out, &diag), BARBU_EDOUBLE);
    assert_string_equal(diag.msg, "deal 1, action 2 (E family): at a positive contract only the "
                                  "declarer, N, may be doubled");
    free(text);
    free(base);
    char *words = with_bids("E max\nS table\nW maximum\nN max\n");
    char *a = replace(words, "[Contract \"no-tricks\"]", "[Contract \"trumps S\"]");
    char *seats = with_bids("E doubles N\nS doubles N\nW doubles N\nN redoubles E S W\n");
    char *b = replace(seats, "[Contract \"no-tricks\"]", "[Contract \"trumps S\"]");
    /* The bidding only: the state after it tells the bids. */
    char *a2 = cut_at(a, "[Play]"), *b2 = cut_at(b, "[Play]");
    barbu_state sa, sb;
    barbu_record *ra, *rb;
    assert_int_equal(barbu_record_read(a2, strlen(a2), &ra, &diag), 0);
    assert_int_equal(barbu_record_read(b2, strlen(b2), &rb, &diag), 0);
    assert_int_equal(barbu_record_replay(ra, &sa, NULL, NULL, &diag), 0);
    assert_int_equal(barbu_record_replay(rb, &sb, NULL, NULL, &diag), 0);
    assert_int_equal(sa.t.phase, BARBU_PHASE_PLAY);
    assert_memory_equal(sa.t.dbl, sb.t.dbl, sizeof sa.t.dbl);
    assert_memory_equal(sa.t.rdbl, sb.t.rdbl, sizeof sa.t.rdbl);
    assert_int_equal(sa.t.dbl[E], 1u << N);
    assert_int_equal(sa.t.rdbl[N], (1u << E) | (1u << S) | (1u << W));
    barbu_record_free(ra);
    barbu_record_free(rb);
    free(words);
    free(seats);
    free(a);
    free(b);
    free(a2);
    free(b2);
}

/* A record read with words, written (with the seats they name) and read
 * again, replays to the same result. */
static void test_bid_words_written(void **state)
{
    (void)state;
    char *text = golden_text("bid-words.txt", NULL);
    barbu_record *rec;
    barbu_diag diag = {0};
    assert_int_equal(barbu_record_read(text, strlen(text), &rec, &diag), 0);
    char *out;
    size_t len;
    assert_int_equal(barbu_record_write(rec, &out, &len, &diag), 0);
    results before, after;
    replay_ok(text, &before);
    replay_ok(out, &after);
    assert_same_results(&before, &after);
    free(out);
    free(text);
    barbu_record_free(rec);
}

#define LAST_LINE "S: QD KD AD 2H\n"

static void expect_domino(const char *line, int err, const char *msg)
{
    char *text = golden_text("domino-played-out.txt", NULL);
    char *bad = replace(text, LAST_LINE, line);
    results out;
    barbu_diag diag;
    assert_int_equal(replay_results(bad, &out, &diag), err);
    assert_string_equal(diag.msg, msg);
    assert_int_equal(diag.line, line_of(bad, line)); /* the last [Play] line */
    free(bad);
    free(text);
}

/* A Domino deal written to the end gives the deal's result as the engine
 * ends it; the last player's cards must be theirs, fit in turn, and be all
 * of them. */
static void test_domino_played_out(void **state)
{
    (void)state;
    char *text = golden_text("domino-played-out.txt", NULL);
    char *cut = replace(text, LAST_LINE, "");
    results full, part;
    replay_ok(text, &full);
    replay_ok(cut, &part);
    assert_same_results(&full, &part);
    assert_int_equal(full.n, 1);
    const int16_t raw[4] = {20, 45, -5, 5};
    assert_memory_equal(full.r[0].raw, raw, sizeof raw);
    /* Written by barbu, the deal stops where the engine ends it. */
    barbu_record *rec;
    barbu_diag diag = {0};
    assert_int_equal(barbu_record_read(text, strlen(text), &rec, &diag), 0);
    char *out;
    size_t len;
    assert_int_equal(barbu_record_write(rec, &out, &len, &diag), 0);
    assert_null(strstr(out, LAST_LINE));
    results written;
    replay_ok(out, &written);
    assert_same_results(&full, &written);
    free(out);
    barbu_record_free(rec);
    /* Any order in which the cards fit will do. */
    char *other = replace(text, LAST_LINE, "S: 2H QD KD AD\n");
    replay_ok(other, &part);
    assert_same_results(&full, &part);
    free(other);
    free(cut);
    free(text);

    expect_domino("S: KD QD AD 2H\n", BARBU_ELAYOUT,
                  "deal 1: S, the last player, plays KD: diamonds run from the 2 to the Jack: the "
                  "King of diamonds does not fit, only the Queen of diamonds");
    expect_domino("S: AD QD KD 2H\n", BARBU_ELAYOUT,
                  "deal 1: S, the last player, plays AD: diamonds run from the 2 to the Jack: the "
                  "Ace of diamonds does not fit, only the Queen of diamonds");
    expect_domino("S: QD KD AD 3C\n", BARBU_EMISMATCH,
                  "deal 1: 3C is not one of the cards S has left to lay out");
    expect_domino("S: QD KD\n", BARBU_EMISMATCH,
                  "deal 1: the last player's cards are laid out only in part: S has 2H AD left");
    expect_domino("W: QD KD AD 2H\n", BARBU_EMISMATCH,
                  "deal 1: after the third player went out only S's cards are left to lay out, "
                  "not W's");
    expect_domino("S: QD - KD AD 2H\n", BARBU_EMISMATCH,
                  "deal 1: S, the last player, can always lay a card out: no pass after the third "
                  "player went out");
    expect_domino("S: QD KD AD 2H 3C\n", BARBU_EMISMATCH,
                  "deal 1: '3C' comes after the end of the deal: Domino ended when the third "
                  "player went out");
}

/* barbu writes format 2; it reads 1 and 2 and refuses 3. */
static void test_format_version(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    barbu_record *rec = barbu_record_new(&r, 1);
    assert_non_null(rec);
    barbu_rng rng;
    barbu_rng_seed(&rng, 2);
    while (s.t.deal == 0) {
        barbu_action acts[BARBU_MAX_ACTIONS];
        int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
        assert_true(n > 0 && n <= BARBU_MAX_ACTIONS);
        barbu_action a = acts[barbu_rng_below(&rng, (uint32_t)n)];
        barbu_state before = s;
        assert_int_equal(barbu_apply(&s, &a), 0);
        assert_int_equal(barbu_record_add(rec, &before, &a), 0);
    }
    char *text;
    size_t len;
    barbu_diag diag = {0};
    assert_int_equal(barbu_record_write(rec, &text, &len, &diag), 0);
    const char *head = "% barbu game record\n[Barbu \"2\"]\n";
    assert_memory_equal(text, head, strlen(head));
    barbu_record_free(rec);

    /* Formats 1 to 3 read alike; 4 is refused, saying what is read. */
    results r2, r1;
    replay_ok(text, &r2);
    char *one = replace(text, "[Barbu \"2\"]", "[Barbu \"1\"]");
    replay_ok(one, &r1);
    assert_same_results(&r1, &r2);
    char *three = replace(text, "[Barbu \"2\"]", "[Barbu \"3\"]");
    replay_ok(three, &r1);
    assert_same_results(&r1, &r2);
    free(three);
    three = replace(text, "[Barbu \"2\"]", "[Barbu \"4\"]");
    assert_int_equal(replay_results(three, &r1, &diag), BARBU_EPARSE);
    assert_string_equal(diag.msg, "this is format 4; this program reads formats 1 to 3");
    assert_int_equal(diag.line, 2);
    char *none = replace(text, "[Barbu \"2\"]\n", "");
    assert_int_equal(replay_results(none, &r1, &diag), BARBU_EPARSE);
    assert_string_equal(diag.msg, "not a barbu record (no [Barbu \"2\"] tag)");
    free(none);
    free(three);
    free(one);
    free(text);
}

#define BEFORE_2 "bad/fife-written-before-format-2.txt"

/* The refusal of a format 1 Fife record read differently today: the
 * message of bad/fife-written-before-format-2.err, after its
 * "file:line: " prefix. */
static void expect_earlier_reading(const char *text, int line)
{
    char *err = golden_text("bad/fife-written-before-format-2.err", NULL);
    const char *prefix = BEFORE_2 ":319: ";
    assert_memory_equal(err, prefix, strlen(prefix));
    char *msg = err + strlen(prefix);
    msg[strcspn(msg, "\n")] = '\0';
    results out;
    barbu_diag diag;
    assert_int_equal(replay_results(text, &out, &diag), BARBU_EMISMATCH);
    assert_string_equal(diag.msg, msg);
    assert_non_null(strstr(diag.msg, "later-call-joker = no"));
    assert_int_equal(diag.line, line);
    free(err);
}

static const barbu_result *deal_result(const results *out, int deal)
{
    for (int i = 0; i < out->n; i++)
        if (out->r[i].deal == deal - 1)
            return &out->r[i];
    fail_msg("no deal %d", deal);
    return NULL;
}

#define CALL(c) (1u << BARBU_CALL_##c)

/* Format 1 Fife records: refused where today's reading would re-score
 * them, replayed by the earlier reading with its rule line, and by the
 * booklet where that is how they were written. */
static void test_fife_format_1(void **state)
{
    (void)state;
    char *text = golden_text(BEFORE_2, NULL);
    expect_earlier_reading(text, 319);

    /* With the rule line: as it was played, deal 19 Aces alone. */
    char *ruled =
        replace(text, "[Rules \"fife\"]\n", "[Rules \"fife\"]\n[Rule \"later-call-joker = no\"]\n");
    results earlier, golden;
    replay_ok(ruled, &earlier);
    assert_int_equal(deal_result(&earlier, 19)->contracts, CALL(ACES));
    assert_int_equal(deal_result(&earlier, 21)->contracts, CALL(QUEENS));
    char *again = golden_text("fife-earlier-reading.txt", NULL);
    replay_ok(again, &golden);
    assert_same_results(&earlier, &golden);
    free(again);

    /* Without its "% the cuts call" comments: still refused, since it
     * replays only by the earlier reading. */
    char *bare = drop_lines(text, "% the cuts call");
    assert_null(strstr(bare, "% the cuts call"));
    expect_earlier_reading(bare, line_of(bare, "E: 2S\n"));
    assert_int_equal(line_of(bare, "E: 2S\n"), 316);

    /* A format 1 record that replays only by the booklet is read so. */
    char *booklet = golden_text("fife-joker-after-number.txt", NULL);
    char *v1 = replace(booklet, "[Barbu \"2\"]", "[Barbu \"1\"]");
    results r1, r2;
    replay_ok(v1, &r1);
    replay_ok(booklet, &r2);
    assert_same_results(&r1, &r2);
    assert_int_equal(deal_result(&r1, 19)->contracts, CALL(ACES) | CALL(QUEENS));
    assert_int_equal(deal_result(&r1, 20)->contracts, BARBU_CALLS_PATIENCE);
    char *v1_bare = drop_lines(v1, "% the cuts call");
    replay_ok(v1_bare, &r1);
    assert_same_results(&r1, &r2);

    /* Without its scores it replays both ways, and the writer's comment
     * on the deal where they part tells which: the booklet's Calls, or
     * none, read by the booklet; the earlier Calls refused. */
    char *s1 = drop_lines(v1, "[Score "), *s2 = drop_lines(s1, "[Final ");
    char *unscored = drop_lines(s2, "[Result ");
    replay_ok(unscored, &r1);
    assert_int_equal(deal_result(&r1, 19)->contracts, CALL(ACES) | CALL(QUEENS));
    char *unscored_bare = drop_lines(unscored, "% the cuts call");
    replay_ok(unscored_bare, &r1);
    assert_int_equal(deal_result(&r1, 19)->contracts, CALL(ACES) | CALL(QUEENS));
    char *unscored_aces =
        replace(unscored, "% the cuts call Double: Aces + Queens\n", "% the cuts call Aces\n");
    expect_earlier_reading(unscored_aces, line_of(unscored_aces, "E: 2S\n"));

    free(unscored_aces);
    free(unscored_bare);
    free(unscored);
    free(s2);
    free(s1);
    free(v1_bare);
    free(v1);
    free(booklet);
    free(bare);
    free(ruled);
    free(text);
}

/* A keyed game's record: format 3 with its Key and Commitment, read back
 * and verified; withheld, it keeps the commitment and names no key, and
 * cannot be verified; a Key tag in a format 2 record is refused. */
static void test_keyed_record(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    uint8_t key[BARBU_KEY_BYTES];
    for (int i = 0; i < BARBU_KEY_BYTES; i++)
        key[i] = (uint8_t)(0xa0 + i);
    char key_hex[BARBU_KEY_HEX], commit_hex[BARBU_KEY_HEX];
    uint8_t commitment[BARBU_KEY_BYTES];
    barbu_key_format(key, key_hex);
    barbu_key_commitment(key, commitment);
    barbu_key_format(commitment, commit_hex);
    barbu_state s;
    assert_int_equal(barbu_init_keyed(&s, &r, key), 0);
    barbu_record *rec = barbu_record_new_keyed(&r, key);
    assert_non_null(rec);
    assert_true(barbu_record_keyed(rec));
    barbu_rng rng;
    barbu_rng_seed(&rng, 3);
    /* Three deals and a part of the fourth. */
    while (s.t.deal < 3 || s.t.acted < 5) {
        barbu_action legal[512];
        int n = barbu_legal(&s, legal, 512);
        assert_true(n > 0);
        barbu_action a = legal[barbu_rng_below(&rng, (uint32_t)(n < 512 ? n : 512))];
        barbu_state before = s;
        assert_int_equal(barbu_apply(&s, &a), 0);
        assert_int_equal(barbu_record_add(rec, &before, &a), 0);
    }
    char *text;
    size_t len;
    barbu_diag diag = {0};
    assert_int_equal(barbu_record_write(rec, &text, &len, &diag), 0);
    char want[200];
    snprintf(want, sizeof want, "[Key \"%s\"]\n[Commitment \"%s\"]\n", key_hex, commit_hex);
    assert_non_null(strstr(text, "[Barbu \"3\"]\n"));
    assert_non_null(strstr(text, want));
    assert_null(strstr(text, "[Seed"));

    barbu_record *back;
    assert_int_equal(barbu_record_read(text, len, &back, &diag), 0);
    uint8_t got[BARBU_KEY_BYTES];
    assert_true(barbu_record_key(back, got));
    assert_memory_equal(got, key, sizeof key);
    assert_true(barbu_record_commitment(back, got));
    assert_memory_equal(got, commitment, sizeof got);
    barbu_state v;
    assert_int_equal(barbu_record_verify(back, &v, NULL, NULL, &diag), 0);
    assert_int_equal(v.t.deal, 3);
    assert_memory_equal(v.hand, s.hand, sizeof v.hand);
    barbu_record_free(back);

    /* Withheld until the game is over. */
    assert_int_equal(barbu_record_withhold(rec), 0);
    free(text);
    assert_int_equal(barbu_record_write(rec, &text, &len, &diag), 0);
    snprintf(want, sizeof want, "[Key \"withheld\"]\n[Commitment \"%s\"]\n", commit_hex);
    assert_non_null(strstr(text, want));
    assert_null(strstr(text, key_hex));
    assert_false(barbu_record_key(rec, got));
    assert_int_equal(barbu_record_read(text, len, &back, &diag), 0);
    assert_int_equal(barbu_record_replay(back, &v, NULL, NULL, &diag), 0);
    assert_int_equal(v.t.deal, 3);
    assert_int_equal(barbu_record_verify(back, &v, NULL, NULL, &diag), BARBU_EINVAL);
    assert_string_equal(diag.msg, "the key is withheld: the game is not over");
    barbu_record_free(back);

    char *two = replace(text, "[Barbu \"3\"]", "[Barbu \"2\"]");
    assert_int_equal(barbu_record_read(two, strlen(two), &back, &diag), BARBU_EPARSE);
    assert_string_equal(diag.msg, "a Key tag comes only in format 3 records");
    free(two);
    free(text);
    barbu_record_free(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_round_trip),  cmocka_unit_test(test_fife_random_games),
        cmocka_unit_test(test_fife_syntax_errors), cmocka_unit_test(test_fife_replay_errors),
        cmocka_unit_test(test_fife_composed_cuts), cmocka_unit_test(test_withheld_running_games),
        cmocka_unit_test(test_bid_words),          cmocka_unit_test(test_bid_word_errors),
        cmocka_unit_test(test_domino_played_out),  cmocka_unit_test(test_format_version),
        cmocka_unit_test(test_fife_format_1),      cmocka_unit_test(test_bid_words_written),
        cmocka_unit_test(test_keyed_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
