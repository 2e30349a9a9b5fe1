/*
 * evening_life.c - leaving is safe, a new game is one click (evening.h):
 * logout, sitting back in one's own seat, close, hand_over and again, each
 * with its refusals, against a real server and real clients.
 *
 * The people here connect from addresses of their own (127.0.0.x), as at
 * different homes, except where a scenario needs two at one place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evening.h"

static const char SEATS[] = "NESW";

static e2e_client *person(const char *name, int port, const char *source)
{
    e2e_client *c = e2e_client_new_from(name, port, source);
    e2e_hello(c, name);
    return c;
}

static void send_table_msg(e2e_client *c, const char *type, int table)
{
    e2e_send(c, json_pack("{s:s, s:i}", "type", type, "table", table));
}

static void send_sit(e2e_client *c, int table, int seat)
{
    char s[2] = {SEATS[seat], 0};
    e2e_send(c, json_pack("{s:s, s:i, s:s}", "type", "sit", "table", table, "seat", s));
}

static const char *str_or(const json_t *j)
{
    const char *s = json_string_value(j);
    return s ? s : "";
}

static const char *text_of(const json_t *m)
{
    const char *t = json_string_value(json_object_get(m, "text"));
    return t ? t : "";
}

/* Expects an error and checks its text holds a word; frees it. */
static void refused(e2e_client *c, const char *code, const char *re, const char *word,
                    const char *what)
{
    json_t *e = e2e_expect_error(c, code, re, 5000);
    CHECK(e != NULL, "%s: %s is refused with %s", c->label, what, code);
    if (e && word)
        CHECK(strstr(text_of(e), word) != NULL, "%s: the refusal of %s says \"%s\": %s", c->label,
              what, word, text_of(e));
    json_decref(e);
}

static json_t *seat_of(const json_t *table_msg, int k)
{
    return json_array_get(json_object_get(table_msg, "seats"), (size_t)k);
}

static const char *seat_str(const json_t *table_msg, int k, const char *key)
{
    const char *s = json_string_value(json_object_get(seat_of(table_msg, k), key));
    return s ? s : "";
}

/* The lobby summary of a table, asked for with tables a second after the
 * last change (a new reference), or NULL. */
static json_t *summary(e2e_client *c, int table)
{
    /* The server keeps the list's text for up to a second after a change. */
    for (long end = e2e_now_ms() + 1100; e2e_now_ms() < end;)
        e2e_pump((int)(end - e2e_now_ms()));
    e2e_clear(c);
    e2e_send(c, json_pack("{s:s}", "type", "tables"));
    json_t *l = e2e_expect(c, "lobby", 5000);
    json_t *found = NULL;
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(l, "tables"), i, t)
    {
        if (json_integer_value(json_object_get(t, "id")) == table) {
            found = json_incref(t);
            break;
        }
    }
    json_decref(l);
    return found;
}

/* Sends a message and expects the table message that answers it. */
static json_t *table_after(e2e_client *c, const char *what)
{
    json_t *t = e2e_expect(c, "table", 5000);
    CHECK(t != NULL, "%s: %s brings the table", c->label, what);
    return t;
}

/* Waits for a view from the given client and checks it shows the hand of
 * its seat only. */
static void own_hand_only(e2e_client *c, int seat, const char *what)
{
    json_t *v = e2e_expect(c, "view", 5000);
    CHECK(v != NULL, "%s: %s brings a view", c->label, what);
    if (v)
        CHECK(e2e_hands_seen(v) == 1u << seat,
              "%s: after %s the view shows the hand of %c only (seen mask %u)", c->label, what,
              SEATS[seat], e2e_hands_seen(v));
    json_decref(v);
}

static void leave(e2e_client *c)
{
    e2e_send(c, json_pack("{s:s}", "type", "leave"));
    json_t *l = e2e_expect(c, "lobby", 5000);
    CHECK(l != NULL, "%s: leave brings the lobby", c->label);
    json_decref(l);
    e2e_clear(c);
}

/* ------------------------------------------------------------------ logout */

