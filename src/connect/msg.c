/*
 * msg.c - barbu connect's side of docs/protocol.md: the server's
 * messages turned into the client's state (the lobby, the table, the view
 * that the terminal table of src/tui draws, the chat, the score window), and the
 * client's messages built from what the user chose.
 *
 * A server message is read leniently (fields we do not use are ignored) but
 * checked where it matters: a view goes through proto_view_parse, which
 * refuses anything out of range, and a message that does not read is shown
 * on the status line and dropped.  Nothing the server sends may crash the
 * client.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "connect.h"
#include "draw.h"

/* How long after a welcome a resumed session's table may take to come back
 * before the lobby is shown instead. */
#define REJOIN_WAIT_MS 2000

/* ------------------------------------------------------------ JSON helpers */

static const char *get_str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static bool get_bool(const json_t *o, const char *key)
{
    return json_is_true(json_object_get(o, key));
}

static long long get_int(const json_t *o, const char *key, long long fallback)
{
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (long long)json_integer_value(v) : fallback;
}

static void copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src != NULL ? src : "");
}

static int fail(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return -1;
}

static json_t *msg_new(cn *c, const char *type)
{
    json_t *m = json_object();
    if (m == NULL)
        return NULL;
    json_object_set_new(m, "type", json_string(type));
    json_object_set_new(m, "id", json_integer(c->next_id));
    c->next_id = c->next_id < 2147483647 ? c->next_id + 1 : 1;
    return m;
}

/* Sends, or says why it could not. */
static bool send(cn *c, json_t *m)
{
    if (c->conn != CN_READY) {
        json_decref(m);
        cn_status(c, true, "Not connected to the server: try again once the connection is back.");
        return false;
    }
    if (cn_send(c, m) != 0) {
        cn_status(c, true, "The message could not be sent.");
        return false;
    }
    return true;
}

/* --------------------------------------------------------------- results */

static void results_clear(cn *c)
{
    c->n_results = 0;
    barbu_sheet_init(&c->sheet, NULL);
    c->ui.results = c->results;
    c->ui.n_results = 0;
}

/* Adds a deal's result in order; false when it is not the next one. */
static bool results_add(cn *c, const barbu_result *r)
{
    if (r->deal != c->n_results)
        return false;
    if (c->n_results == c->cap_results) {
        int cap = c->cap_results ? c->cap_results * 2 : 64;
        barbu_result *p = realloc(c->results, (size_t)cap * sizeof *p);
        if (p == NULL)
            return false;
        c->results = p;
        c->cap_results = cap;
    }
    c->results[c->n_results++] = *r;
    if (c->rules.game == BARBU_GAME_FIFE)
        barbu_sheet_add(&c->sheet, &c->rules, r);
    c->ui.results = c->results;
    c->ui.n_results = c->n_results;
    return true;
}

/* ---------------------------------------------------------------- actions */

/* A view's "last": an action as proto_action_json wrote it (a Pass-on's or
 * an arrangement's cards may be left out). */
static int read_action(const json_t *o, const barbu_rules *rules, barbu_action *a)
{
    proto_action pa;
    proto_error err;
    if (proto_action_read(o, &pa, &err) != 0)
        return -1;
    return proto_action_resolve(&pa, rules, pa.seat, a, &err) == 0 ? 0 : -1;
}

/* ------------------------------------------------------------ the table */

static const char *const SEAT_WORDS[] = {"North", "East", "South", "West"};

void cn_table_names(cn *c)
{
    const cn_table *t = &c->table;
    long long now = cn_now_ms();
    for (int s = 0; s < 4; s++) {
        const cn_seat *st = &t->seat[s];
        char *out = c->names[s];
        size_t cap = sizeof c->names[s];
        if (!st->taken && st->player[0])
            snprintf(out, cap, "%s, gone%s", st->player, st->free ? ", free" : "");
        else if (!st->taken)
            snprintf(out, cap, "free seat");
        else if (st->away >= 0)
            snprintf(out, cap, "%s, away %llds", st->name,
                     (long long)st->away + (now - t->received) / 1000);
        else
            snprintf(out, cap, "%s", st->name);
        c->ui.names[s] = out;
    }
    const char *dot = scr_glyph("\u00b7", "-");
    snprintf(c->title, sizeof c->title, "barbu %s table %lld %s %s%s",
             t->you_seat >= 0 ? "connect" : "kibitz", (long long)t->id, dot, t->rules_name,
             t->house[0] ? "+house" : "");
    c->ui.title = c->title;
    c->ui.rules_name = t->rules_name;
}

