/*
 * e2e.c - barbu serve driven over its protocol (docs/protocol.md) by real
 * WebSocket clients.
 *
 * usage: e2e BARBU SCENARIO...
 *   game     whole games: uk with four clients and both kinds of kibitzer,
 *            the Fife game against three computer players; records replayed
 *   resume   a player drops mid-trick, the table pauses, the player comes
 *            back with its token to the same view; a second connection
 *            replaces the first
 *   restart  the server is killed (SIGKILL) mid-trick in deal 3 and started
 *            again on its database; the games end as if nothing had happened
 *            (four clients at uk-32; one client and three computer players
 *            at the Fife game), record for record
 *   hostile  malformed and hostile messages get the documented errors and
 *            change nothing; a flooding client is cut; omniscient is no
 *            level, and the server answers while hard computer players
 *            think
 *   leak     whole games of uk, fife, chinese and king, every message each
 *            seat and kibitzer received checked against what it may know
 *   rules    the engine's words reach the players: an illegal bid and card
 *            are refused with the sentence that says what is wrong; a Fife
 *            table stored before the booklet's later-Call Joker rule goes on
 *            by the reading it started with, and a Fife view says what each
 *            cut meant
 *
 * Every client acts by one fixed rule (the first legal action, but in the
 * bidding the legal bid with the most doubles, so that negative contracts
 * are played; at Chinese Poker rows from a search seeded by the hand), so a
 * game is a function of its seed and can be played again.  The games of a
 * scenario run at once; each client keeps under the server's flood limit
 * (e2e_send_text), which sets the pace: a 28-deal game takes about a minute.
 * E2E_KEEP=1 keeps the temporary directory (databases, server output);
 * E2E_SLOW=MS prints every act whose view took MS or longer.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "store.h"

static const char SEATS[] = "NESW";

/* A table of four clients, maybe with a kibitzer of a seat and one of every
 * hand. */
typedef struct game {
    e2e_client *p[4];
    e2e_client *kib_seat, *kib_all;
    int table;
    char seed[24];
} game;

static void seat_name(int seat, char out[2])
{
    out[0] = SEATS[seat];
    out[1] = '\0';
}

/* Four clients named PREFIX-N .. PREFIX-W (labelled with tag added) sit at
 * a new table of these rules and seed, with delay 0; kibitzers, when asked
 * for, watch East and every hand.  They play as one group of e2e_play. */
static void four_players(game *g, int port, const char *prefix, const char *tag, const char *rules,
                         const char *seed, const char *kibitz, bool kibitzers, bool logging)
{
    memset(g, 0, sizeof *g);
    snprintf(g->seed, sizeof g->seed, "%s", seed);
    int group = e2e_new_group();
    for (int s = 0; s < 4; s++) {
        char label[24], name[24];
        snprintf(label, sizeof label, "%s-%c%s", prefix, SEATS[s], tag);
        snprintf(name, sizeof name, "%s-%c", prefix, SEATS[s]);
        g->p[s] = e2e_client_new(label, port);
        g->p[s]->logging = logging;
        g->p[s]->group = group;
        e2e_hello(g->p[s], name);
    }
    g->table = e2e_create(
        g->p[0], rules,
        json_pack("{s:s, s:i, s:s, s:s}", "seed", seed, "delay", 0, "kibitz", kibitz, "sit", "N"));
    json_t *t = e2e_expect(g->p[0], "table", 5000);
    REQUIRE(t != NULL, "%s: create with sit sends the table", g->p[0]->label);
    json_decref(t);
    g->p[0]->table = g->table;
    if (kibitzers) {
        char label[24];
        snprintf(label, sizeof label, "%s-kibE", prefix);
        /* Kibitzers connect from addresses of their own: the server does
         * not let a player's address watch the player's table. */
        g->kib_seat = e2e_client_new_from(label, port, "127.0.0.2");
        g->kib_seat->logging = logging;
        e2e_hello(g->kib_seat, label);
        e2e_kibitz(g->kib_seat, g->table, 1);
        snprintf(label, sizeof label, "%s-kibAll", prefix);
        g->kib_all = e2e_client_new_from(label, port, "127.0.0.3");
        g->kib_all->logging = logging;
        e2e_hello(g->kib_all, label);
        e2e_kibitz(g->kib_all, g->table, 4);
    }
    for (int s = 1; s < 4; s++)
        e2e_sit(g->p[s], g->table, s);
    for (int s = 0; s < 4; s++)
        g->p[s]->autoplay = true;
}

/* One client (NAME, labelled with tag added) at North of a new table of
 * rules and seed against three easy computer players (quick, for whole
 * games) with delay 0. */
static e2e_client *bots_game(int port, const char *name, const char *tag, const char *rules,
                             const char *seed, int *table)
{
    char label[24];
    snprintf(label, sizeof label, "%s%s", name, tag);
    e2e_client *c = e2e_client_new(label, port);
    e2e_hello(c, name);
    *table = e2e_create(c, rules,
                        json_pack("{s:s, s:[s,s,s], s:s, s:i, s:s}", "seed", seed, "bots", "E", "S",
                                  "W", "level", "easy", "delay", 0, "sit", "N"));
    c->group = e2e_new_group();
    c->autoplay = true;
    return c;
}

static json_t *view_totals(const e2e_client *c)
{
    return json_object_get(json_object_get(c->view, "view"), "totals");
}

static bool totals_equal(const json_t *totals, const barbu_state *st)
{
    if (json_array_size(totals) != 4)
        return false;
    for (int s = 0; s < 4; s++)
        if (json_integer_value(json_array_get(totals, s)) != st->t.total[s])
            return false;
    return true;
}

/* The record of a finished table: complete, replayed to the totals of the
 * last view, and accepted by `barbu replay`.  Returns the text (malloc'd). */
static char *check_final_record(e2e_client *c, int table, const char *what)
{
    bool complete = false;
    char *text = e2e_record(c, table, &complete);
    if (!CHECK(text != NULL, "%s: the record of the finished game", what))
        return NULL;
    CHECK(complete, "%s: the record says it is complete", what);
    barbu_state st;
    barbu_rules rules;
    char why[300] = "";
    int rc = e2e_record_replay(text, &st, &rules, why, sizeof why);
    CHECK(rc == 0, "%s: barbu_record_read and barbu_record_replay accept the record (%s)", what,
          why);
    if (rc == 0) {
        CHECK(barbu_over(&st), "%s: the record replays to the end of the game", what);
        char *t = json_dumps(view_totals(c), JSON_COMPACT);
        CHECK(totals_equal(view_totals(c), &st),
              "%s: the replayed totals [%d, %d, %d, %d] are the last view's %s", what,
              st.t.total[0], st.t.total[1], st.t.total[2], st.t.total[3], t ? t : "?");
        free(t);
    }
    CHECK(e2e_barbu_replay(text) == 0, "%s: `barbu replay` reads the record (exit 0)", what);
    return text;
}

/* ----------------------------------------------------------------- game */

static void every_view(const e2e_client *c, long total, const char *what)
{
    /* Each action brings each player and kibitzer a view. */
    char *seen = calloc((size_t)total + 1, 1);
    int views = 0;
    for (int m = 0; m < c->nlog; m++) {
        if (strncmp(c->log[m].text, "{\"type\":\"view\"", 14) != 0)
            continue;
        views++;
        if (c->log[m].at >= 0 && c->log[m].at <= total)
            seen[c->log[m].at] = 1;
    }
    long missing = 0, first_missing = -1;
    for (long k = 0; k <= total; k++)
        if (!seen[k] && missing++ == 0)
            first_missing = k;
    CHECK(missing == 0, "%s: %s received a view of every action 0..%ld (%d views, %ld missing%s)",
          what, c->label, total, views, missing, missing ? ", first at" : "");
    if (missing)
        e2e_note("first missing at %ld", first_missing);
    free(seen);
}

