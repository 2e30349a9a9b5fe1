/*
 * ismcts.c - single-observer Information Set MCTS for the card play of
 * trick contracts (Cowling, Powley and Whitehouse, 2012), an alternative
 * to the expert's PIMC search (expert.c) kept to compare the two.
 *
 * PIMC judges each candidate card on each sampled deal as if every player
 * then saw every hand, which over-rates plays that only work when one
 * knows where the cards lie ("strategy fusion").  ISMCTS grows one tree
 * over the observer's information set instead: each iteration samples a
 * deal consistent with the view, walks down the tree playing the cards that
 * are legal in that deal, adds one node and plays the rest of the deal out
 * as the expert's play-outs do.  A node's statistics belong to the seat
 * that played its card, so every seat maximises its own settled score.
 *
 * The work is counted in the expert's units (the play-outs' cost plus a
 * constant per iteration and per tree step), not on the clock, so the same
 * seed gives the same card on any machine.
 */
#include <math.h>
#include <stdlib.h>

#include "internal.h"

/* What an iteration costs beyond its play-out, in plays of the fast
 * policy: sampling the deal and building its state, and each step down the
 * tree (the playable cards, the scan of the children, a square root). */
#define ITER_COST 12
#define STEP_COST 2

/* UCB1's exploration constant, on scores divided by the deal's spread;
 * BB_ISMCTS_C in the environment overrides it while it is being tuned. */
#define EXPLORE 0.7

typedef struct node {
    int first;     /* first child, or -1 */
    int next;      /* next sibling, or -1 */
    int8_t seat;   /* the seat that played the card into this node */
    uint8_t card;  /* the card */
    int visits;    /* iterations through this node */
    int avail;     /* iterations in which its card was legal at its parent */
    double reward; /* sum of the mover's normalised settled scores */
} node;

typedef struct tree {
    node *pool;
    int n, cap;
} tree;

/* A new node, or -1 when the pool is full (the caller stops expanding). */
static int new_node(tree *t, int seat, int card)
{
    if (t->n >= t->cap)
        return -1;
    node *x = &t->pool[t->n];
    x->first = x->next = -1;
    x->seat = (int8_t)seat;
    x->card = (uint8_t)card;
    x->visits = 0;
    x->avail = 0;
    x->reward = 0.0;
    return t->n++;
}

/* Whether two cards of my hand play alike: one suit, the same score, and
 * no card another seat may hold, nor one that scores, between them.  The
 * root tries only the lowest of each such run, as the expert does, so the
 * iterations are not spread over cards that cannot differ. */
static int alike(const bb_know *k, int a, int b)
{
    if (BARBU_SUIT(a) != BARBU_SUIT(b) || k->tab.card[a] != k->tab.card[b])
        return 0;
    int lo = a < b ? a : b, hi = a < b ? b : a;
    barbu_cards between = bb_h_above(lo) & bb_h_below(hi);
    return !(between & (k->out | k->scoring));
}

/* The cards of `playable` worth trying at the root: one of each run of
 * cards that play alike (the lowest, as cards are scanned upwards). */
static barbu_cards root_cards(const bb_know *k, barbu_cards playable)
{
    barbu_cards keep = 0;
    for (barbu_cards m = playable; m; m &= m - 1) {
        int card = bb_h_lowest(m);
        int dup = 0;
        for (barbu_cards r = keep; r && !dup; r &= r - 1)
            dup = alike(k, bb_h_lowest(r), card);
        if (!dup)
            keep |= BARBU_BIT(card);
    }
    return keep;
}

/*
 * One step down from node `at`: among the children whose cards are legal in
 * this deal, an untried card first (expanded as a new node, chosen at
 * random so that no suit is favoured), else UCB1 with availability counts.
 * Returns the child, or -1 when the pool is full and every legal card is
 * untried; the caller then stops descending.
 */
static int select_child(tree *t, int at, int seat, barbu_cards legal, double c, barbu_rng *rng,
                        int *expanded)
{
    barbu_cards untried = legal;
    int best = -1;
    double best_v = -1e300;
    for (int ch = t->pool[at].first; ch >= 0; ch = t->pool[ch].next) {
        node *x = &t->pool[ch];
        if (x->seat != seat || !(legal & BARBU_BIT(x->card)))
            continue;
        untried &= ~BARBU_BIT(x->card);
        x->avail++;
    }
    if (untried) {
        int k = (int)barbu_rng_below(rng, (uint32_t)barbu_count(untried));
        int card = barbu_nth_card(untried, (unsigned)k);
        int ch = new_node(t, seat, card);
        if (ch >= 0) {
            t->pool[ch].next = t->pool[at].first;
            t->pool[at].first = ch;
            t->pool[ch].avail = 1;
            *expanded = 1;
            return ch;
        }
        /* The pool is full: choose among the tried ones, if any. */
    }
    for (int ch = t->pool[at].first; ch >= 0; ch = t->pool[ch].next) {
        const node *x = &t->pool[ch];
        if (x->seat != seat || !(legal & BARBU_BIT(x->card)) || x->visits == 0)
            continue;
        double v = x->reward / x->visits + c * sqrt(log((double)x->avail) / x->visits);
        if (v > best_v) {
            best_v = v;
            best = ch;
        }
    }
    return best;
}

