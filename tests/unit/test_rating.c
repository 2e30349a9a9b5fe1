/*
 * test_rating.c - the club's arithmetic (src/club/rating.c): places with
 * ties, credit by record and by deals with a substitute, and Weng and
 * Lin's Bradley-Terry full pairing worked out by hand.
 */
#include <math.h>

#include "club.h"
#include "helpers.h"

#define CLOSE(a, b) assert_true(fabs((a) - (b)) < 1e-6)

static void test_places(void **state)
{
    (void)state;
    int p[4];
    club_places((const int32_t[4]){10, 5, 5, -20}, p);
    assert_int_equal(p[0], 1);
    assert_int_equal(p[1], 2);
    assert_int_equal(p[2], 2);
    assert_int_equal(p[3], 4);
    club_places((const int32_t[4]){-3, 7, -3, 7}, p);
    assert_int_equal(p[0], 3);
    assert_int_equal(p[1], 1);
    assert_int_equal(p[2], 3);
    assert_int_equal(p[3], 1);
    club_places((const int32_t[4]){0, 0, 0, 0}, p);
    for (int k = 0; k < 4; k++)
        assert_int_equal(p[k], 1);
}

/*
 * Four new players (mu 25, sigma 25/3, beta 25/6):
 *   sigma^2 = 625/9 = 69.444..., 2 beta^2 = 625/18 = 34.722...
 *   c^2 = 2 * 625/9 + 625/18 = 3125/18 = 173.611..., so sigma^2 / c^2 = 0.4
 *   sigma / c = sqrt(0.4) = 0.6324555, sigma^2 / c = (25/3) sqrt(0.4) = 5.2704628
 *   p = 1/2 for every pair (equal mu)
 *   Omega_i = 5.2704628 * sum over q of (s - 1/2)
 *   Delta_i = 3 * (sigma/c) * 0.4 * 1/4 = 0.3 * 0.6324555 = 0.1897367
 *   sigma' = (25/3) sqrt(1 - 0.1897367) = 8.3333333 * 0.9001463 = 7.5012190
 * Places 1,2,3,4: sum of (s - 1/2) is 1.5, 0.5, -0.5, -1.5, so
 *   mu' = 25 + 7.9056942, 25 + 2.6352314, 25 - 2.6352314, 25 - 7.9056942.
 * Places 1,1,3,4: the tie gives s = 1/2 (0 after - 1/2): 1, 1, -0.5, -1.5:
 *   mu' = 30.2704628, 30.2704628, 22.3647686, 17.0943058.
 */
static void test_four_new_players(void **state)
{
    (void)state;
    const double unit = 25.0 / 3.0 * sqrt(0.4);
    const double sigma = 25.0 / 3.0 * sqrt(1.0 - 0.3 * sqrt(0.4));
    CLOSE(unit, 5.2704628);
    CLOSE(sigma, 7.5012190);

    club_rating r[4];
    for (int k = 0; k < 4; k++)
        r[k] = club_prior();
    assert_int_equal(club_rate(r, (const int[4]){1, 2, 3, 4}, 4), 0);
    CLOSE(r[0].mu, 25 + 1.5 * unit);
    CLOSE(r[1].mu, 25 + 0.5 * unit);
    CLOSE(r[2].mu, 25 - 0.5 * unit);
    CLOSE(r[3].mu, 25 - 1.5 * unit);
    CLOSE(r[0].mu, 32.9056942);
    double sum = 0;
    for (int k = 0; k < 4; k++) {
        CLOSE(r[k].sigma, sigma);
        assert_true(r[k].sigma < CLUB_SIGMA0); /* sigma shrinks */
        sum += r[k].mu - CLUB_MU0;
    }
    CLOSE(sum, 0);                     /* equal sigmas: what one wins another loses */
    CLOSE(r[0].mu - 25, 25 - r[3].mu); /* symmetry */
    CLOSE(club_shown(r[0]), 32.9056942 - 3 * 7.5012190);

    for (int k = 0; k < 4; k++)
        r[k] = club_prior();
    assert_int_equal(club_rate(r, (const int[4]){1, 1, 3, 4}, 4), 0);
    CLOSE(r[0].mu, 30.2704628);
    CLOSE(r[1].mu, 30.2704628);
    CLOSE(r[2].mu, 22.3647686);
    CLOSE(r[3].mu, 17.0943058);
    CLOSE(r[0].mu + r[1].mu + r[2].mu + r[3].mu, 100);

    /* All tied: nobody moves, everyone is surer. */
    for (int k = 0; k < 4; k++)
        r[k] = club_prior();
    assert_int_equal(club_rate(r, (const int[4]){1, 1, 1, 1}, 4), 0);
    for (int k = 0; k < 4; k++) {
        CLOSE(r[k].mu, 25);
        CLOSE(r[k].sigma, sigma);
    }
}

