/*
 * input.c - the keys of the terminal table.  A key moves a cursor, ticks a box
 * or opens an overlay, or it becomes an action that the game loop hands to
 * the engine.  Nothing here decides what is legal: the menus are built from
 * barbu_view_legal and every action is checked by barbu_apply.
 */
#include <curses.h>
#include <stdarg.h>
#include <string.h>

#include "barbu/ai.h"
#include "tui.h"

#define KEY_ESC    27
#define KEY_CTRL_L 12

void play_message(play_ui *ui, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui->msg, sizeof ui->msg, fmt, ap);
    va_end(ap);
    ui->msg_error = error;
}

int play_hand_order(barbu_cards hand, barbu_card out[52])
{
    /* Alternate black and red suits so that neighbours never look alike. */
    static const int SUITS[] = {BARBU_SPADES, BARBU_HEARTS, BARBU_CLUBS, BARBU_DIAMONDS};
    int n = 0;
    for (int i = 0; i < 4; i++)
        for (int rank = BARBU_ACE; rank >= 2; rank--)
            if (hand & BARBU_BIT(BARBU_CARD(SUITS[i], rank)))
                out[n++] = BARBU_CARD(SUITS[i], rank);
    return n;
}

static bool my_turn(const play_ui *ui)
{
    return !ui->watch && ui->view.t.phase != BARBU_PHASE_OVER &&
           ui->view.t.to_move == ui->view.seat;
}

/* Chinese Poker's rows hold 5, 5 and 3 cards (BARBU_ROW_*). */
static const int ROW_SIZE[3] = {5, 5, 3};
static const char *const ROW_NAME[3] = {"back", "middle", "front"};

barbu_cards play_legal_cards(const barbu_view *view, bool *must_pass)
{
    barbu_action legal[BARBU_MAX_ACTIONS];
    *must_pass = false;
    if (view->t.phase != BARBU_PHASE_PLAY || view->t.to_move != view->seat)
        return 0;
    int n = barbu_view_legal(view, legal, BARBU_MAX_ACTIONS);
    barbu_cards cards = 0;
    for (int i = 0; i < n && i < BARBU_MAX_ACTIONS; i++) {
        /* Single cards: the Fife Patience's groups are listed apart. */
        if (legal[i].type == BARBU_ACT_PLAY && barbu_count(legal[i].cards) == 1)
            cards |= legal[i].cards;
        else if (legal[i].type == BARBU_ACT_PASS && n == 1)
            *must_pass = true;
    }
    return cards;
}

int play_menu_items(const play_ui *ui, barbu_action *items, int cap)
{
    barbu_action legal[BARBU_MAX_ACTIONS];
    if (ui->view.t.phase != BARBU_PHASE_DECLARE || !my_turn(ui))
        return 0;
    int n = barbu_view_legal(&ui->view, legal, BARBU_MAX_ACTIONS), k = 0;
    if (n > BARBU_MAX_ACTIONS)
        n = BARBU_MAX_ACTIONS;
    for (int i = 0; i < n && k < cap; i++) {
        if (legal[i].type != BARBU_ACT_DECLARE)
            continue;
        if (ui->menu_level == 1) {
            /* The trump suits or start ranks the chosen contract allows. */
            if (legal[i].contracts == ui->menu_contracts)
                items[k++] = legal[i];
            continue;
        }
        /* Each contract once, with its first option standing for it. */
        bool seen = false;
        for (int j = 0; j < k && !seen; j++)
            seen = items[j].contracts == legal[i].contracts;
        if (!seen)
            items[k++] = legal[i];
    }
    return k;
}

int play_menu_refused(const play_ui *ui, int *contracts, int *errs, int cap)
{
    const barbu_view *v = &ui->view;
    const barbu_rules *r = v->rules;
    barbu_action legal[BARBU_MAX_ACTIONS];
    if (v->t.phase != BARBU_PHASE_DECLARE || !my_turn(ui))
        return 0;
    int n = barbu_view_legal(v, legal, BARBU_MAX_ACTIONS);
    if (n > BARBU_MAX_ACTIONS)
        n = BARBU_MAX_ACTIONS;
    unsigned offered = 0;
    for (int i = 0; i < n; i++)
        if (legal[i].type == BARBU_ACT_DECLARE)
            offered |= legal[i].contracts;
    int k = 0;
    for (int c = 0; c < r->n_contracts && k < cap; c++) {
        if (offered & (1u << c))
            continue;
        int err = barbu_declare_check(r, &v->t, v->seat, c);
        /* A contract the rule set leaves out (per_player 0) is no news. */
        if (err == BARBU_ECONTRACT)
            continue;
        contracts[k] = c;
        errs[k] = err;
        k++;
    }
    return k;
}

