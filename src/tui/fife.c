/*
 * fife.c - the Fife game of seed 000 at the terminal table: where the game is
 * (Set, Round, deal), the Caller's menu of Calls and combinations, the
 * Silly Round's cuts and Pass-ons as they happen, the draws from the Unused
 * Pack, a deal's result with its Calls and the players' own score sheet.
 *
 * Like screen.c it sees only the human's view (and the sheet built
 * from the deals' results); every rule question goes to the engine: the
 * legal Calls and groups come from barbu_view_legal, the reasons for the
 * others from barbu_view_check through play_check.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"

#define KING_OF_HEARTS BARBU_CARD(BARBU_HEARTS, BARBU_KING)
#define WEE_HARRY      BARBU_CARD(BARBU_HEARTS, BARBU_JACK)

static const char *const CALL_NAMES[BARBU_CALLS] = {"Aces",   "King of Hearts", "Queens",  "Hearts",
                                                    "Tricks", "Patience",       "Patience"};
static const char *const CALL_ABBR[BARBU_CALLS] = {"AC", "KH", "QU", "HE", "TR", "P1", "P2"};
/* The score sheet's column heads, as in the booklet. */
static const char *const COL_HEADS[BARBU_SHEET_COLS] = {"Aces",   "KHearts", "Queens", "Hearts",
                                                        "Tricks", "Pat. 1",  "Pat. 2"};

bool play_fife(const play_ui *ui)
{
    return ui->view.rules != NULL && ui->view.rules->game == BARBU_GAME_FIFE;
}

static bool silly(const barbu_table *t)
{
    return t->round == BARBU_SILLY_ROUND;
}

static const char *dash(void)
{
    return scr_glyph(" \u2014 ", " - ");
}

static unsigned calls_left(const barbu_table *t)
{
    return BARBU_CALLS_ALL & ~t->calls_done;
}

/* Appends to a string buffer, never past its end. */
static void append(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

/* "9♥ 8♥ 7♥": a set of cards high to low, by suit. */
static void cards_text(barbu_cards cards, char *buf, size_t cap)
{
    barbu_card order[52];
    int n = play_hand_order(cards, order);
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char c[16];
        scr_card_text(order[i], c, sizeof c);
        append(buf, cap, "%s%s", i ? " " : "", c);
    }
}

void play_fife_calls_text(unsigned calls, char *buf, size_t cap)
{
    calls &= BARBU_CALLS_ALL;
    if (!((calls & BARBU_CALLS_NEGATIVE) && (calls & BARBU_CALLS_PATIENCE))) {
        barbu_calls_describe(calls, buf, cap);
        return;
    }
    /* A mixture the engine has no name for: each Call by its name. */
    buf[0] = '\0';
    for (unsigned m = calls & BARBU_CALLS_NEGATIVE; m; m &= m - 1)
        append(buf, cap, "%s%s", buf[0] ? " + " : "", CALL_NAMES[__builtin_ctz(m)]);
    append(buf, cap, " + %s",
           (calls & BARBU_CALLS_PATIENCE) == BARBU_CALLS_PATIENCE ? "Double Patience"
                                                                  : "Single Patience");
}

/* "AC+QU" for the lists of the Call menu. */
static void calls_abbr(unsigned calls, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (calls == BARBU_CALLS_NEGATIVE) {
        snprintf(buf, cap, "The Lot");
        return;
    }
    if (calls & BARBU_CALLS_PATIENCE) {
        snprintf(buf, cap, "%s",
                 (calls & BARBU_CALLS_PATIENCE) == BARBU_CALLS_PATIENCE ? "Double Patience"
                                                                        : "Single Patience");
        return;
    }
    if ((calls & (calls - 1)) == 0) {
        snprintf(buf, cap, "%s", CALL_NAMES[__builtin_ctz(calls)]);
        return;
    }
    for (unsigned m = calls; m; m &= m - 1)
        append(buf, cap, "%s%s", buf[0] ? "+" : "", CALL_ABBR[__builtin_ctz(m)]);
}

/* "Set 1 · Player Round 2 (Caller W) · deal 3", "Set 1 · Silly Round ·
 * deal 2 (dealer E, cutter N)". */
static void where_text(const barbu_table *t, char *buf, size_t cap)
{
    const char *dot = scr_glyph(" \u00b7 ", " - ");
    if (t->phase == BARBU_PHASE_OVER) {
        snprintf(buf, cap, "The game is over");
        return;
    }
    if (silly(t))
        snprintf(buf, cap, "Set %d%sSilly Round%sdeal %d (dealer %s, cutter %s)", t->set + 1, dot,
                 dot, t->round_deal + 1, barbu_seat_name(t->dealer), barbu_seat_name(t->cutter));
    else
        snprintf(buf, cap, "Set %d%sPlayer Round %d (Caller %s)%sdeal %d", t->set + 1, dot,
                 t->round + 1, barbu_seat_name(t->declarer), dot, t->round_deal + 1);
}

/* "Player Round 2, deal 3" / "Silly Round, deal 2" for a result. */
static void result_where(const barbu_result *r, char *buf, size_t cap)
{
    if (r->round == BARBU_SILLY_ROUND)
        snprintf(buf, cap, "Silly Round, deal %d", r->round_deal + 1);
    else
        snprintf(buf, cap, "Player Round %d, deal %d", r->round + 1, r->round_deal + 1);
}

const char *fife_role(const play_ui *ui, int seat)
{
    const barbu_table *t = &ui->view.t;
    if (t->phase == BARBU_PHASE_OVER)
        return NULL;
    if (!silly(t))
        return seat == t->declarer ? "Caller" : NULL;
    if (seat == t->dealer)
        return "dealer";
    if (seat == t->cutter)
        return "cutter";
    return NULL;
}

/* Whether a Patience Call is forced on the Caller: only Patience is left. */
static bool constipatience(const barbu_table *t)
{
    return !silly(t) && (calls_left(t) & BARBU_CALLS_NEGATIVE) == 0;
}

/* ------------------------------------------------------------- the engine */

int play_check(const play_ui *ui, const barbu_action *action)
{
    return barbu_view_check(&ui->view, action);
}

int play_explain(const play_ui *ui, const barbu_action *action, char *why, size_t cap)
{
    return barbu_view_explain(&ui->view, action, why, cap);
}

/* The Calls and combinations the engine offers the Caller, in its order
 * (singles, then larger combinations, then the Patiences). */
static int legal_calls(const play_ui *ui, unsigned *out, int cap)
{
    barbu_action legal[BARBU_MAX_ACTIONS];
    const barbu_view *v = &ui->view;
    if (v->t.phase != BARBU_PHASE_DECLARE || v->t.to_move != v->seat)
        return 0;
    int n = barbu_view_legal(v, legal, BARBU_MAX_ACTIONS), k = 0;
    for (int i = 0; i < n && i < BARBU_MAX_ACTIONS && k < cap; i++)
        if (legal[i].type == BARBU_ACT_DECLARE)
            out[k++] = legal[i].contracts;
    return k;
}

/* ------------------------------------------------------------ cuts, notes */

static const char *dir_words(int dir)
{
    static const char *const DIR[] = {"", "to the left", "across", "to the right"};
    return DIR[dir & 3];
}

/* A cut in short: "3♥", "a Joker", "the Bridge card". */
static void cut_card_text(barbu_card cut, char *buf, size_t cap)
{
    if (cut == BARBU_JOKER || cut == BARBU_BRIDGE)
        barbu_cut_describe(cut, buf, cap);
    else
        scr_card_text(cut, buf, cap);
}

/* What a cut of the Silly Round decided, as the engine reads it (the view
 * holds the deal's cuts): "W cuts 3♥: King of Hearts: cut again: ...". */