static int on_table(cn *c, const json_t *m, char *why, size_t cap)
{
    json_int_t id = get_int(m, "id", -1);
    const char *rules = get_str(m, "rules");
    const json_t *seats = json_object_get(m, "seats");
    if (id < 0 || rules == NULL || !json_is_array(seats) || json_array_size(seats) != 4)
        return fail(why, cap, "a table message without id, rules or four seats");
    const char *house = get_str(m, "house");
    /* The same table: a change of seats, or a resumed session coming back
     * to it (its screen stays until then). */
    bool new_table = c->screen != CN_TABLE || c->table.id != id;
    bool same_rules = !new_table && c->have_rules && strcmp(c->table.rules_name, rules) == 0 &&
                      strcmp(c->table.house, house ? house : "") == 0;
    if (!same_rules) {
        barbu_rules r;
        char rwhy[200];
        if (proto_table_rules(rules, house, &r, rwhy, sizeof rwhy) != 0) {
            if (new_table)
                c->have_rules = false;
            return fail(why, cap, "the table's rules do not read here: %s", rwhy);
        }
        c->rules = r;
        c->have_rules = true;
    }
    cn_table *t = &c->table;
    if (new_table) {
        memset(t, 0, sizeof *t);
        c->have_view = false;
        c->over_shown = false;
        c->watch_seat = 2;
        results_clear(c);
        play_ui keep = c->ui;
        memset(&c->ui, 0, sizeof c->ui);
        c->ui.remote = true;
        c->ui.log_deal = -1;
        c->ui.help_more[0] = keep.help_more[0];
        c->ui.help_more[1] = keep.help_more[1];
        c->ui.quit_note = keep.quit_note;
        c->ui.title_keys = keep.title_keys;
        c->ui.sheet = &c->sheet;
        c->ui.results = c->results;
        c->overlay = CN_NO_OVERLAY;
        cn_note(c, "At table %lld (%s).", (long long)id, rules);
    }
    t->id = id;
    copy(t->rules_name, sizeof t->rules_name, rules);
    copy(t->house, sizeof t->house, house);
    copy(t->kibitz, sizeof t->kibitz, get_str(m, "kibitz"));
    copy(t->takeover, sizeof t->takeover, get_str(m, "takeover"));
    copy(t->state, sizeof t->state, get_str(m, "state"));
    copy(t->seed, sizeof t->seed, get_str(m, "seed"));
    copy(t->seed_by, sizeof t->seed_by, get_str(m, "seed_chosen_by"));
    t->household = get_bool(m, "household");
    t->kibitz_chat = get_bool(m, "kibitz_chat");
    /* A fair deal's key: its hash from the start, the key once over. */
    bool had_key = t->key[0] != '\0', had_commitment = t->commitment[0] != '\0';
    copy(t->commitment, sizeof t->commitment, get_str(m, "commitment"));
    copy(t->key, sizeof t->key, get_str(m, "key"));
    t->ladder = get_bool(m, "ladder");
    t->hints = get_bool(m, "hints");
    if (t->commitment[0] && !had_commitment && !t->key[0])
        cn_note(c,
                "The deals of table %lld come from a secret key whose hash is %s: it is shown "
                "when the game is over.",
                (long long)id, t->commitment);
    if (t->key[0] && !had_key)
        cn_note(c,
                "The game is over: its key is %s. Save the record (! r) and check the deals "
                "with: barbu verify barbu-table-%lld.txt",
                t->key, (long long)id);
    t->grace = (int)get_int(m, "grace", 0);
    t->delay = (int)get_int(m, "delay", 0);
    t->received = cn_now_ms();
    for (int s = 0; s < 4; s++) {
        const json_t *o = json_array_get(seats, (size_t)s);
        cn_seat *st = &t->seat[s];
        memset(st, 0, sizeof *st);
        st->away = -1;
        if (!json_is_object(o))
            continue;
        const char *name = get_str(o, "name");
        st->taken = name != NULL;
        copy(st->name, sizeof st->name, name);
        copy(st->player, sizeof st->player, get_str(o, "player"));
        st->bot = get_bool(o, "bot");
        st->connected = get_bool(o, "connected");
        st->free = get_bool(o, "free");
        st->knows_deals = get_bool(o, "knows_deals");
        st->registered = get_bool(o, "registered");
        if (json_is_integer(json_object_get(o, "away")))
            st->away = (int)get_int(o, "away", 0);
    }
    t->n_kibitzers = 0;
    t->kibitzers[0] = '\0';
    const json_t *kib = json_object_get(m, "kibitzers");
    size_t i;
    const json_t *v;
    if (json_is_array(kib)) {
        json_array_foreach(kib, i, v)
        {
            if (!json_is_string(v))
                continue;
            size_t n = strlen(t->kibitzers);
            snprintf(t->kibitzers + n, sizeof t->kibitzers - n, "%s%s", n ? ", " : "",
                     json_string_value(v));
            t->n_kibitzers++;
        }
    }
    const json_t *you = json_object_get(m, "you");
    t->you_seat = proto_seat_read(get_str(you, "seat") ? get_str(you, "seat") : "");
    t->kibitz_seat = -1;
    t->kibitz_next = -1;
    if (t->you_seat < 0) {
        const char *next = get_str(you, "next");
        t->kibitz_next = next ? proto_seat_read(next) : -1;
        const char *k = get_str(you, "kibitz");
        t->kibitz_seat = k == NULL               ? 2
                         : strcmp(k, "all") == 0 ? PROTO_SEAT_ALL
                                                 : proto_seat_read(k);
        if (t->kibitz_seat < 0)
            t->kibitz_seat = 2;
    }
    c->ui.watch = t->you_seat < 0;
    c->screen = CN_TABLE;
    c->rejoin_id = 0;
    c->hops = 0;
    cn_table_names(c);
    return 0;
}

