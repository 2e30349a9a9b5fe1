/*
 * play.c - barbu play: you against three computer players in the terminal.
 *
 * This file runs the game: it owns the state, asks the bots and the human
 * for actions, applies them through the engine and keeps the record.  The
 * terminal table (src/tui: the screen and the keys) only ever gets the
 * human's view (with --watch, the view of the seat being watched, and no
 * human seat at all).
 */
#include <inttypes.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "barbu/ai.h"
#include "cli.h"
#include "tui.h"

#define DEFAULT_DELAY_MS 500
#define DEFAULT_BOTS     "medium"
#define MAX_DELAY_MS     5000
#define MAX_THREADS      64

/* Set by SIGINT, SIGTERM and SIGHUP; the loop sees it and leaves cleanly,
 * so that curses restores the terminal and the record is written. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

typedef struct play_options {
    const char *rules;  /* preset or file */
    const char *bots;   /* bot kind */
    const char *record; /* record path, NULL for the default */
    uint64_t seed;
    int seat;
    int delay_ms;
    int threads; /* each computer player's threads */
    bool watch;  /* four computer players; seat is the one whose cards show */
} play_options;

typedef struct game {
    barbu_rules rules;
    barbu_state state;
    barbu_record *rec;
    barbu_bot *bot[4];
    int human; /* the human's seat, -1 when watching */
    int shown; /* the seat whose view is on screen: the human's, or --seat's */
    char names[4][32];
    char record_path[4096];
    barbu_result *results; /* one per deal completed */
    int n_results;
    barbu_sheet sheet; /* the Fife game: the players' score sheet */
    int delay_ms;
} game;

/* ----------------------------------------------------------------- options */

