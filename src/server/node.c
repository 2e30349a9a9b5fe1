/*
 * node.c - one node of several `barbu serve` on one PostgreSQL database
 * (--node; docs/internals.md, Nodes).
 *
 * Each table is played on one node at a time, the holder of its lease in
 * the database.  A node starts with no table; every second or so (with a
 * little jitter, so that nodes started together do not race for the same
 * tables) it adopts the tables whose lease ran out, its own from a previous
 * run among them, and rebuilds each from the store as a restart does.
 * Every third of a lease it renews all its leases in one statement; a
 * table whose lease another node took, or one of whose writes the store
 * fenced (STORE_FENCED), is dropped from memory without any write, and
 * each connection at it hears `moved`.  The lobby is shared by polling the
 * database every second: each owner writes its tables' summaries, and each
 * node reads what the others wrote since the last poll.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define NODE_LEASE_MS     5000 /* --lease's default */
#define NODE_ADOPT_MS     1000 /* between adoption rounds, give or take a fifth */
#define NODE_ADOPT_BATCH  64   /* tables adopted in one round at most */
#define NODE_ORIGINS_SECS 10   /* the nodes' URLs are read again this often */
#define NODE_URL_CAP      512

/* Another node's table as the shared lobby last showed it. */
typedef struct remote_table {
    int64_t id;
    char node[64]; /* its owner when its summary was written */
    json_t *summary;
} remote_table;

/* A node's name and public URL, as nodes_load read them. */
typedef struct node_url {
    char *name, *url;
} node_url;

struct srv_node {
    srv_server *srv;
    char name[64];
    char url[NODE_URL_CAP];
    int lease_ms;
    int64_t listed_version; /* the newest row of the shared lobby read */
    srv_map remote;         /* table key -> remote_table: other nodes' tables */
    char **origins;         /* every node's origin, normalized */
    int n_origins;
    node_url *urls; /* every node's URL, by name */
    int n_urls;
    int64_t origins_read;   /* srv_now() when they were last read */
    lws_usec_t renewed;     /* the last renewal that worked (lws_now_usecs) */
    lws_usec_t renew_tried; /* the last one tried */
    lws_sorted_usec_list_t adopt_sul, renew_sul, drop_sul;
    bool running, stopped;
};

/* ----------------------------------------------------------------- util */

void srv_registered_id(const char *key, char out[STORE_TOKEN_HASH_LEN + 1])
{
    char text[SRV_KEY_CAP + 32];
    snprintf(text, sizeof text, "barbu registered session\n%s", key);
    store_token_hash(text, out);
}

void srv_db_shown(const char *db, char *out, size_t cap)
{
    const char *scheme = db ? strstr(db, "://") : NULL;
    if (db == NULL) {
        snprintf(out, cap, "(none)");
        return;
    }
    if (!store_is_pg(db) || scheme == NULL) {
        snprintf(out, cap, "%s", db);
        return;
    }
    /* postgresql://user:secret@host/db: the secret is left out. */
    const char *user = scheme + 3;
    const char *at = strchr(user, '@');
    const char *colon = strchr(user, ':');
    if (at && colon && colon < at)
        snprintf(out, cap, "%.*s:***%s", (int)(colon - db), db, at);
    else
        snprintf(out, cap, "%s", db);
    /* ...?password=secret&...: the same. */
    char *pw = strstr(out, "password=");
    if (pw && (pw[-1] == '?' || pw[-1] == '&')) {
        char *end = pw + 9 + strcspn(pw + 9, "&");
        char rest[512];
        snprintf(rest, sizeof rest, "%s", end);
        snprintf(pw + 9, cap - (size_t)(pw + 9 - out), "***%s", rest);
    }
}

typedef struct id_list {
    int64_t *ids;
    int n, cap;
} id_list;

static void collect(void *ctx, int64_t id)
{
    id_list *l = ctx;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 16;
        int64_t *p = realloc(l->ids, (size_t)cap * sizeof *p);
        if (p == NULL)
            return;
        l->ids = p;
        l->cap = cap;
    }
    l->ids[l->n++] = id;
}

static json_t *moved_json(int64_t table, const char *url)
{
    json_t *m = json_pack("{s:s, s:I}", "type", "moved", "table", (json_int_t)table);
    if (m && url && url[0])
        json_object_set_new(m, "url", json_string(url));
    return m;
}

