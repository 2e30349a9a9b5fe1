/*
 * club.c - the club's hooks in the server (docs/club.md): rated tables'
 * rules, a game's row when it starts, and its end (over, or abandoned when
 * the table goes to STORE_OVER before the game's end) with the deals of the
 * score message, the credit of each seat's points, the places and the
 * ratings, kept by the store's game_end in one transaction.
 *
 * Every part of the server that sets STORE_OVER does it through
 * srv_table_set_over, so that no game ends without its row.  A kill between
 * the state and the row is caught up at start-up (restore.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "club.h"
#include "internal.h"

/* ------------------------------------------------------------- the rules */

bool srv_club_create_ok(srv_conn *c, const proto_msg *msg)
{
    if (!msg->rated)
        return true;
    if (!c->session->registered) {
        srv_error(c, msg, "rated",
                  "Only a registered player may create a rated table: sign up (or sign in) "
                  "with a password first, or create a table without \"rated\".");
        return false;
    }
    if (msg->has_seed) {
        srv_error(c, msg, "rated",
                  "A rated table takes no chosen seed, since whoever chose it would know every "
                  "deal: create it without \"seed\".");
        return false;
    }
    return true;
}

bool srv_club_sit_ok(srv_conn *c, const proto_msg *msg, const srv_table *t)
{
    if (!t->rated || c->session->registered)
        return true;
    srv_error(c, msg, "rated",
              "Table %lld is a rated table, where only registered players sit (computer players "
              "may too): sign up with a password to play there, or kibitz it.",
              (long long)t->id);
    return false;
}

/* ------------------------------------------------------------- the people */

/* One person or computer player who held a seat. */
typedef struct person {
    char name[SRV_NAME_CAP];
    char key[SRV_KEY_CAP]; /* a registered player's handle key, else "" */
    char level[16];        /* a computer player's, else "" */
    int kind;              /* STORE_PERSON_* */
} person;

typedef struct people {
    person *p;
    int n, cap;
} people;

static int person_index(people *ps, const char *name, bool bot, bool registered, const char *level)
{
    int kind = bot          ? STORE_PERSON_COMPUTER
               : registered ? STORE_PERSON_REGISTERED
                            : STORE_PERSON_GUEST;
    for (int i = 0; i < ps->n; i++)
        if (ps->p[i].kind == kind && strcmp(ps->p[i].name, name) == 0 &&
            strcmp(ps->p[i].level, bot ? level : "") == 0)
            return i;
    if (ps->n == ps->cap) {
        int cap = ps->cap ? 2 * ps->cap : 8;
        person *more = realloc(ps->p, (size_t)cap * sizeof *more);
        if (!more)
            return -1;
        ps->p = more;
        ps->cap = cap;
    }
    person *p = &ps->p[ps->n];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->kind = kind;
    if (bot)
        snprintf(p->level, sizeof p->level, "%s", level);
    if (kind == STORE_PERSON_REGISTERED)
        srv_handle_key(name, p->key);
    return ps->n++;
}

/* Whether a name is a registered account's (for a seat whose rows are
 * missing: a table older than the record of who played which deals). */
static bool registered_name(srv_server *srv, const char *name)
{
    char key[SRV_KEY_CAP];
    store_account acct;
    srv_handle_key(name, key);
    return srv->store->ops->account_get(srv->store, key, &acct) > 0;
}

static store_game_player player_of(const person *p, int seat)
{
    return (store_game_player){
        .seat = seat,
        .name = p->name,
        .key = p->kind == STORE_PERSON_REGISTERED ? p->key : NULL,
        .kind = p->kind,
        .level = p->kind == STORE_PERSON_COMPUTER ? p->level : NULL,
    };
}

/* ------------------------------------------------------------- the start */

