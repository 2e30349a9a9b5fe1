/*
 * store_check.h - what the SQLite and the PostgreSQL stores check and read
 * alike, so that both refuse the same input with the same sentence.
 * Internal to the store.
 */
#ifndef BARBU_STORE_CHECK_H
#define BARBU_STORE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* Whether g may be written by game_begin (ending false: a running game) or
 * game_end (ending true: over or abandoned): 0, or -1 with the reason in
 * why (cap bytes). */
int store_game_check(const store_game *g, bool ending, char *why, size_t cap);

/* A seed as the stores keep it, decimal digits only, into *value: false
 * for anything else or a number past 64 bits. */
bool store_parse_u64(const char *text, uint64_t *value);

#endif
