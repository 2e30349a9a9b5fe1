/*
 * solver.c - the exact solver for the last tricks of a deal (solver.h).
 *
 * The search runs on a position of its own (four hands and the trick in
 * progress), never on engine states: a state is 712 bytes and its play
 * keeps the public record the search has no use for.  So the rules of trick
 * play are written again here, compactly, and the unit tests check them
 * against the engine's (barbu_playable) and the values against a search
 * over engine states.
 *
 * The value of a position is what the tricks still to play are worth to
 * `me` after the settlement of doubles.  barbu_settle gives
 *   score[me] = raw[me] + sum_b level(me,b) * (raw[me] - raw[b]),
 * and a trick contract's raw scores are sums over tricks, so a trick worth
 * P raw points to its taker x is worth w[x] * P to me, with
 * w[me] = 1 + sum_b level(me,b) and w[b] = -level(me,b).
 *
 * The search is alpha-beta over single cards, me maximising and the three
 * others minimising, driven by null-window searches (MTD(f)).  The last two
 * tricks are worked out directly, in a small table of their own.  At each
 * trick's start a transposition table keeps the bounds found.  Its key is
 * the position with the ranks closed up: in each suit only the order of the
 * cards still in play counts, with their points, so positions that differ
 * only in which small cards went earlier share an entry.
 *
 * The max^n search at the end of the file values the same positions for
 * every seat at once, each playing for itself.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "solver.h"

#define SV_INF (1 << 24)

/* The classes of cards (points, and whether a penalty card) are told apart
 * in the table's keys by up to this many bit planes.  A deal with more
 * classes (no preset has one) is searched without the table. */
#define SV_PLANES 3

/* The table of the last two tricks: 2^SV_TWO_BITS entries. */
#define SV_TWO_BITS 13

/* Everything about the deal that the value depends on, apart from the
 * cards: fixed during one solve. */
typedef struct sv_ctx {
    int me;
    int w[4];       /* what a raw point taken by each seat is worth to me */
    int wall[4][4]; /* wall[b][x]: what a raw point taken by x is worth to b */
    int kind;       /* BARBU_KIND_TRICKS or BARBU_KIND_TRUMPS */
    int trump;      /* the trump suit, -1 if none */
    bool must_trump;
    bool hearts_lead;
    bool early_end;
    int tricks;               /* tricks in a deal */
    barbu_cards penalty;      /* the engine's t.penalty: the early end waits for these */
    int tp[BARBU_MAX_TRICKS]; /* trick i's own raw points: per trick and from the end */
    int16_t val[64];          /* raw points of each card taken */
    uint8_t cls[64];          /* the class of each card: its points and penalty */
    /* Bounds of what is still to be given out, for cut-offs: over the
     * tricks from i on, and over each card, the most and the least any
     * seat's taking it is worth to me. */
    int trick_hi[BARBU_MAX_TRICKS + 1], trick_lo[BARBU_MAX_TRICKS + 1];
    int card_hi[64], card_lo[64];
    barbu_cards scoring; /* the cards with points */
    /* For each card, the cards of its suit above it, and the cards that
     * would beat it on the table (those, and any trump if it is none). */
    barbu_cards above[64], beaters[64];
    /* Bit j of a card's class puts it in plane j; class 0 is the cards
     * without points that are not penalty cards. */
    barbu_cards plane[SV_PLANES];
    int planes;         /* planes in use, or -1: too many classes for the table */
    uint64_t signature; /* a hash of all the above, to keep the table's entries */
} sv_ctx;

/* The position being searched. */
typedef struct sv_pos {
    barbu_cards hand[4];
    barbu_cards table; /* the cards of the trick in progress */
    int leader, to_move, n, trick;
    int led;       /* the suit led, when n > 0 */
    int win_seat;  /* who is winning the trick so far, and with which card */
    int win_card;  /* (when n > 0) */
    int trick_val; /* the raw points of the trick's cards so far */
    /* The bounds of what the cards in play (in the hands and on the table)
     * are still worth to me: the sums of ctx.card_hi and card_lo. */
    int cards_hi, cards_lo;
} sv_pos;

/*
 * The table's key of a position at a trick's start.  The cards in play are
 * numbered from the lowest club to the highest spade (the ranks closed up);
 * each of three hands is the set of those numbers it holds (a pext of the
 * hand by the cards in play), and so is each class plane; the fourth hand
 * holds the numbers the others do not.  With the number of cards of each
 * suit in play and the leader, that is the whole position as far as its
 * value goes: two positions with one key differ only in which cards have
 * gone, and the order of the cards within each suit, their points and
 * their holders are the same.
 */
typedef struct sv_key {
    uint64_t ph[3];
    uint64_t plane[SV_PLANES];
    uint64_t counts; /* 4 bits a suit, and the leader in bits 16-17 */
} sv_key;

/* The max^n table's entry: a position's value to each seat. */
typedef struct sv_mentry {
    sv_key key;
    float v[4];
    uint16_t gen;
} sv_mentry;

#define SV_MAXN_BITS 15

/* A bound entry: the key, 64 bytes with the bounds, one cache line. */
typedef struct sv_entry {
    sv_key key;
    int16_t lo, hi; /* -32768 and 32767 stand for no bound */
    uint16_t gen;   /* the entry belongs to this generation of the table */
    uint8_t move;   /* the best lead found, as suit * 16 + closed-up rank, + 1 */
    uint8_t pad;
} sv_entry;

/* The exact value of a position with two tricks to play, by the hands and
 * the leader (in bits 0-1 of k[0], which no card uses). */
typedef struct sv_two_entry {
    uint64_t k[4];
    int32_t value;
    uint16_t gen;
} sv_two_entry;

struct bb_solver {
    sv_entry *tt;
    uint64_t mask; /* entries - 1 */
    sv_two_entry *two;
    sv_mentry *mtt;     /* the max^n table, made at its first use; NULL before */
    uint16_t gen;       /* the generation of the current entries, from 1 */
    uint64_t signature; /* the context they belong to */
    void (*make_key)(const sv_ctx *c, const sv_pos *p, barbu_cards live, sv_key *key);
    unsigned long long nodes;
    sv_ctx ctx;
    sv_pos pos;
    /* The two cards that last caused a cut-off at each place of each trick
     * (the killer heuristic): what refutes one line often refutes its
     * neighbours. */
    int8_t killer[4 * BARBU_MAX_TRICKS][2];
};

