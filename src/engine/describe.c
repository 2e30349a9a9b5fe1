/*
 * describe.c - a rule set's rules in words, for the rules pages (barbu
 * rules --html, the server's /rules/...).  Everything is worked out from
 * the barbu_rules in hand, so a table's house rules read as they are in
 * force: the scores from the contracts' tables, the options from their
 * fields.  Each section ends with the rule documents it comes from, as
 * docs/rules.md cites them (000 the Fife booklet, 001 and 004 the
 * encyclopedia article, 002 the UK online rules, 003 the online player's
 * page).  The sentences are plain text; the caller marks them up.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

typedef struct writer {
    const barbu_rules *r;
    barbu_describe_fn fn;
    void *ctx;
} writer;

static void say(writer *w, int what, const char *id, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void say(writer *w, int what, const char *id, const char *fmt, ...)
{
    char text[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    w->fn(w->ctx, what, id, text);
}

#define SECTION(w, id, ...) say(w, BARBU_DESC_SECTION, id, __VA_ARGS__)
#define SUB(w, id, ...)     say(w, BARBU_DESC_SUBSECTION, id, __VA_ARGS__)
#define PARA(w, ...)        say(w, BARBU_DESC_PARA, NULL, __VA_ARGS__)
#define ITEM(w, ...)        say(w, BARBU_DESC_ITEM, NULL, __VA_ARGS__)
#define SOURCE(w, ...)      say(w, BARBU_DESC_SOURCE, NULL, __VA_ARGS__)

static const char *const SUIT_SYM[4] = {"♣", "♦", "♥", "♠"};
static const char *const SUIT_ONE[4] = {"club", "diamond", "heart", "spade"};
static const char *const RANK_ONE[15] = {"",     "",     "two",   "three", "four",
                                         "five", "six",  "seven", "eight", "nine",
                                         "ten",  "jack", "queen", "king",  "ace"};
static const char *const RANK_SHORT[15] = {"",  "",  "2",  "3", "4", "5", "6", "7",
                                           "8", "9", "10", "J", "Q", "K", "A"};
static const char *const ORDINAL[14] = {"",    "1st", "2nd", "3rd",  "4th",  "5th",  "6th",
                                        "7th", "8th", "9th", "10th", "11th", "12th", "13th"};
static const char *const PLACE[4] = {"first out", "second", "third", "last"};

static bool fife(const writer *w)
{
    return w->r->game == BARBU_GAME_FIFE;
}

static int hand_size(const writer *w)
{
    return barbu_rules_hand_size(w->r);
}

/* ------------------------------------------------------------ scores */

/* What the cards taken score at a contract, in words: "each heart -2,
 * the A♥ -6 instead", "each jack or king -60", "the K♥ -20". */
static void card_scores(const writer *w, const barbu_contract *c, char *buf, size_t cap)
{
    barbu_cards deck = bb_deck(w->r), left = 0;
    for (barbu_cards d = deck; d; d &= d - 1) {
        int card = bb_lowest(d);
        if (c->card[card] != 0)
            left |= BARBU_BIT(card);
    }
    buf[0] = '\0';
    int low = w->r->deck_low;
    /* Whole suits: every card of the suit scores; the commonest value is
     * the suit's, the others are exceptions. */
    int16_t base[64] = {0};
    bool based[64] = {false};
    for (int s = 0; s < 4; s++) {
        barbu_cards suit = deck & BARBU_SUIT_CARDS(s);
        if ((left & suit) != suit)
            continue;
        int best = 0, best_n = 0;
        for (int r = low; r <= BARBU_ACE; r++) {
            int v = c->card[BARBU_CARD(s, r)], n = 0;
            for (int r2 = low; r2 <= BARBU_ACE; r2++)
                n += c->card[BARBU_CARD(s, r2)] == v;
            if (n > best_n)
                best = v, best_n = n;
        }
        bb_append(buf, cap, "%seach %s %+d", buf[0] ? "; " : "", SUIT_ONE[s], best);
        for (int r = low; r <= BARBU_ACE; r++)
            base[BARBU_CARD(s, r)] = (int16_t)best, based[BARBU_CARD(s, r)] = true;
    }
    /* Whole ranks of one value, joined when they score alike. */
    bool rank_done[15] = {false};
    for (int r = low; r <= BARBU_ACE; r++) {
        int v = c->card[BARBU_CARD(0, r)];
        bool whole = v != 0;
        for (int s = 0; s < 4 && whole; s++)
            whole = c->card[BARBU_CARD(s, r)] == v && !based[BARBU_CARD(s, r)];
        if (!whole || rank_done[r])
            continue;
        bb_append(buf, cap, "%seach %s", buf[0] ? "; " : "", RANK_ONE[r]);
        for (int r2 = r; r2 <= BARBU_ACE; r2++) {
            bool same = true;
            for (int s = 0; s < 4 && same; s++)
                same = c->card[BARBU_CARD(s, r2)] == v && !based[BARBU_CARD(s, r2)];
            if (!same)
                continue;
            if (r2 != r)
                bb_append(buf, cap, " or %s", RANK_ONE[r2]);
            rank_done[r2] = true;
            for (int s = 0; s < 4; s++)
                base[BARBU_CARD(s, r2)] = (int16_t)v, based[BARBU_CARD(s, r2)] = true;
        }
        bb_append(buf, cap, " %+d", v);
    }
    /* Single cards, and the exceptions to a suit or a rank. */
    for (int s = BARBU_SPADES; s >= 0; s--) {
        for (int r = BARBU_ACE; r >= low; r--) {
            int card = BARBU_CARD(s, r);
            if (!(deck & BARBU_BIT(card)) || c->card[card] == base[card])
                continue;
            bb_append(buf, cap, "%sthe %s%s %+d%s", buf[0] ? "; " : "", RANK_SHORT[r], SUIT_SYM[s],
                      c->card[card], based[card] ? " instead" : "");
        }
    }
}

