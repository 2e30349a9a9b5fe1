/*
 * test_poker.c - Chinese Poker: row values and their order, the words for a
 * hand, arrangement checks and the comparison of two players' rows.
 */
#include "helpers.h"

#include <stdio.h>

static uint32_t value_of(const char *text)
{
    return barbu_poker_value(cards_of(text));
}

static int category_of(const char *text)
{
    return (int)(value_of(text) >> 20);
}

/* n cards drawn at random from `from`. */
static barbu_cards random_cards(barbu_rng *rng, barbu_cards from, int n)
{
    barbu_cards set = 0;
    for (int i = 0; i < n; i++) {
        barbu_cards left = from & ~set;
        set |= BARBU_BIT(barbu_nth_card(left, barbu_rng_below(rng, (uint32_t)barbu_count(left))));
    }
    return set;
}

/*
 * An independent evaluator, slow and plain: count the ranks and suits, sort
 * the groups of equal rank by size then rank, and read the category from the
 * sizes.  The tie-break ranks are the groups in that order.
 */
static uint32_t slow_value(barbu_cards cards)
{
    int n = barbu_count(cards);
    if ((n != 3 && n != 5) || (cards & ~BARBU_ALL_CARDS))
        return 0;
    int count[15] = {0}, suits[4] = {0};
    for (int card = 0; card < 64; card++) {
        if (cards & BARBU_BIT(card)) {
            count[BARBU_RANK(card)]++;
            suits[BARBU_SUIT(card)]++;
        }
    }
    int rank[5], size[5], groups = 0;
    for (int want = 4; want >= 1; want--) {
        for (int r = BARBU_ACE; r >= 2; r--) {
            if (count[r] == want) {
                rank[groups] = r;
                size[groups++] = want;
            }
        }
    }
    bool flush = false;
    for (int s = 0; s < 4; s++)
        flush |= suits[s] == 5;
    int top = 0;
    if (n == 5 && groups == 5) {
        if (rank[0] - rank[4] == 4)
            top = rank[0];
        else if (rank[0] == BARBU_ACE && rank[1] == 5)
            top = 5;
    }

    int cat;
    if (top && flush)
        cat = BARBU_POKER_STRAIGHT_FLUSH;
    else if (size[0] == 4)
        cat = BARBU_POKER_QUADS;
    else if (size[0] == 3 && groups == 2 && n == 5)
        cat = BARBU_POKER_FULL_HOUSE;
    else if (flush)
        cat = BARBU_POKER_FLUSH;
    else if (top)
        cat = BARBU_POKER_STRAIGHT;
    else if (size[0] == 3)
        cat = BARBU_POKER_TRIPS;
    else if (size[0] == 2 && size[1] == 2)
        cat = BARBU_POKER_TWO_PAIR;
    else if (size[0] == 2)
        cat = BARBU_POKER_PAIR;
    else
        cat = BARBU_POKER_HIGH_CARD;

    uint32_t v = (uint32_t)cat << 20;
    if (top)
        return v | (uint32_t)top << 16;
    for (int i = 0; i < groups; i++)
        v |= (uint32_t)rank[i] << (16 - 4 * i);
    return v;
}