/*
 * Two players, the stronger (mu 30) beating the weaker (mu 20), both
 * sigma 25/3: c^2 = 2 sigma^2 + 2 beta^2 = 173.611 as above, c = 13.1761569;
 *   p = 1 / (1 + exp(-10 / 13.1761569)) = 1 / (1 + 0.4681593) = 0.6811250
 *   Omega = 5.2704628 * (1 - 0.6811250) = 1.6806188 for the winner, and
 *   -1.6806188 for the loser; an expected win moves less than an upset,
 *   which would move 5.2704628 * 0.6811250 = 3.5898439.
 *   Delta = 0.6324555 * 0.4 * 0.6811250 * 0.3188750 = 0.0549462
 *   sigma' = (25/3) sqrt(1 - 0.0549462) = 8.1011567
 */
static void test_two_players(void **state)
{
    (void)state;
    club_rating r[2] = {{30, 25.0 / 3}, {20, 25.0 / 3}};
    assert_int_equal(club_rate(r, (const int[2]){1, 2}, 2), 0);
    const double c = sqrt(3125.0 / 18);
    const double p = 1 / (1 + exp(-10 / c));
    CLOSE(c, 13.1761569);
    assert_true(fabs(p - 0.6811250) < 1e-6);
    CLOSE(r[0].mu, 30 + 25.0 / 3 * sqrt(0.4) * (1 - p));
    CLOSE(r[1].mu, 20 - 25.0 / 3 * sqrt(0.4) * (1 - p));
    assert_true(fabs(r[0].mu - 31.6806188) < 1e-6);
    CLOSE(r[0].sigma, 25.0 / 3 * sqrt(1 - sqrt(0.4) * 0.4 * p * (1 - p)));
    assert_true(fabs(r[0].sigma - 8.1011567) < 1e-6);

    club_rating u[2] = {{30, 25.0 / 3}, {20, 25.0 / 3}};
    assert_int_equal(club_rate(u, (const int[2]){2, 1}, 2), 0);
    CLOSE(u[1].mu, 20 + 25.0 / 3 * sqrt(0.4) * p);
    assert_true(fabs(u[1].mu - 23.5898439) < 1e-6);
    assert_true(u[1].mu - 20 > r[0].mu - 30);

    /* A surer player moves less than a newcomer in the same game. */
    club_rating m[4] = {{25, 2}, {25, 25.0 / 3}, {25, 25.0 / 3}, {25, 25.0 / 3}};
    assert_int_equal(club_rate(m, (const int[4]){1, 2, 3, 4}, 4), 0);
    club_rating n[4] = {{25, 25.0 / 3}, {25, 25.0 / 3}, {25, 25.0 / 3}, {25, 25.0 / 3}};
    assert_int_equal(club_rate(n, (const int[4]){1, 2, 3, 4}, 4), 0);
    assert_true(m[0].mu - 25 < n[0].mu - 25);
    assert_true(m[0].mu > 25);
}

static void test_rate_refusals(void **state)
{
    (void)state;
    club_rating r[4] = {{25, 1}, {25, 1}, {25, 1}, {25, 0}};
    assert_int_equal(club_rate(r, (const int[4]){1, 2, 3, 4}, 4), -1);
    CLOSE(r[0].mu, 25);
    assert_int_equal(club_rate(r, (const int[4]){1, 2, 3, 4}, 1), -1);
    r[3].sigma = 1;
    assert_int_equal(club_rate(r, (const int[4]){0, 2, 3, 4}, 4), -1);
    CLOSE(r[0].mu, 25);
    /* kappa bounds the shrink: sigma never reaches 0. */
    club_rating t[8];
    for (int k = 0; k < 8; k++)
        t[k] = (club_rating){25, 1000};
    assert_int_equal(club_rate(t, (const int[8]){1, 2, 3, 4, 5, 6, 7, 8}, 8), 0);
    for (int k = 0; k < 8; k++)
        assert_true(t[k].sigma >= 1000 * sqrt(CLUB_KAPPA) - 1e-9);
}

