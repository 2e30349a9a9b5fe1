/*
 * load.c - how many tables one barbu server holds with good latency.
 *
 * Starts `barbu serve` on a free port with a fresh database, then opens
 * tables in steps.  At each table one client (our WebSocket client,
 * tests/e2e/wsc.c) sits North against three computer players (uk rules,
 * heuristic, a bot delay of 1000 ms by default) and plays like a person:
 * when it is to move it thinks for 500 ms +- 250 ms, then sends the first
 * legal action.  The latency of an action is the time from sending its act
 * to receiving the view whose "at" includes it.
 *
 * Each step holds its number of tables for a while and reports the p50,
 * p99 and largest latency, the actions the server applied per second (the
 * bots' too), the server's CPU and resident memory, and the memory per
 * table over the server idle.  The ramp stops at the first step whose p99
 * reaches the limit (50 ms) or when the time is up; the largest step below
 * the limit is the answer.
 *
 * usage: bench_load BARBU [options]   (bench/load.sh runs it)
 *   --steps LIST       tables at each step (100,250,500,1000,1500,2000,3000,4000,5000)
 *   --hold S           seconds each step is measured (20)
 *   --max-time S       stop after this many seconds in all (300)
 *   --delay MS         the computer players' delay (1000)
 *   --think MS         the client's thinking time (500), +- --jitter MS (250)
 *   --limit MS         the p99 that ends the ramp (50)
 *   --server-cpus L    pin the server to these CPUs ("0"); default unpinned
 *   --client-cpus L    pin this program to these CPUs ("1"); default unpinned
 *   --keep DIR         put the database in DIR and keep it
 *   --db URL           a PostgreSQL database (postgresql://...) instead of
 *                      a SQLite file in a fresh folder
 *   --nodes N          N servers on that database, each a node (--node nK,
 *                      --public-url its own address): the clients create
 *                      their tables on each node in turn (1)
 *   --db-pid PID       the database server's process: its CPU (and its
 *                      children's, the connections') is reported beside the
 *                      servers'
 *
 * With several nodes the servers' CPU and RSS are their sums.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"
#include "wsc.h"

enum { P_CONNECTING, P_HELLO, P_CREATE, P_PLAYING, P_OVER, P_DEAD };

typedef struct player {
    wsc *ws;
    int node; /* the server it plays at: index in ports[] */
    int state;
    short events; /* registered with epoll */
    long at;      /* the latest view's */
    long due_ms;  /* when the chosen action goes out; 0 when none */
    json_t *action;
    double sent_s; /* when the pending act went out (now_s); 0 when none */
    long sent_at;
    long at_mark; /* at when the step's measurement began */
} player;

static struct {
    const char *barbu;
    int steps[64], n_steps;
    int hold, max_time, delay, think, jitter, limit;
    const char *server_cpus, *client_cpus, *keep;
    int port;
    const char *db;
    int nodes;
    pid_t db_pid;
} opt = {.steps = {100, 250, 500, 1000, 1500, 2000, 3000, 4000, 5000},
         .n_steps = 9,
         .hold = 20,
         .max_time = 300,
         .delay = 1000,
         .think = 500,
         .jitter = 250,
         .limit = 50,
         .nodes = 1};

static player *players;
static int n_players;
static int epfd;
enum { MAX_NODES = 16 };
static int ports[MAX_NODES];
static pid_t server_pids[MAX_NODES];
static char dir[256];

static double *samples;
static size_t n_samples, cap_samples;
static long errors, drops;
/* Tables sent to another node ("moved"): their node lost their lease, a
 * sign its loop fell behind its renewals.  Such a client is not followed,
 * so its table is no longer measured. */
static long moves;

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(pid_t pid, const char *cpus)
{
    if (cpus == NULL)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    char list[64];
    snprintf(list, sizeof list, "%s", cpus);
    for (char *p = strtok(list, ","); p; p = strtok(NULL, ","))
        CPU_SET(atoi(p), &set);
    if (sched_setaffinity(pid, sizeof set, &set) != 0)
        fprintf(stderr, "load: sched_setaffinity(%s): %s\n", cpus, strerror(errno));
}

