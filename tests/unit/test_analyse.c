/*
 * test_analyse.c - the analysis of one seat's decisions (src/ai/analyse.c,
 * include/barbu/analyse.h): its items and costs add up, every decision
 * kind is judged, it is the same for a seed whatever the threads, a King of
 * Hearts thrown away at No King is its worst mistake, and it reads nothing
 * the seat could not see: the same analysis when two opponents' hidden
 * cards are swapped.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis_json.h"
#include "barbu/ai.h"
#include "barbu/analyse.h"
#include "helpers.h"
#include <jansson.h>

static barbu_record *golden(const char *name)
{
    size_t n;
    char *text = golden_text(name, &n);
    barbu_record *rec = NULL;
    barbu_diag diag;
    memset(&diag, 0, sizeof diag);
    assert_int_equal(barbu_record_read(text, n, &rec, &diag), 0);
    free(text);
    return rec;
}

static barbu_analysis *analyse(const barbu_record *rec, int seat, const char *level, uint64_t seed,
                               int threads)
{
    barbu_analysis_opts opts = {.level = level, .seed = seed, .threads = threads};
    barbu_analysis *a = NULL;
    assert_int_equal(barbu_analyse_record(rec, seat, &opts, &a), 0);
    assert_non_null(a);
    return a;
}

/* Whether an option stands for the action taken: the same action (rows
 * alike to the ones set are shown as those), or a card alike to it. */
static bool stands_for(const barbu_analysis_option *o, const barbu_action *chosen)
{
    if (barbu_action_equal(&o->action, chosen))
        return true;
    if (chosen->type == BARBU_ACT_PLAY && barbu_count(chosen->cards) == 1)
        return (o->cards & chosen->cards) != 0;
    return false;
}

/*
 * The invariants of an analysis: as many items as decisions, the chosen
 * action always listed, the options best first, each cost the best's value
 * less the chosen one's, forced decisions one option at no cost, the total
 * the sum, and the worst list the costly items, costliest first.  Returns
 * the kinds of action judged (not forced), a bit per BARBU_ACT_*, and adds
 * the forced ones into *forced.
 */
static unsigned check_analysis(const barbu_record *rec, const barbu_analysis *a, unsigned *forced)
{
    assert_int_equal(a->n_items, barbu_analysis_count(rec, a->seat));
    unsigned judged = 0;
    double total = 0.0;
    for (int i = 0; i < a->n_items; i++) {
        const barbu_analysis_item *it = &a->items[i];
        assert_int_equal(it->chosen.seat, a->seat);
        assert_true(it->n_options >= 1 && it->n_options <= BARBU_ANALYSIS_OPTIONS);
        assert_true(it->chosen_index >= 0 && it->chosen_index < it->n_options);
        assert_true(stands_for(&it->options[it->chosen_index], &it->chosen));
        assert_true(it->cost >= 0.0);
        for (int k = 1; k < it->n_options; k++)
            assert_true(it->options[k - 1].value >= it->options[k].value);
        /* Each option listed once. */
        for (int k = 0; k < it->n_options; k++)
            for (int j = 0; j < k; j++)
                assert_false(barbu_action_equal(&it->options[j].action, &it->options[k].action));
        if (it->forced) {
            /* Forced: one legal action, not several alike (a card that
             * stands for others, rows alike to others). */
            assert_int_equal(it->n_options, 1);
            assert_true(it->chosen.type != BARBU_ACT_ARRANGE);
            if (it->chosen.type == BARBU_ACT_PLAY)
                assert_true(it->options[0].cards == it->chosen.cards);
            assert_true(it->cost == 0.0);
            *forced |= 1u << it->chosen.type;
        } else {
            assert_true(fabs(it->cost -
                             (it->options[0].value - it->options[it->chosen_index].value)) < 1e-9);
            judged |= 1u << it->chosen.type;
        }
        if (i > 0)
            assert_true(it->deal > it[-1].deal ||
                        (it->deal == it[-1].deal && it->step > it[-1].step));
        total += it->cost;
    }
    assert_true(fabs(total - a->total_cost) < 1e-6);
    int *idx = malloc(sizeof *idx * (size_t)(a->n_items + 1));
    assert_non_null(idx);
    int n = barbu_analysis_worst(a, idx);
    int costly = 0;
    for (int i = 0; i < a->n_items; i++)
        costly += a->items[i].cost >= 0.005;
    assert_int_equal(n, costly);
    for (int i = 1; i < n; i++)
        assert_true(a->items[idx[i - 1]].cost >= a->items[idx[i]].cost);
    free(idx);
    return judged;
}

