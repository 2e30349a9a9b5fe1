/*
 * bots.c - the computer players think here, on worker threads, never on the
 * event loop.  A job carries a copy of the view (and of the rules it points
 * at), so a worker shares nothing with the loop but the two queues.  The
 * answer goes on the done queue and lws_cancel_service wakes the loop,
 * which picks it up in LWS_CALLBACK_EVENT_WAIT_CANCELLED.
 *
 * Jobs of tables where people sit come first, and the first worker takes
 * no other: tables of computer players only (which anybody can make, and
 * which never wait for a person) may keep every other worker busy, but a
 * person's game never waits behind them.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

struct srv_bots {
    struct lws_context *ctx;
    pthread_mutex_t lock;
    pthread_cond_t ready;
    srv_job *people_head, *people_tail; /* jobs of tables with people */
    srv_job *alone_head, *alone_tail;   /* jobs of tables of computer players only */
    srv_job *done_head, *done_tail;
    bool stop;
    int n_threads;
    struct srv_worker {
        srv_bots *bots;
        bool people_only;
        pthread_t thread;
    } workers[];
};

static void push(srv_job **head, srv_job **tail, srv_job *job)
{
    job->next = NULL;
    if (*tail)
        (*tail)->next = job;
    else
        *head = job;
    *tail = job;
}

static srv_job *pop(srv_job **head, srv_job **tail)
{
    srv_job *job = *head;
    if (job) {
        *head = job->next;
        if (*head == NULL)
            *tail = NULL;
        job->next = NULL;
    }
    return job;
}

/*
 * A seat's own bot keeps what it saw; it chooses with the rng the decision's
 * seed gives it, as a fresh bot did before the seats kept theirs, so that a
 * table rebuilt after a restart plays on as it would have.  A hint's job
 * brings its own bot (hint.c); the clock's jobs think with a fresh bot of
 * their kind.
 */
static void think(srv_job *job)
{
    barbu_bot *bot = job->bot;
    if (bot != NULL)
        barbu_bot_reseed(bot, job->seed);
    else
        bot = barbu_bot_new(job->kind, job->seed);
    if (bot == NULL) {
        job->err = BARBU_EINVAL;
        return;
    }
    job->err = barbu_bot_choose(bot, &job->view, &job->action);
    if (bot != job->bot)
        barbu_bot_free(bot);
}

void srv_job_free(srv_job *job)
{
    if (job == NULL)
        return;
    barbu_bot_free(job->bot);
    free(job);
}

/* The next job this worker may take, or NULL; under the lock. */
static srv_job *next_job(srv_bots *b, const struct srv_worker *w)
{
    srv_job *job = pop(&b->people_head, &b->people_tail);
    if (job == NULL && !w->people_only)
        job = pop(&b->alone_head, &b->alone_tail);
    return job;
}

static void *worker(void *arg)
{
    struct srv_worker *w = arg;
    srv_bots *b = w->bots;
    pthread_mutex_lock(&b->lock);
    for (;;) {
        srv_job *job = NULL;
        while (!b->stop && (job = next_job(b, w)) == NULL)
            pthread_cond_wait(&b->ready, &b->lock);
        if (job == NULL)
            break; /* stopping */
        pthread_mutex_unlock(&b->lock);
        think(job);
        pthread_mutex_lock(&b->lock);
        /* The loop takes every answer at once: wake it for the first. */
        bool wake = b->done_head == NULL;
        push(&b->done_head, &b->done_tail, job);
        pthread_mutex_unlock(&b->lock);
        if (wake)
            lws_cancel_service(b->ctx);
        pthread_mutex_lock(&b->lock);
    }
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

srv_bots *srv_bots_start(struct lws_context *ctx, int threads)
{
    if (threads <= 0) {
        /* At least two, so that one is kept for the tables with people. */
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 2 ? (int)n : 2;
    }
    if (threads > 256)
        threads = 256;
    srv_bots *b = calloc(1, sizeof *b + (size_t)threads * sizeof(struct srv_worker));
    if (b == NULL)
        return NULL;
    b->ctx = ctx;
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->ready, NULL);
    for (int i = 0; i < threads; i++) {
        struct srv_worker *w = &b->workers[i];
        w->bots = b;
        /* With a single worker there is nobody to share with. */
        w->people_only = i == 0 && threads > 1;
        if (pthread_create(&w->thread, NULL, worker, w) != 0)
            break;
        b->n_threads++;
    }
    if (b->n_threads == 0) {
        pthread_cond_destroy(&b->ready);
        pthread_mutex_destroy(&b->lock);
        free(b);
        return NULL;
    }
    return b;
}

int srv_bots_threads(const srv_bots *b)
{
    return b->n_threads;
}

void srv_bots_submit(srv_bots *b, srv_job *job)
{
    pthread_mutex_lock(&b->lock);
    if (job->people)
        push(&b->people_head, &b->people_tail, job);
    else
        push(&b->alone_head, &b->alone_tail, job);
    /* Every worker: the one woken by a signal might not take this kind. */
    pthread_cond_broadcast(&b->ready);
    pthread_mutex_unlock(&b->lock);
}

srv_job *srv_bots_done(srv_bots *b)
{
    pthread_mutex_lock(&b->lock);
    srv_job *job = pop(&b->done_head, &b->done_tail);
    pthread_mutex_unlock(&b->lock);
    return job;
}

void srv_bots_stop(srv_bots *b)
{
    if (b == NULL)
        return;
    pthread_mutex_lock(&b->lock);
    b->stop = true;
    pthread_cond_broadcast(&b->ready);
    pthread_mutex_unlock(&b->lock);
    for (int i = 0; i < b->n_threads; i++)
        pthread_join(b->workers[i].thread, NULL);
    srv_job *job;
    while ((job = pop(&b->people_head, &b->people_tail)) != NULL)
        srv_job_free(job);
    while ((job = pop(&b->alone_head, &b->alone_tail)) != NULL)
        srv_job_free(job);
    while ((job = pop(&b->done_head, &b->done_tail)) != NULL)
        srv_job_free(job);
    pthread_cond_destroy(&b->ready);
    pthread_mutex_destroy(&b->lock);
    free(b);
}
