/*
 * command.c - what a session does with tables: create, sit, kibitz, leave,
 * bot and act.  Each command checks everything first and answers an error
 * that changes nothing, or writes to the store and then changes memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sodium.h>

#include "internal.h"

static bool level_ok(const char *level)
{
    barbu_bot *b = barbu_bot_new(level, 0);
    barbu_bot_free(b);
    return b != NULL;
}

static uint64_t fresh_seed(void)
{
    uint64_t seed = 0;
    if (srv_random(&seed, sizeof seed) != 0)
        abort();
    return seed;
}

/*
 * Kibitzing and the people at a table.  Two sessions are "at one place"
 * when they share the client address they said hello from, or the device
 * id a browser keeps in its stored state (so two tabs, two handles, one
 * browser).  Unless the table's creator allowed it (household), nobody at
 * the place of one of the table's players watches its hands.  It cannot
 * catch a second browser, a private window or a phone on another network:
 * the server sees only addresses and what the client sends.
 */
static bool at_one_place(const char *addr_a, const char *dev_a, const char *addr_b,
                         const char *dev_b)
{
    return (addr_a[0] && strcmp(addr_a, addr_b) == 0) || (dev_a[0] && strcmp(dev_a, dev_b) == 0);
}

/* The player of t at s's place, or NULL: a player away, or whose seat a
 * computer player keeps, counts too, since it may take the seat back. */
static const srv_session *player_at_place(const srv_table *t, const srv_session *s)
{
    if (t->household)
        return NULL;
    for (int k = 0; k < 4; k++) {
        const srv_session *p = t->seats[k].person;
        if (p && p != s && at_one_place(p->place_addr, p->device, s->place_addr, s->device))
            return p;
    }
    return NULL;
}

/* Whether s (or anyone at its place, unless household) has watched
 * another seat than `seat` in the deal under way; the seat (PROTO_SEAT_ALL
 * for every hand), or -1.  Kibitzing asks only at a "seat" table (at an
 * "all" one every hand is there to see anyway); sitting asks at any. */
static int watched_other(srv_table *t, const srv_session *s, int seat, bool any_policy)
{
    if (!t->started || srv_table_over(t) || (!any_policy && t->kibitz != PROTO_KIBITZ_SEAT))
        return -1;
    for (int i = 0; i < t->n_kibitzers; i++) {
        const srv_session *k = t->kibitzers[i];
        bool same = k == s || (!t->household &&
                               at_one_place(k->place_addr, k->device, s->place_addr, s->device));
        if (same && k->kibitz != seat && k->kibitz >= 0)
            return k->kibitz;
    }
    int n;
    const srv_watch *w = srv_watches(t, &n);
    for (int i = 0; i < n; i++) {
        bool same =
            strcmp(w[i].token, s->token) == 0 ||
            (!t->household && at_one_place(w[i].addr, w[i].device, s->place_addr, s->device));
        if (same && w[i].seat != seat)
            return w[i].seat;
    }
    return -1;
}

void srv_kibitzers_send_away(srv_table *t, const srv_session *player)
{
    if (t->household)
        return;
    for (int i = t->n_kibitzers - 1; i >= 0; i--) {
        if (i >= t->n_kibitzers)
            continue;
        srv_session *k = t->kibitzers[i];
        if (!at_one_place(k->place_addr, k->device, player->place_addr, player->device))
            continue;
        srv_kibitz_remove(t, k);
        srv_log(t->srv, "table %lld: %s stops kibitzing: %s plays there from the same place",
                (long long)t->id, k->name, player->name);
        /* The error may cut a client that does not read: the lobby then
         * goes to a closing connection, which drops it. */
        srv_conn *kc = k->conn;
        if (kc) {
            srv_error(kc, NULL, "kibitz_refused",
                      "You no longer watch table %lld: %s, who plays there, connects from your "
                      "address or browser, and this table does not let a player's household watch "
                      "its hands. Watch another table, or ask its creator for a table that allows "
                      "it next time.",
                      (long long)t->id, player->name);
            srv_send_lobby(kc, NULL);
        }
    }
}

