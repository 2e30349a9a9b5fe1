/*
 * club_analysis.c - game analyses through a real barbu serve (issue 26,
 * docs/club.md "Analysis"): club_analysis BARBU SCENARIO...
 *
 *   game     a short game played to its end: its analysis refused while it
 *            is played (409), not there before it is asked (404), bad
 *            seats, levels and games refused (400, 404); asked (202), polled
 *            to done, its JSON's shape; asked again, the same body at once
 *            (200); the same after a restart (kept in the store); the game's
 *            record uploaded (POST /club/api/analysis) analysed and read
 *            again by its key; a record that does not replay refused (400),
 *            and one with a NUL byte (400)
 *   pg       game on a PostgreSQL database (tests/pg/cluster.sh's)
 *   limits   --analyses 0 refuses (503) and starts no thread; --analyses 1
 *            starts one, at niceness 10; with --analyses-queued 0 a second
 *            analysis while one runs is refused (503), the same one joins
 *            it; a table of computer players keeps playing while an
 *            analysis runs; the server stops cleanly in the middle of one;
 *            a third analysis from one address while two wait or run is
 *            refused (429), the same asked again joins
 *
 * The game analysed in game is short: uk-32 with Domino only (4 deals of 8
 * cards), computer players without delay.  The one of limits is a whole uk
 * game of computer players, whose hard analysis takes minutes: it is still
 * running when the server stops.
 */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"
#include "pg_test.h"

/* Four deals of Domino with the 32-card pack. */
#define SHORT_HOUSE                                                                                \
    "doubling = no\nmandatory-doubles = 0\nno-tricks.per-player = 0\n"                             \
    "no-hearts.per-player = 0\nno-queens.per-player = 0\nno-king.per-player = 0\n"                 \
    "no-last-two.per-player = 0\ntrumps.per-player = 0\ndomino.places = 30 10 -10 -30\n"
/* Long enough for any analysis here on a loaded machine. */
#define ANALYSIS_MS 180000

/* ------------------------------------------------------------ HTTP */

typedef struct reply {
    int status;
    char *body; /* malloc'd, "" when none */
} reply;

/* One request with an optional body; false when the server did not
 * answer.  The clients' sockets are not read meanwhile: an answer comes in
 * milliseconds. */
static bool http_n(int port, const char *method, const char *path, const char *body, size_t len,
                   reply *r);

static bool http(int port, const char *method, const char *path, const char *body, reply *r)
{
    return http_n(port, method, path, body, body ? strlen(body) : 0, r);
}

