/*
 * internal.h - what the files of barbu serve share.
 *
 * One thread owns everything here: the libwebsockets event loop.  Tables,
 * sessions and connections are plain structs linked together and changed
 * only from its callbacks.  The exceptions are the pool of computer
 * players (bots.c), which works on copies of views, the password thread
 * (auth.c), the club's reader (club_http.c), which reads the store
 * through a handle of its own, and the analyses' threads (analysis.c),
 * which work on a copy of a record's text; each hands its answers back through a
 * locked queue and lws_cancel_service.
 *
 * The files:
 *   server.c   barbu_serve: the lws context, the tick, signals, start-up and
 *              shutdown
 *   http.c     the HTTP side: the web folder's files, the built-in page, the
 *              headers of every answer, the WebSocket's Origin check
 *   conn.c     connections: the WebSocket callback, the outbound queue,
 *              reassembly, flood control, dispatch of decoded messages
 *   session.c  sessions: hello, tokens, reconnection, lost connections,
 *              forgetting idle sessions
 *   table.c    tables: seats, the game, the table and view messages
 *   command.c  the table commands: create, sit, kibitz, leave, bot, act
 *   command_life.c  logout, close, hand_over, again (and seats kept for a
 *              game's players)
 *   lobby.c    the lobby list, listed/closed updates, chat
 *   bots.c     the worker threads of the computer players
 *   clock.c    the move clock: a computer player acts for a person whose
 *              time ran out
 *   history.c  score and record, for tables in memory or in the store
 *   restore.c  rebuilding sessions and tables from the store: every table at
 *              start-up, or one table a node adopts
 *   node.c     one node of several on a PostgreSQL database: leases, adoption,
 *              fencing, the shared lobby, moved
 *   util.c     a string-keyed hash map, random numbers, the clock, logging
 *   handle.c   the rule of handles: the shown form and the key (ICU)
 *   auth.c     accounts: the password worker thread (Argon2id), sign-up,
 *              sign-in, tokens, the sign-in limits, register, password
 *   ladder.c   ladder tables (registered players only) and who played which
 *              deals at every table
 *   moderation.c  administrators, bans, reports and the moderation log
 *   club_http.c   the club's pages and JSON twins: routes, checked
 *              parameters, the reader thread with its own store handle
 *              (club_json.c makes the answers)
 *   analysis.c game analyses: their worker threads (at a lower priority
 *              than the computer players'), the queue's limit, the
 *              results kept in the store
 */
#ifndef BARBU_SERVER_INTERNAL_H
#define BARBU_SERVER_INTERNAL_H

#include <jansson.h>
#include <libwebsockets.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "barbu/ai.h"
#include "barbu/barbu.h"
#include "proto.h"
#include "server.h"
#include "store.h"

#define SRV_MAX_TABLES           5000
#define SRV_QUEUE_LIMIT          (256L << 10) /* bytes queued to one client */
#define SRV_QUEUE_BUDGET         (128L << 20) /* bytes queued to all clients */
#define SRV_CONNS_MAX            20000        /* connections at once, below the descriptor limit */
#define SRV_CONNS_ADDR           100          /* connections from one address */
#define SRV_HELLO_TIMEOUT        10           /* seconds to say hello */
#define SRV_SESSIONS_ADDR        100          /* sessions started from one address and held */
#define SRV_TABLES_ADDR          20           /* unfinished tables created from one address */
#define SRV_WAITING_IDLE         120          /* a waiting table with nobody at it is closed */
#define SRV_CREATE_SLOW          120 /* seconds between creations from an address, when full */
#define SRV_SEAT_KEEP            120 /* seconds again keeps a seat for its last player */
/* Lobby chat: lines from one address (a bucket of SRV_CHAT_ADDR_BURST
 * refilled one line every SRV_CHAT_ADDR_EVERY seconds), and from everybody
 * together (SRV_CHAT_ALL_RATE a second, bursts of SRV_CHAT_ALL_BURST). */
#define SRV_CHAT_ADDR_BURST      5
#define SRV_CHAT_ADDR_EVERY      3
#define SRV_CHAT_ALL_RATE        5
#define SRV_CHAT_ALL_BURST       20
#define SRV_FLOOD_RATE           10 /* messages a second */
#define SRV_FLOOD_BURST          30
#define SRV_FLOOD_STRIKES        20 /* slowed this often within a minute: cut */
#define SRV_SESSION_IDLE         3600
/* Accounts (docs/protocol.md, Limits): password jobs queued at most; a
 * registered player's token lasts SRV_TOKEN_DAYS; sign-in is refused after
 * SRV_SIGNIN_KEY_FAILS wrong passwords for one handle within
 * SRV_SIGNIN_KEY_WINDOW seconds, and after SRV_SIGNIN_ADDR_ATTEMPTS
 * attempts from one address within SRV_SIGNIN_ADDR_WINDOW; one address
 * registers SRV_SIGNUP_ADDR accounts an hour. */
#define SRV_AUTH_QUEUE           64
/* Argon2id's cost (crypto_pwhash_str): one hash or check takes 50-250 ms on
 * one core here; measured with bench/pwhash (docs/internals.md). */
#define SRV_AUTH_OPSLIMIT        3
#define SRV_AUTH_MEMLIMIT        (32UL << 20)
/* The password thread's niceness: the loop (0) goes first. */
#define SRV_AUTH_NICE            10
#define SRV_TOKEN_DAYS           30
#define SRV_SIGNIN_KEY_FAILS     5
#define SRV_SIGNIN_KEY_WINDOW    900
#define SRV_SIGNIN_ADDR_ATTEMPTS 20
#define SRV_SIGNIN_ADDR_WINDOW   60
#define SRV_SIGNUP_ADDR          5
#define SRV_SIGNUP_ADDR_WINDOW   3600
#define SRV_CREATED_MAX          3  /* unfinished tables one session has created */
#define SRV_KIBITZERS_MAX        50 /* at one table: each costs every message there */
/* The computer players' level of a table created without one. */
#define SRV_DEFAULT_LEVEL        "medium"
#ifndef SRV_TABLE_IDLE
#define SRV_TABLE_IDLE 600 /* an empty finished table leaves memory */
#endif
#ifndef SRV_GAME_ABANDON
#define SRV_GAME_ABANDON 86400 /* a running game nobody comes back to is closed */
#endif
#ifndef SRV_OVER_RECENT
#define SRV_OVER_RECENT 86400 /* finished tables loaded at start-up */
#endif
#define SRV_NAME_CAP           (PROTO_NAME_BYTES + 16) /* a handle, or "heuristic bot E" */
#define SRV_KEY_CAP            512                     /* a handle's key (handle.c) */
#define SRV_TIMER_SLACK        (10 * LWS_US_PER_MS)    /* a computer player's delay may run over */
/*
 * The longest a computer player of each level thinks, with room to spare.
 * Its budget is counted in work, not time, so it moves with the machine:
 * one core, unloaded (docs/internals.md), medium's slowest decision takes
 * 46-61 ms and hard's 714 ms; on two cores shared with builds, medium's
 * took up to 495 ms (barbu bench --bots medium); easy and random answer
 * within a fraction of a millisecond, forced or not.  A computer player's
 * action is released this long after its turn starts (or after the table's
 * delay, if longer), so that the time it took, short when it had one
 * choice, shows nothing; medium's fits under the default delay of 600 ms.
 */
