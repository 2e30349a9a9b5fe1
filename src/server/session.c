/*
 * session.c - sessions: a handle and a token that outlive connections.
 * hello starts or resumes one; a lost connection leaves it (and its seat)
 * in place; a session with no seat and no connection is forgotten after an
 * hour.
 *
 * A session's token field is its id: a guest's is the hash of the token its
 * client holds (the server never keeps the token itself); a registered
 * player's is the hash of a token given to nobody, and the client holds
 * its account's tokens instead (auth.c), whose hashes the store keeps.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

srv_session *srv_session_by_token(srv_server *srv, const char *token)
{
    return srv_map_get(&srv->by_token, token);
}

srv_session *srv_session_add(srv_server *srv, const char *token, const char *name)
{
    char key[SRV_KEY_CAP];
    srv_handle_key(name, key);
    if (srv_map_get(&srv->by_name, key) || srv_map_get(&srv->by_token, token))
        return NULL;
    srv_session *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    snprintf(s->token, sizeof s->token, "%s", token);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->seat = s->kibitz = s->kibitz_next = -1;
    s->idle_since = srv_now();
    if (srv_map_put(&srv->by_token, s->token, s) != 0) {
        free(s);
        return NULL;
    }
    if (srv_map_put(&srv->by_name, key, s) != 0) {
        srv_map_del(&srv->by_token, s->token);
        free(s);
        return NULL;
    }
    s->next = srv->sessions;
    if (srv->sessions)
        srv->sessions->prev = s;
    srv->sessions = s;
    return s;
}

void srv_session_free(srv_server *srv, srv_session *s)
{
    if (s->addr[0]) {
        srv_addr *a = srv_map_get(&srv->addrs, s->addr);
        if (a) {
            a->sessions--;
            srv_addr_release(srv, s->addr);
        }
    }
    char key[SRV_KEY_CAP];
    srv_handle_key(s->name, key);
    srv_map_del(&srv->by_name, key);
    srv_map_del(&srv->by_token, s->token);
    if (s->prev)
        s->prev->next = s->next;
    else
        srv->sessions = s->next;
    if (s->next)
        s->next->prev = s->prev;
    free(s);
}

void srv_sessions_free(srv_server *srv)
{
    while (srv->sessions)
        srv_session_free(srv, srv->sessions);
    srv_map_free(&srv->by_token);
    srv_map_free(&srv->by_name);
}

void srv_new_token(char out[PROTO_TOKEN_LEN + 1])
{
    unsigned char raw[PROTO_TOKEN_LEN / 2];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(out, PROTO_TOKEN_LEN + 1, raw, sizeof raw);
    sodium_memzero(raw, sizeof raw);
}

void srv_welcome(srv_conn *c, srv_session *s, const char *token, int64_t expires, bool has_id,
                 int32_t id)
{
    json_t *w =
        json_pack("{s:s, s:i, s:s, s:s, s:s, s:b, s:b}", "type", "welcome", "version",
                  PROTO_VERSION, "name", s->name, "token", token, "server", "barbu " BARBU_VERSION,
                  "registered", s->registered ? 1 : 0, "admin", s->admin ? 1 : 0);
    if (w && s->registered)
        json_object_set_new(w, "expires", json_integer(expires));
    if (w && has_id)
        json_object_set_new(w, "id", json_integer(id));
    if (w && c->srv->node)
        json_object_set_new(w, "node", json_string(c->srv->opt->node));
    srv_send(c, w);
    srv_prefs_welcome(c, s);
    srv_send_lobby(c, NULL);
    /* A node: the session's seat may be at another node's table. */
    srv_node_welcomed(c, s);
}

/* Where the session speaks from now, for the kibitzing checks. */
static void note_place(srv_session *s, const srv_conn *c, const char *device)
{
    snprintf(s->place_addr, sizeof s->place_addr, "%s", c->addr);
    snprintf(s->device, sizeof s->device, "%s", device);
}

void srv_session_attach(srv_conn *c, srv_session *s, bool lobby_chat, const char *device,
                        const char *token_hash)
{
    srv_conn *old = s->conn;
    if (old && old != c) {
        /* The old connection hears bye but the session stays present. */
        old->session = NULL;
        s->conn = NULL;
        srv_bye(old, "replaced");
    }
    /* Other nodes keep the session's row while this one uses it. */
    store *db = c->srv->store;
    if (c->srv->node && db->ops->session_touch && db->ops->session_touch(db, s->token) != 0)
        srv_log(c->srv, "store: %s", store_error(db));
    s->conn = c;
    s->lobby_chat = lobby_chat;
    s->moved_from = 0; /* a new connection: it heard where its table went */
    c->session = s;
    c->said_hello = true;
    snprintf(c->token_hash, sizeof c->token_hash, "%s", token_hash ? token_hash : "");
    note_place(s, c, device);
}