static void scenario_game(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "game.db");
    e2e_note("server on port %d", srv.port);

    game g;
    four_players(&g, srv.port, "uk", "", "uk", "424242", "all", true, true);
    /* The game starts with the fourth seat: every seat and kibitzer gets a view. */
    e2e_client *everyone[6] = {g.p[0], g.p[1], g.p[2], g.p[3], g.kib_seat, g.kib_all};
    for (int i = 0; i < 6; i++) {
        for (long t = e2e_now_ms(); everyone[i]->view == NULL && e2e_now_ms() - t < 5000;)
            e2e_pump(20);
        REQUIRE(everyone[i]->view != NULL, "%s: a view when the game starts", everyone[i]->label);
        CHECK(everyone[i]->at == 0, "%s: the first view is at 0", everyone[i]->label);
    }
    CHECK(g.kib_seat->view && strcmp(e2e_view_str(g.kib_seat->view, "seat"), "E") == 0,
          "the seat kibitzer's view is East's");
    CHECK(g.kib_all->view && strcmp(e2e_view_str(g.kib_all->view, "seat"), "all") == 0,
          "the all-hands kibitzer's view is \"all\"");
    json_t *hands = json_object_get(json_object_get(g.kib_all->view, "view"), "hands");
    CHECK(json_object_size(hands) == 4, "the all-hands kibitzer sees four hands");
    hands = json_object_get(json_object_get(g.kib_seat->view, "view"), "hands");
    CHECK(json_object_size(hands) == 1 && json_object_get(hands, "E"),
          "the seat kibitzer sees East's hand only");

    CHECK(json_object_get(g.kib_seat->view, "legal") == NULL &&
              json_object_get(g.kib_all->view, "legal") == NULL,
          "a kibitzer's view has no legal list");
    /* A kibitzer cannot act. */
    e2e_send(g.kib_seat,
             json_pack("{s:s, s:{s:s}, s:i}", "type", "act", "action", "type", "pass", "id", 41));
    json_decref(e2e_expect_error(g.kib_seat, "not_seated", "act", 5000));
    e2e_send(g.kib_all, json_pack("{s:s, s:{s:s, s:[s]}}", "type", "act", "action", "type", "play",
                                  "cards", "2C"));
    json_decref(e2e_expect_error(g.kib_all, "not_seated", "act", 5000));

    /* The Fife game against three computer players, at the same time:
     * Calls, Patience groups, cuts and Pass-ons over the wire. */
    int fife_table;
    e2e_client *f = bots_game(srv.port, "fifer", "", "fife", "20251", &fife_table);
    f->logging = true;

    long t0 = e2e_now_ms();
    e2e_play(NULL, NULL, 180000);
    long total = g.p[0]->at;
    e2e_note("uk: %ld actions in %ld ms", total, e2e_now_ms() - t0);
    for (int s = 0; s < 4; s++)
        e2e_note("%s: %ld acts, act-to-view latency mean %.1f ms, max %ld ms", g.p[s]->label,
                 g.p[s]->n_latency,
                 g.p[s]->n_latency ? (double)g.p[s]->sum_latency_ms / g.p[s]->n_latency : 0.0,
                 g.p[s]->max_latency_ms);
    for (int s = 0; s < 4; s++)
        CHECK(e2e_game_over(g.p[s]) && g.p[s]->at == total, "%s: the game is over at %ld",
              g.p[s]->label, total);
    CHECK(e2e_view_int(g.p[0]->view, "deal") == 28, "uk: 28 deals were played (deal %ld)",
          e2e_view_int(g.p[0]->view, "deal"));
    e2e_pump(200);
    for (int s = 0; s < 4; s++)
        every_view(g.p[s], total, "uk");
    every_view(g.kib_seat, total, "uk");
    every_view(g.kib_all, total, "uk");

    char *text = check_final_record(g.kib_all, g.table, "uk");

    /* The score window agrees. */
    e2e_send(g.p[2], json_pack("{s:s, s:i}", "type", "score", "id", 9));
    json_t *score = e2e_expect(g.p[2], "score", 5000);
    CHECK(score && json_equal(json_object_get(score, "totals"), view_totals(g.p[2])),
          "uk: the score message's totals are the last view's");
    CHECK(score && json_array_size(json_object_get(score, "deals")) == 28,
          "uk: the score lists 28 deals");
    CHECK(score && json_integer_value(json_object_get(score, "id")) == 9,
          "uk: the score echoes its id");
    CHECK(score && json_is_string(json_object_get(score, "sheet")) &&
              json_object_get(score, "sheet_html") == NULL,
          "uk: the score has its text sheet, and no picture sheet (the Fife game's only)");
    json_decref(score);

    /* Once the game is over, the table shows its seed. */
    e2e_client *late = e2e_client_new("late", srv.port);
    e2e_hello(late, "latecomer");
    e2e_send(late, json_pack("{s:s, s:i, s:s}", "type", "kibitz", "table", g.table, "seat", "N"));
    json_t *tm = e2e_expect(late, "table", 5000);
    const char *seed = tm ? json_string_value(json_object_get(tm, "seed")) : NULL;
    CHECK(seed && strcmp(seed, "424242") == 0, "uk: the finished table shows its seed (%s)",
          seed ? seed : "absent");
    const char *state = tm ? json_string_value(json_object_get(tm, "state")) : NULL;
    CHECK(state && strcmp(state, "over") == 0, "uk: the table's state is over");
    json_decref(tm);

    if (text) {
        e2e_client *all[6] = {g.p[0], g.p[1], g.p[2], g.p[3], g.kib_seat, g.kib_all};
        e2e_leak_check("uk", 424242, all, 6, text);
    }
    free(text);

    e2e_note("fife: %ld actions", f->at);
    CHECK(e2e_game_over(f), "fife: the game against three computer players ends");
    int combined = 0, groups = 0, cuts = 0, pass_ons = 0, own_pass_ons = 0, hidden = 0;
    for (int m = 0; m < f->nlog; m++) {
        json_t *j = json_loads(f->log[m].text, 0, NULL);
        json_t *last = json_object_get(j, "last");
        const char *type = json_string_value(json_object_get(last, "type"));
        if (type && strcmp(type, "declare") == 0 &&
            json_array_size(json_object_get(last, "contracts")) > 1)
            combined++;
        if (type && strcmp(type, "play") == 0 &&
            json_array_size(json_object_get(last, "cards")) > 1)
            groups++;
        if (type && strcmp(type, "cut") == 0)
            cuts++;
        if (type && strcmp(type, "pass_on") == 0) {
            pass_ons++;
            bool mine = strcmp(json_string_value(json_object_get(last, "seat")), "N") == 0;
            if (mine)
                own_pass_ons += json_array_size(json_object_get(last, "cards")) == 3;
            else
                hidden += json_object_get(last, "cards") == NULL;
        }
        json_decref(j);
    }
    e2e_note("fife: %d combined Calls, %d Patience groups, %d cuts, %d Pass-ons seen", combined,
             groups, cuts, pass_ons);
    CHECK(combined > 0, "fife: combined Calls went over the wire");
    CHECK(groups > 0, "fife: cards played together at Patience went over the wire");
    CHECK(cuts > 0, "fife: cuts of the Unused Pack went over the wire");
    CHECK(pass_ons > 0, "fife: Pass-ons went over the wire");
    CHECK(own_pass_ons * 4 == pass_ons && hidden * 4 == pass_ons * 3,
          "fife: the client saw its own Pass-ons' cards and none of the others' (%d own, %d "
          "hidden of %d)",
          own_pass_ons, hidden, pass_ons);
    free(check_final_record(f, fife_table, "fife"));

    /* The Fife game's score sheet comes as a page with its pictures too. */
    e2e_send(f, json_pack("{s:s}", "type", "score"));
    json_t *fs = e2e_expect(f, "score", 5000);
    const char *page = fs ? json_string_value(json_object_get(fs, "sheet_html")) : NULL;
    CHECK(page && strncmp(page, "<!DOCTYPE html>", 15) == 0 && strstr(page, "<svg") &&
              strstr(page, "Score sheet of Set 1") && !strstr(page, "<script"),
          "fife: the score has the sheet as a page with its pictures and no script");
    json_decref(fs);

    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0 on SIGTERM");
}

/* --------------------------------------------------------------- resume */

/* A table message in which seat is away and the table paused. */
static bool shows_away(const json_t *t, int seat)
{
    const char *state = json_string_value(json_object_get(t, "state"));
    json_t *s = json_array_get(json_object_get(t, "seats"), (size_t)seat);
    return state && strcmp(state, "paused") == 0 &&
           json_is_false(json_object_get(s, "connected")) && json_object_get(s, "away") != NULL;
}

static json_t *expect_table_where(e2e_client *c, bool (*pred)(const json_t *, int), int seat,
                                  int ms)
{
    long deadline = e2e_now_ms() + ms;
    while (e2e_now_ms() < deadline) {
        json_t *t = e2e_expect(c, "table", (int)(deadline - e2e_now_ms()));
        if (t == NULL)
            return NULL;
        if (pred(t, seat))
            return t;
        json_decref(t);
    }
    return NULL;
}

static bool shows_back(const json_t *t, int seat)
{
    const char *state = json_string_value(json_object_get(t, "state"));
    json_t *s = json_array_get(json_object_get(t, "seats"), (size_t)seat);
    return state && strcmp(state, "playing") == 0 &&
           json_is_true(json_object_get(s, "connected")) && json_object_get(s, "away") == NULL;
}

static void scenario_resume(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "resume.db");
    game g;
    four_players(&g, srv.port, "rs", "", "uk-32", "5150", "seat", false, false);
    e2e_trick_stop w = {1, 1, 3};
    e2e_play(e2e_stop_mid_trick, &w, 60000);
    e2e_client *mover = e2e_halted;
    REQUIRE(mover != NULL, "resume: the game reaches a trick in progress in deal 2");
    long at = mover->at;
    int drop_seat = (mover->seat + 2) % 4;
    e2e_client *d = g.p[drop_seat];
    /* Wait until the dropping client has the latest view. */
    for (long t = e2e_now_ms(); d->at != at && e2e_now_ms() - t < 5000;)
        e2e_pump(20);
    REQUIRE(d->at == at, "resume: %s has the view at %ld", d->label, at);
    json_t *trick = json_object_get(json_object_get(d->view, "view"), "trick");
    e2e_note("%s drops at action %ld, deal %ld, %zu cards of the trick down, %s to move", d->label,
             at, e2e_view_int(d->view, "deal"), json_array_size(json_object_get(trick, "cards")),
             mover->label);
    json_t *saved = json_deep_copy(json_object_get(d->view, "view"));
    for (int s = 0; s < 4; s++)
        e2e_clear(g.p[s]);
    e2e_client_drop(d);

    for (int s = 0; s < 4; s++) {
        if (s == drop_seat)
            continue;
        json_t *t = expect_table_where(g.p[s], shows_away, drop_seat, 5000);
        CHECK(t != NULL, "resume: %s sees %c away and the table paused", g.p[s]->label,
              SEATS[drop_seat]);
        json_decref(t);
    }
    /* The player to move acts while the table is paused: refused. */
    int views_before = 0;
    for (int s = 0; s < 4; s++)
        views_before += g.p[s]->views;
    e2e_act(mover);
    json_decref(e2e_expect_error(mover, "paused", "act", 5000));
    e2e_pump(200);
    int views_after = 0;
    for (int s = 0; s < 4; s++)
        views_after += g.p[s]->views;
    CHECK(views_after == views_before, "resume: nothing was played while paused");

    /* Back with the token: welcome, table, and the same view. */
    e2e_client_reconnect(d, srv.port);
    e2e_resume(d);
    json_t *t = e2e_expect(d, "table", 5000);
    CHECK(t != NULL, "resume: a table follows the welcome");
    json_t *you = json_object_get(t, "you");
    char sn[2];
    seat_name(drop_seat, sn);
    CHECK(t && json_string_value(json_object_get(you, "seat")) &&
              strcmp(json_string_value(json_object_get(you, "seat")), sn) == 0,
          "resume: the table says %s is back at %s", d->label, sn);
    json_decref(t);
    json_t *v = e2e_expect(d, "view", 5000);
    CHECK(v != NULL, "resume: a view follows");
    CHECK(v && json_integer_value(json_object_get(v, "at")) == at, "resume: the view is at %ld",
          at);
    if (v && !CHECK(json_equal(json_object_get(v, "view"), saved),
                    "resume: the view is the one %s had before it dropped", d->label)) {
        char *a = json_dumps(saved, JSON_COMPACT), *b = json_dumps(json_object_get(v, "view"), 0);
        e2e_note("before: %.800s", a);
        e2e_note("after:  %.800s", b);
        free(a);
        free(b);
    }
    json_decref(v);
    json_decref(saved);
    for (int s = 0; s < 4; s++) {
        if (s == drop_seat)
            continue;
        json_t *back = expect_table_where(g.p[s], shows_back, drop_seat, 5000);
        CHECK(back != NULL, "resume: %s sees %c back and the table playing", g.p[s]->label,
              SEATS[drop_seat]);
        json_decref(back);
    }
    /* The refused act is sent again by the fixed rule. */
    mover->acted_at = -1;
    for (int s = 0; s < 4; s++)
        e2e_clear(g.p[s]);

    /* Later, a second connection with the same token replaces the first. */
    e2e_trick_stop w2 = {3, 0, 3};
    e2e_play(e2e_stop_mid_trick, &w2, 60000);
    REQUIRE(e2e_halted != NULL, "resume: the game reaches deal 4");
    e2e_client *old = g.p[1];
    e2e_client *twin = e2e_client_new("rs-E2", srv.port);
    snprintf(twin->token, sizeof twin->token, "%s", old->token);
    snprintf(twin->name, sizeof twin->name, "%s", old->name);
    e2e_resume(twin);
    json_t *bye = e2e_expect(old, "bye", 5000);
    const char *reason = bye ? json_string_value(json_object_get(bye, "reason")) : NULL;
    CHECK(reason && strcmp(reason, "replaced") == 0,
          "resume: the old connection gets bye replaced");
    json_decref(bye);
    for (long t1 = e2e_now_ms(); !old->closed && e2e_now_ms() - t1 < 5000;)
        e2e_pump(20);
    CHECK(old->closed, "resume: and is closed");
    json_decref(e2e_expect(twin, "table", 5000));
    json_t *tv = e2e_expect(twin, "view", 5000);
    CHECK(tv && json_equal(json_object_get(tv, "view"), json_object_get(old->view, "view")),
          "resume: the new connection gets East's view");
    json_decref(tv);
    old->autoplay = false;
    old->seat = -1;
    twin->seat = 1;
    twin->autoplay = true;
    g.p[1] = twin;

    e2e_play(NULL, NULL, 120000);
    CHECK(e2e_game_over(g.p[0]), "resume: the game goes on to its end");
    free(check_final_record(g.p[0], g.table, "resume"));
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0 on SIGTERM");
}