int srv_seat_person(srv_table *t, int seat, srv_session *s)
{
    srv_seat *st = &t->seats[seat];
    srv_seat saved = *st;
    srv_session *displaced = st->person != s ? st->person : NULL;
    st->person = s;
    st->bot = false;
    st->took_over = false;
    snprintf(st->name, sizeof st->name, "%s", s->name);
    st->away_since = 0;
    st->grace_over = false;
    if (srv_seat_store(t, seat) != 0) {
        *st = saved;
        return -1;
    }
    srv_seat_ai_drop(t, seat);
    if (displaced && displaced->table == t) {
        /* The player the seat was held for loses it to a substitute, and
         * has seen its hand of this deal. */
        srv_watch_note(t, displaced, seat);
        displaced->table = NULL;
        displaced->seat = -1;
        displaced->idle_since = srv_now();
    }
    if (s->table == t && s->kibitz >= 0)
        srv_kibitz_remove(t, s);
    s->table = t;
    s->seat = seat;
    s->kibitz = s->kibitz_next = -1;
    s->moved_from = 0; /* at a table again: its old one's move is past */
    t->empty_since = 0;
    srv_kibitzers_send_away(t, s);
    if (t->started)
        srv_log(t->srv, "table %lld: %s sits %s%s", (long long)t->id, s->name,
                barbu_seat_name(seat), strcmp(st->player, s->name) ? " as a substitute" : "");
    else
        srv_log(t->srv, "table %lld: %s sits %s", (long long)t->id, s->name, barbu_seat_name(seat));
    return 0;
}

/* After seats changed: the game may start; the seated newcomer gets the
 * table and its view, everybody else the table (and views when the game
 * has just started). */
void srv_seats_changed(srv_table *t, srv_session *newcomer)
{
    bool started = srv_table_maybe_start(t);
    if (newcomer) {
        srv_send_table(t, newcomer);
        srv_send_view(t, newcomer);
    }
    srv_broadcast_table(t, newcomer);
    if (started)
        srv_broadcast_views(t, NULL, newcomer);
    srv_lobby_listed(t);
    srv_table_schedule(t);
}

/* Seconds before an address may create another table: none while the
 * server is at most half full, then an interval that grows with the
 * tables held, to create_interval when full, so that the last tables go
 * to many people rather than to one who asks fast. */
static int create_wait(const srv_server *srv, const srv_addr *a)
{
    int half = srv->max_tables / 2;
    if (a == NULL || srv->create_interval <= 0 || srv->n_tables < half || a->last_create == 0)
        return 0;
    long span = srv->max_tables - half > 0 ? srv->max_tables - half : 1;
    long interval = 1 + (long)srv->create_interval * (srv->n_tables - half) / span;
    long wait = a->last_create + interval - srv_now();
    return wait > 0 ? (int)wait : 0;
}

bool srv_table_counts_for(const srv_table *t, const char *token)
{
    return !srv_table_over(t) && !t->handed_over && strcmp(t->creator, token) == 0;
}

