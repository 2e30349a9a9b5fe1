/*
 * club_json.c - the answers of the club's JSON twins (docs/club.md, "Pages
 * and their JSON twins"), made from a store handle and the query that
 * club_http.c checked, with nothing of the server's: they are made on the
 * club's reader thread.
 *
 * What a game that is not over shows is decided here, once: a running game
 * is its number, rule set, flags, start and players of record, nothing
 * else (no deal, no total, no record, no replay, no seed, no key).  The
 * store's row of a running game holds no deal data to begin with; its
 * record and replay are refused (409) from the game's status before the
 * table's actions are read.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "club_http.h"

static const char JSON_TYPE[] = "application/json; charset=utf-8";
static const char *const SEAT_NAMES[4] = {"N", "E", "S", "W"};
static const char *const LEVEL_NAMES[] = {"easy", "medium", "hard", "random"};
#define N_LEVELS    (int)(sizeof LEVEL_NAMES / sizeof LEVEL_NAMES[0])
/* The prior of every rating (docs/club.md, Ratings). */
#define PRIOR_MU    25.0
#define PRIOR_SIGMA (25.0 / 3.0)

/* ------------------------------------------------------------- answers */

/* Replaces what is not UTF-8 (a name cut in a character by %.20s) with
 * '?', so that the sentence is text JSON takes. */
static void make_utf8(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        int n = *p < 0x80             ? 0
                : (*p & 0xe0) == 0xc0 ? 1
                : (*p & 0xf0) == 0xe0 ? 2
                : (*p & 0xf8) == 0xf0 ? 3
                                      : -1;
        bool ok = n >= 0;
        for (int i = 1; ok && i <= n; i++)
            ok = (p[i] & 0xc0) == 0x80;
        if (!ok) {
            *p++ = '?';
            continue;
        }
        p += n + 1;
    }
}

void club_answer_error(club_answer *a, int status, const char *fmt, ...)
{
    char sentence[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sentence, sizeof sentence, fmt, ap);
    va_end(ap);
    make_utf8(sentence);
    free(a->body);
    json_t *o = json_pack("{s:s}", "error", sentence);
    a->body = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (a->body == NULL)
        a->body = strdup("{\"error\":\"The request could not be answered: try again.\"}");
    a->len = a->body ? strlen(a->body) : 0;
    a->status = status;
    a->type = JSON_TYPE;
    a->disposition[0] = '\0';
}

static void store_failed(club_answer *a, store *db)
{
    (void)db; /* the store's sentence is for the log, not for anybody who asks */
    club_answer_error(a, 500,
                      "The club's records could not be read just now: try again in a moment.");
}

/* Takes o. */
static void answer_json(club_answer *a, json_t *o)
{
    free(a->body);
    /* 15 significant digits: 2 decimals print as 2 decimals. */
    a->body = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(15)) : NULL;
    json_decref(o);
    if (a->body == NULL) {
        club_answer_error(a, 500, "The answer could not be made (out of memory): try again.");
        return;
    }
    a->len = strlen(a->body);
    a->status = 200;
    a->type = JSON_TYPE;
    a->disposition[0] = '\0';
}

static double round_to(double x, double unit)
{
    return round(x / unit) * unit;
}

static json_t *real2(double x)
{
    return json_real(round_to(x, 0.01));
}

static json_t *real3(double x)
{
    return json_real(round_to(x, 0.001));
}

static json_t *average(int64_t total, int games)
{
    return games > 0 ? real2((double)total / games) : json_real(0);
}

static const char *status_name(int status)
{
    return status == STORE_GAME_RUNNING ? "running"
           : status == STORE_GAME_OVER  ? "over"
                                        : "abandoned";
}

static const char *kind_name(int kind)
{
    return kind == STORE_PERSON_REGISTERED ? "registered"
           : kind == STORE_PERSON_COMPUTER ? "computer"
                                           : "guest";
}

static json_t *str_or_null(const char *s)
{
    return s && s[0] ? json_string(s) : json_null();
}

/* The month and the year of a time, UTC: "2026-11", "2026". */
static void periods_of(int64_t when, char month[8], char year[8])
{
    time_t t = (time_t)when;
    struct tm tm;
    gmtime_r(&t, &tm);
    unsigned y =
        tm.tm_year + 1900 >= 1970 && tm.tm_year + 1900 <= 9999 ? (unsigned)tm.tm_year + 1900 : 1970;
    unsigned m = (unsigned)tm.tm_mon % 12 + 1;
    snprintf(month, 8, "%04u-%02u", y % 10000, m % 100);
    snprintf(year, 8, "%04u", y % 10000);
}