static void cleanup(void)
{
    for (int k = 0; k < opt.nodes; k++) {
        if (server_pids[k] > 0 && server_pids[k] != getpid()) {
            kill(server_pids[k], SIGKILL);
            waitpid(server_pids[k], NULL, 0);
        }
    }
    if (opt.keep == NULL && dir[0]) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "load: could not remove %s\n", dir);
    }
}

/* A port free on 127.0.0.1 now: a node must know its address before it
 * starts, to give it as its --public-url. */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
        perror("load: a free port");
        exit(1);
    }
    close(fd);
    return ntohs(sa.sin_port);
}

/* Starts server k (a node when there are several) and waits for its port. */
static void start_server(int k)
{
    char db[320], out[320], err[320], listen[64], node[16], url[64];
    snprintf(db, sizeof db, "%s/load.db", dir);
    snprintf(out, sizeof out, "%s/server%d.out", dir, k);
    snprintf(err, sizeof err, "%s/server%d.err", dir, k);
    int want = opt.nodes > 1 ? free_port() : 0;
    snprintf(listen, sizeof listen, "127.0.0.1:%d", want);
    snprintf(node, sizeof node, "n%d", k);
    snprintf(url, sizeof url, "ws://127.0.0.1:%d/ws", want);
    /* Every client comes from 127.0.0.1: the limits on one address (and
     * the slower creation of a nearly full server) are lifted. */
    const char *argv[32] = {opt.barbu,  "serve",
                            "--listen", listen,
                            "--db",     opt.db ? opt.db : db,
                            "--quiet",  "--max-conns-per-address",
                            "1000000",  "--sessions-per-address",
                            "1000000",  "--tables-per-address",
                            "1000000",  "--create-interval",
                            "0"};
    int argc = 15;
    if (opt.nodes > 1) {
        argv[argc++] = "--node";
        argv[argc++] = node;
        argv[argc++] = "--public-url";
        argv[argc++] = url;
    }
    argv[argc] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        pin(0, opt.server_cpus);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1);
        dup2(e, 2);
        execv(opt.barbu, (char *const *)argv);
        _exit(127);
    }
    server_pids[k] = pid;
    for (long t0 = now_ms(); now_ms() - t0 < 15000;) {
        FILE *f = fopen(out, "r");
        char line[256];
        while (f && fgets(line, sizeof line, f)) {
            const char *p = strstr(line, "ws://127.0.0.1:");
            if (p && (ports[k] = atoi(p + 15)) > 0) {
                fclose(f);
                return;
            }
        }
        if (f)
            fclose(f);
        if (waitpid(pid, NULL, WNOHANG) == pid) {
            server_pids[k] = 0;
            fprintf(stderr, "load: server %d exited; see %s\n", k, err);
            exit(1);
        }
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    fprintf(stderr, "load: server %d did not print its port\n", k);
    exit(1);
}

static void start_servers(void)
{
    if (opt.keep) {
        snprintf(dir, sizeof dir, "%s", opt.keep);
        mkdir(dir, 0755);
    } else {
        snprintf(dir, sizeof dir, "/tmp/barbu-load-XXXXXX");
        if (mkdtemp(dir) == NULL) {
            perror("mkdtemp");
            exit(1);
        }
    }
    char db[320];
    snprintf(db, sizeof db, "%s/load.db", dir);
    unlink(db);
    atexit(cleanup);
    for (int k = 0; k < opt.nodes; k++)
        start_server(k);
}

/* The servers' CPU seconds (user + system) and resident kB, summed. */
static double server_cpu(void)
{
    double sum = 0;
    for (int k = 0; k < opt.nodes; k++)
        sum += e2e_cpu_seconds(server_pids[k]);
    return sum;
}

