/*
 * test_king.c - King, or Rıfkı (seed 004): 20 deals, a new declarer every
 * deal, no doubling; six negative contracts played twice each and Trumps
 * eight times, each player declaring three different negative contracts and
 * Trumps twice.  The schedule's refusals (already declared, played out, or a
 * choice that leaves the game impossible to complete) and the score of every
 * contract, with King-7th's seventh and last tricks.
 */
#include "helpers.h"

static const char *const NEGATIVES[6] = {"no-king",   "no-girls",    "no-boys",
                                         "no-hearts", "no-last-two", "no-tricks"};

/* ------------------------------------------------------------ the deal */

/* The deal of test_scoring.c that obeys the hearts-lead rule throughout.
 * Tricks (leader first, winner last):
 *   1 N 5S 3S 4S 2S N      6 W 6D 7D 8D JH E     11 W 9C TC 7H JC S
 *   2 N 6S 8S 7S AH E      7 E 9D TH JD TD W     12 S QC KC AC 6H N
 *   3 E 9S JS KH TS S      8 W QD AD KD 9H N     13 N 2H 3H 4H 5H W
 *   4 S QS QH AS KS N      9 N 2C 3C 5C 4C S
 *   5 N 2D 3D 4D 5D W     10 S 6C 8C 7C 8H W
 */
static void hearts_deal(barbu_cards h[4])
{
    hands_of(h, "AT65.2.AT72.AT72", "K983.8763.K983.3", "QJ74.JT94.4.QJ65", "2.AKQ5.QJ65.K984");
}

static const char HEARTS_PLAY[] =
    "5S 3S 4S 2S 6S 8S 7S AH 9S JS KH TS QS QH AS KS 2D 3D 4D 5D 6D 7D 8D JH 9D TH JD TD "
    "QD AD KD 9H 2C 3C 5C 4C 6C 8C 7C 8H 9C TC 7H JC QC KC AC 6H 2H 3H 4H 5H";

/* N declares a contract on the hearts deal and plays it as far as it goes. */
static void play_hearts_deal(barbu_state *s, const barbu_rules *r, const char *key)
{
    barbu_cards h[4];
    hearts_deal(h);
    start_game(s, r, N, h);
    declare(s, key, -1, 0);
    /* No doubling: the play starts at once, the declarer leading. */
    assert_int_equal(s->t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(barbu_to_move(s), N);
    const char *p = HEARTS_PLAY;
    char buf[4];
    while (s->t.deal == 0) {
        while (*p == ' ')
            p++;
        assert_true(*p != '\0');
        memcpy(buf, p, 2);
        buf[2] = '\0';
        play(s, buf);
        p += 2;
    }
}

static void expect_raw(const barbu_state *s, const barbu_rules *r, const char *key,
                       const int raw[4], int tricks_left)
{
    const barbu_result *res = &s->t.last;
    int c = contract_of(r, key), sum = 0;
    assert_int_equal(res->played, 1);
    assert_int_equal(res->contracts, 1u << c);
    assert_int_equal(res->tricks_left, tricks_left);
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(res->raw[seat], raw[seat]);
        assert_int_equal(res->part[c][seat], raw[seat]);
        /* Nobody doubles: the score is the raw score. */
        assert_int_equal(res->score[seat], raw[seat]);
        assert_int_equal(res->dbl[seat], 0);
        assert_int_equal(s->t.total[seat], raw[seat]);
        sum += raw[seat];
    }
    assert_int_equal(sum, barbu_contract_total(r, c));
}

/* ------------------------------------------------------------ presets */

