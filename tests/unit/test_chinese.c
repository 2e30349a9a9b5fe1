/*
 * test_chinese.c - Chinese Poker as a contract (seeds 001, 004): after the
 * declaration and the doubling (only the declarer may be doubled: it is
 * zero-sum) each seat from the declarer's left sets its rows; nothing of
 * them shows until all four are set; then each pair of players compares
 * rows, 4 points a row and 3 rows more for a scoop.  Refusals, fouls (refused,
 * or losing every row with chinese-fouls = lose), the list of legal settings,
 * and the [Rows] of a record.
 */
#include "helpers.h"

#include <stdlib.h>

#define BIT(seat) (1u << (seat))

/*
 * A composed deal and its rows, strongest first:
 *   N  AS KS QS JS TS (royal flush) / AH AD AC KH KD (aces full) / QH QD QC
 *   E  9S 8S 7S 6S 5S (straight flush) / JH JD JC TH TD (jacks full) / 9H 9D 9C
 *   S  8H 7H 6H 5H 4H (straight flush) / KC TC 8C 7C 6C (flush) / 8D 7D 6D
 *   W  2S 2H 2D 2C 5D (four twos) / 4S 4D 4C 3S 3D (fours full) / 3H 3C 5C
 * N scoops everybody: 3 x 6 units.  E scoops S and W, is scooped by N: +6.
 * S against W: wins the back, loses the middle and the front: -1.  So
 * N +18, E +6, S -6 -6 -1 = -13, W -6 -6 +1 = -11 units; times 4:
 * +72, +24, -52, -44.
 */
static const char *const ROWS[4][3] = {
    {"AS KS QS JS TS", "AH AD AC KH KD", "QH QD QC"},
    {"9S 8S 7S 6S 5S", "JH JD JC TH TD", "9H 9D 9C"},
    {"8H 7H 6H 5H 4H", "KC TC 8C 7C 6C", "8D 7D 6D"},
    {"2S 2H 2D 2C 5D", "4S 4D 4C 3S 3D", "3H 3C 5C"},
};
static const int RAW[4] = {72, 24, -52, -44};

static void rows_deal(barbu_cards h[4])
{
    for (int seat = 0; seat < 4; seat++)
        h[seat] = cards_of(ROWS[seat][0]) | cards_of(ROWS[seat][1]) | cards_of(ROWS[seat][2]);
    /* The same hands PBN-style, as a record shows them. */
    barbu_cards pbn[4];
    hands_of(pbn, "AKQJT.AKQ.AKQ.AQ", "98765.JT9.JT9.J9", "-.87654.876.KT876", "432.32.5432.5432");
    assert_memory_equal(pbn, h, sizeof pbn);
}

static barbu_action arrange(int seat, const char *back, const char *middle)
{
    barbu_action a = barbu_act(BARBU_ACT_ARRANGE, seat);
    a.cards = cards_of(back);
    a.middle = cards_of(middle);
    return a;
}

static barbu_action rows_of(int seat)
{
    return arrange(seat, ROWS[seat][0], ROWS[seat][1]);
}

/* A game on the composed deal, N declaring Chinese Poker, bids given. */
static void start_chinese(barbu_state *s, const barbu_rules *r, const unsigned dbl[4],
                          const unsigned rdbl[4])
{
    barbu_cards h[4];
    rows_deal(h);
    start_game(s, r, N, h);
    declare(s, "chinese", -1, 0);
    assert_int_equal(s->t.kind, BARBU_KIND_CHINESE);
    assert_int_equal(s->t.phase, BARBU_PHASE_BID);
    bid_all(s, dbl, rdbl);
    assert_int_equal(s->t.phase, BARBU_PHASE_ARRANGE);
}

static void start_undoubled(barbu_state *s, const barbu_rules *r)
{
    const unsigned none[4] = {0, 0, 0, 0};
    start_chinese(s, r, none, none);
}

/* A random valid setting for the seat to move: random rows of 5, 5 and 3,
 * drawn again until the engine accepts them. */
