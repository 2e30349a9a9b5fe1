/*
 * internal.h - what the engine's modules share and nobody else sees.
 * Internal names start with bb_.
 */
#ifndef BARBU_ENGINE_INTERNAL_H
#define BARBU_ENGINE_INTERNAL_H

#include "barbu/barbu.h"

#define BB_HEARTS BARBU_SUIT_CARDS(BARBU_HEARTS)

static inline int bb_lowest(barbu_cards set)
{
    return __builtin_ctzll(set);
}

static inline int bb_highest(barbu_cards set)
{
    return 63 - __builtin_clzll(set);
}

/* The cards of the suit strictly above a card. */
static inline barbu_cards bb_above(barbu_card card)
{
    return BARBU_SUIT_CARDS(BARBU_SUIT(card)) & ~((BARBU_BIT(card) << 1) - 1);
}

/* The card winning a trick whose cards are `cards` (led by `led`): the
 * highest trump if any, else the highest card of the suit led. */
static inline barbu_card bb_trick_top_card(barbu_cards cards, barbu_card led, int trump)
{
    barbu_cards contest = cards & BARBU_SUIT_CARDS(BARBU_SUIT(led));
    if (trump >= 0 && (cards & BARBU_SUIT_CARDS(trump)))
        contest = cards & BARBU_SUIT_CARDS(trump);
    return (barbu_card)bb_highest(contest);
}

/* The cards in the rule set's pack. */
static inline barbu_cards bb_deck(const barbu_rules *rules)
{
    barbu_cards lane = UINT64_C(0x7fff) & ~((UINT64_C(1) << rules->deck_low) - 1);
    return lane | lane << 16 | lane << 32 | lane << 48;
}

/* The longest Fife Set: four Player Rounds of five deals (the fewest Doubles
 * allowed) and a Silly Round of seven single Calls. */
#define BB_FIFE_MAX_SET_DEALS (4 * 5 + 7)

/* barbu_contract_times and barbu_rules_deals, inline for the engine's own
 * loops (the schedule and the doubling ask at every declaration and bid). */
static inline int bb_contract_times(const barbu_rules *rules, int index)
{
    const barbu_contract *c = &rules->contract[index];
    return c->times ? c->times : 4 * c->per_player;
}

static inline int bb_rules_deals(const barbu_rules *rules)
{
    if (rules->game == BARBU_GAME_FIFE)
        return rules->sets * BB_FIFE_MAX_SET_DEALS;
    int n = 0;
    for (int i = 0; i < rules->n_contracts; i++)
        n += bb_contract_times(rules, i);
    return n;
}

static inline int bb_next_seat(int seat)
{
    return (seat + 1) & 3;
}

/* barbu_nth_card inline, for the playouts: on a processor with BMI2 the
 * instruction itself (pdep puts bit k of a count at the k-th card of the
 * set), without the two calls through barbu_nth_card; elsewhere that. */
static inline int bb_nth_card(barbu_cards set, unsigned k)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("bmi2")) {
        barbu_cards bit;
        __asm__("pdep %2, %1, %0" : "=r"(bit) : "r"(UINT64_C(1) << k), "rm"(set));
        return __builtin_ctzll(bit);
    }
#endif
    return barbu_nth_card(set, k);
}

/* A sub-seed for one use of the game's seed (the draw, a deal, a cut). */
enum { BB_SEED_DRAW = 1, BB_SEED_DEAL = 2, BB_SEED_CUT = 3 };
uint64_t bb_subseed(uint64_t seed, int use, int index);

/*
 * The numbers of one use of a game's randomness (a draw, a deal, a cut):
 * SplitMix64 from the sub-seed in a seeded game, exactly as before keys
 * existed, or in a keyed game the ChaCha20 keystream of the key under a
 * nonce naming the use and its index (stream.c).
 */
