/*
 * nodes.c - three `barbu serve` nodes on one PostgreSQL database, end to end
 * (issue 25).  Each scenario makes a fresh database in the tests' private
 * cluster (tests/pg/pg_test.h) and starts nodes a, b and c on it with a
 * lease of 1.5 seconds:
 *
 *   lobby      a table made on one node is listed on the others within a
 *              few seconds, with its changes (a seat taken) and its close;
 *              welcome names the node.
 *   redirect   players who connect to b and c sit at a table of a, are
 *              moved there and play the whole game; a token made on one node
 *              resumes on another and is moved to the table's owner.
 *   kill       a seeded game of four clients and one of a client and three
 *              computer players, both stopped in the middle of a trick on a,
 *              which is SIGKILLed: the clients reconnect to b and c, are
 *              moved to the node that adopted the tables, find their seats
 *              and views as they were, and finish; each record equals the
 *              record of the same seeded game played on one node without a
 *              kill.
 *   partition  a is SIGSTOPped past its lease, another node adopts its table
 *              and the game goes on there; once a is continued, a client
 *              still connected to it that sends an action gets `moved`, not
 *              a view nor an error (though two other players left a while
 *              it was stopped), a kibitzer there is let go too, a lives on,
 *              and the database holds no action a wrote after the adoption.
 *   leak       the leak check (tests/e2e/leak.c) over a game whose players
 *              and kibitzers came from different nodes, moved to the owner,
 *              then moved again to the adopter after a kill.
 *
 * The test client follows `moved` as the spec asks of every client: it
 * closes, connects to the url, says hello with its token and asks again for
 * what it wanted (sit or kibitz; a seated player gets its table by itself).
 * A node that does not answer is skipped for the next one it knows.  A
 * `moved` in the middle of a game (a node that missed its renewals on a
 * busy machine) is followed the same way from e2e_play (e2e_on_moved), so
 * that a slow moment does not fail a scenario that is not about it.
 *
 * Games are short: uk-32 with two deals of No Tricks and two of Trumps (four
 * deals of eight tricks), without doubling.
 */
#include <arpa/inet.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "e2e.h"
#include "pg_test.h"

/* Four deals of eight tricks, the contracts' scores summing to zero over
 * the game as the rules require (-40 a No Tricks, +40 a Trumps). */
#define SHORT_HOUSE                                                                                \
    "doubling = no\nmandatory-doubles = 0\nno-tricks.times = 2\nno-tricks.per-trick = -5\n"        \
    "no-hearts.per-player = 0\nno-queens.per-player = 0\nno-king.per-player = 0\n"                 \
    "no-last-two.per-player = 0\ntrumps.times = 2\ndomino.per-player = 0\n"

#define LEASE   "1.5"
#define N_NODES 3

static const char SEATS[] = "NESW";
static int next_id = 7000;

/* ------------------------------------------------------------ nodes */

typedef struct node {
    char name[2];
    e2e_server srv;
    int port;
    char url[64]; /* its --public-url */
} node;

static node nodes[N_NODES];
static char *db_url; /* the scenario's database */

/* A port free now on the loopback: the node is given it with --listen and
 * in its --public-url, which must be known before it starts. */
static void follow_moved(e2e_client *c);

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0, "socket");
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    REQUIRE(bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
                getsockname(fd, (struct sockaddr *)&a, &len) == 0,
            "a free port on 127.0.0.1");
    close(fd);
    return ntohs(a.sin_port);
}

static void node_start(int k)
{
    node *n = &nodes[k];
    n->name[0] = (char)('a' + k);
    n->name[1] = '\0';
    char listen[32];
    /* The port is free a moment before the node takes it (another program
     * taking it then would stop the test at the node's start). */
    int port = free_port();
    snprintf(listen, sizeof listen, "127.0.0.1:%d", port);
    snprintf(n->url, sizeof n->url, "ws://127.0.0.1:%d/ws", port);
    const char *args[] = {"--listen",     listen, "--db",    db_url, "--node", n->name,
                          "--public-url", n->url, "--lease", LEASE,  NULL};
    e2e_server_start_args(&n->srv, db_url, args);
    n->port = n->srv.port;
    REQUIRE(n->port == port, "node %s listens on the port of its --public-url", n->name);
    e2e_note("node %s: %s (pid %d)", n->name, n->url, (int)n->srv.pid);
}

/* A fresh database and the three nodes on it. */
static void nodes_start(const char *dbname)
{
    e2e_server_logs = true; /* each node's log in its .err, shown on a failure */
    e2e_on_moved = follow_moved;
    db_url = pg_test_db(dbname);
    REQUIRE(db_url != NULL, "a fresh PostgreSQL database %s (is BARBU_TEST_PG set?)", dbname);
    for (int k = 0; k < N_NODES; k++)
        node_start(k);
}

/* Stops the nodes still running: each exits 0 on SIGTERM (a node under the
 * sanitizers, with no report). */
static void nodes_stop(void)
{
    for (int k = 0; k < N_NODES; k++) {
        if (nodes[k].srv.pid <= 0)
            continue;
        int rc = e2e_server_stop(&nodes[k].srv);
        CHECK(rc == 0, "node %s exits 0 on SIGTERM (%d; its log: %s)", nodes[k].name, rc,
              nodes[k].srv.err);
    }
    free(db_url);
    db_url = NULL;
}

static int node_of_url(const char *url)
{
    for (int k = 0; k < N_NODES; k++)
        if (url && strcmp(url, nodes[k].url) == 0)
            return k;
    return -1;
}

/* ------------------------------------------------------------ the database */

static PGconn *db_open(void)
{
    PGconn *c = PQconnectdb(db_url);
    REQUIRE(PQstatus(c) == CONNECTION_OK, "libpq connects to the test database: %s",
            PQerrorMessage(c));
    return c;
}

/* One value of a query with one integer parameter, as text into out ("" for
 * NULL or no row). */