static barbu_action random_rows(const barbu_state *s, barbu_rng *rng)
{
    int seat = barbu_to_move(s);
    barbu_cards hand = s->hand[seat];
    for (;;) {
        barbu_action a = barbu_act(BARBU_ACT_ARRANGE, seat);
        for (int row = 0; row < 2; row++) {
            barbu_cards *set = row == 0 ? &a.cards : &a.middle;
            for (int k = 0; k < 5; k++) {
                barbu_cards left = hand & ~a.cards & ~a.middle;
                *set |= BARBU_BIT(
                    barbu_nth_card(left, barbu_rng_below(rng, (uint32_t)barbu_count(left))));
            }
        }
        int err = barbu_check(s, &a);
        if (err == 0)
            return a;
        assert_int_equal(err, BARBU_EFOUL);
    }
}

/* ------------------------------------------------------------ the phase */

/* What every seat sees: the table exactly, its own 13 cards and, once it
 * has set them, its own rows; nothing else. */
static void expect_views(const barbu_state *s)
{
    for (int seat = 0; seat <= BARBU_ALL_SEATS; seat++) {
        barbu_view v, want;
        barbu_view_of(s, seat, &v);
        memset(&want, 0, sizeof want);
        want.rules = s->rules;
        want.seat = (int8_t)seat;
        want.t = s->t;
        for (int p = 0; p < 4; p++)
            if (seat == p || seat == BARBU_ALL_SEATS)
                want.hand[p] = s->hand[p];
        if (seat < 4 && (s->t.arranged >> seat) & 1) {
            want.rows[BARBU_ROW_BACK] = s->pending[seat][0];
            want.rows[BARBU_ROW_MIDDLE] = s->pending[seat][1];
            want.rows[BARBU_ROW_FRONT] =
                s->hand[seat] & ~s->pending[seat][0] & ~s->pending[seat][1];
        }
        assert_memory_equal(&v, &want, sizeof v);
        assert_false(v.compulsory);
        assert_true(v.advice == 0);
        for (int p = 0; p < 4; p++) {
            if (seat != BARBU_ALL_SEATS)
                assert_true(v.hand[p] == (p == seat ? s->dealt[p] : 0));
            assert_int_equal(v.t.in_hand[p], 13);
            assert_true(v.t.played[p] == 0);
            assert_true(v.t.taken[p] == 0);
            assert_true(v.t.shown_out[p] == 0);
            for (int row = 0; row < 3; row++)
                assert_true(v.t.last.rows[p][row] == 0);
        }
        assert_int_equal(v.t.phase, BARBU_PHASE_ARRANGE);
        assert_int_equal(v.t.ntricks, 0);
        assert_int_equal(v.t.trick.n, 0);
    }
}

/* The rows are set in turn from the declarer's left (E, S, W, then N).  Until
 * all four are set nobody's view shows anything of them: two games that
 * differ only in the rows a seat chose give every seat the same view, and
 * the table differs from before only in who has set rows, who moves, and
 * the count of actions. */
