/*
 * screen.c - the curses screen of the terminal table.  It draws one view,
 * the human's, and the prompts of input.c; it never sees the state, so it
 * cannot show what the human may not know.
 *
 * The table is drawn on an 80x24 canvas in the middle of the terminal:
 *
 *    0  title: seed, rules, deal                        1  contract
 *    3  the player across                               9  left | trick or layout | right
 *   15  you, 18 your hand, 19 cursor                   21  status, 22 message, 23 keys
 *
 * The prompts (contract menu, doubling, Chinese Poker rows) and the overlays
 * (a deal's result, the showdown of Chinese Poker, help, quit) cover the
 * middle of it and leave the hand in sight where they can; the score sheet
 * takes the whole terminal.  When watching (--watch) the same screen shows
 * one seat's view with no prompt.
 */
#include <curses.h>
#include <inttypes.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <unistd.h>

#include "draw.h"

static const char *const SEAT_WORDS[] = {"North", "East", "South", "West"};
static const char *const SUIT_UTF8[] = {"\u2663", "\u2666", "\u2665", "\u2660"};
static const char *const SUIT_ASCII[] = {"C", "D", "H", "S"};
static const char *const RANK_TEXT[] = {"",  "",  "2",  "3", "4", "5", "6", "7",
                                        "8", "9", "10", "J", "Q", "K", "A"};

/* Where the canvas starts, and the glyph set (set by play_screen_open). */
static int OY, OX;
static bool UTF8, COLOUR;
/* The part of the terminal the table is drawn in (play_paint): the whole
 * terminal for barbu play, less the panels of barbu connect. */
static int AY, AX, AH, AW;

const char *scr_seat_word(int seat)
{
    return SEAT_WORDS[seat & 3];
}

const char *scr_rank_text(int rank)
{
    return rank >= 2 && rank <= BARBU_ACE ? RANK_TEXT[rank] : "?";
}

void scr_origin(int *y, int *x)
{
    *y = OY;
    *x = OX;
}

void scr_set_origin(int y, int x)
{
    OY = y;
    OX = x;
}

void scr_area(int *y, int *x, int *h, int *w)
{
    *y = AY;
    *x = AX;
    *h = AH;
    *w = AW;
}

bool scr_utf8(void)
{
    return UTF8;
}

/* ------------------------------------------------------------------ screen */

int play_screen_check(const char *prog)
{
    if (!isatty(0) || !isatty(1)) {
        fprintf(stderr, "%s: needs a terminal on standard input and output%s\n", prog,
                strcmp(prog, "barbu play") == 0 ? " (for games without one, see 'barbu selfplay')"
                                                : "");
        return 1;
    }
    const char *term = getenv("TERM");
    if (term == NULL || *term == '\0') {
        fprintf(stderr, "%s: TERM is not set, so the terminal is unknown\n", prog);
        return 1;
    }
    int err = 0;
    if (setupterm(NULL, 1, &err) != OK) {
        fprintf(stderr, "%s: the terminal type '%s' is unknown here\n", prog, term);
        return 1;
    }
    /* A full-screen game needs cursor addressing, which "dumb" lacks. */
    const char *cup = tigetstr("cup");
    bool addressable = cup != NULL && cup != (const char *)-1;
    del_curterm(cur_term);
    if (!addressable) {
        fprintf(stderr,
                "%s: the terminal '%s' cannot move the cursor; run it in a "
                "full-screen terminal (TERM=xterm-256color, for example)\n",
                prog, term);
        return 1;
    }
    return 0;
}

int play_screen_open(const char *prog)
{
    if (newterm(NULL, stdout, stdin) == NULL) {
        fprintf(stderr, "%s: cannot start the screen on terminal '%s'\n", prog, getenv("TERM"));
        return 1;
    }
    const char *codeset = nl_langinfo(CODESET);
    UTF8 = codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
    COLOUR = has_colors();
    if (COLOUR) {
        start_color();
        use_default_colors();
        init_pair(PAIR_RED, COLOR_RED, -1);
        init_pair(PAIR_ERROR, COLOR_RED, -1);
        init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_CYAN);
        init_pair(PAIR_TURN, COLOR_YELLOW, -1);
        init_pair(PAIR_INFO, COLOR_GREEN, -1);
    }
    /* cbreak, not raw: Ctrl-C still raises SIGINT, which play.c turns into
     * a clean exit. */
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    return 0;
}

void play_screen_close(void)
{
    if (!isendwin()) {
        curs_set(1);
        endwin();
    }
}

bool play_screen_fits(void)
{
    return LINES >= CANVAS_H && COLS >= CANVAS_W;
}

bool play_area_fits(int height, int width)
{
    return height >= CANVAS_H && width >= CANVAS_W;
}

void play_screen_repaint(void)
{
    clearok(curscr, TRUE);
}

int play_read_key(int timeout_ms)
{
    timeout(timeout_ms);
    int key = getch();
    if (key == 12) /* Ctrl-L: repaint everything */
        clearok(curscr, TRUE);
    return key == ERR ? -1 : key;
}

/* ----------------------------------------------------------------- helpers */

const char *scr_suit_glyph(int suit)
{
    return UTF8 ? SUIT_UTF8[suit] : SUIT_ASCII[suit];
}

const char *scr_glyph(const char *utf8, const char *ascii)
{
    return UTF8 ? utf8 : ascii;
}

int scr_card_text(barbu_card card, char *buf, size_t cap)
{
    return snprintf(buf, cap, "%s%s", RANK_TEXT[BARBU_RANK(card)],
                    scr_suit_glyph(BARBU_SUIT(card)));
}

attr_t scr_suit_attr(int suit)
{
    if (COLOUR && (suit == BARBU_HEARTS || suit == BARBU_DIAMONDS))
        return COLOR_PAIR(PAIR_RED);
    return A_NORMAL;
}

attr_t scr_colour(int pair)
{
    return COLOUR ? COLOR_PAIR(pair) : A_NORMAL;
}

/* Columns in UTF-8 text: every glyph used here is one column wide. */
int scr_text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

/* Writes text at canvas (y, x), clipped to width columns. */
void scr_put(int y, int x, int width, attr_t attr, const char *text)
{
    if (width <= 0)
        return;
    const char *end = text;
    int w = 0;
    while (*end) {
        if (((unsigned char)*end & 0xc0) != 0x80) {
            if (w == width)
                break;
            w++;
        }
        end++;
    }
    attrset(attr);
    mvaddnstr(OY + y, OX + x, text, (int)(end - text));
    attrset(A_NORMAL);
}

/* The same, with an ellipsis where the text is cut. */
void scr_put_ellipsis(int y, int x, int width, attr_t attr, const char *text)
{
    if (scr_text_width(text) <= width) {
        scr_put(y, x, width, attr, text);
        return;
    }
    scr_put(y, x, width - 1, attr, text);
    scr_put(y, x + width - 1, 1, attr, UTF8 ? "\u2026" : "~");
}

void scr_putf(int y, int x, int width, attr_t attr, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    scr_put(y, x, width, attr, buf);
}

/* Writes a card in its colour; returns the columns used. */
int scr_put_card(int y, int x, barbu_card card, attr_t extra)
{
    char buf[16];
    scr_card_text(card, buf, sizeof buf);
    scr_put(y, x, 8, scr_suit_attr(BARBU_SUIT(card)) | extra, buf);
    return scr_text_width(buf);
}

/* Cards of a set, high to low by suit, within width columns. */
void scr_put_cards(int y, int x, int width, barbu_cards cards)
{
    barbu_card order[52];
    int n = play_hand_order(cards, order), used = 0;
    for (int i = 0; i < n; i++) {
        char buf[16];
        scr_card_text(order[i], buf, sizeof buf);
        int w = scr_text_width(buf);
        /* Keep room for an ellipsis unless this is the last card. */
        if (used + w > width - (i + 1 < n ? 2 : 0)) {
            scr_put(y, x + used, width - used, A_DIM, scr_glyph("\u2026", "..."));
            return;
        }
        used += scr_put_card(y, x + used, order[i], A_NORMAL) + 1;
    }
}

/* A box with a title and a blank inside, in canvas coordinates.  Without
 * UTF-8 it is drawn in plain ASCII: the alternate character set does not
 * survive every terminal and multiplexer in the C locale. */
void scr_frame(int y, int x, int h, int w, const char *title)
{
    chtype hl = UTF8 ? ACS_HLINE : '-', vl = UTF8 ? ACS_VLINE : '|';
    chtype ul = UTF8 ? ACS_ULCORNER : '+', ur = UTF8 ? ACS_URCORNER : '+';
    chtype ll = UTF8 ? ACS_LLCORNER : '+', lr = UTF8 ? ACS_LRCORNER : '+';
    for (int r = 0; r < h; r++)
        mvhline(OY + y + r, OX + x, ' ', w);
    mvhline(OY + y, OX + x + 1, hl, w - 2);
    mvhline(OY + y + h - 1, OX + x + 1, hl, w - 2);
    mvvline(OY + y + 1, OX + x, vl, h - 2);
    mvvline(OY + y + 1, OX + x + w - 1, vl, h - 2);
    mvaddch(OY + y, OX + x, ul);
    mvaddch(OY + y, OX + x + w - 1, ur);
    mvaddch(OY + y + h - 1, OX + x, ll);
    mvaddch(OY + y + h - 1, OX + x + w - 1, lr);
    if (title != NULL && *title)
        scr_putf(y, x + 2, w - 4, A_BOLD, " %s ", title);
}

