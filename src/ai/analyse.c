/*
 * analyse.c - what the expert thinks of one seat's decisions in a finished
 * game (include/barbu/analyse.h; docs/internals.md, "Analysis").
 *
 * The record is replayed through the engine (barbu_record_walk), and at
 * each action of the seat the seat's view is taken, never the state: what
 * the analysis judges from is what the player saw then.  Each decision is
 * then judged in one of two ways, both giving each option the expected
 * settled score of the deal for the seat, in points:
 *
 *   - where the expert searches (card play at tricks and layouts,
 *     declarations, doubles and redoubles, the Fife game's Calls), its own
 *     search is run on the view and its means are the values
 *     (bb_expert_estimate): exactly what it weighs when it chooses;
 *   - where it leaves the choice to the heuristic (the Silly Round's
 *     Pass-ons, Chinese Poker's rows), the options are played out on deals
 *     sampled from the view as the expert samples them, every option on the
 *     same deals with the same draws of chance, by the expert's play-outs
 *     (bb_expert_rollout).
 *
 * Every decision draws from its own generator, seeded from the analysis's
 * seed and the decision's place in the game, so an analysis does not depend
 * on the threads, nor one decision's judgement on the others.
 */
#include "barbu/analyse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ------------------------------------------------------------ the levels */

/*
 * "easy" has no search of its own to report (the heuristic player's rules
 * of thumb give no estimates), so an easy analysis is the medium expert's
 * evaluation with a tenth of its budget: quick, and rougher.
 */
static int level_of(const char *name, bb_level *out)
{
    if (name == NULL || strcmp(name, "medium") == 0) {
        *out = BB_MEDIUM;
    } else if (strcmp(name, "hard") == 0) {
        *out = BB_HARD;
    } else if (strcmp(name, "easy") == 0) {
        *out = BB_MEDIUM;
        out->budget = BB_MEDIUM.budget / 10;
        out->min_deals = 8;
        out->max_deals = 64;
        out->layout_deals = 64;
    } else {
        return BARBU_EINVAL;
    }
    return 0;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    barbu_rng r;
    barbu_rng_seed(&r, a ^ (b * UINT64_C(0x9e3779b97f4a7c15)));
    return barbu_rng_next(&r);
}

/* ------------------------------------------------------------ the walk */

/* One decision of the seat: its view then, the tricks it had seen (as a
 * bot seated there keeps them), and what it did. */
typedef struct decision {
    barbu_view view;
    bb_record rec;
    barbu_action chosen;
    int deal, step;
} decision;

typedef struct walk {
    int seat;
    bool collect; /* keep the decisions (else only count them) */
    decision *v;
    int n, cap;
    bool oom;
    int deal, step; /* the deal under way (0-based) and its actions so far */
    bb_record rec;
} walk;

static void on_step(void *ctx, const barbu_state *before, const barbu_action *a,
                    const barbu_state *after)
{
    (void)after;
    walk *w = ctx;
    if (before->t.deal != w->deal) {
        w->deal = before->t.deal;
        w->step = 0;
    }
    w->step++;
    if (a->seat != w->seat || w->oom)
        return;
    if (!w->collect) {
        w->n++;
        return;
    }
    if (w->n == w->cap) {
        int cap = w->cap ? w->cap * 2 : 64;
        decision *v = realloc(w->v, sizeof *v * (size_t)cap);
        if (v == NULL) {
            w->oom = true;
            return;
        }
        w->v = v;
        w->cap = cap;
    }
    decision *d = &w->v[w->n++];
    barbu_view_of(before, w->seat, &d->view);
    bb_record_see(&w->rec, &d->view);
    d->rec = w->rec;
    d->chosen = *a;
    d->deal = before->t.deal + 1;
    d->step = w->step;
}

/* Walks the record for the seat's decisions; collect: keep them (else
 * count them). */
static int walk_record(const barbu_record *rec, int seat, bool collect, walk *w)
{
    memset(w, 0, sizeof *w);
    w->seat = seat;
    w->deal = -1;
    w->collect = collect;
    barbu_diag diag;
    memset(&diag, 0, sizeof diag);
    int err = barbu_record_walk(rec, on_step, w, &diag);
    if (err == 0 && w->oom)
        err = BARBU_ENOMEM;
    return err;
}

