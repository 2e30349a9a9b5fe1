/*
 * auth.c - registered handles: sign-up, sign-in, tokens, the limits on
 * signing in, register and password.
 *
 * A password is hashed and checked with Argon2id (libsodium's
 * crypto_pwhash_str) on one worker thread of its own, never on the loop:
 * one hash costs about a tenth of a second of a core on purpose
 * (SRV_AUTH_OPSLIMIT, SRV_AUTH_MEMLIMIT in internal.h; docs/internals.md
 * gives the measure).  A
 * job carries copies of what the worker needs; the answer goes on a done
 * queue and lws_cancel_service wakes the loop, as the computer players'
 * do (bots.c).  At most SRV_AUTH_QUEUE jobs wait; beyond, sign-in answers
 * busy.  While a connection's job is out the connection takes no other
 * message; if it closes meanwhile, the job's conn is set to NULL and the
 * answer is dropped.
 *
 * Passwords are wiped (sodium_memzero) from the job once the worker is
 * done with them, and from the decoded message by conn.c.  A token is 256
 * random bits given once to its client; the server and the store keep its
 * BLAKE2b-256 hash only.
 */
#define _GNU_SOURCE /* syscall(SYS_gettid), for the thread's niceness */
#include <pthread.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

enum { AUTH_SIGNIN, AUTH_SIGNUP, AUTH_CLAIM, AUTH_CHANGE };

struct srv_auth_job {
    struct srv_auth_job *next;
    int kind;       /* AUTH_* */
    srv_conn *conn; /* the loop's: NULL once the connection closed */
    uint8_t type;   /* the message answered (PROTO_HELLO, ...) */
    bool has_id;
    int32_t id;
    char name[STORE_NAME_CAP];
    char key[SRV_KEY_CAP];
    char addr[SRV_ADDR_CAP];
    char device[PROTO_DEVICE_MAX + 1];
    bool lobby_chat;
    /* The worker's. */
    char password[PROTO_PASSWORD_BYTES + 1];
    char new_password[PROTO_PASSWORD_BYTES + 1];
    char hash[STORE_HASH_CAP]; /* in: the stored hash ("" for no account); out: the new one */
    bool ok;
};

struct srv_auth {
    struct lws_context *ctx;
    pthread_mutex_t lock;
    pthread_cond_t ready;
    srv_auth_job *head, *tail, *done_head, *done_tail;
    int pending; /* queued or being worked on */
    bool stop;
    pthread_t thread;
    char dummy[crypto_pwhash_STRBYTES]; /* checked for names with no account */
};

/* ------------------------------------------------------------ the worker */

static void push(srv_auth_job **head, srv_auth_job **tail, srv_auth_job *job)
{
    job->next = NULL;
    if (*tail)
        (*tail)->next = job;
    else
        *head = job;
    *tail = job;
}

static srv_auth_job *pop(srv_auth_job **head, srv_auth_job **tail)
{
    srv_auth_job *job = *head;
    if (job) {
        *head = job->next;
        if (*head == NULL)
            *tail = NULL;
    }
    return job;
}

static bool make_hash(const char *password, char out[STORE_HASH_CAP])
{
    char hash[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(hash, password, strlen(password), SRV_AUTH_OPSLIMIT, SRV_AUTH_MEMLIMIT) !=
        0)
        return false;
    snprintf(out, STORE_HASH_CAP, "%s", hash);
    return true;
}

/* A hash of random bytes nobody knows, checked for the names with no
 * account.  Made at the first such sign-in, not at start: its memory
 * (SRV_AUTH_MEMLIMIT) is then only taken by a server that signs players in. */
static void make_dummy(srv_auth *a)
{
    unsigned char secret[32];
    char text[65];
    randombytes_buf(secret, sizeof secret);
    sodium_bin2hex(text, sizeof text, secret, sizeof secret);
    if (crypto_pwhash_str(a->dummy, text, strlen(text), SRV_AUTH_OPSLIMIT, SRV_AUTH_MEMLIMIT) != 0)
        a->dummy[0] = '\0';
    sodium_memzero(text, sizeof text);
    sodium_memzero(secret, sizeof secret);
}