static void cut_text(const play_ui *ui, const barbu_action *a, char *buf, size_t cap)
{
    const barbu_table *t = &ui->view.t;
    barbu_card cut = t->cuts[(t->n_cuts + 31) % 32];
    char card[40], note[320];
    cut_card_text(cut, card, sizeof card);
    bool you = scr_is_you(ui, a->seat);
    if (barbu_cut_note(ui->view.rules, t, t->n_cuts - 1, NULL, note, sizeof note) < 0)
        note[0] = '\0';
    snprintf(buf, cap, "%s cut%s %s%s%s", you ? "You" : barbu_seat_name(a->seat), you ? "" : "s",
             card, note[0] ? ": " : "", note);
}

/* After the last seat chose its cards: what the shown seat gave and got. */
static void pass_on_done_text(const play_ui *ui, const barbu_table *before, char *buf, size_t cap)
{
    const barbu_view *v = &ui->view;
    int k = before->n_pass_ons, me = v->seat, dir = before->pass_dir;
    char gave[64], got[64];
    cards_text(v->passed[k], gave, sizeof gave);
    cards_text(v->received[k], got, sizeof got);
    bool you = !ui->watch;
    static const char *const DIR[] = {"", "left", "across", "right"};
    snprintf(buf, cap, "Pass-on %d (%s): %s gave %s to %s, got %s from %s.", k + 1, DIR[dir & 3],
             you ? "you" : scr_seat_word(me), gave, scr_seat_word((me + dir) & 3), got,
             scr_seat_word((me + 4 - dir) & 3));
}

static void log_line(play_ui *ui, const char *text)
{
    if (ui->n_log == PLAY_LOG_LINES) {
        memmove(ui->log[0], ui->log[1], sizeof ui->log[0] * (PLAY_LOG_LINES - 1));
        ui->n_log--;
    }
    char *line = ui->log[ui->n_log++];
    line[0] = '\0';
    append(line, sizeof ui->log[0], "%s", text);
}

void play_fife_note(play_ui *ui, const barbu_table *before, const barbu_action *a)
{
    if (!play_fife(ui) || (a->type != BARBU_ACT_CUT && a->type != BARBU_ACT_PASS_ON))
        return;
    const barbu_table *t = &ui->view.t;
    if (ui->log_deal != before->deal) {
        ui->log_deal = before->deal;
        ui->n_log = 0;
        ui->cut_summary[0] = '\0';
    }
    char text[400];
    if (a->type == BARBU_ACT_PASS_ON) {
        if ((before->passed_on | (1u << a->seat)) == 0xf) {
            pass_on_done_text(ui, before, text, sizeof text);
            log_line(ui, text);
        }
        return;
    }
    cut_text(ui, a, text, sizeof text);
    log_line(ui, text);
    /* In short: the cards, and what they decided. */
    char *sum = ui->cut_summary;
    size_t cap = sizeof ui->cut_summary;
    barbu_card cut = t->cuts[(t->n_cuts + 31) % 32];
    char card[40];
    if (cut == BARBU_JOKER || cut == BARBU_BRIDGE)
        snprintf(card, sizeof card, "%s", cut == BARBU_JOKER ? "Joker" : "Bridge");
    else
        scr_card_text(cut, card, sizeof card);
    const char *arrow = scr_glyph(" \u2192 ", " > ");
    append(sum, cap, "%s%s", sum[0] && sum[strlen(sum) - 1] != ' ' ? " " : "", card);
    if (before->cut_for == BARBU_CUT_CALL && before->contracts == 0 && t->contracts != 0) {
        char calls[64];
        calls_abbr(t->contracts, calls, sizeof calls);
        append(sum, cap, "%s%s; ", arrow, calls);
    } else if (before->cut_for == BARBU_CUT_PASS_ON && cut != BARBU_JOKER && cut != BARBU_BRIDGE) {
        static const char *const DIR[] = {"", "left", "across", "right"};
        if (t->phase == BARBU_PHASE_PASS_ON)
            append(sum, cap, "%sPass-on %s; ", arrow, DIR[t->pass_dir & 3]);
        else
            append(sum, cap, "%sno %sPass-on; ", arrow, before->n_pass_ons ? "more " : "");
    }
}

/* The trick just completed, its winner and the cards it held (also when
 * it was the deal's last, whose result is in t.last). */
static bool trick_done(const play_ui *ui, const barbu_table *before, const barbu_action *a,
                       int *winner, barbu_cards *cards, int8_t *piranha)
{
    const barbu_table *t = &ui->view.t;
    if (before->kind == BARBU_KIND_PATIENCE || before->phase != BARBU_PHASE_PLAY)
        return false;
    if (t->deal == before->deal) {
        if (t->ntricks <= before->ntricks)
            return false;
        *winner = t->winner[t->ntricks - 1];
        *cards = 0;
        for (int i = 0; i < t->last_trick.n; i++)
            *cards |= BARBU_BIT(t->last_trick.card[i]);
        *piranha = t->piranha;
        return true;
    }
    *cards = a->cards;
    for (int i = 0; i < before->trick.n; i++)
        *cards |= BARBU_BIT(before->trick.card[i]);
    *winner = -1;
    for (int s = 0; s < 4; s++)
        if ((t->last.taken[s] & *cards) == *cards)
            *winner = s;
    *piranha = t->last.piranha;
    return *winner >= 0;
}

void play_fife_describe(const play_ui *ui, const barbu_table *before, const barbu_action *a,
                        char *buf, size_t cap)
{
    const barbu_table *t = &ui->view.t;
    bool you = scr_is_you(ui, a->seat);
    const char *who = you ? "You" : scr_seat_word(a->seat);
    const char *s = you ? "" : "s";
    char text[160];
    buf[0] = '\0';
    switch (a->type) {
    case BARBU_ACT_DECLARE:
        play_fife_calls_text(a->contracts, text, sizeof text);
        snprintf(buf, cap, "%s call%s %s.%s", who, s, text,
                 constipatience(before) ? " A Constipatience: only Patience was left." : "");
        return;
    case BARBU_ACT_CUT:
        cut_text(ui, a, buf, cap);
        append(buf, cap, ".");
        if (t->phase == BARBU_PHASE_PLAY)
            append(buf, cap, " %s %s.", scr_seat_word(t->to_move),
                   t->kind == BARBU_KIND_PATIENCE ? "plays first" : "leads");
        return;
    case BARBU_ACT_PASS_ON:
        if ((before->passed_on | (1u << a->seat)) == 0xf) {
            pass_on_done_text(ui, before, buf, cap);
        } else if (you) {
            cards_text(a->cards, text, sizeof text);
            snprintf(buf, cap, "You pass %s to %s.", text,
                     scr_seat_word(barbu_pass_target(before, a->seat)));
        } else {
            snprintf(buf, cap, "%s chooses 3 cards to pass to %s.", who,
                     scr_seat_word(barbu_pass_target(before, a->seat)));
        }
        return;
    case BARBU_ACT_PASS:
        snprintf(buf, cap, "%s chap%s: no card fits the layout.", who, s);
        return;
    case BARBU_ACT_PLAY:
        break;
    default:
        snprintf(buf, cap, "%s act%s.", who, s);
        return;
    }
    cards_text(a->cards, text, sizeof text);
    snprintf(buf, cap, "%s play%s %s", who, s, text);
    int winner;
    barbu_cards cards;
    int8_t piranha;
    if (trick_done(ui, before, a, &winner, &cards, &piranha)) {
        bool last = t->deal != before->deal;
        bool w_you = scr_is_you(ui, winner);
        append(buf, cap, ". %s take%s the %strick", w_you ? "You" : scr_seat_word(winner),
               w_you ? "" : "s", last ? "last " : "");
        barbu_cards named = cards & before->penalty;
        bool kingko = named & BARBU_BIT(KING_OF_HEARTS), harry = named & BARBU_BIT(WEE_HARRY);
        if (kingko && harry)
            append(buf, cap, " with El Kingko and Wee Harry");
        else if (kingko)
            append(buf, cap, " with El Kingko");
        else if (harry)
            append(buf, cap, " with Wee Harry");
        if (kingko && before->piranha < 0 && piranha >= 0)
            append(buf, cap, " on an 8: a Piranha!");
        else
            append(buf, cap, ".");
        return;
    }
    if (before->kind == BARBU_KIND_PATIENCE && before->phase == BARBU_PHASE_PLAY) {
        int place = -1;
        if (t->deal == before->deal) {
            for (int k = 0; k < t->n_out; k++)
                if (t->out[k] == a->seat)
                    place = k;
        } else {
            for (int k = 0; k < 4; k++)
                if (t->last.order[k] == a->seat)
                    place = k;
        }
        if (place >= 0)
            append(buf, cap, " and %s out %s", you ? "are" : "is", scr_ordinal(place));
        if (t->deal != before->deal)
            append(buf, cap, ". The Patience is over");
    }
    append(buf, cap, ".");
}