/* "No Hearts", "Trumps ♠", "Domino from 8". */
static void contract_label(const barbu_rules *rules, unsigned contracts, int trump, int rank,
                           char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned m = contracts; m && n < cap; m &= m - 1) {
        const barbu_contract *c = &rules->contract[__builtin_ctz(m)];
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? " + " : "", c->name);
        if (n < cap && c->kind == BARBU_KIND_TRUMPS && trump >= 0 && trump < 4)
            n += (size_t)snprintf(buf + n, cap - n, " %s", scr_suit_glyph(trump));
        else if (n < cap && c->kind == BARBU_KIND_DOMINO && rank >= 2 && rank <= BARBU_ACE)
            n += (size_t)snprintf(buf + n, cap - n, " from %s", RANK_TEXT[rank]);
    }
}

/* "N W" for a set of seats. */
static void seats_text(unsigned mask, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int s = 0; s < 4; s++)
        if ((mask & (1u << s)) && n + 3 < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? " " : "", barbu_seat_name(s));
}

bool scr_layout_kind(const barbu_table *t)
{
    return t->kind == BARBU_KIND_DOMINO || t->kind == BARBU_KIND_PATIENCE;
}

bool scr_playing(const barbu_table *t)
{
    return t->phase == BARBU_PHASE_PLAY;
}

const char *scr_ordinal(int k)
{
    static const char *const words[] = {"1st", "2nd", "3rd", "4th"};
    return k >= 0 && k < 4 ? words[k] : "?";
}

/* Whether the seat is the human's: never when watching. */
bool scr_is_you(const play_ui *ui, int seat)
{
    return !ui->watch && seat == ui->view.seat;
}

/* Whether a deal's contracts include one of this kind. */
bool scr_has_kind(const barbu_rules *rules, unsigned contracts, int kind)
{
    for (unsigned m = contracts; m; m &= m - 1)
        if (rules->contract[__builtin_ctz(m)].kind == kind)
            return true;
    return false;
}

/* The cards taken of each suit, "♠3 ♥5 ♣0 ♦1", for Ravage City: the suit
 * (or suits) with the most in bold.  Returns the columns used. */
static int put_suit_counts(int y, int x, int width, barbu_cards taken)
{
    static const int ORDER[] = {BARBU_SPADES, BARBU_HEARTS, BARBU_CLUBS, BARBU_DIAMONDS};
    int count[4], most = 0, used = 0;
    for (int i = 0; i < 4; i++) {
        count[i] = barbu_count(taken & BARBU_SUIT_CARDS(ORDER[i]));
        if (count[i] > most)
            most = count[i];
    }
    for (int i = 0; i < 4 && used < width; i++) {
        char buf[16];
        snprintf(buf, sizeof buf, "%s%d", scr_suit_glyph(ORDER[i]), count[i]);
        attr_t a = scr_suit_attr(ORDER[i]) | (count[i] == most && most > 0 ? A_BOLD : A_DIM);
        scr_put(y, x + used, width - used, a, buf);
        used += scr_text_width(buf) + 1;
    }
    return used;
}

/* Cards of a poker row, high to low by rank, each in its colour. */
static void put_row(int y, int x, int width, barbu_cards cards, barbu_card cursor, attr_t extra)
{
    int used = 0;
    for (int rank = BARBU_ACE; rank >= 2; rank--) {
        for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--) {
            barbu_card c = BARBU_CARD(suit, rank);
            if (!(cards & BARBU_BIT(c)) || used >= width)
                continue;
            used +=
                scr_put_card(y, x + used, c, extra | (c == cursor ? A_REVERSE | A_BOLD : 0)) + 1;
        }
    }
}

/* Writes text in lines of at most width columns, broken at spaces, the
 * lines after the first indented by indent.  Draws nothing when y < 0.
 * Returns the lines it takes (at most max_lines; the last is cut). */
int scr_put_wrapped(int y, int x, int width, int indent, int max_lines, attr_t attr,
                    const char *text)
{
    int used = 0;
    const char *p = text;
    while (*p && used < max_lines) {
        int room = width - (used ? indent : 0), w = 0;
        const char *end = p, *space = NULL;
        /* end: the first character that does not fit, or the end. */
        for (; *end; end++) {
            if (((unsigned char)*end & 0xc0) != 0x80) {
                if (w == room)
                    break;
                w++;
            }
            if (*end == ' ')
                space = end;
        }
        if (*end && *end != ' ' && space != NULL && space > p)
            end = space;
        if (y >= 0) {
            char buf[256];
            size_t n = (size_t)(end - p) < sizeof buf - 1 ? (size_t)(end - p) : sizeof buf - 1;
            memcpy(buf, p, n);
            buf[n] = '\0';
            /* The last line allowed shows the rest, cut with an ellipsis. */
            scr_put_ellipsis(y + used, x + (used ? indent : 0), room, attr,
                             used + 1 == max_lines ? p : buf);
        }
        used++;
        for (p = end; *p == ' '; p++)
            ;
    }
    return used;
}

/* A seat's doubles as "dbl N W, rdbl E", or "no double" once it has bid. */
static void bids_text(const barbu_table *t, int seat, char *buf, size_t cap)
{
    char d[16], r[16];
    buf[0] = '\0';
    if (t->phase != BARBU_PHASE_BID && t->phase != BARBU_PHASE_PLAY)
        return;
    seats_text(t->dbl[seat], d, sizeof d);
    seats_text(t->rdbl[seat], r, sizeof r);
    if (*d && *r)
        snprintf(buf, cap, "dbl %s, rdbl %s", d, r);
    else if (*d)
        snprintf(buf, cap, "doubles %s", d);
    else if (*r)
        snprintf(buf, cap, "redoubles %s", r);
    else if (t->bids & (1u << seat))
        snprintf(buf, cap, seat == t->declarer ? "no redouble" : "no double");
}

/* ------------------------------------------------------------------- parts */

static void draw_title(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    attr_t bar = COLOUR ? COLOR_PAIR(PAIR_TITLE) : A_REVERSE;
    attrset(bar);
    mvhline(OY, OX, ' ', CANVAS_W);
    attrset(A_NORMAL);
    int deal = t->phase == BARBU_PHASE_OVER ? t->n_deals : t->deal + 1;
    char where[32] = "";
    /* The Fife game has no fixed number of deals: its place in the game is
     * on the line below. */
    if (!play_fife(ui))
        snprintf(where, sizeof where, " %s deal %d of %d", scr_glyph("\u00b7", "-"), deal,
                 t->n_deals);
    if (ui->title != NULL)
        scr_putf(0, 1, 63, bar | A_BOLD, "%s%s", ui->title, where);
    else
        scr_putf(0, 1, 63, bar | A_BOLD, "barbu %s %s seed %" PRIu64 " %s rules %s%s",
                 ui->watch ? "watch" : "play", scr_glyph("\u00b7", "-"), ui->seed,
                 scr_glyph("\u00b7", "-"), ui->rules_name, where);
    const char *keys = ui->title_keys != NULL ? ui->title_keys : "? help  q quit";
    int w = scr_text_width(keys);
    scr_put(0, CANVAS_W - 1 - w, w,
            ui->title_alert ? scr_colour(PAIR_ERROR) | A_BOLD | A_REVERSE : bar, keys);
}

static void draw_contract(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    const char *decl = SEAT_WORDS[t->declarer];
    if (play_fife(ui)) {
        fife_draw_header(ui);
        return;
    }
    if (t->phase == BARBU_PHASE_OVER) {
        scr_put(1, 1, 78, A_BOLD, "The game is over.");
        return;
    }
    if (t->phase == BARBU_PHASE_DECLARE) {
        scr_putf(1, 1, 78, A_BOLD, "%s is the declarer and chooses the contract%s", decl,
                 scr_is_you(ui, t->declarer) ? " (you)" : "");
        return;
    }
    char label[96];
    contract_label(ui->view.rules, t->contracts, t->trump, t->rank, label, sizeof label);
    scr_putf(1, 1, 54, A_BOLD, "%s, declared by %s%s", label, decl,
             scr_is_you(ui, t->declarer) ? " (you)" : "");
    if (t->phase == BARBU_PHASE_BID)
        scr_put(1, 56, 23, A_NORMAL, "doubling");
    else if (t->phase == BARBU_PHASE_ARRANGE)
        scr_putf(1, 56, 23, A_NORMAL, "rows set: %d of 4", barbu_count(t->arranged));
    else if (scr_layout_kind(t))
        scr_putf(1, 56, 23, A_NORMAL, "layout from %s", RANK_TEXT[t->rank]);
    else if (t->trump >= 0)
        scr_putf(1, 56, 23, A_NORMAL, "trumps %s, trick %d of %d", scr_suit_glyph(t->trump),
                 t->ntricks + 1, barbu_rules_hand_size(ui->view.rules));
    else
        scr_putf(1, 56, 23, A_NORMAL, "trick %d of %d", t->ntricks + 1,
                 barbu_rules_hand_size(ui->view.rules));
}

