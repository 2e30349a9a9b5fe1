/*
 * identity.c - registered handles end to end (issue 23, docs/protocol.md
 * "Accounts"): sign up, sign in from a second device, sign out here and
 * everywhere, change the password, look-alike and case-changed handles,
 * the sign-in limits, expired and stolen tokens, a restart, and no secret
 * in the log, the database or another client's messages.  The seat guards
 * are in identity_guard.c.
 *
 * identity BARBU SCENARIO...
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "identity.h"

static int next_id = 5000;

json_t *id_hello(e2e_client *c, const char *name, const char *password, bool reg)
{
    json_t *m = json_pack("{s:s, s:i, s:s, s:i}", "type", "hello", "version", 1, "name", name, "id",
                          next_id++);
    if (password)
        json_object_set_new(m, "password", json_string(password));
    if (reg)
        json_object_set_new(m, "register", json_true());
    e2e_send(c, m);
    long deadline = e2e_now_ms() + 8000;
    while (e2e_now_ms() < deadline) {
        json_t *w = e2e_peek(c, "welcome");
        json_t *e = e2e_peek(c, "error");
        if (w || e) {
            json_t *got = e2e_expect(c, w ? "welcome" : "error", 10);
            if (w) {
                snprintf(c->name, sizeof c->name, "%s",
                         json_string_value(json_object_get(got, "name")));
                snprintf(c->token, sizeof c->token, "%s",
                         json_string_value(json_object_get(got, "token")));
                json_decref(e2e_expect(c, "lobby", 3000));
            }
            return got;
        }
        e2e_pump(20);
    }
    return NULL;
}

json_t *id_token_hello(e2e_client *c, const char *token)
{
    e2e_send(c, json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "token", token));
    long deadline = e2e_now_ms() + 8000;
    while (e2e_now_ms() < deadline) {
        json_t *w = e2e_peek(c, "welcome");
        json_t *e = e2e_peek(c, "error");
        if (w || e) {
            json_t *got = e2e_expect(c, w ? "welcome" : "error", 10);
            if (w)
                json_decref(e2e_expect(c, "lobby", 3000));
            return got;
        }
        e2e_pump(20);
    }
    return NULL;
}

const char *id_type(const json_t *m)
{
    return m ? json_string_value(json_object_get(m, "type")) : "nothing";
}

const char *id_code(const json_t *m)
{
    const char *code = m ? json_string_value(json_object_get(m, "code")) : NULL;
    return code ? code : id_type(m);
}

const char *id_text(const json_t *m)
{
    const char *t = m ? json_string_value(json_object_get(m, "text")) : NULL;
    return t ? t : "";
}

bool id_is(const json_t *m, const char *code)
{
    return strcmp(id_code(m), code) == 0;
}

/* Signs up or in, which must work. */
void id_sign(e2e_client *c, const char *name, const char *password, bool reg)
{
    json_t *w = id_hello(c, name, password, reg);
    REQUIRE(w && strcmp(id_type(w), "welcome") == 0, "%s: %s %s: welcome (got %s: %s)", c->label,
            reg ? "sign up" : "sign in", name, id_code(w), id_text(w));
    CHECK(json_is_true(json_object_get(w, "registered")), "%s: welcome says registered", c->label);
    json_decref(w);
}

/* A hello refused with this code; the text holds want when not NULL. */
void id_refused(e2e_client *c, const char *name, const char *password, bool reg, const char *code,
                const char *want)
{
    json_t *r = id_hello(c, name, password, reg);
    CHECK(id_is(r, code), "%s: hello as %s%s refused with %s (got %s: %s)", c->label, name,
          password ? " with a password" : "", code, id_code(r), id_text(r));
    if (want)
        CHECK(strstr(id_text(r), want) != NULL, "%s: the refusal says \"%s\": %s", c->label, want,
              id_text(r));
    json_decref(r);
}

/* Whether a bye with this reason came to c within ms. */
bool id_bye(e2e_client *c, const char *reason, int ms)
{
    json_t *b = e2e_expect(c, "bye", ms);
    bool ok = b && strcmp(json_string_value(json_object_get(b, "reason")), reason) == 0;
    json_decref(b);
    return ok;
}