static void db_value(PGconn *c, const char *sql, long param, char *out, size_t cap)
{
    char p[32];
    snprintf(p, sizeof p, "%ld", param);
    const char *params[1] = {p};
    PGresult *r = PQexecParams(c, sql, 1, NULL, params, NULL, NULL, 0);
    REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK, "%s: %s", sql, PQerrorMessage(c));
    snprintf(out, cap, "%s", PQntuples(r) > 0 && !PQgetisnull(r, 0, 0) ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
}

static long db_long(PGconn *c, const char *sql, long param)
{
    char v[64];
    db_value(c, sql, param, v, sizeof v);
    return v[0] ? atol(v) : -1;
}

/* The node that holds a table now, by the database: its index, or -1. */
static int db_owner(PGconn *c, int table)
{
    char owner[32];
    db_value(c, "SELECT owner FROM tables WHERE id = $1", table, owner, sizeof owner);
    for (int k = 0; k < N_NODES; k++)
        if (strcmp(owner, nodes[k].name) == 0)
            return k;
    return -1;
}

/* Waits up to ms for a node other than `from` to take the table over;
 * returns it or -1. */
static int wait_adopted(PGconn *c, int table, int from, int ms)
{
    long deadline = e2e_now_ms() + ms;
    while (e2e_now_ms() < deadline) {
        int k = db_owner(c, table);
        if (k >= 0 && k != from)
            return k;
        e2e_pump(100);
    }
    return -1;
}

/* ------------------------------------------------------------ clients */

static const char *str_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* Every client of the scenario, for follow_moved. */
static e2e_client *known[64];
static int n_known;

static e2e_client *client_at(const char *label, int k, const char *source)
{
    e2e_client *c = e2e_client_new_from(label, nodes[k].port, source);
    if (n_known < (int)(sizeof known / sizeof known[0]))
        known[n_known++] = c;
    return c;
}

static void forget_client(e2e_client *c)
{
    for (int i = 0; i < n_known; i++)
        if (known[i] == c)
            known[i] = known[--n_known];
    e2e_client_free(c);
}

/* hello with a name on a client connected to node k: welcome names the
 * node; the token is kept. */
static void hello_at(e2e_client *c, const char *name, int k)
{
    snprintf(c->name, sizeof c->name, "%s", name);
    e2e_send(c, json_pack("{s:s, s:i, s:s, s:i}", "type", "hello", "version", 1, "name", name, "id",
                          next_id++));
    json_t *w = e2e_expect(c, "welcome", 5000);
    REQUIRE(w != NULL, "%s: hello as %s at node %s: a welcome", c->label, name, nodes[k].name);
    snprintf(c->token, sizeof c->token, "%s", str_of(w, "token"));
    REQUIRE(strlen(c->token) == 64, "%s: welcome has a token", c->label);
    CHECK(strcmp(str_of(w, "node"), nodes[k].name) == 0,
          "%s: welcome at node %s says \"node\": \"%s\" (got \"%s\")", c->label, nodes[k].name,
          nodes[k].name, str_of(w, "node"));
    json_decref(w);
    json_t *l = e2e_expect(c, "lobby", 5000);
    REQUIRE(l != NULL, "%s: a lobby follows the welcome", c->label);
    json_decref(l);
}

/* Takes the first queued message of any of these types, waiting up to ms;
 * NULL when none came. */
static json_t *expect_any(e2e_client *c, const char *const *types, int ms)
{
    long deadline = e2e_now_ms() + ms;
    for (;;) {
        for (int i = 0; i < c->nq; i++) {
            const char *t = str_of(c->queue[i], "type");
            for (int k = 0; types[k]; k++) {
                if (strcmp(t, types[k]) == 0) {
                    json_t *m = c->queue[i];
                    memmove(c->queue + i, c->queue + i + 1,
                            (size_t)(c->nq - i - 1) * sizeof *c->queue);
                    c->nq--;
                    return m;
                }
            }
        }
        long left = deadline - e2e_now_ms();
        if (left <= 0 || c->closed || c->ws == NULL)
            return NULL;
        e2e_pump(left < 50 ? (int)left : 50);
    }
}

/* Connects c to node k afresh (its old connection dropped): false when the
 * node does not answer (killed, or stopped). */
static bool connect_to(e2e_client *c, int k)
{
    wsc_free(c->ws);
    c->ws = NULL;
    e2e_clear(c);
    char err[200];
    wsc_options opt = {c->source[0] ? c->source : NULL, NULL};
    c->ws = wsc_connect_with("127.0.0.1", nodes[k].port, "/ws", &opt, 3000, err, sizeof err);
    c->closed = c->ws == NULL;
    c->bye[0] = '\0';
    c->acted_at = -1;
    if (c->ws)
        c->port = nodes[k].port;
    return c->ws != NULL;
}

/* What a client asks for at each node it reaches (a seated player asks for
 * nothing: its table comes back by itself after welcome). */
typedef struct ask {
    const char *type; /* "sit", "kibitz" or NULL */
    int seat;         /* 0-3, 4 for every hand (kibitz) */
} ask;

/* The summary of a journey: the moves followed, the nodes they named, and
 * where it ended. */
typedef struct journey {
    int moves;
    int moved_to[8]; /* the nodes named by each move, -1 for none */
    int landed;      /* the node where the table came, -1 */
} journey;

static void send_ask(e2e_client *c, const ask *a, int table)
{
    char seat[4] = {SEATS[a->seat & 3], 0};
    if (a->seat == 4)
        snprintf(seat, sizeof seat, "all");
    e2e_send(c, json_pack("{s:s, s:i, s:s}", "type", a->type, "table", table, "seat", seat));
}

/* The state of the table as the last `table` message reach took says. */
static char reached_state[16];

/* Brings c to the table at its owner, starting at node k: connects, resumes
 * the session with its token, asks again for what it wants, follows every
 * `moved` to the node it names, tries again a second later when the move
 * names none, and tries the next node when one does not answer.  For up to
 * ms.  Returns the node where the table came (its `table` message taken),
 * or -1. */