int play_rows_effective(const play_ui *ui, barbu_cards rows[3])
{
    barbu_cards hand = ui->view.hand[ui->view.seat];
    barbu_cards unplaced = hand;
    int open = -1, n_open = 0;
    for (int r = 0; r < 3; r++) {
        rows[r] = ui->rows[r] & hand;
        unplaced &= ~rows[r];
        if (barbu_count(rows[r]) < ROW_SIZE[r]) {
            open = r;
            n_open++;
        }
    }
    if (n_open == 1 && unplaced) {
        rows[open] |= unplaced;
        unplaced = 0;
    }
    return barbu_count(unplaced);
}

void play_new_decision(play_ui *ui)
{
    ui->typed[0] = '\0';
    ui->menu_level = 0;
    ui->menu_sel = 0;
    ui->menu_contracts = 0;
    ui->bid_sel = 0;
    ui->bid_dbl = 0;
    ui->bid_rdbl = 0;
    ui->calls = 0;
    ui->picked = 0;
    ui->group_sel = -1;
    if (my_turn(ui) && ui->view.t.phase == BARBU_PHASE_PASS_ON)
        ui->cursor = 0;
    /* The rows start empty at the human's turn to set them, and stay on
     * screen (as set) while the others set theirs. */
    if (ui->view.t.phase != BARBU_PHASE_ARRANGE || my_turn(ui))
        memset(ui->rows, 0, sizeof ui->rows);
    if (my_turn(ui) && ui->view.t.phase == BARBU_PHASE_ARRANGE)
        ui->cursor = 0;
    if (!my_turn(ui) || ui->view.t.phase != BARBU_PHASE_PLAY)
        return;
    /* Keep the cursor where it was if that card may be played, else move it
     * to the first card that may. */
    barbu_card order[52];
    int n = play_hand_order(ui->view.hand[ui->view.seat], order);
    bool must_pass;
    barbu_cards legal = play_legal_cards(&ui->view, &must_pass);
    if (ui->cursor >= n)
        ui->cursor = n > 0 ? n - 1 : 0;
    if (n > 0 && !(legal & BARBU_BIT(order[ui->cursor]))) {
        for (int i = 0; i < n; i++) {
            if (legal & BARBU_BIT(order[i])) {
                ui->cursor = i;
                break;
            }
        }
    }
}

static bool is_enter(int key)
{
    return key == '\n' || key == '\r' || key == KEY_ENTER || key == ' ';
}

/* A rank key: '2'..'9', 't', 'j', 'q', 'k', 'a' (and '1' for the 10). */
static int rank_of_key(int key)
{
    if (key >= '2' && key <= '9')
        return key - '0';
    switch (key) {
    case '1':
    case '0':
    case 't':
    case 'T':
        return 10;
    case 'j':
    case 'J':
        return BARBU_JACK;
    case 'q':
    case 'Q':
        return BARBU_QUEEN;
    case 'k':
    case 'K':
        return BARBU_KING;
    case 'a':
    case 'A':
        return BARBU_ACE;
    default:
        return 0;
    }
}

static int suit_of_key(int key)
{
    switch (key) {
    case 'c':
    case 'C':
        return BARBU_CLUBS;
    case 'd':
    case 'D':
        return BARBU_DIAMONDS;
    case 'h':
    case 'H':
        return BARBU_HEARTS;
    case 's':
    case 'S':
        return BARBU_SPADES;
    default:
        return -1;
    }
}

/* ---------------------------------------------------------------- declaring */