/* ------------------------------------------------------------ signup */

static void scenario_signup(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "signup.db");
    e2e_client *a = e2e_client_new("zoe", srv.port);
    json_t *w = id_hello(a, "Zo\xc3\xab", "correct horse", true);
    REQUIRE(w && strcmp(id_type(w), "welcome") == 0, "sign up as Zoë: welcome (got %s: %s)",
            id_code(w), id_text(w));
    CHECK(strcmp(json_string_value(json_object_get(w, "name")), "Zo\xc3\xab") == 0,
          "the welcome names Zoë as typed");
    CHECK(json_is_true(json_object_get(w, "registered")), "welcome: registered");
    CHECK(json_is_false(json_object_get(w, "admin")), "welcome: not an administrator");
    long long expires = json_integer_value(json_object_get(w, "expires"));
    long long now = (long long)time(NULL);
    CHECK(expires > now + 29 * 86400 && expires <= now + 30 * 86400 + 5,
          "welcome: the token expires in 30 days (%lld s)", expires - now);
    json_decref(w);
    char token[80];
    snprintf(token, sizeof token, "%s", a->token);

    /* The same handle in any case or form is taken; "Zoe" is another. */
    e2e_client *b = e2e_client_new("other", srv.port);
    id_refused(b, "ZO\xc3\x8b", NULL, false, "registered", "sign in with its password");
    id_refused(b, "zoe\xcc\x88", NULL, false, "registered", "Zo\xc3\xab");
    id_refused(b, "zo\xc3\xab", "correct horse", true, "name_taken", NULL);
    id_refused(b, "Zo\xc3\xab", "wrong horse", false, "bad_password", "name or the password");
    id_refused(b, "Nobody", "wrong horse", false, "bad_password", "name or the password");
    id_refused(b, "Zara", "short", true, "weak_password", "8 to 128");
    id_refused(b, "Zara Lee", "zara lee", true, "weak_password", "not be the name");
    id_refused(b, "a@b", "long enough", true, "bad_name", "\"@\"");
    json_t *g = id_hello(b, "Zoe", NULL, false);
    CHECK(strcmp(id_type(g), "welcome") == 0 && json_is_false(json_object_get(g, "registered")),
          "a guest may be Zoe, another handle (got %s)", id_code(g));
    json_decref(g);

    /* The token resumes; the password signs in from a second device. */
    e2e_client_drop(a);
    e2e_client *a2 = e2e_client_new("zoe-2", srv.port);
    json_t *r = id_token_hello(a2, token);
    CHECK(strcmp(id_type(r), "welcome") == 0 && json_is_true(json_object_get(r, "registered")),
          "the token signs Zoë in again (got %s: %s)", id_code(r), id_text(r));
    CHECK(json_integer_value(json_object_get(r, "expires")) == expires,
          "the token keeps its expiry");
    json_decref(r);
    e2e_client *a3 = e2e_client_new("zoe-3", srv.port);
    id_sign(a3, "zoe\xcc\x88", "correct horse", false);
    CHECK(strcmp(a3->name, "Zo\xc3\xab") == 0, "signed in as the account's name, Zoë (got %s)",
          a3->name);
    CHECK(strcmp(a3->token, token) != 0, "the second device has a token of its own");
    CHECK(id_bye(a2, "replaced", 3000), "the first connection hears bye replaced");
    /* Both tokens work: each device keeps its own. */
    e2e_client *a4 = e2e_client_new("zoe-4", srv.port);
    r = id_token_hello(a4, token);
    CHECK(strcmp(id_type(r), "welcome") == 0, "the first device's token still works (got %s)",
          id_code(r));
    json_decref(r);
    CHECK(id_bye(a3, "replaced", 3000), "and the second device hears bye replaced");

    /* A guest registers its own handle with register, keeping its session. */
    e2e_client *c = e2e_client_new("bob", srv.port);
    e2e_hello(c, "Bob");
    char guest_token[80];
    snprintf(guest_token, sizeof guest_token, "%s", c->token);
    e2e_send(c, json_pack("{s:s, s:s, s:i}", "type", "register", "password", "bob's password", "id",
                          77));
    json_t *acc = e2e_expect(c, "account", 8000);
    CHECK(acc && json_is_true(json_object_get(acc, "registered")) &&
              json_integer_value(json_object_get(acc, "id")) == 77,
          "register answers account with the id");
    const char *new_token = acc ? json_string_value(json_object_get(acc, "token")) : NULL;
    CHECK(new_token && strlen(new_token) == 64 && strcmp(new_token, guest_token) != 0,
          "account gives a new token");
    char bob_token[80] = "";
    if (new_token)
        snprintf(bob_token, sizeof bob_token, "%s", new_token);
    json_decref(acc);
    e2e_client *d = e2e_client_new("mallory", srv.port);
    r = id_token_hello(d, guest_token);
    CHECK(id_is(r, "bad_token"), "the guest token of a registered player no longer works (got %s)",
          id_code(r));
    json_decref(r);
    id_refused(d, "BOB", NULL, false, "registered", NULL);
    r = id_token_hello(d, bob_token);
    CHECK(strcmp(id_type(r), "welcome") == 0, "the account's token works (got %s)", id_code(r));
    json_decref(r);
    e2e_server_stop(&srv);
}

