/*
 * common.c - rules loading, files, seeds and score sheets for the commands.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "barbu/ai.h"
#include "cli.h"

int cli_load_file(const char *path, char **text, size_t *len, char *why, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(why, cap, "cannot open %s: %s", path, strerror(errno));
        return 1;
    }
    size_t room = 1 << 16, n = 0;
    char *buf = malloc(room + 1);
    while (buf != NULL) {
        n += fread(buf + n, 1, room - n, f);
        if (n < room)
            break;
        if (room >= (size_t)64 << 20) {
            snprintf(why, cap, "%s is larger than 64 MiB", path);
            free(buf);
            fclose(f);
            return 1;
        }
        room *= 2;
        char *bigger = realloc(buf, room + 1);
        if (bigger == NULL)
            free(buf);
        buf = bigger;
    }
    if (buf == NULL) {
        snprintf(why, cap, "out of memory reading %s", path);
        fclose(f);
        return 1;
    }
    if (ferror(f)) {
        snprintf(why, cap, "cannot read %s: %s", path, strerror(errno));
        free(buf);
        fclose(f);
        return 1;
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

int cli_read_file(const char *path, char **text, size_t *len)
{
    char why[512];
    if (cli_load_file(path, text, len, why, sizeof why) != 0) {
        fprintf(stderr, "barbu: %s\n", why);
        return 1;
    }
    return 0;
}

int cli_load_record(const char *path, barbu_record **rec, barbu_diag *diag)
{
    char *text;
    size_t len;
    *rec = NULL;
    memset(diag, 0, sizeof *diag);
    if (cli_load_file(path, &text, &len, diag->msg, sizeof diag->msg) != 0)
        return BARBU_EINVAL;
    int err = barbu_record_read(text, len, rec, diag);
    free(text);
    return err;
}

barbu_record *cli_read_record(const char *path)
{
    barbu_record *rec;
    barbu_diag diag;
    if (cli_load_record(path, &rec, &diag) != 0) {
        cli_print_diag(path, &diag, "barbu");
        return NULL;
    }
    return rec;
}

void cli_print_diag(const char *path, const barbu_diag *diag, const char *fmt, ...)
{
    if (diag->line > 0) {
        fprintf(stderr, "%s:%d: %s\n", path, diag->line, diag->msg);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, ": %s\n", diag->msg);
}

int cli_take_path(const char *cmd, const char *arg, const char **path)
{
    if (*path != NULL) {
        fprintf(stderr, "%s: one record at a time\n", cmd);
        return 2;
    }
    *path = arg;
    return 0;
}

int cli_write_file(const char *path, const char *text, size_t len)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (tmp == NULL) {
        fprintf(stderr, "barbu: out of memory\n");
        return 1;
    }
    snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int err = 0;
    if (f == NULL) {
        err = errno;
    } else {
        if (fwrite(text, 1, len, f) != len)
            err = errno ? errno : EIO;
        if (fflush(f) != 0 && err == 0)
            err = errno;
        if (fclose(f) != 0 && err == 0)
            err = errno;
        if (err == 0 && rename(tmp, path) != 0)
            err = errno;
        if (err != 0)
            remove(tmp);
    }
    if (err != 0)
        fprintf(stderr, "barbu: cannot write %s: %s\n", path, strerror(err));
    free(tmp);
    return err != 0;
}

int cli_load_rules(const char *arg, barbu_rules *rules)
{
    if (barbu_rules_preset(rules, arg) == 0)
        return 0;
    struct stat st;
    if (stat(arg, &st) != 0) {
        fprintf(stderr, "barbu: '%s' is neither a preset (", arg);
        for (int i = 0; barbu_preset_name(i) != NULL; i++)
            fprintf(stderr, "%s%s", i ? ", " : "", barbu_preset_name(i));
        fprintf(stderr, ") nor a rules file\n");
        return 1;
    }
    char *text;
    size_t len;
    if (cli_read_file(arg, &text, &len) != 0)
        return 1;
    barbu_diag diag = {0};
    int err = barbu_rules_parse(rules, text, len, &diag);
    free(text);
    if (err != 0) {
        fprintf(stderr, "%s:%d: %s\n", arg, diag.line, diag.msg);
        return 1;
    }
    return 0;
}

int cli_parse_seed(const char *text, uint64_t *seed)
{
    return barbu_seed_parse(text, seed) != 0;
}

const char *cli_bot_kinds(char *buf, size_t cap, const char *sep, const char *last)
{
    const char *kinds[32];
    int n = 0;
    bool heuristic = false;
    for (int i = 0; barbu_bot_kind_name(i) != NULL && n < 31; i++) {
        if (strcmp(barbu_bot_kind_name(i), "heuristic") == 0)
            heuristic = true;
        else
            kinds[n++] = barbu_bot_kind_name(i);
    }
    if (heuristic)
        kinds[n++] = "heuristic";
    size_t len = 0;
    if (cap > 0)
        buf[0] = '\0';
    for (int i = 0; i < n && len < cap; i++) {
        int w = snprintf(buf + len, cap - len, "%s%s",
                         i == 0       ? ""
                         : i == n - 1 ? last
                                      : sep,
                         kinds[i]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}

void cli_print_wrapped(FILE *out, const char *text, int col, int indent)
{
    const char *p = text;
    bool first = true;
    for (;;) {
        /* The spaces before a word are kept (two after a full stop) unless
         * the line breaks there. */
        size_t gap = strspn(p, " ");
        p += gap;
        if (*p == '\0')
            break;
        size_t n = strcspn(p, " ");
        if (first)
            gap = 0;
        else if (col + (int)(gap + n) > 79) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            gap = 0;
        }
        fprintf(out, "%*s%.*s", (int)gap, "", (int)n, p);
        col += (int)(gap + n);
        first = false;
        p += n;
    }
    fprintf(out, "\n");
}

