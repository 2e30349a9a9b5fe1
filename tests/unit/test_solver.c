/*
 * test_solver.c - the exact solver of the last tricks (src/ai/solver.c)
 * against the engine: its rules of play against barbu_playable on random
 * deals of every trick contract of several presets, its values against a
 * plain minimax over engine states on small endgames, and the values of
 * each move against the value of the position after it.
 */
#include <limits.h>
#include <math.h>

#include "../../src/ai/solver.h"
#include "helpers.h"

/* Whether a declaration is of trick contracts only (the solver's). */
static bool tricks_only(const barbu_rules *r, unsigned contracts)
{
    for (unsigned m = contracts; m; m &= m - 1) {
        int kind = r->contract[__builtin_ctz(m)].kind;
        if (kind != BARBU_KIND_TRICKS && kind != BARBU_KIND_TRUMPS)
            return false;
    }
    return contracts != 0;
}

/*
 * The first deal of a game of the rules, declared and bid, ready for its
 * first card: the contract `k` (any declaration of trick contracts when k
 * is -1, the Fife game's combined Calls among them, or any contract at all
 * when k is -2), random bids.  The game ends with the deal.  False when the
 * deal is not played (an undoubled negative contract is shared out).
 */
static bool first_deal(barbu_state *s, const barbu_rules *r, uint64_t seed, int k, barbu_rng *rng)
{
    assert_int_equal(barbu_init(s, r, seed), 0);
    barbu_action acts[BARBU_MAX_ACTIONS];
    while (s->t.phase != BARBU_PHASE_PLAY) {
        if (s->t.deal != 0 || s->t.phase == BARBU_PHASE_OVER)
            return false;
        int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
        n = n < BARBU_MAX_ACTIONS ? n : BARBU_MAX_ACTIONS;
        int pick;
        if (s->t.phase == BARBU_PHASE_DECLARE) {
            int fit[BARBU_MAX_ACTIONS], nfit = 0;
            for (int i = 0; i < n; i++) {
                unsigned m = acts[i].contracts;
                if (k == -2 || (k == -1 && tricks_only(r, m)) || (k >= 0 && m == 1u << k))
                    fit[nfit++] = i;
            }
            if (nfit == 0)
                return false;
            pick = fit[barbu_rng_below(rng, (uint32_t)nfit)];
        } else {
            pick = (int)barbu_rng_below(rng, (uint32_t)n);
        }
        assert_int_equal(barbu_apply(s, &acts[pick]), 0);
    }
    barbu_truncate(s);
    return s->t.deal == 0;
}

/* Random cards until `left` cards are left in the four hands; false if
 * the deal ended first (an early end). */
static bool play_down(barbu_state *s, int left, barbu_rng *rng)
{
    while (s->t.phase == BARBU_PHASE_PLAY) {
        int in = s->t.in_hand[0] + s->t.in_hand[1] + s->t.in_hand[2] + s->t.in_hand[3];
        if (in <= left)
            return true;
        assert_int_equal(barbu_play_random(s, rng), 0);
    }
    return false;
}

/* ------------------------------------------------------------- legality */

/* Whether the solver should take the deal: trick contracts, and not the
 * enforced Israeli rule. */
static bool should_fit(const barbu_state *s)
{
    const barbu_rules *r = s->rules;
    return tricks_only(r, s->t.contracts) &&
           !((s->t.rule_flags & BARBU_CF_ISRAELI) && r->israeli == BARBU_ISRAELI_ENFORCE);
}

/* Every card of `deals` deals of each contract: the solver's playable set
 * is the engine's. */