static void test_categories(void **state)
{
    (void)state;
    assert_int_equal(category_of("AS JH 8D 5C 3S"), BARBU_POKER_HIGH_CARD);
    assert_int_equal(category_of("9S 9H KD 5C 3S"), BARBU_POKER_PAIR);
    assert_int_equal(category_of("9S 9H 4D 4C AS"), BARBU_POKER_TWO_PAIR);
    assert_int_equal(category_of("7S 7H 7D 4C AS"), BARBU_POKER_TRIPS);
    assert_int_equal(category_of("5S 6H 7D 8C 9S"), BARBU_POKER_STRAIGHT);
    assert_int_equal(category_of("2H 6H 9H JH KH"), BARBU_POKER_FLUSH);
    assert_int_equal(category_of("QS QH QD 4C 4S"), BARBU_POKER_FULL_HOUSE);
    assert_int_equal(category_of("JS JH JD JC 2S"), BARBU_POKER_QUADS);
    assert_int_equal(category_of("9D TD JD QD KD"), BARBU_POKER_STRAIGHT_FLUSH);
    assert_int_equal(category_of("TC JC QC KC AC"), BARBU_POKER_STRAIGHT_FLUSH);

    /* Each category beats the one before, whatever the ranks. */
    static const char *const ladder[] = {
        "AS KH QD JC 9S", /* best high card */
        "2S 2H 3D 4C 5D", /* worst pair */
        "AS AH KD KC QD", /* best pair would be below this two pair */
        "2S 2H 2D 3C 4D", /* worst trips */
        "AS 2H 3D 4C 5D", /* the wheel, the worst straight */
        "TS JH QD KC AD", /* the best straight */
        "2H 3H 4H 5H 7H", /* the worst flush */
        "AH KH QH JH 9H", /* the best flush */
        "2S 2H 2D 3C 3D", /* the worst full house */
        "AS AH AD KC KD", /* the best full house */
        "2S 2H 2D 2C 3D", /* the worst quads */
        "AS AH AD AC KD", /* the best quads */
        "AS 2S 3S 4S 5S", /* the worst straight flush */
        "TS JS QS KS AS", /* the royal flush */
    };
    for (size_t i = 1; i < sizeof ladder / sizeof ladder[0]; i++)
        assert_true(value_of(ladder[i - 1]) < value_of(ladder[i]));
    assert_true(value_of("AS AH KD QC JD") < value_of("2S 2H 3D 3C 4D"));
}

static void test_exact_values(void **state)
{
    (void)state;
    assert_int_equal(value_of("AS JH 8D 5C 3S"), 0x0EB853);
    assert_int_equal(value_of("9S 9H KD 5C 3S"), 0x19D530);
    assert_int_equal(value_of("5S 5H KD KC 9S"), 0x2D5900);
    assert_int_equal(value_of("7S 7H 7D 4C AS"), 0x37E400);
    assert_int_equal(value_of("5S 6H 7D 8C 9S"), 0x490000);
    assert_int_equal(value_of("AS 2H 3D 4C 5D"), 0x450000);
    assert_int_equal(value_of("2H 6H 9H JH KH"), 0x5DB962);
    assert_int_equal(value_of("4S 4H QD QC QS"), 0x6C4000);
    assert_int_equal(value_of("JS JH JD JC 2S"), 0x7B2000);
    assert_int_equal(value_of("9D TD JD QD KD"), 0x8D0000);
    /* Fronts fill the first nibbles only. */
    assert_int_equal(value_of("AS KH 2D"), 0x0ED200);
    assert_int_equal(value_of("KS KH AD"), 0x1DE000);
    assert_int_equal(value_of("QS QH QD"), 0x3C0000);
}

