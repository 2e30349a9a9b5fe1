/*
 * barbu.h - the front door of libbarbu, the Barbu rules engine.
 *
 * A game is a rule set, a seed and the list of actions the seats took.
 * Dealing and the first draw come from the seed; everything else is an action
 * that the engine checks.  The engine does no I/O, keeps no globals and does
 * not allocate while a game is played: a barbu_state is a plain value that the
 * caller owns and may copy with an assignment.
 *
 * Conventions: public names start with barbu_; a function that can fail
 * returns 0 on success or a negative BARBU_E* code that barbu_strerror()
 * puts into words.
 */
#ifndef BARBU_BARBU_H
#define BARBU_BARBU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BARBU_VERSION "0.1.0"

/* ------------------------------------------------------------------ errors */

enum {
    BARBU_OK = 0,
    BARBU_EINVAL = -1,       /* a malformed argument */
    BARBU_ENOMEM = -2,       /* out of memory */
    BARBU_EOVER = -3,        /* the game is over */
    BARBU_EPHASE = -4,       /* that kind of action is not expected now */
    BARBU_ETURN = -5,        /* it is another seat's turn */
    BARBU_ENOTHELD = -6,     /* the card is not in the player's hand */
    BARBU_EFOLLOW = -7,      /* must follow suit */
    BARBU_EHEARTS = -8,      /* hearts may not be led yet */
    BARBU_ETRUMP = -9,       /* void in the suit led: must trump */
    BARBU_EOVERTRUMP = -10,  /* must over-trump the trick */
    BARBU_EHIGHER = -11,     /* trump led: must play a higher trump */
    BARBU_ELAYOUT = -12,     /* the card does not fit the layout */
    BARBU_EMUSTPLAY = -13,   /* may not pass while a card can be played */
    BARBU_EONECARD = -14,    /* cards must be played one at a time now */
    BARBU_EUSED = -15,       /* the player has already declared it */
    BARBU_ECONTRACT = -16,   /* no such contract or combination here */
    BARBU_ESUIT = -17,       /* a trump suit must be named (and only then) */
    BARBU_ERANK = -18,       /* a start rank must be named (and only then) */
    BARBU_EDOUBLE = -19,     /* that player may not be doubled */
    BARBU_EREDOUBLE = -20,   /* only a player who doubled you can be redoubled */
    BARBU_ECOMPULSORY = -21, /* a compulsory double of the declarer is owed */
    BARBU_EISRAELI = -22,    /* must discard the last penalty card */
    BARBU_ECOUNT = -23,      /* the wrong number of cards */
    BARBU_EARRANGE = -24,    /* the arrangement of rows is not valid */
    BARBU_EHANDS = -25,      /* the hands are not a valid deal */
    BARBU_EPARSE = -26,      /* malformed record or rules text */
    BARBU_ERULES = -27,      /* the rule set is not valid */
    BARBU_EMISMATCH = -28,   /* a record disagrees with the engine */
    BARBU_ELIMIT = -29,      /* more than the engine can hold */
    BARBU_EFOUL = -30,       /* rows out of order: a fouled Chinese Poker hand */
    BARBU_ESCHEDULE = -31,   /* the choice would leave the game's schedule impossible */
    BARBU_EPLAYEDOUT = -32,  /* the contract has been played as often as a game allows */
    BARBU_ECALLS = -33,      /* the Round's Calls would not include two Doubles or a Treble */
    BARBU_EGROUP = -34,      /* cards played together must be a run or of one rank */
    BARBU_ECOMBO = -35,      /* Calls combine only with Calls of their kind */
};

/* The error in words, e.g. "must follow suit".  Never NULL. */
const char *barbu_strerror(int err);

/* A diagnostic for the readers of texts (rules files, records). */
typedef struct barbu_diag {
    int line;     /* 1-based line of the text, 0 if none */
    int deal;     /* 1-based deal, 0 if none */
    int position; /* 1-based action within the deal, 0 if none */
    char msg[480];
} barbu_diag;

/* ------------------------------------------------------------------- cards */

/*
 * A card is suit * 16 + rank with rank 2..14 (14 = ace), so a set of cards is
 * a uint64_t with one 16-bit lane per suit and the rank as the bit inside it.
 */
typedef uint8_t barbu_card;
typedef uint64_t barbu_cards;

enum { BARBU_CLUBS, BARBU_DIAMONDS, BARBU_HEARTS, BARBU_SPADES };
enum { BARBU_JACK = 11, BARBU_QUEEN = 12, BARBU_KING = 13, BARBU_ACE = 14 };

#define BARBU_CARD(suit, rank) ((barbu_card)((suit)*16 + (rank)))
#define BARBU_SUIT(card)       ((int)((card) >> 4))
#define BARBU_RANK(card)       ((int)((card)&15))
#define BARBU_BIT(card)        (UINT64_C(1) << (card))
#define BARBU_SUIT_CARDS(suit) (UINT64_C(0x7ffc) << ((suit)*16))
#define BARBU_ALL_CARDS        UINT64_C(0x7ffc7ffc7ffc7ffc)

/* The Unused Pack of seed 000 holds 2-6 of each suit, two Jokers and a Bridge
 * card; a cut from it is a card or one of these. */
#define BARBU_JOKER  ((barbu_card)1)
#define BARBU_BRIDGE ((barbu_card)15)

/* Cards in a set. */
static inline int barbu_count(barbu_cards set)
{
    return __builtin_popcountll(set);
}

/* The k-th card of a set (k from 0, lowest first); k must be below the count. */
int barbu_nth_card(barbu_cards set, unsigned k);

/* Parses one card ("QH", "10h", "Th", "Q♥"); returns the card or -1 and sets
 * *end past what was read. */
int barbu_card_parse(const char *text, const char **end);

/* Writes a card as "QH" (ascii) or "Q♥" (unicode); returns the length. */
enum { BARBU_FMT_ASCII = 0, BARBU_FMT_UNICODE = 1 };
int barbu_card_format(barbu_card card, int fmt, char *buf, size_t cap);

/* Writes a hand PBN-style as "AKQ.T98.-.5432" (spades, hearts, diamonds,
 * clubs).  Returns the length of the whole text, like snprintf; the text is
 * truncated to cap - 1 characters. */
int barbu_hand_format(barbu_cards hand, char *buf, size_t cap);

/* Parses a PBN-style hand; returns 0 or BARBU_EPARSE. */
int barbu_hand_parse(const char *text, const char **end, barbu_cards *hand);

