/*
 * record.c - game records: a text format in the spirit of PBN that people
 * can read (docs/record-format.md), its reader and writer, and the replay
 * that checks every action through the engine.
 *
 * A record keeps, per deal, the hands as dealt and the actions in one list
 * per section (the contract, the bidding, the play; in the Fife game also
 * the cuts and the Pass-ons).  The engine knows which kind of action comes
 * next, so replaying takes the next action from the list of that kind: the
 * sections need no interleaving in the text.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Format 2: the Fife game's later Calls read by the booklet's Joker
 * sentence, and bids written as words (max, family). */
#define FORMAT_VERSION 2
/* Keyed games' records: a Key and its Commitment instead of a Seed. */
#define KEYED_VERSION  3
#define MAX_TAGS       64
#define MAX_TAG_VALUE  255
#define MAX_DEALS      4096
#define MAX_LIST       2048
#define MAX_LINE       4096

/* The sections of a deal, one list of actions each. */
enum { SEC_DECLARE, SEC_BID, SEC_PLAY, SEC_CUT, SEC_PASS_ON, SEC_ARRANGE, N_SECTIONS };

static int section_of_action(int type)
{
    switch (type) {
    case BARBU_ACT_DECLARE:
        return SEC_DECLARE;
    case BARBU_ACT_BID:
        return SEC_BID;
    case BARBU_ACT_PLAY:
    case BARBU_ACT_PASS:
        return SEC_PLAY;
    case BARBU_ACT_CUT:
        return SEC_CUT;
    case BARBU_ACT_PASS_ON:
        return SEC_PASS_ON;
    default:
        return SEC_ARRANGE;
    }
}

static int section_of_phase(int phase)
{
    switch (phase) {
    case BARBU_PHASE_DECLARE:
        return SEC_DECLARE;
    case BARBU_PHASE_BID:
        return SEC_BID;
    case BARBU_PHASE_CUT:
        return SEC_CUT;
    case BARBU_PHASE_PASS_ON:
        return SEC_PASS_ON;
    case BARBU_PHASE_ARRANGE:
        return SEC_ARRANGE;
    default:
        return SEC_PLAY;
    }
}

/* A bid written as a word ("S max", "S family"): the record keeps the word
 * in the BID action's rank, which a bid does not otherwise use, and the
 * replay asks the engine what it means for that seat at that point
 * (barbu_bid_shortcut).  "table" is max (seeds 001 and 004: 'say "maximum"
 * or "table" to double all of the players'), "flanks" is family. */
enum { WORD_NONE, WORD_MAX, WORD_FAMILY };

/* A record's CUT action keeps the card its cut shows in `cards` (the
 * engine's CUT action has none: the card is given to the engine with
 * barbu_set_cuts when the deal opens). */
typedef struct act_list {
    barbu_action *v;
    int *line; /* the text line of each action, 0 when not read from text */
    int n, cap;
} act_list;

typedef struct rec_deal {
    barbu_cards hands[4];
    bool has_hands;
    int declarer; /* -1 when not given */
    int dealer;   /* -1 when not given; the Fife game's Silly Round */
    act_list list[N_SECTIONS];
    barbu_cards fronts[4]; /* Chinese Poker: the front row of each rows line, in
                              order (a record made by barbu_record_add has none) */
    uint8_t n_fronts;
    bool has_score, has_final;
    int16_t score[4], final[4];
    int line;                   /* of its [Deal] tag */
    int hands_line;             /* of its Hands tag, 0 if none */
    int score_line, final_line; /* of its Score and Final tags */
    char cuts_call[96];         /* the Calls its "% the cuts call ..." comment
                                   names (barbu's writer puts it on a Silly
                                   Round deal), or "" */
} rec_deal;

typedef struct tag {
    char key[32];
    char *value;
} tag;

struct barbu_record {
    int version; /* the format it was read in (FORMAT_VERSION when made) */
    barbu_rules rules;
    uint64_t seed;
    bool withheld; /* the seed or key is not shown: every deal carries its hands */
    bool keyed;    /* format 3: the game's draws come from a key, not the seed */
    uint8_t key[BARBU_KEY_BYTES];
    uint8_t commitment[BARBU_KEY_BYTES];
    int first; /* -1: drawn from the seed */
    tag tags[MAX_TAGS];
    int n_tags;
    rec_deal *deals;
    int n_deals, cap_deals;
};

/* Tags that the record computes or structures itself. */
static const char *const RESERVED[] = {
    "Barbu",    "Rules",  "Rule",  "Seed",     "First", "Result",     "Deal",
    "Declarer", "Dealer", "Hands", "Contract", "Score", "Final",      "Bidding",
    "Play",     "Rows",   "Cuts",  "PassOn",   "Key",   "Commitment", NULL};

static bool reserved(const char *key)
{
    for (int i = 0; RESERVED[i]; i++)
        if (strcmp(key, RESERVED[i]) == 0)
            return true;
    return false;
}

barbu_record *barbu_record_new(const barbu_rules *rules, uint64_t seed)
{
    barbu_record *rec = calloc(1, sizeof *rec);
    if (rec == NULL)
        return NULL;
    rec->version = FORMAT_VERSION;
    rec->rules = *rules;
    rec->seed = seed;
    rec->first = -1;
    return rec;
}

barbu_record *barbu_record_new_keyed(const barbu_rules *rules, const uint8_t key[BARBU_KEY_BYTES])
{
    barbu_record *rec = barbu_record_new(rules, 0);
    if (rec == NULL)
        return NULL;
    rec->version = KEYED_VERSION;
    rec->keyed = true;
    memcpy(rec->key, key, sizeof rec->key);
    barbu_key_commitment(key, rec->commitment);
    return rec;
}

bool barbu_record_keyed(const barbu_record *rec)
{
    return rec->keyed;
}

bool barbu_record_commitment(const barbu_record *rec, uint8_t out[BARBU_KEY_BYTES])
{
    if (!rec->keyed)
        return false;
    memcpy(out, rec->commitment, sizeof rec->commitment);
    return true;
}

bool barbu_record_key(const barbu_record *rec, uint8_t out[BARBU_KEY_BYTES])
{
    if (!rec->keyed || rec->withheld)
        return false;
    memcpy(out, rec->key, sizeof rec->key);
    return true;
}

void barbu_record_free(barbu_record *rec)
{
    if (rec == NULL)
        return;
    for (int i = 0; i < rec->n_tags; i++)
        free(rec->tags[i].value);
    for (int d = 0; d < rec->n_deals; d++) {
        for (int s = 0; s < N_SECTIONS; s++) {
            free(rec->deals[d].list[s].v);
            free(rec->deals[d].list[s].line);
        }
    }
    free(rec->deals);
    free(rec);
}

static bool valid_key(const char *key)
{
    size_t n = strlen(key);
    if (n == 0 || n >= sizeof((tag *)0)->key)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)key[i]) && key[i] != '_')
            return false;
    return true;
}

static bool valid_value(const char *value)
{
    if (strlen(value) > MAX_TAG_VALUE)
        return false;
    for (const char *p = value; *p; p++)
        if (*p == '"' || *p == '\\' || *p == '\n' || *p == '\r')
            return false;
    return true;
}

int barbu_record_set_tag(barbu_record *rec, const char *key, const char *value)
{
    if (!valid_key(key) || reserved(key) || !valid_value(value))
        return BARBU_EINVAL;
    char *copy = strdup(value);
    if (copy == NULL)
        return BARBU_ENOMEM;
    for (int i = 0; i < rec->n_tags; i++) {
        if (strcmp(rec->tags[i].key, key) == 0) {
            free(rec->tags[i].value);
            rec->tags[i].value = copy;
            return 0;
        }
    }
    if (rec->n_tags == MAX_TAGS) {
        free(copy);
        return BARBU_ELIMIT;
    }
    snprintf(rec->tags[rec->n_tags].key, sizeof rec->tags[0].key, "%s", key);
    rec->tags[rec->n_tags++].value = copy;
    return 0;
}

const char *barbu_record_tag(const barbu_record *rec, const char *key)
{
    for (int i = 0; i < rec->n_tags; i++)
        if (strcmp(rec->tags[i].key, key) == 0)
            return rec->tags[i].value;
    return NULL;
}

const barbu_rules *barbu_record_rules(const barbu_record *rec)
{
    return &rec->rules;
}

uint64_t barbu_record_seed(const barbu_record *rec)
{
    return rec->seed;
}

bool barbu_record_withheld(const barbu_record *rec)
{
    return rec->withheld;
}

int barbu_record_actions(const barbu_record *rec)
{
    int n = 0;
    for (int d = 0; d < rec->n_deals; d++)
        for (int s = 0; s < N_SECTIONS; s++)
            n += rec->deals[d].list[s].n;
    return n;
}

static rec_deal *new_deal(barbu_record *rec)
{
    if (rec->n_deals == MAX_DEALS)
        return NULL;
    if (rec->n_deals == rec->cap_deals) {
        int cap = rec->cap_deals ? rec->cap_deals * 2 : 32;
        rec_deal *v = realloc(rec->deals, (size_t)cap * sizeof *v);
        if (v == NULL)
            return NULL;
        rec->deals = v;
        rec->cap_deals = cap;
    }
    rec_deal *d = &rec->deals[rec->n_deals++];
    memset(d, 0, sizeof *d);
    d->declarer = -1;
    d->dealer = -1;
    return d;
}

static int list_push(act_list *l, const barbu_action *a, int line)
{
    if (l->n == MAX_LIST)
        return BARBU_ELIMIT;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 16;
        barbu_action *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (v == NULL)
            return BARBU_ENOMEM;
        l->v = v;
        int *lines = realloc(l->line, (size_t)cap * sizeof *lines);
        if (lines == NULL)
            return BARBU_ENOMEM;
        l->line = lines;
        l->cap = cap;
    }
    l->v[l->n] = *a;
    l->line[l->n++] = line;
    return 0;
}

