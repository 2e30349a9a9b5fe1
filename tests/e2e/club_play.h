/*
 * club_play.h - the club end to end (issue 24): a registered player's
 * preferences (club_prefs.c) and games played through the server checked
 * by hand in results, the ladder and the ratings (club_results.c), with the
 * helpers they share (club_play.c).
 */
#ifndef BARBU_CLUB_PLAY_H
#define BARBU_CLUB_PLAY_H

#include "e2e.h"

/* hello with a name and a password (register: sign up): the welcome or the
 * error, NULL after 8 s.  A welcome's name and token are kept in c; the
 * lobby is taken, and so is the preferences message that may come between
 * them, into *prefs when prefs is not NULL (NULL there when none came). */
json_t *cp_sign(e2e_client *c, const char *name, const char *password, bool reg, json_t **prefs);
/* hello with a token, the same way. */
json_t *cp_token(e2e_client *c, const char *token, json_t **prefs);
/* The type of a message, an error's code ("nothing" for NULL). */
const char *cp_code(const json_t *m);
const char *cp_text(const json_t *m);

/* GET path from the server at 127.0.0.1:port: the body (malloc'd; chunked
 * transfer decoded) and *status; NULL when the connection failed. */
char *cp_http_get(int port, const char *path, int *status, char *type, size_t type_cap);
/* The same read as JSON (NULL when it is not), checking status. */
json_t *cp_get_json(int port, const char *path, int want_status);

void club_prefs(void);
void club_results(void);

#endif
