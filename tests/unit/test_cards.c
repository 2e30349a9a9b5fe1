/*
 * test_cards.c - cards, hands and seats as text, sets of cards, and the
 * engine's error words.
 */
#include "helpers.h"

#include <stdio.h>

static void test_card_parse_forms(void **state)
{
    (void)state;
    const char *text, *end;

    text = "QH";
    assert_int_equal(barbu_card_parse(text, &end), BARBU_CARD(BARBU_HEARTS, BARBU_QUEEN));
    assert_ptr_equal(end, text + 2);

    text = "10h";
    assert_int_equal(barbu_card_parse(text, &end), BARBU_CARD(BARBU_HEARTS, 10));
    assert_ptr_equal(end, text + 3);

    text = "Th";
    assert_int_equal(barbu_card_parse(text, &end), BARBU_CARD(BARBU_HEARTS, 10));
    assert_ptr_equal(end, text + 2);

    text = "tH";
    assert_int_equal(barbu_card_parse(text, &end), BARBU_CARD(BARBU_HEARTS, 10));

    text = "Q\u2665";
    assert_int_equal(barbu_card_parse(text, &end), BARBU_CARD(BARBU_HEARTS, BARBU_QUEEN));
    assert_ptr_equal(end, text + 1 + strlen("\u2665"));

    text = "10\u2660";
    assert_int_equal(barbu_card_parse(text, &end), BARBU_CARD(BARBU_SPADES, 10));
    assert_ptr_equal(end, text + 2 + strlen("\u2660"));

    assert_int_equal(barbu_card_parse("AS", NULL), BARBU_CARD(BARBU_SPADES, BARBU_ACE));
    assert_int_equal(barbu_card_parse("2C", NULL), BARBU_CARD(BARBU_CLUBS, 2));
    assert_int_equal(barbu_card_parse("kd", NULL), BARBU_CARD(BARBU_DIAMONDS, BARBU_KING));
    assert_int_equal(barbu_card_parse("J\u2663", NULL), BARBU_CARD(BARBU_CLUBS, BARBU_JACK));
    assert_int_equal(barbu_card_parse("9\u2666", NULL), BARBU_CARD(BARBU_DIAMONDS, 9));

    /* Parsing stops after the card: the rest of the text is left. */
    text = "QH KS";
    assert_int_equal(barbu_card_parse(text, &end), BARBU_CARD(BARBU_HEARTS, BARBU_QUEEN));
    assert_string_equal(end, " KS");
}

static void test_card_parse_bad(void **state)
{
    (void)state;
    static const char *const bad[] = {"",   "H",  "Q", "QX", "1H", "11H",
                                      "XH", "0S", "1", "?S", " QH"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *end = (const char *)1;
        assert_int_equal(barbu_card_parse(bad[i], &end), -1);
        assert_ptr_equal(end, bad[i]);
    }
}

static void test_card_format(void **state)
{
    (void)state;
    char buf[16];
    assert_int_equal(
        barbu_card_format(BARBU_CARD(BARBU_HEARTS, BARBU_QUEEN), BARBU_FMT_ASCII, buf, sizeof buf),
        2);
    assert_string_equal(buf, "QH");
    barbu_card_format(BARBU_CARD(BARBU_HEARTS, 10), BARBU_FMT_ASCII, buf, sizeof buf);
    assert_string_equal(buf, "TH");
    barbu_card_format(BARBU_CARD(BARBU_CLUBS, 2), BARBU_FMT_ASCII, buf, sizeof buf);
    assert_string_equal(buf, "2C");
    barbu_card_format(BARBU_CARD(BARBU_SPADES, BARBU_ACE), BARBU_FMT_ASCII, buf, sizeof buf);
    assert_string_equal(buf, "AS");

    int n = barbu_card_format(BARBU_CARD(BARBU_HEARTS, BARBU_QUEEN), BARBU_FMT_UNICODE, buf,
                              sizeof buf);
    assert_string_equal(buf, "Q\u2665");
    assert_int_equal(n, (int)strlen("Q\u2665"));
    barbu_card_format(BARBU_CARD(BARBU_SPADES, 10), BARBU_FMT_UNICODE, buf, sizeof buf);
    assert_string_equal(buf, "10\u2660");
    barbu_card_format(BARBU_CARD(BARBU_DIAMONDS, BARBU_KING), BARBU_FMT_UNICODE, buf, sizeof buf);
    assert_string_equal(buf, "K\u2666");
    barbu_card_format(BARBU_CARD(BARBU_CLUBS, 3), BARBU_FMT_UNICODE, buf, sizeof buf);
    assert_string_equal(buf, "3\u2663");
}

