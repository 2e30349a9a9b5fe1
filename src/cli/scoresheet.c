/*
 * scoresheet.c - barbu scoresheet: the Fife game's score sheet as its
 * players keep it (seed 000), in the terminal or as a page on which the
 * pictures of the Language of Barbu are drawn.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: barbu scoresheet [--html FILE] [--names A,B,C,D] RECORD\n\n"
                 "Replays the record of a Fife game (the rules of seed 000, preset fife) and\n"
                 "prints its score sheet as the booklet's players keep it: per Set and Round\n"
                 "each player's points for Aces, KHearts, Queens, Hearts, Tricks and the two\n"
                 "Patiences, the Round's total, running totals, the Set's total and positions,\n"
                 "and the overall running scores.  The Caller is marked '(' after the name; the\n"
                 "marks of the Language of Barbu (Eggs, Spiders, Piranhas, Bananas ...) follow\n"
                 "the points as short tags, explained under the sheet.\n\n"
                 "  --html FILE       also write the sheet as a self-contained web page (no\n"
                 "                    file or font is fetched), the marks drawn as pictures\n"
                 "  --names A,B,C,D   the players' names, North first (default: the record's\n"
                 "                    North, East, South and West tags, or the seats when two\n"
                 "                    players share a name)\n\n"
                 "A record that stops replaying prints the sheet as far as it goes, then the\n"
                 "error; no page is written.  Exit status: 0 ok, 1 a record that cannot be\n"
                 "read or replayed or is not a Fife game, 2 a usage error.\n");
}

/* ------------------------------------------------------------ shared words */

/* Room for a name: a record's tags hold at most 255 bytes and --names at
 * most 1023 in all, so a name is never cut inside a UTF-8 sequence. */
#define NAME_CAP 1024

static const char *const COL_HEAD[BARBU_SHEET_COLS] = {
    "Aces", "KHearts", "Queens", "Hearts", "Tricks", "Pat. 1", "Pat. 2",
};

/* The marks a cell can carry, with the terminal's short tag and what they
 * mean.  First/Second/Third Choice are written before the points instead. */
static const struct cell_mark {
    unsigned mark;
    const char *tag;
    const char *meaning;
} CELL_MARKS[] = {
    {BARBU_MARK_EGG, "egg", "a Non-Caller took every card of a Call: the points in an oval"},
    {BARBU_MARK_SPIDER, "spider", "the Caller took every card of a Call: a Spider on the Egg"},
    {BARBU_MARK_WEE_HARRY, "H",
     "the Jack of Hearts taken at a Hearts Call: an H beside the points"},
    {BARBU_MARK_DANGLY, "dangly",
     "the Caller took Wee Harry: a Spider hangs over the H on a thread from the top of the "
     "sheet"},
    {BARBU_MARK_RIPPLE, "ripple",
     "half or more of the points of three or more Calls played together: the points joined "
     "by a wavy line"},
    {BARBU_MARK_PIRANHA, "piranha",
     "El Kingko (the King of Hearts) taken in a trick won by an 8: a toothy fish"},
    {BARBU_MARK_BANANA, "banana", "the Caller won a Single Patience when a Double was possible"},
    {BARBU_MARK_BEEF, "beef",
     "the Caller came last in a Patience chosen while other Calls were left: a large rotten "
     "tomato in the empty space"},
    {BARBU_MARK_CHERRY, "cherry",
     "the Caller came last in a Constipatience: a small rotten tomato"},
    {BARBU_MARK_CONSTIPATIENCE, "constip",
     "a Patience forced on the Caller, every other Call being used up: a padlock"},
};
#define N_CELL_MARKS           (sizeof CELL_MARKS / sizeof CELL_MARKS[0])
/* The legend shows the marks in the booklet's order: the First, Second and
 * Third Choice letters come after this many of CELL_MARKS. */
#define N_MARKS_BEFORE_CHOICES 5

static const struct choice_mark {
    unsigned mark;
    const char *letters;
    const char *meaning;
} CHOICES[] = {
    {BARBU_MARK_FC, "FC", "the Caller took half or more of the points of the Round's first Call"},
    {BARBU_MARK_SC, "SC", "the Caller took half or more of the points of the Round's second Call"},
    {BARBU_MARK_TC, "TC", "the Caller took half or more of the points of the Round's third Call"},
};

static const struct round_mark {
    unsigned mark;
    const char *tag;
    const char *meaning;
} ROUND_MARKS[] = {
    {BARBU_ROUND_FRUIT_BOWL, "fruit bowl", "a Banana and a Tomato in the same Round"},
    {BARBU_ROUND_VIRGIN, "virgin round", "no negative points and first in both Patiences: a halo"},
    {BARBU_ROUND_FULL, "full participation",
     "points in all five negative Calls and both Patiences: a rosette"},
};
#define N_ROUND_MARKS (sizeof ROUND_MARKS / sizeof ROUND_MARKS[0])

/* The engine names the marks; a name it does not know still gets a word. */
static const char *mark_term(unsigned mark)
{
    const char *name = barbu_mark_name(mark);
    return name != NULL && *name ? name : "Mark";
}

static const char *round_term(unsigned mark)
{
    const char *name = barbu_round_mark_name(mark);
    return name != NULL && *name ? name : "Mark";
}

/* Points as the sheet writes them: with their sign, and 0 plain. */
static void points_text(long v, char *buf, size_t cap)
{
    if (v != 0)
        snprintf(buf, cap, "%+ld", v);
    else
        snprintf(buf, cap, "0");
}

static void round_label(int round, char *buf, size_t cap)
{
    if (round == BARBU_SILLY_ROUND)
        snprintf(buf, cap, "S. Round");
    else
        snprintf(buf, cap, "P. Round %d", round + 1);
}

/* "1st", "=2nd" (tied players share the better place). */
static void place_text(const barbu_sheet_set *set, int p, char *buf, size_t cap)
{
    static const char *const SUFFIX[] = {"th", "st", "nd", "rd", "th"};
    int pos = set->position[p];
    bool tied = false;
    for (int q = 0; q < 4; q++)
        tied |= q != p && set->position[q] == pos;
    snprintf(buf, cap, "%s%d%s", tied ? "=" : "", pos, SUFFIX[pos >= 1 && pos <= 4 ? pos : 0]);
}

static const char *choice_letters(unsigned marks)
{
    for (size_t i = 0; i < sizeof CHOICES / sizeof CHOICES[0]; i++)
        if (marks & CHOICES[i].mark)
            return CHOICES[i].letters;
    return NULL;
}

/* The rounds of a Set as a paper sheet has them: all five, begun or not. */
static const barbu_sheet_round *set_round(const barbu_sheet_set *set, int k)
{
    return k < set->n_rounds ? &set->round[k] : NULL;
}

/* The Set's totals so far: its total once complete, else the running total
 * of the last Round begun. */
static int32_t set_total(const barbu_sheet_set *set, int p)
{
    if (set->complete || set->n_rounds == 0)
        return set->total[p];
    return set->round[set->n_rounds - 1].running[p];
}

/* ---------------------------------------------------------- the terminal */

