/*
 * test_fastpath.c - the engine's fast paths (docs/internals.md, "The hot
 * path") held equal to the plain rules they stand for, on the positions of
 * random games of every preset: the seeded deal dealt as it is shuffled, the
 * contract totals summed a table at a time, the declarations the schedule
 * leaves open worked out at once (an exact schedule's in one walk of the
 * contracts), a bid checked without the contract's total
 * and with the state's memo of the rules (which contracts are negative, the
 * deals each player declares),
 * a card checked on its own suit at a layout, a hand's list of plays, and the
 * playouts (a layout's keeps the cards that fit from step to step).  Each
 * reference below is the rule written plainly, as the engine had it before.
 */
#include <stdlib.h>

#include "helpers.h"
#include "internal.h"

/* ------------------------------------------------------- the references */

static barbu_cards ref_deck(const barbu_rules *r)
{
    barbu_cards deck = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = r->deck_low; rank <= BARBU_ACE; rank++)
            deck |= BARBU_BIT(BARBU_CARD(suit, rank));
    return deck;
}

/* The pack lowest card first, a Fisher-Yates shuffle from the deal's
 * sub-seed, the cards dealt one at a time from the dealer's left. */
static void ref_dealt_hands(const barbu_state *s, int deal, int dealer, barbu_cards hands[4])
{
    barbu_card pack[52];
    int n = 0;
    for (barbu_cards d = ref_deck(s->rules); d; d &= d - 1)
        pack[n++] = (barbu_card)__builtin_ctzll(d);
    barbu_rng rng;
    barbu_rng_seed(&rng, bb_subseed(s->seed, BB_SEED_DEAL, deal));
    for (int i = n - 1; i > 0; i--) {
        int j = (int)barbu_rng_below(&rng, (uint32_t)i + 1);
        barbu_card tmp = pack[i];
        pack[i] = pack[j];
        pack[j] = tmp;
    }
    memset(hands, 0, 4 * sizeof hands[0]);
    for (int k = 0; k < n; k++)
        hands[(dealer + 1 + k) & 3] |= BARBU_BIT(pack[k]);
}

static int ref_contract_total(const barbu_rules *r, int index)
{
    const barbu_contract *c = &r->contract[index];
    int tricks = barbu_rules_hand_size(r), total = 0;
    switch (c->kind) {
    case BARBU_KIND_DOMINO:
    case BARBU_KIND_PATIENCE:
        for (int i = 0; i < 4; i++)
            total += c->place[i];
        return total;
    case BARBU_KIND_RAVAGE:
        return c->shared;
    case BARBU_KIND_CHINESE:
        return 0;
    default:
        break;
    }
    total = c->per_trick * tricks;
    for (int i = 0; i < tricks; i++)
        total += c->trick_from_end[i];
    for (barbu_cards d = ref_deck(r); d; d &= d - 1)
        total += c->card[__builtin_ctzll(d)];
    return total;
}

/* The cards that fit a layout, suit by suit from its ends. */
static int ref_up(const barbu_rules *r, int rank)
{
    if (r->domino_ace_low)
        return rank == BARBU_ACE ? r->deck_low : rank == BARBU_KING ? 0 : rank + 1;
    return rank == BARBU_ACE ? 0 : rank + 1;
}

static int ref_down(const barbu_rules *r, int rank)
{
    if (r->domino_ace_low)
        return rank == BARBU_ACE ? 0 : rank == r->deck_low ? BARBU_ACE : rank - 1;
    return rank == r->deck_low ? 0 : rank - 1;
}

static barbu_cards ref_layout_playable(const barbu_rules *r, const barbu_table *t, barbu_cards hand)
{
    barbu_cards ok = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (t->lo[suit] == 0) {
            ok |= BARBU_BIT(BARBU_CARD(suit, t->rank));
            continue;
        }
        int up = ref_up(r, t->hi[suit]), down = ref_down(r, t->lo[suit]);
        if (up)
            ok |= BARBU_BIT(BARBU_CARD(suit, up));
        if (down)
            ok |= BARBU_BIT(BARBU_CARD(suit, down));
    }
    return ok & hand;
}

/* bb_check of a card as it was: the general checks first, then the card
 * against every playable card of the hand. */
