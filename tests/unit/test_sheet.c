/*
 * test_sheet.c - the Fife score sheet (seed 000): the booklet's own Set
 * ("Appendix - A Typical Set Scoresheet") entered by hand, each mark of "The
 * Language of Barbu" on composed deals with its near miss, and the totals and
 * positions of a Set under way.
 */
#include "helpers.h"

/* The columns, short, and a Call's bit. */
enum { AC = BARBU_COL_ACES, KH, QU, HE, TR, P1, P2 };
#define BIT(col) (1u << (col))
#define LOT      BARBU_CALLS_NEGATIVE
#define DOUBLE   BARBU_CALLS_PATIENCE

/* ---------------------------------------------------- the booklet's Set */

/* The players of the booklet, in seat order. */
enum { HERO, BUOY, LIEF, FRINGE };

/* Every cell of the appendix: [Round][player][column]. */
static const int16_t BOOKLET[5][4][BARBU_SHEET_COLS] = {
    {/* Player Round 1, the Hero calls */
     {-20, 0, 0, -50, -10, 120, 0},
     {0, -100, -15, -10, -10, 0, 60},
     {0, 0, -30, -40, -10, 30, 30},
     {-60, 0, -15, 0, -50, 60, 120}},
    {/* Player Round 2, the Buoy calls */
     {0, 0, -15, 0, -10, 120, 120},
     {-20, 0, -15, -80, -10, 60, 60},
     {-60, 0, -30, -10, -60, 30, 30},
     {0, -100, 0, -10, 0, 0, 0}},
    {/* Player Round 3, the Lief calls */
     {0, 0, -15, -60, -20, 30, 120},
     {0, -100, -30, -40, -40, 0, 30},
     {-40, 0, 0, 0, 0, 60, 60},
     {-40, 0, -15, 0, -20, 120, 0}},
    {/* Player Round 4, the Fringe calls */
     {-40, 0, -15, 0, 0, 30, 30},
     {0, 0, 0, -100, -50, 60, 60},
     {-40, 0, 0, 0, -30, 0, 0},
     {0, -100, -45, 0, 0, 120, 120}},
    {/* the Silly Round */
     {-60, -100, -60, -70, -70, 0, 30},
     {-20, 0, 0, -30, -10, 120, 120},
     {0, 0, 0, 0, 0, 60, 0},
     {0, 0, 0, 0, 0, 30, 60}},
};

/* The TOTAL column, the Running Totals printed above Rounds 3, 4 and the
 * Silly Round, and the foot of the sheet. */
static const int ROUND_TOTAL[5][4] = {
    {40, -75, -20, 55}, {215, -5, -100, -110}, {55, -180, 80, 45},
    {5, -30, -70, 95},  {-330, 180, 60, 90},
};
static const int RUNNING_AFTER_2[4] = {255, -80, -120, -55};
static const int RUNNING_AFTER_3[4] = {310, -260, -40, -10};
static const int RUNNING_AFTER_4[4] = {315, -290, -110, 85};
static const int SET_TOTAL[4] = {-15, -110, -50, 175};
static const int SET_POSITION[4] = {2, 4, 3, 1};
static const int OVERALL[4] = {465, -6800, 1305, 5030};
/* Each Call's points in a Round: the five negatives, then 2 x 210. */
static const int CALL_TOTAL[BARBU_SHEET_COLS] = {-80, -100, -60, -100, -80, 210, 210};

static const int16_t ZERO[4][BARBU_SHEET_COLS];

static void enter_booklet(barbu_sheet *sheet, int set)
{
    for (int round = 0; round < 5; round++) {
        int caller = round == BARBU_SILLY_ROUND ? -1 : round;
        assert_int_equal(barbu_sheet_enter(sheet, set, round, caller, BOOKLET[round]), 0);
    }
}