static int declare_key(play_ui *ui, int key, barbu_action *out)
{
    barbu_action items[BARBU_MAX_ACTIONS];
    int n = play_menu_items(ui, items, BARBU_MAX_ACTIONS);
    if (n == 0)
        return PLAY_IGNORED;
    int pick = -1;
    if (ui->menu_level == 0) {
        if (key == KEY_UP || key == 'k')
            ui->menu_sel = (ui->menu_sel + n - 1) % n;
        else if (key == KEY_DOWN || key == 'j' || key == '\t')
            ui->menu_sel = (ui->menu_sel + 1) % n;
        else if (key >= '1' && key <= '9' && key - '1' < n)
            pick = key - '1';
        else if (is_enter(key) || key == KEY_RIGHT)
            pick = ui->menu_sel;
        else
            return PLAY_IGNORED;
        if (pick < 0)
            return PLAY_HANDLED;
        ui->menu_sel = pick;
        ui->menu_contracts = items[pick].contracts;
        ui->menu_level = 1;
        /* A contract with nothing more to name is declared at once. */
        barbu_action options[BARBU_MAX_ACTIONS];
        int k = play_menu_items(ui, options, BARBU_MAX_ACTIONS);
        if (k == 1) {
            *out = options[0];
            return PLAY_ACT;
        }
        ui->menu_sel = 0;
        return PLAY_HANDLED;
    }

    /* Level 1: a trump suit or a start rank, in a row. */
    if (key == KEY_LEFT || key == KEY_UP) {
        ui->menu_sel = (ui->menu_sel + n - 1) % n;
        return PLAY_HANDLED;
    }
    if (key == KEY_RIGHT || key == KEY_DOWN || key == '\t') {
        ui->menu_sel = (ui->menu_sel + 1) % n;
        return PLAY_HANDLED;
    }
    if (key == KEY_ESC || key == KEY_BACKSPACE || key == 127 || key == 8) {
        ui->menu_level = 0;
        ui->menu_sel = 0;
        ui->menu_contracts = 0;
        return PLAY_HANDLED;
    }
    if (is_enter(key)) {
        pick = ui->menu_sel;
    } else {
        /* A suit letter names the trumps, a rank key the start rank. */
        int suit = suit_of_key(key), rank = rank_of_key(key);
        for (int i = 0; i < n && pick < 0; i++) {
            if (items[i].trump >= 0 && items[i].trump == suit)
                pick = i;
            else if (items[i].rank > 0 && items[i].rank == rank)
                pick = i;
        }
        if (pick < 0)
            return PLAY_IGNORED;
    }
    *out = items[pick];
    return PLAY_ACT;
}

/* ------------------------------------------------------- the Fife game */

/* The Call menu: 1-5 tick the negative Calls, 6 a Single Patience, 7 the
 * Double; l The Lot; Up/Down walk the engine's choices; Enter calls. */
static int fife_call_key(play_ui *ui, int key, barbu_action *out)
{
    const barbu_view *v = &ui->view;
    unsigned left = BARBU_CALLS_ALL & ~v->t.calls_done;
    unsigned pats = left & BARBU_CALLS_PATIENCE;
    barbu_action legal[BARBU_MAX_ACTIONS];
    int n = barbu_view_legal(v, legal, BARBU_MAX_ACTIONS);
    if (n > BARBU_MAX_ACTIONS)
        n = BARBU_MAX_ACTIONS;
    ui->msg[0] = '\0';
    if (key >= '1' && key <= '5') {
        ui->calls ^= 1u << (key - '1');
    } else if (key == '6') {
        unsigned single = pats ? 1u << __builtin_ctz(pats) : 1u << BARBU_CALL_PAT1;
        if ((ui->calls & BARBU_CALLS_PATIENCE) == single)
            ui->calls &= ~BARBU_CALLS_PATIENCE;
        else
            ui->calls = (ui->calls & ~BARBU_CALLS_PATIENCE) | single;
    } else if (key == '7') {
        if ((ui->calls & BARBU_CALLS_PATIENCE) == BARBU_CALLS_PATIENCE)
            ui->calls &= ~BARBU_CALLS_PATIENCE;
        else
            ui->calls |= BARBU_CALLS_PATIENCE;
    } else if (key == 'l' || key == 'L') {
        ui->calls = left & BARBU_CALLS_NEGATIVE;
    } else if (key == '0' || key == KEY_BACKSPACE || key == 127 || key == 8 || key == KEY_ESC) {
        ui->calls = 0;
    } else if (key == KEY_UP || key == KEY_DOWN || key == '\t') {
        if (n == 0)
            return PLAY_HANDLED;
        int sel = -1;
        for (int i = 0; i < n; i++)
            if (legal[i].type == BARBU_ACT_DECLARE && legal[i].contracts == ui->calls)
                sel = i;
        if (sel < 0)
            sel = key == KEY_UP ? 0 : n - 1;
        sel = key == KEY_UP ? (sel + n - 1) % n : (sel + 1) % n;
        ui->calls = legal[sel].contracts;
    } else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        if (ui->calls == 0) {
            play_message(ui, true, "Tick the Calls first: 1-7, or Up/Down through the choices.");
            return PLAY_HANDLED;
        }
        *out = barbu_act(BARBU_ACT_DECLARE, v->seat);
        out->contracts = (uint16_t)ui->calls;
        return PLAY_ACT;
    } else {
        return PLAY_IGNORED;
    }
    return PLAY_HANDLED;
}

