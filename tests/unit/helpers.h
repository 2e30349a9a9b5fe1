/*
 * helpers.h - small tools for the unit tests: cards from text, composed
 * deals, and driving a state to the play of a chosen contract.
 */
#ifndef BARBU_TEST_HELPERS_H
#define BARBU_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "barbu/barbu.h"

enum { N, E, S, W };

/* "AS KS 2H" -> the set of those cards (fails the test on a bad card). */
static inline barbu_cards cards_of(const char *text)
{
    barbu_cards set = 0;
    const char *p = text;
    while (*p) {
        if (*p == ' ') {
            p++;
            continue;
        }
        const char *end;
        int card = barbu_card_parse(p, &end);
        assert_true(card >= 0);
        set |= BARBU_BIT(card);
        p = end;
    }
    return set;
}

static inline barbu_card card_of(const char *text)
{
    int card = barbu_card_parse(text, NULL);
    assert_true(card >= 0);
    return (barbu_card)card;
}

/* Four PBN hands, N E S W. */
static inline void hands_of(barbu_cards hands[4], const char *n, const char *e, const char *s,
                            const char *w)
{
    const char *text[4] = {n, e, s, w};
    for (int i = 0; i < 4; i++)
        assert_int_equal(barbu_hand_parse(text[i], NULL, &hands[i]), 0);
}

/* A game of the rules whose first declarer is `first`, its first deal
 * composed from the four hands (NULL: the seed's deal). */
static inline void start_game(barbu_state *s, const barbu_rules *r, int first,
                              const barbu_cards *hands)
{
    assert_int_equal(barbu_init(s, r, 1), 0);
    assert_int_equal(barbu_set_first(s, first), 0);
    if (hands)
        assert_int_equal(barbu_set_hands(s, hands), 0);
}

/* Declares a contract (by key) for the declarer to move. */
static inline void declare(barbu_state *s, const char *key, int trump, int rank)
{
    int c = barbu_contract_find(s->rules, key);
    assert_true(c >= 0);
    barbu_action a = barbu_act_declare(s->t.to_move, c, trump, rank);
    assert_int_equal(barbu_apply(s, &a), 0);
}

/* Each seat to move bids the masks given for it (N E S W) until the
 * doubling is over. */
static inline void bid_all(barbu_state *s, const unsigned dbl[4], const unsigned rdbl[4])
{
    while (s->t.phase == BARBU_PHASE_BID) {
        int seat = s->t.to_move;
        barbu_action a = barbu_act_bid(seat, dbl[seat], rdbl[seat]);
        assert_int_equal(barbu_apply(s, &a), 0);
    }
}

/* Everybody doubles the declarer (so the deal is played) and nothing more. */
static inline void bid_double_declarer(barbu_state *s)
{
    while (s->t.phase == BARBU_PHASE_BID) {
        int seat = s->t.to_move;
        unsigned d = seat == s->t.declarer ? 0 : 1u << s->t.declarer;
        barbu_action a = barbu_act_bid(seat, d, 0);
        assert_int_equal(barbu_apply(s, &a), 0);
    }
}

/* Plays a card for the seat to move, expecting `err`. */
static inline void play_expect(barbu_state *s, const char *card, int err)
{
    barbu_action a = barbu_act_play(s->t.to_move, card_of(card));
    assert_int_equal(barbu_apply(s, &a), err);
}

static inline void play(barbu_state *s, const char *card)
{
    play_expect(s, card, 0);
}

/* Plays several cards in turn: "2C 5C KC AC". */
static inline void play_seq(barbu_state *s, const char *cards)
{
    char buf[16];
    const char *p = cards;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t n = strcspn(p, " ");
        assert_true(n < sizeof buf);
        memcpy(buf, p, n);
        buf[n] = '\0';
        play(s, buf);
        p += n;
    }
}

#endif
