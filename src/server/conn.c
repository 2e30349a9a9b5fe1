/*
 * conn.c - connections: the WebSocket callback, each connection's outbound
 * queue (written one message per writable callback, with LWS_PRE headroom),
 * the reassembly of fragmented messages, flood control and the dispatch of
 * decoded messages to their handlers.
 */
#include <arpa/inet.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <sodium.h>

#include "internal.h"

/* What lws keeps for each WebSocket: a pointer to our own struct, whose
 * lifetime we control. */
typedef struct ws_pss {
    srv_conn *conn;
} ws_pss;

/* ----------------------------------------------------------- addresses */

void srv_addr_key(int fd, char out[SRV_ADDR_CAP])
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    out[0] = '\0';
    if (fd < 0 || getpeername(fd, (struct sockaddr *)&ss, &len) != 0)
        return;
    if (ss.ss_family == AF_INET) {
        inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, out, SRV_ADDR_CAP);
    } else if (ss.ss_family == AF_INET6) {
        struct in6_addr a = ((struct sockaddr_in6 *)&ss)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(&a)) {
            inet_ntop(AF_INET, &a.s6_addr[12], out, SRV_ADDR_CAP);
            return;
        }
        /* One machine on IPv6 commonly holds a whole /64. */
        memset(&a.s6_addr[8], 0, 8);
        char text[INET6_ADDRSTRLEN];
        if (inet_ntop(AF_INET6, &a, text, sizeof text))
            snprintf(out, SRV_ADDR_CAP, "%s/64", text);
    }
}

srv_addr *srv_addr_get(srv_server *srv, const char *key)
{
    srv_addr *a = srv_map_get(&srv->addrs, key);
    if (a)
        return a;
    a = calloc(1, sizeof *a);
    if (a == NULL)
        return NULL;
    a->chat_tokens = SRV_CHAT_ADDR_BURST;
    if (srv_map_put(&srv->addrs, key, a) != 0) {
        free(a);
        return NULL;
    }
    return a;
}

void srv_addr_release(srv_server *srv, const char *key)
{
    srv_addr *a = srv_map_get(&srv->addrs, key);
    if (a && a->conns <= 0 && a->sessions <= 0) {
        srv_map_del(&srv->addrs, key);
        free(a);
    }
}

void srv_conns_cap(srv_server *srv)
{
    /* Half the descriptors at most: the rest are for handshakes under way,
     * the web files, the database and the threads, so that accept never
     * fails for want of a descriptor (and so never spins). */
    struct rlimit rl;
    long room = srv->conns_wanted;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (long)rl.rlim_cur < 2L * srv->conns_wanted + 64)
        room = ((long)rl.rlim_cur - 64) / 2;
    srv->max_conns = room > 1 ? (int)room : 1;
    /* Every socket lws holds (handshakes under way, HTTP, WebSockets): three
     * quarters of the descriptors, the rest for the database, the web
     * files and lws's own. */
    long sockets = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                       ? ((long)rl.rlim_cur - 64) * 3 / 4
                       : 4L * srv->conns_wanted;
    if (sockets > INT_MAX)
        sockets = INT_MAX;
    srv->max_sockets = sockets > srv->max_conns ? (int)sockets : srv->max_conns + 1;
}

bool srv_conn_allowed(srv_server *srv, const char *addr)
{
    if (srv->stopping || srv->n_conns >= srv->max_conns)
        return false;
    const srv_addr *a = srv_map_get(&srv->addrs, addr);
    return a == NULL || a->conns < srv->conns_per_addr;
}

/* ---------------------------------------------------------------- queue */

/* What a queued message costs: its text, its headroom and its header. */
static size_t buf_cost(size_t len)
{
    return sizeof(srv_buf) + LWS_PRE + len;
}

/* What a queue holds beyond its largest message since it was last empty:
 * what the limits count, so that one big message (the lobby of thousands
 * of tables right after welcome) never gets a client cut. */
static size_t excess(const srv_conn *c)
{
    return c->out_bytes > c->out_big ? c->out_bytes - c->out_big : 0;
}

static void queue_free(srv_conn *c)
{
    srv_buf *b = c->out_head;
    while (b) {
        srv_buf *next = b->next;
        free(b);
        b = next;
    }
    c->out_head = c->out_tail = NULL;
    c->srv->queued -= excess(c);
    c->out_bytes = c->out_big = 0;
}

