/*
 * util.c - small things the server's files share: a string-keyed hash map,
 * the system's random source, the clocks and the log.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "internal.h"

static uint64_t hash_key(const char *key)
{
    /* FNV-1a: keys are short and not chosen to collide by strangers (tokens
     * are random, names are limited to 20 characters). */
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * UINT64_C(0x100000001b3);
    return h;
}

void srv_map_free(srv_map *map)
{
    for (size_t i = 0; i < map->n_buckets; i++) {
        srv_map_entry *e = map->buckets[i];
        while (e) {
            srv_map_entry *next = e->next;
            free(e);
            e = next;
        }
    }
    free(map->buckets);
    map->buckets = NULL;
    map->n_buckets = map->count = 0;
}

void *srv_map_get(const srv_map *map, const char *key)
{
    if (map->n_buckets == 0)
        return NULL;
    for (srv_map_entry *e = map->buckets[hash_key(key) & (map->n_buckets - 1)]; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e->value;
    return NULL;
}

static int map_grow(srv_map *map)
{
    size_t n = map->n_buckets ? map->n_buckets * 2 : 64;
    srv_map_entry **b = calloc(n, sizeof *b);
    if (b == NULL)
        return -1;
    for (size_t i = 0; i < map->n_buckets; i++) {
        srv_map_entry *e = map->buckets[i];
        while (e) {
            srv_map_entry *next = e->next;
            size_t k = hash_key(e->key) & (n - 1);
            e->next = b[k];
            b[k] = e;
            e = next;
        }
    }
    free(map->buckets);
    map->buckets = b;
    map->n_buckets = n;
    return 0;
}

int srv_map_put(srv_map *map, const char *key, void *value)
{
    if (map->count >= map->n_buckets && map_grow(map) != 0)
        return -1;
    size_t k = hash_key(key) & (map->n_buckets - 1);
    for (srv_map_entry *e = map->buckets[k]; e; e = e->next) {
        if (strcmp(e->key, key) == 0) {
            e->value = value;
            return 0;
        }
    }
    size_t len = strlen(key);
    srv_map_entry *e = malloc(sizeof *e + len + 1);
    if (e == NULL)
        return -1;
    memcpy(e->key, key, len + 1);
    e->value = value;
    e->next = map->buckets[k];
    map->buckets[k] = e;
    map->count++;
    return 0;
}

void srv_map_del(srv_map *map, const char *key)
{
    if (map->n_buckets == 0)
        return;
    srv_map_entry **p = &map->buckets[hash_key(key) & (map->n_buckets - 1)];
    for (; *p; p = &(*p)->next) {
        if (strcmp((*p)->key, key) == 0) {
            srv_map_entry *e = *p;
            *p = e->next;
            free(e);
            map->count--;
            return;
        }
    }
}

void srv_table_key(int64_t id, char buf[24])
{
    snprintf(buf, 24, "%" PRId64, id);
}

int srv_random(void *buf, size_t len)
{
    unsigned char *p = buf;
    while (len > 0) {
        ssize_t got = getrandom(p, len, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += got;
        len -= (size_t)got;
    }
    return 0;
}

int64_t srv_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec;
}

int64_t srv_wall(void)
{
    return (int64_t)time(NULL);
}

void srv_log(const srv_server *srv, const char *fmt, ...)
{
    if (srv->quiet)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "barbu serve: %s\n", line);
}
