/*
 * club_core.c - the club's records of games, end to end (issue 24): games
 * played through a real barbu serve, then the store read after the server
 * stops (store.h's club operations).  club_core BARBU SCENARIO...
 *
 *   finished   a rated game with computer players to its end: its row, its
 *              players, its deals and totals equal to the score message's,
 *              places, ratings and their history; rated tables' refusals
 *   abandoned  a game closed by an administrator before its end is kept
 *              abandoned, with the deals played; a table closed before its
 *              game is no game
 *   restart    a game whose end the club did not keep (its row deleted, or
 *              still running with the table over, or the table's state not
 *              over: a kill between the last action and either) is kept at
 *              the next start
 *   credit     a substitute: credit by record gives the seat's total to its
 *              player of record, credit by deals each deal to who ended it
 *   ladder     four registered players' ladder game: the month's and the
 *              year's ladder, and four ratings
 *
 * Games are short: uk-32 with Domino only (4 deals of 8 cards), computer
 * players without delay.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"
#include "store.h"

#define PASSWORD            "correct horse battery"
/* SRV_CLUB_RETRY of src/server/internal.h: seconds between tries. */
#define SRV_CLUB_RETRY_TEST 10
/* Four deals of Domino with the 32-card pack, scores summing to zero. */
#define SHORT_HOUSE                                                                                \
    "doubling = no\nmandatory-doubles = 0\nno-tricks.per-player = 0\n"                             \
    "no-hearts.per-player = 0\nno-queens.per-player = 0\nno-king.per-player = 0\n"                 \
    "no-last-two.per-player = 0\ntrumps.per-player = 0\ndomino.places = 30 10 -10 -30\n"

static const char SEATS[] = "NESW";
static int next_id = 9000;

static const char *str_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static e2e_client *account(const char *name, int port, const char *source, bool sign_up)
{
    e2e_client *c = e2e_client_new_from(name, port, source);
    snprintf(c->name, sizeof c->name, "%s", name);
    json_t *m = json_pack("{s:s, s:i, s:s, s:s, s:i}", "type", "hello", "version", 1, "name", name,
                          "password", PASSWORD, "id", next_id++);
    if (sign_up)
        json_object_set_new(m, "register", json_true());
    e2e_send(c, m);
    json_t *w = e2e_expect(c, "welcome", 10000);
    REQUIRE(w != NULL, "%s: %s: a welcome", name, sign_up ? "sign up" : "sign in");
    CHECK(json_is_true(json_object_get(w, "registered")), "%s: welcome says registered", name);
    snprintf(c->token, sizeof c->token, "%s", str_of(w, "token"));
    json_decref(w);
    json_decref(e2e_expect(c, "lobby", 5000));
    return c;
}

static e2e_client *guest(const char *name, int port, const char *source)
{
    e2e_client *c = e2e_client_new_from(name, port, source);
    e2e_hello(c, name);
    return c;
}

static void refused(e2e_client *c, const char *code, const char *re, const char *word,
                    const char *what)
{
    json_t *e = e2e_expect_error(c, code, re, 5000);
    CHECK(e != NULL, "%s: %s is refused with %s", c->label, what, code);
    if (e && word)
        CHECK(strstr(str_of(e, "text"), word) != NULL, "%s: the refusal of %s says \"%s\": %s",
              c->label, what, word, str_of(e, "text"));
    json_decref(e);
}

/* Stops the server: it exits cleanly (under the sanitizers, with no
 * report). */
static void stop(e2e_server *srv)
{
    int rc = e2e_server_stop(srv);
    CHECK(rc == 0, "the server stops with status 0 (%d; its log: %s)", rc, srv->err);
}

/* A short table: extra fields merged in. */
static int create_short(e2e_client *c, json_t *extra)
{
    json_t *f = json_pack("{s:s, s:i, s:s}", "house", SHORT_HOUSE, "delay", 0, "level", "easy");
    json_object_update(f, extra);
    json_decref(extra);
    return e2e_create(c, "uk-32", f);
}

