/*
 * rules.c - rule sets: the presets, their checks, and the rules file that
 * sets every option and every score as "key = value" lines.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ----------------------------------------------------------------- presets */

static barbu_contract *add_contract(barbu_rules *r, const char *key, const char *name,
                                    const char *abbr, int kind, int flags)
{
    barbu_contract *c = &r->contract[r->n_contracts++];
    memset(c, 0, sizeof *c);
    snprintf(c->key, sizeof c->key, "%s", key);
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->abbr, sizeof c->abbr, "%s", abbr);
    c->kind = (uint8_t)kind;
    c->flags = (uint8_t)flags;
    c->per_player = 1;
    return c;
}

static void set_suit(barbu_contract *c, int suit, int value)
{
    for (int rank = 2; rank <= BARBU_ACE; rank++)
        c->card[BARBU_CARD(suit, rank)] = (int16_t)value;
}

static void set_rank(barbu_contract *c, int rank, int value)
{
    for (int suit = 0; suit < 4; suit++)
        c->card[BARBU_CARD(suit, rank)] = (int16_t)value;
}

/* The standard game of seeds 002 and 003, as played online in the UK. */
static void preset_uk(barbu_rules *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->preset, sizeof r->preset, "uk");
    r->deck_low = 2;
    r->rotation = BARBU_ROTATE_EVERY_DEAL;
    r->first_lead = BARBU_FIRST_DECLARER;
    r->domino_first = BARBU_FIRST_DECLARER;
    r->domino_ace_low = false;
    r->must_trump = true;
    r->hearts_lead = true;
    r->early_end = true;
    r->doubling = true;
    r->undoubled_shared = true;
    r->mandatory_doubles = 2;
    r->israeli = BARBU_ISRAELI_OFF;

    barbu_contract *c = add_contract(r, "no-tricks", "No Tricks", "NT", BARBU_KIND_TRICKS, 0);
    c->per_trick = -2;
    c = add_contract(r, "no-hearts", "No Hearts", "NH", BARBU_KIND_TRICKS,
                     BARBU_CF_HEARTS_LEAD | BARBU_CF_ISRAELI);
    set_suit(c, BARBU_HEARTS, -2);
    c->card[BARBU_CARD(BARBU_HEARTS, BARBU_ACE)] = -6;
    c = add_contract(r, "no-queens", "No Queens", "NQ", BARBU_KIND_TRICKS,
                     BARBU_CF_EARLY_END | BARBU_CF_ISRAELI);
    set_rank(c, BARBU_QUEEN, -6);
    c = add_contract(r, "no-king", "No King", "NK", BARBU_KIND_TRICKS,
                     BARBU_CF_HEARTS_LEAD | BARBU_CF_EARLY_END | BARBU_CF_ISRAELI);
    c->card[BARBU_CARD(BARBU_HEARTS, BARBU_KING)] = -20;
    c = add_contract(r, "no-last-two", "No Last Two", "NL", BARBU_KIND_TRICKS, 0);
    c->trick_from_end[0] = -20;
    c->trick_from_end[1] = -10;
    c = add_contract(r, "trumps", "Trumps", "TR", BARBU_KIND_TRUMPS, 0);
    c->per_trick = 5;
    c = add_contract(r, "domino", "Domino", "DO", BARBU_KIND_DOMINO, 0);
    c->place[0] = 45;
    c->place[1] = 20;
    c->place[2] = 5;
    c->place[3] = -5;
}

/* Seed 004's game: each declarer's seven contracts in a row. */
static void preset_classic(barbu_rules *r)
{
    preset_uk(r);
    r->rotation = BARBU_ROTATE_BLOCK;
}

/* Quick Rotation Barbu (seeds 001 and 004): seed 004's game with a new
 * declarer every deal, which is also how the UK online game rotates. */
static void preset_quick(barbu_rules *r)
{
    preset_classic(r);
    r->rotation = BARBU_ROTATE_EVERY_DEAL;
}

/* Ravage City (seed 004): an eighth contract, and the other seven rescored
 * so that the game still sums to zero. */
static void preset_ravage(barbu_rules *r)
{
    preset_classic(r);
    r->contract[barbu_contract_find(r, "no-tricks")].per_trick = -3;
    set_rank(&r->contract[barbu_contract_find(r, "no-queens")], BARBU_QUEEN, -8);
    r->contract[barbu_contract_find(r, "no-king")].card[BARBU_CARD(BARBU_HEARTS, BARBU_KING)] = -21;
    r->contract[barbu_contract_find(r, "trumps")].per_trick = 7;
    barbu_contract *c = &r->contract[barbu_contract_find(r, "domino")];
    c->place[0] = 50;
    c->place[1] = 25;
    c->place[2] = 10;
    c->place[3] = 0;
    c = add_contract(r, "ravage", "Ravage City", "RC", BARBU_KIND_RAVAGE, 0);
    c->shared = -24;
}

/* Chinese Poker (seeds 001, 004): a ninth contract on top of Ravage City.
 * It scores each pair of players against each other, so it is zero-sum on
 * its own: one row is 1 unit, a scoop 3 more, and a unit is 4 points. */
static void preset_chinese(barbu_rules *r)
{
    preset_ravage(r);
    barbu_contract *c = add_contract(r, "chinese", "Chinese Poker", "CP", BARBU_KIND_CHINESE, 0);
    c->per_row = 4;
    c->scoop = 3;
}

/* King, or Rıfkı (seed 004): 20 deals, a new declarer every deal; six
 * negative contracts played twice each and Trumps eight times, each player
 * choosing three negative contracts and Trumps twice. */
