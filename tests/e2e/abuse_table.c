/*
 * abuse_table.c - what a kibitzer or a table's creator could learn or say
 * that a person at a real table could not (abuse.h): walking round the
 * seats to read every hand, a player watching their own table from a second
 * tab, a chosen seed nobody was told of, a kibitzer telling a player the
 * cards.
 *
 * The server tells clients apart by the address they connect from: the
 * players here connect from 127.0.0.1 and each stranger from an address of
 * its own (127.0.0.x), as people at different homes would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abuse.h"

static const char SEATS[] = "NESW";

/* hello with a name and a browser's device id (NULL for none). */
static void hello_device(e2e_client *c, const char *name, const char *device)
{
    snprintf(c->name, sizeof c->name, "%s", name);
    json_t *m = json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "name", name);
    if (device)
        json_object_set_new(m, "device", json_string(device));
    e2e_send(c, m);
    json_t *w = e2e_expect(c, "welcome", 5000);
    REQUIRE(w != NULL, "%s: hello as %s is welcomed", c->label, name);
    snprintf(c->token, sizeof c->token, "%s", json_string_value(json_object_get(w, "token")));
    json_decref(w);
    json_t *l = e2e_expect(c, "lobby", 5000);
    REQUIRE(l != NULL, "%s: a lobby follows the welcome", c->label);
    json_decref(l);
}

static e2e_client *client_at(const char *label, int port, const char *source, const char *device)
{
    e2e_client *c = e2e_client_new_from(label, port, source);
    hello_device(c, label, device);
    return c;
}

/* Four people at a new table (North creates it with extra options and
 * sits; the others sit), from the given addresses.  The game starts;
 * nobody acts. */
static int four_at(e2e_client *p[4], int port, const char *prefix, const char *const source[4],
                   json_t *extra)
{
    for (int k = 0; k < 4; k++) {
        char label[24];
        snprintf(label, sizeof label, "%s-%c", prefix, SEATS[k]);
        p[k] = client_at(label, port, source[k], NULL);
    }
    json_t *opts = json_pack("{s:s, s:i, s:s}", "sit", "N", "delay", 0, "seed", "777");
    if (extra) {
        json_object_update(opts, extra);
        json_decref(extra);
    }
    int table = e2e_create(p[0], "uk", opts);
    json_t *t = e2e_expect(p[0], "table", 5000);
    REQUIRE(t != NULL, "%s: create with sit sends the table", p[0]->label);
    json_decref(t);
    for (int k = 1; k < 4; k++)
        e2e_sit(p[k], table, k);
    for (int k = 0; k < 4; k++) {
        json_t *v = e2e_expect(p[k], "view", 5000);
        REQUIRE(v != NULL, "%s: the game starts", p[k]->label);
        json_decref(v);
    }
    return table;
}

/* The seat a table message says c kibitzes ("" when none), and the one it
 * will watch from the next deal ("" when none). */
static const char *you_kibitz(const json_t *t, const char *key)
{
    const char *k = json_string_value(json_object_get(json_object_get(t, "you"), key));
    return k ? k : "";
}

/* Sends kibitz and returns the error code it got ("" when it was let in,
 * after taking its table message into *table_msg when asked). */
static const char *try_kibitz_msg(e2e_client *c, int table, const char *seat, char *text,
                                  size_t cap, json_t **table_msg)
{
    static char code[32];
    e2e_clear(c);
    e2e_send(c, json_pack("{s:s, s:i, s:s}", "type", "kibitz", "table", table, "seat", seat));
    for (long end = e2e_now_ms() + 5000; e2e_now_ms() < end;) {
        json_t *m;
        if ((m = e2e_peek(c, "error")) != NULL) {
            m = e2e_expect(c, "error", 0);
            snprintf(code, sizeof code, "%s", json_string_value(json_object_get(m, "code")));
            if (text)
                snprintf(text, cap, "%s", json_string_value(json_object_get(m, "text")));
            json_decref(m);
            return code;
        }
        if (e2e_peek(c, "table") != NULL) {
            m = e2e_expect(c, "table", 0);
            c->table = table;
            c->kibitz = e2e_seat_parse(you_kibitz(m, "kibitz"));
            if (table_msg)
                *table_msg = m;
            else
                json_decref(m);
            return "";
        }
        e2e_pump(20);
    }
    return "(no answer)";
}

