/* grow_kinds.c: the three shapes a leak hunt must tell
 * apart (steady growth, a plateau, a burst), with answers known by
 * construction, for the growth, leak and count views (tests/t610-*.sh).
 * Each tick (TICKS in all, a sleep-free loop so --time-unit=i is repeatable):
 *   leak_tick:   one 24 KiB block kept forever (a leak: steady growth);
 *   cache_put:   one 32 KiB block into a cache of at most 40 entries, the
 *                oldest freed when full (grows to 1.25 MiB by tick 40, then
 *                a plateau);
 *   burst:       during ticks 50..59, 8 blocks of 128 KiB each, all freed at
 *                tick 60 (rises and falls: a burst of 10 MiB);
 *   scratch:     one 100-byte block freed at once (a temporary), then one
 *                kept until the next tick and freed after another allocation
 *                (not temporary).
 * Counts at exit, with TICKS=100:
 *   leak_tick   100 allocations, 0 temporary, 100 blocks live (2,457,600 B);
 *   cache_put   100 allocations, 0 temporary, 40 live (1,310,720 B);
 *   burst        80 allocations, 0 temporary, 0 live;
 *   scratch_tmp 100 allocations, 100 temporary, 0 live;
 *   scratch_kept 100 allocations, 0 temporary, 0 live.
 * "wait=FILE" makes it create FILE after tick 70 and then sleep until it
 * is killed from outside (the test's killed run; gives up after 60 s);
 * "leak=N" changes the leak block to N bytes (for diffs and gates). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* PAD: code the test adds with -DPAD=... to move every function below to
 * another address without changing a line number (a "second build"). */
#ifndef PAD
#define PAD
#endif
PAD

#define TICKS 100
static size_t leak_size = 24 * 1024;
static void **leaked;
static size_t n_leaked;
#define CACHE 40
static void *cache[CACHE];
static size_t cache_next;
static void *bursts[80];
static size_t n_bursts;
static void *kept;

static void work(volatile char *p, size_t n)
{
    for (size_t i = 0; i < n; i += 64)
        p[i] = (char)i;
}

static void leak_tick(void)
{
    char *p = malloc(leak_size);
    work(p, leak_size);
    leaked[n_leaked++] = p;
}

static void cache_put(void)
{
    free(cache[cache_next]);
    cache[cache_next] = malloc(32 * 1024);
    work(cache[cache_next], 32 * 1024);
    cache_next = (cache_next + 1) % CACHE;
}

static void burst(void)
{
    for (int i = 0; i < 8; i++) {
        bursts[n_bursts] = malloc(128 * 1024);
        work(bursts[n_bursts++], 128 * 1024);
    }
}

static void scratch_tmp(void)
{
    char *p = malloc(100);
    work(p, 100);
    free(p);
}

static void *scratch_kept(void)
{
    char *p = malloc(100);
    work(p, 100);
    return p;
}

int main(int argc, char **argv)
{
    const char *wait_file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "wait=", 5))
            wait_file = argv[i] + 5;
        else if (!strncmp(argv[i], "leak=", 5))
            leak_size = (size_t)atol(argv[i] + 5);
    }
    leaked = calloc(TICKS, sizeof *leaked);
    for (int t = 0; t < TICKS; t++) {
        void *k = scratch_kept();
        leak_tick();
        cache_put();
        if (t >= 50 && t < 60)
            burst();
        if (t == 60) {
            for (size_t i = 0; i < n_bursts; i++)
                free(bursts[i]);
        }
        scratch_tmp();
        free(kept);
        kept = k;
        /* Time passes between ticks without allocating (the i unit counts it). */
        static volatile unsigned long spin;
        for (int i = 0; i < 200000; i++)
            spin += (unsigned long)i;
        if (wait_file && t == 70) {
            FILE *f = fopen(wait_file, "w");
            if (f)
                fclose(f);
            for (int i = 0; i < 1200; i++)
                usleep(50000);   /* memtime rewrites the profile before sleeps */
            return 1;
        }
    }
    free(kept);
    return 0;
}