/* The tricks that score by their place: "the 13th (last) trick -20; the
 * 12th trick -10". */
static void trick_scores(const writer *w, const barbu_contract *c, char *buf, size_t cap)
{
    int n = hand_size(w);
    buf[0] = '\0';
    for (int i = 0; i < n && i < BARBU_MAX_TRICKS; i++) {
        if (c->trick_from_end[i] == 0)
            continue;
        bb_append(buf, cap, "%sthe %s%s trick %+d", buf[0] ? "; " : "", ORDINAL[n - i],
                  i == 0 ? " (last)" : "", c->trick_from_end[i]);
    }
}

/* What a contract scores, in one sentence. */
static void contract_scores(const writer *w, const barbu_contract *c, char *buf, size_t cap)
{
    char part[600];
    buf[0] = '\0';
    switch (c->kind) {
    case BARBU_KIND_DOMINO:
    case BARBU_KIND_PATIENCE:
        bb_append(buf, cap, "By order out: ");
        for (int i = 0; i < 4; i++)
            bb_append(buf, cap, c->place[i] ? "%s%s %+d" : "%s%s 0", i ? ", " : "", PLACE[i],
                      c->place[i]);
        bb_append(buf, cap, ".");
        return;
    case BARBU_KIND_RAVAGE:
        bb_append(
            buf, cap,
            "At the end each player counts the cards of each suit in the tricks they took; "
            "whoever has the most cards of any one suit scores %+d. Players tied for the most "
            "share it: two %+d each, three %+d each, four %+d each.",
            c->shared, c->shared / 2, c->shared / 3, c->shared / 4);
        return;
    case BARBU_KIND_CHINESE:
        bb_append(buf, cap,
                  "Each player's three rows are compared with the same rows of each other player: "
                  "%+d points for each row won and %d for each row lost; winning all three rows "
                  "against one player (a scoop) wins %d more rows' worth from them.",
                  c->per_row, -c->per_row, c->scoop);
        return;
    default:
        break;
    }
    if (c->per_trick)
        bb_append(buf, cap, "%+d for each trick taken.", c->per_trick);
    card_scores(w, c, part, sizeof part);
    if (part[0])
        bb_append(buf, cap, "%sCards taken: %s.", buf[0] ? " " : "", part);
    trick_scores(w, c, part, sizeof part);
    if (part[0])
        bb_append(buf, cap, "%sTricks by their place: %s.", buf[0] ? " " : "", part);
}

