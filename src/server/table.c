/*
 * table.c - a table: its rules and options, four seats, its kibitzers and
 * the game (a barbu_state and the actions that made it).  Every accepted
 * action goes through srv_table_commit: stored first, then applied, then
 * each player and kibitzer gets the view of its own seat.  Nothing here
 * serialises a state: messages are built from views only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const KIBITZ_NAMES[] = {"none", "seat", "all"};
static const char *const TAKEOVER_NAMES[] = {"vote", "bot"};

/* ------------------------------------------------------------- lifetime */

srv_table *srv_table_new(srv_server *srv, int64_t id)
{
    srv_table *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->srv = srv;
    t->id = id;
    t->kibitz = PROTO_KIBITZ_SEAT;
    t->grace = 300;
    t->takeover = PROTO_TAKEOVER_VOTE;
    t->delay = 600;
    t->revision = SRV_RULES_REVISION;
    /* A new table sets its level (srv_cmd_create); a table restored from
     * options without one dates from before the levels, when every
     * computer player was the heuristic one (which is easy). */
    snprintf(t->level, sizeof t->level, "heuristic");
    t->listed_deal = -1;
    t->clock_seat = -1;
    char key[24];
    srv_table_key(id, key);
    if (srv_map_put(&srv->table_map, key, t) != 0) {
        free(t);
        return NULL;
    }
    t->next = srv->tables;
    if (srv->tables)
        srv->tables->prev = t;
    srv->tables = t;
    srv->n_tables++;
    srv_lobby_forget(srv);
    return t;
}

void srv_table_free(srv_table *t)
{
    if (t == NULL)
        return;
    srv_server *srv = t->srv;
    srv_table_timer_cancel(t);
    srv_clock_cancel(t);
    srv_job_free(t->held);
    for (int k = 0; k < 4; k++)
        barbu_bot_free(t->seats[k].ai);
    char key[24];
    srv_table_key(t->id, key);
    srv_map_del(&srv->table_map, key);
    if (t->prev)
        t->prev->next = t->next;
    else
        srv->tables = t->next;
    if (t->next)
        t->next->prev = t->prev;
    srv->n_tables--;
    srv_lobby_forget(srv);
    free(t->house);
    free(t->actions);
    free(t->results);
    free(t->kibitzers);
    free(t->watches);
    free(t->deal_players);
    free(t);
}

srv_table *srv_table_find(srv_server *srv, int64_t id)
{
    char key[24];
    srv_table_key(id, key);
    return srv_map_get(&srv->table_map, key);
}

void srv_table_close(srv_table *t)
{
    srv_server *srv = t->srv;
    int64_t now = srv_now();
    for (int k = 0; k < 4; k++) {
        srv_session *s = t->seats[k].person;
        if (s && s->table == t) {
            s->table = NULL;
            s->seat = -1;
            s->idle_since = now;
        }
    }
    for (int i = 0; i < t->n_kibitzers; i++) {
        srv_session *s = t->kibitzers[i];
        s->table = NULL;
        s->kibitz = s->kibitz_next = -1;
        s->idle_since = now;
    }
    int64_t id = t->id;
    bool lost = t->lost;
    srv_log(srv, "table %lld leaves memory", (long long)id);
    srv_table_free(t);
    srv_node_left(srv, id, lost);
    srv_lobby_closed(srv, id);
}

/* --------------------------------------------------------------- states */

bool srv_table_over(const srv_table *t)
{
    return t->started && barbu_over(&t->state);
}

bool srv_seat_present(const srv_seat *st)
{
    return st->bot || (st->person && st->person->conn);
}

bool srv_table_paused(const srv_table *t)
{
    if (!t->started || srv_table_over(t))
        return false;
    for (int k = 0; k < 4; k++)
        if (!srv_seat_present(&t->seats[k]))
            return true;
    return false;
}

bool srv_seat_free(const srv_table *t, int seat)
{
    const srv_seat *st = &t->seats[seat];
    if (!t->started)
        return st->person == NULL && !st->bot;
    if (srv_table_over(t))
        return false;
    if (st->bot)
        return st->took_over;
    if (st->person == NULL)
        return true;
    return st->person->conn == NULL && st->grace_over;
}

const char *srv_table_state_name(const srv_table *t)
{
    if (!t->started)
        return "waiting";
    if (srv_table_over(t))
        return "over";
    return t->broken || srv_table_paused(t) ? "paused" : "playing";
}

int srv_table_store_state(const srv_table *t)
{
    if (!t->started)
        return STORE_WAITING;
    return srv_table_over(t) ? STORE_OVER : STORE_PLAYING;
}

/* ---------------------------------------------------- rules and options */

