/*
 * club_http.c - the club's pages and their JSON twins (docs/club.md, "Pages
 * and their JSON twins").  Every path under /club/ but /club/api/ is the
 * club's page (web_root/club.html), which asks the twins for its data.
 *
 * The twins read the store, which the event loop must never wait for on a
 * request anybody may send: a query is checked here, on the loop (a bad
 * parameter is answered at once, 400 with a sentence naming it), then
 * queued for the club's reader thread, which answers it from its own
 * store handle on the same database (WAL lets it read while the loop
 * writes).  The answer goes on a done queue and lws_cancel_service wakes
 * the loop, which writes it (LWS_CALLBACK_EVENT_WAIT_CANCELLED), as the
 * computer players' answers come back (bots.c).  At most CLUB_QUEUE
 * requests wait: beyond, 503 with a sentence.  A database without a file
 * (":memory:", tests) has no second handle: its queries are answered on
 * the loop from the loop's own store.
 *
 * An analysis (analysis.c) is asked for here too: one the loop has in
 * memory (waiting, running, just done) is answered at once; otherwise the
 * reader answers a kept one, or refuses, or hands back the record's text
 * (club_answer.record), and the loop starts the analysis as it writes the
 * answer: the analyses' jobs and the store's writes are the loop's.
 *
 * A request lives in the connection's slot (srv_http_pss.club) and on the
 * club's list of requests until its answer is written.  When the
 * connection closes first, the request forgets the connection and its
 * answer is dropped when it comes; the thread never touches a connection.
 */
#define _GNU_SOURCE /* timegm */
#include <pthread.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "club_http.h"

typedef struct srv_club_req {
    struct srv_club_req *next;                /* on the todo or done queue */
    struct srv_club_req *prev_all, *next_all; /* on the club's list */
    struct lws *wsi;                          /* the loop's only: NULL once the connection closed */
    bool reading;                             /* a POST's body is being read */
    bool too_big;                             /* ... and it is longer than it said */
    size_t body_len_said;                     /* its Content-Length */
    size_t body_cap;                          /* q.body's room, grown as the body comes */
    char addr[SRV_ADDR_CAP];                  /* the client's address (srv_addr_key) */
    club_query q;
    club_answer a;
} club_req;

struct srv_club {
    srv_server *srv;
    store *db; /* the reader's own handle; NULL: answered on the loop */
    pthread_t thread;
    bool running;
    pthread_mutex_t lock;
    pthread_cond_t ready;
    club_req *todo_head, *todo_tail, *done_head, *done_tail;
    int n_todo;
    bool stop;
    club_req *all; /* every request alive (the loop's) */
    int n_reading; /* POSTs whose body is being read: CLUB_UPLOADS at most */
};

/* ------------------------------------------------------------ requests */

static void push(club_req **head, club_req **tail, club_req *r)
{
    r->next = NULL;
    if (*tail)
        (*tail)->next = r;
    else
        *head = r;
    *tail = r;
}

static club_req *pop(club_req **head, club_req **tail)
{
    club_req *r = *head;
    if (r) {
        *head = r->next;
        if (*head == NULL)
            *tail = NULL;
        r->next = NULL;
    }
    return r;
}

static club_req *req_new(srv_club *club, struct lws *wsi)
{
    club_req *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->wsi = wsi;
    /* For the per-address limit of analyses (analysis.c). */
    srv_addr_key(lws_get_socket_fd(wsi), r->addr);
    r->q.status = -1;
    r->q.ladder = -1;
    r->q.page = 1;
    r->next_all = club->all;
    if (club->all)
        club->all->prev_all = r;
    club->all = r;
    return r;
}

static void req_free(srv_club *club, club_req *r)
{
    if (r->reading)
        club->n_reading--;
    if (r->prev_all)
        r->prev_all->next_all = r->next_all;
    else
        club->all = r->next_all;
    if (r->next_all)
        r->next_all->prev_all = r->prev_all;
    free(r->q.body);
    free(r->a.body);
    free(r->a.record);
    free(r);
}

/* ---------------------------------------------------------- the reader */

