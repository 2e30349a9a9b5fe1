/*
 * leak.c - the information leak check of the end-to-end tests.
 *
 * After a whole game, every message each logging client received is checked
 * against what its recipient may know at that point.  The truth comes from
 * the engine, not from the server's encoder: the game's actions are taken
 * from the views' "last" (each seat sees its own Pass-ons and rows in full),
 * replayed from the seed, and the record they make must be the server's
 * record.  Then, for a message received when the recipient's latest view was
 * at action k, every string in it that is a card of the pack is allowed only
 * if the recipient knows that card's place at k:
 *
 * - a seat (and a kibitzer of that seat): its hand as dealt this deal and as
 *   it is, the cards it passed and received in Pass-ons, every card played
 *   to this deal's tricks or layout;
 * - under "last": also the action just taken, when it is a card played or
 *   the recipient's own choice;
 * - under "last_deal" (and a score's "deals"): what the completed deal
 *   showed (the cards played, the Chinese Poker rows at the showdown) and
 *   the recipient's own hand of that deal;
 * - under "penalty" and "shown_out": the table's public sets of those names;
 * - a kibitzer of every hand may know every card.
 *
 * Besides: each view's hands are exactly what the recipient may hold; no
 * message carries another session's token, nor the seed before the game is
 * over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

static const char SEATS[] = "NESW";

typedef struct leak_ctx {
    const barbu_rules *rules;
    const barbu_state *states; /* states[k]: after k actions */
    const barbu_action *acts;  /* acts[k]: the k-th action (1-based) */
    int n_actions;
    barbu_cards *pub; /* pub[d]: what deal d showed once complete */
    barbu_cards *own; /* own[d * 4 + s]: seat s's hand as dealt in deal d */
    int n_deals;
    /* the message being walked */
    const e2e_client *who;
    int seat; /* 0-3, or 4 for every hand */
    long at;
    const char *type;
    int msg_index;
    int leaks;
    bool probe; /* walking a made-up message: count, do not report */
    int probe_hits;
} leak_ctx;

static barbu_cards trick_cards(const barbu_trick *k)
{
    barbu_cards set = 0;
    for (int i = 0; i < k->n && i < 4; i++)
        set |= BARBU_BIT(k->card[i]);
    return set;
}

/* What seat s knows of the deal under way after k actions. */
static barbu_cards current(const leak_ctx *x, int s, long k)
{
    const barbu_state *st = &x->states[k];
    const barbu_table *t = &st->t;
    barbu_cards known = st->dealt[s] | st->hand[s] | trick_cards(&t->trick);
    for (int i = 0; i < 4; i++)
        known |= t->played[i];
    for (int p = 0; p < t->n_pass_ons && p < 3; p++) {
        int dir = barbu_pass_direction(t->round_deal, p);
        known |= st->pass_ons[p][s] | st->pass_ons[p][(s + 4 - dir) & 3];
    }
    if (t->phase == BARBU_PHASE_PASS_ON && ((t->passed_on >> s) & 1))
        known |= st->pending[s][0];
    if (t->phase == BARBU_PHASE_ARRANGE && ((t->arranged >> s) & 1))
        known |= st->pending[s][0] | st->pending[s][1];
    return known;
}

static barbu_cards completed(const leak_ctx *x, int s, int d)
{
    if (d < 0 || d >= x->n_deals)
        return 0;
    return x->pub[d] | x->own[d * 4 + s];
}

static barbu_cards allowed(const leak_ctx *x, const char *path)
{
    int s = x->seat;
    long k = x->at;
    const barbu_state *st = &x->states[k];
    barbu_cards known = current(x, s, k);
    int last_deal = (int)st->t.deal - 1;
    if (strcmp(x->type, "view") == 0) {
        if (strncmp(path, "view.last_deal", 14) == 0)
            return completed(x, s, last_deal);
        if (strncmp(path, "view.last_trick", 15) == 0)
            return known | (st->t.ntricks == 0 ? completed(x, s, last_deal) : 0);
        if (strncmp(path, "view.penalty", 12) == 0)
            return st->t.penalty;
        if (strncmp(path, "view.shown_out", 14) == 0)
            return st->t.shown_out[0] | st->t.shown_out[1] | st->t.shown_out[2] |
                   st->t.shown_out[3];
        if (strncmp(path, "last", 4) == 0 && k >= 1) {
            const barbu_action *a = &x->acts[k];
            if (a->type == BARBU_ACT_PLAY)
                known |= a->cards;
            else if (a->seat == s)
                known |= a->cards | a->middle;
            return known;
        }
    }
    if (strcmp(x->type, "score") == 0 && strncmp(path, "deals[", 6) == 0)
        return completed(x, s, atoi(path + 6));
    return known;
}

