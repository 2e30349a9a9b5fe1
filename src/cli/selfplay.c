/* selfplay.c - TEMPORARY placeholder while the command is written. */
#include "cli.h"

int cmd_selfplay(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "barbu selfplay: not written yet\n");
    return 1;
}