/* ------------------------------------------------------------------ header */

void fife_draw_header(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    char line[160], label[96];
    where_text(t, line, sizeof line);
    scr_put(1, 1, 50, A_BOLD, line);
    if (t->phase == BARBU_PHASE_OVER)
        return;
    /* The Calls the Round has left, by their sheet abbreviations. */
    snprintf(line, sizeof line, "left:");
    for (int c = 0; c < BARBU_CALLS; c++)
        if (calls_left(t) & (1u << c))
            append(line, sizeof line, " %s", CALL_ABBR[c]);
    scr_put(1, 79 - scr_text_width(line), 29, A_DIM, line);

    bool you = scr_is_you(ui, t->declarer);
    switch (t->phase) {
    case BARBU_PHASE_DECLARE:
        scr_putf(2, 1, 78, A_BOLD, "%s is the Caller and chooses the Call%s%s",
                 scr_seat_word(t->declarer), you ? " (you)" : "",
                 constipatience(t) ? ": a Constipatience, only Patience is left" : "");
        return;
    case BARBU_PHASE_CUT:
        scr_putf(2, 1, 54, A_BOLD, "%s cut%s the Unused Pack for %s",
                 scr_is_you(ui, t->cutter) ? "You" : scr_seat_word(t->cutter),
                 scr_is_you(ui, t->cutter) ? "" : "s",
                 t->cut_for == BARBU_CUT_CALL ? "the Call" : "a Pass-on");
        if (t->contracts) {
            calls_abbr(t->contracts, label, sizeof label);
            scr_putf(2, 56, 23, A_NORMAL, "Call: %s", label);
        } else if (t->sequence) {
            calls_abbr(t->sequence, label, sizeof label);
            scr_putf(2, 56, 23, A_NORMAL, "so far: %s", label);
        }
        return;
    case BARBU_PHASE_PASS_ON:
        scr_putf(2, 1, 54, A_BOLD, "Pass-on %d: each player passes 3 cards %s", t->n_pass_ons + 1,
                 dir_words(t->pass_dir));
        scr_putf(2, 56, 23, A_NORMAL, "chosen: %d of 4", barbu_count(t->passed_on));
        return;
    default:
        break;
    }
    play_fife_calls_text(t->contracts, label, sizeof label);
    if (silly(t))
        scr_putf(2, 1, 54, A_BOLD, "%s%s", label,
                 t->n_cuts == 0 ? ": the Round's last Call, no cut" : ", as cut");
    else
        scr_putf(2, 1, 54, A_BOLD, "%s, called by %s%s", label, scr_seat_word(t->declarer),
                 you ? " (you)" : "");
    if (t->kind == BARBU_KIND_PATIENCE)
        scr_putf(2, 56, 23, A_NORMAL, "Patience from the Jacks");
    else
        scr_putf(2, 56, 23, A_NORMAL, "trick %d of %d", t->ntricks + 1,
                 barbu_rules_hand_size(ui->view.rules));
}

/* ------------------------------------------------------------------ middle */

bool fife_wide_middle(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    return silly(t) && (t->phase == BARBU_PHASE_CUT || t->phase == BARBU_PHASE_PASS_ON);
}

/* The Round so far, while the Caller chooses. */
static void draw_round_so_far(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    scr_putf(8, 25, 31, A_BOLD, "Player Round %d so far:", t->round + 1);
    int row = 9;
    for (int i = 0; i < ui->n_results && row < 15; i++) {
        const barbu_result *r = &ui->results[i];
        if (r->set != t->set || r->round != t->round)
            continue;
        char label[96];
        play_fife_calls_text(r->contracts, label, sizeof label);
        if (scr_text_width(label) > 22)
            calls_abbr(r->contracts, label, sizeof label);
        scr_putf(row, 25, 8, A_DIM, "deal %d", r->round_deal + 1);
        scr_put_ellipsis(row++, 33, 22, A_NORMAL, label);
    }
    if (row == 9)
        scr_put(row, 25, 31, A_DIM, "no Call yet");
}

/* The Silly Round before play: the cuts and Pass-ons so far, full width. */
static void draw_cut_panel(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    char title[80];
    snprintf(title, sizeof title, "Silly Round, deal %d: cuts and Pass-ons", t->round_deal + 1);
    int y = 8, x = 1, h = 7, w = 78;
    scr_frame(y, x, h, w, title);
    int lines = ui->log_deal == t->deal ? ui->n_log : 0;
    /* The last line says what comes next. */
    char next[160];
    if (t->phase == BARBU_PHASE_CUT) {
        bool you = scr_is_you(ui, t->cutter);
        snprintf(next, sizeof next, "%s%s to cut for %s.",
                 you ? "Your turn" : scr_seat_word(t->cutter), you ? ": press c" : "",
                 t->cut_for == BARBU_CUT_CALL ? "the Call" : "a Pass-on (black: pass, red: no)");
    } else {
        snprintf(next, sizeof next, "Pass-on %d %s: %d of 4 have chosen their 3 cards%s",
                 t->n_pass_ons + 1, dir_words(t->pass_dir), barbu_count(t->passed_on),
                 scr_is_you(ui, t->to_move) ? "; your turn" : "");
    }
    int room = h - 3, first = lines > room ? lines - room + 1 : 0;
    if (first > 0)
        scr_putf(y + 1, x + 2, w - 4, A_DIM, "%s %d more before (c lists them all)",
                 scr_glyph("\u2026", "..."), first);
    for (int i = first; i < lines; i++)
        scr_put_ellipsis(y + 1 + i - first + (first > 0), x + 2, w - 4, A_NORMAL, ui->log[i]);
    if (lines == 0)
        scr_put(y + 1, x + 2, w - 4, A_DIM,
                t->cut_for == BARBU_CUT_CALL ? "First the cut for the Call, then for Pass-ons."
                                             : "First the cuts for Pass-ons, then for the Call.");
    scr_put_ellipsis(y + h - 2, x + 2, w - 4,
                     A_BOLD | (scr_is_you(ui, t->to_move) ? scr_colour(PAIR_TURN) : 0), next);
}

bool fife_draw_middle(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    if (t->phase == BARBU_PHASE_DECLARE) {
        draw_round_so_far(ui);
        return true;
    }
    if (fife_wide_middle(ui)) {
        draw_cut_panel(ui);
        return true;
    }
    return false;
}

/* ------------------------------------------------------------- hand notes */

int play_legal_groups(const barbu_view *view, barbu_cards *out, int cap)
{
    barbu_action legal[BARBU_MAX_ACTIONS];
    if (view->t.phase != BARBU_PHASE_PLAY || view->t.to_move != view->seat)
        return 0;
    int n = barbu_view_legal(view, legal, BARBU_MAX_ACTIONS), k = 0;
    for (int i = 0; i < n && i < BARBU_MAX_ACTIONS; i++) {
        if (legal[i].type != BARBU_ACT_PLAY || barbu_count(legal[i].cards) < 2)
            continue;
        if (out != NULL && k < cap)
            out[k] = legal[i].cards;
        k++;
    }
    return k;
}

