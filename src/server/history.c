/*
 * history.c - the score and record messages.  Both stand on the game's
 * rules, seed and actions: from memory for the tables the server holds,
 * from the store for any other (a finished table that has left memory).
 * A game read from the store touches nothing of the server's: the club's
 * reader thread (club_http.c) reads games with its own store handle
 * through srv_history_read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* A game as score and record need it. */
typedef struct srv_history {
    int64_t id;
    barbu_rules rules;
    uint64_t seed;
    bool keyed;
    uint8_t key[BARBU_KEY_BYTES];
    int64_t created;
    bool started, over;
    char players[4][SRV_NAME_CAP]; /* of record, or who sits before the game */
    char names[4][SRV_NAME_CAP];   /* who sits now */
    const barbu_action *actions;
    uint32_t n;
    const barbu_result *results;
    int n_results;
    const srv_deal_player *deal_players; /* who played which deals (ladder.c) */
    int n_deal_players;

    /* Owned when loaded from the store. */
    barbu_action *own_actions;
    barbu_result *own_results;
    srv_deal_player *own_deal_players;
    uint32_t cap;
    bool found, bad;
    char preset[16];
    char *house;
    int revision;
} game;

static void game_from_table(game *g, const srv_table *t)
{
    memset(g, 0, sizeof *g);
    g->id = t->id;
    g->rules = t->rules;
    g->seed = t->seed;
    g->keyed = t->keyed;
    memcpy(g->key, t->key, sizeof g->key);
    g->created = t->created;
    g->started = t->started;
    g->over = srv_table_over(t);
    for (int k = 0; k < 4; k++) {
        const srv_seat *st = &t->seats[k];
        snprintf(g->players[k], sizeof g->players[k], "%s", st->player[0] ? st->player : st->name);
        snprintf(g->names[k], sizeof g->names[k], "%s", st->name);
    }
    g->actions = t->actions;
    g->n = t->n;
    g->results = t->results;
    g->n_results = t->n_results;
    g->deal_players = t->deal_players;
    g->n_deal_players = t->n_deal_players;
}

static void on_table(void *ctx, const store_table *t, const store_seat seats[4])
{
    game *g = ctx;
    g->found = true;
    g->bad = t->seed_lost; /* a game replayed from another seed would be wrong */
    g->id = t->id;
    g->seed = t->seed;
    g->keyed = t->keyed;
    memcpy(g->key, t->key, sizeof g->key);
    g->created = t->created;
    g->started = t->state != STORE_WAITING;
    snprintf(g->preset, sizeof g->preset, "%s", t->preset);
    g->house = strdup(t->house ? t->house : "");
    g->revision = srv_options_revision(t->options);
    for (int k = 0; k < 4; k++) {
        const char *p = seats[k].player ? seats[k].player : seats[k].name;
        snprintf(g->players[k], sizeof g->players[k], "%s", p ? p : "");
        snprintf(g->names[k], sizeof g->names[k], "%s", seats[k].name ? seats[k].name : "");
    }
}

static void on_action(void *ctx, uint32_t n, const char *text)
{
    game *g = ctx;
    if (g->bad || n != g->n) {
        g->bad = true;
        return;
    }
    if (g->n == g->cap) {
        uint32_t cap = g->cap ? g->cap * 2 : 256;
        barbu_action *a = realloc(g->own_actions, cap * sizeof *a);
        if (a == NULL) {
            g->bad = true;
            return;
        }
        g->own_actions = a;
        g->cap = cap;
    }
    if (store_action_parse(text, &g->own_actions[g->n]) != 0) {
        g->bad = true;
        return;
    }
    g->n++;
}

/* The game's start, from its key or its seed. */
static int game_init(const game *g, barbu_state *st)
{
    if (g->keyed)
        return barbu_init_keyed(st, &g->rules, g->key);
    return barbu_init(st, &g->rules, g->seed);
}

static void game_free(game *g)
{
    free(g->own_actions);
    free(g->own_results);
    free(g->own_deal_players);
    free(g->house);
}

/* Reads a game from a store handle and replays it for its results, using
 * nothing of the server's.  Returns 1 when found, 0 when not, -1 with the
 * reason in why. */