static void test_kickers(void **state)
{
    (void)state;
    /* High card: down to the fifth card. */
    assert_true(value_of("AS JH 8D 5C 3S") > value_of("AD JC 8H 5S 2S"));
    assert_true(value_of("AS JH 8D 5C 3S") < value_of("AD JC 9H 5S 2S"));
    assert_true(value_of("AS JH 8D 5C 3S") == value_of("AD JC 8H 5S 3H"));
    /* Pairs: the pair, then each kicker. */
    assert_true(value_of("9S 9H KD 5C 3S") > value_of("8S 8H AD KC QS"));
    assert_true(value_of("9S 9H KD 5C 3S") > value_of("9D 9C QD JC TS"));
    assert_true(value_of("9S 9H KD 5C 3S") > value_of("9D 9C KH 5D 2S"));
    assert_true(value_of("9S 9H KD 5C 3S") == value_of("9D 9C KH 5D 3D"));
    /* Two pair: the high pair, then the low pair, then the kicker. */
    assert_true(value_of("KS KH 3D 3C 2S") > value_of("QS QH JD JC AS"));
    assert_true(value_of("KS KH 5D 5C 2S") > value_of("KD KC 4D 4C AS"));
    assert_true(value_of("KS KH 5D 5C 9S") > value_of("KD KC 5H 5S 8S"));
    /* Trips, full houses and quads: the group first. */
    assert_true(value_of("8S 8H 8D 3C 2S") > value_of("7S 7H 7D AC KS"));
    assert_true(value_of("8S 8H 8D AC 2S") > value_of("8S 8H 8D KC QS"));
    assert_true(value_of("QS QH QD 2C 2S") > value_of("JS JH JD AC AS"));
    assert_true(value_of("QS QH QD 5C 5S") > value_of("QS QH QD 4C 4S"));
    assert_true(value_of("5S 5H 5D 5C 2S") > value_of("4S 4H 4D 4C AS"));
    assert_true(value_of("5S 5H 5D 5C 9S") > value_of("5S 5H 5D 5C 8S"));
    /* Flushes: card by card; straights by their top card. */
    assert_true(value_of("AH 9H 7H 5H 3H") > value_of("KS QS JS 9S 8S"));
    assert_true(value_of("AH 9H 7H 5H 3H") > value_of("AS 9S 7S 5S 2S"));
    assert_true(value_of("AH 9H 7H 5H 3H") == value_of("AS 9S 7S 5S 3S"));
    assert_true(value_of("6S 7H 8D 9C TS") > value_of("5S 6H 7D 8C 9S"));
    assert_true(value_of("6S 7H 8D 9C TS") == value_of("6D 7D 8D 9C TC"));
}

static void test_wheel(void **state)
{
    (void)state;
    assert_int_equal(value_of("AS 2H 3D 4C 5D") >> 16, BARBU_POKER_STRAIGHT << 4 | 5);
    assert_true(value_of("AS 2H 3D 4C 5D") < value_of("2S 3H 4D 5C 6D"));
    assert_true(value_of("AS 2H 3D 4C 5D") > value_of("KS KH KD 2C 3D"));
    assert_true(value_of("AS 2S 3S 4S 5S") < value_of("2C 3C 4C 5C 6C"));
    assert_true(value_of("AS 2S 3S 4S 5S") > value_of("AS AH AD AC KD"));
    /* No wrap-around: Q-K-A-2-3 is ace high. */
    assert_int_equal(category_of("QS KH AD 2C 3D"), BARBU_POKER_HIGH_CARD);
    assert_int_equal(category_of("TS JH QD KC AD"), BARBU_POKER_STRAIGHT);
    assert_int_equal(value_of("TS JH QD KC AD") >> 16, BARBU_POKER_STRAIGHT << 4 | BARBU_ACE);
}

static void test_front_against_five(void **state)
{
    (void)state;
    /* A front of 3 has no straights or flushes. */
    assert_int_equal(category_of("QS KS AS"), BARBU_POKER_HIGH_CARD);
    assert_int_equal(category_of("2H 3H 4H"), BARBU_POKER_HIGH_CARD);
    assert_int_equal(category_of("2H 2S 4H"), BARBU_POKER_PAIR);
    assert_int_equal(category_of("2H 2S 2D"), BARBU_POKER_TRIPS);

    /* The examples of the header and of the rules. */
    assert_true(value_of("KS KH AD") < value_of("KD KC AS 3C 2D"));
    assert_true(value_of("QS QH QD") < value_of("KS KH KD 3C 2D"));
    assert_true(value_of("AS AH 2D") > value_of("KD KC AC QC JD"));
    /* More kickers win ties; a higher kicker wins before that. */
    assert_true(value_of("AS AH KD") < value_of("AD AC KS 3C 2D"));
    assert_true(value_of("AS AH KD") > value_of("AD AC QS JC TD"));
    assert_true(value_of("AS KH QD") < value_of("AD KC QS 3C 2D"));
    assert_true(value_of("AS KH QD") > value_of("AD KC JS TC 9D"));
    assert_true(value_of("AS KH QD") < value_of("2D 2C 3S 4C 5D"));
    /* Front trips beat a middle two pair and lose to its straight. */
    assert_true(value_of("2S 2H 2D") > value_of("AD AC KS KC QD"));
    assert_true(value_of("AS AH AD") < value_of("AD 2C 3S 4C 5D"));
    assert_true(value_of("AS AH AD") > value_of("KS KH KD AC QD"));
}