/* One of the three other players: five lines at (y, x), width w. */
static void draw_seat(const play_ui *ui, int seat, int y, int x, int w)
{
    const barbu_view *v = &ui->view;
    const barbu_table *t = &v->t;
    bool to_move = t->to_move == seat && t->phase != BARBU_PHASE_OVER;
    attr_t name_attr = A_BOLD | (to_move ? (COLOUR ? COLOR_PAIR(PAIR_TURN) : A_REVERSE) : 0);
    scr_putf(y, x, w, name_attr, "%s%s (%s)", to_move ? scr_glyph("\u25b6 ", "> ") : "",
             SEAT_WORDS[seat], ui->names[seat]);

    char line[96];
    if (scr_playing(t) && scr_layout_kind(t)) {
        int place = -1;
        for (int k = 0; k < t->n_out; k++)
            if (t->out[k] == seat)
                place = k;
        if (place >= 0)
            snprintf(line, sizeof line, "out %s", scr_ordinal(place));
        else
            snprintf(line, sizeof line, "%d card%s", t->in_hand[seat],
                     t->in_hand[seat] == 1 ? "" : "s");
    } else if (scr_playing(t)) {
        snprintf(line, sizeof line, "%d card%s, %d trick%s", t->in_hand[seat],
                 t->in_hand[seat] == 1 ? "" : "s", t->tricks[seat],
                 t->tricks[seat] == 1 ? "" : "s");
    } else if (t->phase == BARBU_PHASE_ARRANGE) {
        snprintf(line, sizeof line, "%d cards, %s", t->in_hand[seat],
                 (t->arranged >> seat) & 1 ? "rows set"
                 : t->to_move == seat      ? "setting rows"
                                           : "rows to set");
    } else {
        snprintf(line, sizeof line, "%d cards", t->in_hand[seat]);
    }
    scr_put(y + 1, x, w, A_NORMAL, line);

    /* Line 2: during the doubling what they still owe the declarer, in play
     * the penalty cards they took. */
    if (t->phase == BARBU_PHASE_BID && seat != t->declarer) {
        int owed = barbu_view_owed(v, seat);
        if (owed > 0)
            scr_putf(y + 2, x, w, scr_colour(PAIR_TURN), "owes %s %d double%s",
                     barbu_seat_name(t->declarer), owed, owed == 1 ? "" : "s");
    } else if (scr_playing(t) && scr_has_kind(v->rules, t->contracts, BARBU_KIND_RAVAGE)) {
        scr_put(y + 2, x, 5, A_NORMAL, "took");
        put_suit_counts(y + 2, x + 5, w - 5, t->taken[seat]);
    } else if (scr_playing(t) && (t->taken[seat] & t->penalty)) {
        scr_put(y + 2, x, 5, A_NORMAL, "took");
        scr_put_cards(y + 2, x + 5, w - 5, t->taken[seat] & t->penalty);
    }
    /* Line 3: the bids, and the declarer (who can only redouble); in the
     * Fife game the Caller, the dealer and the cutter. */
    if (play_fife(ui)) {
        const char *role = fife_role(ui, seat);
        if (role != NULL)
            scr_put(y + 3, x, w, scr_colour(PAIR_INFO) | A_BOLD, role);
    } else if (t->declarer == seat && t->phase != BARBU_PHASE_OVER) {
        char r[16];
        seats_text(t->rdbl[seat], r, sizeof r);
        scr_put(y + 3, x, 8, scr_colour(PAIR_INFO) | A_BOLD, "declarer");
        if (*r)
            scr_putf(y + 3, x + 8, w - 8, scr_colour(PAIR_INFO), ", rdbl %s", r);
    } else {
        bids_text(t, seat, line, sizeof line);
        scr_put(y + 3, x, w, scr_colour(PAIR_INFO), line);
    }
    scr_putf(y + 4, x, w, A_NORMAL, "total %+d", t->total[seat]);
}

/* The trick in the middle: each card by its player's side of the table. */
static void draw_trick(const play_ui *ui, const barbu_trick *k, const char *caption)
{
    int me = ui->view.seat;
    /* Positions for you, left, across, right. */
    static const int POS[4][2] = {{13, 38}, {11, 27}, {9, 38}, {11, 49}};
    for (int i = 0; i < k->n; i++) {
        int seat = (k->leader + i) & 3;
        int rel = (seat - me + 4) & 3;
        int y = POS[rel][0], x = POS[rel][1];
        scr_putf(y, x - 2, 2, A_DIM, "%s", barbu_seat_name(seat));
        scr_put_card(y, x, k->card[i], A_BOLD | (i == 0 ? A_UNDERLINE : 0));
    }
    if (caption != NULL)
        scr_put(14, 25, 31, A_DIM, caption);
}

static void draw_layout(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    static const int ROWS[] = {BARBU_SPADES, BARBU_HEARTS, BARBU_CLUBS, BARBU_DIAMONDS};
    if (t->kind == BARBU_KIND_PATIENCE)
        scr_put(8, 25, 31, A_BOLD, "Patience: the layout");
    else
        scr_putf(8, 25, 31, A_BOLD, "Layout (start rank %s)", RANK_TEXT[t->rank]);
    for (int i = 0; i < 4; i++) {
        int suit = ROWS[i], y = 9 + i, x = 26;
        scr_put(y, x, 2, scr_suit_attr(suit) | A_BOLD, scr_suit_glyph(suit));
        x += 2;
        if (t->lo[suit] == 0) {
            scr_put(y, x, 20, A_DIM, scr_glyph("\u00b7", "."));
            continue;
        }
        /* The run from lo to hi, in the layout's own order when the ace is
         * low (A 2 3 ...). */
        int rank = t->lo[suit];
        for (int guard = 0; guard < 14; guard++) {
            scr_putf(y, x, 3, scr_suit_attr(suit), "%s", RANK_TEXT[rank]);
            x += (int)strlen(RANK_TEXT[rank]) + 1;
            if (rank == t->hi[suit])
                break;
            rank = rank == BARBU_ACE ? ui->view.rules->deck_low : rank + 1;
        }
    }
}

/* While the others set their rows: the human's own, once set. */
static void draw_rows_waiting(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    int me = ui->view.seat;
    bool mine_set =
        !ui->watch && ((t->arranged >> me) & 1) && (ui->rows[0] | ui->rows[1] | ui->rows[2]) != 0;
    if (!mine_set) {
        scr_putf(10, 25, 31, A_BOLD, "Chinese Poker: rows set %d of 4", barbu_count(t->arranged));
        scr_put(12, 25, 31, A_DIM, "The rows are shown together");
        scr_put(13, 25, 31, A_DIM, "once all four are set.");
        return;
    }
    static const char *const LABEL[] = {"back", "middle", "front"};
    scr_put(8, 25, 31, A_BOLD, "Your rows, set:");
    for (int r = 0; r < 3; r++) {
        char name[64];
        barbu_poker_describe(ui->rows[r], name, sizeof name);
        scr_put(9 + 2 * r, 25, 7, A_DIM, LABEL[r]);
        put_row(9 + 2 * r, 32, 24, ui->rows[r], 0xff, A_NORMAL);
        scr_put_ellipsis(10 + 2 * r, 32, 24, A_NORMAL, name);
    }
}

static void draw_middle(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    if (t->phase == BARBU_PHASE_ARRANGE && (t->to_move != ui->view.seat || ui->watch)) {
        draw_rows_waiting(ui);
        return;
    }
    if (play_fife(ui) && fife_draw_middle(ui))
        return;
    if (!scr_playing(t))
        return;
    if (scr_layout_kind(t)) {
        draw_layout(ui);
        return;
    }
    if (t->trick.n > 0) {
        draw_trick(ui, &t->trick, NULL);
    } else if (t->ntricks > 0) {
        char caption[64];
        snprintf(caption, sizeof caption, "trick %d taken by %s", t->ntricks,
                 SEAT_WORDS[t->winner[t->ntricks - 1]]);
        draw_trick(ui, &t->last_trick, caption);
    }
}

