/*
 * e2e_lib.c - the harness of the end-to-end tests (see e2e.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

int e2e_failures;
e2e_client *e2e_halted;
e2e_client *e2e_halted_in[64];
void (*e2e_on_moved)(e2e_client *c);

static const char *barbu_path;
static char tmpdir[256];
static pid_t server_pids[32];
static int n_server_pids;
static e2e_client *clients[256];
static int n_clients;
static int next_id = 1000;

static const char SEATS[] = "NESW";
static const char SUITS[] = "CDHS";
static const char RANKS[] = "??23456789TJQKA";

/* ------------------------------------------------------------ results */

long e2e_now_ms(void)
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

bool e2e_check(bool cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(cond ? "ok   " : "FAIL ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    fflush(stdout);
    if (!cond)
        e2e_failures++;
    return cond;
}

int e2e_refusals;

bool e2e_refusal_sentence(const char *text)
{
    size_t n = text ? strlen(text) : 0;
    return n >= 2 && text[0] >= 'A' && text[0] <= 'Z' && strchr(".?!", text[n - 1]) != NULL;
}

void e2e_refusal_check(const e2e_client *c, const json_t *error)
{
    const char *text = json_string_value(json_object_get(error, "text"));
    const char *code = json_string_value(json_object_get(error, "code"));
    e2e_refusals++;
    /* Quiet when it holds: every test's refusals pass through here. */
    if (!e2e_refusal_sentence(text))
        e2e_check(false,
                  "%s: the refusal %s is a full sentence (a capital first, a full stop last): %s",
                  c->label, code ? code : "?", text ? text : "(no text)");
}

void e2e_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("     ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    fflush(stdout);
}

static void dump_server_errors(void)
{
    /* The servers' stderr, for whoever reads the failure. */
    DIR *d = opendir(tmpdir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".err") != 0)
            continue;
        char path[600];
        snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            continue;
        char line[512];
        int lines = 0;
        while (fgets(line, sizeof line, f) && lines++ < 40)
            printf("     [%s] %s", e->d_name, line);
        fclose(f);
    }
    closedir(d);
}

void e2e_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    dump_server_errors();
    fflush(stdout);
    exit(1);
}

/* ------------------------------------------------------------- server */

static void cleanup(void)
{
    for (int i = 0; i < n_server_pids; i++) {
        if (server_pids[i] > 0) {
            kill(server_pids[i], SIGKILL);
            waitpid(server_pids[i], NULL, 0);
        }
    }
    for (int i = 0; i < n_clients; i++)
        wsc_free(clients[i]->ws), clients[i]->ws = NULL;
    if (tmpdir[0] && getenv("E2E_KEEP") == NULL) {
        DIR *d = opendir(tmpdir);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                char path[600];
                snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
                unlink(path);
            }
            closedir(d);
        }
        rmdir(tmpdir);
    }
}

void e2e_init(const char *barbu)
{
    barbu_path = barbu;
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/barbu-e2e-XXXXXX", base && *base ? base : "/tmp");
    if (mkdtemp(tmpdir) == NULL) {
        fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
        exit(1);
    }
    atexit(cleanup);
    if (getenv("E2E_KEEP"))
        printf("     keeping %s\n", tmpdir);
}

const char *e2e_barbu(void)
{
    return barbu_path;
}

const char *e2e_tmpdir(void)
{
    return tmpdir;
}

static void forget_pid(pid_t pid)
{
    for (int i = 0; i < n_server_pids; i++)
        if (server_pids[i] == pid)
            server_pids[i] = 0;
}

bool e2e_server_logs;

void e2e_server_start(e2e_server *s, const char *dbname)
{
    e2e_server_start_with(s, dbname, NULL);
}

