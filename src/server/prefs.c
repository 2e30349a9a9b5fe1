/*
 * prefs.c - a registered player's preferences kept with the account
 * (docs/protocol.md, preferences): the table's colour, the card spacing
 * and size, the four-colour deck, the sound and the trick pause.
 *
 * They are kept in the store as one JSON object (prefs_put, at most
 * PROTO_PREFS_MAX bytes), written by proto_prefs_json and read back with
 * the decoder's own checks, so that what the server sends is always what
 * it would accept.  A save names some fields; those replace the kept ones
 * and the others stay.  A guest keeps its preferences in its browser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The kept preferences of an account: 1 with *out filled, 0 when none are
 * kept, -1 when the store failed (logged). */
static int prefs_load(srv_server *srv, const char *key, proto_prefs *out)
{
    char text[PROTO_PREFS_MAX + 1];
    memset(out, 0, sizeof *out);
    int got = srv->store->ops->prefs_get(srv->store, key, text, sizeof text);
    if (got < 0) {
        srv_log(srv, "store: %s", store_error(srv->store));
        return -1;
    }
    if (got == 0)
        return 0;
    json_error_t jerr;
    json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    proto_error err;
    int rc = o != NULL && proto_prefs_read(o, out, &err) == 0 ? 1 : -1;
    json_decref(o);
    if (rc < 0) {
        /* Only a hand-edited database could hold such a row: the player
         * starts again from the defaults rather than from half of it. */
        srv_log(srv, "store: the preferences of %s do not read back: ignored", key);
        memset(out, 0, sizeof *out);
        return 0;
    }
    return 1;
}

static json_t *prefs_message(const proto_prefs *p)
{
    json_t *prefs = proto_prefs_json(p);
    if (prefs == NULL)
        return NULL;
    return json_pack("{s:s, s:o}", "type", "preferences", "prefs", prefs);
}

void srv_prefs_welcome(srv_conn *c, const srv_session *s)
{
    if (!s->registered)
        return;
    char key[SRV_KEY_CAP];
    srv_handle_key(s->name, key);
    proto_prefs p;
    if (prefs_load(c->srv, key, &p) <= 0 || p.has == 0)
        return;
    srv_send(c, prefs_message(&p));
}

void srv_cmd_preferences(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    srv_session *s = c->session;
    if (!s->registered) {
        srv_error(c, msg, "not_registered",
                  "Preferences are kept for registered players: this browser keeps yours "
                  "meanwhile; register your name (or sign in) to keep them with an account.");
        return;
    }
    char key[SRV_KEY_CAP];
    srv_handle_key(s->name, key);
    proto_prefs kept;
    if (prefs_load(srv, key, &kept) < 0) {
        srv_error(c, msg, "server",
                  "The server could not read your preferences just now: try again in a "
                  "moment.");
        return;
    }
    proto_prefs_merge(&kept, &msg->prefs);
    json_t *obj = proto_prefs_json(&kept);
    char *text = obj ? json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(obj);
    if (text == NULL) {
        srv_error(c, msg, "server", "The server is out of memory: try again in a moment.");
        return;
    }
    /* The fields are few and bounded, so this cannot happen; the check
     * keeps the store's promise should a field be added. */
    if (strlen(text) > PROTO_PREFS_MAX) {
        free(text);
        srv_error(c, msg, "bad_value",
                  "Preferences are kept in at most %d bytes: send fewer of them.", PROTO_PREFS_MAX);
        return;
    }
    int rc = srv->store->ops->prefs_put(srv->store, key, text);
    free(text);
    if (rc != 0) {
        srv_log(srv, "store: %s", store_error(srv->store));
        srv_error(c, msg, "server",
                  "Your preferences could not be saved (the server's disk may be full): try "
                  "again in a moment.");
        return;
    }
    /* Every connection of the account hears them (today an account has one
     * at a time: a second sign-in replaces the first), the saver's copy with
     * the message's id as its answer. */
    for (srv_conn *o = srv->conns; o; o = o->next) {
        if (o->closing || o->session == NULL || !o->session->registered)
            continue;
        char other[SRV_KEY_CAP];
        srv_handle_key(o->session->name, other);
        if (strcmp(other, key) != 0)
            continue;
        json_t *m = prefs_message(&kept);
        if (m && o == c && msg->has_id)
            json_object_set_new(m, "id", json_integer(msg->id));
        srv_send(o, m);
    }
}
