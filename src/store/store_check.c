/*
 * store_check.c - the checks both stores share (store_check.h).
 */
#include "store_check.h"

#include <inttypes.h>
#include <stdio.h>

int store_game_check(const store_game *g, bool ending, char *why, size_t cap)
{
    if (!g || !g->preset || g->n_players < 0 || (g->n_players > 0 && !g->players)) {
        snprintf(why, cap, "a game needs a rule set and its players");
        return -1;
    }
    if (ending ? g->status != STORE_GAME_OVER && g->status != STORE_GAME_ABANDONED
               : g->status != STORE_GAME_RUNNING) {
        snprintf(why, cap, "game %" PRId64 " was given the status %d, which is not %s", g->id,
                 g->status, ending ? "over or abandoned" : "running");
        return -1;
    }
    if (g->credit != STORE_CREDIT_RECORD && g->credit != STORE_CREDIT_DEALS) {
        snprintf(why, cap, "game %" PRId64 " has an unknown credit %d", g->id, g->credit);
        return -1;
    }
    for (int k = 0; k < g->n_players; k++) {
        const store_game_player *p = &g->players[k];
        if (p->seat < 0 || p->seat > 3 || !p->name || p->kind < STORE_PERSON_GUEST ||
            p->kind > STORE_PERSON_COMPUTER || p->place < 0 || p->place > 4) {
            snprintf(why, cap,
                     "game %" PRId64 "'s player %d needs a seat from 0 to 3, a name, a kind and "
                     "a place from 0 to 4",
                     g->id, k);
            return -1;
        }
    }
    return 0;
}

bool store_parse_u64(const char *text, uint64_t *value)
{
    if (!text || *text < '0' || *text > '9')
        return false;
    uint64_t v = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        unsigned digit = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    *value = v;
    return true;
}
