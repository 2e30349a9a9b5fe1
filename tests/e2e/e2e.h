/*
 * e2e.h - the harness of the end-to-end tests: a barbu server started as a
 * child process, clients that speak docs/protocol.md over tests/e2e/wsc.c,
 * one poll loop that reads for all of them, and players that act by a fixed
 * rule (the first legal action) so that a game can be played again.
 */
#ifndef BARBU_E2E_H
#define BARBU_E2E_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "barbu/barbu.h"
#include "wsc.h"

/* ------------------------------------------------------------ results */

extern int e2e_failures;

/* A check: prints "ok" or "FAIL" with the description, counts failures. */
bool e2e_check(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define CHECK(cond, ...) e2e_check((cond), __VA_ARGS__)

/* A failure the scenario cannot go on from: prints it, stops every server
 * and exits 1. */
void e2e_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond))                                                                               \
            e2e_die(__VA_ARGS__);                                                                  \
    } while (0)

void e2e_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

long e2e_now_ms(void);

/* ------------------------------------------------------------- server */

typedef struct e2e_server {
    pid_t pid;
    int port;
    char dir[256]; /* its temporary directory */
    char db[320];
    char out[320], err[320];
} e2e_server;

/* The barbu program under test and a temporary directory for this run,
 * removed at exit. */
void e2e_init(const char *barbu);
const char *e2e_barbu(void);
const char *e2e_tmpdir(void);

/* A test program of named scenarios: PROGRAM BARBU SCENARIO... runs each
 * scenario named, in order, timing it (e2e_main).  The list ends with
 * {NULL, NULL}.  Exit status 0, 1 when a check failed, 2 for a usage
 * error (no scenario, or one the program does not have). */
typedef struct e2e_scenario {
    const char *name;
    void (*run)(void);
} e2e_scenario;
int e2e_main(const char *program, int argc, char **argv, const e2e_scenario *scenarios);

/* Starts `barbu serve --listen 127.0.0.1:0 --db DIR/DBNAME --quiet` and
 * reads its port from the line it prints.  With e2e_server_logs set, without
 * --quiet: the server's log lines go to s->err. */
extern bool e2e_server_logs;
void e2e_server_start(e2e_server *s, const char *dbname);
/* The same with more arguments after those (a NULL-terminated list, or
 * NULL): "--max-conns", "50", ... */
void e2e_server_start_with(e2e_server *s, const char *dbname, const char *const *extra);
/* Starts `barbu serve ARGS...` (a NULL-terminated list: every argument after
 * "serve", the --listen address among them) and reads its port from the
 * line it prints; db is kept in s->db (a file or a database's URL). */
void e2e_server_start_args(e2e_server *s, const char *db, const char *const *args);
/* SIGTERM, then waits; returns the exit status (-1 for a signal). */
int e2e_server_stop(e2e_server *s);
/* The same with another signal (SIGINT).  The clients are pumped while it
 * waits, so they receive what the server says as it stops. */
int e2e_server_stop_by(e2e_server *s, int sig);
/* SIGKILL, then waits. */
void e2e_server_kill9(e2e_server *s);
/* Whether the process still runs. */
bool e2e_server_alive(e2e_server *s);
/* A process's CPU seconds so far (user + system), 0 if unknown. */
double e2e_cpu_seconds(pid_t pid);
/* VmRSS in kB, 0 if unknown. */
long e2e_server_rss_kb(const e2e_server *s);

/* ------------------------------------------------------------- client */

typedef struct e2e_logged {
    char *text; /* the message as received */
    long at;    /* the at of the latest view the client had received then */
} e2e_logged;

typedef struct e2e_client {
    char label[24];  /* for messages: "N", "kibitz-all", ... */
    char source[16]; /* the local address it connects from, "" for the default */
    wsc *ws;
    int port;
    char name[32];
    char token[80];
    int seat;       /* 0-3 when seated, else -1 */
    int kibitz;     /* the seat watched, 4 for all; -1 when not kibitzing */
    int table;      /* the table it is at, 0 when none */
    json_t *view;   /* the latest view message */
    long at;        /* its at, -1 before any */
    long acted_at;  /* the at of the view it last acted on, -1 */
    long act_sent;  /* e2e_now_ms when that act was sent */
    bool autoplay;  /* acts by the fixed rule when to move */
    int group;      /* the game it plays in, for e2e_play (0-63) */
    json_t **queue; /* messages received and not yet taken */
    int nq, capq;
    bool logging; /* keeps every message in log */
    e2e_logged *log;
    int nlog, caplog;
    int views;           /* views received */
    bool closed;         /* the connection ended */
    char bye[32];        /* the reason of a bye received */
    long max_latency_ms; /* longest act-to-view time seen */
    long n_latency;
    long sum_latency_ms;
    double tokens; /* the client's own pacing (see e2e_send_text) */
    long tokens_ms;
} e2e_client;

/* A new client connected to port (not yet hello'd); registered with the
 * poll loop. */
e2e_client *e2e_client_new(const char *label, int port);
/* The same from another local address (any 127.x.y.z: the server sees a
 * different client address), kept for reconnects; NULL is 127.0.0.1. */
e2e_client *e2e_client_new_from(const char *label, int port, const char *source);
/* From now on every client connects over TLS (wss://), checking the
 * server's certificate against ca_file (not at all when NULL); off: ws://. */
void e2e_use_tls(bool on, const char *ca_file);
/* Connects again (after a drop or a restart) to port. */
void e2e_client_reconnect(e2e_client *c, int port);
/* Drops the socket at once, without a close frame. */
void e2e_client_drop(e2e_client *c);
void e2e_client_free(e2e_client *c);