static int reach(e2e_client *c, int k, const ask *a, int table, int ms, journey *j)
{
    journey local;
    if (j == NULL)
        j = &local;
    memset(j, 0, sizeof *j);
    j->landed = -1;
    long deadline = e2e_now_ms() + ms;
    while (e2e_now_ms() < deadline) {
        if (!connect_to(c, k)) {
            e2e_note("%s: node %s does not answer: the next one", c->label, nodes[k].name);
            k = (k + 1) % N_NODES;
            e2e_pump(200);
            continue;
        }
        e2e_send(c, json_pack("{s:s, s:i, s:s, s:i}", "type", "hello", "version", 1, "token",
                              c->token, "id", next_id++));
        const char *const hello_answers[] = {"welcome", "error", NULL};
        json_t *w = expect_any(c, hello_answers, 5000);
        if (w == NULL || strcmp(str_of(w, "type"), "welcome") != 0) {
            char *t = w ? json_dumps(w, JSON_COMPACT) : NULL;
            CHECK(false, "%s: hello with its token at node %s: a welcome (got %s)", c->label,
                  nodes[k].name, t ? t : "nothing");
            free(t);
            json_decref(w);
            return -1;
        }
        CHECK(strcmp(str_of(w, "name"), c->name) == 0 && strcmp(str_of(w, "token"), c->token) == 0,
              "%s: its token resumes its session at node %s (as %s)", c->label, nodes[k].name,
              str_of(w, "name"));
        if (strcmp(str_of(w, "node"), nodes[k].name) != 0)
            CHECK(false, "%s: welcome at node %s names it (got \"%s\")", c->label, nodes[k].name,
                  str_of(w, "node"));
        json_decref(w);
        if (a && a->type)
            send_ask(c, a, table);
        const char *const answers[] = {"table", "moved", "error", NULL};
        json_t *m = expect_any(c, answers, 5000);
        const char *type = m ? str_of(m, "type") : "";
        if (strcmp(type, "table") == 0) {
            snprintf(reached_state, sizeof reached_state, "%s", str_of(m, "state"));
            json_decref(m);
            c->table = table;
            j->landed = k;
            return k;
        }
        if (strcmp(type, "moved") == 0) {
            CHECK(json_integer_value(json_object_get(m, "table")) == table,
                  "%s: moved names table %d", c->label, table);
            const char *url = json_string_value(json_object_get(m, "url"));
            int to = url ? node_of_url(url) : -1;
            if (j->moves < 8)
                j->moved_to[j->moves] = to;
            j->moves++;
            e2e_note("%s: at node %s, moved to %s", c->label, nodes[k].name,
                     url ? url : "(no node holds it now)");
            if (url && to < 0) {
                CHECK(false, "%s: moved names the url of a node (%s)", c->label, url);
                json_decref(m);
                return -1;
            }
            json_decref(m);
            if (to < 0)
                e2e_pump(1000); /* as a client does: again in a second */
            else
                k = to;
            continue;
        }
        char *t = m ? json_dumps(m, JSON_COMPACT) : NULL;
        CHECK(false, "%s: at node %s, %s table %d: the table or moved (got %s)", c->label,
              nodes[k].name, a && a->type ? a->type : "back at", table, t ? t : "nothing");
        free(t);
        json_decref(m);
        return -1;
    }
    CHECK(false, "%s: reaches table %d within %d ms", c->label, table, ms);
    return -1;
}

static int node_of_port(int port)
{
    for (int k = 0; k < N_NODES; k++)
        if (nodes[k].port == port)
            return k;
    return -1;
}

static void follow_one(e2e_client *c)
{
    json_t *m = e2e_expect(c, "moved", 0);
    const char *url = json_string_value(json_object_get(m, "url"));
    int k = url ? node_of_url(url) : node_of_port(c->port);
    e2e_note("%s: moved during the game, to %s", c->label, url ? url : "(no node now)");
    json_decref(m);
    if (url == NULL)
        e2e_pump(1000);
    ask a = {c->seat >= 0 ? NULL : "kibitz", c->kibitz};
    REQUIRE(reach(c, k >= 0 ? k : 1, &a, c->table, 20000, NULL) >= 0,
            "%s: follows moved back to table %d", c->label, c->table);
    /* The view of the node it reached, before anybody acts on the old one. */
    json_decref(e2e_expect(c, "view", 5000));
}

static bool must_follow(e2e_client *d)
{
    return d->ws && ((d->autoplay && d->seat >= 0) || d->kibitz >= 0) && e2e_peek(d, "moved");
}

/* Whether the latest `table` message queued on c says the game plays. */
static bool table_playing(e2e_client *c)
{
    for (int i = c->nq - 1; i >= 0; i--)
        if (strcmp(str_of(c->queue[i], "type"), "table") == 0)
            return strcmp(str_of(c->queue[i], "state"), "playing") == 0;
    return false;
}

/* e2e_play's answer to a `moved` in the middle of a game (a node that lost
 * a lease on a busy machine, say): the client follows, as every client
 * does.  The node that let the table go told everybody at once, so the
 * others follow too before anyone acts, and the players wait until the
 * table plays again (it is paused until they are all back, and an act
 * there would be refused). */
static void follow_moved(e2e_client *c)
{
    e2e_pump(200);
    follow_one(c);
    for (int i = 0; i < n_known; i++)
        if (known[i] != c && must_follow(known[i]))
            follow_one(known[i]);
    if (strcmp(reached_state, "playing") == 0)
        return;
    for (long t = e2e_now_ms(); e2e_now_ms() - t < 5000 && !table_playing(c);)
        e2e_pump(50);
}

/* c, connected and in the lobby of some node, sits at (or kibitzes) a table
 * that node a holds: it is moved there (when not at a already), follows, and
 * lands at a. */
