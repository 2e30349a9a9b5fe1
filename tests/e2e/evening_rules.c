/*
 * evening_rules.c - the rules pages over HTTP (/rules/PRESET,
 * /rules/table/ID), the Chinese Poker suggestion, and the client's files
 * sent gzipped to a browser that takes gzip.
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
#include <zlib.h>

#include "evening.h"

/* ---------------------------------------------------------------- HTTP */

typedef struct http_answer {
    int status; /* -1 when no answer came */
    char head[4096];
    char *body; /* malloc'd, NUL-terminated (it may hold NULs too) */
    size_t len;
} http_answer;

static void http_free(http_answer *a)
{
    free(a->body);
    a->body = NULL;
}

/* A header's value (the first of that name, any case), or "". */
static const char *http_header(const http_answer *a, const char *name, char *buf, size_t cap)
{
    buf[0] = '\0';
    size_t n = strlen(name);
    for (const char *line = strstr(a->head, "\r\n"); line != NULL;
         line = strstr(line + 2, "\r\n")) {
        const char *p = line + 2;
        if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
            p += n + 1;
            while (*p == ' ')
                p++;
            size_t len = strcspn(p, "\r\n");
            if (len >= cap)
                len = cap - 1;
            memcpy(buf, p, len);
            buf[len] = '\0';
            return buf;
        }
    }
    return buf;
}

/* The first place of needle in hay, in any case; NULL when none. */
static const char *find_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return hay;
    return NULL;
}

/* One GET over a fresh socket (HTTP/1.1, Connection: close) with extra
 * header lines ("Accept-Encoding: gzip\r\n", or ""), read to the end. */
static void http_get(int port, const char *path, const char *extra, http_answer *a)
{
    memset(a, 0, sizeof *a);
    a->status = -1;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0, "socket: %s", strerror(errno));
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return;
    }
    char req[1024];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%sConnection: close\r\n\r\n", path,
                     port, extra);
    if (write(fd, req, (size_t)n) != n) {
        close(fd);
        return;
    }
    size_t cap = 1 << 16, got = 0;
    char *buf = malloc(cap);
    REQUIRE(buf != NULL, "out of memory");
    long deadline = e2e_now_ms() + 10000;
    for (;;) {
        long left = deadline - e2e_now_ms();
        if (left <= 0)
            break;
        /* Done once the headers and Content-Length bytes of body are in
         * (lws may keep the socket open a moment after). */
        buf[got] = '\0';
        const char *end = got ? strstr(buf, "\r\n\r\n") : NULL;
        if (end != NULL) {
            const char *cl = find_ci(buf, "\r\ncontent-length:");
            if (cl != NULL && cl < end &&
                got >= (size_t)(end + 4 - buf) + strtoul(cl + 17, NULL, 10))
                break;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)left) <= 0)
            break;
        if (got + 4096 >= cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            REQUIRE(buf != NULL, "out of memory");
        }
        ssize_t r = read(fd, buf + got, cap - 1 - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\0';
    const char *end = strstr(buf, "\r\n\r\n");
    if (end == NULL || sscanf(buf, "HTTP/1.%*d %d", &a->status) != 1) {
        free(buf);
        return;
    }
    size_t head = (size_t)(end - buf) + 2;
    if (head >= sizeof a->head)
        head = sizeof a->head - 1;
    memcpy(a->head, buf, head);
    a->head[head] = '\0';
    a->len = got - (size_t)(end + 4 - buf);
    a->body = malloc(a->len + 1);
    REQUIRE(a->body != NULL, "out of memory");
    memcpy(a->body, end + 4, a->len);
    a->body[a->len] = '\0';
    free(buf);
}

/* ---------------------------------------------------------- compression */

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL, "cannot write %s: %s", path, strerror(errno));
    REQUIRE(fwrite(data, 1, len, f) == len, "cannot write %s", path);
    fclose(f);
}

/* text gzipped (a gzip stream, as node's zlib writes it); malloc'd. */
static unsigned char *gzip_of(const char *text, size_t len, size_t *out_len)
{
    z_stream z = {0};
    REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) == Z_OK,
            "deflateInit2");
    size_t cap = deflateBound(&z, len) + 32;
    unsigned char *out = malloc(cap);
    REQUIRE(out != NULL, "out of memory");
    z.next_in = (unsigned char *)text;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate");
    *out_len = z.total_out;
    deflateEnd(&z);
    return out;
}

/* A gzip body unpacked; malloc'd, NULL when it is not gzip. */
static char *gunzip(const char *data, size_t len, size_t *out_len)
{
    z_stream z = {0};
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return NULL;
    size_t cap = len * 4 + 1024;
    char *out = malloc(cap);
    REQUIRE(out != NULL, "out of memory");
    z.next_in = (unsigned char *)data;
    z.avail_in = (uInt)len;
    int rc;
    do {
        if (z.total_out + 1 >= cap) {
            cap *= 2;
            out = realloc(out, cap);
            REQUIRE(out != NULL, "out of memory");
        }
        z.next_out = (unsigned char *)out + z.total_out;
        z.avail_out = (uInt)(cap - 1 - z.total_out);
        rc = inflate(&z, Z_NO_FLUSH);
    } while (rc == Z_OK);
    *out_len = z.total_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    out[*out_len] = '\0';
    return out;
}

