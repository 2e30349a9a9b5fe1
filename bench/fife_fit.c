/*
 * fife_fit.c - fits the heuristic player's Fife Call estimates (seed 000)
 * on the deals bench/fife_deals.c writes: for each Call, a least-squares
 * fit (with a little ridge) of the Caller's score on the hand's features
 * (fife_features in heuristic_bid.c), on four fifths of the deals; prints
 * the weights as C and, on the other fifth, how much of the score's
 * variance the fit and the play-outs' estimate explain.
 *
 * Not part of the CMake build.  From the repository root:
 *
 *   cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude bench/fife_fit.c \
 *      /tmp/build-ai/libbarbu_ai.a /tmp/build-ai/libbarbu_engine.a -lm -o /tmp/fife_fit
 *   /tmp/fife_fit /tmp/fife-deals.txt
 *
 * It includes heuristic_bid.c itself for the features, so it fits whatever
 * features are in the tree.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../src/ai/heuristic_bid.c"

#define MAX_DEALS 200000
#define RIDGE     1e-3

typedef struct deal {
    barbu_cards hand;
    int score[6];
    double sim[6];
} deal;

static deal deals[MAX_DEALS];

/* Solves (A + ridge I) x = b by Cholesky; A is n x n, symmetric. */
static int solve(double *a, double *b, int n, double *x)
{
    for (int i = 0; i < n; i++)
        a[i * n + i] += RIDGE * (a[i * n + i] > 0 ? a[i * n + i] : 1.0) + 1e-9;
    for (int j = 0; j < n; j++) {
        double s = a[j * n + j];
        for (int k = 0; k < j; k++)
            s -= a[j * n + k] * a[j * n + k];
        if (s <= 0)
            return -1;
        a[j * n + j] = sqrt(s);
        for (int i = j + 1; i < n; i++) {
            double t = a[i * n + j];
            for (int k = 0; k < j; k++)
                t -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = t / a[j * n + j];
        }
    }
    for (int i = 0; i < n; i++) {
        double t = b[i];
        for (int k = 0; k < i; k++)
            t -= a[i * n + k] * x[k];
        x[i] = t / a[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        double t = x[i];
        for (int k = i + 1; k < n; k++)
            t -= a[k * n + i] * x[k];
        x[i] = t / a[i * n + i];
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fife_fit DEALS...\n");
        return 2;
    }
    int n = 0;
    for (int f = 1; f < argc; f++) {
        FILE *in = fopen(argv[f], "r");
        if (!in)
            return 1;
        char line[512];
        while (n < MAX_DEALS && fgets(line, sizeof line, in)) {
            deal *d = &deals[n];
            uint64_t hand;
            if (sscanf(line, "%" SCNx64 " %d %d %d %d %d %d %lf %lf %lf %lf %lf %lf", &hand,
                       &d->score[0], &d->score[1], &d->score[2], &d->score[3], &d->score[4],
                       &d->score[5], &d->sim[0], &d->sim[1], &d->sim[2], &d->sim[3], &d->sim[4],
                       &d->sim[5]) != 13)
                continue;
            d->hand = hand;
            n++;
        }
        fclose(in);
    }
    barbu_rules rules;
    barbu_rules_preset(&rules, "fife");
    int train = n * 4 / 5;
    printf("%d deals, %d to fit\n", n, train);
    static const char *const NAMES[6] = {"aces",   "king-hearts", "queens",
                                         "hearts", "tricks",      "patience"};
    double coef[6][FIFE_F_N];
    for (int c = 0; c < 6; c++) {
        static double a[FIFE_F_N * FIFE_F_N];
        double b[FIFE_F_N] = {0}, f[FIFE_F_N];
        for (int i = 0; i < FIFE_F_N * FIFE_F_N; i++)
            a[i] = 0.0;
        for (int i = 0; i < train; i++) {
            fife_features(&rules, c, deals[i].hand, f);
            for (int p = 0; p < FIFE_F_N; p++) {
                b[p] += f[p] * deals[i].score[c];
                for (int q = 0; q < FIFE_F_N; q++)
                    a[p * FIFE_F_N + q] += f[p] * f[q];
            }
        }
        if (solve(a, b, FIFE_F_N, coef[c]) != 0) {
            fprintf(stderr, "%s: no fit\n", NAMES[c]);
            return 1;
        }
        /* How well each estimate predicts the held-out scores. */
        double mean = 0.0;
        for (int i = train; i < n; i++)
            mean += deals[i].score[c];
        mean /= n - train;
        double var = 0.0, e_fit = 0.0, e_sim = 0.0, e_old = 0.0, m_fit = 0.0, m_sim = 0.0;
        for (int i = train; i < n; i++) {
            double y = deals[i].score[c], fit = 0.0;
            fife_features(&rules, c, deals[i].hand, f);
            for (int p = 0; p < FIFE_F_N; p++)
                fit += coef[c][p] * f[p];
            double old = bb_h_estimate(&rules, c, deals[i].hand, -1, 0, 1);
            var += (y - mean) * (y - mean);
            e_fit += (y - fit) * (y - fit);
            e_sim += (y - deals[i].sim[c]) * (y - deals[i].sim[c]);
            e_old += (y - old) * (y - old);
            m_fit += fit;
            m_sim += deals[i].sim[c];
        }
        int k = n - train;
        printf("%-12s mean %7.2f  fit mean %7.2f  play-outs mean %7.2f  R2: fit %.3f  "
               "play-outs %.3f  estimate in use %.3f\n",
               NAMES[c], mean, m_fit / k, m_sim / k, 1 - e_fit / var, 1 - e_sim / var,
               1 - e_old / var);
    }
    printf("static const double FIFE_COEF[6][FIFE_F_N] = {\n");
    for (int c = 0; c < 6; c++) {
        printf("    /* %s */\n    {", NAMES[c]);
        for (int p = 0; p < FIFE_F_N; p++)
            printf("%s%8.4f", p ? ", " : "", coef[c][p]);
        printf("},\n");
    }
    printf("};\n");
    return 0;
}