void e2e_server_start_with(e2e_server *s, const char *dbname, const char *const *extra)
{
    char db[320];
    snprintf(db, sizeof db, "%s/%s", tmpdir, dbname);
    const char *args[64] = {"--listen", "127.0.0.1:0", "--db", db};
    int n = 4;
    if (!e2e_server_logs)
        args[n++] = "--quiet";
    for (int i = 0; extra && extra[i] && n < 63; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    e2e_server_start_args(s, db, args);
}

void e2e_server_start_args(e2e_server *s, const char *db, const char *const *args)
{
    static int starts;
    memset(s, 0, sizeof *s);
    snprintf(s->dir, sizeof s->dir, "%s", tmpdir);
    snprintf(s->db, sizeof s->db, "%s", db);
    starts++;
    snprintf(s->out, sizeof s->out, "%s/server%d.out", tmpdir, starts);
    snprintf(s->err, sizeof s->err, "%s/server%d.err", tmpdir, starts);
    pid_t pid = fork();
    REQUIRE(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int out = open(s->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(s->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0)
            _exit(127);
        dup2(out, 1);
        dup2(err, 2);
        const char *argv[66] = {barbu_path, "serve"};
        int argc = 2;
        for (int i = 0; args[i] && argc < 65; i++)
            argv[argc++] = args[i];
        argv[argc] = NULL;
        execv(barbu_path, (char *const *)argv);
        _exit(127);
    }
    s->pid = pid;
    if (n_server_pids < (int)(sizeof server_pids / sizeof server_pids[0]))
        server_pids[n_server_pids++] = pid;
    long deadline = e2e_now_ms() + 15000;
    while (e2e_now_ms() < deadline) {
        FILE *f = fopen(s->out, "r");
        if (f) {
            char line[256];
            while (fgets(line, sizeof line, f)) {
                /* ws://, or wss:// with TLS. */
                const char *p = strstr(line, "barbu serve: listening on ws");
                if (p && (strncmp(p + 28, "://127.0.0.1:", 13) == 0 ||
                          strncmp(p + 28, "s://127.0.0.1:", 14) == 0)) {
                    p = strstr(p, "127.0.0.1:");
                    s->port = atoi(p + strlen("127.0.0.1:"));
                    const char *rest = strchr(p, '/');
                    if (s->port > 0 && rest && strncmp(rest, "/ws", 3) == 0) {
                        fclose(f);
                        return;
                    }
                }
            }
            fclose(f);
        }
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            forget_pid(pid);
            e2e_die("the server exited before listening (status %d)", status);
        }
        sleep_ms(20);
    }
    e2e_die("the server did not print its port within 15 s");
}

double e2e_cpu_seconds(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* After the name (in parentheses, which may hold spaces): the state,
     * fields 4-13, then utime and stime. */
    const char *p = strrchr(buf, ')');
    unsigned long ut = 0, st = 0;
    if (p == NULL ||
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return 0;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

int e2e_server_stop(e2e_server *s)
{
    return e2e_server_stop_by(s, SIGTERM);
}

int e2e_server_stop_by(e2e_server *s, int sig)
{
    if (s->pid <= 0)
        return -1;
    kill(s->pid, sig);
    long deadline = e2e_now_ms() + 15000;
    int status = 0;
    while (waitpid(s->pid, &status, WNOHANG) != s->pid) {
        if (e2e_now_ms() > deadline) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &status, 0);
            forget_pid(s->pid);
            s->pid = 0;
            e2e_check(false, "the server stops within 15 s of %s",
                      sig == SIGINT ? "SIGINT" : "SIGTERM");
            return -1;
        }
        e2e_pump(10);
    }
    forget_pid(s->pid);
    s->pid = 0;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return -1;
}

void e2e_server_kill9(e2e_server *s)
{
    if (s->pid <= 0)
        return;
    kill(s->pid, SIGKILL);
    waitpid(s->pid, NULL, 0);
    forget_pid(s->pid);
    s->pid = 0;
}

bool e2e_server_alive(e2e_server *s)
{
    if (s->pid <= 0)
        return false;
    int status;
    if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
        forget_pid(s->pid);
        s->pid = 0;
        return false;
    }
    return true;
}

long e2e_server_rss_kb(const e2e_server *s)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)s->pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    char line[256];
    long kb = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = atol(line + 6);
    fclose(f);
    return kb;
}

/* ------------------------------------------------------------- client */

static const char *tls_ca; /* e2e_use_tls: every client speaks TLS */
static bool tls_on;

void e2e_use_tls(bool on, const char *ca_file)
{
    tls_on = on;
    tls_ca = ca_file;
}

static void connect_ws(e2e_client *c, int port)
{
    char err[200];
    wsc_options opt = {c->source[0] ? c->source : NULL, NULL};
    wsc_tls_options tls = {tls_ca, NULL};
    c->ws = wsc_connect_tls("127.0.0.1", port, "/ws", &opt, tls_on ? &tls : NULL, 5000, err,
                            sizeof err);
    REQUIRE(c->ws != NULL, "%s: WebSocket connection to port %d: %s", c->label, port, err);
    c->port = port;
    c->closed = false;
    c->bye[0] = '\0';
}

e2e_client *e2e_client_new(const char *label, int port)
{
    return e2e_client_new_from(label, port, NULL);
}

e2e_client *e2e_client_new_from(const char *label, int port, const char *source)
{
    REQUIRE(n_clients < (int)(sizeof clients / sizeof clients[0]), "too many clients");
    e2e_client *c = calloc(1, sizeof *c);
    REQUIRE(c != NULL, "out of memory");
    snprintf(c->label, sizeof c->label, "%s", label);
    c->seat = -1;
    c->kibitz = -1;
    c->at = -1;
    c->acted_at = -1;
    snprintf(c->source, sizeof c->source, "%s", source ? source : "");
    connect_ws(c, port);
    clients[n_clients++] = c;
    return c;
}

static void clear_view(e2e_client *c)
{
    json_decref(c->view);
    c->view = NULL;
    c->at = -1;
    c->acted_at = -1;
}

void e2e_client_reconnect(e2e_client *c, int port)
{
    wsc_free(c->ws);
    c->ws = NULL;
    e2e_clear(c);
    /* The view it had is kept for comparison until a new one comes. */
    connect_ws(c, port);
    c->acted_at = -1;
}

void e2e_client_drop(e2e_client *c)
{
    wsc_free(c->ws);
    c->ws = NULL;
    c->closed = true;
}

