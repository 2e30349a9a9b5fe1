/*
 * connect.c - barbu connect: join a barbu server from the terminal.
 *
 * This file reads the options (the server, the name, the token file) and
 * runs the client of src/connect until the user quits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "connect.h"

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
            "                      a fresh one; a seed you choose is told to everyone and\n"
            "                      marks you as knowing every deal), your seat, computer\n"
            "                      players in the empty seats and their level (easy,\n"
            "                      medium - the default -, hard or random; also that of\n"
            "                      any computer player seated later), who may kibitz, the\n"
            "                      computer players' delay, the grace period of a lost\n"
            "                      player, what then happens, whether people at a\n"
            "                      player's address may watch the hands (a household),\n"
            "                      whether kibitzers may talk to the players during the\n"
            "                      game, and a house rules file.  A * by a table's number:\n"
            "                      its creator chose the seed\n"
            "  r                   refresh the list (and reconnect when stopped)\n"
            "  /                   chat in the lobby (Enter sends, Esc cancels)\n"
            "  q                   quit\n"
            "\n"
            "At a table, the screen of 'barbu play' with its keys (? lists them: the\n"
            "cards, the contract menu, doubling with m max and f family, the Fife Calls,\n"
            "Patience groups, cuts and Pass-ons, Chinese Poker rows), and:\n"
            "  /                   chat at the table (a kibitzer's line during the game\n"
            "                      reaches the kibitzers only unless the table allows\n"
            "                      more; such lines show as [kibitzers])\n"
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
    if ((name != NULL && strlen(name) > PROTO_NAME_BYTES) || !proto_name_ok(c->name))
        return bad_usage("the name '%s' is not allowed: 1-20 letters, digits, _ - . and single "
                         "spaces inside",
                         name ? name : c->name);
    if (token_file != NULL) {
        if (token_file[0] == '\0')
            return bad_usage("--token-file needs a file name%s", "");
        snprintf(c->token_path, sizeof c->token_path, "%s", token_file);
    } else if (cn_token_default_path(c) != 0) {
        return bad_usage("neither XDG_STATE_HOME nor HOME is set: name a token file with "
                         "--token-file%s",
                         "");
    }
    return -1;
}

/* ------------------------------------------------------------------ main */

int cmd_connect(int argc, char **argv)
{
    cn *c = cn_new();
    if (c == NULL) {
        fprintf(stderr, "barbu connect: out of memory\n");
        return 1;
    }
    int status = parse_options(argc, argv, c);
    if (status < 0)
        status = cn_run(c);
    cn_free(c);
    return status;
}
