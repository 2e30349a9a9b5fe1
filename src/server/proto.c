/*
 * proto.c - the client messages of docs/protocol.md and the JSON pieces the
 * server sends about them: a strict decoder (size, schema, unknown and
 * missing fields, ranges), actions both ways, errors and results.  The view
 * object and its parser live in proto_view.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

static const char *const TYPE_NAMES[PROTO_N_TYPES] = {
    "hello",     "tables", "create",   "sit",         "kibitz",    "leave",      "bot",
    "act",       "chat",   "score",    "record",      "suggest",   "logout",     "close",
    "hand_over", "again",  "register", "password",    "mod_close", "mod_remove", "ban",
    "unban",     "report", "mod_log",  "preferences", "hint",
};

/* The fields each message may carry, besides "type" and "id": at most
 * PROTO_MAX_FIELDS (create has the most). */
#define PROTO_MAX_FIELDS 20
static const char *const TYPE_FIELDS[PROTO_N_TYPES][PROTO_MAX_FIELDS] = {
    [PROTO_HELLO] = {"version", "name", "token", "device", "lobby_chat", "password", "register"},
    [PROTO_TABLES] = {0},
    [PROTO_CREATE] = {"rules", "house", "seed", "kibitz", "grace", "takeover", "bots", "level",
                      "delay", "sit", "household", "kibitz_chat", "clock", "ladder", "rated",
                      "credit", "hints"},
    [PROTO_SIT] = {"table", "seat"},
    [PROTO_KIBITZ] = {"table", "seat"},
    [PROTO_LEAVE] = {0},
    [PROTO_BOT] = {"seat", "level"},
    [PROTO_ACT] = {"action", "at"},
    [PROTO_CHAT] = {"text"},
    [PROTO_SCORE] = {"table"},
    [PROTO_RECORD] = {"table"},
    [PROTO_LOGOUT] = {"everywhere"},
    [PROTO_CLOSE] = {"table"},
    [PROTO_HAND_OVER] = {"table"},
    [PROTO_AGAIN] = {"table"},
    [PROTO_REGISTER] = {"password"},
    [PROTO_PASSWORD] = {"password", "new_password"},
    [PROTO_MOD_CLOSE] = {"table", "text"},
    [PROTO_MOD_REMOVE] = {"table", "seat", "text"},
    [PROTO_BAN] = {"name", "text"},
    [PROTO_UNBAN] = {"name", "text"},
    [PROTO_REPORT] = {"table", "name", "text"},
    [PROTO_MOD_LOG] = {0},
    [PROTO_PREFERENCES] = {"prefs"},
};

static const char *const ACTION_NAMES[] = {"declare", "bid", "play",   "pass",
                                           "pass_on", "cut", "arrange"};
#define N_ACTIONS ((int)(sizeof ACTION_NAMES / sizeof ACTION_NAMES[0]))

/* The fields of each action, besides "type". */
static const char *const ACTION_FIELDS[N_ACTIONS][4] = {
    [BARBU_ACT_DECLARE] = {"seat", "contracts", "trump", "rank"},
    [BARBU_ACT_BID] = {"seat", "double", "redouble"},
    [BARBU_ACT_PLAY] = {"seat", "cards"},
    [BARBU_ACT_PASS] = {"seat"},
    [BARBU_ACT_PASS_ON] = {"seat", "cards"},
    [BARBU_ACT_CUT] = {"seat"},
    [BARBU_ACT_ARRANGE] = {"seat", "back", "middle"},
};

static const char SEAT_LETTERS[] = "NESW";
static const char SUIT_LETTERS[] = "CDHS"; /* by suit index: clubs first */
static const char RANK_LETTERS[] = "??23456789TJQKA";

/* ------------------------------------------------------------ small words */

const char *proto_type_name(int type)
{
    return type >= 0 && type < PROTO_N_TYPES ? TYPE_NAMES[type] : "?";
}

const char *proto_seat_name(int seat)
{
    static const char *const names[] = {"N", "E", "S", "W", "all"};
    return seat >= 0 && seat <= PROTO_SEAT_ALL ? names[seat] : "?";
}

int proto_seat_read(const char *text)
{
    if (text == NULL || text[0] == '\0' || text[1] != '\0')
        return -1;
    const char *p = strchr(SEAT_LETTERS, text[0]);
    return p != NULL ? (int)(p - SEAT_LETTERS) : -1;
}

int proto_card_read(const char *text)
{
    const char *end;
    int card = barbu_card_parse(text, &end);
    return card >= 0 && *end == '\0' ? card : -1;
}

const char *proto_phase_name(int phase)
{
    static const char *const names[] = {"cut",     "declare", "pass_on", "bid",
                                        "arrange", "play",    "over"};
    return phase >= 0 && phase <= BARBU_PHASE_OVER ? names[phase] : "?";
}

const char *proto_kind_name(int kind)
{
    static const char *const names[] = {"tricks",   "trumps", "domino",
                                        "patience", "ravage", "chinese"};
    return kind >= 0 && kind <= BARBU_KIND_CHINESE ? names[kind] : "?";
}

int proto_fail(proto_error *err, const char *code, const char *fmt, ...)
{
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->text, sizeof err->text, fmt, ap);
    va_end(ap);
    return -1;
}

/* At most max bytes of a client's text for an error, cut between
 * characters so that the error stays valid UTF-8. */
static const char *clip(const char *text, char *buf, size_t max)
{
    size_t n = strlen(text);
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
            n--;
    }
    memcpy(buf, text, n);
    buf[n] = '\0';
    return buf;
}

/* ------------------------------------------------------------ JSON pieces */