static void test_bad_sizes(void **state)
{
    (void)state;
    assert_int_equal(barbu_poker_value(0), 0);
    assert_int_equal(value_of("AS"), 0);
    assert_int_equal(value_of("AS KS"), 0);
    assert_int_equal(value_of("AS KS QS JS"), 0);
    assert_int_equal(value_of("AS KS QS JS TS 9S"), 0);
    assert_int_equal(barbu_poker_value(BARBU_ALL_CARDS), 0);
    /* Bits that are not cards. */
    assert_int_equal(barbu_poker_value(cards_of("AS KS QS JS") | 1), 0);
    assert_int_equal(barbu_poker_value(cards_of("AS KS") | UINT64_C(1) << 15), 0);
}

static void expect_words(const char *cards, const char *words)
{
    char buf[64];
    int len = barbu_poker_describe(cards_of(cards), buf, sizeof buf);
    assert_string_equal(buf, words);
    assert_int_equal(len, (int)strlen(words));
}

static void test_describe(void **state)
{
    (void)state;
    expect_words("AS JH 8D 5C 3S", "ace high");
    expect_words("9S 7H 6D 4C 3S", "nine high");
    expect_words("KS KH 8D 5C 3S", "a pair of kings");
    expect_words("6S 6H 8D 5C 3S", "a pair of sixes");
    expect_words("KS KH 5D 5C 3S", "two pair, kings and fives");
    expect_words("7S 7H 7D 5C 3S", "three sevens");
    expect_words("5S 6H 7D 8C 9S", "a straight to the nine");
    expect_words("AS 2H 3D 4C 5S", "a straight to the five");
    expect_words("AH 9H 7H 5H 3H", "a flush, ace high");
    expect_words("QS QH QD 4C 4S", "a full house, queens over fours");
    expect_words("JS JH JD JC 2S", "four jacks");
    expect_words("9D TD JD QD KD", "a straight flush to the king");
    expect_words("AS 2S 3S 4S 5S", "a straight flush to the five");
    expect_words("TC JC QC KC AC", "a royal flush");
    /* Fronts. */
    expect_words("QS KS AS", "ace high");
    expect_words("TS TH 2D", "a pair of tens");
    expect_words("2S 2H 2D", "three twos");
    expect_words("AS KS", "not a row of 3 or 5 cards");

    /* Truncated like snprintf. */
    char small[8];
    assert_int_equal(barbu_poker_describe(cards_of("KS KH 5D 5C 3S"), small, sizeof small),
                     (int)strlen("two pair, kings and fives"));
    assert_string_equal(small, "two pai");
    assert_int_equal(barbu_poker_describe(cards_of("AS JH 8D 5C 3S"), NULL, 0), 8);
}

/* A hand and its arrangement, for the checks: 13 cards. */
#define BACK   "AS QH 9D 7C 5S"
#define MIDDLE "KS KH 8D 6C 4S"
#define FRONT  "2C 3D JH"

static void expect_refused(barbu_cards hand, const char *back, const char *middle, int err,
                           const char *why)
{
    char buf[128];
    memset(buf, 'x', sizeof buf);
    int got = barbu_arrange_check(hand, cards_of(back), cards_of(middle), false, buf, sizeof buf);
    assert_int_equal(got, err);
    assert_string_equal(buf, why);
    /* The same answer without the words. */
    assert_int_equal(barbu_arrange_check(hand, cards_of(back), cards_of(middle), false, NULL, 0),
                     err);
}