static void test_booklet_set(void **unused)
{
    (void)unused;
    /* What each player brought to this Set: the Overall less the Set. */
    int32_t carry[4];
    for (int seat = 0; seat < 4; seat++)
        carry[seat] = OVERALL[seat] - SET_TOTAL[seat];
    barbu_sheet sheet;
    barbu_sheet_init(&sheet, carry);
    enter_booklet(&sheet, 0);

    assert_int_equal(sheet.n_sets, 1);
    const barbu_sheet_set *set = &sheet.set[0];
    assert_int_equal(set->n_rounds, 5);
    assert_true(set->complete);
    for (int round = 0; round < 5; round++) {
        const barbu_sheet_round *r = &set->round[round];
        assert_true(r->complete);
        assert_int_equal(r->silly, round == BARBU_SILLY_ROUND);
        assert_int_equal(r->caller, round == BARBU_SILLY_ROUND ? -1 : round);
        for (int seat = 0; seat < 4; seat++) {
            assert_int_equal(r->total[seat], ROUND_TOTAL[round][seat]);
            assert_int_equal(r->round_marks[seat], 0);
            for (int col = 0; col < BARBU_SHEET_COLS; col++)
                assert_int_equal(r->marks[seat][col], 0);
        }
        for (int col = 0; col < BARBU_SHEET_COLS; col++) {
            int sum = 0;
            for (int seat = 0; seat < 4; seat++)
                sum += r->points[seat][col];
            assert_int_equal(sum, CALL_TOTAL[col]);
        }
    }
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(set->round[0].running[seat], ROUND_TOTAL[0][seat]);
        assert_int_equal(set->round[1].running[seat], RUNNING_AFTER_2[seat]);
        assert_int_equal(set->round[2].running[seat], RUNNING_AFTER_3[seat]);
        assert_int_equal(set->round[3].running[seat], RUNNING_AFTER_4[seat]);
        assert_int_equal(set->round[4].running[seat], SET_TOTAL[seat]);
        assert_int_equal(set->total[seat], SET_TOTAL[seat]);
        assert_int_equal(set->position[seat], SET_POSITION[seat]);
        assert_int_equal(set->overall[seat], OVERALL[seat]);
    }

    /* The next Set runs on from the Overall Running Scores. */
    assert_int_equal(barbu_sheet_enter(&sheet, 1, 0, HERO, BOOKLET[0]), 0);
    assert_int_equal(sheet.n_sets, 2);
    assert_false(sheet.set[1].complete);
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(sheet.set[1].overall[seat], OVERALL[seat] + ROUND_TOTAL[0][seat]);
}

/* ------------------------------------------------------- composed deals */

/* A game being scored: the sheet, and where its next deal goes. */
typedef struct game {
    barbu_rules rules;
    barbu_sheet sheet;
    int set, round, deal, caller;
    unsigned calls; /* the Calls of the Round played so far */
} game;

static void new_game(game *g)
{
    memset(g, 0, sizeof *g);
    preset(&g->rules, "fife");
    barbu_sheet_init(&g->sheet, NULL);
}

static void next_round(game *g, int set, int round, int caller)
{
    g->set = set;
    g->round = round;
    g->caller = caller;
    g->deal = 0;
    g->calls = 0;
}

/* The next deal of the Round, before its play. */
static barbu_result deal_of(const game *g, unsigned contracts)
{
    barbu_result res;
    memset(&res, 0, sizeof res);
    res.set = (uint8_t)g->set;
    res.round = (uint8_t)g->round;
    res.round_deal = (uint8_t)g->deal;
    res.calls_before = (uint8_t)g->calls;
    res.contracts = (uint16_t)contracts;
    res.declarer = (uint8_t)(g->caller >= 0 ? g->caller : 0);
    res.piranha = -1;
    for (int i = 0; i < 4; i++)
        res.order[i] = (uint8_t)i;
    return res;
}

/* The points of each Call of the deal by the fife tables, from the cards
 * taken or the order out. */
static void score(const game *g, barbu_result *res)
{
    for (int call = 0; call < BARBU_CALLS; call++) {
        if (!(res->contracts & BIT(call)))
            continue;
        const barbu_contract *k = &g->rules.contract[call];
        for (int seat = 0; seat < 4; seat++) {
            int points = k->kind == BARBU_KIND_PATIENCE ? 0 : k->per_trick * res->tricks[seat];
            for (int card = 0; card < 64; card++)
                if (res->taken[seat] & BARBU_BIT(card))
                    points += k->card[card];
            res->part[call][seat] = (int16_t)points;
        }
        if (k->kind == BARBU_KIND_PATIENCE)
            for (int place = 0; place < 4; place++)
                res->part[call][res->order[place]] = k->place[place];
        for (int seat = 0; seat < 4; seat++)
            res->raw[seat] = (int16_t)(res->raw[seat] + res->part[call][seat]);
    }
}

static barbu_cards pack_32(void)
{
    barbu_cards deck = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 7; rank <= BARBU_ACE; rank++)
            deck |= BARBU_BIT(BARBU_CARD(suit, rank));
    return deck;
}

/*
 * A deal of negative Calls: each seat takes the cards named for it and its
 * tricks, four cards each, filled with the lowest cards nobody was named
 * (so a test names every card that matters to it).
 */
static barbu_result trick_deal(const game *g, unsigned contracts, const char *const named[4],
                               const int tricks[4])
{
    barbu_result res = deal_of(g, contracts);
    barbu_cards rest = pack_32();
    int all_tricks = 0;
    for (int seat = 0; seat < 4; seat++) {
        res.taken[seat] = cards_of(named[seat]);
        assert_int_equal(rest & res.taken[seat], res.taken[seat]);
        rest &= ~res.taken[seat];
    }
    for (int seat = 0; seat < 4; seat++) {
        int fill = 4 * tricks[seat] - barbu_count(res.taken[seat]);
        assert_true(fill >= 0);
        for (; fill > 0; fill--) {
            barbu_cards lowest = rest & (0 - rest);
            res.taken[seat] |= lowest;
            rest &= ~lowest;
        }
        res.tricks[seat] = (uint8_t)tricks[seat];
        all_tricks += tricks[seat];
    }
    assert_int_equal(all_tricks, 8);
    assert_int_equal(rest, 0);
    score(g, &res);
    return res;
}