static void preset_king(barbu_rules *r)
{
    memset(r, 0, sizeof *r);
    r->deck_low = 2;
    r->rotation = BARBU_ROTATE_EVERY_DEAL;
    r->first_lead = BARBU_FIRST_DECLARER;
    r->domino_first = BARBU_FIRST_DECLARER;
    r->must_trump = true;
    r->hearts_lead = true;
    r->early_end = true;
    r->doubling = false;
    r->undoubled_shared = false;
    r->mandatory_doubles = 0;
    r->israeli = BARBU_ISRAELI_OFF;

    barbu_contract *c = add_contract(r, "no-king", "No King", "NK", BARBU_KIND_TRICKS,
                                     BARBU_CF_HEARTS_LEAD | BARBU_CF_EARLY_END);
    c->card[BARBU_CARD(BARBU_HEARTS, BARBU_KING)] = -320;
    c = add_contract(r, "no-girls", "No Girls", "NG", BARBU_KIND_TRICKS, BARBU_CF_EARLY_END);
    set_rank(c, BARBU_QUEEN, -100);
    c = add_contract(r, "no-boys", "No Boys", "NB", BARBU_KIND_TRICKS, BARBU_CF_EARLY_END);
    set_rank(c, BARBU_JACK, -60);
    set_rank(c, BARBU_KING, -60);
    c = add_contract(r, "no-hearts", "No Hearts", "NH", BARBU_KIND_TRICKS, BARBU_CF_HEARTS_LEAD);
    set_suit(c, BARBU_HEARTS, -30);
    c = add_contract(r, "no-last-two", "No Last Two", "NL", BARBU_KIND_TRICKS, 0);
    c->trick_from_end[0] = -180;
    c->trick_from_end[1] = -180;
    c = add_contract(r, "no-tricks", "No Tricks", "NT", BARBU_KIND_TRICKS, 0);
    c->per_trick = -50;
    for (int i = 0; i < r->n_contracts; i++)
        r->contract[i].times = 2;
    c = add_contract(r, "trumps", "Trumps", "TR", BARBU_KIND_TRUMPS, 0);
    c->per_trick = 50;
    c->per_player = 2;
    c->times = 8;
}

/* King with seed 004's other sixth contract: the 7th and the last trick. */
static void preset_king_7th(barbu_rules *r)
{
    preset_king(r);
    barbu_contract *c = &r->contract[barbu_contract_find(r, "no-last-two")];
    snprintf(c->key, sizeof c->key, "no-7th-last");
    snprintf(c->name, sizeof c->name, "No 7th and Last");
    snprintf(c->abbr, sizeof c->abbr, "N7");
    c->trick_from_end[1] = 0;
    c->trick_from_end[BARBU_MAX_TRICKS - 7] = -180;
}

/*
 * The 32-card pack (7 to A, 8 cards each) of the first French game (seed
 * 004).  The card scores stay as they are; No Tricks and Trumps keep their
 * value a trick over 8 tricks, and Domino's last place scores 0 (as some
 * play it, seed 001) so that the game still sums to zero: -16 - 20 - 24 -
 * 20 - 30 = -110 = -(40 + 70).
 */
static void to_32(barbu_rules *r)
{
    r->deck_low = 7;
    for (int i = 0; i < r->n_contracts; i++)
        for (int rank = 2; rank < 7; rank++)
            set_rank(&r->contract[i], rank, 0);
}

static void preset_uk_32(barbu_rules *r)
{
    preset_uk(r);
    to_32(r);
    r->contract[barbu_contract_find(r, "domino")].place[3] = 0;
}

static void preset_classic_32(barbu_rules *r)
{
    preset_uk_32(r);
    r->rotation = BARBU_ROTATE_BLOCK;
}

static void preset_quick_32(barbu_rules *r)
{
    preset_uk_32(r);
}

/* Ravage City in 32 cards: -24 - 20 - 32 - 21 - 30 - 24 = -151 against
 * Trumps +7 a trick (+56) and Domino 55/30/10/0 (+95). */
static void preset_ravage_32(barbu_rules *r)
{
    preset_ravage(r);
    to_32(r);
    barbu_contract *c = &r->contract[barbu_contract_find(r, "domino")];
    c->place[0] = 55;
    c->place[1] = 30;
}

/*
 * The Fife game of seed 000: 32 cards; each Round plays five negative Calls
 * (-420 in all) and two Patiences (+420), so every Round sums to zero.  The
 * Calls are contracts 0-6 in the order of the score sheet's columns.
 */
static void preset_fife(barbu_rules *r)
{
    memset(r, 0, sizeof *r);
    r->game = BARBU_GAME_FIFE;
    r->sets = 1;
    r->deck_low = 7;
    r->rotation = BARBU_ROTATE_EVERY_DEAL;
    /* A Non-Caller leads each Call (the booklet's Tactics, 2). */
    r->first_lead = BARBU_FIRST_LEFT;
    r->domino_first = BARBU_FIRST_LEFT;
    r->israeli = BARBU_ISRAELI_OFF;
    r->later_joker = true;

    barbu_contract *c = add_contract(r, "aces", "Aces", "AC", BARBU_KIND_TRICKS, 0);
    set_rank(c, BARBU_ACE, -20);
    c = add_contract(r, "king-hearts", "King of Hearts", "KH", BARBU_KIND_TRICKS, 0);
    c->card[BARBU_CARD(BARBU_HEARTS, BARBU_KING)] = -100;
    c = add_contract(r, "queens", "Queens", "QU", BARBU_KIND_TRICKS, 0);
    set_rank(c, BARBU_QUEEN, -15);
    c = add_contract(r, "hearts", "Hearts", "HE", BARBU_KIND_TRICKS, 0);
    set_suit(c, BARBU_HEARTS, -10);
    c->card[BARBU_CARD(BARBU_HEARTS, BARBU_JACK)] = -30;
    for (int rank = 2; rank < 7; rank++)
        c->card[BARBU_CARD(BARBU_HEARTS, rank)] = 0;
    c = add_contract(r, "tricks", "Tricks", "TR", BARBU_KIND_TRICKS, 0);
    c->per_trick = -10;
    for (int k = 0; k < 2; k++) {
        c = add_contract(r, k ? "patience-2" : "patience-1", k ? "Patience 2" : "Patience 1",
                         k ? "P2" : "P1", BARBU_KIND_PATIENCE, 0);
        c->fixed_rank = BARBU_JACK;
        c->place[0] = 120;
        c->place[1] = 60;
        c->place[2] = 30;
        c->place[3] = 0;
    }
}

static const struct {
    const char *name;
    void (*fill)(barbu_rules *);
    const char *about;
} PRESETS[] = {
    {"uk", preset_uk, "the standard game as played online in the UK (seeds 002, 003)"},
    {"classic", preset_classic, "the standard game with each declarer's contracts in a row (004)"},
    {"quick", preset_quick, "Quick Rotation Barbu: a new declarer every deal (001, 004)"},
    {"ravage", preset_ravage, "Ravage City as an eighth contract, 32 deals (001, 004)"},
    {"chinese", preset_chinese, "Chinese Poker as a ninth contract, with Ravage City (001, 004)"},
    {"king", preset_king, "King or Rifki: 20 deals, Trumps eight times (004)"},
    {"king-7th", preset_king_7th, "King with No 7th and Last for No Last Two (004)"},
    {"uk-32", preset_uk_32, "uk with the 32-card pack, 7 to A (004)"},
    {"classic-32", preset_classic_32, "classic with the 32-card pack"},
    {"quick-32", preset_quick_32, "quick with the 32-card pack"},
    {"ravage-32", preset_ravage_32, "ravage with the 32-card pack"},
    {"fife", preset_fife, "the Fife game: Sets, combined Calls, Patience, the Silly Round (000)"},
};

