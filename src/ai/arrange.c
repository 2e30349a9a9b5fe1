/*
 * arrange.c - Chinese Poker: how the heuristic player sets its 13 cards.
 *
 * Every split into a back of 5, a middle of 5 and a front of 3 that is not
 * fouled is scored by its expected units against one opponent, and the best
 * is kept (against three opponents the expectation is three times as much,
 * so the best split is the same).  A row's chance of winning comes from the
 * distribution of the rows that players set at its place, kept as quantiles
 * in arrange_tables.h (bench/gen_arrange_tables.c writes them); the rows of
 * the opponent are taken as independent of each other.
 *
 * The 13 cards are positions 0..12, so a row is a 13-bit mask: the values of
 * the 1287 rows of 5 and 286 rows of 3 are computed once, and the 72072
 * splits only look them up.
 */
#include <string.h>

#include "arrange_tables.h"
#include "internal.h"

enum { N_FIVES = 1287, N_THREES = 286 };

/* The chance that a row of value v beats a row drawn from the quantiles q
 * (q[0] the lowest, q[steps] the highest), a tie counting half; between two
 * quantiles the chance is interpolated on the value. */
static float win_chance(const uint32_t *q, int steps, uint32_t v)
{
    int lo = 0, hi = steps + 1; /* the first quantile >= v */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (q[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    int above = lo; /* the first quantile > v */
    while (above <= steps && q[above] == v)
        above++;
    if (above > lo)
        return (float)(lo + above - 1) / (float)(2 * steps);
    if (lo == 0)
        return 0.0f;
    if (lo > steps)
        return 1.0f;
    float frac = (float)(v - q[lo - 1]) / (float)(q[lo] - q[lo - 1]);
    return ((float)(lo - 1) + frac) / (float)steps;
}

/* The next mask with as many bits (Gosper's hack). */
static inline unsigned next_subset(unsigned m)
{
    unsigned low = m & -m, up = m + low;
    return up | (((m ^ up) >> 2) / low);
}

/* The cards at the positions of a mask. */
static barbu_cards cards_at(const barbu_card pos[13], unsigned mask)
{
    barbu_cards set = 0;
    for (; mask; mask &= mask - 1)
        set |= BARBU_BIT(pos[__builtin_ctz(mask)]);
    return set;
}

/* The arranger with the quantiles given: q[BARBU_ROW_*] of steps + 1 each.
 * Returns the units the split expects against one opponent (0 and no rows
 * for a hand that is not 13 cards). */
/* The units against one opponent of rows winning with these chances. */
static double units_of(int scoop, double pb, double pm, double pf)
{
    return 2.0 * (pb + pm + pf) - 3.0 +
           scoop * (pb * pm * pf - (1.0 - pb) * (1.0 - pm) * (1.0 - pf));
}

/*
 * The k best splits (k <= BB_ROWS_TOP) into top[], best first, ties in the
 * order found; returns how many (0 for a hand of another size).  With k = 1
 * it is the heuristic's choice.
 */
static int arrange_with(barbu_cards hand, int scoop, const uint32_t *const q[3], int steps, int k,
                        bb_rows *top)
{
    barbu_card pos[13];
    int n = 0;
    for (barbu_cards rest = hand & BARBU_ALL_CARDS; rest && n < 13; rest &= rest - 1)
        pos[n++] = (barbu_card)__builtin_ctzll(rest);
    if (n < 13 || barbu_count(hand) != 13 || k < 1)
        return 0;
    if (k > BB_ROWS_TOP)
        k = BB_ROWS_TOP;

    /* The index of a row of 3 or 5 in its arrays: only those entries are
     * written and read. */
    uint16_t index[1 << 13];
    uint16_t five_mask[N_FIVES];
    uint32_t five_value[N_FIVES], three_value[N_THREES];
    float p_back[N_FIVES], p_middle[N_FIVES], p_front[N_THREES];

    int i = 0;
    for (unsigned m = 0x1f; m < 1u << 13; m = next_subset(m), i++) {
        uint32_t v = barbu_poker_value(cards_at(pos, m));
        index[m] = (uint16_t)i;
        five_mask[i] = (uint16_t)m;
        five_value[i] = v;
        p_back[i] = win_chance(q[BARBU_ROW_BACK], steps, v);
        p_middle[i] = win_chance(q[BARBU_ROW_MIDDLE], steps, v);
    }
    i = 0;
    for (unsigned m = 0x7; m < 1u << 13; m = next_subset(m), i++) {
        uint32_t v = barbu_poker_value(cards_at(pos, m));
        index[m] = (uint16_t)i;
        three_value[i] = v;
        p_front[i] = win_chance(q[BARBU_ROW_FRONT], steps, v);
    }

    /* The 56 middles of the 8 cards left by a back: 5 of 8 positions, each
     * 8-bit choice spread onto the 13 positions a nibble at a time. */
    uint8_t choose[56];
    int n_choose = 0;
    for (unsigned m = 0x1f; m < 1u << 8; m = next_subset(m))
        choose[n_choose++] = (uint8_t)m;

    /* Units against one opponent: 2p - 1 per row, plus the scoop won when
     * all three rows win and lost when all three lose; the constant parts
     * and the factor 2 do not change which split is best.  Some split is
     * always in order (the best back, then the best middle of the rest). */
    float half_scoop = (float)scoop / 2.0f, worst = -1e9f;
    int kept = 0;
    float kept_score[BB_ROWS_TOP], kept_p[BB_ROWS_TOP][3];
    unsigned kept_back[BB_ROWS_TOP], kept_middle[BB_ROWS_TOP];
    for (int b = 0; b < N_FIVES; b++) {
        unsigned left = 0x1fffu & ~five_mask[b], rest = left;
        uint16_t low[16], high[16];
        unsigned bit[8];
        for (int j = 0; j < 8; j++, rest &= rest - 1)
            bit[j] = rest & -rest;
        for (unsigned x = 0; x < 16; x++) {
            low[x] = (uint16_t)((x & 1 ? bit[0] : 0) | (x & 2 ? bit[1] : 0) | (x & 4 ? bit[2] : 0) |
                                (x & 8 ? bit[3] : 0));
            high[x] = (uint16_t)((x & 1 ? bit[4] : 0) | (x & 2 ? bit[5] : 0) |
                                 (x & 4 ? bit[6] : 0) | (x & 8 ? bit[7] : 0));
        }
        uint32_t vb = five_value[b];
        float pb = p_back[b];
        for (int c = 0; c < 56; c++) {
            unsigned mid = (unsigned)(low[choose[c] & 15] | high[choose[c] >> 4]);
            int m = index[mid], f = index[left ^ mid];
            uint32_t vm = five_value[m];
            float pm = p_middle[m], pf = p_front[f];
            float score = pb + pm + pf +
                          half_scoop * (pb * pm * pf - (1.0f - pb) * (1.0f - pm) * (1.0f - pf));
            if (vm <= vb && three_value[f] <= vm && score > worst) {
                /* Into the list kept, after those scoring as much. */
                int at = kept < k ? kept++ : k - 1;
                while (at > 0 && kept_score[at - 1] < score) {
                    kept_score[at] = kept_score[at - 1];
                    kept_back[at] = kept_back[at - 1];
                    kept_middle[at] = kept_middle[at - 1];
                    memcpy(kept_p[at], kept_p[at - 1], sizeof kept_p[at]);
                    at--;
                }
                kept_score[at] = score;
                kept_back[at] = five_mask[b];
                kept_middle[at] = mid;
                kept_p[at][0] = pb;
                kept_p[at][1] = pm;
                kept_p[at][2] = pf;
                if (kept == k)
                    worst = kept_score[k - 1];
            }
        }
    }
    for (int t = 0; t < kept; t++) {
        top[t].back = cards_at(pos, kept_back[t]);
        top[t].middle = cards_at(pos, kept_middle[t]);
        top[t].units = units_of(scoop, kept_p[t][0], kept_p[t][1], kept_p[t][2]);
    }
    return kept;
}

double bb_h_arrange(barbu_cards hand, int scoop, barbu_cards *back, barbu_cards *middle)
{
    static const uint32_t *const q[3] = {bb_arrange_back, bb_arrange_middle, bb_arrange_front};
    bb_rows top;
    if (arrange_with(hand, scoop, q, BB_ARRANGE_STEPS, 1, &top) == 0) {
        *back = *middle = 0;
        return 0.0;
    }
    *back = top.back;
    *middle = top.middle;
    return top.units;
}

int bb_h_arrange_top(barbu_cards hand, int scoop, int k, bb_rows *top)
{
    static const uint32_t *const q[3] = {bb_arrange_back, bb_arrange_middle, bb_arrange_front};
    return arrange_with(hand, scoop, q, BB_ARRANGE_STEPS, k, top);
}
