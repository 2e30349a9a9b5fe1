/*
 * heuristic_fife.c - the heuristic player at the Fife game of seed 000: the
 * Patience, the Silly Round's Pass-ons and the Caller's plan of a Player
 * Round.  The tricks of the negative Calls are played as any negative
 * contract (heuristic_play.c): a combined Call's tables are the sums of its
 * parts', so every penalty card of the deal counts.
 *
 * The Patience is the layout from the Jacks, where a player must play when
 * a card fits, goes out on a run or a rank at the end of a Player Round and
 * plays such groups at any time in the Silly Round.  It is a race in which
 * every choice is small and its effects far off (a card kept back blocks a
 * suit for everyone), so the player plays each candidate out on sampled
 * deals, every seat following a simple policy, and keeps the one with the
 * best mean score.
 *
 * The Pass-ons and the Calls rest on the estimate of what a hand scores at
 * each Call (bb_h_fife_estimate in heuristic_bid.c).
 */
#include <float.h>
#include <string.h>

#include "internal.h"

/* The cards of one rank. */
static barbu_cards rank_cards(int rank)
{
    barbu_cards set = 0;
    for (int suit = 0; suit < 4; suit++)
        set |= BARBU_BIT(BARBU_CARD(suit, rank));
    return set;
}

/* The run of held cards from a card outwards, up (dir 1) or down (-1). */
static barbu_cards run_from(const barbu_rules *r, barbu_cards hand, int card, int dir)
{
    barbu_cards run = 0;
    int suit = BARBU_SUIT(card);
    for (int rank = BARBU_RANK(card); rank != 0;
         rank = dir > 0 ? bb_h_step_up(r, rank) : bb_h_step_down(r, rank)) {
        barbu_cards bit = BARBU_BIT(BARBU_CARD(suit, rank));
        if (!(hand & bit))
            break;
        run |= bit;
    }
    return run;
}

/* The cards a fitting card can take down with it: the held run from it
 * away from the layout (both ways from the Jack of a suit not started), or
 * the other fitting cards of its rank; the larger of the two. */
static barbu_cards group_of(const barbu_rules *r, const barbu_table *t, barbu_cards hand,
                            barbu_cards fits, int card)
{
    int suit = BARBU_SUIT(card), rank = BARBU_RANK(card);
    barbu_cards run;
    if (t->lo[suit] == 0)
        run = run_from(r, hand, card, 1) | run_from(r, hand, card, -1);
    else
        run = run_from(r, hand, card, rank == bb_h_step_up(r, t->hi[suit]) ? 1 : -1);
    barbu_cards same = fits & rank_cards(rank);
    return barbu_count(same) > barbu_count(run) ? same : run;
}

/*
 * The group the play-out policy puts down, or 0 to play one card: the whole
 * hand when it can go out at once; in the Silly Round the largest group
 * (cards down together are turns saved).
 */
static barbu_cards policy_group(const barbu_rules *r, const barbu_table *t, barbu_cards hand,
                                barbu_cards fits)
{
    if (barbu_count(hand) < 2)
        return 0;
    int silly = t->round == BARBU_SILLY_ROUND;
    barbu_cards best = 0;
    for (barbu_cards f = fits; f; f &= f - 1) {
        barbu_cards g = group_of(r, t, hand, fits, bb_h_lowest(f));
        if (g == hand)
            return hand;
        if (silly && barbu_count(g) > barbu_count(best))
            best = g;
    }
    return barbu_count(best) >= 2 ? best : 0;
}

/* Whether the next card beyond a fitting one, away from the layout, is
 * held: playing it then opens a card of one's own. */
static int opens_own(const barbu_rules *r, const barbu_table *t, barbu_cards hand, int card)
{
    int suit = BARBU_SUIT(card), rank = BARBU_RANK(card);
    int up = bb_h_step_up(r, rank), down = bb_h_step_down(r, rank);
    int held_up = up && (hand >> BARBU_CARD(suit, up)) & 1;
    int held_down = down && (hand >> BARBU_CARD(suit, down)) & 1;
    if (t->lo[suit] == 0)
        return held_up || held_down;
    return rank == bb_h_step_up(r, t->hi[suit]) ? held_up : held_down;
}

