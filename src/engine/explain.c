/*
 * explain.c - why the engine refuses an action, in the words of the table.
 *
 * barbu_check returns a code; a player needs the fault itself: whose turn
 * it is and what the game waits for, which suit was led, which card fits
 * the layout, how often a contract has been chosen.  Every client (the
 * replay, barbu play, the server and through it the browser) asks here, so
 * the words are the same everywhere.  The texts name seats, never "you":
 * the same sentence serves a player, a kibitzer and a record's reader.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const SUIT_WORDS[4] = {"clubs", "diamonds", "hearts", "spades"};

static const char *rank_word(int rank)
{
    static const char *const WORDS[] = {"?", "?", "2",  "3",    "4",     "5",    "6",  "7",
                                        "8", "9", "10", "Jack", "Queen", "King", "Ace"};
    return rank >= 2 && rank <= BARBU_ACE ? WORDS[rank] : "?";
}

/* "the 8 of hearts" */
static void card_words(barbu_card card, char *buf, size_t cap)
{
    snprintf(buf, cap, "the %s of %s", rank_word(BARBU_RANK(card)), SUIT_WORDS[BARBU_SUIT(card)]);
}

/* "QS", "QS and 7H", "QS, 8H and 7H": in the order of a hand (spades
 * first, each suit from the ace down). */
static void cards_words(barbu_cards cards, char *buf, size_t cap)
{
    size_t n = 0;
    int left = barbu_count(cards);
    buf[0] = '\0';
    for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--) {
        for (int rank = BARBU_ACE; rank >= 2; rank--) {
            barbu_card c = BARBU_CARD(suit, rank);
            if (!(cards & BARBU_BIT(c)))
                continue;
            char one[8];
            barbu_card_format(c, BARBU_FMT_ASCII, one, sizeof one);
            const char *sep = n == 0 ? "" : left > 1 ? ", " : " and ";
            n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", sep, one);
            left--;
        }
    }
}

void bb_append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

static const char *contract_name(const barbu_rules *r, int c)
{
    return c >= 0 && c < r->n_contracts ? r->contract[c].name : "that contract";
}

/* "once", "twice", "3 times" */
const char *bb_times(int n, char *buf, size_t cap)
{
    if (n == 1)
        return "once";
    if (n == 2)
        return "twice";
    snprintf(buf, cap, "%d times", n);
    return buf;
}
int barbu_waiting_for(const barbu_rules *r, const barbu_table *t, char *buf, size_t cap)
{
    const char *who = t->to_move >= 0 ? barbu_seat_name(t->to_move) : "?";
    switch (t->phase) {
    case BARBU_PHASE_DECLARE:
        return snprintf(buf, cap, "%s's %s", who, r->game == BARBU_GAME_FIFE ? "Call" : "contract");
    case BARBU_PHASE_BID:
        if (t->to_move == t->declarer)
            return snprintf(buf, cap,
                            "%s's answer to the doubles, as the declarer (a redouble or "
                            "a pass)",
                            who);
        return snprintf(buf, cap, "%s's bid (doubles or a pass)", who);
    case BARBU_PHASE_PLAY:
        if (t->kind == BARBU_KIND_DOMINO || t->kind == BARBU_KIND_PATIENCE)
            return snprintf(buf, cap, "%s's card, or a pass when none fits", who);
        return snprintf(buf, cap, "%s's card", who);
    case BARBU_PHASE_CUT:
        return snprintf(buf, cap, "%s's cut of the Unused Pack for %s", who,
                        t->cut_for == BARBU_CUT_CALL ? "the Call" : "a Pass-on");
    case BARBU_PHASE_PASS_ON:
        return snprintf(buf, cap, "%s's Pass-on cards", who);
    case BARBU_PHASE_ARRANGE:
        return snprintf(buf, cap, "%s's rows", who);
    default:
        return snprintf(buf, cap, "nothing: the game is over");
    }
}

/* What an action of a kind is called, for "the game waits for ..., not
 * for a card". */
static const char *action_noun(const barbu_rules *r, int type)
{
    switch (type) {
    case BARBU_ACT_DECLARE:
        return r->game == BARBU_GAME_FIFE ? "a Call" : "a contract";
    case BARBU_ACT_BID:
        return "a bid";
    case BARBU_ACT_PLAY:
        return "a card";
    case BARBU_ACT_PASS:
        return "a pass";
    case BARBU_ACT_PASS_ON:
        return "Pass-on cards";
    case BARBU_ACT_CUT:
        return "a cut";
    default:
        return "rows";
    }
}