/* Ticks a card (a Pass-on holds three). */
static void pick_card(play_ui *ui, barbu_card card)
{
    barbu_cards bit = BARBU_BIT(card);
    const barbu_view *v = &ui->view;
    char text[8];
    barbu_card_format(card, BARBU_FMT_ASCII, text, sizeof text);
    if (!(v->hand[v->seat] & bit)) {
        play_message(ui, true, "You do not hold %s", text);
        return;
    }
    if (!(ui->picked & bit) && v->t.phase == BARBU_PHASE_PASS_ON && barbu_count(ui->picked) >= 3) {
        play_message(ui, true, "Three cards are ticked already: untick one first (space).");
        return;
    }
    ui->picked ^= bit;
    ui->msg[0] = '\0';
}

/* A typed card starts with its rank; 'q' is also quit, so the queen is
 * finished in the quit prompt (see quit_key). */
static int start_typing(play_ui *ui, int key)
{
    if (key == 'q' || key == '0' || rank_of_key(key) == 0)
        return PLAY_IGNORED;
    ui->typed[0] = (char)(key >= 'A' && key <= 'Z' ? key + 32 : key);
    ui->typed[1] = '\0';
    ui->msg[0] = '\0';
    return PLAY_HANDLED;
}

/* The keys that move the cursor along the n cards of a hand. */
static bool cursor_key(play_ui *ui, int key, int n)
{
    switch (key) {
    case KEY_LEFT:
        ui->cursor = (ui->cursor + n - 1) % n;
        return true;
    case KEY_RIGHT:
    case '\t':
        ui->cursor = (ui->cursor + 1) % n;
        return true;
    case KEY_HOME:
        ui->cursor = 0;
        return true;
    case KEY_END:
        ui->cursor = n - 1;
        return true;
    default:
        return false;
    }
}

static int pass_on_key(play_ui *ui, int key, barbu_action *out)
{
    const barbu_view *v = &ui->view;
    barbu_card order[52];
    int n = play_hand_order(v->hand[v->seat], order);
    if (n == 0)
        return PLAY_IGNORED;
    if (ui->cursor >= n)
        ui->cursor = n - 1;
    if (cursor_key(ui, key, n))
        return PLAY_HANDLED;
    switch (key) {
    case ' ':
    case 'x':
        pick_card(ui, order[ui->cursor]);
        return PLAY_HANDLED;
    case 'r':
    case '0':
    case KEY_BACKSPACE:
    case 127:
    case 8:
        ui->picked = 0;
        return PLAY_HANDLED;
    case '\n':
    case '\r':
    case KEY_ENTER:
        if (barbu_count(ui->picked) != 3) {
            play_message(ui, true,
                         "Tick 3 cards to pass (%d ticked): space ticks the card above ^.",
                         barbu_count(ui->picked));
            return PLAY_HANDLED;
        }
        *out = barbu_act(BARBU_ACT_PASS_ON, v->seat);
        out->cards = ui->picked;
        return PLAY_ACT;
    default:
        break;
    }
    /* A typed card ticks it. */
    return start_typing(ui, key);
}

/* Patience: the legal groups in turn ('g'). */
static void next_group(play_ui *ui)
{
    barbu_cards groups[BARBU_MAX_ACTIONS];
    int n = play_legal_groups(&ui->view, groups, BARBU_MAX_ACTIONS);
    if (n > BARBU_MAX_ACTIONS)
        n = BARBU_MAX_ACTIONS;
    if (n == 0) {
        play_message(ui, true, "No cards may go down together now.");
        return;
    }
    ui->group_sel = ui->group_sel + 1 < n ? ui->group_sel + 1 : 0;
    ui->picked = groups[ui->group_sel];
    ui->msg[0] = '\0';
}