/* The score message of a table. */
static json_t *score_of(e2e_client *c, int table)
{
    e2e_clear(c);
    e2e_send(c, json_pack("{s:s, s:i}", "type", "score", "table", table));
    json_t *s = e2e_expect(c, "score", 5000);
    REQUIRE(s != NULL, "%s: the score of table %d comes", c->label, table);
    return s;
}

/* ------------------------------------------------------- the store */

typedef struct seen {
    bool found;
    store_game g;
    char preset[16];
    char *deals;
    int n;
    store_game_player p[16];
    char names[16][48], keys[16][48], levels[16][16];
} seen;

static void on_game(void *ctx, const store_game *g)
{
    seen *v = ctx;
    v->found = true;
    v->g = *g;
    snprintf(v->preset, sizeof v->preset, "%s", g->preset);
    v->deals = strdup(g->deals);
    v->n = g->n_players < 16 ? g->n_players : 16;
    for (int k = 0; k < v->n; k++) {
        v->p[k] = g->players[k];
        snprintf(v->names[k], sizeof v->names[k], "%s", g->players[k].name);
        snprintf(v->keys[k], sizeof v->keys[k], "%s", g->players[k].key ? g->players[k].key : "");
        snprintf(v->levels[k], sizeof v->levels[k], "%s",
                 g->players[k].level ? g->players[k].level : "");
    }
}

static store *open_store(const char *db)
{
    char err[256];
    store *s = store_sqlite_open(db, err, sizeof err);
    REQUIRE(s != NULL, "open %s: %s", db, err);
    return s;
}

static seen game_of(store *s, int table)
{
    seen v;
    memset(&v, 0, sizeof v);
    int found = s->ops->game_get(s, table, on_game, &v);
    REQUIRE(found >= 0, "game_get %d: %s", table, store_error(s));
    return v;
}

/* The row of a person at a seat, or -1. */
static int row_of(const seen *v, int seat, const char *name)
{
    for (int k = 0; k < v->n; k++)
        if (v->p[k].seat == seat && strcmp(v->names[k], name) == 0)
            return k;
    return -1;
}

typedef struct rating_seen {
    bool found;
    double mu, sigma;
    int games;
    int points;
} rating_seen;

static void on_rating(void *ctx, const store_rating *r)
{
    rating_seen *v = ctx;
    v->found = true;
    v->mu = r->mu;
    v->sigma = r->sigma;
    v->games = r->games;
}

static void on_point(void *ctx, const store_rating_point *p)
{
    (void)p;
    ((rating_seen *)ctx)->points++;
}

static rating_seen rating_of(store *s, const char *id)
{
    rating_seen v = {0};
    REQUIRE(s->ops->rating_get(s, id, on_rating, &v) >= 0, "rating_get: %s", store_error(s));
    REQUIRE(s->ops->rating_history_load(s, id, on_point, &v) == 0, "history: %s", store_error(s));
    return v;
}

/* The store's row agrees with the score message: its deals are the score's
 * deals, its totals their sums and the score's totals. */
static void check_against_score(const seen *v, const json_t *score, const char *what)
{
    json_t *deals = json_object_get(score, "deals");
    json_error_t jerr;
    json_t *kept = json_loads(v->deals ? v->deals : "", 0, &jerr);
    CHECK(kept && json_equal(kept, deals), "%s: the kept deals are the score message's deals",
          what);
    int32_t sum[4] = {0};
    size_t i;
    json_t *d;
    json_array_foreach(deals, i, d)
    {
        for (int k = 0; k < 4; k++)
            sum[k] += (int32_t)json_integer_value(json_array_get(json_object_get(d, "score"), k));
    }
    json_t *totals = json_object_get(score, "totals");
    for (int k = 0; k < 4; k++)
        CHECK(v->g.totals[k] == sum[k] &&
                  v->g.totals[k] == (int32_t)json_integer_value(json_array_get(totals, k)),
              "%s: the total of %c (%d) is the sum of the deals' points (%d) and the score's", what,
              SEATS[k], v->g.totals[k], sum[k]);
    CHECK(v->g.n_deals == (int)json_array_size(deals), "%s: %d deals kept, %zu in the score", what,
          v->g.n_deals, json_array_size(deals));
    json_decref(kept);
}

