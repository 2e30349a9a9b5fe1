/*
 * rules_page.c - the rules page of a rule set as HTML: the engine's words
 * (barbu_rules_describe) marked up, every text escaped, with a small inline
 * stylesheet in the browser client's colours and no script.  Served at
 * /rules/PRESET and /rules/table/ID (http.c) and printed by barbu rules
 * --html.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct page {
    char *buf;
    size_t len, cap;
    bool failed;
    bool in_sub, in_section, in_list;
    bool toc; /* the first pass: the list of sections only */
} page;

static void put_raw(page *p, const char *text, size_t n)
{
    if (p->failed)
        return;
    if (p->len + n + 1 > p->cap) {
        size_t cap = p->cap ? p->cap : 16384;
        while (p->len + n + 1 > cap)
            cap *= 2;
        char *b = realloc(p->buf, cap);
        if (b == NULL) {
            p->failed = true;
            return;
        }
        p->buf = b;
        p->cap = cap;
    }
    memcpy(p->buf + p->len, text, n);
    p->len += n;
    p->buf[p->len] = '\0';
}

static void put(page *p, const char *text)
{
    put_raw(p, text, strlen(text));
}

/* Text escaped for element content and quoted attributes. */
static void put_text(page *p, const char *text)
{
    for (const char *s = text; *s; s++) {
        switch (*s) {
        case '&':
            put(p, "&amp;");
            break;
        case '<':
            put(p, "&lt;");
            break;
        case '>':
            put(p, "&gt;");
            break;
        case '"':
            put(p, "&quot;");
            break;
        case '\'':
            put(p, "&#39;");
            break;
        default:
            put_raw(p, s, 1);
            break;
        }
    }
}

