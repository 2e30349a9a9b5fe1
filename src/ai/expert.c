/*
 * expert.c - the expert player: search over the engine's own actions on
 * sampled deals.
 *
 * For each decision it deals the cards it cannot see to the other hands,
 * consistently with everything the table has shown (the engine's shown_out:
 * voids, the hearts-lead rule, a failure to over-trump, passes at a layout;
 * and the cards it passed on), weights each deal by how likely the plays of
 * the trick under way were under a model of play, and tries every candidate
 * action on every deal: the rest of the deal is played out by every seat
 * with the heuristic's rules of thumb for the first plays and a fast policy
 * after them, or, at the very end of a trick contract, solved exactly
 * (solver.c).  The candidate with the best weighted mean of its settled score
 * wins.  Declarations and doubles are searched the same way; the Fife
 * game's Calls and Pass-ons, Chinese Poker's rows, the layouts and the cuts
 * are the heuristic player's (see docs/internals.md).
 *
 * Every deal i draws its cards from its own generator, seeded from the
 * decision's seed and i, and the means are summed in the order of the
 * deals, so medium's choice is the same on any number of threads.  Hard's
 * is the same on one thread (as the server and the arena run it, one
 * thread a decision), not on several: the solver's nodes count towards the
 * budget, and how many a solve takes depends on how warm the thread's
 * transposition table is from the deals that thread solved before, so the
 * number of deals evaluated moves with how the deals fall to the threads.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "solver.h"

/*
 * The levels.  A budget counts the work of the play-outs in plays of the
 * fast policy (see rollout); solving begins when the hand to move has
 * solve_from cards or fewer.  Medium and hard differ in their budget, their
 * deal limits, hard's noisy play-outs (one card in four at random), which
 * only its ten times the deals can average, and hard's endings: from four
 * cards a hand, in its play-outs and its own decisions, every seat plays
 * for itself by max^n (solver.c), while medium solves the last two tricks
 * by the paranoid search.  Since issue 26 they also differ in how they read
 * the others' hands (EXPERT_READ, below).  The rest they share.  The
 * figures were chosen with barbu arena (docs/internals.md); medium0 and
 * hard0 are the levels as they were before issue 26, kept to measure
 * changes against.
 */
#define EXPERT_SHARED                                                                              \
    .rules_until = 0, .bid_margin = 5, .declare_margin = 5, .layouts = 1, .layout_noise = 100,     \
    .model = 1, .ismcts = 0, .owed_push = 0, .decl_temp = 10, .bid_noise = 0, .resample = 4,       \
    .fife_calls = 1

/* clang-format off */
/* How the levels read the others' hands: as before issue 26 (READ0: hard
 * and the 0 kinds), and medium's since (READ: the doubles weighed too, the
 * plays to the trick under way trusted far less; docs/internals.md, "Issue
 * 26"). */
#define EXPERT_READ0                                                           \
    .model_noise = 350,                                                        \
    .bid_temp = 0
#define EXPERT_READ                                                            \
    .model_noise = 850,                                                        \
    .bid_temp = 150
/* Medium's search and hard's, unchanged since before issue 26. */
#define EXPERT_MEDIUM_SEARCH                                                   \
    .budget = 1200000,                                                         \
    .min_deals = 16,                                                           \
    .max_deals = 480,                                                          \
    .layout_deals = 480,                                                       \
    .noise = 0,                                                                \
    .self_noise = 0,                                                           \
    .solve_from = 2,                                                           \
    .maxn = 0,                                                                 \
    .maxn_from = 0
#define EXPERT_HARD_SEARCH                                                     \
    .budget = 12000000,                                                        \
    .min_deals = 48,                                                           \
    .max_deals = 4800,                                                         \
    .layout_deals = 4800,                                                      \
    .noise = 250,                                                              \
    .self_noise = 250,                                                         \
    .solve_from = 4,                                                           \
    .maxn = 1,                                                                 \
    .maxn_from = 4
/* The levels as they were before issue 26, written once: `medium0` and
 * `hard0` (bot.c) are frozen to these settings so that new levels are
 * measured against them with barbu arena.  When medium or hard change,
 * these two stay as they are for the 0 kinds. */
#define EXPERT_MEDIUM0 EXPERT_SHARED, EXPERT_READ0, EXPERT_MEDIUM_SEARCH
#define EXPERT_HARD0   EXPERT_SHARED, EXPERT_READ0, EXPERT_HARD_SEARCH
/* clang-format on */

const bb_level BB_MEDIUM0 = {EXPERT_MEDIUM0};
const bb_level BB_HARD0 = {EXPERT_HARD0};
/* Medium reads the others' hands as EXPERT_READ does: it beat medium0 over
 * 4,000 fresh deal sets (docs/internals.md, "Issue 26").  Hard is still
 * hard0. */
const bb_level BB_MEDIUM = {EXPERT_SHARED, EXPERT_READ, EXPERT_MEDIUM_SEARCH};
const bb_level BB_HARD = {EXPERT_HARD0};

#define MAX_CAND BB_EST_MAX

/* The transposition table of each thread's solver, and what a node of its
 * search costs in plays of the fast policy. */
#define SOLVER_TT_BITS   16
#define SOLVER_NODE_COST 2

/* What a deal's values are: each candidate's score after a play-out or
 * exactly, or each candidate bid's settled score from one play-out of the
 * deal and the rest of the auction after the bid. */
enum { EVAL_ROLLOUT, EVAL_SOLVE, EVAL_BID };

typedef struct search {
    const bb_level *level;
    const barbu_view *view;
    const barbu_state *truth;
    const bb_record *rec; /* every trick before the one under way, or NULL */
    long draw_cost;       /* what drawing and weighing a deal costs */
    bb_know know;
    int me;
    int mode;
    uint64_t seed;
    barbu_action cand[MAX_CAND];
    int nc;
    int loud; /* EVAL_BID: the candidate the deal is played out after */
    int deals;
    double *value;  /* [deal][candidate] */
    double *weight; /* [deal]; 0 for a deal that could not be made */
    long *cost;     /* [deal]: the work it took (see rollout) */

    /* For an analysis (bb_expert_estimate), NULL when only choosing: what
     * the choice weighed, [candidate]; and a declaration to weigh too (the
     * one a player chose). */
    double *means;
    const barbu_action *also;
} search;

/* Whether a is one of x's candidates. */
static bool is_candidate(const search *x, const barbu_action *a)
{
    for (int c = 0; c < x->nc; c++)
        if (barbu_action_equal(&x->cand[c], a))
            return true;
    return false;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    barbu_rng r;
    barbu_rng_seed(&r, a ^ (b * UINT64_C(0x9e3779b97f4a7c15)));
    return barbu_rng_next(&r);
}

