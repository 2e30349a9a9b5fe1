/*
 * moderation.c - administrators, bans, removals, reports and the moderation
 * log (docs/protocol.md, Moderation).
 *
 * An administrator is a registered player signed in whose account is
 * flagged, or whose handle was named with barbu serve --admin (kept in the
 * store's admins table at start, so that the flag applies once the handle
 * is registered and signed in).  A guest is never one, whatever its name.
 *
 * Every act (close, remove, ban, unban) is written to the store's
 * moderation table, with who and when, before anything changes; a report
 * is written to reports before any administrator hears of it.  Bans are by
 * handle key (srv_mod_key: the case and look-alike characters folded), so
 * that a banned handle comes back under no spelling of it, as a guest or
 * signed in.  The bans and the administrators are loaded at start and kept
 * in memory, and so are the removals (a handle may not sit again at the
 * table it was removed from) from the tables whose games are not over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define KEY_CAP SRV_KEY_CAP

typedef struct ban {
    char name[SRV_NAME_CAP];
    char by[SRV_NAME_CAP];
    int64_t at;
    char text[PROTO_MAX_REPORT * 4 + 1];
} ban;

struct srv_mod {
    srv_map admins;  /* handle key -> (void *)1 */
    srv_map bans;    /* handle key -> ban */
    srv_map removed; /* "TABLE:key" -> (void *)1 */
};

static char MARK; /* the value of a set's entries */

void srv_mod_key(const char *name, char *key, size_t cap)
{
    char buf[SRV_KEY_CAP];
    srv_handle_key(name, buf);
    snprintf(key, cap, "%s", buf);
}

static void on_admin(void *ctx, const char *key, const char *name)
{
    (void)name;
    srv_mod *m = ctx;
    srv_map_put(&m->admins, key, &MARK);
}

static void on_ban(void *ctx, const store_mod_row *row)
{
    srv_mod *m = ctx;
    ban *b = calloc(1, sizeof *b);
    if (b == NULL)
        return;
    snprintf(b->name, sizeof b->name, "%s", row->name);
    snprintf(b->by, sizeof b->by, "%s", row->by);
    snprintf(b->text, sizeof b->text, "%s", row->text);
    b->at = row->at;
    free(srv_map_get(&m->bans, row->key));
    srv_map_del(&m->bans, row->key);
    if (srv_map_put(&m->bans, row->key, b) != 0)
        free(b);
}

static void removed_key(int64_t table, const char *name, char *out, size_t cap);

static void on_removal(void *ctx, int64_t table, const char *name)
{
    srv_mod *m = ctx;
    char key[KEY_CAP + 24];
    removed_key(table, name, key, sizeof key);
    srv_map_put(&m->removed, key, &MARK);
}

int srv_mod_start(srv_server *srv)
{
    srv_mod *m = calloc(1, sizeof *m);
    if (m == NULL) {
        fprintf(stderr, "barbu serve: out of memory\n");
        return -1;
    }
    srv->mod = m;
    store *db = srv->store;
    const barbu_serve_options *opt = srv->opt;
    for (int i = 0; i < opt->n_admins; i++) {
        const char *name = opt->admins[i];
        char display[PROTO_NAME_BYTES + 1], key[KEY_CAP], why[400];
        if (!proto_name_ok(name) || srv_handle_check(name, display, key, why, sizeof why) != 0) {
            fprintf(stderr, "barbu serve: --admin '%s' is not a handle: %s\n", name,
                    proto_name_ok(name) ? why : "see docs/protocol.md, Handles");
            return -1;
        }
        if (db->ops->admin_put(db, key, display) != 0) {
            fprintf(stderr, "barbu serve: cannot keep %s as an administrator: %s\n", name,
                    store_error(db));
            return -1;
        }
        /* Until the handle is registered, whoever registers it first is the
         * administrator: the operator should know to do it at once. */
        store_account acct;
        if (db->ops->account_get(db, key, &acct) == 0)
            fprintf(stderr,
                    "barbu serve: warning: %s is not registered yet; whoever signs up first as "
                    "%s becomes an administrator, so sign up as %s now\n",
                    display, display, display);
    }
    if (db->ops->admins_load(db, on_admin, m) != 0 || db->ops->bans_load(db, on_ban, m) != 0 ||
        db->ops->removals_load(db, on_removal, m) != 0) {
        fprintf(stderr, "barbu serve: cannot read the administrators, bans and removals: %s\n",
                store_error(db));
        return -1;
    }
    return 0;
}

