/*
 * evening.c - runs the evening scenarios (evening.h) by name:
 * evening BARBU SCENARIO...
 */
#include <stdio.h>
#include <string.h>

#include "evening.h"

static const struct {
    const char *name;
    void (*run)(void);
} SCENARIOS[] = {
    {"compressed", evening_compressed},
    {"suggest", evening_suggest},
    {"rules_pages", evening_rules_pages},
    /* One a line, each part's together (clang-format would pack them). */
    /* clang-format off */
    {"logout", evening_life_logout},
    {"sit_back", evening_life_sit_back},
    {"close", evening_life_close},
    {"hand_over", evening_life_hand_over},
    {"again", evening_life_again},
    {"again_keep", evening_life_again_keep},
    /* clang-format on */
    {"clock", evening_clock},
    {"clock_rows", evening_clock_rows},
    {"clock_pass_on", evening_clock_pass_on},
    {"clock_paused", evening_clock_paused},
    {"clock_late", evening_clock_late},
    {"refusals", evening_refusals},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: evening BARBU SCENARIO...\nscenarios:");
        for (size_t i = 0; SCENARIOS[i].name != NULL; i++)
            fprintf(stderr, " %s", SCENARIOS[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    e2e_init(argv[1]);
    for (int i = 2; i < argc; i++) {
        size_t k = 0;
        while (SCENARIOS[k].name != NULL && strcmp(SCENARIOS[k].name, argv[i]) != 0)
            k++;
        if (SCENARIOS[k].name == NULL) {
            fprintf(stderr, "evening: no scenario %s\n", argv[i]);
            return 2;
        }
        long t0 = e2e_now_ms();
        printf("== %s\n", argv[i]);
        SCENARIOS[k].run();
        printf("== %s: %ld ms\n", argv[i], e2e_now_ms() - t0);
    }
    printf("%d failure%s\n", e2e_failures, e2e_failures == 1 ? "" : "s");
    return e2e_failures ? 1 : 0;
}