/* Columns a UTF-8 string takes (one a code point: names are not CJK). */
static int text_cols(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

static void put_field(FILE *out, const char *s, int width, bool right)
{
    int pad = width - text_cols(s);
    if (right)
        for (; pad > 0; pad--)
            fputc(' ', out);
    fputs(s, out);
    if (!right)
        for (; pad > 0; pad--)
            fputc(' ', out);
}

/* A cell as the terminal shows it: "FC-60", "-100(spider,piranha)",
 * "(beef)" for a Tomato in an empty cell, "" for nothing. */
static void cell_text(const barbu_sheet_round *r, int p, int c, char *buf, size_t cap)
{
    unsigned marks = r->marks[p][c];
    const char *letters = choice_letters(marks);
    size_t n = 0;
    buf[0] = '\0';
    if (letters != NULL)
        n += (size_t)snprintf(buf + n, cap - n, "%s", letters);
    if (r->points[p][c] != 0 && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "%+d", r->points[p][c]);
    int tags = 0;
    for (size_t i = 0; i < N_CELL_MARKS && n < cap; i++)
        if (marks & CELL_MARKS[i].mark)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", tags++ ? "," : "(", CELL_MARKS[i].tag);
    if (tags && n < cap)
        snprintf(buf + n, cap - n, ")");
}

static void running_line(FILE *out, const char *label, const int32_t v[4],
                         const char *const names[4])
{
    fprintf(out, "  %s:", label);
    for (int p = 0; p < 4; p++)
        fprintf(out, "  %s %s%" PRId32, names[p], v[p] > 0 ? "+" : "", v[p]);
    fputc('\n', out);
}

static void print_set(FILE *out, const barbu_sheet *sheet, int si, const char *const names[4],
                      unsigned *used, unsigned *used_round)
{
    const barbu_sheet_set *set = &sheet->set[si];
    char buf[NAME_CAP + 64];

    /* Every column as wide as its widest entry, so the points line up
     * however many tags a cell carries. */
    int name_w = 6;
    for (int p = 0; p < 4; p++)
        if (text_cols(names[p]) + 2 > name_w)
            name_w = text_cols(names[p]) + 2;
    int w[BARBU_SHEET_COLS + 1];
    for (int c = 0; c < BARBU_SHEET_COLS; c++)
        w[c] = (int)strlen(COL_HEAD[c]);
    w[BARBU_SHEET_COLS] = 5;
    for (int k = 0; k < set->n_rounds; k++) {
        const barbu_sheet_round *r = &set->round[k];
        for (int p = 0; p < 4; p++) {
            for (int c = 0; c < BARBU_SHEET_COLS; c++) {
                cell_text(r, p, c, buf, sizeof buf);
                if ((int)strlen(buf) > w[c])
                    w[c] = (int)strlen(buf);
                for (size_t i = 0; i < N_CELL_MARKS; i++)
                    if (r->marks[p][c] & CELL_MARKS[i].mark)
                        *used |= CELL_MARKS[i].mark;
                *used |= r->marks[p][c] & (BARBU_MARK_FC | BARBU_MARK_SC | BARBU_MARK_TC);
            }
            *used_round |= r->round_marks[p];
        }
    }

    fprintf(out, "Set %d%s\n", si + 1, set->complete ? "" : " (in progress)");
    put_field(out, "Player", name_w + 2, false);
    for (int c = 0; c <= BARBU_SHEET_COLS; c++) {
        fputs("  ", out);
        put_field(out, c < BARBU_SHEET_COLS ? COL_HEAD[c] : "TOTAL", w[c], true);
    }
    fputc('\n', out);
    for (int k = 0; k < set->n_rounds; k++) {
        const barbu_sheet_round *r = &set->round[k];
        round_label(k, buf, sizeof buf);
        fprintf(out, "%s%s\n", buf, r->complete ? "" : " (in progress)");
        for (int p = 0; p < 4; p++) {
            fputs("  ", out);
            snprintf(buf, sizeof buf, "%s%s", names[p], r->caller == p ? " (" : "");
            put_field(out, buf, name_w, false);
            for (int c = 0; c < BARBU_SHEET_COLS; c++) {
                cell_text(r, p, c, buf, sizeof buf);
                fputs("  ", out);
                put_field(out, buf, w[c], true);
            }
            points_text(r->total[p], buf, sizeof buf);
            fputs("  ", out);
            put_field(out, buf, w[BARBU_SHEET_COLS], true);
            for (size_t i = 0, n = 0; i < N_ROUND_MARKS; i++)
                if (r->round_marks[p] & ROUND_MARKS[i].mark)
                    fprintf(out, "%s%s", n++ ? ", " : "  ", ROUND_MARKS[i].tag);
            fputc('\n', out);
        }
        running_line(out, "Running total", r->running, names);
    }

    /* The foot of the sheet, a column per player as in the booklet. */
    int foot_w = 22, pw[4];
    fputc('\n', out);
    for (int p = 0; p < 4; p++)
        pw[p] = text_cols(names[p]) > 6 ? text_cols(names[p]) : 6;
    put_field(out, "", foot_w, false);
    for (int p = 0; p < 4; p++) {
        fputs("  ", out);
        put_field(out, names[p], pw[p], true);
    }
    fputc('\n', out);
    put_field(out, set->complete ? "Set Total" : "Set Total so far", foot_w, false);
    for (int p = 0; p < 4; p++) {
        points_text(set_total(set, p), buf, sizeof buf);
        fputs("  ", out);
        put_field(out, buf, pw[p], true);
    }
    fputc('\n', out);
    if (set->complete) {
        put_field(out, "Set Position", foot_w, false);
        for (int p = 0; p < 4; p++) {
            place_text(set, p, buf, sizeof buf);
            fputs("  ", out);
            put_field(out, buf, pw[p], true);
        }
        fputc('\n', out);
        put_field(out, "Overall Running Scores", foot_w, false);
        for (int p = 0; p < 4; p++) {
            points_text(set->overall[p], buf, sizeof buf);
            fputs("  ", out);
            put_field(out, buf, pw[p], true);
        }
        fputc('\n', out);
    }
}

void cli_fife_sheet_text(FILE *out, const barbu_sheet *sheet, const char *const names[4])
{
    unsigned used = 0, used_round = 0;
    if (sheet->n_sets == 0)
        fprintf(out, "No deal has been completed yet.\n");
    for (int si = 0; si < sheet->n_sets; si++) {
        if (si)
            fputc('\n', out);
        print_set(out, sheet, si, names, &used, &used_round);
    }

    /* A key to what this sheet shows, and nothing else. */
    fprintf(out, "\n'(' after a name marks the Round's Caller.\n");
    for (size_t i = 0; i < sizeof CHOICES / sizeof CHOICES[0]; i++)
        if (used & CHOICES[i].mark)
            fprintf(out, "  %-8s %s: %s\n", CHOICES[i].letters, mark_term(CHOICES[i].mark),
                    CHOICES[i].meaning);
    for (size_t i = 0; i < N_CELL_MARKS; i++)
        if (used & CELL_MARKS[i].mark)
            fprintf(out, "  %-8s %s: %s\n", CELL_MARKS[i].tag, mark_term(CELL_MARKS[i].mark),
                    CELL_MARKS[i].meaning);
    for (size_t i = 0; i < N_ROUND_MARKS; i++)
        if (used_round & ROUND_MARKS[i].mark)
            fprintf(out, "  %s: %s\n", round_term(ROUND_MARKS[i].mark), ROUND_MARKS[i].meaning);
}

/* ------------------------------------------------------------- the page */

/* A growing string; a failed allocation is remembered and reported once at
 * the end, so the drawing code need not check every append. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
    bool failed;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->n;
        int len = vsnprintf(b->p ? b->p + b->n : NULL, room, fmt, ap);
        va_end(ap);
        if (len < 0) {
            b->failed = true;
            return;
        }
        if ((size_t)len < room) {
            b->n += (size_t)len;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 1 << 16;
        while (cap - b->n <= (size_t)len)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (p == NULL) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

/* Text for HTML and SVG: the five characters that could end it escaped. */
static void sb_text(sbuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            sb_printf(b, "&amp;");
            break;
        case '<':
            sb_printf(b, "&lt;");
            break;
        case '>':
            sb_printf(b, "&gt;");
            break;
        case '"':
            sb_printf(b, "&quot;");
            break;
        case '\'':
            sb_printf(b, "&#39;");
            break;
        default:
            sb_printf(b, "%c", *s);
        }
    }
}