bool srv_create_allowed(srv_conn *c, const proto_msg *msg, bool bots_only)
{
    srv_server *srv = c->srv;
    srv_session *s = c->session;
    if (srv->n_tables >= srv->max_tables) {
        srv_error(c, msg, "limit",
                  "The server holds %d tables, its most: sit at a table that is waiting for "
                  "players, or try again in a few minutes.",
                  srv->max_tables);
        return false;
    }
    /* One client, or one machine, may not fill the server with tables
     * nobody plays. */
    int mine = 0, from_addr = 0;
    for (srv_table *t = srv->tables; t; t = t->next) {
        if (srv_table_over(t))
            continue;
        mine += srv_table_counts_for(t, s->token);
        from_addr += c->addr[0] && strcmp(t->creator_addr, c->addr) == 0;
    }
    if (mine >= SRV_CREATED_MAX) {
        srv_error(c, msg, "limit",
                  "You have created %d tables whose games are not over, your most: play at one "
                  "of them, close one that still waits for players, or leave one and hand it to "
                  "the computer players.",
                  mine);
        return false;
    }
    if (from_addr >= srv->tables_per_addr) {
        srv_error(c, msg, "limit",
                  "Your address has created %d tables whose games are not over, its most: sit "
                  "at a table that is waiting for players, or create one when a game is over.",
                  from_addr);
        return false;
    }
    srv_addr *a = srv_addr_get(srv, c->addr);
    int wait = create_wait(srv, a);
    if (wait > 0) {
        srv_error(c, msg, "limit",
                  "The server is nearly full (%d of %d tables): your address may create its next "
                  "table in %d seconds; meanwhile sit at a table that is waiting for players.",
                  srv->n_tables, srv->max_tables, wait);
        return false;
    }
    /* Tables of computer players only cost the workers much and wait for
     * nobody: a few a session, and a few on the server. */
    if (bots_only) {
        int alone = 0, mine_alone = 0;
        for (srv_table *t = srv->tables; t; t = t->next) {
            if (srv_table_over(t) || !srv_table_bots_only(t))
                continue;
            alone++;
            if (strcmp(t->creator, s->token) == 0)
                mine_alone++;
        }
        if (srv->max_bot_tables == 0) {
            srv_error(c, msg, "limit",
                      "This server allows no tables of computer players only: sit at a table "
                      "with people, or leave a seat free for one.");
            return false;
        }
        if (mine_alone >= SRV_BOT_TABLES_SESSION) {
            srv_error(c, msg, "limit",
                      "You already have a table of computer players only whose game is not "
                      "over: watch it, or sit at a table with people.");
            return false;
        }
        if (alone >= srv->max_bot_tables) {
            srv_error(c, msg, "limit",
                      "The server holds %d tables of computer players only, its most: try "
                      "again once one is over, or sit at a table with people.",
                      alone);
            return false;
        }
    }
    return true;
}

