/*
 * account.c - barbu connect's side of registered players and moderation
 * (docs/protocol.md, issue 23): the password (a file's first line, or asked
 * on the terminal without echo), the commands typed at the chat line
 * ("/logout all", "/ban NAME WHY" ...), and the server's answers to them
 * (account, done, reported, mod_log, and the reports administrators hear).
 *
 * A password lives in memory only until the server has answered the hello
 * or the command that carried it, and is then wiped; it is never written to
 * a file, the screen or the chat log.
 */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "connect.h"

static const char *get_str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

void cn_password_wipe(char *p, size_t cap)
{
    explicit_bzero(p, cap);
}

/* ------------------------------------------------------------ the password */

int cn_password_read_file(const char *path, char *out, size_t cap, char *why, size_t why_cap)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(why, why_cap, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t n = 0;
    ssize_t len = getline(&line, &n, f);
    fclose(f);
    if (len < 0) {
        free(line);
        snprintf(why, why_cap, "%s is empty: its first line is the password", path);
        return -1;
    }
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        line[--len] = '\0';
    int rc = 0;
    if (len == 0) {
        snprintf(why, why_cap, "the first line of %s is empty: it is the password", path);
        rc = -1;
    } else if ((size_t)len >= cap) {
        snprintf(why, why_cap, "the first line of %s is longer than a password may be", path);
        rc = -1;
    } else {
        memcpy(out, line, (size_t)len + 1);
    }
    explicit_bzero(line, n);
    free(line);
    return rc;
}

int cn_password_prompt(cn *c, const char *prompt, char *out, size_t cap)
{
    /* The screen, if it is up, gives the terminal back for the question. */
    bool screen = c != NULL && c->screen_on && !isendwin();
    if (screen) {
        def_prog_mode();
        endwin();
    }
    int rc = -1;
    int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    struct termios old, quiet;
    if (fd >= 0 && tcgetattr(fd, &old) == 0) {
        quiet = old;
        quiet.c_lflag &= ~(tcflag_t)ECHO;
        quiet.c_lflag |= ICANON | ECHONL;
        if (write(fd, prompt, strlen(prompt)) >= 0 && tcsetattr(fd, TCSAFLUSH, &quiet) == 0) {
            size_t n = 0;
            char ch;
            bool ended = false;
            for (;;) {
                ssize_t r = read(fd, &ch, 1);
                if (r <= 0 || ch == '\n' || ch == '\r') {
                    ended = r > 0;
                    break;
                }
                if (n + 1 < cap)
                    out[n++] = ch;
            }
            out[n] = '\0';
            tcsetattr(fd, TCSAFLUSH, &old);
            rc = ended && n > 0 ? 0 : -1;
            if (rc != 0)
                explicit_bzero(out, cap);
        }
    }
    if (fd >= 0)
        close(fd);
    if (screen) {
        reset_prog_mode();
        clearok(curscr, TRUE);
        refresh();
        c->dirty = true;
    }
    return rc;
}

/* A new password, asked twice. */
static int new_password(cn *c, const char *what, char *out, size_t cap)
{
    char again[sizeof c->password];
    char prompt[200];
    snprintf(prompt, sizeof prompt, "%s for %s (8 to 128 characters, not shown): ", what, c->name);
    if (cn_password_prompt(c, prompt, out, cap) != 0)
        return -1;
    if (cn_password_prompt(c, "The same again: ", again, sizeof again) != 0 ||
        strcmp(again, out) != 0) {
        explicit_bzero(again, sizeof again);
        explicit_bzero(out, cap);
        return 1;
    }
    explicit_bzero(again, sizeof again);
    return 0;
}

