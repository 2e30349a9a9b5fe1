/* abuse_table.c - see abuse.h.  (Being written.) */
#include <stdio.h>
#include <stdlib.h>

#include "abuse.h"

void abuse_kibitz_seats(void)
{
    printf("SKIP the kibitz_seats attack has no test yet\n");
    exit(77);
}

void abuse_kibitz_address(void)
{
    printf("SKIP the kibitz_address attack has no test yet\n");
    exit(77);
}

void abuse_seed(void)
{
    printf("SKIP the seed attack has no test yet\n");
    exit(77);
}

void abuse_kibitz_chat(void)
{
    printf("SKIP the kibitz_chat attack has no test yet\n");
    exit(77);
}
