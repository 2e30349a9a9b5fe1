/*
 * state.c - a game from its first draw to its last deal: the schedule of
 * declarers, dealing, the phases of a deal and the apply that moves between
 * them.  Legality lives in play.c and doubling.c, scores in scoring.c.
 */
#include <assert.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "internal.h"

/* Deals each player declares in a game. */
static int per_declarer(const barbu_rules *r)
{
    return bb_rules_deals(r) / 4;
}

/* The packs of 52 and 32 cards in order, lowest card first. */
#define RANKS_FROM_7(suit)                                                                         \
    BARBU_CARD(suit, 7), BARBU_CARD(suit, 8), BARBU_CARD(suit, 9), BARBU_CARD(suit, 10),           \
        BARBU_CARD(suit, 11), BARBU_CARD(suit, 12), BARBU_CARD(suit, 13), BARBU_CARD(suit, 14)
#define RANKS_FROM_2(suit)                                                                         \
    BARBU_CARD(suit, 2), BARBU_CARD(suit, 3), BARBU_CARD(suit, 4), BARBU_CARD(suit, 5),            \
        BARBU_CARD(suit, 6), RANKS_FROM_7(suit)
static const barbu_card PACK_52[52] = {RANKS_FROM_2(0), RANKS_FROM_2(1), RANKS_FROM_2(2),
                                       RANKS_FROM_2(3)};
static const barbu_card PACK_32[32] = {RANKS_FROM_7(0), RANKS_FROM_7(1), RANKS_FROM_7(2),
                                       RANKS_FROM_7(3)};

/* The pack in order, lowest card first: the cards of bb_deck. */
static int pack_of(const barbu_rules *r, barbu_card *cards)
{
    if (r->deck_low == 2) {
        memcpy(cards, PACK_52, sizeof PACK_52);
        return 52;
    }
    if (r->deck_low == 7) {
        memcpy(cards, PACK_32, sizeof PACK_32);
        return 32;
    }
    int n = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = r->deck_low; rank <= BARBU_ACE; rank++)
            cards[n++] = BARBU_CARD(suit, rank);
    return n;
}

void bb_shuffle(bb_stream *st, barbu_card *cards, int n)
{
    /* The seeded loop on its own, as fast as before keys existed. */
    if (st->key == NULL) {
        for (int i = n - 1; i > 0; i--) {
            int j = (int)barbu_rng_below(&st->rng, (uint32_t)i + 1);
            barbu_card tmp = cards[i];
            cards[i] = cards[j];
            cards[j] = tmp;
        }
        return;
    }
    for (int i = n - 1; i > 0; i--) {
        int j = (int)bb_stream_keyed_below(st, (uint32_t)i + 1);
        barbu_card tmp = cards[i];
        cards[i] = cards[j];
        cards[j] = tmp;
    }
}

/* Players draw for high card: each a card of the shuffled pack, and the
 * players tied for the highest value draw again from what is left of it
 * (reshuffled when it runs out).  The first round's cards go in first[]
 * (may be NULL) for the table to show.  Returns the seat that won. */
int bb_draw_high(bb_stream *st, barbu_card *pack, int n, int (*value)(barbu_card), uint8_t first[4])
{
    int next = n;
    unsigned contenders = 0xf;
    for (;;) {
        int best = -1;
        unsigned best_set = 0;
        for (int seat = 0; seat < 4; seat++) {
            if (!(contenders & (1u << seat)))
                continue;
            if (next == n) {
                bb_shuffle(st, pack, n);
                next = 0;
            }
            barbu_card card = pack[next++];
            if (first != NULL && contenders == 0xf)
                first[seat] = card;
            int v = value(card);
            if (v > best) {
                best = v;
                best_set = 1u << seat;
            } else if (v == best) {
                best_set |= 1u << seat;
            }
        }
        if ((best_set & (best_set - 1)) == 0)
            return __builtin_ctz(best_set);
        contenders = best_set;
    }
}

static int rank_value(barbu_card card)
{
    return BARBU_RANK(card);
}

/* The first declarer: the highest rank of the game's pack (seed 004). */
static int draw_first(const barbu_state *s)
{
    bb_stream st;
    bb_stream_open(&st, s, BB_SEED_DRAW, 0);
    barbu_card pack[52];
    int n = pack_of(s->rules, pack);
    return bb_draw_high(&st, pack, n, rank_value, NULL);
}

