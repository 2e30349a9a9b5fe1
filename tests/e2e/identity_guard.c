/*
 * identity_guard.c - nobody else acts for, sits as or reads the hand of a
 * registered player at a table (every way in: the name without its
 * password, a wrong password, a look-alike, a made-up or revoked token,
 * sitting in the seat, watching it where the table forbids, acting for
 * it), and the registered mark on seats and chat lines.
 */
#include <stdio.h>
#include <string.h>

#include "identity.h"

/* Whether any view c received shows the cards of seat. */
static bool saw_hand(const e2e_client *c, int seat)
{
    for (int i = 0; i < c->nlog; i++) {
        json_t *m = json_loads(c->log[i].text, 0, NULL);
        bool seen = m && strcmp(id_type(m), "view") == 0 && (e2e_hands_seen(m) >> seat & 1);
        json_decref(m);
        if (seen)
            return true;
    }
    return false;
}

static void send_refused(e2e_client *c, json_t *msg, const char *code, const char *what)
{
    e2e_send(c, msg);
    json_t *r = e2e_expect(c, "error", 3000);
    CHECK(id_is(r, code), "%s: refused with %s (got %s: %s)", what, code, id_code(r), id_text(r));
    json_decref(r);
}

void identity_guard(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "guard.db");
    e2e_client *z = e2e_client_new("zoe", srv.port);
    id_sign(z, "Zo\xc3\xab", "zoe's password", true);
    char zoe_token[80];
    snprintf(zoe_token, sizeof zoe_token, "%s", z->token);
    /* Zoë at N with three computer players; nobody may watch. */
    int table = e2e_create(z, "uk",
                           json_pack("{s:s, s:[s,s,s], s:s, s:i}", "sit", "N", "bots", "E", "S",
                                     "W", "kibitz", "none", "delay", 100));
    json_t *v = e2e_expect(z, "view", 5000);
    CHECK(v && (e2e_hands_seen(v) & 1), "Zoë sees her hand");
    json_decref(v);

    e2e_client *m = e2e_client_new("mallory", srv.port);
    m->logging = true;
    id_refused(m, "Zo\xc3\xab", NULL, false, "registered", NULL);
    id_refused(m, "zoe\xcc\x88", NULL, false, "registered", NULL);
    id_refused(m, "ZO\xc3\x8b", "guessed password", false, "bad_password", NULL);
    id_refused(m, "Zo\xc3\xab", "zoe's password", true, "name_taken", NULL);
    char made_up[80];
    snprintf(made_up, sizeof made_up, "%064d", 7);
    json_t *r = id_token_hello(m, made_up);
    CHECK(id_is(r, "bad_token"), "a made-up token is refused (got %s)", id_code(r));
    json_decref(r);
    /* Mallory as herself. */
    e2e_hello(m, "Mallory");
    send_refused(m, json_pack("{s:s, s:i, s:s}", "type", "sit", "table", table, "seat", "N"),
                 "seat_taken", "sitting in Zoë's seat");
    send_refused(m, json_pack("{s:s, s:i, s:s}", "type", "kibitz", "table", table, "seat", "N"),
                 "kibitz_refused", "watching Zoë's seat");
    send_refused(
        m, json_pack("{s:s, s:{s:s, s:s}}", "type", "act", "action", "type", "pass", "seat", "N"),
        "not_seated", "acting for Zoë");
    /* Zoë goes away: her seat is still hers. */
    e2e_client_drop(z);
    e2e_pump(500);
    send_refused(m, json_pack("{s:s, s:i, s:s}", "type", "sit", "table", table, "seat", "N"),
                 "seat_taken", "sitting in Zoë's seat while she is away");
    e2e_client *m2 = e2e_client_new("mallory-2", srv.port);
    m2->logging = true;
    id_refused(m2, "Zo\xc3\xab", NULL, false, "registered", NULL);
    /* She comes back with her token, and signs out everywhere: her token
     * no longer opens her seat. */
    e2e_client *z2 = e2e_client_new("zoe-2", srv.port);
    r = id_token_hello(z2, zoe_token);
    CHECK(strcmp(id_type(r), "welcome") == 0, "Zoë comes back with her token (got %s)", id_code(r));
    json_decref(r);
    v = e2e_expect(z2, "view", 5000);
    CHECK(v && (e2e_hands_seen(v) & 1), "and sees her hand again");
    json_decref(v);
    e2e_send(z2, json_pack("{s:s, s:b}", "type", "logout", "everywhere", 1));
    CHECK(id_bye(z2, "logout", 3000), "Zoë signs out everywhere");
    e2e_client *thief = e2e_client_new("thief", srv.port);
    thief->logging = true;
    r = id_token_hello(thief, zoe_token);
    CHECK(id_is(r, "bad_token"), "her stolen token is refused after she signed out (got %s)",
          id_code(r));
    json_decref(r);
    id_refused(thief, "Zo\xc3\xab", NULL, false, "registered", NULL);
    e2e_pump(300);
    CHECK(!saw_hand(m, 0) && !saw_hand(m2, 0) && !saw_hand(thief, 0),
          "nobody else ever saw Zoë's hand");
    e2e_server_stop(&srv);
}

/* The registered mark: on seats in the lobby and table messages, and chat
 * lines; absent for guests and computer players. */
void identity_shown(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "shown.db");
    e2e_client *z = e2e_client_new("zoe", srv.port);
    id_sign(z, "Zo\xc3\xab", "zoe's password", true);
    e2e_client *g = e2e_client_new("guest", srv.port);
    e2e_hello(g, "Gary");
    int table = e2e_create(z, "uk", json_pack("{s:s, s:[s]}", "sit", "N", "bots", "S"));
    e2e_clear(g);
    e2e_sit(g, table, 1);
    json_t *t = e2e_expect(z, "table", 3000);
    json_t *seats = json_object_get(t, "seats");
    CHECK(json_is_true(json_object_get(json_array_get(seats, 0), "registered")),
          "the table message marks Zoë registered");
    CHECK(json_object_get(json_array_get(seats, 1), "registered") == NULL,
          "and not the guest Gary");
    CHECK(json_object_get(json_array_get(seats, 2), "registered") == NULL,
          "nor the computer player");
    json_decref(t);
    e2e_client *l = e2e_client_new("lobby", srv.port);
    e2e_send(l, json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "name", "Looker"));
    json_decref(e2e_expect(l, "welcome", 3000));
    json_t *lobby = e2e_expect(l, "lobby", 3000);
    json_t *tables = json_object_get(lobby, "tables");
    json_t *ls = json_object_get(json_array_get(tables, 0), "seats");
    CHECK(json_is_true(json_object_get(json_array_get(ls, 0), "registered")) &&
              json_object_get(json_array_get(ls, 1), "registered") == NULL,
          "the lobby marks Zoë registered and not Gary");
    json_decref(lobby);
    e2e_clear(g);
    e2e_send(z, json_pack("{s:s, s:s}", "type", "chat", "text", "hi"));
    json_t *c = e2e_expect(g, "chat", 3000);
    CHECK(c && json_is_true(json_object_get(c, "registered")), "Zoë's chat line is marked");
    json_decref(c);
    e2e_clear(z);
    e2e_send(g, json_pack("{s:s, s:s}", "type", "chat", "text", "hello"));
    c = e2e_expect(z, "chat", 3000);
    CHECK(c && json_object_get(c, "registered") == NULL, "Gary's is not");
    json_decref(c);
    e2e_server_stop(&srv);
}