srv_table *srv_table_make(srv_conn *c, const proto_msg *msg, bool *sat)
{
    srv_server *srv = c->srv;
    srv_session *s = c->session;
    srv_addr *a = srv_addr_get(srv, c->addr);
    barbu_rules rules;
    char why[240];
    if (proto_table_rules(msg->rules, msg->house, &rules, why, sizeof why) != 0) {
        srv_error(c, msg, "bad_rules",
                  "The house rules are refused (%s): correct them and create the table again.",
                  why);
        return NULL;
    }
    const char *level = msg->level[0] ? msg->level : SRV_DEFAULT_LEVEL;
    if (!level_ok(level)) {
        srv_error(c, msg, "bad_value",
                  "There is no computer player of level '%s': choose easy, medium, hard or "
                  "random.",
                  level);
        return NULL;
    }
    if (msg->sit >= 0 && (msg->bots >> msg->sit & 1)) {
        srv_error(c, msg, "bad_seat",
                  "Seat %s cannot be both yours and a computer player's: sit at another seat, "
                  "or leave %s out of the computer players' seats.",
                  barbu_seat_name(msg->sit), barbu_seat_name(msg->sit));
        return NULL;
    }

    /* A table not yet in the store, to make its options' text. */
    srv_table proto_t;
    memset(&proto_t, 0, sizeof proto_t);
    proto_t.kibitz = msg->kibitz;
    proto_t.grace = msg->grace;
    proto_t.takeover = msg->takeover;
    proto_t.delay = msg->delay;
    proto_t.revision = SRV_RULES_REVISION;
    proto_t.household = msg->household;
    proto_t.kibitz_chat = msg->kibitz_chat;
    proto_t.clock = msg->clock;
    proto_t.seed_chosen = msg->has_seed;
    proto_t.ladder = msg->ladder;
    proto_t.rated = msg->rated;
    proto_t.credit = msg->credit;
    proto_t.hints = msg->hints;
    snprintf(proto_t.creator_name, sizeof proto_t.creator_name, "%s", s->name);
    snprintf(proto_t.level, sizeof proto_t.level, "%s", level);
    char *options = srv_options_text(&proto_t);
    char *house = strdup(msg->house);
    if (options == NULL || house == NULL) {
        free(options);
        free(house);
        srv_error(c, msg, "server", "The server is out of memory: try again in a moment.");
        return NULL;
    }
    store_table st = {
        .preset = msg->rules,
        .house = msg->house,
        .seed = msg->has_seed ? msg->seed : fresh_seed(),
        .options = options,
        .state = STORE_WAITING,
        .created = srv_wall(),
    };
    /* Without a chosen seed the deals come from a fresh key; the seed drawn
     * above is then the computer players' alone, unrelated to the key. */
    if (!msg->has_seed) {
        st.keyed = true;
        randombytes_buf(st.key, sizeof st.key);
    }
    int64_t id = 0;
    if (srv->store->ops->table_create(srv->store, &st, &id) != 0) {
        srv_log(srv, "store: %s", store_error(srv->store));
        free(options);
        free(house);
        srv_error(c, msg, "server",
                  "The table could not be saved (the server's disk may be full): try again in "
                  "a moment.");
        return NULL;
    }
    free(options);
    srv_table *t = srv_table_new(srv, id);
    if (t == NULL) {
        free(house);
        srv_table_set_over(srv, id, NULL);
        /* A node took the new table's lease with it: given up at once,
         * rather than renewed for a table nobody plays. */
        srv_node_left(srv, id, false);
        srv_error(c, msg, "server", "The server is out of memory: try again in a moment.");
        return NULL;
    }
    snprintf(t->preset, sizeof t->preset, "%s", msg->rules);
    /* A node's new table is its own under the first epoch (store.h). */
    t->epoch = srv->node ? 1 : 0;
    t->house = house;
    t->seed = st.seed;
    t->keyed = st.keyed;
    memcpy(t->key, st.key, sizeof t->key);
    sodium_memzero(st.key, sizeof st.key);
    t->created = st.created;
    snprintf(t->creator, sizeof t->creator, "%s", s->token);
    memcpy(t->creator_addr, c->addr, sizeof t->creator_addr);
    if (a)
        a->last_create = srv_now();
    t->rules = rules;
    t->kibitz = proto_t.kibitz;
    t->grace = proto_t.grace;
    t->takeover = proto_t.takeover;
    t->delay = proto_t.delay;
    t->household = proto_t.household;
    t->kibitz_chat = proto_t.kibitz_chat;
    t->clock = proto_t.clock;
    t->seed_chosen = proto_t.seed_chosen;
    t->ladder = proto_t.ladder;
    t->rated = proto_t.rated;
    t->credit = proto_t.credit;
    t->hints = proto_t.hints;
    snprintf(t->creator_name, sizeof t->creator_name, "%s", s->name);
    snprintf(t->level, sizeof t->level, "%s", level);

    for (int k = 0; k < 4; k++) {
        if ((msg->bots >> k & 1) && srv_seat_bot(t, k, level, false) != 0) {
            srv_table_set_over(srv, id, t);
            srv_table_free(t);
            srv_error(c, msg, "server",
                      "The table could not be saved (the server's disk may be full): try again in "
                      "a moment.");
            return NULL;
        }
    }
    *sat = msg->sit >= 0 && srv_seat_person(t, msg->sit, s) == 0;
    srv_log(srv, "table %lld created by %s (%s%s)", (long long)id, s->name, t->preset,
            t->house[0] ? " with house rules" : "");
    return t;
}

void srv_cmd_create(srv_conn *c, const proto_msg *msg)
{
    srv_session *s = c->session;
    if (s->table) {
        srv_error(c, msg, "busy", "You are at table %lld: leave it first, then try again.",
                  (long long)s->table->id);
        return;
    }
    /* Hints with a ladder or rated table is refused first, whoever asks:
     * the two never go together. */
    if (!srv_hint_create_ok(c, msg) || !srv_ladder_create_ok(c, msg) ||
        !srv_club_create_ok(c, msg) || !srv_create_allowed(c, msg, msg->bots == 0xF))
        return;
    bool sat = false;
    srv_table *t = srv_table_make(c, msg, &sat);
    if (t == NULL)
        return;
    srv_send(c, srv_with_id(json_pack("{s:s, s:I}", "type", "created", "table", (json_int_t)t->id),
                            msg));
    if (msg->sit >= 0 && !sat)
        srv_error(c, msg, "server",
                  "The table is made but your seat could not be saved: sit at it again.");
    srv_seats_changed(t, sat ? s : NULL);
}

