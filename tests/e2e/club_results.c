/*
 * club_results.c - games played through a real server appear in the club's
 * results, ladder and ratings with the right numbers, checked by hand
 * (issue 24, "End-to-end"; docs/club.md).
 *
 * Five registered players (and a computer player) play five short games
 * (uk-32 with house rules: No King and Trumps only, no doubling, so eight
 * deals of eight tricks), each client playing the first legal action of
 * its own view (a ladder table has no seed, so nothing here knows the
 * hands beforehand):
 *
 *   1. a ladder game: Ann, Bea, Cal, Dan;
 *   2. a ladder game: Ann, Bea, Cal, Eve;
 *   3. a rated game: Ann, Bea, Cal and an easy computer player;
 *   4. a rated game, credit "record": Ann, Bea, Cal, Dan; Dan leaves after
 *      the first deal and Eve takes his seat for the seven others;
 *   5. the same with credit "deals".
 *
 * From the server's score messages alone (each deal's points by seat, the
 * totals) the test works out by its own arithmetic each player's credited
 * points and places (seed 002 section 3: the seat's whole total to the
 * player of record, or each deal to who held the seat at its end), the
 * month's and the year's ladder (games, total, average, position, with
 * --ladder-min-games 2) and the ratings after each rated game, and
 * compares them with the JSON twins: /club/api/game/ID, /club/api/player/NAME,
 * /club/api/level/easy, /club/api/ladder?period=P and /club/api/games?player=.
 *
 * The ratings are written here again, independently of src/club/rating.c,
 * from Weng, R. C. and Lin, C.-J. (2011), "A Bayesian Approximation Method
 * for Online Ranking", JMLR 12, 267-300, Algorithm 1 (the Bradley-Terry
 * model with full pairing), each player a team of one, with the constants
 * of the club (mu0 = 25, sigma0 = 25/3, beta = sigma0 / 2, kappa = 0.0001,
 * gamma_q = sigma_q / c_iq), and checked against numbers worked out by hand
 * for the first game from the prior (see hand_check).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "club_play.h"

#define MIN_GAMES 2
#define N_PEOPLE  5
#define EASY      N_PEOPLE /* the computer level's index in the model */
#define N_RATED   (N_PEOPLE + 1)
#define N_DEALS   8
#define N_GAMES   5

static const char HOUSE[] = "preset = uk-32\n"
                            "doubling = no\n"
                            "no-tricks.per-player = 0\n"
                            "no-hearts.per-player = 0\n"
                            "no-queens.per-player = 0\n"
                            "no-last-two.per-player = 0\n"
                            "domino.per-player = 0\n"
                            /* Four Trumps deals make +160: the King of
                             * hearts balances them. */
                            "no-king.card.KH = -40\n";

static const char SEAT_NAMES[] = "NESW";

/* ------------------------------------------------------------ the model */

typedef struct person {
    const char *name;
    e2e_client *c;
    /* What this test expects the club to say of the person. */
    double mu, sigma; /* the rating */
    int rated;        /* rated games played */
    int games, over;  /* games in which the person sat */
    long total;       /* credited points */
    int places[5];    /* the best place of each game credited */
    int ladder_games;
    long ladder_total;
} person;

static person people[N_RATED] = {
    {.name = "Ann"}, {.name = "Bea"}, {.name = "Cal"},
    {.name = "Dan"}, {.name = "Eve"}, {.name = "easy"}, /* the computer level */
};

static const char *password_of(int who)
{
    static char buf[N_PEOPLE][40];
    snprintf(buf[who], sizeof buf[who], "%s plays the club 24", people[who].name);
    return buf[who];
}

/* One person's row of a game, as the club should list it. */
typedef struct row {
    int seat, who;
    bool credited;
    long points;
    int deals;
} row;

typedef struct game {
    const char *what;
    bool ladder, rated;
    bool by_deals;   /* credit "deals" (else "record") */
    int record[4];   /* the people of record, by seat (EASY for the computer player) */
    int sub, sub_at; /* a substitute from the second deal at seat sub_at, or -1 */
    /* Played: */
    int table;
    long totals[4];
    long points[N_DEALS][4];
    int holder[N_DEALS][4];
    int n_deals;
    int places[4];
    row rows[8];
    int n_rows;
    int participant[4];         /* the rated person of each seat */
    double before[4], after[4]; /* their shown ratings, mu - 3 sigma */
    double mu_after[4], sigma_after[4];
} game;

