/*
 * lobby.c - the list of tables, its updates to the sessions in the lobby
 * (listed, closed) and chat, at a table or in the lobby.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

json_t *srv_summary_json(const srv_table *t)
{
    static const char *const KIBITZ[] = {"none", "seat", "all"};
    json_t *o = json_pack("{s:I, s:s, s:b, s:s, s:s}", "id", (json_int_t)t->id, "rules", t->preset,
                          "house", t->house[0] != '\0', "state", srv_table_state_name(t), "kibitz",
                          KIBITZ[t->kibitz]);
    if (o == NULL)
        return NULL;
    json_t *seats = json_array();
    for (int k = 0; k < 4; k++) {
        const srv_seat *st = &t->seats[k];
        bool over = srv_table_over(t);
        bool taken = st->bot || st->person || (over && st->name[0]);
        bool playing = t->started && !over;
        if (!taken && !(playing && st->player[0])) {
            json_array_append_new(seats, json_null());
            continue;
        }
        json_t *so;
        if (taken) {
            bool away = !st->bot && !over && !(st->person && st->person->conn);
            so = json_pack("{s:s, s:b, s:b}", "name", st->name, "bot", st->bot, "away", away);
            if (so && !st->bot && st->person && st->person->registered)
                json_object_set_new(so, "registered", json_true());
        } else {
            /* Empty during the game: its player may come back to it. */
            so = json_pack("{s:b, s:b}", "bot", false, "away", true);
        }
        /* The player of record, when someone else (or nobody) sits there. */
        if (so && st->player[0] && (!taken || strcmp(st->player, st->name) != 0))
            json_object_set_new(so, "player", json_string(st->player));
        /* Someone else may take the seat now (a person's, during the game). */
        if (so && playing && srv_seat_free(t, k))
            json_object_set_new(so, "free", json_true());
        json_array_append_new(seats, so);
    }
    json_object_set_new(o, "seats", seats);
    json_t *kept = srv_reserved_json(t);
    if (kept)
        json_object_set_new(o, "reserved", kept);
    /* Said before anyone sits: the creator of a chosen seed knows the deals. */
    if (t->seed_chosen)
        json_object_set_new(o, "seed_chosen_by", json_string(t->creator_name));
    if (t->clock > 0)
        json_object_set_new(o, "clock", json_integer(t->clock));
    if (t->ladder)
        json_object_set_new(o, "ladder", json_true());
    if (t->rated)
        json_object_set_new(o, "rated", json_true());
    if (t->hints)
        json_object_set_new(o, "hints", json_true());
    json_object_set_new(o, "credit",
                        json_string(t->credit == PROTO_CREDIT_DEALS ? "deals" : "record"));
    srv_table_key_json(t, o);
    /* Who made it (a name: who may close it or hand it over). */
    if (t->creator_name[0])
        json_object_set_new(o, "creator", json_string(t->creator_name));
    if (t->handed_over)
        json_object_set_new(o, "handed_over", json_true());
    json_object_set_new(o, "kibitzers", json_integer(t->n_kibitzers));
    if (t->broken)
        json_object_set_new(o, "broken", json_true());
    json_object_set_new(o, "deal", json_integer(t->started && !t->no_game ? t->state.t.deal : 0));
    json_object_set_new(o, "deals", json_integer(t->no_game ? 0 : barbu_rules_deals(&t->rules)));
    return o;
}

void srv_lobby_forget(srv_server *srv)
{
    free(srv->lobby_text);
    srv->lobby_text = NULL;
    srv->lobby_len = 0;
}

/* With thousands of tables the list is over a megabyte: it is made once
 * and kept until something changes (or the next tick), so that clients
 * asking for it again and again cannot stall the loop. */
static const char *lobby_text(srv_server *srv)
{
    if (srv->lobby_text)
        return srv->lobby_text;
    json_t *list = json_array();
    /* Oldest first: the list is kept newest first. */
    srv_table *last = srv->tables;
    while (last && last->next)
        last = last->next;
    for (srv_table *t = last; t; t = t->prev)
        json_array_append_new(list, srv_summary_json(t));
    /* A node: then the other nodes' tables, as the shared lobby has them. */
    srv_node_lobby(srv, list);
    json_t *m = json_pack("{s:s, s:o}", "type", "lobby", "tables", list);
    if (m == NULL)
        return NULL;
    srv->lobby_text = proto_dump(m, &srv->lobby_len);
    json_decref(m);
    return srv->lobby_text;
}

void srv_send_lobby(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    const char *text = lobby_text(srv);
    if (text == NULL)
        return;
    if (msg == NULL || !msg->has_id) {
        srv_send_text(c, text, srv->lobby_len);
        return;
    }
    /* The id goes in before the closing brace. */
    char id[32];
    int n = snprintf(id, sizeof id, ",\"id\":%ld}", (long)msg->id);
    size_t len = srv->lobby_len - 1 + (size_t)n;
    char *with_id = malloc(len + 1);
    if (with_id == NULL)
        return;
    memcpy(with_id, text, srv->lobby_len - 1);
    memcpy(with_id + srv->lobby_len - 1, id, (size_t)n + 1);
    srv_send_text(c, with_id, len);
    free(with_id);
}

