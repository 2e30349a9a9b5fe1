/*
 * ai.h - computer players.  A bot sees only views: it chooses one of the
 * legal actions of the view's seat and never reads a state.
 */
#ifndef BARBU_AI_H
#define BARBU_AI_H

#include "barbu/barbu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct barbu_bot barbu_bot;

/* A new bot of a kind ("random", "heuristic"), seeded for reproducible
 * choices; NULL for an unknown kind or no memory.  Free with barbu_bot_free. */
barbu_bot *barbu_bot_new(const char *kind, uint64_t seed);
void barbu_bot_free(barbu_bot *bot);

/* The bot's kind, as given to barbu_bot_new. */
const char *barbu_bot_kind(const barbu_bot *bot);

/* The kinds of bot, NULL after the last. */
const char *barbu_bot_kind_name(int index);

/* Chooses a legal action for the view's seat, which must be to move.
 * Returns 0, or BARBU_ETURN when the seat is not to move. */
int barbu_bot_choose(barbu_bot *bot, const barbu_view *view, barbu_action *out);

#ifdef __cplusplus
}
#endif
#endif
