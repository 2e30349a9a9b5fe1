/*
 * signin.c - a burst of sign-ins beside running tables: what the password
 * thread costs everybody else.
 *
 * Starts `barbu serve` (its own database), opens N tables of four computer
 * players (uk, a delay of 200 ms), each watched by a kibitz client that also
 * sends `tables` every 150 ms (under the e2e client's pace of 9 messages a second) and measures its
 * round trip: the latency every request on the event loop meets.  After a quiet while it fires the
 * burst: ATTEMPTS sign-ins from CONNS connections, each from its own local
 * address (127.0.9.x, so that the per-address limit of 20 a minute is not
 * what is measured), half with the right password of one of ten registered
 * handles, half with a wrong password for a handle nobody registered (so
 * that the per-handle limit is not reached either; such a sign-in costs
 * the same Argon2id check).  A right password's connection holds a session
 * afterwards, so the next attempt opens a new one, which this program does
 * blocking: round trips in flight meanwhile are left out (their answers
 * waited for this program, not for the server), and counted.  Reports the
 * round trips' p50, p99 and largest
 * before and during the burst, and the sign-ins answered per second.
 *
 * usage: bench_signin BARBU [--tables N] [--attempts N] [--conns N]
 *                          [--quiet-s S]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

typedef struct attacker {
    e2e_client *c;
    char source[32];
    int done, sent;
    bool pending;
    bool signed_in; /* the connection holds a session: a new one is needed */
} attacker;

static double *samples;
static size_t n_samples, cap_samples;
/* The last blocking connect of this program (e2e_client_new_from): a round
 * trip in flight meanwhile is not counted, as its answer waited for us,
 * not for the server. */
static long connect_start, connect_end;
static long excluded;

