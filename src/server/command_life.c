/*
 * command_life.c - leaving safely and playing again (issue 22): logout,
 * close, hand_over, again, and the seats a new game keeps for the players
 * of the last one.  Like command.c, each command checks everything first
 * and answers an error that changes nothing.
 *
 * None of this state is stored: after a restart a table is no longer
 * handed over (it does not count for its creator anyway, as a restored
 * table has no creating session), an old table forgets its next game, and
 * a new table's seats are no longer kept for anybody.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

const char *srv_seat_reserved(const srv_table *t, int seat)
{
    const srv_seat *st = &t->seats[seat];
    if (t->started || t->reserved_until == 0 || srv_now() >= t->reserved_until)
        return NULL;
    if (st->person || st->bot || t->reserved[seat][0] == '\0')
        return NULL;
    return t->reserved[seat];
}

json_t *srv_reserved_json(const srv_table *t)
{
    const char *kept[4];
    bool any = false;
    for (int k = 0; k < 4; k++)
        any |= (kept[k] = srv_seat_reserved(t, k)) != NULL;
    if (!any)
        return NULL;
    json_t *a = json_array();
    for (int k = 0; k < 4; k++)
        json_array_append_new(a, kept[k] ? json_string(kept[k]) : json_null());
    return a;
}

bool srv_player_of_record(const srv_table *t, int seat, const srv_session *s)
{
    const srv_seat *st = &t->seats[seat];
    /* A computer player of record is nobody's: a person could take its
     * name ("medium bot N" is a valid handle). */
    if (st->player[0] == '\0' || (st->bot && !st->took_over))
        return false;
    return srv_handle_equal(st->player, s->name);
}

/* The creator: the creating session, or after a restart (when the table
 * no longer knows it) the session of the creator's name. */
static bool is_creator(const srv_table *t, const srv_session *s)
{
    if (t->creator[0])
        return strcmp(t->creator, s->token) == 0;
    return t->creator_name[0] && srv_handle_equal(t->creator_name, s->name);
}

static bool creator_check(srv_conn *c, const proto_msg *msg, const srv_table *t, const char *what)
{
    if (is_creator(t, c->session))
        return true;
    srv_error(c, msg, "not_creator",
              "Only %s, who created table %lld, may %s it: leave the table if you do not want "
              "to play there.",
              t->creator_name[0] ? t->creator_name : "its creator", (long long)t->id, what);
    return false;
}

/* ------------------------------------------------------------------ logout */

void srv_cmd_logout(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    srv_session *s = c->session;
    /* A registered player's token (or every one of its tokens) stops
     * working first: a logout that failed to revoke must say so. */
    if (srv_auth_revoke(c, msg->everywhere) != 0) {
        srv_error(c, msg, "server",
                  "You could not be signed out (the server's disk may be full): try again in a "
                  "moment.");
        return;
    }
    if (srv->store->ops->session_forget(srv->store, s->token) != 0) {
        srv_log(srv, "store: %s", store_error(srv->store));
        srv_error(c, msg, "server",
                  "The session could not be ended (the server's disk may be full): try again in a "
                  "moment.");
        return;
    }
    if (s->table)
        srv_table_leave(s);
    /* No seat may keep pointing at it (a seat held for it elsewhere). */
    for (srv_table *t = srv->tables; t; t = t->next)
        for (int k = 0; k < 4; k++)
            if (t->seats[k].person == s) {
                t->seats[k].person = NULL;
                if (!srv_table_over(t))
                    srv_seat_store(t, k);
            }
    srv_log(srv, "connection %llu: %s logs out", (unsigned long long)c->id, s->name);
    c->session = NULL;
    s->conn = NULL;
    srv_session_free(srv, s);
    srv_bye(c, "logout");
}

/* ------------------------------------------------------------------- close */

void srv_cmd_close(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    srv_table *t = srv_table_of(c, msg);
    if (t == NULL || !creator_check(c, msg, t, "close"))
        return;
    if (t->started) {
        srv_error(c, msg, "started",
                  "The game has started, so the table cannot be closed: hand it to the computer "
                  "players instead.");
        return;
    }
    if (srv_table_set_over(srv, t->id, t) != 0) {
        srv_error(c, msg, "server",
                  "The table could not be closed (the server's disk may be full): try again in a "
                  "moment.");
        return;
    }
    /* Those at it go back to the lobby, as after leave. */
    srv_conn *at[4 + SRV_KIBITZERS_MAX];
    int n = 0;
    for (int k = 0; k < 4; k++) {
        srv_session *p = t->seats[k].person;
        if (p && p->table == t && p->conn && p->conn != c)
            at[n++] = p->conn;
    }
    for (int i = 0; i < t->n_kibitzers && n < (int)(sizeof at / sizeof at[0]); i++)
        if (t->kibitzers[i]->conn && t->kibitzers[i]->conn != c)
            at[n++] = t->kibitzers[i]->conn;
    srv_log(srv, "table %lld: closed by %s", (long long)t->id, c->session->name);
    srv_table_close(t);
    srv_send_lobby(c, msg);
    for (int i = 0; i < n; i++)
        srv_send_lobby(at[i], NULL);
}

