/*
 * property_games.c - many seeded random games, checking what must hold of
 * every one: each card played once per deal, each deal summing to its
 * contract's total before the settlement, every game summing to zero, and
 * the record replaying to the same game and writing back the same text.
 *
 * usage: property_games [--games N] [--seed S]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barbu/barbu.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            failures++;                                                                            \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

/* The rule sets the games cycle through: both presets and the options that
 * change play. */
static const char *const VARIANTS[] = {
    "preset = uk\n",
    "preset = classic\n",
    "preset = uk\nisraeli = enforce\n",
    "preset = uk\ndoubling = no\n",
    "preset = uk\nmust-trump = no\ndomino-ace = low\ndomino-first = left\n",
    "preset = uk\nundoubled-not-played = no\nmandatory-doubles = 0\nearly-end = no\n",
    "preset = uk\nhearts-lead = no\ndomino-scores = 40 20 5 0\nfirst-lead = left\n",
    /* A 32-card house table: -24 -20 -20 -20 -30 +48 +66 sums to zero. */
    "preset = classic\ndeck = 32\nno-tricks.per-trick = -3\ntrumps.per-trick = 6\n"
    "no-queens.card.Q = -5\ndomino-scores = 40 20 6 0\n",
};
#define N_VARIANTS (int)(sizeof VARIANTS / sizeof VARIANTS[0])

typedef struct results {
    barbu_result v[64];
    int n;
} results;

static void collect(const barbu_result *r, void *ctx)
{
    results *rs = ctx;
    if (rs->n < 64)
        rs->v[rs->n++] = *r;
}

static int check_result(const barbu_rules *rules, const barbu_result *r, int game)
{
    int raw = 0, final = 0, total = 0;
    for (unsigned m = r->contracts; m; m &= m - 1)
        total += barbu_contract_total(rules, __builtin_ctz(m));
    for (int s = 0; s < 4; s++) {
        raw += r->raw[s];
        final += r->score[s];
    }
    CHECK(raw == total, "game %d deal %d: raw scores sum to %d, the contract's total is %d", game,
          r->deal + 1, raw, total);
    CHECK(final == total, "game %d deal %d: settled scores sum to %d, not %d", game, r->deal + 1,
          final, total);
    return 0;
}

static int play_game(const barbu_rules *rules, uint64_t seed, int game)
{
    barbu_state s;
    CHECK(barbu_init(&s, rules, seed) == 0, "init");
    barbu_record *rec = barbu_record_new(rules, seed);
    CHECK(rec != NULL, "record");
    barbu_rng rng;
    barbu_rng_seed(&rng, seed ^ UINT64_C(0x5eed));
    barbu_cards played = 0;
    int deal = 0;
    results live = {.n = 0};
    while (!barbu_over(&s)) {
        if (s.t.deal != deal) {
            deal = s.t.deal;
            played = 0;
        }
        barbu_action legal[BARBU_MAX_ACTIONS];
        int n = barbu_legal(&s, legal, BARBU_MAX_ACTIONS);
        CHECK(n > 0 && n <= BARBU_MAX_ACTIONS, "game %d: %d legal actions", game, n);
        barbu_action a = legal[barbu_rng_below(&rng, (uint32_t)n)];
        if (a.type == BARBU_ACT_PLAY) {
            CHECK(!(played & a.cards), "game %d deal %d: a card played twice", game, deal + 1);
            played |= a.cards;
        }
        barbu_state before = s;
        CHECK(barbu_apply(&s, &a) == 0, "game %d: a legal action was refused", game);
        CHECK(barbu_state_ok(&s, NULL) == 0, "game %d: an invariant broke", game);
        CHECK(barbu_record_add(rec, &before, &a) == 0, "game %d: record_add", game);
        if (s.t.deal != before.t.deal) {
            const barbu_result *r = &s.t.last;
            if (check_result(rules, r, game))
                return 1;
            /* A played deal used each card once; all of them unless it ended early. */
            if (r->played &&
                (before.t.kind == BARBU_KIND_TRICKS || before.t.kind == BARBU_KIND_TRUMPS)) {
                int expect = 4 * (barbu_rules_hand_size(rules) - r->tricks_left);
                CHECK(barbu_count(played) == expect, "game %d deal %d: %d cards played, not %d",
                      game, r->deal + 1, barbu_count(played), expect);
            }
            if (live.n < 64)
                live.v[live.n++] = *r;
        }
    }
    CHECK(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3] == 0,
          "game %d: the game sums to %d", game,
          (int)(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3]));

    /* The record: written, read back, replayed to the same results and
     * written again to the same text. */
    char *text, *again;
    size_t len, len2;
    barbu_diag diag = {0};
    CHECK(barbu_record_write(rec, &text, &len, &diag) == 0, "game %d: write: %s", game, diag.msg);
    barbu_record *back;
    CHECK(barbu_record_read(text, len, &back, &diag) == 0, "game %d: read line %d: %s", game,
          diag.line, diag.msg);
    results replayed = {.n = 0};
    barbu_state end;
    CHECK(barbu_record_replay(back, &end, collect, &replayed, &diag) == 0, "game %d: replay: %s",
          game, diag.msg);
    CHECK(replayed.n == live.n, "game %d: %d deals replayed, %d played", game, replayed.n, live.n);
    for (int i = 0; i < live.n; i++)
        CHECK(memcmp(&replayed.v[i], &live.v[i], sizeof live.v[i]) == 0,
              "game %d deal %d: the replay differs", game, i + 1);
    CHECK(memcmp(end.t.total, s.t.total, sizeof s.t.total) == 0, "game %d: totals differ", game);
    CHECK(barbu_record_write(back, &again, &len2, &diag) == 0, "game %d: rewrite", game);
    CHECK(len == len2 && memcmp(text, again, len) == 0, "game %d: the record does not round-trip",
          game);
    free(text);
    free(again);
    barbu_record_free(back);
    barbu_record_free(rec);
    return 0;
}

int main(int argc, char **argv)
{
    int games = 10000;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--games") == 0 && i + 1 < argc)
            games = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: property_games [--games N] [--seed S]\n");
            return 2;
        }
    }
    barbu_rules rules[N_VARIANTS];
    for (int v = 0; v < N_VARIANTS; v++) {
        barbu_diag diag;
        if (barbu_rules_parse(&rules[v], VARIANTS[v], strlen(VARIANTS[v]), &diag) != 0) {
            fprintf(stderr, "variant %d, line %d: %s\n", v, diag.line, diag.msg);
            return 1;
        }
    }
    for (int g = 0; g < games && failures < 10; g++)
        play_game(&rules[g % N_VARIANTS], seed + (uint64_t)g, g);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("%d random games: every card once a deal, every deal its contract's total, every game "
           "zero, every record replayed and round-tripped\n",
           games);
    return 0;
}
