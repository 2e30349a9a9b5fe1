/*
 * evening_clock.c - the move clock (create's "clock"): its values, where it
 * is shown, a computer player acting once for a person whose time ran out,
 * the notice saying what it did, and no clock while the table is paused
 * (a player away, a restart of the server).
 *
 * The server runs with BARBU_CLOCK_SCALE=0.1 (0.3 for clock_paused), so
 * that the shortest clock, 10 s, runs out after one second (three)
 * (docs/internals.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evening.h"

static const char SEATS[] = "NESW";

/* A server whose clocks run a tenth of their length. */
static void start_server(e2e_server *srv, const char *db)
{
    setenv("BARBU_CLOCK_SCALE", "0.1", 1);
    e2e_server_start(srv, db);
}

/* A person at a home of its own: kibitzers may not watch from a player's
 * address. */
static e2e_client *person_from(const char *label, int port, const char *source)
{
    e2e_client *c = e2e_client_new_from(label, port, source);
    e2e_hello(c, label);
    return c;
}

static e2e_client *person(const char *label, int port)
{
    e2e_client *c = e2e_client_new(label, port);
    e2e_hello(c, label);
    return c;
}

/* Waits up to ms for a view of c in which c is to move; NULL on timeout. */
static const json_t *wait_turn(e2e_client *c, int ms)
{
    for (long end = e2e_now_ms() + ms; e2e_now_ms() < end;) {
        if (e2e_to_move(c))
            return c->view;
        e2e_pump(20);
    }
    return e2e_to_move(c) ? c->view : NULL;
}

