/*
 * server.c - barbu serve: one libwebsockets context with one vhost that
 * serves the web client's files at / (http.c) and the protocol at /ws, over TLS
 * when given a certificate (tls.c checks the files first); a one-second
 * tick; start-up from the store and an orderly shutdown on SIGINT/SIGTERM.
 *
 * The loop is libuv's, which waits with epoll on Linux, and ours: lws runs
 * in it as a guest (a "foreign" loop, LWS_SERVER_OPTION_LIBUV).  lws's own
 * loop calls poll() over every descriptor on each turn, a cost that grows
 * with the connections whether they are busy or not (about 30% of the
 * server's time at 3,000 tables); epoll hands back only the descriptors
 * that are ready.  The loop being ours, so are the signals (uv_signal_t,
 * delivered as events in the loop rather than in a handler) and the order
 * of the shutdown, which must close every libuv handle before the loop.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <sodium.h>
#include <uv.h>

#include "internal.h"

/* The server's event loop and the signals it watches.  SIGINT and SIGTERM
 * reach the loop as events: on_signal runs between two callbacks, never in
 * the middle of one, so it may do anything; it stops the loop and
 * barbu_serve goes on with the shutdown. */
typedef struct {
    uv_loop_t loop;
    uv_signal_t sigint;
    uv_signal_t sigterm;
    bool signals; /* the two above are initialised (and must be closed) */
    /* At the stop: a check after each turn of the loop, a deadline. */
    uv_check_t goodbye;
    uv_timer_t goodbye_timer;
    bool goodbye_on; /* the two above are initialised */
    /* The lws context until lws has destroyed it all (info.pcontext): in a
     * foreign loop its destruction takes two calls around a run of the loop. */
    struct lws_context *ctx;
} srv_loop;

static void on_signal(uv_signal_t *handle, int signum)
{
    (void)signum;
    uv_stop(handle->loop);
}

static int loop_start(srv_loop *l)
{
    memset(l, 0, sizeof *l);
    if (uv_loop_init(&l->loop) != 0)
        return -1;
    if (uv_signal_init(&l->loop, &l->sigint) != 0)
        return 0;
    if (uv_signal_init(&l->loop, &l->sigterm) != 0) {
        uv_close((uv_handle_t *)&l->sigint, NULL);
        return 0;
    }
    l->signals = true;
    return 0;
}

/* Destroys the lws context, runs the loop until nothing is left in it, then
 * closes it: every handle, lws's included, must be closed first, or the
 * loop's memory outlives it.  In a foreign loop, lws 4.1's first
 * lws_context_destroy closes the connections and starts closing its libuv
 * handles; their close callbacks run in the loop; the second call, once
 * they are closed, frees the rest (and sets l->ctx to NULL). */
static void loop_end(srv_loop *l)
{
    if (l->ctx)
        lws_context_destroy(l->ctx);
    if (l->signals) {
        uv_close((uv_handle_t *)&l->sigint, NULL);
        uv_close((uv_handle_t *)&l->sigterm, NULL);
        l->signals = false;
    }
    if (l->goodbye_on) {
        uv_close((uv_handle_t *)&l->goodbye, NULL);
        uv_close((uv_handle_t *)&l->goodbye_timer, NULL);
        l->goodbye_on = false;
    }
    uv_run(&l->loop, UV_RUN_DEFAULT);
    if (l->ctx) {
        lws_context_destroy(l->ctx);
        uv_run(&l->loop, UV_RUN_DEFAULT);
    }
    if (uv_loop_close(&l->loop) != 0)
        fprintf(stderr, "barbu serve: the event loop still had handles open at the end\n");
}

/* ---------------------------------------------------------------- HTTP */

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    switch (reason) {
    case LWS_CALLBACK_HTTP:
    case LWS_CALLBACK_HTTP_WRITEABLE:
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
    case LWS_CALLBACK_CLOSED_HTTP:
    case LWS_CALLBACK_HTTP_BODY:
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return srv_http_callback(wsi, reason, user, in, len);
    default:
        return srv_ws_callback(wsi, reason, user, in, len);
    }
}

