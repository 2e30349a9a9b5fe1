/*
 * abuse_store.c - see abuse.h: attacks on the server's database.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

void abuse_broken_row(void)
{
    printf("SKIP the broken_row attack has no test yet\n");
    exit(77);
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