void srv_mod_free(srv_server *srv)
{
    srv_mod *m = srv->mod;
    if (m == NULL)
        return;
    for (size_t i = 0; i < m->bans.n_buckets; i++)
        for (srv_map_entry *e = m->bans.buckets[i]; e; e = e->next)
            free(e->value);
    srv_map_free(&m->bans);
    srv_map_free(&m->admins);
    srv_map_free(&m->removed);
    free(m);
    srv->mod = NULL;
}

static const ban *ban_of(const srv_server *srv, const char *name)
{
    char key[KEY_CAP];
    srv_mod_key(name, key, sizeof key);
    return srv->mod ? srv_map_get(&srv->mod->bans, key) : NULL;
}

bool srv_mod_banned(const srv_server *srv, const char *name)
{
    return ban_of(srv, name) != NULL;
}

bool srv_mod_banned_key(const srv_server *srv, const char *key)
{
    return srv->mod && srv_map_get(&srv->mod->bans, key) != NULL;
}

bool srv_mod_admin_key(const srv_server *srv, const char *key)
{
    return srv->mod && srv_map_get(&srv->mod->admins, key) != NULL;
}

void srv_mod_refuse_banned(srv_conn *c, const proto_msg *msg, const char *name)
{
    srv_log(c->srv, "connection %llu: the banned name %s is refused", (unsigned long long)c->id,
            name);
    srv_error(c, msg, "banned",
              "The name %s is banned from this server by its administrators: if you think it "
              "is a mistake, write to the server's keeper.",
              name);
}

static bool is_admin(const srv_session *s)
{
    return s->registered && s->admin;
}

static bool admin_check(srv_conn *c, const proto_msg *msg, const char *what)
{
    if (is_admin(c->session))
        return true;
    srv_error(c, msg, "forbidden",
              "Only an administrator may %s: if something is wrong, report it (the report "
              "message) and an administrator will look.",
              what);
    return false;
}

/* Writes an act to the store; false after answering an error. */
static bool record_act(srv_conn *c, const proto_msg *msg, const char *act, int64_t table,
                       const char *name)
{
    store *db = c->srv->store;
    store_mod_row row = {
        .at = srv_wall(),
        .by = c->session->name,
        .act = act,
        .table = table,
        .name = name,
        .text = msg->mod_text,
    };
    if (db->ops->mod_act_add(db, &row, NULL) == 0)
        return true;
    srv_log(c->srv, "store: %s", store_error(db));
    srv_error(c, msg, "server",
              "The act could not be saved (the server's disk may be full), so nothing was "
              "done: try again in a moment.");
    return false;
}

static void send_done(srv_conn *c, const proto_msg *msg)
{
    srv_send(c,
             srv_with_id(json_pack("{s:s, s:s}", "type", "done", "re", proto_type_name(msg->type)),
                         msg));
}

/* The end of a sentence: ' ("why").', or "." when the administrator gave
 * no reason. */
static void reason(const proto_msg *msg, char *buf, size_t cap)
{
    if (msg->mod_text[0] == '\0')
        snprintf(buf, cap, ".");
    else
        snprintf(buf, cap, " (\"%s\").", msg->mod_text);
}

/* ------------------------------------------------------------- mod_close */

void srv_cmd_mod_close(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    if (!admin_check(c, msg, "close another player's table"))
        return;
    srv_table *t = srv_table_of(c, msg);
    if (t == NULL || !record_act(c, msg, "close", t->id, NULL))
        return;
    srv_table_set_over(srv, t->id, t);
    char why[PROTO_MAX_REPORT * 4 + 16], text[PROTO_MAX_REPORT * 4 + 200];
    reason(msg, why, sizeof why);
    snprintf(text, sizeof text,
             "An administrator closed table %lld%s Choose another table in the lobby.",
             (long long)t->id, why);
    srv_broadcast_notice(t, "mod_closed", text);
    /* Those at it go back to the lobby, as after close. */
    srv_conn *at[4 + SRV_KIBITZERS_MAX];
    int n = 0;
    for (int k = 0; k < 4; k++) {
        srv_session *p = t->seats[k].person;
        if (p && p->table == t && p->seat == k && p->conn)
            at[n++] = p->conn;
    }
    for (int i = 0; i < t->n_kibitzers && n < (int)(sizeof at / sizeof at[0]); i++)
        if (t->kibitzers[i]->conn)
            at[n++] = t->kibitzers[i]->conn;
    srv_log(srv, "table %lld: closed by the administrator %s", (long long)t->id, c->session->name);
    srv_table_close(t);
    for (int i = 0; i < n; i++)
        srv_send_lobby(at[i], NULL);
    send_done(c, msg);
}