int barbu_analysis_count(const barbu_record *rec, int seat)
{
    if (rec == NULL || seat < 0 || seat > 3)
        return BARBU_EINVAL;
    walk w;
    int err = walk_record(rec, seat, false, &w);
    return err != 0 ? err : w.n;
}

/* ------------------------------------------------------------ play-outs */

/* A Chinese Poker contract's scoop in the deal's contracts (0: none). */
static int scoop_of(const barbu_view *view)
{
    int scoop = 0;
    for (unsigned m = view->t.contracts; m; m &= m - 1) {
        const barbu_contract *c = &view->rules->contract[__builtin_ctz(m)];
        if (c->kind == BARBU_KIND_CHINESE)
            scoop = c->scoop;
    }
    return scoop;
}

/* Chinese Poker's play-outs are dear (each other seat's rows by the
 * heuristic, about 1 ms): their deals are counted, not budgeted. */
static int chinese_deals(const bb_level *level)
{
    return level->max_deals >= 1000 ? 96 : level->max_deals >= 200 ? 24 : 8;
}

#define DRAW_COST 100 /* a deal drawn, in plays of the fast policy */

/*
 * The Pass-ons and cuts of a state's deal until its play, for the
 * play-outs of a Pass-on: every Pass-on (the others' now, anyone's later)
 * by the heuristic's quick rule, its three most dangerous cards, which is
 * what the heuristic itself assumes of the others (its whole choice, some
 * 16 sampled deals of 24 candidates, would make each play-out a hundred
 * times dearer).  Returns 0, or the engine's refusal.
 */
static int quick_passes(barbu_state *s)
{
    int deal = s->t.deal, err = 0;
    while (err == 0 && !barbu_over(s) && s->t.deal == deal &&
           (s->t.phase == BARBU_PHASE_PASS_ON || s->t.phase == BARBU_PHASE_CUT)) {
        barbu_action a = barbu_act(
            s->t.phase == BARBU_PHASE_CUT ? BARBU_ACT_CUT : BARBU_ACT_PASS_ON, s->t.to_move);
        if (a.type == BARBU_ACT_PASS_ON) {
            barbu_view v;
            barbu_view_of(s, s->t.to_move, &v);
            a.cards = bb_h_quick_pass(&v);
        }
        err = barbu_apply(s, &a);
    }
    return err;
}

/*
 * Each candidate played out on deals sampled from the view: the rest of the
 * deal by the expert's play-outs, the others' Pass-ons and rows by the
 * heuristic.  Every candidate meets the same deals and the same draws of
 * chance (the play-outs' noise, the cuts to come), so that their
 * differences are the candidates' own.  value[c] is the mean settled score
 * of the deal for the seat.
 */