/* The same text to every session in the lobby; chat only to those that
 * asked for it, and to its sender (chat_from), who hears its line back. */
static void to_lobby(srv_server *srv, json_t *m, bool chat, const srv_conn *chat_from)
{
    if (m == NULL)
        return;
    size_t len;
    char *text = proto_dump(m, &len);
    json_decref(m);
    if (text == NULL)
        return;
    for (srv_conn *c = srv->conns; c; c = c->next)
        if (c->session && c->session->table == NULL &&
            (!chat || c->session->lobby_chat || c == chat_from))
            srv_send_text(c, text, len);
    free(text);
}

void srv_lobby_listed(srv_table *t)
{
    if (t->started)
        t->listed_deal = t->state.t.deal;
    /* Once a second at most for a table: every listed goes to every
     * session in the lobby, and kibitzing and leaving again and again must
     * not multiply that.  A later change waits for the tick. */
    int64_t now = srv_now();
    if (t->listed_at == now) {
        t->listed_due = true;
        return;
    }
    t->listed_at = now;
    t->listed_due = false;
    srv_lobby_forget(t->srv);
    json_t *summary = srv_summary_json(t);
    /* A node writes it into the shared lobby for the others. */
    srv_node_listed(t, summary);
    to_lobby(t->srv, json_pack("{s:s, s:o}", "type", "listed", "table", summary), false, NULL);
}

void srv_lobby_flush(srv_server *srv)
{
    for (srv_table *t = srv->tables; t; t = t->next)
        if (t->listed_due)
            srv_lobby_listed(t);
}

void srv_lobby_closed(srv_server *srv, int64_t id)
{
    srv_lobby_forget(srv);
    /* A table that went to another node is still in the shared lobby. */
    json_t *remote = srv_node_remote(srv, id);
    if (remote) {
        to_lobby(srv, json_pack("{s:s, s:O}", "type", "listed", "table", remote), false, NULL);
        return;
    }
    to_lobby(srv, json_pack("{s:s, s:I}", "type", "closed", "table", (json_int_t)id), false, NULL);
}

void srv_lobby_chat_tick(srv_server *srv)
{
    srv->chat_tokens += SRV_CHAT_ALL_RATE;
    if (srv->chat_tokens > SRV_CHAT_ALL_BURST)
        srv->chat_tokens = SRV_CHAT_ALL_BURST;
}

/* Every lobby line goes to every session that asked for lobby chat: the
 * lines of one address, and of everybody, are limited so that many
 * connections each within its own flood limit cannot multiply the work
 * by the number of listeners.  Returns whether the line may go. */
static bool lobby_chat_allowed(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    srv_addr *a = srv_addr_get(srv, c->addr);
    if (a == NULL)
        return false;
    int64_t now = srv_now();
    if (a->chat_tokens < SRV_CHAT_ADDR_BURST) {
        if (a->chat_refill == 0)
            a->chat_refill = now + SRV_CHAT_ADDR_EVERY;
        while (a->chat_refill <= now && a->chat_tokens < SRV_CHAT_ADDR_BURST) {
            a->chat_tokens++;
            a->chat_refill += SRV_CHAT_ADDR_EVERY;
        }
        if (a->chat_tokens >= SRV_CHAT_ADDR_BURST)
            a->chat_refill = 0;
    }
    if (a->chat_tokens <= 0) {
        srv_error(c, msg, "limit",
                  "Your address has sent %d lobby chat lines in a short time, its most: wait %lld "
                  "seconds before the next one.",
                  SRV_CHAT_ADDR_BURST, (long long)(a->chat_refill - now));
        return false;
    }
    if (srv->chat_tokens <= 0) {
        srv_error(c, msg, "limit",
                  "The lobby chat is busy: wait a second or two and send your line again.");
        return false;
    }
    if (a->chat_tokens == SRV_CHAT_ADDR_BURST)
        a->chat_refill = now + SRV_CHAT_ADDR_EVERY;
    a->chat_tokens--;
    srv->chat_tokens--;
    return true;
}

void srv_cmd_chat(srv_conn *c, const proto_msg *msg)
{
    srv_session *s = c->session;
    srv_table *t = s->table;
    if (t == NULL && !lobby_chat_allowed(c, msg))
        return;
    /* While a game runs, a kibitzer who may see hands talks to the other
     * kibitzers only, unless the table allows more: a stranger watching
     * could otherwise tell a player the cards. */
    bool aside = t && s->kibitz >= 0 && !t->kibitz_chat && t->started && !srv_table_over(t);
    json_t *m = json_pack("{s:s, s:s, s:s, s:s}", "type", "chat", "from", s->name, "text",
                          msg->text, "scope", t ? (aside ? "kibitzers" : "table") : "lobby");
    if (m && s->registered)
        json_object_set_new(m, "registered", json_true());
    if (t == NULL) {
        to_lobby(c->srv, m, true, c);
        return;
    }
    size_t len;
    char *text = m ? proto_dump(m, &len) : NULL;
    json_decref(m);
    if (text == NULL)
        return;
    srv_table_send_text(t, text, len, !aside);
    free(text);
}
