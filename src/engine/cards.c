/*
 * cards.c - cards, hands and seats as text, and the engine's error words.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char RANK_CHARS[] = "??23456789TJQKA";
static const char SUIT_CHARS[] = "CDHS";
static const char *const SUIT_SYMBOLS[] = {"\u2663", "\u2666", "\u2665", "\u2660"};

const char *barbu_strerror(int err)
{
    switch (err) {
    case BARBU_OK:
        return "success";
    case BARBU_EINVAL:
        return "invalid argument";
    case BARBU_ENOMEM:
        return "out of memory";
    case BARBU_EOVER:
        return "the game is over";
    case BARBU_EPHASE:
        return "that kind of action is not expected now";
    case BARBU_ETURN:
        return "it is another player's turn";
    case BARBU_ENOTHELD:
        return "the card is not in the player's hand";
    case BARBU_EFOLLOW:
        return "must follow suit";
    case BARBU_EHEARTS:
        return "hearts may not be led while holding another suit";
    case BARBU_ETRUMP:
        return "void in the suit led: must trump";
    case BARBU_EOVERTRUMP:
        return "must over-trump the trick";
    case BARBU_EHIGHER:
        return "trumps led: must play a higher trump";
    case BARBU_ELAYOUT:
        return "the card does not fit the layout";
    case BARBU_EMUSTPLAY:
        return "may not pass while a card can be played";
    case BARBU_EONECARD:
        return "cards must be played one at a time here";
    case BARBU_EUSED:
        return "that contract or Call has already been chosen (by this declarer, or in this Round)";
    case BARBU_ECONTRACT:
        return "no such contract or combination in this rule set";
    case BARBU_ESUIT:
        return "a trump suit must be named at Trumps, and only there";
    case BARBU_ERANK:
        return "a start rank must be named at Domino, and only there";
    case BARBU_EDOUBLE:
        return "that player may not be doubled";
    case BARBU_EREDOUBLE:
        return "only a player who doubled you can be redoubled";
    case BARBU_ECOMPULSORY:
        return "a compulsory double of the declarer is owed";
    case BARBU_EISRAELI:
        return "the last penalty card must be discarded (Israeli rule)";
    case BARBU_ECOUNT:
        return "the wrong number of cards";
    case BARBU_EARRANGE:
        return "the arrangement of rows is not valid";
    case BARBU_EHANDS:
        return "the hands are not a valid deal";
    case BARBU_EPARSE:
        return "malformed text";
    case BARBU_ERULES:
        return "the rule set is not valid";
    case BARBU_EMISMATCH:
        return "the record disagrees with the engine";
    case BARBU_ELIMIT:
        return "more than the engine can hold";
    case BARBU_EFOUL:
        return "the rows are out of order (a fouled hand)";
    case BARBU_ESCHEDULE:
        return "that choice would leave the other players unable to complete the game's schedule";
    case BARBU_EPLAYEDOUT:
        return "that contract has been played as often as the game allows";
    case BARBU_ECALLS:
        return "the Round's seven Calls must include at least two Doubles or a Treble, and "
               "this choice would leave that impossible";
    case BARBU_EGROUP:
        return "cards played together must be a run in one suit or all of one rank";
    case BARBU_ECOMBO:
        return "negative Calls combine only with negative Calls, and a Patience only with the "
               "other Patience; a Single Patience is Patience 1 until it is played";
    default:
        return "unknown error";
    }
}

static int rank_of_char(int c)
{
    if (c >= '2' && c <= '9')
        return c - '0';
    switch (c) {
    case 'T':
    case 't':
        return 10;
    case 'J':
    case 'j':
        return BARBU_JACK;
    case 'Q':
    case 'q':
        return BARBU_QUEEN;
    case 'K':
    case 'k':
        return BARBU_KING;
    case 'A':
    case 'a':
        return BARBU_ACE;
    default:
        return -1;
    }
}

/* Reads a suit letter or symbol (filled or outline); returns the suit or -1. */
static int parse_suit(const char *s, const char **end)
{
    static const char *const outline[] = {"\u2667", "\u2662", "\u2661", "\u2664"};
    for (int i = 0; i < 4; i++) {
        const char *forms[] = {SUIT_SYMBOLS[i], outline[i]};
        for (int f = 0; f < 2; f++) {
            size_t n = strlen(forms[f]);
            if (strncmp(s, forms[f], n) == 0) {
                *end = s + n;
                return i;
            }
        }
    }
    int c = s[0] >= 'a' && s[0] <= 'z' ? s[0] - 32 : s[0];
    const char *p = c != '\0' ? strchr(SUIT_CHARS, c) : NULL;
    if (p == NULL)
        return -1;
    *end = s + 1;
    return (int)(p - SUIT_CHARS);
}

int barbu_card_parse(const char *text, const char **end)
{
    const char *s = text;
    int rank;
    if (s[0] == '1' && s[1] == '0') {
        rank = 10;
        s += 2;
    } else {
        rank = rank_of_char((unsigned char)s[0]);
        if (rank < 0) {
            if (end)
                *end = text;
            return -1;
        }
        s++;
    }
    const char *after;
    int suit = parse_suit(s, &after);
    if (suit < 0) {
        if (end)
            *end = text;
        return -1;
    }
    if (end)
        *end = after;
    return BARBU_CARD(suit, rank);
}