/* -------------------------------------------------------------- restart */

static void compare_records(const char *a, const char *b, const char *what)
{
    if (a == NULL || b == NULL) {
        CHECK(false, "%s: both records were received", what);
        return;
    }
    char *sa = e2e_record_strip(a, false), *sb = e2e_record_strip(b, false);
    bool same = strcmp(sa, sb) == 0;
    CHECK(same,
          "%s: the restarted game's record is the uninterrupted game's (but Event, Date, Site)",
          what);
    if (!same) {
        const char *x = sa, *y = sb;
        int line = 1;
        while (*x && *x == *y) {
            if (*x == '\n')
                line++;
            x++, y++;
        }
        e2e_note("first difference at line %d: \"%.60s\" vs \"%.60s\"", line, x, y);
    }
    free(sa);
    free(sb);
}

/* Games on server A are killed mid-trick in deal 3 and go on after a
 * restart; the same games on server B, with the same names and seeds, are
 * not.  Their records must be the same. */
static void scenario_restart(void)
{
    e2e_server a, b;
    e2e_server_start(&a, "restart-a.db");
    e2e_server_start(&b, "restart-b.db");
    game k4, r4;
    four_players(&k4, a.port, "rk", "", "uk-32", "90210", "seat", false, false);
    four_players(&r4, b.port, "rk", "@ref", "uk-32", "90210", "seat", false, false);
    int kb_table, rb_table;
    e2e_client *kb = bots_game(a.port, "rb-N", "", "fife", "31337", &kb_table);
    e2e_client *rb = bots_game(b.port, "rb-N", "@ref", "fife", "31337", &rb_table);

    e2e_trick_stop w = {2, 1, 3};
    e2e_play(e2e_stop_mid_trick, &w, 120000);
    e2e_client *h4 = e2e_halted_in[k4.p[0]->group], *hb = e2e_halted_in[kb->group];
    REQUIRE(h4 && hb, "restart: both games on server A reach a trick in progress in deal 3");
    e2e_client *killed[5] = {k4.p[0], k4.p[1], k4.p[2], k4.p[3], kb};
    for (long t = e2e_now_ms(); e2e_now_ms() - t < 5000;) {
        bool all = true;
        for (int i = 0; i < 4; i++)
            all = all && killed[i]->at == h4->at;
        if (all)
            break;
        e2e_pump(20);
    }
    json_t *saved[5];
    long saved_at[5];
    for (int i = 0; i < 5; i++) {
        saved[i] = json_deep_copy(json_object_get(killed[i]->view, "view"));
        saved_at[i] = killed[i]->at;
    }
    for (int i = 0; i < 2; i++) {
        const e2e_client *h = i == 0 ? h4 : hb;
        json_t *trick = json_object_get(json_object_get(h->view, "view"), "trick");
        e2e_note("%s: kill -9 at action %ld, deal %ld (from 0), %zu cards of the trick down",
                 i == 0 ? "uk-32, four clients" : "fife, one client and three bots", h->at,
                 e2e_view_int(h->view, "deal"), json_array_size(json_object_get(trick, "cards")));
    }
    e2e_server_kill9(&a);
    e2e_server_start(&a, "restart-a.db");
    e2e_note("server A started again on port %d", a.port);
    for (int i = 0; i < 5; i++) {
        e2e_client *c = killed[i];
        e2e_client_reconnect(c, a.port);
        e2e_resume(c);
        json_t *t = e2e_expect(c, "table", 5000);
        CHECK(t != NULL, "restart: %s gets its table after the restart", c->label);
        json_decref(t);
        json_t *v = e2e_expect(c, "view", 5000);
        CHECK(v && json_integer_value(json_object_get(v, "at")) == saved_at[i],
              "restart: %s gets a view at %ld after the restart", c->label, saved_at[i]);
        CHECK(v && json_equal(json_object_get(v, "view"), saved[i]),
              "restart: %s's view is the one it had before the kill", c->label);
        json_decref(v);
        json_decref(saved[i]);
    }

    e2e_play(NULL, NULL, 180000);
    char *rec[4];
    rec[0] = check_final_record(k4.p[0], k4.table, "restart, uk-32, four clients, killed");
    rec[1] = check_final_record(r4.p[0], r4.table, "restart, uk-32, four clients, uninterrupted");
    rec[2] = check_final_record(kb, kb_table, "restart, fife, one client and three bots, killed");
    rec[3] =
        check_final_record(rb, rb_table, "restart, fife, one client and three bots, uninterrupted");
    compare_records(rec[0], rec[1], "restart, uk-32, four clients");
    compare_records(rec[2], rec[3], "restart, fife, one client and three computer players");
    for (int i = 0; i < 4; i++)
        free(rec[i]);
    CHECK(e2e_server_stop(&a) == 0, "restart: server A exits 0 on SIGTERM");
    CHECK(e2e_server_stop(&b) == 0, "restart: server B exits 0 on SIGTERM");
}

/* -------------------------------------------------------------- hostile */

static e2e_client *watched[8];
static e2e_client *lobbies[4];
static int next_lobby;

/* The lobby clients take turns, so that none of them nears the flood
 * limit. */
static e2e_client *lob(void)
{
    return lobbies[next_lobby++ % 4];
}
static int n_watched;

static void quiet_start(void)
{
    for (int i = 0; i < n_watched; i++)
        e2e_clear(watched[i]);
}

static int total_views(void)
{
    int n = 0;
    for (int i = 0; i < n_watched; i++)
        n += watched[i]->views;
    return n;
}

/* The connection still answers, and the watched table heard nothing. */
static void still_fine(e2e_client *c, const char *what, int views_before)
{
    static int id = 500000;
    id++;
    if (c->closed) {
        CHECK(false, "%s: the connection survives (closed: %s)", what,
              c->ws ? wsc_error(c->ws) : "dropped");
        return;
    }
    e2e_send(c, json_pack("{s:s, s:i}", "type", "tables", "id", id));
    json_t *l = e2e_expect(c, "lobby", 3000);
    bool ok = l && json_integer_value(json_object_get(l, "id")) == id;
    json_decref(l);
    /* The players and the kibitzer at the table heard nothing at all. */
    bool quiet = total_views() == views_before;
    char heard[200] = "";
    for (int i = 0; i < n_watched; i++) {
        if (watched[i] == c || watched[i]->nq == 0)
            continue;
        char *t = json_dumps(watched[i]->queue[0], JSON_COMPACT);
        snprintf(heard, sizeof heard, "%s got %.120s", watched[i]->label, t ? t : "?");
        free(t);
        quiet = false;
    }
    if (!ok || !quiet)
        CHECK(false, "%s: afterwards %s", what,
              !ok ? "the connection does not answer tables" : heard);
}

/* Sends text from c and expects an error whose code is one of codes
 * ("a|b"); then checks that nothing changed. */
static void refused(e2e_client *c, const char *text, const char *codes, const char *what)
{
    quiet_start();
    int before = total_views();
    e2e_send_text(c, text);
    json_t *e = e2e_expect(c, "error", 3000);
    const char *code = e ? json_string_value(json_object_get(e, "code")) : NULL;
    bool ok = false;
    if (code) {
        char list[120];
        snprintf(list, sizeof list, "%s", codes);
        for (char *p = strtok(list, "|"); p && !ok; p = strtok(NULL, "|"))
            ok = strcmp(p, code) == 0;
    }
    char *shown = e ? json_dumps(e, JSON_COMPACT) : NULL;
    CHECK(ok, "%s: refused with %s (got %s)", what, codes,
          shown ? shown : (c->closed ? "the connection closed" : "nothing"));
    free(shown);
    json_decref(e);
    still_fine(c, what, before);
}

