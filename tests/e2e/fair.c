/*
 * fair.c - fair deals end to end (issue 23): a served game without a chosen
 * seed is dealt from a secret key committed to before the first card and
 * shown only once the game is over; its record passes barbu verify; a
 * restart goes on with the same key; a seeded game is still its seed's.
 * fair BARBU SCENARIO...
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

static const char *str_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static bool is_hex64(const char *s)
{
    uint8_t bytes[BARBU_KEY_BYTES];
    return barbu_key_parse(s, bytes) == 0 && s[0] != '\0';
}

/* The commitment to a key given in hex, in hex ("" for a bad key). */
static void commitment_of(const char *key_hex, char out[BARBU_KEY_HEX])
{
    uint8_t key[BARBU_KEY_BYTES], c[BARBU_KEY_BYTES];
    out[0] = '\0';
    if (barbu_key_parse(key_hex, key) != 0)
        return;
    barbu_key_commitment(key, c);
    barbu_key_format(c, out);
}

static e2e_client *person(const char *name, int port, const char *source, bool logging)
{
    e2e_client *c = e2e_client_new_from(name, port, source);
    c->logging = logging;
    e2e_hello(c, name);
    return c;
}

/* Runs `barbu verify` on a record: its exit status, its output in out. */
static int barbu_verify(const char *text, char *out, size_t cap)
{
    static int n;
    char path[400], outpath[400];
    snprintf(path, sizeof path, "%s/verify-%d.txt", e2e_tmpdir(), ++n);
    snprintf(outpath, sizeof outpath, "%s/verify-%d.out", e2e_tmpdir(), n);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fputs(text, f);
    fclose(f);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(outpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execl(e2e_barbu(), e2e_barbu(), "verify", path, (char *)NULL);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    out[0] = '\0';
    f = fopen(outpath, "r");
    if (f) {
        size_t got = fread(out, 1, cap - 1, f);
        out[got] = '\0';
        fclose(f);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The next table message about this table (others are dropped), NULL after
 * ms. */
static json_t *table_msg(e2e_client *c, int table, int ms)
{
    long end = e2e_now_ms() + ms;
    while (e2e_now_ms() < end) {
        json_t *t = e2e_expect(c, "table", (int)(end - e2e_now_ms()));
        if (t == NULL)
            return NULL;
        if (json_integer_value(json_object_get(t, "id")) == table)
            return t;
        json_decref(t);
    }
    return NULL;
}

/* Waits for the table message that shows the key once the game is over. */
static json_t *key_msg(e2e_client *c, int table)
{
    long end = e2e_now_ms() + 10000;
    while (e2e_now_ms() < end) {
        json_t *t = table_msg(c, table, (int)(end - e2e_now_ms()));
        if (t == NULL)
            return NULL;
        if (json_object_get(t, "key"))
            return t;
        json_decref(t);
    }
    return NULL;
}

/* A summary of the table in a lobby or listed message, or NULL. */
static const json_t *summary_of(const json_t *m, int table)
{
    const char *type = str_of(m, "type");
    if (strcmp(type, "listed") == 0) {
        const json_t *s = json_object_get(m, "table");
        return json_integer_value(json_object_get(s, "id")) == table ? s : NULL;
    }
    if (strcmp(type, "lobby") == 0) {
        const json_t *all = json_object_get(m, "tables");
        for (size_t i = 0; i < json_array_size(all); i++) {
            const json_t *s = json_array_get(all, i);
            if (json_integer_value(json_object_get(s, "id")) == table)
                return s;
        }
    }
    return NULL;
}

/* Whether a message says the table's game is over (so that it may carry
 * the key): its table message, its lobby summary, a view or a record. */
static bool says_over(const json_t *m, int table)
{
    const char *type = str_of(m, "type");
    if (strcmp(type, "table") == 0)
        return json_integer_value(json_object_get(m, "id")) == table &&
               strcmp(str_of(m, "state"), "over") == 0;
    if (strcmp(type, "record") == 0)
        return json_is_true(json_object_get(m, "complete"));
    if (strcmp(type, "view") == 0)
        return strcmp(e2e_view_str(m, "phase") ? e2e_view_str(m, "phase") : "", "over") == 0;
    const json_t *s = summary_of(m, table);
    return s && strcmp(str_of(s, "state"), "over") == 0;
}

/* Every frame c received: those holding the key must say the game is over.
 * Returns how many held it. */
static int scan_frames(const e2e_client *c, int table, const char *key)
{
    int with_key = 0, early = 0;
    for (int i = 0; i < c->nlog; i++) {
        if (strstr(c->log[i].text, key) == NULL)
            continue;
        with_key++;
        json_t *m = json_loads(c->log[i].text, 0, NULL);
        if (!says_over(m, table)) {
            early++;
            e2e_note("%s: frame %d holds the key before the end: %.200s", c->label, i,
                     c->log[i].text);
        }
        json_decref(m);
    }
    CHECK(early == 0,
          "%s: none of its %d frames gives the key before the game is over (%d do after)", c->label,
          c->nlog, with_key);
    return with_key;
}

/* The first frame of a type in c's log (its index), -1 if none. */
static int first_frame(const e2e_client *c, const char *type, const char *holding)
{
    char want[48];
    snprintf(want, sizeof want, "\"type\":\"%s\"", type);
    for (int i = 0; i < c->nlog; i++) {
        json_t *m = json_loads(c->log[i].text, 0, NULL);
        bool match = strcmp(str_of(m, "type"), type) == 0 &&
                     (holding == NULL || strstr(c->log[i].text, holding) != NULL);
        json_decref(m);
        if (match)
            return i;
    }
    return -1;
}

/* One HTTP GET over a fresh socket: the whole answer (headers and body)
 * into resp, read until the server closes or 5 s pass. */
static void http_get(int port, const char *path, char *resp, size_t cap)
{
    resp[0] = '\0';
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return;
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return;
    }
    char req[300];
    int n =
        snprintf(req, sizeof req,
                 "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", path, port);
    if (write(fd, req, (size_t)n) != n) {
        close(fd);
        return;
    }
    size_t got = 0;
    long deadline = e2e_now_ms() + 5000;
    while (got + 1 < cap) {
        long left = deadline - e2e_now_ms();
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (left <= 0 || poll(&p, 1, (int)left) <= 0)
            break;
        ssize_t r = read(fd, resp + got, cap - 1 - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    resp[got] = '\0';
    close(fd);
}

/* barbu serve as e2e_server_start starts it, but without --quiet, so that
 * its log can be searched for the key; it dies with this process. */
static void start_logging_server(e2e_server *s, const char *dbname)
{
    memset(s, 0, sizeof *s);
    snprintf(s->dir, sizeof s->dir, "%s", e2e_tmpdir());
    snprintf(s->db, sizeof s->db, "%s/%s", e2e_tmpdir(), dbname);
    snprintf(s->out, sizeof s->out, "%s/%s.out", e2e_tmpdir(), dbname);
    snprintf(s->err, sizeof s->err, "%s/%s.log", e2e_tmpdir(), dbname);
    pid_t pid = fork();
    REQUIRE(pid >= 0, "fork");
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        int out = open(s->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(s->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0)
            _exit(127);
        dup2(out, 1);
        dup2(err, 2);
        execl(e2e_barbu(), e2e_barbu(), "serve", "--listen", "127.0.0.1:0", "--db", s->db,
              (char *)NULL);
        _exit(127);
    }
    s->pid = pid;
    const char *marker = "listening on ws://127.0.0.1:";
    for (long end = e2e_now_ms() + 15000; e2e_now_ms() < end && s->port == 0;) {
        FILE *f = fopen(s->out, "r");
        char line[256];
        while (f && fgets(line, sizeof line, f))
            if (strstr(line, marker))
                s->port = atoi(strstr(line, marker) + strlen(marker));
        if (f)
            fclose(f);
        if (s->port == 0)
            e2e_pump(20);
    }
    REQUIRE(s->port > 0, "the logging server says its port");
}

/* The whole of a file (malloc'd; "" when it cannot be read). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text = calloc(1, 1 << 20);
    if (f && text) {
        size_t n = fread(text, 1, (1 << 20) - 1, f);
        text[n] = '\0';
    }
    if (f)
        fclose(f);
    return text;
}

static bool stop_at_deal(const e2e_client *mover, void *ctx)
{
    const long *deal = ctx;
    const char *phase = e2e_view_str(mover->view, "phase");
    return phase && strcmp(phase, "play") == 0 && e2e_view_int(mover->view, "deal") >= *deal;
}

/* ------------------------------------------------------------ a whole game */

/* A Fife game (draws, Silly Round draws and cuts) with three computer
 * players: the commitment comes with the first table message, before any
 * view; mid-game nothing gives the key (the record says withheld, the
 * rules page does not have it); at the end the key is shown, hashes to the
 * commitment, and the record passes barbu verify.  Every frame a seated
 * player, a kibitzer of every hand and a lobby watcher received is searched
 * for the key.  The next game (again) and another table get other keys. */
static void fair_whole(void)
{
    e2e_server srv;
    start_logging_server(&srv, "fair-whole.db");
    e2e_client *carol = person("carol", srv.port, "127.0.0.4", true);
    e2e_client *alice = person("alice", srv.port, "127.0.0.2", true);
    int table = e2e_create(alice, "fife",
                           json_pack("{s:[s,s,s], s:s, s:i, s:s, s:s}", "bots", "E", "S", "W",
                                     "level", "random", "delay", 0, "kibitz", "all", "sit", "N"));
    json_t *first = table_msg(alice, table, 5000);
    REQUIRE(first != NULL, "alice gets the table message after create");
    char commitment[BARBU_KEY_HEX];
    snprintf(commitment, sizeof commitment, "%s", str_of(first, "commitment"));
    CHECK(is_hex64(commitment),
          "the first table message carries a commitment of 64 hex digits (%s)", commitment);
    CHECK(json_object_get(first, "key") == NULL && json_object_get(first, "seed") == NULL,
          "the first table message gives neither key nor seed");
    json_decref(first);
    int t_at = first_frame(alice, "table", commitment), v_at = first_frame(alice, "view", NULL);
    CHECK(t_at >= 0 && (v_at < 0 || t_at < v_at),
          "the commitment reached alice (frame %d) before the first card (first view: frame %d)",
          t_at, v_at);

    e2e_client *bob = person("bob", srv.port, "127.0.0.3", true);
    e2e_kibitz(bob, table, 4);
    alice->group = e2e_new_group();
    alice->autoplay = true;

    /* Mid-game: the record withholds the key, names the commitment. */
    long deal = 3;
    e2e_play(stop_at_deal, &deal, 120000);
    REQUIRE(e2e_halted_in[alice->group] != NULL, "the game reaches its fourth deal");
    bool complete = true;
    char *mid = e2e_record(alice, table, &complete);
    REQUIRE(mid != NULL, "a record mid-game");
    CHECK(!complete, "the record mid-game is not complete");
    char want[160];
    snprintf(want, sizeof want, "[Key \"withheld\"]\n[Commitment \"%s\"]\n", commitment);
    CHECK(strstr(mid, want) != NULL && strstr(mid, "[Barbu \"3\"]") != NULL,
          "the record mid-game is format 3 with the key withheld and the commitment");
    char verify_out[4096];
    CHECK(barbu_verify(mid, verify_out, sizeof verify_out) == 2 &&
              strstr(verify_out, "the key is withheld: the game is not over") != NULL,
          "barbu verify refuses the record mid-game: the key is withheld (%s)", verify_out);
    char rules_page[65536], path[64];
    snprintf(path, sizeof path, "/rules/table/%d", table);
    http_get(srv.port, path, rules_page, sizeof rules_page);
    CHECK(strlen(rules_page) > 100, "the table's rules page answers mid-game (%zu bytes)",
          strlen(rules_page));

    /* To the end. */
    e2e_play(NULL, NULL, 240000);
    CHECK(e2e_game_over(alice), "the game is over");
    json_t *over = key_msg(alice, table);
    REQUIRE(over != NULL, "a table message gives the key once the game is over");
    char key[BARBU_KEY_HEX], hashed[BARBU_KEY_HEX];
    snprintf(key, sizeof key, "%s", str_of(over, "key"));
    CHECK(strcmp(str_of(over, "state"), "over") == 0, "the key comes with the state over");
    CHECK(strcmp(str_of(over, "commitment"), commitment) == 0, "the commitment is unchanged");
    json_decref(over);
    commitment_of(key, hashed);
    CHECK(is_hex64(key) && strcmp(hashed, commitment) == 0,
          "BLAKE2b-256 of the key %.8s... is the commitment published before the first card", key);
    CHECK(strstr(mid, key) == NULL, "the mid-game record does not hold the key");
    CHECK(strstr(rules_page, key) == NULL, "the rules page mid-game does not hold the key");
    free(mid);

    char *rec = e2e_record(alice, table, &complete);
    REQUIRE(rec != NULL, "the record of the finished game");
    CHECK(complete, "the record is complete");
    snprintf(want, sizeof want, "[Key \"%s\"]\n[Commitment \"%s\"]\n", key, commitment);
    CHECK(strstr(rec, want) != NULL, "the finished record gives the key and the commitment");
    int rc = barbu_verify(rec, verify_out, sizeof verify_out);
    snprintf(want, sizeof want, "dealt from the key committed to as %.8s...", commitment);
    CHECK(rc == 0 && strstr(verify_out, want) && strstr(verify_out, "every cut"),
          "barbu verify accepts the downloaded record (exit %d): %s", rc, verify_out);
    free(rec);

    /* Nothing gave the key before the end: every frame of a player, a
     * kibitzer and a lobby watcher. */
    CHECK(scan_frames(alice, table, key) > 0, "alice received the key at the end");
    scan_frames(bob, table, key);
    scan_frames(carol, table, key);
    bool lobby_commitment = false;
    for (int i = 0; i < carol->nlog && !lobby_commitment; i++) {
        json_t *m = json_loads(carol->log[i].text, 0, NULL);
        const json_t *s = summary_of(m, table);
        lobby_commitment = s && strcmp(str_of(s, "commitment"), commitment) == 0;
        json_decref(m);
    }
    CHECK(lobby_commitment, "the lobby watcher saw the commitment in the table's summary");

    /* Two games, two keys: the next game at one click, another table. */
    e2e_send(alice, json_pack("{s:s, s:i}", "type", "again", "table", table));
    json_t *created = e2e_expect(alice, "created", 5000);
    int next = created ? (int)json_integer_value(json_object_get(created, "table")) : 0;
    json_decref(created);
    json_t *nt = next ? table_msg(alice, next, 5000) : NULL;
    CHECK(nt && is_hex64(str_of(nt, "commitment")) &&
              strcmp(str_of(nt, "commitment"), commitment) != 0,
          "again: the next game has a commitment of its own (%s)",
          nt ? str_of(nt, "commitment") : "");
    int other = e2e_create(carol, "uk", json_pack("{s:s}", "sit", "N"));
    json_t *ot = table_msg(carol, other, 5000);
    CHECK(ot && is_hex64(str_of(ot, "commitment")) &&
              strcmp(str_of(ot, "commitment"), commitment) != 0 &&
              (!nt || strcmp(str_of(ot, "commitment"), str_of(nt, "commitment")) != 0),
          "another table has another commitment");
    json_decref(nt);
    json_decref(ot);
    /* The next game has started: it is not played here. */
    alice->autoplay = false;
    CHECK(e2e_server_stop(&srv) == 0, "the server exits 0");
    /* Its log told the game's story, never its key. */
    char *log = slurp(srv.err), *out = slurp(srv.out);
    char made[64];
    snprintf(made, sizeof made, "table %d created by alice", table);
    CHECK(log && strstr(log, made) && strstr(log, "the game starts"),
          "the server logged the table's life (%zu bytes)", log ? strlen(log) : 0);
    CHECK(log && out && !strstr(log, key) && !strstr(out, key),
          "the server's log and output never give the key");
    free(log);
    free(out);
}

/* ------------------------------------------------------------- a restart */

/* (The 32-card pack's eight-card hands keep the whole games short.)
 * A keyed game killed with -9 in its fourth deal goes on after the restart
 * with the same commitment and the same hands, and its record (deals
 * before and after the restart) passes barbu verify against the key. */
static void fair_restart(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "fair-restart.db");
    e2e_client *alice = person("alice", srv.port, "127.0.0.2", false);
    int table = e2e_create(alice, "uk-32",
                           json_pack("{s:[s,s,s], s:s, s:i, s:s}", "bots", "E", "S", "W", "level",
                                     "random", "delay", 0, "sit", "N"));
    json_t *first = table_msg(alice, table, 5000);
    REQUIRE(first != NULL, "restart: the table message after create");
    char commitment[BARBU_KEY_HEX];
    snprintf(commitment, sizeof commitment, "%s", str_of(first, "commitment"));
    json_decref(first);
    CHECK(is_hex64(commitment), "restart: the table has a commitment");
    alice->group = e2e_new_group();
    alice->autoplay = true;
    long deal = 3;
    e2e_play(stop_at_deal, &deal, 120000);
    REQUIRE(e2e_halted_in[alice->group] != NULL, "restart: the game reaches its fourth deal");
    json_t *saved = json_deep_copy(json_object_get(alice->view, "view"));
    long saved_at = alice->at;
    e2e_server_kill9(&srv);
    e2e_server_start(&srv, "fair-restart.db");
    e2e_client_reconnect(alice, srv.port);
    e2e_resume(alice);
    json_t *t = table_msg(alice, table, 5000);
    CHECK(t && strcmp(str_of(t, "commitment"), commitment) == 0 && !json_object_get(t, "key"),
          "restart: the table comes back with the same commitment, and no key");
    json_decref(t);
    json_t *v = e2e_expect(alice, "view", 5000);
    CHECK(v && json_integer_value(json_object_get(v, "at")) == saved_at &&
              json_equal(json_object_get(v, "view"), saved),
          "restart: alice's view (her hand of deal %ld) is the one she had before the kill",
          deal + 1);
    json_decref(v);
    json_decref(saved);
    e2e_play(NULL, NULL, 240000);
    json_t *over = key_msg(alice, table);
    REQUIRE(over != NULL, "restart: the key once the game is over");
    char hashed[BARBU_KEY_HEX];
    commitment_of(str_of(over, "key"), hashed);
    CHECK(strcmp(hashed, commitment) == 0, "restart: the key hashes to the first commitment");
    json_decref(over);
    bool complete = false;
    char *rec = e2e_record(alice, table, &complete);
    char out[4096] = "";
    int rc = rec ? barbu_verify(rec, out, sizeof out) : -1;
    CHECK(complete && rc == 0 && strstr(out, "28 deals dealt from the key"),
          "restart: all 28 deals, before and after the restart, are the key's (exit %d): %s", rc,
          out);
    free(rec);
    CHECK(e2e_server_stop(&srv) == 0, "restart: the server exits 0");
}

/* ------------------------------------------------------------ a seed */

/* A create with a seed is dealt from the seed as before: no commitment,
 * the first hand the engine deals from that seed, the seed at the end,
 * and a record that barbu verify checks against the seed. */
static void fair_seeded(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "fair-seeded.db");
    e2e_client *alice = person("alice", srv.port, "127.0.0.2", false);
    int table = e2e_create(alice, "uk-32",
                           json_pack("{s:[s,s,s], s:s, s:i, s:s, s:s}", "bots", "E", "S", "W",
                                     "level", "random", "delay", 0, "sit", "N", "seed", "4242"));
    json_t *first = table_msg(alice, table, 5000);
    CHECK(first && !json_object_get(first, "commitment") && !json_object_get(first, "key"),
          "seeded: the table message has no commitment");
    json_decref(first);
    json_t *v = e2e_expect(alice, "view", 5000);
    barbu_rules rules;
    barbu_rules_preset(&rules, "uk-32");
    barbu_state st;
    barbu_init(&st, &rules, 4242);
    json_t *hand = json_object_get(json_object_get(json_object_get(v, "view"), "hands"), "N");
    CHECK(v && e2e_cards_json(hand) == st.dealt[0],
          "seeded: alice's first hand is the one seed 4242 deals North");
    json_decref(v);
    alice->group = e2e_new_group();
    alice->autoplay = true;
    e2e_play(NULL, NULL, 240000);
    json_t *over = table_msg(alice, table, 5000);
    while (over && strcmp(str_of(over, "state"), "over") != 0) {
        json_decref(over);
        over = table_msg(alice, table, 5000);
    }
    CHECK(over && strcmp(str_of(over, "seed"), "4242") == 0 && !json_object_get(over, "key"),
          "seeded: the table gives its seed at the end, and no key");
    json_decref(over);
    bool complete = false;
    char *rec = e2e_record(alice, table, &complete);
    char out[4096] = "";
    int rc = rec ? barbu_verify(rec, out, sizeof out) : -1;
    CHECK(rec && strstr(rec, "[Barbu \"2\"]") && strstr(rec, "[Seed \"4242\"]"),
          "seeded: the record is format 2 with its seed");
    CHECK(rc == 0 && strstr(out, "28 deals dealt from seed 4242"),
          "seeded: barbu verify checks the deals against the seed (exit %d): %s", rc, out);
    free(rec);
    CHECK(e2e_server_stop(&srv) == 0, "seeded: the server exits 0");
}

int main(int argc, char **argv)
{
    static const e2e_scenario SCENARIOS[] = {
        {"whole", fair_whole},
        {"restart", fair_restart},
        {"seeded", fair_seeded},
        {NULL, NULL},
    };
    return e2e_main("fair", argc, argv, SCENARIOS);
}
