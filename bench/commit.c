/*
 * commit.c - what one action's commit costs, through the store's API.
 *
 * Opens the store a --db value names (store_open: a SQLite file or a
 * PostgreSQL URL), makes a table and appends N actions to it one after the
 * other with action_append, timing each call: the server's loop waits that
 * long for every action a player or a computer player makes.  The first
 * appends warm the connection and the caches and are not counted.
 *
 * With --writers K, K threads each open their own store (on PostgreSQL,
 * their own connection, as K nodes would) and append to their own table at
 * once, so that the commits meet in the database's WAL: the latency each
 * writer sees and the appends per second of all of them together.  A SQLite
 * file has one writer (the server holds it alone, under flock), so
 * --writers is for PostgreSQL only.
 *
 * With --node, each writer first joins as a node (node_join) so that its
 * table's lease is taken at creation and every append is the fenced one
 * (the statement checks the table's epoch): what a node pays over a server
 * alone.
 *
 * usage: bench_commit DB [--n N] [--writers K] [--warmup W] [--node]
 *   DB          a SQLite file (made when missing) or postgresql://...
 *   --n N       appends counted per writer (5000)
 *   --writers K writers at once (1)
 *   --warmup W  appends per writer before the counted ones (100)
 *   --node      join as a node (PostgreSQL only)
 *
 * Prints one line: the median, p99 and largest latency over every counted
 * append of every writer, and the appends per second of all writers.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store.h"

static struct {
    const char *db;
    int n, writers, warmup;
    bool node;
} opt = {NULL, 5000, 1, 100, false};

typedef struct writer {
    pthread_t thread;
    int index;
    store *s;
    int64_t table;
    double *ms; /* opt.n latencies */
    bool failed;
    char error[300];
} writer;

static pthread_barrier_t start_line;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Opens the writer's store and makes its table (before the clock starts). */
static bool writer_open(writer *w)
{
    char err[256];
    w->s = store_open(opt.db, err, sizeof err);
    if (w->s == NULL) {
        /* Not the URL: it may carry a password. */
        snprintf(w->error, sizeof w->error, "could not open the database: %s", err);
        return false;
    }
    if (opt.node) {
        char name[32];
        snprintf(name, sizeof name, "bench%d", w->index);
        if (w->s->ops->node_join == NULL) {
            snprintf(w->error, sizeof w->error,
                     "--node: this store has no nodes (PostgreSQL only)");
            return false;
        }
        /* A minute's lease: the run ends long before it needs renewing. */
        if (w->s->ops->node_join(w->s, name, "ws://127.0.0.1:1/ws", 60000) != 0) {
            snprintf(w->error, sizeof w->error, "node_join: %s", store_error(w->s));
            return false;
        }
    }
    store_table t = {0};
    t.preset = "uk";
    t.house = "";
    t.seed = 12345 + (uint64_t)w->index;
    t.options = "{}";
    t.state = STORE_PLAYING;
    t.created = (int64_t)time(NULL);
    if (w->s->ops->table_create(w->s, &t, &w->table) != 0) {
        snprintf(w->error, sizeof w->error, "table_create: %s", store_error(w->s));
        return false;
    }
    return true;
}

static void *writer_run(void *arg)
{
    writer *w = arg;
    pthread_barrier_wait(&start_line);
    if (w->failed)
        return NULL;
    /* An action line as the server writes it: a card played, a different
     * one each time, so that no two rows are alike. */
    barbu_action a;
    memset(&a, 0, sizeof a);
    a.type = 1;
    a.trump = -1;
    char text[STORE_ACTION_TEXT];
    uint32_t total = (uint32_t)(opt.warmup + opt.n);
    for (uint32_t n = 0; n < total; n++) {
        a.seat = (int8_t)(n % 4);
        a.cards = (barbu_cards)1 << (n % 52);
        store_action_text(&a, text);
        double t0 = now_s();
        int rc = w->s->ops->action_append(w->s, w->table, n, text);
        double t1 = now_s();
        if (rc != 0) {
            snprintf(w->error, sizeof w->error, "action_append %u: %s (%d)", n, store_error(w->s),
                     rc);
            w->failed = true;
            return NULL;
        }
        if ((int)n >= opt.warmup)
            w->ms[n - (uint32_t)opt.warmup] = (t1 - t0) * 1000.0;
    }
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_commit DB [--n N] [--writers K] [--warmup W] [--node]\n");
    exit(2);
}

static int positive(const char *v, int min)
{
    char *end;
    long x = v ? strtol(v, &end, 10) : 0;
    if (v == NULL || *end || x < min || x > 10000000)
        usage();
    return (int)x;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    opt.db = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--node") == 0) {
            opt.node = true;
            continue;
        }
        if (strcmp(a, "--n") == 0)
            opt.n = positive(v, 1);
        else if (strcmp(a, "--writers") == 0)
            opt.writers = positive(v, 1);
        else if (strcmp(a, "--warmup") == 0)
            opt.warmup = positive(v, 0);
        else
            usage();
        i++;
    }
    if (!store_is_pg(opt.db) && (opt.writers > 1 || opt.node)) {
        fprintf(stderr, "bench_commit: a SQLite file has one writer, the server alone: "
                        "--writers and --node are for a postgresql:// database\n");
        return 2;
    }

    writer *w = calloc((size_t)opt.writers, sizeof *w);
    double *all = malloc((size_t)opt.writers * (size_t)opt.n * sizeof *all);
    if (w == NULL || all == NULL) {
        fprintf(stderr, "bench_commit: out of memory\n");
        return 1;
    }
    int status = 0;
    for (int k = 0; k < opt.writers; k++) {
        w[k].index = k;
        w[k].ms = all + (size_t)k * (size_t)opt.n;
        if (!writer_open(&w[k])) {
            fprintf(stderr, "bench_commit: writer %d: %s\n", k, w[k].error);
            status = 1;
            /* The others would only say the same. */
            for (; k < opt.writers; k++)
                w[k].failed = true;
        }
    }
    pthread_barrier_init(&start_line, NULL, (unsigned)opt.writers + 1);
    for (int k = 0; k < opt.writers; k++)
        pthread_create(&w[k].thread, NULL, writer_run, &w[k]);
    /* The clock of the whole run starts when every writer is ready; the
     * warm-up is in it, so the rate counts it too. */
    pthread_barrier_wait(&start_line);
    double t0 = now_s();
    for (int k = 0; k < opt.writers; k++)
        pthread_join(w[k].thread, NULL);
    double wall = now_s() - t0;
    pthread_barrier_destroy(&start_line);
    for (int k = 0; k < opt.writers; k++) {
        if (w[k].failed && w[k].error[0] && status == 0) {
            fprintf(stderr, "bench_commit: writer %d: %s\n", k, w[k].error);
            status = 1;
        }
        store_close(w[k].s);
    }
    if (status == 0) {
        size_t count = (size_t)opt.writers * (size_t)opt.n;
        qsort(all, count, sizeof *all, cmp_double);
        double p50 = all[(count - 1) / 2], p99 = all[(size_t)(0.99 * (double)(count - 1) + 0.5)];
        long appended = (long)opt.writers * (opt.n + opt.warmup);
        printf("%s%s, %d writer%s x %d appends: median %.3f ms, p99 %.3f ms, max %.3f ms; "
               "%.0f appends/s\n",
               store_is_pg(opt.db) ? "postgresql" : "sqlite", opt.node ? " (nodes, fenced)" : "",
               opt.writers, opt.writers == 1 ? "" : "s", opt.n, p50, p99, all[count - 1],
               (double)appended / wall);
    }
    free(all);
    free(w);
    return status;
}