static void test_arrange_errors(void **state)
{
    (void)state;
    barbu_cards hand = cards_of(BACK " " MIDDLE " " FRONT);
    assert_int_equal(barbu_count(hand), 13);

    expect_refused(hand & ~cards_of("2C"), MIDDLE, BACK, BARBU_EARRANGE,
                   "the hand has 12 cards, not 13");
    expect_refused(hand | cards_of("AH"), MIDDLE, BACK, BARBU_EARRANGE,
                   "the hand has 14 cards, not 13");
    expect_refused(0, "", "", BARBU_EARRANGE, "the hand has 0 cards, not 13");
    expect_refused((hand & ~cards_of("2C")) | 1, MIDDLE, BACK, BARBU_EARRANGE,
                   "the hand holds bits that are not cards");
    expect_refused(hand, "KS KH 8D 6C AD", BACK, BARBU_EARRANGE,
                   "the back row has cards not in the hand: AD");
    expect_refused(hand, MIDDLE, "AS QH 9D 2H TS", BARBU_EARRANGE,
                   "the middle row has cards not in the hand: 2H TS");
    expect_refused(hand, MIDDLE, "AS QH 9D 7C KS", BARBU_EARRANGE,
                   "the back and middle rows share KS");
    expect_refused(hand, MIDDLE, "AS QH 9D KH KS", BARBU_EARRANGE,
                   "the back and middle rows share KH KS");
    expect_refused(hand, "KS KH 8D 6C", BACK, BARBU_EARRANGE, "the back row has 4 cards, not 5");
    expect_refused(hand, "KS KH 8D 6C 4S 2C", BACK, BARBU_EARRANGE,
                   "the back row has 6 cards, not 5");
    expect_refused(hand, MIDDLE, "AS QH 9D 7C", BARBU_EARRANGE,
                   "the middle row has 4 cards, not 5");
    expect_refused(hand, MIDDLE, "AS QH 9D 7C 5S 2C", BARBU_EARRANGE,
                   "the middle row has 6 cards, not 5");

    /* Fouls name both hands. */
    expect_refused(hand, BACK, MIDDLE, BARBU_EFOUL,
                   "the middle (a pair of kings) beats the back (ace high)");
    barbu_cards h2 = cards_of("KH QC JD 9C 7S 8H 5H 4S 3D 2C AS AH AD");
    expect_refused(h2, "KH QC JD 9C 7S", "8H 5H 4S 3D 2C", BARBU_EFOUL,
                   "the front (three aces) beats the middle (eight high)");
    barbu_cards h3 = cards_of("2C 3C 4C 5C 6C 7D 8D 9D TD JD QH KH AH");
    expect_refused(h3, "2C 3C 4C 5C 6C", "7D 8D 9D TD JD", BARBU_EFOUL,
                   "the middle (a straight flush to the jack) beats the back "
                   "(a straight flush to the six)");

    /* A valid arrangement, and a short buffer for the words. */
    char why[64] = "unchanged";
    assert_int_equal(
        barbu_arrange_check(hand, cards_of(MIDDLE), cards_of(BACK), false, why, sizeof why), 0);
    assert_string_equal(why, "");
    assert_int_equal(barbu_arrange_check(h3, cards_of("7D 8D 9D TD JD"), cards_of("2C 3C 4C 5C 6C"),
                                         false, why, sizeof why),
                     0);
    char tiny[9];
    assert_int_equal(
        barbu_arrange_check(hand, cards_of(BACK), cards_of(MIDDLE), false, tiny, sizeof tiny),
        BARBU_EFOUL);
    assert_string_equal(tiny, "the midd");
}