/* ------------------------------------------------------------ players */

/* A game's player as every answer shows it; full adds the results of an
 * ended game. */
static json_t *player_json(const store_game *g, const store_game_player *p, bool full)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:o}", "seat", SEAT_NAMES[p->seat & 3], "name",
                          p->name ? p->name : "", "kind", kind_name(p->kind), "level",
                          str_or_null(p->kind == STORE_PERSON_COMPUTER ? p->level : NULL));
    if (o && full && g->status != STORE_GAME_RUNNING) {
        json_object_set_new(o, "credited", json_boolean(p->credited));
        json_object_set_new(o, "points", json_integer(p->points));
        json_object_set_new(o, "deals", json_integer(p->deals));
        json_object_set_new(o, "place", p->place > 0 ? json_integer(p->place) : json_null());
    }
    return o;
}

/* An archive row: points and place only once the game is not running. */
static json_t *row_json(const store_game *g)
{
    bool ended = g->status != STORE_GAME_RUNNING;
    json_t *players = json_array();
    for (int i = 0; i < g->n_players; i++) {
        const store_game_player *p = &g->players[i];
        json_t *pj = player_json(g, p, false);
        if (pj && ended) {
            json_object_set_new(pj, "points", json_integer(p->points));
            json_object_set_new(pj, "place", p->place > 0 ? json_integer(p->place) : json_null());
        }
        json_array_append_new(players, pj);
    }
    return json_pack("{s:I, s:s, s:s, s:b, s:b, s:I, s:o, s:o}", "id", (json_int_t)g->id, "status",
                     status_name(g->status), "preset", g->preset ? g->preset : "", "ladder",
                     g->ladder, "rated", g->rated, "started", (json_int_t)g->started, "finished",
                     ended ? json_integer(g->finished) : json_null(), "players", players);
}

/* ------------------------------------------------------------ archive */

typedef struct rows_ctx {
    json_t *rows;
} rows_ctx;

static void on_row(void *ctx, const store_game *g)
{
    rows_ctx *x = ctx;
    json_array_append_new(x->rows, row_json(g));
}

/* One page of the games that match f: the archive object, or NULL with
 * the answer set. */
static json_t *archive(store *db, const store_game_filter *f, int page, json_t *filter,
                       club_answer *a)
{
    rows_ctx x = {json_array()};
    int64_t total = 0;
    if (db->ops->games_find(db, f, (page - 1) * CLUB_PER_PAGE, CLUB_PER_PAGE, &total, on_row, &x) !=
        0) {
        json_decref(x.rows);
        json_decref(filter);
        store_failed(a, db);
        return NULL;
    }
    int64_t pages = total > 0 ? (total + CLUB_PER_PAGE - 1) / CLUB_PER_PAGE : 1;
    if (page > pages) {
        json_decref(x.rows);
        json_decref(filter);
        club_answer_error(a, 404, "There is no page %d: these games fill %lld page%s.", page,
                          (long long)pages, pages == 1 ? "" : "s");
        return NULL;
    }
    return json_pack("{s:i, s:I, s:i, s:I, s:o, s:o}", "page", page, "pages", (json_int_t)pages,
                     "per_page", CLUB_PER_PAGE, "total", (json_int_t)total, "filter", filter,
                     "rows", x.rows);
}

static void answer_games(store *db, const club_query *q, club_answer *a)
{
    store_game_filter f = {.status = q->status, .ladder = q->ladder};
    f.preset = q->rules[0] ? q->rules : NULL;
    f.from = q->from;
    f.to = q->to;
    if (q->name[0]) {
        /* A registered player by the handle's key (whatever its case),
         * anybody else by the name as the games show it. */
        store_account acc;
        int found = db->ops->account_get(db, q->key, &acc);
        if (found < 0) {
            store_failed(a, db);
            return;
        }
        if (found)
            f.key = q->key;
        else
            f.name = q->name;
    }
    json_t *filter = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "player", str_or_null(q->name),
                               "from", str_or_null(q->from_text), "to", str_or_null(q->to_text),
                               "rules", str_or_null(q->rules), "status",
                               q->status >= 0 ? json_string(status_name(q->status)) : json_null(),
                               "ladder", q->ladder >= 0 ? json_boolean(q->ladder) : json_null());
    json_t *o = archive(db, &f, q->page, filter, a);
    if (o)
        answer_json(a, o);
}

/* ------------------------------------------------------------- ladder */

