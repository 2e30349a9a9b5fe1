/*
 * heuristic_play.c - the heuristic player's card play: tricks to avoid
 * (the negative contracts), tricks to win (Trumps), suits not to gather
 * (Ravage City) and the layouts (Domino).
 *
 * Trick play weighs each playable card by a small model of the trick: the
 * chance the card wins it, what the trick would cost (or bring), and the
 * danger (or promise) of keeping the card for later.  Every amount is read
 * from the deal's score tables, so house scores change the weights, not the
 * code.
 */
#include <float.h>

#include "internal.h"

/* ------------------------------------------------------------ tricks */

/* The seat winning the trick in progress (which must have a card). */
static int trick_top_seat(const barbu_table *t)
{
    return (t->trick.leader + barbu_trick_top(t)) & 3;
}

/* The seats still to play to the trick after me. */
static int later_seats(const bb_know *k, int *seats)
{
    const barbu_trick *tr = &k->t->trick;
    int n = 0;
    for (int i = tr->n + 1; i < 4; i++)
        seats[n++] = (tr->leader + i) & 3;
    return n;
}

/* The other seats that may still hold a suit. */
static int holders(const bb_know *k, int suit)
{
    int n = 0;
    for (int s = 0; s < 4; s++)
        n += bb_h_may_hold(k, s, suit);
    return n;
}

/* The chance a seat holds none of a suit. */
static double p_void(const bb_know *k, int seat, int suit)
{
    if (!bb_h_may_hold(k, seat, suit))
        return 1.0;
    return bb_h_none_of(bb_h_len(k->out, suit), holders(k, suit));
}

static double ipow(double x, int n)
{
    double p = 1.0;
    for (int i = 0; i < n; i++)
        p *= x;
    return p;
}

static const int CHOOSE[4][4] = {{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}};

/*
 * The chance that none of `later` seats (among the n that may hold the suit)
 * is forced to beat a card: with `low` outstanding cards of the suit below it
 * and `high` above, a seat is forced when it holds some of the high cards
 * and none of the low ones.  Each outstanding card is taken to lie in any of
 * the n hands alike; the formula is inclusion-exclusion over the later seats.
 */
static double p_not_forced(int low, int high, int n, int later)
{
    if (n <= 0 || later <= 0 || high == 0)
        return 1.0;
    if (later > n)
        later = n;
    double total = 0.0;
    for (int t = 0; t <= later; t++) {
        /* All of t given seats forced: no low card among them, each with a
         * high card. */
        double each_high = 0.0;
        for (int u = 0; u <= t; u++)
            each_high += (u & 1 ? -1.0 : 1.0) * CHOOSE[t][u] * ipow((double)(n - u) / n, high);
        double all_t = ipow((double)(n - t) / n, low) * each_high;
        total += (t & 1 ? -1.0 : 1.0) * CHOOSE[later][t] * all_t;
    }
    return total < 0.0 ? 0.0 : total > 1.0 ? 1.0 : total;
}

/*
 * The chance that a card of mine wins a trick before the deal is over, when
 * every player tries to lose tricks.  Each outstanding card of the suit
 * above one of mine lets me duck that card once; matching my cards from the
 * lowest up to the lowest free card above each, the ones left unmatched will
 * win tricks, and I will make them my highest.  A matched card may still
 * win when most outstanding cards lie below it.
 */
