/*
 * poker.c - Chinese Poker: rows valued as poker hands, arrangements checked,
 * and rows compared between two players.
 *
 * A value is the category in bits 20 and up, then the ranks that break ties
 * as five 4-bit nibbles, the most important first.  A front row of 3 fills
 * only its first nibbles and leaves the rest zero, so that it compares with a
 * row of 5 by plain integer comparison: a front pair with one kicker is below
 * the same pair with the same kicker and two more in the middle.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define LANE(cards, suit) ((unsigned)((cards) >> ((suit)*16)) & 0xffffu)

static inline int top_rank(unsigned ranks)
{
    return 31 - __builtin_clz(ranks);
}

/* The ranks of a mask, highest first, in the nibbles from bit shift down. */
static uint32_t nibbles(unsigned ranks, int shift)
{
    uint32_t v = 0;
    while (ranks) {
        int r = top_rank(ranks);
        v |= (uint32_t)r << shift;
        ranks &= ~(1u << r);
        shift -= 4;
    }
    return v;
}

static inline uint32_t category(int cat)
{
    return (uint32_t)cat << 20;
}

/* The top card of five distinct ranks that run, 5 for A-2-3-4-5, else 0. */
static inline int straight_top(unsigned ranks)
{
    int low = __builtin_ctz(ranks);
    if (ranks == 0x1fu << low)
        return low + 4;
    if (ranks == (1u << BARBU_ACE | 0x3cu))
        return 5;
    return 0;
}

uint32_t barbu_poker_value(barbu_cards cards)
{
    if (cards & ~BARBU_ALL_CARDS)
        return 0;
    int n = barbu_count(cards);
    if (n != 5 && n != 3)
        return 0;

    /* The ranks held at least once, twice, three and four times. */
    unsigned c = LANE(cards, 0), d = LANE(cards, 1), h = LANE(cards, 2), s = LANE(cards, 3);
    unsigned any = c | d | h | s;
    unsigned two = (c & d) | (h & s) | ((c | d) & (h | s));
    unsigned three = (c & d & (h | s)) | (h & s & (c | d));
    unsigned four = c & d & h & s;

    if (n == 3) {
        if (three)
            return category(BARBU_POKER_TRIPS) | (uint32_t)top_rank(three) << 16;
        if (two)
            return category(BARBU_POKER_PAIR) | (uint32_t)top_rank(two) << 16 |
                   nibbles(any & ~two, 12);
        return category(BARBU_POKER_HIGH_CARD) | nibbles(any, 16);
    }

    switch (barbu_count(any)) {
    case 5: {
        int flush = c == any || d == any || h == any || s == any;
        int top = straight_top(any);
        if (top && flush)
            return category(BARBU_POKER_STRAIGHT_FLUSH) | (uint32_t)top << 16;
        if (flush)
            return category(BARBU_POKER_FLUSH) | nibbles(any, 16);
        if (top)
            return category(BARBU_POKER_STRAIGHT) | (uint32_t)top << 16;
        return category(BARBU_POKER_HIGH_CARD) | nibbles(any, 16);
    }
    case 4:
        return category(BARBU_POKER_PAIR) | (uint32_t)top_rank(two) << 16 | nibbles(any & ~two, 12);
    case 3:
        if (three)
            return category(BARBU_POKER_TRIPS) | (uint32_t)top_rank(three) << 16 |
                   nibbles(any & ~three, 12);
        return category(BARBU_POKER_TWO_PAIR) | nibbles(two, 16) | nibbles(any & ~two, 8);
    default: /* two ranks */
        if (four)
            return category(BARBU_POKER_QUADS) | (uint32_t)top_rank(four) << 16 |
                   nibbles(any & ~four, 12);
        return category(BARBU_POKER_FULL_HOUSE) | (uint32_t)top_rank(three) << 16 |
               nibbles(two & ~three, 12);
    }
}

static const char *const RANK_WORDS[15] = {"?",    "?",    "two",   "three", "four",
                                           "five", "six",  "seven", "eight", "nine",
                                           "ten",  "jack", "queen", "king",  "ace"};
static const char *const RANK_PLURALS[15] = {"?",     "?",     "twos",   "threes", "fours",
                                             "fives", "sixes", "sevens", "eights", "nines",
                                             "tens",  "jacks", "queens", "kings",  "aces"};

int barbu_poker_describe(barbu_cards cards, char *buf, size_t cap)
{
    uint32_t v = barbu_poker_value(cards);
    if (v == 0)
        return snprintf(buf, cap, "not a row of 3 or 5 cards");
    int r1 = (int)(v >> 16 & 15), r2 = (int)(v >> 12 & 15);
    switch (v >> 20) {
    case BARBU_POKER_HIGH_CARD:
        return snprintf(buf, cap, "%s high", RANK_WORDS[r1]);
    case BARBU_POKER_PAIR:
        return snprintf(buf, cap, "a pair of %s", RANK_PLURALS[r1]);
    case BARBU_POKER_TWO_PAIR:
        return snprintf(buf, cap, "two pair, %s and %s", RANK_PLURALS[r1], RANK_PLURALS[r2]);
    case BARBU_POKER_TRIPS:
        return snprintf(buf, cap, "three %s", RANK_PLURALS[r1]);
    case BARBU_POKER_STRAIGHT:
        return snprintf(buf, cap, "a straight to the %s", RANK_WORDS[r1]);
    case BARBU_POKER_FLUSH:
        return snprintf(buf, cap, "a flush, %s high", RANK_WORDS[r1]);
    case BARBU_POKER_FULL_HOUSE:
        return snprintf(buf, cap, "a full house, %s over %s", RANK_PLURALS[r1], RANK_PLURALS[r2]);
    case BARBU_POKER_QUADS:
        return snprintf(buf, cap, "four %s", RANK_PLURALS[r1]);
    default:
        if (r1 == BARBU_ACE)
            return snprintf(buf, cap, "a royal flush");
        return snprintf(buf, cap, "a straight flush to the %s", RANK_WORDS[r1]);
    }
}