/* The sheet's geometry (SVG units; the page scales the sheet to fit). */
enum {
    PAD = 18,      /* paper around the grid */
    TITLE_H = 46,  /* the Set's title */
    HEAD_H = 36,   /* the column heads */
    RHEAD_H = 32,  /* a Round's head line: its name and the running total */
    ROW_H = 52,    /* a player's line */
    FOOT_H = 34,   /* a line of the foot: Set Total, Set Position, ... */
    NAME_W = 170,  /* the Player column */
    COL_W = 118,   /* a Call's column */
    TOTAL_W = 150, /* the TOTAL column */
    NUM_SIZE = 21, /* the hand-written points */
    GRID_X = PAD,
    GRID_W = NAME_W + BARBU_SHEET_COLS * COL_W + TOTAL_W,
    SHEET_W = GRID_W + 2 * PAD,
    ROUND_H = RHEAD_H + 4 * ROW_H,
    GRID_Y = PAD + TITLE_H,
    FOOT_Y = GRID_Y + HEAD_H + 5 * ROUND_H,
    SHEET_H = FOOT_Y + 4 * FOOT_H + PAD,
};

static double col_x(int c) /* the left edge of a Call's column, or TOTAL's */
{
    return GRID_X + NAME_W + c * COL_W;
}

static double row_y(int round, int p) /* the top of a player's line */
{
    return GRID_Y + HEAD_H + round * ROUND_H + RHEAD_H + p * ROW_H;
}

/* Width of hand-written points, near enough to place what sits beside them. */
static double num_width(const char *s)
{
    return (double)strlen(s) * NUM_SIZE * 0.55;
}

/* A picture: a group that screen readers announce as one image, named by its
 * term (the label tests and readers look for) and described by its place. */
static void pic_open_as(sbuf *b, const char *term, const char *where, const char *cls)
{
    sb_printf(b, "<g role=\"img\" aria-label=\"");
    sb_text(b, term);
    sb_printf(b, "\" class=\"%s\"><title>", cls);
    sb_text(b, term);
    if (where != NULL && *where) {
        sb_printf(b, ": ");
        sb_text(b, where);
    }
    sb_printf(b, "</title>");
}

static void pic_open(sbuf *b, const char *term, const char *where)
{
    pic_open_as(b, term, where, "pic");
}

static void pic_close(sbuf *b)
{
    sb_printf(b, "</g>\n");
}

/* The pictures.  Each is drawn by a function of its centre and a scale, in
 * the same hand as the sheet (the "hand" filter makes lines a little
 * unsteady), so that the sheet and the legend draw them the same way. */

static void draw_egg(sbuf *b, double x, double y, double rx, double ry)
{
    /* An egg, not an ellipse: the right end a little fuller, the whole
     * tilted a touch as a hand draws it. */
    sb_printf(b,
              "<path transform=\"translate(%.1f %.1f) rotate(-4)\" d=\"M %.1f 0 C %.1f %.1f %.1f "
              "%.1f 0 %.1f C %.1f %.1f %.1f %.1f %.1f 0 C %.1f %.1f %.1f %.1f 0 %.1f C %.1f %.1f "
              "%.1f %.1f %.1f 0 Z\" class=\"egg\"/>",
              x, y, -rx, -rx, -ry * 0.6, -rx * 0.55, -ry, -ry, rx * 0.6, -ry, rx * 1.08, -ry * 0.55,
              rx * 1.04, rx * 1.04, ry * 0.6, rx * 0.6, ry * 1.02, ry * 1.02, -rx * 0.55, ry, -rx,
              ry * 0.6, -rx);
}

static void draw_spider(sbuf *b, double x, double y, double s)
{
    /* The legs of the right side, each hip, knee and foot; the left side is
     * the mirror image. */
    static const double LEGS[4][6] = {
        {1.5, -2.5, 6, -7.5, 10, -5},
        {2.5, -1, 8.5, -4, 11.5, 0},
        {2.5, 1, 8.5, 2.5, 11.5, 6.5},
        {1.5, 2.5, 6.5, 7, 8.5, 11},
    };
    sb_printf(b, "<g transform=\"translate(%.1f %.1f) scale(%.2f)\" class=\"spider\">", x, y, s);
    for (int side = -1; side <= 1; side += 2)
        for (int i = 0; i < 4; i++)
            sb_printf(b, "<polyline points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>", side * LEGS[i][0],
                      LEGS[i][1], side * LEGS[i][2], LEGS[i][3], side * LEGS[i][4], LEGS[i][5]);
    sb_printf(b, "<ellipse cx=\"0\" cy=\"1.5\" rx=\"3.6\" ry=\"4.4\"/>"
                 "<circle cx=\"0\" cy=\"-4\" r=\"2.4\"/>"
                 "<circle cx=\"-0.9\" cy=\"-4.4\" r=\"0.7\" class=\"eye\"/>"
                 "<circle cx=\"0.9\" cy=\"-4.4\" r=\"0.7\" class=\"eye\"/></g>");
}

static void draw_piranha(sbuf *b, double x, double y, double s)
{
    /* Facing left, jaws open at the points it bit. */
    sb_printf(b,
              "<g transform=\"translate(%.1f %.1f) scale(%.2f)\" class=\"piranha\">"
              "<path class=\"fin\" d=\"M -2 -7 L 3 -13 L 7 -6 Z\"/>"
              "<path class=\"body\" d=\"M -14 -3 Q -5 -11 6 -7 Q 11 -4 13 -1 L 19 -8 L 17 0 "
              "L 19 8 L 13 1 Q 8 8 -1 8 Q -8 8 -13 5 L -6 1.5 Z\"/>"
              "<path class=\"belly\" d=\"M -11 5.4 Q -3 9 6 5.5 Q 1 3.5 -6 2 Z\"/>"
              "<path class=\"teeth\" d=\"M -13.4 -2.4 L -12.4 0.2 L -11.3 -1.8 L -10.2 0.8 "
              "L -9.1 -1.2 L -8 1.2 L -7 -0.4 M -12.4 4.6 L -11.6 2.2 L -10.6 4 L -9.6 1.8 "
              "L -8.6 3.4 L -7.6 1.6\"/>"
              "<circle cx=\"-6\" cy=\"-4\" r=\"2\" class=\"eyeball\"/>"
              "<circle cx=\"-6.4\" cy=\"-4\" r=\"0.9\"/></g>",
              x, y, s);
}

static void draw_banana(sbuf *b, double x, double y, double s)
{
    sb_printf(b,
              "<g transform=\"translate(%.1f %.1f) scale(%.2f) rotate(-12)\" class=\"banana\">"
              "<path class=\"skin\" d=\"M -15 -5 Q -12 9 2 9 Q 12 8 16 -3 Q 10 3 1 3.5 Q -9 3 "
              "-13 -6 Z\"/>"
              "<path class=\"ridge\" d=\"M -11 -1 Q -6 6 2 6 Q 9 5 13 -0.5\"/>"
              "<path class=\"tip\" d=\"M -13 -6 L -15.5 -7 L -15 -5 M 16 -3 L 17.5 -4.5\"/>"
              "</g>",
              x, y, s);
}

static void draw_tomato(sbuf *b, double x, double y, double r)
{
    /* Red, with black patches of rot and a green top. */
    double s = r / 10.0;
    sb_printf(b,
              "<g transform=\"translate(%.1f %.1f) scale(%.2f)\" class=\"tomato\">"
              "<path class=\"flesh\" d=\"M 0 -8.5 C 6 -10 10.5 -6 10.2 0.5 C 10 6.5 5.5 10 0 "
              "10 C -5.5 10 -10 6.5 -10.2 0.5 C -10.5 -6 -6 -10 0 -8.5 Z\"/>"
              "<path class=\"rot\" d=\"M 3 1 q 2.5 -1.5 4 0.5 q 1 2.5 -1.5 3.5 q -3 0.5 -2.5 "
              "-4 Z M -6 -2 q 1.5 -2 3 -0.5 q 0.5 2 -1.5 2.5 q -2 0 -1.5 -2 Z M -3 5 q 1.5 -1 "
              "2.5 0.5 q 0 1.5 -1.5 1.5 q -1.5 -0.5 -1 -2 Z\"/>"
              "<path class=\"shine\" d=\"M -6 -5 q 1.5 -2 4 -2.5\"/>"
              "<path class=\"calyx\" d=\"M 0 -8.5 L -4.5 -10.5 L -1.5 -9.2 L -2.5 -13 L 0 "
              "-9.8 L 2.5 -13 L 1.5 -9.2 L 4.5 -10.5 Z\"/>"
              "<path class=\"stalk\" d=\"M 0 -10 q 0.5 -2.5 2 -3.5\"/></g>",
              x, y, s);
}