#define SRV_THINK_EASY_MS      0
#define SRV_THINK_MEDIUM_MS    500
#define SRV_THINK_HARD_MS      1500
/* How often an action the store refused is tried again. */
#define SRV_STORE_RETRY_MS     2000
/* Tables of computer players only that are not over, on the server (the
 * default of --max-bot-tables) and created by one session. */
#define SRV_BOT_TABLES_MAX     16
#define SRV_BOT_TABLES_SESSION 1
/* Reports one session may send in SRV_REPORTS_WINDOW seconds, and the
 * entries mod_log lists of reports and of acts. */
#define SRV_REPORTS_MAX        5
#define SRV_REPORTS_WINDOW     600
#define SRV_MOD_LOG_MAX        100

typedef struct srv_server srv_server;
typedef struct srv_conn srv_conn;
typedef struct srv_session srv_session;
typedef struct srv_table srv_table;

/* ------------------------------------------------------------------ util.c */

/* A hash map from strings to pointers.  Keys are copied. */
typedef struct srv_map_entry {
    struct srv_map_entry *next;
    void *value;
    char key[];
} srv_map_entry;

typedef struct srv_map {
    srv_map_entry **buckets;
    size_t n_buckets, count;
} srv_map;

void srv_map_free(srv_map *map);
void *srv_map_get(const srv_map *map, const char *key);
int srv_map_put(srv_map *map, const char *key, void *value);
void srv_map_del(srv_map *map, const char *key);

/* The map key of a table id. */
void srv_table_key(int64_t id, char buf[24]);

/* Bytes from getrandom(2); 0 or -1. */
int srv_random(void *buf, size_t len);

/* Seconds on the monotonic clock, and since the epoch. */
int64_t srv_now(void);
int64_t srv_wall(void);

void srv_log(const srv_server *srv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------------------- handle.c */

/* Checks a handle against the rule of docs/protocol.md (Handles).  0 with
 * display (its NFC form, PROTO_NAME_BYTES + 1 bytes) and key (SRV_KEY_CAP
 * bytes) filled; or -1 with a sentence in why, display "" and key the
 * handle's key when only its mix of scripts was refused (so that a
 * look-alike of a registered handle can be named), else "". */
int srv_handle_check(const char *utf8, char display[], char key[], char *why, size_t cap);
/* The key of a handle (of a name stored before the rule: its bytes in
 * lower case when the rule refuses it). */
void srv_handle_key(const char *utf8, char key[SRV_KEY_CAP]);
/* Whether two handles are the same handle (the same key). */
bool srv_handle_equal(const char *a, const char *b);
/* Whether two handles are the same but for letter case and compatibility
 * forms (their NFKC_Casefold forms are equal): same key but not this means
 * one imitates the other. */
bool srv_handle_same_case(const char *a, const char *b);

/* ------------------------------------------------------------------ conn.c */

/* What one client address (an IPv4 address, or an IPv6 /64) holds, for
 * the per-address limits.  Kept in srv_server.addrs while it holds a
 * connection or a session. */
typedef struct srv_addr {
    int conns;
    int sessions;
    int chat_tokens;     /* lobby chat lines it may send now */
    int64_t chat_refill; /* when the next line is added */
    int64_t last_create; /* when it last created a table; 0 */
} srv_addr;

#define SRV_ADDR_CAP 56

/* The address key of a socket's peer ("" when unknown): a dotted IPv4
 * address (IPv4-mapped IPv6 too), or the first 64 bits of an IPv6 one,
 * "2001:db8:1:2::/64". */
void srv_addr_key(int fd, char out[SRV_ADDR_CAP]);
/* The entry of an address, made when missing (NULL when out of memory). */
srv_addr *srv_addr_get(srv_server *srv, const char *key);
/* Removes an address's entry once it holds nothing. */
void srv_addr_release(srv_server *srv, const char *key);

typedef struct srv_buf {
    struct srv_buf *next;
    size_t len;
    unsigned char data[]; /* LWS_PRE bytes of headroom, then the message */
} srv_buf;

struct srv_conn {
    srv_server *srv;
    struct lws *wsi;
    uint64_t id;
    srv_conn *prev, *next;
    srv_session *session; /* NULL until hello, and once replaced */
    char peer[64];
    char addr[SRV_ADDR_CAP]; /* its address key, for the per-address limits */
    int64_t opened;          /* when it connected: hello is due within the timeout */
    bool said_hello;

    /* Outbound: one message a writable callback. */
    srv_buf *out_head, *out_tail;
    size_t out_bytes; /* with each message's header and headroom */
    size_t out_big;   /* the largest message queued since the queue was empty */
    bool closing;     /* a bye is queued: close once it is written */

    /* Inbound: fragments of the message being read. */
    char *in;
    size_t in_len, in_cap;
    bool in_too_big, in_binary;

    /* Flood control: a token bucket refilled by the tick. */
    int tokens;
    bool slowed;
    int64_t strikes[SRV_FLOOD_STRIKES]; /* when it was slowed, a ring */
    int n_strikes;

    /* Accounts (auth.c): the password job out for it (it takes no other
     * message meanwhile), and the hash of the token it said hello with ("" for
     * none), which logout revokes. */
    struct srv_auth_job *auth_job;
    char token_hash[STORE_TOKEN_HASH_LEN + 1];
    /* A node: when this connection last had the store asked who holds a
     * table the shared lobby does not list (lws_now_usecs), 0 never. */
    int64_t node_asked;
};

int srv_ws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len);

/* http.c: the HTTP requests and the WebSocket handshake's Origin check. */
int srv_http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                      size_t len);
/* The web folder's resolved path (malloc'd), or NULL when it has none. */
char *srv_web_root(const char *dir);
/* The headers lws adds to every HTTP answer (the vhost's). */
const struct lws_protocol_vhost_options *srv_http_headers(void);
/* The slot lws keeps for each connection (the WebSocket's holds its
 * srv_conn in the first pointer): an HTTP answer made here being written,
 * and the club request under way (club_http.c). */
typedef struct srv_http_pss {
    void *page;
    struct srv_club_req *club;
    bool unread;     /* the request sent a body that is not read: close after */
    bool body_taken; /* ... read by the club (POST /club/api/replay) */
} srv_http_pss;
/* Whether a request says a body follows it. */
bool srv_http_has_body(struct lws *wsi);
/* srv_http_send with an Allow header (a 405's) when allow is not NULL. */
int srv_http_send_allow(struct lws *wsi, void *user, int status, const char *type, char *body,
                        size_t len, const char *disposition, bool close, const char *allow);
