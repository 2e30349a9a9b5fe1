/*
 * solver.h - the exact solver for the last tricks of a deal.
 *
 * Given every hand (a sampled deal, or the true one for the omniscient
 * player), it finds the exact value of the rest of the deal for one seat,
 * `me`, when the three others play against it: a 4-player game reduced to
 * two sides, so alpha-beta applies ("paranoid" search).  The value is me's
 * settled score from the tricks still to play: each trick's raw points go to
 * its taker, and the settlement of doubles is linear in the raw scores, so
 * me's score is a weighted sum of what each seat takes.  A transposition
 * table keyed by the hands (ranks closed up over the cards still in play)
 * and the leader at each trick's start keeps the bounds found, and cards
 * that are equivalent (adjacent in a suit once the played cards are gone,
 * held by one hand, worth the same) are searched once.  The rules of play
 * are the solver's own copy of the engine's, for speed; the unit tests
 * hold them to the engine's.
 */
#ifndef BARBU_AI_SOLVER_H
#define BARBU_AI_SOLVER_H

#include <stdbool.h>

#include "barbu/barbu.h"

typedef struct bb_solver bb_solver;

/* A solver with a transposition table of 2^tt_bits entries (16 to 24, 64
 * bytes each: 4 MB at 16) and a 320 KB table of two-trick endings; NULL
 * without memory.  Free with bb_solver_free (NULL is fine).  One solver
 * serves one thread; keeping it across solves of one deal's context (the
 * contract, the doubles, me) lets them share what they found, and making
 * it costs the page faults of its tables. */
bb_solver *bb_solver_new(int tt_bits);
void bb_solver_free(bb_solver *sv);

/* Whether the solver plays the deal under way in this state: its play phase
 * at a trick contract whose score is the sum of what each trick is worth
 * (not Ravage City, not a layout, not Chinese Poker), without the enforced
 * Israeli rule. */
bool bb_solver_fits(const barbu_state *s);

/* The exact value for `me` of the rest of the deal (as above), the state's
 * seat to move playing next: me's settled score at the end of the deal less
 * its settled score from the tricks already complete.  0 when the state
 * does not fit. */
int bb_solve_value(bb_solver *sv, const barbu_state *s, int me);

/* The exact value for `me` of each card the seat to move may play:
 * values[i] is the value of the rest of the deal (measured as by
 * bb_solve_value on this state) when the seat plays the i-th card of
 * *cards (lowest first); the best of them is bb_solve_value's.  Returns how
 * many cards, or -1 when the state does not fit. */
int bb_solve_moves(bb_solver *sv, const barbu_state *s, int me, barbu_cards *cards,
                   int values[BARBU_MAX_TRICKS]);

/*
 * The same by max^n: each seat, seeing every hand, plays for its own
 * settled score, and a seat with several moves equally good for it takes
 * any of them, each distinct outcome as likely as the others (solver.c).  values[i] is what
 * the rest of the deal is worth to `me` (measured as by bb_solve_value)
 * when the seat to move plays the i-th card of *cards; a mean over the
 * ties, so not always whole.  Returns how many cards, or -1 when the state
 * does not fit.
 */
int bb_maxn_moves(bb_solver *sv, const barbu_state *s, int me, barbu_cards *cards,
                  double values[BARBU_MAX_TRICKS]);

/* The card max^n plays for the seat to move: one of the best for it, the
 * ties drawn by rng.  -1 when the state does not fit. */
int bb_maxn_card(bb_solver *sv, const barbu_state *s, barbu_rng *rng);

/* The cards the solver lets the seat to move play, by its own rules: for
 * the unit tests, which check them against barbu_playable.  0 when the
 * state does not fit. */
barbu_cards bb_solver_playable(const barbu_state *s);

/* Search nodes visited since the solver was made (for benchmarks). */
unsigned long long bb_solver_nodes(const bb_solver *sv);

#endif
