/*
 * proto_view.c - the "view" object of a view message and its inverse, and a
 * deal's result.  The JSON is written from a barbu_view alone, never from a
 * state, so a message can hold nothing the seat may not know.  The parser
 * rebuilds the view exactly (docs/protocol.md, view), so that a client draws
 * it and asks the engine for its legal actions without a rule of its own;
 * it checks every range, since the engine trusts a view's table.
 */
#include <string.h>

#include "proto.h"

static const char SUIT_LETTERS[] = "CDHS";
static const char RANK_LETTERS[] = "??23456789TJQKA";
static const char *const FLAG_NAMES[] = {"hearts_lead", "early_end", "israeli"};
static const char *const CUT_FOR_NAMES[] = {"call", "pass_on"};
static const char *const PASS_DIR_NAMES[] = {"", "left", "across", "right"};
static const char *const ROW_NAMES[] = {"back", "middle", "front"};

/* ================================================================ writing */

/* A builder remembers whether anything failed (out of memory), so that the
 * code reads as a list of fields. */
typedef struct builder {
    const barbu_rules *rules;
    bool ok;
} builder;

static void put(builder *b, json_t *obj, const char *key, json_t *value)
{
    if (json_object_set_new(obj, key, value) != 0)
        b->ok = false;
}

static void append(builder *b, json_t *array, json_t *value)
{
    if (json_array_append_new(array, value) != 0)
        b->ok = false;
}

static json_t *seat_json(int seat)
{
    return json_string(proto_seat_name(seat));
}

static json_t *letter_json(char c)
{
    char text[2] = {c, '\0'};
    return json_string(text);
}

/* Four numbers, N E S W. */
static json_t *ints4_json(builder *b, const void *values, int size, bool is_signed)
{
    json_t *a = json_array();
    for (int i = 0; i < 4; i++) {
        json_int_t v;
        if (size == 1)
            v = is_signed ? ((const int8_t *)values)[i] : ((const uint8_t *)values)[i];
        else if (size == 2)
            v = is_signed ? ((const int16_t *)values)[i] : ((const uint16_t *)values)[i];
        else
            v = ((const int32_t *)values)[i];
        append(b, a, json_integer(v));
    }
    return a;
}

/* By seat: the sets that are not empty, {"N": [...], "W": [...]}. */
static json_t *cards_by_seat(builder *b, const barbu_cards sets[4])
{
    json_t *o = json_object();
    for (int s = 0; s < 4; s++)
        if (sets[s] != 0)
            put(b, o, proto_seat_name(s), proto_cards_json(sets[s]));
    return o;
}

static json_t *seats_by_seat(builder *b, const uint8_t sets[4])
{
    json_t *o = json_object();
    for (int s = 0; s < 4; s++)
        if (sets[s] != 0)
            put(b, o, proto_seat_name(s), proto_seats_json(sets[s]));
    return o;
}

static json_t *rows_json(builder *b, const barbu_cards rows[3])
{
    json_t *o = json_object();
    for (int r = 0; r < 3; r++)
        put(b, o, ROW_NAMES[r], proto_cards_json(rows[r]));
    return o;
}

static bool any_cards(const barbu_cards *sets, int n)
{
    for (int i = 0; i < n; i++)
        if (sets[i] != 0)
            return true;
    return false;
}

static void put_trump_rank(builder *b, json_t *o, int trump, int rank)
{
    if (trump >= 0 && trump < 4)
        put(b, o, "trump", letter_json(SUIT_LETTERS[trump]));
    if (rank >= 2 && rank <= BARBU_ACE)
        put(b, o, "rank", letter_json(RANK_LETTERS[rank]));
}

/* The doubles settled, a pair at a time, in the engine's own terms
 * (barbu_business, as barbu_settle applies it): the first seat of `pair`
 * takes `points` from the second (the higher raw score first; N E S W order
 * when level).  Derived from doubles, redoubles and raw: a reader may
 * ignore it. */
static json_t *settled_json(builder *b, const barbu_result *res)
{
    json_t *list = json_array();
    for (int x = 0; x < 4; x++) {
        for (int y = x + 1; y < 4; y++) {
            int level = barbu_business(res->dbl, res->rdbl, x, y);
            if (level == 0)
                continue;
            int diff = level * (res->raw[x] - res->raw[y]);
            int hi = diff >= 0 ? x : y, lo = diff >= 0 ? y : x;
            json_t *pair = json_array();
            append(b, pair, seat_json(hi));
            append(b, pair, seat_json(lo));
            json_t *o = json_object();
            put(b, o, "pair", pair);
            put(b, o, "level", json_integer(level));
            put(b, o, "points", json_integer(diff >= 0 ? diff : -diff));
            append(b, list, o);
        }
    }
    return list;
}

static json_t *result_json(builder *b, const barbu_result *res)
{
    const barbu_rules *r = b->rules;
    json_t *o = json_object();
    put(b, o, "deal", json_integer(res->deal));
    put(b, o, "declarer", seat_json(res->declarer));
    put(b, o, "contracts", proto_contracts_json(r, res->contracts));
    put_trump_rank(b, o, res->trump, res->rank);
    put(b, o, "played", json_boolean(res->played));
    put(b, o, "tricks_left", json_integer(res->tricks_left));
    put(b, o, "doubles", seats_by_seat(b, res->dbl));
    put(b, o, "redoubles", seats_by_seat(b, res->rdbl));
    put(b, o, "tricks", ints4_json(b, res->tricks, 1, false));
    /* The order out of a layout: a trick contract leaves it all zero, and
     * a layout's order names four different seats. */
    if (res->order[0] | res->order[1] | res->order[2] | res->order[3]) {
        json_t *a = json_array();
        for (int i = 0; i < 4; i++)
            append(b, a, seat_json(res->order[i]));
        put(b, o, "order", a);
    }
    put(b, o, "taken", cards_by_seat(b, res->taken));
    put(b, o, "raw", ints4_json(b, res->raw, 2, true));
    put(b, o, "score", ints4_json(b, res->score, 2, true));
    put(b, o, "settled", settled_json(b, res));
    json_t *part = json_object();
    for (int c = 0; c < r->n_contracts && c < BARBU_MAX_CONTRACTS; c++)
        if (res->part[c][0] | res->part[c][1] | res->part[c][2] | res->part[c][3])
            put(b, part, r->contract[c].key, ints4_json(b, res->part[c], 2, true));
    put(b, o, "part", part);
    bool rows = false;
    for (int s = 0; s < 4; s++)
        rows = rows || any_cards(res->rows[s], 3);
    if (rows) {
        json_t *by = json_object();
        for (int s = 0; s < 4; s++)
            if (any_cards(res->rows[s], 3))
                put(b, by, proto_seat_name(s), rows_json(b, res->rows[s]));
        put(b, o, "rows", by);
    }
    if (r->game == BARBU_GAME_FIFE) {
        put(b, o, "set", json_integer(res->set));
        put(b, o, "round", json_integer(res->round));
        put(b, o, "round_deal", json_integer(res->round_deal));
        put(b, o, "calls_before", proto_contracts_json(r, res->calls_before));
        if (res->piranha >= 0)
            put(b, o, "piranha", seat_json(res->piranha));
    }
    return o;
}

