/*
 * sheet.c - the Fife score sheet of seed 000: the points of each Call by
 * Round and player, the totals the players keep, and the marks of "The
 * Language of Barbu" drawn from what each deal's result shows.
 */
#include <string.h>

#include "internal.h"

/* ----------------------------------------------------------------- totals */

/* Positions by total, highest first; players tied share the better place. */
static void rank_players(const int32_t total[4], uint8_t position[4])
{
    for (int seat = 0; seat < 4; seat++) {
        int above = 0;
        for (int other = 0; other < 4; other++)
            above += total[other] > total[seat];
        position[seat] = (uint8_t)(1 + above);
    }
}

/* Every total from the points.  The sheet is small, so recomputing it all
 * keeps the totals of a partial Round or Set right with no bookkeeping. */
static void update_totals(barbu_sheet *sheet)
{
    for (int s = 0; s < sheet->n_sets; s++) {
        barbu_sheet_set *set = &sheet->set[s];
        const int32_t *before = s ? sheet->set[s - 1].overall : sheet->carry;
        memset(set->total, 0, sizeof set->total);
        for (int r = 0; r < set->n_rounds; r++) {
            barbu_sheet_round *round = &set->round[r];
            for (int seat = 0; seat < 4; seat++) {
                int sum = 0;
                for (int col = 0; col < BARBU_SHEET_COLS; col++)
                    sum += round->points[seat][col];
                round->total[seat] = (int16_t)sum;
                set->total[seat] += sum;
                round->running[seat] = set->total[seat];
            }
        }
        for (int seat = 0; seat < 4; seat++)
            set->overall[seat] = before[seat] + set->total[seat];
        rank_players(set->total, set->position);
        set->complete = set->n_rounds == 5 && set->round[BARBU_SILLY_ROUND].complete;
    }
}

/* -------------------------------------------------------------- the order */

/*
 * Results and entries come in the order played: into the Round under way,
 * or else into the next one.  Returns 0 with *under_way (the Round under way,
 * or NULL when (set, round) is the next Round to begin), or BARBU_EINVAL for
 * any other place, BARBU_ELIMIT for a Set beyond the sheet.
 */
static int locate(barbu_sheet *sheet, int set, int round, barbu_sheet_round **under_way)
{
    int next_set = 0, next_round = 0;
    *under_way = NULL;
    if (sheet->n_sets > 0) {
        barbu_sheet_set *last = &sheet->set[sheet->n_sets - 1];
        barbu_sheet_round *r = &last->round[last->n_rounds - 1];
        if (!r->complete) {
            if (set != sheet->n_sets - 1 || round != last->n_rounds - 1)
                return BARBU_EINVAL;
            *under_way = r;
            return 0;
        }
        next_set = last->complete ? sheet->n_sets : sheet->n_sets - 1;
        next_round = last->complete ? 0 : last->n_rounds;
    }
    if (set != next_set || round != next_round)
        return BARBU_EINVAL;
    return set >= BARBU_MAX_SETS ? BARBU_ELIMIT : 0;
}

/* Begins the next Round (and its Set, for a Set's first Round). */
static barbu_sheet_round *begin_round(barbu_sheet *sheet, int set, int round, int caller)
{
    if (round == 0) {
        sheet->n_sets = (uint8_t)(set + 1);
        memset(&sheet->set[set], 0, sizeof sheet->set[set]);
    }
    barbu_sheet_set *s = &sheet->set[set];
    barbu_sheet_round *r = &s->round[s->n_rounds++];
    memset(r, 0, sizeof *r);
    r->silly = round == BARBU_SILLY_ROUND;
    r->caller = (int8_t)(r->silly ? -1 : caller);
    r->first_out[0] = r->first_out[1] = -1;
    return r;
}

/* ------------------------------------------------------------------ marks */

/* The cards of the pack that cost points in a Call. */
static barbu_cards penalty_cards(const barbu_rules *rules, int call)
{
    barbu_cards deck = bb_deck(rules), pen = 0;
    for (barbu_cards rest = deck; rest; rest &= rest - 1) {
        int card = bb_lowest(rest);
        if (rules->contract[call].card[card])
            pen |= BARBU_BIT(card);
    }
    return pen;
}

/* Whether a seat took every card of a Call (every trick, at Tricks). */
static bool took_all(const barbu_rules *rules, const barbu_result *res, int call, int seat)
{
    const barbu_contract *k = &rules->contract[call];
    barbu_cards pen = penalty_cards(rules, call);
    if (!pen && !k->per_trick)
        return false;
    if (k->per_trick && res->tricks[seat] != barbu_rules_hand_size(rules))
        return false;
    return (res->taken[seat] & pen) == pen;
}