/* One move of the play-out policy: a group where one goes, else a fitting
 * card, three times likelier when it opens one of the player's own; a pass
 * when nothing fits.  (A policy that always plays the card opening most of
 * its own and fewest of the others' judged no better.) */
static void patience_step(barbu_state *s, barbu_rng *rng)
{
    const barbu_rules *r = s->rules;
    int seat = s->t.to_move;
    barbu_cards hand = s->hand[seat], fits = barbu_playable(s);
    if (fits == 0) {
        barbu_play_random(s, rng);
        return;
    }
    barbu_cards g = policy_group(r, &s->t, hand, fits);
    if (g) {
        barbu_action a = barbu_act(BARBU_ACT_PLAY, seat);
        a.cards = g;
        if (barbu_apply(s, &a) == 0)
            return;
    }
    int cards[BARBU_MAX_TRICKS], weight[BARBU_MAX_TRICKS], n = 0, total = 0;
    for (barbu_cards f = fits; f && n < BARBU_MAX_TRICKS; f &= f - 1) {
        cards[n] = bb_h_lowest(f);
        weight[n] = opens_own(r, &s->t, hand, cards[n]) ? 3 : 1;
        total += weight[n++];
    }
    int x = (int)barbu_rng_below(rng, (uint32_t)total), i = 0;
    while (x >= weight[i])
        x -= weight[i++];
    barbu_play(s, (barbu_card)cards[i]);
}

void bb_h_playout(const bb_policy *x, barbu_state *s, barbu_rng *rng)
{
    while (!barbu_over(s)) {
        if (s->t.kind == BARBU_KIND_PATIENCE || s->t.kind == BARBU_KIND_DOMINO)
            patience_step(s, rng);
        else
            barbu_play(s, (barbu_card)bb_h_policy_card(x, s, barbu_playable(s)));
    }
}

/* Plays per decision, shared among the candidates and the sampled deals. */
#define PATIENCE_BUDGET   24000
#define PATIENCE_SAMPLES  48
#define PATIENCE_MIN      8
#define PATIENCE_MAX_CAND 32

int bb_h_patience(const bb_know *k, const barbu_action *legal, int n, barbu_rng *rng,
                  const double *prior)
{
    int cand[PATIENCE_MAX_CAND], nc = 0;
    for (int i = 0; i < n; i++) {
        if (legal[i].type != BARBU_ACT_PLAY)
            continue;
        /* Out at once: nothing can do better. */
        if (legal[i].cards == k->hand)
            return i;
        if (nc < PATIENCE_MAX_CAND)
            cand[nc++] = i;
    }
    if (nc <= 1)
        return nc ? cand[0] : -1;
    const barbu_table *t = k->t;
    int left = 0;
    for (int seat = 0; seat < 4; seat++)
        left += t->in_hand[seat];
    int plays = nc * (left * 3 / 2 + 4);
    int want = PATIENCE_BUDGET / plays;
    want = want > PATIENCE_SAMPLES ? PATIENCE_SAMPLES : want < PATIENCE_MIN ? PATIENCE_MIN : want;
    bb_policy x;
    bb_h_policy_init(&x, k->rules, t->contracts);
    double total[PATIENCE_MAX_CAND] = {0};
    int samples = 0;
    for (int i = 0; i < want; i++) {
        barbu_cards hands[4];
        barbu_state base;
        if (!bb_h_deal_sample(k, rng, hands) || barbu_state_from_view(k->view, hands, &base) != 0)
            continue;
        barbu_truncate(&base);
        samples++;
        /* Every candidate meets the same deal and the same later choices. */
        uint64_t seed = barbu_rng_next(rng);
        for (int c = 0; c < nc; c++) {
            barbu_state s = base;
            barbu_rng r;
            barbu_rng_seed(&r, seed);
            if (barbu_apply(&s, &legal[cand[c]]) != 0)
                continue;
            bb_h_playout(&x, &s, &r);
            total[c] += s.t.last.score[k->me];
        }
    }
    if (samples == 0)
        return -1;
    int best = 0;
    double best_score = -DBL_MAX;
    for (int c = 0; c < nc; c++) {
        /* The rule of thumb breaks near ties. */
        double score = total[c] / samples + (prior ? prior[cand[c]] : 0.0);
        if (score > best_score) {
            best_score = score;
            best = c;
        }
    }
    return cand[best];
}