/* The database server's CPU seconds: its own and its children's, which
 * are the connections (one process each) and its workers. */
static double db_cpu(void)
{
    if (opt.db_pid <= 0)
        return 0;
    double sum = e2e_cpu_seconds(opt.db_pid);
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        int pid = atoi(e->d_name);
        if (pid <= 0)
            continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%d/stat", pid);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        const char *p = strrchr(buf, ')');
        int ppid = 0;
        if (p && sscanf(p + 2, "%*c %d", &ppid) == 1 && ppid == opt.db_pid)
            sum += e2e_cpu_seconds(pid);
    }
    if (d)
        closedir(d);
    return sum;
}

static long rss_kb(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = atol(line + 6);
    if (f)
        fclose(f);
    return kb;
}

static long server_rss_kb(void)
{
    long sum = 0;
    for (int k = 0; k < opt.nodes; k++)
        sum += rss_kb(server_pids[k]);
    return sum;
}

/* Run-queue wait (s) of all threads of pid. */
static double sched_wait(pid_t pid)
{
    char path[96];
    double sum = 0;
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "cat %s/*/schedstat", path);
    FILE *f = popen(cmd, "r");
    unsigned long long run, wait, n;
    while (f && fscanf(f, "%llu %llu %llu", &run, &wait, &n) == 3)
        sum += (double)wait / 1e9;
    if (f)
        pclose(f);
    return sum;
}

static double servers_sched_wait(void)
{
    double sum = 0;
    for (int k = 0; k < opt.nodes; k++)
        sum += sched_wait(server_pids[k]);
    return sum;
}

static void send_json(player *p, json_t *m)
{
    char *text = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    if (wsc_send_text(p->ws, text, strlen(text)) < 0)
        p->state = P_DEAD;
    free(text);
}

static void watch(player *p)
{
    short want = p->state == P_DEAD ? 0 : wsc_events(p->ws);
    if (want == p->events)
        return;
    struct epoll_event ev = {0};
    ev.events = (want & POLLIN ? EPOLLIN : 0) | (want & POLLOUT ? EPOLLOUT : 0);
    ev.data.u32 = (uint32_t)(p - players);
    int fd = wsc_fd(p->ws);
    if (fd < 0)
        return;
    if (p->events == -1)
        epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
    else if (want == 0)
        epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
    else
        epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev);
    p->events = want;
}

static double sec_max;
static long sec_n, sec_slow;
static long sec_at;
static bool log_secs;

static void add_sample(double ms)
{
    if (ms > sec_max)
        sec_max = ms;
    sec_n++;
    sec_slow += ms > 50;
    if (n_samples == cap_samples) {
        cap_samples = cap_samples ? cap_samples * 2 : 65536;
        samples = realloc(samples, cap_samples * sizeof *samples);
    }
    samples[n_samples++] = ms;
}

