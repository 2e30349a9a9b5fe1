/* abuse_bots.c - see abuse.h.  (Being written.) */
#include <stdio.h>
#include <stdlib.h>

#include "abuse.h"

void abuse_bot_timing(void)
{
    printf("SKIP the bot_timing attack has no test yet\n");
    exit(77);
}

void abuse_bot_sink(void)
{
    printf("SKIP the bot_sink attack has no test yet\n");
    exit(77);
}

void abuse_disk_full(void)
{
    printf("SKIP the disk_full attack has no test yet\n");
    exit(77);
}