static void add_sample(double ms)
{
    if (n_samples == cap_samples) {
        cap_samples = cap_samples ? cap_samples * 2 : 4096;
        samples = realloc(samples, cap_samples * sizeof *samples);
        REQUIRE(samples != NULL, "out of memory");
    }
    samples[n_samples++] = ms;
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

/* The watchers' pings: one outstanding a watcher. */
typedef struct watcher {
    e2e_client *c;
    int id;
    long sent, next;
} watcher;

static void ping(watcher *w, int n, long now)
{
    for (int i = 0; i < n; i++) {
        watcher *x = &w[i];
        json_t *l;
        while ((l = e2e_peek(x->c, "lobby")) != NULL) {
            json_t *m = e2e_expect(x->c, "lobby", 0);
            if (x->sent && json_integer_value(json_object_get(m, "id")) == x->id) {
                if (connect_end && x->sent <= connect_end && now >= connect_start)
                    excluded++;
                else
                    add_sample((double)(now - x->sent));
                x->sent = 0;
            }
            json_decref(m);
        }
        /* Views and listed messages are read and dropped. */
        e2e_clear(x->c);
        if (x->sent == 0 && now >= x->next) {
            x->id++;
            x->sent = now;
            x->next = now + 150;
            e2e_send(x->c, json_pack("{s:s, s:i}", "type", "tables", "id", x->id));
        }
    }
}

static void report(const char *what)
{
    qsort(samples, n_samples, sizeof *samples, cmp_double);
    printf("%-16s round trips %6zu  p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%ld left out: "
           "in flight while this program opened a connection)\n",
           what, n_samples, percentile(0.5), percentile(0.99),
           n_samples ? samples[n_samples - 1] : 0.0, excluded);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_signin BARBU [--tables N] [--attempts N] [--conns N] "
                        "[--quiet-s S]\n");
        return 2;
    }
    int tables = 8, attempts = 1000, conns = 50, quiet_s = 10;
    for (int i = 2; i + 1 < argc; i += 2) {
        int v = atoi(argv[i + 1]);
        if (strcmp(argv[i], "--tables") == 0)
            tables = v;
        else if (strcmp(argv[i], "--attempts") == 0)
            attempts = v;
        else if (strcmp(argv[i], "--conns") == 0)
            conns = v;
        else if (strcmp(argv[i], "--quiet-s") == 0)
            quiet_s = v;
    }
    if (tables < 1 || tables > 100 || conns < 1 || conns > 120 || attempts < 1) {
        fprintf(stderr, "bench_signin: 1-100 tables, 1-120 connections\n");
        return 2;
    }
    e2e_init(argv[1]);
    e2e_server srv;
    const char *extra[] = {"--max-bot-tables", "200", NULL};
    e2e_server_start_with(&srv, "signin.db", extra);

    /* Ten registered handles, from two addresses (5 registrations an hour
     * each). */
    for (int k = 0; k < 10; k++) {
        char name[32], source[32];
        snprintf(name, sizeof name, "bench%d", k);
        snprintf(source, sizeof source, "127.0.8.%d", k / 5 + 1);
        e2e_client *r = e2e_client_new_from("register", srv.port, source);
        e2e_send(r, json_pack("{s:s, s:i, s:s, s:s, s:b}", "type", "hello", "version", 1, "name",
                              name, "password", "the right password", "register", 1));
        json_t *w = e2e_expect(r, "welcome", 10000);
        REQUIRE(w != NULL, "registering %s", name);
        json_decref(w);
        e2e_client_free(r);
    }

    watcher *w = calloc((size_t)tables, sizeof *w);
    for (int i = 0; i < tables; i++) {
        char name[32];
        snprintf(name, sizeof name, "watch%d", i);
        w[i].c = e2e_client_new(name, srv.port);
        e2e_hello(w[i].c, name);
        int t =
            e2e_create(w[i].c, "uk",
                       json_pack("{s:[s,s,s,s], s:i}", "bots", "N", "E", "S", "W", "delay", 200));
        e2e_kibitz(w[i].c, t, 0);
        e2e_clear(w[i].c);
    }
    printf("%d tables of computer players (delay 200 ms), each watched by a client that sends "
           "tables every 150 ms\n",
           tables);

    long start = e2e_now_ms();
    while (e2e_now_ms() - start < quiet_s * 1000L) {
        ping(w, tables, e2e_now_ms());
        e2e_pump(5);
    }
    report("before the burst");
    n_samples = 0;

    attacker *a = calloc((size_t)conns, sizeof *a);
    for (int i = 0; i < conns; i++) {
        snprintf(a[i].source, sizeof a[i].source, "127.0.9.%d", i + 1);
        a[i].c = e2e_client_new_from("signin", srv.port, a[i].source);
    }
    int per = (attempts + conns - 1) / conns;
    int answered = 0, welcomes = 0, wrong = 0, busy = 0, limited = 0, other = 0, seq = 0;
    long burst = e2e_now_ms();
    while (answered < attempts && e2e_now_ms() - burst < 600000) {
        long now = e2e_now_ms();
        for (int i = 0; i < conns; i++) {
            attacker *x = &a[i];
            if (x->pending) {
                json_t *r = e2e_peek(x->c, "welcome") ? e2e_expect(x->c, "welcome", 0)
                            : e2e_peek(x->c, "error") ? e2e_expect(x->c, "error", 0)
                                                      : NULL;
                if (r == NULL)
                    continue;
                const char *type = json_string_value(json_object_get(r, "type"));
                const char *code = json_string_value(json_object_get(r, "code"));
                if (strcmp(type, "welcome") == 0) {
                    welcomes++;
                    x->signed_in = true;
                } else if (code && strcmp(code, "bad_password") == 0) {
                    wrong++;
                } else if (code && strcmp(code, "busy") == 0) {
                    busy++;
                } else if (code && strcmp(code, "limit") == 0) {
                    limited++;
                } else {
                    other++;
                }
                json_decref(r);
                x->pending = false;
                x->done++;
                answered++;
            }
            if (x->pending || x->sent >= per || seq >= attempts)
                continue;
            bool right = seq % 2 == 0;
            if (x->signed_in || x->c->closed) {
                e2e_client_free(x->c);
                connect_start = e2e_now_ms();
                x->c = e2e_client_new_from("signin", srv.port, x->source);
                connect_end = e2e_now_ms();
                x->signed_in = false;
            }
            e2e_clear(x->c);
            char name[24];
            if (right)
                snprintf(name, sizeof name, "bench%d", seq / 2 % 10);
            else
                snprintf(name, sizeof name, "nobody%d", seq);
            e2e_send(x->c,
                     json_pack("{s:s, s:i, s:s, s:s}", "type", "hello", "version", 1, "name", name,
                               "password", right ? "the right password" : "a wrong password"));
            x->pending = true;
            x->sent++;
            seq++;
        }
        ping(w, tables, now);
        e2e_pump(2);
    }
    double secs = (double)(e2e_now_ms() - burst) / 1000.0;
    report("during the burst");
    printf("sign-ins: %d answered in %.1f s: %.1f a second (%d welcome, %d bad_password, %d "
           "busy, %d limit, %d other)\n",
           answered, secs, answered / secs, welcomes, wrong, busy, limited, other);
    e2e_server_stop(&srv);
    return answered == attempts ? 0 : 1;
}