#define N_PRESETS (sizeof PRESETS / sizeof PRESETS[0])

int barbu_rules_preset(barbu_rules *rules, const char *name)
{
    for (size_t i = 0; i < N_PRESETS; i++) {
        if (strcmp(name, PRESETS[i].name) == 0) {
            PRESETS[i].fill(rules);
            snprintf(rules->preset, sizeof rules->preset, "%s", PRESETS[i].name);
            return 0;
        }
    }
    return BARBU_EINVAL;
}

const char *barbu_preset_name(int index)
{
    return index >= 0 && (size_t)index < N_PRESETS ? PRESETS[index].name : NULL;
}

const char *barbu_preset_about(int index)
{
    return index >= 0 && (size_t)index < N_PRESETS ? PRESETS[index].about : NULL;
}

/* ------------------------------------------------------------- derived */

int barbu_contract_find(const barbu_rules *rules, const char *key)
{
    for (int i = 0; i < rules->n_contracts; i++)
        if (strcmp(rules->contract[i].key, key) == 0)
            return i;
    return -1;
}

int barbu_rules_hand_size(const barbu_rules *rules)
{
    return 15 - rules->deck_low;
}

int barbu_contract_times(const barbu_rules *rules, int index)
{
    return bb_contract_times(rules, index);
}

int barbu_rules_deals(const barbu_rules *rules)
{
    return bb_rules_deals(rules);
}

int barbu_contract_total(const barbu_rules *rules, int index)
{
    const barbu_contract *c = &rules->contract[index];
    int tricks = barbu_rules_hand_size(rules);
    int total = 0;
    switch (c->kind) {
    case BARBU_KIND_DOMINO:
    case BARBU_KIND_PATIENCE:
        for (int i = 0; i < 4; i++)
            total += c->place[i];
        return total;
    case BARBU_KIND_RAVAGE:
        return c->shared;
    case BARBU_KIND_CHINESE:
        return 0; /* each pair of players scores against each other */
    default:
        break;
    }
    /* Whole tables, which the compiler unrolls or sums a vector at a time,
     * less the entries beyond the deal's tricks and those that are no card
     * of the pack: a third of the cost of walking the pack's cards one by one
     * (the doubling asks for this at every bid). */
    total = c->per_trick * tricks;
    for (int i = 0; i < BARBU_MAX_TRICKS; i++)
        total += c->trick_from_end[i];
    for (int i = tricks; i < BARBU_MAX_TRICKS; i++)
        total -= c->trick_from_end[i];
    for (int i = 0; i < 64; i++)
        total += c->card[i];
    for (int suit = 0; suit < 4; suit++) {
        const int16_t *lane = &c->card[BARBU_CARD(suit, 0)];
        total -= lane[0] + lane[1] + lane[15];
        for (int rank = 2; rank < rules->deck_low; rank++)
            total -= lane[rank];
    }
    return total;
}

/* ------------------------------------------------------------ the file */

/* The option keys, with the values each takes. */
typedef enum { OPT_BOOL, OPT_INT, OPT_ENUM } opt_type;

typedef struct option {
    const char *key;
    opt_type type;
    size_t offset;
    int min, max;         /* OPT_INT */
    const char *names[4]; /* OPT_ENUM, by value */
    const char *help;
} option;

#define FIELD(f) offsetof(barbu_rules, f)

static const option OPTIONS[] = {
    {"deck", OPT_ENUM, FIELD(deck_low), 0, 0, {0}, "52 cards (2 to A) or 32 cards (7 to A)"},
    {"rotation",
     OPT_ENUM,
     FIELD(rotation),
     0,
     0,
     {"every-deal", "in-a-row"},
     "a new declarer every deal (seed 003), or each declarer's contracts in a row (seed 004)"},
    {"first-lead",
     OPT_ENUM,
     FIELD(first_lead),
     0,
     0,
     {"declarer", "left"},
     "who leads to the first trick: the declarer, or the player on the declarer's left"},
    {"domino-first",
     OPT_ENUM,
     FIELD(domino_first),
     0,
     0,
     {"declarer", "left"},
     "who plays first at Domino"},
    {"domino-ace",
     OPT_BOOL,
     FIELD(domino_ace_low),
     0,
     0,
     {"high", "low"},
     "at Domino the ace is above the king (high) or below the two (low)"},
    {"must-trump",
     OPT_BOOL,
     FIELD(must_trump),
     0,
     0,
     {"no", "yes"},
     "at Trumps a player void in the suit led must trump (seeds 002, 003, 004)"},
    {"hearts-lead",
     OPT_BOOL,
     FIELD(hearts_lead),
     0,
     0,
     {"no", "yes"},
     "hearts may not be led while holding another suit, where a contract has the rule"},
    {"early-end",
     OPT_BOOL,
     FIELD(early_end),
     0,
     0,
     {"no", "yes"},
     "a deal ends once its last penalty card is taken, where a contract has the rule"},
    {"doubling", OPT_BOOL, FIELD(doubling), 0, 0, {"no", "yes"}, "doubling and redoubling"},
    {"undoubled-not-played",
     OPT_BOOL,
     FIELD(undoubled_shared),
     0,
     0,
     {"no", "yes"},
     "a negative contract nobody doubles is not played; its points are shared"},
    {"mandatory-doubles",
     OPT_INT,
     FIELD(mandatory_doubles),
     0,
     7,
     {0},
     "doubles each player owes each declarer (0: none)"},
    {"israeli",
     OPT_ENUM,
     FIELD(israeli),
     0,
     0,
     {"off", "advise", "enforce"},
     "the Israeli penalty-discard rule of seed 002"},
    {"chinese-fouls",
     OPT_BOOL,
     FIELD(fouls_lose),
     0,
     0,
     {"refuse", "lose"},
     "Chinese Poker: rows out of order are refused, or accepted and lose every row"},
    {"sets",
     OPT_INT,
     FIELD(sets),
     1,
     BARBU_MAX_SETS,
     {0},
     "the Fife game: Sets in a game, each four Player Rounds and a Silly Round"},
    {"later-call-joker",
     OPT_BOOL,
     FIELD(later_joker),
     0,
     0,
     {"no", "yes"},
     "the Fife game's Silly Round: after a number on a later Call the Cutter cuts again while a "
     "Joker could bring in the other negative Calls left (seed 000); no: the Call is decided at "
     "once when no unused number can join it (how barbu read it before record format 2)"},
};

