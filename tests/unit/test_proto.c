/*
 * test_proto.c - the protocol codec (src/server/proto.c, proto_view.c): the
 * strict decoder of every client message and each of its refusals, actions
 * through JSON and back for every legal action of many random games, and
 * views through JSON and back exactly, without another seat's cards.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "proto.h"

/* ---------------------------------------------------------------- helpers */

static proto_msg msg;
static proto_error err;

static int decode(const char *text)
{
    return proto_decode(text, strlen(text), &msg, &err);
}

static void decode_ok(const char *text)
{
    int rc = decode(text);
    if (rc != 0)
        fail_msg("refused %s: %s %s", text, err.code, err.text);
}

/* Refused with this code. */
static void refused(const char *text, const char *code)
{
    int rc = decode(text);
    if (rc == 0)
        fail_msg("accepted %s", text);
    if (strcmp(err.code, code) != 0)
        fail_msg("%s: wanted %s, got %s (%s)", text, code, err.code, err.text);
    assert_true(err.text[0] != '\0');
    /* Every refusal is a sentence a person reads: a capital first, a full stop, question or
     * exclamation mark last. */
    size_t n = strlen(err.text);
    char first = err.text[0];
    if (!(first >= 'A' && first <= 'Z') || !strchr(".?!", err.text[n - 1]))
        fail_msg("%s: the refusal is not a sentence: %s", text, err.text);
}

/* ----------------------------------------------------------- the messages */

static void test_hello(void **unused)
{
    (void)unused;
    decode_ok("{\"type\": \"hello\", \"version\": 1, \"name\": \"alice b.\", \"id\": 7}");
    assert_int_equal(msg.type, PROTO_HELLO);
    assert_int_equal(msg.version, 1);
    assert_string_equal(msg.name, "alice b.");
    assert_string_equal(msg.token, "");
    assert_true(msg.has_id);
    assert_int_equal(msg.id, 7);
    assert_false(msg.lobby_chat);
    /* Lobby chat comes only to those who ask for it. */
    decode_ok("{\"type\":\"hello\",\"version\":1,\"name\":\"a\",\"lobby_chat\":true}");
    assert_true(msg.lobby_chat);
    decode_ok("{\"type\":\"hello\",\"version\":1,\"name\":\"a\",\"lobby_chat\":false}");
    assert_false(msg.lobby_chat);
    refused("{\"type\":\"hello\",\"version\":1,\"name\":\"a\",\"lobby_chat\":1}", "bad_field");

    const char *token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    char text[300];
    snprintf(text, sizeof text, "{\"type\":\"hello\",\"version\":1,\"token\":\"%s\"}", token);
    decode_ok(text);
    assert_string_equal(msg.token, token);
    assert_string_equal(msg.name, "");
    assert_false(msg.has_id);
    snprintf(text, sizeof text,
             "{\"type\":\"hello\",\"version\":1,\"token\":\"%s\",\"name\":\"a\"}", token);
    decode_ok(text);
    assert_string_equal(msg.name, "a");
    /* The version is the server's to judge; any whole number is read. */
    decode_ok("{\"type\":\"hello\",\"version\":2,\"name\":\"a\"}");
    assert_int_equal(msg.version, 2);

    refused("{\"type\":\"hello\",\"name\":\"a\"}", "bad_field");
    refused("{\"type\":\"hello\",\"version\":1}", "bad_field"); /* no name, no token */
    refused("{\"type\":\"hello\",\"version\":\"1\",\"name\":\"a\"}", "bad_field");
    refused("{\"type\":\"hello\",\"version\":1.0,\"name\":\"a\"}", "bad_field");
    refused("{\"type\":\"hello\",\"version\":1,\"name\":null}", "bad_field");
    refused("{\"type\":\"hello\",\"version\":1,\"name\":\"\"}", "bad_name");
    refused("{\"type\":\"hello\",\"version\":1,\"name\":\"abcdefghijklmnopqrstu\"}", "bad_name");
    decode_ok("{\"type\":\"hello\",\"version\":1,\"name\":\"abcdefghijklmnopqrst\"}");
    refused("{\"type\":\"hello\",\"version\":1,\"name\":\" a\"}", "bad_name");
    refused("{\"type\":\"hello\",\"version\":1,\"name\":\"a \"}", "bad_name");
    refused("{\"type\":\"hello\",\"version\":1,\"name\":\"a  b\"}", "bad_name");
    refused("{\"type\":\"hello\",\"version\":1,\"name\":\"a\\tb\"}", "bad_name");
    /* Handles are Unicode: the decoder counts code points and refuses
     * control and invisible characters; the rest of the rule (letters,
     * scripts, look-alikes) is the server's (srv_handle_check). */
    decode_ok("{\"type\":\"hello\",\"version\":1,\"name\":\"caf\\u00e9\"}");
    assert_string_equal(msg.name, "caf\xc3\xa9");
    decode_ok("{\"type\":\"hello\",\"version\":1,\"name\":\"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
              "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
              "\\u00e9\\u00e9\\u00e9\"}");
    refused("{\"type\":\"hello\",\"version\":1,\"name\":\"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
            "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
            "\\u00e9\\u00e9\\u00e9\\u00e9\"}",
            "bad_name");
    refused("{\"type\":\"hello\",\"version\":1,\"name\":\"a\\u200bb\"}", "bad_name");
    refused("{\"type\":\"hello\",\"version\":1,\"name\":\"a\\u0085b\"}", "bad_name");
    refused("{\"type\":\"hello\",\"version\":1,\"token\":\"abc\"}", "bad_token");
    snprintf(text, sizeof text, "{\"type\":\"hello\",\"version\":1,\"token\":\"%.63sA\"}", token);
    refused(text, "bad_token");
    snprintf(text, sizeof text, "{\"type\":\"hello\",\"version\":1,\"token\":\"%s0\"}", token);
    refused(text, "bad_token");
    refused("{\"type\":\"hello\",\"version\":1,\"token\":64}", "bad_field");
}

static void test_name_ok(void **unused)
{
    (void)unused;
    assert_true(proto_name_ok("a"));
    assert_true(proto_name_ok("Al_9-x.y z"));
    assert_true(proto_name_ok("a b c"));
    assert_false(proto_name_ok(NULL));
    assert_false(proto_name_ok(""));
    assert_false(proto_name_ok(" "));
    assert_false(proto_name_ok("a  b"));
    /* The cheap checks only: "a/b" and "Zo\u00eb" pass here, and the
     * server's rule (srv_handle_check) refuses the first. */
    assert_true(proto_name_ok("a/b"));
    assert_true(proto_name_ok("a\xc3\xa9"));
    assert_false(proto_name_ok("a\xc3"));         /* not UTF-8 */
    assert_false(proto_name_ok("a\x01"));         /* a control */
    assert_false(proto_name_ok("a\xe2\x80\x8b")); /* zero width space */
    assert_false(proto_name_ok("123456789012345678901"));
    assert_true(proto_name_ok("12345678901234567890"));
}