int barbu_record_add(barbu_record *rec, const barbu_state *before, const barbu_action *a)
{
    int k = before->t.deal;
    if (k < rec->n_deals - 1 || k > rec->n_deals)
        return BARBU_EINVAL;
    if (k == rec->n_deals) {
        rec_deal *d = new_deal(rec);
        if (d == NULL)
            return BARBU_ENOMEM;
        memcpy(d->hands, before->dealt, sizeof d->hands);
        d->has_hands = true;
        d->declarer = before->t.declarer;
        d->dealer = before->t.dealer;
        if (k == 0)
            rec->first = before->t.first;
    }
    barbu_action kept = *a;
    if (a->type == BARBU_ACT_CUT) {
        /* The card this cut shows, for the record. */
        kept.cards = BARBU_BIT(barbu_next_cut(before));
    }
    return list_push(&rec->deals[k].list[section_of_action(a->type)], &kept, 0);
}

/* The game as its seed or key starts it, before the record's First. */
static int start_drawn(const barbu_record *rec, barbu_state *state)
{
    if (rec->keyed && !rec->withheld)
        return barbu_init_keyed(state, &rec->rules, rec->key);
    return barbu_init(state, &rec->rules, rec->seed);
}

int barbu_record_start(const barbu_record *rec, barbu_state *state)
{
    int err = start_drawn(rec, state);
    if (err == 0 && rec->first >= 0)
        err = barbu_set_first(state, rec->first);
    return err;
}

/* ------------------------------------------------------------ describing */

static const char RANK_CHARS[] = "??23456789TJQKA";

static size_t seats_list(unsigned mask, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int s = 0; s < 4; s++)
        if (mask & (1u << s))
            n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", n ? " " : "",
                                  barbu_seat_name(s));
    return n;
}

/* A bid in words, without the seat: "doubles E W", "redoubles S, doubles N", "passes". */
static void bid_text(const barbu_action *a, char *buf, size_t cap)
{
    char d[16], r[16];
    seats_list(a->doubles, d, sizeof d);
    seats_list(a->redoubles, r, sizeof r);
    if (a->doubles == 0 && a->redoubles == 0)
        snprintf(buf, cap, "passes");
    else if (a->redoubles == 0)
        snprintf(buf, cap, "doubles %s", d);
    else if (a->doubles == 0)
        snprintf(buf, cap, "redoubles %s", r);
    else
        snprintf(buf, cap, "redoubles %s, doubles %s", r, d);
}

/* Cards in the order of a hand (spades, hearts, diamonds, clubs, each from
 * the ace down) joined by sep: "9H+8H+7H" for cards played at once, "AS KS
 * QS" for a Pass-on. */
static void cards_text(barbu_cards cards, const char *sep, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--) {
        for (int rank = BARBU_ACE; rank >= 2; rank--) {
            barbu_card card = BARBU_CARD(suit, rank);
            if (!(cards & BARBU_BIT(card)))
                continue;
            char one[8];
            barbu_card_format(card, BARBU_FMT_ASCII, one, sizeof one);
            if (n >= cap)
                return;
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? sep : "", one);
        }
    }
}

/* A cut of the Unused Pack as a record writes it: "3H", "Joker", "Bridge". */
static void cut_text(int cut, char *buf, size_t cap)
{
    if (cut == BARBU_JOKER)
        snprintf(buf, cap, "Joker");
    else if (cut == BARBU_BRIDGE)
        snprintf(buf, cap, "Bridge");
    else if (cut > 0 && cut < 64)
        barbu_card_format((barbu_card)cut, BARBU_FMT_ASCII, buf, cap);
    else
        snprintf(buf, cap, "?");
}

static void contract_text(const barbu_rules *r, const barbu_action *a, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned m = a->contracts; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        const char *key = c < r->n_contracts ? r->contract[c].key : "?";
        n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", n ? "+" : "", key);
    }
    if (n >= cap)
        return;
    if (a->trump >= 0 && a->trump < 4)
        snprintf(buf + n, cap - n, " %c", "CDHS"[a->trump]);
    else if (a->rank >= 2 && a->rank <= BARBU_ACE)
        snprintf(buf + n, cap - n, " %c", RANK_CHARS[a->rank]);
}

/* Rows in the record's words: "AS KS QS JS TS / 9H 9D 9C 2S 2H / KD QD 3C". */
static void rows_text(barbu_cards back, barbu_cards middle, barbu_cards front, char *buf,
                      size_t cap)
{
    size_t n = 0;
    barbu_cards rows[3] = {back, middle, front};
    buf[0] = '\0';
    for (int r = 0; r < 3; r++) {
        if (r > 0 && rows[r] != 0)
            n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, " /");
        /* By rank, highest first, as poker hands are read. */
        for (int rank = BARBU_ACE; rank >= 2; rank--) {
            for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--) {
                barbu_card card = BARBU_CARD(suit, rank);
                if (!(rows[r] & BARBU_BIT(card)))
                    continue;
                char one[8];
                barbu_card_format(card, BARBU_FMT_ASCII, one, sizeof one);
                n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", n ? " " : "", one);
            }
        }
    }
}

/* An action in words for messages: "E plays QS". */
static void describe(const barbu_rules *r, const barbu_action *a, barbu_cards hand, char *buf,
                     size_t cap)
{
    char what[96];
    switch (a->type) {
    case BARBU_ACT_DECLARE:
        contract_text(r, a, what, sizeof what);
        snprintf(buf, cap, "%s declares %s", barbu_seat_name(a->seat), what);
        return;
    case BARBU_ACT_BID:
        if (a->rank == WORD_MAX || a->rank == WORD_FAMILY)
            snprintf(what, sizeof what, "%s", a->rank == WORD_MAX ? "max" : "family");
        else
            bid_text(a, what, sizeof what);
        break;
    case BARBU_ACT_PLAY:
        cards_text(a->cards, "+", what + 6, sizeof what - 6);
        memcpy(what, "plays ", 6);
        break;
    case BARBU_ACT_PASS:
        snprintf(what, sizeof what, "passes");
        break;
    case BARBU_ACT_CUT:
        /* A record's cut holds the card it shows (act_list). */
        memcpy(what, "cuts ", 5);
        cut_text(a->cards ? bb_lowest(a->cards) : -1, what + 5, sizeof what - 5);
        break;
    case BARBU_ACT_PASS_ON:
        memcpy(what, "passes on ", 10);
        cards_text(a->cards, " ", what + 10, sizeof what - 10);
        break;
    case BARBU_ACT_ARRANGE: {
        char rows[80];
        rows_text(a->cards, a->middle, hand & ~a->cards & ~a->middle, rows, sizeof rows);
        snprintf(what, sizeof what, "sets %s", rows);
        break;
    }
    default:
        snprintf(what, sizeof what, "acts");
        break;
    }
    if (a->seat < 0) {
        /* A card of a play line after its first: its seat comes from the
         * engine, and there is none once the deal is over. */
        snprintf(buf, cap, "%s", a->type == BARBU_ACT_PLAY ? what + 6 : what);
        return;
    }
    snprintf(buf, cap, "%s %s", barbu_seat_name(a->seat), what);
}

/* ---------------------------------------------------------------- replay */

