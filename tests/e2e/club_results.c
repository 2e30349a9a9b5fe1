/*
 * club_results.c - placeholder until written.
 */
#include "club_play.h"

void club_results(void)
{
    e2e_die("club_results: not written yet");
}
