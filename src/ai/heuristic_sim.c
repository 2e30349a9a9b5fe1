/*
 * heuristic_sim.c - play-outs on sampled deals.  Where the rules of thumb
 * miss what a count shows in the last tricks (a penalty card that will be
 * the last card, a master an opponent is forced to play), the player deals
 * the unseen cards to the other hands a number of times, consistent with
 * what it knows, plays each candidate card and the rest of the deal with a
 * simple policy for every seat, and keeps the card that does best on
 * average, doubles included.  (The same at Domino did worse than the rules
 * of thumb: the passes that show who lacks what are not in the view.)
 */
#include "internal.h"

/* What every simulation of one decision shares. */
typedef struct sim_ctx {
    const bb_know *k;
    int trump, hearts_lead, must_trump, early, positive;
    barbu_cards costly;             /* cards that cost points when taken */
    int base[BARBU_MAX_TRICKS + 1]; /* the cost of trick i, apart from its cards */
} sim_ctx;

typedef struct sim {
    const sim_ctx *x;
    barbu_cards hand[4];
    barbu_cards on_table;
    int leader, n, card[4]; /* the trick in progress */
    int top;                /* the position winning it */
    int table_cost;         /* what its cards cost */
    int ntricks;
    int cost[4]; /* points lost so far, by seat */
} sim;

static int sim_cost(const sim_ctx *x, int card)
{
    return -x->k->tab.card[card];
}

/* Whether card a beats card b, which is winning the trick so far. */
static int sim_beats(int a, int b, int trump)
{
    if (BARBU_SUIT(a) == BARBU_SUIT(b))
        return a > b;
    return trump >= 0 && BARBU_SUIT(a) == trump;
}

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

/* The cards a seat may play, by the trick rules of the deal (as in the
 * engine's play.c; a simulation only needs them to be sensible). */
static barbu_cards sim_legal(const sim *s, int seat)
{
    const sim_ctx *x = s->x;
    barbu_cards hand = s->hand[seat];
    if (s->n == 0) {
        barbu_cards hearts = BARBU_SUIT_CARDS(BARBU_HEARTS);
        if (x->hearts_lead && (hand & ~hearts))
            return hand & ~hearts;
        return hand;
    }
    int led = BARBU_SUIT(s->card[0]), trump = x->trump;
    barbu_cards follow = hand & BARBU_SUIT_CARDS(led);
    if (trump < 0)
        return follow ? follow : hand;
    int top = s->card[s->top];
    if (led == trump) {
        barbu_cards higher = follow & bb_h_above(top);
        return higher ? higher : follow ? follow : hand;
    }
    if (follow)
        return follow;
    barbu_cards mine = hand & BARBU_SUIT_CARDS(trump);
    if (BARBU_SUIT(top) == trump) {
        barbu_cards over = mine & bb_h_above(top);
        return over ? over : hand;
    }
    if (x->must_trump && mine)
        return mine;
    return hand;
}

/* Whether a card that scores is still to be taken. */
static int sim_live(const sim *s)
{
    barbu_cards live = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3] | s->on_table;
    return (live & s->x->k->scoring) != 0;
}

/* The simple policy: lose tricks in a negative contract, win them cheaply
 * in a positive one. */
