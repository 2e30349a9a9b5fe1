/*
 * proto.h - the messages of docs/protocol.md: the decoder of client messages
 * (strict: size, schema, unknown and missing fields, ranges) and the JSON
 * builders for what the server sends.  Pure functions of their arguments: no
 * sockets, no clock, no globals, so the decoder can be fuzzed on its own.
 */
#ifndef BARBU_PROTO_H
#define BARBU_PROTO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "barbu/barbu.h"

#define PROTO_VERSION        1
#define PROTO_MAX_MESSAGE    8192 /* bytes in one client message */
#define PROTO_MAX_NAME       20   /* characters (code points) in a handle */
#define PROTO_NAME_BYTES     80   /* bytes of UTF-8 in a handle: 20 of 4 bytes */
#define PROTO_MAX_CHAT       300  /* bytes in a chat line */
#define PROTO_CLOCK_MIN      10   /* seconds a move, when a table has a clock */
#define PROTO_CLOCK_MAX      600
#define PROTO_MAX_HOUSE      4096 /* bytes of house rules */
#define PROTO_TOKEN_LEN      64   /* hexadecimal digits in a token */
#define PROTO_MAX_LEGAL      512  /* legal actions listed in a view message */
#define PROTO_SEAT_ALL       4    /* "all": kibitz every hand (BARBU_ALL_SEATS) */
#define PROTO_DEVICE_MIN     16   /* characters in a browser's device id */
#define PROTO_DEVICE_MAX     64
#define PROTO_PASSWORD_MIN   8 /* characters in a new password */
#define PROTO_PASSWORD_MAX   128
#define PROTO_PASSWORD_BYTES 512  /* bytes of UTF-8 in a password */
#define PROTO_MAX_REPORT     300  /* characters in a report's or a moderator's text */
#define PROTO_PREFS_MAX      1024 /* bytes of a player's kept preferences, as JSON text */

/* Client messages. */
enum {
    PROTO_HELLO,
    PROTO_TABLES,
    PROTO_CREATE,
    PROTO_SIT,
    PROTO_KIBITZ,
    PROTO_LEAVE,
    PROTO_BOT,
    PROTO_ACT,
    PROTO_CHAT,
    PROTO_SCORE,
    PROTO_RECORD,
    PROTO_SUGGEST,
    PROTO_LOGOUT,
    PROTO_CLOSE,
    PROTO_HAND_OVER,
    PROTO_AGAIN,
    PROTO_REGISTER,
    PROTO_PASSWORD,
    /* Moderation (issue 23): administrators' acts and players' reports. */
    PROTO_MOD_CLOSE,
    PROTO_MOD_REMOVE,
    PROTO_BAN,
    PROTO_UNBAN,
    PROTO_REPORT,
    PROTO_MOD_LOG,
    /* A registered player's preferences, kept with the account (issue 24). */
    PROTO_PREFERENCES,
    /* The computer's suggestion for the sender's own next decision, at a
     * table with hints (issue 26). */
    PROTO_HINT,
    PROTO_N_TYPES
};

enum { PROTO_KIBITZ_NONE, PROTO_KIBITZ_SEAT, PROTO_KIBITZ_ALL };
enum { PROTO_TAKEOVER_VOTE, PROTO_TAKEOVER_BOT };
/* create's credit: a seat's points go to its player of record, or deal by
 * deal to who held it (docs/club.md). */
enum { PROTO_CREDIT_RECORD, PROTO_CREDIT_DEALS };

/* An action as sent, before the table's rules give its contract keys a
 * meaning (proto_action_resolve). */
typedef struct proto_action {
    uint8_t type; /* BARBU_ACT_* */
    int8_t seat;  /* the seat named, or -1: it must be the sender's */
    uint8_t n_contracts;
    char contracts[BARBU_MAX_CONTRACTS][16]; /* keys, as sent */
    int8_t trump;                            /* suit, or -1 */
    int8_t rank;                             /* 2..14, or 0 */
    uint8_t doubles, redoubles;              /* a bit per seat */
    barbu_cards cards;                       /* play, pass_on; arrange: back */
    barbu_cards middle;                      /* arrange */
} proto_action;

/* A player's preferences (docs/protocol.md, preferences): each field is
 * there when its bit is set in has. */
enum {
    PROTO_PREF_TABLE_COLOUR = 1 << 0,
    PROTO_PREF_CARD_SPACING = 1 << 1,
    PROTO_PREF_CARD_SIZE = 1 << 2,
    PROTO_PREF_FOUR_COLOUR = 1 << 3,
    PROTO_PREF_SOUND = 1 << 4,
    PROTO_PREF_TRICK_PAUSE = 1 << 5,
};
enum { PROTO_CARDS_SMALL, PROTO_CARDS_MEDIUM, PROTO_CARDS_LARGE };
#define PROTO_CARD_SPACING_MIN 10 /* px */
#define PROTO_CARD_SPACING_MAX 60
#define PROTO_TRICK_PAUSE_MAX  5000 /* ms */