/*
 * A game of three deals.  Seat N: alice (0) for deals 0 and 1, then dan (4)
 * takes over for deal 2; the others keep their seats.  Points by deal:
 *   deal 0: N -10, E  20, S  0, W -10
 *   deal 1: N  30, E -10, S -10, W -10
 *   deal 2: N -5,  E   5, S -5, W  5
 * totals N 15, E 15, S -15, W -15.
 * By record: alice takes N's 15, dan listed with 1 deal and 0.
 * By deals: alice -10 + 30 = 20 (2 deals), dan -5 (1 deal).
 */
static void test_credit(void **state)
{
    (void)state;
    const int32_t points[3][4] = {{-10, 20, 0, -10}, {30, -10, -10, -10}, {-5, 5, -5, 5}};
    const int holder[3][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {4, 1, 2, 3}};
    club_credit_in in = {
        .credit = CLUB_CREDIT_RECORD,
        .n_deals = 3,
        .points = points,
        .holder = holder,
        .record = {0, 1, 2, 3},
        .totals = {15, 15, -15, -15},
    };
    club_credit_row rows[8];
    int n = club_credit(&in, rows, 8);
    assert_int_equal(n, 5);
    assert_int_equal(rows[0].seat, 0);
    assert_int_equal(rows[0].person, 0);
    assert_true(rows[0].credited);
    assert_int_equal(rows[0].points, 15);
    assert_int_equal(rows[0].deals, 2);
    assert_int_equal(rows[1].seat, 0);
    assert_int_equal(rows[1].person, 4);
    assert_false(rows[1].credited);
    assert_int_equal(rows[1].points, 0);
    assert_int_equal(rows[1].deals, 1);
    assert_int_equal(rows[2].person, 1);
    assert_int_equal(rows[2].points, 15);
    assert_int_equal(rows[2].deals, 3);
    assert_int_equal(rows[4].points, -15);
    assert_int_equal(club_participant(rows, n, 0, CLUB_CREDIT_RECORD), 0);

    in.credit = CLUB_CREDIT_DEALS;
    n = club_credit(&in, rows, 8);
    assert_int_equal(n, 5);
    assert_true(rows[0].credited);
    assert_int_equal(rows[0].points, 20);
    assert_true(rows[1].credited);
    assert_int_equal(rows[1].points, -5);
    assert_int_equal(rows[2].points, 15);
    assert_int_equal(club_participant(rows, n, 0, CLUB_CREDIT_DEALS), 0);

    /* Dan finishing two of three deals is N's participant by deals. */
    const int holder2[3][4] = {{0, 1, 2, 3}, {4, 1, 2, 3}, {4, 1, 2, 3}};
    in.holder = holder2;
    n = club_credit(&in, rows, 8);
    assert_int_equal(rows[0].points, -10);
    assert_int_equal(rows[1].points, 25);
    assert_int_equal(club_participant(rows, n, 0, CLUB_CREDIT_DEALS), 1);
    /* A tie (one deal each, deal 2 unknown) goes to the earlier row. */
    const int holder3[3][4] = {{0, 1, 2, 3}, {4, 1, 2, 3}, {-1, 1, 2, 3}};
    in.holder = holder3;
    n = club_credit(&in, rows, 8);
    assert_int_equal(club_participant(rows, n, 0, CLUB_CREDIT_DEALS), 0);
    /* A player of record who finished no deal is not credited by deals. */
    const int holder4[3][4] = {{4, 1, 2, 3}, {4, 1, 2, 3}, {4, 1, 2, 3}};
    in.holder = holder4;
    n = club_credit(&in, rows, 8);
    assert_false(rows[0].credited);
    assert_int_equal(rows[0].deals, 0);
    assert_int_equal(rows[1].points, 15);
    /* The rows stop at the cap. */
    assert_int_equal(club_credit(&in, rows, 3), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_places),      cmocka_unit_test(test_four_new_players),
        cmocka_unit_test(test_two_players), cmocka_unit_test(test_rate_refusals),
        cmocka_unit_test(test_credit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