/* The card whose taking ends a deal early, in words. */
static void early_end_words(const writer *w, const barbu_contract *c, char *buf, size_t cap)
{
    barbu_cards scoring = 0;
    for (barbu_cards d = bb_deck(w->r); d; d &= d - 1) {
        int card = bb_lowest(d);
        if (c->card[card] != 0)
            scoring |= BARBU_BIT(card);
    }
    int n = barbu_count(scoring);
    unsigned ranks = 0;
    bool whole_ranks = true;
    for (barbu_cards d = scoring; d; d &= d - 1)
        ranks |= 1u << BARBU_RANK(bb_lowest(d));
    for (int r = 2; r <= BARBU_ACE; r++)
        for (int s = 0; s < 4 && (ranks >> r & 1); s++)
            whole_ranks = whole_ranks && (scoring & BARBU_BIT(BARBU_CARD(s, r)));
    if (n == 1) {
        int card = bb_lowest(scoring);
        snprintf(buf, cap, "as soon as the %s%s is taken", RANK_SHORT[BARBU_RANK(card)],
                 SUIT_SYM[BARBU_SUIT(card)]);
    } else if (n > 0 && whole_ranks && __builtin_popcount(ranks) <= 2) {
        int r1 = __builtin_ctz(ranks), r2 = 31 - __builtin_clz(ranks);
        if (r1 == r2)
            snprintf(buf, cap, "as soon as the fourth %s is taken", RANK_ONE[r1]);
        else
            snprintf(buf, cap, "as soon as the last %s or %s is taken", RANK_ONE[r1], RANK_ONE[r2]);
    } else if (n > 0) {
        snprintf(buf, cap, "as soon as the last of the %d cards that score is taken", n);
    } else {
        snprintf(buf, cap, "once nothing more can score");
    }
}

/* ------------------------------------------------------------ sections */

static const char *sources_standard(const writer *w)
{
    const char *p = w->r->preset;
    if (strncmp(p, "king", 4) == 0)
        return "004, 001";
    if (strncmp(p, "ravage", 6) == 0 || strcmp(p, "chinese") == 0)
        return "004, 001";
    if (strncmp(p, "classic", 7) == 0 || strncmp(p, "quick", 5) == 0)
        return "004, 001, 002, 003";
    return "002, 003, 004";
}

static void how_a_game_goes(writer *w)
{
    const barbu_rules *r = w->r;
    SECTION(w, "game", "How a game goes");
    int n = hand_size(w);
    PARA(w,
         "Four players, no partners, in the seats North, East, South and West; play goes "
         "clockwise. A %d-card pack ranked A K Q J 10 down to %s, %d cards each, so a deal has "
         "%d tricks.",
         4 * n, r->deck_low == 7 ? "7" : "2", n, n);
    int deals = barbu_rules_deals(r);
    PARA(w, "The first declarer is drawn: each player draws a card and the highest rank declares "
            "first (tied players draw again). The dealer sits on the declarer's right.");
    if (r->rotation == BARBU_ROTATE_EVERY_DEAL)
        PARA(w,
             "A game has %d deals. The declarer changes every deal, going round the table "
             "clockwise from the first declarer.",
             deals);
    else
        PARA(w,
             "A game has %d deals. Each declarer plays all their contracts in a row; then the "
             "role passes to the left.",
             deals);
    PARA(w,
         "The declarer looks at their hand and chooses one of the contracts they have left%s%s. "
         "%s leads to the first trick.",
         barbu_contract_find(r, "trumps") >= 0 ? ", naming the trump suit at Trumps" : "",
         barbu_contract_find(r, "domino") >= 0 ? " or the start rank at Domino" : "",
         r->first_lead == BARBU_FIRST_DECLARER ? "The declarer"
                                               : "The player on the declarer's left");
    bool all_once = true;
    for (int i = 0; i < r->n_contracts; i++)
        all_once = all_once && r->contract[i].times == 0 && r->contract[i].per_player == 1;
    if (all_once) {
        PARA(w, "Each player declares each of the %d contracts exactly once.", r->n_contracts);
    } else {
        for (int i = 0; i < r->n_contracts; i++) {
            const barbu_contract *c = &r->contract[i];
            char t1[16], t2[16];
            ITEM(w, "%s: played %s in a game; a player may choose it %s.", c->name,
                 bb_times(barbu_contract_times(r, i), t1, sizeof t1),
                 c->per_player == 1 ? "once" : bb_times(c->per_player, t2, sizeof t2));
        }
    }
    PARA(w, "Each player must follow suit if able; the highest card of the suit led wins the "
            "trick, unless a trump was played. The scores of a whole game add up to zero.");
    SOURCE(w, "%s", sources_standard(w));
}

static bool negative(const writer *w, int i)
{
    return barbu_contract_total(w->r, i) < 0;
}