void e2e_client_free(e2e_client *c)
{
    if (c == NULL)
        return;
    for (int i = 0; i < n_clients; i++) {
        if (clients[i] == c) {
            clients[i] = clients[--n_clients];
            break;
        }
    }
    wsc_free(c->ws);
    e2e_clear(c);
    free(c->queue);
    clear_view(c);
    for (int i = 0; i < c->nlog; i++)
        free(c->log[i].text);
    free(c->log);
    free(c);
}

/* With a bucket of 30 refilled by 10 each second, a client that sends at
 * most 20 + 9 t messages in any t seconds is never slowed. */
#define PACE_RATE  9.0 /* messages a second */
#define PACE_BURST 20.0

static void pace(e2e_client *c)
{
    for (;;) {
        long now = e2e_now_ms();
        if (c->tokens_ms == 0) {
            c->tokens = PACE_BURST;
            c->tokens_ms = now;
        }
        c->tokens += (double)(now - c->tokens_ms) * PACE_RATE / 1000.0;
        if (c->tokens > PACE_BURST)
            c->tokens = PACE_BURST;
        c->tokens_ms = now;
        if (c->tokens >= 1.0) {
            c->tokens -= 1.0;
            return;
        }
        e2e_pump((int)((1.0 - c->tokens) * 1000.0 / PACE_RATE) + 1);
    }
}

void e2e_send_text(e2e_client *c, const char *text)
{
    pace(c);
    if (c->ws == NULL || wsc_send_text(c->ws, text, strlen(text)) < 0)
        e2e_check(false, "%s: send %.80s (connection closed: %s)", c->label, text,
                  c->ws ? wsc_error(c->ws) : "dropped");
}

void e2e_send(e2e_client *c, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    REQUIRE(text != NULL, "json_dumps");
    e2e_send_text(c, text);
    free(text);
}

static void enqueue(e2e_client *c, json_t *m)
{
    if (c->nq == c->capq) {
        c->capq = c->capq ? c->capq * 2 : 64;
        c->queue = realloc(c->queue, (size_t)c->capq * sizeof *c->queue);
        REQUIRE(c->queue != NULL, "out of memory");
    }
    c->queue[c->nq++] = m;
    if (c->nq > 600) {
        /* Nobody reads that far back: keep the newest. */
        json_decref(c->queue[0]);
        memmove(c->queue, c->queue + 1, (size_t)(c->nq - 1) * sizeof *c->queue);
        c->nq--;
    }
}

static void receive(e2e_client *c, wsc_msg *m)
{
    if (m->opcode != WSC_OP_TEXT) {
        e2e_check(false, "%s: the server sent a binary message of %zu bytes", c->label, m->len);
        free(m->data);
        return;
    }
    json_error_t jerr;
    json_t *j = json_loadb(m->data, m->len, JSON_REJECT_DUPLICATES, &jerr);
    if (j == NULL || !json_is_object(j) || !json_is_string(json_object_get(j, "type"))) {
        e2e_check(false,
                  "%s: the server sent a message that is not a JSON object with a type: %.200s",
                  c->label, m->data);
        json_decref(j);
        free(m->data);
        return;
    }
    const char *type = json_string_value(json_object_get(j, "type"));
    if (strcmp(type, "error") == 0)
        e2e_refusal_check(c, j);
    if (strcmp(type, "view") == 0) {
        json_t *at = json_object_get(j, "at");
        long new_at = json_is_integer(at) ? (long)json_integer_value(at) : -1;
        if (c->acted_at >= 0 && c->act_sent > 0 && new_at > c->acted_at) {
            long lat = e2e_now_ms() - c->act_sent;
            if (lat > c->max_latency_ms)
                c->max_latency_ms = lat;
            c->n_latency++;
            c->sum_latency_ms += lat;
            static long slow = -1;
            if (slow < 0)
                slow = getenv("E2E_SLOW") ? atol(getenv("E2E_SLOW")) : 0;
            if (slow > 0 && lat >= slow) {
                const char *ph =
                    json_string_value(json_object_get(json_object_get(j, "view"), "phase"));
                json_t *vv = json_object_get(j, "view");
                e2e_note("slow: %s waited %ld ms for the view at %ld (%s, deal %ld, acted %ld, "
                         "trick %zu cards, last %s)",
                         c->label, lat, new_at, ph ? ph : "?",
                         (long)json_integer_value(json_object_get(vv, "deal")),
                         (long)json_integer_value(json_object_get(vv, "acted")),
                         json_array_size(json_object_get(json_object_get(vv, "trick"), "cards")),
                         json_string_value(json_object_get(json_object_get(j, "last"), "type")));
            }
            c->act_sent = 0;
        }
        json_decref(c->view);
        json_incref(j);
        c->view = j;
        c->at = new_at;
        c->views++;
    } else if (strcmp(type, "bye") == 0) {
        const char *r = json_string_value(json_object_get(j, "reason"));
        snprintf(c->bye, sizeof c->bye, "%s", r ? r : "?");
    }
    if (c->logging) {
        if (c->nlog == c->caplog) {
            c->caplog = c->caplog ? c->caplog * 2 : 256;
            c->log = realloc(c->log, (size_t)c->caplog * sizeof *c->log);
            REQUIRE(c->log != NULL, "out of memory");
        }
        c->log[c->nlog].text = m->data;
        c->log[c->nlog].at = c->at;
        c->nlog++;
    } else {
        free(m->data);
    }
    enqueue(c, j);
}

