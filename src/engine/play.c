/*
 * play.c - what the seat to move may do, worked out from what it can see:
 * the public table and its own hand.  The same functions answer for a state
 * and for a view, so a client never needs a rule of its own.
 */
#include <string.h>

#include "internal.h"

bool bb_business_equal(const barbu_table *t, int seat)
{
    int level = -1;
    for (int other = 0; other < 4; other++) {
        if (other == seat)
            continue;
        int b = bb_business(t->dbl, t->rdbl, seat, other);
        if (level >= 0 && b != level)
            return false;
        level = b;
    }
    return true;
}

/* Trumps: the obligations of seeds 002, 003 and 004. */
static barbu_cards trumps_playable(const barbu_rules *r, const barbu_table *t, barbu_cards hand)
{
    const barbu_trick *k = &t->trick;
    if (k->n == 0)
        return hand;
    int led = BARBU_SUIT(k->card[0]);
    barbu_cards trumps = BARBU_SUIT_CARDS(t->trump);
    barbu_cards follow = hand & BARBU_SUIT_CARDS(led);
    barbu_cards on_table = 0;
    for (int i = 0; i < k->n; i++)
        on_table |= BARBU_BIT(k->card[i]);
    barbu_cards table_trumps = on_table & trumps;
    if (led == t->trump) {
        /* Trumps led: a higher trump if possible, else any trump. */
        if (follow == 0)
            return hand;
        barbu_cards higher = follow & bb_above((barbu_card)bb_highest(table_trumps));
        return higher ? higher : follow;
    }
    if (follow)
        return follow;
    barbu_cards mine = hand & trumps;
    if (table_trumps) {
        /* Already trumped: over-trump if possible, else anything. */
        barbu_cards over = mine & bb_above((barbu_card)bb_highest(table_trumps));
        return over ? over : hand;
    }
    if (r->must_trump && mine)
        return mine;
    return hand;
}

barbu_cards bb_playable_slow(const barbu_rules *r, const barbu_table *t, barbu_cards hand)
{
    if (t->kind == BARBU_KIND_DOMINO || t->kind == BARBU_KIND_PATIENCE)
        return bb_layout_playable(r, t, hand);
    if (t->kind == BARBU_KIND_TRUMPS)
        return trumps_playable(r, t, hand);
    const barbu_trick *k = &t->trick;
    if (k->n == 0) {
        if ((t->rule_flags & BARBU_CF_HEARTS_LEAD) && (hand & ~BB_HEARTS))
            return hand & ~BB_HEARTS;
        return hand;
    }
    barbu_cards follow = hand & BARBU_SUIT_CARDS(BARBU_SUIT(k->card[0]));
    if (follow)
        return follow;
    if ((t->rule_flags & BARBU_CF_ISRAELI) && r->israeli == BARBU_ISRAELI_ENFORCE) {
        /* The holder of the last penalty card still in a hand, unable to
         * follow and doubled equally with all three others, must discard it
         * (seed 002, rule 7). */
        barbu_cards left = bb_outstanding(t);
        if ((left & hand) && (left & (left - 1)) == 0 && bb_business_equal(t, t->to_move))
            return left;
    }
    return hand;
}

/*
 * Every legal play tells the table something: a player who did not follow
 * has none of the suit led; at Trumps one who did not trump (or over-trump)
 * when bound to has no trump (or no higher one); a heart led under the
 * hearts-lead rule means nothing but hearts; a player who keeps the last
 * penalty card when the enforced Israeli rule would have made them discard
 * it does not hold it.  The engine knows the rules, so it draws these
 * conclusions once for every client.  (The card is already counted as
 * played when this runs.)
 */