static void test_preset(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    static const struct {
        const char *key;
        int kind, per_player, times, total;
    } want[7] = {
        {"no-king", BARBU_KIND_TRICKS, 1, 2, -320},
        {"no-girls", BARBU_KIND_TRICKS, 1, 2, -400},
        {"no-boys", BARBU_KIND_TRICKS, 1, 2, -480},
        {"no-hearts", BARBU_KIND_TRICKS, 1, 2, -390},
        {"no-last-two", BARBU_KIND_TRICKS, 1, 2, -360},
        {"no-tricks", BARBU_KIND_TRICKS, 1, 2, -650},
        {"trumps", BARBU_KIND_TRUMPS, 2, 8, 650},
    };
    assert_int_equal(r.n_contracts, 7);
    long game = 0;
    for (int i = 0; i < 7; i++) {
        int c = contract_of(&r, want[i].key);
        assert_int_equal(r.contract[c].kind, want[i].kind);
        assert_int_equal(r.contract[c].per_player, want[i].per_player);
        assert_int_equal(r.contract[c].times, want[i].times);
        assert_int_equal(barbu_contract_times(&r, c), want[i].times);
        assert_int_equal(barbu_contract_total(&r, c), want[i].total);
        game += (long)want[i].total * want[i].times;
    }
    assert_int_equal(game, 0);
    assert_int_equal(barbu_rules_deals(&r), 20);
    assert_int_equal(barbu_rules_hand_size(&r), 13);
    assert_int_equal(r.rotation, BARBU_ROTATE_EVERY_DEAL);
    assert_false(r.doubling);
    assert_int_equal(r.mandatory_doubles, 0);

    /* The card tables. */
    const barbu_contract *boys = &r.contract[contract_of(&r, "no-boys")];
    const barbu_contract *girls = &r.contract[contract_of(&r, "no-girls")];
    const barbu_contract *hearts = &r.contract[contract_of(&r, "no-hearts")];
    const barbu_contract *king = &r.contract[contract_of(&r, "no-king")];
    for (int suit = 0; suit < 4; suit++) {
        for (int rank = 2; rank <= BARBU_ACE; rank++) {
            int card = BARBU_CARD(suit, rank);
            assert_int_equal(boys->card[card], rank == BARBU_JACK || rank == BARBU_KING ? -60 : 0);
            assert_int_equal(girls->card[card], rank == BARBU_QUEEN ? -100 : 0);
            assert_int_equal(hearts->card[card], suit == BARBU_HEARTS ? -30 : 0);
            assert_int_equal(king->card[card],
                             card == BARBU_CARD(BARBU_HEARTS, BARBU_KING) ? -320 : 0);
        }
    }
    const barbu_contract *l2 = &r.contract[contract_of(&r, "no-last-two")];
    assert_int_equal(l2->trick_from_end[0], -180);
    assert_int_equal(l2->trick_from_end[1], -180);
    assert_int_equal(r.contract[contract_of(&r, "no-tricks")].per_trick, -50);
    assert_int_equal(r.contract[contract_of(&r, "trumps")].per_trick, 50);

    /* King-7th: the fifth contract is the 7th and the last trick. */
    barbu_rules k7;
    preset(&k7, "king-7th");
    assert_int_equal(barbu_contract_find(&k7, "no-last-two"), -1);
    const barbu_contract *n7 = &k7.contract[contract_of(&k7, "no-7th-last")];
    for (int k = 0; k < BARBU_MAX_TRICKS; k++)
        assert_int_equal(n7->trick_from_end[k], k == 0 || k == 6 ? -180 : 0);
    assert_int_equal(n7->flags & BARBU_CF_EARLY_END, 0);
    assert_int_equal(barbu_contract_total(&k7, contract_of(&k7, "no-7th-last")), -360);
    assert_int_equal(barbu_rules_deals(&k7), 20);
}

/* ------------------------------------------------------------ scoring */

/* No King: K♥ -320 to S, who takes it in the third trick; the deal ends. */
static void test_no_king(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-king");
    const int raw[4] = {0, 0, -320, 0};
    expect_raw(&s, &r, "no-king", raw, 10);
}

/* No Girls: N takes the four queens (tricks 4, 8 and 12): -400, one trick
 * left unplayed. */
static void test_no_girls(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-girls");
    const int raw[4] = {-400, 0, 0, 0};
    expect_raw(&s, &r, "no-girls", raw, 1);
}

/* No Boys: -60 for each jack AND each king.  N KS KD KC; E JH; S JS KH JC;
 * W JD.  The last of the eight (KC) falls in trick 12, so it ends there. */
static void test_no_boys(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-boys");
    const int raw[4] = {-180, -60, -180, -60};
    expect_raw(&s, &r, "no-boys", raw, 1);
    barbu_cards boys = cards_of("JS KS JH KH JD KD JC KC");
    assert_true((s.t.last.taken[N] & boys) == cards_of("KS KD KC"));
    assert_true((s.t.last.taken[S] & boys) == cards_of("JS KH JC"));
}

/* No Hearts: -30 a heart.  N 3, E 2, S 2, W 6; played to the end. */
static void test_no_hearts(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-hearts");
    const int raw[4] = {-90, -60, -60, -180};
    expect_raw(&s, &r, "no-hearts", raw, 0);
}