/* Two analyses item by item. */
static void assert_same(const barbu_analysis *x, const barbu_analysis *y)
{
    assert_int_equal(x->n_items, y->n_items);
    for (int i = 0; i < x->n_items; i++) {
        const barbu_analysis_item *a = &x->items[i], *b = &y->items[i];
        assert_int_equal(a->deal, b->deal);
        assert_int_equal(a->step, b->step);
        assert_true(barbu_action_equal(&a->chosen, &b->chosen));
        assert_int_equal(a->n_options, b->n_options);
        assert_int_equal(a->chosen_index, b->chosen_index);
        assert_int_equal(a->forced, b->forced);
        assert_true(a->cost == b->cost);
        for (int k = 0; k < a->n_options; k++) {
            assert_true(barbu_action_equal(&a->options[k].action, &b->options[k].action));
            assert_true(a->options[k].value == b->options[k].value);
            assert_true(a->options[k].cards == b->options[k].cards);
        }
    }
}

/* ------------------------------------------------------------ a composed deal */

/*
 * A deal of No King (hearts may be led at once), every seat doubling the
 * declarer so that it is played.  W leads the Three of Hearts, N and E
 * follow low, and S, last, throws the King of Hearts and takes it, when it
 * held three lower hearts, no clubs nor diamonds (on which it would discard
 * the King) and the Ace was still out.  The rest of the deal is played by heuristic players.
 */
typedef struct composed {
    barbu_rules rules;
    uint64_t seed;
    int first;            /* the first declarer */
    barbu_cards hands[4]; /* as dealt */
    barbu_action act[128];
    int n_act, throw_at; /* the throw is act[throw_at] */
} composed;

/* The game of the seed, the first declarer c->first, the first deal's
 * hands given. */
static void start_seeded(barbu_state *s, const composed *c, const barbu_cards *hands)
{
    assert_int_equal(barbu_init(s, &c->rules, c->seed), 0);
    assert_int_equal(barbu_set_first(s, c->first), 0);
    assert_int_equal(barbu_set_hands(s, hands), 0);
}

static void compose_deal(composed *c)
{
    preset(&c->rules, "uk");
    /* Hearts may be led from the first trick. */
    c->rules.hearts_lead = false;
    c->seed = 1;
    /* W leads the first trick: the declarer, or its left. */
    c->first = c->rules.first_lead == BARBU_FIRST_LEFT ? S : W;
    hands_of(c->hands, ".974.AKQJT98765.", "5432.QJT6.432.32", "AKQJT9876.K852..",
             ".A3..AKQJT987654");
    barbu_state s;
    start_seeded(&s, c, c->hands);
    barbu_bot *bot = barbu_bot_new("heuristic", 7);
    assert_non_null(bot);
    const char *script[4] = {"4H", "6H", "KH", "3H"}; /* N E S W */
    c->n_act = 0;
    c->throw_at = -1;
    int deal = s.t.deal;
    while (s.t.deal == deal && !barbu_over(&s)) {
        barbu_action a;
        int seat = s.t.to_move;
        if (s.t.phase == BARBU_PHASE_DECLARE) {
            a = barbu_act_declare(seat, contract_of(&c->rules, "no-king"), -1, 0);
        } else if (s.t.phase == BARBU_PHASE_BID) {
            a = barbu_act_bid(seat, seat == s.t.declarer ? 0 : 1u << s.t.declarer, 0);
        } else if (s.t.ntricks == 0) {
            assert_int_equal(s.t.trick.leader, W);
            a = barbu_act_play(seat, card_of(script[seat]));
            if (seat == S)
                c->throw_at = c->n_act;
        } else {
            barbu_view v;
            barbu_view_of(&s, seat, &v);
            assert_int_equal(barbu_bot_choose(bot, &v, &a), 0);
        }
        assert_int_equal(barbu_apply(&s, &a), 0);
        assert_true(c->n_act < 128);
        c->act[c->n_act++] = a;
    }
    barbu_bot_free(bot);
    assert_true(c->throw_at >= 0);
}

