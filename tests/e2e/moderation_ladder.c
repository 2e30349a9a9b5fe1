/*
 * moderation_ladder.c - ladder tables (moderation.h): who may create one and
 * sit at it, and the record of who played which deals, substitutes and the
 * computer player that keeps an away player's seat included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moderation.h"

static const char SEATS[] = "NESW";

static void send_sit(e2e_client *c, int table, int seat)
{
    char s[2] = {SEATS[seat], 0};
    e2e_send(c, json_pack("{s:s, s:i, s:s}", "type", "sit", "table", table, "seat", s));
}

static void send_create(e2e_client *c, json_t *fields)
{
    json_t *m = json_pack("{s:s, s:s}", "type", "create", "rules", "quick");
    json_object_update(m, fields);
    json_decref(fields);
    e2e_send(c, m);
}

/* ------------------------------------------------------- ladder_refusals */

void moderation_ladder_refusals(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "ladder_refusals.db");
    e2e_client *gus = mod_guest("gus", srv.port, "127.0.0.2");
    e2e_client *alice = mod_signup("alice", srv.port, "127.0.0.3", 0);

    send_create(gus, json_pack("{s:b}", "ladder", 1));
    mod_refused(gus, "ladder", "create", "registered", "a guest's ladder table");
    send_create(alice, json_pack("{s:b, s:s}", "ladder", 1, "seed", "42"));
    mod_refused(alice, "ladder", "create", "seed", "a ladder table with a seed");
    send_create(alice, json_pack("{s:b, s:[s]}", "ladder", 1, "bots", "E"));
    mod_refused(alice, "ladder", "create", "computer players", "a ladder table with bots");

    int table = e2e_create(alice, "quick", json_pack("{s:b, s:s}", "ladder", 1, "sit", "N"));
    json_t *t = e2e_expect(alice, "table", 5000);
    CHECK(t && json_is_true(json_object_get(t, "ladder")), "the table message says ladder");
    json_decref(t);
    json_t *sum = mod_summary(gus, table);
    CHECK(sum && json_is_true(json_object_get(sum, "ladder")), "the lobby summary says ladder");
    json_decref(sum);

    /* A table without ladder says nothing of it. */
    e2e_client *bob = mod_signup("bob", srv.port, "127.0.0.4", 0);
    int plain = e2e_create(bob, "quick", json_pack("{s:s}", "sit", "N"));
    json_t *pt = e2e_expect(bob, "table", 5000);
    CHECK(pt && json_object_get(pt, "ladder") == NULL, "a table that is no ladder says nothing");
    json_decref(pt);
    (void)plain;
    e2e_send(bob, json_pack("{s:s}", "type", "leave"));
    json_decref(e2e_expect(bob, "lobby", 5000));

    e2e_clear(gus);
    send_sit(gus, table, 1);
    mod_refused(gus, "ladder", "sit", "registered", "a guest sitting at a ladder table");
    e2e_sit(bob, table, 1);
    /* No computer player sits down at a ladder table before its game. */
    e2e_clear(alice);
    e2e_send(alice, json_pack("{s:s, s:s}", "type", "bot", "seat", "S"));
    mod_refused(alice, "ladder", "bot", "ladder", "a computer player before the game");
    e2e_send(alice, json_pack("{s:s, s:i}", "type", "hand_over", "table", table));
    mod_refused(alice, "ladder", "hand_over", "ladder", "handing a ladder table over");

    e2e_client_free(gus);
    e2e_client_free(alice);
    e2e_client_free(bob);
    e2e_server_stop(&srv);
}

/* -------------------------------------------------------- ladder_players */

static bool stop_at_deal(const e2e_client *mover, void *ctx)
{
    return mover->view && e2e_view_int(mover->view, "deal") >= *(const long *)ctx;
}

static bool stop_at_action(const e2e_client *mover, void *ctx)
{
    return mover->at >= *(const long *)ctx;
}