/* ------------------------------------------------------------ play-outs */

static int cards_left(const barbu_table *t)
{
    return t->in_hand[0] + t->in_hand[1] + t->in_hand[2] + t->in_hand[3];
}

/* One play of the fast policy, or a random legal card now and then. */
static void policy_step(int noise, const bb_policy *pol, barbu_state *s, barbu_rng *rng)
{
    barbu_cards legal = barbu_playable(s);
    if (legal & (legal - 1)) {
        if ((int)barbu_rng_below(rng, 1000) < noise) {
            int k = (int)barbu_rng_below(rng, (uint32_t)barbu_count(legal));
            barbu_play(s, (barbu_card)barbu_nth_card(legal, (unsigned)k));
            return;
        }
        barbu_play(s, (barbu_card)bb_h_policy_card(pol, s, legal));
        return;
    }
    barbu_play(s, (barbu_card)bb_h_lowest(legal));
}

/*
 * What the work of a play-out costs, in plays of the fast policy (about
 * 50 ns on this machine): the search is sized by what its play-outs
 * counted, not by the clock, so that a decision does not depend on how busy
 * the machine is.
 */
#define RULES_COST       20    /* a play by the rules of thumb */
#define RAVAGE_COST      110   /* the same at Ravage City, which weighs exposures */
#define DECIDE_COST      100   /* a double, a Pass-on or a cut by the heuristic */
#define ARRANGE_COST     24000 /* Chinese Poker rows by the heuristic (about 1 ms) */
#define LAYOUT_COST      3     /* a play at a layout */
#define LAYOUT_RULE_COST 12    /* a play at Domino by the heuristic's rule */
#define DRAW_COST        100   /* a deal drawn and weighed (about 5 us) */

/*
 * Plays a truncated state to the end of its deal: the heuristic player's
 * decisions before the play (doubles, Pass-ons, rows, cuts), then the rules
 * of thumb for the first plays and the fast policy for the rest, for every
 * seat; with a solver, a trick contract's last tricks from maxn_from cards
 * a hand by max^n instead.  Returns what it cost.
 */
static long rollout(const bb_level *level, barbu_state *s, barbu_rng *rng, int me, bb_solver *sv)
{
    long cost = 0;
    bb_policy pol;
    unsigned pol_contracts = 0xffffu;
    while (!barbu_over(s)) {
        if (s->t.phase != BARBU_PHASE_PLAY) {
            barbu_view v;
            barbu_action a;
            cost += s->t.phase == BARBU_PHASE_ARRANGE ? ARRANGE_COST : DECIDE_COST;
            barbu_view_of(s, s->t.to_move, &v);
            if (bb_heuristic_choose(rng, &v, &a) != 0 || barbu_apply(s, &a) != 0)
                break;
            continue;
        }
        if (pol_contracts != s->t.contracts) {
            bb_h_policy_init(&pol, s->rules, s->t.contracts);
            pol_contracts = s->t.contracts;
        }
        if (s->t.kind == BARBU_KIND_DOMINO) {
            /* Every seat plays the heuristic's rule for the layout. */
            barbu_cards fits = barbu_playable(s);
            if (fits == 0 || (fits & (fits - 1)) == 0) {
                barbu_play_random(s, rng);
                cost += LAYOUT_COST;
            } else if ((int)barbu_rng_below(rng, 1000) < level->layout_noise) {
                int k = (int)barbu_rng_below(rng, (uint32_t)barbu_count(fits));
                barbu_play(s, (barbu_card)barbu_nth_card(fits, (unsigned)k));
                cost += LAYOUT_COST;
            } else {
                barbu_play(s, (barbu_card)bb_h_layout_card(s, fits));
                cost += LAYOUT_RULE_COST;
            }
            continue;
        }
        if (s->t.kind == BARBU_KIND_PATIENCE) {
            int before = s->t.acted;
            bb_h_playout(&pol, s, rng);
            return cost + (long)(s->t.acted - before) * LAYOUT_COST;
        }
        if (sv && s->t.trick.n == 0 && s->t.in_hand[s->t.to_move] <= level->maxn_from &&
            bb_solver_fits(s)) {
            /* The rest by max^n, every seat for itself on these cards. */
            unsigned long long nodes = bb_solver_nodes(sv);
            int card = 0;
            while (!barbu_over(s) && (card = bb_maxn_card(sv, s, rng)) >= 0)
                barbu_play(s, (barbu_card)card);
            cost += (long)(bb_solver_nodes(sv) - nodes) * SOLVER_NODE_COST;
            if (card >= 0)
                continue;
        }
        if (cards_left(&s->t) > level->rules_until) {
            barbu_cards legal = barbu_playable(s);
            int noise = s->t.to_move == me ? level->self_noise : level->noise;
            if ((legal & (legal - 1)) && noise > 0 && (int)barbu_rng_below(rng, 1000) < noise) {
                int k = (int)barbu_rng_below(rng, (uint32_t)barbu_count(legal));
                barbu_play(s, (barbu_card)barbu_nth_card(legal, (unsigned)k));
                cost++;
            } else if (legal & (legal - 1)) {
                barbu_play(s, (barbu_card)bb_h_rule_card_state(s, &pol, legal));
                cost += pol.ravage ? RAVAGE_COST : RULES_COST;
            } else {
                barbu_play(s, (barbu_card)bb_h_lowest(legal));
                cost++;
            }
        } else {
            policy_step(s->t.to_move == me ? level->self_noise : level->noise, &pol, s, rng);
            cost++;
        }
    }
    return cost;
}

long bb_expert_rollout(const bb_level *level, barbu_state *s, barbu_rng *rng, int me)
{
    return rollout(level, s, rng, me, NULL);
}

/* ------------------------------------------------------------ the model */

/* What a contract of these rules is worth, in points, on the mean: the
 * scale of the declaration model's temperature and of the margins. */
static double mean_points(const barbu_rules *r)
{
    double total = 0.0;
    for (int c = 0; c < r->n_contracts; c++)
        total += abs(barbu_contract_total(r, c));
    return total / r->n_contracts;
}

/* Whether two cards of one hand play alike: one suit, the same score, and
 * none of the cards `between` (those that may lie in another hand) between
 * them. */
static int alike_among(const bb_know *k, barbu_cards between, int a, int b)
{
    if (a == b)
        return 1;
    if (BARBU_SUIT(a) != BARBU_SUIT(b) || k->tab.card[a] != k->tab.card[b])
        return 0;
    int lo = a < b ? a : b, hi = a < b ? b : a;
    return !(bb_h_above(lo) & bb_h_below(hi) & between);
}

