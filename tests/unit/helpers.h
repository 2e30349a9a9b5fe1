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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "barbu/barbu.h"

enum { N, E, S, W };

/* The first two refusals of a declaration, as the rules state them: the
 * seat has declared the contract as often as it may (BARBU_EUSED), or the
 * game has played it as often (BARBU_EPLAYEDOUT); else 0.  The reference the
 * schedule tests check the engine against. */
static inline int ref_count_check(const barbu_rules *r, const barbu_table *t, int seat, int c)
{
    if (t->used[seat][c] >= r->contract[c].per_player)
        return BARBU_EUSED;
    int done = 0;
    for (int p = 0; p < 4; p++)
        done += t->used[p][c];
    return done >= barbu_contract_times(r, c) ? BARBU_EPLAYEDOUT : 0;
}

/* A file of tests/golden in a malloc'd, NUL-ended string (its length in
 * *len when len is not NULL); the folder is found from this header's own
 * path, as CMake compiles the tests by their full paths. */
static inline char *golden_text(const char *name, size_t *len)
{
    const char *here = __FILE__;
    const char *cut = strstr(here, "tests/unit/");
    assert_non_null(cut);
    char path[1024];
    snprintf(path, sizeof path, "%.*stests/golden/%s", (int)(cut - here), here, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    if (len != NULL)
        *len = (size_t)n;
    return text;
}

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

/* ------------------------------------------------------------ more tools */

/* A preset by name (fails the test on an unknown one). */
static inline void preset(barbu_rules *r, const char *name)
{
    memset(r, 0, sizeof *r);
    assert_int_equal(barbu_rules_preset(r, name), 0);
}

/* Parses a rules text that must be valid. */
static inline void rules_text(barbu_rules *r, const char *text)
{
    barbu_diag diag;
    memset(&diag, 0, sizeof diag);
    memset(r, 0, sizeof *r);
    int err = barbu_rules_parse(r, text, strlen(text), &diag);
    if (err != 0)
        print_error("rules text failed at line %d: %s\n", diag.line, diag.msg);
    assert_int_equal(err, 0);
}

static inline int contract_of(const barbu_rules *r, const char *key)
{
    int c = barbu_contract_find(r, key);
    assert_true(c >= 0);
    return c;
}

/* The cards of the PLAY actions barbu_legal lists for the seat to move. */
static inline barbu_cards legal_cards(const barbu_state *s)
{
    barbu_action acts[BARBU_MAX_ACTIONS];
    int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
    assert_true(n <= BARBU_MAX_ACTIONS);
    barbu_cards set = 0;
    for (int i = 0; i < n; i++)
        if (acts[i].type == BARBU_ACT_PLAY)
            set |= acts[i].cards;
    return set;
}

/* Whether barbu_legal lists exactly one action, a pass. */
static inline bool only_pass(const barbu_state *s)
{
    barbu_action acts[BARBU_MAX_ACTIONS];
    int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
    return n == 1 && acts[0].type == BARBU_ACT_PASS;
}

static inline void pass_layout(barbu_state *s, int err)
{
    barbu_action a = barbu_act(BARBU_ACT_PASS, s->t.to_move);
    assert_int_equal(barbu_apply(s, &a), err);
}

/* Every seat passes (no doubles at all). */
static inline void bid_nothing(barbu_state *s)
{
    const unsigned none[4] = {0, 0, 0, 0};
    bid_all(s, none, none);
}

/* Doubles that leave every pair of seats doubled once, so each seat is
 * doubled equally with the other three: the first bidder doubles all three,
 * the second the two that did not double it, the third the declarer. */
static inline void bid_everyone_once(barbu_state *s)
{
    int d = s->t.declarer;
    unsigned dbl[4] = {0, 0, 0, 0};
    const unsigned none[4] = {0, 0, 0, 0};
    dbl[(d + 1) & 3] = 0xfu & ~(1u << ((d + 1) & 3));
    dbl[(d + 2) & 3] = (1u << d) | (1u << ((d + 3) & 3));
    dbl[(d + 3) & 3] = 1u << d;
    bid_all(s, dbl, none);
}

/* A bid a simple player makes: the compulsory double of the declarer when
 * one is owed now, else nothing. */
static inline barbu_action bid_compulsory_only(const barbu_state *s)
{
    barbu_view v;
    int seat = s->t.to_move;
    barbu_view_of(s, seat, &v);
    unsigned d = v.compulsory ? 1u << s->t.declarer : 0;
    return barbu_act_bid(seat, d, 0);
}

/* Plays the current deal to its end: a random legal contract, only the
 * compulsory doubles, random cards.  Returns when the deal is over. */
static inline void finish_deal_random(barbu_state *s, barbu_rng *rng)
{
    int deal = s->t.deal;
    while (!barbu_over(s) && s->t.deal == deal) {
        barbu_action acts[BARBU_MAX_ACTIONS];
        barbu_action a;
        switch (s->t.phase) {
        case BARBU_PHASE_DECLARE: {
            int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
            assert_true(n > 0 && n <= BARBU_MAX_ACTIONS);
            a = acts[barbu_rng_below(rng, (uint32_t)n)];
            assert_int_equal(barbu_apply(s, &a), 0);
            break;
        }
        case BARBU_PHASE_BID:
            a = bid_compulsory_only(s);
            assert_int_equal(barbu_apply(s, &a), 0);
            break;
        case BARBU_PHASE_PLAY:
            assert_int_equal(barbu_play_random(s, rng), 0);
            break;
        default:
            fail_msg("unexpected phase %d", s->t.phase);
        }
    }
}

/*
 * A composed deal whose tricks are won by the given seats, for the trick
 * contracts without the hearts-lead rule.  Tricks 1-3 are spades, 4-6
 * hearts, 7-9 diamonds, 10-12 clubs, everybody following; in trick k of a
 * suit the ranks are 3+4k..6+4k and the winner holds the top one.  The last
 * trick is the four twos (N 2S, E 2H, S 2D, W 2C): nobody can follow, so the
 * leader wins it and winner[12] must equal winner[11].  seq gets the 52 cards
 * in the order they are played.
 */
static inline void compose_tricks(int leader, const int winner[13], barbu_cards hands[4],
                                  barbu_card seq[52])
{
    static const int suits[4] = {BARBU_SPADES, BARBU_HEARTS, BARBU_DIAMONDS, BARBU_CLUBS};
    memset(hands, 0, 4 * sizeof hands[0]);
    int n = 0;
    for (int k = 0; k < 12; k++) {
        int suit = suits[k / 3], j = k % 3, w = winner[k];
        barbu_card c[4];
        c[w] = BARBU_CARD(suit, 6 + 4 * j);
        for (int i = 1; i < 4; i++)
            c[(w + i) & 3] = BARBU_CARD(suit, 2 + i + 4 * j);
        for (int i = 0; i < 4; i++) {
            int seat = (leader + i) & 3;
            hands[seat] |= BARBU_BIT(c[seat]);
            seq[n++] = c[seat];
        }
        leader = w;
    }
    assert_int_equal(winner[12], leader);
    for (int i = 0; i < 4; i++) {
        int seat = (leader + i) & 3;
        barbu_card c = BARBU_CARD(suits[seat], 2);
        hands[seat] |= BARBU_BIT(c);
        seq[n++] = c;
    }
}

/* Plays cards by value for the seats in turn, each expected legal. */
static inline void play_cards_seq(barbu_state *s, const barbu_card *seq, int n)
{
    for (int i = 0; i < n; i++) {
        barbu_action a = barbu_act_play(s->t.to_move, seq[i]);
        assert_int_equal(barbu_apply(s, &a), 0);
    }
}

/* A cut of the Fife game's Unused Pack: "3H", "Joker", "Bridge". */
static inline barbu_card cut_card(const char *text)
{
    if (strcmp(text, "Joker") == 0)
        return BARBU_JOKER;
    if (strcmp(text, "Bridge") == 0)
        return BARBU_BRIDGE;
    int suit = (int)(strchr("CDHS", text[1]) - "CDHS");
    return BARBU_CARD(suit, text[0] - '0');
}

/* Gives the deal's cuts ("3H 4D 6C ..."). */
static inline void give_cuts(barbu_state *s, const char *text)
{
    barbu_card cuts[32];
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok && n < 32; tok = strtok_r(NULL, " ", &save))
        cuts[n++] = cut_card(tok);
    assert_int_equal(barbu_set_cuts(s, cuts, n), 0);
}

#endif