/* ----------------------------------------------------------- set helpers */

static inline int sv_lowest(barbu_cards set)
{
    return __builtin_ctzll(set);
}

static inline int sv_highest(barbu_cards set)
{
    return 63 - __builtin_clzll(set);
}

/* The cards of the card's suit strictly above it. */
static inline barbu_cards sv_above(int card)
{
    return BARBU_SUIT_CARDS(BARBU_SUIT(card)) & ~((BARBU_BIT(card) << 1) - 1);
}

/* Whether card c beats the card w that is winning the trick. */
static inline bool sv_beats(int c, int w, int trump)
{
    if (BARBU_SUIT(c) == BARBU_SUIT(w))
        return c > w;
    return BARBU_SUIT(c) == trump;
}

/* The same from the context's table, in the search. */
static inline bool sv_takes(const sv_ctx *c, int card, int win)
{
    return (c->beaters[win] >> card) & 1;
}

/* ---------------------------------------------------------------- rules */

/*
 * The cards the seat to move may play, as the engine's bb_playable_slow
 * (play.c) rules for the trick contracts the solver takes: the suit led if
 * held; at Trumps a higher trump on a trump lead, an over-trump of a
 * trumped trick, a trump when void if must_trump; at no trumps, no heart
 * led while holding another suit under the hearts-lead rule.  n is the
 * cards on the table; the highest trump on the table is the winning card
 * whenever the trick holds a trump.
 */
static inline barbu_cards sv_playable_at(const sv_ctx *c, int n, int led, int win_card,
                                         barbu_cards hand)
{
    if (n == 0) {
        if (c->hearts_lead && (hand & ~BARBU_SUIT_CARDS(BARBU_HEARTS)))
            return hand & ~BARBU_SUIT_CARDS(BARBU_HEARTS);
        return hand;
    }
    barbu_cards follow = hand & BARBU_SUIT_CARDS(led);
    if (c->kind != BARBU_KIND_TRUMPS)
        return follow ? follow : hand;
    if (led == c->trump) {
        if (!follow)
            return hand;
        barbu_cards higher = follow & c->above[win_card];
        return higher ? higher : follow;
    }
    if (follow)
        return follow;
    barbu_cards mine = hand & BARBU_SUIT_CARDS(c->trump);
    if (BARBU_SUIT(win_card) == c->trump) {
        barbu_cards over = mine & c->above[win_card];
        return over ? over : hand;
    }
    if (c->must_trump && mine)
        return mine;
    return hand;
}

static inline barbu_cards sv_playable(const sv_ctx *c, const sv_pos *p, barbu_cards hand)
{
    return sv_playable_at(c, p->n, p->led, p->win_card, hand);
}

/* Whether the deal is over once a trick is complete, `left` being the
 * cards still in the hands: every hand empty, or under the early end every
 * penalty card taken (state.c, finish_trick). */
static inline bool sv_deal_over(const sv_ctx *c, barbu_cards left)
{
    return left == 0 || (c->early_end && (c->penalty & left) == 0);
}

/* ------------------------------------------------------------- set up */

static uint64_t sv_mix(uint64_t h, uint64_t x)
{
    h ^= x + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
    return h * UINT64_C(0xbf58476d1ce4e5b9);
}

/* The classes of the cards, into cls and the planes. */
static void ctx_classes(sv_ctx *c, barbu_cards deck)
{
    int value[64], penal[64], classes = 1;
    for (barbu_cards d = deck; d; d &= d - 1) {
        int card = sv_lowest(d), pen = (int)(c->penalty >> card & 1);
        if (c->val[card] == 0 && !pen)
            continue;
        int k = 1;
        while (k < classes && !(value[k] == c->val[card] && penal[k] == pen))
            k++;
        if (k == classes) {
            value[k] = c->val[card];
            penal[k] = pen;
            classes++;
        }
        c->cls[card] = (uint8_t)k;
    }
    c->planes = 0;
    while ((1 << c->planes) < classes)
        c->planes++;
    if (c->planes > SV_PLANES) {
        c->planes = -1;
        return;
    }
    for (barbu_cards d = deck; d; d &= d - 1) {
        int card = sv_lowest(d);
        for (int j = 0; j < c->planes; j++)
            if (c->cls[card] >> j & 1)
                c->plane[j] |= BARBU_BIT(card);
    }
}