/* The same now: no card another seat may hold between them. */
static int alike(const bb_know *k, int a, int b)
{
    return alike_among(k, k->out | k->scoring, a, b);
}

/*
 * How likely the plays of the trick under way were, had the others held
 * these hands and played the model: for each card another seat put down,
 * the table as it was before it, the hands with the later cards back in
 * them, and the policy's choice there.
 */
static double trick_likelihood(const search *x, const barbu_cards hands[4])
{
    const barbu_view *view = x->view;
    const barbu_trick *tr = &view->t.trick;
    if (x->level->model == 0 || view->t.phase != BARBU_PHASE_PLAY ||
        view->t.kind == BARBU_KIND_DOMINO || view->t.kind == BARBU_KIND_PATIENCE || tr->n == 0)
        return 1.0;
    double noise = x->level->model_noise / 1000.0;
    bb_policy pol;
    bb_h_policy_init(&pol, view->rules, view->t.contracts);
    double w = 1.0;
    for (int i = 0; i < tr->n; i++) {
        int seat = (tr->leader + i) & 3;
        if (seat == x->me)
            continue;
        barbu_view v = *view;
        barbu_cards h[4] = {hands[0], hands[1], hands[2], hands[3]};
        v.t.trick.n = (uint8_t)i;
        v.t.to_move = (int8_t)seat;
        for (int j = i; j < tr->n; j++) {
            int sj = (tr->leader + j) & 3;
            barbu_cards bit = BARBU_BIT(tr->card[j]);
            v.t.played[sj] &= ~bit;
            v.t.in_hand[sj]++;
            h[sj] |= bit;
            if (sj == x->me)
                v.hand[sj] |= bit;
        }
        barbu_state st;
        if (barbu_state_from_view(&v, h, &st) != 0)
            continue;
        barbu_cards legal = barbu_playable(&st);
        int n = barbu_count(legal);
        if (n <= 1)
            continue;
        int pick;
        if (x->level->model == 2) {
            barbu_view sv;
            barbu_view_of(&st, seat, &sv);
            pick = bb_h_rule_card(&sv, legal);
        } else {
            pick = bb_h_policy_card(&pol, &st, legal);
        }
        int same = alike(&x->know, pick, tr->card[i]);
        w *= same ? 1.0 - noise + noise / n : noise / n;
    }
    return w;
}

/* Whether the record holds every trick of the view's deal before the one
 * under way, each led by the taker of the trick before and together the
 * cards the table shows played. */
static bool record_whole(const barbu_view *view, const bb_record *rec)
{
    const barbu_table *t = &view->t;
    if (rec == NULL || rec->broken || rec->n == 0 || rec->deal != t->deal || rec->n != t->ntricks ||
        t->trick.leader != t->winner[rec->n - 1])
        return false;
    barbu_cards seen[4] = {0};
    for (int k = 0; k < rec->n; k++) {
        const barbu_trick *tr = &rec->trick[k];
        if (tr->n != 4 || (k > 0 && tr->leader != t->winner[k - 1]))
            return false;
        for (int i = 0; i < 4; i++)
            seen[(tr->leader + i) & 3] |= BARBU_BIT(tr->card[i]);
    }
    for (int i = 0; i < t->trick.n; i++)
        seen[(t->trick.leader + i) & 3] |= BARBU_BIT(t->trick.card[i]);
    for (int seat = 0; seat < 4; seat++)
        if (seen[seat] != t->played[seat])
            return false;
    return true;
}

/*
 * How likely every play of the deal was, had the others held these hands
 * and played the model: the deal replayed from its first trick (x->rec)
 * with the hands as dealt, and at each card another seat put down the
 * model's choice there, followed with probability 1 - history per mille in
 * the tricks before the one under way and 1 - model_noise in it.  A seat
 * that threw the King of a suit when the model throws its Ace first likely
 * has no Ace.
 */
static double history_likelihood(const search *x, const barbu_cards hands[4])
{
    const barbu_view *view = x->view;
    const barbu_table *t = &view->t;
    const bb_record *rec = x->rec;
    barbu_state s;
    if (barbu_state_first_trick(view, hands, &s) != 0)
        return 1.0;
    bb_policy pol;
    bb_h_policy_init(&pol, view->rules, t->contracts);
    double w = 1.0;
    for (int k = 0; k <= rec->n; k++) {
        const barbu_trick *tr = k < rec->n ? &rec->trick[k] : &t->trick;
        double noise = (k < rec->n ? x->level->history : x->level->model_noise) / 1000.0;
        for (int i = 0; i < tr->n; i++) {
            int seat = (tr->leader + i) & 3;
            if (seat != s.t.to_move)
                return 1.0;
            if (seat != x->me) {
                barbu_cards legal = barbu_playable(&s);
                int n = barbu_count(legal);
                if (n > 1) {
                    int pick = x->level->model == 2 ? bb_h_rule_card_state(&s, &pol, legal)
                                                    : bb_h_policy_card(&pol, &s, legal);
                    barbu_cards others = 0;
                    for (int j = 1; j < 4; j++)
                        others |= s.hand[(seat + j) & 3];
                    int same = alike_among(&x->know, others, pick, tr->card[i]);
                    w *= same ? 1.0 - noise + noise / n : noise / n;
                }
            }
            if (barbu_play(&s, tr->card[i]) != 0)
                return 1.0;
        }
    }
    return w;
}

/*
 * How likely the declarer was to declare what it did with the hand this
 * deal gives it, under a model of the choice: each declaration open to it
 * then (each trump suit, each start rank) is chosen with a probability that
 * grows as exp(gain / T), the gain being what the heuristic estimates the
 * hand makes of it over what the contract is worth with a hand dealt at
 * random (bb_h_declare's own measure).  A declarer that chose Trumps in
 * hearts is likely long in hearts.  Not for the Fife game, whose Calls and
 * Pass-ons are another matter, nor Chinese Poker, whose estimate is dear.
 */