/* Whether a seat took half or more of the points a negative Call gives
 * out: taking El Kingko is half of the King of Hearts. */
static bool took_half(const barbu_rules *rules, const barbu_result *res, int call, int seat)
{
    int total = barbu_contract_total(rules, call);
    return total < 0 && 2 * res->part[call][seat] <= total;
}

/* The marks of one negative Call of a deal. */
static void mark_negative(barbu_sheet_round *r, const barbu_rules *rules, const barbu_result *res,
                          int call, int caller)
{
    /* An Egg needs more than one card: taking the lone King is no Egg. */
    bool one_card =
        !rules->contract[call].per_trick && barbu_count(penalty_cards(rules, call)) == 1;
    /* The Caller's first three deals of a Player Round are the Choices. */
    int choice = caller >= 0 && res->round_deal < 3 ? res->round_deal : -1;
    barbu_card wee_harry = BARBU_CARD(BARBU_HEARTS, BARBU_JACK);

    for (int seat = 0; seat < 4; seat++) {
        uint16_t *m = &r->marks[seat][call];
        if (took_all(rules, res, call, seat)) {
            if (seat == caller)
                *m |= BARBU_MARK_SPIDER; /* drawn on the Egg, so the Egg is implied */
            else if (!one_card)
                *m |= BARBU_MARK_EGG;
        }
        if (seat == caller && choice >= 0 && took_half(rules, res, call, seat))
            *m |= (uint16_t)(BARBU_MARK_FC << choice);
        if (call == BARBU_CALL_HEARTS && (res->taken[seat] & BARBU_BIT(wee_harry))) {
            *m |= BARBU_MARK_WEE_HARRY;
            if (seat == caller)
                *m |= BARBU_MARK_DANGLY;
        }
    }
    if (call == BARBU_CALL_KHEARTS && res->piranha >= 0 && res->piranha < 4)
        r->marks[res->piranha][call] |= BARBU_MARK_PIRANHA;
}

/* Rumping Ripple: half or more of at least three negative Calls of one
 * deal (so only a combination of three or more has one); each of those
 * cells is joined. */
static void mark_ripples(barbu_sheet_round *r, const barbu_rules *rules, const barbu_result *res)
{
    unsigned negative = res->contracts & BARBU_CALLS_NEGATIVE;
    for (int seat = 0; seat < 4; seat++) {
        unsigned half = 0;
        for (int call = 0; call < BARBU_CALL_PAT1; call++)
            if ((negative >> call & 1) && took_half(rules, res, call, seat))
                half |= 1u << call;
        if (barbu_count(half) < 3)
            continue;
        for (int call = 0; call < BARBU_CALL_PAT1; call++)
            if (half >> call & 1)
                r->marks[seat][call] |= BARBU_MARK_RIPPLE;
    }
}

/* The Caller's Patience marks in a Player Round. */
static void mark_patience(barbu_sheet_round *r, const barbu_result *res, int caller)
{
    unsigned pats = res->contracts & BARBU_CALLS_PATIENCE;
    bool forced = (res->calls_before & BARBU_CALLS_NEGATIVE) == BARBU_CALLS_NEGATIVE;
    bool double_open = (res->calls_before & BARBU_CALLS_PATIENCE) == 0;
    uint16_t m = 0;
    if (forced)
        m |= BARBU_MARK_CONSTIPATIENCE;
    if (barbu_count(pats) == 1 && double_open && res->order[0] == caller)
        m |= BARBU_MARK_BANANA;
    if (res->order[3] == caller)
        m |= forced ? BARBU_MARK_CHERRY : BARBU_MARK_BEEF;
    for (int call = BARBU_CALL_PAT1; call <= BARBU_CALL_PAT2; call++)
        if (pats >> call & 1)
            r->marks[caller][call] |= m;
}

/* The marks of a whole Round, once its seven Calls are played. */
static void mark_round(barbu_sheet_round *r)
{
    for (int seat = 0; seat < 4; seat++) {
        unsigned marks = 0;
        bool negative = false, everywhere = true;
        for (int col = 0; col < BARBU_SHEET_COLS; col++) {
            marks |= r->marks[seat][col];
            negative |= r->points[seat][col] < 0;
            everywhere &= r->points[seat][col] != 0;
        }
        if (seat == r->caller && (marks & BARBU_MARK_BANANA) && (marks & BARBU_MARK_TOMATO))
            r->round_marks[seat] |= BARBU_ROUND_FRUIT_BOWL;
        if (!negative && r->first_out[0] == seat && r->first_out[1] == seat)
            r->round_marks[seat] |= BARBU_ROUND_VIRGIN;
        if (everywhere)
            r->round_marks[seat] |= BARBU_ROUND_FULL;
    }
}

