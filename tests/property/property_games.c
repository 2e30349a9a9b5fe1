/*
 * property_games.c - many seeded random games, checking what must hold of
 * every one: each deal dealt from the whole pack, each card played once per
 * deal, each deal summing to its contracts' total before the settlement
 * (Chinese Poker: zero) and the settlement moving nothing in all, Ravage City
 * and Chinese Poker scored as their rules say, every contract played as often
 * as the schedule asks, every game summing to zero, and the record replaying
 * to the same game and writing back the same text.
 *
 * Two sets of games: --games N cycles through the variants below (options
 * that change play), and --per-preset M plays M games of every preset
 * (barbu_preset_name), Chinese Poker's rows set at random.
 *
 * usage: property_games [--games N] [--per-preset M] [--seed S]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "barbu/barbu.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            failures++;                                                                            \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

/* The rule sets the variant games cycle through: the options that change
 * play, on the standard game and on the variants. */
static const char *const VARIANTS[] = {
    "preset = uk\n",
    "preset = classic\n",
    "preset = uk\nisraeli = enforce\n",
    "preset = uk\ndoubling = no\n",
    "preset = uk\nmust-trump = no\ndomino-ace = low\ndomino-first = left\n",
    "preset = uk\nundoubled-not-played = no\nmandatory-doubles = 0\nearly-end = no\n",
    "preset = uk\nhearts-lead = no\ndomino-scores = 40 20 5 0\nfirst-lead = left\n",
    /* A 32-card house table: -24 -20 -20 -20 -30 +48 +66 sums to zero. */
    "preset = classic\ndeck = 32\nno-tricks.per-trick = -3\ntrumps.per-trick = 6\n"
    "no-queens.card.Q = -5\ndomino-scores = 40 20 6 0\n",
    "preset = chinese\nchinese-fouls = lose\nisraeli = advise\n",
    "preset = ravage\nrotation = every-deal\nundoubled-not-played = no\n",
    "preset = ravage\nravage.shared = -36\ntrumps.per-trick = 8\ndomino-scores = 50 25 10 -1\n",
    "preset = king\ndoubling = yes\nfirst-lead = left\n",
    "preset = king-7th\nearly-end = no\nmust-trump = no\n",
    "preset = ravage-32\ndomino-ace = low\nisraeli = enforce\n",
    "preset = fife\nsets = 2\n",
    /* A Fife house table: -100 -100 -60 -100 -40 = -400 against 2 x 200. */
    "preset = fife\naces.card.A = -25\ntricks.per-trick = -5\npatience-1.places = 110 60 30 0\n"
    "patience-2.places = 110 60 30 0\nfirst-lead = declarer\n",
};
#define N_VARIANTS (int)(sizeof VARIANTS / sizeof VARIANTS[0])

typedef struct results {
    barbu_result v[64];
    int n;
} results;

static void collect(const barbu_result *r, void *ctx)
{
    results *rs = ctx;
    if (rs->n < 64)
        rs->v[rs->n++] = *r;
}

/* The pack of a rule set. */
static barbu_cards pack_of(const barbu_rules *rules)
{
    barbu_cards deck = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = rules->deck_low; rank <= BARBU_ACE; rank++)
            deck |= BARBU_BIT(BARBU_CARD(suit, rank));
    return deck;
}

/* Ravage City from the cards taken: the most of one suit, shared. */
static int check_ravage(const barbu_contract *k, const barbu_result *r, int game)
{
    int most[4], top = 0, tied = 0;
    for (int s = 0; s < 4; s++) {
        most[s] = 0;
        for (int suit = 0; suit < 4; suit++) {
            int n = barbu_count(r->taken[s] & BARBU_SUIT_CARDS(suit));
            most[s] = n > most[s] ? n : most[s];
        }
        top = most[s] > top ? most[s] : top;
    }
    for (int s = 0; s < 4; s++)
        tied += most[s] == top;
    for (int s = 0; s < 4; s++) {
        int want = most[s] == top ? k->shared / tied : 0;
        CHECK(r->raw[s] == want, "game %d deal %d: Ravage City gives %s %d, not %d", game,
              r->deal + 1, barbu_seat_name(s), r->raw[s], want);
    }
    return 0;
}