static void *reader(void *arg)
{
    srv_club *club = arg;
    pthread_mutex_lock(&club->lock);
    for (;;) {
        club_req *r = NULL;
        while (!club->stop && (r = pop(&club->todo_head, &club->todo_tail)) == NULL)
            pthread_cond_wait(&club->ready, &club->lock);
        if (r == NULL)
            break; /* stopping */
        club->n_todo--;
        pthread_mutex_unlock(&club->lock);
        club_answer_query(club->db, &r->q, &r->a);
        pthread_mutex_lock(&club->lock);
        bool wake = club->done_head == NULL;
        push(&club->done_head, &club->done_tail, r);
        if (wake) {
            pthread_mutex_unlock(&club->lock);
            lws_cancel_service(club->srv->ctx);
            pthread_mutex_lock(&club->lock);
        }
    }
    pthread_mutex_unlock(&club->lock);
    return NULL;
}

int srv_club_start(srv_server *srv)
{
    srv_club *club = calloc(1, sizeof *club);
    if (club == NULL)
        return -1;
    club->srv = srv;
    pthread_mutex_init(&club->lock, NULL);
    pthread_cond_init(&club->ready, NULL);
    srv->club = club;
    const char *path = srv->opt->db;
    if (path == NULL || path[0] == '\0' || strcmp(path, ":memory:") == 0)
        return 0; /* answered on the loop */
    char err[300];
    club->db = store_open_reader(path, err, sizeof err);
    if (club->db == NULL) {
        char shown[512];
        srv_db_shown(path, shown, sizeof shown);
        fprintf(stderr, "barbu serve: cannot open the database %s for the club's pages: %s\n",
                shown, err);
        return -1;
    }
    if (pthread_create(&club->thread, NULL, reader, club) != 0) {
        fprintf(stderr, "barbu serve: cannot start the club's reader thread\n");
        return -1;
    }
    club->running = true;
    return 0;
}

void srv_club_stop(srv_server *srv)
{
    srv_club *club = srv->club;
    if (club == NULL)
        return;
    if (club->running) {
        pthread_mutex_lock(&club->lock);
        club->stop = true;
        pthread_cond_broadcast(&club->ready);
        pthread_mutex_unlock(&club->lock);
        pthread_join(club->thread, NULL);
    }
    /* Every request left: its connection forgets it. */
    while (club->all) {
        club_req *r = club->all;
        if (r->wsi) {
            srv_http_pss *pss = lws_wsi_user(r->wsi);
            if (pss && pss->club == r)
                pss->club = NULL;
        }
        req_free(club, r);
    }
    store_close(club->db);
    pthread_cond_destroy(&club->ready);
    pthread_mutex_destroy(&club->lock);
    free(club);
    srv->club = NULL;
}

/* An analysis's answer from memory (analysis.c) as the request's answer;
 * takes an->body. */
static void analysis_answer(club_answer *a, srv_analysis_answer *an)
{
    if (an->body == NULL) {
        club_answer_error(a, an->status ? an->status : 500, "%s",
                          an->error[0] ? an->error
                                       : "The analysis could not be answered (out of memory): "
                                         "try again.");
        return;
    }
    free(a->body);
    a->body = an->body;
    a->len = strlen(an->body);
    a->status = an->status;
    a->type = "application/json; charset=utf-8";
    a->disposition[0] = '\0';
    an->body = NULL;
}

/* Writes a request's answer to its connection (when it is still there)
 * and frees the request. */
static int answer(srv_club *club, club_req *r, bool close)
{
    struct lws *wsi = r->wsi;
    int rc = 0;
    if (r->a.record) {
        /* The reader found the analysis neither kept nor refused: it starts
         * here, on the loop, which owns the analyses (or is joined when it
         * started meanwhile).  A connection gone still starts it: its
         * player asks again. */
        char *record = r->a.record;
        r->a.record = NULL;
        srv_analysis_answer an;
        if (srv_analyses_submit(club->srv, r->q.akey, r->q.seat, r->q.level, record, r->addr, &an) <
            0)
            club_answer_error(&r->a, 500,
                              "The analysis could not be started (out of memory): "
                              "try again.");
        else
            analysis_answer(&r->a, &an);
    }
    if (wsi) {
        srv_http_pss *pss = lws_wsi_user(wsi);
        if (pss)
            pss->club = NULL;
        char *body = r->a.body;
        r->a.body = NULL;
        rc = srv_http_send(wsi, pss, r->a.status, r->a.type, body, r->a.len,
                           r->a.disposition[0] ? r->a.disposition : NULL, close);
    }
    req_free(club, r);
    return rc;
}

