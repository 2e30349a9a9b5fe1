/*
 * bot.c - the table of bot kinds and the random player.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const struct {
    const char *kind;
    bb_choose_fn choose;
} KINDS[] = {
    {"random", bb_random_choose},
    {"heuristic", bb_heuristic_choose},
};

#define N_KINDS (sizeof KINDS / sizeof KINDS[0])

struct barbu_bot {
    size_t kind;
    barbu_rng rng;
};

barbu_bot *barbu_bot_new(const char *kind, uint64_t seed)
{
    for (size_t i = 0; i < N_KINDS; i++) {
        if (strcmp(kind, KINDS[i].kind) == 0) {
            barbu_bot *bot = malloc(sizeof *bot);
            if (bot == NULL)
                return NULL;
            bot->kind = i;
            barbu_rng_seed(&bot->rng, seed);
            return bot;
        }
    }
    return NULL;
}

void barbu_bot_free(barbu_bot *bot)
{
    free(bot);
}

const char *barbu_bot_kind(const barbu_bot *bot)
{
    return KINDS[bot->kind].kind;
}

const char *barbu_bot_kind_name(int index)
{
    return index >= 0 && (size_t)index < N_KINDS ? KINDS[index].kind : NULL;
}

int barbu_bot_choose(barbu_bot *bot, const barbu_view *view, barbu_action *out)
{
    if (view->t.to_move < 0 || view->t.to_move != view->seat)
        return BARBU_ETURN;
    return KINDS[bot->kind].choose(&bot->rng, view, out);
}

/* Uniformly among the legal actions. */
int bb_random_choose(barbu_rng *rng, const barbu_view *view, barbu_action *out)
{
    barbu_action legal[BARBU_MAX_ACTIONS];
    int n = barbu_view_legal(view, legal, BARBU_MAX_ACTIONS);
    if (n <= 0)
        return BARBU_EPHASE;
    if (n > BARBU_MAX_ACTIONS)
        n = BARBU_MAX_ACTIONS;
    *out = legal[barbu_rng_below(rng, (uint32_t)n)];
    return 0;
}