static bool stop_cannot_follow(const e2e_client *mover, void *ctx)
{
    (void)ctx;
    const char *phase = e2e_view_str(mover->view, "phase");
    json_t *view = json_object_get(mover->view, "view");
    json_t *trick = json_object_get(view, "trick");
    if (phase == NULL || strcmp(phase, "play") != 0 ||
        json_array_size(json_object_get(trick, "cards")) == 0)
        return false;
    char s[2] = {SEATS[mover->seat], 0};
    barbu_cards hand = e2e_cards_json(json_object_get(json_object_get(view, "hands"), s));
    barbu_cards legal = 0;
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(mover->view, "legal"), i, a) legal |=
        e2e_cards_json(json_object_get(a, "cards"));
    return (hand & ~legal) != 0;
}

static e2e_client *fresh(int port, const char *label)
{
    return e2e_client_new(label, port);
}

static void hello_refused(int port, const char *name_json, const char *code, const char *what)
{
    e2e_client *c = fresh(port, "newcomer");
    char text[300];
    snprintf(text, sizeof text, "{\"type\":\"hello\",\"version\":1,\"name\":%s}", name_json);
    quiet_start();
    e2e_send_text(c, text);
    json_t *e = e2e_expect_error(c, code, "hello", 3000);
    const char *got = e ? json_string_value(json_object_get(e, "code")) : NULL;
    CHECK(got && strcmp(got, code) == 0, "%s: hello refused with %s", what, code);
    json_decref(e);
    /* The connection goes on: a proper hello is then welcome. */
    static int k;
    char name[24];
    snprintf(name, sizeof name, "fine%d", ++k);
    e2e_hello(c, name);
    e2e_client_free(c);
}

static bool stop_at_once(const e2e_client *mover, void *ctx)
{
    (void)mover;
    (void)ctx;
    return true;
}

static void flood(e2e_server *srv)
{
    /* A steady player at its own table, against three easy computer
     * players (they answer at once: the latencies are the server's). */
    e2e_client *steady = e2e_client_new("steady", srv->port);
    e2e_hello(steady, "steady");
    e2e_create(steady, "uk",
               json_pack("{s:[s,s,s], s:s, s:i, s:s}", "bots", "E", "S", "W", "level", "easy",
                         "delay", 0, "sit", "N"));
    steady->autoplay = true;
    steady->group = e2e_new_group();
    e2e_play(stop_at_once, NULL, 10000); /* until its first turn */
    steady->max_latency_ms = 0;
    steady->n_latency = 0;

    e2e_client *f = e2e_client_new("flooder", srv->port);
    e2e_hello(f, "flooder");
    e2e_clear(f);
    long t0 = e2e_now_ms();
    const char *msg = "{\"type\":\"tables\"}";
    for (int i = 0; i < 1000; i++)
        wsc_send_text(f->ws, msg, strlen(msg));
    long cut_at = -1;
    int answers = 0, answers_1s = -1;
    long seen_1s = 0; /* when answers_1s was counted: a busy machine may be late */
    while (e2e_now_ms() - t0 < 30000) {
        /* the steady player keeps playing */
        if (e2e_to_move(steady) && steady->at > steady->acted_at && !e2e_game_over(steady))
            e2e_act(steady);
        e2e_pump(10);
        json_t *l;
        while ((l = e2e_expect(f, "lobby", 0)) != NULL) {
            answers++;
            json_decref(l);
        }
        if (answers_1s < 0 && e2e_now_ms() - t0 >= 1000) {
            answers_1s = answers;
            seen_1s = e2e_now_ms() - t0;
        }
        if (f->bye[0] && cut_at < 0)
            cut_at = e2e_now_ms() - t0;
        if (f->closed)
            break;
    }
    e2e_note("flood: 1000 messages sent; %d answered in the first %ld ms, %d in all; bye \"%s\" "
             "after %ld ms; %s",
             answers_1s, seen_1s, answers, f->bye, cut_at, f->closed ? "closed" : "still open");
    e2e_note("flood: the steady player's act-to-view latency: %ld acts, max %ld ms",
             steady->n_latency, steady->max_latency_ms);
    /* A burst of 30 and 10 a second: by the time the answers were counted
     * (a second, or later when this client was kept waiting), no more than
     * that allows, with a little slack for the clocks. */
    long allowed = 30 + 10 * seen_1s / 1000 + 5;
    CHECK(answers_1s >= 0 && answers_1s <= allowed,
          "flood: the flooder is slowed (%d answers in the first %ld ms, at most %ld; 10 a "
          "second, bursts of 30)",
          answers_1s, seen_1s, allowed);
    CHECK(strcmp(f->bye, "flood") == 0, "flood: the flooder gets bye \"flood\" (got \"%s\")",
          f->bye);
    CHECK(f->closed, "flood: and its connection is closed");
    CHECK(steady->n_latency >= 10 && steady->max_latency_ms < 250,
          "flood: meanwhile a player at another table is served (%ld acts, max %ld ms)",
          steady->n_latency, steady->max_latency_ms);
    e2e_client_free(f);
    e2e_client_free(steady);
}

/* The name of who sits at seat k (N E S W) in a table message, or NULL. */
static const char *seat_name_in(const json_t *table_msg, int k)
{
    json_t *st = json_array_get(json_object_get(table_msg, "seats"), (size_t)k);
    return json_string_value(json_object_get(st, "name"));
}

/* The levels of computer player: omniscient, the reference player that sees
 * every card, is never seated; a table created without a level has medium
 * ones, and a `bot` call without one gets the table's; hard computer
 * players think on the worker threads while the server answers at once. */
static void levels(e2e_server *srv)
{
    refused(lob(),
            "{\"type\":\"create\",\"rules\":\"uk\",\"bots\":[\"E\",\"S\",\"W\"],"
            "\"level\":\"omniscient\"}",
            "bad_value", "levels: a create with level omniscient");
    refused(lob(), "{\"type\":\"create\",\"rules\":\"uk\",\"level\":\"wizard\"}", "bad_value",
            "levels: a create with an unknown level");

    e2e_client *h = e2e_client_new("hardy", srv->port);
    e2e_hello(h, "hardy");
    /* No level: medium. */
    e2e_create(h, "uk", json_pack("{s:[s], s:s}", "bots", "E", "sit", "N"));
    json_t *t = e2e_expect(h, "table", 5000);
    const char *level = json_string_value(json_object_get(t, "level"));
    const char *east = seat_name_in(t, 1);
    CHECK(level && strcmp(level, "medium") == 0 && east && strcmp(east, "medium bot E") == 0,
          "levels: a table created without a level has medium computer players (level %s, "
          "East %s)",
          level ? level : "absent", east ? east : "absent");
    json_decref(t);
    e2e_send(h, json_pack("{s:s}", "type", "leave"));
    json_decref(e2e_expect(h, "lobby", 5000));

    /* Hard computer players East and South; West is called for below. */
    int table = e2e_create(h, "uk",
                           json_pack("{s:s, s:[s,s], s:s, s:i, s:s}", "seed", "4711", "bots", "E",
                                     "S", "level", "hard", "delay", 0, "sit", "N"));
    t = e2e_expect(h, "table", 5000);
    level = json_string_value(json_object_get(t, "level"));
    CHECK(level && strcmp(level, "hard") == 0, "levels: a table of hard computer players (%s)",
          level ? level : "absent");
    json_decref(t);
    h->table = table;
    refused(h, "{\"type\":\"bot\",\"seat\":\"W\",\"level\":\"omniscient\"}", "bad_value",
            "levels: a bot call with level omniscient");
    e2e_send(h, json_pack("{s:s, s:s}", "type", "bot", "seat", "W"));
    t = e2e_expect(h, "table", 5000);
    const char *west = t ? seat_name_in(t, 3) : NULL;
    CHECK(west && strcmp(west, "hard bot W") == 0,
          "levels: a bot call without a level gets the table's (West %s)", west ? west : "absent");
    json_decref(t);

    /* The game runs: North acts by the fixed rule; while a hard computer
     * player is to move, North chats and times the answer. */
    int bot_cards = 0, probes = 0, during = 0;
    long max_rtt = 0, think_max = 0, think_sum = 0, think_n = 0;
    long t0 = e2e_now_ms(), since = t0, last_probe = 0;
    const char *bot_to_move = NULL;
    while (e2e_now_ms() - t0 < 90000 && (bot_cards < 6 || during < 3) && !e2e_game_over(h)) {
        e2e_pump(10);
        json_t *v;
        while ((v = e2e_expect(h, "view", 0)) != NULL) {
            json_t *last = json_object_get(v, "last");
            const char *type = json_string_value(json_object_get(last, "type"));
            const char *seat = json_string_value(json_object_get(last, "seat"));
            if (type && seat && strcmp(seat, "N") != 0) {
                bot_cards += strcmp(type, "play") == 0;
                long think = e2e_now_ms() - since;
                think_max = think > think_max ? think : think_max;
                think_sum += think;
                think_n++;
            }
            since = e2e_now_ms();
            json_decref(v);
        }
        if (e2e_game_over(h))
            break;
        const char *tm = e2e_view_str(h->view, "to_move");
        bot_to_move = tm && strcmp(tm, "N") != 0 ? tm : NULL;
        if (e2e_to_move(h) && h->at > h->acted_at) {
            e2e_act(h);
        } else if (bot_to_move && e2e_now_ms() - last_probe >= 150) {
            char text[40];
            snprintf(text, sizeof text, "probe %d", ++probes);
            long at = h->at;
            e2e_send(h, json_pack("{s:s, s:s}", "type", "chat", "text", text));
            long sent = e2e_now_ms();
            json_t *c = e2e_expect(h, "chat", 3000);
            long rtt = e2e_now_ms() - sent;
            last_probe = e2e_now_ms();
            const char *got = json_string_value(json_object_get(c, "text"));
            bool back = got && strcmp(got, text) == 0;
            if (!back)
                CHECK(false, "levels: chat '%s' comes back (got %s)", text, got ? got : "nothing");
            json_decref(c);
            if (!back)
                break;
            max_rtt = rtt > max_rtt ? rtt : max_rtt;
            /* Answered before the computer player's move came. */
            during += h->at == at && e2e_peek(h, "view") == NULL;
        }
    }
    e2e_note("levels: %d cards played by the hard computer players in %ld ms; a move took up to "
             "%ld ms (mean %.0f over %ld)",
             bot_cards, e2e_now_ms() - t0, think_max, think_n ? (double)think_sum / think_n : 0.0,
             think_n);
    CHECK(bot_cards >= 6, "levels: the hard computer players play (%d cards)", bot_cards);
    CHECK(during >= 3,
          "levels: a chat is answered while a hard computer player thinks (%d of %d chats "
          "before its move)",
          during, probes);
    CHECK(max_rtt < 250, "levels: meanwhile every chat came back within 250 ms (at most %ld ms)",
          max_rtt);
    /* North leaves: the game waits for a substitute, and the hard players
     * stop thinking. */
    e2e_send(h, json_pack("{s:s}", "type", "leave"));
    json_decref(e2e_expect(h, "lobby", 5000));
    e2e_client_free(h);
}

