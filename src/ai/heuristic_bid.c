/*
 * heuristic_bid.c - the heuristic player's contract choice and doubling.
 *
 * Both rest on one estimate: the raw score a hand can expect at a contract.
 * The estimate is built from parts that any score table can weigh (tricks
 * taken when all avoid them, the chance of taking each card, the chance of
 * taking the last tricks, tricks won at Trumps, the place at Domino, the
 * share of Ravage City's penalty); the parts are linear in a few hand
 * features, fitted on many simulated deals between heuristic players, with
 * weights of their own for the 32-card pack.  Chinese Poker is estimated
 * from the rows the arranger would set, against the rows others set.
 */
#include <stdlib.h>

#include "internal.h"

#define BARBU_TEN_RANK 10

/* ------------------------------------------------ negative contracts */

/*
 * The features of a hand for a negative contract.  Each one is a cost of
 * the contract's table (its cards, its tricks, its last tricks) times a
 * property of the hand, so that one set of fitted weights serves any table.
 * The card features are kept apart by how many cards score: one (No King),
 * a few (No Queens) or many, in one suit (No Hearts) or across the suits
 * (King's No Boys), which are played differently.
 */
enum { NG_S, NG_HIGH, NG_LOW, NG_LOWEST, NG_VOIDS, NG_SINGLE, NG_N };
enum { NA_HELD, NA_HELD_RISK, NA_HELD_GUARDS, NA_OTHER_SUIT, NA_OTHER_ABOVE, NA_OTHER_LEN, NA_N };
#define NEG_GROUP (1 + NA_N + NG_N)
enum {
    NF_TRICKS,
    NF_LAST,
    NF_GEN,                          /* tricks and last tricks times each NG_ */
    NF_DECLARER = NF_GEN + 2 * NG_N, /* the whole table for the declarer */
    NF_GROUPS,                       /* four groups of NEG_GROUP */
    NF_N = NF_GROUPS + 4 * NEG_GROUP
};

static void neg_features(const barbu_rules *rules, const barbu_contract *c, barbu_cards hand,
                         int declarer, double *f)
{
    barbu_cards deck = bb_h_deck(rules), out = deck & ~hand;
    int tricks = barbu_rules_hand_size(rules), low_rank = rules->deck_low;
    double pe[64], suit_pe[4] = {0}, g[NG_N] = {0};
    int len[4];
    for (int s = 0; s < 4; s++) {
        len[s] = bb_h_len(hand, s);
        g[NG_VOIDS] += len[s] == 0;
        g[NG_SINGLE] += len[s] == 1;
        if (len[s]) {
            int lowest = BARBU_RANK(bb_h_lowest(hand & BARBU_SUIT_CARDS(s)));
            g[NG_LOWEST] += (double)(lowest - low_rank) / (BARBU_ACE - low_rank);
        }
    }
    g[NG_LOWEST] /= 4.0 - g[NG_VOIDS] > 0 ? 4.0 - g[NG_VOIDS] : 1.0;
    for (barbu_cards h = hand; h; h &= h - 1) {
        int x = bb_h_lowest(h), rank = BARBU_RANK(x);
        pe[x] = bb_h_p_eventual(out, hand, x);
        suit_pe[BARBU_SUIT(x)] += pe[x];
        g[NG_S] += pe[x];
        g[NG_HIGH] += rank > BARBU_TEN_RANK ? rank - BARBU_TEN_RANK : 0;
        g[NG_LOW] += rank - low_rank <= 3;
    }
    g[NG_S] /= tricks;
    g[NG_HIGH] /= tricks;
    g[NG_LOW] /= tricks;
    g[NG_VOIDS] /= 4.0;
    g[NG_SINGLE] /= 4.0;

    double cards = 0.0, a[NA_N] = {0};
    int scoring = 0;
    unsigned suits = 0;
    for (barbu_cards d = deck; d; d &= d - 1) {
        int p = bb_h_lowest(d), s = BARBU_SUIT(p);
        double v = -c->card[p];
        if (v == 0.0)
            continue;
        scoring++;
        suits |= 1u << s;
        cards += v;
        if (hand & BARBU_BIT(p)) {
            int guards = barbu_count(hand & bb_h_below(p));
            a[NA_HELD] += v;
            a[NA_HELD_RISK] += v * pe[p];
            a[NA_HELD_GUARDS] += v * (guards < 4 ? guards : 4);
        } else {
            int above = barbu_count(hand & bb_h_above(p));
            a[NA_OTHER_SUIT] += v * suit_pe[s];
            a[NA_OTHER_ABOVE] += v * (above < 3 ? above : 3);
            a[NA_OTHER_LEN] += v * len[s];
        }
    }
    double trick_cost = -(double)c->per_trick * tricks, last_cost = 0.0;
    for (int i = 0; i < tricks && i < BARBU_MAX_TRICKS; i++)
        last_cost -= c->trick_from_end[i];

    for (int i = 0; i < NF_N; i++)
        f[i] = 0.0;
    f[NF_TRICKS] = trick_cost;
    f[NF_LAST] = last_cost;
    for (int i = 0; i < NG_N; i++) {
        f[NF_GEN + 2 * i] = trick_cost * g[i];
        f[NF_GEN + 2 * i + 1] = last_cost * g[i];
    }
    f[NF_DECLARER] = declarer ? trick_cost + last_cost + cards : 0.0;
    int group = scoring <= 1 ? 0 : scoring <= 4 ? 1 : (suits & (suits - 1)) == 0 ? 2 : 3;
    double *grp = f + NF_GROUPS + NEG_GROUP * group;
    grp[0] = cards;
    for (int i = 0; i < NA_N; i++)
        grp[1 + i] = a[i];
    for (int i = 0; i < NG_N; i++)
        grp[1 + NA_N + i] = cards * g[i];
}