srv_table *srv_table_of(srv_conn *c, const proto_msg *msg)
{
    srv_table *t = srv_table_find(c->srv, msg->table);
    /* A node: a table another node holds is played there. */
    if (t == NULL && srv_node_elsewhere(c, msg, msg->table))
        return NULL;
    if (t == NULL)
        srv_error(c, msg, "no_table",
                  "There is no table %lld (it may have closed): choose a table from the lobby.",
                  (long long)msg->table);
    return t;
}

void srv_cmd_sit(srv_conn *c, const proto_msg *msg)
{
    srv_session *s = c->session;
    srv_table *t = srv_table_of(c, msg);
    if (t == NULL)
        return;
    int seat = msg->seat;
    if (seat < 0 || seat > 3) {
        srv_error(c, msg, "bad_seat", "A seat is N, E, S or W: choose one of those.");
        return;
    }
    if (s->table && s->table != t) {
        srv_error(c, msg, "busy", "You are at table %lld: leave it first, then try again.",
                  (long long)s->table->id);
        return;
    }
    if (s->table == t && s->seat >= 0) {
        if (s->seat != seat) {
            srv_error(c, msg, "busy",
                      "You sit %s at this table: to change seats, leave it first and sit again.",
                      barbu_seat_name(s->seat));
            return;
        }
        srv_send_table(t, s);
        srv_send_view(t, s);
        return;
    }
    if (srv_table_over(t)) {
        srv_error(c, msg, "over",
                  "The game at table %lld is over: kibitz it to see how it ended, or sit at a "
                  "table that is waiting for players.",
                  (long long)t->id);
        return;
    }
    if (!srv_ladder_sit_ok(c, msg, t) || !srv_club_sit_ok(c, msg, t) || !srv_mod_sit_ok(c, msg, t))
        return;
    const srv_seat *st = &t->seats[seat];
    /* A player comes back to its own seat at once, from a computer player
     * too (which stands up for it); a person who took it keeps it. */
    bool own = t->started && !srv_table_over(t) && srv_player_of_record(t, seat, s);
    if (own && !st->bot && st->person && st->person != s && !srv_seat_free(t, seat)) {
        srv_error(c, msg, "seat_taken",
                  "The player %s took your seat (%s) when you left and keeps it: watch the table, "
                  "or ask %s "
                  "to leave the seat to you.",
                  st->name, barbu_seat_name(seat), st->name);
        return;
    }
    /* Before the game a computer player stands for a person. */
    bool ok = own || srv_seat_free(t, seat) || (!t->started && st->person == NULL);
    if (!ok) {
        const char *who = st->name[0] ? st->name : "somebody";
        srv_error(c, msg, "seat_taken", "Seat %s is taken by %s: choose a free seat.",
                  barbu_seat_name(seat), who);
        return;
    }
    const char *kept = srv_seat_reserved(t, seat);
    if (kept && !srv_handle_equal(kept, s->name)) {
        char when[16];
        time_t until = (time_t)t->reserved_wall;
        struct tm tm;
        gmtime_r(&until, &tm);
        strftime(when, sizeof when, "%H:%M:%S", &tm);
        srv_error(c, msg, "seat_taken",
                  "This seat is kept for %s until %s UTC (%lld more seconds), who played it in "
                  "the last game: take another seat, or wait.",
                  kept, when, (long long)(t->reserved_until - srv_now()));
        return;
    }
    /* Whoever has seen another hand of this deal (kibitzing it, or its own
     * seat before standing up) does not play this one until it is over: a
     * player coming back to its own seat too, once it has watched another
     * (its own hand, seen before it stood up, does not count). */
    int seen = watched_other(t, s, seat, true);
    if (seen >= 0) {
        srv_error(c, msg, "seat_taken",
                  "You (or someone at your address or browser) watched %s in this deal, so you "
                  "may not play %s before the deal is over: sit down when it is.",
                  seen == PROTO_SEAT_ALL ? "every hand" : proto_seat_name(seen),
                  barbu_seat_name(seat));
        return;
    }
    if (srv_seat_person(t, seat, s) != 0) {
        srv_error(c, msg, "server",
                  "The seat could not be saved (the server's disk may be full): try again in a "
                  "moment.");
        return;
    }
    srv_seats_changed(t, s);
}