void fife_draw_hand_notes(const play_ui *ui)
{
    const barbu_view *v = &ui->view;
    const barbu_table *t = &v->t;
    int me = v->seat;
    bool mine = !ui->watch && t->to_move == me && t->phase != BARBU_PHASE_OVER;
    char text[600], cards[96];

    if (mine && t->phase == BARBU_PHASE_PASS_ON) {
        int n = barbu_count(ui->picked);
        cards_text(ui->picked, cards, sizeof cards);
        const char *to = scr_seat_word(barbu_pass_target(t, me));
        if (n == 3)
            snprintf(text, sizeof text, "Ready: Enter passes %s to %s.", cards, to);
        else
            snprintf(text, sizeof text, "To %s: %s%s%d more card%s to pick.", to, cards,
                     n ? "  " : "", 3 - n, 3 - n == 1 ? "" : "s");
        scr_put(20, 2, 76, n == 3 ? scr_colour(PAIR_INFO) | A_BOLD : A_BOLD, text);
    } else if (t->phase == BARBU_PHASE_PASS_ON && ((t->passed_on >> me) & 1)) {
        cards_text(v->passed[t->n_pass_ons], cards, sizeof cards);
        snprintf(text, sizeof text, "%s %s to %s; waiting for the others.",
                 ui->watch ? "Passes" : "You pass", cards, scr_seat_word(barbu_pass_target(t, me)));
        scr_put(20, 2, 76, A_NORMAL, text);
    }

    int n_groups = 0;
    if (mine && t->phase == BARBU_PHASE_PLAY && t->kind == BARBU_KIND_PATIENCE) {
        barbu_cards groups[8];
        int n = n_groups = play_legal_groups(v, groups, 8);
        if (n > 0) {
            snprintf(text, sizeof text, "Together (g picks): ");
            for (int i = 0; i < n && i < 8; i++) {
                cards_text(groups[i], cards, sizeof cards);
                append(text, sizeof text, "%s%s", i ? ", " : "", cards);
            }
            if (n > 8)
                append(text, sizeof text, " and %d more", n - 8);
            scr_put_ellipsis(17, 2, 76, scr_colour(PAIR_INFO), text);
        }
        if (ui->picked) {
            barbu_action a = barbu_act(BARBU_ACT_PLAY, me);
            a.cards = ui->picked;
            char why[400];
            int err = play_explain(ui, &a, why, sizeof why);
            cards_text(ui->picked, cards, sizeof cards);
            if (err == 0)
                snprintf(text, sizeof text, "Ticked: %s%sEnter plays %s.", cards, dash(),
                         barbu_count(ui->picked) > 1 ? "them together" : "it");
            else
                snprintf(text, sizeof text, "Ticked: %s%snot allowed: %s.", cards, dash(), why);
            scr_put_ellipsis(20, 2, 76,
                             err ? scr_colour(PAIR_ERROR) | A_BOLD : scr_colour(PAIR_INFO) | A_BOLD,
                             text);
        }
    }
    /* What the last Pass-on brought, until the first card is played. */
    int k = t->n_pass_ons;
    bool early = t->phase != BARBU_PHASE_PLAY || t->in_hand[me] == barbu_rules_hand_size(v->rules);
    if (k > 0 && early && n_groups == 0 && v->received[k - 1] && t->phase != BARBU_PHASE_PASS_ON) {
        cards_text(v->received[k - 1], cards, sizeof cards);
        int dir = barbu_pass_direction(t->round_deal, k - 1);
        char gave[64];
        cards_text(v->passed[k - 1], gave, sizeof gave);
        text[0] = '\0';
        append(text, sizeof text, "Pass-on %d: gave %s to %s, got %s from %s (marked +)", k, gave,
               scr_seat_word((me + dir) & 3), cards, scr_seat_word((me + 4 - dir) & 3));
        scr_put_ellipsis(17, 2, 76, scr_colour(PAIR_INFO), text);
    }
}

barbu_cards fife_received(const play_ui *ui)
{
    const barbu_view *v = &ui->view;
    const barbu_table *t = &v->t;
    int k = t->n_pass_ons;
    if (!play_fife(ui) || k == 0 || t->phase == BARBU_PHASE_PASS_ON || t->phase == BARBU_PHASE_OVER)
        return 0;
    if (t->phase == BARBU_PHASE_PLAY && t->in_hand[v->seat] != barbu_rules_hand_size(v->rules))
        return 0;
    return v->received[k - 1] & v->hand[v->seat];
}

/* ------------------------------------------------------------ status, keys */

bool fife_status_text(const play_ui *ui, char *buf, size_t cap)
{
    const barbu_view *v = &ui->view;
    const barbu_table *t = &v->t;
    int mover = t->to_move;
    if (t->phase == BARBU_PHASE_OVER)
        return false;
    if (mover != v->seat || ui->watch) {
        const char *doing = t->phase == BARBU_PHASE_DECLARE   ? "is choosing the Call"
                            : t->phase == BARBU_PHASE_CUT     ? "cuts the Unused Pack"
                            : t->phase == BARBU_PHASE_PASS_ON ? "is choosing 3 cards to pass"
                                                              : "to play";
        snprintf(buf, cap, "%s (%s) %s%s%s", scr_seat_word(mover), ui->names[mover], doing,
                 scr_glyph("\u2026", "..."), ui->remote ? "" : "  (any key hurries)");
        return true;
    }
    bool must_pass;
    switch (t->phase) {
    case BARBU_PHASE_DECLARE:
        snprintf(buf, cap, "Your Call: tick Calls with 1-7 (or Up/Down), Enter calls.");
        return true;
    case BARBU_PHASE_CUT:
        snprintf(buf, cap, "You are the cutter: press c to cut the Unused Pack for %s.",
                 t->cut_for == BARBU_CUT_CALL ? "the Call" : "a Pass-on");
        return true;
    case BARBU_PHASE_PASS_ON:
        snprintf(buf, cap, "Pass 3 cards %s, to %s: space ticks a card, Enter passes.",
                 dir_words(t->pass_dir), scr_seat_word(barbu_pass_target(t, v->seat)));
        return true;
    case BARBU_PHASE_PLAY:
        if (t->kind != BARBU_KIND_PATIENCE)
            return false;
        play_legal_cards(v, &must_pass);
        if (must_pass)
            snprintf(buf, cap, "No card fits the layout: press p (or Enter) to chap.");
        else
            snprintf(buf, cap, "Your turn: a card (Enter) or cards together (space ticks, g).");
        return true;
    default:
        return false;
    }
}

const char *fife_keys_text(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    bool mine = !ui->watch && t->to_move == ui->view.seat && t->phase != BARBU_PHASE_OVER;
    if (!mine && !silly(t))
        return NULL;
    if (!mine)
        return ui->watch && !ui->remote
                   ? "watching: any key hurries  c cuts  s sheet  l last trick  ? help  q quit"
               : ui->watch ? "watching  c cuts  s sheet  l last trick  ? help  q quit"
                           : "c the deal's cuts  s sheet  l last trick  ? help  q quit";
    switch (t->phase) {
    case BARBU_PHASE_DECLARE:
        return "1-7 tick  l The Lot  0 clear  Up/Down choices  Enter call  s sheet  ? help";
    case BARBU_PHASE_CUT:
        return "c cut  s sheet  ? help  q quit";
    case BARBU_PHASE_PASS_ON:
        return "arrows + space tick (or type qh)  r clear  Enter pass  s sheet  ? help";
    case BARBU_PHASE_PLAY:
        if (t->kind == BARBU_KIND_PATIENCE)
            return "arrows + Enter, or type it  space tick  g group  p chap  s sheet  ? help";
        return NULL;
    default:
        return NULL;
    }
}

/* --------------------------------------------------------------- Call menu */

