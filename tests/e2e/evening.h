/*
 * evening.h - the end-to-end tests of what a club evening in the browser
 * needs from the server (issue 22 of the project): leaving and coming back,
 * playing again, the move clock, the rules pages, the Chinese Poker
 * suggestion, compressed assets.  evening.c runs them by name; each file
 * holds one part.
 */
#ifndef BARBU_EVENING_H
#define BARBU_EVENING_H

#include "e2e.h"

/* evening_clock.c: the move clock. */
void evening_clock(void);
void evening_clock_rows(void);
void evening_clock_pass_on(void);
void evening_clock_paused(void);

/* evening_refusals.c: every refusal is a sentence saying what to do. */
void evening_refusals(void);

#endif