/* ------------------------------------------------------------- Pass-ons */

/*
 * How much a card hurts its holder at the Calls likely in the deal, for
 * the quick choice of Pass-ons made for the other seats on sampled deals,
 * and for sorting my own candidates: at the negative Calls the tricks it
 * may win and the penalty it may take (seed 000, Tactics 3), at a Patience
 * how many other cards must come down before it can (a terminal far from
 * its Jack).
 */
typedef struct pass_weights {
    bb_tables tab;   /* the negative Calls' tables, each weighted by its odds */
    double trick;    /* the mean cost of a trick */
    double patience; /* the odds of a Patience, counting a Double twice */
    double place;    /* the points a place is worth at a Patience */
} pass_weights;

static void pass_weights_init(const barbu_rules *rules, const double odds[BARBU_CALLS],
                              pass_weights *w)
{
    bb_tables one;
    memset(w, 0, sizeof *w);
    barbu_cards deck = bb_h_deck(rules);
    int tricks = barbu_rules_hand_size(rules);
    double total = 0.0;
    for (int c = 0; c < BARBU_CALLS; c++) {
        if (odds[c] <= 0.0)
            continue;
        const barbu_contract *k = &rules->contract[c];
        if (k->kind == BARBU_KIND_PATIENCE) {
            w->patience += odds[c];
            w->place = (k->place[0] - k->place[3]) / 3.0;
            continue;
        }
        bb_h_tables(rules, 1u << c, &one);
        w->tab.per_trick += (int)(odds[c] * one.per_trick);
        for (barbu_cards d = deck; d; d &= d - 1)
            w->tab.card[bb_h_lowest(d)] += (int)(odds[c] * one.card[bb_h_lowest(d)]);
        total += odds[c] * one.total;
    }
    w->trick = -total / tricks;
}

static double card_danger(const barbu_rules *rules, const pass_weights *w, barbu_cards hand, int x)
{
    barbu_cards out = bb_h_deck(rules) & ~hand;
    double d = 0.0;
    if (w->trick > 0.0) {
        double p = bb_h_p_eventual(out, hand, x);
        int pen = -w->tab.card[x];
        d += p * w->trick + pen * (p > 0.3 ? p : 0.3);
    }
    if (w->patience > 0.0) {
        /* The others' cards between the Jack and it. */
        int suit = BARBU_SUIT(x), rank = BARBU_RANK(x), gap = 0;
        int dir = rank > BARBU_JACK ? -1 : 1;
        for (int r = rank + dir; r != BARBU_JACK + dir && rank != BARBU_JACK; r += dir)
            gap += !((hand >> BARBU_CARD(suit, r)) & 1);
        d += w->patience * w->place * 0.5 * gap;
    }
    return d;
}

/* The three cards another seat passes on a sampled deal: its most
 * dangerous ones.  (Three cards at random did as well over the Silly
 * Rounds of 2,000 games: which cards come back matters little to the
 * choice.) */