static void draw_fruit_bowl(sbuf *b, double x, double y, double s)
{
    sb_printf(b,
              "<g transform=\"translate(%.1f %.1f) scale(%.2f)\" class=\"fruitbowl\">"
              "<circle cx=\"-6\" cy=\"-4\" r=\"5\" class=\"apple\"/>"
              "<circle cx=\"5\" cy=\"-4.5\" r=\"4.5\" class=\"orange\"/>"
              "<circle cx=\"0\" cy=\"-7\" r=\"2\" class=\"grape\"/>"
              "<circle cx=\"2.5\" cy=\"-9\" r=\"2\" class=\"grape\"/>"
              "<circle cx=\"-2\" cy=\"-10\" r=\"2\" class=\"grape\"/>"
              "<path class=\"skin\" d=\"M -14 -6 Q -8 2 2 -1 Q 9 -4 13 -11 Q 6 -5 1 -4 Q -7 "
              "-2 -13 -8 Z\"/>"
              "<path class=\"bowl\" d=\"M -15 -1 L 15 -1 Q 14 10 0 11 Q -14 10 -15 -1 Z\"/>"
              "<path class=\"foot\" d=\"M -5 11 L 5 11 L 6 14 L -6 14 Z\"/></g>",
              x, y, s);
}

static void draw_halo(sbuf *b, double x, double y, double s)
{
    /* A halo over a little star: the round was without a stain. */
    sb_printf(b,
              "<g transform=\"translate(%.1f %.1f) scale(%.2f)\" class=\"halo\">"
              "<ellipse cx=\"0\" cy=\"-6\" rx=\"11\" ry=\"3.6\" class=\"ring\"/>"
              "<path class=\"star\" d=\"M 0 -1 L 2.2 4 L 7.5 4.4 L 3.4 7.8 L 4.7 13 L 0 10.1 "
              "L -4.7 13 L -3.4 7.8 L -7.5 4.4 L -2.2 4 Z\"/>"
              "<path class=\"sparkle\" d=\"M -14 -10 l -3 -3 M 14 -10 l 3 -3 M 0 -12 l 0 -4\"/>"
              "</g>",
              x, y, s);
}

static void draw_badge(sbuf *b, double x, double y, double s)
{
    /* A rosette with a 7: points in every one of the seven Calls. */
    sb_printf(b,
              "<g transform=\"translate(%.1f %.1f) scale(%.2f)\" class=\"badge\">"
              "<path class=\"ribbon\" d=\"M -5 4 L -9 15 L -5 13 L -3 16 L 0 6 Z M 5 4 L 9 15 "
              "L 5 13 L 3 16 L 0 6 Z\"/>"
              "<circle cx=\"0\" cy=\"0\" r=\"9\" class=\"rosette\"/>"
              "<circle cx=\"0\" cy=\"0\" r=\"6.5\" class=\"inner\"/>"
              "<text x=\"0\" y=\"3.6\" class=\"seven\">7</text></g>",
              x, y, s);
}

static void draw_padlock(sbuf *b, double x, double y, double s)
{
    /* Locked in: a Patience the Caller could not avoid. */
    sb_printf(b,
              "<g transform=\"translate(%.1f %.1f) scale(%.2f)\" class=\"padlock\">"
              "<path class=\"shackle\" d=\"M -3.5 -1 L -3.5 -5 Q -3.5 -9 0 -9 Q 3.5 -9 3.5 -5 "
              "L 3.5 -1\"/>"
              "<rect x=\"-6\" y=\"-1.5\" width=\"12\" height=\"9.5\" rx=\"1.5\" class=\"lock\"/>"
              "<circle cx=\"0\" cy=\"2.5\" r=\"1.3\" class=\"hole\"/></g>",
              x, y, s);
}

/* A player's name; the Caller's is followed by the booklet's "(" in the
 * same hand, right after the name whatever its width, the whole named
 * "Caller" for screen readers. */
static void draw_name(sbuf *b, double x, double y, const char *name, bool caller, const char *cls)
{
    if (caller)
        pic_open_as(b, "Caller", name, "pic plain");
    sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\">", x, y, cls);
    sb_text(b, name);
    if (caller)
        sb_printf(b, "<tspan dx=\"6\" class=\"callermark\">(</tspan>");
    sb_printf(b, "</text>");
    if (caller)
        pic_close(b);
}

/* The wavy line of a Rumping Ripple: down from under one player's points,
 * rippling along, up to the next. */
static void ripple_path(sbuf *b, double x0, double x1, double y)
{
    double a = x0 + 5, z = x1 - 5;
    int halves = (int)((z - a) / 8) > 2 ? (int)((z - a) / 8) : 2;
    double h = (z - a) / halves;
    sb_printf(b, "<path class=\"ripple\" d=\"M %.1f %.1f Q %.1f %.1f %.1f %.1f", x0, y - 7, x0, y,
              a, y);
    for (int i = 0; i < halves; i++)
        sb_printf(b, " Q %.1f %.1f %.1f %.1f", a + h * i + h / 2, y + (i % 2 ? -4.5 : 4.5),
                  a + h * (i + 1), y);
    sb_printf(b, " Q %.1f %.1f %.1f %.1f\"/>", x1, y, x1, y - 7);
}

/* Where a cell's points are written: a little to the left when a picture
 * sits to their right. */
static double num_x(const barbu_sheet_round *r, int p, int c)
{
    double cx = col_x(c) + COL_W / 2.0;
    unsigned m = r->marks[p][c];
    if (m & (BARBU_MARK_PIRANHA | BARBU_MARK_BANANA))
        return cx - 16;
    if (m & BARBU_MARK_WEE_HARRY)
        return m & (BARBU_MARK_EGG | BARBU_MARK_SPIDER) ? cx - 13 : cx - 10;
    return cx;
}

/* Where the "H" of Wee Harry goes: to the right of the Hearts points. */
static double harry_x(const barbu_sheet_round *r, int p, int c)
{
    char num[16] = "";
    if (r->points[p][c] != 0)
        snprintf(num, sizeof num, "%+d", r->points[p][c]);
    bool egg = r->marks[p][c] & (BARBU_MARK_EGG | BARBU_MARK_SPIDER);
    return num_x(r, p, c) + num_width(num) / 2 + (egg ? 19 : 14);
}

static bool dangly(const barbu_sheet_round *r, int p, int c)
{
    const unsigned both = BARBU_MARK_DANGLY | BARBU_MARK_WEE_HARRY;
    return (r->marks[p][c] & both) == both;
}

/* Where a Dangly Spider's thread comes down: a little to the right of its H,
 * so that it misses the H of anyone else's Wee Harry further up the column,
 * and further right for each Dangly Spider above it, so that it misses
 * those spiders too. */
static double dangle_x(const barbu_sheet_set *set, int k, int p, int c)
{
    int above = 0;
    for (int i = 0; i < k; i++)
        for (int q = 0; q < 4; q++)
            above += dangly(&set->round[i], q, c);
    return harry_x(&set->round[k], p, c) + 12 + 9 * (above < 3 ? above : 3);
}

