/*
 * nodes_basic.c - two `barbu serve --node` on one private PostgreSQL
 * database (tests/pg): a table of node A asked for at node B is answered
 * with `moved` to A; B's lobby lists A's table; after A is killed (SIGKILL)
 * B adopts the table within its lease and the game goes on there, nothing
 * acted before the kill lost ("basic").  A node stopped (SIGSTOP) past its
 * lease and continued finds its table adopted, writes nothing for it, and
 * sends its player on with `moved` ("partition").  A registered player's
 * seat is found from every node ("registered").  (The full three-node
 * suite is tests/e2e/nodes.c.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"
#include "pg_test.h"

static char *db_url;

static void start_node(e2e_server *s, const char *name)
{
    const char *extra[] = {"--db", db_url, "--node", name, "--lease", "1.5", NULL};
    e2e_server_start_with(s, name, extra);
}

/* Waits up to ms for a message of one of two types; returns it (the
 * caller decrefs), NULL on timeout. */
static json_t *expect_either(e2e_client *c, const char *a, const char *b, int ms)
{
    long deadline = e2e_now_ms() + ms;
    for (;;) {
        json_t *m = e2e_peek(c, a) ? e2e_expect(c, a, 0) : NULL;
        if (m == NULL && e2e_peek(c, b))
            m = e2e_expect(c, b, 0);
        if (m || e2e_now_ms() >= deadline)
            return m;
        e2e_pump(50);
    }
}

/* A number the test database answers (a count), -1 on failure. */
static long db_count(const char *q)
{
    PGconn *pg = PQconnectdb(db_url);
    REQUIRE(PQstatus(pg) == CONNECTION_OK, "a connection to the test database");
    PGresult *r = PQexec(pg, q);
    long n = PQresultStatus(r) == PGRES_TUPLES_OK ? atol(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    PQfinish(pg);
    return n;
}

/* The actions of a table written under its first lease (the creating
 * node's epoch), counted in the database. */
static long first_epoch_actions(int table)
{
    char q[200];
    snprintf(q, sizeof q,
             "SELECT count(*) FROM actions WHERE table_id = %d AND epoch = "
             "(SELECT min(epoch) FROM actions WHERE table_id = %d)",
             table, table);
    return db_count(q);
}

/* GET path from the server at port, the connection closed after: the
 * whole answer in resp, and its status (-1 for none). */
static int http_get(int port, const char *path, char *resp, size_t cap)
{
    resp[0] = '\0';
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    char req[300];
    int n =
        snprintf(req, sizeof req,
                 "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", path, port);
    size_t got = 0;
    if (write(fd, req, (size_t)n) == n) {
        for (long deadline = e2e_now_ms() + 5000; got + 1 < cap && e2e_now_ms() < deadline;) {
            struct pollfd p = {.fd = fd, .events = POLLIN};
            if (poll(&p, 1, 500) < 0)
                break;
            ssize_t r = p.revents ? read(fd, resp + got, cap - 1 - got) : 0;
            if (p.revents && r <= 0)
                break;
            got += r > 0 ? (size_t)r : 0;
            resp[got] = '\0';
            if (strstr(resp, "\r\n\r\n") && strstr(resp, "rules"))
                break;
        }
    }
    close(fd);
    int status;
    return sscanf(resp, "HTTP/1.%*d %d", &status) == 1 ? status : -1;
}

static bool lobby_has(e2e_client *c, int table)
{
    e2e_clear(c);
    e2e_send(c, json_pack("{s:s}", "type", "tables"));
    json_t *l = e2e_expect(c, "lobby", 5000);
    bool found = false;
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(l, "tables"), i, t)
    {
        if (json_integer_value(json_object_get(t, "id")) == table)
            found = true;
    }
    json_decref(l);
    return found;
}