/* ------------------------------------------------------------ mod_remove */

static void removed_key(int64_t table, const char *name, char *out, size_t cap)
{
    char key[KEY_CAP];
    srv_mod_key(name, key, sizeof key);
    snprintf(out, cap, "%lld:%s", (long long)table, key);
}

bool srv_mod_sit_ok(srv_conn *c, const proto_msg *msg, const srv_table *t)
{
    char key[KEY_CAP + 24];
    removed_key(t->id, c->session->name, key, sizeof key);
    if (c->srv->mod == NULL || srv_map_get(&c->srv->mod->removed, key) == NULL)
        return true;
    srv_error(c, msg, "removed",
              "An administrator removed you from table %lld, so you may not sit there again: "
              "choose another table.",
              (long long)t->id);
    return false;
}

void srv_cmd_mod_remove(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    if (!admin_check(c, msg, "remove a player from a table"))
        return;
    srv_table *t = srv_table_of(c, msg);
    if (t == NULL)
        return;
    int seat = msg->seat;
    srv_seat *st = &t->seats[seat];
    srv_session *p = st->person;
    if (srv_table_over(t)) {
        srv_error(c, msg, "over",
                  "The game at table %lld is over, so nobody plays there any more: close the "
                  "table instead if it must go.",
                  (long long)t->id);
        return;
    }
    if (p == NULL) {
        srv_error(c, msg, "not_seated",
                  "No person holds seat %s at table %lld (it is empty or a computer player's): "
                  "name the seat of the player to remove.",
                  barbu_seat_name(seat), (long long)t->id);
        return;
    }
    if (!record_act(c, msg, "remove", t->id, p->name))
        return;
    char key[KEY_CAP + 24];
    removed_key(t->id, p->name, key, sizeof key);
    srv_map_put(&srv->mod->removed, key, &MARK);
    char name[SRV_NAME_CAP];
    snprintf(name, sizeof name, "%s", p->name);
    srv_log(srv, "table %lld: the administrator %s removes %s from seat %s", (long long)t->id,
            c->session->name, name, barbu_seat_name(seat));
    if (p->table == t && p->seat == seat) {
        /* As if it left: the seat is free, or its computer player keeps it
         * by the table's takeover rule. */
        srv_table_leave(p);
    } else {
        st->person = NULL;
        if (t->started && !st->bot)
            srv_seat_left(t, seat);
        else if (!t->started)
            st->name[0] = '\0';
        srv_seat_store(t, seat);
        srv_broadcast_table(t, NULL);
        srv_lobby_listed(t);
        srv_table_schedule(t);
    }
    char why[PROTO_MAX_REPORT * 4 + 16], text[PROTO_MAX_REPORT * 4 + 240];
    reason(msg, why, sizeof why);
    if (p->conn) {
        snprintf(text, sizeof text,
                 "An administrator removed you from seat %s of table %lld%s You may not sit "
                 "there again: choose another table in the lobby.",
                 barbu_seat_name(seat), (long long)t->id, why);
        json_t *m = json_pack("{s:s, s:I, s:s, s:s}", "type", "notice", "table", (json_int_t)t->id,
                              "code", "removed", "text", text);
        srv_send(p->conn, m);
        srv_send_lobby(p->conn, NULL);
    }
    snprintf(text, sizeof text, "An administrator removed %s from seat %s%s", name,
             barbu_seat_name(seat), why);
    srv_broadcast_notice(t, "mod_removed", text);
    send_done(c, msg);
}

/* ------------------------------------------------------------ ban, unban */

/* Ends a banned handle's session as logout would, its connection hearing
 * bye "banned". */