void srv_cmd_kibitz(srv_conn *c, const proto_msg *msg)
{
    srv_session *s = c->session;
    srv_table *t = srv_table_of(c, msg);
    if (t == NULL)
        return;
    int seat = msg->seat;
    if (seat < 0 || seat > PROTO_SEAT_ALL) {
        srv_error(c, msg, "bad_seat", "Kibitz a seat (N, E, S or W) or all: choose one of those.");
        return;
    }
    if (t->kibitz == PROTO_KIBITZ_NONE) {
        srv_error(c, msg, "kibitz_refused",
                  "Table %lld does not allow kibitzers: watch another table.", (long long)t->id);
        return;
    }
    if (seat == PROTO_SEAT_ALL && t->kibitz != PROTO_KIBITZ_ALL) {
        srv_error(c, msg, "kibitz_refused",
                  "Table %lld lets kibitzers watch one seat only: choose N, E, S or W.",
                  (long long)t->id);
        return;
    }
    if (s->table && (s->table != t || s->seat >= 0)) {
        srv_error(c, msg, "busy", "You are at table %lld: leave it first, then try again.",
                  (long long)s->table->id);
        return;
    }
    /* A finished game hides nothing. */
    const srv_session *player = srv_table_over(t) ? NULL : player_at_place(t, s);
    if (player) {
        srv_error(c, msg, "kibitz_refused",
                  "The player %s plays at table %lld from your address or browser, and this "
                  "table does not "
                  "let a player's household watch its hands: watch another table (a table's "
                  "creator may allow it when making the table).",
                  player->name, (long long)t->id);
        return;
    }
    bool running = t->started && !srv_table_over(t) && t->kibitz == PROTO_KIBITZ_SEAT;
    if (running && s->table == t && s->kibitz >= 0 && s->kibitz != seat) {
        /* It has seen this deal's hand of its seat: the new one waits for
         * the next deal. */
        s->kibitz_next = seat;
        srv_log(c->srv, "table %lld: %s will kibitz %s from the next deal", (long long)t->id,
                s->name, proto_seat_name(seat));
        srv_send_table(t, s);
        return;
    }
    int other = seat == PROTO_SEAT_ALL ? -1 : watched_other(t, s, seat, false);
    if (other >= 0) {
        srv_error(c, msg, "kibitz_refused",
                  "You (or someone at your address or browser) watched %s in this deal: watch %s "
                  "again now, or come back for %s once the deal is over.",
                  proto_seat_name(other), proto_seat_name(other), proto_seat_name(seat));
        return;
    }
    if (s->table == NULL && t->n_kibitzers >= SRV_KIBITZERS_MAX) {
        srv_error(c, msg, "limit",
                  "Table %lld has %d kibitzers, its most: watch another table, or come back when "
                  "one of them has left.",
                  (long long)t->id, t->n_kibitzers);
        return;
    }
    if (s->table == NULL) {
        if (t->n_kibitzers == t->cap_kibitzers) {
            int cap = t->cap_kibitzers ? t->cap_kibitzers * 2 : 4;
            srv_session **k = realloc(t->kibitzers, (size_t)cap * sizeof *k);
            if (k == NULL) {
                srv_error(c, msg, "server", "The server is out of memory: try again in a moment.");
                return;
            }
            t->kibitzers = k;
            t->cap_kibitzers = cap;
        }
        t->kibitzers[t->n_kibitzers++] = s;
        s->table = t;
        s->moved_from = 0;
        srv_log(c->srv, "table %lld: %s kibitzes %s", (long long)t->id, s->name,
                proto_seat_name(seat));
    }
    s->kibitz = seat;
    s->kibitz_next = -1;
    t->empty_since = 0;
    srv_send_table(t, s);
    srv_send_view(t, s);
    srv_broadcast_table(t, s);
    srv_lobby_listed(t);
}

