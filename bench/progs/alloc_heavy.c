/* alloc_heavy.c: the allocation-heavy workload of bench "heap".
   Millions of malloc/calloc/realloc/free of varied sizes from several call
   sites at different stack depths, with a bounded working set so the heap
   rises and falls (peaks and culling get exercised, not only growth).
   Usage: alloc_heavy [operations]   (default 2000000) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVE_SLOTS 8192

static void *slots[LIVE_SLOTS];
static unsigned long long rng = 88172645463325252ULL;

/* xorshift: deterministic, so every tool sees the same sequence of events. */
static unsigned long long next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Sizes: mostly small, sometimes medium, rarely large, like a real server. */
static size_t pick_size(void)
{
    unsigned long long r = next_rand();
    switch (r & 15) {
    case 0:  return 4096 + (r >> 8) % 65536;
    case 1: case 2: case 3: return 256 + (r >> 8) % 2048;
    default: return 1 + (r >> 8) % 200;
    }
}

/* Distinct call sites, some behind extra frames, so trees have structure. */
__attribute__((noinline)) static void *site_small(size_t n) { return malloc(n); }
__attribute__((noinline)) static void *site_zeroed(size_t n) { return calloc(1, n); }
__attribute__((noinline)) static void *site_grow(void *p, size_t n) { return realloc(p, n); }
__attribute__((noinline)) static void *parse_message(size_t n) { return malloc(n); }
__attribute__((noinline)) static void *decode_block(size_t n) { return parse_message(n); }
__attribute__((noinline)) static void *handle_request(size_t n) { return decode_block(n); }
__attribute__((noinline)) static void *cache_insert(size_t n) { return malloc(n); }
__attribute__((noinline)) static void *index_rebuild(size_t n) { return cache_insert(n); }

static void *allocate(unsigned which, size_t n)
{
    switch (which % 6) {
    case 0:  return site_small(n);
    case 1:  return site_zeroed(n);
    case 2:  return handle_request(n);
    case 3:  return index_rebuild(n);
    case 4:  return decode_block(n);
    default: return cache_insert(n);
    }
}

int main(int argc, char **argv)
{
    long ops = argc > 1 ? atol(argv[1]) : 2000000;
    unsigned long long checksum = 0;

    for (long i = 0; i < ops; i++) {
        unsigned long long r = next_rand();
        unsigned slot = (unsigned)(r % LIVE_SLOTS);
        /* Working set breathes: in some phases slots are refilled more often
           than emptied, in others the other way round. */
        int phase_grow = ((i >> 16) & 1) == 0;
        if (slots[slot] == NULL) {
            if (phase_grow || (r & 3) == 0) {
                size_t n = pick_size();
                slots[slot] = allocate((unsigned)(r >> 32), n);
                ((char *)slots[slot])[0] = (char)n;
            }
        } else if ((r >> 40) % 8 == 0) {
            slots[slot] = site_grow(slots[slot], pick_size());
        } else if (!phase_grow || (r & 3) == 0) {
            checksum += (unsigned char)((char *)slots[slot])[0];
            free(slots[slot]);
            slots[slot] = NULL;
        }
    }
    for (unsigned s = 0; s < LIVE_SLOTS; s++)
        free(slots[s]);
    printf("alloc_heavy: %ld ops, checksum %llu\n", ops, checksum);
    return 0;
}
