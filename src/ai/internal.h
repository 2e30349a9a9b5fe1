/*
 * internal.h - what the bots share.
 */
#ifndef BARBU_AI_INTERNAL_H
#define BARBU_AI_INTERNAL_H

#include "barbu/ai.h"

/* Each kind of bot is one choose function over a view. */
typedef int (*bb_choose_fn)(barbu_rng *rng, const barbu_view *view, barbu_action *out);

int bb_random_choose(barbu_rng *rng, const barbu_view *view, barbu_action *out);
int bb_heuristic_choose(barbu_rng *rng, const barbu_view *view, barbu_action *out);

/* ------------------------------------------------ the heuristic player */

/* Small card-set helpers. */
static inline int bb_h_lowest(barbu_cards set)
{
    return __builtin_ctzll(set);
}

static inline int bb_h_highest(barbu_cards set)
{
    return 63 - __builtin_clzll(set);
}

/* The cards of the card's suit strictly above (below) it. */
static inline barbu_cards bb_h_above(int card)
{
    return BARBU_SUIT_CARDS(BARBU_SUIT(card)) & ~((BARBU_BIT(card) << 1) - 1);
}

static inline barbu_cards bb_h_below(int card)
{
    return BARBU_SUIT_CARDS(BARBU_SUIT(card)) & (BARBU_BIT(card) - 1);
}

static inline int bb_h_len(barbu_cards set, int suit)
{
    return barbu_count(set & BARBU_SUIT_CARDS(suit));
}

/* The pack of a rule set. */
static inline barbu_cards bb_h_deck(const barbu_rules *rules)
{
    barbu_cards lane = UINT64_C(0x7fff) & ~((UINT64_C(1) << rules->deck_low) - 1);
    return lane | lane << 16 | lane << 32 | lane << 48;
}

/* The layout's order: the rank after (up) or before (down) one, or 0. */
static inline int bb_h_step_up(const barbu_rules *r, int rank)
{
    if (r->domino_ace_low)
        return rank == BARBU_ACE ? r->deck_low : rank == BARBU_KING ? 0 : rank + 1;
    return rank == BARBU_ACE ? 0 : rank + 1;
}

static inline int bb_h_step_down(const barbu_rules *r, int rank)
{
    if (r->domino_ace_low)
        return rank == BARBU_ACE ? 0 : rank == r->deck_low ? BARBU_ACE : rank - 1;
    return rank == r->deck_low ? 0 : rank - 1;
}

/*
 * The score tables of a deal, summed over its contracts (a combined Call
 * scores each of its parts), as the heuristic reads them: what a trick, a
 * card or a place is worth.
 */
typedef struct bb_tables {
    int kind;                       /* BARBU_KIND_* of the first contract */
    int per_trick;                  /* per trick taken */
    int from_end[BARBU_MAX_TRICKS]; /* [0] is the last trick */
    int card[64];                   /* per card taken */
    int place[4];                   /* layouts: by order out */
    int total;                      /* the deal's total */
} bb_tables;

void bb_h_tables(const barbu_rules *rules, unsigned contracts, bb_tables *out);

/*
 * What one seat knows of the deal in play: its cards, every card played so
 * far (all play is public), the cards still in the other three hands and
 * the suits a seat has shown out of.
 */
typedef struct bb_know {
    const barbu_view *view;
    const barbu_rules *rules;
    const barbu_table *t;
    int me;
    int tricks;           /* tricks in a deal, cards in a full hand */
    barbu_cards deck;     /* the pack */
    barbu_cards hand;     /* my cards */
    barbu_cards gone;     /* played by anyone this deal, the trick's cards too */
    barbu_cards out;      /* in the other three hands */
    barbu_cards lacks[4]; /* unseen cards each seat cannot hold (t.shown_out) */
    bb_tables tab;        /* the deal's scores */
    barbu_cards scoring;  /* the cards that score in the deal */
} bb_know;

void bb_h_know(const barbu_view *view, bb_know *k);

/* Whether a seat may still hold cards of a suit, as far as the view shows. */
static inline int bb_h_may_hold(const bb_know *k, int seat, int suit)
{
    return seat != k->me && k->t->in_hand[seat] > 0 &&
           (k->out & BARBU_SUIT_CARDS(suit) & ~k->lacks[seat]) != 0;
}

/* The chance that one hand holds none of `cards` unseen cards when each is
 * as likely to lie in any of the `holders` hands that may hold it. */
double bb_h_none_of(int cards, int holders);

/* The business between two seats (0, 1 doubled, 2 redoubled): how much the
 * difference of their raw scores moves their settled scores. */
int bb_h_business(const barbu_table *t, int a, int b);

/* The chance that card x of a hand wins a trick before the deal ends when
 * every player tries to lose tricks; `out` is the cards in other hands. */
double bb_h_p_eventual(barbu_cards out, barbu_cards hand, int x);

/* The decisions, each returning an index into the legal actions (or -1 to
 * leave the choice to chance). */
int bb_h_play(barbu_rng *rng, const barbu_view *view, const barbu_action *legal, int n);
int bb_h_declare(const barbu_view *view, const barbu_action *legal, int n);
int bb_h_bid(const barbu_view *view, const barbu_action *legal, int n);

/* The last BB_END_TRICKS tricks played out on up to BB_END_SAMPLES sampled
 * deals, within BB_END_BUDGET simulated plays (about 25 us) per decision
 * (heuristic_sim.c): the card to play, or -1 to leave it to the rules of
 * thumb. */
#define BB_END_TRICKS  6
#define BB_END_SAMPLES 32
#define BB_END_BUDGET  2000
int bb_h_endgame(const bb_know *k, barbu_cards playable, barbu_rng *rng);

/* Hand estimates (heuristic_bid.c): the expected raw score of a hand at a
 * contract, given the trump suit or start rank where one is named, from the
 * seat of the declarer or of a defender. */
double bb_h_estimate(const barbu_rules *rules, int contract, barbu_cards hand, int trump, int rank,
                     int declarer);

/* Chinese Poker: the arrangement of a 13-card hand the heuristic player
 * sets: the valid one with the best expected score against three other
 * hands (arrange.c).  Returns the units it expects against one other player,
 * its rows taken as independent; both rows are 0 (and the units 0) for a
 * hand of another size. */
double bb_h_arrange(barbu_cards hand, int scoop, barbu_cards *back, barbu_cards *middle);

#endif