/* Whether a seat has bid in the bidding under way: the others bid in turn
 * from the declarer's left, and the declarer answers last. */
static bool has_bid(const barbu_table *t, int seat)
{
    int mine = (seat - t->declarer + 3) & 3, now = (t->to_move - t->declarer + 3) & 3;
    return mine < now;
}

static void explain_turn(const barbu_rules *r, const barbu_table *t, const barbu_action *a,
                         char *buf, size_t cap)
{
    char waiting[128];
    barbu_waiting_for(r, t, waiting, sizeof waiting);
    if (a->seat < 0 || a->seat > 3) {
        snprintf(buf, cap, "no such seat: the game waits for %s", waiting);
        return;
    }
    const char *who = barbu_seat_name(a->seat);
    if (t->phase == BARBU_PHASE_BID && a->type == BARBU_ACT_BID && has_bid(t, a->seat))
        snprintf(buf, cap,
                 "%s has already bid on this deal, and each player bids once: the game "
                 "waits for %s",
                 who, waiting);
    else if (t->phase == BARBU_PHASE_PASS_ON && (t->passed_on & (1u << a->seat)))
        snprintf(buf, cap, "%s has already chosen the cards of this Pass-on: the game waits for %s",
                 who, waiting);
    else
        snprintf(buf, cap, "it is not %s's turn: the game waits for %s", who, waiting);
}

static void explain_phase(const barbu_rules *r, const barbu_table *t, const barbu_action *a,
                          char *buf, size_t cap)
{
    if (a->type == BARBU_ACT_PASS && t->phase == BARBU_PHASE_PLAY) {
        snprintf(buf, cap, "a pass is only for Domino and Patience: a card must be played");
        return;
    }
    char waiting[128];
    barbu_waiting_for(r, t, waiting, sizeof waiting);
    snprintf(buf, cap, "the game waits for %s, not for %s", waiting, action_noun(r, a->type));
}

/* Why a card (or the first of a group that does not fit) is not laid out:
 * the layout's start, or the ends of its suit. */
void bb_layout_why(const barbu_rules *r, const barbu_table *t, barbu_cards cards, char *buf,
                   size_t cap)
{
    barbu_cards fits = bb_layout_playable(r, t, BARBU_ALL_CARDS);
    barbu_cards bad = cards & ~fits;
    barbu_card card = (barbu_card)bb_lowest(bad ? bad : cards);
    int suit = BARBU_SUIT(card);
    const char *start = rank_word(t->rank);
    const char *article = t->rank == 8 || t->rank == BARBU_ACE ? "an" : "a";
    char what[40];
    card_words(card, what, sizeof what);
    if ((t->lo[0] | t->lo[1] | t->lo[2] | t->lo[3]) == 0) {
        snprintf(buf, cap, "the layout opens from the %ss: the first card must be %s %s, not %s",
                 start, article, start, what);
        return;
    }
    if (t->lo[suit] == 0) {
        snprintf(buf, cap, "%s are not started yet, and a suit opens with its %s: %s does not fit",
                 SUIT_WORDS[suit], start, what);
        return;
    }
    barbu_cards ends = bb_layout_playable(r, t, BARBU_SUIT_CARDS(suit));
    char next[96] = "";
    for (barbu_cards c = ends; c; c &= c - 1) {
        char one[40];
        card_words((barbu_card)bb_lowest(c), one, sizeof one);
        bb_append(next, sizeof next, "%s%s", c == ends ? "" : " or ", one);
    }
    if (t->lo[suit] == t->hi[suit])
        snprintf(buf, cap, "%s hold only the %s so far: %s does not fit, only %s", SUIT_WORDS[suit],
                 rank_word(t->lo[suit]), what, ends ? next : "nothing more");
    else
        snprintf(buf, cap, "%s run from the %s to the %s: %s does not fit, only %s",
                 SUIT_WORDS[suit], rank_word(t->lo[suit]), rank_word(t->hi[suit]), what,
                 ends ? next : "nothing more");
}

