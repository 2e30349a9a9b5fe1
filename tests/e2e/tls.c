/*
 * tls.c - barbu serve --tls-cert/--tls-key, end to end.  The test makes its
 * own certificate (Debian's openssl program) in its temporary folder, then:
 *   game   a whole game over wss:// (a real TLS handshake, the certificate
 *          checked against that certificate and the name 127.0.0.1), a
 *          kibitzer beside it, the record; the pages over https:// (GET /
 *          and another file); plain ws:// and http:// to the same port fail;
 *          a client that trusts another certificate refuses the server's
 *   start  what stops the server at start, with a sentence and without a
 *          database made: one flag without the other, a missing file, a
 *          key of another certificate, a file that is no certificate
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

static char cert[400], key[400], other_cert[400], other_key[400];

/* A self-signed P-256 certificate for localhost and 127.0.0.1, valid two
 * days, made by the openssl program. */
static void make_cert(const char *name, char *cert_out, char *key_out, size_t cap)
{
    snprintf(cert_out, cap, "%s/%s-cert.pem", e2e_tmpdir(), name);
    snprintf(key_out, cap, "%s/%s-key.pem", e2e_tmpdir(), name);
    char cmd[1400];
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes "
             "-subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -days 2 "
             "-keyout '%s' -out '%s' 2>/dev/null",
             key_out, cert_out);
    REQUIRE(system(cmd) == 0, "openssl makes a test certificate (is Debian's openssl installed?)");
}

/* ------------------------------------------------------------ https */

/* GET path over TLS from 127.0.0.1:port, the certificate checked against
 * ca: the status (200 ...), or -1 when the connection or the handshake
 * fails.  *body gets the body (malloc'd) when body is not NULL. */
static int https_get(int port, const char *path, const char *ca, char **body, char *err, size_t cap)
{
    int status = -1;
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    SSL *ssl = NULL;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (ctx == NULL || fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        snprintf(err, cap, "connect: %s", strerror(errno));
        goto out;
    }
    SSL_CTX_load_verify_locations(ctx, ca, NULL);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    ssl = SSL_new(ctx);
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), "127.0.0.1");
    SSL_set_fd(ssl, fd);
    if (SSL_connect(ssl) != 1) {
        long v = SSL_get_verify_result(ssl);
        snprintf(err, cap, "TLS handshake: %s",
                 v != X509_V_OK ? X509_verify_cert_error_string(v) : "failed");
        goto out;
    }
    char req[300];
    int n =
        snprintf(req, sizeof req,
                 "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", path, port);
    SSL_write(ssl, req, n);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    char chunk[16384];
    int r;
    while ((r = SSL_read(ssl, chunk, sizeof chunk)) > 0)
        fwrite(chunk, 1, (size_t)r, f);
    fclose(f);
    if (strncmp(text, "HTTP/1.1 ", 9) == 0)
        status = atoi(text + 9);
    else
        snprintf(err, cap, "the answer is not HTTP/1.1: %.40s", text);
    if (body != NULL) {
        char *start = strstr(text, "\r\n\r\n");
        *body = strdup(start ? start + 4 : "");
    }
    free(text);
out:
    SSL_free(ssl);
    SSL_CTX_free(ctx);
    if (fd >= 0)
        close(fd);
    ERR_clear_error();
    return status;
}

/* A plain HTTP GET to the TLS port: whatever comes back (at most cap - 1
 * bytes), "" when the server closes without an HTTP answer. */
static void plain_get(int port, char *out, size_t cap)
{
    out[0] = '\0';
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0) {
        const char req[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        if (send(fd, req, sizeof req - 1, MSG_NOSIGNAL) > 0) {
            size_t got = 0;
            ssize_t r;
            while (got + 1 < cap && (r = recv(fd, out + got, cap - 1 - got, 0)) > 0)
                got += (size_t)r;
            out[got] = '\0';
        }
    }
    close(fd);
}

/* ------------------------------------------------------------- game */

