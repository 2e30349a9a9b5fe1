/*
 * store.h - where the server keeps what must survive it: sessions, tables,
 * seats and every accepted action.  An interface of function pointers, so
 * that a PostgreSQL store can stand beside the SQLite one (store_sqlite.c).
 *
 * Every function returns 0 on success or -1 on failure, with a sentence in
 * the store's error buffer (store_error).  A malformed row is not a failure:
 * a table's is reported in store_table.damage, and a session or action row
 * may hand its callback NULL for text that is missing (the caller skips it
 * and says so).  Strings passed in are copied;
 * strings handed to callbacks live only during the call.  A callback may
 * use the store, except to start the same load again from inside
 * sessions_load or actions_load (refused with an error).
 */
#ifndef BARBU_STORE_H
#define BARBU_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "barbu/barbu.h"

enum { STORE_WAITING, STORE_PLAYING, STORE_OVER };

typedef struct store_table {
    int64_t id;         /* given by table_create */
    const char *preset; /* "uk" */
    const char *house;  /* house rules text, "" for none */
    uint64_t seed;
    const char *options; /* the table's options as JSON text (kibitz, grace, ...) */
    int state;           /* STORE_* */
    int64_t created;     /* seconds since the epoch */
    /* NULL, or what is wrong with the table's row or its seats' rows in a
     * damaged database, in a sentence: the other fields are then as far as
     * they read ("" for text that is not there, 0 for numbers). */
    const char *damage;
    bool seed_lost; /* the seed did not read: the game cannot be rebuilt */
    /* A keyed table deals from its key (the seed is then its computer
     * players' own); the key did not read: seed_lost. */
    bool keyed;
    uint8_t key[BARBU_KEY_BYTES];
} store_table;

typedef struct store_seat {
    int seat;           /* 0-3 */
    const char *name;   /* who sits there now; NULL: free */
    const char *player; /* whose score it is: the first to sit once the game
                           started; NULL before */
    const char *token;  /* the sitting session's token; NULL for a bot or free */
    bool bot;
    const char *level; /* the bot's kind, NULL for a person */
} store_seat;

typedef struct store store;

struct store {
    const struct store_ops *ops;
    char error[256];
};

struct store_ops {
    void (*close)(store *s); /* accepts NULL through store_close */

    /* Sessions: a token and its handle. */
    int (*session_put)(store *s, const char *token, const char *name);
    int (*session_forget)(store *s, const char *token);
    int (*sessions_load)(store *s, void (*fn)(void *ctx, const char *token, const char *name),
                         void *ctx);

    /* Tables.  table_create fills *id. */
    int (*table_create)(store *s, const store_table *t, int64_t *id);
    int (*table_set_state)(store *s, int64_t id, int state);
    /* Every table in id order, with its seats (seats[k] for seat k). */
    int (*tables_load)(store *s,
                       void (*fn)(void *ctx, const store_table *t, const store_seat seats[4]),
                       void *ctx);
    /* One table, by id; returns 1 (and calls fn) when found, 0 when not,
     * -1 on failure. */
    int (*table_get)(store *s, int64_t id,
                     void (*fn)(void *ctx, const store_table *t, const store_seat seats[4]),
                     void *ctx);
    int (*seat_put)(store *s, int64_t table, const store_seat *seat);

    /* Actions: n counts from 0 and must be the next one for the table.
     * action_append returns only once the action is committed. */
    int (*action_append)(store *s, int64_t table, uint32_t n, const char *text);
    int (*actions_load)(store *s, int64_t table,
                        void (*fn)(void *ctx, uint32_t n, const char *text), void *ctx);
};

/* Opens (creating when needed) a SQLite database in WAL mode.  NULL on
 * failure, with the reason in err.  Close with store_close. */
store *store_sqlite_open(const char *path, char *err, size_t cap);

static inline void store_close(store *s)
{
    if (s)
        s->ops->close(s);
}

static inline const char *store_error(const store *s)
{
    return s->error;
}

/* An action as one line of text and back: lossless, independent of the
 * rules, for the actions table. buf needs STORE_ACTION_TEXT bytes. */
#define STORE_ACTION_TEXT 96
void store_action_text(const barbu_action *action, char *buf);
int store_action_parse(const char *text, barbu_action *action);

#endif
