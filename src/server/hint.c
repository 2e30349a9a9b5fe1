/*
 * hint.c - the hint command (issue 26): at a table created with "hints",
 * a seated person asks at their own turn what the medium computer player
 * would do in their place, and hears it in a hint message.  Nothing is
 * played.
 *
 * The hint is thought on the computer players' worker threads, on the queue
 * of the tables where people sit (bots.c), by a medium expert seeded from
 * getrandom: never from the table's seed, which deals every hand of a
 * seeded table.  It is shown the seat's own views of the deal under way, as
 * a computer player of the seat is, and sees only those (barbu_view_of), the
 * views the person had, so a hint can tell nothing of the hidden cards that the
 * person could not work out.  One hint is thought at a time for a seat; the
 * last one is kept, so that asking again at the same action costs nothing.
 * An answer that arrives after the table moved on is dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The level that gives the hints. */
#define HINT_LEVEL "medium"

bool srv_hint_create_ok(srv_conn *c, const proto_msg *msg)
{
    if (!msg->hints || (!msg->ladder && !msg->rated))
        return true;
    srv_error(c, msg, "bad_value",
              "A %s table takes no hints, since its games count for the players' standing and "
              "must be their own play: create it without \"hints\", or create a table with hints "
              "that is not %s.",
              msg->ladder ? "ladder" : "rated", msg->ladder ? "a ladder table" : "rated");
    return false;
}

/* The hint message for the session's seat. */
static void send_hint(srv_conn *c, const proto_msg *msg, const srv_table *t, const barbu_action *a)
{
    json_t *reply =
        json_pack("{s:s, s:I, s:i, s:o*, s:s}", "type", "hint", "table", (json_int_t)t->id, "at",
                  (int)t->n, "action", proto_action_json(&t->rules, a, true), "level", HINT_LEVEL);
    srv_send(c, srv_with_id(reply, msg));
}

void srv_cmd_hint(srv_conn *c, const proto_msg *msg)
{
    srv_session *s = c->session;
    /* Kibitzers have no seat: they never ask. */
    srv_table *t = srv_seated_table(c, msg,
                                    "Only a player seated at a table gets a hint, for their own "
                                    "decisions: sit at a table that gives hints first.");
    if (t == NULL)
        return;
    int seat = s->seat;
    /* A ladder or rated table never has hints (srv_hint_create_ok refuses
     * them at create); refused here too, should one ever carry both. */
    if (!t->hints || t->ladder || t->rated) {
        srv_error(c, msg, "hints_off",
                  "Table %lld gives no hints: its creator did not choose \"hints\". Play on by "
                  "yourself, or create a table with hints.",
                  (long long)t->id);
        return;
    }
    if (t->started && srv_table_over(t)) {
        srv_error(c, msg, "over", "The game is over, so there is no decision left to hint at.");
        return;
    }
    /* A broken table plays no more, nor does one whose lease another node
     * took: no decision of theirs is to be made here. */
    if (!t->started || t->broken || t->lost || barbu_to_move(&t->state) != seat) {
        srv_error(c, msg, "not_your_turn",
                  "It is not your turn: ask for a hint when you are to play, bid or declare.");
        return;
    }
    if ((t->hint_out & (1u << seat)) && strcmp(t->hint_asker[seat], s->token) == 0) {
        srv_error(c, msg, "busy",
                  "Your last hint is still being thought: wait for it before asking again.");
        return;
    }
    struct srv_hint_last *last = &t->hint_last[seat];
    if (last->have && last->at == t->n) {
        send_hint(c, msg, t, &last->action);
        return;
    }
    srv_server *srv = c->srv;
    /* The workers are gone only while the server shuts down: asking again
     * here is of no use, but the server it comes back as may answer. */
    if (srv->bots == NULL || srv->stopping) {
        srv_error(c, msg, "server",
                  "The server is shutting down, so no hint can be thought: ask again once it is "
                  "back and you are connected again.");
        return;
    }
    srv_job *job = calloc(1, sizeof *job);
    if (job == NULL) {
        srv_error(c, msg, "server",
                  "The server is short of memory, so no hint can be thought now: play on by "
                  "yourself.");
        return;
    }
    job->table = t->id;
    job->at = t->n;
    job->seat = seat;
    /* Never the table's seed: at a seeded table it deals every hand. */
    srv_random(&job->seed, sizeof job->seed);
    job->people = true;
    job->hint = true;
    snprintf(job->token, sizeof job->token, "%s", s->token);
    job->has_id = msg->has_id;
    job->id = msg->id;
    snprintf(job->kind, sizeof job->kind, "%s", HINT_LEVEL);
    job->rules = t->rules;
    barbu_view_of(&t->state, seat, &job->view);
    job->view.rules = &job->rules;
    /* The hint's bot is shown the views of this deal the seat had, as the
     * seat's computer player is (srv_seat_views_feed), so that it knows the
     * deal's tricks as a player there would: the hint is that player's
     * choice.  Without memory the worker makes a fresh one (think). */
    job->bot = barbu_bot_new(HINT_LEVEL, job->seed);
    if (job->bot != NULL)
        srv_seat_views_feed(t, job->bot, seat);
    t->hint_out |= 1u << seat;
    snprintf(t->hint_asker[seat], sizeof t->hint_asker[seat], "%s", s->token);
    srv_bots_submit(srv->bots, job);
}

void srv_hint_answer(srv_table *t, srv_job *job)
{
    /* Only the last asker's hint frees the seat's: an earlier person's,
     * asked before they gave up the seat, leaves the newer one in flight. */
    if (strcmp(t->hint_asker[job->seat], job->token) == 0)
        t->hint_out &= ~(1u << job->seat);
    srv_session *s = t->seats[job->seat].person;
    /* The table moved on, or the seat changed hands: nobody wants it. */
    bool fresh = job->at == t->n && s != NULL && !t->seats[job->seat].bot &&
                 strcmp(s->token, job->token) == 0 && !srv_table_over(t);
    barbu_action a = job->action;
    a.seat = (int8_t)job->seat;
    int err = job->err != 0 ? job->err : fresh ? barbu_check(&t->state, &a) : 0;
    proto_msg msg;
    memset(&msg, 0, sizeof msg);
    msg.type = PROTO_HINT;
    msg.has_id = job->has_id;
    msg.id = job->id;
    srv_job_free(job);
    if (!fresh)
        return;
    /* Kept even when its asker is away (the connection dropped while it was
     * thought): asking again after reconnecting, at the same action, is
     * answered at once instead of being lost. */
    if (err == 0)
        t->hint_last[a.seat] = (struct srv_hint_last){.have = true, .at = t->n, .action = a};
    if (s->conn == NULL)
        return;
    if (err != 0) {
        srv_log(t->srv, "table %lld: no hint for %s: %s", (long long)t->id, barbu_seat_name(a.seat),
                barbu_strerror(err));
        srv_error(s->conn, &msg, "server", "No hint could be thought (%s): play on by yourself.",
                  barbu_strerror(err));
        return;
    }
    send_hint(s->conn, &msg, t, &a);
}