int cn_password_before(cn *c)
{
    char why[600];
    if (c->password_file[0]) {
        if (cn_password_read_file(c->password_file, c->password, sizeof c->password, why,
                                  sizeof why) != 0) {
            fprintf(stderr, "barbu connect: --password-file: %s\n", why);
            return 2;
        }
        return 0;
    }
    if (c->want_register) {
        int rc = new_password(c, "A password to register", c->password, sizeof c->password);
        if (rc != 0) {
            fprintf(stderr, "barbu connect: %s\n",
                    rc > 0 ? "the two passwords differ: nothing was registered"
                           : "no password given: nothing was registered");
            return 1;
        }
        return 0;
    }
    if (c->ask_password) {
        char prompt[200];
        snprintf(prompt, sizeof prompt, "Password for %.80s at %.100s: ", c->name, c->url);
        if (cn_password_prompt(c, prompt, c->password, sizeof c->password) != 0) {
            fprintf(stderr, "barbu connect: no password given\n");
            return 1;
        }
    }
    return 0;
}

/* --------------------------------------------------------------- hello */

void cn_hello_fields(cn *c, json_t *hello)
{
    /* With --register and a saved guest session, the session comes back
     * with its token and registers its own name after the welcome. */
    if (c->token[0])
        return;
    if (c->password[0] == '\0')
        return;
    json_object_set_new(hello, "password", json_string(c->password));
    if (c->want_register)
        json_object_set_new(hello, "register", json_true());
}

bool cn_hello_refused(cn *c, const char *code, const char *text)
{
    if (strcmp(code, "registered") == 0 || strcmp(code, "bad_password") == 0) {
        bool wrong = strcmp(code, "bad_password") == 0;
        cn_password_wipe(c->password, sizeof c->password);
        /* A file's password is not asked again; nor one refused three times. */
        if (c->password_file[0] || (wrong && ++c->password_tries >= 3))
            return false;
        char prompt[300];
        snprintf(prompt, sizeof prompt, "%.150s%sPassword for %.80s at %.60s: ", wrong ? text : "",
                 wrong ? "\n" : "", c->name, c->url);
        if (cn_password_prompt(c, prompt, c->password, sizeof c->password) != 0)
            return false;
        cn_status(c, false, "Signing in as %s%s", c->name, "...");
        /* The connection may have closed while the question waited: the
         * next one says hello with the password. */
        if (c->conn == CN_HELLO)
            cn_on_open(c);
        return true;
    }
    return false;
}

void cn_welcomed(cn *c, const json_t *m)
{
    bool was_guest_register = c->want_register && c->token_resumed;
    c->registered = json_is_true(json_object_get(m, "registered"));
    c->admin = json_is_true(json_object_get(m, "admin"));
    const json_t *e = json_object_get(m, "expires");
    c->expires = json_is_integer(e) ? (long long)json_integer_value(e) : 0;
    c->password_tries = 0;
    if (was_guest_register && !c->registered && c->password[0]) {
        /* A guest session resumed with --register: its own name now. */
        json_t *r = json_object();
        json_object_set_new(r, "type", json_string("register"));
        json_object_set_new(r, "password", json_string(c->password));
        cn_send(c, r);
    }
    c->want_register = false;
    cn_password_wipe(c->password, sizeof c->password);
    if (c->registered) {
        char until[40] = "";
        if (c->expires > 0) {
            time_t t = (time_t)c->expires;
            struct tm tm;
            if (localtime_r(&t, &tm) != NULL)
                strftime(until, sizeof until, " until %Y-%m-%d", &tm);
        }
        cn_note(c, "Signed in as %s, a registered player%s%s.", c->name,
                c->admin ? " and an administrator" : "", until);
    } else {
        cn_note(c,
                "Playing as %s, a guest: /register keeps the name for you (/help lists the "
                "commands).",
                c->name);
    }
}

/* ------------------------------------------------------------ commands */

/* The next word of a command line (a "quoted name" may hold spaces). */
static const char *next_word(const char *p, char *out, size_t cap)
{
    while (*p == ' ')
        p++;
    size_t n = 0;
    if (*p == '"') {
        p++;
        while (*p && *p != '"') {
            if (n + 1 < cap)
                out[n++] = *p;
            p++;
        }
        if (*p == '"')
            p++;
    } else {
        while (*p && *p != ' ') {
            if (n + 1 < cap)
                out[n++] = *p;
            p++;
        }
    }
    out[n] = '\0';
    while (*p == ' ')
        p++;
    return p;
}