char *srv_options_text(const srv_table *t)
{
    json_t *o =
        json_pack("{s:s, s:i, s:s, s:s, s:i, s:i, s:s}", "kibitz", KIBITZ_NAMES[t->kibitz], "grace",
                  t->grace, "takeover", TAKEOVER_NAMES[t->takeover], "level", t->level, "delay",
                  t->delay, "revision", t->revision, "creator", t->creator_name);
    if (o && t->household)
        json_object_set_new(o, "household", json_true());
    if (o && t->kibitz_chat)
        json_object_set_new(o, "kibitz_chat", json_true());
    if (o && t->seed_chosen)
        json_object_set_new(o, "seed_chosen", json_true());
    if (o && t->clock > 0)
        json_object_set_new(o, "clock", json_integer(t->clock));
    if (o && t->ladder)
        json_object_set_new(o, "ladder", json_true());
    if (o && t->rated)
        json_object_set_new(o, "rated", json_true());
    if (o && t->credit == PROTO_CREDIT_DEALS)
        json_object_set_new(o, "credit", json_string("deals"));
    if (o && t->hints)
        json_object_set_new(o, "hints", json_true());
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

void srv_options_parse(srv_table *t, const char *text)
{
    json_t *o = json_loads(text ? text : "{}", 0, NULL);
    if (o == NULL)
        return;
    const char *s;
    json_t *v;
    if ((s = json_string_value(json_object_get(o, "kibitz"))) != NULL)
        for (int i = 0; i < 3; i++)
            if (strcmp(s, KIBITZ_NAMES[i]) == 0)
                t->kibitz = i;
    if ((s = json_string_value(json_object_get(o, "takeover"))) != NULL)
        t->takeover = strcmp(s, "bot") == 0 ? PROTO_TAKEOVER_BOT : PROTO_TAKEOVER_VOTE;
    if ((s = json_string_value(json_object_get(o, "level"))) != NULL)
        snprintf(t->level, sizeof t->level, "%s", s);
    /* In create's ranges, for a damaged row too. */
    if (json_is_integer(v = json_object_get(o, "grace")) && json_integer_value(v) >= 0 &&
        json_integer_value(v) <= 3600)
        t->grace = (int)json_integer_value(v);
    if (json_is_integer(v = json_object_get(o, "delay")) && json_integer_value(v) >= 0 &&
        json_integer_value(v) <= 5000)
        t->delay = (int)json_integer_value(v);
    if ((s = json_string_value(json_object_get(o, "creator"))) != NULL)
        snprintf(t->creator_name, sizeof t->creator_name, "%s", s);
    if (json_is_integer(v = json_object_get(o, "clock")) &&
        json_integer_value(v) >= PROTO_CLOCK_MIN && json_integer_value(v) <= PROTO_CLOCK_MAX)
        t->clock = (int)json_integer_value(v);
    t->household = json_is_true(json_object_get(o, "household"));
    t->kibitz_chat = json_is_true(json_object_get(o, "kibitz_chat"));
    t->seed_chosen = json_is_true(json_object_get(o, "seed_chosen"));
    t->ladder = json_is_true(json_object_get(o, "ladder"));
    t->rated = json_is_true(json_object_get(o, "rated"));
    t->hints = json_is_true(json_object_get(o, "hints"));
    s = json_string_value(json_object_get(o, "credit"));
    t->credit = s && strcmp(s, "deals") == 0 ? PROTO_CREDIT_DEALS : PROTO_CREDIT_RECORD;
    json_decref(o);
    t->revision = srv_options_revision(text);
}

int srv_options_revision(const char *text)
{
    json_t *o = json_loads(text ? text : "{}", 0, NULL);
    json_t *v = o ? json_object_get(o, "revision") : NULL;
    int revision = json_is_integer(v) ? (int)json_integer_value(v) : 1;
    json_decref(o);
    return revision;
}

int srv_table_rules(const char *preset, char **house, int revision, barbu_rules *rules, char *why,
                    size_t cap)
{
    if (*house == NULL) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    if (proto_table_rules(preset, *house, rules, why, cap) != 0)
        return -1;
    if (revision >= 2 || rules->game != BARBU_GAME_FIFE || !rules->later_joker)
        return 0;
    static const char LINE[] = "later-call-joker = no\n";
    size_t n = strlen(*house);
    bool newline = n == 0 || (*house)[n - 1] == '\n';
    char *more = malloc(n + 1 + sizeof LINE);
    if (more == NULL) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    snprintf(more, n + 1 + sizeof LINE, "%s%s%s", *house, newline ? "" : "\n", LINE);
    free(*house);
    *house = more;
    return proto_table_rules(preset, *house, rules, why, cap);
}

/* ---------------------------------------------------------------- seats */

void srv_bot_name(const char *level, int seat, char *buf, size_t cap)
{
    /* The seat makes four computer players' names (and sheets) tell apart. */
    snprintf(buf, cap, "%s bot %s", level, barbu_seat_name(seat));
}

int srv_seat_store(srv_table *t, int seat)
{
    const srv_seat *st = &t->seats[seat];
    store_seat ss = {
        .seat = seat,
        .name = st->name[0] ? st->name : NULL,
        .player = st->player[0] ? st->player : NULL,
        /* A person displaced by a computer player keeps the seat's token, so
         * that it takes the seat back after a restart too. */
        .token = st->person ? st->person->token : NULL,
        .bot = st->bot,
        .level = st->bot ? st->level : NULL,
    };
    store *db = t->srv->store;
    if (t->lost)
        return -1; /* another node's now: nothing is written */
    if (srv_node_check(t, db->ops->seat_put(db, t->id, &ss)) != 0) {
        srv_log(t->srv, "store: table %lld seat %s: %s", (long long)t->id, barbu_seat_name(seat),
                store_error(db));
        return -1;
    }
    srv_deal_players_seat(t, seat);
    return 0;
}

static uint64_t bot_seed(uint64_t seed, uint32_t at, int seat);
static int init_game(const srv_table *t, barbu_state *state, bool no_game);

/* The bot sees the view of `state` when `seat` is to move there. */
static void ai_see(barbu_bot *ai, const barbu_state *state, int seat)
{
    if (barbu_to_move(state) != seat)
        return;
    barbu_view view;
    barbu_view_of(state, seat, &view);
    barbu_bot_observe(ai, &view);
}

void srv_seat_views_feed(const srv_table *t, barbu_bot *bot, int seat)
{
    if (!t->started || t->no_game || t->n == 0)
        return;
    /* Only the tricks of the deal under way count (a bot's record starts
     * again with each deal), so only its views are shown: the game is
     * replayed from its start to reach them.  The engine replays a game of
     * a few thousand actions in well under a millisecond. */
    barbu_state *replay = malloc(sizeof *replay);
    if (replay == NULL || init_game(t, replay, false) != 0) {
        free(replay);
        return; /* it plays on without the deal's tricks */
    }
    uint16_t deal = t->state.t.deal;
    for (uint32_t i = 0; i < t->n; i++) {
        if (replay->t.deal == deal)
            ai_see(bot, replay, seat);
        if (barbu_apply(replay, &t->actions[i]) != 0)
            break;
    }
    free(replay);
}

int srv_seat_ai_make(srv_table *t, int seat)
{
    srv_seat *st = &t->seats[seat];
    srv_seat_ai_drop(t, seat);
    /* Its decisions are seeded each from the action's index (bot_seed,
     * think in bots.c); this seed is only the bot's first. */
    st->ai = barbu_bot_new(st->level, bot_seed(t->seed, 0, seat));
    if (st->ai == NULL)
        return -1;
    /* A computer player that comes in during a game (for a person who
     * left) is shown the deal under way at its seat's turns, as one rebuilt
     * after a restart is (restore.c), so that it knows what a player there
     * would. */
    srv_seat_views_feed(t, st->ai, seat);
    return 0;
}

void srv_seat_ai_drop(srv_table *t, int seat)
{
    barbu_bot_free(t->seats[seat].ai);
    t->seats[seat].ai = NULL;
}

int srv_seat_bot(srv_table *t, int seat, const char *level, bool took_over)
{
    srv_seat *st = &t->seats[seat];
    srv_seat saved = *st;
    st->bot = true;
    st->took_over = took_over;
    snprintf(st->level, sizeof st->level, "%s", level);
    srv_bot_name(level, seat, st->name, sizeof st->name);
    if (srv_seat_store(t, seat) != 0) {
        *st = saved;
        return -1;
    }
    /* Without memory for its bot, each of its jobs tries again. */
    srv_seat_ai_make(t, seat);
    srv_log(t->srv, "table %lld: a %s computer player sits %s", (long long)t->id, level,
            barbu_seat_name(seat));
    return 0;
}

/* The deal under way, for the seats kibitzers watched in it. */
static int watch_deal(srv_table *t)
{
    int deal = t->started ? (int)t->state.t.deal : 0;
    if (t->watch_deal != deal) {
        t->n_watches = 0;
        t->watch_deal = deal;
    }
    return t->watch_deal;
}

const srv_watch *srv_watches(srv_table *t, int *n)
{
    watch_deal(t);
    *n = t->n_watches;
    return t->watches;
}

void srv_watch_note(srv_table *t, const srv_session *s, int seat)
{
    if (!t->started || srv_table_over(t) || seat < 0)
        return;
    watch_deal(t);
    /* Once for each session (which watches one seat a deal): watching and
     * leaving again and again adds nothing to check. */
    for (int i = 0; i < t->n_watches; i++)
        if (t->watches[i].seat == seat && strcmp(t->watches[i].token, s->token) == 0)
            return;
    if (t->n_watches == t->cap_watches) {
        int cap = t->cap_watches ? t->cap_watches * 2 : 4;
        srv_watch *w = realloc(t->watches, (size_t)cap * sizeof *w);
        if (w == NULL)
            return; /* the check then misses this one; it costs no game */
        t->watches = w;
        t->cap_watches = cap;
    }
    srv_watch *w = &t->watches[t->n_watches++];
    snprintf(w->token, sizeof w->token, "%s", s->token);
    snprintf(w->addr, sizeof w->addr, "%s", s->place_addr);
    snprintf(w->device, sizeof w->device, "%s", s->device);
    w->seat = seat;
}

void srv_kibitz_remove(srv_table *t, srv_session *s)
{
    /* It has seen that seat's hand: remembered until the deal ends, so
     * that it cannot come back for another. */
    if (s->table == t)
        srv_watch_note(t, s, s->kibitz);
    for (int i = 0; i < t->n_kibitzers; i++) {
        if (t->kibitzers[i] == s) {
            memmove(&t->kibitzers[i], &t->kibitzers[i + 1],
                    (size_t)(t->n_kibitzers - i - 1) * sizeof t->kibitzers[0]);
            t->n_kibitzers--;
            break;
        }
    }
    if (s->table == t) {
        s->table = NULL;
        s->kibitz = -1;
        s->kibitz_next = -1;
    }
}

void srv_table_detach(srv_session *s)
{
    srv_table *t = s->table;
    if (t == NULL)
        return;
    if (s->kibitz >= 0) {
        srv_kibitz_remove(t, s);
        return;
    }
    if (s->seat >= 0) {
        srv_seat *st = &t->seats[s->seat];
        if (st->person == s) {
            st->person = NULL;
            if (!st->bot && !srv_table_over(t))
                st->name[0] = '\0';
            st->away_since = 0;
            st->grace_over = false;
        }
    }
    s->table = NULL;
    s->seat = -1;
    s->kibitz = -1;
}

/* ------------------------------------------------------------- the game */

/* The table's game as it starts, into *state. */
static int init_game(const srv_table *t, barbu_state *state, bool no_game)
{
    if (no_game)
        return barbu_init(state, &t->rules, 0);
    if (t->keyed)
        return barbu_init_keyed(state, &t->rules, t->key);
    return barbu_init(state, &t->rules, t->seed);
}

int srv_table_init_game(srv_table *t, bool no_game)
{
    return init_game(t, &t->state, no_game);
}

void srv_table_key_json(const srv_table *t, json_t *o)
{
    if (!t->keyed)
        return;
    uint8_t commitment[BARBU_KEY_BYTES];
    char hex[BARBU_KEY_HEX];
    barbu_key_commitment(t->key, commitment);
    barbu_key_format(commitment, hex);
    json_object_set_new(o, "commitment", json_string(hex));
    /* The key deals every hand still to come: only once the game is over. */
    if (srv_table_over(t)) {
        barbu_key_format(t->key, hex);
        json_object_set_new(o, "key", json_string(hex));
    }
}

bool srv_table_maybe_start(srv_table *t)
{
    if (t->started)
        return false;
    for (int k = 0; k < 4; k++)
        if (t->seats[k].person == NULL && !t->seats[k].bot)
            return false;
    int err = srv_table_init_game(t, false);
    if (err != 0) {
        srv_log(t->srv, "table %lld: the game cannot start: %s", (long long)t->id,
                barbu_strerror(err));
        return false;
    }
    /* The players of record and the state are stored before the game starts
     * in memory: a table the store still calls waiting would come back
     * without its game after a restart.  On failure the table keeps waiting
     * and the tick tries again. */
    store *db = t->srv->store;
    bool stored = true;
    for (int k = 0; k < 4 && stored; k++) {
        memcpy(t->seats[k].player, t->seats[k].name, sizeof t->seats[k].player);
        stored = srv_seat_store(t, k) == 0;
    }
    if (stored && srv_node_check(t, db->ops->table_set_state(db, t->id, STORE_PLAYING)) != 0) {
        srv_log(t->srv, "store: table %lld: %s", (long long)t->id, store_error(db));
        stored = false;
    }
    if (!stored) {
        for (int k = 0; k < 4; k++)
            t->seats[k].player[0] = '\0';
        return false;
    }
    t->started = true;
    srv_deal_players_deal(t);
    srv_club_begin(t);
    srv_log(t->srv, "table %lld: the game starts (%s, %s %s %s %s)", (long long)t->id, t->preset,
            t->seats[0].name, t->seats[1].name, t->seats[2].name, t->seats[3].name);
    return true;
}

static int reserve_actions(srv_table *t)
{
    if (t->n < t->cap)
        return 0;
    uint32_t cap = t->cap ? t->cap * 2 : 256;
    barbu_action *a = realloc(t->actions, cap * sizeof *a);
    if (a == NULL)
        return -1;
    t->actions = a;
    t->cap = cap;
    return 0;
}

static int push_result(srv_table *t, const barbu_result *r)
{
    if (t->n_results == t->cap_results) {
        int cap = t->cap_results ? t->cap_results * 2 : 32;
        barbu_result *p = realloc(t->results, (size_t)cap * sizeof *p);
        if (p == NULL)
            return -1;
        t->results = p;
        t->cap_results = cap;
    }
    t->results[t->n_results++] = *r;
    return 0;
}

int srv_table_commit(srv_table *t, const barbu_action *a)
{
    srv_server *srv = t->srv;
    if (t->lost || reserve_actions(t) != 0)
        return -1;
    char text[STORE_ACTION_TEXT];
    store_action_text(a, text);
    /* Fenced: another node took the table, and the action is neither
     * applied nor heard of (its sender hears moved as the table goes). */
    if (srv_node_check(t, srv->store->ops->action_append(srv->store, t->id, t->n, text)) != 0) {
        srv_log(srv, "store: table %lld action %u: %s", (long long)t->id, t->n,
                store_error(srv->store));
        return -1;
    }
    uint16_t deal = t->state.t.deal;
    int err = barbu_apply(&t->state, a);
    if (err != 0) {
        /* Checked just before: cannot happen.  The stored action would stop
         * the replay here after a restart. */
        srv_log(srv, "table %lld: the engine refused a checked action: %s", (long long)t->id,
                barbu_strerror(err));
        t->broken = true;
        return -1;
    }
    t->actions[t->n++] = *a;
    if (t->state.t.deal != deal)
        push_result(t, &t->state.t.last);
    bool over = barbu_over(&t->state);
    if (t->state.t.deal != deal && !over)
        srv_deal_players_deal(t);
    /* Whatever was saved, a person's move or the computer player's held
     * one, the store writes again. */
    if (t->store_failing) {
        t->store_failing = false;
        srv_log(srv, "table %lld: the store takes actions again", (long long)t->id);
        srv_broadcast_notice(t, "store_ok", "The move is saved: the game goes on.");
    }
    srv_clock_update(t);
    srv_broadcast_views(t, a, NULL);
    if (over) {
        srv_table_set_over(srv, t->id, t);
        srv_log(srv, "table %lld: the game is over after %u actions (%d %d %d %d)",
                (long long)t->id, t->n, t->state.t.total[0], t->state.t.total[1],
                t->state.t.total[2], t->state.t.total[3]);
        srv_broadcast_table(t, NULL);
    }
    if (over || t->state.t.deal != t->listed_deal)
        srv_lobby_listed(t);
    srv_table_schedule(t);
    return 0;
}

/* ------------------------------------------------------ computer players */

static uint64_t bot_seed(uint64_t seed, uint32_t at, int seat)
{
    barbu_rng rng;
    barbu_rng_seed(&rng,
                   seed ^ (((uint64_t)at << 2 | (uint64_t)seat) * UINT64_C(0x9e3779b97f4a7c15)));
    barbu_rng_next(&rng);
    return barbu_rng_next(&rng);
}

/* The seat of the computer player to act now, or -1. */
static int bot_to_move(const srv_table *t)
{
    if (!t->started || t->broken || t->lost || srv_table_over(t) || srv_table_paused(t))
        return -1;
    int seat = barbu_to_move(&t->state);
    return seat >= 0 && t->seats[seat].bot ? seat : -1;
}

bool srv_table_bots_only(const srv_table *t)
{
    for (int k = 0; k < 4; k++)
        if (!t->seats[k].bot)
            return false;
    return true;
}

/* The longest a computer player of this level thinks (internal.h). */
static int think_bound_ms(const char *level)
{
    if (strcmp(level, "medium") == 0)
        return SRV_THINK_MEDIUM_MS;
    if (strcmp(level, "hard") == 0)
        return SRV_THINK_HARD_MS;
    if (strcmp(level, "random") == 0)
        return 0;
    return SRV_THINK_EASY_MS;
}

static void submit_job(srv_table *t)
{
    int seat = bot_to_move(t);
    if (seat < 0 || t->job_out || t->held || t->srv->stopping || t->srv->bots == NULL)
        return;
    srv_job *job = calloc(1, sizeof *job);
    if (job == NULL)
        return;
    job->table = t->id;
    job->at = t->n;
    job->seat = seat;
    job->seed = bot_seed(t->seed, t->n, seat);
    job->people = !srv_table_bots_only(t);
    snprintf(job->kind, sizeof job->kind, "%s", t->seats[seat].level);
    /* The seat's own bot goes with the job (a fresh one when it could not
     * be made: think's fallback). */
    if (t->seats[seat].ai == NULL)
        srv_seat_ai_make(t, seat);
    job->bot = t->seats[seat].ai;
    t->seats[seat].ai = NULL;
    job->rules = t->rules;
    barbu_view_of(&t->state, seat, &job->view);
    job->view.rules = &job->rules;
    t->job_out = true;
    srv_bots_submit(t->srv->bots, job);
}

static void release_held(srv_table *t);

/* The computer player thinks from its turn's start (or from a new try
 * after it failed); its action is released at a time fixed now, whatever
 * the time it takes. */
static void start_turn(srv_table *t)
{
    int seat = bot_to_move(t);
    if (seat < 0)
        return;
    int bound = think_bound_ms(t->seats[seat].level);
    int wait = t->delay > bound ? t->delay : bound;
    t->release_at = lws_now_usecs() + (lws_usec_t)wait * LWS_US_PER_MS;
    submit_job(t);
}

/* A table's timer: a held action's time has come, or a computer player
 * that failed is asked again. */
static void timer_due(srv_table *t)
{
    if (t->held)
        release_held(t);
    else
        start_turn(t);
}

static void timers_fire(lws_sorted_usec_list_t *sul);

static void timers_arm(srv_server *srv)
{
    if (srv->timer_head == NULL || srv->stopping)
        return;
    /* Up to SRV_TIMER_SLACK late, so that one wakeup of the loop serves
     * every table due in that while. */
    lws_usec_t now = lws_now_usecs(), due = srv->timer_head->timer_due + SRV_TIMER_SLACK;
    lws_sul_schedule(srv->ctx, 0, &srv->timer_sul, timers_fire, due > now ? due - now : 1);
}

static void timer_unlink(srv_table *t)
{
    srv_server *srv = t->srv;
    if (t->timer_prev)
        t->timer_prev->timer_next = t->timer_next;
    else
        srv->timer_head = t->timer_next;
    if (t->timer_next)
        t->timer_next->timer_prev = t->timer_prev;
    else
        srv->timer_tail = t->timer_prev;
    t->timer_prev = t->timer_next = NULL;
    t->timer_on = false;
}

void srv_table_timer_cancel(srv_table *t)
{
    if (t->timer_on)
        timer_unlink(t); /* the lws timer may fire early: it finds nothing due */
}

void srv_timers_stop(srv_server *srv)
{
    srv_clocks_stop(srv);
    while (srv->timer_head)
        timer_unlink(srv->timer_head);
    lws_sul_cancel(&srv->timer_sul);
}

static void timers_fire(lws_sorted_usec_list_t *sul)
{
    srv_server *srv = lws_container_of(sul, srv_server, timer_sul);
    lws_usec_t now = lws_now_usecs();
    while (srv->timer_head && srv->timer_head->timer_due <= now) {
        srv_table *t = srv->timer_head;
        timer_unlink(t);
        timer_due(t);
    }
    timers_arm(srv);
}

/* Arms the table's timer for a time on lws_now_usecs's clock. */
static void schedule_at(srv_table *t, lws_usec_t due)
{
    srv_server *srv = t->srv;
    srv_table_timer_cancel(t);
    t->timer_on = true;
    t->timer_due = due;
    /* From the end: it is the latest or nearly. */
    srv_table *after = srv->timer_tail;
    while (after && after->timer_due > t->timer_due)
        after = after->timer_prev;
    t->timer_prev = after;
    t->timer_next = after ? after->timer_next : srv->timer_head;
    if (t->timer_next)
        t->timer_next->timer_prev = t;
    else
        srv->timer_tail = t;
    if (after)
        after->timer_next = t;
    else {
        srv->timer_head = t;
        timers_arm(srv);
    }
}

static void schedule_after(srv_table *t, int ms)
{
    schedule_at(t, lws_now_usecs() + (lws_usec_t)ms * LWS_US_PER_MS);
}

void srv_table_schedule(srv_table *t)
{
    srv_clock_check(t);
    if (t->job_out || t->timer_on || t->held || t->srv->stopping || bot_to_move(t) < 0)
        return;
    start_turn(t);
}

static void drop_held(srv_table *t)
{
    srv_job_free(t->held);
    t->held = NULL;
}

/* The job's bot goes back to its seat, or is freed when the seat has no
 * computer player of its kind any more, or has a newer bot (a person took
 * the seat and left it again meanwhile). */
static void give_back(srv_table *t, srv_job *job)
{
    srv_seat *st = &t->seats[job->seat];
    if (st->bot && st->ai == NULL && strcmp(barbu_bot_kind(job->bot), st->level) == 0)
        st->ai = job->bot;
    else
        barbu_bot_free(job->bot);
    job->bot = NULL;
}

/* What the people at a table hear while its next action cannot be saved. */
static const char STORE_FAILED_TEXT[] =
    "The server could not save the last move (its disk may be full), so the game is held: it "
    "tries again every few seconds, and the game goes on as soon as the move is saved.";

/* Commits the held action, if it still is the game's next one; when the
 * store refuses it, the people at the table hear so and it is tried again
 * until the store takes it. */
static void release_held(srv_table *t)
{
    srv_job *job = t->held;
    if (job->at != t->n || bot_to_move(t) != job->seat) {
        /* The table changed meanwhile (a seat was emptied or taken). */
        drop_held(t);
        srv_table_schedule(t);
        return;
    }
    barbu_action a = job->action;
    a.seat = (int8_t)job->seat;
    t->held = NULL;
    if (srv_table_commit(t, &a) != 0) {
        t->held = job;
        if (t->broken || t->lost)
            return;
        if (!t->store_failing) {
            t->store_failing = true;
            srv_log(t->srv,
                    "table %lld: the store refused a computer player's action; trying "
                    "again every %d ms",
                    (long long)t->id, SRV_STORE_RETRY_MS);
            srv_broadcast_notice(t, "store_failed", STORE_FAILED_TEXT);
        }
        schedule_after(t, SRV_STORE_RETRY_MS);
        return;
    }
    free(job);
}

void srv_bots_drain(srv_server *srv)
{
    if (srv->bots == NULL)
        return;
    srv_job *job;
    while ((job = srv_bots_done(srv->bots)) != NULL) {
        srv_table *t = srv_table_find(srv, job->table);
        if (t == NULL || srv->stopping) {
            srv_job_free(job); /* with its bot: the table went */
            continue;
        }
        /* A hint's bot is the hint's own (hint.c): freed with its job. */
        if (job->bot != NULL && !job->hint)
            give_back(t, job);
        if (job->hint) {
            srv_hint_answer(t, job);
            continue;
        }
        if (job->clock) {
            srv_clock_answer(t, job);
            continue;
        }
        t->job_out = false;
        bool fresh = job->at == t->n && bot_to_move(t) == job->seat && t->held == NULL;
        if (fresh && job->err != 0) {
            /* Not in a tight loop: try again in a while. */
            srv_log(srv, "table %lld: the computer player at %s failed: %s", (long long)t->id,
                    barbu_seat_name(job->seat), barbu_strerror(job->err));
            free(job);
            if (!t->timer_on)
                schedule_after(t, 5000);
            continue;
        } else if (fresh) {
            barbu_action a = job->action;
            a.seat = (int8_t)job->seat;
            int err = barbu_check(&t->state, &a);
            if (err != 0) {
                srv_log(srv, "table %lld: the computer player at %s chose an illegal action: %s",
                        (long long)t->id, barbu_seat_name(job->seat), barbu_strerror(err));
                free(job);
                if (!t->timer_on)
                    schedule_after(t, 5000);
                continue;
            }
            /* Held until its time, or released now when the think ran over
             * (an overloaded machine). */
            t->held = job;
            srv_table_timer_cancel(t);
            if (lws_now_usecs() >= t->release_at)
                release_held(t);
            else
                schedule_at(t, t->release_at);
            continue;
        }
        free(job);
        srv_table_schedule(t);
    }
}

/* ------------------------------------------------------------- messages */

static json_t *seat_json(const srv_table *t, int k, int64_t now)
{
    const srv_seat *st = &t->seats[k];
    json_t *o = json_pack("{s:s}", "seat", barbu_seat_name(k));
    if (o == NULL)
        return NULL;
    if (st->name[0] && (st->bot || st->person || srv_table_over(t)))
        json_object_set_new(o, "name", json_string(st->name));
    if (st->player[0])
        json_object_set_new(o, "player", json_string(st->player));
    json_object_set_new(o, "bot", json_boolean(st->bot));
    json_object_set_new(o, "connected", json_boolean(srv_seat_present(st)));
    if (!st->bot && st->away_since != 0 && !srv_table_over(t))
        json_object_set_new(o, "away", json_integer(now - st->away_since));
    json_object_set_new(o, "free", json_boolean(srv_seat_free(t, k)));
    /* A registered player sits there (guests and computer players: absent). */
    if (!st->bot && st->person && st->person->registered && st->name[0])
        json_object_set_new(o, "registered", json_true());
    /* The creator of a table with a chosen seed can know every hand. */
    const char *who = st->player[0] ? st->player : st->name;
    if (t->seed_chosen && !st->bot && who[0] && strcmp(who, t->creator_name) == 0)
        json_object_set_new(o, "knows_deals", json_true());
    return o;
}

json_t *srv_table_json(const srv_table *t, const srv_session *you)
{
    int64_t now = srv_now();
    json_t *m =
        json_pack("{s:s, s:I, s:s}", "type", "table", "id", (json_int_t)t->id, "rules", t->preset);
    if (m == NULL)
        return NULL;
    if (t->house[0])
        json_object_set_new(m, "house", json_string(t->house));
    json_object_set_new(m, "kibitz", json_string(KIBITZ_NAMES[t->kibitz]));
    json_object_set_new(m, "grace", json_integer(t->grace));
    json_object_set_new(m, "takeover", json_string(TAKEOVER_NAMES[t->takeover]));
    json_object_set_new(m, "delay", json_integer(t->delay));
    json_object_set_new(m, "level", json_string(t->level));
    if (t->household)
        json_object_set_new(m, "household", json_true());
    if (t->kibitz_chat)
        json_object_set_new(m, "kibitz_chat", json_true());
    if (t->seed_chosen)
        json_object_set_new(m, "seed_chosen_by", json_string(t->creator_name));
    if (t->clock > 0)
        json_object_set_new(m, "clock", json_integer(t->clock));
    if (t->ladder)
        json_object_set_new(m, "ladder", json_true());
    if (t->rated)
        json_object_set_new(m, "rated", json_true());
    if (t->hints)
        json_object_set_new(m, "hints", json_true());
    json_object_set_new(m, "credit",
                        json_string(t->credit == PROTO_CREDIT_DEALS ? "deals" : "record"));
    json_object_set_new(m, "state", json_string(srv_table_state_name(t)));
    if (t->broken)
        json_object_set_new(m, "broken", json_true());
    json_object_set_new(m, "at", json_integer(t->n));
    json_t *seats = json_array();
    for (int k = 0; k < 4; k++)
        json_array_append_new(seats, seat_json(t, k, now));
    json_object_set_new(m, "seats", seats);
    json_t *kib = json_array();
    for (int i = 0; i < t->n_kibitzers; i++)
        json_array_append_new(kib, json_string(t->kibitzers[i]->name));
    json_object_set_new(m, "kibitzers", kib);
    json_t *rule_set = t->no_game ? NULL : proto_rules_json(&t->rules);
    if (rule_set != NULL) {
        char url[48];
        snprintf(url, sizeof url, "/rules/table/%lld", (long long)t->id);
        json_object_set_new(rule_set, "rules_url", json_string(url));
        json_object_set_new(m, "rule_set", rule_set);
    }
    if (t->again_id)
        json_object_set_new(
            m, "again",
            json_pack("{s:I, s:s}", "table", (json_int_t)t->again_id, "by", t->again_by));
    json_t *kept = srv_reserved_json(t);
    if (kept)
        json_object_set_new(m, "reserved", kept);
    if (srv_table_over(t) && !t->keyed) {
        char seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)t->seed);
        json_object_set_new(m, "seed", json_string(seed));
    }
    srv_table_key_json(t, m);
    if (you && you->table == t) {
        if (you->seat >= 0)
            json_object_set_new(m, "you", json_pack("{s:s}", "seat", barbu_seat_name(you->seat)));
        else if (you->kibitz >= 0 && you->kibitz_next >= 0)
            json_object_set_new(m, "you",
                                json_pack("{s:s, s:s}", "kibitz", proto_seat_name(you->kibitz),
                                          "next", proto_seat_name(you->kibitz_next)));
        else if (you->kibitz >= 0)
            json_object_set_new(m, "you",
                                json_pack("{s:s}", "kibitz", proto_seat_name(you->kibitz)));
    }
    return m;
}