/* --------------------------------------------------------------- hand_over */

void srv_cmd_hand_over(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    srv_session *s = c->session;
    srv_table *t = srv_table_of(c, msg);
    if (t == NULL || !creator_check(c, msg, t, "hand over") || !srv_ladder_bot_ok(c, msg, t))
        return;
    if (srv_table_over(t)) {
        srv_error(c, msg, "over",
                  "The game at table %lld is over already: there is nothing left to hand over.",
                  (long long)t->id);
        return;
    }
    if (s->table == t && s->seat >= 0) {
        srv_error(c, msg, "busy",
                  "You sit %s at table %lld: leave the table first, then hand it over.",
                  barbu_seat_name(s->seat), (long long)t->id);
        return;
    }
    int people = 0;
    for (int k = 0; k < 4; k++)
        people += !t->seats[k].bot && !srv_seat_free(t, k);
    /*
     * A table left to computer players only is one as create's four bots
     * makes: it counts among its creator's (handing over does not take it
     * out of that count) and the server's, so that creating, leaving and
     * handing over cannot start more of them than create allows.
     */
    if (people == 0) {
        int alone = 0, mine_alone = 0;
        for (srv_table *o = srv->tables; o; o = o->next) {
            if (o == t || srv_table_over(o) || !srv_table_bots_only(o))
                continue;
            alone++;
            mine_alone += is_creator(o, s);
        }
        const char *instead =
            t->started ? "wait for a player to come back" : "close the table instead";
        if (srv->max_bot_tables == 0 || alone >= srv->max_bot_tables) {
            srv_error(c, msg, "limit",
                      "Nobody sits at table %lld and the server holds %d tables of computer "
                      "players only, its most: %s.",
                      (long long)t->id, alone, instead);
            return;
        }
        if (mine_alone >= SRV_BOT_TABLES_SESSION) {
            srv_error(c, msg, "limit",
                      "Nobody sits at table %lld and you already have a table of computer players "
                      "only whose game is not over: %s, or let that game end first.",
                      (long long)t->id, instead);
            return;
        }
    }
    for (int k = 0; k < 4; k++) {
        if (t->seats[k].bot || !srv_seat_free(t, k))
            continue;
        if (srv_seat_bot(t, k, t->level, t->started) != 0) {
            srv_error(c, msg, "server",
                      "A seat could not be saved (the server's disk may be full): try again in a "
                      "moment.");
            srv_seats_changed(t, NULL);
            return;
        }
    }
    t->handed_over = true;
    srv_log(srv, "table %lld: handed over to the computer players by %s", (long long)t->id,
            s->name);
    srv_seats_changed(t, NULL);
    if (s->table == NULL) {
        /* The answer shows the table as it is now. */
        srv_lobby_forget(srv);
        srv_send_lobby(c, msg);
    }
}

/* ------------------------------------------------------------------- again */

void srv_reservations_tick(srv_table *t, int64_t now)
{
    if (t->reserved_until == 0 || now < t->reserved_until)
        return;
    t->reserved_until = 0;
    memset(t->reserved, 0, sizeof t->reserved);
    srv_broadcast_table(t, NULL);
    srv_lobby_listed(t);
}

static void send_created(srv_conn *c, const proto_msg *msg, int64_t id)
{
    srv_send(c,
             srv_with_id(json_pack("{s:s, s:I}", "type", "created", "table", (json_int_t)id), msg));
}