static int playout_values(const bb_level *level, barbu_rng *rng, const barbu_view *view,
                          const barbu_action *cand, int nc, double *value)
{
    const int me = view->seat;
    /* The others' Pass-ons or rows already chosen are secret: in the
     * play-outs they choose them afresh (they chose them without seeing
     * this seat's). */
    barbu_view v = *view;
    v.t.passed_on &= (uint8_t)(1u << me);
    v.t.arranged &= (uint8_t)(1u << me);
    bb_know k;
    bb_h_know(&v, &k);
    bool chinese = v.t.phase == BARBU_PHASE_ARRANGE;
    int max_deals = chinese ? chinese_deals(level) : level->max_deals;
    uint64_t seed = barbu_rng_next(rng);
    for (int c = 0; c < nc; c++)
        value[c] = 0.0;
    long spent = 0;
    int deals = 0;
    for (int i = 0; i < max_deals; i++) {
        if (!chinese && deals >= level->min_deals && spent + spent / deals > level->budget)
            break;
        barbu_rng dr;
        barbu_rng_seed(&dr, mix(seed, (uint64_t)i));
        barbu_cards hands[4];
        barbu_state base;
        spent += DRAW_COST;
        if (!bb_h_deal_sample(&k, &dr, hands) || barbu_state_from_view(&v, hands, &base) != 0)
            continue;
        barbu_truncate(&base);
        /* The cuts still to come are drawn from the state's seed, which a
         * view does not know: each deal its own. */
        base.seed = barbu_rng_next(&dr);
        /* Chinese Poker: the others' rows by the heuristic, once a deal. */
        barbu_action rows[4];
        if (chinese)
            for (int seat = 0; seat < 4; seat++) {
                barbu_view sv;
                barbu_view_of(&base, seat, &sv);
                sv.t.to_move = (int8_t)seat;
                rows[seat] = barbu_act(BARBU_ACT_ARRANGE, seat);
                if (seat != me && bb_heuristic_choose(&dr, &sv, &rows[seat]) != 0)
                    rows[seat] = barbu_act(BARBU_ACT_ARRANGE, seat);
            }
        uint64_t chance = barbu_rng_next(&dr);
        double got[BARBU_ANALYSIS_OPTIONS];
        bool refused = false;
        for (int c = 0; c < nc && !refused; c++) {
            barbu_state s = base;
            barbu_rng cr;
            barbu_rng_seed(&cr, chance);
            int err = barbu_apply(&s, &cand[c]);
            while (err == 0 && chinese && s.t.phase == BARBU_PHASE_ARRANGE && !barbu_over(&s) &&
                   s.t.deal == base.t.deal && s.t.to_move >= 0 && s.t.to_move != me)
                err = barbu_apply(&s, &rows[s.t.to_move]);
            if (err == 0 && base.t.phase == BARBU_PHASE_PASS_ON)
                err = quick_passes(&s);
            if (err == 0)
                spent += bb_expert_rollout(level, &s, &cr, me);
            got[c] = s.t.last.score[me];
            refused = err != 0;
        }
        /* Every option is legal on every deal the view allows; should the
         * engine refuse one all the same, the deal is left out for all of
         * them, so that they keep meeting the same deals. */
        if (refused)
            continue;
        for (int c = 0; c < nc; c++)
            value[c] += got[c];
        deals++;
    }
    if (deals == 0)
        return BARBU_EHANDS;
    for (int c = 0; c < nc; c++)
        value[c] /= deals;
    return 0;
}

/* ------------------------------------------------------------ one decision */

/* The options of a decision and their values, before they are sorted. */
typedef struct options {
    int n;
    barbu_action action[BARBU_ANALYSIS_OPTIONS];
    double value[BARBU_ANALYSIS_OPTIONS];
    barbu_cards alike[BARBU_ANALYSIS_OPTIONS];
    int chosen; /* index, or -1 */
} options;

static int option_add(options *o, const barbu_action *a)
{
    for (int i = 0; i < o->n; i++)
        if (barbu_action_equal(&o->action[i], a))
            return i;
    if (o->n == BARBU_ANALYSIS_OPTIONS)
        return -1;
    o->action[o->n] = *a;
    o->value[o->n] = 0.0;
    o->alike[o->n] = 0;
    return o->n++;
}

/* Whether two settings of one hand's rows play alike: each row the same
 * poker value (only the suits of cards of one rank moved between rows), so
 * against any other rows they score the same. */
static bool rows_alike(barbu_cards hand, const barbu_action *a, const barbu_action *b)
{
    barbu_cards ra[3] = {a->cards, a->middle, hand & ~a->cards & ~a->middle};
    barbu_cards rb[3] = {b->cards, b->middle, hand & ~b->cards & ~b->middle};
    for (int i = 0; i < 3; i++)
        if (barbu_poker_value(ra[i]) != barbu_poker_value(rb[i]))
            return false;
    return true;
}

/* Pass-ons: the heuristic's own candidates, the cards that hurt most, this
 * many of them (plus its choice and the player's). */
#define PASS_OPTIONS 8
/* Chinese Poker: the arrangement scorer's best settings. */
#define ROWS_OPTIONS 8

/*
 * A declaration's values on the search's scale, when play-outs judged it
 * (the search did not list the one chosen, or gave up): as the search
 * weighs them, each contract less what it is worth to a random hand
 * (bb_h_baseline), or a Fife Call plus the plan's worth of the Calls it
 * leaves for the Round's deals to come.
 */
