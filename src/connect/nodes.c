/*
 * nodes.c - barbu connect and several `barbu serve` nodes on one database
 * (docs/protocol.md, Nodes; docs/deploy.md).
 *
 * The client keeps every node address it has heard of: the one it was
 * given first, then each url a `moved` message named.  On `moved` it goes
 * to that node with the same token (the session is the database's, so
 * every node knows it) and asks again for what it was asking at that table;
 * a seated player asks for nothing, since the node sends the seat's table
 * after the welcome.  A `moved` without url means that no node holds the
 * table this moment (its owner died and nobody has adopted it yet): the
 * same node is asked again in a second.  When a connection fails or drops,
 * the next attempt goes to the next address known, with the backoff
 * net.c already has, so that a dead node's players find a live one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connect.h"

_Static_assert(sizeof(((cn *)0)->url) == sizeof(((cn_addr *)0)->url), "url sizes");
_Static_assert(sizeof(((cn *)0)->host) == sizeof(((cn_addr *)0)->host), "host sizes");
_Static_assert(sizeof(((cn *)0)->path) == sizeof(((cn_addr *)0)->path), "path sizes");

/* `moved` followed at once this many times in a row (no table message
 * between), then after the backoff: two nodes that disagree for a moment
 * about who holds a table must not make the client spin between them. */
#define HOPS_AT_ONCE   3
/* A moved without url: the same node again after this. */
#define MOVED_RETRY_MS 1000

int cn_addr_parse(const char *url, cn_addr *a)
{
    const char *p = url;
    memset(a, 0, sizeof *a);
    if (strncmp(p, "ws://", 5) == 0) {
        p += 5;
    } else if (strncmp(p, "wss://", 6) == 0) {
        p += 6;
        a->tls = true;
    } else if (strstr(p, "://") != NULL) {
        return -1;
    }
    const char *host_end;
    const char *host = p;
    if (*p == '[') {
        host = p + 1;
        host_end = strchr(p, ']');
        if (host_end == NULL)
            return -1;
        p = host_end + 1;
    } else {
        host_end = p + strcspn(p, ":/");
        p = host_end;
    }
    if (host_end == host || (size_t)(host_end - host) >= sizeof a->host)
        return -1;
    memcpy(a->host, host, (size_t)(host_end - host));
    a->host[host_end - host] = '\0';
    /* Nothing that could smuggle a second header line into the handshake. */
    for (const char *h = a->host; *h; h++)
        if ((unsigned char)*h <= ' ' || *h == 127)
            return -1;
    a->port = 2118;
    if (*p == ':') {
        char *end;
        long port = strtol(p + 1, &end, 10);
        if (end == p + 1 || port < 1 || port > 65535)
            return -1;
        a->port = (int)port;
        p = end;
    }
    if (*p == '\0')
        snprintf(a->path, sizeof a->path, "/ws");
    else if (*p == '/' && strlen(p) < sizeof a->path && strcspn(p, " \t\r\n") == strlen(p))
        snprintf(a->path, sizeof a->path, "%s", p);
    else
        return -1;
    bool v6 = strchr(a->host, ':') != NULL;
    snprintf(a->url, sizeof a->url, "%s://%s%s%s:%d%s", a->tls ? "wss" : "ws", v6 ? "[" : "",
             a->host, v6 ? "]" : "", a->port, a->path);
    return 0;
}

int cn_known_add(cn *c, const cn_addr *a)
{
    for (int i = 0; i < c->n_known; i++)
        if (strcmp(c->known[i].url, a->url) == 0)
            return i;
    if (c->n_known == CN_KNOWN_MAX) {
        /* Full: the oldest that was learnt goes (never the first given). */
        memmove(&c->known[1], &c->known[2], sizeof c->known[0] * (CN_KNOWN_MAX - 2));
        c->n_known--;
        if (c->known_at > 1)
            c->known_at--;
    }
    c->known[c->n_known] = *a;
    return c->n_known++;
}

void cn_known_use(cn *c, int i)
{
    if (i < 0 || i >= c->n_known)
        return;
    const cn_addr *a = &c->known[i];
    c->known_at = i;
    /* Every field of both has the same size (connect.h). */
    memcpy(c->url, a->url, sizeof c->url);
    memcpy(c->host, a->host, sizeof c->host);
    c->port = a->port;
    memcpy(c->path, a->path, sizeof c->path);
    c->tls = a->tls;
}

void cn_known_next(cn *c)
{
    if (c->n_known > 1)
        cn_known_use(c, (c->known_at + 1) % c->n_known);
}

void cn_follow(cn *c, int64_t table, const char *url)
{
    /* What to ask for again at the node that holds the table. */
    if (c->screen == CN_TABLE && c->table.id == table) {
        c->redo_table = c->table.you_seat < 0 ? table : 0;
        c->redo_seat = c->table.kibitz_seat;
        c->redo_sit = false;
    } else if (c->asked_table == table) {
        c->redo_table = table;
        c->redo_seat = c->asked_seat;
        c->redo_sit = c->asked_sit;
    }
    /* The table screen waits for the next welcome, not this one. */
    c->rejoin_id = 0;
    cn_addr a;
    if (url != NULL && cn_addr_parse(url, &a) == 0) {
        cn_known_use(c, cn_known_add(c, &a));
        c->hops++;
        c->move_wait_ms = c->hops <= HOPS_AT_ONCE ? 0 : -1;
    } else {
        c->move_wait_ms = MOVED_RETRY_MS;
    }
    c->moving = true;
    cn_net_drop(c, false);
}

void cn_redo(cn *c)
{
    int64_t table = c->redo_table;
    c->redo_table = 0;
    if (table <= 0)
        return;
    if (c->redo_sit)
        cn_send_sit(c, table, c->redo_seat);
    else
        cn_send_kibitz(c, table, c->redo_seat);
}