void fife_draw_call_menu(const play_ui *ui)
{
    const barbu_view *v = &ui->view;
    const barbu_table *t = &v->t;
    unsigned legal[64];
    int n = legal_calls(ui, legal, 64);
    unsigned left = calls_left(t);
    int x = 3, w = 74, inner = w - 4;

    /* The Calls left, or the Constipatience. */
    char head[240] = "";
    if (constipatience(t)) {
        snprintf(head, sizeof head, "Constipatience: only Patience is left this Round!");
    } else {
        snprintf(head, sizeof head, "Calls left:");
        for (int c = 0; c < BARBU_CALL_PAT1; c++)
            if (left & (1u << c))
                append(head, sizeof head, " %s,", CALL_NAMES[c]);
        int pats = barbu_count(left & BARBU_CALLS_PATIENCE);
        if (pats)
            append(head, sizeof head, " %s Patience%s", pats == 2 ? "two" : "one",
                   pats == 2 ? "s" : "");
        else
            head[strlen(head) - 1] = '\0';
        if (left != BARBU_CALLS_ALL)
            append(head, sizeof head, "  ([-] played)");
    }

    /* The live line: the Calls ticked and the engine's verdict. */
    char call[120], verdict[600];
    int err = 0;
    if (ui->calls == 0) {
        snprintf(verdict, sizeof verdict, "Tick Calls with 1-7 (or walk the choices with Up/Down)");
    } else {
        barbu_action a = barbu_act(BARBU_ACT_DECLARE, v->seat);
        a.contracts = (uint16_t)ui->calls;
        char why[400];
        err = play_explain(ui, &a, why, sizeof why);
        play_fife_calls_text(ui->calls, call, sizeof call);
        if (err == 0)
            snprintf(verdict, sizeof verdict, "Your Call: %s%sEnter calls it", call, dash());
        else
            snprintf(verdict, sizeof verdict, "Refused: %s: %s.", call, why);
    }

    /* What the engine offers, grouped by size; and what it refuses. */
    char allowed[600] = "Allowed:";
    static const char *const SIZE[] = {"", "", "Doubles", "Trebles", "Quadruples"};
    static const char *const ANY[] = {"", "", "any two", "any three", "any four"};
    int n_neg = barbu_count(left & BARBU_CALLS_NEGATIVE);
    for (int size = 1; size <= 5; size++) {
        int have = 0, possible = 0;
        char list[200] = "";
        for (unsigned m = 1; m <= BARBU_CALLS_NEGATIVE; m++) {
            if (barbu_count(m) != size || (m & ~left))
                continue;
            possible++;
            bool ok = false;
            for (int i = 0; i < n; i++)
                ok |= legal[i] == m;
            if (!ok)
                continue;
            char ab[40];
            calls_abbr(m, ab, sizeof ab);
            append(list, sizeof list, "%s%s", have ? ", " : "", ab);
            have++;
        }
        if (have == 0)
            continue;
        bool sep = strcmp(allowed, "Allowed:") != 0;
        if (size == 1 || size == 5 || have < possible || size == n_neg)
            append(allowed, sizeof allowed, "%s %s", sep ? ";" : "", list);
        else
            append(allowed, sizeof allowed, "%s %s (%d %s)", sep ? ";" : "", ANY[size], have,
                   SIZE[size]);
    }
    for (int i = 0; i < n; i++) {
        if (!(legal[i] & BARBU_CALLS_PATIENCE))
            continue;
        char ab[40];
        calls_abbr(legal[i], ab, sizeof ab);
        append(allowed, sizeof allowed, "%s %s", strcmp(allowed, "Allowed:") ? ";" : "", ab);
    }
    if (n == 0)
        append(allowed, sizeof allowed, " nothing (the engine offers no Call)");

    /* Refused: every combination of the Calls left that is not offered,
     * grouped by the engine's reason. */
    unsigned cand[40];
    int n_cand = 0;
    for (unsigned m = 1; m <= BARBU_CALLS_NEGATIVE; m++)
        if ((m & ~left) == 0 && (m & left))
            cand[n_cand++] = m;
    if (left & BARBU_CALLS_PATIENCE)
        cand[n_cand++] = 1u << __builtin_ctz(left & BARBU_CALLS_PATIENCE);
    if ((left & BARBU_CALLS_PATIENCE) == BARBU_CALLS_PATIENCE)
        cand[n_cand++] = BARBU_CALLS_PATIENCE;
    int errs[40];
    for (int i = 0; i < n_cand; i++) {
        bool ok = false;
        for (int j = 0; j < n; j++)
            ok |= legal[j] == cand[i];
        errs[i] = 1; /* offered */
        if (!ok) {
            barbu_action a = barbu_act(BARBU_ACT_DECLARE, v->seat);
            a.contracts = (uint16_t)cand[i];
            errs[i] = play_check(ui, &a);
        }
    }
    char refused[3][400];
    int n_refused = 0;
    for (int i = 0; i < n_cand && n_refused < 3; i++) {
        if (errs[i] == 1)
            continue;
        bool first = true;
        for (int j = 0; j < i; j++)
            first &= errs[j] != errs[i];
        if (!first)
            continue;
        char *r = refused[n_refused++];
        snprintf(r, 400, "Refused: ");
        int k = 0;
        for (int j = i; j < n_cand; j++) {
            if (errs[j] != errs[i])
                continue;
            char ab[40];
            calls_abbr(cand[j], ab, 40);
            append(r, 400, "%s%s", k++ ? ", " : "", ab);
        }
        append(r, 400, ": %s.", errs[i] ? barbu_strerror(errs[i]) : "not offered now");
    }

    /* Height: the head, the ticks (3 lines), the verdict, what is allowed
     * and refused; blank lines between while they fit above the hand. */
    int l_verdict = scr_put_wrapped(-1, 0, inner, 2, 2, A_NORMAL, verdict);
    int l_allowed = scr_put_wrapped(-1, 0, inner, 2, 3, A_NORMAL, allowed);
    int l_refused = 0;
    for (int i = 0; i < n_refused; i++)
        l_refused += scr_put_wrapped(-1, 0, inner, 2, 3, A_NORMAL, refused[i]);
    int body = 1 + 3 + l_verdict + l_allowed + l_refused;
    /* Rows 1-17 at most: the hand on row 18 stays in sight. */
    if (body > 15)
        body = 15;
    int gaps = 15 - body > 3 ? 3 : 15 - body;
    int h = body + gaps + 2, y = 18 - h;
    if (y > 3)
        y = 3;
    char title[80];
    snprintf(title, sizeof title, "Your Call: Player Round %d, deal %d", t->round + 1,
             t->round_deal + 1);
    scr_frame(y, x, h, w, title);
    int row = y + 1;
    scr_put_ellipsis(row++, x + 2, inner,
                     constipatience(t) ? scr_colour(PAIR_TURN) | A_BOLD : A_NORMAL, head);
    if (gaps > 0)
        row++;
    /* The ticks: 1-5 the negatives, 6 Single Patience, 7 Double Patience. */
    for (int i = 0; i < 7; i++) {
        int r = row + i / 3, c = x + 2 + (i % 3) * 23;
        unsigned bit;
        bool there;
        const char *name;
        if (i < 5) {
            bit = 1u << i;
            there = left & bit;
            name = CALL_NAMES[i];
        } else if (i == 5) {
            bit = left & BARBU_CALLS_PATIENCE ? 1u << __builtin_ctz(left & BARBU_CALLS_PATIENCE)
                                              : 1u << BARBU_CALL_PAT1;
            there = left & BARBU_CALLS_PATIENCE;
            name = "Single Patience";
        } else {
            bit = BARBU_CALLS_PATIENCE;
            there = (left & BARBU_CALLS_PATIENCE) == BARBU_CALLS_PATIENCE;
            name = "Double Patience";
        }
        bool ticked =
            i < 5 ? (ui->calls & bit) != 0 : (ui->calls & BARBU_CALLS_PATIENCE) == bit && bit != 0;
        attr_t a = ticked ? A_BOLD | A_REVERSE : there ? A_NORMAL : A_DIM;
        scr_putf(r, c, 22, a, "[%c] %d %s", ticked ? 'x' : there ? ' ' : '-', i + 1, name);
    }
    row += 3;
    if (gaps > 1)
        row++;
    attr_t va = ui->calls == 0 ? A_NORMAL
                : err == 0     ? scr_colour(PAIR_INFO) | A_BOLD
                               : scr_colour(PAIR_ERROR) | A_BOLD;
    row += scr_put_wrapped(row, x + 2, inner, 2, l_verdict, va, verdict);
    if (gaps > 2)
        row++;
    row += scr_put_wrapped(row, x + 2, inner, 2, l_allowed, A_NORMAL, allowed);
    for (int i = 0; i < n_refused && row < y + h - 1; i++) {
        int room = y + h - 1 - row;
        row += scr_put_wrapped(row, x + 2, inner, 2, room < 3 ? room : 3, A_DIM, refused[i]);
    }
}