static int on_view(cn *c, const json_t *m, char *why, size_t cap)
{
    if (c->screen != CN_TABLE || !c->have_rules)
        return 0; /* a view for a table we have left */
    json_int_t table = get_int(m, "table", -1);
    json_int_t at = get_int(m, "at", -1);
    const json_t *vj = json_object_get(m, "view");
    if (table != c->table.id)
        return 0;
    if (at < 0 || !json_is_object(vj))
        return fail(why, cap, "a view message without at or view");
    barbu_view nv;
    proto_error err = {0};
    if (proto_view_parse(vj, &c->rules, &nv, &err) != 0)
        return fail(why, cap, "its view does not read: %s", err.text);
    if (nv.seat == BARBU_ALL_SEATS) {
        /* Every hand is known: the screen shows one at the bottom. */
        nv.seat = (int8_t)(c->watch_seat & 3);
    }
    play_ui *ui = &c->ui;
    bool had = c->have_view;
    barbu_table before = ui->view.t;
    bool next = had && (uint32_t)at == c->at + 1;
    ui->view = nv;
    c->have_view = true;
    c->at = (uint32_t)at;

    /* What just happened, in words (as barbu play says it). */
    barbu_action a;
    const json_t *last = json_object_get(m, "last");
    if (next && json_is_object(last) && read_action(last, &c->rules, &a) == 0) {
        play_fife_note(ui, &before, &a);
        char text[200];
        play_describe(ui, &before, &a, text, sizeof text);
        play_message(ui, false, "%s", text);
    }
    /* A deal completed: its result (the server's score message brings the
     * deals missed while away). */
    if (had && nv.t.deal > before.deal) {
        if (results_add(c, &nv.t.last)) {
            ui->overlay = PLAY_DEAL_END;
        } else {
            /* A deal missed: the score message brings them all. */
            cn_send_score(c);
        }
        if (c->rules.game == BARBU_GAME_FIFE) {
            const barbu_table *t = &nv.t;
            ui->draw_pending =
                t->phase != BARBU_PHASE_OVER && t->round == BARBU_SILLY_ROUND && t->round_deal == 0;
        }
    } else if (!had) {
        /* Joining (or coming back): the deals so far come with the score. */
        if (nv.t.deal > 0)
            cn_send_score(c);
        if (c->rules.game == BARBU_GAME_FIFE && nv.t.deal == 0 && nv.t.acted == 0 &&
            nv.t.phase != BARBU_PHASE_OVER)
            ui->overlay = PLAY_DRAW;
    }
    play_new_decision(ui);
    return 0;
}

/* ------------------------------------------------------------- the lobby */

static int read_summary(const json_t *o, cn_summary *s)
{
    memset(s, 0, sizeof *s);
    s->id = get_int(o, "id", -1);
    const json_t *seats = json_object_get(o, "seats");
    if (s->id < 0 || !json_is_array(seats))
        return -1;
    copy(s->rules, sizeof s->rules, get_str(o, "rules"));
    copy(s->state, sizeof s->state, get_str(o, "state"));
    copy(s->kibitz, sizeof s->kibitz, get_str(o, "kibitz"));
    s->house = get_bool(o, "house");
    copy(s->seed_by, sizeof s->seed_by, get_str(o, "seed_chosen_by"));
    s->kibitzers = (int)get_int(o, "kibitzers", 0);
    s->deal = (int)get_int(o, "deal", 0);
    s->deals = (int)get_int(o, "deals", 0);
    for (int k = 0; k < 4; k++) {
        const json_t *st = json_array_get(seats, (size_t)k);
        /* A seat left empty during a game names its player only: free. */
        if (!json_is_object(st) || get_str(st, "name") == NULL)
            continue;
        s->seat[k].taken = true;
        copy(s->seat[k].name, sizeof s->seat[k].name, get_str(st, "name"));
        s->seat[k].bot = get_bool(st, "bot");
        s->seat[k].away = get_bool(st, "away");
        s->seat[k].registered = get_bool(st, "registered");
    }
    s->ladder = get_bool(o, "ladder");
    return 0;
}

static int find_table(const cn *c, int64_t id)
{
    for (int i = 0; i < c->n_tables; i++)
        if (c->tables[i].id == id)
            return i;
    return -1;
}

/* Puts a summary in the list, kept in order of id. */
static void table_put(cn *c, const cn_summary *s)
{
    int i = find_table(c, s->id);
    if (i >= 0) {
        c->tables[i] = *s;
        return;
    }
    if (c->n_tables == c->cap_tables) {
        int cap = c->cap_tables ? c->cap_tables * 2 : 32;
        cn_summary *p = realloc(c->tables, (size_t)cap * sizeof *p);
        if (p == NULL)
            return;
        c->tables = p;
        c->cap_tables = cap;
    }
    int at = c->n_tables;
    while (at > 0 && c->tables[at - 1].id > s->id)
        at--;
    memmove(&c->tables[at + 1], &c->tables[at], (size_t)(c->n_tables - at) * sizeof *s);
    c->tables[at] = *s;
    c->n_tables++;
    if (c->sel >= at && c->n_tables > 1 && c->sel + 1 < c->n_tables)
        c->sel++;
}