/* Chinese Poker: the rows are the hand as dealt, in order unless fouls are
 * allowed, and each seat scores its rows against each other seat's. */
static int check_rows(const barbu_rules *rules, const barbu_contract *k, const barbu_result *r,
                      const barbu_cards dealt[4], int game)
{
    static const int SIZES[3] = {5, 5, 3};
    for (int s = 0; s < 4; s++) {
        barbu_cards all = 0;
        for (int row = 0; row < 3; row++) {
            CHECK(barbu_count(r->rows[s][row]) == SIZES[row] && !(all & r->rows[s][row]),
                  "game %d deal %d: %s's rows are not 5, 5 and 3 cards", game, r->deal + 1,
                  barbu_seat_name(s));
            all |= r->rows[s][row];
        }
        CHECK(all == dealt[s], "game %d deal %d: %s's rows are not the hand dealt", game,
              r->deal + 1, barbu_seat_name(s));
        CHECK(rules->fouls_lose || !barbu_rows_fouled(r->rows[s][0], r->rows[s][1], r->rows[s][2]),
              "game %d deal %d: %s's rows are fouled", game, r->deal + 1, barbu_seat_name(s));
    }
    for (int a = 0; a < 4; a++) {
        int units = 0;
        for (int b = 0; b < 4; b++)
            if (b != a)
                units += barbu_rows_compare(r->rows[a], r->rows[b], k->scoop);
        CHECK(r->raw[a] == units * k->per_row, "game %d deal %d: %s scores %d, not %d x %d", game,
              r->deal + 1, barbu_seat_name(a), r->raw[a], units, k->per_row);
    }
    return 0;
}

static int check_result(const barbu_rules *rules, const barbu_result *r, const barbu_cards dealt[4],
                        int game)
{
    int raw = 0, final = 0, total = 0;
    for (unsigned m = r->contracts; m; m &= m - 1)
        total += barbu_contract_total(rules, __builtin_ctz(m));
    for (int s = 0; s < 4; s++) {
        raw += r->raw[s];
        final += r->score[s];
    }
    CHECK(raw == total, "game %d deal %d: raw scores sum to %d, the contract's total is %d", game,
          r->deal + 1, raw, total);
    CHECK(final == total, "game %d deal %d: settled scores sum to %d, not %d", game, r->deal + 1,
          final, total);
    /* Each contract of a combined deal scores its own total (the Fife
     * game's categories: 80 for the Aces, 100 for El Kingko...). */
    for (unsigned m = r->contracts; m; m &= m - 1) {
        int c = __builtin_ctz(m), sum = 0;
        for (int s = 0; s < 4; s++)
            sum += r->part[c][s];
        CHECK(sum == barbu_contract_total(rules, c), "game %d deal %d: %s scores %d, not %d", game,
              r->deal + 1, rules->contract[c].key, sum, barbu_contract_total(rules, c));
    }
    const barbu_contract *k = &rules->contract[__builtin_ctz(r->contracts)];
    if (k->kind == BARBU_KIND_RAVAGE && r->played && check_ravage(k, r, game))
        return 1;
    if (k->kind == BARBU_KIND_CHINESE) {
        CHECK(r->played, "game %d deal %d: Chinese Poker was not played", game, r->deal + 1);
        if (check_rows(rules, k, r, dealt, game))
            return 1;
    }
    return 0;
}

/* A random valid setting of the rows for the seat to move: random rows of
 * 5, 5 and 3, drawn again until the engine accepts them (barbu_legal would
 * list some 72,000 settings).  Each refusal must be a foul, and change
 * nothing. */
static int random_rows(barbu_state *s, barbu_rng *rng, barbu_action *out, int game)
{
    int seat = s->t.to_move;
    barbu_cards hand = s->hand[seat];
    for (int tries = 0; tries < 10000; tries++) {
        barbu_action a = barbu_act(BARBU_ACT_ARRANGE, seat);
        for (int k = 0; k < 10; k++) {
            barbu_cards left = hand & ~a.cards & ~a.middle;
            barbu_cards card =
                BARBU_BIT(barbu_nth_card(left, barbu_rng_below(rng, (uint32_t)barbu_count(left))));
            if (k < 5)
                a.cards |= card;
            else
                a.middle |= card;
        }
        int err = barbu_check(s, &a);
        if (err == 0) {
            *out = a;
            return 0;
        }
        CHECK(err == BARBU_EFOUL && !s->rules->fouls_lose,
              "game %d: rows of 5, 5 and 3 refused with %d", game, err);
        if (tries == 0) {
            barbu_table before = s->t;
            CHECK(barbu_apply(s, &a) == BARBU_EFOUL && memcmp(&before, &s->t, sizeof before) == 0,
                  "game %d: a refused setting changed the table", game);
        }
    }
    CHECK(0, "game %d: no valid rows found", game);
}