static void declare_scale(const barbu_view *view, const barbu_action *legal, int n, options *o)
{
    const barbu_rules *rules = view->rules;
    if (rules->game == BARBU_GAME_FIFE) {
        double *now = malloc(sizeof *now * (size_t)n), *rest = malloc(sizeof *rest * (size_t)n);
        if (now != NULL && rest != NULL && bb_h_fife_plan(view, legal, n, now, rest) >= 0)
            for (int j = 0; j < o->n; j++)
                for (int i = 0; i < n; i++)
                    if (barbu_action_equal(&legal[i], &o->action[j])) {
                        o->value[j] += rest[i];
                        break;
                    }
        free(now);
        free(rest);
        return;
    }
    for (int j = 0; j < o->n; j++)
        for (unsigned m = o->action[j].contracts; m; m &= m - 1)
            o->value[j] -= bb_h_baseline(rules, __builtin_ctz(m));
}

/* The options of a decision the expert leaves to the heuristic, played out
 * (playout_values). */
static int judge_by_playouts(const bb_level *level, barbu_rng *rng, const decision *d,
                             const barbu_action *legal, int n, options *o)
{
    const barbu_view *view = &d->view;
    if (view->t.phase == BARBU_PHASE_ARRANGE) {
        /* The scorer's best settings, those alike counted once, and the
         * player's is the one it is alike to if any. */
        barbu_cards hand = view->hand[view->seat];
        bb_rows top[BB_ROWS_TOP];
        int k = bb_h_arrange_top(hand, scoop_of(view), BB_ROWS_TOP, top);
        for (int i = 0; i < k && o->n < ROWS_OPTIONS; i++) {
            barbu_action a = barbu_act(BARBU_ACT_ARRANGE, view->seat);
            a.cards = top[i].back;
            a.middle = top[i].middle;
            bool dup = barbu_view_check(view, &a) != 0;
            for (int j = 0; j < o->n && !dup; j++)
                dup = rows_alike(hand, &o->action[j], &a);
            if (!dup)
                option_add(o, &a);
        }
        for (int j = 0; j < o->n && o->chosen < 0; j++)
            if (rows_alike(hand, &o->action[j], &d->chosen))
                o->chosen = j;
    } else if (view->t.phase == BARBU_PHASE_PASS_ON) {
        int idx[PASS_OPTIONS];
        int k = bb_h_pass_candidates(view, legal, n, idx, PASS_OPTIONS);
        for (int i = 0; i < k; i++)
            option_add(o, &legal[idx[i]]);
        barbu_action h;
        if (bb_heuristic_choose_from(rng, view, legal, n, &h) == 0)
            option_add(o, &h);
    } else {
        for (int i = 0; i < n && o->n < BARBU_ANALYSIS_OPTIONS - 1; i++)
            option_add(o, &legal[i]);
    }
    if (o->chosen < 0)
        o->chosen = option_add(o, &d->chosen);
    if (o->chosen < 0) {
        o->n--;
        o->chosen = option_add(o, &d->chosen);
    }
    int err = playout_values(level, rng, view, o->action, o->n, o->value);
    if (err == 0 && view->t.phase == BARBU_PHASE_DECLARE)
        declare_scale(view, legal, n, o);
    return err;
}

/*
 * The seat's settled score from the tricks of the deal complete: what the
 * solver's values leave out (bb_solve_value), the same for every option.
 * The solver plays only trick contracts whose score is a sum over the
 * tricks (a trick's worth by its place, the penalty cards in it), settled
 * linearly by the doubles, so this is that sum over the tricks taken.
 */
static double settled_so_far(const barbu_view *v)
{
    const barbu_table *t = &v->t;
    int me = v->seat, n = barbu_rules_hand_size(v->rules);
    bb_tables tab;
    bb_h_tables(v->rules, t->contracts, &tab);
    double raw[4] = {0};
    for (int k = 0; k < t->ntricks && k < n; k++)
        raw[t->winner[k] & 3] += tab.per_trick + tab.from_end[n - 1 - k];
    for (int b = 0; b < 4; b++)
        for (barbu_cards d = t->taken[b] & t->penalty; d; d &= d - 1)
            raw[b] += tab.card[bb_h_lowest(d)];
    double s = raw[me];
    for (int b = 0; b < 4; b++)
        if (b != me)
            s += barbu_business(t->dbl, t->rdbl, me, b) * (raw[me] - raw[b]);
    return s;
}

