/*
 * moderation_acts.c - administrators' acts and players' reports
 * (moderation.h): close, remove, ban, unban, report, mod_log, each kept in
 * the store with who and when, and refused to everybody else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "moderation.h"

static const char *const ADMIN_ROOT[] = {"--admin", "root", NULL};

static void send_act(e2e_client *c, json_t *m)
{
    e2e_send(c, m);
}

/* Waits for a bye on c; its reason, "" when none came. */
static const char *bye_of(e2e_client *c)
{
    for (long end = e2e_now_ms() + 5000; e2e_now_ms() < end && !c->bye[0] && !c->closed;)
        e2e_pump(50);
    return c->bye;
}

/* A notice with this code on c (a new reference), or NULL. */
static json_t *notice(e2e_client *c, const char *code)
{
    for (long end = e2e_now_ms() + 5000; e2e_now_ms() < end;) {
        json_t *n = e2e_expect(c, "notice", (int)(end - e2e_now_ms()));
        if (n == NULL)
            return NULL;
        if (strcmp(mod_str(n, "code"), code) == 0)
            return n;
        json_decref(n);
    }
    return NULL;
}

/* The next table message whose seat k is a computer player's (or free, when
 * want_bot is false), a new reference, or NULL. */
static json_t *table_with_seat(e2e_client *c, int k, bool want_bot)
{
    for (long end = e2e_now_ms() + 5000; e2e_now_ms() < end;) {
        json_t *t = e2e_expect(c, "table", (int)(end - e2e_now_ms()));
        if (t == NULL)
            return NULL;
        json_t *seat = json_array_get(json_object_get(t, "seats"), (size_t)k);
        bool ok = want_bot ? json_is_true(json_object_get(seat, "bot"))
                           : json_is_true(json_object_get(seat, "free"));
        if (ok)
            return t;
        json_decref(t);
    }
    return NULL;
}

/* --------------------------------------------------------- close_remove */