int barbu_card_format(barbu_card card, int fmt, char *buf, size_t cap)
{
    int rank = BARBU_RANK(card), suit = BARBU_SUIT(card);
    if (rank < 2 || rank > BARBU_ACE || suit > 3)
        return snprintf(buf, cap, "??");
    if (fmt == BARBU_FMT_UNICODE) {
        if (rank == 10)
            return snprintf(buf, cap, "10%s", SUIT_SYMBOLS[suit]);
        return snprintf(buf, cap, "%c%s", RANK_CHARS[rank], SUIT_SYMBOLS[suit]);
    }
    return snprintf(buf, cap, "%c%c", RANK_CHARS[rank], SUIT_CHARS[suit]);
}

int barbu_hand_format(barbu_cards hand, char *buf, size_t cap)
{
    char tmp[80];
    size_t n = 0;
    for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--) {
        barbu_cards cards = hand & BARBU_SUIT_CARDS(suit);
        if (cards == 0)
            tmp[n++] = '-';
        while (cards) {
            int card = bb_highest(cards);
            cards &= ~BARBU_BIT(card);
            tmp[n++] = RANK_CHARS[BARBU_RANK(card)];
        }
        if (suit != BARBU_CLUBS)
            tmp[n++] = '.';
    }
    tmp[n] = '\0';
    return snprintf(buf, cap, "%s", tmp);
}

int barbu_hand_parse(const char *text, const char **end, barbu_cards *hand)
{
    barbu_cards cards = 0;
    const char *s = text;
    for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--) {
        if (*s == '-') {
            s++;
        } else {
            while (*s != '\0' && *s != '.' && *s != ' ' && *s != '"' && *s != '\n') {
                int rank;
                if (s[0] == '1' && s[1] == '0') {
                    rank = 10;
                    s++;
                } else {
                    rank = rank_of_char((unsigned char)*s);
                }
                if (rank < 0)
                    goto bad;
                barbu_card card = BARBU_CARD(suit, rank);
                if (cards & BARBU_BIT(card))
                    goto bad;
                cards |= BARBU_BIT(card);
                s++;
            }
        }
        if (suit != BARBU_CLUBS) {
            if (*s != '.')
                goto bad;
            s++;
        }
    }
    *hand = cards;
    if (end)
        *end = s;
    return 0;
bad:
    if (end)
        *end = s;
    return BARBU_EPARSE;
}

const char *barbu_seat_name(int seat)
{
    static const char *const names[] = {"N", "E", "S", "W"};
    return seat >= 0 && seat < 4 ? names[seat] : "?";
}

int barbu_seat_parse(const char *text)
{
    static const char *const words[] = {"north", "east", "south", "west"};
    for (int i = 0; i < 4; i++) {
        size_t n = strlen(text);
        if (n == 1 && (text[0] == words[i][0] || text[0] == words[i][0] - 32))
            return i;
        if (n == strlen(words[i])) {
            bool same = true;
            for (size_t k = 0; k < n && same; k++)
                same = (text[k] | 32) == words[i][k];
            if (same)
                return i;
        }
    }
    return -1;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* With BMI2 the k-th set bit is one instruction. */
__attribute__((target("bmi2"))) static int nth_bmi2(barbu_cards set, unsigned k)
{
    return __builtin_ctzll(__builtin_ia32_pdep_di(UINT64_C(1) << k, set));
}
#endif

int barbu_nth_card(barbu_cards set, unsigned k)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("bmi2"))
        return nth_bmi2(set, k);
#endif
    /* Skip whole suits, then single cards. */
    int base = 0;
    for (int lane = 0; lane < 3; lane++) {
        unsigned n = (unsigned)__builtin_popcountll((set >> base) & 0xffff);
        if (k < n)
            break;
        k -= n;
        base += 16;
    }
    set &= ~UINT64_C(0) << base;
    while (k--)
        set &= set - 1;
    return __builtin_ctzll(set);
}

bool barbu_action_equal(const barbu_action *a, const barbu_action *b)
{
    if (a->type != b->type || a->seat != b->seat)
        return false;
    switch (a->type) {
    case BARBU_ACT_DECLARE:
        return a->contracts == b->contracts && a->trump == b->trump && a->rank == b->rank;
    case BARBU_ACT_BID:
        return a->doubles == b->doubles && a->redoubles == b->redoubles;
    case BARBU_ACT_PLAY:
    case BARBU_ACT_PASS_ON:
        return a->cards == b->cards;
    case BARBU_ACT_ARRANGE:
        return a->cards == b->cards && a->middle == b->middle;
    default:
        return true;
    }
}

uint64_t bb_subseed(uint64_t seed, int use, int index)
{
    barbu_rng rng;
    barbu_rng_seed(&rng, seed);
    uint64_t a = barbu_rng_next(&rng);
    barbu_rng_seed(&rng, a ^ ((uint64_t)use << 56) ^ (uint64_t)(unsigned)index);
    return barbu_rng_next(&rng);
}

int bb_diag(barbu_diag *diag, int line, int err, const char *fmt, ...)
{
    if (diag != NULL) {
        diag->line = line;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
        va_end(ap);
    }
    return err;
}