/* No Last Two: -180 each, trick 12 to N and trick 13 to W. */
static void test_no_last_two(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-last-two");
    const int raw[4] = {-180, 0, 0, -180};
    expect_raw(&s, &r, "no-last-two", raw, 0);
}

/* No Tricks: -50 a trick; N 4, E 2, S 3, W 4. */
static void test_no_tricks(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-tricks");
    const int raw[4] = {-200, -100, -150, -200};
    expect_raw(&s, &r, "no-tricks", raw, 0);
}

/* No 7th and Last (king-7th): trick 7 and trick 13 both go to W (-360);
 * trick 12, N's, scores nothing now. */
static void test_no_7th_last(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king-7th");
    barbu_state s;
    play_hearts_deal(&s, &r, "no-7th-last");
    const int raw[4] = {0, 0, 0, -360};
    expect_raw(&s, &r, "no-7th-last", raw, 0);

    /* A composed deal where they go to different players: trick 7 to E,
     * trick 12 and 13 to W.  No 7th and Last: E -180, W -180; No Last Two
     * (king) would give W both. */
    const int winner[13] = {N, N, N, E, E, E, E, S, S, W, W, W, W};
    barbu_cards h[4];
    barbu_card seq[52];
    compose_tricks(N, winner, h, seq);
    start_game(&s, &r, N, h);
    declare(&s, "no-7th-last", -1, 0);
    play_cards_seq(&s, seq, 52);
    const int raw7[4] = {0, -180, 0, -180};
    expect_raw(&s, &r, "no-7th-last", raw7, 0);

    barbu_rules k;
    preset(&k, "king");
    start_game(&s, &k, N, h);
    declare(&s, "no-last-two", -1, 0);
    play_cards_seq(&s, seq, 52);
    const int raw2[4] = {0, 0, 0, -360};
    expect_raw(&s, &k, "no-last-two", raw2, 0);
}

/* Trumps: +50 a trick.  A composed deal in clubs, everybody following suit
 * but in the last trick, which W leads with the 2 of trumps.  In the three
 * club tricks each player must beat the trumps on the table, so they are
 * played upwards and won by the fourth player: S leads the tenth trick to E,
 * E the eleventh to N, N the twelfth to W. */
static void test_trumps(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    const int winner[13] = {N, E, S, W, N, E, S, W, S, E, N, W, W};
    barbu_cards h[4];
    barbu_card seq[52];
    compose_tricks(N, winner, h, seq);
    barbu_state s;
    start_game(&s, &r, N, h);
    declare(&s, "trumps", BARBU_CLUBS, 0);
    assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
    assert_int_equal(s.t.kind, BARBU_KIND_TRUMPS);
    assert_int_equal(s.t.trump, BARBU_CLUBS);
    play_cards_seq(&s, seq, 52);
    const int raw[4] = {150, 150, 150, 200};
    expect_raw(&s, &r, "trumps", raw, 0);
}

/* ------------------------------------------------------------ no doubling */

/* Every declaration goes straight to the play: no BID phase, nothing owed,
 * nobody compelled; a bid is out of phase. */
static void test_no_doubling(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    barbu_state s;
    assert_int_equal(barbu_init(&s, &r, 77), 0);
    for (int p = 0; p < 4; p++)
        for (int d = 0; d < 4; d++)
            assert_int_equal(s.t.owed[p][d], 0);
    barbu_rng rng;
    barbu_rng_seed(&rng, 77);
    while (!barbu_over(&s)) {
        assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);
        barbu_action acts[BARBU_MAX_ACTIONS];
        int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
        assert_true(n > 0);
        barbu_action a = acts[barbu_rng_below(&rng, (uint32_t)n)];
        assert_int_equal(barbu_apply(&s, &a), 0);
        assert_int_equal(s.t.phase, BARBU_PHASE_PLAY);
        assert_int_equal(s.t.bids, 0);
        for (int seat = 0; seat < 4; seat++) {
            barbu_view v;
            barbu_view_of(&s, seat, &v);
            assert_false(v.compulsory);
            assert_int_equal(barbu_view_owed(&v, seat), 0);
        }
        barbu_action bid = barbu_act_bid(barbu_to_move(&s), 0, 0);
        assert_int_equal(barbu_apply(&s, &bid), BARBU_EPHASE);
        assert_int_equal(barbu_playout_random(&s, &rng), 0);
        assert_int_equal(s.t.last.played, 1);
    }
}

