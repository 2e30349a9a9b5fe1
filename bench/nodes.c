/*
 * nodes.c - how long a dead node's tables stand still: the time from a
 * node's SIGKILL to its last table playing again on another node.
 *
 * For each number of tables T and each run, on a fresh database of the
 * PostgreSQL cluster whose admin URL it is given: starts three nodes
 * (`barbu serve --node a|b|c` on free ports, each its own --public-url, the
 * lease given), and T clients on node a, each creating a table of four
 * computer players (easy, the delay given) and staying connected, as the
 * creator of a table does.  Once every table has actions in the database
 * and a few seconds have passed, node a is killed (SIGKILL: no lease is
 * released), and the database says the rest: its tables' rows name their
 * owner, and their actions grow again once another node has adopted them
 * and its computer players move.  For each table, the time from the kill
 * to its lease being taken by another node (owner no longer a) and to its
 * first action past the last one a wrote.  The last table's is the answer;
 * it cannot be under the lease (which a killed node's tables must wait out)
 * and includes the computer player's delay after the adoption.
 *
 * The database is read, not the clients: a's clients only lose their
 * connection (following them to another node is the clients' part, tested
 * by the e2e and browser tests).
 *
 * usage: bench_nodes BARBU ADMIN_URL [--tables LIST] [--runs N] [--lease S]
 *                    [--delay MS]
 *   ADMIN_URL       postgresql://...?host=... of the cluster's postgres
 *                   database: each run makes its own database beside it
 *   --tables LIST   10,100,500
 *   --runs N        3; the median of the runs' last tables is reported
 *   --lease S       the nodes' --lease, in seconds (5, the server's default)
 *   --delay MS      the computer players' delay (5000)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wsc.h"

enum { NODES = 3, MAX_RUNS = 15 };

static struct {
    const char *barbu, *admin;
    int tables[16], n_tables;
    int runs;
    const char *lease;
    int delay;
} opt = {.tables = {10, 100, 500}, .n_tables = 3, .runs = 3, .lease = "5", .delay = 5000};

enum { C_CONNECTING, C_HELLO, C_CREATE, C_CREATED, C_DEAD };

typedef struct client {
    wsc *ws;
    int state;
    int index;
} client;

static pid_t node_pid[NODES];
static int node_port[NODES];
static char dir[64];
static bool finished; /* the folder of the nodes' logs is kept otherwise */

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static double load1(void)
{
    double l = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = 0;
        fclose(f);
    }
    return l;
}

static void stop_nodes(void)
{
    for (int k = 0; k < NODES; k++) {
        if (node_pid[k] > 0) {
            kill(node_pid[k], SIGTERM);
            long t0 = now_ms();
            while (waitpid(node_pid[k], NULL, WNOHANG) == 0) {
                if (now_ms() - t0 > 10000) {
                    kill(node_pid[k], SIGKILL);
                    waitpid(node_pid[k], NULL, 0);
                    break;
                }
                sleep_ms(20);
            }
            node_pid[k] = 0;
        }
    }
}

static void cleanup(void)
{
    stop_nodes();
    if (dir[0] && finished) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "nodes: could not remove %s\n", dir);
    }
}

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
        perror("nodes: a free port");
        exit(1);
    }
    close(fd);
    return ntohs(sa.sin_port);
}

/* Starts node k of the database at url and waits until it listens. */
static void start_node(int k, const char *url)
{
    char listen[32], name[4], pub[64], out[128], err[128];
    node_port[k] = free_port();
    snprintf(listen, sizeof listen, "127.0.0.1:%d", node_port[k]);
    snprintf(name, sizeof name, "%c", 'a' + k);
    snprintf(pub, sizeof pub, "ws://127.0.0.1:%d/ws", node_port[k]);
    snprintf(out, sizeof out, "%s/%s.out", dir, name);
    snprintf(err, sizeof err, "%s/%s.err", dir, name);
    pid_t pid = fork();
    if (pid == 0) {
        int o = open(out, O_WRONLY | O_CREAT | O_APPEND, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_APPEND, 0644);
        dup2(o, 1);
        dup2(e, 2);
        /* Every client comes from 127.0.0.1, and every table is of
         * computer players only: the limits on both are lifted. */
        execl(opt.barbu, opt.barbu, "serve", "--listen", listen, "--db", url, "--node", name,
              "--public-url", pub, "--lease", opt.lease, "--quiet", "--max-conns-per-address",
              "1000000", "--sessions-per-address", "1000000", "--tables-per-address", "1000000",
              "--create-interval", "0", "--max-bot-tables", "1000000", (char *)NULL);
        _exit(127);
    }
    node_pid[k] = pid;
    for (long t0 = now_ms(); now_ms() - t0 < 30000; sleep_ms(50)) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in sa = {0};
        sa.sin_family = AF_INET;
        sa.sin_port = htons((uint16_t)node_port[k]);
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        int ok = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
        close(fd);
        if (ok)
            return;
        if (waitpid(pid, NULL, WNOHANG) == pid) {
            node_pid[k] = 0;
            fprintf(stderr, "nodes: node %s exited; see %s\n", name, err);
            exit(1);
        }
    }
    fprintf(stderr, "nodes: node %s did not listen within 30 s; see %s\n", name, err);
    exit(1);
}