/* ------------------------------------------------------------------- draws */

void fife_draw_draw(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    bool for_dealer = silly(t);
    int winner = for_dealer ? t->silly_first : t->first;
    int y = 4, x = 10, w = 60, h = 14;
    scr_frame(y, x, h, w,
              for_dealer ? "The draw for the Silly Round's first dealer"
                         : "The draw for the first Caller");
    scr_put(y + 1, x + 2, w - 4, A_NORMAL, "Each player drew a card from the Unused Pack: the");
    scr_put(y + 2, x + 2, w - 4, A_NORMAL,
            "Bridge card is highest, then a Joker, then 6 down to 2.");
    /* Each seat's first card shows; players tied for the highest drew
     * again until one drew higher. */
    unsigned tied = 0;
    for (int s = 0; s < 4; s++)
        if (barbu_cut_value(t->draw[s]) == barbu_cut_value(t->draw[winner]))
            tied |= 1u << s;
    for (int s = 0; s < 4; s++) {
        char card[40];
        barbu_cut_describe(t->draw[s], card, sizeof card);
        attr_t a = s == winner ? A_BOLD : A_NORMAL;
        scr_putf(y + 4 + s, x + 4, 14, a, "%s%s", scr_seat_word(s),
                 scr_is_you(ui, s) ? " (you)" : "");
        scr_put(y + 4 + s, x + 19, 22, a, card);
        if (s == winner)
            scr_put(y + 4 + s, x + 42, 16, scr_colour(PAIR_INFO) | A_BOLD,
                    scr_glyph("\u25c0 highest", "< highest"));
    }
    if (tied & (tied - 1)) {
        char names[40] = "";
        for (int s = 0; s < 4; s++)
            if (tied & (1u << s))
                append(names, sizeof names, "%s%s",
                       names[0] ? (tied >> (s + 1) ? ", " : " and ") : "", scr_seat_word(s));
        scr_putf(y + 9, x + 4, w - 8, A_NORMAL, "%s tied and drew again; %s won.", names,
                 scr_seat_word(winner));
    }
    if (for_dealer)
        scr_putf(y + 10, x + 2, w - 4, A_NORMAL, "%s deals first; %s, on the dealer's right, cuts.",
                 scr_seat_word(winner), scr_seat_word((winner + 3) & 3));
    else
        scr_putf(y + 10, x + 2, w - 4, A_NORMAL,
                 "%s is the first Caller; the Caller moves clockwise.", scr_seat_word(winner));
    scr_put(y + 12, x + 2, w - 4, A_BOLD,
            ui->watch && !ui->remote ? "The game goes on in a moment (any key: now)."
                                     : "Press any key.");
}

void fife_draw_cuts(const play_ui *ui)
{
    const barbu_table *t = &ui->view.t;
    int lines = ui->log_deal == t->deal ? ui->n_log : 0;
    int h = (lines > 0 ? lines : 1) + 2, y = 3, x = 1, w = 78;
    if (h > 18)
        h = 18;
    char title[80];
    snprintf(title, sizeof title, "Silly Round, deal %d: the cuts and Pass-ons", t->round_deal + 1);
    scr_frame(y, x, h, w, silly(t) ? title : "Cuts");
    if (!silly(t))
        scr_put(y + 1, x + 2, w - 4, A_NORMAL, "Only the Silly Round has cuts.");
    else if (lines == 0)
        scr_put(y + 1, x + 2, w - 4, A_NORMAL,
                t->n_cuts == 0 && t->phase == BARBU_PHASE_PLAY
                    ? "None: the Round's last Calls are played without a cut."
                    : "No cut yet in this deal.");
    int room = h - 3, first = lines > room ? lines - room : 0;
    for (int i = first; i < lines; i++)
        scr_put_ellipsis(y + 1 + i - first, x + 2, w - 4, A_NORMAL, ui->log[i]);
    scr_put(y + h - 1, x + 2, w - 4, A_DIM, " any key ");
}

/* --------------------------------------------------------------- deal end */

/* The marks the sheet drew on a deal's Calls, by player and mark:
 * "West Rumping Ripple (AC KH QU), Wee Harry (HE)". */
static void deal_marks(const play_ui *ui, const barbu_result *r, char *buf, size_t cap)
{
    buf[0] = '\0';
    const barbu_sheet *sh = ui->sheet;
    if (sh == NULL || r->set >= sh->n_sets || r->round >= sh->set[r->set].n_rounds)
        return;
    const barbu_sheet_round *round = &sh->set[r->set].round[r->round];
    for (int s = 0; s < 4; s++) {
        char part[240] = "";
        for (unsigned mark = 1; mark <= BARBU_MARK_CONSTIPATIENCE; mark <<= 1) {
            char cols[40] = "";
            for (int col = 0; col < BARBU_SHEET_COLS; col++)
                if ((r->contracts & (1u << col)) && (round->marks[s][col] & mark))
                    append(cols, sizeof cols, "%s%s", cols[0] ? " " : "", CALL_ABBR[col]);
            const char *name = barbu_mark_name(mark);
            if (cols[0] != '\0' && name != NULL)
                append(part, sizeof part, "%s%s (%s)", part[0] ? ", " : "", name, cols);
        }
        if (round->complete)
            for (unsigned m = round->round_marks[s]; m; m &= m - 1) {
                const char *name = barbu_round_mark_name(m & -m);
                if (name != NULL)
                    append(part, sizeof part, "%s%s", part[0] ? ", " : "", name);
            }
        if (part[0])
            append(buf, cap, "%s%s %s", buf[0] ? "; " : "", scr_seat_word(s), part);
    }
}