typedef struct bb_stream {
    barbu_rng rng;
    const uint8_t *key; /* NULL: seeded */
    uint8_t nonce[12];
    uint32_t block; /* the next 64-byte block of the keystream */
    uint16_t pos;   /* bytes of buf already used */
    uint8_t buf[256];
} bb_stream;

void bb_stream_open(bb_stream *st, const barbu_state *s, int use, int index);
uint32_t bb_stream_keyed_below(bb_stream *st, uint32_t n);

/* A number from 0 to n - 1 (n > 0): unbiased from the keystream, and the
 * seeded game's numbers as they always were. */
static inline uint32_t bb_stream_below(bb_stream *st, uint32_t n)
{
    if (__builtin_expect(st->key == NULL, 1))
        return barbu_rng_below(&st->rng, n);
    return bb_stream_keyed_below(st, n);
}

/* The Israeli rule: whether a seat's business with the other three is
 * equal, and the penalty cards still in someone's hand. */
bool bb_business_equal(const barbu_table *t, int seat);
static inline barbu_cards bb_outstanding(const barbu_table *t)
{
    return t->penalty & ~(t->played[0] | t->played[1] | t->played[2] | t->played[3]);
}

/* Legality from what the seat to move can see: the public table and its own
 * hand.  The state and the view both answer through these. */
barbu_cards bb_playable_slow(const barbu_rules *rules, const barbu_table *t, barbu_cards hand);

/* The cards the seat to move may play.  The common cases of the trick
 * contracts are inline, for the playouts of the bots; the rest is in play.c. */
static inline barbu_cards bb_playable(const barbu_rules *rules, const barbu_table *t,
                                      barbu_cards hand)
{
    if (t->kind == BARBU_KIND_TRICKS) {
        const barbu_trick *k = &t->trick;
        if (k->n == 0) {
            if ((t->rule_flags & BARBU_CF_HEARTS_LEAD) && (hand & ~BB_HEARTS))
                return hand & ~BB_HEARTS;
            return hand;
        }
        barbu_cards follow = hand & BARBU_SUIT_CARDS(BARBU_SUIT(k->card[0]));
        if (follow || !(t->rule_flags & BARBU_CF_ISRAELI) ||
            rules->israeli != BARBU_ISRAELI_ENFORCE)
            return follow ? follow : hand;
    }
    return bb_playable_slow(rules, t, hand);
}
int bb_legal(const barbu_rules *rules, const barbu_table *t, barbu_cards hand, barbu_action *out,
             int cap);

/* The reason a held card may not be played now (play.c). */
int bb_play_error(const barbu_rules *rules, const barbu_table *t, barbu_cards hand,
                  barbu_card card);
int bb_patience_group_check(const barbu_rules *r, const barbu_table *t, barbu_cards hand,
                            barbu_cards cards);

int bb_check(const barbu_rules *rules, const barbu_table *t, barbu_cards hand,
             const barbu_action *action);

/* What a play or a pass shows of the rest of the seat's hand, into
 * t->shown_out (play.c).  Called before the card joins the trick. */
void bb_note_play(const barbu_rules *rules, barbu_table *t, int seat, barbu_card card);
void bb_note_pass(const barbu_rules *rules, barbu_table *t, int seat);

/* Doubling (doubling.c). */
bool bb_compulsory(const barbu_rules *rules, const barbu_table *t, int seat);
/* barbu_business inline, for the settlement of every deal (a call a pair
 * of seats cost more than the test). */
static inline int bb_business(const uint8_t dbl[4], const uint8_t rdbl[4], int a, int b)
{
    /* Without branches: at the deal's end barbu_settle asks for every pair,
     * and who doubled whom is as good as random. */
    unsigned redoubled = ((unsigned)(rdbl[a] >> b) | (unsigned)(rdbl[b] >> a)) & 1u;
    unsigned doubled = ((unsigned)(dbl[a] >> b) | (unsigned)(dbl[b] >> a)) & 1u;
    return (int)((doubled | redoubled) + redoubled);
}