/* Walks the whole record through `step` (barbu_record_walk), which must
 * find no fault. */
static void walk(const barbu_record *rec, barbu_step_fn step, void *ctx)
{
    barbu_diag diag;
    memset(&diag, 0, sizeof diag);
    assert_int_equal(barbu_record_walk(rec, step, ctx, &diag), 0);
}

/* An empty record of `rec`'s rules and seed, to play a game again into. */
static barbu_record *record_like(const barbu_record *rec)
{
    barbu_record *out = barbu_record_new(barbu_record_rules(rec), barbu_record_seed(rec));
    assert_non_null(out);
    return out;
}

/* Plays `a` on `s` and writes it into `out`. */
static void play_into(barbu_state *s, barbu_record *out, const barbu_action *a)
{
    barbu_state before = *s;
    assert_int_equal(barbu_apply(s, a), 0);
    assert_int_equal(barbu_record_add(out, &before, a), 0);
}

/* The composed deal's record with these hands, its actions up to act[end]
 * (inclusive). */
static barbu_record *composed_record(const composed *c, const barbu_cards hands[4], int end)
{
    barbu_state s;
    start_seeded(&s, c, hands);
    barbu_record *rec = barbu_record_new(&c->rules, c->seed);
    assert_non_null(rec);
    for (int i = 0; i <= end; i++)
        play_into(&s, rec, &c->act[i]);
    return rec;
}

/* The King thrown is the worst mistake of the deal, and a large one. */
static void test_king_thrown(void **state)
{
    (void)state;
    composed c;
    compose_deal(&c);
    barbu_record *rec = composed_record(&c, c.hands, c.n_act - 1);
    barbu_analysis *a = analyse(rec, S, "medium", 5, 1);
    unsigned forced = 0;
    check_analysis(rec, a, &forced);
    int idx[64];
    assert_true(a->n_items <= 64);
    int n = barbu_analysis_worst(a, idx);
    assert_true(n >= 1);
    const barbu_analysis_item *worst = &a->items[idx[0]];
    if (getenv("ANALYSE_DEBUG")) {
        char *t = barbu_analysis_json(a, rec);
        printf("%s\n", t);
        free(t);
    }
    assert_int_equal(worst->step, c.throw_at + 1);
    assert_true(barbu_action_equal(&worst->chosen, &c.act[c.throw_at]));
    /* No King costs 20 points in the uk rules, doubled by three: taking
     * it where a low heart would not costs tens of points. */
    assert_true(worst->cost >= 10.0);
    assert_true(worst->chosen_index > 0);
    barbu_analysis_free(a);
    barbu_record_free(rec);
}

/* The first deal of a record: its hands as dealt and its actions. */
typedef struct first_deal {
    barbu_cards dealt[4];
    barbu_action act[128];
    int n;
} first_deal;

static void collect_first(void *ctx, const barbu_state *before, const barbu_action *a,
                          const barbu_state *after)
{
    (void)after;
    first_deal *f = ctx;
    if (before->t.deal != 0 || f->n >= 128)
        return;
    if (f->n == 0)
        memcpy(f->dealt, before->dealt, sizeof f->dealt);
    f->act[f->n++] = *a;
}

/* Swaps one card between two opponents of S, the lowest of `one`'s cards
 * in `may` for the lowest of `two`'s, for the first pair of PAIRS (and the
 * first suit, where `by_suit`) where both have one: the play stays legal
 * when each keeps as many cards of each suit.  False when no pair can. */
static bool swap_hidden(barbu_cards hands[4], barbu_cards may, bool by_suit)
{
    static const int PAIRS[3][2] = {{E, W}, {N, E}, {N, W}};
    for (int p = 0; p < 3; p++)
        for (int suit = 0; suit < (by_suit ? 4 : 1); suit++) {
            int one = PAIRS[p][0], two = PAIRS[p][1];
            barbu_cards in = by_suit ? BARBU_SUIT_CARDS(suit) & may : may;
            barbu_cards x = hands[one] & in, y = hands[two] & in;
            if (x && y) {
                x &= -x;
                y &= -y;
                hands[one] = (hands[one] & ~x) | y;
                hands[two] = (hands[two] & ~y) | x;
                return true;
            }
        }
    return false;
}

/* A record of the same game whose first deal is dealt these hands, its
 * actions up to act[end]. */