static void ctx_init(sv_ctx *c, const barbu_state *s, int me)
{
    const barbu_table *t = &s->t;
    const barbu_rules *r = s->rules;
    memset(c, 0, sizeof *c);
    bb_tables tab;
    bb_h_tables(r, t->contracts, &tab);
    c->me = me;
    for (int a = 0; a < 4; a++) {
        for (int b = 0; b < 4; b++) {
            if (b == a)
                continue;
            int level = barbu_business(t->dbl, t->rdbl, a, b);
            c->wall[a][a] += level;
            c->wall[a][b] = -level;
        }
        c->wall[a][a] += 1;
    }
    memcpy(c->w, c->wall[me], sizeof c->w);
    c->kind = t->kind;
    c->trump = t->trump;
    c->must_trump = r->must_trump;
    /* The engine reads the hearts-lead rule only at no trumps. */
    c->hearts_lead = t->kind == BARBU_KIND_TRICKS && (t->rule_flags & BARBU_CF_HEARTS_LEAD);
    c->early_end = (t->rule_flags & BARBU_CF_EARLY_END) != 0;
    c->tricks = barbu_rules_hand_size(r);
    c->penalty = t->penalty;
    int wmax = c->w[0], wmin = c->w[0];
    for (int b = 1; b < 4; b++) {
        wmax = c->w[b] > wmax ? c->w[b] : wmax;
        wmin = c->w[b] < wmin ? c->w[b] : wmin;
    }
    /* The engine scores a card of the contract's table only if it is a
     * penalty card of the deal (scoring.c); the summed table is zero
     * elsewhere, but the mask is the rule. */
    for (barbu_cards d = t->penalty; d; d &= d - 1) {
        int card = sv_lowest(d), v = tab.card[card];
        c->val[card] = (int16_t)v;
        if (v != 0)
            c->scoring |= BARBU_BIT(card);
        c->card_hi[card] = v > 0 ? wmax * v : wmin * v;
        c->card_lo[card] = v > 0 ? wmin * v : wmax * v;
    }
    for (int i = 0; i < c->tricks; i++)
        c->tp[i] = tab.per_trick + tab.from_end[c->tricks - 1 - i];
    /* A trick that the early end may leave unplayed is worth 0. */
    for (int i = c->tricks - 1; i >= 0; i--) {
        int v = c->tp[i];
        int hi = v > 0 ? wmax * v : wmin * v, lo = v > 0 ? wmin * v : wmax * v;
        if (c->early_end) {
            hi = hi > 0 ? hi : 0;
            lo = lo < 0 ? lo : 0;
        }
        c->trick_hi[i] = c->trick_hi[i + 1] + hi;
        c->trick_lo[i] = c->trick_lo[i + 1] + lo;
    }
    ctx_classes(c, bb_h_deck(r));
    for (int card = 0; card < 64; card++) {
        c->above[card] = sv_above(card);
        c->beaters[card] = c->above[card];
        if (c->trump >= 0 && BARBU_SUIT(card) != c->trump)
            c->beaters[card] |= BARBU_SUIT_CARDS(c->trump);
    }

    uint64_t h = UINT64_C(0x5eed);
    h = sv_mix(h, (uint64_t)me);
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            h = sv_mix(h, (uint64_t)(int64_t)c->wall[a][b]);
    h = sv_mix(h, (uint64_t)(c->kind | (c->trump + 1) << 4 | c->must_trump << 8 |
                             c->hearts_lead << 9 | c->early_end << 10 | c->tricks << 12));
    h = sv_mix(h, c->penalty);
    for (int i = 0; i < c->tricks; i++)
        h = sv_mix(h, (uint64_t)(int64_t)c->tp[i]);
    for (barbu_cards d = c->penalty; d; d &= d - 1)
        h = sv_mix(h, (uint64_t)(int64_t)c->val[sv_lowest(d)]);
    c->signature = h;
}

static void pos_init(sv_pos *p, const sv_ctx *c, const barbu_state *s)
{
    const barbu_table *t = &s->t;
    memset(p, 0, sizeof *p);
    for (int b = 0; b < 4; b++)
        p->hand[b] = s->hand[b];
    p->leader = t->trick.leader;
    p->n = t->trick.n;
    p->to_move = (p->leader + p->n) & 3;
    p->trick = t->ntricks;
    if (p->n > 0) {
        p->led = BARBU_SUIT(t->trick.card[0]);
        p->win_card = t->trick.card[0];
        p->win_seat = p->leader;
        for (int i = 0; i < p->n; i++) {
            int card = t->trick.card[i];
            p->table |= BARBU_BIT(card);
            p->trick_val += c->val[card];
            if (i > 0 && sv_beats(card, p->win_card, c->trump)) {
                p->win_card = card;
                p->win_seat = (p->leader + i) & 3;
            }
        }
    }
    barbu_cards live = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3] | p->table;
    for (barbu_cards d = live & c->scoring; d; d &= d - 1) {
        p->cards_hi += c->card_hi[sv_lowest(d)];
        p->cards_lo += c->card_lo[sv_lowest(d)];
    }
}

bool bb_solver_fits(const barbu_state *s)
{
    const barbu_table *t = &s->t;
    const barbu_rules *r = s->rules;
    if (t->phase != BARBU_PHASE_PLAY || t->contracts == 0)
        return false;
    if (t->kind != BARBU_KIND_TRICKS && t->kind != BARBU_KIND_TRUMPS)
        return false;
    /* Ravage City is played as tricks but scored on the suits taken, which
     * is no sum over tricks. */
    for (unsigned m = t->contracts; m; m &= m - 1) {
        int k = __builtin_ctz(m);
        if (k >= r->n_contracts)
            return false;
        int kind = r->contract[k].kind;
        if (kind != BARBU_KIND_TRICKS && kind != BARBU_KIND_TRUMPS)
            return false;
    }
    /* The enforced Israeli rule makes a discard depend on the doubles of
     * the seat to move; the solver does not model it. */
    if ((t->rule_flags & BARBU_CF_ISRAELI) && r->israeli == BARBU_ISRAELI_ENFORCE)
        return false;
    if (t->trick.n > 3 || t->to_move != ((t->trick.leader + t->trick.n) & 3))
        return false;
    return t->kind != BARBU_KIND_TRUMPS || (t->trump >= 0 && t->trump < 4);
}

barbu_cards bb_solver_playable(const barbu_state *s)
{
    if (!bb_solver_fits(s))
        return 0;
    sv_ctx c;
    sv_pos p;
    ctx_init(&c, s, s->t.to_move);
    pos_init(&p, &c, s);
    return sv_playable(&c, &p, p.hand[p.to_move]);
}

/* ------------------------------------------------------------- the keys */

static inline void key_of(const sv_ctx *c, const sv_pos *p, barbu_cards live, sv_key *key,
                          barbu_cards (*pext)(barbu_cards, barbu_cards))
{
    key->counts = (uint64_t)p->leader << 16;
    for (int suit = 0; suit < 4; suit++)
        key->counts |= (uint64_t)barbu_count(live & BARBU_SUIT_CARDS(suit)) << (4 * suit);
    for (int b = 0; b < 3; b++)
        key->ph[b] = pext(p->hand[b], live);
    for (int j = 0; j < SV_PLANES; j++)
        key->plane[j] = j < c->planes ? pext(c->plane[j], live) : 0;
}

static inline barbu_cards pext_portable(barbu_cards x, barbu_cards mask)
{
    barbu_cards out = 0, bit = 1;
    for (; mask; mask &= mask - 1, bit <<= 1)
        if (x & mask & (~mask + 1))
            out |= bit;
    return out;
}

