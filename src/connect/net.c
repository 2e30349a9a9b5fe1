/*
 * net.c - barbu connect's one event loop (libwebsockets): the
 * WebSocket to the server, the keyboard (standard input adopted as a raw
 * file, so that a key wakes the loop like a message does) and a timer.
 *
 * A message is queued and written from the writeable callback, with LWS_PRE
 * bytes of headroom, one a callback.  When the connection ends the queue is
 * dropped (an action queued for a connection that is gone would be stale),
 * and the next attempt waits 1, 2, 4 ... up to 30 seconds.
 *
 * wss://: OpenSSL (through lws) checks the server's certificate against the
 * system's authorities (and --ca's certificate), and we check here that it
 * names the host we asked for; a refused certificate stops the client with
 * the reason instead of trying again.  --self-signed accepts any
 * certificate, and the screen says it was not checked.
 */
#include <curses.h>
#include <libwebsockets.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "connect.h"

#define RX_MAX       (16u << 20) /* the longest server message we take */
#define TICK_MS      250
#define KEYS_POLL_MS 50 /* the tick's pace when standard input cannot be adopted */

typedef struct out_msg {
    struct out_msg *next;
    size_t len;
    unsigned char data[]; /* LWS_PRE bytes of headroom, then the text */
} out_msg;

struct cn_net {
    cn *c;
    struct lws_context *ctx;
    struct lws *wsi;  /* the WebSocket, NULL when there is none */
    struct lws *keys; /* standard input, NULL if it could not be adopted */
    out_msg *head, *tail;
    char *rx;
    size_t rx_len, rx_cap;
    bool rx_refused;     /* the message being received is too long or binary */
    bool closing;        /* we asked for the connection to close */
    bool stop_when_gone; /* and not to try again */
    int empty_reads;     /* keyboard wake-ups without a key (a closed terminal) */
    bool destroying;     /* the loop is being torn down: no callbacks matter */
    lws_sorted_usec_list_t retry_sul, tick_sul;
    long long last_second;
    char cert_refused[200]; /* why the server's certificate was refused, or "" */
};

static void drop_queue(cn_net *n)
{
    while (n->head != NULL) {
        out_msg *m = n->head;
        n->head = m->next;
        free(m);
    }
    n->tail = NULL;
    n->rx_len = 0;
    n->rx_refused = false;
}

/* ------------------------------------------------------------ the keyboard */

static void read_keys(cn_net *n)
{
    cn *c = n->c;
    nodelay(stdscr, TRUE);
    int got = 0;
    for (int i = 0; i < 256 && !c->quit; i++) {
        int key = getch();
        if (key == ERR)
            break;
        got++;
        cn_key(c, key);
        c->dirty = true;
    }
    if (got > 0) {
        n->empty_reads = 0;
        return;
    }
    /* Readable with no key, again and again: the terminal has gone. */
    struct pollfd p = {.fd = 0, .events = POLLIN};
    if (poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0)
        c->quit = true;
    else if (poll(&p, 1, 0) > 0 && ++n->empty_reads > 200)
        c->quit = true;
}

static int keys_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                         size_t len)
{
    (void)user;
    (void)in;
    (void)len;
    cn_net *n = lws_context_user(lws_get_context(wsi));
    if (n == NULL || n->destroying)
        return 0;
    switch (reason) {
    case LWS_CALLBACK_RAW_RX_FILE:
        read_keys(n);
        break;
    case LWS_CALLBACK_RAW_CLOSE_FILE:
        if (wsi == n->keys)
            n->keys = NULL;
        break;
    default:
        break;
    }
    return 0;
}

/* -------------------------------------------------------------- connecting */

static void start_connect(cn_net *n);

static void retry_due(lws_sorted_usec_list_t *sul)
{
    cn_net *n = lws_container_of(sul, cn_net, retry_sul);
    if (n->c->conn == CN_OFFLINE)
        start_connect(n);
}

/* The connection is gone (or never came): say so, and try again later
 * unless told not to. */