static void scenario_game(void)
{
    e2e_server srv;
    const char *extra[] = {"--tls-cert", cert, "--tls-key", key, NULL};
    e2e_server_start_with(&srv, "tls.db", extra);
    FILE *f = fopen(srv.out, "r");
    char line[300] = "";
    REQUIRE(f != NULL && fgets(line, sizeof line, f) != NULL, "the server's first line");
    fclose(f);
    CHECK(strncmp(line, "barbu serve: listening on wss://127.0.0.1:", 42) == 0,
          "the startup line says wss:// (%.60s)", line);
    e2e_note("server on port %d", srv.port);

    /* Plain ws:// and http:// to the TLS port get nothing. */
    char err[300];
    wsc *plain = wsc_connect("127.0.0.1", srv.port, "/ws", 3000, err, sizeof err);
    CHECK(plain == NULL, "a plain ws:// connection to the TLS port fails (%s)",
          plain ? "it opened" : err);
    wsc_free(plain);
    char answer[256];
    plain_get(srv.port, answer, sizeof answer);
    CHECK(strstr(answer, "200 OK") == NULL && strstr(answer, "<html") == NULL,
          "a plain http:// GET of the TLS port gets no page (%zu bytes back)", strlen(answer));

    /* A client that trusts another certificate refuses this one. */
    wsc_tls_options wrong = {other_cert, NULL};
    wsc *w = wsc_connect_tls("127.0.0.1", srv.port, "/ws", NULL, &wrong, 3000, err, sizeof err);
    CHECK(w == NULL && strstr(err, "certificate") != NULL,
          "a client trusting another certificate refuses the server's (%s)", w ? "opened" : err);
    wsc_free(w);
    /* The name is checked too: the certificate does not name 127.0.0.2. */
    wsc_tls_options name = {cert, "127.0.0.2"};
    w = wsc_connect_tls("127.0.0.1", srv.port, "/ws", NULL, &name, 3000, err, sizeof err);
    CHECK(w == NULL && strstr(err, "certificate") != NULL,
          "a client expecting another address refuses the certificate (%s)", w ? "opened" : err);
    wsc_free(w);

    /* The pages over https://. */
    char *body = NULL;
    int st = https_get(srv.port, "/", cert, &body, err, sizeof err);
    CHECK(st == 200 && body && strstr(body, "<html") != NULL,
          "GET https://127.0.0.1:%d/ is a page (status %d %s)", srv.port, st, st < 0 ? err : "");
    free(body);
    body = NULL;
    st = https_get(srv.port, "/rules/uk", cert, &body, err, sizeof err);
    CHECK(st == 200 && body && strstr(body, "Barbu rules: uk") != NULL,
          "GET https://.../rules/uk is the rules page (status %d %s)", st, st < 0 ? err : "");
    free(body);
    char web_js[600];
    snprintf(web_js, sizeof web_js, "%s", e2e_barbu());
    char *slash = strrchr(web_js, '/');
    if (slash != NULL) {
        snprintf(slash, sizeof web_js - (size_t)(slash - web_js), "/web/app.js");
        if (access(web_js, R_OK) == 0) {
            body = NULL;
            st = https_get(srv.port, "/app.js", cert, &body, err, sizeof err);
            struct stat sb;
            CHECK(st == 200 && body && stat(web_js, &sb) == 0 && strlen(body) == (size_t)sb.st_size,
                  "GET https://.../app.js is the browser client's script, whole (status %d)", st);
            free(body);
        } else {
            e2e_note("no web build next to barbu: /app.js not tried");
        }
    }

    /* A whole game over wss://: alice at North against three computer
     * players, bob kibitzing every hand. */
    e2e_use_tls(true, cert);
    e2e_client *alice = e2e_client_new("alice", srv.port);
    CHECK(wsc_tls(alice->ws), "alice's connection is TLS, the certificate checked");
    e2e_hello(alice, "alice");
    int table =
        e2e_create(alice, "uk-32",
                   json_pack("{s:s, s:[s,s,s], s:s, s:i, s:s, s:s}", "seed", "2323", "bots", "E",
                             "S", "W", "level", "easy", "delay", 0, "sit", "N", "kibitz", "all"));
    alice->group = e2e_new_group();
    alice->autoplay = true;
    e2e_client *bob = e2e_client_new_from("bob", srv.port, "127.0.0.2");
    e2e_hello(bob, "bob");
    bob->logging = true;
    e2e_kibitz(bob, table, 4);
    long t0 = e2e_now_ms();
    e2e_play(NULL, NULL, 200000);
    CHECK(e2e_game_over(alice), "the game over wss:// is over (%ld actions in %ld ms)", alice->at,
          e2e_now_ms() - t0);
    CHECK(e2e_view_int(alice->view, "deal") == 28, "28 deals were played (deal %ld)",
          e2e_view_int(alice->view, "deal"));
    e2e_pump(300);
    CHECK(bob->views > 0 && bob->at == alice->at, "bob, kibitzing over wss://, saw it to the end");
    bool complete = false;
    char *record = e2e_record(alice, table, &complete);
    CHECK(record != NULL && complete && e2e_barbu_replay(record) == 0,
          "its record comes over wss:// and barbu replay reads it");
    free(record);
    e2e_use_tls(false, NULL);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops");
}