/* How an undoubled negative contract's points are shared, for one. */
static void share_words(const writer *w, int i, char *buf, size_t cap)
{
    int total = barbu_contract_total(w->r, i);
    int share = -((-total + 2) / 3);
    int decl = total - 3 * share;
    char d[16];
    snprintf(d, sizeof d, decl ? "%+d" : "0", decl);
    snprintf(buf, cap, "the three other players score %+d each and the declarer %s", share, d);
}

static void one_contract(writer *w, int i)
{
    const barbu_rules *r = w->r;
    const barbu_contract *c = &r->contract[i];
    char id[40], buf[1200], t1[16];
    snprintf(id, sizeof id, "contract-%s", c->key);
    SUB(w, id, "%s", c->name);
    PARA(w, "%s: %s.", c->abbr, c->name);
    contract_scores(w, c, buf, sizeof buf);
    if (buf[0])
        PARA(w, "%s", buf);
    int total = barbu_contract_total(r, i);
    if (c->kind != BARBU_KIND_CHINESE)
        PARA(w, "In all %+d a deal%s.", total,
             fife(w) ? "" : (total < 0 ? ": a negative contract" : ": a positive contract"));
    if (!fife(w)) {
        int n = barbu_contract_times(r, i);
        PARA(w, "Played %s in a game%s.", bb_times(n, t1, sizeof t1),
             c->times == 0 && c->per_player == 1 ? ", once by each player as declarer" : "");
    }
    switch (c->kind) {
    case BARBU_KIND_TRUMPS:
        PARA(w, "The declarer names the trump suit (there is no no-trump Trumps). See Trumps "
                "below for what a player must play.");
        break;
    case BARBU_KIND_DOMINO:
        PARA(w, "A layout, not tricks: see Domino below.");
        break;
    case BARBU_KIND_PATIENCE:
        PARA(w, "A layout from the Jacks: see Patience below.");
        break;
    case BARBU_KIND_CHINESE:
        PARA(w, "Three poker hands, not tricks: see Chinese Poker below.");
        break;
    default:
        if (fife(w))
            PARA(w,
                 "No trumps: follow suit, otherwise discard anything. All %d tricks are "
                 "played.",
                 hand_size(w));
        else
            PARA(w, "No trumps: follow suit, otherwise discard anything.");
        break;
    }
    if ((c->flags & BARBU_CF_HEARTS_LEAD) && !fife(w)) {
        if (r->hearts_lead)
            PARA(w, "Hearts may not be led while the leader holds a card of another suit "
                    "(hearts may always be discarded).");
        else
            PARA(w, "Hearts may be led at any time: the hearts-lead rule is off in this rule "
                    "set.");
    }
    if (c->kind == BARBU_KIND_TRICKS || c->kind == BARBU_KIND_RAVAGE) {
        if ((c->flags & BARBU_CF_EARLY_END) && r->early_end) {
            early_end_words(w, c, buf, sizeof buf);
            PARA(w,
                 "Early end: the deal ends %s; the remaining cards are not played and stay "
                 "hidden.",
                 buf);
        } else if ((c->flags & BARBU_CF_EARLY_END) && !r->early_end) {
            PARA(w, "Early ends are off in this rule set: all %d tricks are played.", hand_size(w));
        } else if (!fife(w)) {
            PARA(w, "No early end: all %d tricks are played.", hand_size(w));
        }
    }
    if ((c->flags & BARBU_CF_ISRAELI) && r->israeli != BARBU_ISRAELI_OFF)
        PARA(w, "The Israeli rule applies (see Options in force).");
    if (!fife(w) && r->doubling) {
        if (c->kind == BARBU_KIND_CHINESE || total >= 0)
            PARA(w, "Doubling: only the declarer may be doubled; it is always played.");
        else if (r->undoubled_shared) {
            share_words(w, i, buf, sizeof buf);
            PARA(w, "Doubling: anyone may double anyone. If nobody doubles, it is not played: %s.",
                 buf);
        } else {
            PARA(w, "Doubling: anyone may double anyone; it is played even if nobody doubles.");
        }
    }
}