/* A seeded deal: bb_shuffle's loop, each card handed out as soon as the
 * shuffle has put it in its place (the cards from the top of the pack down:
 * a card's place is final once the loop has passed it), into hands by place
 * in the round of four. */
static void deal_seeded(barbu_rng rng_in, barbu_card *pack, int n, barbu_cards by_place[4])
{
    /* The generator a local: through a pointer it would be stored and read
     * again around every card written to the pack (a char may alias it). */
    barbu_rng r = rng_in, *rng = &r;
    barbu_cards h0 = 0, h1 = 0, h2 = 0, h3 = 0;
    /* n is 52 or 32: the top card is the fourth of a round. */
    for (int i = n - 1; i >= 3; i -= 4) {
        int j = (int)barbu_rng_below(rng, (uint32_t)i + 1);
        h3 |= BARBU_BIT(pack[j]);
        pack[j] = pack[i];
        j = (int)barbu_rng_below(rng, (uint32_t)i);
        h2 |= BARBU_BIT(pack[j]);
        pack[j] = pack[i - 1];
        j = (int)barbu_rng_below(rng, (uint32_t)i - 1);
        h1 |= BARBU_BIT(pack[j]);
        pack[j] = pack[i - 2];
        if (i > 3) {
            j = (int)barbu_rng_below(rng, (uint32_t)i - 2);
            h0 |= BARBU_BIT(pack[j]);
            pack[j] = pack[i - 3];
        }
    }
    by_place[0] = h0 | BARBU_BIT(pack[0]);
    by_place[1] = h1;
    by_place[2] = h2;
    by_place[3] = h3;
}

void barbu_dealt_hands(const barbu_state *s, int deal, int dealer, barbu_cards hands[4])
{
    bb_stream st;
    bb_stream_open(&st, s, BB_SEED_DEAL, deal);
    barbu_card pack[52];
    int n = pack_of(s->rules, pack);
    barbu_cards by_place[4] = {0};
    if (st.key == NULL && n % 4 == 0) {
        deal_seeded(st.rng, pack, n, by_place);
    } else {
        bb_shuffle(&st, pack, n);
        for (int k = 0; k < n; k++)
            by_place[k & 3] |= BARBU_BIT(pack[k]);
    }
    /* One card at a time from the dealer's left. */
    for (int k = 0; k < 4; k++)
        hands[(dealer + 1 + k) & 3] = by_place[k];
}

/* Deals the pack one card at a time from the dealer's left. */
static void deal_hands(barbu_state *s)
{
    barbu_dealt_hands(s, s->t.deal, s->t.dealer, s->hand);
    memcpy(s->dealt, s->hand, sizeof s->hand);
}

/* The play of the deal as before its first card: the hands full, nothing
 * played, taken or shown, no trick and no layout. */
static void clear_play(barbu_state *s)
{
    barbu_table *t = &s->t;
    memset(&t->trick, 0, sizeof t->trick);
    memset(&t->last_trick, 0, sizeof t->last_trick);
    t->ntricks = 0;
    memset(t->tricks, 0, sizeof t->tricks);
    memset(t->winner, -1, sizeof t->winner);
    for (int seat = 0; seat < 4; seat++)
        t->in_hand[seat] = (uint8_t)barbu_count(s->hand[seat]);
    memset(t->played, 0, sizeof t->played);
    memset(t->shown_out, 0, sizeof t->shown_out);
    memset(t->taken, 0, sizeof t->taken);
    memset(t->lo, 0, sizeof t->lo);
    memset(t->hi, 0, sizeof t->hi);
    memset(t->out, 0, sizeof t->out);
    t->n_out = 0;
    t->passes = 0;
}

static void start_deal(barbu_state *s)
{
    barbu_table *t = &s->t;
    const barbu_rules *r = s->rules;
    int d = t->deal;
    if (r->game == BARBU_GAME_FIFE) {
        bb_fife_roles(s);
    } else {
        if (r->rotation == BARBU_ROTATE_BLOCK)
            t->declarer = (uint8_t)((t->first + d / per_declarer(r)) & 3);
        else
            t->declarer = (uint8_t)((t->first + d) & 3);
        t->dealer = (uint8_t)((t->declarer + 3) & 3);
    }
    deal_hands(s);

    t->phase = BARBU_PHASE_DECLARE;
    t->to_move = (int8_t)t->declarer;
    t->acted = 0;
    t->kind = 0;
    t->contracts = 0;
    t->trump = -1;
    t->rank = 0;
    t->rule_flags = 0;
    t->penalty = 0;
    t->bids = 0;
    memset(t->dbl, 0, sizeof t->dbl);
    memset(t->rdbl, 0, sizeof t->rdbl);
    clear_play(s);
    t->n_cuts = 0;
    memset(t->cuts, 0, sizeof t->cuts);
    t->n_pass_ons = 0;
    t->arranged = 0;
    memset(s->pending, 0, sizeof s->pending);
    if (r->game == BARBU_GAME_FIFE)
        bb_fife_open(s);
}