static int on_lobby(cn *c, const json_t *m, char *why, size_t cap)
{
    const json_t *list = json_object_get(m, "tables");
    if (!json_is_array(list))
        return fail(why, cap, "a lobby message without tables");
    int64_t selected = c->sel < c->n_tables ? c->tables[c->sel].id : -1;
    c->n_tables = 0;
    size_t i;
    const json_t *v;
    int bad = 0;
    json_array_foreach(list, i, v)
    {
        cn_summary s;
        if (read_summary(v, &s) == 0)
            table_put(c, &s);
        else
            bad++;
    }
    int at = find_table(c, selected);
    c->sel = at >= 0 ? at : c->sel < c->n_tables ? c->sel : c->n_tables > 0 ? c->n_tables - 1 : 0;
    if (c->screen == CN_TABLE && c->rejoin_id == 0 && c->leaving)
        c->screen = CN_LOBBY;
    c->leaving = false;
    if (bad)
        return fail(why, cap, "%d table%s of the lobby did not read", bad, bad == 1 ? "" : "s");
    return 0;
}

/* ------------------------------------------------------------------ chat */

static int on_chat(cn *c, const json_t *m, char *why, size_t cap)
{
    const char *from = get_str(m, "from"), *text = get_str(m, "text");
    const char *scope = get_str(m, "scope");
    if (from == NULL || text == NULL)
        return fail(why, cap, "a chat message without from or text");
    if (c->n_chat == CN_CHAT_LINES) {
        memmove(&c->chat[0], &c->chat[1], sizeof c->chat[0] * (CN_CHAT_LINES - 1));
        c->n_chat--;
    }
    cn_chat_line *l = &c->chat[c->n_chat++];
    l->kind = scope != NULL && strcmp(scope, "lobby") == 0 ? CN_CHAT_LOBBY : CN_CHAT_TABLE;
    l->aside = scope != NULL && strcmp(scope, "kibitzers") == 0;
    copy(l->from, sizeof l->from, from);
    copy(l->text, sizeof l->text, text);
    /* Control characters never reach the screen. */
    for (char *p = l->text; *p; p++)
        if ((unsigned char)*p < ' ' || *p == 127)
            *p = ' ';
    c->chat_scroll = 0;
    /* A terminal without room for the chat panel shows the line in the
     * message line. */
    if (c->screen == CN_TABLE && l->kind == CN_CHAT_TABLE && !c->chat_panel)
        play_message(&c->ui, false, "%s%s: %s", l->aside ? "[kibitzers] " : "", l->from, l->text);
    return 0;
}

/* --------------------------------------------------------- score, record */

