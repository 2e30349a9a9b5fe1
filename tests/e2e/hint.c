/*
 * hint.c - issue 26 on a real barbu serve: the computer players of a table
 * keep one bot each for the game (point 5), and a table's players may ask
 * for hints (point 2).
 *
 * usage: hint BARBU SCENARIO...
 *   botseats  a seeded table of four medium computer players plays its
 *             first deal as four persistent bots do in this process, seeded
 *             as the server seeds them, action for action; the same table on
 *             a second server, killed (SIGKILL) mid-trick and started again
 *             on its database, plays the same deal: its rebuilt bots go on
 *             as the uninterrupted ones
 *   hint      at a table with hints: a hint at the player's turn is one of
 *             the seat's legal actions and the only card when there is one,
 *             carries nothing but the action, reaches nobody else, and is
 *             dropped when the table moved on before it was ready; not your
 *             turn, busy, a kibitzer, a table without hints and a ladder
 *             table are refused with their codes
 *   hint_rows at Chinese Poker the hint is a setting of the rows, which the
 *             server takes as the player's act
 *   hint_away a hint thought while its asker is offline is kept for them;
 *             a person taking the seat is not busy with another's hint
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barbu/ai.h"
#include "e2e.h"

/* ------------------------------------------------------------- botseats */

/* The seed of a computer player's decision at action `at` of a table of
 * seed `seed`: the server's (src/server/table.c, bot_seed).  Kept apart on
 * purpose: the test fails when the two part. */
static uint64_t bot_seed(uint64_t seed, uint32_t at, int seat)
{
    barbu_rng rng;
    barbu_rng_seed(&rng,
                   seed ^ (((uint64_t)at << 2 | (uint64_t)seat) * UINT64_C(0x9e3779b97f4a7c15)));
    barbu_rng_next(&rng);
    return barbu_rng_next(&rng);
}

#define BOT_SEED  "26052"
#define BOT_RULES "uk-32"

/* A client that creates a table of four medium computer players (seed
 * BOT_SEED, delay 0) and watches every hand of it. */
static e2e_client *bot_table(int port, const char *label, int *table)
{
    e2e_client *c = e2e_client_new(label, port);
    e2e_hello(c, label);
    *table =
        e2e_create(c, BOT_RULES,
                   json_pack("{s:s, s:[s,s,s,s], s:s, s:i, s:s}", "seed", BOT_SEED, "bots", "N",
                             "E", "S", "W", "level", "medium", "delay", 0, "kibitz", "all"));
    e2e_kibitz(c, *table, 4);
    return c;
}

/* Pumps until the client's view satisfies the condition, or ms pass. */
static bool wait_view(e2e_client *c, bool (*cond)(const e2e_client *, long), long arg, int ms)
{
    for (long t = e2e_now_ms(); e2e_now_ms() - t < ms;) {
        if (c->view && cond(c, arg))
            return true;
        e2e_pump(20);
    }
    return c->view && cond(c, arg);
}

static bool deal_reached(const e2e_client *c, long deal)
{
    return e2e_view_int(c->view, "deal") >= deal;
}

/* At least `at` actions in, and a trick begun but not full. */
static bool mid_trick(const e2e_client *c, long at)
{
    json_t *trick = json_object_get(json_object_get(c->view, "view"), "trick");
    size_t n = json_array_size(json_object_get(trick, "cards"));
    const char *phase = e2e_view_str(c->view, "phase");
    return e2e_view_int(c->view, "deal") == 0 && c->at >= at && n >= 1 && n <= 2 && phase &&
           strcmp(phase, "play") == 0;
}

typedef struct collected {
    barbu_action a[256];
    int n;
} collected;

static void collect(void *ctx, const barbu_state *before, const barbu_action *action,
                    const barbu_state *after)
{
    (void)after;
    collected *c = ctx;
    if (before->t.deal == 0 && c->n < 256)
        c->a[c->n++] = *action;
}