/* ----------------------------------------------------------------- tick */

static void tick(lws_sorted_usec_list_t *sul)
{
    srv_server *srv = lws_container_of(sul, srv_server, tick_sul);
    if (srv->stopping)
        return;
    srv->ticks++;
    srv_lobby_forget(srv); /* a change no listed announced lasts a second at most */
    srv_lobby_flush(srv);
    srv_conns_tick(srv);
    srv_lobby_chat_tick(srv);
    srv_tables_tick(srv);
    srv_node_tick(srv);
    srv_analyses_tick(srv);
    if (srv->ticks % 10 == 0) {
        srv_sessions_tick(srv);
        srv_auth_tick(srv);
    }
    lws_sul_schedule(srv->ctx, 0, &srv->tick_sul, tick, LWS_US_PER_SEC);
}

/* ------------------------------------------------------------- listening */

/* Splits "HOST:PORT" ("[::1]:2118" for IPv6). */
static int parse_listen(const char *listen, char *host, size_t cap, int *port)
{
    const char *colon = strrchr(listen, ':');
    if (colon == NULL || colon == listen)
        return -1;
    const char *h = listen;
    size_t n = (size_t)(colon - listen);
    if (h[0] == '[' && n >= 2 && h[n - 1] == ']') {
        h++;
        n -= 2;
    }
    if (n == 0 || n >= cap)
        return -1;
    memcpy(host, h, n);
    host[n] = '\0';
    char *end;
    long p = strtol(colon + 1, &end, 10);
    if (colon[1] == '\0' || *end != '\0' || p < 0 || p > 65535)
        return -1;
    *port = (int)p;
    return 0;
}

static void lws_log_line(int level, const char *line)
{
    (void)level;
    fprintf(stderr, "barbu serve: lws: %s", line);
}

/* ---------------------------------------------------------------- limits */

/* Raises the soft limit on descriptors to the hard one and returns it:
 * every connection is a descriptor. */
static long raise_nofile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 1024;
    if (rl.rlim_cur < rl.rlim_max) {
        rlim_t want = rl.rlim_max;
        rl.rlim_cur = want;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
            getrlimit(RLIMIT_NOFILE, &rl);
    }
    return rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1000000 ? 1000000 : (long)rl.rlim_cur;
}

static void set_limits(srv_server *srv, const barbu_serve_options *o)
{
    long nofile = raise_nofile();
    long room = (nofile - 64) / 2;
    if (o->max_conns > room)
        fprintf(stderr,
                "barbu serve: --max-conns %d is more than the descriptors allow (%ld): "
                "%ld it is\n",
                o->max_conns, nofile, room > 1 ? room : 1);
    srv->conns_wanted = o->max_conns > 0 ? o->max_conns : SRV_CONNS_MAX;
    srv_conns_cap(srv);
    srv->conns_per_addr = o->max_conns_per_address > 0 ? o->max_conns_per_address : SRV_CONNS_ADDR;
    srv->hello_timeout = o->hello_timeout > 0 ? o->hello_timeout : SRV_HELLO_TIMEOUT;
    srv->queue_limit = o->queue_limit > 0 ? (size_t)o->queue_limit : (size_t)SRV_QUEUE_LIMIT;
    srv->queue_budget = o->queue_budget > 0 ? (size_t)o->queue_budget : (size_t)SRV_QUEUE_BUDGET;
    srv->sessions_per_addr =
        o->sessions_per_address > 0 ? o->sessions_per_address : SRV_SESSIONS_ADDR;
    srv->tables_per_addr = o->tables_per_address > 0 ? o->tables_per_address : SRV_TABLES_ADDR;
    srv->waiting_idle = o->waiting_idle > 0 ? o->waiting_idle : SRV_WAITING_IDLE;
    srv->create_interval = o->create_interval != 0 ? o->create_interval : SRV_CREATE_SLOW;
    srv->seat_keep = o->seat_keep > 0 ? o->seat_keep : SRV_SEAT_KEEP;
    srv->chat_tokens = SRV_CHAT_ALL_BURST;
    srv->auth_queue = SRV_AUTH_QUEUE;
    double days = o->token_days > 0 ? o->token_days : SRV_TOKEN_DAYS;
    srv->token_life = (int64_t)(days * 86400);
    if (srv->token_life < 1)
        srv->token_life = 1;
    srv->signin_key_fails = SRV_SIGNIN_KEY_FAILS;
    srv->signin_key_window = SRV_SIGNIN_KEY_WINDOW;
    srv->signin_addr_attempts = SRV_SIGNIN_ADDR_ATTEMPTS;
    srv->signin_addr_window = SRV_SIGNIN_ADDR_WINDOW;
    srv->signup_addr_accounts = SRV_SIGNUP_ADDR;
    srv->signup_addr_window = SRV_SIGNUP_ADDR_WINDOW;
}