double bb_h_p_eventual(barbu_cards out, barbu_cards hand, int x)
{
    barbu_cards suit = BARBU_SUIT_CARDS(BARBU_SUIT(x));
    barbu_cards mine = hand & suit, theirs = out & suit, free = theirs;
    int o = barbu_count(theirs);
    if (o == 0)
        return 0.45;
    int matched = 0;
    for (barbu_cards m = mine; m; m &= m - 1) {
        barbu_cards above = free & bb_h_above(bb_h_lowest(m));
        if (above) {
            free &= ~(above & (~above + 1));
            matched++;
        }
    }
    int uncovered = barbu_count(mine) - matched;
    int rank_mine = barbu_count(hand & bb_h_above(x)) + 1;
    if (rank_mine <= uncovered) {
        double p = 0.7 + 0.1 * (uncovered - rank_mine);
        return p > 1.0 ? 1.0 : p;
    }
    int low = barbu_count(theirs & bb_h_below(x)), high = barbu_count(theirs & bb_h_above(x));
    double f = (double)low / o, cover = (high - rank_mine + 1) / 3.0;
    if (cover < 0.0)
        cover = 0.0;
    return f * f * (1.0 - 0.5 * (cover > 1.0 ? 1.0 : cover));
}

/* What taking a card costs me (negative for a card worth points). */
static int cost_of(const bb_know *k, int card)
{
    return -k->tab.card[card];
}

/* What taking the trick with index i (from 0) costs, apart from its cards. */
static int trick_base(const bb_know *k, int i)
{
    int from_end = k->tricks - 1 - i;
    int v = k->tab.per_trick;
    if (from_end >= 0 && from_end < BARBU_MAX_TRICKS)
        v += k->tab.from_end[from_end];
    return -v;
}

/* The mean cost of a trick still to come after this one. */
static double future_trick_cost(const bb_know *k)
{
    int now = k->t->ntricks, left = k->tricks - now - 1;
    if (left <= 0)
        return 0.0;
    double sum = 0.0;
    for (int i = now + 1; i < k->tricks; i++)
        sum += trick_base(k, i);
    for (barbu_cards live = k->deck & ~k->gone; live; live &= live - 1) {
        int c = cost_of(k, bb_h_lowest(live));
        if (c > 0)
            sum += c;
    }
    return sum / left;
}

/* Whether any card still to be played costs points. */
static int live_penalty(const bb_know *k)
{
    for (barbu_cards live = k->deck & ~k->gone; live; live &= live - 1)
        if (cost_of(k, bb_h_lowest(live)) != 0)
            return 1;
    return 0;
}

/*
 * Weights of the negative play, in units of the mean cost of a trick to come
 * or of a penalty card's cost; tuned in games between heuristic players.
 * Winning a trick that costs nothing, while only the later tricks cost, is
 * worth something: the lead lets me run my high cards out.  A low lead in a
 * short suit heads for a void to throw dangerous cards into, and one below
 * an unseen penalty card may force it out.  A penalty card in my hand is a
 * danger even when guarded.
 */
#define LEAD_FREE     0.8
#define LEAD_SHORT    0.3
#define LEAD_FLUSH    0.15
#define PENALTY_FLOOR 0.3

/* The danger of keeping a card: the cost of the tricks it may win and, for a
 * penalty card, of taking it myself. */
static double danger(const bb_know *k, double future, int x)
{
    double p = bb_h_p_eventual(k->out, k->hand, x);
    double d = p * future;
    int c = cost_of(k, x);
    if (c > 0)
        d += c * (p > PENALTY_FLOOR ? p : PENALTY_FLOOR);
    return d;
}

/* The penalty cards in other hands, by cost: what a seat that cannot follow
 * may throw on a trick outside the suit. */
static double discard_threat(const bb_know *k, int suit)
{
    double sum = 0.0, top = 0.0;
    barbu_cards cards = k->out & ~BARBU_SUIT_CARDS(suit);
    for (; cards; cards &= cards - 1) {
        int c = cost_of(k, bb_h_lowest(cards));
        if (c > 0) {
            sum += c;
            if (c > top)
                top = c;
        }
    }
    int opponents = 0;
    for (int s = 0; s < 4; s++)
        opponents += s != k->me && k->t->in_hand[s] > 0;
    if (opponents == 0)
        return 0.0;
    sum /= opponents;
    return sum < top ? sum : top;
}