static int on_score(cn *c, const json_t *m, char *why, size_t cap)
{
    const json_t *deals = json_object_get(m, "deals");
    const json_t *totals = json_object_get(m, "totals");
    const json_t *players = json_object_get(m, "players");
    const char *sheet = get_str(m, "sheet");
    if (!json_is_array(deals))
        return fail(why, cap, "a score message without deals");
    bool ours = c->screen == CN_TABLE && get_int(m, "table", -1) == c->table.id && c->have_rules;
    /* The deals so far, for barbu play's sheet ('s'). */
    if (ours) {
        barbu_result *rs = calloc(json_array_size(deals) + 1, sizeof *rs);
        size_t i, n = 0;
        const json_t *v;
        bool ok = rs != NULL;
        json_array_foreach(deals, i, v)
        {
            proto_error err = {0};
            if (!ok || proto_result_parse(v, &c->rules, &rs[n], &err) != 0) {
                ok = false;
                break;
            }
            n++;
        }
        if (ok) {
            results_clear(c);
            for (size_t k = 0; k < n; k++)
                if (!results_add(c, &rs[k]))
                    break;
        }
        free(rs);
    }
    if (!c->want_score)
        return 0;
    c->want_score = false;

    /* The window: each deal, the totals, then the sheet as text. */
    char **lines = NULL;
    int n = 0, cap_lines = 0;
#define LINE(...)                                                                                  \
    do {                                                                                           \
        if (n == cap_lines) {                                                                      \
            cap_lines = cap_lines ? cap_lines * 2 : 64;                                            \
            char **p_ = realloc(lines, (size_t)cap_lines * sizeof *p_);                            \
            if (p_ == NULL)                                                                        \
                goto done;                                                                         \
            lines = p_;                                                                            \
        }                                                                                          \
        char buf_[512];                                                                            \
        snprintf(buf_, sizeof buf_, __VA_ARGS__);                                                  \
        lines[n] = strdup(buf_);                                                                   \
        if (lines[n] != NULL)                                                                      \
            n++;                                                                                   \
    } while (0)
    {
        char who[4][CN_NAME_CAP];
        for (int s = 0; s < 4; s++) {
            const char *p = json_string_value(json_array_get(players, (size_t)s));
            copy(who[s], sizeof who[s], p && *p ? p : SEAT_WORDS[s]);
        }
        LINE("Table %lld: %s", (long long)get_int(m, "table", 0),
             json_array_size(deals) == 0 ? "no deal has been completed yet" : "the deals so far");
        LINE("%s", "");
        LINE("%-5s %-4s %-26s %8.8s %8.8s %8.8s %8.8s", "deal", "decl", "contract", who[0], who[1],
             who[2], who[3]);
        size_t i;
        const json_t *d;
        json_array_foreach(deals, i, d)
        {
            char label[96] = "";
            const json_t *keys = json_object_get(d, "contracts");
            size_t k;
            const json_t *key;
            json_array_foreach(keys, k, key)
            {
                const char *kk = json_string_value(key);
                int idx = c->have_rules && kk ? barbu_contract_find(&c->rules, kk) : -1;
                size_t len = strlen(label);
                snprintf(label + len, sizeof label - len, "%s%s", len ? " + " : "",
                         idx >= 0 ? c->rules.contract[idx].name
                         : kk     ? kk
                                  : "?");
            }
            const char *trump = get_str(d, "trump"), *rank = get_str(d, "rank");
            size_t len = strlen(label);
            if (trump)
                snprintf(label + len, sizeof label - len, " %s", trump);
            else if (rank)
                snprintf(label + len, sizeof label - len, " from %s", rank);
            if (json_is_false(json_object_get(d, "played"))) {
                len = strlen(label);
                snprintf(label + len, sizeof label - len, " (shared)");
            }
            const json_t *sc = json_object_get(d, "score");
            LINE("%5lld %-4s %-26.26s %+8lld %+8lld %+8lld %+8lld",
                 (long long)get_int(d, "deal", 0) + 1,
                 get_str(d, "declarer") ? get_str(d, "declarer") : "?", label,
                 (long long)json_integer_value(json_array_get(sc, 0)),
                 (long long)json_integer_value(json_array_get(sc, 1)),
                 (long long)json_integer_value(json_array_get(sc, 2)),
                 (long long)json_integer_value(json_array_get(sc, 3)));
        }
        LINE("%-37s %+8lld %+8lld %+8lld %+8lld", "total",
             (long long)json_integer_value(json_array_get(totals, 0)),
             (long long)json_integer_value(json_array_get(totals, 1)),
             (long long)json_integer_value(json_array_get(totals, 2)),
             (long long)json_integer_value(json_array_get(totals, 3)));
        if (sheet != NULL && *sheet) {
            LINE("%s", "");
            LINE("%s", "The score sheet:");
            LINE("%s", "");
            for (const char *p = sheet; *p;) {
                const char *end = strchr(p, '\n');
                int len2 = end ? (int)(end - p) : (int)strlen(p);
                LINE("%.*s", len2 > 500 ? 500 : len2, p);
                if (end == NULL)
                    break;
                p = end + 1;
            }
        }
    }
#undef LINE
done:
    cn_score_set(c, lines, n);
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
    c->overlay = CN_SCORE;
    return 0;
}

/* Writes a file whole (a temporary file, then a rename); errno on failure. */
static int write_whole(const char *path, const char *text, size_t len)
{
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.part", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL)
        return -1;
    bool ok = fwrite(text, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

static int on_record(cn *c, const json_t *m, char *why, size_t cap)
{
    const char *text = get_str(m, "text");
    json_int_t table = get_int(m, "table", -1);
    if (text == NULL || table < 0)
        return fail(why, cap, "a record message without table or text");
    char path[4200], name[64];
    snprintf(name, sizeof name, "barbu-table-%lld.txt", (long long)table);
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) == NULL)
        snprintf(cwd, sizeof cwd, ".");
    snprintf(path, sizeof path, "%s/%s", cwd, name);
    if (write_whole(path, text, strlen(text)) != 0) {
        cn_status(c, true, "The record could not be written to %s: %s", path, strerror(errno));
        return 0;
    }
    cn_status(c, false, "The %s record of table %lld is in %s",
              get_bool(m, "complete") ? "complete" : "partial", (long long)table, path);
    return 0;
}

/* ------------------------------------------------ welcome, error, bye */

static int on_welcome(cn *c, const json_t *m, char *why, size_t cap)
{
    const char *token = get_str(m, "token"), *name = get_str(m, "name");
    if (token == NULL || name == NULL)
        return fail(why, cap, "a welcome without name or token");
    c->conn = CN_READY;
    c->attempts = 0;
    copy(c->server, sizeof c->server, get_str(m, "server"));
    copy(c->name, sizeof c->name, name);
    if (strcmp(token, c->token) != 0)
        cn_token_save(c, token);
    /* A resumed session gets its table back (a table message follows);
     * until it comes the table screen stays, then the lobby. */
    if (c->screen == CN_TABLE) {
        c->rejoin_id = c->table.id;
        c->rejoin_until = cn_now_ms() + REJOIN_WAIT_MS;
    }
    cn_note(c, "Connected to %s as %s.", c->server[0] ? c->server : c->url, c->name);
    cn_status(c, false, "Connected as %s.", c->name);
    cn_welcomed(c, m);
    /* A table that moved to this node: what was asked there, asked here. */
    cn_redo(c);
    return 0;
}

