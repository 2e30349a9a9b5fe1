/*
 * layout.c - Domino (Fan Tan) and the Fife Patience: a layout that grows
 * outwards in each suit from a start rank.
 */
#include "internal.h"

barbu_cards bb_layout_playable(const barbu_rules *r, const barbu_table *t, barbu_cards hand)
{
    barbu_cards ok = 0;
    if (r->domino_ace_low) {
        for (int suit = 0; suit < 4; suit++)
            ok |= bb_layout_fits(r, t, suit);
        return ok & hand;
    }
    /* bb_layout_fits for every suit at once with fewer branches (each is a
     * guess the processor misses half the time in a random game): the card
     * above each top and the one below each bottom, kept only where it is in
     * the pack, as there is none above the ace or below the lowest rank. */
    barbu_cards ends = 0;
    for (int suit = 0; suit < 4; suit++) {
        /* (A suit not out yet has lo and hi 0: its "below" is kept in the
         * suit's lane, rank 0, and not used.) */
        int lo = t->lo[suit], hi = t->hi[suit], below = lo - (lo != 0);
        barbu_cards start = BARBU_BIT(BARBU_CARD(suit, t->rank));
        barbu_cards next = BARBU_BIT(BARBU_CARD(suit, hi + 1)) | BARBU_BIT(BARBU_CARD(suit, below));
        ok |= lo == 0 ? start : 0;
        ends |= lo == 0 ? 0 : next;
    }
    return (ok | (ends & bb_deck(r))) & hand;
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