static barbu_cards quick_pass(const barbu_rules *rules, const pass_weights *w, barbu_cards hand)
{
    double d[64];
    for (barbu_cards h = hand; h; h &= h - 1)
        d[bb_h_lowest(h)] = card_danger(rules, w, hand, bb_h_lowest(h));
    barbu_cards pass = 0;
    for (int i = 0; i < 3; i++) {
        int best = -1;
        for (barbu_cards h = hand & ~pass; h; h &= h - 1) {
            int x = bb_h_lowest(h);
            if (best < 0 || d[x] > d[best])
                best = x;
        }
        pass |= BARBU_BIT(best);
    }
    return pass;
}

/*
 * The Pass-on is judged by the Call estimates (bb_h_fife_estimate) of the
 * hand it leaves, weighted by each Call's odds, with the three cards that
 * come back: on sampled deals, those the passing seat would pass by the
 * quick rule.  (Play-outs of the whole deal with the simple policy, tried
 * too, judged worse: it plays Hearts unlike the players it stands for.)
 */
#define PASS_CANDIDATES 24
#define PASS_SAMPLES    16
/* The worth of a void made by the pass, in units of a trick's cost, for
 * sorting the candidates. */
#define PASS_VOID       0.5

/* The candidates: the passes whose cards hurt most, a void counted, up to
 * max of them into cand (indices into legal), most first; how many (0 when
 * max is 0 or less). */
static int pass_candidates(const bb_know *k, const barbu_rules *rules, const pass_weights *w,
                           const barbu_action *legal, int n, int *cand, int max)
{
    int nc = 0;
    double sort[PASS_CANDIDATES];
    if (max > PASS_CANDIDATES)
        max = PASS_CANDIDATES;
    /* None asked, none given (the sorting below needs room for one). */
    if (max < 1)
        return 0;
    double d[64];
    for (barbu_cards h = k->hand; h; h &= h - 1)
        d[bb_h_lowest(h)] = card_danger(rules, w, k->hand, bb_h_lowest(h));
    for (int i = 0; i < n; i++) {
        if (legal[i].type != BARBU_ACT_PASS_ON)
            continue;
        double s = 0.0;
        for (barbu_cards c = legal[i].cards; c; c &= c - 1)
            s += d[bb_h_lowest(c)];
        for (int suit = 0; suit < 4; suit++)
            if (bb_h_len(k->hand, suit) && !bb_h_len(k->hand & ~legal[i].cards, suit))
                s += PASS_VOID * w->trick;
        int at = nc < max ? nc++ : max;
        if (at == max) {
            if (s <= sort[max - 1])
                continue;
            at = max - 1;
        }
        while (at > 0 && sort[at - 1] < s) {
            sort[at] = sort[at - 1];
            cand[at] = cand[at - 1];
            at--;
        }
        sort[at] = s;
        cand[at] = i;
    }
    return nc;
}

barbu_cards bb_h_quick_pass(const barbu_view *view)
{
    double odds[BARBU_CALLS];
    barbu_call_odds(view->rules, &view->t, odds);
    pass_weights w;
    pass_weights_init(view->rules, odds, &w);
    return quick_pass(view->rules, &w, view->hand[view->seat]);
}

int bb_h_pass_candidates(const barbu_view *view, const barbu_action *legal, int n, int *cand,
                         int max)
{
    bb_know k;
    bb_h_know(view, &k);
    double odds[BARBU_CALLS];
    barbu_call_odds(view->rules, &view->t, odds);
    pass_weights w;
    pass_weights_init(view->rules, odds, &w);
    return pass_candidates(&k, view->rules, &w, legal, n, cand, max);
}