static void scenario_hostile(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "hostile.db");
    int port = srv.port;

    /* Before hello. */
    e2e_client *x = fresh(port, "early");
    e2e_send_text(x, "{\"type\":\"tables\"}");
    json_decref(e2e_expect_error(x, "hello_first", NULL, 3000));
    e2e_hello(x, "early");

    game g;
    four_players(&g, port, "h", "", "uk", "8888", "seat", false, false);
    e2e_client *kib = e2e_client_new_from("kib", port, "127.0.0.2"); /* not a player's address */
    e2e_hello(kib, "kib");
    e2e_kibitz(kib, g.table, 0);
    for (int i = 0; i < 4; i++) {
        char name[24];
        snprintf(name, sizeof name, "lurker%d", i);
        lobbies[i] = fresh(port, name);
        e2e_hello(lobbies[i], name);
    }
    e2e_client *l = lobbies[0];

    e2e_play(stop_cannot_follow, NULL, 60000);
    e2e_client *m = e2e_halted;
    REQUIRE(m != NULL, "hostile: the game reaches a trick the mover cannot play every card to");
    for (long t = e2e_now_ms(); e2e_now_ms() - t < 300;)
        e2e_pump(20);
    long at0 = m->at;
    json_t *view0 = json_deep_copy(json_object_get(m->view, "view"));
    e2e_client *other = g.p[(m->seat + 1) % 4];
    n_watched = 0;
    for (int s = 0; s < 4; s++)
        watched[n_watched++] = g.p[s];
    watched[n_watched++] = kib;
    e2e_note("hostile: %s to move at action %ld", m->label, at0);

    char text[10000];
    /* Size, syntax, schema. */
    int n = snprintf(text, sizeof text, "{\"type\":\"chat\",\"text\":\"");
    memset(text + n, 'a', 8300);
    snprintf(text + n + 8300, sizeof text - (size_t)n - 8300, "\"}");
    refused(lob(), text, "too_big", "a message over 8192 bytes");
    refused(lob(), "this is not JSON", "bad_json", "not JSON");
    refused(lob(), "[1,2,3]", "bad_json", "a JSON array");
    refused(lob(), "\"tables\"", "bad_json", "a JSON string");
    refused(lob(), "{\"id\":5}", "bad_type", "no type");
    refused(lob(), "{\"type\":7}", "bad_type", "a type that is not a string");
    refused(lob(), "{\"type\":\"dance\"}", "bad_type", "an unknown type");
    refused(lob(), "{\"type\":\"tables\",\"colour\":\"blue\"}", "bad_field", "an unknown field");
    {
        e2e_client *c = lob();
        quiet_start();
        e2e_send_text(c, "{\"type\":\"kibitz\",\"table\":1,\"seat\":\"N\",\"colour\":1,\"id\":4}");
        json_t *e = e2e_expect_error(c, "bad_field", "kibitz", 3000);
        CHECK(e && json_integer_value(json_object_get(e, "id")) == 4,
              "an error names the message it refuses (re) and echoes its id");
        json_decref(e);
    }
    snprintf(text, sizeof text, "{\"type\":\"sit\",\"table\":%d}", g.table);
    refused(lob(), text, "bad_field", "a missing field (sit without seat)");
    refused(lob(), "{\"type\":\"create\"}", "bad_field", "a missing field (create without rules)");
    snprintf(text, sizeof text, "{\"type\":\"sit\",\"table\":\"%d\",\"seat\":\"N\"}", g.table);
    refused(lob(), text, "bad_field", "a table number as a string");
    refused(lob(), "{\"type\":\"create\",\"rules\":5}", "bad_field", "rules as a number");
    refused(lob(), "{\"type\":\"create\",\"rules\":\"uk\",\"kibitz\":null}", "bad_field",
            "an optional field sent as null");
    refused(lob(), "{\"type\":\"tables\",\"id\":-1}", "bad_value", "an id below 0");
    refused(lob(), "{\"type\":\"tables\",\"id\":2147483648}", "bad_value", "an id above 2^31-1");
    refused(lob(), "{\"type\":\"tables\",\"id\":\"7\"}", "bad_field", "an id as a string");
    refused(lob(), "{\"type\":\"tables\",\"id\":1.5}", "bad_field|bad_value", "an id of 1.5");
    {
        quiet_start();
        e2e_send_text(l, "{\"type\":\"tables\",\"id\":2147483647}");
        json_t *lob = e2e_expect(l, "lobby", 3000);
        CHECK(lob && json_integer_value(json_object_get(lob, "id")) == 2147483647,
              "an id of 2^31-1 is echoed");
        json_decref(lob);
    }
    refused(lob(), "{\"type\":\"tables\",\"type\":\"tables\"}", "bad_json|bad_field",
            "a field named twice");
    refused(lob(), "{\"type\":\"chat\",\"text\":\"a\\u0000b\"}", "bad_json|bad_text",
            "\\u0000 in a string");
    refused(lob(), "{\"type\":\"chat\",\"text\":\"a\xff\xfe b\"}", "bad_text|bad_json",
            "a chat line of invalid UTF-8");
    refused(lob(), "{\"type\":\"chat\",\"text\":\"\\ud800\"}", "bad_text|bad_json",
            "a chat line with a lone surrogate");
    refused(lob(), "{\"type\":\"chat\",\"text\":\"ring\\u0007\"}", "bad_text",
            "a chat line with a control character");
    refused(lob(), "{\"type\":\"chat\",\"text\":\"two\\nlines\"}", "bad_text",
            "a chat line with a newline");
    n = snprintf(text, sizeof text, "{\"type\":\"chat\",\"text\":\"");
    memset(text + n, 'b', 301);
    snprintf(text + n + 301, sizeof text - (size_t)n - 301, "\"}");
    refused(lob(), text, "bad_text", "a chat line of 301 bytes");
    refused(lob(), "{\"type\":\"chat\",\"text\":\"\"}", "bad_text", "an empty chat line");
    refused(lob(), "{\"type\":\"chat\",\"text\":\"   \"}", "bad_text", "a chat line of spaces");
    {
        /* 300 bytes of UTF-8 (100 euro signs) are a chat line; ends trimmed. */
        char line[400] = "{\"type\":\"chat\",\"text\":\"  ";
        for (int i = 0; i < 100; i++)
            strcat(line, "\xe2\x82\xac");
        strcat(line, "  \"}");
        quiet_start();
        e2e_send_text(l, line);
        json_t *ch = e2e_expect(l, "chat", 3000);
        const char *t = ch ? json_string_value(json_object_get(ch, "text")) : NULL;
        CHECK(t && strlen(t) == 300 && t[0] == '\xe2',
              "a chat line of 300 bytes is sent back to its sender, trimmed");
        const char *from = ch ? json_string_value(json_object_get(ch, "from")) : NULL;
        CHECK(from && strcmp(from, "lurker0") == 0, "the chat names its sender");
        json_decref(ch);
        n = snprintf(text, sizeof text, "{\"type\":\"chat\",\"text\":\"a");
        for (int i = 0; i < 100; i++)
            n += snprintf(text + n, sizeof text - (size_t)n, "\xe2\x82\xac");
        snprintf(text + n, sizeof text - (size_t)n, "\"}");
        refused(lob(), text, "bad_text", "a chat line of 301 bytes of UTF-8");
    }

    /* hello */
    refused(lob(), "{\"type\":\"hello\",\"version\":1,\"name\":\"again\"}", "hello_twice",
            "hello twice");
    hello_refused(port, "\"abcdefghijklmnopqrstu\"", "bad_name", "a 21-character name");
    hello_refused(port, "\"a/b\"", "bad_name", "a name with a slash");
    hello_refused(port, "\"two  spaces\"", "bad_name", "a name with two spaces");
    hello_refused(port, "\" lead\"", "bad_name", "a name with a leading space");
    /* Letters beyond ASCII are fine (été), symbols and mixed scripts are not. */
    hello_refused(port, "\"\xf0\x9f\x98\x80\"", "bad_name", "a name of an emoji");
    hello_refused(port, "\"p\xd0\xb0ypal\"", "bad_name", "a name mixing Latin and Cyrillic");
    hello_refused(port, "\"\"", "bad_name", "an empty name");
    snprintf(text, sizeof text, "\"%s\"", g.p[0]->name);
    hello_refused(port, text, "name_taken", "a name in use");
    hello_refused(port, "\"H-n\"", "name_taken", "a name in use in another case (h-N)");
    {
        e2e_client *c = fresh(port, "ok20");
        e2e_hello(c, "abcdefghijklmnopqrst");
        e2e_client_free(c);
        c = fresh(port, "badtoken");
        e2e_send_text(c, "{\"type\":\"hello\",\"version\":1,\"token\":"
                         "\"00000000000000000000000000000000000000000000000000000000000000ff\"}");
        json_decref(e2e_expect_error(c, "bad_token", "hello", 3000));
        e2e_send_text(c, "{\"type\":\"hello\",\"version\":2,\"name\":\"vtwo\"}");
        json_decref(e2e_expect_error(c, "version", "hello", 3000));
        /* A name that differs from the token's session. */
        snprintf(text, sizeof text,
                 "{\"type\":\"hello\",\"version\":1,\"name\":\"other\",\"token\":\"%s\"}",
                 x->token);
        e2e_send_text(c, text);
        json_decref(e2e_expect_error(c, "bad_name", "hello", 3000));
        CHECK(!x->closed && x->bye[0] == '\0', "a refused hello does not replace the session");
        e2e_client_free(c);
    }

    /* Tables and seats. */
    snprintf(text, sizeof text, "{\"type\":\"sit\",\"table\":%d,\"seat\":\"E\"}", g.table);
    refused(lob(), text, "seat_taken", "sit at a taken seat");
    refused(lob(), "{\"type\":\"sit\",\"table\":99999,\"seat\":\"N\"}", "no_table",
            "sit at a table that does not exist");
    refused(lob(), "{\"type\":\"kibitz\",\"table\":99999,\"seat\":\"N\"}", "no_table",
            "kibitz a table that does not exist");
    refused(lob(), "{\"type\":\"record\",\"table\":99999}", "no_table", "the record of no table");
    refused(lob(), "{\"type\":\"score\",\"table\":99999}", "no_table", "the score of no table");
    snprintf(text, sizeof text, "{\"type\":\"sit\",\"table\":%d,\"seat\":\"X\"}", g.table);
    refused(lob(), text, "bad_seat|bad_value", "sit at seat X");
    snprintf(text, sizeof text, "{\"type\":\"sit\",\"table\":%d,\"seat\":\"all\"}", g.table);
    refused(lob(), text, "bad_seat", "sit at seat all");
    refused(lob(), "{\"type\":\"leave\"}", "not_at_table", "leave from the lobby");
    refused(lob(), "{\"type\":\"bot\",\"seat\":\"W\"}", "not_seated", "bot from the lobby");
    refused(lob(), "{\"type\":\"create\",\"rules\":\"nonesuch\"}", "bad_rules",
            "an unknown preset");
    refused(lob(), "{\"type\":\"create\",\"rules\":\"uk\",\"house\":\"colour = blue\\n\"}",
            "bad_rules", "house rules with an unknown key");
    refused(lob(), "{\"type\":\"create\",\"rules\":\"uk\",\"delay\":5001}", "bad_value",
            "a delay over 5000");
    refused(lob(), "{\"type\":\"create\",\"rules\":\"uk\",\"grace\":-1}", "bad_value",
            "a grace below 0");
    refused(lob(), "{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\"18446744073709551616\"}",
            "bad_value", "a seed of 2^64");
    refused(lob(), "{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\"12x\"}", "bad_value",
            "a seed that is not a number");
    refused(lob(), "{\"type\":\"create\",\"rules\":\"uk\",\"kibitz\":\"some\"}", "bad_value",
            "kibitz some");
    refused(lob(), "{\"type\":\"create\",\"rules\":\"uk\",\"bots\":[\"N\",\"N\"]}",
            "bad_value|bad_seat", "a bot seat named twice");
    snprintf(text, sizeof text, "{\"type\":\"sit\",\"table\":%d,\"seat\":\"N\"}", g.table);
    refused(g.p[1], text, "busy|seat_taken", "a seated player sits again elsewhere");

    /* Acts. */
    refused(lob(), "{\"type\":\"act\",\"action\":{\"type\":\"pass\"}}", "not_seated",
            "act from the lobby");
    refused(kib, "{\"type\":\"act\",\"action\":{\"type\":\"pass\"}}", "not_seated",
            "act by a kibitzer");
    snprintf(text, sizeof text,
             "{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"2C\"]}}");
    refused(other, text, "not_your_turn", "act out of turn");
    char seat_s[2] = {SEATS[m->seat], 0};
    barbu_cards hand = e2e_cards_json(json_object_get(json_object_get(view0, "hands"), seat_s));
    barbu_cards legal = 0;
    {
        size_t i;
        json_t *a;
        json_array_foreach(json_object_get(m->view, "legal"), i, a) legal |=
            e2e_cards_json(json_object_get(a, "cards"));
    }
    barbu_cards not_legal = hand & ~legal;
    barbu_cards played = 0;
    json_t *pl = json_object_get(view0, "played");
    {
        const char *k;
        json_t *v;
        json_object_foreach(pl, k, v) played |= e2e_cards_json(v);
    }
    barbu_cards elsewhere = BARBU_ALL_CARDS & ~hand & ~played;
    char card[3] = "??";
    int c1 = barbu_nth_card(not_legal, 0);
    barbu_card_format((barbu_card)c1, BARBU_FMT_ASCII, card, sizeof card);
    snprintf(text, sizeof text,
             "{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"%s\"]},\"at\":%ld}",
             card, at0);
    {
        quiet_start();
        int before = total_views();
        e2e_send_text(m, text);
        json_t *e = e2e_expect_error(m, "illegal", "act", 3000);
        json_t *eng = e ? json_object_get(e, "engine") : NULL;
        const char *why = e ? json_string_value(json_object_get(e, "text")) : NULL;
        CHECK(json_is_integer(eng) && json_integer_value(eng) == BARBU_EFOLLOW,
              "an illegal card (%s, cannot follow suit) is refused with the engine's code %d", card,
              BARBU_EFOLLOW);
        CHECK(why && strstr(why, barbu_strerror(BARBU_EFOLLOW)) != NULL,
              "and the engine's reason (\"%s\")", why ? why : "none");
        json_decref(e);
        still_fine(m, "an illegal card", before);
    }
    int c2 = barbu_nth_card(elsewhere, 0);
    barbu_card_format((barbu_card)c2, BARBU_FMT_ASCII, card, sizeof card);
    snprintf(text, sizeof text,
             "{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"%s\"]}}", card);
    {
        quiet_start();
        int before = total_views();
        e2e_send_text(m, text);
        json_t *e = e2e_expect_error(m, "illegal", "act", 3000);
        json_t *eng = e ? json_object_get(e, "engine") : NULL;
        CHECK(json_is_integer(eng) && json_integer_value(eng) == BARBU_ENOTHELD,
              "a card not held (%s) is refused with the engine's code %d", card, BARBU_ENOTHELD);
        json_decref(e);
        still_fine(m, "a card not held", before);
    }
    refused(m, "{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"ZZ\"]}}", "bad_value",
            "a malformed card");
    refused(m, "{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"1S\"]}}", "bad_value",
            "a card of rank 1");
    refused(m, "{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":\"AS\"}}", "bad_field",
            "cards as a string");
    refused(m, "{\"type\":\"act\",\"action\":{\"type\":\"dance\"}}", "bad_value",
            "an unknown action");
    refused(m, "{\"type\":\"act\",\"action\":{\"type\":\"pass\"}}", "illegal", "a pass in a trick");
    refused(m, "{\"type\":\"act\"}", "bad_field", "act without an action");
    {
        json_t *a = e2e_choose(m);
        json_t *msg = json_pack("{s:s, s:O, s:i}", "type", "act", "action", a, "at", (int)at0 - 1);
        char *t = json_dumps(msg, JSON_COMPACT);
        refused(m, t, "stale", "an act with a stale at");
        free(t);
        json_object_set_new(msg, "at", json_integer(at0 + 3));
        t = json_dumps(msg, JSON_COMPACT);
        refused(m, t, "stale|bad_value", "an act with an at from the future");
        free(t);
        /* An action may name its seat, but only the sender's own. */
        json_t *other_seat = json_deep_copy(json_array_get(json_object_get(m->view, "legal"), 0));
        char os[2] = {SEATS[(m->seat + 1) % 4], 0};
        json_object_set_new(other_seat, "seat", json_string(os));
        json_object_set_new(msg, "action", other_seat);
        json_object_set_new(msg, "at", json_integer(at0));
        t = json_dumps(msg, JSON_COMPACT);
        refused(m, t, "bad_seat", "an action naming another seat");
        free(t);
        json_decref(msg);
        json_decref(a);
    }

    /* Frames. */
    {
        quiet_start();
        int before = total_views();
        const char *p = "{\"type\":\"tables\",\"id\":77}";
        wsc_send_frame(l->ws, WSC_OP_TEXT, false, true, p, 9);
        wsc_send_frame(l->ws, WSC_OP_CONT, false, true, p + 9, 8);
        wsc_send_frame(l->ws, WSC_OP_PING, true, true, "hi", 2);
        wsc_send_frame(l->ws, WSC_OP_CONT, true, true, p + 17, strlen(p) - 17);
        json_t *lob = e2e_expect(l, "lobby", 3000);
        CHECK(lob && json_integer_value(json_object_get(lob, "id")) == 77,
              "a message in three fragments (and a ping between them) is reassembled");
        json_decref(lob);
        still_fine(l, "a fragmented message", before);
    }
    {
        quiet_start();
        int before = total_views();
        const char *p = "{\"type\":\"tables\"}";
        wsc_send_frame(l->ws, WSC_OP_BINARY, true, true, p, strlen(p));
        json_t *e = e2e_expect(l, "error", 3000);
        char *shown = e ? json_dumps(e, JSON_COMPACT) : NULL;
        CHECK(e != NULL, "a binary message is refused with an error (got %s)",
              shown ? shown : (l->closed ? "the connection closed" : "nothing"));
        free(shown);
        json_decref(e);
        still_fine(l, "a binary message", before);
    }
    {
        e2e_client *u = fresh(port, "unmasked");
        e2e_hello(u, "unmasked");
        const char *p = "{\"type\":\"tables\",\"id\":77}";
        wsc_send_frame(u->ws, WSC_OP_TEXT, true, false, p, strlen(p));
        /* RFC 6455 5.1 has a server close on an unmasked frame, but
         * Debian 12's libwebsockets (4.1) does not look at the mask bit and
         * offers no way to: the frame is read like any other, so it must
         * either close the connection or be answered as the message it
         * holds, and harm nothing (docs/protocol.md says so). */
        bool answered = false;
        for (long t = e2e_now_ms(); !u->closed && !answered && e2e_now_ms() - t < 3000;) {
            json_t *lobby = e2e_expect(u, "lobby", 100);
            answered = lobby && json_integer_value(json_object_get(lobby, "id")) == 77;
            json_decref(lobby);
        }
        CHECK(u->closed || answered,
              "an unmasked frame closes the connection or is read as its message%s%s",
              u->ws ? ": " : "", u->ws ? wsc_error(u->ws) : "");
        e2e_client_free(u);
        quiet_start();
        still_fine(l, "after an unmasked frame elsewhere", total_views());
    }
    {
        e2e_client *h = fresh(port, "huge");
        e2e_hello(h, "huge");
        long rss0 = e2e_server_rss_kb(&srv);
        wsc_send_frame_claim(h->ws, WSC_OP_TEXT, UINT64_C(1) << 40, "{\"type\":", 8);
        char junk[65536];
        memset(junk, ' ', sizeof junk);
        for (int i = 0; i < 16 && !h->closed; i++) {
            if (h->ws)
                wsc_send_raw(h->ws, junk, sizeof junk);
            e2e_pump(20);
        }
        json_t *e = NULL;
        for (long t = e2e_now_ms(); !h->closed && e == NULL && e2e_now_ms() - t < 3000;) {
            e2e_pump(20);
            e = e2e_peek(h, "error");
        }
        const char *code = e ? json_string_value(json_object_get(e, "code")) : NULL;
        CHECK(h->closed || (code && strcmp(code, "too_big") == 0),
              "a frame announcing 2^40 bytes is refused (too_big or the connection closed): %s",
              h->closed ? "closed" : (code ? code : "nothing"));
        long rss1 = e2e_server_rss_kb(&srv);
        CHECK(e2e_server_alive(&srv) && rss1 < rss0 + 64 * 1024,
              "and the server lives on without buffering it (RSS %ld kB -> %ld kB)", rss0, rss1);
        e2e_client_free(h);
        quiet_start();
        still_fine(l, "after a huge frame elsewhere", total_views());
    }

    /* Nothing changed at the table: the mover's view is as it was, and the
     * first legal action is still accepted at the same at. */
    CHECK(m->at == at0 && json_equal(json_object_get(m->view, "view"), view0),
          "after every refusal the table is as it was (at %ld, the same hands)", at0);
    json_decref(view0);
    e2e_act(m);
    for (long t = e2e_now_ms(); e2e_now_ms() - t < 3000;) {
        e2e_pump(20);
        bool all = true;
        for (int s = 0; s < 4; s++)
            all = all && g.p[s]->at == at0 + 1;
        if (all)
            break;
    }
    for (int s = 0; s < 4; s++)
        CHECK(g.p[s]->at == at0 + 1, "%s gets the view at %ld after the mover's proper act",
              g.p[s]->label, at0 + 1);

    for (int s = 0; s < 4; s++)
        g.p[s]->autoplay = false;
    flood(&srv);
    quiet_start();
    still_fine(l, "after the flood", total_views());
    levels(&srv);
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0 on SIGTERM");
}

