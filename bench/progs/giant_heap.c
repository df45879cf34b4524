/* giant_heap.c: the workload of bench "giant": keeps N small blocks
   (16-47 bytes, pseudo-random) alive, written like a cache or an index
   would write them, then replaces half of them (frees one at random,
   allocates another of a new size in its place), as a node's caches and
   mempools do over hours. Deterministic: a fixed-seed xorshift.
   Usage: giant_heap [blocks]   (default 10000000) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long state = 0x9E3779B97F4A7C15ULL;

static unsigned long long next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static void *block(size_t n)
{
    char *p = malloc(n);
    if (p == NULL) {
        fprintf(stderr, "giant_heap: out of memory\n");
        exit(1);
    }
    memset(p, (int)n, n);
    return p;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000, i;
    char **live = malloc((size_t)n * sizeof *live);
    unsigned long sum = 0;
    if (live == NULL || n <= 0) return 1;
    for (i = 0; i < n; i++)
        live[i] = block(16 + next() % 32);
    for (i = 0; i < n / 2; i++) {
        long j = (long)(next() % (unsigned long long)n);
        free(live[j]);
        live[j] = block(16 + next() % 32);
    }
    for (i = 0; i < n; i += 4096)
        sum += (unsigned char)live[i][0];
    for (i = 0; i < n; i++)
        free(live[i]);
    free(live);
    printf("%ld %lu\n", n, sum);
    return 0;
}
