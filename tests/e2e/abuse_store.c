/*
 * abuse_store.c - see abuse.h: attacks on the server's database.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "abuse.h"

/* ------------------------------------------------------------- helpers */

/* The whole of a small text file (malloc'd), "" when it cannot be read. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text = calloc(1, 65536);
    REQUIRE(text != NULL, "out of memory");
    if (f) {
        size_t n = fread(text, 1, 65535, f);
        text[n] = '\0';
        fclose(f);
    }
    return text;
}

/* Runs `barbu serve --listen 127.0.0.1:0 --db DB --quiet` and waits up to ms
 * for it to exit.  Returns its exit status, or -1 when it was still running
 * (it is then killed); its stderr goes to err_path. */
static int serve_once(const char *db, const char *err_path, int ms)
{
    fflush(NULL);
    pid_t pid = fork();
    REQUIRE(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int out = open("/dev/null", O_WRONLY);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || err < 0)
            _exit(127);
        dup2(out, 1);
        dup2(err, 2);
        execl(e2e_barbu(), e2e_barbu(), "serve", "--listen", "127.0.0.1:0", "--db", db, "--quiet",
              (char *)NULL);
        _exit(127);
    }
    int status;
    for (long t0 = e2e_now_ms(); e2e_now_ms() - t0 < ms;) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : -2;
        e2e_pump(20);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

/* A client that says hello and makes a table against three computer
 * players; returns the table. */
static int bots_table(e2e_client *c, const char *seed)
{
    return e2e_create(c, "uk",
                      json_pack("{s:s, s:[s,s,s], s:s, s:i, s:s}", "seed", seed, "bots", "E", "S",
                                "W", "level", "easy", "delay", 0, "sit", "N"));
}

/* e2e_play's stop: halts a game once its client's view is at *ctx. */
static bool stop_at(const e2e_client *mover, void *ctx)
{
    return mover->at >= *(const long *)ctx;
}

/* Plays c's game (autoplay) until its view is at `at`. */
static void play_to(e2e_client *c, long at)
{
    c->autoplay = true;
    e2e_play(stop_at, &at, 60000);
    c->autoplay = false;
}

/* ------------------------------------------------------------- db_lock */

void abuse_db_lock(void)
{
    e2e_server a;
    e2e_server_start(&a, "lock.db");
    e2e_client *c = e2e_client_new("lock", a.port);
    e2e_hello(c, "locksmith");
    int table = bots_table(c, "4242");
    c->group = e2e_new_group();

    /* The attack: a second server on the same file, by its own name and by
     * another spelling of it.  Each would restore the same tables and
     * append actions of its own: two forks of every game. */
    char err_path[400], other[400];
    snprintf(err_path, sizeof err_path, "%s/lock-second.err", e2e_tmpdir());
    snprintf(other, sizeof other, "%s/./lock.db", e2e_tmpdir());
    const char *paths[2] = {a.db, other};
    char pid[32];
    snprintf(pid, sizeof pid, "process %d", (int)a.pid);
    for (int k = 0; k < 2; k++) {
        int status = serve_once(paths[k], err_path, 5000);
        char *err = slurp(err_path);
        CHECK(status == 1, "db_lock: a second server on %s is refused (exit status %d, 1 wanted)",
              paths[k], status);
        CHECK(strstr(err, "in use") != NULL && strstr(err, paths[k]) != NULL,
              "db_lock: its message says the database %s is in use: %s", paths[k], err);
        CHECK(strstr(err, pid) != NULL, "db_lock: its message names the holder, %s", pid);
        free(err);
    }

    /* The first server goes on as if nothing happened. */
    play_to(c, 20);
    CHECK(c->at >= 20, "db_lock: the first server's table %d plays on (at %ld)", table, c->at);
    e2e_client_free(c);
    CHECK(e2e_server_stop(&a) == 0, "db_lock: the first server exits 0 on SIGTERM");

    /* Once it has stopped the database is free again. */
    e2e_server b;
    e2e_server_start(&b, "lock.db");
    CHECK(e2e_server_alive(&b), "db_lock: a server starts on the database once the first stopped");
    CHECK(e2e_server_stop(&b) == 0, "db_lock: and exits 0 on SIGTERM");
}

/* ---------------------------------------------------------- broken_row */