void srv_club_drain(srv_server *srv)
{
    srv_club *club = srv->club;
    if (club == NULL || !club->running)
        return;
    for (;;) {
        pthread_mutex_lock(&club->lock);
        club_req *r = pop(&club->done_head, &club->done_tail);
        pthread_mutex_unlock(&club->lock);
        if (r == NULL)
            break;
        struct lws *wsi = r->wsi;
        if (answer(club, r, false) != 0 && wsi)
            lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_ACK, LWS_TO_KILL_ASYNC);
    }
}

/* Hands a checked request to the reader (or answers it here when there is
 * none). */
static int submit(srv_club *club, club_req *r)
{
    r->q.now = srv_wall();
    r->q.opt = club->srv->opt;
    r->q.min_games =
        club->srv->opt->ladder_min_games > 0 ? club->srv->opt->ladder_min_games : CLUB_MIN_GAMES;
    if (!club->running) {
        club_answer_query(club->srv->store, &r->q, &r->a);
        return answer(club, r, false);
    }
    pthread_mutex_lock(&club->lock);
    bool full = club->n_todo >= CLUB_QUEUE;
    if (!full) {
        push(&club->todo_head, &club->todo_tail, r);
        club->n_todo++;
        pthread_cond_signal(&club->ready);
    }
    pthread_mutex_unlock(&club->lock);
    if (full) {
        club_answer_error(&r->a, HTTP_STATUS_SERVICE_UNAVAILABLE,
                          "The club's pages are busy answering other requests: try again in a "
                          "few seconds.");
        return answer(club, r, false);
    }
    srv_http_pss *pss = lws_wsi_user(r->wsi);
    pss->club = r;
    return 0;
}

/* submit, but an analysis the loop has in memory (waiting, running, or
 * just finished) is answered from there at once, and an uploaded record's
 * key is its text's SHA-256. */
static int submit_checked(srv_club *club, club_req *r)
{
    if (r->q.kind == CLUB_ANALYSIS_POST) {
        unsigned char hash[crypto_hash_sha256_BYTES];
        char hex[crypto_hash_sha256_BYTES * 2 + 1];
        crypto_hash_sha256(hash, (const unsigned char *)(r->q.body ? r->q.body : ""),
                           r->q.body_len);
        sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
        snprintf(r->q.akey, sizeof r->q.akey, "record:%s", hex);
    }
    if (r->q.kind == CLUB_ANALYSIS || r->q.kind == CLUB_ANALYSIS_POST ||
        r->q.kind == CLUB_ANALYSIS_KEY) {
        srv_analysis_answer an;
        int found = srv_analyses_find(club->srv, r->q.akey, r->q.seat, r->q.level, r->q.post, &an);
        if (found != 0) {
            if (found < 0)
                club_answer_error(&r->a, 500,
                                  "The analysis could not be answered (out of "
                                  "memory): try again.");
            else
                analysis_answer(&r->a, &an);
            return answer(club, r, false);
        }
    }
    return submit(club, r);
}

void srv_club_closed(srv_server *srv, void *user)
{
    srv_http_pss *pss = user;
    club_req *r = pss->club;
    pss->club = NULL;
    if (r == NULL || srv->club == NULL)
        return;
    if (r->reading) {
        req_free(srv->club, r); /* never handed to the reader */
        return;
    }
    r->wsi = NULL; /* with the reader or on the done queue: dropped when it comes */
}

/* ----------------------------------------------------------- parameters */

/* Whether s is well-formed UTF-8 without control characters. */
static bool text_ok(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        int n;
        uint32_t cp;
        if (c < 0x20 || c == 0x7f)
            return false;
        if (c < 0x80) {
            p++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            n = 1;
            cp = c & 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            n = 2;
            cp = c & 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            n = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        for (int i = 1; i <= n; i++) {
            if ((p[i] & 0xc0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i] & 0x3f);
        }
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
            cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
            return false;
        p += n + 1;
    }
    return true;
}

/* "2026-11-27" at 00:00 UTC; -1 when it is no such day. */
static int64_t parse_day(const char *s)
{
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return -1;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return -1;
    struct tm tm = {0};
    tm.tm_year = atoi(s) - 1900;
    tm.tm_mon = atoi(s + 5) - 1;
    tm.tm_mday = atoi(s + 8);
    if (tm.tm_year < 70 || tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1)
        return -1;
    struct tm in = tm;
    time_t t = timegm(&tm);
    if (t == (time_t)-1 || tm.tm_mday != in.tm_mday || tm.tm_mon != in.tm_mon)
        return -1; /* 2026-02-30 */
    return (int64_t)t;
}

