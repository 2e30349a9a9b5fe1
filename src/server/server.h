/*
 * server.h - barbu serve: the event loop that owns every table.
 */
#ifndef BARBU_SERVER_H
#define BARBU_SERVER_H

#include <stdbool.h>

#include "barbu/barbu.h"

typedef struct barbu_serve_options {
    const char *listen;  /* "127.0.0.1:2118"; "0.0.0.0:2118" serves others; port 0
                            takes any free port */
    const char *db;      /* the SQLite database file, or a PostgreSQL URL (store_open) */
    const char *web_dir; /* static files served at /, or NULL for the built-in page */
    int max_tables;      /* 0: the default (5000) */
    int bot_threads;     /* computer players' worker threads; 0: the default */
    int max_bot_tables;  /* tables of computer players only whose games are not over:
                            0: the default (16), -1: none */
    bool quiet;          /* no log lines on stderr */
    /* Origins whose pages may open the WebSocket besides the server's own
     * ("https://club.example"); browsers send Origin, programs do not. */
    const char *const *allow_origins;
    int n_allow_origins;

    /* What one machine may use of the server (docs/protocol.md, Limits).
     * 0 is the default of each; see barbu serve --help. */
    int max_conns;             /* WebSocket connections at once: from the descriptor limit */
    int max_conns_per_address; /* from one IPv4 address or IPv6 /64 (100) */
    int hello_timeout;         /* seconds a connection has to say hello (10) */
    long queue_limit;          /* bytes queued to one client that does not read (256 KiB) */
    long queue_budget;         /* bytes queued to all clients together (128 MiB) */
    int sessions_per_address;  /* sessions one address has started and that are held (100) */
    int tables_per_address;    /* unfinished tables created from one address (20) */
    int waiting_idle;          /* seconds a waiting table with nobody at it stays (120) */
    int create_interval;       /* seconds between two creations from one address when
                                  the server is nearly full (120; -1: no slowing) */
    int seat_keep;             /* seconds again keeps a seat for the last game's player (120) */
    double token_days;         /* days a registered player's token works (30); a fraction
                                  for tests (0.0001 is about 9 seconds) */

    /* The score sheet of a game's deals as text, for the score message's
     * "sheet" (barbu scoresheet's, from the CLI): a malloc'd string, or NULL.
     * A NULL function leaves "sheet" out. */
    char *(*sheet_text)(const barbu_rules *rules, const barbu_result *results, int n,
                        const char *const names[4]);
    /* The Fife game's score sheet as a page with its pictures, for the score
     * message's "sheet_html" (barbu scoresheet --html's): a malloc'd
     * string, or NULL (always NULL for other games).  NULL: left out. */
    char *(*sheet_html)(const barbu_rules *rules, const barbu_result *results, int n,
                        const char *const names[4]);

    /* TLS: both files (PEM) or neither.  With them the one port serves
     * https:// and wss:// only. */
    const char *tls_cert; /* the certificate, with its chain after it */
    const char *tls_key;  /* its private key, without a passphrase */
    /* Handles named administrators (--admin, repeatable): kept in the
     * database at start; each acts as one once registered and signed in. */
    const char *const *admins;
    int n_admins;
    /* The club (docs/club.md): games a player needs in a month or a year
     * to be ranked in its ladder (--ladder-min-games; barbu serve's default
     * is 3, and 0 or less reads as 3). */
    int ladder_min_games;
    /* Game analyses (docs/club.md, Analysis): worker threads (--analyses;
     * 0: the default, 1; -1: none, analyses are refused) and analyses
     * waiting at most (--analyses-queued; 0: the default, 16; -1: none
     * waits, so that only what a free thread takes is accepted). */
    int analyses;
    int analyses_queued;
    /* Several nodes on one PostgreSQL database (docs/internals.md, Nodes):
     * this node's name (NULL: the server is alone on its database), where
     * clients reach it (NULL: ws(s)://LISTEN:PORT/ws), and how long its
     * leases on tables last (0: the default, 5000 ms). */
    const char *node;
    const char *public_url;
    int lease_ms;
} barbu_serve_options;

/* Whether text is an origin --allow-origin takes: http:// or https://, a
 * host and maybe a port, nothing after. */
bool barbu_serve_origin_ok(const char *text);

/* The rules page of a rule set (GET /rules/PRESET and /rules/table/ID,
 * barbu rules --html): a whole HTML document without script, every text
 * escaped; malloc'd (the caller frees), NULL when out of memory.  title
 * heads it ("Barbu rules: uk"); about (may be NULL) is a line under it;
 * house (may be NULL or "") is a table's house rules, shown as written. */
char *barbu_rules_page(const barbu_rules *rules, const char *title, const char *about,
                       const char *house);

/* The list of the rule sets, each linked to its page (GET /rules/);
 * malloc'd, NULL when out of memory. */
char *barbu_rules_index_page(void);

/* Runs the server until SIGINT or SIGTERM.  Prints "barbu serve: listening
 * on ws://HOST:PORT/ws" (wss:// with TLS) on stdout (and flushes) once it accepts connections.
 * Returns 0, or 1 after printing why it could not start. */
int barbu_serve(const barbu_serve_options *options);

#endif