json_t *proto_result_json(const barbu_rules *rules, const barbu_result *result)
{
    builder b = {rules, true};
    json_t *o = result_json(&b, result);
    if (!b.ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *trick_json(builder *b, const barbu_trick *k)
{
    json_t *o = json_object();
    put(b, o, "leader", seat_json(k->leader));
    json_t *cards = json_array();
    for (int i = 0; i < k->n && i < 4; i++) {
        char text[8];
        barbu_card_format(k->card[i], BARBU_FMT_ASCII, text, sizeof text);
        append(b, cards, json_string(text));
    }
    put(b, o, "cards", cards);
    return o;
}

static json_t *fife_json(builder *b, const barbu_view *v)
{
    const barbu_table *t = &v->t;
    const barbu_rules *r = b->rules;
    json_t *o = json_object();
    put(b, o, "set", json_integer(t->set));
    put(b, o, "round", json_integer(t->round));
    put(b, o, "round_deal", json_integer(t->round_deal));
    put(b, o, "calls_done", proto_contracts_json(r, t->calls_done));
    put(b, o, "cutter", seat_json(t->cutter));
    put(b, o, "cut_for", json_string(t->cut_for < 2 ? CUT_FOR_NAMES[t->cut_for] : "?"));
    put(b, o, "sequence", proto_contracts_json(r, t->sequence));
    put(b, o, "silly_first", seat_json(t->silly_first));
    json_t *draw = json_object();
    for (int s = 0; s < 4; s++)
        if (t->draw[s] != 0)
            put(b, draw, proto_seat_name(s), proto_cut_json(t->draw[s]));
    put(b, o, "draw", draw);
    if (t->pass_dir >= 1 && t->pass_dir <= 3)
        put(b, o, "pass_dir", json_string(PASS_DIR_NAMES[t->pass_dir]));
    put(b, o, "passed_on", proto_seats_json(t->passed_on));
    put(b, o, "n_pass_ons", json_integer(t->n_pass_ons));
    put(b, o, "n_cuts", json_integer(t->n_cuts));
    /* The cuts still held, oldest first: cut k is at cuts[k % 32]. */
    json_t *cuts = json_array(), *notes = json_array();
    int held = t->n_cuts < (int)sizeof t->cuts ? t->n_cuts : (int)sizeof t->cuts;
    for (int k = t->n_cuts - held; k < t->n_cuts; k++) {
        append(b, cuts, proto_cut_json(t->cuts[k % sizeof t->cuts]));
        /* What each cut meant, in the engine's words, so that no client
         * reads the cuts itself. */
        char note[320];
        int what = BARBU_CUT_CALL;
        if (barbu_cut_note(r, t, k, &what, note, sizeof note) < 0)
            note[0] = '\0';
        json_t *n = json_object();
        put(b, n, "for", json_string(CUT_FOR_NAMES[what & 1]));
        put(b, n, "text", json_string(note));
        append(b, notes, n);
    }
    put(b, o, "cuts", cuts);
    put(b, o, "cut_notes", notes);
    if (t->piranha >= 0)
        put(b, o, "piranha", seat_json(t->piranha));
    /* This seat's Pass-ons, without the empty ones after the last. */
    const barbu_cards *lists[2] = {v->passed, v->received};
    const char *names[2] = {"passed", "received"};
    for (int l = 0; l < 2; l++) {
        int n = 3;
        while (n > 0 && lists[l][n - 1] == 0)
            n--;
        json_t *a = json_array();
        for (int k = 0; k < n; k++)
            append(b, a, proto_cards_json(lists[l][k]));
        put(b, o, names[l], a);
    }
    return o;
}

json_t *proto_view_json(const barbu_view *v)
{
    const barbu_table *t = &v->t;
    const barbu_rules *r = v->rules;
    builder b = {r, true};
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    put(&b, o, "seat", seat_json(v->seat));
    put(&b, o, "phase", json_string(proto_phase_name(t->phase)));
    if (t->to_move >= 0)
        put(&b, o, "to_move", seat_json(t->to_move));
    put(&b, o, "deal", json_integer(t->deal));
    put(&b, o, "deals", json_integer(t->n_deals));
    put(&b, o, "acted", json_integer(t->acted));
    put(&b, o, "first", seat_json(t->first));
    put(&b, o, "dealer", seat_json(t->dealer));
    put(&b, o, "declarer", seat_json(t->declarer));
    put(&b, o, "kind", json_string(proto_kind_name(t->kind)));
    put(&b, o, "contracts", proto_contracts_json(r, t->contracts));
    put_trump_rank(&b, o, t->trump, t->rank);
    json_t *flags = json_array();
    for (int f = 0; f < 3; f++)
        if ((t->rule_flags >> f) & 1)
            append(&b, flags, json_string(FLAG_NAMES[f]));
    put(&b, o, "rule_flags", flags);
    put(&b, o, "penalty", proto_cards_json(t->penalty));
    put(&b, o, "hands", cards_by_seat(&b, v->hand));
    put(&b, o, "in_hand", ints4_json(&b, t->in_hand, 1, false));
    put(&b, o, "bids", proto_seats_json(t->bids));
    put(&b, o, "doubles", seats_by_seat(&b, t->dbl));
    put(&b, o, "redoubles", seats_by_seat(&b, t->rdbl));
    json_t *owed = json_array();
    for (int s = 0; s < 4; s++)
        append(&b, owed, ints4_json(&b, t->owed[s], 1, false));
    put(&b, o, "owed", owed);
    put(&b, o, "compulsory", json_boolean(v->compulsory));
    json_t *used = json_object();
    for (int s = 0; s < 4; s++) {
        json_t *mine = NULL;
        for (int c = 0; c < r->n_contracts && c < BARBU_MAX_CONTRACTS; c++) {
            if (t->used[s][c] == 0)
                continue;
            if (mine == NULL)
                mine = json_object();
            put(&b, mine, r->contract[c].key, json_integer(t->used[s][c]));
        }
        if (mine != NULL)
            put(&b, used, proto_seat_name(s), mine);
    }
    put(&b, o, "used", used);
    put(&b, o, "declared", ints4_json(&b, t->declared, 1, false));
    put(&b, o, "advice", proto_cards_json(v->advice));
    json_t *trick = trick_json(&b, &t->trick);
    put(&b, trick, "top", json_integer(barbu_trick_top(t)));
    put(&b, o, "trick", trick);
    if (t->last_trick.n > 0 || t->last_trick.leader != 0) {
        json_t *last = trick_json(&b, &t->last_trick);
        if (t->ntricks > 0 && t->ntricks <= BARBU_MAX_TRICKS && t->winner[t->ntricks - 1] >= 0)
            put(&b, last, "winner", seat_json(t->winner[t->ntricks - 1]));
        put(&b, o, "last_trick", last);
    }
    json_t *winners = json_array();
    for (int k = 0; k < t->ntricks && k < BARBU_MAX_TRICKS; k++)
        append(&b, winners, seat_json(t->winner[k]));
    put(&b, o, "winners", winners);
    put(&b, o, "tricks", ints4_json(&b, t->tricks, 1, false));
    put(&b, o, "taken", cards_by_seat(&b, t->taken));
    put(&b, o, "played", cards_by_seat(&b, t->played));
    put(&b, o, "shown_out", cards_by_seat(&b, t->shown_out));
    json_t *layout = json_object();
    for (int suit = 3; suit >= 0; suit--) {
        if (t->lo[suit] == 0)
            continue;
        json_t *ends = json_object();
        put(&b, ends, "lo", letter_json(RANK_LETTERS[t->lo[suit] & 15]));
        put(&b, ends, "hi", letter_json(RANK_LETTERS[t->hi[suit] & 15]));
        char name[2] = {SUIT_LETTERS[suit], '\0'};
        put(&b, layout, name, ends);
    }
    put(&b, o, "layout", layout);
    json_t *out = json_array();
    for (int i = 0; i < t->n_out && i < 4; i++)
        append(&b, out, seat_json(t->out[i]));
    put(&b, o, "out", out);
    put(&b, o, "passes", json_integer(t->passes));
    if (r->game == BARBU_GAME_FIFE)
        put(&b, o, "fife", fife_json(&b, v));
    put(&b, o, "arranged", proto_seats_json(t->arranged));
    if (any_cards(v->rows, 3))
        put(&b, o, "rows", rows_json(&b, v->rows));
    put(&b, o, "totals", ints4_json(&b, t->total, 4, true));
    /* The deal completed last: none before the first deal ends. */
    if (t->deal > 0)
        put(&b, o, "last_deal", result_json(&b, &t->last));
    if (!b.ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* ================================================================ reading */

typedef struct parser {
    proto_error *err;
    const barbu_rules *rules;
    barbu_cards deck;  /* the rules' pack */
    const char *where; /* the object being read, for errors */
} parser;

static int bad_field(parser *p, const char *fmt, const char *key)
{
    return proto_fail(p->err, "bad_field", "view: %s \"%s\" in %s", fmt, key, p->where);
}

static int bad_value(parser *p, const char *key, const char *why)
{
    return proto_fail(p->err, "bad_value", "view: \"%s\" in %s %s", key, p->where, why);
}

/* Refuses fields outside the list. */
static int only_fields(parser *p, const json_t *obj, const char *const *fields)
{
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)obj, key, value)
    {
        (void)value;
        bool found = false;
        for (int i = 0; fields[i] != NULL && !found; i++)
            found = strcmp(fields[i], key) == 0;
        if (!found) {
            char q[44];
            size_t n = strlen(key) < 40 ? strlen(key) : 40;
            while (n > 0 && ((unsigned char)key[n] & 0xc0) == 0x80)
                n--;
            memcpy(q, key, n);
            q[n] = '\0';
            return bad_field(p, "unknown field", q);
        }
    }
    return 0;
}

/* The value of a field when it has the type wanted: 1, 0 when absent (an
 * error when required), -1 when refused. */
static int get(parser *p, const json_t *obj, const char *key, json_type type, bool required,
               json_t **out)
{
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (v == NULL)
        return required ? bad_field(p, "missing field", key) : 0;
    bool same = json_typeof(v) == type || (type == JSON_TRUE && json_typeof(v) == JSON_FALSE);
    if (!same)
        return bad_field(p, "the wrong type for", key);
    *out = v;
    return 1;
}

static int read_int(parser *p, const json_t *v, const char *key, json_int_t min, json_int_t max,
                    json_int_t *out)
{
    if (!json_is_integer(v))
        return bad_field(p, "the wrong type for", key);
    json_int_t n = json_integer_value(v);
    if (n < min || n > max)
        return bad_value(p, key, "is out of range");
    *out = n;
    return 0;
}

static int get_int(parser *p, const json_t *obj, const char *key, bool required, json_int_t min,
                   json_int_t max, json_int_t *out)
{
    json_t *v = NULL;
    int got = get(p, obj, key, JSON_INTEGER, required, &v);
    if (got <= 0)
        return got;
    return read_int(p, v, key, min, max, out) < 0 ? -1 : 1;
}

static int get_u8(parser *p, const json_t *obj, const char *key, int max, uint8_t *out)
{
    json_int_t n;
    int got = get_int(p, obj, key, true, 0, max, &n);
    if (got > 0)
        *out = (uint8_t)n;
    return got < 0 ? -1 : 0;
}

static int get_u16(parser *p, const json_t *obj, const char *key, int max, uint16_t *out)
{
    json_int_t n;
    int got = get_int(p, obj, key, true, 0, max, &n);
    if (got > 0)
        *out = (uint16_t)n;
    return got < 0 ? -1 : 0;
}

static int read_seat(parser *p, const json_t *v, const char *key)
{
    if (!json_is_string(v))
        return bad_field(p, "the wrong type for", key);
    int seat = proto_seat_read(json_string_value(v));
    if (seat < 0)
        return bad_value(p, key, "is not a seat");
    return seat;
}

/* A seat field: 1 and *out, 0 when absent and not required, -1. */
static int get_seat(parser *p, const json_t *obj, const char *key, bool required, int *out)
{
    json_t *v = NULL;
    int got = get(p, obj, key, JSON_STRING, required, &v);
    if (got <= 0)
        return got;
    int seat = read_seat(p, v, key);
    if (seat < 0)
        return -1;
    *out = seat;
    return 1;
}

static int get_seat_u8(parser *p, const json_t *obj, const char *key, uint8_t *out)
{
    int seat = -1;
    if (get_seat(p, obj, key, true, &seat) < 0)
        return -1;
    *out = (uint8_t)seat;
    return 0;
}

/* One of a few words, required. */
static int get_word(parser *p, const json_t *obj, const char *key, const char *const *words, int n,
                    int *out)
{
    json_t *v = NULL;
    if (get(p, obj, key, JSON_STRING, true, &v) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (words[i][0] != '\0' && strcmp(json_string_value(v), words[i]) == 0) {
            *out = i;
            return 0;
        }
    }
    return bad_value(p, key, "is not a known word");
}

static int read_seats(parser *p, const json_t *a, const char *key, uint8_t *out)
{
    if (!json_is_array(a))
        return bad_field(p, "the wrong type for", key);
    unsigned seats = 0;
    size_t i;
    json_t *v = NULL;
    json_array_foreach(a, i, v)
    {
        int seat = read_seat(p, v, key);
        if (seat < 0)
            return -1;
        if ((seats >> seat) & 1)
            return bad_value(p, key, "names a seat twice");
        seats |= 1u << seat;
    }
    *out = (uint8_t)seats;
    return 0;
}

static int get_seats(parser *p, const json_t *obj, const char *key, bool required, uint8_t *out)
{
    json_t *a = NULL;
    int got = get(p, obj, key, JSON_ARRAY, required, &a);
    if (got <= 0)
        return got;
    return read_seats(p, a, key, out);
}

static int read_card(parser *p, const json_t *v, const char *key)
{
    if (!json_is_string(v))
        return bad_field(p, "the wrong type for", key);
    int card = proto_card_read(json_string_value(v));
    if (card < 0 || !(p->deck & BARBU_BIT(card)))
        return bad_value(p, key, "holds a card not in the pack");
    return card;
}

static int read_cards(parser *p, const json_t *a, const char *key, barbu_cards *out)
{
    if (!json_is_array(a))
        return bad_field(p, "the wrong type for", key);
    barbu_cards cards = 0;
    size_t i;
    json_t *v = NULL;
    json_array_foreach(a, i, v)
    {
        int card = read_card(p, v, key);
        if (card < 0)
            return -1;
        if (cards & BARBU_BIT(card))
            return bad_value(p, key, "names a card twice");
        cards |= BARBU_BIT(card);
    }
    *out = cards;
    return 0;
}

static int get_cards(parser *p, const json_t *obj, const char *key, bool required, barbu_cards *out)
{
    json_t *a = NULL;
    int got = get(p, obj, key, JSON_ARRAY, required, &a);
    if (got <= 0)
        return got;
    return read_cards(p, a, key, out);
}

/* An object by seat: each value read by the callback into slot seat. */
typedef int (*seat_reader)(parser *p, const json_t *v, const char *key, void *slot);

static int get_by_seat(parser *p, const json_t *obj, const char *key, seat_reader fn, void *base,
                       size_t stride)
{
    json_t *o;
    int got = get(p, obj, key, JSON_OBJECT, false, &o);
    if (got <= 0)
        return got;
    const char *seat_key;
    json_t *v = NULL;
    json_object_foreach(o, seat_key, v)
    {
        int seat = proto_seat_read(seat_key);
        if (seat < 0)
            return bad_value(p, key, "has a key that is not a seat");
        if (fn(p, v, key, (char *)base + stride * (size_t)seat) < 0)
            return -1;
    }
    return 1;
}

static int cards_slot(parser *p, const json_t *v, const char *key, void *slot)
{
    return read_cards(p, v, key, slot);
}

static int seats_slot(parser *p, const json_t *v, const char *key, void *slot)
{
    return read_seats(p, v, key, slot);
}

static int cut_read(parser *p, const json_t *v, const char *key)
{
    if (!json_is_string(v))
        return bad_field(p, "the wrong type for", key);
    const char *text = json_string_value(v);
    if (strcmp(text, "Joker") == 0)
        return BARBU_JOKER;
    if (strcmp(text, "Bridge") == 0)
        return BARBU_BRIDGE;
    int card = proto_card_read(text);
    if (card < 0 || BARBU_RANK(card) > 6)
        return bad_value(p, key, "is not a cut of the Unused Pack");
    return card;
}

static int cut_slot(parser *p, const json_t *v, const char *key, void *slot)
{
    int cut = cut_read(p, v, key);
    if (cut < 0)
        return -1;
    *(uint8_t *)slot = (uint8_t)cut;
    return 0;
}

/* Four whole numbers N E S W into an array of the given size. */
static int read_ints4(parser *p, const json_t *a, const char *key, json_int_t min, json_int_t max,
                      void *out, int size)
{
    if (!json_is_array(a))
        return bad_field(p, "the wrong type for", key);
    if (json_array_size(a) != 4)
        return bad_value(p, key, "must hold four numbers");
    for (int i = 0; i < 4; i++) {
        json_int_t n;
        if (read_int(p, json_array_get(a, (size_t)i), key, min, max, &n) < 0)
            return -1;
        if (size == 1)
            ((uint8_t *)out)[i] = (uint8_t)n;
        else if (size == 2)
            ((int16_t *)out)[i] = (int16_t)n;
        else
            ((int32_t *)out)[i] = (int32_t)n;
    }
    return 0;
}

static int get_ints4(parser *p, const json_t *obj, const char *key, json_int_t min, json_int_t max,
                     void *out, int size)
{
    json_t *a = NULL;
    if (get(p, obj, key, JSON_ARRAY, true, &a) < 0)
        return -1;
    return read_ints4(p, a, key, min, max, out, size);
}

static int read_contract(parser *p, const json_t *v, const char *key)
{
    if (!json_is_string(v))
        return bad_field(p, "the wrong type for", key);
    int c = barbu_contract_find(p->rules, json_string_value(v));
    if (c < 0)
        return bad_value(p, key, "names a contract these rules do not have");
    return c;
}

/* Contract keys as a bit per contract, within mask. */
static int get_contracts(parser *p, const json_t *obj, const char *key, bool required,
                         unsigned mask, unsigned *out)
{
    json_t *a = NULL;
    int got = get(p, obj, key, JSON_ARRAY, required, &a);
    if (got <= 0)
        return got;
    unsigned bits = 0;
    size_t i;
    json_t *v = NULL;
    json_array_foreach(a, i, v)
    {
        int c = read_contract(p, v, key);
        if (c < 0)
            return -1;
        if ((bits >> c) & 1)
            return bad_value(p, key, "names a contract twice");
        bits |= 1u << c;
    }
    if (bits & ~mask)
        return bad_value(p, key, "names a contract that does not belong here");
    *out = bits;
    return 1;
}

static int get_trump_rank(parser *p, const json_t *obj, int8_t *trump, int8_t *rank)
{
    json_t *v = NULL;
    *trump = -1;
    *rank = 0;
    int got = get(p, obj, "trump", JSON_STRING, false, &v);
    if (got < 0)
        return -1;
    if (got > 0) {
        const char *s = json_string_value(v);
        const char *at = s[0] != '\0' && s[1] == '\0' ? strchr(SUIT_LETTERS, s[0]) : NULL;
        if (at == NULL)
            return bad_value(p, "trump", "is not a suit");
        *trump = (int8_t)(at - SUIT_LETTERS);
    }
    got = get(p, obj, "rank", JSON_STRING, false, &v);
    if (got < 0)
        return -1;
    if (got > 0) {
        const char *s = json_string_value(v);
        const char *at = s[0] != '\0' && s[1] == '\0' ? strchr(RANK_LETTERS + 2, s[0]) : NULL;
        if (at == NULL)
            return bad_value(p, "rank", "is not a rank");
        *rank = (int8_t)(at - RANK_LETTERS);
    }
    return 0;
}

static int read_rows(parser *p, const json_t *v, const char *key, barbu_cards rows[3])
{
    static const char *const fields[] = {"back", "middle", "front", NULL};
    if (!json_is_object(v))
        return bad_field(p, "the wrong type for", key);
    const char *where = p->where;
    p->where = key;
    int rc = only_fields(p, v, fields);
    for (int r = 0; rc == 0 && r < 3; r++)
        rc = get_cards(p, v, ROW_NAMES[r], true, &rows[r]) < 0 ? -1 : 0;
    p->where = where;
    if (rc == 0 && ((rows[0] & rows[1]) || (rows[0] & rows[2]) || (rows[1] & rows[2])))
        return bad_value(p, key, "has a card in two rows");
    return rc;
}

static int rows_slot(parser *p, const json_t *v, const char *key, void *slot)
{
    return read_rows(p, v, key, slot);
}

static int parse_result(parser *p, const json_t *o, barbu_result *res)
{
    static const char *const fields[] = {
        "deal",        "declarer",   "contracts",    "trump",   "rank",  "played",
        "tricks_left", "doubles",    "redoubles",    "tricks",  "order", "taken",
        "raw",         "score",      "settled",      "part",    "rows",  "set",
        "round",       "round_deal", "calls_before", "piranha", NULL};
    static const char *const fife_fields[] = {"set", "round", "round_deal", "calls_before",
                                              "piranha"};
    const barbu_rules *r = p->rules;
    bool fife = r->game == BARBU_GAME_FIFE;
    memset(res, 0, sizeof *res);
    if (!json_is_object(o))
        return bad_field(p, "the wrong type for", "last_deal");
    p->where = "last_deal";
    if (only_fields(p, o, fields) < 0)
        return -1;
    if (!fife) {
        for (int i = 0; i < 5; i++)
            if (json_object_get(o, fife_fields[i]) != NULL)
                return bad_field(p, "a Fife field outside the Fife game:", fife_fields[i]);
    }
    json_int_t n;
    if (get_int(p, o, "deal", true, 0, UINT16_MAX, &n) < 0)
        return -1;
    res->deal = (uint16_t)n;
    if (get_seat_u8(p, o, "declarer", &res->declarer) < 0)
        return -1;
    unsigned contracts = 0;
    if (get_contracts(p, o, "contracts", true, (1u << r->n_contracts) - 1, &contracts) < 0)
        return -1;
    res->contracts = (uint16_t)contracts;
    if (get_trump_rank(p, o, &res->trump, &res->rank) < 0)
        return -1;
    json_t *v = NULL;
    if (get(p, o, "played", JSON_TRUE, true, &v) < 0)
        return -1;
    res->played = json_is_true(v);
    if (get_u8(p, o, "tricks_left", BARBU_MAX_TRICKS, &res->tricks_left) < 0)
        return -1;
    if (get_by_seat(p, o, "doubles", seats_slot, res->dbl, 1) < 0 ||
        get_by_seat(p, o, "redoubles", seats_slot, res->rdbl, 1) < 0)
        return -1;
    if (get_ints4(p, o, "tricks", 0, BARBU_MAX_TRICKS, res->tricks, 1) < 0)
        return -1;
    int got = get(p, o, "order", JSON_ARRAY, false, &v);
    if (got < 0)
        return -1;
    if (got > 0) {
        uint8_t seen = 0;
        if (json_array_size(v) != 4)
            return bad_value(p, "order", "must name four seats");
        for (int i = 0; i < 4; i++) {
            int seat = read_seat(p, json_array_get(v, (size_t)i), "order");
            if (seat < 0)
                return -1;
            if ((seen >> seat) & 1)
                return bad_value(p, "order", "names a seat twice");
            seen |= (uint8_t)(1u << seat);
            res->order[i] = (uint8_t)seat;
        }
    }
    if (get_by_seat(p, o, "taken", cards_slot, res->taken, sizeof res->taken[0]) < 0)
        return -1;
    if (get_ints4(p, o, "raw", INT16_MIN, INT16_MAX, res->raw, 2) < 0 ||
        get_ints4(p, o, "score", INT16_MIN, INT16_MAX, res->score, 2) < 0)
        return -1;
    got = get(p, o, "part", JSON_OBJECT, false, &v);
    if (got < 0)
        return -1;
    if (got > 0) {
        const char *key;
        json_t *row;
        json_object_foreach(v, key, row)
        {
            int c = barbu_contract_find(r, key);
            if (c < 0)
                return bad_value(p, "part", "names a contract these rules do not have");
            if (read_ints4(p, row, "part", INT16_MIN, INT16_MAX, res->part[c], 2) < 0)
                return -1;
        }
    }
    if (get_by_seat(p, o, "rows", rows_slot, res->rows, sizeof res->rows[0]) < 0)
        return -1;
    if (fife) {
        if (get_u8(p, o, "set", BARBU_MAX_SETS - 1, &res->set) < 0 ||
            get_u8(p, o, "round", BARBU_SILLY_ROUND, &res->round) < 0 ||
            get_u8(p, o, "round_deal", UINT8_MAX, &res->round_deal) < 0)
            return -1;
        unsigned calls = 0;
        if (get_contracts(p, o, "calls_before", true, BARBU_CALLS_ALL, &calls) < 0)
            return -1;
        res->calls_before = (uint8_t)calls;
        int seat = -1;
        if (get_seat(p, o, "piranha", false, &seat) < 0)
            return -1;
        res->piranha = (int8_t)seat;
    }
    return 0;
}

int proto_result_parse(const json_t *result_json, const barbu_rules *rules, barbu_result *out,
                       proto_error *err)
{
    memset(err, 0, sizeof *err);
    parser p = {err, rules, 0, "result"};
    barbu_cards lane = UINT64_C(0x7fff) & ~((UINT64_C(1) << (rules->deck_low & 15)) - 1);
    p.deck = lane | lane << 16 | lane << 32 | lane << 48;
    return parse_result(&p, result_json, out);
}

static int parse_trick(parser *p, const json_t *o, const char *key, barbu_trick *k, int max_n)
{
    static const char *const fields[] = {"leader", "cards", "top", "winner", NULL};
    if (!json_is_object(o))
        return bad_field(p, "the wrong type for", key);
    const char *where = p->where;
    p->where = key;
    int rc = -1;
    if (only_fields(p, o, fields) < 0 || get_seat_u8(p, o, "leader", &k->leader) < 0)
        goto done;
    json_t *cards = NULL;
    if (get(p, o, "cards", JSON_ARRAY, true, &cards) < 0)
        goto done;
    if (json_array_size(cards) > (size_t)max_n) {
        bad_value(p, "cards", "holds too many cards");
        goto done;
    }
    barbu_cards seen = 0;
    for (size_t i = 0; i < json_array_size(cards); i++) {
        int card = read_card(p, json_array_get(cards, i), "cards");
        if (card < 0)
            goto done;
        if (seen & BARBU_BIT(card)) {
            bad_value(p, "cards", "names a card twice");
            goto done;
        }
        seen |= BARBU_BIT(card);
        k->card[i] = (barbu_card)card;
    }
    k->n = (uint8_t)json_array_size(cards);
    /* "top" and "winner" are worked out from the rest: checked, not kept. */
    json_int_t top;
    int seat = -1;
    if (get_int(p, o, "top", false, -1, 3, &top) < 0 || get_seat(p, o, "winner", false, &seat) < 0)
        goto done;
    rc = 0;
done:
    p->where = where;
    return rc;
}

static int parse_layout(parser *p, const json_t *o, barbu_table *t)
{
    static const char *const fields[] = {"lo", "hi", NULL};
    json_t *layout = NULL;
    int got = get(p, o, "layout", JSON_OBJECT, false, &layout);
    if (got <= 0)
        return got;
    const char *key;
    json_t *ends;
    json_object_foreach(layout, key, ends)
    {
        const char *at = key[0] != '\0' && key[1] == '\0' ? strchr(SUIT_LETTERS, key[0]) : NULL;
        if (at == NULL)
            return bad_value(p, "layout", "has a key that is not a suit");
        int suit = (int)(at - SUIT_LETTERS);
        if (!json_is_object(ends))
            return bad_field(p, "the wrong type for", "layout");
        const char *where = p->where;
        p->where = "layout";
        int8_t unused, rank[2];
        int rc = only_fields(p, ends, fields);
        for (int e = 0; rc == 0 && e < 2; e++) {
            json_t *holder = json_object();
            json_t *v = json_object_get(ends, e == 0 ? "lo" : "hi");
            if (v == NULL) {
                rc = bad_field(p, "missing field", e == 0 ? "lo" : "hi");
            } else if (holder == NULL || json_object_set(holder, "rank", v) != 0) {
                rc = proto_fail(p->err, "server", "out of memory");
            } else {
                rc = get_trump_rank(p, holder, &unused, &rank[e]);
                if (rc == 0 && rank[e] < p->rules->deck_low)
                    rc = bad_value(p, "layout", "holds a rank below the pack");
            }
            json_decref(holder);
        }
        p->where = where;
        if (rc < 0)
            return -1;
        t->lo[suit] = (uint8_t)rank[0];
        t->hi[suit] = (uint8_t)rank[1];
    }
    return 1;
}

static int parse_fife(parser *p, const json_t *o, barbu_view *v)
{
    static const char *const fields[] = {
        "set",         "round",   "round_deal", "calls_done", "cutter",     "cut_for", "sequence",
        "silly_first", "draw",    "pass_dir",   "passed_on",  "n_pass_ons", "n_cuts",  "cuts",
        "cut_notes",   "piranha", "passed",     "received",   NULL};
    barbu_table *t = &v->t;
    if (!json_is_object(o))
        return bad_field(p, "the wrong type for", "fife");
    p->where = "fife";
    if (only_fields(p, o, fields) < 0)
        return -1;
    unsigned calls = 0;
    int word = 0;
    if (get_u8(p, o, "set", BARBU_MAX_SETS - 1, &t->set) < 0 ||
        get_u8(p, o, "round", BARBU_SILLY_ROUND, &t->round) < 0 ||
        get_u8(p, o, "round_deal", UINT8_MAX, &t->round_deal) < 0 ||
        get_contracts(p, o, "calls_done", true, BARBU_CALLS_ALL, &calls) < 0)
        return -1;
    t->calls_done = (uint8_t)calls;
    if (get_seat_u8(p, o, "cutter", &t->cutter) < 0 ||
        get_word(p, o, "cut_for", CUT_FOR_NAMES, 2, &word) < 0)
        return -1;
    t->cut_for = (uint8_t)word;
    if (get_contracts(p, o, "sequence", true, BARBU_CALLS_ALL, &calls) < 0)
        return -1;
    t->sequence = (uint8_t)calls;
    if (get_seat_u8(p, o, "silly_first", &t->silly_first) < 0 ||
        get_by_seat(p, o, "draw", cut_slot, t->draw, 1) < 0)
        return -1;
    if (json_object_get(o, "pass_dir") != NULL) {
        if (get_word(p, o, "pass_dir", PASS_DIR_NAMES, 4, &word) < 0)
            return -1;
        t->pass_dir = (uint8_t)word;
    }
    if (get_seats(p, o, "passed_on", true, &t->passed_on) < 0 ||
        get_u8(p, o, "n_pass_ons", 3, &t->n_pass_ons) < 0 ||
        get_u16(p, o, "n_cuts", UINT16_MAX, &t->n_cuts) < 0)
        return -1;
    json_t *cuts = NULL;
    if (get(p, o, "cuts", JSON_ARRAY, true, &cuts) < 0)
        return -1;
    int held = t->n_cuts < (int)sizeof t->cuts ? t->n_cuts : (int)sizeof t->cuts;
    if (json_array_size(cuts) != (size_t)held)
        return bad_value(p, "cuts", "must hold the last cuts, as many as n_cuts up to 32");
    for (int i = 0; i < held; i++) {
        int cut = cut_read(p, json_array_get(cuts, (size_t)i), "cuts");
        if (cut < 0)
            return -1;
        t->cuts[(t->n_cuts - held + i) % (int)sizeof t->cuts] = (uint8_t)cut;
    }
    int seat = -1;
    if (get_seat(p, o, "piranha", false, &seat) < 0)
        return -1;
    t->piranha = (int8_t)seat;
    barbu_cards *lists[2] = {v->passed, v->received};
    const char *names[2] = {"passed", "received"};
    for (int l = 0; l < 2; l++) {
        json_t *a = NULL;
        if (get(p, o, names[l], JSON_ARRAY, true, &a) < 0)
            return -1;
        if (json_array_size(a) > 3)
            return bad_value(p, names[l], "holds more than three Pass-ons");
        for (size_t k = 0; k < json_array_size(a); k++)
            if (read_cards(p, json_array_get(a, k), names[l], &lists[l][k]) < 0)
                return -1;
    }
    return 0;
}

/* The rules the engine relies on in a view's table, beyond each field's
 * own range: what barbu_view_legal and barbu_view_check may trust. */
static int check_view(parser *p, const barbu_view *v)
{
    const barbu_table *t = &v->t;
    const barbu_rules *r = p->rules;
    int size = barbu_rules_hand_size(r);
    p->where = "view";
    if ((t->to_move < 0) != (t->phase == BARBU_PHASE_OVER))
        return bad_value(p, "to_move", "is given exactly when the game is not over");
    if (t->deal > t->n_deals || (t->deal == t->n_deals && t->phase != BARBU_PHASE_OVER))
        return bad_value(p, "deal", "is past the game's deals");
    bool fife = r->game == BARBU_GAME_FIFE;
    if (!fife && (t->phase == BARBU_PHASE_CUT || t->phase == BARBU_PHASE_PASS_ON))
        return bad_value(p, "phase", "is one of the Fife game's only");
    if ((t->phase == BARBU_PHASE_ARRANGE) !=
        (t->kind == BARBU_KIND_CHINESE && t->phase != BARBU_PHASE_OVER &&
         t->phase != BARBU_PHASE_DECLARE && t->phase != BARBU_PHASE_BID))
        return bad_value(p, "phase", "does not fit the kind of contract");
    if (t->kind == BARBU_KIND_TRUMPS && t->trump < 0)
        return bad_value(p, "trump", "must be named at Trumps");
    if (t->kind == BARBU_KIND_RAVAGE)
        return bad_value(p, "kind", "is played as \"tricks\"");
    if (t->phase == BARBU_PHASE_PASS_ON && t->n_pass_ons >= 3)
        return bad_value(p, "n_pass_ons", "leaves no Pass-on to choose");
    for (int s = 0; s < 4; s++) {
        if (barbu_count(v->hand[s]) > size)
            return bad_value(p, "hands", "holds more cards than a hand");
        if (t->in_hand[s] > size)
            return bad_value(p, "in_hand", "counts more cards than a hand");
        if (v->seat != BARBU_ALL_SEATS && s != v->seat && v->hand[s] != 0)
            return bad_value(p, "hands", "shows another seat's hand");
    }
    for (int k = 0; k < t->ntricks; k++)
        if (t->winner[k] < 0)
            return bad_value(p, "winners", "names no seat");
    if (t->ntricks > size)
        return bad_value(p, "winners", "counts more tricks than a deal has");
    for (int s = 0; s < 4; s++) {
        if ((t->lo[s] == 0) != (t->hi[s] == 0))
            return bad_value(p, "layout", "must have both ends");
        if (t->tricks[s] > size)
            return bad_value(p, "tricks", "counts more tricks than a deal has");
    }
    return 0;
}

int proto_view_parse(const json_t *view_json, const barbu_rules *rules, barbu_view *out,
                     proto_error *err)
{
    static const char *const fields[] = {
        "seat",       "phase",    "to_move",  "deal",      "deals",     "acted",      "first",
        "dealer",     "declarer", "kind",     "contracts", "trump",     "rank",       "rule_flags",
        "penalty",    "hands",    "in_hand",  "bids",      "doubles",   "redoubles",  "owed",
        "compulsory", "used",     "declared", "advice",    "trick",     "last_trick", "winners",
        "tricks",     "taken",    "played",   "shown_out", "layout",    "out",        "passes",
        "fife",       "arranged", "rows",     "totals",    "last_deal", NULL};
    static const char *const phases[] = {"cut",     "declare", "pass_on", "bid",
                                         "arrange", "play",    "over"};
    static const char *const kinds[] = {"tricks",   "trumps", "domino",
                                        "patience", "ravage", "chinese"};
    memset(err, 0, sizeof *err);
    memset(out, 0, sizeof *out);
    parser p = {err, rules, 0, "view"};
    barbu_cards lane = UINT64_C(0x7fff) & ~((UINT64_C(1) << (rules->deck_low & 15)) - 1);
    barbu_cards deck = lane | lane << 16 | lane << 32 | lane << 48;
    p.deck = deck;
    barbu_table *t = &out->t;
    out->rules = rules;
    t->to_move = -1;
    t->trump = -1;
    memset(t->winner, -1, sizeof t->winner);
    if (!json_is_object(view_json))
        return proto_fail(err, "bad_field", "a view is an object");
    const json_t *o = view_json;
    if (only_fields(&p, o, fields) < 0)
        return -1;

    json_t *v = NULL;
    if (get(&p, o, "seat", JSON_STRING, true, &v) < 0)
        return -1;
    if (strcmp(json_string_value(v), "all") == 0) {
        out->seat = BARBU_ALL_SEATS;
    } else {
        int seat = read_seat(&p, v, "seat");
        if (seat < 0)
            return -1;
        out->seat = (int8_t)seat;
    }
    int word = 0, seat = -1;
    if (get_word(&p, o, "phase", phases, 7, &word) < 0)
        return -1;
    t->phase = (uint8_t)word;
    if (get_seat(&p, o, "to_move", false, &seat) < 0)
        return -1;
    if (json_object_get(o, "to_move") != NULL)
        t->to_move = (int8_t)seat;
    if (get_u16(&p, o, "deal", UINT16_MAX, &t->deal) < 0 ||
        get_u16(&p, o, "deals", UINT16_MAX, &t->n_deals) < 0 ||
        get_u16(&p, o, "acted", UINT16_MAX, &t->acted) < 0)
        return -1;
    if (t->n_deals != barbu_rules_deals(rules))
        return bad_value(&p, "deals", "is not the number of deals of these rules");
    if (get_seat_u8(&p, o, "first", &t->first) < 0 ||
        get_seat_u8(&p, o, "dealer", &t->dealer) < 0 ||
        get_seat_u8(&p, o, "declarer", &t->declarer) < 0 ||
        get_word(&p, o, "kind", kinds, 6, &word) < 0)
        return -1;
    t->kind = (uint8_t)word;
    unsigned contracts = 0;
    if (get_contracts(&p, o, "contracts", false, (1u << rules->n_contracts) - 1, &contracts) < 0)
        return -1;
    t->contracts = (uint16_t)contracts;
    if (get_trump_rank(&p, o, &t->trump, &t->rank) < 0)
        return -1;
    json_t *flags = NULL;
    int got = get(&p, o, "rule_flags", JSON_ARRAY, false, &flags);
    if (got < 0)
        return -1;
    for (size_t i = 0; got > 0 && i < json_array_size(flags); i++) {
        json_t *holder = json_pack("{sO}", "flag", json_array_get(flags, i));
        int rc = holder == NULL ? proto_fail(err, "server", "out of memory")
                                : get_word(&p, holder, "flag", FLAG_NAMES, 3, &word);
        json_decref(holder);
        if (rc < 0)
            return -1;
        if ((t->rule_flags >> word) & 1)
            return bad_value(&p, "rule_flags", "names a rule twice");
        t->rule_flags |= (uint8_t)(1u << word);
    }
    if (get_cards(&p, o, "penalty", false, &t->penalty) < 0 ||
        get_by_seat(&p, o, "hands", cards_slot, out->hand, sizeof out->hand[0]) < 0 ||
        get_ints4(&p, o, "in_hand", 0, BARBU_MAX_TRICKS, t->in_hand, 1) < 0 ||
        get_seats(&p, o, "bids", false, &t->bids) < 0 ||
        get_by_seat(&p, o, "doubles", seats_slot, t->dbl, 1) < 0 ||
        get_by_seat(&p, o, "redoubles", seats_slot, t->rdbl, 1) < 0)
        return -1;
    json_t *owed = NULL;
    if (get(&p, o, "owed", JSON_ARRAY, true, &owed) < 0)
        return -1;
    if (json_array_size(owed) != 4)
        return bad_value(&p, "owed", "must hold four rows");
    for (int s = 0; s < 4; s++)
        if (read_ints4(&p, json_array_get(owed, (size_t)s), "owed", 0, UINT8_MAX, t->owed[s], 1) <
            0)
            return -1;
    if ((got = get(&p, o, "compulsory", JSON_TRUE, false, &v)) < 0)
        return -1;
    out->compulsory = got > 0 && json_is_true(v);
    json_t *used = NULL;
    if ((got = get(&p, o, "used", JSON_OBJECT, false, &used)) < 0)
        return -1;
    const char *key;
    json_t *mine;
    json_object_foreach(got > 0 ? used : NULL, key, mine)
    {
        int s = proto_seat_read(key);
        if (s < 0)
            return bad_value(&p, "used", "has a key that is not a seat");
        if (!json_is_object(mine))
            return bad_field(&p, "the wrong type for", "used");
        const char *ckey;
        json_t *count;
        json_object_foreach(mine, ckey, count)
        {
            int c = barbu_contract_find(rules, ckey);
            json_int_t n;
            if (c < 0)
                return bad_value(&p, "used", "names a contract these rules do not have");
            if (read_int(&p, count, "used", 0, UINT8_MAX, &n) < 0)
                return -1;
            t->used[s][c] = (uint8_t)n;
        }
    }
    if (get_ints4(&p, o, "declared", 0, UINT8_MAX, t->declared, 1) < 0 ||
        get_cards(&p, o, "advice", false, &out->advice) < 0)
        return -1;
    json_t *trick = NULL;
    if (get(&p, o, "trick", JSON_OBJECT, true, &trick) < 0 ||
        parse_trick(&p, trick, "trick", &t->trick, 3) < 0)
        return -1;
    if ((got = get(&p, o, "last_trick", JSON_OBJECT, false, &trick)) < 0 ||
        (got > 0 && parse_trick(&p, trick, "last_trick", &t->last_trick, 4) < 0))
        return -1;
    json_t *winners = NULL;
    if ((got = get(&p, o, "winners", JSON_ARRAY, false, &winners)) < 0)
        return -1;
    if (got > 0) {
        if (json_array_size(winners) > BARBU_MAX_TRICKS)
            return bad_value(&p, "winners", "names more tricks than a deal has");
        for (size_t k = 0; k < json_array_size(winners); k++) {
            int w = read_seat(&p, json_array_get(winners, k), "winners");
            if (w < 0)
                return -1;
            t->winner[k] = (int8_t)w;
        }
        t->ntricks = (uint8_t)json_array_size(winners);
    }
    if (get_ints4(&p, o, "tricks", 0, BARBU_MAX_TRICKS, t->tricks, 1) < 0 ||
        get_by_seat(&p, o, "taken", cards_slot, t->taken, sizeof t->taken[0]) < 0 ||
        get_by_seat(&p, o, "played", cards_slot, t->played, sizeof t->played[0]) < 0 ||
        parse_layout(&p, o, t) < 0)
        return -1;
    /* A seat shows out of whole suits, so of cards outside a short pack
     * too. */
    p.deck = BARBU_ALL_CARDS;
    if (get_by_seat(&p, o, "shown_out", cards_slot, t->shown_out, sizeof t->shown_out[0]) < 0)
        return -1;
    p.deck = deck;
    json_t *order = NULL;
    if ((got = get(&p, o, "out", JSON_ARRAY, false, &order)) < 0)
        return -1;
    if (got > 0) {
        uint8_t seen = 0;
        if (json_array_size(order) > 4)
            return bad_value(&p, "out", "names more than four seats");
        for (size_t k = 0; k < json_array_size(order); k++) {
            int s = read_seat(&p, json_array_get(order, k), "out");
            if (s < 0)
                return -1;
            if ((seen >> s) & 1)
                return bad_value(&p, "out", "names a seat twice");
            seen |= (uint8_t)(1u << s);
            t->out[k] = (uint8_t)s;
        }
        t->n_out = (uint8_t)json_array_size(order);
    }
    if (get_u8(&p, o, "passes", UINT8_MAX, &t->passes) < 0)
        return -1;
    json_t *fife = json_object_get(o, "fife");
    if (rules->game == BARBU_GAME_FIFE) {
        if (fife == NULL)
            return bad_field(&p, "missing field", "fife");
        if (parse_fife(&p, fife, out) < 0)
            return -1;
        p.where = "view";
    } else if (fife != NULL) {
        return bad_field(&p, "a Fife field outside the Fife game:", "fife");
    }
    if (get_seats(&p, o, "arranged", false, &t->arranged) < 0)
        return -1;
    json_t *rows = NULL;
    if ((got = get(&p, o, "rows", JSON_OBJECT, false, &rows)) < 0 ||
        (got > 0 && read_rows(&p, rows, "rows", out->rows) < 0))
        return -1;
    if (get_ints4(&p, o, "totals", INT32_MIN, INT32_MAX, t->total, 4) < 0)
        return -1;
    /* The deal completed last: there is one exactly when a deal is done. */
    json_t *last = NULL;
    if ((got = get(&p, o, "last_deal", JSON_OBJECT, t->deal > 0, &last)) < 0 ||
        (got > 0 && parse_result(&p, last, &t->last) < 0))
        return -1;
    p.where = "view";
    if (got > 0 && t->deal == 0)
        return bad_value(&p, "last_deal", "is given before any deal is done");
    return check_view(&p, out);
}
