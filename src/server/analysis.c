/*
 * analysis.c - game analyses for the club (docs/club.md, Analysis): the
 * expert goes through one seat's decisions of a finished game
 * (barbu_analyse_record, include/barbu/analyse.h) on a small pool of
 * threads of their own, apart from the computer players' (bots.c).
 *
 * An analysis takes seconds to minutes of CPU, where a computer player's
 * decision takes milliseconds: sharing the players' threads would hold up
 * the tables.  So the analyses have their own threads (--analyses, default
 * one), each at niceness SRV_ANALYSIS_NICE, so that the kernel gives the
 * loop and the computer players' threads the CPU first; at most
 * --analyses-queued wait for a thread, and beyond that a request is
 * refused (503) rather than held: memory stays bounded whatever is asked.
 * One client address has at most SRV_ANALYSES_ADDR waiting or running
 * (429 beyond), so that one client cannot take the whole queue; the
 * store keeps at most STORE_ANALYSIS_RECORDS analyses of uploaded records
 * (store.h), so that uploads cannot fill the disk either.
 *
 * A job is known by its key ("game:ID" or "record:SHA256HEX"), seat and
 * level, in a map of the loop's: the same request while it waits or runs
 * joins it, and reads its progress (done/total, atomics the thread writes
 * after each decision).  The thread touches only the job's record text,
 * its atomics and, once done, its result; it hands the job back on a done
 * queue and wakes the loop (lws_cancel_service), as bots.c does.  The loop
 * keeps the result in the store (analysis_put: the loop's handle is the
 * one that writes) and serves it from memory for SRV_ANALYSIS_LINGER
 * seconds after, so that a request racing the store's write never starts
 * it again; later requests read it from the store (club_json.c).
 *
 * Stopping sets every job's cancel flag (the analysis polls it between
 * decisions), joins the threads, keeps the analyses that finished since
 * the loop's last drain, and frees every job.
 */
#define _GNU_SOURCE /* syscall(SYS_gettid), for the thread's niceness */
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "analysis_json.h"
#include "barbu/analyse.h"
#include "internal.h"

enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE, JOB_FAILED };

struct srv_analysis_job {
    struct srv_analysis_job *next; /* on the todo or done queue */
    char map_key[SRV_ANALYSIS_KEY_CAP + 32];
    char key[SRV_ANALYSIS_KEY_CAP];
    int seat;
    char level[16];
    char addr[SRV_ADDR_CAP]; /* the client address that asked for it */
    char *record;            /* the record's text: the thread's until the job is done */
    atomic_int state;        /* JOB_*: the thread sets RUNNING, DONE or FAILED */
    atomic_int done;         /* decisions judged so far */
    atomic_int total;        /* decisions to judge (0 until known) */
    atomic_int cancel;       /* set when the server stops */
    char *body;              /* DONE: the analysis's JSON with "status":"done" */
    char error[300];         /* FAILED: why, a sentence */
    bool drained;            /* the loop has taken it from the done queue */
    int64_t finished;        /* srv_now() when the loop took it */
};

struct srv_analyses {
    struct lws_context *ctx;
    pthread_mutex_t lock;
    pthread_cond_t ready;
    srv_analysis_job *todo_head, *todo_tail; /* waiting for a thread */
    srv_analysis_job *done_head, *done_tail; /* for the loop */
    int n_todo, max_todo;
    int idle; /* threads waiting for a job */
    bool stop;
    srv_map jobs; /* the loop's: map_key -> job, from submission to linger's end */
    int n_threads;
    pthread_t threads[];
};

static void push(srv_analysis_job **head, srv_analysis_job **tail, srv_analysis_job *job)
{
    job->next = NULL;
    if (*tail)
        (*tail)->next = job;
    else
        *head = job;
    *tail = job;
}

static srv_analysis_job *pop(srv_analysis_job **head, srv_analysis_job **tail)
{
    srv_analysis_job *job = *head;
    if (job) {
        *head = job->next;
        if (*head == NULL)
            *tail = NULL;
        job->next = NULL;
    }
    return job;
}

static void job_free(srv_analysis_job *job)
{
    if (job == NULL)
        return;
    free(job->record);
    free(job->body);
    free(job);
}

/* ------------------------------------------------------------ the threads */