static void scenario_logout(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "logout.db");
    e2e_client *early = e2e_client_new_from("early", srv.port, "127.0.0.9");
    e2e_send(early, json_pack("{s:s}", "type", "logout"));
    refused(early, "hello_first", NULL, NULL, "logout before hello");

    e2e_client *alice = person("alice", srv.port, "127.0.0.2");
    e2e_client *bob = person("bob", srv.port, "127.0.0.3");
    char old_token[80];
    snprintf(old_token, sizeof old_token, "%s", alice->token);

    /* At a waiting table: the seat is free at once for those there. */
    int table = e2e_create(alice, "uk", json_pack("{s:s}", "sit", "N"));
    json_decref(e2e_expect(alice, "table", 5000));
    e2e_sit(bob, table, 1);
    e2e_clear(bob);
    e2e_send(alice, json_pack("{s:s}", "type", "logout"));
    json_t *bye = e2e_expect(alice, "bye", 5000);
    CHECK(bye && strcmp(json_string_value(json_object_get(bye, "reason")), "logout") == 0,
          "alice: logout answers bye with reason logout");
    json_decref(bye);
    e2e_pump(300);
    CHECK(alice->closed, "alice: the connection closes after the bye of logout");
    json_t *t = table_after(bob, "alice's logout");
    if (t) {
        CHECK(json_is_true(json_object_get(seat_of(t, 0), "free")) &&
                  seat_str(t, 0, "name")[0] == '\0',
              "bob: after alice's logout seat N of the waiting table is free and nameless");
    }
    json_decref(t);

    /* The name is free at once; the old token is gone. */
    e2e_client *alice2 = person("alice", srv.port, "127.0.0.4");
    CHECK(strcmp(alice2->token, old_token) != 0,
          "a new hello as alice right after the logout is welcomed, with a new token");
    e2e_client *ghost = e2e_client_new_from("ghost", srv.port, "127.0.0.2");
    e2e_send(ghost,
             json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "token", old_token));
    refused(ghost, "bad_token", "hello", NULL, "a hello with the token of a logged-out session");

    /* During a game: the seat is left as leave leaves it, the player of
     * record stays, and the table goes on with a substitute. */
    int game = e2e_create(alice2, "uk",
                          json_pack("{s:s, s:[s,s], s:i, s:s}", "sit", "N", "bots", "S", "W",
                                    "delay", 0, "level", "random"));
    json_decref(e2e_expect(alice2, "table", 5000));
    leave(bob);
    e2e_sit(bob, game, 1);
    e2e_pump(300);
    e2e_clear(alice2);
    e2e_send(bob, json_pack("{s:s}", "type", "logout"));
    bye = e2e_expect(bob, "bye", 5000);
    CHECK(bye != NULL, "bob: logout in the middle of a game answers bye");
    json_decref(bye);
    t = table_after(alice2, "bob's logout mid-game");
    if (t) {
        CHECK(strcmp(seat_str(t, 1, "player"), "bob") == 0 &&
                  json_is_true(json_object_get(seat_of(t, 1), "free")),
              "alice: after bob's logout seat E is free for a substitute and bob is still its "
              "player of record");
        CHECK(strcmp(json_string_value(json_object_get(t, "state")), "paused") == 0,
              "alice: the game is paused, waiting for E");
    }
    json_decref(t);
    e2e_client *bob2 = person("bob", srv.port, "127.0.0.5");
    CHECK(bob2->token[0] != '\0', "a new hello as bob right after his logout mid-game is welcomed");
    /* The name makes the new bob the player of record: he takes E back. */
    send_sit(bob2, game, 1);
    t = table_after(bob2, "sitting back after logout");
    if (t)
        CHECK(strcmp(seat_str(t, 1, "name"), "bob") == 0, "bob: sits E again");
    json_decref(t);
    own_hand_only(bob2, 1, "sitting back at E");

    /* Logging out from the lobby needs no table. */
    e2e_client *carol = person("carol", srv.port, "127.0.0.6");
    char carol_token[80];
    snprintf(carol_token, sizeof carol_token, "%s", carol->token);
    e2e_send(carol, json_pack("{s:s}", "type", "logout"));
    bye = e2e_expect(carol, "bye", 5000);
    CHECK(bye != NULL, "carol: logout from the lobby answers bye");
    json_decref(bye);
    e2e_client *carol2 = person("carol", srv.port, "127.0.0.6");
    CHECK(carol2->token[0] != '\0', "carol: the name is free again at once");

    /* The store forgot the sessions too: a restart does not bring them
     * back, and the new ones stay. */
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
    e2e_server_start(&srv, "logout.db");
    e2e_client_reconnect(ghost, srv.port);
    e2e_send(ghost,
             json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "token", old_token));
    refused(ghost, "bad_token", "hello", NULL, "after a restart, alice's logged-out token");
    e2e_client_reconnect(carol, srv.port);
    e2e_send(carol,
             json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "token", carol_token));
    refused(carol, "bad_token", "hello", NULL, "after a restart, carol's logged-out token");
    e2e_client_reconnect(carol2, srv.port);
    e2e_resume(carol2);
    CHECK(e2e_server_alive(&srv), "the server is still running");
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
}

