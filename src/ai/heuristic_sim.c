/*
 * heuristic_sim.c - play-outs on sampled deals.  Where the rules of thumb
 * miss what a count shows in the last tricks (a penalty card that will be
 * the last card, a master an opponent is forced to play), the player deals
 * the unseen cards to the other hands a number of times, consistent with
 * what the table has shown, plays each candidate card and the rest of the
 * deal with a simple policy for every seat, and keeps the card whose
 * settled score (doubles included) is best on average.  The play-outs run
 * on engine states (barbu_state_from_view): the rules, the tricks and the
 * scores are the engine's.
 */
#include "internal.h"

/* The card of the highest (lowest) rank in a set, in any suit. */
static int sim_highest(barbu_cards set)
{
    int best = -1;
    for (int s = 0; s < 4; s++) {
        barbu_cards lane = set & BARBU_SUIT_CARDS(s);
        if (lane) {
            int c = bb_h_highest(lane);
            if (best < 0 || BARBU_RANK(c) > BARBU_RANK(best))
                best = c;
        }
    }
    return best;
}

static int sim_lowest(barbu_cards set)
{
    int best = -1;
    for (int s = 0; s < 4; s++) {
        barbu_cards lane = set & BARBU_SUIT_CARDS(s);
        if (lane) {
            int c = bb_h_lowest(lane);
            if (best < 0 || BARBU_RANK(c) < BARBU_RANK(best))
                best = c;
        }
    }
    return best;
}

void bb_h_policy_init(bb_policy *x, const barbu_rules *rules, unsigned contracts)
{
    bb_h_tables(rules, contracts, &x->tab);
    barbu_cards deck = bb_h_deck(rules);
    int tricks = barbu_rules_hand_size(rules);
    x->positive = x->tab.total > 0;
    x->ravage = x->tab.kind == BARBU_KIND_RAVAGE;
    x->scoring = 0;
    x->costly = 0;
    for (barbu_cards d = deck; d; d &= d - 1) {
        int c = bb_h_lowest(d);
        if (x->tab.card[c] != 0)
            x->scoring |= d & (~d + 1);
        if (x->tab.card[c] < 0)
            x->costly |= d & (~d + 1);
    }
    for (int i = 0; i <= BARBU_MAX_TRICKS; i++) {
        int from_end = tricks - 1 - i;
        x->base[i] = -x->tab.per_trick;
        if (from_end >= 0 && from_end < BARBU_MAX_TRICKS)
            x->base[i] -= x->tab.from_end[from_end];
    }
}

/* The simple policy: lose tricks in a negative contract, win them cheaply
 * in a positive one.  `legal` is the engine's playable set. */
int bb_h_policy_card(const bb_policy *x, const barbu_state *s, barbu_cards legal)
{
    const barbu_table *t = &s->t;
    const barbu_trick *tr = &t->trick;
    if ((legal & (legal - 1)) == 0)
        return bb_h_lowest(legal);
    barbu_cards led = tr->n ? legal & BARBU_SUIT_CARDS(BARBU_SUIT(tr->card[0])) : 0;
    if (x->positive) {
        if (tr->n == 0) {
            /* A master if there is one, else the lowest card. */
            barbu_cards others = 0;
            for (int i = 0; i < 4; i++)
                if (i != t->to_move)
                    others |= s->hand[i];
            for (barbu_cards c = legal; c; c &= c - 1)
                if (!(others & bb_h_above(bb_h_lowest(c))))
                    return bb_h_lowest(c);
            return sim_lowest(legal);
        }
        barbu_cards winners = legal & barbu_trick_beaters(t);
        if (winners)
            return tr->n == 3 ? bb_h_lowest(winners) : bb_h_highest(winners);
        return sim_lowest(legal);
    }
    int table_cost = 0;
    for (int i = 0; i < tr->n; i++)
        table_cost -= x->tab.card[tr->card[i]];
    barbu_cards untaken = ~(t->taken[0] | t->taken[1] | t->taken[2] | t->taken[3]);
    if (!x->ravage && x->base[t->ntricks] + table_cost == 0 && !(x->scoring & untaken)) {
        /* A trick that costs nothing, in a deal where only later tricks
         * cost: shed the highest card. */
        return sim_highest(led ? led : legal);
    }
    if (tr->n == 0) {
        /* The lowest card, penalty cards last. */
        barbu_cards plain = legal & ~x->costly;
        return sim_lowest(plain ? plain : legal);
    }
    if (!led) {
        /* A discard: the costliest penalty card, else the highest card. */
        int best = -1, best_cost = 0;
        for (barbu_cards c = legal & x->costly; c; c &= c - 1) {
            int cost = -x->tab.card[bb_h_lowest(c)];
            if (cost > best_cost) {
                best_cost = cost;
                best = bb_h_lowest(c);
            }
        }
        return best >= 0 ? best : sim_highest(legal);
    }
    barbu_cards winners = led & barbu_trick_beaters(t);
    barbu_cards losers = led & ~winners;
    if (losers) {
        /* Duck with the highest card that loses, a penalty card first. */
        barbu_cards pen = losers & x->costly;
        return bb_h_highest(pen ? pen : losers);
    }
    /* Forced to win: with the highest card that is not a penalty card. */
    barbu_cards plain = winners & ~x->costly;
    return bb_h_highest(plain ? plain : winners);
}

