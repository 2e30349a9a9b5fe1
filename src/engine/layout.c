/*
 * layout.c - Domino (Fan Tan) and the Fife Patience: a layout that grows
 * outwards in each suit from a start rank.
 */
#include "internal.h"

barbu_cards bb_layout_playable(const barbu_rules *r, const barbu_table *t, barbu_cards hand)
{
    barbu_cards ok = 0;
    for (int suit = 0; suit < 4; suit++)
        ok |= bb_layout_fits(r, t, suit);
    return ok & hand;
}

void bb_layout_place(const barbu_rules *r, barbu_table *t, barbu_card card)
{
    int suit = BARBU_SUIT(card), rank = BARBU_RANK(card);
    if (t->lo[suit] == 0)
        t->lo[suit] = t->hi[suit] = (uint8_t)rank;
    else if (rank == bb_layout_up(r, t->hi[suit]))
        t->hi[suit] = (uint8_t)rank;
    else
        t->lo[suit] = (uint8_t)rank;
}
