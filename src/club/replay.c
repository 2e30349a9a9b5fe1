/*
 * replay.c - a game record replayed by the engine, step by step, as JSON for
 * the club's hand viewer.  The shape is documented in docs/club.md ("The
 * hand viewer"); each step's table is written from the engine's state after
 * the action, so the viewer decides no rule.
 */
#include "replay.h"
#include "json_build.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <barbu/barbu.h>

static const char SUIT_LETTERS[] = "CDHS";
static const char RANK_LETTERS[] = "??23456789TJQKA";
static const char *const SUIT_WORDS[] = {"clubs", "diamonds", "hearts", "spades"};
static const char *const RANK_WORDS[] = {"",  "",  "2",  "3",    "4",     "5",    "6",  "7",
                                         "8", "9", "10", "jack", "queen", "king", "ace"};
static const char *const PHASE_NAMES[] = {"cut",     "declare", "pass_on", "bid",
                                          "arrange", "play",    "over"};
static const char *const KIND_NAMES[] = {"tricks",   "trumps", "domino",
                                         "patience", "ravage", "chinese"};
static const char *const ACT_NAMES[] = {"declare", "bid", "play",   "pass",
                                        "pass_on", "cut", "arrange"};
static const char *const ROW_NAMES[] = {"back", "middle", "front"};
static const char *const PASS_DIR_WORDS[] = {"", "to the left", "across", "to the right"};
static const char *const CUT_FOR_NAMES[] = {"call", "pass_on"};

/* A builder remembers whether anything failed (out of memory), so that the
 * code reads as a list of fields. */
typedef struct builder {
    const barbu_rules *rules;
    bool ok;
    json_t *deals;     /* the deals written so far */
    json_t *deal;      /* the deal being written, NULL between deals */
    json_t *steps;     /* its steps */
    int deal_index;    /* 0-based, -1 before the first */
    barbu_state shown; /* the table after the last step */
    int32_t before[4]; /* the totals before the deal */
} builder;

static json_t *seat_json(int seat)
{
    return json_string(barbu_seat_name(seat));
}

static json_t *letter_json(char c)
{
    char text[2] = {c, '\0'};
    return json_string(text);
}

static json_t *card_json(barbu_card card)
{
    char text[8];
    barbu_card_format(card, BARBU_FMT_ASCII, text, sizeof text);
    return json_string(text);
}

/* A set of cards, spades first and each suit from the ace down. */
static json_t *cards_json(builder *b, barbu_cards set)
{
    json_t *a = json_array();
    for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--)
        for (int rank = BARBU_ACE; rank >= 2; rank--)
            if (set & BARBU_BIT(BARBU_CARD(suit, rank)))
                json_append(&b->ok, a, card_json((barbu_card)BARBU_CARD(suit, rank)));
    return a;
}

/* The cards in words, "Q♥ 10♠". */
static void cards_words(barbu_cards set, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--)
        for (int rank = BARBU_ACE; rank >= 2; rank--) {
            if (!(set & BARBU_BIT(BARBU_CARD(suit, rank))))
                continue;
            char card[12];
            barbu_card_format((barbu_card)BARBU_CARD(suit, rank), BARBU_FMT_UNICODE, card,
                              sizeof card);
            int w = snprintf(buf + n, cap - n, "%s%s", n ? " " : "", card);
            if (w < 0 || (size_t)w >= cap - n)
                return;
            n += (size_t)w;
        }
}

static json_t *ints4_json(builder *b, const int32_t v[4])
{
    json_t *a = json_array();
    for (int i = 0; i < 4; i++)
        json_append(&b->ok, a, json_integer(v[i]));
    return a;
}

static json_t *short4_json(builder *b, const int16_t v[4])
{
    int32_t w[4] = {v[0], v[1], v[2], v[3]};
    return ints4_json(b, w);
}

static json_t *bytes4_json(builder *b, const uint8_t v[4])
{
    int32_t w[4] = {v[0], v[1], v[2], v[3]};
    return ints4_json(b, w);
}

/* A bit set of seats, ["N", "S"]. */
static json_t *seats_json(builder *b, unsigned seats)
{
    json_t *a = json_array();
    for (int s = 0; s < 4; s++)
        if ((seats >> s) & 1)
            json_append(&b->ok, a, seat_json(s));
    return a;
}