/* ----------------------------------------------------------------- doubling */

static void bid_toggle(play_ui *ui, int row)
{
    int seat = play_bid_seat(ui, row);
    unsigned bit = 1u << seat;
    /* A player who doubled you can be redoubled; anyone else doubled.
     * Whether it is allowed is for the engine to say on Enter. */
    if (ui->view.t.dbl[seat] & (1u << ui->view.seat))
        ui->bid_rdbl ^= bit;
    else
        ui->bid_dbl ^= bit;
}

static int bid_key(play_ui *ui, int key, barbu_action *out)
{
    const barbu_view *v = &ui->view;
    if (key == KEY_UP || key == 'k') {
        ui->bid_sel = (ui->bid_sel + 2) % 3;
    } else if (key == KEY_DOWN || key == 'j' || key == '\t') {
        ui->bid_sel = (ui->bid_sel + 1) % 3;
    } else if (key == ' ' || key == 'x') {
        bid_toggle(ui, ui->bid_sel);
    } else if (key >= '1' && key <= '3') {
        ui->bid_sel = key - '1';
        bid_toggle(ui, ui->bid_sel);
    } else if (key == 'm' || key == 'f') {
        barbu_action a;
        int err =
            barbu_bid_shortcut(v->rules, &v->t, key == 'm' ? BARBU_BID_MAX : BARBU_BID_FAMILY, &a);
        if (err != 0) {
            /* Family fails for the declarer and at a positive contract: the
             * doubles it would make say why. */
            int seat = v->t.to_move;
            barbu_action two =
                barbu_act_bid(seat, 0xfu & ~(1u << seat) & ~(1u << v->t.declarer), 0);
            char why[400];
            if (barbu_view_explain(v, &two, why, sizeof why) == 0)
                snprintf(why, sizeof why, "%s", barbu_strerror(err));
            play_message(ui, true, "%s: %s", key == 'm' ? "Max" : "Family", why);
            return PLAY_HANDLED;
        }
        ui->bid_dbl = a.doubles;
        ui->bid_rdbl = a.redoubles;
        ui->msg[0] = '\0';
    } else if (key == '0' || key == 'p' || key == KEY_BACKSPACE || key == 127) {
        ui->bid_dbl = 0;
        ui->bid_rdbl = 0;
    } else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        *out = barbu_act_bid(v->seat, ui->bid_dbl, ui->bid_rdbl);
        return PLAY_ACT;
    } else {
        return PLAY_IGNORED;
    }
    return PLAY_HANDLED;
}

/* ------------------------------------------------------------------ playing */

/* Chinese Poker: puts the cursor on a typed card. */
static void select_card(play_ui *ui, barbu_card card)
{
    barbu_card order[52];
    int n = play_hand_order(ui->view.hand[ui->view.seat], order);
    for (int i = 0; i < n; i++) {
        if (order[i] == card) {
            ui->cursor = i;
            ui->msg[0] = '\0';
            return;
        }
    }
    char text[8];
    barbu_card_format(card, BARBU_FMT_ASCII, text, sizeof text);
    play_message(ui, true, "You do not hold %s", text);
}

static int typed_key(play_ui *ui, int key, barbu_action *out)
{
    size_t len = strlen(ui->typed);
    if (key == KEY_ESC || key == KEY_BACKSPACE || key == 127 || key == 8) {
        ui->typed[0] = '\0';
        return PLAY_HANDLED;
    }
    if (strcmp(ui->typed, "1") == 0) {
        if (key == '0') {
            snprintf(ui->typed, sizeof ui->typed, "10");
            return PLAY_HANDLED;
        }
    } else if (suit_of_key(key) >= 0 && len < sizeof ui->typed - 1) {
        char text[8];
        snprintf(text, sizeof text, "%s%c", ui->typed, "CDHS"[suit_of_key(key)]);
        ui->typed[0] = '\0';
        int card = barbu_card_parse(text, NULL);
        if (card < 0) {
            play_message(ui, true, "'%s' is not a card", text);
            return PLAY_HANDLED;
        }
        if (ui->view.t.phase == BARBU_PHASE_ARRANGE) {
            select_card(ui, (barbu_card)card);
            return PLAY_HANDLED;
        }
        if (ui->view.t.phase == BARBU_PHASE_PASS_ON) {
            pick_card(ui, (barbu_card)card);
            return PLAY_HANDLED;
        }
        *out = barbu_act_play(ui->view.seat, (barbu_card)card);
        return PLAY_ACT;
    }
    play_message(ui, true, "To %s a card type its rank and suit, e.g. qh or 10s",
                 ui->view.t.phase == BARBU_PHASE_ARRANGE   ? "pick"
                 : ui->view.t.phase == BARBU_PHASE_PASS_ON ? "tick"
                                                           : "play");
    ui->typed[0] = '\0';
    return PLAY_HANDLED;
}