static barbu_record *redealt(const barbu_record *rec, const first_deal *f,
                             const barbu_cards hands[4], int end)
{
    barbu_state s;
    assert_int_equal(barbu_record_start(rec, &s), 0);
    assert_int_equal(barbu_set_hands(&s, hands), 0);
    barbu_record *out = record_like(rec);
    for (int i = 0; i <= end; i++)
        play_into(&s, out, &f->act[i]);
    return out;
}

/*
 * Nothing hidden from the seat is read: at S's sixth card of a No Tricks
 * deal, two opponents' unplayed cards of one suit swapped in the deal as
 * dealt.  The play so far stays legal (each holds as many cards of each
 * suit), S has seen the same things, and the analysis of its decisions up
 * to there (the records stop at it) is the same to the last bit.
 */
static void test_hidden_cards(void **state)
{
    (void)state;
    barbu_record *rec = golden("bid-words.txt");
    first_deal f = {0};
    walk(rec, collect_first, &f);
    int at = -1, plays = 0;
    barbu_cards played = 0;
    for (int i = 0; i < f.n && at < 0; i++) {
        if (f.act[i].type == BARBU_ACT_PLAY)
            played |= f.act[i].cards;
        if (f.act[i].type == BARBU_ACT_PLAY && f.act[i].seat == S && ++plays == 6)
            at = i;
    }
    assert_true(at > 0);
    barbu_cards swapped[4];
    memcpy(swapped, f.dealt, sizeof swapped);
    assert_true(swap_hidden(swapped, ~played, true));
    barbu_record *one = redealt(rec, &f, f.dealt, at);
    barbu_record *two = redealt(rec, &f, swapped, at);
    barbu_analysis *a = analyse(one, S, "medium", 9, 1);
    barbu_analysis *b = analyse(two, S, "medium", 9, 1);
    assert_int_equal(a->n_items, 7); /* the bid and six cards */
    assert_false(a->items[6].forced);
    assert_same(a, b);
    barbu_analysis_free(a);
    barbu_analysis_free(b);
    barbu_record_free(one);
    barbu_record_free(two);
    barbu_record_free(rec);
}

/* A whole game's actions with each deal's hands as dealt, its dealer and
 * its cuts, to play it again with one deal's hands changed. */
typedef struct game_acts {
    barbu_action act[4096];
    int deal_of[4096];
    int n;
    barbu_cards dealt[64][4];
    int dealer[64];
    barbu_card cuts[64][32];
    int n_cuts[64];
} game_acts;

static void collect_all(void *ctx, const barbu_state *before, const barbu_action *a,
                        const barbu_state *after)
{
    game_acts *g = ctx;
    int d = before->t.deal;
    if (g->n >= 4096 || d >= 64)
        return;
    if (before->t.acted == 0) {
        memcpy(g->dealt[d], before->dealt, sizeof g->dealt[d]);
        g->dealer[d] = before->t.dealer;
    }
    if (a->type == BARBU_ACT_CUT && g->n_cuts[d] < 32)
        g->cuts[d][g->n_cuts[d]++] = after->t.cuts[(after->t.n_cuts - 1) % 32];
    g->deal_of[g->n] = d;
    g->act[g->n++] = *a;
}

/* The game again, deal `deal` dealt `hands`, up to act[end]. */
static barbu_record *replayed(const barbu_record *rec, const game_acts *g, int deal,
                              const barbu_cards hands[4], int end)
{
    barbu_state s;
    assert_int_equal(barbu_record_start(rec, &s), 0);
    barbu_record *out = record_like(rec);
    for (int i = 0; i <= end; i++) {
        int d = g->deal_of[i];
        if (s.t.acted == 0) {
            /* The Silly Round's first dealer, drawn, as the record has it. */
            if (s.t.round == BARBU_SILLY_ROUND && s.t.round_deal == 0)
                assert_int_equal(barbu_set_first(&s, g->dealer[d]), 0);
            assert_int_equal(barbu_set_hands(&s, d == deal ? hands : g->dealt[d]), 0);
            assert_int_equal(barbu_set_cuts(&s, g->cuts[d], g->n_cuts[d]), 0);
        }
        play_into(&s, out, &g->act[i]);
    }
    return out;
}

/*
 * The same at a decision the play-outs judge: S's first Pass-on of the
 * Silly Round.  Two opponents swap a card each (not one they have chosen to
 * pass already, which the exchange will show): S's view is the same, and
 * so is the analysis.
 */