/* A script that compresses well and a line that tells it from its copy. */
static char *sample_script(size_t *len)
{
    size_t cap = 64 << 10, n = 0;
    char *s = malloc(cap);
    REQUIRE(s != NULL, "out of memory");
    for (int i = 0; n + 100 < cap; i++)
        n += (size_t)snprintf(s + n, cap - n, "console.log('line %d of the sample client');\n", i);
    *len = n;
    return s;
}

static void scenario_compressed(void)
{
    char web[320], path[400];
    snprintf(web, sizeof web, "%s/web", e2e_tmpdir());
    REQUIRE(mkdir(web, 0755) == 0, "mkdir %s: %s", web, strerror(errno));
    size_t js_len, gz_len;
    char *js = sample_script(&js_len);
    unsigned char *gz = gzip_of(js, js_len, &gz_len);
    snprintf(path, sizeof path, "%s/app.js", web);
    write_bytes(path, js, js_len);
    snprintf(path, sizeof path, "%s/app.js.gz", web);
    write_bytes(path, gz, gz_len);
    const char *html = "<!doctype html><title>barbu</title><p>plain page, no copy</p>\n";
    snprintf(path, sizeof path, "%s/index.html", web);
    write_bytes(path, html, strlen(html));

    e2e_server srv;
    e2e_server_start_with(&srv, "gz.db", (const char *const[]){"--web", web, NULL});
    http_answer a;
    char v[200];

    http_get(srv.port, "/app.js", "Accept-Encoding: gzip, deflate, br\r\n", &a);
    CHECK(a.status == 200, "GET /app.js with Accept-Encoding gzip: 200 (%d)", a.status);
    CHECK(strcasecmp(http_header(&a, "Content-Encoding", v, sizeof v), "gzip") == 0,
          "it is sent with Content-Encoding: gzip (got '%s')", v);
    CHECK(strcasecmp(http_header(&a, "Vary", v, sizeof v), "Accept-Encoding") == 0,
          "and Vary: Accept-Encoding (got '%s')", v);
    CHECK(strstr(http_header(&a, "Content-Type", v, sizeof v), "javascript") != NULL,
          "its type is still the script's (got '%s')", v);
    CHECK(a.len == gz_len && memcmp(a.body, gz, gz_len) == 0,
          "the body is the .gz file (%zu bytes, the file %zu)", a.len, gz_len);
    size_t un_len = 0;
    char *un = a.body ? gunzip(a.body, a.len, &un_len) : NULL;
    CHECK(un != NULL && un_len == js_len && memcmp(un, js, js_len) == 0,
          "it unpacks to the plain file (%zu bytes of %zu)", un_len, js_len);
    free(un);
    http_free(&a);

    http_get(srv.port, "/app.js", "", &a);
    CHECK(a.status == 200 && a.len == js_len && memcmp(a.body, js, js_len) == 0,
          "without Accept-Encoding the plain file comes (%d, %zu bytes)", a.status, a.len);
    CHECK(http_header(&a, "Content-Encoding", v, sizeof v)[0] == '\0',
          "with no Content-Encoding (got '%s')", v);
    CHECK(strcasecmp(http_header(&a, "Vary", v, sizeof v), "Accept-Encoding") == 0,
          "and Vary: Accept-Encoding, as the answer depends on it (got '%s')", v);
    http_free(&a);

    http_get(srv.port, "/app.js", "Accept-Encoding: gzip;q=0, identity\r\n", &a);
    CHECK(a.status == 200 && a.len == js_len &&
              http_header(&a, "Content-Encoding", v, sizeof v)[0] == '\0',
          "gzip;q=0 gets the plain file (%d, %zu bytes, encoding '%s')", a.status, a.len, v);
    http_free(&a);

    http_get(srv.port, "/app.js", "Accept-Encoding: deflate, br\r\n", &a);
    CHECK(a.status == 200 && a.len == js_len, "deflate and br only get the plain file (%zu bytes)",
          a.len);
    http_free(&a);

    http_get(srv.port, "/", "Accept-Encoding: gzip\r\n", &a);
    CHECK(a.status == 200 && a.body && strcmp(a.body, html) == 0 &&
              http_header(&a, "Content-Encoding", v, sizeof v)[0] == '\0',
          "a file without a gzipped copy comes plain, even to a browser that takes gzip");
    http_free(&a);

    /* A copy older than its file (the file edited since the build) is
     * not sent: the browser would get the old text. */
    sleep(1);
    snprintf(path, sizeof path, "%s/app.js", web);
    write_bytes(path, "console.log('edited');\n", 23);
    http_get(srv.port, "/app.js", "Accept-Encoding: gzip\r\n", &a);
    CHECK(a.status == 200 && a.body && strcmp(a.body, "console.log('edited');\n") == 0,
          "a file newer than its .gz comes plain (got %zu bytes)", a.len);
    http_free(&a);

    e2e_server_stop(&srv);
    free(js);
    free(gz);
}

void evening_compressed(void)
{
    scenario_compressed();
}