static int play_phase_key(play_ui *ui, int key, barbu_action *out)
{
    const barbu_view *v = &ui->view;
    barbu_card order[52];
    int n = play_hand_order(v->hand[v->seat], order);
    bool must_pass;
    play_legal_cards(v, &must_pass);
    switch (key) {
    case KEY_LEFT:
        if (ui->cursor > 0)
            ui->cursor--;
        return PLAY_HANDLED;
    case KEY_RIGHT:
        if (ui->cursor + 1 < n)
            ui->cursor++;
        return PLAY_HANDLED;
    case KEY_HOME:
        ui->cursor = 0;
        return PLAY_HANDLED;
    case KEY_END:
        ui->cursor = n > 0 ? n - 1 : 0;
        return PLAY_HANDLED;
    case 'p':
    case 'P':
    case '-':
        /* At Domino the engine refuses a pass while a card fits. */
        *out = barbu_act(BARBU_ACT_PASS, v->seat);
        return PLAY_ACT;
    default:
        break;
    }
    /* The Fife Patience: space ticks cards to play together, g picks the
     * groups the engine allows, Enter plays what is ticked. */
    bool groups = v->t.kind == BARBU_KIND_PATIENCE && v->rules->game == BARBU_GAME_FIFE;
    if (groups && (key == ' ' || key == 'x') && n > 0) {
        pick_card(ui, order[ui->cursor < n ? ui->cursor : 0]);
        return PLAY_HANDLED;
    }
    if (groups && key == 'g') {
        next_group(ui);
        return PLAY_HANDLED;
    }
    if (groups && (key == 'r' || key == KEY_BACKSPACE || key == 127 || key == 8)) {
        ui->picked = 0;
        return PLAY_HANDLED;
    }
    if (groups && ui->picked && is_enter(key)) {
        *out = barbu_act(BARBU_ACT_PLAY, v->seat);
        out->cards = ui->picked;
        return PLAY_ACT;
    }
    if (is_enter(key)) {
        if (must_pass || n == 0)
            *out = barbu_act(BARBU_ACT_PASS, v->seat);
        else
            *out = barbu_act_play(v->seat, order[ui->cursor < n ? ui->cursor : 0]);
        return PLAY_ACT;
    }
    return start_typing(ui, key);
}

/* ---------------------------------------------------------------- arranging */

/* Fills the rows with the heuristic player's setting of the hand: the same
 * choice a computer player would make in the human's seat. */
static void suggest_rows(play_ui *ui)
{
    const barbu_view *v = &ui->view;
    barbu_bot *bot = barbu_bot_new("heuristic", ui->seed ^ ((uint64_t)v->t.deal << 40));
    if (bot == NULL) {
        play_message(ui, true, "No suggestion: out of memory");
        return;
    }
    barbu_action a;
    int err = barbu_bot_choose(bot, v, &a);
    barbu_bot_free(bot);
    if (err == 0 && a.type != BARBU_ACT_ARRANGE)
        err = BARBU_EPHASE;
    if (err != 0) {
        play_message(ui, true, "No suggestion: %s", barbu_strerror(err));
        return;
    }
    barbu_cards hand = v->hand[v->seat];
    ui->rows[BARBU_ROW_BACK] = a.cards & hand;
    ui->rows[BARBU_ROW_MIDDLE] = a.middle & hand;
    ui->rows[BARBU_ROW_FRONT] = hand & ~a.cards & ~a.middle;
    play_message(ui, false, "The computer's suggestion: change it, or Enter to set it.");
}