static void key_portable(const sv_ctx *c, const sv_pos *p, barbu_cards live, sv_key *key)
{
    key_of(c, p, live, key, pext_portable);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SV_HAVE_BMI2 1
__attribute__((target("bmi2"))) static inline barbu_cards pext_bmi2(barbu_cards x, barbu_cards mask)
{
    return __builtin_ia32_pext_di(x, mask);
}

__attribute__((target("bmi2"))) static void key_bmi2(const sv_ctx *c, const sv_pos *p,
                                                     barbu_cards live, sv_key *key)
{
    key_of(c, p, live, key, pext_bmi2);
}
#endif

/* A lead as the table keeps it (suit and closed-up rank), and back. */
static inline int rel_card(barbu_cards live, int card)
{
    return (card & 48) +
           barbu_count(live & (UINT64_C(0xffff) << (card & 48)) & (BARBU_BIT(card) - 1));
}

static inline int abs_card(barbu_cards live, int rel)
{
    barbu_cards lane = live & (UINT64_C(0xffff) << (rel & 48));
    for (int i = rel & 15; i > 0 && lane; i--)
        lane &= lane - 1;
    return lane ? sv_lowest(lane) : -1;
}

/* ------------------------------------------------------------ the table */

bb_solver *bb_solver_new(int tt_bits)
{
    if (tt_bits < 16)
        tt_bits = 16;
    if (tt_bits > 24)
        tt_bits = 24;
    bb_solver *sv = calloc(1, sizeof *sv);
    if (!sv)
        return NULL;
    sv->mask = (UINT64_C(1) << tt_bits) - 1;
    sv->make_key = key_portable;
#ifdef SV_HAVE_BMI2
    if (__builtin_cpu_supports("bmi2"))
        sv->make_key = key_bmi2;
#endif
    /* Generation 0 marks an empty entry, so calloc's zeroes are empty. */
    sv->tt = calloc((size_t)1 << tt_bits, sizeof *sv->tt);
    sv->two = calloc((size_t)1 << SV_TWO_BITS, sizeof *sv->two);
    if (!sv->tt || !sv->two) {
        bb_solver_free(sv);
        return NULL;
    }
    return sv;
}

void bb_solver_free(bb_solver *sv)
{
    if (!sv)
        return;
    free(sv->tt);
    free(sv->two);
    free(sv->mtt);
    free(sv);
}

unsigned long long bb_solver_nodes(const bb_solver *sv)
{
    return sv ? sv->nodes : 0;
}

/* Starts a solve.  A key holds every card still in play, so the entries
 * stay true for as long as the deal's context (its scores, the doubles,
 * me, the rules of play) is the same: the sampled deals of one decision
 * share them.  Another context starts a new generation, which forgets the
 * old entries without clearing the table. */
static void begin_solve(bb_solver *sv, const barbu_state *s, int me)
{
    ctx_init(&sv->ctx, s, me);
    pos_init(&sv->pos, &sv->ctx, s);
    memset(sv->killer, -1, sizeof sv->killer);
    if (sv->gen == 0 || sv->ctx.signature != sv->signature) {
        if (++sv->gen == 0) {
            memset(sv->tt, 0, (size_t)(sv->mask + 1) * sizeof *sv->tt);
            memset(sv->two, 0, ((size_t)1 << SV_TWO_BITS) * sizeof *sv->two);
            if (sv->mtt)
                memset(sv->mtt, 0, ((size_t)1 << SV_MAXN_BITS) * sizeof *sv->mtt);
            sv->gen = 1;
        }
        sv->signature = sv->ctx.signature;
    }
}

/* A key's hash and equality, for both tables. */
static inline uint64_t key_hash(const sv_key *key)
{
    uint64_t h =
        key->ph[0] * UINT64_C(0x9e3779b97f4a7c15) ^ key->ph[1] * UINT64_C(0xc2b2ae3d27d4eb4f) ^
        key->ph[2] * UINT64_C(0x165667b19e3779f9) ^ key->counts * UINT64_C(0xd6e8feb86659fd93) ^
        (key->plane[0] + (key->plane[1] << 7) + (key->plane[2] << 13)) *
            UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 31;
    h *= UINT64_C(0x94d049bb133111eb);
    return h ^ (h >> 29);
}

static inline bool key_equal(const sv_key *a, const sv_key *b)
{
    uint64_t diff = (a->ph[0] ^ b->ph[0]) | (a->ph[1] ^ b->ph[1]) | (a->ph[2] ^ b->ph[2]) |
                    (a->counts ^ b->counts);
    for (int j = 0; j < SV_PLANES; j++)
        diff |= a->plane[j] ^ b->plane[j];
    return diff == 0;
}

static inline sv_entry *tt_entry(bb_solver *sv, const sv_key *key)
{
    return &sv->tt[key_hash(key) & sv->mask];
}

static inline bool tt_holds(const bb_solver *sv, const sv_entry *e, const sv_key *key)
{
    return key_equal(&e->key, key) && e->gen == sv->gen;
}

static inline int tt_lo(const sv_entry *e)
{
    return e->lo == INT16_MIN ? -SV_INF : e->lo;
}

static inline int tt_hi(const sv_entry *e)
{
    return e->hi == INT16_MAX ? SV_INF : e->hi;
}

/* Bounds are stored in 16 bits, each rounded outwards (so still a bound);
 * no deal's score comes near the limits (rules.c keeps them under 32767). */
static inline int16_t tt_pack_lo(int lo)
{
    return (int16_t)(lo <= INT16_MIN ? INT16_MIN : lo >= INT16_MAX ? INT16_MAX : lo);
}

static inline int16_t tt_pack_hi(int hi)
{
    return (int16_t)(hi >= INT16_MAX ? INT16_MAX : hi <= INT16_MIN ? INT16_MIN : hi);
}

/* Keeps bounds found for a position (joined with those it had) and the
 * lead that gave them, or -1; a new position takes the entry's place. */
static void tt_store(bb_solver *sv, sv_entry *e, const sv_key *key, int lo, int hi, int move)
{
    if (tt_holds(sv, e, key)) {
        lo = lo > tt_lo(e) ? lo : tt_lo(e);
        hi = hi < tt_hi(e) ? hi : tt_hi(e);
    } else {
        e->key = *key;
        e->gen = sv->gen;
        e->move = 0;
    }
    e->lo = tt_pack_lo(lo);
    e->hi = tt_pack_hi(hi);
    if (move >= 0)
        e->move = (uint8_t)(move + 1);
}

/* ------------------------------------------------------------ the search */

/* Whether two cards of a suit with no card in play between them are worth
 * the same in every respect: the same points, and both or neither a penalty
 * card (which the early end waits for). */
static inline bool sv_same(const sv_ctx *c, int a, int b)
{
    return c->cls[a] == c->cls[b];
}

/* The cards that keep two cards of a hand apart: those in the hands, and
 * the card winning the trick.  The others on the table are gone once the
 * trick is over, and two cards of a hand on the same side of the winning
 * card play the same part in this trick. */
static inline barbu_cards sv_apart(const sv_pos *p)
{
    barbu_cards hands = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3];
    return p->n ? hands | BARBU_BIT(p->win_card) : hands;
}