/* ---------------------------------------------------- our own arithmetic */

/* Places 1-4 by the totals, higher better, equal totals sharing the better
 * place (1, 2, 2, 4). */
static void places_of(const long totals[4], int places[4])
{
    for (int s = 0; s < 4; s++) {
        places[s] = 1;
        for (int t = 0; t < 4; t++)
            if (totals[t] > totals[s])
                places[s]++;
    }
}

/* Weng and Lin (2011), Algorithm 1, Bradley-Terry full pairing, for n
 * teams of one: mu[q], sigma[q] are updated in place from their values
 * before the game and the ranks (1 best, equal ranks a tie). */
static void weng_lin(int n, double *mu, double *sigma, const int *rank)
{
    const double beta = (25.0 / 3.0) / 2.0, kappa = 0.0001;
    double new_mu[8], new_sigma[8];
    for (int q = 0; q < n; q++) {
        double big_omega = 0, big_delta = 0;
        for (int i = 0; i < n; i++) {
            if (i == q)
                continue;
            double c_iq = sqrt(sigma[i] * sigma[i] + sigma[q] * sigma[q] + 2 * beta * beta);
            double e_q = exp(mu[q] / c_iq), e_i = exp(mu[i] / c_iq);
            double p_qi = e_q / (e_q + e_i); /* q beats i */
            double p_iq = e_i / (e_q + e_i);
            double s = rank[q] < rank[i] ? 1.0 : rank[q] == rank[i] ? 0.5 : 0.0;
            double gamma_q = sigma[q] / c_iq;
            big_omega += sigma[q] * sigma[q] / c_iq * (s - p_qi);
            big_delta += gamma_q * sigma[q] * sigma[q] / (c_iq * c_iq) * p_qi * p_iq;
        }
        new_mu[q] = mu[q] + big_omega;
        new_sigma[q] = sqrt(sigma[q] * sigma[q] * fmax(1.0 - big_delta, kappa));
    }
    for (int q = 0; q < n; q++) {
        mu[q] = new_mu[q];
        sigma[q] = new_sigma[q];
    }
}

/* Worked by hand for a game of four from the prior (mu 25, sigma 25/3,
 * beta 25/6): every c_iq = sqrt(2 (25/3)^2 + 2 (25/6)^2) = 25 sqrt(10) / 6
 * = 13.176157; every p = 1/2; sigma^2 / c = 150 / (9 sqrt(10)) = 5.270463,
 * so each opponent beaten adds 5.270463 x 1/2 = 2.635231 to mu, each one
 * that beat the player takes as much, a tie nothing: places 1, 2, 3, 4
 * give mu 32.905694, 27.635231, 22.364769, 17.094306, and 1, 2, 2, 4 give
 * 32.905694, 25, 25, 17.094306.  gamma = sigma / c = 2 / sqrt(10) =
 * 0.632456 and sigma^2 / c^2 = 0.4, so Delta = 3 x 0.632456 x 0.4 x 1/4 =
 * 0.189737 and every sigma becomes (25/3) sqrt(1 - 0.189737) = 7.501219. */
static void hand_check(const int places[4], const double mu[4], const double sigma[4],
                       const char *what)
{
    for (int k = 0; k < 4; k++) {
        int beaten = 0, beaten_by = 0;
        for (int j = 0; j < 4; j++) {
            beaten += places[k] < places[j];
            beaten_by += places[j] < places[k];
        }
        double hand_mu = 25.0 + 2.635231 * (beaten - beaten_by);
        CHECK(fabs(mu[k] - hand_mu) < 5e-6 && fabs(sigma[k] - 7.501219) < 5e-6,
              "%s: place %d from the prior: mu %.6f sigma %.6f as worked by hand (%.6f, "
              "7.501219)",
              what, places[k], mu[k], sigma[k], hand_mu);
    }
}