void moderation_close_remove(void)
{
    e2e_server srv;
    e2e_server_start_with(&srv, "close_remove.db", ADMIN_ROOT);
    e2e_client *root = mod_signup("root", srv.port, "127.0.0.2", 1);
    e2e_client *alice = mod_guest("alice", srv.port, "127.0.0.3");
    e2e_client *bob = mod_guest("bob", srv.port, "127.0.0.4");

    int table = e2e_create(alice, "uk", json_pack("{s:s}", "sit", "N"));
    e2e_sit(bob, table, 1);
    e2e_clear(alice);
    send_act(alice, json_pack("{s:s, s:i}", "type", "mod_close", "table", table));
    mod_refused(alice, "forbidden", "mod_close", "administrator", "a player's mod_close");
    send_act(root, json_pack("{s:s, s:i, s:s, s:i}", "type", "mod_close", "table", table, "text",
                             "Spam table", "id", 41));
    mod_done(root, "mod_close", "closing the table");
    for (int i = 0; i < 2; i++) {
        e2e_client *c = i ? bob : alice;
        json_t *n = notice(c, "mod_closed");
        CHECK(n && strstr(mod_text(n), "Spam table") != NULL,
              "%s hears the table was closed, and why: %s", c->label, n ? mod_text(n) : "");
        json_decref(n);
        json_t *l = e2e_expect(c, "lobby", 5000);
        CHECK(l != NULL, "%s is back in the lobby", c->label);
        json_decref(l);
    }
    json_t *sum = mod_summary(root, table);
    CHECK(sum == NULL, "the closed table is gone from the lobby");
    json_decref(sum);
    send_act(root, json_pack("{s:s, s:i}", "type", "mod_close", "table", table));
    mod_refused(root, "no_table", "mod_close", NULL, "closing it again");

    /* A game under way: the computer player keeps the removed player's
     * seat (takeover bot), and the removed player may not sit again. */
    int game = e2e_create(alice, "quick",
                          json_pack("{s:s, s:[s,s], s:s, s:s, s:i}", "sit", "N", "bots", "S", "W",
                                    "takeover", "bot", "level", "easy", "delay", 2000));
    e2e_sit(bob, game, 1);
    e2e_pump(300);
    e2e_clear(alice);
    e2e_clear(bob);
    send_act(alice, json_pack("{s:s, s:i, s:s}", "type", "mod_remove", "table", game, "seat", "E"));
    mod_refused(alice, "forbidden", "mod_remove", "administrator", "a player's mod_remove");
    send_act(root, json_pack("{s:s, s:i, s:s, s:s}", "type", "mod_remove", "table", game, "seat",
                             "E", "text", "Abusive chat"));
    mod_done(root, "mod_remove", "removing bob");
    json_t *n = notice(bob, "removed");
    CHECK(n && strstr(mod_text(n), "Abusive chat") != NULL, "bob hears he was removed, and why: %s",
          n ? mod_text(n) : "");
    json_decref(n);
    json_t *l = e2e_expect(bob, "lobby", 5000);
    CHECK(l != NULL, "bob is back in the lobby");
    json_decref(l);
    json_t *t = table_with_seat(alice, 1, true);
    CHECK(t != NULL, "alice sees the computer player keep East");
    json_decref(t);
    e2e_clear(bob);
    e2e_send(bob, json_pack("{s:s, s:i, s:s}", "type", "sit", "table", game, "seat", "E"));
    mod_refused(bob, "removed", "sit", "administrator", "bob sitting again where he was removed");
    send_act(root, json_pack("{s:s, s:i, s:s}", "type", "mod_remove", "table", game, "seat", "S"));
    mod_refused(root, "not_seated", "mod_remove", NULL, "removing a computer player");

    /* Before the game the seat is simply free. */
    e2e_client *carol = mod_guest("carol", srv.port, "127.0.0.5");
    e2e_client *dan = mod_guest("dan", srv.port, "127.0.0.6");
    int waiting = e2e_create(carol, "uk", json_pack("{s:s}", "sit", "N"));
    e2e_sit(dan, waiting, 1);
    e2e_clear(carol);
    send_act(root,
             json_pack("{s:s, s:i, s:s}", "type", "mod_remove", "table", waiting, "seat", "E"));
    mod_done(root, "mod_remove", "removing dan before the game");
    n = notice(dan, "removed");
    CHECK(n != NULL, "dan hears he was removed");
    json_decref(n);
    t = table_with_seat(carol, 1, false);
    CHECK(t != NULL, "carol sees East free again");
    json_decref(t);

    /* The removal outlives a restart, while the game is not over. */
    e2e_server_stop(&srv);
    e2e_server_start_with(&srv, "close_remove.db", ADMIN_ROOT);
    e2e_client_reconnect(bob, srv.port);
    e2e_resume(bob);
    e2e_clear(bob);
    e2e_send(bob, json_pack("{s:s, s:i, s:s}", "type", "sit", "table", game, "seat", "E"));
    mod_refused(bob, "removed", "sit", "administrator", "bob sitting again after a restart");

    e2e_client_free(root);
    e2e_client_free(alice);
    e2e_client_free(bob);
    e2e_client_free(carol);
    e2e_client_free(dan);
    e2e_server_stop(&srv);
    char *rows = mod_db_rows(srv.db, "SELECT by || ':' || act || ':' || coalesce(name, '-') || "
                                     "':' || text FROM moderation ORDER BY id");
    CHECK(strcmp(rows, "root:close:-:Spam table|root:remove:bob:Abusive chat|root:remove:dan:") ==
              0,
          "the store keeps every act with who did it (%s)", rows);
    free(rows);
    rows = mod_db_rows(srv.db, "SELECT count(*) FROM moderation WHERE at BETWEEN "
                               "strftime('%s','now') - 600 AND strftime('%s','now') + 5");
    CHECK(strcmp(rows, "3") == 0, "and when (%s acts of the last minutes)", rows);
    free(rows);
}

/* ------------------------------------------------------------------ ban */