static void work(srv_auth *a, srv_auth_job *job)
{
    switch (job->kind) {
    case AUTH_SIGNIN:
    case AUTH_CHANGE: {
        /* A name with no account costs the same: its answer does not tell
         * whether the name is registered. */
        if (job->hash[0] == '\0' && a->dummy[0] == '\0')
            make_dummy(a);
        const char *hash = job->hash[0] ? job->hash : a->dummy;
        job->ok = crypto_pwhash_str_verify(hash, job->password, strlen(job->password)) == 0 &&
                  job->hash[0] != '\0';
        if (job->ok && job->kind == AUTH_CHANGE)
            job->ok = make_hash(job->new_password, job->hash);
        break;
    }
    default:
        job->ok = make_hash(job->password, job->hash);
        break;
    }
    sodium_memzero(job->password, sizeof job->password);
    sodium_memzero(job->new_password, sizeof job->new_password);
}

static void *worker(void *arg)
{
    srv_auth *a = arg;
    /* Below the loop: under a burst of sign-ins the tables' messages go
     * first and the passwords wait (Linux gives each thread its own
     * niceness). */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), SRV_AUTH_NICE);
    pthread_mutex_lock(&a->lock);
    for (;;) {
        srv_auth_job *job = NULL;
        while (!a->stop && (job = pop(&a->head, &a->tail)) == NULL)
            pthread_cond_wait(&a->ready, &a->lock);
        if (job == NULL)
            break;
        pthread_mutex_unlock(&a->lock);
        work(a, job);
        pthread_mutex_lock(&a->lock);
        bool wake = a->done_head == NULL;
        push(&a->done_head, &a->done_tail, job);
        pthread_mutex_unlock(&a->lock);
        if (wake)
            lws_cancel_service(a->ctx);
        pthread_mutex_lock(&a->lock);
    }
    pthread_mutex_unlock(&a->lock);
    return NULL;
}

srv_auth *srv_auth_start(struct lws_context *ctx)
{
    if (sodium_init() < 0)
        return NULL;
    srv_auth *a = calloc(1, sizeof *a);
    if (a == NULL)
        return NULL;
    a->ctx = ctx;
    pthread_mutex_init(&a->lock, NULL);
    pthread_cond_init(&a->ready, NULL);
    if (pthread_create(&a->thread, NULL, worker, a) != 0) {
        pthread_cond_destroy(&a->ready);
        pthread_mutex_destroy(&a->lock);
        free(a);
        return NULL;
    }
    return a;
}

static void job_free(srv_auth_job *job)
{
    sodium_memzero(job, sizeof *job);
    free(job);
}

void srv_auth_stop(srv_auth *a)
{
    if (a == NULL)
        return;
    pthread_mutex_lock(&a->lock);
    a->stop = true;
    pthread_cond_broadcast(&a->ready);
    pthread_mutex_unlock(&a->lock);
    pthread_join(a->thread, NULL);
    srv_auth_job *job;
    while ((job = pop(&a->head, &a->tail)) != NULL) {
        if (job->conn)
            job->conn->auth_job = NULL;
        job_free(job);
    }
    while ((job = pop(&a->done_head, &a->done_tail)) != NULL) {
        if (job->conn)
            job->conn->auth_job = NULL;
        job_free(job);
    }
    pthread_cond_destroy(&a->ready);
    pthread_mutex_destroy(&a->lock);
    free(a);
}

/* Queues the job for its connection; false when the queue is full (the
 * caller answers busy and frees it). */
static bool submit(srv_server *srv, srv_auth_job *job)
{
    srv_auth *a = srv->auth;
    pthread_mutex_lock(&a->lock);
    bool room = a->pending < srv->auth_queue;
    if (room) {
        a->pending++;
        push(&a->head, &a->tail, job);
        pthread_cond_signal(&a->ready);
    }
    pthread_mutex_unlock(&a->lock);
    if (room) {
        job->conn->auth_job = job;
    }
    return room;
}

void srv_auth_forget_conn(srv_conn *c)
{
    if (c->auth_job) {
        c->auth_job->conn = NULL;
        c->auth_job = NULL;
    }
}

/* ------------------------------------------------------------ the limits */

/* A count within a window of time (the sign-in limits). */
typedef struct window {
    int n;
    int64_t since; /* srv_now() of the window's first event */
} window;

