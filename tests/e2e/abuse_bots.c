/*
 * abuse_bots.c - see abuse.h: the computer players' answer times, tables
 * of computer players only as a sink for the server's workers, and a
 * computer player's move the store refuses (a full disk).
 */
/* prlimit(2) */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "abuse.h"

/* Under the sanitizers the computer players think many times slower, so
 * the checks of times that compare them are looser or left out. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The median of n values (sorts them); -1 for none. */
static long median(long *v, int n)
{
    if (n == 0)
        return -1;
    qsort(v, (size_t)n, sizeof *v, cmp_long);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long msg_at(const json_t *view_msg)
{
    json_t *at = json_object_get(view_msg, "at");
    return json_is_integer(at) ? (long)json_integer_value(at) : -1;
}

/* ------------------------------------------------------------ bot_timing */

#define TIMING_SEED   271828
#define TIMING_DELAY  100 /* below the medium players' release time */
#define TIMING_HOLD   500 /* the release time of a medium player (docs/protocol.md) */
#define TIMING_MAX    400 /* decisions kept */
#define TIMING_WINDOW 30000

/*
 * One person against three medium computer players.  The person times each
 * computer player's decision from the view that starts its turn to the view
 * that carries its action, and follows the game on its own engine from the
 * table's seed (chosen at create) to know which decisions had a single
 * legal action.  The forced decisions must take as long as the others: the
 * times must not tell them apart.
 */
void abuse_bot_timing(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "bot_timing.db");
    e2e_client *p = e2e_client_new("N", srv.port);
    e2e_hello(p, "Timer");
    char seed[24];
    snprintf(seed, sizeof seed, "%d", TIMING_SEED);
    e2e_create(p, "uk",
               json_pack("{s:s, s:[s,s,s], s:s, s:i, s:s}", "seed", seed, "bots", "E", "S", "W",
                         "level", "medium", "delay", TIMING_DELAY, "sit", "N"));
    barbu_rules rules;
    REQUIRE(barbu_rules_preset(&rules, "uk") == 0, "bot_timing: the uk rules");
    barbu_state *st = malloc(sizeof *st);
    REQUIRE(st && barbu_init(st, &rules, TIMING_SEED) == 0, "bot_timing: the game's start");

    long forced[TIMING_MAX], unforced[TIMING_MAX];
    int nf = 0, nu = 0;
    long prev_at = -1, prev_when = 0, t0 = e2e_now_ms();
    bool followed = true;
    while (e2e_now_ms() - t0 < TIMING_WINDOW && (nf < 8 || nu < 30) && nf + nu < TIMING_MAX) {
        e2e_pump(1);
        json_t *v;
        while ((v = e2e_expect(p, "view", 0)) != NULL) {
            long when = e2e_now_ms(), at = msg_at(v);
            json_t *last = json_object_get(v, "last");
            if (last && at == prev_at + 1 && followed) {
                int seat = e2e_seat_parse(json_string_value(json_object_get(last, "seat")));
                barbu_action a, legal[BARBU_MAX_ACTIONS];
                if (seat < 0 || e2e_action_parse(&rules, last, seat, &a) != 0) {
                    followed = false;
                } else {
                    int n = barbu_legal(st, legal, BARBU_MAX_ACTIONS);
                    if (seat != 0 && n == 1 && nf < TIMING_MAX)
                        forced[nf++] = when - prev_when;
                    else if (seat != 0 && n > 1 && nu < TIMING_MAX)
                        unforced[nu++] = when - prev_when;
                    followed = barbu_apply(st, &a) == 0;
                }
            }
            prev_at = at;
            prev_when = when;
            json_decref(v);
        }
        if (e2e_to_move(p) && p->at > p->acted_at && !e2e_game_over(p))
            e2e_act(p);
    }
    CHECK(followed, "bot_timing: the game follows on the engine from the seed (at %ld)", prev_at);
    long mf = median(forced, nf), mu = median(unforced, nu); /* sorted now */
    long lo_f = nf ? forced[0] : -1, lo_u = nu ? unforced[0] : -1;
    e2e_note("bot_timing: %d forced decisions (median %ld ms, %ld..%ld), %d with a choice "
             "(median %ld ms, %ld..%ld)",
             nf, mf, lo_f, nf ? forced[nf - 1] : -1, nu, mu, lo_u, nu ? unforced[nu - 1] : -1);
    REQUIRE(nf >= 4 && nu >= 15,
            "bot_timing: too few decisions to compare (%d forced, %d with a choice)", nf, nu);
    /* A forced decision is held until the fixed release time, like any. */
    CHECK(mf >= TIMING_HOLD - 20,
          "bot_timing: a forced decision is released at the fixed time, %d ms after the turn's "
          "start (median %ld ms, the table's delay is %d ms)",
          TIMING_HOLD, mf, TIMING_DELAY);
    /* This client may read a view late on a busy machine: some slack. */
    CHECK(lo_f >= TIMING_HOLD - 50,
          "bot_timing: no forced decision is released early (the soonest after %ld ms)", lo_f);
    if (!SANITIZED) {
        /* On a loaded machine a think may overrun: the medians still agree. */
        long gap = mu > mf ? mu - mf : mf - mu;
        CHECK(gap <= 25,
              "bot_timing: forced decisions and decisions with a choice take as long (medians "
              "%ld and %ld ms, %ld apart, at most 25)",
              mf, mu, gap);
    } else {
        e2e_note("bot_timing: under the sanitizers the thinks overrun: the medians are not "
                 "compared");
    }
    free(st);
    e2e_client_free(p);
    CHECK(e2e_server_stop(&srv) == 0,
          "the server exits 0 on SIGTERM (no leak under the sanitizers)");
}