/* The moves with one card of each run of equivalent cards: a card whose
 * next card above among `apart` is in the same hand, playable and worth
 * the same is left out, the top of the run standing for it. */
static inline barbu_cards sv_distinct(const sv_ctx *c, barbu_cards moves, barbu_cards apart)
{
    barbu_cards out = moves;
    for (barbu_cards m = moves & (moves - 1) ? moves : 0; m; m &= m - 1) {
        int card = sv_lowest(m);
        barbu_cards up = apart & c->above[card];
        if (up) {
            int next = sv_lowest(up);
            if ((moves >> next & 1) && sv_same(c, card, next))
                out &= ~BARBU_BIT(card);
        }
    }
    return out;
}

/* The last trick, every hand down to one card: no choice is left. */
static int last_trick(const sv_ctx *c, const sv_pos *p)
{
    int win_seat = p->leader, win_card = sv_lowest(p->hand[p->leader]);
    int pts = c->tp[p->trick] + c->val[win_card];
    for (int i = 1; i < 4; i++) {
        int seat = (p->leader + i) & 3, card = sv_lowest(p->hand[seat]);
        pts += c->val[card];
        if (sv_takes(c, card, win_card)) {
            win_card = card;
            win_seat = seat;
        }
    }
    return c->w[win_seat] * pts;
}

/*
 * The last two tricks, every hand down to two cards, worked out in full
 * from a trick's start, with alpha-beta: at most sixteen ways to play the
 * first, and the last is forced.  Far cheaper than the search and its
 * table.  i is the place in the trick of the seat to move, `gone` the
 * cards played to the trick so far, pts their points.
 */
typedef struct sv_two {
    const sv_ctx *c;
    barbu_cards hand[4];
    barbu_cards live; /* the hands at the trick's start */
    int leader, trick;
} sv_two;

static int two_play(const sv_two *two, int i, int led, int win_card, int win_seat, int pts,
                    barbu_cards gone, int alpha, int beta)
{
    const sv_ctx *c = two->c;
    int seat = (two->leader + i) & 3;
    barbu_cards moves = sv_playable_at(c, i, led, win_card, two->hand[seat] & ~gone);
    /* Two cards of a suit with none between them, worth the same, are
     * one choice. */
    if (moves & (moves - 1)) {
        int lo = sv_lowest(moves), hi = sv_highest(moves);
        if (BARBU_SUIT(lo) == BARBU_SUIT(hi) && sv_same(c, lo, hi) &&
            !(two->live & c->above[lo] & (BARBU_BIT(hi) - 1)))
            moves = BARBU_BIT(hi);
    }
    bool maxing = seat == c->me;
    int best = maxing ? -SV_INF : SV_INF;
    for (; moves; moves &= moves - 1) {
        int card = sv_lowest(moves), v;
        bool takes = i == 0 || sv_takes(c, card, win_card);
        int taker = takes ? seat : win_seat, sum = pts + c->val[card];
        if (i < 3) {
            v = two_play(two, i + 1, i == 0 ? BARBU_SUIT(card) : led, takes ? card : win_card,
                         taker, sum, gone | BARBU_BIT(card), alpha, beta);
        } else {
            v = c->w[taker] * (c->tp[two->trick] + sum);
            barbu_cards left = two->live & ~gone & ~BARBU_BIT(card);
            if (!sv_deal_over(c, left)) {
                /* The last trick: each seat's one card. */
                int top = sv_lowest(two->hand[taker] & left), top_seat = taker;
                int last = c->tp[two->trick + 1] + c->val[top];
                for (int k = 1; k < 4; k++) {
                    int other = (taker + k) & 3, x = sv_lowest(two->hand[other] & left);
                    last += c->val[x];
                    if (sv_takes(c, x, top)) {
                        top = x;
                        top_seat = other;
                    }
                }
                v += c->w[top_seat] * last;
            }
        }
        if (maxing ? v > best : v < best) {
            best = v;
            if (maxing && best > alpha)
                alpha = best;
            if (!maxing && best < beta)
                beta = best;
            if (alpha >= beta)
                break;
        }
    }
    return best;
}

/* The value of the last two tricks, exact, kept in a small table of its
 * own: the same endings come up again and again. */
static int two_tricks(bb_solver *sv, const sv_pos *p)
{
    uint64_t k0 = p->hand[0] | (uint64_t)p->leader;
    uint64_t h = (k0 * UINT64_C(0x9e3779b97f4a7c15)) ^ (p->hand[1] * UINT64_C(0xc2b2ae3d27d4eb4f)) ^
                 (p->hand[2] * UINT64_C(0x165667b19e3779f9)) ^
                 (p->hand[3] * UINT64_C(0xd6e8feb86659fd93));
    h ^= h >> 29;
    sv_two_entry *e = &sv->two[(h * UINT64_C(0x94d049bb133111eb)) >> (64 - SV_TWO_BITS)];
    if (e->gen == sv->gen && e->k[0] == k0 && e->k[1] == p->hand[1] && e->k[2] == p->hand[2] &&
        e->k[3] == p->hand[3])
        return e->value;
    sv_two two = {.c = &sv->ctx, .leader = p->leader, .trick = p->trick};
    for (int b = 0; b < 4; b++)
        two.hand[b] = p->hand[b];
    two.live = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3];
    int v = two_play(&two, 0, 0, 0, 0, 0, 0, -SV_INF, SV_INF);
    e->k[0] = k0;
    e->k[1] = p->hand[1];
    e->k[2] = p->hand[2];
    e->k[3] = p->hand[3];
    e->value = v;
    e->gen = sv->gen;
    return v;
}

static int search(bb_solver *sv, int alpha, int beta);

/* What putting a card to a trick that it does not complete changes, to be
 * put back by trick_take. */
typedef struct sv_undo {
    int led, win_card, win_seat;
} sv_undo;