/* ---------------------------------------------------------- finished */

static void club_finished(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "club_finished.db");
    e2e_client *gus = guest("gus", srv.port, "127.0.0.2");
    e2e_client *alice = account("alice", srv.port, "127.0.0.3", true);

    /* Rated tables: registered persons only, computer players welcome, no seed. */
    e2e_send(gus, json_pack("{s:s, s:s, s:b}", "type", "create", "rules", "uk-32", "rated", 1));
    refused(gus, "rated", "create", "registered", "a guest's rated table");
    e2e_send(alice, json_pack("{s:s, s:s, s:b, s:s}", "type", "create", "rules", "uk-32", "rated",
                              1, "seed", "42"));
    refused(alice, "rated", "create", "seed", "a rated table with a seed");
    e2e_send(alice,
             json_pack("{s:s, s:s, s:s}", "type", "create", "rules", "uk-32", "credit", "nobody"));
    refused(alice, "bad_value", "create", "deals", "an unknown credit");

    int table = create_short(
        alice, json_pack("{s:b, s:s, s:[s,s]}", "rated", 1, "sit", "N", "bots", "E", "S"));
    json_t *t = e2e_expect(alice, "table", 5000);
    CHECK(t && json_is_true(json_object_get(t, "rated")) &&
              strcmp(str_of(t, "credit"), "record") == 0,
          "the table message says rated, credit record");
    json_decref(t);
    e2e_send(gus, json_pack("{s:s, s:i, s:s}", "type", "sit", "table", table, "seat", "W"));
    refused(gus, "rated", "sit", "registered", "a guest at a rated table");
    /* A computer player takes West: the game starts. */
    e2e_send(alice, json_pack("{s:s, s:s, s:s}", "type", "bot", "seat", "W", "level", "easy"));
    alice->autoplay = true;
    alice->group = e2e_new_group();
    e2e_play(NULL, NULL, 120000);
    REQUIRE(e2e_game_over(alice), "the game is over");
    json_t *score = score_of(alice, table);
    e2e_client_free(alice);
    e2e_client_free(gus);
    stop(&srv);

    store *s = open_store(srv.db);
    seen v = game_of(s, table);
    REQUIRE(v.found, "the finished game has its row");
    CHECK(v.g.status == STORE_GAME_OVER, "its status is over (%d)", v.g.status);
    CHECK(strcmp(v.preset, "uk-32") == 0 && v.g.house && v.g.rated && !v.g.ladder &&
              v.g.credit == STORE_CREDIT_RECORD,
          "its rule set uk-32 with house rules, rated, no ladder, credit record");
    CHECK(v.g.started > 0 && v.g.finished >= v.g.started, "started %lld, finished %lld",
          (long long)v.g.started, (long long)v.g.finished);
    CHECK(v.g.n_deals == 4, "four deals were played (%d)", v.g.n_deals);
    check_against_score(&v, score, "finished");
    CHECK(v.n == 4, "four players (%d)", v.n);
    int a = row_of(&v, 0, "alice");
    CHECK(a >= 0 && v.p[a].kind == STORE_PERSON_REGISTERED && strcmp(v.keys[a], "alice") == 0 &&
              v.p[a].credited && v.p[a].points == v.g.totals[0] && v.p[a].deals == 4,
          "alice at North: registered, key alice, credited North's total, 4 deals");
    for (int k = 1; k < 4; k++) {
        int r = -1;
        for (int i = 0; i < v.n; i++)
            if (v.p[i].seat == k)
                r = i;
        CHECK(r >= 0 && v.p[r].kind == STORE_PERSON_COMPUTER && strcmp(v.levels[r], "easy") == 0 &&
                  v.p[r].points == v.g.totals[k],
              "the computer player at %c: level easy, credited its total", SEATS[k]);
    }
    for (int i = 0; i < v.n; i++) {
        int better = 0;
        for (int k = 0; k < 4; k++)
            better += v.g.totals[k] > v.g.totals[v.p[i].seat];
        CHECK(v.p[i].place == better + 1, "%s's place %d is 1 + the seats with more (%d)",
              v.names[i], v.p[i].place, better);
    }
    /* Rated: alice and the easy level, one game each, a point of history. */
    rating_seen ra = rating_of(s, "p:alice"), re = rating_of(s, "c:easy");
    CHECK(ra.found && ra.games == 1 && ra.points == 1 && ra.sigma < 25.0 / 3,
          "alice's rating: 1 game, 1 point of history, sigma below the prior (%d, %d, %.3f)",
          ra.games, ra.points, ra.sigma);
    CHECK(re.found && re.games == 1 && re.points == 1, "the easy level's rating: 1 game (%d)",
          re.games);
    /* Who won gained: alice's mu moved the way her place says. */
    int pa = a >= 0 ? v.p[a].place : 0;
    CHECK((pa == 1 && ra.mu > 25) || (pa == 4 && ra.mu < 25) || (pa == 2 || pa == 3),
          "alice at place %d has mu %.3f", pa, ra.mu);
    free(v.deals);
    json_decref(score);
    store_close(s);
}

