/*
 * tui.h - the terminal table: one seat's view drawn with curses, and the
 * keys that move about it and compose that seat's actions.  barbu play
 * drives it for a game it runs itself; barbu connect for a table that runs
 * on a server.
 *
 * Three files: screen.c draws the view (the table, the prompts, the
 * overlays), input.c turns keys into actions, and fife.c does both for the
 * Fife game of seed 000; draw.h holds the drawing primitives they share
 * (and that a client uses for panels of its own).  The screen and the keys
 * only ever see one seat's view; every rule question goes to the engine.
 */
#ifndef BARBU_TUI_H
#define BARBU_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "barbu/barbu.h"

/* Lines kept of a deal's cuts and Pass-ons (the Fife game). */
#define PLAY_LOG_LINES 24

/* What covers the table for a moment. */
enum {
    PLAY_NO_OVERLAY,
    PLAY_HELP,     /* the keys */
    PLAY_SHEET,    /* the score sheet so far */
    PLAY_LAST,     /* the last trick */
    PLAY_QUIT,     /* "quit the game?" */
    PLAY_DEAL_END, /* the result of the deal just finished */
    PLAY_OVER,     /* the final sheet */
    PLAY_DRAW,     /* the Fife game: a draw from the Unused Pack */
    PLAY_CUTS,     /* the Fife game: the cuts and Pass-ons of the deal */
};

/* What a key asks of the game loop. */
enum {
    PLAY_IGNORED, /* not a key for now */
    PLAY_HANDLED, /* the screen changed, the game did not */
    PLAY_ACT,     /* apply *out for the human */
    PLAY_HURRY,   /* skip the pause before the next computer player */
    PLAY_LEAVE,   /* leave the game (the record is saved) */
};

typedef struct play_ui {
    /* Set by the game loop. */
    barbu_view view;             /* the human's view: the only game data shown */
    const char *names[4];        /* the players */
    const char *rules_name;      /* --rules as given */
    const char *record_path;     /* where the record goes */
    uint64_t seed;               /* shown so that a game can be replayed */
    const barbu_result *results; /* the deals completed so far */
    int n_results;
    bool too_small; /* the terminal is below 80x24: nothing moves */
    bool watch;     /* --watch: four computer players, the view is a spectator's
                       of one seat's cards and no prompt is ever the human's */
    /* Set by a client that shows a table it does not run (barbu connect);
     * NULL (0) for barbu play's own texts. */
    const char *title;        /* the title bar instead of the seed and rules */
    const char *title_keys;   /* its right end instead of "? help  q quit" */
    bool title_alert;         /* that end shown as a warning (a lost connection) */
    const char *quit_note;    /* the quit prompt's line instead of the record's path */
    const char *help_more[2]; /* the keys box's last two lines (quit, hurry) */
    bool remote;              /* the game runs elsewhere: no key hurries it, and a deal's
                                 result stays up until a key closes it */

    /* Owned by the keys. */
    int overlay;             /* PLAY_* overlay */
    int cursor;              /* index into the sorted hand */
    char typed[4];           /* the rank of a card being typed ("q", "10") */
    int menu_level;          /* declaring: 0 the contract, 1 its trump or rank */
    int menu_sel;            /* the highlighted item */
    unsigned menu_contracts; /* level 1: the contract chosen at level 0 */
    int bid_sel;             /* doubling: the highlighted row (0 is the left player) */
    unsigned bid_dbl;        /* doubling: the seats ticked to double */
    unsigned bid_rdbl;       /* doubling: the seats ticked to redouble */
    int sheet_scroll;        /* deals scrolled back from the latest */
    barbu_cards rows[3];     /* Chinese Poker: the cards put in the back, middle
                                and front rows so far (BARBU_ROW_*) */
    char msg[200];           /* the message line */
    bool msg_error;          /* shown as an error */

    /* The Fife game (seed 000).  Set by the game loop: */
    const barbu_sheet *sheet; /* the score sheet of the deals so far */
    bool draw_pending;        /* the draw to show once the deal's result closes */
    /* The cuts and Pass-ons of deal log_deal, in words, as they happened. */
    int log_deal;
    int n_log;
    char log[PLAY_LOG_LINES][200];
    char cut_summary[160]; /* the same in short: "4♣ 2♠ → Queens; 5♣ → left" */
    /* Owned by the keys: */
    unsigned calls;     /* the Call menu: the Calls ticked */
    barbu_cards picked; /* the cards ticked: a Patience group, a Pass-on */
    int group_sel;      /* the legal group 'g' picked last */
} play_ui;