/* ---------------------------------------------------------------- sit_back */

static void scenario_sit_back(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "sitback.db");
    e2e_client *alice = person("alice", srv.port, "127.0.0.2");
    e2e_client *bob = person("bob", srv.port, "127.0.0.3");
    e2e_client *carol = person("carol", srv.port, "127.0.0.4");

    /* A table whose seats wait for their players (takeover vote), open to
     * kibitzers of every hand. */
    int table =
        e2e_create(alice, "uk",
                   json_pack("{s:s, s:[s,s], s:i, s:s, s:s, s:s}", "sit", "N", "bots", "S", "W",
                             "delay", 0, "level", "random", "seed", "4242", "kibitz", "all"));
    json_decref(e2e_expect(alice, "table", 5000));
    e2e_sit(bob, table, 1);
    e2e_pump(400);
    leave(alice);
    json_t *sum = summary(carol, table);
    json_t *n = sum ? json_array_get(json_object_get(sum, "seats"), 0) : NULL;
    CHECK(json_is_object(n) && strcmp(str_or(json_object_get(n, "player")), "alice") == 0,
          "carol: the lobby summary's seat N, empty during the game, names alice as its player");
    CHECK(json_is_true(json_object_get(n, "free")), "carol: the summary's seat N is free");
    json_t *e = json_array_get(json_object_get(sum, "seats"), 1);
    CHECK(json_is_object(e) && json_object_get(e, "player") == NULL &&
              json_object_get(e, "free") == NULL,
          "carol: seat E, where its player sits, carries neither player nor free");
    json_decref(sum);

    /* alice watches her own seat from the side (the one-seat-a-deal rule
     * does not keep her from it), sits back at once and sees her own hand
     * only. */
    e2e_kibitz(alice, table, 0);
    json_t *v = e2e_expect(alice, "view", 5000);
    CHECK(v && e2e_hands_seen(v) == 1u, "alice: watching her own seat, she sees North's hand");
    json_decref(v);
    e2e_clear(alice);
    send_sit(alice, table, 0);
    json_t *t = table_after(alice, "sitting back at once");
    if (t)
        CHECK(strcmp(seat_str(t, 0, "name"), "alice") == 0 &&
                  strcmp(str_or(json_object_get(json_object_get(t, "you"), "seat")), "N") == 0,
              "alice: sits N again at once, from watching her own seat");
    json_decref(t);
    own_hand_only(alice, 0, "sitting back");

    /* A substitute person keeps the seat. */
    leave(alice);
    e2e_sit(carol, table, 0);
    e2e_clear(alice);
    send_sit(alice, table, 0);
    refused(alice, "seat_taken", "sit", "carol", "sitting back where a substitute sits");
    leave(carol);

    /* Once the substitute has gone, the seat is hers again; bob, seated,
     * may not take it. */
    send_sit(alice, table, 0);
    json_decref(table_after(alice, "sitting back after the substitute left"));
    own_hand_only(alice, 0, "sitting back after the substitute left");
    send_sit(bob, table, 0);
    refused(bob, "busy", "sit", NULL, "bob asking for a second seat");

    /* takeover bot: a computer player takes the seat at once and stands up
     * for its player. */
    leave(alice);
    leave(bob);
    int t2 = e2e_create(alice, "uk",
                        json_pack("{s:s, s:[s,s], s:i, s:s, s:s}", "sit", "N", "bots", "S", "W",
                                  "delay", 0, "level", "random", "takeover", "bot"));
    json_decref(e2e_expect(alice, "table", 5000));
    e2e_sit(bob, t2, 1);
    e2e_pump(300);
    leave(alice);
    e2e_clear(bob);
    sum = summary(carol, t2);
    n = sum ? json_array_get(json_object_get(sum, "seats"), 0) : NULL;
    CHECK(json_is_true(json_object_get(n, "bot")) &&
              strcmp(str_or(json_object_get(n, "player")), "alice") == 0,
          "carol: a computer player took N and the summary names alice as its player");
    json_decref(sum);
    send_sit(alice, t2, 0);
    t = table_after(alice, "sitting back where a computer player took over");
    if (t)
        CHECK(strcmp(seat_str(t, 0, "name"), "alice") == 0 &&
                  !json_is_true(json_object_get(seat_of(t, 0), "bot")),
              "alice: the computer player stood up and alice sits N");
    json_decref(t);
    own_hand_only(alice, 0, "sitting back in place of the computer player");

    /* Someone else's seat stays refused while its player is there. */
    send_sit(carol, t2, 1);
    refused(carol, "seat_taken", "sit", "bob", "sitting where bob plays");

    /* At the first table (every hand open to kibitzers), alice leaves and
     * watches every hand: she has seen the others' cards of this deal, so
     * she may not sit back in it (before the fix she could). */
    leave(alice);
    e2e_kibitz(alice, table, 4);
    v = e2e_expect(alice, "view", 5000);
    CHECK(v && e2e_hands_seen(v) == 15u, "alice: kibitzing all, she sees every hand");
    bool same_deal = v != NULL;
    json_decref(v);
    e2e_clear(alice);
    send_sit(alice, table, 0);
    if (same_deal)
        refused(alice, "seat_taken", "sit", "every hand",
                "sitting back in the deal in which she watched every hand");
    CHECK(e2e_server_alive(&srv), "the server is still running");
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
}