/* The actions of the record's first deal. */
static int first_deal(const char *text, collected *out)
{
    out->n = 0;
    barbu_record *rec = NULL;
    barbu_diag diag = {0};
    if (text == NULL || barbu_record_read(text, strlen(text), &rec, &diag) != 0)
        return -1;
    int err = barbu_record_walk(rec, collect, out, &diag);
    barbu_record_free(rec);
    return err;
}

static bool same_action(const barbu_action *x, const barbu_action *y)
{
    return x->type == y->type && x->seat == y->seat && x->contracts == y->contracts &&
           x->trump == y->trump && x->rank == y->rank && x->doubles == y->doubles &&
           x->redoubles == y->redoubles && x->cards == y->cards && x->middle == y->middle;
}

/* The first deal played in this process by four medium bots that each live
 * for the game, seeded for each decision as the server seeds them: each
 * choice must be the served game's action.  Returns the actions compared. */
static int replay_in_process(const collected *served, const char *what)
{
    barbu_rules rules;
    REQUIRE(barbu_rules_preset(&rules, BOT_RULES) == 0, "the preset " BOT_RULES);
    uint64_t seed = strtoull(BOT_SEED, NULL, 10);
    barbu_state s;
    REQUIRE(barbu_init(&s, &rules, seed) == 0, "a game of " BOT_RULES);
    barbu_bot *bots[4];
    for (int k = 0; k < 4; k++)
        bots[k] = barbu_bot_new("medium", bot_seed(seed, 0, k));
    int same = 0;
    for (int i = 0; i < served->n; i++) {
        int seat = s.t.to_move;
        barbu_view v;
        barbu_view_of(&s, seat, &v);
        barbu_bot_reseed(bots[seat], bot_seed(seed, (uint32_t)i, seat));
        barbu_action a;
        if (!CHECK(barbu_bot_choose(bots[seat], &v, &a) == 0, "%s: the bot chooses at action %d",
                   what, i))
            break;
        a.seat = (int8_t)seat;
        if (!CHECK(same_action(&a, &served->a[i]),
                   "%s: action %d (%s) is the one the persistent bot in this process chose", what,
                   i, barbu_seat_name(seat)))
            break;
        same++;
        REQUIRE(barbu_apply(&s, &a) == 0, "the action applies");
    }
    for (int k = 0; k < 4; k++)
        barbu_bot_free(bots[k]);
    return same;
}

static void scenario_botseats(void)
{
    e2e_server a, b;
    e2e_server_start(&a, "botseats-a.db");
    e2e_server_start(&b, "botseats-b.db");
    int ta, tb;
    e2e_client *ca = bot_table(a.port, "watch-a", &ta);
    e2e_client *cb = bot_table(b.port, "watch-b", &tb);

    /* Server B is killed with a trick under way, some tricks in. */
    REQUIRE(wait_view(cb, mid_trick, 14, 120000),
            "botseats: the game on B reaches a trick under way in its first deal");
    long killed_at = cb->at;
    e2e_note("server B killed at action %ld, deal %ld", killed_at, e2e_view_int(cb->view, "deal"));
    e2e_server_kill9(&b);
    e2e_server_start(&b, "botseats-b.db");
    e2e_client *cb2 = e2e_client_new("watch-b2", b.port);
    e2e_hello(cb2, "watch-b2");
    e2e_kibitz(cb2, tb, 4);

    REQUIRE(wait_view(ca, deal_reached, 1, 120000), "botseats: A's game reaches its second deal");
    REQUIRE(wait_view(cb2, deal_reached, 1, 120000), "botseats: B's game reaches its second deal");
    char *ra = e2e_record(ca, ta, NULL), *rb = e2e_record(cb2, tb, NULL);
    /* Read before the checks: their messages print the counts, and a
     * function's arguments are evaluated in no set order. */
    collected da = {0}, db = {0};
    bool read_a = first_deal(ra, &da) == 0, read_b = first_deal(rb, &db) == 0;
    CHECK(read_a && da.n > 20, "botseats: A's record replays (%d actions)", da.n);
    CHECK(read_b && db.n > 20, "botseats: B's record replays (%d actions)", db.n);
    CHECK(db.n > killed_at, "botseats: B's first deal went on after the restart");
    int same_a = replay_in_process(&da, "botseats, uninterrupted");
    int same_b = replay_in_process(&db, "botseats, killed and restarted");
    CHECK(same_a == da.n && same_b == db.n && da.n == db.n,
          "botseats: both served deals are the in-process deal (%d, %d of %d actions)", same_a,
          same_b, da.n);
    free(ra);
    free(rb);
    CHECK(e2e_server_stop(&a) == 0, "botseats: server A exits 0 on SIGTERM");
    CHECK(e2e_server_stop(&b) == 0, "botseats: server B exits 0 on SIGTERM");
}

