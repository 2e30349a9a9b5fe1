/*
 * serve.c - barbu serve: its options, where its database and web files
 * live, and the score sheet text it gives the server.  The server itself
 * is src/server.
 */
#include <ctype.h>
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
            "                   [--allow-origin URL]... [--bot-threads N] [--max-tables N]\n"
            "                   [--max-bot-tables N] [--quiet]\n"
            "                   [--max-conns N] [--max-conns-per-address N]\n"
            "                   [--hello-timeout SECONDS] [--queue-limit BYTES]\n"
            "                   [--queue-budget BYTES] [--sessions-per-address N]\n"
            "                   [--tables-per-address N] [--waiting-table-idle SECONDS]\n"
            "                   [--create-interval SECONDS] [--seat-keep SECONDS]\n"
            "                   [--token-days DAYS] [--admin HANDLE]...\n"
            "                   [--ladder-min-games N] [--analyses N] [--analyses-queued N]\n"
            "                   [--tls-cert FILE --tls-key FILE]\n"
            "                   [--node NAME [--public-url URL] [--lease SECONDS]]\n\n"
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
            "                      (wss:// with --tls-cert)\n"
            "  --db PATH           the SQLite database of sessions, tables and actions\n"
            "                      (default $XDG_DATA_HOME/barbu/server.db, or\n"
            "                      ~/.local/share/barbu/server.db; the directory is made).\n"
            "                      A new database is made readable by its owner only\n"
            "                      (0600); one database serves one server at a time, and\n"
            "                      a second server on it is refused.  A URL\n"
            "                      postgresql://USER@HOST/DBNAME (or postgres://...) names a\n"
            "                      PostgreSQL database instead, whose schema the server makes\n"
            "                      and migrates itself; alone (without --node) the server\n"
            "                      owns every table there as it does a SQLite file\n"
            "  --node NAME         run as one node of several on the PostgreSQL database of\n"
            "                      --db (docs/deploy.md): each table is played on one node\n"
            "                      at a time through a lease in the database; a node starts\n"
            "                      with no table, adopts the tables whose lease ran out (a\n"
            "                      node that stopped or died), sends a client that asks for\n"
            "                      a table of another node there ('moved'), and shows every\n"
            "                      node's tables in its lobby.  NAME is 1 to 40 letters,\n"
            "                      digits, '-', '_' or '.', different for each node\n"
            "  --public-url URL    where clients reach this node's WebSocket, given to clients\n"
            "                      that another node sends here (default\n"
            "                      ws://LISTEN-ADDRESS:PORT/ws, wss:// with --tls-cert);\n"
            "                      pages of every node's origin may open the WebSocket\n"
            "  --lease SECONDS     how long a node's hold on a table lasts without being\n"
            "                      renewed (default 5; fractions such as 1.5 allowed, at\n"
            "                      least 0.3); renewed every third of it.  A node killed or\n"
            "                      cut off loses its tables to the other nodes this long\n"
            "                      after its last renewal\n"
            "  --web DIR           the files served at http://HOST:PORT/ (default: the web\n"
            "                      directory next to the barbu program, else a built-in page);\n"
            "                      only files whose real path lies inside DIR are served\n"
            "  --allow-origin URL  let web pages of this origin (https://club.example) open\n"
            "                      the WebSocket too; repeatable.  Pages of the server's own\n"
            "                      origin and programs (which send no Origin) always may;\n"
            "                      pages of other sites are refused with 403\n"
            "  --bot-threads N     threads for the computer players (default: one per core,\n"
            "                      at least 2); the first thinks only for tables where people\n"
            "                      sit, so that tables of computer players only never hold\n"
            "                      up a person's game\n"
            "  --max-tables N      tables held at once (default 5000)\n"
            "  --max-bot-tables N  tables of computer players only whose games are not over\n"
            "                      (default 16; 0 allows none); one session may create one\n"
            "  --quiet             no log lines on stderr\n"
            "  --tls-cert FILE     serve https:// and wss:// (TLS) on the port instead of\n"
            "  --tls-key FILE      http:// and ws://: the certificate (PEM, its chain after\n"
            "                      it) and its private key (PEM, without a passphrase).\n"
            "                      Both or neither; they are read and matched before the\n"
            "                      server starts, and a file that cannot be read or a key\n"
            "                      of another certificate stops it with the reason.  The\n"
            "                      startup lines then say wss:// and https://.  A test\n"
            "                      certificate for this machine:\n"
            "                        openssl req -x509 -newkey ec -pkeyopt \\\n"
            "                          ec_paramgen_curve:P-256 -nodes -days 30 \\\n"
            "                          -subj /CN=localhost -addext \\\n"
            "                          subjectAltName=DNS:localhost,IP:127.0.0.1 \\\n"
            "                          -keyout key.pem -out cert.pem\n"
            "                      (barbu connect --ca cert.pem wss://localhost:2118)\n\n"
            "  --admin HANDLE      make HANDLE an administrator (repeatable): kept in the\n"
            "                      database, it applies once HANDLE is registered and signed\n"
            "                      in (sign up as HANDLE with a password).  Administrators\n"
            "                      close tables, remove players, ban and unban handles and\n"
            "                      read the players' reports (docs/protocol.md, Moderation)\n"
            "  --ladder-min-games N\n"
            "                      games a player needs in a month or a year to be ranked\n"
            "                      in that period's ladder at /club/ (default 3; 1 to 1000);\n"
            "                      players with fewer are listed unranked (docs/club.md)\n"
            "  --analyses N        threads that analyse finished games for the club's hand\n"
            "                      viewer (default 1; 0 turns analysis off: asking for one\n"
            "                      is refused).  They run at a lower priority than the\n"
            "                      computer players of the tables, which they never slow\n"
            "  --analyses-queued N analyses waiting for a thread at most (default 16); past\n"
            "                      them a request is refused (503) until one is done\n\n"
            "What one machine may take (docs/protocol.md, Limits).  An address is an IPv4\n"
            "address or an IPv6 /64:\n"
            "  --max-conns N       WebSocket connections at once (default 20000, and at most\n"
            "                      half the descriptors: the soft limit is raised to the hard)\n"
            "  --max-conns-per-address N\n"
            "                      connections from one address (default 100)\n"
            "  --hello-timeout SECONDS\n"
            "                      a connection that has not said hello by then is closed\n"
            "                      (default 10)\n"
            "  --queue-limit BYTES bytes waiting for one client that does not read, besides\n"
            "                      its largest message (default 262144); past it the client\n"
            "                      is cut\n"
            "  --queue-budget BYTES\n"
            "                      bytes waiting for all clients together (default 134217728);\n"
            "                      past it the clients with the most waiting are cut first\n"
            "  --sessions-per-address N\n"
            "                      sessions one address has started that the server holds\n"
            "                      (default 100)\n"
            "  --tables-per-address N\n"
            "                      unfinished tables created from one address (default 20)\n"
            "  --waiting-table-idle SECONDS\n"
            "                      a table waiting for players with nobody at it is closed\n"
            "                      after this (default 120)\n"
            "  --create-interval SECONDS\n"
            "                      past half the tables, one address creates a table at most\n"
            "                      this often, scaled by how full the server is: 1 second at\n"
            "                      half full, SECONDS when full (default 120; 0: never slowed)\n"
            "  --seat-keep SECONDS\n"
            "                      a new game started with again keeps the last game's\n"
            "                      players' seats for them this long (default 120)\n"
            "  --token-days DAYS   a registered player's sign-in (its token) works this\n"
            "                      long, then the password is asked again (default 30; a\n"
            "                      fraction such as 0.0001, about 9 seconds, for tests)\n\n"
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