/* The password fields: read, and never quoted in a refusal. */
static void test_passwords(void **unused)
{
    (void)unused;
    const char *secret = "hunter2-Secret!";
    char text[1400];
    snprintf(text, sizeof text,
             "{\"type\":\"hello\",\"version\":1,\"name\":\"Zo\\u00eb\",\"password\":\"%s\","
             "\"register\":true}",
             secret);
    decode_ok(text);
    assert_string_equal(msg.password, secret);
    assert_true(msg.reg);
    decode_ok("{\"type\":\"register\",\"password\":\"abcdefgh\"}");
    assert_int_equal(msg.type, PROTO_REGISTER);
    assert_string_equal(msg.password, "abcdefgh");
    decode_ok("{\"type\":\"password\",\"password\":\"old one!\",\"new_password\":\"new one!\"}");
    assert_int_equal(msg.type, PROTO_PASSWORD);
    assert_string_equal(msg.new_password, "new one!");
    decode_ok("{\"type\":\"logout\",\"everywhere\":true}");
    assert_true(msg.everywhere);
    decode_ok("{\"type\":\"logout\"}");
    assert_false(msg.everywhere);

    /* Every refusal of a message with a password leaves it out. */
    const char *bad[] = {
        /* a password with a token */
        "{\"type\":\"hello\",\"version\":1,\"token\":\"0123456789abcdef0123456789abcdef0123456789"
        "abcdef0123456789abcdef\",\"password\":\"%s\"}",
        /* no name */
        "{\"type\":\"hello\",\"version\":1,\"password\":\"%s\"}",
        /* a bad name beside it */
        "{\"type\":\"hello\",\"version\":1,\"name\":\"a  b\",\"password\":\"%s\"}",
        /* a bad type of register */
        "{\"type\":\"hello\",\"version\":1,\"name\":\"a\",\"password\":\"%s\",\"register\":1}",
        /* unknown field */
        "{\"type\":\"register\",\"password\":\"%s\",\"colour\":1}",
        /* not JSON, the password near the fault */
        "{\"type\":\"register\",\"password\":\"%s\x01\"}",
        "{\"type\":\"register\",\"password\":\"%s\" x}",
        "{\"type\":\"password\",\"password\":\"%s\"}",
        "{\"type\":\"password\",\"new_password\":\"%s\",\"password\":7}",
        "{\"type\":\"password\",\"password\":\"%s\",\"password\":\"%s\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, bad[i], secret, secret);
        int rc = decode(text);
        if (rc == 0)
            fail_msg("accepted %s", text);
        if (strstr(err.text, "hunter") || strstr(err.text, "Secret"))
            fail_msg("the refusal of %s quotes the password: %s", text, err.text);
    }
    /* Too long: 513 bytes. */
    char big[600];
    memset(big, 'x', 513);
    big[513] = '\0';
    snprintf(text, sizeof text, "{\"type\":\"register\",\"password\":\"%s\"}", big);
    refused(text, "bad_value");
    assert_null(strstr(err.text, "xxxx"));
    refused("{\"type\":\"hello\",\"version\":1,\"name\":\"a\",\"register\":true}", "bad_field");
    refused("{\"type\":\"register\"}", "bad_field");
    refused("{\"type\":\"register\",\"password\":\"\"}", "bad_value");
}

static void test_simple_messages(void **unused)
{
    (void)unused;
    decode_ok("{\"type\":\"tables\"}");
    assert_int_equal(msg.type, PROTO_TABLES);
    decode_ok("{\"type\":\"leave\",\"id\":0}");
    assert_int_equal(msg.type, PROTO_LEAVE);
    assert_true(msg.has_id);
    assert_int_equal(msg.id, 0);

    decode_ok("{\"type\":\"sit\",\"table\":7,\"seat\":\"W\"}");
    assert_int_equal(msg.type, PROTO_SIT);
    assert_int_equal(msg.table, 7);
    assert_int_equal(msg.seat, W);
    refused("{\"type\":\"sit\",\"table\":7,\"seat\":\"all\"}", "bad_seat");
    refused("{\"type\":\"sit\",\"table\":7,\"seat\":\"X\"}", "bad_value");
    refused("{\"type\":\"sit\",\"table\":7,\"seat\":\"n\"}", "bad_value");
    refused("{\"type\":\"sit\",\"table\":7}", "bad_field");
    refused("{\"type\":\"sit\",\"seat\":\"N\"}", "bad_field");
    refused("{\"type\":\"sit\",\"table\":-1,\"seat\":\"N\"}", "bad_value");
    refused("{\"type\":\"sit\",\"table\":\"7\",\"seat\":\"N\"}", "bad_field");

    decode_ok("{\"type\":\"kibitz\",\"table\":3,\"seat\":\"all\"}");
    assert_int_equal(msg.type, PROTO_KIBITZ);
    assert_int_equal(msg.table, 3);
    assert_int_equal(msg.seat, PROTO_SEAT_ALL);
    decode_ok("{\"type\":\"kibitz\",\"table\":3,\"seat\":\"E\"}");
    assert_int_equal(msg.seat, E);

    decode_ok("{\"type\":\"bot\",\"seat\":\"S\"}");
    assert_int_equal(msg.type, PROTO_BOT);
    assert_int_equal(msg.seat, S);
    assert_string_equal(msg.level, ""); /* not sent: the table's level */
    decode_ok("{\"type\":\"bot\",\"seat\":\"S\",\"level\":\"random\"}");
    assert_string_equal(msg.level, "random");
    refused("{\"type\":\"bot\",\"seat\":\"S\",\"level\":\"Random\"}", "bad_value");
    refused("{\"type\":\"bot\",\"level\":\"random\"}", "bad_field");

    decode_ok("{\"type\":\"score\"}");
    assert_int_equal(msg.type, PROTO_SCORE);
    assert_int_equal(msg.table, 0);
    decode_ok("{\"type\":\"score\",\"table\":12}");
    assert_int_equal(msg.table, 12);
    decode_ok("{\"type\":\"record\",\"table\":5}");
    assert_int_equal(msg.type, PROTO_RECORD);
    assert_int_equal(msg.table, 5);
    refused("{\"type\":\"record\"}", "bad_field");

    /* Leaving safely and playing again (issue 22). */
    decode_ok("{\"type\":\"logout\"}");
    assert_int_equal(msg.type, PROTO_LOGOUT);
    refused("{\"type\":\"logout\",\"table\":3}", "bad_field");
    static const char *const BY_TABLE[] = {"close", "hand_over", "again"};
    static const int TYPES[] = {PROTO_CLOSE, PROTO_HAND_OVER, PROTO_AGAIN};
    for (int i = 0; i < 3; i++) {
        char text[96];
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"table\":7}", BY_TABLE[i]);
        decode_ok(text);
        assert_int_equal(msg.type, TYPES[i]);
        assert_int_equal(msg.table, 7);
        assert_string_equal(proto_type_name(TYPES[i]), BY_TABLE[i]);
        snprintf(text, sizeof text, "{\"type\":\"%s\"}", BY_TABLE[i]);
        refused(text, "bad_field");
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"table\":\"7\"}", BY_TABLE[i]);
        refused(text, "bad_field");
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"table\":7,\"seat\":\"N\"}", BY_TABLE[i]);
        refused(text, "bad_field");
    }
}

static void test_create(void **unused)
{
    (void)unused;
    decode_ok("{\"type\":\"create\",\"rules\":\"uk\"}");
    assert_int_equal(msg.type, PROTO_CREATE);
    assert_string_equal(msg.rules, "uk");
    assert_string_equal(msg.house, "");
    assert_false(msg.has_seed);
    assert_int_equal(msg.kibitz, PROTO_KIBITZ_SEAT);
    assert_int_equal(msg.grace, 300);
    assert_int_equal(msg.takeover, PROTO_TAKEOVER_VOTE);
    assert_int_equal(msg.bots, 0);
    assert_string_equal(msg.level, ""); /* not sent: the server's default, medium */
    assert_int_equal(msg.delay, 600);
    assert_int_equal(msg.sit, -1);
    assert_int_equal(msg.seat, -1);

    decode_ok("{\"type\":\"create\",\"rules\":\"fife\",\"house\":\"israeli = enforce\\n\","
              "\"seed\":\"18446744073709551615\",\"kibitz\":\"all\",\"grace\":3600,"
              "\"takeover\":\"bot\",\"bots\":[\"E\",\"S\",\"W\"],\"level\":\"random\","
              "\"delay\":0,\"sit\":\"N\",\"id\":2147483647}");
    assert_string_equal(msg.rules, "fife");
    assert_string_equal(msg.house, "israeli = enforce\n");
    assert_true(msg.has_seed);
    assert_true(msg.seed == UINT64_MAX);
    assert_int_equal(msg.kibitz, PROTO_KIBITZ_ALL);
    assert_int_equal(msg.grace, 3600);
    assert_int_equal(msg.takeover, PROTO_TAKEOVER_BOT);
    assert_int_equal(msg.bots, 0xe);
    assert_string_equal(msg.level, "random");
    assert_int_equal(msg.delay, 0);
    assert_int_equal(msg.sit, N);
    assert_int_equal(msg.id, 2147483647);
    decode_ok("{\"type\":\"create\",\"rules\":\"uk\",\"kibitz\":\"none\",\"seed\":\"0\"}");
    assert_int_equal(msg.kibitz, PROTO_KIBITZ_NONE);
    assert_true(msg.has_seed);
    assert_true(msg.seed == 0);
    decode_ok("{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\"00000000000000000042\"}");
    assert_true(msg.seed == 42);

    refused("{\"type\":\"create\"}", "bad_field");
    refused("{\"type\":\"create\",\"rules\":\"nope\"}", "bad_rules");
    refused("{\"type\":\"create\",\"rules\":\"ukukukukukukukukukukuk\"}", "bad_rules");
    refused("{\"type\":\"create\",\"rules\":7}", "bad_field");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"colour\":\"red\"}", "bad_field");
    assert_string_equal(err.text, "There is no field \"colour\" in create: leave it out "
                                  "(docs/protocol.md lists the fields).");
    assert_string_equal(err.re, "create");
    /* Seeds: digits only, 0 to 2^64 - 1. */
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\"18446744073709551616\"}",
            "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\"99999999999999999999\"}",
            "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\"000000000000000000001\"}",
            "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\"-1\"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\"+1\"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\" 1\"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\"1 \"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\"\"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"seed\":\"0x10\"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"seed\":12345}", "bad_field");
    /* Ranges and words. */
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"grace\":3601}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"grace\":-1}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"delay\":5001}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"delay\":1.5}", "bad_field");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"kibitz\":\"some\"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"kibitz\":true}", "bad_field");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"takeover\":\"never\"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"bots\":[\"E\",\"E\"]}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"bots\":[\"Q\"]}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"bots\":\"E\"}", "bad_field");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"bots\":[1]}", "bad_field");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"level\":\"\"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"level\":\"abcdefghijklmnop\"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"level\":\"heur1stic\"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"sit\":\"all\"}", "bad_seat");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"sit\":null}", "bad_field");

    /* House rules up to 4096 bytes, as a string. */
    char *text = malloc(PROTO_MAX_MESSAGE);
    assert_non_null(text);
    int n = snprintf(text, PROTO_MAX_MESSAGE, "{\"type\":\"create\",\"rules\":\"uk\",\"house\":\"");
    memset(text + n, '#', PROTO_MAX_HOUSE);
    snprintf(text + n + PROTO_MAX_HOUSE, 8, "\"}");
    decode_ok(text);
    assert_int_equal(strlen(msg.house), PROTO_MAX_HOUSE);
    memset(text + n, '#', PROTO_MAX_HOUSE + 1);
    snprintf(text + n + PROTO_MAX_HOUSE + 1, 8, "\"}");
    refused(text, "bad_value");
    free(text);
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"house\":[]}", "bad_field");
}