static int sim_choose(const sim *s, int seat, barbu_cards legal)
{
    const sim_ctx *x = s->x;
    if ((legal & (legal - 1)) == 0)
        return bb_h_lowest(legal);
    barbu_cards led = s->n ? legal & BARBU_SUIT_CARDS(BARBU_SUIT(s->card[0])) : 0;
    if (x->positive) {
        if (s->n == 0) {
            /* A master if there is one, else the lowest card. */
            barbu_cards others = 0;
            for (int i = 0; i < 4; i++)
                if (i != seat)
                    others |= s->hand[i];
            for (barbu_cards c = legal; c; c &= c - 1)
                if (!(others & bb_h_above(bb_h_lowest(c))))
                    return bb_h_lowest(c);
            return sim_lowest(legal);
        }
        int top = s->card[s->top];
        barbu_cards winners = 0;
        for (barbu_cards c = legal; c; c &= c - 1)
            if (sim_beats(bb_h_lowest(c), top, x->trump))
                winners |= c & (~c + 1);
        if (winners)
            return s->n == 3 ? bb_h_lowest(winners) : bb_h_highest(winners);
        return sim_lowest(legal);
    }
    if (x->base[s->ntricks] + s->table_cost == 0 && !sim_live(s)) {
        /* A trick that costs nothing, in a deal where only later tricks
         * cost: shed the highest card. */
        return sim_highest(led ? led : legal);
    }
    if (s->n == 0) {
        /* The lowest card, penalty cards last. */
        barbu_cards plain = legal & ~x->costly;
        return sim_lowest(plain ? plain : legal);
    }
    if (!led) {
        /* A discard: the costliest penalty card, else the highest card. */
        int best = -1, best_cost = 0;
        for (barbu_cards c = legal & x->costly; c; c &= c - 1) {
            int cost = sim_cost(x, bb_h_lowest(c));
            if (cost > best_cost) {
                best_cost = cost;
                best = bb_h_lowest(c);
            }
        }
        return best >= 0 ? best : sim_highest(legal);
    }
    int top = s->card[s->top];
    barbu_cards winners = BARBU_SUIT(top) == BARBU_SUIT(s->card[0]) ? led & bb_h_above(top) : 0;
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

static void sim_play(sim *s, int card)
{
    const sim_ctx *x = s->x;
    int seat = (s->leader + s->n) & 3;
    s->hand[seat] &= ~BARBU_BIT(card);
    s->on_table |= BARBU_BIT(card);
    s->table_cost += sim_cost(x, card);
    if (s->n > 0 && sim_beats(card, s->card[s->top], x->trump))
        s->top = s->n;
    s->card[s->n++] = card;
    if (s->n < 4)
        return;
    int w = (s->leader + s->top) & 3;
    s->cost[w] += x->base[s->ntricks] + s->table_cost;
    s->ntricks++;
    s->leader = w;
    s->n = 0;
    s->top = 0;
    s->table_cost = 0;
    s->on_table = 0;
}

static void sim_run(sim *s)
{
    while (s->hand[(s->leader + s->n) & 3]) {
        if (s->x->early && s->n == 0 && !sim_live(s))
            return;
        int seat = (s->leader + s->n) & 3;
        sim_play(s, sim_choose(s, seat, sim_legal(s, seat)));
    }
}

/* Deals the unseen cards to the other seats, each getting as many as it
 * holds and none that it has shown it cannot hold.  Returns 0 if the deal
 * failed (the constraints could not be met), 1 otherwise. */
static int sim_deal(const bb_know *k, barbu_rng *rng, barbu_cards hands[4])
{
    int cards[52], n = 0;
    for (barbu_cards o = k->out; o; o &= o - 1)
        cards[n++] = bb_h_lowest(o);
    for (int tries = 0; tries < 8; tries++) {
        int need[4];
        for (int s = 0; s < 4; s++) {
            need[s] = s == k->me ? 0 : k->t->in_hand[s];
            hands[s] = s == k->me ? k->hand : 0;
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
    int positive = k->tab.total > 0;
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
    sim_ctx x;
    x.k = k;
    x.trump = t->kind == BARBU_KIND_TRUMPS ? t->trump : -1;
    x.hearts_lead = (t->rule_flags & BARBU_CF_HEARTS_LEAD) != 0;
    x.must_trump = k->rules->must_trump;
    x.early = (t->rule_flags & BARBU_CF_EARLY_END) != 0;
    x.positive = positive;
    x.costly = 0;
    for (barbu_cards d = k->scoring; d; d &= d - 1)
        if (k->tab.card[bb_h_lowest(d)] < 0)
            x.costly |= d & (~d + 1);
    for (int i = 0; i <= BARBU_MAX_TRICKS; i++) {
        int from_end = k->tricks - 1 - i;
        x.base[i] = -k->tab.per_trick;
        if (from_end >= 0 && from_end < BARBU_MAX_TRICKS)
            x.base[i] -= k->tab.from_end[from_end];
    }
    sim start = {0};
    start.x = &x;
    start.leader = t->trick.leader;
    start.ntricks = t->ntricks;
    for (int i = 0; i < t->trick.n; i++) {
        int card = t->trick.card[i];
        start.on_table |= BARBU_BIT(card);
        start.table_cost += sim_cost(&x, card);
        if (i > 0 && sim_beats(card, start.card[start.top], x.trump))
            start.top = i;
        start.card[i] = card;
    }
    start.n = t->trick.n;

    double total[8] = {0};
    /* My score moves with every seat I have business with. */
    int weight[4], mine = 1;
    for (int s = 0; s < 4; s++) {
        weight[s] = bb_h_business(t, k->me, s);
        mine += weight[s];
    }
    /* As many deals as the time allows, with a floor for a fair average. */
    int plays = nc * (4 * (k->tricks - t->ntricks) - t->trick.n);
    int want = BB_END_BUDGET / (plays > 0 ? plays : 1);
    want = want > BB_END_SAMPLES ? BB_END_SAMPLES : want < 6 ? 6 : want;
    int samples = 0;
    for (int i = 0; i < want; i++) {
        barbu_cards hands[4];
        if (!sim_deal(k, rng, hands))
            continue;
        samples++;
        for (int c = 0; c < nc; c++) {
            sim s = start;
            for (int h = 0; h < 4; h++)
                s.hand[h] = hands[h];
            sim_play(&s, cand[c]);
            sim_run(&s);
            double v = mine * s.cost[k->me];
            for (int h = 0; h < 4; h++)
                v -= weight[h] * s.cost[h];
            total[c] += v;
        }
    }
    if (samples == 0)
        return -1;
    int best = 0;
    for (int c = 1; c < nc; c++)
        if (total[c] < total[best] - 1e-9)
            best = c;
    return cand[best];
}