static const char *try_kibitz(e2e_client *c, int table, const char *seat, char *text, size_t cap)
{
    return try_kibitz_msg(c, table, seat, text, cap, NULL);
}

static void leave(e2e_client *c)
{
    e2e_send(c, json_pack("{s:s}", "type", "leave"));
    json_t *l = e2e_expect(c, "lobby", 5000);
    CHECK(l != NULL, "%s: leave brings the lobby", c->label);
    json_decref(l);
    c->table = 0;
    c->kibitz = -1;
}

static bool stop_at_deal_one(const e2e_client *mover, void *ctx)
{
    (void)ctx;
    return e2e_view_int(mover->view, "deal") >= 1;
}

/* 1. A kibitzer of a running game stays with the seat it chose until the
 * deal ends: it cannot walk round the seats (kibitz again, or leave and
 * come back, or come back under another name from the same place). */
void abuse_kibitz_seats(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "kibitz_seats.db");
    e2e_client *p[4];
    const char *const home[4] = {NULL, "127.0.0.2", "127.0.0.3", "127.0.0.4"};
    int table = four_at(p, srv.port, "ks", home, NULL);

    e2e_client *kib = client_at("kib", srv.port, "127.0.0.9", NULL);
    kib->logging = true;
    char why[400] = "";
    CHECK(strcmp(try_kibitz(kib, table, "E", NULL, 0), "") == 0, "a stranger kibitzes East");
    /* The view of East follows the table message; wait for it so that it
     * cannot arrive after the next request and be taken for its answer. */
    json_t *east = e2e_expect(kib, "view", 5000);
    CHECK(east != NULL && e2e_hands_seen(east) == 0x2, "and sees East's hand (seats 0x%x)",
          east ? e2e_hands_seen(east) : 0);
    json_decref(east);
    json_t *t = NULL;
    const char *code = try_kibitz_msg(kib, table, "S", why, sizeof why, &t);
    CHECK(strcmp(code, "") == 0 && strcmp(you_kibitz(t, "kibitz"), "E") == 0 &&
              strcmp(you_kibitz(t, "next"), "S") == 0,
          "watching East, a kibitzer who asks for South goes on watching East and will watch "
          "South from the next deal (got '%s' %s)",
          code, why);
    json_decref(t);
    e2e_pump(300);
    unsigned later = 0;
    while (e2e_peek(kib, "view") != NULL) {
        json_t *v = e2e_expect(kib, "view", 0);
        later |= e2e_hands_seen(v);
        json_decref(v);
    }
    CHECK((later & 0x4) == 0, "and gets no view of South now (seats 0x%x)", later);
    leave(kib);
    code = try_kibitz(kib, table, "S", why, sizeof why);
    CHECK(strcmp(code, "kibitz_refused") == 0,
          "having left, the kibitzer may not come back for South in the same deal (got '%s')",
          code);
    CHECK(strstr(why, "E") && strstr(why, "deal"),
          "the refusal says East was watched this deal: %s", why);
    e2e_client *again = client_at("kib-again", srv.port, "127.0.0.9", NULL);
    code = try_kibitz(again, table, "W", why, sizeof why);
    CHECK(strcmp(code, "kibitz_refused") == 0,
          "a second session from the kibitzer's address may not watch West (got '%s')", code);
    CHECK(strcmp(try_kibitz(again, table, "E", NULL, 0), "") == 0,
          "it may watch the seat already watched, East");
    CHECK(strcmp(try_kibitz(kib, table, "E", NULL, 0), "") == 0,
          "the kibitzer may come back to East");
    code = try_kibitz_msg(kib, table, "S", why, sizeof why, &t);
    CHECK(strcmp(code, "") == 0 && strcmp(you_kibitz(t, "next"), "S") == 0,
          "and ask for South from the next deal");
    json_decref(t);
    e2e_client *other = client_at("kib-other", srv.port, "127.0.0.10", NULL);
    CHECK(strcmp(try_kibitz(other, table, "S", NULL, 0), "") == 0,
          "somebody at another address watches South");

    /* The deal is played out; then the kibitzer watches South. */
    int group = e2e_new_group();
    for (int k = 0; k < 4; k++) {
        p[k]->group = group;
        p[k]->autoplay = true;
    }
    e2e_play(stop_at_deal_one, NULL, 60000);
    REQUIRE(e2e_halted_in[group] != NULL, "the first deal ends");
    /* The kibitzer's views of the second deal may come a little after the
     * players' (a busy machine): wait up to 5 s for one, then 300 ms more. */
    unsigned seen1 = 0;
    for (long end = e2e_now_ms() + 5000, more = 0; e2e_now_ms() < end;) {
        e2e_pump(50);
        seen1 = 0;
        for (int i = 0; i < kib->nlog; i++) {
            json_t *m = json_loads(kib->log[i].text, 0, NULL);
            const char *type = json_string_value(json_object_get(m, "type"));
            if (type && strcmp(type, "view") == 0 && e2e_view_int(m, "deal") == 1)
                seen1 |= e2e_hands_seen(m);
            json_decref(m);
        }
        if (seen1 != 0 && more == 0) {
            more = 1;
            end = e2e_now_ms() + 300;
        }
    }
    CHECK(seen1 == 1u << 2, "in the second deal the kibitzer sees South's hand only (0x%x)", seen1);

    /* A player who stands up may not kibitz another hand of the deal. */
    leave(p[3]);
    code = try_kibitz(p[3], table, "N", why, sizeof why);
    CHECK(strcmp(code, "kibitz_refused") == 0,
          "West stands up and may not kibitz North in the same deal (got '%s')", code);
    CHECK(strcmp(try_kibitz(p[3], table, "W", NULL, 0), "") == 0, "but may watch West, its own");

    /* Nor may anyone who has seen another hand of the deal play it. */
    e2e_send(other, json_pack("{s:s, s:i, s:s}", "type", "sit", "table", table, "seat", "W"));
    json_t *e = e2e_expect_error(other, "seat_taken", "sit", 5000);
    CHECK(e && strstr(json_string_value(json_object_get(e, "text")), "watched S"),
          "the kibitzer of South may not sit West, left free, in the same deal");
    json_decref(e);
    e2e_sit(p[3], table, 3);
    CHECK(p[3]->seat == 3, "West sits down again in its own seat");

    /* Every view the kibitzer had in the first deal showed East's hand at most. */
    unsigned seen = 0;
    int views = 0;
    for (int i = 0; i < kib->nlog; i++) {
        json_t *m = json_loads(kib->log[i].text, 0, NULL);
        const char *type = json_string_value(json_object_get(m, "type"));
        if (type && strcmp(type, "view") == 0 && e2e_view_int(m, "deal") == 0) {
            seen |= e2e_hands_seen(m);
            views++;
        }
        json_decref(m);
    }
    CHECK(views > 0 && seen == 1u << 1,
          "in the first deal the kibitzer saw East's hand and no other (%d views, seats 0x%x)",
          views, seen);
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
}