static void test_moderation(void **unused)
{
    (void)unused;
    decode_ok("{\"type\":\"create\",\"rules\":\"uk\",\"ladder\":true}");
    assert_true(msg.ladder);
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"ladder\":1}", "bad_field");
    /* The club's create options: rated, and whose a seat's points are. */
    decode_ok("{\"type\":\"create\",\"rules\":\"uk\"}");
    assert_false(msg.rated);
    assert_int_equal(msg.credit, PROTO_CREDIT_RECORD);
    decode_ok("{\"type\":\"create\",\"rules\":\"uk\",\"rated\":true,\"credit\":\"deals\"}");
    assert_true(msg.rated);
    assert_int_equal(msg.credit, PROTO_CREDIT_DEALS);
    decode_ok("{\"type\":\"create\",\"rules\":\"uk\",\"credit\":\"record\"}");
    assert_int_equal(msg.credit, PROTO_CREDIT_RECORD);
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"rated\":\"yes\"}", "bad_field");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"credit\":\"seat\"}", "bad_value");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"credit\":1}", "bad_field");

    decode_ok("{\"type\":\"mod_close\",\"table\":7,\"text\":\"  Spam  \"}");
    assert_int_equal(msg.type, PROTO_MOD_CLOSE);
    assert_int_equal(msg.table, 7);
    assert_string_equal(msg.mod_text, "Spam");
    decode_ok("{\"type\":\"mod_close\",\"table\":7}");
    assert_string_equal(msg.mod_text, "");
    refused("{\"type\":\"mod_close\"}", "bad_field");
    refused("{\"type\":\"mod_close\",\"table\":0}", "bad_value");

    decode_ok("{\"type\":\"mod_remove\",\"table\":7,\"seat\":\"W\"}");
    assert_int_equal(msg.seat, 3);
    refused("{\"type\":\"mod_remove\",\"table\":7}", "bad_field");
    refused("{\"type\":\"mod_remove\",\"table\":7,\"seat\":\"all\"}", "bad_seat");

    decode_ok("{\"type\":\"ban\",\"name\":\"Mallory\",\"text\":\"Cheating\"}");
    assert_int_equal(msg.type, PROTO_BAN);
    assert_string_equal(msg.name, "Mallory");
    refused("{\"type\":\"ban\"}", "bad_field");
    refused("{\"type\":\"ban\",\"name\":\" x\"}", "bad_name");
    refused("{\"type\":\"ban\",\"name\":\"x\",\"table\":3}", "bad_field");
    decode_ok("{\"type\":\"unban\",\"name\":\"mallory\"}");
    assert_int_equal(msg.type, PROTO_UNBAN);

    decode_ok("{\"type\":\"report\",\"table\":3,\"text\":\"Rude\"}");
    assert_int_equal(msg.type, PROTO_REPORT);
    assert_int_equal(msg.table, 3);
    assert_string_equal(msg.name, "");
    decode_ok("{\"type\":\"report\",\"name\":\"bob\",\"text\":\"Rude\"}");
    refused("{\"type\":\"report\",\"text\":\"Rude\"}", "bad_field");
    refused("{\"type\":\"report\",\"name\":\"bob\"}", "bad_field");
    refused("{\"type\":\"report\",\"name\":\"bob\",\"text\":\"   \"}", "bad_text");
    refused("{\"type\":\"report\",\"name\":\"bob\",\"text\":\"a\\u202eb\"}", "bad_text");
    /* 300 characters, counted as characters: "é" is two bytes each. */
    char big[1200];
    strcpy(big, "{\"type\":\"report\",\"name\":\"bob\",\"text\":\"");
    for (int i = 0; i < 300; i++)
        strcat(big, "\xc3\xa9");
    strcat(big, "\"}");
    decode_ok(big);
    assert_int_equal(strlen(msg.mod_text), 600);
    big[strlen(big) - 2] = '\0';
    strcat(big, "\xc3\xa9\"}");
    refused(big, "bad_text");

    decode_ok("{\"type\":\"mod_log\",\"id\":3}");
    assert_int_equal(msg.type, PROTO_MOD_LOG);
    refused("{\"type\":\"mod_log\",\"table\":3}", "bad_field");
}

static void test_chat(void **unused)
{
    (void)unused;
    decode_ok("{\"type\":\"chat\",\"text\":\"  hello all \"}");
    assert_int_equal(msg.type, PROTO_CHAT);
    assert_string_equal(msg.text, "hello all");
    decode_ok("{\"type\":\"chat\",\"text\":\"caf\xc3\xa9 \\u2665 \xf0\x9f\x82\xa1\"}");
    assert_string_equal(msg.text, "caf\xc3\xa9 \xe2\x99\xa5 \xf0\x9f\x82\xa1");
    refused("{\"type\":\"chat\",\"text\":\"   \"}", "bad_text");
    refused("{\"type\":\"chat\",\"text\":\"\"}", "bad_text");
    refused("{\"type\":\"chat\",\"text\":\"a\\nb\"}", "bad_text");
    refused("{\"type\":\"chat\",\"text\":\"a\\tb\"}", "bad_text");
    refused("{\"type\":\"chat\",\"text\":\"a\\u007fb\"}", "bad_text");
    refused("{\"type\":\"chat\",\"text\":\"a\\u0085b\"}", "bad_text"); /* C1 NEL */
    refused("{\"type\":\"chat\",\"text\":\"a\xc2\x9b\"}", "bad_text"); /* C1 CSI */
    refused("{\"type\":\"chat\",\"text\":\"a\\u0000b\"}", "bad_json"); /* NUL */
    /* Bad UTF-8 is not JSON (RFC 8259), wherever it is. */
    refused("{\"type\":\"chat\",\"text\":\"a\xff\"}", "bad_json");
    refused("{\"type\":\"chat\",\"text\":\"a\xc3\"}", "bad_json");
    refused("{\"type\":\"chat\",\"text\":\"\xed\xa0\x80\"}", "bad_json"); /* a surrogate */
    refused("{\"type\":\"chat\",\"text\":\"\\ud800\"}", "bad_json");
    refused("{\"type\":\"chat\"}", "bad_field");
    refused("{\"type\":\"chat\",\"text\":[\"hi\"]}", "bad_field");

    /* 300 bytes after trimming, not before. */
    char text[700];
    int n = snprintf(text, sizeof text, "{\"type\":\"chat\",\"text\":\"  ");
    memset(text + n, 'x', PROTO_MAX_CHAT);
    snprintf(text + n + PROTO_MAX_CHAT, 16, "  \"}");
    decode_ok(text);
    assert_int_equal(strlen(msg.text), PROTO_MAX_CHAT);
    memset(text + n, 'x', PROTO_MAX_CHAT + 1);
    snprintf(text + n + PROTO_MAX_CHAT + 1, 16, "\"}");
    refused(text, "bad_text");
    /* 100 three-byte characters are 300 bytes. */
    n = snprintf(text, sizeof text, "{\"type\":\"chat\",\"text\":\"");
    for (int i = 0; i < 100; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "\xe2\x99\xa5");
    snprintf(text + n, sizeof text - (size_t)n, "\"}");
    decode_ok(text);
    assert_int_equal(strlen(msg.text), 300);
}