void srv_club_begin(srv_table *t)
{
    srv_server *srv = t->srv;
    people ps = {0};
    int index[4];
    for (int k = 0; k < 4; k++) {
        const srv_seat *st = &t->seats[k];
        bool registered = !st->bot && st->person && st->person->registered;
        index[k] = person_index(&ps, st->player[0] ? st->player : st->name, st->bot, registered,
                                st->level);
    }
    store_game_player players[4];
    int n = 0;
    for (int k = 0; k < 4; k++)
        if (index[k] >= 0)
            players[n++] = player_of(&ps.p[index[k]], k);
    store_game g = {
        .id = t->id,
        .preset = t->preset,
        .house = t->house && t->house[0],
        .ladder = t->ladder,
        .rated = t->ladder || t->rated,
        .credit = t->credit == PROTO_CREDIT_DEALS ? STORE_CREDIT_DEALS : STORE_CREDIT_RECORD,
        .status = STORE_GAME_RUNNING,
        .started = srv_wall(),
        .deals = "[]",
        .n_players = n,
        .players = players,
    };
    if (srv_node_check(t, srv->store->ops->game_begin(srv->store, &g)) != 0)
        srv_log(srv, "store: table %lld: the club's row of its game: %s", (long long)t->id,
                store_error(srv->store));
    free(ps.p);
}

/* --------------------------------------------------------------- the end */

static void on_started(void *ctx, const store_game *g)
{
    *(int64_t *)ctx = g->started;
}

/* The rating id of a person ("p:key", "c:level"), "" for a guest. */
static void rating_id(const person *p, char *out, size_t cap)
{
    if (p->kind == STORE_PERSON_REGISTERED)
        snprintf(out, cap, "p:%s", p->key);
    else if (p->kind == STORE_PERSON_COMPUTER)
        snprintf(out, cap, "c:%s", p->level);
    else
        out[0] = '\0';
}

typedef struct rating_in {
    store_rating r;
    char id[SRV_KEY_CAP + 4];
    char name[SRV_NAME_CAP];
    bool found;
} rating_in;

static void on_rating(void *ctx, const store_rating *r)
{
    rating_in *in = ctx;
    in->r.mu = r->mu;
    in->r.sigma = r->sigma;
    in->r.games = r->games;
    in->found = true;
}

/* The ratings after an over rated game: each seat's participant, every
 * rating from the ones before the game.  Fills out (distinct ids) and
 * returns their number (0: nothing rated), or -1 when a rating could not
 * be read. */
static int rate(srv_server *srv, const people *ps, const club_credit_row *rows, int n_rows,
                int credit, const int places[4], int64_t finished, rating_in out[4])
{
    int n = 0, m = 0, who[4], place[4];
    club_rating r[4];
    for (int seat = 0; seat < 4; seat++) {
        int k = club_participant(rows, n_rows, seat, credit);
        if (k < 0)
            continue;
        const person *p = &ps->p[rows[k].person];
        char id[sizeof out[0].id];
        rating_id(p, id, sizeof id);
        if (!id[0])
            continue; /* a guest is never rated */
        int j = 0;
        while (j < n && strcmp(out[j].id, id) != 0)
            j++;
        if (j == n) {
            memset(&out[j], 0, sizeof out[j]);
            snprintf(out[j].id, sizeof out[j].id, "%s", id);
            snprintf(out[j].name, sizeof out[j].name, "%s",
                     p->kind == STORE_PERSON_COMPUTER ? p->level : p->name);
            out[j].r.mu = CLUB_MU0;
            out[j].r.sigma = CLUB_SIGMA0;
            /* A rating that cannot be read is not taken for the prior: the
             * stored one would be overwritten.  The whole end waits. */
            if (srv->store->ops->rating_get(srv->store, id, on_rating, &out[j]) < 0) {
                srv_log(srv, "store: the rating of %s: %s", id, store_error(srv->store));
                return -1;
            }
            n++;
        }
        who[m] = j;
        place[m] = places[seat];
        r[m] = (club_rating){out[j].r.mu, out[j].r.sigma};
        m++;
    }
    if (n < 2 || club_rate_shared(r, place, who, m) != 0)
        return 0;
    for (int i = 0; i < m; i++) {
        out[who[i]].r.mu = r[i].mu;
        out[who[i]].r.sigma = r[i].sigma;
    }
    for (int j = 0; j < n; j++) {
        out[j].r.id = out[j].id;
        out[j].r.name = out[j].name;
        out[j].r.games++;
        out[j].r.updated = finished;
    }
    return n;
}