int barbu_seed_parse(const char *text, uint64_t *seed)
{
    uint64_t v = 0;
    if (text == NULL || *text == '\0')
        return BARBU_EINVAL;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return BARBU_EINVAL;
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return BARBU_EINVAL;
        v = v * 10 + d;
    }
    *seed = v;
    return 0;
}

static int init(barbu_state *state, const barbu_rules *rules, uint64_t seed, const uint8_t *key)
{
    if (state == NULL || rules == NULL)
        return BARBU_EINVAL;
    int err = barbu_rules_check(rules, NULL);
    if (err != 0)
        return err;
    memset(state, 0, sizeof *state);
    state->rules = rules;
    state->seed = seed;
    if (key != NULL) {
        state->keyed = true;
        memcpy(state->key, key, sizeof state->key);
    }
    barbu_table *t = &state->t;
    t->n_deals = (uint16_t)barbu_rules_deals(rules);
    if (rules->doubling) {
        for (int s = 0; s < 4; s++)
            for (int d = 0; d < 4; d++)
                t->owed[s][d] = s == d ? 0 : rules->mandatory_doubles;
    }
    if (rules->game == BARBU_GAME_FIFE)
        t->first = (uint8_t)bb_fife_draw(state, 0, t->draw);
    else
        t->first = (uint8_t)draw_first(state);
    start_deal(state);
    return 0;
}

int barbu_init(barbu_state *state, const barbu_rules *rules, uint64_t seed)
{
    return init(state, rules, seed, NULL);
}

int barbu_init_keyed(barbu_state *state, const barbu_rules *rules,
                     const uint8_t key[BARBU_KEY_BYTES])
{
    if (key == NULL)
        return BARBU_EINVAL;
    return init(state, rules, 0, key);
}

int barbu_set_hands(barbu_state *state, const barbu_cards hands[4])
{
    barbu_table *t = &state->t;
    if (t->phase == BARBU_PHASE_OVER)
        return BARBU_EOVER;
    if (t->acted != 0)
        return BARBU_EPHASE;
    if (barbu_hands_check(state->rules, hands, NULL, 0) != 0)
        return BARBU_EHANDS;
    int size = barbu_rules_hand_size(state->rules);
    memcpy(state->hand, hands, sizeof state->hand);
    memcpy(state->dealt, hands, sizeof state->dealt);
    for (int s = 0; s < 4; s++)
        t->in_hand[s] = (uint8_t)size;
    return 0;
}

int barbu_set_first(barbu_state *state, int seat)
{
    barbu_table *t = &state->t;
    if (seat < 0 || seat > 3)
        return BARBU_EINVAL;
    bool silly_start = state->rules->game == BARBU_GAME_FIFE && t->round == BARBU_SILLY_ROUND &&
                       t->round_deal == 0;
    if ((t->deal != 0 && !silly_start) || t->acted != 0 || t->phase == BARBU_PHASE_OVER)
        return BARBU_EPHASE;
    barbu_cards hands[4];
    memcpy(hands, state->hand, sizeof hands);
    uint8_t forced[sizeof state->forced_cuts], n_forced = state->n_forced;
    memcpy(forced, state->forced_cuts, sizeof forced);
    if (silly_start)
        t->silly_first = (uint8_t)seat;
    else
        t->first = (uint8_t)seat;
    /* The seat was chosen, not drawn: no draw to show. */
    memset(t->draw, 0, sizeof t->draw);
    start_deal(state);
    memcpy(state->forced_cuts, forced, sizeof forced);
    state->n_forced = n_forced;
    /* The hands stay as they were: only the roles move. */
    memcpy(state->hand, hands, sizeof hands);
    memcpy(state->dealt, hands, sizeof hands);
    return 0;
}

/* --------------------------------------------------------------- phases */

