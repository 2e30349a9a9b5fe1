/*
 * connect.c - barbu connect: join a barbu server from the terminal.
 *
 * This file reads the options, keeps the session's token (so that running
 * the same command again after a crash or a dropped network takes the seat
 * back), and runs the loop of connect_net.c until the user quits.  See
 * connect.h for the other files.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "connect.h"

/* Set by SIGINT, SIGTERM and SIGHUP: the loop ends and the terminal is
 * restored; the session (and its seat) stays on the server. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

bool cn_signalled(void)
{
    return interrupted != 0;
}

long long cn_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void cn_note(cn *c, const char *fmt, ...)
{
    if (c->n_chat == CN_CHAT_LINES) {
        memmove(&c->chat[0], &c->chat[1], sizeof c->chat[0] * (CN_CHAT_LINES - 1));
        c->n_chat--;
    }
    cn_chat_line *l = &c->chat[c->n_chat++];
    l->kind = CN_CHAT_NOTE;
    l->from[0] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->text, sizeof l->text, fmt, ap);
    va_end(ap);
    c->dirty = true;
}

void cn_status(cn *c, bool error, const char *fmt, ...)
{
    char buf[sizeof c->status];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    snprintf(c->status, sizeof c->status, "%s", buf);
    c->status_error = error;
    if (c->screen == CN_TABLE)
        play_message(&c->ui, error, "%s", buf);
    c->dirty = true;
}

/* ----------------------------------------------------------------- token */

/* Makes every directory of path's parent, private to the user. */
static int make_parents(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == NULL || slash == dir)
        return 0;
    *slash = '\0';
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

void cn_token_save(cn *c, const char *token)
{
    if (token == NULL) {
        c->token[0] = '\0';
        if (unlink(c->token_path) != 0 && errno != ENOENT)
            cn_note(c, "The token file %s could not be removed: %s", c->token_path,
                    strerror(errno));
        return;
    }
    snprintf(c->token, sizeof c->token, "%s", token);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.part", c->token_path);
    int fd = -1;
    bool ok = make_parents(c->token_path) == 0 &&
              (fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0;
    if (ok) {
        /* The mode, whatever the umask or an older file said. */
        char line[PROTO_TOKEN_LEN + 2];
        int n = snprintf(line, sizeof line, "%s\n", token);
        ok = fchmod(fd, 0600) == 0 && write(fd, line, (size_t)n) == n;
        ok = close(fd) == 0 && ok;
        ok = ok && rename(tmp, c->token_path) == 0;
        if (!ok)
            unlink(tmp);
    }
    if (!ok)
        cn_note(c,
                "The session's token could not be saved in %s (%s): a crash would lose "
                "the seat.",
                c->token_path, strerror(errno));
}

static void token_load(cn *c)
{
    c->token[0] = '\0';
    FILE *f = fopen(c->token_path, "r");
    if (f == NULL)
        return;
    char line[128] = "";
    if (fgets(line, sizeof line, f) != NULL) {
        size_t n = strspn(line, "0123456789abcdefABCDEF");
        if (n == PROTO_TOKEN_LEN) {
            memcpy(c->token, line, PROTO_TOKEN_LEN);
            c->token[PROTO_TOKEN_LEN] = '\0';
        }
    }
    fclose(f);
}

/* The default token file: one per server and name. */
static int token_default_path(cn *c)
{
    char dir[3000];
    const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (state != NULL && state[0] == '/')
        snprintf(dir, sizeof dir, "%s/barbu", state);
    else if (home != NULL && home[0])
        snprintf(dir, sizeof dir, "%s/.local/state/barbu", home);
    else
        return -1;
    char key[400];
    snprintf(key, sizeof key, "token-%s-%d-%s", c->host, c->port, c->name);
    for (char *p = key; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '-' || *p == '_'))
            *p = '_';
    snprintf(c->token_path, sizeof c->token_path, "%s/%s", dir, key);
    return 0;
}