static double declare_likelihood(const search *x, const barbu_cards hands[4])
{
    const barbu_view *view = x->view;
    const barbu_rules *r = view->rules;
    const barbu_table *t = &view->t;
    int decl = t->declarer;
    if (x->level->decl_temp <= 0 || r->game == BARBU_GAME_FIFE || decl == x->me ||
        t->phase == BARBU_PHASE_DECLARE || t->contracts == 0 || (t->contracts & (t->contracts - 1)))
        return 1.0;
    int chosen = __builtin_ctz(t->contracts);
    if (chosen >= r->n_contracts || r->contract[chosen].kind == BARBU_KIND_CHINESE)
        return 1.0;
    /* The schedule as it was before the declaration. */
    barbu_table before = *t;
    if (before.used[decl][chosen] == 0 || before.declared[decl] == 0)
        return 1.0;
    before.used[decl][chosen]--;
    before.declared[decl]--;
    barbu_cards hand = hands[decl] | t->played[decl];
    double temp = x->level->decl_temp / 100.0 * mean_points(r);
    if (temp <= 0.0)
        return 1.0;
    double gain[64], mine = 0.0, top = -1e300;
    int n = 0;
    for (int c = 0; c < r->n_contracts; c++) {
        const barbu_contract *k = &r->contract[c];
        if (k->per_player == 0 || k->kind == BARBU_KIND_CHINESE ||
            barbu_declare_check(r, &before, decl, c) != 0)
            continue;
        double base = bb_h_baseline(r, c);
        int lo = 0, hi = 0;
        if (k->kind == BARBU_KIND_TRUMPS)
            hi = 3;
        else if (k->kind == BARBU_KIND_DOMINO)
            lo = r->deck_low, hi = BARBU_ACE;
        for (int v = lo; v <= hi && n < 64; v++) {
            int trump = k->kind == BARBU_KIND_TRUMPS ? v : -1;
            int rank = k->kind == BARBU_KIND_DOMINO ? v : 0;
            double g = (bb_h_estimate(r, c, hand, trump, rank, 1) - base) / temp;
            if (c == chosen && (k->kind != BARBU_KIND_TRUMPS || trump == t->trump) &&
                (k->kind != BARBU_KIND_DOMINO || rank == t->rank))
                mine = g;
            gain[n++] = g;
            top = g > top ? g : top;
        }
    }
    if (n == 0)
        return 1.0;
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += exp(gain[i] - top);
    return exp(mine - top) / sum;
}

/* The bids open to the seat of v, at most BARBU_MAX_ACTIONS. */
static int bids_open(const barbu_view *v, barbu_action legal[BARBU_MAX_ACTIONS])
{
    int n = barbu_view_legal(v, legal, BARBU_MAX_ACTIONS);
    return n > BARBU_MAX_ACTIONS ? BARBU_MAX_ACTIONS : n;
}

/*
 * How likely the bids made so far were, had the others held the hands this
 * deal gives them: each bid of another seat is replayed in its turn, on
 * the table as it was then (the bids before it, the doubles it owed), and
 * the heuristic's bid there is the model, followed with probability
 * 1 - bid_noise (else any legal bid).  A seat that doubled when the model
 * would not have with a weak hand is likely strong.  Where a seat doubled
 * the declarer and owes nothing now, whether that double was owed is not
 * shown: the likelier reading is taken.
 */
static double bid_factor(const barbu_view *v, double noise, unsigned dbl, unsigned rdbl)
{
    barbu_action legal[BARBU_MAX_ACTIONS];
    int n = bids_open(v, legal);
    if (n <= 1)
        return 1.0;
    int pick = bb_h_bid(v, legal, n);
    bool same = pick >= 0 && legal[pick].doubles == dbl && legal[pick].redoubles == rdbl;
    return same ? 1.0 - noise + noise / n : noise / n;
}

/*
 * The soft model of a bid: each double and redouble the seat could choose,
 * and not all its bids make, is taken to be made with probability
 * 1 / (1 + exp(-(gain - need) / T)), what the heuristic reads the seat to
 * gain over the target less what it wants for it, kept within
 * [BID_P_FLOOR, 1 - BID_P_FLOOR] so that no one bid rules a deal out.  The
 * heuristic's bids are the thresholds of this model (T = 0); a player that
 * bids by search does not bid so, but with a hand that suits the contract
 * better it doubles more often.
 */
#define BID_P_FLOOR 0.05

static double bid_soft_factor(const barbu_view *v, double temp, unsigned dbl, unsigned rdbl)
{
    barbu_action legal[BARBU_MAX_ACTIONS];
    int n = bids_open(v, legal);
    if (n <= 1)
        return 1.0;
    bb_bid_read rd;
    bb_h_bid_read(v, legal, n, &rd);
    double t = temp * rd.spread, f = 1.0;
    for (int s = 0; s < 4; s++) {
        for (int r = 0; r < 2; r++) {
            unsigned may = r ? rd.may_redouble : rd.may_double & ~rd.must;
            if (!((may >> s) & 1))
                continue;
            double need = r ? rd.need_redouble[s] : rd.need_double[s];
            double p = 1.0 / (1.0 + exp(-(rd.gain[s] - need) / t));
            p = p < BID_P_FLOOR ? BID_P_FLOOR : p > 1.0 - BID_P_FLOOR ? 1.0 - BID_P_FLOOR : p;
            f *= (((r ? rdbl : dbl) >> s) & 1) ? p : 1.0 - p;
        }
    }
    return f;
}

static double bid_likelihood(const search *x, const barbu_cards hands[4])
{
    const barbu_view *view = x->view;
    const barbu_table *t = &view->t;
    double noise = x->level->bid_noise / 1000.0;
    double temp = x->level->bid_temp / 1000.0;
    if ((temp <= 0.0 && (noise <= 0.0 || noise >= 1.0)) || view->rules->game == BARBU_GAME_FIFE ||
        t->bids == 0 || t->phase == BARBU_PHASE_DECLARE || t->contracts == 0 ||
        t->kind == BARBU_KIND_CHINESE)
        return 1.0;
    int decl = t->declarer;
    barbu_view v = *view;
    v.t.phase = BARBU_PHASE_BID;
    v.t.bids = 0;
    memset(v.t.dbl, 0, sizeof v.t.dbl);
    memset(v.t.rdbl, 0, sizeof v.t.rdbl);
    double w = 1.0;
    /* From the declarer's left round to the declarer. */
    for (int k = 1; k <= 4; k++) {
        int s = (decl + k) & 3;
        if (!((t->bids >> s) & 1))
            break;
        if (s != x->me) {
            v.seat = (int8_t)s;
            v.t.to_move = (int8_t)s;
            v.hand[s] = hands[s] | t->played[s];
            bool paid = (t->dbl[s] >> decl) & 1;
            v.t.owed[s][decl] = (uint8_t)(t->owed[s][decl] + (paid && t->owed[s][decl] > 0));
            double f = temp > 0.0 ? bid_soft_factor(&v, temp, t->dbl[s], t->rdbl[s])
                                  : bid_factor(&v, noise, t->dbl[s], t->rdbl[s]);
            if (paid && t->owed[s][decl] == 0) {
                v.t.owed[s][decl] = 1;
                double g = temp > 0.0 ? bid_soft_factor(&v, temp, t->dbl[s], t->rdbl[s])
                                      : bid_factor(&v, noise, t->dbl[s], t->rdbl[s]);
                f = g > f ? g : f;
            }
            w *= f;
            v.t.owed[s][decl] = t->owed[s][decl];
        }
        v.t.bids |= (uint8_t)(1u << s);
        v.t.dbl[s] = t->dbl[s];
        v.t.rdbl[s] = t->rdbl[s];
    }
    return w;
}

