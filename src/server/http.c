/*
 * http.c - barbu serve's HTTP side: the web folder's files (never one
 * outside it), the built-in page when there is none, the headers every
 * answer carries, and the Origin check of the WebSocket handshake.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "internal.h"

/* ------------------------------------------------------------- headers */

/* The page's own policy (web/static/index.html has it as a meta element)
 * and frame-ancestors, which only a header can say.  The Fife score sheet
 * is a srcdoc frame that inherits it: its inline style and data: pictures
 * are allowed. */
#define CSP                                                                                        \
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' "     \
    "data:; connect-src 'self' ws: wss:; frame-src 'self' about:; object-src 'none'; base-uri "    \
    "'none'; form-action 'none'; frame-ancestors 'none'"

static const struct lws_protocol_vhost_options HDR_CORP = {
    NULL, NULL, "Cross-Origin-Resource-Policy:", "same-origin"};
static const struct lws_protocol_vhost_options HDR_REFERRER = {&HDR_CORP, NULL,
                                                               "Referrer-Policy:", "no-referrer"};
static const struct lws_protocol_vhost_options HDR_FRAME = {&HDR_REFERRER, NULL,
                                                            "X-Frame-Options:", "DENY"};
static const struct lws_protocol_vhost_options HDR_NOSNIFF = {&HDR_FRAME, NULL,
                                                              "X-Content-Type-Options:", "nosniff"};
static const struct lws_protocol_vhost_options HDR_CSP = {&HDR_NOSNIFF, NULL,
                                                          "Content-Security-Policy:", CSP};

const struct lws_protocol_vhost_options *srv_http_headers(void)
{
    return &HDR_CSP;
}

/* ---------------------------------------------------------- the files */

static const struct lws_protocol_vhost_options MIME_JSON = {NULL, NULL, ".json",
                                                            "application/json"};
static const struct lws_protocol_vhost_options MIME_MAP = {&MIME_JSON, NULL, ".map",
                                                           "application/json"};
static const struct lws_protocol_vhost_options MIME_WASM = {&MIME_MAP, NULL, ".wasm",
                                                            "application/wasm"};
static const struct lws_protocol_vhost_options MIME_MJS = {&MIME_WASM, NULL, ".mjs",
                                                           "text/javascript"};

static const char *mime_type(const char *path)
{
    struct lws_http_mount m;
    memset(&m, 0, sizeof m);
    m.extra_mimetypes = &MIME_MJS;
    const char *type = lws_get_mimetype(path, &m);
    return type ? type : "application/octet-stream";
}

/* Whether a request path names a file by plain names: no segment starts
 * with a dot, which refuses "..", "." and hidden files such as .git. */
static bool uri_ok(const char *uri, size_t len)
{
    if (len == 0 || uri[0] != '/' || strlen(uri) != len)
        return false;
    for (size_t i = 0; i < len; i++)
        if ((uri[i] == '/' && uri[i + 1] == '.') || uri[i] == '\\')
            return false;
    return true;
}

/* Whether a resolved path lies in the resolved folder root. */
static bool inside(const char *root, const char *real)
{
    size_t n = strlen(root);
    if (n == 1)
        return real[0] == '/';
    return strncmp(real, root, n) == 0 && (real[n] == '/' || real[n] == '\0');
}

/* The file a request names, resolved with every link followed: 0 with its
 * path in real, or -1 when there is no such regular file inside root. */
static int resolve(const char *root, const char *uri, size_t len, char *real)
{
    char path[PATH_MAX + 16];
    if (!uri_ok(uri, len))
        return -1;
    bool dir = uri[len - 1] == '/';
    if ((size_t)snprintf(path, sizeof path, "%s%s%s", root, uri, dir ? "index.html" : "") >=
        sizeof path)
        return -1;
    struct stat st;
    if (realpath(path, real) == NULL || !inside(root, real) || stat(real, &st) != 0)
        return -1;
    if (S_ISDIR(st.st_mode)) {
        /* A folder named without its slash: its index, resolved again. */
        if ((size_t)snprintf(path, sizeof path, "%s/index.html", real) >= sizeof path ||
            realpath(path, real) == NULL || !inside(root, real) || stat(real, &st) != 0)
            return -1;
    }
    return S_ISREG(st.st_mode) ? 0 : -1;
}