/* Credit: who takes what of each seat, and each seat's rated person. */
static void credit(game *g)
{
    g->n_rows = 0;
    for (int seat = 0; seat < 4; seat++) {
        int first = g->n_rows;
        g->rows[g->n_rows++] = (row){.seat = seat, .who = g->record[seat]};
        for (int d = 0; d < g->n_deals; d++) {
            int who = g->holder[d][seat], k = first;
            while (k < g->n_rows && g->rows[k].who != who)
                k++;
            if (k == g->n_rows)
                g->rows[g->n_rows++] = (row){.seat = seat, .who = who};
            g->rows[k].deals++;
            if (g->by_deals) {
                g->rows[k].credited = true;
                g->rows[k].points += g->points[d][seat];
            }
        }
        if (!g->by_deals) {
            g->rows[first].credited = true;
            g->rows[first].points = g->totals[seat];
        }
        /* The rated person: the player of record, or who finished most
         * deals there (the earlier on a tie). */
        int best = first;
        if (g->by_deals)
            for (int k = first + 1; k < g->n_rows; k++)
                if (g->rows[k].deals > g->rows[best].deals)
                    best = k;
        g->participant[seat] = g->rows[best].who;
    }
}

/* What the game changes in the model: results, ladder, ratings. */
static void account(game *g)
{
    places_of(g->totals, g->places);
    credit(g);
    bool seen[N_RATED] = {0};
    int best[N_RATED];
    for (int i = 0; i < N_RATED; i++)
        best[i] = 0;
    for (int k = 0; k < g->n_rows; k++) {
        row *r = &g->rows[k];
        person *p = &people[r->who];
        if (!seen[r->who]) {
            p->games++;
            p->over++;
            seen[r->who] = true;
        }
        if (!r->credited)
            continue;
        p->total += r->points;
        int place = g->places[r->seat];
        if (best[r->who] == 0 || place < best[r->who])
            best[r->who] = place;
        if (g->ladder && r->who != EASY) {
            p->ladder_games++;
            p->ladder_total += r->points;
        }
    }
    for (int i = 0; i < N_RATED; i++)
        if (best[i])
            people[i].places[best[i]]++;
    if (!g->rated)
        return;
    double mu[4], sigma[4];
    bool from_prior = true;
    for (int s = 0; s < 4; s++) {
        person *p = &people[g->participant[s]];
        mu[s] = p->mu;
        sigma[s] = p->sigma;
        g->before[s] = mu[s] - 3 * sigma[s];
        from_prior = from_prior && p->rated == 0;
    }
    weng_lin(4, mu, sigma, g->places);
    if (from_prior)
        hand_check(g->places, mu, sigma, g->what);
    for (int s = 0; s < 4; s++) {
        person *p = &people[g->participant[s]];
        p->mu = mu[s];
        p->sigma = sigma[s];
        p->rated++;
        g->after[s] = mu[s] - 3 * sigma[s];
        g->mu_after[s] = mu[s];
        g->sigma_after[s] = sigma[s];
    }
}

/* ------------------------------------------------------------ playing */

static int halt_group;

static bool at_second_deal(const e2e_client *mover, void *ctx)
{
    (void)ctx;
    return mover->group == halt_group && e2e_view_int(mover->view, "deal") >= 1;
}

static void seat_client(e2e_client *c, int table, int seat, int group)
{
    e2e_sit(c, table, seat);
    c->autoplay = true;
    c->group = group;
}

/* Back to the lobby, ready for another table. */
static void leave(e2e_client *c)
{
    e2e_send(c, json_pack("{s:s}", "type", "leave"));
    json_decref(e2e_expect(c, "lobby", 5000));
    /* What the old table sent is no answer to the next sit. */
    e2e_clear(c);
    c->autoplay = false;
    c->seat = -1;
    c->table = 0;
    json_decref(c->view);
    c->view = NULL;
    c->at = c->acted_at = -1;
}

/* The last name of a deal's "players" entry ("Dan then Eve": Eve). */
static const char *last_holder(const char *text)
{
    const char *p, *last = text;
    while ((p = strstr(last, " then ")) != NULL)
        last = p + 6;
    return last;
}