/* ------------------------------------------------------------ logout */

static void scenario_logout(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "logout.db");
    e2e_client *a = e2e_client_new("phone", srv.port);
    id_sign(a, "Claire", "claire's secret", true);
    char phone[80], laptop[80], tablet[80];
    snprintf(phone, sizeof phone, "%s", a->token);
    e2e_client *b = e2e_client_new("laptop", srv.port);
    id_sign(b, "claire", "claire's secret", false);
    snprintf(laptop, sizeof laptop, "%s", b->token);
    CHECK(id_bye(a, "replaced", 3000), "the phone is replaced by the laptop");

    /* Signing out here forgets this device's token only. */
    e2e_send(b, json_pack("{s:s}", "type", "logout"));
    CHECK(id_bye(b, "logout", 3000), "logout: bye logout");
    e2e_client *x = e2e_client_new("x", srv.port);
    json_t *r = id_token_hello(x, laptop);
    CHECK(id_is(r, "bad_token"), "the laptop's token is refused after its logout (got %s)",
          id_code(r));
    json_decref(r);
    r = id_token_hello(x, phone);
    CHECK(strcmp(id_type(r), "welcome") == 0, "the phone's token still works (got %s)", id_code(r));
    json_decref(r);

    /* Everywhere: every token, and the connection hears bye. */
    e2e_client *t = e2e_client_new("tablet", srv.port);
    id_sign(t, "Claire", "claire's secret", false);
    snprintf(tablet, sizeof tablet, "%s", t->token);
    CHECK(id_bye(x, "replaced", 3000), "the phone's connection is replaced by the tablet");
    e2e_send(t, json_pack("{s:s, s:b}", "type", "logout", "everywhere", 1));
    CHECK(id_bye(t, "logout", 3000), "logout everywhere: bye logout");
    const char *all[] = {phone, laptop, tablet};
    for (int i = 0; i < 3; i++) {
        e2e_client *y = e2e_client_new("stolen", srv.port);
        r = id_token_hello(y, all[i]);
        CHECK(id_is(r, "bad_token"), "token %d is refused after signing out everywhere (got %s)", i,
              id_code(r));
        json_decref(r);
        e2e_client_free(y);
    }
    /* The password still signs in. */
    e2e_client *z = e2e_client_new("again", srv.port);
    id_sign(z, "Claire", "claire's secret", false);
    e2e_server_stop(&srv);
}

/* ------------------------------------------------------------ password */

