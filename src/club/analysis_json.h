/*
 * analysis_json.h - an analysis of one seat's decisions (include/barbu/
 * analyse.h) as JSON, for the club's viewer and `barbu analyse --json`.
 * The shape is documented in docs/club.md ("Analysis").  Pure: no I/O.
 */
#ifndef BARBU_CLUB_ANALYSIS_JSON_H
#define BARBU_CLUB_ANALYSIS_JSON_H

#include <barbu/analyse.h>

/* The analysis of `rec` (the record it was made from) as malloc'd JSON text
 * the caller frees, or NULL (out of memory, or a record that no longer
 * replays). */
char *barbu_analysis_json(const barbu_analysis *a, const barbu_record *rec);

#endif