static void test_hidden_pass_on(void **state)
{
    (void)state;
    barbu_record *rec = golden("fife-worked-silly-round.txt");
    game_acts *g = calloc(1, sizeof *g);
    assert_non_null(g);
    walk(rec, collect_all, g);
    int at = -1;
    for (int i = 0; i < g->n && at < 0; i++)
        if (g->act[i].type == BARBU_ACT_PASS_ON && g->act[i].seat == S)
            at = i;
    assert_true(at > 0);
    int deal = g->deal_of[at];
    /* The cards the others passed in this deal before S's decision. */
    barbu_cards passed = 0;
    for (int i = 0; i < at; i++)
        if (g->deal_of[i] == deal && g->act[i].type == BARBU_ACT_PASS_ON)
            passed |= g->act[i].cards;
    barbu_cards swapped[4];
    memcpy(swapped, g->dealt[deal], sizeof swapped);
    assert_true(swap_hidden(swapped, ~passed, false));
    barbu_record *one = replayed(rec, g, deal, g->dealt[deal], at);
    barbu_record *two = replayed(rec, g, deal, swapped, at);
    barbu_analysis *a = analyse(one, S, "easy", 4, 1);
    barbu_analysis *b = analyse(two, S, "easy", 4, 1);
    const barbu_analysis_item *last = &a->items[a->n_items - 1];
    assert_int_equal(last->chosen.type, BARBU_ACT_PASS_ON);
    assert_false(last->forced);
    assert_true(last->n_options >= 2);
    assert_same(a, b);
    barbu_analysis_free(a);
    barbu_analysis_free(b);
    barbu_record_free(one);
    barbu_record_free(two);
    barbu_record_free(rec);
    free(g);
}

/* The same seed, the same analysis, on one thread or two; another seed,
 * other samples. */
static void test_deterministic(void **state)
{
    (void)state;
    barbu_record *rec = golden("bid-words.txt");
    barbu_analysis *a = analyse(rec, S, "medium", 3, 1);
    barbu_analysis *b = analyse(rec, S, "medium", 3, 2);
    barbu_analysis *c = analyse(rec, S, "medium", 3, 1);
    barbu_analysis *d = analyse(rec, S, "medium", 4, 1);
    assert_same(a, b);
    assert_same(a, c);
    bool differ = false;
    for (int i = 0; i < a->n_items && !differ; i++)
        for (int k = 0; k < a->items[i].n_options; k++)
            differ |= a->items[i].options[k].value != d->items[i].options[k].value;
    assert_true(differ);
    barbu_analysis_free(a);
    barbu_analysis_free(b);
    barbu_analysis_free(c);
    barbu_analysis_free(d);
    barbu_record_free(rec);
}

/* Hard too, whose max^n endings would give other means on other threads
 * (step 8 of this deal showed it): S's first two decisions, on one thread
 * and two. */
static void test_hard_threads(void **state)
{
    (void)state;
    barbu_record *whole = golden("bid-words.txt");
    first_deal f = {0};
    walk(whole, collect_first, &f);
    barbu_record *rec = redealt(whole, &f, f.dealt, 7); /* to step 8 */
    barbu_analysis *a = analyse(rec, S, "hard", 1, 1);
    barbu_analysis *b = analyse(rec, S, "hard", 1, 2);
    assert_int_equal(a->n_items, 2);
    assert_same(a, b);
    barbu_analysis_free(a);
    barbu_analysis_free(b);
    barbu_record_free(rec);
    barbu_record_free(whole);
}

/* ------------------------------------------------------------ every kind */

/* Deals of the uk rules and King: declarations, doubles, cards at tricks
 * and at the Domino layout (whose play is searched too). */
static void test_uk_kinds(void **state)
{
    (void)state;
    static const char *const RECORDS[] = {"king-three-deals.txt", "bid-words.txt",
                                          "domino-played-out.txt"};
    unsigned judged = 0, forced = 0;
    bool domino_card = false;
    for (int r = 0; r < 3; r++) {
        barbu_record *rec = golden(RECORDS[r]);
        barbu_analysis *a = analyse(rec, S, "easy", 1, 1);
        judged |= check_analysis(rec, a, &forced);
        for (int i = 0; i < a->n_items && r == 2; i++)
            domino_card |= a->items[i].chosen.type == BARBU_ACT_PLAY && !a->items[i].forced;
        barbu_analysis_free(a);
        barbu_record_free(rec);
    }
    assert_true(judged & (1u << BARBU_ACT_DECLARE));
    assert_true(judged & (1u << BARBU_ACT_BID));
    assert_true(judged & (1u << BARBU_ACT_PLAY));
    assert_true(domino_card);
    assert_true(forced & (1u << BARBU_ACT_PASS)); /* no card fits the layout */
}

