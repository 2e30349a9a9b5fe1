/* replay.c - TEMPORARY placeholder while the command is written. */
#include "cli.h"

int cmd_replay(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "barbu replay: not written yet\n");
    return 1;
}
