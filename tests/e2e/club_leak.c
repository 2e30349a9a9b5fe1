/*
 * club_leak.c - the club's pages and JSON twins tell nothing of a game in
 * play (docs/club.md, "Pages and their JSON twins").
 *
 * A real server (--ladder-min-games 1) with two running games (uk-32 with
 * house rules that keep Domino only: four short deals): a guest's against
 * three computer players at a table with a chosen seed, and a ladder game
 * of four registered players.  Every hand is taken from its
 * player's own view.  Then every club address is fetched (the ladder of
 * the month and of the year, a player's page, a level's page, each game's
 * page, the archive with each filter, the ratings, each game's record and
 * replay, a POST of nothing to /club/api/replay, and the HTML pages): no
 * answer may carry a card (of any hand, nor any card at all), the seed,
 * a key or commitment (a long run of hexadecimal digits), or any deal data;
 * a running game shows as running with its players and nothing else.
 * Bad parameters get 400 with a sentence, unknown addresses 404, a POST
 * over 1 MiB 413, and the server keeps running.  Then both games are
 * played to their end and the data appears: deals and totals, the record
 * (an attachment), the replay, the ladder and the ratings.
 *
 * usage: club_leak BARBU [WEB_DIR]
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

#define PASSWORD  "correct horse battery"
#define SEED_TEXT "918273645546372819"
/* Short games: four deals of Domino with the 32-card pack. */
#define SHORT_HOUSE                                                                                \
    "doubling = no\nmandatory-doubles = 0\nno-tricks.per-player = 0\n"                             \
    "no-hearts.per-player = 0\nno-queens.per-player = 0\nno-king.per-player = 0\n"                 \
    "no-last-two.per-player = 0\ntrumps.per-player = 0\ndomino.places = 30 10 -10 -30\n"

static const char SEATS[] = "NESW";
static const char *const PLAYERS[4] = {"alice", "bob", "carol", "dave"};

/* ------------------------------------------------------------- HTTP */

typedef struct answer {
    int status;
    char type[128], cache[64], disposition[160];
    char *body; /* NUL-terminated */
    size_t len;
} answer;

static void answer_free(answer *a)
{
    free(a->body);
    memset(a, 0, sizeof *a);
}

static void header(const char *head, const char *name, char *out, size_t cap)
{
    out[0] = '\0';
    size_t n = strlen(name);
    for (const char *p = strstr(head, "\r\n"); p; p = strstr(p + 2, "\r\n")) {
        if (strncasecmp(p + 2, name, n) == 0 && p[2 + n] == ':') {
            const char *v = p + 3 + n;
            while (*v == ' ')
                v++;
            size_t len = strcspn(v, "\r\n");
            snprintf(out, cap, "%.*s", (int)(len < cap ? len : cap - 1), v);
            return;
        }
    }
}

/* One request on its own connection (Connection: close): the answer read
 * to the end.  head_extra and body may be NULL; send_len is how much of
 * body goes out (the Content-Length said may be more: claimed). */
static bool http(int port, const char *method, const char *path, const char *body, size_t send_len,
                 long claimed, answer *a)
{
    memset(a, 0, sizeof *a);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval tv = {10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n", method, path);
    if (body || claimed >= 0)
        n += snprintf(head + n, sizeof head - (size_t)n, "Content-Length: %ld\r\n",
                      claimed >= 0 ? claimed : (long)send_len);
    n += snprintf(head + n, sizeof head - (size_t)n, "\r\n");
    bool ok = write(fd, head, (size_t)n) == n;
    for (size_t off = 0; ok && body && off < send_len;) {
        ssize_t w = write(fd, body + off, send_len - off);
        if (w <= 0)
            break; /* the server may close early (413) */
        off += (size_t)w;
    }
    size_t cap = 1 << 16, have = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (have == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + have, cap - have);
        if (r <= 0)
            break;
        have += (size_t)r;
    }
    close(fd);
    buf[have] = '\0';
    char *end = strstr(buf, "\r\n\r\n");
    if (have < 12 || end == NULL) {
        free(buf);
        return false;
    }
    *end = '\0';
    a->status = atoi(buf + 9);
    header(buf, "content-type", a->type, sizeof a->type);
    header(buf, "cache-control", a->cache, sizeof a->cache);
    header(buf, "content-disposition", a->disposition, sizeof a->disposition);
    a->len = have - (size_t)(end + 4 - buf);
    a->body = malloc(a->len + 1);
    memcpy(a->body, end + 4, a->len);
    a->body[a->len] = '\0';
    free(buf);
    return true;
}

