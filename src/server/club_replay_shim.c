/*
 * club_replay_shim.c - until the hand viewer's replay (src/club/replay.c)
 * is merged: the replay endpoints say it is not built in.  Deleted at the
 * merge.
 */
#include <stdio.h>

#include "club_http.h"

char *club_replay_json(const char *record_text, char *err, size_t cap)
{
    (void)record_text;
    snprintf(err, cap, "This server is built without the hand viewer's replay yet.");
    return NULL;
}