/* ------------------------------------------------------------- the sheet */

void barbu_sheet_init(barbu_sheet *sheet, const int32_t carry[4])
{
    memset(sheet, 0, sizeof *sheet);
    if (carry)
        memcpy(sheet->carry, carry, sizeof sheet->carry);
}

int barbu_sheet_add(barbu_sheet *sheet, const barbu_rules *rules, const barbu_result *res)
{
    if (rules->game != BARBU_GAME_FIFE || rules->n_contracts < BARBU_CALLS)
        return BARBU_EINVAL;
    if (!res->contracts || (res->contracts & ~BARBU_CALLS_ALL) || res->round > BARBU_SILLY_ROUND)
        return BARBU_EINVAL;
    bool silly = res->round == BARBU_SILLY_ROUND;
    if (!silly && res->declarer > 3)
        return BARBU_EINVAL;

    barbu_sheet_round *r;
    int err = locate(sheet, res->set, res->round, &r);
    if (err)
        return err;
    /* The deal must follow the Round's earlier deals, by its Caller. */
    int deals = r ? r->deals : 0, played = r ? r->played : 0;
    if (res->round_deal != deals || res->calls_before != played || (res->contracts & played))
        return BARBU_EINVAL;
    if (r && !silly && res->declarer != r->caller)
        return BARBU_EINVAL;
    if (!r)
        r = begin_round(sheet, res->set, res->round, res->declarer);

    r->deals++;
    r->played |= (uint8_t)res->contracts;
    for (int call = 0; call < BARBU_CALLS; call++) {
        if (!(res->contracts >> call & 1))
            continue;
        r->call_deal[call] = r->deals;
        for (int seat = 0; seat < 4; seat++)
            r->points[seat][call] = (int16_t)(r->points[seat][call] + res->part[call][seat]);
        if (call < BARBU_CALL_PAT1)
            mark_negative(r, rules, res, call, r->caller);
        else if (res->order[0] < 4)
            r->first_out[call - BARBU_CALL_PAT1] = (int8_t)res->order[0];
    }
    mark_ripples(r, rules, res);
    if (!silly && (res->contracts & BARBU_CALLS_PATIENCE))
        mark_patience(r, res, r->caller);
    r->complete = r->played == BARBU_CALLS_ALL;
    if (r->complete)
        mark_round(r);
    update_totals(sheet);
    return 0;
}

int barbu_sheet_enter(barbu_sheet *sheet, int set, int round, int caller,
                      const int16_t points[4][BARBU_SHEET_COLS])
{
    if (round < 0 || round > BARBU_SILLY_ROUND || set < 0)
        return BARBU_EINVAL;
    if (round == BARBU_SILLY_ROUND ? caller != -1 : caller < 0 || caller > 3)
        return BARBU_EINVAL;
    barbu_sheet_round *r;
    int err = locate(sheet, set, round, &r);
    if (err)
        return err;
    if (r) /* a Round under way is completed by its deals, not by hand */
        return BARBU_EINVAL;
    r = begin_round(sheet, set, round, caller);
    memcpy(r->points, points, sizeof r->points);
    r->played = BARBU_CALLS_ALL;
    r->complete = true;
    update_totals(sheet);
    return 0;
}

/* ------------------------------------------------------------------ names */

static const char *const MARK_NAMES[] = {
    "Egg",          "Spider",        "Wee Harry",      "Dangly Spider", "Rumping Ripple",
    "First Choice", "Second Choice", "Third Choice",   "Piranha",       "Banana",
    "Beef Tomato",  "Cherry Tomato", "Constipatience",
};

static const char *const ROUND_MARK_NAMES[] = {"Fruit Bowl", "Virgin Round", "Full Participation"};

/* The name of a single bit of a table of names, "" for anything else. */
static const char *bit_name(unsigned mark, const char *const *names, unsigned n)
{
    if (!mark || (mark & (mark - 1)))
        return "";
    unsigned bit = (unsigned)__builtin_ctz(mark);
    return bit < n ? names[bit] : "";
}

const char *barbu_mark_name(unsigned mark)
{
    return bit_name(mark, MARK_NAMES, sizeof MARK_NAMES / sizeof MARK_NAMES[0]);
}

const char *barbu_round_mark_name(unsigned mark)
{
    return bit_name(mark, ROUND_MARK_NAMES, sizeof ROUND_MARK_NAMES / sizeof ROUND_MARK_NAMES[0]);
}
