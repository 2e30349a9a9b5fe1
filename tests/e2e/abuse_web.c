/*
 * abuse_web.c - see abuse.h: text that disguises itself (bidi controls and
 * invisible characters in chat and house rules), and the HTTP side (the
 * WebSocket's Origin, the security headers, files outside the web folder).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abuse.h"

/* ------------------------------------------------------------------ bidi */

static const struct {
    const char *text, *named;
} DISGUISES[] = {
    /* "invoice-\u202Egnp.exe" shows as "invoice-exe.png". */
    {"invoice-\xe2\x80\xaegnp.exe", "U+202E RIGHT-TO-LEFT OVERRIDE"},
    {"a\xe2\x80\xad"
     "b",
     "U+202D LEFT-TO-RIGHT OVERRIDE"},
    {"a\xe2\x80\xaa"
     "b",
     "U+202A LEFT-TO-RIGHT EMBEDDING"},
    {"a\xe2\x81\xa7"
     "b\xe2\x81\xa9",
     "U+2067 RIGHT-TO-LEFT ISOLATE"},
    {"a\xe2\x80\x8f"
     "b",
     "U+200F RIGHT-TO-LEFT MARK"},
    {"a\xe2\x80\x8e"
     "b",
     "U+200E LEFT-TO-RIGHT MARK"},
    {"a\xd8\x9c"
     "b",
     "U+061C ARABIC LETTER MARK"},
    {"ali\xe2\x80\x8b"
     "ce",
     "U+200B ZERO WIDTH SPACE"},
    {"\xef\xbb\xbfhi", "U+FEFF ZERO WIDTH NO-BREAK SPACE"},
    {"a\xc2\x9b"
     "b",
     "U+009B, a control character"},
};
#define N_DISGUISES (sizeof DISGUISES / sizeof DISGUISES[0])

static void chat(e2e_client *c, const char *text)
{
    e2e_send(c, json_pack("{s:s, s:s}", "type", "chat", "text", text));
}

void abuse_bidi(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "db");
    e2e_client *alice = e2e_client_new("alice", srv.port);
    e2e_client *bob = e2e_client_new("bob", srv.port);
    e2e_client *carol = e2e_client_new("carol", srv.port);
    e2e_hello(alice, "alice");
    e2e_hello(bob, "bob");
    e2e_hello(carol, "carol");
    int table = e2e_create(alice, "uk", json_pack("{s:s}", "sit", "N"));
    e2e_sit(bob, table, 1);
    e2e_pump(200);
    e2e_clear(alice);
    e2e_clear(bob);

    /* Each disguise is refused to its sender, naming the character. */
    for (size_t i = 0; i < N_DISGUISES; i++) {
        chat(alice, DISGUISES[i].text);
        json_t *e = e2e_expect_error(alice, "bad_text", "chat", 3000);
        const char *why = json_string_value(json_object_get(e, "text"));
        CHECK(why && strstr(why, DISGUISES[i].named), "the refusal names %s: %s",
              DISGUISES[i].named, why ? why : "(no error)");
        json_decref(e);
    }
    /* Text that needs joiners passes unchanged: a family emoji (zero-width
     * joiner), Persian (zero-width non-joiner), Hebrew. */
    const char *fine = "\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7 "
                       "\xd9\x85\xdb\x8c\xe2\x80\x8c\xd8\xae\xd9\x88\xd8\xa7\xd9\x87\xd9\x85 "
                       "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d";
    chat(alice, fine);
    /* Bob hears the fine line and nothing before it: messages come in
     * order, so no disguised line reached him. */
    json_t *heard = e2e_expect(bob, "chat", 3000);
    const char *text = json_string_value(json_object_get(heard, "text"));
    CHECK(text && strcmp(text, fine) == 0, "bob's first chat line is the fine one: %s",
          text ? text : "(none)");
    json_decref(heard);
    heard = e2e_expect(alice, "chat", 3000);
    CHECK(heard != NULL, "alice hears her fine line too");
    json_decref(heard);

    /* House rules are shown to everybody who sees the table: a comment may
     * not disguise itself either. */
    e2e_send(carol, json_pack("{s:s, s:s, s:s, s:s}", "type", "create", "rules", "uk", "house",
                              "# scores as printed: \xe2\x80\xae"
                              "0 = 01-\nisraeli = enforce\n",
                              "sit", "N"));
    json_t *e = e2e_expect_error(carol, "bad_text", "create", 3000);
    const char *why = json_string_value(json_object_get(e, "text"));
    CHECK(why && strstr(why, "U+202E RIGHT-TO-LEFT OVERRIDE"),
          "the house rules' refusal names the character: %s", why ? why : "(no error)");
    json_decref(e);

    e2e_client_free(alice);
    e2e_client_free(bob);
    e2e_client_free(carol);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");
}