typedef struct proto_prefs {
    unsigned has;         /* PROTO_PREF_* */
    char table_colour[8]; /* "#rrggbb", lowercase */
    int card_spacing;     /* px, PROTO_CARD_SPACING_MIN..MAX */
    int card_size;        /* PROTO_CARDS_* */
    bool four_colour, sound;
    int trick_pause; /* ms, 0..PROTO_TRICK_PAUSE_MAX */
} proto_prefs;

/* One decoded client message.  Fields not sent are zero, -1 for seats, or
 * have their has_ flag false. */
typedef struct proto_msg {
    uint8_t type; /* PROTO_* */
    bool has_id;
    int32_t id;

    /* hello */
    int version;
    char name[PROTO_NAME_BYTES + 1];   /* "" when not sent */
    char token[PROTO_TOKEN_LEN + 1];   /* "" when not sent */
    char device[PROTO_DEVICE_MAX + 1]; /* "" when not sent */
    bool lobby_chat;                   /* asks for the lobby's chat */

    /* create */
    char rules[16];
    char house[PROTO_MAX_HOUSE + 1]; /* "" when not sent */
    bool has_seed;
    uint64_t seed;
    uint8_t kibitz;   /* PROTO_KIBITZ_*, default SEAT */
    int grace;        /* seconds, default 300 */
    uint8_t takeover; /* PROTO_TAKEOVER_*, default VOTE */
    uint8_t bots;     /* a bit per seat */
    char level[16];   /* bot kind, "" when not sent */
    int delay;        /* milliseconds, default 600 */
    int8_t sit;       /* seat, or -1 */
    bool household;   /* people at one address or browser may watch each other */
    bool kibitz_chat; /* kibitzers' chat reaches the players during the game */
    int clock;        /* the move clock in seconds: 0 (none) or 10-600 */

    /* sit, kibitz, score, record, close, hand_over, again: table (0 when not sent); sit, kibitz,
     * bot: seat (0-3, PROTO_SEAT_ALL for kibitz "all"; -1 when not sent) */
    int64_t table;
    int8_t seat;

    /* act */
    proto_action action;
    bool has_at;
    uint32_t at;

    /* chat: trimmed, valid UTF-8 without control characters */
    char text[PROTO_MAX_CHAT + 1];

    /* hello (with name), register, password: the password, never quoted
     * in a refusal; password: the new one.  "" when not sent.  The server
     * wipes them once the message is handled. */
    char password[PROTO_PASSWORD_BYTES + 1];
    char new_password[PROTO_PASSWORD_BYTES + 1];
    bool reg;        /* hello: register the name with the password */
    bool everywhere; /* logout: every token of a registered account */
    /* create: a ladder table (registered players only, no seed, no bots) */
    bool ladder;
    /* create: a rated table (persons registered, computer players allowed,
     * no seed); whose a seat's points are: PROTO_CREDIT_* */
    bool rated;
    uint8_t credit;
    /* create: the players may ask for hints (not at a ladder table) */
    bool hints;
    /* mod_close, mod_remove, ban, unban, report: the reason or the report,
     * trimmed, at most PROTO_MAX_REPORT characters ("" when not sent; a
     * report needs one); ban, unban, report: the handle in name. */
    char mod_text[PROTO_MAX_REPORT * 4 + 1];
    /* preferences: the fields sent */
    proto_prefs prefs;
} proto_msg;

/* Why a message was refused: an error code of docs/protocol.md ("bad_field")
 * and a sentence for people.  re is the message type when it was read
 * ("create"), else NULL; the id when one was read. */
typedef struct proto_error {
    const char *code;
    char text[400];
    const char *re;
    bool has_id;
    int32_t id;
} proto_error;

/* Decodes one client message of len bytes (not NUL-terminated).  Returns 0,
 * or -1 with *err filled. */
int proto_decode(const char *data, size_t len, proto_msg *msg, proto_error *err);

/* The name of a message type ("hello"), for errors and logs. */
const char *proto_type_name(int type);