static window *window_get(srv_map *map, const char *key, int64_t now, int length, bool make)
{
    window *w = srv_map_get(map, key);
    if (w && now - w->since >= length) {
        w->n = 0;
        w->since = now;
    }
    if (w == NULL && make) {
        w = calloc(1, sizeof *w);
        if (w == NULL)
            return NULL;
        w->since = now;
        if (srv_map_put(map, key, w) != 0) {
            free(w);
            return NULL;
        }
    }
    return w;
}

static void windows_sweep(srv_map *map, int64_t now, int length)
{
    for (size_t i = 0; i < map->n_buckets; i++) {
        srv_map_entry *e = map->buckets[i];
        while (e) {
            srv_map_entry *next = e->next;
            window *w = e->value;
            if (now - w->since >= length) {
                free(w);
                srv_map_del(map, e->key);
            }
            e = next;
        }
    }
}

static void windows_free(srv_map *map)
{
    for (size_t i = 0; i < map->n_buckets; i++)
        for (srv_map_entry *e = map->buckets[i]; e; e = e->next)
            free(e->value);
    srv_map_free(map);
}

void srv_auth_tick(srv_server *srv)
{
    int64_t now = srv_now();
    windows_sweep(&srv->signin_keys, now, srv->signin_key_window);
    windows_sweep(&srv->signin_addrs, now, srv->signin_addr_window);
    windows_sweep(&srv->signup_addrs, now, srv->signup_addr_window);
    /* Expired tokens are refused when shown; once an hour they are also
     * forgotten, so that the table does not grow with tokens nobody shows. */
    if (now - srv->tokens_swept >= 3600) {
        srv->tokens_swept = now;
        if (srv->store->ops->tokens_expire(srv->store, srv_wall()) != 0)
            srv_log(srv, "store: %s", store_error(srv->store));
    }
}

void srv_auth_free(srv_server *srv)
{
    windows_free(&srv->signin_keys);
    windows_free(&srv->signin_addrs);
    windows_free(&srv->signup_addrs);
}

/* ------------------------------------------------------------- answering */

static void job_error(srv_conn *c, const srv_auth_job *job, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void job_error(srv_conn *c, const srv_auth_job *job, const char *code, const char *fmt, ...)
{
    proto_error err = {0};
    err.code = code;
    err.re = proto_type_name(job->type);
    err.has_id = job->has_id;
    err.id = job->id;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err.text, sizeof err.text, fmt, ap);
    va_end(ap);
    srv_send(c, proto_error_json(&err));
}

static json_t *with_job_id(json_t *reply, const srv_auth_job *job)
{
    if (reply && job->has_id)
        json_object_set_new(reply, "id", json_integer(job->id));
    return reply;
}

static srv_auth_job *job_new(srv_conn *c, const proto_msg *msg, int kind)
{
    srv_auth_job *job = calloc(1, sizeof *job);
    if (job == NULL)
        return NULL;
    job->kind = kind;
    job->conn = c;
    job->type = msg->type;
    job->has_id = msg->has_id;
    job->id = msg->id;
    job->lobby_chat = msg->lobby_chat;
    snprintf(job->device, sizeof job->device, "%s", msg->device);
    snprintf(job->addr, sizeof job->addr, "%s", c->addr);
    memcpy(job->password, msg->password, sizeof job->password);
    memcpy(job->new_password, msg->new_password, sizeof job->new_password);
    return job;
}

/* Makes a token for the account, keeps its hash; 0, or -1 (logged). */
static int issue_token(srv_server *srv, const char *key, char token[PROTO_TOKEN_LEN + 1],
                       char hash[STORE_TOKEN_HASH_LEN + 1], int64_t *expires)
{
    srv_new_token(token);
    store_token_hash(token, hash);
    int64_t now = srv_wall();
    *expires = now + srv->token_life;
    if (srv->store->ops->token_put(srv->store, hash, key, now, *expires) != 0) {
        srv_log(srv, "store: %s", store_error(srv->store));
        return -1;
    }
    return 0;
}

/* Whether a new password is acceptable; refuses with weak_password. */
static bool password_strong(srv_conn *c, const proto_msg *msg, const char *password,
                            const char *name)
{
    size_t n = proto_utf8_count(password);
    if (n < PROTO_PASSWORD_MIN || n > PROTO_PASSWORD_MAX) {
        srv_error(c, msg, "weak_password",
                  "A password is %d to %d characters: choose one of that length (a few words "
                  "make a good one).",
                  PROTO_PASSWORD_MIN, PROTO_PASSWORD_MAX);
        return false;
    }
    if (srv_handle_same_case(password, name)) {
        srv_error(c, msg, "weak_password",
                  "A password may not be the name itself: choose another password.");
        return false;
    }
    return true;
}