/* Options that only one shape of game has. */
static bool option_applies(const barbu_rules *r, const option *o)
{
    bool fife_only = strcmp(o->key, "sets") == 0 || strcmp(o->key, "later-call-joker") == 0;
    return !fife_only || r->game == BARBU_GAME_FIFE;
}

#define N_OPTIONS (sizeof OPTIONS / sizeof OPTIONS[0])

static const char *const FLAG_NAMES[] = {"hearts-lead", "early-end", "israeli"};

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static int parse_int(const char *s, int min, int max, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || v < min || v > max)
        return -1;
    *out = (int)v;
    return 0;
}

/* Reads up to max integers; returns how many or -1. */
static int parse_ints(char *s, int min, int max, int *out, int cap)
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(s, " \t,", &save); tok != NULL; tok = strtok_r(NULL, " \t,", &save)) {
        if (n == cap || parse_int(tok, min, max, &out[n]) != 0)
            return -1;
        n++;
    }
    return n;
}

static int set_option(barbu_rules *r, const option *o, const char *value, int line,
                      barbu_diag *diag)
{
    uint8_t *field = (uint8_t *)r + o->offset;
    if (strcmp(o->key, "deck") == 0) {
        if (strcmp(value, "52") == 0)
            *field = 2;
        else if (strcmp(value, "32") == 0)
            *field = 7;
        else
            return bb_diag(diag, line, BARBU_ERULES, "deck must be 52 or 32, not '%s'", value);
        return 0;
    }
    if (o->type == OPT_INT) {
        int v;
        if (parse_int(value, o->min, o->max, &v) != 0)
            return bb_diag(diag, line, BARBU_ERULES, "%s must be a whole number from %d to %d",
                           o->key, o->min, o->max);
        *field = (uint8_t)v;
        return 0;
    }
    const char *const *names = o->names;
    for (int i = 0; i < 4 && names[i] != NULL; i++) {
        if (strcmp(value, names[i]) == 0) {
            if (o->type == OPT_BOOL)
                *(bool *)field = i != 0;
            else
                *field = (uint8_t)i;
            return 0;
        }
    }
    if (o->type == OPT_BOOL && strcmp(names[1], "yes") == 0) {
        /* Plain booleans also take the usual synonyms. */
        if (strcmp(value, "on") == 0 || strcmp(value, "true") == 0) {
            *(bool *)field = true;
            return 0;
        }
        if (strcmp(value, "off") == 0 || strcmp(value, "false") == 0) {
            *(bool *)field = false;
            return 0;
        }
    }
    char choices[120] = "";
    for (int i = 0; i < 4 && names[i] != NULL; i++)
        snprintf(choices + strlen(choices), sizeof choices - strlen(choices), "%s%s", i ? ", " : "",
                 names[i]);
    return bb_diag(diag, line, BARBU_ERULES, "%s must be one of %s, not '%s'", o->key, choices,
                   value);
}

#define SCORE_MIN -10000
#define SCORE_MAX 10000

/* A card, a rank ("Q") or a suit ("H") naming the cards of a card-value line. */
static int card_selector(const char *s, barbu_cards *cards)
{
    if (strcmp(s, "all") == 0) {
        *cards = BARBU_ALL_CARDS;
        return 0;
    }
    const char *end;
    int card = barbu_card_parse(s, &end);
    if (card >= 0 && *end == '\0') {
        *cards = BARBU_BIT(card);
        return 0;
    }
    static const char SUITS[] = "CDHS";
    if (strlen(s) == 1 && strchr(SUITS, toupper((unsigned char)s[0])) != NULL) {
        *cards = BARBU_SUIT_CARDS(strchr(SUITS, toupper((unsigned char)s[0])) - SUITS);
        return 0;
    }
    static const char RANKS[] = "23456789TJQKA";
    int rank = -1;
    if (strcmp(s, "10") == 0)
        rank = 10;
    else if (strlen(s) == 1 && strchr(RANKS, toupper((unsigned char)s[0])) != NULL)
        rank = 2 + (int)(strchr(RANKS, toupper((unsigned char)s[0])) - RANKS);
    if (rank < 0)
        return -1;
    *cards = 0;
    for (int suit = 0; suit < 4; suit++)
        *cards |= BARBU_BIT(BARBU_CARD(suit, rank));
    return 0;
}

/* How each kind of contract scores, and so which fields it has. */
enum { SCORE_TRICKS, SCORE_PLACES, SCORE_SHARED, SCORE_ROWS };
static const char *const SCORED_BY[] = {
    "tricks and cards taken (per-trick, card.X, trick-from-end)",
    "places in the layout (places)",
    "one shared penalty (shared)",
    "rows (per-row, scoop)",
};

static int score_kind(int kind)
{
    switch (kind) {
    case BARBU_KIND_DOMINO:
    case BARBU_KIND_PATIENCE:
        return SCORE_PLACES;
    case BARBU_KIND_RAVAGE:
        return SCORE_SHARED;
    case BARBU_KIND_CHINESE:
        return SCORE_ROWS;
    default:
        return SCORE_TRICKS;
    }
}

/* Which way of scoring a field belongs to, or -1 for the fields of every
 * contract. */
static int field_kind(const char *field)
{
    if (strcmp(field, "per-trick") == 0 || strcmp(field, "trick-from-end") == 0 ||
        strncmp(field, "card.", 5) == 0)
        return SCORE_TRICKS;
    if (strcmp(field, "places") == 0)
        return SCORE_PLACES;
    if (strcmp(field, "shared") == 0)
        return SCORE_SHARED;
    if (strcmp(field, "per-row") == 0 || strcmp(field, "scoop") == 0)
        return SCORE_ROWS;
    return -1;
}