/* -------------------------------------------------------------- bot_sink */

#define SINK_TABLES 8

/* Creates a table of four computer players of a level for c (already
 * hello'd); returns the answer: created or error (the caller decrefs). */
static json_t *create_bots_only(e2e_client *c, const char *level)
{
    json_t *m = json_pack("{s:s, s:s, s:[s,s,s,s], s:s, s:i}", "type", "create", "rules", "uk",
                          "bots", "N", "E", "S", "W", "level", level, "delay", 0);
    e2e_clear(c);
    e2e_send(c, m);
    long deadline = e2e_now_ms() + 5000;
    while (e2e_now_ms() < deadline) {
        json_t *r = e2e_expect(c, "created", 0);
        if (r == NULL)
            r = e2e_expect(c, "error", 0);
        if (r)
            return r;
        e2e_pump(20);
    }
    return NULL;
}

static bool is_error(const json_t *m, const char *code)
{
    const char *type = json_string_value(json_object_get(m, "type"));
    const char *got = json_string_value(json_object_get(m, "code"));
    return type && strcmp(type, "error") == 0 && got && strcmp(got, code) == 0;
}

/* The person's wait for three computer moves: from its act to the view
 * where it is to move again, divided by the computer moves between (three
 * in a trick, fewer when a trick's winner or a deal's start changes the
 * order), `rounds` times; three times the median move in ms, or -1 when
 * the window ran out first. */
static long wait_three(e2e_client *p, int rounds, long window_ms, long *worst)
{
    long moves[64];
    int n = 0;
    long t0 = e2e_now_ms();
    *worst = 0;
    while (n < rounds && n < 64 && e2e_now_ms() - t0 < window_ms && !e2e_game_over(p)) {
        e2e_pump(5);
        if (!(e2e_to_move(p) && p->at > p->acted_at))
            continue;
        long at = p->at;
        long sent = e2e_now_ms();
        e2e_act(p);
        while (e2e_now_ms() - t0 < window_ms && !e2e_game_over(p) &&
               !(e2e_to_move(p) && p->at > at))
            e2e_pump(2);
        long bots = p->at - at - 1;
        if (e2e_to_move(p) && bots >= 1) {
            moves[n] = (e2e_now_ms() - sent) / bots;
            *worst = 3 * moves[n] > *worst ? 3 * moves[n] : *worst;
            n++;
        }
        e2e_clear(p);
    }
    return n == rounds ? 3 * median(moves, n) : -1;
}

/*
 * A person plays against three medium computer players and times its wait
 * for their three moves; then other sessions fill the server with tables of
 * four hard computer players and it times the wait again.  The second wait
 * must stay near the first.  One session may make one such table, and the
 * server holds a bounded number of them (--max-bot-tables).
 */