static void draw_self(const play_ui *ui)
{
    const barbu_view *v = &ui->view;
    const barbu_table *t = &v->t;
    int me = v->seat;
    bool to_move = t->to_move == me && t->phase != BARBU_PHASE_OVER;
    attr_t name_attr = A_BOLD | (to_move ? (COLOUR ? COLOR_PAIR(PAIR_TURN) : A_REVERSE) : 0);
    char line[160];
    snprintf(line, sizeof line, "%s%s (%s%s)", to_move ? scr_glyph("\u25b6 ", "> ") : "",
             SEAT_WORDS[me], ui->names[me], ui->watch ? "" : ", you");
    scr_put(15, 2, 40, name_attr, line);
    int x = 2 + scr_text_width(line) + 2;
    const char *role = play_fife(ui) ? fife_role(ui, me) : NULL;
    if (role != NULL) {
        scr_put(15, x, 9, scr_colour(PAIR_INFO) | A_BOLD, role);
        x += scr_text_width(role) + 2;
    } else if (!play_fife(ui) && t->declarer == me && t->phase != BARBU_PHASE_OVER) {
        scr_put(15, x, 9, scr_colour(PAIR_INFO) | A_BOLD, "declarer");
        x += 10;
    }
    if (scr_playing(t) && !scr_layout_kind(t))
        snprintf(line, sizeof line, "%d trick%s", t->tricks[me], t->tricks[me] == 1 ? "" : "s");
    else
        line[0] = '\0';
    if (scr_playing(t) && scr_layout_kind(t))
        for (int k = 0; k < t->n_out; k++)
            if (t->out[k] == me)
                snprintf(line, sizeof line, "out %s", scr_ordinal(k));
    if (t->phase == BARBU_PHASE_ARRANGE)
        snprintf(line, sizeof line, "%s", (t->arranged >> me) & 1 ? "rows set" : "rows to set");
    scr_put(15, x, 20, A_NORMAL, line);
    scr_putf(15, 62, 17, A_NORMAL, "total %+d", t->total[me]);

    /* Line 16: owed doubles, bids, penalty cards taken. */
    x = 2;
    if (t->phase != BARBU_PHASE_OVER && me != t->declarer && v->rules->doubling) {
        int owed = barbu_view_owed(v, me);
        if (owed > 0 || t->phase == BARBU_PHASE_BID) {
            snprintf(line, sizeof line, "%s %s %d double%s", ui->watch ? "owes" : "you owe",
                     SEAT_WORDS[t->declarer], owed, owed == 1 ? "" : "s");
            scr_put(16, x, 40, scr_colour(PAIR_TURN), line);
            x += scr_text_width(line) + 3;
        }
    }
    bids_text(t, me, line, sizeof line);
    if (*line) {
        scr_put(16, x, 30, scr_colour(PAIR_INFO), line);
        x += scr_text_width(line) + 3;
    }
    if (scr_playing(t) && scr_has_kind(v->rules, t->contracts, BARBU_KIND_RAVAGE) && x < 60) {
        scr_put(16, x, 5, A_NORMAL, "took");
        put_suit_counts(16, x + 5, 78 - x - 5, t->taken[me]);
    } else if (scr_playing(t) && (t->taken[me] & t->penalty) && x < 60) {
        scr_put(16, x, 5, A_NORMAL, "took");
        scr_put_cards(16, x + 5, 78 - x - 5, t->taken[me] & t->penalty);
    }
}

static void draw_hand(const play_ui *ui)
{
    const barbu_view *v = &ui->view;
    barbu_card order[52];
    int n = play_hand_order(v->hand[v->seat], order);
    bool must_pass;
    barbu_cards legal = play_legal_cards(v, &must_pass);
    bool mine = !ui->watch && v->t.to_move == v->seat && ui->overlay == PLAY_NO_OVERLAY;
    bool choosing = mine && scr_playing(&v->t);
    /* Setting rows: every card is bright, with its row under it. */
    bool arranging = mine && v->t.phase == BARBU_PHASE_ARRANGE;
    /* The Fife game: cards ticked to pass on (every card may be), or to
     * play together at Patience; and the cards a Pass-on just brought. */
    bool passing = mine && v->t.phase == BARBU_PHASE_PASS_ON;
    barbu_cards picked = mine ? ui->picked : 0;
    barbu_cards received = fife_received(ui);
    barbu_cards rows[3] = {0};
    if (arranging)
        play_rows_effective(ui, rows);

    /* Four columns a card, two more between suits. */
    int width = 0;
    for (int i = 0; i < n; i++)
        width += 4 + (i > 0 && BARBU_SUIT(order[i]) != BARBU_SUIT(order[i - 1]) ? 2 : 0);
    int x = (CANVAS_W - width) / 2;
    if (x < 1)
        x = 1;
    for (int i = 0; i < n; i++) {
        if (i > 0 && BARBU_SUIT(order[i]) != BARBU_SUIT(order[i - 1]))
            x += 2;
        attr_t a = A_NORMAL;
        if (choosing) {
            a = (legal & BARBU_BIT(order[i])) ? A_BOLD | A_UNDERLINE : A_DIM;
            if (i == ui->cursor)
                a |= A_REVERSE;
        } else if (arranging || passing) {
            a = A_BOLD | (i == ui->cursor ? A_REVERSE : 0);
        }
        bool tick = picked & BARBU_BIT(order[i]);
        if (tick)
            a |= A_BOLD;
        char buf[16];
        scr_card_text(order[i], buf, sizeof buf);
        int w = scr_text_width(buf);
        scr_put_card(18, x + 3 - w, order[i], a);
        if ((choosing || passing) && i == ui->cursor)
            scr_put(19, x + 1, 1, A_BOLD, scr_glyph("\u25b2", "^"));
        if (tick)
            scr_put(19, x + 2, 1, scr_colour(PAIR_INFO) | A_BOLD, scr_glyph("\u2713", "*"));
        else if (received & BARBU_BIT(order[i]))
            scr_put(19, x + 2, 1, scr_colour(PAIR_TURN) | A_BOLD, "+");
        for (int r = 0; arranging && r < 3; r++) {
            /* A capital for a card put in its row, small when it only
             * falls there as the rest. */
            if (rows[r] & BARBU_BIT(order[i])) {
                bool placed = ui->rows[r] & BARBU_BIT(order[i]);
                char tag[2] = {placed ? "BMF"[r] : "bmf"[r], '\0'};
                scr_put(19, x + 2, 1, (placed ? A_BOLD : A_DIM) | (i == ui->cursor ? A_REVERSE : 0),
                        tag);
            }
        }
        if (arranging && i == ui->cursor && !((rows[0] | rows[1] | rows[2]) & BARBU_BIT(order[i])))
            scr_put(19, x + 1, 2, A_BOLD, scr_glyph("\u25b2", "^"));
        x += 4;
    }
    if (n == 0 && scr_playing(&v->t))
        scr_put(18, 30, 30, A_DIM, "(no cards left)");
    if (ui->typed[0] != '\0')
        scr_putf(19, 60, 19, A_BOLD, "typed: %s_", ui->typed);
    if (play_fife(ui) && ui->overlay == PLAY_NO_OVERLAY)
        fife_draw_hand_notes(ui);
}

/* What is happening and what the human should do. */
static void status_text(const play_ui *ui, char *buf, size_t cap)
{
    const barbu_view *v = &ui->view;
    const barbu_table *t = &v->t;
    int mover = t->to_move;
    if (t->phase == BARBU_PHASE_OVER) {
        snprintf(buf, cap, "The game is over.");
        return;
    }
    if (play_fife(ui) && fife_status_text(ui, buf, cap))
        return;
    if (mover != v->seat || ui->watch) {
        const char *doing = t->phase == BARBU_PHASE_DECLARE   ? "is choosing the contract"
                            : t->phase == BARBU_PHASE_BID     ? "is deciding whom to double"
                            : t->phase == BARBU_PHASE_ARRANGE ? "is setting the rows"
                                                              : "to play";
        snprintf(buf, cap, "%s (%s) %s%s%s", SEAT_WORDS[mover], ui->names[mover], doing,
                 scr_glyph("\u2026", "..."), ui->remote ? "" : "  (any key hurries)");
        return;
    }
    switch (t->phase) {
    case BARBU_PHASE_DECLARE:
        snprintf(buf, cap,
                 ui->menu_level == 0
                     ? "Your deal: choose a contract (arrows and Enter, or its number)."
                     : "Name it: arrows and Enter, or type it; Esc goes back.");
        return;
    case BARBU_PHASE_BID:
        snprintf(buf, cap, "%s",
                 t->declarer == v->seat
                     ? "Redouble whom you like: 1-3 or space ticks, m max, Enter."
                     : "Double whom you like: 1-3 or space ticks, m max, f family, Enter.");
        return;
    case BARBU_PHASE_ARRANGE:
        snprintf(buf, cap, "Set your rows: pick a card (arrows, or type it), then b, m or f.");
        return;
    case BARBU_PHASE_PLAY: {
        bool must_pass;
        play_legal_cards(v, &must_pass);
        if (must_pass)
            snprintf(buf, cap, "You cannot play to the layout: press Enter (or p) to pass.");
        else if (scr_layout_kind(t))
            snprintf(buf, cap, "Your turn: play a card that fits the layout.");
        else if (t->trick.n == 0)
            snprintf(buf, cap, "Your lead: choose a card.");
        else
            snprintf(buf, cap, "Your turn: play to %s's lead.", SEAT_WORDS[t->trick.leader]);
        if (v->advice) {
            size_t n = strlen(buf);
            snprintf(buf + n, cap - n, " Israeli rule: discard a penalty card.");
        }
        return;
    }
    default:
        /* The phases of seeds 000 and 004 (cuts, pass-ons, rows) have no
         * prompt here yet. */
        snprintf(buf, cap, "barbu play cannot prompt for this phase yet; q quits.");
        return;
    }
}