void srv_session_registered(srv_session *s)
{
    srv_table *t = s->table;
    if (t == NULL)
        return;
    srv_broadcast_table(t, NULL);
    srv_lobby_listed(t);
}

/* A session's connection came back (or was replaced): its seat is present
 * again, and a computer player that took it stands. */
void srv_session_resume(srv_session *s)
{
    srv_table *t = s->table;
    if (t == NULL)
        return;
    if (s->seat >= 0 && t->seats[s->seat].person == s) {
        srv_seat *st = &t->seats[s->seat];
        bool changed = st->away_since != 0 || st->bot;
        if (st->bot) {
            st->bot = false;
            st->took_over = false;
            srv_seat_ai_drop(t, s->seat);
            snprintf(st->name, sizeof st->name, "%s", s->name);
            srv_log(t->srv, "table %lld: %s takes seat %s back from the computer player",
                    (long long)t->id, s->name, barbu_seat_name(s->seat));
        }
        st->away_since = 0;
        st->grace_over = false;
        /* It may come back from the place of somebody who watches. */
        srv_kibitzers_send_away(t, s);
        if (changed) {
            srv_seat_store(t, s->seat);
            srv_broadcast_table(t, s);
            srv_lobby_listed(t);
        }
    }
    srv_send_table(t, s);
    srv_send_view(t, s);
    t->empty_since = 0;
    srv_table_schedule(t);
}

void srv_hello(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    if (c->session) {
        srv_error(c, msg, "hello_twice",
                  "This connection has said hello already: go on with other messages, or open a "
                  "new connection to be someone else.");
        return;
    }
    if (msg->version != PROTO_VERSION) {
        srv_error(c, msg, "version",
                  "This server speaks version %d of the protocol: say hello with that version "
                  "(reload the page for the current client).",
                  PROTO_VERSION);
        return;
    }
    if (msg->token[0]) {
        char hash[STORE_TOKEN_HASH_LEN + 1];
        store_token_hash(msg->token, hash);
        srv_session *s = srv_session_by_token(srv, hash);
        /* A node: the session may have started on another node. */
        if (s == NULL && srv->node)
            s = srv_session_fetch(srv, hash);
        if (s == NULL || s->registered) {
            /* A registered player's token, or none: a registered session is
             * reached by its account's tokens only. */
            if (srv_auth_token_hello(c, msg, hash) == 0)
                srv_error(c, msg, "bad_token",
                          "No session has that token (it was forgotten after an hour away, or "
                          "signed out): say hello with a name instead.");
            return;
        }
        if (srv_mod_banned(srv, s->name)) {
            srv_mod_refuse_banned(c, msg, s->name);
            return;
        }
        if (msg->name[0] && !srv_handle_equal(msg->name, s->name)) {
            srv_error(c, msg, "bad_name",
                      "This session's name is %s: say hello with its token alone, or with that "
                      "name.",
                      s->name);
            return;
        }
        bool replaced = s->conn != NULL;
        srv_session_attach(c, s, msg->lobby_chat, msg->device, hash);
        srv_log(srv, "connection %llu resumes %s%s", (unsigned long long)c->id, s->name,
                replaced ? " (the old connection is replaced)" : "");
        srv_welcome(c, s, msg->token, 0, msg->has_id, msg->id);
        srv_session_resume(s);
        return;
    }
    if (msg->name[0] == '\0') {
        srv_error(c, msg, "bad_field",
                  "Hello needs a name or a token: give the name you want to play under.");
        return;
    }
    if (!proto_name_ok(msg->name)) {
        srv_error(c, msg, "bad_name",
                  "A name is 1 to 20 letters, digits, '_', '-', '.' and single inner spaces: "
                  "choose one like that.");
        return;
    }
    char display[PROTO_NAME_BYTES + 1], key[SRV_KEY_CAP], why[400];
    if (srv_handle_check(msg->name, display, key, why, sizeof why) != 0) {
        /* A look-alike of a registered handle is named as such. */
        if (key[0] && !srv_auth_guest_allowed(c, msg, msg->name, key))
            return;
        srv_error(c, msg, "bad_name", "%s", why);
        return;
    }
    /* A banned handle: not as a guest, not signing in, not registering. */
    if (srv_mod_banned_key(srv, key)) {
        srv_mod_refuse_banned(c, msg, display);
        return;
    }
    if (msg->password[0]) {
        srv_auth_hello(c, msg, display, key);
        return;
    }
    if (!srv_auth_guest_allowed(c, msg, display, key))
        return;
    if (srv_map_get(&srv->by_name, key)) {
        srv_error(c, msg, "name_taken",
                  "The name %s is in use by somebody else: choose another name.", display);
        return;
    }
    /* One machine may not hold the server's memory with sessions (each
     * lives an hour after its connection goes). */
    srv_addr *a = srv_addr_get(srv, c->addr);
    if (a == NULL) {
        srv_error(c, msg, "server", "The server is out of memory: try again in a moment.");
        return;
    }
    if (a->sessions >= srv->sessions_per_addr) {
        srv_error(c, msg, "limit",
                  "Your address has started %d sessions, the most it may hold. Say hello with "
                  "the token of one of them instead (an unused session is forgotten an hour "
                  "after its connection closes).",
                  a->sessions);
        return;
    }
    char token[PROTO_TOKEN_LEN + 1], hash[STORE_TOKEN_HASH_LEN + 1];
    srv_new_token(token);
    store_token_hash(token, hash);
    if (srv->store->ops->session_put(srv->store, hash, display) != 0) {
        srv_log(srv, "store: %s", store_error(srv->store));
        /* The name's row is another session's: one of another node, or one
         * this node forgot from memory but keeps while it sits. */
        char held[STORE_TOKEN_HASH_LEN + 1];
        if (srv->store->ops->session_by_name(srv->store, display, held, sizeof held) > 0) {
            srv_error(c, msg, "name_taken",
                      "The name %s is in use just now: choose another name, or say hello "
                      "with the token you had.",
                      display);
            return;
        }
        srv_error(c, msg, "server",
                  "Your session could not be saved (the server's disk may be full): try again "
                  "in a moment.");
        return;
    }
    srv_session *s = srv_session_add(srv, hash, display);
    if (s == NULL) {
        srv->store->ops->session_forget(srv->store, hash);
        srv_error(c, msg, "server", "The server is out of memory: try again in a moment.");
        return;
    }
    memcpy(s->addr, c->addr, sizeof s->addr);
    a->sessions++;
    srv_session_attach(c, s, msg->lobby_chat, msg->device, hash);
    srv_log(srv, "connection %llu is %s (new session)", (unsigned long long)c->id, s->name);
    srv_welcome(c, s, token, 0, msg->has_id, msg->id);
    sodium_memzero(token, sizeof token);
}

