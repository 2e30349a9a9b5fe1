/* abuse_conn.c - see abuse.h.  (Being written.) */
#include <stdio.h>
#include <stdlib.h>

#include "abuse.h"

void abuse_idle(void)
{
    printf("SKIP the idle attack has no test yet\n");
    exit(77);
}

void abuse_lobby_chat(void)
{
    printf("SKIP the lobby_chat attack has no test yet\n");
    exit(77);
}

void abuse_slow_readers(void)
{
    printf("SKIP the slow_readers attack has no test yet\n");
    exit(77);
}

void abuse_table_fill(void)
{
    printf("SKIP the table_fill attack has no test yet\n");
    exit(77);
}
