/*
 * scoring.c - the raw scores of a deal from the score tables of its
 * contracts, and the sharing out of an undoubled negative contract.
 */
#include <string.h>

#include "internal.h"

/*
 * Ravage City (seed 004): whoever takes the most cards of any one suit
 * scores the penalty; players tied for the most share it equally.
 */
static void score_ravage(const barbu_contract *k, const barbu_table *t, int16_t part[4])
{
    int most[4], top = 0, tied = 0;
    for (int seat = 0; seat < 4; seat++) {
        most[seat] = 0;
        for (int suit = 0; suit < 4; suit++) {
            int n = barbu_count(t->taken[seat] & BARBU_SUIT_CARDS(suit));
            if (n > most[seat])
                most[seat] = n;
        }
        if (most[seat] > top)
            top = most[seat];
    }
    for (int seat = 0; seat < 4; seat++)
        tied += most[seat] == top;
    for (int seat = 0; seat < 4; seat++)
        part[seat] = (int16_t)(most[seat] == top ? k->shared / tied : 0);
}

/* Chinese Poker: each seat against each of the other three. */
void bb_score_rows(const barbu_contract *k, const barbu_cards rows[4][3], int16_t part[4])
{
    for (int a = 0; a < 4; a++) {
        int units = 0;
        for (int b = 0; b < 4; b++)
            if (b != a)
                units += barbu_rows_compare(rows[a], rows[b], k->scoop);
        part[a] = (int16_t)(units * k->per_row);
    }
}

void bb_score_deal(const barbu_rules *r, const barbu_table *t, barbu_result *res)
{
    int tricks = barbu_rules_hand_size(r);
    for (unsigned m = t->contracts; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        const barbu_contract *k = &r->contract[c];
        int16_t *part = res->part[c];
        if (k->kind == BARBU_KIND_DOMINO || k->kind == BARBU_KIND_PATIENCE) {
            for (int i = 0; i < 4; i++)
                part[t->out[i]] = k->place[i];
        } else if (k->kind == BARBU_KIND_RAVAGE) {
            score_ravage(k, t, part);
        } else if (k->kind == BARBU_KIND_CHINESE) {
            bb_score_rows(k, (const barbu_cards(*)[3])res->rows, part);
        } else {
            for (int seat = 0; seat < 4; seat++) {
                int v = k->per_trick * t->tricks[seat];
                for (barbu_cards c2 = t->taken[seat] & t->penalty; c2; c2 &= c2 - 1)
                    v += k->card[bb_lowest(c2)];
                part[seat] = (int16_t)v;
            }
            for (int i = 0; i < t->ntricks; i++)
                part[t->winner[i]] =
                    (int16_t)(part[t->winner[i]] + k->trick_from_end[tricks - 1 - i]);
        }
        for (int seat = 0; seat < 4; seat++)
            res->raw[seat] = (int16_t)(res->raw[seat] + part[seat]);
    }
}

/*
 * A negative contract nobody doubled is not played: the three others share
 * its points equally, rounded away from zero, and the declarer scores what
 * keeps the deal's total (0 or +1 with the standard tables, seed 004).
 */
void bb_share_undoubled(const barbu_rules *r, const barbu_table *t, barbu_result *res)
{
    for (unsigned m = t->contracts; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        int total = barbu_contract_total(r, c);
        int share = -((-total + 2) / 3);
        for (int seat = 0; seat < 4; seat++)
            res->part[c][seat] = (int16_t)(seat == t->declarer ? total - 3 * share : share);
        for (int seat = 0; seat < 4; seat++)
            res->raw[seat] = (int16_t)(res->raw[seat] + res->part[c][seat]);
    }
}