/* ------------------------------------------------------------------- close */

static void scenario_close(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "close.db");
    e2e_client *alice = person("alice", srv.port, "127.0.0.2");
    e2e_client *bob = person("bob", srv.port, "127.0.0.3");
    e2e_client *carol = person("carol", srv.port, "127.0.0.4");

    int table = e2e_create(alice, "uk", json_pack("{s:s, s:s}", "sit", "N", "kibitz", "all"));
    json_decref(e2e_expect(alice, "table", 5000));
    e2e_sit(bob, table, 1);

    send_table_msg(carol, "close", 99999);
    refused(carol, "no_table", "close", NULL, "closing a table that does not exist");
    send_table_msg(bob, "close", table);
    refused(bob, "not_creator", "close", "alice", "closing a table one did not create");
    send_table_msg(carol, "close", table);
    refused(carol, "not_creator", "close", NULL, "closing from the lobby a table of another");

    /* A started game is handed over, not closed. */
    leave(alice);
    int game = e2e_create(
        alice, "uk",
        json_pack("{s:s, s:[s,s,s], s:s}", "sit", "N", "bots", "E", "S", "W", "level", "random"));
    json_decref(e2e_expect(alice, "table", 5000));
    send_table_msg(alice, "close", game);
    refused(alice, "started", "close", "hand it to the computer players",
            "closing a table whose game has started");
    leave(alice);

    /* The creator closes the waiting table from the lobby: bob, seated,
     * goes back to the lobby; the lobby hears closed. */
    e2e_clear(bob);
    e2e_clear(carol);
    send_table_msg(alice, "close", table);
    json_t *l = e2e_expect(bob, "lobby", 5000);
    CHECK(l != NULL, "bob: closing the table he sits at brings him the lobby");
    json_decref(l);
    json_t *c = e2e_expect(carol, "closed", 5000);
    CHECK(c && json_integer_value(json_object_get(c, "table")) == table,
          "carol: the lobby hears that table %d closed", table);
    json_decref(c);
    send_sit(carol, table, 2);
    refused(carol, "no_table", "sit", NULL, "sitting at a closed table");
    send_table_msg(alice, "close", table);
    refused(alice, "no_table", "close", NULL, "closing a table twice");

    /* Seated, the creator closes it too. */
    e2e_clear(alice);
    int t3 = e2e_create(alice, "uk", json_pack("{s:s}", "sit", "S"));
    json_decref(e2e_expect(alice, "table", 5000));
    send_table_msg(alice, "close", t3);
    l = e2e_expect(alice, "lobby", 5000);
    CHECK(l != NULL, "alice: closing the table she sits at brings her the lobby");
    json_decref(l);
    json_t *sum = summary(alice, t3);
    CHECK(sum == NULL, "alice: table %d is no longer listed", t3);
    json_decref(sum);

    /* After a restart the table no longer knows its creating session:
     * its creator's name decides. */
    e2e_clear(bob);
    int t4 = e2e_create(alice, "uk", json_pack("{s:s}", "sit", "W"));
    json_decref(e2e_expect(alice, "table", 5000));
    e2e_sit(bob, t4, 1);
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
    e2e_server_start(&srv, "close.db");
    e2e_client_reconnect(alice, srv.port);
    e2e_resume(alice);
    e2e_client_reconnect(bob, srv.port);
    e2e_resume(bob);
    send_table_msg(bob, "close", t4);
    refused(bob, "not_creator", "close", "alice", "after a restart, closing alice's table");
    e2e_clear(alice);
    send_table_msg(alice, "close", t4);
    l = e2e_expect(alice, "lobby", 5000);
    CHECK(l != NULL, "alice: after a restart she closes the table she created");
    json_decref(l);
    sum = summary(bob, t4);
    CHECK(sum == NULL, "bob: table %d is no longer listed after alice closed it", t4);
    json_decref(sum);
    CHECK(e2e_server_alive(&srv), "the server is still running");
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
}

