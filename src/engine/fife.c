/*
 * fife.c - the Fife game of seed 000: Rounds of seven Calls, the Caller's
 * choice of Calls and combinations, the Silly Round's cuts of the Unused
 * Pack and its Pass-ons, and Patience with several cards at once.
 *
 * state.c runs a deal; this file decides who deals, what the next cut
 * means, and which Calls and groups of cards are allowed.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* ---------------------------------------------------------- the Unused Pack */

/* The Unused Pack: the 2-6 of each suit, two Jokers and the Bridge card. */
#define UNUSED_PACK_SIZE 23

static int unused_pack(barbu_card *pack)
{
    int n = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 2; rank <= 6; rank++)
            pack[n++] = BARBU_CARD(suit, rank);
    pack[n++] = BARBU_JOKER;
    pack[n++] = BARBU_JOKER;
    pack[n++] = BARBU_BRIDGE;
    return n;
}

int barbu_cut_value(barbu_card cut)
{
    if (cut == BARBU_BRIDGE)
        return 8;
    if (cut == BARBU_JOKER)
        return 7;
    return BARBU_RANK(cut);
}

static bool valid_cut(int cut)
{
    if (cut == BARBU_JOKER || cut == BARBU_BRIDGE)
        return true;
    return cut >= 0 && cut < 64 && BARBU_RANK(cut) >= 2 && BARBU_RANK(cut) <= 6;
}

int barbu_cut_describe(barbu_card cut, char *buf, size_t cap)
{
    static const char *const SUITS[] = {"clubs", "diamonds", "hearts", "spades"};
    if (cut == BARBU_JOKER)
        return snprintf(buf, cap, "a Joker");
    if (cut == BARBU_BRIDGE)
        return snprintf(buf, cap, "the Bridge card");
    if (!valid_cut(cut))
        return snprintf(buf, cap, "no card");
    return snprintf(buf, cap, "the %d of %s", BARBU_RANK(cut), SUITS[BARBU_SUIT(cut)]);
}

/*
 * A draw for the highest card from the Unused Pack (Bridge, then Joker, then
 * 6 down to 2).  The booklet does not say how ties are broken: the players
 * tied for the highest draw again from what is left of the pack, as in
 * the draw for the first declarer of the other games.  The first round's
 * cards stay in draw[] for the table to show.
 */
int bb_fife_draw(const barbu_state *s, int index, uint8_t draw[4])
{
    bb_stream st;
    bb_stream_open(&st, s, BB_SEED_DRAW, index);
    barbu_card pack[UNUSED_PACK_SIZE];
    int n = unused_pack(pack);
    return bb_draw_high(&st, pack, n, barbu_cut_value, draw);
}

/*
 * A cut shows one card of the whole Unused Pack, which stays whole: each cut
 * is drawn afresh from the seed (deal and cut number), unless the deal's
 * cuts were given (barbu_set_cuts).
 */
int barbu_next_cut(const barbu_state *s)
{
    const barbu_table *t = &s->t;
    if (t->n_cuts < s->n_forced)
        return s->forced_cuts[t->n_cuts];
    bb_stream st;
    bb_stream_open(&st, s, BB_SEED_CUT, t->deal * 4096 + t->n_cuts);
    barbu_card pack[UNUSED_PACK_SIZE];
    unused_pack(pack);
    return pack[bb_stream_below(&st, UNUSED_PACK_SIZE)];
}

int barbu_set_cuts(barbu_state *s, const barbu_card *cuts, int n)
{
    if (s->t.phase == BARBU_PHASE_OVER)
        return BARBU_EOVER;
    if (s->t.acted != 0)
        return BARBU_EPHASE;
    if (n < 0 || n > (int)sizeof s->forced_cuts)
        return BARBU_ELIMIT;
    for (int i = 0; i < n; i++)
        if (!valid_cut(cuts[i]))
            return BARBU_EINVAL;
    memcpy(s->forced_cuts, cuts, (size_t)n);
    s->n_forced = (uint8_t)n;
    return 0;
}

/* ------------------------------------------------------------------ Calls */