static void join_at_a(e2e_client *c, int from, int table, const char *type, int seat)
{
    ask a = {type, seat};
    if (from == 0) {
        if (strcmp(type, "sit") == 0)
            e2e_sit(c, table, seat);
        else
            e2e_kibitz(c, table, seat);
        return;
    }
    {
        send_ask(c, &a, table);
        const char *const answers[] = {"table", "moved", "error", NULL};
        json_t *m = expect_any(c, answers, 5000);
        char *t = m ? json_dumps(m, JSON_COMPACT) : NULL;
        CHECK(m && strcmp(str_of(m, "type"), "moved") == 0 &&
                  json_integer_value(json_object_get(m, "table")) == table &&
                  strcmp(str_of(m, "url"), nodes[0].url) == 0,
              "%s: %s at node %s for a table of node a: moved with a's url %s (got %s)", c->label,
              type, nodes[from].name, nodes[0].url, t ? t : "nothing");
        free(t);
        json_decref(m);
    }
    int k = reach(c, 0, &a, table, 10000, NULL);
    REQUIRE(k == 0, "%s: %s at table %d on node a", c->label, type, table);
    if (strcmp(type, "sit") == 0)
        c->seat = seat;
    else
        c->kibitz = seat;
}

/* ------------------------------------------------------------ games */

typedef struct game {
    e2e_client *p[4];
    e2e_client *kib_seat, *kib_all; /* or NULL */
    int table;
    char seed[24];
    int group;
} game;

static json_t *short_table(const char *seed, const char *kibitz)
{
    return json_pack("{s:s, s:s, s:i, s:s, s:s, s:s}", "house", SHORT_HOUSE, "seed", seed, "delay",
                     0, "level", "easy", "kibitz", kibitz, "sit", "N");
}

/* Four clients PREFIX-N .. PREFIX-W, first connected to nodes at[0..3],
 * sit at a new table of node a (North creates it there, so at[0] is a);
 * those of other nodes are moved to a.  With kibitzers: one of East from
 * node kib[0], one of every hand from node kib[1], from addresses of their
 * own (a player's address may not watch its table). */
static void four_at_a(game *g, const char *prefix, const char *seed, const int at[4],
                      const int *kib, bool logging)
{
    memset(g, 0, sizeof *g);
    snprintf(g->seed, sizeof g->seed, "%s", seed);
    g->group = e2e_new_group();
    for (int s = 0; s < 4; s++) {
        char name[24];
        snprintf(name, sizeof name, "%s-%c", prefix, SEATS[s]);
        g->p[s] = client_at(name, at[s], NULL);
        g->p[s]->logging = logging;
        g->p[s]->group = g->group;
        hello_at(g->p[s], name, at[s]);
    }
    REQUIRE(at[0] == 0, "the creator is at node a");
    g->table = e2e_create(g->p[0], "uk-32", short_table(seed, kib ? "all" : "seat"));
    json_t *t = e2e_expect(g->p[0], "table", 5000);
    REQUIRE(t != NULL, "%s: create with sit sends the table", g->p[0]->label);
    json_decref(t);
    if (kib) {
        const char *src[2] = {"127.0.0.2", "127.0.0.3"};
        const char *what[2] = {"kibE", "kibAll"};
        e2e_client **who[2] = {&g->kib_seat, &g->kib_all};
        for (int i = 0; i < 2; i++) {
            char label[24];
            snprintf(label, sizeof label, "%s-%s", prefix, what[i]);
            e2e_client *c = client_at(label, kib[i], src[i]);
            c->logging = logging;
            hello_at(c, label, kib[i]);
            join_at_a(c, kib[i], g->table, "kibitz", i == 0 ? 1 : 4);
            *who[i] = c;
        }
    }
    for (int s = 1; s < 4; s++)
        join_at_a(g->p[s], at[s], g->table, "sit", s);
    for (int s = 0; s < 4; s++)
        g->p[s]->autoplay = true;
}

/* Four clients of one node at a table there (the reference games). */
static void four_at(game *g, int k, const char *prefix, const char *seed)
{
    memset(g, 0, sizeof *g);
    g->group = e2e_new_group();
    for (int s = 0; s < 4; s++) {
        char name[24];
        snprintf(name, sizeof name, "%s-%c", prefix, SEATS[s]);
        g->p[s] = client_at(name, k, NULL);
        g->p[s]->group = g->group;
        hello_at(g->p[s], name, k);
    }
    g->table = e2e_create(g->p[0], "uk-32", short_table(seed, "seat"));
    json_decref(e2e_expect(g->p[0], "table", 5000));
    for (int s = 1; s < 4; s++)
        e2e_sit(g->p[s], g->table, s);
    for (int s = 0; s < 4; s++)
        g->p[s]->autoplay = true;
}

/* One client at North of node k against three easy computer players. */
static e2e_client *bots_at(int k, const char *name, const char *seed, int *table)
{
    e2e_client *c = client_at(name, k, NULL);
    hello_at(c, name, k);
    json_t *f = short_table(seed, "seat");
    json_object_set_new(f, "bots", json_pack("[s,s,s]", "E", "S", "W"));
    *table = e2e_create(c, "uk-32", f);
    json_decref(e2e_expect(c, "table", 5000));
    c->group = e2e_new_group();
    c->autoplay = true;
    return c;
}

/* Halts at the first action from a given point on. */
static bool stop_at(const e2e_client *mover, void *ctx)
{
    return mover->at >= *(const long *)ctx;
}

/* Waits until the four players' views are all at one action. */
static void settle_views(game *g, long at)
{
    for (long t = e2e_now_ms(); e2e_now_ms() - t < 5000;) {
        bool all = true;
        for (int s = 0; s < 4; s++)
            all = all && g->p[s]->at == at;
        if (all)
            return;
        e2e_pump(20);
    }
}

static json_t *view_totals(const e2e_client *c)
{
    return json_object_get(json_object_get(c->view, "view"), "totals");
}

/* The record of a finished table, asked of c: complete, replayed to the end
 * and to the totals of c's last view.  Returns it (malloc'd) or NULL. */
