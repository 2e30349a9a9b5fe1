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

#endif