static int calls_count(unsigned calls)
{
    return __builtin_popcount(calls);
}

/*
 * The Round's Calls must include at least two Doubles or a Treble (seed 000,
 * rule 9): seven Calls in at most five deals.  The fewest deals the Calls
 * left can take is one for the negatives (The Lot) and one for the
 * Patiences (Double Patience).
 */
static bool calls_feasible(int deals_after, unsigned left)
{
    return deals_after + ((left & BARBU_CALLS_NEGATIVE) != 0) +
               ((left & BARBU_CALLS_PATIENCE) != 0) <=
           5;
}

int barbu_calls_check(unsigned done, int deals_done, unsigned calls)
{
    unsigned m = calls, left = BARBU_CALLS_ALL & ~done;
    if (m == 0 || (m & ~BARBU_CALLS_ALL))
        return BARBU_ECONTRACT;
    if (m & ~left)
        return BARBU_EUSED;
    /* Combinations are all negative, or both Patiences. */
    if ((m & BARBU_CALLS_NEGATIVE) && (m & BARBU_CALLS_PATIENCE))
        return BARBU_ECOMBO;
    /* A Single Patience fills the first Patience column still empty. */
    if (m == (1u << BARBU_CALL_PAT2) && (left & (1u << BARBU_CALL_PAT1)))
        return BARBU_ECOMBO;
    if (!calls_feasible(deals_done + 1, left & ~m))
        return BARBU_ECALLS;
    return 0;
}

int bb_fife_check_calls(const barbu_table *t, const barbu_action *a)
{
    if (a->trump != -1)
        return BARBU_ESUIT;
    if (a->rank != 0)
        return BARBU_ERANK;
    return barbu_calls_check(t->calls_done, t->round_deal, a->contracts);
}

int bb_fife_legal_calls(const barbu_table *t, barbu_action *out, int cap)
{
    int n = 0;
    unsigned left = BARBU_CALLS_ALL & ~t->calls_done;
    unsigned candidates[32 + 2];
    int k = 0;
    /* Singles first, then larger combinations, then the Patiences. */
    for (int size = 1; size <= 5; size++)
        for (unsigned m = 1; m <= BARBU_CALLS_NEGATIVE; m++)
            if (calls_count(m) == size && (m & ~left) == 0)
                candidates[k++] = m;
    if (left & BARBU_CALLS_PATIENCE)
        candidates[k++] = 1u << __builtin_ctz(left & BARBU_CALLS_PATIENCE);
    if ((left & BARBU_CALLS_PATIENCE) == BARBU_CALLS_PATIENCE)
        candidates[k++] = BARBU_CALLS_PATIENCE;
    for (int i = 0; i < k; i++) {
        barbu_action a = barbu_act(BARBU_ACT_DECLARE, t->to_move);
        a.contracts = (uint16_t)candidates[i];
        if (bb_fife_check_calls(t, &a) != 0)
            continue;
        if (n < cap)
            out[n] = a;
        n++;
    }
    return n;
}

int barbu_calls_describe(unsigned calls, char *buf, size_t cap)
{
    static const char *const NAMES[BARBU_CALLS] = {"Aces",   "King of Hearts", "Queens",  "Hearts",
                                                   "Tricks", "Patience",       "Patience"};
    calls &= BARBU_CALLS_ALL;
    if (calls == 0)
        return snprintf(buf, cap, "no Call");
    if (calls == BARBU_CALLS_PATIENCE)
        return snprintf(buf, cap, "Double Patience");
    if (calls & BARBU_CALLS_PATIENCE)
        return snprintf(buf, cap, "Single Patience");
    if (calls == BARBU_CALLS_NEGATIVE)
        return snprintf(buf, cap, "The Lot");
    static const char *const SIZES[] = {"", "", "Double", "Treble", "Quadruple"};
    int len = 0, n = calls_count(calls);
    if (n > 1)
        len = snprintf(buf, cap, "%s: ", SIZES[n]);
    for (unsigned m = calls; m; m &= m - 1) {
        size_t at = (size_t)len < cap ? (size_t)len : cap;
        len +=
            snprintf(buf + at, cap - at, "%s%s", m == calls ? "" : " + ", NAMES[__builtin_ctz(m)]);
    }
    return len;
}