/* Fitted on deals of No Tricks, No Hearts, No Queens, No King and No Last
 * Two played between heuristic players: the expected cost (points lost). */
/* clang-format off */
static const double NEG_COEF[NF_N] = {
    /* tricks, last tricks */
     0.0871,  0.3117,
    /* (tricks, last tricks) times NG_S, NG_HIGH, NG_LOW, NG_LOWEST, NG_VOIDS, NG_SINGLE */
     0.5853,  0.4735,  0.0611, -0.1807, -0.2687, -0.4479,
     0.3230,  0.5399, -0.4414, -0.2172, -0.2782, -0.3229,
    /* the declarer */
     0.0039,
    /* one card scores (No King): cards, NA_HELD .. NA_OTHER_LEN, cards times NG_* */
     0.4173,  0.1579, -0.3550, -0.0953, -0.0388,  0.0343, -0.0417,
     0.5893, -0.0476, -0.4266,  0.2640, -0.2678, -0.2625,
    /* up to four (No Queens): cards, NA_HELD .. NA_OTHER_LEN, cards times NG_* */
     0.2085,  0.6266, -0.1975, -0.1637, -0.1347,  0.2693, -0.0406,
     0.5107, -0.0582, -0.1817,  0.2531, -0.3383, -0.2487,
    /* more in one suit (No Hearts): cards, NA_HELD .. NA_OTHER_LEN, cards times NG_* */
     0.4425,  0.1157, -0.6679, -0.0958,  0.0980,  0.1218, -0.1337,
     0.5239, -0.0994, -0.3710,  0.3495, -0.1931, -0.1623,
    /* more across the suits (No Boys, fitted on King's deals alone) */
     0.3435,  0.6606,  0.0619, -0.2441, -0.1869,  0.3675, -0.0825,
     0.5254, -0.1023, -0.1962,  0.1720, -0.2830, -0.2244,
};
/* The same, fitted on deals with the 32-card pack (No Boys is not among
 * its contracts: its group is the 52-card one). */
static const double NEG_COEF_32[NF_N] = {
    /* tricks, last tricks */
     0.0652,  0.2985,
    /* (tricks, last tricks) times NG_S, NG_HIGH, NG_LOW, NG_LOWEST, NG_VOIDS, NG_SINGLE */
     0.4158,  1.0496,  0.0698, -0.2477, -0.0724, -0.1761,
     0.3949,  0.5861, -0.5015, -0.4735, -0.2585, -0.3732,
    /* the declarer */
    -0.0162,
    /* one card scores (No King) */
     0.3941,  0.0898, -0.3503, -0.0691, -0.1078,  0.0425, -0.0207,
     0.8777, -0.1429, -0.1703,  0.3222, -0.5392, -0.3209,
    /* up to four (No Queens) */
    -0.5043,  0.3983,  0.0732,  0.1759, -0.2569,  0.1748,  0.2402,
     0.4767,  0.0855,  0.0552,  0.3541, -0.4105, -0.2166,
    /* more in one suit (No Hearts) */
     0.4084, -0.1179, -0.2308, -0.0236, -0.0096,  0.1319, -0.0885,
     0.8924, -0.1658, -0.1647,  0.4210, -0.5497, -0.3989,
    /* more across the suits */
     0.3435,  0.6606,  0.0619, -0.2441, -0.1869,  0.3675, -0.0825,
     0.5254, -0.1023, -0.1962,  0.1720, -0.2830, -0.2244,
};
/* clang-format on */

