/* play.c - TEMPORARY placeholder while the command is written. */
#include "cli.h"

int cmd_play(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "barbu play: not written yet\n");
    return 1;
}