void srv_send_table(srv_table *t, srv_session *to)
{
    if (to && to->conn)
        srv_send(to->conn, srv_table_json(t, to));
}

void srv_broadcast_table(srv_table *t, const srv_session *except)
{
    for (int k = 0; k < 4; k++) {
        srv_session *s = t->seats[k].person;
        if (s && s != except && s->table == t && s->seat == k)
            srv_send_table(t, s);
    }
    /* Backwards: a kibitzer cut for not reading leaves the list meanwhile. */
    for (int i = t->n_kibitzers - 1; i >= 0; i--)
        if (i < t->n_kibitzers && t->kibitzers[i] != except)
            srv_send_table(t, t->kibitzers[i]);
    /* A seat emptied or filled again stops or starts the move clock:
     * everybody's view says so. */
    srv_clock_check(t);
}

static char *notice_text(const srv_table *t, const char *code, const char *text, size_t *len)
{
    json_t *m = json_pack("{s:s, s:I, s:s, s:s}", "type", "notice", "table", (json_int_t)t->id,
                          "code", code, "text", text);
    char *dumped = m ? proto_dump(m, len) : NULL;
    json_decref(m);
    return dumped;
}

void srv_broadcast_notice(srv_table *t, const char *code, const char *text)
{
    size_t len = 0;
    char *dumped = notice_text(t, code, text, &len);
    if (dumped == NULL)
        return;
    srv_table_send_text(t, dumped, len, true);
    free(dumped);
}