static void usage(FILE *out)
{
    fprintf(out, "usage: barbu play [--rules R] [--seed S] [--seat N|E|S|W] [--bots KIND]\n"
                 "                  [--record FILE] [--delay MS] [--watch]\n"
                 "\n"
                 "Play Barbu in the terminal against three computer players, or watch four.\n"
                 "\n"
                 "Options:\n"
                 "  --rules R       the rule set, default uk: a rules file or a preset,\n"
                 "                 ");
    /* The presets, as many to a line as fit in 80 columns. */
    int col = 17;
    for (int i = 0; barbu_preset_name(i) != NULL; i++) {
        const char *name = barbu_preset_name(i);
        bool last = barbu_preset_name(i + 1) == NULL;
        int len = (int)strlen(name) + 1 + (last ? 0 : 1);
        if (col + len > 79) {
            fprintf(out, "\n                 ");
            col = 17;
        }
        fprintf(out, " %s%s", name, last ? "" : ",");
        col += len;
    }
    fprintf(out, "\n"
                 "  --seed S        the seed of the deals, a whole number; default a fresh one.\n"
                 "                  It is shown on screen: the same seed deals the same cards\n"
                 "  --seat SEAT     your seat: N, E, S or W (or north...); default S\n"
                 "  --bots KIND     ");
    char kinds[200], text[400];
    snprintf(text, sizeof text,
             "the computer players' level: %s; default %s.  Easy plays by rules of thumb, "
             "medium searches (about a hundredth of a second a move), hard searches ten times "
             "longer and plays out the last four tricks exactly; heuristic is easy's old name",
             cli_bot_kinds(kinds, sizeof kinds, ", ", " or "), DEFAULT_BOTS);
    cli_print_wrapped(out, text, 18, 18);
    fprintf(out,
            "  --record FILE   where the game record goes; default barbu-SEED.txt here.\n"
            "                  It is written after every deal and when you quit\n"
            "  --delay MS      the pause after each computer move, 0 to %d ms; default %d\n"
            "  --threads N     threads each medium or hard computer player thinks on, 1 to\n"
            "                  64; default 1 (medium's moves are the same, only sooner;\n"
            "                  hard's may differ a little)\n"
            "  --watch         four computer players and you watch, from --seat's side\n"
            "                  (its cards show).  Each deal's result stays up for a few\n"
            "                  pauses; with --delay 0 the whole game runs straight through\n"
            "                  and the program leaves at its end.  The keys below that do\n"
            "                  not play (s, l, ?, q) still work; any other key hurries\n"
            "  -h, --help      this text\n"
            "\n"
            "Keys:\n"
            "  Left/Right, Home/End  move the cursor over your hand (legal cards are bright,\n"
            "                        the others dim)\n"
            "  Enter or space        play the card under the cursor\n"
            "  qh, 10s, ts, 2c ...   type a card to play it: its rank, then c, d, h or s\n"
            "  p                     pass at Domino when no card fits\n"
            "  Up/Down, Enter, 1-9   choose your contract, then the trump suit or the\n"
            "                        Domino start rank (or type it: s, h, 8, q ...).\n"
            "                        The menu also says why the others are not offered\n"
            "  b, m, f               Chinese Poker: put the card under the cursor (or\n"
            "                        typed) in the back, middle or front row; u takes it\n"
            "                        out, r starts again, g fills in the computer's\n"
            "                        suggestion, Enter sets the rows\n"
            "  1 2 3, space          doubling: tick a player to double or redouble;\n"
            "  m, f, 0, Enter        max, family, none, and confirm the bid\n"
            "  1-7, l, 0, Enter      the Fife game's Call: tick Calls (1-5 the negatives,\n"
            "                        6 a Single and 7 the Double Patience), l The Lot,\n"
            "                        0 clears, Enter calls; Up/Down walk the Calls and\n"
            "                        combinations allowed.  The menu gives the reason\n"
            "                        for a combination that is refused\n"
            "  space, g, Enter, p    Fife Patience: tick cards to play together (g picks\n"
            "                        the groups allowed), Enter plays them; p chaps\n"
            "  c                     the Silly Round: cut the Unused Pack when you are\n"
            "                        the cutter; at other times, the deal's cuts\n"
            "  space (or qh), Enter  a Pass-on: tick 3 cards, pass them\n"
            "  s                     the score sheet\n"
            "  l                     the last trick\n"
            "  ?                     the keys\n"
            "  q                     quit, after a question (the record is saved)\n"
            "  Ctrl-L                repaint the screen\n"
            "  any other key         while the others play: do not wait for them\n"
            "\n"
            "The terminal must be at least 80x24.  Every preset is played, Ravage City,\n"
            "Chinese Poker, King and the Fife game included.  After the game the record's\n"
            "path and the score sheet are printed; 'barbu replay FILE' replays the record.\n",
            MAX_DELAY_MS, DEFAULT_DELAY_MS);
}

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "barbu play: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'barbu play --help'.\n");
    return 2;
}

static bool valid_kind(const char *kind)
{
    for (int i = 0; barbu_bot_kind_name(i) != NULL; i++)
        if (strcmp(kind, barbu_bot_kind_name(i)) == 0)
            return true;
    return false;
}