/* ------------------------------------------------------------------ hint */

static int next_hint_id = 90000;

/* Sends hint and returns its id. */
static int ask_hint(e2e_client *c)
{
    int id = next_hint_id++;
    e2e_send(c, json_pack("{s:s, s:i}", "type", "hint", "id", id));
    return id;
}

/* Checks a hint message: its fields, nothing else, and an action among
 * the view's legal ones.  Returns the action (borrowed from h). */
static json_t *hint_ok(const json_t *h, const e2e_client *c, int id, const char *what)
{
    if (!CHECK(h != NULL, "%s: a hint comes", what))
        return NULL;
    CHECK(json_integer_value(json_object_get(h, "id")) == id, "%s: the hint echoes its id", what);
    CHECK(json_integer_value(json_object_get(h, "table")) == c->table,
          "%s: the hint names table %d", what, c->table);
    CHECK(json_integer_value(json_object_get(h, "at")) == c->at, "%s: the hint is at %ld", what,
          c->at);
    const char *level = json_string_value(json_object_get(h, "level"));
    CHECK(level && strcmp(level, "medium") == 0, "%s: the hint is medium's", what);
    /* Nothing but the action: no estimate, no sampled hands. */
    CHECK(json_object_size(h) == 6, "%s: the hint has type, id, table, at, action, level only",
          what);
    json_t *action = json_object_get(h, "action");
    json_t *legal = json_object_get(c->view, "legal");
    bool found = false;
    size_t i;
    json_t *v;
    json_array_foreach(legal, i, v) found = found || json_equal(v, action);
    if (json_array_size(legal) > 0)
        CHECK(found, "%s: the hinted action is one of the seat's legal actions", what);
    return action;
}

static void wait_turn(e2e_client *c, int ms)
{
    for (long t = e2e_now_ms(); e2e_now_ms() - t < ms && !e2e_to_move(c);)
        e2e_pump(20);
    REQUIRE(e2e_to_move(c), "%s: its turn comes", c->label);
}

