/*
 * analyse.h - what the expert thinks of one seat's decisions in a finished
 * game.  Each decision is judged from the seat's own view at that moment
 * (barbu_view_of the replayed state for that seat): the analysis never reads
 * a card the seat could not see then.
 */
#ifndef BARBU_ANALYSE_H
#define BARBU_ANALYSE_H

#include <stdatomic.h>

#include "barbu/ai.h"

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many options are kept for one decision: the legal actions
 * with alike cards counted once, or for Chinese Poker's rows the best
 * settings the arrangement scorer finds, and the one chosen. */
#define BARBU_ANALYSIS_OPTIONS 64

typedef struct barbu_analysis_option {
    barbu_action action;
    /* The expected settled score of the deal for the seat, in points, had
     * it taken this option (the expert's estimate over sampled deals). */
    double value;
    /* A card: the seat's cards that play alike to it (the same suit and
     * score, no card another seat may hold between them), which this one
     * option stands for, the card itself among them; 0 for other kinds. */
    barbu_cards cards;
} barbu_analysis_option;

typedef struct barbu_analysis_item {
    int deal;            /* 1-based deal of the game */
    int step;            /* 1-based: the decision is the deal's step-th action */
    barbu_action chosen; /* what the seat did */
    int n_options;       /* options[0..n_options-1], best first */
    int chosen_index;    /* the chosen action's option (it is always listed) */
    double cost;         /* options[0].value - options[chosen_index].value, >= 0 */
    int forced;          /* 1: only one option (nothing to judge; cost 0) */
    barbu_analysis_option options[BARBU_ANALYSIS_OPTIONS];
} barbu_analysis_item;

typedef struct barbu_analysis {
    int seat;
    char level[16];
    int n_items;
    barbu_analysis_item *items; /* in the game's order */
    double total_cost;
} barbu_analysis;

typedef struct barbu_analysis_opts {
    const char *level;  /* "easy", "medium" (NULL: medium) or "hard" */
    uint64_t seed;      /* the expert's sampling: the same seed, the same analysis */
    int threads;        /* per decision, as barbu_bot_set_threads (<= 0: 1) */
    atomic_int *cancel; /* polled between decisions; may be NULL */
    void (*progress)(void *ctx, int done, int total); /* after each decision; may be NULL */
    void *ctx;
} barbu_analysis_opts;

/*
 * Analyses `seat`'s decisions in the record (which must replay).  Returns 0
 * and a new analysis in *out (free with barbu_analysis_free); BARBU_EINVAL
 * for a bad seat or level, or when *cancel became nonzero (nothing is
 * returned then); the replay's error for a record that does not replay;
 * BARBU_ENOMEM.
 */
int barbu_analyse_record(const barbu_record *rec, int seat, const barbu_analysis_opts *opts,
                         barbu_analysis **out);
void barbu_analysis_free(barbu_analysis *a);

/* How many decisions of `seat` the record holds (the analysis's total). */
int barbu_analysis_count(const barbu_record *rec, int seat);

/* A mistake: a decision that costs at least this many points, the least
 * cost the JSON shows (it rounds to hundredths). */
#define BARBU_ANALYSIS_MISTAKE 0.005

/* The indices of the mistakes (cost >= BARBU_ANALYSIS_MISTAKE), costliest
 * first (ties in the game's order), into idx (room for a->n_items);
 * returns how many. */
int barbu_analysis_worst(const barbu_analysis *a, int *idx);

#ifdef __cplusplus
}
#endif
#endif