/* Whether hands are short (8 cards of the 32-card pack): they play
 * differently, and the estimates have their own fitted weights. */
static int short_pack(const barbu_rules *rules)
{
    return barbu_rules_hand_size(rules) < 13;
}

static double neg_estimate(const barbu_rules *rules, const barbu_contract *c, barbu_cards hand,
                           int declarer)
{
    double f[NF_N], cost = 0.0;
    const double *coef = short_pack(rules) ? NEG_COEF_32 : NEG_COEF;
    neg_features(rules, c, hand, declarer, f);
    for (int i = 0; i < NF_N; i++)
        cost += coef[i] * f[i];
    return -cost;
}

/* ------------------------------------------------------------ Trumps */

/* Hand features for tricks at Trumps with a given trump suit. */
enum { TF_ONE, TF_LENGTH, TF_TOP, TF_SIDE, TF_RUFF, TF_DECLARER, TF_N };

static void trump_features(const barbu_rules *rules, barbu_cards hand, int trump, int declarer,
                           double *f)
{
    barbu_cards out = bb_h_deck(rules) & ~hand;
    int n_trumps = trump >= 0 ? bb_h_len(hand, trump) : 0;
    double top = 0.0, side = 0.0;
    for (barbu_cards h = hand; h; h &= h - 1) {
        int x = bb_h_lowest(h);
        int high = barbu_count(out & bb_h_above(x));
        int below_mine = barbu_count(hand & bb_h_below(x));
        /* A card is a winner when it is the master, or when the hand has
         * enough cards below it to wait for the masters to fall. */
        double w = high == 0 ? 1.0 : below_mine >= high ? 1.0 - 0.25 * high : 0.0;
        if (w < 0.0)
            w = 0.0;
        if (BARBU_SUIT(x) == trump)
            top += w;
        else
            side += w * (bb_h_len(hand, BARBU_SUIT(x)) <= 4 ? 1.0 : 0.7);
    }
    double ruff = 0.0;
    for (int s = 0; s < 4 && trump >= 0; s++)
        if (s != trump && bb_h_len(hand, s) < 2)
            ruff += 2 - bb_h_len(hand, s);
    if (ruff > n_trumps)
        ruff = n_trumps;
    int tricks = barbu_rules_hand_size(rules);
    f[TF_ONE] = tricks / 13.0;
    f[TF_LENGTH] = n_trumps;
    f[TF_TOP] = top;
    f[TF_SIDE] = side;
    f[TF_RUFF] = ruff;
    f[TF_DECLARER] = declarer;
}

/* Fitted on deals of Trumps between heuristic players: tricks taken, with
 * the 52-card and the 32-card pack. */
static const double TRUMP_COEF[TF_N] = {-0.9161, 0.6559, 0.7967, 0.7506, 0.3598, -0.0117};
static const double TRUMP_COEF_32[TF_N] = {-1.1613, 0.6417, 0.8090, 0.5763, 0.0120, 0.2080};

static double trump_tricks(const barbu_rules *rules, barbu_cards hand, int trump, int declarer)
{
    double f[TF_N], t = 0.0;
    const double *coef = short_pack(rules) ? TRUMP_COEF_32 : TRUMP_COEF;
    trump_features(rules, hand, trump, declarer, f);
    for (int i = 0; i < TF_N; i++)
        t += coef[i] * f[i];
    int tricks = barbu_rules_hand_size(rules);
    return t < 0.0 ? 0.0 : t > tricks ? tricks : t;
}

/* ------------------------------------------------------------ Domino */

/* A rank's place in the layout's order, and the rank at a place. */
static int lay_pos(const barbu_rules *rules, int rank)
{
    return rules->domino_ace_low && rank == BARBU_ACE ? rules->deck_low - 1 : rank;
}

static int lay_rank(const barbu_rules *rules, int pos)
{
    return rules->domino_ace_low && pos == rules->deck_low - 1 ? BARBU_ACE : pos;
}

enum { DF_ONE, DF_DIST, DF_WAIT, DF_WORST, DF_START, DF_FIRST, DF_N };

/*
 * The features of a hand for a layout from a start rank: how far its cards
 * lie from the start, and above all how many of the others' cards must be
 * played before its farthest card in each direction of each suit can be.
 */