/* The Fife game: Calls, cuts, Pass-ons and Patience. */
static void test_fife_kinds(void **state)
{
    (void)state;
    barbu_record *rec = golden("fife-worked-silly-round.txt");
    unsigned forced = 0;
    barbu_analysis *a = analyse(rec, S, "easy", 1, 1);
    unsigned judged = check_analysis(rec, a, &forced);
    barbu_analysis_free(a);
    assert_true(judged & (1u << BARBU_ACT_DECLARE));
    assert_true(judged & (1u << BARBU_ACT_PASS_ON));
    assert_true(judged & (1u << BARBU_ACT_PLAY));
    assert_true(forced & (1u << BARBU_ACT_CUT));
    barbu_record_free(rec);
}

/* A Patience play of several cards is an option of its own: the single
 * card played at the same turn is not credited with its value (it was,
 * through the cards alike to a candidate, and listed twice). */
static void test_patience_several(void **state)
{
    (void)state;
    barbu_record *rec = golden("fife-earlier-reading.txt");
    unsigned forced = 0;
    barbu_analysis *a = analyse(rec, S, "easy", 1, 1);
    check_analysis(rec, a, &forced);
    barbu_cards ad = BARBU_BIT(card_of("AD")), kd = BARBU_BIT(card_of("KD"));
    bool seen = false;
    for (int i = 0; i < a->n_items; i++) {
        const barbu_analysis_item *it = &a->items[i];
        if (it->deal != 4 || it->step != 27)
            continue;
        seen = true;
        assert_true(it->chosen.type == BARBU_ACT_PLAY && it->chosen.cards == kd);
        int both = -1;
        for (int k = 0; k < it->n_options; k++)
            if (it->options[k].action.cards == (ad | kd))
                both = k;
        assert_true(both >= 0 && both != it->chosen_index);
        assert_true(it->options[it->chosen_index].cards == kd);
        assert_true(fabs(it->cost - (it->options[0].value - it->options[it->chosen_index].value)) <
                    1e-9);
    }
    assert_true(seen);
    barbu_analysis_free(a);
    barbu_record_free(rec);
}

/* Chinese Poker's rows: the scorer's best settings and the one set. */
static void test_chinese_rows(void **state)
{
    (void)state;
    barbu_record *rec = golden("chinese-rows-scoop.txt");
    for (int seat = S; seat <= W; seat++) {
        barbu_analysis *a = analyse(rec, seat, "medium", 1, 1);
        unsigned forced = 0;
        assert_true(check_analysis(rec, a, &forced) & (1u << BARBU_ACT_ARRANGE));
        for (int i = 0; i < a->n_items; i++)
            if (a->items[i].chosen.type == BARBU_ACT_ARRANGE)
                assert_true(a->items[i].n_options >= 2);
        barbu_analysis_free(a);
    }
    barbu_record_free(rec);
}

/* ------------------------------------------------------------ the rest */

static atomic_int stop_flag;
static int progress_calls;

static void stop_after_two(void *ctx, int done, int total)
{
    (void)ctx;
    assert_true(done <= total);
    progress_calls++;
    if (done == 2)
        atomic_store(&stop_flag, 1);
}

/* Progress after each decision; a cancel stops it with nothing returned;
 * a bad seat or level is refused. */
static void test_cancel_and_refusals(void **state)
{
    (void)state;
    barbu_record *rec = golden("bid-words.txt");
    atomic_store(&stop_flag, 0);
    progress_calls = 0;
    barbu_analysis_opts opts = {.level = "easy", .cancel = &stop_flag, .progress = stop_after_two};
    barbu_analysis *a = (barbu_analysis *)1;
    assert_int_equal(barbu_analyse_record(rec, S, &opts, &a), BARBU_EINVAL);
    assert_null(a);
    assert_int_equal(progress_calls, 2);
    opts.cancel = NULL;
    opts.level = "grandmaster";
    assert_int_equal(barbu_analyse_record(rec, S, &opts, &a), BARBU_EINVAL);
    opts.level = "easy";
    assert_int_equal(barbu_analyse_record(rec, 4, &opts, &a), BARBU_EINVAL);
    assert_int_equal(barbu_analysis_count(rec, -1), BARBU_EINVAL);
    barbu_record_free(rec);
}