static void check_rules(const barbu_rules *r, int deals, uint64_t seed)
{
    barbu_rng rng;
    barbu_rng_seed(&rng, seed);
    int checked = 0;
    for (int k = r->game == BARBU_GAME_FIFE ? -1 : 0; k < r->n_contracts; k++) {
        if (k >= 0 && r->contract[k].kind != BARBU_KIND_TRICKS &&
            r->contract[k].kind != BARBU_KIND_TRUMPS && r->contract[k].kind != BARBU_KIND_RAVAGE)
            continue;
        for (int d = 0; d < deals; d++) {
            barbu_state s;
            if (!first_deal(&s, r, seed * 1000 + (uint64_t)(k + 1) * 100 + (uint64_t)d, k, &rng))
                continue;
            while (s.t.phase == BARBU_PHASE_PLAY) {
                bool fits = should_fit(&s);
                assert_int_equal(bb_solver_fits(&s), fits);
                if (fits) {
                    barbu_cards mine = bb_solver_playable(&s), engine = barbu_playable(&s);
                    if (mine != engine)
                        print_error("%s, %s, trick %d card %d: solver %016llx, engine %016llx\n",
                                    r->preset, r->contract[__builtin_ctz(s.t.contracts)].key,
                                    s.t.ntricks, s.t.trick.n, (unsigned long long)mine,
                                    (unsigned long long)engine);
                    assert_true(mine == engine);
                    checked++;
                }
                assert_int_equal(barbu_play_random(&s, &rng), 0);
            }
        }
    }
    assert_true(checked > 0);
}

static void test_playable_presets(void **state)
{
    (void)state;
    static const char *const presets[] = {"uk",       "classic", "quick",     "ravage", "king",
                                          "king-7th", "uk-32",   "ravage-32", "fife"};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        barbu_rules r;
        preset(&r, presets[i]);
        check_rules(&r, strcmp(presets[i], "fife") == 0 ? 60 : 12, 11 + i);
    }
}

/* The options that change the rules of play, each way. */
static void test_playable_options(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    r.must_trump = false;
    check_rules(&r, 16, 21);
    preset(&r, "uk");
    r.hearts_lead = false;
    r.early_end = false;
    check_rules(&r, 12, 22);
    preset(&r, "uk");
    r.israeli = BARBU_ISRAELI_ADVISE;
    check_rules(&r, 12, 23);
    /* Enforced, the Israeli rule keeps the solver out of the contracts
     * that have it (should_fit says which). */
    preset(&r, "uk");
    r.israeli = BARBU_ISRAELI_ENFORCE;
    check_rules(&r, 12, 24);
    preset(&r, "uk-32");
    r.first_lead = BARBU_FIRST_LEFT;
    r.must_trump = false;
    check_rules(&r, 12, 25);
}

/* Ravage City is declined, the other contracts of its game are not. */
static void test_fits(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "ravage");
    barbu_rng rng;
    barbu_rng_seed(&rng, 5);
    barbu_state s;
    int rc = contract_of(&r, "ravage");
    assert_true(first_deal(&s, &r, 3, rc, &rng));
    assert_int_equal(s.t.kind, BARBU_KIND_TRICKS);
    assert_false(bb_solver_fits(&s));
    bb_solver *sv = bb_solver_new(16);
    assert_non_null(sv);
    barbu_cards cards = 0;
    int values[BARBU_MAX_TRICKS];
    assert_int_equal(bb_solve_moves(sv, &s, 0, &cards, values), -1);
    assert_true(first_deal(&s, &r, 3, contract_of(&r, "no-queens"), &rng));
    assert_true(bb_solver_fits(&s));
    bb_solver_free(sv);
    bb_solver_free(NULL);
    /* Not in play: the doubling, a layout. */
    preset(&r, "uk");
    assert_int_equal(barbu_init(&s, &r, 9), 0);
    assert_false(bb_solver_fits(&s));
    assert_true(first_deal(&s, &r, 9, contract_of(&r, "domino"), &rng));
    assert_false(bb_solver_fits(&s));
}

/* --------------------------------------------------------------- values */

/* The settled score of `me` from the tricks completed so far, as the
 * engine scores a deal (scoring.c) and settles it (barbu_settle). */