/* ------------------------------------------------------------ the schedule */

/* Declares a contract (Trumps in spades) and plays the deal out at random. */
static void declare_and_play(barbu_state *s, const char *key, barbu_rng *rng)
{
    bool trumps = strcmp(key, "trumps") == 0;
    declare(s, key, trumps ? BARBU_SPADES : -1, 0);
    assert_int_equal(barbu_playout_random(s, rng), 0);
}

/* The code barbu_check gives for each contract, N's Trumps in spades. */
static void expect_codes(const barbu_state *s, const char *const keys[], const int codes[], int n)
{
    for (int i = 0; i < n; i++) {
        int c = contract_of(s->rules, keys[i]);
        int trump = s->rules->contract[c].kind == BARBU_KIND_TRUMPS ? BARBU_SPADES : -1;
        barbu_action a = barbu_act_declare(barbu_to_move(s), c, trump, 0);
        int err = barbu_check(s, &a);
        if (err != codes[i])
            print_error("deal %d, %s declares %s: %d, expected %d\n", s->t.deal + 1,
                        barbu_seat_name(barbu_to_move(s)), keys[i], err, codes[i]);
        assert_int_equal(err, codes[i]);
        if (err != 0) {
            barbu_state before = *s;
            barbu_state copy = *s;
            assert_int_equal(barbu_apply(&copy, &a), err);
            assert_memory_equal(&copy.t, &before.t, sizeof before.t);
        }
    }
}

/* The contracts barbu_legal offers, one bit each. */
static unsigned legal_contracts(const barbu_state *s, int *count)
{
    barbu_action acts[BARBU_MAX_ACTIONS];
    int n = barbu_legal(s, acts, BARBU_MAX_ACTIONS);
    assert_true(n <= BARBU_MAX_ACTIONS);
    unsigned set = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(acts[i].type, BARBU_ACT_DECLARE);
        assert_int_equal(barbu_check(s, &acts[i]), 0);
        set |= acts[i].contracts;
    }
    if (count)
        *count = n;
    return set;
}

/*
 * A schedule built deal by deal (N, E, S, W in turn):
 *   N: No Girls, No Boys, No Hearts      E: No Girls, No Boys, No King
 *   S: Trumps, No Hearts, ...            W: Trumps, Trumps, ...
 * At deal 11 S may not take the second No King: the four deals left of No
 * Last Two and No Tricks would then need S's one remaining negative choice
 * and three of W's, and W may take each only once.  At deal 13 N, with three
 * negative contracts, must take Trumps.
 */