void srv_table_send_text(srv_table *t, const char *text, size_t len, bool players)
{
    for (int k = 0; k < 4 && players; k++) {
        srv_session *s = t->seats[k].person;
        if (s && s->conn && s->table == t && s->seat == k)
            srv_send_text(s->conn, text, len);
    }
    /* Backwards: a kibitzer cut for not reading leaves the list meanwhile. */
    for (int i = t->n_kibitzers - 1; i >= 0; i--)
        if (i < t->n_kibitzers && t->kibitzers[i]->conn)
            srv_send_text(t->kibitzers[i]->conn, text, len);
}

/* The view seat of a session at its table, or -1. */
static int viewpoint(const srv_table *t, const srv_session *s)
{
    if (s->seat >= 0)
        return t->seats[s->seat].person == s && !t->seats[s->seat].bot ? s->seat : -1;
    if (s->kibitz == PROTO_SEAT_ALL)
        return t->kibitz == PROTO_KIBITZ_ALL ? BARBU_ALL_SEATS : -1;
    return s->kibitz;
}

static json_t *view_message(srv_table *t, int seat, const barbu_action *last, bool with_legal)
{
    barbu_view *v = malloc(sizeof *v);
    if (v == NULL)
        return NULL;
    barbu_view_of(&t->state, seat, v);
    json_t *m =
        json_pack("{s:s, s:I, s:i}", "type", "view", "table", (json_int_t)t->id, "at", (int)t->n);
    if (m) {
        if (last)
            json_object_set_new(
                m, "last",
                proto_action_json(&t->rules, last, seat == last->seat || seat == BARBU_ALL_SEATS));
        json_object_set_new(m, "view", proto_view_json(v));
        json_t *clock = srv_clock_json(t);
        if (clock)
            json_object_set_new(m, "clock", clock);
        if (with_legal) {
            json_t *legal = proto_legal_json(v);
            if (legal)
                json_object_set_new(m, "legal", legal);
        }
    }
    free(v);
    return m;
}