typedef struct ladder_ctx {
    store_ladder_row *rows;
    int n, cap;
    bool failed;
} ladder_ctx;

static void on_ladder(void *ctx, const store_ladder_row *row)
{
    ladder_ctx *x = ctx;
    if (x->failed)
        return;
    if (x->n == x->cap) {
        int cap = x->cap ? x->cap * 2 : 64;
        store_ladder_row *r = realloc(x->rows, (size_t)cap * sizeof *r);
        if (r == NULL) {
            x->failed = true;
            return;
        }
        x->rows = r;
        x->cap = cap;
    }
    store_ladder_row *r = &x->rows[x->n];
    r->key = strdup(row->key ? row->key : "");
    r->name = strdup(row->name ? row->name : "");
    r->games = row->games;
    r->total = row->total;
    if (r->key == NULL || r->name == NULL) {
        free((char *)r->key);
        free((char *)r->name);
        x->failed = true;
        return;
    }
    x->n++;
}

static void ladder_free(ladder_ctx *x)
{
    for (int i = 0; i < x->n; i++) {
        free((char *)x->rows[i].key);
        free((char *)x->rows[i].name);
    }
    free(x->rows);
}

/* A period's rows, highest total first; 0 or -1. */
static int ladder_read(store *db, const char *period, ladder_ctx *x)
{
    memset(x, 0, sizeof *x);
    if (db->ops->ladder_load(db, period, on_ladder, x) != 0 || x->failed) {
        ladder_free(x);
        memset(x, 0, sizeof *x);
        return -1;
    }
    return 0;
}

/* Positions among the ranked rows (games >= min): ties on the total share
 * the better position ("1,2,2,4"); 0 for an unranked row. */
static void positions(const ladder_ctx *x, int min_games, int *pos)
{
    int ranked = 0;
    int64_t last_total = 0;
    int last_pos = 0;
    for (int i = 0; i < x->n; i++) {
        if (x->rows[i].games < min_games) {
            pos[i] = 0;
            continue;
        }
        ranked++;
        if (ranked == 1 || x->rows[i].total != last_total) {
            last_pos = ranked;
            last_total = x->rows[i].total;
        }
        pos[i] = last_pos;
    }
}

typedef struct periods_ctx {
    json_t *list;
} periods_ctx;

static void on_period(void *ctx, const char *period)
{
    periods_ctx *x = ctx;
    json_array_append_new(x->list, json_string(period));
}

static void answer_ladder(store *db, const club_query *q, club_answer *a)
{
    char period[8], month[8], year[8];
    periods_of(q->now, month, year);
    snprintf(period, sizeof period, "%s", q->period[0] ? q->period : month);
    bool is_month = strlen(period) == 7;
    periods_ctx p = {json_array()};
    ladder_ctx x;
    if (db->ops->ladder_periods(db, on_period, &p) != 0) {
        json_decref(p.list);
        store_failed(a, db);
        return;
    }
    if (ladder_read(db, period, &x) != 0) {
        json_decref(p.list);
        store_failed(a, db);
        return;
    }
    /* The neighbours of the same kind that have a ladder. */
    const char *previous = NULL, *next = NULL;
    size_t i;
    json_t *v;
    json_array_foreach(p.list, i, v)
    {
        const char *s = json_string_value(v);
        if (s == NULL || (strlen(s) == 7) != is_month)
            continue;
        int c = strcmp(s, period);
        if (c < 0 && (previous == NULL || strcmp(s, previous) > 0))
            previous = s;
        if (c > 0 && (next == NULL || strcmp(s, next) < 0))
            next = s;
    }
    int *pos = calloc((size_t)x.n + 1, sizeof *pos);
    if (pos == NULL) {
        ladder_free(&x);
        json_decref(p.list);
        club_answer_error(a, 500, "The answer could not be made (out of memory): try again.");
        return;
    }
    positions(&x, q->min_games, pos);
    json_t *ranked = json_array(), *unranked = json_array();
    for (int k = 0; k < x.n; k++) {
        const store_ladder_row *r = &x.rows[k];
        json_t *o = json_pack("{s:s, s:i, s:I, s:o}", "name", r->name, "games", r->games, "total",
                              (json_int_t)r->total, "average", average(r->total, r->games));
        if (pos[k] > 0) {
            json_object_set_new(o, "position", json_integer(pos[k]));
            json_array_append_new(ranked, o);
        } else {
            json_array_append_new(unranked, o);
        }
    }
    free(pos);
    ladder_free(&x);
    json_t *o = json_pack("{s:s, s:s, s:i, s:O, s:o, s:o, s:o, s:o}", "period", period, "kind",
                          is_month ? "month" : "year", "min_games", q->min_games, "periods", p.list,
                          "previous", str_or_null(previous), "next", str_or_null(next), "ranked",
                          ranked, "unranked", unranked);
    json_decref(p.list);
    answer_json(a, o);
}

