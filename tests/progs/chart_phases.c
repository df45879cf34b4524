/* chart_phases: a program with a known memory shape for the chart tests.
 * Phase 1 grows a "cache" site to 4 MiB in 64 steps; phase 2 frees it and
 * grows an "index" site to 3 MiB; then everything is freed. A third, small
 * site allocates a little all along. */
#include <stdlib.h>
#include <string.h>

#define STEPS 64

static void *cache_alloc(size_t n) { void *p = malloc(n); memset(p, 1, n); return p; }
static void *index_alloc(size_t n) { void *p = malloc(n); memset(p, 2, n); return p; }
static void *small_alloc(size_t n) { void *p = malloc(n); memset(p, 3, n); return p; }

int main(void)
{
    static void *cache[STEPS], *index[STEPS], *small[2 * STEPS];
    for (int i = 0; i < STEPS; i++) {
        cache[i] = cache_alloc(64 * 1024);
        small[i] = small_alloc(1024);
    }
    for (int i = 0; i < STEPS; i++) {
        free(cache[i]);
        index[i] = index_alloc(48 * 1024);
        small[STEPS + i] = small_alloc(1024);
    }
    for (int i = 0; i < STEPS; i++)
        free(index[i]);
    for (int i = 0; i < 2 * STEPS; i++)
        free(small[i]);
    return 0;
}