void fife_draw_deal_end(const play_ui *ui)
{
    if (ui->n_results == 0)
        return;
    const barbu_result *r = &ui->results[ui->n_results - 1];
    const barbu_rules *rules = ui->view.rules;
    int y = 3, x = 2, w = 76, h = 15, inner = w - 4;
    char where[64], label[96], title[160];
    result_where(r, where, sizeof where);
    play_fife_calls_text(r->contracts, label, sizeof label);
    /* The Calls by their short names when the whole title would not fit. */
    for (int pass = 0; pass < 2; pass++) {
        title[0] = '\0';
        append(title, sizeof title, "%s: %s", where, label);
        if (r->round != BARBU_SILLY_ROUND)
            append(title, sizeof title, " (Caller %s)", scr_seat_word(r->declarer));
        if (scr_text_width(title) <= w - 6)
            break;
        calls_abbr(r->contracts, label, sizeof label);
    }
    scr_frame(y, x, h, w, title);

    bool patience = (r->contracts & BARBU_CALLS_PATIENCE) != 0;
    barbu_cards penalty = 0;
    int k = 0, cols[BARBU_CALLS];
    for (int c = 0; c < BARBU_CALLS; c++) {
        if (!(r->contracts & (1u << c)))
            continue;
        cols[k++] = c;
        for (int card = 0; card < 64; card++)
            if (rules->contract[c].card[card] != 0)
                penalty |= BARBU_BIT(card);
    }

    /* Notes: the cuts of a Silly deal, the named cards, a Constipatience. */
    char note[400] = "";
    if (r->round == BARBU_SILLY_ROUND && ui->log_deal == r->deal && ui->cut_summary[0]) {
        snprintf(note, sizeof note, "Cuts: %s", ui->cut_summary);
        size_t n = strlen(note);
        if (n >= 2 && note[n - 2] == ';')
            note[n - 2] = '\0';
    } else if (r->round == BARBU_SILLY_ROUND)
        snprintf(note, sizeof note, "The Round's last Calls: no cut, no Pass-on.");
    else if ((r->calls_before & BARBU_CALLS_NEGATIVE) == BARBU_CALLS_NEGATIVE)
        snprintf(note, sizeof note, "A Constipatience: only Patience was left to call.");
    int note_lines = note[0] ? scr_put_wrapped(y + 1, x + 2, inner, 6, 2, A_DIM, note) : 0;
    note[0] = '\0';
    for (int s = 0; s < 4; s++) {
        bool kingko = r->taken[s] & penalty & BARBU_BIT(KING_OF_HEARTS);
        bool harry = r->taken[s] & penalty & BARBU_BIT(WEE_HARRY);
        if (kingko || harry)
            append(note, sizeof note, "%s took %s%s%s%s.  ", scr_seat_word(s),
                   kingko ? "El Kingko" : "", kingko && harry ? " and " : "",
                   harry ? "Wee Harry" : "",
                   r->piranha == s ? " (El Kingko on an 8: a Piranha!)" : "");
    }
    scr_put_ellipsis(y + 1 + (note_lines > 1 ? 2 : 1), x + 2, inner, scr_colour(PAIR_TURN) | A_BOLD,
                     note);

    /* Columns: player, tricks or place, cards taken, each Call, the deal,
     * the total. */
    int c_who = x + 2, c_tricks = c_who + 19, c_cards = c_tricks + 7;
    int c_total = x + w - 2 - 7, c_deal = c_total - 7, c_calls = c_deal - 6 * k;
    int cards_w = c_calls - c_cards - 1;
    bool show_cards = !patience && penalty != 0 && cards_w >= 10;
    scr_putf(y + 4, c_tricks, 6, A_BOLD, "%6s", patience ? "out" : "tricks");
    if (show_cards)
        scr_put(y + 4, c_cards, cards_w, A_BOLD, "cards taken");
    for (int i = 0; i < k; i++)
        scr_putf(y + 4, c_calls + 6 * i, 6, A_BOLD, "%6s", CALL_ABBR[cols[i]]);
    scr_putf(y + 4, c_deal, 14, A_BOLD, "%6s %6s", "deal", "total");
    int32_t total[4];
    scr_totals_so_far(ui, total);
    for (int s = 0; s < 4; s++) {
        int row = y + 5 + s;
        scr_putf(row, c_who, 18, scr_is_you(ui, s) ? A_BOLD : A_NORMAL, "%s%s", scr_seat_word(s),
                 scr_is_you(ui, s) ? " (you)" : "");
        if (r->round != BARBU_SILLY_ROUND && s == r->declarer)
            scr_put(row, c_who + 12, 6, scr_colour(PAIR_INFO), "Caller");
        if (patience) {
            for (int j = 0; j < 4; j++)
                if (r->order[j] == s)
                    scr_putf(row, c_tricks, 6, A_NORMAL, "%6s", scr_ordinal(j));
        } else {
            scr_putf(row, c_tricks, 6, A_NORMAL, "%6d", r->tricks[s]);
        }
        if (show_cards)
            scr_put_cards(row, c_cards, cards_w, r->taken[s] & penalty);
        for (int i = 0; i < k; i++) {
            int p = r->part[cols[i]][s];
            if (p != 0)
                scr_putf(row, c_calls + 6 * i, 6, A_NORMAL, "%+6d", p);
            else
                scr_putf(row, c_calls + 6 * i, 6, A_DIM, "%6s", ".");
        }
        scr_putf(row, c_deal, 14, A_NORMAL, "%+6d %+6" PRId32, r->score[s], total[s]);
    }
    scr_put(y + 9, c_who, inner, A_DIM, "deal: the points of this deal;  total: so far");

    char marks[400];
    deal_marks(ui, r, marks, sizeof marks);
    if (marks[0]) {
        char text[420];
        snprintf(text, sizeof text, "On the sheet: %s.", marks);
        scr_put_wrapped(y + 10, x + 2, inner, 2, 2, scr_colour(PAIR_INFO) | A_BOLD, text);
    }
    /* The Round's end: its totals. */
    const barbu_table *t = &ui->view.t;
    bool round_over = t->phase == BARBU_PHASE_OVER || t->round != r->round || t->set != r->set;
    if (round_over && ui->sheet != NULL && r->set < ui->sheet->n_sets) {
        const barbu_sheet_round *rd = &ui->sheet->set[r->set].round[r->round];
        char text[160];
        snprintf(text, sizeof text, "%s complete:",
                 r->round == BARBU_SILLY_ROUND ? "The Silly Round is" : "The Round is");
        for (int s = 0; s < 4; s++)
            append(text, sizeof text, " %s %+d", barbu_seat_name(s), rd->total[s]);
        append(text, sizeof text, "  (s: the sheet)");
        scr_put_ellipsis(y + 12, x + 2, inner, A_BOLD, text);
    }
    scr_press_a_key(ui, y + h - 2, x + 2, inner);
}

/* ------------------------------------------------------------------ sheet */

/* The short tags of a cell's marks; the legend below the sheet says them. */
static void mark_tags(unsigned marks, char *buf, size_t cap)
{
    static const struct {
        unsigned mark;
        const char *tag;
    } TAGS[] = {
        {BARBU_MARK_SPIDER, "S"},
        {BARBU_MARK_EGG, "E"},
        {BARBU_MARK_DANGLY, "D"},
        {BARBU_MARK_WEE_HARRY, "H"},
        {BARBU_MARK_PIRANHA, "P"},
        {BARBU_MARK_FC, "FC"},
        {BARBU_MARK_SC, "SC"},
        {BARBU_MARK_TC, "TC"},
        {BARBU_MARK_RIPPLE, "R"},
        {BARBU_MARK_BANANA, "B"},
        {BARBU_MARK_BEEF, "T"},
        {BARBU_MARK_CHERRY, "t"},
        {BARBU_MARK_CONSTIPATIENCE, "C"},
    };
    buf[0] = '\0';
    /* A Spider sits on its Egg, a Dangly Spider on its H: one tag each. */
    if (marks & BARBU_MARK_SPIDER)
        marks &= ~(unsigned)BARBU_MARK_EGG;
    if (marks & BARBU_MARK_DANGLY)
        marks &= ~(unsigned)BARBU_MARK_WEE_HARRY;
    for (size_t i = 0; i < sizeof TAGS / sizeof TAGS[0]; i++)
        if (marks & TAGS[i].mark)
            append(buf, cap, "%s", TAGS[i].tag);
}

enum { LINE_ROUND, LINE_PLAYER, LINE_ROUND_MARKS, LINE_SET_TOTAL, LINE_POSITION, LINE_OVERALL };

typedef struct sheet_line {
    uint8_t kind, set, round, seat;
} sheet_line;

static int sheet_lines(const barbu_sheet *sh, bool overall, sheet_line *out, int cap)
{
    int n = 0;
#define LINE(k, s, r, p)                                                                           \
    do {                                                                                           \
        if (n < cap)                                                                               \
            out[n] = (sheet_line){(k), (uint8_t)(s), (uint8_t)(r), (uint8_t)(p)};                  \
        n++;                                                                                       \
    } while (0)
    for (int s = 0; s < sh->n_sets; s++) {
        const barbu_sheet_set *set = &sh->set[s];
        for (int r = 0; r < set->n_rounds; r++) {
            LINE(LINE_ROUND, s, r, 0);
            for (int p = 0; p < 4; p++)
                LINE(LINE_PLAYER, s, r, p);
            bool marks = false;
            for (int p = 0; p < 4; p++)
                marks |= set->round[r].round_marks[p] != 0;
            if (marks)
                LINE(LINE_ROUND_MARKS, s, r, 0);
        }
        if (set->complete) {
            LINE(LINE_SET_TOTAL, s, 0, 0);
            LINE(LINE_POSITION, s, 0, 0);
            if (overall)
                LINE(LINE_OVERALL, s, 0, 0);
        }
    }
#undef LINE
    return n;
}

