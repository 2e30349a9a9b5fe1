/*
 * view.c - what one seat may know.  A view is the public table plus the
 * cards the seat can see; nothing else of the state ever leaves the engine
 * for a player.
 */
#include <string.h>

#include "internal.h"

void barbu_view_of(const barbu_state *s, int seat, barbu_view *v)
{
    memset(v, 0, sizeof *v);
    v->rules = s->rules;
    v->seat = (int8_t)seat;
    v->t = s->t;
    if (seat == BARBU_ALL_SEATS) {
        memcpy(v->hand, s->hand, sizeof v->hand);
        return;
    }
    if (seat < 0 || seat > 3)
        return;
    v->hand[seat] = s->hand[seat];
    const barbu_table *t = &s->t;
    if (t->phase == BARBU_PHASE_ARRANGE && ((t->arranged >> seat) & 1)) {
        v->rows[BARBU_ROW_BACK] = s->pending[seat][0];
        v->rows[BARBU_ROW_MIDDLE] = s->pending[seat][1];
        v->rows[BARBU_ROW_FRONT] = s->hand[seat] & ~s->pending[seat][0] & ~s->pending[seat][1];
    }
    /* The Pass-ons of the deal: what this seat gave, and what it got from
     * the seat that passed to it. */
    for (int k = 0; k < t->n_pass_ons; k++) {
        int dir = barbu_pass_direction(t->round_deal, k);
        v->passed[k] = s->pass_ons[k][seat];
        v->received[k] = s->pass_ons[k][(seat + 4 - dir) & 3];
    }
    if (t->phase == BARBU_PHASE_PASS_ON && ((t->passed_on >> seat) & 1))
        v->passed[t->n_pass_ons] = s->pending[seat][0];
    v->compulsory = bb_compulsory(s->rules, t, seat);
    /* The Israeli rule asks a player who cannot follow suit, and is doubled
     * equally with the other three, to discard a penalty card. */
    if (t->phase == BARBU_PHASE_PLAY && t->to_move == seat && (t->rule_flags & BARBU_CF_ISRAELI) &&
        t->trick.n > 0 && t->kind == BARBU_KIND_TRICKS &&
        (s->hand[seat] & BARBU_SUIT_CARDS(BARBU_SUIT(t->trick.card[0]))) == 0 &&
        bb_business_equal(t, seat))
        v->advice = s->hand[seat] & t->penalty;
}

int barbu_view_legal(const barbu_view *v, barbu_action *out, int cap)
{
    int mover = v->t.to_move;
    if (mover < 0 || (v->seat != mover && v->seat != BARBU_ALL_SEATS))
        return 0;
    return bb_legal(v->rules, &v->t, v->hand[mover], out, cap);
}

int barbu_view_owed(const barbu_view *v, int seat)
{
    if (seat < 0 || seat > 3 || v->t.phase == BARBU_PHASE_OVER)
        return 0;
    return v->t.owed[seat][v->t.declarer];
}

int barbu_view_check(const barbu_view *v, const barbu_action *a)
{
    int mover = v->t.to_move;
    if (mover < 0)
        return BARBU_EOVER;
    if (a->seat != mover || (v->seat != mover && v->seat != BARBU_ALL_SEATS))
        return BARBU_ETURN;
    return bb_check(v->rules, &v->t, v->hand[mover], a);
}