static void draw_status(const play_ui *ui)
{
    char buf[200];
    status_text(ui, buf, sizeof buf);
    bool mine =
        !ui->watch && ui->view.t.to_move == ui->view.seat && ui->view.t.phase != BARBU_PHASE_OVER;
    scr_put(21, 1, 78, A_BOLD | (mine ? scr_colour(PAIR_TURN) : 0), buf);
    if (ui->msg[0] != '\0')
        scr_put_ellipsis(22, 1, 78,
                         ui->msg_error ? scr_colour(PAIR_ERROR) | A_BOLD : scr_colour(PAIR_INFO),
                         ui->msg);

    const char *keys = ui->watch
                           ? (ui->remote ? "watching  s sheet  l last trick  ? help  q quit"
                                         : "watching: any key hurries  s sheet  l last trick  ? "
                                           "help  q quit")
                           : "s sheet  l last trick  ? help  q quit";
    if (mine && ui->view.t.phase == BARBU_PHASE_ARRANGE)
        keys = "b m f put the card in a row  u out  g suggest  r restart  Enter set  ? help";
    else if (mine && scr_playing(&ui->view.t))
        keys = scr_layout_kind(&ui->view.t)
                   ? "arrows + Enter or type it (8h, 10s)  p pass  s sheet  ? help  q quit"
                   : "arrows + Enter or type it (qh, 10s)  l last trick  s sheet  ? help  q quit";
    if (play_fife(ui) && fife_keys_text(ui) != NULL)
        keys = fife_keys_text(ui);
    scr_put(23, 1, 78, A_DIM, keys);
}

/* ----------------------------------------------------------------- prompts */

/* The first level of the declaration: the contracts the engine offers, how
 * often each is still yours where that is more than once, and the engine's
 * reason for each contract it does not offer, grouped by reason. */
static void draw_contract_menu(const play_ui *ui, const barbu_action *items, int n)
{
    const barbu_rules *r = ui->view.rules;
    const barbu_table *t = &ui->view.t;
    int me = ui->view.seat;
    int refused[BARBU_MAX_CONTRACTS], errs[BARBU_MAX_CONTRACTS];
    int n_refused = play_menu_refused(ui, refused, errs, BARBU_MAX_CONTRACTS);
    char groups[BARBU_MAX_CONTRACTS][320];
    int n_groups = 0;
    for (int i = 0; i < n_refused; i++) {
        bool first = true;
        for (int j = 0; j < i; j++)
            first &= errs[j] != errs[i];
        if (!first)
            continue;
        size_t k = 0;
        for (int j = i; j < n_refused; j++)
            if (errs[j] == errs[i])
                k += (size_t)snprintf(groups[n_groups] + k, sizeof groups[0] - k, "%s%s",
                                      k ? ", " : "", r->contract[refused[j]].name);
        snprintf(groups[n_groups] + k, sizeof groups[0] - k, ": %s",
                 errs[i] != 0 ? barbu_strerror(errs[i]) : "not offered now");
        n_groups++;
    }
    int x = 3, w = 74, inner = w - 4;
    int extra = n_groups > 0 ? 1 : 0;
    for (int g = 0; g < n_groups; g++)
        extra += scr_put_wrapped(-1, 0, inner - 1, 4, 3, A_NORMAL, groups[g]);
    /* Keep the hand (line 18) in sight when it can be. */
    int h = n + 2 + extra, y = 3;
    if (y + h > 18)
        y = 18 - h > 1 ? 18 - h : 1;
    if (y + h > 21)
        h = 21 - y;
    char title[80];
    int per_seat = t->n_deals / 4;
    snprintf(title, sizeof title, "Choose a contract: your deal %d of %d", t->declared[me] + 1,
             per_seat);
    scr_frame(y, x, h, w, title);
    for (int i = 0; i < n && i < h - 2; i++) {
        int c = __builtin_ctz(items[i].contracts), row = y + 1 + i;
        const barbu_contract *k = &r->contract[c];
        attr_t a = i == ui->menu_sel ? A_REVERSE | A_BOLD : A_NORMAL;
        char key[12] = "";
        if (i < 9)
            snprintf(key, sizeof key, "%d", i + 1);
        /* The highlight runs across the name and the points. */
        scr_putf(row, x + 2, 30, a, "%-3s%-20s %+6d ", key, "", barbu_contract_total(r, c));
        scr_put(row, x + 5, 20, a, k->name);
        char more[80] = "";
        int times = barbu_contract_times(r, c);
        if (k->per_player > 1)
            snprintf(more, sizeof more, "yours %d of %d left", barbu_declares_left(r, t, me, c),
                     k->per_player);
        if (times != 4 * k->per_player) {
            int done = 0;
            for (int s2 = 0; s2 < 4; s2++)
                done += t->used[s2][c];
            size_t m = strlen(more);
            snprintf(more + m, sizeof more - m, "%sgame %d of %d left", m ? ", " : "", times - done,
                     times);
        }
        scr_put(row, x + 34, inner - 32, A_DIM, more);
    }
    int row = y + 1 + n;
    if (n_groups > 0 && row < y + h - 1) {
        scr_put(row++, x + 2, inner, A_BOLD, "Not offered:");
        for (int g = 0; g < n_groups && row < y + h - 1; g++)
            row += scr_put_wrapped(row, x + 3, inner - 1, 4,
                                   y + h - 1 - row < 3 ? y + h - 1 - row : 3, A_DIM, groups[g]);
    }
}

/* Chinese Poker: the human sets the 13 cards in three rows.  The hand
 * below shows each card's row; the panel each row and its poker hand, and
 * the engine's verdict on the rows as they stand. */
static void draw_arrange(const play_ui *ui)
{
    static const char *const LABEL[] = {"back", "middle", "front"};
    static const int SIZE[] = {5, 5, 3};
    const barbu_view *v = &ui->view;
    const barbu_rules *r = v->rules;
    barbu_cards hand = v->hand[v->seat];
    barbu_card order[52];
    int n = play_hand_order(hand, order);
    barbu_card cursor = n > 0 ? order[ui->cursor < n ? ui->cursor : n - 1] : 0xff;
    int y = 3, x = 2, w = 76, h = 14;
    scr_frame(y, x, h, w, "Chinese Poker: set your 13 cards in three rows");

    const barbu_contract *k = NULL;
    for (unsigned m = v->t.contracts; m; m &= m - 1)
        if (r->contract[__builtin_ctz(m)].kind == BARBU_KIND_CHINESE)
            k = &r->contract[__builtin_ctz(m)];
    if (k != NULL)
        scr_putf(y + 1, x + 2, w - 4, A_DIM,
                 "A row wins or loses %d against each other player; all three, %d more.",
                 k->per_row, k->per_row * k->scoop);
    scr_put(y + 2, x + 2, w - 4, A_DIM,
            r->fouls_lose ? "Rows out of order (a middle above the back ...) lose every row."
                          : "The back must beat or tie the middle, and the middle the front.");

    barbu_cards rows[3];
    int unplaced = play_rows_effective(ui, rows);
    for (int i = 0; i < 3; i++) {
        int row = y + 4 + i, have = barbu_count(rows[i]);
        scr_put(row, x + 2, 7, A_BOLD, LABEL[i]);
        scr_putf(row, x + 9, 4, have == SIZE[i] ? A_NORMAL : scr_colour(PAIR_TURN), "%d/%d", have,
                 SIZE[i]);
        /* Cards put here, then (dim) the rest when it falls here. */
        put_row(row, x + 14, 22, rows[i] & ui->rows[i], cursor, A_BOLD);
        int used = 4 * barbu_count(rows[i] & ui->rows[i]);
        put_row(row, x + 14 + used, 22 - used, rows[i] & ~ui->rows[i], cursor, A_DIM);
        char name[64];
        if (have == SIZE[i])
            barbu_poker_describe(rows[i], name, sizeof name);
        else
            snprintf(name, sizeof name, "%d more card%s", SIZE[i] - have,
                     SIZE[i] - have == 1 ? "" : "s");
        scr_put_ellipsis(row, x + 37, w - 39, have == SIZE[i] ? A_NORMAL : A_DIM, name);
    }
    barbu_cards loose = hand & ~(rows[0] | rows[1] | rows[2]);
    scr_put(y + 7, x + 2, 11, A_BOLD, "not placed");
    if (loose)
        put_row(y + 7, x + 14, w - 16, loose, cursor, A_NORMAL);
    else
        scr_put(y + 7, x + 14, w - 16, A_DIM, "-");

    /* The engine's verdict on the rows as they stand. */
    char why[200];
    if (unplaced > 0) {
        scr_putf(y + 9, x + 2, w - 4, A_NORMAL, "%d card%s to place.", unplaced,
                 unplaced == 1 ? "" : "s");
    } else if (barbu_arrange_check(hand, rows[0], rows[1], r->fouls_lose, why, sizeof why) != 0) {
        char text[240];
        snprintf(text, sizeof text, "Not valid: %s.", why);
        scr_put_wrapped(y + 9, x + 2, w - 4, 2, 2, scr_colour(PAIR_ERROR) | A_BOLD, text);
    } else if (barbu_rows_fouled(rows[0], rows[1], rows[2])) {
        scr_put(y + 9, x + 2, w - 4, scr_colour(PAIR_ERROR) | A_BOLD,
                "Fouled: these rows would lose every row.  Enter sets them anyway.");
    } else {
        scr_put(y + 9, x + 2, w - 4, scr_colour(PAIR_INFO) | A_BOLD,
                "Ready: Enter sets these rows.");
    }
    scr_put(y + 11, x + 2, w - 4, A_NORMAL,
            "Left/Right or type a card (qh, 10s) to pick it; b m f put it in a row.");
    scr_put(y + 12, x + 2, w - 4, A_NORMAL,
            "u takes it out, r starts again, g the computer's rows, Enter sets them.");
}