static void play(game *g)
{
    e2e_client *creator = people[g->record[0]].c;
    json_t *extra = json_pack("{s:s, s:s, s:i}", "house", HOUSE, "sit", "N", "delay", 0);
    if (g->ladder)
        json_object_set_new(extra, "ladder", json_true());
    if (g->rated)
        json_object_set_new(extra, "rated", json_true());
    if (!g->ladder)
        json_object_set_new(extra, "credit", json_string(g->by_deals ? "deals" : "record"));
    int bots = 0;
    for (int s = 1; s < 4; s++)
        if (g->record[s] == EASY) {
            char name[2] = {SEAT_NAMES[s], 0};
            if (!bots++)
                json_object_set_new(extra, "bots", json_array());
            json_array_append_new(json_object_get(extra, "bots"), json_string(name));
            json_object_set_new(extra, "level", json_string("easy"));
        }
    g->table = e2e_create(creator, "uk-32", extra);
    int group = e2e_new_group();
    creator->autoplay = true;
    creator->group = group;
    for (int s = 1; s < 4; s++)
        if (g->record[s] != EASY)
            seat_client(people[g->record[s]].c, g->table, s, group);
    if (g->sub >= 0) {
        /* The player of record leaves once the second deal has begun; the
         * substitute takes the seat for the rest. */
        halt_group = group;
        e2e_play(at_second_deal, NULL, 120000);
        e2e_client *gone = people[g->record[g->sub_at]].c;
        leave(gone);
        seat_client(people[g->sub].c, g->table, g->sub_at, group);
        e2e_note("%s: %s left after the first deal; %s sits %c", g->what, gone->name,
                 people[g->sub].name, SEAT_NAMES[g->sub_at]);
    }
    e2e_play(NULL, NULL, 180000);
    REQUIRE(e2e_game_over(creator), "%s: the game is over", g->what);

    /* The score message: every deal's points by seat and the totals. */
    e2e_send(creator, json_pack("{s:s, s:i}", "type", "score", "table", g->table));
    json_t *sc = e2e_expect(creator, "score", 5000);
    REQUIRE(sc != NULL, "%s: the score message", g->what);
    json_t *deals = json_object_get(sc, "deals");
    g->n_deals = (int)json_array_size(deals);
    CHECK(g->n_deals == N_DEALS, "%s: %d deals played (got %d)", g->what, N_DEALS, g->n_deals);
    if (g->n_deals > N_DEALS)
        g->n_deals = N_DEALS;
    long sum[4] = {0};
    for (int d = 0; d < g->n_deals; d++) {
        json_t *deal = json_array_get(deals, (size_t)d);
        json_t *score = json_object_get(deal, "score");
        json_t *who = json_object_get(deal, "players");
        for (int s = 0; s < 4; s++) {
            g->points[d][s] = (long)json_integer_value(json_array_get(score, (size_t)s));
            sum[s] += g->points[d][s];
            int holder = g->record[s];
            if (g->sub >= 0 && s == g->sub_at && d >= 1)
                holder = g->sub;
            g->holder[d][s] = holder;
            /* The server's own note of who played agrees with ours. */
            char seat[2] = {SEAT_NAMES[s], 0};
            const char *text = json_string_value(json_object_get(who, seat));
            const char *want = holder == EASY ? "computer (easy)" : people[holder].name;
            if (text == NULL || strcmp(last_holder(text), want) != 0)
                CHECK(false, "%s: deal %d, seat %s ended with %s (the score says %s)", g->what, d,
                      seat, want, text ? text : "nothing");
        }
    }
    json_t *totals = json_object_get(sc, "totals");
    for (int s = 0; s < 4; s++) {
        g->totals[s] = (long)json_integer_value(json_array_get(totals, (size_t)s));
        CHECK(g->totals[s] == sum[s], "%s: seat %c's total %ld is the sum of its deals", g->what,
              SEAT_NAMES[s], g->totals[s]);
    }
    json_decref(sc);
    for (int s = 0; s < 4; s++)
        if (g->record[s] != EASY && !(g->sub >= 0 && s == g->sub_at))
            leave(people[g->record[s]].c);
    if (g->sub >= 0)
        leave(people[g->sub].c);
    account(g);
    e2e_note("%s (table %d): totals N %ld E %ld S %ld W %ld, places %d %d %d %d", g->what, g->table,
             g->totals[0], g->totals[1], g->totals[2], g->totals[3], g->places[0], g->places[1],
             g->places[2], g->places[3]);
}

