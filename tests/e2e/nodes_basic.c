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

#include <fcntl.h>

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

/* A fresh database for the scenario, and the nodes' logs kept. */
static void fresh_db(const char *name)
{
    db_url = pg_test_db(name);
    REQUIRE(db_url != NULL, "a database in the private PostgreSQL cluster");
    e2e_server_logs = true;
}

/* c makes a uk table of its own, sitting North against three random
 * computer players that play at once, dealt from seed. */
static int bot_table(e2e_client *c, const char *seed)
{
    return e2e_create(c, "uk",
                      json_pack("{s:[s,s,s], s:s, s:i, s:s, s:s}", "bots", "E", "S", "W", "level",
                                "random", "delay", 0, "sit", "N", "seed", seed));
}

/* Until c is to move (10 s at most): the scenario stops otherwise. */
static void wait_to_move(e2e_client *c, const char *what)
{
    for (long deadline = e2e_now_ms() + 10000; !e2e_to_move(c) && e2e_now_ms() < deadline;)
        e2e_pump(100);
    REQUIRE(e2e_to_move(c), what);
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
    fresh_db("nodes_basic");
    e2e_server a, b;
    start_node(&a, "a");
    start_node(&b, "b");
    char url_a[64];
    snprintf(url_a, sizeof url_a, "ws://127.0.0.1:%d/ws", a.port);

    /* Alice plays at a table of A with three computer players. */
    e2e_client *alice = e2e_client_new("alice", a.port);
    e2e_hello(alice, "alice");
    int table = bot_table(alice, "4711");
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
    CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) == 1 && strstr(said, "another barbu server") != NULL,
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
    fresh_db("nodes_partition_basic");
    e2e_server a, b;
    start_node(&a, "a");
    start_node(&b, "b");
    char url_b[64];
    snprintf(url_b, sizeof url_b, "ws://127.0.0.1:%d/ws", b.port);
    e2e_client *alice = e2e_client_new("alice", a.port);
    e2e_hello(alice, "alice");
    int table = bot_table(alice, "99");
    json_t *v = e2e_expect(alice, "view", 5000);
    REQUIRE(v != NULL, "alice has a view of her table");
    json_decref(v);
    /* Until it is alice's turn: the table then waits for her. */
    wait_to_move(alice, "alice is to move");
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
    fresh_db("nodes_registered_basic");
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
    int table = bot_table(carol, "7");
    wait_to_move(carol, "carol is to move");
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

/* Starts `barbu serve` with extra arguments on the test database and waits
 * (up to 20 s) for it to exit: true when it refused to start with a status
 * other than 0 and its stderr holds `words`.  A server that listens instead
 * is stopped and counts as not refused. */
static bool start_refused(const char *const *extra, const char *words)
{
    char err_path[400];
    snprintf(err_path, sizeof err_path, "%s/refused.err", e2e_tmpdir());
    pid_t pid = fork();
    REQUIRE(pid >= 0, "fork");
    if (pid == 0) {
        int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_WRONLY);
        if (fd < 0 || null < 0)
            _exit(127);
        dup2(null, 1);
        dup2(fd, 2);
        const char *argv[16] = {e2e_barbu(), "serve", "--listen", "127.0.0.1:0", "--db", db_url};
        int n = 6;
        for (int i = 0; extra && extra[i] && n < 15; i++)
            argv[n++] = extra[i];
        argv[n] = NULL;
        execv(e2e_barbu(), (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    bool exited = false;
    for (long deadline = e2e_now_ms() + 20000; !exited && e2e_now_ms() < deadline;) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            exited = true;
        else
            e2e_pump(50);
    }
    if (!exited) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return false;
    }
    char text[2000] = "";
    FILE *f = fopen(err_path, "r");
    if (f) {
        size_t got = fread(text, 1, sizeof text - 1, f);
        text[got] = '\0';
        fclose(f);
    }
    e2e_note("refused: %s", text);
    return WIFEXITED(status) && WEXITSTATUS(status) != 0 && strstr(text, words) != NULL;
}