static void ended(cn_net *n, const char *why)
{
    cn *c = n->c;
    if (c->conn != CN_CONNECTING && c->conn != CN_HELLO && c->conn != CN_READY &&
        !(c->conn == CN_STOPPED && n->wsi != NULL))
        return;
    n->wsi = NULL;
    n->closing = false;
    drop_queue(n);
    bool stop = c->conn == CN_STOPPED || n->stop_when_gone;
    n->stop_when_gone = false;
    c->conn = stop ? CN_STOPPED : CN_OFFLINE;
    /* Following moved (nodes.c): the node it named, at once or after the
     * wait it chose; nothing was lost, so nothing is said in the chat. */
    bool moving = c->moving;
    int move_wait = c->move_wait_ms;
    c->moving = false;
    c->move_wait_ms = -1;
    if (moving)
        c->was_ready = false;
    if (!stop) {
        int wait = 1000;
        for (int i = 0; i < c->attempts && wait < CN_RETRY_MAX_MS; i++)
            wait *= 2;
        if (wait > CN_RETRY_MAX_MS)
            wait = CN_RETRY_MAX_MS;
        if (moving && move_wait >= 0) {
            wait = move_wait;
        } else {
            c->attempts++;
            /* A failed or dropped connection: the next node known (a dead
             * node's players find a live one, which sends them on). */
            if (!moving)
                cn_known_next(c);
        }
        c->retry_at = cn_now_ms() + wait;
        lws_sul_schedule(n->ctx, 0, &n->retry_sul, retry_due, (lws_usec_t)wait * 1000);
    }
    cn_on_closed(c, why);
    c->dirty = true;
}

static void start_connect(cn_net *n)
{
    cn *c = n->c;
    char host[300];
    snprintf(host, sizeof host, "%s:%d", c->host, c->port);
    struct lws_client_connect_info ci;
    memset(&ci, 0, sizeof ci);
    ci.context = n->ctx;
    ci.address = c->host;
    ci.port = c->port;
    ci.path = c->path;
    ci.host = host;
    /* No Origin: that header is a browser's, and the server checks it
     * against the Host it was sent to, which a proxy may have changed. */
    ci.ssl_connection = c->tls ? LCCSCF_USE_SSL : 0;
    if (c->tls && c->self_signed)
        ci.ssl_connection |= LCCSCF_ALLOW_SELFSIGNED | LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK |
                             LCCSCF_ALLOW_EXPIRED | LCCSCF_ALLOW_INSECURE;
    n->cert_refused[0] = '\0';
    ci.local_protocol_name = "barbu-ws";
    ci.pwsi = &n->wsi;
    c->conn = CN_CONNECTING;
    c->dirty = true;
    snprintf(c->conn_why, sizeof c->conn_why, "connecting to %.120s", c->url);
    if (lws_client_connect_via_info(&ci) == NULL && c->conn == CN_CONNECTING)
        ended(n, "the connection could not be started");
}

void cn_net_retry_now(cn *c)
{
    cn_net *n = c->net;
    if (c->conn != CN_OFFLINE && c->conn != CN_STOPPED)
        return;
    lws_sul_cancel(&n->retry_sul);
    c->attempts = 0;
    start_connect(n);
}

void cn_net_drop(cn *c, bool stop)
{
    cn_net *n = c->net;
    if (n->wsi == NULL) {
        if (stop) {
            lws_sul_cancel(&n->retry_sul);
            c->conn = CN_STOPPED;
        }
        return;
    }
    n->closing = true;
    n->stop_when_gone = stop;
    lws_callback_on_writable(n->wsi);
}

/* -------------------------------------------------------------- messages */

static void receive(cn_net *n, struct lws *wsi, const void *in, size_t len)
{
    if (lws_is_first_fragment(wsi)) {
        n->rx_len = 0;
        n->rx_refused = lws_frame_is_binary(wsi) != 0;
    }
    if (!n->rx_refused && n->rx_len + len + 1 > n->rx_cap) {
        size_t cap = n->rx_cap ? n->rx_cap : 65536;
        while (cap < n->rx_len + len + 1)
            cap *= 2;
        char *p = cap <= RX_MAX ? realloc(n->rx, cap) : NULL;
        if (p == NULL) {
            n->rx_refused = true;
        } else {
            n->rx = p;
            n->rx_cap = cap;
        }
    }
    if (!n->rx_refused) {
        memcpy(n->rx + n->rx_len, in, len);
        n->rx_len += len;
    }
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) != 0)
        return;
    if (n->rx_refused) {
        cn_status(n->c, true, "A message from the server was refused (binary, or over %u MB).",
                  RX_MAX >> 20);
    } else {
        n->rx[n->rx_len] = '\0';
        cn_on_message(n->c, n->rx, n->rx_len);
    }
    n->rx_len = 0;
    n->rx_refused = false;
    n->c->dirty = true;
}

