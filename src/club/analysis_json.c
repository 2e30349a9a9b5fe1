/*
 * analysis_json.c - an analysis as JSON (docs/club.md, "Analysis").
 *
 * The record is walked again so that each decision's words are the hand
 * viewer's words for that step (club_step_words), and its options are named
 * as the viewer names actions: a card "TH", a declaration "Trumps
 * (hearts)", a bid "doubles E and W", a Pass-on's cards, rows.
 */
#include "analysis_json.h"
#include "json_build.h"

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

static const char *const ACT_NAMES[] = {"declare", "bid", "play",   "pass",
                                        "pass_on", "cut", "arrange"};
static const char *const ROW_NAMES[] = {"back", "middle", "front"};
static const char *const SEAT_TAGS[] = {"North", "East", "South", "West"};

typedef struct builder {
    const barbu_analysis *a;
    const barbu_rules *rules;
    bool ok;
    json_t *items;
    int next;       /* the next item to meet in the walk */
    int deal, step; /* the walk's deal (0-based) and step in it */
} builder;

/* Points to the hundredth, which is all the estimates are worth. */
static json_t *points(double v)
{
    return json_real(round(v * 100.0) / 100.0);
}

/* Cards spades first, each suit from the ace down, as the viewer lists
 * them; into a JSON array and, space-separated, into text. */
static json_t *cards_json(builder *b, barbu_cards set, char *text, size_t cap)
{
    json_t *arr = json_array();
    size_t n = 0;
    if (text != NULL && cap > 0)
        text[0] = '\0';
    for (int suit = BARBU_SPADES; suit >= BARBU_CLUBS; suit--)
        for (int rank = BARBU_ACE; rank >= 2; rank--) {
            barbu_card card = (barbu_card)BARBU_CARD(suit, rank);
            if (!(set & BARBU_BIT(card)))
                continue;
            char name[8];
            barbu_card_format(card, BARBU_FMT_ASCII, name, sizeof name);
            json_append(&b->ok, arr, json_string(name));
            if (text != NULL && n < cap) {
                int w = snprintf(text + n, cap - n, "%s%s", n ? " " : "", name);
                n += w > 0 ? (size_t)w : 0;
            }
        }
    return arr;
}

/* An action named as the viewer names it, with its cards or rows (hand:
 * the seat's hand, for the rows' front). */
static json_t *option_json(builder *b, const barbu_action *act, barbu_cards hand, double value,
                           barbu_cards alike, bool with_value)
{
    json_t *o = json_object();
    char text[400], more[200];
    text[0] = '\0';
    json_t *cards = NULL, *rows = NULL;
    switch (act->type) {
    case BARBU_ACT_PLAY:
        cards = cards_json(b, act->cards, text, sizeof text);
        if (alike & ~act->cards) {
            json_decref(cards);
            cards = cards_json(b, alike | act->cards, NULL, 0);
        }
        break;
    case BARBU_ACT_PASS:
        snprintf(text, sizeof text, "pass");
        break;
    case BARBU_ACT_DECLARE:
        club_contract_words(b->rules, act->contracts, act->trump, act->rank, text, sizeof text);
        break;
    case BARBU_ACT_BID:
        if (act->doubles == 0 && act->redoubles == 0) {
            snprintf(text, sizeof text, "no double");
            break;
        }
        if (act->doubles) {
            club_seats_words(act->doubles, more, sizeof more);
            snprintf(text, sizeof text, "doubles %s", more);
        }
        if (act->redoubles) {
            club_seats_words(act->redoubles, more, sizeof more);
            size_t n = strlen(text);
            snprintf(text + n, sizeof text - n, "%sredoubles %s", n ? ", " : "", more);
        }
        break;
    case BARBU_ACT_PASS_ON:
        cards = cards_json(b, act->cards, text, sizeof text);
        break;
    case BARBU_ACT_CUT:
        snprintf(text, sizeof text, "cut");
        break;
    case BARBU_ACT_ARRANGE: {
        barbu_cards set[3] = {act->cards, act->middle, hand & ~act->cards & ~act->middle};
        rows = json_object();
        size_t n = 0;
        for (int i = 0; i < 3; i++) {
            char row[100];
            json_put(&b->ok, rows, ROW_NAMES[i], cards_json(b, set[i], row, sizeof row));
            int w = snprintf(text + n, sizeof text - n, "%s%s", i ? " / " : "", row);
            n += w > 0 && (size_t)w < sizeof text - n ? (size_t)w : 0;
        }
        break;
    }
    default:
        snprintf(text, sizeof text, "%s", ACT_NAMES[act->type % 7]);
        break;
    }
    json_put(&b->ok, o, "action", json_string(text));
    if (with_value)
        json_put(&b->ok, o, "value", points(value));
    if (cards != NULL)
        json_put(&b->ok, o, "cards", cards);
    if (rows != NULL)
        json_put(&b->ok, o, "rows", rows);
    return o;
}