/* One way a row can be damaged: SQL run on table %d (its id, twice at most). */
typedef struct damage {
    const char *what;
    const char *sql;
    bool view; /* the game is still shown as far as it was rebuilt */
    e2e_client *c;
    int table;
} damage;

/* Runs SQL on the stopped server's database; the text may hold one %d
 * (twice) for the table. */
static void damage_db(sqlite3 *db, const char *sql, int table)
{
    char text[400];
    snprintf(text, sizeof text, sql, table, table);
    char *err = NULL;
    REQUIRE(sqlite3_exec(db, text, NULL, NULL, &err) == SQLITE_OK, "damage: %s: %s", text,
            err ? err : "?");
    sqlite3_free(err);
}

/* The summary of a table in a lobby message, or NULL. */
static json_t *summary_of(json_t *lobby, int table)
{
    json_t *tables = json_object_get(lobby, "tables"), *t;
    size_t i;
    json_array_foreach(tables, i,
                       t) if (json_integer_value(json_object_get(t, "id")) == table) return t;
    return NULL;
}

void abuse_broken_row(void)
{
    damage rows[] = {
        {"a seed that is not a number", "UPDATE tables SET seed = 'twelve' WHERE id = %d", false,
         NULL, 0},
        {"an unknown preset", "UPDATE tables SET preset = 'nonesuch' WHERE id = %d", false, NULL,
         0},
        {"house rules that do not read",
         "UPDATE tables SET house = 'this line = is not a rule' WHERE id = %d", false, NULL, 0},
        {"house rules that are NULL", "UPDATE tables SET house = NULL WHERE id = %d", false, NULL,
         0},
        {"options that are not JSON", "UPDATE tables SET options = '{\"kibitz\": 5' WHERE id = %d",
         true, NULL, 0},
        {"a state that is not a number", "UPDATE tables SET state = 'soon' WHERE id = %d", false,
         NULL, 0},
        {"a seat row numbered 9",
         "PRAGMA ignore_check_constraints = ON; "
         "INSERT INTO seats(table_id, seat, bot) VALUES (%d, 9, 0); "
         "PRAGMA ignore_check_constraints = OFF",
         true, NULL, 0},
        {"a seat's name that is not UTF-8",
         "UPDATE seats SET name = CAST(X'C328' AS TEXT) WHERE table_id = %d AND seat = 1", true,
         NULL, 0},
        {"a computer player of no known level",
         "UPDATE seats SET level = 'grandmaster' WHERE table_id = %d AND seat = 1", true, NULL, 0},
        {"an action that does not read",
         "UPDATE actions SET action = 'garbage' WHERE table_id = %d AND n = 2", true, NULL, 0},
        {"an action that is NULL", "UPDATE actions SET action = NULL WHERE table_id = %d AND n = 2",
         true, NULL, 0},
    };
    enum { N = sizeof rows / sizeof rows[0] };

    e2e_server a;
    e2e_server_start(&a, "broken.db");
    for (int k = 0; k < N; k++) {
        char label[24], name[24], seed[24];
        snprintf(label, sizeof label, "broken%d", k);
        snprintf(name, sizeof name, "brk-%d", k);
        snprintf(seed, sizeof seed, "%d", 1000 + k);
        rows[k].c = e2e_client_new(label, a.port);
        e2e_hello(rows[k].c, name);
        rows[k].table = bots_table(rows[k].c, seed);
        rows[k].c->group = e2e_new_group();
    }
    e2e_client *ok = e2e_client_new("fine", a.port);
    e2e_hello(ok, "brk-fine");
    int ok_table = bots_table(ok, "999");
    ok->group = e2e_new_group();
    e2e_client *ghost = e2e_client_new("ghost", a.port);
    e2e_hello(ghost, "brk-ghost");
    for (int k = 0; k < N; k++)
        rows[k].c->autoplay = true;
    ok->autoplay = true;
    long at = 8;
    e2e_play(stop_at, &at, 60000);
    for (int k = 0; k < N; k++)
        rows[k].c->autoplay = false;
    ok->autoplay = false;
    long ok_at = ok->at;
    REQUIRE(e2e_server_stop(&a) == 0, "broken_row: the server exits 0 on SIGTERM");

    /* The attack: each table's rows damaged one way, and a session row
     * with no name.  NOT NULL is taken out of the schema first, as a
     * careless tool or another program might have done. */
    sqlite3 *db;
    REQUIRE(sqlite3_open(a.db, &db) == SQLITE_OK, "open %s", a.db);
    damage_db(db,
              "PRAGMA writable_schema = ON; "
              "UPDATE sqlite_schema SET sql = replace(sql, 'house TEXT NOT NULL', 'house TEXT') "
              "WHERE name = 'tables'; "
              "UPDATE sqlite_schema SET sql = replace(sql, 'action TEXT NOT NULL', 'action TEXT') "
              "WHERE name = 'actions'; "
              "UPDATE sqlite_schema SET sql = replace(sql, 'name TEXT NOT NULL UNIQUE', "
              "'name TEXT UNIQUE') WHERE name = 'sessions'; "
              "PRAGMA writable_schema = OFF",
              0);
    sqlite3_close(db);
    REQUIRE(sqlite3_open(a.db, &db) == SQLITE_OK, "open %s", a.db);
    for (int k = 0; k < N; k++)
        damage_db(db, rows[k].sql, rows[k].table);
    damage_db(db, "UPDATE sessions SET name = NULL WHERE name = 'brk-ghost'", 0);
    sqlite3_close(db);

    /* The server starts all the same. */
    e2e_server_start(&a, "broken.db");
    CHECK(e2e_server_alive(&a), "broken_row: the server starts on the damaged database");

    /* The undamaged table plays on where it was. */
    e2e_client_reconnect(ok, a.port);
    e2e_resume(ok);
    json_t *t = e2e_expect(ok, "table", 5000);
    CHECK(t && !json_object_get(t, "broken"), "broken_row: the undamaged table %d is not broken",
          ok_table);
    json_decref(t);
    json_t *v = e2e_expect(ok, "view", 5000);
    CHECK(v && json_integer_value(json_object_get(v, "at")) == ok_at,
          "broken_row: the undamaged table comes back at %ld", ok_at);
    json_decref(v);
    play_to(ok, ok_at + 10);
    CHECK(ok->at >= ok_at + 10, "broken_row: the undamaged table plays on (at %ld)", ok->at);

    /* Each damaged table is there, shown broken, and takes no action. */
    for (int k = 0; k < N; k++) {
        damage *d = &rows[k];
        e2e_client_reconnect(d->c, a.port);
        e2e_resume(d->c);
        t = e2e_expect(d->c, "table", 5000);
        CHECK(t && json_is_true(json_object_get(t, "broken")) &&
                  strcmp(json_string_value(json_object_get(t, "state")), "paused") == 0,
              "broken_row: the table with %s is shown broken and paused", d->what);
        json_decref(t);
        if (!d->view)
            continue;
        v = e2e_expect(d->c, "view", 5000);
        CHECK(v != NULL, "broken_row: the table with %s shows its game as far as it went", d->what);
        json_decref(v);
        if (e2e_to_move(d->c)) {
            e2e_act(d->c);
            json_t *e = e2e_expect_error(d->c, "paused", NULL, 5000);
            CHECK(e != NULL, "broken_row: an act at the table with %s is refused", d->what);
            json_decref(e);
        }
    }

    /* The lobby lists them broken, the undamaged one not. */
    e2e_client *look = e2e_client_new("look", a.port);
    e2e_send(look, json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "name", "brk-look"));
    json_decref(e2e_expect(look, "welcome", 5000));
    json_t *lobby = e2e_expect(look, "lobby", 5000);
    REQUIRE(lobby != NULL, "broken_row: a lobby follows the welcome");
    for (int k = 0; k < N; k++) {
        json_t *sum = summary_of(lobby, rows[k].table);
        CHECK(sum && json_is_true(json_object_get(sum, "broken")),
              "broken_row: the lobby lists the table with %s as broken", rows[k].what);
    }
    json_t *sum = summary_of(lobby, ok_table);
    CHECK(sum && !json_object_get(sum, "broken"), "broken_row: and the undamaged one as not");
    json_decref(lobby);

    /* The session row with no name was skipped: its token is unknown. */
    e2e_client_reconnect(ghost, a.port);
    e2e_send(ghost,
             json_pack("{s:s, s:i, s:s}", "type", "hello", "version", 1, "token", ghost->token));
    json_t *e = e2e_expect(ghost, "error", 5000);
    CHECK(e != NULL, "broken_row: the session stored without a name is not restored");
    json_decref(e);
    CHECK(e2e_server_stop(&a) == 0, "broken_row: the server exits 0 on SIGTERM");
}

