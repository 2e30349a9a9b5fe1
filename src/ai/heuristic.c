/*
 * heuristic.c - the heuristic player: rules of thumb for every contract.
 * This file holds the entry point and what the decisions share (the deal's
 * score tables and what the seat knows of the other hands); the card play
 * is in heuristic_play.c (the last tricks played out on sampled deals in
 * heuristic_sim.c) and the contract choice and doubling in heuristic_bid.c.
 * The player reads only its view and always picks one of the engine's legal
 * actions.
 */
#include <string.h>

#include "internal.h"

void bb_h_tables(const barbu_rules *rules, unsigned contracts, bb_tables *out)
{
    memset(out, 0, sizeof *out);
    out->kind = contracts ? rules->contract[__builtin_ctz(contracts)].kind : BARBU_KIND_TRICKS;
    barbu_cards deck = bb_h_deck(rules);
    for (unsigned m = contracts; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        const barbu_contract *k = &rules->contract[c];
        out->per_trick += k->per_trick;
        for (int i = 0; i < BARBU_MAX_TRICKS; i++)
            out->from_end[i] += k->trick_from_end[i];
        for (barbu_cards d = deck; d; d &= d - 1)
            out->card[bb_h_lowest(d)] += k->card[bb_h_lowest(d)];
        for (int i = 0; i < 4; i++)
            out->place[i] += k->place[i];
        out->total += barbu_contract_total(rules, c);
    }
}

void bb_h_know(const barbu_view *view, bb_know *k)
{
    memset(k, 0, sizeof *k);
    k->view = view;
    k->rules = view->rules;
    k->t = &view->t;
    k->me = view->seat;
    k->tricks = barbu_rules_hand_size(view->rules);
    k->deck = bb_h_deck(view->rules);
    k->hand = view->hand[view->seat];
    const barbu_table *t = &view->t;
    k->gone = t->played[0] | t->played[1] | t->played[2] | t->played[3];
    k->out = k->deck & ~k->gone & ~k->hand;
    /* What every play and pass has shown, as the engine worked it out. */
    for (int seat = 0; seat < 4; seat++)
        k->lacks[seat] = t->shown_out[seat] & k->out;
    /* The cards this seat passed in the deal's last Pass-on are still where
     * they went, unless played: nobody has passed since. */
    if (t->n_pass_ons > 0) {
        int last = t->n_pass_ons - 1;
        int target = (view->seat + barbu_pass_direction(t->round_deal, last)) & 3;
        if (view->seat >= 0 && view->seat < 4 && target != view->seat)
            k->holds[target] = view->passed[last] & k->out & ~k->lacks[target];
    }
    bb_h_tables(view->rules, t->contracts, &k->tab);
    for (barbu_cards d = k->deck; d; d &= d - 1)
        if (k->tab.card[bb_h_lowest(d)] != 0)
            k->scoring |= d & (~d + 1);
}

void bb_h_know_state(const barbu_state *s, int seat, const bb_policy *pol, bb_know *k)
{
    const barbu_table *t = &s->t;
    k->view = NULL;
    k->rules = s->rules;
    k->t = t;
    k->me = seat;
    k->tricks = barbu_rules_hand_size(s->rules);
    k->deck = bb_h_deck(s->rules);
    k->hand = s->hand[seat];
    k->gone = t->played[0] | t->played[1] | t->played[2] | t->played[3];
    k->out = k->deck & ~k->gone & ~k->hand;
    for (int b = 0; b < 4; b++) {
        k->lacks[b] = t->shown_out[b] & k->out;
        k->holds[b] = 0;
    }
    k->tab = pol->tab;
    k->scoring = pol->scoring;
}

double bb_h_none_of(int cards, int holders)
{
    if (holders <= 1)
        return cards > 0 && holders == 1 ? 0.0 : 1.0;
    double miss = (double)(holders - 1) / holders, p = 1.0;
    for (int i = 0; i < cards; i++)
        p *= miss;
    return p;
}

int bb_h_business(const barbu_table *t, int a, int b)
{
    if (a == b)
        return 0;
    return barbu_business(t->dbl, t->rdbl, a, b);
}

/* Chinese Poker: the arranger's setting of the rows, checked by the engine.
 * The legal settings are never listed: there are tens of thousands. */
static int choose_arrange(barbu_rng *rng, const barbu_view *view, barbu_action *out)
{
    const barbu_rules *rules = view->rules;
    barbu_cards hand = view->hand[view->seat];
    int scoop = 0;
    for (unsigned m = view->t.contracts; m; m &= m - 1) {
        const barbu_contract *c = &rules->contract[__builtin_ctz(m)];
        if (c->kind == BARBU_KIND_CHINESE)
            scoop = c->scoop;
    }
    barbu_cards back, middle;
    bb_h_arrange(hand, scoop, &back, &middle);
    if (barbu_arrange_check(hand, back, middle, rules->fouls_lose, NULL, 0) != 0)
        return bb_random_choose(rng, view, out);
    *out = barbu_act(BARBU_ACT_ARRANGE, view->seat);
    out->cards = back;
    out->middle = middle;
    return 0;
}

int bb_heuristic_choose_from(barbu_rng *rng, const barbu_view *view, const barbu_action *legal,
                             int n, barbu_action *out)
{
    if (n <= 0)
        return BARBU_EPHASE;
    int pick = 0;
    if (n > 1) {
        switch (view->t.phase) {
        case BARBU_PHASE_DECLARE:
            pick = bb_h_declare(view, legal, n);
            break;
        case BARBU_PHASE_BID:
            pick = bb_h_bid(view, legal, n);
            break;
        case BARBU_PHASE_PLAY:
            pick = bb_h_play(rng, view, legal, n);
            break;
        case BARBU_PHASE_PASS_ON:
            pick = bb_h_pass_on(rng, view, legal, n);
            break;
        default:
            pick = -1;
            break;
        }
    }
    /* A cut has one legal action; anything else without a rule of thumb is
     * left to chance. */
    if (pick < 0 || pick >= n)
        pick = (int)barbu_rng_below(rng, (uint32_t)n);
    *out = legal[pick];
    return 0;
}

int bb_heuristic_choose(barbu_rng *rng, const barbu_view *view, barbu_action *out)
{
    if (view->t.phase == BARBU_PHASE_ARRANGE)
        return choose_arrange(rng, view, out);
    barbu_action legal[BARBU_MAX_ACTIONS];
    int n = bb_legal_actions(view, legal);
    if (n < 0)
        return n;
    return bb_heuristic_choose_from(rng, view, legal, n, out);
}