/* The characters that reorder or hide text are refused by name, in chat and
 * in house rules; the joiners that emoji and scripts need are not. */
static void test_chat_hidden(void **unused)
{
    (void)unused;
    static const struct {
        const char *json, *named;
    } REFUSED[] = {
        {"\\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"},
        {"\\u202a", "U+202A LEFT-TO-RIGHT EMBEDDING"},
        {"\\u202b", "U+202B RIGHT-TO-LEFT EMBEDDING"},
        {"\\u202c", "U+202C POP DIRECTIONAL FORMATTING"},
        {"\\u202d", "U+202D LEFT-TO-RIGHT OVERRIDE"},
        {"\\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"},
        {"\\u2067", "U+2067 RIGHT-TO-LEFT ISOLATE"},
        {"\\u2068", "U+2068 FIRST STRONG ISOLATE"},
        {"\\u2069", "U+2069 POP DIRECTIONAL ISOLATE"},
        {"\\u200e", "U+200E LEFT-TO-RIGHT MARK"},
        {"\\u200f", "U+200F RIGHT-TO-LEFT MARK"},
        {"\\u061c", "U+061C ARABIC LETTER MARK"},
        {"\\u200b", "U+200B ZERO WIDTH SPACE"},
        {"\\u2060", "U+2060 WORD JOINER"},
        {"\\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"},
        {"\\u00ad", "U+00AD SOFT HYPHEN"},
        {"\\u2028", "U+2028 LINE SEPARATOR"},
        {"\\u206e", "U+206E NATIONAL DIGIT SHAPES"},
        {"\\ufff9", "U+FFF9 INTERLINEAR ANNOTATION ANCHOR"},
        {"\\udb40\\udc41", "U+E0041 a tag character"},
        {"\xe2\x80\xae", "U+202E RIGHT-TO-LEFT OVERRIDE"}, /* raw UTF-8 */
        {"\\u0085", "U+0085, a control character"},
        {"\\u001b", "U+001B, a control character"},
    };
    char text[200];
    for (size_t i = 0; i < sizeof REFUSED / sizeof REFUSED[0]; i++) {
        snprintf(text, sizeof text, "{\"type\":\"chat\",\"text\":\"exe.%sgnp\"}", REFUSED[i].json);
        refused(text, "bad_text");
        if (strstr(err.text, REFUSED[i].named) == NULL)
            fail_msg("%s: the error does not name %s: %s", text, REFUSED[i].named, err.text);
        snprintf(
            text, sizeof text,
            "{\"type\":\"create\",\"rules\":\"uk\",\"house\":\"# see %s\\nisraeli = enforce\\n\"}",
            REFUSED[i].json);
        refused(text, "bad_text");
        if (strstr(err.text, REFUSED[i].named) == NULL)
            fail_msg("%s: the error does not name %s: %s", text, REFUSED[i].named, err.text);
    }
    /* Zero-width joiners (a family emoji), non-joiners (Persian), Arabic and
     * Hebrew letters and variation selectors are text. */
    decode_ok(
        "{\"type\":\"chat\",\"text\":\"\\ud83d\\udc69\\u200d\\ud83d\\udc67 "
        "\\u0645\\u06cc\\u200c\\u062e\\u0648\\u0627\\u0647\\u0645 \\u05e9\\u05dc\\u05d5\\u05dd "
        "\\u2665\\ufe0f\"}");
    /* House rules may hold tabs and line breaks, the chat line may not. */
    decode_ok(
        "{\"type\":\"create\",\"rules\":\"uk\",\"house\":\"# ours\\r\\n\\tisraeli = enforce\\n\"}");
    refused("{\"type\":\"create\",\"rules\":\"uk\",\"house\":\"# \\u001b[2J\\n\"}", "bad_text");
}

static void test_act(void **unused)
{
    (void)unused;
    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"trumps\"],"
              "\"trump\":\"S\"},\"at\":153}");
    assert_int_equal(msg.type, PROTO_ACT);
    assert_true(msg.has_at);
    assert_int_equal(msg.at, 153);
    assert_int_equal(msg.action.type, BARBU_ACT_DECLARE);
    assert_int_equal(msg.action.n_contracts, 1);
    assert_string_equal(msg.action.contracts[0], "trumps");
    assert_int_equal(msg.action.trump, BARBU_SPADES);
    assert_int_equal(msg.action.rank, 0);

    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"domino\"],"
              "\"rank\":\"T\"}}");
    assert_false(msg.has_at);
    assert_int_equal(msg.action.trump, -1);
    assert_int_equal(msg.action.rank, 10);
    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"aces\","
              "\"queens\",\"hearts\"]}}");
    assert_int_equal(msg.action.n_contracts, 3);
    assert_string_equal(msg.action.contracts[2], "hearts");

    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"bid\",\"double\":[\"N\",\"W\"],"
              "\"redouble\":[\"E\"]}}");
    assert_int_equal(msg.action.type, BARBU_ACT_BID);
    assert_int_equal(msg.action.doubles, 0x9);
    assert_int_equal(msg.action.redoubles, 0x2);
    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"bid\"}}");
    assert_int_equal(msg.action.doubles, 0);

    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"QS\"]}}");
    assert_int_equal(msg.action.type, BARBU_ACT_PLAY);
    assert_true(msg.action.cards == cards_of("QS"));
    decode_ok(
        "{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"10h\",\"JH\",\"QH\"]}}");
    assert_true(msg.action.cards == cards_of("TH JH QH"));
    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"pass\"}}");
    assert_int_equal(msg.action.type, BARBU_ACT_PASS);
    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"pass_on\",\"cards\":[\"AS\",\"KS\","
              "\"QS\"]}}");
    assert_int_equal(msg.action.type, BARBU_ACT_PASS_ON);
    assert_true(msg.action.cards == cards_of("AS KS QS"));
    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"cut\"}}");
    assert_int_equal(msg.action.type, BARBU_ACT_CUT);
    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"arrange\",\"back\":[\"AS\",\"AH\",\"AD\","
              "\"AC\",\"2C\"],\"middle\":[\"KS\",\"KH\",\"KD\",\"KC\",\"3C\"]}}");
    assert_int_equal(msg.action.type, BARBU_ACT_ARRANGE);
    assert_true(msg.action.cards == cards_of("AS AH AD AC 2C"));
    assert_true(msg.action.middle == cards_of("KS KH KD KC 3C"));

    refused("{\"type\":\"act\"}", "bad_field");
    refused("{\"type\":\"act\",\"action\":[]}", "bad_field");
    refused("{\"type\":\"act\",\"action\":{}}", "bad_field");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"dance\"}}", "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":3}}", "bad_field");
    /* A legal entry comes back with its seat: it must be the sender's. */
    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"pass\",\"seat\":\"E\"}}");
    assert_int_equal(msg.action.seat, 1);
    barbu_rules uk;
    assert_int_equal(barbu_rules_preset(&uk, "uk"), 0);
    barbu_action resolved;
    assert_int_equal(proto_action_resolve(&msg.action, &uk, 1, &resolved, &err), 0);
    assert_int_equal(resolved.seat, 1);
    assert_int_equal(proto_action_resolve(&msg.action, &uk, 2, &resolved, &err), -1);
    assert_string_equal(err.code, "bad_seat");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"pass\",\"seat\":\"all\"}}", "bad_seat");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"pass\",\"seat\":\"X\"}}", "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"pass\",\"cards\":[]}}", "bad_field");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"pass\"},\"at\":-1}", "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"pass\"},\"at\":4294967296}", "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"pass\"},\"at\":\"1\"}", "bad_field");
    /* Declarations. */
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\"}}", "bad_field");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[]}}", "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":\"trumps\"}}",
            "bad_field");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"a\",\"a\"]}}",
            "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"\"]}}",
            "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\","
            "\"contracts\":[\"abcdefghijklmnop\"]}}",
            "bad_value");
    decode_ok("{\"type\":\"act\",\"action\":{\"type\":\"declare\","
              "\"contracts\":[\"abcdefghijklmno\"]}}");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"a\",\"b\",\"c\","
            "\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\",\"l\",\"m\"]}}",
            "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[1]}}", "bad_field");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"trumps\"],"
            "\"trump\":\"X\"}}",
            "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"trumps\"],"
            "\"trump\":\"s\"}}",
            "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"trumps\"],"
            "\"trump\":\"SH\"}}",
            "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"domino\"],"
            "\"rank\":\"1\"}}",
            "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"domino\"],"
            "\"rank\":\"10\"}}",
            "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"domino\"],"
            "\"rank\":7}}",
            "bad_field");
    /* Bids. */
    refused("{\"type\":\"act\",\"action\":{\"type\":\"bid\",\"double\":[\"N\",\"N\"]}}",
            "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"bid\",\"redouble\":[\"all\"]}}", "bad_seat");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"bid\",\"double\":\"N\"}}", "bad_field");
    /* Cards. */
    refused("{\"type\":\"act\",\"action\":{\"type\":\"play\"}}", "bad_field");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[]}}", "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"QS\",\"QS\"]}}",
            "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"QSX\"]}}", "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"1S\"]}}", "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\" QS\"]}}", "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"\"]}}", "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[\"Joker\"]}}", "bad_value");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"play\",\"cards\":[12]}}", "bad_field");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"play\",\"card\":\"QS\"}}", "bad_field");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"pass_on\"}}", "bad_field");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"arrange\",\"back\":[\"AS\"]}}", "bad_field");
    refused("{\"type\":\"act\",\"action\":{\"type\":\"arrange\",\"back\":[],\"middle\":[],"
            "\"front\":[]}}",
            "bad_field");
}