static void contracts(writer *w)
{
    const barbu_rules *r = w->r;
    if (fife(w)) {
        SECTION(w, "fife-calls", "The Calls");
        PARA(w, "Each Round plays the seven Calls once, alone or combined (see Combinations). "
                "Their abbreviations are those of the score sheet's columns.");
    } else {
        SECTION(w, "contracts", "The contracts");
        PARA(w, "The %d contracts of this rule set, with the abbreviations of the score sheet:",
             r->n_contracts);
    }
    for (int i = 0; i < r->n_contracts; i++)
        ITEM(w, "%s: %s", r->contract[i].abbr, r->contract[i].name);
    SOURCE(w, "%s", fife(w) ? "000" : sources_standard(w));
    for (int i = 0; i < r->n_contracts; i++)
        one_contract(w, i);
    if (fife(w))
        SOURCE(w, "000");
    else
        SOURCE(w, "%s", sources_standard(w));
}

static void trumps(writer *w)
{
    if (barbu_contract_find(w->r, "trumps") < 0 || fife(w))
        return;
    SECTION(w, "trumps", "Trumps");
    PARA(w, "With trumps led, a player must play a higher trump than any on the table if able, "
            "otherwise any trump; only a player without trumps may play another suit.");
    PARA(w, "With a plain suit led, a player must follow suit. A player who cannot:");
    if (w->r->must_trump)
        ITEM(w, "if the trick is not trumped yet and they hold a trump, must trump;");
    else
        ITEM(w, "if the trick is not trumped yet, may trump or discard anything (the older rule "
                "of seed 001: must-trump is off);");
    ITEM(w, "if the trick is trumped and they hold a higher trump, must over-trump;");
    ITEM(w, "otherwise may play anything: a lower trump or a discard (nobody has to "
            "under-trump).");
    SOURCE(w, "%s", w->r->must_trump ? "002, 003, 004" : "001");
}

static void domino(writer *w)
{
    const barbu_rules *r = w->r;
    if (barbu_contract_find(r, "domino") < 0 || fife(w))
        return;
    SECTION(w, "domino", "Domino");
    PARA(w, "The declarer names a start rank; %s plays first.",
         r->domino_first == BARBU_FIRST_DECLARER ? "the declarer" : "the player on their left");
    PARA(w,
         "A card may be played if it has the start rank, or is next above or below a card of "
         "its own suit already down. %s",
         r->domino_ace_low ? "The ace is low: it goes below the two (a house rule)."
                           : "Aces are high: the ace follows the king and nothing follows "
                             "the ace.");
    PARA(w, "A player who can play must; one who cannot passes. A declarer without the start "
            "rank therefore passes at once. Play stops once three players are out.");
    SOURCE(w, "002, 003, 004");
}

static void patience(writer *w)
{
    if (!fife(w))
        return;
    SECTION(w, "patience", "Patience");
    PARA(w, "A layout built from the Jacks: the first card must be a Jack; then a card next "
            "above or below a suit already started, or another Jack. Aces are high.");
    PARA(w, "A player who can play must; one who cannot chaps (passes). The first player who "
            "holds a Jack starts: the others chap until then.");
    PARA(w, "The first three out score; the deal ends when three are out (scores under each "
            "Patience Call above).");
    PARA(w, "Several cards at once: a run of two or more cards of one suit that fits the layout, "
            "or cards of one rank that each fit, may go down together: in a Player Round only "
            "as a player's last cards, to go out; in the Silly Round at any time.");
    PARA(w, "The player on the Caller's left (in the Silly Round, on the dealer's left) plays "
            "first.");
    SOURCE(w, "000");
}

static void fife_game(writer *w)
{
    const barbu_rules *r = w->r;
    SECTION(w, "game", "How a game goes");
    PARA(w, "The Fife game: four players, a 32-card pack (7 to A), 8 cards each, dealt one at "
            "a time. The 2 to 6 of each suit, two Jokers and a Bridge card make the Unused "
            "Pack, which is cut to decide things.");
    PARA(w,
         "A game is %d Set%s. A Set is five Rounds: four Player Rounds and the Silly Round. "
         "Each Round plays the seven Calls once, alone or combined, and sums to zero (-420 and "
         "+420).",
         r->sets, r->sets == 1 ? "" : "s");
    PARA(w, "The first Caller is drawn from the Unused Pack (Bridge above Joker above 6 down to "
            "2; tied players draw again). Each player in turn is the Caller of a Player Round, "
            "from the first Caller to the left; the dealer sits on the Caller's right and the "
            "player on the Caller's left leads.");
    PARA(w, "No trumps, no doubling. A combined deal scores every Call it names.");
    SOURCE(w, "000");
}

