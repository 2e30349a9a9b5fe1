/*
 * moderation.h - the end-to-end tests of ladder tables and moderation
 * (issue 23, points 2 and 5): moderation.c runs them by name and holds the
 * helpers they share; moderation_ladder.c and moderation_acts.c hold the
 * scenarios.  Registered players sign up with hello's password and
 * register; administrators are named with barbu serve --admin.
 */
#ifndef BARBU_MODERATION_H
#define BARBU_MODERATION_H

#include "e2e.h"

/* A password every test account uses (nothing here is secret). */
#define MOD_PASSWORD "correct horse battery"

/* A guest: hello with a name, from its own address. */
e2e_client *mod_guest(const char *name, int port, const char *source);
/* A registered player: hello with name, password and register (a new
 * account), or without register (sign in); checks welcome's registered
 * and, when admin >= 0, its admin flag. */
e2e_client *mod_signup(const char *name, int port, const char *source, int admin);
e2e_client *mod_signin(const char *name, int port, const char *source, int admin);
/* Sends hello with a name (and a password when not NULL) and expects an
 * error with this code. */
void mod_hello_refused(const char *label, int port, const char *source, const char *name,
                       const char *password, const char *code);
/* Expects an error and checks its text holds a word; frees it. */
void mod_refused(e2e_client *c, const char *code, const char *re, const char *word,
                 const char *what);
/* Expects done for re; false when it did not come. */
bool mod_done(e2e_client *c, const char *re, const char *what);
/* The lobby summary of a table (a new reference), or NULL when it is not
 * listed. */
json_t *mod_summary(e2e_client *c, int table);
/* The text of a message's "text", "" when none. */
const char *mod_text(const json_t *m);
/* The string at a key, "" when none. */
const char *mod_str(const json_t *o, const char *key);
/* Runs a query on a stopped server's database (read-only) and returns the
 * first column of each row joined by "|" (malloc'd). */
char *mod_db_rows(const char *db, const char *sql);

/* moderation_ladder.c */
void moderation_ladder_refusals(void);
void moderation_ladder_players(void);
/* moderation_acts.c */
void moderation_close_remove(void);
void moderation_ban(void);
void moderation_report(void);
void moderation_admin_later(void);
void moderation_forbidden(void);

#endif
