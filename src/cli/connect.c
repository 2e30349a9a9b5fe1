/*
 * connect.c - barbu connect: join a barbu server from the terminal.
 *
 * This file reads the options (the server, the name, the token file) and
 * runs the client of src/connect until the user quits.
 */
#include <errno.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "connect.h"

/* --------------------------------------------------------------- options */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: barbu connect [ws://HOST:PORT | wss://HOST:PORT] [--name NAME]\n"
            "                     [--token-file PATH] [--ca FILE | --self-signed]\n"
            "                     [--password | --password-file FILE] [--register]\n"
            "\n"
            "Join a barbu server (barbu serve) from the terminal: see its tables, create\n"
            "one, sit down and play, kibitz, chat.  The server is %s by\n"
            "default; HOST:PORT alone works too, and wss:// for a server that speaks TLS\n"
            "(barbu serve --tls-cert, or behind a proxy that does).\n"
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
            "  --password         the name is registered: ask its password (on the terminal,\n"
            "                     not shown) before the screen opens.  Without it the\n"
            "                     question comes when the server says the name is\n"
            "                     registered; a saved session's token needs none\n"
            "  --password-file FILE\n"
            "                     the password is the first line of FILE (for scripts; keep\n"
            "                     the file to yourself); a wrong one stops the client\n"
            "  --register         register the name with a password (asked twice, or\n"
            "                     --password-file's), then play as it: nobody else may use\n"
            "                     it, in any letter case or with look-alike letters.  A\n"
            "                     saved guest session keeps its seat and registers\n"
            "  --ca FILE          wss://: trust this certificate (PEM) too, besides the\n"
            "                     system's authorities: a server's own self-signed one, or\n"
            "                     a private authority's.  The server's certificate must\n"
            "                     still name HOST\n"
            "  --self-signed      wss://: accept whatever certificate the server shows,\n"
            "                     for a test server.  The traffic is encrypted but nothing\n"
            "                     proves who is at the other end, and the screen says so\n"
            "                     ('certificate NOT checked')\n"
            "  -h, --help         this text\n"
            "\n"
            "The connection is tried again by itself when it drops (after 1, 2, 4 ... up\n"
            "to 30 seconds); the screen says how it stands.  Over wss:// the server's\n"
            "certificate is checked against the system's authorities (Debian's\n"
            "ca-certificates) and must name HOST; a certificate that fails is not tried\n"
            "again: the screen says why, and the exit status is 1.\n"
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
            "  /                   chat in the lobby (Enter sends, Esc cancels); a line that\n"
            "                      starts with / is a command (below)\n"
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
            "  ?                   at a table with hints, at your turn: the computer's\n"
            "                      choice (medium), in the message line; ? again shows\n"
            "                      the keys\n"
            "  q                   quit, after a question: your seat is kept for you\n"
            "                      while the game is on\n"
            "\n"
            "Commands, typed at the chat line (/ then the command, so //logout):\n"
            "  /logout             sign out here: the saved token is deleted and the\n"
            "                      client ends (a seat is left as by leaving)\n"
            "  /logout all         sign out everywhere: every device of a registered name\n"
            "  /register           as a guest: register this name with a password (keeps\n"
            "                      the seat)\n"
            "  /password           change the password (asked: the old, the new twice);\n"
            "                      the other devices are signed out\n"
            "  /report table [ID] WHY   tell the administrators about a table (the one\n"
            "                      you are at without ID)\n"
            "  /report NAME WHY    ... or about a player; a NAME with spaces in \"quotes\"\n"
            "  /help               these commands\n"
            "For administrators (barbu serve --admin NAME, signed in):\n"
            "  /close ID WHY       close a table      /remove ID SEAT WHY  take a player\n"
            "                                          out of a seat (N, E, S or W)\n"
            "  /ban NAME WHY       ban a handle       /unban NAME\n"
            "  /modlog             the last reports and acts, in the chat log; a new report\n"
            "                      shows there as it comes\n"
            "Seats show a guest (no registered name) as \"NAME (guest)\".  The create form's\n"
            "Ladder makes a table for registered players only (no seed, no computer\n"
            "players).  A table whose deals come from a secret key shows its commitment\n"
            "(the key's hash) from the start and the key once the game is over: save the\n"
            "record and check it with 'barbu verify'.\n"
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

/* The server's address (nodes.c reads it): the first node known. */
static int parse_url(cn *c, const char *url)
{
    cn_addr a;
    if (cn_addr_parse(url, &a) != 0)
        return -1;
    cn_known_use(c, cn_known_add(c, &a));
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

/* --ca: a certificate in PEM that can be read, kept as a path for lws. */
static int check_ca(cn *c, const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "barbu connect: --ca: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    X509 *cert = PEM_read_X509(f, NULL, NULL, NULL);
    fclose(f);
    if (cert == NULL) {
        fprintf(stderr,
                "barbu connect: --ca: %s holds no certificate in PEM form "
                "(-----BEGIN CERTIFICATE-----)\n",
                path);
        return -1;
    }
    X509_free(cert);
    if (strlen(path) >= sizeof c->ca_file) {
        fprintf(stderr, "barbu connect: --ca: the path is too long\n");
        return -1;
    }
    snprintf(c->ca_file, sizeof c->ca_file, "%s", path);
    return 0;
}

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, cn *c)
{
    const char *url = NULL, *name = NULL, *token_file = NULL, *ca = NULL, *password_file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(arg, "--self-signed") == 0) {
            c->self_signed = true;
            continue;
        }
        if (strcmp(arg, "--register") == 0) {
            c->want_register = true;
            continue;
        }
        if (strcmp(arg, "--password") == 0) {
            c->ask_password = true;
            continue;
        }
        const char **slot = NULL;
        const char *opt = NULL;
        if (strncmp(arg, "--name", 6) == 0 && (arg[6] == '\0' || arg[6] == '=')) {
            slot = &name;
            opt = "--name";
        } else if (strncmp(arg, "--token-file", 12) == 0 && (arg[12] == '\0' || arg[12] == '=')) {
            slot = &token_file;
            opt = "--token-file";
        } else if (strncmp(arg, "--password-file", 15) == 0 &&
                   (arg[15] == '\0' || arg[15] == '=')) {
            slot = &password_file;
            opt = "--password-file";
        } else if (strncmp(arg, "--ca", 4) == 0 && (arg[4] == '\0' || arg[4] == '=')) {
            slot = &ca;
            opt = "--ca";
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
    if ((ca != NULL || c->self_signed) && !c->tls)
        return bad_usage("%s is for a wss:// server", ca ? "--ca" : "--self-signed");
    if (ca != NULL && c->self_signed)
        return bad_usage("--ca or --self-signed, not both%s", "");
    if (ca != NULL && check_ca(c, ca) != 0)
        return 2;
    if (password_file != NULL && c->ask_password)
        return bad_usage("--password or --password-file, not both%s", "");
    if (password_file != NULL) {
        if (password_file[0] == '\0' || strlen(password_file) >= sizeof c->password_file)
            return bad_usage("--password-file needs a file name%s", "");
        snprintf(c->password_file, sizeof c->password_file, "%s", password_file);
    }
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