static bool get(int port, const char *path, answer *a)
{
    bool ok = http(port, "GET", path, NULL, 0, -1, a);
    CHECK(ok, "GET %s is answered", path);
    return ok;
}

static bool is_json(const answer *a)
{
    return strcmp(a->type, "application/json; charset=utf-8") == 0;
}

/* Raw bytes sent on one connection (kept open: no Connection: close) and
 * what comes back until the server closes it or 3 s pass. */
static char *raw(int port, const char *req, size_t len)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval tv = {3, 0};
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
        connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    ssize_t w = write(fd, req, len);
    size_t cap = 1 << 16, have = 0;
    char *buf = malloc(cap + 1);
    while (w == (ssize_t)len && have < cap) {
        ssize_t r = read(fd, buf + have, cap - have);
        if (r <= 0)
            break;
        have += (size_t)r;
    }
    close(fd);
    buf[have] = '\0';
    return buf;
}

/* The first answer in text: its status, and whether it carries the whole
 * body its Content-Length says (*body_ok), with some Allow / Connection. */
static int first_answer(const char *text, bool *body_ok, char *allow, char *connection)
{
    *body_ok = false;
    allow[0] = connection[0] = '\0';
    const char *end = strstr(text, "\r\n\r\n");
    if (strncmp(text, "HTTP/1.1 ", 9) != 0 || end == NULL)
        return 0;
    char head[4096], cl[32];
    snprintf(head, sizeof head, "%.*s", (int)(end - text), text);
    header(head, "content-length", cl, sizeof cl);
    header(head, "allow", allow, 32);
    header(head, "connection", connection, 32);
    long want = cl[0] ? atol(cl) : -1;
    *body_ok = want > 0 && strlen(end + 4) >= (size_t)want;
    return atoi(text + 9);
}

/* ------------------------------------------------------------ leaks */

typedef struct secrets {
    barbu_cards hands; /* every card of every hand taken from the views */
    int leaks;
} secrets;

static bool long_hex(const char *s)
{
    int run = 0;
    for (; *s; s++) {
        run = isxdigit((unsigned char)*s) ? run + 1 : 0;
        if (run >= 32)
            return true;
    }
    return false;
}

static void walk(secrets *x, const char *what, json_t *j, const char *path)
{
    if (json_is_object(j)) {
        const char *k;
        json_t *v;
        json_object_foreach(j, k, v)
        {
            /* A running game's answer has no deal data to hold. */
            static const char *const DEAL_KEYS[] = {"deals",  "totals", "sheet_html", "record",
                                                    "viewer", "seed",   "key",        "commitment",
                                                    "hands",  "hand",   "actions"};
            for (size_t i = 0; i < sizeof DEAL_KEYS / sizeof DEAL_KEYS[0]; i++)
                if (strcmp(k, DEAL_KEYS[i]) == 0) {
                    x->leaks++;
                    CHECK(false, "%s: no \"%s\" while the games run (at %s)", what, k, path);
                }
            char sub[256];
            snprintf(sub, sizeof sub, "%s.%s", path, k);
            walk(x, what, v, sub);
        }
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach(j, i, v)
        {
            char sub[256];
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            walk(x, what, v, sub);
        }
    } else if (json_is_string(j)) {
        const char *s = json_string_value(j);
        int card = e2e_card_of(NULL, s);
        if (card >= 0 || long_hex(s)) {
            x->leaks++;
            CHECK(false, "%s: \"%s\" at %s is %s", what, s, path,
                  card >= 0 && (x->hands & BARBU_BIT(card)) ? "a card of a hand in play"
                  : card >= 0                               ? "a card"
                                                            : "a key or a commitment");
        }
    }
}