/* The game's end from a table in memory: its results, who played which
 * deals, its players of record; 0 when kept, -1 when the store failed.  It
 * is dated by its first try (a retry after a store failure keeps the
 * date).  A game whose row is missing started when its table was made, as
 * far as the club knows; met at start-up (catch_up) more than
 * SRV_OVER_RECENT after that (a game that ended before the club kept
 * games), it is dated by that too, so that it lands in its own month's
 * ladder. */
static int club_end(srv_table *t, bool catch_up)
{
    srv_server *srv = t->srv;
    store *db = srv->store;
    bool over = srv_table_over(t) && !t->broken;
    int result = -1;
    if (t->club_finished == 0)
        t->club_finished = srv_wall();
    int64_t started = 0, finished = t->club_finished;
    int found = db->ops->game_get(db, t->id, on_started, &started);
    if (found < 0) {
        srv_log(srv, "store: table %lld: %s", (long long)t->id, store_error(db));
        return -1;
    }
    if (found == 0) {
        started = t->created;
        if (catch_up && finished - t->created > SRV_OVER_RECENT)
            finished = t->created;
    }

    /* Who held each seat at each deal's end, and its player of record: the
     * first row of the first deal. */
    people ps = {0};
    int n_deals = t->n_results;
    int32_t(*points)[4] = calloc((size_t)n_deals + 1, sizeof *points);
    int(*holder)[4] = calloc((size_t)n_deals + 1, sizeof *holder);
    int cap = 4 + 4 * n_deals;
    club_credit_row *rows = calloc((size_t)cap, sizeof *rows);
    store_game_player *players = calloc((size_t)cap, sizeof *players);
    char *deals = NULL;
    if (!points || !holder || !rows || !players)
        goto out;
    club_credit_in in = {
        .credit = t->credit == PROTO_CREDIT_DEALS ? CLUB_CREDIT_DEALS : CLUB_CREDIT_RECORD,
        .n_deals = n_deals,
        .points = (const int32_t(*)[4])points,
        .holder = (const int(*)[4])holder,
    };
    for (int k = 0; k < 4; k++) {
        in.record[k] = -1;
        for (int i = 0; i < t->n_deal_players && in.record[k] < 0; i++) {
            const srv_deal_player *p = &t->deal_players[i];
            if (p->seat == k)
                in.record[k] = person_index(&ps, p->name, p->bot, p->registered, p->level);
        }
        const srv_seat *st = &t->seats[k];
        if (in.record[k] < 0 && st->player[0]) {
            bool bot = st->bot && !st->took_over;
            in.record[k] = person_index(&ps, st->player, bot,
                                        !bot && registered_name(srv, st->player), st->level);
        }
    }
    for (int d = 0; d < n_deals; d++) {
        const barbu_result *res = &t->results[d];
        for (int k = 0; k < 4; k++) {
            points[d][k] = res->score[k];
            in.totals[k] += res->score[k];
            holder[d][k] = -1;
            for (int i = t->n_deal_players - 1; i >= 0; i--) {
                const srv_deal_player *p = &t->deal_players[i];
                if (p->deal == res->deal && p->seat == k) {
                    holder[d][k] = person_index(&ps, p->name, p->bot, p->registered, p->level);
                    break;
                }
            }
            /* No row at all (an old table): the player of record. */
            if (holder[d][k] < 0 && t->n_deal_players == 0)
                holder[d][k] = in.record[k];
        }
    }
    int n_rows = club_credit(&in, rows, cap);
    int places[4];
    club_places(in.totals, places);
    for (int i = 0; i < n_rows; i++) {
        players[i] = player_of(&ps.p[rows[i].person], rows[i].seat);
        players[i].credited = rows[i].credited;
        players[i].points = rows[i].points;
        players[i].deals = rows[i].deals;
        players[i].place = places[rows[i].seat];
    }
    json_t *dj = srv_score_deals_json(&t->rules, t->results, t->n_results, t->deal_players,
                                      t->n_deal_players);
    deals = dj ? json_dumps(dj, JSON_COMPACT) : NULL;
    json_decref(dj);
    if (!deals)
        goto out;

    rating_in ratings[4];
    int n_ratings = 0;
    if (over && (t->ladder || t->rated))
        n_ratings = rate(srv, &ps, rows, n_rows, in.credit, places, finished, ratings);
    if (n_ratings < 0)
        goto out;
    store_rating given[4];
    for (int i = 0; i < n_ratings; i++)
        given[i] = ratings[i].r;

    store_game g = {
        .id = t->id,
        .preset = t->preset,
        .house = t->house && t->house[0],
        .ladder = t->ladder,
        .rated = t->ladder || t->rated,
        .credit = in.credit == CLUB_CREDIT_DEALS ? STORE_CREDIT_DEALS : STORE_CREDIT_RECORD,
        .status = over ? STORE_GAME_OVER : STORE_GAME_ABANDONED,
        .started = started,
        .finished = finished,
        .n_deals = n_deals,
        .totals = {in.totals[0], in.totals[1], in.totals[2], in.totals[3]},
        .deals = deals,
        .n_players = n_rows,
        .players = players,
    };
    if (srv_node_check(t, db->ops->game_end(db, &g, given, n_ratings)) != 0) {
        srv_log(srv, "store: table %lld: the club's end of its game: %s", (long long)t->id,
                store_error(db));
    } else {
        result = 0;
        srv_log(srv, "table %lld: the club keeps its game, %s after %d deals%s", (long long)t->id,
                over ? "over" : "abandoned", n_deals, n_ratings ? ", rated" : "");
    }
out:
    if (!deals)
        srv_log(srv, "table %lld: out of memory keeping its game in the club", (long long)t->id);
    free(deals);
    free(players);
    free(rows);
    free(points);
    free(holder);
    free(ps.p);
    return result;
}