static void domino_features(const barbu_rules *rules, barbu_cards hand, int rank, int first,
                            double *f)
{
    int start = lay_pos(rules, rank);
    int lo = lay_pos(rules, rules->domino_ace_low ? BARBU_ACE : rules->deck_low);
    int hi = lay_pos(rules, rules->domino_ace_low ? BARBU_KING : BARBU_ACE);
    double dist = 0.0, wait = 0.0, worst = 0.0;
    int n = barbu_count(hand), starts = 0;
    for (int s = 0; s < 4; s++) {
        starts += (hand >> BARBU_CARD(s, rank)) & 1;
        for (int dir = -1; dir <= 1; dir += 2) {
            int w = 0, pending = 0;
            /* The start card itself must come down first. */
            if (!((hand >> BARBU_CARD(s, rank)) & 1))
                pending = 1;
            for (int q = start + dir; q >= lo && q <= hi; q += dir) {
                if ((hand >> BARBU_CARD(s, lay_rank(rules, q))) & 1) {
                    dist += q > start ? q - start : start - q;
                    w += pending;
                    pending = 0;
                } else {
                    pending++;
                }
            }
            wait += w;
            if (w > worst)
                worst = w;
        }
    }
    f[DF_ONE] = 1.0;
    f[DF_DIST] = n ? dist / n : 0.0;
    f[DF_WAIT] = wait;
    f[DF_WORST] = worst;
    f[DF_START] = starts;
    f[DF_FIRST] = first;
}

/* Fitted on deals of Domino between heuristic players: the place out
 * (0 first .. 3 last). */
static const double DOMINO_COEF[DF_N] = {-0.1477, 0.1149, 0.0637, -0.0602, 0.0425, 0.0491};
static const double DOMINO_COEF_32[DF_N] = {-0.1032, 0.4124, 0.0668, -0.0197, -0.0168, 0.0211};

static double domino_place(const barbu_rules *rules, barbu_cards hand, int rank, int first)
{
    double f[DF_N], p = 0.0;
    const double *coef = short_pack(rules) ? DOMINO_COEF_32 : DOMINO_COEF;
    domino_features(rules, hand, rank, first, f);
    for (int i = 0; i < DF_N; i++)
        p += coef[i] * f[i];
    return p < 0.0 ? 0.0 : p > 3.0 ? 3.0 : p;
}

/* The score of a fractional place, between the table's places. */
static double place_score(const barbu_contract *c, double place)
{
    int i = (int)place;
    if (i >= 3)
        return c->place[3];
    double f = place - i;
    return c->place[i] * (1.0 - f) + c->place[i + 1] * f;
}

/* ------------------------------------------------------- Ravage City */

/*
 * The features of a hand for Ravage City, where the penalty goes to the most
 * cards of one suit taken: the tricks the hand must take when all avoid them,
 * how its cards spread over the suits (long suits mean short ones to throw
 * from), its low cards and the lead.
 */
enum { RF_ONE, RF_DECLARER, RF_TRICKS, RF_SQUARES, RF_LOW, RF_N };

static void ravage_features(const barbu_rules *rules, barbu_cards hand, int declarer, double *f)
{
    barbu_cards out = bb_h_deck(rules) & ~hand;
    int tricks = barbu_rules_hand_size(rules), low_rank = rules->deck_low;
    double p = 0.0, low = 0.0, squares = 0.0;
    for (int s = 0; s < 4; s++)
        squares += (double)bb_h_len(hand, s) * bb_h_len(hand, s);
    for (barbu_cards h = hand; h; h &= h - 1) {
        int x = bb_h_lowest(h);
        p += bb_h_p_eventual(out, hand, x);
        low += BARBU_RANK(x) - low_rank <= 3;
    }
    f[RF_ONE] = 1.0;
    f[RF_DECLARER] = declarer;
    f[RF_TRICKS] = p / tricks;
    f[RF_SQUARES] = squares / ((double)tricks * tricks);
    f[RF_LOW] = low / tricks;
}

/* Fitted on deals of Ravage City between heuristic players, with 52 and 32
 * cards: the share of the penalty a hand takes (a quarter on average). */
static const double RAVAGE_COEF[RF_N] = {0.4031, -0.0432, 1.4550, -1.6077, -0.1270};

static double ravage_share(const barbu_rules *rules, barbu_cards hand, int declarer)
{
    double f[RF_N], share = 0.0;
    ravage_features(rules, hand, declarer, f);
    for (int i = 0; i < RF_N; i++)
        share += RAVAGE_COEF[i] * f[i];
    return share < 0.0 ? 0.0 : share > 1.0 ? 1.0 : share;
}

/* ------------------------------------------------------ Chinese Poker */

/* What the independent rows overstate, measured on deals set by the
 * arranger (where the estimate's slope against the units won is 0.99). */
#define CHINESE_BIAS 0.15

