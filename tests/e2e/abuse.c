/*
 * abuse.c - runs the abuse scenarios (abuse.h) by name:
 * abuse BARBU SCENARIO...
 */
#include <stdio.h>
#include <string.h>

#include "abuse.h"

static const e2e_scenario SCENARIOS[] = {
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
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    return e2e_main("abuse", argc, argv, SCENARIOS);
}