/* The milliseconds a view message's clock gives a seat, -1 when none. */
static long clock_ms(const json_t *view, int seat)
{
    char key[2] = {SEATS[seat], 0};
    json_t *v = json_object_get(json_object_get(view, "clock"), key);
    return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

/* The text of the next notice of this code on c within ms ("" when none);
 * other notices are dropped. */
static const char *wait_notice(e2e_client *c, const char *code, int ms, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (long end = e2e_now_ms() + ms; e2e_now_ms() < end;) {
        json_t *n = e2e_expect(c, "notice", (int)(end - e2e_now_ms()));
        if (n == NULL)
            break;
        const char *got = json_string_value(json_object_get(n, "code"));
        if (got && strcmp(got, code) == 0) {
            snprintf(buf, cap, "%s", json_string_value(json_object_get(n, "text")));
            json_decref(n);
            return buf;
        }
        json_decref(n);
    }
    return buf;
}

/* A create with this clock value (taken) is refused, saying why. */
static void create_refused(e2e_client *c, json_t *clock)
{
    char *shown = json_dumps(clock, JSON_ENCODE_ANY);
    bool number = json_is_integer(clock); /* the message takes clock */
    json_t *m = json_pack("{s:s, s:s, s:o}", "type", "create", "rules", "uk", "clock", clock);
    e2e_send(c, m);
    json_t *e = e2e_expect(c, "error", 3000);
    const char *code = e ? json_string_value(json_object_get(e, "code")) : NULL;
    const char *text = e ? json_string_value(json_object_get(e, "text")) : NULL;
    bool bad = code && (strcmp(code, "bad_value") == 0 || strcmp(code, "bad_field") == 0);
    CHECK(bad, "create with clock %s is refused (%s: %s)", shown, code ? code : "no error",
          text ? text : "");
    if (number)
        CHECK(text && strstr(text, "0 for no clock") && strstr(text, "10 to 600"),
              "the refusal of clock %s says what the clock may be", shown);
    json_decref(e);
    CHECK(e2e_peek(c, "created") == NULL, "no table is created with clock %s", shown);
    free(shown);
}

/* A table of North (this person) and three computer players of the given
 * rules, with a 10 s clock; returns its id, the table message checked. */
static int clock_table(e2e_client *n, const char *rules, const char *seed)
{
    json_t *opts = json_pack("{s:s, s:i, s:i, s:[sss], s:s, s:s}", "sit", "N", "clock", 10, "delay",
                             0, "bots", "E", "S", "W", "level", "easy", "seed", seed);
    int table = e2e_create(n, rules, opts);
    json_t *t = e2e_expect(n, "table", 5000);
    REQUIRE(t != NULL, "%s: the table message follows create", n->label);
    CHECK(json_integer_value(json_object_get(t, "clock")) == 10,
          "the table message shows the clock: 10 s");
    json_decref(t);
    return table;
}

/* The queued view message of c at this at (taken from the queue with
 * those before it), or NULL; the caller decrefs. */
static json_t *queued_view_at(e2e_client *c, long at)
{
    json_t *v;
    while ((v = e2e_expect(c, "view", 0)) != NULL) {
        if (json_integer_value(json_object_get(v, "at")) == at)
            return v;
        json_decref(v);
    }
    return NULL;
}

/* The seat of a view message's last action ("" when none). */
static const char *last_seat(const json_t *view)
{
    const char *s = json_string_value(json_object_get(json_object_get(view, "last"), "seat"));
    return s ? s : "";
}

/* North lets the clock run out where it is to move: the notice comes, then
 * the view of the action made for it.  Returns whether it did. */
static bool time_out(e2e_client *n, const char *what)
{
    REQUIRE(wait_turn(n, 10000) != NULL, "%s: North is to move", what);
    long at = n->at;
    long ms = clock_ms(n->view, 0);
    CHECK(ms > 0 && ms <= 1000, "%s: North's view gives North's clock (%ld ms of 1000)", what, ms);
    e2e_clear(n);
    char text[400];
    long t0 = e2e_now_ms();
    wait_notice(n, "clock", 4000, text, sizeof text);
    long waited = e2e_now_ms() - t0;
    CHECK(strncmp(text, "North's time ran out: a computer player ", 40) == 0,
          "%s: the notice says North's time ran out: \"%s\"", what, text);
    CHECK(waited >= ms - 500, "%s: not before the clock ran out (%ld ms of %ld)", what, waited, ms);
    size_t len = strlen(text);
    CHECK(len > 0 && text[len - 1] == '.', "%s: the notice is a sentence", what);
    /* The view of the action made for North came before the notice. */
    CHECK(n->at > at, "%s: the game moved on (at %ld, was %ld)", what, n->at, at);
    json_t *next = queued_view_at(n, at + 1);
    char *dump = next ? json_dumps(json_object_get(next, "last"), JSON_COMPACT) : NULL;
    CHECK(next && strcmp(last_seat(next), "N") == 0, "%s: the action made was North's (%s)", what,
          dump ? dump : "no view");
    free(dump);
    json_decref(next);
    return text[0] != '\0';
}

/* The card names of a played action's cards ("the 7 of Spades"). */
static void card_words(const json_t *cards, char *buf, size_t cap)
{
    static const char *const RANKS[] = {"?", "?", "2",  "3",    "4",     "5",    "6",  "7",
                                        "8", "9", "10", "Jack", "Queen", "King", "Ace"};
    const char *c = json_string_value(json_array_get(cards, 0));
    const char *end;
    int card = c ? barbu_card_parse(c, &end) : -1;
    static const char *const SUITS[] = {"Clubs", "Diamonds", "Hearts", "Spades"};
    if (card < 0)
        snprintf(buf, cap, "?");
    else
        snprintf(buf, cap, "the %s of %s", RANKS[BARBU_RANK(card)], SUITS[BARBU_SUIT(card)]);
}

void evening_clock(void)
{
    e2e_server srv;
    start_server(&srv, "clock.db");
    e2e_client *n = person("clock-N", srv.port);
    e2e_client *k = person_from("clock-kib", srv.port, "127.0.0.2");

    /* The values a clock may not have. */
    create_refused(n, json_integer(5));
    create_refused(n, json_integer(9));
    create_refused(n, json_integer(601));
    create_refused(n, json_integer(-10));
    create_refused(n, json_string("30"));

    int table = clock_table(n, "uk", "4242");
    /* The lobby shows it to all. */
    e2e_send(k, json_pack("{s:s}", "type", "tables"));
    json_t *lobby = e2e_expect(k, "lobby", 5000);
    REQUIRE(lobby != NULL, "the lobby comes");
    json_t *row = NULL, *v;
    size_t i;
    json_array_foreach(json_object_get(lobby, "tables"), i, v)
    {
        if (json_integer_value(json_object_get(v, "id")) == table)
            row = v;
    }
    CHECK(row && json_integer_value(json_object_get(row, "clock")) == 10,
          "the lobby summary shows the clock: 10 s");
    json_decref(lobby);
    e2e_kibitz(k, table, 0);

    /* The first timeout: the first contract chosen for North (North is the
     * first declarer of this seed), or whatever North must do first. */
    time_out(n, "first timeout");
    char text[400];
    /* The kibitzer heard it too. */
    wait_notice(k, "clock", 3000, text, sizeof text);
    CHECK(strncmp(text, "North's time ran out", 20) == 0, "the kibitzer gets the notice: \"%s\"",
          text);

    /* North's next turn is North's own: it acts in time, and the action is
     * taken from it. */
    REQUIRE(wait_turn(n, 15000) != NULL, "North is to move again");
    CHECK(clock_ms(n->view, 0) > 500, "the clock starts in full for the next action (%ld ms)",
          clock_ms(n->view, 0));
    long at = n->at;
    e2e_clear(n);
    e2e_act(n);
    json_t *mine = NULL;
    for (long end = e2e_now_ms() + 3000; e2e_now_ms() < end && mine == NULL;) {
        e2e_pump(20);
        mine = queued_view_at(n, at + 1);
    }
    CHECK(mine && strcmp(last_seat(mine), "N") == 0, "North acts itself after a timeout");
    json_decref(mine);
    json_t *last;
    CHECK(e2e_peek(n, "notice") == NULL, "no clock notice for an action North made itself");

    /* Timeouts until one plays a card: the notice names it as played. */
    bool played = false;
    for (int tries = 0; tries < 12 && !played; tries++) {
        REQUIRE(wait_turn(n, 15000) != NULL, "North is to move (%d)", tries);
        long before = n->at;
        e2e_clear(n);
        wait_notice(n, "clock", 4000, text, sizeof text);
        json_t *next = queued_view_at(n, before + 1);
        REQUIRE(next != NULL, "the view of the action made for North came before the notice");
        last = json_object_get(next, "last");
        CHECK(strcmp(last_seat(next), "N") == 0, "the action made at %ld was North's", before);
        const char *type = json_string_value(json_object_get(last, "type"));
        if (type && strcmp(type, "play") == 0) {
            char words[64], want[120];
            card_words(json_object_get(last, "cards"), words, sizeof words);
            snprintf(want, sizeof want, "a computer player played %s for North.", words);
            CHECK(strstr(text, want) != NULL, "the notice names the card played: \"%s\"", text);
            played = true;
        }
        json_decref(next);
    }
    CHECK(played, "a timeout played a card");
    /* Computer players' own turns have no clock: a view where a computer
     * player is to move carries none. */
    bool bot_turn_seen = false, bot_turn_clock = false;
    for (long end = e2e_now_ms() + 5000; e2e_now_ms() < end && !bot_turn_seen;) {
        json_t *vm = e2e_expect(n, "view", 500);
        if (vm == NULL)
            continue;
        const char *tm = e2e_view_str(vm, "to_move");
        if (tm && strcmp(tm, "N") != 0) {
            bot_turn_seen = true;
            bot_turn_clock = json_object_get(vm, "clock") != NULL;
        }
        json_decref(vm);
    }
    CHECK(bot_turn_seen && !bot_turn_clock, "no clock while a computer player is to move");
    /* The actions made for North stand in the game's record, which barbu
     * replays: each was legal for North. */
    bool complete = false;
    char *record = e2e_record(n, table, &complete);
    CHECK(record && e2e_barbu_replay(record) == 0,
          "the record with the actions made for North replays (barbu replay)");
    free(record);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");
    e2e_client_free(n);
    e2e_client_free(k);
}

/* At Chinese Poker the rows set for North are not named to anybody. */
void evening_clock_rows(void)
{
    e2e_server srv;
    start_server(&srv, "clock-rows.db");
    e2e_client *n = person("rows-N", srv.port);
    e2e_client *k = person_from("rows-kib", srv.port, "127.0.0.2");
    int table = clock_table(n, "chinese", "9");
    e2e_kibitz(k, table, 1);
    char text[400] = "";
    bool rows = false;
    /* Timeouts until the one of an arrangement (a game of contracts first
     * chosen by the declarers). */
    for (int tries = 0; tries < 40 && !rows; tries++) {
        if (wait_turn(n, 20000) == NULL)
            break;
        const char *phase = e2e_view_str(n->view, "phase");
        bool arranging = phase && strcmp(phase, "arrange") == 0;
        if (!arranging) {
            e2e_act(n);
            long at = n->at;
            for (long end = e2e_now_ms() + 2000; e2e_now_ms() < end && n->at == at;)
                e2e_pump(20);
            continue;
        }
        wait_notice(n, "clock", 4000, text, sizeof text);
        CHECK(strcmp(text, "North's time ran out: a computer player set North's rows.") == 0,
              "the notice of an arrangement names no card: \"%s\"", text);
        char ktext[400];
        wait_notice(k, "clock", 3000, ktext, sizeof ktext);
        CHECK(strcmp(ktext, text) == 0, "the kibitzer of East reads the same: \"%s\"", ktext);
        rows = true;
    }
    CHECK(rows, "a timeout set North's rows");
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");
    e2e_client_free(n);
    e2e_client_free(k);
}

/* At the Fife game's Silly Round the Pass-on chosen for North is not
 * named: North plays its own actions quickly until its first Pass-on,
 * whose clock it lets run out. */
void evening_clock_pass_on(void)
{
    e2e_server srv;
    start_server(&srv, "clock-pass-on.db");
    e2e_client *n = person("po-N", srv.port);
    e2e_client *k = person_from("po-kib", srv.port, "127.0.0.2");
    int table = clock_table(n, "fife", "77");
    e2e_kibitz(k, table, 1);
    char text[400] = "";
    bool passed_on = false;
    for (long end = e2e_now_ms() + 200000; e2e_now_ms() < end && !passed_on;) {
        if (wait_turn(n, 20000) == NULL)
            break;
        const char *phase = e2e_view_str(n->view, "phase");
        if (!(phase && strcmp(phase, "pass_on") == 0)) {
            long at = n->at;
            e2e_act(n);
            for (long stop = e2e_now_ms() + 3000; e2e_now_ms() < stop && n->at == at;)
                e2e_pump(10);
            e2e_clear(n);
            e2e_clear(k);
            continue;
        }
        e2e_clear(k);
        wait_notice(n, "clock", 4000, text, sizeof text);
        CHECK(strcmp(text, "North's time ran out: a computer player chose North's Pass-on "
                           "cards.") == 0,
              "the notice of a Pass-on names no card: \"%s\"", text);
        char ktext[400];
        wait_notice(k, "clock", 3000, ktext, sizeof ktext);
        CHECK(strcmp(ktext, text) == 0, "the kibitzer of East reads the same: \"%s\"", ktext);
        passed_on = true;
    }
    CHECK(passed_on, "a timeout chose North's Pass-on");
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");
    e2e_client_free(n);
    e2e_client_free(k);
}

/* No clock while the table is paused: a player away, then the server
 * restarted.  The clock starts in full when the game goes on.  The clock
 * runs 3 s here (scale 0.3), so that a clock that went on from where it
 * stopped, rather than in full, shows in the views. */
void evening_clock_paused(void)
{
    e2e_server srv;
    setenv("BARBU_CLOCK_SCALE", "0.3", 1);
    e2e_server_start(&srv, "clock-paused.db");
    e2e_client *p[2] = {person("paused-N", srv.port), person("paused-E", srv.port)};
    json_t *opts =
        json_pack("{s:s, s:i, s:i, s:[ss], s:s, s:s, s:i}", "sit", "N", "clock", 10, "delay", 0,
                  "bots", "S", "W", "level", "easy", "seed", "4242", "grace", 600);
    int table = e2e_create(p[0], "uk", opts);
    json_decref(e2e_expect(p[0], "table", 5000));
    e2e_sit(p[1], table, 1);

    /* North's turns time out until East is to move; East's clock runs for
     * a while, then East goes away. */
    REQUIRE(wait_turn(p[1], 30000) != NULL, "East is to move");
    long at = p[1]->at;
    long ms = clock_ms(p[1]->view, 1);
    CHECK(ms > 2000 && ms <= 3000, "East's view gives East's clock (%ld ms of 3000)", ms);
    e2e_pump(1500);
    e2e_client_drop(p[1]);
    /* North's view says the clock stopped. */
    bool stopped = false;
    for (long end = e2e_now_ms() + 3000; e2e_now_ms() < end && !stopped;) {
        e2e_pump(20);
        stopped = p[0]->view && json_object_get(p[0]->view, "clock") == NULL && p[0]->at == at;
    }
    CHECK(stopped, "North's view shows no clock once East is away");
    e2e_clear(p[0]);
    e2e_pump(3500);
    CHECK(p[0]->at == at, "nothing is played for East while away (at %ld, was %ld)", p[0]->at, at);
    CHECK(e2e_peek(p[0], "notice") == NULL, "no clock notice while the table is paused");

    /* East comes back: its clock starts in full (not at what was left). */
    e2e_client_reconnect(p[1], srv.port);
    e2e_resume(p[1]);
    ms = -1;
    for (long end = e2e_now_ms() + 3000; e2e_now_ms() < end && ms < 0;) {
        e2e_pump(20);
        ms = clock_ms(p[1]->view, 1);
    }
    CHECK(ms > 2000, "East's clock starts in full when East is back (%ld ms of 3000)", ms);
    CHECK(clock_ms(p[0]->view, 1) > 2000, "North's view shows East's clock again (%ld ms)",
          clock_ms(p[0]->view, 1));

    /* The server restarts while East's clock runs: no clock runs until both
     * are back, then East's starts in full and runs out. */
    e2e_pump(1500);
    int views_before = p[1]->views;
    e2e_server_stop(&srv);
    e2e_server srv2;
    e2e_server_start(&srv2, "clock-paused.db");
    e2e_client_reconnect(p[1], srv2.port);
    e2e_resume(p[1]);
    /* East's view of the table comes back, without a clock; and none runs
     * out for longer than the clock. */
    for (long end = e2e_now_ms() + 5000; e2e_now_ms() < end && p[1]->views == views_before;)
        e2e_pump(20);
    CHECK(p[1]->views > views_before && json_object_get(p[1]->view, "clock") == NULL,
          "after the restart East's view shows no clock while North is not back");
    e2e_pump(3500);
    CHECK(e2e_peek(p[1], "notice") == NULL, "no timeout while North is not back after a restart");
    CHECK(p[1]->at == at, "nothing played for East after the restart while paused");
    e2e_client_reconnect(p[0], srv2.port);
    e2e_resume(p[0]);
    ms = -1;
    for (long end = e2e_now_ms() + 3000; e2e_now_ms() < end && ms < 0;) {
        e2e_pump(20);
        ms = clock_ms(p[1]->view, 1);
    }
    CHECK(ms > 2000, "after the restart East's clock starts in full once North is back (%ld ms)",
          ms);
    char text[400];
    wait_notice(p[1], "clock", 5000, text, sizeof text);
    CHECK(strncmp(text, "East's time ran out", 19) == 0, "then East's clock runs out: \"%s\"",
          text);
    CHECK(p[1]->at > at, "the game moved on for East");
    CHECK(e2e_server_stop(&srv2) == 0, "the server stops cleanly");
    e2e_client_free(p[0]);
    e2e_client_free(p[1]);
}

/* A person acts just after its clock ran out, while the computer player
 * acting for it still thinks (hard, on a worker): the next person's clock
 * must still run out and be acted on (it once stalled for good, waiting for
 * a job whose answer was dropped). */
void evening_clock_late(void)
{
    e2e_server srv;
    setenv("BARBU_CLOCK_SCALE", "0.001", 1);
    e2e_server_start(&srv, "clock_late.db");
    e2e_client *n = person_from("late-N", srv.port, "127.0.0.2");
    e2e_client *e = person_from("late-E", srv.port, "127.0.0.3");
    json_t *opts = json_pack("{s:s, s:i, s:i, s:[ss], s:s, s:s}", "sit", "N", "clock", 10, "delay",
                             0, "bots", "S", "W", "level", "hard", "seed", "31");
    int table = e2e_create(n, "uk", opts);
    json_decref(e2e_expect(n, "table", 5000));
    e2e_sit(e, table, 1);
    /* North acts 30 ms into each of its turns (its 10 ms clock has run out
     * by then); East never acts.  Count the clock notices for East.  Each
     * takes three hard decisions, some 6.5 s under the sanitizers on a
     * quiet core: the limit only catches a stall, and is ample. */
    int east = 0, north_acts = 0;
    char text[400];
    for (long end = e2e_now_ms() + 60000; e2e_now_ms() < end && east < 3;) {
        e2e_pump(10);
        if (e2e_to_move(n)) {
            long at = n->at;
            e2e_pump(30);
            if (e2e_to_move(n) && n->at == at) {
                e2e_act(n);
                north_acts++;
            }
        }
        json_t *m;
        while ((m = e2e_expect(e, "notice", 0)) != NULL) {
            const char *s = json_string_value(json_object_get(m, "text"));
            snprintf(text, sizeof text, "%s", s ? s : "");
            if (strncmp(text, "East's time ran out", 19) == 0)
                east++;
            json_decref(m);
        }
        e2e_clear(e);
    }
    CHECK(east >= 3,
          "East's clock keeps running out and a computer player acts for East while North acts "
          "late (%d times; North acted %d times)",
          east, north_acts);
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
    unsetenv("BARBU_CLOCK_SCALE");
}
