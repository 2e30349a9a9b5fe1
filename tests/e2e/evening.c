/*
 * evening.c - runs the evening scenarios (evening.h) by name:
 * evening BARBU SCENARIO...
 */
#include <stdio.h>
#include <string.h>

#include "evening.h"

static const e2e_scenario SCENARIOS[] = {
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
    return e2e_main("evening", argc, argv, SCENARIOS);
}
