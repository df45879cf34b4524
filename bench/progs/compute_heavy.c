/* compute_heavy.c: the compute-heavy workload of bench "heap".
   A handful of allocations, then lots of arithmetic and small non-inlined
   calls: a tool's cost here is per instruction and per call, not per
   allocation, which is where --time-unit=i and stack tracking show up.
   Usage: compute_heavy [rounds]   (default 60) */
#include <stdio.h>
#include <stdlib.h>

#define N 160

__attribute__((noinline)) static double mix(double a, double b)
{
    return a * 0.5 + b * 0.25 + 1.0;
}

__attribute__((noinline)) static void matmul(const double *a, const double *b, double *c)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++)
                s += a[i * N + k] * b[k * N + j];
            c[i * N + j] = s;
        }
}

__attribute__((noinline)) static unsigned long collatz_steps(unsigned long x)
{
    unsigned long steps = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
    }
    return steps;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 60;
    double *a = malloc(sizeof(double) * N * N);
    double *b = malloc(sizeof(double) * N * N);
    double *c = malloc(sizeof(double) * N * N);
    double acc = 0;
    unsigned long steps = 0;

    if (!a || !b || !c)
        return 1;
    for (int i = 0; i < N * N; i++) {
        a[i] = (i % 17) * 0.1;
        b[i] = (i % 13) * 0.2;
    }
    for (int r = 0; r < rounds; r++) {
        matmul(a, b, c);
        for (int i = 0; i < N * N; i++)
            acc = mix(acc, c[i]) * 1e-3;
        for (unsigned long x = 1; x < 3000; x++)
            steps += collatz_steps(x + (unsigned long)r);
        /* One allocation per round: a few snapshots, not an allocation load. */
        double *tmp = malloc(sizeof(double) * N);
        tmp[0] = acc;
        acc = tmp[0];
        free(tmp);
    }
    printf("compute_heavy: %d rounds, %g %lu\n", rounds, acc, steps);
    free(a);
    free(b);
    free(c);
    return 0;
}