/* Sends an answer made here: body (malloc'd, taken) of len bytes with its
 * status, content type, maybe a Content-Disposition, and cache-control:
 * no-cache; close: the connection closes once it is written. */
int srv_http_send(struct lws *wsi, void *user, int status, const char *type, char *body, size_t len,
                  const char *disposition, bool close);
/* A short HTML page saying what was not found (malloc'd). */
char *srv_missing_page(const char *sentence);
/* Whether the web folder has the file a path names, and serves it. */
bool srv_http_file_exists(const srv_server *srv, const char *uri);
int srv_http_file(struct lws *wsi, const srv_server *srv, const char *uri);

/* club_http.c: the club's pages and their JSON twins (docs/club.md),
 * answered by a reader thread with its own store handle. */
typedef struct srv_club srv_club;
int srv_club_start(srv_server *srv);
/* Joins the reader and drops the answers not yet sent (before the lws
 * context goes). */
void srv_club_stop(srv_server *srv);
/* Sends the reader's answers (LWS_CALLBACK_EVENT_WAIT_CANCELLED). */
void srv_club_drain(srv_server *srv);
int srv_club_http(struct lws *wsi, srv_server *srv, void *user, const char *uri, size_t len);
int srv_club_body(struct lws *wsi, srv_server *srv, void *user, enum lws_callback_reasons reason,
                  void *in, size_t len);
/* The connection closed: its answer, when it comes, is dropped. */
void srv_club_closed(srv_server *srv, void *user);

/* "scheme://host[:port]" in lower case, without a trailing slash or the
 * default port, into out; -1 when in is not an http or https origin. */
int srv_origin_normalize(const char *in, char *out, size_t cap);

