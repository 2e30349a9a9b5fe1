/*
 * engine_phases.c - the instructions of each phase of a deal, for
 * docs/internals.md, "The hot path": random games as `barbu bench` deals and
 * plays them out (the declaration and the bids drawn from barbu_legal's list,
 * the cards by barbu_playout_random), counted by callgrind only while the
 * calls of one phase run.  Not built by CMake (it needs valgrind's header);
 * from the repository, after `make build`:
 *
 *   cc -std=c11 -O2 -march=x86-64-v2 -Iinclude bench/engine_phases.c \
 *       build/libbarbu_engine.a -lsodium -o /tmp/engine_phases
 *   for p in deal declare bid play; do
 *       valgrind --tool=callgrind --collect-atstart=no \
 *           --callgrind-out-file=/dev/null /tmp/engine_phases $p 300 uk
 *   done
 *
 * and divide each "Collected" by the deals it prints.  PHASE is deal (the
 * hands of each deal, barbu_dealt_hands, as the engine deals them), declare,
 * bid or play (the playout, with the deal's scoring and the next deal's set
 * up, which end it).  Any other PHASE (none) toggles nothing: run it without
 * --collect-atstart=no for the instructions of the whole run.  PHASE games
 * toggles nothing either and plays the bench's whole random games instead:
 * every action, each card too, drawn from barbu_legal's list and applied
 * with barbu_apply.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/callgrind.h>

#include "barbu/barbu.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: engine_phases deal|declare|bid|play|none|games GAMES [RULES]\n");
        return 2;
    }
    const char *phase = argv[1];
    int games = atoi(argv[2]);
    barbu_rules r;
    if (barbu_rules_preset(&r, argc > 3 ? argv[3] : "uk") != 0)
        return 2;
    int want = strcmp(phase, "declare") == 0 ? BARBU_PHASE_DECLARE
               : strcmp(phase, "bid") == 0   ? BARBU_PHASE_BID
               : strcmp(phase, "play") == 0  ? BARBU_PHASE_PLAY
                                             : -1;
    bool deal = strcmp(phase, "deal") == 0, whole = strcmp(phase, "games") == 0;
    barbu_rng rng;
    barbu_rng_seed(&rng, 7);
    static barbu_action legal[BARBU_MAX_ACTIONS];
    long deals = 0;
    uint64_t check = 0;
    for (int g = 1; g <= games; g++) {
        barbu_state s;
        if (barbu_init(&s, &r, (uint64_t)g) != 0)
            return 1;
        while (!barbu_over(&s)) {
            if (s.t.acted == 0 && s.t.phase == BARBU_PHASE_DECLARE) {
                deals++;
                if (deal) {
                    barbu_cards hands[4];
                    CALLGRIND_TOGGLE_COLLECT;
                    barbu_dealt_hands(&s, s.t.deal, s.t.dealer, hands);
                    CALLGRIND_TOGGLE_COLLECT;
                    check ^= hands[0];
                }
            }
            bool on = s.t.phase == want;
            if (on)
                CALLGRIND_TOGGLE_COLLECT;
            if (s.t.phase == BARBU_PHASE_PLAY && !whole) {
                barbu_playout_random(&s, &rng);
            } else {
                int n = barbu_legal(&s, legal, BARBU_MAX_ACTIONS);
                n = n < BARBU_MAX_ACTIONS ? n : BARBU_MAX_ACTIONS;
                if (n <= 0 || barbu_apply(&s, &legal[barbu_rng_below(&rng, (uint32_t)n)]) != 0)
                    return 1;
            }
            if (on)
                CALLGRIND_TOGGLE_COLLECT;
        }
    }
    printf("%ld deals (check %016llx)\n", deals, (unsigned long long)check);
    return 0;
}
