/*
 * identity.h - the scenarios of registered handles (identity*.c) and their
 * helpers.
 */
#ifndef BARBU_IDENTITY_H
#define BARBU_IDENTITY_H

#include "e2e.h"

/* hello with a name (and a password, register): the welcome (the client's
 * name and token kept, the lobby taken) or the error; NULL after 8 s. */
json_t *id_hello(e2e_client *c, const char *name, const char *password, bool reg);
/* hello with a token: the welcome or the error. */
json_t *id_token_hello(e2e_client *c, const char *token);
const char *id_type(const json_t *m);
const char *id_code(const json_t *m); /* an error's code, else the type */
const char *id_text(const json_t *m);
bool id_is(const json_t *m, const char *code);
/* Signs up or in, which must work. */
void id_sign(e2e_client *c, const char *name, const char *password, bool reg);
/* A hello refused with code; its text holds want when not NULL. */
void id_refused(e2e_client *c, const char *name, const char *password, bool reg, const char *code,
                const char *want);
bool id_bye(e2e_client *c, const char *reason, int ms);

/* identity_guard.c */
void identity_guard(void);
void identity_shown(void);

#endif