/* Fills *err (a printf-style text) and returns -1. */
int proto_fail(proto_error *err, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Gives a decoded action its meaning under the table's rules, for a seat:
 * contract keys to indices (BARBU_ECONTRACT-like refusals become
 * "bad_value").  Returns 0, or -1 with *err filled.  Legality is the
 * engine's business (barbu_check). */
int proto_action_resolve(const proto_action *in, const barbu_rules *rules, int seat,
                         barbu_action *out, proto_error *err);

/* A table's rules, as the server builds them and its clients rebuild them
 * from a table message: the preset, with the house rules (a rules file)
 * over it; a house text that names a preset must name the same one.
 * Returns 0, or -1 with why filled ("line 3: ..."). */
int proto_table_rules(const char *preset, const char *house, barbu_rules *rules, char *why,
                      size_t cap);

/* Reads an action as the server shows it (a view's "last": proto_action_json
 * with its seat, and without the cards of another seat's Pass-on or
 * arrangement), for clients.  Returns 0, or -1 with *err filled. */
int proto_action_read(const json_t *obj, proto_action *out, proto_error *err);

/* The cheap checks of a handle (docs/protocol.md, Handles): valid UTF-8
 * without control or invisible characters, 1 to PROTO_MAX_NAME code
 * points, no leading, trailing or double spaces.  The server then applies
 * the whole rule (srv_handle_check). */
bool proto_name_ok(const char *name);

/* Reads a preferences object ({"table_colour": "#1e6b3a", ...}) with the
 * checks of the preferences message: every field optional, each of its
 * type and range, an unknown one refused.  Returns 0, or -1 with *err
 * filled. */
int proto_prefs_read(const json_t *obj, proto_prefs *out, proto_error *err);

/* The fields of from over those of into. */
void proto_prefs_merge(proto_prefs *into, const proto_prefs *from);

/* The preferences as an object of the fields set (a new reference, NULL
 * when out of memory). */
json_t *proto_prefs_json(const proto_prefs *prefs);

/* The characters (code points) of a UTF-8 text. */
size_t proto_utf8_count(const char *text);

/* --- what the server sends.  Each builder returns a new reference (free
 * with json_decref), or NULL when out of memory. */

/* An action: {"type": "play", "seat": "E", "cards": [...]}.  With
 * show_cards false, a Pass-on's or an arrangement's cards are left out. */
json_t *proto_action_json(const barbu_rules *rules, const barbu_action *action, bool show_cards);

/* The "view" object of a view message (docs/protocol.md, view). */
json_t *proto_view_json(const barbu_view *view);

/* The legal actions of the view's seat when it is to move, at most
 * PROTO_MAX_LEGAL; NULL when it is not to move or the list is not given
 * (Chinese Poker's arrangement). */
json_t *proto_legal_json(const barbu_view *view);

/* What a client needs of a table's rules to show them (the table
 * message's "rule_set"): the game's shape, the pack, the doubling and each
 * contract's key, name, abbreviation, kind and times per player. */
json_t *proto_rules_json(const barbu_rules *rules);

/* One deal's result, as "last_deal" and the score message's "deals". */
json_t *proto_result_json(const barbu_rules *rules, const barbu_result *result);

/* {"type": "error", "code": ..., "text": ..., "re": ..., "id": ...} */
json_t *proto_error_json(const proto_error *err);

/* A seat as "N".."W", "all" for PROTO_SEAT_ALL. */
const char *proto_seat_name(int seat);

/* Compact text of a message; malloc'd, the caller frees.  NULL when out of
 * memory. */
char *proto_dump(const json_t *msg, size_t *len);

/* Rebuilds a barbu_view from the "view" object of a view message, as
 * proto_view_json wrote it: every field a client uses comes back exactly
 * (stale slots past a count, such as a trick's cards beyond its n, come
 * back as zero).  view.rules is set to rules, which must be the table's and
 * outlive the view.  Ranges are checked (seats, counts, cards within the
 * pack), so barbu_view_legal and barbu_view_check may be asked of the
 * result.  Returns 0, or -1 with *err filled ("bad_field", "bad_value"). */
int proto_view_parse(const json_t *view_json, const barbu_rules *rules, barbu_view *out,
                     proto_error *err);

/* Reads a deal's result as proto_result_json wrote it (the score message's
 * "deals", a view's "last_deal").  Returns 0, or -1 with *err filled. */
int proto_result_parse(const json_t *result_json, const barbu_rules *rules, barbu_result *out,
                       proto_error *err);

/* --- pieces the builders share, also useful to clients. */

/* A set of cards as an array, highest suit (spades) first and each suit
 * highest first: ["AS", "TH"]. */
json_t *proto_cards_json(barbu_cards cards);

/* Seats as an array, N first: ["E", "W"]. */
json_t *proto_seats_json(unsigned seats);

/* Contract indices as their keys in the rules, lowest index first. */
json_t *proto_contracts_json(const barbu_rules *rules, unsigned contracts);

/* A cut of the Unused Pack as text: "3H", "Joker", "Bridge"; NULL if it is
 * not one. */
json_t *proto_cut_json(int cut);

/* Reads a card given as the whole of text ("QH", "10h"): the card or -1. */
int proto_card_read(const char *text);

/* Reads a seat "N".."W": 0-3, or -1. */
int proto_seat_read(const char *text);

/* The name of a phase ("play") and of a contract kind ("trumps"). */
const char *proto_phase_name(int phase);
const char *proto_kind_name(int kind);

#endif