static json_t *command(cn *c, const char *type)
{
    json_t *m = json_object();
    json_object_set_new(m, "type", json_string(type));
    json_object_set_new(m, "id", json_integer(c->next_id));
    c->next_id = c->next_id < 2147483647 ? c->next_id + 1 : 1;
    return m;
}

static void send_command(cn *c, json_t *m)
{
    if (c->conn != CN_READY) {
        json_decref(m);
        cn_status(c, true, "Not connected to the server: try again once the connection is back.");
        return;
    }
    if (cn_send(c, m) != 0)
        cn_status(c, true, "The message could not be sent.");
}

static void help(cn *c)
{
    cn_note(c, "Commands at the chat line: /logout (sign out here), /logout all (everywhere), "
               "/register (keep this name, as a guest), /password (change it), /report table "
               "[ID] WHY, /report NAME WHY, /help.");
    if (c->admin)
        cn_note(c, "Administrator: /close ID WHY, /remove ID SEAT WHY, /ban NAME WHY, /unban "
                   "NAME, /modlog. A NAME with spaces goes in \"quotes\".");
}

/* A table number, or the one we are at when the word is not a number. */
static int64_t table_word(cn *c, const char **p)
{
    char w[32];
    const char *after = next_word(*p, w, sizeof w);
    char *end;
    long long id = strtoll(w, &end, 10);
    if (w[0] && *end == '\0' && id > 0) {
        *p = after;
        return id;
    }
    return c->screen == CN_TABLE ? c->table.id : -1;
}

