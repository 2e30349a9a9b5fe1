/*
 * club.h - the club's arithmetic (docs/club.md): places from a game's
 * totals, who is credited with a seat's points, and the ratings.  Pure
 * functions of their arguments: no store, no server, no engine state.
 */
#ifndef BARBU_CLUB_H
#define BARBU_CLUB_H

#include <stdbool.h>
#include <stdint.h>

/* ----------------------------------------------------------------- places
 * 1 to 4 by the seat totals, higher better; equal totals share the better
 * place: totals 10, 5, 5, -20 give places 1, 2, 2, 4. */
void club_places(const int32_t totals[4], int places[4]);

/* ---------------------------------------------------------------- credit
 * Who takes a seat's points (seed 002 section 3).  The caller numbers the
 * people who sat (0, 1, ...); holder[d][seat] is who held the seat when
 * deal d ended (-1 for nobody known), record[seat] the seat's player of
 * record (-1 for none), points[d][seat] the points the deal settled. */
enum { CLUB_CREDIT_RECORD, CLUB_CREDIT_DEALS };

typedef struct club_credit_in {
    int credit; /* CLUB_CREDIT_* */
    int n_deals;
    const int32_t (*points)[4];
    const int (*holder)[4];
    int record[4];
    int32_t totals[4];
} club_credit_in;

/* One person at one seat. */
typedef struct club_credit_row {
    int seat, person;
    bool credited;  /* takes points of the seat */
    int32_t points; /* the points credited */
    int deals;      /* the deals this person finished at the seat */
} club_credit_row;

/* Fills rows (by seat; at each seat the player of record first, then the
 * others in the order of the first deal they finished there) and returns
 * their number, at most cap (rows beyond it are dropped): with
 * CLUB_CREDIT_RECORD the player of record takes the seat's total and the
 * others are listed with their deals, credited 0; with CLUB_CREDIT_DEALS
 * each deal's points go to who held the seat at its end, and everyone who
 * finished a deal there is credited with the sum. */
int club_credit(const club_credit_in *in, club_credit_row *rows, int cap);

/* The seat's one participant for the ratings: the player of record
 * (CLUB_CREDIT_RECORD), or whoever finished most deals at the seat, the
 * earlier row on a tie (CLUB_CREDIT_DEALS).  An index into rows, or -1
 * when the seat has none. */
int club_participant(const club_credit_row *rows, int n, int seat, int credit);

/* ---------------------------------------------------------------- ratings
 * Weng, R. C. and Lin, C.-J. (2011), "A Bayesian Approximation Method for
 * Online Ranking", Journal of Machine Learning Research 12, 267-300:
 * Algorithm 1, the Bradley-Terry model with full pairing, each player a
 * team of one. */
#define CLUB_MU0       25.0
#define CLUB_SIGMA0    (25.0 / 3.0)
#define CLUB_BETA      (CLUB_SIGMA0 / 2.0)
#define CLUB_KAPPA     0.0001
#define CLUB_MAX_RATED 8

typedef struct club_rating {
    double mu, sigma;
} club_rating;

/* The prior of a player with no game. */
club_rating club_prior(void);

/* The rating shown: mu - 3 sigma. */
double club_shown(club_rating r);

/* Updates the n ratings (2 to CLUB_MAX_RATED) of one game's participants
 * at once, from their ratings before it and their places (1 best; equal
 * places are a tie).  Returns 0, or -1 (changing nothing) for a count out
 * of range, a place below 1 or a sigma that is not positive. */
int club_rate(club_rating *r, const int *places, int n);

/* The same when one player holds several places (a computer level at two
 * seats): who[i] names the player of place i (equal numbers, one player,
 * whose ratings before must be equal).  Places of the same player are not
 * compared; the player's changes from every place add up (the sum of the
 * mu changes, the sum of the Deltas), so that it moves as one player
 * observed against each other place, and its entries all come out equal.
 * who NULL: every place a different player (club_rate). */
int club_rate_shared(club_rating *r, const int *places, const int *who, int n);

#endif