json_t *proto_cards_json(barbu_cards cards)
{
    json_t *a = json_array();
    for (int card = 63; a != NULL && card >= 0; card--) {
        if (!(cards & BARBU_BIT(card)))
            continue;
        char text[8];
        barbu_card_format((barbu_card)card, BARBU_FMT_ASCII, text, sizeof text);
        if (json_array_append_new(a, json_string(text)) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

json_t *proto_seats_json(unsigned seats)
{
    json_t *a = json_array();
    for (int seat = 0; a != NULL && seat < 4; seat++) {
        if (((seats >> seat) & 1) && json_array_append_new(a, json_string(proto_seat_name(seat)))) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

json_t *proto_contracts_json(const barbu_rules *rules, unsigned contracts)
{
    json_t *a = json_array();
    for (int c = 0; a != NULL && c < rules->n_contracts; c++) {
        if (((contracts >> c) & 1) &&
            json_array_append_new(a, json_string(rules->contract[c].key))) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

json_t *proto_cut_json(int cut)
{
    if (cut == BARBU_JOKER)
        return json_string("Joker");
    if (cut == BARBU_BRIDGE)
        return json_string("Bridge");
    if (cut < 0 || cut >= 64 || BARBU_RANK(cut) < 2 || BARBU_RANK(cut) > 6)
        return NULL;
    char text[8];
    barbu_card_format((barbu_card)cut, BARBU_FMT_ASCII, text, sizeof text);
    return json_string(text);
}

/* Sets obj[key] to a new value, remembering a failure (out of memory) in
 * *ok; a NULL value is a failure. */
static void put(json_t *obj, const char *key, json_t *value, bool *ok)
{
    if (json_object_set_new(obj, key, value) != 0)
        *ok = false;
}

/* A one-letter string: a suit or a rank. */
static json_t *letter_json(char c)
{
    char text[2] = {c, '\0'};
    return json_string(text);
}

json_t *proto_rules_json(const barbu_rules *rules)
{
    json_t *list = json_array();
    for (int i = 0; list != NULL && i < rules->n_contracts; i++) {
        const barbu_contract *c = &rules->contract[i];
        json_t *o =
            json_pack("{s:s, s:s, s:s, s:s, s:i}", "key", c->key, "name", c->name, "abbr", c->abbr,
                      "kind", proto_kind_name(c->kind), "per_player", c->per_player);
        if (o != NULL && c->fixed_rank >= 2 && c->fixed_rank <= BARBU_ACE)
            json_object_set_new(o, "fixed_rank", letter_json(RANK_LETTERS[c->fixed_rank]));
        if (o != NULL && c->kind == BARBU_KIND_CHINESE) {
            json_object_set_new(o, "per_row", json_integer(c->per_row));
            json_object_set_new(o, "scoop", json_integer(c->scoop));
        }
        if (o == NULL || json_array_append_new(list, o) != 0) {
            json_decref(list);
            list = NULL;
        }
    }
    if (list == NULL)
        return NULL;
    bool fife = rules->game == BARBU_GAME_FIFE;
    json_t *m = json_pack("{s:s, s:i, s:b, s:i, s:o}", "game", fife ? "fife" : "contracts", "deck",
                          rules->deck_low == 7 ? 32 : 52, "doubling", rules->doubling,
                          "mandatory_doubles", rules->mandatory_doubles, "contracts", list);
    if (m != NULL && fife)
        json_object_set_new(m, "sets", json_integer(rules->sets));
    /* Whether a negative contract nobody doubles is played, and if not
     * how its points are shared, in the engine's words. */
    bool shared = rules->doubling && rules->undoubled_shared;
    if (m != NULL)
        json_object_set_new(m, "undoubled_shared", json_boolean(shared));
    if (m != NULL && shared) {
        char text[1024];
        barbu_undoubled_text(rules, text, sizeof text);
        json_object_set_new(m, "undoubled_text", json_string(text));
    }
    return m;
}

json_t *proto_action_json(const barbu_rules *rules, const barbu_action *action, bool show_cards)
{
    if (action->type >= N_ACTIONS)
        return NULL;
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    bool ok = true;
    put(o, "type", json_string(ACTION_NAMES[action->type]), &ok);
    put(o, "seat", json_string(proto_seat_name(action->seat)), &ok);
    switch (action->type) {
    case BARBU_ACT_DECLARE:
        put(o, "contracts", proto_contracts_json(rules, action->contracts), &ok);
        if (action->trump >= 0 && action->trump < 4)
            put(o, "trump", letter_json(SUIT_LETTERS[action->trump]), &ok);
        if (action->rank >= 2 && action->rank <= BARBU_ACE)
            put(o, "rank", letter_json(RANK_LETTERS[action->rank]), &ok);
        break;
    case BARBU_ACT_BID:
        if (action->doubles)
            put(o, "double", proto_seats_json(action->doubles), &ok);
        if (action->redoubles)
            put(o, "redouble", proto_seats_json(action->redoubles), &ok);
        break;
    case BARBU_ACT_PLAY:
        put(o, "cards", proto_cards_json(action->cards), &ok);
        break;
    case BARBU_ACT_PASS_ON:
        if (show_cards)
            put(o, "cards", proto_cards_json(action->cards), &ok);
        break;
    case BARBU_ACT_ARRANGE:
        if (show_cards) {
            put(o, "back", proto_cards_json(action->cards), &ok);
            put(o, "middle", proto_cards_json(action->middle), &ok);
        }
        break;
    default:
        break;
    }
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *proto_legal_json(const barbu_view *view)
{
    const barbu_table *t = &view->t;
    if (t->to_move < 0 || view->seat != t->to_move || t->phase == BARBU_PHASE_ARRANGE)
        return NULL;
    barbu_action *list = malloc(PROTO_MAX_LEGAL * sizeof *list);
    if (list == NULL)
        return NULL;
    int n = barbu_view_legal(view, list, PROTO_MAX_LEGAL);
    if (n > PROTO_MAX_LEGAL)
        n = PROTO_MAX_LEGAL;
    json_t *a = json_array();
    for (int i = 0; a != NULL && i < n; i++) {
        if (json_array_append_new(a, proto_action_json(view->rules, &list[i], true)) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    free(list);
    return a;
}

json_t *proto_error_json(const proto_error *err)
{
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    bool ok = true;
    put(o, "type", json_string("error"), &ok);
    put(o, "code", json_string(err->code != NULL ? err->code : "server"), &ok);
    /* The text quotes a client's bytes only as clip() cuts them, so it is
     * valid UTF-8; should jansson still refuse it, a plain sentence stands
     * in rather than no error at all. */
    put(o, "text", json_string(err->text), &ok);
    if (!ok) {
        ok = true;
        put(o, "text", json_string("The message was refused: check it and send it again."), &ok);
    }
    if (err->re != NULL)
        put(o, "re", json_string(err->re), &ok);
    if (err->has_id)
        put(o, "id", json_integer(err->id), &ok);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

char *proto_dump(const json_t *msg, size_t *len)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    if (text != NULL && len != NULL)
        *len = strlen(text);
    return text;
}

/* ---------------------------------------------------------------- decoder */

/* What the decoder is reading: for the words of its errors. */
typedef struct reader {
    proto_error *err;
    const char *msg; /* "create", or "action" inside act */
} reader;

static bool listed(const char *const *fields, int n, const char *key)
{
    for (int i = 0; i < n && fields[i] != NULL; i++)
        if (strcmp(fields[i], key) == 0)
            return true;
    return false;
}

/* Refuses a field that is not in the list (nor "type" and, for a message,
 * "id").  The key is quoted at most in part, since it may be long. */
static int check_fields(reader *rd, const json_t *obj, const char *const *fields, int n,
                        bool with_id)
{
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)obj, key, value)
    {
        (void)value;
        if (strcmp(key, "type") == 0 || (with_id && strcmp(key, "id") == 0))
            continue;
        if (!listed(fields, n, key)) {
            char q[48];
            return proto_fail(rd->err, "bad_field",
                              "There is no field \"%s\" in %s: leave it out (docs/protocol.md "
                              "lists the fields).",
                              clip(key, q, 40), rd->msg);
        }
    }
    return 0;
}

static int missing(reader *rd, const char *key)
{
    return proto_fail(rd->err, "bad_field", "The field \"%s\" is missing in %s: add it.", key,
                      rd->msg);
}

static int wrong_type(reader *rd, const char *key, const char *what)
{
    return proto_fail(rd->err, "bad_field", "The field \"%s\" in %s must be %s: send it so.", key,
                      rd->msg, what);
}

/* The field's value when it has the JSON type wanted: 1 and *out set, 0
 * when absent (an error when required), -1 when refused. */
static int field(reader *rd, const json_t *obj, const char *key, json_type type, bool required,
                 json_t **out)
{
    static const char *const WHAT[] = {
        [JSON_OBJECT] = "an object",       [JSON_ARRAY] = "an array", [JSON_STRING] = "a string",
        [JSON_INTEGER] = "a whole number", [JSON_REAL] = "a number",  [JSON_TRUE] = "true or false",
        [JSON_FALSE] = "true or false",    [JSON_NULL] = "null",
    };
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (v == NULL)
        return required ? missing(rd, key) : 0;
    bool same = json_typeof(v) == type || (type == JSON_TRUE && json_typeof(v) == JSON_FALSE);
    if (!same)
        return wrong_type(rd, key, WHAT[type]);
    *out = v;
    return 1;
}

static int get_int(reader *rd, const json_t *obj, const char *key, bool required, json_int_t min,
                   json_int_t max, json_int_t *out)
{
    json_t *v = NULL;
    int got = field(rd, obj, key, JSON_INTEGER, required, &v);
    if (got <= 0)
        return got;
    json_int_t n = json_integer_value(v);
    if (n < min || n > max)
        return proto_fail(
            rd->err, "bad_value",
            "The field \"%s\" in %s must be from %lld to %lld: choose a value in that range.", key,
            rd->msg, (long long)min, (long long)max);
    *out = n;
    return 1;
}

static int get_string(reader *rd, const json_t *obj, const char *key, bool required,
                      const char **out, size_t *len)
{
    json_t *v = NULL;
    int got = field(rd, obj, key, JSON_STRING, required, &v);
    if (got <= 0)
        return got;
    *out = json_string_value(v);
    *len = json_string_length(v);
    /* jansson refuses "\u0000" unless asked to allow it; this keeps the
     * rule even if it were. */
    if (strlen(*out) != *len)
        return proto_fail(rd->err, "bad_value",
                          "The field \"%s\" in %s holds a NUL character: send it without one.", key,
                          rd->msg);
    return 1;
}

/* A seat name; "all" when allowed (kibitz), which is PROTO_SEAT_ALL. */
static int read_seat(reader *rd, const char *key, const char *text, bool all_ok)
{
    int seat = proto_seat_read(text);
    if (seat >= 0)
        return seat;
    if (strcmp(text, "all") == 0) {
        if (all_ok)
            return PROTO_SEAT_ALL;
        return proto_fail(
            rd->err, "bad_seat",
            "The field \"%s\" in %s must be one seat, not \"all\": choose N, E, S or W.", key,
            rd->msg);
    }
    return proto_fail(rd->err, "bad_value",
                      "The field \"%s\" in %s must be a seat: choose \"N\", \"E\", \"S\" or \"W\".",
                      key, rd->msg);
}

static int get_seat(reader *rd, const json_t *obj, const char *key, bool required, bool all_ok,
                    int8_t *out)
{
    const char *text;
    size_t len;
    int got = get_string(rd, obj, key, required, &text, &len);
    if (got <= 0)
        return got;
    int seat = read_seat(rd, key, text, all_ok);
    if (seat < 0)
        return -1;
    *out = (int8_t)seat;
    return 1;
}

/* An array of distinct seats, as a bit per seat. */
static int get_seats(reader *rd, const json_t *obj, const char *key, bool required, uint8_t *out)
{
    json_t *a = NULL;
    int got = field(rd, obj, key, JSON_ARRAY, required, &a);
    if (got <= 0)
        return got;
    unsigned seats = 0;
    size_t i;
    json_t *v = NULL;
    json_array_foreach(a, i, v)
    {
        if (!json_is_string(v))
            return wrong_type(rd, key, "an array of seats");
        int seat = read_seat(rd, key, json_string_value(v), false);
        if (seat < 0)
            return -1;
        if ((seats >> seat) & 1)
            return proto_fail(rd->err, "bad_value",
                              "The field \"%s\" in %s names %s twice: name each seat once.", key,
                              rd->msg, proto_seat_name(seat));
        seats |= 1u << seat;
    }
    *out = (uint8_t)seats;
    return 1;
}

/* An array of distinct cards, each string exactly a card. */
static int get_cards(reader *rd, const json_t *obj, const char *key, bool required,
                     size_t min_count, barbu_cards *out)
{
    json_t *a = NULL;
    int got = field(rd, obj, key, JSON_ARRAY, required, &a);
    if (got <= 0)
        return got;
    if (json_array_size(a) < min_count)
        return proto_fail(rd->err, "bad_value",
                          "The field \"%s\" in %s must hold at least %zu card%s: choose %s.", key,
                          rd->msg, min_count, min_count == 1 ? "" : "s",
                          min_count == 1 ? "one" : "them");
    barbu_cards cards = 0;
    size_t i;
    json_t *v = NULL;
    char q[24];
    json_array_foreach(a, i, v)
    {
        if (!json_is_string(v))
            return wrong_type(rd, key, "an array of cards");
        int card = proto_card_read(json_string_value(v));
        if (card < 0)
            return proto_fail(
                rd->err, "bad_value",
                "The value \"%s\" in %s of %s is not a card: write a card as \"QH\" or "
                "\"10S\".",
                clip(json_string_value(v), q, 20), key, rd->msg);
        if (cards & BARBU_BIT(card))
            return proto_fail(rd->err, "bad_value",
                              "The field \"%s\" in %s names %s twice: name each card once.", key,
                              rd->msg, clip(json_string_value(v), q, 20));
        cards |= BARBU_BIT(card);
    }
    *out = cards;
    return 1;
}

static int get_bool(reader *rd, const json_t *obj, const char *key, bool *out)
{
    json_t *v = NULL;
    int got = field(rd, obj, key, JSON_TRUE, false, &v);
    if (got > 0)
        *out = json_is_true(v);
    return got;
}

/* One of a few words: its index, or -1 with "bad_value". */
static int get_word(reader *rd, const json_t *obj, const char *key, const char *const *words, int n,
                    int *out)
{
    const char *text;
    size_t len;
    int got = get_string(rd, obj, key, false, &text, &len);
    if (got <= 0)
        return got;
    for (int i = 0; i < n; i++) {
        if (strcmp(text, words[i]) == 0) {
            *out = i;
            return 1;
        }
    }
    char q[24];
    char choices[120] = "";
    for (int i = 0, k = 0; i < n && k < (int)sizeof choices; i++)
        k += snprintf(choices + k, sizeof choices - (size_t)k, "%s\"%s\"",
                      i == 0       ? ""
                      : i == n - 1 ? " or "
                                   : ", ",
                      words[i]);
    return proto_fail(rd->err, "bad_value", "The field \"%s\" in %s may not be \"%s\": choose %s.",
                      key, rd->msg, clip(text, q, 20), choices);
}

static int shown_text_check(const unsigned char *s, size_t len, bool lines, char *why, size_t cap);

size_t proto_utf8_count(const char *text)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        n += (*p & 0xc0) != 0x80;
    return n;
}

bool proto_name_ok(const char *name)
{
    if (name == NULL)
        return false;
    size_t n = strlen(name);
    if (n < 1 || n > PROTO_NAME_BYTES || name[0] == ' ' || name[n - 1] == ' ')
        return false;
    char why[64];
    if (shown_text_check((const unsigned char *)name, n, false, why, sizeof why) != 0)
        return false;
    for (size_t i = 1; i < n; i++)
        if (name[i] == ' ' && name[i - 1] == ' ')
            return false;
    size_t count = proto_utf8_count(name);
    return count >= 1 && count <= PROTO_MAX_NAME;
}

/* A browser's device id: letters, digits, '-' and '_' (docs/protocol.md). */
static bool device_ok(const char *id, size_t len)
{
    if (len < PROTO_DEVICE_MIN || len > PROTO_DEVICE_MAX)
        return false;
    for (size_t i = 0; i < len; i++) {
        char ch = id[i];
        if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              ch == '-' || ch == '_'))
            return false;
    }
    return true;
}

static bool token_ok(const char *token, size_t len)
{
    if (len != PROTO_TOKEN_LEN)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!((token[i] >= '0' && token[i] <= '9') || (token[i] >= 'a' && token[i] <= 'f')))
            return false;
    return true;
}

/* A decimal seed from 0 to 2^64 - 1: digits only, at most 20 of them. */
static bool seed_parse(const char *text, size_t len, uint64_t *out)
{
    /* At most 20 digits on the wire, and no NUL inside the string. */
    return len >= 1 && len <= 20 && strlen(text) == len && barbu_seed_parse(text, out) == 0;
}

static bool level_ok(const char *text, size_t len)
{
    if (len < 1 || len > 15)
        return false;
    for (size_t i = 0; i < len; i++)
        if (text[i] < 'a' || text[i] > 'z')
            return false;
    return true;
}

/* Characters that are invisible or that reorder the text around them: in a
 * line others read they can disguise it (a right-to-left override shows
 * "gnp.exe" as "exe.png", a zero-width space hides inside a word, tag
 * characters carry text nobody sees).  The zero-width joiner and non-joiner
 * stay allowed: emoji sequences and several scripts need them and they move
 * nothing. */
static const struct {
    unsigned lo, hi;
    const char *name;
} HIDDEN_CHARS[] = {
    {0x00ad, 0x00ad, "SOFT HYPHEN"},
    {0x061c, 0x061c, "ARABIC LETTER MARK"},
    {0x180e, 0x180e, "MONGOLIAN VOWEL SEPARATOR"},
    {0x200b, 0x200b, "ZERO WIDTH SPACE"},
    {0x200e, 0x200e, "LEFT-TO-RIGHT MARK"},
    {0x200f, 0x200f, "RIGHT-TO-LEFT MARK"},
    {0x2028, 0x2028, "LINE SEPARATOR"},
    {0x2029, 0x2029, "PARAGRAPH SEPARATOR"},
    {0x202a, 0x202a, "LEFT-TO-RIGHT EMBEDDING"},
    {0x202b, 0x202b, "RIGHT-TO-LEFT EMBEDDING"},
    {0x202c, 0x202c, "POP DIRECTIONAL FORMATTING"},
    {0x202d, 0x202d, "LEFT-TO-RIGHT OVERRIDE"},
    {0x202e, 0x202e, "RIGHT-TO-LEFT OVERRIDE"},
    {0x2060, 0x2060, "WORD JOINER"},
    {0x2061, 0x2061, "FUNCTION APPLICATION"},
    {0x2062, 0x2062, "INVISIBLE TIMES"},
    {0x2063, 0x2063, "INVISIBLE SEPARATOR"},
    {0x2064, 0x2064, "INVISIBLE PLUS"},
    {0x2066, 0x2066, "LEFT-TO-RIGHT ISOLATE"},
    {0x2067, 0x2067, "RIGHT-TO-LEFT ISOLATE"},
    {0x2068, 0x2068, "FIRST STRONG ISOLATE"},
    {0x2069, 0x2069, "POP DIRECTIONAL ISOLATE"},
    {0x206a, 0x206a, "INHIBIT SYMMETRIC SWAPPING"},
    {0x206b, 0x206b, "ACTIVATE SYMMETRIC SWAPPING"},
    {0x206c, 0x206c, "INHIBIT ARABIC FORM SHAPING"},
    {0x206d, 0x206d, "ACTIVATE ARABIC FORM SHAPING"},
    {0x206e, 0x206e, "NATIONAL DIGIT SHAPES"},
    {0x206f, 0x206f, "NOMINAL DIGIT SHAPES"},
    {0xfeff, 0xfeff, "ZERO WIDTH NO-BREAK SPACE"},
    {0xfff9, 0xfff9, "INTERLINEAR ANNOTATION ANCHOR"},
    {0xfffa, 0xfffa, "INTERLINEAR ANNOTATION SEPARATOR"},
    {0xfffb, 0xfffb, "INTERLINEAR ANNOTATION TERMINATOR"},
    {0xe0000, 0xe007f, "a tag character"},
};

/* Checks a text people type for others to read: valid UTF-8 with no control
 * character (C0, DEL, C1; with lines, tab, line feed and carriage return
 * are allowed) and none of HIDDEN_CHARS.  Returns 0, or -1 with the first
 * character refused named in why ("U+202E RIGHT-TO-LEFT OVERRIDE"). */
static int shown_text_check(const unsigned char *s, size_t len, bool lines, char *why, size_t cap)
{
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        if (c < 0x80) {
            bool allowed = lines && (c == '\t' || c == '\n' || c == '\r');
            if ((c < 0x20 || c == 0x7f) && !allowed) {
                snprintf(why, cap, "U+%04X, a control character", c);
                return -1;
            }
            i++;
            continue;
        }
        int more;
        unsigned cp, min;
        if (c >= 0xc2 && c <= 0xdf) {
            more = 1, cp = c & 0x1f, min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            more = 2, cp = c & 0x0f, min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            more = 3, cp = c & 0x07, min = 0x10000;
        } else {
            snprintf(why, cap, "bytes that are not UTF-8");
            return -1;
        }
        if (len - i <= (size_t)more) {
            snprintf(why, cap, "bytes that are not UTF-8");
            return -1;
        }
        for (int k = 1; k <= more; k++) {
            if ((s[i + k] & 0xc0) != 0x80) {
                snprintf(why, cap, "bytes that are not UTF-8");
                return -1;
            }
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            snprintf(why, cap, "bytes that are not UTF-8");
            return -1;
        }
        if (cp <= 0x9f) {
            snprintf(why, cap, "U+%04X, a control character", cp);
            return -1;
        }
        for (size_t k = 0; k < sizeof HIDDEN_CHARS / sizeof HIDDEN_CHARS[0]; k++)
            if (cp >= HIDDEN_CHARS[k].lo && cp <= HIDDEN_CHARS[k].hi) {
                snprintf(why, cap, "U+%04X %s", cp, HIDDEN_CHARS[k].name);
                return -1;
            }
        i += (size_t)more + 1;
    }
    return 0;
}

/* With hidden_ok, a Pass-on or an arrangement may come without its cards, as
 * the server shows it to the other seats. */
static int decode_action(reader *msg_rd, const json_t *obj, bool hidden_ok, proto_action *a)
{
    reader rd = {msg_rd->err, "action"};
    char q[24];
    memset(a, 0, sizeof *a);
    a->trump = -1;
    a->seat = -1;
    json_t *type_v = json_object_get(obj, "type");
    if (type_v == NULL)
        return missing(&rd, "type");
    if (!json_is_string(type_v))
        return wrong_type(&rd, "type", "a string");
    const char *type = json_string_value(type_v);
    int kind = -1;
    for (int i = 0; i < N_ACTIONS; i++)
        if (strcmp(type, ACTION_NAMES[i]) == 0)
            kind = i;
    if (kind < 0)
        return proto_fail(rd.err, "bad_value",
                          "There is no action \"%s\": choose declare, bid, play, pass, pass_on, "
                          "cut or arrange.",
                          clip(type, q, 20));
    a->type = (uint8_t)kind;
    if (check_fields(&rd, obj, ACTION_FIELDS[kind], 4, false) != 0)
        return -1;
    /* An entry of a view's "legal" list names its seat, so a client may
     * send one back as it came; the seat must then be the sender's. */
    if (get_seat(&rd, obj, "seat", false, false, &a->seat) < 0)
        return -1;
    switch (kind) {
    case BARBU_ACT_DECLARE: {
        json_t *list = NULL;
        if (field(&rd, obj, "contracts", JSON_ARRAY, true, &list) < 0)
            return -1;
        size_t n = json_array_size(list);
        if (n < 1 || n > BARBU_MAX_CONTRACTS)
            return proto_fail(rd.err, "bad_value",
                              "The field \"contracts\" in action must hold 1 to %d keys: choose a "
                              "contract.",
                              BARBU_MAX_CONTRACTS);
        size_t i;
        json_t *v = NULL;
        json_array_foreach(list, i, v)
        {
            if (!json_is_string(v))
                return wrong_type(&rd, "contracts", "an array of contract keys");
            const char *key = json_string_value(v);
            size_t len = json_string_length(v);
            if (len < 1 || len >= sizeof a->contracts[0] || strlen(key) != len)
                return proto_fail(rd.err, "bad_value",
                                  "There is no contract key \"%s\": choose a contract of the "
                                  "table's rules.",
                                  clip(key, q, 20));
            for (size_t k = 0; k < i; k++)
                if (strcmp(a->contracts[k], key) == 0)
                    return proto_fail(rd.err, "bad_value",
                                      "The contract \"%s\" is named twice: name it once.", key);
            memcpy(a->contracts[i], key, len + 1);
        }
        a->n_contracts = (uint8_t)n;
        const char *text;
        size_t len;
        int got = get_string(&rd, obj, "trump", false, &text, &len);
        if (got < 0)
            return -1;
        if (got > 0) {
            const char *p = len == 1 ? strchr(SUIT_LETTERS, text[0]) : NULL;
            if (p == NULL)
                return proto_fail(
                    rd.err, "bad_value",
                    "The field \"trump\" in action must be a suit: choose \"S\", \"H\", "
                    "\"D\" or \"C\".");
            a->trump = (int8_t)(p - SUIT_LETTERS);
        }
        got = get_string(&rd, obj, "rank", false, &text, &len);
        if (got < 0)
            return -1;
        if (got > 0) {
            const char *p = len == 1 ? strchr(RANK_LETTERS + 2, text[0]) : NULL;
            if (p == NULL)
                return proto_fail(
                    rd.err, "bad_value",
                    "The field \"rank\" in action must be a rank: choose one of 2-9, T, J, "
                    "Q, K, A.");
            a->rank = (int8_t)(p - RANK_LETTERS);
        }
        return 0;
    }
    case BARBU_ACT_BID:
        if (get_seats(&rd, obj, "double", false, &a->doubles) < 0 ||
            get_seats(&rd, obj, "redouble", false, &a->redoubles) < 0)
            return -1;
        return 0;
    case BARBU_ACT_PLAY:
        return get_cards(&rd, obj, "cards", true, 1, &a->cards) < 0 ? -1 : 0;
    case BARBU_ACT_PASS_ON:
        return get_cards(&rd, obj, "cards", !hidden_ok, 0, &a->cards) < 0 ? -1 : 0;
    case BARBU_ACT_ARRANGE:
        if (get_cards(&rd, obj, "back", !hidden_ok, 0, &a->cards) < 0 ||
            get_cards(&rd, obj, "middle", !hidden_ok, 0, &a->middle) < 0)
            return -1;
        return 0;
    default:
        return 0;
    }
}

/* A password field: a string of 1 to PROTO_PASSWORD_BYTES bytes of UTF-8
 * without NUL.  No refusal here quotes it. */
static int get_password(reader *rd, const json_t *o, const char *key, bool required,
                        char out[PROTO_PASSWORD_BYTES + 1])
{
    const char *text;
    size_t len;
    int got = get_string(rd, o, key, required, &text, &len);
    if (got <= 0)
        return got;
    if (len < 1 || len > PROTO_PASSWORD_BYTES)
        return proto_fail(rd->err, "bad_value",
                          "The field \"%s\" in %s is a password of %d to %d characters: send "
                          "one like that.",
                          key, rd->msg, PROTO_PASSWORD_MIN, PROTO_PASSWORD_MAX);
    memcpy(out, text, len + 1);
    return 1;
}

static int decode_hello(reader *rd, const json_t *o, proto_msg *m)
{
    json_int_t version;
    if (get_int(rd, o, "version", true, INT32_MIN, INT32_MAX, &version) < 0)
        return -1;
    m->version = (int)version;
    const char *text;
    size_t len;
    int got = get_string(rd, o, "token", false, &text, &len);
    if (got < 0)
        return -1;
    if (got > 0) {
        if (!token_ok(text, len))
            return proto_fail(rd->err, "bad_token",
                              "A token is %d lowercase hexadecimal digits: say hello with the "
                              "token the server gave you, or with a name.",
                              PROTO_TOKEN_LEN);
        memcpy(m->token, text, len + 1);
    }
    got = get_string(rd, o, "name", m->token[0] == '\0', &text, &len);
    if (got < 0)
        return -1;
    if (got > 0) {
        if (!proto_name_ok(text))
            return proto_fail(rd->err, "bad_name",
                              "A name is 1 to %d letters, digits, '_', '-', '.' and single "
                              "spaces inside: choose one like that.",
                              PROTO_MAX_NAME);
        memcpy(m->name, text, len + 1);
    }
    if (get_password(rd, o, "password", false, m->password) < 0)
        return -1;
    json_t *r = NULL;
    got = field(rd, o, "register", JSON_TRUE, false, &r);
    if (got < 0)
        return -1;
    m->reg = got > 0 && json_is_true(r);
    if (m->password[0] && (m->name[0] == '\0' || m->token[0]))
        return proto_fail(rd->err, "bad_field",
                          "A password goes with a name and no token: say hello with the name "
                          "and its password.");
    if (m->reg && m->password[0] == '\0')
        return proto_fail(rd->err, "bad_field",
                          "To register, say hello with a name and a password: add the "
                          "password.");
    got = get_string(rd, o, "device", false, &text, &len);
    if (got < 0)
        return -1;
    if (got > 0) {
        if (!device_ok(text, len))
            return proto_fail(rd->err, "bad_value",
                              "The field \"device\" is %d to %d letters, digits, '-' and '_': send "
                              "one like that, or none.",
                              PROTO_DEVICE_MIN, PROTO_DEVICE_MAX);
        memcpy(m->device, text, len + 1);
    }
    json_t *v = NULL;
    got = field(rd, o, "lobby_chat", JSON_TRUE, false, &v);
    if (got < 0)
        return -1;
    m->lobby_chat = got > 0 && json_is_true(v);
    return 0;
}

static int decode_create(reader *rd, const json_t *o, proto_msg *m)
{
    const char *text;
    size_t len;
    if (get_string(rd, o, "rules", true, &text, &len) < 0)
        return -1;
    barbu_rules rules;
    char q[24];
    if (len >= sizeof m->rules || barbu_rules_preset(&rules, text) != 0)
        return proto_fail(rd->err, "bad_rules",
                          "There are no rules \"%s\": choose one of the presets (uk, "
                          "classic, quick, ...: barbu rules --list names them all).",
                          clip(text, q, 20));
    memcpy(m->rules, text, len + 1);

    int got = get_string(rd, o, "house", false, &text, &len);
    if (got < 0)
        return -1;
    if (got > 0) {
        if (len > PROTO_MAX_HOUSE)
            return proto_fail(rd->err, "bad_value",
                              "House rules may hold at most %d bytes: shorten them.",
                              PROTO_MAX_HOUSE);
        /* Others read the house rules (the table message carries them),
         * comments included: the chat line's rule, with line breaks. */
        char why[80];
        if (shown_text_check((const unsigned char *)text, len, true, why, sizeof why) != 0)
            return proto_fail(rd->err, "bad_text",
                              "House rules may not hold %s (no control characters but tabs and "
                              "line breaks, no bidi controls or invisible characters): remove "
                              "it.",
                              why);
        memcpy(m->house, text, len + 1);
    }

    got = get_string(rd, o, "seed", false, &text, &len);
    if (got < 0)
        return -1;
    if (got > 0) {
        if (!seed_parse(text, len, &m->seed))
            return proto_fail(rd->err, "bad_value",
                              "The seed must be a decimal number from 0 to "
                              "18446744073709551615: type such a number, or none for a new "
                              "seed.");
        m->has_seed = true;
    }

    static const char *const KIBITZ[] = {"none", "seat", "all"};
    static const char *const TAKEOVER[] = {"vote", "bot"};
    int word = 0;
    if ((got = get_word(rd, o, "kibitz", KIBITZ, 3, &word)) < 0)
        return -1;
    if (got > 0)
        m->kibitz = (uint8_t)word;
    if ((got = get_word(rd, o, "takeover", TAKEOVER, 2, &word)) < 0)
        return -1;
    if (got > 0)
        m->takeover = (uint8_t)word;

    json_int_t n;
    if ((got = get_int(rd, o, "grace", false, 0, 3600, &n)) < 0)
        return -1;
    if (got > 0)
        m->grace = (int)n;
    if ((got = get_int(rd, o, "delay", false, 0, 5000, &n)) < 0)
        return -1;
    if (got > 0)
        m->delay = (int)n;
    if ((got = get_int(rd, o, "clock", false, INT32_MIN, INT32_MAX, &n)) < 0)
        return -1;
    if (got > 0 && n != 0 && (n < PROTO_CLOCK_MIN || n > PROTO_CLOCK_MAX))
        return proto_fail(rd->err, "bad_value",
                          "The move clock cannot be %lld seconds: give 0 for no clock, or "
                          "%d to %d seconds a move.",
                          (long long)n, PROTO_CLOCK_MIN, PROTO_CLOCK_MAX);
    if (got > 0)
        m->clock = (int)n;

    if (get_seats(rd, o, "bots", false, &m->bots) < 0)
        return -1;
    got = get_string(rd, o, "level", false, &text, &len);
    if (got < 0)
        return -1;
    if (got > 0) {
        if (!level_ok(text, len))
            return proto_fail(rd->err, "bad_value",
                              "The field \"level\" must be a computer player's level: choose easy, "
                              "medium, hard or random.");
        memcpy(m->level, text, len + 1);
    }
    if (get_bool(rd, o, "household", &m->household) < 0 ||
        get_bool(rd, o, "kibitz_chat", &m->kibitz_chat) < 0 ||
        get_bool(rd, o, "ladder", &m->ladder) < 0 || get_bool(rd, o, "rated", &m->rated) < 0 ||
        get_bool(rd, o, "hints", &m->hints) < 0)
        return -1;
    static const char *const CREDIT[] = {"record", "deals"};
    if ((got = get_word(rd, o, "credit", CREDIT, 2, &word)) < 0)
        return -1;
    if (got > 0)
        m->credit = (uint8_t)word;
    return get_seat(rd, o, "sit", false, false, &m->sit) < 0 ? -1 : 0;
}

static int decode_chat(reader *rd, const json_t *o, proto_msg *m)
{
    const char *text;
    size_t len;
    if (get_string(rd, o, "text", true, &text, &len) < 0)
        return -1;
    char why[80];
    if (shown_text_check((const unsigned char *)text, len, false, why, sizeof why) != 0)
        return proto_fail(rd->err, "bad_text",
                          "A chat line may not hold %s (no control characters, bidi controls "
                          "or invisible characters): remove it and send the line again.",
                          why);
    while (len > 0 && text[0] == ' ')
        text++, len--;
    while (len > 0 && text[len - 1] == ' ')
        len--;
    if (len < 1 || len > PROTO_MAX_CHAT)
        return proto_fail(rd->err, "bad_text",
                          "A chat line holds 1 to %d bytes: write something, and split a long "
                          "line.",
                          PROTO_MAX_CHAT);
    memcpy(m->text, text, len);
    m->text[len] = '\0';
    return 0;
}

/* The moderation messages (docs/protocol.md, Moderation): a table, a
 * handle and a text, as each one takes them.  The text is one line others
 * read, like a chat line, of at most PROTO_MAX_REPORT characters. */
static int decode_moderation(reader *rd, const json_t *o, proto_msg *m)
{
    json_int_t n;
    int got;
    bool table_needed = m->type == PROTO_MOD_CLOSE || m->type == PROTO_MOD_REMOVE;
    if (m->type != PROTO_BAN && m->type != PROTO_UNBAN) {
        if ((got = get_int(rd, o, "table", table_needed, 1, INT64_MAX, &n)) < 0)
            return -1;
        m->table = got > 0 ? (int64_t)n : 0;
    }
    if (m->type == PROTO_MOD_REMOVE && get_seat(rd, o, "seat", true, false, &m->seat) < 0)
        return -1;
    const char *text;
    size_t len;
    if (m->type == PROTO_BAN || m->type == PROTO_UNBAN || m->type == PROTO_REPORT) {
        got = get_string(rd, o, "name", m->type != PROTO_REPORT, &text, &len);
        if (got < 0)
            return -1;
        if (got > 0) {
            if (len >= sizeof m->name || !proto_name_ok(text))
                return proto_fail(
                    rd->err, "bad_name",
                    "The field \"name\" in %s is a player's handle, and this is none: "
                    "give the name as the lobby shows it.",
                    rd->msg);
            memcpy(m->name, text, len + 1);
        }
        if (m->type == PROTO_REPORT && m->table == 0 && m->name[0] == '\0')
            return proto_fail(rd->err, "bad_field",
                              "A report names a table, a player's handle or both: add \"table\" "
                              "or \"name\".");
    }
    got = get_string(rd, o, "text", m->type == PROTO_REPORT, &text, &len);
    if (got <= 0)
        return got;
    char why[80];
    if (shown_text_check((const unsigned char *)text, len, false, why, sizeof why) != 0)
        return proto_fail(rd->err, "bad_text",
                          "The text of %s may not hold %s (no control characters, bidi controls "
                          "or invisible characters): remove it and send it again.",
                          rd->msg, why);
    while (len > 0 && text[0] == ' ')
        text++, len--;
    while (len > 0 && text[len - 1] == ' ')
        len--;
    size_t chars = 0;
    for (size_t i = 0; i < len; i++)
        chars += ((unsigned char)text[i] & 0xc0) != 0x80;
    if ((m->type == PROTO_REPORT && chars < 1) || chars > PROTO_MAX_REPORT)
        return proto_fail(rd->err, "bad_text",
                          "The text of %s must be %s%d characters long: say what happened in "
                          "a few words.",
                          rd->msg, m->type == PROTO_REPORT ? "1 to " : "at most ",
                          PROTO_MAX_REPORT);
    memcpy(m->mod_text, text, len);
    m->mod_text[len] = '\0';
    return 0;
}

static int read_prefs(reader *msg_rd, const json_t *obj, proto_prefs *p);

static int decode_fields(reader *rd, const json_t *o, proto_msg *m)
{
    json_int_t n;
    int got;
    switch (m->type) {
    case PROTO_HELLO:
        return decode_hello(rd, o, m);
    case PROTO_CREATE:
        return decode_create(rd, o, m);
    case PROTO_SIT:
    case PROTO_KIBITZ:
        if (get_int(rd, o, "table", true, 0, INT64_MAX, &n) < 0)
            return -1;
        m->table = (int64_t)n;
        return get_seat(rd, o, "seat", true, m->type == PROTO_KIBITZ, &m->seat) < 0 ? -1 : 0;
    case PROTO_BOT: {
        if (get_seat(rd, o, "seat", true, false, &m->seat) < 0)
            return -1;
        const char *text;
        size_t len;
        got = get_string(rd, o, "level", false, &text, &len);
        if (got < 0)
            return -1;
        if (got > 0) {
            if (!level_ok(text, len))
                return proto_fail(
                    rd->err, "bad_value",
                    "The field \"level\" must be a computer player's level: choose easy, "
                    "medium, hard or random.");
            memcpy(m->level, text, len + 1);
        }
        return 0;
    }
    case PROTO_ACT: {
        json_t *action = NULL;
        if (field(rd, o, "action", JSON_OBJECT, true, &action) < 0)
            return -1;
        if (decode_action(rd, action, false, &m->action) < 0)
            return -1;
        if ((got = get_int(rd, o, "at", false, 0, UINT32_MAX, &n)) < 0)
            return -1;
        if (got > 0) {
            m->has_at = true;
            m->at = (uint32_t)n;
        }
        return 0;
    }
    case PROTO_CHAT:
        return decode_chat(rd, o, m);
    case PROTO_SCORE:
    case PROTO_RECORD:
        if ((got = get_int(rd, o, "table", m->type == PROTO_RECORD, 0, INT64_MAX, &n)) < 0)
            return -1;
        m->table = got > 0 ? (int64_t)n : 0;
        return 0;
    case PROTO_CLOSE:
    case PROTO_HAND_OVER:
    case PROTO_AGAIN:
        if (get_int(rd, o, "table", true, 0, INT64_MAX, &n) < 0)
            return -1;
        m->table = (int64_t)n;
        return 0;
    case PROTO_REGISTER:
        return get_password(rd, o, "password", true, m->password) < 0 ? -1 : 0;
    case PROTO_PASSWORD:
        return get_password(rd, o, "password", true, m->password) < 0 ||
                       get_password(rd, o, "new_password", true, m->new_password) < 0
                   ? -1
                   : 0;
    case PROTO_LOGOUT: {
        json_t *v = NULL;
        if ((got = field(rd, o, "everywhere", JSON_TRUE, false, &v)) < 0)
            return -1;
        m->everywhere = got > 0 && json_is_true(v);
        return 0;
    }
    case PROTO_MOD_CLOSE:
    case PROTO_MOD_REMOVE:
    case PROTO_BAN:
    case PROTO_UNBAN:
    case PROTO_REPORT:
        return decode_moderation(rd, o, m);
    case PROTO_PREFERENCES: {
        json_t *prefs = NULL;
        if (field(rd, o, "prefs", JSON_OBJECT, true, &prefs) < 0)
            return -1;
        return read_prefs(rd, prefs, &m->prefs);
    }
    default:
        return 0;
    }
}

/* ------------------------------------------------------------ preferences */

static const char *const PREF_FIELDS[] = {"table_colour", "card_spacing", "card_size",
                                          "four_colour",  "sound",        "trick_pause"};
static const char *const CARD_SIZES[] = {"small", "medium", "large"};

static bool hex_digit(char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

static int read_prefs(reader *msg_rd, const json_t *obj, proto_prefs *p)
{
    reader rd = {msg_rd->err, "prefs"};
    memset(p, 0, sizeof *p);
    if (check_fields(&rd, obj, PREF_FIELDS, 6, false) != 0)
        return -1;
    /* check_fields lets "type" through, which prefs has not. */
    if (json_object_get(obj, "type") != NULL)
        return proto_fail(rd.err, "bad_field",
                          "There is no field \"type\" in prefs: leave it out (docs/protocol.md "
                          "lists the fields).");
    const char *text;
    size_t len;
    int got = get_string(&rd, obj, "table_colour", false, &text, &len);
    if (got < 0)
        return -1;
    if (got > 0) {
        bool ok = len == 7 && text[0] == '#';
        for (size_t i = 1; ok && i < 7; i++)
            ok = hex_digit(text[i]);
        if (!ok) {
            char q[24];
            return proto_fail(rd.err, "bad_value",
                              "The table colour \"%s\" is not a colour: write it as \"#rrggbb\" "
                              "(six hexadecimal digits, as \"#1e6b3a\").",
                              clip(text, q, 20));
        }
        for (size_t i = 0; i < 7; i++)
            p->table_colour[i] = (char)(text[i] >= 'A' && text[i] <= 'F' ? text[i] + 32 : text[i]);
        p->table_colour[7] = '\0';
        p->has |= PROTO_PREF_TABLE_COLOUR;
    }
    json_int_t n;
    if ((got = get_int(&rd, obj, "card_spacing", false, PROTO_CARD_SPACING_MIN,
                       PROTO_CARD_SPACING_MAX, &n)) < 0)
        return -1;
    if (got > 0) {
        p->card_spacing = (int)n;
        p->has |= PROTO_PREF_CARD_SPACING;
    }
    int word = 0;
    if ((got = get_word(&rd, obj, "card_size", CARD_SIZES, 3, &word)) < 0)
        return -1;
    if (got > 0) {
        p->card_size = word;
        p->has |= PROTO_PREF_CARD_SIZE;
    }
    if ((got = get_bool(&rd, obj, "four_colour", &p->four_colour)) < 0)
        return -1;
    if (got > 0)
        p->has |= PROTO_PREF_FOUR_COLOUR;
    if ((got = get_bool(&rd, obj, "sound", &p->sound)) < 0)
        return -1;
    if (got > 0)
        p->has |= PROTO_PREF_SOUND;
    if ((got = get_int(&rd, obj, "trick_pause", false, 0, PROTO_TRICK_PAUSE_MAX, &n)) < 0)
        return -1;
    if (got > 0) {
        p->trick_pause = (int)n;
        p->has |= PROTO_PREF_TRICK_PAUSE;
    }
    return 0;
}

int proto_prefs_read(const json_t *obj, proto_prefs *out, proto_error *err)
{
    memset(err, 0, sizeof *err);
    reader rd = {err, "preferences"};
    if (!json_is_object(obj))
        return proto_fail(err, "bad_field", "Preferences are a JSON object: send one.");
    return read_prefs(&rd, obj, out);
}

void proto_prefs_merge(proto_prefs *into, const proto_prefs *from)
{
    if (from->has & PROTO_PREF_TABLE_COLOUR)
        memcpy(into->table_colour, from->table_colour, sizeof into->table_colour);
    if (from->has & PROTO_PREF_CARD_SPACING)
        into->card_spacing = from->card_spacing;
    if (from->has & PROTO_PREF_CARD_SIZE)
        into->card_size = from->card_size;
    if (from->has & PROTO_PREF_FOUR_COLOUR)
        into->four_colour = from->four_colour;
    if (from->has & PROTO_PREF_SOUND)
        into->sound = from->sound;
    if (from->has & PROTO_PREF_TRICK_PAUSE)
        into->trick_pause = from->trick_pause;
    into->has |= from->has;
}

json_t *proto_prefs_json(const proto_prefs *p)
{
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    bool ok = true;
    if (p->has & PROTO_PREF_TABLE_COLOUR)
        put(o, "table_colour", json_string(p->table_colour), &ok);
    if (p->has & PROTO_PREF_CARD_SPACING)
        put(o, "card_spacing", json_integer(p->card_spacing), &ok);
    if (p->has & PROTO_PREF_CARD_SIZE)
        put(o, "card_size",
            json_string(CARD_SIZES[p->card_size >= 0 && p->card_size < 3 ? p->card_size : 1]), &ok);
    if (p->has & PROTO_PREF_FOUR_COLOUR)
        put(o, "four_colour", json_boolean(p->four_colour), &ok);
    if (p->has & PROTO_PREF_SOUND)
        put(o, "sound", json_boolean(p->sound), &ok);
    if (p->has & PROTO_PREF_TRICK_PAUSE)
        put(o, "trick_pause", json_integer(p->trick_pause), &ok);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static void msg_defaults(proto_msg *m)
{
    memset(m, 0, sizeof *m);
    m->kibitz = PROTO_KIBITZ_SEAT;
    m->grace = 300;
    m->takeover = PROTO_TAKEOVER_VOTE;
    m->delay = 600;
    m->sit = -1;
    m->seat = -1;
    m->action.trump = -1;
}

/* Whether the bytes hold the word "password" (a field's name). */
static bool names_password(const char *data, size_t len)
{
    for (size_t i = 0; i + 8 <= len; i++)
        if (memcmp(data + i, "password", 8) == 0)
            return true;
    return false;
}

int proto_decode(const char *data, size_t len, proto_msg *msg, proto_error *err)
{
    memset(err, 0, sizeof *err);
    msg_defaults(msg);
    if (len > PROTO_MAX_MESSAGE)
        return proto_fail(err, "too_big", "A message holds at most %d bytes: send a shorter one.",
                          PROTO_MAX_MESSAGE);
    json_error_t jerr;
    json_t *o = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
    if (o == NULL) {
        if (json_error_code(&jerr) == json_error_duplicate_key)
            return proto_fail(err, "bad_field", "A field is named twice (%s): name it once.",
                              jerr.text);
        /* jansson's text may quote the bytes near the fault, which may be a
         * password's: a message that names one gets only the position. */
        if (names_password(data, len))
            return proto_fail(err, "bad_json",
                              "The message is not JSON (at character %d): send a JSON object.",
                              jerr.position);
        return proto_fail(err, "bad_json", "The message is not JSON (%s): send a JSON object.",
                          jerr.text);
    }
    int rc = -1;
    if (!json_is_object(o)) {
        proto_fail(err, "bad_json", "A message is a JSON object: send one.");
        goto done;
    }
    /* The type first, so that every later error names the message it
     * refuses; then the id, so that it is echoed. */
    json_t *type_v = json_object_get(o, "type");
    int type = -1;
    if (json_is_string(type_v)) {
        for (int i = 0; i < PROTO_N_TYPES; i++)
            if (strcmp(json_string_value(type_v), TYPE_NAMES[i]) == 0)
                type = i;
    }
    if (type >= 0)
        err->re = TYPE_NAMES[type];
    reader rd = {err, type >= 0 ? TYPE_NAMES[type] : "the message"};
    char q[24];
    json_int_t id;
    int got = get_int(&rd, o, "id", false, 0, INT32_MAX, &id);
    if (got < 0)
        goto done;
    if (got > 0) {
        msg->has_id = err->has_id = true;
        msg->id = err->id = (int32_t)id;
    }
    if (type < 0) {
        if (type_v == NULL)
            proto_fail(err, "bad_type", "A message has a \"type\": add one.");
        else if (!json_is_string(type_v))
            proto_fail(err, "bad_type", "The field \"type\" is a string: send the type's name.");
        else
            proto_fail(err, "bad_type",
                       "There is no message type \"%s\": see docs/protocol.md for the "
                       "messages.",
                       clip(json_string_value(type_v), q, 20));
        goto done;
    }
    msg->type = (uint8_t)type;
    if (check_fields(&rd, o, TYPE_FIELDS[type], PROTO_MAX_FIELDS, true) != 0)
        goto done;
    rc = decode_fields(&rd, o, msg);
done:
    json_decref(o);
    return rc;
}

/* Whether a rules text names its own preset (its first setting). */
static bool names_preset(const char *text)
{
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        size_t i = 0;
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
            i++;
        if (i < n && p[i] != '#')
            return n - i >= 6 && strncmp(p + i, "preset", 6) == 0 &&
                   strchr(" \t=", i + 6 < n ? p[i + 6] : '#') != NULL;
        if (end == NULL)
            break;
        p = end + 1;
    }
    return false;
}

int proto_table_rules(const char *preset, const char *house, barbu_rules *rules, char *why,
                      size_t cap)
{
    if (barbu_rules_preset(rules, preset) != 0) {
        snprintf(why, cap, "unknown preset '%s' (barbu rules --list)", preset);
        return -1;
    }
    barbu_diag d = {0};
    if (house && house[0]) {
        /* A rules file starts from uk unless it names a preset: the table's
         * preset goes first, so that the house rules apply over it. */
        bool own = names_preset(house);
        size_t hlen = strlen(house), plen = strlen(preset);
        char *text = malloc(hlen + plen + 16);
        if (text == NULL) {
            snprintf(why, cap, "out of memory");
            return -1;
        }
        size_t len =
            own ? (size_t)snprintf(text, hlen + 1, "%s", house)
                : (size_t)snprintf(text, hlen + plen + 16, "preset = %s\n%s", preset, house);
        int err = barbu_rules_parse(rules, text, len, &d);
        free(text);
        if (err != 0) {
            snprintf(why, cap, "line %d: %s", d.line - (own ? 0 : 1), d.msg);
            return -1;
        }
        if (own && strcmp(rules->preset, preset) != 0) {
            snprintf(why, cap, "line 1: the house rules start from '%s', the table from '%s'",
                     rules->preset, preset);
            return -1;
        }
    }
    if (barbu_rules_check(rules, &d) != 0) {
        if (d.line > 0)
            snprintf(why, cap, "line %d: %s", d.line, d.msg);
        else
            snprintf(why, cap, "%s", d.msg);
        return -1;
    }
    return 0;
}

int proto_action_read(const json_t *obj, proto_action *out, proto_error *err)
{
    reader rd = {err, "action"};
    if (!json_is_object(obj))
        return proto_fail(err, "bad_field", "An action is a JSON object: send one.");
    if (decode_action(&rd, obj, true, out) < 0)
        return -1;
    if (out->seat < 0)
        return proto_fail(err, "bad_field", "The field \"seat\" is missing in action: add it.");
    return 0;
}

int proto_action_resolve(const proto_action *in, const barbu_rules *rules, int seat,
                         barbu_action *out, proto_error *err)
{
    *out = barbu_act(in->type, seat);
    if (in->type >= N_ACTIONS)
        return proto_fail(err, "bad_value", "There is no such action: choose a legal one.");
    if (in->seat >= 0 && in->seat != seat)
        return proto_fail(err, "bad_seat",
                          "The action is %s's, and you sit %s: send an action of your own "
                          "seat.",
                          proto_seat_name(in->seat), proto_seat_name(seat));
    if (in->n_contracts > BARBU_MAX_CONTRACTS)
        return proto_fail(err, "bad_value", "Too many contracts: choose fewer.");
    for (int i = 0; i < in->n_contracts; i++) {
        char key[sizeof in->contracts[0]];
        memcpy(key, in->contracts[i], sizeof key);
        key[sizeof key - 1] = '\0';
        int c = barbu_contract_find(rules, key);
        if (c < 0)
            return proto_fail(err, "bad_value",
                              "There is no contract \"%s\" in these rules: choose a contract "
                              "of the table's rules.",
                              key);
        out->contracts |= (uint16_t)(1u << c);
    }
    out->trump = in->trump;
    out->rank = in->rank;
    out->doubles = in->doubles;
    out->redoubles = in->redoubles;
    out->cards = in->cards;
    out->middle = in->middle;
    return 0;
}