int srv_table_set_over(srv_server *srv, int64_t id, srv_table *t)
{
    store *db = srv->store;
    if (t && t->lost)
        return -1; /* another node's now */
    int rc = db->ops->table_set_state(db, id, STORE_OVER);
    if (t)
        srv_node_check(t, rc);
    if (rc != 0) {
        srv_log(srv, "store: table %lld: %s", (long long)id, store_error(db));
        return -1;
    }
    if (t && t->started && !t->no_game) {
        t->club_tried = srv_now();
        t->club_pending = club_end(t, false) != 0;
        if (t->club_pending)
            srv_log(srv, "table %lld: its game is kept in the club at the next try, in %d s",
                    (long long)id, SRV_CLUB_RETRY);
    }
    return 0;
}

void srv_club_retry(srv_table *t, int64_t now)
{
    if (!t->club_pending || now - t->club_tried < SRV_CLUB_RETRY)
        return;
    t->club_tried = now;
    /* A game row written meanwhile (it cannot be, but twice is refused by
     * the store anyway) is not written again. */
    int status = t->srv->store->ops->game_status(t->srv->store, t->id);
    if (status == -1)
        return;
    if (status != -2 && status != STORE_GAME_RUNNING) {
        t->club_pending = false;
        return;
    }
    t->club_pending = club_end(t, false) != 0;
}

bool srv_club_needs_catch_up(srv_server *srv, int64_t id)
{
    int status = srv->store->ops->game_status(srv->store, id);
    if (status == -1)
        srv_log(srv, "store: table %lld: %s", (long long)id, store_error(srv->store));
    return status == -2 || status == STORE_GAME_RUNNING;
}

void srv_club_catch_up(srv_table *t, bool over_in_store)
{
    if (!over_in_store || !t->started || !srv_club_needs_catch_up(t->srv, t->id))
        return;
    srv_log(t->srv, "table %lld: its game ended without its row in the club: kept now",
            (long long)t->id);
    t->club_tried = srv_now();
    t->club_pending = club_end(t, true) != 0;
}
