/*
 * clock.c - the move clock of a table created with one (create's "clock",
 * in seconds).  While the table plays, each person who must act has that
 * long for the action; when it runs out, a computer player of the table's
 * level makes that one action for them, on the computer players' worker
 * threads like any other (bots.c), and the table hears a notice saying
 * what was done.  The next action is the person's own again.
 *
 * The clock starts in full for every action, and stops while the table is
 * paused (a seat empty or its player away): when the game goes on, it
 * starts in full again.  A restart of the server is such a pause, since
 * nobody is connected when it comes back.  A computer player's own turn
 * has no clock.
 *
 * The environment variable BARBU_CLOCK_SCALE (a number above 0, at most 1)
 * shortens every clock by that factor, so that tests need not wait ten
 * seconds a move; it is not part of the protocol (docs/internals.md).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const SEAT_WORDS[4] = {"North", "East", "South", "West"};
static const char *const SUIT_WORDS[4] = {"Clubs", "Diamonds", "Hearts", "Spades"};

/* How long the clocks really run: 1, or BARBU_CLOCK_SCALE for tests. */
static double clock_scale(void)
{
    static double scale = 0;
    if (scale == 0) {
        const char *text = getenv("BARBU_CLOCK_SCALE");
        char *end = NULL;
        double v = text ? strtod(text, &end) : 1;
        scale = text && end != text && *end == '\0' && v > 0 && v <= 1 ? v : 1;
    }
    return scale;
}

/* The seat of the person who must act now, when the table's clock should
 * run for them, else -1. */
static int clock_wanted(const srv_table *t)
{
    if (t->clock <= 0 || !t->started || t->no_game || t->broken || t->store_failing ||
        srv_table_over(t) || srv_table_paused(t))
        return -1;
    int seat = barbu_to_move(&t->state);
    return seat >= 0 && !t->seats[seat].bot ? seat : -1;
}

static void clock_fire(lws_sorted_usec_list_t *sul);

static void arm(srv_table *t, lws_usec_t in_us)
{
    if (t->srv->ctx == NULL || t->srv->stopping)
        return;
    lws_sul_schedule(t->srv->ctx, 0, &t->clock_sul, clock_fire, in_us > 0 ? in_us : 1);
}

void srv_clock_cancel(srv_table *t)
{
    if (t->srv->ctx != NULL)
        lws_sul_cancel(&t->clock_sul);
}

void srv_clocks_stop(srv_server *srv)
{
    for (srv_table *t = srv->tables; t; t = t->next)
        srv_clock_cancel(t);
}

bool srv_clock_update(srv_table *t)
{
    int seat = clock_wanted(t);
    if (seat < 0) {
        if (t->clock_seat < 0)
            return false;
        t->clock_seat = -1;
        srv_clock_cancel(t);
        return true;
    }
    if (seat == t->clock_seat && t->clock_n == t->n)
        return false;
    lws_usec_t run = (lws_usec_t)((double)t->clock * clock_scale() * LWS_US_PER_SEC);
    t->clock_seat = seat;
    t->clock_n = t->n;
    t->clock_due = lws_now_usecs() + run;
    arm(t, run);
    return true;
}

void srv_clock_check(srv_table *t)
{
    if (srv_clock_update(t))
        srv_broadcast_views(t, NULL, NULL);
}

json_t *srv_clock_json(const srv_table *t)
{
    if (t->clock_seat < 0)
        return NULL;
    lws_usec_t left = t->clock_due - lws_now_usecs();
    json_int_t ms = left > 0 ? (json_int_t)(left / LWS_US_PER_MS) : 0;
    return json_pack("{s:I}", barbu_seat_name(t->clock_seat), ms);
}

/* The computer player's choice is its own, seeded by the game and the
 * action, so that a game can be followed again from its record. */
static uint64_t clock_seed(uint64_t seed, uint32_t at, int seat)
{
    barbu_rng rng;
    barbu_rng_seed(&rng,
                   seed ^ (((uint64_t)at << 2 | (uint64_t)seat) * UINT64_C(0xc2b2ae3d27d4eb4f)));
    barbu_rng_next(&rng);
    return barbu_rng_next(&rng);
}