void srv_session_lost(srv_session *s)
{
    srv_table *t = s->table;
    s->idle_since = srv_now();
    if (t == NULL || t->srv->stopping)
        return;
    srv_log(t->srv, "%s lost the connection at table %lld", s->name, (long long)t->id);
    if (s->kibitz >= 0) {
        /* A kibitzer who is not there watches nothing. */
        srv_kibitz_remove(t, s);
        srv_broadcast_table(t, NULL);
        srv_lobby_listed(t);
        return;
    }
    if (s->seat < 0)
        return;
    int seat = s->seat;
    srv_seat *st = &t->seats[seat];
    if (!t->started) {
        /* Before the game a dropped player's seat is free at once. */
        srv_table_detach(s);
        srv_seat_store(t, seat);
        srv_broadcast_table(t, NULL);
        srv_lobby_listed(t);
        return;
    }
    if (srv_table_over(t) || st->person != s || st->bot)
        return;
    st->away_since = srv_now();
    st->grace_over = false;
    srv_broadcast_table(t, NULL);
    srv_lobby_listed(t);
}

void srv_sessions_tick(srv_server *srv)
{
    int64_t now = srv_now();
    srv_session *next;
    for (srv_session *s = srv->sessions; s; s = next) {
        next = s->next;
        if (s->conn || s->table || now - s->idle_since < SRV_SESSION_IDLE)
            continue;
        /* A node forgets from memory only a session that another node may
         * be using: one seated at a game there keeps its row. */
        int64_t elsewhere = 0;
        bool keep_row =
            srv->node && srv->store->ops->seat_of(srv->store, s->token, &elsewhere) != 0;
        /* ... and only a row that no node has used for as long. */
        int (*forget_idle)(store *, const char *, int) = srv->store->ops->session_forget_idle;
        int rc = keep_row                   ? 0
                 : srv->node && forget_idle ? forget_idle(srv->store, s->token, SRV_SESSION_IDLE)
                                            : srv->store->ops->session_forget(srv->store, s->token);
        if (rc != 0) {
            srv_log(srv, "store: %s", store_error(srv->store));
            continue;
        }
        srv_log(srv, "session %s forgotten", s->name);
        srv_session_free(srv, s);
    }
}