static void finish_deal(barbu_state *s, bool played)
{
    barbu_table *t = &s->t;
    const barbu_rules *r = s->rules;
    barbu_result *res = &t->last;
    memset(res, 0, sizeof *res);
    res->deal = t->deal;
    res->declarer = t->declarer;
    res->played = played;
    res->contracts = t->contracts;
    res->trump = t->trump;
    res->rank = t->rank;
    memcpy(res->dbl, t->dbl, sizeof res->dbl);
    memcpy(res->rdbl, t->rdbl, sizeof res->rdbl);
    memcpy(res->tricks, t->tricks, sizeof res->tricks);
    memcpy(res->order, t->out, sizeof res->order);
    memcpy(res->taken, t->taken, sizeof res->taken);
    if (played && t->kind == BARBU_KIND_CHINESE) {
        for (int seat = 0; seat < 4; seat++) {
            res->rows[seat][BARBU_ROW_BACK] = s->pending[seat][0];
            res->rows[seat][BARBU_ROW_MIDDLE] = s->pending[seat][1];
            res->rows[seat][BARBU_ROW_FRONT] =
                s->hand[seat] & ~s->pending[seat][0] & ~s->pending[seat][1];
        }
    }
    if (played) {
        if (t->kind == BARBU_KIND_TRICKS || t->kind == BARBU_KIND_TRUMPS)
            res->tricks_left = (uint8_t)(barbu_rules_hand_size(r) - t->ntricks);
        bb_score_deal(r, t, res);
    } else {
        bb_share_undoubled(r, t, res);
    }
    barbu_settle(res->dbl, res->rdbl, res->raw, res->score);
    for (int seat = 0; seat < 4; seat++)
        t->total[seat] += res->score[seat];

    bool over = false;
    if (r->game == BARBU_GAME_FIFE) {
        res->set = t->set;
        res->round = t->round;
        res->round_deal = t->round_deal;
        res->calls_before = t->calls_done;
        res->piranha = t->piranha;
        over = bb_fife_next(s);
    }
    t->deal++;
    if (over || t->deal >= t->n_deals) {
        t->phase = BARBU_PHASE_OVER;
        t->to_move = -1;
        t->acted = 0;
        return;
    }
    start_deal(s);
}

void bb_start_play(barbu_state *s)
{
    barbu_table *t = &s->t;
    const barbu_rules *r = s->rules;
    if (t->kind == BARBU_KIND_CHINESE) {
        /* The rows are set in turn from the declarer's left and shown
         * together once all four are set, as if set at once. */
        t->phase = BARBU_PHASE_ARRANGE;
        t->to_move = (int8_t)bb_next_seat(t->declarer);
        return;
    }
    t->phase = BARBU_PHASE_PLAY;
    int first;
    if (t->kind == BARBU_KIND_DOMINO || t->kind == BARBU_KIND_PATIENCE)
        first = r->domino_first == BARBU_FIRST_LEFT ? bb_next_seat(t->declarer) : t->declarer;
    else
        first = r->first_lead == BARBU_FIRST_LEFT ? bb_next_seat(t->declarer) : t->declarer;
    t->trick.leader = (uint8_t)first;
    t->trick.n = 0;
    t->to_move = (int8_t)first;
}

int barbu_state_first_trick(const barbu_view *view, const barbu_cards hands[4], barbu_state *out)
{
    int err = barbu_state_from_view(view, hands, out);
    if (err != 0)
        return err;
    barbu_table *t = &out->t;
    if (t->phase != BARBU_PHASE_PLAY ||
        (t->kind != BARBU_KIND_TRICKS && t->kind != BARBU_KIND_TRUMPS) || t->n_pass_ons != 0)
        return BARBU_EPHASE;
    int plays = 0;
    for (int seat = 0; seat < 4; seat++) {
        plays += barbu_count(t->played[seat]);
        out->hand[seat] = out->dealt[seat];
    }
    clear_play(out);
    t->acted = (uint16_t)(t->acted - plays);
    if (out->rules->game == BARBU_GAME_FIFE)
        t->piranha = -1;
    bb_start_play(out);
    return 0;
}

/* The cards whose entry in a table of 64 (a contract's scores by card) is
 * not zero: on x86-64 sixteen entries at a time (compared with zero, the
 * answers packed a bit each), where a branch a card cost some 500
 * instructions a deal. */