/* "2026-11" or "2026". */
static bool period_ok(const char *s)
{
    size_t n = strlen(s);
    if (n != 4 && n != 7)
        return false;
    for (size_t i = 0; i < n; i++)
        if (i == 4 ? s[i] != '-' : (s[i] < '0' || s[i] > '9'))
            return false;
    int year = atoi(s);
    if (year < 1970)
        return false;
    if (n == 7) {
        int month = atoi(s + 5);
        return month >= 1 && month <= 12;
    }
    return true;
}

static const char *const LEVELS[] = {"easy", "medium", "hard", "random"};

static bool level_ok(const char *s)
{
    for (size_t i = 0; i < sizeof LEVELS / sizeof LEVELS[0]; i++)
        if (strcmp(s, LEVELS[i]) == 0)
            return true;
    return false;
}

/* The levels an analysis is made at: the expert's (random judges
 * nothing). */
static bool analysis_level_ok(const char *s)
{
    return strcmp(s, "easy") == 0 || strcmp(s, "medium") == 0 || strcmp(s, "hard") == 0;
}

/* A game's number: 1 to 15 digits. */
static bool id_parse(const char *s, size_t n, int64_t *id)
{
    if (n == 0 || n > 15 || strspn(s, "0123456789") < n)
        return false;
    char buf[16];
    memcpy(buf, s, n);
    buf[n] = '\0';
    *id = strtoll(buf, NULL, 10);
    return *id > 0;
}

/* Which parameters each kind takes. */
static bool takes(int kind, const char *name)
{
    switch (kind) {
    case CLUB_LADDER:
        return strcmp(name, "period") == 0;
    case CLUB_PLAYER:
    case CLUB_LEVEL:
        return strcmp(name, "page") == 0;
    case CLUB_GAMES:
        return strcmp(name, "page") == 0 || strcmp(name, "player") == 0 ||
               strcmp(name, "from") == 0 || strcmp(name, "to") == 0 || strcmp(name, "rules") == 0 ||
               strcmp(name, "status") == 0 || strcmp(name, "ladder") == 0;
    case CLUB_ANALYSIS:
    case CLUB_ANALYSIS_POST:
    case CLUB_ANALYSIS_KEY:
        return strcmp(name, "seat") == 0 || strcmp(name, "level") == 0;
    default:
        return false;
    }
}