static void scenario_password(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "password.db");
    e2e_client *a = e2e_client_new("old", srv.port);
    id_sign(a, "Dora", "first password", true);
    char first[80];
    snprintf(first, sizeof first, "%s", a->token);
    e2e_client *b = e2e_client_new("new", srv.port);
    id_sign(b, "Dora", "first password", false);
    e2e_send(b, json_pack("{s:s, s:s, s:s}", "type", "password", "password", "not the password",
                          "new_password", "second password"));
    json_t *r = e2e_expect(b, "error", 8000);
    CHECK(id_is(r, "bad_password"), "a wrong present password is refused (got %s)", id_code(r));
    json_decref(r);
    e2e_send(b, json_pack("{s:s, s:s, s:s}", "type", "password", "password", "first password",
                          "new_password", "short"));
    r = e2e_expect(b, "error", 8000);
    CHECK(id_is(r, "weak_password"), "a short new password is refused (got %s)", id_code(r));
    json_decref(r);
    e2e_send(b, json_pack("{s:s, s:s, s:s}", "type", "password", "password", "first password",
                          "new_password", "second password"));
    json_t *acc = e2e_expect(b, "account", 8000);
    REQUIRE(acc != NULL, "password: account");
    char second[80];
    snprintf(second, sizeof second, "%s", json_string_value(json_object_get(acc, "token")));
    json_decref(acc);
    e2e_client *x = e2e_client_new("x", srv.port);
    r = id_token_hello(x, first);
    CHECK(id_is(r, "bad_token"), "the other device's token is revoked (got %s)", id_code(r));
    json_decref(r);
    r = id_token_hello(x, b->token);
    CHECK(id_is(r, "bad_token"), "this device's old token is revoked too (got %s)", id_code(r));
    json_decref(r);
    id_refused(x, "Dora", "first password", false, "bad_password", NULL);
    r = id_token_hello(x, second);
    CHECK(strcmp(id_type(r), "welcome") == 0, "the new token works (got %s)", id_code(r));
    json_decref(r);
    e2e_client *y = e2e_client_new("y", srv.port);
    id_sign(y, "DORA", "second password", false);
    /* A guest has no password to change. */
    e2e_client *g = e2e_client_new("guest", srv.port);
    e2e_hello(g, "guest");
    e2e_send(g, json_pack("{s:s, s:s, s:s}", "type", "password", "password", "whatever it is",
                          "new_password", "second password"));
    r = e2e_expect(g, "error", 3000);
    CHECK(id_is(r, "not_registered"), "a guest's password is refused (got %s)", id_code(r));
    json_decref(r);
    e2e_server_stop(&srv);
}

/* ------------------------------------------------------------ look-alikes */

static void scenario_lookalike(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "lookalike.db");
    e2e_client *a = e2e_client_new("alice", srv.port);
    id_sign(a, "Alice", "alice's password", true);
    e2e_client *m = e2e_client_new("mallory", srv.port);
    id_refused(m, "\xe1\x8e\xaalice", NULL, false, "confusable", "Alice"); /* Cherokee Ꭺ */
    id_refused(m, "\xd0\x90lice", NULL, false, "confusable", "Alice");     /* Cyrillic А */
    id_refused(m, "\xef\xbc\xa1lice", NULL, false, "registered", "Alice"); /* full-width Ａ */
    id_refused(m, "ALICE", NULL, false, "registered", NULL);
    id_refused(m, "alice", NULL, false, "registered", NULL);
    id_refused(m, "A1ice", NULL, false, "confusable", "Alice");
    id_refused(m, "\xd0\x90lice", "password!!", true, "confusable", "Alice");
    id_refused(m, "p\xd0\xb0ypal", NULL, false, "bad_name", "one script");
    /* A live guest's handle cannot be registered by somebody else. */
    e2e_client *g = e2e_client_new("guest", srv.port);
    e2e_hello(g, "Gus");
    id_refused(m, "gus", "gus's password", true, "name_taken", NULL);
    e2e_server_stop(&srv);
}

/* ------------------------------------------------------------ the limits */