void srv_send_view(srv_table *t, srv_session *to)
{
    if (!t->started || t->no_game || to == NULL || to->conn == NULL || to->table != t)
        return;
    /* Somebody back at a paused table may start the move clock: the
     * others' views say so too. */
    if (srv_clock_update(t))
        srv_broadcast_views(t, NULL, to);
    int seat = viewpoint(t, to);
    if (seat < 0)
        return;
    srv_send(to->conn, view_message(t, seat, NULL, to->seat >= 0));
    /* Somebody who arrives (or comes back) while the game is held hears
     * why. */
    if (t->store_failing) {
        size_t len = 0;
        char *text = notice_text(t, "store_failed", STORE_FAILED_TEXT, &len);
        if (text)
            srv_send_text(to->conn, text, len);
        free(text);
    }
}

/* One text per viewpoint (a seat or all; with or without legal), made when
 * first needed. */
typedef struct view_cache {
    char *text[5][2];
    size_t len[5][2];
} view_cache;

static void send_cached(srv_table *t, view_cache *vc, srv_session *s, const barbu_action *last)
{
    if (s->conn == NULL)
        return;
    int seat = viewpoint(t, s);
    if (seat < 0)
        return;
    int legal = s->seat >= 0;
    if (vc->text[seat][legal] == NULL) {
        json_t *m = view_message(t, seat, last, legal);
        if (m == NULL)
            return;
        vc->text[seat][legal] = proto_dump(m, &vc->len[seat][legal]);
        json_decref(m);
        if (vc->text[seat][legal] == NULL)
            return;
    }
    srv_send_text(s->conn, vc->text[seat][legal], vc->len[seat][legal]);
}