static void draw_declare_menu(const play_ui *ui)
{
    const barbu_rules *r = ui->view.rules;
    barbu_action items[BARBU_MAX_ACTIONS];
    int n = play_menu_items(ui, items, BARBU_MAX_ACTIONS);
    if (ui->menu_level == 0) {
        draw_contract_menu(ui, items, n);
        return;
    }
    int c = __builtin_ctz(ui->menu_contracts);
    bool trumps = n > 0 && items[0].trump >= 0;
    char title[64];
    snprintf(title, sizeof title, "%s: %s", r->contract[c].name,
             trumps ? "the trump suit" : "the start rank");
    int w = 4 + n * 3 + 2, x = (CANVAS_W - w) / 2, y = 5;
    if (w < 36) {
        w = 36;
        x = (CANVAS_W - w) / 2;
    }
    scr_frame(y, x, 4, w, title);
    int cx = x + (w - n * 3) / 2;
    for (int i = 0; i < n; i++) {
        attr_t a = i == ui->menu_sel ? A_REVERSE | A_BOLD : A_BOLD;
        if (trumps)
            scr_putf(y + 2, cx + i * 3, 3, a | scr_suit_attr(items[i].trump), " %s ",
                     scr_suit_glyph(items[i].trump));
        else
            scr_putf(y + 2, cx + i * 3, 3, a, "%2s", RANK_TEXT[items[i].rank]);
    }
}

static void draw_bid_prompt(const play_ui *ui)
{
    const barbu_view *v = &ui->view;
    const barbu_table *t = &v->t;
    barbu_action legal[BARBU_MAX_ACTIONS];
    int n = barbu_view_legal(v, legal, BARBU_MAX_ACTIONS);
    unsigned may_dbl = 0, may_rdbl = 0;
    for (int i = 0; i < n && i < BARBU_MAX_ACTIONS; i++) {
        may_dbl |= legal[i].doubles;
        may_rdbl |= legal[i].redoubles;
    }
    int y = 8, x = 23, w = 34, h = 7;
    scr_frame(y, x, h, w, t->declarer == v->seat ? "Redoubling" : "Doubling");
    for (int row = 0; row < 3; row++) {
        int seat = play_bid_seat(ui, row);
        unsigned bit = 1u << seat;
        bool re = (t->dbl[seat] >> v->seat) & 1;
        bool may = re ? (may_rdbl & bit) : (may_dbl & bit);
        bool ticked = re ? (ui->bid_rdbl & bit) : (ui->bid_dbl & bit);
        attr_t a = (row == ui->bid_sel ? A_REVERSE : 0) | (may ? A_BOLD : A_DIM);
        if (may || ticked)
            scr_putf(y + 1 + row, x + 2, w - 4, a, "%d %-6s [%c] %s", row + 1, SEAT_WORDS[seat],
                     ticked ? 'x' : ' ', re ? "redouble" : "double");
        else
            scr_putf(y + 1 + row, x + 2, w - 4, a, "%d %-6s  -  may not %s", row + 1,
                     SEAT_WORDS[seat], re ? "redouble" : "double");
    }
    char line[80];
    if (v->compulsory) {
        snprintf(line, sizeof line, "You must double %s now!", SEAT_WORDS[t->declarer]);
        scr_put(y + 4, x + 2, w - 4, scr_colour(PAIR_ERROR) | A_BOLD, line);
    } else if (t->declarer != v->seat) {
        int owed = barbu_view_owed(v, v->seat);
        snprintf(line, sizeof line, "You owe %s %d double%s.", SEAT_WORDS[t->declarer], owed,
                 owed == 1 ? "" : "s");
        scr_put(y + 4, x + 2, w - 4, scr_colour(PAIR_TURN), line);
    }
    scr_put(y + 5, x + 2, w - 4, A_DIM,
            t->declarer == v->seat ? "0 none  m max  Enter" : "0 none  m max  f family  Enter");
}

/* ---------------------------------------------------------------- overlays */

void scr_help_tail(const play_ui *ui, const char *tail[2])
{
    tail[0] =
        ui->help_more[0] != NULL ? ui->help_more[0] : "  q  quit (asks first; the record is saved)";
    tail[1] = ui->help_more[1] != NULL ? ui->help_more[1]
                                       : "  any other key while the others play: hurry them up";
}

static void draw_help(const play_ui *ui)
{
    const char *LINES_[] = {
        "Playing a card",
        "  Left/Right, Home/End   move the cursor over your hand",
        "  Enter or space         play the card under the cursor",
        "  qh, 10s, ts, 2c        type a card: rank, then suit c d h s",
        "  p                      pass (Domino, when no card fits)",
        "Declaring and doubling",
        "  Up/Down, Enter, 1-9    choose a contract; then the trumps",
        "                         or start rank (letters work: s, h, 8, q)",
        "  1 2 3, space           tick a player to double or redouble",
        "  m  f  0                max, family, none;  Enter confirms",
        "Chinese Poker",
        "  Left/Right, qh, 10s    pick a card;  b m f  put it in the back,",
        "                         middle or front row;  u  take it out",
        "  g  r  Enter            computer's rows, start again, set them",
        "Any time",
        "  s  score sheet     l  last trick     ?  this help",
        "",
        "",
    };
    int n = (int)(sizeof LINES_ / sizeof LINES_[0]);
    scr_help_tail(ui, &LINES_[n - 2]);
    scr_help_box("Keys", LINES_, n);
}

void scr_scroll_window(int n, int rows, int scroll, int *first, int *last)
{
    *last = n - scroll;
    if (*last < rows && n >= rows)
        *last = rows;
    if (*last < 0)
        *last = 0;
    *first = *last - rows > 0 ? *last - rows : 0;
}

void scr_help_box(const char *title, const char *const *text, int n)
{
    int y = 2, x = 5, w = 70;
    scr_frame(y, x, n + 3, w, title);
    for (int i = 0; i < n; i++)
        scr_put(y + 1 + i, x + 2, w - 4, text[i][0] != ' ' ? A_BOLD : A_NORMAL, text[i]);
    scr_put(y + n + 1, x + 2, w - 4, A_DIM, "press any key");
}

static void draw_last_trick(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    int y = 7, x = 23, w = 34, h = 9;
    scr_frame(y, x, h, w, "Last trick");
    if (!scr_playing(t) || scr_layout_kind(t) || t->ntricks == 0) {
        scr_put(y + 3, x + 2, w - 4, A_NORMAL,
                scr_layout_kind(t) && scr_playing(t)
                    ? (t->kind == BARBU_KIND_PATIENCE ? "Patience has no tricks."
                                                      : "Domino has no tricks.")
                    : "No trick taken yet this deal.");
    } else {
        char caption[64];
        snprintf(caption, sizeof caption, "trick %d, taken by %s", t->ntricks,
                 SEAT_WORDS[t->winner[t->ntricks - 1]]);
        /* Clear the trick in progress underneath, then draw the last one. */
        draw_trick(ui, &t->last_trick, caption);
    }
    scr_put(y + h - 1, x + 2, w - 4, A_DIM, " any key ");
}

static void draw_quit(const play_ui *ui)
{
    int y = 9, x = 14, w = 52, h = 6;
    scr_frame(y, x, h, w, "Quit?");
    scr_put(y + 1, x + 2, w - 4, A_BOLD, "Leave the game now?  y = yes, any other key = no");
    if (ui->quit_note != NULL)
        scr_put_wrapped(y + 2, x + 2, w - 4, 0, 2, A_NORMAL, ui->quit_note);
    else
        scr_putf(y + 2, x + 2, w - 4, A_NORMAL, "The record is saved to %s", ui->record_path);
    if (ui->view.t.to_move == ui->view.seat && scr_playing(&ui->view.t))
        scr_put(y + 4, x + 2, w - 4, A_DIM, "(typing a queen? c d h s plays it)");
}

/* Text of the doubles of a result: "N:W E:NW E xN". */
static void result_doubles(const barbu_result *r, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int a = 0; a < 4 && n < cap; a++) {
        char d[16], rd[16];
        seats_text(r->dbl[a], d, sizeof d);
        seats_text(r->rdbl[a], rd, sizeof rd);
        if (*d)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s dbl %s", n ? ", " : "",
                                  barbu_seat_name(a), d);
        if (*rd && n < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s rdbl %s", n ? ", " : "",
                                  barbu_seat_name(a), rd);
    }
    if (n == 0)
        snprintf(buf, cap, "no doubles");
}

/* The running totals after the deals shown so far. */
void scr_totals_so_far(const play_ui *ui, int32_t total[4])
{
    for (int s = 0; s < 4; s++)
        total[s] = 0;
    for (int i = 0; i < ui->n_results; i++)
        for (int s = 0; s < 4; s++)
            total[s] += ui->results[i].score[s];
}

void scr_press_a_key(const play_ui *ui, int y, int x, int w)
{
    if (ui->view.t.phase == BARBU_PHASE_OVER)
        scr_put(y, x, w, A_BOLD, "That was the last deal. Press any key.");
    else if (ui->remote)
        scr_put(y, x, w, A_BOLD, "Press any key to go on (s: the sheet).");
    else if (ui->watch)
        scr_put(y, x, w, A_BOLD, "The next deal starts in a moment (any key: now; s: the sheet).");
    else
        scr_put(y, x, w, A_BOLD, "Press any key for the next deal (s: the sheet).");
}