static void scenario_limits(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "limits.db");
    e2e_client *a = e2e_client_new("eve", srv.port);
    id_sign(a, "Eve", "eve's password", true);
    /* Five wrong passwords for one handle, from five addresses. */
    char src[32];
    for (int i = 0; i < 5; i++) {
        snprintf(src, sizeof src, "127.0.3.%d", i + 1);
        e2e_client *m = e2e_client_new_from("guesser", srv.port, src);
        id_refused(m, "Eve", "guess number", false, "bad_password", NULL);
        e2e_client_free(m);
    }
    e2e_client *m = e2e_client_new_from("guesser", srv.port, "127.0.3.9");
    json_t *r = id_hello(m, "eve", "eve's password", false);
    CHECK(id_is(r, "limit"), "after 5 wrong passwords even the right one waits (got %s: %s)",
          id_code(r), id_text(r));
    CHECK(strstr(id_text(r), "wait ") && strstr(id_text(r), " seconds"),
          "the refusal says how long to wait: %s", id_text(r));
    int wait = 0;
    const char *p = strstr(id_text(r), "wait ");
    if (p)
        wait = atoi(p + 5);
    CHECK(wait > 800 && wait <= 900, "about 15 minutes (%d s)", wait);
    json_decref(r);
    /* Another handle is not held up. */
    e2e_client *f = e2e_client_new_from("frank", srv.port, "127.0.3.10");
    id_sign(f, "Frank", "frank's password", true);

    /* Twenty attempts a minute from one address. */
    e2e_client *s = e2e_client_new_from("sprayer", srv.port, "127.0.4.1");
    char name[32];
    int refused_at = -1;
    for (int i = 0; i < 21 && refused_at < 0; i++) {
        snprintf(name, sizeof name, "nobody%d", i);
        r = id_hello(s, name, "some password", false);
        if (id_is(r, "limit")) {
            refused_at = i;
            CHECK(strstr(id_text(r), "wait ") != NULL, "the address limit says how long: %s",
                  id_text(r));
        }
        json_decref(r);
    }
    CHECK(refused_at == 20, "the 21st attempt from one address is refused (refused at %d)",
          refused_at);
    e2e_client *o = e2e_client_new_from("other", srv.port, "127.0.4.2");
    id_refused(o, "nobody", "some password", false, "bad_password", NULL);

    /* Five new accounts an hour from one address. */
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "maker%d", i);
        e2e_client *k = e2e_client_new_from("maker", srv.port, "127.0.4.3");
        id_sign(k, name, "maker's password", true);
        e2e_client_free(k);
    }
    e2e_client *k = e2e_client_new_from("maker", srv.port, "127.0.4.3");
    r = id_hello(k, "maker5", "maker's password", true);
    CHECK(id_is(r, "limit") && strstr(id_text(r), "wait "),
          "the sixth registration from one address within the hour waits (got %s: %s)", id_code(r),
          id_text(r));
    json_decref(r);
    e2e_server_stop(&srv);
}

/* ------------------------------------------------------------ expiry */

static void scenario_expiry(void)
{
    e2e_server srv;
    /* About 4 seconds (docs/protocol.md, --token-days). */
    const char *extra[] = {"--token-days", "0.00005", NULL};
    e2e_server_start_with(&srv, "expiry.db", extra);
    e2e_client *a = e2e_client_new("gil", srv.port);
    json_t *w = id_hello(a, "Gil", "gil's password", true);
    long long expires = json_integer_value(json_object_get(w, "expires"));
    CHECK(expires - (long long)time(NULL) <= 5, "the welcome says the short expiry");
    json_decref(w);
    char token[80];
    snprintf(token, sizeof token, "%s", a->token);
    e2e_client *b = e2e_client_new("gil-2", srv.port);
    json_t *r = id_token_hello(b, token);
    CHECK(strcmp(id_type(r), "welcome") == 0, "the token works before it expires (got %s)",
          id_code(r));
    json_decref(r);
    e2e_pump(6000);
    e2e_client *c = e2e_client_new("gil-3", srv.port);
    r = id_token_hello(c, token);
    CHECK(id_is(r, "bad_token") && strstr(id_text(r), "expired") &&
              strstr(id_text(r), "sign in again"),
          "an expired token is refused, saying to sign in again (got %s: %s)", id_code(r),
          id_text(r));
    json_decref(r);
    id_sign(c, "Gil", "gil's password", false);
    e2e_server_stop(&srv);
}