/* -------------------------------------------------------- the comparisons */

static bool near(const json_t *v, double want, double tolerance)
{
    return json_is_number(v) && fabs(json_number_value(v) - want) <= tolerance;
}

#define TOL3 0.0006 /* values rounded to 3 decimals */
#define TOL2 0.006  /* to 2 */

static const char *who_name(int who)
{
    return who == EASY ? "computer (easy)" : people[who].name;
}

static void check_game(int port, const game *g)
{
    char path[96];
    snprintf(path, sizeof path, "/club/api/game/%d", g->table);
    json_t *o = cp_get_json(port, path, 200);
    if (o == NULL)
        return;
    const char *status = json_string_value(json_object_get(o, "status"));
    CHECK(status && strcmp(status, "over") == 0, "%s: %s says over", g->what, path);
    CHECK(json_is_true(json_object_get(o, "ladder")) == g->ladder &&
              json_is_true(json_object_get(o, "rated")) == g->rated,
          "%s: ladder %d, rated %d", g->what, g->ladder, g->rated);
    const char *credit_word = json_string_value(json_object_get(o, "credit"));
    CHECK(credit_word && strcmp(credit_word, g->by_deals ? "deals" : "record") == 0,
          "%s: credit %s (got %s)", g->what, g->by_deals ? "deals" : "record",
          credit_word ? credit_word : "nothing");
    CHECK(json_integer_value(json_object_get(o, "n_deals")) == g->n_deals, "%s: n_deals %d",
          g->what, g->n_deals);
    json_t *totals = json_object_get(o, "totals");
    for (int s = 0; s < 4; s++) {
        char seat[2] = {SEAT_NAMES[s], 0};
        CHECK(json_integer_value(json_object_get(totals, seat)) == g->totals[s],
              "%s: total of %s is %ld", g->what, seat, g->totals[s]);
    }
    json_t *players = json_object_get(o, "players");
    CHECK(json_array_size(players) == (size_t)g->n_rows, "%s: %d players listed (got %zu)", g->what,
          g->n_rows, json_array_size(players));
    for (int k = 0; k < g->n_rows; k++) {
        const row *r = &g->rows[k];
        char seat[2] = {SEAT_NAMES[r->seat], 0};
        json_t *p = NULL, *v;
        size_t i;
        json_array_foreach(players, i, v)
        {
            const char *vs = json_string_value(json_object_get(v, "seat"));
            const char *vn = json_string_value(json_object_get(v, "name"));
            bool computer = r->who == EASY && vn && strstr(vn, "easy") != NULL;
            if (vs && strcmp(vs, seat) == 0 && vn &&
                (computer || strcmp(vn, people[r->who].name) == 0))
                p = v;
        }
        if (!CHECK(p != NULL, "%s: %s at %s is listed", g->what, who_name(r->who), seat))
            continue;
        CHECK(json_is_true(json_object_get(p, "credited")) == r->credited &&
                  json_integer_value(json_object_get(p, "points")) == r->points &&
                  json_integer_value(json_object_get(p, "deals")) == r->deals,
              "%s: %s at %s: credited %d, %ld points, %d deals (got %d, %lld, %lld)", g->what,
              who_name(r->who), seat, r->credited, r->points, r->deals,
              json_is_true(json_object_get(p, "credited")),
              (long long)json_integer_value(json_object_get(p, "points")),
              (long long)json_integer_value(json_object_get(p, "deals")));
        if (r->credited)
            CHECK(json_integer_value(json_object_get(p, "place")) == g->places[r->seat],
                  "%s: %s's place is %d", g->what, who_name(r->who), g->places[r->seat]);
        json_t *rating = json_object_get(p, "rating");
        bool rated_here = g->rated && g->participant[r->seat] == r->who;
        if (rated_here)
            CHECK(near(json_object_get(rating, "before"), g->before[r->seat], TOL3) &&
                      near(json_object_get(rating, "after"), g->after[r->seat], TOL3),
                  "%s: %s's rating %.3f -> %.3f (got %.3f -> %.3f)", g->what, who_name(r->who),
                  g->before[r->seat], g->after[r->seat],
                  json_number_value(json_object_get(rating, "before")),
                  json_number_value(json_object_get(rating, "after")));
        else
            CHECK(rating == NULL || json_is_null(rating), "%s: %s's rating is not changed here",
                  g->what, who_name(r->who));
    }
    json_decref(o);
}

