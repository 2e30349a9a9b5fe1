/*
 * ladder.c - ladder tables and who played which deals.
 *
 * A ladder table (create's "ladder") is played by registered players only,
 * its creator too, substitutes too: its results can be put to a name that
 * nobody else can use.  It takes no chosen seed (its creator would know
 * every deal) and no computer players at create time.  A computer player
 * may still keep an away player's seat by the table's takeover rule; that,
 * like every change of hands, is recorded.
 *
 * Every table, ladder or not, records who played which deals: a row of
 * deal_players when a deal starts (its four players) and whenever a seat
 * changes hands within it, kept in memory for the score message and in the
 * store for after a restart and for the club's ladder.  A seat emptied
 * (nobody plays it: the game is paused) adds no row; the next person or
 * computer player who takes it does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

bool srv_ladder_create_ok(srv_conn *c, const proto_msg *msg)
{
    if (!msg->ladder)
        return true;
    if (!c->session->registered) {
        srv_error(c, msg, "ladder",
                  "Only a registered player may create a ladder table: sign up (or sign in) "
                  "with a password first, or create a table without \"ladder\".");
        return false;
    }
    if (msg->has_seed) {
        srv_error(c, msg, "ladder",
                  "A ladder table takes no chosen seed, since whoever chose it would know every "
                  "deal: create it without \"seed\".");
        return false;
    }
    if (msg->bots) {
        srv_error(c, msg, "ladder",
                  "Only registered players sit at a ladder table, so it takes no computer "
                  "players: create it without \"bots\", and wait for players.");
        return false;
    }
    return true;
}

bool srv_ladder_sit_ok(srv_conn *c, const proto_msg *msg, const srv_table *t)
{
    if (!t->ladder || c->session->registered)
        return true;
    srv_error(c, msg, "ladder",
              "Table %lld is a ladder table, where only registered players sit: sign up with a "
              "password to play there, or kibitz it.",
              (long long)t->id);
    return false;
}

bool srv_ladder_bot_ok(srv_conn *c, const proto_msg *msg, const srv_table *t)
{
    if (!t->ladder || t->started)
        return true;
    srv_error(c, msg, "ladder",
              "Table %lld is a ladder table, where only registered players sit down for the "
              "game: wait for players (a computer player may keep an away player's seat once "
              "the game has started).",
              (long long)t->id);
    return false;
}

/* -------------------------------------------------------------- the rows */

static int rows_reserve(srv_table *t)
{
    if (t->n_deal_players < t->cap_deal_players)
        return 0;
    int cap = t->cap_deal_players ? t->cap_deal_players * 2 : 64;
    srv_deal_player *p = realloc(t->deal_players, (size_t)cap * sizeof *p);
    if (p == NULL)
        return -1;
    t->deal_players = p;
    t->cap_deal_players = cap;
    return 0;
}

/* Who holds the seat now, for the deal under way; false when nobody plays
 * it (empty, or its person gone without a computer player in its place). */
static bool holder(const srv_table *t, int seat, srv_deal_player *out)
{
    const srv_seat *st = &t->seats[seat];
    memset(out, 0, sizeof *out);
    out->deal = t->state.t.deal;
    out->at = t->n;
    out->seat = seat;
    if (st->bot) {
        out->bot = true;
        snprintf(out->name, sizeof out->name, "%s", st->name);
        snprintf(out->level, sizeof out->level, "%s", st->level);
        return true;
    }
    if (st->person == NULL)
        return false;
    out->registered = st->person->registered;
    snprintf(out->name, sizeof out->name, "%s", st->person->name);
    return true;
}

/* The last row of the seat in the deal, or NULL. */
static const srv_deal_player *last_row(const srv_table *t, int deal, int seat)
{
    for (int i = t->n_deal_players - 1; i >= 0; i--) {
        const srv_deal_player *p = &t->deal_players[i];
        if (p->deal < deal)
            break;
        if (p->deal == deal && p->seat == seat)
            return p;
    }
    return NULL;
}

static void row_add(srv_table *t, const srv_deal_player *p)
{
    if (rows_reserve(t) != 0)
        return;
    t->deal_players[t->n_deal_players++] = *p;
    store *db = t->srv->store;
    store_deal_player sp = {
        .deal = p->deal,
        .at = p->at,
        .seat = p->seat,
        .name = p->name,
        .registered = p->registered,
        .level = p->bot ? p->level : NULL,
    };
    /* The game goes on without it: the row is a record, not the game. */
    if (!t->lost && srv_node_check(t, db->ops->deal_player_put(db, t->id, &sp)) != 0)
        srv_log(t->srv, "store: table %lld: who plays %s in deal %d: %s", (long long)t->id,
                barbu_seat_name(p->seat), p->deal + 1, store_error(db));
}

static bool same_holder(const srv_deal_player *a, const srv_deal_player *b)
{
    return a->bot == b->bot && strcmp(a->name, b->name) == 0 && strcmp(a->level, b->level) == 0;
}