/* One parameter into the query; 0, or -1 with the sentence in why. */
static int parameter(club_query *q, const char *name, const char *value, char *why, size_t cap)
{
    if (!takes(q->kind, name)) {
        snprintf(why, cap,
                 "This address takes no parameter \"%.40s\": see docs/club.md for the "
                 "parameters of each address.",
                 name);
        return -1;
    }
    if (value[0] == '\0')
        return 0; /* given empty: any */
    if (strcmp(name, "period") == 0) {
        if (!period_ok(value)) {
            snprintf(why, cap,
                     "The period \"%.20s\" is neither a month (2026-11) nor a year (2026): "
                     "name one of those.",
                     value);
            return -1;
        }
        snprintf(q->period, sizeof q->period, "%s", value);
    } else if (strcmp(name, "page") == 0) {
        size_t n = strlen(value);
        if (n > 7 || strspn(value, "0123456789") != n || atoi(value) < 1 ||
            atoi(value) > CLUB_PAGE_MAX) {
            snprintf(why, cap,
                     "The page \"%.20s\" is not a page number: pages count from 1 (page=2).",
                     value);
            return -1;
        }
        q->page = atoi(value);
    } else if (strcmp(name, "from") == 0 || strcmp(name, "to") == 0) {
        int64_t day = parse_day(value);
        if (day < 0) {
            snprintf(why, cap,
                     "The date %s=\"%.20s\" is not a day written YYYY-MM-DD (2026-11-27): "
                     "write it so.",
                     name[0] == 'f' ? "from" : "to", value);
            return -1;
        }
        if (name[0] == 'f') {
            q->from = day;
            snprintf(q->from_text, sizeof q->from_text, "%s", value);
        } else {
            q->to = day + 86400; /* to is inclusive */
            snprintf(q->to_text, sizeof q->to_text, "%s", value);
        }
    } else if (strcmp(name, "rules") == 0) {
        barbu_rules rules;
        if (strlen(value) >= sizeof q->rules || barbu_rules_preset(&rules, value) != 0) {
            char names[300] = "";
            for (int i = 0; barbu_preset_name(i) != NULL; i++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                         barbu_preset_name(i));
            snprintf(why, cap, "There is no rule set called \"%.40s\": name one of %s.",
                     text_ok(value) ? value : "?", names);
            return -1;
        }
        snprintf(q->rules, sizeof q->rules, "%s", value);
    } else if (strcmp(name, "status") == 0) {
        if (strcmp(value, "running") == 0)
            q->status = STORE_GAME_RUNNING;
        else if (strcmp(value, "over") == 0)
            q->status = STORE_GAME_OVER;
        else if (strcmp(value, "abandoned") == 0)
            q->status = STORE_GAME_ABANDONED;
        else {
            snprintf(why, cap,
                     "The status \"%.20s\" is not one of running, over or abandoned: name one "
                     "of those.",
                     text_ok(value) ? value : "?");
            return -1;
        }
    } else if (strcmp(name, "ladder") == 0) {
        if (strcmp(value, "true") == 0 || strcmp(value, "1") == 0)
            q->ladder = 1;
        else if (strcmp(value, "false") == 0 || strcmp(value, "0") == 0)
            q->ladder = 0;
        else {
            snprintf(why, cap,
                     "The ladder filter \"%.20s\" is neither true nor false: say ladder=true "
                     "for ladder games only, ladder=false for the others.",
                     text_ok(value) ? value : "?");
            return -1;
        }
    } else if (strcmp(name, "seat") == 0) {
        const char *seats = "NESW";
        const char *at = strlen(value) == 1 ? strchr(seats, value[0]) : NULL;
        if (at == NULL) {
            snprintf(why, cap,
                     "The seat \"%.20s\" is not one of N, E, S or W: name the seat whose "
                     "decisions are to be analysed (seat=S).",
                     text_ok(value) ? value : "?");
            return -1;
        }
        q->seat = (int)(at - seats);
    } else if (strcmp(name, "level") == 0) {
        if (!analysis_level_ok(value)) {
            snprintf(why, cap,
                     "There is no analysis level called \"%.20s\": the levels are easy, medium "
                     "and hard (level=medium).",
                     text_ok(value) ? value : "?");
            return -1;
        }
        snprintf(q->level, sizeof q->level, "%s", value);
    } else if (strcmp(name, "player") == 0) {
        if (!text_ok(value) || strlen(value) > PROTO_NAME_BYTES) {
            snprintf(why, cap,
                     "The player filter is not a player's name (at most %d bytes of UTF-8 "
                     "text): name the player as the games show them.",
                     PROTO_NAME_BYTES);
            return -1;
        }
        snprintf(q->name, sizeof q->name, "%s", value);
        srv_handle_key(value, q->key);
    }
    return 0;
}

/* The query string's parameters (as lws decoded them); 0 or -1 with why. */
static int parameters(struct lws *wsi, club_query *q, char *why, size_t cap)
{
    char frag[512];
    for (int i = 0; i < 16; i++) {
        int n = lws_hdr_copy_fragment(wsi, frag, sizeof frag, WSI_TOKEN_HTTP_URI_ARGS, i);
        if (n < 0) {
            if (lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, i) > 0) {
                snprintf(why, cap, "A parameter is too long: shorten it.");
                return -1;
            }
            return 0;
        }
        if (n == 0)
            continue;
        char *eq = strchr(frag, '=');
        const char *value = eq ? eq + 1 : "";
        if (eq)
            *eq = '\0';
        if (!text_ok(frag) || !text_ok(value)) {
            snprintf(why, cap, "A parameter is not UTF-8 text: send names as UTF-8, URL-encoded.");
            return -1;
        }
        if (parameter(q, frag, value, why, cap) != 0)
            return -1;
    }
    snprintf(why, cap,
             "There are too many parameters: see docs/club.md for the ones each "
             "address takes.");
    return -1;
}

/* ---------------------------------------------------------------- routes */

