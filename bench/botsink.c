/*
 * botsink.c - tables of computer players only as a sink for the server's
 * workers (issue 21, point 9), measured.
 *
 * Starts `barbu serve` (its default bot threads) and seats one person at a
 * table with three computer players of a level (hard, at the default delay
 * of 600 ms), who times its wait for their three moves: from its act to the
 * view where it is to move again.  Then SESSIONS other sessions each try to
 * create a table of four hard computer players with nobody seated (the
 * attack of the issue: 33 tables), and the person times its wait again.
 * Prints the medians and the worst, and how many tables the server took.
 *
 * usage: bench_botsink BARBU [SESSIONS [ROUNDS [LEVEL]]]   (bench/botsink.sh)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The person's waits for three computer moves, `rounds` of them (rounds at
 * a deal's end, where the order changes, are not counted); returns how
 * many it measured within the window. */
static int measure(e2e_client *p, int rounds, long window_ms, long *waits)
{
    int n = 0;
    long t0 = e2e_now_ms();
    while (n < rounds && e2e_now_ms() - t0 < window_ms && !e2e_game_over(p)) {
        e2e_pump(5);
        if (!(e2e_to_move(p) && p->at > p->acted_at))
            continue;
        long at = p->at, sent = e2e_now_ms();
        e2e_act(p);
        while (e2e_now_ms() - t0 < window_ms && !e2e_game_over(p) &&
               !(e2e_to_move(p) && p->at > at))
            e2e_pump(2);
        if (p->at == at + 4)
            waits[n++] = e2e_now_ms() - sent;
        e2e_clear(p);
    }
    qsort(waits, (size_t)n, sizeof *waits, cmp_long);
    return n;
}

static void report(const char *what, const long *waits, int n)
{
    if (n == 0) {
        printf("botsink: %s: no round measured\n", what);
        return;
    }
    printf("botsink: %s: median %ld ms, best %ld, worst %ld (%d rounds)\n", what, waits[n / 2],
           waits[0], waits[n - 1], n);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_botsink BARBU [SESSIONS [ROUNDS [LEVEL]]]\n");
        return 2;
    }
    int sessions = argc > 2 ? atoi(argv[2]) : 33;
    int rounds = argc > 3 ? atoi(argv[3]) : 8;
    const char *level = argc > 4 ? argv[4] : "hard";
    if (sessions < 0 || sessions > 200 || rounds < 1 || rounds > 64)
        return 2;
    e2e_init(argv[1]);
    e2e_server srv;
    e2e_server_start(&srv, "botsink.db");

    e2e_client *p = e2e_client_new("person", srv.port);
    e2e_hello(p, "Person");
    e2e_create(
        p, "uk",
        json_pack("{s:[s,s,s], s:s, s:s}", "bots", "E", "S", "W", "level", level, "sit", "N"));
    long waits[64];
    int n = measure(p, rounds, 120000, waits);
    report("alone, the person's wait for three computer moves", waits, n);

    e2e_client **sink = calloc((size_t)sessions + 1, sizeof *sink);
    int created = 0, refused = 0;
    for (int i = 0; i < sessions; i++) {
        char name[16];
        snprintf(name, sizeof name, "Sink%d", i);
        sink[i] = e2e_client_new(name, srv.port);
        e2e_hello(sink[i], name);
        e2e_clear(sink[i]);
        e2e_send(sink[i], json_pack("{s:s, s:s, s:[s,s,s,s], s:s}", "type", "create", "rules", "uk",
                                    "bots", "N", "E", "S", "W", "level", "hard"));
        json_t *r = NULL;
        long deadline = e2e_now_ms() + 5000;
        while (r == NULL && e2e_now_ms() < deadline) {
            if ((r = e2e_expect(sink[i], "created", 0)) == NULL)
                r = e2e_expect(sink[i], "error", 0);
            if (r == NULL)
                e2e_pump(20);
        }
        const char *type = r ? json_string_value(json_object_get(r, "type")) : NULL;
        created += type && strcmp(type, "created") == 0;
        refused += type && strcmp(type, "error") == 0;
        json_decref(r);
    }
    printf("botsink: %d sessions asked for a table of four hard computer players: %d created, "
           "%d refused\n",
           sessions, created, refused);
    e2e_pump(3000); /* the sink fills the workers */
    n = measure(p, rounds, 180000, waits);
    report("beside them, the person's wait for three computer moves", waits, n);

    for (int i = 0; i < sessions; i++)
        e2e_client_free(sink[i]);
    free(sink);
    e2e_client_free(p);
    e2e_server_stop(&srv);
    return 0;
}