/* The options of a decision the expert searches, with its own means. */
static int judge_by_search(const bb_level *level, int threads, barbu_rng *rng, const decision *d,
                           options *o, bool *searched)
{
    bb_estimates *est = malloc(sizeof *est);
    if (est == NULL)
        return BARBU_ENOMEM;
    est->also = &d->chosen;
    int err = bb_expert_estimate(level, threads, rng, &d->view, &d->rec, est);
    *searched = err == 0 && est->n > 0;
    if (*searched) {
        /* Solved values are of the tricks to play: the whole deal's score
         * is theirs plus what the tricks complete gave. */
        double base = est->solved ? settled_so_far(&d->view) : 0.0;
        o->chosen = -1;
        for (int c = 0; c < est->n && o->n < BARBU_ANALYSIS_OPTIONS; c++) {
            int i = o->n++;
            o->action[i] = est->cand[c];
            o->value[i] = est->value[c] + base;
            o->alike[i] = est->alike[c];
            if (barbu_action_equal(&est->cand[c], &d->chosen))
                o->chosen = i;
        }
        /* A card the search did not weigh stands in the single card it is
         * alike to; never in a layout's play of several cards, which is
         * another action. */
        bool card = d->chosen.type == BARBU_ACT_PLAY && barbu_count(d->chosen.cards) == 1;
        for (int i = 0; i < o->n && o->chosen < 0 && card; i++)
            if (o->action[i].type == BARBU_ACT_PLAY && barbu_count(o->action[i].cards) == 1 &&
                (o->alike[i] & d->chosen.cards))
                o->chosen = i;
        /* All the cards alike: one option, nothing was weighed (its value
         * 0, as a forced decision's). */
        if (!est->searched)
            o->n = 1, o->chosen = 0;
        /* A choice the search did not weigh (a bid beyond its list): left
         * to the play-outs. */
        if (o->chosen < 0)
            *searched = false, o->n = 0;
    }
    free(est);
    return err == BARBU_EPHASE ? 0 : err;
}