/* The schedule was kept: each player declared a quarter of the deals, each
 * contract was played as often as the game asks. */
static int check_schedule(const barbu_rules *rules, const barbu_state *s, int game)
{
    for (int c = 0; c < rules->n_contracts; c++) {
        int all = 0;
        for (int p = 0; p < 4; p++) {
            CHECK(s->t.used[p][c] <= rules->contract[c].per_player,
                  "game %d: %s declared %s %d times", game, barbu_seat_name(p),
                  rules->contract[c].key, s->t.used[p][c]);
            all += s->t.used[p][c];
        }
        CHECK(all == barbu_contract_times(rules, c), "game %d: %s played %d times, not %d", game,
              rules->contract[c].key, all, barbu_contract_times(rules, c));
    }
    for (int p = 0; p < 4; p++)
        CHECK(s->t.declared[p] * 4 == barbu_rules_deals(rules), "game %d: %s declared %d times",
              game, barbu_seat_name(p), s->t.declared[p]);
    return 0;
}

/* The Fife game: every Set five Rounds, each of its seven Calls once, in
 * two to five deals (Player Rounds, the Doubles and Trebles rule) or two to
 * seven (the Silly Round), each Player Round called by the next player. */
static int check_fife_rounds(const barbu_rules *rules, const results *live, int game)
{
    int deals = 0;
    for (int set = 0; set < rules->sets; set++) {
        for (int round = 0; round < 5; round++) {
            unsigned calls = 0;
            int n = 0;
            while (deals < live->n && live->v[deals].set == set && live->v[deals].round == round) {
                const barbu_result *r = &live->v[deals++];
                CHECK(r->round_deal == n && r->calls_before == calls && !(calls & r->contracts),
                      "game %d deal %d: a Call out of order in its Round", game, r->deal + 1);
                CHECK(round == BARBU_SILLY_ROUND || r->declarer == live->v[deals - 1 - n].declarer,
                      "game %d deal %d: the Caller changed within a Round", game, r->deal + 1);
                calls |= r->contracts;
                n++;
            }
            int most = round == BARBU_SILLY_ROUND ? 7 : 5;
            CHECK(calls == BARBU_CALLS_ALL && n >= 2 && n <= most,
                  "game %d: Set %d Round %d played Calls %#x in %d deals", game, set + 1, round + 1,
                  calls, n);
        }
    }
    CHECK(deals == live->n, "game %d: %d deals after the last Set", game, live->n - deals);
    return 0;
}