/* ------------------------------------------------------------- db_mode */

/* The permission bits of a file, -1 when it does not exist. */
static int mode_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (int)(st.st_mode & 0777) : -1;
}

void abuse_db_mode(void)
{
    /* The usual umask, under which SQLite makes files every local user can
     * read. */
    mode_t old = umask(022);
    e2e_server a;
    e2e_server_start(&a, "mode.db");
    e2e_client *c = e2e_client_new("mode", a.port);
    e2e_hello(c, "private");
    bots_table(c, "77");
    static const char *const SUFFIX[3] = {"", "-wal", "-shm"};
    for (int k = 0; k < 3; k++) {
        char path[400];
        snprintf(path, sizeof path, "%s%s", a.db, SUFFIX[k]);
        int mode = mode_of(path);
        CHECK(mode == 0600, "db_mode: a new database's file %s is 0600 (it is %03o)", path, mode);
    }
    e2e_client_free(c);
    CHECK(e2e_server_stop(&a) == 0, "db_mode: the server exits 0 on SIGTERM");

    /* An existing database keeps the mode its owner gave it. */
    char kept[400];
    snprintf(kept, sizeof kept, "%s/mode-kept.db", e2e_tmpdir());
    int fd = open(kept, O_WRONLY | O_CREAT | O_EXCL, 0640);
    REQUIRE(fd >= 0, "create %s: %s", kept, strerror(errno));
    close(fd);
    REQUIRE(chmod(kept, 0640) == 0, "chmod %s: %s", kept, strerror(errno));
    e2e_server_start(&a, "mode-kept.db");
    CHECK(mode_of(kept) == 0640, "db_mode: an existing database's mode 0640 is left alone (%03o)",
          mode_of(kept));
    CHECK(e2e_server_stop(&a) == 0, "db_mode: the server exits 0 on SIGTERM");
    umask(old);
}