static barbu_cards nonzero_cards(const int16_t table[64])
{
    barbu_cards set = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    for (int i = 0; i < 64; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)&table[i]);
        __m128i b = _mm_loadu_si128((const __m128i *)&table[i + 8]);
        __m128i zeros = _mm_packs_epi16(_mm_cmpeq_epi16(a, zero), _mm_cmpeq_epi16(b, zero));
        set |= (barbu_cards)(~(unsigned)_mm_movemask_epi8(zeros) & 0xffffu) << i;
    }
#else
    for (int i = 0; i < 64; i++)
        set |= (barbu_cards)(table[i] != 0) << i;
#endif
    return set;
}

/* The deal's contracts: how it is played, its penalty cards and the rules in
 * force (a rule holds only where every contract of the deal has it). */
void bb_set_calls(barbu_state *s, unsigned contracts)
{
    barbu_table *t = &s->t;
    const barbu_rules *r = s->rules;
    const barbu_contract *k = &r->contract[__builtin_ctz(contracts)];
    t->contracts = (uint16_t)contracts;
    /* Ravage City is played as the other trick contracts; only its score
     * differs. */
    t->kind = k->kind == BARBU_KIND_RAVAGE ? BARBU_KIND_TRICKS : k->kind;
    if (k->kind == BARBU_KIND_PATIENCE)
        t->rank = k->fixed_rank;
    barbu_cards penalty = 0;
    int flags = BARBU_CF_HEARTS_LEAD | BARBU_CF_EARLY_END | BARBU_CF_ISRAELI;
    for (unsigned m = contracts; m; m &= m - 1) {
        const barbu_contract *ck = &r->contract[__builtin_ctz(m)];
        penalty |= nonzero_cards(ck->card) & bb_deck(r);
        flags &= ck->flags;
    }
    if (!r->hearts_lead)
        flags &= ~BARBU_CF_HEARTS_LEAD;
    if (!r->early_end)
        flags &= ~BARBU_CF_EARLY_END;
    if (r->israeli == BARBU_ISRAELI_OFF)
        flags &= ~BARBU_CF_ISRAELI;
    t->rule_flags = (uint8_t)flags;
    t->penalty = penalty;
    if (r->doubling && s->memo_rules != r)
        bb_note_rules(s);
}

static void apply_declare(barbu_state *s, const barbu_action *a)
{
    barbu_table *t = &s->t;
    const barbu_rules *r = s->rules;
    t->trump = a->trump;
    t->rank = a->rank;
    bb_set_calls(s, a->contracts);
    if (r->game != BARBU_GAME_FIFE) {
        /* The Fife game counts its Calls by Round (t->calls_done). */
        for (unsigned m = a->contracts; m; m &= m - 1)
            t->used[a->seat][__builtin_ctz(m)]++;
        t->declared[a->seat]++;
    }
    if (r->doubling) {
        t->phase = BARBU_PHASE_BID;
        t->to_move = (int8_t)bb_next_seat(t->declarer);
    } else {
        bb_start_play(s);
    }
}

static void end_bidding(barbu_state *s)
{
    barbu_table *t = &s->t;
    unsigned any = t->dbl[0] | t->dbl[1] | t->dbl[2] | t->dbl[3];
    if (s->rules->undoubled_shared && any == 0 && bb_state_negative(s))
        finish_deal(s, false);
    else
        bb_start_play(s);
}

static void apply_bid(barbu_state *s, const barbu_action *a)
{
    barbu_table *t = &s->t;
    int seat = a->seat, decl = t->declarer;
    t->dbl[seat] = a->doubles;
    t->rdbl[seat] = a->redoubles;
    t->bids |= (uint8_t)(1u << seat);
    if ((a->doubles & (1u << decl)) && t->owed[seat][decl] > 0)
        t->owed[seat][decl]--;
    int next = bb_next_seat(seat);
    /* The declarer bids last, and only when somebody doubled them: with
     * nothing to redouble there is nothing to say. */
    if (seat == decl || (next == decl && bb_doubled_by(t, decl) == 0))
        end_bidding(s);
    else
        t->to_move = (int8_t)next;
}

static void apply_arrange(barbu_state *s, const barbu_action *a)
{
    barbu_table *t = &s->t;
    s->pending[a->seat][0] = a->cards;
    s->pending[a->seat][1] = a->middle;
    t->arranged |= (uint8_t)(1u << a->seat);
    if (t->arranged == 0xf)
        finish_deal(s, true);
    else
        t->to_move = (int8_t)bb_next_seat(a->seat);
}