static inline sv_undo trick_put(const sv_ctx *c, sv_pos *p, int card)
{
    sv_undo u = {p->led, p->win_card, p->win_seat};
    int seat = p->to_move;
    if (p->n == 0) {
        p->led = BARBU_SUIT(card);
        p->win_card = card;
        p->win_seat = seat;
    } else if (sv_takes(c, card, p->win_card)) {
        p->win_card = card;
        p->win_seat = seat;
    }
    p->hand[seat] &= ~BARBU_BIT(card);
    p->trick_val += c->val[card];
    p->table |= BARBU_BIT(card);
    p->n++;
    p->to_move = (seat + 1) & 3;
    return u;
}

static inline void trick_take(const sv_ctx *c, sv_pos *p, int card, sv_undo u)
{
    int seat = (p->to_move + 3) & 3;
    p->to_move = seat;
    p->n--;
    p->table &= ~BARBU_BIT(card);
    p->trick_val -= c->val[card];
    p->hand[seat] |= BARBU_BIT(card);
    p->led = u.led;
    p->win_card = u.win_card;
    p->win_seat = u.win_seat;
}

/* Plays a card of the seat to move and searches on: the value of the rest
 * of the deal, the trick in progress included. */
static inline int play_and_search(bb_solver *sv, int card, int alpha, int beta)
{
    sv_pos *p = &sv->pos;
    const sv_ctx *c = &sv->ctx;
    if (p->n < 3) {
        sv_undo u = trick_put(c, p, card);
        int v = search(sv, alpha, beta);
        trick_take(c, p, card, u);
        return v;
    }
    int seat = p->to_move;
    barbu_cards bit = BARBU_BIT(card);
    int v;
    p->hand[seat] &= ~bit;
    int taker = sv_takes(c, card, p->win_card) ? seat : p->win_seat;
    int gain = c->w[taker] * (c->tp[p->trick] + p->trick_val + c->val[card]);
    if (sv_deal_over(c, p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3])) {
        v = gain;
    } else {
        int leader = p->leader, trick_val = p->trick_val;
        int cards_hi = p->cards_hi, cards_lo = p->cards_lo;
        barbu_cards table = p->table;
        int led = p->led, win_card = p->win_card, win_seat = p->win_seat;
        for (barbu_cards d = (table | bit) & c->scoring; d; d &= d - 1) {
            p->cards_hi -= c->card_hi[sv_lowest(d)];
            p->cards_lo -= c->card_lo[sv_lowest(d)];
        }
        p->leader = p->to_move = taker;
        p->n = 0;
        p->trick++;
        p->table = 0;
        p->trick_val = 0;
        v = gain + search(sv, alpha - gain, beta - gain);
        p->leader = leader;
        p->to_move = seat;
        p->n = 3;
        p->trick--;
        p->table = table;
        p->trick_val = trick_val;
        p->cards_hi = cards_hi;
        p->cards_lo = cards_lo;
        p->led = led;
        p->win_card = win_card;
        p->win_seat = win_seat;
    }
    p->hand[seat] |= bit;
    return v;
}

/*
 * The order to try moves in, best first: the table's move, the killers,
 * then what the trick so far says.  A card that would take the trick as it
 * stands is judged by what the mover's side gains from the mover taking
 * it, else by what it gains from the seat winning it now taking it; a lead
 * by what taking a trick is worth to the leader.  Ties go to a low card
 * when taking hurts and a high one when it helps, and to the highest card
 * that does not take the trick.
 */
static int order_moves(const bb_solver *sv, barbu_cards moves, int first,
                       int list[BARBU_MAX_TRICKS])
{
    const sv_ctx *c = &sv->ctx;
    const sv_pos *p = &sv->pos;
    const int8_t *killer = sv->killer[4 * p->trick + p->n];
    barbu_cards live = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3];
    int seat = p->to_move, side = seat == c->me ? 1 : -1;
    int base = c->tp[p->trick] + p->trick_val;
    int score[BARBU_MAX_TRICKS], n = 0;
    for (barbu_cards m = moves; m; m &= m - 1) {
        int card = sv_lowest(m), rank = BARBU_RANK(card);
        int pts = base + c->val[card], s;
        if (card == first) {
            s = INT_MAX;
        } else if (card == killer[0]) {
            s = INT_MAX - 1;
        } else if (card == killer[1]) {
            s = INT_MAX - 2;
        } else if (p->n == 0) {
            /* Leads into suits the others hold more of than the leader
             * come first: they tie the others down. */
            barbu_cards suit = BARBU_SUIT_CARDS(BARBU_SUIT(card));
            int mine = barbu_count(p->hand[seat] & suit);
            int others = barbu_count(live & suit) - mine;
            int gain = side * c->w[seat] * pts;
            s = gain * 64 + (gain > 0 ? rank : -rank) + 16 * (others - mine);
        } else {
            bool takes = sv_takes(c, card, p->win_card);
            int gain = side * c->w[takes ? seat : p->win_seat] * pts;
            /* Last to play, the gain is certain. */
            s = gain * (p->n == 3 ? 256 : 64) + (takes && gain < 0 ? -rank : rank);
        }
        int i = n++;
        for (; i > 0 && score[i - 1] < s; i--) {
            score[i] = score[i - 1];
            list[i] = list[i - 1];
        }
        score[i] = s;
        list[i] = card;
    }
    return n;
}

/*
 * The value of the rest of the deal from the current position, fail-soft:
 * a value at most alpha is an upper bound, one at least beta a lower bound.
 */
