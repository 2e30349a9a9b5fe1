/*
 * cli.h - what the subcommands of the barbu program share.
 */
#ifndef BARBU_CLI_H
#define BARBU_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "barbu/ai.h"
#include "barbu/barbu.h"

/* The subcommands: each takes the arguments after its name and returns the
 * process exit status (0 ok, 1 failure, 2 usage error). */
int cmd_play(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_rules(int argc, char **argv);

/* Rules from --rules: a preset name, or a rules file.  Prints the error
 * (with the file and line) to stderr and returns nonzero on failure. */
int cli_load_rules(const char *arg, barbu_rules *rules);

/* Reads a whole file into a malloc'd, NUL-terminated buffer; prints the
 * error to stderr and returns nonzero on failure. */
int cli_read_file(const char *path, char **text, size_t *len);

/* Writes a whole buffer to a file (via a temporary file and a rename, so a
 * full disk never leaves half a record); prints the error on failure. */
int cli_write_file(const char *path, const char *text, size_t len);

/* Parses a seed (decimal, up to 2^64-1); returns nonzero if malformed. */
int cli_parse_seed(const char *text, uint64_t *seed);

/* A seed from the clock and the process, for games started without one. */
uint64_t cli_fresh_seed(void);

/* "No Hearts", "Trumps ♠", "Domino from 8" for a deal's contract. */
void cli_contract_label(const barbu_rules *rules, unsigned contracts, int trump, int rank,
                        char *buf, size_t cap);

/* Prints a score sheet line per deal and the totals. */
void cli_print_sheet(FILE *out, const barbu_rules *rules, const barbu_result *results, int n,
                     const char *const names[4]);

/* Prints a deal's result as a JSON object (no newline). */
void cli_json_result(FILE *out, const barbu_rules *rules, const barbu_result *r);

#endif