void srv_seat_left(srv_table *t, int seat)
{
    srv_seat *st = &t->seats[seat];
    if (st->bot)
        return;
    /* Free for a substitute at once: no grace period. */
    st->away_since = srv_now();
    st->grace_over = true;
    if (t->takeover == PROTO_TAKEOVER_BOT)
        srv_seat_bot(t, seat, t->level, true);
}

void srv_cmd_leave(srv_conn *c, const proto_msg *msg)
{
    srv_session *s = c->session;
    if (s->table == NULL) {
        srv_error(c, msg, "not_at_table",
                  "You are in the lobby, not at a table: there is nothing to leave.");
        return;
    }
    srv_table_leave(s);
    srv_send_lobby(c, NULL);
}

void srv_table_leave(srv_session *s)
{
    srv_table *t = s->table;
    if (t == NULL)
        return;
    int seat = s->seat;
    bool held = seat >= 0 && t->seats[seat].person == s;
    /* A player who stands up has seen the seat's hand of this deal, and
     * may not kibitz another one before the deal is over. */
    if (held)
        srv_watch_note(t, s, seat);
    srv_table_detach(s);
    srv_log(t->srv, "table %lld: %s leaves", (long long)t->id, s->name);
    if (held) {
        if (t->started && !srv_table_over(t))
            srv_seat_left(t, seat);
        if (!srv_table_over(t))
            srv_seat_store(t, seat);
    }
    srv_broadcast_table(t, NULL);
    srv_lobby_listed(t);
    srv_table_schedule(t);
}

void srv_cmd_bot(srv_conn *c, const proto_msg *msg)
{
    srv_session *s = c->session;
    srv_table *t = s->table;
    if (t == NULL && srv_node_moved_again(c, msg))
        return;
    if (t == NULL || s->seat < 0 || t->seats[s->seat].person != s) {
        srv_error(c, msg, "not_seated",
                  "Only a player seated at the table may call a computer player: sit first.");
        return;
    }
    int seat = msg->seat;
    if (seat < 0 || seat > 3 || seat == s->seat) {
        srv_error(c, msg, "bad_seat",
                  "Name another player's seat (N, E, S or W) for the computer player, not your "
                  "own.");
        return;
    }
    if (srv_table_over(t)) {
        srv_error(c, msg, "over",
                  "The game is over, so no computer player is needed: leave the table when you "
                  "are done.");
        return;
    }
    if (!srv_ladder_bot_ok(c, msg, t))
        return;
    srv_seat *st = &t->seats[seat];
    if (st->bot || (st->person && st->person->conn)) {
        srv_error(c, msg, "seat_taken",
                  "Seat %s is taken by %s, so no computer player is needed there: name an "
                  "empty seat.",
                  barbu_seat_name(seat), st->name);
        return;
    }
    const char *kept = srv_seat_reserved(t, seat);
    if (kept) {
        srv_error(c, msg, "seat_taken",
                  "Seat %s is kept for %s, who played it in the last game, for %lld more "
                  "seconds: call a computer player for it then.",
                  barbu_seat_name(seat), kept, (long long)(t->reserved_until - srv_now()));
        return;
    }
    if (st->person && !st->grace_over) {
        int64_t left = t->grace - (srv_now() - st->away_since);
        srv_error(c, msg, "wait",
                  "The player %s may come back for %lld more seconds: call a computer player "
                  "once that "
                  "time is over.",
                  st->name, (long long)(left > 0 ? left : 0));
        return;
    }
    const char *level = msg->level[0] ? msg->level : t->level;
    if (!level_ok(level)) {
        srv_error(c, msg, "bad_value",
                  "There is no computer player of level '%s': choose easy, medium, hard or "
                  "random.",
                  level);
        return;
    }
    if (srv_seat_bot(t, seat, level, t->started) != 0) {
        srv_error(c, msg, "server",
                  "The seat could not be saved (the server's disk may be full): try again in a "
                  "moment.");
        return;
    }
    srv_seats_changed(t, NULL);
}