/* Who holds a table now: 1 another node (url filled, maybe ""), 0 nobody
 * (or this node), -1 the store failed. */
static int owner_elsewhere(srv_server *srv, int64_t table, char *url, size_t cap)
{
    store *db = srv->store;
    char node[128];
    url[0] = '\0';
    int got = db->ops->table_owner(db, table, node, sizeof node, url, cap);
    if (got < 0) {
        srv_log(srv, "store: %s", store_error(db));
        return -1;
    }
    if (got == 0 || strcmp(node, srv->node->name) == 0) {
        url[0] = '\0';
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ dropping */

static void drop_table(srv_table *t)
{
    srv_server *srv = t->srv;
    char url[NODE_URL_CAP];
    if (owner_elsewhere(srv, t->id, url, sizeof url) <= 0)
        url[0] = '\0';
    srv_log(srv, "table %lld: another node holds it now%s%s: it leaves memory", (long long)t->id,
            url[0] ? " at " : "", url);
    json_t *m = moved_json(t->id, url);
    size_t len = 0;
    char *text = m ? proto_dump(m, &len) : NULL;
    json_decref(m);
    if (text) {
        for (int k = 0; k < 4; k++) {
            srv_session *s = t->seats[k].person;
            if (s && s->table == t && s->conn)
                srv_send_text(s->conn, text, len);
        }
        for (int i = 0; i < t->n_kibitzers; i++)
            if (t->kibitzers[i]->conn)
                srv_send_text(t->kibitzers[i]->conn, text, len);
    }
    free(text);
    for (int k = 0; k < 4; k++)
        if (t->seats[k].person && t->seats[k].person->table == t)
            t->seats[k].person->moved_from = t->id;
    for (int i = 0; i < t->n_kibitzers; i++)
        t->kibitzers[i]->moved_from = t->id;
    srv_table_close(t);
}

static void drop_lost(srv_server *srv)
{
    srv_table *next;
    for (srv_table *t = srv->tables; t; t = next) {
        next = t->next;
        if (t->lost)
            drop_table(t);
    }
}

static void drop_tick(lws_sorted_usec_list_t *sul)
{
    srv_node *n = lws_container_of(sul, srv_node, drop_sul);
    drop_lost(n->srv);
}

int srv_node_check(srv_table *t, int rc)
{
    srv_server *srv = t->srv;
    if (rc != STORE_FENCED || srv->node == NULL || t->lost)
        return rc;
    srv_log(srv, "table %lld: the store refused a write: another node took the table",
            (long long)t->id);
    t->lost = true;
    srv_table_timer_cancel(t);
    srv_clock_cancel(t);
    /* The caller still holds t: it goes once the caller has returned. */
    if (srv->ctx && srv->node->running)
        lws_sul_schedule(srv->ctx, 0, &srv->node->drop_sul, drop_tick, 1);
    return rc;
}

/* ------------------------------------------------------------- adoption */

/* Takes a table's lease and rebuilds it; its people connected here take
 * their seats back, but `except` (NULL for none), which its caller
 * resumes. */
static void adopt_one(srv_server *srv, int64_t id, const srv_session *except)
{
    store *db = srv->store;
    int64_t epoch = 0;
    int got = db->ops->lease_take(db, id, &epoch);
    if (got < 0) {
        srv_log(srv, "store: table %lld: %s", (long long)id, store_error(db));
        return;
    }
    if (got == 0)
        return; /* another node was quicker */
    srv_table *t = srv_table_find(srv, id);
    if (t && t->lost) {
        /* Taken by another node meanwhile, and back: what is in memory is
         * behind the store, which is read again. */
        drop_table(t);
        t = NULL;
    }
    if (t) {
        /* Its lease ran out here (renewals failed) but nobody took it: what
         * is in memory is still all there is. */
        srv_log(srv, "table %lld: its lease is taken again (epoch %lld)", (long long)id,
                (long long)epoch);
        return;
    }
    char key[24];
    srv_table_key(id, key);
    remote_table *r = srv_map_get(&srv->node->remote, key);
    if (r) {
        json_decref(r->summary);
        free(r);
        srv_map_del(&srv->node->remote, key);
    }
    srv_log(srv, "table %lld adopted (epoch %lld)", (long long)id, (long long)epoch);
    if (srv_restore_table(srv, id) <= 0) {
        /* Somebody else may manage what this node could not. */
        db->ops->lease_release(db, id);
        return;
    }
    t = srv_table_find(srv, id);
    if (t == NULL)
        return; /* over long ago: kept by the club and gone again */
    /* Its people who are here already take their seats back. */
    for (int k = 0; k < 4; k++) {
        srv_session *s = t->seats[k].person;
        if (s && s != except && s->table == t && s->conn && s->seat == k)
            srv_session_resume(s);
    }
    srv_lobby_listed(t);
    srv_table_schedule(t);
}

static void adopt_tick(lws_sorted_usec_list_t *sul)
{
    srv_node *n = lws_container_of(sul, srv_node, adopt_sul);
    srv_server *srv = n->srv;
    if (srv->stopping || !n->running)
        return;
    int room = srv->max_tables - srv->n_tables;
    if (room > NODE_ADOPT_BATCH)
        room = NODE_ADOPT_BATCH;
    if (room > 0) {
        id_list l = {0};
        if (srv->store->ops->leases_orphaned(srv->store, room, collect, &l) != 0)
            srv_log(srv, "store: %s", store_error(srv->store));
        for (int i = 0; i < l.n && !srv->stopping; i++)
            adopt_one(srv, l.ids[i], NULL);
        free(l.ids);
    }
    uint32_t r = 0;
    srv_random(&r, sizeof r);
    int ms = NODE_ADOPT_MS * 4 / 5 + (int)(r % (NODE_ADOPT_MS * 2 / 5 + 1));
    lws_sul_schedule(srv->ctx, 0, &n->adopt_sul, adopt_tick, (lws_usec_t)ms * LWS_US_PER_MS);
}

/* -------------------------------------------------------------- renewal */

static void renew_tick(lws_sorted_usec_list_t *sul);

/* Renews every lease now; the tables lost are marked (drop_lost lets them
 * go) and the next renewal is a third of a lease from now. */
static void renew(srv_node *n)
{
    srv_server *srv = n->srv;
    id_list l = {0};
    lws_usec_t now = lws_now_usecs();
    n->renew_tried = now;
    if (srv->store->ops->leases_renew(srv->store, collect, &l) != 0)
        srv_log(srv, "store: the leases could not be renewed: %s", store_error(srv->store));
    else
        n->renewed = now;
    for (int i = 0; i < l.n; i++) {
        srv_table *t = srv_table_find(srv, l.ids[i]);
        if (t) {
            srv_log(srv, "table %lld: its lease was lost", (long long)t->id);
            t->lost = true;
        }
    }
    free(l.ids);
    lws_sul_schedule(srv->ctx, 0, &n->renew_sul, renew_tick,
                     (lws_usec_t)(n->lease_ms / 3) * LWS_US_PER_MS);
}

static void renew_tick(lws_sorted_usec_list_t *sul)
{
    srv_node *n = lws_container_of(sul, srv_node, renew_sul);
    if (n->srv->stopping || !n->running)
        return;
    renew(n);
    drop_lost(n->srv);
}

bool srv_node_stale(srv_conn *c)
{
    srv_server *srv = c->srv;
    srv_node *n = srv->node;
    if (n == NULL || !n->running || srv->stopping)
        return false;
    /* A renewal is due every third of a lease: two thirds without one
     * means the loop did not run (SIGSTOP) or the database did not
     * answer.  Tried again a sixth of a lease later at the soonest, so
     * that a database away does not cost every message a try. */
    lws_usec_t now = lws_now_usecs(), lease = (lws_usec_t)n->lease_ms * LWS_US_PER_MS;
    if (now - n->renewed < lease * 2 / 3 || now - n->renew_tried < lease / 6)
        return false;
    int64_t at = c->session && c->session->table ? c->session->table->id : 0;
    renew(n);
    drop_lost(srv);
    /* The sender's table went: it heard moved, and its message would only
     * be refused for not being at a table. */
    return at != 0 && c->session && c->session->table == NULL && !srv_table_find(srv, at);
}

static bool n_running(const srv_server *srv)
{
    return srv->node && srv->node->running && !srv->stopping;
}

/* ---------------------------------------------------------------- lobby */

void srv_node_listed(srv_table *t, json_t *summary)
{
    srv_server *srv = t->srv;
    if (srv->node == NULL || t->lost)
        return;
    char *text = summary ? json_dumps(summary, JSON_COMPACT) : NULL;
    if (summary && text == NULL)
        return;
    int rc = srv->store->ops->listed_put(srv->store, t->id, text ? text : "");
    free(text);
    if (rc != 0 && srv_node_check(t, rc) != STORE_FENCED)
        srv_log(srv, "store: table %lld: the shared lobby: %s", (long long)t->id,
                store_error(srv->store));
}

void srv_node_left(srv_server *srv, int64_t id, bool lost)
{
    if (srv->node == NULL || lost)
        return;
    store *db = srv->store;
    int rc = db->ops->listed_put(db, id, "");
    if (rc != 0 && rc != STORE_FENCED)
        srv_log(srv, "store: table %lld: the shared lobby: %s", (long long)id, store_error(db));
    if (rc != STORE_FENCED && db->ops->lease_release(db, id) != 0)
        srv_log(srv, "store: table %lld: its lease: %s", (long long)id, store_error(db));
}

json_t *srv_node_remote(srv_server *srv, int64_t id)
{
    if (srv->node == NULL)
        return NULL;
    char key[24];
    srv_table_key(id, key);
    remote_table *r = srv_map_get(&srv->node->remote, key);
    return r ? r->summary : NULL;
}

static int by_id(const void *a, const void *b)
{
    int64_t x = (*(remote_table *const *)a)->id, y = (*(remote_table *const *)b)->id;
    return (x > y) - (x < y);
}

void srv_node_lobby(srv_server *srv, json_t *list)
{
    if (srv->node == NULL)
        return;
    srv_map *m = &srv->node->remote;
    /* In table order, as the own tables are (oldest first). */
    remote_table **all = malloc((m->count ? m->count : 1) * sizeof *all);
    if (all == NULL)
        return;
    size_t n = 0;
    for (size_t i = 0; i < m->n_buckets; i++)
        for (srv_map_entry *e = m->buckets[i]; e; e = e->next) {
            remote_table *r = e->value;
            if (srv_table_find(srv, r->id) == NULL)
                all[n++] = r;
        }
    qsort(all, n, sizeof *all, by_id);
    for (size_t i = 0; i < n; i++)
        json_array_append(list, all[i]->summary);
    free(all);
}

/* To every session in the lobby (not at a table). */
static void to_lobby(srv_server *srv, json_t *m)
{
    size_t len = 0;
    char *text = m ? proto_dump(m, &len) : NULL;
    json_decref(m);
    if (text == NULL)
        return;
    for (srv_conn *c = srv->conns; c; c = c->next)
        if (c->session && c->session->table == NULL)
            srv_send_text(c, text, len);
    free(text);
}

static void on_listed(void *ctx, const store_listed *l)
{
    srv_server *srv = ctx;
    srv_node *n = srv->node;
    if (l->version > n->listed_version)
        n->listed_version = l->version;
    char key[24];
    srv_table_key(l->table, key);
    remote_table *r = srv_map_get(&n->remote, key);
    bool mine = l->node && strcmp(l->node, n->name) == 0;
    json_t *summary = NULL;
    if (!mine && l->summary && l->summary[0]) {
        summary = json_loads(l->summary, JSON_REJECT_DUPLICATES, NULL);
        if (!json_is_object(summary)) {
            json_decref(summary);
            summary = NULL;
        }
    }
    if (summary == NULL) {
        /* Closed, or this node's own row: nothing of another node's. */
        if (r) {
            json_decref(r->summary);
            free(r);
            srv_map_del(&n->remote, key);
        }
    } else if (r) {
        json_decref(r->summary);
        r->summary = summary;
        snprintf(r->node, sizeof r->node, "%s", l->node);
    } else if ((r = calloc(1, sizeof *r)) == NULL || srv_map_put(&n->remote, key, r) != 0) {
        free(r);
        json_decref(summary);
        return;
    } else {
        r->id = l->table;
        r->summary = summary;
        snprintf(r->node, sizeof r->node, "%s", l->node);
    }
    /* A table in memory here is this node's to announce. */
    if (mine || srv_table_find(srv, l->table))
        return;
    srv_lobby_forget(srv);
    if (summary)
        to_lobby(srv, json_pack("{s:s, s:O}", "type", "listed", "table", summary));
    else
        to_lobby(srv, json_pack("{s:s, s:I}", "type", "closed", "table", (json_int_t)l->table));
}

static void lobby_poll(srv_server *srv)
{
    store *db = srv->store;
    if (db->ops->listed_load(db, srv->node->listed_version, on_listed, srv) != 0)
        srv_log(srv, "store: the shared lobby: %s", store_error(db));
}

bool srv_node_elsewhere(srv_conn *c, const proto_msg *msg, int64_t table)
{
    srv_server *srv = c->srv;
    if (srv->node == NULL)
        return false;
    char url[NODE_URL_CAP];
    if (owner_elsewhere(srv, table, url, sizeof url) <= 0)
        return false;
    srv_send(c, srv_with_id(moved_json(table, url), msg));
    return true;
}

bool srv_node_moved_again(srv_conn *c, const proto_msg *msg)
{
    srv_session *s = c->session;
    if (c->srv->node == NULL || s == NULL || s->table || s->moved_from == 0)
        return false;
    char url[NODE_URL_CAP];
    if (owner_elsewhere(c->srv, s->moved_from, url, sizeof url) < 0)
        url[0] = '\0';
    srv_send(c, srv_with_id(moved_json(s->moved_from, url), msg));
    return true;
}

void srv_node_welcomed(srv_conn *c, srv_session *s)
{
    srv_server *srv = c->srv;
    if (srv->node == NULL || s->table)
        return;
    store *db = srv->store;
    int64_t table = 0;
    int got = db->ops->seat_of(db, s->token, &table);
    if (got < 0)
        srv_log(srv, "store: %s", store_error(db));
    if (got <= 0 || srv_table_find(srv, table))
        return;
    /* Seated at a table another node holds: the client goes there. */
    char url[NODE_URL_CAP];
    int elsewhere = owner_elsewhere(srv, table, url, sizeof url);
    if (elsewhere < 0)
        return;
    if (elsewhere == 0 && n_running(srv)) {
        /* Nobody holds it this moment (its node stopped or died): this
         * node takes it now rather than at its next round, and the caller
         * seats the session (srv_session_resume) as after a restart. */
        adopt_one(srv, table, s);
        if (s->table)
            return;
    }
    /* Else the client tries again in a second, at a node it knows. */
    srv_send(c, moved_json(table, url));
}

/* -------------------------------------------------------------- origins */

/* ws://host:port/path -> http://host:port, normalized; -1 when it is not
 * a WebSocket URL. */
static int url_origin(const char *url, char *out, size_t cap)
{
    const char *rest;
    const char *scheme;
    if (strncmp(url, "ws://", 5) == 0)
        scheme = "http://", rest = url + 5;
    else if (strncmp(url, "wss://", 6) == 0)
        scheme = "https://", rest = url + 6;
    else
        return -1;
    size_t host = strcspn(rest, "/?#");
    char text[NODE_URL_CAP];
    if ((size_t)snprintf(text, sizeof text, "%s%.*s", scheme, (int)host, rest) >= sizeof text)
        return -1;
    return srv_origin_normalize(text, out, cap);
}

static void urls_free(node_url *urls, int n);

static void origins_free(srv_node *n)
{
    for (int i = 0; i < n->n_origins; i++)
        free(n->origins[i]);
    free(n->origins);
    n->origins = NULL;
    n->n_origins = 0;
    urls_free(n->urls, n->n_urls);
    n->urls = NULL;
    n->n_urls = 0;
}

typedef struct origins_ctx {
    char **list;
    int n;
    node_url *urls;
    int n_urls;
    bool failed;
} origins_ctx;

static void urls_free(node_url *urls, int n)
{
    for (int i = 0; i < n; i++) {
        free(urls[i].name);
        free(urls[i].url);
    }
    free(urls);
}

static void on_node(void *ctx, const char *name, const char *url)
{
    origins_ctx *o = ctx;
    if (name && url && url[0]) {
        node_url *u = realloc(o->urls, (size_t)(o->n_urls + 1) * sizeof *u);
        if (u == NULL) {
            o->failed = true;
            return;
        }
        o->urls = u;
        u[o->n_urls].name = strdup(name);
        u[o->n_urls].url = strdup(url);
        if (u[o->n_urls].name == NULL || u[o->n_urls].url == NULL) {
            free(u[o->n_urls].name);
            free(u[o->n_urls].url);
            o->failed = true;
            return;
        }
        o->n_urls++;
    }
    char origin[300];
    if (url == NULL || url_origin(url, origin, sizeof origin) != 0)
        return;
    char **p = realloc(o->list, (size_t)(o->n + 1) * sizeof *p);
    if (p == NULL || (p[o->n] = strdup(origin)) == NULL) {
        if (p)
            o->list = p;
        o->failed = true;
        return;
    }
    o->list = p;
    o->n++;
}

static void origins_load(srv_server *srv)
{
    store *db = srv->store;
    srv_node *n = srv->node;
    origins_ctx o = {0};
    /* Its own first: known without the database. */
    on_node(&o, n->name, n->url);
    if (db->ops->nodes_load && db->ops->nodes_load(db, on_node, &o) != 0) {
        srv_log(srv, "store: the nodes: %s", store_error(db));
        o.failed = true;
    }
    if (o.failed && n->origins) {
        for (int i = 0; i < o.n; i++)
            free(o.list[i]);
        free(o.list);
        urls_free(o.urls, o.n_urls);
        return; /* the list known keeps */
    }
    origins_free(n);
    n->origins = o.list;
    n->n_origins = o.n;
    n->urls = o.urls;
    n->n_urls = o.n_urls;
    n->origins_read = srv_now();
}

static bool origin_known(const srv_node *n, const char *origin)
{
    for (int i = 0; i < n->n_origins; i++)
        if (strcmp(n->origins[i], origin) == 0)
            return true;
    return false;
}

bool srv_node_origin_ok(srv_server *srv, const char *origin)
{
    srv_node *n = srv->node;
    if (n == NULL)
        return false;
    if (origin_known(n, origin))
        return true;
    /* A node that joined since the last reading: read again, at most once
     * a second (a page of another site must not make every handshake a
     * query). */
    int64_t now = srv_now();
    if (n->origins_read == now)
        return false;
    origins_load(srv);
    return origin_known(n, origin);
}

bool srv_node_page_url(srv_server *srv, int64_t table, const char *path, char *out, size_t cap)
{
    srv_node *n = srv->node;
    if (n == NULL || srv_table_find(srv, table))
        return false;
    char key[24];
    srv_table_key(table, key);
    remote_table *r = srv_map_get(&n->remote, key);
    const char *url = NULL;
    for (int i = 0; r && i < n->n_urls && !url; i++)
        if (strcmp(n->urls[i].name, r->node) == 0)
            url = n->urls[i].url;
    if (url == NULL)
        return false;
    /* ws://host:port/PREFIX/ws -> http://host:port/PREFIX + path: a node
     * behind a proxy at /n/NAME/ws has its pages at /n/NAME/. */
    bool tls = strncmp(url, "wss://", 6) == 0;
    const char *rest = url + (tls ? 6 : 5);
    size_t len = strcspn(rest, "?#");
    if (len >= 3 && strncmp(rest + len - 3, "/ws", 3) == 0)
        len -= 3;
    return (size_t)snprintf(out, cap, "%s://%.*s%s", tls ? "https" : "http", (int)len, rest, path) <
           cap;
}

/* ------------------------------------------------- a server alone on it */

typedef struct alone_ctx {
    srv_server *srv;
    int nodes;
    int64_t held;     /* a table a node holds, 0 for none */
    char holder[128]; /* its node */
    bool failed;
} alone_ctx;

static void count_node(void *ctx, const char *name, const char *url)
{
    (void)name, (void)url;
    ((alone_ctx *)ctx)->nodes++;
}

static void check_table(void *ctx, const store_table *t, const store_seat seats[4])
{
    (void)seats;
    alone_ctx *a = ctx;
    store *db = a->srv->store;
    char url[NODE_URL_CAP];
    if (a->held || a->failed || t->state == STORE_OVER)
        return;
    int got = db->ops->table_owner(db, t->id, a->holder, sizeof a->holder, url, sizeof url);
    if (got < 0)
        a->failed = true;
    else if (got > 0)
        a->held = t->id;
}

int srv_node_alone_ok(srv_server *srv)
{
    store *db = srv->store;
    if (srv->opt->node || db->ops->nodes_load == NULL || db->ops->table_owner == NULL)
        return 0;
    alone_ctx a = {.srv = srv};
    if (db->ops->nodes_load(db, count_node, &a) != 0)
        a.failed = true;
    if (!a.failed && a.nodes > 0 && db->ops->tables_load(db, check_table, &a) != 0)
        a.failed = true;
    if (a.failed) {
        fprintf(stderr, "barbu serve: cannot read the database's nodes: %s\n", store_error(db));
        return -1;
    }
    if (a.held) {
        fprintf(stderr,
                "barbu serve: node %s holds table %lld of this database: a server alone would "
                "play its games beside the nodes; start it with --node NAME as one of them, or "
                "stop the nodes first (their leases run out)\n",
                a.holder, (long long)a.held);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------- start, stop */

int srv_node_start(srv_server *srv, const char *host, int real_port, bool tls)
{
    const barbu_serve_options *o = srv->opt;
    if (o->node == NULL)
        return 0;
    store *db = srv->store;
    if (db->ops->node_join == NULL) {
        fprintf(stderr,
                "barbu serve: --node needs a PostgreSQL database (--db postgresql://...)\n");
        return -1;
    }
    srv_node *n = calloc(1, sizeof *n);
    if (n == NULL)
        return -1;
    n->srv = srv;
    srv->node = n;
    snprintf(n->name, sizeof n->name, "%s", o->node);
    n->lease_ms = o->lease_ms > 0 ? o->lease_ms : NODE_LEASE_MS;
    if (o->public_url)
        snprintf(n->url, sizeof n->url, "%s", o->public_url);
    else {
        bool v6 = strchr(host, ':') != NULL;
        const char *shown = strcmp(host, "0.0.0.0") == 0 ? "127.0.0.1"
                            : strcmp(host, "::") == 0    ? "::1"
                                                         : host;
        snprintf(n->url, sizeof n->url, "%s://%s%s%s:%d/ws", tls ? "wss" : "ws", v6 ? "[" : "",
                 shown, v6 ? "]" : "", real_port);
    }
    if (db->ops->node_join(db, n->name, n->url, n->lease_ms) != 0) {
        fprintf(stderr, "barbu serve: cannot join the database as node %s: %s\n", n->name,
                store_error(db));
        return -1;
    }
    origins_load(srv);
    lobby_poll(srv);
    n->running = true;
    n->renewed = n->renew_tried = lws_now_usecs();
    /* The first adoption at once: the node's own tables of a previous run
     * come back first of all. */
    lws_sul_schedule(srv->ctx, 0, &n->adopt_sul, adopt_tick, 1);
    lws_sul_schedule(srv->ctx, 0, &n->renew_sul, renew_tick,
                     (lws_usec_t)(n->lease_ms / 3) * LWS_US_PER_MS);
    srv_log(srv, "node %s at %s, leases of %d ms", n->name, n->url, n->lease_ms);
    return 0;
}

void srv_node_tick(srv_server *srv)
{
    srv_node *n = srv->node;
    if (n == NULL || !n->running)
        return;
    lobby_poll(srv);
    if (srv->ticks % NODE_ORIGINS_SECS == 0)
        origins_load(srv);
}

void srv_node_stop(srv_server *srv)
{
    srv_node *n = srv->node;
    if (n == NULL || n->stopped)
        return;
    n->stopped = true;
    n->running = false;
    lws_sul_cancel(&n->adopt_sul);
    lws_sul_cancel(&n->renew_sul);
    lws_sul_cancel(&n->drop_sul);
    int released = 0;
    for (srv_table *t = srv->tables; t; t = t->next) {
        if (t->lost)
            continue;
        if (srv->store->ops->lease_release(srv->store, t->id) != 0)
            srv_log(srv, "store: table %lld: its lease: %s", (long long)t->id,
                    store_error(srv->store));
        else
            released++;
        /* Nothing more is written for it from here on. */
        t->lost = true;
    }
    srv_log(srv, "node %s gave up the leases of %d tables", n->name, released);
}

void srv_node_free(srv_server *srv)
{
    srv_node *n = srv->node;
    if (n == NULL)
        return;
    srv_map *m = &n->remote;
    for (size_t i = 0; i < m->n_buckets; i++)
        for (srv_map_entry *e = m->buckets[i]; e; e = e->next) {
            remote_table *r = e->value;
            json_decref(r->summary);
            free(r);
        }
    srv_map_free(m);
    origins_free(n);
    free(n);
    srv->node = NULL;
}
