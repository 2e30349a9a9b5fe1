/*
 * connect.h - barbu connect, the terminal client of barbu serve.
 *
 * Six files share one client value:
 *   client.c  the token file, the status line and notes, the run
 *   net.c     the WebSocket (libwebsockets): connecting, reconnecting with
 *             backoff, the outbound queue; the keyboard and a timer on the
 *             same loop
 *   nodes.c   the server's addresses: the one given, every node a `moved`
 *             named; following `moved`, and trying them in turn
 *   msg.c     the protocol: what the server says, and what we send
 *   account.c registered players and moderation: the password (a file, or
 *             asked without echo), the /commands of the chat line, their
 *             answers
 *   screen.c  the lobby, the create form, the panels around the table, and
 *             the keys; the table itself is the terminal table of src/tui
 *             (play_paint, play_key) drawing the view the server sent
 * The options are read by the subcommand (src/cli/connect.c).
 * Nothing here decides a rule: the view comes from the server, the menus
 * from barbu_view_legal, and every action is checked by barbu_view_check
 * before it is sent and by the server after.
 */
#ifndef BARBU_CONNECT_H
#define BARBU_CONNECT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "barbu/barbu.h"
#include "proto.h"
#include "tui.h"

#define CN_DEFAULT_URL  "ws://127.0.0.1:2118"
#define CN_NAME_CAP     96  /* a handle as shown (20 characters of UTF-8), or a computer's */
#define CN_PASSWORD_CAP 520 /* 128 characters of UTF-8, and the NUL */
#define CN_CHAT_LINES   200 /* chat lines kept */
#define CN_RETRY_MAX_MS 30000
#define CN_KNOWN_MAX    16 /* node addresses kept (the first given, then each moved url) */

/* The connection. */
enum {
    CN_OFFLINE,    /* waiting to try again (retry_at) */
    CN_CONNECTING, /* the WebSocket is being opened */
    CN_HELLO,      /* open; hello sent, waiting for welcome */
    CN_READY,      /* welcomed */
    CN_STOPPED,    /* not trying again: replaced, or the server refused us */
};

/* The screen. */
enum { CN_LOBBY, CN_TABLE };

/* What covers the screen for a moment (besides barbu play's overlays). */
enum {
    CN_NO_OVERLAY,
    CN_FORM,       /* the lobby: a new table */
    CN_PICK_SIT,   /* the lobby: which seat to sit at */
    CN_PICK_WATCH, /* the lobby: which seat to kibitz */
    CN_MENU,       /* the table: the table's menu */
    CN_PICK_BOT,   /* the table: which seat gets a computer player */
    CN_LEAVE,      /* the table: leave it? */
    CN_SCORE,      /* the table: the server's score window */
    CN_SEATS,      /* the table: seats and kibitzers (small terminals) */
    CN_CHATLOG,    /* the chat log (small terminals) */
};

enum { CN_CHAT_LOBBY, CN_CHAT_TABLE, CN_CHAT_NOTE };

typedef struct cn_chat_line {
    uint8_t kind; /* CN_CHAT_* */
    bool aside;   /* a kibitzer's line heard by kibitzers only (scope "kibitzers") */
    char from[CN_NAME_CAP];
    char text[PROTO_MAX_CHAT + 1];
} cn_chat_line;

/* A table in the lobby (docs/protocol.md, lobby). */
typedef struct cn_summary {
    int64_t id;
    char rules[16];
    bool house;
    char state[12];
    char kibitz[8];
    struct {
        bool taken;
        bool bot, away;
        char name[CN_NAME_CAP];
        bool registered; /* a registered player's seat; a person's without: a guest's */
    } seat[4];
    int kibitzers, deal, deals;
    char seed_by[CN_NAME_CAP]; /* who chose the seed (knows the deals), or "" */
    bool ladder;               /* registered players only */
} cn_summary;

/* A seat of the table we are at (docs/protocol.md, table). */
typedef struct cn_seat {
    bool taken; /* somebody sits there */
    char name[CN_NAME_CAP];
    char player[CN_NAME_CAP];
    bool bot, connected, free;
    bool knows_deals; /* the creator, who chose the seed */
    int away;         /* seconds away when the table message came, -1 if present */
    bool registered;  /* a registered player (a person without it is a guest) */
} cn_seat;