static char *final_record(e2e_client *c, int table, const char *what)
{
    bool complete = false;
    char *text = e2e_record(c, table, &complete);
    if (!CHECK(text != NULL, "%s: the record of the finished game", what))
        return NULL;
    CHECK(complete, "%s: the record says it is complete", what);
    barbu_state st;
    barbu_rules rules;
    char why[300] = "";
    int rc = e2e_record_replay(text, &st, &rules, why, sizeof why);
    CHECK(rc == 0, "%s: the record replays (%s)", what, why);
    if (rc == 0) {
        json_t *tot = view_totals(c);
        bool same = json_array_size(tot) == 4;
        for (int s = 0; s < 4 && same; s++)
            same = json_integer_value(json_array_get(tot, (size_t)s)) == st.t.total[s];
        CHECK(barbu_over(&st) && same,
              "%s: the record replays to the end of the game and the last view's totals", what);
    }
    return text;
}

/* Two records the same but for the tags that differ between tables (Event,
 * Date, Site, Time) and the players' names. */
static void same_records(const char *a, const char *b, const char *what)
{
    if (!CHECK(a != NULL && b != NULL, "%s: both records came", what))
        return;
    char *sa = e2e_record_strip(a, true), *sb = e2e_record_strip(b, true);
    bool same = strcmp(sa, sb) == 0;
    CHECK(same, "%s: the record equals the one of the same seeded game played on one node", what);
    if (!same) {
        const char *x = sa, *y = sb;
        int line = 1;
        while (*x && *x == *y) {
            if (*x == '\n')
                line++;
            x++, y++;
        }
        e2e_note("first difference at line %d: \"%.60s\" vs \"%.60s\"", line, x, y);
    }
    free(sa);
    free(sb);
}

/* Every client of a game back at its table after its node went away,
 * starting from the nodes given: all land at one node, the adopter, with
 * the view they had.  Returns the adopter. */
static int back_at_adopter(e2e_client **cl, const int *from, const ask *asks, int n, int table,
                           const char *what)
{
    json_t *saved[8];
    long saved_at[8];
    for (int i = 0; i < n; i++) {
        saved[i] = cl[i]->view ? json_deep_copy(json_object_get(cl[i]->view, "view")) : NULL;
        saved_at[i] = cl[i]->at;
    }
    int adopter = -1;
    for (int i = 0; i < n; i++) {
        e2e_client *c = cl[i];
        int k = reach(c, from[i], &asks[i], table, 25000, NULL);
        REQUIRE(k > 0, "%s: %s is back at table %d on another node", what, c->label, table);
        if (adopter < 0)
            adopter = k;
        CHECK(k == adopter, "%s: %s lands at node %s, where the others are (%s)", what, c->label,
              nodes[k].name, nodes[adopter].name);
        json_t *v = e2e_expect(c, "view", 5000);
        CHECK(v && json_integer_value(json_object_get(v, "at")) == saved_at[i],
              "%s: %s gets a view at %ld from node %s", what, c->label, saved_at[i], nodes[k].name);
        CHECK(v && saved[i] && json_equal(json_object_get(v, "view"), saved[i]),
              "%s: %s's view is the one it had before", what, c->label);
        json_decref(v);
        json_decref(saved[i]);
    }
    return adopter;
}

/* ------------------------------------------------------------ lobby */

/* Waits up to ms for a `listed` of table id on c for which pred holds. */
static json_t *expect_listed(e2e_client *c, int table, bool (*pred)(const json_t *), int ms)
{
    long deadline = e2e_now_ms() + ms;
    while (e2e_now_ms() < deadline) {
        json_t *m = e2e_expect(c, "listed", (int)(deadline - e2e_now_ms()));
        if (m == NULL)
            break;
        json_t *t = json_object_get(m, "table");
        if (json_integer_value(json_object_get(t, "id")) == table && (pred == NULL || pred(t)))
            return m;
        json_decref(m);
    }
    return NULL;
}

static bool north_taken(const json_t *summary)
{
    json_t *n = json_array_get(json_object_get(summary, "seats"), 0);
    return strcmp(str_of(n, "name"), "lb-N") == 0;
}

static bool east_taken(const json_t *summary)
{
    json_t *e = json_array_get(json_object_get(summary, "seats"), 1);
    return strcmp(str_of(e, "name"), "lb-E") == 0;
}

static bool closed_seen(e2e_client *c, int table, int ms)
{
    long deadline = e2e_now_ms() + ms;
    while (e2e_now_ms() < deadline) {
        json_t *m = e2e_expect(c, "closed", (int)(deadline - e2e_now_ms()));
        if (m == NULL)
            return false;
        bool it = json_integer_value(json_object_get(m, "table")) == table;
        json_decref(m);
        if (it)
            return true;
    }
    return false;
}

/* Whether a fresh lobby at node k lists the table. */
static bool lobby_lists(int k, int table, const char *label)
{
    e2e_client *c = client_at(label, k, NULL);
    e2e_hello(c, label);
    e2e_send(c, json_pack("{s:s}", "type", "tables"));
    json_t *l = e2e_expect(c, "lobby", 5000);
    bool found = false;
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(l, "tables"), i, t) found =
        found || json_integer_value(json_object_get(t, "id")) == table;
    json_decref(l);
    forget_client(c);
    return found;
}

