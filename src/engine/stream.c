/*
 * stream.c - where a game's draws, deals and cuts get their numbers: the
 * seed's SplitMix64, or a secret key's ChaCha20 keystream, and the key's
 * commitment and hex form.
 *
 * A seed of 64 bits can be searched, and SplitMix64 gives its state away
 * from a few outputs: fine for games meant to be played again from their
 * seed, not for a served game whose players must not be able to predict the
 * deals to come.  A keyed game takes each use's numbers from ChaCha20-IETF
 * under its 256-bit key, the 12-byte nonce naming the use (byte 0: 1 the
 * draw, 2 a deal, 3 a cut; bytes 1-3 zero) and its index (bytes 4-11, little
 * endian: the deal, the draw's number, or deal * 4096 + cut).  The keystream
 * is read from block 0 as little-endian 32-bit words; a number below n is a
 * word taken modulo n after rejecting the words at or above the largest
 * multiple of n under 2^32, so every value is exactly as likely.  libsodium
 * is pure computation here: no I/O, no global state beyond its constants.
 */
#include <string.h>

#include <sodium.h>

#include "internal.h"

void bb_stream_open(bb_stream *st, const barbu_state *s, int use, int index)
{
    if (!s->keyed) {
        st->key = NULL;
        barbu_rng_seed(&st->rng, bb_subseed(s->seed, use, index));
        return;
    }
    st->key = s->key;
    memset(st->nonce, 0, sizeof st->nonce);
    st->nonce[0] = (uint8_t)use;
    uint64_t i = (uint64_t)(int64_t)index;
    for (int b = 0; b < 8; b++)
        st->nonce[4 + b] = (uint8_t)(i >> (8 * b));
    st->block = 0;
    st->pos = sizeof st->buf; /* empty: the first number fills it */
}

static uint32_t next_word(bb_stream *st)
{
    if ((size_t)st->pos + 4 > sizeof st->buf) {
        /* The keystream itself: ChaCha20 of zeros from the next block. */
        memset(st->buf, 0, sizeof st->buf);
        crypto_stream_chacha20_ietf_xor_ic(st->buf, st->buf, sizeof st->buf, st->nonce, st->block,
                                           st->key);
        st->block += sizeof st->buf / 64;
        st->pos = 0;
    }
    const uint8_t *p = st->buf + st->pos;
    st->pos = (uint16_t)(st->pos + 4);
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t bb_stream_keyed_below(bb_stream *st, uint32_t n)
{
    /* 2^32 mod n words at the top would make the low values likelier. */
    uint32_t reject = (uint32_t)(-n) % n;
    uint32_t limit = UINT32_MAX - reject; /* the last word kept */
    for (;;) {
        uint32_t w = next_word(st);
        if (w <= limit)
            return w % n;
    }
}

void barbu_key_commitment(const uint8_t key[BARBU_KEY_BYTES], uint8_t out[BARBU_KEY_BYTES])
{
    crypto_generichash(out, BARBU_KEY_BYTES, key, BARBU_KEY_BYTES, NULL, 0);
}

void barbu_key_format(const uint8_t key[BARBU_KEY_BYTES], char *buf)
{
    static const char HEX[] = "0123456789abcdef";
    for (int i = 0; i < BARBU_KEY_BYTES; i++) {
        buf[2 * i] = HEX[key[i] >> 4];
        buf[2 * i + 1] = HEX[key[i] & 15];
    }
    buf[2 * BARBU_KEY_BYTES] = '\0';
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int barbu_key_parse(const char *text, uint8_t key[BARBU_KEY_BYTES])
{
    if (text == NULL || strlen(text) != 2 * BARBU_KEY_BYTES)
        return BARBU_EINVAL;
    uint8_t v[BARBU_KEY_BYTES];
    for (int i = 0; i < BARBU_KEY_BYTES; i++) {
        int hi = hex_digit(text[2 * i]), lo = hex_digit(text[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return BARBU_EINVAL;
        v[i] = (uint8_t)(hi << 4 | lo);
    }
    memcpy(key, v, sizeof v);
    return 0;
}