/* Sends a JSON object (stolen) or a text as it is.  A client keeps under
 * the server's flood limit (10 messages a second, bursts of 30): it sends
 * at most 9 a second with bursts of 20, reading for everybody while it
 * waits. */
void e2e_send(e2e_client *c, json_t *msg);
void e2e_send_text(e2e_client *c, const char *text);

/* Reads for every client for up to ms (returns early when told to by
 * e2e_pump_until). */
void e2e_pump(int ms);

/* Waits up to ms for a message of this type on c: returns it (the caller
 * decrefs) and removes it from the queue; NULL on timeout. */
json_t *e2e_expect(e2e_client *c, const char *type, int ms);
/* An error with this code (and, when re is not NULL, this "re"); fails the
 * check with what came instead.  Returns the error message or NULL. */
json_t *e2e_expect_error(e2e_client *c, const char *code, const char *re, int ms);
/* Every error a client receives is checked to be a sentence for people (a
 * capital first; a full stop, question or exclamation mark last): a failure
 * when it is not.  e2e_refusals counts the errors checked. */
extern int e2e_refusals;
bool e2e_refusal_sentence(const char *text);
void e2e_refusal_check(const e2e_client *c, const json_t *error);

/* Drops what is queued. */
void e2e_clear(e2e_client *c);
/* The first queued message of a type, without taking it; NULL if none. */
json_t *e2e_peek(e2e_client *c, const char *type);

/* hello with a name: welcome (token kept) and lobby. */
void e2e_hello(e2e_client *c, const char *name);
/* hello with the token: welcome with the same name, and lobby. */
void e2e_resume(e2e_client *c);

/* create: returns the table id; extra holds the fields after "rules". */
int e2e_create(e2e_client *c, const char *rules, json_t *extra);
void e2e_sit(e2e_client *c, int table, int seat);
void e2e_kibitz(e2e_client *c, int table, int seat);

/* ------------------------------------------------------------- playing */

/* The action the fixed rule chooses for c's latest view: the first legal
 * action (as it came, with its "seat"), except in the bidding the first legal bid
 * with the most doubles and redoubles (so that negative contracts are
 * played); at Chinese Poker's arrangement rows built from the hand by a
 * search seeded with it.  NULL when c is not to move. */
json_t *e2e_choose(const e2e_client *c);
/* Whether c is to move in its latest view. */
bool e2e_to_move(const e2e_client *c);
/* Sends the act for c's latest view. */
void e2e_act(e2e_client *c);

/* Plays with every autoplay client, all games at once.  Before a client
 * acts, stop(mover, ctx) may halt its game (its group): the game's clients
 * then wait.  Returns when every game is over or halted; fails after ms or
 * when no view comes for 15 s. */
typedef bool (*e2e_stop_fn)(const e2e_client *mover, void *ctx);
void e2e_play(e2e_stop_fn stop, void *ctx, int ms);
/* A stop for e2e_play: in the play of deal `deal` or a later one, with
 * min_cards to max_cards of the trick down. */
typedef struct e2e_trick_stop {
    int deal;
    int min_cards, max_cards;
} e2e_trick_stop;
bool e2e_stop_mid_trick(const e2e_client *mover, void *ctx);
/* When set, e2e_play calls it for a playing client or a kibitzer that has
 * received `moved` (several nodes: its table is served by another node): it
 * takes the message and brings the client to the table there. */
extern void (*e2e_on_moved)(e2e_client *c);
/* The client stop() halted on last, and the one of each group (NULL when
 * that game was not halted). */
extern e2e_client *e2e_halted;
extern e2e_client *e2e_halted_in[64];
/* A new group number for a game. */
int e2e_new_group(void);

/* Fields of a view message. */
const char *e2e_view_str(const json_t *view_msg, const char *key);
long e2e_view_int(const json_t *view_msg, const char *key);
/* The seats whose cards a view message shows, a bit per seat (N = 1). */
unsigned e2e_hands_seen(const json_t *view_msg);
bool e2e_game_over(const e2e_client *c);

/* ------------------------------------------------------------- cards */

int e2e_seat_parse(const char *text);
/* A card string of the pack of these rules, or -1. */
int e2e_card_of(const barbu_rules *rules, const char *text);
barbu_cards e2e_cards_json(const json_t *array);
json_t *e2e_cards_to_json(barbu_cards cards);
/* An action as sent in act or last, given its seat. */
int e2e_action_parse(const barbu_rules *rules, const json_t *a, int seat, barbu_action *out);

/* ------------------------------------------------------------- records */

/* The record of a table as the server sends it (malloc'd), NULL on error. */
char *e2e_record(e2e_client *c, int table, bool *complete);
/* A record without the tags that differ between two servers (Event, Date,
 * Site); malloc'd. */
char *e2e_record_strip(const char *text, bool names_too);
/* Reads and replays a record; fills the final state.  0 or a BARBU_E*
 * code, with why. */
int e2e_record_replay(const char *text, barbu_state *final, barbu_rules *rules, char *why,
                      size_t cap);
/* Runs `barbu replay` on the text; returns its exit status. */
int e2e_barbu_replay(const char *text);

/* ------------------------------------------------------------- the leak test */

/* Checks every message every logging client received at a table whose
 * actions all passed through the given seated clients (one per seat): see
 * leak.c.  Returns the number of leaks found. */
int e2e_leak_check(const char *rules_name, uint64_t seed, e2e_client **clients, int n,
                   const char *record_text);

#endif
