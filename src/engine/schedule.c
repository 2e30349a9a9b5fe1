/*
 * schedule.c - who may still declare what.  In the standard game each
 * player declares every contract once, so any contract a player has not yet
 * declared fits.  King (seed 004) is looser and tighter at once: each
 * negative contract is played twice in the game and Trumps eight times, and
 * each player declares a contract at most per_player times.  A choice there
 * can leave the others unable to finish the game, so every choice is checked
 * against the whole schedule: a flow from the players' remaining deals to the
 * contracts' remaining deals must fill them all.
 */
#include <string.h>

#include "internal.h"

/* Whether every contract is declared exactly per_player times by each player,
 * so that the schedule can never jam. */
static bool exact_schedule(const barbu_rules *r)
{
    int per = 0;
    for (int c = 0; c < r->n_contracts; c++) {
        if (bb_contract_times(r, c) != 4 * r->contract[c].per_player)
            return false;
        per += r->contract[c].per_player;
    }
    /* The deals of a contract game are the contracts' times, here 4 * per
     * already; only the Fife game counts its deals otherwise. */
    return r->game != BARBU_GAME_FIFE || 4 * per == bb_rules_deals(r);
}

/* Whether no player has declared a contract more than its per_player times:
 * in an exact schedule, all that feasibility asks. */
static bool within_limits(const barbu_rules *r, const uint8_t used[4][BARBU_MAX_CONTRACTS])
{
    for (int p = 0; p < 4; p++)
        for (int c = 0; c < r->n_contracts; c++)
            if (used[p][c] > r->contract[c].per_player)
                return false;
    return true;
}

bool bb_schedule_feasible(const barbu_rules *r, const uint8_t used[4][BARBU_MAX_CONTRACTS],
                          const uint8_t declared[4])
{
    int per_seat = bb_rules_deals(r) / 4, need = 0, owed = 0;
    if (exact_schedule(r))
        return within_limits(r, used);
    int give[4][BARBU_MAX_CONTRACTS], contract_left[BARBU_MAX_CONTRACTS], seat_left[4];
    for (int c = 0; c < r->n_contracts; c++) {
        int done = 0;
        for (int p = 0; p < 4; p++) {
            if (used[p][c] > r->contract[c].per_player)
                return false;
            done += used[p][c];
            give[p][c] = r->contract[c].per_player - used[p][c];
        }
        contract_left[c] = bb_contract_times(r, c) - done;
        if (contract_left[c] < 0)
            return false;
        owed += contract_left[c];
    }
    for (int p = 0; p < 4; p++) {
        seat_left[p] = per_seat - declared[p];
        if (seat_left[p] < 0)
            return false;
        need += seat_left[p];
    }
    if (need != owed)
        return false;
    /*
     * The deals still to declare fit when a flow from the players (each
     * with its deals left) through the contracts (each player giving one at
     * most its per-player times left) to the contracts' deals left carries
     * them all.  The most a flow carries is the smallest cut (max-flow
     * min-cut), and with four players a cut is a set of them kept on the
     * source's side: the deals left of the others, and for each contract the
     * smaller of its deals left and what the kept players may still give it.
     * Sixteen sets, where searching for augmenting paths cost King games
     * two thirds of their time.
     */
    for (unsigned kept = 0; kept < 16; kept++) {
        int cut = 0;
        for (int p = 0; p < 4; p++)
            if (!(kept & (1u << p)))
                cut += seat_left[p];
        for (int c = 0; c < r->n_contracts; c++) {
            int can = 0;
            for (int p = 0; p < 4; p++)
                if (kept & (1u << p))
                    can += give[p][c];
            cut += can < contract_left[c] ? can : contract_left[c];
        }
        if (cut < need)
            return false;
    }
    return true;
}

/* The first two refusals of bb_schedule_check: the seat has declared the
 * contract as often as it may, or the game has played it as often. */
