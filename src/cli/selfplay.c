/*
 * selfplay.c - computer players play whole games: one JSON line per game.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "barbu/ai.h"
#include "cli.h"

#define DEFAULT_BOTS "heuristic"

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: barbu selfplay [--rules R] [--seed S] [--games N] [--bots KIND[,KIND,KIND,KIND]]\n"
        "                      [--json] [--records DIR] [--key HEX]\n\n"
        "Computer players play whole games.  Game i uses seed S+i, so every game can be\n"
        "played again.\n\n"
        "  --rules R      a preset or a rules file (default uk); the presets are listed\n"
        "                 by 'barbu rules --list'\n"
        "  --seed S       the first game's seed (default 1)\n"
        "  --games N      how many games (default 1)\n"
        "  --bots K       ");
    char kinds[200], text[400];
    snprintf(text, sizeof text,
             "the players: one kind for all, or four (N,E,S,W), of: %s (default %s, "
             "the same player as easy)",
             cli_bot_kinds(kinds, sizeof kinds, ", ", ", "), DEFAULT_BOTS);
    cli_print_wrapped(out, text, 17, 17);
    fprintf(out, "  --json         one JSON line per game: seed, per-deal contract, declarer and\n"
                 "                 scores, and the totals (N E S W)\n"
                 "  --records DIR  also write each game's record to DIR/game-SEED.txt (DIR is\n"
                 "                 made if it is missing)\n"
                 "  --key HEX      one game dealt from this 256-bit key (64 hex digits) through\n"
                 "                 ChaCha20, as a served game is, instead of from the seed (the\n"
                 "                 players' own choices still come from S); its record is\n"
                 "                 format 3, with the key and its commitment\n");
}

static int parse_bots(const char *arg, char kinds[4][16])
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", arg);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n == 4 || strlen(tok) >= 16)
            return -1;
        barbu_bot *probe = barbu_bot_new(tok, 0);
        if (probe == NULL)
            return -1;
        barbu_bot_free(probe);
        snprintf(kinds[n++], 16, "%s", tok);
    }
    if (n == 1)
        for (int i = 1; i < 4; i++)
            memcpy(kinds[i], kinds[0], 16);
    return n == 1 || n == 4 ? 0 : -1;
}

typedef struct game_out {
    barbu_result results[512];
    int n;
} game_out;

static int play_one(const barbu_rules *rules, uint64_t seed, const uint8_t *key, char kinds[4][16],
                    bool json, const char *records, int32_t totals[4])
{
    barbu_state s;
    int err = key ? barbu_init_keyed(&s, rules, key) : barbu_init(&s, rules, seed);
    if (err != 0) {
        fprintf(stderr, "barbu selfplay: %s\n", barbu_strerror(err));
        return 1;
    }
    barbu_bot *bots[4] = {0};
    barbu_record *rec = NULL;
    if (records)
        rec = key ? barbu_record_new_keyed(rules, key) : barbu_record_new(rules, seed);
    for (int i = 0; i < 4; i++) {
        bots[i] = barbu_bot_new(kinds[i], seed * 4 + (uint64_t)i);
        if (rec)
            barbu_record_set_tag(rec, (const char *[]){"North", "East", "South", "West"}[i],
                                 kinds[i]);
    }
    if (rec)
        barbu_record_set_tag(rec, "Event", "barbu selfplay");
    game_out *out = calloc(1, sizeof *out);
    int status = out == NULL || (records && rec == NULL);
    while (status == 0 && !barbu_over(&s)) {
        barbu_view view;
        int seat = barbu_to_move(&s);
        barbu_view_of(&s, seat, &view);
        barbu_action a;
        barbu_state before = s;
        if ((err = barbu_bot_choose(bots[seat], &view, &a)) != 0 ||
            (err = barbu_apply(&s, &a)) != 0) {
            fprintf(stderr, "barbu selfplay: seed %" PRIu64 ": the %s player failed: %s\n", seed,
                    kinds[seat], barbu_strerror(err));
            status = 1;
            break;
        }
        if (rec && barbu_record_add(rec, &before, &a) != 0)
            status = 1;
        if (s.t.deal != before.t.deal && out->n < 512)
            out->results[out->n++] = s.t.last;
    }
    if (status == 0 && json) {
        printf("{\"seed\":%" PRIu64 ",\"rules\":\"%s\",\"players\":[\"%s\",\"%s\",\"%s\",\"%s\"],"
               "\"deals\":[",
               seed, rules->preset, kinds[0], kinds[1], kinds[2], kinds[3]);
        for (int i = 0; i < out->n; i++) {
            if (i)
                printf(",");
            cli_json_result(stdout, rules, &out->results[i]);
        }
        printf("],\"totals\":[%" PRId32 ",%" PRId32 ",%" PRId32 ",%" PRId32 "]}\n", s.t.total[0],
               s.t.total[1], s.t.total[2], s.t.total[3]);
    } else if (status == 0) {
        printf("seed %-10" PRIu64 " N %+5" PRId32 "  E %+5" PRId32 "  S %+5" PRId32 "  W %+5" PRId32
               "\n",
               seed, s.t.total[0], s.t.total[1], s.t.total[2], s.t.total[3]);
    }
    if (status == 0 && rec) {
        char path[4096], *text;
        size_t len;
        barbu_diag diag = {0};
        snprintf(path, sizeof path, "%s/game-%" PRIu64 ".txt", records, seed);
        if (barbu_record_write(rec, &text, &len, &diag) != 0) {
            fprintf(stderr, "barbu selfplay: cannot write the record: %s\n", diag.msg);
            status = 1;
        } else {
            status = cli_write_file(path, text, len);
            free(text);
        }
    }
    for (int i = 0; i < 4; i++) {
        totals[i] += s.t.total[i];
        barbu_bot_free(bots[i]);
    }
    barbu_record_free(rec);
    free(out);
    return status;
}

int cmd_selfplay(int argc, char **argv)
{
    const char *rules_arg = "uk", *records = NULL;
    uint64_t seed = 1;
    long games = 1;
    bool json = false, keyed = false;
    uint8_t key[BARBU_KEY_BYTES];
    char kinds[4][16] = {DEFAULT_BOTS, DEFAULT_BOTS, DEFAULT_BOTS, DEFAULT_BOTS};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--rules") == 0 && has_value) {
            rules_arg = argv[++i];
        } else if (strcmp(a, "--seed") == 0 && has_value) {
            if (cli_parse_seed(argv[++i], &seed) != 0) {
                fprintf(stderr, "barbu selfplay: --seed takes a whole number, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--games") == 0 && has_value) {
            char *end;
            games = strtol(argv[++i], &end, 10);
            if (*end || games < 1 || games > 100000000) {
                fprintf(stderr, "barbu selfplay: --games takes a number from 1, not '%s'\n",
                        argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--bots") == 0 && has_value) {
            if (parse_bots(argv[++i], kinds) != 0) {
                char names[200];
                fprintf(stderr, "barbu selfplay: --bots takes one kind or four, of %s; not '%s'\n",
                        cli_bot_kinds(names, sizeof names, ", ", ", "), argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--records") == 0 && has_value) {
            records = argv[++i];
        } else if (strcmp(a, "--key") == 0 && has_value) {
            if (barbu_key_parse(argv[++i], key) != 0) {
                fprintf(stderr, "barbu selfplay: --key takes 64 hex digits, not '%s'\n", argv[i]);
                return 2;
            }
            keyed = true;
        } else {
            fprintf(stderr, "barbu selfplay: unknown option '%s'\n\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (keyed && games != 1) {
        fprintf(stderr, "barbu selfplay: a key deals one game: leave out --games, or --key\n");
        return 2;
    }
    barbu_rules rules;
    if (cli_load_rules(rules_arg, &rules) != 0)
        return 1;
    /* The records' directory is made if it is missing (not its parents). */
    if (records != NULL && mkdir(records, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "barbu selfplay: cannot make the directory %s: %s\n", records,
                strerror(errno));
        return 1;
    }
    int32_t totals[4] = {0};
    for (long g = 0; g < games; g++)
        if (play_one(&rules, seed + (uint64_t)g, keyed ? key : NULL, kinds, json, records,
                     totals) != 0)
            return 1;
    if (!json && games > 1)
        printf("mean per game: N %+.1f  E %+.1f  S %+.1f  W %+.1f\n", totals[0] / (double)games,
               totals[1] / (double)games, totals[2] / (double)games, totals[3] / (double)games);
    return 0;
}