/* The per-address limit on attempts (counted here) and the per-handle
 * limit on failures; false after refusing with limit. */
static bool signin_allowed(srv_conn *c, const proto_msg *msg, const char *key)
{
    srv_server *srv = c->srv;
    int64_t now = srv_now();
    window *k = window_get(&srv->signin_keys, key, now, srv->signin_key_window, false);
    if (k && k->n >= srv->signin_key_fails) {
        long wait = (long)(k->since + srv->signin_key_window - now);
        srv_error(c, msg, "limit",
                  "There were %d wrong passwords for this name in the last %d minutes: wait %ld "
                  "seconds, then sign in again.",
                  k->n, srv->signin_key_window / 60, wait > 0 ? wait : 1);
        return false;
    }
    window *a = window_get(&srv->signin_addrs, c->addr, now, srv->signin_addr_window, true);
    if (a == NULL) {
        srv_error(c, msg, "server", "The server is out of memory: try again in a moment.");
        return false;
    }
    if (a->n >= srv->signin_addr_attempts) {
        long wait = (long)(a->since + srv->signin_addr_window - now);
        srv_error(c, msg, "limit",
                  "Your address has tried to sign in %d times in the last %d seconds: wait %ld "
                  "seconds, then try again.",
                  a->n, srv->signin_addr_window, wait > 0 ? wait : 1);
        return false;
    }
    a->n++;
    return true;
}

static bool signup_allowed(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    int64_t now = srv_now();
    window *a = window_get(&srv->signup_addrs, c->addr, now, srv->signup_addr_window, false);
    if (a && a->n >= srv->signup_addr_accounts) {
        long wait = (long)(a->since + srv->signup_addr_window - now);
        srv_error(c, msg, "limit",
                  "Your address has registered %d names in the last hour, the most it may: wait "
                  "%ld seconds, then register again.",
                  a->n, wait > 0 ? wait : 1);
        return false;
    }
    return true;
}

/* The limits count a job as it goes to the password thread, not when it
 * comes back: otherwise many attempts sent at once would all pass the
 * check before the first is counted.  A sign-in counts as a failure until
 * it succeeds (a connection that closes while its password is checked
 * keeps it counted), a sign-up as an account until it fails. */
static void count_submitted(srv_server *srv, const srv_auth_job *job)
{
    int64_t now = srv_now();
    window *k = window_get(&srv->signin_keys, job->key, now, srv->signin_key_window, true);
    if (k)
        k->n++;
    if (job->kind == AUTH_SIGNUP || job->kind == AUTH_CLAIM) {
        window *a = window_get(&srv->signup_addrs, job->addr, now, srv->signup_addr_window, true);
        if (a)
            a->n++;
    }
}

/* A right password: the failures before it are forgiven. */
static void forgive_failures(srv_server *srv, const char *key)
{
    window *k = srv_map_get(&srv->signin_keys, key);
    if (k)
        k->n = 0;
}

/* A sign-up that made no account does not count against its address. */
static void uncount_signup(srv_server *srv, const char *addr)
{
    window *a = srv_map_get(&srv->signup_addrs, addr);
    if (a && a->n > 0)
        a->n--;
}

/* Queues a job whose limits were checked, counting it; false (and the job
 * freed, busy said) when the queue is full. */
static bool submit_counted(srv_conn *c, const proto_msg *msg, srv_auth_job *job);

static void refuse_busy(srv_conn *c, const proto_msg *msg)
{
    srv_error(c, msg, "busy",
              "The server is checking many passwords just now: try again in a few seconds.");
}

static bool submit_counted(srv_conn *c, const proto_msg *msg, srv_auth_job *job)
{
    if (!submit(c->srv, job)) {
        job_free(job);
        refuse_busy(c, msg);
        return false;
    }
    count_submitted(c->srv, job);
    return true;
}

/* ------------------------------------------------------------ hello */

/* Whether a guest may take the handle: not a registered one, nor one that
 * looks like it.  key may come from a name refused for its scripts. */