/* --------------------------------------------------------- the Silly Round */

/* The Call a number names: 2 Aces, 3 King of Hearts, 4 Queens, 5 Hearts,
 * 6 Tricks. */
static unsigned call_of_number(barbu_card cut)
{
    return 1u << (BARBU_RANK(cut) - 2);
}

/* The numbers are contiguous in a ring: 2-3-4-5-6 and back to 2. */
static unsigned ring_neighbours(unsigned calls)
{
    unsigned up = (calls << 1) | (calls >> 4), down = (calls >> 1) | (calls << 4);
    return (up | down) & BARBU_CALLS_NEGATIVE;
}

/* The numbers that could still join the sequence: unused ones next to it.
 * A used number breaks contiguity (seed 000: "if a 2 and 4 were the only
 * numbered Calls left, only one of them could be played"). */
static unsigned extensions(unsigned sequence, unsigned unused)
{
    return ring_neighbours(sequence) & unused & ~sequence;
}

/* The negative Calls a later cut could still add to the sequence: the
 * unused numbers next to it, and through a Joker every negative Call left
 * (seed 000: "if ... a '2' was cut, followed by a Joker, this would bring
 * the '4' into play, as the latter is the only remaining negative Call").
 * The Cutter cuts again while there are any.  Without the rules'
 * later_joker, only the numbers next to it count. */
static unsigned could_join(const barbu_rules *r, unsigned sequence, unsigned unused)
{
    return r->later_joker ? unused & ~sequence : extensions(sequence, unused);
}

/*
 * What a cut for the Call means, from the rules for the First Call and for
 * later Calls (seed 000): returns the Calls decided, or 0 when the Cutter
 * must cut again.  t->sequence holds the numbers named so far.  Where the
 * booklet is silent, a cut naming nothing that is left (a Joker with no
 * negative Call left, the Bridge with no Patience left, a used number with
 * neither Patience left) is cut again.
 */
static unsigned interpret_cut(const barbu_rules *r, barbu_table *t, barbu_card cut)
{
    unsigned left = BARBU_CALLS_ALL & ~t->calls_done;
    unsigned negatives = left & BARBU_CALLS_NEGATIVE, patiences = left & BARBU_CALLS_PATIENCE;
    unsigned single = patiences ? 1u << __builtin_ctz(patiences) : 0;
    bool first_call = t->round_deal == 0;
    if (t->sequence == 0) {
        if (cut == BARBU_BRIDGE)
            return patiences; /* Double Patience, or what is left of it */
        if (cut == BARBU_JOKER)
            return negatives;
        unsigned call = call_of_number(cut);
        if (!(call & negatives))
            return single; /* a used number: a Single Patience */
        t->sequence = (uint8_t)call;
        return could_join(r, call, negatives) ? 0 : call;
    }
    unsigned sequence = t->sequence;
    if (cut == BARBU_JOKER)
        return negatives; /* all the remaining negative Calls */
    if (cut != BARBU_BRIDGE) {
        unsigned call = call_of_number(cut);
        /* The First Call only: a repeated first number is a Single
         * Patience. */
        if (first_call && calls_count(sequence) == 1 && call == sequence)
            return single;
        if (call & extensions(sequence, negatives)) {
            t->sequence = (uint8_t)(sequence | call);
            return could_join(r, t->sequence, negatives) ? 0 : t->sequence;
        }
    }
    return sequence; /* the sequence stops */
}

/* Adds to odds[] the chance of each Call from the cuts still to come, the
 * table's sequence named so far and p the chance of getting here: each cut
 * read by interpret_cut itself, a cut to make again left out of the
 * weights. */
