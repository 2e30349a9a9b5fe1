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

/* evening_rules.c: the rules pages, the Chinese Poker suggestion, gzipped
 * assets. */
void evening_compressed(void);
void evening_suggest(void);
void evening_rules_pages(void);
/* evening_life.c: logout, sitting back, close, hand_over, again. */
void evening_life_logout(void);
void evening_life_sit_back(void);
void evening_life_close(void);
void evening_life_hand_over(void);
void evening_life_again(void);
void evening_life_again_keep(void);
/* evening_clock.c: the move clock. */
void evening_clock(void);
void evening_clock_rows(void);
void evening_clock_pass_on(void);
void evening_clock_paused(void);
void evening_clock_late(void);

/* evening_refusals.c: every refusal is a sentence saying what to do. */
void evening_refusals(void);

#endif
