/*
 * analyse.c - barbu analyse: what the expert thinks of one seat's decisions
 * in a game record (include/barbu/analyse.h), worst first.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "analysis_json.h"
#include "barbu/analyse.h"
#include "cli.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: barbu analyse RECORD [--seat N|E|S|W] [--level easy|medium|hard] [--json]\n"
            "                     [--seed S] [--threads T] [--all]\n\n"
            "Replays a game record and asks the expert, at each decision of one seat, what it\n"
            "thinks of every option, judging only from what that seat could see then.  Each\n"
            "option is worth the seat's expected settled score of the deal, in points; a\n"
            "decision costs what the best option is worth more than the one taken.  Prints\n"
            "the costliest decisions first.  RECORD is a file name, or - for the standard\n"
            "input.\n\n"
            "  --seat X     the seat to analyse; by default the seat whose player tag names a\n"
            "               person (not a computer player), preferring S, else S\n"
            "  --level L    the expert that judges: easy (quick and rough), medium (the\n"
            "               default, about 0.1 s a decision) or hard (about 1 s)\n"
            "  --json       the analysis as one JSON object (docs/club.md, \"Analysis\")\n"
            "  --seed S     the expert's sampling (default 1): the same seed, the same analysis\n"
            "  --threads T  threads for each decision at medium and easy (default 1; the\n"
            "               result is the same); hard runs on one, which keeps it the same\n"
            "  --all        every decision in the game's order too, not only the mistakes\n\n"
            "Exit status: 0 when done; 1 when the analysis failed (out of memory, or the\n"
            "output could not be written); 2 for bad arguments, or a record that cannot be\n"
            "read or replayed (its line and fault are said).\n");
}

/* Whether a player tag names a person: not a computer player's kind
 * ("medium") nor a server's computer player ("medium bot S"). */
/* The seats as barbu_seat_name numbers them: N, E, S, W. */
enum { SOUTH = 2 };

static bool is_person(const char *name)
{
    if (name == NULL || name[0] == '\0' || strstr(name, " bot ") != NULL)
        return false;
    for (int i = 0; barbu_bot_kind_name(i) != NULL; i++)
        if (strcasecmp(name, barbu_bot_kind_name(i)) == 0)
            return false;
    return true;
}

static int default_seat(const barbu_record *rec)
{
    static const char *const TAGS[] = {"North", "East", "South", "West"};
    if (is_person(barbu_record_tag(rec, TAGS[SOUTH])))
        return SOUTH;
    for (int seat = 0; seat < 4; seat++)
        if (is_person(barbu_record_tag(rec, TAGS[seat])))
            return seat;
    return SOUTH;
}

/* Progress on a terminal, on one line of stderr, which is left open until
 * the last decision (progress_end ends it early, before an error). */
static bool progress_open;

static void progress(void *ctx, int done, int total)
{
    (void)ctx;
    fprintf(stderr, "\ranalysing: %d/%d decisions", done, total);
    progress_open = done < total;
    if (done == total)
        fprintf(stderr, "\r%*s\r", 40, "");
}