static void on_progress(void *ctx, int done, int total)
{
    srv_analysis_job *job = ctx;
    atomic_store(&job->total, total);
    atomic_store(&job->done, done);
}

/* fmt has one %s, for detail (cut to fit). */
static void fail(srv_analysis_job *job, const char *fmt, const char *detail)
{
    char cut[160];
    size_t n = strnlen(detail, sizeof cut - 1);
    memcpy(cut, detail, n);
    cut[n] = '\0';
    snprintf(job->error, sizeof job->error, fmt, cut);
    atomic_store(&job->state, JOB_FAILED);
}

/* The analysis of one job, on its thread. */
static void analyse(srv_analysis_job *job)
{
    atomic_store(&job->state, JOB_RUNNING);
    barbu_record *rec = NULL;
    barbu_diag diag;
    memset(&diag, 0, sizeof diag);
    if (barbu_record_read(job->record, strlen(job->record), &rec, &diag) != 0) {
        fail(job, "The record could not be read (%s): the analysis was not made.", diag.msg);
        return;
    }
    atomic_store(&job->total, barbu_analysis_count(rec, job->seat));
    barbu_analysis_opts opts = {
        .level = job->level,
        .seed = SRV_ANALYSIS_SEED,
        .threads = 1,
        .cancel = &job->cancel,
        .progress = on_progress,
        .ctx = job,
    };
    barbu_analysis *a = NULL;
    int rc = barbu_analyse_record(rec, job->seat, &opts, &a);
    if (rc != 0) {
        barbu_record_free(rec);
        fail(job,
             atomic_load(&job->cancel) ? "The analysis was stopped (%s): the server is stopping."
                                       : "The analysis could not be made (%s): tell the server's "
                                         "keeper, as this is a fault of the server.",
             barbu_strerror(rc));
        return;
    }
    char *text = barbu_analysis_json(a, rec);
    barbu_analysis_free(a);
    barbu_record_free(rec);
    json_t *o = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    if (json_is_object(o)) {
        json_object_set_new(o, "status", json_string("done"));
        json_object_set_new(o, "key", json_string(job->key));
    }
    job->body = json_is_object(o) ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(15)) : NULL;
    json_decref(o);
    if (job->body == NULL) {
        fail(job, "The analysis could not be written (%s): try again.", "out of memory");
        return;
    }
    atomic_store(&job->state, JOB_DONE);
}

static void *worker(void *arg)
{
    srv_analyses *an = arg;
    /* Below the loop and the computer players (niceness 0): an analysis
     * takes what CPU they leave (Linux gives each thread its own
     * niceness). */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), SRV_ANALYSIS_NICE);
    /* Named, so that top -H and the tests tell it from the others. */
    pthread_setname_np(pthread_self(), "barbu-analysis");
    pthread_mutex_lock(&an->lock);
    for (;;) {
        srv_analysis_job *job = NULL;
        an->idle++;
        while (!an->stop && (job = pop(&an->todo_head, &an->todo_tail)) == NULL)
            pthread_cond_wait(&an->ready, &an->lock);
        an->idle--;
        if (job == NULL)
            break; /* stopping */
        an->n_todo--;
        pthread_mutex_unlock(&an->lock);
        analyse(job);
        /* The record is read: the loop will not need it. */
        free(job->record);
        job->record = NULL;
        pthread_mutex_lock(&an->lock);
        bool wake = an->done_head == NULL;
        push(&an->done_head, &an->done_tail, job);
        if (wake) {
            pthread_mutex_unlock(&an->lock);
            lws_cancel_service(an->ctx);
            pthread_mutex_lock(&an->lock);
        }
    }
    pthread_mutex_unlock(&an->lock);
    return NULL;
}

/* --------------------------------------------------------------- the loop */

int srv_analyses_start(srv_server *srv)
{
    int threads = srv->opt->analyses;
    if (threads < 0)
        return 0; /* --analyses 0: none */
    if (threads == 0)
        threads = SRV_ANALYSES_DEFAULT;
    srv_analyses *an = calloc(1, sizeof *an + (size_t)threads * sizeof(pthread_t));
    if (an == NULL)
        return -1;
    an->ctx = srv->ctx;
    an->max_todo = srv->opt->analyses_queued < 0    ? 0
                   : srv->opt->analyses_queued == 0 ? SRV_ANALYSES_QUEUED
                                                    : srv->opt->analyses_queued;
    pthread_mutex_init(&an->lock, NULL);
    pthread_cond_init(&an->ready, NULL);
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&an->threads[i], NULL, worker, an) != 0)
            break;
        an->n_threads++;
    }
    srv->analyses = an;
    if (an->n_threads == 0) {
        srv_analyses_stop(srv);
        fprintf(stderr, "barbu serve: cannot start the analyses' threads\n");
        return -1;
    }
    return 0;
}