void abuse_bot_sink(void)
{
    e2e_server srv;
    /* Two workers, as on a two-core machine, whatever this one has. */
    e2e_server_start_with(&srv, "bot_sink.db", (const char *[]){"--bot-threads", "2", NULL});

    e2e_client *p = e2e_client_new("person", srv.port);
    e2e_hello(p, "Person");
    e2e_create(p, "uk",
               json_pack("{s:s, s:[s,s,s], s:s, s:i, s:s}", "seed", "4242", "bots", "E", "S", "W",
                         "level", "medium", "delay", 0, "sit", "N"));
    p->group = e2e_new_group();
    long worst0, worst1;
    long before = wait_three(p, 3, 20000, &worst0);
    e2e_note("bot_sink: alone, the person waits %ld ms (median of 3, worst %ld) for three "
             "medium moves",
             before, worst0);
    REQUIRE(before > 0, "bot_sink: the person's game runs");

    /* One session, two tables of computer players only: the second is
     * refused. */
    e2e_client *sink[SINK_TABLES];
    int made = 0;
    sink[0] = e2e_client_new("sink0", srv.port);
    e2e_hello(sink[0], "Sink0");
    json_t *r = create_bots_only(sink[0], "hard");
    CHECK(r && strcmp(json_string_value(json_object_get(r, "type")), "created") == 0,
          "bot_sink: a session creates a table of four hard computer players");
    made += r && !is_error(r, "limit");
    json_decref(r);
    r = create_bots_only(sink[0], "hard");
    const char *text = r ? json_string_value(json_object_get(r, "text")) : NULL;
    CHECK(r && is_error(r, "limit"),
          "bot_sink: the same session's second table of computer players only is refused with "
          "limit (%s)",
          text ? text
          : r  ? "created"
               : "no answer");
    made += r && !is_error(r, "limit");
    json_decref(r);
    for (int i = 1; i < SINK_TABLES; i++) {
        char name[16];
        snprintf(name, sizeof name, "Sink%d", i);
        sink[i] = e2e_client_new(name, srv.port);
        e2e_hello(sink[i], name);
        r = create_bots_only(sink[i], "hard");
        made += r && strcmp(json_string_value(json_object_get(r, "type")), "created") == 0;
        json_decref(r);
    }
    e2e_note("bot_sink: %d tables of four hard computer players run", made);

    long after = wait_three(p, 4, SANITIZED ? 40000 : 25000, &worst1);
    e2e_note("bot_sink: with them, the person waits %ld ms (median of 4, worst %ld)", after,
             worst1);
    long allowed = 2 * before + 1500;
    CHECK(after > 0 && after <= allowed,
          "bot_sink: the person's wait for three computer moves stays near the %ld ms it was "
          "alone (%ld ms, at most %ld)",
          before, after, allowed);
    for (int i = 0; i < SINK_TABLES; i++)
        e2e_client_free(sink[i]);
    e2e_client_free(p);
    CHECK(e2e_server_stop(&srv) == 0,
          "the server exits 0 on SIGTERM (no leak under the sanitizers)");

    /* The server's own bound on tables of computer players only. */
    e2e_server_start_with(&srv, "bot_sink2.db",
                          (const char *[]){"--bot-threads", "2", "--max-bot-tables", "2", NULL});
    int refused = 0, created = 0;
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "Many%d", i);
        e2e_client *c = e2e_client_new(name, srv.port);
        e2e_hello(c, name);
        r = create_bots_only(c, "random");
        created += r && strcmp(json_string_value(json_object_get(r, "type")), "created") == 0;
        refused += r && is_error(r, "limit");
        json_decref(r);
        e2e_client_free(c);
    }
    CHECK(created == 2 && refused == 1,
          "bot_sink: with --max-bot-tables 2, two sessions create such tables and a third is "
          "refused with limit (%d created, %d refused)",
          created, refused);
    CHECK(e2e_server_stop(&srv) == 0,
          "the server exits 0 on SIGTERM (no leak under the sanitizers)");
}

/* ------------------------------------------------------------- disk_full */

#define DISK_DELAY 250

/* Sets the server's file size limit (RLIM_INFINITY lifts it). */
static bool set_fsize(pid_t pid, rlim_t limit)
{
    struct rlimit rl = {.rlim_cur = limit, .rlim_max = limit};
    if (limit != RLIM_INFINITY) {
        struct rlimit old;
        if (prlimit(pid, RLIMIT_FSIZE, NULL, &old) == 0)
            rl.rlim_max = old.rlim_max;
    }
    return prlimit(pid, RLIMIT_FSIZE, &rl, NULL) == 0;
}

/*
 * One person against three random computer players with a delay.  Just as
 * a computer player is to move, the server may write no byte to a file
 * (RLIMIT_FSIZE 0, a disk with no room at all): its move
 * cannot be saved.  The person must hear so, and the game must wait; once
 * the limit is lifted the game goes on, every action in its record.
 */
