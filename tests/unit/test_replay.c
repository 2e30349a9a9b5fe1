/*
 * test_replay.c - the club's hand viewer replay (src/club/replay.c): golden
 * records replayed step by step, each step's table checked against the
 * record's own actions, and a tampered record refused with the reader's
 * sentence.
 */
#include <jansson.h>
#include <stdlib.h>

#include "helpers.h"
#include "replay.h"

static barbu_cards cards_json_set(const json_t *a)
{
    assert_true(json_is_array(a));
    barbu_cards set = 0;
    size_t i;
    json_t *c;
    json_array_foreach(a, i, c)
    {
        int card = barbu_card_parse(json_string_value(c), NULL);
        assert_true(card >= 0);
        assert_false(set & BARBU_BIT(card)); /* no card twice */
        set |= BARBU_BIT(card);
    }
    return set;
}

static void hands_of_json(const json_t *hands, barbu_cards out[4])
{
    for (int s = 0; s < 4; s++)
        out[s] = cards_json_set(json_object_get(hands, barbu_seat_name(s)));
}

typedef struct seen {
    int steps, deals, complete;
    size_t bytes;
    int32_t totals[4];
} seen;

/* Replays `name` through club_replay_json and checks it against the engine
 * and against itself: the deals' hands as dealt are the engine's, every
 * played card leaves its player's hand in the step that plays it, the
 * tricks' winners add up, and the totals are the engine's. */
static void check_record(const char *name, seen *out)
{
    char *text = golden_text(name, NULL);
    char err[512] = "x";
    char *json = club_replay_json(text, err, sizeof err);
    if (json == NULL)
        print_error("%s: %s\n", name, err);
    assert_non_null(json);
    assert_string_equal(err, "");
    out->bytes = strlen(json);

    barbu_record *rec;
    barbu_diag diag = {0};
    assert_int_equal(barbu_record_read(text, strlen(text), &rec, &diag), 0);
    barbu_state end;
    assert_int_equal(barbu_record_replay(rec, &end, NULL, NULL, &diag), 0);
    const barbu_rules *rules = barbu_record_rules(rec);

    json_error_t jerr;
    json_t *root = json_loads(json, 0, &jerr);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(root, "rules")), rules->preset);
    json_t *deals = json_object_get(root, "deals");
    assert_true(json_is_array(deals));
    out->deals = (int)json_array_size(deals);
    out->steps = 0;
    out->complete = json_is_true(json_object_get(root, "complete"));
    int size = barbu_rules_hand_size(rules);
    size_t k;
    json_t *deal;
    json_array_foreach(deals, k, deal)
    {
        assert_int_equal(json_integer_value(json_object_get(deal, "deal")), (json_int_t)k + 1);
        barbu_cards hands[4];
        hands_of_json(json_object_get(deal, "hands"), hands);
        barbu_cards all = 0;
        for (int s = 0; s < 4; s++) {
            assert_int_equal(barbu_count(hands[s]), size);
            all |= hands[s];
        }
        assert_int_equal(barbu_count(all), 4 * size);
        json_t *steps = json_object_get(deal, "steps");
        assert_true(json_array_size(steps) > 0);
        size_t i;
        json_t *step;
        json_array_foreach(steps, i, step)
        {
            out->steps++;
            const char *kind = json_string_value(json_object_get(step, "kind"));
            int seat = barbu_seat_parse(json_string_value(json_object_get(step, "seat")));
            assert_non_null(kind);
            assert_true(seat >= 0 && seat < 4);
            assert_true(strlen(json_string_value(json_object_get(step, "words"))) > 3);
            json_t *table = json_object_get(step, "table");
            barbu_cards now[4];
            hands_of_json(json_object_get(table, "hands"), now);
            if (strcmp(kind, "play") == 0) {
                barbu_cards played = cards_json_set(json_object_get(step, "cards"));
                assert_true(played != 0);
                assert_int_equal(hands[seat] & played, played);
                assert_int_equal(now[seat] & played, 0);
                assert_int_equal(now[seat], hands[seat] & ~played);
            }
            /* Only the seat acting changes its hand, but at a Pass-on,
             * which changes hands once all four have chosen. */
            if (strcmp(kind, "pass_on") != 0)
                for (int s = 0; s < 4; s++)
                    if (s != seat)
                        assert_int_equal(now[s], hands[s]);
            json_t *winners = json_object_get(table, "winners");
            json_t *tricks = json_object_get(table, "tricks");
            if (winners != NULL) {
                int count[4] = {0};
                for (size_t w = 0; w < json_array_size(winners); w++)
                    count[barbu_seat_parse(json_string_value(json_array_get(winners, w)))]++;
                for (int s = 0; s < 4; s++)
                    assert_int_equal(json_integer_value(json_array_get(tricks, (size_t)s)),
                                     count[s]);
            }
            memcpy(hands, now, sizeof hands);
        }
        if (json_is_true(json_object_get(deal, "complete"))) {
            json_t *before = json_object_get(deal, "totals_before");
            json_t *after = json_object_get(deal, "totals_after");
            json_t *score = json_object_get(json_object_get(deal, "result"), "score");
            for (size_t s = 0; s < 4; s++)
                assert_int_equal(json_integer_value(json_array_get(before, s)) +
                                     json_integer_value(json_array_get(score, s)),
                                 json_integer_value(json_array_get(after, s)));
        }
    }
    json_t *totals = json_object_get(root, "totals");
    for (int s = 0; s < 4; s++) {
        out->totals[s] = (int32_t)json_integer_value(json_array_get(totals, (size_t)s));
        assert_int_equal(out->totals[s], end.t.total[s]);
    }
    assert_int_equal(out->complete, barbu_over(&end));
    if (strcmp(name, "domino-played-out.txt") != 0)
        assert_int_equal(out->steps, barbu_record_actions(rec));
    else /* the last player's play-out lines are no actions of the engine */
        assert_true(out->steps < barbu_record_actions(rec));
    json_decref(root);
    barbu_record_free(rec);
    free(json);
    free(text);
}