void moderation_ban(void)
{
    e2e_server srv;
    e2e_server_start_with(&srv, "ban.db", ADMIN_ROOT);
    e2e_client *root = mod_signup("root", srv.port, "127.0.0.2", 1);
    e2e_client *bob = mod_guest("bob", srv.port, "127.0.0.3");
    e2e_client *carol = mod_signup("carol", srv.port, "127.0.0.4", 0);
    char carol_token[80];
    snprintf(carol_token, sizeof carol_token, "%s", carol->token);
    int table = e2e_create(bob, "uk", json_pack("{s:s}", "sit", "N"));

    send_act(carol, json_pack("{s:s, s:s}", "type", "ban", "name", "bob"));
    mod_refused(carol, "forbidden", "ban", "administrator", "a player's ban");
    send_act(root, json_pack("{s:s, s:s, s:s}", "type", "ban", "name", "BOB", "text", "Cheating"));
    mod_done(root, "ban", "banning bob");
    CHECK(strcmp(bye_of(bob), "banned") == 0, "bob's connection hears bye banned (%s)", bob->bye);
    json_t *sum = mod_summary(root, table);
    CHECK(sum == NULL || json_is_null(json_array_get(json_object_get(sum, "seats"), 0)),
          "bob no longer sits at his table");
    json_decref(sum);
    mod_hello_refused("bob-again", srv.port, "127.0.0.5", "bob", NULL, "banned");
    mod_hello_refused("Bob-again", srv.port, "127.0.0.6", "Bob", NULL, "banned");
    mod_hello_refused("BOB-again", srv.port, "127.0.0.7", "bOB", NULL, "banned");
    /* Fullwidth letters fold to the same key. */
    mod_hello_refused("bob-wide", srv.port, "127.0.0.13", "\xef\xbd\x82\xef\xbd\x8f\xef\xbd\x82",
                      NULL, "banned");

    send_act(root, json_pack("{s:s, s:s}", "type", "ban", "name", "carol"));
    mod_done(root, "ban", "banning the registered carol");
    CHECK(strcmp(bye_of(carol), "banned") == 0, "carol's connection hears bye banned (%s)",
          carol->bye);
    mod_hello_refused("carol-in", srv.port, "127.0.0.8", "carol", MOD_PASSWORD, "banned");
    mod_hello_refused("carol-guest", srv.port, "127.0.0.9", "CAROL", NULL, "banned");
    e2e_client *old = e2e_client_new_from("carol-token", srv.port, "127.0.0.10");
    e2e_send(old,
             json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "token", carol_token));
    json_t *e = e2e_expect(old, "error", 5000);
    CHECK(e != NULL && e2e_peek(old, "welcome") == NULL, "carol's old token is refused (%s)",
          e ? mod_str(e, "code") : "no error");
    json_decref(e);
    e2e_client_free(old);

    send_act(root, json_pack("{s:s, s:s}", "type", "ban", "name", "Root"));
    mod_refused(root, "bad_name", "ban", NULL, "banning oneself");
    send_act(root, json_pack("{s:s, s:s}", "type", "unban", "name", "Bob"));
    mod_done(root, "unban", "lifting bob's ban");
    e2e_client *back = mod_guest("bob", srv.port, "127.0.0.11");
    CHECK(back != NULL, "bob says hello again once the ban is lifted");
    send_act(root, json_pack("{s:s, s:s}", "type", "unban", "name", "bob"));
    mod_refused(root, "not_banned", "unban", NULL, "lifting a ban that is not there");

    /* The ban on carol outlives a restart. */
    e2e_client_free(root);
    e2e_client_free(back);
    e2e_client_free(bob);
    e2e_client_free(carol);
    e2e_server_stop(&srv);
    e2e_server_start_with(&srv, "ban.db", NULL);
    mod_hello_refused("carol-later", srv.port, "127.0.0.12", "carol", MOD_PASSWORD, "banned");
    e2e_server_stop(&srv);
    char *rows = mod_db_rows(srv.db, "SELECT by || ':' || act || ':' || name FROM moderation "
                                     "ORDER BY id");
    CHECK(strcmp(rows, "root:ban:BOB|root:ban:carol|root:unban:BOB") == 0,
          "the store keeps the bans and the unban with who did them (%s)", rows);
    free(rows);
}

/* --------------------------------------------------------------- report */