static int done_score(const barbu_state *s, int me)
{
    const barbu_table *t = &s->t;
    const barbu_rules *r = s->rules;
    if (t->phase == BARBU_PHASE_OVER)
        return t->last.score[me];
    int tricks = barbu_rules_hand_size(r);
    int16_t raw[4] = {0, 0, 0, 0}, score[4];
    for (unsigned m = t->contracts; m; m &= m - 1) {
        const barbu_contract *k = &r->contract[__builtin_ctz(m)];
        for (int seat = 0; seat < 4; seat++) {
            int v = k->per_trick * t->tricks[seat];
            for (barbu_cards c = t->taken[seat] & t->penalty; c; c &= c - 1)
                v += k->card[__builtin_ctzll(c)];
            raw[seat] = (int16_t)(raw[seat] + v);
        }
        for (int i = 0; i < t->ntricks; i++)
            raw[t->winner[i]] = (int16_t)(raw[t->winner[i]] + k->trick_from_end[tricks - 1 - i]);
    }
    barbu_settle(t->dbl, t->rdbl, raw, score);
    return score[me];
}

/* Minimax over engine states, me against the other three: me's settled
 * score for the whole deal. */
static int brute(const barbu_state *s, int me, int alpha, int beta)
{
    if (s->t.phase != BARBU_PHASE_PLAY)
        return s->t.last.score[me];
    bool maxing = s->t.to_move == me;
    int best = maxing ? INT_MIN : INT_MAX;
    for (barbu_cards m = barbu_playable(s); m; m &= m - 1) {
        barbu_state next = *s;
        assert_int_equal(barbu_play(&next, (barbu_card)__builtin_ctzll(m)), 0);
        int v = brute(&next, me, alpha, beta);
        if (maxing ? v > best : v < best)
            best = v;
        if (maxing && best > alpha)
            alpha = best;
        if (!maxing && best < beta)
            beta = best;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* The solver's value and each move's against the minimax, on positions of
 * `deals` deals of each contract with `least` to `most` cards in each hand. */
static void check_values_range(bb_solver *sv, const barbu_rules *r, int deals, int least, int most,
                               uint64_t seed)
{
    barbu_rng rng;
    barbu_rng_seed(&rng, seed);
    int checked = 0;
    for (int k = r->game == BARBU_GAME_FIFE ? -1 : 0; k < r->n_contracts; k++) {
        if (k >= 0 && r->contract[k].kind != BARBU_KIND_TRICKS &&
            r->contract[k].kind != BARBU_KIND_TRUMPS)
            continue;
        for (int d = 0; d < deals; d++) {
            barbu_state s;
            if (!first_deal(&s, r, seed * 1000 + (uint64_t)(k + 1) * 100 + (uint64_t)d, k, &rng))
                continue;
            int cards = least + (int)barbu_rng_below(&rng, (uint32_t)(most - least + 1));
            int left = 4 * cards - (int)barbu_rng_below(&rng, 4);
            if (!play_down(&s, left, &rng))
                continue;
            int me = (int)barbu_rng_below(&rng, 4);
            int base = done_score(&s, me);
            int exact = brute(&s, me, INT_MIN, INT_MAX);
            int value = bb_solve_value(sv, &s, me);
            if (base + value != exact)
                print_error("%s, %s, seed %d: solver %d + %d, minimax %d\n", r->preset,
                            k >= 0 ? r->contract[k].key : "calls", d, base, value, exact);
            assert_int_equal(base + value, exact);

            barbu_cards moves = 0;
            int values[BARBU_MAX_TRICKS];
            int n = bb_solve_moves(sv, &s, me, &moves, values);
            assert_int_equal(n, barbu_count(moves));
            assert_true(moves == barbu_playable(&s));
            int i = 0;
            for (barbu_cards m = moves; m; m &= m - 1, i++) {
                barbu_state next = s;
                assert_int_equal(barbu_play(&next, (barbu_card)__builtin_ctzll(m)), 0);
                assert_int_equal(base + values[i], brute(&next, me, INT_MIN, INT_MAX));
            }
            checked++;
        }
    }
    assert_true(checked >= deals);
}

static void check_values(bb_solver *sv, const barbu_rules *r, int deals, int most, uint64_t seed)
{
    check_values_range(sv, r, deals, 2, most, seed);
}

static void check_values_at(bb_solver *sv, const barbu_rules *r, int deals, int cards,
                            uint64_t seed)
{
    check_values_range(sv, r, deals, cards, cards, seed);
}

static void test_values_small(void **state)
{
    (void)state;
    /* A small table, so that entries are replaced and shared between
     * positions of one context. */
    bb_solver *sv = bb_solver_new(16);
    assert_non_null(sv);
    static const char *const presets[] = {"uk", "classic", "king", "fife", "uk-32", "king-7th"};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        barbu_rules r;
        preset(&r, presets[i]);
        check_values(sv, &r, strcmp(presets[i], "fife") == 0 ? 120 : 30, 3, 31 + i);
    }
    barbu_rules r;
    preset(&r, "uk");
    check_values(sv, &r, 10, 4, 41);
    preset(&r, "uk");
    r.must_trump = false;
    check_values(sv, &r, 6, 3, 42);
    assert_true(bb_solver_nodes(sv) > 0);
    bb_solver_free(sv);
}

/* Five cards each against the minimax, fewer in debug builds (the
 * minimax plays every card through the engine and its checks). */
static void test_values_five(void **state)
{
    (void)state;
    bb_solver *sv = bb_solver_new(16);
    assert_non_null(sv);
#ifdef BARBU_CHECK_INVARIANTS
    uint64_t seeds = 1;
#else
    uint64_t seeds = 3;
#endif
    static const char *const presets[] = {"uk", "king", "fife"};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        barbu_rules r;
        preset(&r, presets[i]);
        for (uint64_t seed = 71; seed < 71 + seeds; seed++)
            check_values_at(sv, &r, 1, 5, seed + 10 * i);
    }
    bb_solver_free(sv);
}