static void test_order_and_secrecy(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "chinese");
    barbu_state s;
    start_undoubled(&s, &r);
    /* Undoubled but zero-sum: played, not shared out. */
    assert_int_equal(s.t.deal, 0);
    static const int order[4] = {E, S, W, N};
    barbu_state alt;
    /* Other valid settings of each hand. */
    static const char *const other[4][2] = {
        {"AS KS QS JS TS", "AH KH QH QD QC"},
        {"9H 9D 9C 9S 8S", "JH JD JC TH TD"},
        {"KC TC 8C 7C 6C", "8D 7D 6D 4H 5H"},
        {"2S 2H 2D 2C 3H", "4S 4D 4C 3S 3D"},
    };
    for (int i = 0; i < 4; i++) {
        int seat = order[i];
        assert_int_equal(s.t.phase, BARBU_PHASE_ARRANGE);
        assert_int_equal(barbu_to_move(&s), seat);
        unsigned set = 0;
        for (int k = 0; k < i; k++)
            set |= BIT(order[k]);
        assert_int_equal(s.t.arranged, set);
        expect_views(&s);
        /* Out of turn, every other seat is refused. */
        for (int p = 0; p < 4; p++) {
            if (p == seat)
                continue;
            barbu_action a = rows_of(p);
            assert_int_equal(barbu_check(&s, &a), BARBU_ETURN);
        }

        barbu_state before = s;
        alt = s;
        barbu_action mine = rows_of(seat);
        barbu_action theirs = arrange(seat, other[seat][0], other[seat][1]);
        assert_int_equal(barbu_check(&s, &theirs), 0);
        assert_int_equal(barbu_apply(&s, &mine), 0);
        assert_int_equal(barbu_apply(&alt, &theirs), 0);
        if (i == 3)
            break;
        expect_views(&s);
        for (int p = 0; p <= BARBU_ALL_SEATS; p++) {
            barbu_view a, b;
            barbu_view_of(&s, p, &a);
            barbu_view_of(&alt, p, &b);
            if (p != seat) {
                assert_memory_equal(&a, &b, sizeof a);
                continue;
            }
            /* The seat itself sees the rows it chose. */
            assert_true(a.rows[BARBU_ROW_BACK] == mine.cards);
            assert_true(a.rows[BARBU_ROW_MIDDLE] == mine.middle);
            assert_true(a.rows[BARBU_ROW_FRONT] == cards_of(ROWS[seat][2]));
            assert_true(b.rows[BARBU_ROW_BACK] == theirs.cards);
            a.rows[0] = b.rows[0];
            a.rows[1] = b.rows[1];
            a.rows[2] = b.rows[2];
            assert_memory_equal(&a, &b, sizeof a);
        }
        barbu_table t = s.t;
        assert_int_equal(t.arranged, before.t.arranged | BIT(seat));
        assert_int_equal(t.acted, before.t.acted + 1);
        assert_int_equal(t.to_move, order[i + 1]);
        t.arranged = before.t.arranged;
        t.acted = before.t.acted;
        t.to_move = before.t.to_move;
        assert_memory_equal(&t, &before.t, sizeof t);
        /* Nor do the hands change: no card is played. */
        assert_memory_equal(s.hand, before.hand, sizeof s.hand);
    }

    /* The showdown: the deal is over, every row is in the result. */
    const barbu_result *res = &s.t.last;
    assert_int_equal(s.t.deal, 1);
    assert_int_equal(s.t.phase, BARBU_PHASE_DECLARE);
    assert_int_equal(res->played, 1);
    assert_int_equal(res->declarer, N);
    for (int seat = 0; seat < 4; seat++)
        for (int row = 0; row < 3; row++)
            assert_true(res->rows[seat][row] == cards_of(ROWS[seat][row]));
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(res->raw[seat], RAW[seat]);
        assert_int_equal(res->score[seat], RAW[seat]);
        assert_int_equal(res->tricks[seat], 0);
        assert_true(res->taken[seat] == 0);
    }
    /* Every view now shows them. */
    barbu_view v;
    barbu_view_of(&s, W, &v);
    assert_true(v.t.last.rows[E][BARBU_ROW_FRONT] == cards_of("9H 9D 9C"));
    /* The other game, where N set other rows, shows those. */
    assert_true(alt.t.last.rows[N][BARBU_ROW_MIDDLE] == cards_of(other[N][1]));
    assert_true(alt.t.last.rows[E][BARBU_ROW_BACK] == cards_of(ROWS[E][0]));
}

/* ------------------------------------------------------------ refusals */

/* A setting refused through barbu_apply with its code, leaving the state as
 * it was, and the exact reason barbu_arrange_check gives for it. */
static void expect_refused(barbu_state *s, const char *back, const char *middle, int err,
                           const char *why)
{
    barbu_action a = arrange(barbu_to_move(s), back, middle);
    barbu_state before = *s;
    assert_int_equal(barbu_check(s, &a), err);
    assert_int_equal(barbu_apply(s, &a), err);
    assert_memory_equal(&s->t, &before.t, sizeof s->t);
    assert_memory_equal(s->pending, before.pending, sizeof s->pending);
    char buf[160];
    assert_int_equal(barbu_arrange_check(s->hand[a.seat], a.cards, a.middle, s->rules->fouls_lose,
                                         buf, sizeof buf),
                     err);
    assert_string_equal(buf, why);
}

