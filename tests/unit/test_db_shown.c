/*
 * test_db_shown.c - the database's name in the log keeps none of a
 * PostgreSQL URL's secrets (srv_db_shown).
 */
#include <stdio.h>
#include <string.h>

#include "helpers.h"

#include "../../src/server/internal.h"

static void shown(const char *db, const char *want)
{
    char out[512];
    srv_db_shown(db, out, sizeof out);
    assert_string_equal(out, want);
}

static void test_secrets_left_out(void **state)
{
    (void)state;
    shown(NULL, "(none)");
    shown("/var/lib/barbu/barbu.db", "/var/lib/barbu/barbu.db");
    shown("postgresql://barbu@/barbu?host=/run/pg", "postgresql://barbu@/barbu?host=/run/pg");
    shown("postgresql://barbu:S3cret@db.example:5432/barbu",
          "postgresql://barbu:***@db.example:5432/barbu");
    shown("postgres://u:p@ss@h/d", "postgres://u:***@h/d");
    shown("postgresql://h/d?sslpassword=K&password=S",
          "postgresql://h/d?sslpassword=***&password=***");
    shown("postgresql://u:x@h/d?password=S&host=h&sslpassword=K&sslmode=require",
          "postgresql://u:***@h/d?password=***&host=h&sslpassword=***&sslmode=require");
    shown("postgresql://h/d?mypassword=1&passwordx=2",
          "postgresql://h/d?mypassword=***&passwordx=2");
}

static void test_short_buffer(void **state)
{
    (void)state;
    char out[16];
    srv_db_shown("postgresql://u:secret@h/d?password=S", out, sizeof out);
    assert_null(strstr(out, "secret"));
    assert_true(strlen(out) < sizeof out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_secrets_left_out),
        cmocka_unit_test(test_short_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