/* What the doubling asks at every bid: whether the deal's contracts score
 * below zero, and the deals each player declares; -1 for each to work it
 * out from the rules (a table without its state). */
typedef struct bb_bidding {
    int negative;
    int per_player;
} bb_bidding;
#define BB_BIDDING_UNKNOWN ((bb_bidding){-1, -1})
int bb_check_bid(const barbu_rules *rules, const barbu_table *t, bb_bidding k,
                 const barbu_action *action);
int bb_legal_bids(const barbu_rules *rules, const barbu_table *t, bb_bidding k, barbu_action *out,
                  int cap);
unsigned bb_doubled_by(const barbu_table *t, int seat);
bool bb_negative(const barbu_rules *rules, unsigned contracts);

/* The state's memo of its rules (barbu_state.memo_*), noted at a
 * declaration with doubling, and what it answers for the deal under way:
 * a deal of one contract from the memo's bit while the memo is the rules',
 * else as the table alone would (the Fife game's combined Calls summed). */
void bb_note_rules(barbu_state *s);
static inline bb_bidding bb_state_bidding(const barbu_state *s)
{
    unsigned c = s->t.contracts;
    if (s->memo_rules != s->rules)
        return BB_BIDDING_UNKNOWN;
    bb_bidding k = {(c & (c - 1)) == 0 ? (s->memo_negative & c) != 0 : -1, s->memo_per_player};
    return k;
}
static inline bool bb_state_negative(const barbu_state *s)
{
    int negative = bb_state_bidding(s).negative;
    return negative >= 0 ? negative : bb_negative(s->rules, s->t.contracts);
}

/* The schedule (schedule.c): whether the declarations still to come can all
 * be made, and whether a seat may declare a contract now (0, BARBU_EUSED,
 * BARBU_EPLAYEDOUT or BARBU_ESCHEDULE). */
bool bb_schedule_feasible(const barbu_rules *rules, const uint8_t used[4][BARBU_MAX_CONTRACTS],
                          const uint8_t declared[4]);
int bb_schedule_check(const barbu_rules *rules, const barbu_table *t, int seat, int contract);
/* A bit for each contract c with bb_schedule_check(rules, t, seat, c) == 0:
 * what legal_declares offers, worked out at once. */
unsigned bb_schedule_open(const barbu_rules *rules, const barbu_table *t, int seat);

/* Chinese Poker (scoring.c): the rows of the deal scored pair by pair. */
void bb_score_rows(const barbu_contract *c, const barbu_cards rows[4][3], int16_t part[4]);

/* Layouts (layout.c).  The rank after (up) or before (down) one in the
 * layout's order, or 0; the cards of a suit that fit the layout (its start
 * card while the suit is not out, else the cards next to its ends); the
 * cards of a hand that fit. */
static inline int bb_layout_up(const barbu_rules *r, int rank)
{
    if (r->domino_ace_low)
        return rank == BARBU_ACE ? r->deck_low : rank == BARBU_KING ? 0 : rank + 1;
    return rank == BARBU_ACE ? 0 : rank + 1;
}

static inline int bb_layout_down(const barbu_rules *r, int rank)
{
    if (r->domino_ace_low)
        return rank == BARBU_ACE ? 0 : rank == r->deck_low ? BARBU_ACE : rank - 1;
    return rank == r->deck_low ? 0 : rank - 1;
}

static inline barbu_cards bb_layout_fits(const barbu_rules *r, const barbu_table *t, int suit)
{
    if (t->lo[suit] == 0)
        return BARBU_BIT(BARBU_CARD(suit, t->rank));
    int up = bb_layout_up(r, t->hi[suit]), down = bb_layout_down(r, t->lo[suit]);
    barbu_cards ok = 0;
    if (up)
        ok |= BARBU_BIT(BARBU_CARD(suit, up));
    if (down)
        ok |= BARBU_BIT(BARBU_CARD(suit, down));
    return ok;
}