/* ------------------------------------------------------------ the search */

/* How likely what the table has shown was with these hands: the weight of
 * a sampled deal. */
static double deal_weight(const search *x, const barbu_cards hands[4])
{
    double plays = x->rec != NULL ? history_likelihood(x, hands) : trick_likelihood(x, hands);
    return plays * declare_likelihood(x, hands) * bid_likelihood(x, hands);
}

/* Keeps x->rec only where the level weights the tricks before the one under
 * way and the record replays the deal: a trick contract without Pass-ons
 * (which moved cards between the hands), every trick seen. */
static void use_record(search *x, const bb_record *rec)
{
    const barbu_table *t = &x->view->t;
    bool tricks = t->kind == BARBU_KIND_TRICKS || t->kind == BARBU_KIND_TRUMPS;
    x->rec = x->level->history > 0 && x->level->model != 0 && x->truth == NULL &&
                     t->phase == BARBU_PHASE_PLAY && tricks && t->n_pass_ons == 0 &&
                     record_whole(x->view, rec)
                 ? rec
                 : NULL;
    x->draw_cost = DRAW_COST;
    if (x->rec != NULL)
        x->draw_cost += (4L * x->rec->n + t->trick.n) * (x->level->model == 2 ? RULES_COST : 2);
}

double bb_expert_deal_weight(const bb_level *level, const barbu_view *view, const bb_record *rec,
                             const barbu_cards hands[4])
{
    search x;
    memset(&x, 0, sizeof x);
    x.level = level;
    x.view = view;
    x.me = view->seat;
    bb_h_know(view, &x.know);
    use_record(&x, rec);
    return deal_weight(&x, hands);
}

/* The state of deal i: sampled (or the truth), truncated to this deal. */
static int make_deal(const search *x, barbu_rng *rng, barbu_state *s, double *weight)
{
    *weight = 1.0;
    if (x->truth != NULL) {
        *s = *x->truth;
        barbu_truncate(s);
        return 1;
    }
    /* Sampling importance resampling: of `resample` deals drawn, one is
     * kept with a chance in proportion to its weight, and it stands for all
     * of them with their mean weight.  The play-outs then go to the deals
     * that fit what the table has shown. */
    int draws = x->level->resample > 1 ? x->level->resample : 1;
    barbu_cards hands[4], kept[4];
    double sum = 0.0;
    int made = 0;
    for (int d = 0; d < draws; d++) {
        if (!bb_h_deal_sample(&x->know, rng, hands))
            continue;
        double w = deal_weight(x, hands);
        made++;
        sum += w;
        /* Keep this one with chance w / sum: each drawn deal is then kept
         * in proportion to its weight. */
        if (made == 1 ||
            (sum > 0.0 && barbu_rng_below(rng, 1u << 30) < (uint32_t)(w / sum * (1u << 30))))
            memcpy(kept, hands, sizeof kept);
    }
    if (made == 0 || barbu_state_from_view(x->view, kept, s) != 0)
        return 0;
    barbu_truncate(s);
    *weight = sum / made;
    return 1;
}

/* The candidate that a deal is played out after, in EVAL_BID mode: the
 * loudest bid, so that a negative contract is played (x->loud). */

/*
 * The candidate bids on one deal.  The settlement is linear in the raw
 * scores and the raw scores hardly depend on the doubles, so the deal is
 * played out once, after the loudest bid; then for each candidate the rest
 * of the auction is played by the model (the heuristic's bids, on the hands
 * of this deal: a seat doubled may redouble, a later seat may double), and
 * the candidate is worth the settled score that auction gives with those
 * raw scores, or the shared-out score where nobody doubled a negative
 * contract (the engine ends that deal at once).
 */
static void eval_bids(search *x, const barbu_state *base, barbu_rng *rng, bb_solver *sv,
                      double *value, long *cost)
{
    barbu_state s = *base;
    if (barbu_apply(&s, &x->cand[x->loud]) != 0) {
        for (int c = 0; c < x->nc; c++)
            value[c] = 0.0;
        return;
    }
    *cost += rollout(x->level, &s, rng, x->me, sv);
    double raw[4];
    for (int seat = 0; seat < 4; seat++)
        raw[seat] = s.t.last.raw[seat];
    for (int c = 0; c < x->nc; c++) {
        barbu_state a = *base;
        int deal = a.t.deal, err = barbu_apply(&a, &x->cand[c]);
        while (err == 0 && a.t.deal == deal && !barbu_over(&a) && a.t.phase == BARBU_PHASE_BID) {
            barbu_view v;
            barbu_action bid;
            barbu_view_of(&a, a.t.to_move, &v);
            *cost += DECIDE_COST;
            err = bb_heuristic_choose(rng, &v, &bid);
            if (err == 0)
                err = barbu_apply(&a, &bid);
        }
        if (err != 0) {
            value[c] = 0.0;
        } else if (a.t.deal != deal || barbu_over(&a)) {
            /* Not played: the engine has settled it. */
            value[c] = a.t.last.score[x->me];
        } else {
            double v = raw[x->me];
            for (int b = 0; b < 4; b++)
                if (b != x->me)
                    v += barbu_business(a.t.dbl, a.t.rdbl, x->me, b) * (raw[x->me] - raw[b]);
            value[c] = v;
        }
    }
}

/* The candidates' values on deal i, into x->value[i]. */
static void eval_deal(search *x, int i, bb_solver *sv)
{
    barbu_rng rng;
    barbu_rng_seed(&rng, mix(x->seed, (uint64_t)i));
    double *value = x->value + (size_t)i * x->nc;
    barbu_state base;
    /* Drawing a deal and weighing it (the models' decisions on it). */
    x->cost[i] =
        x->draw_cost * (x->truth == NULL && x->level->resample > 1 ? x->level->resample : 1);
    if (!make_deal(x, &rng, &base, &x->weight[i])) {
        x->weight[i] = 0.0;
        return;
    }
    if (x->mode == EVAL_SOLVE) {
        barbu_cards cards;
        double v[BARBU_MAX_TRICKS];
        int iv[BARBU_MAX_TRICKS], n;
        unsigned long long nodes = bb_solver_nodes(sv);
        if (x->level->maxn) {
            n = bb_maxn_moves(sv, &base, x->me, &cards, v);
        } else {
            n = bb_solve_moves(sv, &base, x->me, &cards, iv);
            for (int k = 0; k < n; k++)
                v[k] = iv[k];
        }
        x->cost[i] += (long)(bb_solver_nodes(sv) - nodes) * SOLVER_NODE_COST;
        for (int c = 0; c < x->nc; c++) {
            value[c] = 0.0;
            int k = 0;
            for (barbu_cards m = cards; m && k < n; m &= m - 1, k++)
                if (x->cand[c].cards == (m & (~m + 1)))
                    value[c] = v[k];
        }
        return;
    }
    if (x->mode == EVAL_BID) {
        eval_bids(x, &base, &rng, sv, value, &x->cost[i]);
        return;
    }
    for (int c = 0; c < x->nc; c++) {
        barbu_state s = base;
        if (barbu_apply(&s, &x->cand[c]) != 0) {
            value[c] = 0.0;
            continue;
        }
        x->cost[i] += rollout(x->level, &s, &rng, x->me, sv);
        value[c] = s.t.last.score[x->me];
    }
}