/* The limits' flags, each a whole number: whether a is one of them (with
 * *bad set when its value is refused, after saying so). */
static bool count_flag(const char *a, const char *value, barbu_serve_options *o, bool *bad)
{
    static const struct {
        const char *flag;
        int lo, hi;
    } FLAGS[] = {
        {"--max-conns", 1, 10000000},          {"--max-conns-per-address", 1, 10000000},
        {"--hello-timeout", 1, 3600},          {"--queue-limit", 1024, INT_MAX},
        {"--queue-budget", 1024, INT_MAX},     {"--sessions-per-address", 1, 10000000},
        {"--tables-per-address", 1, 10000000}, {"--waiting-table-idle", 1, 86400},
        {"--create-interval", 0, 86400},       {"--seat-keep", 1, 3600},
    };
    int k = 0, n = (int)(sizeof FLAGS / sizeof FLAGS[0]);
    while (k < n && strcmp(a, FLAGS[k].flag) != 0)
        k++;
    if (k == n)
        return false;
    int v;
    *bad = parse_count(value, FLAGS[k].lo, FLAGS[k].hi, &v) != 0;
    if (*bad) {
        fprintf(stderr, "barbu serve: %s takes a number from %d to %d, not '%s'\n", a, FLAGS[k].lo,
                FLAGS[k].hi, value);
        return true;
    }
    switch (k) {
    case 0:
        o->max_conns = v;
        break;
    case 1:
        o->max_conns_per_address = v;
        break;
    case 2:
        o->hello_timeout = v;
        break;
    case 3:
        o->queue_limit = v;
        break;
    case 4:
        o->queue_budget = v;
        break;
    case 5:
        o->sessions_per_address = v;
        break;
    case 6:
        o->tables_per_address = v;
        break;
    case 7:
        o->waiting_idle = v;
        break;
    case 8:
        o->create_interval = v > 0 ? v : -1;
        break;
    default:
        o->seat_keep = v;
        break;
    }
    return true;
}