bool srv_auth_guest_allowed(srv_conn *c, const proto_msg *msg, const char *name, const char *key)
{
    srv_server *srv = c->srv;
    if (key[0] == '\0')
        return true;
    store_account acct;
    int got = srv->store->ops->account_get(srv->store, key, &acct);
    if (got < 0) {
        srv_log(srv, "store: %s", store_error(srv->store));
        srv_error(c, msg, "server",
                  "The server could not read its accounts just now: try again in a moment.");
        return false;
    }
    if (got == 0)
        return true;
    if (srv_handle_same_case(name, acct.name))
        srv_error(c, msg, "registered",
                  "The name %s is registered: sign in with its password, or choose another name.",
                  acct.name);
    else
        srv_error(c, msg, "confusable",
                  "The name %s looks like %s, a registered name: choose a name that looks like "
                  "nobody else's.",
                  name, acct.name);
    return false;
}

void srv_auth_hello(srv_conn *c, const proto_msg *msg, const char *display, const char *key)
{
    srv_server *srv = c->srv;
    if (msg->reg && !password_strong(c, msg, msg->password, display))
        return;
    if (msg->reg && !signup_allowed(c, msg))
        return;
    if (!signin_allowed(c, msg, key))
        return;
    store_account acct;
    int got = srv->store->ops->account_get(srv->store, key, &acct);
    if (got < 0) {
        srv_log(srv, "store: %s", store_error(srv->store));
        srv_error(c, msg, "server",
                  "The server could not read its accounts just now: try again in a moment.");
        return;
    }
    if (msg->reg) {
        if (got > 0) {
            if (srv_handle_same_case(display, acct.name))
                srv_error(c, msg, "name_taken",
                          "The name %s is registered already: sign in with its password, or "
                          "register another name.",
                          acct.name);
            else
                srv_error(c, msg, "confusable",
                          "The name %s looks like %s, a registered name: register a name that "
                          "looks like nobody else's.",
                          display, acct.name);
            return;
        }
        if (srv_map_get(&srv->by_name, key)) {
            srv_error(c, msg, "name_taken",
                      "The name %s is in use by a guest just now: register another name.", display);
            return;
        }
    }
    srv_auth_job *job = job_new(c, msg, msg->reg ? AUTH_SIGNUP : AUTH_SIGNIN);
    if (job == NULL) {
        srv_error(c, msg, "server", "The server is out of memory: try again in a moment.");
        return;
    }
    snprintf(job->name, sizeof job->name, "%s", got > 0 ? acct.name : display);
    snprintf(job->key, sizeof job->key, "%s", key);
    if (got > 0)
        snprintf(job->hash, sizeof job->hash, "%s", acct.hash);
    submit_counted(c, msg, job);
}

/* The end of a sign-in or sign-up: the account's session (taken over from
 * another connection, or new) on this connection, with a new token. */
static void signed_in(srv_conn *c, const srv_auth_job *job, const store_account *acct)
{
    srv_server *srv = c->srv;
    char token[PROTO_TOKEN_LEN + 1], hash[STORE_TOKEN_HASH_LEN + 1];
    int64_t expires;
    if (issue_token(srv, job->key, token, hash, &expires) != 0) {
        job_error(c, job, "server",
                  "You could not be signed in (the server's disk may be full): try again in a "
                  "moment.");
        return;
    }
    srv_session *s = srv_map_get(&srv->by_name, job->key);
    if (s && !s->registered) {
        srv->store->ops->token_forget(srv->store, hash);
        job_error(c, job, "name_taken",
                  "The name %s is in use by a guest just now: try again once the guest has gone.",
                  job->name);
        return;
    }
    bool made = s == NULL;
    if (s == NULL) {
        char id_hash[STORE_TOKEN_HASH_LEN + 1];
        /* The session's own id, the same on every node: the hash of a text
         * given to nobody as a token (a hello whose token hashed to it
         * would find a registered session, which only the account's own
         * tokens reach). */
        srv_registered_id(job->key, id_hash);
        if (srv->store->ops->session_put(srv->store, id_hash, acct->name) != 0 ||
            (s = srv_session_add(srv, id_hash, acct->name)) == NULL) {
            srv_log(srv, "store: %s", store_error(srv->store));
            srv->store->ops->session_forget(srv->store, id_hash);
            srv->store->ops->token_forget(srv->store, hash);
            job_error(c, job, "server",
                      "You could not be signed in (the server's disk may be full): try again in "
                      "a moment.");
            return;
        }
    }
    s->registered = true;
    s->admin = acct->admin || srv_mod_admin_key(srv, job->key);
    srv_session_attach(c, s, job->lobby_chat, job->device, hash);
    srv_log(srv, "connection %llu signs in as %s%s", (unsigned long long)c->id, s->name,
            made ? " (new session)" : "");
    srv_welcome(c, s, token, expires, job->has_id, job->id);
    sodium_memzero(token, sizeof token);
    srv_session_resume(s);
}