void moderation_report(void)
{
    e2e_server srv;
    e2e_server_start_with(&srv, "report.db", ADMIN_ROOT);
    e2e_client *root = mod_signup("root", srv.port, "127.0.0.2", 1);
    e2e_client *alice = mod_guest("alice", srv.port, "127.0.0.3");
    int table = e2e_create(alice, "uk", json_pack("{s:s}", "sit", "N"));
    e2e_clear(root);
    e2e_clear(alice);
    long before = (long)time(NULL);

    e2e_send(alice, json_pack("{s:s, s:i, s:s, s:i}", "type", "report", "table", table, "text",
                              "They chat rudely", "id", 9));
    json_t *r = e2e_expect(alice, "reported", 5000);
    CHECK(r && json_integer_value(json_object_get(r, "id")) == 9 &&
              json_integer_value(json_object_get(r, "report")) > 0,
          "alice's report is taken (reported, with its id)");
    json_decref(r);
    json_t *heard = e2e_expect(root, "report", 5000);
    CHECK(heard && strcmp(mod_str(heard, "by"), "alice") == 0 &&
              json_integer_value(json_object_get(heard, "table")) == table &&
              strcmp(mod_text(heard), "They chat rudely") == 0 &&
              json_integer_value(json_object_get(heard, "at")) >= before,
          "the connected administrator receives the report with who, when, what and the table");
    json_decref(heard);
    e2e_send(alice, json_pack("{s:s, s:s, s:s}", "type", "report", "name", "mallory", "text",
                              "Calls people names"));
    json_decref(e2e_expect(alice, "reported", 5000));
    heard = e2e_expect(root, "report", 5000);
    CHECK(heard && strcmp(mod_str(heard, "name"), "mallory") == 0, "a report of a handle too");
    json_decref(heard);

    e2e_send(alice, json_pack("{s:s, s:s}", "type", "report", "text", "Nobody in particular"));
    mod_refused(alice, "bad_field", "report", NULL, "a report naming nothing");
    e2e_send(alice, json_pack("{s:s, s:i}", "type", "report", "table", table));
    mod_refused(alice, "bad_field", "report", NULL, "a report without a text");
    e2e_send(alice, json_pack("{s:s, s:i, s:s}", "type", "report", "table", 99999, "text", "x"));
    mod_refused(alice, "no_table", "report", NULL, "a report of a table that is not there");
    for (int i = 0; i < 3; i++) {
        e2e_send(alice, json_pack("{s:s, s:s, s:s}", "type", "report", "name", "mallory", "text",
                                  "Again"));
        json_decref(e2e_expect(alice, "reported", 5000));
    }
    e2e_send(alice, json_pack("{s:s, s:s, s:s}", "type", "report", "name", "mallory", "text",
                              "Once more"));
    mod_refused(alice, "limit", "report", "seconds", "a sixth report in ten minutes");
    e2e_send(alice, json_pack("{s:s}", "type", "mod_log"));
    mod_refused(alice, "forbidden", "mod_log", "administrator", "a player's mod_log");

    send_act(root, json_pack("{s:s, s:s, s:s}", "type", "ban", "name", "mallory", "text", "Rude"));
    mod_done(root, "ban", "banning mallory");
    send_act(root, json_pack("{s:s, s:s}", "type", "unban", "name", "mallory"));
    mod_done(root, "unban", "lifting it");
    e2e_clear(root);
    e2e_send(root, json_pack("{s:s}", "type", "mod_log"));
    json_t *log = e2e_expect(root, "mod_log", 5000);
    REQUIRE(log != NULL, "the administrator reads the moderation log");
    json_t *reports = json_object_get(log, "reports"), *acts = json_object_get(log, "acts");
    CHECK(json_array_size(reports) == 5, "it lists the 5 reports (%zu)", json_array_size(reports));
    json_t *oldest = json_array_get(reports, json_array_size(reports) - 1);
    CHECK(strcmp(mod_str(oldest, "by"), "alice") == 0 &&
              json_integer_value(json_object_get(oldest, "table")) == table &&
              json_integer_value(json_object_get(oldest, "at")) >= before,
          "newest first, each with who, when and what");
    CHECK(json_array_size(acts) == 2 &&
              strcmp(mod_str(json_array_get(acts, 0), "act"), "unban") == 0 &&
              strcmp(mod_str(json_array_get(acts, 1), "by"), "root") == 0,
          "and the acts, newest first, with who did them");
    json_decref(log);

    /* The administrator named at start stays one after a restart without
     * the flag (kept in the store); the log is still there. */
    e2e_client_free(root);
    e2e_client_free(alice);
    e2e_server_stop(&srv);
    char *rows = mod_db_rows(srv.db, "SELECT by || ':' || coalesce(tbl, '-') || ':' || "
                                     "coalesce(name, '-') FROM reports ORDER BY id LIMIT 2");
    char want[64];
    snprintf(want, sizeof want, "alice:%d:-|alice:-:mallory", table);
    CHECK(strcmp(rows, want) == 0, "the store keeps the reports (%s)", rows);
    free(rows);
    e2e_server_start_with(&srv, "report.db", NULL);
    root = mod_signin("root", srv.port, "127.0.0.2", 1);
    e2e_send(root, json_pack("{s:s}", "type", "mod_log"));
    log = e2e_expect(root, "mod_log", 5000);
    CHECK(log && json_array_size(json_object_get(log, "reports")) == 5 &&
              json_array_size(json_object_get(log, "acts")) == 2,
          "after a restart the log lists the same reports and acts");
    json_decref(log);
    e2e_client_free(root);
    e2e_server_stop(&srv);
}