static void test_envelope_errors(void **unused)
{
    (void)unused;
    refused("", "bad_json");
    refused("nonsense", "bad_json");
    refused("[1,2]", "bad_json");
    refused("\"hello\"", "bad_json");
    refused("{\"type\":\"tables\"} {}", "bad_json");
    refused("{\"type\":\"tables\",}", "bad_json");
    refused("{}", "bad_type");
    refused("{\"type\":\"dance\"}", "bad_type");
    assert_null(err.re);
    refused("{\"type\":7}", "bad_type");
    refused("{\"type\":null}", "bad_type");
    refused("{\"type\":\"tables\",\"type\":\"tables\"}", "bad_field"); /* duplicates */
    refused("{\"type\":\"sit\",\"table\":1,\"seat\":\"N\",\"seat\":\"E\"}", "bad_field");
    refused("{\"type\":\"tables\",\"x\":1}", "bad_field");
    refused("{\"type\":\"tables\",\"id\":-1}", "bad_value");
    refused("{\"type\":\"tables\",\"id\":2147483648}", "bad_value");
    refused("{\"type\":\"tables\",\"id\":\"1\"}", "bad_field");
    refused("{\"type\":\"tables\",\"id\":1.0}", "bad_field");
    refused("{\"type\":\"tables\",\"id\":null}", "bad_field");
    refused("{\"type\":\"Tables\"}", "bad_type");
    refused("{\"type\":\"tables\\u0000\"}", "bad_json");

    /* The id and the type are echoed in the errors that follow them. */
    refused("{\"id\":41,\"type\":\"create\",\"rules\":\"uk\",\"grace\":-5}", "bad_value");
    assert_true(err.has_id);
    assert_int_equal(err.id, 41);
    assert_string_equal(err.re, "create");
    refused("{\"id\":9,\"type\":\"dance\"}", "bad_type");
    assert_true(err.has_id);
    assert_int_equal(err.id, 9);
    assert_null(err.re);
    refused("{\"id\":3,\"type\":\"chat\",\"text\":\"\\u0001\"}", "bad_text");
    assert_int_equal(err.id, 3);
    assert_string_equal(err.re, "chat");
    refused("{\"type\":\"chat\",\"text\":\"\\u0001\"}", "bad_text");
    assert_false(err.has_id);

    /* too_big comes before parsing: even garbage of that size. */
    char *big = malloc(PROTO_MAX_MESSAGE + 2);
    assert_non_null(big);
    memset(big, ' ', PROTO_MAX_MESSAGE + 1);
    memcpy(big, "{\"type\":\"tables\"}", 17);
    assert_int_equal(proto_decode(big, PROTO_MAX_MESSAGE, &msg, &err), 0);
    assert_int_equal(proto_decode(big, PROTO_MAX_MESSAGE + 1, &msg, &err), -1);
    assert_string_equal(err.code, "too_big");
    memset(big, 0xff, PROTO_MAX_MESSAGE + 1);
    assert_int_equal(proto_decode(big, PROTO_MAX_MESSAGE + 1, &msg, &err), -1);
    assert_string_equal(err.code, "too_big");
    free(big);

    /* Bytes after a NUL are still the message's: refused, not cut short. */
    const char nul[] = "{\"type\":\"tables\"}\0{";
    assert_int_equal(proto_decode(nul, sizeof nul - 1, &msg, &err), -1);
    assert_string_equal(err.code, "bad_json");

    /* An error's JSON. */
    refused("{\"id\":4,\"type\":\"create\",\"rules\":\"uk\",\"colour\":1}", "bad_field");
    json_t *e = proto_error_json(&err);
    char *text = proto_dump(e, NULL);
    assert_string_equal(text, "{\"type\":\"error\",\"code\":\"bad_field\",\"text\":\"There is no "
                              "field \\\"colour\\\" in create: leave it out (docs/protocol.md "
                              "lists the fields).\",\"re\":\"create\",\"id\":4}");
    free(text);
    json_decref(e);
    /* A long unknown field is quoted in part, cut between characters. */
    char field[200];
    int n = snprintf(field, sizeof field, "{\"type\":\"tables\",\"");
    for (int i = 0; i < 30; i++)
        n += snprintf(field + n, sizeof field - (size_t)n, "\xc3\xa9");
    snprintf(field + n, sizeof field - (size_t)n, "\":1}");
    refused(field, "bad_field");
    e = proto_error_json(&err);
    assert_non_null(e);
    size_t len;
    text = proto_dump(e, &len);
    assert_non_null(text);
    assert_int_equal(len, strlen(text));
    assert_non_null(strstr(text, "There is no field"));
    free(text);
    json_decref(e);
}

/* A table's rules: the preset with the house rules over it, as the server
 * builds them and a client rebuilds them. */
static void test_table_rules(void **unused)
{
    (void)unused;
    barbu_rules r;
    char why[200];
    assert_int_equal(proto_table_rules("classic", "", &r, why, sizeof why), 0);
    assert_string_equal(r.preset, "classic");
    assert_int_equal(
        proto_table_rules("classic", "# ours\nisraeli = enforce\n", &r, why, sizeof why), 0);
    assert_string_equal(r.preset, "classic");
    assert_int_equal(r.israeli, BARBU_ISRAELI_ENFORCE);
    assert_int_equal(
        proto_table_rules("uk", "preset = uk\nisraeli = enforce\n", &r, why, sizeof why), 0);
    assert_int_equal(r.israeli, BARBU_ISRAELI_ENFORCE);
    /* A house text the engine refuses as a whole (scores that no longer sum
     * to zero), with the line it names. */
    assert_int_equal(proto_table_rules("classic", "# ours\ndeck = 32\n", &r, why, sizeof why), -1);
    assert_non_null(strstr(why, "line 2"));
    assert_int_equal(proto_table_rules("uk", "preset = king\n", &r, why, sizeof why), -1);
    assert_non_null(strstr(why, "'king'"));
    /* The line numbers are the house text's own. */
    assert_int_equal(proto_table_rules("uk", "deck = 32\ncolour = red\n", &r, why, sizeof why), -1);
    assert_non_null(strstr(why, "line 2"));
    assert_int_equal(proto_table_rules("nosuch", "", &r, why, sizeof why), -1);
}

/* The rule set a table message shows its clients: every contract with its
 * name, kind and times per player, and the game's shape. */
