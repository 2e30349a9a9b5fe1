/*
 * store_hash.c - what the store keeps of a token: its BLAKE2b-256 hash in
 * hexadecimal.  A token is 256 random bits, so a fast hash is enough: a
 * stolen database gives hashes that open no session.
 */
#include <sodium.h>
#include <string.h>

#include "store.h"

void store_token_hash(const char *token, char out[STORE_TOKEN_HASH_LEN + 1])
{
    unsigned char digest[STORE_TOKEN_HASH_LEN / 2];
    crypto_generichash(digest, sizeof digest, (const unsigned char *)token, strlen(token), NULL, 0);
    sodium_bin2hex(out, STORE_TOKEN_HASH_LEN + 1, digest, sizeof digest);
}