/* Sets one field of a contract ("no-hearts.card.AH = -6"). */
static int set_contract_field(barbu_rules *r, barbu_contract *c, const char *field, char *value,
                              int line, barbu_diag *diag)
{
    int v;
    /* A field that the contract's kind never scores would be lost on the
     * way back out, so it is refused here. */
    int kind = field_kind(field);
    if (kind >= 0 && kind != score_kind(c->kind))
        return bb_diag(diag, line, BARBU_ERULES, "%s scores %s: '%s' is not one of its fields",
                       c->key, SCORED_BY[score_kind(c->kind)], field);
    if (strcmp(field, "times") == 0) {
        if (parse_int(value, 0, 28, &v) != 0)
            return bb_diag(diag, line, BARBU_ERULES,
                           "%s.times must be from 0 to 28 (0: per-player for each player)", c->key);
        c->times = (uint8_t)v;
        return 0;
    }
    if (strcmp(field, "shared") == 0 || strcmp(field, "per-row") == 0 ||
        strcmp(field, "scoop") == 0) {
        if (parse_int(value, SCORE_MIN, SCORE_MAX, &v) != 0)
            return bb_diag(diag, line, BARBU_ERULES, "%s.%s must be a score from %d to %d", c->key,
                           field, SCORE_MIN, SCORE_MAX);
        if (strcmp(field, "shared") == 0)
            c->shared = (int16_t)v;
        else if (strcmp(field, "scoop") == 0)
            c->scoop = (int16_t)v;
        else
            c->per_row = (int16_t)v;
        return 0;
    }
    if (strcmp(field, "per-trick") == 0) {
        if (parse_int(value, SCORE_MIN, SCORE_MAX, &v) != 0)
            return bb_diag(diag, line, BARBU_ERULES, "%s.per-trick must be a score from %d to %d",
                           c->key, SCORE_MIN, SCORE_MAX);
        c->per_trick = (int16_t)v;
        return 0;
    }
    if (strcmp(field, "per-player") == 0) {
        if (parse_int(value, 0, 7, &v) != 0)
            return bb_diag(diag, line, BARBU_ERULES, "%s.per-player must be from 0 to 7", c->key);
        c->per_player = (uint8_t)v;
        return 0;
    }
    if (strncmp(field, "card.", 5) == 0) {
        barbu_cards cards;
        if (card_selector(field + 5, &cards) != 0)
            return bb_diag(diag, line, BARBU_ERULES,
                           "'%s' is not a card (AH), a rank (Q), a suit (H) or 'all'", field + 5);
        cards &= bb_deck(r);
        if (cards == 0)
            return bb_diag(diag, line, BARBU_ERULES, "'%s' is not in the %d-card pack", field + 5,
                           4 * barbu_rules_hand_size(r));
        if (parse_int(value, SCORE_MIN, SCORE_MAX, &v) != 0)
            return bb_diag(diag, line, BARBU_ERULES, "a card value must be a score from %d to %d",
                           SCORE_MIN, SCORE_MAX);
        while (cards) {
            int card = bb_lowest(cards);
            cards &= cards - 1;
            c->card[card] = (int16_t)v;
        }
        return 0;
    }
    if (strcmp(field, "trick-from-end") == 0 || strcmp(field, "places") == 0) {
        bool places = field[0] == 'p';
        int vals[BARBU_MAX_TRICKS];
        int cap = places ? 4 : BARBU_MAX_TRICKS;
        int n = parse_ints(value, SCORE_MIN, SCORE_MAX, vals, cap);
        if (n < 0 || (places && n != 4))
            return bb_diag(diag, line, BARBU_ERULES,
                           places ? "%s.places must be four scores, first to last"
                                  : "%s.trick-from-end must be up to 13 scores, last trick first",
                           c->key);
        if (places) {
            for (int i = 0; i < 4; i++)
                c->place[i] = (int16_t)vals[i];
        } else {
            memset(c->trick_from_end, 0, sizeof c->trick_from_end);
            for (int i = 0; i < n; i++)
                c->trick_from_end[i] = (int16_t)vals[i];
        }
        return 0;
    }
    if (strcmp(field, "rules") == 0) {
        int flags = 0;
        char *save = NULL;
        for (char *tok = strtok_r(value, " \t,", &save); tok != NULL;
             tok = strtok_r(NULL, " \t,", &save)) {
            if (strcmp(tok, "none") == 0)
                continue;
            int i = 0;
            while (i < 3 && strcmp(tok, FLAG_NAMES[i]) != 0)
                i++;
            if (i == 3)
                return bb_diag(diag, line, BARBU_ERULES,
                               "unknown contract rule '%s' (hearts-lead, early-end, israeli)", tok);
            flags |= 1 << i;
        }
        c->flags = (uint8_t)flags;
        return 0;
    }
    return bb_diag(diag, line, BARBU_ERULES,
                   "unknown key '%s.%s' (fields: per-trick, card.X, trick-from-end, places, "
                   "shared, per-row, scoop, per-player, times, rules)",
                   c->key, field);
}