int bb_h_pass_on(barbu_rng *rng, const barbu_view *view, const barbu_action *legal, int n)
{
    bb_know k;
    bb_h_know(view, &k);
    const barbu_rules *rules = view->rules;
    const barbu_table *t = &view->t;
    double odds[BARBU_CALLS];
    barbu_call_odds(rules, t, odds);
    pass_weights w;
    pass_weights_init(rules, odds, &w);

    int cand[PASS_CANDIDATES];
    int nc = pass_candidates(&k, rules, &w, legal, n, cand, PASS_CANDIDATES);
    if (nc <= 1)
        return nc ? cand[0] : -1;

    int from = (k.me + 4 - t->pass_dir) & 3;
    double total[PASS_CANDIDATES] = {0};
    int samples = 0;
    for (int i = 0; i < PASS_SAMPLES; i++) {
        barbu_cards hands[4];
        if (!bb_h_deal_sample(&k, rng, hands))
            continue;
        barbu_cards back = quick_pass(rules, &w, hands[from]);
        samples++;
        for (int c = 0; c < nc; c++) {
            barbu_cards after = (k.hand & ~legal[cand[c]].cards) | back;
            for (int call = 0; call < BARBU_CALLS; call++)
                if (odds[call] > 0.0)
                    total[c] += odds[call] * bb_h_fife_estimate(rules, call, after);
        }
    }
    if (samples == 0)
        return cand[0];
    int best = 0;
    for (int c = 1; c < nc; c++)
        if (total[c] > total[best] + 1e-9)
            best = c;
    return cand[best];
}

/* ------------------------------------------------ the Caller's plan */

/*
 * A Player Round's Calls are played within five deals, each with a new
 * hand (seed 000, rule 9).  The Caller plans the Round: the Calls chosen now
 * are worth their estimates for this hand, and the Calls left are worth what
 * the best choices will make of them with hands yet to come.  That worth,
 * V(left, deals done), is the mean over a fixed sample of random hands of
 * the best choice's estimates plus the worth of what it leaves: a small
 * dynamic programme over the subsets of the seven Calls.  Combined Calls
 * are taken to score the sum of their parts.
 */
#define PLAN_HANDS 128
#define PLAN_DEALS 5
#define PLAN_SEED  UINT64_C(0x46696665) /* "Fife" */
#define PLAN_NEVER (-1e9)

/*
 * What a Caller loses in a combination of negative Calls beyond the sum of
 * its parts: each Call beyond a Double costs this share of the mean total
 * of the Calls combined (in self-play, The Lot chosen by the plan scored 6.6
 * points below the sum of its estimates, a Treble 2.9, a Double nothing).
 */
#define PLAN_COMBINED 0.026

/* The sums of a hand's Call values over every set of Calls (floats: a
 * plan holds them for PLAN_HANDS hands), less the cost of combining. */
static void subset_sums(const double value[BARBU_CALLS], const double combined[1u << BARBU_CALLS],
                        float sums[1u << BARBU_CALLS])
{
    sums[0] = 0.0f;
    for (unsigned m = 1; m < (1u << BARBU_CALLS); m++)
        sums[m] = sums[m & (m - 1)] + (float)value[__builtin_ctz(m)];
    for (unsigned m = 1; m < (1u << BARBU_CALLS); m++)
        sums[m] += (float)combined[m];
}

/* The cost of combining each set of negative Calls. */
static void combined_costs(const barbu_rules *rules, double combined[1u << BARBU_CALLS])
{
    for (unsigned m = 0; m < (1u << BARBU_CALLS); m++) {
        int k = __builtin_popcount(m);
        combined[m] = 0.0;
        if ((m & BARBU_CALLS_PATIENCE) || k <= 2)
            continue;
        double total = 0.0;
        for (unsigned x = m; x; x &= x - 1)
            total += barbu_contract_total(rules, __builtin_ctz(x));
        combined[m] = PLAN_COMBINED * (k - 2) * total / k;
    }
}

/* The estimate of each Call for a hand. */
static void fife_values(const barbu_rules *rules, barbu_cards hand, double value[BARBU_CALLS])
{
    for (int c = 0; c < BARBU_CALLS; c++)
        value[c] = bb_h_fife_estimate(rules, c, hand);
}

