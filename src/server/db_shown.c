/*
 * db_shown.c - the database's name as the log shows it: a PostgreSQL URL
 * without any of its secrets.  On its own (no server, no store) so that a
 * unit test reaches it.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Appends n bytes of text to out (of cap bytes, *len used so far). */
static void put(char *out, size_t cap, size_t *len, const char *text, size_t n)
{
    if (*len + 1 >= cap)
        return;
    if (n > cap - 1 - *len)
        n = cap - 1 - *len;
    memcpy(out + *len, text, n);
    *len += n;
    out[*len] = '\0';
}

/* Whether a query parameter's key names a secret: password, sslpassword,
 * or any other key of libpq's that ends so. */
static bool secret_key(const char *key, size_t n)
{
    static const char WORD[] = "password";
    size_t w = sizeof WORD - 1;
    return n >= w && strncmp(key + n - w, WORD, w) == 0;
}

void srv_db_shown(const char *db, char *out, size_t cap)
{
    if (cap == 0)
        return;
    out[0] = '\0';
    if (db == NULL) {
        snprintf(out, cap, "(none)");
        return;
    }
    const char *scheme = strstr(db, "://");
    bool pg = strncmp(db, "postgresql://", 13) == 0 || strncmp(db, "postgres://", 11) == 0;
    if (!pg || scheme == NULL) {
        snprintf(out, cap, "%s", db);
        return;
    }
    size_t len = 0;
    const char *p = scheme + 3;
    put(out, cap, &len, db, (size_t)(p - db));
    /* The authority: user:secret@host..., up to the query; the user
     * information ends at its last @ (a secret may hold one). */
    const char *query = strchr(p, '?');
    const char *end = query ? query : p + strlen(p);
    const char *at = NULL;
    for (const char *q = p; q < end; q++)
        if (*q == '@')
            at = q;
    if (at) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        if (colon) {
            put(out, cap, &len, p, (size_t)(colon - p));
            put(out, cap, &len, ":***", 4);
        } else
            put(out, cap, &len, p, (size_t)(at - p));
        p = at;
    }
    put(out, cap, &len, p, (size_t)(end - p));
    if (query == NULL)
        return;
    /* ?key=value&...: every secret's value is left out. */
    put(out, cap, &len, "?", 1);
    for (p = query + 1; *p;) {
        size_t n = strcspn(p, "&");
        const char *eq = memchr(p, '=', n);
        if (eq && secret_key(p, (size_t)(eq - p))) {
            put(out, cap, &len, p, (size_t)(eq - p) + 1);
            put(out, cap, &len, "***", 3);
        } else
            put(out, cap, &len, p, n);
        p += n;
        if (*p == '&') {
            put(out, cap, &len, "&", 1);
            p++;
        }
    }
}