char *srv_web_root(const char *dir)
{
    return realpath(dir, NULL);
}

static int not_found(struct lws *wsi)
{
    if (lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL))
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* Whether the request's Accept-Encoding takes gzip: named (or "*") and
 * not with q=0. */
static bool accepts_gzip(struct lws *wsi)
{
    char ae[256];
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING);
    if (n <= 0 || n >= (int)sizeof ae ||
        lws_hdr_copy(wsi, ae, sizeof ae, WSI_TOKEN_HTTP_ACCEPT_ENCODING) < 0)
        return false;
    bool star = false;
    for (char *save = NULL, *item = strtok_r(ae, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        while (*item == ' ' || *item == '\t')
            item++;
        size_t name = strcspn(item, " \t;");
        bool gzip = name == 4 && strncasecmp(item, "gzip", 4) == 0;
        bool any = name == 1 && item[0] == '*';
        if (!gzip && !any)
            continue;
        /* "q=0", "q=0.0", "q=0.000" refuse it. */
        const char *q = strstr(item + name, "q=");
        bool refused = q != NULL && q[2] == '0' && strspn(q + 3, ".0") == strlen(q + 3);
        if (gzip)
            return !refused;
        star = !refused;
    }
    return star;
}

/* lws's own file mount follows links out of the folder: the server
 * resolves the path itself and hands lws the resolved one.  The build
 * puts a gzipped copy beside the client's files (web/build.mjs): a
 * browser that takes gzip gets it, unless the file is newer than its
 * copy (edited by hand since the build). */
static int serve_file(struct lws *wsi, const srv_server *srv, const char *uri, size_t len)
{
    char real[PATH_MAX], named[PATH_MAX + 4], gz[PATH_MAX];
    if (resolve(srv->web_root, uri, len, real) != 0)
        return not_found(wsi);
    /* The copy too must lie in the folder, whatever links it follows. */
    struct stat plain, packed;
    bool has_gz = (size_t)snprintf(named, sizeof named, "%s.gz", real) < sizeof named &&
                  realpath(named, gz) != NULL && inside(srv->web_root, gz) &&
                  stat(real, &plain) == 0 && stat(gz, &packed) == 0 && S_ISREG(packed.st_mode) &&
                  packed.st_mtime >= plain.st_mtime;
    static const char VARY[] = "vary: Accept-Encoding\x0d\x0a";
    static const char GZIP[] = "content-encoding: gzip\x0d\x0avary: Accept-Encoding\x0d\x0a";
    int n;
    if (has_gz && accepts_gzip(wsi))
        n = lws_serve_http_file(wsi, gz, mime_type(real), GZIP, (int)sizeof GZIP - 1);
    else if (has_gz)
        n = lws_serve_http_file(wsi, real, mime_type(real), VARY, (int)sizeof VARY - 1);
    else
        n = lws_serve_http_file(wsi, real, mime_type(real), NULL, 0);
    return n < 0 ? -1 : 0;
}

bool srv_http_file_exists(const srv_server *srv, const char *uri)
{
    char real[PATH_MAX];
    return srv->web_root != NULL && resolve(srv->web_root, uri, strlen(uri), real) == 0;
}

int srv_http_file(struct lws *wsi, const srv_server *srv, const char *uri)
{
    return serve_file(wsi, srv, uri, strlen(uri));
}

/* Served at / when there is no web directory. */
static const char BUILTIN_PAGE[] =
    "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>barbu</title>\n</head>\n<body>\n<h1>barbu</h1>\n"
    "<p>This is a barbu server. Its browser client is not installed; play from a "
    "terminal:</p>\n<pre><code>barbu connect ws://HOST:2118 --name YOUR-HANDLE</code></pre>\n"
    "<p>Programs speak the barbu protocol (docs/protocol.md): JSON over the WebSocket "
    "at <code>/ws</code>.</p>\n</body>\n</html>\n";