static int write_one(cn_net *n, struct lws *wsi)
{
    if (n->closing) {
        lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, NULL, 0);
        return -1;
    }
    out_msg *m = n->head;
    if (m == NULL)
        return 0;
    n->head = m->next;
    if (n->head == NULL)
        n->tail = NULL;
    int wrote = lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
    size_t len = m->len;
    free(m);
    if (wrote < (int)len)
        return -1;
    if (n->head != NULL)
        lws_callback_on_writable(wsi);
    return 0;
}

/* OpenSSL asks about each certificate of the server's chain, the server's
 * own last (depth 0): ok is its own verdict.  Returns 0 to accept. */
static int check_cert(cn_net *n, X509_STORE_CTX *store, bool ok)
{
    cn *c = n->c;
    if (c->self_signed) {
        X509_STORE_CTX_set_error(store, X509_V_OK);
        return 0;
    }
    int depth = X509_STORE_CTX_get_error_depth(store);
    if (ok && depth == 0) {
        /* The name: lws asks OpenSSL for it too, but says nothing of an
         * IP address; the check is ours either way. */
        X509 *cert = X509_STORE_CTX_get_current_cert(store);
        bool ip = strchr(c->host, ':') != NULL || strspn(c->host, "0123456789.") == strlen(c->host);
        int named = cert == NULL ? 0
                    : ip         ? X509_check_ip_asc(cert, c->host, 0)
                                 : X509_check_host(cert, c->host, 0, 0, NULL);
        if (named != 1) {
            X509_STORE_CTX_set_error(store, X509_V_ERR_HOSTNAME_MISMATCH);
            snprintf(n->cert_refused, sizeof n->cert_refused, "the certificate is not for %.100s",
                     c->host);
            return 1;
        }
    }
    if (!ok) {
        int err = X509_STORE_CTX_get_error(store);
        if (n->cert_refused[0] == '\0')
            snprintf(n->cert_refused, sizeof n->cert_refused, "%s",
                     X509_verify_cert_error_string(err));
        return 1;
    }
    return 0;
}

static int ws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                       size_t len)
{
    (void)user;
    cn_net *n = lws_context_user(lws_get_context(wsi));
    if (n == NULL || n->destroying)
        return 0;
    char why[200];
    switch (reason) {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        n->wsi = wsi;
        n->c->conn = CN_HELLO;
        n->c->conn_why[0] = '\0';
        cn_on_open(n->c);
        n->c->dirty = true;
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        receive(n, wsi, in, len);
        break;
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return write_one(n, wsi);
    case LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION:
        return check_cert(n, user, len != 0);
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        if (n->cert_refused[0] != '\0') {
            /* Trying again would meet the same certificate. */
            cn *c = n->c;
            snprintf(c->conn_why, sizeof c->conn_why,
                     "the server's certificate was refused: %.100s", n->cert_refused);
            c->fatal = true;
            n->stop_when_gone = true;
            cn_status(c, true,
                      "Certificate refused (%s): --ca FILE trusts one, --self-signed skips the "
                      "check.",
                      n->cert_refused);
            cn_note(c, "The server's certificate was refused: %s.", n->cert_refused);
            ended(n, c->conn_why);
            break;
        }
        if (in != NULL && len > 0)
            snprintf(why, sizeof why, "%.*s", (int)(len < 150 ? len : 150), (const char *)in);
        else
            snprintf(why, sizeof why, "the server cannot be reached");
        ended(n, why);
        break;
    case LWS_CALLBACK_CLIENT_CLOSED:
        ended(n, "the connection was closed");
        break;
    default:
        break;
    }
    return 0;
}

int cn_send(cn *c, json_t *msg)
{
    cn_net *n = c->net;
    if (msg == NULL)
        return -1;
    if (n->wsi == NULL || n->closing || (c->conn != CN_HELLO && c->conn != CN_READY)) {
        json_decref(msg);
        return -1;
    }
    size_t len = 0;
    char *text = proto_dump(msg, &len);
    json_decref(msg);
    if (text == NULL)
        return -1;
    out_msg *m = malloc(sizeof *m + LWS_PRE + len);
    if (m == NULL) {
        free(text);
        return -1;
    }
    m->next = NULL;
    m->len = len;
    memcpy(m->data + LWS_PRE, text, len);
    free(text);
    if (n->tail != NULL)
        n->tail->next = m;
    else
        n->head = m;
    n->tail = m;
    lws_callback_on_writable(n->wsi);
    return 0;
}