static int arrange_key(play_ui *ui, int key, barbu_action *out)
{
    const barbu_view *v = &ui->view;
    barbu_cards hand = v->hand[v->seat];
    barbu_card order[52];
    int n = play_hand_order(hand, order);
    if (n == 0)
        return PLAY_IGNORED;
    if (ui->cursor >= n)
        ui->cursor = n - 1;
    barbu_cards here = BARBU_BIT(order[ui->cursor]);
    int row = key == 'b'   ? BARBU_ROW_BACK
              : key == 'm' ? BARBU_ROW_MIDDLE
              : key == 'f' ? BARBU_ROW_FRONT
                           : -1;
    if (cursor_key(ui, key, n))
        return PLAY_HANDLED;
    switch (key) {
    case 'u':
    case KEY_DC:
    case KEY_BACKSPACE:
    case 127:
    case 8:
        for (int r = 0; r < 3; r++)
            ui->rows[r] &= ~here;
        return PLAY_HANDLED;
    case 'r':
        memset(ui->rows, 0, sizeof ui->rows);
        play_message(ui, false, "All cards taken out of the rows.");
        return PLAY_HANDLED;
    case 'g':
        suggest_rows(ui);
        return PLAY_HANDLED;
    case '\n':
    case '\r':
    case KEY_ENTER: {
        barbu_cards rows[3];
        play_rows_effective(ui, rows);
        char why[200];
        /* The engine's own check, for its exact words. */
        if (barbu_arrange_check(hand, rows[BARBU_ROW_BACK], rows[BARBU_ROW_MIDDLE],
                                v->rules->fouls_lose, why, sizeof why) != 0) {
            play_message(ui, true, "Not yet: %s.", why);
            return PLAY_HANDLED;
        }
        *out = barbu_act(BARBU_ACT_ARRANGE, v->seat);
        out->cards = rows[BARBU_ROW_BACK];
        out->middle = rows[BARBU_ROW_MIDDLE];
        memcpy(ui->rows, rows, sizeof ui->rows);
        return PLAY_ACT;
    }
    default:
        break;
    }
    if (row >= 0) {
        if (ui->rows[row] & here)
            return PLAY_HANDLED;
        if (barbu_count(ui->rows[row] & hand) >= ROW_SIZE[row]) {
            play_message(ui, true, "The %s row is full (%d cards): take a card out first (u).",
                         ROW_NAME[row], ROW_SIZE[row]);
            return PLAY_HANDLED;
        }
        for (int r = 0; r < 3; r++)
            ui->rows[r] &= ~here;
        ui->rows[row] |= here;
        ui->msg[0] = '\0';
        /* On to the next card not yet in a row. */
        barbu_cards placed = ui->rows[0] | ui->rows[1] | ui->rows[2];
        for (int i = 1; i < n; i++) {
            int k = (ui->cursor + i) % n;
            if (!(placed & BARBU_BIT(order[k]))) {
                ui->cursor = k;
                break;
            }
        }
        return PLAY_HANDLED;
    }
    /* A typed card starts with its rank (not 'q', which is quit: see
     * quit_key). */
    if (key != 'q' && rank_of_key(key) != 0 && key != '0') {
        ui->typed[0] = (char)(key >= 'A' && key <= 'Z' ? key + 32 : key);
        ui->typed[1] = '\0';
        ui->msg[0] = '\0';
        return PLAY_HANDLED;
    }
    return PLAY_IGNORED;
}

/* ----------------------------------------------------------------- overlays */

static int quit_key(play_ui *ui, int key, barbu_action *out)
{
    ui->overlay = PLAY_NO_OVERLAY;
    if (key == 'y' || key == 'Y')
        return PLAY_LEAVE;
    /* "qh": the q opened this prompt, the suit plays the queen (or picks
     * it when setting rows). */
    if (suit_of_key(key) >= 0 && my_turn(ui) && ui->view.t.phase == BARBU_PHASE_PLAY) {
        *out = barbu_act_play(ui->view.seat, BARBU_CARD(suit_of_key(key), BARBU_QUEEN));
        return PLAY_ACT;
    }
    if (suit_of_key(key) >= 0 && my_turn(ui) && ui->view.t.phase == BARBU_PHASE_ARRANGE) {
        select_card(ui, BARBU_CARD(suit_of_key(key), BARBU_QUEEN));
        return PLAY_HANDLED;
    }
    if (suit_of_key(key) >= 0 && my_turn(ui) && ui->view.t.phase == BARBU_PHASE_PASS_ON) {
        pick_card(ui, BARBU_CARD(suit_of_key(key), BARBU_QUEEN));
        return PLAY_HANDLED;
    }
    play_message(ui, false, "Game goes on.");
    return PLAY_HANDLED;
}