/* --------------------------------------------------------------- hand_over */

static void scenario_hand_over(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "handover.db");
    e2e_client *alice = person("alice", srv.port, "127.0.0.2");
    e2e_client *bob = person("bob", srv.port, "127.0.0.3");

    int table = e2e_create(alice, "uk",
                           json_pack("{s:s, s:s, s:i}", "sit", "N", "level", "random", "delay", 0));
    json_decref(e2e_expect(alice, "table", 5000));
    e2e_sit(bob, table, 1);
    send_table_msg(alice, "hand_over", 99999);
    refused(alice, "no_table", "hand_over", NULL, "handing over a table that does not exist");
    send_table_msg(alice, "hand_over", table);
    refused(alice, "busy", "hand_over", "leave", "handing over the table one sits at");
    send_table_msg(bob, "hand_over", table);
    refused(bob, "not_creator", "hand_over", "alice", "handing over a table one did not create");

    leave(alice);
    e2e_clear(bob);
    send_table_msg(alice, "hand_over", table);
    json_t *v = e2e_expect(bob, "view", 5000);
    CHECK(v != NULL, "bob: once alice hands the table over, the game starts");
    if (v)
        CHECK(e2e_hands_seen(v) == 1u << 1, "bob: his view shows his own hand only");
    json_decref(v);
    json_t *sum = summary(alice, table);
    json_t *seats = json_object_get(sum, "seats");
    bool bots = true;
    for (int k = 0; k < 4; k++)
        if (k != 1)
            bots &= json_is_true(json_object_get(json_array_get(seats, (size_t)k), "bot"));
    char *dump = sum ? json_dumps(sum, JSON_COMPACT) : NULL;
    CHECK(sum && bots && strcmp(str_or(json_object_get(sum, "state")), "playing") == 0,
          "alice: computer players sit N, S and W, and the game plays: %s", dump ? dump : "none");
    CHECK(sum && strcmp(str_or(json_object_get(sum, "creator")), "alice") == 0 &&
              json_is_true(json_object_get(sum, "handed_over")),
          "alice: the summary names alice as its creator and says it was handed over");
    free(dump);
    json_decref(sum);

    /* It no longer counts among alice's three unfinished tables. */
    int mine[3];
    for (int i = 0; i < 3; i++)
        mine[i] = e2e_create(alice, "uk", json_pack("{s:s}", "level", "random"));
    e2e_send(alice, json_pack("{s:s, s:s}", "type", "create", "rules", "uk"));
    refused(alice, "limit", "create", NULL, "a fourth unfinished table of her own");

    /* One table of computer players only a session: a handed-over empty
     * table becomes one; the second is refused (close it instead). */
    send_table_msg(alice, "hand_over", mine[0]);
    e2e_pump(300);
    sum = summary(alice, mine[0]);
    CHECK(sum && strcmp(json_string_value(json_object_get(sum, "state")), "playing") == 0,
          "alice: the empty waiting table handed over plays with computer players");
    json_decref(sum);
    send_table_msg(alice, "hand_over", mine[1]);
    refused(alice, "limit", "hand_over", "close the table instead",
            "a second table of computer players only by handing over");
    sum = summary(alice, mine[1]);
    CHECK(sum && strcmp(json_string_value(json_object_get(sum, "state")), "waiting") == 0,
          "alice: the refused table still waits, unchanged");
    json_decref(sum);

    /* Over: nothing to hand over. */
    e2e_client *carol = person("carol", srv.port, "127.0.0.4");
    int quick = e2e_create(carol, "uk",
                           json_pack("{s:s, s:[s,s,s], s:s, s:i, s:s}", "sit", "N", "bots", "E",
                                     "S", "W", "level", "random", "delay", 0, "takeover", "bot"));
    json_decref(e2e_expect(carol, "table", 5000));
    leave(carol);
    /* Carol's computer players finish the game alone. */
    long end = e2e_now_ms() + 60000;
    for (;;) {
        sum = summary(carol, quick);
        bool over = sum && strcmp(json_string_value(json_object_get(sum, "state")), "over") == 0;
        json_decref(sum);
        if (over || e2e_now_ms() > end)
            break;
        e2e_pump(200);
    }
    send_table_msg(carol, "hand_over", quick);
    refused(carol, "over", "hand_over", NULL, "handing over a finished table");
    CHECK(e2e_server_alive(&srv), "the server is still running");
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
}

