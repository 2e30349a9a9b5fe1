/*
 * restore.c - sessions and tables come back from the store: all of them
 * at start-up, or one table at a time when a node adopts it (node.c); both
 * go through restore_table.  A table is its rules, its seed and its
 * actions, so replaying the actions rebuilds its game exactly.  Its people
 * are away from the start, so their grace periods begin again; computer
 * players carry on.
 *
 * A damaged database must not stop the server: a session row that does not
 * read is skipped, and a table whose rows do not read (its preset, house
 * rules, seed, options, state or seats) or whose actions do not replay is
 * kept but broken, each with a log line that says what is wrong.
 */
#include <stdint.h>
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
    char damage[240]; /* what does not read, "" when all does */
    bool seed_lost;
    bool keyed;
    uint8_t key[BARBU_KEY_BYTES];
    /* Its game started (a seat has a player of record); it is loaded only
     * for the club's catch-up (club.c), and leaves memory after it. */
    bool game_started, old;
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
    if (token == NULL || name == NULL) {
        srv_log(r->srv, "a stored session without a %s is skipped", token ? "name" : "token");
        return;
    }
    srv_session *s = srv_session_add(r->srv, token, name);
    if (s == NULL) {
        srv_log(r->srv, "session %s could not be restored", name);
        return;
    }
    /* A registered player's session: its account says so. */
    char key[SRV_KEY_CAP];
    store_account acct;
    srv_handle_key(name, key);
    if (r->srv->store->ops->account_get(r->srv->store, key, &acct) > 0) {
        s->registered = true;
        s->admin = acct.admin;
    }
}

srv_session *srv_session_fetch(srv_server *srv, const char *token)
{
    store *db = srv->store;
    if (db->ops->session_get == NULL || token == NULL || token[0] == '\0')
        return NULL;
    char name[PROTO_NAME_BYTES + 1];
    int got = db->ops->session_get(db, token, name, sizeof name);
    if (got < 0)
        srv_log(srv, "store: %s", store_error(db));
    if (got <= 0)
        return NULL;
    char key[SRV_KEY_CAP];
    srv_handle_key(name, key);
    /* A registered player's session has the account's own id: a guest's
     * session whose name an account took since (on another node) stays a
     * guest's, and never reaches the account's seats. */
    char id[STORE_TOKEN_HASH_LEN + 1];
    srv_registered_id(key, id);
    store_account acct;
    bool registered = strcmp(token, id) == 0 && db->ops->account_get(db, key, &acct) > 0;
    /* A registered player signed in here already has a session of that
     * name: the same player. */
    srv_session *s = srv_map_get(&srv->by_name, key);
    if (s)
        return registered && s->registered ? s : NULL;
    s = srv_session_add(srv, token, name);
    if (s == NULL) {
        srv_log(srv, "session %s could not be loaded", name);
        return NULL;
    }
    if (registered) {
        s->registered = true;
        s->admin = acct.admin || srv_mod_admin_key(srv, key);
    }
    s->idle_since = srv_now();
    return s;
}

/* Short printable ASCII (a preset's name is shown to every client). */
static bool printable(const char *text, size_t cap)
{
    size_t n = 0;
    for (; text[n]; n++)
        if (text[n] < 0x20 || text[n] > 0x7e || n + 1 >= cap)
            return false;
    return n > 0;
}

/* Text that fits cap and that a client can be sent: valid UTF-8 (jansson
 * refuses anything else). */
static bool text_ok(const char *text, size_t cap)
{
    if (text == NULL)
        return true;
    if (strlen(text) >= cap)
        return false;
    json_t *j = json_string(text);
    json_decref(j);
    return j != NULL;
}

/* Notes what is wrong with a table's seats' text, when nothing else is. */
static void check_seats(loaded_table *lt, const store_seat seats[4])
{
    for (int k = 0; k < 4 && !lt->damage[0]; k++) {
        const loaded_seat *ls = &lt->seats[k];
        const char *what = !text_ok(seats[k].name, sizeof ls->name)       ? "name"
                           : !text_ok(seats[k].player, sizeof ls->player) ? "player"
                           : !text_ok(seats[k].token, sizeof ls->token)   ? "token"
                           : !text_ok(seats[k].level, sizeof ls->level)   ? "level"
                                                                          : NULL;
        if (what)
            snprintf(lt->damage, sizeof lt->damage,
                     "the %s of its seat %s is too long or not UTF-8 text", what,
                     barbu_seat_name(k));
    }
}