static void test_refusals(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "chinese");
    barbu_state s;
    start_undoubled(&s, &r);

    /* E. */
    expect_refused(&s, "AS 8S 7S 6S 5S", "JH JD JC TH TD", BARBU_EARRANGE,
                   "the back row has cards not in the hand: AS");
    expect_refused(&s, "9S 8S 7S 6S 5S", "JH JD JC QH KD", BARBU_EARRANGE,
                   "the middle row has cards not in the hand: KD QH");
    expect_refused(&s, "9S 8S 7S 6S 5S", "9S JD JC TH TD", BARBU_EARRANGE,
                   "the back and middle rows share 9S");
    expect_refused(&s, "9S 8S 7S 6S", "JH JD JC TH TD", BARBU_EARRANGE,
                   "the back row has 4 cards, not 5");
    expect_refused(&s, "9S 8S 7S 6S 5S", "JH JD JC TH TD 9H", BARBU_EARRANGE,
                   "the middle row has 6 cards, not 5");
    expect_refused(&s, "JH JD JC TH TD", "9S 8S 7S 6S 5S", BARBU_EFOUL,
                   "the middle (a straight flush to the nine) beats the back (a full house, "
                   "jacks over tens)");
    /* Not an arrangement at all, and nothing else is expected now. */
    barbu_action a = arrange(E, "", "");
    assert_int_equal(barbu_apply(&s, &a), BARBU_EARRANGE);
    a = barbu_act_play(E, card_of("9S"));
    assert_int_equal(barbu_apply(&s, &a), BARBU_EPHASE);
    a = barbu_act_bid(E, BIT(N), 0);
    assert_int_equal(barbu_apply(&s, &a), BARBU_EPHASE);
    a = barbu_act_declare(E, contract_of(&r, "no-tricks"), -1, 0);
    assert_int_equal(barbu_apply(&s, &a), BARBU_EPHASE);
    a = rows_of(E);
    assert_int_equal(barbu_apply(&s, &a), 0);

    /* S: the front beats the middle. */
    expect_refused(&s, "7H 7C 7D 6H 6C", "KC TC 6D 5H 4H", BARBU_EFOUL,
                   "the front (three eights) beats the middle (king high)");
    a = rows_of(S);
    assert_int_equal(barbu_apply(&s, &a), 0);
    /* W: four twos in the middle over a full house. */
    expect_refused(&s, "4S 4D 4C 3S 3D", "2S 2H 2D 2C 5D", BARBU_EFOUL,
                   "the middle (four twos) beats the back (a full house, fours over threes)");
}

/* ------------------------------------------------------------ scoring */

static void expect_scores(const barbu_state *s, const int raw[4], const int score[4])
{
    const barbu_result *res = &s->t.last;
    int c = contract_of(s->rules, "chinese"), sum = 0, sum_score = 0;
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(res->raw[seat], raw[seat]);
        assert_int_equal(res->part[c][seat], raw[seat]);
        assert_int_equal(res->score[seat], score[seat]);
        sum += raw[seat];
        sum_score += score[seat];
    }
    assert_int_equal(sum, 0);
    assert_int_equal(sum_score, 0);
    assert_int_equal(barbu_contract_total(s->rules, c), 0);
}

static void arrange_all(barbu_state *s, const barbu_action rows[4])
{
    while (s->t.phase == BARBU_PHASE_ARRANGE)
        assert_int_equal(barbu_apply(s, &rows[barbu_to_move(s)]), 0);
}

/* The composed deal: pairwise units with the engine's own comparison agree
 * with the hand count above. */
static void test_pairwise_scores(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "chinese");
    barbu_cards rows[4][3];
    for (int seat = 0; seat < 4; seat++)
        for (int row = 0; row < 3; row++)
            rows[seat][row] = cards_of(ROWS[seat][row]);
    static const int units[4][4] = {
        {0, 6, 6, 6},
        {-6, 0, 6, 6},
        {-6, -6, 0, -1},
        {-6, -6, 1, 0},
    };
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            if (a != b)
                assert_int_equal(barbu_rows_compare(rows[a], rows[b], 3), units[a][b]);

    barbu_state s;
    start_undoubled(&s, &r);
    const barbu_action all[4] = {rows_of(N), rows_of(E), rows_of(S), rows_of(W)};
    arrange_all(&s, all);
    expect_scores(&s, RAW, RAW);

    /* House scores: a row 1 point and no scoop bonus: N +9, E +3, S -7, W -5. */
    rules_text(&r, "preset = chinese\nchinese.per-row = 1\nchinese.scoop = 0\n");
    start_undoubled(&s, &r);
    arrange_all(&s, all);
    const int plain[4] = {9, 3, -7, -5};
    expect_scores(&s, plain, plain);
}

/* Only the declarer may be doubled (a zero-sum contract is positive for the
 * doubling), and the doubles settle as anywhere else: E doubles N, S doubles
 * N and N redoubles S.  N-E: 72 - 24 = 48; N-S: 2 x (72 + 52) = 248. */