int bb_ismcts_play(const bb_level *level, barbu_rng *rng, const barbu_view *view,
                   const barbu_action *legal, int n)
{
    const barbu_table *tb = &view->t;
    int me = view->seat;
    if (tb->phase != BARBU_PHASE_PLAY ||
        (tb->kind != BARBU_KIND_TRICKS && tb->kind != BARBU_KIND_TRUMPS) || me < 0 || me > 3 ||
        tb->to_move != me || n < 1)
        return -1;
    if (n == 1)
        return 0;
    /* The expert solves the last cards exactly, which beats any sampling:
     * leave those to it. */
    if (tb->in_hand[me] <= level->solve_from)
        return -1;
    bb_know know;
    bb_h_know(view, &know);
    barbu_cards playable = 0;
    for (int i = 0; i < n; i++) {
        if (legal[i].type != BARBU_ACT_PLAY || barbu_count(legal[i].cards) != 1)
            return -1;
        playable |= legal[i].cards;
    }
    barbu_cards at_root = root_cards(&know, playable);
    if (barbu_count(at_root) == 1)
        return 0;

    /* The scores are divided by the deal's spread, so that one exploration
     * constant serves contracts worth 4 points and worth 130. */
    double spread = 0.0;
    for (unsigned m = tb->contracts; m; m &= m - 1)
        spread += abs(barbu_contract_total(view->rules, __builtin_ctz(m)));
    if (spread <= 0.0)
        spread = 1.0;
    double c = EXPLORE;
    const char *env = getenv("BB_ISMCTS_C");
    if (env != NULL && atof(env) > 0.0)
        c = atof(env);

    /* One node per iteration at most, and no iteration costs less than
     * ITER_COST, so the budget bounds the pool. */
    tree t;
    t.cap = level->budget / ITER_COST + 1;
    t.n = 0;
    t.pool = malloc(sizeof *t.pool * (size_t)t.cap);
    if (t.pool == NULL)
        return -1;
    int root = new_node(&t, -1, 0);

    barbu_rng drng;
    barbu_rng_seed(&drng, barbu_rng_next(rng));
    long spent = 0;
    int failures = 0;
    while (spent < level->budget) {
        barbu_cards hands[4];
        barbu_state s;
        spent += ITER_COST;
        if (!bb_h_deal_sample(&know, &drng, hands) || barbu_state_from_view(view, hands, &s) != 0) {
            /* Constraints that cannot be met now will not be met later. */
            if (++failures > 64 && t.pool[root].visits == 0)
                break;
            continue;
        }
        barbu_truncate(&s);
        int path[BARBU_MAX_TRICKS * 4 + 1], depth = 0;
        int at = root, expanded = 0;
        while (!expanded && !barbu_over(&s) && s.t.phase == BARBU_PHASE_PLAY) {
            barbu_cards ok = barbu_playable(&s);
            if (at == root)
                ok &= at_root;
            int ch = select_child(&t, at, s.t.to_move, ok, c, &drng, &expanded);
            spent += STEP_COST;
            if (ch < 0)
                break;
            barbu_play(&s, t.pool[ch].card);
            path[depth++] = ch;
            at = ch;
        }
        if (depth == 0)
            continue;
        if (!barbu_over(&s))
            spent += bb_expert_rollout(level, &s, &drng, view->seat);
        for (int i = 0; i < depth; i++) {
            node *x = &t.pool[path[i]];
            x->visits++;
            x->reward += s.t.last.score[x->seat] / spread;
        }
        t.pool[root].visits++;
    }

    /* The most visited card at the root: the robust choice, less swayed by
     * one lucky deal than the best mean. */
    int best_card = -1, best_visits = -1;
    for (int ch = t.pool[root].first; ch >= 0; ch = t.pool[ch].next)
        if (t.pool[ch].visits > best_visits) {
            best_visits = t.pool[ch].visits;
            best_card = t.pool[ch].card;
        }
    free(t.pool);
    if (best_card < 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (legal[i].cards == BARBU_BIT(best_card))
            return i;
    return -1;
}
