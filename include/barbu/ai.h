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

/*
 * A new bot of a kind, seeded for reproducible choices; NULL for an unknown
 * kind or no memory.  Free with barbu_bot_free.  The kinds (the levels
 * offered to people are easy, medium and hard):
 *   "random"     uniformly among the legal actions;
 *   "heuristic"  rules of thumb ("easy" is the same player);
 *   "medium"     the expert: search over sampled deals, under 100 ms a move
 *                on one core;
 *   "hard"       the expert with about ten times the search, under 1 s.
 * The same seed and view give the same choice: at medium whatever the
 * threads, at hard on one thread (barbu_bot_set_threads).  (A
 * bot also keeps the tricks its views show during a deal; only a tuned
 * player that weighs its deals by them, `history`, reads them.)
 */
barbu_bot *barbu_bot_new(const char *kind, uint64_t seed);
void barbu_bot_free(barbu_bot *bot);

/* Lets the bot spread one decision over up to `threads` threads (default
 * 1); only the expert uses more than one. */
void barbu_bot_set_threads(barbu_bot *bot, int threads);

/*
 * The reference player that sees every card: the hard expert given the
 * true hands instead of samples, its play-outs taking one card in ten at
 * random so that they stand for the others' ways of playing.  It exists
 * only to measure how much the hidden cards cost the others (barbu arena);
 * barbu_bot_new never makes one, so no server table can seat it, and
 * barbu_bot_choose refuses it (BARBU_EINVAL).  It chooses from the whole
 * state.
 */
barbu_bot *barbu_omniscient_new(uint64_t seed);
int barbu_omniscient_choose(barbu_bot *bot, const barbu_state *state, barbu_action *out);

/*
 * For measuring and tuning only (barbu arena): a bot of a kind with some of
 * its level's settings changed, as "KIND:key=value,key=value" ("medium:
 * budget=2000000,solve_from=3"; the keys are bb_level's fields in
 * src/ai/internal.h).  "omniscient" is a kind here, made as by
 * barbu_omniscient_new.  NULL for an unknown kind or key, a value out of
 * range, or settings given to a kind that does not search.
 */
barbu_bot *barbu_bot_new_tuned(const char *spec, uint64_t seed);

/* The bot's kind, as given to barbu_bot_new (or its tuned spec). */
const char *barbu_bot_kind(const barbu_bot *bot);

/* The kinds of bot, NULL after the last. */
const char *barbu_bot_kind_name(int index);

/*
 * Keeps what the view shows without choosing: the tricks of the deal under
 * way, as barbu_bot_choose keeps them before it chooses.  A player that was
 * not there for some of a deal's views (a server's computer player rebuilt
 * after a restart) is fed them here, each at the points where it would have
 * chosen (its seat to move), and then chooses as one that played through.
 * A view of no seat, or of a phase without tricks, changes nothing.
 */
void barbu_bot_observe(barbu_bot *bot, const barbu_view *view);

/*
 * Seeds the bot's choices again, as barbu_bot_new seeded them, keeping what
 * it has seen.  barbu serve seeds each decision of a table's computer player
 * from the table's seed and the action's index, so that a table rebuilt
 * after a restart plays on as it would have.
 */
void barbu_bot_reseed(barbu_bot *bot, uint64_t seed);

/* Chooses a legal action for the view's seat, which must be to move.
 * Returns 0, or BARBU_ETURN when the seat is not to move. */
int barbu_bot_choose(barbu_bot *bot, const barbu_view *view, barbu_action *out);

/* The same, but among `allowed`: n of the seat's legal actions (at most
 * BARBU_MAX_ACTIONS; not Chinese Poker rows).  barbu arena uses it to have
 * a heuristic declarer choose among the declarations of one contract.
 * Returns 0; BARBU_ETURN as above; the refusal of an action that is not
 * legal; BARBU_EINVAL for no actions, rows or the omniscient player. */
int barbu_bot_choose_from(barbu_bot *bot, const barbu_view *view, const barbu_action *allowed,
                          int n, barbu_action *out);

#ifdef __cplusplus
}
#endif
#endif
