/*
 * store_action.c - an action as one line of text for the actions table.
 *
 * The line holds every field of barbu_action in a fixed order,
 *
 *     type seat contracts trump rank doubles redoubles cards middle
 *
 * with the two card sets as 16 lowercase hex digits.  It says nothing about
 * the rules, so a stored game stays readable when the rules around it change,
 * and the engine alone decides at replay whether the action is legal.  The
 * parser accepts only what store_action_text writes, so that a line that was
 * damaged on disk is noticed instead of half-read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "store.h"

void store_action_text(const barbu_action *action, char *buf)
{
    snprintf(buf, STORE_ACTION_TEXT, "%u %d %u %d %d %u %u %016" PRIx64 " %016" PRIx64,
             (unsigned)action->type, (int)action->seat, (unsigned)action->contracts,
             (int)action->trump, (int)action->rank, (unsigned)action->doubles,
             (unsigned)action->redoubles, action->cards, action->middle);
}

/* Reads a decimal integer in canonical form (no sign but '-', no leading
 * zero, no "-0") within [lo, hi], followed by `sep`.  Advances *p past the
 * separator.  Returns 0 or -1. */
static int read_int(const char **p, long lo, long hi, char sep, long *out)
{
    const char *s = *p;
    bool negative = false;
    if (*s == '-') {
        negative = true;
        s++;
    }
    if (*s < '0' || *s > '9')
        return -1;
    if (*s == '0' && (negative || (s[1] >= '0' && s[1] <= '9')))
        return -1;
    long value = 0;
    int digits = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        /* Every field is far below this, so more digits can only be junk. */
        if (++digits > 6)
            return -1;
        value = value * 10 + (*s - '0');
    }
    if (negative)
        value = -value;
    if (value < lo || value > hi || *s != sep)
        return -1;
    *p = s + (sep ? 1 : 0);
    *out = value;
    return 0;
}

/* Reads exactly 16 lowercase hex digits followed by `sep`. */
static int read_cards(const char **p, char sep, uint64_t *out)
{
    const char *s = *p;
    uint64_t value = 0;
    for (int i = 0; i < 16; i++, s++) {
        int digit;
        if (*s >= '0' && *s <= '9')
            digit = *s - '0';
        else if (*s >= 'a' && *s <= 'f')
            digit = *s - 'a' + 10;
        else
            return -1;
        value = value << 4 | (uint64_t)digit;
    }
    if (*s != sep)
        return -1;
    *p = s + (sep ? 1 : 0);
    *out = value;
    return 0;
}

int store_action_parse(const char *text, barbu_action *action)
{
    if (!text || !action)
        return -1;
    const char *p = text;
    long type, seat, contracts, trump, rank, doubles, redoubles;
    uint64_t cards, middle;
    /* BARBU_ACT_ARRANGE is the last kind of action the engine has. */
    if (read_int(&p, BARBU_ACT_DECLARE, BARBU_ACT_ARRANGE, ' ', &type) < 0 ||
        read_int(&p, 0, 3, ' ', &seat) < 0 ||
        read_int(&p, 0, (1L << BARBU_MAX_CONTRACTS) - 1, ' ', &contracts) < 0 ||
        read_int(&p, -1, 3, ' ', &trump) < 0 || read_int(&p, 0, 14, ' ', &rank) < 0 ||
        read_int(&p, 0, 15, ' ', &doubles) < 0 || read_int(&p, 0, 15, ' ', &redoubles) < 0 ||
        read_cards(&p, ' ', &cards) < 0 || read_cards(&p, '\0', &middle) < 0)
        return -1;
    barbu_action a;
    memset(&a, 0, sizeof a);
    a.type = (uint8_t)type;
    a.seat = (int8_t)seat;
    a.contracts = (uint16_t)contracts;
    a.trump = (int8_t)trump;
    a.rank = (int8_t)rank;
    a.doubles = (uint8_t)doubles;
    a.redoubles = (uint8_t)redoubles;
    a.cards = cards;
    a.middle = middle;
    *action = a;
    return 0;
}
