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

/* ---------------------------------------------------------- suggestion */

/* Waits up to ms for c's latest view to be in phase (and, when seat is not
 * NULL, with that seat to move). */
static bool wait_phase(e2e_client *c, const char *phase, int ms)
{
    long deadline = e2e_now_ms() + ms;
    for (;;) {
        const char *p = c->view ? e2e_view_str(c->view, "phase") : NULL;
        if (p && strcmp(p, phase) == 0)
            return true;
        if (e2e_now_ms() >= deadline)
            return false;
        e2e_pump(50);
    }
}

static void send_suggest(e2e_client *c)
{
    e2e_clear(c);
    e2e_send(c, json_pack("{s:s}", "type", "suggest"));
}

/* The seat's hand in its latest view. */
static barbu_cards own_hand(const e2e_client *c)
{
    const json_t *hands = json_object_get(json_object_get(c->view, "view"), "hands");
    char seat[2] = {"NESW"[c->seat], 0};
    return e2e_cards_json(json_object_get(hands, seat));
}

/* Every card named anywhere in a message (strings that read as cards). */
static barbu_cards cards_named(const json_t *j)
{
    barbu_cards set = 0;
    if (json_is_string(j)) {
        const char *end;
        int card = barbu_card_parse(json_string_value(j), &end);
        if (card >= 0 && *end == '\0')
            set |= BARBU_BIT(card);
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach(j, i, v) set |= cards_named(v);
    } else if (json_is_object(j)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v) set |= cards_named(v);
    }
    return set;
}