uint64_t cli_fresh_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    barbu_rng rng;
    barbu_rng_seed(&rng, (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
                             ((uint64_t)getpid() << 40));
    /* Short enough to read out and type back in. */
    return barbu_rng_next(&rng) % 1000000000u;
}

void cli_contract_label(const barbu_rules *rules, unsigned contracts, int trump, int rank,
                        char *buf, size_t cap)
{
    static const char *const SUITS[] = {"\u2663", "\u2666", "\u2665", "\u2660"};
    static const char *const RANKS[] = {"",  "",  "2",  "3", "4", "5", "6", "7",
                                        "8", "9", "10", "J", "Q", "K", "A"};
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned m = contracts; m; m &= m - 1) {
        const barbu_contract *c = &rules->contract[__builtin_ctz(m)];
        n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", n ? " + " : "", c->name);
        if (n >= cap)
            return;
        if (c->kind == BARBU_KIND_TRUMPS && trump >= 0 && trump < 4)
            n += (size_t)snprintf(buf + n, cap - n, " %s", SUITS[trump]);
        else if (c->kind == BARBU_KIND_DOMINO && rank >= 2 && rank <= BARBU_ACE)
            n += (size_t)snprintf(buf + n, cap - n, " from %s", RANKS[rank]);
        if (n >= cap)
            return;
    }
}

/* "NW" for a mask of seats. */
static void seats_text(unsigned mask, char *buf, size_t cap)
{
    size_t n = 0;
    for (int s = 0; s < 4 && n + 1 < cap; s++)
        if (mask & (1u << s))
            buf[n++] = barbu_seat_name(s)[0];
    buf[n] = '\0';
}

/* The bids of a deal in short: "SxNW WxxS" (S doubled N and W, W redoubled S). */
static void bids_text(const barbu_result *r, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int a = 0; a < 4 && n < cap; a++) {
        char d[8], rd[8];
        seats_text(r->dbl[a], d, sizeof d);
        seats_text(r->rdbl[a], rd, sizeof rd);
        if (*rd)
            n += (size_t)snprintf(buf + n, cap - n, "%s%sxx%s", n ? " " : "", barbu_seat_name(a),
                                  rd);
        if (*d && n < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s%sx%s", n ? " " : "", barbu_seat_name(a), d);
    }
}

/* Prints text left-aligned in a field of width columns: printf counts bytes,
 * and a suit symbol is three bytes in one column. */
static void print_field(FILE *out, const char *text, int width)
{
    int cols = 0;
    for (const char *p = text; *p && cols < width; p++) {
        fputc(*p, out);
        if (((unsigned char)p[1] & 0xc0) != 0x80)
            cols++;
    }
    for (; cols < width; cols++)
        fputc(' ', out);
}