/* Doubles or redoubles by seat, only the seats that made some. */
static json_t *seat_sets_json(builder *b, const uint8_t sets[4])
{
    json_t *o = json_object();
    for (int s = 0; s < 4; s++)
        if (sets[s] != 0)
            json_put(&b->ok, o, barbu_seat_name(s), seats_json(b, sets[s]));
    return o;
}

static json_t *contract_keys_json(builder *b, unsigned contracts)
{
    json_t *a = json_array();
    for (int c = 0; c < b->rules->n_contracts && c < BARBU_MAX_CONTRACTS; c++)
        if ((contracts >> c) & 1)
            json_append(&b->ok, a, json_string(b->rules->contract[c].key));
    return a;
}

/* The contract in words: "No Hearts", "Trumps (spades)", "Domino from the
 * jack", or the Fife game's Calls as the engine names them ("Double: Aces +
 * Queens"). */
void club_contract_words(const barbu_rules *r, unsigned contracts, int trump, int rank, char *buf,
                         size_t cap)
{
    buf[0] = '\0';
    if (contracts == 0)
        return;
    if (r->game == BARBU_GAME_FIFE) {
        barbu_calls_describe(contracts, buf, cap);
        return;
    }
    size_t n = 0;
    for (int c = 0; c < r->n_contracts && c < BARBU_MAX_CONTRACTS; c++) {
        if (!((contracts >> c) & 1))
            continue;
        int w = snprintf(buf + n, cap - n, "%s%s", n ? " + " : "", r->contract[c].name);
        if (w < 0 || (size_t)w >= cap - n)
            return;
        n += (size_t)w;
    }
    if (trump >= 0 && trump < 4)
        snprintf(buf + n, cap - n, " (%s)", SUIT_WORDS[trump]);
    else if (rank >= 2 && rank <= BARBU_ACE)
        snprintf(buf + n, cap - n, " from the %s", RANK_WORDS[rank]);
}

void club_seats_words(unsigned seats, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    int total = __builtin_popcount(seats & 15u), done = 0;
    for (int s = 0; s < 4; s++) {
        if (!((seats >> s) & 1))
            continue;
        done++;
        const char *sep = done == 1 ? "" : done == total ? " and " : ", ";
        int w = snprintf(buf + n, cap - n, "%s%s", sep, barbu_seat_name(s));
        if (w < 0 || (size_t)w >= cap - n)
            return;
        n += (size_t)w;
    }
}

/* Words into buf, cut at cap - 1 (a step's words are a line, and longer
 * ones are cut, not an error). */