/* Queues a message (takes the reference) to a connection.  NULL-safe. */
void srv_send(srv_conn *c, json_t *msg);
/* Queues a message already dumped (copies the text). */
void srv_send_text(srv_conn *c, const char *text, size_t len);
/* Queues bye and closes the connection once it is written. */
void srv_bye(srv_conn *c, const char *reason);
/* An error reply to a message (re, id from msg; msg may be NULL). */
void srv_error(srv_conn *c, const proto_msg *msg, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Adds "id" to a direct answer. */
json_t *srv_with_id(json_t *reply, const proto_msg *msg);
/* The cap on connections: the one wanted, and at most half the
 * descriptors (the limit is read again, as it may change under us). */
void srv_conns_cap(srv_server *srv);
/* The tick's part: refill buckets and resume reading, close connections
 * that did not say hello in time. */
void srv_conns_tick(srv_server *srv);
/* Whether a new connection from this address may be taken now. */
bool srv_conn_allowed(srv_server *srv, const char *addr);

/* --------------------------------------------------------------- session.c */

struct srv_session {
    char token[PROTO_TOKEN_LEN + 1];
    char name[PROTO_NAME_BYTES + 1];
    srv_conn *conn;
    srv_table *table; /* seated or kibitzing there, else NULL (the lobby) */
    int seat;         /* 0-3 when it holds a seat of table, else -1 */
    int kibitz;       /* 0-3 or PROTO_SEAT_ALL when kibitzing, else -1 */
    int kibitz_next;  /* the seat it watches from the next deal, else -1 */
    int64_t idle_since;
    bool lobby_chat;         /* asked for the lobby's chat (hello's lobby_chat) */
    char addr[SRV_ADDR_CAP]; /* the address that started it; "" after a restart */
    /* Where it said hello from last: the client's address (as addr, an
     * IPv6 /64 as one) and, from the browser, the id its stored state keeps
     * ("" when none).  Kibitzing compares them with the players' (command.c). */
    char place_addr[SRV_ADDR_CAP];
    char device[PROTO_DEVICE_MAX + 1];
    srv_session *prev, *next;
    bool registered; /* its handle is registered and it signed in with the password */
    bool admin;      /* ... and the account is an administrator's (moderation.c) */
    /* When it sent its last reports, a ring (moderation.c's limit). */
    int64_t reports_at[SRV_REPORTS_MAX];
    int n_reports;
    /* A node: the table it was at when another node took it (it heard
     * moved), until its next hello; 0 for none (node.c). */
    int64_t moved_from;
};

void srv_hello(srv_conn *c, const proto_msg *msg);
/* 64 random hexadecimal digits (libsodium's randombytes_buf). */
void srv_new_token(char out[PROTO_TOKEN_LEN + 1]);
/* welcome (and the lobby) to the connection: token is the client's own,
 * expires is said for a registered session. */
void srv_welcome(srv_conn *c, srv_session *s, const char *token, int64_t expires, bool has_id,
                 int32_t id);
/* The connection becomes the session's (an older one hears bye replaced);
 * token_hash is the hash of the token it holds. */
void srv_session_attach(srv_conn *c, srv_session *s, bool lobby_chat, const char *device,
                        const char *token_hash);
/* The session is back: its seat is present again, its table and view sent. */
void srv_session_resume(srv_session *s);
/* The session's handle was just registered: its table shows it. */
void srv_session_registered(srv_session *s);
/* A connection with a session closed (or was cut). */
void srv_session_lost(srv_session *s);
/* Forgets a session at once: its name and token are free (the caller has
 * taken it from its table and its connection). */
void srv_session_free(srv_server *srv, srv_session *s);
srv_session *srv_session_add(srv_server *srv, const char *token, const char *name);
srv_session *srv_session_by_token(srv_server *srv, const char *token);
void srv_sessions_tick(srv_server *srv);
void srv_sessions_free(srv_server *srv);

/* ----------------------------------------------------------------- table.c */

/* Who watched which seat during the deal under way, after they stopped
 * watching (a kibitzer still watching is on the table's list). */
typedef struct srv_watch {
    char token[PROTO_TOKEN_LEN + 1];
    char addr[SRV_ADDR_CAP];
    char device[PROTO_DEVICE_MAX + 1];
    int seat;
} srv_watch;

typedef struct srv_seat {
    srv_session *person;       /* whose seat it is: sitting, away, or displaced by a bot */
    bool bot;                  /* a computer player sits there now */
    bool took_over;            /* the computer player sits in a person's place */
    char level[16];            /* the computer player's kind */
    char name[SRV_NAME_CAP];   /* who sits there now, "" when nobody */
    char player[SRV_NAME_CAP]; /* the player of record, "" before the game */
    int64_t away_since;        /* the person lost the connection or stood up; 0 */
    bool grace_over;           /* the grace period has ended */
    /* The computer player's own bot, kept for the game so that it keeps the
     * tricks of each deal as an arena player does (docs/internals.md).  Made
     * when the seat gets its computer player, freed when a person takes the
     * seat or the table goes; NULL while a job has it (srv_job.bot). */
    barbu_bot *ai;
} srv_seat;

struct srv_table {
    srv_server *srv;
    int64_t id;
    char preset[16];
    char *house; /* "" for none */
    uint64_t seed;
    int64_t created;
    char creator[PROTO_TOKEN_LEN + 1]; /* the creating session's token; "" after a restart */
    char creator_addr[SRV_ADDR_CAP];   /* the address it was created from; "" after a restart */
    barbu_rules rules;                 /* the state points at it */

    int kibitz, grace, takeover, delay; /* PROTO_KIBITZ_*, s, PROTO_TAKEOVER_*, ms */
    bool household;                     /* one address or browser may play and watch */
    bool kibitz_chat;                   /* kibitzers' chat reaches the players in the game */
    bool seed_chosen;                   /* the creator chose the seed: knows every deal */
    int clock;                          /* the move clock, seconds a move; 0 for none */
    char creator_name[SRV_NAME_CAP];    /* who made the table */
    char level[16];
    int revision; /* how barbu read the rules when the table was made (SRV_RULES_REVISION) */

    bool started;
    barbu_state state;
    barbu_action *actions;
    uint32_t n, cap;
    barbu_result *results; /* the deals completed */
    int n_results, cap_results;

    srv_seat seats[4];
    srv_session **kibitzers;
    int n_kibitzers, cap_kibitzers;
    srv_watch *watches; /* the seats watched in deal watch_deal by those gone */
    int n_watches, cap_watches, watch_deal;
    int kibitz_deal; /* the deal whose views kibitzers had last */

    bool job_out;  /* a computer player is thinking */
    bool timer_on; /* a computer player's action waits for its time (or a retry) */
    /* The computer player's answer, held until release_at (measured from
     * its turn's start), or until the store takes it. */
    struct srv_job *held;
    lws_usec_t release_at;
    bool store_failing; /* the players were told an action could not be saved */
    /* On the server's list of waiting tables, sorted by timer_due. */
    srv_table *timer_prev, *timer_next;
    lws_usec_t timer_due;
    int64_t empty_since; /* nobody connected at it, for reaping; 0 */
    int listed_deal;     /* the deal last announced in the lobby */
    int64_t listed_at;   /* when it was last announced (srv_now) */
    bool listed_due;     /* a change waits for the next second's announcement */
    bool broken;         /* its stored rows did not read or its actions did not replay */
    /* Leaving is safe, a new game is one click (command_life.c); none of
     * these outlive a restart. */
    bool handed_over;               /* its creator gave it to the computer players */
    int64_t again_id;               /* the table its players' next game is at; 0 */
    char again_by[SRV_NAME_CAP];    /* who started that game */
    char reserved[4][SRV_NAME_CAP]; /* seats kept for the players of the last game */
    int64_t reserved_until;         /* until when (srv_now); 0 when none */
    int64_t reserved_wall;          /* the same on the wall clock, for the texts */
    bool no_game;                   /* broken before any game could be rebuilt: nothing to show */
    bool ladder;                    /* registered players only (ladder.c) */
    bool rated;                     /* its game changes ratings: persons registered (club.c) */
    bool hints;                     /* its players may ask for hints (hint.c); never rated */
    /* The seats whose hint is being thought (a bit per seat): one at a time,
     * for the person who asked it (hint_asker, a session token): a person
     * who takes the seat meanwhile is not kept waiting by another's hint.
     * And each seat's last hint, given again when asked at the same action. */
    unsigned hint_out;
    char hint_asker[4][PROTO_TOKEN_LEN + 1];
    struct srv_hint_last {
        bool have;
        uint32_t at;
        barbu_action action;
    } hint_last[4];
    /* The club's end of its game could not be written (a store failure):
     * it is tried again each SRV_CLUB_RETRY seconds, dated by the first
     * try, and the table stays in memory until it is kept (club.c). */
    bool club_pending;
    int64_t club_finished;                /* srv_wall() of the first try; 0 before */
    int64_t club_tried;                   /* srv_now() of the last try */
    int credit;                           /* PROTO_CREDIT_*: who takes a seat's points (club.c) */
    struct srv_deal_player *deal_players; /* who played which deals, in order */
    int n_deal_players, cap_deal_players;

    /* The move clock (clock.c): the seat whose clock runs (-1 for none),
     * for the action t->n was then, until clock_due (lws_now_usecs). */
    int clock_seat;
    uint32_t clock_n;
    lws_usec_t clock_due;
    bool clock_job; /* a computer player acts for the seat whose time ran out */
    lws_sorted_usec_list_t clock_sul;

    srv_table *prev, *next;

    /* Fair deals: a table made without a chosen seed deals from a 256-bit
     * key of libsodium's (its seed is then only its computer players'),
     * committed to from the start and shown once the game is over. */
    bool keyed;
    uint8_t key[BARBU_KEY_BYTES];

    /* A node lost the table's lease (another node took it): nothing more
     * is written or played for it, and it leaves memory at once (node.c). */
    bool lost;
    /* A node: the epoch of the lease it holds on the table (lease_take's,
     * 1 for a table it created), 0 alone. */
    int64_t epoch;
};

/* Starts the table's game from its key or its seed (t->state). */
int srv_table_init_game(srv_table *t, bool no_game);
/* A keyed table's commitment, and its key once the game is over, into a
 * table message or a lobby summary. */
void srv_table_key_json(const srv_table *t, json_t *o);

srv_table *srv_table_new(srv_server *srv, int64_t id);
void srv_table_free(srv_table *t);
srv_table *srv_table_find(srv_server *srv, int64_t id);
/* The table msg->table names, or NULL after answering no_table (command.c). */
srv_table *srv_table_of(srv_conn *c, const proto_msg *msg);
/* Removes a table from memory (it stays in the store): its people go back
 * to the lobby and the lobby hears closed. */
void srv_table_close(srv_table *t);

bool srv_table_over(const srv_table *t);
bool srv_table_paused(const srv_table *t);
bool srv_seat_present(const srv_seat *st);
bool srv_seat_free(const srv_table *t, int seat);
const char *srv_table_state_name(const srv_table *t);
int srv_table_store_state(const srv_table *t);
/* Options as stored, and back. */
char *srv_options_text(const srv_table *t);
void srv_options_parse(srv_table *t, const char *text);

/*
 * How barbu reads the rules of the tables it makes now.  Revision 2 reads
 * the Fife game's later Calls by the booklet's Joker sentence (record
 * format 2); a table whose options have no revision was made before, and
 * goes on by the reading it started with.
 */
#define SRV_RULES_REVISION 2

/* A stored table's rules: its preset and house rules as barbu read them at
 * the table's revision.  A Fife table of revision 1 gains the line
 * "later-call-joker = no" in *house (reallocated), which its clients and
 * its records then carry.  0, or -1 with the reason in why. */
int srv_table_rules(const char *preset, char **house, int revision, barbu_rules *rules, char *why,
                    size_t cap);

/* The revision an options text records (1 when it has none). */
int srv_options_revision(const char *text);

/* The seat's computer player gets its own bot (an older one is freed),
 * seeded from the table's seed and the seat, and shown the views of the
 * deal under way at the seat's turns (srv_seat_views_feed), so that it knows
 * the deal's tricks as one that played through.  0 or -1 (no memory, or no
 * such kind: the seat's next job then makes one). */
int srv_seat_ai_make(srv_table *t, int seat);
/* Frees the seat's own bot (a person took the seat). */
void srv_seat_ai_drop(srv_table *t, int seat);
/* The bot sees the views of the deal under way that the seat had at its
 * turns (barbu_bot_observe), as a player of the seat that played through
 * this deal: a seat's computer player rebuilt or coming in mid-deal, or the
 * hint's bot, which thinks as the seat's computer player would. */
void srv_seat_views_feed(const srv_table *t, barbu_bot *bot, int seat);

/* Writes a seat to the store; 0 or -1. */
int srv_seat_store(srv_table *t, int seat);
/* Puts a computer player in a seat (in memory and in the store). */
int srv_seat_bot(srv_table *t, int seat, const char *level, bool took_over);
/* A computer player's name at a table: "heuristic bot E". */
void srv_bot_name(const char *level, int seat, char *buf, size_t cap);

/* Starts the game once four seats are filled; returns whether it did. */
bool srv_table_maybe_start(srv_table *t);
/* Applies an action that barbu_check accepted, after storing it.
 * Returns 0, or -1 when the store refused it (nothing changed). */
int srv_table_commit(srv_table *t, const barbu_action *a);
/* Runs the computer player whose turn it is, after the table's delay. */
void srv_table_schedule(srv_table *t);
void srv_table_timer_cancel(srv_table *t);
void srv_timers_stop(srv_server *srv);
/* Messages. */
json_t *srv_table_json(const srv_table *t, const srv_session *you);
void srv_send_table(srv_table *t, srv_session *to);
void srv_send_view(srv_table *t, srv_session *to);
/* The table message to everyone at the table except `except`. */
void srv_broadcast_table(srv_table *t, const srv_session *except);
/* A notice to the people at the table and its kibitzers. */
void srv_broadcast_notice(srv_table *t, const char *code, const char *text);
/* A message already dumped to the kibitzers of t, and to its seated
 * players when players is true. */
void srv_table_send_text(srv_table *t, const char *text, size_t len, bool players);
/* Whether every seat is a computer player's. */
bool srv_table_bots_only(const srv_table *t);
/* Views to everybody after an action (last may be NULL). */
void srv_broadcast_views(srv_table *t, const barbu_action *last, const srv_session *except);
void srv_kibitz_remove(srv_table *t, srv_session *s);
/* The seats watched in the deal under way by kibitzers who stopped (and
 * players who left): srv_watch_note remembers one, until the deal ends. */
const srv_watch *srv_watches(srv_table *t, int *n);
void srv_watch_note(srv_table *t, const srv_session *s, int seat);
/* The session stops holding its seat or watching (no messages sent). */
void srv_table_detach(srv_session *s);
void srv_tables_tick(srv_server *srv);
/* A bot's answer arrived. */
void srv_bots_drain(srv_server *srv);

/* --------------------------------------------------------------- command.c */

void srv_cmd_create(srv_conn *c, const proto_msg *msg);
void srv_cmd_sit(srv_conn *c, const proto_msg *msg);
void srv_cmd_kibitz(srv_conn *c, const proto_msg *msg);
void srv_cmd_leave(srv_conn *c, const proto_msg *msg);
void srv_cmd_bot(srv_conn *c, const proto_msg *msg);
void srv_cmd_act(srv_conn *c, const proto_msg *msg);
/* The table where the sender sits in person (its seat is the session's,
 * not handed to a computer player), for the commands only a seated player
 * sends; else NULL, after answering: nothing when the message was sent
 * before it heard its table went to another node, not_seated with the
 * sentence `why` otherwise. */
srv_table *srv_seated_table(srv_conn *c, const proto_msg *msg, const char *why);
/* ------------------------------------------------------------------ hint.c */

/* Whether create's hints go with its other options (not at a ladder or
 * rated table); when not, bad_value is sent. */
bool srv_hint_create_ok(srv_conn *c, const proto_msg *msg);
/* hint: the medium computer player's choice for the sender's own next
 * decision, from its own view, thought on the workers. */
void srv_cmd_hint(srv_conn *c, const proto_msg *msg);
/* A hint's answer arrived (bots.c's done queue): sent unless stale. */
void srv_hint_answer(srv_table *t, struct srv_job *job);

/* suggest: the easy computer player's rows for the sender's own Chinese
 * Poker hand, from its own view; nothing is played. */
void srv_cmd_suggest(srv_conn *c, const proto_msg *msg);
/* Someone sat at t, or came back to a seat there: the table's kibitzers
 * at that player's place stop watching (unless the table is a
 * household's), each told why and sent the lobby. */
void srv_kibitzers_send_away(srv_table *t, const srv_session *player);
/* A seat whose person went back to the lobby during the game. */
void srv_seat_left(srv_table *t, int seat);
/* What leave does at the table (everything but the lobby to the leaver). */
void srv_table_leave(srv_session *s);
/* After seats changed: maybe start, the table (and view) to the newcomer
 * and the others, the lobby, the computer player's turn. */
void srv_seats_changed(srv_table *t, srv_session *newcomer);
/* Whether the session may create a table now (the limits of create); when
 * not, the error is sent.  bots_only: the table would have computer
 * players only. */
bool srv_create_allowed(srv_conn *c, const proto_msg *msg, bool bots_only);
/* Makes a table as msg asks (after srv_create_allowed) and sits the
 * session at msg->sit; NULL after sending an error.  *sat tells whether
 * the seat was taken. */
srv_table *srv_table_make(srv_conn *c, const proto_msg *msg, bool *sat);
/* Seats a session (checked by the caller); -1 when the store refused. */
int srv_seat_person(srv_table *t, int seat, srv_session *s);
/* The name a seat is kept for now (NULL when none). */
const char *srv_seat_reserved(const srv_table *t, int seat);
/* ["bob", null, ...] (N E S W) while a seat is kept, else NULL. */
json_t *srv_reserved_json(const srv_table *t);
/* Whether the session is t's player of record of that seat. */
bool srv_player_of_record(const srv_table *t, int seat, const srv_session *s);
/* Whether the table counts among its creator's unfinished tables. */
bool srv_table_counts_for(const srv_table *t, const char *token);

/* ---------------------------------------------------------- command_life.c */

void srv_cmd_logout(srv_conn *c, const proto_msg *msg);
void srv_cmd_close(srv_conn *c, const proto_msg *msg);
void srv_cmd_hand_over(srv_conn *c, const proto_msg *msg);
void srv_cmd_again(srv_conn *c, const proto_msg *msg);
/* Reservations that ran out are dropped and announced (the tick). */
void srv_reservations_tick(srv_table *t, int64_t now);

/* ----------------------------------------------------------------- lobby.c */

json_t *srv_summary_json(const srv_table *t);
void srv_send_lobby(srv_conn *c, const proto_msg *msg);
/* Drops the lobby list's cached text (after a change, and every tick). */
void srv_lobby_forget(srv_server *srv);
/* listed to the sessions in the lobby (at most once a second a table;
 * srv_lobby_flush, on the tick, sends what waited). */
void srv_lobby_listed(srv_table *t);
void srv_lobby_flush(srv_server *srv);
void srv_lobby_closed(srv_server *srv, int64_t id);
void srv_cmd_chat(srv_conn *c, const proto_msg *msg);
/* Refills the allowance of lobby chat lines of everybody together. */
void srv_lobby_chat_tick(srv_server *srv);

/* ------------------------------------------------------------------ bots.c */

typedef struct srv_job {
    struct srv_job *next;
    int64_t table;
    uint32_t at;
    int seat;
    uint64_t seed;
    bool people; /* a person sits at the table: the job comes first */
    bool clock;  /* for a person whose move clock ran out (clock.c) */
    bool hint;   /* a hint for the person at seat (hint.c): who asked, with its id */
    char token[PROTO_TOKEN_LEN + 1];
    bool has_id;
    int32_t id;
    /* The seat's own bot (srv_seat.ai), which the job holds while it thinks;
     * or a hint's own bot, shown the seat's views of the deal (hint.c);
     * NULL for the clock's jobs, which make a fresh bot of `kind`.  The loop
     * gives a seat's bot back to the seat, or frees it. */
    barbu_bot *bot;
    char kind[16];
    barbu_rules rules; /* the view points at this copy */
    barbu_view view;
    int err; /* the answer */
    barbu_action action;
} srv_job;

typedef struct srv_bots srv_bots;

srv_bots *srv_bots_start(struct lws_context *ctx, int threads);
/* Takes the job. */
void srv_bots_submit(srv_bots *bots, srv_job *job);
/* Frees a job and the bot it holds. */
void srv_job_free(srv_job *job);
/* A finished job, or NULL. */
srv_job *srv_bots_done(srv_bots *bots);
/* Stops and joins the workers, freeing every job left. */
void srv_bots_stop(srv_bots *bots);
int srv_bots_threads(const srv_bots *bots);

/* -------------------------------------------------------------- analysis.c */

/* Game analyses (docs/club.md, Analysis; docs/internals.md): threads of
 * their own at a lower priority than the computer players, a bounded
 * queue, the results kept in the store. */
#define SRV_ANALYSES_DEFAULT 1  /* threads (--analyses) */
#define SRV_ANALYSES_QUEUED  16 /* analyses waiting at most (--analyses-queued) */
#define SRV_ANALYSIS_NICE    10 /* the threads' niceness: the loop and the players (0) first */
/* Analyses waiting or running that one client address may have asked
 * for: one address cannot take the whole queue from the others.  Joining
 * an analysis already asked counts for nothing. */
#define SRV_ANALYSES_ADDR    2
/* Seconds a finished analysis stays in memory after it is kept, so that a
 * request that read the store just before it was written joins it. */
#define SRV_ANALYSIS_LINGER  60
/* The expert's sampling seed: the same record, the same analysis. */
#define SRV_ANALYSIS_SEED    1
/* "game:ID" or "record:" and 64 hexadecimal digits. */
#define SRV_ANALYSIS_KEY_CAP 80

typedef struct srv_analyses srv_analyses;
typedef struct srv_analysis_job srv_analysis_job;

/* What the HTTP side answers about an analysis: the status (200 done, 202
 * waiting or running, 500 failed, 429 or 503 refused) and the JSON body
 * (malloc'd), or for an error the sentence. */
typedef struct srv_analysis_answer {
    int status;
    char *body;
    char error[300];
} srv_analysis_answer;

/* Starts the threads of --analyses (none for --analyses 0); 0 or -1
 * (printed). */
int srv_analyses_start(srv_server *srv);
/* Cancels the running analyses, joins the threads, keeps the ones that
 * finished since the last drain, frees every job. */
void srv_analyses_stop(srv_server *srv);
/* Keeps the finished analyses in the store (LWS_CALLBACK_EVENT_WAIT_CANCELLED). */
void srv_analyses_drain(srv_server *srv);
/* Forgets the finished analyses that lingered long enough. */
void srv_analyses_tick(srv_server *srv);
bool srv_analyses_on(const srv_server *srv);
/* The analysis of key, seat and level in memory (waiting, running, or
 * finished a moment ago): 1 with *out filled, 0 when there is none (a
 * failed one is forgotten for a POST, which starts it again), -1 out of
 * memory. */
int srv_analyses_find(srv_server *srv, const char *key, int seat, const char *level, bool post,
                      srv_analysis_answer *out);
/* Starts it (or joins the one under way) with the record's text (taken),
 * for the client at address addr (srv_addr_key): 1 with *out filled (202;
 * 429 when addr has SRV_ANALYSES_ADDR waiting or running; 503 when
 * analyses are off or too many wait), -1 out of memory. */
int srv_analyses_submit(srv_server *srv, const char *key, int seat, const char *level, char *record,
                        const char *addr, srv_analysis_answer *out);

/* ------------------------------------------------------------------ auth.c */

typedef struct srv_auth srv_auth;
typedef struct srv_auth_job srv_auth_job;

/* The password worker thread; NULL when it cannot start. */
srv_auth *srv_auth_start(struct lws_context *ctx);
void srv_auth_stop(srv_auth *auth);
/* Answers finished password jobs (LWS_CALLBACK_EVENT_WAIT_CANCELLED). */
void srv_auth_drain(srv_server *srv);
/* The connection closes: its job's answer will be dropped. */
void srv_auth_forget_conn(srv_conn *c);
/* hello with a password (and maybe register), its name checked. */
void srv_auth_hello(srv_conn *c, const proto_msg *msg, const char *display, const char *key);
/* Whether a guest may say hello as name (key: its key); refuses with
 * registered or confusable when it is, or looks like, a registered one. */
bool srv_auth_guest_allowed(srv_conn *c, const proto_msg *msg, const char *name, const char *key);
/* hello with a token whose hash no guest session has: 1 when it signed in
 * a registered player, 0 when no account has the token, -1 after refusing. */
int srv_auth_token_hello(srv_conn *c, const proto_msg *msg, const char *hash);
/* logout's part for a registered player: forgets this connection's token,
 * or every token of the account.  0 or -1 (logged). */
int srv_auth_revoke(srv_conn *c, bool everywhere);
void srv_cmd_register(srv_conn *c, const proto_msg *msg);
void srv_cmd_password(srv_conn *c, const proto_msg *msg);
/* The account message. */
json_t *srv_account_json(const srv_session *s, const char *token, int64_t expires);
/* The tick's part: forgets the sign-in counts whose windows ended. */
void srv_auth_tick(srv_server *srv);
void srv_auth_free(srv_server *srv);

/* ----------------------------------------------------------------- clock.c */

/* Starts the move clock for the person who must act now (in full, for each
 * new action), or stops it while nobody is to act or the table is paused.
 * Returns whether it started or stopped. */
bool srv_clock_update(srv_table *t);
/* The same, and everybody's view says so when it started or stopped. */
void srv_clock_check(srv_table *t);
/* {"N": ms left} for the seat whose clock runs, or NULL. */
json_t *srv_clock_json(const srv_table *t);
/* A computer player's action for a person whose time ran out arrived. */
void srv_clock_answer(srv_table *t, srv_job *job);
void srv_clock_cancel(srv_table *t);
/* Stops every table's clock timer (before the lws context goes). */
void srv_clocks_stop(srv_server *srv);

/* --------------------------------------------------------------- history.c */

void srv_cmd_score(srv_conn *c, const proto_msg *msg);
void srv_cmd_record(srv_conn *c, const proto_msg *msg);
/* A game read from a store handle with nothing of the server's, so on any
 * thread (the club's reader): 1 found, 0 no such table, -1 with why. */
typedef struct srv_history srv_history;
int srv_history_read(store *db, int64_t id, srv_history **out, char *why, size_t cap);
bool srv_history_started(const srv_history *h);
bool srv_history_over(const srv_history *h);
/* Its record as the record message has it (a keyed game's key withheld
 * until the game is over); 0, or -1 with why. */
int srv_history_record(const srv_history *h, char **text, size_t *len, char *why, size_t cap);
/* The Fife score sheet page as the score message's sheet_html (malloc'd),
 * or NULL (other games, no deal yet). */
char *srv_history_sheet_html(const srv_history *h, const barbu_serve_options *opt);
void srv_history_free(srv_history *h);

/* --------------------------------------------------------------- restore.c */

/* Loads sessions and tables from the store; 0 or -1 (with a message). */
int srv_restore(srv_server *srv);
/* Rebuilds one table from the store as srv_restore rebuilds each (a node
 * adopting it): its row, seats, actions and who played which deals, and
 * the sessions of its seats (session_get when not in memory).  1 when it
 * is in memory after (it may have closed again at once: over long ago),
 * 0 when the store has no such table, -1 on failure (logged). */
int srv_restore_table(srv_server *srv, int64_t id);
/* A session that is not in memory, from the store by its id (a node: the
 * session started on another one); NULL when there is none.  A registered
 * player's session is marked so. */
srv_session *srv_session_fetch(srv_server *srv, const char *token);

/* ------------------------------------------------------------------ node.c */

typedef struct srv_node srv_node;
/* Joins the database as node --node once the server listens (real_port,
 * tls: the default public URL), and starts the ticks of adoption, renewal
 * and the shared lobby.  0, or -1 after printing why. */
int srv_node_start(srv_server *srv, const char *host, int real_port, bool tls);
/* A server without --node on a database where a node holds a table's
 * lease would play beside it: refused (-1, after printing why); 0 when no
 * node holds one (or the store has no nodes: SQLite). */
int srv_node_alone_ok(srv_server *srv);
/* A clean stop: the ticks end and every lease held is given up, so that
 * other nodes adopt the tables at once. */
void srv_node_stop(srv_server *srv);
void srv_node_free(srv_server *srv);
/* Before a client's message: when the leases were last renewed longer
 * ago than a renewal should take (the node was stopped, or the database
 * slow), they are renewed now, and the tables lost leave memory.  True
 * when the sender's own table left so (it heard moved: its message is
 * dropped). */
bool srv_node_stale(srv_conn *c);
/* The main tick's part (every second): the shared lobby's news, the nodes'
 * origins now and then. */
void srv_node_tick(srv_server *srv);
/* A write for t answered rc: STORE_FENCED means another node took the
 * table, which is then dropped from memory (soon, off the caller's stack)
 * without any write, its people told `moved`.  Returns rc. */
int srv_node_check(srv_table *t, int rc);
/* The owner's part of listed and closed: the table's summary (NULL: it
 * left memory) into the shared lobby. */
void srv_node_listed(srv_table *t, json_t *summary);
/* A table left memory: closed in the shared lobby and its lease given up
 * (nothing written when it was lost). */
void srv_node_left(srv_server *srv, int64_t id, bool lost);
/* A table not in memory that another node holds: `moved` sent (with the
 * id of msg) and true; false when no other node holds it. */
bool srv_node_elsewhere(srv_conn *c, const proto_msg *msg, int64_t table);
/* A message for the sender's table (act, bot) from a session whose table
 * just went to another node, sent before it heard so: `moved` again
 * instead of an error, and true. */
bool srv_node_moved_again(srv_conn *c, const proto_msg *msg);
/* After welcome: a session seated at a table of another node hears
 * `moved`. */
void srv_node_welcomed(srv_conn *c, srv_session *s);
/* The other nodes' tables at the end of the lobby list; the summary of one
 * of them (a borrowed reference, NULL when none). */
void srv_node_lobby(srv_server *srv, json_t *list);
json_t *srv_node_remote(srv_server *srv, int64_t id);
/* The address of a page (path, "/rules/table/7") at the node that holds
 * a table not in memory here, as the shared lobby knows it: true with out
 * filled, false when it knows none (no database read: for anonymous HTTP). */
bool srv_node_page_url(srv_server *srv, int64_t table, const char *path, char *out, size_t cap);
/* Whether an origin (normalized) is that of a node's public URL. */
bool srv_node_origin_ok(srv_server *srv, const char *origin);
/* A registered player's session id: the same on every node (the hash of a
 * text no client is given, so no token reaches it). */
void srv_registered_id(const char *key, char out[STORE_TOKEN_HASH_LEN + 1]);
/* A --db value as it may be shown: a URL's secrets left out (the password
 * of its user information, every password= and sslpassword= of its query);
 * db_shown.c. */
void srv_db_shown(const char *db, char *out, size_t cap);

/* ---------------------------------------------------------------- ladder.c */

/* Who held a seat from an action of a deal on (a row of deal_players). */
typedef struct srv_deal_player {
    int deal;
    uint32_t at;
    int seat;
    bool registered;
    bool bot;
    char name[SRV_NAME_CAP];
    char level[16];
} srv_deal_player;

/* create: a ladder table's conditions (sends the error and returns false
 * when they are not met). */
bool srv_ladder_create_ok(srv_conn *c, const proto_msg *msg);
/* sit: only registered players sit at a ladder table. */
bool srv_ladder_sit_ok(srv_conn *c, const proto_msg *msg, const srv_table *t);
/* bot, hand_over: no computer player sits down at a ladder table before its
 * game (it may keep an away player's seat during the game). */
bool srv_ladder_bot_ok(srv_conn *c, const proto_msg *msg, const srv_table *t);
/* A seat was written: during a deal, a new holder is recorded. */
void srv_deal_players_seat(srv_table *t, int seat);
/* A deal starts (the first one, or the next): its four players. */
void srv_deal_players_deal(srv_table *t);
/* After a restart: the rows of a restored table. */
void srv_deal_players_restore(srv_table *t);
/* {"N": "Zoë", ...} for one deal of rows (NULL when none). */
json_t *srv_deal_players_json(const srv_deal_player *rows, int n, int deal);
/* The rows of a table from the store (malloc'd into *rows); 0 or -1. */
int srv_deal_players_load(srv_server *srv, int64_t table, srv_deal_player **rows, int *n);
/* The same from any store handle, logging nothing (-1: store_error says
 * why, or out of memory). */
int srv_deal_players_read(store *db, int64_t table, srv_deal_player **rows, int *n);

/* ------------------------------------------------------------ moderation.c */

typedef struct srv_mod srv_mod;

/* Loads the administrators and bans, and keeps the --admin handles as
 * administrators in the store; 0 or -1 (with a message). */
int srv_mod_start(srv_server *srv);
void srv_mod_free(srv_server *srv);
/* The key moderation knows a handle by (its case and look-alikes folded). */
void srv_mod_key(const char *name, char *key, size_t cap);
bool srv_mod_banned(const srv_server *srv, const char *name);
bool srv_mod_banned_key(const srv_server *srv, const char *key);
/* Whether a handle's key was named an administrator (--admin, kept in the
 * store's admins): a registered session of it signed in is one. */
bool srv_mod_admin_key(const srv_server *srv, const char *key);
/* The refusal of a banned handle's hello. */
void srv_mod_refuse_banned(srv_conn *c, const proto_msg *msg, const char *name);
void srv_cmd_mod_close(srv_conn *c, const proto_msg *msg);
void srv_cmd_mod_remove(srv_conn *c, const proto_msg *msg);
void srv_cmd_ban(srv_conn *c, const proto_msg *msg);
void srv_cmd_unban(srv_conn *c, const proto_msg *msg);
void srv_cmd_report(srv_conn *c, const proto_msg *msg);
void srv_cmd_mod_log(srv_conn *c, const proto_msg *msg);
/* sit: a handle an administrator removed from a table does not sit there
 * again. */
bool srv_mod_sit_ok(srv_conn *c, const proto_msg *msg, const srv_table *t);

/* ------------------------------------------------------------------ club.c */

/* create: a rated table's conditions (sends the error and returns false
 * when they are not met). */
bool srv_club_create_ok(srv_conn *c, const proto_msg *msg);
/* sit: only registered persons sit at a rated table. */
bool srv_club_sit_ok(srv_conn *c, const proto_msg *msg, const srv_table *t);
/* The game started: its row in the store, running, with its players. */
void srv_club_begin(srv_table *t);
/* The table goes to STORE_OVER: the one way every part of the server sets
 * it.  A started game's end is kept in the club (over, or abandoned when
 * its game did not end), with credit, places and ratings.  t may be NULL
 * for a table that never made it to memory.  0, or -1 when the store
 * refused the state (logged). */
int srv_table_set_over(srv_server *srv, int64_t id, srv_table *t);
/* Tries again to keep the ended games whose club row could not be written
 * (srv_tables_tick, each second). */
void srv_club_retry(srv_table *t, int64_t now);
#define SRV_CLUB_RETRY 10
/* Start-up (restore.c): a table in memory whose game ended (over, or
 * closed before its end) without its club row saying so gets its
 * game_end now. */
void srv_club_catch_up(srv_table *t, bool over_in_store);
/* Whether a table needs that catch-up: started, STORE_OVER, and its game's
 * row missing or running. */
bool srv_club_needs_catch_up(srv_server *srv, int64_t id);
/* The score message's "deals" (history.c): each completed deal's result
 * and, when known, who played it. */
json_t *srv_score_deals_json(const barbu_rules *rules, const barbu_result *results, int n,
                             const srv_deal_player *dp, int n_dp);

/* ---------------------------------------------------------------- server.c */

struct srv_server {
    const barbu_serve_options *opt;
    char *web_root; /* the web folder's resolved path (malloc'd), or NULL */
    struct lws_context *ctx;
    struct lws_vhost *vhost;
    store *store;
    srv_bots *bots;
    int max_tables;
    int max_bot_tables; /* tables of computer players only, not over */
    bool quiet, stopping;

    /* The limits in force (the options, or their defaults). */
    int max_conns, conns_per_addr, hello_timeout;
    int conns_wanted; /* max_conns before the descriptor limit, read every tick */
    size_t queue_limit, queue_budget;
    int sessions_per_addr, tables_per_addr, waiting_idle, create_interval;
    int seat_keep; /* seconds again keeps a seat for the last game's player */

    srv_conn *conns;
    uint64_t next_conn;
    int n_conns;
    size_t queued;   /* bytes queued to every client together */
    srv_map addrs;   /* address key -> srv_addr */
    int chat_tokens; /* lobby chat lines anybody may send now */

    srv_session *sessions;
    srv_map by_token, by_name;

    srv_table *tables;
    srv_map table_map;
    int n_tables;
    char *lobby_text; /* the lobby message without id, made when first asked */
    size_t lobby_len;

    lws_sorted_usec_list_t tick_sul;
    int64_t ticks;
    /* The tables whose computer player waits for its delay, soonest first;
     * one lws timer for the first.  Most delays are alike, so a table goes
     * in at or near the end: lws's own timer list is sorted by a walk from
     * its start, which costs as much as there are tables. */
    srv_table *timer_head, *timer_tail;
    lws_sorted_usec_list_t timer_sul;
    lws_sorted_usec_list_t budget_sul; /* cuts the slowest readers when over the budget */
    long refused;                      /* connections refused since the last tick */
    int n_wsi;       /* lws's sockets of every kind (handshakes, HTTP, WebSockets) */
    int max_sockets; /* the cap on n_wsi, from the descriptor limit */

    /* Accounts (auth.c): the password worker, and the limits in force. */
    srv_auth *auth;
    int auth_queue;           /* password jobs waiting at most (SRV_AUTH_QUEUE) */
    int64_t token_life;       /* seconds a registered player's token works */
    int signin_key_fails;     /* wrong passwords for one handle ... */
    int signin_key_window;    /* ... within this many seconds, then refused */
    int signin_addr_attempts; /* sign-in attempts from one address ... */
    int signin_addr_window;   /* ... within this many seconds */
    int signup_addr_accounts; /* accounts registered from one address ... */
    int signup_addr_window;   /* ... within this many seconds */
    srv_map signin_keys, signin_addrs, signup_addrs; /* key or address -> counts */
    int64_t tokens_swept;   /* srv_now() when expired tokens were last forgotten; 0 */
    srv_mod *mod;           /* administrators, bans, removals (moderation.c) */
    srv_club *club;         /* the club's reader (club_http.c) */
    srv_node *node;         /* --node: one node of several (node.c); NULL alone */
    srv_analyses *analyses; /* game analyses (analysis.c); NULL with --analyses 0 */
};

/* ----------------------------------------------------------------- prefs.c */

/* A registered player's kept preferences to the connection, after its
 * welcome (nothing when none are kept, or for a guest). */
void srv_prefs_welcome(srv_conn *c, const srv_session *s);
void srv_cmd_preferences(srv_conn *c, const proto_msg *msg);

/* tls.c: whether the certificate and key files of --tls-cert/--tls-key can
 * be read and belong together; 0, or -1 with why (a phrase, no capital). */
int srv_tls_check(const char *cert_path, const char *key_path, char *why, size_t cap);

#endif