/* ---------------------------------------------------------- admin_later */

void moderation_admin_later(void)
{
    e2e_server srv;
    const char *const extra[] = {"--admin", "Zed", NULL};
    e2e_server_start_with(&srv, "admin_later.db", extra);
    /* A guest under an administrator's handle is no administrator. */
    e2e_client *guest = e2e_client_new_from("zed-guest", srv.port, "127.0.0.2");
    e2e_send(guest, json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "name", "zed"));
    json_t *w = e2e_expect(guest, "welcome", 5000);
    REQUIRE(w != NULL, "zed says hello as a guest");
    CHECK(!json_is_true(json_object_get(w, "admin")), "the guest zed is no administrator");
    json_decref(w);
    e2e_clear(guest);
    e2e_send(guest, json_pack("{s:s}", "type", "mod_log"));
    mod_refused(guest, "forbidden", "mod_log", NULL, "the guest zed's mod_log");
    e2e_send(guest, json_pack("{s:s}", "type", "logout"));
    bye_of(guest);
    e2e_client_free(guest);

    e2e_client *zed = mod_signup("zed", srv.port, "127.0.0.3", 1);
    e2e_send(zed, json_pack("{s:s}", "type", "mod_log"));
    json_t *log = e2e_expect(zed, "mod_log", 5000);
    CHECK(log != NULL, "zed, signed up, is an administrator and reads the log");
    json_decref(log);
    e2e_client_free(zed);
    e2e_server_stop(&srv);
}

/* ------------------------------------------------------------ forbidden */

void moderation_forbidden(void)
{
    e2e_server srv;
    e2e_server_start_with(&srv, "forbidden.db", ADMIN_ROOT);
    e2e_client *alice = mod_signup("alice", srv.port, "127.0.0.2", 0);
    e2e_client *gus = mod_guest("gus", srv.port, "127.0.0.3");
    e2e_client *vic = mod_guest("vic", srv.port, "127.0.0.4");
    int table = e2e_create(vic, "uk", json_pack("{s:s}", "sit", "N"));
    /* A guest named like the administrator is none. */
    e2e_client *fake = mod_guest("ROOT", srv.port, "127.0.0.5");
    e2e_client *who[3] = {alice, gus, fake};
    for (int i = 0; i < 3; i++) {
        e2e_client *c = who[i];
        e2e_clear(c);
        send_act(c, json_pack("{s:s, s:i}", "type", "mod_close", "table", table));
        mod_refused(c, "forbidden", "mod_close", "Only an administrator", "mod_close");
        send_act(c,
                 json_pack("{s:s, s:i, s:s}", "type", "mod_remove", "table", table, "seat", "N"));
        mod_refused(c, "forbidden", "mod_remove", "Only an administrator", "mod_remove");
        send_act(c, json_pack("{s:s, s:s}", "type", "ban", "name", "vic"));
        mod_refused(c, "forbidden", "ban", "Only an administrator", "ban");
        send_act(c, json_pack("{s:s, s:s}", "type", "unban", "name", "vic"));
        mod_refused(c, "forbidden", "unban", "Only an administrator", "unban");
        send_act(c, json_pack("{s:s}", "type", "mod_log"));
        mod_refused(c, "forbidden", "mod_log", "Only an administrator", "mod_log");
    }
    /* Nothing changed: vic still sits at the table, still connected. */
    json_t *sum = mod_summary(vic, table);
    json_t *north = json_array_get(json_object_get(sum, "seats"), 0);
    CHECK(sum && strcmp(mod_str(north, "name"), "vic") == 0 && !vic->closed,
          "vic still sits at the table");
    json_decref(sum);
    e2e_client_free(alice);
    e2e_client_free(gus);
    e2e_client_free(vic);
    e2e_client_free(fake);
    e2e_server_stop(&srv);
    char *rows = mod_db_rows(srv.db, "SELECT count(*) FROM moderation");
    CHECK(strcmp(rows, "0") == 0, "and the store holds no act (%s)", rows);
    free(rows);
}