static void test_uk_game(void **state)
{
    (void)state;
    seen s;
    check_record("full-uk-random-seed1.txt", &s);
    assert_int_equal(s.deals, 28);
    assert_true(s.complete);
    /* The size of a whole uk game's replay, for docs/club.md. */
    print_message("full-uk-random-seed1: %d steps, %zu bytes\n", s.steps, s.bytes);
    assert_true(s.bytes < 3 * 1024 * 1024);
}

static void test_other_games(void **state)
{
    (void)state;
    static const char *const names[] = {"full-uk32-mixed-seed6.txt",
                                        "fife-worked-silly-round.txt",
                                        "full-fife-random-seed88.txt",
                                        "full-chinese-mixed-seed4.txt",
                                        "chinese-rows-scoop.txt",
                                        "deck32-no-hearts-domino.txt",
                                        "domino-trumps-early-end.txt",
                                        "domino-played-out.txt",
                                        "king-three-deals.txt",
                                        "full-ravage-mixed-seed3.txt",
                                        "bid-words.txt",
                                        NULL};
    for (int i = 0; names[i]; i++) {
        seen s;
        check_record(names[i], &s);
        print_message("%s: %d deals, %d steps, %zu bytes\n", names[i], s.deals, s.steps, s.bytes);
    }
}

/* The Fife game's Silly Round: its cuts are steps, with the engine's note on
 * what each meant, and its Pass-ons show in the table. */
static void test_fife_silly_round(void **state)
{
    (void)state;
    char *text = golden_text("fife-worked-silly-round.txt", NULL);
    char err[512];
    char *json = club_replay_json(text, err, sizeof err);
    assert_non_null(json);
    json_t *root = json_loads(json, 0, NULL);
    assert_non_null(root);
    assert_true(json_is_true(json_object_get(root, "fife")));
    int cuts = 0, pass_ons = 0, silly = 0, noted = 0;
    size_t k, i;
    json_t *deal, *step;
    json_array_foreach(json_object_get(root, "deals"), k, deal)
    {
        if (json_is_true(json_object_get(deal, "silly")))
            silly++;
        json_array_foreach(json_object_get(deal, "steps"), i, step)
        {
            const char *kind = json_string_value(json_object_get(step, "kind"));
            json_t *fife = json_object_get(json_object_get(step, "table"), "fife");
            assert_non_null(fife);
            if (strcmp(kind, "cut") == 0) {
                cuts++;
                json_t *list = json_object_get(fife, "cuts");
                json_t *last = json_array_get(list, json_array_size(list) - 1);
                const char *note = json_string_value(json_object_get(last, "note"));
                assert_non_null(note);
                if (note[0] != '\0') {
                    noted++;
                    /* the step's words say the cut and its note */
                    assert_non_null(
                        strstr(json_string_value(json_object_get(step, "words")), note));
                }
            }
            if (strcmp(kind, "pass_on") == 0)
                pass_ons++;
        }
    }
    assert_true(silly > 0);
    assert_true(cuts > 0);
    assert_int_equal(noted, cuts);
    assert_true(pass_ons > 0);
    json_decref(root);
    free(json);
    free(text);
}

/* Chinese Poker: the rows show once set, and at the end of the deal. */
static void test_chinese_rows(void **state)
{
    (void)state;
    char *text = golden_text("chinese-rows-scoop.txt", NULL);
    char err[512];
    char *json = club_replay_json(text, err, sizeof err);
    assert_non_null(json);
    json_t *root = json_loads(json, 0, NULL);
    json_t *deal = json_array_get(json_object_get(root, "deals"), 0);
    json_t *steps = json_object_get(deal, "steps");
    json_t *last = json_array_get(steps, json_array_size(steps) - 1);
    json_t *table = json_object_get(last, "table");
    assert_string_equal(json_string_value(json_object_get(table, "phase")), "end");
    json_t *rows = json_object_get(table, "rows");
    for (int s = 0; s < 4; s++) {
        json_t *mine = json_object_get(rows, barbu_seat_name(s));
        assert_int_equal(json_array_size(json_object_get(mine, "back")), 5);
        assert_int_equal(json_array_size(json_object_get(mine, "middle")), 5);
        assert_int_equal(json_array_size(json_object_get(mine, "front")), 3);
    }
    json_decref(root);
    free(json);
    free(text);
}