static void scenario_basic(void)
{
    db_url = pg_test_db("nodes_basic");
    REQUIRE(db_url != NULL, "a database in the private PostgreSQL cluster");
    e2e_server_logs = true;
    e2e_server a, b;
    start_node(&a, "a");
    start_node(&b, "b");
    char url_a[64];
    snprintf(url_a, sizeof url_a, "ws://127.0.0.1:%d/ws", a.port);

    /* Alice plays at a table of A with three computer players. */
    e2e_client *alice = e2e_client_new("alice", a.port);
    e2e_hello(alice, "alice");
    int table = e2e_create(alice, "uk",
                           json_pack("{s:[s,s,s], s:s, s:i, s:s, s:s}", "bots", "E", "S", "W",
                                     "level", "random", "delay", 0, "sit", "N", "seed", "4711"));
    json_t *v = e2e_expect(alice, "view", 5000);
    REQUIRE(v != NULL, "alice has a view of her table");
    json_decref(v);
    for (int moves = 0; moves < 6;) {
        e2e_pump(100);
        if (e2e_to_move(alice)) {
            e2e_act(alice);
            moves++;
        }
    }
    e2e_pump(300);
    long at_before = alice->at;
    e2e_note("alice's table %d is at action %ld on node a", table, at_before);

    /* Bob, at B, asks to watch it: moved to A. */
    e2e_client *bob = e2e_client_new("bob", b.port);
    e2e_send(bob, json_pack("{s:s, s:i, s:s, s:i}", "type", "hello", "version", 1, "name", "bob",
                            "id", 1));
    json_t *w = e2e_expect(bob, "welcome", 5000);
    REQUIRE(w != NULL, "bob is welcomed at node b");
    const char *node = json_string_value(json_object_get(w, "node"));
    CHECK(node && strcmp(node, "b") == 0, "welcome names the node, b (%s)", node ? node : "none");
    json_decref(w);
    e2e_send(bob, json_pack("{s:s, s:i, s:s, s:i}", "type", "kibitz", "table", table, "seat", "N",
                            "id", 2));
    json_t *m = e2e_expect(bob, "moved", 5000);
    CHECK(m != NULL, "kibitz at node b for a table of node a: moved");
    const char *url = m ? json_string_value(json_object_get(m, "url")) : NULL;
    CHECK(url && strcmp(url, url_a) == 0, "moved names node a's URL %s (%s)", url_a,
          url ? url : "none");
    CHECK(m && json_integer_value(json_object_get(m, "table")) == table, "moved names the table");
    json_decref(m);
    /* B's lobby shows A's table within a poll or two. */
    bool listed = false;
    for (long deadline = e2e_now_ms() + 10000; !listed && e2e_now_ms() < deadline;) {
        listed = lobby_has(bob, table);
        if (!listed)
            e2e_pump(500);
    }
    CHECK(listed, "node b's lobby lists node a's table %d", table);
    /* The table's rules page at B sends the browser to A's. */
    char path[64], want[128], resp[4096];
    snprintf(path, sizeof path, "/rules/table/%d", table);
    snprintf(want, sizeof want, "http://127.0.0.1:%d/rules/table/%d", a.port, table);
    int status = http_get(b.port, path, resp, sizeof resp);
    CHECK(status == 302 && strstr(resp, want) != NULL, "GET %s at node b: 302 to %s (status %d)",
          path, want, status);

    /* A dies; alice goes to B, which sends her to A while A's lease lasts,
     * then adopts the table and seats her. */
    e2e_server_kill9(&a);
    long t0 = e2e_now_ms();
    json_t *view = NULL;
    int moved = 0;
    while (view == NULL && e2e_now_ms() - t0 < 20000) {
        e2e_client_reconnect(alice, b.port);
        e2e_resume(alice);
        json_t *r = expect_either(alice, "view", "moved", 3000);
        if (r && strcmp(json_string_value(json_object_get(r, "type")), "view") == 0) {
            view = r;
            break;
        }
        if (r)
            moved++;
        json_decref(r);
        e2e_pump(1000); /* a client tries again in a second */
    }
    REQUIRE(view != NULL, "alice is back at her table on node b within 20 s");
    json_decref(view);
    e2e_note("adopted after %ld ms (%d moved on the way)", e2e_now_ms() - t0, moved);
    CHECK(alice->at >= at_before, "nothing acted before the kill is lost (at %ld, was %ld)",
          alice->at, at_before);
    /* The game goes on there. */
    long at_adopted = alice->at;
    for (long deadline = e2e_now_ms() + 15000;
         alice->at < at_adopted + 8 && e2e_now_ms() < deadline;) {
        e2e_pump(100);
        if (e2e_to_move(alice))
            e2e_act(alice);
    }
    CHECK(alice->at >= at_adopted + 8, "the game goes on at node b (at %ld after %ld)", alice->at,
          at_adopted);
    /* A server alone (no --node) on the database while b holds a table:
     * refused at start, with a sentence. */
    char cmd[1200], errfile[300];
    snprintf(errfile, sizeof errfile, "%s/alone.err", e2e_tmpdir());
    snprintf(cmd, sizeof cmd,
             "timeout 30 '%s' serve --listen 127.0.0.1:0 --quiet --db '%s' >/dev/null 2>'%s'",
             e2e_barbu(), db_url, errfile);
    int rc = system(cmd);
    char said[600] = "";
    FILE *f = fopen(errfile, "r");
    if (f) {
        size_t n = fread(said, 1, sizeof said - 1, f);
        said[n] = '\0';
        fclose(f);
    }
    CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) == 1 && strstr(said, "node b holds table") != NULL,
          "a server without --node on the nodes' database is refused (status %d: %s)",
          WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, said);
    e2e_client_free(alice);
    e2e_client_free(bob);
    CHECK(e2e_server_stop(&b) == 0, "node b stops cleanly");
    /* Its clean stop gave its leases up: another node would adopt at once. */
    CHECK(db_count("SELECT count(*) FROM tables WHERE lease_until > clock_timestamp()") == 0,
          "node b's clean stop gave up every lease");
    free(db_url);
}

