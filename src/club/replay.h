/*
 * replay.h - a game record replayed by the engine, step by step, as JSON for
 * the club's hand viewer (docs/club.md, "The hand viewer").
 *
 * The engine reads the record and replays it; the JSON only writes down what
 * the engine's states were after each action (all four hands, the trick, the
 * layout, the rows, the Fife game's cuts and Pass-ons, the scores), so that
 * the viewer shows a game without a rule of its own.  Pure: no I/O, no
 * server, no store; the server calls it off its event loop.
 */
#ifndef BARBU_CLUB_REPLAY_H
#define BARBU_CLUB_REPLAY_H

#include <stddef.h>

#include <barbu/barbu.h>

/* The replay of a record's text (NUL-terminated) as malloc'd JSON text the
 * caller frees; or NULL with the reader's or the replay's sentence in err
 * ("line 12: deal 1, trick 3, card 2 (W: 9C): must follow suit"), or
 * "out of memory", truncated to cap - 1 characters. */
char *club_replay_json(const char *record_text, char *err, size_t cap);

/* The words the viewer gives a step ("S plays Q♥", "E doubles N and S"),
 * from the states before and after its action as barbu_record_walk gives
 * them; cut at cap - 1.  For the analysis (analysis_json.c). */
void club_step_words(const barbu_rules *r, const barbu_state *before, const barbu_action *a,
                     const barbu_state *after, char *buf, size_t cap);

/* A contract in the viewer's words: "No Hearts", "Trumps (spades)",
 * "Domino from the jack", or the Fife game's Calls ("Double: Aces +
 * Queens"); and seats, "N, E and S". */
void club_contract_words(const barbu_rules *r, unsigned contracts, int trump, int rank, char *buf,
                         size_t cap);
void club_seats_words(unsigned seats, char *buf, size_t cap);

#endif
