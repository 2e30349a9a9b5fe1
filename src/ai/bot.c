/*
 * bot.c - the table of bot kinds and the random player.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The kinds barbu_bot_new makes: a choose function, or an expert level. */
static const struct {
    const char *kind;
    bb_choose_fn choose;
    const bb_level *level;
} KINDS[] = {
    {"random", bb_random_choose, NULL},
    {"heuristic", bb_heuristic_choose, NULL},
    {"easy", bb_heuristic_choose, NULL},
    {"medium", NULL, &BB_MEDIUM},
    {"hard", NULL, &BB_HARD},
    /* Tuned-only kinds (barbu_bot_new_tuned, so barbu arena and barbu
     * bench): today's levels as they were before issue 26, to measure the
     * new ones against.  barbu_bot_new, and so the server and barbu play,
     * never makes them, and barbu_bot_kind_name does not list them. */
    {"medium0", NULL, &BB_MEDIUM0},
    {"hard0", NULL, &BB_HARD0},
};

#define N_ALL_KINDS (sizeof KINDS / sizeof KINDS[0])
/* The kinds barbu_bot_new makes: the first N_KINDS of KINDS. */
#define N_KINDS     (N_ALL_KINDS - 2)

/* The omniscient player is not in KINDS, so barbu_bot_new never makes it. */
#define OMNISCIENT N_ALL_KINDS

struct barbu_bot {
    size_t kind;
    int threads;
    bool expert;    /* searches at `level` */
    bb_level level; /* the kind's, or a tuned copy (barbu_bot_new_tuned) */
    char name[256]; /* the kind, or the tuned spec */
    barbu_rng rng;
    bb_record rec[4]; /* the tricks each seat it played has seen this deal */
};

static barbu_bot *bot_new(size_t kind, uint64_t seed)
{
    barbu_bot *bot = calloc(1, sizeof *bot);
    if (bot == NULL)
        return NULL;
    bot->kind = kind;
    bot->threads = 1;
    if (kind == OMNISCIENT) {
        bot->expert = true;
        /* Hard's search on the true deal.  Its play-outs' noise matters
         * most here: with none, each candidate had one deterministic
         * play-out and the player lost to easy at No Last Two; it was
         * measured with one card in ten at random (docs/internals.md). */
        bot->level = BB_HARD0;
        bot->level.noise = bot->level.self_noise = 100;
        /* And as measured: the paranoid search for the last two tricks,
         * the play-outs by the rules of thumb to the end. */
        bot->level.solve_from = 2;
        bot->level.maxn = 0;
        bot->level.maxn_from = 0;
        snprintf(bot->name, sizeof bot->name, "omniscient");
    } else {
        bot->expert = KINDS[kind].level != NULL;
        if (bot->expert)
            bot->level = *KINDS[kind].level;
        snprintf(bot->name, sizeof bot->name, "%s", KINDS[kind].kind);
    }
    barbu_rng_seed(&bot->rng, seed);
    return bot;
}

/* The settings of a level that a tuned spec may change. */
static const struct {
    const char *key;
    size_t offset;
    int min, max;
} TUNABLE[] = {
/* clang-format off */
#define T(field, lo, hi) {#field, offsetof(bb_level, field), lo, hi}
    T(budget, 1, 1000000000), T(min_deals, 1, 100000), T(max_deals, 1, 100000),
    T(solve_from, 0, 13),     T(rules_until, 0, 52),   T(noise, 0, 1000),
    T(bid_margin, -100, 1000), T(declare_margin, -100, 1000),
    T(model, 0, 2),           T(model_noise, 0, 1000), T(ismcts, 0, 1),
    T(owed_push, 0, 1000),    T(decl_temp, 0, 10000),  T(layout_noise, 0, 1000),
    T(bid_noise, 0, 999),     T(resample, 1, 64),      T(layouts, 0, 1),
    T(fife_calls, 0, 1),      T(layout_deals, 1, 100000),
    T(history, 0, 1000),      T(self_noise, 0, 1000),  T(maxn, 0, 1),
    T(maxn_from, 0, 13),      T(bid_temp, 0, 10000),
#undef T
    /* clang-format on */
};

#define N_TUNABLE (sizeof TUNABLE / sizeof TUNABLE[0])

barbu_bot *barbu_bot_new_tuned(const char *spec, uint64_t seed)
{
    const char *colon = strchr(spec, ':');
    size_t base_len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (strlen(spec) >= sizeof((barbu_bot *)0)->name)
        return NULL;
    size_t kind = 0;
    while (kind < N_ALL_KINDS && !(strlen(KINDS[kind].kind) == base_len &&
                                   strncmp(KINDS[kind].kind, spec, base_len) == 0))
        kind++;
    if (kind == N_ALL_KINDS && !(base_len == 10 && strncmp(spec, "omniscient", 10) == 0))
        return NULL;
    barbu_bot *bot = bot_new(kind, seed);
    if (bot == NULL)
        return NULL;
    snprintf(bot->name, sizeof bot->name, "%s", spec);
    for (const char *at = colon; at != NULL && bot != NULL; at = strchr(at + 1, ',')) {
        const char *key = at + 1, *eq = strchr(key, '=');
        const char *end = strchr(key, ',');
        if (end == NULL)
            end = key + strlen(key);
        if (!bot->expert || eq == NULL || eq > end)
            goto bad;
        size_t i = 0;
        while (i < N_TUNABLE && !(strlen(TUNABLE[i].key) == (size_t)(eq - key) &&
                                  strncmp(TUNABLE[i].key, key, (size_t)(eq - key)) == 0))
            i++;
        if (i < N_TUNABLE) {
            char *stop;
            long v = strtol(eq + 1, &stop, 10);
            if (stop != end || eq + 1 == end || v < TUNABLE[i].min || v > TUNABLE[i].max)
                goto bad;
            *(int *)((char *)&bot->level + TUNABLE[i].offset) = (int)v;
        } else {
            goto bad;
        }
    }
    return bot;
bad:
    free(bot);
    return NULL;
}