/* The trick is complete; `fourth` is its last card, just played.  It comes
 * in a register: the copy to last_trick read as one word with the other
 * cards (last_trick = *k, or byte loads the compiler merges) would wait on
 * its store a dozen cycles, every trick. */
static void finish_trick(barbu_state *s, barbu_card fourth)
{
    barbu_table *t = &s->t;
    barbu_trick *k = &t->trick;
    barbu_card c0 = k->card[0], c1 = k->card[1], c2 = k->card[2], c3 = fourth;
    int leader = k->leader;
    barbu_cards cards = BARBU_BIT(c0) | BARBU_BIT(c1) | BARBU_BIT(c2) | BARBU_BIT(c3);
    int top = bb_trick_top_card(cards, c0, t->trump);
    /* Without branches: the winner is random in a playout, so a loop that
     * searched for it would be mispredicted half the time. */
    int pos = (c1 == top) | (c2 == top) << 1 | ((c3 == top) * 3);
    int w = (leader + pos) & 3;
    /* A Piranha (seed 000): El Kingko taken in a trick won by an 8. */
    if ((cards & t->penalty & BARBU_BIT(BARBU_CARD(BARBU_HEARTS, BARBU_KING))) &&
        BARBU_RANK(top) == 8)
        t->piranha = (int8_t)w;
    t->taken[w] |= cards;
    t->tricks[w]++;
    t->winner[t->ntricks++] = (int8_t)w;
    t->last_trick.leader = (uint8_t)leader;
    t->last_trick.n = 4;
    t->last_trick.card[0] = c0;
    t->last_trick.card[1] = c1;
    t->last_trick.card[2] = c2;
    t->last_trick.card[3] = c3;
    k->leader = (uint8_t)w;
    k->n = 0;
    t->to_move = (int8_t)w;
    /* Every hand holds as many cards, so an empty one means the last trick. */
    if (t->in_hand[w] == 0 || ((t->rule_flags & BARBU_CF_EARLY_END) && bb_outstanding(t) == 0))
        finish_deal(s, true);
}

static void next_layout_player(barbu_table *t, int seat)
{
    int next = bb_next_seat(seat);
    while (t->in_hand[next] == 0)
        next = bb_next_seat(next);
    t->to_move = (int8_t)next;
}

static void play_layout(barbu_state *s, int seat, barbu_cards cards)
{
    barbu_table *t = &s->t;
    t->in_hand[seat] = (uint8_t)(t->in_hand[seat] - barbu_count(cards));
    if (cards & (cards - 1))
        bb_layout_place_group(t, cards);
    else
        bb_layout_place(s->rules, t, (barbu_card)bb_lowest(cards));
    t->passes = 0;
    if (t->in_hand[seat] == 0) {
        t->out[t->n_out++] = (uint8_t)seat;
        /* Once three are out the order of all four is known. */
        if (t->n_out == 3) {
            for (int p = 0; p < 4; p++)
                if (t->in_hand[p] != 0)
                    t->out[t->n_out++] = (uint8_t)p;
            finish_deal(s, true);
            return;
        }
    }
    next_layout_player(t, seat);
}

/* Plays a card of a trick contract already known to be legal: the inner loop
 * of every playout, inline in each. */
static inline __attribute__((always_inline)) void play_trick_card(barbu_state *s, int seat,
                                                                  barbu_card card)
{
    barbu_table *t = &s->t;
    barbu_cards bit = BARBU_BIT(card);
    s->hand[seat] &= ~bit;
    t->played[seat] |= bit;
    /* What the card shows of the hand (bb_note_play); the common case, a
     * discard at no trumps, stays inline. */
    if (t->kind == BARBU_KIND_TRUMPS || t->trick.n == 0) {
        if (t->kind == BARBU_KIND_TRUMPS || (t->rule_flags & BARBU_CF_HEARTS_LEAD))
            bb_note_play(s->rules, t, seat, card);
    } else if (!(bit & BARBU_SUIT_CARDS(BARBU_SUIT(t->trick.card[0])))) {
        if (t->rule_flags & BARBU_CF_ISRAELI)
            bb_note_play(s->rules, t, seat, card);
        else
            t->shown_out[seat] |= BARBU_SUIT_CARDS(BARBU_SUIT(t->trick.card[0]));
    }
    t->in_hand[seat]--;
    t->trick.card[t->trick.n++] = card;
    if (t->trick.n < 4)
        t->to_move = (int8_t)bb_next_seat(seat);
    else
        finish_trick(s, card);
}