static int builtin_http(struct lws *wsi, enum lws_callback_reasons reason)
{
    if (reason == LWS_CALLBACK_HTTP) {
        /* Room for the vhost's headers too: lws adds them to every status. */
        unsigned char buf[LWS_PRE + 2048], *start = buf + LWS_PRE, *p = start,
                                           *end = buf + sizeof buf - 1;
        if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, "text/html; charset=utf-8",
                                        sizeof BUILTIN_PAGE - 1, &p, end) ||
            lws_finalize_write_http_header(wsi, start, &p, end))
            return 1;
        lws_callback_on_writable(wsi);
        return 0;
    }
    /* LWS_CALLBACK_HTTP_WRITEABLE */
    static unsigned char body[LWS_PRE + sizeof BUILTIN_PAGE];
    memcpy(body + LWS_PRE, BUILTIN_PAGE, sizeof BUILTIN_PAGE - 1);
    if (lws_write(wsi, body + LWS_PRE, sizeof BUILTIN_PAGE - 1, LWS_WRITE_HTTP_FINAL) < 0)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* ------------------------------------------------------- rules pages */

/* A page made here: held in the connection's slot until it is written. */
typedef struct made_page {
    size_t len;
    bool close;           /* the connection closes once it is written */
    unsigned char data[]; /* LWS_PRE bytes of headroom, then the page */
} made_page;

/* Whether the request says a body follows it (Content-Length over 0, or a
 * Transfer-Encoding). */
bool srv_http_has_body(struct lws *wsi)
{
    char cl[32];
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0)
        return true;
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH);
    if (n <= 0)
        return false;
    if (n >= (int)sizeof cl || lws_hdr_copy(wsi, cl, sizeof cl, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0)
        return true;
    return strspn(cl, "0") != strlen(cl); /* "0" or "000": none */
}

/* srv_http_send with one more header (name with its colon), or none. */
static int send_with_header(struct lws *wsi, void *user, int status, const char *type, char *body,
                            size_t len, const char *disposition, bool close, const char *name,
                            const char *value);

int srv_http_send_allow(struct lws *wsi, void *user, int status, const char *type, char *body,
                        size_t len, const char *disposition, bool close, const char *allow)
{
    return send_with_header(wsi, user, status, type, body, len, disposition, close,
                            allow ? "allow:" : NULL, allow);
}

static int send_with_header(struct lws *wsi, void *user, int status, const char *type, char *body,
                            size_t len, const char *disposition, bool close, const char *name,
                            const char *value)
{
    if (user == NULL || *(made_page **)user != NULL) {
        /* A second answer to one request: never (the first stays). */
        free(body);
        return -1;
    }
    if (body == NULL) {
        free(body);
        return not_found(wsi);
    }
    /* A body the request sent and nobody reads: the connection cannot be
     * kept for a next request, so it closes after the answer. */
    srv_http_pss *pss = user;
    if (pss->unread)
        close = true;
    made_page *pg = malloc(sizeof *pg + LWS_PRE + len);
    if (pg == NULL) {
        free(body);
        return -1;
    }
    pg->len = len;
    pg->close = close;
    memcpy(pg->data + LWS_PRE, body, len);
    free(body);
    unsigned char buf[LWS_PRE + 2048], *start = buf + LWS_PRE, *p = start,
                                       *end = buf + sizeof buf - 1;
    if (lws_add_http_common_headers(wsi, (unsigned int)status, type, (lws_filepos_t)len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)"no-cache", 8, &p, end) ||
        (disposition &&
         lws_add_http_header_by_name(
             wsi, (const unsigned char *)"content-disposition:", (const unsigned char *)disposition,
             (int)strlen(disposition), &p, end)) ||
        (close && lws_add_http_header_by_name(wsi, (const unsigned char *)"connection:",
                                              (const unsigned char *)"close", 5, &p, end)) ||
        (name &&
         lws_add_http_header_by_name(wsi, (const unsigned char *)name, (const unsigned char *)value,
                                     (int)strlen(value), &p, end)) ||
        lws_finalize_write_http_header(wsi, start, &p, end)) {
        free(pg);
        return -1;
    }
    *(made_page **)user = pg;
    lws_callback_on_writable(wsi);
    return 0;
}

