/*
 * main.c - the barbu program: one binary, a subcommand each.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "cli.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} COMMANDS[] = {
    {"serve", cmd_serve, "host tables for players over the network (WebSocket, port 2118)"},
    {"connect", cmd_connect, "join a barbu server from the terminal: lobby, tables, play, chat"},
    {"play", cmd_play, "play against three computer players in the terminal"},
    {"selfplay", cmd_selfplay, "computer players play whole games; one JSON line per game"},
    {"replay", cmd_replay, "replay a game record through the engine and print its score sheet"},
    {"analyse", cmd_analyse, "what the expert thinks of one seat's decisions in a record"},
    {"verify", cmd_verify, "check that a record's deals are the ones its key (or seed) deals"},
    {"arena", cmd_arena, "duplicate matches between computer players, with statistics"},
    {"bench", cmd_bench, "measure the engine: playouts and games per second"},
    {"rules", cmd_rules, "print a preset as a rules file, or check a rules file"},
    {"scoresheet", cmd_scoresheet,
     "the Fife game's score sheet of a record, in the terminal or as a page"},
};

#define N_COMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: barbu COMMAND [OPTIONS]\n\n"
                 "Barbu, the card game for four: every rule set, computer players, records.\n\n"
                 "Commands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-11s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(out, "\n'barbu COMMAND --help' describes a command.  'barbu --version' prints the "
                 "version.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    /* libsodium chooses its fastest code for this machine (keyed deals). */
    if (sodium_init() < 0) {
        fprintf(stderr, "barbu: libsodium cannot start (sodium_init failed)\n");
        return 1;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        if (argc > 2 && strcmp(cmd, "help") == 0) {
            for (size_t i = 0; i < N_COMMANDS; i++) {
                if (strcmp(argv[2], COMMANDS[i].name) == 0) {
                    char *args[] = {argv[2], "--help", NULL};
                    return COMMANDS[i].run(2, args);
                }
            }
        }
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("barbu %s\n", BARBU_VERSION);
        return 0;
    }
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(cmd, COMMANDS[i].name) == 0)
            return COMMANDS[i].run(argc - 1, argv + 1);
    fprintf(stderr, "barbu: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