/*
 * The expected cost of playing card c to the trick in a negative contract,
 * less the danger it takes out of my hand.  `table` is what the trick holds
 * already (with its own cost); `winning` says whether c would win it so far.
 */
static double neg_score(const bb_know *k, int c, int winning, double table, double future)
{
    double keep = danger(k, future, c);
    if (!winning)
        return -keep;
    int suit = BARBU_SUIT(c), seats[3];
    int later = later_seats(k, seats);
    int n = holders(k, suit), later_holders = 0;
    double dump = 0.0, threat = discard_threat(k, suit);
    for (int i = 0; i < later; i++) {
        later_holders += bb_h_may_hold(k, seats[i], suit);
        dump += p_void(k, seats[i], suit) * threat;
    }
    /* A later seat holding a penalty card of the suit below mine throws it. */
    if (n > 0) {
        for (barbu_cards low = k->out & bb_h_below(c); low; low &= low - 1) {
            int pc = cost_of(k, bb_h_lowest(low));
            if (pc > 0)
                dump += pc * (double)later_holders / n;
        }
    }
    int low = barbu_count(k->out & bb_h_below(c)), high = barbu_count(k->out & bb_h_above(c));
    double p = p_not_forced(low, high, n, later_holders);
    double lead_next = 0.0;
    if (k->t->ntricks + 1 < k->tricks && trick_base(k, k->t->ntricks) == 0 && !live_penalty(k))
        lead_next = -LEAD_FREE * future;
    return p * (table + cost_of(k, c) + dump + lead_next) - keep;
}

/* A negative contract: lose the tricks, or at least the ones that cost. */
static int neg_play(const bb_know *k, barbu_cards playable)
{
    const barbu_table *t = k->t;
    const barbu_trick *tr = &t->trick;
    double future = future_trick_cost(k);
    double table = trick_base(k, t->ntricks);
    for (int i = 0; i < tr->n; i++)
        table += cost_of(k, tr->card[i]);

    double max_danger[4] = {0};
    for (barbu_cards h = k->hand; h; h &= h - 1) {
        int x = bb_h_lowest(h);
        double d = danger(k, future, x);
        if (d > max_danger[BARBU_SUIT(x)])
            max_danger[BARBU_SUIT(x)] = d;
    }

    int best = bb_h_lowest(playable);
    double best_score = DBL_MAX;
    for (barbu_cards p = playable; p; p &= p - 1) {
        int c = bb_h_lowest(p), suit = BARBU_SUIT(c);
        double score;
        if (tr->n == 0) {
            score = neg_score(k, c, 1, table, future);
            int low = barbu_count(k->out & bb_h_below(c));
            int high = barbu_count(k->out & bb_h_above(c));
            double safe = 1.0 - p_not_forced(low, high, holders(k, suit), 3);
            if (high == 0)
                safe = 0.0;
            double elsewhere = 0.0;
            for (int s = 0; s < 4; s++)
                if (s != suit && max_danger[s] > elsewhere)
                    elsewhere = max_danger[s];
            score -= safe * LEAD_SHORT * elsewhere / bb_h_len(k->hand, suit);
            for (barbu_cards hi = k->out & bb_h_above(c); hi; hi &= hi - 1) {
                int pc = cost_of(k, bb_h_lowest(hi));
                if (pc > 0)
                    score -= safe * LEAD_FLUSH * pc;
            }
        } else {
            int led = BARBU_SUIT(tr->card[0]);
            if (suit != led) {
                score = -danger(k, future, c);
                /* A penalty card thrown to the trick of a seat I have
                 * business with also widens our difference. */
                int cc = cost_of(k, c);
                if (cc > 0)
                    score -= 0.5 * cc * bb_h_business(t, k->me, trick_top_seat(t));
            } else {
                int winning = (barbu_trick_beaters(t) & BARBU_BIT(c)) != 0;
                score = neg_score(k, c, winning, table, future);
            }
        }
        if (score < best_score - 1e-9) {
            best_score = score;
            best = c;
        }
    }
    return best;
}