static void budget_check(lws_sorted_usec_list_t *sul);

static void queue_push(srv_conn *c, const char *text, size_t len)
{
    srv_buf *b = malloc(sizeof *b + LWS_PRE + len);
    if (b == NULL)
        return;
    b->next = NULL;
    b->len = len;
    memcpy(b->data + LWS_PRE, text, len);
    if (c->out_tail)
        c->out_tail->next = b;
    else
        c->out_head = b;
    c->out_tail = b;
    srv_server *srv = c->srv;
    size_t before = excess(c);
    c->out_bytes += buf_cost(len);
    if (buf_cost(len) > c->out_big)
        c->out_big = buf_cost(len);
    srv->queued = srv->queued - before + excess(c);
    /* Over the budget the slowest readers are cut, but not here: this may
     * be the middle of a broadcast over a table's seats, which cutting
     * another connection would change under it. */
    if (srv->queued > srv->queue_budget && srv->ctx && !srv->stopping)
        lws_sul_schedule(srv->ctx, 0, &srv->budget_sul, budget_check, 1);
    lws_callback_on_writable(c->wsi);
}

static void cut_slow(srv_conn *c)
{
    srv_log(c->srv, "connection %llu (%s) is not reading (%zu bytes queued): cut",
            (unsigned long long)c->id, c->session ? c->session->name : c->peer, c->out_bytes);
    queue_free(c);
    srv_bye(c, "slow");
}

/* Over the budget of all queues together: the connections with the most
 * queued are cut until it is kept again. */
static void budget_check(lws_sorted_usec_list_t *sul)
{
    srv_server *srv = lws_container_of(sul, srv_server, budget_sul);
    while (srv->queued > srv->queue_budget && !srv->stopping) {
        srv_conn *worst = NULL;
        for (srv_conn *c = srv->conns; c; c = c->next)
            if (!c->closing && (worst == NULL || excess(c) > excess(worst)))
                worst = c;
        if (worst == NULL || excess(worst) == 0)
            break;
        cut_slow(worst);
    }
}

void srv_send_text(srv_conn *c, const char *text, size_t len)
{
    if (c == NULL || c->closing)
        return;
    /* A client that lets more than the limit pile up besides its largest
     * message is not reading. */
    size_t bytes = c->out_bytes + buf_cost(len);
    size_t big = buf_cost(len) > c->out_big ? buf_cost(len) : c->out_big;
    if (bytes > big && bytes - big > c->srv->queue_limit) {
        cut_slow(c);
        return;
    }
    queue_push(c, text, len);
}

void srv_send(srv_conn *c, json_t *msg)
{
    if (msg == NULL)
        return;
    if (c != NULL && !c->closing) {
        size_t len;
        char *text = proto_dump(msg, &len);
        if (text) {
            srv_send_text(c, text, len);
            free(text);
        }
    }
    json_decref(msg);
}

void srv_bye(srv_conn *c, const char *reason)
{
    if (c == NULL || c->closing)
        return;
    json_t *msg = json_pack("{s:s, s:s}", "type", "bye", "reason", reason);
    size_t len;
    char *text = msg ? proto_dump(msg, &len) : NULL;
    if (text) {
        queue_push(c, text, len); /* past the limit: it is the last */
        free(text);
    }
    json_decref(msg);
    c->closing = true;
    /* The session no longer hears through this connection; a seated player's
     * seat is held as for a lost connection. */
    if (c->session) {
        srv_session *s = c->session;
        c->session = NULL;
        if (s->conn == c) {
            s->conn = NULL;
            srv_session_lost(s);
        }
    }
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, 3);
    lws_callback_on_writable(c->wsi);
}

json_t *srv_with_id(json_t *reply, const proto_msg *msg)
{
    if (reply && msg && msg->has_id)
        json_object_set_new(reply, "id", json_integer(msg->id));
    return reply;
}

static void send_error(srv_conn *c, const proto_error *err, int engine)
{
    json_t *msg = proto_error_json(err);
    if (msg && engine != 0)
        json_object_set_new(msg, "engine", json_integer(engine));
    srv_send(c, msg);
}