void srv_analyses_stop(srv_server *srv)
{
    srv_analyses *an = srv->analyses;
    if (an == NULL)
        return;
    pthread_mutex_lock(&an->lock);
    an->stop = true;
    pthread_cond_broadcast(&an->ready);
    pthread_mutex_unlock(&an->lock);
    /* Every job is in the map: the running ones stop at their next
     * decision. */
    for (size_t b = 0; b < an->jobs.n_buckets; b++)
        for (srv_map_entry *e = an->jobs.buckets[b]; e; e = e->next)
            atomic_store(&((srv_analysis_job *)e->value)->cancel, 1);
    for (int i = 0; i < an->n_threads; i++)
        pthread_join(an->threads[i], NULL);
    /* An analysis that finished after the loop's last drain is on the
     * done queue: kept now, as it would have been, rather than lost. */
    srv_analyses_drain(srv);
    for (size_t b = 0; b < an->jobs.n_buckets; b++)
        for (srv_map_entry *e = an->jobs.buckets[b]; e; e = e->next)
            job_free(e->value);
    srv_map_free(&an->jobs);
    pthread_cond_destroy(&an->ready);
    pthread_mutex_destroy(&an->lock);
    free(an);
    srv->analyses = NULL;
}

static void map_key(const char *key, int seat, const char *level, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%d/%s", key, seat, level);
}

void srv_analyses_drain(srv_server *srv)
{
    srv_analyses *an = srv->analyses;
    if (an == NULL)
        return;
    for (;;) {
        pthread_mutex_lock(&an->lock);
        srv_analysis_job *job = pop(&an->done_head, &an->done_tail);
        pthread_mutex_unlock(&an->lock);
        if (job == NULL)
            break;
        job->drained = true;
        job->finished = srv_now();
        if (atomic_load(&job->state) == JOB_DONE) {
            /* Kept, so that it is served without being made again, after
             * a restart too.  When the store refuses, it is still served
             * from memory while it lingers. */
            if (srv->store->ops->analysis_put(srv->store, job->key, job->seat, job->level,
                                              job->body) != 0)
                srv_log(srv,
                        "analysis %s: not kept (%s): served from memory for %d s, then made "
                        "again when asked",
                        job->map_key, store_error(srv->store), SRV_ANALYSIS_LINGER);
            else
                srv_log(srv, "analysis %s: done and kept", job->map_key);
        } else {
            srv_log(srv, "analysis %s: %s", job->map_key, job->error);
        }
    }
}

void srv_analyses_tick(srv_server *srv)
{
    srv_analyses *an = srv->analyses;
    if (an == NULL)
        return;
    int64_t now = srv_now();
    for (size_t b = 0; b < an->jobs.n_buckets; b++) {
        srv_map_entry *e = an->jobs.buckets[b];
        while (e) {
            srv_map_entry *next = e->next;
            srv_analysis_job *job = e->value;
            if (job->drained && now - job->finished >= SRV_ANALYSIS_LINGER) {
                srv_map_del(&an->jobs, job->map_key);
                job_free(job);
            }
            e = next;
        }
    }
}

bool srv_analyses_on(const srv_server *srv)
{
    return srv->analyses != NULL;
}