static int json_error(srv_club *club, struct lws *wsi, void *user, int status, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int json_error(srv_club *club, struct lws *wsi, void *user, int status, const char *fmt, ...)
{
    (void)club;
    char sentence[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sentence, sizeof sentence, fmt, ap);
    va_end(ap);
    club_answer a = {0};
    club_answer_error(&a, status, "%s", sentence);
    return srv_http_send(wsi, user, a.status, a.type, a.body, a.len, NULL, false);
}

/* The club's page: the one shell for every path. */
static int serve_page(struct lws *wsi, srv_server *srv, void *user)
{
    if (srv_http_file_exists(srv, "/club.html"))
        return srv_http_file(wsi, srv, "/club.html");
    const char *sentence =
        srv->web_root
            ? "The club's pages are not installed in this server's web folder (club.html is "
              "missing): build the browser client (cmake --build) and serve its web folder."
            : "This server has no web folder, so the club's pages are not served: start barbu "
              "serve with --web pointing at the built browser client.";
    char *page = srv_missing_page(sentence);
    return srv_http_send(wsi, user, HTTP_STATUS_NOT_FOUND, "text/html; charset=utf-8", page,
                         page ? strlen(page) : 0, NULL, false);
}

/* Which twin a path under /club/api/ names: 0 with q's kind and path
 * parts filled, 404 or 400 with why. */
static int route(const char *rest, club_query *q, char *why, size_t cap)
{
    if (strcmp(rest, "ladder") == 0) {
        q->kind = CLUB_LADDER;
        return 0;
    }
    if (strcmp(rest, "games") == 0) {
        q->kind = CLUB_GAMES;
        return 0;
    }
    if (strcmp(rest, "ratings") == 0) {
        q->kind = CLUB_RATINGS;
        return 0;
    }
    if (strcmp(rest, "replay") == 0) {
        q->kind = CLUB_REPLAY_POST;
        return 0;
    }
    if (strcmp(rest, "analysis") == 0) {
        q->kind = CLUB_ANALYSIS_POST;
        return 0;
    }
    if (strncmp(rest, "analysis/", 9) == 0) {
        const char *hex = rest + 9;
        if (strlen(hex) != 64 || strspn(hex, "0123456789abcdef") != 64) {
            snprintf(why, cap,
                     "The record's key in the address is not 64 hexadecimal digits (the "
                     "SHA-256 of its text, as POST /club/api/analysis answered it): use that "
                     "key.");
            return 400;
        }
        q->kind = CLUB_ANALYSIS_KEY;
        snprintf(q->akey, sizeof q->akey, "record:%s", hex);
        return 0;
    }
    if (strncmp(rest, "player/", 7) == 0) {
        const char *name = rest + 7;
        if (name[0] == '\0' || strlen(name) > PROTO_NAME_BYTES || !text_ok(name) ||
            strchr(name, '/')) {
            snprintf(why, cap,
                     "The player's name in the address is not a handle (1 to %d bytes of UTF-8 "
                     "text, URL-encoded): name a registered player.",
                     PROTO_NAME_BYTES);
            return 400;
        }
        q->kind = CLUB_PLAYER;
        snprintf(q->name, sizeof q->name, "%s", name);
        srv_handle_key(name, q->key);
        return 0;
    }
    if (strncmp(rest, "level/", 6) == 0) {
        if (!level_ok(rest + 6)) {
            snprintf(why, cap,
                     "There is no computer level called \"%.20s\": the levels are easy, medium, "
                     "hard and random.",
                     text_ok(rest + 6) ? rest + 6 : "?");
            return 400;
        }
        q->kind = CLUB_LEVEL;
        snprintf(q->level, sizeof q->level, "%s", rest + 6);
        return 0;
    }
    if (strncmp(rest, "game/", 5) == 0) {
        const char *id = rest + 5;
        size_t n = strcspn(id, "/");
        if (!id_parse(id, n, &q->id)) {
            snprintf(why, cap,
                     "The game \"%.*s\" is not a game's number: games are numbered from 1, as "
                     "the archive lists them.",
                     (int)(n < 20 ? n : 20), text_ok(id) ? id : "?");
            return 400;
        }
        const char *tail = id + n;
        if (tail[0] == '\0') {
            q->kind = CLUB_GAME;
            return 0;
        }
        if (strcmp(tail, "/record") == 0) {
            q->kind = CLUB_RECORD;
            return 0;
        }
        if (strcmp(tail, "/replay") == 0) {
            q->kind = CLUB_REPLAY;
            return 0;
        }
        if (strcmp(tail, "/analysis") == 0) {
            q->kind = CLUB_ANALYSIS;
            snprintf(q->akey, sizeof q->akey, "game:%lld", (long long)q->id);
            return 0;
        }
    }
    snprintf(why, cap,
             "There is no such address among the club's: see docs/club.md for the addresses "
             "under /club/api/.");
    return 404;
}

int srv_club_http(struct lws *wsi, srv_server *srv, void *user, const char *uri, size_t len)
{
    srv_club *club = srv->club;
    (void)len;
    if (user != NULL && ((srv_http_pss *)user)->club != NULL)
        return -1; /* a request while the last one's answer is to come: never */
    if (strncmp(uri, "/club/api/", 10) != 0 && strcmp(uri, "/club/api") != 0) {
        if (user != NULL && ((srv_http_pss *)user)->unread) {
            char *page = srv_missing_page("The club's pages take no request body: ask for them "
                                          "with GET and no body.");
            return srv_http_send(wsi, user, HTTP_STATUS_BAD_REQUEST, "text/html; charset=utf-8",
                                 page, page ? strlen(page) : 0, NULL, true);
        }
        return serve_page(wsi, srv, user);
    }
    if (club == NULL || user == NULL)
        return -1;
    bool post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
    bool get = lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0;
    club_query probe;
    memset(&probe, 0, sizeof probe);
    char why[600];
    int status = strcmp(uri, "/club/api") == 0 ? 404 : route(uri + 10, &probe, why, sizeof why);
    if (status == 404 && strcmp(uri, "/club/api") == 0)
        snprintf(why, sizeof why,
                 "There is no such address among the club's: see docs/club.md for the "
                 "addresses under /club/api/.");
    if (status != 0)
        return json_error(club, wsi, user, status, "%s", why);
    bool post_only = probe.kind == CLUB_REPLAY_POST || probe.kind == CLUB_ANALYSIS_POST;
    bool either = probe.kind == CLUB_ANALYSIS;
    if (either ? !post && !get : post_only ? !post : !get) {
        /* A body sent with it is not read: the connection closes after. */
        club_answer a = {0};
        club_answer_error(&a, HTTP_STATUS_METHOD_NOT_ALLOWED, "%s",
                          probe.kind == CLUB_REPLAY_POST
                              ? "Send a record to /club/api/replay with POST: the body is the "
                                "record's text."
                          : probe.kind == CLUB_ANALYSIS_POST
                              ? "Send a record to /club/api/analysis with POST: the body is the "
                                "record's text."
                          : either ? "Ask for a game's analysis with POST (to start it) or GET "
                                     "(to read it)."
                                   : "The club's addresses answer GET only, but for "
                                     "/club/api/replay, /club/api/analysis and a game's analysis "
                                     "(POST): ask with GET.");
        return srv_http_send_allow(wsi, user, a.status, a.type, a.body, a.len, NULL, true,
                                   either      ? "GET, POST"
                                   : post_only ? "POST"
                                               : "GET");
    }

    club_req *r = req_new(club, wsi);
    if (r == NULL)
        return -1;
    memcpy(&r->q, &probe, sizeof probe);
    r->q.status = -1;
    r->q.ladder = -1;
    r->q.page = 1;
    r->q.seat = -1;
    r->q.post = post;
    if (parameters(wsi, &r->q, why, sizeof why) != 0) {
        req_free(club, r);
        return json_error(club, wsi, user, HTTP_STATUS_BAD_REQUEST, "%s", why);
    }
    bool analysis = r->q.kind == CLUB_ANALYSIS || r->q.kind == CLUB_ANALYSIS_POST ||
                    r->q.kind == CLUB_ANALYSIS_KEY;
    if (analysis && r->q.seat < 0) {
        req_free(club, r);
        return json_error(club, wsi, user, HTTP_STATUS_BAD_REQUEST,
                          "Name the seat whose decisions are to be analysed: seat=N, E, S or W "
                          "(and level=easy, medium or hard; medium when not given).");
    }
    if (analysis && r->q.level[0] == '\0')
        snprintf(r->q.level, sizeof r->q.level, "medium");
    if (r->q.kind != CLUB_REPLAY_POST && r->q.kind != CLUB_ANALYSIS_POST)
        return submit_checked(club, r);

    /* A record to replay: its body is read first (srv_club_body). */
    char cl[64];
    int total = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH);
    int n = total > 0 && total < (int)sizeof cl
                ? lws_hdr_copy(wsi, cl, sizeof cl, WSI_TOKEN_HTTP_CONTENT_LENGTH)
                : -1;
    if (total <= 0 || lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0) {
        req_free(club, r);
        return json_error(club, wsi, user, HTTP_STATUS_LENGTH_REQUIRED,
                          "Send the record with its length (a Content-Length header): the "
                          "club reads at most 1 MiB.");
    }
    if (n <= 0 || strspn(cl, "0123456789") != (size_t)n) {
        req_free(club, r);
        club_answer a = {0};
        club_answer_error(&a, HTTP_STATUS_BAD_REQUEST,
                          "The Content-Length header is not a number of bytes: send the "
                          "record's length in decimal digits.");
        return srv_http_send(wsi, user, a.status, a.type, a.body, a.len, NULL, true);
    }
    /* Leading zeros say nothing: "0000000000000012" is 12 bytes. */
    const char *digits = cl + strspn(cl, "0");
    long long length = strlen(digits) > 12 ? -1 : strtoll(digits, NULL, 10);
    if (length < 0 || length > CLUB_BODY_MAX) {
        req_free(club, r);
        club_answer a = {0};
        club_answer_error(&a, HTTP_STATUS_REQ_ENTITY_TOO_LARGE,
                          "The record is larger than 1 MiB, more than any game's record: send "
                          "the record of one game.");
        /* Its body is not read: the connection closes after the answer. */
        return srv_http_send(wsi, user, a.status, a.type, a.body, a.len, NULL, true);
    }
    if (length > 0 && club->n_reading >= CLUB_UPLOADS) {
        req_free(club, r);
        club_answer a = {0};
        club_answer_error(&a, HTTP_STATUS_SERVICE_UNAVAILABLE,
                          "The club is reading other records just now: send yours again in a "
                          "few seconds.");
        /* Its body is not read: the connection closes after the answer. */
        return srv_http_send(wsi, user, a.status, a.type, a.body, a.len, NULL, true);
    }
    /* The buffer grows as the body comes (srv_club_body): what a request
     * holds is what it sent, not what it said it would. */
    r->body_len_said = (size_t)length;
    r->body_cap = (size_t)length < CLUB_BODY_FIRST ? (size_t)length : CLUB_BODY_FIRST;
    r->q.body = malloc(r->body_cap + 1);
    if (r->q.body == NULL) {
        req_free(club, r);
        return -1;
    }
    r->q.body[0] = '\0';
    if (length == 0)
        return submit_checked(club, r); /* no body comes: answered now */
    r->reading = true;
    club->n_reading++;
    srv_http_pss *pss = user;
    pss->club = r;
    pss->unread = false;
    pss->body_taken = true;
    return 0;
}