/* ------------------------------------------------------------ busy */

static void scenario_busy(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "busy.db");
    e2e_client *a = e2e_client_new("hal", srv.port);
    id_sign(a, "Hal", "hal's password", true);
    /* While its password is checked, a connection takes nothing else. */
    e2e_client *b = e2e_client_new("hal-2", srv.port);
    e2e_send(b, json_pack("{s:s, s:i, s:s, s:s}", "type", "hello", "version", 1, "name", "Hal",
                          "password", "hal's password"));
    e2e_send(b, json_pack("{s:s}", "type", "tables"));
    json_t *r = e2e_expect(b, "error", 5000);
    CHECK(id_is(r, "busy"), "a message during the check is refused (got %s: %s)", id_code(r),
          id_text(r));
    json_decref(r);
    json_t *w = e2e_expect(b, "welcome", 5000);
    CHECK(w != NULL, "then the sign-in answers");
    json_decref(w);
    /* Connections that close while their password is checked. */
    for (int i = 0; i < 6; i++) {
        e2e_client *c = e2e_client_new("closer", srv.port);
        e2e_send(c, json_pack("{s:s, s:i, s:s, s:s}", "type", "hello", "version", 1, "name", "Hal",
                              "password", "hal's password"));
        e2e_pump(i * 20);
        e2e_client_drop(c);
    }
    e2e_pump(1500);
    CHECK(e2e_server_alive(&srv), "the server survives connections closed mid-check");
    e2e_client *d = e2e_client_new("hal-3", srv.port);
    id_sign(d, "Hal", "hal's password", false);
    e2e_server_stop(&srv);
}

/* ------------------------------------------------------------ restart */

static void scenario_restart(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "restart.db");
    e2e_client *a = e2e_client_new("ivy", srv.port);
    id_sign(a, "Ivy", "ivy's password", true);
    char token[80];
    snprintf(token, sizeof token, "%s", a->token);
    e2e_client *g = e2e_client_new("guest", srv.port);
    e2e_hello(g, "Guest One");
    char guest[80];
    snprintf(guest, sizeof guest, "%s", g->token);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops");
    e2e_server_start(&srv, "restart.db");
    e2e_client *b = e2e_client_new("ivy-2", srv.port);
    json_t *r = id_token_hello(b, token);
    CHECK(strcmp(id_type(r), "welcome") == 0 && json_is_true(json_object_get(r, "registered")),
          "after a restart the registered token works (got %s: %s)", id_code(r), id_text(r));
    json_decref(r);
    e2e_client *c = e2e_client_new("guest-2", srv.port);
    r = id_token_hello(c, guest);
    CHECK(strcmp(id_type(r), "welcome") == 0 && json_is_false(json_object_get(r, "registered")),
          "and so does the guest's (got %s)", id_code(r));
    json_decref(r);
    e2e_client *d = e2e_client_new("ivy-3", srv.port);
    id_sign(d, "IVY", "ivy's password", false);
    e2e_client *m = e2e_client_new("mallory", srv.port);
    id_refused(m, "ivy", NULL, false, "registered", NULL);
    char ivy_token[80];
    snprintf(ivy_token, sizeof ivy_token, "%s", d->token);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops again");

    /* An account its administrators banned (accounts.banned) cannot sign
     * in, nor use its tokens. */
    sqlite3 *db;
    REQUIRE(sqlite3_open(srv.db, &db) == SQLITE_OK, "open %s", srv.db);
    CHECK(sqlite3_exec(db, "UPDATE accounts SET banned = 1 WHERE name = 'Ivy'", NULL, NULL, NULL) ==
                  SQLITE_OK &&
              sqlite3_changes(db) == 1,
          "Ivy is banned in the database");
    sqlite3_close(db);
    e2e_server_start(&srv, "restart.db");
    e2e_client *e = e2e_client_new("ivy-4", srv.port);
    id_refused(e, "Ivy", "ivy's password", false, "banned", "banned");
    r = id_token_hello(e, ivy_token);
    CHECK(id_is(r, "banned"), "a banned account's token is refused (got %s)", id_code(r));
    json_decref(r);
    id_refused(e, "Ivy", "a wrong password", false, "bad_password", NULL);
    e2e_server_stop(&srv);
}

