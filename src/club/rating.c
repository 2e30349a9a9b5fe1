/*
 * rating.c - places, credit and ratings (club.h, docs/club.md "Ratings").
 *
 * The ratings are Weng and Lin's (2011) Algorithm 1 with the Bradley-Terry
 * model and full pairing, every player a team of one.  For each player i,
 * against every other player q of the game:
 *
 *   c_iq   = sqrt(sigma_i^2 + sigma_q^2 + 2 beta^2)
 *   p_iq   = exp(mu_i / c_iq) / (exp(mu_i / c_iq) + exp(mu_q / c_iq))
 *   s      = 1 when i placed better than q, 1/2 on a tie, 0 when worse
 *   Omega_i = sum over q of sigma_i^2 / c_iq * (s - p_iq)
 *   Delta_i = sum over q of gamma_q * sigma_i^2 / c_iq^2 * p_iq * p_qi,
 *             gamma_q = sigma_i / c_iq (the paper's default)
 *
 * then mu_i += Omega_i and sigma_i^2 *= max(1 - Delta_i, kappa), every
 * player from the ratings before the game.  One player at several places
 * (club_rate_shared: a computer level at two seats) is not compared with
 * itself, and adds up the Omegas and Deltas of its places.
 */
#include <math.h>
#include <string.h>

#include "club.h"

void club_places(const int32_t totals[4], int places[4])
{
    for (int k = 0; k < 4; k++) {
        int better = 0;
        for (int j = 0; j < 4; j++)
            better += totals[j] > totals[k];
        places[k] = 1 + better;
    }
}

/* ----------------------------------------------------------------- credit */

static int row_of(const club_credit_row *rows, int n, int seat, int person)
{
    for (int k = 0; k < n; k++)
        if (rows[k].seat == seat && rows[k].person == person)
            return k;
    return -1;
}

int club_credit(const club_credit_in *in, club_credit_row *rows, int cap)
{
    int n = 0;
    for (int seat = 0; seat < 4; seat++) {
        int first = n;
        if (in->record[seat] >= 0 && n < cap)
            rows[n++] = (club_credit_row){.seat = seat, .person = in->record[seat]};
        for (int d = 0; d < in->n_deals; d++) {
            int who = in->holder[d][seat];
            if (who < 0)
                continue;
            int k = row_of(rows + first, n - first, seat, who);
            if (k < 0) {
                if (n == cap)
                    continue;
                rows[n] = (club_credit_row){.seat = seat, .person = who};
                k = n++ - first;
            }
            club_credit_row *r = &rows[first + k];
            r->deals++;
            if (in->credit == CLUB_CREDIT_DEALS) {
                r->points += in->points[d][seat];
                r->credited = true;
            }
        }
        if (in->credit == CLUB_CREDIT_RECORD && in->record[seat] >= 0 && n > first) {
            rows[first].credited = true;
            rows[first].points = in->totals[seat];
        }
    }
    return n;
}

int club_participant(const club_credit_row *rows, int n, int seat, int credit)
{
    int best = -1;
    for (int k = 0; k < n; k++) {
        if (rows[k].seat != seat)
            continue;
        if (credit == CLUB_CREDIT_RECORD)
            return k; /* the player of record is the seat's first row */
        if (best < 0 || rows[k].deals > rows[best].deals)
            best = k;
    }
    return best;
}

/* ---------------------------------------------------------------- ratings */

club_rating club_prior(void)
{
    return (club_rating){.mu = CLUB_MU0, .sigma = CLUB_SIGMA0};
}

double club_shown(club_rating r)
{
    return r.mu - 3.0 * r.sigma;
}

int club_rate(club_rating *r, const int *places, int n)
{
    return club_rate_shared(r, places, NULL, n);
}

int club_rate_shared(club_rating *r, const int *places, const int *who, int n)
{
    if (n < 2 || n > CLUB_MAX_RATED)
        return -1;
    for (int i = 0; i < n; i++)
        if (places[i] < 1 || !(r[i].sigma > 0) || !isfinite(r[i].mu) || !isfinite(r[i].sigma))
            return -1;
    club_rating before[CLUB_MAX_RATED];
    double omega[CLUB_MAX_RATED], delta[CLUB_MAX_RATED];
    memcpy(before, r, (size_t)n * sizeof *r);
    const double two_beta2 = 2.0 * CLUB_BETA * CLUB_BETA;
    for (int i = 0; i < n; i++) {
        double var_i = before[i].sigma * before[i].sigma;
        omega[i] = delta[i] = 0;
        for (int q = 0; q < n; q++) {
            if (q == i || (who && who[q] == who[i]))
                continue;
            double var_q = before[q].sigma * before[q].sigma;
            double c = sqrt(var_i + var_q + two_beta2);
            /* exp(mu_i/c) / (exp(mu_i/c) + exp(mu_q/c)), without overflow. */
            double p_iq = 1.0 / (1.0 + exp((before[q].mu - before[i].mu) / c));
            double s = places[i] < places[q] ? 1.0 : places[i] == places[q] ? 0.5 : 0.0;
            double gamma = before[i].sigma / c;
            omega[i] += var_i / c * (s - p_iq);
            delta[i] += gamma * var_i / (c * c) * p_iq * (1.0 - p_iq);
        }
    }
    for (int i = 0; i < n; i++) {
        double om = 0, de = 0;
        for (int j = 0; j < n; j++)
            if (j == i || (who && who[j] == who[i])) {
                om += omega[j];
                de += delta[j];
            }
        double shrink = 1.0 - de;
        if (shrink < CLUB_KAPPA)
            shrink = CLUB_KAPPA;
        r[i].mu = before[i].mu + om;
        r[i].sigma = before[i].sigma * sqrt(shrink);
    }
    return 0;
}
