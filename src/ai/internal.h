/*
 * internal.h - what the bots share.
 */
#ifndef BARBU_AI_INTERNAL_H
#define BARBU_AI_INTERNAL_H

#include "barbu/ai.h"

/* Each kind of bot is one choose function over a view. */
typedef int (*bb_choose_fn)(barbu_rng *rng, const barbu_view *view, barbu_action *out);

/* The view's legal actions, into room for BARBU_MAX_ACTIONS: how many, or
 * BARBU_EPHASE if the seat has none to take. */
int bb_legal_actions(const barbu_view *view, barbu_action legal[BARBU_MAX_ACTIONS]);

int bb_random_choose(barbu_rng *rng, const barbu_view *view, barbu_action *out);
int bb_heuristic_choose(barbu_rng *rng, const barbu_view *view, barbu_action *out);
/* The heuristic's choice among some of the legal actions (not rows). */
int bb_heuristic_choose_from(barbu_rng *rng, const barbu_view *view, const barbu_action *legal,
                             int n, barbu_action *out);

/* ------------------------------------------------------------ the expert */

/* How much an expert searches, and how (expert.c). */
typedef struct bb_level {
    int budget;         /* simulated card plays per decision, over all samples */
    int min_deals;      /* sampled deals per decision at least */
    int max_deals;      /* and at most */
    int solve_from;     /* cards left in the hand to move when exact solving begins */
    int rules_until;    /* play-outs follow the heuristic's rules of thumb while more
                           cards than this are left in the four hands, then the
                           fast policy */
    int noise;          /* per mille of the play-outs' plays made at random */
    int self_noise;     /* the same for the plays of the seat searching */
    int bid_margin;     /* what each voluntary double or redouble must gain, in
                           percent of the deal's points */
    int declare_margin; /* what a declaration must gain over the heuristic's
                           choice, in percent of a contract's points */
    int layouts;        /* 1: search the layouts too (else the heuristic plays them) */
    int fife_calls;     /* 1: the Fife game's Calls by play-outs (else the plan's) */
    int layout_deals;   /* max_deals for a play at a layout, whose play-outs are cheap */
    int layout_noise;   /* per mille of the play-outs' plays at a layout made at
                           random, the rest by the heuristic's rule */
    int model;          /* the model of the others' play that weights the deals:
                           0 none, 1 the fast policy, 2 the rules of thumb */
    int model_noise;    /* per mille of the model's plays taken as any legal card */
    int ismcts;         /* card play by Information Set MCTS (ismcts.c), not PIMC */
    int owed_push;      /* what paying an owed double now is worth (bb_h_owed_push),
                           in percent of the deal's points */
    int resample;       /* deals drawn for each one played out, which is chosen among
                           them by weight (1: each drawn deal is played out) */
    int bid_noise;      /* per mille of the model's bids taken as any legal bid, in
                           weighting the deals by the bids (0: not weighted) */
    int bid_temp;       /* the temperature of a soft model of the others' bids that
                           weights the deals: each double or redouble the seat
                           could choose is made with a logistic chance in what the
                           heuristic reads it to gain, in per mille of the deal's
                           spread of scores (0: not; bid_noise's model instead) */
    int decl_temp;      /* the temperature of the model of the declarer's choice
                           that weights the deals, in percent of a contract's
                           points (0: the declaration is not weighted) */
    int history;        /* per mille of the model's plays taken as any legal card in
                           weighting the deals by the tricks before the one under
                           way (0: only that trick is weighted) */
    int maxn;           /* 1: the exact solving at solve_from is max^n (each seat for
                           itself), not the paranoid search */
    int maxn_from;      /* play-outs are finished by max^n once the hand to lead has
                           this many cards or fewer (0: never) */
} bb_level;

/*
 * The tricks of the deal under way that a seat has seen, in order: at each
 * of its turns its view shows the trick completed last, so a player that
 * keeps what it saw knows every trick, as a player at a real table does.
 */
typedef struct bb_record {
    uint16_t deal;                       /* the table's deal they are of */
    uint8_t n;                           /* tricks known: trick[0..n-1] */
    bool broken;                         /* a trick was missed: n is stale */
    barbu_trick trick[BARBU_MAX_TRICKS]; /* as barbu_table.last_trick showed them */
} bb_record;

/* Keeps what a view of its seat shows of the deal's tricks. */
void bb_record_see(bb_record *rec, const barbu_view *view);

extern const bb_level BB_MEDIUM, BB_HARD;
/* Medium and hard as they were before issue 26 (the tuned-only kinds
 * medium0 and hard0), to measure the new levels against. */
extern const bb_level BB_MEDIUM0, BB_HARD0;