/* The status of a job that waits or runs: {"status", "done", "total"}. */
static char *status_json(const srv_analysis_job *job)
{
    int state = atomic_load(&job->state);
    json_t *o = json_pack("{s:s, s:s, s:i, s:i}", "status",
                          state == JOB_QUEUED ? "queued" : "running", "key", job->key, "done",
                          atomic_load(&job->done), "total", atomic_load(&job->total));
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

int srv_analyses_find(srv_server *srv, const char *key, int seat, const char *level, bool post,
                      srv_analysis_answer *out)
{
    memset(out, 0, sizeof *out);
    srv_analyses *an = srv->analyses;
    if (an == NULL)
        return 0;
    char mk[sizeof((srv_analysis_job *)0)->map_key];
    map_key(key, seat, level, mk, sizeof mk);
    srv_analysis_job *job = srv_map_get(&an->jobs, mk);
    if (job == NULL)
        return 0;
    /* The thread's state is read before the drained flag's meaning: a job
     * done but not yet drained reads as running (its body is the loop's
     * only once drained). */
    if (!job->drained) {
        out->status = 202;
        out->body = status_json(job);
        return out->body ? 1 : -1;
    }
    if (atomic_load(&job->state) == JOB_DONE) {
        out->status = 200;
        out->body = strdup(job->body);
        return out->body ? 1 : -1;
    }
    /* Failed: a POST tries again (the failure goes); a GET hears why. */
    if (post) {
        srv_map_del(&an->jobs, mk);
        job_free(job);
        return 0;
    }
    out->status = 500;
    snprintf(out->error, sizeof out->error, "%s", job->error);
    return 1;
}

int srv_analyses_submit(srv_server *srv, const char *key, int seat, const char *level, char *record,
                        const char *addr, srv_analysis_answer *out)
{
    memset(out, 0, sizeof *out);
    srv_analyses *an = srv->analyses;
    if (an == NULL) {
        free(record);
        out->status = 503;
        snprintf(out->error, sizeof out->error, "%s",
                 srv->stopping ? "The server is stopping: ask for the analysis again once it is "
                                 "back."
                               : "This server makes no analyses (it was started with --analyses "
                                 "0): ask its keeper, or analyse the record with barbu analyse.");
        return 1;
    }
    /* The same analysis asked again while the store was read: join it. */
    int found = srv_analyses_find(srv, key, seat, level, true, out);
    if (found != 0) {
        free(record);
        return found;
    }
    /* A new analysis: one address may have only so many waiting or
     * running (SRV_ANALYSES_ADDR), so that one client, looping on
     * uploads, cannot fill the queue for everybody else. */
    int mine = 0;
    for (size_t b = 0; b < an->jobs.n_buckets; b++)
        for (srv_map_entry *e = an->jobs.buckets[b]; e; e = e->next) {
            const srv_analysis_job *other = e->value;
            int state = atomic_load(&other->state);
            if (!other->drained && (state == JOB_QUEUED || state == JOB_RUNNING) &&
                strcmp(other->addr, addr) == 0)
                mine++;
        }
    if (mine >= SRV_ANALYSES_ADDR) {
        free(record);
        out->status = 429;
        snprintf(out->error, sizeof out->error,
                 "You already have %d analyses waiting: wait for one to finish.",
                 SRV_ANALYSES_ADDR);
        return 1;
    }
    srv_analysis_job *job = calloc(1, sizeof *job);
    if (job == NULL) {
        free(record);
        return -1;
    }
    snprintf(job->addr, sizeof job->addr, "%s", addr);
    snprintf(job->key, sizeof job->key, "%s", key);
    job->seat = seat;
    snprintf(job->level, sizeof job->level, "%s", level);
    map_key(key, seat, level, job->map_key, sizeof job->map_key);
    job->record = record;
    atomic_init(&job->state, JOB_QUEUED);
    atomic_init(&job->done, 0);
    atomic_init(&job->total, 0);
    atomic_init(&job->cancel, 0);
    /* In the map before any thread may see it: whatever happens next, the
     * map is what srv_analyses_stop frees. */
    if (srv_map_put(&an->jobs, job->map_key, job) != 0) {
        job_free(job);
        return -1;
    }
    pthread_mutex_lock(&an->lock);
    /* A job waits only when no thread is free, and only max_todo wait. */
    bool full = an->n_todo >= an->max_todo + an->idle;
    if (!full) {
        push(&an->todo_head, &an->todo_tail, job);
        an->n_todo++;
        pthread_cond_signal(&an->ready);
    }
    pthread_mutex_unlock(&an->lock);
    if (full) {
        srv_map_del(&an->jobs, job->map_key);
        job_free(job);
        out->status = 503;
        snprintf(out->error, sizeof out->error,
                 "The server is busy with other analyses just now: try again in a minute.");
        return 1;
    }
    srv_log(srv, "analysis %s: queued", job->map_key);
    out->status = 202;
    out->body = status_json(job);
    return out->body ? 1 : -1;
}
