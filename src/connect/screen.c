/*
 * screen.c - what barbu connect shows and what its keys do.
 *
 * The lobby is this file's own: the tables, live; the lobby chat; a form
 * for a new table.  At a table, the terminal table (src/tui) draws the view
 * the server sent (play_paint) and its keys compose the action (play_key); this
 * file adds the panel beside or under it (the connection, the seats with
 * who is away, the kibitzers, the chat) and the keys barbu play does not
 * have: / chats, ! opens the table's menu (the server's score window, the
 * record, a computer player for a seat, leaving).  On a terminal with no
 * room for the panel the same things open as windows over the table.
 */
#include <curses.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "connect.h"
#include "draw.h"

#define KEY_ESC 27

static const char *const SEAT_WORDS[] = {"North", "East", "South", "West"};
static const char *const KIBITZ[] = {"seat", "all", "none"};
static const char *const TAKEOVER[] = {"vote", "bot"};

/* The parts of the table screen: the table (barbu play's canvas) and the
 * panel beside it (side) or under it; no panel on a small terminal. */
typedef struct layout {
    int ty, tx, th, tw;
    int py, px, ph, pw;
    bool panel, side;
} layout;

static void table_layout(layout *l)
{
    memset(l, 0, sizeof *l);
    l->th = LINES;
    l->tw = COLS;
    if (COLS >= CANVAS_W + 30) {
        l->panel = l->side = true;
        l->pw = COLS - CANVAS_W - 1 > 50 ? 50 : COLS - CANVAS_W - 1;
        l->px = COLS - l->pw;
        l->ph = LINES;
        l->tw = COLS - l->pw - 1;
    } else if (LINES >= CANVAS_H + 7) {
        l->panel = true;
        l->th = CANVAS_H;
        l->py = CANVAS_H;
        l->ph = LINES - CANVAS_H;
        l->pw = COLS;
    }
}

/* --------------------------------------------------------------- helpers */

static void put(int y, int x, int w, attr_t a, const char *text)
{
    if (y >= 0 && y < LINES && x < COLS)
        scr_put(y, x, w, a, text);
}