static void draw_cell(sbuf *b, const barbu_sheet_set *set, int k, int p, int c,
                      const char *const names[4])
{
    const barbu_sheet_round *r = &set->round[k];
    unsigned m = r->marks[p][c];
    int pts = r->points[p][c];
    double y0 = row_y(k, p), cy = y0 + 27, base = y0 + 34;
    double cx = col_x(c) + COL_W / 2.0, nx = num_x(r, p, c);
    char num[16] = "", where[NAME_CAP + 64], rl[16];
    if (pts != 0)
        snprintf(num, sizeof num, "%+d", pts);
    double half = num_width(num) / 2;
    round_label(k, rl, sizeof rl);
    snprintf(where, sizeof where, "%s, %s, %s", names[p], rl, COL_HEAD[c]);

    if (m & (BARBU_MARK_EGG | BARBU_MARK_SPIDER)) {
        pic_open(b, mark_term(m & BARBU_MARK_SPIDER ? BARBU_MARK_SPIDER : BARBU_MARK_EGG), where);
        draw_egg(b, nx, cy - 1, half + 11, 14.5);
        if (m & BARBU_MARK_SPIDER)
            draw_spider(b, nx + 4, y0 + 6.5, 1.2);
        pic_close(b);
    }
    if (*num)
        sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"num\">%s</text>\n", nx, base, num);
    const char *letters = choice_letters(m);
    if (letters != NULL) {
        unsigned which = m & (BARBU_MARK_FC | BARBU_MARK_SC | BARBU_MARK_TC);
        pic_open(b, mark_term(which & -which), where);
        sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"choice end\">%s</text>", nx - half - 2,
                  y0 + 14, letters);
        pic_close(b);
    }
    if (m & BARBU_MARK_WEE_HARRY) {
        double hx = harry_x(r, p, c);
        pic_open(b, mark_term(BARBU_MARK_WEE_HARRY), where);
        sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"harry\">H</text>", hx, base);
        pic_close(b);
        if (m & BARBU_MARK_DANGLY) {
            /* The spider hangs just over the H, from a thread drawn
             * before the writing (draw_threads). */
            pic_open(b, mark_term(BARBU_MARK_DANGLY), where);
            draw_spider(b, dangle_x(set, k, p, c), y0 + 7, 0.85);
            pic_close(b);
        }
    }
    if (m & BARBU_MARK_PIRANHA) {
        pic_open(b, mark_term(BARBU_MARK_PIRANHA), where);
        draw_piranha(b, nx + half + 20, cy, 1.05);
        pic_close(b);
    }
    if (m & BARBU_MARK_BANANA) {
        pic_open(b, mark_term(BARBU_MARK_BANANA), where);
        draw_banana(b, nx + half + 20, cy - 1, 1.0);
        pic_close(b);
    }
    if (m & BARBU_MARK_TOMATO) {
        /* In the empty space where the points would be. */
        unsigned which = m & BARBU_MARK_BEEF ? BARBU_MARK_BEEF : BARBU_MARK_CHERRY;
        double tx = *num ? nx + half + 16 : cx;
        pic_open(b, mark_term(which), where);
        draw_tomato(b, tx, cy, which == BARBU_MARK_BEEF ? 17 : 9.5);
        pic_close(b);
    }
    if (m & BARBU_MARK_CONSTIPATIENCE) {
        pic_open(b, mark_term(BARBU_MARK_CONSTIPATIENCE), where);
        draw_padlock(b, col_x(c) + 13, y0 + 16, 1.0);
        pic_close(b);
    }
}

/* A Rumping Ripple joins the player's points of the Round with wavy lines
 * under the numbers (over them are the Spiders and the letters). */
static void draw_ripples(sbuf *b, const barbu_sheet_round *r, int k, int p,
                         const char *const names[4])
{
    int cols[BARBU_SHEET_COLS], n = 0;
    for (int c = 0; c < BARBU_SHEET_COLS; c++)
        if (r->marks[p][c] & BARBU_MARK_RIPPLE)
            cols[n++] = c;
    if (n == 0)
        return;
    char where[NAME_CAP + 64], rl[16];
    round_label(k, rl, sizeof rl);
    snprintf(where, sizeof where, "%s, %s", names[p], rl);
    double y = row_y(k, p) + 46;
    pic_open(b, mark_term(BARBU_MARK_RIPPLE), where);
    for (int i = 0; i + 1 < n; i++)
        ripple_path(b, num_x(r, p, cols[i]) + 4, num_x(r, p, cols[i + 1]) - 4, y);
    if (n == 1)
        ripple_path(b, num_x(r, p, cols[0]) - 22, num_x(r, p, cols[0]) + 22, y);
    pic_close(b);
}

static void draw_round_marks(sbuf *b, const barbu_sheet_round *r, int k, int p,
                             const char *const names[4])
{
    double x = col_x(BARBU_SHEET_COLS) + TOTAL_W - 26, cy = row_y(k, p) + 26;
    char where[NAME_CAP + 64], rl[16];
    round_label(k, rl, sizeof rl);
    snprintf(where, sizeof where, "%s, %s", names[p], rl);
    for (size_t i = 0; i < N_ROUND_MARKS; i++) {
        unsigned mark = ROUND_MARKS[i].mark;
        if (!(r->round_marks[p] & mark))
            continue;
        pic_open(b, round_term(mark), where);
        if (mark == BARBU_ROUND_FRUIT_BOWL)
            draw_fruit_bowl(b, x, cy + 2, 1.1);
        else if (mark == BARBU_ROUND_VIRGIN)
            draw_halo(b, x, cy - 2, 1.1);
        else
            draw_badge(b, x, cy - 2, 1.1);
        pic_close(b);
        x -= 34;
    }
}

/* A line ruled by hand: a curve that strays a little from the straight
 * line, the same way on every run (the strays come from its position). */
static void ruled_line(sbuf *b, double x0, double y0, double x1, double y1, bool heavy)
{
    uint32_t h = (uint32_t)(x0 * 7 + y0 * 131 + x1 * 17 + y1 * 1031) * 2654435761u;
    double d1 = ((h >> 8 & 0xff) / 255.0 - 0.5) * 2.2, d2 = ((h >> 16 & 0xff) / 255.0 - 0.5) * 2.2;
    double dx = x1 - x0, dy = y1 - y0;
    double nx = dy != 0, ny = dy == 0; /* across the line: every line is across or down */
    sb_printf(b, "<path d=\"M %.1f %.1f C %.1f %.1f %.1f %.1f %.1f %.1f\"%s/>", x0, y0,
              x0 + dx / 3 + nx * d1, y0 + dy / 3 + ny * d1, x0 + 2 * dx / 3 + nx * d2,
              y0 + 2 * dy / 3 + ny * d2, x1, y1, heavy ? " class=\"heavy\"" : "");
}

/* The threads of the Dangly Spiders come down from the top of the sheet
 * behind everything written on it. */
static void draw_threads(sbuf *b, const barbu_sheet_set *set)
{
    for (int k = 0; k < set->n_rounds; k++)
        for (int p = 0; p < 4; p++)
            for (int c = 0; c < BARBU_SHEET_COLS; c++) {
                if (!dangly(&set->round[k], p, c))
                    continue;
                double x = dangle_x(set, k, p, c);
                sb_printf(b,
                          "<line x1=\"%.1f\" y1=\"1\" x2=\"%.1f\" y2=\"%.1f\" "
                          "class=\"thread\" aria-hidden=\"true\"/>\n",
                          x, x, row_y(k, p) + 3);
            }
}

/* A name cut to at most cols characters, whole UTF-8 sequences, with an
 * ellipsis when cut: for the places on the sheet that are narrow.  buf
 * holds at least 4 * cols bytes. */
static void fit_name(const char *name, int cols, char *buf, size_t cap)
{
    int n = 0;
    size_t i = 0, cut = 0;
    for (; name[i] != '\0'; i++) {
        if (((unsigned char)name[i] & 0xc0) == 0x80)
            continue;
        if (++n == cols)
            cut = i; /* where the ellipsis goes if the name is longer */
        if (n > cols)
            break;
    }
    if (n <= cols && i < cap)
        snprintf(buf, cap, "%s", name);
    else
        snprintf(buf, cap, "%.*s\u2026", (int)cut, name);
}