static int play_game(const barbu_rules *rules, uint64_t seed, int game, bool check_each)
{
    barbu_state s;
    CHECK(barbu_init(&s, rules, seed) == 0, "init");
    barbu_record *rec = barbu_record_new(rules, seed);
    CHECK(rec != NULL, "record");
    barbu_rng rng;
    barbu_rng_seed(&rng, seed ^ UINT64_C(0x5eed));
    const barbu_cards deck = pack_of(rules);
    const int hand_size = barbu_rules_hand_size(rules);
    barbu_cards played = 0, dealt[4];
    int deal = -1;
    results live = {.n = 0};
    while (!barbu_over(&s)) {
        if (s.t.deal != deal) {
            /* A new deal: the whole pack, hand_size cards each. */
            deal = s.t.deal;
            played = 0;
            barbu_cards all = 0;
            for (int p = 0; p < 4; p++) {
                CHECK(barbu_count(s.hand[p]) == hand_size && !(all & s.hand[p]) &&
                          s.hand[p] == s.dealt[p],
                      "game %d deal %d: %s is not dealt %d cards", game, deal + 1,
                      barbu_seat_name(p), hand_size);
                all |= s.hand[p];
            }
            CHECK(all == deck, "game %d deal %d: the deal is not the pack", game, deal + 1);
            memcpy(dealt, s.dealt, sizeof dealt);
        }
        barbu_action a;
        if (s.t.phase == BARBU_PHASE_ARRANGE) {
            if (random_rows(&s, &rng, &a, game))
                return 1;
        } else {
            barbu_action legal[BARBU_MAX_ACTIONS];
            int n = barbu_legal(&s, legal, BARBU_MAX_ACTIONS);
            CHECK(n > 0 && n <= BARBU_MAX_ACTIONS, "game %d: %d legal actions", game, n);
            a = legal[barbu_rng_below(&rng, (uint32_t)n)];
        }
        if (a.type == BARBU_ACT_PLAY) {
            CHECK(!(played & a.cards), "game %d deal %d: a card played twice", game, deal + 1);
            played |= a.cards;
        }
        /* A legal action has no refusal; a card or bid picked at random
         * is refused (or not) exactly as barbu_check says, with words. */
        char why_text[480];
        CHECK(barbu_explain(&s, &a, why_text, sizeof why_text) == 0 && why_text[0] == '\0',
              "game %d: barbu_explain refuses a legal action: %s", game, why_text);
        barbu_action other = a;
        other.seat = (int8_t)barbu_rng_below(&rng, 4);
        if (a.type == BARBU_ACT_PLAY)
            other.cards = BARBU_BIT(barbu_nth_card(deck, barbu_rng_below(&rng, barbu_count(deck))));
        else if (a.type == BARBU_ACT_BID)
            other.doubles = (uint8_t)barbu_rng_below(&rng, 16);
        int code = barbu_explain(&s, &other, why_text, sizeof why_text);
        CHECK(code == barbu_check(&s, &other) && (code == 0) == (why_text[0] == '\0'),
              "game %d: barbu_explain gives %d (%s), barbu_check %d", game, code, why_text,
              barbu_check(&s, &other));
        barbu_state before = s;
        CHECK(barbu_apply(&s, &a) == 0, "game %d: a legal action was refused", game);
        if (a.type == BARBU_ACT_CUT && s.t.deal == before.t.deal) {
            /* Every cut says what it was for and meant, read from the table
             * (which holds a deal's last 32 cuts). */
            int what = -1;
            int len = barbu_cut_note(rules, &s.t, s.t.n_cuts - 1, &what, why_text, sizeof why_text);
            CHECK((len > 0 && what == before.t.cut_for) || (len == BARBU_ELIMIT && s.t.n_cuts > 32),
                  "game %d deal %d: cut %d has no note, or the wrong purpose (%d)", game, deal + 1,
                  s.t.n_cuts, what);
        }
        if (check_each || s.t.deal != before.t.deal) {
            /* Asked before the check, whose message prints what it says. */
            const char *why = NULL;
            int broke = barbu_state_ok(&s, &why);
            CHECK(broke == 0, "game %d: an invariant broke: %s", game, why ? why : "?");
        }
        CHECK(barbu_record_add(rec, &before, &a) == 0, "game %d: record_add", game);
        if (s.t.deal != before.t.deal) {
            const barbu_result *r = &s.t.last;
            if (check_result(rules, r, dealt, game))
                return 1;
            /* A played deal used each card once; all of them unless it ended early. */
            if (r->played &&
                (before.t.kind == BARBU_KIND_TRICKS || before.t.kind == BARBU_KIND_TRUMPS)) {
                int expect = 4 * (hand_size - r->tricks_left);
                CHECK(barbu_count(played) == expect, "game %d deal %d: %d cards played, not %d",
                      game, r->deal + 1, barbu_count(played), expect);
            }
            if (before.t.kind == BARBU_KIND_CHINESE)
                CHECK(played == 0, "game %d deal %d: cards played at Chinese Poker", game,
                      r->deal + 1);
            if (live.n < 64)
                live.v[live.n++] = *r;
        }
    }
    CHECK(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3] == 0,
          "game %d: the game sums to %d", game,
          (int)(s.t.total[0] + s.t.total[1] + s.t.total[2] + s.t.total[3]));
    if (rules->game == BARBU_GAME_FIFE) {
        if (check_fife_rounds(rules, &live, game))
            return 1;
    } else if (check_schedule(rules, &s, game)) {
        return 1;
    }

    /* The record: written, read back, replayed to the same results and
     * written again to the same text. */
    char *text, *again;
    size_t len, len2;
    barbu_diag diag = {0};
    CHECK(barbu_record_write(rec, &text, &len, &diag) == 0, "game %d: write: %s", game, diag.msg);
    barbu_record *back;
    CHECK(barbu_record_read(text, len, &back, &diag) == 0, "game %d: read line %d: %s", game,
          diag.line, diag.msg);
    results replayed = {.n = 0};
    barbu_state end;
    CHECK(barbu_record_replay(back, &end, collect, &replayed, &diag) == 0, "game %d: replay: %s",
          game, diag.msg);
    CHECK(replayed.n == live.n, "game %d: %d deals replayed, %d played", game, replayed.n, live.n);
    for (int i = 0; i < live.n; i++)
        CHECK(memcmp(&replayed.v[i], &live.v[i], sizeof live.v[i]) == 0,
              "game %d deal %d: the replay differs", game, i + 1);
    CHECK(memcmp(end.t.total, s.t.total, sizeof s.t.total) == 0, "game %d: totals differ", game);
    CHECK(barbu_record_write(back, &again, &len2, &diag) == 0, "game %d: rewrite", game);
    CHECK(len == len2 && memcmp(text, again, len) == 0, "game %d: the record does not round-trip",
          game);
    free(text);
    free(again);
    barbu_record_free(back);
    barbu_record_free(rec);
    return 0;
}