/* ----------------------------------------------------------------- leak */

static const struct {
    const char *rules, *prefix;
    uint64_t seed;
} LEAK_GAMES[] = {
    {"uk", "lu", UINT64_C(8815327140029384719)},
    {"fife", "lf", UINT64_C(6620417730913375521)},
    {"chinese", "lc", UINT64_C(5079921345501232871)},
    {"king", "lk", UINT64_C(3316614427998130517)},
};
#define N_LEAK_GAMES ((int)(sizeof LEAK_GAMES / sizeof LEAK_GAMES[0]))

/* Half way, a kibitzer asks for the record of a running game: the seed is
 * withheld and only completed deals are in it; and a player asks for the
 * score (its message is checked with the rest). */
static void partial_record(game *g, const char *rules, const e2e_client *halted)
{
    bool complete = true;
    char *partial = e2e_record(g->kib_seat, g->table, &complete);
    CHECK(partial && !complete, "leak %s: a running game's record is not complete", rules);
    CHECK(partial && strstr(partial, "[Seed \"withheld\"]") != NULL,
          "leak %s: a running game's record withholds the seed", rules);
    if (partial) {
        barbu_state st;
        barbu_rules r;
        char why[300] = "";
        int rc = e2e_record_replay(partial, &st, &r, why, sizeof why);
        CHECK(rc == 0, "leak %s: a running game's record replays (%s)", rules, why);
        long deal = e2e_view_int(halted->view, "deal");
        CHECK(rc == 0 && st.t.deal == deal && st.t.acted == 0,
              "leak %s: it holds the %ld completed deals and nothing of the deal under way", rules,
              deal);
    }
    free(partial);
    e2e_send(g->p[3], json_pack("{s:s}", "type", "score"));
    json_t *score = e2e_expect(g->p[3], "score", 5000);
    CHECK(score && json_array_size(json_object_get(score, "deals")) ==
                       (size_t)e2e_view_int(halted->view, "deal"),
          "leak %s: the score of a running game lists the completed deals", rules);
    json_decref(score);
}