/* Everything an answer must not hold while the games run. */
static void no_leak(secrets *x, const char *what, const answer *a)
{
    int before = x->leaks;
    if (strstr(a->body, SEED_TEXT)) {
        x->leaks++;
        CHECK(false, "%s: the seed appears", what);
    }
    /* In any text (the HTML pages too): a card of a hand, quoted. */
    for (int c = 0; c < 64; c++) {
        if (!(x->hands & BARBU_BIT(c)))
            continue;
        json_t *one = e2e_cards_to_json(BARBU_BIT(c));
        char quoted[8];
        snprintf(quoted, sizeof quoted, "\"%s\"", json_string_value(json_array_get(one, 0)));
        json_decref(one);
        if (strstr(a->body, quoted)) {
            x->leaks++;
            CHECK(false, "%s: the card %s of a hand in play appears", what, quoted);
        }
    }
    if (long_hex(a->body)) {
        x->leaks++;
        CHECK(false, "%s: a key or a commitment (32 hexadecimal digits or more) appears", what);
    }
    if (is_json(a)) {
        json_t *j = json_loads(a->body, 0, NULL);
        if (j)
            walk(x, what, j, "$");
        json_decref(j);
    }
    if (x->leaks == before)
        e2e_note("%s: %d, %zu bytes, nothing of the games in play", what, a->status, a->len);
}

/* A JSON answer of a status whose error is a sentence. */
static void refused(int port, const char *path, int status)
{
    answer a;
    if (!get(port, path, &a))
        return;
    json_t *j = json_loads(a.body, 0, NULL);
    const char *e = json_string_value(json_object_get(j, "error"));
    CHECK(a.status == status && is_json(&a) && e && e2e_refusal_sentence(e),
          "%s: %d with a sentence (%d: %s)", path, status, a.status, e ? e : a.body);
    json_decref(j);
    answer_free(&a);
}

/* ----------------------------------------------------------- players */

static e2e_client *sign_up(const char *name, int port, const char *source)
{
    static int id = 9000;
    e2e_client *c = e2e_client_new_from(name, port, source);
    snprintf(c->name, sizeof c->name, "%s", name);
    e2e_send(c, json_pack("{s:s, s:i, s:s, s:s, s:b, s:i}", "type", "hello", "version", 1, "name",
                          name, "password", PASSWORD, "register", 1, "id", id++));
    json_t *w = e2e_expect(c, "welcome", 15000);
    REQUIRE(w != NULL, "%s: signed up", name);
    const char *token = json_string_value(json_object_get(w, "token"));
    snprintf(c->token, sizeof c->token, "%s", token ? token : "");
    json_decref(w);
    json_decref(e2e_expect(c, "lobby", 5000));
    return c;
}

/* The hand of a seat from its own latest view. */
static barbu_cards own_hand(e2e_client *c)
{
    for (long end = e2e_now_ms() + 5000; c->view == NULL && e2e_now_ms() < end;)
        e2e_pump(50);
    REQUIRE(c->view != NULL, "%s: a view of the game", c->label);
    char seat[2] = {SEATS[c->seat], 0};
    json_t *hands = json_object_get(json_object_get(c->view, "view"), "hands");
    return e2e_cards_json(json_object_get(hands, seat));
}

static int count_cards(barbu_cards s)
{
    int n = 0;
    for (; s; s &= s - 1)
        n++;
    return n;
}