static PGresult *query(PGconn *db, const char *sql, int n, const char *const *params)
{
    PGresult *r = PQexecParams(db, sql, n, NULL, params, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
        fprintf(stderr, "nodes: %s: %s", sql, PQerrorMessage(db));
        exit(1);
    }
    return r;
}

static long count(PGconn *db, const char *sql)
{
    PGresult *r = query(db, sql, 0, NULL);
    long n = atol(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

static void send_json(client *c, json_t *m)
{
    char *text = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    if (wsc_send_text(c->ws, text, strlen(text)) < 0)
        c->state = C_DEAD;
    free(text);
}

static long errors, lost;

static void service(client *c, short revents)
{
    int rc = wsc_service(c->ws, revents);
    wsc_msg m;
    while (wsc_next(c->ws, &m)) {
        json_t *j = json_loadb(m.data, m.len, 0, NULL);
        const char *type = json_string_value(json_object_get(j, "type"));
        if (type && strcmp(type, "welcome") == 0 && c->state == C_HELLO) {
            send_json(c, json_pack("{s:s, s:s, s:[s,s,s,s], s:s, s:i}", "type", "create", "rules",
                                   "uk", "bots", "N", "E", "S", "W", "level", "easy", "delay",
                                   opt.delay));
            c->state = C_CREATE;
        } else if (type && strcmp(type, "created") == 0) {
            c->state = C_CREATED;
        } else if (type && strcmp(type, "error") == 0 && errors++ < 5) {
            fprintf(stderr, "nodes: error: %.*s\n", (int)m.len, m.data);
        }
        json_decref(j);
        free(m.data);
    }
    if (c->state == C_CONNECTING && wsc_state(c->ws) == WSC_OPEN) {
        /* A name of its own: the server refuses a name in use. */
        char name[24];
        snprintf(name, sizeof name, "nodes%d", c->index);
        send_json(c, json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "name", name));
        c->state = C_HELLO;
    }
    if (rc < 0 && c->state != C_DEAD) {
        if (lost++ < 3)
            fprintf(stderr, "nodes: client %d lost its connection: %s\n", c->index,
                    wsc_error(c->ws));
        c->state = C_DEAD;
    }
}

/* One turn over every client's socket. */
static void pump(client *cs, int n, int timeout_ms)
{
    struct pollfd *fds = calloc((size_t)n, sizeof *fds);
    for (int i = 0; i < n; i++) {
        fds[i].fd = cs[i].state == C_DEAD ? -1 : wsc_fd(cs[i].ws);
        fds[i].events = cs[i].state == C_DEAD ? 0 : wsc_events(cs[i].ws);
    }
    poll(fds, (nfds_t)n, timeout_ms);
    for (int i = 0; i < n; i++)
        if (fds[i].fd >= 0 && cs[i].state != C_DEAD)
            service(&cs[i], fds[i].revents);
    free(fds);
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

typedef struct result {
    long adopted_median, adopted_last, played_median, played_last;
    int missing; /* tables that did not play again before the deadline */
    double load;
} result;

/* One run with t tables: returns its times (ms from the kill). */
static result run_once(PGconn *admin, int t, int run)
{
    result res = {0};
    char name[64], sql[160];
    snprintf(name, sizeof name, "nodes_%d_%d", t, run);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", name);
    PQclear(query(admin, sql, 0, NULL));
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    PQclear(query(admin, sql, 0, NULL));
    /* The run's URL: the admin URL with its database replaced. */
    char url[512];
    const char *slash = strstr(opt.admin, "@/");
    const char *q = strchr(opt.admin, '?');
    if (slash == NULL || q == NULL) {
        fprintf(stderr, "nodes: the admin URL must look like postgresql://USER@/DB?host=...\n");
        exit(2);
    }
    snprintf(url, sizeof url, "%.*s%s%s", (int)(slash + 2 - opt.admin), opt.admin, name, q);
    PGconn *db = PQconnectdb(url);
    if (PQstatus(db) != CONNECTION_OK) {
        fprintf(stderr, "nodes: %s", PQerrorMessage(db));
        exit(1);
    }

    for (int k = 0; k < NODES; k++)
        start_node(k, url);
    client *cs = calloc((size_t)t, sizeof *cs);
    for (int i = 0; i < t; i++) {
        char err[200];
        cs[i].index = i;
        cs[i].ws = wsc_open("127.0.0.1", node_port[0], "/ws", err, sizeof err);
        if (cs[i].ws == NULL) {
            fprintf(stderr, "nodes: connect: %s\n", err);
            exit(1);
        }
        /* Ten tables at a time, each batch made before the next: a
         * burst of creations is a burst of commits on the node's loop,
         * which would hold its lease renewals back (see docs/internals.md,
         * "Measured: nodes"). */
        if (i % 10 == 9 || i == t - 1)
            for (long t0 = now_ms(); now_ms() - t0 < 60000;) {
                int pending = 0;
                for (int j = 0; j <= i; j++)
                    pending += cs[j].state < C_CREATED && cs[j].state != C_DEAD;
                if (pending == 0)
                    break;
                pump(cs, i + 1, 10);
            }
    }
    /* Until every table has played, then a few seconds more. */
    long t0 = now_ms(), playing = 0;
    while (now_ms() - t0 < 180000) {
        pump(cs, t, 50);
        playing = count(db, "SELECT count(DISTINCT table_id) FROM actions");
        if (playing >= t)
            break;
        int created = 0, dead = 0;
        for (int i = 0; i < t; i++)
            created += cs[i].state == C_CREATED, dead += cs[i].state == C_DEAD;
        if (dead > 0 || (errors > 0 && created + errors >= t)) {
            fprintf(stderr, "nodes: %d of %d tables made, %d connections lost; see %s\n", created,
                    t, dead, dir);
            exit(1);
        }
    }
    if (playing < t) {
        fprintf(stderr, "nodes: only %ld of %d tables played within 180 s; see %s\n", playing, t,
                dir);
        exit(1);
    }
    for (long t1 = now_ms(); now_ms() - t1 < 3000;)
        pump(cs, t, 50);

    res.load = load1();
    kill(node_pid[0], SIGKILL);
    long kill_ms = now_ms();
    waitpid(node_pid[0], NULL, 0);
    node_pid[0] = 0;
    for (int i = 0; i < t; i++)
        wsc_free(cs[i].ws);
    free(cs);

    /* What a wrote last, table by table: nothing more can come from it. */
    PGresult *r = query(db,
                        "SELECT t.id, COALESCE(max(a.n), -1) FROM tables t "
                        "LEFT JOIN actions a ON a.table_id = t.id "
                        "WHERE t.owner = 'a' AND t.state <> 2 GROUP BY t.id ORDER BY t.id",
                        0, NULL);
    int n = PQntuples(r);
    long *last_n = calloc((size_t)n, sizeof *last_n);
    long *adopted = calloc((size_t)n, sizeof *adopted);
    long *played = calloc((size_t)n, sizeof *played);
    size_t ids_cap = (size_t)n * 24 + 4;
    char *ids = malloc(ids_cap);
    size_t used = 0;
    ids[used++] = '{';
    for (int i = 0; i < n; i++) {
        last_n[i] = atol(PQgetvalue(r, i, 1));
        adopted[i] = played[i] = -1;
        used +=
            (size_t)snprintf(ids + used, ids_cap - used, "%s%s", i ? "," : "", PQgetvalue(r, i, 0));
    }
    snprintf(ids + used, ids_cap - used, "}");
    PQclear(r);
    if (n < t)
        fprintf(stderr, "nodes: %d of the %d tables were a's at its death (the others over?)\n", n,
                t);

    /* Poll the database every 50 ms: who owns each table, and its last
     * action. */
    int done = 0;
    const char *params[1] = {ids};
    while (done < n && now_ms() - kill_ms < 180000) {
        sleep_ms(50);
        long at = now_ms() - kill_ms;
        r = query(db,
                  "SELECT t.id, COALESCE(t.owner, ''), COALESCE(max(a.n), -1) FROM tables t "
                  "LEFT JOIN actions a ON a.table_id = t.id WHERE t.id = ANY($1::bigint[]) "
                  "GROUP BY t.id, t.owner ORDER BY t.id",
                  1, params);
        for (int i = 0; i < PQntuples(r) && i < n; i++) {
            const char *owner = PQgetvalue(r, i, 1);
            if (adopted[i] < 0 && owner[0] && strcmp(owner, "a") != 0)
                adopted[i] = at;
            if (played[i] < 0 && atol(PQgetvalue(r, i, 2)) > last_n[i]) {
                played[i] = at;
                done++;
            }
        }
        PQclear(r);
    }
    long by_b = count(db, "SELECT count(*) FROM tables WHERE owner = 'b'");
    long by_c = count(db, "SELECT count(*) FROM tables WHERE owner = 'c'");
    res.missing = n - done;
    /* From the lease taken to the first move: the rebuild, and the computer
     * player's delay. */
    long *gap = calloc((size_t)n + 1, sizeof *gap);
    int ng = 0;
    for (int i = 0; i < n; i++)
        if (adopted[i] >= 0 && played[i] >= 0)
            gap[ng++] = played[i] - adopted[i];
    qsort(gap, (size_t)ng, sizeof *gap, cmp_long);
    int na = 0, np = 0;
    for (int i = 0; i < n; i++) {
        if (adopted[i] >= 0)
            adopted[na++] = adopted[i];
        if (played[i] >= 0)
            played[np++] = played[i];
    }
    qsort(adopted, (size_t)na, sizeof *adopted, cmp_long);
    qsort(played, (size_t)np, sizeof *played, cmp_long);
    res.adopted_median = na ? adopted[(na - 1) / 2] : -1;
    res.adopted_last = na ? adopted[na - 1] : -1;
    res.played_median = np ? played[(np - 1) / 2] : -1;
    res.played_last = np ? played[np - 1] : -1;
    printf("T=%d run %d (load %.2f at the kill): adopted median %.1f s, last %.1f s; "
           "playing again median %.1f s, last %.1f s (a first move %.1f s after the "
           "adoption, median); b took %ld, c %ld",
           t, run, res.load, res.adopted_median / 1000.0, res.adopted_last / 1000.0,
           res.played_median / 1000.0, res.played_last / 1000.0,
           ng ? gap[(ng - 1) / 2] / 1000.0 : -1.0, by_b, by_c);
    if (res.missing)
        printf("; %d tables did not play again within 180 s", res.missing);
    printf("\n");
    fflush(stdout);
    free(gap);
    free(ids);
    free(last_n);
    free(adopted);
    free(played);
    stop_nodes();
    PQfinish(db);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", name);
    PQclear(query(admin, sql, 0, NULL));
    return res;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_nodes BARBU ADMIN_URL [--tables LIST] [--runs N] [--lease S] "
                    "[--delay MS]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        usage();
    opt.barbu = argv[1];
    opt.admin = argv[2];
    for (int i = 3; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v == NULL)
            usage();
        if (strcmp(a, "--tables") == 0) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            opt.n_tables = 0;
            for (char *p = strtok(buf, ","); p && opt.n_tables < 16; p = strtok(NULL, ","))
                if ((opt.tables[opt.n_tables++] = atoi(p)) < 1)
                    usage();
        } else if (strcmp(a, "--runs") == 0) {
            opt.runs = atoi(v);
            if (opt.runs < 1 || opt.runs > MAX_RUNS)
                usage();
        } else if (strcmp(a, "--lease") == 0) {
            opt.lease = v;
        } else if (strcmp(a, "--delay") == 0) {
            opt.delay = atoi(v);
        } else {
            usage();
        }
    }
    signal(SIGPIPE, SIG_IGN);
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    snprintf(dir, sizeof dir, "/tmp/barbu-nodes-XXXXXX");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    atexit(cleanup);
    PGconn *admin = PQconnectdb(opt.admin);
    if (PQstatus(admin) != CONNECTION_OK) {
        fprintf(stderr, "nodes: %s", PQerrorMessage(admin));
        return 1;
    }
    /* Not "database does not exist, skipping" on every run. */
    PQclear(query(admin, "SET client_min_messages = warning", 0, NULL));
    printf("3 nodes, --lease %s; tables of four easy computer players, delay %d ms, "
           "one client each on node a\n",
           opt.lease, opt.delay);
    for (int k = 0; k < opt.n_tables; k++) {
        long last[MAX_RUNS], adopted[MAX_RUNS];
        for (int run = 1; run <= opt.runs; run++) {
            result r = run_once(admin, opt.tables[k], run);
            last[run - 1] = r.missing ? 999999 : r.played_last;
            adopted[run - 1] = r.adopted_last;
        }
        qsort(last, (size_t)opt.runs, sizeof *last, cmp_long);
        qsort(adopted, (size_t)opt.runs, sizeof *adopted, cmp_long);
        printf("T=%d: the last table adopted after %.1f s, playing again after %.1f s "
               "(medians of %d runs)\n\n",
               opt.tables[k], adopted[(opt.runs - 1) / 2] / 1000.0,
               last[(opt.runs - 1) / 2] / 1000.0, opt.runs);
        fflush(stdout);
    }
    PQfinish(admin);
    finished = true;
    return 0;
}