/* --------------------------------------------------------- abandoned */

static bool stop_at_deal(const e2e_client *mover, void *ctx)
{
    return mover->view && e2e_view_int(mover->view, "deal") >= *(const long *)ctx;
}

static void club_abandoned(void)
{
    e2e_server srv;
    const char *const admin[] = {"--admin", "root", NULL};
    e2e_server_start_with(&srv, "club_abandoned.db", admin);
    e2e_client *root = account("root", srv.port, "127.0.0.2", true);
    e2e_client *alice = account("alice", srv.port, "127.0.0.3", true);
    /* Closed by its creator before its game: no game. */
    int waiting = create_short(alice, json_pack("{s:s}", "sit", "N"));
    e2e_send(alice, json_pack("{s:s, s:i}", "type", "close", "table", waiting));
    json_decref(e2e_expect(alice, "lobby", 5000));

    int table =
        create_short(alice, json_pack("{s:s, s:[s,s,s]}", "sit", "N", "bots", "E", "S", "W"));
    alice->autoplay = true;
    alice->group = e2e_new_group();
    long deal = 2;
    e2e_play(stop_at_deal, &deal, 90000);
    REQUIRE(e2e_halted_in[alice->group] != NULL, "the third deal starts");
    json_t *score = score_of(alice, table);
    e2e_send(root,
             json_pack("{s:s, s:i, s:s}", "type", "mod_close", "table", table, "text", "testing"));
    json_t *done = e2e_expect(root, "done", 5000);
    CHECK(done != NULL, "the administrator closes the table");
    json_decref(done);
    e2e_pump(300);
    e2e_client_free(alice);
    e2e_client_free(root);
    stop(&srv);

    store *s = open_store(srv.db);
    CHECK(s->ops->game_status(s, waiting) == -2, "a table closed before its game is no game");
    seen v = game_of(s, table);
    REQUIRE(v.found, "the closed game has its row");
    CHECK(v.g.status == STORE_GAME_ABANDONED, "its status is abandoned (%d)", v.g.status);
    CHECK(v.g.n_deals == 2, "the two deals played are kept (%d)", v.g.n_deals);
    check_against_score(&v, score, "abandoned");
    CHECK(v.g.finished >= v.g.started && v.g.started > 0, "it has its times");
    rating_seen ra = rating_of(s, "p:alice");
    CHECK(!ra.found, "an abandoned game rates nobody (and this one was not rated)");
    free(v.deals);
    json_decref(score);
    store_close(s);
}

/* ----------------------------------------------------------- restart */

static void sql(const char *db, const char *text)
{
    sqlite3 *h = NULL;
    REQUIRE(sqlite3_open(db, &h) == SQLITE_OK, "open %s", db);
    char *err = NULL;
    REQUIRE(sqlite3_exec(h, text, NULL, NULL, &err) == SQLITE_OK, "%s: %s", text, err ? err : "?");
    sqlite3_close(h);
}