/* A server without --node is the database's only one: nodes and a second
 * server alone are refused while it runs, and it is refused while a node
 * runs. */
static void scenario_exclusion(void)
{
    db_url = pg_test_db("nodes_exclusion");
    REQUIRE(db_url != NULL, "a database in the private PostgreSQL cluster");
    e2e_server alone;
    const char *no_node[] = {"--db", db_url, NULL};
    e2e_server_start_with(&alone, "alone", no_node);
    const char *as_node[] = {"--node", "a", "--lease", "1.5", NULL};
    CHECK(start_refused(as_node, "server alone (without --node) is using this database"),
          "a node is refused beside a server alone");
    CHECK(start_refused(NULL, "another barbu server"),
          "a second server alone is refused beside the first");
    CHECK(e2e_server_stop(&alone) == 0, "the server alone stops cleanly");

    e2e_server a;
    start_node(&a, "a");
    CHECK(start_refused(NULL, "another barbu server"), "a server alone is refused beside a node");
    e2e_server b;
    start_node(&b, "b");
    CHECK(e2e_server_alive(&b), "a second node starts beside the first");
    CHECK(e2e_server_stop(&b) == 0, "node b stops cleanly");
    CHECK(e2e_server_stop(&a) == 0, "node a stops cleanly");
    free(db_url);
}

/* Names across nodes: a guest's name cannot be registered at another node
 * (the account would reach the guest's seats once a node adopted them),
 * and a guest who registers at one node signs in at another. */
static void scenario_names(void)
{
    db_url = pg_test_db("nodes_names");
    REQUIRE(db_url != NULL, "a database in the private PostgreSQL cluster");
    e2e_server a, b;
    start_node(&a, "a");
    start_node(&b, "b");
    e2e_client *bob = e2e_client_new("bob", a.port);
    e2e_hello(bob, "bob");
    e2e_client *mal = e2e_client_new("mallory", b.port);
    e2e_send(mal, json_pack("{s:s, s:i, s:s, s:s, s:b, s:i}", "type", "hello", "version", 1, "name",
                            "bob", "password", "a long enough passphrase", "register", 1, "id", 1));
    json_t *e = e2e_expect_error(mal, "name_taken", NULL, 10000);
    CHECK(e != NULL, "registering guest bob's name at node b is refused");
    json_decref(e);

    e2e_client *dora = e2e_client_new("dora", a.port);
    e2e_hello(dora, "dora");
    e2e_send(dora, json_pack("{s:s, s:s, s:i}", "type", "register", "password",
                             "dora's long password", "id", 5));
    json_t *acc = e2e_expect(dora, "account", 10000);
    CHECK(acc && json_is_true(json_object_get(acc, "registered")), "dora registers at node a");
    json_decref(acc);
    e2e_client *dora_b = e2e_client_new("dora-at-b", b.port);
    e2e_send(dora_b, json_pack("{s:s, s:i, s:s, s:s, s:i}", "type", "hello", "version", 1, "name",
                               "dora", "password", "dora's long password", "id", 2));
    json_t *w = expect_either(dora_b, "welcome", "error", 10000);
    const char *type = w ? json_string_value(json_object_get(w, "type")) : NULL;
    CHECK(type && strcmp(type, "welcome") == 0 && json_is_true(json_object_get(w, "registered")),
          "dora signs in at node b after registering at node a (%s)",
          w && json_object_get(w, "text") ? json_string_value(json_object_get(w, "text"))
                                          : "no answer");
    json_decref(w);
    e2e_client_free(dora_b);
    e2e_client_free(dora);
    e2e_client_free(mal);
    e2e_client_free(bob);
    CHECK(e2e_server_stop(&b) == 0, "node b stops cleanly");
    CHECK(e2e_server_stop(&a) == 0, "node a stops cleanly");
    free(db_url);
}