static void scenario_lobby(void)
{
    nodes_start("nodes_lobby");
    e2e_client *lob[N_NODES];
    for (int k = 0; k < N_NODES; k++) {
        char name[16];
        snprintf(name, sizeof name, "lobby-%c", (char)('a' + k));
        lob[k] = client_at(name, k, NULL);
        hello_at(lob[k], name, k);
    }
    /* A table made on a, nobody seated. */
    int table = e2e_create(lob[0], "uk-32", json_pack("{s:s}", "house", SHORT_HOUSE));
    e2e_note("table %d made on node a", table);
    for (int k = 1; k < N_NODES; k++) {
        long t0 = e2e_now_ms();
        json_t *m = expect_listed(lob[k], table, NULL, 8000);
        CHECK(m != NULL, "lobby: the table made on a is listed to node %s's lobby (%ld ms)",
              nodes[k].name, e2e_now_ms() - t0);
        CHECK(m && strcmp(str_of(json_object_get(m, "table"), "rules"), "uk-32") == 0 &&
                  strcmp(str_of(json_object_get(m, "table"), "state"), "waiting") == 0,
              "lobby: its summary at node %s says uk-32, waiting", nodes[k].name);
        json_decref(m);
        CHECK(lobby_lists(k, table, k == 1 ? "late-b" : "late-c"),
              "lobby: a lobby asked of node %s lists the table of node a", nodes[k].name);
    }

    /* A seat taken at a, by a player of a, then one by a player of c. */
    e2e_client *north = client_at("lb-N", 0, NULL);
    hello_at(north, "lb-N", 0);
    e2e_sit(north, table, 0);
    for (int k = 1; k < N_NODES; k++) {
        json_t *m = expect_listed(lob[k], table, north_taken, 8000);
        CHECK(m != NULL, "lobby: node %s's lobby hears that lb-N took North at a", nodes[k].name);
        json_decref(m);
    }
    e2e_client *east = client_at("lb-E", 2, NULL);
    hello_at(east, "lb-E", 2);
    join_at_a(east, 2, table, "sit", 1);
    for (int k = 1; k < N_NODES; k++) {
        json_t *m = expect_listed(lob[k], table, east_taken, 8000);
        CHECK(m != NULL, "lobby: node %s's lobby hears that lb-E (of node c) took East at a",
              nodes[k].name);
        json_decref(m);
    }

    /* And the other way: a table of b reaches a's lobby. */
    int table_b = e2e_create(lob[1], "uk-32", json_pack("{s:s}", "house", SHORT_HOUSE));
    json_t *m = expect_listed(lob[0], table_b, NULL, 8000);
    CHECK(m != NULL, "lobby: the table made on b is listed to node a's lobby");
    json_decref(m);
    CHECK(table_b != table, "lobby: the nodes number their tables apart (%d, %d)", table, table_b);

    /* The close of a waiting table, by its creator. */
    e2e_send(lob[0], json_pack("{s:s, s:i}", "type", "close", "table", table));
    for (int k = 1; k < N_NODES; k++)
        CHECK(closed_seen(lob[k], table, 8000),
              "lobby: node %s's lobby hears that the table of a was closed", nodes[k].name);
    CHECK(!lobby_lists(2, table, "later-c"), "lobby: a lobby asked of node c no longer lists it");
    nodes_stop();
}

/* ------------------------------------------------------------ redirect */

static void scenario_redirect(void)
{
    nodes_start("nodes_redirect");
    game g;
    const int at[4] = {0, 1, 2, 1}, kib[2] = {2, 1};
    four_at_a(&g, "rd", "4242", at, kib, false);

    e2e_trick_stop w = {1, 1, 3};
    e2e_play(e2e_stop_mid_trick, &w, 60000);
    REQUIRE(e2e_halted != NULL, "redirect: the game reaches a trick of the second deal");
    settle_views(&g, e2e_halted->at);

    /* South's token was made on c: its connection dropped, it comes back
     * at c and is moved to a.  West's, made on b, resumes at a at once. */
    e2e_client *south = g.p[2], *west = g.p[3];
    long at_before = south->at;
    e2e_client_drop(south);
    journey j;
    ask none = {NULL, 0};
    int k = reach(south, 2, &none, g.table, 10000, &j);
    CHECK(k == 0 && j.moves == 1 && j.moved_to[0] == 0,
          "redirect: South's token, resumed at c, is moved to a (%d moves) and finds its table",
          j.moves);
    json_t *v = e2e_expect(south, "view", 5000);
    CHECK(v && json_integer_value(json_object_get(v, "at")) == at_before,
          "redirect: South gets its view at %ld at a", at_before);
    json_decref(v);
    e2e_client_drop(west);
    k = reach(west, 0, &none, g.table, 10000, &j);
    CHECK(k == 0 && j.moves == 0, "redirect: West's token, made on b, resumes at a directly");
    json_decref(e2e_expect(west, "view", 5000));
    /* The kibitzer of every hand, whose token is c's, comes back at b. */
    e2e_client_drop(g.kib_all);
    ask kib_all = {"kibitz", 4};
    k = reach(g.kib_all, 1, &kib_all, g.table, 10000, &j);
    CHECK(k == 0 && j.moves == 1, "redirect: a kibitzer asking b for the table is moved to a");

    e2e_play(NULL, NULL, 60000);
    e2e_pump(300);
    for (int s = 0; s < 4; s++)
        CHECK(e2e_game_over(g.p[s]), "redirect: %s sees the game over", g.p[s]->label);
    CHECK(e2e_game_over(g.kib_all) && e2e_game_over(g.kib_seat),
          "redirect: both kibitzers see the game over");
    free(final_record(g.p[1], g.table, "redirect"));
    nodes_stop();
}

/* ------------------------------------------------------------ kill */