/* A player of the old game joins the new one at its old seat. */
static void join_again(srv_conn *c, const proto_msg *msg, srv_table *old, srv_table *t, int seat)
{
    srv_session *s = c->session;
    if (s->table == t) {
        send_created(c, msg, t->id);
        srv_send_table(t, s);
        srv_send_view(t, s);
        return;
    }
    srv_seat *st = &t->seats[seat];
    if (t->started || st->person || st->bot) {
        srv_error(c, msg, "seat_taken",
                  "The player %s sits %s at table %lld, the next game of table %lld: watch it, or "
                  "create a "
                  "table.",
                  st->name[0] ? st->name : "somebody", barbu_seat_name(seat), (long long)t->id,
                  (long long)old->id);
        return;
    }
    if (s->table)
        srv_table_leave(s);
    if (srv_seat_person(t, seat, s) != 0) {
        srv_error(
            c, msg, "server",
            "The seat could not be saved (the server's disk may be full): try again in a moment.");
        srv_send_lobby(c, NULL);
        return;
    }
    send_created(c, msg, t->id);
    srv_seats_changed(t, s);
}

void srv_cmd_again(srv_conn *c, const proto_msg *msg)
{
    srv_session *s = c->session;
    srv_table *t = srv_table_of(c, msg);
    if (t == NULL)
        return;
    if (!srv_table_over(t)) {
        srv_error(c, msg, "not_over",
                  "The game is not over yet: finish it first, or leave the table and create a "
                  "new one.");
        return;
    }
    int seat = -1;
    for (int k = 0; k < 4 && seat < 0; k++)
        if (srv_player_of_record(t, k, s))
            seat = k;
    if (seat < 0) {
        srv_error(c, msg, "not_seated",
                  "Only the players of the game at table %lld may start it again: create a "
                  "table for a new game instead.",
                  (long long)t->id);
        return;
    }
    if (s->table && s->table != t) {
        srv_table *next = t->again_id ? srv_table_find(c->srv, t->again_id) : NULL;
        if (next == NULL || s->table != next) {
            srv_error(c, msg, "busy", "You are at table %lld: leave it first, then try again.",
                      (long long)s->table->id);
            return;
        }
    }
    srv_table *next = t->again_id ? srv_table_find(c->srv, t->again_id) : NULL;
    if (next && !srv_table_over(next)) {
        join_again(c, msg, t, next, seat);
        return;
    }

    /* A new table: the same rules and options, a seed of the server's,
     * the computer players in their seats and the sender in its own. */
    proto_msg m;
    memset(&m, 0, sizeof m);
    m.type = PROTO_CREATE;
    m.has_id = msg->has_id;
    m.id = msg->id;
    if (strlen(t->house) > PROTO_MAX_HOUSE) {
        srv_error(
            c, msg, "bad_rules",
            "This table's house rules are too long to play again: create a new table with them.");
        return;
    }
    snprintf(m.rules, sizeof m.rules, "%s", t->preset);
    snprintf(m.house, sizeof m.house, "%s", t->house);
    m.kibitz = (uint8_t)t->kibitz;
    m.grace = t->grace;
    m.takeover = (uint8_t)t->takeover;
    m.delay = t->delay;
    m.household = t->household;
    m.kibitz_chat = t->kibitz_chat;
    m.clock = t->clock;
    m.ladder = t->ladder;
    m.hints = t->hints;
    m.rated = t->rated;
    m.credit = (uint8_t)t->credit;
    snprintf(m.level, sizeof m.level, "%s", t->level);
    m.sit = (int8_t)seat;
    m.seat = -1;
    for (int k = 0; k < 4; k++)
        if (t->seats[k].bot && !t->seats[k].took_over)
            m.bots |= (uint8_t)(1u << k);
    if (!srv_create_allowed(c, &m, false))
        return;
    if (s->table)
        srv_table_leave(s);
    bool sat = false;
    srv_table *n = srv_table_make(c, &m, &sat);
    if (n == NULL || !sat) {
        if (n && !sat)
            srv_error(c, msg, "server",
                      "The table is made but your seat could not be saved: sit at it again.");
        srv_send_lobby(c, NULL);
        return;
    }
    int64_t now = srv_now();
    for (int k = 0; k < 4; k++)
        if (k != seat && !(m.bots >> k & 1))
            snprintf(n->reserved[k], sizeof n->reserved[k], "%s", t->seats[k].player);
    n->reserved_until = now + c->srv->seat_keep;
    n->reserved_wall = srv_wall() + c->srv->seat_keep;
    t->again_id = n->id;
    snprintf(t->again_by, sizeof t->again_by, "%s", s->name);
    srv_log(c->srv, "table %lld: %s starts the next game at table %lld", (long long)t->id, s->name,
            (long long)n->id);
    send_created(c, msg, n->id);
    srv_seats_changed(n, s);
    srv_broadcast_table(t, NULL);
    srv_lobby_listed(t);
}