/* ------------------------------------------------------------ Trumps */

/* The chance a card of mine wins a trick later when everyone tries to win
 * them: a master card will, unless ruffed; a covered one may. */
static double p_winner(const bb_know *k, int x)
{
    int trump = k->t->trump, suit = BARBU_SUIT(x);
    int low = barbu_count(k->out & bb_h_below(x)), high = barbu_count(k->out & bb_h_above(x));
    int below_mine = barbu_count(k->hand & bb_h_below(x));
    int trumps_out = trump >= 0 ? bb_h_len(k->out, trump) : 0;
    double p;
    if (high == 0)
        p = 0.95;
    else if (below_mine >= high)
        p = 0.9 - 0.1 * high;
    else
        p = 0.3 * low / (low + high + 1.0);
    if (p < 0.0)
        p = 0.0;
    if (suit == trump) {
        if (p < 0.45)
            p = 0.45;
    } else if (trumps_out > 0) {
        int o = low + high;
        p *= o >= 6 ? 0.7 : o >= 3 ? 0.45 : 0.2;
    }
    return p;
}

/* The chance that no seat after me beats card c, given the suit led. */
static double p_hold(const bb_know *k, int c, int led)
{
    int trump = k->t->trump, seats[3];
    int later = later_seats(k, seats);
    int suit = BARBU_SUIT(c);
    int nt = trump >= 0 ? holders(k, trump) : 0;
    int trumps_out = trump >= 0 ? bb_h_len(k->out, trump) : 0;
    double hold = 1.0;
    for (int i = 0; i < later; i++) {
        int s = seats[i];
        double beat;
        if (suit == trump) {
            int high = barbu_count(k->out & bb_h_above(c));
            double has_higher = bb_h_may_hold(k, s, trump) ? 1.0 - bb_h_none_of(high, nt) : 0.0;
            beat = led == trump ? has_higher : p_void(k, s, led) * has_higher;
        } else {
            int high = barbu_count(k->out & bb_h_above(c));
            int n = holders(k, suit);
            double has_higher = bb_h_may_hold(k, s, suit) ? 1.0 - bb_h_none_of(high, n) : 0.0;
            double ruff = 0.0;
            if (trump >= 0 && bb_h_may_hold(k, s, trump))
                ruff = p_void(k, s, suit) * (1.0 - bb_h_none_of(trumps_out, nt));
            beat = has_higher + ruff;
        }
        hold *= 1.0 - (beat > 1.0 ? 1.0 : beat);
    }
    return hold;
}

/* Trumps (and any contract that pays for tricks): win tricks cheaply. */
static int pos_play(const bb_know *k, barbu_cards playable)
{
    const barbu_table *t = k->t;
    const barbu_trick *tr = &t->trick;
    int trump = t->trump;
    double now = -trick_base(k, t->ntricks);
    for (int i = 0; i < tr->n; i++)
        now -= cost_of(k, tr->card[i]);
    double future = -future_trick_cost(k);
    if (future < 1.0)
        future = now > 1.0 ? now : 1.0;
    int trumps_out = trump >= 0 ? bb_h_len(k->out, trump) : 0;
    int my_trumps = trump >= 0 ? bb_h_len(k->hand, trump) : 0;

    int best = bb_h_lowest(playable);
    double best_score = -DBL_MAX;
    for (barbu_cards p = playable; p; p &= p - 1) {
        int c = bb_h_lowest(p), suit = BARBU_SUIT(c);
        double keep = p_winner(k, c) * future, score;
        if (tr->n == 0) {
            double win = p_hold(k, c, suit);
            score = win * (now - cost_of(k, c)) - keep;
            if (suit == trump && trumps_out > 0 && my_trumps >= trumps_out) {
                /* Drawing trumps makes the other masters safe. */
                score += 0.25 * future * (trumps_out < 3 ? trumps_out : 3);
            } else if (suit != trump && my_trumps > 0 && trumps_out > 0 &&
                       bb_h_len(k->hand, suit) == 1) {
                /* A singleton led makes a void to ruff in. */
                score += 0.2 * future;
            }
        } else {
            int led = BARBU_SUIT(tr->card[0]);
            if (barbu_trick_beaters(t) & BARBU_BIT(c))
                score = p_hold(k, c, led) * (now - cost_of(k, c)) - keep;
            else
                score = -keep;
        }
        /* Between equals the lower card. */
        if (score > best_score + 1e-9) {
            best_score = score;
            best = c;
        }
    }
    return best;
}