static void scenario_kill(void)
{
    nodes_start("nodes_kill");
    const char *seed = "90210", *bots_seed = "31337";

    /* The same games first, played on b alone without a kill. */
    game ref;
    four_at(&ref, 1, "rf", seed);
    int ref_bots_table;
    e2e_client *ref_bots = bots_at(1, "rfb-N", bots_seed, &ref_bots_table);
    e2e_play(NULL, NULL, 90000);
    char *ref_rec = final_record(ref.p[0], ref.table, "kill, the reference game of four");
    char *ref_bots_rec = final_record(ref_bots, ref_bots_table, "kill, the reference bots game");
    for (int s = 0; s < 4; s++)
        ref.p[s]->autoplay = false;
    ref_bots->autoplay = false;

    /* The games on a, its players come from every node. */
    game g;
    const int at[4] = {0, 1, 2, 0};
    four_at_a(&g, "kl", seed, at, NULL, false);
    int bots_table;
    e2e_client *bots = bots_at(0, "klb-N", bots_seed, &bots_table);
    e2e_trick_stop w = {2, 1, 3};
    e2e_play(e2e_stop_mid_trick, &w, 60000);
    e2e_client *h4 = e2e_halted_in[g.group], *hb = e2e_halted_in[bots->group];
    REQUIRE(h4 && hb, "kill: both games on a reach a trick in progress in deal 3");
    settle_views(&g, h4->at);
    json_t *trick = json_object_get(json_object_get(h4->view, "view"), "trick");
    e2e_note("kill -9 of node a at action %ld, deal %ld (from 0), %zu cards of the trick down",
             h4->at, e2e_view_int(h4->view, "deal"),
             json_array_size(json_object_get(trick, "cards")));
    long kill_at = h4->at;
    e2e_server_kill9(&nodes[0].srv);

    /* Everybody comes back at b or c. */
    e2e_client *four[4] = {g.p[0], g.p[1], g.p[2], g.p[3]};
    const int from[4] = {1, 2, 1, 2};
    const ask asks[4] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}};
    long t0 = e2e_now_ms();
    int adopter = back_at_adopter(four, from, asks, 4, g.table, "kill");
    e2e_note("the four players play again at node %s, %ld ms after the kill", nodes[adopter].name,
             e2e_now_ms() - t0);
    const int from_b[1] = {2};
    back_at_adopter(&bots, from_b, asks, 1, bots_table, "kill, bots");

    /* Now that the table is settled at the adopter, a player who comes
     * back at the other node is sent there in one move. */
    int other = adopter == 1 ? 2 : 1;
    e2e_client_drop(g.p[2]);
    journey j;
    int k = reach(g.p[2], other, &asks[2], g.table, 10000, &j);
    CHECK(k == adopter && j.moves == 1 && j.moved_to[0] == adopter,
          "kill: %s, back at node %s, is moved to the adopter %s at once", g.p[2]->label,
          nodes[other].name, nodes[adopter].name);
    json_decref(e2e_expect(g.p[2], "view", 5000));

    PGconn *db = db_open();
    CHECK(db_owner(db, g.table) == adopter, "kill: the database says node %s owns the table",
          nodes[adopter].name);
    long epoch = db_long(db, "SELECT epoch FROM tables WHERE id = $1", g.table);
    CHECK(epoch >= 2, "kill: the table's epoch grew with the adoption (%ld)", epoch);
    /* The lobby follows the table to its new node: listed at both. */
    CHECK(lobby_lists(1, g.table, "after-b") && lobby_lists(2, g.table, "after-c"),
          "kill: the lobbies of b and c list the adopted table");

    e2e_play(NULL, NULL, 90000);
    e2e_pump(300);
    long total = g.p[0]->at;
    CHECK(db_long(db, "SELECT count(*) FROM actions WHERE table_id = $1", g.table) == total,
          "kill: the database holds the game's %ld actions", total);
    char sql[200];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM actions WHERE table_id = $1 AND n >= %ld AND epoch <> %ld",
             kill_at, epoch);
    CHECK(db_long(db, sql, g.table) == 0,
          "kill: every action from number %ld on was written under the adopter's epoch %ld",
          kill_at, epoch);
    PQfinish(db);
    char *rec = final_record(g.p[0], g.table, "kill, four players");
    char *bots_rec = final_record(bots, bots_table, "kill, a player and three computer players");
    same_records(rec, ref_rec, "kill, four players");
    same_records(bots_rec, ref_bots_rec, "kill, computer players resumed");
    free(rec);
    free(bots_rec);
    free(ref_rec);
    free(ref_bots_rec);
    nodes_stop();
}

/* ------------------------------------------------------------ partition */