typedef struct worker {
    search *x;
    bb_solver *sv;
    int first, end, step;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    for (int i = w->first; i < w->end; i += w->step)
        eval_deal(w->x, i, w->sv);
    return NULL;
}

/*
 * Evaluates deals in batches of BATCH, on up to `threads` threads, until
 * the work counted reaches the level's budget (or max_deals); x->deals is
 * then the number evaluated.  The batches do not depend on the threads, so
 * neither does the result, unless the solver's nodes count (hard's max^n
 * endings): a solve's nodes depend on what the thread's table kept from
 * the deals it solved before, so where the budget stops does too.
 */
#define BATCH 16

static void run(search *x, int threads)
{
    if (threads > BATCH)
        threads = BATCH;
    if (threads < 1)
        threads = 1;
    worker w[BATCH];
    pthread_t tid[BATCH];
    int started[BATCH] = {0};
    int solving = x->mode == EVAL_SOLVE || x->level->maxn_from > 0;
    for (int t = 0; t < threads; t++) {
        w[t] = (worker){x, solving ? bb_solver_new(SOLVER_TT_BITS) : NULL, 0, 0, threads};
        if (solving && w[t].sv == NULL)
            threads = t; /* no memory for more solvers */
    }
    int limit = x->deals, done = 0;
    long spent = 0;
    while (done < limit && threads > 0) {
        int end = done + BATCH < limit ? done + BATCH : limit;
        for (int t = 0; t < threads; t++) {
            w[t].first = done + t;
            w[t].end = end;
        }
        for (int t = 1; t < threads; t++)
            started[t] = pthread_create(&tid[t], NULL, work, &w[t]) == 0;
        work(&w[0]);
        /* A thread that could not start leaves its deals to this one. */
        for (int t = 1; t < threads; t++) {
            if (started[t])
                pthread_join(tid[t], NULL);
            else
                work(&w[t]);
        }
        for (int i = done; i < end; i++)
            spent += x->cost[i];
        done = end;
        /* Another batch only if it fits in the budget at the mean cost so
         * far, once the floor is reached. */
        if (done >= x->level->min_deals && spent + spent / done * BATCH > x->level->budget)
            break;
    }
    for (int t = 0; t < BATCH && t < (threads > 0 ? threads : 0); t++)
        bb_solver_free(w[t].sv);
    x->deals = done;
}

/* The index of the best candidate by weighted mean, with the mean of each
 * into mean[] (may be NULL). */
static int best_candidate(const search *x, const double *bonus, double *mean)
{
    int best = -1;
    double best_v = -1e300;
    for (int c = 0; c < x->nc; c++) {
        double sum = 0.0, wsum = 0.0;
        for (int i = 0; i < x->deals; i++) {
            sum += x->weight[i] * x->value[(size_t)i * x->nc + c];
            wsum += x->weight[i];
        }
        double m = wsum > 0 ? sum / wsum : 0.0;
        if (bonus)
            m += bonus[c];
        if (mean)
            mean[c] = m;
        if (m > best_v + 1e-9) {
            best_v = m;
            best = c;
        }
    }
    return best;
}

/* The most deals a decision may evaluate. */
static void size_search(search *x)
{
    const barbu_table *t = &x->view->t;
    bool layout = t->kind == BARBU_KIND_DOMINO || t->kind == BARBU_KIND_PATIENCE;
    x->deals =
        layout && t->phase == BARBU_PHASE_PLAY ? x->level->layout_deals : x->level->max_deals;
    /* The true deal played out by the rules alone gives the same values
     * every time (a layout's play-outs have their share of chance). */
    if (x->truth != NULL && x->level->noise == 0 && !layout)
        x->deals = 1;
}

static int alloc_search(search *x)
{
    x->value = malloc(sizeof *x->value * (size_t)x->deals * (size_t)x->nc);
    x->weight = malloc(sizeof *x->weight * (size_t)x->deals);
    x->cost = malloc(sizeof *x->cost * (size_t)x->deals);
    return x->value != NULL && x->weight != NULL && x->cost != NULL;
}

static void free_search(search *x)
{
    free(x->value);
    free(x->weight);
    free(x->cost);
}

/* ------------------------------------------------------------ card play */

static int choose_play(search *x, int threads, const barbu_action *legal, int n)
{
    const bb_know *k = &x->know;
    /* Single cards that play alike are one candidate (the lowest). */
    for (int i = 0; i < n && x->nc < MAX_CAND; i++) {
        const barbu_action *a = &legal[i];
        int dup = 0;
        if (a->type == BARBU_ACT_PLAY && barbu_count(a->cards) == 1 && x->truth == NULL &&
            k->t->kind != BARBU_KIND_DOMINO && k->t->kind != BARBU_KIND_PATIENCE) {
            int card = bb_h_lowest(a->cards);
            for (int c = 0; c < x->nc && !dup; c++)
                dup = x->cand[c].type == BARBU_ACT_PLAY && barbu_count(x->cand[c].cards) == 1 &&
                      alike(k, bb_h_lowest(x->cand[c].cards), card);
        }
        if (!dup)
            x->cand[x->nc++] = *a;
    }
    if (x->nc == 1)
        return 0;
    /* Near the end of a trick contract, every deal is solved exactly. */
    x->mode = EVAL_ROLLOUT;
    if (k->t->in_hand[x->me] <= x->level->solve_from) {
        barbu_rng rng;
        barbu_state probe;
        double w;
        barbu_rng_seed(&rng, x->seed);
        if (make_deal(x, &rng, &probe, &w) && bb_solver_fits(&probe))
            x->mode = EVAL_SOLVE;
    }
    size_search(x);
    if (!alloc_search(x))
        return -1;
    run(x, threads);
    int best = best_candidate(x, NULL, x->means);
    free_search(x);
    return best;
}