/* A node's name: short, and plain enough for a log line and a URL path. */
static bool node_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 40)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr("-_.", name[i]))
            return false;
    return true;
}

int cmd_serve(int argc, char **argv)
{
    barbu_serve_options opt = {.listen = "127.0.0.1:2118",
                               .sheet_text = sheet_text,
                               .sheet_html = sheet_html,
                               .ladder_min_games = 3};
    const char *web = NULL;
    enum { MAX_ORIGINS = 32, MAX_ADMINS = 64 };
    const char *origins[MAX_ORIGINS];
    const char *admins[MAX_ADMINS];
    bool bad = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            opt.quiet = true;
        } else if (strcmp(a, "--token-days") == 0 && has_value) {
            const char *v = argv[++i];
            char *end;
            errno = 0;
            double days = strtod(v, &end);
            if (v[0] == '\0' || *end != '\0' || errno != 0 || !(days > 0) || days > 3650) {
                fprintf(stderr,
                        "barbu serve: --token-days takes a number of days above 0 and at most "
                        "3650, not '%s'\n",
                        v);
                return 2;
            }
            opt.token_days = days;
        } else if (strcmp(a, "--listen") == 0 && has_value) {
            opt.listen = argv[++i];
        } else if (strcmp(a, "--db") == 0 && has_value) {
            opt.db = argv[++i];
        } else if (strcmp(a, "--web") == 0 && has_value) {
            web = argv[++i];
        } else if (strcmp(a, "--allow-origin") == 0 && has_value) {
            const char *o = argv[++i];
            if (!barbu_serve_origin_ok(o)) {
                fprintf(stderr,
                        "barbu serve: --allow-origin takes http://HOST[:PORT] or "
                        "https://HOST[:PORT], not '%s'\n",
                        o);
                return 2;
            }
            if (opt.n_allow_origins == MAX_ORIGINS) {
                fprintf(stderr, "barbu serve: at most %d --allow-origin\n", MAX_ORIGINS);
                return 2;
            }
            origins[opt.n_allow_origins++] = o;
            opt.allow_origins = origins;
        } else if (strcmp(a, "--admin") == 0 && has_value) {
            if (opt.n_admins == MAX_ADMINS) {
                fprintf(stderr, "barbu serve: at most %d --admin\n", MAX_ADMINS);
                return 2;
            }
            admins[opt.n_admins++] = argv[++i];
            opt.admins = admins;
        } else if (strcmp(a, "--ladder-min-games") == 0 && has_value) {
            if (parse_count(argv[++i], 1, 1000, &opt.ladder_min_games) != 0) {
                fprintf(stderr, "barbu serve: --ladder-min-games takes 1 to 1000, not '%s'\n",
                        argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--analyses") == 0 && has_value) {
            if (parse_count(argv[++i], 0, 64, &opt.analyses) != 0) {
                fprintf(stderr, "barbu serve: --analyses takes 0 to 64, not '%s'\n", argv[i]);
                return 2;
            }
            if (opt.analyses == 0)
                opt.analyses = -1; /* none: 0 is the default to the server */
        } else if (strcmp(a, "--analyses-queued") == 0 && has_value) {
            if (parse_count(argv[++i], 0, 10000, &opt.analyses_queued) != 0) {
                fprintf(stderr, "barbu serve: --analyses-queued takes 0 to 10000, not '%s'\n",
                        argv[i]);
                return 2;
            }
            if (opt.analyses_queued == 0)
                opt.analyses_queued = -1;
        } else if (strcmp(a, "--bot-threads") == 0 && has_value) {
            if (parse_count(argv[++i], 1, 256, &opt.bot_threads) != 0) {
                fprintf(stderr, "barbu serve: --bot-threads takes 1 to 256, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--max-bot-tables") == 0 && has_value) {
            if (parse_count(argv[++i], 0, 1000000, &opt.max_bot_tables) != 0) {
                fprintf(stderr, "barbu serve: --max-bot-tables takes a number from 0, not '%s'\n",
                        argv[i]);
                return 2;
            }
            if (opt.max_bot_tables == 0)
                opt.max_bot_tables = -1; /* none: 0 is the default to the server */
        } else if (strcmp(a, "--max-tables") == 0 && has_value) {
            if (parse_count(argv[++i], 1, 1000000, &opt.max_tables) != 0) {
                fprintf(stderr, "barbu serve: --max-tables takes a number from 1, not '%s'\n",
                        argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--node") == 0 && has_value) {
            opt.node = argv[++i];
            if (!node_name_ok(opt.node)) {
                fprintf(stderr,
                        "barbu serve: --node takes 1 to 40 letters, digits, '-', '_' or '.', "
                        "not '%s'\n",
                        opt.node);
                return 2;
            }
        } else if (strcmp(a, "--public-url") == 0 && has_value) {
            opt.public_url = argv[++i];
            if (strncmp(opt.public_url, "ws://", 5) != 0 &&
                strncmp(opt.public_url, "wss://", 6) != 0) {
                fprintf(stderr,
                        "barbu serve: --public-url takes ws://HOST:PORT/PATH or "
                        "wss://HOST/PATH, not '%s'\n",
                        opt.public_url);
                return 2;
            }
        } else if (strcmp(a, "--lease") == 0 && has_value) {
            const char *v = argv[++i];
            char *end;
            errno = 0;
            double secs = strtod(v, &end);
            if (v[0] == '\0' || *end != '\0' || errno != 0 || !(secs >= 0.3) || secs > 3600) {
                fprintf(stderr,
                        "barbu serve: --lease takes seconds from 0.3 to 3600 (1.5 is fine), "
                        "not '%s'\n",
                        v);
                return 2;
            }
            opt.lease_ms = (int)(secs * 1000 + 0.5);
        } else if (strcmp(a, "--tls-cert") == 0 && has_value) {
            opt.tls_cert = argv[++i];
        } else if (strcmp(a, "--tls-key") == 0 && has_value) {
            opt.tls_key = argv[++i];
        } else if (has_value && count_flag(a, argv[i + 1], &opt, &bad)) {
            i++;
            if (bad)
                return 2;
        } else {
            fprintf(stderr, "barbu serve: unknown option '%s'\n\n", a);
            usage(stderr);
            return 2;
        }
    }

    if ((opt.tls_cert == NULL) != (opt.tls_key == NULL)) {
        fprintf(stderr, "barbu serve: %s needs %s too (the certificate and its key)\n",
                opt.tls_cert ? "--tls-cert" : "--tls-key",
                opt.tls_cert ? "--tls-key" : "--tls-cert");
        return 2;
    }
    if (opt.node && !(opt.db && (strncmp(opt.db, "postgresql://", 13) == 0 ||
                                 strncmp(opt.db, "postgres://", 11) == 0))) {
        fprintf(stderr, "barbu serve: --node needs a PostgreSQL database: give --db "
                        "postgresql://USER@HOST/DBNAME (the nodes share it; a SQLite file "
                        "serves one server)\n");
        return 2;
    }
    if (!opt.node && (opt.public_url || opt.lease_ms)) {
        fprintf(stderr, "barbu serve: %s is a node's setting: give --node NAME too\n",
                opt.public_url ? "--public-url" : "--lease");
        return 2;
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