static void draw_set(sbuf *b, const barbu_sheet *sheet, int si, const char *const names[4])
{
    const barbu_sheet_set *set = &sheet->set[si];
    double right = GRID_X + GRID_W;
    char buf[64];
    sb_printf(b,
              "<figure class=\"sheet\"><svg viewBox=\"0 0 %d %d\" role=\"group\" "
              "aria-label=\"Score sheet of Set %d\">\n"
              "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" class=\"paper\"/>\n",
              SHEET_W, SHEET_H, si + 1, SHEET_W, SHEET_H);
    sb_printf(b, "<text x=\"%d\" y=\"%d\" class=\"settitle\">Set %d%s</text>\n", GRID_X, PAD + 30,
              si + 1, set->complete ? "" : " (in progress)");

    /* The grid, ruled in pencil. */
    sb_printf(b, "<g class=\"grid\">");
    for (int c = -1; c <= BARBU_SHEET_COLS + 1; c++) {
        double x = c < 0 ? GRID_X : c > BARBU_SHEET_COLS ? right : col_x(c);
        ruled_line(b, x, GRID_Y, x, FOOT_Y, false);
    }
    ruled_line(b, GRID_X, GRID_Y, right, GRID_Y, true);
    for (int k = 0; k < 5; k++) {
        ruled_line(b, GRID_X, GRID_Y + HEAD_H + k * ROUND_H, right, GRID_Y + HEAD_H + k * ROUND_H,
                   true);
        for (int p = 0; p < 4; p++)
            ruled_line(b, GRID_X, row_y(k, p), right, row_y(k, p), false);
    }
    ruled_line(b, GRID_X, FOOT_Y, right, FOOT_Y, true);
    for (int f = 1; f <= 4; f++)
        ruled_line(b, GRID_X, FOOT_Y + f * FOOT_H, col_x(5), FOOT_Y + f * FOOT_H, false);
    for (int c = 0; c <= 5; c++) {
        double x = c == 0 ? GRID_X : col_x(c);
        ruled_line(b, x, FOOT_Y, x, FOOT_Y + 4 * FOOT_H, false);
    }
    sb_printf(b, "</g>\n");
    draw_threads(b, set);

    /* The printed heads. */
    double hy = GRID_Y + HEAD_H - 11;
    sb_printf(b, "<text x=\"%d\" y=\"%.1f\" class=\"head\">Player</text>", GRID_X + 10, hy);
    for (int c = 0; c <= BARBU_SHEET_COLS; c++)
        sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"head mid\">%s</text>",
                  col_x(c) + (c < BARBU_SHEET_COLS ? COL_W : TOTAL_W) / 2.0, hy,
                  c < BARBU_SHEET_COLS ? COL_HEAD[c] : "TOTAL");
    sb_printf(b, "\n");

    for (int k = 0; k < 5; k++) {
        const barbu_sheet_round *r = set_round(set, k);
        double ry = GRID_Y + HEAD_H + k * ROUND_H;
        round_label(k, buf, sizeof buf);
        sb_printf(b, "<text x=\"%d\" y=\"%.1f\" class=\"head\">%s</text>", GRID_X + 10,
                  ry + RHEAD_H - 10, buf);
        /* The running total so far heads each Round after the first, as
         * in the booklet. */
        const barbu_sheet_round *prev = k > 0 ? set_round(set, k - 1) : NULL;
        if (prev != NULL && r != NULL) {
            sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"note end\">Running Total</text>",
                      col_x(2) - 12, ry + RHEAD_H - 10);
            for (int p = 0; p < 4; p++) {
                fit_name(names[p], 9, buf, sizeof buf);
                sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"running mid\">",
                          col_x(2 + p) + COL_W / 2.0, ry + RHEAD_H - 10);
                sb_text(b, buf);
                points_text(prev->running[p], buf, sizeof buf);
                sb_printf(b, " %s</text>", buf);
            }
        }
        sb_printf(b, "\n");
        for (int p = 0; p < 4; p++) {
            double y0 = row_y(k, p);
            fit_name(names[p], 13, buf, sizeof buf);
            draw_name(b, GRID_X + 10, y0 + 34, buf, r != NULL && r->caller == p, "name");
            if (r == NULL) {
                sb_printf(b, "\n");
                continue;
            }
            for (int c = 0; c < BARBU_SHEET_COLS; c++)
                draw_cell(b, set, k, p, c, names);
            draw_ripples(b, r, k, p, names);
            points_text(r->total[p], buf, sizeof buf);
            sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"num total\">%s</text>\n",
                      col_x(BARBU_SHEET_COLS) + 52, y0 + 34, buf);
            draw_round_marks(b, r, k, p, names);
        }
    }

    /* The foot: a column per player under KHearts to Tricks. */
    static const char *const FOOT[] = {"Set Total", "Set Position", "Overall Running Scores"};
    for (int f = 0; f < 3; f++) {
        double y = FOOT_Y + f * FOOT_H + 24;
        if (f > 0 && !set->complete)
            continue;
        sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"note end\">%s%s</text>", col_x(1) - 10, y,
                  FOOT[f], f == 0 && !set->complete ? " so far" : "");
        for (int p = 0; p < 4; p++) {
            if (f == 0)
                points_text(set_total(set, p), buf, sizeof buf);
            else if (f == 1)
                place_text(set, p, buf, sizeof buf);
            else
                points_text(set->overall[p], buf, sizeof buf);
            sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"num foot\">%s</text>",
                      col_x(1 + p) + COL_W / 2.0, y + 1, buf);
        }
    }
    for (int p = 0; p < 4; p++) {
        fit_name(names[p], 9, buf, sizeof buf);
        sb_printf(b, "<text x=\"%.1f\" y=\"%d\" class=\"name mid\">", col_x(1 + p) + COL_W / 2.0,
                  FOOT_Y + 3 * FOOT_H + 24);
        sb_text(b, buf);
        sb_printf(b, "</text>");
    }
    sb_printf(b, "\n</svg></figure>\n");
}