/* Plays cards already known to be legal (inline in barbu_apply, the path
 * of every card of a game). */
static inline __attribute__((always_inline)) void play_cards(barbu_state *s, int seat,
                                                             barbu_cards cards)
{
    if (s->t.kind == BARBU_KIND_TRICKS || s->t.kind == BARBU_KIND_TRUMPS) {
        play_trick_card(s, seat, (barbu_card)bb_lowest(cards));
        return;
    }
    s->hand[seat] &= ~cards;
    s->t.played[seat] |= cards;
    play_layout(s, seat, cards);
}

/* The invariant checker of debug builds.  (t.acted is counted before an
 * action is carried out, since a deal's last action starts the next deal.) */
static void after_apply(barbu_state *s)
{
    (void)s;
#ifdef BARBU_CHECK_INVARIANTS
    const char *why = NULL;
    int ok = barbu_state_ok(s, &why);
    assert(ok == 0 && "barbu_state_ok failed after an apply");
    (void)ok;
#endif
}

int barbu_apply(barbu_state *s, const barbu_action *a)
{
    barbu_table *t = &s->t;
    /* A card in the play, the action of nearly every apply: bb_check's own
     * first case, checked and played inline. */
    if (a->type == BARBU_ACT_PLAY && t->phase == BARBU_PHASE_PLAY && a->seat == t->to_move) {
        int err = bb_check_play(s->rules, t, s->hand[a->seat], a->cards);
        if (err != 0)
            return err;
        t->acted++;
        play_cards(s, a->seat, a->cards);
        after_apply(s);
        return 0;
    }
    /* A bid: bb_check's answer (the phase is not over, the type and the
     * phase agree, the seat is the one to move), with the memo's answers
     * instead of the sum of the contract's scores and the count of the
     * game's deals. */
    int err = a->type == BARBU_ACT_BID && t->phase == BARBU_PHASE_BID && a->seat == t->to_move
                  ? bb_check_bid(s->rules, t, bb_state_bidding(s), a)
                  : bb_check(s->rules, t, t->to_move >= 0 ? s->hand[t->to_move] : 0, a);
    if (err != 0)
        return err;
    s->t.acted++;
    switch (a->type) {
    case BARBU_ACT_DECLARE:
        apply_declare(s, a);
        break;
    case BARBU_ACT_BID:
        apply_bid(s, a);
        break;
    case BARBU_ACT_PLAY:
        play_cards(s, a->seat, a->cards);
        break;
    case BARBU_ACT_PASS:
        bb_note_pass(s->rules, &s->t, a->seat);
        s->t.passes++;
        next_layout_player(&s->t, a->seat);
        break;
    case BARBU_ACT_ARRANGE:
        apply_arrange(s, a);
        break;
    case BARBU_ACT_CUT:
        bb_fife_apply_cut(s);
        break;
    case BARBU_ACT_PASS_ON:
        bb_fife_apply_pass_on(s, a);
        break;
    default:
        return BARBU_EPHASE;
    }
    after_apply(s);
    return 0;
}

void barbu_truncate(barbu_state *s)
{
    if (s->t.phase != BARBU_PHASE_OVER)
        s->t.n_deals = (uint16_t)(s->t.deal + 1);
}

barbu_cards barbu_playable(const barbu_state *s)
{
    if (s->t.phase != BARBU_PHASE_PLAY)
        return 0;
    return bb_playable(s->rules, &s->t, s->hand[s->t.to_move]);
}

int barbu_play(barbu_state *s, barbu_card card)
{
    if (s->t.phase != BARBU_PHASE_PLAY || card >= 64) {
        barbu_action a = barbu_act_play(s->t.to_move, card < 64 ? card : 0);
        return s->t.phase == BARBU_PHASE_OVER ? BARBU_EOVER : bb_check(s->rules, &s->t, 0, &a);
    }
    int seat = s->t.to_move;
    barbu_cards bit = BARBU_BIT(card);
    if (!(bb_playable(s->rules, &s->t, s->hand[seat]) & bit)) {
        barbu_action a = barbu_act_play(seat, card);
        return bb_check(s->rules, &s->t, s->hand[seat], &a);
    }
    s->t.acted++;
    play_cards(s, seat, bit);
    after_apply(s);
    return 0;
}