static void scenario_partition(void)
{
    db_url = pg_test_db("nodes_partition_basic");
    REQUIRE(db_url != NULL, "a database in the private PostgreSQL cluster");
    e2e_server_logs = true;
    e2e_server a, b;
    start_node(&a, "a");
    start_node(&b, "b");
    char url_b[64];
    snprintf(url_b, sizeof url_b, "ws://127.0.0.1:%d/ws", b.port);
    e2e_client *alice = e2e_client_new("alice", a.port);
    e2e_hello(alice, "alice");
    int table = e2e_create(alice, "uk",
                           json_pack("{s:[s,s,s], s:s, s:i, s:s, s:s}", "bots", "E", "S", "W",
                                     "level", "random", "delay", 0, "sit", "N", "seed", "99"));
    json_t *v = e2e_expect(alice, "view", 5000);
    REQUIRE(v != NULL, "alice has a view of her table");
    json_decref(v);
    /* Until it is alice's turn: the table then waits for her. */
    for (long deadline = e2e_now_ms() + 10000; !e2e_to_move(alice) && e2e_now_ms() < deadline;)
        e2e_pump(100);
    REQUIRE(e2e_to_move(alice), "alice is to move");
    long at_stop = alice->at;

    kill(a.pid, SIGSTOP);
    /* B adopts the table once A's lease runs out: a kibitzer there is let
     * in instead of being sent to A. */
    e2e_client *bob = e2e_client_new("bob", b.port);
    e2e_hello(bob, "bob");
    bool adopted = false;
    for (long deadline = e2e_now_ms() + 15000; !adopted && e2e_now_ms() < deadline;) {
        e2e_clear(bob);
        e2e_send(bob, json_pack("{s:s, s:i, s:s}", "type", "kibitz", "table", table, "seat", "E"));
        json_t *r = expect_either(bob, "table", "moved", 3000);
        adopted = r && strcmp(json_string_value(json_object_get(r, "type")), "table") == 0;
        json_decref(r);
        if (!adopted)
            e2e_pump(500);
    }
    REQUIRE(adopted, "node b adopts the table of the stopped node a");
    /* Alice acts at A, which is continued: A must not write it. */
    e2e_act(alice);
    kill(a.pid, SIGCONT);
    json_t *m = e2e_expect(alice, "moved", 10000);
    CHECK(m != NULL, "the continued node a sends alice on with moved");
    const char *url = m ? json_string_value(json_object_get(m, "url")) : NULL;
    CHECK(url && strcmp(url, url_b) == 0, "moved names node b (%s)", url ? url : "none");
    json_decref(m);
    e2e_pump(500);
    json_t *err = e2e_peek(alice, "error");
    CHECK(err == NULL, "alice's stale action is not answered with an error (%s)",
          err ? json_string_value(json_object_get(err, "code")) : "none");
    CHECK(first_epoch_actions(table) == at_stop,
          "node a wrote nothing after it lost the table (%ld actions under its lease, %ld "
          "before the stop)",
          first_epoch_actions(table), at_stop);
    /* Alice carries on at B. */
    e2e_client_reconnect(alice, b.port);
    e2e_resume(alice);
    json_t *view = e2e_expect(alice, "view", 5000);
    CHECK(view != NULL && alice->at == at_stop, "alice is back at node b where she stopped (%ld)",
          alice->at);
    json_decref(view);
    e2e_client_free(alice);
    e2e_client_free(bob);
    CHECK(e2e_server_stop(&a) == 0, "node a stops cleanly");
    CHECK(e2e_server_stop(&b) == 0, "node b stops cleanly");
    free(db_url);
}