static int play_one(int port, const char *name, const char *source, json_t **score)
{
    e2e_client *p = account(name, port, source, true);
    int table = create_short(
        p, json_pack("{s:s, s:b, s:[s,s,s]}", "sit", "N", "rated", 1, "bots", "E", "S", "W"));
    p->autoplay = true;
    p->group = e2e_new_group();
    e2e_play(NULL, NULL, 120000);
    REQUIRE(e2e_game_over(p), "%s's game is over", name);
    *score = score_of(p, table);
    e2e_client_free(p);
    return table;
}

static void club_restart(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "club_restart.db");
    json_t *score[3];
    int table[3];
    table[0] = play_one(srv.port, "alice", "127.0.0.2", &score[0]);
    table[1] = play_one(srv.port, "bob", "127.0.0.3", &score[1]);
    table[2] = play_one(srv.port, "carol", "127.0.0.4", &score[2]);
    stop(&srv);

    /* As after kills at the worst moments: game 1's end never reached the
     * club (its row is running, its table over); game 2's row is gone;
     * game 3's last action is stored but neither its table's state nor the
     * club heard of the end.  The players' ratings are undone with them, as
     * game_end's transaction would have been. */
    char text[1024];
    snprintf(text, sizeof text,
             "UPDATE games SET status = 0, finished = 0, n_deals = 0 WHERE id = %d;"
             "UPDATE game_deals SET deals = '[]' WHERE game = %d;"
             "DELETE FROM game_players WHERE game = %d;"
             "DELETE FROM game_deals WHERE game = %d;"
             "DELETE FROM games WHERE id = %d;"
             "UPDATE games SET status = 0, finished = 0, n_deals = 0 WHERE id = %d;"
             "UPDATE game_deals SET deals = '[]' WHERE game = %d;"
             "UPDATE tables SET state = 1 WHERE id = %d;"
             "DELETE FROM ratings WHERE id IN ('p:alice', 'p:bob', 'p:carol');"
             "DELETE FROM rating_history WHERE id IN ('p:alice', 'p:bob', 'p:carol');",
             table[0], table[0], table[1], table[1], table[1], table[2], table[2], table[2]);
    sql(srv.db, text);
    store *s = open_store(srv.db);
    CHECK(s->ops->game_status(s, table[0]) == STORE_GAME_RUNNING &&
              s->ops->game_status(s, table[1]) == -2 &&
              s->ops->game_status(s, table[2]) == STORE_GAME_RUNNING,
          "before the restart: running, missing, running");
    store_close(s);

    e2e_server_start(&srv, "club_restart.db");
    e2e_client *x = guest("xavier", srv.port, "127.0.0.5");
    e2e_client_free(x);
    stop(&srv);

    s = open_store(srv.db);
    const char *who[3] = {"alice", "bob", "carol"};
    for (int i = 0; i < 3; i++) {
        seen v = game_of(s, table[i]);
        char what[64];
        snprintf(what, sizeof what, "game %d caught up", i + 1);
        REQUIRE(v.found, "%s: its row is there", what);
        CHECK(v.g.status == STORE_GAME_OVER, "%s: over (%d)", what, v.g.status);
        check_against_score(&v, score[i], what);
        int r = row_of(&v, 0, who[i]);
        CHECK(r >= 0 && v.p[r].points == v.g.totals[0], "%s: %s credited North's total", what,
              who[i]);
        free(v.deals);
        json_decref(score[i]);
    }
    rating_seen ra = rating_of(s, "p:alice"), rc = rating_of(s, "p:carol");
    CHECK(ra.found && ra.games == 1 && ra.points == 1 && rc.found && rc.games == 1 &&
              rc.points == 1,
          "the ratings of the caught-up games are kept again, once each");
    rating_seen rb = rating_of(s, "p:bob");
    CHECK(rb.found && rb.games == 1 && rb.points == 1, "bob's game, kept once, rated once");
    store_close(s);

    /* A second restart changes nothing more. */
    e2e_server_start(&srv, "club_restart.db");
    stop(&srv);
    s = open_store(srv.db);
    ra = rating_of(s, "p:alice");
    CHECK(ra.games == 1 && ra.points == 1, "a second restart rates nobody again");
    store_close(s);
}

