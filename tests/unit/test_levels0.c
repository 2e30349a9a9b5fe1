/*
 * test_levels0.c - the tuned-only kinds medium0 and hard0 are the medium and
 * hard players as they were before issue 26 made new ones, choice for
 * choice: seeded deals are played with them and every action taken is
 * hashed, and the hashes are the ones the earlier medium and hard gave
 * (computed with the build of commit 1210872, where these kinds were named
 * medium and hard, by compiling this file with -DKIND_MEDIUM='"medium"'
 * -DKIND_HARD='"hard"' -DPRINT_HASHES).  barbu_bot_new must not make them,
 * so that no server table or `barbu play` seats them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "barbu/ai.h"

#ifndef KIND_MEDIUM
#define KIND_MEDIUM "medium0"
#endif
#ifndef KIND_HARD
#define KIND_HARD "hard0"
#endif

static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

static uint64_t hash_action(uint64_t h, const barbu_action *a)
{
    h = fnv(h, a->type);
    h = fnv(h, (uint64_t)(a->seat + 1));
    h = fnv(h, a->contracts);
    h = fnv(h, (uint64_t)(a->trump + 1));
    h = fnv(h, (uint64_t)a->rank);
    h = fnv(h, a->doubles);
    h = fnv(h, a->redoubles);
    h = fnv(h, a->cards);
    return fnv(h, a->middle);
}

/*
 * Plays the first deal of a preset from `seed`: `kind` decides for every
 * seat from trick `from` on (and for the auction when from is 0), the easy
 * player otherwise; returns the hash of every action taken.
 */
static uint64_t play(const char *preset, const char *kind, int from, uint64_t seed)
{
    barbu_rules rules;
    assert_int_equal(barbu_rules_preset(&rules, preset), 0);
    barbu_state s;
    assert_int_equal(barbu_init(&s, &rules, seed), 0);
    barbu_bot *expert = barbu_bot_new_tuned(kind, seed);
    barbu_bot *easy = barbu_bot_new("easy", seed);
    assert_non_null(expert);
    assert_non_null(easy);
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    while (s.t.deal == 0 && !barbu_over(&s)) {
        barbu_view v;
        barbu_action a;
        barbu_view_of(&s, s.t.to_move, &v);
        barbu_bot *bot = s.t.ntricks >= from ? expert : easy;
        assert_int_equal(barbu_bot_choose(bot, &v, &a), 0);
        assert_int_equal(barbu_apply(&s, &a), 0);
        h = hash_action(h, &a);
    }
    barbu_bot_free(expert);
    barbu_bot_free(easy);
    return h;
}

static const struct {
    const char *preset;
    int hard; /* 0: medium decides, 1: hard */
    int from;
    uint64_t seed;
    uint64_t hash;
} CASES[] = {
    {"uk", 0, 0, 3, UINT64_C(0x7525a42ed8a405fd)},
    {"fife", 0, 0, 5, UINT64_C(0xd528d1a079e6b077)},
    {"chinese", 0, 0, 6, UINT64_C(0xd735d9b9afd8bf3f)},
    {"uk", 1, 8, 7, UINT64_C(0x517b21a1c8dec583)},
};

#define N_CASES (sizeof CASES / sizeof CASES[0])

static void test_levels_as_before(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_CASES; i++) {
        uint64_t h = play(CASES[i].preset, CASES[i].hard ? KIND_HARD : KIND_MEDIUM, CASES[i].from,
                          CASES[i].seed);
#ifdef PRINT_HASHES
        printf("%s %d %d %llu: 0x%016llx\n", CASES[i].preset, CASES[i].hard, CASES[i].from,
               (unsigned long long)CASES[i].seed, (unsigned long long)h);
#else
        if (h != CASES[i].hash)
            fail_msg("case %zu (%s, %s from trick %d, seed %llu): hash 0x%016llx, was 0x%016llx", i,
                     CASES[i].preset, CASES[i].hard ? KIND_HARD : KIND_MEDIUM, CASES[i].from,
                     (unsigned long long)CASES[i].seed, (unsigned long long)h,
                     (unsigned long long)CASES[i].hash);
#endif
    }
}

static void test_tuned_only(void **state)
{
    (void)state;
    const char *kinds[] = {"medium0", "hard0"};
    for (int k = 0; k < 2; k++) {
        assert_null(barbu_bot_new(kinds[k], 1));
        for (int i = 0; barbu_bot_kind_name(i) != NULL; i++)
            assert_string_not_equal(barbu_bot_kind_name(i), kinds[k]);
        barbu_bot *bot = barbu_bot_new_tuned(kinds[k], 1);
        assert_non_null(bot);
        assert_string_equal(barbu_bot_kind(bot), kinds[k]);
        barbu_bot_free(bot);
    }
    /* Tuned as the others are. */
    barbu_bot *bot = barbu_bot_new_tuned("medium0:budget=1000", 1);
    assert_non_null(bot);
    barbu_bot_free(bot);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_as_before),
        cmocka_unit_test(test_tuned_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