static void scenario_hint(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "hint.db");
    e2e_client *p = e2e_client_new("hint-N", srv.port);
    e2e_hello(p, "hint-N");

    /* A ladder table takes no hints, whoever asks (the refusal comes before
     * the ladder's own checks). */
    e2e_send(p, json_pack("{s:s, s:s, s:b, s:b, s:i}", "type", "create", "rules", "uk", "ladder", 1,
                          "hints", 1, "id", 1));
    json_t *e = e2e_expect_error(p, "bad_value", "create", 5000);
    e2e_refusal_check(p, e);
    json_decref(e);
    /* Nor a rated one: a game with hints is never rated. */
    e2e_send(p, json_pack("{s:s, s:s, s:b, s:b, s:i}", "type", "create", "rules", "uk", "rated", 1,
                          "hints", 1, "id", 2));
    json_decref(e2e_expect_error(p, "bad_value", "create", 5000));

    /* No hints at a table without them. */
    int off = e2e_create(p, "uk", json_pack("{s:s}", "sit", "N"));
    json_decref(e2e_expect(p, "table", 5000));
    ask_hint(p);
    json_decref(e2e_expect_error(p, "hints_off", "hint", 5000));
    e2e_send(p, json_pack("{s:s}", "type", "leave"));
    json_decref(e2e_expect(p, "lobby", 5000));
    (void)off;

    /* A table with hints, not started: not yet the player's turn. */
    /* The computer players wait 400 ms a move, which leaves time to ask
     * out of turn. */
    int t = e2e_create(p, "uk-32",
                       json_pack("{s:s, s:b, s:s, s:i, s:s, s:s}", "seed", "2601", "hints", 1,
                                 "level", "easy", "delay", 400, "sit", "N", "kibitz", "all"));
    json_t *tm = e2e_expect(p, "table", 5000);
    CHECK(tm && json_is_true(json_object_get(tm, "hints")), "hint: the table message says hints");
    json_decref(tm);
    ask_hint(p);
    json_decref(e2e_expect_error(p, "not_your_turn", "hint", 5000));

    /* A kibitzer can never ask. */
    e2e_client *k = e2e_client_new_from("hint-kib", srv.port, "127.0.0.2");
    e2e_hello(k, "hint-kib");
    e2e_kibitz(k, t, 4);
    ask_hint(k);
    json_decref(e2e_expect_error(k, "not_seated", "hint", 5000));

    /* The computer players sit; the game starts. */
    for (int s = 1; s < 4; s++) {
        static const char *const SEAT[] = {"N", "E", "S", "W"};
        e2e_send(p, json_pack("{s:s, s:s, s:s}", "type", "bot", "seat", SEAT[s], "level", "easy"));
    }
    wait_turn(p, 20000);
    /* Two at once: the second is busy (the first is being thought). */
    e2e_clear(p);
    int id1 = ask_hint(p);
    ask_hint(p);
    json_decref(e2e_expect_error(p, "busy", "hint", 5000));
    json_t *h = e2e_expect(p, "hint", 10000);
    hint_ok(h, p, id1, "hint, the first decision");
    json_decref(h);

    /* A whole deal: at every turn of the player, a hint; with one legal
     * card (the last trick's, at least) it is that card, which only the
     * view can tell.  The player then plays by the fixed rule.  Between its
     * turns, while a computer player waits out the table's delay, a hint is
     * refused. */
    int hints = 0, forced = 0, off_turn = 0;
    long asked_off = -1;
    for (long t0 = e2e_now_ms(); e2e_view_int(p->view, "deal") < 1 && e2e_now_ms() - t0 < 90000;) {
        if (e2e_to_move(p) && p->acted_at != p->at) {
            int id = ask_hint(p);
            json_t *hh = e2e_expect(p, "hint", 10000);
            json_t *a = hint_ok(hh, p, id, "hint, in play");
            json_t *legal = json_object_get(p->view, "legal");
            if (a && json_array_size(legal) == 1) {
                CHECK(json_equal(a, json_array_get(legal, 0)),
                      "hint: with one legal action the hint is that action");
                forced++;
            }
            hints++;
            json_decref(hh);
            e2e_act(p);
        } else if (!e2e_to_move(p) && off_turn < 3 && p->at != asked_off && p->acted_at >= 0) {
            asked_off = p->at;
            ask_hint(p);
            json_decref(e2e_expect_error(p, "not_your_turn", "hint", 5000));
            off_turn++;
        }
        e2e_pump(20);
    }
    e2e_note("%d hints, %d of them with one legal action; %d refused off turn", hints, forced,
             off_turn);
    CHECK(hints >= 6 && forced >= 1 && off_turn == 3, "hint: hints were given through a deal");
    CHECK(e2e_peek(k, "hint") == NULL, "hint: the kibitzer never receives a hint");

    /* A hint asked and the card played before it is ready: the table moved
     * on, so it is dropped (a choice among several cards takes the medium
     * player many milliseconds, the act none). */
    bool stale_tried = false;
    for (long t0 = e2e_now_ms(); !stale_tried && e2e_now_ms() - t0 < 30000;) {
        e2e_pump(20);
        if (!e2e_to_move(p) || p->acted_at == p->at)
            continue;
        if (json_array_size(json_object_get(p->view, "legal")) < 2) {
            e2e_act(p);
            continue;
        }
        e2e_clear(p);
        ask_hint(p);
        e2e_act(p);
        stale_tried = true;
    }
    CHECK(stale_tried, "hint: a turn with a choice comes");
    for (long t0 = e2e_now_ms(); e2e_now_ms() - t0 < 1500;)
        e2e_pump(20);
    CHECK(e2e_peek(p, "hint") == NULL && e2e_peek(p, "error") == NULL,
          "hint: a hint whose table moved on before it was ready is dropped");
    CHECK(e2e_server_stop(&srv) == 0, "hint: the server exits 0 on SIGTERM");
}