bool cn_command(cn *c, const char *line)
{
    if (line[0] != '/' || line[1] == '/' || line[1] == ' ' || line[1] == '\0')
        return false;
    char verb[32];
    const char *p = next_word(line + 1, verb, sizeof verb);
    char name[PROTO_NAME_BYTES + 8];
    if (strcmp(verb, "help") == 0) {
        help(c);
    } else if (strcmp(verb, "logout") == 0) {
        bool all = strcmp(p, "all") == 0 || strcmp(p, "everywhere") == 0;
        if (*p && !all) {
            cn_status(c, true, "/logout signs out here; /logout all everywhere.");
            return true;
        }
        json_t *m = command(c, "logout");
        if (all)
            json_object_set_new(m, "everywhere", json_true());
        c->logging_out = all ? 2 : 1;
        send_command(c, m);
    } else if (strcmp(verb, "register") == 0 || strcmp(verb, "password") == 0) {
        bool change = verb[0] == 'p';
        if (change && !c->registered) {
            cn_status(c, true, "%s is a guest's name: /register gives it a password.", c->name);
            return true;
        }
        if (!change && c->registered) {
            cn_status(c, true, "%s is registered already: /password changes its password.",
                      c->name);
            return true;
        }
        char old[sizeof c->password] = "", fresh[sizeof c->password];
        if (change) {
            char prompt[200];
            snprintf(prompt, sizeof prompt, "The password of %s now: ", c->name);
            if (cn_password_prompt(c, prompt, old, sizeof old) != 0) {
                cn_status(c, true, "No password given: nothing changed.");
                return true;
            }
        }
        int rc = new_password(c, change ? "The new password" : "A password", fresh, sizeof fresh);
        if (rc != 0) {
            explicit_bzero(old, sizeof old);
            cn_status(c, true, "%s: nothing changed.",
                      rc > 0 ? "The two passwords differ" : "No password given");
            return true;
        }
        json_t *m = command(c, change ? "password" : "register");
        json_object_set_new(m, "password", json_string(change ? old : fresh));
        if (change)
            json_object_set_new(m, "new_password", json_string(fresh));
        explicit_bzero(old, sizeof old);
        explicit_bzero(fresh, sizeof fresh);
        send_command(c, m);
        cn_status(c, false, "%s", change ? "Changing the password..." : "Registering...");
    } else if (strcmp(verb, "report") == 0) {
        json_t *m = command(c, "report");
        char first[PROTO_NAME_BYTES + 8];
        const char *rest = next_word(p, first, sizeof first);
        if (strcmp(first, "table") == 0) {
            int64_t id = table_word(c, &rest);
            if (id < 0) {
                json_decref(m);
                cn_status(c, true, "Which table? /report table ID WHY, as the lobby numbers it.");
                return true;
            }
            json_object_set_new(m, "table", json_integer(id));
        } else if (first[0]) {
            json_object_set_new(m, "name", json_string(first));
        }
        if (first[0] == '\0' || *rest == '\0') {
            json_decref(m);
            cn_status(c, true, "/report table [ID] WHY, or /report NAME WHY: say what happened.");
            return true;
        }
        json_object_set_new(m, "text", json_string(rest));
        send_command(c, m);
    } else if (strcmp(verb, "close") == 0 || strcmp(verb, "remove") == 0) {
        bool remove = verb[0] == 'r';
        int64_t id = table_word(c, &p);
        char seat[8] = "";
        if (remove)
            p = next_word(p, seat, sizeof seat);
        if (id < 0 || (remove && proto_seat_read(seat) < 0) || *p == '\0') {
            cn_status(c, true, "%s",
                      remove ? "/remove ID SEAT WHY: the table, the seat (N, E, S or W), why."
                             : "/close ID WHY: the table's number and why.");
            return true;
        }
        json_t *m = command(c, remove ? "mod_remove" : "mod_close");
        json_object_set_new(m, "table", json_integer(id));
        if (remove)
            json_object_set_new(m, "seat", json_string(seat));
        json_object_set_new(m, "text", json_string(p));
        send_command(c, m);
    } else if (strcmp(verb, "ban") == 0 || strcmp(verb, "unban") == 0) {
        bool ban = verb[0] == 'b';
        p = next_word(p, name, sizeof name);
        if (name[0] == '\0' || (ban && *p == '\0')) {
            cn_status(c, true, "%s",
                      ban ? "/ban NAME WHY: the handle and why." : "/unban NAME: the handle.");
            return true;
        }
        json_t *m = command(c, verb);
        json_object_set_new(m, "name", json_string(name));
        if (ban)
            json_object_set_new(m, "text", json_string(p));
        send_command(c, m);
    } else if (strcmp(verb, "modlog") == 0 || strcmp(verb, "mod_log") == 0) {
        send_command(c, command(c, "mod_log"));
    } else {
        cn_status(c, true,
                  "There is no command /%s: /help lists them (// sends a line that starts "
                  "with /).",
                  verb);
    }
    return true;
}

/* ------------------------------------------------------ server messages */

static void when(long long at, char *out, size_t cap)
{
    time_t t = (time_t)at;
    struct tm tm;
    if (at <= 0 || localtime_r(&t, &tm) == NULL || strftime(out, cap, "%m-%d %H:%M", &tm) == 0)
        snprintf(out, cap, "?");
}

/* One report or act as a line of the chat log. */
static void row_note(cn *c, const char *kind, const json_t *o)
{
    char at[32];
    const json_t *t = json_object_get(o, "table");
    when(json_is_integer(json_object_get(o, "at"))
             ? (long long)json_integer_value(json_object_get(o, "at"))
             : 0,
         at, sizeof at);
    char about[160] = "";
    if (json_is_integer(t))
        snprintf(about, sizeof about, " table %lld", (long long)json_integer_value(t));
    const char *name = get_str(o, "name");
    if (name) {
        size_t n = strlen(about);
        snprintf(about + n, sizeof about - n, " %s", name);
    }
    const char *act = get_str(o, "act"), *by = get_str(o, "by"), *text = get_str(o, "text");
    long long id = json_is_integer(json_object_get(o, "id"))
                       ? (long long)json_integer_value(json_object_get(o, "id"))
                       : 0;
    char clean[PROTO_MAX_CHAT + 1];
    snprintf(clean, sizeof clean, "%s", text ? text : "");
    for (char *q = clean; *q; q++)
        if ((unsigned char)*q < ' ' || *q == 127)
            *q = ' ';
    cn_note(c, "%s %lld, %s, by %s: %s%s: %s", kind, id, at, by ? by : "?", act ? act : "",
            about[0] ? about : " -", clean);
}