static void test_doubled(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "chinese");
    barbu_cards h[4];
    rows_deal(h);
    barbu_state s;
    start_game(&s, &r, N, h);
    declare(&s, "chinese", -1, 0);
    barbu_action acts[BARBU_MAX_ACTIONS];
    assert_int_equal(barbu_legal(&s, acts, BARBU_MAX_ACTIONS), 2);
    barbu_action a = barbu_act_bid(E, BIT(S), 0);
    assert_int_equal(barbu_apply(&s, &a), BARBU_EDOUBLE);
    a = barbu_act_bid(E, BIT(N) | BIT(W), 0);
    assert_int_equal(barbu_apply(&s, &a), BARBU_EDOUBLE);
    const unsigned dbl[4] = {0, BIT(N), BIT(N), 0};
    const unsigned rdbl[4] = {BIT(S), 0, 0, 0};
    bid_all(&s, dbl, rdbl);
    const barbu_action all[4] = {rows_of(N), rows_of(E), rows_of(S), rows_of(W)};
    arrange_all(&s, all);
    const int score[4] = {72 + 48 + 248, 24 - 48, -52 - 248, -44};
    expect_scores(&s, RAW, score);
}

/* chinese-fouls = lose: a fouled hand is accepted and loses every row (a
 * scoop) to each hand that is not fouled; two fouled hands are even. */
static void test_fouls_lose(void **state)
{
    (void)state;
    barbu_rules r;
    rules_text(&r, "preset = chinese\nchinese-fouls = lose\n");
    assert_true(r.fouls_lose);
    barbu_action all[4] = {rows_of(N), rows_of(E), rows_of(S),
                           arrange(W, "4S 4D 4C 3S 3D", "2S 2H 2D 2C 5D")};
    barbu_state s;
    start_undoubled(&s, &r);
    assert_int_equal(barbu_check(&s, &all[E]), 0);
    arrange_all(&s, all);
    assert_true(barbu_rows_fouled(s.t.last.rows[W][0], s.t.last.rows[W][1], s.t.last.rows[W][2]));
    /* S now scoops W: S -6 -6 +6, W -18 units. */
    const int one[4] = {72, 24, -24, -72};
    expect_scores(&s, one, one);

    /* S fouls too (a straight flush in the middle over a flush). */
    all[S] = arrange(S, "KC TC 8C 7C 6C", "8H 7H 6H 5H 4H");
    start_undoubled(&s, &r);
    arrange_all(&s, all);
    const int two[4] = {72, 24, -48, -48};
    expect_scores(&s, two, two);

    /* By default the same rows are refused. */
    preset(&r, "chinese");
    assert_false(r.fouls_lose);
    start_undoubled(&s, &r);
    assert_int_equal(barbu_apply(&s, &all[E]), 0);
    assert_int_equal(barbu_apply(&s, &all[S]), BARBU_EFOUL);
}

/* ------------------------------------------------------------ legal settings */

static int cmp_action(const void *pa, const void *pb)
{
    const barbu_action *a = pa, *b = pb;
    if (a->cards != b->cards)
        return a->cards < b->cards ? -1 : 1;
    if (a->middle != b->middle)
        return a->middle < b->middle ? -1 : 1;
    return 0;
}

/* Counts every split of a hand into 5, 5 and 3 that is not fouled, by a
 * plain loop over the subsets of the 13 positions. */
static int count_settings(barbu_cards hand, bool fouls_lose)
{
    barbu_card cards[13];
    int n = 0, valid = 0;
    for (barbu_cards h = hand; h; h &= h - 1)
        cards[n++] = (barbu_card)__builtin_ctzll(h);
    assert_int_equal(n, 13);
    for (unsigned back = 0; back < (1u << 13); back++) {
        if (__builtin_popcount(back) != 5)
            continue;
        for (unsigned mid = 0; mid < (1u << 13); mid++) {
            if ((mid & back) || __builtin_popcount(mid) != 5)
                continue;
            barbu_cards b = 0, m = 0;
            for (int i = 0; i < 13; i++) {
                if (back & (1u << i))
                    b |= BARBU_BIT(cards[i]);
                if (mid & (1u << i))
                    m |= BARBU_BIT(cards[i]);
            }
            valid += fouls_lose || !barbu_rows_fouled(b, m, hand & ~b & ~m);
        }
    }
    return valid;
}