/* ------------------------------------------------------- Ravage City */

/*
 * Ravage City charges its penalty to whoever ends with the most cards of any
 * one suit.  Each seat's exposure is a soft maximum of its counts by suit (a
 * second suit close to the first is a second way to lose), and my expected
 * share of the penalty is a soft maximum over the seats: the wider the
 * tricks still to come, the flatter it is, so early tricks cost little and
 * late ones a lot.  A card is judged by the share I expect once the trick is
 * taken (by me or by the seat that would win it) less the danger of keeping
 * it: the share a trick it would win later costs.
 */
#define RAV_SUIT_SOFT  1.0  /* how close a second suit must be to count */
#define RAV_SPREAD     0.6  /* the flatness when no card is left to take */
#define RAV_SPREAD_PER 0.15 /* and its growth with each card a seat has yet to take */
#define RAV_DANGER     0.5  /* the weight of a kept card's later tricks */

/* e^x and ln y without the maths library: halving and squaring, and an
 * atanh series after scaling by powers of two; to about 1e-6. */
static double soft_exp(double x)
{
    x = x < -40.0 ? -40.0 : x > 40.0 ? 40.0 : x;
    int halves = 0;
    while (x > 0.25 || x < -0.25) {
        x /= 2.0;
        halves++;
    }
    double e = 1.0 + x * (1.0 + x / 2.0 * (1.0 + x / 3.0 * (1.0 + x / 4.0 * (1.0 + x / 5.0))));
    while (halves-- > 0)
        e *= e;
    return e;
}

static double soft_log(double y)
{
    const double ln2 = 0.69314718055994531;
    int twos = 0;
    if (y <= 0.0)
        return -40.0;
    while (y > 1.5) {
        y /= 2.0;
        twos++;
    }
    while (y < 0.75) {
        y *= 2.0;
        twos--;
    }
    double t = (y - 1.0) / (y + 1.0), t2 = t * t;
    return twos * ln2 + 2.0 * t * (1.0 + t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 * (1.0 / 7 + t2 / 9))));
}

/* The cards of each suit each seat has taken. */
typedef struct rav_counts {
    double n[4][4];
} rav_counts;

static void rav_taken(const bb_know *k, rav_counts *c)
{
    for (int seat = 0; seat < 4; seat++)
        for (int s = 0; s < 4; s++)
            c->n[seat][s] = bb_h_len(k->t->taken[seat], s);
}

/* A seat's exposure: the soft maximum of its counts. */
static double rav_exposure(const double n[4])
{
    double top = n[0];
    for (int s = 1; s < 4; s++)
        top = n[s] > top ? n[s] : top;
    double sum = 0.0;
    for (int s = 0; s < 4; s++)
        sum += soft_exp((n[s] - top) / RAV_SUIT_SOFT);
    return top + RAV_SUIT_SOFT * soft_log(sum);
}

/* My expected share of the penalty when seat w adds the cards add[] (by
 * suit) to the counts, with the given flatness. */