/* -------------------------------------------------------- db_checkpoint */

/* From the WAL index (the -shm file, https://sqlite.org/walformat.html):
 * the frames in the WAL (mxFrame, at byte 16 of the header) and those
 * copied back into the database (nBackfill, at byte 96).  False when it
 * cannot be read. */
static bool wal_frames(const char *db, uint32_t *frames, uint32_t *copied)
{
    char path[400];
    snprintf(path, sizeof path, "%s-shm", db);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    bool ok = pread(fd, frames, 4, 16) == 4 && pread(fd, copied, 4, 96) == 4;
    close(fd);
    return ok;
}

void abuse_db_checkpoint(void)
{
    /* The server's loop must never run a checkpoint (its fsyncs stalled
     * every table for up to a second on a disk).  SQLite's automatic one
     * waits for 1000 WAL pages; the server's own checkpoint thread copies
     * the WAL back within about a second, so a few dozen actions are in the
     * database file soon after, while the server runs. */
    e2e_server a;
    e2e_server_start(&a, "checkpoint.db");
    e2e_client *c = e2e_client_new("ckpt", a.port);
    e2e_hello(c, "checkpointer");
    bots_table(c, "31");
    c->group = e2e_new_group();
    play_to(c, 40);
    uint32_t frames = 0, copied = 0;
    bool done = false;
    for (long t0 = e2e_now_ms(); !done && e2e_now_ms() - t0 < 10000;) {
        e2e_pump(100);
        done = wal_frames(a.db, &frames, &copied) && frames > 0 && copied == frames;
    }
    CHECK(done,
          "db_checkpoint: the %u WAL frames of %ld actions are copied back into the database "
          "within 10 s, while the server runs (%u are)",
          frames, c->at, copied);
    CHECK(frames < 1000, "db_checkpoint: (that is, before SQLite's own threshold of 1000 pages)");
    e2e_client_free(c);
    CHECK(e2e_server_stop(&a) == 0, "db_checkpoint: the server exits 0 on SIGTERM");
}