int srv_club_body(struct lws *wsi, srv_server *srv, void *user, enum lws_callback_reasons reason,
                  void *in, size_t len)
{
    srv_http_pss *pss = user;
    club_req *r = pss->club;
    srv_club *club = srv->club;
    if (r == NULL || !r->reading || club == NULL)
        return 0;
    if (reason == LWS_CALLBACK_HTTP_BODY) {
        if (len > r->body_len_said - r->q.body_len) {
            r->too_big = true; /* more than it said: kept out */
            return 0;
        }
        if (r->q.body_len + len > r->body_cap) {
            size_t cap = r->body_cap ? r->body_cap : CLUB_BODY_FIRST;
            while (cap < r->q.body_len + len)
                cap *= 2;
            if (cap > r->body_len_said)
                cap = r->body_len_said;
            char *grown = realloc(r->q.body, cap + 1);
            if (grown == NULL)
                return -1;
            r->q.body = grown;
            r->body_cap = cap;
        }
        memcpy(r->q.body + r->q.body_len, in, len);
        r->q.body_len += len;
        r->q.body[r->q.body_len] = '\0';
        return 0;
    }
    /* LWS_CALLBACK_HTTP_BODY_COMPLETION */
    r->reading = false;
    club->n_reading--;
    pss->club = NULL;
    if (r->too_big) {
        req_free(club, r);
        return json_error(club, wsi, user, HTTP_STATUS_BAD_REQUEST,
                          "The body was longer than its Content-Length said: send the record "
                          "with its true length.");
    }
    return submit_checked(club, r);
}
