/*
 * pg_test.h - a fresh PostgreSQL database for one test, in the private
 * cluster that tests/pg/cluster.sh starts (CTest's fixture "pg" sets
 * BARBU_TEST_PG to its administrator's URL).
 */
#ifndef BARBU_PG_TEST_H
#define BARBU_PG_TEST_H

/* Drops the database `name` if it is there and creates it empty; returns its
 * URL (malloc'd: the caller frees), or NULL with the reason on stderr (no
 * BARBU_TEST_PG, the cluster not answering).  name: letters, digits and _
 * only, at most 40 characters. */
char *pg_test_db(const char *name);

/* Whether BARBU_TEST_PG is set (the fixture is there). */
int pg_test_available(void);

#endif
