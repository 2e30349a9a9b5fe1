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
    const char *token;  /* the sitting session's id (a token's hash); NULL for a bot or free */
    bool bot;
    const char *level; /* the bot's kind, NULL for a person */
} store_seat;

/* A registered handle (docs/protocol.md, Accounts). */
#define STORE_KEY_CAP  512 /* a handle's key */
#define STORE_NAME_CAP 96  /* a handle as shown */
#define STORE_HASH_CAP 256 /* a password's hash: crypto_pwhash_STRBYTES and more */
typedef struct store_account {
    char key[STORE_KEY_CAP];
    char name[STORE_NAME_CAP];
    char hash[STORE_HASH_CAP]; /* crypto_pwhash_str's text */
    int64_t created;           /* seconds since the epoch */
    bool admin, banned;
} store_account;

/* The hexadecimal digits of a token's hash, BLAKE2b-256: what the store and
 * the server keep of a token (store_hash.c). */
#define STORE_TOKEN_HASH_LEN 64
void store_token_hash(const char *token, char out[STORE_TOKEN_HASH_LEN + 1]);
/* A row of deal_players. */
typedef struct store_deal_player {
    int deal;          /* from 0 */
    uint32_t at;       /* the action from which this player held the seat */
    int seat;          /* 0-3 */
    const char *name;  /* the person's handle, or the computer player's name */
    bool registered;   /* a registered player's */
    const char *level; /* the computer player's kind; NULL for a person */
} store_deal_player;

/* A row of moderation (act set), of reports (act NULL) or of bans (key
 * set): who did it and when, the table (0 for none), the handle (NULL for
 * none) and the text ("" for none). */
typedef struct store_mod_row {
    int64_t id;
    int64_t at; /* seconds since the epoch */
    const char *by;
    const char *act; /* "close", "remove", "ban", "unban"; NULL for a report */
    int64_t table;
    const char *name;
    const char *key; /* bans: the handle's key */
    const char *text;
} store_mod_row;

/* ------------------------------------------------------------- the club
 * (docs/club.md).  A game's row is written when it starts (status running,
 * no deal data) and again when it ends (over, or abandoned: closed before
 * its end); the ladder and the ratings change only in game_end's
 * transaction. */
enum { STORE_GAME_RUNNING, STORE_GAME_OVER, STORE_GAME_ABANDONED };
enum { STORE_PERSON_GUEST, STORE_PERSON_REGISTERED, STORE_PERSON_COMPUTER };
enum { STORE_CREDIT_RECORD, STORE_CREDIT_DEALS };

typedef struct store_game_player {
    int seat;          /* 0-3 */
    const char *name;  /* as shown: a handle, or the computer player's name */
    const char *key;   /* a registered player's handle key; NULL otherwise */
    int kind;          /* STORE_PERSON_* */
    const char *level; /* a computer player's level ("medium"); NULL for a person */
    bool credited;     /* takes points of the seat (the player of record; with
                          STORE_CREDIT_DEALS everyone who finished a deal there) */
    int32_t points;    /* the points credited to this player */
    int deals;         /* the deals this player finished at the seat */
    int place;         /* 1-4 by the seat's total, ties sharing; 0 while running */
} store_game_player;

typedef struct store_game {
    int64_t id;         /* the table's id */
    const char *preset; /* "uk" */
    bool house;         /* house rules changed the preset */
    bool ladder, rated;
    int credit;                /* STORE_CREDIT_* */
    int status;                /* STORE_GAME_* */
    int64_t started, finished; /* seconds since the epoch; finished 0 while running */
    int n_deals;               /* deals completed */
    int32_t totals[4];         /* by seat */
    const char *deals;         /* JSON text: the score message's deals; "[]" while running */
    int n_players;
    const store_game_player *players; /* by seat, then in the order they sat */
} store_game;

/* A rating (Weng and Lin's Bradley-Terry full pairing, docs/club.md). */
typedef struct store_rating {
    const char *id;   /* "p:" and a handle's key, or "c:" and a computer level */
    const char *name; /* as shown */
    double mu, sigma;
    int games;
    int64_t updated; /* seconds since the epoch; 0 never */
} store_rating;