/* The name alone of an action (for "chosen" and "best"). */
static json_t *action_name(builder *b, const barbu_action *act, barbu_cards hand)
{
    json_t *o = option_json(b, act, hand, 0.0, 0, false);
    json_t *name = json_incref(json_object_get(o, "action"));
    json_decref(o);
    return name;
}

static json_t *item_json(builder *b, const barbu_analysis_item *it, const barbu_state *before,
                         const barbu_action *act, const barbu_state *after)
{
    barbu_cards hand = before->hand[b->a->seat];
    json_t *o = json_object();
    json_put(&b->ok, o, "deal", json_integer(it->deal));
    json_put(&b->ok, o, "step", json_integer(it->step));
    json_put(&b->ok, o, "kind", json_string(ACT_NAMES[it->chosen.type % 7]));
    json_put(&b->ok, o, "chosen", action_name(b, &it->chosen, hand));
    json_put(&b->ok, o, "best",
             action_name(b, it->n_options > 0 ? &it->options[0].action : &it->chosen, hand));
    json_put(&b->ok, o, "cost", points(it->cost));
    json_put(&b->ok, o, "forced", json_boolean(it->forced));
    json_put(&b->ok, o, "chosen_index", json_integer(it->chosen_index));
    char words[600];
    club_step_words(b->rules, before, act, after, words, sizeof words);
    json_put(&b->ok, o, "words", json_string(words));
    json_t *opts = json_array();
    for (int i = 0; i < it->n_options; i++)
        json_append(&b->ok, opts,
                    option_json(b, &it->options[i].action, hand, it->options[i].value,
                                it->options[i].cards, true));
    json_put(&b->ok, o, "options", opts);
    return o;
}

static void on_step(void *ctx, const barbu_state *before, const barbu_action *act,
                    const barbu_state *after)
{
    builder *b = ctx;
    if (before->t.deal != b->deal) {
        b->deal = before->t.deal;
        b->step = 0;
    }
    b->step++;
    if (b->next >= b->a->n_items)
        return;
    const barbu_analysis_item *it = &b->a->items[b->next];
    if (it->deal != b->deal + 1 || it->step != b->step || act->seat != b->a->seat)
        return;
    json_append(&b->ok, b->items, item_json(b, it, before, act, after));
    b->next++;
}

char *barbu_analysis_json(const barbu_analysis *a, const barbu_record *rec)
{
    builder b = {.a = a, .rules = barbu_record_rules(rec), .ok = true, .deal = -1};
    b.items = json_array();
    barbu_diag diag;
    memset(&diag, 0, sizeof diag);
    if (b.items == NULL || barbu_record_walk(rec, on_step, &b, &diag) != 0 ||
        b.next != a->n_items) {
        json_decref(b.items);
        return NULL;
    }
    json_t *o = json_object();
    json_put(&b.ok, o, "seat", json_string(barbu_seat_name(a->seat)));
    json_put(&b.ok, o, "level", json_string(a->level));
    const char *player =
        a->seat >= 0 && a->seat < 4 ? barbu_record_tag(rec, SEAT_TAGS[a->seat]) : NULL;
    json_t *name = player ? json_string(player) : json_null();
    json_put(&b.ok, o, "player", name ? name : json_null());
    json_put(&b.ok, o, "decisions", json_integer(a->n_items));
    json_put(&b.ok, o, "total_cost", points(a->total_cost));
    int *idx = malloc(sizeof *idx * (size_t)(a->n_items > 0 ? a->n_items : 1));
    json_t *worst = json_array();
    if (idx == NULL)
        b.ok = false;
    else
        for (int i = 0, n = barbu_analysis_worst(a, idx); i < n; i++)
            json_append(&b.ok, worst, json_integer(idx[i]));
    free(idx);
    json_put(&b.ok, o, "worst", worst);
    json_put(&b.ok, o, "items", b.items);
    char *text = b.ok ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(12)) : NULL;
    json_decref(o);
    return text;
}