/* 1. A player's second session (another tab, another handle) at the same
 * address or in the same browser is refused the table's hands, unless the
 * creator allowed a household; a kibitzer at a newcomer's place is sent
 * away when the newcomer sits. */
void abuse_kibitz_address(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "kibitz_address.db");
    /* North plays from 127.0.0.1 in a browser; the others from elsewhere. */
    const char *const places[4] = {NULL, "127.0.0.2", "127.0.0.3", "127.0.0.4"};
    e2e_client *p[4];
    for (int k = 0; k < 4; k++) {
        char label[24];
        snprintf(label, sizeof label, "ka-%c", SEATS[k]);
        p[k] = client_at(label, srv.port, places[k], k == 0 ? "north-browser-0123456789" : NULL);
    }
    int table = e2e_create(p[0], "uk", json_pack("{s:s, s:i}", "sit", "N", "delay", 0));
    json_decref(e2e_expect(p[0], "table", 5000));
    for (int k = 1; k < 4; k++)
        e2e_sit(p[k], table, k);

    char why[400] = "";
    e2e_client *tab = client_at("ka-tab", srv.port, NULL, NULL);
    const char *code = try_kibitz(tab, table, "E", why, sizeof why);
    CHECK(strcmp(code, "kibitz_refused") == 0,
          "a second session from North's address may not watch East (got '%s')", code);
    CHECK(strstr(why, "ka-N") != NULL, "the refusal names the player at that address: %s", why);
    e2e_client *same_browser =
        client_at("ka-browser", srv.port, "127.0.0.20", "north-browser-0123456789");
    code = try_kibitz(same_browser, table, "W", why, sizeof why);
    CHECK(strcmp(code, "kibitz_refused") == 0,
          "a second tab of North's browser, from another address, may not watch West (got '%s')",
          code);
    e2e_client *stranger = client_at("ka-stranger", srv.port, "127.0.0.30", "another-browser-0001");
    CHECK(strcmp(try_kibitz(stranger, table, "W", NULL, 0), "") == 0,
          "a stranger elsewhere may watch West");

    /* Somebody watches a waiting table; then somebody from the same place sits. */
    e2e_client *host = client_at("ka-host", srv.port, "127.0.0.50", NULL);
    int waiting = e2e_create(host, "uk", json_pack("{s:s}", "sit", "N"));
    json_decref(e2e_expect(host, "table", 5000));
    e2e_client *watcher = client_at("ka-watcher", srv.port, "127.0.0.40", NULL);
    CHECK(strcmp(try_kibitz(watcher, waiting, "E", NULL, 0), "") == 0,
          "someone watches the waiting table");
    e2e_client *sitter = client_at("ka-sitter", srv.port, "127.0.0.40", NULL);
    e2e_clear(watcher);
    e2e_sit(sitter, waiting, 1);
    json_t *e = e2e_expect_error(watcher, "kibitz_refused", NULL, 5000);
    CHECK(e != NULL, "the watcher is sent away when someone from its address sits");
    json_decref(e);
    json_t *l = e2e_expect(watcher, "lobby", 5000);
    CHECK(l != NULL, "and is back in the lobby");
    json_decref(l);

    /* A household table lets the family watch. */
    e2e_client *mum = client_at("ka-mum", srv.port, "127.0.0.60", NULL);
    int family = e2e_create(mum, "uk", json_pack("{s:s, s:b}", "sit", "N", "household", 1));
    json_t *t = e2e_expect(mum, "table", 5000);
    CHECK(t && json_is_true(json_object_get(t, "household")), "the table says it is a household's");
    json_decref(t);
    e2e_client *kid = client_at("ka-kid", srv.port, "127.0.0.60", NULL);
    CHECK(strcmp(try_kibitz(kid, family, "N", NULL, 0), "") == 0,
          "at a household table, someone at the player's address may watch");
    e2e_client *dad = client_at("ka-dad", srv.port, "127.0.0.60", NULL);
    e2e_sit(dad, family, 2);
    e2e_pump(300);
    CHECK(e2e_peek(kid, "error") == NULL && kid->table == family,
          "and is not sent away when another of them sits");
    /* A player whose seat a computer player keeps still counts, and one
     * who comes back sends away the kibitzers at its new place. */
    e2e_client *away = client_at("ka-away", srv.port, "127.0.0.70", NULL);
    int kept =
        e2e_create(away, "uk",
                   json_pack("{s:s, s:[s,s,s], s:s, s:i, s:s, s:i}", "sit", "N", "bots", "E", "S",
                             "W", "level", "random", "delay", 5000, "takeover", "bot", "grace", 0));
    json_decref(e2e_expect(away, "table", 5000));
    e2e_client_drop(away);
    /* The tick seats a computer player in North. */
    for (long end = e2e_now_ms() + 2500; e2e_now_ms() < end;)
        e2e_pump(100);
    e2e_client *twin = client_at("ka-twin", srv.port, "127.0.0.70", NULL);
    code = try_kibitz(twin, kept, "E", why, sizeof why);
    CHECK(strcmp(code, "kibitz_refused") == 0 && strstr(why, "ka-away"),
          "while a computer player keeps North for ka-away, ka-away's address may not watch "
          "(got '%s': %s)",
          code, why);
    e2e_client *elsewhere = client_at("ka-elsewhere", srv.port, "127.0.0.71", NULL);
    CHECK(strcmp(try_kibitz(elsewhere, kept, "E", NULL, 0), "") == 0,
          "someone at another address watches East");
    snprintf(away->source, sizeof away->source, "127.0.0.71");
    e2e_client_reconnect(away, srv.port);
    e2e_resume(away);
    e = e2e_expect_error(elsewhere, "kibitz_refused", NULL, 5000);
    CHECK(e != NULL, "ka-away comes back from that address: the kibitzer there is sent away");
    json_decref(e);

    /* A table holds 50 kibitzers at most. */
    e2e_client *crowded = client_at("ka-crowded", srv.port, "127.0.0.80", NULL);
    int busy = e2e_create(crowded, "uk", json_pack("{s:s}", "sit", "N"));
    json_decref(e2e_expect(crowded, "table", 5000));
    int let_in = 0;
    for (int i = 0; i < 51; i++) {
        char label[24], source[16];
        snprintf(label, sizeof label, "ka-crowd%d", i);
        snprintf(source, sizeof source, "127.0.1.%d", i + 1);
        e2e_client *k = client_at(label, srv.port, source, NULL);
        code = try_kibitz(k, busy, "E", why, sizeof why);
        if (code[0] == '\0')
            let_in++;
        else
            CHECK(i == 50 && strcmp(code, "limit") == 0,
                  "only the 51st kibitzer is refused, with limit (%d: '%s' %s)", i, code, why);
    }
    CHECK(let_in == 50, "50 kibitzers watch one table (%d)", let_in);
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
}