/* A new deal: kibitzers who asked for another seat watch it now, and hear
 * so before their first view of the deal. */
static void kibitzers_turn(srv_table *t)
{
    int deal = (int)t->state.t.deal;
    if (t->kibitz_deal == deal)
        return;
    t->kibitz_deal = deal;
    for (int i = t->n_kibitzers - 1; i >= 0; i--) {
        if (i >= t->n_kibitzers)
            continue;
        srv_session *k = t->kibitzers[i];
        if (k->kibitz_next < 0)
            continue;
        k->kibitz = k->kibitz_next;
        k->kibitz_next = -1;
        srv_send_table(t, k);
    }
}

void srv_broadcast_views(srv_table *t, const barbu_action *last, const srv_session *except)
{
    if (!t->started || t->no_game)
        return;
    srv_clock_update(t);
    kibitzers_turn(t);
    view_cache vc = {0};
    for (int k = 0; k < 4; k++) {
        srv_session *s = t->seats[k].person;
        if (s && s != except && s->table == t && s->seat == k)
            send_cached(t, &vc, s, last);
    }
    for (int i = t->n_kibitzers - 1; i >= 0; i--)
        if (i < t->n_kibitzers && t->kibitzers[i] != except)
            send_cached(t, &vc, t->kibitzers[i], last);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 2; j++)
            free(vc.text[i][j]);
}