/* A Patience deal (Single or Double) and its order out. */
static barbu_result patience_deal(const game *g, unsigned pats, int first, int second, int third,
                                  int last)
{
    barbu_result res = deal_of(g, pats);
    const int order[4] = {first, second, third, last};
    for (int i = 0; i < 4; i++)
        res.order[i] = (uint8_t)order[i];
    score(g, &res);
    return res;
}

/* Adds the deal, which must be accepted, and returns its Round. */
static const barbu_sheet_round *add(game *g, const barbu_result *res)
{
    assert_int_equal(barbu_sheet_add(&g->sheet, &g->rules, res), 0);
    g->deal++;
    g->calls |= res->contracts;
    return &g->sheet.set[g->set].round[g->round];
}

/*
 * A deal that draws no mark on the Caller and no mark but Wee Harry on
 * anyone: every seat two tricks, one Ace and one Queen; the seat after the
 * Caller takes El Kingko and Wee Harry (40 of the 100 of Hearts), nobody
 * half of anything else.  At Patience the Caller comes second.
 */
static const barbu_sheet_round *quiet(game *g, unsigned contracts)
{
    int after = (g->caller + 1) & 3; /* seat 0 in the Silly Round */
    if (!(contracts & BARBU_CALLS_NEGATIVE)) {
        barbu_result res =
            patience_deal(g, contracts, (after + 1) & 3, (after + 3) & 3, after, (after + 2) & 3);
        return add(g, &res);
    }
    static const char *const spread[4] = {
        "AC QC KH JH 7C 8C 9C 10C",
        "AD QD 10H 9H 7D 8D 9D 10D",
        "AH QH 8H 7H JC KC JD KD",
        "AS QS 7S 8S 9S 10S JS KS",
    };
    const char *named[4];
    for (int k = 0; k < 4; k++)
        named[(after + k) & 3] = spread[k];
    barbu_result res = trick_deal(g, contracts, named, (const int[4]){2, 2, 2, 2});
    return add(g, &res);
}

/* Plays the rest of the Round quietly: its negative Calls together, then
 * its Patiences together. */
static void finish(game *g)
{
    unsigned rest = BARBU_CALLS_ALL & ~g->calls;
    if (rest & BARBU_CALLS_NEGATIVE)
        quiet(g, rest & BARBU_CALLS_NEGATIVE);
    if (rest & BARBU_CALLS_PATIENCE)
        quiet(g, rest & BARBU_CALLS_PATIENCE);
    assert_true(g->sheet.set[g->set].round[g->round].complete);
}

/* Marked cells among some columns of a Round. */
static int marked_cells(const barbu_sheet_round *r, unsigned cols)
{
    int n = 0;
    for (int seat = 0; seat < 4; seat++)
        for (int col = 0; col < BARBU_SHEET_COLS; col++)
            n += (cols & BIT(col)) && r->marks[seat][col];
    return n;
}

#define NAMED(n, e, s, w)  ((const char *const[4]){n, e, s, w})
#define TRICKS(n, e, s, w) ((const int[4]){n, e, s, w})
#define ALL_COLS           BARBU_CALLS_ALL

/* ----------------------------------------------------------------- marks */