/* Returns -1 to go on, else the exit status (0 after --help, 2 on error). */
static int parse_options(int argc, char **argv, play_options *o, barbu_rules *rules)
{
    static const char *const WITH_VALUE[] = {"--rules",  "--seed",  "--seat",   "--bots",
                                             "--record", "--delay", "--threads"};
    bool have_seed = false;
    o->rules = "uk";
    o->bots = DEFAULT_BOTS;
    o->record = NULL;
    o->seat = 2;
    o->delay_ms = DEFAULT_DELAY_MS;
    o->threads = 1;
    o->watch = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(arg, "--watch") == 0) {
            o->watch = true;
            continue;
        }
        const char *name = NULL, *value = NULL;
        for (size_t k = 0; k < sizeof WITH_VALUE / sizeof WITH_VALUE[0]; k++) {
            size_t n = strlen(WITH_VALUE[k]);
            if (strncmp(arg, WITH_VALUE[k], n) == 0 && (arg[n] == '\0' || arg[n] == '=')) {
                name = WITH_VALUE[k];
                if (arg[n] == '=')
                    value = arg + n + 1;
                else if (i + 1 < argc)
                    value = argv[++i];
                else
                    return bad_usage("%s needs a value", name);
                break;
            }
        }
        if (name == NULL) {
            if (arg[0] == '-')
                return bad_usage("unknown option '%s'", arg);
            return bad_usage("unexpected argument '%s'", arg);
        }
        if (strcmp(name, "--rules") == 0) {
            o->rules = value;
        } else if (strcmp(name, "--seed") == 0) {
            if (cli_parse_seed(value, &o->seed) != 0)
                return bad_usage("--seed takes a whole number from 0 to 18446744073709551615, "
                                 "not '%s'",
                                 value);
            have_seed = true;
        } else if (strcmp(name, "--seat") == 0) {
            o->seat = barbu_seat_parse(value);
            if (o->seat < 0)
                return bad_usage("--seat takes N, E, S or W, not '%s'", value);
        } else if (strcmp(name, "--bots") == 0) {
            if (!valid_kind(value)) {
                char kinds[200];
                fprintf(stderr, "barbu play: unknown kind of computer player '%s' (%s)\n", value,
                        cli_bot_kinds(kinds, sizeof kinds, ", ", ", "));
                fprintf(stderr, "Try 'barbu play --help'.\n");
                return 2;
            }
            o->bots = value;
        } else if (strcmp(name, "--record") == 0) {
            if (*value == '\0')
                return bad_usage("--record needs a file name%s", "");
            o->record = value;
        } else if (strcmp(name, "--threads") == 0) {
            char *end;
            long n = strtol(value, &end, 10);
            if (*value == '\0' || *end != '\0' || n < 1 || n > MAX_THREADS)
                return bad_usage("--threads takes 1 to 64, not '%s'", value);
            o->threads = (int)n;
        } else {
            char *end;
            long ms = strtol(value, &end, 10);
            if (*value == '\0' || *end != '\0' || ms < 0 || ms > MAX_DELAY_MS)
                return bad_usage("--delay takes milliseconds from 0 to 5000, not '%s'", value);
            o->delay_ms = (int)ms;
        }
    }
    if (cli_load_rules(o->rules, rules) != 0) {
        fprintf(stderr, "Try 'barbu play --help'.\n");
        return 2;
    }
    if (!have_seed)
        o->seed = cli_fresh_seed();
    return -1;
}

/* ------------------------------------------------------------------ record */

/* Writes the record so far; on failure says why in *why. */
static int save_record(const game *g, char *why, size_t cap)
{
    char *text = NULL;
    size_t len = 0;
    barbu_diag diag = {0};
    int err = barbu_record_write(g->rec, &text, &len, &diag);
    if (err != 0) {
        snprintf(why, cap, "%s%s%s", barbu_strerror(err), diag.msg[0] ? ": " : "", diag.msg);
        return 1;
    }
    /* cli_write_file prints its own error (the path and the reason). */
    err = cli_write_file(g->record_path, text, len);
    free(text);
    if (err != 0) {
        snprintf(why, cap, "the file cannot be written");
        return 1;
    }
    return 0;
}

/* A login name that is safe in a record tag, or "human". */
static void human_name(char *buf, size_t cap)
{
    const char *user = getenv("USER");
    size_t n = 0;
    for (const char *p = user ? user : ""; *p && n + 1 < cap && n < 12; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '_' || *p == '-' || *p == '.')
            buf[n++] = *p;
    buf[n] = '\0';
    if (n == 0)
        snprintf(buf, cap, "human");
}