static void explain_play(const barbu_rules *r, const barbu_table *t, barbu_cards hand,
                         const barbu_action *a, int err, char *buf, size_t cap)
{
    const barbu_trick *k = &t->trick;
    char list[160];
    switch (err) {
    case BARBU_ENOTHELD:
        cards_words(a->cards & ~hand, list, sizeof list);
        snprintf(buf, cap, "%s does not hold %s", barbu_seat_name(a->seat), list);
        return;
    case BARBU_EFOLLOW: {
        int led = BARBU_SUIT(k->card[0]);
        snprintf(buf, cap, "%s were led: a player who holds %s must follow suit", SUIT_WORDS[led],
                 SUIT_WORDS[led]);
        return;
    }
    case BARBU_ETRUMP:
        snprintf(buf, cap, "a player void in %s, which were led, must trump (%s are trumps)",
                 SUIT_WORDS[BARBU_SUIT(k->card[0])], SUIT_WORDS[t->trump & 3]);
        return;
    case BARBU_EOVERTRUMP:
        snprintf(buf, cap, "the trick has been trumped: a player who can must over-trump it");
        return;
    case BARBU_EHIGHER:
        snprintf(buf, cap, "trumps were led: a player who can must play a higher trump");
        return;
    case BARBU_ELAYOUT:
        bb_layout_why(r, t, a->cards, buf, cap);
        return;
    case BARBU_EMUSTPLAY: {
        barbu_cards fit = bb_playable(r, t, hand);
        cards_words(fit, list, sizeof list);
        snprintf(buf, cap,
                 "%s %s the layout: a player who can play must, and only one who cannot passes",
                 list, (fit & (fit - 1)) ? "fit" : "fits");
        return;
    }
    case BARBU_EONECARD:
        if (r->game == BARBU_GAME_FIFE && t->kind == BARBU_KIND_PATIENCE)
            snprintf(buf, cap,
                     "in a Player Round cards go down one at a time, except a player's "
                     "last cards, to go out");
        else
            snprintf(buf, cap, "cards are played one at a time here");
        return;
    default:
        snprintf(buf, cap, "%s", barbu_strerror(err));
        return;
    }
}

static void explain_declare(const barbu_rules *r, const barbu_table *t, const barbu_action *a,
                            int err, char *buf, size_t cap)
{
    unsigned m = a->contracts;
    int c = m ? __builtin_ctz(m) : -1;
    const char *who = barbu_seat_name(a->seat);
    if (r->game == BARBU_GAME_FIFE) {
        static const char *const NAMES[BARBU_CALLS] = {
            "Aces", "King of Hearts", "Queens", "Hearts", "Tricks", "Patience 1", "Patience 2"};
        if (err == BARBU_EUSED) {
            unsigned done = m & t->calls_done;
            buf[0] = '\0';
            for (unsigned d = done; d; d &= d - 1)
                bb_append(buf, cap, "%s%s",
                          d == done       ? ""
                          : (d & (d - 1)) ? ", "
                                          : " and ",
                          NAMES[__builtin_ctz(d)]);
            bb_append(buf, cap, " %s already been played in this Round",
                      (done & (done - 1)) ? "have" : "has");
        } else if (err == BARBU_ESUIT) {
            snprintf(buf, cap, "a Call takes no trump suit: the Fife game has no Trumps");
        } else if (err == BARBU_ERANK) {
            snprintf(buf, cap, "a Call takes no start rank: the Patiences start from the Jacks");
        } else {
            snprintf(buf, cap, "%s", barbu_strerror(err));
        }
        return;
    }
    switch (err) {
    case BARBU_EUSED: {
        int mine = c >= 0 && c < r->n_contracts ? r->contract[c].per_player : 0;
        if (mine <= 1)
            snprintf(buf, cap, "%s has already declared %s, which each player declares once", who,
                     contract_name(r, c));
        else {
            static const char *const NEXT[] = {"first", "second", "third",   "fourth",
                                               "fifth", "sixth",  "seventh", "eighth"};
            int used = t->used[a->seat][c];
            char done[16];
            snprintf(buf, cap,
                     "%s has already chosen %s %s, as often as a player may: not a %s time", who,
                     contract_name(r, c), bb_times(used, done, sizeof done),
                     used < 8 ? NEXT[used] : "further");
        }
        return;
    }
    case BARBU_EPLAYEDOUT: {
        char n[16];
        snprintf(buf, cap, "%s has been played %s, as often as the game allows",
                 contract_name(r, c), bb_times(barbu_contract_times(r, c), n, sizeof n));
        return;
    }
    case BARBU_ESUIT:
        if (c >= 0 && c < r->n_contracts && r->contract[c].kind == BARBU_KIND_TRUMPS)
            snprintf(buf, cap, "%s needs a trump suit (clubs, diamonds, hearts or spades)",
                     contract_name(r, c));
        else
            snprintf(buf, cap, "only Trumps takes a trump suit, not %s", contract_name(r, c));
        return;
    case BARBU_ERANK:
        if (c >= 0 && c < r->n_contracts && r->contract[c].kind == BARBU_KIND_DOMINO)
            snprintf(buf, cap, "%s needs a start rank from the %s to the Ace", contract_name(r, c),
                     rank_word(r->deck_low));
        else
            snprintf(buf, cap, "only Domino takes a start rank, not %s", contract_name(r, c));
        return;
    default:
        snprintf(buf, cap, "%s", barbu_strerror(err));
        return;
    }
}

