/*
 * abuse.c - runs the abuse scenarios (abuse.h) by name:
 * abuse BARBU SCENARIO...
 */
#include <stdio.h>
#include <string.h>

#include "abuse.h"

static const struct {
    const char *name;
    void (*run)(void);
} SCENARIOS[] = {
    {"kibitz_seats", abuse_kibitz_seats},
    {"kibitz_address", abuse_kibitz_address},
    {"seed", abuse_seed},
    {"kibitz_chat", abuse_kibitz_chat},
    {"bot_timing", abuse_bot_timing},
    {"bot_sink", abuse_bot_sink},
    {"disk_full", abuse_disk_full},
    {"idle", abuse_idle},
    {"lobby_chat", abuse_lobby_chat},
    {"slow_readers", abuse_slow_readers},
    {"table_fill", abuse_table_fill},
    {"db_lock", abuse_db_lock},
    {"broken_row", abuse_broken_row},
    {"db_mode", abuse_db_mode},
    {"db_checkpoint", abuse_db_checkpoint},
    {"bidi", abuse_bidi},
    {"web", abuse_web},
};
#define N_SCENARIOS (sizeof SCENARIOS / sizeof SCENARIOS[0])

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: abuse BARBU SCENARIO...\nscenarios:");
        for (size_t i = 0; i < N_SCENARIOS; i++)
            fprintf(stderr, " %s", SCENARIOS[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    e2e_init(argv[1]);
    for (int i = 2; i < argc; i++) {
        size_t k = 0;
        while (k < N_SCENARIOS && strcmp(SCENARIOS[k].name, argv[i]) != 0)
            k++;
        if (k == N_SCENARIOS) {
            fprintf(stderr, "abuse: no scenario %s\n", argv[i]);
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