typedef struct cn_table {
    int64_t id;
    char rules_name[16];
    char house[PROTO_MAX_HOUSE + 1];
    char kibitz[8];
    char takeover[8];
    char state[12];
    char seed[24];             /* once the game is over */
    char seed_by[CN_NAME_CAP]; /* who chose the seed (knows the deals), or "" */
    bool household;            /* a player's address may watch the hands */
    bool kibitz_chat;          /* kibitzers' chat reaches the players */
    int grace, delay;
    cn_seat seat[4];
    int n_kibitzers;
    char kibitzers[256]; /* "carol, dave" */
    int you_seat;        /* 0-3, or -1 when kibitzing */
    int kibitz_seat;     /* 0-3, PROTO_SEAT_ALL, or -1 when seated */
    int kibitz_next;     /* the seat watched from the next deal, or -1 */
    long long received;  /* ms: when the table message came (away counts on) */
    bool ladder;         /* registered players only */
    bool hints;          /* its players may ask for hints (the ? key) */
    char commitment[65]; /* the hash of the deals' key, from the start */
    char key[65];        /* the key, once the game is over */
} cn_table;

/* The levels the create form offers, in the order it cycles through
 * them (msg.c), and the default: medium. */
#define CN_N_LEVELS     4
#define CN_LEVEL_MEDIUM 1
extern const char *const CN_LEVELS[CN_N_LEVELS];

/* The create form. */
enum {
    CN_F_RULES,
    CN_F_SEED,
    CN_F_SEAT,
    CN_F_BOTS,
    CN_F_LEVEL,
    CN_F_KIBITZ,
    CN_F_DELAY,
    CN_F_GRACE,
    CN_F_TAKEOVER,
    CN_F_HOUSEHOLD,
    CN_F_KIBITZ_CHAT,
    CN_F_HOUSE,
    CN_F_LADDER,
    CN_F_HINTS,
    CN_F_CREATE,
    CN_F_COUNT
};

typedef struct cn_form {
    int field;
    int preset;       /* index for barbu_preset_name */
    char seed[24];    /* "" for a fresh one */
    int seat;         /* 0-3, or 4: do not sit */
    int bots;         /* 0: none, 1: the empty seats */
    int level;        /* index in CN_LEVELS: easy, medium, hard, random */
    int kibitz;       /* 0 seat, 1 all, 2 none */
    char delay[8];    /* ms */
    char grace[8];    /* s */
    int takeover;     /* 0 vote, 1 bot */
    bool household;   /* a player's address may watch the hands */
    bool kibitz_chat; /* kibitzers may talk to the players in the game */
    char house[256];  /* a rules file to send as the house rules, "" for none */
    bool ladder;      /* a ladder table: registered players only */
    bool hints;       /* its players may ask for hints (never with ladder) */
} cn_form;

typedef struct cn_net cn_net; /* net.c */

/* A server's address (ws://HOST:PORT/PATH or wss://...). */
typedef struct cn_addr {
    char url[640]; /* written out whole, as shown */
    char host[256];
    int port;
    char path[256];
    bool tls;
} cn_addr;