void e2e_pump(int ms)
{
    long deadline = e2e_now_ms() + ms;
    bool first = true;
    for (;;) {
        struct pollfd pfd[256];
        e2e_client *who[256];
        int n = 0;
        for (int i = 0; i < n_clients; i++) {
            e2e_client *c = clients[i];
            if (c->ws == NULL || c->closed)
                continue;
            pfd[n].fd = wsc_fd(c->ws);
            pfd[n].events = wsc_events(c->ws);
            pfd[n].revents = 0;
            who[n++] = c;
        }
        long left = deadline - e2e_now_ms();
        int timeout = first ? (left > 0 ? (int)left : 0) : 0;
        first = false;
        if (n == 0) {
            if (timeout > 0)
                sleep_ms(timeout);
            return;
        }
        int got = poll(pfd, (nfds_t)n, timeout);
        if (got <= 0)
            return;
        for (int i = 0; i < n; i++) {
            e2e_client *c = who[i];
            if (pfd[i].revents == 0)
                continue;
            int rc = wsc_service(c->ws, pfd[i].revents);
            wsc_msg m;
            while (wsc_next(c->ws, &m))
                receive(c, &m);
            if (rc < 0)
                c->closed = true;
        }
    }
}

static json_t *take(e2e_client *c, int i)
{
    json_t *m = c->queue[i];
    memmove(c->queue + i, c->queue + i + 1, (size_t)(c->nq - i - 1) * sizeof *c->queue);
    c->nq--;
    return m;
}

static bool is_type(const json_t *m, const char *type)
{
    const char *t = json_string_value(json_object_get(m, "type"));
    return t && strcmp(t, type) == 0;
}

json_t *e2e_peek(e2e_client *c, const char *type)
{
    for (int i = 0; i < c->nq; i++)
        if (is_type(c->queue[i], type))
            return c->queue[i];
    return NULL;
}

json_t *e2e_expect(e2e_client *c, const char *type, int ms)
{
    long deadline = e2e_now_ms() + ms;
    for (;;) {
        for (int i = 0; i < c->nq; i++)
            if (is_type(c->queue[i], type))
                return take(c, i);
        long left = deadline - e2e_now_ms();
        if (left <= 0 || c->closed || c->ws == NULL)
            return NULL;
        e2e_pump(left < 50 ? (int)left : 50);
    }
}

static void describe_queue(e2e_client *c, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = '\0';
    for (int i = 0; i < c->nq && o + 8 < cap; i++) {
        char *t = json_dumps(c->queue[i], JSON_COMPACT);
        o += (size_t)snprintf(out + o, cap - o, "%s%.160s", o ? " | " : "", t ? t : "?");
        free(t);
    }
    if (c->closed && o + 8 < cap)
        snprintf(out + o, cap - o, " (closed: %s)", c->ws ? wsc_error(c->ws) : "dropped");
}

json_t *e2e_expect_error(e2e_client *c, const char *code, const char *re, int ms)
{
    json_t *e = e2e_expect(c, "error", ms);
    if (e == NULL) {
        char what[1200];
        describe_queue(c, what, sizeof what);
        e2e_check(false, "%s: expected error %s, got no error; queued: %s", c->label, code,
                  what[0] ? what : "nothing");
        return NULL;
    }
    const char *got = json_string_value(json_object_get(e, "code"));
    const char *got_re = json_string_value(json_object_get(e, "re"));
    bool ok = got && strcmp(got, code) == 0 && (re == NULL || (got_re && strcmp(got_re, re) == 0));
    if (!ok) {
        char *t = json_dumps(e, JSON_COMPACT);
        e2e_check(false, "%s: expected error %s%s%s, got %s", c->label, code, re ? " re " : "",
                  re ? re : "", t);
        free(t);
    }
    return e;
}

void e2e_clear(e2e_client *c)
{
    for (int i = 0; i < c->nq; i++)
        json_decref(c->queue[i]);
    c->nq = 0;
}