/* The time ran out: a computer player of the table's level thinks for the
 * seat on a worker thread. */
static void clock_fire(lws_sorted_usec_list_t *sul)
{
    srv_table *t = lws_container_of(sul, srv_table, clock_sul);
    srv_server *srv = t->srv;
    if (srv->stopping || srv->bots == NULL)
        return;
    /* The table may have changed without a message (the tick would see to
     * it within a second): the clock is made right first. */
    srv_clock_check(t);
    int seat = t->clock_seat;
    if (seat < 0 || lws_now_usecs() < t->clock_due)
        return;
    /* An earlier seat's computer player is still out (its person acted
     * meanwhile, so its answer will be dropped): look again shortly rather
     * than leave this clock run out with nothing to act. */
    if (t->clock_job) {
        arm(t, LWS_US_PER_SEC / 4);
        return;
    }
    srv_job *job = calloc(1, sizeof *job);
    if (job == NULL) {
        arm(t, LWS_US_PER_SEC);
        return;
    }
    job->table = t->id;
    job->at = t->n;
    job->seat = seat;
    job->seed = clock_seed(t->seed, t->n, seat);
    job->people = true;
    job->clock = true;
    snprintf(job->kind, sizeof job->kind, "%s", t->level);
    job->rules = t->rules;
    barbu_view_of(&t->state, seat, &job->view);
    job->view.rules = &job->rules;
    t->clock_job = true;
    srv_log(srv, "table %lld: the move clock of %s ran out", (long long)t->id,
            barbu_seat_name(seat));
    srv_bots_submit(srv->bots, job);
}

/* Appends like snprintf to buf, which holds *n bytes already. */
static void add(char *buf, size_t cap, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add(char *buf, size_t cap, size_t *n, const char *fmt, ...)
{
    if (*n + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *n, cap - *n, fmt, ap);
    va_end(ap);
    if (k > 0)
        *n = *n + (size_t)k < cap ? *n + (size_t)k : cap - 1;
}

static const char *rank_word(int rank)
{
    static const char *const WORDS[] = {"?", "?", "2",  "3",    "4",     "5",    "6",  "7",
                                        "8", "9", "10", "Jack", "Queen", "King", "Ace"};
    return rank >= 2 && rank <= BARBU_ACE ? WORDS[rank] : "?";
}

/* "the 7 of Spades and the 8 of Spades" */
static void cards_words(barbu_cards cards, char *buf, size_t cap, size_t *n)
{
    int left = barbu_count(cards), done = 0;
    for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--)
        for (int rank = BARBU_ACE; rank >= 2; rank--) {
            barbu_card c = BARBU_CARD(suit, rank);
            if (!(cards & BARBU_BIT(c)))
                continue;
            const char *sep = done == 0 ? "" : done == left - 1 ? " and " : ", ";
            add(buf, cap, n, "%sthe %s of %s", sep, rank_word(rank), SUIT_WORDS[suit]);
            done++;
        }
}

/* "East and South" */
static void seats_words(unsigned seats, char *buf, size_t cap, size_t *n)
{
    int left = __builtin_popcount(seats & 0xfu), done = 0;
    for (int k = 0; k < 4; k++) {
        if (!((seats >> k) & 1))
            continue;
        const char *sep = done == 0 ? "" : done == left - 1 ? " and " : ", ";
        add(buf, cap, n, "%s%s", sep, SEAT_WORDS[k]);
        done++;
    }
}

/* The notice of a timeout: the seat, and what the computer player did for
 * it in words everybody at the table may read.  A card played is public;
 * a Pass-on's and an arrangement's cards are not named. */