static int search(bb_solver *sv, int alpha, int beta)
{
    sv_pos *p = &sv->pos;
    const sv_ctx *c = &sv->ctx;
    sv->nodes++;
    int seat = p->to_move;
    int first = -1;
    sv_key key;
    sv_entry *e = NULL;
    barbu_cards live = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3];
    if (p->n == 0) {
        barbu_cards h = p->hand[seat];
        if ((h & (h - 1)) == 0)
            return h ? last_trick(c, p) : 0;
        /* What is still to be given out bounds the value. */
        int hi = c->trick_hi[p->trick] + p->cards_hi, lo = c->trick_lo[p->trick] + p->cards_lo;
        if (hi <= alpha)
            return hi;
        if (lo >= beta)
            return lo;
        if (barbu_count(h) == 2)
            return two_tricks(sv, p);
        if (c->planes >= 0) {
            sv->make_key(c, p, live, &key);
            e = tt_entry(sv, &key);
            if (tt_holds(sv, e, &key)) {
                lo = tt_lo(e) > lo ? tt_lo(e) : lo;
                hi = tt_hi(e) < hi ? tt_hi(e) : hi;
                if (lo >= beta)
                    return lo;
                if (hi <= alpha)
                    return hi;
                if (e->move)
                    first = abs_card(live, e->move - 1);
            }
        }
        /* Within the bounds, so that the window stays open (alpha below
         * beta) at every node. */
        if (lo == hi)
            return lo;
        if (lo > alpha)
            alpha = lo;
        if (hi < beta)
            beta = hi;
    }

    barbu_cards moves = sv_distinct(c, sv_playable(c, p, p->hand[seat]), sv_apart(p));
    int list[BARBU_MAX_TRICKS], n = 1;
    if (moves & (moves - 1))
        n = order_moves(sv, moves, first, list);
    else
        list[0] = sv_lowest(moves);
    bool maxing = seat == c->me;
    int best = maxing ? -SV_INF : SV_INF, best_move = -1;
    int a = alpha, b = beta;
    for (int i = 0; i < n; i++) {
        int v = play_and_search(sv, list[i], a, b);
        if (maxing ? v > best : v < best) {
            best = v;
            best_move = list[i];
            if (maxing && best > a)
                a = best;
            if (!maxing && best < b)
                b = best;
            if (a >= b) {
                int8_t *k = sv->killer[4 * p->trick + p->n];
                if (i > 0 && k[0] != list[i]) {
                    k[1] = k[0];
                    k[0] = (int8_t)list[i];
                }
                break;
            }
        }
    }
    if (e) {
        int lo = best > alpha ? best : -SV_INF;
        int hi = best < beta ? best : SV_INF;
        tt_store(sv, e, &key, lo, hi, best_move >= 0 ? rel_card(live, best_move) : -1);
    }
    return best;
}

/* ------------------------------------------------------------ the calls */

/*
 * The exact value by MTD(f): a series of null-window searches, each asking
 * whether the value reaches a bound, closing in from the last answer.  A
 * null window cuts far more than a wide one, and the table keeps the
 * bounds each search proves for the next.  `card` is the move to play
 * first, or -1 for the position itself.
 */
static int solve_exact(bb_solver *sv, int card, int guess)
{
    int lo = -SV_INF, hi = SV_INF, g = guess;
    while (lo < hi) {
        int beta = g == lo ? g + 1 : g;
        g = card < 0 ? search(sv, beta - 1, beta) : play_and_search(sv, card, beta - 1, beta);
        if (g < beta)
            hi = g;
        else
            lo = g;
    }
    return g;
}

int bb_solve_value(bb_solver *sv, const barbu_state *s, int me)
{
    if (!sv || me < 0 || me > 3 || !bb_solver_fits(s))
        return 0;
    begin_solve(sv, s, me);
    return solve_exact(sv, -1, 0);
}

int bb_solve_moves(bb_solver *sv, const barbu_state *s, int me, barbu_cards *cards,
                   int values[BARBU_MAX_TRICKS])
{
    if (!sv || me < 0 || me > 3 || !bb_solver_fits(s))
        return -1;
    begin_solve(sv, s, me);
    const sv_ctx *c = &sv->ctx;
    const sv_pos *p = &sv->pos;
    barbu_cards moves = sv_playable(c, p, p->hand[p->to_move]);
    barbu_cards apart = sv_apart(p);
    barbu_cards distinct = sv_distinct(c, moves, apart);
    *cards = moves;
    /* Each distinct card searched once, in the search's own order so that
     * the table fills from the likely best line; the others take the value
     * of the top of their run. */
    int list[BARBU_MAX_TRICKS], value[64];
    int n = order_moves(sv, distinct, -1, list);
    for (int i = 0; i < n; i++)
        value[list[i]] = solve_exact(sv, list[i], i ? value[list[0]] : 0);
    int count = 0;
    for (barbu_cards m = moves; m; m &= m - 1) {
        int card = sv_lowest(m);
        while (!(distinct >> card & 1))
            card = sv_lowest(apart & c->above[card]);
        values[count++] = value[card];
    }
    return count;
}

/* ------------------------------------------------------------ max^n */

/*
 * The max^n search: every seat, seeing every hand, plays for its own
 * settled score.  A position's value is what the rest of the deal is worth
 * to each seat; the seat to move takes the move best for itself, and where
 * several are equally good for it, each outcome they lead to is taken as
 * likely as the others (the value is the mean of the distinct values): a
 * player who gains nothing from the choice has no reason to prefer one.
 * Nothing cuts this search, since what is best for one seat bounds nothing
 * of another's values; the table keeps the values found at the tricks'
 * starts, and equivalent cards are searched once, as in the search above.
 */

/* Two values closer than this are equal: they are means of whole points. */
#define SV_TIE 1e-3f

static inline sv_mentry *mtt_entry(bb_solver *sv, const sv_key *key)
{
    return &sv->mtt[key_hash(key) & ((UINT64_C(1) << SV_MAXN_BITS) - 1)];
}

static inline bool mtt_holds(const bb_solver *sv, const sv_mentry *e, const sv_key *key)
{
    return key_equal(&e->key, key) && e->gen == sv->gen;
}

/* The last trick's value to each seat: no choice is left. */
static void maxn_last(const sv_ctx *c, const sv_pos *p, float out[4])
{
    int win_seat = p->leader, win_card = sv_lowest(p->hand[p->leader]);
    int pts = c->tp[p->trick] + c->val[win_card];
    for (int i = 1; i < 4; i++) {
        int seat = (p->leader + i) & 3, card = sv_lowest(p->hand[seat]);
        pts += c->val[card];
        if (sv_takes(c, card, win_card)) {
            win_card = card;
            win_seat = seat;
        }
    }
    for (int b = 0; b < 4; b++)
        out[b] = (float)(c->wall[b][win_seat] * pts);
}

static void maxn_search(bb_solver *sv, float out[4]);

/* Plays a card of the seat to move and searches on, as play_and_search:
 * the value to each seat of the rest of the deal, this trick included. */