static void scenario_leak(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "leak.db");
    game g[N_LEAK_GAMES];
    for (int i = 0; i < N_LEAK_GAMES; i++) {
        char seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)LEAK_GAMES[i].seed);
        four_players(&g[i], srv.port, LEAK_GAMES[i].prefix, "", LEAK_GAMES[i].rules, seed, "all",
                     true, true);
    }
    e2e_trick_stop w = {2, 0, 3};
    long t0 = e2e_now_ms();
    e2e_play(e2e_stop_mid_trick, &w, 180000);
    for (int i = 0; i < N_LEAK_GAMES; i++) {
        const e2e_client *h = e2e_halted_in[g[i].p[0]->group];
        if (CHECK(h != NULL, "leak %s: the game reaches the play of deal 3", LEAK_GAMES[i].rules))
            partial_record(&g[i], LEAK_GAMES[i].rules, h);
    }
    e2e_play(NULL, NULL, 180000);
    e2e_pump(300);
    for (int i = 0; i < N_LEAK_GAMES; i++) {
        const char *rules = LEAK_GAMES[i].rules;
        e2e_note("%s: %ld actions, %ld deals", rules, g[i].p[0]->at,
                 e2e_view_int(g[i].p[0]->view, "deal"));
        CHECK(e2e_game_over(g[i].p[0]), "leak %s: the game is over", rules);
        char *text = e2e_record(g[i].kib_all, g[i].table, NULL);
        if (text) {
            e2e_client *all[6] = {g[i].p[0], g[i].p[1],     g[i].p[2],
                                  g[i].p[3], g[i].kib_seat, g[i].kib_all};
            e2e_leak_check(rules, LEAK_GAMES[i].seed, all, 6, text);
        }
        free(text);
    }
    e2e_note("four games in %ld ms", e2e_now_ms() - t0);
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0 on SIGTERM");
}

/* ---------------------------------------------------------------- rules */

/* Halts a game when the declarer is to answer the doubles. */
static bool stop_declarer_answers(const e2e_client *mover, void *ctx)
{
    (void)ctx;
    const char *phase = e2e_view_str(mover->view, "phase");
    const char *decl = e2e_view_str(mover->view, "declarer");
    return phase && decl && strcmp(phase, "bid") == 0 && mover->seat == e2e_seat_parse(decl);
}

/* Sends an act and expects an error of this code whose text is exactly want. */
static void refused_with(e2e_client *c, json_t *action, const char *code, const char *want,
                         const char *what)
{
    e2e_send(c, json_pack("{s:s, s:o}", "type", "act", "action", action));
    json_t *e = e2e_expect_error(c, code, "act", 5000);
    const char *text = e ? json_string_value(json_object_get(e, "text")) : NULL;
    CHECK(text && strcmp(text, want) == 0, "%s: \"%s\" (got \"%s\")", what, want,
          text ? text : "no error");
    json_decref(e);
}

typedef struct deal_calls {
    int deal;
    unsigned calls;
} deal_calls;

static void keep_calls(const barbu_result *r, void *ctx)
{
    deal_calls *dc = ctx;
    if (r->deal + 1 == dc->deal)
        dc->calls = r->contracts;
}