static void test_allow_foul(void **state)
{
    (void)state;
    barbu_cards hand = cards_of(BACK " " MIDDLE " " FRONT);
    char why[64] = "unchanged";
    assert_int_equal(
        barbu_arrange_check(hand, cards_of(BACK), cards_of(MIDDLE), true, why, sizeof why), 0);
    assert_string_equal(why, "");
    /* Allowing fouls does not allow rows of the wrong size. */
    assert_int_equal(
        barbu_arrange_check(hand, cards_of("AS QH 9D 7C"), cards_of(MIDDLE), true, why, sizeof why),
        BARBU_EARRANGE);
    assert_string_equal(why, "the back row has 4 cards, not 5");
}

static void test_rows_fouled(void **state)
{
    (void)state;
    assert_true(barbu_rows_fouled(cards_of(BACK), cards_of(MIDDLE), cards_of(FRONT)));
    assert_false(barbu_rows_fouled(cards_of(MIDDLE), cards_of(BACK), cards_of(FRONT)));
    /* Equal rows are in order. */
    assert_false(barbu_rows_fouled(cards_of("AS JH 8D 5C 3S"), cards_of("AD JC 8H 5S 3H"),
                                   cards_of("AH JS 8C")));
    assert_false(barbu_rows_fouled(cards_of("KS KH AD 3C 2D"), cards_of("KD KC AS 3D 2C"),
                                   cards_of("KD KC AS")));
    /* The front pair of kings and an ace is below the middle's. */
    assert_false(barbu_rows_fouled(cards_of("AS AH 2D 3C 4D"), cards_of("KD KC AS 3D 2C"),
                                   cards_of("KH KS AC")));
    assert_true(barbu_rows_fouled(cards_of("AS AH 2D 3C 4D"), cards_of("KD KC QS 3D 2C"),
                                  cards_of("KH KS AC")));
    assert_true(barbu_rows_fouled(cards_of("AS AH 2D 3C 4D"), cards_of("KD KC QS 3D 2C"),
                                  cards_of("QH QS QC")));
}

static void rows_of(barbu_cards rows[3], const char *back, const char *middle, const char *front)
{
    rows[0] = cards_of(back);
    rows[1] = cards_of(middle);
    rows[2] = cards_of(front);
}

static void test_compare(void **state)
{
    (void)state;
    barbu_cards a[3], b[3], c[3], f[3], g[3];
    rows_of(a, "2H 6H 9H JH KH", "9S 9H KD 5C 3S", "AS KH 2D"); /* flush, nines, ace */
    rows_of(b, "5S 6H 7D 8C 9S", "TS TH 3D 3C 2S", "AD QH 2C"); /* straight, 2 pair, ace */
    rows_of(c, "2S 2H 2D 3C 4D", "9D 9C KH 5D 3D", "AC KC 2H"); /* trips, = a, = a */
    rows_of(f, "AS JH 8D 5C 3S", "KS KH 8D 6C 4S", "2C 3D JH"); /* fouled */
    rows_of(g, "AS AH AD AC KD", "2S 2H 3D 4C 5D", "QS QH QD"); /* fouled at the front */

    /* a wins the back and the front, loses the middle. */
    assert_int_equal(barbu_rows_compare(a, b, 3), 1);
    assert_int_equal(barbu_rows_compare(b, a, 3), -1);
    /* Ties count nothing, and a tie prevents a scoop. */
    assert_int_equal(barbu_rows_compare(a, c, 3), 1);
    assert_int_equal(barbu_rows_compare(c, a, 3), -1);
    assert_int_equal(barbu_rows_compare(a, a, 3), 0);
    /* b wins the back and the middle from c, and loses the front. */
    assert_int_equal(barbu_rows_compare(b, c, 3), 1);
    barbu_cards d[3];
    rows_of(d, "3S 3H 4D 4C 5D", "2S 2H 3D 4C 5D", "KC QC 2H"); /* loses all three to a */
    assert_int_equal(barbu_rows_compare(a, d, 3), 6);
    assert_int_equal(barbu_rows_compare(d, a, 3), -6);
    assert_int_equal(barbu_rows_compare(a, d, 0), 3);
    assert_int_equal(barbu_rows_compare(d, a, 5), -8);

    /* A fouled hand loses everything to any hand in order. */
    assert_int_equal(barbu_rows_compare(f, d, 3), -6);
    assert_int_equal(barbu_rows_compare(d, f, 3), 6);
    assert_int_equal(barbu_rows_compare(g, d, 2), -5);
    assert_int_equal(barbu_rows_compare(d, g, 2), 5);
    /* Two fouled hands are even, whatever their rows. */
    assert_int_equal(barbu_rows_compare(f, g, 3), 0);
    assert_int_equal(barbu_rows_compare(g, f, 3), 0);
}