typedef struct store_rating_point {
    int64_t game, at;
    double mu, sigma; /* after the game */
} store_rating_point;

typedef struct store_ladder_row {
    const char *key, *name;
    int games;
    int64_t total;
} store_ladder_row;

/* What games_find looks for; NULL, 0 or -1 for any. */
typedef struct store_game_filter {
    const char *key;    /* a registered player's key */
    const char *name;   /* or a name as shown (a guest, a computer player) */
    const char *preset; /* a rule set */
    int64_t from, to;   /* started in [from, to) */
    int status;         /* STORE_GAME_*, or -1 */
    int ladder;         /* 1 ladder games only, 0 others only, -1 both */
    const char *level;  /* games where a computer player of this level sat */
    bool with_deals;    /* games_find reads each game's deals (else "[]") */
} store_game_filter;

/* A player's results over the games a filter matches (player_results). */
typedef struct store_player_results {
    int games, over, abandoned; /* games matched; of them over, abandoned */
    int64_t total;              /* the points credited in the games over */
    int places[5];              /* [1..4]: games over with that best place */
} store_player_results;

/* ------------------------------------------------------------- nodes
 * Several servers ("nodes") on one PostgreSQL database (docs/deploy.md).
 * Each table is owned by one node at a time through a lease in the
 * database: its holder, an epoch that grows by one every time the lease is
 * taken, and the moment it runs out (the database's clock, so the nodes'
 * clocks never matter).  Once a store has joined as a node, every write
 * for a table (action_append, seat_put, table_set_state, deal_player_put,
 * listed_put, game_begin, game_end) checks, in the same statement or
 * transaction, that the table's epoch is still the one this store took:
 * otherwise nothing is written and the call returns STORE_FENCED (a node
 * that lost a lease can never write to that table again).  A store that
 * has not joined (one server alone) writes as before.
 *
 * Only the PostgreSQL store has these: the SQLite store leaves every one
 * NULL (a SQLite database serves one server, which owns every table). */
#define STORE_FENCED (-2)

/* A row of the shared lobby: a table's summary as its owner wrote it. */
typedef struct store_listed {
    int64_t table;
    const char *node;    /* its owner when written */
    const char *summary; /* the lobby summary (docs/protocol.md) as JSON
                            text; "" once the table is closed */
    int64_t version;     /* grows with every write, over all tables */
} store_listed;

typedef struct store store;

struct store {
    const struct store_ops *ops;
    char error[256];
};

struct store_ops {
    void (*close)(store *s); /* accepts NULL through store_close */