/* Eggs: a Non-Caller takes every card of a Call; not El Kingko alone. */
static void test_egg(void **unused)
{
    (void)unused;
    game g;
    new_game(&g);
    next_round(&g, 0, 0, N);
    barbu_result res =
        trick_deal(&g, BIT(AC), NAMED("", "AC AD AH AS", "", ""), TRICKS(2, 2, 2, 2));
    const barbu_sheet_round *r = add(&g, &res);
    assert_int_equal(r->points[E][AC], -80);
    assert_int_equal(r->marks[E][AC], BARBU_MARK_EGG);
    assert_int_equal(marked_cells(r, ALL_COLS), 1);

    /* The King of Hearts is one card: taking it is no Egg. */
    res = trick_deal(&g, BIT(KH), NAMED("", "KH", "", ""), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(r->points[E][KH], -100);
    assert_int_equal(r->marks[E][KH], 0);

    /* All eight Hearts (Wee Harry among them), and all eight Tricks. */
    res =
        trick_deal(&g, BIT(HE), NAMED("", "", "", "7H 8H 9H 10H JH QH KH AH"), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(r->points[W][HE], -100);
    assert_int_equal(r->marks[W][HE], BARBU_MARK_EGG | BARBU_MARK_WEE_HARRY);
    res = trick_deal(&g, BIT(TR), NAMED("", "", "", ""), TRICKS(0, 0, 8, 0));
    r = add(&g, &res);
    assert_int_equal(r->points[S][TR], -80);
    assert_int_equal(r->marks[S][TR], BARBU_MARK_EGG);
    assert_int_equal(marked_cells(r, ALL_COLS), 3);

    /* Three Aces of four: no Egg. */
    new_game(&g);
    next_round(&g, 0, 0, N);
    res = trick_deal(&g, BIT(AC), NAMED("", "AC AD AH", "AS", ""), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(r->points[E][AC], -60);
    assert_int_equal(marked_cells(r, ALL_COLS), 0);
}

/* Spiders: the Caller takes every card of a Call, El Kingko included. */
static void test_spider(void **unused)
{
    (void)unused;
    game g;
    new_game(&g);
    next_round(&g, 0, 0, N);
    quiet(&g, BIT(AC));
    quiet(&g, BIT(HE));
    quiet(&g, BIT(TR));
    barbu_result res =
        trick_deal(&g, BIT(QU), NAMED("QC QD QH QS", "", "", ""), TRICKS(2, 2, 2, 2));
    const barbu_sheet_round *r = add(&g, &res);
    assert_int_equal(r->points[N][QU], -60);
    assert_int_equal(r->marks[N][QU], BARBU_MARK_SPIDER);
    res = trick_deal(&g, BIT(KH), NAMED("KH", "", "", ""), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(r->marks[N][KH], BARBU_MARK_SPIDER);
    assert_int_equal(marked_cells(r, BIT(AC) | BIT(KH) | BIT(QU) | BIT(TR)), 2);
    r = quiet(&g, DOUBLE);
    assert_true(r->complete);

    /* Three Queens of four: nothing. */
    next_round(&g, 0, 1, E);
    quiet(&g, BIT(AC));
    quiet(&g, BIT(KH));
    quiet(&g, BIT(HE));
    res = trick_deal(&g, BIT(QU), NAMED("", "QC QD QH", "", "QS"), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(r->points[E][QU], -45);
    assert_int_equal(marked_cells(r, BIT(QU)), 0);
}

/* Wee Harry for anyone who takes the Jack of Hearts; a Dangly Spider when
 * it is the Caller (the booklet's "SC-80 H" of the Buoy in Round 2). */
static void test_wee_harry(void **unused)
{
    (void)unused;
    game g;
    new_game(&g);
    next_round(&g, 0, 0, N);
    quiet(&g, BIT(AC));
    quiet(&g, BIT(KH));
    quiet(&g, BIT(QU));
    barbu_result res =
        trick_deal(&g, BIT(HE), NAMED("8H 9H", "JH 7H", "10H QH", "KH AH"), TRICKS(2, 2, 2, 2));
    const barbu_sheet_round *r = add(&g, &res);
    assert_int_equal(r->points[E][HE], -40);
    assert_int_equal(r->marks[E][HE], BARBU_MARK_WEE_HARRY);
    assert_int_equal(marked_cells(r, BIT(HE)), 1);
    quiet(&g, BIT(TR));
    quiet(&g, DOUBLE);

    next_round(&g, 0, 1, E);
    quiet(&g, BIT(TR));
    res = trick_deal(&g, BIT(HE), NAMED("", "JH AH KH QH 10H 9H", "", "7H 8H"), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(r->points[E][HE], -80);
    assert_int_equal(r->marks[E][HE], BARBU_MARK_WEE_HARRY | BARBU_MARK_DANGLY | BARBU_MARK_SC);
    assert_int_equal(marked_cells(r, BIT(HE)), 1);
}

/* Rumping Ripple: half or more of three negative Calls of one deal. */
static void test_ripple(void **unused)
{
    (void)unused;
    game g;
    new_game(&g);
    next_round(&g, 0, 0, N);
    /* East: half the Aces, half the Queens, four Tricks and 40 of Hearts;
     * West: half the Aces and half the Queens only. */
    barbu_result res =
        trick_deal(&g, LOT, NAMED("", "AC AD QC QD", "KH JH", "AH AS QH QS"), TRICKS(1, 4, 1, 2));
    const barbu_sheet_round *r = add(&g, &res);
    assert_int_equal(r->points[E][AC], -40);
    assert_int_equal(r->points[E][QU], -30);
    assert_int_equal(r->points[E][HE], -40);
    assert_int_equal(r->points[E][TR], -40);
    assert_int_equal(r->marks[E][AC], BARBU_MARK_RIPPLE);
    assert_int_equal(r->marks[E][QU], BARBU_MARK_RIPPLE);
    assert_int_equal(r->marks[E][TR], BARBU_MARK_RIPPLE);
    assert_int_equal(r->marks[E][HE], 0);
    assert_int_equal(r->points[W][AC], -40);
    assert_int_equal(r->points[W][QU], -30);
    for (int col = 0; col < BARBU_SHEET_COLS; col++)
        assert_int_equal(r->marks[W][col], 0);
    assert_int_equal(r->marks[S][HE], BARBU_MARK_WEE_HARRY);
    assert_int_equal(marked_cells(r, ALL_COLS), 4);

    /* Half of both Calls of a Double is no Ripple. */
    new_game(&g);
    next_round(&g, 0, 0, N);
    res = trick_deal(&g, BIT(AC) | BIT(QU), NAMED("", "", "", "AC AD QC QD"), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(marked_cells(r, ALL_COLS), 0);
}

/* First, Second and Third Choice: the Caller's first three deals. */
static void test_choices(void **unused)
{
    (void)unused;
    game g;
    new_game(&g);
    next_round(&g, 0, 0, N);
    barbu_result res = trick_deal(&g, BIT(AC), NAMED("AC AD", "AH", "AS", ""), TRICKS(2, 2, 2, 2));
    const barbu_sheet_round *r = add(&g, &res);
    assert_int_equal(r->marks[N][AC], BARBU_MARK_FC);
    res = trick_deal(&g, BIT(QU), NAMED("QC QD", "QH QS", "", ""), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(r->marks[N][QU], BARBU_MARK_SC);
    res = trick_deal(&g, BIT(HE), NAMED("AH KH QH 10H 9H", "JH", "8H 7H", ""), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(r->points[N][HE], -50);
    assert_int_equal(r->marks[N][HE], BARBU_MARK_TC);
    assert_int_equal(r->marks[E][HE], BARBU_MARK_WEE_HARRY);
    /* Half the Tricks on the fourth deal: no Choice. */
    res = trick_deal(&g, BIT(TR), NAMED("", "", "", ""), TRICKS(4, 2, 1, 1));
    r = add(&g, &res);
    assert_int_equal(r->points[N][TR], -40);
    assert_int_equal(r->marks[N][TR], 0);
    /* El Kingko on the fifth deal: a Spider and no Choice. */
    res = trick_deal(&g, BIT(KH), NAMED("KH", "", "", ""), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(r->marks[N][KH], BARBU_MARK_SPIDER);
    assert_int_equal(marked_cells(r, ALL_COLS), 5);
    finish(&g);

    /* A Double first: only the Call the Caller took half of (the
     * booklet's "TC -45" of Queens); then less than half on the second. */
    next_round(&g, 0, 1, E);
    res = trick_deal(&g, BIT(AC) | BIT(QU), NAMED("", "AC QC QD QH", "", "AD AH AS QS"),
                     TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(r->points[E][AC], -20);
    assert_int_equal(r->points[E][QU], -45);
    assert_int_equal(r->marks[E][QU], BARBU_MARK_FC);
    assert_int_equal(marked_cells(r, ALL_COLS), 1);
    res = trick_deal(&g, BIT(HE), NAMED("JH AH", "10H 9H 8H 7H", "KH QH", ""), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(r->points[E][HE], -40);
    assert_int_equal(r->marks[E][HE], 0);
    assert_int_equal(r->marks[N][HE], BARBU_MARK_WEE_HARRY);
}

/* Piranha: El Kingko in a trick won by an 8. */
static void test_piranha(void **unused)
{
    (void)unused;
    game g;
    new_game(&g);
    next_round(&g, 0, 0, N);
    barbu_result res = trick_deal(&g, BIT(KH), NAMED("", "", "KH", ""), TRICKS(2, 2, 2, 2));
    res.piranha = S;
    const barbu_sheet_round *r = add(&g, &res);
    assert_int_equal(r->marks[S][KH], BARBU_MARK_PIRANHA);
    assert_int_equal(marked_cells(r, ALL_COLS), 1);
    /* A fish only at the King of Hearts. */
    res = trick_deal(&g, BIT(AC), NAMED("", "", "AC", ""), TRICKS(2, 2, 2, 2));
    res.piranha = S;
    r = add(&g, &res);
    assert_int_equal(marked_cells(r, ALL_COLS), 1);
    finish(&g);

    /* The ultimate humiliation: the Caller's own King on an 8. */
    next_round(&g, 0, 1, E);
    res = trick_deal(&g, BIT(KH), NAMED("", "KH", "", ""), TRICKS(2, 2, 2, 2));
    res.piranha = E;
    r = add(&g, &res);
    assert_int_equal(r->marks[E][KH], BARBU_MARK_SPIDER | BARBU_MARK_PIRANHA | BARBU_MARK_FC);
    finish(&g);

    /* Taken by anything but an 8: no fish. */
    next_round(&g, 0, 2, S);
    res = trick_deal(&g, BIT(KH), NAMED("", "", "", "KH"), TRICKS(2, 2, 2, 2));
    r = add(&g, &res);
    assert_int_equal(marked_cells(r, ALL_COLS), 0);
}

/* Bananas, Tomatoes, Constipatience and the Fruit Bowl. */
static void test_patience_marks(void **unused)
{
    (void)unused;
    game g;
    new_game(&g);
    /* North calls a Single Patience with the Double open, and wins it; then
     * comes last in the Patience it is left with. */
    next_round(&g, 0, 0, N);
    barbu_result res = patience_deal(&g, BIT(P1), N, E, S, W);
    const barbu_sheet_round *r = add(&g, &res);
    assert_int_equal(r->points[N][P1], 120);
    assert_int_equal(r->marks[N][P1], BARBU_MARK_BANANA);
    quiet(&g, LOT);
    res = patience_deal(&g, BIT(P2), S, E, W, N);
    r = add(&g, &res);
    assert_int_equal(r->marks[N][P2], BARBU_MARK_CONSTIPATIENCE | BARBU_MARK_CHERRY);
    assert_int_equal(marked_cells(r, DOUBLE), 2);
    assert_true(r->complete);
    assert_int_equal(r->round_marks[N], BARBU_ROUND_FRUIT_BOWL);

    /* East loses a Double by choice: Beef Tomatoes, no Fruit Bowl. */
    next_round(&g, 0, 1, E);
    quiet(&g, LOT & ~BIT(TR));
    res = patience_deal(&g, DOUBLE, N, S, W, E);
    r = add(&g, &res);
    assert_int_equal(r->marks[E][P1], BARBU_MARK_BEEF);
    assert_int_equal(r->marks[E][P2], BARBU_MARK_BEEF);
    assert_int_equal(marked_cells(r, DOUBLE), 2);
    r = quiet(&g, BIT(TR));
    assert_int_equal(r->round_marks[E] & BARBU_ROUND_FRUIT_BOWL, 0);

    /* South: second in a Single (no Banana), then first in the last
     * Patience, which is a Constipatience and no Banana. */
    next_round(&g, 0, 2, S);
    res = patience_deal(&g, BIT(P1), N, S, E, W);
    r = add(&g, &res);
    assert_int_equal(marked_cells(r, DOUBLE), 0);
    quiet(&g, LOT);
    res = patience_deal(&g, BIT(P2), S, N, E, W);
    r = add(&g, &res);
    assert_int_equal(r->marks[S][P2], BARBU_MARK_CONSTIPATIENCE);
    assert_int_equal(marked_cells(r, DOUBLE), 1);

    /* West wins a Double: nothing missed. */
    next_round(&g, 0, 3, W);
    res = patience_deal(&g, DOUBLE, W, N, E, S);
    r = add(&g, &res);
    assert_int_equal(marked_cells(r, ALL_COLS), 0);
}

/* The Round marks: Virgin Round and Full Participation. */
static void test_round_marks(void **unused)
{
    (void)unused;
    game g;
    new_game(&g);
    next_round(&g, 0, 0, S);
    /* West takes no trick; North scores in every negative Call. */
    const char *const *named = NAMED("AC KH QC JH", "AD AH AS QD QH QS", "", "");
    barbu_result res = trick_deal(&g, LOT, named, TRICKS(3, 3, 2, 0));
    const barbu_sheet_round *r = add(&g, &res);
    assert_false(r->complete);
    assert_int_equal(r->round_marks[W], 0);
    res = patience_deal(&g, DOUBLE, W, N, S, E);
    r = add(&g, &res);
    assert_true(r->complete);
    assert_int_equal(r->total[W], 240);
    assert_int_equal(r->round_marks[W], BARBU_ROUND_VIRGIN);
    assert_int_equal(r->round_marks[N], BARBU_ROUND_FULL);
    assert_int_equal(r->round_marks[S], 0); /* no Aces */
    assert_int_equal(r->round_marks[E], 0); /* last in the Patiences */

    /* First in one Patience only. */
    next_round(&g, 0, 1, N);
    res = trick_deal(&g, LOT, named, TRICKS(3, 3, 2, 0));
    add(&g, &res);
    res = patience_deal(&g, BIT(P1), W, N, S, E);
    add(&g, &res);
    res = patience_deal(&g, BIT(P2), N, W, S, E);
    r = add(&g, &res);
    assert_true(r->complete);
    assert_int_equal(r->round_marks[W], 0);
    assert_int_equal(r->round_marks[N], BARBU_ROUND_FULL);

    /* First in both, but one trick taken. */
    next_round(&g, 0, 2, E);
    res = trick_deal(&g, LOT, named, TRICKS(3, 3, 1, 1));
    add(&g, &res);
    res = patience_deal(&g, DOUBLE, W, N, S, E);
    r = add(&g, &res);
    assert_int_equal(r->points[W][TR], -10);
    assert_int_equal(r->round_marks[W], 0);
}

/* The Silly Round has no Caller: everyone's Egg, nobody's Spider, no
 * Choices and no Patience marks. */
static void test_silly_round(void **unused)
{
    (void)unused;
    game g;
    new_game(&g);
    for (int round = 0; round < 4; round++)
        assert_int_equal(barbu_sheet_enter(&g.sheet, 0, round, round, ZERO), 0);
    next_round(&g, 0, BARBU_SILLY_ROUND, -1);
    barbu_result res =
        trick_deal(&g, BIT(AC), NAMED("AC AD AH AS", "", "", ""), TRICKS(2, 2, 2, 2));
    res.declarer = N; /* whoever declared, it is no Caller */
    const barbu_sheet_round *r = add(&g, &res);
    assert_true(r->silly);
    assert_int_equal(r->caller, -1);
    assert_int_equal(r->marks[N][AC], BARBU_MARK_EGG);
    /* A Single with the Double open, won by the seat that declared it. */
    res = patience_deal(&g, BIT(P1), N, E, S, W);
    res.declarer = N;
    r = add(&g, &res);
    res = trick_deal(&g, BIT(KH), NAMED("KH", "", "", ""), TRICKS(2, 2, 2, 2));
    res.declarer = N;
    r = add(&g, &res);
    quiet(&g, LOT & ~(BIT(AC) | BIT(KH)));
    /* The last Patience, lost by the seat that declared it. */
    res = patience_deal(&g, BIT(P2), E, S, W, N);
    res.declarer = N;
    r = add(&g, &res);
    assert_true(r->complete);
    assert_int_equal(marked_cells(r, ALL_COLS & ~BIT(HE)), 1);
    assert_int_equal(r->marks[N][HE], BARBU_MARK_WEE_HARRY);
    /* Aces, King, Queens, Hearts, Tricks, Patience 1 and 2. */
    const int total[4] = {-80 - 100 - 15 - 40 - 20 + 120, -15 - 20 - 20 + 60 + 120,
                          -15 - 40 - 20 + 30 + 60, -15 - 20 + 30};
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(r->total[seat], total[seat]);
    assert_true(g.sheet.set[0].complete);
}

/* ---------------------------------------------------------------- totals */

/* Totals, running totals and positions while a Round is under way. */
static void test_partial_set(void **unused)
{
    (void)unused;
    game g;
    new_game(&g);
    const int32_t carry[4] = {100, 0, -50, 0};
    barbu_sheet_init(&g.sheet, carry);
    assert_int_equal(barbu_sheet_enter(&g.sheet, 0, 0, N, BOOKLET[0]), 0);
    const barbu_sheet_set *set = &g.sheet.set[0];
    assert_false(set->complete);
    assert_int_equal(set->position[N], 2);
    assert_int_equal(set->position[E], 4);
    assert_int_equal(set->position[S], 3);
    assert_int_equal(set->position[W], 1);

    /* A Double of Aces and Queens leaves North and West tied at 20. */
    next_round(&g, 0, 1, E);
    barbu_result res = trick_deal(&g, BIT(AC) | BIT(QU), NAMED("AC", "AH QD", "AS QH QS", "AD QC"),
                                  TRICKS(2, 2, 2, 2));
    const barbu_sheet_round *r = add(&g, &res);
    assert_false(r->complete);
    assert_int_equal(set->n_rounds, 2);
    assert_int_equal(r->deals, 1);
    assert_int_equal(r->played, BIT(AC) | BIT(QU));
    assert_int_equal(r->call_deal[AC], 1);
    assert_int_equal(r->call_deal[QU], 1);
    assert_int_equal(r->call_deal[KH], 0);
    const int total[4] = {-20, -35, -50, -35};
    const int running[4] = {20, -110, -70, 20};
    const int position[4] = {1, 4, 3, 1};
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(r->total[seat], total[seat]);
        assert_int_equal(r->running[seat], running[seat]);
        assert_int_equal(set->total[seat], running[seat]);
        assert_int_equal(set->position[seat], position[seat]);
        assert_int_equal(set->overall[seat], carry[seat] + running[seat]);
    }

    /* Ties further down, and everyone tied. */
    barbu_sheet sheet;
    int16_t points[4][BARBU_SHEET_COLS] = {{0}};
    points[N][P1] = 50;
    points[W][AC] = -50;
    barbu_sheet_init(&sheet, NULL);
    assert_int_equal(barbu_sheet_enter(&sheet, 0, 0, N, points), 0);
    assert_int_equal(sheet.set[0].position[N], 1);
    assert_int_equal(sheet.set[0].position[E], 2);
    assert_int_equal(sheet.set[0].position[S], 2);
    assert_int_equal(sheet.set[0].position[W], 4);
    barbu_sheet_init(&sheet, NULL);
    assert_int_equal(barbu_sheet_enter(&sheet, 0, 0, N, ZERO), 0);
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(sheet.set[0].position[seat], 1);
}

/* Results out of order change nothing. */
static void test_order(void **unused)
{
    (void)unused;
    game g;
    new_game(&g);
    barbu_sheet before;
    next_round(&g, 0, 0, N);
    barbu_result res = patience_deal(&g, BIT(P1), N, E, S, W);

    barbu_rules uk;
    preset(&uk, "uk");
    assert_int_equal(barbu_sheet_add(&g.sheet, &uk, &res), BARBU_EINVAL);
    barbu_result bad = res;
    bad.round = 1;
    assert_int_equal(barbu_sheet_add(&g.sheet, &g.rules, &bad), BARBU_EINVAL);
    bad = res;
    bad.round_deal = 1;
    assert_int_equal(barbu_sheet_add(&g.sheet, &g.rules, &bad), BARBU_EINVAL);
    bad = res;
    bad.contracts = 0x80;
    assert_int_equal(barbu_sheet_add(&g.sheet, &g.rules, &bad), BARBU_EINVAL);
    assert_int_equal(g.sheet.n_sets, 0);
    add(&g, &res);

    before = g.sheet;
    bad = patience_deal(&g, BIT(P1), N, E, S, W); /* played already */
    bad.calls_before = 0;
    assert_int_equal(barbu_sheet_add(&g.sheet, &g.rules, &bad), BARBU_EINVAL);
    bad.calls_before = BIT(P1);
    assert_int_equal(barbu_sheet_add(&g.sheet, &g.rules, &bad), BARBU_EINVAL);
    bad = patience_deal(&g, BIT(P2), N, E, S, W);
    bad.declarer = E; /* not the Round's Caller */
    assert_int_equal(barbu_sheet_add(&g.sheet, &g.rules, &bad), BARBU_EINVAL);
    bad.declarer = N;
    bad.round = 1; /* the Round is not over */
    assert_int_equal(barbu_sheet_add(&g.sheet, &g.rules, &bad), BARBU_EINVAL);
    assert_int_equal(barbu_sheet_enter(&g.sheet, 0, 1, E, ZERO), BARBU_EINVAL);
    assert_int_equal(barbu_sheet_enter(&g.sheet, 0, 0, N, ZERO), BARBU_EINVAL);
    assert_memory_equal(&before, &g.sheet, sizeof before);

    /* Callers: none in the Silly Round, one in a Player Round. */
    barbu_sheet sheet;
    barbu_sheet_init(&sheet, NULL);
    assert_int_equal(barbu_sheet_enter(&sheet, 0, 0, -1, ZERO), BARBU_EINVAL);
    for (int round = 0; round < 4; round++)
        assert_int_equal(barbu_sheet_enter(&sheet, 0, round, round, ZERO), 0);
    assert_int_equal(barbu_sheet_enter(&sheet, 0, 4, N, ZERO), BARBU_EINVAL);
    assert_int_equal(barbu_sheet_enter(&sheet, 1, 0, N, ZERO), BARBU_EINVAL);

    /* The sheet holds BARBU_MAX_SETS Sets. */
    barbu_sheet_init(&sheet, NULL);
    for (int set = 0; set < BARBU_MAX_SETS; set++)
        enter_booklet(&sheet, set);
    assert_int_equal(sheet.n_sets, BARBU_MAX_SETS);
    assert_int_equal(sheet.set[BARBU_MAX_SETS - 1].overall[FRINGE], BARBU_MAX_SETS * 175);
    before = sheet;
    assert_int_equal(barbu_sheet_enter(&sheet, BARBU_MAX_SETS, 0, N, ZERO), BARBU_ELIMIT);
    assert_int_equal(barbu_sheet_enter(&sheet, BARBU_MAX_SETS + 1, 0, N, ZERO), BARBU_EINVAL);
    res.set = BARBU_MAX_SETS;
    assert_int_equal(barbu_sheet_add(&sheet, &g.rules, &res), BARBU_ELIMIT);
    assert_memory_equal(&before, &sheet, sizeof before);
}

static void test_names(void **unused)
{
    (void)unused;
    static const struct {
        unsigned mark;
        const char *name;
    } MARKS[] = {
        {BARBU_MARK_EGG, "Egg"},
        {BARBU_MARK_SPIDER, "Spider"},
        {BARBU_MARK_WEE_HARRY, "Wee Harry"},
        {BARBU_MARK_DANGLY, "Dangly Spider"},
        {BARBU_MARK_RIPPLE, "Rumping Ripple"},
        {BARBU_MARK_FC, "First Choice"},
        {BARBU_MARK_SC, "Second Choice"},
        {BARBU_MARK_TC, "Third Choice"},
        {BARBU_MARK_PIRANHA, "Piranha"},
        {BARBU_MARK_BANANA, "Banana"},
        {BARBU_MARK_BEEF, "Beef Tomato"},
        {BARBU_MARK_CHERRY, "Cherry Tomato"},
        {BARBU_MARK_CONSTIPATIENCE, "Constipatience"},
    };
    for (size_t i = 0; i < sizeof MARKS / sizeof MARKS[0]; i++)
        assert_string_equal(barbu_mark_name(MARKS[i].mark), MARKS[i].name);
    assert_string_equal(barbu_mark_name(0), "");
    assert_string_equal(barbu_mark_name(BARBU_MARK_TOMATO), "");
    assert_string_equal(barbu_mark_name(1u << 13), "");
    assert_string_equal(barbu_round_mark_name(BARBU_ROUND_FRUIT_BOWL), "Fruit Bowl");
    assert_string_equal(barbu_round_mark_name(BARBU_ROUND_VIRGIN), "Virgin Round");
    assert_string_equal(barbu_round_mark_name(BARBU_ROUND_FULL), "Full Participation");
    assert_string_equal(barbu_round_mark_name(8), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_booklet_set), cmocka_unit_test(test_egg),
        cmocka_unit_test(test_spider),      cmocka_unit_test(test_wee_harry),
        cmocka_unit_test(test_ripple),      cmocka_unit_test(test_choices),
        cmocka_unit_test(test_piranha),     cmocka_unit_test(test_patience_marks),
        cmocka_unit_test(test_round_marks), cmocka_unit_test(test_silly_round),
        cmocka_unit_test(test_partial_set), cmocka_unit_test(test_order),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
