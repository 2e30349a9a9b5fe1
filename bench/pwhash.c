/*
 * pwhash.c - what one password costs the server: Argon2id
 * (crypto_pwhash_str and crypto_pwhash_str_verify) with the server's
 * parameters (SRV_AUTH_OPSLIMIT, SRV_AUTH_MEMLIMIT), timed N times.  Run it
 * on one core: taskset -c 0 build/bench_pwhash [N].
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The server's internal.h (the engine has one of its own on the path). */
#include "../src/server/internal.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 9;
    if (n < 1 || n > 1000 || sodium_init() < 0)
        return 2;
    double *hash = calloc((size_t)n, sizeof *hash), *check = calloc((size_t)n, sizeof *check);
    char stored[crypto_pwhash_STRBYTES];
    const char *pw = "correct horse battery";
    for (int i = 0; i < n; i++) {
        double t0 = now_ms();
        if (crypto_pwhash_str(stored, pw, strlen(pw), SRV_AUTH_OPSLIMIT, SRV_AUTH_MEMLIMIT) != 0)
            return 1;
        double t1 = now_ms();
        if (crypto_pwhash_str_verify(stored, pw, strlen(pw)) != 0)
            return 1;
        hash[i] = t1 - t0;
        check[i] = now_ms() - t1;
    }
    qsort(hash, (size_t)n, sizeof *hash, cmp);
    qsort(check, (size_t)n, sizeof *check, cmp);
    printf("Argon2id, opslimit %d, memlimit %lu MiB, %d times: hash median %.1f ms (%.1f-%.1f), "
           "check median %.1f ms (%.1f-%.1f)\n",
           SRV_AUTH_OPSLIMIT, SRV_AUTH_MEMLIMIT >> 20, n, hash[n / 2], hash[0], hash[n - 1],
           check[n / 2], check[0], check[n - 1]);
    free(hash);
    free(check);
    return 0;
}