int bb_h_fife_plan(const barbu_view *view, const barbu_action *legal, int n, double *now,
                   double *rest_of)
{
    const barbu_rules *rules = view->rules;
    const barbu_table *t = &view->t;
    unsigned left = BARBU_CALLS_ALL & ~t->calls_done;
    int done = t->round_deal;
    if (done >= PLAN_DEALS)
        done = PLAN_DEALS - 1;
    double combined[1 << BARBU_CALLS];
    combined_costs(rules, combined);
    /* worth[d][S]: the Calls S left after d deals. */
    static const int SETS = 1 << BARBU_CALLS;
    double worth[PLAN_DEALS + 1][1 << BARBU_CALLS];
    for (int d = 0; d <= PLAN_DEALS; d++)
        for (int m = 0; m < SETS; m++)
            worth[d][m] = m == 0 ? 0.0 : PLAN_NEVER;
    if (done + 1 < PLAN_DEALS) {
        float sums[PLAN_HANDS][1 << BARBU_CALLS];
        barbu_rng rng;
        barbu_rng_seed(&rng, PLAN_SEED);
        barbu_cards deck = bb_h_deck(rules);
        int cards[64], nd = 0;
        for (barbu_cards x = deck; x; x &= x - 1)
            cards[nd++] = bb_h_lowest(x);
        int size = barbu_rules_hand_size(rules);
        for (int h = 0; h < PLAN_HANDS; h++) {
            /* A random hand: the first cards of a partial shuffle. */
            barbu_cards hand = 0;
            for (int i = 0; i < size; i++) {
                int j = i + (int)barbu_rng_below(&rng, (uint32_t)(nd - i)), c = cards[j];
                cards[j] = cards[i];
                cards[i] = c;
                hand |= BARBU_BIT(c);
            }
            double value[BARBU_CALLS];
            fife_values(rules, hand, value);
            subset_sums(value, combined, sums[h]);
        }
        for (int d = PLAN_DEALS - 1; d > done; d--) {
            /* Only the sets of Calls that can still be left. */
            for (unsigned s = left; s; s = (s - 1) & left) {
                /* The choices open with s left, and what each leaves. */
                unsigned choice[1 << BARBU_CALLS];
                double rest[1 << BARBU_CALLS];
                int nch = 0;
                for (unsigned m = s; m; m = (m - 1) & s) {
                    if (barbu_calls_check(BARBU_CALLS_ALL & ~(unsigned)s, d, m) != 0 ||
                        worth[d + 1][s & ~m] <= PLAN_NEVER)
                        continue;
                    choice[nch] = m;
                    rest[nch++] = worth[d + 1][s & ~m];
                }
                if (nch == 0)
                    continue;
                double sum = 0.0;
                for (int h = 0; h < PLAN_HANDS; h++) {
                    double best = PLAN_NEVER;
                    for (int i = 0; i < nch; i++) {
                        double v = sums[h][choice[i]] + rest[i];
                        if (v > best)
                            best = v;
                    }
                    sum += best;
                }
                worth[d][s] = sum / PLAN_HANDS;
            }
        }
    }
    double value[BARBU_CALLS];
    float sums[1 << BARBU_CALLS];
    fife_values(rules, view->hand[view->seat], value);
    subset_sums(value, combined, sums);
    int best = -1;
    double best_v = 0.0;
    for (int i = 0; i < n; i++) {
        if (now)
            now[i] = 0.0;
        if (rest_of)
            rest_of[i] = 2 * PLAN_NEVER;
        if (legal[i].type != BARBU_ACT_DECLARE)
            continue;
        unsigned m = legal[i].contracts & BARBU_CALLS_ALL;
        double rest = worth[done + 1][left & ~m];
        rest = rest > PLAN_NEVER ? rest : 2 * PLAN_NEVER;
        double v = sums[m] + rest;
        if (now)
            now[i] = sums[m];
        if (rest_of)
            rest_of[i] = rest;
        if (best < 0 || v > best_v) {
            best_v = v;
            best = i;
        }
    }
    return best;
}

int bb_h_fife_declare(const barbu_view *view, const barbu_action *legal, int n)
{
    return bb_h_fife_plan(view, legal, n, NULL, NULL);
}