typedef struct cn {
    /* Options. */
    char url[640];
    char host[256];
    int port;
    char path[256];
    bool tls;
    char ca_file[4096]; /* --ca: a certificate (PEM) trusted besides the system's */
    bool self_signed;   /* --self-signed: the server's certificate is not checked */
    char name[PROTO_NAME_BYTES + 1];
    char token_path[4096];
    char token[PROTO_TOKEN_LEN + 1];

    /* The nodes (nodes.c): every address known, the first given first; url,
     * host, port, path and tls above are the one in use, known[known_at]. */
    cn_addr known[CN_KNOWN_MAX];
    int n_known, known_at;
    int hops;            /* moved followed since the last table message */
    int move_wait_ms;    /* the next attempt after this (following moved), or -1 */
    bool moving;         /* the connection ends because we follow moved */
    int64_t asked_table; /* the last sit or kibitz sent: its table (0: none) */
    int asked_seat;      /* ... its seat (PROTO_SEAT_ALL: every hand) */
    bool asked_sit;      /* ... and whether it was sit */
    int64_t redo_table;  /* to send again after the next welcome (0: nothing) */
    int redo_seat;
    bool redo_sit;

    /* The connection (net.c). */
    cn_net *net;
    int conn;           /* CN_OFFLINE ... */
    int attempts;       /* failed attempts since the last welcome */
    long long retry_at; /* ms: the next attempt, while offline */
    char conn_why[160]; /* why the last connection ended */
    char server[64];    /* the server's version, from welcome */
    int32_t next_id;
    bool quit;
    bool was_ready; /* the connection that ended had been welcomed */
    bool fatal;     /* the server refused the hello: not tried again */

    /* What the server told us. */
    cn_summary *tables;
    int n_tables, cap_tables;
    int screen; /* CN_LOBBY, CN_TABLE */
    cn_table table;
    barbu_rules rules; /* the table's rules: the view points at them */
    bool have_rules, have_view;
    uint32_t at; /* the latest view's action count */
    /* The hint asked (the ? key) or shown, for the view at hint_at. */
    bool hint_asked, hint_shown;
    uint32_t hint_at;
    int64_t rejoin_id;      /* after a welcome: the table the session may get back */
    long long rejoin_until; /* ms: and until when the table screen waits for it */
    bool leaving;           /* leave sent: the next lobby message is ours */
    bool want_score;        /* the score window waits for the score message */
    char names[4][CN_NAME_CAP + 24];
    char title[160];
    char title_keys[64];
    barbu_result *results; /* the table's deals so far */
    int n_results, cap_results;
    barbu_sheet sheet; /* the Fife game's sheet of those deals */
    bool over_shown;   /* the final sheet has been put up once */
    int watch_seat;    /* kibitzing every hand: the seat at the bottom */
    play_ui ui;        /* the terminal table's state (src/tui) */

    /* The score window (the server's score message). */
    char **score_lines;
    int n_score_lines, score_scroll;

    /* Chat. */
    cn_chat_line chat[CN_CHAT_LINES];
    int n_chat;      /* lines kept (the oldest first) */
    bool typing;     /* the chat line is open */
    bool chat_panel; /* the table screen has room for the chat panel */
    char line[PROTO_MAX_CHAT + 1];
    int chat_scroll;

    /* The screen. */
    int overlay; /* CN_* overlay */
    int sel;     /* the lobby: the highlighted table */
    int list_top;
    cn_form form;
    char status[240]; /* the status line (lobby) */
    bool status_error;
    bool dirty; /* redraw after this turn of the loop */

    /* Registered players and moderation (account.c). */
    char password_file[4096];       /* --password-file: its first line */
    bool want_register;             /* --register */
    bool ask_password;              /* --password: asked before the screen */
    char password[CN_PASSWORD_CAP]; /* until the welcome, then wiped */
    int password_tries;             /* refused passwords typed */
    bool token_resumed;             /* the hello carried the saved token */
    bool screen_on;                 /* curses is up: a question suspends it */
    bool registered, admin;         /* from the welcome */
    long long expires;              /* when the token stops working, or 0 */
    int logging_out;                /* 1: /logout sent, 2: /logout all */
    bool signed_out;                /* our own logout was answered */
} cn;

/* ------------------------------------------------------------ client.c */

/* A client with nothing connected yet (the create form's defaults, the
 * table's screen set up for a game run elsewhere); NULL when out of
 * memory.  Free with cn_free, which accepts NULL. */
cn *cn_new(void);
void cn_free(cn *c);

/* Sets c->token_path to the default token file, one per server and name
 * (from c->host, c->port and c->name): in $XDG_STATE_HOME/barbu/, or
 * ~/.local/state/barbu/.  Returns nonzero when neither variable is set. */
int cn_token_default_path(cn *c);

/* Runs the client once the options are set (url, host, port, path, tls,
 * name, token_path): takes up the saved token, opens the screen, runs the
 * loop until the user quits or a signal comes, and restores the terminal.
 * Returns the exit status (1 when the terminal or the network library
 * fails or the server refused us; 128 + the signal). */
int cn_run(cn *c);

long long cn_now_ms(void);

/* Whether SIGINT, SIGTERM or SIGHUP came: the loop ends. */
bool cn_signalled(void);

/* Saves the session's token in the token file (0600); forgets it with
 * token NULL.  Errors go to the status line. */
void cn_token_save(cn *c, const char *token);