/* ------------------------------------------------------------------- again */

static void scenario_again(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "again.db");
    e2e_client *alice = person("alice", srv.port, "127.0.0.2");
    e2e_client *bob = person("bob", srv.port, "127.0.0.3");
    e2e_client *carol = person("carol", srv.port, "127.0.0.4");
    e2e_client *dave = person("dave", srv.port, "127.0.0.5");

    int table = e2e_create(alice, "uk",
                           json_pack("{s:s, s:[s,s], s:i, s:s, s:s, s:s, s:s}", "sit", "N", "bots",
                                     "S", "W", "delay", 0, "level", "random", "takeover", "bot",
                                     "kibitz", "all", "seed", "777"));
    json_decref(e2e_expect(alice, "table", 5000));
    e2e_sit(bob, table, 1);
    json_t *v = e2e_expect(alice, "view", 5000);
    json_t *first_hand = v ? json_deep_copy(json_object_get(
                                 json_object_get(json_object_get(v, "view"), "hands"), "N"))
                           : NULL;
    json_decref(v);
    send_table_msg(alice, "again", table);
    refused(alice, "not_over", "again", "not over", "again while the game goes on");
    send_table_msg(dave, "again", 99999);
    refused(dave, "no_table", "again", NULL, "again at a table that does not exist");

    /* Both leave; the computer players finish the game (so fast that a
     * kibitzer of it would be cut as a slow reader: carol comes after). */
    leave(alice);
    leave(bob);
    for (long end = e2e_now_ms() + 90000;;) {
        json_t *sum = summary(dave, table);
        bool over = sum && strcmp(str_or(json_object_get(sum, "state")), "over") == 0;
        json_decref(sum);
        REQUIRE(over || e2e_now_ms() < end, "the game of table %d ends", table);
        if (over)
            break;
    }
    e2e_kibitz(carol, table, 4);
    e2e_clear(carol);

    send_table_msg(carol, "again", table);
    refused(carol, "not_seated", "again", "players", "again by a kibitzer who did not play");
    send_table_msg(dave, "again", table);
    refused(dave, "not_seated", "again", NULL, "again by somebody from the lobby who did not play");

    e2e_send(alice, json_pack("{s:s, s:i, s:i}", "type", "again", "table", table, "id", 41));
    json_t *cr = e2e_expect(alice, "created", 5000);
    int next = cr ? (int)json_integer_value(json_object_get(cr, "table")) : 0;
    CHECK(next > table && json_integer_value(json_object_get(cr, "id")) == 41,
          "alice: again answers created with a new table (%d) and the message's id", next);
    json_decref(cr);
    json_t *t = table_after(alice, "again");
    if (t) {
        const char *you = json_string_value(json_object_get(json_object_get(t, "you"), "seat"));
        CHECK(json_integer_value(json_object_get(t, "id")) == next && you && strcmp(you, "N") == 0,
              "alice: she sits N, her old seat, at table %d", next);
        CHECK(json_object_get(t, "seed_chosen_by") == NULL,
              "alice: the new table's seed is the server's, not the chosen one");
        CHECK(strcmp(json_string_value(json_object_get(t, "kibitz")), "all") == 0 &&
                  strcmp(json_string_value(json_object_get(t, "takeover")), "bot") == 0 &&
                  strcmp(json_string_value(json_object_get(t, "level")), "random") == 0 &&
                  json_integer_value(json_object_get(t, "delay")) == 0 &&
                  strcmp(json_string_value(json_object_get(t, "rules")), "uk") == 0,
              "alice: the new table has the old one's rules and options");
        CHECK(json_is_true(json_object_get(seat_of(t, 2), "bot")) &&
                  json_is_true(json_object_get(seat_of(t, 3), "bot")) &&
                  seat_str(t, 1, "name")[0] == '\0',
              "alice: computer players sit S and W again, and E waits for bob");
        json_t *r = json_object_get(t, "reserved");
        CHECK(json_is_array(r) && json_is_null(json_array_get(r, 0)) &&
                  strcmp(str_or(json_array_get(r, 1)), "bob") == 0,
              "alice: the table says E is kept for bob");
    }
    json_decref(t);

    /* The old table tells those still there. */
    t = e2e_expect(carol, "table", 5000);
    json_t *ag = json_object_get(t, "again");
    CHECK(t && json_integer_value(json_object_get(ag, "table")) == next &&
              strcmp(str_or(json_object_get(ag, "by")), "alice") == 0,
          "carol: the old table's message says alice started the next game at table %d", next);
    json_decref(t);

    /* The lobby sees the seat kept; somebody else may not take it. */
    json_t *sum = summary(dave, next);
    json_t *r = json_object_get(sum, "reserved");
    CHECK(json_is_array(r) && json_array_size(r) == 4 && json_is_null(json_array_get(r, 0)) &&
              strcmp(str_or(json_array_get(r, 1)), "bob") == 0 &&
              json_is_null(json_array_get(r, 2)) && json_is_null(json_array_get(r, 3)),
          "dave: the lobby summary of table %d says [null, \"bob\", null, null] is reserved", next);
    json_decref(sum);
    send_sit(dave, next, 1);
    refused(dave, "seat_taken", "sit", "kept for bob", "sitting in a seat kept for bob");
    send_table_msg(alice, "again", next);
    refused(alice, "not_over", "again", NULL, "again at the new table, not over");

    /* A second again joins the same new table, at bob's old seat. */
    e2e_clear(alice);
    send_table_msg(bob, "again", table);
    cr = e2e_expect(bob, "created", 5000);
    CHECK(cr && json_integer_value(json_object_get(cr, "table")) == next,
          "bob: a second again answers created with the same table %d", next);
    json_decref(cr);
    t = table_after(bob, "the second again");
    if (t) {
        const char *you = json_string_value(json_object_get(json_object_get(t, "you"), "seat"));
        CHECK(you && strcmp(you, "E") == 0, "bob: he sits E, his old seat");
    }
    json_decref(t);
    own_hand_only(bob, 1, "joining the next game");
    v = e2e_expect(alice, "view", 5000);
    CHECK(v != NULL, "alice: the next game starts once bob sits");
    if (v) {
        CHECK(e2e_hands_seen(v) == 1u, "alice: her view shows her own hand only");
        json_t *h = json_object_get(json_object_get(json_object_get(v, "view"), "hands"), "N");
        CHECK(first_hand && h && !json_equal(first_hand, h),
              "alice: the next game deals other cards than the chosen seed's first deal");
    }
    json_decref(v);
    json_decref(first_hand);
    sum = summary(dave, next);
    CHECK(sum && json_object_get(sum, "reserved") == NULL,
          "dave: once every kept seat is taken, the summary has no reserved");
    json_decref(sum);
    /* Again from the running new game: busy elsewhere. */
    send_table_msg(dave, "again", next);
    refused(dave, "not_over", "again", NULL, "again at a game that goes on");
    CHECK(e2e_server_alive(&srv), "the server is still running");
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
}