static void scenario_partition(void)
{
    nodes_start("nodes_partition");
    game g;
    const int at[4] = {0, 0, 0, 0};
    four_at_a(&g, "pt", "777", at, NULL, false);
    /* A kibitzer of North, at a, there through the partition. */
    e2e_client *kib = client_at("pt-kib", 0, "127.0.0.2");
    hello_at(kib, "pt-kib", 0);
    e2e_kibitz(kib, g.table, 0);

    e2e_trick_stop w = {1, 1, 3};
    e2e_play(e2e_stop_mid_trick, &w, 60000);
    e2e_client *stale = e2e_halted;
    REQUIRE(stale != NULL, "partition: the game reaches a trick of the second deal");
    long k = stale->at;
    settle_views(&g, k);
    e2e_pump(200);

    PGconn *db = db_open();
    long epoch_a = db_long(db, "SELECT epoch FROM tables WHERE id = $1", g.table);
    CHECK(db_owner(db, g.table) == 0 && epoch_a >= 1,
          "partition: the database says node a owns the table (epoch %ld)", epoch_a);
    REQUIRE(kill(nodes[0].srv.pid, SIGSTOP) == 0, "SIGSTOP node a");
    e2e_note("node a stopped at action %ld, %s to move", k, stale->label);
    long t0 = e2e_now_ms();
    int adopter = wait_adopted(db, g.table, 0, 20000);
    REQUIRE(adopter > 0, "partition: another node adopts the table of the stopped node a");
    long epoch = db_long(db, "SELECT epoch FROM tables WHERE id = $1", g.table);
    e2e_note("node %s adopted the table %ld ms after the stop, epoch %ld", nodes[adopter].name,
             e2e_now_ms() - t0, epoch);
    CHECK(epoch > epoch_a, "partition: the adoption raised the epoch (%ld to %ld)", epoch_a, epoch);

    /* The two players after the one to move leave a while it is stopped (it
     * finds their connections closed when it runs again: the game paused
     * there); the one to move and the last keep theirs, and a must let them
     * go.  Every session goes on through a second connection, at the
     * adopter. */
    e2e_client_drop(g.p[(stale->seat + 1) & 3]);
    e2e_client_drop(g.p[(stale->seat + 2) & 3]);
    e2e_client *now[4];
    for (int s = 0; s < 4; s++) {
        char label[40];
        snprintf(label, sizeof label, "%s-again", g.p[s]->label);
        now[s] = client_at(label, 1, NULL);
        snprintf(now[s]->name, sizeof now[s]->name, "%s", g.p[s]->name);
        snprintf(now[s]->token, sizeof now[s]->token, "%s", g.p[s]->token);
        now[s]->seat = g.p[s]->seat;
        now[s]->group = g.p[s]->group;
        /* The view a showed, for the comparison with the adopter's. */
        now[s]->view = json_deep_copy(g.p[s]->view);
        now[s]->at = g.p[s]->at;
        g.p[s]->autoplay = false;
    }
    const int from[4] = {1, 2, 1, 2};
    const ask asks[4] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}};
    CHECK(back_at_adopter(now, from, asks, 4, g.table, "partition") == adopter,
          "partition: the players are back at the adopter");
    for (int s = 0; s < 4; s++)
        now[s]->autoplay = true;
    long upto = k + 6;
    e2e_play(stop_at, &upto, 30000);
    REQUIRE(e2e_halted != NULL, "partition: the game goes on at node %s", nodes[adopter].name);

    /* The stale player acts on what a showed it (its turn there), and a is
     * continued: the act waits in a's socket for it. */
    for (int s = 0; s < 4; s++)
        e2e_clear(g.p[s]);
    e2e_clear(kib);
    e2e_act(stale);
    REQUIRE(wsc_flush(stale->ws, 2000) == 0, "the stale act is written to node a's socket");
    REQUIRE(kill(nodes[0].srv.pid, SIGCONT) == 0, "SIGCONT node a");
    const char *const answers[] = {"moved", "view", "error", NULL};
    json_t *m = expect_any(stale, answers, 10000);
    char *t = m ? json_dumps(m, JSON_COMPACT) : NULL;
    CHECK(m && strcmp(str_of(m, "type"), "moved") == 0 &&
              strcmp(str_of(m, "url"), nodes[adopter].url) == 0,
          "partition: the stale node's player that acts gets moved to %s, not a view (got %s)",
          nodes[adopter].url, t ? t : "nothing");
    free(t);
    json_decref(m);
    for (int s = 0; s < 4; s++) {
        if (g.p[s] == stale || g.p[s]->ws == NULL)
            continue;
        m = e2e_expect(g.p[s], "moved", 10000);
        CHECK(m && strcmp(str_of(m, "url"), nodes[adopter].url) == 0,
              "partition: %s, still connected to a, is moved to the adopter", g.p[s]->label);
        json_decref(m);
    }
    e2e_pump(500);
    for (int s = 0; s < 4; s++)
        CHECK(e2e_peek(g.p[s], "view") == NULL && g.p[s]->at == k,
              "partition: %s had no view from node a after action %ld", g.p[s]->label, k);
    m = e2e_expect(kib, "moved", 10000);
    CHECK(m && strcmp(str_of(m, "url"), nodes[adopter].url) == 0,
          "partition: the kibitzer at node a is moved to the adopter");
    json_decref(m);
    ask kib_ask = {"kibitz", 0};
    CHECK(reach(kib, 0, &kib_ask, g.table, 10000, NULL) == adopter,
          "partition: the kibitzer, back at a, is sent to the adopter and watches there");

    e2e_play(NULL, NULL, 60000);
    e2e_pump(300);
    long total = now[0]->at;
    CHECK(e2e_game_over(now[0]), "partition: the game is over at the adopter");
    free(final_record(now[0], g.table, "partition"));
    CHECK(e2e_server_alive(&nodes[0].srv), "partition: node a lives on");

    /* The database: no action of a after the adoption point.  Actions are
     * numbered from 0: a view at k follows actions 0 to k - 1. */
    CHECK(db_owner(db, g.table) == adopter &&
              db_long(db, "SELECT epoch FROM tables WHERE id = $1", g.table) == epoch,
          "partition: the table is still the adopter's, at its epoch %ld", epoch);
    CHECK(db_long(db, "SELECT count(*) FROM actions WHERE table_id = $1", g.table) == total,
          "partition: the database holds the game's %ld actions, no more", total);
    char sql[200];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM actions WHERE table_id = $1 AND n >= %ld AND epoch <> %ld", k,
             epoch);
    CHECK(db_long(db, sql, g.table) == 0,
          "partition: every action from number %ld on was written under the adopter's epoch %ld", k,
          epoch);
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM actions WHERE table_id = $1 AND n < %ld AND epoch <> %ld", k,
             epoch_a);
    CHECK(db_long(db, sql, g.table) == 0,
          "partition: the actions before number %ld are a's, written under its epoch %ld", k,
          epoch_a);
    PQfinish(db);
    nodes_stop();
}

/* ------------------------------------------------------------ leak */

static void scenario_leak(void)
{
    nodes_start("nodes_leak");
    const uint64_t seed = UINT64_C(8815327140029384719);
    char seed_text[24];
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    game g;
    const int at[4] = {0, 1, 2, 0}, kib[2] = {1, 2};
    four_at_a(&g, "lk", seed_text, at, kib, true);
    e2e_trick_stop w = {2, 0, 3};
    e2e_play(e2e_stop_mid_trick, &w, 60000);
    REQUIRE(e2e_halted != NULL, "leak: the game reaches the play of deal 3");
    settle_views(&g, e2e_halted->at);
    e2e_pump(200);
    e2e_server_kill9(&nodes[0].srv);

    e2e_client *all[6] = {g.p[0], g.p[1], g.p[2], g.p[3], g.kib_seat, g.kib_all};
    const int from[6] = {2, 1, 2, 1, 2, 1};
    const ask asks[6] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}, {"kibitz", 1}, {"kibitz", 4}};
    back_at_adopter(all, from, asks, 6, g.table, "leak");
    e2e_play(NULL, NULL, 60000);
    e2e_pump(300);
    CHECK(e2e_game_over(g.p[0]), "leak: the game is over");
    char *text = e2e_record(g.kib_all, g.table, NULL);
    if (CHECK(text != NULL, "leak: the record of the game"))
        e2e_leak_check("uk-32", seed, all, 6, text);
    free(text);
    nodes_stop();
}

int main(int argc, char **argv)
{
    static const e2e_scenario scenarios[] = {
        {"lobby", scenario_lobby},         {"redirect", scenario_redirect}, {"kill", scenario_kill},
        {"partition", scenario_partition}, {"leak", scenario_leak},         {NULL, NULL},
    };
    return e2e_main("nodes", argc, argv, scenarios);
}