/* A random arrangement of a random hand, often fouled. */
static void random_rows(barbu_rng *rng, barbu_cards rows[3])
{
    barbu_cards hand = random_cards(rng, BARBU_ALL_CARDS, 13);
    rows[0] = random_cards(rng, hand, 5);
    rows[1] = random_cards(rng, hand & ~rows[0], 5);
    rows[2] = hand & ~rows[0] & ~rows[1];
}

static void test_compare_antisymmetric(void **state)
{
    (void)state;
    barbu_rng rng;
    barbu_rng_seed(&rng, 2024);
    int fouled = 0, scoops = 0;
    for (int i = 0; i < 5000; i++) {
        barbu_cards a[3], b[3];
        random_rows(&rng, a);
        random_rows(&rng, b);
        int scoop = (int)barbu_rng_below(&rng, 4);
        int ab = barbu_rows_compare(a, b, scoop);
        assert_int_equal(ab, -barbu_rows_compare(b, a, scoop));
        assert_int_equal(barbu_rows_compare(a, a, scoop), 0);
        assert_true(ab >= -3 - scoop && ab <= 3 + scoop);
        fouled += barbu_rows_fouled(a[0], a[1], a[2]);
        scoops += ab == 3 + scoop || ab == -3 - scoop;
    }
    /* Both kinds of case were met. */
    assert_true(fouled > 500 && fouled < 4500);
    assert_true(scoops > 500);
}

static void test_against_slow_evaluator(void **state)
{
    (void)state;
    barbu_rng rng;
    barbu_rng_seed(&rng, 7);
    for (int i = 0; i < 200000; i++) {
        barbu_cards set = random_cards(&rng, BARBU_ALL_CARDS, i % 2 ? 5 : 3);
        if (barbu_poker_value(set) != slow_value(set)) {
            char text[64];
            barbu_hand_format(set, text, sizeof text);
            fail_msg("%s: %#x, the slow evaluator says %#x", text, barbu_poker_value(set),
                     slow_value(set));
        }
    }
    /* Hands of every category, which random draws meet too rarely. */
    for (int i = 0; i < 20000; i++) {
        int suit = (int)barbu_rng_below(&rng, 4), low = 1 + (int)barbu_rng_below(&rng, 10);
        barbu_cards set = 0;
        for (int r = low; r < low + 5; r++)
            set |= BARBU_BIT(
                BARBU_CARD(i % 3 ? suit : (int)barbu_rng_below(&rng, 4), r == 1 ? BARBU_ACE : r));
        int rank = 2 + (int)barbu_rng_below(&rng, 13);
        barbu_cards quads =
            BARBU_BIT(rank) | BARBU_BIT(rank + 16) | BARBU_BIT(rank + 32) | BARBU_BIT(rank + 48);
        if (barbu_count(set) == 5)
            assert_int_equal(barbu_poker_value(set), slow_value(set));
        barbu_cards group = random_cards(&rng, quads, 2 + (int)barbu_rng_below(&rng, 3));
        barbu_cards rest = random_cards(&rng, BARBU_ALL_CARDS & ~quads, 5 - barbu_count(group));
        /* Some rest draws give full houses and two pairs. */
        assert_int_equal(barbu_poker_value(group | rest), slow_value(group | rest));
        if (barbu_count(group) <= 3) {
            barbu_cards front =
                group | random_cards(&rng, BARBU_ALL_CARDS & ~quads, 3 - barbu_count(group));
            assert_int_equal(barbu_poker_value(front), slow_value(front));
        }
    }
}