/* "N", "E", "S", "W" and the seat from a letter or name, or -1. */
const char *barbu_seat_name(int seat);
int barbu_seat_parse(const char *text);

/* -------------------------------------------------------------- randomness */

/* The bytes of a keyed game's key (barbu_init_keyed). */
#define BARBU_KEY_BYTES 32

/* SplitMix64: small, fast and exactly reproducible on every machine. */
typedef struct barbu_rng {
    uint64_t s;
} barbu_rng;

static inline void barbu_rng_seed(barbu_rng *rng, uint64_t seed)
{
    rng->s = seed;
}

static inline uint64_t barbu_rng_next(barbu_rng *rng)
{
    uint64_t z = (rng->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A number in [0, n). */
static inline uint32_t barbu_rng_below(barbu_rng *rng, uint32_t n)
{
    return (uint32_t)(((barbu_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

/* ------------------------------------------------------------------- rules */

#define BARBU_MAX_CONTRACTS 12
#define BARBU_MAX_TRICKS    13

/* How a contract is played.  Its scores come from the tables of
 * barbu_contract, so a new score table needs no new code. */
enum {
    BARBU_KIND_TRICKS,   /* no trumps; penalties for tricks and cards taken */
    BARBU_KIND_TRUMPS,   /* the declarer names trumps; points per trick */
    BARBU_KIND_DOMINO,   /* a layout from a rank the declarer names */
    BARBU_KIND_PATIENCE, /* a layout from the Jacks (seed 000) */
    BARBU_KIND_RAVAGE,   /* most cards of one suit (seed 004) */
    BARBU_KIND_CHINESE,  /* three poker hands (seed 004) */
};

/* Contract flags. */
enum {
    BARBU_CF_HEARTS_LEAD = 1, /* hearts may not be led while holding another suit */
    BARBU_CF_EARLY_END = 2,   /* the deal ends once every penalty card is taken */
    BARBU_CF_ISRAELI = 4,     /* the Israeli penalty-discard rule applies */
};

typedef struct barbu_contract {
    char key[16];  /* "no-hearts": the name in files and messages */
    char name[24]; /* "No Hearts" */
    char abbr[4];  /* "NH" for narrow score sheets */
    uint8_t kind;
    uint8_t flags;
    uint8_t per_player;                       /* the most times one player declares it */
    uint8_t times;                            /* deals of it in a game; 0: per_player for
                                                 each of the four (barbu_contract_times) */
    int8_t fixed_rank;                        /* layouts: the start rank when fixed, else 0 */
    int16_t per_trick;                        /* per trick taken */
    int16_t trick_from_end[BARBU_MAX_TRICKS]; /* [0] is the last trick */
    int16_t card[64];                         /* per card taken, indexed by barbu_card */
    int16_t place[4];                         /* layouts: by order out */
    int16_t shared;                           /* Ravage City: the score shared equally by
                                                 the players with most cards of one suit */
    int16_t per_row;                          /* Chinese Poker: each row won against each
                                                 other player */
    int16_t scoop;                            /* Chinese Poker: the bonus, in rows, for
                                                 winning all three against one player */
} barbu_contract;

enum { BARBU_ROTATE_EVERY_DEAL, BARBU_ROTATE_BLOCK };
/* The shape of a game: a schedule of contracts (seeds 001-004), or the Fife
 * game of seed 000 (Sets of four Player Rounds and a Silly Round). */
enum { BARBU_GAME_CONTRACTS, BARBU_GAME_FIFE };
enum { BARBU_FIRST_DECLARER, BARBU_FIRST_LEFT };
enum { BARBU_ISRAELI_OFF, BARBU_ISRAELI_ADVISE, BARBU_ISRAELI_ENFORCE };

typedef struct barbu_rules {
    char preset[16];           /* the preset it started from */
    uint8_t game;              /* BARBU_GAME_* */
    uint8_t sets;              /* the Fife game: Sets in a game */
    uint8_t deck_low;          /* lowest rank: 2 (52 cards) or 7 (32 cards) */
    uint8_t rotation;          /* BARBU_ROTATE_*: new declarer every deal, or
                                  each declarer's contracts in a row */
    uint8_t first_lead;        /* trick contracts: who leads first */
    uint8_t domino_first;      /* layouts: who plays first */
    bool domino_ace_low;       /* layouts: A below 2 instead of above K */
    bool must_trump;           /* Trumps: void in the suit led, must trump */
    bool hearts_lead;          /* the hearts-lead rule, where a contract has it */
    bool early_end;            /* early ends, where a contract has them */
    bool doubling;             /* doubling and redoubling */
    bool undoubled_shared;     /* an undoubled negative contract is not played */
    uint8_t mandatory_doubles; /* doubles owed to each declarer; 0 = none */
    uint8_t israeli;           /* BARBU_ISRAELI_* */
    bool fouls_lose;           /* Chinese Poker: a fouled hand is accepted and loses
                                  every row, instead of being refused */
    bool later_joker;          /* the Fife Silly Round: after a number on a later
                                  Call the Cutter cuts again while a Joker could
                                  bring in other negative Calls (seed 000); off,
                                  the Call is decided at once when no unused
                                  number can join (barbu before record format 2) */
    uint8_t n_contracts;
    barbu_contract contract[BARBU_MAX_CONTRACTS];
} barbu_rules;

/* Fills *rules with a named preset ("uk", "classic", "quick", "ravage",
 * "chinese", "king", ...; barbu_preset_name lists them).  Returns BARBU_EINVAL
 * for an unknown name. */
int barbu_rules_preset(barbu_rules *rules, const char *name);

/* The names of the presets, NULL after the last, and a line about each. */
const char *barbu_preset_name(int index);
const char *barbu_preset_about(int index);

/* Reads a rules file ("key = value" lines, '#' comments) on top of the preset
 * its "preset" line names (default uk).  On error fills *diag with the line
 * and the reason. */
int barbu_rules_parse(barbu_rules *rules, const char *text, size_t len, barbu_diag *diag);

/* Writes the rule set as a rules file.  With only_changes, writes just the
 * lines that differ from its preset.  Returns the length it needs (like
 * snprintf); the text is truncated to cap - 1. */
int barbu_rules_write(const barbu_rules *rules, bool only_changes, char *buf, size_t cap);

/* Checks a rule set (ranges, zero sum); fills *diag on error. */
int barbu_rules_check(const barbu_rules *rules, barbu_diag *diag);

/* The index of the contract with this key, or -1. */
int barbu_contract_find(const barbu_rules *rules, const char *key);

/* Deals in a complete game (in the Fife game, the most a game can have);
 * cards in each hand; tricks in a deal. */
int barbu_rules_deals(const barbu_rules *rules);
int barbu_rules_hand_size(const barbu_rules *rules);

/* Deals of a contract in a whole game. */
int barbu_contract_times(const barbu_rules *rules, int index);

/* The total of a contract's scores in one deal (-26 for No Tricks). */
int barbu_contract_total(const barbu_rules *rules, int index);

/*
 * A rule set's rules in words, for rules pages (barbu rules --html, the
 * server's /rules/PRESET and /rules/table/ID): worked out from the rule set
 * itself, so house rules read as they are in force.  fn gets, in order,
 * sections (id and title), subsections (id and title), paragraphs, list
 * items (consecutive items make one list) and the rule documents a section
 * comes from ("002, 003, 004", as docs/rules.md cites them), all as plain
 * UTF-8 text that the caller marks up and escapes.  The ids are fixed:
 * "game", "contracts" or "fife-calls", "contract-KEY" for each contract,
 * "trumps", "domino", "chinese", "combinations", "silly-round", "cuts",
 * "pass-ons", "patience", "doubling", "options", "clock".
 */
enum {
    BARBU_DESC_SECTION,
    BARBU_DESC_SUBSECTION,
    BARBU_DESC_PARA,
    BARBU_DESC_ITEM,
    BARBU_DESC_SOURCE,
};
typedef void (*barbu_describe_fn)(void *ctx, int what, const char *id, const char *text);
void barbu_rules_describe(const barbu_rules *rules, barbu_describe_fn fn, void *ctx);

/* One sentence: what becomes of a negative contract nobody doubles under
 * these rules (not played and shared, or played).  Returns the length like
 * snprintf. */
int barbu_undoubled_text(const barbu_rules *rules, char *buf, size_t cap);

/* ----------------------------------------------------------------- actions */

enum {
    BARBU_PHASE_CUT,     /* a seat cuts a pack (seed 000) */
    BARBU_PHASE_DECLARE, /* the declarer chooses the contract */
    BARBU_PHASE_PASS_ON, /* each seat chooses cards to pass (seed 000) */
    BARBU_PHASE_BID,     /* doubling and redoubling */
    BARBU_PHASE_ARRANGE, /* each seat sets its rows (Chinese Poker) */
    BARBU_PHASE_PLAY,    /* tricks or a layout */
    BARBU_PHASE_OVER,    /* the game is over */
};

enum {
    BARBU_ACT_DECLARE, /* contracts (+ trump or rank) */
    BARBU_ACT_BID,     /* doubles and redoubles */
    BARBU_ACT_PLAY,    /* one card, or several where a layout allows */
    BARBU_ACT_PASS,    /* cannot play to the layout */
    BARBU_ACT_PASS_ON, /* cards passed to another seat */
    BARBU_ACT_CUT,     /* cut the pack; the card comes from the seed */
    BARBU_ACT_ARRANGE, /* cards = back row, middle = middle row */
};

typedef struct barbu_action {
    uint8_t type;       /* BARBU_ACT_* */
    int8_t seat;        /* the seat acting */
    uint16_t contracts; /* DECLARE: one bit per contract index */
    int8_t trump;       /* DECLARE: trump suit at Trumps, else -1 */
    int8_t rank;        /* DECLARE: start rank of a Domino, else 0 */
    uint8_t doubles;    /* BID: one bit per seat doubled */
    uint8_t redoubles;  /* BID: one bit per seat redoubled */
    barbu_cards cards;  /* PLAY, PASS_ON; ARRANGE: the back row */
    barbu_cards middle; /* ARRANGE: the middle row (the rest is the front) */
} barbu_action;

/* Up to this many actions are legal at once, except in the ARRANGE phase. */
#define BARBU_MAX_ACTIONS 512

static inline barbu_action barbu_act(int type, int seat)
{
    barbu_action a = {0};
    a.type = (uint8_t)type;
    a.seat = (int8_t)seat;
    a.trump = -1;
    return a;
}

static inline barbu_action barbu_act_play(int seat, barbu_card card)
{
    barbu_action a = barbu_act(BARBU_ACT_PLAY, seat);
    a.cards = BARBU_BIT(card);
    return a;
}

static inline barbu_action barbu_act_declare(int seat, int contract, int trump, int rank)
{
    barbu_action a = barbu_act(BARBU_ACT_DECLARE, seat);
    a.contracts = (uint16_t)(1u << contract);
    a.trump = (int8_t)trump;
    a.rank = (int8_t)rank;
    return a;
}

static inline barbu_action barbu_act_bid(int seat, unsigned doubles, unsigned redoubles)
{
    barbu_action a = barbu_act(BARBU_ACT_BID, seat);
    a.doubles = (uint8_t)doubles;
    a.redoubles = (uint8_t)redoubles;
    return a;
}

bool barbu_action_equal(const barbu_action *a, const barbu_action *b);

/* ------------------------------------------------------------------- state */

typedef struct barbu_trick {
    uint8_t leader;     /* the seat that led */
    uint8_t n;          /* cards played to it so far */
    barbu_card card[4]; /* in the order played */
} barbu_trick;

/* The result of one deal, kept in the table until the next deal ends. */
typedef struct barbu_result {
    uint16_t deal; /* 0-based */
    uint8_t declarer;
    uint8_t played;      /* 0: undoubled negative contract, shared out */
    uint16_t contracts;  /* as declared */
    int8_t trump, rank;  /* as declared */
    uint8_t tricks_left; /* tricks not played because the deal ended early */
    uint8_t dbl[4];      /* dbl[a] has a bit for each seat a doubled */
    uint8_t rdbl[4];     /* rdbl[a] has a bit for each seat a redoubled */
    uint8_t tricks[4];   /* tricks taken */
    uint8_t order[4];    /* layouts: the seats in order out */
    barbu_cards taken[4];
    int16_t raw[4];                       /* the contract's scores, before doubles */
    int16_t score[4];                     /* after the settlement of doubles */
    int16_t part[BARBU_MAX_CONTRACTS][4]; /* raw scores by contract */
    barbu_cards rows[4][3];               /* Chinese Poker: each seat's back,
                                             middle and front rows */
    /* The Fife game: where the deal was in the game, the Calls of its Round
     * played before it, and who took El Kingko (K♥) in a trick won by an 8. */
    uint8_t set, round, round_deal;
    uint8_t calls_before;
    int8_t piranha; /* the seat, or -1 */
} barbu_result;

/*
 * What every seat at the table knows: the contract, the bids, the owed
 * doubles, the cards played and who took them, the scores.  A view is this
 * plus the cards of the seat it belongs to.
 */
typedef struct barbu_table {
    uint8_t phase;       /* BARBU_PHASE_* */
    int8_t to_move;      /* the seat to act, -1 when the game is over */
    uint16_t deal;       /* the current deal, 0-based; deals completed */
    uint16_t n_deals;    /* deals in the game */
    uint16_t acted;      /* actions taken in the current deal */
    uint8_t first;       /* the first declarer, drawn from the seed */
    uint8_t dealer;      /* shuffles and deals (the declarer's right) */
    uint8_t declarer;    /* chooses the contract */
    uint8_t kind;        /* BARBU_KIND_* of the deal, once declared (a Ravage
                            City deal is played as BARBU_KIND_TRICKS) */
    uint16_t contracts;  /* the deal's contracts, 0 until declared */
    int8_t trump;        /* trump suit, -1 if none */
    int8_t rank;         /* layout start rank, 0 if none */
    uint8_t rule_flags;  /* BARBU_CF_* in force this deal (options applied) */
    barbu_cards penalty; /* cards that score in this deal's contracts */

    /* Doubling. */
    uint8_t bids;       /* a bit for each seat that has bid */
    uint8_t dbl[4];     /* dbl[a]: the seats a doubled */
    uint8_t rdbl[4];    /* rdbl[a]: the seats a redoubled */
    uint8_t owed[4][4]; /* owed[s][d]: doubles s still owes declarer d */

    /* The schedule: times each seat has declared each contract. */
    uint8_t used[4][BARBU_MAX_CONTRACTS];
    uint8_t declared[4]; /* deals each seat has declared */

    /* Play. */
    barbu_trick trick;               /* the trick in progress */
    barbu_trick last_trick;          /* the trick completed last */
    uint8_t ntricks;                 /* tricks completed */
    uint8_t tricks[4];               /* tricks taken by each seat */
    int8_t winner[BARBU_MAX_TRICKS]; /* who took each trick */
    uint8_t in_hand[4];              /* cards left in each hand */
    barbu_cards played[4];           /* cards each seat has played this deal */
    barbu_cards shown_out[4];        /* cards each seat has shown it cannot hold:
                                        a suit it did not follow, trumps it did not
                                        play when bound to, cards that fitted the
                                        layout when it passed */
    barbu_cards taken[4];            /* cards in the tricks each seat took */

    /* Layouts: the lowest and highest rank down in each suit (0: none). */
    uint8_t lo[4], hi[4];
    uint8_t out[4]; /* seats in the order they went out */
    uint8_t n_out;
    uint8_t passes; /* passes in a row */

    /* The Fife game (seed 000).  Rounds 0-3 of a Set are Player Rounds, in
     * which the declarer is the Caller; round 4 is the Silly Round, whose
     * Calls and Pass-ons come from cuts of the Unused Pack (a card 2-6,
     * BARBU_JOKER or BARBU_BRIDGE) by the cutter, the dealer's right. */
    uint8_t set;         /* the Set, 0-based */
    uint8_t round;       /* the Round of the Set, 0-4 (BARBU_SILLY_ROUND) */
    uint8_t round_deal;  /* deals completed in the Round */
    uint8_t calls_done;  /* the Calls played in the Round before this deal */
    uint8_t cutter;      /* the Silly Round: the seat that cuts */
    uint8_t cut_for;     /* BARBU_CUT_*: what the next cut decides */
    uint8_t sequence;    /* the Calls the cuts of this deal have named so far */
    uint8_t silly_first; /* the first dealer of the Set's Silly Round */
    uint8_t draw[4];     /* the cards drawn from the Unused Pack, by seat, for
                            the first Caller and then each Silly Round's first
                            dealer (players tied for the highest draw again) */
    uint8_t pass_dir;    /* the Pass-on under way: 1 left, 2 across, 3 right */
    uint8_t passed_on;   /* a bit for each seat that has chosen its Pass-on */
    uint8_t n_pass_ons;  /* Pass-ons completed in this deal */
    uint16_t n_cuts;     /* cuts made in this deal */
    uint8_t cuts[32];    /* the cuts of this deal, cut k at cuts[k % 32] */
    int8_t piranha;      /* who took El Kingko in a trick won by an 8, or -1 */

    /* Chinese Poker: a bit for each seat that has set its rows (the rows
     * themselves are shown in last.rows once all four are set). */
    uint8_t arranged;

    int32_t total[4];  /* running scores */
    barbu_result last; /* the most recent completed deal */
} barbu_table;

/* The whole game.  Plain data: copy it with '='.  Only views may be shown to
 * players; the hands and the seed are secret. */
typedef struct barbu_state {
    barbu_table t;
    barbu_cards hand[4];
    barbu_cards dealt[4];       /* the hands as dealt this deal */
    barbu_cards pending[4][2];  /* chosen but not yet shown: Chinese Poker's back
                                   and middle rows; a Pass-on's cards */
    barbu_cards pass_ons[3][4]; /* the Fife game: the cards each seat passed in
                                   each Pass-on of the deal */
    uint8_t forced_cuts[32];    /* cuts given by barbu_set_cuts for this deal */
    uint8_t n_forced;
    const barbu_rules *rules; /* must outlive the state */
    uint64_t seed;
    /* A keyed game (barbu_init_keyed) draws from its key through ChaCha20
     * instead of from the seed; the key is as secret as the hands. */
    bool keyed;
    uint8_t key[BARBU_KEY_BYTES];
    /* The engine's own memo of the rules, no part of the game: a bit for
     * each contract that scores below zero, and the deals each player
     * declares (the doubling asks both at every bid), noted at the first
     * declaration.  The engine trusts it only while memo_rules is still the
     * state's rules, and works the answers out otherwise, so a state built
     * or changed by hand needs nothing here. */
    const barbu_rules *memo_rules;
    uint16_t memo_negative;
    uint16_t memo_per_player;
} barbu_state;

/* Starts a game whose every draw, deal and cut comes from a 256-bit secret
 * key through ChaCha20 (docs/internals.md), for games that must be fair to
 * people who may look for the seed.  The key is copied into the state. */
int barbu_init_keyed(barbu_state *state, const barbu_rules *rules,
                     const uint8_t key[BARBU_KEY_BYTES]);

/* The commitment to a key: BLAKE2b-256 of its 32 bytes and nothing else,
 * published before the first card (`xxd -r -p | b2sum -l 256` checks it). */
void barbu_key_commitment(const uint8_t key[BARBU_KEY_BYTES], uint8_t out[BARBU_KEY_BYTES]);

/* A key or a commitment as 64 lowercase hex digits (buf holds at least
 * BARBU_KEY_HEX bytes), and back: exactly 64 hex digits of either case,
 * else BARBU_EINVAL. */
#define BARBU_KEY_HEX (2 * BARBU_KEY_BYTES + 1)
void barbu_key_format(const uint8_t key[BARBU_KEY_BYTES], char *buf);
int barbu_key_parse(const char *text, uint8_t key[BARBU_KEY_BYTES]);

/* Reads a seed: a whole number from 0 to 2^64 - 1 in decimal digits only
 * (no sign, no space).  0, or BARBU_EINVAL. */
int barbu_seed_parse(const char *text, uint64_t *seed);

/* Starts a game: draws the first declarer and deals the first hands from the
 * seed.  *rules is not copied and must outlive the state. */
int barbu_init(barbu_state *state, const barbu_rules *rules, uint64_t seed);

/* The hands the state's seed or key deals for deal number `deal` (0-based)
 * with `dealer` dealing, one card at a time from the dealer's left: what
 * the engine deals when that deal starts. */
void barbu_dealt_hands(const barbu_state *state, int deal, int dealer, barbu_cards hands[4]);

/* Replaces the current deal's hands before its first action (a composed deal,
 * or a record's).  The hands must hold each card of the pack once. */
int barbu_set_hands(barbu_state *state, const barbu_cards hands[4]);

/* Replaces the drawn first declarer before the game's first action; in the
 * Fife game also the drawn first dealer of a Silly Round before its first
 * action. */
int barbu_set_first(barbu_state *state, int seat);

/* The Fife game: the cuts of the current deal, in order, instead of the
 * seed's (a composed deal, or a record's); cuts beyond these come from the
 * seed.  Before the deal's first action.  A cut is a card 2-6 of a suit,
 * BARBU_JOKER or BARBU_BRIDGE. */
int barbu_set_cuts(barbu_state *state, const barbu_card *cuts, int n);

/* The card the next cut will show (for records: call before the cut). */
int barbu_next_cut(const barbu_state *state);

/* The seat to act, or -1 when the game is over. */
static inline int barbu_to_move(const barbu_state *state)
{
    return state->t.to_move;
}

static inline bool barbu_over(const barbu_state *state)
{
    return state->t.phase == BARBU_PHASE_OVER;
}

/* Writes the legal actions of the seat to move into out (at most cap) and
 * returns how many there are in all.  Entries of out past that count (and
 * below cap) may be written too, with actions that mean nothing: the list of
 * cards is written four at a time. */
int barbu_legal(const barbu_state *state, barbu_action *out, int cap);

/* 0 if the action is legal now, else the specific reason. */
int barbu_check(const barbu_state *state, const barbu_action *action);

/* Why an action is refused now, as a sentence a player understands: the
 * fault barbu_check finds, with the seats, suits, cards and counts of the
 * moment ("N is the declarer, and a declarer does not double: ...", "King
 * has already chosen Trumps twice, as often as a player may").  Returns
 * barbu_check's code; buf is empty when the action is legal.
 * barbu_view_explain answers for the seat a view belongs to. */
int barbu_explain(const barbu_state *state, const barbu_action *action, char *buf, size_t cap);

/* What the game waits for, in words: "S's Pass-on cards", "N's answer to
 * the doubles, as the declarer (a redouble or a pass)", "E's card".
 * Returns the length like snprintf. */
int barbu_waiting_for(const barbu_rules *rules, const barbu_table *t, char *buf, size_t cap);

/* Whether four hands are a deal of the rules' pack: 0, or BARBU_EHANDS with
 * the fault in why (may be NULL): a card not in the pack, a card dealt
 * twice, a hand of the wrong size, a card in no hand. */
int barbu_hands_check(const barbu_rules *rules, const barbu_cards hands[4], char *why, size_t cap);

/* Applies a legal action; an illegal one changes nothing and returns its
 * reason.  When a deal ends the next is dealt at once; its result stays in
 * state->t.last and t.deal counts completed deals. */
int barbu_apply(barbu_state *state, const barbu_action *action);

/* The fast path of the play phase: the single cards the seat to move may
 * play, and playing one of them (checked against that set). */
barbu_cards barbu_playable(const barbu_state *state);
int barbu_play(barbu_state *state, barbu_card card);

/* Plays a card chosen uniformly among the playable ones (or passes at a
 * layout when nothing can be played): the step of a random playout. */
int barbu_play_random(barbu_state *state, barbu_rng *rng);

/* Plays random cards (as barbu_play_random) until the current deal ends: a
 * random playout, the inner loop of simulations.  The deal's result is then
 * in t.last. */
int barbu_playout_random(barbu_state *state, barbu_rng *rng);

/* Ends the game with the current deal, so that a simulation of this deal
 * does not deal the next one.  Its result is then in t.last. */
void barbu_truncate(barbu_state *state);

/* Checks every invariant of a state; 0 if sound, else BARBU_EINVAL with the
 * broken invariant in *why (may be NULL).  Runs after each apply in debug
 * builds. */
int barbu_state_ok(const barbu_state *state, const char **why);

/* -------------------------------------------------------------------- view */

#define BARBU_ALL_SEATS 4 /* the seat of a kibitzer who sees every hand */

typedef struct barbu_view {
    const barbu_rules *rules;
    int8_t seat;             /* the seat it belongs to, or BARBU_ALL_SEATS */
    bool compulsory;         /* this seat must double the declarer now */
    barbu_cards hand[4];     /* cards known in each hand: its own, or all */
    barbu_cards advice;      /* penalty cards the Israeli rule says to
                                discard now (when advised or enforced) */
    barbu_cards passed[3];   /* cards this seat passed in each Pass-on of the deal */
    barbu_cards received[3]; /* and received */
    barbu_cards rows[3];     /* Chinese Poker: this seat's own rows once it has set
                                them (back, middle, front), until the showdown */
    barbu_table t;
} barbu_view;

/* Everything one seat may know, or every hand for BARBU_ALL_SEATS. */
void barbu_view_of(const barbu_state *state, int seat, barbu_view *view);

/* The trick in progress: the position (0 to n-1) of the card winning it so
 * far, or -1 when no card is down; and the cards that would beat that card
 * (every card when none is down).  For displays and bots, so that nobody
 * else works out who wins a trick. */
int barbu_trick_top(const barbu_table *t);
barbu_cards barbu_trick_beaters(const barbu_table *t);

/* A state consistent with a view, for simulations: the view's table with
 * these hands, which must keep every card the view knows, avoid every card
 * each seat has shown out of, and fill the pack with the cards played.
 * The seed is unknown, so call barbu_truncate before playing to the end of
 * the deal.  Returns BARBU_EHANDS for hands that do not fit the view, and
 * BARBU_EPHASE while other seats' Chinese Poker rows are set but secret. */
int barbu_state_from_view(const barbu_view *view, const barbu_cards hands[4], barbu_state *out);

/* The same state as it was before the deal's first card, each hand holding
 * the cards it holds now and those it has played: for replaying the deal's
 * tricks.  Only at a trick contract whose hands no Pass-on changed, else
 * BARBU_EPHASE. */
int barbu_state_first_trick(const barbu_view *view, const barbu_cards hands[4], barbu_state *out);

/* The legal actions of the view's seat when it is to move (as barbu_legal). */
int barbu_view_legal(const barbu_view *view, barbu_action *out, int cap);

/* Whether an action of the view's seat is legal now (as barbu_check): the
 * table and the seat's own hand decide every rule, so a client asks this of
 * any action it composes (a combination of Calls, a group of cards). */
int barbu_view_check(const barbu_view *view, const barbu_action *action);
int barbu_view_explain(const barbu_view *view, const barbu_action *action, char *buf, size_t cap);

/* Whether a seat could declare a contract when it next declares, given what
 * has been declared so far: 0, or BARBU_ECONTRACT (no such contract),
 * BARBU_EUSED (the seat has declared it as often as it may), BARBU_EPLAYEDOUT
 * (the game has had it as often as it allows) or BARBU_ESCHEDULE (the rest of
 * the schedule could not be completed).  For score sheets and menus. */
int barbu_declare_check(const barbu_rules *rules, const barbu_table *t, int seat, int contract);

/* How many more times a seat may declare a contract: its own allowance less
 * what it has declared, no more than the game has left of it, and 0 when
 * barbu_declare_check refuses it now. */
int barbu_declares_left(const barbu_rules *rules, const barbu_table *t, int seat, int contract);

/* The compulsory doubles a seat still owes the current declarer (shown by
 * its name while the doubling goes round, as in seed 002). */
int barbu_view_owed(const barbu_view *view, int seat);

/* The doubling shortcuts: "max" doubles everyone the seat may double and
 * redoubles everyone who doubled it; "family" (or "flanks") doubles the two
 * other non-declarers, redoubling either of them who has already doubled the
 * seat.  Fills *out for the seat to move; barbu_check says whether the
 * result is legal (a compulsory double of the declarer may still be missing). */
enum { BARBU_BID_MAX, BARBU_BID_FAMILY };
int barbu_bid_shortcut(const barbu_rules *rules, const barbu_table *t, int which,
                       barbu_action *out);

/* ----------------------------------------------------------- Chinese Poker */

/*
 * Chinese Poker (seeds 001, 004): each player sets 13 cards into a back row
 * of 5, a middle row of 5 and a front row of 3, the back at least as strong
 * as the middle and the middle at least as strong as the front.  Rows are
 * ranked as poker hands; the front row of 3 counts only high card, pair and
 * three of a kind.  See docs/rules.md.
 */
enum {
    BARBU_POKER_HIGH_CARD,
    BARBU_POKER_PAIR,
    BARBU_POKER_TWO_PAIR,
    BARBU_POKER_TRIPS,
    BARBU_POKER_STRAIGHT,
    BARBU_POKER_FLUSH,
    BARBU_POKER_FULL_HOUSE,
    BARBU_POKER_QUADS,
    BARBU_POKER_STRAIGHT_FLUSH,
};
enum { BARBU_ROW_BACK, BARBU_ROW_MIDDLE, BARBU_ROW_FRONT };

/* The strength of a row of 5 cards, or of 3 for the front: a higher value is
 * a stronger hand, and rows of 3 and 5 compare as the game compares them.
 * The category is value >> 20.  Returns 0 for a set of any other size. */
uint32_t barbu_poker_value(barbu_cards cards);

/* The hand in words: "two pair, kings and fives", "ace high".  Returns the
 * length like snprintf. */
int barbu_poker_describe(barbu_cards cards, char *buf, size_t cap);

/* Checks that back and middle, with the rest of the hand as the front, are a
 * valid arrangement of the 13 cards of hand: BARBU_EARRANGE for rows of the
 * wrong sizes or cards not in the hand, BARBU_EFOUL for rows out of order
 * (unless allow_foul).  why (may be NULL) gets the exact reason, e.g. "the
 * middle (a pair of kings) beats the back (ace high)". */
int barbu_arrange_check(barbu_cards hand, barbu_cards back, barbu_cards middle, bool allow_foul,
                        char *why, size_t cap);

/* Whether rows are out of order (a fouled hand). */
bool barbu_rows_fouled(barbu_cards back, barbu_cards middle, barbu_cards front);

/* The units a against b: +1 for each row a wins, -1 for each it loses, and
 * with scoop (the bonus) added when one wins all three.  A fouled hand loses
 * every row to a hand that is not fouled; two fouled hands are even. */
int barbu_rows_compare(const barbu_cards a[3], const barbu_cards b[3], int scoop);

/* ------------------------------------------------------------ the Fife game */

/*
 * The Fife game (seed 000, preset "fife"): a 32-card pack; a game is Sets of
 * four Player Rounds and a Silly Round; each Round plays the seven Calls once
 * (contracts 0-6 of the rules, in this order), alone or combined.
 */
enum {
    BARBU_CALL_ACES,
    BARBU_CALL_KHEARTS,
    BARBU_CALL_QUEENS,
    BARBU_CALL_HEARTS,
    BARBU_CALL_TRICKS,
    BARBU_CALL_PAT1,
    BARBU_CALL_PAT2,
    BARBU_CALLS
};
#define BARBU_CALLS_NEGATIVE 0x1fu /* the five negative Calls */
#define BARBU_CALLS_PATIENCE 0x60u /* the two Patiences */
#define BARBU_CALLS_ALL      0x7fu
#define BARBU_SILLY_ROUND    4

/* What the cutter's next cut decides. */
enum { BARBU_CUT_CALL, BARBU_CUT_PASS_ON };

/* Whether a Caller who has played the Calls `done` in `deals_done` deals of
 * a Player Round may call `calls` next: 0, or BARBU_ECONTRACT (no such
 * Calls), BARBU_EUSED (played already), BARBU_ECOMBO (Calls of two kinds;
 * Patience 2 before Patience 1) or BARBU_ECALLS (the Round's seven Calls
 * could no longer include two Doubles or a Treble).  For players planning
 * the Calls still to come. */
int barbu_calls_check(unsigned done, int deals_done, unsigned calls);

/* A cut of the Unused Pack in words: "the 4 of spades", "a Joker", "the
 * Bridge card"; and its value in the draws (Bridge 8, Joker 7, else 2-6). */
int barbu_cut_describe(barbu_card cut, char *buf, size_t cap);
int barbu_cut_value(barbu_card cut);

/* A Call or combination of Calls in words: "Aces", "King of Hearts + Queens",
 * "Double Patience", "The Lot" (the five negatives), "Quadruple: ...".
 * Returns the length like snprintf. */
int barbu_calls_describe(unsigned calls, char *buf, size_t cap);

/* The chance of each Call being played in the deal under way: 1 for the
 * Calls decided (or the only one left), otherwise from the cuts still to
 * come, read as the Silly Round reads them.  For players weighing a
 * Pass-on before the Call is cut. */
void barbu_call_odds(const barbu_rules *rules, const barbu_table *t, double odds[BARBU_CALLS]);

/* The Silly Round: what cut k (0 first) of the deal under way was for
 * (*cut_for, BARBU_CUT_*; may be NULL) and meant, in words, read from the
 * table alone: "Aces: cut again for a 3, a 6 or a Joker", "red: no
 * Pass-on", "all the negative Calls left: Double: Aces + Queens".  Returns
 * the length like snprintf, or BARBU_EINVAL (not the Silly Round, no such
 * cut) or BARBU_ELIMIT (a deal of more than 32 cuts, whose first ones are
 * no longer held). */
int barbu_cut_note(const barbu_rules *rules, const barbu_table *t, int k, int *cut_for, char *buf,
                   size_t cap);

/* The Silly Round: whether the Cutter is cutting again for a later Call
 * only because a Joker could still add to the number (or sequence) cut:
 * no unused number is next to it, but other negative Calls are left (seed
 * 000: "a '2' was cut, followed by a Joker, this would bring the '4' into
 * play").  barbu before record format 2 ended the Call there instead
 * (the rules' later_joker off), and so this is never true then. */
bool barbu_cut_joker_only(const barbu_rules *rules, const barbu_table *t);

/* The Silly Round: where the Pass-on k (0-2) of the Round's deal d (0-based)
 * goes: 1 to the left, 2 across, 3 to the right. */
int barbu_pass_direction(int round_deal, int k);

/* The seat a seat passes to in the Pass-on under way, and receives from. */
static inline int barbu_pass_target(const barbu_table *t, int seat)
{
    return (seat + t->pass_dir) & 3;
}

/* ------------------------------------------------- the Fife score sheet */

/*
 * The score sheet its players keep (seed 000): per Round and player the
 * points of each Call and the total, running totals, each Set's total and
 * positions, and the running scores across Sets; with the marks of the
 * Language of Barbu drawn on the cells.  Built from the deals' results as a
 * game is played, or entered by hand.
 */
enum {
    BARBU_COL_ACES,
    BARBU_COL_KHEARTS,
    BARBU_COL_QUEENS,
    BARBU_COL_HEARTS,
    BARBU_COL_TRICKS,
    BARBU_COL_PAT1,
    BARBU_COL_PAT2,
    BARBU_SHEET_COLS
};

/* Marks on a cell (one player, one Call of a Round). */
enum {
    BARBU_MARK_EGG = 1 << 0,             /* a Non-Caller took every card of the Call */
    BARBU_MARK_SPIDER = 1 << 1,          /* the Caller took every card of the Call */
    BARBU_MARK_WEE_HARRY = 1 << 2,       /* took Wee Harry (J♥) at a Hearts Call: the "H" */
    BARBU_MARK_DANGLY = 1 << 3,          /* the Caller took Wee Harry at a Hearts Call */
    BARBU_MARK_RIPPLE = 1 << 4,          /* Rumping Ripple: half or more of three Calls
                                            of one combination */
    BARBU_MARK_FC = 1 << 5,              /* First Choice: the Caller took half or more
                                            of the Call played first */
    BARBU_MARK_SC = 1 << 6,              /* Second Choice */
    BARBU_MARK_TC = 1 << 7,              /* Third Choice */
    BARBU_MARK_PIRANHA = 1 << 8,         /* took El Kingko in a trick won by an 8 */
    BARBU_MARK_BANANA = 1 << 9,          /* the Caller won a Single Patience when a
                                            Double was possible */
    BARBU_MARK_BEEF = 1 << 10,           /* Beef Tomato: the Caller came last in a
                                            Patience called by choice */
    BARBU_MARK_CHERRY = 1 << 11,         /* Cherry Tomato: ... in a Constipatience */
    BARBU_MARK_CONSTIPATIENCE = 1 << 12, /* a Patience the Caller was left with */
};
#define BARBU_MARK_TOMATO (BARBU_MARK_BEEF | BARBU_MARK_CHERRY)

/* Marks on a player's whole Round. */
enum {
    BARBU_ROUND_FRUIT_BOWL = 1, /* a Banana and a Tomato in the Round */
    BARBU_ROUND_VIRGIN = 2,     /* no negative points and first in both Patiences */
    BARBU_ROUND_FULL = 4,       /* Full Participation: points in all seven Calls */
};

typedef struct barbu_sheet_round {
    bool silly;                          /* the Silly Round */
    bool complete;                       /* all seven Calls played */
    int8_t caller;                       /* the Caller, -1 in the Silly Round */
    uint8_t deals;                       /* deals played in the Round */
    uint8_t played;                      /* the Calls played (bits by column) */
    uint8_t call_deal[BARBU_SHEET_COLS]; /* the deal of the Round (1-based) in
                                            which each Call was played, 0 if not yet */
    int8_t first_out[2];                 /* who came first in each Patience, -1 if
                                            not yet (or entered by hand) */
    int16_t points[4][BARBU_SHEET_COLS];
    uint16_t marks[4][BARBU_SHEET_COLS]; /* BARBU_MARK_* */
    uint8_t round_marks[4];              /* BARBU_ROUND_* */
    int16_t total[4];
    int32_t running[4]; /* the Set's running total after it */
} barbu_sheet_round;

typedef struct barbu_sheet_set {
    barbu_sheet_round round[5];
    uint8_t n_rounds; /* Rounds begun */
    bool complete;
    int32_t total[4];
    uint8_t position[4]; /* 1-4; players tied share the better place */
    int32_t overall[4];  /* the running scores across Sets after this one */
} barbu_sheet_set;

#define BARBU_MAX_SETS 8

typedef struct barbu_sheet {
    uint8_t n_sets; /* Sets begun */
    int32_t carry[4];
    barbu_sheet_set set[BARBU_MAX_SETS];
} barbu_sheet;

/* An empty sheet; carry (may be NULL) is what each player brings from
 * earlier Sets (the booklet's "Overall Running Scores"). */
void barbu_sheet_init(barbu_sheet *sheet, const int32_t carry[4]);

/* Adds a Fife deal's result, in the order played: its points, its marks and
 * the totals they change.  BARBU_EINVAL for a result out of order or not of
 * the Fife game, BARBU_ELIMIT beyond BARBU_MAX_SETS. */
int barbu_sheet_add(barbu_sheet *sheet, const barbu_rules *rules, const barbu_result *res);

/* Enters a whole Round by hand (the booklet's own sheet): its points by
 * player and column; caller -1 for the Silly Round.  Rounds are entered in
 * order.  No marks are drawn from entered points. */
int barbu_sheet_enter(barbu_sheet *sheet, int set, int round, int caller,
                      const int16_t points[4][BARBU_SHEET_COLS]);

/* The name of a mark ("Egg", "Spider", "Piranha", ...) or a Round mark. */
const char *barbu_mark_name(unsigned mark);
const char *barbu_round_mark_name(unsigned mark);

/* ------------------------------------------------------------ settlement */

/* Business between two seats: 0 none, 1 doubled, 2 redoubled. */
int barbu_business(const uint8_t dbl[4], const uint8_t rdbl[4], int a, int b);

/* Applies the settlement of doubles to raw deal scores. */
void barbu_settle(const uint8_t dbl[4], const uint8_t rdbl[4], const int16_t raw[4],
                  int16_t score[4]);

/* ------------------------------------------------------------------ record */

/* A game record: rules, seed, players and, per deal, the hands and actions.
 * See docs/record-format.md. */
typedef struct barbu_record barbu_record;

/* A new empty record; free with barbu_record_free.  Copies *rules. */
barbu_record *barbu_record_new(const barbu_rules *rules, uint64_t seed);
void barbu_record_free(barbu_record *rec);

/* Sets a tag ("North", "Event", "Date", ...); returns BARBU_EINVAL for a
 * value with a quote or a newline. */
int barbu_record_set_tag(barbu_record *rec, const char *key, const char *value);
const char *barbu_record_tag(const barbu_record *rec, const char *key);

/* Appends an action, given the state before it was applied (the record keeps
 * each deal's hands as dealt).  Call after a successful barbu_apply. */
int barbu_record_add(barbu_record *rec, const barbu_state *before, const barbu_action *action);

const barbu_rules *barbu_record_rules(const barbu_record *rec);
uint64_t barbu_record_seed(const barbu_record *rec);
int barbu_record_actions(const barbu_record *rec);

/* Makes the record of a game in progress safe to show to its players: the
 * deal in progress and its actions are dropped and the seed is withheld
 * (written as [Seed "withheld"]), since it would deal every hand still to
 * come.  The deals kept carry their hands, so the record still replays.
 * Returns 0, or the replay's error for a record that does not replay. */
int barbu_record_withhold(barbu_record *rec);
bool barbu_record_withheld(const barbu_record *rec);

/* A new empty record of a keyed game (format 3): it keeps the key (which
 * barbu_record_withhold hides) and the key's commitment. */
barbu_record *barbu_record_new_keyed(const barbu_rules *rules, const uint8_t key[BARBU_KEY_BYTES]);
bool barbu_record_keyed(const barbu_record *rec);
/* The commitment of a keyed record (false for a seeded one), and its key
 * (false for a seeded record or a withheld key). */
bool barbu_record_commitment(const barbu_record *rec, uint8_t out[BARBU_KEY_BYTES]);
bool barbu_record_key(const barbu_record *rec, uint8_t out[BARBU_KEY_BYTES]);

/* Starts *state as the record's game (its rules, seed, first declarer). */
int barbu_record_start(const barbu_record *rec, barbu_state *state);

/* Replays the record through the engine.  Stops at the first illegal action
 * or disagreement, filling *diag with its deal, position and reason.  The
 * callback, if any, sees each deal's result as it completes. */
typedef void (*barbu_result_fn)(const barbu_result *result, void *ctx);
int barbu_record_replay(const barbu_record *rec, barbu_state *state, barbu_result_fn on_result,
                        void *ctx, barbu_diag *diag);

/* Replays the record (as barbu_record_replay, stopping at the same fault
 * with the same *diag), then walks it again action by action: step sees
 * each action as the engine applied it (a bid the record gives as a word
 * resolved; a cut's card is the one in `after`'s table) with the states
 * before and after it.  A Domino deal's lines laying out the last player's
 * cards after the third went out are not actions: the engine ends the deal
 * there.  For viewers that step through a game. */
typedef void (*barbu_step_fn)(void *ctx, const barbu_state *before, const barbu_action *action,
                              const barbu_state *after);
int barbu_record_walk(const barbu_record *rec, barbu_step_fn step, void *ctx, barbu_diag *diag);

/* Checks that the record's game is the one its key (or seed) deals: the
 * commitment is the key's hash, and the first declarer, each deal's hands,
 * the Silly Rounds' first dealers and every cut the record gives are the
 * ones drawn; then replays every action as barbu_record_replay does.
 * BARBU_EINVAL for a record whose key or seed is withheld; otherwise 0 or
 * the first difference, with *diag saying it (BARBU_EMISMATCH for what was
 * dealt, drawn or cut). */
int barbu_record_verify(const barbu_record *rec, barbu_state *state, barbu_result_fn on_result,
                        void *ctx, barbu_diag *diag);

/* Reads a record from text; *out is NULL on error.  Checks its syntax, not
 * its play (use barbu_record_replay). */
int barbu_record_read(const char *text, size_t len, barbu_record **out, barbu_diag *diag);

/* Writes the record as text into a malloc'd string the caller frees; the
 * record's actions must replay (BARBU_E* otherwise, with *diag). */
int barbu_record_write(const barbu_record *rec, char **text, size_t *len, barbu_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
