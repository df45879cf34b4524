/* compact_heap.c: every allocation entry point on small and big blocks,
   checked by the program itself (exit 1 and a line on stderr at the first
   wrong answer), for --compact-heap=yes (t105). Run under Valgrind only:
   its usable sizes are the client arena's (the request rounded up to 16;
   with "arena" as second argument, or 16 bytes more, the remainder the
   arena leaves unsplit). The heap grows to one
   peak, then shrinks to nothing, so the peak is one known moment; the
   program prints the bytes it holds there (its own sum of requests).
   Usage: compact_heap [big [arena]]   (default 3000 big blocks: the table grows
   through several migrations while they are live) */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "valgrind/valgrind.h"

static long held;   /* bytes requested and not freed */
static int arena;

#define CHECK(c, ...) do { if (!(c)) { fprintf(stderr, "compact_heap: " __VA_ARGS__); \
    fprintf(stderr, "\n"); exit(1); } } while (0)

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }
static int usable_ok(const void* p, size_t n)
{
    size_t u = malloc_usable_size((void*)p);
    return u == round16(n) || (arena && u == round16(n) + 16);
}

__attribute__((noinline)) static void* small_site(size_t n) { held += (long)n; return malloc(n); }
__attribute__((noinline)) static void* big_site(size_t n) { held += (long)n; return malloc(n); }
__attribute__((noinline)) static void* zero_site(size_t n) { held += (long)n; return calloc(1, n); }

int main(int argc, char** argv)
{
    int nbig = argc > 1 ? atoi(argv[1]) : 3000, i;
    enum { NSMALL = 70000 };   /* past 65536: -v's figure at the high */
    static char* small[NSMALL];
    char** big = malloc(sizeof *big * (size_t)nbig);
    char *p, *q, *pool;
    void* a;
    held += (long)(sizeof *big * (size_t)nbig);
    setvbuf(stdout, NULL, _IONBF, 0);   /* no stdio buffer in the heap */
    arena = argc > 2 && strcmp(argv[2], "arena") == 0;

    /* Small blocks of every size up to 1 KB and 0: usable = the request
       rounded up to 16, as Valgrind's arena gives. */
    for (i = 0; i < NSMALL; i++) {
        size_t n = (size_t)(i % 1026);
        small[i] = small_site(n);
        CHECK(small[i] != NULL, "malloc(%zu) failed", n);
        CHECK(usable_ok(small[i], n), "usable(%zu) = %zu", n,
              malloc_usable_size(small[i]));
        memset(small[i], 0xAB, malloc_usable_size(small[i]));
    }
    /* Freed memory reused by calloc comes back zeroed. */
    for (i = 0; i < 1000; i++) { held -= (long)(i % 1026); free(small[i]); small[i] = NULL; }
    for (i = 0; i < 1000; i++) {
        size_t n = (size_t)(i % 1026), k;
        small[i] = zero_site(n);
        for (k = 0; k < n; k++)
            if (small[i][k] != 0) { CHECK(0, "calloc(%zu) byte %zu not zero", n, k); break; }
    }
    /* realloc within the usable size stays in place; beyond, it moves and
       keeps the contents. */
    p = small_site(20);
    memcpy(p, "0123456789abcdefghi", 20);
    {
        size_t u = malloc_usable_size(p);
        uintptr_t was = (uintptr_t)p;
        q = realloc(p, 32); held += 12;
        CHECK(u < 32 || (uintptr_t)q == was, "realloc(20 -> 32) moved");
    }
    q = realloc(p, 100); held += 68;
    CHECK(q != NULL && memcmp(q, "0123456789abcdefghi", 20) == 0, "realloc(32 -> 100) lost the data");
    CHECK(usable_ok(q, 100), "usable after realloc = %zu", malloc_usable_size(q));
    q = realloc(q, 5000); held += 4900;   /* out of the slabs */
    CHECK(q != NULL && memcmp(q, "0123456789abcdefghi", 20) == 0, "realloc(100 -> 5000) lost the data");
    q = realloc(q, 40); held -= 4960;     /* in place: the big block stays */
    CHECK(malloc_usable_size(q) >= 5000, "realloc(5000 -> 40) moved");
    /* Aligned blocks come from the arena. */
    a = memalign(64, 24); held += 24;
    CHECK(a != NULL && (uintptr_t)a % 64 == 0, "memalign(64) misaligned");
    CHECK(posix_memalign(&a, 256, 40) == 0 && (uintptr_t)a % 256 == 0, "posix_memalign(256)");
    held += 40;
    a = aligned_alloc(16, 48); held += 48;
    CHECK(a != NULL && usable_ok(a, 48), "aligned_alloc(16, 48) usable %zu", malloc_usable_size(a));
    /* A custom allocator's block at the start of a malloc'd pool hides the
       pool's record until it is freed. */
    pool = small_site(512);
    VALGRIND_MALLOCLIKE_BLOCK(pool, 100, 0, 0); held += 100;
    VALGRIND_MALLOCLIKE_BLOCK(pool + 128, 200, 0, 0); held += 200;
    VALGRIND_FREELIKE_BLOCK(pool, 0); held -= 100;
    VALGRIND_FREELIKE_BLOCK(pool + 128, 0); held -= 200;
    CHECK(usable_ok(pool, 512), "the pool's record lost (usable %zu)", malloc_usable_size(pool));
    /* Big blocks: the table grows (1024 slots first) while they are live,
       and every one is found again, in another order. */
    for (i = 0; i < nbig; i++) {
        big[i] = big_site(2000 + (size_t)i % 7);
        CHECK(big[i] != NULL, "malloc(big) failed");
    }
    for (i = 0; i < nbig; i++)
        CHECK(malloc_usable_size(big[(i * 7919) % nbig]) >= 2000, "big block %d lost", (i * 7919) % nbig);

    printf("peak %ld\n", held);   /* the peak: everything frees from here */

    for (i = 0; i < nbig; i++) {
        int j = (i * 7919) % nbig;
        held -= (long)(2000 + (size_t)j % 7);
        free(big[j]);
    }
    for (i = 0; i < NSMALL; i++)
        free(small[i]);
    free(q); free(a); free(pool);
    free(big);
    return 0;
}