static void add_cut_odds(const barbu_rules *r, const barbu_table *t, double p,
                         double odds[BARBU_CALLS])
{
    /* The Unused Pack by meaning: four of each number, two Jokers, the
     * Bridge card. */
    static const barbu_card KINDS[7] = {2, 3, 4, 5, 6, BARBU_JOKER, BARBU_BRIDGE};
    static const int WEIGHT[7] = {4, 4, 4, 4, 4, 2, 1};
    barbu_table after[7];
    unsigned decided[7];
    int live = 0;
    for (int i = 0; i < 7; i++) {
        after[i] = *t;
        decided[i] = interpret_cut(r, &after[i], KINDS[i]);
        if (decided[i] || after[i].sequence != t->sequence)
            live += WEIGHT[i];
    }
    for (int i = 0; i < 7 && live > 0; i++) {
        double q = p * WEIGHT[i] / live;
        if (decided[i])
            for (unsigned m = decided[i]; m; m &= m - 1)
                odds[__builtin_ctz(m)] += q;
        else if (after[i].sequence != t->sequence)
            add_cut_odds(r, &after[i], q, odds);
    }
}

void barbu_call_odds(const barbu_rules *r, const barbu_table *t, double odds[BARBU_CALLS])
{
    for (int c = 0; c < BARBU_CALLS; c++)
        odds[c] = 0.0;
    unsigned left = BARBU_CALLS_ALL & ~t->calls_done;
    if (t->contracts || calls_count(left) == 1) {
        for (unsigned m = t->contracts ? t->contracts : left; m; m &= m - 1)
            odds[__builtin_ctz(m)] = 1.0;
        return;
    }
    add_cut_odds(r, t, 1.0, odds);
}

int barbu_pass_direction(int round_deal, int k)
{
    switch (round_deal % 3) {
    case 0:
        return 1;
    case 1:
        return 3;
    default:
        /* The 3rd and 6th deals: across, then left (3rd) or right (6th),
         * then back across. */
        if (k == 1)
            return round_deal == 2 ? 1 : 3;
        return 2;
    }
}

/* Whether the deal is known to be the Round's last: one Call is left. */
static bool known_last(const barbu_table *t)
{
    return calls_count(BARBU_CALLS_ALL & ~t->calls_done) == 1;
}

/* The cutter's turn to cut for the Call or for a Pass-on. */
static void await_cut(barbu_table *t, int what)
{
    t->phase = BARBU_PHASE_CUT;
    t->cut_for = (uint8_t)what;
    t->to_move = (int8_t)t->cutter;
}

/* What follows a cut or a Pass-on. */
enum { NEXT_CUT, NEXT_PASS_ON, NEXT_PLAY };

/* The Pass-ons are over: on deals 1-3 the Call is known and play starts; on
 * deals 4-6 the Call is cut now. */
static int pass_ons_over(barbu_table *t)
{
    if (t->round_deal < 3)
        return NEXT_PLAY;
    await_cut(t, BARBU_CUT_CALL);
    return NEXT_CUT;
}

/* A Pass-on has been made: another cut for one, or they are over. */
static int after_pass_on(barbu_table *t)
{
    t->n_pass_ons++;
    t->passed_on = 0;
    if (t->n_pass_ons < 3) {
        await_cut(t, BARBU_CUT_PASS_ON);
        return NEXT_CUT;
    }
    return pass_ons_over(t);
}

/*
 * Reads a cut on the table, for what the table waits for (t->cut_for), and
 * says what follows: another cut (t->cut_for says for what), a Pass-on
 * (t->pass_dir) or play.  *calls gets the Calls the cut decides, or 0.
 * The state's apply and barbu_cut_note share it, so that the notes read the
 * cuts exactly as the game did.
 */
static int read_cut(const barbu_rules *r, barbu_table *t, barbu_card cut, unsigned *calls)
{
    *calls = 0;
    if (t->cut_for == BARBU_CUT_PASS_ON) {
        if (cut == BARBU_JOKER || cut == BARBU_BRIDGE)
            return NEXT_CUT; /* no colour: cut again */
        int suit = BARBU_SUIT(cut);
        if (suit == BARBU_CLUBS || suit == BARBU_SPADES) {
            t->phase = BARBU_PHASE_PASS_ON;
            t->pass_dir = (uint8_t)barbu_pass_direction(t->round_deal, t->n_pass_ons);
            t->passed_on = 0;
            t->to_move = (int8_t)bb_next_seat(t->dealer);
            return NEXT_PASS_ON;
        }
        return pass_ons_over(t); /* red: no (further) Pass-on */
    }
    *calls = interpret_cut(r, t, cut);
    if (*calls == 0)
        return NEXT_CUT;
    /* Deals 1-3 cut for Pass-ons after the Call, unless it is now known to
     * be the last deal of the Round. */
    if (t->round_deal < 3 && (t->calls_done | *calls) != BARBU_CALLS_ALL) {
        await_cut(t, BARBU_CUT_PASS_ON);
        return NEXT_CUT;
    }
    return NEXT_PLAY;
}