/*
 * A score table with more classes of cards than the table's keys tell
 * apart (every heart worth its rank): the solver searches without its
 * table, and must still be exact.  The table is changed after barbu_init
 * (which would refuse a game that does not add up to zero); the first
 * deal still scores by it, and the invariant checker agrees, since a No
 * Hearts deal plays all its tricks.
 */
static void test_many_classes(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    int nh = contract_of(&r, "no-hearts");
    bb_solver *sv = bb_solver_new(16);
    assert_non_null(sv);
    barbu_rng rng;
    barbu_rng_seed(&rng, 81);
    int checked = 0;
    for (int d = 0; d < 200 && checked < 12; d++) {
        barbu_rules base;
        preset(&base, "uk");
        r = base;
        barbu_state s;
        if (!first_deal(&s, &r, 8100 + (uint64_t)d, nh, &rng))
            continue;
        for (int rank = 2; rank <= BARBU_ACE; rank++)
            r.contract[nh].card[BARBU_CARD(BARBU_HEARTS, rank)] = (int16_t)-rank;
        int cards = 3 + checked % 2;
        if (!play_down(&s, 4 * cards - (int)barbu_rng_below(&rng, 4), &rng))
            continue;
        int me = (int)barbu_rng_below(&rng, 4);
        assert_int_equal(done_score(&s, me) + bb_solve_value(sv, &s, me),
                         brute(&s, me, INT_MIN, INT_MAX));
        checked++;
    }
    assert_true(checked == 12);
    bb_solver_free(sv);
}

/*
 * The early end: with the rules the engine accepts it never changes a
 * score, since a contract that ends early scores only the cards taken.  A
 * No Queens that also scores tricks (changed after barbu_init, which would
 * refuse it) shows whether the solver ends the deal exactly where the
 * engine does.  The invariant checker of debug builds would rightly refuse
 * such a game, so only other builds run it.
 */