/* barbu_legal in the ARRANGE phase lists every valid setting once: as many
 * as a plain count finds, all different, each accepted by barbu_check. */
static void check_legal_settings(const barbu_state *s)
{
    int seat = barbu_to_move(s);
    int n = barbu_legal(s, NULL, 0);
    assert_true(n > 0);
    barbu_action *acts = malloc((size_t)n * sizeof *acts);
    assert_non_null(acts);
    assert_int_equal(barbu_legal(s, acts, n), n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(acts[i].type, BARBU_ACT_ARRANGE);
        assert_int_equal(acts[i].seat, seat);
        assert_int_equal(barbu_check(s, &acts[i]), 0);
    }
    qsort(acts, (size_t)n, sizeof *acts, cmp_action);
    for (int i = 1; i < n; i++)
        assert_int_not_equal(cmp_action(&acts[i - 1], &acts[i]), 0);
    free(acts);
    assert_int_equal(n, count_settings(s->hand[seat], s->rules->fouls_lose));
    /* The seat's view lists as many. */
    barbu_view v;
    barbu_view_of(s, seat, &v);
    assert_int_equal(barbu_view_legal(&v, NULL, 0), n);
}

static void test_legal_settings(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "chinese");
    barbu_state s;
    start_undoubled(&s, &r);
    check_legal_settings(&s); /* E */
    barbu_action a = rows_of(E);
    assert_int_equal(barbu_apply(&s, &a), 0);
    a = rows_of(S);
    assert_int_equal(barbu_apply(&s, &a), 0);
    check_legal_settings(&s); /* W: pairs everywhere */

    /* A dealt hand; and with fouls accepted, every one of the
     * C(13,5) x C(8,5) = 72072 splits. */
    assert_int_equal(barbu_init(&s, &r, 3), 0);
    declare(&s, "chinese", -1, 0);
    bid_nothing(&s);
    check_legal_settings(&s);
    rules_text(&r, "preset = chinese\nchinese-fouls = lose\n");
    assert_int_equal(barbu_init(&s, &r, 3), 0);
    declare(&s, "chinese", -1, 0);
    bid_nothing(&s);
    assert_int_equal(barbu_legal(&s, NULL, 0), 72072);
}

/* ------------------------------------------------------------ records */

/* The composed deal through a record: the [Rows] section lists each seat's
 * rows in the order they were set, highest card first, and reads back. */
static void test_record_rows(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "chinese");
    barbu_state start;
    barbu_cards h[4];
    rows_deal(h);
    start_game(&start, &r, N, h);
    /* Record the game again from its start. */
    barbu_record *rec = barbu_record_new(&r, 1);
    assert_non_null(rec);
    barbu_state g = start;
    barbu_action acts[] = {barbu_act_declare(N, contract_of(&r, "chinese"), -1, 0),
                           barbu_act_bid(E, 0, 0),
                           barbu_act_bid(S, 0, 0),
                           barbu_act_bid(W, 0, 0),
                           rows_of(E),
                           rows_of(S),
                           rows_of(W),
                           rows_of(N)};
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++) {
        barbu_state before = g;
        assert_int_equal(barbu_apply(&g, &acts[i]), 0);
        assert_int_equal(barbu_record_add(rec, &before, &acts[i]), 0);
    }
    char *text;
    size_t len;
    barbu_diag diag = {0};
    assert_int_equal(barbu_record_write(rec, &text, &len, &diag), 0);
    assert_non_null(strstr(text, "[Rows]\n"
                                 "E: 9S 8S 7S 6S 5S / JH JD JC TH TD / 9H 9D 9C\n"
                                 "S: 8H 7H 6H 5H 4H / KC TC 8C 7C 6C / 8D 7D 6D\n"
                                 "W: 5D 2S 2H 2D 2C / 4S 4D 4C 3S 3D / 5C 3H 3C\n"
                                 "N: AS KS QS JS TS / AH AD AC KH KD / QH QD QC\n"));
    assert_non_null(strstr(text, "[Score \"N +72 E +24 S -52 W -44\"]"));
    barbu_record *back;
    assert_int_equal(barbu_record_read(text, len, &back, &diag), 0);
    barbu_state end;
    assert_int_equal(barbu_record_replay(back, &end, NULL, NULL, &diag), 0);
    assert_memory_equal(end.t.total, g.t.total, sizeof end.t.total);
    barbu_record_free(back);

    /* A front row that is not the rest of the hand is refused. */
    char *bad = strdup(text);
    char *front = strstr(bad, "/ 9H 9D 9C");
    assert_non_null(front);
    memcpy(front, "/ 9H 9D 4S", 10);
    assert_int_equal(barbu_record_read(bad, strlen(bad), &back, &diag), 0);
    assert_int_equal(barbu_record_replay(back, &end, NULL, NULL, &diag), BARBU_EMISMATCH);
    assert_non_null(strstr(diag.msg, "the front row is not the rest of the hand"));
    barbu_record_free(back);
    free(bad);
    free(text);
    barbu_record_free(rec);
}