static void test_schedule_refusals(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    barbu_state s;
    start_game(&s, &r, N, NULL);
    barbu_rng rng;
    barbu_rng_seed(&rng, 11);
    int ng = contract_of(&r, "no-girls");
    int nl = contract_of(&r, "no-last-two"), nt = contract_of(&r, "no-tricks");
    int tr = contract_of(&r, "trumps");

    declare_and_play(&s, "no-girls", &rng); /* 1 N */
    declare_and_play(&s, "no-girls", &rng); /* 2 E: No Girls played out */
    /* 3 S: No Girls has been played twice. */
    {
        static const char *const keys[] = {"no-girls"};
        static const int codes[] = {BARBU_EPLAYEDOUT};
        expect_codes(&s, keys, codes, 1);
        assert_false(legal_contracts(&s, NULL) & (1u << ng));
    }
    declare_and_play(&s, "trumps", &rng);    /* 3 S */
    declare_and_play(&s, "trumps", &rng);    /* 4 W */
    declare_and_play(&s, "no-boys", &rng);   /* 5 N */
    declare_and_play(&s, "no-boys", &rng);   /* 6 E */
    declare_and_play(&s, "no-hearts", &rng); /* 7 S */
    declare_and_play(&s, "trumps", &rng);    /* 8 W */
    declare_and_play(&s, "no-hearts", &rng); /* 9 N */
    declare_and_play(&s, "no-king", &rng);   /* 10 E */

    /* 11 S. */
    assert_int_equal(barbu_to_move(&s), S);
    {
        static const char *const keys[] = {"no-king",     "no-girls",  "no-boys", "no-hearts",
                                           "no-last-two", "no-tricks", "trumps"};
        static const int codes[] = {
            BARBU_ESCHEDULE, BARBU_EPLAYEDOUT, BARBU_EPLAYEDOUT, BARBU_EUSED, 0, 0, 0};
        expect_codes(&s, keys, codes, 7);
        int n;
        assert_int_equal(legal_contracts(&s, &n), (1u << nl) | (1u << nt) | (1u << tr));
        assert_int_equal(n, 1 + 1 + 4);
    }
    declare_and_play(&s, "no-last-two", &rng); /* 11 S */
    /* 12 W: a third Trumps is one too many. */
    {
        static const char *const keys[] = {"trumps", "no-king"};
        static const int codes[] = {BARBU_EUSED, 0};
        expect_codes(&s, keys, codes, 2);
        assert_false(legal_contracts(&s, NULL) & (1u << tr));
    }
    declare_and_play(&s, "no-king", &rng); /* 12 W: No King played out */

    /* 13 N: three negative contracts already, so Trumps only. */
    assert_int_equal(barbu_to_move(&s), N);
    {
        static const char *const keys[] = {"no-king",     "no-girls",  "no-boys", "no-hearts",
                                           "no-last-two", "no-tricks", "trumps"};
        static const int codes[] = {BARBU_EPLAYEDOUT,
                                    BARBU_EUSED,
                                    BARBU_EUSED,
                                    BARBU_EUSED,
                                    BARBU_ESCHEDULE,
                                    BARBU_ESCHEDULE,
                                    0};
        expect_codes(&s, keys, codes, 7);
        int n;
        assert_int_equal(legal_contracts(&s, &n), 1u << tr);
        assert_int_equal(n, 4);
    }

    /* The rest of the game follows from the schedule: it completes. */
    while (!barbu_over(&s)) {
        barbu_action acts[BARBU_MAX_ACTIONS];
        int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
        assert_true(n > 0);
        barbu_action a = acts[barbu_rng_below(&rng, (uint32_t)n)];
        assert_int_equal(barbu_apply(&s, &a), 0);
        assert_int_equal(barbu_playout_random(&s, &rng), 0);
    }
    assert_int_equal(s.t.used[S][nt], 1);
    assert_int_equal(s.t.used[W][nl], 1);
    assert_int_equal(s.t.used[W][nt], 1);
}

/* An independent check of the schedule: can the players still declare what
 * the game needs (each its remaining deals, no contract more than its
 * per-player times by one player, each contract its times in all)?  A plain
 * search over how many times each player takes each contract. */
typedef struct sched {
    int n;
    int cap[4][BARBU_MAX_CONTRACTS];
    int left[BARBU_MAX_CONTRACTS];
    int need[4];
} sched;

static bool fill(sched *q, int p, int c)
{
    if (p == 4) {
        for (int k = 0; k < q->n; k++)
            if (q->left[k] != 0)
                return false;
        return true;
    }
    if (c == q->n)
        return q->need[p] == 0 && fill(q, p + 1, 0);
    int most = q->cap[p][c];
    most = most < q->left[c] ? most : q->left[c];
    most = most < q->need[p] ? most : q->need[p];
    for (int k = most; k >= 0; k--) {
        q->left[c] -= k;
        q->need[p] -= k;
        bool ok = fill(q, p, c + 1);
        q->left[c] += k;
        q->need[p] += k;
        if (ok)
            return true;
    }
    return false;
}

static int expected_code(const barbu_rules *r, const barbu_table *t, int seat, int c)
{
    int err = ref_count_check(r, t, seat, c);
    if (err != 0)
        return err;
    sched q;
    q.n = r->n_contracts;
    for (int k = 0; k < q.n; k++) {
        int all = 0;
        for (int p = 0; p < 4; p++) {
            int used = t->used[p][k] + (p == seat && k == c);
            q.cap[p][k] = r->contract[k].per_player - used;
            all += used;
        }
        q.left[k] = barbu_contract_times(r, k) - all;
    }
    for (int p = 0; p < 4; p++)
        q.need[p] = barbu_rules_deals(r) / 4 - t->declared[p] - (p == seat);
    return fill(&q, 0, 0) ? 0 : BARBU_ESCHEDULE;
}

/* Random games: at every declaration each contract's code agrees with the
 * plain search, and barbu_legal offers exactly the contracts with code 0.
 * Each game ends with every player having declared five times: Trumps twice
 * and three different negative contracts. */