static void test_early_end(void **state)
{
    (void)state;
#ifdef BARBU_CHECK_INVARIANTS
    skip();
#else
    barbu_rules r;
    preset(&r, "uk");
    int nq = contract_of(&r, "no-queens");
    bb_solver *sv = bb_solver_new(16);
    assert_non_null(sv);
    barbu_rng rng;
    barbu_rng_seed(&rng, 51);
    int ended = 0, checked = 0;
    for (int d = 0; d < 300 && checked < 60; d++) {
        barbu_state s;
        r.contract[nq].per_trick = 0;
        if (!first_deal(&s, &r, 5100 + (uint64_t)d, nq, &rng))
            continue;
        r.contract[nq].per_trick = -3;
        if (!play_down(&s, 4 * 4 - (int)barbu_rng_below(&rng, 4), &rng))
            continue;
        int me = (int)barbu_rng_below(&rng, 4);
        assert_int_equal(done_score(&s, me) + bb_solve_value(sv, &s, me),
                         brute(&s, me, INT_MIN, INT_MAX));
        barbu_state end = s;
        barbu_playout_random(&end, &rng);
        ended += end.t.last.tricks_left > 0;
        checked++;
    }
    assert_true(checked >= 60 && ended > 5);
    bb_solver_free(sv);
#endif
}

/* Each move's value is the value of the position after it, mid-trick and
 * at the trick's end, on bigger positions than the minimax can take. */
static void test_moves_match_values(void **state)
{
    (void)state;
    bb_solver *sv = bb_solver_new(18);
    bb_solver *fresh = bb_solver_new(16);
    assert_non_null(sv);
    assert_non_null(fresh);
    static const char *const presets[] = {"uk", "king", "fife"};
    barbu_rng rng;
    barbu_rng_seed(&rng, 61);
    int checked = 0;
    for (size_t p = 0; p < sizeof presets / sizeof presets[0]; p++) {
        barbu_rules r;
        preset(&r, presets[p]);
        for (int d = 0; d < 40; d++) {
            barbu_state s;
            if (!first_deal(&s, &r, 6100 + p * 100 + (uint64_t)d, -1, &rng))
                continue;
            int cards = 5 + (int)barbu_rng_below(&rng, 2);
            if (!play_down(&s, 4 * cards - (int)barbu_rng_below(&rng, 4), &rng))
                continue;
            int me = (int)barbu_rng_below(&rng, 4);
            int base = done_score(&s, me);
            barbu_cards moves = 0;
            int values[BARBU_MAX_TRICKS];
            int n = bb_solve_moves(sv, &s, me, &moves, values);
            assert_true(n > 0 && moves == barbu_playable(&s));
            int best = s.t.to_move == me ? INT_MIN : INT_MAX, i = 0;
            for (barbu_cards m = moves; m; m &= m - 1, i++) {
                barbu_state next = s;
                assert_int_equal(barbu_play(&next, (barbu_card)__builtin_ctzll(m)), 0);
                int after = done_score(&next, me);
                if (next.t.phase == BARBU_PHASE_PLAY)
                    after += bb_solve_value(fresh, &next, me);
                assert_int_equal(base + values[i], after);
                best = s.t.to_move == me ? (values[i] > best ? values[i] : best)
                                         : (values[i] < best ? values[i] : best);
            }
            assert_int_equal(bb_solve_value(fresh, &s, me), best);
            checked++;
        }
    }
    assert_true(checked > 60);
    bb_solver_free(sv);
    bb_solver_free(fresh);
}

/* ---------------------------------------------------------------- max^n */

/* Max^n over engine states: each seat's settled score for the whole deal,
 * the seat to move taking the moves best for itself and each distinct
 * outcome of those equally likely. */