static void scenario_suggest(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "suggest.db");
    e2e_client *p[4];
    for (int s = 0; s < 4; s++) {
        char name[16];
        snprintf(name, sizeof name, "sg-%c", "NESW"[s]);
        p[s] = e2e_client_new(name, srv.port);
        e2e_hello(p[s], name);
    }
    int table = e2e_create(p[0], "chinese",
                           json_pack("{s:s, s:i, s:s}", "seed", "7", "delay", 0, "sit", "N"));
    json_t *m = e2e_expect(p[0], "table", 5000);
    REQUIRE(m != NULL, "create with sit sends the table");
    json_decref(m);

    send_suggest(p[1]);
    json_decref(e2e_expect_error(p[1], "not_seated", "suggest", 5000));
    send_suggest(p[0]);
    json_decref(e2e_expect_error(p[0], "not_started", "suggest", 5000));

    e2e_client *kib = e2e_client_new_from("sg-kib", srv.port, "127.0.0.2");
    e2e_hello(kib, "sg-kib");
    e2e_kibitz(kib, table, 0);
    for (int s = 1; s < 4; s++)
        e2e_sit(p[s], table, s);
    REQUIRE(wait_phase(p[0], "declare", 5000), "the game starts");
    int declarer = e2e_seat_parse(e2e_view_str(p[0]->view, "to_move"));
    REQUIRE(declarer >= 0, "a declarer is to move");
    e2e_pump(200);

    send_suggest(p[declarer]);
    json_t *e = e2e_expect_error(p[declarer], "bad_value", "suggest", 5000);
    const char *text = json_string_value(json_object_get(e, "text"));
    CHECK(text && strstr(text, "Chinese Poker rows only"),
          "while choosing the contract: bad_value, for Chinese Poker rows only (%s)",
          text ? text : "-");
    json_decref(e);
    send_suggest(kib);
    json_decref(e2e_expect_error(kib, "not_seated", "suggest", 5000));

    e2e_send(p[declarer], json_pack("{s:s, s:{s:s, s:[s]}}", "type", "act", "action", "type",
                                    "declare", "contracts", "chinese"));
    /* The bidding, by the fixed rule, until the rows. */
    long deadline = e2e_now_ms() + 20000;
    while (e2e_now_ms() < deadline) {
        e2e_pump(50);
        const char *phase = p[0]->view ? e2e_view_str(p[0]->view, "phase") : NULL;
        if (phase && strcmp(phase, "arrange") == 0)
            break;
        for (int s = 0; s < 4; s++)
            if (p[s]->view && e2e_to_move(p[s]) && p[s]->acted_at != p[s]->at &&
                strcmp(e2e_view_str(p[s]->view, "phase"), "bid") == 0)
                e2e_act(p[s]);
    }
    for (int s = 0; s < 4; s++)
        REQUIRE(wait_phase(p[s], "arrange", 5000), "%s reaches the rows", p[s]->label);
    e2e_pump(200);

    /* Every seat, whoever sets first, gets rows of its own hand. */
    json_t *first_action = NULL;
    int first = e2e_seat_parse(e2e_view_str(p[0]->view, "to_move"));
    for (int s = 0; s < 4; s++) {
        barbu_cards hand = own_hand(p[s]);
        send_suggest(p[s]);
        long t0 = e2e_now_ms();
        json_t *sg = e2e_expect(p[s], "suggestion", 5000);
        long took = e2e_now_ms() - t0;
        if (!CHECK(sg != NULL, "%s gets a suggestion", p[s]->label))
            continue;
        e2e_note("%s: the suggestion came in %ld ms", p[s]->label, took);
        json_t *act = json_object_get(sg, "action");
        barbu_cards back = e2e_cards_json(json_object_get(act, "back"));
        barbu_cards middle = e2e_cards_json(json_object_get(act, "middle"));
        barbu_cards front = hand & ~back & ~middle;
        CHECK(json_integer_value(json_object_get(sg, "table")) == table &&
                  json_integer_value(json_object_get(sg, "at")) == p[s]->at,
              "%s: the suggestion names the table and the view's at (%ld)", p[s]->label, p[s]->at);
        CHECK(strcmp(json_string_value(json_object_get(act, "type")), "arrange") == 0,
              "%s: it is an arrange action", p[s]->label);
        CHECK(barbu_count(hand) == 13 && barbu_count(back) == 5 && barbu_count(middle) == 5 &&
                  (back & middle) == 0 && ((back | middle) & ~hand) == 0,
              "%s: back and middle are 5 and 5 of the seat's 13 cards", p[s]->label);
        char why[200] = "";
        CHECK(barbu_arrange_check(hand, back, middle, false, why, sizeof why) == 0 &&
                  !barbu_rows_fouled(back, middle, front),
              "%s: the rows are in order, not fouled (%s)", p[s]->label, why);
        CHECK((cards_named(sg) & ~hand) == 0, "%s: the suggestion names no card of another hand",
              p[s]->label);
        size_t keys = json_object_size(sg);
        CHECK(keys == 4, "%s: the suggestion holds type, table, at and action only (%zu keys)",
              p[s]->label, keys);
        if (s == first)
            first_action = json_incref(act);
        json_decref(sg);
    }
    /* Nothing was played: the game still waits for the first rows. */
    e2e_pump(300);
    CHECK(strcmp(e2e_view_str(p[0]->view, "phase"), "arrange") == 0 &&
              e2e_seat_parse(e2e_view_str(p[0]->view, "to_move")) == first,
          "asking played nothing: the rows of %c are still awaited", "NESW"[first]);

    /* The suggestion sent back as it came sets the rows; asked again, the
     * seat is refused. */
    REQUIRE(first_action != NULL, "the first seat had a suggestion");
    e2e_clear(p[first]);
    e2e_send(p[first], json_pack("{s:s, s:o}", "type", "act", "action", first_action));
    long seen = p[first]->at;
    deadline = e2e_now_ms() + 5000;
    while (p[first]->at == seen && e2e_now_ms() < deadline)
        e2e_pump(50);
    CHECK(p[first]->at > seen, "the suggestion, sent back as an act, is accepted");
    CHECK(e2e_peek(p[first], "error") == NULL, "with no error");
    send_suggest(p[first]);
    e = e2e_expect_error(p[first], "bad_value", "suggest", 5000);
    text = json_string_value(json_object_get(e, "text"));
    CHECK(text && strstr(text, "yours are set"), "rows set: bad_value (%s)", text ? text : "-");
    json_decref(e);

    e2e_server_stop(&srv);
}

void evening_suggest(void)
{
    scenario_suggest();
}

/* ---------------------------------------------------------- rules pages */

/* Whether the page holds text as the page writes it (escaped). */
static bool has(const http_answer *a, const char *text)
{
    return a->body != NULL && strstr(a->body, text) != NULL;
}

/* Every contract of the rules: its section, its name as the heading and its
 * abbreviation spelled out. */
static void check_contracts(const char *what, const http_answer *a, const barbu_rules *r)
{
    int missing = 0;
    char first[200] = "";
    for (int i = 0; i < r->n_contracts; i++) {
        const barbu_contract *c = &r->contract[i];
        char id[60], head[60], spelled[80];
        snprintf(id, sizeof id, "id=\"contract-%s\"", c->key);
        snprintf(head, sizeof head, "<h3>%s</h3>", c->name);
        snprintf(spelled, sizeof spelled, "%s: %s", c->abbr, c->name);
        if (!has(a, id) || !has(a, head) || !has(a, spelled)) {
            if (!missing)
                snprintf(first, sizeof first, "%s (%s)", c->key, spelled);
            missing++;
        }
    }
    CHECK(missing == 0,
          "%s: all %d contracts have a section, a heading and the abbreviation "
          "spelled out (%d missing, first %s)",
          what, r->n_contracts, missing, first);
}