static int replay_fail(barbu_diag *diag, int line, int deal, int pos, int err, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static int replay_fail(barbu_diag *diag, int line, int deal, int pos, int err, const char *fmt, ...)
{
    if (diag != NULL) {
        diag->line = line;
        diag->deal = deal;
        diag->position = pos;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
        va_end(ap);
    }
    return err;
}

static bool silly_round(const barbu_state *s)
{
    return s->rules->game == BARBU_GAME_FIFE && s->t.round == BARBU_SILLY_ROUND;
}

/* The cards a deal's cuts show, in order, for barbu_set_cuts: at most as
 * many as the engine holds (the rest are checked one by one as they come). */
static int deal_cuts(const rec_deal *d, barbu_card *cuts, int cap)
{
    int n = 0;
    for (; n < d->list[SEC_CUT].n && n < cap; n++)
        cuts[n] = (barbu_card)bb_lowest(d->list[SEC_CUT].v[n].cards);
    return n;
}

/*
 * Opens deal k of the record on the state before its first action: the
 * Silly Round's first dealer (the record may choose it), the hands, the
 * cuts; then checks the roles the record names against the engine.
 */
/* "the key" or "the seed": where a record's game draws from. */
static const char *source(const barbu_record *rec)
{
    return rec->keyed ? "the key" : "the seed";
}

/*
 * Deal k of a record checked against what its seed or key deals (the
 * strict replay of barbu_record_verify): the Silly Round's first dealer and
 * the hands, where the record gives them, must be the ones drawn.
 */
static int check_dealt(const barbu_record *rec, const rec_deal *d, int k, const barbu_state *s,
                       barbu_diag *diag)
{
    if (silly_round(s) && s->t.round_deal == 0 && d->dealer >= 0 && d->dealer != s->t.dealer)
        return replay_fail(diag, d->line, k + 1, 0, BARBU_EMISMATCH,
                           "deal %d: the record says %s deals first in the Silly Round; %s's "
                           "draw makes %s the dealer",
                           k + 1, barbu_seat_name(d->dealer), source(rec),
                           barbu_seat_name(s->t.dealer));
    if (!d->has_hands)
        return 0;
    for (int seat = 0; seat < 4; seat++) {
        if (d->hands[seat] == s->dealt[seat])
            continue;
        char found[40], want[40];
        barbu_hand_format(d->hands[seat], found, sizeof found);
        barbu_hand_format(s->dealt[seat], want, sizeof want);
        return replay_fail(diag, d->hands_line ? d->hands_line : d->line, k + 1, 0, BARBU_EMISMATCH,
                           "deal %d: %s's hand in the record is %s; %s deals %s", k + 1,
                           barbu_seat_name(seat), found, source(rec), want);
    }
    return 0;
}

static int open_deal(const barbu_record *rec, const rec_deal *d, int k, barbu_state *s, bool strict,
                     barbu_diag *diag)
{
    int err;
    bool silly = silly_round(s);
    if (strict) {
        if ((err = check_dealt(rec, d, k, s, diag)) != 0)
            return err;
        goto roles;
    }
    if (rec->withheld) {
        /* Without the seed nothing can be dealt, drawn or cut: the record
         * must give it all. */
        if (!d->has_hands)
            return replay_fail(diag, d->line, k + 1, 0, BARBU_EMISMATCH,
                               "deal %d has no Hands tag, and the seed is withheld", k + 1);
        if (silly && s->t.round_deal == 0 && d->dealer < 0)
            return replay_fail(diag, d->line, k + 1, 0, BARBU_EMISMATCH,
                               "deal %d opens a Silly Round without a Dealer tag, and the seed "
                               "is withheld",
                               k + 1);
    }
    if (silly && s->t.round_deal == 0 && d->dealer >= 0 &&
        (err = barbu_set_first(s, d->dealer)) != 0)
        return replay_fail(diag, d->line, k + 1, 0, err, "deal %d: %s", k + 1, barbu_strerror(err));
    if (d->has_hands && (err = barbu_set_hands(s, d->hands)) != 0) {
        char why[200];
        if (err == BARBU_EHANDS)
            barbu_hands_check(s->rules, d->hands, why, sizeof why);
        else
            snprintf(why, sizeof why, "%s", barbu_strerror(err));
        return replay_fail(diag, d->hands_line ? d->hands_line : d->line, k + 1, 0, err,
                           "deal %d: the hands are not a deal: %s", k + 1, why);
    }
    if (rec->rules.game == BARBU_GAME_FIFE && d->list[SEC_CUT].n > 0) {
        barbu_card cuts[sizeof s->forced_cuts];
        int n = deal_cuts(d, cuts, (int)sizeof cuts);
        if ((err = barbu_set_cuts(s, cuts, n)) != 0)
            return replay_fail(diag, d->list[SEC_CUT].line[0], k + 1, 0, err, "deal %d: %s", k + 1,
                               barbu_strerror(err));
    }
roles:
    if (d->declarer >= 0 && d->declarer != s->t.declarer)
        return replay_fail(diag, d->line, k + 1, 0, BARBU_EMISMATCH,
                           "deal %d: the record says %s declares, the schedule says %s", k + 1,
                           barbu_seat_name(d->declarer), barbu_seat_name(s->t.declarer));
    if (d->dealer >= 0 && d->dealer != s->t.dealer)
        return replay_fail(diag, d->line, k + 1, 0, BARBU_EMISMATCH,
                           "deal %d: the record says %s deals, the engine says %s", k + 1,
                           barbu_seat_name(d->dealer), barbu_seat_name(s->t.dealer));
    if (silly && d->list[SEC_DECLARE].n > 0)
        return replay_fail(diag, d->list[SEC_DECLARE].line[0], k + 1, 0, BARBU_EMISMATCH,
                           "deal %d: the Silly Round's Calls come from the cuts, not from a "
                           "Contract tag",
                           k + 1);
    return 0;
}

/* What a replay saw, for reading a format 1 record of the Fife game: where
 * the Cutter first cut again only because a Joker could still add to the
 * Call (which barbu before format 2 did not do), the Calls of that deal,
 * and a digest of every deal's Calls and scores to compare two readings. */
typedef struct replay_trace {
    int watch;        /* the deal whose Calls to keep (-1: the first joker_deal) */
    unsigned watched; /* its Calls, once the cuts decide them */
    int joker_deal;   /* 0-based, -1 if never */
    int joker_line, joker_pos;
    char joker_what[64];
    int deals;       /* deals completed */
    uint64_t digest; /* FNV-1a over each deal's Calls and scores */
} replay_trace;

static void trace_deal(replay_trace *tr, const barbu_result *res)
{
    uint64_t h = tr->digest ? tr->digest : UINT64_C(14695981039346656037);
    int16_t v[9] = {(int16_t)res->contracts};
    memcpy(v + 1, res->raw, sizeof res->raw);
    memcpy(v + 5, res->score, sizeof res->score);
    const unsigned char *p = (const unsigned char *)v;
    for (size_t i = 0; i < sizeof v; i++)
        h = (h ^ p[i]) * UINT64_C(1099511628211);
    tr->digest = h;
    tr->deals++;
}

/* Why the deal ended before the record's next action of section sec. */
static void ended_why(const barbu_rules *r, const barbu_result *res, int sec, char *buf, size_t cap)
{
    char name[96] = "";
    if (r->game == BARBU_GAME_FIFE) {
        barbu_calls_describe(res->contracts, name, sizeof name);
    } else {
        size_t n = 0;
        for (unsigned m = res->contracts; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            n += (size_t)snprintf(name + n, n < sizeof name ? sizeof name - n : 0, "%s%s",
                                  n ? " + " : "", c < r->n_contracts ? r->contract[c].name : "?");
        }
    }
    if (!res->played)
        snprintf(buf, cap,
                 "nobody doubled %s at %s, so the deal was not played and its points "
                 "were shared",
                 barbu_seat_name(res->declarer), name);
    else if (sec == SEC_BID)
        snprintf(buf, cap, "the bidding is over");
    else if (res->tricks_left)
        snprintf(buf, cap, "%s ended with %d trick%s left, its last penalty card taken", name,
                 res->tricks_left, res->tricks_left == 1 ? "" : "s");
    else {
        int kind = res->contracts ? r->contract[__builtin_ctz(res->contracts)].kind : 0;
        if (kind == BARBU_KIND_DOMINO || kind == BARBU_KIND_PATIENCE)
            snprintf(buf, cap, "%s ended when the third player went out", name);
        else if (kind == BARBU_KIND_CHINESE)
            snprintf(buf, cap, "the rows of %s have all been shown", name);
        else
            snprintf(buf, cap, "all %d tricks of %s have been played", barbu_rules_hand_size(r),
                     name);
    }
}

/*
 * A Domino deal written to the end: seed 004 says "Play continues until all
 * cards have been laid out", while the engine ends the deal when the third
 * player goes out.  The last player's remaining cards may follow in the
 * [Play] section: each must be theirs and fit the layout in turn, and they
 * must be all of them.  The score is the same.  `end` is the state before
 * the deal's last card, `last` that card.  Returns how many of the
 * section's actions from `from` were laid out, or an error.
 */
static int domino_play_out(const barbu_state *end, const barbu_action *last, const rec_deal *d,
                           int k, int from, barbu_diag *diag)
{
    const barbu_rules *r = end->rules;
    barbu_table t = end->t;
    barbu_cards placed = last->cards;
    bb_layout_place(r, &t, (barbu_card)bb_lowest(last->cards));
    int seat = -1;
    for (int s = 0; s < 4; s++) {
        barbu_cards left = end->hand[s] & ~(s == last->seat ? placed : 0);
        if (left)
            seat = s;
    }
    barbu_cards hand = seat >= 0 ? end->hand[seat] : 0;
    const act_list *l = &d->list[SEC_PLAY];
    int i = from;
    for (; i < l->n && hand; i++) {
        const barbu_action *a = &l->v[i];
        char card[8];
        if (a->type == BARBU_ACT_PLAY)
            barbu_card_format((barbu_card)bb_lowest(a->cards), BARBU_FMT_ASCII, card, sizeof card);
        if (a->seat >= 0 && a->seat != seat)
            return replay_fail(diag, l->line[i], k + 1, 0, BARBU_EMISMATCH,
                               "deal %d: after the third player went out only %s's cards are "
                               "left to lay out, not %s's",
                               k + 1, barbu_seat_name(seat), barbu_seat_name(a->seat));
        if (a->type != BARBU_ACT_PLAY)
            return replay_fail(diag, l->line[i], k + 1, 0, BARBU_EMISMATCH,
                               "deal %d: %s, the last player, can always lay a card out: no "
                               "pass after the third player went out",
                               k + 1, barbu_seat_name(seat));
        if (a->cards & (a->cards - 1)) {
            char group[40];
            cards_text(a->cards, "+", group, sizeof group);
            return replay_fail(diag, l->line[i], k + 1, 0, BARBU_EONECARD,
                               "deal %d: %s, the last player, lays out one card a turn, not %s "
                               "together",
                               k + 1, barbu_seat_name(seat), group);
        }
        if (!(a->cards & hand))
            return replay_fail(diag, l->line[i], k + 1, 0, BARBU_EMISMATCH,
                               "deal %d: %s is not one of the cards %s has left to lay out", k + 1,
                               card, barbu_seat_name(seat));
        if (!(bb_layout_playable(r, &t, a->cards))) {
            char why[200];
            bb_layout_why(r, &t, a->cards, why, sizeof why);
            return replay_fail(diag, l->line[i], k + 1, 0, BARBU_ELAYOUT,
                               "deal %d: %s, the last player, plays %s: %s", k + 1,
                               barbu_seat_name(seat), card, why);
        }
        bb_layout_place(r, &t, (barbu_card)bb_lowest(a->cards));
        hand &= ~a->cards;
    }
    if (i > from && hand) {
        char rest[64];
        cards_text(hand, " ", rest, sizeof rest);
        return replay_fail(diag, l->line[i - 1], k + 1, 0, BARBU_EMISMATCH,
                           "deal %d: the last player's cards are laid out only in part: %s has "
                           "%s left",
                           k + 1, barbu_seat_name(seat), rest);
    }
    return i - from;
}

/* Refuses an action of the record left over when the deal ended, or that
 * cannot come yet, saying what the engine did instead. */
static int leftover(const barbu_record *rec, const rec_deal *d, int k, int sec,
                    const int next[N_SECTIONS], int pos, const barbu_state *s, bool complete,
                    const barbu_result *res, barbu_diag *diag)
{
    int at = next[sec];
    const barbu_action *a = &d->list[sec].v[at];
    int line = d->list[sec].line[at];
    char what[128], why[200];
    describe(&rec->rules, a, 0, what, sizeof what);
    if (sec == SEC_BID) {
        /* Each player bids once: who has bid already, and where. */
        for (int i = 0; i < at; i++) {
            if (d->list[SEC_BID].v[i].seat == a->seat)
                return replay_fail(diag, line, k + 1, pos, BARBU_EMISMATCH,
                                   "deal %d: '%s' is a second bid: %s bid at line %d, and each "
                                   "player bids once",
                                   k + 1, what, barbu_seat_name(a->seat), d->list[SEC_BID].line[i]);
        }
        if (complete && a->seat == res->declarer)
            return replay_fail(diag, line, k + 1, pos, BARBU_EMISMATCH,
                               "deal %d: '%s' cannot be: nobody doubled %s, the declarer, so "
                               "%s has nothing to answer",
                               k + 1, what, barbu_seat_name(a->seat), barbu_seat_name(a->seat));
    }
    if ((sec == SEC_CUT || sec == SEC_PASS_ON) && (complete || s->t.phase == BARBU_PHASE_PLAY)) {
        /* The cuts before it decided everything there was to cut for. */
        unsigned calls = complete ? res->contracts : s->t.contracts;
        char named[96];
        barbu_calls_describe(calls, named, sizeof named);
        int pass_ons = next[SEC_PASS_ON] / 4;
        char made[40];
        if (pass_ons == 0)
            snprintf(made, sizeof made, "no Pass-on");
        else
            snprintf(made, sizeof made, "%d Pass-on%s", pass_ons, pass_ons == 1 ? "" : "s");
        if (sec == SEC_CUT)
            return replay_fail(diag, line, k + 1, pos, BARBU_EMISMATCH,
                               "deal %d: '%s' is a cut too many: the cuts before it decided the "
                               "Call (%s) and %s",
                               k + 1, what, named, made);
        return replay_fail(diag, line, k + 1, pos, BARBU_EMISMATCH,
                           "deal %d: '%s' is a Pass-on the cuts did not call for: they called for "
                           "%s",
                           k + 1, what, made);
    }
    if (complete) {
        ended_why(&rec->rules, res, sec, why, sizeof why);
        return replay_fail(diag, line, k + 1, pos, BARBU_EMISMATCH,
                           "deal %d: '%s' comes after the end of the deal: %s", k + 1, what, why);
    }
    barbu_waiting_for(s->rules, &s->t, why, sizeof why);
    static const char *const SECTION[N_SECTIONS] = {"a Contract tag", "[Bidding]", "[Play]",
                                                    "[Cuts]",         "[PassOn]",  "[Rows]"};
    int want = section_of_phase(s->t.phase);
    return replay_fail(diag, line, k + 1, pos, BARBU_EMISMATCH,
                       "deal %d: '%s' cannot come yet: the game waits for %s, which the record "
                       "does not give (%s)",
                       k + 1, what, why, SECTION[want]);
}

/* A bid the record writes as a word: what it means for the seat to move. */
static int resolve_word(const barbu_state *s, barbu_action *a)
{
    if (a->type != BARBU_ACT_BID || a->rank == WORD_NONE)
        return 0;
    int which = a->rank == WORD_MAX ? BARBU_BID_MAX : BARBU_BID_FAMILY;
    barbu_action out;
    int err = barbu_bid_shortcut(s->rules, &s->t, which, &out);
    if (err != 0)
        return err;
    out.seat = a->seat;
    *a = out;
    return 0;
}

static int replay(const barbu_record *rec, barbu_state *s, barbu_result_fn on_result, void *ctx,
                  barbu_diag *diag, replay_trace *tr, bool strict)
{
    int err = strict ? start_drawn(rec, s) : barbu_record_start(rec, s);
    if (err != 0)
        return replay_fail(diag, 0, 0, 0, err, "cannot start the game: %s", barbu_strerror(err));
    if (strict && rec->first >= 0 && rec->first != s->t.first)
        return replay_fail(
            diag, 0, 0, 0, BARBU_EMISMATCH, "the record says %s %s first; %s's draw makes it %s",
            barbu_seat_name(rec->first), rec->rules.game == BARBU_GAME_FIFE ? "calls" : "declares",
            source(rec), barbu_seat_name(s->t.first));
    for (int k = 0; k < rec->n_deals; k++) {
        const rec_deal *d = &rec->deals[k];
        if (barbu_over(s))
            return replay_fail(diag, d->line, k + 1, 0, BARBU_EMISMATCH,
                               "deal %d is past the end of the game (%d deals)", k + 1, s->t.deal);
        if ((err = open_deal(rec, d, k, s, strict, diag)) != 0)
            return err;
        int next[N_SECTIONS] = {0}, pos = 0;
        barbu_state before = *s;
        barbu_action act = {0};
        while (!barbu_over(s) && s->t.deal == k) {
            int sec = section_of_phase(s->t.phase);
            if (next[sec] == d->list[sec].n)
                break;
            barbu_action a = d->list[sec].v[next[sec]];
            int line = d->list[sec].line[next[sec]++];
            pos++;
            if (a.seat < 0)
                a.seat = s->t.to_move;
            /* The action in words, only for an error: a replay that goes
             * well never formats a line. */
            char what[128], why[400];
            /* Rows are described as the record gives them, front row included. */
            int row_line = next[SEC_ARRANGE] - 1;
            bool text_rows = a.type == BARBU_ACT_ARRANGE && row_line < d->n_fronts;
            barbu_cards shown =
                text_rows ? a.cards | a.middle | d->fronts[row_line] : s->hand[a.seat];
            before = *s;
            if (text_rows &&
                barbu_arrange_check(s->hand[a.seat], a.cards, a.middle, true, NULL, 0) == 0 &&
                d->fronts[row_line] != (s->hand[a.seat] & ~a.cards & ~a.middle)) {
                describe(&rec->rules, &a, shown, what, sizeof what);
                char rest[80];
                rows_text(s->hand[a.seat] & ~a.cards & ~a.middle, 0, 0, rest, sizeof rest);
                return replay_fail(diag, line, k + 1, pos, BARBU_EMISMATCH,
                                   "deal %d, action %d (%s): the front row is not the rest of "
                                   "the hand (%s)",
                                   k + 1, pos, what, rest);
            }
            act = a;
            if (a.type == BARBU_ACT_CUT) {
                /* The engine draws the card: it was given with the deal's
                 * cuts, or (past what the engine holds) comes from the seed. */
                act.cards = 0;
                int cut = barbu_next_cut(s);
                if (BARBU_BIT(cut) != a.cards) {
                    describe(&rec->rules, &a, shown, what, sizeof what);
                    char card[16];
                    cut_text(cut, card, sizeof card);
                    if (strict)
                        return replay_fail(diag, line, k + 1, pos, BARBU_EMISMATCH,
                                           "deal %d, action %d (%s): %s cuts %s", k + 1, pos, what,
                                           source(rec), card);
                    return replay_fail(diag, line, k + 1, pos, BARBU_EMISMATCH,
                                       "deal %d, action %d (%s): the engine cuts %s (a deal "
                                       "takes at most %d cuts from a record)",
                                       k + 1, pos, what, card, (int)sizeof s->forced_cuts);
                }
            }
            if (a.seat == s->t.to_move && (err = resolve_word(s, &act)) != 0) {
                describe(&rec->rules, &a, shown, what, sizeof what);
                /* Family fails for the declarer and at a positive contract:
                 * the doubles it would make say why. */
                barbu_action two =
                    barbu_act_bid(a.seat, 0xfu & ~(1u << a.seat) & ~(1u << s->t.declarer), 0);
                if (barbu_explain(s, &two, why, sizeof why) == 0)
                    snprintf(why, sizeof why, "%s", barbu_strerror(err));
                return replay_fail(diag, line, k + 1, pos, err, "deal %d, action %d (%s): %s",
                                   k + 1, pos, what, why);
            }
            if ((err = barbu_explain(s, &act, why, sizeof why)) != 0 ||
                (err = barbu_apply(s, &act)) != 0) {
                describe(&rec->rules, &a, shown, what, sizeof what);
                if (why[0] == '\0')
                    snprintf(why, sizeof why, "%s", barbu_strerror(err));
                if (a.type == BARBU_ACT_PLAY &&
                    (before.t.kind == BARBU_KIND_TRICKS || before.t.kind == BARBU_KIND_TRUMPS))
                    return replay_fail(diag, line, k + 1, pos, err,
                                       "deal %d, trick %d, card %d (%s): %s", k + 1,
                                       before.t.ntricks + 1, before.t.trick.n + 1, what, why);
                return replay_fail(diag, line, k + 1, pos, err, "deal %d, action %d (%s): %s",
                                   k + 1, pos, what, why);
            }
            if (tr && a.type == BARBU_ACT_CUT && s->t.deal == k) {
                if (tr->joker_deal < 0 && barbu_cut_joker_only(s->rules, &s->t)) {
                    tr->joker_deal = k;
                    if (tr->watch < 0)
                        tr->watch = k; /* keep the Calls this deal's cuts go on to make */
                    tr->joker_line = line;
                    tr->joker_pos = pos;
                    describe(&rec->rules, &a, shown, tr->joker_what, sizeof tr->joker_what);
                }
                if (k == tr->watch && before.t.contracts == 0)
                    tr->watched = s->t.contracts;
            }
        }
        bool complete = barbu_over(s) || s->t.deal > k;
        const barbu_result *res = &s->t.last;
        if (complete && pos > 0 && before.t.kind == BARBU_KIND_DOMINO && res->played &&
            next[SEC_PLAY] < d->list[SEC_PLAY].n) {
            int n = domino_play_out(&before, &act, d, k, next[SEC_PLAY], diag);
            if (n < 0)
                return n;
            next[SEC_PLAY] += n;
            pos += n;
        }
        for (int sec = 0; sec < N_SECTIONS; sec++)
            if (next[sec] < d->list[sec].n)
                return leftover(rec, d, k, sec, next, pos + 1, s, complete, res, diag);
        if (!complete) {
            if (k != rec->n_deals - 1)
                return replay_fail(diag, d->line, k + 1, pos, BARBU_EMISMATCH,
                                   "deal %d is unfinished but the record goes on", k + 1);
            if (d->has_score || d->has_final)
                return replay_fail(diag, d->line, k + 1, pos, BARBU_EMISMATCH,
                                   "deal %d has a score but its play is unfinished", k + 1);
            break;
        }
        for (int i = 0; i < 4; i++) {
            if (d->has_score && d->score[i] != res->raw[i])
                return replay_fail(diag, d->score_line, k + 1, pos, BARBU_EMISMATCH,
                                   "deal %d: the record's Score gives %s %+d, the engine %+d",
                                   k + 1, barbu_seat_name(i), d->score[i], res->raw[i]);
            if (d->has_final && d->final[i] != res->score[i])
                return replay_fail(diag, d->final_line, k + 1, pos, BARBU_EMISMATCH,
                                   "deal %d: the record's Final gives %s %+d, the engine %+d",
                                   k + 1, barbu_seat_name(i), d->final[i], res->score[i]);
        }
        if (tr)
            trace_deal(tr, res);
        if (on_result)
            on_result(res, ctx);
    }
    return 0;
}

/*
 * Format 1 records of the Fife game were written by a barbu that ended a
 * later Call of the Silly Round at once after a number no unused number
 * could join, where the booklet has the Cutter cut again because a Joker
 * would bring in the negative Calls left (docs/rules.md).  Such a record
 * read today would be re-scored, so it is refused, with the way to read it
 * as it was played.  A record is taken to be of that reading when it
 * replays by it and not by the booklet, or when it replays both ways with
 * different results and the deal where the two part names the earlier
 * reading's Calls in its "% the cuts call" comment (barbu's writer always
 * puts one there; a record composed by hand for the booklet's reading may
 * name the booklet's Calls, or have none).
 * Returns 0 when the record is to be read by the booklet.
 */
static int check_earlier_reading(const barbu_record *rec, barbu_diag *diag)
{
    if (rec->version >= 2 || rec->rules.game != BARBU_GAME_FIFE || !rec->rules.later_joker)
        return 0;
    barbu_state s;
    replay_trace now = {.watch = -1, .joker_deal = -1};
    int err_now = replay(rec, &s, NULL, NULL, NULL, &now, false);
    if (now.joker_deal < 0)
        return 0; /* the two readings never part */
    int k = now.joker_deal;
    barbu_record *then_rec = malloc(sizeof *then_rec);
    if (then_rec == NULL)
        return BARBU_ENOMEM;
    *then_rec = *rec; /* shares the deals, only read */
    then_rec->rules.later_joker = false;
    replay_trace then = {.watch = k, .joker_deal = -1};
    int err_then = replay(then_rec, &s, NULL, NULL, NULL, &then, false);
    free(then_rec);
    bool differ = err_now != 0 || now.deals != then.deals || now.digest != then.digest;
    if (err_then != 0 || !differ)
        return 0;
    const char *comment = rec->deals[k].cuts_call;
    char booklet[96] = "", earlier[96];
    barbu_calls_describe(then.watched, earlier, sizeof earlier);
    if (now.watched)
        barbu_calls_describe(now.watched, booklet, sizeof booklet);
    /* Both readings replay: the writer's comment tells which it followed. */
    if (err_now == 0 && (comment[0] == '\0' || strcmp(comment, booklet) == 0))
        return 0;
    char read[240];
    if (now.watched)
        snprintf(read, sizeof read, "the cuts call %s, not %s", booklet, earlier);
    else
        snprintf(read, sizeof read, "the record no longer reads");
    return replay_fail(diag, now.joker_line, k + 1, now.joker_pos, BARBU_EMISMATCH,
                       "deal %d, action %d (%s): this record follows barbu before record "
                       "format 2, which ended this Call at %s; by the booklet the Cutter cuts "
                       "again here, since a Joker would bring in the negative Calls left, and "
                       "%s (docs/rules.md). It is refused rather than re-scored: to replay it as "
                       "it was played, add [Rule \"later-call-joker = no\"] to its header",
                       k + 1, now.joker_pos, now.joker_what, earlier, read);
}

/* Every replay of a record: the check of the earlier reading, then the
 * replay itself. */
static int replay_record(const barbu_record *rec, barbu_state *s, barbu_result_fn on_result,
                         void *ctx, barbu_diag *diag)
{
    int err = check_earlier_reading(rec, diag);
    return err != 0 ? err : replay(rec, s, on_result, ctx, diag, NULL, false);
}

int barbu_record_verify(const barbu_record *rec, barbu_state *state, barbu_result_fn on_result,
                        void *ctx, barbu_diag *diag)
{
    barbu_state local;
    if (rec->withheld)
        return replay_fail(diag, 0, 0, 0, BARBU_EINVAL, "%s is withheld: the game is not over",
                           source(rec));
    if (rec->keyed) {
        uint8_t hash[BARBU_KEY_BYTES];
        barbu_key_commitment(rec->key, hash);
        if (memcmp(hash, rec->commitment, sizeof hash) != 0) {
            char want[BARBU_KEY_HEX], found[BARBU_KEY_HEX];
            barbu_key_format(hash, want);
            barbu_key_format(rec->commitment, found);
            return replay_fail(diag, 0, 0, 0, BARBU_EMISMATCH,
                               "the commitment is %s, but the key's hash is %s: this is not the "
                               "key committed to",
                               found, want);
        }
    }
    int err = check_earlier_reading(rec, diag);
    return err != 0 ? err : replay(rec, state ? state : &local, on_result, ctx, diag, NULL, true);
}

int barbu_record_replay(const barbu_record *rec, barbu_state *state, barbu_result_fn on_result,
                        void *ctx, barbu_diag *diag)
{
    barbu_state local;
    return replay_record(rec, state ? state : &local, on_result, ctx, diag);
}

int barbu_record_withhold(barbu_record *rec)
{
    barbu_state s;
    int err = replay_record(rec, &s, NULL, NULL, NULL);
    if (err != 0)
        return err;
    if (!barbu_over(&s)) {
        /* The deal in progress shows its hands: it goes, with its actions. */
        while (rec->n_deals > s.t.deal) {
            rec_deal *d = &rec->deals[--rec->n_deals];
            for (int i = 0; i < N_SECTIONS; i++) {
                free(d->list[i].v);
                free(d->list[i].line);
            }
        }
    }
    /* Every deal kept has its hands, and the first declarer is fixed, so
     * the record replays without the seed. */
    rec->first = s.t.first;
    rec->withheld = true;
    memset(rec->key, 0, sizeof rec->key); /* the commitment stays */
    return 0;
}

/* --------------------------------------------------------------- writing */

typedef struct sbuf {
    char *buf;
    size_t len, cap;
    bool failed;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(sbuf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = true;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap * 2 + (size_t)n;
        char *v = realloc(b->buf, cap);
        if (v == NULL) {
            b->failed = true;
            return;
        }
        b->buf = v;
        b->cap = cap;
    }
}

static void put_scores(sbuf *b, const char *tagname, const int16_t v[4])
{
    put(b, "[%s \"N %+d E %+d S %+d W %+d\"]\n", tagname, v[0], v[1], v[2], v[3]);
}

/* The writer replays the record and prints each section as it goes; the
 * sections of one deal are gathered in separate buffers and joined in a
 * fixed order when the deal ends. */
typedef struct writer {
    const barbu_record *rec;
    sbuf out;
    sbuf sec[N_SECTIONS];
    int in_line; /* actions on the current play line */
} writer;

/* Lays out deal k: its hands and declarer as the replay dealt them (start,
 * the state before its first action), its sections, and its scores once
 * complete (s, the state after its last action). */
static void flush_deal(void *ctx, const barbu_state *start, const barbu_state *s, int k,
                       bool complete)
{
    writer *w = ctx;
    /* Nobody calls in the Silly Round: its deals name the dealer. */
    bool silly = silly_round(start);
    put(&w->out, "\n[Deal \"%d\"]\n", k + 1);
    if (silly)
        put(&w->out, "[Dealer \"%s\"]\n", barbu_seat_name(start->t.dealer));
    else
        put(&w->out, "[Declarer \"%s\"]\n", barbu_seat_name(start->t.declarer));
    char h[4][40];
    for (int i = 0; i < 4; i++)
        barbu_hand_format(start->dealt[i], h[i], sizeof h[i]);
    put(&w->out, "[Hands \"N:%s %s %s %s\"]\n", h[0], h[1], h[2], h[3]);
    if (w->sec[SEC_DECLARE].len)
        put(&w->out, "%s", w->sec[SEC_DECLARE].buf);
    unsigned calls = complete ? s->t.last.contracts : s->t.contracts;
    if (silly && calls != 0) {
        /* The Calls the cuts decided, for the reader; the replay decides
         * them again from the cuts. */
        char text[96];
        barbu_calls_describe(calls, text, sizeof text);
        if (w->sec[SEC_CUT].len)
            put(&w->out, "%% the cuts call %s\n", text);
        else
            put(&w->out, "%% the Round's last Call, without cuts: %s\n", text);
    }
    if (w->sec[SEC_CUT].len)
        put(&w->out, "[Cuts]\n%s", w->sec[SEC_CUT].buf);
    if (w->sec[SEC_PASS_ON].len)
        put(&w->out, "[PassOn]\n%s", w->sec[SEC_PASS_ON].buf);
    if (w->sec[SEC_BID].len)
        put(&w->out, "[Bidding]\n%s", w->sec[SEC_BID].buf);
    if (w->sec[SEC_PLAY].len)
        put(&w->out, "[Play]\n%s\n", w->sec[SEC_PLAY].buf);
    if (w->sec[SEC_ARRANGE].len)
        put(&w->out, "[Rows]\n%s", w->sec[SEC_ARRANGE].buf);
    if (complete) {
        const barbu_result *res = &s->t.last;
        if (!res->played)
            put(&w->out, "%% not played: nobody doubled, the points are shared\n");
        else if (res->tricks_left)
            put(&w->out, "%% ended early with %d tricks left\n", res->tricks_left);
        put_scores(&w->out, "Score", res->raw);
        put_scores(&w->out, "Final", res->score);
    }
    for (int i = 0; i < N_SECTIONS; i++) {
        w->sec[i].len = 0;
        if (w->sec[i].buf)
            w->sec[i].buf[0] = '\0';
    }
    w->in_line = 0;
}

static void write_step(void *ctx, const barbu_state *before, const barbu_action *a,
                       const barbu_state *after)
{
    (void)after;
    writer *w = ctx;
    const barbu_table *t = &before->t;
    char text[96];
    switch (a->type) {
    case BARBU_ACT_DECLARE:
        contract_text(&w->rec->rules, a, text, sizeof text);
        put(&w->sec[SEC_DECLARE], "[Contract \"%s\"]\n", text);
        break;
    case BARBU_ACT_BID:
        bid_text(a, text, sizeof text);
        put(&w->sec[SEC_BID], "%s %s\n", barbu_seat_name(a->seat), text);
        break;
    case BARBU_ACT_CUT:
        cut_text(barbu_next_cut(before), text, sizeof text);
        put(&w->sec[SEC_CUT], "%s: %s\n", barbu_seat_name(a->seat), text);
        break;
    case BARBU_ACT_PASS_ON:
        cards_text(a->cards, " ", text, sizeof text);
        put(&w->sec[SEC_PASS_ON], "%s: %s\n", barbu_seat_name(a->seat), text);
        break;
    case BARBU_ACT_PLAY:
    case BARBU_ACT_PASS: {
        sbuf *b = &w->sec[SEC_PLAY];
        /* One line a trick; layouts four turns a line.  Each line starts
         * with the seat of its first action. */
        bool tricks = t->kind == BARBU_KIND_TRICKS || t->kind == BARBU_KIND_TRUMPS;
        bool new_line = tricks ? t->trick.n == 0 : w->in_line == 4;
        if (w->in_line == 0 || new_line) {
            put(b, "%s%s:", w->in_line ? "\n" : "", barbu_seat_name(a->seat));
            w->in_line = 0;
        }
        if (a->type == BARBU_ACT_PASS)
            snprintf(text, sizeof text, "-");
        else
            cards_text(a->cards, "+", text, sizeof text);
        put(b, " %s", text);
        w->in_line++;
        break;
    }
    case BARBU_ACT_ARRANGE: {
        char rows[80];
        barbu_cards hand = before->hand[a->seat];
        rows_text(a->cards, a->middle, hand & ~a->cards & ~a->middle, rows, sizeof rows);
        put(&w->sec[SEC_ARRANGE], "%s: %s\n", barbu_seat_name(a->seat), rows);
        break;
    }
    default:
        break;
    }
}

/* Walks a record that replays (replay_record said so): deal by deal, each
 * action as the engine applies it (a bid given as a word resolved, a cut
 * without its card, which the engine draws), with the states before and
 * after it; then the deal, from the state before its first action to the
 * state after its last.  A Domino deal's play-out lines after the third
 * player went out are no actions: the engine ends the deal there. */
typedef void (*deal_fn)(void *ctx, const barbu_state *start, const barbu_state *end, int k,
                        bool complete);

static int walk(const barbu_record *rec, barbu_step_fn step, deal_fn deal, void *ctx)
{
    barbu_state t;
    int err = barbu_record_start(rec, &t);
    if (err != 0)
        return err;
    for (int k = 0; k < rec->n_deals; k++) {
        const rec_deal *d = &rec->deals[k];
        if ((err = open_deal(rec, d, k, &t, false, NULL)) != 0)
            return err;
        barbu_state start = t;
        int next[N_SECTIONS] = {0};
        while (!barbu_over(&t) && t.t.deal == k) {
            int sec = section_of_phase(t.t.phase);
            if (next[sec] == d->list[sec].n)
                break;
            barbu_action a = d->list[sec].v[next[sec]++];
            if (a.seat < 0)
                a.seat = t.t.to_move;
            if (a.type == BARBU_ACT_CUT)
                a.cards = 0;
            barbu_state before = t;
            /* The replay before took every action, words for bids included. */
            if ((err = resolve_word(&t, &a)) != 0 || (err = barbu_apply(&t, &a)) != 0)
                return err;
            if (step)
                step(ctx, &before, &a, &t);
        }
        if (deal)
            deal(ctx, &start, &t, k, barbu_over(&t) || t.t.deal > k);
    }
    return 0;
}

int barbu_record_walk(const barbu_record *rec, barbu_step_fn step, void *ctx, barbu_diag *diag)
{
    barbu_state s;
    int err = replay_record(rec, &s, NULL, NULL, diag);
    if (err != 0)
        return err;
    err = walk(rec, step, NULL, ctx);
    if (err != 0 && diag != NULL)
        replay_fail(diag, 0, 0, 0, err, "the second replay of the record failed: %s",
                    barbu_strerror(err));
    return err;
}

int barbu_record_write(const barbu_record *rec, char **text, size_t *len, barbu_diag *diag)
{
    writer w = {.rec = rec};
    w.out.cap = 4096;
    w.out.buf = malloc(w.out.cap);
    for (int i = 0; i < N_SECTIONS; i++) {
        w.sec[i].cap = 256;
        w.sec[i].buf = malloc(w.sec[i].cap);
        if (w.sec[i].buf)
            w.sec[i].buf[0] = '\0';
        else
            w.out.failed = true;
    }
    int err = 0;
    if (w.out.buf == NULL || w.out.failed) {
        err = BARBU_ENOMEM;
        goto done;
    }
    put(&w.out, "%% barbu game record\n[Barbu \"%d\"]\n",
        rec->keyed ? KEYED_VERSION : FORMAT_VERSION);
    for (int i = 0; i < rec->n_tags; i++)
        put(&w.out, "[%s \"%s\"]\n", rec->tags[i].key, rec->tags[i].value);
    put(&w.out, "[Rules \"%s\"]\n", rec->rules.preset);
    char rules[8192];
    int n = barbu_rules_write(&rec->rules, true, rules, sizeof rules);
    if (n < 0 || (size_t)n >= sizeof rules) {
        err = BARBU_ELIMIT;
        goto done;
    }
    for (char *line = rules, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (nl == NULL)
            nl = line + strlen(line) - 1;
        else
            *nl = '\0';
        if (*line != '\0' && *line != '#' && strncmp(line, "preset =", 8) != 0)
            put(&w.out, "[Rule \"%s\"]\n", line);
    }
    if (rec->keyed) {
        char hex[BARBU_KEY_HEX];
        barbu_key_format(rec->key, hex);
        put(&w.out, "[Key \"%s\"]\n", rec->withheld ? "withheld" : hex);
        barbu_key_format(rec->commitment, hex);
        put(&w.out, "[Commitment \"%s\"]\n", hex);
    } else if (rec->withheld) {
        put(&w.out, "[Seed \"withheld\"]\n");
    } else {
        put(&w.out, "[Seed \"%" PRIu64 "\"]\n", rec->seed);
    }

    /* First check that the whole record replays, then lay the deals out
     * in a second replay that writes each section as it goes. */
    barbu_state s;
    err = replay_record(rec, &s, NULL, NULL, diag);
    if (err != 0)
        goto done;
    put(&w.out, "[First \"%s\"]\n", barbu_seat_name(s.t.first));
    if (barbu_over(&s))
        put(&w.out, "[Result \"N %+" PRId32 " E %+" PRId32 " S %+" PRId32 " W %+" PRId32 "\"]\n",
            s.t.total[0], s.t.total[1], s.t.total[2], s.t.total[3]);
    if ((err = walk(rec, write_step, flush_deal, &w)) != 0)
        goto done;
    if (w.out.failed)
        err = BARBU_ENOMEM;
done:
    for (int i = 0; i < N_SECTIONS; i++)
        free(w.sec[i].buf);
    if (err != 0) {
        free(w.out.buf);
        *text = NULL;
        *len = 0;
        return err;
    }
    *text = w.out.buf;
    *len = w.out.len;
    return 0;
}

/* --------------------------------------------------------------- reading */

typedef struct reader {
    barbu_record *rec;
    barbu_diag *diag;
    int line;
    int section; /* the section whose lines are being read, else -1 */
    rec_deal *deal;
    unsigned sections; /* a bit for each section the deal has opened */
    char rules_text[8192];
    size_t rules_len;
    int rule_lines[128];
    int n_rules;
    bool have_version, have_rules, have_seed, have_key, have_commitment;
} reader;

static int fail(reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(reader *rd, const char *fmt, ...)
{
    if (rd->diag != NULL) {
        rd->diag->line = rd->line;
        rd->diag->deal = rd->rec->n_deals;
        rd->diag->position = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rd->diag->msg, sizeof rd->diag->msg, fmt, ap);
        va_end(ap);
    }
    return BARBU_EPARSE;
}

static int parse_seat_token(const char *tok)
{
    if (strlen(tok) != 1)
        return -1;
    return barbu_seat_parse(tok);
}

/* "N -4 E -12 S -8 W -2" */
static int parse_scores(reader *rd, const char *v, int16_t out[4])
{
    const char *p = v;
    for (int i = 0; i < 4; i++) {
        while (*p == ' ')
            p++;
        if (*p != "NESW"[i] || p[1] != ' ')
            return fail(rd, "scores must read \"N x E x S x W x\"");
        p += 2;
        char *end;
        errno = 0;
        long x = strtol(p, &end, 10);
        if (end == p || errno != 0 || x < INT16_MIN || x > INT16_MAX)
            return fail(rd, "a score is not a number");
        out[i] = (int16_t)x;
        p = end;
    }
    while (*p == ' ')
        p++;
    return *p ? fail(rd, "unexpected text after the scores") : 0;
}

static int parse_contract(reader *rd, const char *v, barbu_action *a)
{
    *a = barbu_act(BARBU_ACT_DECLARE, -1);
    char buf[128];
    snprintf(buf, sizeof buf, "%s", v);
    char *param = strchr(buf, ' ');
    if (param)
        *param++ = '\0';
    char *save = NULL;
    for (char *key = strtok_r(buf, "+", &save); key; key = strtok_r(NULL, "+", &save)) {
        int c = barbu_contract_find(&rd->rec->rules, key);
        if (c < 0)
            return fail(rd, "no contract '%s' in these rules", key);
        if (a->contracts & (1u << c))
            return fail(rd, "'%s' is named twice", key);
        a->contracts |= (uint16_t)(1u << c);
    }
    if (a->contracts == 0)
        return fail(rd, "an empty contract");
    if (param == NULL)
        return 0;
    const barbu_contract *k = &rd->rec->rules.contract[bb_lowest(a->contracts)];
    if (k->kind == BARBU_KIND_TRUMPS && strlen(param) == 1 && strchr("CDHS", param[0])) {
        a->trump = (int8_t)(strchr("CDHS", param[0]) - "CDHS");
        return 0;
    }
    if (k->kind == BARBU_KIND_DOMINO) {
        const char *r = strlen(param) == 1 ? strchr(RANK_CHARS + 2, param[0]) : NULL;
        if (r != NULL) {
            a->rank = (int8_t)(r - RANK_CHARS);
            return 0;
        }
    }
    return fail(rd, "'%s' is not a trump suit or start rank here", param);
}

/* A bid's word for doubling many at once, or WORD_NONE. */
static int bid_word(const char *tok)
{
    if (strcmp(tok, "max") == 0 || strcmp(tok, "maximum") == 0 || strcmp(tok, "table") == 0)
        return WORD_MAX;
    if (strcmp(tok, "family") == 0 || strcmp(tok, "flanks") == 0)
        return WORD_FAMILY;
    return WORD_NONE;
}

/*
 * "S doubles E W", "W redoubles S, doubles N", "N passes", and the words
 * players say: "S max" (or maximum, table), "S family" (or flanks), also
 * after "doubles".  The seats of a list may be separated by spaces, commas
 * or "and": "S doubles E, W", "S doubles E and W".
 */
static int parse_bid(reader *rd, char *body)
{
    char *save = NULL, *tok[16];
    int n = 0;
    for (char *t = strtok_r(body, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
        if (n == (int)(sizeof tok / sizeof tok[0]))
            return fail(rd, "a bid of more than %d words", n);
        tok[n++] = t;
    }
    int seat = n > 0 ? parse_seat_token(tok[0]) : -1;
    if (seat < 0)
        return fail(rd, "a bid starts with the seat (N, E, S or W)");
    barbu_action a = barbu_act_bid(seat, 0, 0);
    if (n == 1)
        return fail(rd, "a bid needs 'passes', 'doubles ...', 'redoubles ...', 'max' or 'family'");
    if (strcmp(tok[1], "passes") == 0 || strcmp(tok[1], "pass") == 0) {
        if (n > 2)
            return fail(rd, "unexpected text after '%s'", tok[1]);
        return list_push(&rd->deal->list[SEC_BID], &a, rd->line);
    }
    int w = strcmp(tok[1], "doubles") == 0 && n > 2 ? 2 : 1;
    if (bid_word(tok[w]) != WORD_NONE) {
        if (n > w + 1)
            return fail(rd, "unexpected '%s' after '%s': the word is the whole bid", tok[w + 1],
                        tok[w]);
        a.rank = (int8_t)bid_word(tok[w]);
        return list_push(&rd->deal->list[SEC_BID], &a, rd->line);
    }
    uint8_t *target = NULL;
    for (int i = 1; i < n; i++) {
        if (strcmp(tok[i], "doubles") == 0) {
            target = &a.doubles;
        } else if (strcmp(tok[i], "redoubles") == 0) {
            target = &a.redoubles;
        } else if (strcmp(tok[i], "and") == 0 && target != NULL) {
            continue;
        } else {
            int s = parse_seat_token(tok[i]);
            if (s < 0 || target == NULL)
                return fail(rd, "unexpected '%s' in a bid", tok[i]);
            if ((a.doubles | a.redoubles) & (1u << s))
                return fail(rd, "%s is named twice", tok[i]);
            *target |= (uint8_t)(1u << s);
        }
    }
    if (a.doubles == 0 && a.redoubles == 0)
        return fail(rd, "a bid names the seats it doubles or redoubles");
    return list_push(&rd->deal->list[SEC_BID], &a, rd->line);
}

/* The seat that starts a play or rows line ("E:"), or -1; the rest of the
 * line is then read with strtok_r(NULL, " ", save). */
static int line_seat(char *body, char **save)
{
    char *tok = strtok_r(body, " ", save);
    if (tok == NULL || strlen(tok) != 2 || tok[1] != ':')
        return -1;
    return barbu_seat_parse((char[]){tok[0], '\0'});
}

/* "E: 2C 5C KC AC", "N: 7D - 8D 9H+8H" */
static int parse_play(reader *rd, char *body)
{
    char *save = NULL, *tok;
    int seat = line_seat(body, &save);
    if (seat < 0)
        return fail(rd, "a play line starts with the seat to play, as 'E:'");
    bool any = false;
    for (tok = strtok_r(NULL, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        barbu_action a;
        if (strcmp(tok, "-") == 0) {
            a = barbu_act(BARBU_ACT_PASS, -1);
        } else {
            a = barbu_act(BARBU_ACT_PLAY, -1);
            const char *p = tok;
            for (;;) {
                const char *end;
                int card = barbu_card_parse(p, &end);
                if (card < 0 || (a.cards & BARBU_BIT(card)))
                    return fail(rd, "'%s' is not a card (as QS, TH, 7D) or '-'", tok);
                a.cards |= BARBU_BIT(card);
                if (*end == '\0')
                    break;
                if (*end != '+')
                    return fail(rd, "'%s' is not a card (as QS, TH, 7D) or '-'", tok);
                p = end + 1;
            }
        }
        if (!any)
            a.seat = (int8_t)seat;
        any = true;
        int err = list_push(&rd->deal->list[SEC_PLAY], &a, rd->line);
        if (err != 0)
            return fail(rd, "%s", barbu_strerror(err));
    }
    return any ? 0 : fail(rd, "a play line without plays");
}

/* "E: AS KS QS JS TS / 9H 9D 9C 2S 2H / KD QD 3C": back, middle, front. */
static int parse_rows(reader *rd, char *body)
{
    char *save = NULL, *tok;
    int seat = line_seat(body, &save);
    if (seat < 0)
        return fail(rd, "a rows line starts with the seat, as 'E:'");
    if (rd->deal->n_fronts == 4)
        return fail(rd, "a fifth rows line: a deal has one for each of the four players");
    barbu_cards rows[3] = {0, 0, 0}, all = 0;
    int row = 0;
    for (tok = strtok_r(NULL, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (strcmp(tok, "/") == 0) {
            if (++row == 3)
                return fail(rd, "rows are back / middle / front: three rows, not more");
            continue;
        }
        const char *end;
        int card = barbu_card_parse(tok, &end);
        if (card < 0 || *end != '\0')
            return fail(rd, "'%s' is not a card (as QS, TH, 7D) or '/'", tok);
        if (all & BARBU_BIT(card))
            return fail(rd, "%s is in the rows twice", tok);
        all |= BARBU_BIT(card);
        rows[row] |= BARBU_BIT(card);
    }
    static const char *const NAMES[] = {"back", "middle", "front"};
    static const int SIZES[] = {5, 5, 3};
    if (row != 2)
        return fail(rd, "rows are back / middle / front, separated by ' / '");
    for (int r = 0; r < 3; r++)
        if (barbu_count(rows[r]) != SIZES[r])
            return fail(rd, "the %s row has %d cards, not %d", NAMES[r], barbu_count(rows[r]),
                        SIZES[r]);
    barbu_action a = barbu_act(BARBU_ACT_ARRANGE, seat);
    a.cards = rows[0];
    a.middle = rows[1];
    rd->deal->fronts[rd->deal->n_fronts++] = rows[2];
    int err = list_push(&rd->deal->list[SEC_ARRANGE], &a, rd->line);
    return err ? fail(rd, "%s", barbu_strerror(err)) : 0;
}

/* "W: 3H", "W: Joker", "W: Bridge": one cut of the Unused Pack. */
static int parse_cut(reader *rd, char *body)
{
    char *save = NULL;
    int seat = line_seat(body, &save);
    if (seat < 0)
        return fail(rd, "a cuts line starts with the cutter, as 'W:'");
    char *tok = strtok_r(NULL, " ", &save);
    if (tok == NULL)
        return fail(rd, "a cuts line names the card cut, as 'W: 3H'");
    if (strtok_r(NULL, " ", &save) != NULL)
        return fail(rd, "a cuts line holds one cut, as 'W: 3H'");
    int cut;
    if (strcmp(tok, "Joker") == 0) {
        cut = BARBU_JOKER;
    } else if (strcmp(tok, "Bridge") == 0) {
        cut = BARBU_BRIDGE;
    } else {
        const char *end;
        cut = barbu_card_parse(tok, &end);
        if (cut < 0 || *end != '\0' || BARBU_RANK(cut) > 6)
            return fail(rd, "'%s' is not a cut of the Unused Pack (2-6 of a suit, Joker or Bridge)",
                        tok);
    }
    barbu_action a = barbu_act(BARBU_ACT_CUT, seat);
    a.cards = BARBU_BIT(cut);
    int err = list_push(&rd->deal->list[SEC_CUT], &a, rd->line);
    return err ? fail(rd, "%s", barbu_strerror(err)) : 0;
}

/* "E: AS KS QS": the three cards a seat passes on. */
static int parse_pass_on(reader *rd, char *body)
{
    char *save = NULL, *tok;
    int seat = line_seat(body, &save);
    if (seat < 0)
        return fail(rd, "a Pass-on line starts with the seat passing, as 'E:'");
    barbu_action a = barbu_act(BARBU_ACT_PASS_ON, seat);
    int n = 0;
    for (tok = strtok_r(NULL, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        const char *end;
        int card = barbu_card_parse(tok, &end);
        if (card < 0 || *end != '\0')
            return fail(rd, "'%s' is not a card (as QS, TH, 7D)", tok);
        if (a.cards & BARBU_BIT(card))
            return fail(rd, "%s is passed on twice", tok);
        a.cards |= BARBU_BIT(card);
        n++;
    }
    if (n != 3)
        return fail(rd, "a Pass-on is three cards, not %d", n);
    int err = list_push(&rd->deal->list[SEC_PASS_ON], &a, rd->line);
    return err ? fail(rd, "%s", barbu_strerror(err)) : 0;
}

static int header_tag(reader *rd, const char *key, const char *value)
{
    barbu_record *rec = rd->rec;
    if (strcmp(key, "Barbu") == 0) {
        if (strcmp(value, "1") != 0 && strcmp(value, "2") != 0 && strcmp(value, "3") != 0)
            return fail(rd, "this is format %s; this program reads formats 1 to 3", value);
        rec->version = value[0] - '0';
        rd->have_version = true;
        return 0;
    }
    if (strcmp(key, "Rules") == 0) {
        if (rd->have_rules)
            return fail(rd, "a second Rules tag");
        barbu_rules probe;
        if (barbu_rules_preset(&probe, value) != 0)
            return fail(rd, "unknown preset '%s'", value);
        int n = snprintf(rd->rules_text, sizeof rd->rules_text, "preset = %s\n", value);
        rd->rules_len = (size_t)n;
        rd->have_rules = true;
        return 0;
    }
    if (strcmp(key, "Rule") == 0) {
        if (!rd->have_rules)
            return fail(rd, "a Rule tag before the Rules tag");
        if (rd->n_rules == (int)(sizeof rd->rule_lines / sizeof rd->rule_lines[0]) ||
            rd->rules_len + strlen(value) + 2 > sizeof rd->rules_text)
            return fail(rd, "too many Rule tags");
        rd->rules_len += (size_t)snprintf(rd->rules_text + rd->rules_len,
                                          sizeof rd->rules_text - rd->rules_len, "%s\n", value);
        rd->rule_lines[rd->n_rules++] = rd->line;
        return 0;
    }
    if (strcmp(key, "Seed") == 0) {
        if (strcmp(value, "withheld") == 0) {
            rec->seed = 0;
            rec->withheld = true;
            rd->have_seed = true;
            return 0;
        }
        if (barbu_seed_parse(value, &rec->seed) != 0)
            return fail(rd, "the seed must be a whole number");
        rd->have_seed = true;
        return 0;
    }
    if (strcmp(key, "Key") == 0 || strcmp(key, "Commitment") == 0) {
        bool is_key = key[0] == 'K';
        if (rec->version < KEYED_VERSION)
            return fail(rd, "a %s tag comes only in format 3 records", key);
        if (is_key ? rd->have_key : rd->have_commitment)
            return fail(rd, "a second %s tag", key);
        if (is_key && strcmp(value, "withheld") == 0) {
            rec->withheld = true;
        } else if (barbu_key_parse(value, is_key ? rec->key : rec->commitment) != 0) {
            return fail(rd, "the %s must be 64 hex digits%s", is_key ? "key" : "commitment",
                        is_key ? " or \"withheld\"" : "");
        }
        rec->keyed = true;
        *(is_key ? &rd->have_key : &rd->have_commitment) = true;
        return 0;
    }
    if (strcmp(key, "First") == 0) {
        int s = parse_seat_token(value);
        if (s < 0)
            return fail(rd, "First must be N, E, S or W");
        rec->first = s;
        return 0;
    }
    if (strcmp(key, "Result") == 0) {
        int16_t scores[4];
        return parse_scores(rd, value, scores);
    }
    if (reserved(key))
        return fail(rd, "the tag %s belongs in a deal", key);
    if (!valid_key(key) || !valid_value(value))
        return fail(rd, "a malformed tag");
    int err = barbu_record_set_tag(rec, key, value);
    return err ? fail(rd, "%s", barbu_strerror(err)) : 0;
}

/* Builds the rules from the Rules and Rule tags, once the header is read. */
static int finish_header(reader *rd)
{
    if (!rd->have_version)
        return fail(rd, "not a barbu record (no [Barbu \"%d\"] tag)", FORMAT_VERSION);
    if (rd->have_seed && (rd->have_key || rd->have_commitment))
        return fail(rd, "a record has a Seed tag or a Key and a Commitment, not both");
    if (rd->have_key != rd->have_commitment)
        return fail(rd, "a Key tag goes with a Commitment tag: the record needs both");
    if (!rd->have_rules || !(rd->have_seed || rd->have_key))
        return fail(rd, "the record needs Rules and Seed (or Key and Commitment) tags before its "
                        "first deal");
    if (rd->rec->withheld && rd->rec->first < 0)
        return fail(rd, "a record whose %s is withheld needs a First tag",
                    rd->rec->keyed ? "key" : "seed");
    barbu_diag d = {0};
    if (barbu_rules_parse(&rd->rec->rules, rd->rules_text, rd->rules_len, &d) != 0) {
        /* Line 1 of the rules text is the preset; line i + 1 is Rule i. */
        int i = d.line - 2;
        if (i >= 0 && i < rd->n_rules)
            rd->line = rd->rule_lines[i];
        return fail(rd, "%s", d.msg);
    }
    return 0;
}

static int deal_tag(reader *rd, const char *key, const char *value)
{
    rec_deal *d = rd->deal;
    if (strcmp(key, "Declarer") == 0) {
        d->declarer = parse_seat_token(value);
        return d->declarer < 0 ? fail(rd, "Declarer must be N, E, S or W") : 0;
    }
    if (strcmp(key, "Dealer") == 0) {
        d->dealer = parse_seat_token(value);
        return d->dealer < 0 ? fail(rd, "Dealer must be N, E, S or W") : 0;
    }
    if (strcmp(key, "Hands") == 0) {
        int first = value[0] ? parse_seat_token((char[]){value[0], '\0'}) : -1;
        if (first < 0 || value[1] != ':')
            return fail(rd, "Hands must read \"N:hand hand hand hand\"");
        const char *p = value + 2;
        for (int i = 0; i < 4; i++) {
            const char *end;
            if (barbu_hand_parse(p, &end, &d->hands[(first + i) & 3]) != 0)
                return fail(rd, "hand %d is not a hand (as AKQ.T98.-.5432)", i + 1);
            p = end;
            if (i < 3 && *p++ != ' ')
                return fail(rd, "the four hands are separated by spaces");
        }
        if (*p)
            return fail(rd, "unexpected text after the hands");
        d->has_hands = true;
        d->hands_line = rd->line;
        return 0;
    }
    if (strcmp(key, "Contract") == 0) {
        if (d->list[SEC_DECLARE].n > 0)
            return fail(rd, "a second Contract tag");
        barbu_action a;
        int err = parse_contract(rd, value, &a);
        return err ? err : list_push(&d->list[SEC_DECLARE], &a, rd->line);
    }
    if (strcmp(key, "Score") == 0 || strcmp(key, "Final") == 0) {
        bool score = key[0] == 'S';
        if (score ? d->has_score : d->has_final)
            return fail(rd, "a second %s tag", key);
        int err = parse_scores(rd, value, score ? d->score : d->final);
        if (err == 0) {
            *(score ? &d->has_score : &d->has_final) = true;
            *(score ? &d->score_line : &d->final_line) = rd->line;
        }
        return err;
    }
    return fail(rd, "unknown tag '%s' in a deal", key);
}

static int read_line(reader *rd, char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '%') {
        /* Comments are for people, but the one barbu's writer puts on a
         * Silly Round deal names the Calls its cuts made, which tells a
         * format 1 record's reading (check_earlier_reading). */
        static const char CUTS_CALL[] = "% the cuts call ";
        if (rd->deal && rd->deal->cuts_call[0] == '\0' &&
            strncmp(s, CUTS_CALL, sizeof CUTS_CALL - 1) == 0)
            snprintf(rd->deal->cuts_call, sizeof rd->deal->cuts_call, "%s",
                     s + sizeof CUTS_CALL - 1);
        return 0;
    }
    if (*s == '\0')
        return 0;
    if (*s != '[') {
        switch (rd->section) {
        case SEC_BID:
            return parse_bid(rd, s);
        case SEC_PLAY:
            return parse_play(rd, s);
        case SEC_ARRANGE:
            return parse_rows(rd, s);
        case SEC_CUT:
            return parse_cut(rd, s);
        case SEC_PASS_ON:
            return parse_pass_on(rd, s);
        default:
            return fail(rd, "text outside a section ([Bidding], [Play], [Rows], [Cuts] or "
                            "[PassOn])");
        }
    }
    /* [Key "value"] or [Key] */
    n = strlen(s);
    if (s[n - 1] != ']')
        return fail(rd, "a tag must end with ']'");
    s[n - 1] = '\0';
    char *key = s + 1, *value = NULL;
    char *sp = strchr(key, ' ');
    if (sp != NULL) {
        *sp = '\0';
        value = sp + 1;
        size_t vn = strlen(value);
        if (vn < 2 || value[0] != '"' || value[vn - 1] != '"')
            return fail(rd, "a tag value must be in double quotes");
        value[vn - 1] = '\0';
        value++;
        if (strchr(value, '"') != NULL)
            return fail(rd, "a tag value may not contain a double quote");
    }
    if (!valid_key(key))
        return fail(rd, "a malformed tag name");
    rd->section = -1;
    if (value == NULL) {
        if (rd->deal == NULL)
            return fail(rd, "[%s] outside a deal", key);
        static const struct {
            const char *name;
            int sec;
        } SECTIONS[] = {{"Bidding", SEC_BID},
                        {"Play", SEC_PLAY},
                        {"Rows", SEC_ARRANGE},
                        {"Cuts", SEC_CUT},
                        {"PassOn", SEC_PASS_ON}};
        for (size_t i = 0; i < sizeof SECTIONS / sizeof SECTIONS[0]; i++) {
            if (strcmp(key, SECTIONS[i].name) != 0)
                continue;
            unsigned bit = 1u << SECTIONS[i].sec;
            if ((rd->sections & bit) || rd->deal->list[SECTIONS[i].sec].n > 0)
                return fail(rd, "a second [%s] section", key);
            rd->sections |= bit;
            rd->section = SECTIONS[i].sec;
            return 0;
        }
        return fail(rd, "unknown section [%s]", key);
    }
    if (strcmp(key, "Deal") == 0) {
        if (rd->deal == NULL) {
            int err = finish_header(rd);
            if (err)
                return err;
        }
        char expect[16];
        snprintf(expect, sizeof expect, "%d", rd->rec->n_deals + 1);
        if (strcmp(value, expect) != 0)
            return fail(rd, "deals must be numbered in order: expected %s", expect);
        rd->deal = new_deal(rd->rec);
        if (rd->deal == NULL)
            return fail(rd, "too many deals");
        rd->sections = 0;
        rd->deal->line = rd->line;
        return 0;
    }
    if (rd->deal == NULL)
        return header_tag(rd, key, value);
    return deal_tag(rd, key, value);
}

int barbu_record_read(const char *text, size_t len, barbu_record **out, barbu_diag *diag)
{
    *out = NULL;
    barbu_rules uk;
    barbu_rules_preset(&uk, "uk");
    barbu_record *rec = barbu_record_new(&uk, 0);
    if (rec == NULL)
        return BARBU_ENOMEM;
    reader *rd = calloc(1, sizeof *rd);
    if (rd == NULL) {
        barbu_record_free(rec);
        return BARBU_ENOMEM;
    }
    rd->rec = rec;
    rd->diag = diag;
    rd->section = -1;
    char line[MAX_LINE];
    size_t pos = 0;
    int err = 0;
    while (pos < len && err == 0) {
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        rd->line++;
        if (end - pos >= sizeof line) {
            err = fail(rd, "line longer than %d characters", MAX_LINE - 1);
            break;
        }
        memcpy(line, text + pos, end - pos);
        line[end - pos] = '\0';
        if (memchr(text + pos, '\0', end - pos) != NULL) {
            err = fail(rd, "a NUL byte in the text");
            break;
        }
        pos = end + 1;
        err = read_line(rd, line);
    }
    if (err == 0 && rd->deal == NULL)
        err = finish_header(rd);
    free(rd);
    if (err != 0) {
        barbu_record_free(rec);
        return err;
    }
    *out = rec;
    return 0;
}