    /* Sessions: an id (a guest's token's hash, never the token) and its
     * handle. */
    int (*session_put)(store *s, const char *token, const char *name);
    int (*session_forget)(store *s, const char *token);
    /* The id of the session named exactly `name`: 1 (filling token, of cap
     * bytes) or 0 when there is none. */
    int (*session_by_name)(store *s, const char *name, char *token, size_t cap);
    /* Gives session `from` the id `to`, the seats it holds with it, in one
     * transaction (a guest who registers takes the account's session id):
     * 0, or -1 with nothing changed. */
    int (*session_rekey)(store *s, const char *from, const char *to);
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
     * action_append returns only once the action is committed.  In
     * PostgreSQL, whose reply can be lost after the commit (a dropped
     * connection), an append of an n already written with the same text
     * (under the same lease's epoch) is that action again and returns 0;
     * SQLite, in the same process, refuses it as out of order. */
    int (*action_append)(store *s, int64_t table, uint32_t n, const char *text);
    int (*actions_load)(store *s, int64_t table,
                        void (*fn)(void *ctx, uint32_t n, const char *text), void *ctx);

    /* Accounts, by key.  account_create returns 1 when made, 0 when the
     * key is registered already; account_get 1 (filling *out) or 0 when
     * there is no such account.  account_set_flags leaves a flag given as
     * -1 as it is (and makes no account). */
    int (*account_create)(store *s, const char *key, const char *name, const char *hash);
    int (*account_get)(store *s, const char *key, store_account *out);
    int (*account_set_hash)(store *s, const char *key, const char *hash);
    int (*account_set_flags)(store *s, const char *key, int admin, int banned);

    /* A registered player's tokens, by their hash (never the token).
     * token_get returns 1 (filling key, of STORE_KEY_CAP bytes, and
     * *expires) or 0 when there is none.  tokens_forget forgets every token
     * of the account but except (NULL for none). */
    int (*token_put)(store *s, const char *hash, const char *key, int64_t created, int64_t expires);
    int (*token_get)(store *s, const char *hash, char key[], int64_t *expires);
    int (*token_forget)(store *s, const char *hash);
    int (*tokens_forget)(store *s, const char *key, const char *except);
    /* Who played which deals (ladder.c): a row when a deal starts and
     * whenever a seat changes hands within it.  deal counts from 0; at is
     * the action the player took the seat before; name is the person's
     * handle or the computer player's name; level is the computer player's
     * kind, NULL for a person.  Loaded by deal, each deal's rows in the
     * order they were written. */
    int (*deal_player_put)(store *s, int64_t table, const store_deal_player *p);
    int (*deal_players_load)(store *s, int64_t table,
                             void (*fn)(void *ctx, const store_deal_player *p), void *ctx);

    /* Moderation (moderation.c).  Administrators named at start, by handle
     * key; banned handles, by key; acts and reports, each given an id. */
    int (*admin_put)(store *s, const char *key, const char *name);
    int (*admins_load)(store *s, void (*fn)(void *ctx, const char *key, const char *name),
                       void *ctx);
    int (*ban_put)(store *s, const store_mod_row *ban);
    int (*ban_delete)(store *s, const char *key);
    int (*bans_load)(store *s, void (*fn)(void *ctx, const store_mod_row *ban), void *ctx);
    int (*mod_act_add)(store *s, const store_mod_row *act, int64_t *id);
    int (*report_add)(store *s, const store_mod_row *report, int64_t *id);
    /* The newest `limit` acts (act set) and reports (act NULL), newest
     * first. */
    int (*mod_log_load)(store *s, int limit, void (*fn)(void *ctx, const store_mod_row *row),
                        void *ctx);
    /* The removals (act "remove") from tables whose games are not over:
     * the handles that may not sit there again. */
    int (*removals_load)(store *s, void (*fn)(void *ctx, int64_t table, const char *name),
                         void *ctx);
    /* Forgets the registered players' tokens that expired at or before now
     * (seconds since the epoch). */
    int (*tokens_expire)(store *s, int64_t now);

    /* The club.  game_begin writes a running game's row and its players of
     * record; game_end writes the ended game's row and players in one
     * transaction with, when the game is a ladder game and over, each
     * credited registered player's games and points in the ladder of the
     * month and the year of g->finished (UTC, periods "2026-11" and
     * "2026"), and the ratings given (each with a point of its history for
     * this game).  game_status returns STORE_GAME_*, -2 for no such game,
     * -1 on failure.  game_get returns 1 (and calls fn) or 0. */
    int (*game_begin)(store *s, const store_game *g);
    int (*game_end)(store *s, const store_game *g, const store_rating *ratings, int n_ratings);
    int (*game_status)(store *s, int64_t id);
    int (*game_get)(store *s, int64_t id, void (*fn)(void *ctx, const store_game *g), void *ctx);
    /* The games that match, newest start first, from offset; *total is how
     * many match in all. */
    int (*games_find)(store *s, const store_game_filter *f, int offset, int limit, int64_t *total,
                      void (*fn)(void *ctx, const store_game *g), void *ctx);
    /* A period's ladder, highest total first (then fewer games, then
     * name); the periods that have one, newest first, months and years. */
    int (*ladder_load)(store *s, const char *period,
                       void (*fn)(void *ctx, const store_ladder_row *row), void *ctx);
    int (*ladder_periods)(store *s, void (*fn)(void *ctx, const char *period), void *ctx);
    /* Ratings: one by id (1 found, 0 not), all (highest mu - 3 sigma
     * first), and one's history, oldest first. */
    int (*rating_get)(store *s, const char *id, void (*fn)(void *ctx, const store_rating *r),
                      void *ctx);
    int (*ratings_load)(store *s, void (*fn)(void *ctx, const store_rating *r), void *ctx);
    int (*rating_history_load)(store *s, const char *id,
                               void (*fn)(void *ctx, const store_rating_point *p), void *ctx);
    /* A registered player's preferences, as JSON text: prefs_get returns 1
     * (filling out, of cap bytes) or 0 when none are kept. */
    int (*prefs_get)(store *s, const char *key, char *out, size_t cap);
    int (*prefs_put)(store *s, const char *key, const char *json);
    /* The results of the player a filter names (f->key, else f->name,
     * else f->level: that player's rows of game_players) over the games it
     * matches, counted in the database: each game once; in the games over
     * the points credited to that player's seats, summed, and the best
     * place among them.  -1 when f names no player. */
    int (*player_results)(store *s, const store_game_filter *f, store_player_results *out);
    /* One point of a rating's history: the one given for game (1, filling
     * *out, and *prev with the point before it in the history, or with
     * game 0 when it is the first), or 0 when the game gave none. */
    int (*rating_point_get)(store *s, const char *id, int64_t game, store_rating_point *out,
                            store_rating_point *prev);
    /* Kept analyses (issue 26): one seat's decisions in a game judged at a
     * level, the analysis's JSON text (docs/club.md, Analysis), by key
     * ("game:ID" or "record:SHA256HEX"), seat 0-3 and level.  analysis_put
     * writes it (a second put of the same key, seat and level replaces
     * it); analysis_get returns 1 with the text in *body (malloc'd, the
     * caller frees it) or 0 when none is kept.  Uploaded records' analyses
     * ("record:" keys) are capped: a put of one removes, in the same
     * transaction, the oldest beyond STORE_ANALYSIS_RECORDS; a game's are
     * never removed. */
    int (*analysis_put)(store *s, const char *key, int seat, const char *level, const char *body);
    int (*analysis_get)(store *s, const char *key, int seat, const char *level, char **body);

    /* ---- nodes (NULL in the SQLite store; see "nodes" above) ----
     * claim_alone: this store's server is the database's only one (no
     * --node): 0, or -1 when another server alone or a node uses the
     * database.  node_join claims it as one node of several instead (any
     * number of nodes together, never beside a server alone).  A claim
     * lasts as long as the store; when the store's connection is made again
     * and the claim cannot be had again (another server took the database
     * in between), every write fails from then on. */
    int (*claim_alone)(store *s);
    /* node_join: this store acts for node `name` from now on; url is where
     * its clients connect (--public-url); lease_ms how long a lease it
     * takes or renews lasts.  Claims the database as a node (-1 when a
     * server alone holds it), then writes the node's row (name, url, last
     * seen).  A table_create after it takes the new table's lease at once. */
    int (*node_join)(store *s, const char *name, const char *url, int lease_ms);
    /* The url of node `name`: 1 (filling url, of cap bytes) or 0. */
    int (*node_url)(store *s, const char *name, char *url, size_t cap);
    /* Takes table's lease for this node when nobody holds it, its holder's
     * ran out, or this node holds it: the epoch grows by one and *epoch
     * gets it; from then on this store's writes for the table carry it.
     * 1 taken, 0 another node holds a live lease, -1 failure. */
    int (*lease_take)(store *s, int64_t table, int64_t *epoch);
    /* Renews every lease this store holds, in one statement, and the
     * node's last-seen time.  fn is called for each table whose lease this
     * store held but lost (its epoch moved on: another node took it); the
     * store forgets those, so their writes are fenced. */
    int (*leases_renew)(store *s, void (*fn)(void *ctx, int64_t table), void *ctx);
    /* Gives up table's lease now (its table leaves this node's memory, or the
     * node stops cleanly): the lease runs out at once, the epoch stays. */
    int (*lease_release)(store *s, int64_t table);
    /* Tables whose games are not over (state waiting or playing) and whose
     * lease ran out or was never taken, oldest first, at most limit: what
     * a node may adopt. */
    int (*leases_orphaned)(store *s, int limit, void (*fn)(void *ctx, int64_t table), void *ctx);
    /* Who holds table's lease now: 1 (filling node and url) when a node
     * holds a live one (this node too), 0 when none does or there is no such
     * table. */
    int (*table_owner)(store *s, int64_t table, char *node, size_t ncap, char *url, size_t ucap);
    /* The shared lobby: the owner writes a table's summary whenever it
     * changes ("" when the table closes); listed_load hands over every row
     * written after version `after`, in version order (own rows too). */
    int (*listed_put)(store *s, int64_t table, const char *summary);
    int (*listed_load)(store *s, int64_t after, void (*fn)(void *ctx, const store_listed *l),
                       void *ctx);
    /* Writes "" (closed) for every listed table whose game is over and
     * whose lease ran out or was never taken: a node that stopped or died
     * with finished tables leaves nobody else to close them. */
    int (*listed_clear_over)(store *s);
    /* A guest session by its id (a token's hash, as session_put takes it):
     * 1 (filling name, of cap bytes) or 0. */
    int (*session_get)(store *s, const char *token, char *name, size_t cap);
    /* A node notes that it uses session `token` now (its hello, its
     * reconnection); session_forget_idle forgets the row only when no node
     * noted it for idle_s seconds, so that a node never deletes a session
     * another node still serves. */
    int (*session_touch)(store *s, const char *token);
    int (*session_forget_idle)(store *s, const char *token, int idle_s);
    /* The table whose game is not over where the session with this id sits
     * (a seat's token): 1 (filling *table) or 0. */
    int (*seat_of)(store *s, const char *token, int64_t *table);
    /* Every node that has joined: its name and url (--public-url, "" when
     * none), in name order.  A node accepts the origins of all of them, so
     * that a page from one node may follow `moved` to another. */
    int (*nodes_load)(store *s, void (*fn)(void *ctx, const char *name, const char *url),
                      void *ctx);
};

/* Opens (creating when needed) a SQLite database in WAL mode.  NULL on
 * failure, with the reason in err.  Close with store_close. */
store *store_sqlite_open(const char *path, char *err, size_t cap);
/* Opens a database file of this schema version to read only, beside the
 * server's own store (no lock, no migration, no checkpoints): for a thread
 * that answers reads off the server's loop.  Every write through it fails.
 * NULL on failure, with the reason in err. */
store *store_sqlite_open_reader(const char *path, char *err, size_t cap);

/* Opens a PostgreSQL database by its URL (postgresql://... or
 * postgres://...), creating or migrating its schema (store_pg.c); a
 * database of a newer schema version is refused.  NULL on failure, with the
 * reason in err. */
store *store_pg_open(const char *url, char *err, size_t cap);
/* A second connection to the same database for a reader thread: no
 * migration, every write refused. */
store *store_pg_open_reader(const char *url, char *err, size_t cap);

/* Whether db names a PostgreSQL database (a postgresql:// or postgres://
 * URL) rather than a SQLite file. */
bool store_is_pg(const char *db);
/* store_pg_open or store_sqlite_open, by what db names; the same for a
 * reader. */
store *store_open(const char *db, char *err, size_t cap);
store *store_open_reader(const char *db, char *err, size_t cap);

static inline void store_close(store *s)
{
    if (s)
        s->ops->close(s);
}

static inline const char *store_error(const store *s)
{
    return s->error;
}

/* The longest analysis text kept (analysis_put refuses more): a whole
 * game's decisions of one seat, each with its options, take a few hundred
 * KiB at most. */
#define STORE_ANALYSIS_MAX (8L << 20)

/* The uploaded records' analyses kept ("record:" keys, any seat and
 * level): anybody may upload a record, each differing by a byte is a new
 * key, so without a cap the table would grow without end.  The oldest (by
 * the second they were kept, then by key, seat and level, last first) go
 * when a put passes the cap; the one just put always stays.  At a few
 * hundred KiB an analysis, 1,000 of them stay under a few hundred MiB.
 * docs/club.md says so. */
#define STORE_ANALYSIS_RECORDS 1000

/* An action as one line of text and back: lossless, independent of the
 * rules, for the actions table. buf needs STORE_ACTION_TEXT bytes. */
#define STORE_ACTION_TEXT 96
void store_action_text(const barbu_action *action, char *buf);
int store_action_parse(const char *text, barbu_action *action);

#endif