static void finish_signin(srv_conn *c, srv_auth_job *job)
{
    srv_server *srv = c->srv;
    if (!job->ok) {
        job_error(c, job, "bad_password",
                  "The name or the password is wrong: check both and sign in again (a guest "
                  "may say hello without a password).");
        return;
    }
    store_account acct;
    int got = srv->store->ops->account_get(srv->store, job->key, &acct);
    if (got <= 0) {
        job_error(c, job, "bad_password",
                  "The name or the password is wrong: check both and sign in again.");
        return;
    }
    if (acct.banned) {
        job_error(c, job, "banned",
                  "The name %s is banned from this server: ask its administrators if you think "
                  "this is a mistake.",
                  acct.name);
        return;
    }
    forgive_failures(srv, job->key);
    signed_in(c, job, &acct);
}

static void finish_signup(srv_conn *c, srv_auth_job *job)
{
    srv_server *srv = c->srv;
    /* Until the account is made, this sign-up does not count. */
    uncount_signup(srv, job->addr);
    if (!job->ok) {
        job_error(c, job, "server", "The password could not be hashed: try again in a moment.");
        return;
    }
    /* Banned while its password was hashed. */
    if (srv_mod_banned_key(srv, job->key)) {
        job_error(c, job, "banned",
                  "The name %s is banned from this server: ask its administrators if you think "
                  "this is a mistake.",
                  job->name);
        return;
    }
    srv_session *other = srv_map_get(&srv->by_name, job->key);
    if (other && other->conn != c) {
        job_error(c, job, "name_taken",
                  "The name %s is in use by somebody else just now: register another name.",
                  job->name);
        return;
    }
    int made = srv->store->ops->account_create(srv->store, job->key, job->name, job->hash);
    if (made < 0) {
        srv_log(srv, "store: %s", store_error(srv->store));
        job_error(c, job, "server",
                  "The account could not be saved (the server's disk may be full): try again in a "
                  "moment.");
        return;
    }
    if (made == 0) {
        job_error(c, job, "name_taken",
                  "The name %s was registered by somebody else a moment ago: register another "
                  "name.",
                  job->name);
        return;
    }
    window *a = window_get(&srv->signup_addrs, job->addr, srv_now(), srv->signup_addr_window, true);
    if (a)
        a->n++;
    forgive_failures(srv, job->key);
    srv_log(srv, "connection %llu registers %s", (unsigned long long)c->id, job->name);
    store_account acct;
    if (srv->store->ops->account_get(srv->store, job->key, &acct) <= 0) {
        job_error(c, job, "server", "The account could not be read back: sign in in a moment.");
        return;
    }
    if (job->kind == AUTH_SIGNUP) {
        signed_in(c, job, &acct);
        return;
    }
    /* register after hello: the guest's session becomes the account's; its
     * guest token stops working (a registered session is reached by its
     * account's tokens only). */
    srv_session *s = c->session;
    if (s == NULL)
        return;
    char token[PROTO_TOKEN_LEN + 1], hash[STORE_TOKEN_HASH_LEN + 1];
    int64_t expires;
    if (issue_token(srv, job->key, token, hash, &expires) != 0) {
        job_error(c, job, "server",
                  "The account is made but no token could be saved: sign in with your password.");
        return;
    }
    s->registered = true;
    s->admin = acct.admin || srv_mod_admin_key(srv, job->key);
    snprintf(c->token_hash, sizeof c->token_hash, "%s", hash);
    srv_send(c, with_job_id(srv_account_json(s, token, expires), job));
    sodium_memzero(token, sizeof token);
    srv_session_registered(s);
}