bool barbu_cut_joker_only(const barbu_rules *r, const barbu_table *t)
{
    if (t->phase != BARBU_PHASE_CUT || t->cut_for != BARBU_CUT_CALL || t->sequence == 0)
        return false;
    unsigned negatives = BARBU_CALLS_NEGATIVE & ~t->calls_done;
    return extensions(t->sequence, negatives) == 0 && could_join(r, t->sequence, negatives) != 0;
}

static const char *const NEGATIVE_NAMES[5] = {"Aces", "King of Hearts", "Queens", "Hearts",
                                              "Tricks"};

/* Why the Cutter cuts again after the number just cut: what could still
 * join, "cut again for a 3, a 6 or a Joker", and when only a Joker could,
 * the Calls it would bring in: "cut again for a Joker (Queens left)". */
static int again_text(const barbu_rules *r, unsigned sequence, unsigned negatives, char *buf,
                      size_t cap)
{
    unsigned next = extensions(sequence, negatives);
    int n = snprintf(buf, cap, "cut again for ");
    for (unsigned m = next; m; m &= m - 1)
        n += snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0, "a %d%s",
                      __builtin_ctz(m) + 2, (m & (m - 1)) ? ", " : " or ");
    n += snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0, "a Joker");
    if (next)
        return n;
    unsigned left = could_join(r, sequence, negatives);
    n += snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0, " (");
    for (unsigned m = left; m; m &= m - 1)
        n += snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0, "%s%s",
                      NEGATIVE_NAMES[__builtin_ctz(m)],
                      (m & (m - 1)) == 0                      ? ""
                      : ((m & (m - 1)) & ((m & (m - 1)) - 1)) ? ", "
                                                              : " and ");
    return n + snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0, " left)");
}

/* What one cut did, read on the table before it. */
static int cut_note(const barbu_rules *r, const barbu_table *before, barbu_card cut, char *buf,
                    size_t cap)
{
    static const char *const DIRECTION[] = {"", "to the left", "across", "to the right"};
    barbu_table after = *before;
    unsigned calls;
    int next = read_cut(r, &after, cut, &calls);
    bool number = cut != BARBU_JOKER && cut != BARBU_BRIDGE;
    if (before->cut_for == BARBU_CUT_PASS_ON) {
        if (!number)
            return snprintf(buf, cap, "no colour: cut again for the Pass-on");
        if (next == NEXT_PASS_ON)
            return snprintf(buf, cap, "black: Pass-on %d, %s", before->n_pass_ons + 1,
                            DIRECTION[after.pass_dir & 3]);
        return snprintf(buf, cap, "red: %s%s",
                        before->n_pass_ons ? "no further Pass-on" : "no Pass-on",
                        next == NEXT_CUT ? "; now the cut for the Call" : "");
    }
    unsigned negatives = BARBU_CALLS_NEGATIVE & ~before->calls_done;
    unsigned sequence = before->sequence, call = number ? call_of_number(cut) : 0;
    const char *name = number ? NEGATIVE_NAMES[__builtin_ctz(call)] : "";
    char got[96], why[256];
    barbu_calls_describe(calls, got, sizeof got);
    if (calls == 0) {
        if (after.sequence == sequence)
            return snprintf(buf, cap, "it names no Call left: cut again");
        again_text(r, after.sequence, negatives, why, sizeof why);
        return snprintf(buf, cap, "%s%s: %s", sequence ? "+ " : "", name, why);
    }
    if (cut == BARBU_JOKER)
        return snprintf(buf, cap, "all the negative Calls left: %s", got);
    if (sequence == 0) {
        if (cut == BARBU_BRIDGE)
            return snprintf(buf, cap, "%s%s", got,
                            calls == BARBU_CALLS_PATIENCE ? "" : " (the other was played)");
        if (calls & BARBU_CALLS_PATIENCE)
            return snprintf(buf, cap, "%s has been played: %s", name, got);
        if (negatives & ~calls)
            return snprintf(buf, cap, "%s: no unused number can join it", got);
        return snprintf(buf, cap, "%s, the only negative Call left", got);
    }
    if (calls & BARBU_CALLS_PATIENCE)
        return snprintf(buf, cap, "a second %d on the First Call: %s", BARBU_RANK(cut), got);
    if (calls == after.sequence && calls != sequence)
        return snprintf(buf, cap, "+ %s, and the sequence is complete: %s", name, got);
    if (cut == BARBU_BRIDGE)
        snprintf(why, sizeof why, "the Bridge card");
    else if (call & sequence)
        snprintf(why, sizeof why, "a second %d", BARBU_RANK(cut));
    else if (!(call & negatives))
        snprintf(why, sizeof why, "%s, played already,", name);
    else
        snprintf(why, sizeof why, "%s, not next to it,", name);
    return snprintf(buf, cap, "%s stops the sequence: %s", why, got);
}