/* The showdown of Chinese Poker: every player's rows and hands, and what
 * the deal scored. */
static void draw_showdown(const play_ui *ui, const barbu_result *r, const char *title)
{
    static const char *const LABEL[] = {"back", "middle", "front"};
    const barbu_rules *rules = ui->view.rules;
    /* A seat's block is its three rows and a line of scores. */
    int y = 1, x = 1, w = 78, h = 21;
    scr_frame(y, x, h, w, title);
    char line[160];
    result_doubles(r, line, sizeof line);
    scr_put_ellipsis(y + 1, x + 2, w - 4, A_DIM, line);
    int32_t total[4];
    scr_totals_so_far(ui, total);
    for (int s = 0; s < 4; s++) {
        int top = y + 2 + 4 * s;
        attr_t who = scr_is_you(ui, s) ? A_BOLD | scr_colour(PAIR_TURN) : A_BOLD;
        scr_put(top, x + 2, 9, who, SEAT_WORDS[s]);
        scr_put(top + 1, x + 2, 9, A_DIM, scr_is_you(ui, s) ? "(you)" : ui->names[s]);
        if (barbu_rows_fouled(r->rows[s][0], r->rows[s][1], r->rows[s][2]))
            scr_put(top + 2, x + 2, 9, scr_colour(PAIR_ERROR) | A_BOLD, "fouled");
        for (int i = 0; i < 3; i++) {
            char name[64];
            barbu_poker_describe(r->rows[s][i], name, sizeof name);
            scr_put(top + i, x + 12, 7, A_DIM, LABEL[i]);
            put_row(top + i, x + 19, 19, r->rows[s][i], 0xff, A_NORMAL);
            scr_put_ellipsis(top + i, x + 39, w - 41, A_NORMAL, name);
        }
        scr_putf(top + 3, x + 12, w - 14, A_NORMAL, "points %+d   score %+d   total %+" PRId32,
                 r->raw[s], r->score[s], total[s]);
    }
    for (unsigned m = r->contracts; m; m &= m - 1) {
        const barbu_contract *k = &rules->contract[__builtin_ctz(m)];
        if (k->kind == BARBU_KIND_CHINESE)
            scr_putf(y + 18, x + 2, w - 4, A_DIM,
                     "Each row wins or loses %d against each other player; all three, %d more.",
                     k->per_row, k->per_row * k->scoop);
    }
    scr_press_a_key(ui, y + 19, x + 2, w - 4);
}

static void draw_deal_end(const play_ui *ui)
{
    if (ui->n_results == 0)
        return;
    const barbu_result *r = &ui->results[ui->n_results - 1];
    const barbu_rules *rules = ui->view.rules;
    int y = 3, x = 2, w = 76, h = 14;
    char label[96], title[128];
    contract_label(rules, r->contracts, r->trump, r->rank, label, sizeof label);
    snprintf(title, sizeof title, "Deal %d of %d: %s by %s", r->deal + 1, ui->view.t.n_deals, label,
             SEAT_WORDS[r->declarer]);
    if (r->played && scr_has_kind(rules, r->contracts, BARBU_KIND_CHINESE)) {
        draw_showdown(ui, r, title);
        return;
    }
    bool ravage = r->played && scr_has_kind(rules, r->contracts, BARBU_KIND_RAVAGE);
    scr_frame(y, x, h, w, title);
    char line[160];
    result_doubles(r, line, sizeof line);
    scr_put(y + 1, x + 2, w - 4, A_NORMAL, line);
    bool layout = false;
    barbu_cards penalty = 0;
    for (unsigned m = r->contracts; m; m &= m - 1) {
        const barbu_contract *c = &rules->contract[__builtin_ctz(m)];
        layout |= c->kind == BARBU_KIND_DOMINO || c->kind == BARBU_KIND_PATIENCE;
        for (int card = 0; card < 64; card++)
            if (c->card[card] != 0)
                penalty |= BARBU_BIT(card);
    }
    if (!r->played) {
        scr_put(y + 2, x + 2, w - 4, scr_colour(PAIR_TURN),
                "Nobody doubled: the deal is not played and its points are shared.");
    } else if (r->tricks_left > 0) {
        scr_putf(y + 2, x + 2, w - 4, A_DIM, "ended early, %d trick%s not played", r->tricks_left,
                 r->tricks_left == 1 ? "" : "s");
    } else if (ravage) {
        for (unsigned m = r->contracts; m; m &= m - 1)
            if (rules->contract[__builtin_ctz(m)].kind == BARBU_KIND_RAVAGE)
                scr_putf(y + 2, x + 2, w - 4, A_DIM,
                         "Ravage City: the most cards of one suit score %d, shared when tied.",
                         rules->contract[__builtin_ctz(m)].shared);
    }
    /* Columns: player, tricks or place, cards taken, points, score, total. */
    enum { C_WHO = 2, C_TRICKS = 22, C_CARDS = 30, C_POINTS = 52 };
    scr_put(y + 4, x + C_WHO, 19, A_BOLD, "player");
    if (r->played)
        scr_putf(y + 4, x + C_TRICKS, 6, A_BOLD, "%6s", layout ? "out" : "tricks");
    if (ravage)
        scr_put(y + 4, x + C_CARDS, 20, A_BOLD, "cards of each suit");
    else if (r->played && !layout && penalty)
        scr_put(y + 4, x + C_CARDS, 20, A_BOLD, "cards taken");
    scr_putf(y + 4, x + C_POINTS, 20, A_BOLD, "%6s %6s %6s", "points", "score", "total");
    int32_t total[4];
    scr_totals_so_far(ui, total);
    for (int s = 0; s < 4; s++) {
        int row = y + 5 + s;
        char who[40];
        snprintf(who, sizeof who, "%s (%s)", SEAT_WORDS[s], ui->names[s]);
        scr_put(row, x + C_WHO, 19, scr_is_you(ui, s) ? A_BOLD : A_NORMAL, who);
        if (r->played && layout) {
            for (int k = 0; k < 4; k++)
                if (r->order[k] == s)
                    scr_putf(row, x + C_TRICKS, 6, A_NORMAL, "%6s", scr_ordinal(k));
        } else if (r->played) {
            scr_putf(row, x + C_TRICKS, 6, A_NORMAL, "%6d", r->tricks[s]);
        }
        if (ravage)
            put_suit_counts(row, x + C_CARDS, C_POINTS - C_CARDS - 1, r->taken[s]);
        else if (r->played && !layout && penalty)
            scr_put_cards(row, x + C_CARDS, C_POINTS - C_CARDS - 1, r->taken[s] & penalty);
        scr_putf(row, x + C_POINTS, 20, A_NORMAL, "%+6d %+6d %+6" PRId32, r->raw[s], r->score[s],
                 total[s]);
    }
    scr_put(y + 10, x + 2, w - 4, A_DIM,
            "points: the contract's own; score: after the doubles; total: so far");
    scr_press_a_key(ui, y + h - 2, x + 2, w - 4);
}

/* "SxNW WxxS" as in cli_print_sheet: S doubled N and W, W redoubled S. */
static void sheet_doubles(const barbu_result *r, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int a = 0; a < 4 && n < cap; a++) {
        for (int re = 1; re >= 0 && n < cap; re--) {
            unsigned mask = re ? r->rdbl[a] : r->dbl[a];
            if (mask == 0)
                continue;
            n += (size_t)snprintf(buf + n, cap - n, "%s%s%s", n ? " " : "", barbu_seat_name(a),
                                  re ? "xx" : "x");
            for (int s = 0; s < 4 && n + 1 < cap; s++)
                if (mask & (1u << s))
                    buf[n++] = barbu_seat_name(s)[0];
            buf[n < cap ? n : cap - 1] = '\0';
        }
    }
}