static void fife_combinations(writer *w)
{
    SECTION(w, "combinations", "Combinations");
    PARA(w, "The Caller chooses each deal's Call or combination of Calls:");
    ITEM(w, "a Double: two negative Calls together;");
    ITEM(w, "a Treble: three negative Calls;");
    ITEM(w, "a Quadruple: four negative Calls;");
    ITEM(w, "The Lot: all five negative Calls (Aces, King of Hearts, Queens, Hearts, Tricks);");
    ITEM(w, "Double Patience: both Patiences in one deal (counts as a Double).");
    PARA(w, "A negative Call and a Patience are never played together, and Patience 2 is not "
            "played before Patience 1.");
    PARA(w, "A Player Round's seven Calls must include at least two Doubles or a Treble: seven "
            "Calls in five deals or fewer. A choice that would make that impossible is refused, "
            "so a Player Round has 2 to 5 deals.");
    SOURCE(w, "000");
}

static void fife_silly_round(writer *w)
{
    const barbu_rules *r = w->r;
    SECTION(w, "silly-round", "The Silly Round");
    PARA(w, "Nobody is the Caller: the cuts of the Unused Pack choose the Calls. The dealer "
            "changes clockwise every deal from a dealer drawn; the Cutter sits on the dealer's "
            "right and the player on the dealer's left leads.");
    SUB(w, "cuts", "Cuts");
    PARA(w, "A cut shows one card of the whole Unused Pack (every cut is drawn afresh). The "
            "numbers name the negative Calls: 2 Aces, 3 King of Hearts, 4 Queens, 5 Hearts, 6 "
            "Tricks; a Joker all of them (or all those left); the Bridge card Double "
            "Patience.");
    ITEM(w, "The First Call: after a number the Cutter cuts again while the numbers make a "
            "sequence (a number next to either end continues it, 6 next to 2); any other card "
            "stops it and the Calls named so far are played. A second cut equal to the first "
            "number gives a Single Patience. A Joker at any stage gives all five negative "
            "Calls.");
    ITEM(w, "Later Calls: a number already played gives a Single Patience while one is left; "
            "the Bridge gives Double Patience or the Patience left; a sequence grows only "
            "through numbers still unused; anything that names nothing left is cut again.");
    if (r->later_joker)
        ITEM(w, "A Joker after a number: on a later Call the Cutter cuts again while another "
                "cut could still add a Call, an unused number next to the sequence or a Joker, "
                "which brings in every negative Call left.");
    else
        ITEM(w, "A number on a later Call is decided at once when no unused number can join it "
                "(later-call-joker is off: barbu's reading before record format 2).");
    ITEM(w, "With one Call left, it is played without a cut.");
    SUB(w, "pass-ons", "Pass-ons");
    PARA(w, "After the Call (deals 1 to 3) or before it (deals 4 to 6) the Cutter cuts for "
            "Pass-ons: a black card starts one, a red card ends them, a Joker or the Bridge is "
            "cut again; at most three a deal. In a Pass-on every player passes 3 cards, chosen "
            "unseen, and the cards change hands together.");
    ITEM(w, "1st and 4th deals of the Round: to the left each time;");
    ITEM(w, "2nd and 5th: to the right each time;");
    ITEM(w, "3rd: across, then left, then across;");
    ITEM(w, "6th: across, then right, then across;");
    ITEM(w, "7th, and any deal known to be the Round's last: none.");
    PARA(w, "A Silly Round therefore has 2 to 7 deals.");
    SOURCE(w, "000");
}