static int overlay_key(play_ui *ui, int key, barbu_action *out)
{
    switch (ui->overlay) {
    case PLAY_QUIT:
        return quit_key(ui, key, out);
    case PLAY_OVER:
        if (key == KEY_UP || key == KEY_PPAGE) {
            ui->sheet_scroll += key == KEY_UP ? 1 : 10;
            return PLAY_HANDLED;
        }
        if (key == KEY_DOWN || key == KEY_NPAGE) {
            ui->sheet_scroll -= key == KEY_DOWN ? 1 : 10;
            if (ui->sheet_scroll < 0)
                ui->sheet_scroll = 0;
            return PLAY_HANDLED;
        }
        return PLAY_LEAVE;
    case PLAY_SHEET:
        if (key == KEY_UP || key == KEY_PPAGE || key == 'k') {
            ui->sheet_scroll += key == KEY_PPAGE ? 10 : 1;
            return PLAY_HANDLED;
        }
        if (key == KEY_DOWN || key == KEY_NPAGE || key == 'j') {
            ui->sheet_scroll -= key == KEY_NPAGE ? 10 : 1;
            if (ui->sheet_scroll < 0)
                ui->sheet_scroll = 0;
            return PLAY_HANDLED;
        }
        break;
    case PLAY_DEAL_END:
        if (key == 's') {
            ui->overlay = PLAY_SHEET;
            ui->sheet_scroll = 0;
            return PLAY_HANDLED;
        }
        break;
    default:
        break;
    }
    if (key == 'q') {
        ui->overlay = PLAY_QUIT;
        return PLAY_HANDLED;
    }
    ui->overlay = PLAY_NO_OVERLAY;
    return PLAY_HANDLED;
}

int play_key(play_ui *ui, int key, barbu_action *out)
{
    if (key == KEY_RESIZE || key == KEY_CTRL_L)
        return PLAY_HANDLED;
    /* Nothing of the table shows: only leaving makes sense. */
    if (ui->too_small)
        return key == 'q' ? PLAY_LEAVE : PLAY_HANDLED;
    if (ui->overlay != PLAY_NO_OVERLAY)
        return overlay_key(ui, key, out);
    if (ui->typed[0] != '\0')
        return typed_key(ui, key, out);

    int r = PLAY_IGNORED;
    if (my_turn(ui)) {
        bool fife = play_fife(ui);
        switch (ui->view.t.phase) {
        case BARBU_PHASE_DECLARE:
            r = fife ? fife_call_key(ui, key, out) : declare_key(ui, key, out);
            break;
        case BARBU_PHASE_CUT:
            if (key == 'c' || key == 'C' || key == '\n' || key == '\r' || key == KEY_ENTER) {
                *out = barbu_act(BARBU_ACT_CUT, ui->view.seat);
                return PLAY_ACT;
            }
            break;
        case BARBU_PHASE_PASS_ON:
            r = pass_on_key(ui, key, out);
            break;
        case BARBU_PHASE_BID:
            r = bid_key(ui, key, out);
            break;
        case BARBU_PHASE_PLAY:
            r = play_phase_key(ui, key, out);
            break;
        case BARBU_PHASE_ARRANGE:
            r = arrange_key(ui, key, out);
            break;
        default:
            break;
        }
        if (r != PLAY_IGNORED)
            return r;
    }

    switch (key) {
    case '?':
        ui->overlay = PLAY_HELP;
        return PLAY_HANDLED;
    case 's':
        ui->overlay = PLAY_SHEET;
        ui->sheet_scroll = 0;
        return PLAY_HANDLED;
    case 'l':
        ui->overlay = PLAY_LAST;
        return PLAY_HANDLED;
    case 'c':
        if (!play_fife(ui))
            break;
        ui->overlay = PLAY_CUTS;
        return PLAY_HANDLED;
    case 'q':
        ui->overlay = PLAY_QUIT;
        return PLAY_HANDLED;
    default:
        break;
    }
    if (!my_turn(ui))
        return PLAY_HURRY;
    if (key < 256 && key > ' ')
        play_message(ui, true, "The key '%c' does nothing here; ? lists the keys", key);
    return PLAY_IGNORED;
}