/* The owner of a table in the database ("" for none). */
static void db_owner(int table, char *out, size_t cap)
{
    PGconn *pg = PQconnectdb(db_url);
    REQUIRE(PQstatus(pg) == CONNECTION_OK, "a connection to the test database");
    char q[120];
    snprintf(q, sizeof q, "SELECT coalesce(owner, '') FROM tables WHERE id = %d", table);
    PGresult *r = PQexec(pg, q);
    snprintf(out, cap, "%s",
             PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    PQfinish(pg);
}

static bool owner_becomes(int table, const char *node, int ms)
{
    char owner[64] = "";
    for (long deadline = e2e_now_ms() + ms; e2e_now_ms() < deadline;) {
        db_owner(table, owner, sizeof owner);
        if (strcmp(owner, node) == 0)
            return true;
        e2e_pump(100);
    }
    return false;
}

/* Runs sql on the test database as its owner; whether it worked. */
static bool db_exec(const char *sql)
{
    PGconn *pg = PQconnectdb(db_url);
    REQUIRE(PQstatus(pg) == CONNECTION_OK, "a connection to the test database");
    PGresult *r = PQexec(pg, sql);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok)
        e2e_note("%s: %s", sql, PQerrorMessage(pg));
    PQclear(r);
    PQfinish(pg);
    return ok;
}

/* Node a cut off from renewing past its lease (its database user loses
 * the right to write the nodes table, which each renewal touches), b
 * adopts its table and plays, b dies, a takes the table again: a must not
 * keep its old copy, which lacks b's actions. */
static void scenario_stale(void)
{
    fresh_db("nodes_stale");
    e2e_server a, b;
    start_node(&b, "b");                  /* makes the schema, as the database's owner */
    db_exec("CREATE ROLE barbu_a LOGIN"); /* there already after an earlier run */
    REQUIRE(db_exec("GRANT ALL ON ALL TABLES IN SCHEMA public TO barbu_a; "
                    "GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO barbu_a"),
            "node a's own database user");
    char *at = strstr(db_url, "barbu@");
    REQUIRE(at != NULL, "the test URL names the user barbu");
    char url_a[400];
    snprintf(url_a, sizeof url_a, "%.*sbarbu_a@%s", (int)(at - db_url), db_url, at + 6);
    const char *extra[] = {"--db", url_a, "--node", "a", "--lease", "1.5", NULL};
    e2e_server_start_with(&a, "a", extra);

    e2e_client *alice = e2e_client_new("alice", a.port);
    e2e_hello(alice, "alice");
    int table = bot_table(alice, "7");
    wait_to_move(alice, "alice is to move at node a");
    long at_a = alice->at;

    /* Node a can neither renew nor take a lease now.  A node may take its
     * own lease again once it ran out, if nobody took it meanwhile, so with
     * only its renewals cut off a raced b for the table at every lease (b
     * won about one round in two, and under load could lose for the whole
     * wait): b's adoption is what is tested here, so a is kept out of the
     * race until b holds the table. */
    REQUIRE(db_exec("REVOKE UPDATE ON nodes, tables FROM barbu_a"),
            "node a's renewals and lease takes cut off");
    REQUIRE(owner_becomes(table, "b", 20000), "node b adopts the table once a's lease ran out");
    REQUIRE(db_exec("GRANT UPDATE ON tables TO barbu_a"), "node a may take leases again");
    /* Alice goes on at b from another device; her connection to a stays
     * open, so that a has no reason to write for the table. */
    e2e_client *at_b = e2e_client_new("alice-at-b", b.port);
    snprintf(at_b->name, sizeof at_b->name, "alice");
    snprintf(at_b->token, sizeof at_b->token, "%s", alice->token);
    at_b->seat = alice->seat;
    at_b->table = alice->table;
    e2e_resume(at_b);
    wait_to_move(at_b, "alice is to move at node b");
    e2e_act(at_b);
    for (long deadline = e2e_now_ms() + 10000;
         !(e2e_to_move(at_b) && at_b->at > at_a + 1) && e2e_now_ms() < deadline;)
        e2e_pump(100);
    REQUIRE(at_b->at > at_a + 1, "the game went on at node b (at %ld, was %ld)", at_b->at, at_a);
    long at_played = at_b->at;
    e2e_server_kill9(&b);
    e2e_client_free(at_b);
    REQUIRE(owner_becomes(table, "a", 20000),
            "node a takes the table again once b's lease ran out");
    e2e_pump(500);
    REQUIRE(db_exec("GRANT UPDATE ON nodes TO barbu_a"), "node a renews again");

    e2e_client *back = e2e_client_new("alice-back-at-a", a.port);
    snprintf(back->name, sizeof back->name, "alice");
    snprintf(back->token, sizeof back->token, "%s", alice->token);
    back->seat = alice->seat;
    back->table = alice->table;
    e2e_resume(back);
    for (long deadline = e2e_now_ms() + 5000; back->at < at_played && e2e_now_ms() < deadline;)
        e2e_pump(100);
    CHECK(back->at >= at_played, "node a plays on from b's actions (at %ld, b was at %ld)",
          back->at, at_played);
    e2e_client_free(back);
    e2e_client_free(alice);
    CHECK(e2e_server_stop(&a) == 0, "node a stops cleanly");
    free(db_url);
}