/* ------------------------------------------------------------------- web */

/* A header's value in an answer (the first of that name), or "" when it
 * has none. */
static const char *header(const char *resp, const char *name, char *buf, size_t cap)
{
    buf[0] = '\0';
    const char *end = strstr(resp, "\r\n\r\n");
    size_t nlen = strlen(name);
    for (const char *p = strstr(resp, "\r\n"); p && (!end || p < end); p = strstr(p + 2, "\r\n")) {
        if (strncasecmp(p + 2, name, nlen) == 0 && p[2 + nlen] == ':') {
            const char *v = p + 3 + nlen;
            while (*v == ' ')
                v++;
            size_t len = strcspn(v, "\r\n");
            if (len >= cap)
                len = cap - 1;
            memcpy(buf, v, len);
            buf[len] = '\0';
            break;
        }
    }
    return buf;
}

/* One HTTP/1.1 request over a fresh socket: fills resp with the whole
 * answer (status line, headers, body; NUL-terminated, cut at cap) and
 * returns the status, or -1 when no answer came. */
static int http_get(int port, const char *path, char *resp, size_t cap)
{
    resp[0] = '\0';
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    char req[600];
    int n =
        snprintf(req, sizeof req,
                 "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", path, port);
    if (write(fd, req, (size_t)n) != n) {
        close(fd);
        return -1;
    }
    size_t got = 0;
    long deadline = e2e_now_ms() + 5000;
    for (;;) {
        /* Done once the headers and Content-Length bytes of body are in. */
        const char *end = strstr(resp, "\r\n\r\n");
        char cl[24];
        if (end && header(resp, "Content-Length", cl, sizeof cl)[0] &&
            got >= (size_t)(end + 4 - resp) + strtoul(cl, NULL, 10))
            break;
        long left = deadline - e2e_now_ms();
        if (left <= 0 || got + 1 >= cap)
            break;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)left) <= 0)
            break;
        ssize_t r = read(fd, resp + got, cap - 1 - got);
        if (r <= 0)
            break;
        got += (size_t)r;
        resp[got] = '\0';
    }
    close(fd);
    int status;
    if (sscanf(resp, "HTTP/1.%*d %d", &status) != 1)
        return -1;
    return status;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f != NULL, "cannot write %s: %s", path, strerror(errno));
    fputs(text, f);
    fclose(f);
}

#define SECRET "SECRET-OUTSIDE-THE-WEB-FOLDER"

/* The headers every answer carries, whatever its status. */
static void check_headers(const char *what, const char *resp)
{
    char v[600];
    CHECK(strcasecmp(header(resp, "X-Content-Type-Options", v, sizeof v), "nosniff") == 0,
          "%s: X-Content-Type-Options: nosniff (got '%s')", what, v);
    CHECK(strcasecmp(header(resp, "X-Frame-Options", v, sizeof v), "DENY") == 0,
          "%s: X-Frame-Options: DENY (got '%s')", what, v);
    header(resp, "Referrer-Policy", v, sizeof v);
    CHECK(strcmp(v, "no-referrer") == 0 || strcmp(v, "same-origin") == 0,
          "%s: Referrer-Policy (got '%s')", what, v);
    CHECK(strstr(header(resp, "Content-Security-Policy", v, sizeof v), "frame-ancestors 'none'"),
          "%s: Content-Security-Policy with frame-ancestors 'none' (got '%s')", what, v);
}