/* Positions in a period's ladder: ranked (games >= MIN_GAMES) by total,
 * equal totals sharing the better position; 0 for an unranked player. */
static void ladder_positions(int pos[N_PEOPLE])
{
    for (int i = 0; i < N_PEOPLE; i++) {
        pos[i] = 0;
        if (people[i].ladder_games < MIN_GAMES)
            continue;
        pos[i] = 1;
        for (int j = 0; j < N_PEOPLE; j++)
            if (people[j].ladder_games >= MIN_GAMES &&
                people[j].ladder_total > people[i].ladder_total)
                pos[i]++;
    }
}

static void check_standing(const json_t *st, const char *period, int who, int pos)
{
    const person *p = &people[who];
    if (p->ladder_games == 0) {
        CHECK(st == NULL || json_is_null(st), "%s is in no ladder of %s", p->name, period);
        return;
    }
    json_t *position = json_object_get(st, "position");
    CHECK(
        st && json_is_object(st) &&
            strcmp(json_string_value(json_object_get(st, "period")) ?: "", period) == 0 &&
            json_integer_value(json_object_get(st, "games")) == p->ladder_games &&
            json_integer_value(json_object_get(st, "total")) == p->ladder_total &&
            near(json_object_get(st, "average"), (double)p->ladder_total / p->ladder_games, TOL2) &&
            (pos ? json_integer_value(position) == pos : json_is_null(position)),
        "%s's standing in %s: %d games, %ld points, position %d", p->name, period, p->ladder_games,
        p->ladder_total, pos);
}

static void check_ladder(int port, const char *period, const char *kind)
{
    char path[96];
    snprintf(path, sizeof path, "/club/api/ladder?period=%s", period);
    json_t *o = cp_get_json(port, path, 200);
    if (o == NULL)
        return;
    CHECK(strcmp(json_string_value(json_object_get(o, "kind")) ?: "", kind) == 0 &&
              json_integer_value(json_object_get(o, "min_games")) == MIN_GAMES,
          "%s: a %s's ladder, min_games %d", path, kind, MIN_GAMES);
    int pos[N_PEOPLE];
    ladder_positions(pos);
    json_t *ranked = json_object_get(o, "ranked"), *unranked = json_object_get(o, "unranked");
    size_t want_ranked = 0, want_unranked = 0;
    for (int i = 0; i < N_PEOPLE; i++) {
        if (people[i].ladder_games == 0)
            continue;
        pos[i] ? want_ranked++ : want_unranked++;
        json_t *list = pos[i] ? ranked : unranked, *found = NULL, *v;
        size_t k;
        json_array_foreach(list, k, v)
        {
            if (strcmp(json_string_value(json_object_get(v, "name")) ?: "", people[i].name) == 0)
                found = v;
        }
        CHECK(found &&
                  json_integer_value(json_object_get(found, "games")) == people[i].ladder_games &&
                  json_integer_value(json_object_get(found, "total")) == people[i].ladder_total &&
                  near(json_object_get(found, "average"),
                       (double)people[i].ladder_total / people[i].ladder_games, TOL2) &&
                  (!pos[i] || json_integer_value(json_object_get(found, "position")) == pos[i]),
              "%s: %s %s with %d games, %ld points, average %.2f%s%d", path, people[i].name,
              pos[i] ? "ranked" : "unranked", people[i].ladder_games, people[i].ladder_total,
              (double)people[i].ladder_total / people[i].ladder_games, pos[i] ? ", position " : "",
              pos[i]);
    }
    CHECK(json_array_size(ranked) == want_ranked && json_array_size(unranked) == want_unranked,
          "%s: %zu ranked and %zu unranked (got %zu and %zu)", path, want_ranked, want_unranked,
          json_array_size(ranked), json_array_size(unranked));
    /* Highest total first. */
    json_int_t last = INT64_MAX;
    size_t k;
    json_t *v;
    bool ordered = true;
    json_array_foreach(ranked, k, v)
    {
        json_int_t t = json_integer_value(json_object_get(v, "total"));
        ordered = ordered && t <= last;
        last = t;
    }
    CHECK(ordered, "%s: the ranked are listed highest total first", path);
    json_decref(o);
}

