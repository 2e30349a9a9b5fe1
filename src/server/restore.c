/*
 * restore.c - start-up: sessions and tables come back from the store.  A
 * table is its rules, its seed and its actions, so replaying the actions
 * rebuilds its game exactly.  Its people are away from the start, so
 * their grace periods begin again; computer players carry on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct loaded_seat {
    char name[SRV_NAME_CAP], player[SRV_NAME_CAP], level[16];
    char token[PROTO_TOKEN_LEN + 1];
    bool bot;
} loaded_seat;

typedef struct loaded_table {
    struct loaded_table *next;
    int64_t id, created;
    char preset[16];
    char *house, *options;
    uint64_t seed;
    int state;
    loaded_seat seats[4];
} loaded_table;

typedef struct restore_ctx {
    srv_server *srv;
    loaded_table *head, *tail;
    int64_t wall;
    int failed;
} restore_ctx;

static void on_session(void *ctx, const char *token, const char *name)
{
    restore_ctx *r = ctx;
    if (srv_session_add(r->srv, token, name) == NULL)
        srv_log(r->srv, "session %s could not be restored", name);
}

static void on_table(void *ctx, const store_table *t, const store_seat seats[4])
{
    restore_ctx *r = ctx;
    if (t->state == STORE_OVER && r->wall - t->created > SRV_OVER_RECENT)
        return;
    loaded_table *lt = calloc(1, sizeof *lt);
    if (lt == NULL) {
        r->failed = 1;
        return;
    }
    lt->id = t->id;
    lt->created = t->created;
    snprintf(lt->preset, sizeof lt->preset, "%s", t->preset);
    lt->house = strdup(t->house ? t->house : "");
    lt->options = strdup(t->options ? t->options : "{}");
    lt->seed = t->seed;
    lt->state = t->state;
    for (int k = 0; k < 4; k++) {
        const store_seat *ss = &seats[k];
        loaded_seat *ls = &lt->seats[k];
        snprintf(ls->name, sizeof ls->name, "%s", ss->name ? ss->name : "");
        snprintf(ls->player, sizeof ls->player, "%s", ss->player ? ss->player : "");
        snprintf(ls->level, sizeof ls->level, "%s", ss->level ? ss->level : "heuristic");
        snprintf(ls->token, sizeof ls->token, "%s", ss->token ? ss->token : "");
        ls->bot = ss->bot;
    }
    if (r->tail)
        r->tail->next = lt;
    else
        r->head = lt;
    r->tail = lt;
}

typedef struct action_ctx {
    srv_table *t;
    uint32_t expected;
    bool bad;
    char *stop_why;
} action_ctx;

static void on_action(void *ctx, uint32_t n, const char *text)
{
    action_ctx *a = ctx;
    srv_table *t = a->t;
    if (a->bad)
        return;
    barbu_action act;
    if (n != a->expected || store_action_parse(text, &act) != 0) {
        srv_log(t->srv, "table %lld: stored action %u ('%s') does not read: the replay stops",
                (long long)t->id, n, text);
        a->bad = true;
        return;
    }
    a->expected++;
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 256;
        barbu_action *p = realloc(t->actions, cap * sizeof *p);
        if (p == NULL) {
            a->bad = true;
            return;
        }
        t->actions = p;
        t->cap = cap;
    }
    uint16_t deal = t->state.t.deal;
    int err = barbu_apply(&t->state, &act);
    if (err != 0) {
        srv_log(t->srv, "table %lld: stored action %u ('%s') is refused: %s; the replay stops",
                (long long)t->id, n, text, barbu_strerror(err));
        a->bad = true;
        return;
    }
    t->actions[t->n++] = act;
    if (t->state.t.deal != deal) {
        if (t->n_results == t->cap_results) {
            int cap = t->cap_results ? t->cap_results * 2 : 32;
            barbu_result *p = realloc(t->results, (size_t)cap * sizeof *p);
            if (p == NULL) {
                a->bad = true;
                return;
            }
            t->results = p;
            t->cap_results = cap;
        }
        t->results[t->n_results++] = t->state.t.last;
    }
}

static void restore_table(srv_server *srv, loaded_table *lt, int64_t now)
{
    barbu_rules rules;
    char why[240];
    int revision = srv_options_revision(lt->options);
    if (srv_table_rules(lt->preset, &lt->house, revision, &rules, why, sizeof why) != 0) {
        srv_log(srv, "table %lld is not restored: %s", (long long)lt->id, why);
        return;
    }
    if (revision < 2 && rules.game == BARBU_GAME_FIFE)
        srv_log(srv,
                "table %lld was made before barbu read the Fife game's later Calls by the "
                "booklet's Joker sentence: it goes on by the reading it started with "
                "(later-call-joker = no)",
                (long long)lt->id);
    srv_table *t = srv_table_new(srv, lt->id);
    if (t == NULL)
        return;
    snprintf(t->preset, sizeof t->preset, "%s", lt->preset);
    t->house = lt->house;
    lt->house = NULL;
    t->seed = lt->seed;
    t->created = lt->created;
    t->rules = rules;
    srv_options_parse(t, lt->options);

    bool started = lt->state != STORE_WAITING;
    for (int k = 0; k < 4; k++) {
        loaded_seat *ls = &lt->seats[k];
        srv_seat *st = &t->seats[k];
        srv_session *s = ls->token[0] ? srv_session_by_token(srv, ls->token) : NULL;
        if (s && s->table) {
            srv_log(srv, "table %lld: %s holds a seat at table %lld already", (long long)t->id,
                    s->name, (long long)s->table->id);
            s = NULL;
        }
        snprintf(st->player, sizeof st->player, "%s", ls->player);
        if (ls->bot) {
            st->bot = true;
            snprintf(st->level, sizeof st->level, "%s", ls->level);
            snprintf(st->name, sizeof st->name, "%s", ls->name);
            st->took_over = started && strcmp(ls->player, ls->name) != 0;
        }
        if (s && started) {
            st->person = s;
            s->table = t;
            s->seat = k;
            if (!st->bot) {
                snprintf(st->name, sizeof st->name, "%s", s->name);
                st->away_since = now;
            }
        } else if (started && !st->bot && ls->name[0] && lt->state == STORE_OVER) {
            snprintf(st->name, sizeof st->name, "%s", ls->name);
        } else if (started && !st->bot) {
            /* Nobody to come back to this seat: free for a substitute. */
            st->away_since = now;
            st->grace_over = true;
        } else if (!started && (ls->name[0] && !ls->bot)) {
            /* Before the game a lost player's seat is free at once. */
            srv_seat_store(t, k);
        }
    }
    if (started) {
        int err = barbu_init(&t->state, &t->rules, t->seed);
        if (err != 0) {
            srv_log(srv, "table %lld is not restored: %s", (long long)t->id, barbu_strerror(err));
            srv_table_close(t);
            return;
        }
        t->started = true;
        action_ctx a = {.t = t};
        if (srv->store->ops->actions_load(srv->store, t->id, on_action, &a) != 0) {
            srv_log(srv, "store: %s", store_error(srv->store));
            a.bad = true;
        }
        if (a.bad)
            t->broken = true;
        if (lt->state == STORE_OVER && !barbu_over(&t->state)) {
            /* Closed before its game began (abandoned while waiting): it
             * must not come back as a game in progress. */
            srv_table_close(t);
            return;
        }
        if (barbu_over(&t->state) && lt->state != STORE_OVER)
            srv->store->ops->table_set_state(srv->store, t->id, STORE_OVER);
        if (barbu_over(&t->state)) {
            /* Nobody is at a finished table after a restart: its players
             * may hold a seat at a later table, which must not be lost. */
            for (int k = 0; k < 4; k++) {
                srv_session *s = t->seats[k].person;
                if (s && s->table == t) {
                    s->table = NULL;
                    s->seat = -1;
                }
                t->seats[k].person = NULL;
            }
        }
    }
    t->listed_deal = t->started ? t->state.t.deal : -1;
    srv_log(srv, "table %lld restored: %s, %u actions%s", (long long)t->id, srv_table_state_name(t),
            t->n, t->broken ? " (its replay stopped early)" : "");
}

int srv_restore(srv_server *srv)
{
    restore_ctx r = {.srv = srv, .wall = srv_wall()};
    store *db = srv->store;
    if (db->ops->sessions_load(db, on_session, &r) != 0) {
        fprintf(stderr, "barbu serve: cannot read the sessions: %s\n", store_error(db));
        return -1;
    }
    if (db->ops->tables_load(db, on_table, &r) != 0 || r.failed) {
        fprintf(stderr, "barbu serve: cannot read the tables: %s\n", store_error(db));
        r.failed = 1;
    }
    int64_t now = srv_now();
    loaded_table *lt = r.head;
    while (lt) {
        loaded_table *next = lt->next;
        if (!r.failed)
            restore_table(srv, lt, now);
        free(lt->house);
        free(lt->options);
        free(lt);
        lt = next;
    }
    return r.failed ? -1 : 0;
}