/* A player whose table's node dies while she watches another table at the
 * adopting node gets her seat back there (the watching ends), rather than
 * losing it. */
static void scenario_kibitzing(void)
{
    fresh_db("nodes_kibitzing");
    e2e_server a, b;
    start_node(&a, "a");
    start_node(&b, "b");
    e2e_client *alice = e2e_client_new("alice", a.port);
    e2e_hello(alice, "alice");
    int t1 = bot_table(alice, "7");
    wait_to_move(alice, "alice is to move at node a");
    e2e_client *bob = e2e_client_new("bob", b.port);
    e2e_hello(bob, "bob");
    int t2 =
        e2e_create(bob, "uk",
                   json_pack("{s:[s,s,s], s:s, s:i, s:s, s:s, s:b}", "bots", "E", "S", "W", "level",
                             "random", "delay", 1000, "sit", "N", "seed", "8", "household", 1));
    /* Alice at b, from another device, watches bob's table. */
    e2e_client *at_b = e2e_client_new("alice-at-b", b.port);
    snprintf(at_b->name, sizeof at_b->name, "alice");
    snprintf(at_b->token, sizeof at_b->token, "%s", alice->token);
    e2e_resume(at_b);
    json_t *m = e2e_expect(at_b, "moved", 5000);
    CHECK(m != NULL, "alice at b hears that her table is at a");
    json_decref(m);
    e2e_kibitz(at_b, t2, 2);
    e2e_server_kill9(&a);
    e2e_client_free(alice);
    /* b adopts t1 within a lease or two; alice's seat is hers there. */
    bool seated = false;
    for (long deadline = e2e_now_ms() + 20000; !seated && e2e_now_ms() < deadline;) {
        json_t *t = e2e_peek(at_b, "table") ? e2e_expect(at_b, "table", 0) : NULL;
        if (t) {
            json_t *you = json_object_get(t, "you");
            const char *seat = json_string_value(json_object_get(you, "seat"));
            seated = json_integer_value(json_object_get(t, "id")) == t1 && seat &&
                     strcmp(seat, "N") == 0;
            json_decref(t);
        } else
            e2e_pump(100);
    }
    CHECK(seated, "alice sits N at table %d on node b once it is adopted", t1);
    e2e_client_free(at_b);
    e2e_client_free(bob);
    CHECK(e2e_server_stop(&b) == 0, "node b stops cleanly");
    free(db_url);
}

int main(int argc, char **argv)
{
    static const e2e_scenario scenarios[] = {
        {"basic", scenario_basic},           {"partition", scenario_partition},
        {"registered", scenario_registered}, {"exclusion", scenario_exclusion},
        {"names", scenario_names},           {"stale", scenario_stale},
        {"kibitzing", scenario_kibitzing},   {NULL, NULL}};
    return e2e_main("nodes_basic", argc, argv, scenarios);
}