static void brute_maxn(const barbu_state *s, double out[4])
{
    if (s->t.phase != BARBU_PHASE_PLAY) {
        for (int b = 0; b < 4; b++)
            out[b] = s->t.last.score[b];
        return;
    }
    double v[BARBU_MAX_TRICKS][4];
    int n = 0, seat = s->t.to_move;
    for (barbu_cards m = barbu_playable(s); m; m &= m - 1, n++) {
        barbu_state next = *s;
        assert_int_equal(barbu_play(&next, (barbu_card)__builtin_ctzll(m)), 0);
        brute_maxn(&next, v[n]);
    }
    double best = v[0][seat];
    for (int i = 1; i < n; i++)
        best = v[i][seat] > best ? v[i][seat] : best;
    int kept[BARBU_MAX_TRICKS], nk = 0;
    for (int b = 0; b < 4; b++)
        out[b] = 0.0;
    for (int i = 0; i < n; i++) {
        if (v[i][seat] < best - 1e-6)
            continue;
        bool seen = false;
        for (int j = 0; j < nk && !seen; j++) {
            seen = true;
            for (int b = 0; b < 4; b++)
                seen = seen && fabs(v[i][b] - v[kept[j]][b]) < 1e-6;
        }
        if (seen)
            continue;
        kept[nk++] = i;
        for (int b = 0; b < 4; b++)
            out[b] += v[i][b];
    }
    for (int b = 0; b < 4; b++)
        out[b] /= nk;
}

/* The max^n values of each move against the search over engine states, on
 * endgames of every trick contract of several presets (doubles at random,
 * so that the seats' scores are weighted differently); and the card it
 * plays is one of the best for the seat to move. */
static void test_maxn(void **state)
{
    (void)state;
    bb_solver *sv = bb_solver_new(16);
    assert_non_null(sv);
    static const char *const presets[] = {"uk", "king", "fife", "ravage"};
    barbu_rng rng;
    barbu_rng_seed(&rng, 73);
    int checked = 0, split = 0;
    for (size_t p = 0; p < sizeof presets / sizeof presets[0]; p++) {
        barbu_rules r;
        preset(&r, presets[p]);
        for (int d = 0; d < 60; d++) {
            barbu_state s;
            if (!first_deal(&s, &r, 7300 + p * 100 + (uint64_t)d, -1, &rng))
                continue;
            int cards = 2 + (int)barbu_rng_below(&rng, 2);
            if (!play_down(&s, 4 * cards - (int)barbu_rng_below(&rng, 4), &rng) ||
                !bb_solver_fits(&s))
                continue;
            int me = (int)barbu_rng_below(&rng, 4);
            int base = done_score(&s, me);
            barbu_cards moves = 0;
            double values[BARBU_MAX_TRICKS], best = -1e9;
            int n = bb_maxn_moves(sv, &s, me, &moves, values);
            assert_int_equal(n, barbu_count(moves));
            assert_true(moves == barbu_playable(&s));
            int i = 0;
            for (barbu_cards m = moves; m; m &= m - 1, i++) {
                barbu_state next = s;
                double exact[4];
                assert_int_equal(barbu_play(&next, (barbu_card)__builtin_ctzll(m)), 0);
                brute_maxn(&next, exact);
                if (fabs(base + values[i] - exact[me]) > 1e-2)
                    print_error("%s deal %d: max^n %d + %g, engine %g\n", presets[p], d, base,
                                values[i], exact[me]);
                assert_true(fabs(base + values[i] - exact[me]) < 1e-2);
            }
            /* The card played is best for the seat to move. */
            int mover = s.t.to_move;
            double mine[BARBU_MAX_TRICKS];
            assert_int_equal(bb_maxn_moves(sv, &s, mover, &moves, mine), n);
            for (i = 0; i < n; i++)
                best = mine[i] > best ? mine[i] : best;
            int card = bb_maxn_card(sv, &s, &rng);
            assert_true(card >= 0 && (moves >> card & 1));
            i = barbu_count(moves & (BARBU_BIT(card) - 1));
            assert_true(mine[i] > best - 1e-2);
            for (i = 0; i < n; i++)
                split += mine[i] < best - 1e-2;
            checked++;
        }
    }
    assert_true(checked > 150);
    assert_true(split > 30); /* some moves were worse than others */
    bb_solver_free(sv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_playable_presets),
        cmocka_unit_test(test_playable_options),
        cmocka_unit_test(test_fits),
        cmocka_unit_test(test_values_small),
        cmocka_unit_test(test_values_five),
        cmocka_unit_test(test_many_classes),
        cmocka_unit_test(test_early_end),
        cmocka_unit_test(test_moves_match_values),
        cmocka_unit_test(test_maxn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