/* Where a player stands in a period's ladder: {period, position|null,
 * games, total, average}, or null when not in it; NULL on failure. */
static json_t *standing(store *db, const char *period, const char *key, int min_games)
{
    ladder_ctx x;
    if (ladder_read(db, period, &x) != 0)
        return NULL;
    int *pos = calloc((size_t)x.n + 1, sizeof *pos);
    if (pos == NULL) {
        ladder_free(&x);
        return NULL;
    }
    positions(&x, min_games, pos);
    json_t *o = json_null();
    for (int k = 0; k < x.n; k++) {
        if (strcmp(x.rows[k].key, key) != 0)
            continue;
        json_decref(o);
        o = json_pack("{s:s, s:o, s:i, s:I, s:o}", "period", period, "position",
                      pos[k] > 0 ? json_integer(pos[k]) : json_null(), "games", x.rows[k].games,
                      "total", (json_int_t)x.rows[k].total, "average",
                      average(x.rows[k].total, x.rows[k].games));
        break;
    }
    free(pos);
    ladder_free(&x);
    return o;
}

/* ------------------------------------------------------------ ratings */

typedef struct rating_ctx {
    bool found;
    double mu, sigma;
    int games;
    char name[STORE_NAME_CAP];
} rating_ctx;

static void on_rating(void *ctx, const store_rating *r)
{
    rating_ctx *x = ctx;
    x->found = true;
    x->mu = r->mu;
    x->sigma = r->sigma;
    x->games = r->games;
    snprintf(x->name, sizeof x->name, "%s", r->name ? r->name : "");
}

/* A rating by id, the prior when it has none; 0 or -1. */
static int rating_read(store *db, const char *id, rating_ctx *x)
{
    memset(x, 0, sizeof *x);
    x->mu = PRIOR_MU;
    x->sigma = PRIOR_SIGMA;
    if (db->ops->rating_get(db, id, on_rating, x) < 0)
        return -1;
    return 0;
}

static json_t *rating_json(const rating_ctx *r)
{
    return json_pack("{s:o, s:o, s:o, s:i}", "mu", real3(r->mu), "sigma", real3(r->sigma), "rating",
                     real3(r->mu - 3 * r->sigma), "games", r->games);
}

typedef struct history_ctx {
    json_t *list;
    int64_t game;         /* rating_change: the game looked for */
    double before, after; /* ... its rating before and after */
    double last;          /* the rating before the point walked */
    bool found;
} history_ctx;

static void on_point(void *ctx, const store_rating_point *p)
{
    history_ctx *x = ctx;
    double rating = p->mu - 3 * p->sigma;
    if (x->list)
        json_array_append_new(x->list,
                              json_pack("{s:I, s:I, s:o, s:o, s:o}", "game", (json_int_t)p->game,
                                        "at", (json_int_t)p->at, "mu", real3(p->mu), "sigma",
                                        real3(p->sigma), "rating", real3(rating)));
    if (x->game != 0 && p->game == x->game && !x->found) {
        x->found = true;
        x->before = x->last;
        x->after = rating;
    }
    x->last = rating;
}

/* The rating id of a game's player: "p:KEY", "c:LEVEL", or "" (a guest). */
static void rating_id(const store_game_player *p, char *id, size_t cap)
{
    if (p->kind == STORE_PERSON_REGISTERED && p->key)
        snprintf(id, cap, "p:%s", p->key);
    else if (p->kind == STORE_PERSON_COMPUTER && p->level)
        snprintf(id, cap, "c:%s", p->level);
    else
        id[0] = '\0';
}

/* "Plays like": the computer level with at least one rated game whose mu
 * is nearest mu; NULL when none has played. */
static int plays_like(store *db, double mu, const char **level)
{
    *level = NULL;
    double best = 0;
    for (int i = 0; i < N_LEVELS; i++) {
        char id[24];
        snprintf(id, sizeof id, "c:%s", LEVEL_NAMES[i]);
        rating_ctx r;
        if (rating_read(db, id, &r) != 0)
            return -1;
        if (!r.found || r.games < 1)
            continue;
        double d = fabs(r.mu - mu);
        if (*level == NULL || d < best) {
            *level = LEVEL_NAMES[i];
            best = d;
        }
    }
    return 0;
}

