/*
 * moderation.c - runs the moderation scenarios (moderation.h) by name:
 * moderation BARBU SCENARIO...; and the helpers they share.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moderation.h"

static int next_id = 7000;

e2e_client *mod_guest(const char *name, int port, const char *source)
{
    e2e_client *c = e2e_client_new_from(name, port, source);
    e2e_hello(c, name);
    return c;
}

static e2e_client *account(const char *name, int port, const char *source, int admin, bool sign_up)
{
    e2e_client *c = e2e_client_new_from(name, port, source);
    snprintf(c->name, sizeof c->name, "%s", name);
    json_t *m = json_pack("{s:s, s:i, s:s, s:s, s:i}", "type", "hello", "version", 1, "name", name,
                          "password", MOD_PASSWORD, "id", next_id++);
    if (sign_up)
        json_object_set_new(m, "register", json_true());
    e2e_send(c, m);
    json_t *w = e2e_expect(c, "welcome", 10000);
    if (w == NULL) {
        json_t *e = e2e_peek(c, "error");
        char *t = e ? json_dumps(e, JSON_COMPACT) : NULL;
        e2e_die("%s: %s as %s: no welcome (%s)", name, sign_up ? "sign up" : "sign in", name,
                t ? t : "nothing");
    }
    CHECK(json_is_true(json_object_get(w, "registered")), "%s: welcome says registered", name);
    if (admin >= 0)
        CHECK(json_is_true(json_object_get(w, "admin")) == (admin == 1),
              "%s: welcome says admin %s", name, admin ? "true" : "false");
    const char *token = json_string_value(json_object_get(w, "token"));
    snprintf(c->token, sizeof c->token, "%s", token ? token : "");
    json_decref(w);
    json_t *l = e2e_expect(c, "lobby", 5000);
    REQUIRE(l != NULL, "%s: a lobby follows the welcome", name);
    json_decref(l);
    return c;
}

e2e_client *mod_signup(const char *name, int port, const char *source, int admin)
{
    return account(name, port, source, admin, true);
}

e2e_client *mod_signin(const char *name, int port, const char *source, int admin)
{
    return account(name, port, source, admin, false);
}

const char *mod_text(const json_t *m)
{
    return mod_str(m, "text");
}

const char *mod_str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

void mod_refused(e2e_client *c, const char *code, const char *re, const char *word,
                 const char *what)
{
    json_t *e = e2e_expect_error(c, code, re, 5000);
    CHECK(e != NULL, "%s: %s is refused with %s", c->label, what, code);
    if (e && word)
        CHECK(strstr(mod_text(e), word) != NULL, "%s: the refusal of %s says \"%s\": %s", c->label,
              what, word, mod_text(e));
    json_decref(e);
}

void mod_hello_refused(const char *label, int port, const char *source, const char *name,
                       const char *password, const char *code)
{
    e2e_client *c = e2e_client_new_from(label, port, source);
    json_t *m = json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "name", name);
    if (password)
        json_object_set_new(m, "password", json_string(password));
    e2e_send(c, m);
    char what[96];
    snprintf(what, sizeof what, "hello as %s%s", name, password ? " with the password" : "");
    mod_refused(c, code, "hello", NULL, what);
    e2e_client_free(c);
}

bool mod_done(e2e_client *c, const char *re, const char *what)
{
    json_t *d = e2e_expect(c, "done", 5000);
    if (d == NULL) {
        json_t *e = e2e_peek(c, "error");
        char *t = e ? json_dumps(e, JSON_COMPACT) : NULL;
        CHECK(false, "%s: %s is done (got %s)", c->label, what, t ? t : "nothing");
        free(t);
        return false;
    }
    bool ok = strcmp(mod_str(d, "re"), re) == 0;
    CHECK(ok, "%s: %s is done (re %s)", c->label, what, mod_str(d, "re"));
    json_decref(d);
    return ok;
}

json_t *mod_summary(e2e_client *c, int table)
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

char *mod_db_rows(const char *db, const char *sql)
{
    sqlite3 *h = NULL;
    REQUIRE(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK, "open %s: %s", db,
            h ? sqlite3_errmsg(h) : "?");
    sqlite3_stmt *st = NULL;
    REQUIRE(sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK, "prepare %s: %s", sql,
            sqlite3_errmsg(h));
    size_t cap = 4096, len = 0;
    char *out = calloc(1, cap);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        int n = snprintf(out + len, cap - len, "%s%s", len ? "|" : "", v ? v : "NULL");
        if (n > 0 && (size_t)n < cap - len)
            len += (size_t)n;
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return out;
}

static const e2e_scenario SCENARIOS[] = {
    /* clang-format off */
    {"ladder_refusals", moderation_ladder_refusals},
    {"ladder_players", moderation_ladder_players},
    {"close_remove", moderation_close_remove},
    {"ban", moderation_ban},
    {"report", moderation_report},
    {"admin_later", moderation_admin_later},
    {"forbidden", moderation_forbidden},
    /* clang-format on */
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    return e2e_main("moderation", argc, argv, SCENARIOS);
}