/* ----------------------------------------------------------------- tick */

static bool anyone_connected(const srv_table *t)
{
    for (int k = 0; k < 4; k++) {
        const srv_seat *st = &t->seats[k];
        if (st->person && st->person->conn && st->person->table == t)
            return true;
    }
    for (int i = 0; i < t->n_kibitzers; i++)
        if (t->kibitzers[i]->conn)
            return true;
    return false;
}

static bool anyone_seated(const srv_table *t)
{
    for (int k = 0; k < 4; k++)
        if (t->seats[k].person)
            return true;
    return t->n_kibitzers > 0;
}

static void grace_tick(srv_table *t, int64_t now)
{
    bool changed = false;
    for (int k = 0; k < 4; k++) {
        srv_seat *st = &t->seats[k];
        if (st->bot || st->grace_over || st->away_since == 0)
            continue;
        if (st->person && st->person->conn)
            continue;
        if (now - st->away_since < t->grace)
            continue;
        st->grace_over = true;
        changed = true;
        srv_log(t->srv, "table %lld: the grace period of seat %s is over", (long long)t->id,
                barbu_seat_name(k));
        /* A takeover the store refused is tried again at the next tick. */
        if (t->takeover == PROTO_TAKEOVER_BOT && srv_seat_bot(t, k, t->level, true) != 0)
            st->grace_over = false;
    }
    if (changed) {
        srv_broadcast_table(t, NULL);
        srv_lobby_listed(t);
        srv_table_schedule(t);
    }
}

