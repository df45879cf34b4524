/* bursts.c: a slow leak with short bursts, stamped by its own clock: the
   shape issue reports describe (a node that leaks and now and then holds a
   lot for a moment). Usage:
     bursts N_BURSTS PERIOD_MS HOLD_MS BURST_MIB LEAK_KIB LEAK_EVERY_MS
   Every LEAK_EVERY_MS it leaks LEAK_KIB; every PERIOD_MS (the first one
   PERIOD_MS/2 in) it allocates BURST_MIB, holds it HOLD_MS, frees it.
   Prints, with CLOCK_MONOTONIC in ns, each read just before and just after
   what it brackets, so a reader knows every true time whatever the load:
     anchor B A                         around MEMTIME_MARK("anchor")
     burst K SIZE B1 A1 B2 A2 LEVEL     around the burst's malloc and free;
                                        LEVEL: bytes the program held
                                        just before the burst (the leak)
     end T                              just before returning */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "memtime.h"

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Sleeps until t_ns, leaking on the way at every due leak time. */
static long long leaked_B, next_leak_ns, leak_every_ns, leak_B;
static void *leaks_head;
static void run_until(long long t_ns)
{
    for (;;) {
        long long now = now_ns();
        if (now >= next_leak_ns) {
            void **p = malloc(leak_B);
            if (!p) exit(1);
            memset(p, 0, sizeof *p);
            *p = leaks_head;   /* reachable: a leak the program "keeps" */
            leaks_head = p;
            leaked_B += leak_B;
            next_leak_ns += leak_every_ns;
            continue;
        }
        if (now >= t_ns)
            return;
        long long until = next_leak_ns < t_ns ? next_leak_ns : t_ns;
        struct timespec d = { (until - now) / 1000000000LL, (until - now) % 1000000000LL };
        nanosleep(&d, NULL);
    }
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: bursts N PERIOD_MS HOLD_MS BURST_MIB LEAK_KIB LEAK_EVERY_MS\n");
        return 2;
    }
    int n = atoi(argv[1]);
    long long period = atoll(argv[2]) * 1000000LL, hold = atoll(argv[3]) * 1000000LL;
    size_t burst_B = (size_t)atoll(argv[4]) << 20;
    leak_B = atoll(argv[5]) << 10;
    leak_every_ns = atoll(argv[6]) * 1000000LL;
    setvbuf(stdout, NULL, _IOLBF, 0);

    long long b = now_ns();
    MEMTIME_MARK("anchor");
    long long a = now_ns();
    printf("anchor %lld %lld\n", b, a);
    long long t0 = a;
    next_leak_ns = t0;
    for (int k = 0; k < n; k++) {
        run_until(t0 + period / 2 + k * period);
        long long level = leaked_B;
        long long b1 = now_ns();
        char *big = malloc(burst_B);
        long long a1 = now_ns();
        if (!big) return 1;
        big[0] = 1;
        /* Hold it: no leak meanwhile, so the burst sits on a flat level. */
        long long until = a1 + hold;
        while (now_ns() < until) {
            struct timespec d = { 0, 200000 };
            nanosleep(&d, NULL);
        }
        long long b2 = now_ns();
        free(big);
        long long a2 = now_ns();
        printf("burst %d %zu %lld %lld %lld %lld %lld\n", k, burst_B, b1, a1, b2, a2, level);
        if (next_leak_ns < a2) next_leak_ns = a2;   /* no catch-up burst of leaks */
    }
    run_until(t0 + (long long)n * period);
    printf("end %lld\n", now_ns());
    return 0;
}