static void putf(int y, int x, int w, attr_t a, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void putf(int y, int x, int w, attr_t a, const char *fmt, ...)
{
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    put(y, x, w, a, buf);
}

static void rule_line(int y, int x, int w)
{
    if (y >= 0 && y < LINES && w > 0)
        mvhline(y, x, scr_utf8() ? ACS_HLINE : '-', w);
}

/* The connection in a few words; alert when it is not up. */
static const char *conn_text(const cn *c, bool *alert, char *buf, size_t cap)
{
    *alert = c->conn != CN_READY;
    switch (c->conn) {
    case CN_READY:
        snprintf(buf, cap, "%s",
                 !c->tls          ? "connected"
                 : c->self_signed ? "connected, certificate NOT checked"
                                  : "connected (TLS)");
        break;
    case CN_CONNECTING:
    case CN_HELLO:
        snprintf(buf, cap, "connecting%s", scr_glyph("\u2026", "..."));
        break;
    case CN_OFFLINE: {
        long long left = (c->retry_at - cn_now_ms() + 999) / 1000;
        snprintf(buf, cap, "offline: retry in %llds", left > 0 ? left : 0);
        break;
    }
    default:
        snprintf(buf, cap, "stopped: r reconnects");
        break;
    }
    return buf;
}

/* The chat lines of a scope (and the notes), newest at the bottom of the
 * box (y, x, h, w), wrapped. */
static void draw_chat(const cn *c, int y, int x, int h, int w, bool lobby)
{
    if (h <= 0 || w <= 4)
        return;
    int row = y + h;
    int skip = c->chat_scroll;
    for (int i = c->n_chat - 1; i >= 0 && row > y; i--) {
        const cn_chat_line *l = &c->chat[i];
        if (l->kind == (lobby ? CN_CHAT_TABLE : CN_CHAT_LOBBY))
            continue;
        if (skip > 0) {
            skip--;
            continue;
        }
        char text[PROTO_MAX_CHAT + CN_NAME_CAP + 8];
        /* Kibitzers' talk during a game is marked: the players do not hear it. */
        const char *tag = l->aside ? "[kibitzers] " : "";
        if (l->kind == CN_CHAT_NOTE)
            snprintf(text, sizeof text, "%s %s", scr_glyph("\u00b7", "*"), l->text);
        else
            snprintf(text, sizeof text, "%s%s: %s", tag, l->from, l->text);
        int n = scr_put_wrapped(-1, 0, w, 2, 6, A_NORMAL, text);
        int top = row - n;
        if (top < y) {
            /* Only the lines that fit: draw the whole and let the top go. */
            break;
        }
        attr_t a = l->kind == CN_CHAT_NOTE ? A_DIM : A_NORMAL;
        scr_put_wrapped(top, x, w, 2, 6, a, text);
        if (l->aside)
            put(top, x, w, scr_colour(PAIR_INFO), tag);
        if (l->kind != CN_CHAT_NOTE)
            put(top, x + (int)strlen(tag), w - (int)strlen(tag), A_BOLD, l->from);
        row = top;
    }
}

/* The chat line being typed (or the hint to open it). */
static void draw_input(const cn *c, int y, int x, int w)
{
    /* A kibitzer's line during a game reaches the kibitzers only (unless
     * the table allows more): say so before it is typed. */
    const cn_table *t = &c->table;
    bool aside = c->screen == CN_TABLE && t->you_seat < 0 && !t->kibitz_chat &&
                 (strcmp(t->state, "playing") == 0 || strcmp(t->state, "paused") == 0);
    if (!c->typing) {
        put(y, x, w, A_DIM, aside ? "/ chat: kibitzers only" : "/ to chat");
        return;
    }
    put(y, x, 2, A_BOLD, aside ? "k>" : ">");
    /* The end of the line shows when it is longer than the room. */
    const char *p = c->line;
    int room = w - 3;
    while (scr_text_width(p) > room - 1 && *p)
        for (p++; ((unsigned char)*p & 0xc0) == 0x80; p++)
            ;
    put(y, x + 2, room, A_NORMAL, p);
    put(y, x + 2 + scr_text_width(p), 1, A_REVERSE, " ");
}

/* ------------------------------------------------------------- the lobby */

static void seat_cell(const cn_summary *s, int k, char *buf, size_t cap, attr_t *a)
{
    *a = A_NORMAL;
    if (!s->seat[k].taken) {
        snprintf(buf, cap, "%s", scr_glyph("\u00b7 free", "- free"));
        *a = A_DIM;
    } else if (s->seat[k].name[0] == '\0') {
        snprintf(buf, cap, "(taken)");
    } else {
        snprintf(buf, cap, "%s%s%s", s->seat[k].name,
                 !s->seat[k].bot && !s->seat[k].registered ? " (guest)" : "",
                 s->seat[k].away ? " (away)" : "");
        if (s->seat[k].bot)
            *a = A_DIM;
        if (s->seat[k].away)
            *a = scr_colour(PAIR_TURN);
    }
}

static void draw_form(const cn *c)
{
    const cn_form *f = &c->form;
    int n_presets = 0;
    while (barbu_preset_name(n_presets) != NULL)
        n_presets++;
    int w = COLS - 2 < 90 ? COLS - 2 : 90, h = CN_F_COUNT + 7;
    int y = (LINES - h) / 2 > 0 ? (LINES - h) / 2 : 0, x = (COLS - w) / 2 > 0 ? (COLS - w) / 2 : 0;
    scr_frame(y, x, h, w, "A new table");
    static const char *const LABEL[CN_F_COUNT] = {
        "Rules",    "Seed",    "Your seat", "Computer players", "Their level", "Kibitzers",
        "Delay ms", "Grace s", "Takeover",  "Household",        "Kibitz chat", "House rules file",
        "Ladder",   "Hints",   ""};
    for (int i = 0; i < CN_F_COUNT; i++) {
        int row = y + 2 + i;
        bool on = f->field == i;
        attr_t a = on ? A_REVERSE | A_BOLD : A_NORMAL;
        if (i == CN_F_CREATE) {
            put(row + 1, x + 20, 12, a, "[ Create ]");
            continue;
        }
        put(row, x + 2, 17, on ? A_BOLD : A_NORMAL, LABEL[i]);
        char value[300], note[120] = "";
        bool text = false;
        switch (i) {
        case CN_F_RULES:
            snprintf(value, sizeof value, "%s", barbu_preset_name(f->preset));
            snprintf(note, sizeof note, "%d presets", n_presets);
            break;
        case CN_F_SEED:
            snprintf(value, sizeof value, "%s", f->seed);
            snprintf(note, sizeof note, "%s",
                     f->seed[0] ? "told to all: you know every deal" : "empty: a fresh one");
            text = true;
            break;
        case CN_F_SEAT:
            snprintf(value, sizeof value, "%s", f->seat < 4 ? SEAT_WORDS[f->seat] : "none");
            snprintf(note, sizeof note, "%s", f->seat < 4 ? "" : "create it, do not sit");
            break;
        case CN_F_BOTS:
            snprintf(value, sizeof value, "%s", f->bots ? "in the empty seats" : "none");
            break;
        case CN_F_LEVEL:
            snprintf(value, sizeof value, "%s", CN_LEVELS[f->level]);
            snprintf(note, sizeof note, "%s",
                     f->level == 0   ? "rules of thumb"
                     : f->level == 1 ? "searches, about 0.01 s a move"
                     : f->level == 2 ? "searches ten times longer"
                                     : "any legal card");
            break;
        case CN_F_KIBITZ:
            snprintf(value, sizeof value, "%s", KIBITZ[f->kibitz]);
            snprintf(note, sizeof note, "%s",
                     f->kibitz == 0   ? "watch one seat's hand"
                     : f->kibitz == 1 ? "may watch every hand"
                                      : "no kibitzers");
            break;
        case CN_F_DELAY:
            snprintf(value, sizeof value, "%s", f->delay);
            snprintf(note, sizeof note, "a computer player's pause, 0-5000");
            text = true;
            break;
        case CN_F_GRACE:
            snprintf(value, sizeof value, "%s", f->grace);
            snprintf(note, sizeof note, "a lost player's seat is held, 0-3600");
            text = true;
            break;
        case CN_F_TAKEOVER:
            snprintf(value, sizeof value, "%s", TAKEOVER[f->takeover]);
            snprintf(note, sizeof note, "%s",
                     f->takeover ? "a computer player then" : "the others decide then");
            break;
        case CN_F_HOUSEHOLD:
            snprintf(value, sizeof value, "%s", f->household ? "yes" : "no");
            snprintf(note, sizeof note, "%s",
                     f->household ? "a player's address or browser may watch (a family)"
                                  : "a player's address or browser may not watch");
            break;
        case CN_F_KIBITZ_CHAT:
            snprintf(value, sizeof value, "%s", f->kibitz_chat ? "yes" : "no");
            snprintf(note, sizeof note, "%s",
                     f->kibitz_chat ? "kibitzers may talk to the players in the game"
                                    : "kibitzers talk among themselves in the game");
            break;
        case CN_F_LADDER:
            snprintf(value, sizeof value, "%s", f->ladder ? "yes" : "no");
            snprintf(note, sizeof note, "%s",
                     f->ladder ? "registered players only; no seed, no computer players"
                               : "anyone may sit");
            break;
        case CN_F_HINTS:
            snprintf(value, sizeof value, "%s", f->hints ? "yes" : "no");
            snprintf(note, sizeof note, "%s",
                     f->hints ? "a player may ask the computer at their turn (the ? key)"
                              : "no hints");
            break;
        default:
            snprintf(value, sizeof value, "%s", f->house);
            snprintf(note, sizeof note, "%s", f->house[0] ? "" : "empty: none");
            text = true;
            break;
        }
        if (text)
            putf(row, x + 20, 22, a, "[%-20.20s]", value);
        else
            putf(row, x + 20, 22, a, "%s %s %s", scr_glyph("\u25c2", "<"), value,
                 scr_glyph("\u25b8", ">"));
        scr_put_ellipsis(row, x + 44, w - 46, A_DIM, note);
    }
    /* What the preset is, in the booklet's words. */
    char about[200];
    snprintf(about, sizeof about, "%s: %s", barbu_preset_name(f->preset),
             barbu_preset_about(f->preset));
    scr_put_ellipsis(y + h - 3, x + 2, w - 4, A_NORMAL, about);
    put(y + h - 2, x + 2, w - 4, A_DIM,
        "Up/Down field  Left/Right choose  type to edit  Enter create  Esc cancel");
}

static void draw_lobby(cn *c)
{
    erase();
    scr_set_origin(0, 0);
    attr_t bar = scr_colour(PAIR_TITLE) | A_BOLD;
    if (bar == A_BOLD)
        bar |= A_REVERSE;
    attrset(bar);
    mvhline(0, 0, ' ', COLS);
    attrset(A_NORMAL);
    putf(0, 1, COLS - 30, bar, "barbu connect %s %s %s %s", scr_glyph("\u00b7", "-"), c->name,
         scr_glyph("\u00b7", "-"), c->url);
    bool alert;
    char conn[64];
    conn_text(c, &alert, conn, sizeof conn);
    int cw = scr_text_width(conn);
    put(0, COLS - cw - 1, cw, alert ? scr_colour(PAIR_ERROR) | A_BOLD | A_REVERSE : bar, conn);

    /* The tables. */
    int avail = LINES - 6;
    int list_h = c->n_tables + 1;
    int max_list = avail * 3 / 5 > 3 ? avail * 3 / 5 : 3;
    if (list_h > max_list)
        list_h = max_list;
    if (list_h < 2)
        list_h = 2;
    int rows = list_h - 1;
    int nw = (COLS - 2 - 6 - 13 - 9 - 7 - 5) / 4;
    if (nw > 16)
        nw = 16;
    if (nw < 6)
        nw = 6;
    int x_rules = 7, x_state = 20, x_deal = 29, x_seats = 36, x_kib = x_seats + 4 * nw;
    putf(2, 1, COLS - 2, A_BOLD, "Tables (%d)", c->n_tables);
    put(3, 1, 6, A_BOLD, "table");
    put(3, x_rules, 12, A_BOLD, "rules");
    put(3, x_state, 8, A_BOLD, "state");
    put(3, x_deal, 6, A_BOLD, "deal");
    for (int k = 0; k < 4; k++)
        put(3, x_seats + k * nw, nw - 1, A_BOLD, SEAT_WORDS[k]);
    put(3, x_kib, 4, A_BOLD, "kib");
    if (c->sel >= c->n_tables)
        c->sel = c->n_tables > 0 ? c->n_tables - 1 : 0;
    if (c->sel < c->list_top)
        c->list_top = c->sel;
    if (c->sel >= c->list_top + rows)
        c->list_top = c->sel - rows + 1;
    if (c->n_tables == 0)
        put(4, 3, COLS - 4, A_DIM, "No tables yet: n creates one.");
    for (int i = 0; i < rows && c->list_top + i < c->n_tables; i++) {
        const cn_summary *s = &c->tables[c->list_top + i];
        int row = 4 + i;
        bool on = c->list_top + i == c->sel;
        attr_t a = on ? A_REVERSE : A_NORMAL;
        if (on) {
            attrset(A_REVERSE);
            mvhline(row, 0, ' ', COLS);
            attrset(A_NORMAL);
        }
        char id[24];
        snprintf(id, sizeof id, "%s%lld", s->seed_by[0] ? "*" : "", (long long)s->id);
        putf(row, 1, 6, a | A_BOLD, "%5s", id);
        putf(row, x_rules, 12, a, "%s%s%s", s->rules, s->house ? "+house" : "",
             s->ladder ? "+ladder" : "");
        attr_t sa = strcmp(s->state, "paused") == 0    ? scr_colour(PAIR_TURN)
                    : strcmp(s->state, "waiting") == 0 ? scr_colour(PAIR_INFO)
                                                       : A_NORMAL;
        put(row, x_state, 8, a | sa, s->state);
        if (s->deals > 0)
            putf(row, x_deal, 6, a, "%d/%d",
                 s->deal + (strcmp(s->state, "over") ? 1 : 0) > s->deals
                     ? s->deals
                     : s->deal + (strcmp(s->state, "over") ? 1 : 0),
                 s->deals);
        for (int k = 0; k < 4; k++) {
            char cell[CN_NAME_CAP + 24];
            attr_t ca;
            seat_cell(s, k, cell, sizeof cell, &ca);
            scr_put_ellipsis(row, x_seats + k * nw, nw - 1, a | ca, cell);
        }
        putf(row, x_kib, 4, a, "%d", s->kibitzers);
    }

    /* Told before anyone sits: a chosen seed's creator knows every deal. */
    const cn_summary *cur = c->sel < c->n_tables ? &c->tables[c->sel] : NULL;
    bool any_seed = false;
    for (int i = 0; i < c->n_tables; i++)
        any_seed |= c->tables[i].seed_by[0] != '\0';
    if (cur && cur->seed_by[0])
        putf(4 + rows, 1, COLS - 2, scr_colour(PAIR_TURN),
             "* table %lld: seed chosen by %s, who knows every deal", (long long)cur->id,
             cur->seed_by);
    else if (any_seed)
        put(4 + rows, 1, COLS - 2, A_DIM, "* the creator chose the seed and knows every deal");

    /* The lobby chat. */
    int chat_y = 4 + rows + 1;
    rule_line(chat_y, 0, COLS);
    put(chat_y, 2, 20, A_BOLD, " Lobby chat ");
    int chat_h = LINES - 3 - (chat_y + 1);
    draw_chat(c, chat_y + 1, 1, chat_h - 1, COLS - 2, true);
    draw_input(c, LINES - 3, 1, COLS - 2);

    /* The status and the keys. */
    if (c->status[0])
        scr_put_ellipsis(LINES - 2, 1, COLS - 2,
                         c->status_error ? scr_colour(PAIR_ERROR) | A_BOLD : scr_colour(PAIR_INFO),
                         c->status);
    const char *keys = "Up/Down table  Enter sit  k kibitz  n new table  r refresh  / chat  q quit";
    if (c->overlay == CN_PICK_SIT || c->overlay == CN_PICK_WATCH) {
        const cn_summary *s = c->sel < c->n_tables ? &c->tables[c->sel] : NULL;
        char free_seats[32] = "";
        for (int k = 0; s && k < 4; k++)
            if (!s->seat[k].taken)
                snprintf(free_seats + strlen(free_seats), sizeof free_seats - strlen(free_seats),
                         "%s%s", free_seats[0] ? " " : "", barbu_seat_name(k));
        char prompt[160];
        if (c->overlay == CN_PICK_SIT)
            snprintf(prompt, sizeof prompt, "Sit at table %lld: n e s w (free: %s)  Esc cancels",
                     s ? (long long)s->id : 0LL, free_seats[0] ? free_seats : "none");
        else
            snprintf(prompt, sizeof prompt,
                     "Kibitz table %lld: the hand of n e s w, or a for every hand  Esc cancels",
                     s ? (long long)s->id : 0LL);
        put(LINES - 1, 1, COLS - 2, A_BOLD | scr_colour(PAIR_TURN), prompt);
    } else {
        put(LINES - 1, 1, COLS - 2, A_DIM, c->typing ? "Enter sends  Esc cancels" : keys);
    }
    if (c->overlay == CN_FORM)
        draw_form(c);
    refresh();
}

/* --------------------------------------------------------- the table */

static void draw_seats(const cn *c, int y, int x, int w, int max_rows)
{
    const cn_table *t = &c->table;
    long long now = cn_now_ms();
    int row = y;
    for (int s = 0; s < 4 && row < y + max_rows; s++, row++) {
        const cn_seat *st = &t->seat[s];
        bool you = t->you_seat == s;
        putf(row, x, 2, A_BOLD, "%s", barbu_seat_name(s));
        char who[CN_NAME_CAP + 24], what[80];
        attr_t wa = A_NORMAL;
        snprintf(who, sizeof who, "%s%s%s",
                 st->taken       ? st->name
                 : st->player[0] ? st->player
                                 : "-",
                 st->taken && !st->bot && !st->registered ? " (guest)" : "", you ? " (you)" : "");
        if (!st->taken && !st->player[0]) {
            snprintf(what, sizeof what, "free");
            wa = scr_colour(PAIR_INFO);
        } else if (st->bot) {
            snprintf(what, sizeof what, "computer");
            wa = A_DIM;
        } else if (st->away >= 0) {
            snprintf(what, sizeof what, "away %llds%s",
                     (long long)st->away + (now - t->received) / 1000, st->free ? ", free" : "");
            wa = scr_colour(PAIR_TURN) | A_BOLD;
        } else if (!st->taken) {
            snprintf(what, sizeof what, "left%s", st->free ? ", free" : "");
            wa = scr_colour(PAIR_TURN);
        } else if (st->knows_deals) {
            snprintf(what, sizeof what, "%s", st->connected ? "knows the deals" : "offline, knows");
            wa = scr_colour(PAIR_TURN);
        } else {
            snprintf(what, sizeof what, "%s", st->connected ? "here" : "not connected");
        }
        int ww = w - 3 - 16;
        scr_put_ellipsis(row, x + 3, ww > 8 ? ww : 8, you ? A_BOLD : A_NORMAL, who);
        put(row, x + w - 16, 16, wa, what);
    }
    if (row < y + max_rows) {
        if (t->n_kibitzers > 0) {
            char line[300];
            snprintf(line, sizeof line, "kibitzing: %s", t->kibitzers);
            scr_put_ellipsis(row, x, w, A_DIM, line);
        } else {
            put(row, x, w, A_DIM, "no kibitzers");
        }
    }
}

/* The panel beside or under the table. */
static void draw_panel(cn *c, const layout *l)
{
    const cn_table *t = &c->table;
    int x = l->px + 1, w = l->pw - 2, y = l->py;
    if (l->side)
        for (int r = 0; r < LINES; r++)
            mvaddch(r, l->px - 1, scr_utf8() ? ACS_VLINE : '|');
    else
        rule_line(y, 0, COLS);
    bool alert;
    char conn[64];
    conn_text(c, &alert, conn, sizeof conn);
    if (l->side) {
        putf(y, x, w, A_BOLD, "Table %lld %s %s", (long long)t->id, scr_glyph("\u00b7", "-"),
             t->state);
        put(y + 1, x, w, alert ? scr_colour(PAIR_ERROR) | A_BOLD : A_DIM, conn);
        char about[200];
        snprintf(about, sizeof about, "%s%s, kibitz %s, delay %d ms, grace %d s, then %s",
                 t->rules_name, t->house[0] ? " + house" : "", t->kibitz, t->delay, t->grace,
                 t->takeover);
        scr_put_wrapped(y + 2, x, w, 0, 2, A_DIM, about);
        if (t->seed[0])
            putf(y + 4, x, w, A_DIM, "seed %s%s%s", t->seed, t->seed_by[0] ? ", chosen by " : "",
                 t->seed_by);
        else if (t->key[0])
            putf(y + 4, x, w, A_DIM, "%skey %s", t->ladder ? "ladder, " : "", t->key);
        else if (t->commitment[0])
            putf(y + 4, x, w, A_DIM, "%scommitment %s", t->ladder ? "ladder, " : "", t->commitment);
        else if (t->you_seat < 0 && t->kibitz_next >= 0)
            putf(y + 4, x, w, scr_colour(PAIR_INFO), "kibitzing %s, next deal %s",
                 SEAT_WORDS[t->kibitz_seat & 3], SEAT_WORDS[t->kibitz_next & 3]);
        else if (t->you_seat < 0)
            putf(y + 4, x, w, scr_colour(PAIR_INFO),
                 t->kibitz_seat == PROTO_SEAT_ALL ? "kibitzing every hand (v: %s)" : "kibitzing %s",
                 SEAT_WORDS[t->kibitz_seat == PROTO_SEAT_ALL ? c->watch_seat & 3
                                                             : t->kibitz_seat & 3]);
        else if (t->seed_by[0])
            putf(y + 4, x, w, scr_colour(PAIR_TURN), "seed chosen by %s: knows every deal",
                 t->seed_by);
        put(y + 5, x, w, A_BOLD, "Seats");
        draw_seats(c, y + 6, x, w, 5);
        rule_line(y + 12, l->px, l->pw);
        put(y + 12, x + 1, 20, A_BOLD, " Chat ");
        draw_chat(c, y + 13, x, LINES - 2 - (y + 13), w, false);
        draw_input(c, LINES - 2, x, w);
        put(LINES - 1, x, w, A_DIM, "/ chat  ! menu  ? keys  q quit");
        return;
    }
    /* Under the table: the connection and seats in two lines, then chat. */
    putf(y, 2, COLS - 4, A_BOLD, " Table %lld %s %s %s %s ", (long long)t->id,
         scr_glyph("\u00b7", "-"), t->state, scr_glyph("\u00b7", "-"), conn);
    char line[400] = "";
    long long now = cn_now_ms();
    for (int s = 0; s < 4; s++) {
        const cn_seat *st = &t->seat[s];
        size_t n = strlen(line);
        char what[48] = "";
        if (st->bot)
            snprintf(what, sizeof what, " (computer)");
        else if (st->knows_deals)
            snprintf(what, sizeof what, " (knows the deals)");
        else if (st->away >= 0)
            snprintf(what, sizeof what, " (away %llds%s)",
                     (long long)st->away + (now - t->received) / 1000, st->free ? ", free" : "");
        snprintf(line + n, sizeof line - n, "%s%s %s%s", s ? "   " : "", barbu_seat_name(s),
                 st->taken       ? st->name
                 : st->player[0] ? st->player
                                 : "free",
                 what);
    }
    scr_put_ellipsis(y + 1, 1, COLS - 2, A_NORMAL, line);
    draw_chat(c, y + 2, 1, l->ph - 3, COLS - 2, false);
    draw_input(c, LINES - 1, 1, COLS - 2);
}

/* A window over the middle of the table: the menu, a seat to pick,
 * leaving. */
static void draw_box(const layout *l, const char *title, const char *const *text, int n)
{
    int w = 58, h = n + 2;
    int y = l->ty + (l->th - h) / 2, x = l->tx + (l->tw - w) / 2;
    if (x < 0)
        x = 0;
    scr_frame(y, x, h, w, title);
    for (int i = 0; i < n; i++)
        put(y + 1 + i, x + 2, w - 4, text[i][0] == ' ' ? A_NORMAL : A_BOLD, text[i]);
}

static void draw_menu(const cn *c, const layout *l)
{
    const cn_table *t = &c->table;
    const char *text[12];
    int n = 0;
    text[n++] = "  s   the score window: deals, totals, the sheet";
    text[n++] = "  r   save the game record to a file here";
    if (t->you_seat >= 0)
        text[n++] = "  b   put a computer player in a seat";
    text[n++] =
        t->you_seat >= 0 ? "  x   leave the table (your seat is given up)" : "  x   stop kibitzing";
    if (!c->chat_panel) {
        text[n++] = "  w   the seats and the kibitzers";
        text[n++] = "  c   the chat log";
    }
    if (t->you_seat < 0 && t->kibitz_seat == PROTO_SEAT_ALL)
        text[n++] = "  v   show the next seat's hand";
    text[n++] = "  Esc close";
    draw_box(l, "Table menu", text, n);
}

static void draw_score(const cn *c, const layout *l)
{
    int h = l->th, w = l->tw > 100 ? 100 : l->tw;
    int y = l->ty, x = l->tx + (l->tw - w) / 2;
    scr_frame(y, x, h, w, "Score (from the server)");
    int rows = h - 3;
    int max_scroll = c->n_score_lines - rows > 0 ? c->n_score_lines - rows : 0;
    int top = c->score_scroll > max_scroll ? max_scroll : c->score_scroll;
    for (int i = 0; i < rows && top + i < c->n_score_lines; i++)
        put(y + 1 + i, x + 2, w - 4, A_NORMAL, c->score_lines[top + i]);
    put(y + h - 1, x + 2, w - 4, A_DIM, " Up/Down PgUp/PgDn scroll, any other key closes ");
}

static void draw_seats_box(const cn *c, const layout *l)
{
    int w = 60, h = 9;
    int y = l->ty + (l->th - h) / 2, x = l->tx + (l->tw - w) / 2 > 0 ? l->tx + (l->tw - w) / 2 : 0;
    char title[64];
    snprintf(title, sizeof title, "Table %lld: %s", (long long)c->table.id, c->table.state);
    scr_frame(y, x, h, w, title);
    draw_seats(c, y + 2, x + 2, w - 4, 5);
    put(y + h - 1, x + 2, w - 4, A_DIM, " any key ");
}

static void draw_chat_box(const cn *c, const layout *l)
{
    int h = 10, w = l->tw < 80 ? l->tw : 80;
    int y = l->ty + l->th - h, x = l->tx + (l->tw - w) / 2;
    scr_frame(y, x, h, w, c->typing ? "Chat: Enter sends, Esc cancels" : "Chat");
    draw_chat(c, y + 1, x + 2, h - 3, w - 4, false);
    draw_input(c, y + h - 2, x + 2, w - 4);
}

/* Before the game starts the server sends no view: the seats, and what
 * starts the game. */
static void draw_waiting(const cn *c, const layout *l)
{
    const cn_table *t = &c->table;
    int w = l->tw < CANVAS_W ? l->tw : CANVAS_W;
    int y = l->ty + (l->th > CANVAS_H ? (l->th - CANVAS_H) / 2 : 0), x = l->tx + (l->tw - w) / 2;
    scr_set_origin(0, 0);
    attr_t bar = scr_colour(PAIR_TITLE) | A_BOLD;
    if (bar == A_BOLD)
        bar |= A_REVERSE;
    attrset(bar);
    mvhline(y, x, ' ', w);
    attrset(A_NORMAL);
    put(y, x + 1, w - 2, bar, c->title);
    int kw = scr_text_width(c->title_keys);
    put(y, x + w - kw - 1, kw, c->ui.title_alert ? scr_colour(PAIR_ERROR) | A_BOLD : bar,
        c->title_keys);
    bool over = strcmp(t->state, "over") == 0;
    putf(y + 3, x + 4, w - 8, A_BOLD, "Table %lld (%s%s): %s", (long long)t->id, t->rules_name,
         t->house[0] ? " with house rules" : "", over ? "the game is over" : "waiting for players");
    if (!over)
        put(y + 4, x + 4, w - 8, A_NORMAL, "The game starts when the four seats are filled.");
    draw_seats(c, y + 6, x + 4, w - 8, 5);
    if (t->you_seat >= 0 && !over) {
        put(y + 13, x + 4, w - 8, A_NORMAL,
            "! then b puts a computer player in a free seat;  ! then x leaves.");
        put(y + 14, x + 4, w - 8, A_DIM, "Another player sits down from the lobby.");
    }
    if (c->ui.msg[0])
        scr_put_ellipsis(y + 22, x + 1, w - 2,
                         c->ui.msg_error ? scr_colour(PAIR_ERROR) | A_BOLD : scr_colour(PAIR_INFO),
                         c->ui.msg);
    put(y + 23, x + 1, w - 2, A_DIM, "/ chat  ! menu  q quit");
}

static void draw_table(cn *c)
{
    layout l;
    table_layout(&l);
    c->chat_panel = l.panel;
    play_ui *ui = &c->ui;
    cn_table_names(c);
    /* The title's right end: the keys, or the connection when it is down. */
    bool alert;
    char conn[64];
    conn_text(c, &alert, conn, sizeof conn);
    snprintf(c->title_keys, sizeof c->title_keys, "%s", alert ? conn : "/ chat  ! menu  ? keys");
    ui->title_keys = c->title_keys;
    ui->title_alert = alert;
    if (strcmp(c->table.state, "playing") != 0 && c->table.state[0]) {
        size_t n = strlen(c->title);
        snprintf(c->title + n, sizeof c->title - n, " %s %s", scr_glyph("\u00b7", "-"),
                 c->table.state);
    }
    /* The overlays the game loop of barbu play would put up. */
    if (c->have_view && ui->draw_pending && ui->overlay == PLAY_NO_OVERLAY) {
        ui->draw_pending = false;
        ui->overlay = PLAY_DRAW;
    }
    if (c->have_view && ui->view.t.phase == BARBU_PHASE_OVER && ui->overlay == PLAY_NO_OVERLAY &&
        !c->over_shown) {
        c->over_shown = true;
        ui->overlay = PLAY_OVER;
        ui->sheet_scroll = 0;
    }
    ui->too_small = !play_area_fits(l.th, l.tw);
    erase();
    if (c->have_view) {
        play_paint(ui, l.ty, l.tx, l.th, l.tw);
    } else {
        draw_waiting(c, &l);
    }
    scr_set_origin(0, 0);
    if (l.panel)
        draw_panel(c, &l);
    switch (c->overlay) {
    case CN_MENU:
        draw_menu(c, &l);
        break;
    case CN_PICK_BOT: {
        const char *text[] = {"A computer player for which seat?",
                              "  n e s w   (a free seat, or one whose player left",
                              "             or is away past the grace period)",
                              "  Esc       cancel"};
        draw_box(&l, "Computer player", text, 4);
        break;
    }
    case CN_LEAVE: {
        const char *text[] = {
            c->table.you_seat >= 0 ? "Leave the table?  y = yes, any other key = no"
                                   : "Stop kibitzing?  y = yes, any other key = no",
            c->table.you_seat >= 0 ? "  During a game your seat goes to a substitute."
                                   : "  Back to the lobby.",
            "  (q quits and keeps your seat for when you come back.)"};
        draw_box(&l, "Leave", text, 3);
        break;
    }
    case CN_SCORE:
        draw_score(c, &l);
        break;
    case CN_SEATS:
        draw_seats_box(c, &l);
        break;
    case CN_CHATLOG:
        draw_chat_box(c, &l);
        break;
    default:
        if (c->typing && !l.panel)
            draw_chat_box(c, &l);
        break;
    }
    refresh();
}

void cn_draw(cn *c)
{
    if (c->rejoin_id != 0 && cn_now_ms() > c->rejoin_until) {
        /* The resumed session is no longer at its table. */
        c->rejoin_id = 0;
        if (c->screen == CN_TABLE) {
            c->screen = CN_LOBBY;
            c->overlay = CN_NO_OVERLAY;
            cn_note(c, "The server did not bring table %lld back.", (long long)c->table.id);
        }
    }
    if (c->screen == CN_TABLE)
        draw_table(c);
    else
        draw_lobby(c);
}

void cn_score_set(cn *c, char **lines, int n)
{
    for (int i = 0; i < c->n_score_lines; i++)
        free(c->score_lines[i]);
    free(c->score_lines);
    c->score_lines = NULL;
    c->n_score_lines = 0;
    c->score_scroll = 0;
    if (n <= 0)
        return;
    c->score_lines = calloc((size_t)n, sizeof *c->score_lines);
    if (c->score_lines == NULL)
        return;
    for (int i = 0; i < n; i++)
        if ((c->score_lines[c->n_score_lines] = strdup(lines[i])) != NULL)
            c->n_score_lines++;
}

/* ------------------------------------------------------------------ keys */

static bool is_enter(int key)
{
    return key == '\n' || key == '\r' || key == KEY_ENTER;
}

static bool is_backspace(int key)
{
    return key == KEY_BACKSPACE || key == 127 || key == 8;
}

static int seat_key(int key)
{
    switch (key) {
    case 'n':
    case 'N':
        return 0;
    case 'e':
    case 'E':
        return 1;
    case 's':
    case 'S':
        return 2;
    case 'w':
    case 'W':
        return 3;
    default:
        return -1;
    }
}

/* Edits a line of text: printable ASCII and the bytes of UTF-8. */
static void edit_text(char *buf, size_t cap, int key, bool digits_only)
{
    size_t n = strlen(buf);
    if (is_backspace(key)) {
        while (n > 0 && ((unsigned char)buf[n - 1] & 0xc0) == 0x80)
            n--;
        if (n > 0)
            n--;
        buf[n] = '\0';
        return;
    }
    if (key == 21) { /* Ctrl-U: clear */
        buf[0] = '\0';
        return;
    }
    bool ok = digits_only ? key >= '0' && key <= '9'
                          : (key >= ' ' && key < 127) || (key >= 0x80 && key <= 0xff);
    if (ok && n + 1 < cap) {
        buf[n] = (char)key;
        buf[n + 1] = '\0';
    }
}

static void chat_key(cn *c, int key)
{
    if (key == KEY_ESC) {
        c->typing = false;
        c->line[0] = '\0';
        return;
    }
    if (is_enter(key)) {
        c->typing = false;
        /* Spaces at the ends mean nothing; the server trims them too. */
        char *p = c->line;
        while (*p == ' ')
            p++;
        size_t n = strlen(p);
        while (n > 0 && p[n - 1] == ' ')
            p[--n] = '\0';
        /* A line that starts with one / is a command; // sends a /. */
        if (*p && !cn_command(c, p))
            cn_send_chat(c, p[0] == '/' && p[1] == '/' ? p + 1 : p);
        c->line[0] = '\0';
        return;
    }
    if (key == KEY_UP || key == KEY_PPAGE) {
        c->chat_scroll += key == KEY_UP ? 1 : 5;
        return;
    }
    if (key == KEY_DOWN || key == KEY_NPAGE) {
        c->chat_scroll -= key == KEY_DOWN ? 1 : 5;
        if (c->chat_scroll < 0)
            c->chat_scroll = 0;
        return;
    }
    edit_text(c->line, PROTO_MAX_CHAT + 1, key, false);
}

static void form_key(cn *c, int key)
{
    cn_form *f = &c->form;
    int n_presets = 0;
    while (barbu_preset_name(n_presets) != NULL)
        n_presets++;
    if (key == KEY_ESC) {
        c->overlay = CN_NO_OVERLAY;
        return;
    }
    if (key == KEY_UP || key == KEY_BTAB) {
        f->field = (f->field + CN_F_COUNT - 1) % CN_F_COUNT;
        return;
    }
    if (key == KEY_DOWN || key == '\t') {
        f->field = (f->field + 1) % CN_F_COUNT;
        return;
    }
    if (is_enter(key)) {
        cn_send_create(c);
        if (!c->status_error)
            c->overlay = CN_NO_OVERLAY;
        return;
    }
    int step = key == KEY_LEFT ? -1 : key == KEY_RIGHT || key == ' ' ? 1 : 0;
    switch (f->field) {
    case CN_F_RULES:
        if (step)
            f->preset = (f->preset + n_presets + step) % n_presets;
        break;
    case CN_F_SEAT:
        if (step)
            f->seat = (f->seat + 5 + step) % 5;
        else if (seat_key(key) >= 0)
            f->seat = seat_key(key);
        break;
    case CN_F_BOTS:
        if (step)
            f->bots = !f->bots;
        break;
    case CN_F_LEVEL:
        if (step)
            f->level = (f->level + CN_N_LEVELS + step) % CN_N_LEVELS;
        break;
    case CN_F_KIBITZ:
        if (step)
            f->kibitz = (f->kibitz + 3 + step) % 3;
        break;
    case CN_F_TAKEOVER:
        if (step)
            f->takeover = !f->takeover;
        break;
    case CN_F_HOUSEHOLD:
        if (step)
            f->household = !f->household;
        break;
    case CN_F_KIBITZ_CHAT:
        if (step)
            f->kibitz_chat = !f->kibitz_chat;
        break;
    case CN_F_SEED:
        edit_text(f->seed, sizeof f->seed, key, true);
        break;
    case CN_F_DELAY:
        edit_text(f->delay, 5, key, true);
        break;
    case CN_F_GRACE:
        edit_text(f->grace, 5, key, true);
        break;
    case CN_F_LADDER:
        if (step) {
            f->ladder = !f->ladder;
            /* A ladder table takes neither. */
            if (f->ladder) {
                f->seed[0] = '\0';
                f->bots = 0;
                f->hints = false;
            }
        }
        break;
    case CN_F_HINTS:
        /* A ladder table takes no hints. */
        if (step)
            f->hints = !f->hints && !f->ladder;
        break;
    case CN_F_HOUSE:
        if (key != ' ' || f->house[0])
            edit_text(f->house, sizeof f->house, key, false);
        break;
    default:
        break;
    }
}

static void lobby_key(cn *c, int key)
{
    const cn_summary *s = c->sel < c->n_tables ? &c->tables[c->sel] : NULL;
    if (c->overlay == CN_FORM) {
        form_key(c, key);
        return;
    }
    if (c->overlay == CN_PICK_SIT || c->overlay == CN_PICK_WATCH) {
        int seat = seat_key(key);
        if (c->overlay == CN_PICK_WATCH && (key == 'a' || key == 'A'))
            seat = PROTO_SEAT_ALL;
        if (seat >= 0 && s != NULL) {
            if (c->overlay == CN_PICK_SIT)
                cn_send_sit(c, s->id, seat);
            else
                cn_send_kibitz(c, s->id, seat);
        }
        c->overlay = CN_NO_OVERLAY;
        return;
    }
    switch (key) {
    case KEY_UP:
    case 'k' - 'a' + 1: /* Ctrl-K */
        if (c->sel > 0)
            c->sel--;
        return;
    case KEY_DOWN:
    case 'j':
        if (c->sel + 1 < c->n_tables)
            c->sel++;
        return;
    case KEY_PPAGE:
        c->sel = c->sel > 10 ? c->sel - 10 : 0;
        return;
    case KEY_NPAGE:
        c->sel = c->sel + 10 < c->n_tables ? c->sel + 10 : c->n_tables > 0 ? c->n_tables - 1 : 0;
        return;
    case KEY_HOME:
        c->sel = 0;
        return;
    case KEY_END:
        c->sel = c->n_tables > 0 ? c->n_tables - 1 : 0;
        return;
    case '\n':
    case '\r':
    case KEY_ENTER:
    case 's':
        if (s == NULL)
            cn_status(c, true, "No table to sit at: n creates one.");
        else
            c->overlay = CN_PICK_SIT;
        return;
    case 'k':
    case 'K':
        if (s == NULL)
            cn_status(c, true, "No table to kibitz.");
        else
            c->overlay = CN_PICK_WATCH;
        return;
    case 'n':
    case 'c':
        c->overlay = CN_FORM;
        c->status[0] = '\0';
        return;
    case 'r':
    case 'R':
        if (c->conn == CN_OFFLINE || c->conn == CN_STOPPED) {
            c->fatal = false;
            cn_net_retry_now(c);
        } else {
            cn_send_tables(c);
            cn_status(c, false, "Refreshed.");
        }
        return;
    case '/':
        c->typing = true;
        return;
    case 'q':
    case 'Q':
        c->quit = true;
        return;
    case KEY_RESIZE:
    case 12:
        return;
    default:
        if (key > ' ' && key < 127)
            cn_status(c, true, "The key '%c' does nothing here.", key);
        return;
    }
}

/* The table's own windows. */
static void table_overlay_key(cn *c, int key)
{
    cn_table *t = &c->table;
    switch (c->overlay) {
    case CN_MENU:
        c->overlay = CN_NO_OVERLAY;
        switch (key) {
        case 's':
            c->want_score = true;
            cn_send_score(c);
            break;
        case 'r':
            cn_send_record(c);
            break;
        case 'b':
            if (t->you_seat >= 0)
                c->overlay = CN_PICK_BOT;
            break;
        case 'x':
            c->overlay = CN_LEAVE;
            break;
        case 'w':
            c->overlay = CN_SEATS;
            break;
        case 'c':
            c->overlay = CN_CHATLOG;
            break;
        case 'v':
            if (t->kibitz_seat == PROTO_SEAT_ALL) {
                c->watch_seat = (c->watch_seat + 1) & 3;
                c->ui.view.seat = (int8_t)c->watch_seat;
                play_new_decision(&c->ui);
            }
            break;
        default:
            break;
        }
        return;
    case CN_PICK_BOT: {
        int seat = seat_key(key);
        c->overlay = CN_NO_OVERLAY;
        if (seat >= 0)
            cn_send_bot(c, seat);
        return;
    }
    case CN_LEAVE:
        c->overlay = CN_NO_OVERLAY;
        if (key == 'y' || key == 'Y')
            cn_send_leave(c);
        return;
    case CN_SCORE: {
        int rows = LINES - 3;
        int max_scroll = c->n_score_lines - rows > 0 ? c->n_score_lines - rows : 0;
        if (key == KEY_UP || key == 'k')
            c->score_scroll = c->score_scroll > 0 ? c->score_scroll - 1 : 0;
        else if (key == KEY_DOWN || key == 'j')
            c->score_scroll = c->score_scroll < max_scroll ? c->score_scroll + 1 : max_scroll;
        else if (key == KEY_PPAGE)
            c->score_scroll = c->score_scroll > rows ? c->score_scroll - rows : 0;
        else if (key == KEY_NPAGE || key == ' ')
            c->score_scroll =
                c->score_scroll + rows < max_scroll ? c->score_scroll + rows : max_scroll;
        else if (key == KEY_HOME)
            c->score_scroll = 0;
        else if (key == KEY_END)
            c->score_scroll = max_scroll;
        else if (key != KEY_RESIZE)
            c->overlay = CN_NO_OVERLAY;
        return;
    }
    case CN_CHATLOG:
        if (key == '/') {
            c->typing = true;
            return;
        }
        if (key == KEY_UP || key == KEY_PPAGE) {
            c->chat_scroll += key == KEY_UP ? 1 : 5;
            return;
        }
        if (key == KEY_DOWN || key == KEY_NPAGE) {
            c->chat_scroll = c->chat_scroll > 0 ? c->chat_scroll - 1 : 0;
            return;
        }
        c->overlay = CN_NO_OVERLAY;
        return;
    default:
        if (key != KEY_RESIZE)
            c->overlay = CN_NO_OVERLAY;
        return;
    }
}

static void table_key(cn *c, int key)
{
    play_ui *ui = &c->ui;
    if (c->overlay != CN_NO_OVERLAY) {
        table_overlay_key(c, key);
        return;
    }
    /* Chat and the menu open over whatever barbu play shows (a deal's
     * result, the sheet, its keys), which they close; not while a card is
     * being typed. */
    if ((key == '/' || key == '!') && ui->typed[0] == '\0' && !ui->too_small) {
        ui->overlay = PLAY_NO_OVERLAY;
        if (key == '/')
            c->typing = true;
        else
            c->overlay = CN_MENU;
        return;
    }
    bool free_key = ui->overlay == PLAY_NO_OVERLAY && ui->typed[0] == '\0';
    if (free_key && (c->conn == CN_STOPPED) && (key == 'r' || key == 'R')) {
        c->fatal = false;
        cn_net_retry_now(c);
        return;
    }
    if (free_key && ui->watch && c->table.kibitz_seat == PROTO_SEAT_ALL && key == 'v') {
        c->watch_seat = (c->watch_seat + 1) & 3;
        ui->view.seat = (int8_t)c->watch_seat;
        play_new_decision(ui);
        return;
    }
    if (!c->have_view) {
        if (key == 'q')
            c->quit = true;
        return;
    }
    /* At a table with hints, ? asks for one at our turn; asked again once
     * the hint is shown, it shows the keys as everywhere else. */
    if (free_key && key == '?' && c->table.hints && c->table.you_seat >= 0 &&
        ui->view.t.to_move == ui->view.seat && strcmp(c->table.state, "playing") == 0 &&
        !(c->hint_shown && c->hint_at == c->at)) {
        if (c->hint_asked && c->hint_at == c->at)
            play_message(ui, false, "The hint is being thought: a moment.");
        else if (c->conn != CN_READY)
            play_message(ui, true, "Not connected: no hint can be asked.");
        else {
            cn_send_hint(c);
            play_message(ui, false, "Asking the computer for a hint...");
        }
        return;
    }
    int was_overlay = ui->overlay;
    barbu_action a;
    switch (play_key(ui, key, &a)) {
    case PLAY_ACT: {
        char why[400];
        if (barbu_view_explain(&ui->view, &a, why, sizeof why) != 0)
            play_message(ui, true, "Refused: %s.", why);
        else if (c->conn != CN_READY)
            play_message(ui, true, "Not connected: the action was not sent.");
        else
            cn_send_act(c, &a);
        break;
    }
    case PLAY_LEAVE:
        /* The final sheet closes; the quit prompt's yes quits (the seat
         * is kept for this session). */
        if (was_overlay == PLAY_OVER)
            ui->overlay = PLAY_NO_OVERLAY;
        else
            c->quit = true;
        break;
    default:
        break;
    }
}

void cn_key(cn *c, int key)
{
    if (key == KEY_RESIZE || key == 12) {
        if (key == 12)
            clearok(curscr, TRUE);
        c->dirty = true;
        return;
    }
    if (c->typing) {
        chat_key(c, key);
        return;
    }
    if (c->screen == CN_TABLE)
        table_key(c, key);
    else
        lobby_key(c, key);
}