/* A kept seat lapses (here after 2 s, --seat-keep): anybody may take it,
 * and the player it was kept for is told who has it. */
static void scenario_again_keep(void)
{
    e2e_server srv;
    static const char *const extra[] = {"--seat-keep", "2", NULL};
    e2e_server_start_with(&srv, "againkeep.db", extra);
    e2e_client *alice = person("alice", srv.port, "127.0.0.2");
    e2e_client *bob = person("bob", srv.port, "127.0.0.3");
    e2e_client *dave = person("dave", srv.port, "127.0.0.5");
    int table = e2e_create(alice, "uk",
                           json_pack("{s:s, s:[s,s], s:i, s:s, s:s}", "sit", "N", "bots", "S", "W",
                                     "delay", 0, "level", "random", "takeover", "bot"));
    json_decref(e2e_expect(alice, "table", 5000));
    e2e_sit(bob, table, 1);
    leave(alice);
    leave(bob);
    for (long end = e2e_now_ms() + 90000;;) {
        json_t *sum = summary(dave, table);
        bool over = sum && strcmp(str_or(json_object_get(sum, "state")), "over") == 0;
        json_decref(sum);
        REQUIRE(over || e2e_now_ms() < end, "the game of table %d ends", table);
        if (over)
            break;
    }
    send_table_msg(alice, "again", table);
    json_t *cr = e2e_expect(alice, "created", 5000);
    int next = cr ? (int)json_integer_value(json_object_get(cr, "table")) : 0;
    CHECK(next > table, "alice: again makes table %d", next);
    json_decref(cr);
    json_t *t = table_after(alice, "again");
    CHECK(t && json_is_array(json_object_get(t, "reserved")), "alice: E is kept at first");
    json_decref(t);
    send_sit(dave, next, 1);
    refused(dave, "seat_taken", "sit", "kept for bob", "sitting in the kept seat at once");

    /* Two seconds later the seat is anybody's: alice hears it. */
    t = NULL;
    for (long end = e2e_now_ms() + 5000; e2e_now_ms() < end && t == NULL;) {
        json_t *m = e2e_expect(alice, "table", 500);
        if (m && json_object_get(m, "reserved") == NULL)
            t = m;
        else
            json_decref(m);
    }
    CHECK(t != NULL, "alice: once the seat is no longer kept, a table message without reserved "
                     "comes");
    json_decref(t);
    json_t *sum = summary(dave, next);
    CHECK(sum && json_object_get(sum, "reserved") == NULL,
          "dave: the lobby summary no longer shows the seat kept");
    json_decref(sum);
    e2e_sit(dave, next, 1);
    own_hand_only(dave, 1, "taking the seat once no longer kept");
    int other = e2e_create(bob, "uk", json_pack("{s:s}", "sit", "N"));
    json_decref(e2e_expect(bob, "table", 5000));
    send_table_msg(bob, "again", table);
    refused(bob, "busy", "again", "leave", "again while sitting at another table");
    send_table_msg(bob, "close", other);
    json_decref(e2e_expect(bob, "lobby", 5000));
    send_table_msg(bob, "again", table);
    refused(bob, "seat_taken", "again", "dave", "again once another took the seat");
    CHECK(e2e_server_alive(&srv), "the server is still running");
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
}

void evening_life_logout(void)
{
    scenario_logout();
}
void evening_life_sit_back(void)
{
    scenario_sit_back();
}
void evening_life_close(void)
{
    scenario_close();
}
void evening_life_hand_over(void)
{
    scenario_hand_over();
}
void evening_life_again(void)
{
    scenario_again();
}
void evening_life_again_keep(void)
{
    scenario_again_keep();
}
