/*
 * pg_test.c - a fresh database per test in the tests' private cluster.
 */
#include "pg_test.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pg_test_available(void)
{
    const char *admin = getenv("BARBU_TEST_PG");
    return admin && *admin;
}

static int name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 40)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return 0;
    }
    return 1;
}

char *pg_test_db(const char *name)
{
    const char *admin = getenv("BARBU_TEST_PG");
    if (!admin || !*admin) {
        fprintf(stderr, "pg_test: BARBU_TEST_PG is not set (tests/pg/cluster.sh start DIR)\n");
        return NULL;
    }
    if (!name_ok(name)) {
        fprintf(stderr, "pg_test: bad database name \"%s\"\n", name);
        return NULL;
    }
    /* The administrator's URL names the database "postgres": the test's
     * is the same URL with its own name. */
    const char *at = strstr(admin, "/postgres");
    if (!at) {
        fprintf(stderr, "pg_test: BARBU_TEST_PG names no /postgres database: %s\n", admin);
        return NULL;
    }
    PGconn *conn = PQconnectdb(admin);
    if (PQstatus(conn) != CONNECTION_OK) {
        fprintf(stderr, "pg_test: %s", PQerrorMessage(conn));
        PQfinish(conn);
        return NULL;
    }
    char sql[128];
    int ok = 1;
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", name);
    PGresult *r = PQexec(conn, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        fprintf(stderr, "pg_test: %s", PQerrorMessage(conn));
        ok = 0;
    }
    PQclear(r);
    if (ok) {
        snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
        r = PQexec(conn, sql);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            fprintf(stderr, "pg_test: %s", PQerrorMessage(conn));
            ok = 0;
        }
        PQclear(r);
    }
    PQfinish(conn);
    if (!ok)
        return NULL;
    size_t cap = strlen(admin) + strlen(name) + 1;
    char *url = malloc(cap);
    if (!url)
        return NULL;
    snprintf(url, cap, "%.*s/%s%s", (int)(at - admin), admin, name, at + strlen("/postgres"));
    return url;
}
