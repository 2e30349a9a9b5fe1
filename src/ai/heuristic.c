/*
 * heuristic.c - rules of thumb for every contract (placeholder until written:
 * plays as the random bot).
 */
#include "internal.h"

int bb_heuristic_choose(barbu_rng *rng, const barbu_view *view, barbu_action *out)
{
    return bb_random_choose(rng, view, out);
}