static bool has_seed_mark(const json_t *o, const char *who)
{
    const char *by = json_string_value(json_object_get(o, "seed_chosen_by"));
    return by && strcmp(by, who) == 0;
}

/* The summary of a table in a lobby message, or NULL. */
static json_t *summary_of(json_t *lobby, int table)
{
    json_t *list = json_object_get(lobby, "tables");
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *s = json_array_get(list, i);
        if (json_integer_value(json_object_get(s, "id")) == table)
            return s;
    }
    return NULL;
}

/* 2. A table whose creator chose the seed says so to everyone before
 * anyone sits, and marks the creator as knowing the deals. */
void abuse_seed(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "seed.db");
    e2e_client *looker = client_at("sd-looker", srv.port, "127.0.0.2", NULL);
    e2e_client *maker = client_at("sd-maker", srv.port, NULL, NULL);
    e2e_clear(looker);
    int table = e2e_create(maker, "uk", json_pack("{s:s}", "seed", "20261127"));
    json_t *listed = e2e_expect(looker, "listed", 5000);
    CHECK(listed && has_seed_mark(json_object_get(listed, "table"), "sd-maker"),
          "the lobby hears at once that sd-maker chose the seed of the new table");
    json_decref(listed);
    e2e_send(looker, json_pack("{s:s}", "type", "tables"));
    json_t *lobby = e2e_expect(looker, "lobby", 5000);
    CHECK(lobby && has_seed_mark(summary_of(lobby, table), "sd-maker"),
          "the lobby list says so too");
    json_decref(lobby);
    int plain = e2e_create(looker, "uk", NULL);
    e2e_send(looker, json_pack("{s:s}", "type", "tables"));
    lobby = e2e_expect(looker, "lobby", 5000);
    CHECK(lobby && summary_of(lobby, plain) &&
              json_object_get(summary_of(lobby, plain), "seed_chosen_by") == NULL,
          "a table with a drawn seed carries no such mark");
    json_decref(lobby);

    e2e_sit(maker, table, 0);
    e2e_client *sitter = client_at("sd-sitter", srv.port, "127.0.0.3", NULL);
    e2e_send(sitter, json_pack("{s:s, s:i, s:s}", "type", "sit", "table", table, "seat", "E"));
    json_t *t = e2e_expect(sitter, "table", 5000);
    CHECK(t && has_seed_mark(t, "sd-maker"), "the table message says who chose the seed");
    json_t *north = json_array_get(json_object_get(t, "seats"), 0);
    json_t *east = json_array_get(json_object_get(t, "seats"), 1);
    CHECK(json_is_true(json_object_get(north, "knows_deals")),
          "the creator's seat is marked as knowing the deals");
    CHECK(json_object_get(east, "knows_deals") == NULL, "nobody else's is");
    json_decref(t);

    /* The mark survives a restart of the server. */
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
    e2e_server_start(&srv, "seed.db");
    e2e_client *later = client_at("sd-later", srv.port, "127.0.0.4", NULL);
    e2e_send(later, json_pack("{s:s}", "type", "tables"));
    lobby = e2e_expect(later, "lobby", 5000);
    CHECK(lobby && has_seed_mark(summary_of(lobby, table), "sd-maker"),
          "after a restart the lobby still says who chose the seed");
    json_decref(lobby);
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0 again");
}