static void chinese(writer *w)
{
    const barbu_rules *r = w->r;
    int i = -1;
    for (int k = 0; k < r->n_contracts; k++)
        if (r->contract[k].kind == BARBU_KIND_CHINESE)
            i = k;
    if (i < 0)
        return;
    const barbu_contract *c = &r->contract[i];
    SECTION(w, "chinese", "Chinese Poker");
    PARA(w, "Each player sets their 13 cards into three rows: a back row of 5, a middle row of "
            "5 and a front row of 3. The back must be at least as strong as the middle, and the "
            "middle at least as strong as the front.");
    PARA(w, "The rows are set in turn from the declarer's left, and nobody sees another's rows "
            "until all four are set; then all rows are shown.");
    PARA(w, "Rows of five, strongest first (suits never count):");
    ITEM(w, "straight flush (A K Q J 10 highest, 5 4 3 2 A lowest);");
    ITEM(w, "four of a kind;");
    ITEM(w, "full house;");
    ITEM(w, "flush;");
    ITEM(w, "straight;");
    ITEM(w, "three of a kind;");
    ITEM(w, "two pair;");
    ITEM(w, "one pair;");
    ITEM(w, "high card.");
    PARA(w, "The front row of three counts only three of a kind, one pair and high card. Ties "
            "are broken by the ranks that make the hand, then the kickers.");
    PARA(w,
         "Scoring in units: each row is compared with the same row of each other player, 1 "
         "unit for a row won, -1 for a row lost, nothing for equal rows. Winning all three rows "
         "against one player (a scoop) earns %d more units from them. A unit is %d points.",
         c->scoop, c->per_row);
    if (r->fouls_lose)
        PARA(w, "Fouling: rows out of order (a fouled hand) are accepted and lose every row to "
                "every player whose hand is not fouled, which counts as a scoop; two fouled "
                "hands are even.");
    else
        PARA(w, "Fouling: rows out of order (a fouled hand) are refused, with the reason, "
                "before they are shown; set them again.");
    if (r->doubling)
        PARA(w, "Doubling works as at a positive contract: the others may double only the "
                "declarer, who may redouble; it is always played.");
    PARA(w, "It needs 13 cards a hand. While you set your rows, the table can show the rows the "
            "easy computer player would set for your hand (its suggestion).");
    SOURCE(w, "004, 001 (the seeds say only \"as a hand of Chinese Poker\", times four; barbu "
              "plays the standard game)");
}

static void doubling(writer *w)
{
    const barbu_rules *r = w->r;
    char t1[16];
    SECTION(w, "doubling", "Doubling");
    if (!r->doubling) {
        PARA(w, "There is no doubling in this rule set: every contract is played as chosen.");
        SOURCE(w, "%s", fife(w) ? "000" : "004");
        return;
    }
    PARA(w, "After the contract is chosen, each player bids once, from the declarer's left "
            "round to the declarer.");
    ITEM(w, "At a negative contract a player may double any of the other players; at a "
            "positive one (Trumps, Domino, Chinese Poker) only the declarer.");
    ITEM(w, "A player who has been doubled may redouble whoever doubled them (and cannot "
            "double them back).");
    ITEM(w, "The declarer may not double, only redouble.");
    ITEM(w, "Shortcuts: max doubles everyone you may double and redoubles everyone who doubled "
            "you; family doubles the two other non-declarers.");
    if (r->mandatory_doubles > 0)
        PARA(w,
             "Compulsory doubles: each player must double each declarer at least %s %s. "
             "When the declarer's remaining contracts are no more than the doubles still owed, "
             "the double is compulsory and a bid without it is refused; the doubles owed show "
             "beside each name.",
             bb_times(r->mandatory_doubles, t1, sizeof t1),
             r->rotation == BARBU_ROTATE_BLOCK ? "during that declarer's contracts, which come "
                                                 "in a row"
                                               : "over the game");
    else
        PARA(w, "No double is compulsory in this rule set.");
    if (r->undoubled_shared) {
        PARA(w, "A negative contract that nobody doubles is not played: its points are "
                "shared equally by the three other players, rounded away from zero, and the "
                "declarer scores what keeps the deal's total. A positive contract is played "
                "even when nobody doubles.");
        for (int i = 0; i < r->n_contracts; i++) {
            if (!negative(w, i) || r->contract[i].kind == BARBU_KIND_CHINESE)
                continue;
            char share[160];
            share_words(w, i, share, sizeof share);
            ITEM(w, "%s (%s), not doubled: %s.", r->contract[i].name, r->contract[i].abbr, share);
        }
    } else {
        PARA(w, "A contract is played even when nobody doubles.");
    }
    PARA(w, "Settlement: two players have business when one doubled the other. For each pair "
            "with business, the one with the higher deal score takes the difference of their "
            "scores from the other; redoubled, twice the difference.");
    SOURCE(w, "002, 003, 004");
}