/* --------------------------------------------------------------- run */

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: club_leak BARBU [WEB_DIR]\n");
        return 2;
    }
    e2e_init(argv[1]);
    e2e_server srv;
    const char *extra[] = {"--ladder-min-games", "1", argc > 2 ? "--web" : NULL,
                           argc > 2 ? argv[2] : NULL, NULL};
    e2e_server_start_with(&srv, "club_leak.db", extra);
    int port = srv.port;

    /* A guest against three computer players, from a chosen seed. */
    e2e_client *gus = e2e_client_new_from("gus", port, "127.0.0.2");
    e2e_hello(gus, "gus");
    int t1 = e2e_create(gus, "uk-32",
                        json_pack("{s:s, s:s, s:[s,s,s], s:s, s:i, s:s}", "seed", SEED_TEXT,
                                  "house", SHORT_HOUSE, "bots", "E", "S", "W", "level", "easy",
                                  "delay", 0, "sit", "N"));
    gus->seat = 0;
    gus->table = t1;
    gus->group = e2e_new_group();
    gus->autoplay = true;

    /* A ladder game of four registered players. */
    e2e_client *p[4];
    for (int s = 0; s < 4; s++) {
        char source[32]; /* room for any int: gcc checks -Wformat-truncation */
        snprintf(source, sizeof source, "127.0.0.%d", 3 + s);
        p[s] = sign_up(PLAYERS[s], port, source);
    }
    int t2 = e2e_create(
        p[0], "uk-32", json_pack("{s:b, s:s, s:s}", "ladder", 1, "house", SHORT_HOUSE, "sit", "N"));
    p[0]->seat = 0;
    p[0]->table = t2;
    for (int s = 1; s < 4; s++)
        e2e_sit(p[s], t2, s);
    int group = e2e_new_group();
    for (int s = 0; s < 4; s++) {
        p[s]->group = group;
        p[s]->autoplay = true;
    }

    secrets x = {0, 0};
    x.hands |= own_hand(gus);
    for (int s = 0; s < 4; s++)
        x.hands |= own_hand(p[s]);
    REQUIRE(count_cards(x.hands) >= 32, "the hands hold the whole pack (%d)", count_cards(x.hands));
    e2e_pump(500); /* the games' rows are written as they start */

    /* ---------------------------------------------- while they run */
    char today[16], year[8], path[256];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(today, sizeof today, "%Y-%m-%d", &tm);
    strftime(year, sizeof year, "%Y", &tm);
    char games_of[2][64];
    snprintf(games_of[0], sizeof games_of[0], "/club/api/game/%d", t1);
    snprintf(games_of[1], sizeof games_of[1], "/club/api/game/%d", t2);
    const char *json_paths[] = {
        "/club/api/ladder",
        "/club/api/ratings",
        "/club/api/player/alice",
        "/club/api/player/ALICE?page=1",
        "/club/api/level/easy",
        "/club/api/games",
        "/club/api/games?player=alice",
        "/club/api/games?player=gus",
        "/club/api/games?rules=uk-32",
        "/club/api/games?status=running",
        "/club/api/games?ladder=true",
        "/club/api/games?ladder=false&page=1",
        games_of[0],
        games_of[1],
    };
    for (size_t i = 0; i < sizeof json_paths / sizeof json_paths[0]; i++) {
        answer a;
        if (!get(port, json_paths[i], &a))
            continue;
        CHECK(a.status == 200 && is_json(&a) && strcmp(a.cache, "no-cache") == 0,
              "%s: 200, JSON, no-cache (%d, %s, %s)", json_paths[i], a.status, a.type, a.cache);
        no_leak(&x, json_paths[i], &a);
        answer_free(&a);
    }
    answer a;
    snprintf(path, sizeof path, "/club/api/ladder?period=%s", year);
    if (get(port, path, &a)) {
        CHECK(a.status == 200, "%s: 200", path);
        no_leak(&x, path, &a);
        answer_free(&a);
    }
    snprintf(path, sizeof path, "/club/api/games?from=%s&to=%s&status=running&page=1", today,
             today);
    if (get(port, path, &a)) {
        json_t *j = json_loads(a.body, 0, NULL);
        CHECK(a.status == 200 && json_integer_value(json_object_get(j, "total")) == 2,
              "%s: both games run today (%d: %.200s)", path, a.status, a.body);
        no_leak(&x, path, &a);
        json_decref(j);
        answer_free(&a);
    }
    /* A running game: its number, rules, flags, start and players only. */
    for (int g = 0; g < 2; g++) {
        if (!get(port, games_of[g], &a))
            continue;
        json_t *j = json_loads(a.body, 0, NULL);
        static const char *const ALLOWED[] = {"id",     "status", "preset",  "house",
                                              "ladder", "rated",  "started", "players"};
        bool only = j != NULL;
        const char *k;
        json_t *v;
        json_object_foreach(j, k, v)
        {
            bool ok = false;
            for (size_t i = 0; i < sizeof ALLOWED / sizeof ALLOWED[0]; i++)
                ok = ok || strcmp(k, ALLOWED[i]) == 0;
            only = only && ok;
        }
        size_t i;
        json_array_foreach(json_object_get(j, "players"), i, v)
        {
            only = only && json_object_size(v) == 4 && json_object_get(v, "seat") &&
                   json_object_get(v, "name") && json_object_get(v, "kind") &&
                   json_object_get(v, "level");
        }
        CHECK(only && strcmp(json_string_value(json_object_get(j, "status")), "running") == 0 &&
                  json_array_size(json_object_get(j, "players")) == 4 &&
                  json_is_true(json_object_get(j, "ladder")) == (g == 1),
              "%s: running, its four players and nothing else (%.300s)", games_of[g], a.body);
        json_decref(j);
        answer_free(&a);
    }
    /* No record and no replay of a game in play. */
    int ids[2] = {t1, t2};
    for (int g = 0; g < 2; g++) {
        snprintf(path, sizeof path, "/club/api/game/%d/record", ids[g]);
        if (get(port, path, &a)) {
            CHECK(a.status == 409 && is_json(&a), "%s: 409 while the game runs (%d)", path,
                  a.status);
            no_leak(&x, path, &a);
            answer_free(&a);
        }
        refused(port, path, 409);
        snprintf(path, sizeof path, "/club/api/game/%d/replay", ids[g]);
        if (get(port, path, &a)) {
            CHECK(a.status == 409, "%s: 409 while the game runs (%d)", path, a.status);
            no_leak(&x, path, &a);
            answer_free(&a);
        }
    }
    if (http(port, "POST", "/club/api/replay", "", 0, -1, &a)) {
        json_t *j = json_loads(a.body, 0, NULL);
        const char *e = json_string_value(json_object_get(j, "error"));
        CHECK(a.status == 400 && e && e2e_refusal_sentence(e),
              "POST of nothing to /club/api/replay: 400 with a sentence (%d: %s)", a.status,
              a.body);
        no_leak(&x, "POST /club/api/replay", &a);
        json_decref(j);
        answer_free(&a);
    } else
        CHECK(false, "POST /club/api/replay is answered");
    /* The pages: one shell for every address (404 without a web folder). */
    char page_game[64];
    snprintf(page_game, sizeof page_game, "/club/game/%d", t2);
    const char *pages[] = {"/club/",
                           "/club/ladder?period=2026-11",
                           "/club/player/alice",
                           "/club/level/easy",
                           page_game,
                           "/club/games",
                           "/club/viewer",
                           "/club/ratings"};
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        if (!get(port, pages[i], &a))
            continue;
        CHECK(a.status == (argc > 2 ? 200 : 404) && strncmp(a.type, "text/html", 9) == 0,
              "%s: the club's page (%d, %s)", pages[i], a.status, a.type);
        no_leak(&x, pages[i], &a);
        answer_free(&a);
    }
    CHECK(x.leaks == 0, "nothing of the games in play in any answer (%d found)", x.leaks);

    /* ------------------------------------------- bad requests refused */
    refused(port, "/club/api/ladder?period=2026-13", 400);
    refused(port, "/club/api/ladder?period=last", 400);
    refused(port, "/club/api/games?page=0", 400);
    refused(port, "/club/api/games?page=x", 400);
    refused(port, "/club/api/games?from=2026-02-30", 400);
    refused(port, "/club/api/games?to=27-11-2026", 400);
    refused(port, "/club/api/games?rules=snap", 400);
    refused(port, "/club/api/games?status=done", 400);
    refused(port, "/club/api/games?ladder=maybe", 400);
    refused(port, "/club/api/games?player=%FF%FE", 400);
    refused(port, "/club/api/games?colour=red", 400);
    refused(port, "/club/api/player/%C3", 400);
    refused(port, "/club/api/level/expert", 400);
    refused(port, "/club/api/game/abc", 400);
    refused(port, "/club/api/game/12x/record", 400);
    refused(port, "/club/api/player/nobody", 404);
    refused(port, "/club/api/game/999999", 404);
    refused(port, "/club/api/nothing", 404);
    refused(port, "/club/api/game/1/moves", 404);
    refused(port, "/club/api/games?page=99", 404);
    refused(port, "/club/api/replay", 405);
    /* A record over 1 MiB is refused before it is read. */
    static char big[256 << 10];
    memset(big, 'x', sizeof big);
    if (http(port, "POST", "/club/api/replay", big, sizeof big, 2L << 20, &a)) {
        json_t *j = json_loads(a.body, 0, NULL);
        const char *e = json_string_value(json_object_get(j, "error"));
        CHECK(a.status == 413 && e && e2e_refusal_sentence(e),
              "a POST of 2 MiB: 413 with a sentence (%d: %s)", a.status, a.body);
        json_decref(j);
        answer_free(&a);
    } else
        CHECK(false, "a POST of 2 MiB is answered");
    /* A record that does not read: 400 with the reader's sentence. */
    const char *bad = "[Event \"x\"]\n[Rules \"nonsense\"]\n\n1. junk\n";
    if (http(port, "POST", "/club/api/replay", bad, strlen(bad), -1, &a)) {
        json_t *j = json_loads(a.body, 0, NULL);
        const char *e = json_string_value(json_object_get(j, "error"));
        CHECK(a.status == 400 && e && e2e_refusal_sentence(e),
              "a record that does not read: 400 with a sentence (%d: %s)", a.status, a.body);
        json_decref(j);
        answer_free(&a);
    }
    /* Requests that carry a body no one reads: the answer is written
     * whole, then the connection closes (a kept connection could not tell
     * the body from a next request). */
    static const struct {
        const char *req;
        int status;
        const char *allow;
    } BODIED[] = {
        {"GET /club/api/nope HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx", 404, ""},
        {"POST /club/api/ladder HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", 405, "GET"},
        {"GET /club/api/replay HTTP/1.1\r\nHost: x\r\n\r\n", 405, "POST"},
        {"GET /club/api/games?page=0 HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx", 400, ""},
        /* Pipelined: the first with a body, answered whole. */
        {"GET /club/api/ratings HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx"
         "GET /club/api/ladder HTTP/1.1\r\nHost: x\r\n\r\n",
         200, ""},
        {"GET /club/api/nope HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nxy"
         "GET /club/api/nope HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nxy",
         404, ""},
        /* A length with leading zeros is its value: 16 bytes, not "over 1 MiB". */
        {"POST /club/api/replay HTTP/1.1\r\nHost: x\r\nContent-Length: 00000000000000016\r\n"
         "Connection: close\r\n"
         "\r\n[Rules \"junk\"]\n\n",
         400, ""},
    };
    for (size_t i = 0; i < sizeof BODIED / sizeof BODIED[0]; i++) {
        char *text = raw(port, BODIED[i].req, strlen(BODIED[i].req));
        bool body_ok = false;
        char allow[32], connection[32];
        int status = text ? first_answer(text, &body_ok, allow, connection) : 0;
        bool has_body = strstr(BODIED[i].req, "Content-Length") != NULL;
        CHECK(status == BODIED[i].status && body_ok && strcmp(allow, BODIED[i].allow) == 0 &&
                  (!has_body || i == 6 || strcasecmp(connection, "close") == 0),
              "%.*s: %d with its whole body%s%s%s (%d, body %s, allow \"%s\", "
              "connection \"%s\": %.*s)",
              (int)strcspn(BODIED[i].req, "\r"), BODIED[i].req, BODIED[i].status,
              BODIED[i].allow[0] ? ", Allow: " : "", BODIED[i].allow,
              has_body && i != 6 ? ", then closed" : "", status, body_ok ? "whole" : "missing",
              allow, connection, text ? (int)strcspn(text, "\r") : 7, text ? text : "nothing");
        if (i == 6)
            CHECK(text && strstr(text, "1 MiB") == NULL,
                  "a Content-Length of 00000000000000016 is 16 bytes, not over 1 MiB");
        free(text);
    }
    /* Pipelined without a body: both answered on the kept connection. */
    {
        const char *req = "GET /club/api/ratings HTTP/1.1\r\nHost: x\r\n\r\n"
                          "GET /club/api/nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        char *text = raw(port, req, strlen(req));
        const char *second = text ? strstr(text + 1, "HTTP/1.1 ") : NULL;
        CHECK(text && strncmp(text, "HTTP/1.1 200", 12) == 0 && second &&
                  strncmp(second, "HTTP/1.1 404", 12) == 0 && strstr(second, "\"error\""),
              "two requests pipelined: 200, then 404 with its sentence (%.80s)",
              text ? text : "nothing");
        free(text);
    }
    /* A page or a file asked for with a body: 400, closed. */
    {
        const char *req = "GET /rules/ HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx";
        char *text = raw(port, req, strlen(req));
        CHECK(text && strncmp(text, "HTTP/1.1 400", 12) == 0 && strstr(text, "</html>"),
              "GET /rules/ with a body: 400 with a page (%.100s)", text ? text : "nothing");
        free(text);
    }
    /* Records received at once are CLUB_UPLOADS (4) at most: a fifth
     * sender waits its turn (503 with a sentence), the others go on. */
    {
        int fds[5];
        const char *head = "POST /club/api/replay HTTP/1.1\r\nHost: x\r\nContent-Length: "
                           "1000\r\n\r\n[Event";
        for (int i = 0; i < 5; i++) {
            fds[i] = socket(AF_INET, SOCK_STREAM, 0);
            struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
            sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            struct timeval tv = {3, 0};
            setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            bool ok = connect(fds[i], (struct sockaddr *)&sa, sizeof sa) == 0 &&
                      write(fds[i], head, strlen(head)) == (ssize_t)strlen(head);
            CHECK(ok, "upload %d sent its headers", i + 1);
            e2e_pump(100);
        }
        char buf[2048];
        ssize_t r = read(fds[4], buf, sizeof buf - 1);
        buf[r > 0 ? r : 0] = '\0';
        CHECK(strncmp(buf, "HTTP/1.1 503", 12) == 0 && strstr(buf, "\"error\""),
              "a fifth record at once: 503 with a sentence (%.200s)", buf);
        for (int i = 0; i < 5; i++)
            close(fds[i]);
        e2e_pump(300);
        const char *bad2 = "[Event \"x\"]\n[Rules \"nonsense\"]\n\n1. junk\n";
        if (http(port, "POST", "/club/api/replay", bad2, strlen(bad2), -1, &a)) {
            CHECK(a.status == 400, "once they are gone, a record is read again (%d: %s)", a.status,
                  a.body);
            answer_free(&a);
        } else
            CHECK(false, "a record after the uploads is answered");
    }
    /* Connections that close while their answer is being made: the
     * answers are dropped, nothing else happens. */
    for (int i = 0; i < 100; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
            const char *req = i % 2
                                  ? "GET /club/api/player/alice HTTP/1.1\r\nHost: x\r\n\r\n"
                                  : "GET /club/api/games?player=alice HTTP/1.1\r\nHost: x\r\n\r\n";
            ssize_t w = write(fd, req, strlen(req));
            (void)w; /* closed at once, answered or not */
        }
        if (fd >= 0)
            close(fd);
    }
    e2e_pump(300);
    CHECK(e2e_server_alive(&srv), "the server keeps running");
    if (get(port, "/club/api/ratings", &a)) {
        CHECK(a.status == 200, "the club still answers after 100 connections closed in flight");
        answer_free(&a);
    }

    /* --------------------------------------------- played to the end */
    long t0 = e2e_now_ms();
    e2e_play(NULL, NULL, 180000);
    e2e_note("both games played in %ld ms", e2e_now_ms() - t0);
    CHECK(e2e_game_over(gus) && e2e_game_over(p[0]), "both games are over");
    e2e_pump(500);
    for (int g = 0; g < 2; g++) {
        if (!get(port, games_of[g], &a))
            continue;
        json_t *j = json_loads(a.body, 0, NULL);
        CHECK(a.status == 200 &&
                  strcmp(json_string_value(json_object_get(j, "status")), "over") == 0 &&
                  json_array_size(json_object_get(j, "deals")) > 0 &&
                  json_integer_value(json_object_get(j, "n_deals")) > 0 &&
                  json_object_get(json_object_get(j, "totals"), "N") != NULL &&
                  json_object_get(j, "record") != NULL,
              "%s: over, with its deals, totals and record (%.200s)", games_of[g], a.body);
        json_decref(j);
        answer_free(&a);
        snprintf(path, sizeof path, "/club/api/game/%d/record", ids[g]);
        if (get(port, path, &a)) {
            char want[64];
            snprintf(want, sizeof want, "filename=\"barbu-game-%d.txt\"", ids[g]);
            CHECK(a.status == 200 && strncmp(a.type, "text/plain", 10) == 0 &&
                      strstr(a.disposition, "attachment") && strstr(a.disposition, want),
                  "%s: the record, an attachment %s (%d, %s, %s)", path, want, a.status, a.type,
                  a.disposition);
            CHECK(g == 1 || strstr(a.body, SEED_TEXT) != NULL,
                  "%s: the record names its seed once the game is over", path);
            answer_free(&a);
        }
        snprintf(path, sizeof path, "/club/api/game/%d/replay", ids[g]);
        if (get(port, path, &a)) {
            json_t *r = json_loads(a.body, 0, NULL);
            CHECK(a.status == 200 && is_json(&a) && r != NULL, "%s: the replay (%d)", path,
                  a.status);
            /* The hands dealt appear now. */
            CHECK(strstr(a.body, "\"AS\"") || strstr(a.body, "\"KS\""),
                  "%s: the replay shows the cards", path);
            json_decref(r);
            answer_free(&a);
        }
    }
    if (get(port, "/club/api/ladder", &a)) {
        json_t *j = json_loads(a.body, 0, NULL);
        json_t *ranked = json_object_get(j, "ranked");
        CHECK(json_array_size(ranked) == 4 &&
                  json_integer_value(json_object_get(json_array_get(ranked, 0), "position")) == 1 &&
                  json_integer_value(json_object_get(json_array_get(ranked, 0), "games")) == 1,
              "the month's ladder ranks the four players of the ladder game (%.300s)", a.body);
        json_decref(j);
        answer_free(&a);
    }
    if (get(port, "/club/api/player/alice", &a)) {
        json_t *j = json_loads(a.body, 0, NULL);
        json_t *res = json_object_get(j, "results");
        CHECK(json_integer_value(json_object_get(res, "over")) == 1 &&
                  json_integer_value(json_object_get(json_object_get(j, "rating"), "games")) == 1 &&
                  json_array_size(json_object_get(j, "history")) == 1 &&
                  json_integer_value(json_object_get(j, "history_total")) == 1 &&
                  json_object_get(json_object_get(json_object_get(res, "ladder"), "month"),
                                  "position") != NULL,
              "alice's page: one game over, rated once (history_total 1), in the month's ladder "
              "(%.300s)",
              a.body);
        json_decref(j);
        answer_free(&a);
    }
    if (get(port, "/club/api/games?status=over", &a)) {
        json_t *j = json_loads(a.body, 0, NULL);
        json_t *row = json_array_get(json_object_get(j, "rows"), 0);
        CHECK(json_integer_value(json_object_get(j, "total")) == 2 &&
                  json_object_get(json_array_get(json_object_get(row, "players"), 0), "points"),
              "the archive lists both games over, with points (%.200s)", a.body);
        json_decref(j);
        answer_free(&a);
    }
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0 on SIGTERM");
    e2e_client_free(gus);
    for (int s = 0; s < 4; s++)
        e2e_client_free(p[s]);
    printf("%d failure%s\n", e2e_failures, e2e_failures == 1 ? "" : "s");
    return e2e_failures ? 1 : 0;
}