static int parse_rules(barbu_rules *rules, const char *text, const char *what)
{
    barbu_diag diag;
    if (barbu_rules_parse(rules, text, strlen(text), &diag) != 0) {
        fprintf(stderr, "%s, line %d: %s\n", what, diag.line, diag.msg);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int games = 10000, per_preset = -1;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--games") == 0 && i + 1 < argc)
            games = atoi(argv[++i]);
        else if (strcmp(argv[i], "--per-preset") == 0 && i + 1 < argc)
            per_preset = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: property_games [--games N] [--per-preset M] [--seed S]\n");
            return 2;
        }
    }
    if (per_preset < 0)
        per_preset = games / 10;

        /* Debug builds check every invariant inside each apply already; a
         * release build checks them after every action of one game in four, and
         * at the end of every deal. */
#ifdef BARBU_CHECK_INVARIANTS
    const bool check_some = false;
#else
    const bool check_some = true;
#endif
    clock_t start = clock();
    barbu_rules rules[N_VARIANTS];
    for (int v = 0; v < N_VARIANTS; v++) {
        char what[32];
        snprintf(what, sizeof what, "variant %d", v);
        if (parse_rules(&rules[v], VARIANTS[v], what))
            return 1;
    }
    for (int g = 0; g < games && failures < 10; g++)
        play_game(&rules[g % N_VARIANTS], seed + (uint64_t)g, g, check_some && g % 4 == 0);
    double variant_seconds = (double)(clock() - start) / CLOCKS_PER_SEC;

    /* Every preset, the same number of games each. */
    int presets = 0;
    start = clock();
    for (int p = 0; barbu_preset_name(p) != NULL && failures < 10; p++, presets++) {
        barbu_rules r;
        if (barbu_rules_preset(&r, barbu_preset_name(p)) != 0) {
            fprintf(stderr, "preset %s\n", barbu_preset_name(p));
            return 1;
        }
        clock_t t0 = clock();
        for (int g = 0; g < per_preset && failures < 10; g++)
            play_game(&r, seed + UINT64_C(1000000) * (uint64_t)(p + 1) + (uint64_t)g, g,
                      check_some && g % 4 == 0);
        fprintf(stderr, "  %-11s %5d games %6.2f s\n", barbu_preset_name(p), per_preset,
                (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
    double preset_seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("%d random games over %d variants (%.1f s) and %d of each of %d presets (%.1f s): "
           "every deal the pack, every card once, every deal its contracts' total, Ravage City "
           "and Chinese Poker rescored, every schedule kept (every Fife Round its seven Calls), "
           "every game zero, every record "
           "replayed and round-tripped\n",
           games, N_VARIANTS, variant_seconds, per_preset, presets, preset_seconds);
    return 0;
}
