/*
 * internal.h - what the bots share.
 */
#ifndef BARBU_AI_INTERNAL_H
#define BARBU_AI_INTERNAL_H

#include "barbu/ai.h"

/* Each kind of bot is one choose function over a view. */
typedef int (*bb_choose_fn)(barbu_rng *rng, const barbu_view *view, barbu_action *out);

int bb_random_choose(barbu_rng *rng, const barbu_view *view, barbu_action *out);
int bb_heuristic_choose(barbu_rng *rng, const barbu_view *view, barbu_action *out);

#endif