static void test_rules_json(void **unused)
{
    (void)unused;
    barbu_rules r;
    char why[200];
    assert_int_equal(proto_table_rules("king", "", &r, why, sizeof why), 0);
    json_t *o = proto_rules_json(&r);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "game")), "contracts");
    assert_int_equal(json_integer_value(json_object_get(o, "deck")), 52);
    assert_null(json_object_get(o, "sets"));
    json_t *list = json_object_get(o, "contracts");
    assert_int_equal(json_array_size(list), r.n_contracts);
    for (int i = 0; i < r.n_contracts; i++) {
        json_t *c = json_array_get(list, (size_t)i);
        assert_string_equal(json_string_value(json_object_get(c, "key")), r.contract[i].key);
        assert_string_equal(json_string_value(json_object_get(c, "name")), r.contract[i].name);
        assert_string_equal(json_string_value(json_object_get(c, "kind")),
                            proto_kind_name(r.contract[i].kind));
        assert_int_equal(json_integer_value(json_object_get(c, "per_player")),
                         r.contract[i].per_player);
    }
    json_decref(o);

    assert_int_equal(proto_table_rules("fife", "sets = 2\n", &r, why, sizeof why), 0);
    o = proto_rules_json(&r);
    assert_string_equal(json_string_value(json_object_get(o, "game")), "fife");
    assert_int_equal(json_integer_value(json_object_get(o, "deck")), 32);
    assert_int_equal(json_integer_value(json_object_get(o, "sets")), 2);
    assert_false(json_boolean_value(json_object_get(o, "doubling")));
    json_t *pat = json_array_get(json_object_get(o, "contracts"), 5);
    assert_string_equal(json_string_value(json_object_get(pat, "key")), "patience-1");
    assert_string_equal(json_string_value(json_object_get(pat, "kind")), "patience");
    assert_string_equal(json_string_value(json_object_get(pat, "fixed_rank")), "J");
    json_decref(o);
}

static void test_seat_names(void **unused)
{
    (void)unused;
    assert_string_equal(proto_seat_name(0), "N");
    assert_string_equal(proto_seat_name(3), "W");
    assert_string_equal(proto_seat_name(PROTO_SEAT_ALL), "all");
    assert_string_equal(proto_type_name(PROTO_RECORD), "record");
    assert_int_equal(proto_seat_read("E"), E);
    assert_int_equal(proto_seat_read("east"), -1);
    assert_int_equal(proto_card_read("10h"), card_of("TH"));
    assert_int_equal(proto_card_read("QH "), -1);
    json_t *cuts[3] = {proto_cut_json(BARBU_JOKER), proto_cut_json(BARBU_BRIDGE),
                       proto_cut_json(BARBU_CARD(BARBU_HEARTS, 3))};
    assert_string_equal(json_string_value(cuts[0]), "Joker");
    assert_string_equal(json_string_value(cuts[1]), "Bridge");
    assert_string_equal(json_string_value(cuts[2]), "3H");
    for (int i = 0; i < 3; i++)
        json_decref(cuts[i]);
    assert_null(proto_cut_json(BARBU_CARD(BARBU_HEARTS, 7)));
    json_t *cards = proto_cards_json(cards_of("2C AS TH KS 3D"));
    char *text = proto_dump(cards, NULL);
    assert_string_equal(text, "[\"AS\",\"KS\",\"TH\",\"3D\",\"2C\"]");
    free(text);
    json_decref(cards);
}

/* ------------------------------------------------------- random games */

static const char *const PRESETS[] = {"uk", "classic", "fife", "chinese", "king", "ravage"};
#define N_PRESETS ((int)(sizeof PRESETS / sizeof PRESETS[0]))

typedef struct counts {
    long actions, views, states;
} counts;

/* Sends an action as a client would: its JSON without "seat", inside an
 * act message, decoded and resolved for the seat. */
static void check_action(const barbu_rules *r, const barbu_action *a, counts *c)
{
    json_t *j = proto_action_json(r, a, true);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "seat")), proto_seat_name(a->seat));
    assert_int_equal(json_object_del(j, "seat"), 0);
    json_t *m = json_pack("{s:s, s:o, s:i}", "type", "act", "action", j, "at", 12);
    assert_non_null(m);
    size_t len;
    char *text = proto_dump(m, &len);
    assert_non_null(text);
    proto_msg got;
    proto_error e;
    if (proto_decode(text, len, &got, &e) != 0)
        fail_msg("%s: %s %s", text, e.code, e.text);
    assert_int_equal(got.type, PROTO_ACT);
    assert_int_equal(got.at, 12);
    barbu_action back;
    assert_int_equal(proto_action_resolve(&got.action, r, a->seat, &back, &e), 0);
    if (memcmp(&back, a, sizeof back) != 0)
        fail_msg("%s came back different", text);
    free(text);
    json_decref(m);

    /* As a view's "last", read back by a client, with its seat. */
    j = proto_action_json(r, a, true);
    proto_action shown;
    assert_int_equal(proto_action_read(j, &shown, &e), 0);
    assert_int_equal(proto_action_resolve(&shown, r, shown.seat, &back, &e), 0);
    if (memcmp(&back, a, sizeof back) != 0)
        fail_msg("a shown action of type %d came back different", a->type);
    json_decref(j);

    /* Without the cards, a Pass-on and an arrangement say only who, and
     * read back as that. */
    if (a->type == BARBU_ACT_PASS_ON || a->type == BARBU_ACT_ARRANGE) {
        j = proto_action_json(r, a, false);
        assert_int_equal(json_object_size(j), 2);
        assert_int_equal(proto_action_read(j, &shown, &e), 0);
        assert_int_equal(shown.seat, a->seat);
        assert_int_equal(shown.cards | shown.middle, 0);
        json_decref(j);
    }
    c->actions++;
}

/* The parts of a table the engine leaves stale past a count. */
static void normalize(barbu_view *v)
{
    for (int i = v->t.trick.n; i < 4; i++)
        v->t.trick.card[i] = 0;
    for (int i = v->t.last_trick.n; i < 4; i++)
        v->t.last_trick.card[i] = 0;
}

static void check_view(const barbu_state *s, int seat, counts *c)
{
    barbu_view want, got;
    memset(&want, 0, sizeof want);
    barbu_view_of(s, seat, &want);
    json_t *j = proto_view_json(&want);
    assert_non_null(j);
    /* Through text, as on the wire. */
    size_t len;
    char *text = proto_dump(j, &len);
    assert_non_null(text);
    json_error_t jerr;
    json_t *back = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    assert_non_null(back);
    proto_error e;
    memset(&got, 0xa5, sizeof got);
    if (proto_view_parse(back, s->rules, &got, &e) != 0) {
        fprintf(stderr, "%s\n", text);
        fail_msg("view refused: %s %s", e.code, e.text);
    }
    normalize(&want);
    normalize(&got);
    if (memcmp(&want, &got, sizeof want) != 0) {
        const unsigned char *a = (const void *)&want, *b = (const void *)&got;
        size_t at = 0;
        while (a[at] == b[at])
            at++;
        fprintf(stderr, "%s\n", text);
        fail_msg("view of %s differs at byte %zu (table at %zu, last at %zu): %d, not %d",
                 proto_seat_name(seat), at, offsetof(barbu_view, t),
                 offsetof(barbu_view, t) + offsetof(barbu_table, last), b[at], a[at]);
    }
    /* A seat's view shows no other seat's hand. */
    json_t *hands = json_object_get(j, "hands");
    assert_non_null(hands);
    for (int o = 0; o < 4; o++) {
        json_t *h = json_object_get(hands, proto_seat_name(o));
        if (seat != BARBU_ALL_SEATS && o != seat)
            assert_null(h);
        else
            assert_true((h != NULL) == (s->hand[o] != 0));
    }
    /* The legal list is the engine's, for the seat to move only. */
    json_t *legal = proto_legal_json(&want);
    if (seat == s->t.to_move && s->t.phase != BARBU_PHASE_ARRANGE) {
        assert_non_null(legal);
        barbu_action list[BARBU_MAX_ACTIONS];
        int n = barbu_legal(s, list, BARBU_MAX_ACTIONS);
        assert_int_equal(json_array_size(legal), n < PROTO_MAX_LEGAL ? n : PROTO_MAX_LEGAL);
    } else {
        assert_null(legal);
    }
    json_decref(legal);
    free(text);
    json_decref(back);
    json_decref(j);
    c->views++;
}

/* A random legal action; arrangements from the engine's valid ones. */
static barbu_action random_action(const barbu_state *s, barbu_rng *rng, barbu_action *list, int *n)
{
    *n = barbu_legal(s, list, BARBU_MAX_ACTIONS);
    assert_true(*n > 0);
    int shown = *n < BARBU_MAX_ACTIONS ? *n : BARBU_MAX_ACTIONS;
    return list[barbu_rng_below(rng, (uint32_t)shown)];
}