/* ------------------------------------------------------------- retry */

/* The store refuses the club's end of a game (as a full disk would, here a
 * trigger the test adds): the game stays running in the club, its rating
 * unchanged, until the store takes it again; then the server keeps it by
 * itself, dated by the game's end, not by the retry. */
static void club_retry(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "club_retry.db");
    sql(srv.db, "CREATE TRIGGER club_refuses BEFORE UPDATE ON games WHEN NEW.status <> 0 "
                "BEGIN SELECT RAISE(ABORT, 'the test refuses the end of a game'); END;");
    json_t *score = NULL;
    int table = play_one(srv.port, "dora", "127.0.0.3", &score);
    int64_t over_at = (int64_t)time(NULL);
    char err[256];
    store *s = store_sqlite_open_reader(srv.db, err, sizeof err);
    REQUIRE(s != NULL, "the reader: %s", err);
    CHECK(s->ops->game_status(s, table) == STORE_GAME_RUNNING,
          "the end refused: the club still has the game running");
    rating_seen r = rating_of(s, "p:dora");
    CHECK(!r.found, "no rating for dora while the end is refused");
    store_close(s);

    sleep(2);
    sql(srv.db, "DROP TRIGGER club_refuses;");
    int status = -1;
    for (int i = 0; i < 4 * (SRV_CLUB_RETRY_TEST + 5) && status != STORE_GAME_OVER; i++) {
        nanosleep(&(struct timespec){0, 250000000}, NULL);
        s = store_sqlite_open_reader(srv.db, err, sizeof err);
        REQUIRE(s != NULL, "the reader: %s", err);
        status = s->ops->game_status(s, table);
        store_close(s);
    }
    CHECK(status == STORE_GAME_OVER,
          "once the store takes it, the game is kept by the server "
          "itself (%d)",
          status);
    s = store_sqlite_open_reader(srv.db, err, sizeof err);
    REQUIRE(s != NULL, "the reader: %s", err);
    seen v = game_of(s, table);
    REQUIRE(v.found, "the game's row");
    check_against_score(&v, score, "the game kept at the retry");
    CHECK(v.g.finished >= over_at - 5 && v.g.finished <= over_at + 1,
          "dated by its end (%lld), not by the retry (the game ended at %lld)",
          (long long)v.g.finished, (long long)over_at);
    r = rating_of(s, "p:dora");
    CHECK(r.found && r.games == 1 && r.points == 1, "dora rated once (%d games, %d points)",
          r.games, r.points);
    free(v.deals);
    json_decref(score);
    store_close(s);
    stop(&srv);
}

/* ------------------------------------------------------------ credit */

static bool stop_at_action(const e2e_client *mover, void *ctx)
{
    return mover->at >= *(const long *)ctx;
}

/* alice N, bob E, computer players S and W; bob plays the first deal,
 * stands up early in the second (a computer player keeps East at once),
 * and carol takes East for the rest.  Returns the table. */
static int substitute_game(e2e_server *srv, const char *credit, json_t **score)
{
    char db[64];
    snprintf(db, sizeof db, "club_credit_%s.db", credit);
    e2e_server_start(srv, db);
    e2e_client *alice = account("alice", srv->port, "127.0.0.2", true);
    e2e_client *bob = account("bob", srv->port, "127.0.0.3", true);
    e2e_client *carol = account("carol", srv->port, "127.0.0.4", true);
    int table =
        create_short(alice, json_pack("{s:s, s:b, s:s, s:s, s:[s,s]}", "sit", "N", "rated", 1,
                                      "credit", credit, "takeover", "bot", "bots", "S", "W"));
    e2e_sit(bob, table, 1);
    int group = e2e_new_group();
    alice->group = bob->group = carol->group = group;
    alice->autoplay = bob->autoplay = true;
    long deal = 1;
    e2e_play(stop_at_deal, &deal, 90000);
    REQUIRE(e2e_halted_in[group] != NULL, "the second deal starts");
    long at = alice->at + 3;
    e2e_play(stop_at_action, &at, 60000);
    bob->autoplay = false;
    e2e_send(bob, json_pack("{s:s}", "type", "leave"));
    json_decref(e2e_expect(bob, "lobby", 5000));
    e2e_pump(300);
    e2e_sit(carol, table, 1);
    carol->autoplay = true;
    e2e_play(NULL, NULL, 120000);
    REQUIRE(e2e_game_over(alice), "the game is over");
    *score = score_of(alice, table);
    e2e_client_free(alice);
    e2e_client_free(bob);
    e2e_client_free(carol);
    stop(srv);
    return table;
}