static int ref_check_card(const barbu_state *s, int seat, barbu_cards cards)
{
    const barbu_table *t = &s->t;
    if (t->phase == BARBU_PHASE_OVER)
        return BARBU_EOVER;
    if (seat != t->to_move)
        return BARBU_ETURN;
    if (t->phase != BARBU_PHASE_PLAY)
        return BARBU_EPHASE;
    barbu_cards hand = s->hand[seat];
    if (cards == 0 || (cards & ~BARBU_ALL_CARDS))
        return BARBU_EINVAL;
    if (cards & ~hand)
        return BARBU_ENOTHELD;
    if (cards & (cards - 1)) {
        if (t->kind != BARBU_KIND_PATIENCE || s->rules->game != BARBU_GAME_FIFE)
            return BARBU_EONECARD;
        return bb_patience_group_check(s->rules, t, hand, cards);
    }
    barbu_cards ok = t->kind == BARBU_KIND_DOMINO || t->kind == BARBU_KIND_PATIENCE
                         ? ref_layout_playable(s->rules, t, hand)
                         : bb_playable(s->rules, t, hand);
    if (ok & cards)
        return 0;
    return bb_play_error(s->rules, t, hand, (barbu_card)__builtin_ctzll(cards));
}

/* A declaration's schedule checked as it was in an exact schedule (each
 * contract declared by each player its per-player times), REF_NOT_EXACT in
 * another:
 * the seat's own count, the game's count, then every count's limit. */
#define REF_NOT_EXACT 1000
static int ref_schedule_check_exact(const barbu_rules *r, const barbu_table *t, int seat, int c)
{
    int per = 0;
    for (int k = 0; k < r->n_contracts; k++) {
        if (barbu_contract_times(r, k) != 4 * r->contract[k].per_player)
            return REF_NOT_EXACT;
        per += r->contract[k].per_player;
    }
    if (4 * per != barbu_rules_deals(r))
        return REF_NOT_EXACT;
    int err = ref_count_check(r, t, seat, c);
    if (err != 0)
        return err;
    for (int p = 0; p < 4; p++)
        for (int k = 0; k < r->n_contracts; k++)
            if (t->used[p][k] > r->contract[k].per_player)
                return BARBU_ESCHEDULE;
    return 0;
}

/* A bid checked as it was: whom the seat may double and redouble, the
 * contract's total always summed. */
static int ref_check_bid(const barbu_state *s, unsigned doubles, unsigned redoubles)
{
    const barbu_table *t = &s->t;
    int seat = t->to_move, decl = t->declarer;
    unsigned by = 0, dbl;
    for (int a = 0; a < 4; a++)
        if (t->dbl[a] & (1u << seat))
            by |= 1u << a;
    if (seat == decl)
        dbl = 0;
    else if (!bb_negative(s->rules, t->contracts))
        dbl = (1u << decl) & ~by;
    else
        dbl = 0xfu & ~(1u << seat) & ~by;
    if (doubles & ~dbl)
        return BARBU_EDOUBLE;
    if (redoubles & ~by)
        return BARBU_EREDOUBLE;
    if (bb_compulsory(s->rules, t, seat) && !(doubles & (1u << decl)))
        return BARBU_ECOMPULSORY;
    return 0;
}

/* Whether the deals left can still be declared: a flow from the players'
 * deals left through the contracts to the contracts' deals left, found one
 * augmenting path (one deal) at a time. */
enum { REF_NODES = 2 + 4 + BARBU_MAX_CONTRACTS, REF_SINK = 1, REF_SEAT0 = 2, REF_CONTRACT0 = 6 };
typedef struct ref_flow {
    int n;
    int cap[REF_NODES][REF_NODES];
    bool seen[REF_NODES];
} ref_flow;

static bool ref_augment(ref_flow *f, int u)
{
    if (u == REF_SINK)
        return true;
    f->seen[u] = true;
    for (int v = 0; v < f->n; v++) {
        if (f->cap[u][v] > 0 && !f->seen[v] && ref_augment(f, v)) {
            f->cap[u][v]--;
            f->cap[v][u]++;
            return true;
        }
    }
    return false;
}