/* ---------------------------------------------------------------- serve */

static void addrs_free(srv_server *srv)
{
    for (size_t i = 0; i < srv->addrs.n_buckets; i++)
        for (srv_map_entry *e = srv->addrs.buckets[i]; e; e = e->next)
            free(e->value);
    srv_map_free(&srv->addrs);
}

/* The byes' wait: the loop stops after the turn in which the last
 * connection went (each closes after its bye), or after a second. */
static void goodbye_check(uv_check_t *check)
{
    srv_server *srv = check->data;
    if (srv->conns == NULL)
        uv_stop(check->loop);
}

static void goodbye_timeout(uv_timer_t *timer)
{
    uv_stop(timer->loop);
}

static void say_goodbye(srv_server *srv, srv_loop *l)
{
    srv->stopping = true;
    for (srv_conn *c = srv->conns; c; c = c->next)
        srv_bye(c, "shutdown");
    if (srv->conns == NULL)
        return;
    /* Give the byes a moment to go out.  A second SIGINT or SIGTERM stops
     * the loop too, and so cuts the wait short. */
    if (uv_check_init(&l->loop, &l->goodbye) != 0)
        return;
    if (uv_timer_init(&l->loop, &l->goodbye_timer) != 0) {
        uv_close((uv_handle_t *)&l->goodbye, NULL);
        return;
    }
    l->goodbye_on = true;
    l->goodbye.data = srv;
    uv_check_start(&l->goodbye, goodbye_check);
    uv_timer_start(&l->goodbye_timer, goodbye_timeout, 1000, 0);
    uv_run(&l->loop, UV_RUN_DEFAULT);
    uv_check_stop(&l->goodbye);
    uv_timer_stop(&l->goodbye_timer);
}