static void words_put(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void words_put(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

/* The action in words, from the states before and after it (after: the
 * deal's state after it, never the next deal's). */
static void action_words(const barbu_rules *r, const barbu_state *before, const barbu_action *a,
                         const barbu_state *after, char *buf, size_t cap)
{
    const char *who = barbu_seat_name(a->seat);
    char text[400], more[200];
    switch (a->type) {
    case BARBU_ACT_DECLARE:
        club_contract_words(r, a->contracts, a->trump, a->rank, text, sizeof text);
        words_put(buf, cap, "%s %s %s", who, r->game == BARBU_GAME_FIFE ? "calls" : "declares",
                  text);
        break;
    case BARBU_ACT_BID:
        if (a->doubles == 0 && a->redoubles == 0) {
            words_put(buf, cap, "%s passes (no double)", who);
            break;
        }
        text[0] = more[0] = '\0';
        if (a->doubles) {
            club_seats_words(a->doubles, more, sizeof more);
            snprintf(text, sizeof text, "doubles %s", more);
        }
        if (a->redoubles) {
            club_seats_words(a->redoubles, more, sizeof more);
            size_t n = strlen(text);
            snprintf(text + n, sizeof text - n, "%sredoubles %s", n ? ", " : "", more);
        }
        words_put(buf, cap, "%s %s", who, text);
        break;
    case BARBU_ACT_PLAY:
        cards_words(a->cards, text, sizeof text);
        words_put(buf, cap, "%s plays %s", who, text);
        break;
    case BARBU_ACT_PASS:
        words_put(buf, cap, "%s passes: no card fits the layout", who);
        break;
    case BARBU_ACT_PASS_ON: {
        cards_words(a->cards, text, sizeof text);
        int dir = before->t.pass_dir;
        words_put(buf, cap, "%s passes %s %s", who, text,
                  dir >= 1 && dir <= 3 ? PASS_DIR_WORDS[dir] : "on");
        break;
    }
    case BARBU_ACT_CUT: {
        /* The card is the engine's draw, the deal's last cut so far, and
         * what it meant is the engine's note (barbu_cut_note). */
        const barbu_table *t = &after->t;
        int k = t->n_cuts - 1;
        if (k < 0) {
            words_put(buf, cap, "%s cuts", who);
            break;
        }
        barbu_cut_describe(t->cuts[k % (int)sizeof t->cuts], text, sizeof text);
        if (barbu_cut_note(r, t, k, NULL, more, sizeof more) < 0)
            more[0] = '\0';
        words_put(buf, cap, "%s cuts %s%s%s", who, text, more[0] ? ": " : "", more);
        break;
    }
    case BARBU_ACT_ARRANGE: {
        barbu_cards hand = before->hand[a->seat];
        barbu_cards rows[3] = {a->cards, a->middle, hand & ~a->cards & ~a->middle};
        size_t n = 0;
        text[0] = '\0';
        for (int i = 0; i < 3; i++) {
            char what[80];
            barbu_poker_describe(rows[i], what, sizeof what);
            int w =
                snprintf(text + n, sizeof text - n, "%s%s %s", i ? ", " : "", ROW_NAMES[i], what);
            if (w < 0 || (size_t)w >= sizeof text - n)
                break;
            n += (size_t)w;
        }
        words_put(buf, cap, "%s sets the rows: %s", who, text);
        break;
    }
    default:
        words_put(buf, cap, "%s acts", who);
        break;
    }
}

static json_t *rows_json(builder *b, const barbu_cards rows[3])
{
    json_t *o = json_object();
    for (int i = 0; i < 3; i++)
        json_put(&b->ok, o, ROW_NAMES[i], cards_json(b, rows[i]));
    return o;
}

static json_t *trick_json(builder *b, const barbu_trick *k)
{
    json_t *o = json_object();
    json_put(&b->ok, o, "leader", seat_json(k->leader));
    json_t *cards = json_array();
    for (int i = 0; i < k->n && i < 4; i++)
        json_append(&b->ok, cards, card_json(k->card[i]));
    json_put(&b->ok, o, "cards", cards);
    return o;
}

/* The Fife game's table: where the game is, the cuts of the deal with the
 * engine's note on each, the Pass-ons made and chosen. */
static json_t *fife_json(builder *b, const barbu_state *s, bool ended)
{
    const barbu_table *t = &s->t;
    const barbu_rules *r = b->rules;
    json_t *o = json_object();
    json_put(&b->ok, o, "set", json_integer(t->set + 1));
    json_put(&b->ok, o, "round", json_integer(t->round + 1));
    json_put(&b->ok, o, "silly", json_boolean(t->round == BARBU_SILLY_ROUND));
    json_put(&b->ok, o, "calls_done", contract_keys_json(b, t->calls_done));
    if (t->round == BARBU_SILLY_ROUND) {
        json_put(&b->ok, o, "cutter", seat_json(t->cutter));
        if (!ended && t->phase == BARBU_PHASE_CUT)
            json_put(&b->ok, o, "cut_for", json_string(CUT_FOR_NAMES[t->cut_for & 1]));
    }
    int held = t->n_cuts < (int)sizeof t->cuts ? t->n_cuts : (int)sizeof t->cuts;
    if (held > 0) {
        json_t *cuts = json_array();
        for (int k = t->n_cuts - held; k < t->n_cuts; k++) {
            barbu_card cut = t->cuts[k % (int)sizeof t->cuts];
            char card[40], note[320];
            barbu_cut_describe(cut, card, sizeof card);
            int what = BARBU_CUT_CALL;
            if (barbu_cut_note(r, t, k, &what, note, sizeof note) < 0)
                note[0] = '\0';
            json_t *c = json_object();
            if (cut == BARBU_JOKER)
                json_put(&b->ok, c, "card", json_string("Joker"));
            else if (cut == BARBU_BRIDGE)
                json_put(&b->ok, c, "card", json_string("Bridge"));
            else
                json_put(&b->ok, c, "card", card_json(cut));
            json_put(&b->ok, c, "words", json_string(card));
            json_put(&b->ok, c, "for", json_string(CUT_FOR_NAMES[what & 1]));
            json_put(&b->ok, c, "note", json_string(note));
            json_append(&b->ok, cuts, c);
        }
        json_put(&b->ok, o, "cuts", cuts);
    }
    /* The Pass-ons made, and those chosen while the one under way goes
     * round (in a replay every card is shown). */
    int made = t->n_pass_ons < 3 ? t->n_pass_ons : 3;
    if (made > 0 || t->passed_on) {
        json_t *list = json_array();
        for (int k = 0; k < made; k++) {
            json_t *p = json_object();
            json_put(&b->ok, p, "direction", json_integer(barbu_pass_direction(t->round_deal, k)));
            json_t *cards = json_object();
            for (int seat = 0; seat < 4; seat++)
                json_put(&b->ok, cards, barbu_seat_name(seat), cards_json(b, s->pass_ons[k][seat]));
            json_put(&b->ok, p, "cards", cards);
            json_append(&b->ok, list, p);
        }
        json_put(&b->ok, o, "pass_ons", list);
        if (!ended && t->phase == BARBU_PHASE_PASS_ON && t->passed_on) {
            json_t *chosen = json_object();
            for (int seat = 0; seat < 4; seat++)
                if ((t->passed_on >> seat) & 1)
                    json_put(&b->ok, chosen, barbu_seat_name(seat),
                             cards_json(b, s->pending[seat][0]));
            json_put(&b->ok, o, "chosen", chosen);
            json_put(&b->ok, o, "pass_dir", json_integer(t->pass_dir));
        }
    }
    if (t->piranha >= 0)
        json_put(&b->ok, o, "piranha", seat_json(t->piranha));
    return o;
}

/* The public table after a step, all four hands shown.  `ended`: the step
 * ended the deal (s is then the deal's last state, not the next deal's). */
static json_t *table_json(builder *b, const barbu_state *s, bool ended)
{
    const barbu_table *t = &s->t;
    const barbu_rules *r = b->rules;
    json_t *o = json_object();
    json_put(&b->ok, o, "phase", json_string(ended ? "end" : PHASE_NAMES[t->phase % 7]));
    if (!ended && t->to_move >= 0)
        json_put(&b->ok, o, "to_move", seat_json(t->to_move));
    json_t *hands = json_object();
    for (int seat = 0; seat < 4; seat++)
        json_put(&b->ok, hands, barbu_seat_name(seat), cards_json(b, s->hand[seat]));
    json_put(&b->ok, o, "hands", hands);
    if (t->contracts != 0) {
        char words[200];
        club_contract_words(r, t->contracts, t->trump, t->rank, words, sizeof words);
        json_put(&b->ok, o, "contract", json_string(words));
        json_put(&b->ok, o, "kind", json_string(KIND_NAMES[t->kind % 6]));
    }
    if (t->bids != 0) {
        json_put(&b->ok, o, "bids", seats_json(b, t->bids));
        json_put(&b->ok, o, "doubles", seat_sets_json(b, t->dbl));
        json_put(&b->ok, o, "redoubles", seat_sets_json(b, t->rdbl));
    }
    bool tricks = t->kind == BARBU_KIND_TRICKS || t->kind == BARBU_KIND_TRUMPS ||
                  t->kind == BARBU_KIND_RAVAGE;
    if (t->contracts != 0 && tricks && (t->phase == BARBU_PHASE_PLAY || ended)) {
        json_put(&b->ok, o, "trick", trick_json(b, &t->trick));
        if (t->trick.n == 0 && t->ntricks > 0 && t->ntricks <= BARBU_MAX_TRICKS) {
            json_t *last = trick_json(b, &t->last_trick);
            json_put(&b->ok, last, "winner", seat_json(t->winner[t->ntricks - 1]));
            json_put(&b->ok, o, "last_trick", last);
        }
        json_t *winners = json_array();
        for (int k = 0; k < t->ntricks && k < BARBU_MAX_TRICKS; k++)
            json_append(&b->ok, winners, seat_json(t->winner[k]));
        json_put(&b->ok, o, "winners", winners);
        json_put(&b->ok, o, "tricks", bytes4_json(b, t->tricks));
    }
    if (t->kind == BARBU_KIND_DOMINO || t->kind == BARBU_KIND_PATIENCE) {
        json_t *layout = json_object();
        for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--) {
            if (t->lo[suit] == 0)
                continue;
            json_t *ends = json_object();
            json_put(&b->ok, ends, "lo", letter_json(RANK_LETTERS[t->lo[suit] & 15]));
            json_put(&b->ok, ends, "hi", letter_json(RANK_LETTERS[t->hi[suit] & 15]));
            char name[2] = {SUIT_LETTERS[suit], '\0'};
            json_put(&b->ok, layout, name, ends);
        }
        json_put(&b->ok, o, "layout", layout);
        json_t *out = json_array();
        for (int i = 0; i < t->n_out && i < 4; i++)
            json_append(&b->ok, out, seat_json(t->out[i]));
        json_put(&b->ok, o, "out", out);
    }
    if (t->kind == BARBU_KIND_CHINESE && t->contracts != 0) {
        json_t *rows = json_object();
        for (int seat = 0; seat < 4; seat++) {
            if (ended) {
                json_put(&b->ok, rows, barbu_seat_name(seat), rows_json(b, t->last.rows[seat]));
            } else if ((t->arranged >> seat) & 1) {
                barbu_cards set[3] = {s->pending[seat][0], s->pending[seat][1],
                                      s->hand[seat] & ~s->pending[seat][0] & ~s->pending[seat][1]};
                json_put(&b->ok, rows, barbu_seat_name(seat), rows_json(b, set));
            }
        }
        json_put(&b->ok, o, "rows", rows);
    }
    if (r->game == BARBU_GAME_FIFE)
        json_put(&b->ok, o, "fife", fife_json(b, s, ended));
    json_put(&b->ok, o, "totals", ints4_json(b, t->total));
    return o;
}

/* The doubles settled a pair at a time (barbu_business, as barbu_settle
 * applies it): the first seat of "pair" takes "points" from the second. */
static json_t *settled_json(builder *b, const barbu_result *res)
{
    json_t *list = json_array();
    for (int x = 0; x < 4; x++)
        for (int y = x + 1; y < 4; y++) {
            int level = barbu_business(res->dbl, res->rdbl, x, y);
            if (level == 0)
                continue;
            int diff = level * (res->raw[x] - res->raw[y]);
            json_t *pair = json_array();
            json_append(&b->ok, pair, seat_json(diff >= 0 ? x : y));
            json_append(&b->ok, pair, seat_json(diff >= 0 ? y : x));
            json_t *o = json_object();
            json_put(&b->ok, o, "pair", pair);
            json_put(&b->ok, o, "level", json_integer(level));
            json_put(&b->ok, o, "points", json_integer(diff >= 0 ? diff : -diff));
            json_append(&b->ok, list, o);
        }
    return list;
}

static json_t *result_json(builder *b, const barbu_result *res)
{
    const barbu_rules *r = b->rules;
    json_t *o = json_object();
    json_put(&b->ok, o, "played", json_boolean(res->played));
    json_put(&b->ok, o, "tricks_left", json_integer(res->tricks_left));
    json_put(&b->ok, o, "raw", short4_json(b, res->raw));
    json_put(&b->ok, o, "score", short4_json(b, res->score));
    json_put(&b->ok, o, "tricks", bytes4_json(b, res->tricks));
    if (res->order[0] | res->order[1] | res->order[2] | res->order[3]) {
        json_t *a = json_array();
        for (int i = 0; i < 4; i++)
            json_append(&b->ok, a, seat_json(res->order[i]));
        json_put(&b->ok, o, "order", a);
    }
    json_t *taken = json_object();
    for (int seat = 0; seat < 4; seat++)
        if (res->taken[seat] != 0)
            json_put(&b->ok, taken, barbu_seat_name(seat), cards_json(b, res->taken[seat]));
    json_put(&b->ok, o, "taken", taken);
    json_t *part = json_object();
    for (int c = 0; c < r->n_contracts && c < BARBU_MAX_CONTRACTS; c++)
        if (res->part[c][0] | res->part[c][1] | res->part[c][2] | res->part[c][3])
            json_put(&b->ok, part, r->contract[c].key, short4_json(b, res->part[c]));
    json_put(&b->ok, o, "part", part);
    json_put(&b->ok, o, "settled", settled_json(b, res));
    if (res->piranha >= 0 && r->game == BARBU_GAME_FIFE)
        json_put(&b->ok, o, "piranha", seat_json(res->piranha));
    return o;
}

/* The deal's declaration and doubles, from its result or (unfinished) its
 * last table. */
static void close_deal(builder *b, const barbu_result *res)
{
    const barbu_table *t = &b->shown.t;
    unsigned contracts = res ? res->contracts : t->contracts;
    int trump = res ? res->trump : t->trump, rank = res ? res->rank : t->rank;
    char words[200];
    club_contract_words(b->rules, contracts, trump, rank, words, sizeof words);
    json_t *d = b->deal;
    json_put(&b->ok, d, "contracts", contract_keys_json(b, contracts));
    json_put(&b->ok, d, "contract", json_string(words));
    if (trump >= 0 && trump < 4)
        json_put(&b->ok, d, "trump", letter_json(SUIT_LETTERS[trump]));
    if (rank >= 2 && rank <= BARBU_ACE)
        json_put(&b->ok, d, "rank", letter_json(RANK_LETTERS[rank]));
    json_put(&b->ok, d, "doubles", seat_sets_json(b, res ? res->dbl : t->dbl));
    json_put(&b->ok, d, "redoubles", seat_sets_json(b, res ? res->rdbl : t->rdbl));
    json_put(&b->ok, d, "complete", json_boolean(res != NULL));
    if (res != NULL) {
        json_put(&b->ok, d, "result", result_json(b, res));
        json_put(&b->ok, d, "totals_after", ints4_json(b, t->total));
    }
    json_put(&b->ok, d, "steps", b->steps);
    json_append(&b->ok, b->deals, d);
    b->deal = NULL;
    b->steps = NULL;
}

static void open_deal(builder *b, const barbu_state *s)
{
    json_t *d = json_object();
    b->deal = d;
    b->steps = json_array();
    b->deal_index = s->t.deal;
    memcpy(b->before, s->t.total, sizeof b->before);
    json_put(&b->ok, d, "deal", json_integer(s->t.deal + 1));
    json_put(&b->ok, d, "dealer", seat_json(s->t.dealer));
    json_put(&b->ok, d, "declarer", seat_json(s->t.declarer));
    if (b->rules->game == BARBU_GAME_FIFE) {
        json_put(&b->ok, d, "set", json_integer(s->t.set + 1));
        json_put(&b->ok, d, "round", json_integer(s->t.round + 1));
        json_put(&b->ok, d, "silly", json_boolean(s->t.round == BARBU_SILLY_ROUND));
    }
    json_t *hands = json_object();
    for (int seat = 0; seat < 4; seat++)
        json_put(&b->ok, hands, barbu_seat_name(seat), cards_json(b, s->hand[seat]));
    json_put(&b->ok, d, "hands", hands);
    json_put(&b->ok, d, "totals_before", ints4_json(b, b->before));
}

/* The deal's state after an action, never the next deal's: the same action
 * applied to the deal's state before it, on a game cut short after it. */
static void deal_after(const barbu_state *before, const barbu_action *a, const barbu_state *after,
                       barbu_state *shown)
{
    *shown = *before;
    barbu_truncate(shown);
    if (barbu_apply(shown, a) != 0)
        *shown = *after;
}

void club_step_words(const barbu_rules *r, const barbu_state *before, const barbu_action *a,
                     const barbu_state *after, char *buf, size_t cap)
{
    barbu_state shown;
    if (barbu_over(after) || after->t.deal != before->t.deal)
        deal_after(before, a, after, &shown);
    else
        shown = *after;
    action_words(r, before, a, &shown, buf, cap);
}

static void on_step(void *ctx, const barbu_state *before, const barbu_action *a,
                    const barbu_state *after)
{
    builder *b = ctx;
    if (b->deal == NULL || b->deal_index != before->t.deal)
        open_deal(b, before);
    bool ended = barbu_over(after) || after->t.deal != before->t.deal;
    if (ended) {
        /* The deal's last state, not the next deal's first: the same action
         * on a game cut short after this deal. */
        deal_after(before, a, after, &b->shown);
    } else {
        b->shown = *after;
    }
    char words[600];
    action_words(b->rules, before, a, &b->shown, words, sizeof words);
    json_t *step = json_object();
    json_put(&b->ok, step, "seat", seat_json(a->seat));
    json_put(&b->ok, step, "kind", json_string(ACT_NAMES[a->type % 7]));
    json_put(&b->ok, step, "words", json_string(words));
    if (a->type == BARBU_ACT_PLAY || a->type == BARBU_ACT_PASS_ON)
        json_put(&b->ok, step, "cards", cards_json(b, a->cards));
    json_put(&b->ok, step, "table", table_json(b, &b->shown, ended));
    json_append(&b->ok, b->steps, step);
    if (ended)
        close_deal(b, &after->t.last);
}

static void say(char *err, size_t cap, const char *fmt, const char *msg, int line)
{
    if (err == NULL || cap == 0)
        return;
    if (line > 0)
        snprintf(err, cap, "line %d: %s", line, msg);
    else
        snprintf(err, cap, fmt, msg);
}

char *club_replay_json(const char *record_text, char *err, size_t cap)
{
    if (err != NULL && cap > 0)
        err[0] = '\0';
    barbu_record *rec = NULL;
    barbu_diag diag;
    memset(&diag, 0, sizeof diag);
    if (barbu_record_read(record_text, strlen(record_text), &rec, &diag) != 0) {
        say(err, cap, "%s", diag.msg, diag.line);
        return NULL;
    }
    const barbu_rules *rules = barbu_record_rules(rec);
    builder b = {.rules = rules, .ok = true, .deal_index = -1};
    b.deals = json_array();
    memset(&diag, 0, sizeof diag);
    int rc = barbu_record_walk(rec, on_step, &b, &diag);
    char *text = NULL;
    if (rc != 0) {
        say(err, cap, "%s", diag.msg, diag.line);
        json_decref(b.deal);
        json_decref(b.steps);
        json_decref(b.deals);
        barbu_record_free(rec);
        return NULL;
    }
    if (b.deal != NULL)
        close_deal(&b, NULL); /* an unfinished last deal */
    json_t *o = json_object();
    json_put(&b.ok, o, "rules", json_string(rules->preset));
    json_put(&b.ok, o, "fife", json_boolean(rules->game == BARBU_GAME_FIFE));
    json_t *contracts = json_array();
    for (int c = 0; c < rules->n_contracts && c < BARBU_MAX_CONTRACTS; c++) {
        json_t *k = json_object();
        json_put(&b.ok, k, "key", json_string(rules->contract[c].key));
        json_put(&b.ok, k, "name", json_string(rules->contract[c].name));
        json_put(&b.ok, k, "abbr", json_string(rules->contract[c].abbr));
        json_put(&b.ok, k, "kind", json_string(KIND_NAMES[rules->contract[c].kind % 6]));
        json_append(&b.ok, contracts, k);
    }
    json_put(&b.ok, o, "contracts", contracts);
    static const char *const TAGS[] = {"North", "East", "South", "West", "Event"};
    const char *bad_tag = NULL;
    json_t *players = json_object();
    for (int seat = 0; seat < 4; seat++) {
        const char *name = barbu_record_tag(rec, TAGS[seat]);
        json_t *v = name ? json_string(name) : json_null();
        if (v == NULL && bad_tag == NULL)
            bad_tag = TAGS[seat]; /* json_string refuses text that is not UTF-8 */
        json_put(&b.ok, players, barbu_seat_name(seat), v);
    }
    json_put(&b.ok, o, "players", players);
    const char *event = barbu_record_tag(rec, "Event");
    if (event != NULL) {
        json_t *v = json_string(event);
        if (v == NULL && bad_tag == NULL)
            bad_tag = TAGS[4];
        json_put(&b.ok, o, "event", v);
    }
    json_put(&b.ok, o, "n_deals", json_integer(barbu_rules_deals(rules)));
    barbu_state end;
    memset(&end, 0, sizeof end); /* read below even when the replay stops early */
    memset(&diag, 0, sizeof diag);
    int over = barbu_record_replay(rec, &end, NULL, NULL, &diag) == 0 && barbu_over(&end);
    json_put(&b.ok, o, "complete", json_boolean(over));
    json_put(&b.ok, o, "totals", ints4_json(&b, end.t.total));
    json_put(&b.ok, o, "deals", b.deals);
    b.deals = NULL;
    if (b.ok)
        text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    barbu_record_free(rec);
    if (text == NULL && bad_tag != NULL)
        say(err, cap,
            "The record's %s tag is not UTF-8 text: write the record's tags in UTF-8 and "
            "send it again.",
            bad_tag, 0);
    else if (text == NULL)
        say(err, cap, "%s", "out of memory", 0);
    return text;
}