static void test_schedule_random(void **state)
{
    (void)state;
    static const char *const presets[] = {"king", "king-7th"};
    int refused[3] = {0};
    for (int k = 0; k < 2; k++) {
        barbu_rules r;
        preset(&r, presets[k]);
        int tr = contract_of(&r, "trumps");
        for (uint64_t seed = 1; seed <= 150; seed++) {
            barbu_state s;
            assert_int_equal(barbu_init(&s, &r, seed), 0);
            int first = s.t.first;
            barbu_rng rng;
            barbu_rng_seed(&rng, seed * 3 + (uint64_t)k);
            for (int d = 0; d < 20; d++) {
                int seat = barbu_to_move(&s);
                assert_int_equal(seat, (first + d) & 3);
                assert_int_equal(s.t.declarer, seat);
                unsigned expect = 0;
                for (int c = 0; c < r.n_contracts; c++) {
                    int want = expected_code(&r, &s.t, seat, c);
                    int trump = c == tr ? BARBU_HEARTS : -1;
                    barbu_action a = barbu_act_declare(seat, c, trump, 0);
                    assert_int_equal(barbu_check(&s, &a), want);
                    if (want == 0)
                        expect |= 1u << c;
                    else if (want == BARBU_EUSED)
                        refused[0]++;
                    else if (want == BARBU_EPLAYEDOUT)
                        refused[1]++;
                    else
                        refused[2]++;
                }
                assert_int_equal(legal_contracts(&s, NULL), expect);
                barbu_action acts[BARBU_MAX_ACTIONS];
                int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
                barbu_action a = acts[barbu_rng_below(&rng, (uint32_t)n)];
                assert_int_equal(barbu_apply(&s, &a), 0);
                assert_int_equal(barbu_playout_random(&s, &rng), 0);
            }
            assert_true(barbu_over(&s));
            for (int p = 0; p < 4; p++) {
                assert_int_equal(s.t.declared[p], 5);
                assert_int_equal(s.t.used[p][tr], 2);
                for (int c = 0; c < r.n_contracts; c++)
                    if (c != tr)
                        assert_true(s.t.used[p][c] <= 1);
            }
            for (int c = 0; c < r.n_contracts; c++) {
                int all = 0;
                for (int p = 0; p < 4; p++)
                    all += s.t.used[p][c];
                assert_int_equal(all, barbu_contract_times(&r, c));
            }
            assert_int_equal(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3], 0);
        }
    }
    /* Random play meets every kind of refusal. */
    assert_true(refused[0] > 0);
    assert_true(refused[1] > 0);
    assert_true(refused[2] > 0);
}

/* Every deal a new declarer, N E S W from the drawn first; each of the six
 * negative contracts twice and Trumps eight times. */
static void test_rotation(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "king");
    for (int first = 0; first < 4; first++) {
        barbu_state s;
        start_game(&s, &r, first, NULL);
        assert_int_equal(s.t.n_deals, 20);
        barbu_rng rng;
        barbu_rng_seed(&rng, 500 + (uint64_t)first);
        int declared[7] = {0};
        for (int d = 0; d < 20; d++) {
            assert_int_equal(s.t.declarer, (first + d) & 3);
            assert_int_equal(s.t.dealer, (first + d + 3) & 3);
            finish_deal_random(&s, &rng);
            declared[__builtin_ctz(s.t.last.contracts)]++;
        }
        assert_true(barbu_over(&s));
        for (int i = 0; i < 6; i++)
            assert_int_equal(declared[contract_of(&r, NEGATIVES[i])], 2);
        assert_int_equal(declared[contract_of(&r, "trumps")], 8);
        assert_int_equal(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3], 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_preset),
        cmocka_unit_test(test_no_king),
        cmocka_unit_test(test_no_girls),
        cmocka_unit_test(test_no_boys),
        cmocka_unit_test(test_no_hearts),
        cmocka_unit_test(test_no_last_two),
        cmocka_unit_test(test_no_tricks),
        cmocka_unit_test(test_no_7th_last),
        cmocka_unit_test(test_trumps),
        cmocka_unit_test(test_no_doubling),
        cmocka_unit_test(test_schedule_refusals),
        cmocka_unit_test(test_schedule_random),
        cmocka_unit_test(test_rotation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