/* ------------------------------------------------------------ secrets */

/* Whether the file holds the bytes. */
static bool file_has(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return false;
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    bool found = false;
    size_t k = strlen(needle);
    for (size_t i = 0; buf && i + k <= n && !found; i++)
        found = memcmp(buf + i, needle, k) == 0;
    free(buf);
    return found;
}

static bool logs_have(e2e_client *const *clients, int n, const char *needle)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < clients[i]->nlog; k++)
            if (strstr(clients[i]->log[k].text, needle))
                return true;
    return false;
}

static void scenario_secrets(void)
{
    e2e_server_logs = true;
    e2e_server srv;
    e2e_server_start(&srv, "secrets.db");
    /* Somebody else in the lobby and at the table hears everything public. */
    e2e_client *o = e2e_client_new_from("onlooker", srv.port, "127.0.5.1");
    o->logging = true;
    e2e_hello(o, "Onlooker");
    e2e_client *a = e2e_client_new("jo", srv.port);
    a->logging = true;
    const char *pw1 = "PW-one-7f3a9c", *pw2 = "PW-two-c8e1d2", *wrong = "PW-wrong-55aa";
    id_sign(a, "Jo", pw1, true);
    char t1[80];
    snprintf(t1, sizeof t1, "%s", a->token);
    int table =
        e2e_create(a, "uk", json_pack("{s:s, s:[s,s,s]}", "sit", "N", "bots", "E", "S", "W"));
    e2e_kibitz(o, table, 2);
    e2e_send(a, json_pack("{s:s, s:s}", "type", "chat", "text", "hello all"));
    e2e_pump(300);
    e2e_client *b = e2e_client_new("jo-2", srv.port);
    b->logging = true;
    id_refused(b, "Jo", wrong, false, "bad_password", NULL);
    id_sign(b, "jo", pw1, false);
    char t2[80];
    snprintf(t2, sizeof t2, "%s", b->token);
    e2e_send(
        b, json_pack("{s:s, s:s, s:s}", "type", "password", "password", pw1, "new_password", pw2));
    json_t *acc = e2e_expect(b, "account", 8000);
    char t3[80] = "";
    if (acc)
        snprintf(t3, sizeof t3, "%s", json_string_value(json_object_get(acc, "token")));
    json_decref(acc);
    e2e_send_text(b, "{\"type\":\"password\",\"password\":\"PW-two-c8e1d2\x01\"}");
    json_decref(e2e_expect(b, "error", 3000));
    e2e_client *g = e2e_client_new("guest", srv.port);
    g->logging = true;
    e2e_hello(g, "Guest");
    char t4[80];
    snprintf(t4, sizeof t4, "%s", g->token);
    e2e_pump(500);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops");
    e2e_server_logs = false;

    const char *secrets[] = {pw1, pw2, wrong, t1, t2, t3, t4};
    const char *what[] = {"the password",     "the new password", "a wrong password",
                          "the first token",  "the second token", "the token after the change",
                          "the guest's token"};
    char wal[400], db[400];
    snprintf(db, sizeof db, "%s", srv.db);
    snprintf(wal, sizeof wal, "%s-wal", srv.db);
    CHECK(file_has(srv.err, "signs in as Jo"), "the log is there to be searched");
    for (int i = 0; i < 7; i++) {
        CHECK(!file_has(srv.err, secrets[i]), "the log holds not %s", what[i]);
        CHECK(!file_has(db, secrets[i]), "the database holds not %s", what[i]);
        CHECK(!file_has(wal, secrets[i]), "the WAL holds not %s", what[i]);
        CHECK(!logs_have(&o, 1, secrets[i]), "the onlooker hears not %s", what[i]);
    }
    e2e_client *others[] = {g};
    for (int i = 0; i < 6; i++)
        CHECK(!logs_have(others, 1, secrets[i]), "the guest hears not %s", what[i]);
    /* Each client hears its own token, and the account's client no other. */
    CHECK(!logs_have(&a, 1, t2) && !logs_have(&a, 1, t3),
          "the first device hears no other device's token");
    CHECK(!logs_have(&a, 1, pw1) && !logs_have(&b, 1, pw2) && !logs_have(&b, 1, wrong),
          "no password comes back even to its sender");
}