/* ------------------------------------------------------------ start */

/* barbu serve with these arguments after --listen and --db: its exit
 * status, and the first line of its stderr. */
static int serve_fails(const char *db, const char *const *args, char *first, size_t cap)
{
    char err_path[600];
    snprintf(err_path, sizeof err_path, "%s/start.err", e2e_tmpdir());
    pid_t pid = fork();
    REQUIRE(pid >= 0, "fork");
    if (pid == 0) {
        if (freopen(err_path, "w", stderr) == NULL || freopen("/dev/null", "w", stdout) == NULL)
            _exit(127);
        const char *argv[16] = {e2e_barbu(), "serve", "--listen", "127.0.0.1:0", "--db", db};
        int n = 6;
        for (int i = 0; args[i] && n < 15; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        alarm(10); /* a server that starts after all does not hang the test */
        execv(e2e_barbu(), (char *const *)argv);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    first[0] = '\0';
    FILE *f = fopen(err_path, "r");
    if (f != NULL) {
        if (fgets(first, (int)cap, f) == NULL)
            first[0] = '\0';
        fclose(f);
    }
    first[strcspn(first, "\n")] = '\0';
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void scenario_start(void)
{
    char db[500], first[600], missing[500], notcert[500];
    snprintf(db, sizeof db, "%s/never.db", e2e_tmpdir());
    snprintf(missing, sizeof missing, "%s/missing.pem", e2e_tmpdir());
    snprintf(notcert, sizeof notcert, "%s/notcert.pem", e2e_tmpdir());
    FILE *f = fopen(notcert, "w");
    REQUIRE(f != NULL, "a file");
    fputs("not a certificate\n", f);
    fclose(f);
    static const char *const what[] = {
        "--tls-cert without --tls-key", "a certificate file that is not there",
        "a key of another certificate", "a file that holds no certificate", "a key that is no key"};
    const char *const cases[][5] = {
        {"--tls-cert", cert, NULL},
        {"--tls-cert", missing, "--tls-key", key, NULL},
        {"--tls-cert", cert, "--tls-key", other_key, NULL},
        {"--tls-cert", notcert, "--tls-key", key, NULL},
        {"--tls-cert", cert, "--tls-key", notcert, NULL},
    };
    const char *const says[] = {"needs --tls-key", "cannot read the certificate",
                                "does not belong to the certificate", "holds no certificate",
                                "holds no private key"};
    for (int i = 0; i < 5; i++) {
        int rc = serve_fails(db, cases[i], first, sizeof first);
        struct stat sb;
        CHECK(rc != 0 && strstr(first, says[i]) != NULL && stat(db, &sb) != 0,
              "%s: barbu serve stops (exit %d) before making its database, saying \"%s\"", what[i],
              rc, first);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: tls BARBU SCENARIO... (game, start)\n");
        return 2;
    }
    e2e_init(argv[1]);
    make_cert("server", cert, key, sizeof cert);
    make_cert("other", other_cert, other_key, sizeof other_cert);
    for (int i = 2; i < argc; i++) {
        long t0 = e2e_now_ms();
        printf("== %s\n", argv[i]);
        if (strcmp(argv[i], "game") == 0)
            scenario_game();
        else if (strcmp(argv[i], "start") == 0)
            scenario_start();
        else {
            fprintf(stderr, "tls: no scenario %s\n", argv[i]);
            return 2;
        }
        printf("== %s: %ld ms\n", argv[i], e2e_now_ms() - t0);
    }
    printf("%d failure%s\n", e2e_failures, e2e_failures == 1 ? "" : "s");
    return e2e_failures ? 1 : 0;
}