void e2e_hello(e2e_client *c, const char *name)
{
    snprintf(c->name, sizeof c->name, "%s", name);
    int id = next_id++;
    e2e_send(c, json_pack("{s:s, s:i, s:s, s:i}", "type", "hello", "version", 1, "name", name, "id",
                          id));
    json_t *w = e2e_expect(c, "welcome", 5000);
    if (w == NULL) {
        char what[1200];
        describe_queue(c, what, sizeof what);
        e2e_die("%s: hello as %s: no welcome; got %s", c->label, name, what);
    }
    const char *token = json_string_value(json_object_get(w, "token"));
    const char *wname = json_string_value(json_object_get(w, "name"));
    REQUIRE(token != NULL && strlen(token) == 64, "%s: welcome has a 64-digit token", c->label);
    for (const char *p = token; *p; p++)
        REQUIRE((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'),
                "%s: the token is hexadecimal: %s", c->label, token);
    REQUIRE(wname && strcmp(wname, name) == 0, "%s: welcome names %s", c->label, name);
    json_t *idv = json_object_get(w, "id");
    CHECK(json_is_integer(idv) && json_integer_value(idv) == id, "%s: welcome echoes the id %d",
          c->label, id);
    CHECK(json_integer_value(json_object_get(w, "version")) == 1, "%s: welcome says version 1",
          c->label);
    snprintf(c->token, sizeof c->token, "%s", token);
    json_decref(w);
    json_t *l = e2e_expect(c, "lobby", 5000);
    REQUIRE(l != NULL, "%s: a lobby follows the welcome", c->label);
    REQUIRE(json_is_array(json_object_get(l, "tables")), "%s: lobby has a tables array", c->label);
    json_decref(l);
}

void e2e_resume(e2e_client *c)
{
    e2e_send(c, json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "token", c->token));
    json_t *w = e2e_expect(c, "welcome", 5000);
    if (w == NULL) {
        char what[1200];
        describe_queue(c, what, sizeof what);
        e2e_die("%s: hello with its token: no welcome; got %s", c->label, what);
    }
    const char *wname = json_string_value(json_object_get(w, "name"));
    const char *token = json_string_value(json_object_get(w, "token"));
    CHECK(wname && strcmp(wname, c->name) == 0, "%s: resumed as %s (got %s)", c->label, c->name,
          wname ? wname : "none");
    CHECK(token && strcmp(token, c->token) == 0, "%s: the resumed session keeps its token",
          c->label);
    json_decref(w);
    /* Taken here, as e2e_hello takes it, so that a later leave or close is
     * not answered by this lobby before the server has seen it. */
    json_t *l = e2e_expect(c, "lobby", 5000);
    REQUIRE(l != NULL, "%s: a lobby follows the resumed welcome", c->label);
    json_decref(l);
}

int e2e_create(e2e_client *c, const char *rules, json_t *extra)
{
    json_t *m = json_pack("{s:s, s:s, s:i}", "type", "create", "rules", rules, "id", next_id++);
    if (extra) {
        json_object_update(m, extra);
        json_decref(extra);
    }
    json_t *sit = json_object_get(m, "sit");
    if (json_is_string(sit))
        c->seat = e2e_seat_parse(json_string_value(sit));
    e2e_send(c, m);
    json_t *r = e2e_expect(c, "created", 5000);
    if (r == NULL) {
        char what[1200];
        describe_queue(c, what, sizeof what);
        e2e_die("%s: create %s: no created; got %s", c->label, rules, what);
    }
    int table = (int)json_integer_value(json_object_get(r, "table"));
    REQUIRE(table > 0, "%s: created names a table", c->label);
    json_decref(r);
    c->table = table;
    return table;
}

void e2e_sit(e2e_client *c, int table, int seat)
{
    char s[2] = {SEATS[seat], 0};
    e2e_send(c, json_pack("{s:s, s:i, s:s}", "type", "sit", "table", table, "seat", s));
    json_t *t = e2e_expect(c, "table", 5000);
    if (t == NULL) {
        char what[1200];
        describe_queue(c, what, sizeof what);
        e2e_die("%s: sit at %d %s: no table; got %s", c->label, table, s, what);
    }
    json_t *you = json_object_get(t, "you");
    const char *ys = json_string_value(json_object_get(you, "seat"));
    CHECK(ys && strcmp(ys, s) == 0, "%s: the table says you are %s", c->label, s);
    json_decref(t);
    c->seat = seat;
    c->table = table;
}

void e2e_kibitz(e2e_client *c, int table, int seat)
{
    char name[4] = {SEATS[seat & 3], 0};
    if (seat == 4)
        snprintf(name, sizeof name, "all");
    e2e_send(c, json_pack("{s:s, s:i, s:s}", "type", "kibitz", "table", table, "seat", name));
    json_t *t = e2e_expect(c, "table", 5000);
    if (t == NULL) {
        char what[1200];
        describe_queue(c, what, sizeof what);
        e2e_die("%s: kibitz %d %s: no table; got %s", c->label, table, name, what);
    }
    json_t *you = json_object_get(t, "you");
    const char *k = json_string_value(json_object_get(you, "kibitz"));
    CHECK(k && strcmp(k, name) == 0, "%s: the table says you kibitz %s", c->label, name);
    json_decref(t);
    c->kibitz = seat;
    c->table = table;
}

/* ------------------------------------------------------------- playing */

const char *e2e_view_str(const json_t *view_msg, const char *key)
{
    return json_string_value(json_object_get(json_object_get(view_msg, "view"), key));
}