static void on_message(player *p, const char *text, size_t len)
{
    json_t *m = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(m, "type"));
    if (type == NULL) {
        json_decref(m);
        return;
    }
    if (strcmp(type, "welcome") == 0 && p->state == P_HELLO) {
        send_json(p, json_pack("{s:s, s:s, s:[s,s,s], s:s, s:i, s:s}", "type", "create", "rules",
                               "uk", "bots", "E", "S", "W", "level", "heuristic", "delay",
                               opt.delay, "sit", "N"));
        p->state = P_CREATE;
    } else if (strcmp(type, "view") == 0) {
        long at = (long)json_integer_value(json_object_get(m, "at"));
        if (p->sent_s > 0 && at > p->sent_at) {
            add_sample((now_s() - p->sent_s) * 1000.0);
            p->sent_s = 0;
        }
        p->at = at;
        if (p->state == P_CREATE)
            p->state = P_PLAYING, p->at_mark = at;
        json_t *view = json_object_get(m, "view");
        const char *phase = json_string_value(json_object_get(view, "phase"));
        const char *to_move = json_string_value(json_object_get(view, "to_move"));
        json_t *legal = json_object_get(m, "legal");
        if (phase && strcmp(phase, "over") == 0) {
            p->state = P_OVER;
        } else if (to_move && strcmp(to_move, "N") == 0 && json_array_size(legal) > 0 &&
                   p->due_ms == 0 && p->sent_s == 0) {
            json_decref(p->action);
            p->action = json_deep_copy(json_array_get(legal, 0));
            int jitter = opt.jitter > 0 ? rand() % (2 * opt.jitter + 1) - opt.jitter : 0;
            p->due_ms = now_ms() + opt.think + jitter;
            p->sent_at = at;
        }
    } else if (strcmp(type, "moved") == 0) {
        if (moves++ < 5)
            fprintf(stderr, "load: %.*s\n", (int)len, text);
        p->state = P_DEAD;
        p->due_ms = 0;
        p->sent_s = 0;
    } else if (strcmp(type, "error") == 0) {
        errors++;
        if (errors <= 5) {
            fprintf(stderr, "load: error: %.*s\n", (int)len, text);
        }
        /* An act refused: choose again on the next view. */
        p->sent_s = 0;
    }
    json_decref(m);
}

static void service(player *p, short revents)
{
    int rc = wsc_service(p->ws, revents);
    wsc_msg m;
    while (wsc_next(p->ws, &m)) {
        on_message(p, m.data, m.len);
        free(m.data);
    }
    if (p->state == P_CONNECTING && wsc_state(p->ws) == WSC_OPEN) {
        char name[24];
        snprintf(name, sizeof name, opt.port ? "probe%d" : "load%d", (int)(p - players));
        send_json(p, json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "name", name));
        p->state = P_HELLO;
    }
    if (rc < 0 && p->state != P_DEAD) {
        if (drops++ < 5)
            fprintf(stderr, "load: table %d lost its connection: %s\n", (int)(p - players),
                    wsc_error(p->ws));
        p->state = P_DEAD;
    }
    watch(p);
}

/* One turn of the loop: what the sockets say, then the acts that are due. */
static void turn(int timeout_ms)
{
    struct epoll_event ev[256];
    int n = epoll_wait(epfd, ev, 256, timeout_ms);
    for (int i = 0; i < n; i++) {
        player *p = &players[ev[i].data.u32];
        short re = (short)((ev[i].events & EPOLLIN ? POLLIN : 0) |
                           (ev[i].events & EPOLLOUT ? POLLOUT : 0) |
                           (ev[i].events & (EPOLLERR | EPOLLHUP) ? POLLHUP : 0));
        service(p, re);
    }
    long now = now_ms();
    if (log_secs && now / 1000 != sec_at) {
        fprintf(stderr, "sec %ld: n %ld slow %ld max %.0f\n", now / 1000 % 1000, sec_n, sec_slow,
                sec_max);
        sec_at = now / 1000, sec_max = 0, sec_n = sec_slow = 0;
    }
    for (int i = 0; i < n_players; i++) {
        player *p = &players[i];
        if (p->due_ms && now >= p->due_ms && p->state == P_PLAYING) {
            p->due_ms = 0;
            json_t *a = p->action;
            p->action = NULL;
            p->sent_s = now_s();
            send_json(
                p, json_pack("{s:s, s:o, s:i}", "type", "act", "action", a, "at", (int)p->sent_at));
            watch(p);
        }
    }
}

