/*
 * club_load.c - the latency of the club's JSON twins: an HTTP/1.1 client
 * over a plain socket (one keep-alive connection, one request at a time,
 * so each latency is the server's time to answer plus the loopback's)
 * asking, in a shuffled order, N times each: the month's ladder, the
 * year's ladder, a player's page, an archive query with filters, a
 * game's page, and a computer level's page.  Prints the median, p99 and
 * largest latency of each kind.
 *
 * With --pid PID (the server's), the kinds are asked one after the other
 * instead, and each line also says the server's CPU time per request
 * (user and system, from /proc/PID/stat): on a machine shared with other
 * work the latencies say how busy the machine was as much as what the
 * server costs, which the CPU time says alone.
 *
 * usage: bench_club_load PORT [--n N] [--players N] [--games N] [--year Y]
 *                             [--pid PID]
 * (the players and games of bench_club_gen: Player0001..., games 1...)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { K_MONTH, K_YEAR, K_PLAYER, K_ARCHIVE, K_GAME, K_LEVEL, N_KINDS };
static const char *const KIND_NAMES[N_KINDS] = {"ladder (month)", "ladder (year)", "player page",
                                                "archive query",  "game page",     "level page"};
static const char *const LEVEL_NAMES[4] = {"easy", "medium", "hard", "random"};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        perror("bench_club_load: connect");
        exit(1);
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* A process's CPU time so far in ms (user and system), 0 when unknown. */
static double cpu_ms(long pid)
{
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    const char *p = strrchr(line, ')');
    unsigned long utime = 0, stime = 0;
    if (p == NULL ||
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
        return 0;
    return (double)(utime + stime) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

static char *buf;
static size_t cap = 1 << 24;

/* One GET on fd; returns the status (0 when the connection failed), the
 * body's length in *len. */
static int get(int fd, const char *path, size_t *len)
{
    char req[1024];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", path);
    if (write(fd, req, (size_t)n) != n)
        return 0;
    size_t have = 0;
    char *body = NULL;
    long want = -1;
    for (;;) {
        if (body == NULL) {
            buf[have] = '\0';
            char *end = strstr(buf, "\r\n\r\n");
            if (end) {
                body = end + 4;
                char *cl = strcasestr(buf, "\r\ncontent-length:");
                want = cl ? strtol(cl + 17, NULL, 10) : 0;
            }
        }
        if (body && (size_t)(buf + have - body) >= (size_t)want)
            break;
        if (have + 65536 > cap)
            return 0;
        ssize_t r = read(fd, buf + have, 65536);
        if (r <= 0)
            return 0;
        have += (size_t)r;
    }
    *len = (size_t)want;
    return atoi(buf + 9);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_club_load PORT [--n N] [--players N] [--games N] "
                        "[--year Y]\n");
        return 2;
    }
    int port = atoi(argv[1]), n = 300, players = 1000, games = 100000;
    long pid = 0;
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    int year = tm.tm_year + 1900;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--n") == 0)
            n = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--players") == 0)
            players = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--games") == 0)
            games = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--year") == 0)
            year = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--pid") == 0)
            pid = atol(argv[i + 1]);
    }
    buf = malloc(cap + 1);
    int *order = malloc(sizeof *order * (size_t)n * N_KINDS);
    double *lat[N_KINDS];
    int nlat[N_KINDS] = {0};
    size_t bytes[N_KINDS] = {0};
    for (int k = 0; k < N_KINDS; k++)
        lat[k] = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n * N_KINDS; i++)
        order[i] = i % N_KINDS;
    srand(1);
    double cpu[N_KINDS] = {0};
    for (int i = n * N_KINDS - 1; pid == 0 && i > 0; i--) {
        int j = rand() % (i + 1), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    static const char *const STATUS[] = {"over", "abandoned", ""};
    static const char *const RULES[] = {"uk", "classic", ""};
    int fd = connect_to(port);
    int failures = 0;
    for (int i = 0; i < n * N_KINDS; i++) {
        char path[512];
        int k = order[i];
        switch (k) {
        case K_MONTH:
            snprintf(path, sizeof path, "/club/api/ladder");
            break;
        case K_YEAR:
            snprintf(path, sizeof path, "/club/api/ladder?period=%d", year - rand() % 2);
            break;
        case K_PLAYER:
            snprintf(path, sizeof path, "/club/api/player/Player%04d", 1 + rand() % players);
            break;
        case K_ARCHIVE: {
            /* A player's games of a rule set and a status within a year,
             * a page among the first few. */
            int y = year - rand() % 2;
            snprintf(path, sizeof path,
                     "/club/api/games?player=Player%04d&rules=%s&status=%s&from=%d-01-01&to=%d-12-"
                     "31&page=1",
                     1 + rand() % players, RULES[rand() % 3], STATUS[rand() % 3], y, y);
            if (rand() % 3 == 0)
                snprintf(path, sizeof path, "/club/api/games?ladder=true&page=%d", 1 + rand() % 20);
            break;
        }
        case K_LEVEL:
            snprintf(path, sizeof path, "/club/api/level/%s", LEVEL_NAMES[rand() % 4]);
            break;
        default:
            snprintf(path, sizeof path, "/club/api/game/%d", 1 + rand() % games);
            break;
        }
        size_t len = 0;
        double c0 = pid ? cpu_ms(pid) : 0;
        double t0 = now_ms();
        int status = get(fd, path, &len);
        double dt = now_ms() - t0;
        if (pid)
            cpu[k] += cpu_ms(pid) - c0;
        if (status == 0) {
            close(fd);
            fd = connect_to(port);
            failures++;
            continue;
        }
        if (status != 200) {
            if (failures++ < 5)
                fprintf(stderr, "bench_club_load: %s answered %d\n", path, status);
            continue;
        }
        lat[k][nlat[k]++] = dt;
        bytes[k] += len;
    }
    close(fd);
    printf("%-16s %6s %9s %9s %9s %9s%s\n", "kind", "n", "median", "p99", "max", "bytes",
           pid ? "  cpu/request" : "");
    for (int k = 0; k < N_KINDS; k++) {
        if (nlat[k] == 0) {
            printf("%-16s %6d (no answer)\n", KIND_NAMES[k], 0);
            continue;
        }
        qsort(lat[k], (size_t)nlat[k], sizeof(double), cmp);
        int p99 = (int)((nlat[k] - 1) * 0.99 + 0.5);
        printf("%-16s %6d %7.2fms %7.2fms %7.2fms %9zu", KIND_NAMES[k], nlat[k],
               lat[k][nlat[k] / 2], lat[k][p99], lat[k][nlat[k] - 1], bytes[k] / (size_t)nlat[k]);
        if (pid)
            printf("  %9.2fms", cpu[k] / nlat[k]);
        printf("\n");
    }
    if (failures)
        printf("failures: %d\n", failures);
    return failures ? 1 : 0;
}