void bb_note_play(const barbu_rules *r, barbu_table *t, int seat, barbu_card card)
{
    const barbu_trick *k = &t->trick;
    barbu_cards shown = 0;
    int suit = BARBU_SUIT(card);
    if (k->n == 0) {
        if (suit == BARBU_HEARTS && (t->rule_flags & BARBU_CF_HEARTS_LEAD))
            shown = BARBU_ALL_CARDS & ~BB_HEARTS;
        t->shown_out[seat] |= shown;
        return;
    }
    int led = BARBU_SUIT(k->card[0]);
    if (suit != led)
        shown |= BARBU_SUIT_CARDS(led);
    if (t->kind == BARBU_KIND_TRUMPS) {
        barbu_cards trumps = BARBU_SUIT_CARDS(t->trump), on_table = 0;
        for (int i = 0; i < k->n; i++)
            on_table |= BARBU_BIT(k->card[i]);
        barbu_cards table_trumps = on_table & trumps;
        barbu_cards higher =
            table_trumps ? trumps & bb_above((barbu_card)bb_highest(table_trumps)) : 0;
        bool played_higher = (BARBU_BIT(card) & higher) != 0;
        if (led == t->trump) {
            if (!played_higher)
                shown |= higher; /* could not beat the trumps on the table */
        } else if (suit != led) {
            if (table_trumps && !played_higher)
                shown |= higher; /* could not over-trump */
            else if (!table_trumps && r->must_trump && suit != t->trump)
                shown |= trumps; /* could not trump */
        }
    } else if (suit != led && (t->rule_flags & BARBU_CF_ISRAELI) &&
               r->israeli == BARBU_ISRAELI_ENFORCE) {
        /* The penalty cards in hands before this card left one. */
        barbu_cards left = bb_outstanding(t) | (t->penalty & BARBU_BIT(card));
        if (left && (left & (left - 1)) == 0 && !(left & BARBU_BIT(card)) &&
            bb_business_equal(t, seat))
            shown |= left;
    }
    t->shown_out[seat] |= shown;
}

void bb_note_pass(const barbu_rules *r, barbu_table *t, int seat)
{
    t->shown_out[seat] |= bb_layout_playable(r, t, BARBU_ALL_CARDS);
}

int barbu_trick_top(const barbu_table *t)
{
    const barbu_trick *k = &t->trick;
    if (k->n == 0)
        return -1;
    barbu_cards cards = 0;
    for (int i = 0; i < k->n; i++)
        cards |= BARBU_BIT(k->card[i]);
    barbu_card top = bb_trick_top_card(cards, k->card[0], t->trump);
    int pos = 0;
    while (k->card[pos] != top)
        pos++;
    return pos;
}

barbu_cards barbu_trick_beaters(const barbu_table *t)
{
    int pos = barbu_trick_top(t);
    if (pos < 0)
        return BARBU_ALL_CARDS;
    barbu_card top = t->trick.card[pos];
    barbu_cards beaters = bb_above(top);
    if (t->trump >= 0 && BARBU_SUIT(top) != t->trump)
        beaters |= BARBU_SUIT_CARDS(t->trump);
    return beaters;
}

int barbu_state_from_view(const barbu_view *v, const barbu_cards hands[4], barbu_state *out)
{
    const barbu_table *t = &v->t;
    if (t->phase == BARBU_PHASE_OVER)
        return BARBU_EOVER;
    /* Rows set by other seats are secret, and a state needs them. */
    unsigned others = v->seat == BARBU_ALL_SEATS ? 0xfu : 0xfu & ~(1u << v->seat);
    if (t->phase == BARBU_PHASE_ARRANGE && (t->arranged & others))
        return BARBU_EPHASE;
    barbu_cards all = 0, played = t->played[0] | t->played[1] | t->played[2] | t->played[3];
    for (int seat = 0; seat < 4; seat++) {
        /* Each hand as big as the table says, apart from the others and the
         * cards played, keeping the cards the view knows and none that its
         * seat has shown out of. */
        if ((hands[seat] & (all | played | t->shown_out[seat])) ||
            barbu_count(hands[seat]) != t->in_hand[seat] ||
            (hands[seat] & v->hand[seat]) != v->hand[seat])
            return BARBU_EHANDS;
        all |= hands[seat];
    }
    if ((all | played) != bb_deck(v->rules))
        return BARBU_EHANDS;
    memset(out, 0, sizeof *out);
    out->t = *t;
    out->rules = v->rules;
    for (int seat = 0; seat < 4; seat++) {
        out->hand[seat] = hands[seat];
        out->dealt[seat] = hands[seat] | t->played[seat];
    }
    if (t->phase == BARBU_PHASE_ARRANGE && v->seat >= 0 && v->seat < 4 &&
        ((t->arranged >> v->seat) & 1)) {
        out->pending[v->seat][0] = v->rows[BARBU_ROW_BACK];
        out->pending[v->seat][1] = v->rows[BARBU_ROW_MIDDLE];
    }
    return 0;
}

