/* soak_churn.c: the workload of bench/soak.sh. Allocation churn for a given
   wall time: frees and allocates blocks of varied sizes from 48 call sites
   (16 functions at three stack depths) in a working set of 16384 slots
   whose fill level swings slowly (25% to 100% and back, every CYCLE
   seconds, default 60), so the heap rises and falls the same way in every
   cycle for the whole run without growing: anything that grows in the
   tool or in the profile over a long run is the tool's, not the program's.
   Writes its pid (the pid of the Valgrind process running it) to PIDFILE,
   then prints how many operations it did.
   Usage: soak_churn SECONDS PIDFILE [CYCLE] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define SLOTS 16384

static void *slots[SLOTS];
static unsigned long long rng = 88172645463325252ULL;

static unsigned long long next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sixteen allocation sites, each its own function (so its own tree node). */
#define SITE(n) \
    __attribute__((noinline)) static void *site_##n(size_t sz) { return malloc(sz + n); }
SITE(0) SITE(1) SITE(2) SITE(3) SITE(4) SITE(5) SITE(6) SITE(7)
SITE(8) SITE(9) SITE(10) SITE(11) SITE(12) SITE(13) SITE(14) SITE(15)
static void *(*const sites[16])(size_t) = {
    site_0, site_1, site_2, site_3, site_4, site_5, site_6, site_7,
    site_8, site_9, site_10, site_11, site_12, site_13, site_14, site_15,
};

/* Three stack depths above the site. */
__attribute__((noinline)) static void *depth1(int s, size_t sz) { return sites[s](sz); }
__attribute__((noinline)) static void *depth2(int s, size_t sz) { return depth1(s, sz); }
__attribute__((noinline)) static void *depth3(int s, size_t sz) { return depth2(s, sz); }

static size_t pick_size(unsigned long long r)
{
    switch (r & 15) {
    case 0:  return 4096 + (r >> 8) % 32768;
    case 1: case 2: case 3: return 256 + (r >> 8) % 2048;
    default: return 16 + (r >> 8) % 240;
    }
}

int main(int argc, char **argv)
{
    double start, end, t, cycle;
    unsigned long long ops = 0;
    FILE *f;

    if (argc != 3 && argc != 4)
        return 2;
    cycle = argc == 4 ? atof(argv[3]) : 60;
    if (cycle < 1)
        return 2;
    f = fopen(argv[2], "w");
    if (f == NULL || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0)
        return 1;
    start = now_s();
    end = start + atof(argv[1]);
    for (t = start; t < end; t = now_s()) {
        /* The share of slots kept full swings between 25% and 100%. */
        double phase = (t - start) / cycle - (long long)((t - start) / cycle);
        unsigned fill = (unsigned)(SLOTS * (0.25 + 0.75 * (phase < 0.5 ? 2 * phase : 2 - 2 * phase)));
        int i;
        for (i = 0; i < 4096; i++, ops++) {
            unsigned long long r = next_rand();
            unsigned slot = (unsigned)(r >> 20) % SLOTS;
            free(slots[slot]);
            slots[slot] = NULL;
            if (slot < fill) {
                int s = (int)((r >> 4) & 15), d = (int)((r >> 40) % 3);
                size_t sz = pick_size(r);
                slots[slot] = d == 0 ? depth1(s, sz) : d == 1 ? depth2(s, sz) : depth3(s, sz);
            }
        }
    }
    printf("ops %llu\n", ops);
    return 0;
}