static bool ref_feasible(const barbu_rules *r, const uint8_t used[4][BARBU_MAX_CONTRACTS],
                         const uint8_t declared[4])
{
    int per_seat = barbu_rules_deals(r) / 4, need = 0, owed = 0;
    ref_flow f;
    memset(&f, 0, sizeof f);
    f.n = REF_CONTRACT0 + r->n_contracts;
    for (int c = 0; c < r->n_contracts; c++) {
        int done = 0;
        for (int p = 0; p < 4; p++) {
            if (used[p][c] > r->contract[c].per_player)
                return false;
            done += used[p][c];
            f.cap[REF_SEAT0 + p][REF_CONTRACT0 + c] = r->contract[c].per_player - used[p][c];
        }
        int left = barbu_contract_times(r, c) - done;
        if (left < 0)
            return false;
        f.cap[REF_CONTRACT0 + c][REF_SINK] = left;
        owed += left;
    }
    for (int p = 0; p < 4; p++) {
        int left = per_seat - declared[p];
        if (left < 0)
            return false;
        f.cap[0][REF_SEAT0 + p] = left;
        need += left;
    }
    if (need != owed)
        return false;
    for (int k = 0; k < need; k++) {
        memset(f.seen, 0, sizeof f.seen);
        if (!ref_augment(&f, 0))
            return false;
    }
    return true;
}

/* The rest of the deal by barbu_play_random, one step at a time. */
static void ref_playout(barbu_state *s, barbu_rng *rng)
{
    int deal = s->t.deal;
    while (s->t.deal == deal && s->t.phase == BARBU_PHASE_PLAY)
        assert_int_equal(barbu_play_random(s, rng), 0);
}

/* ------------------------------------------------------------ the checks */

static void check_position(const barbu_state *s, int step)
{
    const barbu_rules *r = s->rules;
    const barbu_table *t = &s->t;
    int seat = t->to_move;
    if (t->phase == BARBU_PHASE_DECLARE && r->game != BARBU_GAME_FIFE) {
        unsigned want = 0;
        for (int c = 0; c < r->n_contracts; c++) {
            int err = bb_schedule_check(r, t, seat, c);
            if (err == 0)
                want |= 1u << c;
            int plain = ref_schedule_check_exact(r, t, seat, c);
            if (plain != REF_NOT_EXACT)
                assert_int_equal(err, plain);
        }
        assert_int_equal(bb_schedule_open(r, t, seat), want);
        /* A count beyond its limit (no game reaches one): no contract open. */
        if (ref_schedule_check_exact(r, t, seat, 0) != REF_NOT_EXACT) {
            barbu_table over = *t;
            int other = (seat + 1) & 3;
            over.used[other][r->n_contracts - 1] =
                (uint8_t)(r->contract[r->n_contracts - 1].per_player + 1);
            for (int c = 0; c < r->n_contracts; c++)
                assert_int_equal(bb_schedule_check(r, &over, seat, c),
                                 ref_schedule_check_exact(r, &over, seat, c));
            assert_int_equal(bb_schedule_open(r, &over, seat), 0);
        }
    }
    if (t->phase == BARBU_PHASE_BID) {
        /* The state's memo of the rules, noted at the declaration, answers
         * as the plain sum and count do. */
        assert_true(s->memo_rules == r);
        bb_bidding k = bb_state_bidding(s);
        if (k.negative >= 0)
            assert_int_equal(k.negative, bb_negative(r, t->contracts));
        assert_int_equal(bb_state_negative(s), bb_negative(r, t->contracts));
        assert_int_equal(k.per_player, bb_rules_deals(r) / 4);
        /* Each bid checked by barbu_check, and applied (with the memo, and
         * with a memo that is not the rules', which the engine must not
         * trust), against the bid as it was checked. */
        barbu_state stale;
        memcpy(&stale, s, sizeof stale);
        barbu_rules other = *r;
        stale.memo_rules = &other;
        stale.memo_negative = (uint16_t)~s->memo_negative;
        stale.memo_per_player = 0;
        for (unsigned d = 0; d < 16; d++)
            for (unsigned rd = 0; rd < 16; rd++) {
                barbu_action a = barbu_act_bid(seat, d, rd);
                int want = ref_check_bid(s, d, rd);
                assert_int_equal(barbu_check(s, &a), want);
                barbu_state after;
                memcpy(&after, s, sizeof after);
                assert_int_equal(barbu_apply(&after, &a), want);
                memcpy(&after, &stale, sizeof after);
                assert_int_equal(barbu_apply(&after, &a), want);
            }
        /* The list of bids, with the memo and without. */
        barbu_action fast[BARBU_MAX_ACTIONS], plain[BARBU_MAX_ACTIONS], unsure[BARBU_MAX_ACTIONS];
        int n = barbu_legal(s, fast, BARBU_MAX_ACTIONS);
        assert_int_equal(bb_legal(r, t, s->hand[seat], plain, BARBU_MAX_ACTIONS), n);
        assert_int_equal(barbu_legal(&stale, unsure, BARBU_MAX_ACTIONS), n);
        assert_true(n > 0 && n <= BARBU_MAX_ACTIONS);
        assert_true(memcmp(fast, plain, (size_t)n * sizeof fast[0]) == 0);
        assert_true(memcmp(unsure, plain, (size_t)n * sizeof fast[0]) == 0);
    }
    if (t->phase != BARBU_PHASE_PLAY)
        return;
    barbu_cards hand = s->hand[seat];
    if (t->kind == BARBU_KIND_DOMINO || t->kind == BARBU_KIND_PATIENCE) {
        assert_true(bb_layout_playable(r, t, hand) == ref_layout_playable(r, t, hand));
        assert_true(bb_layout_playable(r, t, BARBU_ALL_CARDS) ==
                    ref_layout_playable(r, t, BARBU_ALL_CARDS));
    }
    /* Every single card, held or not, and a card for the wrong seat. */
    for (int card = 0; card < 64; card++) {
        barbu_action a = barbu_act_play(seat, (barbu_card)card);
        assert_int_equal(barbu_check(s, &a), ref_check_card(s, seat, a.cards));
    }
    barbu_action other = barbu_act_play((seat + 1) & 3, (barbu_card)bb_lowest(hand | 1));
    assert_int_equal(barbu_check(s, &other), ref_check_card(s, other.seat, other.cards));
    /* The list of plays, whole and cut short. */
    barbu_cards playable = barbu_playable(s);
    int n = barbu_count(playable);
    barbu_action all[BARBU_MAX_ACTIONS], cut[BARBU_MAX_ACTIONS];
    int total = barbu_legal(s, all, BARBU_MAX_ACTIONS);
    if (n > 0 && t->kind != BARBU_KIND_PATIENCE)
        assert_int_equal(total, n);
    barbu_cards rest = playable;
    for (int i = 0; i < n; i++, rest &= rest - 1) {
        barbu_action want = barbu_act_play(seat, (barbu_card)bb_lowest(rest));
        assert_true(barbu_action_equal(&all[i], &want));
        assert_true(all[i].middle == 0);
    }
    /* Caps below the count, and above it by up to four (the cards' list is
     * written four at a time, the spare ones past the count only where the
     * cap leaves room for them). */
    for (int cap = 0; cap <= total + 4; cap++) {
        memset(cut, 0xa5, sizeof cut);
        assert_int_equal(barbu_legal(s, cut, cap), total);
        int listed = cap < total ? cap : total;
        assert_true(memcmp(cut, all, (size_t)listed * sizeof cut[0]) == 0);
        /* Nothing written beyond the cap. */
        unsigned char spare[sizeof cut[0]];
        memset(spare, 0xa5, sizeof spare);
        assert_true(memcmp(&cut[cap], spare, sizeof spare) == 0);
    }
    /* The playout against barbu_play_random's steps, now and then. */
    if (step % 5 == 0) {
        barbu_state fast, plain;
        memcpy(&fast, s, sizeof fast);
        memcpy(&plain, s, sizeof plain);
        barbu_rng g1, g2;
        barbu_rng_seed(&g1, (uint64_t)step * 7919 + 1);
        barbu_rng_seed(&g2, (uint64_t)step * 7919 + 1);
        assert_int_equal(barbu_playout_random(&fast, &g1), 0);
        ref_playout(&plain, &g2);
        assert_true(g1.s == g2.s);
        assert_true(memcmp(&fast, &plain, sizeof fast) == 0);
    }
}