int srv_http_send(struct lws *wsi, void *user, int status, const char *type, char *body, size_t len,
                  const char *disposition, bool close)
{
    return srv_http_send_allow(wsi, user, status, type, body, len, disposition, close, NULL);
}

/* Sends a page made here (taken: freed once written) with its status. */
static int send_page(struct lws *wsi, void *user, int status, char *html)
{
    return srv_http_send(wsi, user, status, "text/html; charset=utf-8", html,
                         html ? strlen(html) : 0, NULL, false);
}

static int write_page(struct lws *wsi, void *user)
{
    made_page *pg = *(made_page **)user;
    *(made_page **)user = NULL;
    int n = lws_write(wsi, pg->data + LWS_PRE, pg->len, LWS_WRITE_HTTP_FINAL);
    bool close = pg->close;
    free(pg);
    if (n < 0 || close)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* A short page saying what was not found and where to go. */
char *srv_missing_page(const char *sentence)
{
    static const char HEAD[] =
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<title>Not found - barbu rules</title>\n</head>\n<body>\n<main>\n<h1>Not found</h1>\n<p>";
    static const char TAIL[] = "</p>\n</main>\n</body>\n</html>\n";
    size_t n = strlen(HEAD) + strlen(sentence) * 6 + strlen(TAIL) + 1;
    char *page = malloc(n);
    if (page == NULL)
        return NULL;
    char *p = page + sprintf(page, "%s", HEAD);
    for (const char *s = sentence; *s; s++) {
        const char *esc = *s == '<'   ? "&lt;"
                          : *s == '>' ? "&gt;"
                          : *s == '&' ? "&amp;"
                          : *s == '"' ? "&quot;"
                                      : NULL;
        if (esc)
            p += sprintf(p, "%s", esc);
        else
            *p++ = *s;
    }
    strcpy(p, TAIL);
    return page;
}

/* The rules in force at a table the server holds: 0, or -1 when it holds
 * no such table or the table has no game.  Only tables in memory: this
 * answers anyone over HTTP, with no session and no flood limit, so it never
 * reads the store on the event loop.  *house is malloc'd. */
static int table_rules(srv_server *srv, int64_t id, barbu_rules *rules, char *preset, size_t cap,
                       char **house)
{
    srv_table *t = srv_table_find(srv, id);
    if (t != NULL && !t->no_game) {
        *rules = t->rules;
        snprintf(preset, cap, "%s", t->preset);
        *house = strdup(t->house ? t->house : "");
        return *house ? 0 : -1;
    }
    return -1;
}

/* GET /rules/PRESET and /rules/table/ID. */
static int serve_rules(struct lws *wsi, srv_server *srv, void *user, const char *uri)
{
    const char *rest = uri + strlen("/rules/");
    barbu_rules rules;
    char title[120], about[300], sentence[600];
    if (strncmp(rest, "table/", 6) == 0) {
        const char *digits = rest + 6;
        size_t n = strspn(digits, "0123456789");
        char preset[16] = "";
        char *house = NULL;
        char there[700], path[48];
        if (n > 0 && n <= 15 && digits[n] == '\0' &&
            table_rules(srv, strtoll(digits, NULL, 10), &rules, preset, sizeof preset, &house) !=
                0) {
            /* A node: the table is played on another node, whose page
             * it is (behind a proxy, on the same public address). */
            snprintf(path, sizeof path, "/rules/table/%.15s", digits);
            if (srv_node_page_url(srv, strtoll(digits, NULL, 10), path, there, sizeof there)) {
                char *body = strdup("The rules of this table are on the node that plays it.\n");
                return send_with_header(wsi, user, HTTP_STATUS_FOUND, "text/plain; charset=utf-8",
                                        body, body ? strlen(body) : 0, NULL, false,
                                        "location:", there);
            }
        }
        if (n == 0 || n > 15 || digits[n] != '\0' || house == NULL) {
            snprintf(sentence, sizeof sentence,
                     "There is no table %.20s whose rules can be shown. Go back to the lobby "
                     "and open the rules from the table itself.",
                     n > 0 && n <= 15 ? digits : "with that number");
            return send_page(wsi, user, HTTP_STATUS_NOT_FOUND, srv_missing_page(sentence));
        }
        long long id = strtoll(digits, NULL, 10);
        snprintf(title, sizeof title, "Table %lld: the rules in force", id);
        snprintf(about, sizeof about, "The %s rule set%s, as this table plays it.", preset,
                 house[0] ? " with the table's house rules" : "");
        char *page = barbu_rules_page(&rules, title, about, house);
        free(house);
        return send_page(wsi, user, HTTP_STATUS_OK, page);
    }
    if (rest[0] == '\0')
        return send_page(wsi, user, HTTP_STATUS_OK, barbu_rules_index_page());
    if (barbu_rules_preset(&rules, rest) != 0) {
        char names[300] = "";
        for (int i = 0; barbu_preset_name(i) != NULL; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                     barbu_preset_name(i));
        snprintf(sentence, sizeof sentence,
                 "There is no rule set called \"%.40s\". The rule sets are %s: the list "
                 "at /rules/ links to each.",
                 rest, names);
        return send_page(wsi, user, HTTP_STATUS_NOT_FOUND, srv_missing_page(sentence));
    }
    const char *line = "";
    for (int i = 0; barbu_preset_name(i) != NULL; i++)
        if (strcmp(barbu_preset_name(i), rest) == 0)
            line = barbu_preset_about(i);
    snprintf(title, sizeof title, "Barbu rules: %s", rest);
    return send_page(wsi, user, HTTP_STATUS_OK, barbu_rules_page(&rules, title, line, NULL));
}

/* ------------------------------------------------------------ origins */

/* An origin as compared: "scheme://host[:port]" in lower case, without a
 * trailing slash or the scheme's default port.  -1 when it is not an http
 * or https origin. */
int srv_origin_normalize(const char *in, char *out, size_t cap)
{
    size_t skip;
    const char *default_port;
    if (strncasecmp(in, "http://", 7) == 0)
        skip = 7, default_port = ":80";
    else if (strncasecmp(in, "https://", 8) == 0)
        skip = 8, default_port = ":443";
    else
        return -1;
    size_t n = strlen(in);
    if (n > skip && in[n - 1] == '/')
        n--;
    if (n <= skip || n >= cap)
        return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)in[i];
        if (i >= skip && (c <= ' ' || c >= 0x7f || strchr("/?#@\\", c)))
            return -1;
        out[i] = (char)tolower(c);
    }
    out[n] = '\0';
    size_t dp = strlen(default_port);
    if (n - skip > dp && strcmp(out + n - dp, default_port) == 0)
        out[n - dp] = '\0';
    return 0;
}