static int on_error(cn *c, const json_t *m, char *why, size_t cap)
{
    const char *code = get_str(m, "code"), *text = get_str(m, "text"), *re = get_str(m, "re");
    if (code == NULL)
        return fail(why, cap, "an error without code");
    if (text == NULL)
        text = code;
    if (re != NULL && strcmp(re, "hello") == 0) {
        if (strcmp(code, "bad_token") == 0) {
            /* The server has forgotten the session: start a new one. */
            cn_token_save(c, NULL);
            cn_note(c, "The server no longer knows this session; starting a new one.");
            cn_on_open(c);
            return 0;
        }
        if (cn_hello_refused(c, code, text))
            return 0;
        if (strcmp(code, "hello_twice") != 0) {
            cn_status(c, true, "The server refused us (%s): %s", code, text);
            snprintf(c->conn_why, sizeof c->conn_why, "refused: %s", text);
            c->fatal = true;
            cn_net_drop(c, true);
            return 0;
        }
    }
    if (strcmp(code, "not_at_table") == 0 && c->screen == CN_TABLE) {
        c->screen = CN_LOBBY;
        cn_send_tables(c);
    }
    if (re != NULL && strcmp(re, "score") == 0)
        c->want_score = false;
    if (re != NULL && strcmp(re, "hint") == 0)
        c->hint_asked = false;
    c->hops = 0;
    cn_status(c, true, "%s%s%s", re ? re : "", re ? ": " : "", text);
    return 0;
}

/* Something the server tells the people at the table (a move it could not
 * save, say): in the chat panel, where it stays, and in the status line. */
static int on_notice(cn *c, const json_t *m, char *why, size_t cap)
{
    const char *text = get_str(m, "text"), *code = get_str(m, "code");
    if (text == NULL)
        return fail(why, cap, "a notice without text");
    char clean[300];
    copy(clean, sizeof clean, text);
    /* Control characters never reach the screen. */
    for (char *p = clean; *p; p++)
        if ((unsigned char)*p < ' ' || *p == 127)
            *p = ' ';
    cn_note(c, "%s", clean);
    cn_status(c, code != NULL && strstr(code, "failed") != NULL, "%s", clean);
    return 0;
}

static int on_bye(cn *c, const json_t *m, char *why, size_t cap)
{
    (void)why;
    (void)cap;
    const char *reason = get_str(m, "reason");
    if (reason == NULL)
        reason = "?";
    if (cn_account_bye(c, reason))
        return 0;
    if (strcmp(reason, "replaced") == 0) {
        snprintf(c->conn_why, sizeof c->conn_why,
                 "another connection took this session over (bye: replaced)");
        cn_note(c, "Another connection took this session over: this one stops (r reconnects).");
        cn_net_drop(c, true);
    } else {
        snprintf(c->conn_why, sizeof c->conn_why, "the server said goodbye: %s", reason);
        cn_note(c, "The server said goodbye (%s).", reason);
        cn_net_drop(c, false);
    }
    return 0;
}

/* ------------------------------------------------------------ dispatch */

void cn_on_open(cn *c)
{
    json_t *m = json_object();
    json_object_set_new(m, "type", json_string("hello"));
    json_object_set_new(m, "version", json_integer(PROTO_VERSION));
    json_object_set_new(m, "name", json_string(c->name));
    /* The lobby screen shows the lobby's chat, which comes only when asked. */
    json_object_set_new(m, "lobby_chat", json_true());
    if (c->token[0])
        json_object_set_new(m, "token", json_string(c->token));
    c->token_resumed = c->token[0] != '\0';
    cn_hello_fields(c, m);
    cn_send(c, m);
}

void cn_on_closed(cn *c, const char *why)
{
    if (c->conn_why[0] == '\0' || c->conn == CN_OFFLINE)
        snprintf(c->conn_why, sizeof c->conn_why, "%s", why ? why : "the connection ended");
    if (c->was_ready)
        cn_note(c, "Connection lost: %s.", why ? why : "?");
    c->was_ready = false;
    c->want_score = false;
    /* A hint asked is answered on this connection or never: the server
     * does not send it again, so ? asks anew once connected. */
    c->hint_asked = false;
}

static int on_hint(cn *c, const json_t *m, char *why, size_t cap);