/* Plays a truncated state to the end of its deal as the expert's play-outs
 * do, `me` the seat searching (its plays take self_noise, not noise; -1:
 * none); returns the work it took, in plays of the fast policy. */
long bb_expert_rollout(const bb_level *level, barbu_state *s, barbu_rng *rng, int me);

/* The expert's decision for the view's seat.  `truth` is NULL, except for
 * the omniscient player, which searches the true deal instead of samples. */
int bb_expert_choose(const bb_level *level, int threads, barbu_rng *rng, const barbu_view *view,
                     const bb_record *rec, const barbu_state *truth, barbu_action *out);
/* The same among some of the legal actions, `legal` (not rows). */
int bb_expert_choose_from(const bb_level *level, int threads, barbu_rng *rng,
                          const barbu_view *view, const bb_record *rec, const barbu_state *truth,
                          const barbu_action *legal, int n, barbu_action *out);

/*
 * What the expert weighs when it chooses (for an analysis, analyse.c): the
 * candidates of its search, each with the weighted mean of its settled
 * score over the sampled deals plus the bonus the search gives it (a
 * declaration's less the contract's worth to a random hand, a Fife Call's
 * worth of the Calls it leaves, a voluntary double's margin), and the one
 * it picks.  n is 0 when the expert leaves the decision to the heuristic
 * (rows, Pass-ons, cuts) or has one legal action; searched is 0 when the
 * candidates came to one (every card alike), so no mean was taken.
 */
#define BB_EST_MAX 48
typedef struct bb_estimates {
    const barbu_action *also; /* in: a declaration to weigh too (may be NULL) */
    int n, pick, searched;
    int solved; /* the last tricks solved exactly: the means are of the tricks still
                   to play (bb_solve_value), not the whole deal */
    barbu_action cand[BB_EST_MAX];
    double value[BB_EST_MAX];
    barbu_cards alike[BB_EST_MAX]; /* a card's candidate: the legal cards it stood for */
} bb_estimates;

/* The expert's search for the view's seat as bb_expert_choose makes it
 * (without a truth), keeping what it weighed into *est; 0, or an error as
 * bb_expert_choose's (BARBU_EPHASE for Chinese Poker's rows). */
int bb_expert_estimate(const bb_level *level, int threads, barbu_rng *rng, const barbu_view *view,
                       const bb_record *rec, bb_estimates *est);

/* The weight the expert gives a deal of the unseen cards, `hands` holding
 * every seat's cards now: how likely the plays of the trick under way (and
 * of the tricks before it in `rec`, which may be NULL), the declaration and
 * the bids were with them under its models (for the tests). */
double bb_expert_deal_weight(const bb_level *level, const barbu_view *view, const bb_record *rec,
                             const barbu_cards hands[4]);

/* Information Set MCTS for the card play of a trick contract (ismcts.c),
 * within the level's budget: an index into legal, or -1 to leave the
 * choice to the caller (layouts, the last cards, which the expert solves). */
int bb_ismcts_play(const bb_level *level, barbu_rng *rng, const barbu_view *view,
                   const barbu_action *legal, int n);

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
    barbu_cards holds[4]; /* unseen cards known to be in a seat's hand: those this
                             seat passed it in the Pass-on just made (seed 000) */
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
/* The rules of thumb alone at a trick contract, without the play-outs of
 * the last tricks: the card to play of `playable` (the expert's play-outs). */
int bb_h_rule_card(const barbu_view *view, barbu_cards playable);
/* The layout's rule of thumb (Domino) in a state: the card of `fits` the
 * seat to move would put down, judged as layout_play does from its view
 * (the cards out are those of the other hands, which is all a view knows
 * of them too).  The expert's play-outs. */
int bb_h_layout_card(const barbu_state *s, barbu_cards fits);
int bb_h_declare(const barbu_view *view, const barbu_action *legal, int n);
int bb_h_bid(const barbu_view *view, const barbu_action *legal, int n);
/* What bb_h_bid reads of the seat to bid: the estimate of its hand at the
 * contract (mine), what it expects to gain over each seat (gain), what a
 * double or redouble of each must gain for it to bid so, and which doubles
 * and redoubles the legal bids allow and which they all make (must). */
typedef struct bb_bid_read {
    double mine, total, spread;
    double gain[4], need_double[4], need_redouble[4];
    unsigned may_double, may_redouble, must;
    int negative;
} bb_bid_read;
void bb_h_bid_read(const barbu_view *view, const barbu_action *legal, int n, bb_bid_read *out);
/* What paying an owed double of the declarer now is worth, `weight` times
 * the doubles owed over the chances left to pay them: a double owed is best
 * paid on a hand that suits the contract, before it is forced on a bad one. */
double bb_h_owed_push(const barbu_view *view, double weight);