static void end_session(srv_server *srv, srv_session *s)
{
    if (srv->store->ops->session_forget(srv->store, s->token) != 0)
        srv_log(srv, "store: %s", store_error(srv->store));
    if (s->table)
        srv_table_leave(s);
    for (srv_table *t = srv->tables; t; t = t->next)
        for (int k = 0; k < 4; k++)
            if (t->seats[k].person == s) {
                t->seats[k].person = NULL;
                if (!srv_table_over(t))
                    srv_seat_store(t, k);
            }
    srv_conn *c = s->conn;
    if (c) {
        c->session = NULL;
        s->conn = NULL;
        srv_bye(c, "banned");
    }
    srv_session_free(srv, s);
}

void srv_cmd_ban(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    if (!admin_check(c, msg, "ban a handle"))
        return;
    char key[KEY_CAP], mine[KEY_CAP];
    srv_mod_key(msg->name, key, sizeof key);
    srv_mod_key(c->session->name, mine, sizeof mine);
    if (strcmp(key, mine) == 0) {
        srv_error(c, msg, "bad_name",
                  "You cannot ban your own handle: name the handle of the player to ban.");
        return;
    }
    ban *b = calloc(1, sizeof *b);
    if (b == NULL) {
        srv_error(c, msg, "server", "The server is out of memory: try again in a moment.");
        return;
    }
    snprintf(b->name, sizeof b->name, "%s", msg->name);
    snprintf(b->by, sizeof b->by, "%s", c->session->name);
    snprintf(b->text, sizeof b->text, "%s", msg->mod_text);
    b->at = srv_wall();
    store *db = srv->store;
    store_mod_row row = {.at = b->at, .by = b->by, .key = key, .name = b->name, .text = b->text};
    if (db->ops->ban_put(db, &row) != 0) {
        srv_log(srv, "store: %s", store_error(db));
        free(b);
        srv_error(c, msg, "server",
                  "The ban could not be saved (the server's disk may be full), so nothing was "
                  "done: try again in a moment.");
        return;
    }
    if (!record_act(c, msg, "ban", 0, msg->name)) {
        db->ops->ban_delete(db, key);
        free(b);
        return;
    }
    /* A registered handle's account is flagged too, and its tokens stop
     * working (nothing happens when there is no account). */
    if (db->ops->account_set_flags(db, key, -1, 1) != 0 ||
        db->ops->tokens_forget(db, key, NULL) != 0)
        srv_log(srv, "store: %s", store_error(db));
    free(srv_map_get(&srv->mod->bans, key));
    srv_map_del(&srv->mod->bans, key);
    if (srv_map_put(&srv->mod->bans, key, b) != 0)
        free(b); /* kept in the store: it holds again after a restart */
    srv_log(srv, "the administrator %s bans %s", c->session->name, msg->name);
    srv_session *next;
    for (srv_session *s = srv->sessions; s; s = next) {
        next = s->next;
        char k[KEY_CAP];
        srv_mod_key(s->name, k, sizeof k);
        if (strcmp(k, key) == 0)
            end_session(srv, s);
    }
    send_done(c, msg);
}

void srv_cmd_unban(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    if (!admin_check(c, msg, "lift a ban"))
        return;
    char key[KEY_CAP];
    srv_mod_key(msg->name, key, sizeof key);
    ban *b = srv_map_get(&srv->mod->bans, key);
    if (b == NULL) {
        srv_error(c, msg, "not_banned",
                  "The handle %s is not banned: there is nothing to lift (mod_log lists the "
                  "bans).",
                  msg->name);
        return;
    }
    store *db = srv->store;
    if (!record_act(c, msg, "unban", 0, b->name))
        return;
    if (db->ops->ban_delete(db, key) != 0 || db->ops->account_set_flags(db, key, -1, 0) != 0) {
        srv_log(srv, "store: %s", store_error(db));
        srv_error(c, msg, "server",
                  "The ban could not be lifted (the server's disk may be full): try again in a "
                  "moment.");
        return;
    }
    srv_log(srv, "the administrator %s lifts the ban on %s", c->session->name, b->name);
    srv_map_del(&srv->mod->bans, key);
    free(b);
    send_done(c, msg);
}

/* ---------------------------------------------------------------- report */

static json_t *row_json(const store_mod_row *row)
{
    json_t *o = json_pack("{s:I, s:I, s:s}", "id", (json_int_t)row->id, "at", (json_int_t)row->at,
                          "by", row->by);
    if (o == NULL)
        return NULL;
    if (row->act)
        json_object_set_new(o, "act", json_string(row->act));
    if (row->table)
        json_object_set_new(o, "table", json_integer(row->table));
    if (row->name)
        json_object_set_new(o, "name", json_string(row->name));
    json_object_set_new(o, "text", json_string(row->text ? row->text : ""));
    return o;
}