/*
 * Every 5-card hand: the number of hands and of distinct values in each
 * category are the well-known counts (the distinct values are the hand
 * classes, so no tie-break is lost and none invented).
 */
static uint8_t seen[(9u << 20) / 8];

static void test_all_five_card_hands(void **state)
{
    (void)state;
    static const long hands[9] = {1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40};
    static const int classes[9] = {1277, 2860, 858, 858, 10, 1277, 156, 156, 10};
    long count[9] = {0};
    int distinct[9] = {0};
    memset(seen, 0, sizeof seen);
    int cards[52];
    for (int i = 0; i < 52; i++)
        cards[i] = BARBU_CARD(i / 13, 2 + i % 13);
    for (int a = 0; a < 52; a++)
        for (int b = a + 1; b < 52; b++)
            for (int c = b + 1; c < 52; c++)
                for (int d = c + 1; d < 52; d++)
                    for (int e = d + 1; e < 52; e++) {
                        barbu_cards set = BARBU_BIT(cards[a]) | BARBU_BIT(cards[b]) |
                                          BARBU_BIT(cards[c]) | BARBU_BIT(cards[d]) |
                                          BARBU_BIT(cards[e]);
                        uint32_t v = barbu_poker_value(set);
                        int cat = (int)(v >> 20);
                        assert_true(cat <= BARBU_POKER_STRAIGHT_FLUSH);
                        count[cat]++;
                        if (!(seen[v >> 3] & 1u << (v & 7))) {
                            seen[v >> 3] |= (uint8_t)(1u << (v & 7));
                            distinct[cat]++;
                        }
                    }
    for (int cat = 0; cat < 9; cat++) {
        assert_int_equal(count[cat], hands[cat]);
        assert_int_equal(distinct[cat], classes[cat]);
    }
}

/* Every front: 22100 sets of 3, checked against the slow evaluator. */
static void test_all_fronts(void **state)
{
    (void)state;
    int count[9] = {0};
    for (int a = 0; a < 52; a++)
        for (int b = a + 1; b < 52; b++)
            for (int c = b + 1; c < 52; c++) {
                barbu_cards set = BARBU_BIT(BARBU_CARD(a / 13, 2 + a % 13)) |
                                  BARBU_BIT(BARBU_CARD(b / 13, 2 + b % 13)) |
                                  BARBU_BIT(BARBU_CARD(c / 13, 2 + c % 13));
                uint32_t v = barbu_poker_value(set);
                assert_int_equal(v, slow_value(set));
                count[v >> 20]++;
            }
    assert_int_equal(count[BARBU_POKER_HIGH_CARD], 18304);
    assert_int_equal(count[BARBU_POKER_PAIR], 3744);
    assert_int_equal(count[BARBU_POKER_TRIPS], 52);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_categories),
        cmocka_unit_test(test_exact_values),
        cmocka_unit_test(test_kickers),
        cmocka_unit_test(test_wheel),
        cmocka_unit_test(test_front_against_five),
        cmocka_unit_test(test_bad_sizes),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_arrange_errors),
        cmocka_unit_test(test_allow_foul),
        cmocka_unit_test(test_rows_fouled),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_compare_antisymmetric),
        cmocka_unit_test(test_against_slow_evaluator),
        cmocka_unit_test(test_all_five_card_hands),
        cmocka_unit_test(test_all_fronts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