/* The units a hand set by the arranger expects against one other player. */
static double chinese_units(barbu_cards hand, int scoop)
{
    barbu_cards back, middle;
    double units = bb_h_arrange(hand, scoop, &back, &middle);
    return back == 0 ? 0.0 : units - CHINESE_BIAS;
}

/* ------------------------------------------------------- the Fife game */

/*
 * The Fife game's Calls (seed 000), each estimated for the Caller with its
 * own weights: a negative Call from the features of the other negative
 * contracts (each card's value held, at risk, guarded; the hand's shape)
 * times the Call's table, plus a bare penalty card and the longest suit; a
 * Patience from how far the hand's cards lie from the Jacks, times the
 * spread of its places.  Fitted on deals played by heuristic players
 * (bench/fife_deals.c, bench/fife_fit.c).
 */
enum {
    FF_TOTAL,              /* the Call's whole cost; a Patience: its spread of places */
    FF_HELD,               /* penalty cards held */
    FF_RISK,               /* ... times the chance they win a trick */
    FF_GUARDS,             /* ... times the cards below them */
    FF_BARE,               /* ... with no card below them */
    FF_OTHER,              /* penalty cards of others times my cards' chances in the suit */
    FF_ABOVE,              /* ... times my cards above them */
    FF_LEN,                /* ... times my length in the suit */
    FF_G,                  /* the cost times each NG_ property of the hand */
    FF_LONG = FF_G + NG_N, /* the cost times the longest suit's share */
    FIFE_F_N
};
enum { FP_DIST = 1, FP_WAIT, FP_WORST, FP_JACKS, FP_TERMINALS, FP_NEAR };

static void fife_features(const barbu_rules *rules, int contract, barbu_cards hand, double *f)
{
    const barbu_contract *c = &rules->contract[contract];
    for (int i = 0; i < FIFE_F_N; i++)
        f[i] = 0.0;
    if (c->kind == BARBU_KIND_PATIENCE) {
        double d[DF_N], spread = c->place[0] - c->place[3];
        domino_features(rules, hand, c->fixed_rank, 0, d);
        int terminals = 0, near = 0;
        for (int s = 0; s < 4; s++) {
            terminals += (int)((hand >> BARBU_CARD(s, BARBU_ACE)) & 1) +
                         (int)((hand >> BARBU_CARD(s, rules->deck_low)) & 1);
            near += (int)((hand >> BARBU_CARD(s, c->fixed_rank + 1)) & 1) +
                    (int)((hand >> BARBU_CARD(s, c->fixed_rank - 1)) & 1);
        }
        f[FF_TOTAL] = spread;
        f[FP_DIST] = spread * d[DF_DIST];
        f[FP_WAIT] = spread * d[DF_WAIT];
        f[FP_WORST] = spread * d[DF_WORST];
        f[FP_JACKS] = spread * d[DF_START];
        f[FP_TERMINALS] = spread * terminals;
        f[FP_NEAR] = spread * near;
        return;
    }
    double nf[NF_N];
    neg_features(rules, c, hand, 1, nf);
    barbu_cards deck = bb_h_deck(rules);
    int tricks = barbu_rules_hand_size(rules), longest = 0;
    double cards = 0.0, bare = 0.0;
    for (int s = 0; s < 4; s++)
        longest = bb_h_len(hand, s) > longest ? bb_h_len(hand, s) : longest;
    for (barbu_cards d = deck; d; d &= d - 1) {
        int p = bb_h_lowest(d);
        cards -= c->card[p];
        if ((hand & BARBU_BIT(p)) && !(hand & bb_h_below(p)))
            bare -= c->card[p];
    }
    double total = cards - (double)c->per_trick * tricks;
    /* neg_features keeps each count of scoring cards in its own group. */
    int scoring = 0;
    unsigned suits = 0;
    for (barbu_cards d = deck; d; d &= d - 1)
        if (c->card[bb_h_lowest(d)] != 0) {
            scoring++;
            suits |= 1u << BARBU_SUIT(bb_h_lowest(d));
        }
    int group = scoring <= 1 ? 0 : scoring <= 4 ? 1 : (suits & (suits - 1)) == 0 ? 2 : 3;
    const double *grp = nf + NF_GROUPS + NEG_GROUP * group;
    f[FF_TOTAL] = total;
    f[FF_HELD] = grp[1 + NA_HELD];
    f[FF_RISK] = grp[1 + NA_HELD_RISK];
    f[FF_GUARDS] = grp[1 + NA_HELD_GUARDS];
    f[FF_BARE] = bare;
    f[FF_OTHER] = grp[1 + NA_OTHER_SUIT];
    f[FF_ABOVE] = grp[1 + NA_OTHER_ABOVE];
    f[FF_LEN] = grp[1 + NA_OTHER_LEN];
    /* The hand's shape (the NG_ properties), read back from the features
     * that carry it: the tricks' when tricks cost, else the cards'. */
    for (int i = 0; i < NG_N; i++) {
        double g = nf[NF_TRICKS] != 0.0 ? nf[NF_GEN + 2 * i] / nf[NF_TRICKS]
                   : cards > 0.0        ? grp[1 + NA_N + i] / cards
                                        : 0.0;
        f[FF_G + i] = total * g;
    }
    f[FF_LONG] = total * longest / tricks;
}