int barbu_cut_note(const barbu_rules *rules, const barbu_table *t, int k, int *cut_for, char *buf,
                   size_t cap)
{
    if (cap > 0)
        buf[0] = '\0';
    if (t->round != BARBU_SILLY_ROUND || k < 0 || k >= t->n_cuts)
        return BARBU_EINVAL;
    if (t->n_cuts > (int)sizeof t->cuts)
        return BARBU_ELIMIT; /* the deal's first cuts are no longer held */
    /* The table as the deal opened, and its cuts read again up to cut k. */
    barbu_table r = *t;
    r.sequence = 0;
    r.contracts = 0;
    r.n_pass_ons = 0;
    r.passed_on = 0;
    r.pass_dir = 0;
    r.cut_for = r.round_deal < 3 ? BARBU_CUT_CALL : BARBU_CUT_PASS_ON;
    for (int i = 0; i < k; i++) {
        unsigned calls;
        if (read_cut(rules, &r, t->cuts[i], &calls) == NEXT_PASS_ON)
            after_pass_on(&r);
    }
    if (cut_for != NULL)
        *cut_for = r.cut_for;
    return cut_note(rules, &r, t->cuts[k], buf, cap);
}

void bb_fife_roles(barbu_state *s)
{
    barbu_table *t = &s->t;
    if (t->round < BARBU_SILLY_ROUND) {
        /* Each player in turn is the Caller of a Player Round, from the
         * first Caller drawn; the dealer is on the Caller's right. */
        t->declarer = (uint8_t)((t->first + t->round) & 3);
        t->dealer = (uint8_t)((t->declarer + 3) & 3);
        t->cutter = t->dealer;
        return;
    }
    /* The deal goes round clockwise; the Cutter sits on the dealer's right
     * and the player on the dealer's left leads, as in the booklet's worked
     * example (its "Player 4" cuts when "Player 1" deals and "Player 2"
     * leads).  The dealer stands in the declarer's place: nobody calls. */
    t->dealer = (uint8_t)((t->silly_first + t->round_deal) & 3);
    t->declarer = t->dealer;
    t->cutter = (uint8_t)((t->dealer + 3) & 3);
}

void bb_fife_open(barbu_state *s)
{
    barbu_table *t = &s->t;
    t->sequence = 0;
    t->pass_dir = 0;
    t->passed_on = 0;
    t->n_pass_ons = 0;
    t->piranha = -1;
    s->n_forced = 0;
    memset(s->pass_ons, 0, sizeof s->pass_ons);
    if (t->round < BARBU_SILLY_ROUND) {
        t->phase = BARBU_PHASE_DECLARE;
        t->to_move = (int8_t)t->declarer;
        return;
    }
    if (known_last(t)) {
        /* Nothing is left to cut for, and no Pass-on on a deal known to be
         * the last. */
        bb_set_calls(s, BARBU_CALLS_ALL & ~t->calls_done);
        bb_start_play(s);
        return;
    }
    await_cut(t, t->round_deal < 3 ? BARBU_CUT_CALL : BARBU_CUT_PASS_ON);
}