/* ------------------------------------------------------------------ loop */

static void tick(lws_sorted_usec_list_t *sul)
{
    cn_net *n = lws_container_of(sul, cn_net, tick_sul);
    /* Keys that came without a wake-up (a resize is a signal, not input). */
    read_keys(n);
    /* Once a second: the counters on screen (away, the next attempt). */
    long long second = cn_now_ms() / 1000;
    if (second != n->last_second) {
        n->last_second = second;
        n->c->dirty = true;
    }
    lws_sul_schedule(n->ctx, 0, &n->tick_sul, tick,
                     (lws_usec_t)(n->keys != NULL ? TICK_MS : KEYS_POLL_MS) * 1000);
}

/* lws logs to stderr, which would scribble over the screen: its errors go
 * to the file BARBU_CONNECT_LOG names, or nowhere. */
static void lws_log(int level, const char *line)
{
    (void)level;
    const char *path = getenv("BARBU_CONNECT_LOG");
    if (path == NULL || *path == '\0')
        return;
    FILE *f = fopen(path, "a");
    if (f != NULL) {
        fputs(line, f);
        fclose(f);
    }
}

static const struct lws_protocols PROTOCOLS[] = {
    {"barbu-ws", ws_callback, 0, 65536, 0, NULL, 0},
    {"barbu-keys", keys_callback, 0, 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

int cn_net_start(cn *c)
{
    cn_net *n = calloc(1, sizeof *n);
    if (n == NULL) {
        fprintf(stderr, "barbu connect: out of memory\n");
        return 1;
    }
    n->c = c;
    c->net = n;
    lws_set_log_level(getenv("BARBU_CONNECT_LOG") != NULL ? LLL_ERR | LLL_WARN | LLL_NOTICE : 0,
                      lws_log);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = PROTOCOLS;
    info.gid = (gid_t)-1;
    info.uid = (uid_t)-1;
    info.user = n;
    /* A client holds a few descriptors; without a limit lws sizes its
     * tables by the process's (often a million). */
    info.fd_limit_per_thread = 64;
    /* Always: a moved message may name a wss:// node though the first was ws://. */
    info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
    if (c->tls && c->ca_file[0] != '\0')
        info.client_ssl_ca_filepath = c->ca_file;
    n->ctx = lws_create_context(&info);
    if (n->ctx == NULL) {
        fprintf(stderr, "barbu connect: the network library could not start\n");
        return 1;
    }
    /* The keyboard: a copy of standard input, so that lws closing it at the
     * end leaves the terminal's own descriptor alone. */
    struct lws_vhost *vh = lws_get_vhost_by_name(n->ctx, "default");
    int fd = dup(0);
    if (vh != NULL && fd >= 0) {
        lws_sock_file_fd_type u;
        u.filefd = fd;
        n->keys = lws_adopt_descriptor_vhost(vh, LWS_ADOPT_RAW_FILE_DESC, u, "barbu-keys", NULL);
    } else if (fd >= 0) {
        close(fd);
    }
    lws_sul_schedule(n->ctx, 0, &n->tick_sul, tick, (lws_usec_t)TICK_MS * 1000);
    start_connect(n);
    return 0;
}

void cn_net_run(cn *c)
{
    cn_net *n = c->net;
    while (!c->quit && !cn_signalled()) {
        if (c->dirty) {
            c->dirty = false;
            cn_draw(c);
        }
        if (lws_service(n->ctx, 0) < 0)
            break;
        /* A signal interrupts the wait: SIGWINCH leaves a KEY_RESIZE. */
        read_keys(n);
    }
}

void cn_net_free(cn *c)
{
    cn_net *n = c->net;
    if (n == NULL)
        return;
    n->destroying = true;
    if (n->ctx != NULL) {
        lws_sul_cancel(&n->retry_sul);
        lws_sul_cancel(&n->tick_sul);
        lws_context_destroy(n->ctx);
    }
    drop_queue(n);
    free(n->rx);
    free(n);
    c->net = NULL;
}