/* Browsers name the page that opens a WebSocket in Origin; programs send
 * none.  A page of another site may not use a visitor's browser to play
 * here: only the server's own origin (the Host the request was sent to)
 * and those of --allow-origin are let in. */
static bool origin_allowed(struct lws *wsi, srv_server *srv, char *origin, size_t cap)
{
    const barbu_serve_options *opt = srv->opt;
    origin[0] = '\0';
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
    if (n <= 0)
        return true;
    char mine[300], theirs[300], host[256];
    if ((size_t)n >= cap || lws_hdr_copy(wsi, origin, (int)cap, WSI_TOKEN_ORIGIN) < 0 ||
        srv_origin_normalize(origin, theirs, sizeof theirs) != 0)
        return false;
    for (int i = 0; i < opt->n_allow_origins; i++)
        if (srv_origin_normalize(opt->allow_origins[i], mine, sizeof mine) == 0 &&
            strcmp(mine, theirs) == 0)
            return true;
    /* A node: the pages of every node (their public URLs), so that a page
     * from one node may follow `moved` to another. */
    if (srv_node_origin_ok(srv, theirs))
        return true;
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return false;
    bool https = strncmp(theirs, "https:", 6) == 0;
    char own[300];
    snprintf(own, sizeof own, "%s://%s", https ? "https" : "http", host);
    return srv_origin_normalize(own, mine, sizeof mine) == 0 && strcmp(mine, theirs) == 0;
}