int bb_fife_check_cut(const barbu_table *t, const barbu_action *a)
{
    if (a->cards != 0 || a->contracts != 0)
        return BARBU_EINVAL;
    (void)t;
    return 0;
}

void bb_fife_apply_cut(barbu_state *s)
{
    barbu_table *t = &s->t;
    barbu_card cut = (barbu_card)barbu_next_cut(s);
    t->cuts[t->n_cuts % sizeof t->cuts] = cut;
    if (t->n_cuts < UINT16_MAX)
        t->n_cuts++;
    unsigned calls;
    int next = read_cut(s->rules, t, cut, &calls);
    if (calls)
        bb_set_calls(s, calls);
    if (next == NEXT_PLAY)
        bb_start_play(s);
}

int bb_fife_check_pass_on(const barbu_table *t, barbu_cards hand, const barbu_action *a)
{
    (void)t;
    if (a->cards & ~BARBU_ALL_CARDS)
        return BARBU_EINVAL;
    if (a->cards & ~hand)
        return BARBU_ENOTHELD;
    if (barbu_count(a->cards) != 3)
        return BARBU_ECOUNT;
    return 0;
}

/* Every seat chooses its three cards in turn from the dealer's left; they
 * wait in the state, unseen, and change hands together. */
void bb_fife_apply_pass_on(barbu_state *s, const barbu_action *a)
{
    barbu_table *t = &s->t;
    s->pending[a->seat][0] = a->cards;
    t->passed_on |= (uint8_t)(1u << a->seat);
    if (t->passed_on != 0xf) {
        t->to_move = (int8_t)bb_next_seat(a->seat);
        return;
    }
    barbu_cards given[4];
    for (int seat = 0; seat < 4; seat++) {
        given[seat] = s->pending[seat][0];
        s->hand[seat] &= ~given[seat];
        s->pass_ons[t->n_pass_ons][seat] = given[seat];
        s->pending[seat][0] = 0;
    }
    for (int seat = 0; seat < 4; seat++)
        s->hand[barbu_pass_target(t, seat)] |= given[seat];
    /* The hands held for play are the hands as dealt from now on. */
    for (int seat = 0; seat < 4; seat++)
        s->dealt[seat] = s->hand[seat];
    if (after_pass_on(t) == NEXT_PLAY)
        bb_start_play(s);
}

/* After a deal: the Round, and the Set, move on once all seven Calls are
 * played; a Silly Round starts with a draw for its first dealer.  Returns
 * true when the game is over. */
bool bb_fife_next(barbu_state *s)
{
    barbu_table *t = &s->t;
    t->calls_done = (uint8_t)(t->calls_done | t->contracts);
    t->round_deal++;
    if (t->calls_done != BARBU_CALLS_ALL)
        return false;
    t->calls_done = 0;
    t->round_deal = 0;
    if (++t->round == BARBU_SILLY_ROUND) {
        t->silly_first = (uint8_t)bb_fife_draw(s, 1 + t->set, t->draw);
        return false;
    }
    if (t->round < BARBU_SILLY_ROUND)
        return false;
    t->round = 0;
    return ++t->set >= s->rules->sets;
}

/* ------------------------------------------------------------- Patience */

/* The cards of a run in one suit or of one rank that can go down together:
 * a rank whose every card fits the layout now, or a run that starts next to
 * the layout (or holds the Jack of a suit not yet started).  0 or the
 * reason. */