/* Waits ms for a chat on c; returns its scope ("" when none came). */
static const char *chat_scope(e2e_client *c, const char *text, int ms)
{
    static char scope[32];
    for (long end = e2e_now_ms() + ms; e2e_now_ms() < end;) {
        json_t *m = e2e_peek(c, "chat");
        if (m) {
            m = e2e_expect(c, "chat", 0);
            bool same = strcmp(json_string_value(json_object_get(m, "text")), text) == 0;
            snprintf(scope, sizeof scope, "%s", json_string_value(json_object_get(m, "scope")));
            json_decref(m);
            if (same)
                return scope;
            continue;
        }
        e2e_pump(20);
    }
    return "";
}

static void chat(e2e_client *c, const char *text)
{
    e2e_send(c, json_pack("{s:s, s:s}", "type", "chat", "text", text));
}

/* 3. While a game runs, a kibitzer's chat reaches the kibitzers only,
 * unless the table allows it. */
void abuse_kibitz_chat(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "kibitz_chat.db");
    e2e_client *p[4];
    const char *const home[4] = {NULL, NULL, NULL, NULL};
    int table = four_at(p, srv.port, "kc", home, NULL);
    e2e_client *k1 = client_at("kc-kib1", srv.port, "127.0.0.2", NULL);
    e2e_client *k2 = client_at("kc-kib2", srv.port, "127.0.0.3", NULL);
    CHECK(strcmp(try_kibitz(k1, table, "E", NULL, 0), "") == 0, "kc-kib1 watches East");
    CHECK(strcmp(try_kibitz(k2, table, "W", NULL, 0), "") == 0, "kc-kib2 watches West");
    for (int k = 0; k < 4; k++)
        e2e_clear(p[k]);
    e2e_clear(k1);
    e2e_clear(k2);

    chat(k1, "North has no spades");
    CHECK(strcmp(chat_scope(k2, "North has no spades", 3000), "kibitzers") == 0,
          "another kibitzer hears a kibitzer, as kibitzers' talk");
    CHECK(strcmp(chat_scope(k1, "North has no spades", 3000), "kibitzers") == 0,
          "so does the kibitzer who said it");
    for (int k = 0; k < 4; k++)
        CHECK(strcmp(chat_scope(p[k], "North has no spades", k == 0 ? 800 : 100), "") == 0,
              "the player %s does not hear it", p[k]->label);

    chat(p[2], "good luck all");
    CHECK(strcmp(chat_scope(k1, "good luck all", 3000), "table") == 0,
          "kibitzers hear a player, as the table's talk");
    CHECK(strcmp(chat_scope(p[0], "good luck all", 3000), "table") == 0, "players hear a player");

    /* A friendly table lets the kibitzers talk to the players. */
    e2e_client *q[4];
    int friendly = four_at(q, srv.port, "kf", home, json_pack("{s:b}", "kibitz_chat", 1));
    e2e_client *k3 = client_at("kf-kib", srv.port, "127.0.0.4", NULL);
    CHECK(strcmp(try_kibitz(k3, friendly, "S", NULL, 0), "") == 0, "kf-kib watches South");
    chat(k3, "well played");
    CHECK(strcmp(chat_scope(q[1], "well played", 3000), "table") == 0,
          "at a table that allows it, a player hears the kibitzer");

    /* Before the game starts a kibitzer knows nothing and may talk to all. */
    e2e_client *host = client_at("kw-host", srv.port, "127.0.0.5", NULL);
    int waiting = e2e_create(host, "uk", json_pack("{s:s}", "sit", "N"));
    json_decref(e2e_expect(host, "table", 5000));
    e2e_client *k4 = client_at("kw-kib", srv.port, "127.0.0.6", NULL);
    CHECK(strcmp(try_kibitz(k4, waiting, "E", NULL, 0), "") == 0, "kw-kib watches a waiting table");
    e2e_clear(host);
    chat(k4, "who else is coming?");
    CHECK(strcmp(chat_scope(host, "who else is coming?", 3000), "table") == 0,
          "before the game, the host hears the kibitzer");
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
}