int bb_play_error(const barbu_rules *r, const barbu_table *t, barbu_cards hand, barbu_card card)
{
    const barbu_trick *k = &t->trick;
    if (t->kind == BARBU_KIND_DOMINO || t->kind == BARBU_KIND_PATIENCE)
        return BARBU_ELAYOUT;
    if (k->n == 0)
        return BARBU_EHEARTS;
    int led = BARBU_SUIT(k->card[0]);
    bool follows = BARBU_SUIT(card) == led;
    barbu_cards follow = hand & BARBU_SUIT_CARDS(led);
    if (follow && !follows)
        return BARBU_EFOLLOW;
    if (t->kind == BARBU_KIND_TRUMPS) {
        if (led == t->trump)
            return BARBU_EHIGHER;
        for (int i = 0; i < k->n; i++)
            if (BARBU_SUIT(k->card[i]) == t->trump)
                return BARBU_EOVERTRUMP;
        return BARBU_ETRUMP;
    }
    (void)r;
    return BARBU_EISRAELI;
}

static int check_declare(const barbu_rules *r, const barbu_table *t, const barbu_action *a)
{
    unsigned m = a->contracts;
    if (m == 0 || (m & (m - 1)) != 0)
        return BARBU_ECONTRACT;
    int c = __builtin_ctz(m);
    if (c >= r->n_contracts || r->contract[c].per_player == 0)
        return BARBU_ECONTRACT;
    int err = bb_schedule_check(r, t, a->seat, c);
    if (err != 0)
        return err;
    const barbu_contract *k = &r->contract[c];
    bool wants_trump = k->kind == BARBU_KIND_TRUMPS;
    bool wants_rank = k->kind == BARBU_KIND_DOMINO;
    if (wants_trump ? (a->trump < 0 || a->trump > 3) : a->trump != -1)
        return BARBU_ESUIT;
    if (wants_rank ? (a->rank < r->deck_low || a->rank > BARBU_ACE) : a->rank != 0)
        return BARBU_ERANK;
    return 0;
}

int bb_check(const barbu_rules *r, const barbu_table *t, barbu_cards hand, const barbu_action *a)
{
    /* A card in the play, before the general order of the checks below: the
     * same answer (the phase is not over, the type and phase agree, the seat
     * is the one to move), sooner. */
    if (a->type == BARBU_ACT_PLAY && t->phase == BARBU_PHASE_PLAY && a->seat == t->to_move)
        return bb_check_play(r, t, hand, a->cards);
    if (t->phase == BARBU_PHASE_OVER)
        return BARBU_EOVER;
    if (a->type > BARBU_ACT_ARRANGE)
        return BARBU_EINVAL;
    if (a->seat != t->to_move)
        return BARBU_ETURN;
    static const uint8_t PHASE_OF[] = {
        [BARBU_ACT_DECLARE] = BARBU_PHASE_DECLARE, [BARBU_ACT_BID] = BARBU_PHASE_BID,
        [BARBU_ACT_PLAY] = BARBU_PHASE_PLAY,       [BARBU_ACT_PASS] = BARBU_PHASE_PLAY,
        [BARBU_ACT_PASS_ON] = BARBU_PHASE_PASS_ON, [BARBU_ACT_CUT] = BARBU_PHASE_CUT,
        [BARBU_ACT_ARRANGE] = BARBU_PHASE_ARRANGE,
    };
    if (PHASE_OF[a->type] != t->phase)
        return BARBU_EPHASE;
    switch (a->type) {
    case BARBU_ACT_DECLARE:
        if (r->game == BARBU_GAME_FIFE)
            return bb_fife_check_calls(t, a);
        return check_declare(r, t, a);
    case BARBU_ACT_CUT:
        return bb_fife_check_cut(t, a);
    case BARBU_ACT_PASS_ON:
        return bb_fife_check_pass_on(t, hand, a);
    case BARBU_ACT_BID:
        return bb_check_bid(r, t, BB_BIDDING_UNKNOWN, a);
    case BARBU_ACT_PLAY:
        return bb_check_play(r, t, hand, a->cards);
    case BARBU_ACT_PASS:
        if (t->kind != BARBU_KIND_DOMINO && t->kind != BARBU_KIND_PATIENCE)
            return BARBU_EPHASE;
        return bb_playable(r, t, hand) ? BARBU_EMUSTPLAY : 0;
    case BARBU_ACT_ARRANGE:
        return barbu_arrange_check(hand, a->cards, a->middle, r->fouls_lose, NULL, 0);
    default:
        return BARBU_EPHASE;
    }
}