/* Resumes c at port until its table's view comes (moved on the way are
 * followed by trying again a second later); the view, or NULL. */
static json_t *back_at(e2e_client *c, int port, int ms, int *moved)
{
    long t0 = e2e_now_ms();
    while (e2e_now_ms() - t0 < ms) {
        e2e_client_reconnect(c, port);
        e2e_resume(c);
        json_t *r = expect_either(c, "view", "moved", 3000);
        if (r && strcmp(json_string_value(json_object_get(r, "type")), "view") == 0)
            return r;
        if (r)
            (*moved)++;
        json_decref(r);
        e2e_pump(1000);
    }
    return NULL;
}

static void scenario_registered(void)
{
    db_url = pg_test_db("nodes_registered_basic");
    REQUIRE(db_url != NULL, "a database in the private PostgreSQL cluster");
    e2e_server_logs = true;
    e2e_server a, b;
    start_node(&a, "a");
    start_node(&b, "b");
    char url_a[64];
    snprintf(url_a, sizeof url_a, "ws://127.0.0.1:%d/ws", a.port);
    /* Carol registers at A and sits at a table there. */
    e2e_client *carol = e2e_client_new("carol", a.port);
    e2e_send(carol,
             json_pack("{s:s, s:i, s:s, s:s, s:b, s:i}", "type", "hello", "version", 1, "name",
                       "carol", "password", "a long enough passphrase", "register", 1, "id", 1));
    json_t *w = e2e_expect(carol, "welcome", 10000);
    REQUIRE(w && json_is_true(json_object_get(w, "registered")), "carol is registered at node a");
    snprintf(carol->name, sizeof carol->name, "carol");
    snprintf(carol->token, sizeof carol->token, "%s",
             json_string_value(json_object_get(w, "token")));
    json_decref(w);
    int table = e2e_create(carol, "uk",
                           json_pack("{s:[s,s,s], s:s, s:i, s:s, s:s}", "bots", "E", "S", "W",
                                     "level", "random", "delay", 0, "sit", "N", "seed", "7"));
    for (long deadline = e2e_now_ms() + 10000; !e2e_to_move(carol) && e2e_now_ms() < deadline;)
        e2e_pump(100);
    REQUIRE(e2e_to_move(carol), "carol is to move");
    e2e_act(carol);
    e2e_pump(500);
    long at_before = carol->at;

    /* Her token at B: signed in, then sent to A where she sits. */
    e2e_client *other = e2e_client_new("carol-at-b", b.port);
    snprintf(other->name, sizeof other->name, "carol");
    snprintf(other->token, sizeof other->token, "%s", carol->token);
    e2e_resume(other);
    json_t *m = e2e_expect(other, "moved", 5000);
    const char *url = m ? json_string_value(json_object_get(m, "url")) : NULL;
    CHECK(m && json_integer_value(json_object_get(m, "table")) == table && url &&
              strcmp(url, url_a) == 0,
          "carol's token at node b: moved to her table at node a (%s)", url ? url : "none");
    json_decref(m);
    e2e_client_free(other);

    /* A dies: B adopts the table and carol takes her seat there. */
    e2e_server_kill9(&a);
    int moved = 0;
    json_t *view = back_at(carol, b.port, 20000, &moved);
    REQUIRE(view != NULL, "carol is back at her table on node b within 20 s");
    json_decref(view);
    CHECK(carol->seat == 0 && carol->at >= at_before,
          "carol sits N at node b where she was (at %ld, was %ld)", carol->at, at_before);
    e2e_client_free(carol);
    CHECK(e2e_server_stop(&b) == 0, "node b stops cleanly");
    free(db_url);
}

int main(int argc, char **argv)
{
    static const e2e_scenario scenarios[] = {{"basic", scenario_basic},
                                             {"partition", scenario_partition},
                                             {"registered", scenario_registered},
                                             {NULL, NULL}};
    return e2e_main("nodes_basic", argc, argv, scenarios);
}