/* The sheet uses the whole terminal, not the canvas. */
static void draw_sheet(const play_ui *ui, bool final)
{
    const barbu_rules *rules = ui->view.rules;
    int save_oy = OY, save_ox = OX;
    int h = AH, w = AW > 100 ? 100 : AW;
    OY = AY;
    OX = AX + (AW - w) / 2;
    scr_frame(0, 0, h, w, final ? "Game over: the score sheet" : "Score sheet");
    /* deal, declarer, contract, doubles (as wide as the terminal allows),
     * then the four scores at the right. */
    int c_scores = w - 30, c_doubles = 33, doubles_w = c_scores - c_doubles - 1;
    scr_putf(1, 2, 30, A_BOLD, "%-4s %-4s %s", "deal", "decl", "contract");
    scr_put(1, c_doubles, doubles_w, A_BOLD, "doubles");
    scr_putf(1, c_scores, 28, A_BOLD, "%6.6s %6.6s %6.6s %6.6s", "North", "East", "South", "West");
    /* Six lines for the rule, the totals, the contracts left and the keys. */
    int rows = h - 8, n = ui->n_results;
    if (rows < 1)
        rows = 1;
    int first, last;
    scr_scroll_window(n, rows, ui->sheet_scroll, &first, &last);
    for (int i = first; i < last; i++) {
        const barbu_result *r = &ui->results[i];
        char label[96], doubles[80];
        contract_label(rules, r->contracts, r->trump, r->rank, label, sizeof label);
        if (!r->played)
            snprintf(label + strlen(label), sizeof label - strlen(label), " (shared)");
        sheet_doubles(r, doubles, sizeof doubles);
        int y = 2 + i - first;
        scr_putf(y, 2, 10, A_NORMAL, "%4d %-4s", r->deal + 1, barbu_seat_name(r->declarer));
        scr_put_ellipsis(y, 12, 20, A_NORMAL, label);
        scr_put_ellipsis(y, c_doubles, doubles_w, A_DIM, doubles);
        scr_putf(y, c_scores, 28, A_NORMAL, "%+6d %+6d %+6d %+6d", r->score[0], r->score[1],
                 r->score[2], r->score[3]);
    }
    if (n == 0)
        scr_put(3, 4, w - 8, A_DIM, "No deal has been completed yet.");
    const barbu_table *t = &ui->view.t;
    int y = h - 6;
    mvhline(OY + y, OX + 1, UTF8 ? ACS_HLINE : '-', w - 2);
    scr_put(y + 1, 12, 20, A_BOLD, "total");
    scr_putf(y + 1, c_scores, 28, A_BOLD, "%+6" PRId32 " %+6" PRId32 " %+6" PRId32 " %+6" PRId32,
             t->total[0], t->total[1], t->total[2], t->total[3]);
    /* What each player may still declare: the deals it has left to declare,
     * then each contract it may still choose (times two where twice), as
     * far as its own allowance and the game's count allow. */
    int per_seat = t->n_deals / 4, col = (w - 4) / 2;
    for (int s = 0; s < 4; s++) {
        char left[160];
        int to_go = per_seat - t->declared[s];
        size_t k =
            to_go > 0 ? (size_t)snprintf(left, sizeof left, "%s %d:", barbu_seat_name(s), to_go)
                      : (size_t)snprintf(left, sizeof left, "%s: all declared", barbu_seat_name(s));
        for (int c = 0; c < rules->n_contracts && to_go > 0 && k < sizeof left; c++) {
            int n_left = barbu_declares_left(rules, t, s, c);
            if (n_left == 0)
                continue;
            k += (size_t)snprintf(left + k, sizeof left - k, " %s", rules->contract[c].abbr);
            if (n_left > 1 && k < sizeof left)
                k += (size_t)snprintf(left + k, sizeof left - k, "%s%d", scr_glyph("\u00d7", "x"),
                                      n_left);
        }
        scr_put_ellipsis(y + 3 + s / 2, 2 + (s % 2) * col, col - 1, A_NORMAL, left);
    }
    scr_put(y + 2, 2, 36, A_DIM, "still to declare (deals: choices)");
    scr_put(y + 2, w - 40, 38, A_DIM, "SxNW: S doubled N and W; xx: redoubled");
    scr_put(h - 1, 2, w - 4, A_DIM,
            final && !ui->remote ? " Up/Down scroll, any other key leaves "
                                 : " Up/Down scroll, any other key closes ");
    OY = save_oy;
    OX = save_ox;
}

/* ------------------------------------------------------------------- draw */

void play_draw(const play_ui *ui)
{
    erase();
    play_paint(ui, 0, 0, LINES, COLS);
    refresh();
}

void play_paint(const play_ui *ui, int top, int left, int height, int width)
{
    AY = top;
    AX = left;
    AH = height;
    AW = width;
    if (!play_area_fits(height, width)) {
        /* Too small for the table: say so rather than draw a jumble. */
        char size[64];
        snprintf(size, sizeof size, "to at least %dx%d (it is %dx%d now).", CANVAS_W + COLS - width,
                 CANVAS_H + LINES - height, COLS, LINES);
        const char *say[] = {"Please enlarge the terminal", size, "The game waits; q quits."};
        for (int i = 0; i < 3; i++) {
            int len = (int)strlen(say[i]), y = top + height / 2 - 1 + i;
            if (y >= 0 && y < LINES)
                mvaddnstr(y, left + (len < width ? (width - len) / 2 : 0), say[i], width);
        }
        return;
    }
    if (ui->overlay == PLAY_SHEET || ui->overlay == PLAY_OVER) {
        if (play_fife(ui))
            fife_draw_sheet(ui, ui->overlay == PLAY_OVER);
        else
            draw_sheet(ui, ui->overlay == PLAY_OVER);
        return;
    }
    OY = top + (height - CANVAS_H) / 2;
    OX = left + (width - CANVAS_W) / 2;
    int me = ui->view.seat;
    draw_title(ui);
    draw_contract(ui);
    /* The Silly Round's cuts take the middle rows from side to side: the
     * players on the left and right move up beside the one across. */
    int side_y = play_fife(ui) && fife_wide_middle(ui) ? 3 : 9;
    draw_seat(ui, (me + 2) & 3, 3, 28, 26);
    draw_seat(ui, (me + 1) & 3, side_y, 1, 23);
    draw_seat(ui, (me + 3) & 3, side_y, 57, 22);
    if (ui->overlay != PLAY_LAST)
        draw_middle(ui);
    draw_self(ui);
    draw_hand(ui);
    draw_status(ui);

    bool mine = !ui->watch && ui->view.t.to_move == me && ui->view.t.phase != BARBU_PHASE_OVER;
    switch (ui->overlay) {
    case PLAY_NO_OVERLAY:
        if (mine && ui->view.t.phase == BARBU_PHASE_DECLARE && play_fife(ui))
            fife_draw_call_menu(ui);
        else if (mine && ui->view.t.phase == BARBU_PHASE_DECLARE)
            draw_declare_menu(ui);
        else if (mine && ui->view.t.phase == BARBU_PHASE_BID)
            draw_bid_prompt(ui);
        else if (mine && ui->view.t.phase == BARBU_PHASE_ARRANGE)
            draw_arrange(ui);
        break;
    case PLAY_HELP:
        if (play_fife(ui))
            fife_draw_help(ui);
        else
            draw_help(ui);
        break;
    case PLAY_DRAW:
        fife_draw_draw(ui);
        break;
    case PLAY_CUTS:
        fife_draw_cuts(ui);
        break;
    case PLAY_LAST:
        draw_last_trick(ui);
        break;
    case PLAY_QUIT:
        draw_quit(ui);
        break;
    case PLAY_DEAL_END:
        if (play_fife(ui))
            fife_draw_deal_end(ui);
        else
            draw_deal_end(ui);
        break;
    default:
        break;
    }
}

/* --------------------------------------------------------------- messages */

void play_describe(const play_ui *ui, const barbu_table *before, const barbu_action *a, char *buf,
                   size_t cap)
{
    const barbu_table *t = &ui->view.t;
    bool you = scr_is_you(ui, a->seat);
    const char *who = you ? "You" : SEAT_WORDS[a->seat];
    const char *s = you ? "" : "s";
    char text[96], more[64];
    buf[0] = '\0';
    if (play_fife(ui)) {
        play_fife_describe(ui, before, a, buf, cap);
        return;
    }
    switch (a->type) {
    case BARBU_ACT_DECLARE:
        contract_label(ui->view.rules, a->contracts, a->trump, a->rank, text, sizeof text);
        snprintf(buf, cap, "%s declare%s %s.", who, s, text);
        return;
    case BARBU_ACT_BID: {
        char d[16], r[16];
        seats_text(a->doubles, d, sizeof d);
        seats_text(a->redoubles, r, sizeof r);
        if (*d && *r)
            snprintf(buf, cap, "%s double%s %s and redouble%s %s.", who, s, d, s, r);
        else if (*d)
            snprintf(buf, cap, "%s double%s %s.", who, s, d);
        else if (*r)
            snprintf(buf, cap, "%s redouble%s %s.", who, s, r);
        else
            snprintf(buf, cap, "%s %s not %s.", who, you ? "do" : "does",
                     a->seat == before->declarer ? "redouble" : "double");
        if (t->deal != before->deal)
            snprintf(buf + strlen(buf), cap - strlen(buf), " Nobody doubled: no play.");
        return;
    }
    case BARBU_ACT_PLAY:
        scr_card_text((barbu_card)__builtin_ctzll(a->cards), text, sizeof text);
        snprintf(buf, cap, "%s play%s %s.", who, s, text);
        more[0] = '\0';
        if (t->deal == before->deal && t->ntricks > before->ntricks) {
            int w = t->winner[t->ntricks - 1];
            snprintf(more, sizeof more, " %s take%s the trick.",
                     scr_is_you(ui, w) ? "You" : SEAT_WORDS[w], scr_is_you(ui, w) ? "" : "s");
        } else if (t->deal == before->deal && t->n_out > before->n_out) {
            snprintf(more, sizeof more, " %s %s out.", who, you ? "are" : "is");
        }
        snprintf(buf + strlen(buf), cap - strlen(buf), "%s", more);
        return;
    case BARBU_ACT_PASS:
        snprintf(buf, cap, "%s cannot play and pass%s.", who, you ? "" : "es");
        return;
    case BARBU_ACT_ARRANGE:
        snprintf(buf, cap, "%s set%s %s rows.%s", who, s, you ? "your" : "its",
                 t->deal != before->deal ? " All four are set: the showdown." : "");
        return;
    default:
        snprintf(buf, cap, "%s act%s.", who, s);
        return;
    }
}