static void open_tables(int target)
{
    players = realloc(players, (size_t)target * sizeof *players);
    int first = n_players;
    long t0 = now_ms();
    while (n_players < target) {
        /* At most 100 handshakes at once. */
        int pending = 0;
        for (int i = first; i < n_players; i++)
            pending += players[i].state < P_PLAYING;
        while (pending < 100 && n_players < target) {
            player *p = &players[n_players];
            memset(p, 0, sizeof *p);
            p->events = -1;
            /* Each node in turn: the tables spread evenly over them. */
            p->node = n_players % opt.nodes;
            char err[200];
            p->ws = wsc_open("127.0.0.1", ports[p->node], "/ws", err, sizeof err);
            if (p->ws == NULL) {
                fprintf(stderr, "load: connect: %s\n", err);
                exit(1);
            }
            n_players++;
            watch(p);
            pending++;
        }
        turn(5);
        if (now_ms() - t0 > 120000)
            break;
    }
    /* Until every new table is playing. */
    while (now_ms() - t0 < 120000) {
        int pending = 0;
        for (int i = first; i < n_players; i++)
            pending += players[i].state < P_PLAYING;
        if (pending == 0)
            break;
        turn(5);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double p)
{
    if (n_samples == 0)
        return 0;
    size_t k = (size_t)(p * (double)(n_samples - 1) + 0.5);
    return samples[k];
}

static int parse_list(const char *text, int *out, int cap)
{
    int n = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *p = strtok(buf, ","); p && n < cap; p = strtok(NULL, ","))
        out[n++] = atoi(p);
    return n;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: bench_load BARBU [--steps LIST] [--hold S] [--max-time S] [--delay MS]\n"
            "                  [--think MS] [--jitter MS] [--limit MS] [--server-cpus L]\n"
            "                  [--client-cpus L] [--keep DIR] [--db URL] [--nodes N]\n"
            "                  [--db-pid PID]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    opt.barbu = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v == NULL)
            usage();
        if (strcmp(a, "--steps") == 0)
            opt.n_steps = parse_list(v, opt.steps, 64);
        else if (strcmp(a, "--hold") == 0)
            opt.hold = atoi(v);
        else if (strcmp(a, "--max-time") == 0)
            opt.max_time = atoi(v);
        else if (strcmp(a, "--delay") == 0)
            opt.delay = atoi(v);
        else if (strcmp(a, "--think") == 0)
            opt.think = atoi(v);
        else if (strcmp(a, "--jitter") == 0)
            opt.jitter = atoi(v);
        else if (strcmp(a, "--limit") == 0)
            opt.limit = atoi(v);
        else if (strcmp(a, "--server-cpus") == 0)
            opt.server_cpus = v;
        else if (strcmp(a, "--client-cpus") == 0)
            opt.client_cpus = v;
        else if (strcmp(a, "--keep") == 0)
            opt.keep = v;
        else if (strcmp(a, "--port") == 0)
            opt.port = atoi(v);
        else if (strcmp(a, "--db") == 0)
            opt.db = v;
        else if (strcmp(a, "--nodes") == 0)
            opt.nodes = atoi(v);
        else if (strcmp(a, "--db-pid") == 0)
            opt.db_pid = (pid_t)atoi(v);
        else
            usage();
        i++;
    }
    signal(SIGPIPE, SIG_IGN);
    srand(12345);
    /* A connection is a descriptor here and another in the server. */
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    pin(0, opt.client_cpus);
    if (opt.nodes < 1 || opt.nodes > MAX_NODES ||
        (opt.nodes > 1 && !(opt.db && strncmp(opt.db, "postgres", 8) == 0))) {
        fprintf(stderr,
                "load: --nodes wants a number from 1 to %d, and more than one a "
                "postgresql:// --db\n",
                MAX_NODES);
        return 2;
    }
    if (opt.port)
        ports[0] = opt.port, server_pids[0] = getpid(), opt.nodes = 1;
    else
        start_servers();
    epfd = epoll_create1(0);
    {
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
    }
    long rss0 = server_rss_kb();
    for (int k = 0; k < opt.nodes; k++)
        printf("barbu serve%s on port %d (pid %d)\n", opt.nodes > 1 ? " --node" : "", ports[k],
               (int)server_pids[k]);
    printf("database: %s; fd limit %llu; server CPUs %s, client CPUs %s\n",
           opt.db ? "PostgreSQL" : "a SQLite file", (unsigned long long)rl.rlim_cur,
           opt.server_cpus ? opt.server_cpus : "any", opt.client_cpus ? opt.client_cpus : "any");
    printf("uk, 3 heuristic bots per table with a %d ms delay; the client thinks %d +- %d ms; "
           "each step held %d s; idle RSS %.1f MB\n\n",
           opt.delay, opt.think, opt.jitter, opt.hold, rss0 / 1024.0);
    printf("%7s %8s %8s %8s %8s %9s %8s %8s %10s %8s %7s %7s\n", "tables", "p50 ms", "p99 ms",
           "max ms", "samples", "actions/s", "srv CPU", "RSS MB", "kB/table", "cli CPU", "db CPU",
           "errors");
    fflush(stdout);
    long start = now_ms();
    int best = 0;
    for (int s = 0; s < opt.n_steps; s++) {
        int target = opt.steps[s];
        if (target <= n_players)
            continue;
        open_tables(target);
        int playing = 0;
        for (int i = 0; i < n_players; i++)
            playing += players[i].state == P_PLAYING || players[i].state == P_OVER;
        /* Settle for two seconds, then measure. */
        for (long t = now_ms(); now_ms() - t < 2000;)
            turn(5);
        n_samples = 0;
        errors = 0;
        for (int i = 0; i < n_players; i++)
            players[i].at_mark = players[i].at;
        double cpu0 = server_cpu(), dcpu0 = db_cpu(), t0 = now_s();
        double sw0 = servers_sched_wait(), cw0 = sched_wait(getpid());
        fprintf(stderr, "hold %d begins\n", target);
        log_secs = true;
        struct rusage ru0, ru1;
        getrusage(RUSAGE_SELF, &ru0);
        while (now_s() - t0 < opt.hold)
            turn(5);
        double wall = now_s() - t0;
        double cpu = (server_cpu() - cpu0) / wall * 100.0;
        double dcpu = (db_cpu() - dcpu0) / wall * 100.0;
        double swt = (servers_sched_wait() - sw0) / wall * 100.0;
        double cwt = (sched_wait(getpid()) - cw0) / wall * 100.0;
        fprintf(stderr, "hold %d ends: run-queue wait server %.0f%% client %.0f%%\n", target, swt,
                cwt);
        getrusage(RUSAGE_SELF, &ru1);
        double cli = ((double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) +
                      (double)(ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
                      (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) / 1e6 +
                      (double)(ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6) /
                     wall * 100.0;
        long actions = 0;
        for (int i = 0; i < n_players; i++)
            actions += players[i].at - players[i].at_mark;
        qsort(samples, n_samples, sizeof *samples, cmp_double);
        long rss = server_rss_kb();
        double p99 = percentile(0.99);
        char dbc[16] = "-";
        if (opt.db_pid > 0)
            snprintf(dbc, sizeof dbc, "%.0f%%", dcpu);
        printf("%7d %8.1f %8.1f %8.1f %8zu %9.0f %7.0f%% %8.1f %10.1f %7.0f%% %7s %7ld", playing,
               percentile(0.50), p99, n_samples ? samples[n_samples - 1] : 0.0, n_samples,
               (double)actions / wall, cpu, rss / 1024.0,
               playing ? (double)(rss - rss0) / playing : 0.0, cli, dbc, errors);
        if (playing < target)
            printf("  (%d of %d tables playing, %ld connections lost)", playing, target, drops);
        if (moves)
            printf("  (%ld tables moved to another node so far)", moves);
        printf("\n");
        fflush(stdout);
        if (p99 >= opt.limit || playing < target)
            break;
        best = playing;
        if ((now_ms() - start) / 1000 >= opt.max_time) {
            printf("(the time is up after %ld s)\n", (now_ms() - start) / 1000);
            break;
        }
    }
    printf("\nlargest step with p99 < %d ms: %d tables\n", opt.limit, best);
    return 0;
}