static int group_check(const barbu_rules *r, const barbu_table *t, barbu_cards hand,
                       barbu_cards cards)
{
    barbu_cards fits = bb_layout_playable(r, t, hand);
    int rank = BARBU_RANK(bb_lowest(cards));
    barbu_cards of_rank = 0;
    for (int suit = 0; suit < 4; suit++)
        of_rank |= BARBU_BIT(BARBU_CARD(suit, rank));
    if ((cards & ~of_rank) == 0)
        return (cards & ~fits) ? BARBU_ELAYOUT : 0;
    int suit = BARBU_SUIT(bb_lowest(cards));
    if (cards & ~BARBU_SUIT_CARDS(suit))
        return BARBU_EGROUP;
    int lo = BARBU_RANK(bb_lowest(cards)), hi = BARBU_RANK(bb_highest(cards));
    if (hi - lo + 1 != barbu_count(cards))
        return BARBU_EGROUP; /* not a run */
    if (t->lo[suit] == 0)
        return (lo <= t->rank && t->rank <= hi) ? 0 : BARBU_ELAYOUT;
    return (hi + 1 == t->lo[suit] || lo - 1 == t->hi[suit]) ? 0 : BARBU_ELAYOUT;
}

/* Several cards at once: in a Player Round only a player's last cards, to go
 * out; in the Silly Round at any time (seed 000). */
int bb_patience_group_check(const barbu_rules *r, const barbu_table *t, barbu_cards hand,
                            barbu_cards cards)
{
    if (t->round < BARBU_SILLY_ROUND && cards != hand)
        return BARBU_EONECARD;
    return group_check(r, t, hand, cards);
}

static int push_play(barbu_action *out, int cap, int n, int seat, barbu_cards cards)
{
    if (n < cap) {
        out[n] = barbu_act(BARBU_ACT_PLAY, seat);
        out[n].cards = cards;
    }
    return n + 1;
}

/* Every group of two or more cards the seat may play at once, after the
 * single cards already listed. */
int bb_patience_groups(const barbu_rules *r, const barbu_table *t, barbu_cards hand,
                       barbu_action *out, int cap, int n)
{
    int seat = t->to_move;
    if (barbu_count(hand) < 2 || r->game != BARBU_GAME_FIFE)
        return n;
    if (t->round < BARBU_SILLY_ROUND)
        return group_check(r, t, hand, hand) == 0 ? push_play(out, cap, n, seat, hand) : n;
    barbu_cards fits = bb_layout_playable(r, t, hand);
    /* Cards of one rank: every subset of two or more of those that fit. */
    for (int rank = r->deck_low; rank <= BARBU_ACE; rank++) {
        barbu_cards same = 0;
        for (int suit = 0; suit < 4; suit++)
            same |= BARBU_BIT(BARBU_CARD(suit, rank));
        same &= fits;
        if (barbu_count(same) < 2)
            continue;
        /* Subsets of a set by the usual walk: (sub - 1) & same. */
        for (barbu_cards sub = same; sub; sub = (sub - 1) & same)
            if (barbu_count(sub) >= 2)
                n = push_play(out, cap, n, seat, sub);
    }
    /* Runs in one suit: every run of two or more held cards that fits. */
    for (int suit = 0; suit < 4; suit++) {
        for (int lo = r->deck_low; lo < BARBU_ACE; lo++) {
            barbu_cards run = 0;
            for (int hi = lo; hi <= BARBU_ACE; hi++) {
                barbu_card c = BARBU_CARD(suit, hi);
                if (!(hand & BARBU_BIT(c)))
                    break;
                run |= BARBU_BIT(c);
                if (hi > lo && group_check(r, t, hand, run) == 0)
                    n = push_play(out, cap, n, seat, run);
            }
        }
    }
    return n;
}

/* Places a group: each suit's layout grows to the group's lowest and
 * highest card (the Fife Patience has the ace high). */
void bb_layout_place_group(barbu_table *t, barbu_cards cards)
{
    for (int suit = 0; suit < 4; suit++) {
        barbu_cards in = cards & BARBU_SUIT_CARDS(suit);
        if (!in)
            continue;
        int lo = BARBU_RANK(bb_lowest(in)), hi = BARBU_RANK(bb_highest(in));
        if (t->lo[suit] == 0 || lo < t->lo[suit])
            t->lo[suit] = (uint8_t)lo;
        if (hi > t->hi[suit])
            t->hi[suit] = (uint8_t)hi;
    }
}