static double rav_share(const bb_know *k, const rav_counts *c, int w, const double add[4],
                        double spread)
{
    double x[4], top = -1e9;
    for (int seat = 0; seat < 4; seat++) {
        double n[4];
        for (int s = 0; s < 4; s++)
            n[s] = c->n[seat][s] + (seat == w ? add[s] : 0.0);
        x[seat] = rav_exposure(n);
        top = x[seat] > top ? x[seat] : top;
    }
    double sum = 0.0, mine = 0.0;
    for (int seat = 0; seat < 4; seat++) {
        double e = soft_exp((x[seat] - top) / spread);
        sum += e;
        if (seat == k->me)
            mine = e;
    }
    return -k->tab.total * mine / sum;
}

/* The flatness once `cards` more cards are taken by the four seats. */
static double rav_spread(int cards)
{
    return RAV_SPREAD + RAV_SPREAD_PER * cards / 4.0;
}

/* What a trick I win later costs me, halfway through the cards to come: a
 * trick of the suit led with a card of another. */
static double rav_future(const bb_know *k, const rav_counts *c, int left)
{
    double spread = rav_spread(left / 2), none[4] = {0}, sum = 0.0;
    double base = rav_share(k, c, k->me, none, spread);
    int suits = 0;
    for (int s = 0; s < 4; s++) {
        if (!(k->out & BARBU_SUIT_CARDS(s)))
            continue;
        double add[4];
        for (int u = 0; u < 4; u++)
            add[u] = u == s ? 3.0 : 1.0 / 3.0;
        sum += rav_share(k, c, k->me, add, spread) - base;
        suits++;
    }
    return suits ? sum / suits : 0.0;
}

static int ravage_play(const bb_know *k, barbu_cards playable)
{
    const barbu_table *t = k->t;
    const barbu_trick *tr = &t->trick;
    rav_counts cnt;
    rav_taken(k, &cnt);
    int left = 0;
    for (int seat = 0; seat < 4; seat++)
        left += t->in_hand[seat];
    double spread = rav_spread(left - (4 - tr->n));
    double future = rav_future(k, &cnt, left);
    int seats[3], later = later_seats(k, seats);

    int best = bb_h_lowest(playable);
    double best_score = DBL_MAX;
    for (barbu_cards p = playable; p; p &= p - 1) {
        int c = bb_h_lowest(p);
        int led = tr->n ? BARBU_SUIT(tr->card[0]) : BARBU_SUIT(c);
        /* The cards of the trick by suit: those down, mine, and what the
         * seats after me are likely to follow with or throw. */
        double add[4] = {0};
        for (int i = 0; i < tr->n; i++)
            add[BARBU_SUIT(tr->card[i])] += 1.0;
        add[BARBU_SUIT(c)] += 1.0;
        barbu_cards other_out = k->out & ~BARBU_SUIT_CARDS(led);
        int n_other = barbu_count(other_out);
        for (int i = 0; i < later; i++) {
            double follow = bb_h_may_hold(k, seats[i], led) ? 1.0 - p_void(k, seats[i], led) : 0.0;
            add[led] += follow;
            for (int s = 0; s < 4 && n_other > 0; s++)
                if (s != led)
                    add[s] += (1.0 - follow) * bb_h_len(other_out, s) / n_other;
        }
        /* Who takes it: the card on top after mine, unless a later seat with
         * a higher card of the suit is forced over it. */
        int top_card, top_seat;
        if (tr->n == 0 || (BARBU_SUIT(c) == led && (barbu_trick_beaters(t) & BARBU_BIT(c)))) {
            top_card = c;
            top_seat = k->me;
        } else {
            top_card = tr->card[barbu_trick_top(t)];
            top_seat = trick_top_seat(t);
        }
        int low = barbu_count(k->out & bb_h_below(top_card));
        int high = barbu_count(k->out & bb_h_above(top_card));
        int over = 0;
        for (int i = 0; i < later; i++)
            over += bb_h_may_hold(k, seats[i], led);
        double hold = p_not_forced(low, high, holders(k, led), over);
        double score = hold * rav_share(k, &cnt, top_seat, add, spread);
        for (int i = 0; i < later; i++)
            if (bb_h_may_hold(k, seats[i], led))
                score += (1.0 - hold) / over * rav_share(k, &cnt, seats[i], add, spread);
        score -= RAV_DANGER * bb_h_p_eventual(k->out, k->hand, c) * future;
        if (score < best_score - 1e-9) {
            best_score = score;
            best = c;
        }
    }
    return best;
}