int bb_h_deal_sample(const bb_know *k, barbu_rng *rng, barbu_cards hands[4])
{
    int cards[52], n = 0;
    barbu_cards known = k->holds[0] | k->holds[1] | k->holds[2] | k->holds[3];
    for (barbu_cards o = k->out & ~known; o; o &= o - 1)
        cards[n++] = bb_h_lowest(o);
    for (int tries = 0; tries < 8; tries++) {
        int need[4];
        for (int s = 0; s < 4; s++) {
            need[s] = s == k->me ? 0 : k->t->in_hand[s] - barbu_count(k->holds[s]);
            hands[s] = s == k->me ? k->hand : k->holds[s];
        }
        int ok = 1;
        for (int i = n - 1; i >= 0 && ok; i--) {
            int j = (int)barbu_rng_below(rng, (uint32_t)i + 1);
            int c = cards[j];
            cards[j] = cards[i];
            cards[i] = c;
            /* The seats that may take it, weighted by the room they have. */
            int room = 0;
            for (int s = 0; s < 4; s++)
                if (need[s] > 0 && !((k->lacks[s] >> c) & 1))
                    room += need[s];
            if (room == 0) {
                ok = 0;
                break;
            }
            int r = (int)barbu_rng_below(rng, (uint32_t)room);
            for (int s = 0; s < 4; s++) {
                if (need[s] > 0 && !((k->lacks[s] >> c) & 1)) {
                    if (r < need[s]) {
                        hands[s] |= BARBU_BIT(c);
                        need[s]--;
                        break;
                    }
                    r -= need[s];
                }
            }
        }
        if (ok)
            return 1;
    }
    return 0;
}

int bb_h_endgame(const bb_know *k, barbu_cards playable, barbu_rng *rng)
{
    const barbu_table *t = k->t;
    int n_cards = barbu_count(playable);
    if (n_cards < 2 || n_cards > 8)
        return -1;
    /* Cards of a suit with no unseen card between them and the same score
     * play alike: try the lowest of each run. */
    int cand[8], nc = 0;
    for (barbu_cards p = playable; p; p &= p - 1) {
        int c = bb_h_lowest(p);
        if (nc > 0) {
            int prev = cand[nc - 1];
            barbu_cards between = bb_h_above(prev) & bb_h_below(c);
            if (BARBU_SUIT(prev) == BARBU_SUIT(c) && !(between & k->out) &&
                k->tab.card[prev] == k->tab.card[c] && !(between & k->scoring))
                continue;
        }
        cand[nc++] = c;
    }
    if (nc == 1)
        return cand[0];
    bb_policy x;
    bb_h_policy_init(&x, k->rules, t->contracts);

    double total[8] = {0};
    /* As many deals as the time allows, with a floor for a fair average. */
    int plays = nc * (4 * (k->tricks - t->ntricks) - t->trick.n);
    int want = BB_END_BUDGET / (plays > 0 ? plays : 1);
    want = want > BB_END_SAMPLES ? BB_END_SAMPLES : want < 6 ? 6 : want;
    int samples = 0;
    for (int i = 0; i < want; i++) {
        barbu_cards hands[4];
        barbu_state base;
        if (!bb_h_deal_sample(k, rng, hands) || barbu_state_from_view(k->view, hands, &base) != 0)
            continue;
        barbu_truncate(&base);
        samples++;
        for (int c = 0; c < nc; c++) {
            barbu_state s = base;
            barbu_play(&s, (barbu_card)cand[c]);
            while (!barbu_over(&s))
                barbu_play(&s, (barbu_card)bb_h_policy_card(&x, &s, barbu_playable(&s)));
            /* The engine's settlement: my score moves with everyone I have
             * business with. */
            total[c] += s.t.last.score[k->me];
        }
    }
    if (samples == 0)
        return -1;
    int best = 0;
    for (int c = 1; c < nc; c++)
        if (total[c] > total[best] + 1e-9)
            best = c;
    return cand[best];
}