static int game_read(store *db, int64_t id, game *g, char *why, size_t cap)
{
    memset(g, 0, sizeof *g);
    int found = db->ops->table_get(db, id, on_table, g);
    if (found < 0) {
        snprintf(why, cap, "store: %s", store_error(db));
        return -1;
    }
    if (found == 0 || !g->found)
        return 0;
    if (g->bad) {
        snprintf(why, cap, "table %lld: its seed does not read", (long long)id);
        return -1;
    }
    char rules_why[240];
    if (srv_table_rules(g->preset, &g->house, g->revision, &g->rules, rules_why,
                        sizeof rules_why) != 0) {
        snprintf(why, cap, "table %lld: its rules no longer build: %s", (long long)id, rules_why);
        return -1;
    }
    if (db->ops->actions_load(db, id, on_action, g) != 0) {
        snprintf(why, cap, "store: %s", store_error(db));
        return -1;
    }
    g->actions = g->own_actions;
    if (!g->started)
        return 1;
    barbu_state st;
    if (game_init(g, &st) != 0) {
        snprintf(why, cap, "table %lld: its game does not start from its seed", (long long)id);
        return -1;
    }
    int n_cap = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        uint16_t deal = st.t.deal;
        if (barbu_apply(&st, &g->own_actions[i]) != 0) {
            g->n = i;
            break;
        }
        if (st.t.deal != deal) {
            if (g->n_results == n_cap) {
                n_cap = n_cap ? n_cap * 2 : 32;
                barbu_result *r = realloc(g->own_results, (size_t)n_cap * sizeof *r);
                if (r == NULL) {
                    snprintf(why, cap, "out of memory");
                    return -1;
                }
                g->own_results = r;
            }
            g->own_results[g->n_results++] = st.t.last;
        }
    }
    g->results = g->own_results;
    g->over = barbu_over(&st);
    /* Without them the score still reads: its deals name no players. */
    if (srv_deal_players_read(db, id, &g->own_deal_players, &g->n_deal_players) == 0)
        g->deal_players = g->own_deal_players;
    return 1;
}

/* The same for the event loop, which logs why. */
static int game_load(srv_server *srv, int64_t id, game *g)
{
    char why[400];
    int found = game_read(srv->store, id, g, why, sizeof why);
    if (found < 0)
        srv_log(srv, "%s", why);
    return found;
}

/* The game of the table a message names (or the session's), from memory or
 * the store; replies no_table (and returns false) when there is none. */
static bool find_game(srv_conn *c, const proto_msg *msg, game *g)
{
    int64_t id = msg->table;
    if (id == 0 && c->session->table)
        id = c->session->table->id;
    if (id == 0) {
        srv_error(c, msg, "no_table", "You are at no table: name the table you want.");
        return false;
    }
    srv_table *t = srv_table_find(c->srv, id);
    if (t && t->no_game) {
        srv_error(c, msg, "server",
                  "Table %lld's stored rules or seed could not be read after a restart, so its "
                  "game cannot be shown (the server's log says why): ask the server's keeper.",
                  (long long)id);
        return false;
    }
    if (t) {
        game_from_table(g, t);
        return true;
    }
    int found = game_load(c->srv, id, g);
    if (found < 0) {
        game_free(g);
        srv_error(c, msg, "server",
                  "Table %lld could not be read from the server's store: try again in a moment.",
                  (long long)id);
        return false;
    }
    if (found == 0) {
        game_free(g);
        srv_error(c, msg, "no_table", "There is no table %lld: choose a table from the lobby.",
                  (long long)id);
        return false;
    }
    return true;
}

json_t *srv_score_deals_json(const barbu_rules *rules, const barbu_result *results, int n,
                             const srv_deal_player *dp, int n_dp)
{
    json_t *deals = json_array();
    for (int i = 0; i < n && deals; i++) {
        json_t *deal = proto_result_json(rules, &results[i]);
        json_t *who = srv_deal_players_json(dp, n_dp, results[i].deal);
        if (deal && who)
            json_object_set_new(deal, "players", who);
        else
            json_decref(who);
        json_array_append_new(deals, deal);
    }
    return deals;
}

void srv_cmd_score(srv_conn *c, const proto_msg *msg)
{
    game g;
    if (!find_game(c, msg, &g))
        return;
    json_t *players = json_array();
    json_t *deals =
        srv_score_deals_json(&g.rules, g.results, g.n_results, g.deal_players, g.n_deal_players);
    long totals[4] = {0};
    for (int k = 0; k < 4; k++)
        json_array_append_new(players, g.players[k][0] ? json_string(g.players[k]) : json_null());
    for (int i = 0; i < g.n_results; i++)
        for (int k = 0; k < 4; k++)
            totals[k] += g.results[i].score[k];
    json_t *m = json_pack("{s:s, s:I, s:o, s:o, s:[i,i,i,i]}", "type", "score", "table",
                          (json_int_t)g.id, "players", players, "deals", deals, "totals",
                          (int)totals[0], (int)totals[1], (int)totals[2], (int)totals[3]);
    const barbu_serve_options *opt = c->srv->opt;
    if (m && opt->sheet_text && g.n_results > 0) {
        const char *names[4];
        for (int k = 0; k < 4; k++)
            names[k] = g.players[k][0] ? g.players[k] : barbu_seat_name(k);
        char *sheet = opt->sheet_text(&g.rules, g.results, g.n_results, names);
        if (sheet)
            json_object_set_new(m, "sheet", json_string(sheet));
        free(sheet);
        char *html =
            opt->sheet_html ? opt->sheet_html(&g.rules, g.results, g.n_results, names) : NULL;
        if (html)
            json_object_set_new(m, "sheet_html", json_string(html));
        free(html);
    }
    srv_send(c, srv_with_id(m, msg));
    game_free(&g);
}