static int confirm_upgrade(struct lws *wsi, srv_server *srv)
{
    char origin[256];
    if (origin_allowed(wsi, srv, origin, sizeof origin))
        return 0;
    /* The log shows the header as printable ASCII only. */
    for (char *p = origin; *p; p++)
        if (*p < ' ' || *p > '~')
            *p = '?';
    char ip[48] = "";
    lws_get_peer_simple(wsi, ip, sizeof ip);
    srv_log(srv, "WebSocket from %s refused: Origin '%.100s' is not allowed", ip[0] ? ip : "?",
            origin);
    /* A positive return tells lws the answer (403) is written. */
    if (lws_return_http_status(wsi, HTTP_STATUS_FORBIDDEN, NULL))
        return -1;
    return 1;
}

/* ----------------------------------------------------------- callback */

int srv_http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                      size_t len)
{
    srv_server *srv = lws_context_user(lws_get_context(wsi));
    switch (reason) {
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return confirm_upgrade(wsi, srv);
    case LWS_CALLBACK_HTTP:
        if (user != NULL) {
            srv_http_pss *pss = user;
            /* A new request on a kept connection: nothing of the last. */
            pss->unread = srv_http_has_body(wsi);
            pss->body_taken = false;
        }
        if (len >= 5 && strncmp(in, "/club", 5) == 0 && (len == 5 || ((char *)in)[5] == '/'))
            return srv_club_http(wsi, srv, user, in, len);
        if (user != NULL && ((srv_http_pss *)user)->unread) {
            /* Only the club's replay takes a body: a page or a file is not
             * asked for with one. */
            static const char SENTENCE[] = "This address takes no request body: ask for it with "
                                           "GET and no body.";
            char *page = srv_missing_page(SENTENCE);
            return srv_http_send_allow(wsi, user, HTTP_STATUS_BAD_REQUEST,
                                       "text/html; charset=utf-8", page, page ? strlen(page) : 0,
                                       NULL, true, NULL);
        }
        if (len >= 7 && strncmp(in, "/rules/", 7) == 0 && strlen(in) == len)
            return serve_rules(wsi, srv, user, in);
        if (srv->web_root == NULL)
            return builtin_http(wsi, reason);
        return serve_file(wsi, srv, in, len);
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if (user != NULL && *(made_page **)user != NULL)
            return write_page(wsi, user);
        if (srv->web_root == NULL)
            return builtin_http(wsi, reason);
        break;
    case LWS_CALLBACK_HTTP_BODY:
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        if (user != NULL && ((srv_http_pss *)user)->body_taken)
            return srv_club_body(wsi, srv, user, reason, in, len);
        /* A body nobody reads (its answer is made, or being made, and
         * closes the connection): dropped.  Never lws's default, which
         * would end the transaction before the answer is written. */
        return 0;
    case LWS_CALLBACK_CLOSED_HTTP:
        /* A page not yet written when the connection closed, or a club
         * answer still to come. */
        if (user != NULL) {
            free(*(made_page **)user);
            *(made_page **)user = NULL;
            srv_club_closed(srv, user);
        }
        break;
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

bool barbu_serve_origin_ok(const char *text)
{
    char out[300];
    return srv_origin_normalize(text, out, sizeof out) == 0;
}