void moderation_ladder_players(void)
{
    e2e_server srv;
    const char *const admin[] = {"--admin", "root", NULL};
    e2e_server_start_with(&srv, "ladder_players.db", admin);
    const char *names[4] = {"alice", "bob", "carol", "dave"};
    e2e_client *p[4];
    char source[32];
    for (int k = 0; k < 4; k++) {
        snprintf(source, sizeof source, "127.0.0.%d", 2 + k);
        p[k] = mod_signup(names[k], srv.port, source, 0);
    }
    e2e_client *eve = mod_signup("eve", srv.port, "127.0.0.7", 0);
    e2e_client *gus = mod_guest("gus", srv.port, "127.0.0.8");
    /* The computer player keeps an away player's seat at once (takeover
     * bot); a registered substitute may take it from the computer player. */
    int table = e2e_create(p[0], "quick",
                           json_pack("{s:b, s:s, s:s, s:i, s:s}", "ladder", 1, "takeover", "bot",
                                     "level", "easy", "delay", 0, "sit", "N"));
    for (int k = 1; k < 4; k++)
        e2e_sit(p[k], table, k);
    /* An administrator watches, and a player keeps every message: neither
     * learns what deals the game (seed or key) before it is over. */
    e2e_client *root = mod_signup("root", srv.port, "127.0.0.9", 1);
    root->logging = true;
    p[0]->logging = true;
    e2e_kibitz(root, table, 0);
    int group = e2e_new_group();
    for (int k = 0; k < 4; k++) {
        p[k]->group = group;
        p[k]->autoplay = true;
    }
    long at = 6;
    e2e_play(stop_at_action, &at, 60000);
    REQUIRE(e2e_halted_in[group] != NULL, "the first deal is under way");

    /* dave stands up: the computer player keeps West. */
    p[3]->autoplay = false;
    e2e_send(p[3], json_pack("{s:s}", "type", "leave"));
    json_decref(e2e_expect(p[3], "lobby", 5000));
    e2e_pump(300);
    /* A guest may not take the seat; eve, registered, may. */
    send_sit(gus, table, 3);
    mod_refused(gus, "ladder", "sit", "registered", "a guest substitute");
    e2e_sit(eve, table, 3);
    eve->group = group;
    eve->autoplay = true;
    p[3] = eve;
    long deal = 1;
    e2e_play(stop_at_deal, &deal, 90000);
    REQUIRE(e2e_halted_in[group] != NULL, "the second deal starts");

    e2e_clear(p[0]);
    e2e_send(p[0], json_pack("{s:s, s:i}", "type", "score", "table", table));
    json_t *score = e2e_expect(p[0], "score", 5000);
    REQUIRE(score != NULL, "the score comes");
    json_t *d0 = json_array_get(json_object_get(score, "deals"), 0);
    json_t *who = json_object_get(d0, "players");
    CHECK(strcmp(mod_str(who, "N"), "alice") == 0, "deal 1 was played by alice at North (%s)",
          mod_str(who, "N"));
    CHECK(strcmp(mod_str(who, "E"), "bob") == 0, "deal 1 was played by bob at East (%s)",
          mod_str(who, "E"));
    CHECK(strcmp(mod_str(who, "W"), "dave then computer (easy) then eve") == 0,
          "deal 1's West was dave, then the computer player, then eve (%s)", mod_str(who, "W"));
    json_decref(score);

    e2e_clear(root);
    e2e_send(root, json_pack("{s:s, s:i}", "type", "record", "table", table));
    json_t *rec = e2e_expect(root, "record", 5000);
    const char *text = mod_text(rec);
    CHECK(rec && !json_is_true(json_object_get(rec, "complete")) &&
              (strstr(text, "[Seed \"withheld\"]") != NULL ||
               strstr(text, "[Key \"withheld\"]") != NULL),
          "the administrator's record of the game under way withholds the seed (or key)");
    json_decref(rec);
    int leaks = 0;
    e2e_client *loggers[2] = {root, p[0]};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < loggers[i]->nlog; j++) {
            json_t *m = json_loads(loggers[i]->log[j].text, 0, NULL);
            if (strcmp(mod_str(m, "type"), "table") == 0 &&
                (json_object_get(m, "seed") || json_object_get(m, "key")))
                leaks++;
            json_decref(m);
        }
    CHECK(leaks == 0 && root->nlog > 0,
          "no table message to the administrator or a player gives the seed or key (%d of %d)",
          leaks, root->nlog + p[0]->nlog);

    e2e_client_free(root);
    e2e_client_free(gus);
    for (int k = 0; k < 4; k++)
        e2e_client_free(p[k]);
    e2e_server_stop(&srv);

    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT deal || ':' || seat || ':' || name || ':' || registered || ':' || "
             "coalesce(level, '-') FROM deal_players WHERE table_id = %d AND seat = 3 "
             "ORDER BY deal, at",
             table);
    char *rows = mod_db_rows(srv.db, sql);
    CHECK(strncmp(rows, "0:3:dave:1:-|0:3:easy bot W:0:easy|0:3:eve:1:-|1:3:eve:1:-",
                  strlen("0:3:dave:1:-|0:3:easy bot W:0:easy|0:3:eve:1:-|1:3:eve:1:-")) == 0,
          "the store's rows of West: dave, the computer player, eve, then eve in deal 2 (%s)",
          rows);
    free(rows);
    snprintf(sql, sizeof sql,
             "SELECT name || ':' || registered FROM deal_players WHERE table_id = %d AND deal = 0 "
             "AND seat < 3 ORDER BY seat",
             table);
    rows = mod_db_rows(srv.db, sql);
    CHECK(strcmp(rows, "alice:1|bob:1|carol:1") == 0,
          "the store's rows of deal 1's other seats: the registered alice, bob, carol (%s)", rows);
    free(rows);

    /* After a restart the table knows who played which deals. */
    e2e_server_start(&srv, "ladder_players.db");
    e2e_client *again = mod_signin("alice", srv.port, "127.0.0.2", 0);
    e2e_clear(again);
    e2e_send(again, json_pack("{s:s, s:i}", "type", "score", "table", table));
    score = e2e_expect(again, "score", 5000);
    who = json_object_get(json_array_get(json_object_get(score, "deals"), 0), "players");
    CHECK(strcmp(mod_str(who, "W"), "dave then computer (easy) then eve") == 0 &&
              strcmp(mod_str(who, "S"), "carol") == 0,
          "after a restart the score still names deal 1's players (%s)", mod_str(who, "W"));
    json_decref(score);
    e2e_client_free(again);
    e2e_server_stop(&srv);
}