static const char *const ROW_NAMES[3] = {"back", "middle", "front"};

/* The cards of a set as "2C 3D AS", lowest bit first. */
static void cards_text(barbu_cards set, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    while (set && len + 5 < cap) {
        barbu_card card = (barbu_card)bb_lowest(set);
        set &= set - 1;
        if (len)
            buf[len++] = ' ';
        len += (size_t)barbu_card_format(card, BARBU_FMT_ASCII, buf + len, cap - len);
    }
}

/* Sets why (if any) and returns err. */
static int refuse(int err, char *why, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int refuse(int err, char *why, size_t cap, const char *fmt, ...)
{
    if (why && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, cap, fmt, ap);
        va_end(ap);
    }
    return err;
}

/* Which row beats the one it must not, or -1: rows are compared back to
 * middle first, then middle to front. */
static int fouled_row(uint32_t back, uint32_t middle, uint32_t front)
{
    if (middle > back)
        return BARBU_ROW_MIDDLE;
    if (front > middle)
        return BARBU_ROW_FRONT;
    return -1;
}

int barbu_arrange_check(barbu_cards hand, barbu_cards back, barbu_cards middle, bool allow_foul,
                        char *why, size_t cap)
{
    char list[64];
    if (why && cap)
        why[0] = '\0';
    if (hand & ~BARBU_ALL_CARDS)
        return refuse(BARBU_EARRANGE, why, cap, "the hand holds bits that are not cards");
    if (barbu_count(hand) != 13)
        return refuse(BARBU_EARRANGE, why, cap, "the hand has %d cards, not 13", barbu_count(hand));

    barbu_cards rows[3] = {back, middle, hand & ~back & ~middle};
    for (int i = BARBU_ROW_BACK; i <= BARBU_ROW_MIDDLE; i++) {
        if (rows[i] & ~hand) {
            cards_text(rows[i] & ~hand, list, sizeof list);
            return refuse(BARBU_EARRANGE, why, cap, "the %s row has cards not in the hand: %s",
                          ROW_NAMES[i], list);
        }
    }
    if (back & middle) {
        cards_text(back & middle, list, sizeof list);
        return refuse(BARBU_EARRANGE, why, cap, "the back and middle rows share %s", list);
    }
    /* With 5 and 5 of the 13 cards in the back and middle, the front has 3. */
    for (int i = BARBU_ROW_BACK; i <= BARBU_ROW_MIDDLE; i++) {
        if (barbu_count(rows[i]) != 5)
            return refuse(BARBU_EARRANGE, why, cap, "the %s row has %d cards, not 5", ROW_NAMES[i],
                          barbu_count(rows[i]));
    }

    uint32_t v[3];
    for (int i = 0; i < 3; i++)
        v[i] = barbu_poker_value(rows[i]);
    int bad = fouled_row(v[0], v[1], v[2]);
    if (bad < 0 || allow_foul)
        return 0;
    if (why && cap) {
        char strong[48], weak[48];
        barbu_poker_describe(rows[bad], strong, sizeof strong);
        barbu_poker_describe(rows[bad - 1], weak, sizeof weak);
        snprintf(why, cap, "the %s (%s) beats the %s (%s)", ROW_NAMES[bad], strong,
                 ROW_NAMES[bad - 1], weak);
    }
    return BARBU_EFOUL;
}

bool barbu_rows_fouled(barbu_cards back, barbu_cards middle, barbu_cards front)
{
    return fouled_row(barbu_poker_value(back), barbu_poker_value(middle),
                      barbu_poker_value(front)) >= 0;
}

int barbu_rows_compare(const barbu_cards a[3], const barbu_cards b[3], int scoop)
{
    bool a_foul = barbu_rows_fouled(a[0], a[1], a[2]);
    bool b_foul = barbu_rows_fouled(b[0], b[1], b[2]);
    if (a_foul && b_foul)
        return 0;
    if (a_foul)
        return -(3 + scoop);
    if (b_foul)
        return 3 + scoop;

    int won = 0, lost = 0;
    for (int i = 0; i < 3; i++) {
        uint32_t va = barbu_poker_value(a[i]), vb = barbu_poker_value(b[i]);
        won += va > vb;
        lost += va < vb;
    }
    return won - lost + (won == 3 ? scoop : 0) - (lost == 3 ? scoop : 0);
}