static void play_games(int games, int max_actions, counts *c)
{
    barbu_action *list = malloc(BARBU_MAX_ACTIONS * sizeof *list);
    assert_non_null(list);
    for (int p = 0; p < N_PRESETS; p++) {
        barbu_rules r;
        assert_int_equal(barbu_rules_preset(&r, PRESETS[p]), 0);
        for (int g = 0; g < games; g++) {
            barbu_state s;
            barbu_rng rng;
            barbu_rng_seed(&rng, (uint64_t)(p * 1000 + g));
            assert_int_equal(barbu_init(&s, &r, barbu_rng_next(&rng)), 0);
            for (int step = 0; step < max_actions && !barbu_over(&s); step++) {
                /* One view a state, the seats in turn, and all five now and
                 * then: JSON is slow next to the engine. */
                for (int seat = 0; seat <= BARBU_ALL_SEATS; seat++)
                    if (step % 16 == 0 || seat == step % 5)
                        check_view(&s, seat, c);
                int n;
                barbu_action a = random_action(&s, &rng, list, &n);
                /* Every action listed, except the thousands of
                 * arrangements: a few of those. */
                int shown = n < BARBU_MAX_ACTIONS ? n : BARBU_MAX_ACTIONS;
                int step_by = s.t.phase == BARBU_PHASE_ARRANGE ? shown / 7 + 1 : 1;
                for (int i = 0; i < shown; i += step_by)
                    check_action(&r, &list[i], c);
                check_action(&r, &a, c);
                assert_int_equal(barbu_apply(&s, &a), 0);
                c->states++;
            }
            if (barbu_over(&s))
                for (int seat = 0; seat <= BARBU_ALL_SEATS; seat++)
                    check_view(&s, seat, c);
        }
    }
    free(list);
}

static void test_round_trips(void **unused)
{
    (void)unused;
    counts c = {0, 0, 0};
    /* Whole games, then the openings of many more. */
    play_games(1, 100000, &c);
    play_games(6, 120, &c);
    printf("# %ld states, %ld views, %ld actions through JSON and back\n", c.states, c.views,
           c.actions);
    assert_true(c.states > 5000);
}

/* Combined Calls, Patience groups, cuts and Pass-ons come back: the Fife
 * game's actions of every kind were seen. */
static void test_fife_kinds(void **unused)
{
    (void)unused;
    barbu_rules r;
    assert_int_equal(barbu_rules_preset(&r, "fife"), 0);
    barbu_action *list = malloc(BARBU_MAX_ACTIONS * sizeof *list);
    assert_non_null(list);
    bool combined = false, group = false, cut = false, pass_on = false;
    counts c = {0, 0, 0};
    for (int g = 0; g < 3 && !(combined && group && cut && pass_on); g++) {
        barbu_state s;
        barbu_rng rng;
        barbu_rng_seed(&rng, (uint64_t)(77 + g));
        assert_int_equal(barbu_init(&s, &r, (uint64_t)g), 0);
        while (!barbu_over(&s)) {
            int n = barbu_legal(&s, list, BARBU_MAX_ACTIONS);
            for (int i = 0; i < n && i < BARBU_MAX_ACTIONS; i++) {
                const barbu_action *a = &list[i];
                if (a->type == BARBU_ACT_DECLARE && (a->contracts & (a->contracts - 1))) {
                    combined = true;
                    check_action(&r, a, &c);
                }
                if (a->type == BARBU_ACT_PLAY && (a->cards & (a->cards - 1))) {
                    group = true;
                    check_action(&r, a, &c);
                }
                cut = cut || a->type == BARBU_ACT_CUT;
                pass_on = pass_on || a->type == BARBU_ACT_PASS_ON;
            }
            barbu_action a = random_action(&s, &rng, list, &n);
            assert_int_equal(barbu_apply(&s, &a), 0);
        }
    }
    assert_true(combined && group && cut && pass_on);
    free(list);
}