static int32_t east_of(const json_t *score, int from, int to)
{
    int32_t sum = 0;
    for (int d = from; d < to; d++)
        sum += (int32_t)json_integer_value(json_array_get(
            json_object_get(json_array_get(json_object_get(score, "deals"), d), "score"), 1));
    return sum;
}

static void club_credit(void)
{
    e2e_server srv;
    json_t *score;
    int table = substitute_game(&srv, "record", &score);
    store *s = open_store(srv.db);
    seen v = game_of(s, table);
    REQUIRE(v.found && v.g.status == STORE_GAME_OVER, "the game with a substitute is over");
    check_against_score(&v, score, "credit record");
    int b = row_of(&v, 1, "bob"), c = row_of(&v, 1, "carol");
    CHECK(b >= 0 && c > b, "East lists bob, then carol");
    CHECK(b >= 0 && v.p[b].credited && v.p[b].points == v.g.totals[1] && v.p[b].deals == 1,
          "by record bob takes East's whole total %d (%d) and played 1 deal (%d)", v.g.totals[1],
          b >= 0 ? v.p[b].points : 0, b >= 0 ? v.p[b].deals : 0);
    CHECK(c >= 0 && !v.p[c].credited && v.p[c].points == 0 && v.p[c].deals == 3,
          "by record carol is listed with her 3 deals, credited 0 (%d, %d)",
          c >= 0 ? v.p[c].points : -1, c >= 0 ? v.p[c].deals : -1);
    /* The seat's participant for the ratings is bob, its player of record. */
    rating_seen rb = rating_of(s, "p:bob"), rc = rating_of(s, "p:carol");
    CHECK(rb.found && rb.games == 1 && !rc.found, "by record bob is rated for East, not carol");
    free(v.deals);
    json_decref(score);
    store_close(s);

    table = substitute_game(&srv, "deals", &score);
    s = open_store(srv.db);
    v = game_of(s, table);
    REQUIRE(v.found && v.g.status == STORE_GAME_OVER, "the game by deals is over");
    CHECK(v.g.credit == STORE_CREDIT_DEALS, "its credit is by deals");
    check_against_score(&v, score, "credit deals");
    b = row_of(&v, 1, "bob");
    c = row_of(&v, 1, "carol");
    int32_t first = east_of(score, 0, 1), rest = east_of(score, 1, 4);
    CHECK(b >= 0 && v.p[b].credited && v.p[b].points == first && v.p[b].deals == 1,
          "by deals bob takes the first deal's %d (%d)", first, b >= 0 ? v.p[b].points : 0);
    CHECK(c >= 0 && v.p[c].credited && v.p[c].points == rest && v.p[c].deals == 3,
          "by deals carol takes the other three deals' %d (%d)", rest, c >= 0 ? v.p[c].points : 0);
    CHECK(first + rest == v.g.totals[1], "their points add up to East's total");
    rb = rating_of(s, "p:bob");
    rc = rating_of(s, "p:carol");
    CHECK(rc.found && rc.games == 1 && !rb.found,
          "by deals carol, who finished most of East's deals, is rated for East");
    free(v.deals);
    json_decref(score);
    store_close(s);
}

/* ------------------------------------------------------------ ladder */

typedef struct ladder_seen {
    int n;
    char text[512];
} ladder_seen;

static void on_ladder(void *ctx, const store_ladder_row *r)
{
    ladder_seen *v = ctx;
    size_t used = strlen(v->text);
    snprintf(v->text + used, sizeof v->text - used, "%s%s:%d:%lld", v->n++ ? "|" : "", r->key,
             r->games, (long long)r->total);
}