typedef struct list_ctx {
    json_t *players, *levels;
} list_ctx;

static void on_listed(void *ctx, const store_rating *r)
{
    list_ctx *x = ctx;
    if (r->id == NULL)
        return;
    json_t *o = json_pack("{s:o, s:o, s:o, s:i}", "rating", real3(r->mu - 3 * r->sigma), "mu",
                          real3(r->mu), "sigma", real3(r->sigma), "games", r->games);
    if (strncmp(r->id, "c:", 2) == 0) {
        json_object_set_new(o, "level", json_string(r->id + 2));
        json_array_append_new(x->levels, o);
    } else {
        json_object_set_new(o, "name", json_string(r->name ? r->name : r->id + 2));
        json_array_append_new(x->players, o);
    }
}

static void answer_ratings(store *db, club_answer *a)
{
    list_ctx x = {json_array(), json_array()};
    if (db->ops->ratings_load(db, on_listed, &x) != 0) {
        json_decref(x.players);
        json_decref(x.levels);
        store_failed(a, db);
        return;
    }
    /* Every level is rated from the prior before its first game. */
    for (int i = 0; i < N_LEVELS; i++) {
        bool seen = false;
        size_t k;
        json_t *v;
        json_array_foreach(x.levels, k, v)
        {
            const char *l = json_string_value(json_object_get(v, "level"));
            seen = seen || (l && strcmp(l, LEVEL_NAMES[i]) == 0);
        }
        if (!seen)
            json_array_append_new(
                x.levels, json_pack("{s:s, s:o, s:o, s:o, s:i}", "level", LEVEL_NAMES[i], "rating",
                                    real3(PRIOR_MU - 3 * PRIOR_SIGMA), "mu", real3(PRIOR_MU),
                                    "sigma", real3(PRIOR_SIGMA), "games", 0));
    }
    answer_json(a, json_pack("{s:o, s:o}", "players", x.players, "levels", x.levels));
}

/* ------------------------------------------------ player and level pages */

/* A page shows the newest CLUB_HISTORY_MAX points of a rating's history
 * (history_total says how many there are): kept in a ring as they come,
 * oldest first. */
typedef struct recent_ctx {
    store_rating_point *ring; /* CLUB_HISTORY_MAX */
    int64_t total;
} recent_ctx;

static void on_recent(void *ctx, const store_rating_point *p)
{
    recent_ctx *x = ctx;
    x->ring[x->total % CLUB_HISTORY_MAX] = *p;
    x->total++;
}

static json_t *recent_json(const recent_ctx *x)
{
    json_t *list = json_array();
    int64_t first = x->total > CLUB_HISTORY_MAX ? x->total - CLUB_HISTORY_MAX : 0;
    for (int64_t i = first; i < x->total; i++) {
        const store_rating_point *p = &x->ring[i % CLUB_HISTORY_MAX];
        history_ctx h = {list, 0, 0, 0, 0, false};
        on_point(&h, p);
    }
    return list;
}