/* http with a body of len bytes (a NUL among them too). */
static bool http_n(int port, const char *method, const char *path, const char *body, size_t len,
                   reply *r)
{
    memset(r, 0, sizeof *r);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval tv = {20, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        return false;
    }
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n", method, path);
    if (body)
        n += snprintf(head + n, sizeof head - (size_t)n, "Content-Length: %zu\r\n", len);
    n += snprintf(head + n, sizeof head - (size_t)n, "\r\n");
    bool ok = write(fd, head, (size_t)n) == n;
    for (size_t off = 0; body && ok && off < len;) {
        ssize_t w = write(fd, body + off, len - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    size_t cap = 1 << 16, have = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (have == cap) {
            char *more = realloc(buf, cap * 2 + 1);
            if (more == NULL)
                break;
            buf = more;
            cap *= 2;
        }
        ssize_t got = read(fd, buf + have, cap - have);
        if (got <= 0)
            break;
        have += (size_t)got;
        buf[have] = '\0';
        /* A sized answer is whole once its length came. */
        char *end = strstr(buf, "\r\n\r\n");
        const char *cl = end ? strcasestr(buf, "\r\ncontent-length:") : NULL;
        if (cl && cl < end && have >= (size_t)(end + 4 - buf) + strtoul(cl + 17, NULL, 10))
            break;
    }
    close(fd);
    if (buf == NULL)
        return false;
    buf[have] = '\0';
    char *end = strstr(buf, "\r\n\r\n");
    if (strncmp(buf, "HTTP/1.", 7) != 0 || end == NULL) {
        free(buf);
        return false;
    }
    r->status = atoi(buf + 9);
    r->body = strdup(end + 4);
    free(buf);
    return r->body != NULL;
}

/* A request whose answer is JSON: the object (NULL when it is not), its
 * status in *status. */
static json_t *http_json(int port, const char *method, const char *path, const char *body,
                         int *status)
{
    reply r;
    *status = 0;
    if (!http(port, method, path, body, &r))
        return NULL;
    *status = r.status;
    json_t *o = json_loads(r.body, 0, NULL);
    free(r.body);
    return o;
}

static const char *str_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* An error answer: the status wanted and a sentence in "error" that says
 * word. */
static void refused(int port, const char *method, const char *path, const char *body, int want,
                    const char *word)
{
    int status;
    json_t *o = http_json(port, method, path, body, &status);
    const char *e = str_of(o, "error");
    CHECK(status == want && e2e_refusal_sentence(e) && strstr(e, word) != NULL,
          "%s %s: %d with a sentence saying \"%s\" (%d: %s)", method, path, want, word, status, e);
    json_decref(o);
}

/* ------------------------------------------------------------ games */

/* Plays a short game with computer players at E, S and W and c at N (its
 * first action waits for a check that no analysis is made yet when
 * check_running), to its end; the table. */
static int short_game(e2e_client *c, int port, bool check_running)
{
    json_t *f = json_pack("{s:s, s:i, s:s, s:s, s:s, s:[s,s,s]}", "house", SHORT_HOUSE, "delay", 0,
                          "level", "easy", "seed", "26", "sit", "N", "bots", "E", "S", "W");
    int table = e2e_create(c, "uk-32", f);
    if (check_running) {
        /* The game runs (N declares first, and waits): no analysis yet. */
        long deadline = e2e_now_ms() + 10000;
        while (!e2e_to_move(c) && e2e_now_ms() < deadline)
            e2e_pump(50);
        REQUIRE(e2e_to_move(c), "N is to move in the game");
        char path[96];
        snprintf(path, sizeof path, "/club/api/game/%d/analysis?seat=S", table);
        refused(port, "POST", path, NULL, 409, "still being played");
    }
    c->autoplay = true;
    c->group = e2e_new_group();
    e2e_play(NULL, NULL, 120000);
    REQUIRE(e2e_game_over(c), "the game at table %d is over", table);
    c->autoplay = false;
    return table;
}

/* POSTs (or GETs) until the analysis is done: its JSON, or NULL after
 * ANALYSIS_MS.  *polls counts the answers that said queued or running. */
static json_t *wait_done(int port, const char *path, int *polls)
{
    long deadline = e2e_now_ms() + ANALYSIS_MS;
    *polls = 0;
    while (e2e_now_ms() < deadline) {
        int status;
        json_t *o = http_json(port, "GET", path, NULL, &status);
        if (status == 200 && strcmp(str_of(o, "status"), "done") == 0)
            return o;
        const char *st = str_of(o, "status");
        CHECK(status == 202 && (strcmp(st, "queued") == 0 || strcmp(st, "running") == 0) &&
                  json_is_integer(json_object_get(o, "done")) &&
                  json_is_integer(json_object_get(o, "total")),
              "GET %s while it runs: 202, queued or running with done and total (%d %s)", path,
              status, st);
        json_decref(o);
        if (status != 202)
            return NULL;
        (*polls)++;
        e2e_pump(300);
    }
    return NULL;
}

/* The analysis's JSON has the shape of docs/club.md (Analysis). */
static void check_shape(const json_t *a, const char *seat, const char *level, const char *what)
{
    CHECK(strcmp(str_of(a, "seat"), seat) == 0 && strcmp(str_of(a, "level"), level) == 0,
          "%s: seat %s, level %s (%s, %s)", what, seat, level, str_of(a, "seat"),
          str_of(a, "level"));
    json_t *items = json_object_get(a, "items");
    json_t *worst = json_object_get(a, "worst");
    long decisions = (long)json_integer_value(json_object_get(a, "decisions"));
    CHECK(json_is_array(items) && json_array_size(items) > 0 &&
              (long)json_array_size(items) == decisions,
          "%s: %ld decisions, as many items (%zu)", what, decisions, json_array_size(items));
    CHECK(json_is_number(json_object_get(a, "total_cost")) && json_is_array(worst),
          "%s: a total cost and the worst decisions", what);
    bool items_ok = true;
    size_t k;
    json_t *it;
    json_array_foreach(items, k, it)
    {
        json_t *options = json_object_get(it, "options");
        double cost = json_number_value(json_object_get(it, "cost"));
        if (!json_is_integer(json_object_get(it, "deal")) ||
            json_integer_value(json_object_get(it, "step")) < 1 ||
            !json_is_string(json_object_get(it, "kind")) ||
            !json_is_string(json_object_get(it, "chosen")) ||
            !json_is_string(json_object_get(it, "best")) || cost < 0 || !json_is_array(options) ||
            json_array_size(options) < 1 || !json_is_string(json_object_get(it, "words"))) {
            items_ok = false;
            e2e_note("%s: item %zu is not as documented", what, k);
            break;
        }
    }
    CHECK(items_ok,
          "%s: every item has its deal, step, kind, chosen, best, cost >= 0, words and "
          "options",
          what);
    /* The worst first: costs never rise along the list, each above 0. */
    double last = 1e9;
    bool sorted = true;
    json_array_foreach(worst, k, it)
    {
        json_t *item = json_array_get(items, (size_t)json_integer_value(it));
        double cost = json_number_value(json_object_get(item, "cost"));
        if (item == NULL || cost <= 0 || cost > last)
            sorted = false;
        last = cost;
    }
    CHECK(sorted, "%s: worst lists decisions that cost something, costliest first", what);
}

/* ------------------------------------------------------------ game */

/* The pg scenario's database (a PostgreSQL URL), NULL for a SQLite file. */
static char *pg_url;

static void start(e2e_server *srv, const char *dbname)
{
    if (pg_url == NULL) {
        e2e_server_start(srv, dbname);
        return;
    }
    const char *args[] = {"--listen", "127.0.0.1:0", "--db", pg_url, "--quiet", NULL};
    e2e_server_start_args(srv, pg_url, args);
}

static void analysis_game(void)
{
    e2e_server srv;
    start(&srv, "analysis_game.db");
    e2e_client *ann = e2e_client_new("ann", srv.port);
    e2e_hello(ann, "ann");
    int table = short_game(ann, srv.port, true);
    char path[128], path_n[128];
    snprintf(path, sizeof path, "/club/api/game/%d/analysis?seat=S&level=medium", table);
    snprintf(path_n, sizeof path_n, "/club/api/game/%d/analysis?seat=N", table);

    /* Refusals, each a sentence. */
    refused(srv.port, "GET", path, NULL, 404, "not been analysed");
    refused(srv.port, "POST", "/club/api/game/99999/analysis?seat=S", NULL, 404, "no game 99999");
    char bad[128];
    snprintf(bad, sizeof bad, "/club/api/game/%d/analysis?seat=Q", table);
    refused(srv.port, "POST", bad, NULL, 400, "N, E, S or W");
    snprintf(bad, sizeof bad, "/club/api/game/%d/analysis?seat=S&level=random", table);
    refused(srv.port, "POST", bad, NULL, 400, "easy, medium and hard");
    snprintf(bad, sizeof bad, "/club/api/game/%d/analysis", table);
    refused(srv.port, "POST", bad, NULL, 400, "seat=N, E, S or W");
    snprintf(bad, sizeof bad, "/club/api/game/%d/analysis?seat=S", table);
    refused(srv.port, "PUT", bad, NULL, 405, "POST");

    /* Asked: 202, then done. */
    int status;
    json_t *o = http_json(srv.port, "POST", path, NULL, &status);
    const char *st = str_of(o, "status");
    CHECK(status == 202 && (strcmp(st, "queued") == 0 || strcmp(st, "running") == 0),
          "POST %s: 202, queued or running (%d %s)", path, status, st);
    CHECK(strncmp(str_of(o, "key"), "game:", 5) == 0, "the answer names the key (%s)",
          str_of(o, "key"));
    json_decref(o);
    /* The same asked again while it runs joins it. */
    o = http_json(srv.port, "POST", path, NULL, &status);
    CHECK(status == 202 || status == 200, "a second POST joins it (%d)", status);
    json_decref(o);
    int polls;
    json_t *done = wait_done(srv.port, path, &polls);
    REQUIRE(done != NULL, "the analysis of S is done within %d s", ANALYSIS_MS / 1000);
    check_shape(done, "S", "medium", "S's analysis");
    char *first = json_dumps(done, JSON_SORT_KEYS | JSON_COMPACT);

    /* Asked again: the same, kept. */
    reply r;
    REQUIRE(http(srv.port, "POST", path, NULL, &r), "POST again is answered");
    json_t *again = json_loads(r.body, 0, NULL);
    char *second = again ? json_dumps(again, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
    CHECK(r.status == 200 && second && strcmp(first, second) == 0,
          "POST again: 200 with the same analysis (%d)", r.status);
    free(r.body);
    free(second);
    json_decref(again);

    /* Its record, kept for the upload below. */
    char rpath[96];
    snprintf(rpath, sizeof rpath, "/club/api/game/%d/record", table);
    reply rec;
    REQUIRE(http(srv.port, "GET", rpath, NULL, &rec) && rec.status == 200, "the game's record");

    /* After a restart: served from the store at once. */
    e2e_client_free(ann);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");
    char db[sizeof srv.db];
    snprintf(db, sizeof db, "%s", srv.db);
    const char *args[] = {"--listen", "127.0.0.1:0", "--db", db, "--quiet", NULL};
    e2e_server_start_args(&srv, db, args);
    REQUIRE(http(srv.port, "GET", path, NULL, &r), "GET after a restart is answered");
    again = json_loads(r.body, 0, NULL);
    second = again ? json_dumps(again, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
    CHECK(r.status == 200 && second && strcmp(first, second) == 0,
          "GET after a restart: 200 with the same analysis, from the store (%d)", r.status);
    free(r.body);
    free(second);
    json_decref(again);
    /* Another seat was never asked. */
    refused(srv.port, "GET", path_n, NULL, 404, "North");

    /* The record uploaded: analysed by its text's key, at level easy. */
    o = http_json(srv.port, "POST", "/club/api/analysis?seat=S&level=easy", rec.body, &status);
    const char *key = str_of(o, "key");
    CHECK((status == 202 || status == 200) && strncmp(key, "record:", 7) == 0 &&
              strlen(key) == 7 + 64,
          "POST /club/api/analysis: %d with the record's key (%s)", status, key);
    char kpath[160];
    snprintf(kpath, sizeof kpath, "/club/api/analysis/%s?seat=S&level=easy",
             strlen(key) == 71 ? key + 7 : "0");
    json_decref(o);
    json_t *up = wait_done(srv.port, kpath, &polls);
    REQUIRE(up != NULL, "the uploaded record's analysis is done");
    check_shape(up, "S", "easy", "the upload's analysis");
    json_decref(up);
    /* The same upload again: the kept one. */
    o = http_json(srv.port, "POST", "/club/api/analysis?seat=S&level=easy", rec.body, &status);
    CHECK(status == 200 && strcmp(str_of(o, "status"), "done") == 0,
          "the same record again: 200, done (%d)", status);
    json_decref(o);
    /* A record that does not replay: the reader's sentence. */
    refused(srv.port, "POST", "/club/api/analysis?seat=S", "[Rules \"uk\"]\n1. XX\n", 400,
            "could not be replayed");
    refused(srv.port, "POST", "/club/api/analysis?seat=S", "", 400, "no record");
    /* The record with a NUL byte after its first line: no text, refused
     * (its key would hash bytes the analysis never read). */
    {
        size_t len = strlen(rec.body);
        char *nul = malloc(len + 1);
        REQUIRE(nul != NULL, "memory for the record");
        memcpy(nul, rec.body, len + 1);
        char *eol = strchr(nul, '\n');
        *(eol ? eol + 1 : nul) = '\0';
        reply z;
        REQUIRE(http_n(srv.port, "POST", "/club/api/analysis?seat=S", nul, len, &z),
                "a record with a NUL byte is answered");
        json_t *zo = json_loads(z.body, 0, NULL);
        CHECK(z.status == 400 && strstr(str_of(zo, "error"), "NUL byte") != NULL,
              "a record with a NUL byte: 400 saying so (%d: %s)", z.status, str_of(zo, "error"));
        json_decref(zo);
        free(z.body);
        free(nul);
    }
    refused(srv.port, "GET", "/club/api/analysis/abc?seat=S", NULL, 400, "64 hexadecimal");

    free(rec.body);
    free(first);
    json_decref(done);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");
}

/* ------------------------------------------------------------ limits */

/* The server's threads named barbu-analysis, and how many of them run at
 * niceness 10 (/proc/PID/task/TID/stat's 19th field). */
static int analysis_threads(pid_t pid, int *niced)
{
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    int n = 0;
    *niced = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char file[512], comm[64] = "", stat[1024] = "";
        snprintf(file, sizeof file, "%s/%s/comm", path, e->d_name);
        FILE *f = fopen(file, "r");
        if (f) {
            if (!fgets(comm, sizeof comm, f))
                comm[0] = '\0';
            fclose(f);
        }
        if (strncmp(comm, "barbu-analysis", 14) != 0)
            continue;
        n++;
        snprintf(file, sizeof file, "%s/%s/stat", path, e->d_name);
        f = fopen(file, "r");
        if (f) {
            if (!fgets(stat, sizeof stat, f))
                stat[0] = '\0';
            fclose(f);
        }
        /* After the command's closing parenthesis: state is field 3, nice
         * field 19. */
        const char *p = strrchr(stat, ')');
        int field = 2;
        while (p && *p && field < 19) {
            p = strchr(p + 1, ' ');
            if (p)
                field++;
        }
        if (p && atoi(p + 1) == 10)
            (*niced)++;
    }
    if (d)
        closedir(d);
    return n;
}

/* A whole uk game of four computer players without delay (over within
 * seconds), so that its hard analysis takes minutes: the table. */
static int long_game(e2e_client *c, int port)
{
    e2e_send(c, json_pack("{s:s, s:s, s:[s,s,s,s], s:s, s:i, s:s}", "type", "create", "rules", "uk",
                          "bots", "N", "E", "S", "W", "level", "easy", "delay", 0, "seed", "26"));
    json_t *created = e2e_expect(c, "created", 5000);
    REQUIRE(created != NULL, "%s creates a table of computer players", c->label);
    int table = (int)json_integer_value(json_object_get(created, "table"));
    json_decref(created);
    char path[64];
    snprintf(path, sizeof path, "/club/api/game/%d", table);
    long deadline = e2e_now_ms() + 120000;
    for (;;) {
        int status;
        json_t *g = http_json(port, "GET", path, NULL, &status);
        bool over = status == 200 && strcmp(str_of(g, "status"), "over") == 0;
        json_decref(g);
        if (over)
            break;
        REQUIRE(e2e_now_ms() < deadline, "the computer players' game %d ends", table);
        e2e_pump(200);
    }
    return table;
}

/* barbu serve with these arguments refuses them: its exit status and
 * what it printed, which must say want. */
static void serve_refuses(const char *args, const char *want)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' serve --listen 127.0.0.1:0 --db :memory: %s 2>&1", e2e_barbu(),
             args);
    FILE *p = popen(cmd, "r");
    char out[4096] = "";
    size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[n] = '\0';
    int rc = p ? pclose(p) : -1;
    CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) == 2 && strstr(out, want) != NULL,
          "barbu serve %s: refused with \"%s\" (status %d: %.200s)", args, want,
          WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, out);
}