static void on_period(void *ctx, const char *p)
{
    ladder_seen *v = ctx;
    size_t used = strlen(v->text);
    snprintf(v->text + used, sizeof v->text - used, "%s%s", v->n++ ? "|" : "", p);
}

/* Four registered players play a ladder game to its end: each is in the
 * month's and the year's ladder with one game and their seat's total,
 * highest first, and rated. */
static void club_ladder(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "club_ladder.db");
    const char *names[4] = {"alice", "bob", "carol", "dave"};
    e2e_client *p[4];
    char source[32];
    for (int k = 0; k < 4; k++) {
        snprintf(source, sizeof source, "127.0.0.%d", 2 + k);
        p[k] = account(names[k], srv.port, source, true);
    }
    int table = create_short(p[0], json_pack("{s:s, s:b}", "sit", "N", "ladder", 1));
    int group = e2e_new_group();
    for (int k = 1; k < 4; k++)
        e2e_sit(p[k], table, k);
    for (int k = 0; k < 4; k++) {
        p[k]->group = group;
        p[k]->autoplay = true;
    }
    e2e_play(NULL, NULL, 150000);
    REQUIRE(e2e_game_over(p[0]), "the ladder game is over");
    json_t *score = score_of(p[0], table);
    for (int k = 0; k < 4; k++)
        e2e_client_free(p[k]);
    stop(&srv);

    store *s = open_store(srv.db);
    seen v = game_of(s, table);
    REQUIRE(v.found && v.g.status == STORE_GAME_OVER && v.g.ladder && v.g.rated,
            "the ladder game is kept over, ladder and rated");
    check_against_score(&v, score, "ladder");
    /* The ladder of the month and the year of its end, by total. */
    int order[4] = {0, 1, 2, 3};
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            if (v.g.totals[order[j]] > v.g.totals[order[i]] ||
                (v.g.totals[order[j]] == v.g.totals[order[i]] &&
                 strcmp(names[order[j]], names[order[i]]) < 0)) {
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    char want[256] = "";
    for (int i = 0; i < 4; i++) {
        size_t used = strlen(want);
        snprintf(want + used, sizeof want - used, "%s%s:1:%d", i ? "|" : "", names[order[i]],
                 v.g.totals[order[i]]);
    }
    time_t end = (time_t)v.g.finished;
    struct tm tm;
    gmtime_r(&end, &tm);
    char month[16], year[8];
    strftime(month, sizeof month, "%Y-%m", &tm);
    strftime(year, sizeof year, "%Y", &tm);
    const char *periods[2] = {month, year};
    for (int i = 0; i < 2; i++) {
        ladder_seen l = {0};
        REQUIRE(s->ops->ladder_load(s, periods[i], on_ladder, &l) == 0, "ladder_load: %s",
                store_error(s));
        CHECK(strcmp(l.text, want) == 0, "the ladder of %s: %s (want %s)", periods[i], l.text,
              want);
    }
    ladder_seen pl = {0};
    REQUIRE(s->ops->ladder_periods(s, on_period, &pl) == 0, "ladder_periods");
    char wantp[32];
    snprintf(wantp, sizeof wantp, "%s|%s", month, year);
    CHECK(strcmp(pl.text, wantp) == 0, "the periods with a ladder: %s (want %s)", pl.text, wantp);
    for (int k = 0; k < 4; k++) {
        char id[32];
        snprintf(id, sizeof id, "p:%s", names[k]);
        rating_seen r = rating_of(s, id);
        CHECK(r.found && r.games == 1 && r.points == 1, "%s is rated once", names[k]);
    }
    free(v.deals);
    json_decref(score);
    store_close(s);
}

static const e2e_scenario SCENARIOS[] = {
    {"finished", club_finished},
    {"abandoned", club_abandoned},
    {"restart", club_restart},
    {"credit", club_credit},
    {"ladder", club_ladder},
    {"retry", club_retry},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    return e2e_main("club_core", argc, argv, SCENARIOS);
}
