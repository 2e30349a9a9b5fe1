/* abuse_store.c - see abuse.h.  (Being written.) */
#include <stdio.h>
#include <stdlib.h>

#include "abuse.h"

void abuse_db_lock(void)
{
    printf("SKIP the db_lock attack has no test yet\n");
    exit(77);
}

void abuse_broken_row(void)
{
    printf("SKIP the broken_row attack has no test yet\n");
    exit(77);
}

void abuse_db_mode(void)
{
    printf("SKIP the db_mode attack has no test yet\n");
    exit(77);
}