/* A record with an illegal card, and one that cannot be read: NULL and the
 * engine's own sentence with its line. */
static void test_tampered(void **state)
{
    (void)state;
    char *text = golden_text("full-uk-random-seed1.txt", NULL);
    /* The first trick's second card swapped for a card of another hand:
     * find the first "[Play]" and change the line after it. */
    char *play = strstr(text, "[Play]\n");
    assert_non_null(play);
    char *line = play + strlen("[Play]\n");
    char *card = strchr(line, ' ') + 1; /* the lead */
    char *second = strchr(card, ' ') + 1;
    /* Play the lead card again as the second card: never legal. */
    memcpy(second, card, 2);
    char err[512];
    char *json = club_replay_json(text, err, sizeof err);
    assert_null(json);
    barbu_record *rec;
    barbu_diag diag = {0};
    assert_int_equal(barbu_record_read(text, strlen(text), &rec, &diag), 0);
    barbu_state s;
    assert_true(barbu_record_replay(rec, &s, NULL, NULL, &diag) != 0);
    char want[600];
    snprintf(want, sizeof want, "line %d: %s", diag.line, diag.msg);
    assert_string_equal(err, want);
    assert_true(diag.line > 0);
    barbu_record_free(rec);

    /* Text that is no record. */
    strcpy(text, "% barbu game record\n[Barbu \"2\"]\n[Rules \"nonesuch\"]\n");
    json = club_replay_json(text, err, sizeof err);
    assert_null(json);
    assert_int_equal(strncmp(err, "line 3: ", 8), 0);
    free(text);

    /* Nothing at all. */
    json = club_replay_json("", err, sizeof err);
    assert_null(json);
    assert_true(strlen(err) > 0);

    /* A player's tag that is not UTF-8: said so, not "out of memory". */
    text = golden_text("full-uk-random-seed1.txt", NULL);
    char *north = strstr(text, "[North \"random\"]");
    assert_non_null(north);
    memcpy(north + strlen("[North \""), "\xff\xfe", 2);
    json = club_replay_json(text, err, sizeof err);
    assert_null(json);
    assert_non_null(strstr(err, "North tag is not UTF-8"));
    free(text);
}

/* An abandoned game's record: its last deal stops in the middle of a trick.
 * The deal is there with every step the record gives, marked unfinished,
 * with no result, and the game is not complete. */
static void test_unfinished(void **state)
{
    (void)state;
    char *text = golden_text("king-three-deals.txt", NULL);
    /* Deal 3 cut after "N: QC KC": its last tricks, Score and Final go. */
    char *cut = strstr(text, "N: QC KC AC 6H");
    assert_non_null(cut);
    strcpy(cut, "N: QC KC\n");
    char err[512];
    char *json = club_replay_json(text, err, sizeof err);
    if (json == NULL)
        print_error("%s\n", err);
    assert_non_null(json);
    json_t *root = json_loads(json, 0, NULL);
    assert_non_null(root);
    assert_false(json_is_true(json_object_get(root, "complete")));
    json_t *deals = json_object_get(root, "deals");
    assert_int_equal(json_array_size(deals), 3);
    json_t *last = json_array_get(deals, 2);
    assert_false(json_is_true(json_object_get(last, "complete")));
    assert_null(json_object_get(last, "result"));
    assert_null(json_object_get(last, "totals_after"));
    assert_string_equal(json_string_value(json_object_get(last, "contract")), "No Hearts");
    barbu_record *rec;
    barbu_diag diag = {0};
    assert_int_equal(barbu_record_read(text, strlen(text), &rec, &diag), 0);
    int steps = 0;
    for (size_t k = 0; k < json_array_size(deals); k++)
        steps += (int)json_array_size(json_object_get(json_array_get(deals, k), "steps"));
    assert_int_equal(steps, barbu_record_actions(rec));
    /* The last step: the second card of the trick, North's lead under way. */
    json_t *steps_of = json_object_get(last, "steps");
    json_t *table =
        json_object_get(json_array_get(steps_of, json_array_size(steps_of) - 1), "table");
    json_t *trick = json_object_get(table, "trick");
    assert_string_equal(json_string_value(json_object_get(trick, "leader")), "N");
    assert_int_equal(json_array_size(json_object_get(trick, "cards")), 2);
    barbu_record_free(rec);
    json_decref(root);
    free(json);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uk_game),          cmocka_unit_test(test_other_games),
        cmocka_unit_test(test_fife_silly_round), cmocka_unit_test(test_chinese_rows),
        cmocka_unit_test(test_tampered),         cmocka_unit_test(test_unfinished),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