/* The player or level page: who is the rating id, f the archive's filter. */
static void answer_person(store *db, const club_query *q, club_answer *a)
{
    bool level = q->kind == CLUB_LEVEL;
    store_account acc;
    char id[SRV_KEY_CAP + 4];
    if (level) {
        snprintf(id, sizeof id, "c:%s", q->level);
    } else {
        int found = db->ops->account_get(db, q->key, &acc);
        if (found < 0) {
            store_failed(a, db);
            return;
        }
        if (found == 0) {
            club_answer_error(a, 404,
                              "Nobody has registered the handle \"%s\": the ladder and the "
                              "ratings list the club's registered players.",
                              q->name);
            return;
        }
        snprintf(id, sizeof id, "p:%s", q->key);
    }
    rating_ctx r;
    recent_ctx recent = {malloc(CLUB_HISTORY_MAX * sizeof *recent.ring), 0};
    const char *like = NULL;
    if (recent.ring == NULL || rating_read(db, id, &r) != 0 ||
        db->ops->rating_history_load(db, id, on_recent, &recent) != 0 ||
        (!level && plays_like(db, r.mu, &like) != 0)) {
        free(recent.ring);
        store_failed(a, db);
        return;
    }
    history_ctx h = {recent_json(&recent), 0, 0, 0, 0, false};
    free(recent.ring);
    store_game_filter f = {.status = -1, .ladder = -1};
    if (level)
        f.level = q->level;
    else
        f.key = q->key;
    store_player_results x;
    if (db->ops->player_results(db, &f, &x) != 0) {
        json_decref(h.list);
        store_failed(a, db);
        return;
    }
    json_t *ladder = json_null();
    if (!level) {
        char month[8], year[8];
        periods_of(q->now, month, year);
        json_t *m = standing(db, month, q->key, q->min_games);
        json_t *y = m ? standing(db, year, q->key, q->min_games) : NULL;
        if (m == NULL || y == NULL) {
            json_decref(m);
            json_decref(h.list);
            store_failed(a, db);
            return;
        }
        json_decref(ladder);
        ladder = json_pack("{s:o, s:o}", "month", m, "year", y);
    }
    json_t *results =
        json_pack("{s:i, s:i, s:i, s:I, s:o, s:{s:i, s:i, s:i, s:i}, s:o}", "games", x.games,
                  "over", x.over, "abandoned", x.abandoned, "total", (json_int_t)x.total, "average",
                  average(x.total, x.over), "best_place_count", "1", x.places[1], "2", x.places[2],
                  "3", x.places[3], "4", x.places[4], "ladder", ladder);
    json_t *filter = json_pack("{s:o, s:o}", "player", level ? json_null() : json_string(acc.name),
                               "level", level ? json_string(q->level) : json_null());
    json_t *games = archive(db, &f, q->page, filter, a);
    if (games == NULL) {
        json_decref(results);
        json_decref(h.list);
        return;
    }
    json_t *o;
    if (level)
        o = json_pack("{s:s, s:s, s:b, s:o, s:n, s:o, s:I, s:o, s:o}", "name",
                      r.found && r.name[0] ? r.name : q->level, "level", q->level, "registered",
                      false, "rating", rating_json(&r), "plays_like", "history", h.list,
                      "history_total", (json_int_t)recent.total, "results", results, "games",
                      games);
    else
        o = json_pack("{s:s, s:b, s:I, s:o, s:o, s:o, s:I, s:o, s:o}", "name", acc.name,
                      "registered", true, "since", (json_int_t)acc.created, "rating",
                      rating_json(&r), "plays_like", str_or_null(like), "history", h.list,
                      "history_total", (json_int_t)recent.total, "results", results, "games",
                      games);
    answer_json(a, o);
}

/* ----------------------------------------------------------------- game */

typedef struct game_ctx {
    store *db;
    const club_query *q;
    json_t *out;
    bool failed;
    bool fife;
    int status;
} game_ctx;

static void on_game(void *ctx, const store_game *g)
{
    game_ctx *x = ctx;
    x->status = g->status;
    bool ended = g->status != STORE_GAME_RUNNING;
    json_t *players = json_array();
    for (int i = 0; i < g->n_players; i++) {
        const store_game_player *p = &g->players[i];
        json_t *pj = player_json(g, p, true);
        if (ended) {
            /* The rating it had before and after this game, when rated. */
            json_t *change = json_null();
            char id[SRV_KEY_CAP + 4];
            rating_id(p, id, sizeof id);
            if (g->rated && g->status == STORE_GAME_OVER && id[0]) {
                /* The point this game gave, and the one before (the prior
                 * before the first). */
                store_rating_point now, prev;
                int found = x->db->ops->rating_point_get(x->db, id, g->id, &now, &prev);
                if (found < 0)
                    x->failed = true;
                else if (found == 1) {
                    double before =
                        prev.game ? prev.mu - 3 * prev.sigma : PRIOR_MU - 3 * PRIOR_SIGMA;
                    json_decref(change);
                    change = json_pack("{s:o, s:o}", "before", real3(before), "after",
                                       real3(now.mu - 3 * now.sigma));
                }
            }
            json_object_set_new(pj, "rating", change);
        }
        json_array_append_new(players, pj);
    }
    json_t *o = json_pack("{s:I, s:s, s:s, s:b, s:b, s:b, s:I, s:o}", "id", (json_int_t)g->id,
                          "status", status_name(g->status), "preset", g->preset ? g->preset : "",
                          "house", g->house, "ladder", g->ladder, "rated", g->rated, "started",
                          (json_int_t)g->started, "players", players);
    if (o && ended) {
        json_t *deals = json_loads(g->deals ? g->deals : "[]", 0, NULL);
        json_object_set_new(o, "finished", json_integer(g->finished));
        json_object_set_new(o, "credit",
                            json_string(g->credit == STORE_CREDIT_DEALS ? "deals" : "record"));
        json_object_set_new(o, "n_deals", json_integer(g->n_deals));
        json_object_set_new(o, "totals",
                            json_pack("{s:i, s:i, s:i, s:i}", "N", g->totals[0], "E", g->totals[1],
                                      "S", g->totals[2], "W", g->totals[3]));
        json_object_set_new(o, "deals", json_is_array(deals) ? deals : json_array());
        if (!json_is_array(deals))
            json_decref(deals);
        char link[80];
        snprintf(link, sizeof link, "/club/api/game/%lld/record", (long long)g->id);
        json_object_set_new(o, "record", json_string(link));
        snprintf(link, sizeof link, "/club/viewer#game=%lld", (long long)g->id);
        json_object_set_new(o, "viewer", json_string(link));
        x->fife = g->preset && strcmp(g->preset, "fife") == 0 && g->n_deals > 0;
    }
    x->out = o;
}