/* Every card of the pack survives format then parse, in both forms. */
static void test_card_round_trip(void **state)
{
    (void)state;
    for (int suit = 0; suit < 4; suit++) {
        for (int rank = 2; rank <= BARBU_ACE; rank++) {
            barbu_card card = BARBU_CARD(suit, rank);
            for (int fmt = BARBU_FMT_ASCII; fmt <= BARBU_FMT_UNICODE; fmt++) {
                char buf[16];
                int n = barbu_card_format(card, fmt, buf, sizeof buf);
                assert_int_equal(n, (int)strlen(buf));
                const char *end;
                assert_int_equal(barbu_card_parse(buf, &end), card);
                assert_ptr_equal(end, buf + n);
            }
        }
    }
}

static void test_hand_format_parse(void **state)
{
    (void)state;
    barbu_cards hand;
    const char *end;
    const char *text = "AKQ.T98.-.5432";
    assert_int_equal(barbu_hand_parse(text, &end, &hand), 0);
    assert_ptr_equal(end, text + strlen(text));
    assert_true(hand == cards_of("AS KS QS TH 9H 8H 5C 4C 3C 2C"));

    char buf[80];
    assert_int_equal(barbu_hand_format(hand, buf, sizeof buf), (int)strlen(text));
    assert_string_equal(buf, text);

    /* "10" is read as a ten; the output writes T. */
    assert_int_equal(barbu_hand_parse("A10.-.-.-", NULL, &hand), 0);
    assert_true(hand == cards_of("AS 10S"));
    barbu_hand_format(hand, buf, sizeof buf);
    assert_string_equal(buf, "AT.-.-.-");

    /* The whole pack, and no cards at all. */
    barbu_hand_format(BARBU_ALL_CARDS, buf, sizeof buf);
    assert_string_equal(buf, "AKQJT98765432.AKQJT98765432.AKQJT98765432.AKQJT98765432");
    assert_int_equal(barbu_hand_parse(buf, NULL, &hand), 0);
    assert_true(hand == BARBU_ALL_CARDS);
    barbu_hand_format(0, buf, sizeof buf);
    assert_string_equal(buf, "-.-.-.-");
    assert_int_equal(barbu_hand_parse(buf, NULL, &hand), 0);
    assert_true(hand == 0);

    /* The reader stops at a space, as between the hands of a deal. */
    text = "AK.-.-.- QJ.-.-.-";
    assert_int_equal(barbu_hand_parse(text, &end, &hand), 0);
    assert_true(hand == cards_of("AS KS"));
    assert_string_equal(end, " QJ.-.-.-");
}

/* The header: "returns the length written (truncated to cap - 1)" (unlike
 * barbu_rules_write, which returns the length it needs, like snprintf). */
static void test_hand_truncated_format(void **state)
{
    (void)state;
    char buf[6];
    int n = barbu_hand_format(cards_of("AS KS QS TH 9H 8H 5C 4C 3C 2C"), buf, sizeof buf);
    /* Truncated to the buffer; the length returned is the whole text's. */
    assert_string_equal(buf, "AKQ.T");
    assert_int_equal(n, (int)strlen("AKQ.T98.-.5432"));
    char big[80];
    n = barbu_hand_format(cards_of("AS KS QS TH 9H 8H 5C 4C 3C 2C"), big, sizeof big);
    assert_int_equal(n, (int)strlen("AKQ.T98.-.5432"));
}

static void test_hand_parse_bad(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "AKQ.T98",   /* too few suits */
        "AA.-.-.-",  /* a card twice */
        "AX.-.-.-",  /* not a rank */
        "AKQ.T98.-", /* three suits */
        "",          /* nothing */
        "AK-.-.-.-", /* a dash inside a suit */
        "1.-.-.-",   /* a one that is not a ten */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        barbu_cards hand = 12345;
        assert_int_equal(barbu_hand_parse(bad[i], NULL, &hand), BARBU_EPARSE);
    }
}

/* Random hands of thirteen cards survive format then parse. */
static void test_hand_round_trip_random(void **state)
{
    (void)state;
    barbu_rng rng;
    barbu_rng_seed(&rng, 42);
    for (int i = 0; i < 2000; i++) {
        barbu_cards hand = 0;
        int size = (int)barbu_rng_below(&rng, 14);
        while (barbu_count(hand) < size)
            hand |= BARBU_BIT(barbu_nth_card(BARBU_ALL_CARDS, barbu_rng_below(&rng, 52)));
        char buf[80];
        barbu_hand_format(hand, buf, sizeof buf);
        barbu_cards back = 0;
        const char *end;
        assert_int_equal(barbu_hand_parse(buf, &end, &back), 0);
        assert_true(back == hand);
        assert_int_equal(*end, '\0');
    }
}

