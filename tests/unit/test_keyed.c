/*
 * test_keyed.c - keyed games: the commitment to a key, its hex form, deals
 * made exactly as docs/internals.md says (ChaCha20-IETF under the key, the
 * nonce naming the use and index, unbiased numbers), and a key that never
 * reaches a view.
 */
#include <sodium.h>

#include "helpers.h"
#include "internal.h"

static const uint8_t KEY[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

/* The commitment is BLAKE2b-256 of the key's bytes alone: the figure is
 * b2sum's (xxd -r -p <<<000102...1f | b2sum -l 256). */
static void test_commitment(void **state)
{
    (void)state;
    uint8_t c[32];
    char hex[BARBU_KEY_HEX];
    barbu_key_commitment(KEY, c);
    barbu_key_format(c, hex);
    assert_string_equal(hex, "cb2f5160fc1f7e05a55ef49d340b48da2e5a78099d53393351cd579dd42503d6");
}

static void test_hex(void **state)
{
    (void)state;
    char hex[BARBU_KEY_HEX];
    barbu_key_format(KEY, hex);
    assert_string_equal(hex, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    uint8_t back[32];
    assert_int_equal(barbu_key_parse(hex, back), 0);
    assert_memory_equal(back, KEY, 32);
    assert_int_equal(
        barbu_key_parse("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F", back),
        0);
    assert_memory_equal(back, KEY, 32);
    /* Refusals leave the key as it was. */
    uint8_t kept[32];
    memset(kept, 7, sizeof kept);
    memcpy(back, kept, sizeof back);
    assert_int_equal(barbu_key_parse("00", back), BARBU_EINVAL);
    assert_int_equal(barbu_key_parse(NULL, back), BARBU_EINVAL);
    assert_int_equal(
        barbu_key_parse("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1g", back),
        BARBU_EINVAL);
    assert_int_equal(
        barbu_key_parse("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f0", back),
        BARBU_EINVAL);
    assert_memory_equal(back, kept, 32);
}

/* A number below n from the keystream, as docs/internals.md describes it,
 * written out again here from libsodium's one-shot function. */
typedef struct {
    uint8_t ks[4096];
    int pos;
} plain;

static uint32_t plain_below(plain *p, uint32_t n)
{
    uint64_t limit = (UINT64_C(1) << 32) / n * n;
    for (;;) {
        assert_true(p->pos + 4 <= (int)sizeof p->ks);
        const uint8_t *b = p->ks + p->pos;
        p->pos += 4;
        uint32_t w =
            (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        if (w < limit)
            return w % n;
    }
}

/* One random legal action of the seat to move. */
static void act_random(barbu_state *s, barbu_rng *rng)
{
    static barbu_action legal[1024];
    int n = barbu_legal(s, legal, 1024);
    assert_true(n > 0);
    if (n > 1024)
        n = 1024;
    assert_int_equal(barbu_apply(s, &legal[barbu_rng_below(rng, (uint32_t)n)]), 0);
}

static void test_deal_as_documented(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    assert_int_equal(barbu_init_keyed(&s, &r, KEY), 0);
    assert_true(s.keyed);
    for (int deal = 0; deal < 3; deal++) {
        uint8_t nonce[12] = {2, 0, 0, 0, (uint8_t)deal, 0, 0, 0, 0, 0, 0, 0};
        plain p = {.pos = 0};
        crypto_stream_chacha20_ietf(p.ks, sizeof p.ks, nonce, KEY);
        barbu_card pack[52];
        int n = 0;
        for (int c = 0; c < 64; c++)
            if (BARBU_RANK(c) >= 2 && BARBU_RANK(c) <= BARBU_ACE)
                pack[n++] = (barbu_card)c;
        assert_int_equal(n, 52);
        for (int i = n - 1; i > 0; i--) {
            int j = (int)plain_below(&p, (uint32_t)i + 1);
            barbu_card t = pack[i];
            pack[i] = pack[j];
            pack[j] = t;
        }
        barbu_cards want[4] = {0};
        for (int k = 0; k < n; k++)
            want[(s.t.dealer + 1 + k) & 3] |= BARBU_BIT(pack[k]);
        for (int seat = 0; seat < 4; seat++)
            assert_true(s.dealt[seat] == want[seat]);
        /* On to the next deal: declare and play it out at random. */
        barbu_rng rng;
        barbu_rng_seed(&rng, (uint64_t)deal);
        while (s.t.deal == deal && !barbu_over(&s))
            act_random(&s, &rng);
    }
}

/* The same key deals the same game; another key another; a seeded game is
 * untouched by keys. */
static void test_keyed_games(void **state)
{
    (void)state;
    const char *presets[] = {"uk", "fife", "king", "classic"};
    for (size_t i = 0; i < sizeof presets / sizeof *presets; i++) {
        barbu_rules r;
        preset(&r, presets[i]);
        barbu_state a, b, c;
        uint8_t other[32];
        memcpy(other, KEY, 32);
        other[31] ^= 1;
        assert_int_equal(barbu_init_keyed(&a, &r, KEY), 0);
        assert_int_equal(barbu_init_keyed(&b, &r, KEY), 0);
        assert_int_equal(barbu_init_keyed(&c, &r, other), 0);
        assert_memory_equal(a.dealt, b.dealt, sizeof a.dealt);
        assert_memory_not_equal(a.dealt, c.dealt, sizeof a.dealt);
        barbu_rng ra, rb;
        barbu_rng_seed(&ra, 5);
        barbu_rng_seed(&rb, 5);
        int deals = 0;
        while (!barbu_over(&a)) {
            int d = a.t.deal;
            act_random(&a, &ra);
            act_random(&b, &rb);
            assert_int_equal(barbu_state_ok(&a, NULL), 0);
            if (a.t.deal != d && !barbu_over(&a)) {
                assert_memory_equal(a.dealt, b.dealt, sizeof a.dealt);
                deals++;
            }
        }
        assert_int_equal(deals, a.t.deal - 1);
        assert_true(deals > 10);
        assert_memory_equal(a.t.total, b.t.total, sizeof a.t.total);
    }
}

/* Unbiased: with n = 3 * 2^30 a plain modulo would give a number below
 * 2^30 half the time; the rejection makes it a third. */
static void test_unbiased(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    assert_int_equal(barbu_init_keyed(&s, &r, KEY), 0);
    bb_stream st;
    bb_stream_open(&st, &s, BB_SEED_DEAL, 9999);
    uint32_t n = UINT32_C(3) << 30;
    int low = 0, draws = 30000;
    for (int i = 0; i < draws; i++) {
        uint32_t v = bb_stream_below(&st, n);
        assert_true(v < n);
        low += v < (UINT32_C(1) << 30);
    }
    assert_in_range(low, draws * 30 / 100, draws * 37 / 100);
    /* Small n: every value comes up about as often. */
    int count[52] = {0};
    bb_stream_open(&st, &s, BB_SEED_CUT, 1);
    for (int i = 0; i < 52 * 1000; i++)
        count[bb_stream_below(&st, 52)]++;
    for (int v = 0; v < 52; v++)
        assert_in_range(count[v], 850, 1150);
}

/* The key is in the state only: no view carries it. */
static void test_key_not_in_view(void **state)
{
    (void)state;
    barbu_rules r;
    preset(&r, "uk");
    barbu_state s;
    assert_int_equal(barbu_init_keyed(&s, &r, KEY), 0);
    for (int seat = 0; seat < 4; seat++) {
        barbu_view v;
        barbu_view_of(&s, seat, &v);
        const uint8_t *p = (const uint8_t *)&v;
        for (size_t i = 0; i + 8 <= sizeof v; i++)
            assert_false(memcmp(p + i, KEY + 8, 8) == 0);
    }
    assert_int_equal(barbu_init_keyed(&s, &r, NULL), BARBU_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commitment),         cmocka_unit_test(test_hex),
        cmocka_unit_test(test_deal_as_documented), cmocka_unit_test(test_keyed_games),
        cmocka_unit_test(test_unbiased),           cmocka_unit_test(test_key_not_in_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