/* The mistakes: the costs the JSON shows (at least 0.01 once rounded),
 * costliest first; a cost that rounds to 0.00 is none. */
static void test_worst(void **state)
{
    (void)state;
    static const double costs[] = {0.003, 0.5, 0.0, 0.005, 2.25, 0.0049};
    barbu_analysis_item items[6];
    memset(items, 0, sizeof items);
    for (int i = 0; i < 6; i++)
        items[i].cost = costs[i];
    barbu_analysis a = {.seat = S, .n_items = 6, .items = items};
    int idx[6];
    assert_int_equal(barbu_analysis_worst(&a, idx), 3);
    assert_int_equal(idx[0], 4);
    assert_int_equal(idx[1], 1);
    assert_int_equal(idx[2], 3);
}

/* The JSON: the spec's shape, and the words and names of the viewer. */
static void test_json(void **state)
{
    (void)state;
    barbu_record *rec = golden("bid-words.txt");
    barbu_analysis *a = analyse(rec, S, "easy", 1, 1);
    char *text = barbu_analysis_json(a, rec);
    assert_non_null(text);
    json_error_t err;
    json_t *o = json_loads(text, 0, &err);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "seat")), "S");
    assert_string_equal(json_string_value(json_object_get(o, "level")), "easy");
    assert_true(json_is_string(json_object_get(o, "player")) ||
                json_is_null(json_object_get(o, "player")));
    assert_int_equal(json_integer_value(json_object_get(o, "decisions")), a->n_items);
    assert_true(json_is_number(json_object_get(o, "total_cost")));
    json_t *items = json_object_get(o, "items"), *worst = json_object_get(o, "worst");
    assert_int_equal(json_array_size(items), (size_t)a->n_items);
    assert_true(json_is_array(worst));
    size_t i;
    json_t *it;
    json_array_foreach(items, i, it)
    {
        const barbu_analysis_item *x = &a->items[i];
        assert_int_equal(json_integer_value(json_object_get(it, "deal")), x->deal);
        assert_int_equal(json_integer_value(json_object_get(it, "step")), x->step);
        assert_non_null(json_string_value(json_object_get(it, "kind")));
        assert_non_null(json_string_value(json_object_get(it, "chosen")));
        assert_non_null(json_string_value(json_object_get(it, "best")));
        assert_non_null(json_string_value(json_object_get(it, "words")));
        assert_true(json_is_number(json_object_get(it, "cost")));
        json_t *opts = json_object_get(it, "options");
        assert_int_equal(json_array_size(opts), (size_t)x->n_options);
        json_t *first = json_array_get(opts, 0);
        assert_non_null(json_string_value(json_object_get(first, "action")));
        assert_true(json_is_number(json_object_get(first, "value")));
        if (x->chosen.type == BARBU_ACT_PLAY) {
            /* A card as the replay names it, "TH", and its words. */
            char name[8];
            barbu_card_format((barbu_card)__builtin_ctzll(x->chosen.cards), BARBU_FMT_ASCII, name,
                              sizeof name);
            assert_string_equal(json_string_value(json_object_get(it, "chosen")), name);
            assert_non_null(strstr(json_string_value(json_object_get(it, "words")), "S plays "));
            assert_true(json_is_array(json_object_get(first, "cards")));
        }
    }
    json_decref(o);
    free(text);
    barbu_analysis_free(a);
    barbu_record_free(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_king_thrown),         cmocka_unit_test(test_hidden_cards),
        cmocka_unit_test(test_hidden_pass_on),      cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_hard_threads),        cmocka_unit_test(test_uk_kinds),
        cmocka_unit_test(test_fife_kinds),          cmocka_unit_test(test_chinese_rows),
        cmocka_unit_test(test_cancel_and_refusals), cmocka_unit_test(test_json),
        cmocka_unit_test(test_patience_several),    cmocka_unit_test(test_worst),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
