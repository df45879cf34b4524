/* vis_growth.c: a small C program with several allocation sites, nested
 * callers, a realloc-grown buffer and frees, so Massif writes trees with
 * several levels, threshold lines and a peak. Used by tests/t2*.sh. */
#include <stdlib.h>
#include <string.h>

static char *keep[64];

static void *make_block(size_t n)
{
    char *p = malloc(n);
    memset(p, 1, n);
    return p;
}

static void *cache_entry(size_t n) { return make_block(n); }

static void fill_cache(int rounds)
{
    for (int i = 0; i < rounds; i++)
        keep[i % 64] = cache_entry(1000 + 100 * (size_t)i);
}

static char *grow(char *buf, size_t n)
{
    return realloc(buf, n);
}

int main(void)
{
    char *log = NULL;
    char *tiny[40];
    for (int i = 0; i < 40; i++)
        tiny[i] = malloc(8 + (size_t)i);          /* many small sites: below threshold */
    for (int step = 1; step <= 30; step++) {
        log = grow(log, (size_t)step * 2048);
        fill_cache(step % 8 + 1);
        void *tmp = calloc((size_t)step, 512);
        free(tmp);
    }
    for (int i = 0; i < 64; i++) {
        free(keep[i]);
        keep[i] = NULL;
    }
    for (int i = 0; i < 40; i++)
        free(tiny[i]);
    free(log);
    return 0;
}
