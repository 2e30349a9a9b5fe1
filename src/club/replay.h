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

/* The replay of a record's text (NUL-terminated) as malloc'd JSON text the
 * caller frees; or NULL with the reader's or the replay's sentence in err
 * ("line 12: deal 1, trick 3, card 2 (W: 9C): must follow suit"), or
 * "out of memory", truncated to cap - 1 characters. */
char *club_replay_json(const char *record_text, char *err, size_t cap);

#endif