static void on_table(void *ctx, const store_table *t, const store_seat seats[4])
{
    restore_ctx *r = ctx;
    bool game_started = false;
    for (int k = 0; k < 4; k++)
        game_started |= seats[k].player != NULL && seats[k].player[0] != '\0';
    /* A finished table of long ago stays in the store, unless the club has
     * not kept its game (a kill between the two, or a game older than the
     * club): it is loaded to be kept, then leaves memory. */
    bool old =
        t->damage == NULL && t->state == STORE_OVER && r->wall - t->created > SRV_OVER_RECENT;
    if (old && (!game_started || !srv_club_needs_catch_up(r->srv, t->id)))
        return;
    loaded_table *lt = calloc(1, sizeof *lt);
    if (lt == NULL) {
        r->failed = 1;
        return;
    }
    lt->game_started = game_started;
    lt->old = old;
    lt->id = t->id;
    lt->created = t->created;
    snprintf(lt->damage, sizeof lt->damage, "%s", t->damage ? t->damage : "");
    lt->seed_lost = t->seed_lost;
    if (!printable(t->preset, sizeof lt->preset) && !lt->damage[0])
        snprintf(lt->damage, sizeof lt->damage, "its preset '%.40s' is not one barbu knows",
                 t->preset);
    snprintf(lt->preset, sizeof lt->preset, "%s",
             printable(t->preset, sizeof lt->preset) ? t->preset : "?");
    lt->house = strdup(t->house ? t->house : "");
    lt->options = strdup(t->options ? t->options : "{}");
    lt->seed = t->seed;
    lt->keyed = t->keyed;
    memcpy(lt->key, t->key, sizeof lt->key);
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
    check_seats(lt, seats);
    if (!text_ok(t->house, SIZE_MAX) && !lt->damage[0])
        snprintf(lt->damage, sizeof lt->damage, "its house rules are not UTF-8 text");
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
        if (n != a->expected)
            srv_log(t->srv, "table %lld: stored action %u comes where %u should: the replay stops",
                    (long long)t->id, n, a->expected);
        else
            srv_log(t->srv,
                    "table %lld: stored action %u ('%.100s') does not read: the replay stops",
                    (long long)t->id, n, text ? text : "(NULL)");
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

static bool level_ok(const char *level)
{
    barbu_bot *b = barbu_bot_new(level, 0);
    barbu_bot_free(b);
    return b != NULL;
}

/* Whether a table's stored options read as srv_options_text writes them;
 * fills why when not. */
static bool options_ok(const char *text, char *why, size_t cap)
{
    json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
    bool ok = json_is_object(o);
    const char *s;
    json_t *v;
    if (!ok)
        snprintf(why, cap, "its options '%.60s' are not a JSON object", text);
    else if ((v = json_object_get(o, "kibitz")) != NULL &&
             (!(s = json_string_value(v)) ||
              (strcmp(s, "none") != 0 && strcmp(s, "seat") != 0 && strcmp(s, "all") != 0)))
        ok = false, snprintf(why, cap, "its option kibitz is not none, seat or all");
    else if ((v = json_object_get(o, "takeover")) != NULL &&
             (!(s = json_string_value(v)) || (strcmp(s, "vote") != 0 && strcmp(s, "bot") != 0)))
        ok = false, snprintf(why, cap, "its option takeover is not vote or bot");
    else if ((v = json_object_get(o, "level")) != NULL &&
             (!(s = json_string_value(v)) || strlen(s) >= 16 || !level_ok(s)))
        ok = false, snprintf(why, cap, "its option level is not a computer player's level");
    else if ((v = json_object_get(o, "grace")) != NULL &&
             (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 3600))
        ok = false, snprintf(why, cap, "its option grace is not 0 to 3600 seconds");
    else if ((v = json_object_get(o, "delay")) != NULL &&
             (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 5000))
        ok = false, snprintf(why, cap, "its option delay is not 0 to 5000 ms");
    else if ((v = json_object_get(o, "clock")) != NULL &&
             (!json_is_integer(v) || json_integer_value(v) < PROTO_CLOCK_MIN ||
              json_integer_value(v) > PROTO_CLOCK_MAX))
        ok = false, snprintf(why, cap, "its option clock is not %d to %d seconds", PROTO_CLOCK_MIN,
                             PROTO_CLOCK_MAX);
    else if ((v = json_object_get(o, "revision")) != NULL &&
             (!json_is_integer(v) || json_integer_value(v) < 1 ||
              json_integer_value(v) > SRV_RULES_REVISION))
        ok = false, snprintf(why, cap, "its option revision is not 1 to %d", SRV_RULES_REVISION);
    json_decref(o);
    return ok;
}

static void restore_table(srv_server *srv, loaded_table *lt, int64_t now)
{
    /* Whatever does not read makes the table broken: it is shown, takes no
     * action, and its rows stay as they are for a person to look at. */
    char why[240] = "";
    if (lt->damage[0])
        snprintf(why, sizeof why, "%s", lt->damage);
    else
        options_ok(lt->options, why, sizeof why);
    for (int k = 0; k < 4 && !why[0]; k++)
        if (lt->seats[k].bot && !level_ok(lt->seats[k].level))
            snprintf(why, sizeof why, "the computer player at %s has no known level ('%s')",
                     barbu_seat_name(k), lt->seats[k].level);
    bool no_game = lt->seed_lost;
    barbu_rules rules;
    char rules_why[200];
    int revision = srv_options_revision(lt->options);
    if (srv_table_rules(lt->preset, &lt->house, revision, &rules, rules_why, sizeof rules_why) !=
        0) {
        if (lt->house == NULL) {
            srv_log(srv, "table %lld is not restored: out of memory", (long long)lt->id);
            return;
        }
        if (!why[0])
            snprintf(why, sizeof why, "its rules do not read: %s", rules_why);
        no_game = true;
    }
    /* A table that never started has no game to show either. */
    if (why[0] && lt->state == STORE_WAITING)
        no_game = true;
    if (no_game)
        barbu_rules_preset(&rules, "uk"); /* a stand-in that nothing shows or plays */
    if (why[0])
        srv_log(srv, "table %lld is broken: %s; it is kept as it is and takes no action",
                (long long)lt->id, why);
    if (!why[0] && revision < 2 && rules.game == BARBU_GAME_FIFE)
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
    t->keyed = lt->keyed;
    memcpy(t->key, lt->key, sizeof t->key);
    t->created = lt->created;
    t->rules = rules;
    t->broken = why[0] != '\0';
    t->no_game = no_game;
    /* What of the options reads is kept, even at a broken table (who may
     * watch, who chose the seed); a policy that does not read is "none". */
    if (t->broken)
        t->kibitz = PROTO_KIBITZ_NONE;
    srv_options_parse(t, lt->options);

    bool started = lt->state != STORE_WAITING || t->broken;
    for (int k = 0; k < 4; k++) {
        loaded_seat *ls = &lt->seats[k];
        srv_seat *st = &t->seats[k];
        srv_session *s = ls->token[0] ? srv_session_by_token(srv, ls->token) : NULL;
        /* A node loads the sessions of a table's seats only (its own from
         * the store when it started elsewhere). */
        if (s == NULL && srv->node && ls->token[0])
            s = srv_session_fetch(srv, ls->token);
        /* Watching another table here while its own was elsewhere (a node
         * adopting it): the seat comes first, the watching ends. */
        if (s && s->table && s->kibitz != -1 && s->table != t)
            srv_kibitz_remove(s->table, s);
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
            /* Made now, shown the deal under way after the replay. */
            srv_seat_ai_make(t, k);
        }
        if (s && started) {
            st->person = s;
            s->table = t;
            s->seat = k;
            s->moved_from = 0;
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
        int err = srv_table_init_game(t, no_game);
        if (err != 0) {
            srv_log(srv, "table %lld is not restored: %s", (long long)t->id, barbu_strerror(err));
            srv_table_close(t);
            return;
        }
        t->started = true;
        action_ctx a = {.t = t};
        if (no_game)
            a.bad = true; /* no replay: nothing in it would be true */
        else if (srv->store->ops->actions_load(srv->store, t->id, on_action, &a) != 0) {
            srv_log(srv, "store: %s", store_error(srv->store));
            a.bad = true;
        }
        if (a.bad)
            t->broken = true;
        /* The computer players see the views of the deal under way they
         * saw when they played it (only this deal's tricks count), so that
         * they go on as the ones that played through. */
        for (int k = 0; k < 4; k++)
            if (t->seats[k].bot && t->seats[k].ai != NULL)
                srv_seat_views_feed(t, t->seats[k].ai, k);
        if (lt->state == STORE_OVER && (!barbu_over(&t->state) || t->broken)) {
            /* Closed before its game began (abandoned while waiting), or
             * closed before its end (abandoned), or broken: it must not
             * come back as a game in progress.  An abandoned game the club
             * has not kept yet is kept now, with who played which deals (a
             * broken one as abandoned, so that it is not loaded again at
             * every start). */
            if (lt->game_started &&
                srv_deal_players_load(srv, t->id, &t->deal_players, &t->n_deal_players) == 0) {
                t->cap_deal_players = t->n_deal_players;
                srv_club_catch_up(t, true);
            }
            srv_table_close(t);
            return;
        }
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
    if (t->started)
        srv_deal_players_restore(t);
    /* A game over in its actions: the store says so, and the club keeps it
     * (a kill between the last action and either of them loses nothing). */
    if (t->started && barbu_over(&t->state) && !t->broken) {
        if (lt->state != STORE_OVER)
            srv_table_set_over(srv, t->id, t);
        else
            srv_club_catch_up(t, true);
    }
    t->listed_deal = t->started ? t->state.t.deal : -1;
    srv_log(srv, "table %lld restored: %s, %u actions%s", (long long)t->id, srv_table_state_name(t),
            t->n,
            t->no_game  ? " (broken: its game is not shown)"
            : t->broken ? " (broken: its game is shown as far as it was rebuilt)"
                        : "");
    if (lt->old)
        srv_table_close(t);
}

int srv_restore_table(srv_server *srv, int64_t id)
{
    restore_ctx r = {.srv = srv, .wall = srv_wall()};
    store *db = srv->store;
    int found = db->ops->table_get(db, id, on_table, &r);
    if (found < 0 || r.failed)
        srv_log(srv, "table %lld cannot be read: %s", (long long)id,
                found < 0 ? store_error(db) : "out of memory");
    loaded_table *lt = r.head;
    if (lt && found > 0 && !r.failed)
        restore_table(srv, lt, srv_now());
    if (lt) {
        free(lt->house);
        free(lt->options);
        free(lt);
    }
    return found < 0 || r.failed ? -1 : found > 0 ? 1 : 0;
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