static void scenario_rules_pages(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "rules.db");
    http_answer a;
    char v[200];

    for (int p = 0; barbu_preset_name(p) != NULL; p++) {
        const char *name = barbu_preset_name(p);
        char path[80], what[96];
        snprintf(path, sizeof path, "/rules/%s", name);
        snprintf(what, sizeof what, "GET %s", path);
        http_get(srv.port, path, "", &a);
        CHECK(a.status == 200, "%s: 200 (%d)", what, a.status);
        CHECK(strstr(http_header(&a, "Content-Type", v, sizeof v), "text/html") != NULL,
              "%s: an HTML page (%s)", what, v);
        CHECK(a.body && strncmp(a.body, "<!doctype html>", 15) == 0 &&
                  has(&a, "<html lang=\"en\">"),
              "%s: a whole document in English", what);
        CHECK(!has(&a, "<script"), "%s: no script", what);
        barbu_rules r;
        REQUIRE(barbu_rules_preset(&r, name) == 0, "the engine has preset %s", name);
        check_contracts(what, &a, &r);
        CHECK(has(&a, "id=\"doubling\"") && has(&a, "id=\"clock\"") && has(&a, "id=\"options\""),
              "%s: sections #doubling, #options and #clock", what);
        CHECK(has(&a, "From the rule documents: "), "%s: cites the rule documents", what);
        if (r.doubling && r.undoubled_shared)
            CHECK(has(&a, "nobody doubles, it is not played: the three other players score"),
                  "%s: says an undoubled negative contract is not played and how it is shared",
                  what);
        if (!r.doubling)
            CHECK(has(&a, "There is no doubling in this rule set"), "%s: says there is no doubling",
                  what);
        if (barbu_contract_find(&r, "chinese") >= 0)
            CHECK(has(&a, "id=\"chinese\"") && has(&a, "straight flush") &&
                      has(&a, "Fouling: rows out of order") && has(&a, "a scoop") &&
                      has(&a, "A unit is 4 points"),
                  "%s: #chinese has the rows, the poker hands, fouling, units and scoops", what);
        if (barbu_contract_find(&r, "trumps") >= 0)
            CHECK(has(&a, "id=\"trumps\"") && has(&a, "must over-trump"),
                  "%s: #trumps has the obligations", what);
        if (r.game == BARBU_GAME_FIFE) {
            CHECK(has(&a, "id=\"fife-calls\"") && has(&a, "id=\"patience\"") &&
                      has(&a, "id=\"combinations\"") && has(&a, "id=\"silly-round\"") &&
                      has(&a, "id=\"cuts\"") && has(&a, "id=\"pass-ons\""),
                  "%s: the Fife sections (Calls, combinations, Patience, Silly Round, cuts, "
                  "Pass-ons)",
                  what);
            CHECK(has(&a, "a Double: two negative Calls") && has(&a, "a Treble") &&
                      has(&a, "a Quadruple") && has(&a, "The Lot: all five negative Calls") &&
                      has(&a, "Double Patience") && has(&a, "at least two Doubles or a Treble"),
                  "%s: every combination and the rule of two Doubles or a Treble", what);
            CHECK(has(&a, "chaps") && has(&a, "the first card must be a Jack"), "%s: the Patience",
                  what);
        } else {
            CHECK(has(&a, "id=\"contracts\""), "%s: a #contracts section", what);
        }
        http_free(&a);
    }

    /* Abbreviations spelled out, with the scores as uk has them. */
    http_get(srv.port, "/rules/uk", "", &a);
    CHECK(has(&a, "NT: No Tricks") && has(&a, "-2 for each trick taken") &&
              has(&a, "the A♥ -6 instead") && has(&a, "the K♥ is taken") &&
              has(&a, "the three other players score -9 each and the declarer +1") &&
              has(&a, "at least twice"),
          "uk: NT spelled out, the scores, the early end and the shares of an undoubled No "
          "Tricks, two compulsory doubles");
    http_free(&a);

    /* A table's page shows its house rules, and the rules as they stand. */
    e2e_client *c = e2e_client_new("rules-A", srv.port);
    e2e_hello(c, "rules-a");
    int table = e2e_create(c, "uk",
                           json_pack("{s:s, s:s}", "house",
                                     "early-end = no\nmandatory-doubles = 1\nno-tricks.per-trick "
                                     "= -3\ntrumps.per-trick = 6\n",
                                     "sit", "N"));
    json_t *tm = e2e_expect(c, "table", 5000);
    REQUIRE(tm != NULL, "create sends the table");
    json_t *rs = json_object_get(tm, "rule_set");
    char url[64];
    snprintf(url, sizeof url, "/rules/table/%d", table);
    const char *got_url = json_string_value(json_object_get(rs, "rules_url"));
    CHECK(got_url && strcmp(got_url, url) == 0, "the table's rule_set has rules_url %s (%s)", url,
          got_url ? got_url : "none");
    const char *ut = json_string_value(json_object_get(rs, "undoubled_text"));
    CHECK(json_is_true(json_object_get(rs, "undoubled_shared")) && ut && strstr(ut, "not played") &&
              strstr(ut, "No Tricks -13 each, the declarer +0") == NULL &&
              strstr(ut, "No Tricks -13 each, the declarer 0"),
          "rule_set: undoubled_shared, and undoubled_text with the house scores (%s)",
          ut ? ut : "none");
    json_decref(tm);
    http_get(srv.port, url, "", &a);
    CHECK(a.status == 200, "GET %s: 200 (%d)", url, a.status);
    CHECK(has(&a, "id=\"house-rules\"") && has(&a, "early-end = no") &&
              has(&a, "mandatory-doubles = 1"),
          "the table's page shows its house rules as written");
    CHECK(has(&a, "Early ends are off in this rule set") && has(&a, "-3 for each trick taken") &&
              has(&a, "+6 for each trick taken") && has(&a, "at least once") &&
              !has(&a, "at least twice"),
          "and the rules as they stand with them (no early end, -3 and +6 a trick, one "
          "compulsory double)");
    barbu_rules uk;
    barbu_rules_preset(&uk, "uk");
    check_contracts(url, &a, &uk);
    http_free(&a);

    /* A house rule that plays undoubled contracts. */
    e2e_client *c2 = e2e_client_new("rules-B", srv.port);
    e2e_hello(c2, "rules-b");
    int played = e2e_create(
        c2, "uk", json_pack("{s:s, s:s}", "house", "undoubled-not-played = no\n", "sit", "N"));
    tm = e2e_expect(c2, "table", 5000);
    rs = json_object_get(tm, "rule_set");
    CHECK(json_is_false(json_object_get(rs, "undoubled_shared")) &&
              json_object_get(rs, "undoubled_text") == NULL,
          "undoubled-not-played = no: undoubled_shared false, no undoubled_text");
    json_decref(tm);
    snprintf(url, sizeof url, "/rules/table/%d", played);
    http_get(srv.port, url, "", &a);
    CHECK(a.status == 200 && has(&a, "it is played even if nobody doubles") &&
              !has(&a, "nobody doubles, it is not played"),
          "its page says a contract is played even if nobody doubles");
    http_free(&a);

    /* The list of rule sets links to every page. */
    http_get(srv.port, "/rules/", "", &a);
    int linked = 0, presets = 0;
    for (int p = 0; barbu_preset_name(p) != NULL; p++, presets++) {
        char link[64];
        snprintf(link, sizeof link, "href=\"/rules/%s\"", barbu_preset_name(p));
        linked += has(&a, link);
    }
    CHECK(a.status == 200 && linked == presets && !has(&a, "<script"),
          "GET /rules/: the rule sets, each linked to its page (%d, %d links)", a.status, linked);
    http_free(&a);

    /* What is not there. */
    const char *missing[] = {"/rules/nope",   "/rules/table/99999", "/rules/table/abc",
                             "/rules/table/", "/rules/UK",          "/rules/table/1x"};
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
        http_get(srv.port, missing[i], "", &a);
        CHECK(a.status == 404 && has(&a, "<p>") && !has(&a, "<script"),
              "GET %s: 404 with a sentence (%d)", missing[i], a.status);
        http_free(&a);
    }
    http_get(srv.port, "/rules/<b>x", "", &a);
    CHECK(a.status == 404 && !has(&a, "<b>x"), "a name with markup is escaped in the 404 (%d)",
          a.status);
    http_free(&a);

    e2e_server_stop(&srv);
}

void evening_rules_pages(void)
{
    scenario_rules_pages();
}
