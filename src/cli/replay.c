/*
 * replay.c - replays a game record through the engine and prints its score
 * sheet, or where and why it stops.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: barbu replay FILE [--json]\n\n"
                 "Applies every action of a game record through the engine.  Prints the score\n"
                 "sheet; at the first illegal action or disagreement, stops and says its deal,\n"
                 "position and reason (exit status 1).\n\n"
                 "  --json   per-deal and total scores as one JSON object; a record that\n"
                 "           cannot be read or replayed gives an \"error\" member (its line,\n"
                 "           deal, position and message), and the exit status is 1\n");
}

typedef struct sheet {
    barbu_result *v;
    int n, cap;
} sheet;

static void add_result(const barbu_result *r, void *ctx)
{
    sheet *sh = ctx;
    if (sh->n == sh->cap) {
        int cap = sh->cap ? sh->cap * 2 : 32;
        barbu_result *v = realloc(sh->v, (size_t)cap * sizeof *v);
        if (v == NULL)
            return;
        sh->v = v;
        sh->cap = cap;
    }
    sh->v[sh->n++] = *r;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

int cmd_replay(int argc, char **argv)
{
    const char *path = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "barbu replay: unknown option '%s'\n\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (cli_take_path("barbu replay", argv[i], &path) != 0) {
            return 2;
        }
    }
    if (path == NULL) {
        usage(stderr);
        return 2;
    }
    barbu_record *rec;
    barbu_diag diag;
    if (cli_load_record(path, &rec, &diag) != 0) {
        if (json) {
            /* Programs read the error where they read the result. */
            printf("{\"file\":");
            json_string(path);
            printf(",\"error\":{\"line\":%d,\"deal\":%d,\"position\":%d,\"message\":", diag.line,
                   diag.deal, diag.position);
            json_string(diag.msg);
            printf("}}\n");
        }
        cli_print_diag(path, &diag, "barbu replay");
        return 1;
    }
    sheet sh = {0};
    barbu_state s;
    memset(&diag, 0, sizeof diag);
    int err = barbu_record_replay(rec, &s, add_result, &sh, &diag);
    const barbu_rules *rules = barbu_record_rules(rec);
    const char *names[4];
    static const char *const TAGS[] = {"North", "East", "South", "West"};
    for (int i = 0; i < 4; i++)
        names[i] = barbu_record_tag(rec, TAGS[i]);
    int32_t totals[4] = {0};
    for (int i = 0; i < sh.n; i++)
        for (int p = 0; p < 4; p++)
            totals[p] += sh.v[i].score[p];
    bool complete = err == 0 && barbu_over(&s);
    /* A keyed game's record names its key (or "withheld") and commitment. */
    uint8_t bytes[BARBU_KEY_BYTES];
    char key[BARBU_KEY_HEX] = "withheld", commitment[BARBU_KEY_HEX] = "";
    bool keyed = barbu_record_commitment(rec, bytes);
    if (keyed)
        barbu_key_format(bytes, commitment);
    if (barbu_record_key(rec, bytes))
        barbu_key_format(bytes, key);
    if (json) {
        printf("{\"file\":");
        json_string(path);
        printf(",\"rules\":\"%s\",", rules->preset);
        if (keyed)
            printf("\"key\":\"%s\",\"commitment\":\"%s\",\"deals\":[", key, commitment);
        else
            printf("\"seed\":%" PRIu64 ",\"deals\":[", barbu_record_seed(rec));
        for (int i = 0; i < sh.n; i++) {
            if (i)
                printf(",");
            cli_json_result(stdout, rules, &sh.v[i]);
        }
        printf("],\"totals\":[%" PRId32 ",%" PRId32 ",%" PRId32 ",%" PRId32 "],\"complete\":%s",
               totals[0], totals[1], totals[2], totals[3], complete ? "true" : "false");
        if (err != 0) {
            printf(",\"error\":{\"line\":%d,\"deal\":%d,\"position\":%d,\"message\":", diag.line,
                   diag.deal, diag.position);
            json_string(diag.msg);
            printf("}");
        }
        printf("}\n");
    } else {
        char from[100];
        if (keyed)
            snprintf(from, sizeof from, "key %.8s... (commitment %.8s...)", key, commitment);
        else
            snprintf(from, sizeof from, "seed %" PRIu64, barbu_record_seed(rec));
        printf("%s: %s rules, %s, %d deal%s replayed%s\n\n", path, rules->preset, from, sh.n,
               sh.n == 1 ? "" : "s", complete ? ", game complete" : "");
        cli_print_sheet(stdout, rules, sh.v, sh.n, names);
    }
    if (err != 0)
        fprintf(stderr, "%s:%d: %s\n", path, diag.line, diag.msg);
    free(sh.v);
    barbu_record_free(rec);
    return err != 0;
}