long e2e_view_int(const json_t *view_msg, const char *key)
{
    json_t *v = json_object_get(json_object_get(view_msg, "view"), key);
    return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

bool e2e_game_over(const e2e_client *c)
{
    const char *phase = c->view ? e2e_view_str(c->view, "phase") : NULL;
    return phase && strcmp(phase, "over") == 0;
}

bool e2e_to_move(const e2e_client *c)
{
    if (c->view == NULL || c->seat < 0)
        return false;
    const char *tm = e2e_view_str(c->view, "to_move");
    return tm && tm[0] == SEATS[c->seat] && tm[1] == '\0';
}

int e2e_seat_parse(const char *text)
{
    if (text == NULL || text[0] == '\0' || text[1] != '\0')
        return -1;
    const char *p = strchr(SEATS, text[0]);
    return p ? (int)(p - SEATS) : -1;
}

int e2e_card_of(const barbu_rules *rules, const char *text)
{
    if (text == NULL || strlen(text) != 2)
        return -1;
    const char *r = strchr(RANKS + 2, text[0]);
    const char *s = strchr(SUITS, text[1]);
    if (r == NULL || s == NULL || text[0] == '?')
        return -1;
    int rank = (int)(r - RANKS);
    int low = rules ? rules->deck_low : 2;
    if (rank < low)
        return -1;
    return BARBU_CARD((int)(s - SUITS), rank);
}

barbu_cards e2e_cards_json(const json_t *array)
{
    barbu_cards set = 0;
    size_t i;
    json_t *v;
    json_array_foreach(array, i, v)
    {
        int card = e2e_card_of(NULL, json_string_value(v));
        if (card >= 0)
            set |= BARBU_BIT(card);
    }
    return set;
}

json_t *e2e_cards_to_json(barbu_cards cards)
{
    json_t *a = json_array();
    for (int suit = 3; suit >= 0; suit--)
        for (int rank = BARBU_ACE; rank >= 2; rank--)
            if (cards & BARBU_BIT(BARBU_CARD(suit, rank))) {
                char t[3] = {RANKS[rank], SUITS[suit], 0};
                json_array_append_new(a, json_string(t));
            }
    return a;
}

/* Chinese Poker rows from a hand, by a search seeded with the hand, so that
 * the same hand always gets the same rows and the rows are never fouled. */
static json_t *arrange_rows(barbu_cards hand)
{
    barbu_card cards[13];
    int n = 0;
    for (int c = 0; c < 64 && n < 13; c++)
        if (hand & BARBU_BIT(c))
            cards[n++] = (barbu_card)c;
    if (n != 13)
        return NULL;
    barbu_rng rng;
    barbu_rng_seed(&rng, hand);
    barbu_cards back = 0, middle = 0;
    for (int tries = 0; tries < 200000; tries++) {
        for (int i = 12; i > 0; i--) {
            int j = (int)barbu_rng_below(&rng, (uint32_t)i + 1);
            barbu_card t = cards[i];
            cards[i] = cards[j];
            cards[j] = t;
        }
        back = middle = 0;
        for (int i = 0; i < 5; i++)
            back |= BARBU_BIT(cards[i]);
        for (int i = 5; i < 10; i++)
            middle |= BARBU_BIT(cards[i]);
        if (barbu_arrange_check(hand, back, middle, false, NULL, 0) == 0)
            break;
    }
    return json_pack("{s:s, s:o, s:o}", "type", "arrange", "back", e2e_cards_to_json(back),
                     "middle", e2e_cards_to_json(middle));
}

json_t *e2e_choose(const e2e_client *c)
{
    if (!e2e_to_move(c))
        return NULL;
    json_t *legal = json_object_get(c->view, "legal");
    if (json_is_array(legal) && json_array_size(legal) > 0) {
        /* The first legal action; in the bidding the first with the most
         * doubles and redoubles, so that negative contracts are played. */
        size_t best = 0, most = 0, i;
        json_t *v;
        json_array_foreach(legal, i, v)
        {
            size_t n = json_array_size(json_object_get(v, "double")) +
                       json_array_size(json_object_get(v, "redouble"));
            if (n > most) {
                most = n;
                best = i;
            }
        }
        /* Sent back as it came, with its "seat" (docs/protocol.md, act). */
        return json_deep_copy(json_array_get(legal, best));
    }
    const char *phase = e2e_view_str(c->view, "phase");
    if (phase && strcmp(phase, "arrange") == 0) {
        char s[2] = {SEATS[c->seat], 0};
        json_t *hands = json_object_get(json_object_get(c->view, "view"), "hands");
        return arrange_rows(e2e_cards_json(json_object_get(hands, s)));
    }
    return NULL;
}

void e2e_act(e2e_client *c)
{
    json_t *a = e2e_choose(c);
    if (a == NULL) {
        char *t = json_dumps(c->view, JSON_COMPACT);
        e2e_die("%s: to move at %ld with no action to choose: %.600s", c->label, c->at, t);
    }
    c->acted_at = c->at;
    c->act_sent = 0;
    e2e_send(c, json_pack("{s:s, s:o, s:i}", "type", "act", "action", a, "at", (int)c->at));
    /* The latency counts from the send, not from a wait of the pacing. */
    c->act_sent = e2e_now_ms();
}

static const char *to_move_text(const e2e_client *c)
{
    const char *t = e2e_view_str(c->view, "to_move");
    return t ? t : "-";
}

int e2e_new_group(void)
{
    static int groups;
    return ++groups % 64;
}

void e2e_play(e2e_stop_fn stop, void *ctx, int ms)
{
    long deadline = e2e_now_ms() + ms;
    long last_view_time = e2e_now_ms();
    int last_views = -1;
    e2e_halted = NULL;
    memset(e2e_halted_in, 0, sizeof e2e_halted_in);
    for (;;) {
        bool all_done = true, any = false;
        int views = 0;
        for (int i = 0; i < n_clients; i++) {
            e2e_client *c = clients[i];
            /* A player or kibitzer told that its table is served elsewhere
             * follows, when the scenario says how. */
            if (e2e_on_moved && c->ws && ((c->autoplay && c->seat >= 0) || c->kibitz >= 0) &&
                e2e_peek(c, "moved"))
                e2e_on_moved(c);
            if (!c->autoplay || c->seat < 0 || c->ws == NULL)
                continue;
            any = true;
            views += c->views;
            /* An act refused is a failure of the fixed rule or the server. */
            json_t *err = e2e_peek(c, "error");
            if (err) {
                char *t = json_dumps(err, JSON_COMPACT);
                char *v = json_dumps(c->view, JSON_COMPACT);
                e2e_die("%s: the server refused an act of the first legal action: %s\n     "
                        "view: %.1500s",
                        c->label, t, v);
            }
            if (e2e_halted_in[c->group & 63] || e2e_game_over(c))
                continue;
            all_done = false;
            if (c->closed)
                continue;
            if (e2e_to_move(c) && c->at > c->acted_at) {
                if (stop && stop(c, ctx)) {
                    e2e_halted = e2e_halted_in[c->group & 63] = c;
                    continue;
                }
                e2e_act(c);
            }
        }
        if (any && all_done)
            return;
        if (views != last_views) {
            last_views = views;
            last_view_time = e2e_now_ms();
        }
        long now = e2e_now_ms();
        if (now > deadline || now - last_view_time > 15000) {
            char what[2000];
            size_t o = 0;
            for (int i = 0; i < n_clients && o < sizeof what - 100; i++) {
                e2e_client *c = clients[i];
                if (c->seat < 0 || !c->autoplay)
                    continue;
                o += (size_t)snprintf(what + o, sizeof what - o,
                                      " %s(at %ld, to_move %s, acted %ld%s)", c->label, c->at,
                                      c->view ? to_move_text(c) : "?", c->acted_at,
                                      c->closed ? ", closed" : "");
            }
            e2e_die("the game stalls (%s):%s", now > deadline ? "out of time" : "no view for 15 s",
                    what);
        }
        e2e_pump(20);
    }
}

/* ------------------------------------------------------------- actions */

static int seats_of(const json_t *array, uint8_t *bits)
{
    *bits = 0;
    if (array == NULL)
        return 0;
    size_t i;
    json_t *v;
    json_array_foreach(array, i, v)
    {
        int s = e2e_seat_parse(json_string_value(v));
        if (s < 0)
            return -1;
        *bits |= (uint8_t)(1u << s);
    }
    return 0;
}

int e2e_action_parse(const barbu_rules *rules, const json_t *a, int seat, barbu_action *out)
{
    const char *type = json_string_value(json_object_get(a, "type"));
    if (type == NULL)
        return -1;
    static const char *const NAMES[] = {"declare", "bid", "play",   "pass",
                                        "pass_on", "cut", "arrange"};
    int kind = -1;
    for (int i = 0; i < 7; i++)
        if (strcmp(type, NAMES[i]) == 0)
            kind = i;
    if (kind < 0)
        return -1;
    *out = barbu_act(kind, seat);
    switch (kind) {
    case BARBU_ACT_DECLARE: {
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(a, "contracts"), i, v)
        {
            int k = barbu_contract_find(rules, json_string_value(v));
            if (k < 0)
                return -1;
            out->contracts |= (uint16_t)(1u << k);
        }
        const char *trump = json_string_value(json_object_get(a, "trump"));
        if (trump) {
            const char *p = strchr(SUITS, trump[0]);
            if (p == NULL)
                return -1;
            out->trump = (int8_t)(p - SUITS);
        }
        const char *rank = json_string_value(json_object_get(a, "rank"));
        if (rank) {
            const char *p = strchr(RANKS + 2, rank[0]);
            if (p == NULL)
                return -1;
            out->rank = (int8_t)(p - RANKS);
        }
        return 0;
    }
    case BARBU_ACT_BID:
        if (seats_of(json_object_get(a, "double"), &out->doubles) < 0 ||
            seats_of(json_object_get(a, "redouble"), &out->redoubles) < 0)
            return -1;
        return 0;
    case BARBU_ACT_PLAY:
    case BARBU_ACT_PASS_ON:
        out->cards = e2e_cards_json(json_object_get(a, "cards"));
        return 0;
    case BARBU_ACT_ARRANGE:
        out->cards = e2e_cards_json(json_object_get(a, "back"));
        out->middle = e2e_cards_json(json_object_get(a, "middle"));
        return 0;
    default:
        return 0;
    }
}