static void scenario_rules(void)
{
    e2e_server srv;

    /* A Fife game played (every seat its first legal action, seed 7) by the
     * reading barbu had before record format 2: the Call after a lone
     * number decided at once.  Its Silly Round parts from the booklet's
     * reading in deal 25, where the booklet has the Cutter cut again. */
    barbu_rules legacy;
    REQUIRE(barbu_rules_preset(&legacy, "fife") == 0, "the fife preset");
    legacy.later_joker = false;
    static barbu_action acts[2000];
    int n = 0;
    barbu_state st;
    REQUIRE(barbu_init(&st, &legacy, 7) == 0, "a fife game");
    while (!barbu_over(&st) && st.t.deal < 25 && n < 2000) {
        barbu_action legal[BARBU_MAX_ACTIONS];
        REQUIRE(barbu_legal(&st, legal, BARBU_MAX_ACTIONS) > 0, "a legal action");
        acts[n++] = legal[0];
        REQUIRE(barbu_apply(&st, &legal[0]) == 0, "a legal action applies");
    }
    unsigned calls25 = st.t.last.contracts;
    barbu_rules booklet;
    barbu_rules_preset(&booklet, "fife");
    barbu_state bk;
    barbu_init(&bk, &booklet, 7);
    int parts = 0;
    while (parts < n && barbu_apply(&bk, &acts[parts]) == 0)
        parts++;
    REQUIRE(parts < n, "seed 7's stored game reads differently by the booklet");
    e2e_note("the stored game: %d actions; by the booklet it stops at action %d", n, parts);

    /* Two such tables in a database, as a server stores them: one made
     * before (options without a revision), one marked as made now. */
    char path[400], err[256];
    snprintf(path, sizeof path, "%s/rules-old.db", e2e_tmpdir());
    store *db = store_sqlite_open(path, err, sizeof err);
    REQUIRE(db != NULL, "a database at %s: %s", path, err);
    int64_t ids[2];
    static const char *const OPTIONS[2] = {
        "{\"kibitz\":\"all\",\"grace\":300,\"takeover\":\"vote\",\"level\":\"easy\",\"delay\":0}",
        "{\"kibitz\":\"all\",\"grace\":300,\"takeover\":\"vote\",\"level\":\"easy\",\"delay\":0,"
        "\"revision\":2}"};
    for (int k = 0; k < 2; k++) {
        store_table t = {.preset = "fife",
                         .house = "",
                         .seed = 7,
                         .options = OPTIONS[k],
                         .state = STORE_PLAYING,
                         .created = 1764201600};
        REQUIRE(db->ops->table_create(db, &t, &ids[k]) == 0, "table_create: %s", store_error(db));
        for (int seat = 0; seat < 4; seat++) {
            char name[24];
            snprintf(name, sizeof name, "easy bot %c", SEATS[seat]);
            store_seat ss = {
                .seat = seat, .name = name, .player = name, .bot = true, .level = "easy"};
            REQUIRE(db->ops->seat_put(db, ids[k], &ss) == 0, "seat_put: %s", store_error(db));
        }
        for (int i = 0; i < n; i++) {
            char text[STORE_ACTION_TEXT];
            store_action_text(&acts[i], text);
            REQUIRE(db->ops->action_append(db, ids[k], (uint32_t)i, text) == 0, "action_append: %s",
                    store_error(db));
        }
    }
    store_close(db);

    e2e_server_start(&srv, "rules-old.db");
    e2e_client *old = e2e_client_new("old", srv.port);
    old->logging = true;
    e2e_hello(old, "old-table");
    e2e_kibitz(old, (int)ids[0], 4);
    e2e_client *now = e2e_client_new("now", srv.port);
    now->logging = true;
    e2e_hello(now, "now-table");
    e2e_kibitz(now, (int)ids[1], 4);
    for (long t = e2e_now_ms(); !e2e_game_over(old) && e2e_now_ms() - t < 60000;)
        e2e_pump(50);
    CHECK(e2e_game_over(old),
          "a table made before the booklet's later-Call rule is restored whole and its computer "
          "players finish the game");
    bool complete = false;
    char *text = e2e_record(old, (int)ids[0], &complete);
    if (CHECK(text != NULL && complete, "its complete record")) {
        CHECK(strstr(text, "[Rule \"later-call-joker = no\"]") != NULL,
              "the record says the game was played by the earlier reading");
        barbu_record *rec = NULL;
        barbu_diag d = {0};
        deal_calls dc = {25, 0};
        int rc = barbu_record_read(text, strlen(text), &rec, &d);
        if (rc == 0)
            rc = barbu_record_replay(rec, NULL, keep_calls, &dc, &d);
        CHECK(rc == 0, "the record replays (%s)", d.msg);
        CHECK(dc.calls == calls25,
              "deal 25 has the Calls the earlier reading gave when it was played (%#x, got %#x)",
              calls25, dc.calls);
        barbu_record_free(rec);
    }
    free(text);
    /* The table marked as made now is read by the booklet: its stored game
     * cannot be replayed past the deal where the readings part. */
    for (long t = e2e_now_ms(); now->view == NULL && e2e_now_ms() - t < 5000;)
        e2e_pump(20);
    e2e_pump(500);
    CHECK(now->at == parts,
          "a table of revision 2 replays by the booklet and stops at action %d (at %ld)", parts,
          now->at);

    /* A Fife view says what each cut was for and meant: every view of a
     * Silly Round deal with cuts has a note for each (the table of
     * revision 2 stops in a deal's cuts). */
    int with_cuts = 0, noted = 0;
    for (int m = 0; m < old->nlog + now->nlog; m++) {
        const e2e_logged *lg = m < old->nlog ? &old->log[m] : &now->log[m - old->nlog];
        json_t *msg = json_loads(lg->text, 0, NULL);
        json_t *fife = json_object_get(json_object_get(msg, "view"), "fife");
        json_t *cuts = json_object_get(fife, "cuts"), *notes = json_object_get(fife, "cut_notes");
        if (json_array_size(cuts) > 0) {
            with_cuts++;
            bool ok = json_array_size(notes) == json_array_size(cuts);
            for (size_t i = 0; ok && i < json_array_size(notes); i++) {
                json_t *note = json_array_get(notes, i);
                const char *what = json_string_value(json_object_get(note, "for"));
                const char *words = json_string_value(json_object_get(note, "text"));
                ok = what && words && words[0] &&
                     (strcmp(what, "call") == 0 || strcmp(what, "pass_on") == 0);
            }
            noted += ok;
        }
        json_decref(msg);
    }
    CHECK(
        with_cuts > 0 && noted == with_cuts,
        "each of the %d views with cuts has a note for each cut, what it was for and meant (%d do)",
        with_cuts, noted);
    e2e_client_free(old);
    e2e_client_free(now);

    /* Refusals say what is wrong, in the engine's words. */
    game g;
    four_players(&g, srv.port, "rl", "", "uk", "4242", "seat", false, false);
    e2e_play(stop_declarer_answers, NULL, 60000);
    e2e_client *h = e2e_halted;
    REQUIRE(h != NULL, "the game halts when the declarer answers the doubles");
    const char *decl = e2e_view_str(h->view, "declarer");
    int other = (h->seat + 1) & 3;
    char want[300], seat_s[2] = {SEATS[other], 0};
    snprintf(want, sizeof want,
             "%s is the declarer, and a declarer does not double, only redoubles a player who "
             "doubled them.",
             decl);
    refused_with(h, json_pack("{s:s, s:[s]}", "type", "bid", "double", seat_s), "illegal", want,
                 "the declarer doubles");
    snprintf(want, sizeof want,
             "The game waits for %s's answer to the doubles, as the declarer (a redouble or a "
             "pass), not for a card.",
             decl);
    refused_with(h, json_pack("{s:s, s:[s]}", "type", "play", "cards", "2C"), "illegal", want,
                 "a card in the bidding");
    snprintf(want, sizeof want,
             "It is not your turn: the game waits for %s's answer to the doubles, as the declarer "
             "(a redouble or a pass). Wait for your turn.",
             decl);
    refused_with(g.p[other], json_pack("{s:s}", "type", "bid"), "not_your_turn", want,
                 "a bid out of turn");
    for (int k = 0; k < 4; k++)
        e2e_client_free(g.p[k]); /* the halted game ends here */
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0 on SIGTERM");
}

/* ------------------------------------------------------------- shutdown */

/* Whether a process holds an epoll descriptor: 1 yes, 0 no, -1 when its
 * /proc/PID/fd cannot be read (not Linux). */
static int holds_epoll(pid_t pid)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    int found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        char path[384], target[64];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            found = strcmp(target, "anon_inode:[eventpoll]") == 0;
        }
    }
    closedir(d);
    return found;
}

/* The server's loop and its stop.  The loop is libuv's, which waits with
 * epoll (lws's own loop called poll() over every socket on each turn), and
 * SIGINT reaches it as an event: the server says goodbye to every
 * connection, a player whose computer players are busy included, and
 * exits 0. */
static void scenario_shutdown(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "shutdown.db");
    int epoll = holds_epoll(srv.pid);
    if (epoll < 0)
        e2e_note("shutdown: no /proc/%d/fd to read: the loop's epoll is not checked", (int)srv.pid);
    else
        CHECK(epoll == 1, "shutdown: the server's loop waits with epoll (it holds an "
                          "anon_inode:[eventpoll] descriptor)");

    e2e_client *p = e2e_client_new("N", srv.port);
    e2e_hello(p, "Stopper");
    e2e_create(p, "uk",
               json_pack("{s:[s,s,s], s:i, s:s}", "bots", "E", "S", "W", "delay", 0, "sit", "N"));
    json_t *v = e2e_expect(p, "view", 5000);
    CHECK(v != NULL, "shutdown: the table's first view comes");
    json_decref(v);
    e2e_client *lobby = e2e_client_new("lobby", srv.port);
    e2e_hello(lobby, "Watcher");

    long t0 = e2e_now_ms();
    CHECK(e2e_server_stop_by(&srv, SIGINT) == 0, "shutdown: the server exits 0 on SIGINT");
    e2e_note("shutdown: stopped in %ld ms", e2e_now_ms() - t0);
    CHECK(strcmp(p->bye, "shutdown") == 0,
          "shutdown: the player at the table got bye shutdown (%s)", p->bye[0] ? p->bye : "none");
    CHECK(strcmp(lobby->bye, "shutdown") == 0,
          "shutdown: the client in the lobby got bye shutdown (%s)",
          lobby->bye[0] ? lobby->bye : "none");
    e2e_client_free(p);
    e2e_client_free(lobby);

    /* The game goes on after a restart, and SIGTERM stops it the same. */
    e2e_server_start(&srv, "shutdown.db");
    e2e_client *again = e2e_client_new("again", srv.port);
    e2e_hello(again, "Again");
    CHECK(e2e_server_stop_by(&srv, SIGTERM) == 0, "shutdown: the server exits 0 on SIGTERM");
    CHECK(strcmp(again->bye, "shutdown") == 0,
          "shutdown: the client got bye shutdown on SIGTERM (%s)",
          again->bye[0] ? again->bye : "none");
    e2e_client_free(again);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr,
                "usage: e2e BARBU SCENARIO... (game, resume, restart, hostile, leak, rules)\n");
        return 2;
    }
    e2e_init(argv[1]);
    /* The handshake's primitives: FIPS 180 and RFC 6455's own examples. */
    uint8_t digest[20];
    char hex[41], accept[29];
    wsc_sha1("abc", 3, digest);
    for (int i = 0; i < 20; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    wsc_accept_key("dGhlIHNhbXBsZSBub25jZQ==", accept);
    if (strcmp(hex, "a9993e364706816aba3e25717850c26c9cd0d89d") != 0 ||
        strcmp(accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") != 0) {
        printf("FAIL the client's SHA-1 or base64 (sha1(abc) = %s, accept = %s)\n", hex, accept);
        return 1;
    }
    for (int i = 2; i < argc; i++) {
        long t0 = e2e_now_ms();
        printf("== %s\n", argv[i]);
        if (strcmp(argv[i], "game") == 0)
            scenario_game();
        else if (strcmp(argv[i], "resume") == 0)
            scenario_resume();
        else if (strcmp(argv[i], "restart") == 0)
            scenario_restart();
        else if (strcmp(argv[i], "hostile") == 0)
            scenario_hostile();
        else if (strcmp(argv[i], "leak") == 0)
            scenario_leak();
        else if (strcmp(argv[i], "rules") == 0)
            scenario_rules();
        else if (strcmp(argv[i], "shutdown") == 0)
            scenario_shutdown();
        else {
            fprintf(stderr, "e2e: no scenario %s\n", argv[i]);
            return 2;
        }
        printf("== %s: %ld ms\n", argv[i], e2e_now_ms() - t0);
    }
    printf("%d failure%s\n", e2e_failures, e2e_failures == 1 ? "" : "s");
    return e2e_failures ? 1 : 0;
}