/* ------------------------------------------------------------ declaring */

/*
 * Plays the candidates out on sampled deals and returns the one with the
 * best mean plus its bonus; the candidate keep (the heuristic's own choice,
 * or -1 for none) stands unless another beats it by the level's
 * declare_margin, a share of a contract's mean points, so that the noise of
 * the play-outs does not move it.  -1 if memory runs out.
 */
static int choose_over(search *x, int threads, const double *bonus, int keep)
{
    x->mode = EVAL_ROLLOUT;
    size_search(x);
    if (!alloc_search(x))
        return -1;
    run(x, threads);
    double mean[MAX_CAND];
    int best = best_candidate(x, bonus, mean);
    free_search(x);
    if (x->means)
        memcpy(x->means, mean, sizeof *mean * (size_t)x->nc);
    double margin = x->level->declare_margin / 100.0 * mean_points(x->view->rules);
    if (keep >= 0 && mean[best] - mean[keep] < margin)
        return keep;
    return best;
}

/* A declaration's variants (trump suit, start rank): the two the hand
 * estimates best are searched. */
#define DECLARE_VARIANTS 2

static int choose_declare(search *x, int threads, const barbu_action *legal, int n)
{
    const barbu_rules *rules = x->view->rules;
    barbu_cards hand = x->know.hand;
    double bonus[MAX_CAND];
    for (int c = 0; c < rules->n_contracts; c++) {
        int idx[BARBU_MAX_ACTIONS], ni = 0;
        double est[BARBU_MAX_ACTIONS];
        for (int i = 0; i < n; i++)
            if (legal[i].type == BARBU_ACT_DECLARE && legal[i].contracts == (1u << c)) {
                est[ni] = bb_h_estimate(rules, c, hand, legal[i].trump, legal[i].rank, 1);
                idx[ni++] = i;
            }
        for (int v = 0; v < DECLARE_VARIANTS && v < ni && x->nc < MAX_CAND; v++) {
            int top = v;
            for (int j = v + 1; j < ni; j++)
                if (est[j] > est[top])
                    top = j;
            double e = est[top];
            int t = idx[top];
            est[top] = est[v];
            idx[top] = idx[v];
            est[v] = e;
            idx[v] = t;
            /* Declaring it now gives up declaring it with a later hand. */
            bonus[x->nc] = -bb_h_baseline(rules, c);
            x->cand[x->nc++] = legal[idx[v]];
        }
    }
    /* The heuristic's own choice is always a candidate, and it stands
     * unless the search finds something clearly better. */
    int h = bb_h_declare(x->view, legal, n), hc = -1;
    for (int c = 0; c < x->nc && h >= 0; c++)
        if (barbu_action_equal(&x->cand[c], &legal[h]))
            hc = c;
    if (h >= 0 && hc < 0 && x->nc < MAX_CAND) {
        bonus[x->nc] = 0.0;
        for (unsigned m = legal[h].contracts; m; m &= m - 1)
            bonus[x->nc] -= bb_h_baseline(rules, __builtin_ctz(m));
        hc = x->nc;
        x->cand[x->nc++] = legal[h];
    }
    /* An analysis weighs the declaration the player chose, as any other. */
    if (x->also != NULL && !is_candidate(x, x->also) && x->nc < MAX_CAND) {
        bonus[x->nc] = 0.0;
        for (unsigned m = x->also->contracts; m; m &= m - 1)
            bonus[x->nc] -= bb_h_baseline(rules, __builtin_ctz(m));
        x->cand[x->nc++] = *x->also;
    }
    if (x->nc == 0)
        return -1;
    if (x->nc == 1)
        return 0;
    return choose_over(x, threads, bonus, hc);
}

/*
 * The Fife game's Calls (seed 000): the Caller's plan (bb_h_fife_plan)
 * judges each choice by the estimate of its Calls with this hand plus the
 * worth of the Calls it leaves for the Round's later deals.  The expert
 * keeps the plan's worth of what is left, but plays the deal out on sampled
 * deals for the choices the plan rates best, instead of the estimate; the
 * plan's own choice stands unless another is clearly better.
 */
#define FIFE_CALL_CANDIDATES 4

static int choose_fife_calls(search *x, int threads, const barbu_action *legal, int n)
{
    double now[BARBU_MAX_ACTIONS], rest[BARBU_MAX_ACTIONS];
    int h = bb_h_fife_plan(x->view, legal, n, now, rest);
    if (h < 0)
        return -1;
    int idx[FIFE_CALL_CANDIDATES];
    double bonus[MAX_CAND];
    x->nc = 0;
    /* The plan's choice first, then its runners-up. */
    idx[x->nc++] = h;
    while (x->nc < FIFE_CALL_CANDIDATES) {
        int top = -1;
        for (int i = 0; i < n; i++) {
            bool taken = false;
            for (int c = 0; c < x->nc; c++)
                taken |= idx[c] == i;
            if (!taken && legal[i].type == BARBU_ACT_DECLARE && rest[i] > -1e9 &&
                (top < 0 || now[i] + rest[i] > now[top] + rest[top]))
                top = i;
        }
        if (top < 0)
            break;
        idx[x->nc++] = top;
    }
    for (int c = 0; c < x->nc; c++) {
        x->cand[c] = legal[idx[c]];
        bonus[c] = rest[idx[c]];
    }
    /* An analysis weighs the Calls the player chose, as any other. */
    for (int i = 0; i < n && x->also != NULL && !is_candidate(x, x->also); i++)
        if (barbu_action_equal(&legal[i], x->also)) {
            x->cand[x->nc] = legal[i];
            bonus[x->nc++] = rest[i];
        }
    if (x->nc == 1)
        return 0;
    return choose_over(x, threads, bonus, 0);
}

/* ------------------------------------------------------------ doubling */

/*
 * Doubles and redoubles: every legal bid is a candidate, judged on sampled
 * deals by the settled score it leads to (eval_bids).  Each double or
 * redouble beyond those owed now must clear a margin, since the play-outs'
 * raw scores are a model's.
 */
