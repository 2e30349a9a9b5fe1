/*
 * doubling.c - doubles, redoubles, compulsory doubles and the settlement
 * between players with business (seeds 002, 003 and 004).
 */
#include "internal.h"

bool bb_negative(const barbu_rules *r, unsigned contracts)
{
    int total = 0;
    for (; contracts; contracts &= contracts - 1)
        total += barbu_contract_total(r, __builtin_ctz(contracts));
    return total < 0;
}

/* The seats that doubled this seat: bit `seat` of each seat's doubles. */
unsigned bb_doubled_by(const barbu_table *t, int seat)
{
    /* The four bytes read as one word, bit `seat` of each kept (bits 0, 8,
     * 16 and 24), and gathered into bits 28 to 31 by one multiplication:
     * each of the sixteen products lands on its own bit, so nothing
     * carries, and the four wanted are the ones on 28 to 31. */
    uint32_t word = (uint32_t)t->dbl[0] | (uint32_t)t->dbl[1] << 8 | (uint32_t)t->dbl[2] << 16 |
                    (uint32_t)t->dbl[3] << 24;
    uint64_t bits = (uint64_t)((word >> seat) & UINT32_C(0x01010101));
    return (unsigned)((bits * UINT64_C(0x10204080)) >> 28) & 0xfu;
}

/* Whether the seat must double the declarer now: it still owes them as
 * many doubles as the declarer has contracts left to declare, this one
 * included (already counted in declared[]).  `per_player`: the deals each
 * player declares, or -1 to count them from the rules. */
static bool compulsory(const barbu_rules *r, const barbu_table *t, int seat, int per_player)
{
    int decl = t->declarer;
    if (t->phase != BARBU_PHASE_BID || seat == decl || !r->doubling || t->owed[seat][decl] == 0)
        return false;
    if (per_player < 0)
        per_player = bb_rules_deals(r) / 4;
    return t->owed[seat][decl] >= per_player - t->declared[decl] + 1;
}

bool bb_compulsory(const barbu_rules *r, const barbu_table *t, int seat)
{
    return compulsory(r, t, seat, -1);
}

void bb_note_rules(barbu_state *s)
{
    const barbu_rules *r = s->rules;
    unsigned negative = 0;
    for (int c = 0; c < r->n_contracts; c++)
        negative |= (unsigned)(barbu_contract_total(r, c) < 0) << c;
    s->memo_negative = (uint16_t)negative;
    s->memo_per_player = (uint16_t)(bb_rules_deals(r) / 4);
    s->memo_rules = r;
}

/* Whom the seat to move may double and redouble. */
static void allowed(const barbu_rules *r, const barbu_table *t, int negative, unsigned *dbl,
                    unsigned *rdbl)
{
    int seat = t->to_move, decl = t->declarer;
    unsigned by = bb_doubled_by(t, seat);
    *rdbl = by;
    if (seat == decl)
        *dbl = 0; /* the declarer may only redouble */
    else if (!(negative >= 0 ? negative : bb_negative(r, t->contracts)))
        *dbl = (1u << decl) & ~by; /* at a positive contract only the declarer */
    else
        *dbl = 0xfu & ~(1u << seat) & ~by;
}

int bb_check_bid(const barbu_rules *r, const barbu_table *t, bb_bidding k, const barbu_action *a)
{
    int seat = t->to_move, decl = t->declarer;
    unsigned by = bb_doubled_by(t, seat);
    /* allowed()'s answer, without the sum of the contract's scores when the
     * bid doubles nobody but the declarer: that is allowed at any contract
     * unless the seat is the declarer or already doubled by them. */
    if (a->doubles & ~((1u << decl) & ~by)) {
        unsigned dbl, rdbl;
        allowed(r, t, k.negative, &dbl, &rdbl);
        if (a->doubles & ~dbl)
            return BARBU_EDOUBLE;
    } else if (a->doubles && seat == decl) {
        return BARBU_EDOUBLE;
    }
    if (a->redoubles & ~by)
        return BARBU_EREDOUBLE;
    if (compulsory(r, t, a->seat, k.per_player) && !(a->doubles & (1u << t->declarer)))
        return BARBU_ECOMPULSORY;
    return 0;
}

int bb_legal_bids(const barbu_rules *r, const barbu_table *t, bb_bidding k, barbu_action *out,
                  int cap)
{
    unsigned dbl, rdbl;
    allowed(r, t, k.negative, &dbl, &rdbl);
    unsigned must = compulsory(r, t, t->to_move, k.per_player) ? 1u << t->declarer : 0;
    int n = 0;
    const barbu_action proto = barbu_act_bid(t->to_move, 0, 0);
    /* Every subset of each, the plain pass first. */
    unsigned d = 0;
    do {
        if ((d & must) == must) {
            unsigned rr = 0;
            do {
                if (n < cap) {
                    out[n] = proto;
                    out[n].doubles = (uint8_t)d;
                    out[n].redoubles = (uint8_t)rr;
                }
                n++;
                rr = (rr - rdbl) & rdbl;
            } while (rr != 0);
        }
        d = (d - dbl) & dbl;
    } while (d != 0);
    return n;
}

int barbu_bid_shortcut(const barbu_rules *r, const barbu_table *t, int which, barbu_action *out)
{
    if (t->phase != BARBU_PHASE_BID)
        return BARBU_EPHASE;
    unsigned dbl, rdbl;
    allowed(r, t, -1, &dbl, &rdbl);
    int seat = t->to_move;
    switch (which) {
    case BARBU_BID_MAX:
        *out = barbu_act_bid(seat, dbl, rdbl);
        return 0;
    case BARBU_BID_FAMILY: {
        if (seat == t->declarer)
            return BARBU_EDOUBLE;
        /* A flank who already doubled this seat can only be redoubled. */
        unsigned family = 0xfu & ~(1u << seat) & ~(1u << t->declarer);
        unsigned redouble = family & rdbl, doubles = family & ~rdbl;
        if ((doubles & dbl) != doubles)
            return BARBU_EDOUBLE; /* at a positive contract */
        *out = barbu_act_bid(seat, doubles, redouble);
        return 0;
    }
    default:
        return BARBU_EINVAL;
    }
}

int barbu_business(const uint8_t dbl[4], const uint8_t rdbl[4], int a, int b)
{
    return bb_business(dbl, rdbl, a, b);
}

void barbu_settle(const uint8_t dbl[4], const uint8_t rdbl[4], const int16_t raw[4],
                  int16_t score[4])
{
    int s[4] = {raw[0], raw[1], raw[2], raw[3]};
    for (int a = 0; a < 4; a++) {
        for (int b = a + 1; b < 4; b++) {
            int level = bb_business(dbl, rdbl, a, b);
            int diff = level * (raw[a] - raw[b]);
            s[a] += diff;
            s[b] -= diff;
        }
    }
    for (int i = 0; i < 4; i++)
        score[i] = (int16_t)s[i];
}
