/*
 * test_describe.c - the rules in words (describe.c): every preset's
 * sections and contracts, the scores as the contracts' tables have them, and
 * a house rule that changes what the page says.
 */
#include "helpers.h"

typedef struct collected {
    char text[32768];
    size_t len;
    int sections, items, sources;
} collected;

/* Keeps every text as "what|id|text" lines. */
static void collect(void *ctx, int what, const char *id, const char *text)
{
    collected *c = ctx;
    c->len += (size_t)snprintf(c->text + c->len, sizeof c->text - c->len, "%d|%s|%s\n", what,
                               id ? id : "", text);
    assert_true(c->len < sizeof c->text);
    assert_true(text[0] != '\0');
    if (what == BARBU_DESC_SECTION)
        c->sections++;
    if (what == BARBU_DESC_SECTION || what == BARBU_DESC_SUBSECTION)
        assert_non_null(id);
    c->items += what == BARBU_DESC_ITEM;
    c->sources += what == BARBU_DESC_SOURCE;
}

static void describe(const barbu_rules *r, collected *c)
{
    memset(c, 0, sizeof *c);
    barbu_rules_describe(r, collect, c);
}

static void describe_preset(const char *name, collected *c)
{
    barbu_rules r;
    assert_int_equal(barbu_rules_preset(&r, name), 0);
    describe(&r, c);
}

static void test_every_preset(void **state)
{
    (void)state;
    static collected c;
    for (int p = 0; barbu_preset_name(p) != NULL; p++) {
        barbu_rules r;
        assert_int_equal(barbu_rules_preset(&r, barbu_preset_name(p)), 0);
        describe(&r, &c);
        for (int i = 0; i < r.n_contracts; i++) {
            char want[80];
            snprintf(want, sizeof want, "%d|contract-%s|%s\n", BARBU_DESC_SUBSECTION,
                     r.contract[i].key, r.contract[i].name);
            assert_non_null(strstr(c.text, want));
            snprintf(want, sizeof want, "|%s: %s.\n", r.contract[i].abbr, r.contract[i].name);
            assert_non_null(strstr(c.text, want));
        }
        assert_non_null(strstr(c.text, "|doubling|Doubling\n"));
        assert_non_null(strstr(c.text, "|clock|"));
        assert_true(c.sources >= c.sections - 2); /* options and the clock cite none */
    }
}

static void test_scores_in_words(void **state)
{
    (void)state;
    static collected c;
    describe_preset("uk", &c);
    assert_non_null(strstr(c.text, "Cards taken: each heart -2; the A♥ -6 instead."));
    assert_non_null(strstr(c.text, "Cards taken: each queen -6."));
    assert_non_null(strstr(c.text, "the 13th (last) trick -20; the 12th trick -10"));
    assert_non_null(strstr(c.text, "first out +45, second +20, third +5, last -5"));
    assert_non_null(strstr(c.text, "the three other players score -9 each and the declarer +1"));
    assert_non_null(strstr(c.text, "the deal ends as soon as the fourth queen is taken"));
    assert_non_null(strstr(c.text, "at least twice over the game"));
    describe_preset("king", &c);
    assert_non_null(strstr(c.text, "Cards taken: each jack or king -60."));
    assert_non_null(strstr(c.text, "as soon as the last jack or king is taken"));
    assert_non_null(strstr(c.text, "Trumps: played 8 times in a game; a player may choose it "
                                   "twice."));
    assert_non_null(strstr(c.text, "There is no doubling"));
    describe_preset("king-7th", &c);
    assert_non_null(strstr(c.text, "the 13th (last) trick -180; the 7th trick -180"));
    describe_preset("ravage", &c);
    assert_non_null(strstr(c.text, "scores -24. Players tied for the most share it: two -12 "
                                   "each, three -8 each, four -6 each."));
    describe_preset("fife", &c);
    assert_non_null(strstr(c.text, "Cards taken: each heart -10; the J♥ -30 instead."));
    assert_non_null(strstr(c.text, "first out +120, second +60, third +30, last 0"));
    assert_non_null(strstr(c.text, "|combinations|"));
    assert_non_null(strstr(c.text, "|pass-ons|"));
    describe_preset("uk-32", &c);
    assert_non_null(strstr(c.text, "A 32-card pack ranked A K Q J 10 down to 7, 8 cards each"));
}

static void test_house_rules(void **state)
{
    (void)state;
    static collected c;
    barbu_rules r;
    barbu_diag diag;
    const char *house = "preset = uk\nearly-end = no\nhearts-lead = no\nmandatory-doubles = 1\n"
                        "israeli = enforce\nundoubled-not-played = no\n";
    assert_int_equal(barbu_rules_parse(&r, house, strlen(house), &diag), 0);
    describe(&r, &c);
    assert_non_null(strstr(c.text, "Early ends are off in this rule set"));
    assert_null(strstr(c.text, "the deal ends as soon as"));
    assert_non_null(strstr(c.text, "Hearts may be led at any time"));
    assert_non_null(strstr(c.text, "at least once over the game"));
    assert_non_null(strstr(c.text, "must discard it"));
    assert_non_null(strstr(c.text, "it is played even if nobody doubles"));
    assert_null(strstr(c.text, "not doubled:"));
    char text[600];
    barbu_undoubled_text(&r, text, sizeof text);
    assert_string_equal(text, "A contract is played even when nobody doubles.");
    assert_int_equal(barbu_rules_preset(&r, "uk"), 0);
    barbu_undoubled_text(&r, text, sizeof text);
    assert_non_null(strstr(text, "(No Tricks -9 each, the declarer +1; No Hearts -10 each, the "
                                 "declarer 0; No Queens -8 each, the declarer 0; No King -7 "
                                 "each, the declarer +1; No Last Two -10 each, the declarer 0)."));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_preset),
        cmocka_unit_test(test_scores_in_words),
        cmocka_unit_test(test_house_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