void abuse_disk_full(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "disk_full.db");
    e2e_client *p = e2e_client_new("N", srv.port);
    e2e_hello(p, "Diskless");
    int table =
        e2e_create(p, "uk",
                   json_pack("{s:s, s:[s,s,s], s:s, s:i, s:s}", "seed", "31337", "bots", "E", "S",
                             "W", "level", "random", "delay", DISK_DELAY, "sit", "N"));
    /* A kibitzer, who will come to watch while the game is held. */
    e2e_client *k = e2e_client_new_from("kibitzer", srv.port, "127.0.0.2");
    e2e_hello(k, "Onlooker");
    /* A few actions in, the person acts; East is to move next. */
    long t0 = e2e_now_ms();
    bool full = false;
    while (e2e_now_ms() - t0 < 20000 && !full) {
        e2e_pump(2);
        if (!(e2e_to_move(p) && p->at > p->acted_at))
            continue;
        long at = p->at;
        e2e_act(p);
        while (e2e_now_ms() - t0 < 20000 && p->at <= at)
            e2e_pump(1);
        const char *tm = e2e_view_str(p->view, "to_move");
        if (at >= 3 && tm && strcmp(tm, "E") == 0) {
            /* No write at all: the checkpoint thread may have reset the
             * WAL, whose next frames then go to its start, inside any
             * size limit short of nothing. */
            REQUIRE(set_fsize(srv.pid, 0),
                    "disk_full: prlimit RLIMIT_FSIZE on the server (root is needed)");
            e2e_note("disk_full: at %ld, East to move: the server may write no file", p->at);
            full = true;
        }
    }
    REQUIRE(full, "disk_full: the person acts with East to move next");
    long stuck_at = p->at;
    e2e_clear(p);

    json_t *n = e2e_expect(p, "notice", 3 * DISK_DELAY + 3000);
    const char *text = n ? json_string_value(json_object_get(n, "text")) : NULL;
    CHECK(text != NULL && strlen(text) > 20,
          "disk_full: the person is told the move could not be saved (%s)",
          text ? text : "no notice");
    char *dump = n ? json_dumps(n, JSON_COMPACT) : NULL;
    e2e_note("disk_full: notice %s", dump ? dump : "none");
    free(dump);
    json_decref(n);
    e2e_pump(3000);
    CHECK(p->at == stuck_at,
          "disk_full: the game waits while the move cannot be saved (at %ld, "
          "then %ld)",
          stuck_at, p->at);
    CHECK(e2e_server_alive(&srv), "disk_full: the server lives on with its disk full");
    e2e_kibitz(k, table, 0);
    json_t *kn = e2e_expect(k, "notice", 3000);
    CHECK(kn != NULL, "disk_full: a kibitzer who comes meanwhile hears why the game is held too");
    json_decref(kn);

    REQUIRE(set_fsize(srv.pid, RLIM_INFINITY), "disk_full: lifting the limit");
    long lifted = e2e_now_ms();
    while (e2e_now_ms() - lifted < 8000 && p->at == stuck_at)
        e2e_pump(10);
    CHECK(p->at > stuck_at,
          "disk_full: once the disk has room the game goes on (at %ld after "
          "%ld ms)",
          p->at, e2e_now_ms() - lifted);
    json_t *ok = e2e_expect(p, "notice", 1000);
    dump = ok ? json_dumps(ok, JSON_COMPACT) : NULL;
    e2e_note("disk_full: then %s", dump ? dump : "no notice");
    free(dump);
    json_decref(ok);

    /* The deal is played to its end: the record of the running game holds
     * it, every action replayed. */
    long deal = e2e_view_int(p->view, "deal");
    p->autoplay = true;
    t0 = e2e_now_ms();
    while (e2e_now_ms() - t0 < 30000 && e2e_view_int(p->view, "deal") == deal) {
        e2e_pump(2);
        if (e2e_to_move(p) && p->at > p->acted_at)
            e2e_act(p);
    }
    REQUIRE(e2e_view_int(p->view, "deal") > deal, "disk_full: the deal ends");
    e2e_clear(p);
    bool complete = true;
    char *record = e2e_record(p, table, &complete);
    REQUIRE(record != NULL, "disk_full: the record of the table");
    barbu_state *st = malloc(sizeof *st);
    barbu_rules rules;
    char why[300] = "";
    int rc = st ? e2e_record_replay(record, st, &rules, why, sizeof why) : -1;
    CHECK(rc == 0, "disk_full: the record replays (%s)", why);
    if (rc == 0)
        CHECK(st->t.deal > deal,
              "disk_full: the record holds the deal of the full disk, to its end (deal %d)",
              (int)st->t.deal);
    free(st);
    free(record);
    e2e_client_free(k);
    e2e_client_free(p);
    CHECK(e2e_server_stop(&srv) == 0,
          "the server exits 0 on SIGTERM (no leak under the sanitizers)");
}