static void progress_end(void)
{
    if (progress_open)
        fputc('\n', stderr);
    progress_open = false;
}

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static double num(json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

/* The options of a decision, best first, the first `max` of them and the
 * one chosen wherever it stands. */
static void print_options(json_t *item, int max)
{
    json_t *opts = json_object_get(item, "options");
    int chosen = (int)json_integer_value(json_object_get(item, "chosen_index"));
    size_t i;
    json_t *opt;
    bool skipped = false;
    printf("      options:");
    json_array_foreach(opts, i, opt)
    {
        if ((int)i >= max && (int)i != chosen) {
            if (!skipped)
                printf(" ...");
            skipped = true;
            continue;
        }
        skipped = false; /* any options after the chosen one: another "..." */
        printf("%s %s %+.2f%s", i ? "," : "", str(opt, "action"), num(opt, "value"),
               (int)i == chosen ? " (chosen)" : "");
    }
    if ((int)json_array_size(opts) > max)
        printf(" (%zu in all)", json_array_size(opts));
    printf("\n");
}

static void print_item(json_t *item, bool worst)
{
    printf("  deal %d, step %d: %s", (int)num(item, "deal"), (int)num(item, "step"),
           str(item, "words"));
    if (json_is_true(json_object_get(item, "forced"))) {
        printf(" (forced)\n");
        return;
    }
    double cost = num(item, "cost");
    if (cost >= BARBU_ANALYSIS_MISTAKE)
        printf("\n      cost %.2f: the expert prefers %s\n", cost, str(item, "best"));
    else
        printf("\n      the expert's choice too\n");
    print_options(item, worst ? 4 : 6);
}

/* The analysis as text, from its JSON; 0, or -1 (said on stderr) when the
 * JSON cannot be read. */
static int print_text(const char *path, const char *json, bool all)
{
    json_error_t jerr;
    json_t *o = json_loads(json, 0, &jerr);
    if (o == NULL) {
        fprintf(stderr, "barbu analyse: the analysis's JSON does not read back: %s\n", jerr.text);
        return -1;
    }
    const char *player = str(o, "player");
    printf("%s: seat %s%s%s%s, level %s\n", path, str(o, "seat"), player[0] ? " (" : "", player,
           player[0] ? ")" : "", str(o, "level"));
    json_t *items = json_object_get(o, "items"), *worst = json_object_get(o, "worst");
    int forced = 0;
    size_t i;
    json_t *item, *v;
    json_array_foreach(items, i, item) forced += json_is_true(json_object_get(item, "forced"));
    printf("%d decisions (%d forced), total expected cost %.2f points, %zu mistakes\n",
           (int)num(o, "decisions"), forced, num(o, "total_cost"), json_array_size(worst));
    if (json_array_size(worst) > 0)
        printf("\nThe costliest decisions first:\n");
    json_array_foreach(worst, i, v)
    {
        json_t *it = json_array_get(items, (size_t)json_integer_value(v));
        if (it != NULL)
            print_item(it, true);
    }
    if (all) {
        printf("\nEvery decision:\n");
        json_array_foreach(items, i, item) print_item(item, false);
    }
    json_decref(o);
    return 0;
}

int cmd_analyse(int argc, char **argv)
{
    const char *path = NULL, *level = "medium";
    int seat = -1, threads = 1;
    bool json = false, all = false;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool more = i + 1 < argc;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(arg, "--json") == 0) {
            json = true;
        } else if (strcmp(arg, "--all") == 0) {
            all = true;
        } else if (strcmp(arg, "--seat") == 0 && more) {
            seat = barbu_seat_parse(argv[++i]);
            if (seat < 0 || seat > 3) {
                fprintf(stderr, "barbu analyse: --seat takes N, E, S or W, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(arg, "--level") == 0 && more) {
            level = argv[++i];
            if (strcmp(level, "easy") != 0 && strcmp(level, "medium") != 0 &&
                strcmp(level, "hard") != 0) {
                fprintf(stderr, "barbu analyse: --level takes easy, medium or hard, not '%s'\n",
                        level);
                return 2;
            }
        } else if (strcmp(arg, "--seed") == 0 && more) {
            if (cli_parse_seed(argv[++i], &seed) != 0) {
                fprintf(stderr, "barbu analyse: --seed takes a number, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(arg, "--threads") == 0 && more) {
            char *end;
            errno = 0;
            long t = strtol(argv[++i], &end, 10);
            if (errno || *end || end == argv[i] || t < 1 || t > 64) {
                fprintf(stderr, "barbu analyse: --threads takes 1 to 64, not '%s'\n", argv[i]);
                return 2;
            }
            threads = (int)t;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "barbu analyse: unknown option '%s' (or its value is missing)\n\n",
                    arg);
            usage(stderr);
            return 2;
        } else if (cli_take_path("barbu analyse", arg, &path) != 0) {
            return 2;
        }
    }
    if (path == NULL) {
        usage(stderr);
        return 2;
    }
    barbu_record *rec;
    barbu_diag diag;
    memset(&diag, 0, sizeof diag);
    /* "-" is the standard input, named so in messages. */
    bool in = strcmp(path, "-") == 0;
    int err = cli_load_record(in ? "/dev/stdin" : path, &rec, &diag);
    if (in)
        path = "stdin";
    if (err == 0) {
        /* The reader checks the syntax only: the replay finds the faults of
         * play, with their line. */
        barbu_state s;
        memset(&diag, 0, sizeof diag);
        err = barbu_record_replay(rec, &s, NULL, NULL, &diag);
        if (err != 0)
            barbu_record_free(rec);
    }
    if (err != 0) {
        cli_print_diag(path, &diag, "barbu analyse: %s", path);
        return 2;
    }
    if (seat < 0)
        seat = default_seat(rec);
    barbu_analysis_opts opts = {
        .level = level,
        .seed = seed,
        .threads = threads,
        .progress = isatty(STDERR_FILENO) ? progress : NULL,
    };
    barbu_analysis *a;
    err = barbu_analyse_record(rec, seat, &opts, &a);
    progress_end();
    if (err != 0) {
        fprintf(stderr, "barbu analyse: %s\n", barbu_strerror(err));
        barbu_record_free(rec);
        return 1;
    }
    char *text = barbu_analysis_json(a, rec);
    if (text == NULL) {
        fprintf(stderr, "barbu analyse: the analysis could not be written as JSON (out of "
                        "memory)\n");
        err = 1;
    } else if (json) {
        printf("%s\n", text);
    } else if (print_text(path, text, all) != 0) {
        err = 1;
    }
    /* Output that could not be written (a full disk, a closed pipe) is a
     * failure too, not a silent success. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (err == 0)
            fprintf(stderr, "barbu analyse: cannot write the analysis: %s\n", strerror(errno));
        err = 1;
    }
    free(text);
    barbu_analysis_free(a);
    barbu_record_free(rec);
    return err;
}
