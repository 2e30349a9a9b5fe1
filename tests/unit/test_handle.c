/*
 * test_handle.c - the rule of handles (src/server/handle.c,
 * docs/protocol.md "Handles"): the shown form is NFC, the key makes case,
 * compatibility forms and look-alikes one handle, and the refusals are
 * sentences that say what is wrong.
 */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
/* The server's internal.h (the engine has one of its own on the path). */
#include "../../src/server/internal.h"

static char display[PROTO_NAME_BYTES + 1], key[SRV_KEY_CAP], why[400];

static void sentence(const char *text)
{
    size_t n = strlen(text);
    if (n == 0 || !(text[0] >= 'A' && text[0] <= 'Z') || !strchr(".?!", text[n - 1]))
        fail_msg("not a sentence: %s", text);
}

static void accepted(const char *name)
{
    if (srv_handle_check(name, display, key, why, sizeof why) != 0)
        fail_msg("refused %s: %s", name, why);
    assert_true(display[0] != '\0');
    assert_true(key[0] != '\0');
}

/* Refused, with a sentence holding want (when not NULL). */
static void refused(const char *name, const char *want)
{
    if (srv_handle_check(name, display, key, why, sizeof why) == 0)
        fail_msg("accepted %s", name);
    assert_string_equal(display, "");
    sentence(why);
    if (want && !strstr(why, want))
        fail_msg("%s: the refusal does not say \"%s\": %s", name, want, why);
}

static void key_of(const char *name, char out[SRV_KEY_CAP])
{
    accepted(name);
    snprintf(out, SRV_KEY_CAP, "%s", key);
}

static void test_zoe(void **unused)
{
    (void)unused;
    char a[SRV_KEY_CAP], b[SRV_KEY_CAP], c[SRV_KEY_CAP], d[SRV_KEY_CAP];
    key_of("Zo\xc3\xab", a); /* Zoë, precomposed */
    assert_string_equal(display, "Zo\xc3\xab");
    key_of("ZO\xc3\x8b", b);  /* ZOË */
    key_of("zoe\xcc\x88", c); /* zoe + U+0308 */
    /* Shown as typed after NFC: the combining mark joins its letter. */
    assert_string_equal(display, "zo\xc3\xab");
    key_of("Zoe", d);
    assert_string_equal(a, b);
    assert_string_equal(a, c);
    assert_string_not_equal(a, d);
    assert_true(srv_handle_equal("Zo\xc3\xab", "zoe\xcc\x88"));
    assert_false(srv_handle_equal("Zo\xc3\xab", "Zoe"));
    assert_true(srv_handle_same_case("Zo\xc3\xab", "ZO\xc3\x8b"));
}

static void test_lookalikes(void **unused)
{
    (void)unused;
    char alice[SRV_KEY_CAP];
    key_of("Alice", alice);
    /* Cherokee Ꭺ (U+13AA) and Latin "lice": two scripts, refused, but its
     * key is Alice's, so that the server can name what it imitates. */
    refused("\xe1\x8e\xaalice", "one script");
    assert_string_equal(key, alice);
    assert_false(srv_handle_same_case("\xe1\x8e\xaalice", "Alice"));
    /* p, Cyrillic а (U+0430), ypal */
    refused("p\xd0\xb0ypal", "one script");
    char paypal[SRV_KEY_CAP];
    key_of("paypal", paypal);
    assert_string_equal(key, paypal);
    /* One script other than Latin is fine, and so are Japanese's mixes. */
    accepted("\xd0\x90\xd0\xbd\xd0\xbd\xd0\xb0");                 /* Анна */
    accepted("\xe5\xb1\xb1\xe7\x94\xb0\xe3\x81\x95\xe3\x82\x93"); /* 山田さん */
    /* Full-width letters are compatibility forms of the same handle. */
    char wide[SRV_KEY_CAP];
    key_of("\xef\xbc\xa1lice", wide); /* Ａlice */
    assert_string_equal(wide, alice);
    /* Digit one and small L look alike. */
    char l1[SRV_KEY_CAP], l2[SRV_KEY_CAP];
    key_of("bob1", l1);
    key_of("bobl", l2);
    assert_string_equal(l1, l2);
}

static void test_refusals(void **unused)
{
    (void)unused;
    accepted("Al_9-x.y z");
    refused("", "1 to 20");
    refused("abcdefghijklmnopqrstu", "1 to 20");
    accepted("abcdefghijklmnopqrst");
    refused(" a", "start or end");
    refused("a ", "start or end");
    refused("a  b", "single spaces");
    refused("a\tb", "control");
    refused("a\x01"
            "b",
            "control");
    refused("a@b", "\"@\"");
    refused("a/b", "\"/\"");
    refused("\xf0\x9f\x98\x80"
            "joy",
            "\"\xf0\x9f\x98\x80\""); /* an emoji */
    refused("a\xe2\x80\x8b"
            "b",
            "invisible"); /* zero width space */
    refused("\xcc\x88"
            "a",
            "marks go on a letter");
    refused("\xc3", "UTF-8");
    /* 20 characters after NFC, though 40 code points as typed. */
    char long_name[200] = "";
    for (int i = 0; i < 20; i++)
        strcat(long_name, "e\xcc\x88");
    accepted(long_name);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zoe),
        cmocka_unit_test(test_lookalikes),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