static void check_rating(const json_t *r, const person *p, const char *path)
{
    CHECK(near(json_object_get(r, "mu"), p->mu, TOL3) &&
              near(json_object_get(r, "sigma"), p->sigma, TOL3) &&
              near(json_object_get(r, "rating"), p->mu - 3 * p->sigma, TOL3) &&
              json_integer_value(json_object_get(r, "games")) == p->rated,
          "%s: rating mu %.3f sigma %.3f shown %.3f after %d games (got %.3f %.3f %.3f, %lld)",
          path, p->mu, p->sigma, p->mu - 3 * p->sigma, p->rated,
          json_number_value(json_object_get(r, "mu")),
          json_number_value(json_object_get(r, "sigma")),
          json_number_value(json_object_get(r, "rating")),
          (long long)json_integer_value(json_object_get(r, "games")));
}

static void check_person(int port, int who, const char *month, const char *year, const game *games)
{
    const person *p = &people[who];
    char path[96];
    snprintf(path, sizeof path, "/club/api/player/%s", p->name);
    json_t *o = cp_get_json(port, path, 200);
    if (o == NULL)
        return;
    check_rating(json_object_get(o, "rating"), p, path);
    json_t *history = json_object_get(o, "history");
    CHECK(json_array_size(history) == (size_t)p->rated, "%s: %d points of rating history", path,
          p->rated);
    /* Each point of the history is the game's and our rating after it. */
    size_t h = 0;
    for (int k = 0; k < N_GAMES; k++) {
        const game *g = &games[k];
        for (int s = 0; g->rated && s < 4; s++) {
            if (g->participant[s] != who)
                continue;
            json_t *pt = json_array_get(history, h++);
            CHECK(json_integer_value(json_object_get(pt, "game")) == g->table &&
                      near(json_object_get(pt, "mu"), g->mu_after[s], TOL3) &&
                      near(json_object_get(pt, "sigma"), g->sigma_after[s], TOL3),
                  "%s: history after %s: mu %.3f sigma %.3f", path, g->what, g->mu_after[s],
                  g->sigma_after[s]);
        }
    }
    json_t *res = json_object_get(o, "results");
    CHECK(json_integer_value(json_object_get(res, "games")) == p->games &&
              json_integer_value(json_object_get(res, "over")) == p->over &&
              json_integer_value(json_object_get(res, "total")) == p->total &&
              near(json_object_get(res, "average"), p->over ? (double)p->total / p->over : 0, TOL2),
          "%s: %d games, %d over, %ld points, average %.2f (got %lld, %lld, %lld, %.2f)", path,
          p->games, p->over, p->total, p->over ? (double)p->total / p->over : 0,
          (long long)json_integer_value(json_object_get(res, "games")),
          (long long)json_integer_value(json_object_get(res, "over")),
          (long long)json_integer_value(json_object_get(res, "total")),
          json_number_value(json_object_get(res, "average")));
    json_t *bp = json_object_get(res, "best_place_count");
    for (int pl = 1; pl <= 4; pl++) {
        char key[2] = {(char)('0' + pl), 0};
        CHECK(json_integer_value(json_object_get(bp, key)) == p->places[pl],
              "%s: place %d %d times", path, pl, p->places[pl]);
    }
    int pos[N_PEOPLE];
    ladder_positions(pos);
    json_t *lad = json_object_get(res, "ladder");
    check_standing(json_object_get(lad, "month"), month, who, pos[who]);
    check_standing(json_object_get(lad, "year"), year, who, pos[who]);
    const char *like = json_string_value(json_object_get(o, "plays_like"));
    CHECK(like && strcmp(like, "easy") == 0,
          "%s: plays like easy, the only computer level rated (got %s)", path,
          like ? like : "null");
    json_decref(o);

    /* The archive of the player's games: each, with the player's points. */
    snprintf(path, sizeof path, "/club/api/games?player=%s", p->name);
    o = cp_get_json(port, path, 200);
    if (o == NULL)
        return;
    CHECK(json_integer_value(json_object_get(o, "total")) == p->games,
          "%s: %d games in the archive", path, p->games);
    json_t *rows = json_object_get(o, "rows");
    for (int k = 0; k < N_GAMES; k++) {
        const game *g = &games[k];
        long points = 0;
        bool in = false, credited = false;
        for (int r = 0; r < g->n_rows; r++)
            if (g->rows[r].who == who) {
                in = true;
                credited = credited || g->rows[r].credited;
                points += g->rows[r].points;
            }
        if (!in)
            continue;
        json_t *found = NULL, *v;
        size_t i;
        json_array_foreach(rows, i, v)
        {
            if (json_integer_value(json_object_get(v, "id")) == g->table)
                found = v;
        }
        if (!CHECK(found != NULL, "%s: lists %s", path, g->what))
            continue;
        long got = 0;
        json_t *pl;
        json_array_foreach(json_object_get(found, "players"), i, pl)
        {
            if (strcmp(json_string_value(json_object_get(pl, "name")) ?: "", p->name) == 0)
                got += (long)json_integer_value(json_object_get(pl, "points"));
        }
        CHECK(got == points, "%s: %s: %ld points (got %ld)%s", path, g->what, points, got,
              credited ? "" : ", a substitute's, credited nothing");
    }
    json_decref(o);
}

