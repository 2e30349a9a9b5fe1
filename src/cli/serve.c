/*
 * serve.c - barbu serve: its options, where its database and web files
 * live, and the score sheet text it gives the server.  The server itself
 * is src/server.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "server.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: barbu serve [--listen HOST:PORT] [--db PATH] [--web DIR]\n"
            "                   [--bot-threads N] [--max-tables N] [--quiet]\n\n"
            "Hosts barbu tables for players on the network: a lobby, tables of every rule\n"
            "set with computer players, kibitzers, chat, reconnection, game records and\n"
            "score sheets.  Clients (barbu connect, the browser client) speak the barbu\n"
            "protocol (docs/protocol.md): JSON over the WebSocket at ws://HOST:PORT/ws.\n"
            "Every accepted action is stored before anyone hears of it, so a server that\n"
            "is stopped or killed and started again on the same database carries on every\n"
            "game where it was.\n\n"
            "  --listen HOST:PORT  where to accept connections (default 127.0.0.1:2118,\n"
            "                      this machine only); 0.0.0.0:2118 serves other machines;\n"
            "                      port 0 takes any free port.  The server prints\n"
            "                      'barbu serve: listening on ws://HOST:PORT/ws' once ready\n"
            "  --db PATH           the SQLite database of sessions, tables and actions\n"
            "                      (default $XDG_DATA_HOME/barbu/server.db, or\n"
            "                      ~/.local/share/barbu/server.db; the directory is made).\n"
            "                      A new database is made readable by its owner only\n"
            "                      (0600); one database serves one server at a time, and\n"
            "                      a second server on it is refused\n"
            "  --web DIR           the files served at http://HOST:PORT/ (default: the web\n"
            "                      directory next to the barbu program, else a built-in page)\n"
            "  --bot-threads N     threads for the computer players (default: one per core)\n"
            "  --max-tables N      tables held at once (default 5000)\n"
            "  --quiet             no log lines on stderr\n\n"
            "SIGINT or SIGTERM stops the server: every client hears bye \"shutdown\".\n"
            "Exit status: 0 after a stop, 1 when the server cannot start, 2 a usage error.\n");
}

/* mkdir -p for the directory of a default database. */
static int make_dirs(const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return -1;
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(path, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

static int default_db(char *buf, size_t cap)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    char dir[PATH_MAX];
    if (xdg && xdg[0] == '/')
        snprintf(dir, sizeof dir, "%s/barbu", xdg);
    else if (home && home[0])
        snprintf(dir, sizeof dir, "%s/.local/share/barbu", home);
    else {
        fprintf(stderr, "barbu serve: neither XDG_DATA_HOME nor HOME is set: give --db\n");
        return -1;
    }
    if (make_dirs(dir) != 0) {
        fprintf(stderr, "barbu serve: cannot make the directory %s: %s\n", dir, strerror(errno));
        return -1;
    }
    if ((size_t)snprintf(buf, cap, "%s/server.db", dir) >= cap) {
        fprintf(stderr, "barbu serve: the path %s is too long: give --db\n", dir);
        return -1;
    }
    return 0;
}

/* The web directory next to the program (CMake copies web/static there). */
static bool default_web(char *buf, size_t cap)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash == NULL)
        return false;
    *slash = '\0';
    char index[PATH_MAX + 32];
    snprintf(index, sizeof index, "%s/web/index.html", exe);
    if (access(index, R_OK) != 0)
        return false;
    return (size_t)snprintf(buf, cap, "%s/web", exe) < cap;
}

/* The Fife game's sheet of these deals, as far as they go; NULL when out of
 * memory. */
static barbu_sheet *fife_sheet(const barbu_rules *rules, const barbu_result *results, int n)
{
    barbu_sheet *sheet = malloc(sizeof *sheet);
    if (sheet) {
        barbu_sheet_init(sheet, NULL);
        for (int i = 0; i < n; i++)
            if (barbu_sheet_add(sheet, rules, &results[i]) != 0)
                break;
    }
    return sheet;
}

static char *sheet_text(const barbu_rules *rules, const barbu_result *results, int n,
                        const char *const names[4])
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (out == NULL)
        return NULL;
    if (rules->game == BARBU_GAME_FIFE) {
        barbu_sheet *sheet = fife_sheet(rules, results, n);
        if (sheet)
            cli_fife_sheet_text(out, sheet, names);
        free(sheet);
    } else {
        cli_print_sheet(out, rules, results, n, names);
    }
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static char *sheet_html(const barbu_rules *rules, const barbu_result *results, int n,
                        const char *const names[4])
{
    if (rules->game != BARBU_GAME_FIFE)
        return NULL;
    barbu_sheet *sheet = fife_sheet(rules, results, n);
    char *html = NULL;
    size_t len;
    if (sheet && cli_fife_sheet_html(sheet, names, NULL, &html, &len) != 0)
        html = NULL;
    free(sheet);
    return html;
}

static int parse_count(const char *text, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (text[0] == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    barbu_serve_options opt = {
        .listen = "127.0.0.1:2118", .sheet_text = sheet_text, .sheet_html = sheet_html};
    const char *web = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            opt.quiet = true;
        } else if (strcmp(a, "--listen") == 0 && has_value) {
            opt.listen = argv[++i];
        } else if (strcmp(a, "--db") == 0 && has_value) {
            opt.db = argv[++i];
        } else if (strcmp(a, "--web") == 0 && has_value) {
            web = argv[++i];
        } else if (strcmp(a, "--bot-threads") == 0 && has_value) {
            if (parse_count(argv[++i], 1, 256, &opt.bot_threads) != 0) {
                fprintf(stderr, "barbu serve: --bot-threads takes 1 to 256, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--max-tables") == 0 && has_value) {
            if (parse_count(argv[++i], 1, 1000000, &opt.max_tables) != 0) {
                fprintf(stderr, "barbu serve: --max-tables takes a number from 1, not '%s'\n",
                        argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "barbu serve: unknown option '%s'\n\n", a);
            usage(stderr);
            return 2;
        }
    }

    char db[PATH_MAX];
    if (opt.db == NULL) {
        if (default_db(db, sizeof db) != 0)
            return 1;
        opt.db = db;
    }
    char web_dir[PATH_MAX];
    if (web) {
        struct stat st;
        if (stat(web, &st) != 0 || !S_ISDIR(st.st_mode) || realpath(web, web_dir) == NULL) {
            fprintf(stderr, "barbu serve: --web: %s is not a directory\n", web);
            return 1;
        }
        opt.web_dir = web_dir;
    } else if (default_web(web_dir, sizeof web_dir)) {
        opt.web_dir = web_dir;
    }
    return barbu_serve(&opt);
}