static void finish_change(srv_conn *c, srv_auth_job *job)
{
    srv_server *srv = c->srv;
    srv_session *s = c->session;
    if (s == NULL)
        return;
    if (!job->ok) {
        job_error(c, job, "bad_password",
                  "The password is wrong: give your present password to change it.");
        return;
    }
    forgive_failures(srv, job->key);
    char token[PROTO_TOKEN_LEN + 1], hash[STORE_TOKEN_HASH_LEN + 1];
    int64_t expires;
    if (srv->store->ops->account_set_hash(srv->store, job->key, job->hash) != 0 ||
        issue_token(srv, job->key, token, hash, &expires) != 0 ||
        srv->store->ops->tokens_forget(srv->store, job->key, hash) != 0) {
        srv_log(srv, "store: %s", store_error(srv->store));
        job_error(c, job, "server",
                  "The password could not be changed (the server's disk may be full): try again "
                  "in a moment.");
        return;
    }
    srv_log(srv, "connection %llu: %s changes the password", (unsigned long long)c->id, s->name);
    snprintf(c->token_hash, sizeof c->token_hash, "%s", hash);
    srv_send(c, with_job_id(srv_account_json(s, token, expires), job));
    sodium_memzero(token, sizeof token);
}

void srv_auth_drain(srv_server *srv)
{
    srv_auth *a = srv->auth;
    if (a == NULL)
        return;
    for (;;) {
        pthread_mutex_lock(&a->lock);
        srv_auth_job *job = pop(&a->done_head, &a->done_tail);
        if (job)
            a->pending--;
        pthread_mutex_unlock(&a->lock);
        if (job == NULL)
            break;
        srv_conn *c = job->conn;
        if (c && !c->closing && !srv->stopping) {
            c->auth_job = NULL;
            switch (job->kind) {
            case AUTH_SIGNIN:
                finish_signin(c, job);
                break;
            case AUTH_CHANGE:
                finish_change(c, job);
                break;
            default:
                finish_signup(c, job);
                break;
            }
        } else {
            if (c)
                c->auth_job = NULL;
            /* Nobody hears the answer, but the limits do: a right password
             * forgives the failure counted when the job went out, and a
             * sign-up that made no account does not count. */
            bool signin = job->kind == AUTH_SIGNIN || job->kind == AUTH_CHANGE;
            if (!signin)
                uncount_signup(srv, job->addr);
            if (job->ok || !signin)
                forgive_failures(srv, job->key);
        }
        job_free(job);
    }
}

/* ------------------------------------------------------- register, password */

void srv_cmd_register(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    srv_session *s = c->session;
    if (s->registered) {
        srv_error(c, msg, "registered",
                  "You are signed in as %s, a registered name already: change its password "
                  "with the password message if you want.",
                  s->name);
        return;
    }
    char display[PROTO_NAME_BYTES + 1], key[SRV_KEY_CAP], why[400];
    if (srv_handle_check(s->name, display, key, why, sizeof why) != 0) {
        srv_error(c, msg, "bad_name",
                  "The name %s cannot be registered: %s Say hello under another name to register "
                  "one.",
                  s->name, why);
        return;
    }
    if (!password_strong(c, msg, msg->password, s->name) || !signup_allowed(c, msg) ||
        !signin_allowed(c, msg, key))
        return;
    store_account acct;
    int got = srv->store->ops->account_get(srv->store, key, &acct);
    if (got != 0) {
        srv_error(c, msg, got < 0 ? "server" : "name_taken",
                  got < 0 ? "The server could not read its accounts just now: try again in a "
                            "moment."
                          : "That name is registered already: say hello under another name to "
                            "register one.");
        return;
    }
    srv_auth_job *job = job_new(c, msg, AUTH_CLAIM);
    if (job == NULL) {
        srv_error(c, msg, "server", "The server is out of memory: try again in a moment.");
        return;
    }
    snprintf(job->name, sizeof job->name, "%s", s->name);
    snprintf(job->key, sizeof job->key, "%s", key);
    submit_counted(c, msg, job);
}