/* --------------------------------------------------------------- options */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: barbu connect [ws://HOST:PORT] [--name NAME] [--token-file PATH]\n"
            "\n"
            "Join a barbu server (barbu serve) from the terminal: see its tables, create\n"
            "one, sit down and play, kibitz, chat.  The server is %s by\n"
            "default; HOST:PORT alone works too, and wss:// for a server behind TLS.\n"
            "\n"
            "Options:\n"
            "  --name NAME        your name at the tables: 1-20 letters, digits, _ - .\n"
            "                     and single spaces; default your login name\n"
            "  --token-file PATH  where the session's token is kept (mode 0600); default\n"
            "                     $XDG_STATE_HOME/barbu/ (or ~/.local/state/barbu/), one\n"
            "                     file per server and name.  Running barbu connect again\n"
            "                     with the same name resumes the session: after a crash,\n"
            "                     a dropped network or q, you are back in your seat (a\n"
            "                     table still waiting for players frees it at once)\n"
            "  -h, --help         this text\n"
            "\n"
            "The connection is tried again by itself when it drops (after 1, 2, 4 ... up\n"
            "to 30 seconds); the screen says how it stands.\n"
            "\n"
            "The lobby:\n"
            "  Up/Down             choose a table (the list changes as tables do)\n"
            "  Enter or s          sit at it: then n, e, s or w for the seat\n"
            "  k                   kibitz it: n e s w (that seat's hand) or a (every hand)\n"
            "  n                   a new table: the rules (every preset), a seed (empty for\n"
            "                      a fresh one), your seat, computer players in the empty\n"
            "                      seats and their level (easy, medium - the default -,\n"
            "                      hard or random; also that of any computer player\n"
            "                      seated later), who may kibitz, the computer players'\n"
            "                      delay, the grace period of a lost player, what then\n"
            "                      happens, and a house rules file\n"
            "  r                   refresh the list (and reconnect when stopped)\n"
            "  /                   chat in the lobby (Enter sends, Esc cancels)\n"
            "  q                   quit\n"
            "\n"
            "At a table, the screen of 'barbu play' with its keys (? lists them: the\n"
            "cards, the contract menu, doubling with m max and f family, the Fife Calls,\n"
            "Patience groups, cuts and Pass-ons, Chinese Poker rows), and:\n"
            "  /                   chat at the table\n"
            "  !                   the table's menu: s the score window (every deal, the\n"
            "                      totals and the score sheet, from the server), r save the\n"
            "                      game record in this directory, b put a computer player\n"
            "                      in a free seat (or one whose player is gone), x leave\n"
            "                      the table; on a small terminal also the seats and the\n"
            "                      chat log.  Kibitzing every hand, v shows the next seat\n"
            "  q                   quit, after a question: your seat is kept for you\n"
            "                      while the game is on\n"
            "\n"
            "The panel beside the table (or under it) shows the connection, the seats\n"
            "(who is away and for how long, which seats are free, the computer players),\n"
            "the kibitzers and the chat.  It needs a terminal of 110x24 (or 80x31); at\n"
            "80x24 the table alone shows and the menu opens the rest.\n"
            "\n"
            "Set BARBU_CONNECT_LOG=FILE to keep the network library's messages.\n",
            CN_DEFAULT_URL);
}

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "barbu connect: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'barbu connect --help'.\n");
    return 2;
}

/* ws://HOST:PORT/PATH, wss://..., HOST:PORT or HOST; [::1]:2118 too. */
static int parse_url(cn *c, const char *url)
{
    const char *p = url;
    c->tls = false;
    if (strncmp(p, "ws://", 5) == 0) {
        p += 5;
    } else if (strncmp(p, "wss://", 6) == 0) {
        p += 6;
        c->tls = true;
    } else if (strstr(p, "://") != NULL) {
        return -1;
    }
    const char *host_end;
    const char *host = p;
    if (*p == '[') {
        host = p + 1;
        host_end = strchr(p, ']');
        if (host_end == NULL)
            return -1;
        p = host_end + 1;
    } else {
        host_end = p + strcspn(p, ":/");
        p = host_end;
    }
    if (host_end == host || (size_t)(host_end - host) >= sizeof c->host)
        return -1;
    memcpy(c->host, host, (size_t)(host_end - host));
    c->host[host_end - host] = '\0';
    c->port = 2118;
    if (*p == ':') {
        char *end;
        long port = strtol(p + 1, &end, 10);
        if (end == p + 1 || port < 1 || port > 65535)
            return -1;
        c->port = (int)port;
        p = end;
    }
    if (*p == '\0')
        snprintf(c->path, sizeof c->path, "/ws");
    else if (*p == '/' && strlen(p) < sizeof c->path)
        snprintf(c->path, sizeof c->path, "%s", p);
    else
        return -1;
    snprintf(c->url, sizeof c->url, "%s://%s%s%s%s:%d%s", c->tls ? "wss" : "ws",
             strchr(c->host, ':') ? "[" : "", c->host, strchr(c->host, ':') ? "]" : "", "", c->port,
             c->path);
    return 0;
}

