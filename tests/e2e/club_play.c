/*
 * club_play.c - the club end to end (issue 24): the helpers of
 * club_prefs.c and club_results.c, and the program that runs them.
 *
 * club_play BARBU SCENARIO...
 */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "club_play.h"

static int next_id = 9000;

/* Waits for a welcome or an error after a hello; see cp_sign. */
static json_t *hello_answer(e2e_client *c, json_t **prefs)
{
    if (prefs)
        *prefs = NULL;
    long deadline = e2e_now_ms() + 8000;
    while (e2e_now_ms() < deadline) {
        json_t *w = e2e_peek(c, "welcome");
        json_t *e = e2e_peek(c, "error");
        if (w || e) {
            json_t *got = e2e_expect(c, w ? "welcome" : "error", 10);
            if (w) {
                snprintf(c->name, sizeof c->name, "%s",
                         json_string_value(json_object_get(got, "name")));
                snprintf(c->token, sizeof c->token, "%s",
                         json_string_value(json_object_get(got, "token")));
                /* The preferences come between the welcome and the lobby. */
                json_decref(e2e_expect(c, "lobby", 3000));
                json_t *p = e2e_peek(c, "preferences");
                if (p)
                    p = e2e_expect(c, "preferences", 10);
                if (prefs)
                    *prefs = p;
                else
                    json_decref(p);
            }
            return got;
        }
        e2e_pump(20);
    }
    return NULL;
}

json_t *cp_sign(e2e_client *c, const char *name, const char *password, bool reg, json_t **prefs)
{
    json_t *m = json_pack("{s:s, s:i, s:s, s:s, s:i}", "type", "hello", "version", 1, "name", name,
                          "password", password, "id", next_id++);
    if (reg)
        json_object_set_new(m, "register", json_true());
    e2e_send(c, m);
    return hello_answer(c, prefs);
}

json_t *cp_token(e2e_client *c, const char *token, json_t **prefs)
{
    e2e_send(c, json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "token", token));
    return hello_answer(c, prefs);
}

const char *cp_code(const json_t *m)
{
    if (m == NULL)
        return "nothing";
    const char *code = json_string_value(json_object_get(m, "code"));
    return code ? code : json_string_value(json_object_get(m, "type"));
}

const char *cp_text(const json_t *m)
{
    const char *t = m ? json_string_value(json_object_get(m, "text")) : NULL;
    return t ? t : "";
}

/* ------------------------------------------------------------ HTTP GET */

/* Decodes a chunked body in place; its length, or -1 when it is cut. */
static long unchunk(char *body, size_t len)
{
    size_t in = 0, out = 0;
    for (;;) {
        char *end;
        unsigned long n = strtoul(body + in, &end, 16);
        char *crlf = strstr(body + in, "\r\n");
        if (end == body + in || crlf == NULL)
            return -1;
        in = (size_t)(crlf - body) + 2;
        if (n == 0)
            break;
        if (in + n > len)
            return -1;
        memmove(body + out, body + in, n);
        out += n;
        in += n + 2;
        if (in > len)
            return -1;
    }
    body[out] = '\0';
    return (long)out;
}

char *cp_http_get(int port, const char *path, int *status, char *type, size_t type_cap)
{
    *status = 0;
    if (type && type_cap)
        type[0] = '\0';
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return NULL;
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return NULL;
    }
    char req[1200];
    int n =
        snprintf(req, sizeof req,
                 "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", path, port);
    if (n < 0 || (size_t)n >= sizeof req || write(fd, req, (size_t)n) != n) {
        close(fd);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    long deadline = e2e_now_ms() + 10000;
    while (buf && e2e_now_ms() < deadline) {
        if (len + 1 >= cap) {
            char *more = realloc(buf, cap * 2);
            if (more == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
            cap *= 2;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 200) <= 0)
            continue;
        ssize_t got = read(fd, buf + len, cap - len - 1);
        if (got <= 0)
            break;
        len += (size_t)got;
        buf[len] = '\0';
        /* lws may keep the connection open after a sized answer. */
        char *head_end = strstr(buf, "\r\n\r\n");
        const char *cl = head_end ? strcasestr(buf, "\r\ncontent-length:") : NULL;
        if (cl && cl < head_end && len >= (size_t)(head_end + 4 - buf) + strtoul(cl + 17, NULL, 10))
            break;
    }
    close(fd);
    if (buf == NULL)
        return NULL;
    buf[len] = '\0';
    char *head_end = strstr(buf, "\r\n\r\n");
    if (strncmp(buf, "HTTP/1.", 7) != 0 || head_end == NULL) {
        free(buf);
        return NULL;
    }
    *status = atoi(buf + 9);
    *head_end = '\0';
    const char *ct = strcasestr(buf, "\r\ncontent-type:");
    if (ct && type && type_cap) {
        ct += 15;
        while (*ct == ' ')
            ct++;
        size_t k = strcspn(ct, "\r\n");
        if (k >= type_cap)
            k = type_cap - 1;
        memcpy(type, ct, k);
        type[k] = '\0';
    }
    bool chunked = strcasestr(buf, "transfer-encoding: chunked") != NULL;
    char *body = head_end + 4;
    size_t body_len = len - (size_t)(body - buf);
    memmove(buf, body, body_len + 1);
    if (chunked && unchunk(buf, body_len) < 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

json_t *cp_get_json(int port, const char *path, int want_status)
{
    int status;
    char type[128];
    char *body = cp_http_get(port, path, &status, type, sizeof type);
    CHECK(body != NULL && status == want_status, "GET %s answers %d (got %d)", path, want_status,
          status);
    if (body == NULL)
        return NULL;
    CHECK(strncmp(type, "application/json", 16) == 0, "GET %s is JSON (content-type %s)", path,
          type);
    json_error_t jerr;
    json_t *o = json_loads(body, 0, &jerr);
    CHECK(o != NULL, "GET %s reads as JSON (%s)", path, o ? "ok" : jerr.text);
    free(body);
    return o;
}

/* ------------------------------------------------------------ main */

static const e2e_scenario SCENARIOS[] = {
    {"prefs", club_prefs},
    {"results", club_results},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    return e2e_main("club_play", argc, argv, SCENARIOS);
}