/* clang-format off */
static const double FIFE_COEF[6][FIFE_F_N] = {
    /* aces */
    { -0.0629,  -0.2764,  -0.7865,   0.1290,   0.1165,   0.0182,   0.0000,  -0.0754,  -0.5232,   0.1041,   0.1287,  -0.2547,   0.4857,   0.2595,   0.0166},
    /* king-hearts */
    { -0.1825,  -0.3756,   0.2379,   0.0885,  -0.3666,   0.0798,  -0.1507,   0.0352,  -0.4002,   0.0825,   0.0563,  -0.3290,   0.3045,   0.1745,  -0.0255},
    /* queens */
    {  0.0210,  -0.2135,   0.2115,  -0.0418,  -0.2388,   0.1005,  -0.1629,  -0.0286,  -0.5380,   0.0070,   0.0029,  -0.3086,   0.3695,   0.1581,   0.1272},
    /* hearts */
    { -0.1557,   0.2253,   0.8905,  -0.0848,  -1.1207,  -0.3812,  -0.1271,   0.1650,  -0.3172,   0.0495,  -0.0084,  -0.3126,   0.2713,   0.1469,   0.0550},
    /* tricks */
    { -0.0662,   0.0000,   0.0000,   0.0000,   0.0000,   0.0000,   0.0000,   0.0000,  -0.4237,  -0.0673,   0.0563,  -0.3806,   0.4501,   0.2062,   0.0917},
    /* patience */
    {  1.0852,  -0.2310,  -0.0049,  -0.0434,   0.0389,  -0.0351,   0.0250,   0.0000,   0.0000,   0.0000,   0.0000,   0.0000,   0.0000,   0.0000,   0.0000},
};
/* clang-format on */

double bb_h_fife_estimate(const barbu_rules *rules, int contract, barbu_cards hand)
{
    double f[FIFE_F_N], v = 0.0;
    fife_features(rules, contract, hand, f);
    const double *w = FIFE_COEF[contract < 5 ? contract : 5];
    for (int i = 0; i < FIFE_F_N; i++)
        v += w[i] * f[i];
    return v;
}

/* ------------------------------------------------------------ estimates */

double bb_h_estimate(const barbu_rules *rules, int contract, barbu_cards hand, int trump, int rank,
                     int declarer)
{
    const barbu_contract *c = &rules->contract[contract];
    switch (c->kind) {
    case BARBU_KIND_TRUMPS:
        return c->per_trick * trump_tricks(rules, hand, trump < 0 ? 0 : trump, declarer);
    case BARBU_KIND_DOMINO:
    case BARBU_KIND_PATIENCE: {
        int r = c->kind == BARBU_KIND_PATIENCE ? c->fixed_rank : rank;
        int first = declarer && rules->domino_first == BARBU_FIRST_DECLARER;
        return place_score(c, domino_place(rules, hand, r ? r : BARBU_JACK, first));
    }
    case BARBU_KIND_TRICKS:
        if (barbu_contract_total(rules, contract) <= 0)
            return neg_estimate(rules, c, hand, declarer);
        /* A contract that pays for tricks without trumps. */
        return c->per_trick * trump_tricks(rules, hand, -1, declarer);
    case BARBU_KIND_RAVAGE:
        return c->shared * ravage_share(rules, hand, declarer);
    case BARBU_KIND_CHINESE:
        /* Against each of the three others. */
        return 3.0 * c->per_row * chinese_units(hand, c->scoop);
    default:
        return barbu_contract_total(rules, contract) / 4.0;
    }
}

/* What a declarer can expect from a contract with a hand dealt at random:
 * the share of the total, and the edge of naming trumps or the start rank
 * to suit the hand (measured in the same simulations). */
#define TRUMP_DECLARER_TRICKS    4.56
#define DOMINO_DECLARER_PLACE    1.25
#define TRUMP_DECLARER_TRICKS_32 3.18 /* of 8 */
#define DOMINO_DECLARER_PLACE_32 1.18