static void answer_game(store *db, const club_query *q, club_answer *a)
{
    game_ctx x = {db, q, NULL, false, false, 0};
    int found = db->ops->game_get(db, q->id, on_game, &x);
    if (found < 0 || x.failed) {
        json_decref(x.out);
        store_failed(a, db);
        return;
    }
    if (found == 0 || x.out == NULL) {
        json_decref(x.out);
        club_answer_error(a, 404,
                          "There is no game %lld: a table's game is kept once it starts; the "
                          "archive at /club/games lists them.",
                          (long long)q->id);
        return;
    }
    if (x.fife) {
        /* The score sheet as the score message has it. */
        srv_history *h = NULL;
        char why[300];
        if (srv_history_read(db, q->id, &h, why, sizeof why) == 1) {
            char *html = srv_history_sheet_html(h, q->opt);
            if (html)
                json_object_set_new(x.out, "sheet_html", json_string(html));
            free(html);
        }
        srv_history_free(h);
    }
    answer_json(a, x.out);
}

/* ---------------------------------------------------- record and replay */

/* The record of a game that is not running (malloc'd text), or NULL with
 * the answer set. */
static char *game_record(store *db, const club_query *q, club_answer *a, size_t *len)
{
    int status = db->ops->game_status(db, q->id);
    if (status == -1) {
        store_failed(a, db);
        return NULL;
    }
    if (status == -2) {
        club_answer_error(a, 404,
                          "There is no game %lld: the archive at /club/games lists the games.",
                          (long long)q->id);
        return NULL;
    }
    if (status == STORE_GAME_RUNNING) {
        club_answer_error(a, 409,
                          "Game %lld is still being played: its record and its replay are "
                          "shown once it ends.",
                          (long long)q->id);
        return NULL;
    }
    srv_history *h = NULL;
    char why[400];
    int found = srv_history_read(db, q->id, &h, why, sizeof why);
    char *text = NULL;
    if (found == 1 &&
        (!srv_history_started(h) || srv_history_record(h, &text, len, why, sizeof why) != 0))
        found = -1;
    srv_history_free(h);
    if (found == 0) {
        club_answer_error(a, 404,
                          "Game %lld's table is no longer kept, so it has no record: its "
                          "results stay on its page.",
                          (long long)q->id);
        return NULL;
    }
    if (found < 0) {
        club_answer_error(a, 500,
                          "Game %lld's record could not be made: tell the server's keeper, as "
                          "this is a fault of the server.",
                          (long long)q->id);
        return NULL;
    }
    return text;
}

static void answer_record(store *db, const club_query *q, club_answer *a)
{
    size_t len = 0;
    char *text = game_record(db, q, a, &len);
    if (text == NULL)
        return;
    free(a->body);
    a->body = text;
    a->len = len;
    a->status = 200;
    a->type = "text/plain; charset=utf-8";
    snprintf(a->disposition, sizeof a->disposition, "attachment; filename=\"barbu-game-%lld.txt\"",
             (long long)q->id);
}

static void replay(const char *text, club_answer *a, int bad_status)
{
    char err[600] = "";
    char *json = club_replay_json(text, err, sizeof err);
    if (json == NULL && bad_status == 400)
        club_answer_error(a, 400,
                          "This record could not be replayed (%s): correct it (docs/"
                          "record-format.md) and send it again.",
                          err[0] ? err : "it does not read");
    else if (json == NULL)
        club_answer_error(a, 500,
                          "The game's record could not be replayed (%s): tell the server's keeper, "
                          "as this is a fault of the server.",
                          err[0] ? err : "no reason given");
    if (json == NULL)
        return;
    free(a->body);
    a->body = json;
    a->len = strlen(json);
    a->status = 200;
    a->type = JSON_TYPE;
    a->disposition[0] = '\0';
}