/* A view refused: out of range, unknown fields, another seat's hand. */
static void test_view_refusals(void **unused)
{
    (void)unused;
    barbu_rules r;
    assert_int_equal(barbu_rules_preset(&r, "uk"), 0);
    barbu_state s;
    assert_int_equal(barbu_init(&s, &r, 5), 0);
    barbu_view v;
    barbu_view_of(&s, E, &v);
    proto_error e;
    json_t *j = proto_view_json(&v);
    assert_int_equal(proto_view_parse(j, &r, &v, &e), 0);

    struct {
        const char *key;
        const char *json;
        const char *code;
    } cases[] = {
        {"colour", "\"red\"", "bad_field"},
        {"seat", "\"X\"", "bad_value"},
        {"seat", "1", "bad_field"},
        {"phase", "\"dance\"", "bad_value"},
        {"deals", "29", "bad_value"},
        {"deal", "-1", "bad_value"},
        {"to_move", "\"Q\"", "bad_value"},
        {"in_hand", "[13,13,13]", "bad_value"},
        {"in_hand", "[13,13,13,14]", "bad_value"},
        {"owed", "[[0,0,0,0]]", "bad_value"},
        {"penalty", "[\"1S\"]", "bad_value"},
        {"hands", "{\"N\":[\"AS\"]}", "bad_value"},
        {"hands", "{\"X\":[\"AS\"]}", "bad_value"},
        {"contracts", "[\"aces\"]", "bad_value"},
        {"trick", "{\"leader\":\"N\",\"cards\":[\"AS\",\"KS\",\"QS\",\"JS\"]}", "bad_value"},
        {"trick", "{\"leader\":\"N\",\"cards\":[\"AS\",\"AS\"]}", "bad_value"},
        {"trick", "{\"cards\":[]}", "bad_field"},
        {"winners",
         "[\"N\",\"N\",\"N\",\"N\",\"N\",\"N\",\"N\",\"N\",\"N\",\"N\",\"N\",\"N\","
         "\"N\",\"N\"]",
         "bad_value"},
        {"layout", "{\"S\":{\"lo\":\"7\"}}", "bad_field"},
        {"layout", "{\"X\":{\"lo\":\"7\",\"hi\":\"7\"}}", "bad_value"},
        {"out", "[\"N\",\"N\"]", "bad_value"},
        {"fife", "{}", "bad_field"},
        {"kind", "\"trumps\"", "bad_value"}, /* Trumps without a trump suit */
        {"last_deal", "{}", "bad_field"},
        {"totals", "[0,0,0,2147483648]", "bad_value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *bad = json_deep_copy(j);
        json_error_t jerr;
        json_t *value = json_loads(cases[i].json, JSON_DECODE_ANY, &jerr);
        assert_non_null(value);
        json_object_set_new(bad, cases[i].key, value);
        if (proto_view_parse(bad, &r, &v, &e) == 0)
            fail_msg("accepted %s = %s", cases[i].key, cases[i].json);
        if (strcmp(e.code, cases[i].code) != 0)
            fail_msg("%s = %s: wanted %s, got %s (%s)", cases[i].key, cases[i].json, cases[i].code,
                     e.code, e.text);
        json_decref(bad);
    }
    const char *required[] = {"seat",   "phase",    "deal",   "deals",   "acted", "first",
                              "dealer", "declarer", "kind",   "in_hand", "owed",  "declared",
                              "trick",  "tricks",   "passes", "totals"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        json_t *bad = json_deep_copy(j);
        json_object_del(bad, required[i]);
        assert_int_equal(proto_view_parse(bad, &r, &v, &e), -1);
        assert_string_equal(e.code, "bad_field");
        json_decref(bad);
    }
    json_t *arr = json_array();
    assert_int_equal(proto_view_parse(arr, &r, &v, &e), -1);
    json_decref(arr);
    /* The 32-card pack has no 2s. */
    barbu_rules fife;
    assert_int_equal(barbu_rules_preset(&fife, "fife"), 0);
    assert_int_equal(proto_view_parse(j, &fife, &v, &e), -1);
    json_decref(j);
}

static void test_result_json(void **unused)
{
    (void)unused;
    barbu_rules r;
    assert_int_equal(barbu_rules_preset(&r, "classic"), 0);
    barbu_state s;
    barbu_rng rng;
    barbu_rng_seed(&rng, 3);
    assert_int_equal(barbu_init(&s, &r, 3), 0);
    int deals = 0;
    barbu_action *list = malloc(BARBU_MAX_ACTIONS * sizeof *list);
    assert_non_null(list);
    while (!barbu_over(&s)) {
        int deal = s.t.deal, n;
        barbu_action a = random_action(&s, &rng, list, &n);
        assert_int_equal(barbu_apply(&s, &a), 0);
        if (s.t.deal != deal) {
            json_t *j = proto_result_json(&r, &s.t.last);
            assert_non_null(j);
            barbu_result back;
            proto_error e;
            assert_int_equal(proto_result_parse(j, &r, &back, &e), 0);
            assert_memory_equal(&back, &s.t.last, sizeof back);
            assert_true(json_is_array(json_object_get(j, "score")));
            json_decref(j);
            deals++;
        }
    }
    assert_true(deals > 0);
    free(list);
}

/* hint (issue 26): no field but the id; create's hints is a boolean. */
static void test_hint(void **unused)
{
    (void)unused;
    decode_ok("{\"type\": \"hint\", \"id\": 7}");
    assert_int_equal(msg.type, PROTO_HINT);
    assert_true(msg.has_id);
    assert_int_equal(msg.id, 7);
    decode_ok("{\"type\": \"hint\"}");
    refused("{\"type\": \"hint\", \"table\": 3}", "bad_field");
    decode_ok("{\"type\": \"create\", \"rules\": \"uk\", \"hints\": true}");
    assert_true(msg.hints);
    decode_ok("{\"type\": \"create\", \"rules\": \"uk\"}");
    assert_false(msg.hints);
    refused("{\"type\": \"create\", \"rules\": \"uk\", \"hints\": 1}", "bad_field");
    /* Every field of create at once: the most any message has. */
    decode_ok("{\"type\": \"create\", \"rules\": \"uk\", \"house\": \"\", \"seed\": \"5\", "
              "\"kibitz\": \"all\", \"grace\": 30, \"takeover\": \"bot\", \"bots\": [\"E\"], "
              "\"level\": \"easy\", \"delay\": 0, \"sit\": \"N\", \"household\": true, "
              "\"kibitz_chat\": true, \"clock\": 60, \"ladder\": false, \"rated\": false, "
              "\"credit\": \"deals\", \"hints\": true}");
}

/* preferences (issue 24): every field optional and checked, an unknown one
 * refused with a sentence, the fields read back as sent, and the JSON the
 * server keeps read by the same checks. */
static void test_preferences(void **unused)
{
    (void)unused;
    decode_ok("{\"type\": \"preferences\", \"id\": 3, \"prefs\": {\"table_colour\": \"#1E6b3a\", "
              "\"card_spacing\": 24, \"card_size\": \"large\", \"four_colour\": true, "
              "\"sound\": false, \"trick_pause\": 0}}");
    assert_int_equal(msg.type, PROTO_PREFERENCES);
    assert_true(msg.has_id);
    assert_int_equal(msg.prefs.has, PROTO_PREF_TABLE_COLOUR | PROTO_PREF_CARD_SPACING |
                                        PROTO_PREF_CARD_SIZE | PROTO_PREF_FOUR_COLOUR |
                                        PROTO_PREF_SOUND | PROTO_PREF_TRICK_PAUSE);
    assert_string_equal(msg.prefs.table_colour, "#1e6b3a"); /* kept in lowercase */
    assert_int_equal(msg.prefs.card_spacing, 24);
    assert_int_equal(msg.prefs.card_size, PROTO_CARDS_LARGE);
    assert_true(msg.prefs.four_colour);
    assert_false(msg.prefs.sound);
    assert_int_equal(msg.prefs.trick_pause, 0);

    /* Some fields only; an empty object asks for nothing new. */
    decode_ok("{\"type\": \"preferences\", \"prefs\": {\"card_size\": \"small\"}}");
    assert_int_equal(msg.prefs.has, PROTO_PREF_CARD_SIZE);
    assert_int_equal(msg.prefs.card_size, PROTO_CARDS_SMALL);
    decode_ok("{\"type\": \"preferences\", \"prefs\": {}}");
    assert_int_equal(msg.prefs.has, 0);
    /* The ends of the ranges. */
    decode_ok("{\"type\": \"preferences\", \"prefs\": {\"card_spacing\": 10, \"trick_pause\": "
              "5000}}");
    decode_ok("{\"type\": \"preferences\", \"prefs\": {\"card_spacing\": 60}}");

    refused("{\"type\": \"preferences\"}", "bad_field");
    refused("{\"type\": \"preferences\", \"prefs\": [1]}", "bad_field");
    refused("{\"type\": \"preferences\", \"prefs\": {}, \"password\": \"x\"}", "bad_field");
    refused("{\"type\": \"preferences\", \"prefs\": {\"colour\": \"#000000\"}}", "bad_field");
    assert_non_null(strstr(err.text, "\"colour\" in prefs"));
    refused("{\"type\": \"preferences\", \"prefs\": {\"type\": \"x\"}}", "bad_field");
    refused("{\"type\": \"preferences\", \"prefs\": {\"table_colour\": \"green\"}}", "bad_value");
    assert_non_null(strstr(err.text, "#rrggbb"));
    refused("{\"type\": \"preferences\", \"prefs\": {\"table_colour\": \"#12345\"}}", "bad_value");
    refused("{\"type\": \"preferences\", \"prefs\": {\"table_colour\": \"#1234567\"}}",
            "bad_value");
    refused("{\"type\": \"preferences\", \"prefs\": {\"table_colour\": \"#12345g\"}}", "bad_value");
    refused("{\"type\": \"preferences\", \"prefs\": {\"table_colour\": 1193046}}", "bad_field");
    refused("{\"type\": \"preferences\", \"prefs\": {\"card_spacing\": 9}}", "bad_value");
    refused("{\"type\": \"preferences\", \"prefs\": {\"card_spacing\": 61}}", "bad_value");
    refused("{\"type\": \"preferences\", \"prefs\": {\"card_spacing\": 20.5}}", "bad_field");
    refused("{\"type\": \"preferences\", \"prefs\": {\"card_spacing\": \"20\"}}", "bad_field");
    refused("{\"type\": \"preferences\", \"prefs\": {\"card_size\": \"huge\"}}", "bad_value");
    assert_non_null(strstr(err.text, "\"small\", \"medium\" or \"large\""));
    refused("{\"type\": \"preferences\", \"prefs\": {\"four_colour\": 1}}", "bad_field");
    refused("{\"type\": \"preferences\", \"prefs\": {\"sound\": \"on\"}}", "bad_field");
    refused("{\"type\": \"preferences\", \"prefs\": {\"trick_pause\": -1}}", "bad_value");
    refused("{\"type\": \"preferences\", \"prefs\": {\"trick_pause\": 5001}}", "bad_value");
    refused("{\"type\": \"preferences\", \"prefs\": {\"sound\": true, \"sound\": false}}",
            "bad_field");

    /* The JSON kept: the fields set, read back the same; a merge keeps the
     * fields not sent. */
    proto_prefs kept = {0}, change = {0};
    proto_error e;
    json_t *o = json_loads("{\"table_colour\": \"#336699\", \"card_spacing\": 30, "
                           "\"four_colour\": false}",
                           0, NULL);
    assert_int_equal(proto_prefs_read(o, &kept, &e), 0);
    json_decref(o);
    o = json_loads("{\"four_colour\": true, \"card_size\": \"medium\"}", 0, NULL);
    assert_int_equal(proto_prefs_read(o, &change, &e), 0);
    json_decref(o);
    proto_prefs_merge(&kept, &change);
    json_t *back = proto_prefs_json(&kept);
    char *text = json_dumps(back, JSON_COMPACT | JSON_SORT_KEYS);
    assert_string_equal(text, "{\"card_size\":\"medium\",\"card_spacing\":30,\"four_colour\":true,"
                              "\"table_colour\":\"#336699\"}");
    proto_prefs again;
    assert_int_equal(proto_prefs_read(back, &again, &e), 0);
    assert_int_equal(again.has, kept.has);
    assert_string_equal(again.table_colour, "#336699");
    free(text);
    json_decref(back);
    o = json_string("#000000");
    assert_int_equal(proto_prefs_read(o, &again, &e), -1);
    json_decref(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hello),           cmocka_unit_test(test_name_ok),
        cmocka_unit_test(test_passwords),       cmocka_unit_test(test_simple_messages),
        cmocka_unit_test(test_create),          cmocka_unit_test(test_chat),
        cmocka_unit_test(test_simple_messages), cmocka_unit_test(test_create),
        cmocka_unit_test(test_moderation),      cmocka_unit_test(test_chat),
        cmocka_unit_test(test_chat_hidden),     cmocka_unit_test(test_act),
        cmocka_unit_test(test_envelope_errors), cmocka_unit_test(test_seat_names),
        cmocka_unit_test(test_table_rules),     cmocka_unit_test(test_rules_json),
        cmocka_unit_test(test_round_trips),     cmocka_unit_test(test_fife_kinds),
        cmocka_unit_test(test_view_refusals),   cmocka_unit_test(test_result_json),
        cmocka_unit_test(test_preferences),     cmocka_unit_test(test_hint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
