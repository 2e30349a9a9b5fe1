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

enum { N_NODES = 2 + 4 + BARBU_MAX_CONTRACTS, SOURCE = 0, SINK = 1, SEAT0 = 2, CONTRACT0 = 6 };

typedef struct flow {
    int n;
    int cap[N_NODES][N_NODES];
    bool seen[N_NODES];
} flow;

/* Finds one augmenting path from u and pushes along it as much as its
 * narrowest edge takes (at most `most`); returns that amount, 0 if there is
 * no path.  The flow it reaches is the same maximum as one unit a path gave,
 * in a few paths instead of one a deal. */
static int augment(flow *f, int u, int most)
{
    if (u == SINK)
        return most;
    f->seen[u] = true;
    for (int v = 0; v < f->n; v++) {
        if (f->cap[u][v] > 0 && !f->seen[v]) {
            int got = augment(f, v, most < f->cap[u][v] ? most : f->cap[u][v]);
            if (got > 0) {
                f->cap[u][v] -= got;
                f->cap[v][u] += got;
                return got;
            }
        }
    }
    return 0;
}

bool bb_schedule_feasible(const barbu_rules *r, const uint8_t used[4][BARBU_MAX_CONTRACTS],
                          const uint8_t declared[4])
{
    int per_seat = bb_rules_deals(r) / 4, need = 0, owed = 0;
    if (exact_schedule(r))
        return within_limits(r, used);
    flow f;
    memset(&f, 0, sizeof f);
    f.n = CONTRACT0 + r->n_contracts;
    for (int c = 0; c < r->n_contracts; c++) {
        int done = 0;
        for (int p = 0; p < 4; p++) {
            if (used[p][c] > r->contract[c].per_player)
                return false;
            done += used[p][c];
            f.cap[SEAT0 + p][CONTRACT0 + c] = r->contract[c].per_player - used[p][c];
        }
        int left = bb_contract_times(r, c) - done;
        if (left < 0)
            return false;
        f.cap[CONTRACT0 + c][SINK] = left;
        owed += left;
    }
    for (int p = 0; p < 4; p++) {
        int left = per_seat - declared[p];
        if (left < 0)
            return false;
        f.cap[SOURCE][SEAT0 + p] = left;
        need += left;
    }
    if (need != owed)
        return false;
    for (int pushed = 0; pushed < need;) {
        memset(f.seen, 0, sizeof f.seen);
        int got = augment(&f, SOURCE, need - pushed);
        if (got == 0)
            return false;
        pushed += got;
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

int bb_schedule_check(const barbu_rules *r, const barbu_table *t, int seat, int contract)
{
    int err = count_check(r, t, seat, contract);
    if (err != 0)
        return err;
    /* In an exact schedule the choice keeps its own count within its limit
     * (count_check), so only the others' counts can fail it. */
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
    if (exact_schedule(r)) {
        /* The same answers as bb_schedule_check's, the limits checked once. */
        if (!within_limits(r, t->used))
            return 0;
        for (int c = 0; c < r->n_contracts; c++)
            if (count_check(r, t, seat, c) == 0)
                open |= 1u << c;
        return open;
    }
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