/* ------------------------------------------------------------ simulations */

/* A bot's simulation starts from barbu_state_from_view.  While the rows are
 * being set the view cannot know the other seats' rows, so the engine must
 * either refuse or give a sound state (barbu_state_ok): not one that counts
 * a seat's rows as set with no rows kept for it. */
static void test_state_from_view_while_arranging(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "chinese");
    barbu_state s;
    start_undoubled(&s, &r);
    barbu_action a = rows_of(E);
    assert_int_equal(barbu_apply(&s, &a), 0);
    /* S to move; E has set its rows. */
    barbu_view v;
    barbu_view_of(&s, S, &v);
    barbu_state sim;
    int err = barbu_state_from_view(&v, s.hand, &sim);
    if (err == 0) {
        const char *why = NULL;
        int ok = barbu_state_ok(&sim, &why);
        if (ok != 0)
            print_error("barbu_state_from_view during ARRANGE: %s\n", why);
        assert_int_equal(ok, 0);
    }
}

/* ------------------------------------------------------------ whole games */

/* A ninth contract on top of Ravage City: 36 deals, nine in a row for each
 * declarer; every Chinese Poker deal sums to zero, and so does the game. */
static void test_whole_games(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "chinese");
    assert_int_equal(r.n_contracts, 9);
    assert_int_equal(barbu_rules_deals(&r), 36);
    int chinese = contract_of(&r, "chinese");
    for (uint64_t seed = 1; seed <= 3; seed++) {
        barbu_state s;
        assert_int_equal(barbu_init(&s, &r, seed), 0);
        int first = s.t.first;
        barbu_rng rng;
        barbu_rng_seed(&rng, seed);
        while (!barbu_over(&s)) {
            int deal = s.t.deal;
            assert_int_equal(s.t.declarer, (first + deal / 9) & 3);
            while (!barbu_over(&s) && s.t.deal == deal) {
                barbu_action a;
                if (s.t.phase == BARBU_PHASE_ARRANGE) {
                    a = random_rows(&s, &rng);
                } else if (s.t.phase == BARBU_PHASE_BID) {
                    a = bid_compulsory_only(&s);
                } else if (s.t.phase == BARBU_PHASE_PLAY) {
                    assert_int_equal(barbu_play_random(&s, &rng), 0);
                    continue;
                } else {
                    barbu_action acts[BARBU_MAX_ACTIONS];
                    int n = barbu_legal(&s, acts, BARBU_MAX_ACTIONS);
                    a = acts[barbu_rng_below(&rng, (uint32_t)n)];
                }
                assert_int_equal(barbu_apply(&s, &a), 0);
            }
            const barbu_result *res = &s.t.last;
            if (res->contracts == 1u << chinese) {
                assert_int_equal(res->played, 1);
                assert_int_equal(res->raw[0] + res->raw[1] + res->raw[2] + res->raw[3], 0);
                for (int p = 0; p < 4; p++) {
                    barbu_cards all = res->rows[p][0] | res->rows[p][1] | res->rows[p][2];
                    assert_int_equal(barbu_count(all), 13);
                    assert_false(
                        barbu_rows_fouled(res->rows[p][0], res->rows[p][1], res->rows[p][2]));
                }
            }
        }
        for (int p = 0; p < 4; p++)
            for (int c = 0; c < 9; c++)
                assert_int_equal(s.t.used[p][c], 1);
        assert_int_equal(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3], 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_secrecy),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_pairwise_scores),
        cmocka_unit_test(test_doubled),
        cmocka_unit_test(test_fouls_lose),
        cmocka_unit_test(test_legal_settings),
        cmocka_unit_test(test_record_rows),
        cmocka_unit_test(test_whole_games),
        cmocka_unit_test(test_state_from_view_while_arranging),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