int barbu_rules_parse(barbu_rules *rules, const char *text, size_t len, barbu_diag *diag)
{
    barbu_rules r;
    preset_uk(&r);
    int line = 0, settings = 0, last_score_line = 0, base_deck_low = r.deck_low;
    size_t pos = 0;
    char buf[512];
    while (pos < len) {
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        line++;
        size_t n = end - pos;
        if (n >= sizeof buf)
            return bb_diag(diag, line, BARBU_EPARSE, "line too long");
        memcpy(buf, text + pos, n);
        buf[n] = '\0';
        pos = end + 1;
        if (memchr(buf, '\0', n) != NULL)
            return bb_diag(diag, line, BARBU_EPARSE, "a NUL byte in the text");
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *s = trim(buf);
        if (*s == '\0')
            continue;
        char *eq = strchr(s, '=');
        if (eq == NULL)
            return bb_diag(diag, line, BARBU_EPARSE, "expected 'key = value'");
        *eq = '\0';
        char *key = trim(s), *value = trim(eq + 1);
        if (*value == '\0')
            return bb_diag(diag, line, BARBU_EPARSE, "'%s' has no value", key);
        settings++;
        if (strcmp(key, "preset") == 0) {
            if (settings != 1)
                return bb_diag(diag, line, BARBU_ERULES, "the preset line must come first");
            if (barbu_rules_preset(&r, value) != 0)
                return bb_diag(diag, line, BARBU_ERULES, "unknown preset '%s' (barbu rules --list)",
                               value);
            base_deck_low = r.deck_low;
            continue;
        }
        const option *o = NULL;
        for (size_t i = 0; i < N_OPTIONS; i++)
            if (strcmp(key, OPTIONS[i].key) == 0)
                o = &OPTIONS[i];
        int err;
        if (o != NULL && !option_applies(&r, o)) {
            return bb_diag(diag, line, BARBU_ERULES, "'%s' is an option of the Fife game only",
                           key);
        } else if (o != NULL) {
            err = set_option(&r, o, value, line, diag);
            /* A new pack changes every table's total: blame the line. */
            if (strcmp(o->key, "deck") == 0)
                last_score_line = line;
        } else if (strcmp(key, "domino-scores") == 0) {
            int idx = -1;
            for (int i = 0; i < r.n_contracts; i++)
                if (r.contract[i].kind == BARBU_KIND_DOMINO)
                    idx = i;
            if (idx < 0)
                return bb_diag(diag, line, BARBU_ERULES, "this rule set has no Domino");
            err = set_contract_field(&r, &r.contract[idx], "places", value, line, diag);
            last_score_line = line;
        } else {
            char *dot = strchr(key, '.');
            int idx = -1;
            if (dot != NULL) {
                *dot = '\0';
                idx = barbu_contract_find(&r, key);
                if (idx < 0) {
                    return bb_diag(diag, line, BARBU_ERULES, "unknown contract '%s'", key);
                }
                err = set_contract_field(&r, &r.contract[idx], dot + 1, value, line, diag);
                last_score_line = line;
            } else {
                return bb_diag(diag, line, BARBU_ERULES, "unknown key '%s'", key);
            }
        }
        if (err != 0)
            return err;
    }
    /* Cards outside the pack never score: a 32-card game started from a
     * 52-card preset keeps no values for its 2s to 6s. */
    barbu_cards outside = ~bb_deck(&r);
    for (int i = 0; i < r.n_contracts; i++)
        for (barbu_cards m = outside & BARBU_ALL_CARDS; m; m &= m - 1)
            r.contract[i].card[bb_lowest(m)] = 0;
    barbu_diag check;
    int err = barbu_rules_check(&r, &check);
    if (err != 0) {
        /* A failed check is blamed on the line that last changed a score,
         * or on the end of the file when no line did. */
        bool hint = r.deck_low == 7 && base_deck_low == 2 && strstr(check.msg, "sum to zero");
        return bb_diag(diag, last_score_line ? last_score_line : line, err, "%s%s", check.msg,
                       hint ? " (the 32-card presets, such as uk-32, have tables that do)" : "");
    }
    *rules = r;
    return 0;
}

static bool cards_empty(const barbu_contract *c)
{
    for (int i = 0; i < 64; i++)
        if (c->card[i] != 0)
            return false;
    return true;
}

/* The most one player can score in a deal of a contract, either way. */
static long max_deal_score(const barbu_rules *r, const barbu_contract *c)
{
    long most = 0;
    switch (c->kind) {
    case BARBU_KIND_DOMINO:
    case BARBU_KIND_PATIENCE:
        for (int i = 0; i < 4; i++)
            most = labs((long)c->place[i]) > most ? labs((long)c->place[i]) : most;
        return most;
    case BARBU_KIND_RAVAGE:
        return labs((long)c->shared);
    case BARBU_KIND_CHINESE:
        return labs((long)c->per_row) * 3 * (3 + labs((long)c->scoop));
    default:
        break;
    }
    most = labs((long)c->per_trick) * barbu_rules_hand_size(r);
    for (int k = 0; k < BARBU_MAX_TRICKS; k++)
        most += labs((long)c->trick_from_end[k]);
    /* As barbu_contract_total sums the cards: the whole table, less the
     * entries that are no card of the pack. */
    int cards = 0;
    for (int i = 0; i < 64; i++)
        cards += abs(c->card[i]);
    for (int suit = 0; suit < 4; suit++) {
        const int16_t *lane = &c->card[BARBU_CARD(suit, 0)];
        cards -= abs(lane[0]) + abs(lane[1]) + abs(lane[15]);
        for (int rank = 2; rank < r->deck_low; rank++)
            cards -= abs(lane[rank]);
    }
    return most + cards;
}

/* A deal's scores are 16-bit: raw scores up to M settle to at most
 * M + 3 * 2 * 2M = 13M with redoubles against all three others. */
#define DEAL_SCORE_MAX 32767

/* The Fife game's shape is fixed (seed 000): its seven Calls in the order of
 * the score sheet, the 32-card pack, no doubling; only the scores and the
 * number of Sets may change. */
static int check_fife(const barbu_rules *r, barbu_diag *diag)
{
    static const uint8_t KINDS[BARBU_CALLS] = {
        BARBU_KIND_TRICKS, BARBU_KIND_TRICKS,   BARBU_KIND_TRICKS,  BARBU_KIND_TRICKS,
        BARBU_KIND_TRICKS, BARBU_KIND_PATIENCE, BARBU_KIND_PATIENCE};
    if (r->n_contracts != BARBU_CALLS)
        return bb_diag(diag, 0, BARBU_ERULES, "the Fife game has exactly seven Calls");
    if (r->deck_low != 7)
        return bb_diag(diag, 0, BARBU_ERULES, "the Fife game is played with 32 cards (7 to A)");
    if (r->doubling)
        return bb_diag(diag, 0, BARBU_ERULES, "the Fife game has no doubling");
    if (r->domino_ace_low)
        return bb_diag(diag, 0, BARBU_ERULES, "the Fife Patience has the ace high");
    if (r->sets < 1 || r->sets > BARBU_MAX_SETS)
        return bb_diag(diag, 0, BARBU_ERULES, "sets must be from 1 to %d", BARBU_MAX_SETS);
    long round_total = 0;
    for (int i = 0; i < BARBU_CALLS; i++) {
        const barbu_contract *c = &r->contract[i];
        if (c->kind != KINDS[i])
            return bb_diag(diag, 0, BARBU_ERULES, "%s: Call %d of the Fife game must be %s", c->key,
                           i + 1,
                           KINDS[i] == BARBU_KIND_PATIENCE ? "a Patience" : "a negative Call");
        if (c->kind == BARBU_KIND_PATIENCE && c->fixed_rank != BARBU_JACK)
            return bb_diag(diag, 0, BARBU_ERULES, "%s: a Patience starts from the Jacks", c->key);
        if (max_deal_score(r, c) > DEAL_SCORE_MAX / 8)
            return bb_diag(diag, 0, BARBU_ERULES, "%s's scores are too large", c->key);
        round_total += barbu_contract_total(r, i);
    }
    if (round_total != 0)
        return bb_diag(diag, 0, BARBU_ERULES,
                       "the Calls of a Round no longer sum to zero (they sum to %ld)", round_total);
    return 0;
}

