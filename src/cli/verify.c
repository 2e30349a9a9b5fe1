/*
 * verify.c - checks that a game record is the game its key (or seed)
 * deals: the commitment published before the first card is the key's hash,
 * every deal, draw and cut is the key's, and every action is legal.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: barbu verify RECORD\n\n"
                 "Checks that a game was dealt fairly.  For a served game's record (format 3):\n"
                 "that its Commitment, published before the first card, is the BLAKE2b-256 hash\n"
                 "of its Key (as 'xxd -r -p <<<KEY | b2sum -l 256' computes it); then, for any\n"
                 "record, that the first declarer, each deal's hands, each Silly Round's first\n"
                 "dealer and every cut are the ones the key (or the seed) deals; then replays\n"
                 "every action through the engine.  Prints what it checked.\n\n"
                 "Exit status: 0 when all holds; 1 with exactly what differs (the deal, the\n"
                 "seat, what the key deals and what the record says) or the first illegal\n"
                 "action; 2 for a record that cannot be read, or whose key is withheld (the\n"
                 "game is not over yet).\n");
}

typedef struct tally {
    int deals;
    int32_t total[4];
} tally;

static void add_result(const barbu_result *r, void *ctx)
{
    tally *t = ctx;
    t->deals++;
    for (int i = 0; i < 4; i++)
        t->total[i] += r->score[i];
}

int cmd_verify(int argc, char **argv)
{
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "barbu verify: unknown option '%s'\n\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (cli_take_path("barbu verify", argv[i], &path) != 0) {
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
        cli_print_diag(path, &diag, "barbu verify");
        return 2;
    }
    tally t = {0};
    barbu_state s;
    memset(&diag, 0, sizeof diag);
    int err = barbu_record_verify(rec, &s, add_result, &t, &diag);
    if (err != 0) {
        cli_print_diag(path, &diag, "%s", path);
        barbu_record_free(rec);
        return err == BARBU_EINVAL ? 2 : 1;
    }
    char from[160];
    uint8_t commitment[BARBU_KEY_BYTES];
    if (barbu_record_commitment(rec, commitment)) {
        char hex[BARBU_KEY_HEX];
        barbu_key_format(commitment, hex);
        printf("%s: the commitment %s is the BLAKE2b-256 hash of the key\n", path, hex);
        snprintf(from, sizeof from, "the key committed to as %.8s...", hex);
    } else {
        snprintf(from, sizeof from, "seed %" PRIu64, barbu_record_seed(rec));
    }
    const barbu_rules *rules = barbu_record_rules(rec);
    bool fife = rules->game == BARBU_GAME_FIFE;
    int dealt = s.t.deal + (barbu_over(&s) ? 0 : 1);
    printf("%s: %d deal%s dealt from %s: the first %s, every deal's hands%s\n", path, dealt,
           dealt == 1 ? "" : "s", from, fife ? "Caller" : "declarer",
           fife ? ", the Silly Rounds' first dealers and every cut" : "");
    printf("%s: every action legal (%d); %s; totals N %+" PRId32 " E %+" PRId32 " S %+" PRId32
           " W %+" PRId32 "\n",
           path, barbu_record_actions(rec),
           barbu_over(&s) ? "the game is complete" : "the game is not over", t.total[0], t.total[1],
           t.total[2], t.total[3]);
    barbu_record_free(rec);
    return 0;
}