void cn_on_message(cn *c, const char *text, size_t len)
{
    json_error_t jerr;
    json_t *m = json_loadb(text, len, 0, &jerr);
    char why[300] = "";
    const char *type = json_is_object(m) ? get_str(m, "type") : NULL;
    int rc = 0;
    if (!json_is_object(m))
        rc = fail(why, sizeof why, "not a JSON object (%s)", jerr.text);
    else if (type == NULL)
        rc = fail(why, sizeof why, "no type");
    else if (strcmp(type, "welcome") == 0)
        rc = on_welcome(c, m, why, sizeof why);
    else if (strcmp(type, "lobby") == 0)
        rc = on_lobby(c, m, why, sizeof why);
    else if (strcmp(type, "listed") == 0) {
        /* The summary as "table" (or, leniently, the message itself). */
        const json_t *o = json_object_get(m, "table");
        cn_summary s;
        if (read_summary(json_is_object(o) ? o : m, &s) == 0)
            table_put(c, &s);
        else
            rc = fail(why, sizeof why, "a listed table without id or seats");
    } else if (strcmp(type, "closed") == 0) {
        int i = find_table(c, get_int(m, "table", -1));
        if (i >= 0) {
            memmove(&c->tables[i], &c->tables[i + 1],
                    (size_t)(c->n_tables - i - 1) * sizeof c->tables[0]);
            c->n_tables--;
            if (c->sel >= c->n_tables && c->sel > 0)
                c->sel--;
        }
    } else if (strcmp(type, "created") == 0) {
        cn_status(c, false, "Table %lld is created.", (long long)get_int(m, "table", 0));
    } else if (strcmp(type, "table") == 0)
        rc = on_table(c, m, why, sizeof why);
    else if (strcmp(type, "hint") == 0)
        rc = on_hint(c, m, why, sizeof why);
    else if (strcmp(type, "view") == 0)
        rc = on_view(c, m, why, sizeof why);
    else if (strcmp(type, "chat") == 0)
        rc = on_chat(c, m, why, sizeof why);
    else if (strcmp(type, "score") == 0)
        rc = on_score(c, m, why, sizeof why);
    else if (strcmp(type, "record") == 0)
        rc = on_record(c, m, why, sizeof why);
    else if (strcmp(type, "error") == 0)
        rc = on_error(c, m, why, sizeof why);
    else if (strcmp(type, "bye") == 0)
        rc = on_bye(c, m, why, sizeof why);
    else if (strcmp(type, "moved") == 0) {
        /* Another node serves the table (docs/protocol.md, Nodes). */
        json_int_t table = get_int(m, "table", -1);
        if (table < 0)
            rc = fail(why, sizeof why, "a moved message without table");
        else
            cn_follow(c, table, get_str(m, "url"));
    } else if (strcmp(type, "notice") == 0)
        rc = on_notice(c, m, why, sizeof why);
    else if (strcmp(type, "preferences") == 0) {
        /* A registered player's look in the browser (the table's colour, the
         * cards): the terminal draws its own, so there is nothing to do. */
    } else if (!cn_account_message(c, type, m))
        rc = fail(why, sizeof why, "the type '%.40s' is unknown here", type);
    if (rc != 0)
        cn_status(c, true, "A server message was ignored: %s.", why);
    json_decref(m);
    if (c->conn == CN_READY)
        c->was_ready = true;
    c->dirty = true;
}

/* -------------------------------------------------------- what we send */

void cn_send_tables(cn *c)
{
    send(c, msg_new(c, "tables"));
}

const char *const CN_LEVELS[CN_N_LEVELS] = {"easy", "medium", "hard", "random"};
static const char *const KIBITZ[] = {"seat", "all", "none"};
static const char *const TAKEOVER[] = {"vote", "bot"};

void cn_send_create(cn *c)
{
    const cn_form *f = &c->form;
    const char *preset = barbu_preset_name(f->preset);
    json_t *m = msg_new(c, "create");
    if (m == NULL || preset == NULL) {
        json_decref(m);
        return;
    }
    json_object_set_new(m, "rules", json_string(preset));
    if (f->seed[0]) {
        uint64_t seed;
        if (barbu_seed_parse(f->seed, &seed) != 0) {
            cn_status(c, true, "The seed is a whole number from 0 to 18446744073709551615.");
            json_decref(m);
            return;
        }
        json_object_set_new(m, "seed", json_string(f->seed));
    }
    if (f->house[0]) {
        FILE *fp = fopen(f->house, "r");
        char text[PROTO_MAX_HOUSE + 2];
        size_t n = fp ? fread(text, 1, sizeof text - 1, fp) : 0;
        if (fp == NULL || ferror(fp) || n > PROTO_MAX_HOUSE) {
            cn_status(c, true, "The house rules file %s %s.", f->house,
                      fp == NULL ? "cannot be read" : "is over 4096 bytes");
            if (fp)
                fclose(fp);
            json_decref(m);
            return;
        }
        fclose(fp);
        text[n] = '\0';
        json_object_set_new(m, "house", json_string(text));
    }
    json_object_set_new(m, "kibitz", json_string(KIBITZ[f->kibitz]));
    json_object_set_new(m, "takeover", json_string(TAKEOVER[f->takeover]));
    json_object_set_new(m, "level", json_string(CN_LEVELS[f->level]));
    if (f->household)
        json_object_set_new(m, "household", json_true());
    if (f->kibitz_chat)
        json_object_set_new(m, "kibitz_chat", json_true());
    char *end;
    long delay = strtol(f->delay, &end, 10), grace = 0;
    if (f->delay[0] == '\0' || *end != '\0' || delay < 0 || delay > 5000) {
        cn_status(c, true, "The delay is from 0 to 5000 ms.");
        json_decref(m);
        return;
    }
    grace = strtol(f->grace, &end, 10);
    if (f->grace[0] == '\0' || *end != '\0' || grace < 0 || grace > 3600) {
        cn_status(c, true, "The grace period is from 0 to 3600 seconds.");
        json_decref(m);
        return;
    }
    json_object_set_new(m, "delay", json_integer(delay));
    json_object_set_new(m, "grace", json_integer(grace));
    if (f->bots) {
        unsigned seats = f->seat < 4 ? 0xfu & ~(1u << f->seat) : 0xfu;
        json_object_set_new(m, "bots", proto_seats_json(seats));
    }
    if (f->seat < 4)
        json_object_set_new(m, "sit", json_string(barbu_seat_name(f->seat)));
    if (f->ladder)
        json_object_set_new(m, "ladder", json_true());
    if (f->hints && !f->ladder)
        json_object_set_new(m, "hints", json_true());
    if (send(c, m))
        cn_status(c, false, "Creating a table (%s)...", preset);
}