/* Random games of a preset, every position checked. */
static void random_games(const char *name, int games)
{
    barbu_rules r;
    preset(&r, name);
    for (int g = 1; g <= games; g++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &r, (uint64_t)g * 1000003), 0);
        barbu_rng rng;
        barbu_rng_seed(&rng, (uint64_t)g);
        int step = 0, deal = -1;
        while (!barbu_over(&s)) {
            if (s.t.deal != deal) {
                /* A new deal: its hands as the plain shuffle deals them. */
                deal = s.t.deal;
                barbu_cards want[4];
                ref_dealt_hands(&s, deal, s.t.dealer, want);
                assert_true(memcmp(want, s.dealt, sizeof want) == 0);
            }
            if (s.t.phase != BARBU_PHASE_ARRANGE)
                check_position(&s, step);
            barbu_action legal[BARBU_MAX_ACTIONS];
            int n = barbu_legal(&s, legal, BARBU_MAX_ACTIONS);
            assert_true(n > 0);
            n = n < BARBU_MAX_ACTIONS ? n : BARBU_MAX_ACTIONS;
            barbu_action a = legal[barbu_rng_below(&rng, (uint32_t)n)];
            bool declares = a.type == BARBU_ACT_DECLARE;
            assert_int_equal(barbu_apply(&s, &a), 0);
            if (declares && r.game != BARBU_GAME_FIFE && s.t.deal == deal) {
                /* The deal's penalty cards, card by card. */
                barbu_cards want = 0;
                for (barbu_cards d = ref_deck(&r); d; d &= d - 1)
                    if (r.contract[__builtin_ctz(a.contracts)].card[__builtin_ctzll(d)] != 0)
                        want |= d & -d;
                assert_true(s.t.penalty == want);
            }
            step++;
        }
    }
}