static void maxn_play(bb_solver *sv, int card, float out[4])
{
    sv_pos *p = &sv->pos;
    const sv_ctx *c = &sv->ctx;
    if (p->n < 3) {
        sv_undo u = trick_put(c, p, card);
        maxn_search(sv, out);
        trick_take(c, p, card, u);
        return;
    }
    int seat = p->to_move;
    barbu_cards bit = BARBU_BIT(card);
    p->hand[seat] &= ~bit;
    int taker = sv_takes(c, card, p->win_card) ? seat : p->win_seat;
    int pts = c->tp[p->trick] + p->trick_val + c->val[card];
    if (sv_deal_over(c, p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3])) {
        for (int b = 0; b < 4; b++)
            out[b] = 0.0f;
    } else {
        int leader = p->leader, trick_val = p->trick_val;
        barbu_cards table = p->table;
        p->leader = p->to_move = taker;
        p->n = 0;
        p->trick++;
        p->table = 0;
        p->trick_val = 0;
        maxn_search(sv, out);
        p->leader = leader;
        p->to_move = seat;
        p->n = 3;
        p->trick--;
        p->table = table;
        p->trick_val = trick_val;
    }
    for (int b = 0; b < 4; b++)
        out[b] += (float)(c->wall[b][taker] * pts);
    p->hand[seat] |= bit;
}

static inline bool maxn_same(const float a[4], const float b[4])
{
    for (int k = 0; k < 4; k++)
        if (a[k] - b[k] > SV_TIE || b[k] - a[k] > SV_TIE)
            return false;
    return true;
}

/* Of the values of the n moves, those best for `seat`: the mean of their
 * distinct values into out (what the moves lead to, each outcome as likely
 * as the others however many moves lead to it), and the first move of each
 * distinct value into *tied (bits of the moves' places). */
static void maxn_pick(int seat, int n, float v[][4], float out[4], unsigned *tied)
{
    float best = v[0][seat];
    for (int i = 1; i < n; i++)
        best = v[i][seat] > best ? v[i][seat] : best;
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int ties = 0;
    *tied = 0;
    for (int i = 0; i < n; i++) {
        if (v[i][seat] < best - SV_TIE)
            continue;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = (*tied >> j & 1) && maxn_same(v[i], v[j]);
        if (seen)
            continue;
        for (int b = 0; b < 4; b++)
            sum[b] += v[i][b];
        ties++;
        *tied |= 1u << i;
    }
    for (int b = 0; b < 4; b++)
        out[b] = sum[b] / (float)ties;
}

static void maxn_search(bb_solver *sv, float out[4])
{
    sv_pos *p = &sv->pos;
    const sv_ctx *c = &sv->ctx;
    sv->nodes++;
    int seat = p->to_move;
    sv_key key;
    sv_mentry *e = NULL;
    if (p->n == 0) {
        barbu_cards h = p->hand[seat];
        if ((h & (h - 1)) == 0) {
            if (h) {
                maxn_last(c, p, out);
            } else {
                for (int b = 0; b < 4; b++)
                    out[b] = 0.0f;
            }
            return;
        }
        if (c->planes >= 0 && sv->mtt) {
            sv->make_key(c, p, p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3], &key);
            e = mtt_entry(sv, &key);
            if (mtt_holds(sv, e, &key)) {
                memcpy(out, e->v, sizeof e->v);
                return;
            }
        }
    }
    barbu_cards moves = sv_distinct(c, sv_playable(c, p, p->hand[seat]), sv_apart(p));
    float v[BARBU_MAX_TRICKS][4];
    int n = 0;
    for (; moves; moves &= moves - 1)
        maxn_play(sv, sv_lowest(moves), v[n++]);
    unsigned tied;
    maxn_pick(seat, n, v, out, &tied);
    if (e) {
        e->key = key;
        e->gen = sv->gen;
        memcpy(e->v, out, sizeof e->v);
    }
}

/* Starts a max^n solve: the values do not depend on `me`, so seat 0 stands
 * for it and the table serves every seat's solves. */
static void maxn_begin(bb_solver *sv, const barbu_state *s)
{
    begin_solve(sv, s, 0);
    if (!sv->mtt)
        sv->mtt = calloc((size_t)1 << SV_MAXN_BITS, sizeof *sv->mtt);
}

int bb_maxn_moves(bb_solver *sv, const barbu_state *s, int me, barbu_cards *cards,
                  double values[BARBU_MAX_TRICKS])
{
    if (!sv || me < 0 || me > 3 || !bb_solver_fits(s))
        return -1;
    maxn_begin(sv, s);
    const sv_ctx *c = &sv->ctx;
    const sv_pos *p = &sv->pos;
    barbu_cards moves = sv_playable(c, p, p->hand[p->to_move]);
    barbu_cards apart = sv_apart(p);
    barbu_cards distinct = sv_distinct(c, moves, apart);
    *cards = moves;
    float value[64][4];
    for (barbu_cards m = distinct; m; m &= m - 1)
        maxn_play(sv, sv_lowest(m), value[sv_lowest(m)]);
    int count = 0;
    for (barbu_cards m = moves; m; m &= m - 1) {
        int card = sv_lowest(m);
        while (!(distinct >> card & 1))
            card = sv_lowest(apart & c->above[card]);
        values[count++] = value[card][me];
    }
    return count;
}

int bb_maxn_card(bb_solver *sv, const barbu_state *s, barbu_rng *rng)
{
    if (!sv || !bb_solver_fits(s))
        return -1;
    maxn_begin(sv, s);
    const sv_ctx *c = &sv->ctx;
    const sv_pos *p = &sv->pos;
    barbu_cards moves = sv_distinct(c, sv_playable(c, p, p->hand[p->to_move]), sv_apart(p));
    int list[BARBU_MAX_TRICKS], n = 0;
    float v[BARBU_MAX_TRICKS][4], out[4];
    for (; moves; moves &= moves - 1) {
        list[n] = sv_lowest(moves);
        maxn_play(sv, list[n], v[n]);
        n++;
    }
    unsigned tied;
    maxn_pick(p->to_move, n, v, out, &tied);
    int k = (int)barbu_rng_below(rng, (uint32_t)__builtin_popcount(tied));
    for (int i = 0; i < n; i++)
        if ((tied >> i & 1) && k-- == 0)
            return list[i];
    return list[0];
}