static void options(writer *w)
{
    const barbu_rules *r = w->r;
    SECTION(w, "options", "Options in force");
    if (fife(w)) {
        ITEM(w, "Sets in a game: %d.", r->sets);
        ITEM(w, "Later Calls, a Joker after a number: %s.",
             r->later_joker ? "yes (the booklet's reading)" : "no (barbu before record format 2)");
        SOURCE(w, "000");
        return;
    }
    ITEM(w, "Pack: %d cards.", r->deck_low == 7 ? 32 : 52);
    ITEM(w, "Rotation: %s.",
         r->rotation == BARBU_ROTATE_EVERY_DEAL ? "a new declarer every deal"
                                                : "each declarer's contracts in a row");
    ITEM(w, "First lead: %s.",
         r->first_lead == BARBU_FIRST_DECLARER ? "the declarer" : "the declarer's left");
    ITEM(w, "Hearts lead: %s.",
         r->hearts_lead ? "on, at the contracts that have it" : "off: hearts may always be led");
    ITEM(w, "Early end: %s.", r->early_end ? "on, at the contracts that have it" : "off");
    ITEM(w, "Doubling: %s.", r->doubling ? "on" : "off");
    if (r->doubling) {
        ITEM(w, "Compulsory doubles: %d.", r->mandatory_doubles);
        ITEM(w, "Undoubled negative contract not played: %s.",
             r->undoubled_shared ? "yes, its points are shared" : "no, it is played");
    }
    static const char *const ISRAELI[] = {
        "off (as the UK online program plays)",
        "advise: the penalty cards the rule asks you to discard are shown; play stays free",
        ("enforce: the holder of the last penalty card still in a hand, who cannot follow suit "
         "and is doubled equally with the other three, must discard it")};
    bool israeli_contract = false;
    for (int i = 0; i < r->n_contracts; i++)
        israeli_contract |= (r->contract[i].flags & BARBU_CF_ISRAELI) != 0;
    if (israeli_contract)
        ITEM(w,
             "Israeli rule (at a player who cannot follow suit, discarding a penalty card): "
             "%s.",
             ISRAELI[r->israeli < 3 ? r->israeli : 0]);
    if (barbu_contract_find(r, "trumps") >= 0)
        ITEM(w, "Must trump when void at Trumps: %s.", r->must_trump ? "yes" : "no");
    if (barbu_contract_find(r, "domino") >= 0) {
        ITEM(w, "Domino, who plays first: %s.",
             r->domino_first == BARBU_FIRST_DECLARER ? "the declarer" : "the declarer's left");
        ITEM(w, "Domino, the ace: %s.", r->domino_ace_low ? "low" : "high");
    }
    for (int i = 0; i < r->n_contracts; i++)
        if (r->contract[i].kind == BARBU_KIND_CHINESE)
            ITEM(w, "Chinese Poker, fouled rows: %s.",
                 r->fouls_lose ? "accepted, and lose every row" : "refused");
}

static void clock_section(writer *w)
{
    SECTION(w, "clock", "The move clock");
    PARA(w, "A table may have a move clock, chosen when it is made (10 to 600 seconds an "
            "action) and shown to all. It runs for each person who must act, only while the "
            "table plays, and starts afresh for each action.");
    PARA(w, "When a person's time runs out, a computer player of the table's level makes that "
            "one action for them (a Fife cut is just cut), and everybody is told what was "
            "played; the next action is theirs again. A computer player's own turn has no "
            "clock. This is barbu's own rule: the documents describe play face to face.");
}

void barbu_rules_describe(const barbu_rules *rules, barbu_describe_fn fn, void *ctx)
{
    writer w = {rules, fn, ctx};
    if (fife(&w)) {
        fife_game(&w);
        contracts(&w);
        fife_combinations(&w);
        patience(&w);
        fife_silly_round(&w);
    } else {
        how_a_game_goes(&w);
        contracts(&w);
        trumps(&w);
        domino(&w);
        chinese(&w);
    }
    doubling(&w);
    options(&w);
    clock_section(&w);
}

int barbu_undoubled_text(const barbu_rules *rules, char *buf, size_t cap)
{
    if (!rules->doubling || !rules->undoubled_shared)
        return snprintf(buf, cap, "A contract is played even when nobody doubles.");
    char list[800] = "";
    for (int i = 0; i < rules->n_contracts; i++) {
        int total = barbu_contract_total(rules, i);
        if (total >= 0 || rules->contract[i].kind == BARBU_KIND_CHINESE)
            continue;
        int share = -((-total + 2) / 3), decl = total - 3 * share;
        char d[16];
        snprintf(d, sizeof d, decl ? "%+d" : "0", decl);
        bb_append(list, sizeof list, "%s%s %+d each, the declarer %s", list[0] ? "; " : "",
                  rules->contract[i].name, share, d);
    }
    return snprintf(buf, cap,
                    "A negative contract that nobody doubles is not played: its points are "
                    "shared equally by the three other players, rounded away from zero, and the "
                    "declarer scores what keeps the deal's total (%s).",
                    list);
}