static const char PAGE_STYLE[] =
    "body{margin:0;padding:24px 16px 40px;background:#e8e2d3;color:#2b2a28;"
    "font-family:\"Segoe UI\",\"DejaVu Sans\",Arial,sans-serif}\n"
    "h1,.hand,svg text{font-family:\"Comic Sans MS\",\"Comic Neue\",\"Segoe Print\","
    "\"Bradley Hand\",\"Chalkboard SE\",cursive}\n"
    "h1{font-size:30px;margin:0 auto 4px;max-width:1200px;color:#1d2b5c}\n"
    ".sub{margin:0 auto 18px;max-width:1200px;color:#5a5548}\n"
    "figure.sheet{margin:0 auto 28px;max-width:1200px}\n"
    "figure.sheet svg{display:block;width:100%;height:auto;"
    "box-shadow:0 2px 10px rgba(60,50,30,.25)}\n"
    ".paper{fill:#fffdf4}\n"
    ".grid path{fill:none;stroke:#8f99ad;stroke-width:1}\n"
    ".grid path.heavy{stroke:#5f6a80;stroke-width:1.8}\n"
    ".settitle{font-size:26px;font-weight:bold;fill:#1d2b5c}\n"
    ".head{font-size:17px;font-weight:bold;fill:#3b3a36}\n"
    ".mid{text-anchor:middle}.end{text-anchor:end}\n"
    ".num,.running,.head,.note,.harry,.choice{paint-order:stroke;stroke:#fffdf4;"
    "stroke-width:4px;stroke-linejoin:round}\n"
    ".note{font-size:15px;font-style:italic;fill:#5a5548}\n"
    ".running{font-size:15px;fill:#28407e}\n"
    ".name{font-size:20px;fill:#1d2b5c}\n"
    ".num{font-size:21px;fill:#1d2b5c;text-anchor:middle}\n"
    ".num.total{font-weight:bold}\n"
    ".num.foot{font-size:19px}\n"
    ".pic{filter:url(#hand)}\n"
    ".egg{fill:#fff8e4;stroke:#6b4a1f;stroke-width:2}\n"
    ".spider polyline{fill:none;stroke:#1b1b1b;stroke-width:1.3;stroke-linecap:round;"
    "stroke-linejoin:round}\n"
    ".spider ellipse,.spider circle{fill:#1b1b1b}.spider .eye{fill:#fff}\n"
    ".thread{stroke:#55585e;stroke-width:.9;stroke-dasharray:none}\n"
    ".harry{font-size:20px;font-weight:bold;fill:#a31c1c;text-anchor:middle}\n"
    ".choice{font-size:15px;font-weight:bold;fill:#a31c1c}\n"
    ".ripple{fill:none;stroke:#a31c1c;stroke-width:1.6;stroke-linecap:round}\n"
    ".piranha .body{fill:#7f8f99;stroke:#22282c;stroke-width:1.1;stroke-linejoin:round}\n"
    ".piranha .belly{fill:#c9382f}.piranha .fin{fill:#5d6b73;stroke:#22282c;"
    "stroke-width:1}\n"
    ".piranha .teeth{fill:none;stroke:#fff;stroke-width:1.1;stroke-linejoin:miter}\n"
    ".piranha .eyeball{fill:#fff;stroke:#22282c;stroke-width:.6}\n"
    ".banana .skin,.fruitbowl .skin{fill:#f6d32d;stroke:#8a6b0a;stroke-width:1.1;"
    "stroke-linejoin:round}\n"
    ".banana .ridge{fill:none;stroke:#c9a214;stroke-width:.9}\n"
    ".banana .tip{fill:none;stroke:#5b4308;stroke-width:1.6;stroke-linecap:round}\n"
    ".tomato .flesh{fill:#d7322a;stroke:#7a1510;stroke-width:.9}\n"
    ".tomato .rot{fill:#1c1715}.tomato .shine{fill:none;stroke:#f7a59e;stroke-width:1.2;"
    "stroke-linecap:round}\n"
    ".tomato .calyx{fill:#2f8a3a;stroke:#1d5424;stroke-width:.5}\n"
    ".tomato .stalk{fill:none;stroke:#1d5424;stroke-width:1.3;stroke-linecap:round}\n"
    ".fruitbowl .bowl{fill:#4f86b8;stroke:#24486b;stroke-width:1.1}\n"
    ".fruitbowl .foot{fill:#3d6e99;stroke:#24486b;stroke-width:.8}\n"
    ".fruitbowl .apple{fill:#d7322a;stroke:#7a1510;stroke-width:.8}\n"
    ".fruitbowl .orange{fill:#f08c1c;stroke:#8a4c06;stroke-width:.8}\n"
    ".fruitbowl .grape{fill:#7b3f98;stroke:#42205a;stroke-width:.6}\n"
    ".halo .ring{fill:none;stroke:#d9a514;stroke-width:2.6}\n"
    ".halo .star{fill:#f7d154;stroke:#a47a06;stroke-width:.9;stroke-linejoin:round}\n"
    ".halo .sparkle{stroke:#d9a514;stroke-width:1.4;stroke-linecap:round}\n"
    ".badge .ribbon{fill:#2f6db0;stroke:#173d66;stroke-width:.7}\n"
    ".badge .rosette{fill:#2f6db0;stroke:#173d66;stroke-width:1;stroke-dasharray:2 1.2}\n"
    ".badge .inner{fill:#f4f0e2}\n"
    ".badge .seven{font-size:9.5px;font-weight:bold;fill:#173d66;text-anchor:middle}\n"
    ".padlock .shackle{fill:none;stroke:#5c4a3a;stroke-width:1.8}\n"
    ".padlock .lock{fill:#a07f52;stroke:#5c4a3a;stroke-width:1}\n"
    ".padlock .hole{fill:#3b2f25}\n"
    ".pic.plain{filter:none}\n"
    ".callermark{font-size:24px}\n"
    "section.legend{box-sizing:border-box;margin:0 auto;max-width:1200px;background:#fffdf4;"
    "padding:14px 22px 10px;"
    "box-shadow:0 2px 10px rgba(60,50,30,.25)}\n"
    ".legend h2{margin:0 0 10px;font-size:22px;color:#1d2b5c}\n"
    ".legend ul{list-style:none;margin:0;padding:0;display:grid;"
    "grid-template-columns:repeat(auto-fill,minmax(360px,1fr));gap:6px 22px}\n"
    ".legend li{display:flex;align-items:center;gap:12px;font-size:14px;line-height:1.3}\n"
    ".legend svg{flex:none;width:84px;height:48px;background:#fffdf4}\n"
    ".legend b{color:#1d2b5c}\n";

/* One line of the legend: the picture as it is drawn on the sheet, its
 * name and what it means. */
static void legend_open(sbuf *b)
{
    sb_printf(b, "<li><svg viewBox=\"0 0 84 48\" aria-hidden=\"false\">");
}

static void legend_close(sbuf *b, const char *term, const char *meaning)
{
    sb_printf(b, "</svg><span><b>");
    sb_text(b, term);
    sb_printf(b, "</b> &mdash; ");
    sb_text(b, meaning);
    sb_printf(b, "</span></li>\n");
}

static void legend_cell_mark(sbuf *b, size_t i)
{
    unsigned mark = CELL_MARKS[i].mark;
    const char *term = mark_term(mark);
    legend_open(b);
    pic_open(b, term, NULL);
    switch (mark) {
    case BARBU_MARK_EGG:
    case BARBU_MARK_SPIDER:
        draw_egg(b, 42, 27, 30, 14.5);
        sb_printf(b, "<text x=\"42\" y=\"34\" class=\"num\">-60</text>");
        if (mark == BARBU_MARK_SPIDER)
            draw_spider(b, 46, 11, 1.1);
        break;
    case BARBU_MARK_WEE_HARRY:
    case BARBU_MARK_DANGLY:
        sb_printf(b, "<text x=\"30\" y=\"38\" class=\"num\">-50</text>"
                     "<text x=\"62\" y=\"38\" class=\"harry\">H</text>");
        if (mark == BARBU_MARK_DANGLY) {
            sb_printf(b, "<line x1=\"62\" y1=\"0\" x2=\"62\" y2=\"10\" class=\"thread\"/>");
            draw_spider(b, 62, 14, 0.85);
        }
        break;
    case BARBU_MARK_RIPPLE:
        sb_printf(b, "<text x=\"18\" y=\"28\" class=\"num\" style=\"font-size:16px\">-40"
                     "</text><text x=\"62\" y=\"28\" class=\"num\" "
                     "style=\"font-size:16px\">-50</text>");
        ripple_path(b, 22, 58, 40);
        break;
    case BARBU_MARK_PIRANHA:
        sb_printf(b, "<text x=\"24\" y=\"33\" class=\"num\">-100</text>");
        draw_piranha(b, 66, 26, 1.05);
        break;
    case BARBU_MARK_BANANA:
        sb_printf(b, "<text x=\"24\" y=\"33\" class=\"num\">+120</text>");
        draw_banana(b, 66, 25, 1.0);
        break;
    case BARBU_MARK_BEEF:
        draw_tomato(b, 42, 26, 17);
        break;
    case BARBU_MARK_CHERRY:
        draw_tomato(b, 42, 26, 9.5);
        break;
    default:
        draw_padlock(b, 42, 26, 1.6);
        break;
    }
    pic_close(b);
    legend_close(b, term, CELL_MARKS[i].meaning);
}

static void legend_choices(sbuf *b)
{
    for (size_t i = 0; i < sizeof CHOICES / sizeof CHOICES[0]; i++) {
        const char *term = mark_term(CHOICES[i].mark);
        legend_open(b);
        pic_open(b, term, NULL);
        sb_printf(b,
                  "<text x=\"26\" y=\"20\" class=\"choice\">%s</text>"
                  "<text x=\"46\" y=\"40\" class=\"num\">-60</text>",
                  CHOICES[i].letters);
        pic_close(b);
        legend_close(b, term, CHOICES[i].meaning);
    }
}