static int push(barbu_action *out, int cap, int n, const barbu_action *a)
{
    if (n < cap)
        out[n] = *a;
    return n + 1;
}

static int legal_declares(const barbu_rules *r, const barbu_table *t, barbu_action *out, int cap)
{
    int n = 0, seat = t->to_move;
    /* The open contracts only, rather than a test of each: which are open
     * is as good as random from deal to deal. */
    unsigned open = bb_schedule_open(r, t, seat);
    for (; open; open &= open - 1) {
        int c = __builtin_ctz(open);
        if (c >= r->n_contracts || r->contract[c].per_player == 0)
            continue;
        const barbu_contract *k = &r->contract[c];
        if (k->kind == BARBU_KIND_TRUMPS) {
            for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--) {
                barbu_action a = barbu_act_declare(seat, c, suit, 0);
                n = push(out, cap, n, &a);
            }
        } else if (k->kind == BARBU_KIND_DOMINO) {
            for (int rank = r->deck_low; rank <= BARBU_ACE; rank++) {
                barbu_action a = barbu_act_declare(seat, c, -1, rank);
                n = push(out, cap, n, &a);
            }
        } else {
            barbu_action a = barbu_act_declare(seat, c, -1, 0);
            n = push(out, cap, n, &a);
        }
    }
    return n;
}

/* The k cards of a set picked by the bits of sel (a k-subset of 0..n-1). */
static barbu_cards pick(const barbu_card *cards, unsigned sel)
{
    barbu_cards set = 0;
    for (; sel; sel &= sel - 1)
        set |= BARBU_BIT(cards[__builtin_ctz(sel)]);
    return set;
}

/* The next larger number with as many bits set (Gosper's hack). */
static unsigned next_subset(unsigned x)
{
    unsigned low = x & -x, ripple = x + low;
    return ripple | (((x ^ ripple) >> 2) / low);
}

/* Spreads the low bits of x over the set bits of mask (a portable pdep). */
static unsigned spread(unsigned x, unsigned mask)
{
    unsigned out = 0;
    for (; mask && x; mask &= mask - 1, x >>= 1)
        if (x & 1)
            out |= mask & -mask;
    return out;
}

/* Every valid setting of the rows: a back of 5, a middle of 5 from the rest,
 * the last 3 in front, in a fixed order.  Each row of 5 or 3 of the 13 cards
 * is valued once (1,573 rows), so the 72,072 splits cost lookups only. */
static int legal_arrangements(const barbu_rules *r, int seat, barbu_cards hand, barbu_action *out,
                              int cap)
{
    barbu_card cards[13];
    int n = 0;
    if (barbu_count(hand) != 13)
        return 0;
    for (barbu_cards h = hand; h; h &= h - 1)
        cards[n++] = (barbu_card)bb_lowest(h);
    uint32_t value[1u << 13];
    for (unsigned m = 0x7; m < (1u << 13); m = next_subset(m))
        value[m] = barbu_poker_value(pick(cards, m));
    for (unsigned m = 0x1f; m < (1u << 13); m = next_subset(m))
        value[m] = barbu_poker_value(pick(cards, m));
    int count = 0;
    for (unsigned back = 0x1f; back < (1u << 13); back = next_subset(back)) {
        unsigned rest = 0x1fffu & ~back;
        for (unsigned sel = 0x1f; sel < (1u << 8); sel = next_subset(sel)) {
            unsigned mid = spread(sel, rest), front = rest & ~mid;
            if (!r->fouls_lose && (value[mid] > value[back] || value[front] > value[mid]))
                continue;
            if (count < cap) {
                out[count] = barbu_act(BARBU_ACT_ARRANGE, seat);
                out[count].cards = pick(cards, back);
                out[count].middle = pick(cards, mid);
            }
            count++;
        }
    }
    return count;
}