static void explain_bid(const barbu_rules *r, const barbu_table *t, const barbu_action *a, int err,
                        char *buf, size_t cap)
{
    int seat = a->seat, decl = t->declarer;
    const char *who = barbu_seat_name(seat);
    unsigned by = bb_doubled_by(t, seat);
    if (err == BARBU_EDOUBLE) {
        unsigned asked = a->doubles;
        if (seat == decl) {
            snprintf(buf, cap,
                     "%s is the declarer, and a declarer does not double, only "
                     "redoubles a player who doubled them",
                     who);
        } else if (asked & (1u << seat)) {
            snprintf(buf, cap, "a player cannot double themselves");
        } else if (asked & by) {
            int back = bb_lowest(asked & by);
            snprintf(buf, cap, "%s doubled %s: %s answers with a redouble, not a double",
                     barbu_seat_name(back), who, who);
        } else if (!bb_negative(r, t->contracts)) {
            snprintf(buf, cap, "at a positive contract only the declarer, %s, may be doubled",
                     barbu_seat_name(decl));
        } else {
            snprintf(buf, cap, "%s", barbu_strerror(err));
        }
        return;
    }
    if (err == BARBU_EREDOUBLE) {
        unsigned not_by = a->redoubles & ~by;
        if (not_by & (1u << seat))
            snprintf(buf, cap, "a player cannot redouble themselves");
        else
            snprintf(buf, cap,
                     "%s did not double %s: only a player who doubled %s can be redoubled",
                     barbu_seat_name(not_by ? bb_lowest(not_by) : seat), who, who);
        return;
    }
    if (err == BARBU_ECOMPULSORY) {
        snprintf(buf, cap,
                 "%s must double the declarer %s now: %s still owes %s as many doubles (%d) as "
                 "%s has contracts left",
                 who, barbu_seat_name(decl), who, barbu_seat_name(decl), t->owed[seat][decl],
                 barbu_seat_name(decl));
        return;
    }
    snprintf(buf, cap, "%s", barbu_strerror(err));
}

static int explain(const barbu_rules *r, const barbu_table *t, barbu_cards hand,
                   const barbu_action *a, int err, char *buf, size_t cap)
{
    if (cap == 0)
        return err;
    buf[0] = '\0';
    if (err == 0)
        return 0;
    if (err == BARBU_ETURN) {
        explain_turn(r, t, a, buf, cap);
        return err;
    }
    if (err == BARBU_EPHASE) {
        explain_phase(r, t, a, buf, cap);
        return err;
    }
    switch (a->type) {
    case BARBU_ACT_PLAY:
    case BARBU_ACT_PASS:
        explain_play(r, t, hand, a, err, buf, cap);
        break;
    case BARBU_ACT_DECLARE:
        explain_declare(r, t, a, err, buf, cap);
        break;
    case BARBU_ACT_BID:
        explain_bid(r, t, a, err, buf, cap);
        break;
    case BARBU_ACT_PASS_ON:
        if (err == BARBU_ECOUNT)
            snprintf(buf, cap, "a Pass-on is three cards, not %d", barbu_count(a->cards));
        else if (err == BARBU_ENOTHELD)
            explain_play(r, t, hand, a, err, buf, cap);
        else
            snprintf(buf, cap, "%s", barbu_strerror(err));
        break;
    case BARBU_ACT_ARRANGE:
        if (barbu_arrange_check(hand, a->cards, a->middle, r->fouls_lose, buf, cap) == 0 ||
            buf[0] == '\0')
            snprintf(buf, cap, "%s", barbu_strerror(err));
        break;
    default:
        snprintf(buf, cap, "%s", barbu_strerror(err));
        break;
    }
    return err;
}