/* A table message's rule set names its contracts, and a name or an
 * abbreviation may look like a card ("KH", King of Hearts): words, not cards. */
static bool rules_word(const leak_ctx *x, const char *path)
{
    if (strcmp(x->type, "table") != 0 || strncmp(path, "rule_set.contracts[", 19) != 0)
        return false;
    const char *leaf = strrchr(path, '.');
    return leaf &&
           (strcmp(leaf, ".abbr") == 0 || strcmp(leaf, ".name") == 0 || strcmp(leaf, ".key") == 0);
}

static void walk(leak_ctx *x, json_t *j, char *path, size_t len, size_t cap)
{
    if (json_is_object(j)) {
        const char *key;
        json_t *v;
        json_object_foreach(j, key, v)
        {
            int n = snprintf(path + len, cap - len, "%s%s", len ? "." : "", key);
            walk(x, v, path, len + (size_t)n < cap ? len + (size_t)n : cap - 1, cap);
            path[len] = '\0';
        }
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach(j, i, v)
        {
            int n = snprintf(path + len, cap - len, "[%zu]", i);
            walk(x, v, path, len + (size_t)n < cap ? len + (size_t)n : cap - 1, cap);
            path[len] = '\0';
        }
    } else if (json_is_string(j) && x->seat < 4) {
        int card = e2e_card_of(x->rules, json_string_value(j));
        if (card < 0 || rules_word(x, path))
            return;
        if (allowed(x, path) & BARBU_BIT(card))
            return;
        if (x->probe) {
            x->probe_hits++;
            return;
        }
        x->leaks++;
        if (x->leaks <= 25)
            e2e_check(false,
                      "leak: %s (%s %c) got %s at action %ld (message %d): card %s at %s is not "
                      "known to %c",
                      x->who->label, x->who->kibitz >= 0 ? "kibitzing" : "seat", SEATS[x->seat],
                      x->type, x->at, x->msg_index, json_string_value(j), path, SEATS[x->seat]);
    }
}

/* The hands a view shows must be exactly what its recipient holds. */
static bool hands_right(const leak_ctx *x, json_t *msg, char *why, size_t cap)
{
    json_t *hands = json_object_get(json_object_get(msg, "view"), "hands");
    if (!json_is_object(hands)) {
        snprintf(why, cap, "no hands object");
        return false;
    }
    const barbu_state *st = &x->states[x->at];
    for (int s = 0; s < 4; s++) {
        char key[2] = {SEATS[s], 0};
        json_t *h = json_object_get(hands, key);
        barbu_cards want = (x->seat == 4 || x->seat == s) ? st->hand[s] : 0;
        barbu_cards got = h ? e2e_cards_json(h) : 0;
        if (h && json_array_size(h) != (size_t)barbu_count(got)) {
            snprintf(why, cap, "hands.%s holds something that is not a card", key);
            return false;
        }
        if (got != want) {
            snprintf(why, cap, "hands.%s has %d cards, the engine says %s holds %d (%s)", key,
                     barbu_count(got), key, barbu_count(want),
                     got & ~want ? "cards it does not hold" : "cards missing");
            return false;
        }
    }
    return true;
}

/* The checker's own test: made-up messages that show a seat another
 * seat's hand, in a view's hands and as a Pass-on's cards in "last", must
 * be found card for card. */
static void probe_checker(leak_ctx *x, e2e_client **cl, int n, long total, const char *rules_name)
{
    const e2e_client *who = NULL;
    for (int i = 0; i < n && who == NULL; i++)
        if (cl[i]->seat >= 0)
            who = cl[i];
    if (who == NULL)
        return;
    long k = total / 2;
    int s = who->seat, other = (s + 1) & 3;
    barbu_cards hidden = x->states[k].hand[other] & ~current(x, s, k);
    char key[2] = {SEATS[other], 0};
    json_t *hands = json_pack("{s:o}", key, e2e_cards_to_json(x->states[k].hand[other]));
    json_t *msgs[2] = {
        json_pack("{s:s, s:i, s:{s:o}}", "type", "view", "at", (int)k, "view", "hands", hands),
        json_pack("{s:s, s:i, s:{s:s, s:s, s:o}}", "type", "view", "at", (int)k, "last", "type",
                  "pass_on", "seat", key, "cards", e2e_cards_to_json(hidden)),
    };
    x->who = who;
    x->seat = s;
    x->at = k;
    x->type = "view";
    x->probe = true;
    int found[2];
    for (int i = 0; i < 2; i++) {
        x->probe_hits = 0;
        char path[512] = "";
        walk(x, msgs[i], path, 0, sizeof path);
        found[i] = x->probe_hits;
        json_decref(msgs[i]);
    }
    x->probe = false;
    CHECK(hidden != 0 && found[0] == barbu_count(hidden) && found[1] == barbu_count(hidden),
          "leak %s: the checker finds %s's %d hidden cards shown to %s (in hands: %d, in a "
          "Pass-on: %d)",
          rules_name, key, barbu_count(hidden), who->label, found[0], found[1]);
}