double bb_h_baseline(const barbu_rules *rules, int contract)
{
    const barbu_contract *c = &rules->contract[contract];
    int tricks = barbu_rules_hand_size(rules);
    switch (c->kind) {
    case BARBU_KIND_TRUMPS:
        if (short_pack(rules))
            return c->per_trick * TRUMP_DECLARER_TRICKS_32 * tricks / 8.0;
        return c->per_trick * TRUMP_DECLARER_TRICKS * tricks / 13.0;
    case BARBU_KIND_DOMINO:
        return place_score(c, short_pack(rules) ? DOMINO_DECLARER_PLACE_32 : DOMINO_DECLARER_PLACE);
    default:
        return barbu_contract_total(rules, contract) / 4.0;
    }
}

/* ------------------------------------------------------------ declaring */

int bb_h_declare(const barbu_view *view, const barbu_action *legal, int n)
{
    const barbu_rules *rules = view->rules;
    if (rules->game == BARBU_GAME_FIFE)
        return bb_h_fife_declare(view, legal, n);
    barbu_cards hand = view->hand[view->seat];
    int best = -1;
    double best_gain = -1e18;
    for (int i = 0; i < n; i++) {
        const barbu_action *a = &legal[i];
        if (a->type != BARBU_ACT_DECLARE)
            continue;
        double gain = 0.0;
        for (unsigned m = a->contracts; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            gain += bb_h_estimate(rules, c, hand, a->trump, a->rank, 1) - bb_h_baseline(rules, c);
        }
        if (gain > best_gain) {
            best_gain = gain;
            best = i;
        }
    }
    return best;
}

/* ------------------------------------------------------------ doubling */

/* The contracts a declarer has still to name, the current one included. */
static int contracts_left(const barbu_view *view, int declarer)
{
    int left = barbu_rules_deals(view->rules) / 4 - view->t.declared[declarer];
    if (view->t.phase == BARBU_PHASE_BID)
        left++;
    return left;
}

/* How much a declarer beats the average, for choosing the contract, and
 * how much a seat that doubled of its own will beats it, as fractions of the
 * deal's spread of scores. */
#define DECLARER_EDGE        0.08
#define TRUMPS_EDGE          0.30
#define DOMINO_EDGE          0.30
#define CHINESE_EDGE         0.20
#define DOUBLER_EDGE         0.06
/* At Chinese Poker a seat that doubles the declarer of its own will holds
 * rows it can see are strong: it expects far more than elsewhere. */
#define CHINESE_DOUBLER_EDGE 0.35
#define DOUBLE_MARGIN        0.0
#define OWED_PUSH            0.2
#define REDOUBLE_MARGIN      0.05

double bb_h_owed_push(const barbu_view *view, double weight)
{
    int owed = barbu_view_owed(view, view->seat);
    if (owed <= 0)
        return 0.0;
    int slack = contracts_left(view, view->t.declarer) - owed;
    return weight * owed / (slack + 1.0);
}

/* How the heuristic reads a bid (bb_h_bid, and the expert's model of the
 * others' bids): what the hand expects against each seat, and what a
 * double or redouble of each must gain. */
