/*
 * draw.h - the drawing primitives of the terminal table, shared by
 * screen.c (the table and the prompts of every rule set) and fife.c (the
 * Fife game's own prompts, panels and score sheet), and used by a client
 * for panels of its own (barbu connect's lobby and side panel).
 * Coordinates are on the 80x24 canvas, whose top left corner is the
 * origin (the score sheet moves it to use the whole terminal).
 */
#ifndef BARBU_TUI_DRAW_H
#define BARBU_TUI_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui.h"

#define CANVAS_H 24
#define CANVAS_W 80

enum { PAIR_RED = 1, PAIR_ERROR, PAIR_TITLE, PAIR_TURN, PAIR_INFO };

/* "North" ...; "10", "Q" ... */
const char *scr_seat_word(int seat);
const char *scr_rank_text(int rank);

/* The canvas origin on the terminal. */
void scr_origin(int *y, int *x);
void scr_set_origin(int y, int x);

/* The part of the terminal play_paint draws in (the score sheets use all
 * of it). */
void scr_area(int *y, int *x, int *h, int *w);

/* Whether the terminal shows UTF-8 (suit symbols, box lines). */
bool scr_utf8(void);
const char *scr_suit_glyph(int suit);
const char *scr_glyph(const char *utf8, const char *ascii);
attr_t scr_suit_attr(int suit);
attr_t scr_colour(int pair);

/* Columns in UTF-8 text: every glyph used here is one column wide. */
int scr_text_width(const char *s);

/* "Q♥"; returns the length. */
int scr_card_text(barbu_card card, char *buf, size_t cap);

/* Text at (y, x) clipped to width columns; with an ellipsis where cut;
 * formatted. */
void scr_put(int y, int x, int width, attr_t attr, const char *text);
void scr_put_ellipsis(int y, int x, int width, attr_t attr, const char *text);
void scr_putf(int y, int x, int width, attr_t attr, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Text in lines of at most width columns, broken at spaces, the lines
 * after the first indented by indent; nothing drawn when y < 0.  Returns
 * the lines it takes (at most max_lines; the last is cut). */
int scr_put_wrapped(int y, int x, int width, int indent, int max_lines, attr_t attr,
                    const char *text);

/* A card in its colour (returns the columns used); the cards of a set,
 * high to low by suit, within width columns. */
int scr_put_card(int y, int x, barbu_card card, attr_t extra);
void scr_put_cards(int y, int x, int width, barbu_cards cards);

/* A box with a title and a blank inside. */
void scr_frame(int y, int x, int h, int w, const char *title);

/* The lines [first, last) of n shown in `rows`, scrolled back `scroll`
 * lines from the end (the newest at the bottom). */
void scr_scroll_window(int n, int rows, int scroll, int *first, int *last);

/* The keys box: lines starting with a space are keys, the others headings. */
void scr_help_box(const char *title, const char *const *text, int n);

/* The keys box's last two lines: quitting, and hurrying the others (or
 * what a client puts there instead, ui->help_more). */
void scr_help_tail(const play_ui *ui, const char *tail[2]);

/* "1st" ... "4th"; whether a seat is the human's (never when watching);
 * whether a deal's contracts include one of a kind; layouts; play. */
const char *scr_ordinal(int k);
bool scr_is_you(const play_ui *ui, int seat);
bool scr_has_kind(const barbu_rules *rules, unsigned contracts, int kind);
bool scr_layout_kind(const barbu_table *t);
bool scr_playing(const barbu_table *t);

/* The running totals after the deals completed so far; the line that
 * closes a deal's result ("Press any key ..."). */
void scr_totals_so_far(const play_ui *ui, int32_t total[4]);
void scr_press_a_key(const play_ui *ui, int y, int x, int w);

/* ------------------------------------------------------ the Fife game (fife.c) */

/* The two lines under the title: where the game is, the Calls left, the
 * Call in play and what the deal is doing. */
void fife_draw_header(const play_ui *ui);

/* The middle of the table when the Fife game needs it (the Round so far,
 * the cuts and Pass-ons of the Silly Round); false when the usual middle
 * (trick or layout) is to be drawn. */
bool fife_draw_middle(const play_ui *ui);

/* Whether the three other seats are drawn in the top band, leaving the
 * middle rows to a wide panel. */
bool fife_wide_middle(const play_ui *ui);

/* Lines 17 and 20 around the hand: the groups the human may play and the
 * cards ticked (Patience, Pass-on). */
void fife_draw_hand_notes(const play_ui *ui);

/* The cards of the last Pass-on the shown seat received, while they are
 * news (until it plays its first card). */
barbu_cards fife_received(const play_ui *ui);

/* The human's prompts and the overlays. */
void fife_draw_call_menu(const play_ui *ui);
void fife_draw_draw(const play_ui *ui);
void fife_draw_cuts(const play_ui *ui);
void fife_draw_deal_end(const play_ui *ui);
void fife_draw_sheet(const play_ui *ui, bool final);
void fife_draw_help(const play_ui *ui);

/* The status line (what is happening, what to do) and the keys line. */
bool fife_status_text(const play_ui *ui, char *buf, size_t cap);
const char *fife_keys_text(const play_ui *ui);

/* A seat's role in the deal: "Caller", "dealer", "cutter", or NULL. */
const char *fife_role(const play_ui *ui, int seat);

#endif