static int choose_bid(search *x, int threads, const barbu_action *legal, int n)
{
    const barbu_view *view = x->view;
    const barbu_rules *rules = view->rules;
    const barbu_table *t = &view->t;
    int loud = 0;
    for (int i = 1; i < n; i++)
        if (barbu_count(legal[i].doubles | (uint64_t)legal[i].redoubles << 8) >
            barbu_count(legal[loud].doubles | (uint64_t)legal[loud].redoubles << 8))
            loud = i;
    x->nc = n < MAX_CAND ? n : MAX_CAND;
    for (int c = 0; c < x->nc; c++)
        x->cand[c] = legal[c];
    x->loud = loud < x->nc ? loud : 0;
    x->mode = EVAL_BID;
    size_search(x);
    if (!alloc_search(x))
        return -1;
    run(x, threads);
    double spread = 0.0, bonus[MAX_CAND];
    for (unsigned m = t->contracts; m; m &= m - 1)
        spread += abs(barbu_contract_total(rules, __builtin_ctz(m)));
    unsigned owed_now = view->compulsory ? 1u << t->declarer : 0u;
    double push =
        view->compulsory ? 0.0 : bb_h_owed_push(view, x->level->owed_push / 100.0 * spread);
    for (int c = 0; c < x->nc; c++) {
        bonus[c] = -x->level->bid_margin / 100.0 * spread *
                   barbu_count((uint64_t)(x->cand[c].doubles & ~owed_now) |
                               (uint64_t)x->cand[c].redoubles << 8);
        if ((x->cand[c].doubles >> t->declarer) & 1)
            bonus[c] += push;
    }
    int best = best_candidate(x, bonus, NULL);
    /* An analysis reads each bid's expected settled score: the margin a
     * double must clear moves the choice, not what the bid is worth. */
    if (x->means)
        best_candidate(x, NULL, x->means);
    free_search(x);
    return best;
}

/* ------------------------------------------------------------ the entry */

/* What the search weighed, for an analysis: its candidates and their means
 * (with a declaration's or Calls' bonus, without a bid's margin), and for each single card the
 * legal cards that play alike to it (it stood for them). */
static void estimates_fill(const search *x, const barbu_action *legal, int n, int pick,
                           bb_estimates *est)
{
    est->n = x->nc;
    est->pick = pick;
    est->searched = x->nc > 1;
    est->solved = x->mode == EVAL_SOLVE;
    for (int c = 0; c < x->nc; c++) {
        est->cand[c] = x->cand[c];
        /* A card stands for itself; a layout's play of several cards
         * stands for no single card. */
        bool card = x->cand[c].type == BARBU_ACT_PLAY && barbu_count(x->cand[c].cards) == 1;
        est->alike[c] = card ? x->cand[c].cards : 0;
    }
    for (int i = 0; i < n; i++) {
        if (legal[i].type != BARBU_ACT_PLAY || barbu_count(legal[i].cards) != 1 ||
            is_candidate(x, &legal[i]))
            continue;
        int card = bb_h_lowest(legal[i].cards);
        for (int c = 0; c < x->nc; c++)
            if (x->cand[c].type == BARBU_ACT_PLAY && barbu_count(x->cand[c].cards) == 1 &&
                alike(&x->know, bb_h_lowest(x->cand[c].cards), card)) {
                est->alike[c] |= legal[i].cards;
                break;
            }
    }
}

/* The decision, and with est (may be NULL) what the search weighed. */
static int expert_decide(const bb_level *level, int threads, barbu_rng *rng, const barbu_view *view,
                         const bb_record *rec, const barbu_state *truth, const barbu_action *legal,
                         int n, barbu_action *out, bb_estimates *est)
{
    int phase = view->t.phase;
    int layout = view->t.kind == BARBU_KIND_DOMINO || view->t.kind == BARBU_KIND_PATIENCE;
    bool fife = view->rules->game == BARBU_GAME_FIFE;
    if ((phase == BARBU_PHASE_PLAY && layout && !level->layouts) || phase == BARBU_PHASE_ARRANGE ||
        phase == BARBU_PHASE_PASS_ON || phase == BARBU_PHASE_CUT ||
        (phase == BARBU_PHASE_DECLARE && fife && !level->fife_calls))
        return bb_heuristic_choose_from(rng, view, legal, n, out);
    if (n <= 0)
        return BARBU_EPHASE;
    if (n == 1) {
        *out = legal[0];
        return 0;
    }
    if (phase == BARBU_PHASE_PLAY && level->ismcts && truth == NULL && est == NULL) {
        int i = bb_ismcts_play(level, rng, view, legal, n);
        if (i >= 0 && i < n) {
            *out = legal[i];
            return 0;
        }
    }
    search x;
    memset(&x, 0, sizeof x);
    x.level = level;
    x.view = view;
    x.truth = truth;
    x.me = view->seat;
    x.seed = barbu_rng_next(rng);
    bb_h_know(view, &x.know);
    use_record(&x, rec);
    if (est != NULL) {
        x.means = est->value;
        x.also = est->also;
        for (int c = 0; c < MAX_CAND; c++)
            est->value[c] = 0.0;
    }
    int pick = -1;
    if (phase == BARBU_PHASE_PLAY)
        pick = choose_play(&x, threads, legal, n);
    else if (phase == BARBU_PHASE_DECLARE && fife)
        pick = choose_fife_calls(&x, threads, legal, n);
    else if (phase == BARBU_PHASE_DECLARE)
        pick = choose_declare(&x, threads, legal, n);
    else if (phase == BARBU_PHASE_BID)
        pick = choose_bid(&x, threads, legal, n);
    if (pick < 0 || pick >= x.nc)
        return bb_heuristic_choose_from(rng, view, legal, n, out);
    *out = x.cand[pick];
    if (est != NULL)
        estimates_fill(&x, legal, n, pick, est);
    return 0;
}

int bb_expert_choose_from(const bb_level *level, int threads, barbu_rng *rng,
                          const barbu_view *view, const bb_record *rec, const barbu_state *truth,
                          const barbu_action *legal, int n, barbu_action *out)
{
    return expert_decide(level, threads, rng, view, rec, truth, legal, n, out, NULL);
}

int bb_expert_estimate(const bb_level *level, int threads, barbu_rng *rng, const barbu_view *view,
                       const bb_record *rec, bb_estimates *est)
{
    est->n = 0;
    est->pick = -1;
    if (view->t.phase == BARBU_PHASE_ARRANGE)
        return BARBU_EPHASE;
    barbu_action legal[BARBU_MAX_ACTIONS], out;
    int n = bb_legal_actions(view, legal);
    if (n < 0)
        return n;
    return expert_decide(level, threads, rng, view, rec, NULL, legal, n, &out, est);
}

int bb_expert_choose(const bb_level *level, int threads, barbu_rng *rng, const barbu_view *view,
                     const bb_record *rec, const barbu_state *truth, barbu_action *out)
{
    if (view->t.phase == BARBU_PHASE_ARRANGE)
        return bb_heuristic_choose(rng, view, out);
    barbu_action legal[BARBU_MAX_ACTIONS];
    int n = bb_legal_actions(view, legal);
    if (n < 0)
        return n;
    return bb_expert_choose_from(level, threads, rng, view, rec, truth, legal, n, out);
}