static void item_fill(barbu_analysis_item *it, const decision *d, const options *o, bool forced)
{
    memset(it, 0, sizeof *it);
    it->deal = d->deal;
    it->step = d->step;
    it->chosen = d->chosen;
    /* Best first; ties in the order the options came. */
    int order[BARBU_ANALYSIS_OPTIONS];
    for (int i = 0; i < o->n; i++) {
        int at = i;
        while (at > 0 && o->value[order[at - 1]] < o->value[i]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
    }
    it->n_options = o->n;
    for (int i = 0; i < o->n; i++) {
        it->options[i].action = o->action[order[i]];
        it->options[i].value = forced ? 0.0 : o->value[order[i]];
        it->options[i].cards = o->alike[order[i]];
        if (order[i] == o->chosen) {
            /* The option stands for the card played among those alike,
             * or for the rows set among those alike. */
            it->chosen_index = i;
            if (d->chosen.type == BARBU_ACT_PLAY || d->chosen.type == BARBU_ACT_ARRANGE)
                it->options[i].action = d->chosen;
        }
    }
    it->forced = forced;
    it->cost = forced ? 0.0 : it->options[0].value - it->options[it->chosen_index].value;
    if (it->cost < 0.0)
        it->cost = 0.0;
}

static int analyse_one(const bb_level *level, const barbu_analysis_opts *opts, int threads,
                       const decision *d, barbu_analysis_item *it)
{
    barbu_rng rng;
    barbu_rng_seed(&rng, mix(opts->seed, (uint64_t)d->deal << 16 | (uint64_t)d->step));
    options *o = calloc(1, sizeof *o);
    if (o == NULL)
        return BARBU_ENOMEM;
    o->chosen = -1;
    int phase = d->view.t.phase, err = 0;
    barbu_action *legal = NULL;
    int n = 0;
    if (phase != BARBU_PHASE_ARRANGE) {
        legal = malloc(sizeof *legal * BARBU_MAX_ACTIONS);
        if (legal == NULL) {
            free(o);
            return BARBU_ENOMEM;
        }
        n = bb_legal_actions(&d->view, legal);
    }
    if (phase != BARBU_PHASE_ARRANGE && n <= 1) {
        o->n = 1;
        o->action[0] = d->chosen;
        o->alike[0] = d->chosen.type == BARBU_ACT_PLAY ? d->chosen.cards : 0;
        o->chosen = 0;
        item_fill(it, d, o, true);
        free(legal);
        free(o);
        return 0;
    }
    bool searched = false;
    if (phase == BARBU_PHASE_PLAY || phase == BARBU_PHASE_DECLARE || phase == BARBU_PHASE_BID)
        err = judge_by_search(level, threads, &rng, d, o, &searched);
    if (err == 0 && !searched)
        err = judge_by_playouts(level, &rng, d, legal, n, o);
    /* Not forced, though it may have one option: the legal actions were
     * several, all alike (cards that play alike, rows alike), so the choice
     * cost nothing, but it was the seat's to make. */
    if (err == 0)
        item_fill(it, d, o, false);
    free(legal);
    free(o);
    return err;
}

/* ------------------------------------------------------------ the entry */

int barbu_analyse_record(const barbu_record *rec, int seat, const barbu_analysis_opts *opts,
                         barbu_analysis **out)
{
    *out = NULL;
    barbu_analysis_opts none = {0};
    if (opts == NULL)
        opts = &none;
    bb_level level;
    if (rec == NULL || seat < 0 || seat > 3 || level_of(opts->level, &level) != 0)
        return BARBU_EINVAL;
    /*
     * Hard's max^n endings count the solver's nodes towards the budget, and
     * how many nodes a solve takes depends on how warm the thread's
     * transposition table is from the deals that thread solved before; so
     * the number of deals evaluated, and the means, move with how the deals
     * fall to the threads.  A level that solves by max^n is analysed on one
     * thread, which keeps the analysis the same for a seed whatever
     * opts->threads says.
     */
    int threads = opts->threads > 1 ? opts->threads : 1;
    if (level.maxn || level.maxn_from > 0)
        threads = 1;
    walk w;
    int err = walk_record(rec, seat, true, &w);
    if (err != 0) {
        free(w.v);
        return err;
    }
    barbu_analysis *a = calloc(1, sizeof *a);
    if (a == NULL || (w.n > 0 && (a->items = calloc((size_t)w.n, sizeof *a->items)) == NULL)) {
        free(a);
        free(w.v);
        return BARBU_ENOMEM;
    }
    a->seat = seat;
    snprintf(a->level, sizeof a->level, "%s", opts->level ? opts->level : "medium");
    for (int i = 0; i < w.n && err == 0; i++) {
        if (opts->cancel != NULL && atomic_load(opts->cancel) != 0) {
            err = BARBU_EINVAL;
            break;
        }
        err = analyse_one(&level, opts, threads, &w.v[i], &a->items[i]);
        if (err == 0) {
            a->n_items = i + 1;
            a->total_cost += a->items[i].cost;
            if (opts->progress != NULL)
                opts->progress(opts->ctx, i + 1, w.n);
        }
    }
    free(w.v);
    if (err != 0) {
        barbu_analysis_free(a);
        return err;
    }
    *out = a;
    return 0;
}

void barbu_analysis_free(barbu_analysis *a)
{
    if (a == NULL)
        return;
    free(a->items);
    free(a);
}

int barbu_analysis_worst(const barbu_analysis *a, int *idx)
{
    int n = 0;
    for (int i = 0; i < a->n_items; i++) {
        if (!(a->items[i].cost >= BARBU_ANALYSIS_MISTAKE))
            continue;
        int at = n++;
        while (at > 0 && a->items[idx[at - 1]].cost < a->items[i].cost) {
            idx[at] = idx[at - 1];
            at--;
        }
        idx[at] = i;
    }
    return n;
}