static int game_start(game *g, const play_options *o)
{
    static const char *const TAGS[] = {"North", "East", "South", "West"};
    g->human = o->watch ? -1 : o->seat;
    g->shown = o->seat;
    g->delay_ms = o->delay_ms;
    int err = barbu_init(&g->state, &g->rules, o->seed);
    if (err != 0) {
        fprintf(stderr, "barbu play: cannot start the game: %s\n", barbu_strerror(err));
        return 1;
    }
    g->results = calloc((size_t)g->state.t.n_deals + 1, sizeof *g->results);
    barbu_sheet_init(&g->sheet, NULL);
    g->rec = barbu_record_new(&g->rules, o->seed);
    if (g->results == NULL || g->rec == NULL) {
        fprintf(stderr, "barbu play: out of memory\n");
        return 1;
    }
    /* Each bot has its own stream from the seed, so a game replays. */
    barbu_rng rng;
    barbu_rng_seed(&rng, o->seed ^ UINT64_C(0x706c6179626f7473));
    for (int s = 0; s < 4; s++) {
        uint64_t bot_seed = barbu_rng_next(&rng);
        if (s == g->human) {
            human_name(g->names[s], sizeof g->names[s]);
            continue;
        }
        g->bot[s] = barbu_bot_new(o->bots, bot_seed);
        if (g->bot[s] == NULL) {
            fprintf(stderr, "barbu play: cannot make a '%s' player\n", o->bots);
            return 1;
        }
        barbu_bot_set_threads(g->bot[s], o->threads);
        snprintf(g->names[s], sizeof g->names[s], "%s", o->bots);
    }
    char date[16];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    for (int s = 0; s < 4; s++)
        barbu_record_set_tag(g->rec, TAGS[s], g->names[s]);
    barbu_record_set_tag(g->rec, "Event", o->watch ? "barbu play --watch" : "barbu play");
    barbu_record_set_tag(g->rec, "Date", date);

    if (o->record != NULL)
        snprintf(g->record_path, sizeof g->record_path, "%s", o->record);
    else
        snprintf(g->record_path, sizeof g->record_path, "barbu-%" PRIu64 ".txt", o->seed);
    /* Write the empty record now: a path that cannot be written is better
     * found before the first card than after the last. */
    char why[600];
    if (save_record(g, why, sizeof why) != 0) {
        fprintf(stderr, "barbu play: %s; name another with --record FILE\n", why);
        return 1;
    }
    return 0;
}

static void game_free(game *g)
{
    for (int s = 0; s < 4; s++)
        barbu_bot_free(g->bot[s]);
    barbu_record_free(g->rec);
    free(g->results);
}

/* -------------------------------------------------------------------- loop */

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sync_view(const game *g, play_ui *ui)
{
    barbu_view_of(&g->state, g->shown, &ui->view);
    ui->results = g->results;
    ui->n_results = g->n_results;
}

/*
 * Applies an action of any seat through the engine and, if it is legal,
 * records it, tells the human what happened and notes a finished deal.
 * Returns 0 or the engine's reason for refusing it.  *pause is how long the
 * table should stay still for the human to see it.
 */
static int act(game *g, play_ui *ui, const barbu_action *a, int *pause)
{
    barbu_state before = g->state;
    int err = barbu_apply(&g->state, a);
    if (err != 0)
        return err;
    err = barbu_record_add(g->rec, &before, a);
    sync_view(g, ui);
    play_fife_note(ui, &before.t, a);
    char text[200];
    play_describe(ui, &before.t, a, text, sizeof text);
    if (err != 0)
        play_message(ui, true, "%s (the record refused it: %s)", text, barbu_strerror(err));
    else
        play_message(ui, false, "%s", text);

    *pause = g->delay_ms;
    if (g->state.t.deal != before.t.deal) {
        g->results[g->n_results++] = g->state.t.last;
        if (g->rules.game == BARBU_GAME_FIFE) {
            int sheet_err = barbu_sheet_add(&g->sheet, &g->rules, &g->state.t.last);
            if (sheet_err != 0)
                play_message(ui, true, "%s (the score sheet refused it: %s)", text,
                             barbu_strerror(sheet_err));
            /* A Silly Round starts with a draw for its first dealer. */
            const barbu_table *t = &g->state.t;
            ui->draw_pending =
                !barbu_over(&g->state) && t->round == BARBU_SILLY_ROUND && t->round_deal == 0;
        }
        sync_view(g, ui);
        ui->overlay = PLAY_DEAL_END;
        /* Watching, the result closes by itself: give it time to be read. */
        if (ui->watch)
            *pause = g->delay_ms * 8;
        char why[600];
        if (save_record(g, why, sizeof why) != 0) {
            play_screen_repaint(); /* cli_write_file wrote to stderr */
            play_message(ui, true, "The record could not be saved: %s", why);
        }
    } else if (g->state.t.ntricks > before.t.ntricks) {
        /* Leave a finished trick on the table a little longer. */
        *pause = g->delay_ms * 2;
    }
    play_new_decision(ui);
    return 0;
}