/* A note in the chat log (connection lost, joined ...). */
void cn_note(cn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The status line of the lobby, and the message line of the table. */
void cn_status(cn *c, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ----------------------------------------------------------- net.c */

/* Creates the loop: the keyboard, the timer, and the first connection.
 * Prints the reason and returns nonzero on failure. */
int cn_net_start(cn *c);

/* Runs the loop until c->quit. */
void cn_net_run(cn *c);

/* Tears down the loop and every connection. */
void cn_net_free(cn *c);

/* Queues a message (stealing the reference).  Returns 0, or -1 when there
 * is no connection to send it on (the message is dropped). */
int cn_send(cn *c, json_t *msg);

/* Closes the connection: to try again after the backoff, or (stop) not
 * until the user asks. */
void cn_net_drop(cn *c, bool stop);

/* Tries again at once (after a stop, or to cut a wait short). */
void cn_net_retry_now(cn *c);

/* ----------------------------------------------------------- nodes.c */

/* ws://HOST:PORT/PATH, wss://..., HOST:PORT or HOST ([::1]:2118 too; the
 * port 2118 and the path /ws by default).  0, or -1 when it does not read. */
int cn_addr_parse(const char *url, cn_addr *a);

/* Adds an address to the ones known (once), returning its index. */
int cn_known_add(cn *c, const cn_addr *a);

/* Makes known[i] the address the next connection goes to. */
void cn_known_use(cn *c, int i);

/* The connection failed or dropped: the next attempt goes to the next
 * address known (with one, the same again). */
void cn_known_next(cn *c);

/* A moved message: the session goes to url with the same token (or, with
 * url NULL, to the same node again in a second), and what was asked for at
 * the table is asked again after the welcome. */
void cn_follow(cn *c, int64_t table, const char *url);

/* After a welcome: sends again the sit or kibitz that a moved cut short. */
void cn_redo(cn *c);

/* ----------------------------------------------------------- msg.c */

/* The connection is open: say hello. */
void cn_on_open(cn *c);

/* One message from the server (any text: a malformed one is shown and
 * ignored). */
void cn_on_message(cn *c, const char *text, size_t len);

/* The connection ended (why: a sentence, or NULL). */
void cn_on_closed(cn *c, const char *why);

/* Client messages. */
void cn_send_tables(cn *c);
void cn_send_create(cn *c);
void cn_send_sit(cn *c, int64_t table, int seat);
void cn_send_kibitz(cn *c, int64_t table, int seat);
void cn_send_leave(cn *c);
void cn_send_bot(cn *c, int seat);
void cn_send_act(cn *c, const barbu_action *action);
/* Asks for a hint for the view we have (a table with hints, our turn). */
void cn_send_hint(cn *c);
void cn_send_chat(cn *c, const char *text);
void cn_send_score(cn *c);
void cn_send_record(cn *c);

/* Builds ui->names and the titles from the table. */
void cn_table_names(cn *c);

/* ------------------------------------------------------- account.c */

/* The first line of a file as the password: 0, or -1 with why. */
int cn_password_read_file(const char *path, char *out, size_t cap, char *why, size_t why_cap);
/* Asks on the terminal (/dev/tty) without echo, the screen suspended if it
 * is up (c may be NULL): 0, or -1 when nothing was typed or it failed. */
int cn_password_prompt(cn *c, const char *prompt, char *out, size_t cap);
void cn_password_wipe(char *p, size_t cap);
/* Before the screen: --password-file read, --register's password asked
 * twice, --password's asked.  0, or the exit status after saying why. */
int cn_password_before(cn *c);
/* The hello's password and register fields. */
void cn_hello_fields(cn *c, json_t *hello);
/* A hello refused with code: true when handled (the password asked and the
 * hello sent again), false to stop with the reason. */
bool cn_hello_refused(cn *c, const char *code, const char *text);
/* The welcome's account fields; a resumed guest's --register. */
void cn_welcomed(cn *c, const json_t *welcome);
/* A chat line that is a command ("/logout all"): true when it was one. */
bool cn_command(cn *c, const char *line);
/* account, done, reported, report, mod_log: true when it was one. */
bool cn_account_message(cn *c, const char *type, const json_t *m);
/* bye logout, signed_out or banned: true when it was one. */
bool cn_account_bye(cn *c, const char *reason);

/* -------------------------------------------------------- screen.c */

/* Draws the whole screen. */
void cn_draw(cn *c);

/* Handles one key. */
void cn_key(cn *c, int key);

/* The score window's text from a score message (lines copied). */
void cn_score_set(cn *c, char **lines, int n);

#endif