void srv_cmd_password(srv_conn *c, const proto_msg *msg)
{
    srv_server *srv = c->srv;
    srv_session *s = c->session;
    if (!s->registered) {
        srv_error(c, msg, "not_registered",
                  "A guest has no password: register your name first (the register message).");
        return;
    }
    char key[SRV_KEY_CAP];
    srv_handle_key(s->name, key);
    if (!password_strong(c, msg, msg->new_password, s->name) || !signin_allowed(c, msg, key))
        return;
    store_account acct;
    int got = srv->store->ops->account_get(srv->store, key, &acct);
    if (got <= 0) {
        srv_error(c, msg, "server",
                  "The server could not read your account just now: try again in a moment.");
        return;
    }
    srv_auth_job *job = job_new(c, msg, AUTH_CHANGE);
    if (job == NULL) {
        srv_error(c, msg, "server", "The server is out of memory: try again in a moment.");
        return;
    }
    snprintf(job->name, sizeof job->name, "%s", s->name);
    snprintf(job->key, sizeof job->key, "%s", key);
    snprintf(job->hash, sizeof job->hash, "%s", acct.hash);
    submit_counted(c, msg, job);
}

/* ------------------------------------------------------------ tokens */

int srv_auth_token_hello(srv_conn *c, const proto_msg *msg, const char *hash)
{
    srv_server *srv = c->srv;
    char key[SRV_KEY_CAP];
    int64_t expires = 0;
    int got = srv->store->ops->token_get(srv->store, hash, key, &expires);
    if (got < 0) {
        srv_log(srv, "store: %s", store_error(srv->store));
        srv_error(c, msg, "server",
                  "The server could not read its tokens just now: try again in a moment.");
        return -1;
    }
    if (got == 0)
        return 0;
    if (expires <= srv_wall()) {
        srv->store->ops->token_forget(srv->store, hash);
        srv_error(c, msg, "bad_token",
                  "Your sign-in has expired: sign in again with your name and password.");
        return -1;
    }
    store_account acct;
    got = srv->store->ops->account_get(srv->store, key, &acct);
    if (got <= 0) {
        srv_error(c, msg, "bad_token",
                  "That token's account is gone: sign in again, or say hello with a name.");
        return -1;
    }
    if (acct.banned) {
        srv_error(c, msg, "banned",
                  "The name %s is banned from this server: ask its administrators if you think "
                  "this is a mistake.",
                  acct.name);
        return -1;
    }
    if (msg->name[0] && !srv_handle_equal(msg->name, acct.name)) {
        srv_error(c, msg, "bad_name",
                  "This token signs in %s: say hello with the token alone, or with that name.",
                  acct.name);
        return -1;
    }
    srv_session *s = srv_map_get(&srv->by_name, key);
    if (s && !s->registered) {
        srv_error(c, msg, "name_taken",
                  "The name %s is in use by a guest just now: try again in a moment.", acct.name);
        return -1;
    }
    if (s == NULL) {
        char id_hash[STORE_TOKEN_HASH_LEN + 1];
        srv_registered_id(key, id_hash);
        if (srv->store->ops->session_put(srv->store, id_hash, acct.name) != 0 ||
            (s = srv_session_add(srv, id_hash, acct.name)) == NULL) {
            srv_log(srv, "store: %s", store_error(srv->store));
            srv->store->ops->session_forget(srv->store, id_hash);
            srv_error(c, msg, "server",
                      "Your session could not be saved (the server's disk may be full): try "
                      "again in a moment.");
            return -1;
        }
    }
    s->registered = true;
    s->admin = acct.admin || srv_mod_admin_key(srv, key);
    srv_session_attach(c, s, msg->lobby_chat, msg->device, hash);
    srv_log(srv, "connection %llu resumes %s (signed in)", (unsigned long long)c->id, s->name);
    srv_welcome(c, s, msg->token, expires, msg->has_id, msg->id);
    srv_session_resume(s);
    return 1;
}

int srv_auth_revoke(srv_conn *c, bool everywhere)
{
    srv_server *srv = c->srv;
    srv_session *s = c->session;
    if (s == NULL || !s->registered)
        return 0;
    int rc;
    if (everywhere) {
        char key[SRV_KEY_CAP];
        srv_handle_key(s->name, key);
        rc = srv->store->ops->tokens_forget(srv->store, key, NULL);
    } else {
        rc = c->token_hash[0] ? srv->store->ops->token_forget(srv->store, c->token_hash) : 0;
    }
    if (rc != 0)
        srv_log(srv, "store: %s", store_error(srv->store));
    return rc;
}

json_t *srv_account_json(const srv_session *s, const char *token, int64_t expires)
{
    return json_pack("{s:s, s:s, s:s, s:b, s:b, s:I}", "type", "account", "name", s->name, "token",
                     token, "registered", 1, "admin", s->admin ? 1 : 0, "expires",
                     (json_int_t)expires);
}