/* Attempts sent all at once are counted as they are sent, not as their
 * passwords are checked: twelve registrations from one address make five
 * accounts, and twelve wrong passwords for one handle check five. */
static json_t *first_answer(e2e_client *c, const char *want)
{
    long deadline = e2e_now_ms() + 20000;
    while (e2e_now_ms() < deadline) {
        if (e2e_peek(c, want))
            return e2e_expect(c, want, 10);
        if (e2e_peek(c, "error"))
            return e2e_expect(c, "error", 10);
        e2e_pump(20);
    }
    return NULL;
}

static void scenario_limits_at_once(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "at_once.db");
    enum { N = 12 };
    e2e_client *g[N];
    char name[32], src[32];
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "claimer%d", i);
        g[i] = e2e_client_new_from("claimer", srv.port, "127.0.5.1");
        json_t *w = id_hello(g[i], name, NULL, false);
        REQUIRE(w && strcmp(id_type(w), "welcome") == 0, "guest %d is welcome (%s)", i, id_code(w));
        json_decref(w);
    }
    for (int i = 0; i < N; i++)
        e2e_send(g[i], json_pack("{s:s, s:s}", "type", "register", "password", "a long password"));
    int made = 0, limited = 0;
    for (int i = 0; i < N; i++) {
        json_t *got = first_answer(g[i], "account");
        if (got && strcmp(id_type(got), "account") == 0)
            made++;
        else if (id_is(got, "limit"))
            limited++;
        json_decref(got);
    }
    CHECK(made == 5 && limited == N - 5,
          "12 registrations sent at once from one address: 5 accounts made, the rest limited "
          "(%d made, %d limited)",
          made, limited);

    e2e_client *v = e2e_client_new("victim", srv.port);
    id_sign(v, "Victim", "victim's password", true);
    e2e_client *m[N];
    for (int i = 0; i < N; i++) {
        snprintf(src, sizeof src, "127.0.6.%d", i + 1);
        m[i] = e2e_client_new_from("guesser", srv.port, src);
        e2e_send(m[i], json_pack("{s:s, s:i, s:s, s:s}", "type", "hello", "version", 1, "name",
                                 "Victim", "password", "wrong guess"));
    }
    int checked = 0, held = 0;
    for (int i = 0; i < N; i++) {
        json_t *got = first_answer(m[i], "welcome");
        if (id_is(got, "bad_password"))
            checked++;
        else if (id_is(got, "limit"))
            held++;
        json_decref(got);
    }
    CHECK(checked == 5 && held == N - 5,
          "12 wrong passwords for one handle sent at once: 5 checked, the rest limited "
          "(%d checked, %d limited)",
          checked, held);
    for (int i = 0; i < N; i++) {
        e2e_client_free(g[i]);
        e2e_client_free(m[i]);
    }
    e2e_client_free(v);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");
}

static const e2e_scenario SCENARIOS[] = {
    {"signup", scenario_signup},
    {"logout", scenario_logout},
    {"password", scenario_password},
    {"lookalike", scenario_lookalike},
    {"limits", scenario_limits},
    {"limits_at_once", scenario_limits_at_once},
    {"expiry", scenario_expiry},
    {"busy", scenario_busy},
    {"restart", scenario_restart},
    {"secrets", scenario_secrets},
    {"guard", identity_guard},
    {"shown", identity_shown},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    return e2e_main("identity", argc, argv, SCENARIOS);
}