/* Every three cards of the hand (56 of 8). */
static int legal_pass_ons(int seat, barbu_cards hand, barbu_action *out, int cap)
{
    barbu_card cards[BARBU_MAX_TRICKS];
    int n = 0, count = 0;
    for (barbu_cards h = hand; h; h &= h - 1)
        cards[n++] = (barbu_card)bb_lowest(h);
    if (n < 3)
        return 0;
    for (unsigned sel = 0x7; sel < (1u << n); sel = next_subset(sel)) {
        barbu_action a = barbu_act(BARBU_ACT_PASS_ON, seat);
        a.cards = pick(cards, sel);
        count = push(out, cap, count, &a);
    }
    return count;
}

/* The phases other than the play, apart: their lists are seldom asked for,
 * and bb_legal's own path for a card stays short. */
static __attribute__((noinline)) int legal_other(const barbu_rules *r, const barbu_table *t,
                                                 barbu_cards hand, barbu_action *out, int cap)
{
    switch (t->phase) {
    case BARBU_PHASE_DECLARE:
        if (r->game == BARBU_GAME_FIFE)
            return bb_fife_legal_calls(t, out, cap);
        return legal_declares(r, t, out, cap);
    case BARBU_PHASE_CUT: {
        barbu_action a = barbu_act(BARBU_ACT_CUT, t->to_move);
        return push(out, cap, 0, &a);
    }
    case BARBU_PHASE_PASS_ON:
        return legal_pass_ons(t->to_move, hand, out, cap);
    case BARBU_PHASE_BID:
        return bb_legal_bids(r, t, BB_BIDDING_UNKNOWN, out, cap);
    case BARBU_PHASE_ARRANGE:
        return legal_arrangements(r, t->to_move, hand, out, cap);
    default:
        return 0;
    }
}

int bb_legal(const barbu_rules *r, const barbu_table *t, barbu_cards hand, barbu_action *out,
             int cap)
{
    if (t->phase != BARBU_PHASE_PLAY)
        return legal_other(r, t, hand, out, cap);
    barbu_cards cards = bb_playable(r, t, hand);
    if (cards == 0) {
        barbu_action a = barbu_act(BARBU_ACT_PASS, t->to_move);
        return push(out, cap, 0, &a);
    }
    /* The list of a hand is the inner loop of the random games: each action
     * written as its three words, the first (type and seat) read whole from
     * a constant action of the seat.  (Built here a byte at a time and read
     * back as a word, it would wait on the bytes' stores at every list.)  In
     * the play the seat to move is always one of the four. */
    static const barbu_action PLAY_BY[4] = {
        {.type = BARBU_ACT_PLAY, .seat = 0, .trump = -1},
        {.type = BARBU_ACT_PLAY, .seat = 1, .trump = -1},
        {.type = BARBU_ACT_PLAY, .seat = 2, .trump = -1},
        {.type = BARBU_ACT_PLAY, .seat = 3, .trump = -1},
    };
    uint64_t head;
    _Static_assert(offsetof(barbu_action, cards) == sizeof head, "the head of an action");
    memcpy(&head, &PLAY_BY[t->to_move & 3], sizeof head);
    int n = barbu_count(cards);
    if (((n + 3) & ~3) <= cap) {
        /* Four actions a round, the last round's spare ones (no card) left
         * past the count: a hand has 1 to 13 cards at random, and a loop
         * that stopped at the count would be mispredicted at nearly every
         * list, where most lists end in the first round. */
        barbu_action *o = out;
        do {
            for (int k = 0; k < 4; k++, cards &= cards - 1) {
                memcpy(&o[k], &head, sizeof head);
                o[k].cards = cards & -cards;
                o[k].middle = 0;
            }
            o += 4;
        } while (cards);
    } else {
        for (int i = 0; i < n && i < cap; i++, cards &= cards - 1) {
            memcpy(&out[i], &head, sizeof head);
            out[i].cards = cards & -cards;
            out[i].middle = 0;
        }
    }
    if (t->kind == BARBU_KIND_PATIENCE)
        n = bb_patience_groups(r, t, hand, out, cap, n);
    return n;
}