static int bot_move(game *g, play_ui *ui, int *pause, char *fatal, size_t cap)
{
    int seat = barbu_to_move(&g->state);
    barbu_view view;
    barbu_view_of(&g->state, seat, &view);
    barbu_action a;
    int err = barbu_bot_choose(g->bot[seat], &view, &a);
    if (err == 0)
        err = act(g, ui, &a, pause);
    if (err != 0)
        snprintf(fatal, cap, "the %s player at %s failed: %s", barbu_bot_kind(g->bot[seat]),
                 barbu_seat_name(seat), barbu_strerror(err));
    return err;
}

enum { END_QUIT, END_SIGNAL, END_FATAL };

static int run(game *g, play_ui *ui, char *fatal, size_t cap)
{
    /* A draw (the Fife game) stays up longer, as a deal's result does. */
    long long due = now_ms() + g->delay_ms * (ui->overlay == PLAY_DRAW ? 8 : 1);
    sync_view(g, ui);
    play_new_decision(ui);
    for (;;) {
        if (interrupted)
            return END_SIGNAL;
        sync_view(g, ui);
        /* The draw that starts a Silly Round, once the table is clear. */
        if (ui->draw_pending && ui->overlay == PLAY_NO_OVERLAY) {
            ui->draw_pending = false;
            ui->overlay = PLAY_DRAW;
            due = now_ms() + g->delay_ms * 8;
        }
        if (barbu_over(&g->state) && ui->overlay == PLAY_NO_OVERLAY) {
            /* Watching straight through, the game ends with its last deal
             * (the sheet is printed after the screen closes). */
            if (ui->watch && g->delay_ms == 0)
                return END_QUIT;
            ui->overlay = PLAY_OVER;
            ui->sheet_scroll = 0;
        }
        ui->too_small = !play_screen_fits();
        play_draw(ui);

        bool bots_turn = !barbu_over(&g->state) && barbu_to_move(&g->state) != g->human &&
                         ui->overlay == PLAY_NO_OVERLAY && !ui->too_small;
        /* Watching, the result of a deal (and a draw) closes by itself. */
        bool closes = ui->watch && (ui->overlay == PLAY_DEAL_END || ui->overlay == PLAY_DRAW) &&
                      !ui->too_small;
        /* Short waits, so that a signal is seen quickly; none when the next
         * move is due, but the keys are still read, so that q works even
         * with --delay 0. */
        int wait = 250;
        if (bots_turn || closes) {
            long long left = due - now_ms();
            wait = left <= 0 ? 0 : left < wait ? (int)left : wait;
        }
        int key = play_read_key(wait);
        if (key < 0) {
            if ((bots_turn || closes) && now_ms() >= due) {
                if (closes) {
                    ui->overlay = PLAY_NO_OVERLAY;
                    due = now_ms() + g->delay_ms;
                } else {
                    /* The pause runs from when the bot starts to think,
                     * so a searching bot (medium, hard) keeps the pace. */
                    long long start = now_ms();
                    int pause;
                    if (bot_move(g, ui, &pause, fatal, cap) != 0)
                        return END_FATAL;
                    due = start + pause;
                }
            }
            continue;
        }
        int was_overlay = ui->overlay;
        barbu_action a;
        switch (play_key(ui, key, &a)) {
        case PLAY_ACT: {
            int pause;
            int err = act(g, ui, &a, &pause);
            if (err != 0) {
                /* Worded from the human's own view: only what they may know. */
                char why[400];
                barbu_view_explain(&ui->view, &a, why, sizeof why);
                play_message(ui, true, "Refused: %s.", why[0] ? why : barbu_strerror(err));
            } else
                due = now_ms() + pause;
            break;
        }
        case PLAY_HURRY:
            due = 0;
            break;
        case PLAY_LEAVE:
            return END_QUIT;
        default:
            break;
        }
        /* Closing the result of a deal starts the next one after a pause. */
        if (was_overlay == PLAY_DEAL_END && ui->overlay == PLAY_NO_OVERLAY)
            due = now_ms() + g->delay_ms;
    }
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a blocked read returns at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int cmd_play(int argc, char **argv)
{
    static const char *const SEATS[] = {"North", "East", "South", "West"};
    play_options o;
    game g;
    memset(&g, 0, sizeof g);
    int status = parse_options(argc, argv, &o, &g.rules);
    if (status >= 0)
        return status;
    /* The suit symbols need the user's (UTF-8) locale. */
    setlocale(LC_ALL, "");
    if (play_screen_check("barbu play") != 0 || game_start(&g, &o) != 0) {
        game_free(&g);
        return 1;
    }

    play_ui ui;
    memset(&ui, 0, sizeof ui);
    for (int s = 0; s < 4; s++)
        ui.names[s] = g.names[s];
    ui.rules_name = o.rules;
    ui.record_path = g.record_path;
    ui.seed = o.seed;
    ui.watch = o.watch;
    ui.sheet = &g.sheet;
    ui.log_deal = -1;
    /* The Fife game starts with the draw for the first Caller. */
    if (g.rules.game == BARBU_GAME_FIFE)
        ui.overlay = PLAY_DRAW;
    /* Our handlers go first, so that curses keeps them. */
    install_signals();
    if (play_screen_open("barbu play") != 0) {
        game_free(&g);
        return 1;
    }
    if (o.watch)
        play_message(&ui, false,
                     "Watching four %s players, %s's cards showing. Seed %" PRIu64 ". q quits.",
                     o.bots, SEATS[g.shown], o.seed);
    else
        play_message(&ui, false,
                     "You sit %s. Seed %" PRIu64 " deals this game again. ? lists the keys.",
                     SEATS[g.human], o.seed);
    char fatal[256] = "";
    int end = run(&g, &ui, fatal, sizeof fatal);
    play_screen_close();

    status = 0;
    if (end == END_FATAL) {
        fprintf(stderr, "barbu play: %s\n", fatal);
        status = 1;
    } else if (end == END_SIGNAL) {
        fprintf(stderr, "barbu play: interrupted\n");
        status = 128 + interrupted;
    }
    char why[600];
    if (save_record(&g, why, sizeof why) == 0)
        printf("The record of this game is in %s\n", g.record_path);
    else {
        fprintf(stderr, "barbu play: the record was not saved: %s\n", why);
        if (status == 0)
            status = 1;
    }
    if (!barbu_over(&g.state) && g.rules.game == BARBU_GAME_FIFE)
        printf("The game stopped after %d deals.\n", g.n_results);
    else if (!barbu_over(&g.state))
        printf("The game stopped after %d of %d deals.\n", g.n_results, g.state.t.n_deals);
    if (o.watch)
        printf("You watched four %s players (seed %" PRIu64 ", rules %s).\n\n", o.bots, o.seed,
               o.rules);
    else
        printf("You played %s (seed %" PRIu64 ", rules %s).\n\n", SEATS[g.human], o.seed, o.rules);
    if (g.rules.game == BARBU_GAME_FIFE)
        cli_fife_sheet_text(stdout, &g.sheet, SEATS);
    else
        cli_print_sheet(stdout, &g.rules, g.results, g.n_results, SEATS);
    game_free(&g);
    return status;
}
