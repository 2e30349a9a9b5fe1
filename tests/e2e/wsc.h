/*
 * wsc.h - a small WebSocket client (RFC 6455) for the tests and the load
 * benchmark: the HTTP Upgrade handshake, masked frames out, fragmented
 * messages reassembled, pings answered, the close handshake reported.
 *
 * A connection is a nonblocking socket with an outbound buffer.  The load
 * program drives many of them from one poll loop (wsc_events, wsc_service,
 * wsc_next); the tests use the blocking helpers (wsc_connect, wsc_recv),
 * which are the same calls in a loop.  The raw senders write what a proper
 * client never would, for the hostile tests.
 */
#ifndef BARBU_WSC_H
#define BARBU_WSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wsc wsc;

enum {
    WSC_CONNECTING, /* TCP connect under way */
    WSC_HANDSHAKE,  /* the Upgrade request sent, waiting for the 101 */
    WSC_OPEN,       /* messages flow */
    WSC_CLOSED,     /* a close frame was received, or the socket ended */
    WSC_TLS,        /* TCP connected, the TLS handshake under way (then HANDSHAKE) */
};

enum {
    WSC_OP_CONT = 0x0,
    WSC_OP_TEXT = 0x1,
    WSC_OP_BINARY = 0x2,
    WSC_OP_CLOSE = 0x8,
    WSC_OP_PING = 0x9,
    WSC_OP_PONG = 0xA,
};

/* One received message: data is malloc'd and NUL-terminated (not counted in
 * len); free it with free(). */
typedef struct wsc_msg {
    char *data;
    size_t len;
    int opcode; /* WSC_OP_TEXT or WSC_OP_BINARY */
} wsc_msg;

/* Starts a connection to host:port (a numeric IPv4 address) and queues the
 * Upgrade request for path.  NULL on failure, with the reason in err. */
wsc *wsc_open(const char *host, int port, const char *path, char *err, size_t cap);

/* What wsc_open_with may add to a connection: the local address to connect
 * from (any 127.x.y.z reaches the loopback server, as a different client
 * address), and an Origin header.  NULL fields are left out. */
typedef struct wsc_options {
    const char *source; /* a numeric IPv4 address to bind, or NULL */
    const char *origin; /* the Origin header's value, or NULL */
} wsc_options;

/* TLS (OpenSSL): wss:// instead of ws://.  The server's certificate must
 * chain to ca_file (PEM) and name `name` (a host name or an IPv4 address;
 * NULL: the host connected to); without a ca_file it is not checked. */
typedef struct wsc_tls_options {
    const char *ca_file;
    const char *name;
} wsc_tls_options;

/* wsc_open with options (opt may be NULL). */
wsc *wsc_open_with(const char *host, int port, const char *path, const wsc_options *opt, char *err,
                   size_t cap);

/* wsc_open_with over TLS when tls is not NULL. */
wsc *wsc_open_tls(const char *host, int port, const char *path, const wsc_options *opt,
                  const wsc_tls_options *tls, char *err, size_t cap);

/* wsc_open, then waits up to timeout_ms for the handshake to complete. */
wsc *wsc_connect(const char *host, int port, const char *path, int timeout_ms, char *err,
                 size_t cap);
/* wsc_connect with options (opt may be NULL). */
wsc *wsc_connect_with(const char *host, int port, const char *path, const wsc_options *opt,
                      int timeout_ms, char *err, size_t cap);

/* wsc_connect_with over TLS when tls is not NULL. */
wsc *wsc_connect_tls(const char *host, int port, const char *path, const wsc_options *opt,
                     const wsc_tls_options *tls, int timeout_ms, char *err, size_t cap);

/* Closes the socket at once (no close frame) and frees the connection.
 * Accepts NULL. */
void wsc_free(wsc *w);

int wsc_fd(const wsc *w);
int wsc_state(const wsc *w);

/* Why the connection ended: the close code received (1000, 1002, ...), 0 if
 * the socket ended without one; and a sentence. */
int wsc_close_code(const wsc *w);
const char *wsc_error(const wsc *w);

/* The poll events the connection waits for (POLLIN, and POLLOUT while bytes
 * are queued or the connect is under way). */
short wsc_events(const wsc *w);

/* Does the work poll reported: completes the connect, writes what is queued,
 * reads and parses what arrived.  Returns 0, or -1 once the connection is
 * closed (messages received before the end can still be taken). */
int wsc_service(wsc *w, short revents);

/* Takes the next complete message: 1 and *out filled, or 0 when none. */
int wsc_next(wsc *w, wsc_msg *out);

/* Waits up to timeout_ms for the next message: 1 with *out filled, 0 on
 * timeout, -1 when the connection closed first. */
int wsc_recv(wsc *w, wsc_msg *out, int timeout_ms);

/* Queues a masked text message and writes what the socket takes now (the
 * rest goes out from wsc_service).  Returns 0, or -1 when closed. */
int wsc_send_text(wsc *w, const char *data, size_t len);

/* Writes everything queued, waiting up to timeout_ms.  Returns 0 when the
 * queue is empty, 1 when bytes remain, -1 when the connection failed. */
int wsc_flush(wsc *w, int timeout_ms);

/* Bytes queued and not yet written. */
size_t wsc_queued(const wsc *w);

/* Sends a close frame with a code (the socket stays open until the peer
 * closes it; see wsc_free). */
int wsc_send_close(wsc *w, int code);

/* Whether the connection runs over TLS, its handshake done. */
bool wsc_tls(const wsc *w);

/* --- raw sends for the hostile tests */

/* One frame exactly as described: opcode, FIN bit, masked or not. */
int wsc_send_frame(wsc *w, int opcode, bool fin, bool masked, const void *data, size_t len);

/* A masked frame header that announces claimed_len bytes of payload,
 * followed by len bytes of it. */
int wsc_send_frame_claim(wsc *w, int opcode, uint64_t claimed_len, const void *data, size_t len);

/* Bytes as they are, no framing. */
int wsc_send_raw(wsc *w, const void *data, size_t len);

/* --- the primitives of the handshake, exposed for their own test */

void wsc_sha1(const void *data, size_t len, uint8_t digest[20]);
/* Writes the base64 of data into out (4 * ceil(len / 3) + 1 bytes). */
void wsc_base64(const uint8_t *data, size_t len, char *out);
/* The Sec-WebSocket-Accept for a Sec-WebSocket-Key (29 bytes with the NUL). */
void wsc_accept_key(const char *key, char out[29]);

#endif