int barbu_explain(const barbu_state *s, const barbu_action *a, char *buf, size_t cap)
{
    barbu_cards hand = s->t.to_move >= 0 ? s->hand[s->t.to_move] : 0;
    return explain(s->rules, &s->t, hand, a, barbu_check(s, a), buf, cap);
}

int barbu_view_explain(const barbu_view *v, const barbu_action *a, char *buf, size_t cap)
{
    int mover = v->t.to_move;
    int err = barbu_view_check(v, a);
    if (err == BARBU_ETURN && a->seat == mover && v->seat != mover && cap > 0) {
        /* The mover's action, asked from another seat's view. */
        char waiting[128];
        barbu_waiting_for(v->rules, &v->t, waiting, sizeof waiting);
        snprintf(buf, cap, "only %s acts for %s: the game waits for %s", barbu_seat_name(mover),
                 barbu_seat_name(mover), waiting);
        return err;
    }
    /* A view that is not the mover's cannot say more than whose turn it is. */
    barbu_cards hand = mover >= 0 ? v->hand[mover] : 0;
    return explain(v->rules, &v->t, hand, a, err, buf, cap);
}

int barbu_hands_check(const barbu_rules *r, const barbu_cards hands[4], char *why, size_t cap)
{
    barbu_cards deck = bb_deck(r), all = 0, twice = 0, outside = 0;
    int size = barbu_rules_hand_size(r);
    char list[160], scratch[8];
    if (why == NULL || cap == 0) {
        why = scratch; /* only the verdict is wanted */
        cap = sizeof scratch;
    }
    why[0] = '\0';
    for (int s = 0; s < 4; s++) {
        twice |= hands[s] & all;
        all |= hands[s];
        outside |= hands[s] & ~deck;
    }
    if (outside) {
        cards_words(outside, list, sizeof list);
        snprintf(why, cap, "%s %s not in the %d-card pack (%s to Ace in each suit)", list,
                 (outside & (outside - 1)) ? "are" : "is", barbu_count(deck),
                 rank_word(r->deck_low));
        return BARBU_EHANDS;
    }
    if (twice) {
        barbu_card c = (barbu_card)bb_lowest(twice);
        char one[8];
        barbu_card_format(c, BARBU_FMT_ASCII, one, sizeof one);
        unsigned holders = 0;
        for (int s = 0; s < 4; s++)
            if (hands[s] & BARBU_BIT(c))
                holders |= 1u << s;
        snprintf(why, cap, "%s is dealt %s:", one,
                 __builtin_popcount(holders) == 2 ? "twice" : "more than once");
        for (unsigned h = holders; h; h &= h - 1)
            bb_append(why, cap, "%s%s",
                      h == holders    ? " "
                      : (h & (h - 1)) ? ", "
                                      : " and ",
                      barbu_seat_name(__builtin_ctz(h)));
        bb_append(why, cap, " hold it");
        return BARBU_EHANDS;
    }
    bool counts = true;
    for (int s = 0; s < 4; s++)
        counts = counts && barbu_count(hands[s]) == size;
    if (!counts) {
        snprintf(why, cap, "each hand holds %d cards, but", size);
        const char *sep = " ";
        for (int s = 0; s < 4; s++) {
            if (barbu_count(hands[s]) == size)
                continue;
            bb_append(why, cap, "%s%s holds %d", sep, barbu_seat_name(s), barbu_count(hands[s]));
            sep = " and ";
        }
        if (all != deck) {
            barbu_cards gone = deck & ~all;
            cards_words(gone, list, sizeof list);
            bb_append(why, cap, " (%s %s in no hand)", list, (gone & (gone - 1)) ? "are" : "is");
        }
        return BARBU_EHANDS;
    }
    if (all != deck) {
        cards_words(deck & ~all, list, sizeof list);
        snprintf(why, cap, "%s %s in no hand", list,
                 ((deck & ~all) & ((deck & ~all) - 1)) ? "are" : "is");
        return BARBU_EHANDS;
    }
    return 0;
}