static void test_random_games_every_preset(void **state)
{
    (void)state;
    for (int i = 0; barbu_preset_name(i) != NULL; i++) {
        const char *name = barbu_preset_name(i);
        /* Chinese Poker lists some 70,000 rows a hand: two games do. */
        random_games(name, strcmp(name, "chinese") == 0 ? 2 : 8);
    }
}

/* Dealing: every dealer, the two packs, a seed and a key (the keyed path
 * keeps bb_shuffle; its own test is test_keyed.c). */
static void test_dealt_hands(void **state)
{
    (void)state;
    const char *names[] = {"uk", "uk-32"};
    for (int p = 0; p < 2; p++) {
        barbu_rules r;
        preset(&r, names[p]);
        for (uint64_t seed = 0; seed < 40; seed++) {
            barbu_state s;
            assert_int_equal(barbu_init(&s, &r, seed * 0x9e3779b97f4a7c15u), 0);
            for (int deal = 0; deal < 30; deal += 7)
                for (int dealer = 0; dealer < 4; dealer++) {
                    barbu_cards got[4], want[4];
                    barbu_dealt_hands(&s, deal, dealer, got);
                    ref_dealt_hands(&s, deal, dealer, want);
                    assert_true(memcmp(got, want, sizeof got) == 0);
                }
        }
    }
}

/* Contract totals of every preset, and of score tables with entries outside
 * the pack and beyond the deal's tricks (which must not count). */
static void test_contract_totals(void **state)
{
    (void)state;
    for (int i = 0; barbu_preset_name(i) != NULL; i++) {
        barbu_rules r;
        preset(&r, barbu_preset_name(i));
        for (int c = 0; c < r.n_contracts; c++)
            assert_int_equal(barbu_contract_total(&r, c), ref_contract_total(&r, c));
        srand(7);
        for (int round = 0; round < 20; round++) {
            for (int c = 0; c < r.n_contracts; c++) {
                barbu_contract *k = &r.contract[c];
                k->per_trick = (int16_t)(rand() % 41 - 20);
                for (int t = 0; t < BARBU_MAX_TRICKS; t++)
                    k->trick_from_end[t] = (int16_t)(rand() % 41 - 20);
                for (int card = 0; card < 64; card++)
                    k->card[card] = (int16_t)(rand() % 41 - 20);
                assert_int_equal(barbu_contract_total(&r, c), ref_contract_total(&r, c));
            }
        }
    }
}

/* The schedules that can jam (King's), at counts a game reaches and at
 * random ones: the cut answers as the augmenting paths did. */
static void test_schedule_feasible(void **state)
{
    (void)state;
    const char *names[] = {"king", "king-7th"};
    srand(11);
    for (int i = 0; i < 2; i++) {
        barbu_rules r;
        preset(&r, names[i]);
        int per_seat = barbu_rules_deals(&r) / 4;
        int agree[2] = {0, 0};
        for (int round = 0; round < 20000; round++) {
            uint8_t used[4][BARBU_MAX_CONTRACTS] = {{0}}, declared[4] = {0};
            /* Some deals declared at random, each within the player's limit. */
            int deals = rand() % (4 * per_seat);
            for (int k = 0; k < deals; k++) {
                int p = rand() % 4, c = rand() % r.n_contracts;
                if (used[p][c] < r.contract[c].per_player + (rand() % 50 == 0) &&
                    declared[p] < per_seat) {
                    used[p][c]++;
                    declared[p]++;
                }
            }
            bool want = ref_feasible(&r, used, declared);
            assert_int_equal(bb_schedule_feasible(&r, used, declared), want);
            agree[want]++;
        }
        /* Both answers were met often. */
        assert_true(agree[0] > 100 && agree[1] > 100);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dealt_hands),
        cmocka_unit_test(test_contract_totals),
        cmocka_unit_test(test_schedule_feasible),
        cmocka_unit_test(test_random_games_every_preset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