static const char *const TAG_SEATS[4] = {"North", "East", "South", "West"};

static int make_record(const game *g, char **text, size_t *len, char *why, size_t cap)
{
    /* A keyed game's record names its key only once the game is over
     * (barbu_record_withhold below), its commitment always. */
    barbu_record *rec =
        g->keyed ? barbu_record_new_keyed(&g->rules, g->key) : barbu_record_new(&g->rules, g->seed);
    if (rec == NULL) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "barbu serve table %lld", (long long)g->id);
    barbu_record_set_tag(rec, "Event", buf);
    time_t when = (time_t)g->created;
    struct tm tm;
    if (gmtime_r(&when, &tm)) {
        strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
        barbu_record_set_tag(rec, "Date", buf);
    }
    /* The players of record; the record notes who sits in their place. */
    char subs[256] = "";
    for (int k = 0; k < 4; k++) {
        if (g->players[k][0])
            barbu_record_set_tag(rec, TAG_SEATS[k], g->players[k]);
        if (g->started && g->names[k][0] && strcmp(g->names[k], g->players[k]) != 0) {
            /* A record's tag holds at most 255 bytes: a substitute is
             * named whole or not at all, never cut in a character. */
            size_t used = strlen(subs);
            int need =
                snprintf(NULL, 0, "%s%s %s", used ? ", " : "", barbu_seat_name(k), g->names[k]);
            if (need > 0 && used + (size_t)need < sizeof subs)
                snprintf(subs + used, sizeof subs - used, "%s%s %s", used ? ", " : "",
                         barbu_seat_name(k), g->names[k]);
        }
    }
    if (subs[0])
        barbu_record_set_tag(rec, "Substitutes", subs);

    int err = 0;
    if (g->started && g->n > 0) {
        barbu_state st;
        err = game_init(g, &st);
        for (uint32_t i = 0; err == 0 && i < g->n; i++) {
            barbu_state before = st;
            err = barbu_apply(&st, &g->actions[i]);
            if (err == 0)
                err = barbu_record_add(rec, &before, &g->actions[i]);
        }
    }
    if (err == 0 && !g->over)
        err = barbu_record_withhold(rec);
    barbu_diag d = {0};
    if (err == 0)
        err = barbu_record_write(rec, text, len, &d);
    barbu_record_free(rec);
    if (err != 0) {
        snprintf(why, cap, "%s%s%s", barbu_strerror(err), d.msg[0] ? ": " : "", d.msg);
        return -1;
    }
    return 0;
}

void srv_cmd_record(srv_conn *c, const proto_msg *msg)
{
    game g;
    if (!find_game(c, msg, &g))
        return;
    char *text = NULL, why[sizeof((barbu_diag *)0)->msg + 64];
    size_t len = 0;
    if (make_record(&g, &text, &len, why, sizeof why) != 0) {
        srv_log(c->srv, "table %lld: no record: %s", (long long)g.id, why);
        srv_error(c, msg, "server",
                  "The record could not be written (%s): tell the server's keeper, as this "
                  "is a fault of the server.",
                  why);
        game_free(&g);
        return;
    }
    json_t *m = json_pack("{s:s, s:I, s:b, s:s%}", "type", "record", "table", (json_int_t)g.id,
                          "complete", g.over, "text", text, len);
    srv_send(c, srv_with_id(m, msg));
    free(text);
    game_free(&g);
}

/* ------------------------------------------------- off the event loop */

int srv_history_read(store *db, int64_t id, srv_history **out, char *why, size_t cap)
{
    *out = NULL;
    game *g = malloc(sizeof *g);
    if (g == NULL) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    int found = game_read(db, id, g, why, cap);
    if (found <= 0) {
        game_free(g);
        free(g);
        return found;
    }
    *out = g;
    return 1;
}

bool srv_history_over(const srv_history *h)
{
    return h->over;
}

bool srv_history_started(const srv_history *h)
{
    return h->started;
}

int srv_history_record(const srv_history *h, char **text, size_t *len, char *why, size_t cap)
{
    return make_record(h, text, len, why, cap);
}

char *srv_history_sheet_html(const srv_history *h, const barbu_serve_options *opt)
{
    if (opt->sheet_html == NULL || h->n_results == 0)
        return NULL;
    const char *names[4];
    for (int k = 0; k < 4; k++)
        names[k] = h->players[k][0] ? h->players[k] : barbu_seat_name(k);
    return opt->sheet_html(&h->rules, h->results, h->n_results, names);
}

void srv_history_free(srv_history *h)
{
    if (h == NULL)
        return;
    game_free(h);
    free(h);
}