bool cn_account_message(cn *c, const char *type, const json_t *m)
{
    if (strcmp(type, "account") == 0) {
        const char *token = get_str(m, "token");
        if (token != NULL && strlen(token) == PROTO_TOKEN_LEN)
            cn_token_save(c, token);
        bool was = c->registered;
        c->registered = json_is_true(json_object_get(m, "registered"));
        c->admin = json_is_true(json_object_get(m, "admin"));
        const json_t *e = json_object_get(m, "expires");
        if (json_is_integer(e))
            c->expires = (long long)json_integer_value(e);
        if (was)
            cn_note(c, "The password of %s is changed; the other devices are signed out.", c->name);
        else
            cn_note(c, "%s is registered: nobody else may use the name now.", c->name);
        cn_status(c, false, "%s", was ? "Password changed." : "Registered.");
    } else if (strcmp(type, "done") == 0) {
        const char *re = get_str(m, "re");
        cn_status(c, false, "Done: %s.", re ? re : "?");
        cn_note(c, "Done: %s.", re ? re : "?");
    } else if (strcmp(type, "reported") == 0) {
        const json_t *id = json_object_get(m, "report");
        cn_status(c, false, "Report %lld sent to the administrators.",
                  json_is_integer(id) ? (long long)json_integer_value(id) : 0LL);
    } else if (strcmp(type, "report") == 0) {
        row_note(c, "New report", m);
        cn_status(c, false, "A new report: /modlog lists them.");
    } else if (strcmp(type, "mod_log") == 0) {
        const json_t *reports = json_object_get(m, "reports"), *acts = json_object_get(m, "acts"),
                     *banned = json_object_get(m, "banned");
        cn_note(c, "Moderation log: %zu reports, %zu acts, %zu banned.", json_array_size(reports),
                json_array_size(acts), json_array_size(banned));
        size_t i;
        const json_t *o;
        json_array_foreach(reports, i, o) row_note(c, "report", o);
        json_array_foreach(acts, i, o) row_note(c, "act", o);
        json_array_foreach(banned, i, o)
        {
            char at[32];
            const json_t *a = json_object_get(o, "at");
            when(json_is_integer(a) ? (long long)json_integer_value(a) : 0, at, sizeof at);
            cn_note(c, "banned: %s, %s, by %s: %s", get_str(o, "name") ? get_str(o, "name") : "?",
                    at, get_str(o, "by") ? get_str(o, "by") : "?",
                    get_str(o, "text") ? get_str(o, "text") : "");
        }
        cn_status(c, false, "The moderation log is in the chat log.");
    } else {
        return false;
    }
    c->dirty = true;
    return true;
}

bool cn_account_bye(cn *c, const char *reason)
{
    if (strcmp(reason, "logout") == 0 || strcmp(reason, "signed_out") == 0 ||
        strcmp(reason, "banned") == 0) {
        bool ours = c->logging_out != 0;
        bool all = c->logging_out == 2;
        c->logging_out = 0;
        cn_token_save(c, NULL);
        if (strcmp(reason, "banned") == 0) {
            snprintf(c->conn_why, sizeof c->conn_why,
                     "the name %s is banned from this server (bye: banned)", c->name);
            c->fatal = true;
        } else if (ours) {
            snprintf(c->conn_why, sizeof c->conn_why, "signed out%s",
                     all ? " everywhere" : " (this device)");
            c->signed_out = true;
        } else {
            snprintf(c->conn_why, sizeof c->conn_why,
                     "signed out from another device (bye: signed_out): r signs in again");
        }
        cn_note(c, "%c%s.", c->conn_why[0] - ('a' - 'A'), c->conn_why + 1);
        cn_status(c, !ours, "%c%s.", c->conn_why[0] - ('a' - 'A'), c->conn_why + 1);
        cn_net_drop(c, true);
        if (ours)
            c->quit = true;
        return true;
    }
    return false;
}