void srv_deal_players_seat(srv_table *t, int seat)
{
    if (!t->started || t->no_game || srv_table_over(t))
        return;
    srv_deal_player now;
    if (!holder(t, seat, &now))
        return;
    const srv_deal_player *last = last_row(t, now.deal, seat);
    if (last && same_holder(last, &now))
        return;
    row_add(t, &now);
}

void srv_deal_players_deal(srv_table *t)
{
    if (!t->started || t->no_game || srv_table_over(t))
        return;
    for (int k = 0; k < 4; k++) {
        srv_deal_player now;
        if (holder(t, k, &now))
            row_add(t, &now);
    }
}

typedef struct load_ctx {
    srv_deal_player *rows;
    int n, cap;
    bool failed;
} load_ctx;

static void on_row(void *ctx, const store_deal_player *p)
{
    load_ctx *l = ctx;
    if (l->failed)
        return;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        srv_deal_player *r = realloc(l->rows, (size_t)cap * sizeof *r);
        if (r == NULL) {
            l->failed = true;
            return;
        }
        l->rows = r;
        l->cap = cap;
    }
    srv_deal_player *r = &l->rows[l->n++];
    memset(r, 0, sizeof *r);
    r->deal = p->deal;
    r->at = p->at;
    r->seat = p->seat;
    r->registered = p->registered;
    r->bot = p->level != NULL;
    snprintf(r->name, sizeof r->name, "%s", p->name);
    if (p->level)
        snprintf(r->level, sizeof r->level, "%s", p->level);
}

int srv_deal_players_read(store *db, int64_t table, srv_deal_player **rows, int *n)
{
    load_ctx l = {0};
    if (db->ops->deal_players_load(db, table, on_row, &l) != 0 || l.failed) {
        free(l.rows);
        return -1;
    }
    *rows = l.rows;
    *n = l.n;
    return 0;
}

int srv_deal_players_load(srv_server *srv, int64_t table, srv_deal_player **rows, int *n)
{
    load_ctx l = {0};
    store *db = srv->store;
    if (db->ops->deal_players_load(db, table, on_row, &l) != 0 || l.failed) {
        srv_log(srv, "store: table %lld: who played which deals: %s", (long long)table,
                l.failed ? "out of memory" : store_error(db));
        free(l.rows);
        return -1;
    }
    *rows = l.rows;
    *n = l.n;
    return 0;
}

void srv_deal_players_restore(srv_table *t)
{
    srv_deal_player *rows = NULL;
    int n = 0;
    if (srv_deal_players_load(t->srv, t->id, &rows, &n) != 0)
        return;
    free(t->deal_players);
    t->deal_players = rows;
    t->n_deal_players = t->cap_deal_players = n;
    /* A table stored before this record was kept has no row for the deal
     * under way: its players from now on are what is known. */
    if (!srv_table_over(t) && !t->no_game) {
        int deal = t->state.t.deal;
        for (int k = 0; k < 4; k++)
            if (last_row(t, deal, k) == NULL)
                srv_deal_players_seat(t, k);
    }
}

/* Appends sep and who to buf when both fit whole: a name is never cut in
 * the middle of a character.  Returns whether it did. */
static bool append_whole(char *buf, size_t cap, const char *sep, const char *who)
{
    size_t used = strlen(buf), a = strlen(sep), b = strlen(who);
    if (used + a + b + 1 > cap)
        return false;
    memcpy(buf + used, sep, a);
    memcpy(buf + used + a, who, b + 1);
    return true;
}

json_t *srv_deal_players_json(const srv_deal_player *rows, int n, int deal)
{
    /* Each seat's holders in order: "Zoë", or "Zoë then computer (medium)"
     * when the seat changed hands in the deal (a seat that changed hands
     * more often than the text holds ends with "and others"). */
    char text[4][1024] = {"", "", "", ""};
    bool full[4] = {false, false, false, false};
    bool any = false;
    for (int i = 0; i < n; i++) {
        const srv_deal_player *p = &rows[i];
        if (p->deal != deal || p->seat < 0 || p->seat > 3)
            continue;
        char who[SRV_NAME_CAP + 32];
        if (p->bot)
            snprintf(who, sizeof who, "computer (%s)", p->level);
        else
            snprintf(who, sizeof who, "%s", p->name);
        char *t = text[p->seat];
        if (!full[p->seat] && !append_whole(t, sizeof text[0], t[0] ? " then " : "", who)) {
            append_whole(t, sizeof text[0], "", " and others");
            full[p->seat] = true;
        }
        any = true;
    }
    if (!any)
        return NULL;
    json_t *o = json_object();
    for (int k = 0; k < 4 && o; k++)
        if (text[k][0])
            json_object_set_new(o, barbu_seat_name(k), json_string(text[k]));
    return o;
}
