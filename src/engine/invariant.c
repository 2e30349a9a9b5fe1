/*
 * invariant.c - bb_state_ok: everything that must hold of any state the
 * engine produces.  Debug builds run it after every apply.
 */
#include "internal.h"

#define FAIL(msg)                                                                                  \
    do {                                                                                           \
        if (why)                                                                                   \
            *why = (msg);                                                                          \
        return BARBU_EINVAL;                                                                       \
    } while (0)

int barbu_state_ok(const barbu_state *s, const char **why)
{
    const barbu_table *t = &s->t;
    const barbu_rules *r = s->rules;
    if (r == NULL)
        FAIL("no rules");
    if (t->phase > BARBU_PHASE_OVER)
        FAIL("unknown phase");
    if ((t->phase == BARBU_PHASE_OVER) != (t->to_move < 0))
        FAIL("only a finished game has nobody to move");
    if (t->deal > t->n_deals || (t->phase != BARBU_PHASE_OVER && t->deal == t->n_deals))
        FAIL("deal count out of range");
    /* Each completed deal adds its contracts' totals; a whole game adds zero. */
    long sum = t->total[0] + t->total[1] + t->total[2] + t->total[3], expect = 0;
    if (r->game == BARBU_GAME_FIFE) {
        /* Each whole Round adds zero; the Round under way its Calls played. */
        for (unsigned m = t->calls_done; m; m &= m - 1)
            expect += barbu_contract_total(r, __builtin_ctz(m));
        if ((t->calls_done & t->contracts) && t->phase != BARBU_PHASE_OVER)
            FAIL("a Call played twice in a Round");
        if (t->round > BARBU_SILLY_ROUND || t->set >= r->sets + (t->phase == BARBU_PHASE_OVER))
            FAIL("the Round or the Set is out of range");
    } else {
        for (int p = 0; p < 4; p++)
            for (int c = 0; c < r->n_contracts; c++)
                expect += (long)t->used[p][c] * barbu_contract_total(r, c);
        if (t->phase != BARBU_PHASE_OVER)
            for (unsigned m = t->contracts; m; m &= m - 1)
                expect -= barbu_contract_total(r, __builtin_ctz(m));
    }
    if (sum != expect)
        FAIL("the running scores do not add up to the contracts played");
    for (int c = 0; c < r->n_contracts; c++) {
        int done = t->used[0][c] + t->used[1][c] + t->used[2][c] + t->used[3][c];
        if (done > barbu_contract_times(r, c))
            FAIL("a contract played more often than the game allows");
    }
    if (r->game != BARBU_GAME_FIFE && !bb_schedule_feasible(r, t->used, t->declared) &&
        t->phase != BARBU_PHASE_OVER)
        FAIL("the schedule can no longer be completed");
    for (int p = 0; p < 4; p++) {
        for (int c = 0; c < r->n_contracts; c++)
            if (t->used[p][c] > r->contract[c].per_player)
                FAIL("a contract declared more often than allowed");
        for (int d = 0; d < 4; d++)
            if (t->owed[p][d] > r->mandatory_doubles)
                FAIL("more doubles owed than the rules ask");
    }
    if (t->phase == BARBU_PHASE_OVER)
        return 0;

    barbu_cards deck = bb_deck(r), seen = 0, all_played = 0;
    for (int p = 0; p < 4; p++) {
        if (s->dealt[p] & seen)
            FAIL("a card dealt twice");
        seen |= s->dealt[p];
        if (s->hand[p] & t->played[p])
            FAIL("a card both held and played");
        if ((s->hand[p] | t->played[p]) != s->dealt[p])
            FAIL("a hand and its played cards are not what was dealt");
        if (t->in_hand[p] != barbu_count(s->hand[p]))
            FAIL("cards-left count is wrong");
        if (t->shown_out[p] & s->hand[p])
            FAIL("a seat holds a card it has shown it cannot hold");
        if (t->played[p] & all_played)
            FAIL("a card played twice");
        all_played |= t->played[p];
    }
    if (seen != deck)
        FAIL("the deal is not the whole pack");

    if (t->kind == BARBU_KIND_TRICKS || t->kind == BARBU_KIND_TRUMPS) {
        barbu_cards on_table = 0, taken = 0;
        if (t->trick.n > 3)
            FAIL("a trick holds more than three cards between tricks");
        for (int i = 0; i < t->trick.n; i++) {
            int p = (t->trick.leader + i) & 3;
            if (!(t->played[p] & BARBU_BIT(t->trick.card[i])))
                FAIL("a card on the table was not played by its seat");
            on_table |= BARBU_BIT(t->trick.card[i]);
        }
        int tricks = 0;
        for (int p = 0; p < 4; p++) {
            if (t->taken[p] & taken)
                FAIL("a card taken twice");
            taken |= t->taken[p];
            tricks += t->tricks[p];
        }
        if (tricks != t->ntricks)
            FAIL("tricks taken do not add up");
        if ((taken | on_table) != all_played || (taken & on_table))
            FAIL("played cards are neither taken nor on the table");
        for (int i = 0; i < t->ntricks; i++)
            if (t->winner[i] < 0 || t->winner[i] > 3)
                FAIL("a trick without a winner");
    } else if (t->kind == BARBU_KIND_DOMINO || t->kind == BARBU_KIND_PATIENCE) {
        for (int suit = 0; suit < 4; suit++) {
            barbu_cards down = all_played & BARBU_SUIT_CARDS(suit);
            if ((t->lo[suit] == 0) != (down == 0))
                FAIL("the layout disagrees with the cards played");
        }
        for (int i = 0; i < t->n_out; i++)
            if (t->in_hand[t->out[i]] != 0)
                FAIL("a player out still holds cards");
    }
    if (t->phase == BARBU_PHASE_ARRANGE) {
        for (int p = 0; p < 4; p++) {
            bool set = (t->arranged >> p) & 1;
            if (!set && (s->pending[p][0] | s->pending[p][1]))
                FAIL("rows kept for a seat that has not set them");
            if (set && barbu_arrange_check(s->hand[p], s->pending[p][0], s->pending[p][1],
                                           r->fouls_lose, NULL, 0) != 0)
                FAIL("a seat's rows are not a valid arrangement of its hand");
        }
    }
    if (t->phase == BARBU_PHASE_PASS_ON) {
        for (int p = 0; p < 4; p++) {
            bool chosen = (t->passed_on >> p) & 1;
            if (chosen ? (barbu_count(s->pending[p][0]) != 3 || (s->pending[p][0] & ~s->hand[p]))
                       : s->pending[p][0] != 0)
                FAIL("a Pass-on kept that is not three cards of its seat's hand");
        }
    }
    if (t->phase == BARBU_PHASE_PLAY && t->in_hand[t->to_move] == 0)
        FAIL("the seat to move has no cards");
    return 0;
}
