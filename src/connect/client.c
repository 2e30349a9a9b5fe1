/*
 * client.c - the life of barbu connect's client: the session's token (so
 * that running the same command again after a crash or a dropped network
 * takes the seat back), the signals, the status line and the notes, and
 * the run itself: the screen opened, the loop of net.c until the user
 * quits, the terminal restored.  See connect.h for the other files.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
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

int cn_token_default_path(cn *c)
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

/* ------------------------------------------------------------------- run */

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

cn *cn_new(void)
{
    cn *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->next_id = 1;
    c->screen = CN_LOBBY;
    c->table.id = -1;
    c->move_wait_ms = -1;
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
    c->ui.help_more[0] = "  q  quit (seat kept)   ?  a hint, at your turn (tables with hints)";
    c->ui.help_more[1] = "  /  chat     !  the table's menu: score, record, computer, leave";
    return c;
}

void cn_free(cn *c)
{
    if (c == NULL)
        return;
    cn_score_set(c, NULL, 0);
    free(c->tables);
    free(c->results);
    free(c);
}

int cn_run(cn *c)
{
    token_load(c);
    /* The suit symbols need the user's (UTF-8) locale. */
    setlocale(LC_ALL, "");
    if (play_screen_check("barbu connect") != 0)
        return 1;
    install_signals();
    /* A password is asked before the screen (or read from its file). */
    if ((c->password_file[0] || c->want_register || (c->ask_password && !c->token[0]))) {
        int rc = cn_password_before(c);
        if (rc != 0)
            return rc;
    }
    if (play_screen_open("barbu connect") != 0)
        return 1;
    c->screen_on = true;
    cn_note(c, "barbu connect %s: %s as %s%s.", BARBU_VERSION, c->url, c->name,
            c->token[0] ? " (resuming the saved session)" : "");
    if (c->tls && c->self_signed)
        cn_note(c, "--self-signed: the server's certificate is not checked, so anyone between you "
                   "and the server could read and change what you send.");
    c->dirty = true;
    int status = 0;
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
    c->screen_on = false;
    cn_password_wipe(c->password, sizeof c->password);
    if (interrupted)
        status = 128 + interrupted;
    if (fatal) {
        fprintf(stderr, "barbu connect: %s\n", why);
        status = 1;
    } else if (c->signed_out) {
        printf("barbu connect: %s; the saved token is deleted.\n", why);
    } else if (at_table) {
        printf("Your seat at table %lld is kept: 'barbu connect' with the same name takes it "
               "back.\n",
               table);
    }
    return status;
}