static void test_seat_names(void **state)
{
    (void)state;
    assert_string_equal(barbu_seat_name(N), "N");
    assert_string_equal(barbu_seat_name(E), "E");
    assert_string_equal(barbu_seat_name(S), "S");
    assert_string_equal(barbu_seat_name(W), "W");
    assert_string_equal(barbu_seat_name(4), "?");
    assert_string_equal(barbu_seat_name(-1), "?");

    assert_int_equal(barbu_seat_parse("N"), N);
    assert_int_equal(barbu_seat_parse("e"), E);
    assert_int_equal(barbu_seat_parse("S"), S);
    assert_int_equal(barbu_seat_parse("w"), W);
    assert_int_equal(barbu_seat_parse("North"), N);
    assert_int_equal(barbu_seat_parse("EAST"), E);
    assert_int_equal(barbu_seat_parse("south"), S);
    assert_int_equal(barbu_seat_parse("West"), W);
    assert_int_equal(barbu_seat_parse(""), -1);
    assert_int_equal(barbu_seat_parse("X"), -1);
    assert_int_equal(barbu_seat_parse("Nort"), -1);
    assert_int_equal(barbu_seat_parse("northwest"), -1);
    for (int seat = 0; seat < 4; seat++)
        assert_int_equal(barbu_seat_parse(barbu_seat_name(seat)), seat);
}

static void test_card_sets(void **state)
{
    (void)state;
    assert_int_equal(barbu_count(BARBU_ALL_CARDS), 52);
    for (int suit = 0; suit < 4; suit++) {
        assert_int_equal(barbu_count(BARBU_SUIT_CARDS(suit)), 13);
        assert_true((BARBU_SUIT_CARDS(suit) & ~BARBU_ALL_CARDS) == 0);
    }
    barbu_card qh = BARBU_CARD(BARBU_HEARTS, BARBU_QUEEN);
    assert_int_equal(BARBU_SUIT(qh), BARBU_HEARTS);
    assert_int_equal(BARBU_RANK(qh), BARBU_QUEEN);

    /* The k-th card, lowest first, across the lanes of the suits. */
    barbu_cards set = cards_of("3C AC 2D 5H KS");
    assert_int_equal(barbu_nth_card(set, 0), BARBU_CARD(BARBU_CLUBS, 3));
    assert_int_equal(barbu_nth_card(set, 1), BARBU_CARD(BARBU_CLUBS, BARBU_ACE));
    assert_int_equal(barbu_nth_card(set, 2), BARBU_CARD(BARBU_DIAMONDS, 2));
    assert_int_equal(barbu_nth_card(set, 3), BARBU_CARD(BARBU_HEARTS, 5));
    assert_int_equal(barbu_nth_card(set, 4), BARBU_CARD(BARBU_SPADES, BARBU_KING));
    for (unsigned k = 0; k < 52; k++) {
        int card = barbu_nth_card(BARBU_ALL_CARDS, k);
        assert_int_equal(BARBU_SUIT(card), (int)k / 13);
        assert_int_equal(BARBU_RANK(card), 2 + (int)k % 13);
    }
}

static void test_action_equal(void **state)
{
    (void)state;
    barbu_action a = barbu_act_play(N, card_of("QH"));
    barbu_action b = barbu_act_play(N, card_of("QH"));
    assert_true(barbu_action_equal(&a, &b));
    b = barbu_act_play(E, card_of("QH"));
    assert_false(barbu_action_equal(&a, &b));
    b = barbu_act_play(N, card_of("KH"));
    assert_false(barbu_action_equal(&a, &b));

    a = barbu_act_declare(S, 5, BARBU_SPADES, 0);
    b = barbu_act_declare(S, 5, BARBU_SPADES, 0);
    assert_true(barbu_action_equal(&a, &b));
    b.trump = BARBU_HEARTS;
    assert_false(barbu_action_equal(&a, &b));

    a = barbu_act_bid(W, 0x3, 0x4);
    b = barbu_act_bid(W, 0x3, 0x4);
    assert_true(barbu_action_equal(&a, &b));
    b.redoubles = 0;
    assert_false(barbu_action_equal(&a, &b));
}

static void test_strerror(void **state)
{
    (void)state;
    assert_string_equal(barbu_strerror(BARBU_OK), "success");
    assert_string_equal(barbu_strerror(BARBU_EFOLLOW), "must follow suit");
    const char *seen[64] = {0};
    for (int err = BARBU_OK; err >= BARBU_ELIMIT; err--) {
        const char *msg = barbu_strerror(err);
        assert_non_null(msg);
        assert_string_not_equal(msg, "unknown error");
        for (int k = 0; k < -err; k++)
            assert_string_not_equal(seen[k], msg);
        seen[-err] = msg;
    }
    assert_string_equal(barbu_strerror(-999), "unknown error");
    assert_string_equal(barbu_strerror(7), "unknown error");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_card_parse_forms),  cmocka_unit_test(test_card_parse_bad),
        cmocka_unit_test(test_card_format),       cmocka_unit_test(test_card_round_trip),
        cmocka_unit_test(test_hand_format_parse), cmocka_unit_test(test_hand_truncated_format),
        cmocka_unit_test(test_hand_parse_bad),    cmocka_unit_test(test_hand_round_trip_random),
        cmocka_unit_test(test_seat_names),        cmocka_unit_test(test_card_sets),
        cmocka_unit_test(test_action_equal),      cmocka_unit_test(test_strerror),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
