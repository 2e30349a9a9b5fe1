/*
 * gen_arrange_tables.c - writes src/ai/arrange_tables.h: the rows players set
 * in Chinese Poker, as quantiles of barbu_poker_value at each place, which
 * the heuristic arranger (src/ai/arrange.c) reads as the chance that a row
 * wins.
 *
 * Not part of the CMake build.  From the repository root:
 *
 *   cc -O2 -march=native -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude \
 *      bench/gen_arrange_tables.c src/engine/poker.c src/engine/cards.c \
 *      -o /tmp/gen_arrange_tables
 *   /tmp/gen_arrange_tables > /tmp/arrange_tables.h && mv /tmp/arrange_tables.h src/ai/
 *
 * It includes arrange.c itself, so it compiles with whatever tables are in
 * the tree but does not use them.  Round 0 deals random hands and sets them
 * greedily (the best back, then the best middle of the 8 cards left, which
 * never fouls); each later round sets fresh deals with the expected-score
 * arranger fed the quantiles of the rows set in all the rounds since round 1
 * (round 1 gets those of round 0), and the tables written are those of
 * rounds 1 to the last.  Pooling the rounds damps the swing between a
 * player tuned against weak rows and one tuned against strong rows, so the
 * tables settle on opponents who arrange as the bot does.  Progress goes to stderr: per round,
 * the mean units per pair of the round's arranger against the greedy one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/ai/arrange.c"

#define STEPS  256
#define DEALS  25000
#define ROUNDS 4
#define SCOOP  3
#define SEED   UINT64_C(0x43686f6e67) /* "Chong" */

static uint32_t samples[3][(ROUNDS + 1) * 4 * DEALS];
static uint32_t sorted[(ROUNDS + 1) * 4 * DEALS];
static uint32_t tables[3][STEPS + 1];

/* The best back, then the best middle of the rest. */
static void greedy(barbu_cards hand, barbu_cards *back, barbu_cards *middle)
{
    barbu_card pos[13];
    int n = 0;
    for (barbu_cards rest = hand; rest; rest &= rest - 1)
        pos[n++] = (barbu_card)__builtin_ctzll(rest);
    uint32_t best = 0;
    for (unsigned m = 0x1f; m < 1u << 13; m = next_subset(m)) {
        barbu_cards set = cards_at(pos, m);
        uint32_t v = barbu_poker_value(set);
        if (v > best) {
            best = v;
            *back = set;
        }
    }
    best = 0;
    barbu_cards left = hand & ~*back;
    for (unsigned m = 0x1f; m < 1u << 8; m = next_subset(m)) {
        barbu_cards set = 0;
        int k = 0;
        for (barbu_cards rest = left; rest; rest &= rest - 1, k++)
            if (m & 1u << k)
                set |= rest & -rest;
        uint32_t v = barbu_poker_value(set);
        if (v > best) {
            best = v;
            *middle = set;
        }
    }
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void deal(barbu_rng *rng, barbu_cards hands[4])
{
    barbu_card pack[52];
    for (int i = 0; i < 52; i++)
        pack[i] = BARBU_CARD(i / 13, 2 + i % 13);
    for (int i = 51; i > 0; i--) {
        int j = (int)barbu_rng_below(rng, (uint32_t)i + 1);
        barbu_card t = pack[i];
        pack[i] = pack[j];
        pack[j] = t;
    }
    for (int h = 0; h < 4; h++) {
        hands[h] = 0;
        for (int i = 0; i < 13; i++)
            hands[h] |= BARBU_BIT(pack[13 * h + i]);
    }
}

static void print_table(const char *name, const uint32_t *q)
{
    printf("static const uint32_t %s[BB_ARRANGE_STEPS + 1] = {\n", name);
    for (int k = 0; k <= STEPS; k++)
        printf("%s0x%06xu,%s", k % 8 ? "" : "    ", (unsigned)q[k],
               k % 8 == 7 || k == STEPS ? "\n" : " ");
    printf("};\n");
}

int main(void)
{
    static const char *const names[3] = {"bb_arrange_back", "bb_arrange_middle",
                                         "bb_arrange_front"};
    for (int round = 0; round <= ROUNDS; round++) {
        const uint32_t *const q[3] = {tables[0], tables[1], tables[2]};
        barbu_rng rng;
        barbu_rng_seed(&rng, SEED + (uint64_t)round);
        long units = 0, pairs = 0;
        clock_t start = clock();
        for (int d = 0; d < DEALS; d++) {
            barbu_cards hands[4], mine[4][3], base[4][3];
            deal(&rng, hands);
            for (int h = 0; h < 4; h++) {
                greedy(hands[h], &base[h][0], &base[h][1]);
                base[h][2] = hands[h] & ~base[h][0] & ~base[h][1];
                if (round == 0) {
                    mine[h][0] = base[h][0];
                    mine[h][1] = base[h][1];
                } else {
                    arrange_with(hands[h], SCOOP, q, STEPS, &mine[h][0], &mine[h][1]);
                }
                mine[h][2] = hands[h] & ~mine[h][0] & ~mine[h][1];
                for (int r = 0; r < 3; r++)
                    samples[r][4 * (DEALS * round + d) + h] = barbu_poker_value(mine[h][r]);
            }
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++)
                    if (a != b) {
                        units += barbu_rows_compare(mine[a], base[b], SCOOP);
                        pairs++;
                    }
        }
        double ms = 1000.0 * (double)(clock() - start) / CLOCKS_PER_SEC / (4.0 * DEALS);
        fprintf(stderr, "round %d: %+.3f units per pair against greedy, %.3f ms per hand\n", round,
                (double)units / (double)pairs, ms);
        long first = round == 0 ? 0 : 4L * DEALS, n = 4L * DEALS * (round + 1) - first;
        for (int r = 0; r < 3; r++) {
            memcpy(sorted, samples[r] + first, (size_t)n * sizeof sorted[0]);
            qsort(sorted, (size_t)n, sizeof sorted[0], compare_u32);
            for (int k = 0; k <= STEPS; k++)
                tables[r][k] = sorted[(long)k * (n - 1) / STEPS];
        }
    }

    printf("/*\n"
           " * arrange_tables.h - the rows players set in Chinese Poker: for the back,\n"
           " * the middle and the front, the barbu_poker_value at each of %d quantiles\n"
           " * (k / %d of the rows set are below entry k).  Written by\n"
           " * bench/gen_arrange_tables.c from %d rounds of %d deals, each arranged\n"
           " * with the tables of the rounds before (scoop %d); do not edit.\n"
           " */\n",
           STEPS + 1, STEPS, ROUNDS, DEALS, SCOOP);
    printf("#ifndef BARBU_AI_ARRANGE_TABLES_H\n#define BARBU_AI_ARRANGE_TABLES_H\n\n"
           "#include <stdint.h>\n\n#define BB_ARRANGE_STEPS %d\n\n",
           STEPS);
    for (int r = 0; r < 3; r++) {
        print_table(names[r], tables[r]);
        printf("\n");
    }
    printf("#endif\n");
    return 0;
}