static void analysis_limits(void)
{
    serve_refuses("--analyses 65", "--analyses takes 0 to 64, not '65'");
    serve_refuses("--analyses-queued -1", "--analyses-queued takes 0 to 10000, not '-1'");

    /* --analyses 0: refused, with why. */
    e2e_server srv;
    const char *off[] = {"--analyses", "0", NULL};
    e2e_server_start_with(&srv, "analysis_limits.db", off);
    e2e_client *ann = e2e_client_new("ann", srv.port);
    e2e_hello(ann, "ann");
    int table = long_game(ann, srv.port);
    char path[128];
    snprintf(path, sizeof path, "/club/api/game/%d/analysis?seat=S&level=hard", table);
    refused(srv.port, "POST", path, NULL, 503, "--analyses 0");
    int none_niced, none = analysis_threads(srv.pid, &none_niced);
    CHECK(none == 0, "--analyses 0: no analysis thread (%d)", none);
    e2e_client_free(ann);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");

    /* One thread, none waiting: a second analysis while one runs is
     * refused; the same one joins. */
    char db[sizeof srv.db];
    snprintf(db, sizeof db, "%s", srv.db);
    const char *one[] = {"--listen", "127.0.0.1:0",       "--db", db,  "--quiet", "--analyses",
                         "1",        "--analyses-queued", "0",    NULL};
    e2e_server_start_args(&srv, db, one);
    /* The thread names itself and lowers its priority as it starts: it
     * may not have run yet when the server listens. */
    int niced = 0, threads = 0;
    for (long until = e2e_now_ms() + 10000; e2e_now_ms() < until; e2e_pump(50)) {
        threads = analysis_threads(srv.pid, &niced);
        if (threads == 1 && niced == 1)
            break;
    }
    CHECK(threads == 1 && niced == 1,
          "--analyses 1: one analysis thread, at niceness 10 (%d threads, %d at 10)", threads,
          niced);
    int status;
    json_t *o = http_json(srv.port, "POST", path, NULL, &status);
    CHECK(status == 202, "POST S at hard: 202 (%d)", status);
    json_decref(o);
    char path_n[128];
    snprintf(path_n, sizeof path_n, "/club/api/game/%d/analysis?seat=N&level=hard", table);
    refused(srv.port, "POST", path_n, NULL, 503, "busy");
    o = http_json(srv.port, "POST", path, NULL, &status);
    CHECK(status == 202, "POST S again: 202, the same analysis (%d)", status);
    json_decref(o);

    /* A table of computer players plays on while the analysis runs: its
     * views keep coming to a kibitzer. */
    e2e_client *bob = e2e_client_new("bob", srv.port);
    e2e_hello(bob, "bob");
    /* A computer player's action every 50 ms or so: the game lasts a minute. */
    json_t *m = json_pack("{s:s, s:s, s:[s,s,s,s], s:s, s:i}", "type", "create", "rules", "uk",
                          "bots", "N", "E", "S", "W", "level", "easy", "delay", 50);
    e2e_send(bob, m);
    json_t *created = e2e_expect(bob, "created", 5000);
    REQUIRE(created != NULL, "bob creates a table of computer players");
    int bots = (int)json_integer_value(json_object_get(created, "table"));
    json_decref(created);
    e2e_kibitz(bob, bots, 0);
    int views0 = bob->views;
    long deadline = e2e_now_ms() + 60000;
    while (bob->views - views0 < 20 && e2e_now_ms() < deadline)
        e2e_pump(20);
    o = http_json(srv.port, "GET", path, NULL, &status);
    CHECK(bob->views - views0 >= 20 && status == 202 && strcmp(str_of(o, "status"), "running") == 0,
          "20 actions of the computer players' table came while the analysis runs (%d views, "
          "%d %s)",
          bob->views - views0, status, str_of(o, "status"));
    json_decref(o);
    e2e_client_free(bob);
    /* Stopped in the middle of it: a clean exit (no leak under the
     * sanitizers), and nothing kept. */
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly during an analysis");

    /* One thread and room to wait, but one address has two analyses at
     * most, waiting or running: a third is refused (429), the same one
     * asked again joins it. */
    const char *queue[] = {"--listen", "127.0.0.1:0", "--db", db,
                           "--quiet",  "--analyses",  "1",    NULL};
    e2e_server_start_args(&srv, db, queue);
    refused(srv.port, "GET", path, NULL, 404, "not been analysed");
    o = http_json(srv.port, "POST", path, NULL, &status);
    CHECK(status == 202, "POST S at hard: 202 (%d)", status);
    json_decref(o);
    o = http_json(srv.port, "POST", path_n, NULL, &status);
    CHECK(status == 202 && strcmp(str_of(o, "status"), "queued") == 0,
          "POST N at hard: 202, queued (%d %s)", status, str_of(o, "status"));
    json_decref(o);
    char path_e[128];
    snprintf(path_e, sizeof path_e, "/club/api/game/%d/analysis?seat=E&level=hard", table);
    refused(srv.port, "POST", path_e, NULL, 429, "You already have 2 analyses waiting");
    o = http_json(srv.port, "POST", path_n, NULL, &status);
    CHECK(status == 202, "POST N again: 202, it joins the one waiting (%d)", status);
    json_decref(o);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");
}

/* game on PostgreSQL: kept by the loop's connection, read by the club's
 * reader's. */
static void analysis_pg(void)
{
    pg_url = pg_test_db("club_analysis");
    REQUIRE(pg_url != NULL, "a PostgreSQL database (is BARBU_TEST_PG set?)");
    analysis_game();
    free(pg_url);
    pg_url = NULL;
}

static const e2e_scenario SCENARIOS[] = {
    {"game", analysis_game},
    {"pg", analysis_pg},
    {"limits", analysis_limits},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    return e2e_main("club_analysis", argc, argv, SCENARIOS);
}