/* The lines of a record from its first deal on, and its Result tag. */
static const char *body_of(const char *text)
{
    const char *p = strstr(text, "\n[Deal ");
    return p ? p : "";
}

static void result_line(const char *text, char *out, size_t cap)
{
    const char *p = strstr(text, "[Result ");
    const char *e = p ? strchr(p, '\n') : NULL;
    snprintf(out, cap, "%.*s", p ? (int)(e ? e - p : (long)strlen(p)) : 0, p ? p : "");
}

int e2e_leak_check(const char *rules_name, uint64_t seed, e2e_client **cl, int n,
                   const char *record_text)
{
    int failures_before = e2e_failures;
    barbu_record *rec = NULL;
    barbu_diag diag = {0};
    if (!CHECK(barbu_record_read(record_text, strlen(record_text), &rec, &diag) == 0,
               "leak %s: the server's record reads (line %d: %s)", rules_name, diag.line, diag.msg))
        return 1;
    barbu_rules rules = *barbu_record_rules(rec);

    /* The game's length: the highest at any seat saw. */
    long total = 0;
    for (int i = 0; i < n; i++)
        if (cl[i]->seat >= 0 && cl[i]->at > total)
            total = cl[i]->at;

    /* Each action, from the view of the seat that took it. */
    json_t **last = calloc((size_t)total + 1, sizeof *last);
    for (int i = 0; i < n; i++) {
        e2e_client *c = cl[i];
        if (c->seat < 0)
            continue;
        for (int m = 0; m < c->nlog; m++) {
            long at = c->log[m].at;
            if (at < 1 || at > total || strncmp(c->log[m].text, "{\"type\":\"view\"", 14) != 0)
                continue;
            json_t *j = json_loads(c->log[m].text, 0, NULL);
            json_t *l = json_object_get(j, "last");
            const char *who = json_string_value(json_object_get(l, "seat"));
            if (l && json_integer_value(json_object_get(j, "at")) == at &&
                e2e_seat_parse(who) == c->seat) {
                json_decref(last[at]);
                last[at] = json_incref(l);
            }
            json_decref(j);
        }
    }

    barbu_state *states = malloc(((size_t)total + 1) * sizeof *states);
    barbu_action *acts = calloc((size_t)total + 1, sizeof *acts);
    barbu_record *mine = barbu_record_new(&rules, seed);
    int rc = barbu_record_start(rec, &states[0]);
    CHECK(rc == 0, "leak %s: the game starts from the seed", rules_name);
    states[0].rules = &rules;
    bool rebuilt = rc == 0;
    for (long k = 1; rebuilt && k <= total; k++) {
        if (last[k] == NULL) {
            rebuilt = CHECK(false, "leak %s: no seat received a view of action %ld as its own",
                            rules_name, k);
            break;
        }
        int seat = e2e_seat_parse(json_string_value(json_object_get(last[k], "seat")));
        if (seat < 0 || e2e_action_parse(&rules, last[k], seat, &acts[k]) != 0) {
            char *t = json_dumps(last[k], JSON_COMPACT);
            rebuilt = CHECK(false, "leak %s: action %ld reads: %s", rules_name, k, t);
            free(t);
            break;
        }
        states[k] = states[k - 1];
        rc = barbu_apply(&states[k], &acts[k]);
        if (rc != 0) {
            char *t = json_dumps(last[k], JSON_COMPACT);
            rebuilt = CHECK(false, "leak %s: the engine refuses action %ld (%s): %s", rules_name, k,
                            t, barbu_strerror(rc));
            free(t);
            break;
        }
        barbu_record_add(mine, &states[k - 1], &acts[k]);
    }
    for (long k = 0; k <= total; k++)
        json_decref(last[k]);
    free(last);
    if (!rebuilt)
        goto done;
    CHECK(barbu_over(&states[total]), "leak %s: the %ld actions seen make a whole game", rules_name,
          total);

    /* The actions seen are the server's record. */
    char *text = NULL;
    size_t len = 0;
    rc = barbu_record_write(mine, &text, &len, &diag);
    if (CHECK(rc == 0, "leak %s: the actions seen write a record (%s)", rules_name, diag.msg)) {
        char r1[128], r2[128];
        result_line(text, r1, sizeof r1);
        result_line(record_text, r2, sizeof r2);
        bool same = strcmp(body_of(text), body_of(record_text)) == 0;
        CHECK(same && strcmp(r1, r2) == 0,
              "leak %s: the actions the clients saw are the server's record, deal by deal (%s)",
              rules_name, same ? r2 : "the deals differ");
        if (!same) {
            FILE *f;
            char path[400];
            snprintf(path, sizeof path, "%s/leak-%s-seen.txt", e2e_tmpdir(), rules_name);
            if ((f = fopen(path, "w")) != NULL)
                fputs(text, f), fclose(f);
            snprintf(path, sizeof path, "%s/leak-%s-server.txt", e2e_tmpdir(), rules_name);
            if ((f = fopen(path, "w")) != NULL)
                fputs(record_text, f), fclose(f);
        }
    }
    free(text);

    /* What each completed deal showed, and the hands as dealt. */
    int n_deals = states[total].t.deal + 1;
    barbu_cards *pub = calloc((size_t)n_deals, sizeof *pub);
    barbu_cards *own = calloc((size_t)n_deals * 4, sizeof *own);
    for (long k = 1; k <= total; k++) {
        int d = states[k - 1].t.deal;
        for (int s = 0; s < 4; s++)
            own[d * 4 + s] = states[k - 1].dealt[s];
        if (acts[k].type == BARBU_ACT_PLAY)
            pub[d] |= acts[k].cards;
        if (states[k].t.deal != d || barbu_over(&states[k])) {
            const barbu_result *res = &states[k].t.last;
            for (int s = 0; s < 4; s++) {
                pub[d] |= res->taken[s];
                for (int r = 0; r < 3; r++)
                    pub[d] |= res->rows[s][r];
            }
        }
    }

    leak_ctx x = {&rules, states, acts, (int)total, pub, own,   n_deals, NULL,
                  0,      0,      "",   0,          0,   false, 0};
    char seed_text[32];
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    int token_leaks = 0, seed_leaks = 0, hand_faults = 0, messages = 0;
    for (int i = 0; i < n; i++) {
        e2e_client *c = cl[i];
        if (!c->logging)
            continue;
        x.who = c;
        x.seat = c->seat >= 0 ? c->seat : c->kibitz;
        if (x.seat < 0)
            continue;
        for (int m = 0; m < c->nlog; m++) {
            const char *raw = c->log[m].text;
            messages++;
            x.at = c->log[m].at < 0 ? 0 : c->log[m].at;
            x.msg_index = m;
            if (x.at > total) {
                e2e_check(false, "leak %s: %s got a view at %ld, beyond the game's %ld actions",
                          rules_name, c->label, x.at, total);
                continue;
            }
            json_t *j = json_loads(raw, 0, NULL);
            if (j == NULL)
                continue;
            x.type = json_string_value(json_object_get(j, "type"));
            if (x.type == NULL)
                x.type = "";
            for (int o = 0; o < n; o++) {
                const char *tok = cl[o]->token;
                if (tok[0] == '\0' || strstr(raw, tok) == NULL)
                    continue;
                if (cl[o] == c && strcmp(x.type, "welcome") == 0)
                    continue;
                if (++token_leaks <= 5)
                    e2e_check(false, "leak %s: %s got %s's token in a %s message", rules_name,
                              c->label, cl[o]->label, x.type);
            }
            if (x.at < total && strstr(raw, seed_text) != NULL && ++seed_leaks <= 5)
                e2e_check(false, "leak %s: %s got the seed %s in a %s message at action %ld of %ld",
                          rules_name, c->label, seed_text, x.type, x.at, total);
            if (strcmp(x.type, "view") == 0) {
                char why[200];
                if (!hands_right(&x, j, why, sizeof why) && ++hand_faults <= 5)
                    e2e_check(false, "leak %s: %s's view at %ld: %s", rules_name, c->label, x.at,
                              why);
            }
            char path[512] = "";
            walk(&x, j, path, 0, sizeof path);
            json_decref(j);
        }
    }
    CHECK(x.leaks == 0, "leak %s: no card any recipient may not know, in %d messages (%d found)",
          rules_name, messages, x.leaks);
    probe_checker(&x, cl, n, total, rules_name);
    CHECK(token_leaks == 0, "leak %s: no message carries another session's token", rules_name);
    CHECK(seed_leaks == 0, "leak %s: no message carries the seed before the game is over",
          rules_name);
    CHECK(hand_faults == 0, "leak %s: every view's hands are what its recipient holds", rules_name);
    free(pub);
    free(own);
done:
    barbu_record_free(mine);
    barbu_record_free(rec);
    free(states);
    free(acts);
    return e2e_failures - failures_before;
}