/* The longest prefix of text, ending at a space, that fits width columns
 * (all of it if it fits; a whole word if none does). */
static size_t fit_words(const char *text, size_t width)
{
    size_t len = strlen(text);
    if (len <= width)
        return len;
    size_t cut = width;
    while (cut > 0 && text[cut] != ' ')
        cut--;
    if (cut == 0)
        while (text[cut] != '\0' && text[cut] != ' ')
            cut++;
    return cut;
}

void cli_print_sheet(FILE *out, const barbu_rules *rules, const barbu_result *results, int n,
                     const char *const names[4])
{
    /* Narrow enough for an 80-column terminal: the deals, a running total
     * after each declarer's share of the game (seven deals in the standard
     * game), and the total.  Doubles that do not fit go on to more lines. */
    int32_t total[4] = {0};
    int block = barbu_rules_deals(rules) / 4;
    fprintf(out, "%-4s %-4s %-20s %-20s", "deal", "decl", "contract", "doubles");
    for (int s = 0; s < 4; s++)
        fprintf(out, " %6.6s", names && names[s] ? names[s] : barbu_seat_name(s));
    fprintf(out, "\n");
    for (int i = 0; i < n; i++) {
        const barbu_result *r = &results[i];
        char label[64], doubles[64];
        cli_contract_label(rules, r->contracts, r->trump, r->rank, label, sizeof label);
        if (!r->played)
            snprintf(label + strlen(label), sizeof label - strlen(label), " (shared)");
        bids_text(r, doubles, sizeof doubles);
        fprintf(out, "%4d %-4s ", r->deal + 1, barbu_seat_name(r->declarer));
        print_field(out, label, 20);
        fputc(' ', out);
        size_t cut = fit_words(doubles, 20);
        char first[64];
        snprintf(first, sizeof first, "%.*s", (int)cut, doubles);
        print_field(out, first, 20);
        for (int s = 0; s < 4; s++) {
            total[s] += r->score[s];
            fprintf(out, " %+6d", r->score[s]);
        }
        fprintf(out, "\n");
        for (const char *rest = doubles + cut; *rest != '\0';) {
            while (*rest == ' ')
                rest++;
            size_t more = fit_words(rest, 20);
            fprintf(out, "%-4s %-4s %-20s %.*s\n", "", "", "", (int)more, rest);
            rest += more;
        }
        if (block > 0 && (i + 1) % block == 0 && i + 1 < n) {
            fprintf(out, "%-4s %-4s %-20s %-20s", "", "", "running total", "");
            for (int s = 0; s < 4; s++)
                fprintf(out, " %+6" PRId32, total[s]);
            fprintf(out, "\n");
        }
    }
    fprintf(out, "%-4s %-4s %-20s %-20s", "", "", "total", "");
    for (int s = 0; s < 4; s++)
        fprintf(out, " %+6" PRId32, total[s]);
    fprintf(out, "\ndoubles: SxNW = S doubled N and W; NxxS = N redoubled S.\n"
                 "(shared): nobody doubled, so the deal was not played.\n");
}

void cli_json_result(FILE *out, const barbu_rules *rules, const barbu_result *r)
{
    fprintf(out, "{\"deal\":%d,\"declarer\":\"%s\",\"contract\":\"", r->deal + 1,
            barbu_seat_name(r->declarer));
    for (unsigned m = r->contracts, first = 1; m; m &= m - 1, first = 0)
        fprintf(out, "%s%s", first ? "" : "+", rules->contract[__builtin_ctz(m)].key);
    fprintf(out, "\"");
    if (r->trump >= 0)
        fprintf(out, ",\"trump\":\"%c\"", "CDHS"[r->trump]);
    if (r->rank > 0)
        fprintf(out, ",\"rank\":\"%c\"", "??23456789TJQKA"[r->rank]);
    fprintf(out, ",\"played\":%s,\"raw\":[%d,%d,%d,%d],\"scores\":[%d,%d,%d,%d]}",
            r->played ? "true" : "false", r->raw[0], r->raw[1], r->raw[2], r->raw[3], r->score[0],
            r->score[1], r->score[2], r->score[3]);
}