int barbu_rules_check(const barbu_rules *rules, barbu_diag *diag)
{
    const barbu_rules *r = rules;
    if (r->game == BARBU_GAME_FIFE)
        return check_fife(r, diag);
    if (r->game != BARBU_GAME_CONTRACTS)
        return bb_diag(diag, 0, BARBU_ERULES, "an option is out of range");
    if (r->deck_low != 2 && r->deck_low != 7)
        return bb_diag(diag, 0, BARBU_ERULES, "the pack must be 52 or 32 cards");
    if (r->n_contracts == 0 || r->n_contracts > BARBU_MAX_CONTRACTS)
        return bb_diag(diag, 0, BARBU_ERULES, "a rule set needs 1 to %d contracts",
                       BARBU_MAX_CONTRACTS);
    if (r->rotation > BARBU_ROTATE_BLOCK || r->first_lead > BARBU_FIRST_LEFT ||
        r->domino_first > BARBU_FIRST_LEFT || r->israeli > BARBU_ISRAELI_ENFORCE)
        return bb_diag(diag, 0, BARBU_ERULES, "an option is out of range");
    int tricks = barbu_rules_hand_size(r), deals = barbu_rules_deals(r);
    long game_total = 0;
    for (int i = 0; i < r->n_contracts; i++) {
        const barbu_contract *c = &r->contract[i];
        if (c->kind > BARBU_KIND_CHINESE || c->kind == BARBU_KIND_PATIENCE)
            return bb_diag(diag, 0, BARBU_ERULES, "%s: a Patience belongs to the Fife game",
                           c->key);
        if (c->times > 4 * c->per_player)
            return bb_diag(diag, 0, BARBU_ERULES,
                           "%s is played %d times, more than four players declaring it at most "
                           "%d times each",
                           c->key, c->times, c->per_player);
        for (int k = tricks; k < BARBU_MAX_TRICKS; k++)
            if (c->trick_from_end[k] != 0)
                return bb_diag(diag, 0, BARBU_ERULES, "%s scores a trick beyond the %d of a deal",
                               c->key, tricks);
        bool trick_scores = c->per_trick != 0;
        for (int k = 0; k < tricks; k++)
            trick_scores |= c->trick_from_end[k] != 0;
        if ((c->flags & BARBU_CF_EARLY_END) && (trick_scores || cards_empty(c)))
            return bb_diag(diag, 0, BARBU_ERULES,
                           "%s cannot end early: it must score cards taken and nothing else",
                           c->key);
        /* Two, three or four players tied at Ravage City share its score. */
        if (c->kind == BARBU_KIND_RAVAGE && c->shared % 12 != 0)
            return bb_diag(diag, 0, BARBU_ERULES,
                           "%s.shared must be a multiple of 12, so that two, three or four tied "
                           "players share it evenly",
                           c->key);
        if (c->kind == BARBU_KIND_CHINESE && tricks != 13)
            return bb_diag(diag, 0, BARBU_ERULES,
                           "%s needs 13 cards a hand (rows of 5, 5 and 3): not the 32-card pack",
                           c->key);
        if (c->kind == BARBU_KIND_CHINESE && (c->per_row < 0 || c->scoop < 0))
            return bb_diag(diag, 0, BARBU_ERULES, "%s: per-row and scoop cannot be negative",
                           c->key);
        long most = max_deal_score(r, c), settled = r->doubling ? 13 * most : most;
        if (settled > DEAL_SCORE_MAX)
            return bb_diag(diag, 0, BARBU_ERULES,
                           "%s's scores are too large: a player could score %ld in one deal%s, "
                           "beyond %d",
                           c->key, settled, r->doubling ? " with redoubles" : "", DEAL_SCORE_MAX);
        game_total += (long)barbu_contract_total(r, i) * barbu_contract_times(r, i);
    }
    if (deals == 0)
        return bb_diag(diag, 0, BARBU_ERULES, "no contract is ever declared");
    if (deals % 4 != 0)
        return bb_diag(diag, 0, BARBU_ERULES,
                       "the contracts make a game of %d deals, which four players cannot declare "
                       "equally (not a multiple of 4)",
                       deals);
    if (deals > 255)
        return bb_diag(diag, 0, BARBU_ERULES, "a game of %d deals is longer than 255", deals);
    uint8_t none[4][BARBU_MAX_CONTRACTS] = {{0}}, declared[4] = {0};
    if (!bb_schedule_feasible(r, none, declared))
        return bb_diag(diag, 0, BARBU_ERULES,
                       "the players cannot share out the contracts: each declares %d, and no "
                       "contract more than its per-player times",
                       deals / 4);
    if (r->mandatory_doubles > deals / 4)
        return bb_diag(diag, 0, BARBU_ERULES,
                       "mandatory-doubles (%d) exceeds the %d contracts of each declarer",
                       r->mandatory_doubles, deals / 4);
    if (game_total != 0)
        return bb_diag(diag, 0, BARBU_ERULES,
                       "the contract scores no longer sum to zero over a game (they sum to %ld)",
                       game_total);
    return 0;
}

/* --------------------------------------------------------------- writing */

typedef struct out {
    char *buf;
    size_t cap, len;
} out;