static int count_check(const barbu_rules *r, const barbu_table *t, int seat, int contract)
{
    if (t->used[seat][contract] >= r->contract[contract].per_player)
        return BARBU_EUSED;
    int done = 0;
    for (int p = 0; p < 4; p++)
        done += t->used[p][contract];
    if (done >= bb_contract_times(r, contract))
        return BARBU_EPLAYEDOUT;
    return 0;
}

/*
 * One walk of the contracts for the questions of an exact schedule, where
 * exact_schedule, within_limits and count_check walked them each: whether
 * the schedule is exact (false: nothing else answered), whether every count
 * is within its limit, and the contracts count_check leaves open to the
 * seat.  The declaration asks at every deal.
 */
static bool exact_walk(const barbu_rules *r, const barbu_table *t, int seat, bool *within,
                       unsigned *open)
{
    int per = 0;
    unsigned over = 0, fits = 0;
    for (int c = 0; c < r->n_contracts; c++) {
        const barbu_contract *k = &r->contract[c];
        int times = bb_contract_times(r, c);
        if (times != 4 * k->per_player)
            return false;
        per += k->per_player;
        const uint8_t u0 = t->used[0][c], u1 = t->used[1][c], u2 = t->used[2][c],
                      u3 = t->used[3][c];
        over |= (unsigned)(u0 > k->per_player) | (u1 > k->per_player) | (u2 > k->per_player) |
                (u3 > k->per_player);
        /* & rather than &&: which contracts are open is as good as random,
         * and a branch on each would be mispredicted. */
        fits |= (unsigned)((t->used[seat][c] < k->per_player) & (u0 + u1 + u2 + u3 < times)) << c;
    }
    if (r->game == BARBU_GAME_FIFE && 4 * per != bb_rules_deals(r))
        return false;
    *within = over == 0;
    *open = fits;
    return true;
}

int bb_schedule_check(const barbu_rules *r, const barbu_table *t, int seat, int contract)
{
    /* In an exact schedule the choice keeps its own count within its limit
     * (count_check), so only the others' counts can fail it. */
    bool within;
    unsigned open;
    if (seat >= 0 && seat < 4 && exact_walk(r, t, seat, &within, &open) && (open >> contract & 1u))
        return within ? 0 : BARBU_ESCHEDULE;
    int err = count_check(r, t, seat, contract);
    if (err != 0)
        return err;
    if (exact_schedule(r))
        return within_limits(r, t->used) ? 0 : BARBU_ESCHEDULE;
    uint8_t used[4][BARBU_MAX_CONTRACTS], declared[4];
    memcpy(used, t->used, sizeof used);
    memcpy(declared, t->declared, sizeof declared);
    used[seat][contract]++;
    declared[seat]++;
    return bb_schedule_feasible(r, used, declared) ? 0 : BARBU_ESCHEDULE;
}

unsigned bb_schedule_open(const barbu_rules *r, const barbu_table *t, int seat)
{
    unsigned open = 0;
    bool within;
    /* The same answers as bb_schedule_check's, the limits checked once. */
    if (exact_walk(r, t, seat, &within, &open))
        return within ? open : 0;
    open = 0;
    for (int c = 0; c < r->n_contracts; c++)
        if (bb_schedule_check(r, t, seat, c) == 0)
            open |= 1u << c;
    return open;
}

int barbu_declare_check(const barbu_rules *r, const barbu_table *t, int seat, int contract)
{
    if (seat < 0 || seat > 3 || contract < 0 || contract >= r->n_contracts ||
        r->contract[contract].per_player == 0)
        return BARBU_ECONTRACT;
    return bb_schedule_check(r, t, seat, contract);
}

int barbu_declares_left(const barbu_rules *r, const barbu_table *t, int seat, int contract)
{
    if (barbu_declare_check(r, t, seat, contract) != 0)
        return 0;
    int mine = r->contract[contract].per_player - t->used[seat][contract];
    int game = bb_contract_times(r, contract);
    for (int p = 0; p < 4; p++)
        game -= t->used[p][contract];
    return mine < game ? mine : game;
}