static void draw_legend(sbuf *b)
{
    sb_printf(b, "<section class=\"legend\" aria-label=\"Legend\"><h2>The Language of "
                 "Barbu</h2><ul>\n");

    legend_open(b);
    draw_name(b, 10, 31, "Hero", true, "name");
    legend_close(b, "Caller", "the player who chose the Calls of a Player Round");

    for (size_t i = 0; i < N_CELL_MARKS; i++) {
        if (i == N_MARKS_BEFORE_CHOICES)
            legend_choices(b);
        legend_cell_mark(b, i);
    }

    for (size_t i = 0; i < N_ROUND_MARKS; i++) {
        unsigned mark = ROUND_MARKS[i].mark;
        const char *term = round_term(mark);
        legend_open(b);
        pic_open(b, term, NULL);
        if (mark == BARBU_ROUND_FRUIT_BOWL)
            draw_fruit_bowl(b, 42, 26, 1.4);
        else if (mark == BARBU_ROUND_VIRGIN)
            draw_halo(b, 42, 24, 1.4);
        else
            draw_badge(b, 42, 22, 1.4);
        pic_close(b);
        legend_close(b, term, ROUND_MARKS[i].meaning);
    }
    sb_printf(b, "</ul></section>\n");
}

int cli_fife_sheet_html(const barbu_sheet *sheet, const char *const names[4], const char *subtitle,
                        char **html, size_t *len)
{
    sbuf b = {0};
    sb_printf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<title>Barbu score sheet: ");
    for (int p = 0; p < 4; p++) {
        sb_text(&b, names[p]);
        sb_printf(&b, "%s", p < 3 ? ", " : "");
    }
    sb_printf(&b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", PAGE_STYLE);

    /* The filter that unsteadies the lines, shared by every drawing. */
    sb_printf(&b, "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\">"
                  "<defs><filter id=\"hand\" color-interpolation-filters=\"sRGB\" x=\"-10%%\" "
                  "y=\"-10%%\" width=\"120%%\" "
                  "height=\"120%%\"><feTurbulence type=\"fractalNoise\" baseFrequency=\"0.03\" "
                  "numOctaves=\"2\" seed=\"7\"/><feDisplacementMap in=\"SourceGraphic\" "
                  "scale=\"2.2\" xChannelSelector=\"R\" yChannelSelector=\"G\"/></filter>"
                  "</defs>"
                  "</svg>\n");
    sb_printf(&b, "<h1>Barbu score sheet</h1>\n<p class=\"sub\">");
    sb_text(&b, subtitle != NULL ? subtitle : "");
    sb_printf(&b, "</p>\n");
    for (int si = 0; si < sheet->n_sets; si++)
        draw_set(&b, sheet, si, names);
    draw_legend(&b);
    sb_printf(&b, "</body>\n</html>\n");
    if (b.failed) {
        free(b.p);
        return BARBU_ENOMEM;
    }
    *html = b.p;
    *len = b.n;
    return 0;
}

/* ---------------------------------------------------------- the command */

typedef struct collect {
    barbu_sheet *sheet;
    const barbu_rules *rules;
    int deals;
    int err; /* the first refusal of barbu_sheet_add */
    int err_deal;
} collect;

static void add_deal(const barbu_result *r, void *ctx)
{
    collect *c = ctx;
    if (c->err != 0)
        return;
    c->err = barbu_sheet_add(c->sheet, c->rules, r);
    if (c->err != 0)
        c->err_deal = r->deal + 1;
    c->deals++;
}

/* --names A,B,C,D into four names in *store; nonzero if it is not four
 * non-empty names. */
static int parse_names(const char *arg, char *store, size_t cap, const char *names[4])
{
    if (strlen(arg) >= cap)
        return 1;
    strcpy(store, arg);
    char *p = store;
    for (int i = 0; i < 4; i++) {
        names[i] = p;
        char *comma = strchr(p, ',');
        if ((comma == NULL) != (i == 3))
            return 1;
        if (comma != NULL) {
            *comma = '\0';
            p = comma + 1;
        }
        if (*names[i] == '\0')
            return 1;
    }
    return 0;
}

int cmd_scoresheet(int argc, char **argv)
{
    const char *path = NULL, *html_path = NULL, *names_arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--html") == 0 && has_value) {
            html_path = argv[++i];
        } else if (strcmp(a, "--names") == 0 && has_value) {
            names_arg = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "barbu scoresheet: unknown option or missing value '%s'\n\n", a);
            usage(stderr);
            return 2;
        } else if (cli_take_path("barbu scoresheet", a, &path) != 0) {
            return 2;
        }
    }
    if (path == NULL) {
        usage(stderr);
        return 2;
    }
    const char *names[4];
    char names_store[NAME_CAP];
    if (names_arg != NULL && parse_names(names_arg, names_store, sizeof names_store, names)) {
        fprintf(stderr, "barbu scoresheet: --names takes four names separated by commas, "
                        "North first: --names Hero,Buoy,Lief,Fringe\n");
        return 2;
    }

    barbu_record *rec = cli_read_record(path);
    if (rec == NULL)
        return 1;
    const barbu_rules *rules = barbu_record_rules(rec);
    if (rules->game != BARBU_GAME_FIFE) {
        fprintf(stderr,
                "barbu scoresheet: %s is a game of the '%s' rules, not the Fife game: this "
                "score sheet (Sets, Rounds, Calls) is kept for the Fife game (preset fife) "
                "only; 'barbu replay %s' prints the sheet of any game\n",
                path, rules->preset, path);
        barbu_record_free(rec);
        return 1;
    }
    if (names_arg == NULL) {
        /* The record's names, unless two players share one (four computer
         * players are all "heuristic"): then the seats tell them apart. */
        static const char *const TAGS[] = {"North", "East", "South", "West"};
        bool distinct = true;
        for (int p = 0; p < 4; p++) {
            const char *tag = barbu_record_tag(rec, TAGS[p]);
            names[p] = tag != NULL && *tag ? tag : TAGS[p];
            for (int q = 0; q < p; q++)
                distinct &= strcmp(names[p], names[q]) != 0;
        }
        for (int p = 0; p < 4 && !distinct; p++)
            names[p] = TAGS[p];
    }

    /* The sheet is some tens of kilobytes: not for the stack. */
    barbu_sheet *sheet = malloc(sizeof *sheet);
    if (sheet == NULL) {
        fprintf(stderr, "barbu scoresheet: out of memory\n");
        barbu_record_free(rec);
        return 1;
    }
    barbu_sheet_init(sheet, NULL);
    collect col = {.sheet = sheet, .rules = rules};
    barbu_state s;
    barbu_diag diag = {0};
    int err = barbu_record_replay(rec, &s, add_deal, &col, &diag);

    /* As far as the record replays, the sheet is printed (as barbu replay
     * does), then the error; a page is written only for a sound record. */
    char subtitle[2048];
    const char *event = barbu_record_tag(rec, "Event");
    const char *date = barbu_record_tag(rec, "Date");
    snprintf(subtitle, sizeof subtitle, "%s%s%s%s%s, seed %" PRIu64 ", %d deal%s%s", path,
             event ? ": " : "", event ? event : "", date ? ", " : "", date ? date : "",
             barbu_record_seed(rec), col.deals, col.deals == 1 ? "" : "s",
             barbu_over(&s) ? ", game complete" : ", game in progress");
    printf("%s\n\n", subtitle);
    cli_fife_sheet_text(stdout, sheet, names);
    fflush(stdout);
    int status = 0;
    if (err != 0) {
        fprintf(stderr, "%s:%d: %s\n", path, diag.line, diag.msg);
        status = 1;
    } else if (col.err != 0) {
        fprintf(stderr, "barbu scoresheet: %s: deal %d: the score sheet refuses it: %s\n", path,
                col.err_deal, barbu_strerror(col.err));
        status = 1;
    } else if (html_path != NULL) {
        char *html;
        size_t html_len;
        if (cli_fife_sheet_html(sheet, names, subtitle, &html, &html_len) != 0) {
            fprintf(stderr, "barbu scoresheet: out of memory\n");
            status = 1;
        } else {
            status = cli_write_file(html_path, html, html_len);
            free(html);
        }
    }
    free(sheet);
    barbu_record_free(rec);
    return status;
}