/* A sit or kibitz that a moved answer may ask to send again elsewhere. */
static void asked(cn *c, int64_t table, int seat, bool sit)
{
    c->asked_table = table;
    c->asked_seat = seat;
    c->asked_sit = sit;
}

void cn_send_sit(cn *c, int64_t table, int seat)
{
    asked(c, table, seat, true);
    json_t *m = msg_new(c, "sit");
    json_object_set_new(m, "table", json_integer(table));
    json_object_set_new(m, "seat", json_string(barbu_seat_name(seat)));
    send(c, m);
}

void cn_send_kibitz(cn *c, int64_t table, int seat)
{
    asked(c, table, seat, false);
    json_t *m = msg_new(c, "kibitz");
    json_object_set_new(m, "table", json_integer(table));
    json_object_set_new(m, "seat", json_string(proto_seat_name(seat)));
    send(c, m);
}

void cn_send_leave(cn *c)
{
    if (!send(c, msg_new(c, "leave")))
        return;
    /* The lobby at once: the server's lobby message follows. */
    c->screen = CN_LOBBY;
    c->leaving = true;
    c->overlay = CN_NO_OVERLAY;
    c->have_view = false;
    c->table.id = -1;
    cn_send_tables(c);
    cn_status(c, false, "You left the table.");
}

void cn_send_bot(cn *c, int seat)
{
    json_t *m = msg_new(c, "bot");
    json_object_set_new(m, "seat", json_string(barbu_seat_name(seat)));
    if (send(c, m))
        play_message(&c->ui, false, "Asking for a computer player at %s...", SEAT_WORDS[seat]);
}

void cn_send_act(cn *c, const barbu_action *action)
{
    json_t *a = proto_action_json(&c->rules, action, true);
    if (a == NULL) {
        play_message(&c->ui, true, "That action cannot be written down.");
        return;
    }
    json_object_del(a, "seat");
    json_t *m = msg_new(c, "act");
    json_object_set_new(m, "action", a);
    json_object_set_new(m, "at", json_integer(c->at));
    send(c, m);
}

void cn_send_hint(cn *c)
{
    c->hint_asked = true;
    c->hint_shown = false;
    c->hint_at = c->at;
    send(c, msg_new(c, "hint"));
}

/* The computer's choice for our decision: said in the message line, as
 * barbu play says an action, while the view it was asked for is shown. */
static int on_hint(cn *c, const json_t *m, char *why, size_t cap)
{
    c->hint_asked = false;
    json_int_t table = get_int(m, "table", -1), at = get_int(m, "at", -1);
    if (c->screen != CN_TABLE || table != c->table.id || !c->have_view || at != (json_int_t)c->at)
        return 0; /* the table moved on meanwhile */
    barbu_action a;
    const json_t *aj = json_object_get(m, "action");
    if (!json_is_object(aj) || read_action(aj, &c->rules, &a) != 0)
        return fail(why, cap, "a hint whose action does not read");
    char text[200];
    play_describe(&c->ui, &c->ui.view.t, &a, text, sizeof text);
    const char *level = get_str(m, "level");
    play_message(&c->ui, false, "Hint (%s): %s", level ? level : "medium", text);
    c->hint_shown = true;
    c->dirty = true;
    return 0;
}

void cn_send_chat(cn *c, const char *text)
{
    json_t *t = json_string(text);
    if (t == NULL) {
        cn_status(c, true, "The chat line is not valid UTF-8.");
        return;
    }
    json_t *m = msg_new(c, "chat");
    json_object_set_new(m, "text", t);
    send(c, m);
}

void cn_send_score(cn *c)
{
    json_t *m = msg_new(c, "score");
    if (c->screen == CN_TABLE)
        json_object_set_new(m, "table", json_integer(c->table.id));
    send(c, m);
}

void cn_send_record(cn *c)
{
    json_t *m = msg_new(c, "record");
    json_object_set_new(m, "table", json_integer(c->table.id));
    if (send(c, m))
        cn_status(c, false, "Asking for the record of table %lld...", (long long)c->table.id);
}