static void clock_text(const srv_table *t, const barbu_action *a, char *buf, size_t cap)
{
    const barbu_rules *r = &t->rules;
    const char *who = SEAT_WORDS[a->seat];
    size_t n = 0;
    buf[0] = '\0';
    add(buf, cap, &n, "%s's time ran out: a computer player ", who);
    switch (a->type) {
    case BARBU_ACT_PLAY:
        add(buf, cap, &n, "played ");
        cards_words(a->cards, buf, cap, &n);
        add(buf, cap, &n, " for %s.", who);
        break;
    case BARBU_ACT_PASS:
        add(buf, cap, &n, "passed for %s, who had no card to play to the layout.", who);
        break;
    case BARBU_ACT_DECLARE:
        if (r->game == BARBU_GAME_FIFE) {
            char calls[160];
            barbu_calls_describe(a->contracts, calls, sizeof calls);
            add(buf, cap, &n, "called %s for %s.", calls, who);
            break;
        }
        add(buf, cap, &n, "chose ");
        for (int c = 0, done = 0; c < r->n_contracts; c++)
            if ((a->contracts >> c) & 1)
                add(buf, cap, &n, "%s%s", done++ ? " + " : "", r->contract[c].name);
        if (a->trump >= 0 && a->trump < 4)
            add(buf, cap, &n, " with %s as trumps", SUIT_WORDS[a->trump]);
        if (a->rank >= 2)
            add(buf, cap, &n, " starting from the %ss", rank_word(a->rank));
        add(buf, cap, &n, " for %s.", who);
        break;
    case BARBU_ACT_BID:
        if (a->doubles == 0 && a->redoubles == 0) {
            add(buf, cap, &n, "passed for %s, doubling nobody.", who);
            break;
        }
        if (a->doubles) {
            add(buf, cap, &n, "doubled ");
            seats_words(a->doubles, buf, cap, &n);
        }
        if (a->redoubles) {
            add(buf, cap, &n, "%sredoubled ", a->doubles ? " and " : "");
            seats_words(a->redoubles, buf, cap, &n);
        }
        add(buf, cap, &n, " for %s.", who);
        break;
    case BARBU_ACT_PASS_ON:
        add(buf, cap, &n, "chose %s's Pass-on cards.", who);
        break;
    case BARBU_ACT_CUT:
        add(buf, cap, &n, "cut the Unused Pack for %s.", who);
        break;
    case BARBU_ACT_ARRANGE:
        add(buf, cap, &n, "set %s's rows.", who);
        break;
    default:
        add(buf, cap, &n, "acted for %s.", who);
        break;
    }
}

void srv_clock_answer(srv_table *t, srv_job *job)
{
    srv_server *srv = t->srv;
    t->clock_job = false;
    /* Still the seat's turn in the same place, and still out of time: the
     * person may have acted meanwhile, or the table paused. */
    bool fresh = job->at == t->n && clock_wanted(t) == job->seat && t->clock_seat == job->seat &&
                 t->clock_n == t->n && lws_now_usecs() >= t->clock_due;
    if (!fresh) {
        free(job);
        srv_table_schedule(t);
        return;
    }
    barbu_action a = job->action;
    a.seat = (int8_t)job->seat;
    int err = job->err != 0 ? job->err : barbu_check(&t->state, &a);
    free(job);
    if (err != 0) {
        /* Not in a tight loop: asked again in a while. */
        srv_log(srv, "table %lld: the computer player acting for %s failed: %s", (long long)t->id,
                barbu_seat_name(a.seat), barbu_strerror(err));
        arm(t, 5 * LWS_US_PER_SEC);
        return;
    }
    char text[400];
    clock_text(t, &a, text, sizeof text);
    if (srv_table_commit(t, &a) != 0) {
        /* The store refused it (or the table broke): asked again later,
         * while the person may still act. */
        if (!t->broken && !t->lost)
            arm(t, (lws_usec_t)SRV_STORE_RETRY_MS * LWS_US_PER_MS);
        return;
    }
    srv_log(srv, "table %lld: a computer player acted for %s, whose time ran out", (long long)t->id,
            barbu_seat_name(a.seat));
    srv_broadcast_notice(t, "clock", text);
}