int barbu_play_random(barbu_state *s, barbu_rng *rng)
{
    if (s->t.phase != BARBU_PHASE_PLAY)
        return s->t.phase == BARBU_PHASE_OVER ? BARBU_EOVER : BARBU_EPHASE;
    int seat = s->t.to_move;
    barbu_cards cards = bb_playable(s->rules, &s->t, s->hand[seat]);
    s->t.acted++;
    if (cards == 0) {
        /* Only at a layout: nothing fits, so the seat passes. */
        bb_note_pass(s->rules, &s->t, seat);
        s->t.passes++;
        next_layout_player(&s->t, seat);
        after_apply(s);
        return 0;
    }
    barbu_card card =
        (barbu_card)bb_nth_card(cards, barbu_rng_below(rng, (uint32_t)barbu_count(cards)));
    play_cards(s, seat, BARBU_BIT(card));
    after_apply(s);
    return 0;
}

/*
 * A layout's playout: barbu_play_random's steps, one card or a pass at a
 * time, with the cards that fit the layout kept from step to step (only the
 * suit of the card played changes them) instead of worked out for every
 * seat; a pass shows the seat holds none of them (bb_note_pass).
 */
static void playout_layout(barbu_state *s, barbu_rng *rng)
{
    barbu_table *t = &s->t;
    const barbu_rules *r = s->rules;
    barbu_rng g = *rng;
    int deal = t->deal;
    barbu_cards fit = bb_layout_playable(r, t, BARBU_ALL_CARDS);
    while (t->deal == deal && t->phase == BARBU_PHASE_PLAY) {
        int seat = t->to_move;
        barbu_cards cards = fit & s->hand[seat];
        t->acted++;
        if (cards == 0) {
            t->shown_out[seat] |= fit;
            t->passes++;
            next_layout_player(t, seat);
        } else {
            barbu_card card =
                (barbu_card)bb_nth_card(cards, barbu_rng_below(&g, (uint32_t)barbu_count(cards)));
            s->hand[seat] &= ~BARBU_BIT(card);
            t->played[seat] |= BARBU_BIT(card);
            play_layout(s, seat, BARBU_BIT(card));
            int suit = BARBU_SUIT(card);
            if (t->deal == deal)
                fit = (fit & ~BARBU_SUIT_CARDS(suit)) | bb_layout_fits(r, t, suit);
        }
        after_apply(s);
    }
    *rng = g;
}

int barbu_playout_random(barbu_state *s, barbu_rng *rng)
{
    if (s->t.phase != BARBU_PHASE_PLAY)
        return s->t.phase == BARBU_PHASE_OVER ? BARBU_EOVER : BARBU_EPHASE;
    int deal = s->t.deal;
    if (s->t.kind != BARBU_KIND_TRICKS && s->t.kind != BARBU_KIND_TRUMPS) {
        playout_layout(s, rng);
        return 0;
    }
    /* The trick contracts in one loop, everything inline: the inner loop of
     * the bots' simulations.  The generator is a local, as a pointer would
     * have it stored and read again around every byte the play writes. */
    barbu_rng g = *rng;
    while (s->t.deal == deal && s->t.phase == BARBU_PHASE_PLAY) {
        int seat = s->t.to_move;
        barbu_cards cards = bb_playable(s->rules, &s->t, s->hand[seat]);
        /* The k-th card by barbu_nth_card: a loop clearing k bits would be
         * mispredicted at every random k. */
        barbu_card card =
            (barbu_card)bb_nth_card(cards, barbu_rng_below(&g, (uint32_t)barbu_count(cards)));
        s->t.acted++;
        play_trick_card(s, seat, card);
        after_apply(s);
    }
    *rng = g;
    return 0;
}

int barbu_legal(const barbu_state *s, barbu_action *out, int cap)
{
    if (s->t.to_move < 0)
        return 0;
    /* A bid's list as bb_legal makes it, with the memo's answers. */
    if (s->t.phase == BARBU_PHASE_BID)
        return bb_legal_bids(s->rules, &s->t, bb_state_bidding(s), out, cap);
    return bb_legal(s->rules, &s->t, s->hand[s->t.to_move], out, cap);
}

int barbu_check(const barbu_state *s, const barbu_action *a)
{
    return bb_check(s->rules, &s->t, s->t.to_move >= 0 ? s->hand[s->t.to_move] : 0, a);
}