/* ------------------------------------------------------------- records */

char *e2e_record(e2e_client *c, int table, bool *complete)
{
    int id = next_id++;
    e2e_send(c, json_pack("{s:s, s:i, s:i}", "type", "record", "table", table, "id", id));
    json_t *r = e2e_expect(c, "record", 10000);
    if (r == NULL) {
        char what[1200];
        describe_queue(c, what, sizeof what);
        e2e_check(false, "%s: record of table %d: no answer; got %s", c->label, table, what);
        return NULL;
    }
    CHECK(json_integer_value(json_object_get(r, "id")) == id, "%s: the record echoes its id",
          c->label);
    CHECK(json_integer_value(json_object_get(r, "table")) == table, "%s: the record names table %d",
          c->label, table);
    if (complete)
        *complete = json_is_true(json_object_get(r, "complete"));
    const char *text = json_string_value(json_object_get(r, "text"));
    char *copy = text ? strdup(text) : NULL;
    json_decref(r);
    return copy;
}

char *e2e_record_strip(const char *text, bool names_too)
{
    static const char *const VARYING[] = {"[Event ", "[Date ", "[Site ", "[Time ", NULL};
    static const char *const NAMES[] = {"[North ", "[East ", "[South ", "[West ", NULL};
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    size_t o = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) + 1 : strlen(p);
        bool drop = false;
        for (int i = 0; VARYING[i]; i++)
            drop = drop || strncmp(p, VARYING[i], strlen(VARYING[i])) == 0;
        for (int i = 0; names_too && NAMES[i]; i++)
            drop = drop || strncmp(p, NAMES[i], strlen(NAMES[i])) == 0;
        if (!drop) {
            memcpy(out + o, p, len);
            o += len;
        }
        p += len;
    }
    out[o] = '\0';
    return out;
}