void bb_h_bid_read(const barbu_view *view, const barbu_action *legal, int n, bb_bid_read *out)
{
    const barbu_table *t = &view->t;
    const barbu_rules *rules = view->rules;
    int me = view->seat, decl = t->declarer;
    barbu_cards hand = view->hand[me];

    bb_tables tab;
    bb_h_tables(rules, t->contracts, &tab);
    double mine = 0.0;
    for (unsigned m = t->contracts; m; m &= m - 1)
        mine += bb_h_estimate(rules, __builtin_ctz(m), hand, t->trump, t->rank, me == decl);
    int negative = tab.total < 0;
    double spread = abs(tab.total);
    if (tab.kind == BARBU_KIND_DOMINO || tab.kind == BARBU_KIND_PATIENCE)
        spread = tab.place[0] - tab.place[3];
    if (tab.kind == BARBU_KIND_CHINESE) {
        /* Zero-sum: the most one player can win from the other three. */
        spread = 0.0;
        for (unsigned m = t->contracts; m; m &= m - 1) {
            const barbu_contract *c = &rules->contract[__builtin_ctz(m)];
            spread += 3.0 * c->per_row * (3 + c->scoop);
        }
    }
    if (spread < 1.0)
        spread = 1.0;
    double avg = tab.total / 4.0;

    /* What each other seat may expect. */
    double expect[4];
    /* The declarer chose the contract for the hand: the more contracts
     * there were to choose from, the better it suits. */
    double edge = tab.kind == BARBU_KIND_TRUMPS    ? TRUMPS_EDGE
                  : tab.kind == BARBU_KIND_DOMINO  ? DOMINO_EDGE
                  : tab.kind == BARBU_KIND_CHINESE ? CHINESE_EDGE
                                                   : DECLARER_EDGE;
    double decl_expect = avg + edge * spread * (contracts_left(view, decl) - 1) / 3.0;
    for (int s = 0; s < 4; s++) {
        if (s == me)
            expect[s] = mine;
        else if (s == decl)
            expect[s] = decl_expect;
        else if (me == decl)
            expect[s] = (tab.total - mine) / 3.0;
        else
            expect[s] = (tab.total - mine - decl_expect) / 2.0;
    }
    /* A seat that doubled of its own will (not to pay an owed double)
     * thinks it is strong. */
    for (int s = 0; s < 4; s++) {
        if (s == me || !((t->bids >> s) & 1) || t->dbl[s] == 0)
            continue;
        int paid = (t->dbl[s] >> decl) & 1;
        int owed_before = t->owed[s][decl] + paid;
        int forced = paid && owed_before >= contracts_left(view, decl);
        if (!forced)
            expect[s] +=
                (tab.kind == BARBU_KIND_CHINESE ? CHINESE_DOUBLER_EDGE : DOUBLER_EDGE) * spread;
    }

    unsigned may_double = 0, may_redouble = 0, must = 0xf;
    for (int i = 0; i < n; i++) {
        may_double |= legal[i].doubles;
        may_redouble |= legal[i].redoubles;
        must &= legal[i].doubles;
    }
    out->may_double = may_double;
    out->may_redouble = may_redouble;
    out->must = n > 0 ? must : 0;
    out->negative = negative;
    out->spread = spread;
    out->mine = mine;
    out->total = tab.total;
    double margin = DOUBLE_MARGIN * spread;
    for (int s = 0; s < 4; s++) {
        out->gain[s] = mine - expect[s];
        out->need_double[s] = margin;
        /* An owed double is best paid on a hand that suits the contract,
         * before one is forced on a bad hand. */
        if (s == decl)
            out->need_double[s] -= bb_h_owed_push(view, OWED_PUSH * spread);
        out->need_redouble[s] = margin + REDOUBLE_MARGIN * spread;
    }
}

int bb_h_bid(const barbu_view *view, const barbu_action *legal, int n)
{
    const barbu_table *t = &view->t;
    int me = view->seat, decl = t->declarer;
    bb_bid_read rd;
    bb_h_bid_read(view, legal, n, &rd);
    unsigned may_double = rd.may_double, may_redouble = rd.may_redouble, must = rd.must;
    double spread = rd.spread, mine = rd.mine, margin = DOUBLE_MARGIN * spread;
    int negative = rd.negative;
    const barbu_rules *rules = view->rules;

    unsigned want_d = 0, want_r = 0;
    for (int s = 0; s < 4; s++) {
        if (((may_double >> s) & 1) && rd.gain[s] > rd.need_double[s])
            want_d |= 1u << s;
        if (((may_redouble >> s) & 1) && rd.gain[s] > rd.need_redouble[s])
            want_r |= 1u << s;
    }
    /* An undoubled negative contract is shared out without play: a hand
     * better than its share wants it played. */
    if (negative && rules->undoubled_shared && want_d == 0 && me != decl) {
        unsigned any = t->dbl[0] | t->dbl[1] | t->dbl[2] | t->dbl[3];
        int last = ((me + 1) & 3) == decl;
        double share = rd.total / 3.0;
        if (any == 0 && last && mine > share + margin) {
            int target = -1;
            double top = -1e18;
            for (int s = 0; s < 4; s++) {
                if (((may_double >> s) & 1) && rd.gain[s] > top) {
                    top = rd.gain[s];
                    target = s;
                }
            }
            if (target >= 0 && (mine - share) + top > margin)
                want_d |= 1u << target;
        }
    }
    want_d |= must;

    for (int i = 0; i < n; i++)
        if (legal[i].doubles == want_d && legal[i].redoubles == want_r)
            return i;
    /* Not offered as a whole: the legal bid nearest to it. */
    int best = 0, best_miss = 99;
    for (int i = 0; i < n; i++) {
        int miss = barbu_count((barbu_cards)((legal[i].doubles ^ want_d) |
                                             ((unsigned)(legal[i].redoubles ^ want_r) << 4)));
        if (miss < best_miss) {
            best_miss = miss;
            best = i;
        }
    }
    return best;
}