srv_table *srv_seated_table(srv_conn *c, const proto_msg *msg, const char *why)
{
    srv_session *s = c->session;
    srv_table *t = s->table;
    if (t == NULL && srv_node_moved_again(c, msg))
        return NULL; /* sent before it heard its table went to another node */
    if (t == NULL || s->seat < 0 || t->seats[s->seat].person != s || t->seats[s->seat].bot) {
        srv_error(c, msg, "not_seated", "%s", why);
        return NULL;
    }
    return t;
}

void srv_cmd_act(srv_conn *c, const proto_msg *msg)
{
    srv_session *s = c->session;
    srv_table *t = srv_seated_table(
        c, msg, "Only a player seated at the table acts: sit at a free seat first.");
    if (t == NULL)
        return;
    int seat = s->seat;
    if (!t->started) {
        srv_error(c, msg, "not_started",
                  "The game has not started: it starts when four seats are filled, so wait for "
                  "players or call computer players to the empty seats.");
        return;
    }
    if (barbu_over(&t->state)) {
        srv_error(c, msg, "over",
                  "The game is over: look at the score, or leave the table for a new game.");
        return;
    }
    if (t->broken) {
        srv_error(c, msg, "paused",
                  "This table's stored game could not be replayed to the end after a restart, so "
                  "it cannot go on: its record keeps what was played (the server's log says "
                  "why); leave it and start a new game.");
        return;
    }
    if (srv_table_paused(t)) {
        srv_error(c, msg, "paused",
                  "The game is paused until every seat is filled and its player connected: wait "
                  "for them, or call a computer player once their grace period is over.");
        return;
    }
    if (msg->has_at && msg->at != t->n) {
        srv_error(c, msg, "stale",
                  "The game has moved on (it is at action %u, not %u): look at the table again "
                  "and choose anew.",
                  t->n, msg->at);
        return;
    }
    if (barbu_to_move(&t->state) != seat) {
        char waiting[160];
        barbu_waiting_for(&t->rules, &t->state.t, waiting, sizeof waiting);
        srv_error(c, msg, "not_your_turn",
                  "It is not your turn: the game waits for %s. Wait for your turn.", waiting);
        return;
    }
    barbu_action a;
    proto_error err = {0};
    if (proto_action_resolve(&msg->action, &t->rules, seat, &a, &err) != 0) {
        err.re = proto_type_name(msg->type);
        err.has_id = msg->has_id;
        err.id = msg->id;
        srv_send(c, proto_error_json(&err));
        return;
    }
    a.seat = (int8_t)seat;
    int e = barbu_check(&t->state, &a);
    if (e != 0) {
        /* The reason is worded from the seat's own view, so that it can
         * only speak of what the seat may know. */
        barbu_view view;
        barbu_view_of(&t->state, seat, &view);
        char why[sizeof((proto_error *)0)->text];
        barbu_view_explain(&view, &a, why, sizeof why);
        json_t *reply = NULL;
        proto_error pe = {.code = "illegal",
                          .re = proto_type_name(msg->type),
                          .has_id = msg->has_id,
                          .id = msg->id};
        /* The engine's words, as a sentence: a capital first, a full stop
         * last (the engine words its reasons as clauses, for every
         * client). */
        snprintf(pe.text, sizeof pe.text, "%s", why[0] ? why : barbu_strerror(e));
        size_t n = strlen(pe.text);
        if (n > 0 && pe.text[0] >= 'a' && pe.text[0] <= 'z')
            pe.text[0] = (char)(pe.text[0] - 'a' + 'A');
        if (n > 0 && n + 1 < sizeof pe.text && !strchr(".?!", pe.text[n - 1])) {
            pe.text[n] = '.';
            pe.text[n + 1] = '\0';
        }
        reply = proto_error_json(&pe);
        if (reply)
            json_object_set_new(reply, "engine", json_integer(e));
        srv_send(c, reply);
        return;
    }
    if (srv_table_commit(t, &a) != 0 && !t->lost)
        srv_error(c, msg, "server",
                  "The action could not be saved (the server's disk may be full): try it again "
                  "in a moment.");
}