int e2e_record_replay(const char *text, barbu_state *final, barbu_rules *rules, char *why,
                      size_t cap)
{
    barbu_record *rec = NULL;
    barbu_diag diag = {0};
    int err = barbu_record_read(text, strlen(text), &rec, &diag);
    if (err != 0) {
        snprintf(why, cap, "line %d: %s", diag.line, diag.msg);
        return err;
    }
    *rules = *barbu_record_rules(rec);
    err = barbu_record_replay(rec, final, NULL, NULL, &diag);
    if (err != 0)
        snprintf(why, cap, "line %d, deal %d: %s", diag.line, diag.deal, diag.msg);
    final->rules = rules;
    barbu_record_free(rec);
    return err;
}

int e2e_barbu_replay(const char *text)
{
    static int n;
    char path[400], out[400];
    snprintf(path, sizeof path, "%s/replay-%d.txt", tmpdir, ++n);
    snprintf(out, sizeof out, "%s/replay-%d.out", tmpdir, n);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fputs(text, f);
    fclose(f);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execl(barbu_path, barbu_path, "replay", path, (char *)NULL);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

unsigned e2e_hands_seen(const json_t *view_msg)
{
    unsigned seen = 0;
    json_t *hands = json_object_get(json_object_get(view_msg, "view"), "hands");
    for (int k = 0; k < 4; k++) {
        char key[2] = {"NESW"[k], 0};
        if (json_array_size(json_object_get(hands, key)) > 0)
            seen |= 1u << k;
    }
    return seen;
}

int e2e_main(const char *program, int argc, char **argv, const e2e_scenario *scenarios)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s BARBU SCENARIO...\nscenarios:", program);
        for (size_t i = 0; scenarios[i].name != NULL; i++)
            fprintf(stderr, " %s", scenarios[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    e2e_init(argv[1]);
    for (int i = 2; i < argc; i++) {
        size_t k = 0;
        while (scenarios[k].name != NULL && strcmp(scenarios[k].name, argv[i]) != 0)
            k++;
        if (scenarios[k].name == NULL) {
            fprintf(stderr, "%s: no scenario %s\n", program, argv[i]);
            return 2;
        }
        long t0 = e2e_now_ms();
        printf("== %s\n", argv[i]);
        scenarios[k].run();
        printf("== %s: %ld ms\n", argv[i], e2e_now_ms() - t0);
    }
    printf("%d failure%s\n", e2e_failures, e2e_failures == 1 ? "" : "s");
    return e2e_failures ? 1 : 0;
}

bool e2e_stop_mid_trick(const e2e_client *mover, void *ctx)
{
    const e2e_trick_stop *w = ctx;
    const char *phase = e2e_view_str(mover->view, "phase");
    if (phase == NULL || strcmp(phase, "play") != 0 || e2e_view_int(mover->view, "deal") < w->deal)
        return false;
    json_t *trick = json_object_get(json_object_get(mover->view, "view"), "trick");
    size_t n = json_array_size(json_object_get(trick, "cards"));
    return (int)n >= w->min_cards && (int)n <= w->max_cards;
}