barbu_bot *barbu_bot_new(const char *kind, uint64_t seed)
{
    for (size_t i = 0; i < N_KINDS; i++)
        if (strcmp(kind, KINDS[i].kind) == 0)
            return bot_new(i, seed);
    return NULL;
}

barbu_bot *barbu_omniscient_new(uint64_t seed)
{
    return bot_new(OMNISCIENT, seed);
}

void barbu_bot_set_threads(barbu_bot *bot, int threads)
{
    bot->threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
}

void barbu_bot_free(barbu_bot *bot)
{
    free(bot);
}

const char *barbu_bot_kind(const barbu_bot *bot)
{
    return bot->name;
}

const char *barbu_bot_kind_name(int index)
{
    return index >= 0 && (size_t)index < N_KINDS ? KINDS[index].kind : NULL;
}

void bb_record_see(bb_record *rec, const barbu_view *view)
{
    const barbu_table *t = &view->t;
    if (t->phase != BARBU_PHASE_PLAY ||
        (t->kind != BARBU_KIND_TRICKS && t->kind != BARBU_KIND_TRUMPS))
        return;
    /* Another deal, or this one begun again (barbu arena replays a deal). */
    if (rec->deal != t->deal || t->ntricks < rec->n || t->ntricks == 0) {
        memset(rec, 0, sizeof *rec);
        rec->deal = t->deal;
    }
    if (t->ntricks == rec->n)
        return;
    if (t->ntricks == rec->n + 1 && !rec->broken)
        rec->trick[rec->n++] = t->last_trick;
    else
        rec->broken = true;
}

/* What the bot keeps of its seat's view: the tricks, for the expert. */
static const bb_record *see(barbu_bot *bot, const barbu_view *view)
{
    if (view->seat < 0 || view->seat > 3)
        return NULL;
    bb_record_see(&bot->rec[view->seat], view);
    return &bot->rec[view->seat];
}

void barbu_bot_observe(barbu_bot *bot, const barbu_view *view)
{
    /* The omniscient player reads states, never its record. */
    if (bot->kind != OMNISCIENT)
        see(bot, view);
}

void barbu_bot_reseed(barbu_bot *bot, uint64_t seed)
{
    barbu_rng_seed(&bot->rng, seed);
}

int barbu_bot_choose(barbu_bot *bot, const barbu_view *view, barbu_action *out)
{
    if (bot->kind == OMNISCIENT)
        return BARBU_EINVAL;
    if (view->t.to_move < 0 || view->t.to_move != view->seat)
        return BARBU_ETURN;
    if (bot->expert)
        return bb_expert_choose(&bot->level, bot->threads, &bot->rng, view, see(bot, view), NULL,
                                out);
    return KINDS[bot->kind].choose(&bot->rng, view, out);
}

int barbu_bot_choose_from(barbu_bot *bot, const barbu_view *view, const barbu_action *allowed,
                          int n, barbu_action *out)
{
    if (bot->kind == OMNISCIENT)
        return BARBU_EINVAL;
    if (view->t.to_move < 0 || view->t.to_move != view->seat)
        return BARBU_ETURN;
    if (n < 1 || n > BARBU_MAX_ACTIONS || view->t.phase == BARBU_PHASE_ARRANGE)
        return BARBU_EINVAL;
    for (int i = 0; i < n; i++) {
        int err = barbu_view_check(view, &allowed[i]);
        if (err != 0)
            return err;
    }
    if (bot->expert)
        return bb_expert_choose_from(&bot->level, bot->threads, &bot->rng, view, see(bot, view),
                                     NULL, allowed, n, out);
    if (KINDS[bot->kind].choose == bb_heuristic_choose)
        return bb_heuristic_choose_from(&bot->rng, view, allowed, n, out);
    *out = allowed[barbu_rng_below(&bot->rng, (uint32_t)n)];
    return 0;
}

int barbu_omniscient_choose(barbu_bot *bot, const barbu_state *state, barbu_action *out)
{
    if (bot->kind != OMNISCIENT)
        return BARBU_EINVAL;
    int seat = state->t.to_move;
    if (seat < 0)
        return BARBU_EOVER;
    barbu_view view;
    barbu_view_of(state, seat, &view);
    return bb_expert_choose(&bot->level, bot->threads, &bot->rng, &view, NULL, state, out);
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

int bb_legal_actions(const barbu_view *view, barbu_action legal[BARBU_MAX_ACTIONS])
{
    int n = barbu_view_legal(view, legal, BARBU_MAX_ACTIONS);
    if (n <= 0)
        return BARBU_EPHASE;
    return n > BARBU_MAX_ACTIONS ? BARBU_MAX_ACTIONS : n;
}

/* Uniformly among the legal actions. */
int bb_random_choose(barbu_rng *rng, const barbu_view *view, barbu_action *out)
{
    if (view->t.phase == BARBU_PHASE_ARRANGE)
        return random_arrange(rng, view, out);
    barbu_action legal[BARBU_MAX_ACTIONS];
    int n = bb_legal_actions(view, legal);
    if (n < 0)
        return n;
    *out = legal[barbu_rng_below(rng, (uint32_t)n)];
    return 0;
}