static void putf(page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void putf(page *p, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0)
        put_raw(p, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void close_list(page *p)
{
    if (p->in_list)
        put(p, "</ul>\n");
    p->in_list = false;
}

static void close_sub(page *p)
{
    close_list(p);
    if (p->in_sub)
        put(p, "</section>\n");
    p->in_sub = false;
}

static void close_section(page *p)
{
    close_sub(p);
    if (p->in_section)
        put(p, "</section>\n");
    p->in_section = false;
}

static void on_text(void *ctx, int what, const char *id, const char *text)
{
    page *p = ctx;
    if (p->toc) {
        if (what == BARBU_DESC_SECTION) {
            put(p, "<li><a href=\"#");
            put_text(p, id);
            put(p, "\">");
            put_text(p, text);
            put(p, "</a></li>\n");
        }
        return;
    }
    switch (what) {
    case BARBU_DESC_SECTION:
        close_section(p);
        put(p, "<section id=\"");
        put_text(p, id);
        put(p, "\">\n<h2>");
        put_text(p, text);
        put(p, "</h2>\n");
        p->in_section = true;
        break;
    case BARBU_DESC_SUBSECTION:
        close_sub(p);
        put(p, "<section id=\"");
        put_text(p, id);
        put(p, "\">\n<h3>");
        put_text(p, text);
        put(p, "</h3>\n");
        p->in_sub = true;
        break;
    case BARBU_DESC_ITEM:
        if (!p->in_list)
            put(p, "<ul>\n");
        p->in_list = true;
        put(p, "<li>");
        put_text(p, text);
        put(p, "</li>\n");
        break;
    case BARBU_DESC_SOURCE:
        close_list(p);
        put(p, "<p class=\"src\">From the rule documents: ");
        put_text(p, text);
        put(p, ".</p>\n");
        break;
    default:
        close_list(p);
        put(p, "<p>");
        put_text(p, text);
        put(p, "</p>\n");
        break;
    }
}

/* The client's colours (web/src/app.css), readable from 320 px up. */
static const char STYLE[] =
    "body{margin:0;font:16px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Noto "
    "Sans\",\"DejaVu Sans\",sans-serif;color:#1b1b1b;background:#fbfaf6}"
    "header,main,footer{max-width:46rem;margin:0 auto;padding:0 1rem}"
    "header{padding-top:1rem}h1{font-size:1.6rem;margin:.5rem 0}"
    "h2{font-size:1.3rem;margin:1.6rem 0 .4rem;padding-top:.6rem;border-top:1px solid #c9c6bc}"
    "h3{font-size:1.1rem;margin:1.2rem 0 .3rem}p,li{margin:.35rem 0}ul{padding-left:1.3rem}"
    "a{color:#0b57d0}a:focus-visible{outline:3px solid #ffbf00;outline-offset:2px}"
    "nav ul{display:flex;flex-wrap:wrap;gap:.2rem 1rem;list-style:none;padding:0}"
    "nav a{display:inline-block;padding:10px 0}"
    ".src{color:#4a4a4a;font-size:.9rem}.about{color:#4a4a4a}"
    "pre{background:#fff;border:1px solid #c9c6bc;border-radius:8px;padding:.6rem;"
    "overflow-x:auto;white-space:pre-wrap}"
    "footer{color:#4a4a4a;font-size:.9rem;padding-bottom:2rem}";

char *barbu_rules_page(const barbu_rules *rules, const char *title, const char *about,
                       const char *house)
{
    page p = {0};
    put(&p, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    put_text(&p, title);
    put(&p, " - barbu rules</title>\n<style>");
    put(&p, STYLE);
    put(&p, "</style>\n</head>\n<body>\n<header>\n<h1>");
    put_text(&p, title);
    put(&p, "</h1>\n");
    if (about && about[0]) {
        put(&p, "<p class=\"about\">");
        put_text(&p, about);
        put(&p, "</p>\n");
    }
    put(&p, "<nav aria-label=\"Sections\">\n<ul>\n");
    bool has_house = house != NULL && house[0] != '\0';
    if (has_house)
        put(&p, "<li><a href=\"#house-rules\">House rules</a></li>\n");
    p.toc = true;
    barbu_rules_describe(rules, on_text, &p);
    p.toc = false;
    put(&p, "</ul>\n</nav>\n</header>\n<main>\n");
    if (has_house) {
        put(&p, "<section id=\"house-rules\">\n<h2>House rules</h2>\n<p>This table changes "
                "its rule set with these lines of a rules file; the rules below are as they "
                "stand with them.</p>\n<pre>");
        put_text(&p, house);
        put(&p, "</pre>\n</section>\n");
    }
    barbu_rules_describe(rules, on_text, &p);
    close_section(&p);
    put(&p, "</main>\n<footer>\n<p>The rule documents: 000 the Fife club booklet; 001 and 004 "
            "the encyclopedia article (2010 and a later revision); 002 the rules of the UK "
            "online game; 003 an online player's rules page. barbu's docs/rules.md says which "
            "rule comes from which.</p>\n");
    putf(&p, "<p>barbu %s</p>\n</footer>\n</body>\n</html>\n", BARBU_VERSION);
    if (p.failed) {
        free(p.buf);
        return NULL;
    }
    return p.buf;
}

char *barbu_rules_index_page(void)
{
    page p = {0};
    put(&p, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>Barbu rule sets - barbu rules</title>\n<style>");
    put(&p, STYLE);
    put(&p, "</style>\n</head>\n<body>\n<header>\n<h1>Barbu rule sets</h1>\n</header>\n<main>\n"
            "<p>Each rule set's page explains how it is played and scored.</p>\n<ul>\n");
    for (int i = 0; barbu_preset_name(i) != NULL; i++) {
        put(&p, "<li><a href=\"/rules/");
        put_text(&p, barbu_preset_name(i));
        put(&p, "\">");
        put_text(&p, barbu_preset_name(i));
        put(&p, "</a>: ");
        put_text(&p, barbu_preset_about(i));
        put(&p, "</li>\n");
    }
    putf(&p, "</ul>\n</main>\n<footer>\n<p>barbu %s</p>\n</footer>\n</body>\n</html>\n",
         BARBU_VERSION);
    if (p.failed) {
        free(p.buf);
        return NULL;
    }
    return p.buf;
}