static void default_name(char *buf, size_t cap)
{
    const char *user = getenv("USER");
    size_t n = 0;
    for (const char *p = user ? user : ""; *p && n + 1 < cap && n < PROTO_MAX_NAME; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '_' || *p == '-' || *p == '.')
            buf[n++] = *p;
    buf[n] = '\0';
    if (n == 0)
        snprintf(buf, cap, "player");
}

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, cn *c)
{
    const char *url = NULL, *name = NULL, *token_file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        const char **slot = NULL;
        const char *opt = NULL;
        if (strncmp(arg, "--name", 6) == 0 && (arg[6] == '\0' || arg[6] == '=')) {
            slot = &name;
            opt = "--name";
        } else if (strncmp(arg, "--token-file", 12) == 0 && (arg[12] == '\0' || arg[12] == '=')) {
            slot = &token_file;
            opt = "--token-file";
        }
        if (slot != NULL) {
            const char *eq = strchr(arg, '=');
            if (eq != NULL)
                *slot = eq + 1;
            else if (i + 1 < argc)
                *slot = argv[++i];
            else
                return bad_usage("%s needs a value", opt);
            continue;
        }
        if (arg[0] == '-')
            return bad_usage("unknown option '%s'", arg);
        if (url != NULL)
            return bad_usage("one server only, not also '%s'", arg);
        url = arg;
    }
    if (parse_url(c, url ? url : CN_DEFAULT_URL) != 0)
        return bad_usage("'%s' is not a server address (ws://HOST:PORT)", url);
    if (name != NULL)
        snprintf(c->name, sizeof c->name, "%s", name);
    else
        default_name(c->name, sizeof c->name);
    if ((name != NULL && strlen(name) > PROTO_MAX_NAME) || !proto_name_ok(c->name))
        return bad_usage("the name '%s' is not allowed: 1-20 letters, digits, _ - . and single "
                         "spaces inside",
                         name ? name : c->name);
    if (token_file != NULL) {
        if (token_file[0] == '\0')
            return bad_usage("--token-file needs a file name%s", "");
        snprintf(c->token_path, sizeof c->token_path, "%s", token_file);
    } else if (token_default_path(c) != 0) {
        return bad_usage("neither XDG_STATE_HOME nor HOME is set: name a token file with "
                         "--token-file%s",
                         "");
    }
    return -1;
}

/* ------------------------------------------------------------------ main */

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static void client_init(cn *c)
{
    c->next_id = 1;
    c->screen = CN_LOBBY;
    c->table.id = -1;
    c->watch_seat = 2;
    c->form.seat = 2;
    c->form.bots = 1;
    c->form.level = CN_LEVEL_MEDIUM;
    snprintf(c->form.delay, sizeof c->form.delay, "600");
    snprintf(c->form.grace, sizeof c->form.grace, "300");
    barbu_sheet_init(&c->sheet, NULL);
    c->ui.remote = true;
    c->ui.log_deal = -1;
    c->ui.sheet = &c->sheet;
    c->ui.quit_note = "Your seat is kept while the game is on: run barbu connect again to "
                      "come back.";
    c->ui.help_more[0] = "  q  quit (asks first; your seat is kept for you)";
    c->ui.help_more[1] = "  /  chat     !  the table's menu: score, record, computer, leave";
}

static void client_free(cn *c)
{
    cn_score_set(c, NULL, 0);
    free(c->tables);
    free(c->results);
}

int cmd_connect(int argc, char **argv)
{
    cn *c = calloc(1, sizeof *c);
    if (c == NULL) {
        fprintf(stderr, "barbu connect: out of memory\n");
        return 1;
    }
    client_init(c);
    int status = parse_options(argc, argv, c);
    if (status >= 0) {
        client_free(c);
        free(c);
        return status;
    }
    token_load(c);
    /* The suit symbols need the user's (UTF-8) locale. */
    setlocale(LC_ALL, "");
    if (play_screen_check("barbu connect") != 0) {
        client_free(c);
        free(c);
        return 1;
    }
    install_signals();
    if (play_screen_open("barbu connect") != 0) {
        client_free(c);
        free(c);
        return 1;
    }
    cn_note(c, "barbu connect %s: %s as %s%s.", BARBU_VERSION, c->url, c->name,
            c->token[0] ? " (resuming the saved session)" : "");
    c->dirty = true;
    status = 0;
    if (cn_net_start(c) == 0)
        cn_net_run(c);
    else
        status = 1;
    bool at_table = c->screen == CN_TABLE && c->table.you_seat >= 0 &&
                    strcmp(c->table.state, "waiting") != 0 && strcmp(c->table.state, "over") != 0;
    long long table = c->table.id;
    bool fatal = c->fatal;
    char why[sizeof c->conn_why];
    snprintf(why, sizeof why, "%s", c->conn_why);
    cn_net_free(c);
    play_screen_close();
    if (interrupted)
        status = 128 + interrupted;
    if (fatal) {
        fprintf(stderr, "barbu connect: %s\n", why);
        status = 1;
    } else if (at_table) {
        printf("Your seat at table %lld is kept: 'barbu connect' with the same name takes it "
               "back.\n",
               table);
    }
    client_free(c);
    free(c);
    return status;
}