/* A path that must not reach anything outside the web folder. */
static void check_refused(int port, const char *path)
{
    static char resp[16384];
    int status = http_get(port, path, resp, sizeof resp);
    CHECK(status == 404 || status == 403 || status == 400, "GET %s is refused (status %d)", path,
          status);
    CHECK(strstr(resp, SECRET) == NULL, "GET %s shows nothing from outside the web folder", path);
    if (status > 0)
        check_headers(path, resp);
}

static bool ws_accepted(int port, const char *origin, char *err, size_t cap)
{
    wsc_options opt = {.origin = origin};
    err[0] = '\0';
    wsc *w = wsc_connect_with("127.0.0.1", port, "/ws", &opt, 3000, err, cap);
    wsc_free(w);
    return w != NULL;
}

void abuse_web(void)
{
    /* The web folder, with links out of it; the secrets beside it. */
    char web[400], outside[400], path[600], target[600];
    snprintf(web, sizeof web, "%s/webroot", e2e_tmpdir());
    snprintf(outside, sizeof outside, "%s/outside", e2e_tmpdir());
    REQUIRE(mkdir(web, 0700) == 0 && mkdir(outside, 0700) == 0, "cannot make the folders");
    snprintf(path, sizeof path, "%s/index.html", web);
    write_file(path, "<!doctype html><title>barbu</title><p>THE-INDEX-PAGE</p>\n");
    snprintf(path, sizeof path, "%s/sub", web);
    REQUIRE(mkdir(path, 0700) == 0, "cannot make %s", path);
    snprintf(path, sizeof path, "%s/sub/style.css", web);
    write_file(path, "p { color: black; } /* THE-STYLE */\n");
    snprintf(target, sizeof target, "%s/secret.txt", outside);
    write_file(target, SECRET "\n");
    snprintf(path, sizeof path, "%s/secret.txt", e2e_tmpdir());
    write_file(path, SECRET "\n");
    snprintf(path, sizeof path, "%s/passwd", web);
    REQUIRE(symlink("/etc/passwd", path) == 0, "cannot link %s", path);
    snprintf(path, sizeof path, "%s/secret-link.txt", web);
    REQUIRE(symlink(target, path) == 0, "cannot link %s", path);
    snprintf(path, sizeof path, "%s/out", web);
    REQUIRE(symlink(outside, path) == 0, "cannot link %s", path);
    /* A link that stays inside the folder is fine. */
    snprintf(path, sizeof path, "%s/home.html", web);
    REQUIRE(symlink("index.html", path) == 0, "cannot link %s", path);

    e2e_server srv;
    e2e_server_start_with(&srv, "db", (const char *[]){"--web", web, NULL});
    static char resp[16384];
    int status = http_get(srv.port, "/", resp, sizeof resp);
    CHECK(status == 200 && strstr(resp, "THE-INDEX-PAGE"), "GET / serves index.html (status %d)",
          status);
    check_headers("GET /", resp);
    status = http_get(srv.port, "/sub/style.css", resp, sizeof resp);
    char v[200];
    CHECK(status == 200 && strstr(resp, "THE-STYLE") &&
              strncmp(header(resp, "Content-Type", v, sizeof v), "text/css", 8) == 0,
          "GET /sub/style.css serves it as text/css (status %d, type '%s')", status, v);
    check_headers("GET /sub/style.css", resp);
    status = http_get(srv.port, "/home.html", resp, sizeof resp);
    CHECK(status == 200 && strstr(resp, "THE-INDEX-PAGE"),
          "GET /home.html follows a link inside the folder (status %d)", status);
    status = http_get(srv.port, "/nothing-here.html", resp, sizeof resp);
    CHECK(status == 404, "GET /nothing-here.html is 404 (status %d)", status);
    check_headers("a 404", resp);

    /* Links out of the folder, and the dot-dot paths, plain and encoded. */
    check_refused(srv.port, "/passwd");
    status = http_get(srv.port, "/passwd", resp, sizeof resp);
    CHECK(strstr(resp, "root:") == NULL, "GET /passwd does not show /etc/passwd");
    check_refused(srv.port, "/secret-link.txt");
    check_refused(srv.port, "/out/secret.txt");
    check_refused(srv.port, "/out/");
    check_refused(srv.port, "/../secret.txt");
    check_refused(srv.port, "/%2e%2e/secret.txt");
    check_refused(srv.port, "/%2E%2E/secret.txt");
    check_refused(srv.port, "/..%2fsecret.txt");
    check_refused(srv.port, "/sub/..%2f..%2fsecret.txt");
    check_refused(srv.port, "/sub/%2e%2e/%2e%2e/secret.txt");
    check_refused(srv.port, "/%2e%2e%2fsecret.txt");
    check_refused(srv.port, "/out%2fsecret.txt");

    /* The WebSocket: clients without an Origin (programs) and pages of the
     * server's own origin are let in; other pages are not. */
    char err[300], own[64];
    snprintf(own, sizeof own, "http://127.0.0.1:%d", srv.port);
    CHECK(ws_accepted(srv.port, NULL, err, sizeof err), "no Origin is accepted (%s)", err);
    CHECK(ws_accepted(srv.port, own, err, sizeof err), "Origin %s is accepted (%s)", own, err);
    CHECK(!ws_accepted(srv.port, "http://evil.example", err, sizeof err) && strstr(err, "403"),
          "Origin http://evil.example is refused with 403 (%s)", err);
    CHECK(!ws_accepted(srv.port, "http://friend.example", err, sizeof err) && strstr(err, "403"),
          "Origin http://friend.example is refused while not allowed (%s)", err);
    CHECK(!ws_accepted(srv.port, "http://127.0.0.1:1", err, sizeof err),
          "Origin http://127.0.0.1:1 (another port) is refused (%s)", err);
    CHECK(!ws_accepted(srv.port, "null", err, sizeof err), "Origin null is refused (%s)", err);
    snprintf(path, sizeof path, "http://127.0.0.1:%d.evil.example", srv.port);
    CHECK(!ws_accepted(srv.port, path, err, sizeof err), "Origin %s is refused (%s)", path, err);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");

    /* --allow-origin lets a named origin in, and nobody else. */
    e2e_server_start_with(
        &srv, "db",
        (const char *[]){"--web", web, "--allow-origin", "http://friend.example", NULL});
    snprintf(own, sizeof own, "http://127.0.0.1:%d", srv.port);
    CHECK(ws_accepted(srv.port, NULL, err, sizeof err), "no Origin is accepted (%s)", err);
    CHECK(ws_accepted(srv.port, own, err, sizeof err), "Origin %s is accepted (%s)", own, err);
    CHECK(ws_accepted(srv.port, "http://friend.example", err, sizeof err),
          "Origin http://friend.example is accepted (%s)", err);
    CHECK(!ws_accepted(srv.port, "http://evil.example", err, sizeof err) && strstr(err, "403"),
          "Origin http://evil.example is refused with 403 (%s)", err);
    CHECK(!ws_accepted(srv.port, "https://friend.example", err, sizeof err),
          "Origin https://friend.example (another scheme) is refused (%s)", err);
    check_refused(srv.port, "/passwd");
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");

    /* The harness removes the files of its folder, not folders: these go
     * here (unlink takes the links, never what they point to). */
    static const char *const MADE[] = {
        "webroot/passwd",     "webroot/secret-link.txt", "webroot/out",       "webroot/home.html",
        "webroot/index.html", "webroot/sub/style.css",   "outside/secret.txt"};
    for (size_t i = 0; i < sizeof MADE / sizeof MADE[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", e2e_tmpdir(), MADE[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/sub", web);
    rmdir(path);
    rmdir(web);
    rmdir(outside);
}