/* ------------------------------------------------------------ layouts */

/* The cards of a suit beyond a rank in one direction, nearest first:
 * counts of mine and of the others', whether I hold the next one, and how
 * far my farthest one lies. */
typedef struct reach {
    int mine, others, next_mine, far;
} reach;

static reach reach_from(const barbu_rules *rules, barbu_cards hand, barbu_cards out, int suit,
                        int rank, int up)
{
    reach r = {0, 0, 0, 0};
    int dist = 0;
    for (int x = up ? bb_h_step_up(rules, rank) : bb_h_step_down(rules, rank); x != 0;
         x = up ? bb_h_step_up(rules, x) : bb_h_step_down(rules, x)) {
        dist++;
        barbu_cards bit = BARBU_BIT(BARBU_CARD(suit, x));
        if (hand & bit) {
            r.mine++;
            r.far = dist;
            if (dist == 1)
                r.next_mine = 1;
        } else if (out & bit) {
            r.others++;
        }
    }
    return r;
}

/* How good it is to put one card down: it should open my own cards (the
 * next ones above all, then the far ends of my long runs) and not open
 * the others' when I have a choice.  `out` is the cards in the other
 * hands. */
static double layout_card_score(const barbu_rules *rules, const barbu_table *t, barbu_cards hand,
                                barbu_cards out, int card)
{
    int suit = BARBU_SUIT(card), rank = BARBU_RANK(card);
    reach dirs[2];
    int n = 0;
    if (t->lo[suit] == 0) {
        dirs[n++] = reach_from(rules, hand, out, suit, rank, 1);
        dirs[n++] = reach_from(rules, hand, out, suit, rank, 0);
    } else {
        dirs[n++] =
            reach_from(rules, hand, out, suit, rank, rank == bb_h_step_up(rules, t->hi[suit]));
    }
    double score = 0.0;
    for (int i = 0; i < n; i++) {
        const reach *r = &dirs[i];
        score += 3.0 * r->next_mine + 1.0 * r->mine + 0.5 * r->far;
        /* A card that only opens the way for others is a blocker: keep it
         * while something else can be played. */
        if (r->mine == 0)
            score -= 0.5 + 0.4 * r->others;
        else
            score -= 0.1 * r->others;
    }
    return score;
}

int bb_h_layout_card(const barbu_state *s, barbu_cards fits)
{
    int seat = s->t.to_move, best = -1;
    barbu_cards hand = s->hand[seat], out = 0;
    for (int b = 0; b < 4; b++)
        if (b != seat)
            out |= s->hand[b];
    double best_score = -DBL_MAX;
    for (barbu_cards f = fits; f; f &= f - 1) {
        int card = bb_h_lowest(f);
        double score = layout_card_score(s->rules, &s->t, hand, out, card);
        if (score > best_score) {
            best_score = score;
            best = card;
        }
    }
    return best;
}

/* The rule of thumb's score of each legal play (-DBL_MAX for a pass). */
static void layout_scores(const bb_know *k, const barbu_action *legal, int n, double *score)
{
    for (int i = 0; i < n; i++) {
        score[i] = -DBL_MAX;
        if (legal[i].type != BARBU_ACT_PLAY)
            continue;
        score[i] = 0.0;
        for (barbu_cards c = legal[i].cards; c; c &= c - 1)
            score[i] += layout_card_score(k->rules, k->t, k->hand, k->out, bb_h_lowest(c)) + 2.0;
    }
}

