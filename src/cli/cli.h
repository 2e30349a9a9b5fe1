/*
 * cli.h - what the subcommands of the barbu program share.
 */
#ifndef BARBU_CLI_H
#define BARBU_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "barbu/barbu.h"

/* The subcommands: each takes the arguments after its name and returns the
 * process exit status (0 ok, 1 failure, 2 usage error). */
int cmd_play(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_arena(int argc, char **argv); /* arena.c */
int cmd_rules(int argc, char **argv);
int cmd_scoresheet(int argc, char **argv);
int cmd_serve(int argc, char **argv);   /* serve.c */
int cmd_connect(int argc, char **argv); /* connect.c */
int cmd_verify(int argc, char **argv);  /* verify.c */
int cmd_analyse(int argc, char **argv); /* analyse.c */

/* Rules from --rules: a preset name, or a rules file.  Prints the error
 * (with the file and line) to stderr and returns nonzero on failure. */
int cli_load_rules(const char *arg, barbu_rules *rules);

/* Reads a whole file into a malloc'd, NUL-terminated buffer; prints the
 * error to stderr and returns nonzero on failure. */
int cli_read_file(const char *path, char **text, size_t *len);

/* Reads a whole file as cli_read_file does, without printing: on failure
 * returns nonzero with the reason in why. */
int cli_load_file(const char *path, char **text, size_t *len, char *why, size_t cap);

/* Reads a game record from a file; prints the error (the file and line) to
 * stderr and returns NULL on failure.  Free with barbu_record_free.
 * cli_load_record does the same without printing: it returns 0 or an
 * error with its line and reason in *diag (line 0: the file could not be
 * read). */
barbu_record *cli_read_record(const char *path);
int cli_load_record(const char *path, barbu_record **rec, barbu_diag *diag);

/* Prints a record's error to stderr: "path:line: reason" where the error
 * has a line, else the words of fmt (as printf's) then ": reason", which
 * lets each command name itself as it always has. */
void cli_print_diag(const char *path, const barbu_diag *diag, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Takes a command's one record file from its arguments: the first `arg`
 * not an option becomes *path and 0 is returned; a second one is an
 * error, "CMD: one record at a time" on stderr, and 2 is returned (the
 * usage error of every command that reads one record). */
int cli_take_path(const char *cmd, const char *arg, const char **path);

/* Writes a whole buffer to a file (via a temporary file and a rename, so a
 * full disk never leaves half a record); prints the error on failure. */
int cli_write_file(const char *path, const char *text, size_t len);

/* Parses a seed (decimal, up to 2^64-1); returns nonzero if malformed. */
int cli_parse_seed(const char *text, uint64_t *seed);

/* A seed from the clock and the process, for games started without one. */
uint64_t cli_fresh_seed(void);

/* The kinds of computer player (barbu_bot_kind_name) as a list for a usage
 * text or an error: "random, easy, medium, hard or heuristic" with sep ", "
 * and last " or ".  "heuristic", easy's old name kept for old records and
 * tables, comes last.  Returns buf. */
const char *cli_bot_kinds(char *buf, size_t cap, const char *sep, const char *last);

/* Prints text from column col (0-based) of an 80-column line, breaking
 * between words before column 80 and indenting the lines it starts by
 * indent spaces; then a newline. */
void cli_print_wrapped(FILE *out, const char *text, int col, int indent);

/* "No Hearts", "Trumps ♠", "Domino from 8" for a deal's contract. */
void cli_contract_label(const barbu_rules *rules, unsigned contracts, int trump, int rank,
                        char *buf, size_t cap);

/* Prints a score sheet line per deal and the totals. */
void cli_print_sheet(FILE *out, const barbu_rules *rules, const barbu_result *results, int n,
                     const char *const names[4]);

/* Prints a deal's result as a JSON object (no newline). */
void cli_json_result(FILE *out, const barbu_rules *rules, const barbu_result *r);

/* The Fife game's score sheet (scoresheet.c), the way the booklet of seed
 * 000 keeps it: as text with the marks as short tags and a key under it,
 * and as a self-contained HTML page (inline CSS and SVG, nothing fetched)
 * with the marks drawn as pictures.  cli_fife_sheet_html returns 0 and a
 * malloc'd page the caller frees, or BARBU_ENOMEM. */
void cli_fife_sheet_text(FILE *out, const barbu_sheet *sheet, const char *const names[4]);
int cli_fife_sheet_html(const barbu_sheet *sheet, const char *const names[4], const char *subtitle,
                        char **html, size_t *len);

#endif