void fife_draw_sheet(const play_ui *ui, bool final)
{
    const barbu_sheet *sh = ui->sheet;
    int save_y, save_x;
    scr_origin(&save_y, &save_x);
    int ay, ax, ah, aw;
    scr_area(&ay, &ax, &ah, &aw);
    int h = ah, w = aw > 100 ? 100 : aw;
    scr_set_origin(ay, ax + (aw - w) / 2);
    scr_frame(0, 0, h, w, final ? "Game over: the score sheet" : "The score sheet");
    /* Player, the seven Calls, the Round's TOTAL. */
    int c_name = 2, name_w = 13, total_w = 7;
    int cell = (w - 4 - name_w - total_w) / BARBU_SHEET_COLS;
    if (cell > 10)
        cell = 10;
    int c_cells = c_name + name_w, c_total = c_cells + cell * BARBU_SHEET_COLS;
    scr_put(1, c_name, name_w, A_BOLD, "Player");
    for (int c = 0; c < BARBU_SHEET_COLS; c++)
        scr_put(1, c_cells + c * cell, cell - 1, A_BOLD, COL_HEADS[c]);
    scr_putf(1, c_total, total_w, A_BOLD, "%*s", total_w, "TOTAL");

    bool overall = ui->view.rules->sets > 1;
    /* A Set takes at most 5 Rounds of 6 lines and 3 lines of totals. */
    sheet_line lines[BARBU_MAX_SETS * 33];
    int cap = (int)(sizeof lines / sizeof lines[0]);
    int n = sh ? sheet_lines(sh, overall, lines, cap) : 0;
    if (n > cap)
        n = cap;
    int rows = h - 5; /* the heads, the legend (2) and the frame */
    if (rows < 1)
        rows = 1;
    int first, last;
    scr_scroll_window(n, rows, ui->sheet_scroll, &first, &last);
    if (n == 0)
        scr_put(3, 4, w - 8, A_DIM, "No deal has been completed yet.");
    for (int i = first; i < last; i++) {
        const sheet_line *l = &lines[i];
        const barbu_sheet_set *set = &sh->set[l->set];
        const barbu_sheet_round *rd = &set->round[l->round];
        int y = 2 + i - first;
        char text[200];
        switch (l->kind) {
        case LINE_ROUND: {
            if (rd->silly)
                snprintf(text, sizeof text, "Silly Round");
            else
                snprintf(text, sizeof text, "P.Round %d", l->round + 1);
            if (sh->n_sets > 1 || overall)
                snprintf(text + strlen(text), sizeof text - strlen(text), " of Set %d", l->set + 1);
            if (!rd->complete)
                append(text, sizeof text, " (under way, %d deal%s)", rd->deals,
                       rd->deals == 1 ? "" : "s");
            scr_put(y, c_name, 40, A_BOLD | A_UNDERLINE, text);
            if (l->round > 0) {
                const int32_t *run = set->round[l->round - 1].running;
                char run_text[120];
                snprintf(run_text, sizeof run_text,
                         "running total  N %+" PRId32 "  E %+" PRId32 "  S %+" PRId32
                         "  W %+" PRId32,
                         run[0], run[1], run[2], run[3]);
                scr_put(y, w - 2 - scr_text_width(run_text), 60, A_DIM, run_text);
            }
            break;
        }
        case LINE_PLAYER: {
            int p = l->seat;
            bool caller = !rd->silly && rd->caller == p;
            scr_put(y, c_name, name_w, scr_is_you(ui, p) ? A_BOLD : A_NORMAL, scr_seat_word(p));
            if (caller)
                scr_put(y, c_name + 6, name_w - 6, scr_colour(PAIR_INFO), "Caller");
            for (int c = 0; c < BARBU_SHEET_COLS; c++) {
                int cx = c_cells + c * cell;
                if (!(rd->played & (1u << c))) {
                    continue;
                }
                char tags[16], num[16] = "";
                mark_tags(rd->marks[p][c], tags, sizeof tags);
                if (rd->points[p][c] != 0)
                    snprintf(num, sizeof num, "%+d", rd->points[p][c]);
                /* The number in the cell's first 4 columns; its tags follow. */
                int numw = 4;
                scr_putf(y, cx, numw, A_NORMAL, "%*s", numw, num);
                if (tags[0])
                    scr_put(y, cx + numw, cell - numw - 1, scr_colour(PAIR_TURN) | A_BOLD, tags);
            }
            scr_putf(y, c_total, total_w, A_BOLD, "%+*d", total_w, rd->total[p]);
            break;
        }
        case LINE_ROUND_MARKS:
            text[0] = '\0';
            for (int p = 0; p < 4; p++)
                for (unsigned m = rd->round_marks[p]; m; m &= m - 1) {
                    const char *name = barbu_round_mark_name(m & -m);
                    if (name != NULL)
                        append(text, sizeof text, "%s%s: %s", text[0] ? "  " : "", scr_seat_word(p),
                               name);
                }
            scr_put_ellipsis(y, c_cells, w - 2 - c_cells, scr_colour(PAIR_TURN) | A_BOLD, text);
            break;
        case LINE_SET_TOTAL:
        case LINE_POSITION:
        case LINE_OVERALL: {
            const char *what = l->kind == LINE_SET_TOTAL  ? "Set Total"
                               : l->kind == LINE_POSITION ? "Set Position"
                                                          : "Overall";
            scr_put(y, c_name, name_w, A_BOLD, what);
            for (int p = 0; p < 4; p++) {
                int cx = c_cells + p * (cell * BARBU_SHEET_COLS / 4);
                if (l->kind == LINE_POSITION)
                    snprintf(text, sizeof text, "%s %s", scr_seat_word(p),
                             scr_ordinal(set->position[p] - 1));
                else
                    snprintf(text, sizeof text, "%s %+" PRId32, scr_seat_word(p),
                             l->kind == LINE_SET_TOTAL ? set->total[p] : set->overall[p]);
                scr_put(y, cx, cell * BARBU_SHEET_COLS / 4, A_BOLD, text);
            }
            break;
        }
        default:
            break;
        }
    }
    scr_put(h - 3, 2, w - 4, A_DIM,
            "E Egg  S Spider  H Wee Harry  D Dangly Spider  R Rumping Ripple  P Piranha");
    scr_put(h - 2, 2, w - 4, A_DIM,
            "FC/SC/TC Choice  B Banana  T/t Beef/Cherry Tomato  C Constipatience");
    scr_put(h - 1, 2, w - 4, A_DIM,
            final && !ui->remote ? " Up/Down scroll, any other key leaves "
                                 : " Up/Down scroll, any other key closes ");
    scr_set_origin(save_y, save_x);
}

/* ------------------------------------------------------------------- help */

void fife_draw_help(const play_ui *ui)
{
    const char *TEXT[] = {
        "The Call (you are the Caller of a Player Round)",
        "  1-5 Aces KH Queens Hearts Tricks   6 Single, 7 Double Patience",
        "  l The Lot   0 clear   Up/Down walk the choices   Enter calls",
        "Playing",
        "  Left/Right + Enter, or type a card (qh, 10s)   play it",
        "  Patience: space ticks cards, g picks a group, Enter plays",
        "            them together;  p chaps when nothing fits",
        "The Silly Round",
        "  c          cut the Unused Pack (when you are the cutter);",
        "             at other times, the cuts and Pass-ons of the deal",
        "  space, qh  tick 3 cards to pass;  r clears;  Enter passes",
        "Any time",
        "  s  score sheet     l  last trick     ?  this help",
        "",
        "",
    };
    int n = (int)(sizeof TEXT / sizeof TEXT[0]);
    scr_help_tail(ui, &TEXT[n - 2]);
    scr_help_box("Keys: the Fife game", TEXT, n);
}