void srv_tables_tick(srv_server *srv)
{
    int64_t now = srv_now();
    srv_table *next;
    for (srv_table *t = srv->tables; t; t = next) {
        next = t->next;
        srv_club_retry(t, now);
        if (t->started && !srv_table_over(t)) {
            grace_tick(t, now);
            srv_clock_check(t);
            /* A game that nobody, player or kibitzer, has come back to for
             * a day is abandoned: it leaves memory and is not loaded again,
             * and its record stays in the store. */
            if (anyone_connected(t)) {
                t->empty_since = 0;
            } else if (t->empty_since == 0) {
                t->empty_since = now;
            } else if (now - t->empty_since >= SRV_GAME_ABANDON) {
                if (srv_table_set_over(srv, t->id, t) != 0)
                    continue;
                srv_log(srv, "table %lld: abandoned mid-game, closed", (long long)t->id);
                srv_table_close(t);
            }
            continue;
        }
        if (!t->started)
            srv_reservations_tick(t, now);
        if (!t->started && srv_table_maybe_start(t)) {
            /* Its start was refused by the store at the last change. */
            srv_broadcast_table(t, NULL);
            srv_broadcast_views(t, NULL, NULL);
            srv_lobby_listed(t);
            srv_table_schedule(t);
            continue;
        }
        /* A finished table nobody looks at, or a table nobody waits at,
         * leaves memory after a while. */
        bool idle = srv_table_over(t) ? !anyone_connected(t) : !anyone_seated(t);
        if (!idle || t->club_pending) {
            t->empty_since = 0;
            continue;
        }
        if (t->empty_since == 0) {
            t->empty_since = now;
            continue;
        }
        /* A waiting table nobody sits at holds a place of the server's
         * tables for nothing: it goes sooner than a finished one. */
        if (now - t->empty_since < (t->started ? SRV_TABLE_IDLE : srv->waiting_idle))
            continue;
        if (!t->started) {
            /* Abandoned before its game: it will not be loaded again. */
            srv_table_set_over(srv, t->id, t);
        }
        srv_table_close(t);
    }
}