/* Waits up to ms for c's turn at a view after action `after`. */
static void wait_turn_after(e2e_client *c, long after, int ms)
{
    for (long t = e2e_now_ms(); e2e_now_ms() - t < ms && !(e2e_to_move(c) && c->at > after);)
        e2e_pump(20);
    REQUIRE(e2e_to_move(c) && c->at > after, "%s: its turn comes after action %ld", c->label,
            after);
}

/* A hint thought while its asker's connection is down is kept: asked again
 * after reconnecting, at the same action, it is answered at once (twice in
 * a row, without busy, since no second one is thought).  And a person who
 * takes a seat whose previous person's hint is still being thought is not
 * refused as busy: the one in flight was another's. */
static void scenario_hint_away(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "hint-away.db");
    e2e_client *p = e2e_client_new("away-N", srv.port);
    e2e_hello(p, "away-N");
    int t = e2e_create(p, "uk",
                       json_pack("{s:s, s:b, s:[s,s,s], s:s, s:i, s:s}", "seed", "2602", "hints", 1,
                                 "bots", "E", "S", "W", "level", "easy", "delay", 0, "sit", "N"));
    wait_turn(p, 20000);

    /* Asked, and the connection drops before the answer. */
    long at = p->at;
    ask_hint(p);
    e2e_client_drop(p);
    e2e_pump(3000); /* the hint is thought meanwhile (the game waits) */
    e2e_client_reconnect(p, srv.port);
    e2e_resume(p);
    /* The view from before the drop already shows the turn: wait for the
     * resumed table and view, so that nothing of the resume is left to
     * come after the queue is cleared. */
    json_decref(e2e_expect(p, "table", 5000));
    json_t *back = e2e_expect(p, "view", 5000);
    REQUIRE(back != NULL && e2e_to_move(p) && p->at == at, "away: back at its turn at action %ld",
            at);
    json_decref(back);
    e2e_clear(p);
    int id1 = ask_hint(p), id2 = ask_hint(p);
    json_t *h1 = e2e_expect(p, "hint", 10000);
    hint_ok(h1, p, id1, "away, the kept hint");
    json_t *h2 = e2e_expect(p, "hint", 10000);
    hint_ok(h2, p, id2, "away, the kept hint again");
    CHECK(e2e_peek(p, "error") == NULL,
          "away: the hint thought while the player was away is kept, and given at once");
    CHECK(h1 && h2 && json_equal(json_object_get(h1, "action"), json_object_get(h2, "action")),
          "away: both answers are the same kept hint");
    json_decref(h1);
    json_decref(h2);

    /* At the next turn: asked, and the player leaves at once; another
     * person, waiting in the lobby, takes the seat and asks at once, in the
     * few milliseconds the medium player thinks the first hint. */
    e2e_client *q = e2e_client_new_from("away-sub", srv.port, "127.0.0.3");
    e2e_hello(q, "away-sub");
    /* A turn of the play with a choice of several cards, where the medium
     * player thinks longest (it samples the hidden hands). */
    for (long t0 = e2e_now_ms(); e2e_now_ms() - t0 < 30000;) {
        e2e_act(p);
        wait_turn_after(p, p->at, 20000);
        const char *phase = e2e_view_str(p->view, "phase");
        if (phase && strcmp(phase, "play") == 0 &&
            json_array_size(json_object_get(p->view, "legal")) >= 4)
            break;
    }
    e2e_clear(q);
    long asked = e2e_now_ms();
    ask_hint(p);
    /* The lobby that answers the leave, not one queued before it. */
    e2e_clear(p);
    e2e_send(p, json_pack("{s:s}", "type", "leave"));
    json_t *left = e2e_expect(p, "lobby", 5000);
    REQUIRE(left != NULL, "away: the leave is answered with the lobby");
    json_decref(left);
    e2e_send(q, json_pack("{s:s, s:i, s:s}", "type", "sit", "table", t, "seat", "N"));
    int id = ask_hint(q);
    json_decref(e2e_expect(q, "table", 5000));
    q->seat = 0;
    q->table = t;
    json_t *h = e2e_expect(q, "hint", 10000);
    e2e_note("the substitute's hint came %ld ms after the first was asked", e2e_now_ms() - asked);
    hint_ok(h, q, id, "away, the substitute's hint");
    CHECK(e2e_peek(q, "error") == NULL,
          "away: the substitute is not refused for the previous person's hint");
    json_decref(h);
    CHECK(e2e_server_stop(&srv) == 0, "away: the server exits 0 on SIGTERM");
}

