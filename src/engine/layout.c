/*
 * layout.c - Domino (Fan Tan) and the Fife Patience: a layout that grows
 * outwards in each suit from a start rank.
 */
#include "internal.h"

/* The rank after (up) or before (down) one in the layout's order, or 0. */
static int step_up(const barbu_rules *r, int rank)
{
    if (r->domino_ace_low)
        return rank == BARBU_ACE ? r->deck_low : rank == BARBU_KING ? 0 : rank + 1;
    return rank == BARBU_ACE ? 0 : rank + 1;
}

static int step_down(const barbu_rules *r, int rank)
{
    if (r->domino_ace_low)
        return rank == BARBU_ACE ? 0 : rank == r->deck_low ? BARBU_ACE : rank - 1;
    return rank == r->deck_low ? 0 : rank - 1;
}

barbu_cards bb_layout_playable(const barbu_rules *r, const barbu_table *t, barbu_cards hand)
{
    barbu_cards ok = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (t->lo[suit] == 0) {
            ok |= BARBU_BIT(BARBU_CARD(suit, t->rank));
            continue;
        }
        int up = step_up(r, t->hi[suit]), down = step_down(r, t->lo[suit]);
        if (up)
            ok |= BARBU_BIT(BARBU_CARD(suit, up));
        if (down)
            ok |= BARBU_BIT(BARBU_CARD(suit, down));
    }
    return ok & hand;
}

void bb_layout_place(const barbu_rules *r, barbu_table *t, barbu_card card)
{
    int suit = BARBU_SUIT(card), rank = BARBU_RANK(card);
    if (t->lo[suit] == 0)
        t->lo[suit] = t->hi[suit] = (uint8_t)rank;
    else if (rank == step_up(r, t->hi[suit]))
        t->hi[suit] = (uint8_t)rank;
    else
        t->lo[suit] = (uint8_t)rank;
}