static int layout_play(const bb_know *k, const barbu_action *legal, int n)
{
    int best = 0;
    double best_score = -DBL_MAX, score[BARBU_MAX_ACTIONS];
    layout_scores(k, legal, n, score);
    for (int i = 0; i < n; i++) {
        if (legal[i].type != BARBU_ACT_PLAY)
            continue;
        if (score[i] > best_score) {
            best_score = score[i];
            best = i;
        }
    }
    return best;
}

/* The weight of the rule of thumb against the play-outs' mean score, in
 * points a unit of layout_card_score: enough to break near ties. */
#define PATIENCE_PRIOR 2.0

/* The Fife Patience: the play-outs decide, the rule of thumb breaks near
 * ties and stands in when no deal could be sampled. */
static int patience_play(barbu_rng *rng, const bb_know *k, const barbu_action *legal, int n)
{
    double prior[BARBU_MAX_ACTIONS];
    layout_scores(k, legal, n, prior);
    for (int i = 0; i < n; i++)
        prior[i] = prior[i] == -DBL_MAX ? 0.0 : PATIENCE_PRIOR * prior[i];
    int pick = bb_h_patience(k, legal, n, rng, prior);
    return pick >= 0 ? pick : layout_play(k, legal, n);
}

/* ------------------------------------------------------------ dispatch */

int bb_h_rule_card(const barbu_view *view, barbu_cards playable)
{
    bb_know k;
    bb_h_know(view, &k);
    if (view->advice & playable)
        playable &= view->advice;
    if (k.tab.kind == BARBU_KIND_RAVAGE)
        return ravage_play(&k, playable);
    return view->t.kind == BARBU_KIND_TRUMPS || k.tab.total > 0 ? pos_play(&k, playable)
                                                                : neg_play(&k, playable);
}

int bb_h_rule_card_state(const barbu_state *s, const bb_policy *pol, barbu_cards playable)
{
    if (s->t.rule_flags & BARBU_CF_ISRAELI) {
        /* The Israeli rule's advice is the view's. */
        barbu_view v;
        barbu_view_of(s, s->t.to_move, &v);
        return bb_h_rule_card(&v, playable);
    }
    bb_know k;
    bb_h_know_state(s, s->t.to_move, pol, &k);
    if (k.tab.kind == BARBU_KIND_RAVAGE)
        return ravage_play(&k, playable);
    return s->t.kind == BARBU_KIND_TRUMPS || k.tab.total > 0 ? pos_play(&k, playable)
                                                             : neg_play(&k, playable);
}

int bb_h_play(barbu_rng *rng, const barbu_view *view, const barbu_action *legal, int n)
{
    bb_know k;
    bb_h_know(view, &k);
    int kind = view->t.kind;
    if (kind == BARBU_KIND_PATIENCE)
        return patience_play(rng, &k, legal, n);
    if (kind == BARBU_KIND_DOMINO)
        return layout_play(&k, legal, n);
    barbu_cards playable = 0;
    for (int i = 0; i < n; i++)
        if (legal[i].type == BARBU_ACT_PLAY && barbu_count(legal[i].cards) == 1)
            playable |= legal[i].cards;
    if (playable == 0)
        return -1;
    /* The Israeli rule's advice, where given, is followed. */
    if (view->advice & playable)
        playable &= view->advice;
    int card = -1;
    if ((kind == BARBU_KIND_TRICKS || kind == BARBU_KIND_TRUMPS) &&
        k.tricks - view->t.ntricks <= BB_END_TRICKS)
        card = bb_h_endgame(&k, playable, rng);
    if (card < 0 && k.tab.kind == BARBU_KIND_RAVAGE)
        card = ravage_play(&k, playable);
    if (card < 0)
        card = kind == BARBU_KIND_TRUMPS || k.tab.total > 0 ? pos_play(&k, playable)
                                                            : neg_play(&k, playable);
    for (int i = 0; i < n; i++)
        if (legal[i].type == BARBU_ACT_PLAY && legal[i].cards == BARBU_BIT(card))
            return i;
    return -1;
}