/* Chinese Poker: the hint is a setting of the player's rows. */
static void scenario_hint_rows(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "hint-rows.db");
    e2e_client *p = e2e_client_new("rows-N", srv.port);
    e2e_hello(p, "rows-N");
    e2e_create(p, "chinese",
               json_pack("{s:s, s:b, s:[s,s,s], s:s, s:i, s:s}", "seed", "77", "hints", 1, "bots",
                         "E", "S", "W", "level", "easy", "delay", 0, "sit", "N"));
    /* The bidding first (the fixed rule), until the player sets rows. */
    const char *phase = NULL;
    for (long t0 = e2e_now_ms(); e2e_now_ms() - t0 < 20000;) {
        e2e_pump(20);
        if (!e2e_to_move(p) || p->acted_at == p->at)
            continue;
        phase = e2e_view_str(p->view, "phase");
        if (phase && strcmp(phase, "arrange") == 0)
            break;
        e2e_act(p);
    }
    REQUIRE(phase && strcmp(phase, "arrange") == 0, "rows: the player sets rows (%s)",
            phase ? phase : "?");
    e2e_clear(p);
    int id = ask_hint(p);
    json_t *h = e2e_expect(p, "hint", 10000);
    json_t *a = hint_ok(h, p, id, "rows");
    const char *type = a ? json_string_value(json_object_get(a, "type")) : NULL;
    CHECK(type && strcmp(type, "arrange") == 0, "rows: the hint sets the rows");
    /* The rows are legal: the server takes them as the player's act. */
    if (a) {
        json_t *act = json_pack("{s:s, s:O, s:i}", "type", "act", "action", a, "at", (int)p->at);
        e2e_send(p, act);
        long at = p->at;
        for (long t0 = e2e_now_ms(); p->at == at && e2e_now_ms() - t0 < 5000;)
            e2e_pump(20);
        CHECK(p->at > at, "rows: the hinted rows are accepted as an act");
        CHECK(e2e_peek(p, "error") == NULL, "rows: and nothing is refused");
    }
    json_decref(h);
    CHECK(e2e_server_stop(&srv) == 0, "rows: the server exits 0 on SIGTERM");
}

int main(int argc, char **argv)
{
    static const e2e_scenario SCENARIOS[] = {
        {"botseats", scenario_botseats},
        {"hint", scenario_hint},
        {"hint_rows", scenario_hint_rows},
        {"hint_away", scenario_hint_away},
        {NULL, NULL},
    };
    return e2e_main("hint", argc, argv, SCENARIOS);
}