static void verror(srv_conn *c, const proto_msg *msg, const char *code, int engine, const char *fmt,
                   va_list ap)
{
    proto_error err = {0};
    err.code = code;
    vsnprintf(err.text, sizeof err.text, fmt, ap);
    if (msg) {
        err.re = proto_type_name(msg->type);
        err.has_id = msg->has_id;
        err.id = msg->id;
    }
    send_error(c, &err, engine);
}

void srv_error(srv_conn *c, const proto_msg *msg, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(c, msg, code, 0, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ dispatch */

static void dispatch(srv_conn *c, const proto_msg *msg)
{
    if (c->auth_job) {
        /* Nothing may change under a sign-in being checked. */
        srv_error(c, msg, "busy",
                  "Your password is being checked: wait for the answer before sending anything "
                  "else.");
        return;
    }
    if (c->session == NULL && msg->type != PROTO_HELLO) {
        srv_error(c, msg, "hello_first",
                  "The first message must be hello: say hello with your name or token first.");
        return;
    }
    /* A node that was stopped or cut off past its renewals checks its
     * leases first: a table taken meanwhile is let go (moved) rather than
     * answered as if it were still here. */
    if (srv_node_stale(c))
        return;
    switch (msg->type) {
    case PROTO_HELLO:
        srv_hello(c, msg);
        break;
    case PROTO_TABLES:
        srv_send_lobby(c, msg);
        break;
    case PROTO_CREATE:
        srv_cmd_create(c, msg);
        break;
    case PROTO_SIT:
        srv_cmd_sit(c, msg);
        break;
    case PROTO_KIBITZ:
        srv_cmd_kibitz(c, msg);
        break;
    case PROTO_LEAVE:
        srv_cmd_leave(c, msg);
        break;
    case PROTO_BOT:
        srv_cmd_bot(c, msg);
        break;
    case PROTO_ACT:
        srv_cmd_act(c, msg);
        break;
    case PROTO_CHAT:
        srv_cmd_chat(c, msg);
        break;
    case PROTO_SCORE:
        srv_cmd_score(c, msg);
        break;
    case PROTO_RECORD:
        srv_cmd_record(c, msg);
        break;
    case PROTO_SUGGEST:
        srv_cmd_suggest(c, msg);
        break;
    case PROTO_HINT:
        srv_cmd_hint(c, msg);
        break;
    case PROTO_LOGOUT:
        srv_cmd_logout(c, msg);
        break;
    case PROTO_CLOSE:
        srv_cmd_close(c, msg);
        break;
    case PROTO_HAND_OVER:
        srv_cmd_hand_over(c, msg);
        break;
    case PROTO_AGAIN:
        srv_cmd_again(c, msg);
        break;
    case PROTO_REGISTER:
        srv_cmd_register(c, msg);
        break;
    case PROTO_PASSWORD:
        srv_cmd_password(c, msg);
        break;
    case PROTO_MOD_CLOSE:
        srv_cmd_mod_close(c, msg);
        break;
    case PROTO_MOD_REMOVE:
        srv_cmd_mod_remove(c, msg);
        break;
    case PROTO_BAN:
        srv_cmd_ban(c, msg);
        break;
    case PROTO_UNBAN:
        srv_cmd_unban(c, msg);
        break;
    case PROTO_REPORT:
        srv_cmd_report(c, msg);
        break;
    case PROTO_MOD_LOG:
        srv_cmd_mod_log(c, msg);
        break;
    case PROTO_PREFERENCES:
        srv_cmd_preferences(c, msg);
        break;
    default:
        srv_error(c, msg, "bad_type",
                  "This server does not know that message type: see docs/protocol.md for the "
                  "messages it takes.");
        break;
    }
}

/* Takes one token from the bucket; when it runs dry, reading stops until
 * the tick refills it.  Returns false when the connection was cut. */
static bool flood_take(srv_conn *c)
{
    c->tokens--;
    if (c->tokens > 0 || c->slowed)
        return true;
    c->slowed = true;
    lws_rx_flow_control(c->wsi, 0);
    int64_t now = srv_now();
    int k = c->n_strikes % SRV_FLOOD_STRIKES;
    int64_t oldest = c->strikes[k];
    c->strikes[k] = now;
    c->n_strikes++;
    if (c->n_strikes >= SRV_FLOOD_STRIKES && now - oldest < 60) {
        srv_log(c->srv, "connection %llu (%s) floods: cut", (unsigned long long)c->id,
                c->session ? c->session->name : c->peer);
        srv_bye(c, "flood");
        return false;
    }
    return true;
}

void srv_conns_tick(srv_server *srv)
{
    int64_t now = srv_now();
    srv_conns_cap(srv);
    if (srv->refused > 0) {
        srv_log(srv, "%ld connections refused over the caps (%d connections open)", srv->refused,
                srv->n_conns);
        srv->refused = 0;
    }
    for (srv_conn *c = srv->conns; c; c = c->next) {
        if (c->closing)
            continue;
        if (!c->said_hello && c->auth_job == NULL && now - c->opened >= srv->hello_timeout) {
            srv_log(srv, "connection %llu (%s) did not say hello: closed",
                    (unsigned long long)c->id, c->peer);
            srv_bye(c, "timeout");
            continue;
        }
        c->tokens += SRV_FLOOD_RATE;
        if (c->tokens > SRV_FLOOD_BURST)
            c->tokens = SRV_FLOOD_BURST;
        if (c->slowed && c->tokens > 0) {
            c->slowed = false;
            lws_rx_flow_control(c->wsi, 1);
        }
    }
}

static void message_done(srv_conn *c)
{
    bool too_big = c->in_too_big, binary = c->in_binary;
    c->in_too_big = c->in_binary = false;
    size_t len = c->in_len;
    c->in_len = 0;
    if (c->closing)
        return;
    if (!flood_take(c))
        return;
    if (binary || too_big)
        return; /* refused as soon as it was seen (refuse_message) */
    proto_msg *msg = malloc(sizeof *msg);
    if (msg == NULL)
        return;
    proto_error err = {0};
    if (proto_decode(c->in ? c->in : "", len, msg, &err) != 0)
        send_error(c, &err, 0);
    else
        dispatch(c, msg);
    /* A password lives no longer than its message. */
    sodium_memzero(msg->password, sizeof msg->password);
    sodium_memzero(msg->new_password, sizeof msg->new_password);
    if (c->in)
        sodium_memzero(c->in, len);
    free(msg);
    /* Most clients send small messages: keep no big buffer around. */
    if (c->in_cap > 1024) {
        free(c->in);
        c->in = NULL;
        c->in_cap = 0;
    }
}

/* Refuses the message being read at once, not when its last byte comes
 * (a frame may announce 2^63 bytes); the rest of it is read and dropped. */
static void refuse_message(srv_conn *c, bool binary)
{
    if (binary) {
        c->in_binary = true;
        srv_error(c, NULL, "bad_json",
                  "Binary messages are refused: send each message as a text frame of JSON.");
    } else {
        c->in_too_big = true;
        srv_error(c, NULL, "too_big", "A message may hold at most %d bytes: send a shorter one.",
                  PROTO_MAX_MESSAGE);
    }
}

static void receive(srv_conn *c, const void *data, size_t len)
{
    if (!c->in_too_big && !c->in_binary) {
        size_t announced = lws_remaining_packet_payload(c->wsi);
        if (lws_frame_is_binary(c->wsi)) {
            refuse_message(c, true);
        } else if (c->in_len + len > PROTO_MAX_MESSAGE ||
                   announced > PROTO_MAX_MESSAGE - c->in_len - len) {
            refuse_message(c, false);
        } else if (len > 0) {
            if (c->in_len + len > c->in_cap) {
                size_t cap = c->in_cap ? c->in_cap : 256;
                while (cap < c->in_len + len)
                    cap *= 2;
                char *p = realloc(c->in, cap);
                if (p != NULL) {
                    c->in = p;
                    c->in_cap = cap;
                }
            }
            if (c->in_len + len <= c->in_cap) {
                memcpy(c->in + c->in_len, data, len);
                c->in_len += len;
            } else {
                refuse_message(c, false); /* out of memory */
            }
        }
    }
    if (lws_is_final_fragment(c->wsi) && lws_remaining_packet_payload(c->wsi) == 0)
        message_done(c);
}

static srv_conn *conn_new(srv_server *srv, struct lws *wsi)
{
    char addr[SRV_ADDR_CAP];
    srv_addr_key(lws_get_socket_fd(wsi), addr);
    /* Checked again here: handshakes accepted at once may pass the filter
     * together. */
    if (!srv_conn_allowed(srv, addr))
        return NULL;
    srv_addr *a = srv_addr_get(srv, addr);
    srv_conn *c = a ? calloc(1, sizeof *c) : NULL;
    if (c == NULL) {
        srv_addr_release(srv, addr);
        return NULL;
    }
    a->conns++;
    memcpy(c->addr, addr, sizeof addr);
    c->srv = srv;
    c->wsi = wsi;
    c->id = ++srv->next_conn;
    c->tokens = SRV_FLOOD_BURST;
    c->opened = srv_now();
    char ip[48] = "";
    lws_get_peer_simple(wsi, ip, sizeof ip);
    snprintf(c->peer, sizeof c->peer, "%s", ip[0] ? ip : "?");
    c->next = srv->conns;
    if (srv->conns)
        srv->conns->prev = c;
    srv->conns = c;
    srv->n_conns++;
    return c;
}

static void conn_free(srv_conn *c)
{
    srv_server *srv = c->srv;
    srv_auth_forget_conn(c);
    if (c->session) {
        srv_session *s = c->session;
        c->session = NULL;
        if (s->conn == c) {
            s->conn = NULL;
            srv_session_lost(s);
        }
    }
    if (c->prev)
        c->prev->next = c->next;
    else
        srv->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    srv->n_conns--;
    srv_addr *a = srv_map_get(&srv->addrs, c->addr);
    if (a) {
        a->conns--;
        srv_addr_release(srv, c->addr);
    }
    queue_free(c);
    free(c->in);
    free(c);
}

static bool ws_path_ok(struct lws *wsi)
{
    char uri[64];
    int n = lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI);
    return n > 0 && strcmp(uri, "/ws") == 0;
}

int srv_ws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    ws_pss *pss = user;
    srv_server *srv = lws_context_user(lws_get_context(wsi));

    switch (reason) {
    case LWS_CALLBACK_WSI_CREATE:
        srv->n_wsi++;
        return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        srv->n_wsi--;
        return 0;

    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION: {
        /* A connection over the caps is closed right after accept, before
         * lws gives it any memory: accepting always succeeds because the
         * caps stay well below the descriptor limit, so a full server
         * neither spins on a failing accept nor refuses everybody. */
        char addr[SRV_ADDR_CAP];
        srv_addr_key((int)(lws_intptr_t)in, addr);
        /* Sockets that never finish their handshake hold descriptors too,
         * until lws's timeout: they have their own cap. */
        if (srv->n_wsi < srv->max_sockets && srv_conn_allowed(srv, addr))
            return 0;
        srv->refused++; /* logged by the tick: an attacker may try thousands a second */
        return 1;
    }

    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        /* The WebSocket lives at /ws only. */
        return ws_path_ok(wsi) ? 0 : 1;

    case LWS_CALLBACK_ESTABLISHED:
        pss->conn = conn_new(srv, wsi);
        if (pss->conn == NULL)
            return -1;
        srv_log(srv, "connection %llu from %s", (unsigned long long)pss->conn->id, pss->conn->peer);
        return 0;

    case LWS_CALLBACK_RECEIVE:
        if (pss->conn)
            receive(pss->conn, in, len);
        return 0;

    case LWS_CALLBACK_SERVER_WRITEABLE: {
        srv_conn *c = pss->conn;
        if (c == NULL)
            return -1;
        srv_buf *b = c->out_head;
        if (b) {
            c->out_head = b->next;
            if (c->out_head == NULL)
                c->out_tail = NULL;
            size_t before = excess(c);
            c->out_bytes -= buf_cost(b->len);
            if (c->out_head == NULL)
                c->out_big = 0;
            c->srv->queued = c->srv->queued - before + excess(c);
            int n = lws_write(wsi, b->data + LWS_PRE, b->len, LWS_WRITE_TEXT);
            free(b);
            if (n < 0)
                return -1;
        }
        if (c->out_head) {
            lws_callback_on_writable(wsi);
        } else if (c->closing) {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, NULL, 0);
            return -1;
        }
        return 0;
    }

    case LWS_CALLBACK_CLOSED:
        if (pss->conn) {
            srv_log(srv, "connection %llu closed", (unsigned long long)pss->conn->id);
            conn_free(pss->conn);
            pss->conn = NULL;
        }
        return 0;

    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        srv_bots_drain(srv);
        srv_auth_drain(srv);
        srv_club_drain(srv);
        srv_analyses_drain(srv);
        return 0;

    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}