/* ---------------------------------------------------------- the scenario */

void club_results(void)
{
    e2e_server srv;
    const char *const args[] = {"--ladder-min-games", "2", NULL};
    e2e_server_start_with(&srv, "results.db", args);
    for (int i = 0; i < N_PEOPLE; i++) {
        people[i].mu = 25.0;
        people[i].sigma = 25.0 / 3.0;
        people[i].c = e2e_client_new(people[i].name, srv.port);
        json_t *w = cp_sign(people[i].c, people[i].name, password_of(i), true, NULL);
        REQUIRE(w && strcmp(cp_code(w), "welcome") == 0, "%s signs up (got %s: %s)", people[i].name,
                cp_code(w), cp_text(w));
        json_decref(w);
    }
    people[EASY].mu = 25.0;
    people[EASY].sigma = 25.0 / 3.0;

    enum { ANN, BEA, CAL, DAN, EVE };
    game games[N_GAMES] = {
        {.what = "game 1 (ladder)",
         .ladder = true,
         .rated = true,
         .record = {ANN, BEA, CAL, DAN},
         .sub = -1},
        {.what = "game 2 (ladder)",
         .ladder = true,
         .rated = true,
         .record = {BEA, CAL, EVE, ANN},
         .sub = -1},
        {.what = "game 3 (rated, a computer player)",
         .rated = true,
         .record = {CAL, ANN, BEA, EASY},
         .sub = -1},
        {.what = "game 4 (rated, credit record, a substitute)",
         .rated = true,
         .record = {ANN, DAN, BEA, CAL},
         .sub = EVE,
         .sub_at = 1},
        {.what = "game 5 (rated, credit deals, a substitute)",
         .rated = true,
         .by_deals = true,
         .record = {ANN, DAN, BEA, CAL},
         .sub = EVE,
         .sub_at = 1},
    };
    for (int k = 0; k < N_GAMES; k++) {
        long t0 = e2e_now_ms();
        play(&games[k]);
        e2e_note("%s played in %ld ms", games[k].what, e2e_now_ms() - t0);
    }

    /* The periods of now (UTC): every game ended in them. */
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char month[32], year[32];
    snprintf(month, sizeof month, "%04d-%02d", tm.tm_year + 1900, tm.tm_mon + 1);
    snprintf(year, sizeof year, "%04d", tm.tm_year + 1900);

    for (int k = 0; k < N_GAMES; k++)
        check_game(srv.port, &games[k]);
    check_ladder(srv.port, month, "month");
    check_ladder(srv.port, year, "year");
    for (int i = 0; i < N_PEOPLE; i++)
        check_person(srv.port, i, month, year, games);
    json_t *lv = cp_get_json(srv.port, "/club/api/level/easy", 200);
    if (lv)
        check_rating(json_object_get(lv, "rating"), &people[EASY], "/club/api/level/easy");
    json_decref(lv);

    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");
    for (int i = 0; i < N_PEOPLE; i++)
        e2e_client_free(people[i].c);
}