static void table_seen(void *ctx, const store_table *t, const store_seat seats[4])
{
    (void)ctx;
    (void)t;
    (void)seats;
}

void srv_cmd_report(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    srv_session *s = c->session;
    int64_t now = srv_now();
    /* The ring holds the times of the last SRV_REPORTS_MAX reports. */
    if (s->n_reports >= SRV_REPORTS_MAX) {
        int64_t oldest = s->reports_at[s->n_reports % SRV_REPORTS_MAX];
        if (now - oldest < SRV_REPORTS_WINDOW) {
            srv_error(c, msg, "limit",
                      "You have sent %d reports in the last %d minutes, the most: wait %lld "
                      "seconds before the next one.",
                      SRV_REPORTS_MAX, SRV_REPORTS_WINDOW / 60,
                      (long long)(SRV_REPORTS_WINDOW - (now - oldest)));
            return;
        }
    }
    store *db = srv->store;
    if (msg->table && srv_table_find(srv, msg->table) == NULL) {
        int found = db->ops->table_get(db, msg->table, table_seen, NULL);
        if (found <= 0) {
            if (found < 0)
                srv_log(srv, "store: %s", store_error(db));
            srv_error(c, msg, "no_table",
                      "There is no table %lld: name the table as the lobby shows it.",
                      (long long)msg->table);
            return;
        }
    }
    store_mod_row row = {
        .at = srv_wall(),
        .by = s->name,
        .table = msg->table,
        .name = msg->name[0] ? msg->name : NULL,
        .text = msg->mod_text,
    };
    if (db->ops->report_add(db, &row, &row.id) != 0) {
        srv_log(srv, "store: %s", store_error(db));
        srv_error(c, msg, "server",
                  "The report could not be saved (the server's disk may be full): try again in "
                  "a moment.");
        return;
    }
    s->reports_at[s->n_reports % SRV_REPORTS_MAX] = now;
    s->n_reports++;
    srv_log(srv, "report %lld by %s", (long long)row.id, s->name);
    json_t *m = row_json(&row);
    if (m) {
        json_object_set_new(m, "type", json_string("report"));
        size_t len = 0;
        char *text = proto_dump(m, &len);
        json_decref(m);
        for (srv_session *a = srv->sessions; a && text; a = a->next)
            if (is_admin(a) && a->conn)
                srv_send_text(a->conn, text, len);
        free(text);
    }
    srv_send(c,
             srv_with_id(json_pack("{s:s, s:I}", "type", "reported", "report", (json_int_t)row.id),
                         msg));
}

/* --------------------------------------------------------------- mod_log */

typedef struct log_ctx {
    json_t *acts, *reports;
} log_ctx;

static void on_log_row(void *ctx, const store_mod_row *row)
{
    log_ctx *l = ctx;
    json_array_append_new(row->act ? l->acts : l->reports, row_json(row));
}

void srv_cmd_mod_log(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    if (!admin_check(c, msg, "read the moderation log"))
        return;
    log_ctx l = {json_array(), json_array()};
    store *db = srv->store;
    if (db->ops->mod_log_load(db, SRV_MOD_LOG_MAX, on_log_row, &l) != 0) {
        srv_log(srv, "store: %s", store_error(db));
        json_decref(l.acts);
        json_decref(l.reports);
        srv_error(c, msg, "server",
                  "The moderation log could not be read from the server's store: try again in a "
                  "moment.");
        return;
    }
    json_t *bans = json_array();
    srv_mod *m = srv->mod;
    for (size_t i = 0; i < m->bans.n_buckets; i++)
        for (srv_map_entry *e = m->bans.buckets[i]; e; e = e->next) {
            const ban *b = e->value;
            json_array_append_new(bans, json_pack("{s:s, s:I, s:s, s:s}", "name", b->name, "at",
                                                  (json_int_t)b->at, "by", b->by, "text", b->text));
        }
    srv_send(c, srv_with_id(json_pack("{s:s, s:o, s:o, s:o}", "type", "mod_log", "reports",
                                      l.reports, "acts", l.acts, "banned", bans),
                            msg));
}