/* Checks that the terminal can show the game (a tty with cursor addressing);
 * prints the reason to stderr, after prog ("barbu play"), and returns
 * nonzero when it cannot. */
int play_screen_check(const char *prog);

/* Opens and closes the curses screen; play_screen_open prints the reason to
 * stderr and returns nonzero when it fails. */
int play_screen_open(const char *prog);
void play_screen_close(void);

/* Whether the terminal is large enough for the table (80x24). */
bool play_screen_fits(void);

/* Repaints the whole terminal at the next draw (after stray output). */
void play_screen_repaint(void);

/* Draws the whole screen from *ui. */
void play_draw(const play_ui *ui);

/* Draws the table from *ui into a part of the terminal (height x width
 * from (top, left)), without clearing or refreshing the screen: for a client
 * that draws panels of its own around it (barbu connect).  The score
 * sheet takes the whole part. */
void play_paint(const play_ui *ui, int top, int left, int height, int width);

/* Whether a part of the terminal is large enough for the table. */
bool play_area_fits(int height, int width);

/* Waits up to timeout_ms (forever if negative) for a key; -1 if none. */
int play_read_key(int timeout_ms);

/* Handles one key; PLAY_ACT fills *out with the human's action. */
int play_key(play_ui *ui, int key, barbu_action *out);

/* Readies the prompts for a new decision of the human (after any action). */
void play_new_decision(play_ui *ui);

/* Says what an action did ("West plays Q♠.  North takes the trick."),
 * from the tables before and after it (ui->view holds the one after). */
void play_describe(const play_ui *ui, const barbu_table *before, const barbu_action *action,
                   char *buf, size_t cap);

/* Sets the message line. */
void play_message(play_ui *ui, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Notes an action of any seat that the table will not show later: the
 * cuts and Pass-ons of the Silly Round, in words, for the log.  Call after
 * the action is applied, with the table before it (ui->view holds the one
 * after). */
void play_fife_note(play_ui *ui, const barbu_table *before, const barbu_action *action);

/* ------------------------------- shared by screen.c, input.c and fife.c */

/* Cards in the order the screen shows them: spades, hearts, clubs,
 * diamonds, each high to low.  Returns the number of cards. */
int play_hand_order(barbu_cards hand, barbu_card out[52]);

/* The cards the view's seat may play now (0 unless it is to play), and
 * whether its only legal action is a pass. */
barbu_cards play_legal_cards(const barbu_view *view, bool *must_pass);

/* The items of the declaration menu at its current level, from the legal
 * actions.  Returns how many. */
int play_menu_items(const play_ui *ui, barbu_action *items, int cap);

/* The contracts of the rule set that the declaration menu does not offer,
 * with the engine's reason for each (BARBU_EUSED, BARBU_EPLAYEDOUT,
 * BARBU_ESCHEDULE ...).  Returns how many. */
int play_menu_refused(const play_ui *ui, int *contracts, int *errs, int cap);

/* Chinese Poker: the rows as they would be submitted.  When only one row is
 * not full, the unplaced cards go to it, so that filling two rows sets the
 * third.  Returns the number of cards still unplaced after that. */
int play_rows_effective(const play_ui *ui, barbu_cards rows[3]);

/* Whether the view is of the Fife game (seed 000). */
bool play_fife(const play_ui *ui);

/* Play_describe for the Fife game. */
void play_fife_describe(const play_ui *ui, const barbu_table *before, const barbu_action *action,
                        char *buf, size_t cap);

/* A combination of Calls in words ("Double: Aces + Queens"), any
 * combination (the engine's name where it has one). */
void play_fife_calls_text(unsigned calls, char *buf, size_t cap);

/* The human's own action checked by the engine (0, or its reason). */
int play_check(const play_ui *ui, const barbu_action *action);

/* The same, with the reason in words (barbu_view_explain). */
int play_explain(const play_ui *ui, const barbu_action *action, char *why, size_t cap);

/* The groups of several cards the view's seat may play together (the
 * Fife Patience; play_legal_cards has the single cards).  Returns their
 * count; out (may be NULL) gets up to cap of them. */
int play_legal_groups(const barbu_view *view, barbu_cards *out, int cap);

/* Other seats in the order the doubling prompt lists them (left first). */
static inline int play_bid_seat(const play_ui *ui, int row)
{
    return (ui->view.seat + 1 + row) & 3;
}

#endif