/* Deals the unseen cards to the other seats, each as many as it holds,
 * with the cards known to be there and none it has shown it cannot hold.
 * Returns 0 if the constraints could not be met, 1 otherwise. */
int bb_h_deal_sample(const bb_know *k, barbu_rng *rng, barbu_cards hands[4]);

/* The simple policy every seat follows in play-outs: duck in a negative
 * contract, win cheaply in a positive one (heuristic_sim.c). */
typedef struct bb_policy {
    bb_tables tab;
    int positive;
    int ravage;                     /* Ravage City: no card or trick costs by itself; the
                                       players duck as at No Tricks */
    barbu_cards scoring;            /* cards that score */
    barbu_cards costly;             /* cards that cost points when taken */
    int base[BARBU_MAX_TRICKS + 1]; /* the cost of trick i, apart from its cards */
} bb_policy;

void bb_h_policy_init(bb_policy *x, const barbu_rules *rules, unsigned contracts);

/* What the seat to move of a state knows, as bb_h_know would find it in its
 * view (but for the cards it passed on), the score tables taken from a
 * policy of the deal's contracts: for the expert's play-outs, which make
 * no view. */
void bb_h_know_state(const barbu_state *s, int seat, const bb_policy *pol, bb_know *k);

/* bb_h_rule_card in a state (the play-outs). */
int bb_h_rule_card_state(const barbu_state *s, const bb_policy *pol, barbu_cards playable);
int bb_h_policy_card(const bb_policy *x, const barbu_state *s, barbu_cards legal);

/* Plays the deal of a state (truncated) to its end, every seat following
 * the policy; at a layout, a Patience policy (heuristic_fife.c). */
void bb_h_playout(const bb_policy *x, barbu_state *s, barbu_rng *rng);

/* The Patience: each candidate play tried on sampled deals played out; the
 * index of the legal action with the best mean score, prior[i] (may be
 * NULL) added to break near ties, or -1 (heuristic_fife.c). */
int bb_h_patience(const bb_know *k, const barbu_action *legal, int n, barbu_rng *rng,
                  const double *prior);

/* The Silly Round's Pass-on: the candidates whose cards hurt most, each
 * judged by the estimates of the hand it leaves (with the cards that come
 * back on sampled deals) at the Call, or at the Calls likely to be cut; the
 * index of the legal action, or -1. */
int bb_h_pass_on(barbu_rng *rng, const barbu_view *view, const barbu_action *legal, int n);
/* The quick rule it takes for the other seats' Pass-ons on its sampled
 * deals: the view's seat's three most dangerous cards (for an analysis's
 * play-outs, where the whole choice for every seat would cost too much). */
barbu_cards bb_h_quick_pass(const barbu_view *view);
/* Its candidates, the passes whose cards hurt most first: up to max
 * (at most 24) indices into legal; how many, 0 when max <= 0 (for an
 * analysis). */
int bb_h_pass_candidates(const barbu_view *view, const barbu_action *legal, int n, int *cand,
                         int max);

/* The Fife game's Caller: the Calls that make the most of this hand and of
 * the deals left in the Round (heuristic_fife.c); an index into legal. */
int bb_h_fife_declare(const barbu_view *view, const barbu_action *legal, int n);

/* The same plan, with each legal action's parts (may be NULL): now[i], the
 * estimate of its Calls with this hand, and rest[i], the worth of the Calls
 * it leaves for the Round's deals to come (below -1e9 when it leaves what
 * cannot be played); the Caller's choice maximises their sum. */
int bb_h_fife_plan(const barbu_view *view, const barbu_action *legal, int n, double *now,
                   double *rest);

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

/* What a declarer can expect from a contract with a hand dealt at random
 * (heuristic_bid.c): the value of keeping it for a later deal. */
double bb_h_baseline(const barbu_rules *rules, int contract);

/* The Fife game (seed 000): the Caller's expected score at a Call with this
 * hand, from weights fitted on deals between heuristic players. */
double bb_h_fife_estimate(const barbu_rules *rules, int contract, barbu_cards hand);

/* Chinese Poker: the arrangement of a 13-card hand the heuristic player
 * sets: the valid one with the best expected score against three other
 * hands (arrange.c).  Returns the units it expects against one other player,
 * its rows taken as independent; both rows are 0 (and the units 0) for a
 * hand of another size. */
double bb_h_arrange(barbu_cards hand, int scoop, barbu_cards *back, barbu_cards *middle);

/* The best few settings of the same hand by the same measure, best first
 * (for an analysis): up to k (at most BB_ROWS_TOP) into top; how many. */
#define BB_ROWS_TOP 16
typedef struct bb_rows {
    barbu_cards back, middle;
    double units; /* expected against one other player */
} bb_rows;
int bb_h_arrange_top(barbu_cards hand, int scoop, int k, bb_rows *top);

#endif