int barbu_serve(const barbu_serve_options *options)
{
    char host[128];
    int port;
    if (parse_listen(options->listen ? options->listen : "127.0.0.1:2118", host, sizeof host,
                     &port) != 0) {
        fprintf(stderr, "barbu serve: --listen wants HOST:PORT, not '%s'\n", options->listen);
        return 1;
    }
    /* Keys of fair deals come from libsodium's random source: no server
     * without it. */
    if (sodium_init() < 0) {
        fprintf(stderr, "barbu serve: libsodium cannot start (sodium_init failed), so there is "
                        "no random source for the keys of fair deals\n");
        return 1;
    }
    bool tls = options->tls_cert != NULL || options->tls_key != NULL;
    if (tls) {
        char why[600];
        if (options->tls_cert == NULL || options->tls_key == NULL) {
            fprintf(stderr, "barbu serve: TLS needs both --tls-cert and --tls-key\n");
            return 1;
        }
        if (srv_tls_check(options->tls_cert, options->tls_key, why, sizeof why) != 0) {
            fprintf(stderr, "barbu serve: %s\n", why);
            return 1;
        }
    }
    char err[256], shown[512];
    srv_db_shown(options->db, shown, sizeof shown);
    if (options->node && !store_is_pg(options->db)) {
        fprintf(stderr, "barbu serve: --node needs a PostgreSQL database (--db postgresql://...), "
                        "not a SQLite file\n");
        return 1;
    }
    /* A SQLite file or a PostgreSQL URL; the SQLite store keeps its own
     * machinery (its file lock, its checkpoint thread) to itself. */
    store *db = store_open(options->db, err, sizeof err);
    if (db == NULL) {
        fprintf(stderr, "barbu serve: cannot open the database %s: %s\n", shown, err);
        return 1;
    }

    srv_server *srv = calloc(1, sizeof *srv);
    if (srv == NULL) {
        store_close(db);
        return 1;
    }
    srv->opt = options;
    srv->store = db;
    srv->quiet = options->quiet;
    srv->max_tables = options->max_tables > 0 ? options->max_tables : SRV_MAX_TABLES;
    srv->max_bot_tables = options->max_bot_tables > 0    ? options->max_bot_tables
                          : options->max_bot_tables == 0 ? SRV_BOT_TABLES_MAX
                                                         : 0;
    set_limits(srv, options);
    int status = 1;
    srv_loop loop;
    if (loop_start(&loop) != 0) {
        fprintf(stderr, "barbu serve: cannot start the event loop (libuv)\n");
        store_close(db);
        free(srv);
        return 1;
    }

    /* The folder resolved once: a file is served only if its own resolved
     * path lies inside it. */
    if (options->web_dir && (srv->web_root = srv_web_root(options->web_dir)) == NULL) {
        fprintf(stderr, "barbu serve: cannot open the web folder %s\n", options->web_dir);
        goto out;
    }
    /* A node restores no table at start: it adopts the tables nobody
     * holds, a second after it listens (node.c). */
    if (srv_mod_start(srv) != 0 ||
        (options->node == NULL && (srv_node_alone_ok(srv) != 0 || srv_restore(srv) != 0)))
        goto out;

    lws_set_log_level(options->quiet ? 0 : LLL_ERR, lws_log_line);

    static struct lws_protocols protocols[] = {
        {"barbu", callback, sizeof(srv_http_pss), 0, 0, NULL, 0},
        {NULL, NULL, 0, 0, 0, NULL, 0},
    };
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_LIBUV;
    /* lws as a guest in our loop (see the top of the file). */
    void *foreign_loops[1] = {&loop.loop};
    info.foreign_loops = foreign_loops;
    info.pcontext = &loop.ctx;
    info.user = srv;
    info.protocols = protocols;
    info.port = port;
    info.vhost_name = "barbu";
    /* A numeric IPv4 address binds that address only (lws binds every
     * interface unless IPv6 is off); 0.0.0.0 serves every IPv4 interface. */
    bool v6 = strchr(host, ':') != NULL;
    if (!v6)
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    if (strcmp(host, "0.0.0.0") != 0 && strcmp(host, "::") != 0)
        info.iface = host;
    /* Every HTTP answer carries them, the WebSocket's refusals included. */
    info.headers = srv_http_headers();
    /* A handshake that stalls holds a descriptor: it has as long as hello. */
    info.timeout_secs = (unsigned int)(srv->hello_timeout < 5 ? 5 : srv->hello_timeout);
    /* TLS on the vhost: every connection to the port must begin with a
     * TLS handshake (plain http:// and ws:// are refused, not redirected). */
    if (tls) {
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.ssl_cert_filepath = options->tls_cert;
        info.ssl_private_key_filepath = options->tls_key;
        /* HTTP/1.1 only: the pages and the WebSocket's Upgrade are served
         * the same as over plain TCP (lws would offer h2 by default, where
         * the WebSocket is another protocol, RFC 8441). */
        info.alpn = "http/1.1";
    }

    srv->ctx = loop.ctx = lws_create_context(&info);
    if (srv->ctx == NULL) {
        fprintf(stderr, "barbu serve: cannot start libwebsockets (with its libuv event library, "
                        "package libwebsockets-evlib-uv)\n");
        goto out;
    }
    srv->vhost = lws_create_vhost(srv->ctx, &info);
    if (srv->vhost == NULL) {
        fprintf(stderr, "barbu serve: cannot listen on %s:%d%s\n", host, port,
                tls ? " (or the TLS library refused the certificate)" : "");
        goto out;
    }
    srv->bots = srv_bots_start(srv->ctx, options->bot_threads);
    if (srv->bots == NULL) {
        fprintf(stderr, "barbu serve: cannot start the computer players' threads\n");
        goto out;
    }
    srv->auth = srv_auth_start(srv->ctx);
    if (srv->auth == NULL) {
        fprintf(stderr, "barbu serve: cannot start the password thread\n");
        goto out;
    }
    if (srv_club_start(srv) != 0)
        goto out;
    if (srv_analyses_start(srv) != 0)
        goto out;

    if (!loop.signals || uv_signal_start(&loop.sigint, on_signal, SIGINT) != 0 ||
        uv_signal_start(&loop.sigterm, on_signal, SIGTERM) != 0) {
        fprintf(stderr, "barbu serve: cannot watch for SIGINT and SIGTERM\n");
        goto out;
    }
    signal(SIGPIPE, SIG_IGN);
    /* A file size limit reached is a write that fails (EFBIG), which the
     * store reports like a full disk, not a reason to die. */
    signal(SIGXFSZ, SIG_IGN);

    int real_port = lws_get_vhost_listen_port(srv->vhost);
    printf("barbu serve: listening on %s://%s%s%s:%d/ws\n", tls ? "wss" : "ws", v6 ? "[" : "", host,
           v6 ? "]" : "", real_port);
    if (options->web_dir)
        printf("barbu serve: the browser client is at %s://%s%s%s:%d/\n", tls ? "https" : "http",
               v6 ? "[" : "", strcmp(host, "0.0.0.0") == 0 ? "127.0.0.1" : host, v6 ? "]" : "",
               real_port);
    fflush(stdout);
    if (srv_node_start(srv, host, real_port, tls) != 0)
        goto out;
    srv_log(srv, "%d tables restored, %d computer player threads, database %s", srv->n_tables,
            srv_bots_threads(srv->bots), shown);
    if (!srv_analyses_on(srv))
        srv_log(srv, "game analyses are off (--analyses 0)");
    srv_log(srv, "at most %d connections, %d from one address", srv->max_conns,
            srv->conns_per_addr);

    lws_sul_schedule(srv->ctx, 0, &srv->tick_sul, tick, LWS_US_PER_SEC);
    for (srv_table *t = srv->tables; t; t = t->next)
        srv_table_schedule(t);

    /* Until SIGINT or SIGTERM: on_signal stops it. */
    uv_run(&loop.loop, UV_RUN_DEFAULT);

    srv_log(srv, "shutting down");
    /* No computer player may be asked to think once its threads are gone:
     * a table's delay timer can still fire while the byes go out. */
    srv->stopping = true;
    srv_timers_stop(srv);
    srv_bots_stop(srv->bots);
    srv->bots = NULL;
    srv_auth_stop(srv->auth);
    srv->auth = NULL;
    /* An analysis under way is cancelled at its next decision: nothing of
     * it is kept, and it is made again when asked.  One that finished
     * meanwhile is kept. */
    srv_analyses_stop(srv);
    /* A node gives its tables up before its clients go: they find them on
     * another node at once. */
    srv_node_stop(srv);
    say_goodbye(srv, &loop);
    status = 0;

out:
    srv->stopping = true;
    srv_bots_stop(srv->bots);
    srv->bots = NULL;
    srv_auth_stop(srv->auth);
    srv->auth = NULL;
    srv_analyses_stop(srv);
    srv_node_stop(srv);
    if (srv->ctx) {
        srv_club_stop(srv);
        lws_sul_cancel(&srv->tick_sul);
        lws_sul_cancel(&srv->budget_sul);
        srv_timers_stop(srv);
        /* loop_end destroys it. */
        srv->ctx = NULL;
    }
    loop_end(&loop);
    while (srv->tables)
        srv_table_free(srv->tables);
    srv_map_free(&srv->table_map);
    srv_node_free(srv);
    srv_lobby_forget(srv);
    srv_sessions_free(srv);
    srv_auth_free(srv);
    srv_mod_free(srv);
    addrs_free(srv);
    store_close(srv->store);
    free(srv->web_root);
    free(srv);
    return status;
}
