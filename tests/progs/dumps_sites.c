/* dumps_sites.c: a program whose heap is known by construction, profiled
 * by jemalloc's own sampler (MALLOC_CONF=prof:true,...) for the heap dump
 * tests (t700-t701). Three sites, each in a function of its own:
 *   leak_site   keeps 32 KiB every round, never freed: grows steadily
 *               (ROUNDS * 32 KiB at the end);
 *   cache_put   a ring of CACHE_SLOTS blocks of 32 KiB: 2 MiB once full,
 *               then level (a bounded cache);
 *   burst_site  BURST_BLOCKS blocks of 256 KiB (24 MiB) allocated by a
 *               second thread at round BURST_AT and freed BURST_HOLD rounds
 *               later: the heap's peak, gone again;
 * and 64 KiB allocated and freed every round (churn), so that the
 * allocation counter behind lg_prof_interval's dumps moves steadily.
 * With an argument DIR, it waits before the burst until DIR/go exists, so
 * that a test can look at the dumps of a process that still runs. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 400
#define BLOCK (32 * 1024)
#define CACHE_SLOTS 64
#define BURST_AT 150
#define BURST_HOLD 100
#define BURST_BLOCKS 96

static void *keep[ROUNDS];
static void *cache[CACHE_SLOTS];
static void *burst[BURST_BLOCKS];

static void *leak_site(void)
{
    void *p = malloc(BLOCK); /* LEAK_LINE */
    memset(p, 1, BLOCK);
    return p;
}

static void cache_put(int i)
{
    free(cache[i % CACHE_SLOTS]);
    cache[i % CACHE_SLOTS] = malloc(BLOCK); /* CACHE_LINE */
    memset(cache[i % CACHE_SLOTS], 2, BLOCK);
}

static void *burst_site(void *arg)
{
    (void)arg;
    for (int k = 0; k < BURST_BLOCKS; k++) {
        burst[k] = malloc(256 * 1024); /* BURST_LINE */
        memset(burst[k], 3, 256 * 1024);
    }
    return NULL;
}

static void churn(void)
{
    volatile char *t = malloc(2 * BLOCK);
    t[0] = 4;
    free((void *)t);
}

/* Waits until the file dir/go exists. */
static void wait_go(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/go", dir);
    struct timespec ms10 = { 0, 10 * 1000 * 1000 };
    while (access(path, F_OK) != 0)
        nanosleep(&ms10, NULL);
}

int main(int argc, char **argv)
{
    for (int i = 0; i < ROUNDS; i++) {
        if (i == BURST_AT && argc > 1)
            wait_go(argv[1]);
        keep[i] = leak_site();
        cache_put(i);
        churn();
        if (i == BURST_AT) {
            pthread_t th;
            if (pthread_create(&th, NULL, burst_site, NULL) != 0 || pthread_join(th, NULL) != 0)
                return 1;
        }
        if (i == BURST_AT + BURST_HOLD)
            for (int k = 0; k < BURST_BLOCKS; k++)
                free(burst[k]);
    }
    return keep[ROUNDS - 1] ? 0 : 1;
}
