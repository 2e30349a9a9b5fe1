/* bench.c - TEMPORARY placeholder while the command is written. */
#include "cli.h"

int cmd_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "barbu bench: not written yet\n");
    return 1;
}