static void emit(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->cap ? o->cap - o->len : 0;
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

static void option_value(const barbu_rules *r, const option *o, char *buf, size_t cap)
{
    const uint8_t *field = (const uint8_t *)r + o->offset;
    if (strcmp(o->key, "deck") == 0)
        snprintf(buf, cap, "%d", r->deck_low == 7 ? 32 : 52);
    else if (o->type == OPT_INT)
        snprintf(buf, cap, "%d", *field);
    else if (o->type == OPT_BOOL)
        snprintf(buf, cap, "%s", o->names[*(const bool *)field ? 1 : 0]);
    else
        snprintf(buf, cap, "%s", o->names[*field]);
}

static void write_ints(out *o, const int16_t *v, int n)
{
    for (int i = 0; i < n; i++)
        emit(o, "%s%d", i ? " " : "", v[i]);
}

/* Card values as few lines as possible: whole ranks, then whole suits, then
 * single cards, applied in that order as the reader applies them. */
static void write_cards(out *o, const barbu_rules *r, const barbu_contract *c, bool reset)
{
    int16_t have[64] = {0};
    barbu_cards deck = bb_deck(r);
    if (reset)
        emit(o, "%s.card.all = 0\n", c->key);
    for (int rank = r->deck_low; rank <= BARBU_ACE; rank++) {
        int16_t v = c->card[BARBU_CARD(0, rank)];
        bool same = v != 0;
        for (int suit = 1; suit < 4; suit++)
            same &= c->card[BARBU_CARD(suit, rank)] == v;
        if (same) {
            static const char RANKS[] = "??23456789TJQKA";
            emit(o, "%s.card.%c = %d\n", c->key, RANKS[rank], v);
            for (int suit = 0; suit < 4; suit++)
                have[BARBU_CARD(suit, rank)] = v;
        }
    }
    for (int suit = 3; suit >= 0; suit--) {
        /* The commonest differing value of the suit, if at least three cards share it. */
        int best = 0, best_n = 0;
        for (int rank = r->deck_low; rank <= BARBU_ACE; rank++) {
            int16_t v = c->card[BARBU_CARD(suit, rank)];
            if (v == have[BARBU_CARD(suit, rank)])
                continue;
            int n = 0;
            for (int k = r->deck_low; k <= BARBU_ACE; k++)
                n += c->card[BARBU_CARD(suit, k)] == v;
            if (n > best_n) {
                best = v;
                best_n = n;
            }
        }
        if (best_n >= 3) {
            emit(o, "%s.card.%c = %d\n", c->key, "CDHS"[suit], best);
            for (int rank = 2; rank <= BARBU_ACE; rank++)
                have[BARBU_CARD(suit, rank)] = (int16_t)best;
        }
    }
    for (int suit = 3; suit >= 0; suit--) {
        for (int rank = BARBU_ACE; rank >= 2; rank--) {
            int card = BARBU_CARD(suit, rank);
            if ((deck & BARBU_BIT(card)) && c->card[card] != have[card]) {
                char name[8];
                barbu_card_format((barbu_card)card, BARBU_FMT_ASCII, name, sizeof name);
                emit(o, "%s.card.%s = %d\n", c->key, name, c->card[card]);
            }
        }
    }
}

/* One contract's lines: every field (full) or those that differ from the
 * preset's contract (base, NULL when the preset has no such contract). */
static void write_contract(out *o, const barbu_rules *r, const barbu_contract *c,
                           const barbu_contract *base, bool full)
{
#define CHANGED(f) (base == NULL || memcmp(&c->f, &base->f, sizeof c->f) != 0)
    emit(o, "\n# %s\n", c->name);
    if (full || CHANGED(per_player))
        emit(o, "%s.per-player = %d\n", c->key, c->per_player);
    if ((full && c->times != 0) || CHANGED(times))
        emit(o, "%s.times = %d\n", c->key, c->times);
    if (c->kind == BARBU_KIND_RAVAGE) {
        if (full || CHANGED(shared))
            emit(o, "%s.shared = %d\n", c->key, c->shared);
    } else if (c->kind == BARBU_KIND_CHINESE) {
        if (full || CHANGED(per_row))
            emit(o, "%s.per-row = %d\n", c->key, c->per_row);
        if (full || CHANGED(scoop))
            emit(o, "%s.scoop = %d\n", c->key, c->scoop);
    } else if (c->kind == BARBU_KIND_DOMINO || c->kind == BARBU_KIND_PATIENCE) {
        if (full || CHANGED(place)) {
            emit(o, "%s.places = ", c->key);
            write_ints(o, c->place, 4);
            emit(o, "\n");
        }
    } else {
        if ((full && c->per_trick != 0) || CHANGED(per_trick))
            emit(o, "%s.per-trick = %d\n", c->key, c->per_trick);
        int n = BARBU_MAX_TRICKS;
        while (n > 0 && c->trick_from_end[n - 1] == 0)
            n--;
        if ((full && n > 0) || CHANGED(trick_from_end)) {
            emit(o, "%s.trick-from-end = ", c->key);
            if (n == 0)
                emit(o, "0");
            write_ints(o, c->trick_from_end, n);
            emit(o, "\n");
        }
        if ((full && !cards_empty(c)) || CHANGED(card))
            write_cards(o, r, c, base != NULL && !cards_empty(base) && CHANGED(card));
    }
    if (full || CHANGED(flags)) {
        emit(o, "%s.rules =", c->key);
        if (c->flags == 0)
            emit(o, " none");
        for (int i = 0; i < 3; i++)
            if (c->flags & (1 << i))
                emit(o, " %s", FLAG_NAMES[i]);
        emit(o, "\n");
    }
#undef CHANGED
}

int barbu_rules_write(const barbu_rules *rules, bool only_changes, char *buf, size_t cap)
{
    out o = {buf, cap, 0};
    if (cap > 0)
        buf[0] = '\0';
    barbu_rules base;
    bool have_base = barbu_rules_preset(&base, rules->preset) == 0;
    if (!have_base)
        preset_uk(&base);
    emit(&o, "preset = %s\n", have_base ? rules->preset : "uk");
    for (size_t i = 0; i < N_OPTIONS; i++) {
        char mine[32], theirs[32];
        if (!option_applies(rules, &OPTIONS[i]))
            continue;
        option_value(rules, &OPTIONS[i], mine, sizeof mine);
        option_value(&base, &OPTIONS[i], theirs, sizeof theirs);
        if (!only_changes || strcmp(mine, theirs) != 0) {
            if (!only_changes)
                emit(&o, "# %s\n", OPTIONS[i].help);
            emit(&o, "%s = %s\n", OPTIONS[i].key, mine);
        }
    }
    for (int i = 0; i < rules->n_contracts; i++) {
        const barbu_contract *c = &rules->contract[i];
        const barbu_contract *b = i < base.n_contracts ? &base.contract[i] : NULL;
        if (only_changes && b != NULL && memcmp(c, b, sizeof *c) == 0)
            continue;
        /* A full listing spells out every field; a list of changes names
         * only what differs from the preset, so the file stays short. */
        write_contract(&o, rules, c, b, !only_changes);
    }
    if (o.len >= cap && cap > 0)
        buf[cap - 1] = '\0';
    return (int)o.len;
}