static void answer_replay(store *db, const club_query *q, club_answer *a)
{
    size_t len = 0;
    char *text = game_record(db, q, a, &len);
    if (text == NULL)
        return;
    replay(text, a, 500);
    free(text);
}

static void answer_replay_post(const club_query *q, club_answer *a)
{
    if (q->body == NULL || q->body_len == 0) {
        club_answer_error(a, 400,
                          "The request had no record in it: send a record's text as the body "
                          "(barbu's record format, docs/record-format.md).");
        return;
    }
    if (strlen(q->body) != q->body_len) {
        club_answer_error(a, 400,
                          "The record has a NUL byte in it, so it is no text: send the record "
                          "file as it was written.");
        return;
    }
    replay(q->body, a, 400);
}

/* ------------------------------------------------------------ analysis */

static const char *const SEAT_WORDS[4] = {"North", "East", "South", "West"};

/*
 * An analysis: the one kept in the store is the answer (200); else a GET
 * hears that none was asked (404), and a POST gets the record to analyse
 * checked here (a game that is over or abandoned, or an uploaded record
 * that replays) and handed to the loop in a->record, which starts it
 * (club_http.c).  Analyses waiting or running were answered by the loop
 * before the request came here.
 */
static void answer_analysis(store *db, const club_query *q, club_answer *a)
{
    char *body = NULL;
    int found = db->ops->analysis_get(db, q->akey, q->seat, q->level, &body);
    if (found < 0) {
        store_failed(a, db);
        return;
    }
    if (found == 1) {
        free(a->body);
        a->body = body;
        a->len = strlen(body);
        a->status = 200;
        a->type = JSON_TYPE;
        a->disposition[0] = '\0';
        return;
    }
    if (!q->post) {
        if (q->kind == CLUB_ANALYSIS)
            club_answer_error(a, 404,
                              "%s's decisions in game %lld have not been analysed at level %s: "
                              "ask for the analysis with POST to the same address.",
                              SEAT_WORDS[q->seat], (long long)q->id, q->level);
        else
            club_answer_error(a, 404,
                              "This record's %s decisions have not been analysed at level %s: "
                              "send the record with POST to /club/api/analysis.",
                              SEAT_WORDS[q->seat], q->level);
        return;
    }
    if (q->kind == CLUB_ANALYSIS) {
        int status = db->ops->game_status(db, q->id);
        if (status == -1) {
            store_failed(a, db);
            return;
        }
        if (status == -2) {
            club_answer_error(a, 404,
                              "There is no game %lld: the archive at /club/games lists the games.",
                              (long long)q->id);
            return;
        }
        if (status == STORE_GAME_RUNNING) {
            club_answer_error(a, 409,
                              "Game %lld is still being played: it can be analysed once it ends.",
                              (long long)q->id);
            return;
        }
        size_t len = 0;
        char *text = game_record(db, q, a, &len);
        if (text == NULL)
            return;
        a->record = text;
        return;
    }
    /* An uploaded record: it must replay, as /club/api/replay's must. */
    answer_replay_post(q, a);
    if (a->status != 200)
        return;
    free(a->body);
    a->body = NULL;
    a->len = 0;
    /* Whole: answer_replay_post refused a body with a NUL byte, so the
     * text read is every byte the key (its SHA-256, club_http.c) hashed. */
    a->record = strdup(q->body);
    if (a->record == NULL)
        club_answer_error(a, 500, "The analysis could not be started (out of memory): try again.");
}

void club_answer_query(store *db, const club_query *q, club_answer *a)
{
    switch (q->kind) {
    case CLUB_LADDER:
        answer_ladder(db, q, a);
        break;
    case CLUB_PLAYER:
    case CLUB_LEVEL:
        answer_person(db, q, a);
        break;
    case CLUB_GAME:
        answer_game(db, q, a);
        break;
    case CLUB_GAMES:
        answer_games(db, q, a);
        break;
    case CLUB_RECORD:
        answer_record(db, q, a);
        break;
    case CLUB_REPLAY:
        answer_replay(db, q, a);
        break;
    case CLUB_REPLAY_POST:
        answer_replay_post(q, a);
        break;
    case CLUB_ANALYSIS:
    case CLUB_ANALYSIS_POST:
    case CLUB_ANALYSIS_KEY:
        answer_analysis(db, q, a);
        break;
    default:
        answer_ratings(db, a);
        break;
    }
}
