/*
 * wsc.c - a small WebSocket client (RFC 6455), written for barbu's tests.
 */
#include "wsc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* A received message waiting to be taken. */
typedef struct msg_node {
    wsc_msg msg;
    struct msg_node *next;
} msg_node;

typedef struct buf {
    uint8_t *p;
    size_t len, cap;
} buf;

struct wsc {
    int fd;
    int state;
    char accept[29]; /* the Sec-WebSocket-Accept the server must send */
    buf in;          /* bytes read and not yet parsed */
    buf out;         /* bytes queued and not yet written */
    size_t out_off;  /* written from the front of out */
    buf frag;        /* a fragmented message being reassembled */
    int frag_op;     /* its opcode, 0 when none */
    msg_node *head, *tail;
    bool close_sent;
    int close_code;
    char error[160];
    uint64_t mask_state;
    SSL_CTX *ssl_ctx; /* TLS: both NULL over plain TCP */
    SSL *ssl;
    short tls_want; /* the handshake waits for POLLIN or POLLOUT */
};

/* ------------------------------------------------------------- SHA-1 */

static uint32_t rol32(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

static void sha1_block(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rol32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5a827999;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ed9eba1;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8f1bbcdc;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6;
        }
        uint32_t t = rol32(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rol32(b, 30);
        b = a;
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

void wsc_sha1(const void *data, size_t len, uint8_t digest[20])
{
    uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    const uint8_t *p = data;
    size_t left = len;
    while (left >= 64) {
        sha1_block(h, p);
        p += 64;
        left -= 64;
    }
    /* The last block(s): the rest, a 1 bit, zeros, the length in bits. */
    uint8_t tail[128] = {0};
    memcpy(tail, p, left);
    tail[left] = 0x80;
    size_t n = left + 1 + 8 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[n - 1 - i] = (uint8_t)(bits >> (8 * i));
    sha1_block(h, tail);
    if (n == 128)
        sha1_block(h, tail + 64);
    for (int i = 0; i < 5; i++) {
        digest[4 * i] = (uint8_t)(h[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(h[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(h[i] >> 8);
        digest[4 * i + 3] = (uint8_t)h[i];
    }
}

/* ------------------------------------------------------------ base64 */

void wsc_base64(const uint8_t *data, size_t len, char *out)
{
    static const char ALPHABET[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)data[i + 1] << 8;
        if (i + 2 < len)
            v |= data[i + 2];
        out[o++] = ALPHABET[(v >> 18) & 63];
        out[o++] = ALPHABET[(v >> 12) & 63];
        out[o++] = i + 1 < len ? ALPHABET[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < len ? ALPHABET[v & 63] : '=';
    }
    out[o] = '\0';
}

void wsc_accept_key(const char *key, char out[29])
{
    static const char GUID[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    char joined[128];
    snprintf(joined, sizeof joined, "%s%s", key, GUID);
    uint8_t digest[20];
    wsc_sha1(joined, strlen(joined), digest);
    wsc_base64(digest, sizeof digest, out);
}

/* ----------------------------------------------------------- helpers */

static int fail(wsc *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(wsc *w, const char *fmt, ...)
{
    if (w->error[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->error, sizeof w->error, fmt, ap);
        va_end(ap);
    }
    if (w->fd >= 0) {
        close(w->fd);
        w->fd = -1;
    }
    w->state = WSC_CLOSED;
    return -1;
}

static int buf_add(buf *b, const void *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (q == NULL)
            return -1;
        b->p = q;
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->len, p, n);
    b->len += n;
    b->p[b->len] = 0;
    return 0;
}

static void buf_drop(buf *b, size_t n)
{
    memmove(b->p, b->p + n, b->len - n);
    b->len -= n;
}

static void random_bytes(uint8_t *p, size_t n)
{
    static uint64_t state;
    if (state == 0) {
        int fd = open("/dev/urandom", O_RDONLY);
        if (fd < 0 || read(fd, &state, sizeof state) != (ssize_t)sizeof state) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            state = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)getpid();
        }
        if (fd >= 0)
            close(fd);
        state |= 1;
    }
    for (size_t i = 0; i < n; i++) {
        /* xorshift64*: the masks and keys need only be unpredictable enough
         * that no proxy could be confused, and this is a test client. */
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        p[i] = (uint8_t)((state * UINT64_C(2685821657736338717)) >> 56);
    }
}

/* ------------------------------------------------------------ output */

static int write_out(wsc *w)
{
    if (w->state == WSC_TLS || w->state == WSC_CONNECTING)
        return 0;
    while (w->out_off < w->out.len) {
        if (w->ssl != NULL) {
            size_t want = w->out.len - w->out_off;
            int n =
                SSL_write(w->ssl, w->out.p + w->out_off, want > (1u << 30) ? 1 << 30 : (int)want);
            if (n <= 0) {
                int e = SSL_get_error(w->ssl, n);
                if (e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ)
                    break;
                const char *r = ERR_reason_error_string(ERR_get_error());
                return fail(w, "TLS write: %s", r ? r : "the connection failed");
            }
            w->out_off += (size_t)n;
            continue;
        }
        ssize_t n = send(w->fd, w->out.p + w->out_off, w->out.len - w->out_off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                break;
            if (errno == EINTR)
                continue;
            return fail(w, "send: %s", strerror(errno));
        }
        w->out_off += (size_t)n;
    }
    if (w->out_off == w->out.len) {
        w->out.len = 0;
        w->out_off = 0;
    } else if (w->out_off > (1u << 20)) {
        buf_drop(&w->out, w->out_off);
        w->out_off = 0;
    }
    return 0;
}

static int queue_frame(wsc *w, int opcode, bool fin, bool masked, uint64_t claimed,
                       const void *data, size_t len)
{
    if (w->state == WSC_CLOSED || w->fd < 0)
        return -1;
    uint8_t head[14];
    size_t h = 0;
    head[h++] = (uint8_t)((fin ? 0x80 : 0) | (opcode & 0x0f));
    uint8_t mbit = masked ? 0x80 : 0;
    if (claimed < 126) {
        head[h++] = (uint8_t)(mbit | claimed);
    } else if (claimed <= 0xffff) {
        head[h++] = (uint8_t)(mbit | 126);
        head[h++] = (uint8_t)(claimed >> 8);
        head[h++] = (uint8_t)claimed;
    } else {
        head[h++] = (uint8_t)(mbit | 127);
        for (int i = 7; i >= 0; i--)
            head[h++] = (uint8_t)(claimed >> (8 * i));
    }
    uint8_t key[4] = {0};
    if (masked) {
        random_bytes(key, 4);
        memcpy(head + h, key, 4);
        h += 4;
    }
    size_t start = w->out.len;
    if (buf_add(&w->out, head, h) < 0 || buf_add(&w->out, data, len) < 0)
        return fail(w, "out of memory");
    if (masked) {
        uint8_t *p = w->out.p + start + h;
        for (size_t i = 0; i < len; i++)
            p[i] ^= key[i & 3];
    }
    if (w->state == WSC_OPEN || w->state == WSC_HANDSHAKE)
        return write_out(w);
    return 0;
}

int wsc_send_text(wsc *w, const char *data, size_t len)
{
    return queue_frame(w, WSC_OP_TEXT, true, true, len, data, len);
}

int wsc_send_frame(wsc *w, int opcode, bool fin, bool masked, const void *data, size_t len)
{
    return queue_frame(w, opcode, fin, masked, len, data, len);
}

int wsc_send_frame_claim(wsc *w, int opcode, uint64_t claimed_len, const void *data, size_t len)
{
    return queue_frame(w, opcode, true, true, claimed_len, data, len);
}

int wsc_send_raw(wsc *w, const void *data, size_t len)
{
    if (w->state == WSC_CLOSED || w->fd < 0)
        return -1;
    if (buf_add(&w->out, data, len) < 0)
        return fail(w, "out of memory");
    return write_out(w);
}

int wsc_send_close(wsc *w, int code)
{
    uint8_t p[2] = {(uint8_t)(code >> 8), (uint8_t)code};
    w->close_sent = true;
    return queue_frame(w, WSC_OP_CLOSE, true, true, 2, p, 2);
}

size_t wsc_queued(const wsc *w)
{
    return w->out.len - w->out_off;
}

/* ------------------------------------------------------------- input */

static int push_message(wsc *w, int opcode, const uint8_t *p, size_t len)
{
    msg_node *m = malloc(sizeof *m);
    char *data = malloc(len + 1);
    if (m == NULL || data == NULL) {
        free(m);
        free(data);
        return fail(w, "out of memory");
    }
    memcpy(data, p, len);
    data[len] = '\0';
    m->msg.data = data;
    m->msg.len = len;
    m->msg.opcode = opcode;
    m->next = NULL;
    if (w->tail)
        w->tail->next = m;
    else
        w->head = m;
    w->tail = m;
    return 0;
}

/* Reads the 101 answer; returns 1 when complete, 0 when more is needed. */
static int parse_handshake(wsc *w)
{
    /* A server that refuses a connection may close it before a byte. */
    if (w->in.p == NULL)
        return 0;
    char *end = strstr((char *)w->in.p, "\r\n\r\n");
    if (end == NULL) {
        if (w->in.len > 16384)
            return fail(w, "the handshake answer is too long");
        return 0;
    }
    size_t head_len = (size_t)(end - (char *)w->in.p) + 4;
    *end = '\0';
    char *text = (char *)w->in.p;
    if (strncmp(text, "HTTP/1.1 101", 12) != 0) {
        char *eol = strstr(text, "\r\n");
        if (eol)
            *eol = '\0';
        return fail(w, "the server answered \"%.100s\", not 101", text);
    }
    bool upgrade = false, connection = false, accept = false;
    for (char *line = strstr(text, "\r\n"); line; line = strstr(line, "\r\n")) {
        line += 2;
        char *colon = strchr(line, ':');
        char *eol = strstr(line, "\r\n");
        if (colon == NULL || (eol && colon > eol))
            continue;
        size_t key_len = (size_t)(colon - line);
        char value[256];
        const char *v = colon + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        size_t vlen = eol ? (size_t)(eol - v) : strlen(v);
        if (vlen >= sizeof value)
            vlen = sizeof value - 1;
        memcpy(value, v, vlen);
        value[vlen] = '\0';
        while (vlen > 0 && (value[vlen - 1] == ' ' || value[vlen - 1] == '\t'))
            value[--vlen] = '\0';
        if (key_len == 7 && strncasecmp(line, "Upgrade", 7) == 0)
            upgrade = strcasecmp(value, "websocket") == 0;
        else if (key_len == 10 && strncasecmp(line, "Connection", 10) == 0) {
            for (char *c = value; *c; c++)
                if (*c >= 'A' && *c <= 'Z')
                    *c = (char)(*c - 'A' + 'a');
            connection = strstr(value, "upgrade") != NULL;
        } else if (key_len == 20 && strncasecmp(line, "Sec-WebSocket-Accept", 20) == 0) {
            if (strcmp(value, w->accept) != 0)
                return fail(w, "Sec-WebSocket-Accept is %s, not %s", value, w->accept);
            accept = true;
        }
    }
    if (!upgrade || !connection || !accept)
        return fail(w, "the 101 lacks %s",
                    !upgrade      ? "Upgrade: websocket"
                    : !connection ? "Connection: Upgrade"
                                  : "Sec-WebSocket-Accept");
    buf_drop(&w->in, head_len);
    w->state = WSC_OPEN;
    return 1;
}

/* Parses the frames read so far. */
static int parse_frames(wsc *w)
{
    for (;;) {
        if (w->state == WSC_CLOSED)
            return -1;
        uint8_t *p = w->in.p;
        size_t n = w->in.len;
        if (n < 2)
            return 0;
        bool fin = p[0] & 0x80;
        int opcode = p[0] & 0x0f;
        if (p[0] & 0x70)
            return fail(w, "the server set reserved bits (0x%02x)", p[0]);
        if (p[1] & 0x80)
            return fail(w, "the server masked a frame");
        uint64_t len = p[1] & 0x7f;
        size_t h = 2;
        if (len == 126) {
            if (n < 4)
                return 0;
            len = (uint64_t)p[2] << 8 | p[3];
            h = 4;
        } else if (len == 127) {
            if (n < 10)
                return 0;
            len = 0;
            for (int i = 0; i < 8; i++)
                len = len << 8 | p[2 + i];
            h = 10;
        }
        if (len > (64u << 20))
            return fail(w, "a frame of %llu bytes", (unsigned long long)len);
        if (n < h + len)
            return 0;
        const uint8_t *payload = p + h;
        size_t plen = (size_t)len;
        int err = 0;
        switch (opcode) {
        case WSC_OP_TEXT:
        case WSC_OP_BINARY:
            if (w->frag_op)
                return fail(w, "a new message inside a fragmented one");
            if (fin) {
                err = push_message(w, opcode, payload, plen);
            } else {
                w->frag_op = opcode;
                w->frag.len = 0;
                err = buf_add(&w->frag, payload, plen);
            }
            break;
        case WSC_OP_CONT:
            if (!w->frag_op)
                return fail(w, "a continuation without a message");
            err = buf_add(&w->frag, payload, plen);
            if (err == 0 && fin) {
                err = push_message(w, w->frag_op, w->frag.p, w->frag.len);
                w->frag_op = 0;
                w->frag.len = 0;
            }
            break;
        case WSC_OP_PING:
            if (!fin || plen > 125)
                return fail(w, "a malformed ping");
            if (!w->close_sent)
                err = queue_frame(w, WSC_OP_PONG, true, true, plen, payload, plen);
            break;
        case WSC_OP_PONG:
            break;
        case WSC_OP_CLOSE:
            w->close_code = plen >= 2 ? (payload[0] << 8 | payload[1]) : 1005;
            if (!w->close_sent) {
                uint8_t code[2] = {(uint8_t)(w->close_code >> 8), (uint8_t)w->close_code};
                w->close_sent = true;
                queue_frame(w, WSC_OP_CLOSE, true, true, plen >= 2 ? 2 : 0, code,
                            plen >= 2 ? 2 : 0);
            }
            buf_drop(&w->in, h + plen);
            return fail(w, "the server closed the connection (%d%s%.*s)", w->close_code,
                        plen > 2 ? ": " : "", plen > 2 ? (int)(plen - 2) : 0,
                        (const char *)payload + 2);
        default:
            return fail(w, "the server sent opcode %d", opcode);
        }
        if (err < 0)
            return -1;
        buf_drop(&w->in, h + plen);
    }
}

static int read_in(wsc *w)
{
    for (;;) {
        uint8_t chunk[65536];
        ssize_t n;
        if (w->ssl != NULL) {
            /* A record at a time: read until OpenSSL wants the socket. */
            int r = SSL_read(w->ssl, chunk, (int)sizeof chunk);
            if (r <= 0) {
                int e = SSL_get_error(w->ssl, r);
                if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
                    return 0;
                if (e != SSL_ERROR_ZERO_RETURN && e != SSL_ERROR_SYSCALL && e != SSL_ERROR_SSL)
                    return fail(w, "TLS read: error %d", e);
                ERR_clear_error();
                r = 0; /* the end, orderly or not */
            }
            n = r;
        } else {
            n = recv(w->fd, chunk, sizeof chunk, 0);
        }
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return 0;
            if (errno == EINTR)
                continue;
            return fail(w, "recv: %s", strerror(errno));
        }
        if (n == 0) {
            /* Whatever complete frames arrived before the end still count. */
            if (w->state == WSC_HANDSHAKE)
                parse_handshake(w);
            if (w->state == WSC_OPEN)
                parse_frames(w);
            return fail(w, "the server ended the connection");
        }
        if (buf_add(&w->in, chunk, (size_t)n) < 0)
            return fail(w, "out of memory");
        if (w->state == WSC_HANDSHAKE && parse_handshake(w) <= 0) {
            if (w->state == WSC_CLOSED)
                return -1;
            continue;
        }
        if (w->state == WSC_OPEN && parse_frames(w) < 0)
            return -1;
        if ((size_t)n < sizeof chunk && w->ssl == NULL)
            return 0;
    }
}

/* --------------------------------------------------------------- TLS */

static int tls_setup(wsc *w, const char *host, const wsc_tls_options *opt, char *err, size_t cap)
{
    const char *name = opt->name ? opt->name : host;
    w->ssl_ctx = SSL_CTX_new(TLS_client_method());
    if (w->ssl_ctx == NULL) {
        snprintf(err, cap, "TLS: no context");
        return -1;
    }
    if (opt->ca_file != NULL) {
        if (SSL_CTX_load_verify_locations(w->ssl_ctx, opt->ca_file, NULL) != 1) {
            snprintf(err, cap, "TLS: cannot load %s", opt->ca_file);
            return -1;
        }
        SSL_CTX_set_verify(w->ssl_ctx, SSL_VERIFY_PEER, NULL);
    }
    w->ssl = SSL_new(w->ssl_ctx);
    if (w->ssl == NULL || SSL_set_fd(w->ssl, w->fd) != 1) {
        snprintf(err, cap, "TLS: no connection");
        return -1;
    }
    SSL_set_mode(w->ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    X509_VERIFY_PARAM *param = SSL_get0_param(w->ssl);
    struct in_addr ip;
    if (inet_pton(AF_INET, name, &ip) == 1) {
        X509_VERIFY_PARAM_set1_ip_asc(param, name);
    } else {
        X509_VERIFY_PARAM_set1_host(param, name, 0);
        SSL_set_tlsext_host_name(w->ssl, name);
    }
    SSL_set_connect_state(w->ssl);
    return 0;
}

/* One step of the TLS handshake: 0 while under way, -1 when it failed. */
static int tls_step(wsc *w)
{
    ERR_clear_error();
    int r = SSL_connect(w->ssl);
    if (r == 1) {
        w->state = WSC_HANDSHAKE;
        return write_out(w);
    }
    int e = SSL_get_error(w->ssl, r);
    if (e == SSL_ERROR_WANT_READ) {
        w->tls_want = POLLIN;
        return 0;
    }
    if (e == SSL_ERROR_WANT_WRITE) {
        w->tls_want = POLLOUT;
        return 0;
    }
    long v = SSL_get_verify_result(w->ssl);
    unsigned long code = ERR_get_error();
    if (v != X509_V_OK)
        return fail(w, "TLS handshake: the certificate was refused: %s",
                    X509_verify_cert_error_string(v));
    const char *reason = code ? ERR_reason_error_string(code) : NULL;
    return fail(w, "TLS handshake failed: %s", reason ? reason : "the server ended the connection");
}

bool wsc_tls(const wsc *w)
{
    return w->ssl != NULL && w->state != WSC_TLS && w->state != WSC_CONNECTING;
}

/* ------------------------------------------------------- connections */

wsc *wsc_open(const char *host, int port, const char *path, char *err, size_t cap)
{
    return wsc_open_with(host, port, path, NULL, err, cap);
}

wsc *wsc_open_with(const char *host, int port, const char *path, const wsc_options *opt, char *err,
                   size_t cap)
{
    return wsc_open_tls(host, port, path, opt, NULL, err, cap);
}

wsc *wsc_open_tls(const char *host, int port, const char *path, const wsc_options *opt,
                  const wsc_tls_options *tls, char *err, size_t cap)
{
    wsc *w = calloc(1, sizeof *w);
    if (w == NULL) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    w->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (w->fd < 0) {
        snprintf(err, cap, "socket: %s", strerror(errno));
        free(w);
        return NULL;
    }
    int one = 1;
    setsockopt(w->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fcntl(w->fd, F_SETFL, fcntl(w->fd, F_GETFL) | O_NONBLOCK);
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
        snprintf(err, cap, "not an IPv4 address: %s", host);
        wsc_free(w);
        return NULL;
    }
    if (opt && opt->source) {
        struct sockaddr_in local = {0};
        local.sin_family = AF_INET;
        if (inet_pton(AF_INET, opt->source, &local.sin_addr) != 1 ||
            bind(w->fd, (struct sockaddr *)&local, sizeof local) < 0) {
            snprintf(err, cap, "cannot connect from %s: %s", opt->source, strerror(errno));
            wsc_free(w);
            return NULL;
        }
    }
    if (tls && tls_setup(w, host, tls, err, cap) != 0) {
        wsc_free(w);
        return NULL;
    }
    w->state = WSC_CONNECTING;
    if (connect(w->fd, (struct sockaddr *)&addr, sizeof addr) < 0 && errno != EINPROGRESS) {
        snprintf(err, cap, "connect %s:%d: %s", host, port, strerror(errno));
        wsc_free(w);
        return NULL;
    }
    uint8_t nonce[16];
    random_bytes(nonce, sizeof nonce);
    char key[32];
    wsc_base64(nonce, sizeof nonce, key);
    wsc_accept_key(key, w->accept);
    char origin[300] = "";
    if (opt && opt->origin)
        snprintf(origin, sizeof origin, "Origin: %s\r\n", opt->origin);
    char req[1024];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                     "%sSec-WebSocket-Version: 13\r\n\r\n",
                     path, host, port, key, origin);
    if (buf_add(&w->out, req, (size_t)n) < 0) {
        snprintf(err, cap, "out of memory");
        wsc_free(w);
        return NULL;
    }
    return w;
}

wsc *wsc_connect(const char *host, int port, const char *path, int timeout_ms, char *err,
                 size_t cap)
{
    return wsc_connect_with(host, port, path, NULL, timeout_ms, err, cap);
}

wsc *wsc_connect_with(const char *host, int port, const char *path, const wsc_options *opt,
                      int timeout_ms, char *err, size_t cap)
{
    return wsc_connect_tls(host, port, path, opt, NULL, timeout_ms, err, cap);
}

wsc *wsc_connect_tls(const char *host, int port, const char *path, const wsc_options *opt,
                     const wsc_tls_options *tls, int timeout_ms, char *err, size_t cap)
{
    wsc *w = wsc_open_tls(host, port, path, opt, tls, err, cap);
    if (w == NULL)
        return NULL;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (w->state != WSC_OPEN) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long spent = (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
        if (spent >= timeout_ms) {
            snprintf(err, cap, "no handshake within %d ms", timeout_ms);
            wsc_free(w);
            return NULL;
        }
        struct pollfd pfd = {w->fd, wsc_events(w), 0};
        if (poll(&pfd, 1, (int)(timeout_ms - spent)) > 0 && wsc_service(w, pfd.revents) < 0) {
            snprintf(err, cap, "%s", w->error);
            wsc_free(w);
            return NULL;
        }
    }
    return w;
}

void wsc_free(wsc *w)
{
    if (w == NULL)
        return;
    SSL_free(w->ssl);
    SSL_CTX_free(w->ssl_ctx);
    if (w->fd >= 0)
        close(w->fd);
    for (msg_node *m = w->head, *next; m; m = next) {
        next = m->next;
        free(m->msg.data);
        free(m);
    }
    free(w->in.p);
    free(w->out.p);
    free(w->frag.p);
    free(w);
}

int wsc_fd(const wsc *w)
{
    return w->fd;
}

int wsc_state(const wsc *w)
{
    return w->state;
}

int wsc_close_code(const wsc *w)
{
    return w->close_code;
}

const char *wsc_error(const wsc *w)
{
    return w->error;
}

short wsc_events(const wsc *w)
{
    if (w->state == WSC_CLOSED || w->fd < 0)
        return 0;
    if (w->state == WSC_CONNECTING)
        return POLLOUT;
    if (w->state == WSC_TLS)
        return w->tls_want;
    return (short)(POLLIN | (wsc_queued(w) ? POLLOUT : 0));
}

int wsc_service(wsc *w, short revents)
{
    if (w->state == WSC_CLOSED || w->fd < 0)
        return -1;
    if (w->state == WSC_CONNECTING) {
        if (!(revents & (POLLOUT | POLLERR | POLLHUP)))
            return 0;
        int so = 0;
        socklen_t sl = sizeof so;
        getsockopt(w->fd, SOL_SOCKET, SO_ERROR, &so, &sl);
        if (so != 0)
            return fail(w, "connect: %s", strerror(so));
        if (w->ssl != NULL) {
            w->state = WSC_TLS;
            return tls_step(w);
        }
        w->state = WSC_HANDSHAKE;
        revents |= POLLOUT;
    }
    if (w->state == WSC_TLS) {
        if (!(revents & (POLLIN | POLLOUT | POLLERR | POLLHUP)))
            return 0;
        if (tls_step(w) < 0 || w->state == WSC_TLS)
            return w->state == WSC_CLOSED ? -1 : 0;
        /* The server may already have answered: read what there is. */
        revents |= POLLIN;
    }
    if ((revents & POLLOUT) && write_out(w) < 0)
        return -1;
    if (revents & (POLLIN | POLLHUP | POLLERR))
        return read_in(w);
    return 0;
}

int wsc_next(wsc *w, wsc_msg *out)
{
    msg_node *m = w->head;
    if (m == NULL)
        return 0;
    w->head = m->next;
    if (w->head == NULL)
        w->tail = NULL;
    *out = m->msg;
    free(m);
    return 1;
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

int wsc_recv(wsc *w, wsc_msg *out, int timeout_ms)
{
    long deadline = now_ms() + timeout_ms;
    for (;;) {
        if (wsc_next(w, out))
            return 1;
        if (w->state == WSC_CLOSED)
            return -1;
        long left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd pfd = {w->fd, wsc_events(w), 0};
        int n = poll(&pfd, 1, (int)left);
        if (n > 0)
            wsc_service(w, pfd.revents);
    }
}

int wsc_flush(wsc *w, int timeout_ms)
{
    long deadline = now_ms() + timeout_ms;
    while (wsc_queued(w) > 0) {
        if (w->state == WSC_CLOSED)
            return -1;
        long left = deadline - now_ms();
        if (left <= 0)
            return 1;
        struct pollfd pfd = {w->fd, wsc_events(w), 0};
        if (poll(&pfd, 1, (int)left) > 0 && wsc_service(w, pfd.revents) < 0)
            return -1;
    }
    return 0;
}