barbu_cards bb_layout_playable(const barbu_rules *rules, const barbu_table *t, barbu_cards hand);

/* bb_check of a card (or cards, where a layout takes a group) played by the
 * seat to move in the play: the action of nearly every check, inline for
 * barbu_apply. */
static inline int bb_check_play(const barbu_rules *r, const barbu_table *t, barbu_cards hand,
                                barbu_cards cards)
{
    if (cards == 0 || (cards & ~BARBU_ALL_CARDS))
        return BARBU_EINVAL;
    if (cards & ~hand)
        return BARBU_ENOTHELD;
    if (cards & (cards - 1)) {
        if (t->kind != BARBU_KIND_PATIENCE || r->game != BARBU_GAME_FIFE)
            return BARBU_EONECARD;
        return bb_patience_group_check(r, t, hand, cards);
    }
    barbu_card card = (barbu_card)bb_lowest(cards);
    /* At a layout only the card's own suit can take it: that suit's ends are
     * all of bb_layout_playable that matters here. */
    barbu_cards ok = t->kind == BARBU_KIND_DOMINO || t->kind == BARBU_KIND_PATIENCE
                         ? bb_layout_fits(r, t, BARBU_SUIT(card))
                         : bb_playable(r, t, hand);
    if (ok & cards)
        return 0;
    return bb_play_error(r, t, hand, card);
}

/* Why cards do not fit a layout, in words: "the layout opens from the
 * Jacks: ...", "hearts run from the 9 to the Queen: ..." (explain.c). */
void bb_layout_why(const barbu_rules *rules, const barbu_table *t, barbu_cards cards, char *buf,
                   size_t cap);
void bb_layout_place(const barbu_rules *rules, barbu_table *t, barbu_card card);

/* Scoring (scoring.c): the raw scores of a finished deal into t->last. */
void bb_score_deal(const barbu_rules *rules, const barbu_table *t, barbu_result *res);
void bb_share_undoubled(const barbu_rules *rules, const barbu_table *t, barbu_result *res);

/* Dealing (state.c): a shuffle of the seed's, the contracts of a deal
 * (their kind, penalty cards and rules in force), and the start of play. */
void bb_shuffle(bb_stream *st, barbu_card *cards, int n);
int bb_draw_high(bb_stream *st, barbu_card *pack, int n, int (*value)(barbu_card),
                 uint8_t first[4]);
void bb_set_calls(barbu_state *s, unsigned contracts);
void bb_start_play(barbu_state *s);

/* The Fife game (fife.c). */
int bb_fife_draw(const barbu_state *s, int index, uint8_t draw[4]);
void bb_fife_roles(barbu_state *s);
void bb_fife_open(barbu_state *s);
bool bb_fife_next(barbu_state *s);
int bb_fife_check_calls(const barbu_table *t, const barbu_action *a);
int bb_fife_legal_calls(const barbu_table *t, barbu_action *out, int cap);
int bb_fife_check_cut(const barbu_table *t, const barbu_action *a);
void bb_fife_apply_cut(barbu_state *s);
int bb_fife_check_pass_on(const barbu_table *t, barbu_cards hand, const barbu_action *a);
void bb_fife_apply_pass_on(barbu_state *s, const barbu_action *a);
int bb_patience_groups(const barbu_rules *r, const barbu_table *t, barbu_cards hand,
                       barbu_action *out, int cap, int n);
void bb_layout_place_group(barbu_table *t, barbu_cards cards);

/* Text helpers for the readers (text.c). */
int bb_diag(barbu_diag *diag, int line, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Appends to buf (at most cap bytes in all, NUL included) like snprintf;
 * nothing once it is full (explain.c). */
void bb_append(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "once", "twice", or "N times" written into buf (explain.c). */
const char *bb_times(int n, char *buf, size_t cap);

#endif
