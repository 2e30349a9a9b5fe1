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

/* Tries at a random split of the rows before settling for the first valid
 * one: a random split is valid about one time in three (in 20,000 hands
 * none needed more than 35 tries), so the fallback is almost never reached. */
#define ARRANGE_TRIES 200

/*
 * Chinese Poker: a setting of the rows uniformly among the valid ones, by
 * drawing uniform 5/5/3 splits until one is valid.  The phase has tens of
 * thousands of legal settings, too many to list for every move.
 */
static int random_arrange(barbu_rng *rng, const barbu_view *view, barbu_action *out)
{
    barbu_cards hand = view->hand[view->seat];
    barbu_card cards[13];
    int n = 0;
    for (barbu_cards h = hand; h && n < 13; h &= h - 1)
        cards[n++] = (barbu_card)__builtin_ctzll(h);
    if (n != 13 || barbu_count(hand) != 13)
        return BARBU_EPHASE;
    *out = barbu_act(BARBU_ACT_ARRANGE, view->seat);
    for (int tries = 0; tries < ARRANGE_TRIES; tries++) {
        /* The first ten cards of a shuffle: five to the back, five to the
         * middle. */
        barbu_cards back = 0, middle = 0;
        for (int i = 0; i < 10; i++) {
            int j = i + (int)barbu_rng_below(rng, (uint32_t)(13 - i));
            barbu_card c = cards[j];
            cards[j] = cards[i];
            cards[i] = c;
            if (i < 5)
                back |= BARBU_BIT(c);
            else
                middle |= BARBU_BIT(c);
        }
        out->cards = back;
        out->middle = middle;
        if (barbu_arrange_check(hand, back, middle, view->rules->fouls_lose, NULL, 0) == 0)
            return 0;
    }
    return barbu_view_legal(view, out, 1) > 0 ? 0 : BARBU_EPHASE;
}

/* Uniformly among the legal actions. */
int bb_random_choose(barbu_rng *rng, const barbu_view *view, barbu_action *out)
{
    if (view->t.phase == BARBU_PHASE_ARRANGE)
        return random_arrange(rng, view, out);
    barbu_action legal[BARBU_MAX_ACTIONS];
    int n = barbu_view_legal(view, legal, BARBU_MAX_ACTIONS);
    if (n <= 0)
        return BARBU_EPHASE;
    if (n > BARBU_MAX_ACTIONS)
        n = BARBU_MAX_ACTIONS;
    *out = legal[barbu_rng_below(rng, (uint32_t)n)];
    return 0;
}
