/*
 * bots.c - the computer players think here, on worker threads, never on the
 * event loop.  A job carries a copy of the view (and of the rules it points
 * at), so a worker shares nothing with the loop but the two queues.  The
 * answer goes on the done queue and lws_cancel_service wakes the loop,
 * which picks it up in LWS_CALLBACK_EVENT_WAIT_CANCELLED.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

struct srv_bots {
    struct lws_context *ctx;
    pthread_mutex_t lock;
    pthread_cond_t ready;
    srv_job *todo_head, *todo_tail;
    srv_job *done_head, *done_tail;
    bool stop;
    int n_threads;
    pthread_t threads[];
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

static void think(srv_job *job)
{
    barbu_bot *bot = barbu_bot_new(job->kind, job->seed);
    if (bot == NULL) {
        job->err = BARBU_EINVAL;
        return;
    }
    job->err = barbu_bot_choose(bot, &job->view, &job->action);
    barbu_bot_free(bot);
}

static void *worker(void *arg)
{
    srv_bots *b = arg;
    pthread_mutex_lock(&b->lock);
    for (;;) {
        while (!b->stop && b->todo_head == NULL)
            pthread_cond_wait(&b->ready, &b->lock);
        if (b->stop)
            break;
        srv_job *job = pop(&b->todo_head, &b->todo_tail);
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
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if (threads > 256)
        threads = 256;
    srv_bots *b = calloc(1, sizeof *b + (size_t)threads * sizeof(pthread_t));
    if (b == NULL)
        return NULL;
    b->ctx = ctx;
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->ready, NULL);
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&b->threads[i], NULL, worker, b) != 0)
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
    push(&b->todo_head, &b->todo_tail, job);
    pthread_cond_signal(&b->ready);
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
        pthread_join(b->threads[i], NULL);
    srv_job *job;
    while ((job = pop(&b->todo_head, &b->todo_tail)) != NULL)
        free(job);
    while ((job = pop(&b->done_head, &b->done_tail)) != NULL)
        free(job);
    pthread_cond_destroy(&b->ready);
    pthread_mutex_destroy(&b->lock);
    free(b);
}
