/* rules.c - TEMPORARY placeholder while the command is written. */
#include "cli.h"

int cmd_rules(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "barbu rules: not written yet\n");
    return 1;
}
